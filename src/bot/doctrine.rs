//! How each side fights in the Pacific (issue 8), on top of the exact odds
//! of `ops`: the Japanese hold their concealed positions, ambush from them
//! and charge when the scenario calls a Banzai; the Allies go carefully,
//! firing at suspected Conceal counters and keeping out of the Kunai-grass
//! and open-ground "death zones" that enemy Op Fire covers. Levels weigh
//! the doctrine (`Judgement::doctrine`), never the dice. See `docs/bot.md`.

use bevy::prelude::*;

use crate::engine::Order;
use crate::rules::Mp;
use crate::rules::banzai::{charge_targets, cheapest};
use crate::rules::movement::{MoveRules, step_cost};
use crate::scenario::Coord;
use crate::scenario::roster::FireRange;
use crate::scenario::schema::{Nationality, Side6, Theater};
use crate::world::{ActiveScenario, Facing};

use super::Bot;
use super::view::{Piece, View};

/// The side's doctrine for one decision.
#[derive(Debug, Clone, Copy, Default)]
pub struct Doctrine {
    /// The side is Japanese (R 59): hold, ambush, Banzai.
    pub japanese: bool,
    /// The side fights the Japanese in the Pacific: careful advance.
    pub careful: bool,
    /// How much the level minds its doctrine (0: not at all).
    pub weight: f32,
}

/// The least worth of a shot that gives a Japanese Conceal counter away
/// (R 15.0, R 59.2): poorer shots are not taken.
const HOLD_FIRE_BAR: f32 = 0.22;
/// The worth an adjacent enemy in the Jungle must offer before a Concealed
/// Japanese unit fires instead of waiting for it to walk in (R 51.1, R 51.2).
const AMBUSH_BAR: f32 = 0.5;
/// What leaving a concealed position costs a Japanese unit (the -2 Conceal
/// becomes -1, R 59.2, and moving may give it away, R 15.0).
const HOLD_POSITION: f32 = 0.25;
/// Extra for marking Op Fire from a Conceal counter (an ambush, R 9.0).
const AMBUSH_MARK: f32 = 0.08;
/// Worth of stripping a suspected Conceal counter, per chance of effect
/// (reconnaissance by fire, R 15.0).
const RECON: f32 = 0.12;
/// Cost of ending a move in a death zone, per enemy Op Fire or Conceal
/// counter covering it (at most three).
const DEATH_ZONE: f32 = 0.12;

impl Doctrine {
    pub fn of(world: &World, view: &View, weight: f32) -> Doctrine {
        let pacific = world.resource::<ActiveScenario>().scenario.theater == Theater::Pacific;
        let japanese = view.mine().any(|p| {
            p.kind
                .as_ref()
                .is_some_and(|k| k.nationality == Nationality::Japanese)
        });
        Doctrine {
            japanese: pacific && japanese,
            careful: pacific && !japanese,
            weight,
        }
    }

    /// A Concealed Japanese unit in a hex of Jungle (or any Beneficial
    /// Terrain) waiting for the enemy.
    fn hidden(&self, u: &Piece) -> bool {
        self.japanese && u.concealed && self.weight > 0.0
    }

    /// The worth of a fire order by `u` at `at` after doctrine, or `None`
    /// when doctrine says hold fire: a Concealed Japanese unit keeps its
    /// counter for a good shot, and lets an enemy next to it in the Jungle
    /// walk in (R 51.2 first strike).
    pub fn fire(&self, view: &View, u: &Piece, at: Coord, v: f32) -> Option<f32> {
        if !self.hidden(u) {
            return Some(v);
        }
        if at.distance(u.at) <= 1
            && view.terrain_key(u.at) == "jungle"
            && v < AMBUSH_BAR * self.weight
        {
            return None;
        }
        (v >= HOLD_FIRE_BAR * self.weight).then_some(v)
    }

    /// The extra worth of an Op Fire mark (an ambush from a Conceal
    /// counter).
    pub fn mark_op_fire(&self, u: &Piece) -> f32 {
        if self.hidden(u) {
            AMBUSH_MARK * self.weight
        } else {
            0.0
        }
    }

