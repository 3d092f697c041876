//! Smoke in the engine — R 48.0 (counters on the board, their effect on the
//! fire that comes out of, crosses or goes into them), R 48.1 (Smoke
//! Grenades thrown by a moving Squad), R 48.2 / R 59.3 (GD Squads place
//! Dispersed Smoke instead of moving), Mortar Smoke by SSR (house), R 13.0
//! (the Recovery Phase flips and removes). The arithmetic is in
//! `rules::smoke` and `rules::fire` (the Smoke situation rows).

use crate::world::UnitId;
use bevy::prelude::*;

use crate::rules::fire::Smoke;
use crate::rules::los::LosQuery;
use crate::rules::smoke::{SmokeSide, after_placing, after_recovery, on_line};
use crate::rules::{Hexes, Mp};
use crate::scenario::Coord;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{SideId, SmokeRules};
use crate::world::{ActiveScenario, AidRes, BoardRes, Location, RosterRes, Unit, mark};

use super::events::GameEvent;
use super::orders::Refusal;

/// A Smoke or Dispersed Smoke counter on the board (R 48.0): one a hex.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmokeCounter {
    pub at: Coord,
    pub side: SmokeSide,
}

/// The Smoke counters and rounds not yet placed (R 59.3, SSR).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct SmokeSupply {
    pub gd_left: u8,
    pub mortar_left: Vec<(SideId, u8)>,
}

/// What Smoke adds to the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmokeEvent {
    /// A unit is selected to place Smoke (R 48.2, R 59.3; Mortar by SSR).
    Started {
        unit: crate::world::UnitId,
        at: String,
        used: u8,
        max: u8,
    },
    /// A counter is placed, or flipped, or the hex already held Smoke.
    Placed {
        unit: crate::world::UnitId,
        at: String,
        placed: SmokeSide,
        before: Option<SmokeSide>,
        rule: &'static str,
    },
    /// The Recovery Phase: Smoke becomes Dispersed, Dispersed Smoke goes.
    Recovered {
        dispersed: Vec<String>,
        removed: Vec<String>,
    },
}

impl SmokeEvent {
    pub fn line(&self) -> String {
        match self {
            SmokeEvent::Started {
                unit,
                at,
                used,
                max,
            } => {
                format!("{unit} is Used to place Smoke at {at} (R 48.0); Ops Range {used}/{max}")
            }
            SmokeEvent::Placed {
                unit,
                at,
                placed,
                before,
                rule,
            } => {
                let now = after_placing(*before, *placed);
                match before {
                    None => format!("{unit} places {} in {at} ({rule})", placed.name()),
                    Some(b) if *b != now => format!(
                        "{unit} places {} in {at}: the {} there flips to {} (R 48.0)",
                        placed.name(),
                        b.name(),
                        now.name()
                    ),
                    Some(b) => format!(
                        "{unit} places {} in {at}: it already holds {}, one counter a hex (R 48.0)",
                        placed.name(),
                        b.name()
                    ),
                }
            }
            SmokeEvent::Recovered { dispersed, removed } => {
                let mut parts = Vec::new();
                if !removed.is_empty() {
                    parts.push(format!(
                        "Dispersed Smoke removed from {}",
                        removed.join(", ")
                    ));
                }
                if !dispersed.is_empty() {
                    parts.push(format!(
                        "Smoke in {} flips to Dispersed Smoke",
                        dispersed.join(", ")
                    ));
                }
                format!("{} (R 13.0, R 48.0)", parts.join("; "))
            }
        }
    }
}

/// The scenario's Smoke SSR.
pub fn smoke_rules(world: &World) -> SmokeRules {
    world
        .resource::<ActiveScenario>()
        .scenario
        .special_rules
        .smoke
        .clone()
}

/// Every Smoke counter on the board, by hex.
pub fn counters(world: &World) -> Vec<SmokeCounter> {
    let Some(mut all) = crate::world::queries::try_with_query::<&SmokeCounter, (), _>(world, |q| {
        q.copied().collect::<Vec<SmokeCounter>>()
    }) else {
        return Vec::new();
    };
    all.sort_by_key(|c| (c.at.col, c.at.row));
    all
}

