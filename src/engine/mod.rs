//! The rules engine: orders go in, events come out (see `docs/architecture.md`).
//!
//! The game state is the ECS `World` itself — the same components the board
//! draws — so a headless `World` (no window, no renderer) runs scripts,
//! simulations and replays through the very code the app runs.

pub mod assault_fire;
pub mod casualties;
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

/// Every resource type of a game's state, but the scenario and its data
/// (`ActiveScenario`, `RosterRes`, `AidRes`, `BoardRes`) and the viewing
/// side (`Viewer`): what [`reset`] removes. A type left out of this list
/// stays after a reset, and `tests/reset.rs`, which compares a world reset
/// after whole games with a new one, fails on it.
pub fn game_state_resources() -> Vec<std::any::TypeId> {
    use std::any::TypeId;
    vec![
        TypeId::of::<decision::Pending>(),
        TypeId::of::<smoke::SmokeSupply>(),
        TypeId::of::<op_fire::OpFireWindow>(),
        TypeId::of::<op_fire::OpFireMemo>(),
        TypeId::of::<phases::melee::MeleeState>(),
        TypeId::of::<phases::end::Control>(),
        TypeId::of::<phases::end::Entered>(),
        TypeId::of::<phases::end::GameOver>(),
        TypeId::of::<phases::end::EntryAwaitingFire>(),
        TypeId::of::<phases::end::Held>(),
        TypeId::of::<phases::PhaseSchedules>(),
        TypeId::of::<phases::PhaseEvents>(),
        TypeId::of::<phases::operations::TurnOpening>(),
        TypeId::of::<phases::rout::RoutState>(),
        TypeId::of::<combat_events::LastAttack>(),
        TypeId::of::<combat_events::CombatEventDecision>(),
        TypeId::of::<combat_events::EventCommandPoints>(),
        TypeId::of::<combat_events::Graveyard>(),
        TypeId::of::<combat_events::Jobs>(),
        TypeId::of::<operations::OpsState>(),
        TypeId::of::<operations::SecondMayActFirst>(),
        TypeId::of::<movement::MoveInProgress>(),
        TypeId::of::<dice::Dice>(),
        TypeId::of::<command_points::CommandPoints>(),
        TypeId::of::<banzai::Called>(),
        TypeId::of::<banzai::ChargeMemo>(),
        TypeId::of::<concealment::FacingsAwaited>(),
        TypeId::of::<night::Illumination>(),
        TypeId::of::<night::TrippedWire>(),
        TypeId::of::<night::FlashResponse>(),
        TypeId::of::<night::TripFlare>(),
        TypeId::of::<night::FlashQueue>(),
        TypeId::of::<night::IlluminationSpent>(),
        TypeId::of::<obstacles::Clearing>(),
        TypeId::of::<monsoon::MonsoonState>(),
        TypeId::of::<crate::world::queries::KeptQueries>(),
        TypeId::of::<crate::world::TurnTrack>(),
    ]
}

/// Takes a game off its world: the game's entities (hexes, units,
/// fortifications, Smoke) are despawned and the resources of
/// [`game_state_resources`] removed. The scenario, its data, the board,
/// the viewing side and everything of the interface stay.
pub fn clear(world: &mut World) {
    use crate::world::{FortificationCounter, HexCell, Unit};
    let mut q = world.query_filtered::<Entity, Or<(
        With<Unit>,
        With<FortificationCounter>,
        With<HexCell>,
        With<smoke::SmokeCounter>,
    )>>();
    let doomed: Vec<Entity> = q.iter(world).collect();
    for e in doomed {
        world.despawn(e);
    }
    let state = game_state_resources();
    let gone: Vec<_> = world
        .iter_resources()
        .filter(|(info, _)| info.type_id().is_some_and(|t| state.contains(&t)))
        .map(|(info, _)| info.id())
        .collect();
    for id in gone {
        world.remove_resource_by_id(id);
    }
}

/// Puts a world back to its scenario's setup, as a new game's world
/// starts: [`clear`], the dice seeded `seed`, the scenario set up again
/// (the viewing side kept). `tests/reset.rs` compares a world reset after
/// whole games with a new one.
pub fn reset(world: &mut World, seed: u64) {
    clear(world);
    let viewer = world.get_resource::<crate::world::Viewer>().copied();
    world.insert_resource(Dice::seeded(seed));
    phases::prepare(world);
    spawn_scenario(world);
    if let Some(v) = viewer {
        world.insert_resource(v);
    }
}
