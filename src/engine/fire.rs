//! Infantry fire in the Operations Phase — R 6.0 (Infantry Fire: the MC to
//! fire, Range), R 6.1 (restrictions), R 6.2 (one roll against each unit in
//! the location), R 7.0 (Suppression), R 8.0 (Casualties), R 14.0 (a failed
//! LOS marks the firer Used), R 15.0 (Concealment lost by firing and by
//! Suppression). The FP arithmetic is `rules::fire`; this room gathers its
//! inputs from the world and applies the results.
//!
//! Not yet here: facing and flank fire (R 2.2, required in the Pacific),
//! Fire Lanes and the reveal of Concealed Fortifications (R 43.0), Smoke,
//! CPs. A scenario that requires facing refuses fire orders until facing
//! arrives, rather than resolving them wrongly. Combat Events (R 17.0)
//! follow each attack (`combat_events`).

use bevy::prelude::*;

use crate::rules::Hexes;
use crate::rules::fire::{
    Conceal, Elevation, FireContext, FireKind, FireOutcome, Firer, Motion, SuppressionLevel,
    TargetTerrain, fortification_key, hexside_protection, infantry_fp, suppression_after,
};
use crate::rules::los::{Los, LosQuery, line_of_sight, unit_level};
use crate::scenario::Coord;
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Concealed, Location, RosterRes, Suppression, Unit, Used,
};

use super::Dice;
use super::events::GameEvent;
use super::orders::Refusal;

/// Checks a fire order before anything happens (R 6.0, R 6.1): the target hex
/// exists and holds enemy units and no friendly ones, the firer is not in an
/// enemy's location, and the attack is one the rules allow (range, kind).
pub fn check_fire(world: &mut World, firer: Entity, target: &str) -> Result<Coord, Refusal> {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    if world
        .resource::<ActiveScenario>()
        .scenario
        .special_rules
        .facing_required
    {
        return Err(Refusal::FacingNotYet);
    }
    let to = Coord::parse(target, board.columns, board.rows).map_err(|_| Refusal::BadHex {
        label: target.to_string(),
    })?;
    let (unit, from) = unit_and_place(world, firer)?;
    let mut q = world.query::<(&Unit, &Location)>();
    let mut enemies_there = 0;
    for (u, l) in q.iter(world) {
        if l.coord == to && u.side == unit.side {
            return Err(Refusal::FriendlyInTarget { at: to.label() });
        }
        if l.coord == to {
            enemies_there += 1;
        }
        if l.coord == from && u.side != unit.side {
            return Err(Refusal::EnemyInOwnHex);
        }
    }
    if enemies_there == 0 {
        return Err(Refusal::NoTarget { at: to.label() });
    }
    let ut = world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .cloned()
        .ok_or(Refusal::UnknownUnit {
            unit: unit.id.clone(),
        })?;
    let ctx = FireContext::new(
        FireKind::Normal,
        Firer::of(&ut, unit.reduced),
        Hexes(from.distance(to)),
        "open",
    );
    infantry_fp(&aid, &ctx).map_err(|r| Refusal::Fire {
        reason: r.to_string(),
    })?;
    Ok(to)
}

fn unit_and_place(world: &World, e: Entity) -> Result<(Unit, Coord), Refusal> {
    let er = world.entity(e);
    match (er.get::<Unit>(), er.get::<Location>()) {
        (Some(u), Some(l)) => Ok((u.clone(), l.coord)),
        _ => Err(Refusal::UnknownUnit {
            unit: String::new(),
        }),
    }
}

/// Plays a checked fire order: the MC to fire, LOS, then one roll against
/// every unit in the target location, each with its own modifiers.
pub fn execute_fire(world: &mut World, firer: Entity, to: Coord, events: &mut Vec<GameEvent>) {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let Ok((unit, from)) = unit_and_place(world, firer) else {
        return;
    };
    world.entity_mut(firer).insert(Used);
    if !super::checks::morale_check_to_act(world, firer, "R 6.0", events) {
        events.push(GameEvent::FireFailed {
            unit: unit.id.clone(),
        });
        return;
    }
    let sight = match line_of_sight(&board, &aid, &LosQuery::new(from, to)) {
        Los::Blocked { at, reason } => {
            events.push(GameEvent::NoLos {
                unit: unit.id.clone(),
                target: to.label(),
                why: format!("blocked at {} by {}", at.label(), reason.describe()),
            });
            return;
        }
        Los::Seen(s) => s,
    };
    // The firer that fires loses its Conceal counter (R 15.0).
    super::concealment::lose_concealment(world, firer, "it fired", events);
    attack_location(world, firer, to, FireKind::Normal, &sight, None, events);
    super::combat_events::after_attack(world, events);
}

/// How one attack on a location went for a moving unit in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoverFate {
    NotHit,
    Suppressed,
    Gone,
}