    /// The bar a unit's Op Fire must pass in an Op Fire window.
    pub fn op_fire_bar(&self, view: &View, u: &Piece, at: Coord, bar: f32) -> f32 {
        if !self.hidden(u) {
            return bar;
        }
        if at.distance(u.at) <= 1 && view.terrain_key(u.at) == "jungle" {
            bar.max(AMBUSH_BAR * self.weight)
        } else {
            bar.max(HOLD_FIRE_BAR * 0.7 * self.weight)
        }
    }

    /// The worth of stripping Conceal counters, per chance of effect on
    /// an unknown counter (reconnaissance by fire).
    pub fn recon(&self) -> f32 {
        if self.careful {
            RECON * self.weight
        } else {
            0.0
        }
    }

    /// What doctrine adds to (or takes from) a move of `u` into `to`.
    pub fn move_worth(
        &self,
        bot: &mut Bot,
        world: &World,
        view: &View,
        u: &Piece,
        to: Coord,
    ) -> f32 {
        let mut v = 0.0;
        if self.hidden(u) && view.count_at(view.me.other(), to) == 0 {
            v -= HOLD_POSITION * self.weight;
        }
        if self.careful && self.weight > 0.0 {
            v -= DEATH_ZONE * self.weight * death_zone(bot, world, view, to);
        }
        v
    }
}

/// How many enemy Op Fire markers and Conceal counters (at most three)
/// cover `c` with fire in Normal Range and LOS, when `c` is Kunai Grass or
/// Open Ground: a hex to cross, not to stop in.
fn death_zone(bot: &mut Bot, world: &World, view: &View, c: Coord) -> f32 {
    let key = view.terrain_key(c);
    if key != "kunai_grass" && view.beneficial(c) {
        return 0.0;
    }
    super::ops::remembered(bot, view, (c, 3), |bot| {
        let mut n = 0.0;
        for e in view.enemies() {
            if e.in_cave || e.is_decoy() || e.used || !(e.op_fire || e.kind.is_none()) {
                continue;
            }
            let t = e.reckoned(&view.typical_enemy);
            let side = if e.reduced { t.reduced } else { t.full };
            let range = match side.range {
                FireRange::Normal(r) | FireRange::Band(r, _) => u32::from(r),
                FireRange::AtLeast(_) | FireRange::None => continue,
            };
            if e.at.distance(c) > range || e.at == c {
                continue;
            }
            if let Some(f) = world.get::<Facing>(e.entity)
                && crate::engine::fire::facing_in_use(world)
                && !crate::rules::facing::in_front(e.at, f.0, c)
            {
                continue;
            }
            if bot.los.sight(&view.board, &view.aid, e.at, c).is_none() {
                continue;
            }
            n += if e.kind.is_none() { view.p_real } else { 1.0 };
        }
        n.min(3.0)
    })
}

/// The share of the Squads able to reach their charge's target this turn
/// at which a Normal bot calls the Banzai Charge (R 59.6); the level's
/// doctrine weight scales it (Easy calls it early, Hard waits for more).
const BANZAI_REACH: f32 = 0.5;

/// Whether to call the window's Banzai Charge now (R 59.6): when at least
/// `BANZAI_REACH * weight` of the Japanese Squads on the board, not in
/// Melee, could enter the hex their charge must go for (the closest enemy
/// hex or enemy-controlled Victory Marker) with the charge's +4 MP this
/// turn. Otherwise wait: the window's last turn calls it anyway.
pub fn banzai_now(world: &World, view: &View, weight: f32) -> bool {
    let (reach, squads) = banzai_reach(world, view);
    squads > 0 && reach as f32 >= (BANZAI_REACH * weight).min(1.0) * squads as f32
}

