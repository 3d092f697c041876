//! Engine speed: complete Operations Phases with random orders on both
//! scenarios, headless. `cargo bench --bench operations`; the numbers go to
//! `docs/performance.md`.

use std::time::Instant;

use bob::engine::headless_world;
use bob::engine::operations::{OpsState, apply, begin_operations};
use bob::engine::random::{Lcg, random_order};
use bob::scenario;

fn main() {
    let roster = scenario::builtin_roster().expect("roster");
    let aid = scenario::builtin_player_aid().expect("player aid");
    for name in ["training", "guadalcanal"] {
        let loaded = bob::world::load(name, &roster, &aid).expect("scenario");
        let phases = 500u64;
        let mut orders = 0u64;
        let start = Instant::now();
        for seed in 0..phases {
            let mut world = headless_world(loaded.clone(), roster.clone(), aid.clone(), seed);
            let mut rng = Lcg(seed);
            begin_operations(&mut world);
            while world.get_resource::<OpsState>().is_some() {
                let order = random_order(&mut world, &mut rng);
                orders += 1;
                let _ = apply(&mut world, &order);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {phases} random Operations Phases in {secs:.2} s = {:.0} phases/s, {:.0} orders/s (one core)",
            phases as f64 / secs,
            orders as f64 / secs
        );
    }
}