/// The hexes holding Smoke or Dispersed Smoke, for LOS (R 48.0).
pub fn hexes(world: &World) -> Vec<Coord> {
    counters(world).into_iter().map(|c| c.at).collect()
}

/// The Smoke an attack is impacted by, from the Smoke hexes its thread
/// touches (R 48.0).
pub fn impact(world: &World, touched: &[Coord]) -> Smoke {
    if touched.is_empty() {
        return Smoke::None;
    }
    on_line(
        counters(world)
            .into_iter()
            .filter(|c| touched.contains(&c.at))
            .map(|c| c.side),
    )
}

/// Puts `placed` in `at` (R 48.0: one counter a hex, Smoke flips Dispersed).
pub fn place(
    world: &mut World,
    unit: &str,
    at: Coord,
    placed: SmokeSide,
    rule: &'static str,
    events: &mut Vec<GameEvent>,
) {
    let held =
        crate::world::queries::with_query::<(Entity, &SmokeCounter), (), _>(world, |mut q| {
            q.find(|(_, c)| c.at == at).map(|(e, c)| (e, c.side))
        });
    let now = after_placing(held.map(|h| h.1), placed);
    match held {
        Some((e, _)) => {
            world.entity_mut(e).insert(SmokeCounter { at, side: now });
        }
        None => {
            world.spawn(SmokeCounter { at, side: now });
        }
    }
    events.push(GameEvent::Smoke(SmokeEvent::Placed {
        unit: UnitId::from(unit),
        at: at.label(),
        placed,
        before: held.map(|h| h.1),
        rule,
    }));
}

/// The Recovery Phase (R 13.0, R 48.0): every Dispersed Smoke counter is
/// removed, then every Smoke counter flips to Dispersed Smoke.
pub fn recover(world: &mut World, events: &mut Vec<GameEvent>) {
    let mut all: Vec<(Entity, SmokeCounter)> =
        crate::world::queries::collect::<(Entity, &SmokeCounter), (), _>(world, |(e, c)| (e, *c));
    if all.is_empty() {
        return;
    }
    all.sort_by_key(|(_, c)| (c.at.col, c.at.row));
    let (mut dispersed, mut removed) = (Vec::new(), Vec::new());
    for (e, c) in all {
        match after_recovery(c.side) {
            Some(side) => {
                world.entity_mut(e).insert(SmokeCounter { at: c.at, side });
                dispersed.push(c.at.label());
            }
            None => {
                world.entity_mut(e).despawn();
                removed.push(c.at.label());
            }
        }
    }
    events.push(GameEvent::Smoke(SmokeEvent::Recovered {
        dispersed,
        removed,
    }));
}

fn supply(world: &mut World) -> SmokeSupply {
    if let Some(s) = world.get_resource::<SmokeSupply>() {
        return s.clone();
    }
    let rules = smoke_rules(world);
    let s = SmokeSupply {
        gd_left: rules.gd_counters,
        mortar_left: rules.mortar_rounds,
    };
    world.insert_resource(s.clone());
    s
}

/// A water hex: no Smoke Grenade there (R 48.1); nor any Smoke (decision).
fn water(world: &World, at: Coord) -> bool {
    let board = world.resource::<BoardRes>().0.clone();
    board.cell(at).is_some_and(|c| {
        matches!(
            c.terrain.key(),
            "ocean" | "surf" | "river" | "river_shallow"
        )
    })
}

fn refuse(reason: impl Into<String>) -> Refusal {
    Refusal::Fire {
        reason: reason.into(),
    }
}

/// Who places the Smoke of a `place_smoke` order, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmokeSource {
    /// A GD Squad, Used instead of moving: Dispersed Smoke (R 59.3).
    GdSquad,
    /// A Mortar WT given Smoke rounds by SSR: an attack's MC, then Smoke.
    Mortar,
}

