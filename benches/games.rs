//! Whole games per second on one core, headless: random legal orders on
//! both sides (the raw rules engine), and bot against bot, with the time
//! the bots spend choosing. `cargo bench --bench games [-- GAMES]`; the
//! numbers go to `docs/performance.md`.
//!
//! `-- GAMES random` plays only the random games (for a profiler);
//! `-- GAMES hash` also prints a fingerprint of every order given and every
//! event logged (and the state hash at each game's end), so that a change
//! made for speed can be shown to leave every game exactly as it was;
//! `-- GAMES training` (or `guadalcanal`) plays that scenario only;
//! `-- GAMES all` plays every built-in scenario.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use bob::bot::{Bot, Level, acting_side};
use bob::engine::Shared;
use bob::engine::game::{apply, begin_game};
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::scenario;

fn main() {
    let games: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(500);
    let random_only = std::env::args().any(|a| a == "random");
    let fingerprint = std::env::args().any(|a| a == "hash");
    // `dump`: every order, its result and the state after it, one a line.
    let dump = std::env::args().any(|a| a == "dump");
    // Read once and shared by every game, as a simulation does.
    let roster = std::sync::Arc::new(scenario::builtin_roster().expect("roster"));
    let aid = std::sync::Arc::new(scenario::builtin_player_aid().expect("player aid"));
    // A scenario named on the line plays alone (for a profiler).
    let named: Vec<String> = std::env::args()
        .filter(|a| a == "training" || a == "guadalcanal")
        .collect();
    let all: Vec<String> = if std::env::args().any(|a| a == "all") {
        scenario::embedded()
            .map(|e| e.file.trim_end_matches(".ron").to_string())
            .collect()
    } else {
        vec!["training".into(), "guadalcanal".into()]
    };
    for name in all.iter().map(String::as_str) {
        if !named.is_empty() && !named.iter().any(|n| n == name) {
            continue;
        }
        let loaded = bob::world::load(name, &roster, &aid).expect("scenario");
        let shared = Shared::new(loaded, roster.clone(), aid.clone());
        // Random legal orders on both sides.
        let mut orders = 0u64;
        let mut hasher = DefaultHasher::new();
        let start = Instant::now();
        for seed in 0..games {
            let mut world = shared.world(seed);
            let mut rng = Lcg(seed);
            let events = begin_game(&mut world);
            if fingerprint {
                format!("{events:?}").hash(&mut hasher);
            }
            while world.get_resource::<GameOver>().is_none() {
                let order = random_order(&mut world, &mut rng);
                orders += 1;
                let result = apply(&mut world, &order);
                if fingerprint {
                    format!("{order:?} {result:?}").hash(&mut hasher);
                }
                if dump {
                    let state = bob::journal::state_hash(&mut world);
                    println!("{name} {seed} {orders}: {order:?} -> {result:?} state {state:016x}");
                    if std::env::args().any(|a| a == "text") {
                        println!("{}", bob::journal::state::state_text(&mut world));
                    }
                }
            }
            if fingerprint {
                bob::journal::state_hash(&mut world).hash(&mut hasher);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {games} random games in {secs:.2} s = {:.0} games/s, {:.0} orders/s (one core)",
            games as f64 / secs,
            orders as f64 / secs
        );
        if fingerprint {
            println!("{name}: fingerprint {:016x}", hasher.finish());
        }
        if random_only {
            continue;
        }
        // Bot against bot.
        let bot_games = (games / 10).max(5);
        let mut choosing = Duration::ZERO;
        let mut slowest = Duration::ZERO;
        let mut decisions = 0u64;
        let mut bot_hasher = DefaultHasher::new();
        let start = Instant::now();
        // The bots' memo of the map, handed from one game to the next as a
        // simulation does.
        let mut memo = None;
        for seed in 0..bot_games {
            let mut world = shared.world(seed);
            let mut bots = [
                Bot::new(Level::Normal, seed).with_memo(memo.clone()),
                Bot::new(Level::Normal, !seed).with_memo(memo.clone()),
            ];
            begin_game(&mut world);
            while let Some(side) = acting_side(&world) {
                let t = Instant::now();
                let order = bots[side.index()].order(&mut world);
                let took = t.elapsed();
                choosing += took;
                slowest = slowest.max(took);
                decisions += 1;
                let result = apply(&mut world, &order);
                if fingerprint {
                    format!("{order:?} {result:?}").hash(&mut bot_hasher);
                }
                if result.is_err() {
                    break;
                }
            }
            memo = bots[0].memo().or_else(|| bots[1].memo());
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {bot_games} bot-vs-bot games in {secs:.2} s = {:.1} games/s; {decisions} decisions, mean {:.2} ms, slowest {:.1} ms, {:.0}% of the time choosing",
            bot_games as f64 / secs,
            choosing.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
            slowest.as_secs_f64() * 1000.0,
            100.0 * choosing.as_secs_f64() / secs
        );
        if fingerprint {
            println!("{name}: bot fingerprint {:016x}", bot_hasher.finish());
        }
    }
}