/// One attack on every unit in a location with one roll (R 6.2), each unit
/// with its own modifiers; `mover` is the unit moving into the location, if
/// any (Op Fire, R 9.0), which is fired on as moving.
pub fn attack_location(
    world: &mut World,
    firer: Entity,
    to: Coord,
    kind: FireKind,
    sight: &crate::rules::los::Sight,
    mover: Option<Entity>,
    events: &mut Vec<GameEvent>,
) -> MoverFate {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let Ok((unit, from)) = unit_and_place(world, firer) else {
        return MoverFate::NotHit;
    };
    let Some(ut) = roster.get(&unit.kind).cloned() else {
        return MoverFate::NotHit;
    };
    let mut fate = MoverFate::NotHit;
    // The hexside the thread crosses into the target hex (R 44.0, R 46.1).
    let hexside_key = hexside_protection(&board, from, to);
    let firer_level = unit_level(&board, from, false);
    let target_level = unit_level(&board, to, false);
    let elevation = match target_level.cmp(&firer_level) {
        std::cmp::Ordering::Greater => Elevation::Higher,
        std::cmp::Ordering::Less => Elevation::Lower,
        std::cmp::Ordering::Equal => Elevation::Level,
    };
    let terrain_key = board.cell(to).map_or("open", |c| c.terrain.key());
    let fortification = board
        .fortifications_at(to)
        .filter(|f| !f.kind.is_cave())
        .find_map(|f| fortification_key(f.kind));
    let roll = world.resource_mut::<Dice>().d10();
    events.push(GameEvent::FireRoll {
        unit: unit.id.clone(),
        target: to.label(),
        roll: roll.0,
    });
    let mut q = world.query::<(
        Entity,
        &Unit,
        &Location,
        Option<&Concealed>,
        Option<&Suppression>,
    )>();
    let targets: Vec<(Entity, Unit, Option<Concealed>, Option<Suppression>)> = q
        .iter(world)
        .filter(|(_, u, l, _, _)| l.coord == to && u.side != unit.side && !l.in_cave)
        .map(|(e, u, _, c, s)| (e, u.clone(), c.copied(), s.copied()))
        .collect();
    for (target, tu, concealed, suppression) in targets {
        let Some(tt) = roster.get(&tu.kind) else {
            continue;
        };
        let mut ctx = FireContext::new(
            kind,
            Firer::of(&ut, unit.reduced),
            Hexes(from.distance(to)),
            terrain_key,
        );
        ctx.firer_marked_op_fire = kind == FireKind::OpFire;
        if Some(target) == mover {
            let open_ground = board
                .cell(to)
                .and_then(|c| aid.terrain_row(c.terrain.key()))
                .is_some_and(|r| !r.beneficial);
            ctx.target_motion = Motion::Moving {
                open_ground,
                on_path: false,
            };
        }
        ctx.target = TargetTerrain {
            hex: terrain_key,
            fortification,
            hexside: hexside_key,
            elevation,
        };
        ctx.target_concealed = concealed.map(|c| {
            if c.minus_two {
                Conceal::JapaneseMinusTwo
            } else {
                Conceal::Standard
            }
        });
        ctx.hindrances = sight.hindrances;
        let Ok(breakdown) = infantry_fp(&aid, &ctx) else {
            continue;
        };
        let side = if tu.reduced { tt.reduced } else { tt.full };
        let outcome = breakdown.resolve(&aid, roll, side.casualty);
        events.push(GameEvent::FireResult {
            target: tu.id.clone(),
            arithmetic: breakdown
                .lines
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
            fp: breakdown.total,
            roll: roll.0,
            outcome,
        });
        let gone = apply_outcome(world, target, &tu, suppression, tu.reduced, outcome, events);
        if Some(target) == mover {
            fate = if gone {
                MoverFate::Gone
            } else if outcome == FireOutcome::NoEffect {
                MoverFate::NotHit
            } else {
                MoverFate::Suppressed
            };
        }
    }
    super::combat_events::note_attack(world, firer, to, roll);
    fate
}

/// Applies a fire result to one unit (R 6.2, R 7.0, R 8.0, R 15.0).
fn apply_outcome(
    world: &mut World,
    target: Entity,
    unit: &Unit,
    suppression: Option<Suppression>,
    reduced: bool,
    outcome: FireOutcome,
    events: &mut Vec<GameEvent>,
) -> bool {
    let level = SuppressionLevel::from(suppression);
    let eliminated =
        outcome == FireOutcome::Eliminated || (outcome == FireOutcome::Reduced && reduced);
    if eliminated {
        world.entity_mut(target).despawn();
        events.push(GameEvent::Eliminated {
            unit: unit.id.clone(),
        });
        return true;
    }
    if outcome == FireOutcome::NoEffect {
        return false;
    }
    if outcome == FireOutcome::Reduced
        && let Some(mut u) = world.entity_mut(target).get_mut::<Unit>()
    {
        u.reduced = true;
    }
    match suppression_after(level, outcome) {
        Some(SuppressionLevel::Suppressed) => {
            world.entity_mut(target).insert(Suppression::Suppressed);
        }
        Some(SuppressionLevel::Full) => {
            world.entity_mut(target).insert(Suppression::Full);
        }
        _ => {}
    }
    // A Suppressed unit loses its Conceal counter; a Decoy is removed (R 15.0).
    !super::concealment::lose_concealment(world, target, "it was Suppressed", events)
}
