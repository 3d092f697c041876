//! Random legal play through the Operations Phase of both scenarios: the
//! engine never panics and never breaks an invariant (R 2.0 stacking, R 4.1
//! Ops Range within its maximum, every unit Used or Op Fire when the phase
//! ends, no order accepted after it).

use bevy::prelude::*;

use bob::engine::operations::{OpsState, apply, begin_operations};
use bob::engine::random::{Lcg, random_order, unit_states as units};
use bob::engine::{Order, headless_world};
use bob::world::{Phase, TurnTrack};

mod common;

fn check_invariants(world: &mut World, limit: usize, log: &[String]) {
    let tail = log[log.len().saturating_sub(25)..].join("\n");
    // Stacking holds at the end of a move, not while it is under way (R 2.0).
    let moving = world
        .get_resource::<bob::engine::movement::MoveInProgress>()
        .is_some();
    let all = units(world);
    let mut seen = std::collections::HashSet::new();
    for u in &all {
        assert!(seen.insert(u.0.clone()), "unit {} twice", u.0);
        let stacked = all.iter().filter(|v| v.1 == u.1 && v.2 == u.2).count();
        assert!(
            moving || stacked <= limit,
            "{} units of a side in {}; the log ends:\n{tail}",
            stacked,
            u.2.label()
        );
    }
    if let Some(s) = world.get_resource::<OpsState>() {
        assert!(
            s.tally.used <= s.tally.range.max,
            "Ops Range over its maximum"
        );
    }
}

fn play(name: &str, seed: u64) {
    let (loaded, roster, aid) = common::loaded(name);
    let limit = usize::from(aid.constants.stacking_per_side);
    let mut world = headless_world(loaded, roster, aid, seed);
    let mut rng = Lcg(seed ^ 0x5eed);
    let mut log: Vec<String> = begin_operations(&mut world)
        .iter()
        .map(|e| e.line())
        .collect();
    for _ in 0..2000 {
        if world.get_resource::<OpsState>().is_none() {
            break;
        }
        let order = random_order(&mut world, &mut rng);
        if let Ok(events) = apply(&mut world, &order) {
            log.extend(events.iter().map(|e| e.line()));
        }
        check_invariants(&mut world, limit, &log);
    }
    // Every seed must finish the phase: passing is always possible sooner or later.
    assert!(
        world.get_resource::<OpsState>().is_none(),
        "{name} seed {seed}: the Operations Phase did not end"
    );
    assert_eq!(world.resource::<TurnTrack>().phase, Phase::Rout);
    for u in units(&mut world) {
        assert!(
            u.3 || u.4,
            "{name} seed {seed}: {} neither Used nor Op Fire",
            u.0
        );
    }
    assert!(
        apply(&mut world, &Order::Pass).is_err(),
        "orders after the phase ended"
    );
}

#[test]
fn random_operations_phases_keep_the_invariants() {
    for seed in 0..150 {
        play("training", seed);
        play("guadalcanal", seed);
    }
}

/// The same with Combat Events (R 17.0) on both test grounds: every choice
/// answered by the random player, the phase still ends with every unit Used
/// or Op Fire.
#[test]
fn random_operations_phases_with_combat_events_keep_the_invariants() {
    for seed in 0..150 {
        play(
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/events_europe.ron"),
            seed,
        );
        play(
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/events_pacific.ron"),
            seed,
        );
    }
}
