//! Op Fire — R 9.0, Final Op Fire — R 10.0: each time a moving unit enters a
//! hex, the non-moving side may fire at it with any number of its units that
//! can (LOS, range): units not yet Used Op Fire (a marker is not needed, it
//! adds +1), Used units Final Op Fire at an adjacent hex (−2). The move waits
//! for the answer. Every firer ends Used, an Op Fire marker flipping to its
//! Used side (R 4.3); a Suppressed mover takes an immediate MC and its move
//! ends if it fails (R 5.0), once for every Suppression (R 9.0).
//!
//! Not yet here: Op Fire at a unit's start hex when its first hex is a Melee
//! hex, the CP for Final Op Fire beyond one hex, facing.

use bevy::prelude::*;

use crate::rules::Hexes;
use crate::rules::fire::{FireContext, FireKind, Firer, infantry_fp};
use crate::rules::los::{Los, LosQuery, line_of_sight};
use crate::scenario::Coord;
use crate::scenario::schema::SideId;
use crate::world::{AidRes, BoardRes, Location, OpFire, RosterRes, Unit, Used};

use super::events::GameEvent;
use super::fire::{MoverFate, attack_location};
use super::movement::{continue_move, stop_move};
use super::orders::Refusal;

/// The decision the game waits for.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct OpFireWindow {
    /// The side that may fire.
    pub side: SideId,
    pub mover: Entity,
    pub mover_id: String,
    pub at: Coord,
    /// Units that may fire, by id.
    pub eligible: Vec<String>,
}

/// Opens a window if any enemy unit may Op Fire at the mover in `at`.
pub fn open_window(
    world: &mut World,
    mover: Entity,
    at: Coord,
    events: &mut Vec<GameEvent>,
) -> bool {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let Some(mover_unit) = world.entity(mover).get::<Unit>().cloned() else {
        return false;
    };
    let mut q = world.query::<(&Unit, &Location, Has<Used>)>();
    let mut eligible: Vec<String> = q
        .iter(world)
        .filter(|(u, l, _)| u.side != mover_unit.side && l.coord != at && !l.in_cave)
        .filter(|(u, l, used)| {
            let Some(ut) = roster.get(&u.kind) else {
                return false;
            };
            let ctx = FireContext::new(
                kind_for(*used),
                Firer::of(ut, u.reduced),
                Hexes(l.coord.distance(at)),
                "open",
            );
            infantry_fp(&aid, &ctx).is_ok()
                && !line_of_sight(&board, &aid, &LosQuery::new(l.coord, at)).is_blocked()
        })
        .map(|(u, _, _)| u.id.clone())
        .collect();
    if eligible.is_empty() {
        return false;
    }
    eligible.sort();
    let side = mover_unit.side.other();
    events.push(GameEvent::OpFireWindow {
        side,
        mover: mover_unit.id.clone(),
        at: at.label(),
        eligible: eligible.clone(),
    });
    world.insert_resource(OpFireWindow {
        side,
        mover,
        mover_id: mover_unit.id,
        at,
        eligible,
    });
    true
}

/// Op Fire for a unit not yet Used, Final Op Fire for a Used one (R 10.0).
fn kind_for(used: bool) -> FireKind {
    if used {
        FireKind::FinalOpFire
    } else {
        FireKind::OpFire
    }
}

/// The answer to an Op Fire window: these units fire, in order (none = pass).
pub fn answer(
    world: &mut World,
    firers: &[String],
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Some(window) = world.get_resource::<OpFireWindow>().cloned() else {
        return Err(Refusal::NoDecisionPending);
    };
    for (i, f) in firers.iter().enumerate() {
        if !window.eligible.contains(f) || firers[..i].contains(f) {
            return Err(Refusal::NotEligible {
                unit: f.clone(),
                at: window.at.label(),
            });
        }
    }
    world.remove_resource::<OpFireWindow>();
    if firers.is_empty() {
        events.push(GameEvent::OpFirePassed {
            side: window.side,
            at: window.at.label(),
        });
    }
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let mut stopped = false;
    for id in firers {
        let mut q = world.query::<(Entity, &Unit, &Location)>();
        let Some((firer, from)) = q
            .iter(world)
            .find(|(_, u, _)| &u.id == id)
            .map(|(e, _, l)| (e, l.coord))
        else {
            continue;
        };
        if world.get_entity(window.mover).is_err() {
            break;
        }
        let kind = kind_for(world.get::<Used>(firer).is_some());
        // Fired or not, the unit is Used; an Op Fire marker flips (R 9.0, R 4.3).
        world.entity_mut(firer).remove::<OpFire>().insert(Used);
        events.push(GameEvent::OpFires {
            unit: id.clone(),
            mover: window.mover_id.clone(),
            at: window.at.label(),
            final_op_fire: kind == FireKind::FinalOpFire,
        });
        if !super::checks::morale_check_to_act(world, firer, "R 6.0", events) {
            events.push(GameEvent::FireFailed { unit: id.clone() });
            continue;
        }
        super::concealment::lose_concealment(world, firer, "it fired", events);
        let Los::Seen(sight) = line_of_sight(&board, &aid, &LosQuery::new(from, window.at)) else {
            continue;
        };
        let fate = attack_location(
            world,
            firer,
            window.at,
            kind,
            &sight,
            Some(window.mover),
            events,
        );
        match fate {
            MoverFate::Gone => break,
            MoverFate::Suppressed => {
                // An immediate MC for each Suppression (R 5.0, R 9.0).
                if !super::checks::morale_check_to_act(world, window.mover, "R 9.0", events) {
                    stopped = true;
                }
            }
            MoverFate::NotHit => {}
        }
        super::combat_events::after_attack(world, events);
    }
    // The attack that eliminated the mover still gives its Combat Event.
    super::combat_events::after_attack(world, events);
    if world.get_entity(window.mover).is_err() {
        world.remove_resource::<super::movement::MoveInProgress>();
    } else if stopped {
        stop_move(world, events);
    } else {
        continue_move(world, events);
    }
    Ok(())
}
