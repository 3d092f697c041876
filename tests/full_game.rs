//! Whole games with random legal orders, on both scenarios: every game ends
//! on its last turn with a winner or a draw (R 13.0, R 18.0), never a panic
//! nor a stuck phase; every decision of the Rout and Melee Phases (R 11.0,
//! R 12.0) and every reinforcement (R 18.0) is answered by the random player.

use bevy::prelude::*;

use bob::engine::game::{apply, begin_game};
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order, unit_states};
use bob::engine::{GameEvent, Order, headless_world};
use bob::world::{Phase, TurnTrack};

mod common;

/// Plays one game; returns its last event line.
fn play(name: &str, seed: u64) -> (String, usize) {
    let (loaded, roster, aid) = common::loaded(name);
    let last_turn = loaded.scenario.turns;
    let most = loaded.scenario.setup.len()
        + loaded
            .scenario
            .reinforcements
            .iter()
            .map(|r| r.units.len())
            .sum::<usize>();
    let limit = usize::from(aid.constants.stacking_per_side);
    let mut world = headless_world(loaded, roster, aid, seed);
    let mut rng = Lcg(seed ^ 0xf011);
    let mut log: Vec<GameEvent> = begin_game(&mut world);
    let mut refused_in_a_row = 0;
    let mut orders = 0;
    while world.get_resource::<GameOver>().is_none() {
        orders += 1;
        assert!(orders < 60_000, "{name} seed {seed}: the game did not end");
        let order = random_order(&mut world, &mut rng);
        match apply(&mut world, &order) {
            Ok(events) => {
                refused_in_a_row = 0;
                log.extend(events);
            }
            Err(_) => {
                refused_in_a_row += 1;
                assert!(
                    refused_in_a_row < 5_000,
                    "{name} seed {seed}: stuck in {:?} refusing {order:?}",
                    world.resource::<TurnTrack>().phase
                );
            }
        }
        // Every unit once; never more than the setup and the reinforcements.
        let all = unit_states(&mut world);
        let ids: std::collections::HashSet<&bob::world::UnitId> =
            all.iter().map(|u| &u.0).collect();
        assert_eq!(ids.len(), all.len(), "{name} seed {seed}: a unit twice");
        assert!(all.len() <= most, "{name} seed {seed}: units from nowhere");
        assert!(world.resource::<TurnTrack>().turn <= last_turn);
        // Stacking holds at the end of every move of the Operations Phase,
        // back-ups included (R 2.0, R 5.0).
        let moving = world
            .get_resource::<bob::engine::movement::MoveInProgress>()
            .is_some();
        if !moving && world.resource::<TurnTrack>().phase == Phase::Operations {
            for u in &all {
                let stacked = all.iter().filter(|v| v.1 == u.1 && v.2 == u.2).count();
                assert!(
                    stacked <= limit,
                    "{name} seed {seed}: {stacked} units of a side in {}",
                    u.2.label()
                );
            }
        }
    }
    assert_eq!(world.resource::<TurnTrack>().turn, last_turn);
    assert!(apply(&mut world, &Order::Pass).is_err());
    let last = log.last().unwrap();
    assert!(
        matches!(last, GameEvent::GameEnded { .. }),
        "{name} seed {seed}: last event {last:?}"
    );
    (last.line(), orders)
}

#[test]
fn random_full_games_always_end_with_a_verdict() {
    let mut winners = std::collections::BTreeMap::new();
    for seed in 0..100 {
        for name in [
            "training",
            "guadalcanal",
            "alligator_creek",
            "peleliu",
            "crossroads_gun",
        ] {
            let (line, _) = play(name, seed);
            let verdict = line.split('.').next().unwrap().to_string();
            *winners.entry((name, verdict)).or_insert(0) += 1;
        }
    }
    // Both scenarios produce verdicts; print the spread for the report.
    println!("{winners:#?}");
    assert!(winners.keys().any(|(n, _)| *n == "training"));
    assert!(winners.keys().any(|(n, _)| *n == "guadalcanal"));
    // The night river defence (R 50.0, R 43.6, R 59.6).
    assert!(winners.keys().any(|(n, _)| *n == "alligator_creek"));
    assert!(winners.keys().any(|(n, _)| *n == "peleliu"));
    // Guns (R 20.0-20.10).
    assert!(winners.keys().any(|(n, _)| *n == "crossroads_gun"));
}

/// `bob script` runs a whole scenario to its verdict: the orders a random
/// game accepted, replayed as a script with the same seed, end the same way.
/// `BOB_WRITE_SCRIPT=path` also writes the script out.
#[test]
fn a_script_plays_a_whole_scenario_to_its_verdict() {
    let seed = 7;
    let (loaded, roster, aid) = common::loaded("training");
    let mut world = headless_world(loaded, roster.clone(), aid.clone(), seed);
    let mut rng = Lcg(seed);
    let mut lines: Vec<String> = begin_game(&mut world).iter().map(GameEvent::line).collect();
    let mut accepted = Vec::new();
    while world.get_resource::<GameOver>().is_none() {
        let order = random_order(&mut world, &mut rng);
        if let Ok(events) = apply(&mut world, &order) {
            lines.extend(events.iter().map(GameEvent::line));
            accepted.push(order);
        }
    }
    let script = bob::engine::script::Script {
        scenario: "training".into(),
        seed,
        rolls: Vec::new(),
        orders: accepted,
    };
    if let Ok(path) = std::env::var("BOB_WRITE_SCRIPT") {
        let text = ron::ser::to_string_pretty(&script, ron::ser::PrettyConfig::default()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let run = bob::engine::script::run(&script, &roster, &aid).unwrap();
    assert_eq!(run.stopped, None);
    assert_eq!(run.lines, lines);
    assert!(run.lines.last().unwrap().starts_with("Scenario over: "));
}
