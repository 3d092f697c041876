//! Random legal play through the Operations Phase of both scenarios: the
//! engine never panics and never breaks an invariant (R 2.0 stacking, R 4.1
//! Ops Range within its maximum, every unit Used or Op Fire when the phase
//! ends, no order accepted after it).

use bevy::prelude::*;

use bob::engine::op_fire::OpFireWindow;
use bob::engine::operations::{OpsState, apply, begin_operations};
use bob::engine::{Order, headless_world};
use bob::scenario::{self, Coord};
use bob::world::{Location, OpFire, Phase, TurnTrack, Unit, Used};

/// A small deterministic generator, so a failing seed can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn units(world: &mut World) -> Vec<(String, bob::scenario::schema::SideId, Coord, bool, bool)> {
    let mut q = world.query::<(&Unit, &Location, Has<Used>, Has<OpFire>)>();
    q.iter(world)
        .map(|(u, l, used, op)| (u.id.clone(), u.side, l.coord, used, op))
        .collect()
}

fn random_order(world: &mut World, rng: &mut Lcg) -> Order {
    if let Some(w) = world.get_resource::<OpFireWindow>().cloned() {
        let firers = w
            .eligible
            .iter()
            .filter(|_| rng.below(3) == 0)
            .cloned()
            .collect();
        return Order::OpFire { firers };
    }
    let acting = world.resource::<OpsState>().acting;
    let all = units(world);
    let mine: Vec<_> = all
        .iter()
        .filter(|u| u.1 == acting && !u.3 && !u.4)
        .collect();
    if mine.is_empty() || rng.below(8) == 0 {
        return Order::Pass;
    }
    let (id, _, at, _, _) = mine[rng.below(mine.len())].clone();
    match rng.below(5) {
        0 => Order::MarkUsed { unit: id },
        1 => Order::MarkOpFire {
            unit: id,
            facing: None,
        },
        2 => {
            let enemies: Vec<_> = all.iter().filter(|u| u.1 != acting).collect();
            match enemies.get(rng.below(enemies.len())) {
                Some(e) => Order::Fire {
                    unit: id,
                    target: e.2.label(),
                },
                None => Order::Pass,
            }
        }
        _ => {
            let mut path = Vec::new();
            let mut here = at;
            for _ in 0..1 + rng.below(3) {
                let side = bob::scenario::schema::Side6::ALL[rng.below(6)];
                if let Some(n) = here.neighbour(side, 16, 12) {
                    path.push(n.label());
                    here = n;
                }
            }
            Order::Move { unit: id, path }
        }
    }
}

fn check_invariants(world: &mut World, limit: usize) {
    let all = units(world);
    let mut seen = std::collections::HashSet::new();
    for u in &all {
        assert!(seen.insert(u.0.clone()), "unit {} twice", u.0);
        let stacked = all.iter().filter(|v| v.1 == u.1 && v.2 == u.2).count();
        assert!(
            stacked <= limit,
            "{} units of a side in {}",
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
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let limit = usize::from(aid.constants.stacking_per_side);
    let loaded = scenario::load(name, &roster, &aid).unwrap();
    let mut world = headless_world(loaded, roster, aid, seed);
    let mut rng = Lcg(seed ^ 0x5eed);
    begin_operations(&mut world);
    for _ in 0..2000 {
        if world.get_resource::<OpsState>().is_none() {
            break;
        }
        let order = random_order(&mut world, &mut rng);
        let _ = apply(&mut world, &order);
        check_invariants(&mut world, limit);
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
