//! `engine::reset` puts a played world back as a new one: after whole
//! random games of every built-in scenario, the reset world holds the same
//! resource types, the same state (the journal's state text) and the same
//! entities as a world made new for the scenario, and the next seeded game
//! on it is the new world's, event for event. The comparison is with a new
//! world, never with a list of what a game leaves.

mod common;
use common::data;

use std::any::TypeId;
use std::collections::BTreeSet;
use std::sync::Arc;

use bevy::prelude::*;
use bob::engine::game::{apply, begin_game};
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::engine::{Shared, reset};

/// The world's resource types, as sortable names of their ids.
fn resources(world: &World) -> BTreeSet<String> {
    world
        .iter_resources()
        .filter_map(|(info, _)| info.type_id())
        .map(|t: TypeId| format!("{t:?}"))
        .collect()
}

/// How many entities the world holds that are not resources.
fn entities(world: &mut World) -> usize {
    world
        .query_filtered::<Entity, Without<bevy::ecs::resource::IsResource>>()
        .iter(world)
        .count()
}

/// Plays a random game to its end (or `limit` orders); the orders and the
/// engine's answers as text.
fn play(world: &mut World, seed: u64, limit: usize) -> Vec<String> {
    let mut out = vec![format!("{:?}", begin_game(world))];
    let mut rng = Lcg(seed);
    for _ in 0..limit {
        if world.get_resource::<GameOver>().is_some() {
            break;
        }
        let order = random_order(world, &mut rng);
        out.push(format!("{order:?} -> {:?}", apply(world, &order)));
    }
    out
}

#[test]
fn a_reset_world_is_a_new_world() {
    let (roster, aid) = data();
    let (roster, aid) = (Arc::new(roster), Arc::new(aid));
    for e in bob::scenario::embedded() {
        let name = e.file.trim_end_matches(".ron");
        let loaded = bob::world::load(name, &roster, &aid).expect("built-in scenario");
        let shared = Shared::new(loaded, roster.clone(), aid.clone());
        for seed in [1u64, 2, 3] {
            let mut played = shared.world(seed);
            play(&mut played, seed, 20_000);
            let next = seed + 100;
            reset(&mut played, next);
            let mut new = shared.world(next);
            assert_eq!(
                resources(&played),
                resources(&new),
                "{name} seed {seed}: resource types after a reset"
            );
            assert_eq!(
                bob::journal::state::state_text(&mut played),
                bob::journal::state::state_text(&mut new),
                "{name} seed {seed}: state after a reset"
            );
            assert_eq!(
                entities(&mut played),
                entities(&mut new),
                "{name} seed {seed}: entities after a reset"
            );
            assert_eq!(
                play(&mut played, next, 3000),
                play(&mut new, next, 3000),
                "{name} seed {seed}: the next game after a reset"
            );
        }
    }
}
