//! Fortifications in the engine — R 43.0 (Fire Lanes; Fortification
//! Concealment and its reveal, including after the roll), R 43.6 (a firer
//! in Wire -1). The arithmetic is `rules::fire`; this room reads the
//! Fortification counters of the world and turns them over.

use crate::world::UnitId;
use bevy::prelude::*;

use crate::rules::Mp;
use crate::rules::fire::{
    FireOutcome, FpBreakdown, fortification_key, infantry_fp, resolve_hidden_fortification,
};
use crate::rules::fortifications::{Place, enter_cave, fired_from_front, leave_cave};
use crate::rules::los::LosQuery;
use crate::rules::movement::{MoveRules, check_step};
use crate::scenario::Coord;
use crate::scenario::schema::{FortificationKind, Nationality, Theater};
use crate::world::queries::{collect, with_query};
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Concealed, FortificationCounter, Location, RosterRes,
    Suppression, Unit,
};

use super::events::GameEvent;
use super::orders::Refusal;
use super::pacific::PacificEvent;

/// The Fortification giving its modifier in a location (not Wire or a
/// Roadblock, which give none), with its entity.
fn counter_in(
    world: &mut World,
    at: Coord,
    in_cave: bool,
) -> Option<(Entity, FortificationCounter)> {
    with_query::<(Entity, &FortificationCounter, &Location), (), _>(world, |mut q| {
        q.find(|(_, f, l)| {
            l.coord == at && l.in_cave == in_cave && fortification_key(f.kind).is_some()
        })
        .map(|(e, f, _)| (e, *f))
    })
}

/// The Fortification a unit in the location gets (R 43.0): its Player Aid
/// key, and whether it is still Concealed.
pub fn defending(world: &mut World, at: Coord, in_cave: bool) -> Option<(&'static str, bool)> {
    let (_, f) = counter_in(world, at, in_cave)?;
    Some((fortification_key(f.kind)?, f.concealed))
}

/// The kind of the Fortification giving its modifier in a location (not
/// Wire or a Roadblock), on a shared world: one per location (R 43.0).
pub fn kind_at(world: &World, at: Coord, in_cave: bool) -> Option<FortificationKind> {
    crate::world::queries::try_with_query::<(&FortificationCounter, &Location), (), _>(
        world,
        |mut q| {
            q.find(|(f, l)| {
                l.coord == at && l.in_cave == in_cave && fortification_key(f.kind).is_some()
            })
            .map(|(f, _)| f.kind)
        },
    )
    .flatten()
}

fn pacific(world: &World) -> bool {
    world.resource::<ActiveScenario>().scenario.theater == Theater::Pacific
}

/// R 43.0 Fire Lanes: in the Pacific, Infantry in a Foxhole (or Trench),
/// Bunker (Pillbox) or Cave firing into an adjacent hex.
pub fn fire_lane(world: &mut World, firer: Entity, to: Coord) -> bool {
    let Some(loc) = world.get::<Location>(firer).copied() else {
        return false;
    };
    if !pacific(world) || loc.coord.distance(to) != 1 {
        return false;
    }
    counter_in(world, loc.coord, loc.in_cave).is_some_and(|(_, f)| {
        matches!(
            f.kind,
            FortificationKind::Foxhole
                | FortificationKind::Trench
                | FortificationKind::Bunker
                | FortificationKind::Pillbox
                | FortificationKind::Cave
                | FortificationKind::SmallCave
        )
    })
}

/// R 43.6: a unit firing from a Wire hex (not from its Cave) has -1 FP.
pub fn in_wire(world: &mut World, firer: Entity) -> bool {
    let Some(loc) = world.get::<Location>(firer).copied() else {
        return false;
    };
    if loc.in_cave {
        return false;
    }
    with_query::<(&FortificationCounter, &Location), (), _>(world, |mut q| {
        q.any(|(f, l)| f.kind == FortificationKind::Wire && l.coord == loc.coord)
    })
}

/// The Wire hexes on the board now (R 43.6), in board order.
pub fn wire_hexes(world: &World) -> Vec<Coord> {
    let mut wire =
        crate::world::queries::try_with_query::<(&FortificationCounter, &Location), (), _>(
            world,
            |q| {
                q.filter(|(f, _)| f.kind == FortificationKind::Wire)
                    .map(|(_, l)| l.coord)
                    .collect::<Vec<_>>()
            },
        )
        .unwrap_or_default();
    wire.sort();
    wire
}

