//! A player that picks random orders: the opponent the bot must beat, the
//! driver of property tests and of the engine benchmark. Deterministic for a
//! seed, so a failing game can be replayed.

use bevy::prelude::*;

use crate::scenario::Coord;
use crate::scenario::schema::{Side6, SideId};
use crate::world::{BoardRes, Location, Marks, Unit};

use super::Order;
use super::operations::OpsState;

/// A small linear congruential generator.
#[derive(Debug, Clone)]
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Every unit: id, side, hex, Used, Op Fire; sorted by id, so that the
/// draws never depend on the order the ECS lists entities in.
pub fn unit_states(world: &mut World) -> Vec<(crate::world::UnitId, SideId, Coord, bool, bool)> {
    let mut all =
        crate::world::queries::collect::<(&Unit, &Location, &Marks), (), _>(world, |(u, l, m)| {
            (u.id.clone(), u.side, l.coord, m.used, m.op_fire)
        });
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

/// A random order for whoever must act: one of the legal answers to the
/// decision the game waits for (`decision::random_answer`: an Op Fire
/// window, a Combat Event's question, a question of the later phases), else
/// a mark, a fire, a move of one to three hexes, or a pass. The order may be
/// refused; the caller simply asks again.
pub fn random_order(world: &mut World, rng: &mut Lcg) -> Order {
    if let Some(d) = super::decision::awaited(world) {
        return super::decision::random_answer(world, &d, rng);
    }
    let Some(acting) = world.get_resource::<OpsState>().map(|s| s.acting) else {
        return Order::Pass;
    };
    let (columns, rows) = {
        let b = &world.resource::<BoardRes>().0;
        (b.columns, b.rows)
    };
    // The units by id: the acting side's units free to act, and the enemy
    // units' hexes.
    // The acting side's units free to act and the enemy units, each by id
    // (read in place, no id copied but the one drawn).
    let drawn =
        crate::world::queries::with_query::<(&Unit, &Location, &Marks), (), _>(world, |q| {
            let mut free: Vec<(&str, Coord)> = Vec::new();
            let mut enemies: Vec<(&str, Coord)> = Vec::new();
            for (u, l, m) in q {
                if u.side != acting {
                    enemies.push((u.id.as_str(), l.coord));
                } else if !m.used && !m.op_fire {
                    free.push((u.id.as_str(), l.coord));
                }
            }
            if free.is_empty() || rng.below(8) == 0 {
                return None;
            }
            free.sort_unstable_by_key(|(id, _)| *id);
            enemies.sort_unstable_by_key(|(id, _)| *id);
            let (id, at) = free[rng.below(free.len())];
            let enemies: Vec<Coord> = enemies.into_iter().map(|(_, at)| at).collect();
            Some((id.to_string(), at, enemies))
        });
    let Some((id, at, enemies)) = drawn else {
        return Order::Pass;
    };
    match rng.below(5) {
        0 => Order::MarkUsed { unit: id },
        1 => Order::MarkOpFire {
            unit: id,
            facing: None,
        },
        2 => {
            let target = rng.below(enemies.len());
            match enemies.get(target).copied() {
                Some(at) => Order::Fire {
                    unit: id,
                    target: at.label(),
                    facing: None,
                },
                None => Order::Pass,
            }
        }
        _ => {
            let mut path = Vec::with_capacity(3);
            let mut here = at;
            for _ in 0..1 + rng.below(3) {
                if let Some(n) = here.neighbour(Side6::ALL[rng.below(6)], columns, rows) {
                    path.push(n.label());
                    here = n;
                }
            }
            Order::Move {
                unit: id,
                path,
                declared_retreat: false,
                assault_fire: None,
                fireteam_fire: None,
                smoke_grenade: None,
                seishin: false,
                facing: None,
            }
        }
    }
}
