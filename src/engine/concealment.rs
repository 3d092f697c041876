//! Losing Conceal counters — R 15.0 (and Decoys removed when they lose it).

use bevy::prelude::*;

use crate::scenario::roster::UnitClass;
use crate::world::{Concealed, RosterRes, Unit};

use super::events::GameEvent;

/// Takes the Conceal counter off a unit; a Decoy is removed instead (R 15.0).
/// Returns false when the unit was a Decoy and is gone.
pub fn lose_concealment(
    world: &mut World,
    entity: Entity,
    why: &'static str,
    events: &mut Vec<GameEvent>,
) -> bool {
    let Some(unit) = world.entity(entity).get::<Unit>().cloned() else {
        return false;
    };
    if world.entity(entity).get::<Concealed>().is_none() {
        return true;
    }
    let decoy = world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .is_some_and(|t| t.class == UnitClass::Decoy);
    if decoy {
        world.entity_mut(entity).despawn();
        events.push(GameEvent::DecoyRemoved { unit: unit.id });
        false
    } else {
        world.entity_mut(entity).remove::<Concealed>();
        events.push(GameEvent::ConcealmentLost { unit: unit.id, why });
        true
    }
}
