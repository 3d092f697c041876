//! The bot's tools of the night (R 50.0): Illumination counters where the
//! enemy stands in the dark within reach of its fire (R 50.1), and Decoys
//! brought back by an idle Concealed unit (R 50.3). Each is an ordinary
//! order, checked by the engine before it is given. See `docs/bot.md`.

use bevy::prelude::*;

use crate::engine::Order;
use crate::engine::night::{sees, visibility_range};
use crate::engine::operations::check;
use crate::rules::fire::FireKind;
use crate::scenario::Coord;
use crate::scenario::roster::{FireRange, UnitClass};
use crate::world::ActiveScenario;

use super::Bot;
use super::ops::attack_value;
use super::view::{Piece, View};

/// What an Illumination counter is worth against the best fire it makes
/// possible: it spends one unit of the Ops Range before the fire can be
/// given (R 50.1).
const ILLUMINATION_SHARE: f32 = 0.8;
/// What each enemy unit in the light is worth besides the fire now: every
/// Op Fire of the turn may reach it when it moves (R 9.0, R 50.1).
const LIT_UNIT: f32 = 0.06;
/// The least worth of the fire an Illumination counter makes possible
/// before one is spent (a one-time counter, R 50.1).
const ILLUMINATION_BAR: f32 = 0.1;
/// The worth of a Decoy brought back near the enemy (R 50.3): it draws
/// fire and hides the real units among the counters.
const DECOY_WORTH: f32 = 0.1;
/// How near the enemy a regenerated Decoy is useful, in hexes.
const DECOY_NEAR: u32 = 4;

/// The side's best Illumination counter now (R 50.1): over the hexes of
/// enemy units beyond the Visibility Range of every firer of mine that
/// could hit them in Normal Range, the hex whose light makes the best fire
/// possible (each firer's best shot into the light, the best in full, the
/// others at half, and [`LIT_UNIT`] for each enemy unit lit), when it is worth
/// at least [`ILLUMINATION_BAR`]. `None` by day, with no counter left, or
/// with no enemy in the dark near the line.
pub fn illumination(bot: &mut Bot, world: &mut World, view: &View) -> Option<(f32, Order)> {
    visibility_range(world)?;
    let firers: Vec<Piece> = view
        .mine()
        .filter(|p| !p.used && !p.in_cave && !p.is_decoy() && p.kind.is_some())
        .filter(|p| view.count_at(view.me.other(), p.at) == 0)
        .cloned()
        .collect();
    // The fire each enemy hex in the dark would draw once lit, firer by
    // firer.
    let mut dark: Vec<(Coord, Vec<f32>)> = Vec::new();
    let mut enemy_hexes: Vec<Coord> = view
        .enemies()
        .filter(|e| !e.in_cave && !e.is_decoy())
        .map(|e| e.at)
        .collect();
    enemy_hexes.sort();
    enemy_hexes.dedup();
    for at in enemy_hexes {
        if view.count_at(view.me, at) > 0 {
            continue;
        }
        let mut by_firer = vec![0.0; firers.len()];
        for (i, u) in firers.iter().enumerate() {
            if sees(world, u.at, at) || u.at.distance(at) > normal_range(u, view) {
                continue;
            }
            let v = attack_value(bot, world, view, u.entity, at, FireKind::Normal, None);
            by_firer[i] = if u.op_fire { 0.5 * v } else { v };
        }
        if by_firer.iter().any(|v| *v > 0.0) {
            dark.push((at, by_firer));
        }
    }
    if dark.is_empty() {
        return None;
    }
    let mut spots: Vec<Coord> = dark
        .iter()
        .flat_map(|(c, _)| {
            std::iter::once(*c).chain(
                crate::scenario::schema::Side6::ALL
                    .into_iter()
                    .filter_map(|s| view.board.neighbour(*c, s)),
            )
        })
        .collect();
    spots.sort();
    spots.dedup();
    let mut best: Option<(f32, Coord)> = None;
    for h in spots {
        // Each firer's best shot into the light: the best in full, the
        // others at half (each costs its own Use).
        let mut lit: Vec<f32> = (0..firers.len())
            .map(|i| {
                dark.iter()
                    .filter(|(c, _)| c.distance(h) <= 1)
                    .map(|(_, v)| v[i])
                    .fold(0.0, f32::max)
            })
            .collect();
        lit.sort_by(|a, b| b.total_cmp(a));
        let units = view
            .enemies()
            .filter(|e| !e.in_cave && e.at.distance(h) <= 1 && dark.iter().any(|d| d.0 == e.at))
            .count();
        let v = lit.first().copied().unwrap_or(0.0)
            + 0.5 * lit.iter().skip(1).sum::<f32>()
            + LIT_UNIT * units as f32;
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, h));
        }
    }
    let (v, at) = best?;
    if v < ILLUMINATION_BAR {
        return None;
    }
    // Fired near the unit of mine closest to the hex (R 50.1: within 5
    // hexes, not in Melee); the engine checks the rest.
    let mut near: Vec<&Piece> = view.mine().filter(|p| !p.in_cave).collect();
    near.sort_by_key(|p| (p.at.distance(at), p.id.clone()));
    near.into_iter().find_map(|p| {
        let order = Order::Illuminate {
            unit: p.id.clone(),
            at: at.label(),
        };
        check(world, &order)
            .is_ok()
            .then_some((ILLUMINATION_SHARE * v, order))
    })
}

/// The Normal Range of a unit of mine (R 50.2: no long range at Night).
fn normal_range(u: &Piece, view: &View) -> u32 {
    let k = u.reckoned(&view.typical_mine);
    let side = if u.reduced { k.reduced } else { k.full };
    match side.range {
        FireRange::Normal(r) | FireRange::Band(_, r) => u32::from(r),
        FireRange::AtLeast(_) | FireRange::None => 0,
    }
}

/// A removed Decoy of my side brought back by the Concealed unit `u`
/// (R 50.3), when an enemy is within [`DECOY_NEAR`] hexes and `u` has no
/// fire worth [`DECOY_WORTH`]: its Use draws the enemy's fire to one more
/// counter. `None` by day or when the engine refuses it.
pub fn regenerate_decoy(
    world: &mut World,
    view: &View,
    u: &Piece,
    best_fire: f32,
    weight: f32,
) -> Option<(f32, Order)> {
    visibility_range(world)?;
    if !u.concealed || u.is_decoy() || u.in_cave || best_fire >= DECOY_WORTH || weight <= 0.0 {
        return None;
    }
    if !view.enemies().any(|e| e.at.distance(u.at) <= DECOY_NEAR) {
        return None;
    }
    let decoys: Vec<String> = {
        let sc = &world.resource::<ActiveScenario>().scenario;
        let roster = &world.resource::<crate::world::RosterRes>().0;
        let is_decoy = |k: &str| roster.get(k).is_some_and(|t| t.class == UnitClass::Decoy);
        sc.setup
            .iter()
            .filter(|p| p.side == view.me && is_decoy(&p.unit))
            .map(|p| p.id.clone())
            .chain(
                sc.reinforcements
                    .iter()
                    .filter(|r| r.side == view.me)
                    .flat_map(|r| r.units.iter())
                    .filter(|x| is_decoy(&x.unit))
                    .map(|x| x.id.clone()),
            )
            .filter(|id| view.pieces.iter().all(|p| &p.id != id))
            .collect()
    };
    decoys.into_iter().find_map(|decoy| {
        let order = Order::RegenerateDecoy {
            unit: u.id.clone(),
            decoy,
        };
        check(world, &order)
            .is_ok()
            .then_some((DECOY_WORTH * weight, order))
    })
}
