//! Mortars in the engine — R 31.0 (where a Mortar may fire from), R 31.1
//! (Directed Fire: the spotter's hex, the −1, Op Fire only from the mover's
//! second hex), R 59.3 (GD Squads: no Directed Fire). The FP arithmetic is
//! `rules::fire::infantry_fp` with the Mortar column (`rules::mortar`);
//! the fire orders, Op Fire and the fire preview reach Mortars through
//! [`fire_los`] and [`check_position`].

use crate::world::UnitId;
use bevy::prelude::*;

use crate::rules::los::{Los, LosQuery, Sight, line_of_sight};
use crate::rules::mortar::{FiringPosition, check_directed, fires_as_mortar, may_fire_from};
use crate::scenario::Coord;
use crate::scenario::player_aid::Cell;
use crate::scenario::schema::{FortificationKind, Nationality, Side6};
use crate::world::{ActiveScenario, AidRes, BoardRes, Location, RosterRes, Unit};

use super::events::GameEvent;
use super::orders::Refusal;

/// What Mortars add to the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MortarEvent {
    /// The Mortar has no LOS of its own; a spotter next to it sees the
    /// target (R 31.1).
    Directed {
        unit: crate::world::UnitId,
        spotter: String,
        target: String,
    },
}

impl MortarEvent {
    pub fn line(&self) -> String {
        match self {
            MortarEvent::Directed {
                unit,
                spotter,
                target,
            } => format!(
                "{unit} fires by Directed Fire: its spotter in {spotter} sees {target}, -1 FP (R 31.1)"
            ),
        }
    }
}

/// The LOS an attack is made with: the firer's own, or for a Mortar WT
/// without one, a spotter's from a hex next to it (R 31.1), with that hex.
#[derive(Debug, Clone)]
pub struct FireLos {
    /// The firer's own thread, or the spotter's when `spotter` is set.
    pub los: Los,
    /// The spotter's hex: the attack is Directed Fire (−1, R 31.1).
    pub spotter: Option<Coord>,
}

impl FireLos {
    /// The thread to use, if any.
    pub fn sight(&self) -> Option<&Sight> {
        match &self.los {
            Los::Seen(s) => Some(s),
            Los::Blocked { .. } => None,
        }
    }
}

/// The LOS for `firer`'s attack along `query` (R 14.0): its own, else for a
/// Mortar WT Directed Fire from an adjacent hex that is neither enemy
/// occupied nor impassable to Infantry (R 31.1), the first such hex in
/// label order that sees the target. `at_mover_first_hex`: Op Fire at a
/// unit in the first hex of its move, where Directed Fire is not allowed.
pub fn fire_los(
    world: &World,
    firer: Entity,
    query: &LosQuery,
    at_mover_first_hex: bool,
) -> FireLos {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let own = line_of_sight(&board, &aid, query);
    if !own.is_blocked() {
        return FireLos {
            los: own,
            spotter: None,
        };
    }
    let blocked = FireLos {
        los: own,
        spotter: None,
    };
    let Some(mut spots) = spotter_hexes(world, firer, query, at_mover_first_hex) else {
        return blocked;
    };
    // Labels formatted once per hex, not at every comparison.
    spots.sort_by_cached_key(|c| (c.label().len(), c.label()));
    let (board, aid) = (
        &world.resource::<BoardRes>().0,
        &world.resource::<AidRes>().0,
    );
    for spot in spots {
        if let Los::Seen(s) = line_of_sight(board, aid, &spotter_query(query, spot)) {
            return FireLos {
                los: Los::Seen(s),
                spotter: Some(spot),
            };
        }
    }
    blocked
}

/// Whether [`fire_los`] finds a thread, the firer's own being blocked:
/// whether any spotter hex sees the target (R 31.1), in no order.
pub fn spotter_sees(world: &World, firer: Entity, query: &LosQuery, first_hex: bool) -> bool {
    let (board, aid) = (
        &world.resource::<BoardRes>().0,
        &world.resource::<AidRes>().0,
    );
    spotter_hexes(world, firer, query, first_hex).is_some_and(|spots| {
        spots
            .into_iter()
            .any(|spot| !crate::rules::los::is_blocked(board, aid, &spotter_query(query, spot)))
    })
}

/// The spotter's thread from the target (R 31.1); the spotter stands in
/// the open of its hex.
fn spotter_query(query: &LosQuery, spot: Coord) -> LosQuery {
    LosQuery {
        from: spot,
        from_in_cave: false,
        ..query.clone()
    }
}