/// Turns a Concealed Fortification over, for good (R 43.0).
pub fn reveal(world: &mut World, entity: Entity, why: &'static str, events: &mut Vec<GameEvent>) {
    let Some(mut f) = world.get_mut::<FortificationCounter>(entity) else {
        return;
    };
    if !f.concealed {
        return;
    }
    f.concealed = false;
    let kind = f.kind.name();
    let at = world
        .get::<Location>(entity)
        .map_or_else(String::new, |l| l.coord.label());
    events.push(GameEvent::Pacific(PacificEvent::FortificationRevealed {
        kind,
        at,
        why,
    }));
}

/// Reveals the Concealed Fortification defending a location, if any.
pub fn reveal_at(
    world: &mut World,
    at: Coord,
    in_cave: bool,
    why: &'static str,
    events: &mut Vec<GameEvent>,
) {
    if let Some((e, f)) = counter_in(world, at, in_cave)
        && f.concealed
    {
        reveal(world, e, why, events);
    }
}

/// R 43.0: a unit of either side entering the hex reveals its Fortification.
pub fn reveal_on_entry(world: &mut World, at: Coord, events: &mut Vec<GameEvent>) {
    reveal_at(world, at, false, "a unit entered its hex", events);
}

/// R 43.0: a Concealed Fortification is revealed when it is unoccupied, or
/// when a unit in it has lost its Concealment or is Suppressed.
pub fn sweep(world: &mut World, events: &mut Vec<GameEvent>) {
    let hidden: Vec<(Entity, Location)> =
        collect::<(Entity, &FortificationCounter, &Location), (), _>(world, |(e, f, l)| {
            f.concealed.then_some((e, *l))
        })
        .into_iter()
        .flatten()
        .collect();
    if hidden.is_empty() {
        return;
    }
    let occupants: Vec<(Location, bool, bool)> = collect::<
        (&Location, Has<Concealed>, Has<Suppression>),
        With<Unit>,
        _,
    >(world, |(l, c, s)| (*l, c, s));
    for (e, loc) in hidden {
        let here: Vec<&(Location, bool, bool)> =
            occupants.iter().filter(|(l, _, _)| *l == loc).collect();
        let why = if here.is_empty() {
            "it is unoccupied"
        } else if here.iter().any(|(_, _, suppressed)| *suppressed) {
            "a unit in it is Suppressed"
        } else if here.iter().any(|(_, concealed, _)| !*concealed) {
            "a unit in it lost its Concealment"
        } else {
            continue;
        };
        reveal(world, e, why, events);
    }
}

/// One unit's result in an attack on its location (R 6.2), with its
/// Concealed Fortification (R 43.0): the attack is made with the visible
/// terrain; when that has an effect the Fortification is revealed, and the
/// unit gets its modifier if that changes the result. A Fortification
/// already revealed by an earlier result of this roll gives its modifier.
/// Returns the arithmetic that stands, the outcome, and `Some(changed)`
/// when the Fortification was revealed by this result.
pub fn resolve_target(
    world: &mut World,
    aid: &crate::scenario::PlayerAid,
    t: &super::fire::TargetPlan,
    at: Coord,
    roll: crate::rules::D10,
) -> (FpBreakdown, FireOutcome, Option<bool>) {
    let plain = || {
        (
            t.breakdown.clone(),
            t.breakdown.resolve(aid, roll, t.casualty),
            None,
        )
    };
    let Some(ctx) = t.hidden_fortification else {
        return plain();
    };
    let still_hidden = defending(world, at, false).is_some_and(|d| d.1);
    if !still_hidden {
        return match infantry_fp(aid, &ctx) {
            Ok(b) => {
                let outcome = b.resolve(aid, roll, t.casualty);
                (b, outcome, None)
            }
            Err(_) => plain(),
        };
    }
    match resolve_hidden_fortification(aid, &ctx, roll, t.casualty) {
        Ok(r) if r.fortification_revealed => {
            let seen = t.breakdown.resolve(aid, roll, t.casualty);
            (r.breakdown, r.outcome, Some(r.outcome != seen))
        }
        Ok(r) => (r.breakdown, r.outcome, None),
        Err(_) => plain(),
    }
}

