//! Command Points as the Rout and Melee Phases use them — R 3.0 (1: re-roll
//! an Infantry MC; 4: re-roll a Melee roll, one CP per side per Melee) and
//! the Recovery Phase return of CP counters. One store of CPs for the whole
//! game: these are thin calls into `engine::command_points` (Company CPs,
//! R 3.1, and one CP per unit per turn included); the phases log their own
//! CP events.

use bevy::prelude::*;

use crate::engine::command_points::{self, CpFunction};
use crate::scenario::schema::SideId;

/// Whether the side may spend a CP on this unit: a CP of its pool left, and
/// none spent on the unit this turn ("Only 1 CP can be used on a unit each
/// turn", R 3.0, R 3.1).
pub fn may_spend(world: &World, side: SideId, unit: Entity) -> bool {
    world
        .get::<crate::world::Unit>(unit)
        .is_some_and(|u| u.side == side)
        && command_points::check(world, unit).is_ok()
}

/// Spends one of the side's CPs on the unit for `function`; false if it may
/// not.
pub fn spend(world: &mut World, side: SideId, unit: Entity, function: CpFunction) -> bool {
    if !may_spend(world, side, unit) {
        return false;
    }
    let mut events = Vec::new();
    command_points::spend(world, unit, function, &mut events).is_ok()
}

/// Recovery Phase: CP counters come off and each side gets its scenario CPs
/// back (R 3.0, R 13.0; CPs are not accumulated).
pub fn return_all(world: &mut World) {
    command_points::return_command_points(world);
}
