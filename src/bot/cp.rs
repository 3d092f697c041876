//! The bot's Command Points in the Operations Phase (R 3.0): +1 Prof FP
//! when it changes an Op Fire's odds, Follow Me! (R 5.4) when the extra MP
//! reaches an objective or cover, and an MC re-roll readied before an
//! important unit's action (spent only if the MC fails). Failed Rout MCs
//! are re-rolled in `answers`.

use bevy::prelude::*;

use crate::engine::Order;
use crate::engine::command_points::{CpFunction, CpReady, check};

/// The order readying (or spending) a CP of `function` on `unit`, when
/// one may be spent on it now; `None` otherwise.
pub fn ready(world: &mut World, unit: Entity, id: &str, function: CpFunction) -> Option<Order> {
    if world.get::<CpReady>(unit).is_some() || check(world, unit).is_err() {
        return None;
    }
    let order = Order::Cp {
        unit: id.to_string(),
        function,
    };
    crate::engine::operations::check(world, &order)
        .is_ok()
        .then_some(order)
}
