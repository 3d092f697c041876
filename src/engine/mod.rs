//! The rules engine: orders go in, events come out (see `docs/architecture.md`).
//!
//! The game state is the ECS `World` itself — the same components the board
//! draws — so a headless `World` (no window, no renderer) runs scripts,
//! simulations and replays through the very code the app runs.

pub mod assault_fire;
pub mod checks;
pub mod combat_events;
pub mod command_points;
pub mod concealment;
pub mod decision;
pub mod dice;
pub mod events;
pub mod fire;
pub mod game;
pub mod gun;
pub mod movement;
pub mod op_fire;
pub mod operations;
pub mod orders;
pub mod phases;
pub mod random;
pub mod reach;
pub mod script;
// The Pacific (issue 8).
pub mod banzai;
pub mod fortifications;
pub mod jungle;
pub mod monsoon;
pub mod night;
pub mod pacific;
// Mortars, Smoke and Guns (R 20, R 31, R 48, R 59.3).
pub mod mortar;
pub mod obstacles;
pub mod seishin;
pub mod smoke;
pub mod view;

use bevy::prelude::*;

use crate::scenario::{Loaded, PlayerAid, Roster};
use crate::world::spawn::spawn_scenario;
use crate::world::{ActiveScenario, AidRes, RosterRes};

pub use dice::Dice;
pub use events::GameEvent;
pub use orders::{Order, Refusal};

/// A headless world holding a scenario at its setup, with seeded dice.
pub fn headless_world(loaded: Loaded, roster: Roster, aid: PlayerAid, seed: u64) -> World {
    // Shared by equal content, so the board's LOS memo serves every game.
    let aid = crate::world::board::shared_aid(aid);
    headless_world_shared(loaded, std::sync::Arc::new(roster), aid, seed)
}

/// [`headless_world`] with the roster and Player Aid already shared: a
/// simulation playing game after game reads them, never copies them. Pass
/// the Player Aid through [`crate::world::board::shared_aid`] once, so that
/// the board's LOS memo serves every game.
pub fn headless_world_shared(
    loaded: Loaded,
    roster: std::sync::Arc<Roster>,
    aid: std::sync::Arc<PlayerAid>,
    seed: u64,
) -> World {
    let mut world = World::new();
    world.insert_resource(ActiveScenario {
        scenario: loaded.scenario,
        origin: loaded.origin,
    });
    world.insert_resource(RosterRes(roster));
    world.insert_resource(AidRes(aid));
    world.insert_resource(Dice::seeded(seed));
    phases::prepare(&mut world);
    spawn_scenario(&mut world);
    world
}
