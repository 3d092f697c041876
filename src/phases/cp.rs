//! Command Points as the Rout and Melee Phases use them — R 3.0 (1: re-roll
//! an Infantry MC; 4: re-roll a Melee roll, one CP per side per Melee) and
//! the Recovery Phase return of CP counters.
//!
//! PLACEHOLDER: the Command Points room of the Operations Phase is being
//! built in parallel; until it lands, this is the smallest API the Rout,
//! Melee and Recovery Phases need: the CPs left in `TurnTrack`, one CP
//! counter per unit per turn (R 3.0), returned in the Recovery Phase.
//! Company CPs (R 3.1) are not distinguished here.

use bevy::prelude::*;

use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, TurnTrack};

/// A CP counter on a unit: a CP was spent on it this turn (R 3.0).
#[derive(Component, Debug, Clone, Copy)]
pub struct CpCounter;

/// CPs the side has left this turn.
pub fn cp_left(world: &World, side: SideId) -> u8 {
    world
        .get_resource::<TurnTrack>()
        .map_or(0, |t| t.command_points[side.index()])
}

/// Whether the side may spend a CP on this unit: a CP left, and none spent
/// on the unit this turn ("Only 1 CP can be used on a unit each turn").
pub fn may_spend(world: &World, side: SideId, unit: Entity) -> bool {
    cp_left(world, side) > 0 && world.get::<CpCounter>(unit).is_none()
}

/// Spends one of the side's CPs on the unit; false if it may not.
pub fn spend(world: &mut World, side: SideId, unit: Entity) -> bool {
    if !may_spend(world, side, unit) {
        return false;
    }
    if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
        t.command_points[side.index()] -= 1;
    }
    world.entity_mut(unit).insert(CpCounter);
    true
}

/// Recovery Phase: CP counters come off and each side gets its scenario CPs
/// back (R 3.0, R 13.0; CPs are not accumulated).
pub fn return_all(world: &mut World) {
    let mut q = world.query_filtered::<Entity, With<CpCounter>>();
    let marked: Vec<Entity> = q.iter(world).collect();
    for e in marked {
        world.entity_mut(e).remove::<CpCounter>();
    }
    let per_side: Vec<(SideId, u8)> = world
        .resource::<ActiveScenario>()
        .scenario
        .sides
        .iter()
        .map(|c| (c.side, c.command_points))
        .collect();
    if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
        for (side, cp) in per_side {
            t.command_points[side.index()] = cp;
        }
    }
}
