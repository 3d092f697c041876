//! The Recovery Phase — R 13.0: units not in Melee recover one step of
//! Suppression; Used, Op Fire, CP and Flank counters come off (CPs return to
//! their players, R 3.0); the turn marker advances, and after the last turn
//! the scenario ends and victory is determined (R 18.0). Dispersed Smoke is
//! removed and Smoke flips to Dispersed (R 48.0, `engine::smoke::recover`).

use bevy::prelude::*;

use crate::engine::events::GameEvent;
use crate::world::{Marks, Phase, Suppression, TurnTrack};

use super::{cp, end, in_melee, on_board};

/// Runs the whole Recovery Phase: it asks nothing.
pub fn run(world: &mut World, events: &mut Vec<GameEvent>) {
    let all = on_board(world);
    for u in &all {
        if in_melee(&all, u) {
            continue;
        }
        let now = match world.get::<Suppression>(u.entity) {
            Some(Suppression::Full) => {
                world.entity_mut(u.entity).insert(Suppression::Suppressed);
                "Suppressed"
            }
            Some(Suppression::Suppressed) => {
                world.entity_mut(u.entity).remove::<Suppression>();
                "full Morale"
            }
            None => continue,
        };
        events.push(GameEvent::Recovered {
            unit: u.unit.id.clone(),
            now,
        });
    }
    for u in &all {
        // Melee Ambush lasts for its turn only (R 51.2).
        if let Some(mut marks) = world.get_mut::<Marks>(u.entity) {
            marks.set_if_neq(Marks::default());
        }
    }
    // Seishin lasts for its turn only (R 59.5).
    crate::engine::seishin::end_of_turn(world);
    cp::return_all(world);
    events.push(GameEvent::MarkersRemoved);
    // Illumination counters come off (R 13.0, R 50.1).
    crate::engine::night::recovery(world, events);
    // Dispersed Smoke goes, Smoke flips (R 13.0, R 48.0).
    crate::engine::smoke::recover(world, events);
    let (turn, last) = {
        let t = world.resource::<TurnTrack>();
        (t.turn, t.last_turn)
    };
    if turn >= last {
        end::finish(world, events);
        return;
    }
    // The first player's Monsoon Storm Check, before the turn advances
    // (R 13.0, R 55.2).
    crate::engine::monsoon::storm_check_in_recovery(world, events);
    if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
        t.turn += 1;
        t.phase = Phase::Setup;
    }
    events.push(GameEvent::TurnBegins { turn: turn + 1 });
}