/// Logs and turns over a Fortification the roll revealed (R 43.0).
pub fn after_reveal(
    world: &mut World,
    at: Coord,
    unit: &str,
    changed: bool,
    events: &mut Vec<GameEvent>,
) {
    let kind = counter_in(world, at, false).map(|(_, f)| f.kind.name());
    let why = if changed {
        "its modifier changes the result"
    } else {
        "the attack had an effect on a unit in it"
    };
    reveal_at(world, at, false, why, events);
    if changed && let Some(kind) = kind {
        events.push(GameEvent::Pacific(PacificEvent::FortificationProtects {
            unit: UnitId::from(unit),
            kind,
        }));
    }
}

/// Whether the location attacked by `firer` at `to` is the Cave below the
/// hex: the Cave was named in the order, or the mover fired at is in it.
pub fn attacks_cave(world: &World, firer: Entity, mover: Option<Entity>) -> bool {
    crate::world::attack_under_way(world, firer).into_cave
        || mover
            .and_then(|m| world.get::<Location>(m))
            .is_some_and(|l| l.in_cave)
}

/// The LOS question from `firer`'s location (its Cave, if it is in one) to
/// `to` (R 14.0, R 43.4).
pub fn los_query(world: &World, firer: Entity, to: Coord, to_in_cave: bool) -> LosQuery {
    let from = world.get::<Location>(firer).copied();
    LosQuery {
        from_in_cave: from.is_some_and(|l| l.in_cave),
        to_in_cave,
        // Smoke on the thread modifies the attack (R 48.0).
        smoke: super::smoke::hexes(world),
        ..LosQuery::new(from.map_or(to, |l| l.coord), to)
    }
}

/// R 43.4: a step into or out of a Cave, checked; its MP cost.
pub fn cave_step(
    world: &mut World,
    mover: Entity,
    from: Place,
    to: Coord,
    into_cave: bool,
    left: Mp,
) -> Result<Mp, String> {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    if !into_cave {
        // Out of the Cave into one of its front hexes: that hex's cost.
        leave_cave(&board, from.coord, to).map_err(|r| r.to_string())?;
        let rules = MoveRules::of(&world.resource::<ActiveScenario>().scenario.special_rules);
        return check_step(&board, &aid, rules, from.coord, to, left)
            .map(|c| c.total)
            .map_err(|r| r.to_string());
    }
    let japanese = world
        .get::<Unit>(mover)
        .and_then(|u| world.resource::<RosterRes>().0.get(&u.kind).cloned())
        .is_some_and(|t| t.nationality == Nationality::Japanese);
    let occupied = with_query::<(Entity, &Location, Has<Unit>), (), _>(world, |mut q| {
        q.any(|(e, l, unit)| e != mover && l.coord == to && l.in_cave && unit)
    });
    enter_cave(&board, &aid, japanese, from, to, occupied, left).map_err(|r| r.to_string())
}

/// R 43.4 for an attack at the Cave of `to` from `from`: from one of its
/// two front hexes the Cave's modifier is 0.
pub fn cave_modifier_waived(world: &World, to: Coord, from: Coord) -> bool {
    fired_from_front(&world.resource::<BoardRes>().0, to, from)
}

/// R 6.1 for fire at the Cave below `to` (R 43.4): the hex has a Cave with
/// enemy units in it, and the firer's own location holds no enemy.
pub fn check_cave_target(world: &mut World, firer: Entity, to: Coord) -> Result<(), Refusal> {
    let at = crate::rules::fortifications::place_label(to, true);
    let (Some(side), Some(own)) = (
        world.get::<Unit>(firer).map(|u| u.side),
        world.get::<Location>(firer).copied(),
    ) else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    if crate::rules::fortifications::cave_front(&world.resource::<BoardRes>().0, to).is_none() {
        return Err(Refusal::NoTarget { at });
    }
    let mut enemies = 0;
    for (e, side_of, l) in
        collect::<(Entity, &Unit, &Location), (), _>(world, |(e, u, l)| (e, u.side, *l))
    {
        if e != firer && l == own && side_of != side {
            return Err(Refusal::EnemyInOwnHex);
        }
        if l.coord == to && l.in_cave && side_of != side {
            enemies += 1;
        }
    }
    if enemies == 0 {
        return Err(Refusal::NoTarget { at });
    }
    Ok(())
}