/// The hexes a Mortar WT's spotter may stand in (R 31.1), in no order:
/// next to it, neither enemy occupied nor impassable to Infantry; `None`
/// when the firer may not fire by Directed Fire.
fn spotter_hexes(
    world: &World,
    firer: Entity,
    query: &LosQuery,
    at_mover_first_hex: bool,
) -> Option<Vec<Coord>> {
    let class = class_of(world, firer)?;
    if !fires_as_mortar(class) || check_directed(class, at_mover_first_hex).is_err() {
        return None;
    }
    let side = world.get::<Unit>(firer).map(|u| u.side)?;
    let enemy_at =
        crate::world::queries::try_with_query::<(&Unit, &Location), (), _>(world, |q| {
            q.filter(|(u, _)| u.side != side)
                .map(|(_, l)| l.coord)
                .collect::<Vec<Coord>>()
        })?;
    let (board, aid) = (
        &world.resource::<BoardRes>().0,
        &world.resource::<AidRes>().0,
    );
    Some(
        Side6::ALL
            .into_iter()
            .filter_map(|s| query.from.neighbour(s, board.columns, board.rows))
            .filter(|c| !enemy_at.contains(c))
            .filter(|c| {
                board
                    .cell(*c)
                    .and_then(|cell| aid.terrain_row(cell.terrain.key()))
                    .is_some_and(|row| row.inf_mp != Cell::No)
            })
            .collect(),
    )
}

/// [`fire_los`] for an attack under way: logs the Directed Fire, or the
/// firer's own blocked thread (the firer is Used, R 14.0).
pub fn sight_or_no_los(
    world: &World,
    firer: Entity,
    unit: &str,
    query: &LosQuery,
    at_mover_first_hex: bool,
    events: &mut Vec<GameEvent>,
) -> Option<(Sight, bool)> {
    let fl = fire_los(world, firer, query, at_mover_first_hex);
    if let Some(spot) = fl.spotter {
        events.push(GameEvent::Mortar(MortarEvent::Directed {
            unit: UnitId::from(unit),
            spotter: spot.label(),
            target: crate::rules::fortifications::place_label(query.to, query.to_in_cave),
        }));
    }
    super::fire::seen_or_no_los(fl.los, unit, query, events).map(|s| (s, fl.spotter.is_some()))
}

/// Op Fire at a unit in the first hex of its move: no Directed Fire yet
/// (R 31.1). The trail holds the start hex, then every hex entered.
pub fn mover_in_first_hex(world: &World) -> bool {
    world
        .get_resource::<super::movement::MoveInProgress>()
        .is_none_or(|m| m.trail.len() <= 2)
}

fn class_of(world: &World, e: Entity) -> Option<crate::scenario::roster::UnitClass> {
    let unit = world.get::<Unit>(e)?;
    world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .map(|t| t.class)
}

/// Whether `firer` may fire from where it stands: no WT from a Swamp or
/// Surf hex (R 45.6, R 52.0, `rules::fire::may_fire_from_terrain`); then,
/// for Mortars and GD Squads, R 31.0, R 43.3, R 43.4, R 51.0, R 59.3.
/// Fire, Op Fire, Final Op Fire and Mortar Smoke all ask it.
pub fn check_position(world: &World, firer: Entity) -> Result<(), Refusal> {
    let (Some(unit), Some(loc)) = (world.get::<Unit>(firer), world.get::<Location>(firer)) else {
        return Ok(());
    };
    let roster = &world.resource::<RosterRes>().0;
    let Some(ut) = roster.get(&unit.kind) else {
        return Ok(());
    };
    let board = &world.resource::<BoardRes>().0;
    let aid = &world.resource::<AidRes>().0;
    if let Some(cell) = board.cell(loc.coord) {
        crate::rules::fire::may_fire_from_terrain(aid, ut.class, cell.terrain).map_err(|r| {
            Refusal::Fire {
                reason: r.to_string(),
            }
        })?;
    }
    if !fires_as_mortar(ut.class) {
        return Ok(());
    }
    let hex = board.cell(loc.coord).map_or("open", |c| c.terrain.key());
    let building = aid.terrain_row(hex).is_some_and(|r| r.building);
    let pillbox = board.fortifications.iter().any(|f| {
        f.coord == loc.coord
            && matches!(
                f.kind,
                FortificationKind::Pillbox | FortificationKind::Bunker
            )
    });
    // It set up in this hex, or moved into it (R 31.0).
    let scenario = &world.resource::<ActiveScenario>().scenario;
    let setup_hex = scenario
        .setup
        .iter()
        .find(|p| p.id == unit.id)
        .map(|p| p.at.as_str());
    let moved = setup_hex != Some(loc.coord.label().as_str());
    let pos = FiringPosition {
        hex,
        building,
        pillbox,
        in_cave: loc.in_cave,
        moved_into_jungle: moved,
    };
    may_fire_from(ut.class, ut.nationality == Nationality::Japanese, pos).map_err(|r| {
        Refusal::Fire {
            reason: r.to_string(),
        }
    })
}
