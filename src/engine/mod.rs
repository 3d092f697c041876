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
    Shared::new(
        loaded,
        std::sync::Arc::new(roster),
        std::sync::Arc::new(aid),
    )
    .world(seed)
}

/// What the games of one scenario share, read and never copied: the
/// scenario, the roster, the Player Aid, and the board, which remembers the
/// lines of sight traced on it (R 14.0: they depend on the map alone). A
/// simulation makes one per thread and plays every game from it; nothing
/// of it outlives its owner.
#[derive(Clone)]
pub struct Shared {
    pub loaded: Loaded,
    pub roster: std::sync::Arc<Roster>,
    pub aid: std::sync::Arc<PlayerAid>,
    pub board: std::sync::Arc<crate::world::Board>,
}

impl Shared {
    pub fn new(
        loaded: Loaded,
        roster: std::sync::Arc<Roster>,
        aid: std::sync::Arc<PlayerAid>,
    ) -> Shared {
        let board = std::sync::Arc::new(crate::world::Board::with_aid(
            &loaded.scenario.map,
            aid.clone(),
        ));
        Shared {
            loaded,
            roster,
            aid,
            board,
        }
    }

    /// The same, with a board of its own (a clone remembers nothing): for
    /// another thread.
    pub fn for_thread(&self) -> Shared {
        Shared {
            board: std::sync::Arc::new((*self.board).clone()),
            ..self.clone()
        }
    }

    /// A headless world holding the scenario at its setup, with dice
    /// seeded `seed`.
    pub fn world(&self, seed: u64) -> World {
        let mut world = World::new();
        world.insert_resource(ActiveScenario {
            scenario: self.loaded.scenario.clone(),
            origin: self.loaded.origin.clone(),
        });
        world.insert_resource(RosterRes(self.roster.clone()));
        world.insert_resource(AidRes(self.aid.clone()));
        world.insert_resource(crate::world::BoardRes(self.board.clone()));
        world.insert_resource(Dice::seeded(seed));
        phases::prepare(&mut world);
        spawn_scenario(&mut world);
        world
    }
}