/// How many of the side's Squads (not in Melee) would reach their charge
/// target with +4 MP this turn, and how many there are.
pub fn banzai_reach(world: &World, view: &View) -> (usize, usize) {
    let rules = MoveRules::of(&world.resource::<ActiveScenario>().scenario.special_rules);
    let limit = usize::from(view.aid.constants.stacking_per_side);
    let bonus = Mp::whole(u16::from(view.aid.constants.banzai_mp));
    let enemies: Vec<Coord> = view
        .enemies()
        .filter(|e| !e.in_cave)
        .map(|e| e.at)
        .collect();
    let mut goals = enemies.clone();
    goals.extend(crate::engine::banzai::enemy_victory_markers(world, view.me));
    let (mut reach, mut squads) = (0, 0);
    for u in view.mine() {
        let squad = u
            .kind
            .as_ref()
            .is_some_and(|k| k.class == crate::scenario::roster::UnitClass::Squad);
        if !squad || enemies.contains(&u.at) {
            continue;
        }
        squads += 1;
        let targets = charge_targets(u.at, &goals, |c| view.count_at(view.me, c) >= limit);
        let allowance = super::ops::allowance(world, u) + bonus;
        let costs = cheapest(&view.board, &view.aid, rules, u.at, allowance, |c| {
            enemies.contains(&c)
        });
        if targets.iter().any(|t| costs.contains_key(t)) {
            reach += 1;
        }
    }
    (reach, squads)
}

/// The Banzai Charge of a charging Squad (R 59.6): into the closest enemy
/// hex (in hexes) by the fewest MPs; among equally close hexes the one
/// with the fewest enemy units; when none can be reached, as close as it
/// can get. A path through Wire ends in the first Wire hex, which the
/// charge enters to clear (R 43.6). `None` when it has nowhere to go.
pub fn banzai_charge(world: &World, view: &View, u: &Piece, wire: &[Coord]) -> Option<Order> {
    let board = view.board.clone();
    let aid = view.aid.clone();
    let rules = MoveRules::of(&world.resource::<ActiveScenario>().scenario.special_rules);
    let limit = usize::from(aid.constants.stacking_per_side);
    let enemies: Vec<Coord> = view
        .enemies()
        .filter(|e| !e.in_cave)
        .map(|e| e.at)
        .collect();
    let enemy_at = |c: Coord| enemies.contains(&c);
    // Enemy-controlled Victory Markers are targets too (R 59.6).
    let mut goals = enemies.clone();
    goals.extend(crate::engine::banzai::enemy_victory_markers(world, view.me));
    let targets = charge_targets(u.at, &goals, |c| view.count_at(view.me, c) >= limit);
    if targets.is_empty() {
        return None;
    }
    let allowance = super::ops::allowance(world, u);
    let costs = cheapest(&board, &aid, rules, u.at, allowance, enemy_at);
    let reached: Vec<Coord> = targets
        .iter()
        .copied()
        .filter(|t| costs.contains_key(t))
        .collect();
    let end = if reached.is_empty() {
        let gap = |c: Coord| targets.iter().map(|t| c.distance(*t)).min().unwrap_or(0);
        costs
            .iter()
            .filter(|(c, _)| **c != u.at && !enemy_at(**c))
            .min_by_key(|(c, m)| (gap(**c), **m, **c))
            .map(|(c, _)| *c)?
    } else {
        reached
            .into_iter()
            .min_by_key(|t| (view.count_at(view.me.other(), *t), costs[t], *t))?
    };
    // Back from the end along steps that add up to the fewest MPs.
    let mut path = vec![end];
    let mut at = end;
    while at != u.at {
        let here = costs[&at];
        let prev = Side6::ALL.into_iter().find_map(|s| {
            let p = board.neighbour(at, s)?;
            let before = *costs.get(&p)?;
            if p != u.at && enemy_at(p) {
                return None;
            }
            let step = step_cost(&board, &aid, rules, p, at).ok()?;
            (Mp(before.0 + step.total.0) == here).then_some(p)
        })?;
        if prev != u.at {
            path.push(prev);
        }
        at = prev;
        if path.len() > costs.len() {
            return None;
        }
    }
    path.reverse();
    if let Some(i) = path.iter().position(|c| wire.contains(c)) {
        path.truncate(i + 1);
    }
    Some(Order::plain_move(
        u.id.clone(),
        path.iter().map(|c| c.label()).collect(),
    ))
}
