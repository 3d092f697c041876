//! Whole games per second on one core, headless: random legal orders on
//! both sides (the raw rules engine), and bot against bot, with the time
//! the bots spend choosing. `cargo bench --bench games [-- GAMES]`; the
//! numbers go to `docs/performance.md`.

use std::time::{Duration, Instant};

use bob::bot::{Bot, Level, acting_side};
use bob::engine::headless_world;
use bob::engine::random::{Lcg, random_order};
use bob::phases::end::GameOver;
use bob::phases::{apply, begin_game};
use bob::scenario;

fn main() {
    let games: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(500);
    let roster = scenario::builtin_roster().expect("roster");
    let aid = scenario::builtin_player_aid().expect("player aid");
    for name in ["training", "guadalcanal"] {
        let loaded = scenario::load(name, &roster, &aid).expect("scenario");
        // Random legal orders on both sides.
        let mut orders = 0u64;
        let start = Instant::now();
        for seed in 0..games {
            let mut world = headless_world(loaded.clone(), roster.clone(), aid.clone(), seed);
            let mut rng = Lcg(seed);
            begin_game(&mut world);
            while world.get_resource::<GameOver>().is_none() {
                let order = random_order(&mut world, &mut rng);
                orders += 1;
                let _ = apply(&mut world, &order);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {games} random games in {secs:.2} s = {:.0} games/s, {:.0} orders/s (one core)",
            games as f64 / secs,
            orders as f64 / secs
        );
        // Bot against bot.
        let bot_games = (games / 10).max(5);
        let mut choosing = Duration::ZERO;
        let mut slowest = Duration::ZERO;
        let mut decisions = 0u64;
        let start = Instant::now();
        for seed in 0..bot_games {
            let mut world = headless_world(loaded.clone(), roster.clone(), aid.clone(), seed);
            let mut bots = [
                Bot::new(Level::Normal, seed),
                Bot::new(Level::Normal, !seed),
            ];
            begin_game(&mut world);
            while let Some(side) = acting_side(&world) {
                let t = Instant::now();
                let order = bots[side.index()].order(&mut world);
                let took = t.elapsed();
                choosing += took;
                slowest = slowest.max(took);
                decisions += 1;
                if apply(&mut world, &order).is_err() {
                    break;
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {bot_games} bot-vs-bot games in {secs:.2} s = {:.1} games/s; {decisions} decisions, mean {:.2} ms, slowest {:.1} ms, {:.0}% of the time choosing",
            bot_games as f64 / secs,
            choosing.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
            slowest.as_secs_f64() * 1000.0,
            100.0 * choosing.as_secs_f64() / secs
        );
    }
}
