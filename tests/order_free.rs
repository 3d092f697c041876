//! No game result depends on the order in which the ECS lists entities:
//! each built-in scenario, its units spawned in shuffled orders, plays the
//! same seeded games — random orders on both sides, and the bot against
//! itself — event for event.

mod common;
use common::data;

use std::sync::Arc;

use bob::bot::{Bot, Level, acting_side};
use bob::engine::game::{apply, begin_game};
use bob::engine::headless_world;
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::scenario::Loaded;

/// The scenario with its setup list in another order (a fixed shuffle
/// drawn from `seed`).
fn shuffled(loaded: &Loaded, seed: u64) -> Loaded {
    let mut sc = (*loaded.scenario).clone();
    let mut rng = Lcg(seed);
    for i in (1..sc.setup.len()).rev() {
        let j = rng.below(i + 1);
        sc.setup.swap(i, j);
    }
    Loaded {
        scenario: Arc::new(sc),
        origin: loaded.origin.clone(),
    }
}

/// Every order and answer of a random game, as text.
fn random_game(loaded: Loaded, seed: u64) -> Vec<String> {
    let (roster, aid) = data();
    let mut world = headless_world(loaded, roster, aid, seed);
    let mut out = vec![format!("{:?}", begin_game(&mut world))];
    let mut rng = Lcg(seed);
    for _ in 0..3000 {
        if world.get_resource::<GameOver>().is_some() {
            break;
        }
        let order = random_order(&mut world, &mut rng);
        out.push(format!("{order:?} -> {:?}", apply(&mut world, &order)));
    }
    out
}

/// Every order of a bot-against-bot game, as text.
fn bot_game(loaded: Loaded, seed: u64) -> Vec<String> {
    let (roster, aid) = data();
    let mut world = headless_world(loaded, roster, aid, seed);
    let mut out = vec![format!("{:?}", begin_game(&mut world))];
    let mut bots = [
        Bot::new(Level::Normal, seed),
        Bot::new(Level::Normal, !seed),
    ];
    for _ in 0..3000 {
        let Some(side) = acting_side(&world) else {
            break;
        };
        let order = bots[side.index()].order(&mut world);
        let result = apply(&mut world, &order);
        out.push(format!("{order:?} -> {result:?}"));
        if result.is_err() {
            break;
        }
    }
    out
}

/// The first line where two games part, if they do.
fn parting(a: &[String], b: &[String]) -> Option<String> {
    let i = a.iter().zip(b).position(|(x, y)| x != y)?;
    Some(format!("order {i}:\n  {}\n  {}", a[i], b[i]))
}

#[test]
fn games_do_not_depend_on_the_order_units_were_spawned_in() {
    let (roster, aid) = data();
    let mut problems = Vec::new();
    for e in bob::scenario::embedded() {
        let stem = e.file.trim_end_matches(".ron");
        let loaded = bob::world::load(stem, &roster, &aid).unwrap();
        for seed in 0..6 {
            let base = random_game(loaded.clone(), seed);
            let other = random_game(shuffled(&loaded, seed + 100), seed);
            if let Some(p) = parting(&base, &other)
                .or_else(|| (base.len() != other.len()).then(|| "lengths differ".to_string()))
            {
                problems.push(format!("{stem} random game {seed}: {p}"));
            }
        }
        for seed in 0..2 {
            let base = bot_game(loaded.clone(), seed);
            let other = bot_game(shuffled(&loaded, seed + 200), seed);
            if let Some(p) = parting(&base, &other) {
                problems.push(format!("{stem} bot game {seed}: {p}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