/// Checks a `place_smoke` order (R 48.2, R 59.3; Mortar Smoke by SSR):
/// a GD Squad while the Japanese have Smoke counters left, or a Mortar WT
/// while its side has Smoke rounds left; a hex on the map, not water,
/// within the unit's range band and in its LOS (a Mortar's spotter's,
/// R 31.1).
pub fn check_place(
    world: &mut World,
    entity: Entity,
    at: &str,
) -> Result<(Coord, SmokeSource), Refusal> {
    let board = world.resource::<BoardRes>().0.clone();
    let to = Coord::parse(at, board.columns, board.rows).map_err(|_| Refusal::BadHex {
        label: at.to_string(),
    })?;
    let (Some(unit), Some(loc)) = (
        world.get::<Unit>(entity).cloned(),
        world.get::<Location>(entity).copied(),
    ) else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    let ut = super::fire::roster_type(world, &unit)?;
    super::monsoon::check_not_raining(world, "Smoke").map_err(refuse)?;
    let left = supply(world);
    let source = match ut.class {
        UnitClass::GdSquad => {
            if left.gd_left == 0 {
                return Err(refuse("no Smoke counters left for the GD Squads (R 59.3)"));
            }
            SmokeSource::GdSquad
        }
        UnitClass::MortarTeam => {
            let rounds = left
                .mortar_left
                .iter()
                .find(|(s, _)| *s == unit.side)
                .map_or(0, |(_, n)| *n);
            if rounds == 0 {
                return Err(refuse("no Smoke rounds for this side's Mortars (SSR)"));
            }
            super::mortar::check_position(world, entity)?;
            SmokeSource::Mortar
        }
        _ => {
            return Err(refuse(
                "only GD Squads (R 59.3) and Mortars given Smoke by SSR place Smoke; Squads with Smoke Grenades throw them as they move (R 48.1)",
            ));
        }
    };
    if water(world, to) {
        return Err(refuse("no Smoke in a water hex (R 48.1)"));
    }
    let side = if unit.reduced { ut.reduced } else { ut.full };
    crate::rules::mortar::check_range(side.range, Hexes(loc.coord.distance(to)))
        .map_err(|r| refuse(r.to_string()))?;
    let query = LosQuery {
        from_in_cave: loc.in_cave,
        ..LosQuery::new(loc.coord, to)
    };
    if super::mortar::fire_los(world, entity, &query, false)
        .los
        .is_blocked()
    {
        return Err(refuse(format!("no LOS to {} (R 14.0, R 59.3)", to.label())));
    }
    Ok((to, source))
}

/// Plays a checked `place_smoke`: the unit is Used; a Mortar takes its MC
/// to fire (R 6.0) and places Smoke, a GD Squad places Dispersed Smoke
/// (R 59.3); either way it fired, and loses its Conceal counter (R 15.0).
pub fn execute_place(
    world: &mut World,
    entity: Entity,
    at: Coord,
    source: SmokeSource,
    events: &mut Vec<GameEvent>,
) {
    let Some(unit) = world.get::<Unit>(entity).cloned() else {
        return;
    };
    mark(world, entity, |m| m.used = true);
    let mut left = supply(world);
    let (placed, rule) = match source {
        SmokeSource::GdSquad => {
            left.gd_left = left.gd_left.saturating_sub(1);
            (SmokeSide::Dispersed, "R 59.3")
        }
        SmokeSource::Mortar => {
            if !super::checks::morale_check_to_act(world, entity, "R 6.0", events) {
                events.push(GameEvent::FireFailed {
                    unit: unit.id.clone(),
                });
                return;
            }
            if let Some(r) = left.mortar_left.iter_mut().find(|(s, _)| *s == unit.side) {
                r.1 = r.1.saturating_sub(1);
            }
            (SmokeSide::Smoke, "R 48.0")
        }
    };
    world.insert_resource(left);
    super::concealment::lose_concealment(world, entity, "it fired", events);
    place(world, &unit.id, at, placed, rule, events);
}

/// A Smoke Grenade asked for in a move (R 48.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckedGrenade {
    /// Hexes entered before it is thrown.
    pub after: usize,
    pub at: Coord,
    /// The MP of entering that hex from where it is thrown (0 for its own).
    pub cost: Mp,
}

/// Checks a Smoke Grenade thrown by `entity` from `from` into `at` (R 48.1):
/// the side has Smoke Grenades, the unit is a Squad, the hex is its own or
/// an adjacent non-water hex, no enemy unit shares its hex; the cost is the
/// MP of moving into that hex.
pub fn check_grenade(
    world: &mut World,
    entity: Entity,
    from: Coord,
    after: usize,
    at: &str,
) -> Result<CheckedGrenade, Refusal> {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let step = |reason: String| Refusal::Fire {
        reason: format!("Smoke Grenade into {at}: {reason}"),
    };
    let to = Coord::parse(at, board.columns, board.rows).map_err(|_| Refusal::BadHex {
        label: at.to_string(),
    })?;
    let Some(unit) = world.get::<Unit>(entity).cloned() else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    super::monsoon::check_not_raining(world, "Smoke").map_err(step)?;
    if !smoke_rules(world).grenades.contains(&unit.side) {
        return Err(step("this side has no Smoke Grenades (R 48.1)".to_string()));
    }
    let class = world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .map(|t| t.class);
    if class != Some(UnitClass::Squad) {
        return Err(step(
            "only a Squad throws Smoke Grenades (R 48.1)".to_string(),
        ));
    }
    if from.distance(to) > 1 || water(world, to) {
        return Err(step(
            "a Smoke Grenade goes into the Squad's own or an adjacent non-water hex (R 48.1)"
                .to_string(),
        ));
    }
    if crate::world::queries::with_query::<(&Unit, &Location), (), _>(world, |mut q| {
        q.any(|(u, l)| u.side != unit.side && l.coord == from && !l.in_cave)
    }) {
        return Err(step(
            "no Smoke Grenade from a hex holding an enemy unit (R 48.1)".to_string(),
        ));
    }
    let cost = if from == to {
        Mp(0)
    } else {
        let rules = crate::rules::movement::MoveRules::of(
            &world.resource::<ActiveScenario>().scenario.special_rules,
        );
        crate::rules::movement::step_cost(&board, &aid, rules, from, to)
            .map_err(|r| step(r.to_string()))?
            .total
    };
    Ok(CheckedGrenade {
        after,
        at: to,
        cost,
    })
}

/// The Smoke Grenade of a move being checked, at step `i` (0: before the
/// first hex; the path's length: after the last), thrown from `from` with
/// `left` MP: checked and paid for, or `None` when it is not thrown here.
pub fn grenade_at_step(
    world: &mut World,
    entity: Entity,
    asked: Option<&super::orders::SmokeGrenade>,
    i: usize,
    from: Coord,
    left: &mut Mp,
) -> Result<Option<CheckedGrenade>, Refusal> {
    let Some(g) = asked.filter(|g| g.after == i) else {
        return Ok(None);
    };
    let checked = check_grenade(world, entity, from, i, &g.at)?;
    if checked.cost > *left {
        return Err(Refusal::Fire {
            reason: format!(
                "Smoke Grenade into {}: it costs {} MP, {} MP left (R 48.1)",
                g.at, checked.cost, left
            ),
        });
    }
    *left = Mp(left.0 - checked.cost.0);
    Ok(Some(checked))
}

/// A moving Squad throws its Smoke Grenade: Dispersed Smoke (R 48.1).
pub fn throw_grenade(
    world: &mut World,
    unit: &str,
    grenade: CheckedGrenade,
    events: &mut Vec<GameEvent>,
) {
    place(
        world,
        unit,
        grenade.at,
        SmokeSide::Dispersed,
        "R 48.1",
        events,
    );
}
