//! The bot's orders in the Operations Phase (R 4.0): every fire, move and
//! mark of every unit that may still act is valued, the best one the
//! engine accepts is given, and the bot passes (R 4.1) when nothing is
//! worth a Use.
//!
//! Values are in "enemy units eliminated": an attack is worth the exact
//! chances of its outcomes (`rules::odds`), a hex costs the enemy fire that
//! could reach it, a move gains by closing on the scenario's objectives.

use bevy::prelude::*;

use crate::engine::Order;
use crate::engine::checks::morale_to_act;
use crate::engine::command_points::CpFunction;
use crate::engine::fire::{AttackExtras, plan_attack};
use crate::engine::operations::check;
use crate::rules::Mp;
use crate::rules::fire::{FireKind, SuppressionLevel};
use crate::rules::los::Sight;
use crate::rules::odds::{OddsTarget, fire_odds, morale_check};
use crate::rules::rout::edge_distance;
use crate::rules::smoke::SmokeSide;
use crate::scenario::Coord;
use crate::scenario::roster::{FireRange, UnitClass};
use crate::scenario::schema::{MapEdge, VictoryCondition};
use crate::world::{ActiveScenario, Facing};

use super::Bot;
use super::doctrine::{Doctrine, banzai_charge};
use super::memo::{Bounds, Reached, path_to, reach as reach_from};
use super::view::{FastMap, Piece, View, odds_value, threat};

/// What the scenario asks of the bot's side (R 18.0).
pub struct Goals {
    /// Victory hexes the side must take or keep.
    pub hexes: Vec<Coord>,
    /// Those of them the side does not hold now (controlled by the enemy,
    /// or with an enemy unit in them).
    pub wanted: Vec<Coord>,
    /// Units to exit by this edge.
    pub exit: Option<MapEdge>,
    /// Each enemy Squad/WT eliminated counts toward victory.
    pub kills_count: bool,
    /// The side must take victory hexes from the enemy (R 18.0).
    pub attacker: bool,
    /// The enemy's units, for a side with no hex to take.
    pub enemies: Vec<Coord>,
}

impl Goals {
    pub fn of(world: &World, view: &View) -> Goals {
        let sc = &world.resource::<ActiveScenario>().scenario;
        let control = world.get_resource::<crate::engine::phases::end::Control>();
        let mut goals = Goals {
            hexes: Vec::new(),
            wanted: Vec::new(),
            exit: None,
            kills_count: false,
            attacker: false,
            enemies: view
                .enemies()
                .filter(|p| !p.in_cave)
                .map(|p| p.at)
                .collect(),
        };
        for c in &sc.victory {
            match c {
                VictoryCondition::ControlHexes { hexes, side, .. } => {
                    goals.attacker |= *side == view.me;
                    for h in hexes {
                        if let Ok(at) = Coord::parse(h, view.board.columns, view.board.rows) {
                            goals.hexes.push(at);
                            let held = control.and_then(|c| c.0.controller(at)) == Some(view.me)
                                && view.count_at(view.me.other(), at) == 0;
                            if !held {
                                goals.wanted.push(at);
                            }
                        }
                    }
                }
                VictoryCondition::EliminateUnits { side, .. } if *side == view.me => {
                    goals.kills_count = true;
                }
                VictoryCondition::ExitUnits { side, edge, .. } if *side == view.me => {
                    goals.exit = Some(*edge);
                }
                _ => {}
            }
        }
        goals
    }

    /// How far `c` is from what the side wants: the nearest wanted hex,
    /// the exit edge, else the nearest enemy.
    pub fn distance(&self, c: Coord) -> u32 {
        if let Some(edge) = self.exit {
            return edge_distance(c, edge, 255, 255).min(64);
        }
        let near = |v: &[Coord]| v.iter().map(|h| h.distance(c)).min();
        near(&self.wanted)
            .or_else(|| near(&self.hexes))
            .or_else(|| near(&self.enemies))
            .unwrap_or(0)
    }
}

/// The enemy fire a unit of mine in `c` could draw: every enemy unit that
/// may still fire this turn counts in full, a Used one less (it fires
/// again next turn); `all` counts Used ones in full.
pub fn danger_at(bot: &mut Bot, view: &View, c: Coord, all: bool) -> f32 {
    remembered(bot, view, (c, u8::from(all)), |bot| {
        reckon_danger(bot, view, c, all)
    })
}

/// A hex's danger or exposure, remembered while the enemy's units stand as
/// they are (`View::enemy_key`).
pub(super) fn remembered(
    bot: &mut Bot,
    view: &View,
    key: (Coord, u8),
    reckon: impl FnOnce(&mut Bot) -> f32,
) -> f32 {
    if bot.danger.0 != view.enemy_key {
        bot.danger = (view.enemy_key, FastMap::default());
    }
    if let Some(d) = bot.danger.1.get(&key) {
        return *d;
    }
    let d = reckon(bot);
    bot.danger.1.insert(key, d);
    d
}

fn reckon_danger(bot: &mut Bot, view: &View, c: Coord, all: bool) -> f32 {
    danger_with(bot, view, c, all, None)
}

/// [`danger_at`] reckoned afresh, with one more Smoke counter `extra` on
/// the board than there is (R 48.0), for valuing Smoke.
pub(super) fn danger_with(
    bot: &mut Bot,
    view: &View,
    c: Coord,
    all: bool,
    extra: Option<(Coord, SmokeSide)>,
) -> f32 {
    let mut d = 0.0;
    for e in view.enemies() {
        if e.in_cave || e.is_decoy() {
            continue;
        }
        let weight = if e.kind.is_none() { view.p_real } else { 1.0 }
            * if e.used && !all { 0.35 } else { 1.0 };
        d += weight * enemy_attack(bot, view, e, c, FireKind::Normal, None, extra);
    }
    d
}

/// One attack of the enemy `e` at a unit of mine in `c`: the remembered
/// [`threat`], or reckoned with the Smoke on its line when there is any
/// (R 48.0).
fn enemy_attack(
    bot: &mut Bot,
    view: &View,
    e: &Piece,
    c: Coord,
    kind: FireKind,
    moving: Option<bool>,
    extra: Option<(Coord, SmokeSide)>,
) -> f32 {
    let t = e.reckoned(&view.typical_enemy);
    if let Some(v) =
        super::smoke::smoked_attack(bot, view, (t, e.reduced), (e.at, c), kind, moving, extra)
    {
        return v;
    }
    threat(view, &mut bot.los, t, e.reduced, e.at, c, kind, moving)
}

/// The Op Fire a unit moving into `c` may draw (R 9.0, R 10.0).
pub(super) fn exposure(bot: &mut Bot, view: &View, c: Coord) -> f32 {
    remembered(bot, view, (c, 2), |bot| exposure_with(bot, view, c, None))
}

/// [`exposure`] reckoned afresh, with one more Smoke counter `extra` on
/// the board than there is (R 48.0), for valuing Smoke.
pub(super) fn exposure_with(
    bot: &mut Bot,
    view: &View,
    c: Coord,
    extra: Option<(Coord, SmokeSide)>,
) -> f32 {
    let open = !view.beneficial(c);
    let mut d = 0.0;
    for e in view.enemies() {
        if e.in_cave || e.is_decoy() {
            continue;
        }
        let kind = if e.used {
            if e.at.distance(c) > 1 {
                continue;
            }
            FireKind::FinalOpFire
        } else {
            FireKind::OpFire
        };
        let weight = if e.kind.is_none() { view.p_real } else { 1.0 };
        d += weight * enemy_attack(bot, view, e, c, kind, Some(open), extra);
    }
    d
}

/// The worth of `firer` attacking the location `at` (R 6.0, R 6.2): the
/// MC to fire, then the exact chances against each unit there. A unit
/// under an enemy Conceal counter is reckoned as the typical enemy, real
/// with the chance `view.p_real` (R 15.0).
pub fn attack_value(
    bot: &mut Bot,
    world: &mut World,
    view: &View,
    firer: Entity,
    at: Coord,
    kind: FireKind,
    mover: Option<Entity>,
) -> f32 {
    attack_worth(
        bot,
        world,
        view,
        Attack {
            firer,
            at,
            kind,
            mover,
            extras: AttackExtras::default(),
            recon: 0.0,
        },
    )
}

/// One attack to value: the firer, the target hex, the kind of fire, the
/// moving target (Op Fire), CP extras, and the worth of stripping an
/// unknown Conceal counter per chance of effect (reconnaissance by fire).
pub struct Attack {
    pub firer: Entity,
    pub at: Coord,
    pub kind: FireKind,
    pub mover: Option<Entity>,
    pub extras: AttackExtras,
    pub recon: f32,
}

/// [`attack_value`] with CP extras and reconnaissance by fire.
pub fn attack_worth(bot: &mut Bot, world: &mut World, view: &View, a: Attack) -> f32 {
    let Attack {
        firer,
        at,
        kind,
        mover,
        extras,
        recon,
    } = a;
    let Some(from) = view.pieces.iter().find(|p| p.entity == firer).map(|p| p.at) else {
        return 0.0;
    };
    let Some(hindrances) = bot.los.sight(&view.board, &view.aid, from, at) else {
        return 0.0;
    };
    let Some((_, morale)) = morale_to_act(world, firer) else {
        return 0.0;
    };
    let mc = morale_check(&view.aid, morale, false).p();
    let sight = Sight {
        hindrances,
        smoke: super::smoke::touched(view, from, at),
        ..Default::default()
    };
    // A Gun's shot needs its Prof Check first (R 20.4).
    let prof = crate::engine::gun::prospective_prof(world, firer, at, kind, &sight)
        .map_or(1.0, |c| f32::from(c.target.clamp(0, 10) as u8) / 10.0);
    let Some(plan) = plan_attack(world, firer, at, kind, &sight, mover, extras) else {
        return 0.0;
    };
    let mut value = 0.0;
    for t in &plan.targets {
        let Some(p) = view.pieces.iter().find(|p| p.entity == t.entity) else {
            continue;
        };
        let (casualty, weight) = match &p.kind {
            None => (view.typical_enemy.full.casualty, view.p_real),
            Some(k) if k.class == UnitClass::Decoy => (t.casualty, 0.0),
            Some(_) => (t.casualty, 1.0),
        };
        let o = fire_odds(
            &view.aid,
            t.breakdown.total,
            OddsTarget {
                casualty,
                suppression: SuppressionLevel::from(t.suppression),
            },
            t.breakdown.within_normal_range,
            t.breakdown.adjacent,
        );
        value += weight * odds_value(&o);
        if p.kind.is_none() {
            value += recon * (o.p_eliminated() + o.p_reduced() + o.p_suppressed());
        }
    }
    mc * prof * value
}

/// The MPs a unit of mine has for a move now: its own, Follow Me! (R 5.4)
/// and a Banzai Charge (R 59.6), as the engine's move check counts them.
pub fn allowance(world: &World, u: &Piece) -> crate::rules::Mp {
    crate::rules::Mp::whole(u16::from(u.kind.as_ref().map_or(0, |k| k.mp)))
        + crate::engine::command_points::mp_bonus(world, u.entity)
        + crate::engine::banzai::mp_bonus(world, u.entity)
}

fn max_range(p: &Piece, view: &View) -> u32 {
    let k = p.reckoned(&view.typical_mine);
    let side = if p.reduced { k.reduced } else { k.full };
    u32::from(match side.range {
        FireRange::Normal(r) => r * 2,
        FireRange::Band(_, b) => b,
        FireRange::AtLeast(a) => a.max(12),
        FireRange::None => 0,
    })
}

/// The order the bot gives in its Ops Range.
pub fn operations(bot: &mut Bot, world: &mut World, view: &View) -> Order {
    let j = bot.level.judgement();
    let goals = Goals::of(world, view);
    let facing_rule = crate::engine::fire::facing_in_use(world);
    let mut candidates: Vec<(f32, Cand)> = Vec::new();
    let mut reaches: Vec<Reaches> = Vec::new();
    let mut follow_me: Vec<usize> = Vec::new();
    let wire = wire_hexes(world);
    let enemy_key = {
        use std::hash::{Hash, Hasher};
        let mut h = super::view::FastHasher::default();
        for e in view.enemies() {
            (e.at, e.in_cave).hash(&mut h);
        }
        wire.hash(&mut h);
        h.finish()
    };
    let ready: Vec<Piece> = view
        .mine()
        .filter(|p| !p.used && !p.op_fire)
        .cloned()
        .collect();
    let all_enemy_hexes: Vec<Coord> = view.enemies().map(|p| p.at).collect();
    let enemy_hexes: Vec<Coord> = {
        let mut v: Vec<Coord> = view
            .enemies()
            .filter(|p| !p.in_cave)
            .map(|p| p.at)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let cave_hexes: Vec<Coord> = {
        let mut v: Vec<Coord> = view.enemies().filter(|p| p.in_cave).map(|p| p.at).collect();
        v.sort();
        v.dedup();
        v
    };
    // The clock (R 18.0): the side that must take hexes presses harder,
    // minding fire less, as the last turn comes.
    let urgency = world
        .get_resource::<crate::world::TurnTrack>()
        .map_or(0.0, |t| {
            f32::from(t.turn.saturating_sub(1)) / f32::from(t.last_turn.max(2) - 1)
        });
    let attacker = goals.attacker;
    let doctrine = Doctrine::of(world, view, j.doctrine);
    // The attacker presses (progress counts double) unless its doctrine is
    // the careful Pacific advance; fire at the hexes it must take, which
    // clears the way in, counts three times.
    let press = if attacker && !doctrine.careful {
        ATTACK_PRESS
    } else {
        1.0
    };
    let (progress_w, danger_w) = if attacker {
        (
            press * j.progress * (1.0 + urgency),
            j.danger * (1.0 - 0.6 * urgency),
        )
    } else {
        (j.progress, j.danger)
    };
    let fire_wanted = if attacker { FIRE_AT_WANTED } else { 1.0 };
    let take_bonus = if attacker { 1.0 + urgency } else { 1.0 };
    let recon = doctrine.recon();
    for u in &ready {
        if u.is_decoy() || u.in_cave {
            // Decoys and Cave units keep still (a Decoy that fires or is
            // fired on is gone, R 15.0).
            candidates.push((0.0, Cand::Order(Order::MarkUsed { unit: u.id.clone() })));
            // A Squad bound to a Banzai Charge may only charge or be marked
            // Op Fire (R 59.6).
            candidates.push((0.0, Cand::Order(op_fire_fallback(u.id.clone()))));
            continue;
        }
        if crate::engine::banzai::charging(world, u.entity) {
            // The scenario calls the Banzai (R 59.6): charge by the rule's
            // path; the Op Fire mark is the only other choice.
            if let Some(order) = banzai_charge(world, view, u, &wire) {
                candidates.push((1.0, Cand::Order(order)));
            }
            candidates.push((0.0, Cand::Order(op_fire_fallback(u.id.clone()))));
            continue;
        }
        let in_melee = view.count_at(view.me.other(), u.at) > 0;
        // A Gun's facings, by the Op Fire each would hold (R 20.4).
        let gun = super::guns::plan(bot, world, view, &goals, u);
        // Fire at each enemy location in range and LOS (R 6.0).
        let reach = max_range(u, view);
        let mut best_fire: f32 = 0.0;
        for &h in &enemy_hexes {
            if in_melee
                || h.distance(u.at) > reach
                || view.count_at(view.me, h) > 0
                || !crate::engine::night::sees(world, u.at, h)
            {
                continue;
            }
            let mut v = attack_worth(
                bot,
                world,
                view,
                Attack {
                    firer: u.entity,
                    at: h,
                    kind: FireKind::Normal,
                    mover: None,
                    extras: AttackExtras::default(),
                    recon,
                },
            );
            if goals.kills_count {
                v *= 1.4;
            }
            if goals.wanted.contains(&h) {
                v *= fire_wanted;
            }
            let Some(mut v) = doctrine.fire(view, u, h, v) else {
                continue;
            };
            if u.concealed {
                // Firing gives the Conceal counter away (R 15.0).
                v -= 0.03;
            }
            best_fire = best_fire.max(v);
            // A Gun does not spend its fire on a shot worth less than
            // waiting on Op Fire; out of its arc it turns to the facing
            // that covers best (R 20.4).
            if gun.as_ref().is_some_and(|g| v <= g.cover()) {
                continue;
            }
            if v > 0.0 {
                candidates.push((
                    v,
                    Cand::Order(Order::Fire {
                        unit: u.id.clone(),
                        target: h.label(),
                        facing: gun.as_ref().and_then(|g| g.fire_facing(h)),
                    }),
                ));
            }
        }
        // Into a Cave, from or through its front hexes only (R 43.4): the
        // way to empty a Cave hex the side must take.
        for &h in &cave_hexes {
            if in_melee || h.distance(u.at) > reach || !crate::engine::night::sees(world, u.at, h) {
                continue;
            }
            let order = Order::Fire {
                unit: u.id.clone(),
                target: format!("{}/cave", h.label()),
                facing: None,
            };
            if check(world, &order).is_err() {
                continue;
            }
            crate::world::mark_attack(world, u.entity, |a| a.into_cave = true);
            let mut v = attack_value(bot, world, view, u.entity, h, FireKind::Normal, None);
            crate::world::mark_attack(world, u.entity, |a| a.into_cave = false);
            if goals.kills_count {
                v *= 1.4;
            }
            if goals.wanted.contains(&h) {
                v *= fire_wanted;
            }
            if u.concealed {
                v -= 0.03;
            }
            best_fire = best_fire.max(v);
            if v > 0.0 {
                candidates.push((v, Cand::Order(order)));
            }
        }
        // Smoke before the movers cross (R 48.0, R 59.3; Mortar by SSR).
        if let Some((v, order)) = super::smoke::place_smoke(bot, world, view, &goals, u) {
            candidates.push((v, Cand::Order(order)));
        }
        // At Night a removed Decoy brought back by an idle Concealed unit
        // (R 50.3).
        if let Some((v, order)) =
            super::night::regenerate_decoy(world, view, u, best_fire, doctrine.weight)
        {
            candidates.push((v, Cand::Order(order)));
        }
        // Marking Op Fire: worth the attacks it threatens (R 4.3, R 9.0).
        let threatened: Vec<Coord> = view
            .enemies()
            .filter(|e| !e.used && !e.in_cave && e.at.distance(u.at) <= reach)
            .filter(|e| bot.los.sight(&view.board, &view.aid, u.at, e.at).is_some())
            .map(|e| e.at)
            .collect();
        if !threatened.is_empty() && !in_melee {
            let mut v =
                0.06 * threatened.len().min(3) as f32 + 0.3 * best_fire + doctrine.mark_op_fire(u);
            let facing = if let Some(g) = &gun {
                // A Gun covers the enemy's way in (R 4.3, R 20.4): worth
                // the exact odds of its Op Fire when any enemy steps into
                // its arc.
                if g.cover() > 0.0 {
                    v = g.cover();
                }
                g.mark_facing()
            } else if facing_rule {
                let nearest = threatened
                    .iter()
                    .min_by_key(|c| (c.distance(u.at), **c))
                    .copied();
                let keep = world.get::<Facing>(u.entity).map(|f| f.0);
                nearest.map(|n| {
                    keep.filter(|k| crate::rules::facing::in_front(u.at, *k, n))
                        .unwrap_or_else(|| crate::rules::facing::facing_toward(u.at, n))
                })
            } else {
                None
            };
            candidates.push((
                v,
                Cand::Order(Order::MarkOpFire {
                    unit: u.id.clone(),
                    facing,
                }),
            ));
        }
        candidates.push((0.0, Cand::Order(Order::MarkUsed { unit: u.id.clone() })));
        candidates.push((0.0, Cand::Order(op_fire_fallback(u.id.clone()))));
        // Moves (R 5.0).
        let here_danger = danger_at(bot, view, u.at, false);
        let holding = goals.hexes.contains(&u.at)
            && view
                .mine()
                .filter(|p| p.at == u.at && !p.is_decoy())
                .count()
                == 1;
        let start_dist = goals.distance(u.at) as f32;
        // A unit's reach changes only when it or an enemy unit moves.
        if bot.reach.len() > 4096 {
            bot.reach.clear();
        }
        let allowance = allowance(world, u);
        let bounds = Bounds {
            night: crate::engine::night::mp_minimum(world, u.entity).is_some(),
            wire: &wire,
        };
        let reach_map = match bot.reach.get(&(u.entity, u.at, enemy_key, allowance.0)) {
            Some(r) => r.clone(),
            None => {
                let r = std::sync::Arc::new(match bot.los.memo() {
                    Some(m) => reach_from(m, u.at, allowance, &all_enemy_hexes, bounds),
                    None => FastMap::default(),
                });
                bot.reach
                    .insert((u.entity, u.at, enemy_key, allowance.0), r.clone());
                r
            }
        };
        reaches.push((u.id.clone(), reach_map.clone()));
        let unit_index = reaches.len() - 1;
        let fully_suppressed = u.suppression == SuppressionLevel::Full;
        // An "S" Squad not in an enemy's hex may declare Seishin for a move
        // into one (R 59.5); its +1 MP reaches enemy hexes a step farther.
        let seishin_ok = u.kind.as_ref().is_some_and(|k| k.seishin)
            && !in_melee
            && !crate::engine::banzai::charging(world, u.entity)
            && doctrine.weight > 0.0;
        // In map order, so equal values keep one order from run to run.
        let mut hexes: Vec<(Coord, usize)> = reach_map.keys().map(|c| (*c, unit_index)).collect();
        hexes.sort();
        // Follow Me! (R 5.4): the hexes one more MP reaches, when they are
        // an objective or cover.
        let more_ground = Farther {
            key: (u.entity, u.at, enemy_key),
            stops: &all_enemy_hexes,
            bounds,
            near: &reach_map,
        };
        if j.tactical_cp
            && crate::engine::command_points::mp_bonus(world, u.entity).0 == 0
            && crate::engine::command_points::check(world, u.entity).is_ok()
            && let Some((far, extra)) = more_ground.reach(
                bot,
                allowance + Mp::whole(u16::from(view.aid.constants.follow_me_mp)),
                |c| goals.wanted.contains(&c) || view.beneficial(c),
            )
        {
            reaches.push((u.id.clone(), far));
            follow_me.push(reaches.len() - 1);
            let i = reaches.len() - 1;
            hexes.extend(extra.into_iter().map(|c| (c, i)));
        }
        if seishin_ok
            && let Some((far, extra)) =
                more_ground.reach(bot, allowance + crate::engine::seishin::mp(world), |c| {
                    view.count_at(view.me.other(), c) > 0
                })
        {
            reaches.push((u.id.clone(), far));
            let i = reaches.len() - 1;
            hexes.extend(extra.into_iter().map(|c| (c, i)));
        }
        let mut path_exposure: FastMap<(Coord, usize), f32> = FastMap::default();
        for (to, map_index) in hexes {
            if to == u.at {
                continue;
            }
            let enemies_there = view.count_at(view.me.other(), to);
            if fully_suppressed && !view.beneficial(to) {
                continue;
            }
            let mut v = progress_w * (start_dist - goals.distance(to) as f32);
            if holding {
                v -= take_bonus;
            }
            if goals.wanted.contains(&to) {
                v += if enemies_there == 0 {
                    take_bonus
                } else {
                    0.5 * take_bonus
                };
            } else if goals.hexes.contains(&to) && view.count_at(view.me, to) == 0 {
                v += 0.5;
            }
            if enemies_there > 0 {
                // Into Melee (R 12.0): worth it only with the odds.
                let mine_there = view.count_at(view.me, to) + 1;
                v += 0.25 * mine_there as f32 - 0.35 * enemies_there as f32;
                if u.reduced || u.suppression != SuppressionLevel::None {
                    v -= 0.5;
                }
            }
            let end_danger = danger_at(bot, view, to, false);
            v -= danger_w * (end_danger - here_danger);
            let exp = along(
                bot,
                view,
                &reaches[map_index].1,
                to,
                map_index,
                &mut path_exposure,
            );
            v -= j.path_danger * exp;
            if follow_me.contains(&map_index) {
                v -= CP_COST;
            }
            if !view.beneficial(to) {
                v -= 0.02;
            }
            v += doctrine.move_worth(bot, world, view, u, to);
            // Into Melee an "S" Squad declares Seishin: +2 Melee FP, +1
            // Morale for the rest of the Operations Phase (R 59.5).
            let seishin = enemies_there > 0 && seishin_ok;
            if seishin {
                v += SEISHIN * doctrine.weight;
            }
            candidates.push((
                v,
                Cand::Move {
                    unit: map_index,
                    to,
                    seishin,
                },
            ));
        }
    }
    // At Night an Illumination counter over the enemy in the dark (R 50.1).
    if let Some((v, order)) = super::night::illumination(bot, world, view) {
        candidates.push((v, Cand::Order(order)));
    }
    choose(
        bot,
        world,
        view,
        Choice {
            candidates,
            reaches,
            follow_me,
        },
        j,
    )
}

/// How much more an attacker's progress counts (measured on training,
/// bot against bot: Allied wins 0% -> about 30%, `docs/balance.md`).
const ATTACK_PRESS: f32 = 2.0;
/// How much more an attacker values fire at the victory hexes it must take.
const FIRE_AT_WANTED: f32 = 3.0;

/// What declaring Seishin adds to a move into Melee: +2 Melee FP and +1
/// Morale for the Operations Phase (R 59.5).
const SEISHIN: f32 = 0.3;

/// The chance an enemy unit that may still move steps where the bot's
/// Smoke or a Gun's Op Fire waits for it this turn (and a unit of mine
/// crosses where its Smoke falls): a counter placed or an Op Fire mark
/// made now pays only if the move comes.
pub(super) const MOVE_CHANCE: f32 = 0.5;

/// What a CP is worth to the bot when spent in the Operations Phase (it
/// could re-roll a Rout MC later in the turn instead).
const CP_COST: f32 = 0.12;
/// The least worth of an action before the bot readies an MC re-roll for
/// it (R 3.0 #1: spent only if the MC fails).
const REROLL_WORTH: f32 = 0.25;

/// A unit's reach with more MPs than its own (Follow Me! R 5.4, Seishin
/// R 59.5): the key of its reach maps (unit, hex, enemy positions), the
/// enemy hexes it stops in, its bounds and the reach it has without them.
struct Farther<'a> {
    key: (Entity, Coord, u64),
    stops: &'a [Coord],
    bounds: Bounds<'a>,
    near: &'a FastMap<Coord, Reached>,
}

impl Farther<'_> {
    /// The reach map with `more` MPs and, in map order, the hexes only it
    /// reaches that `keep` wants; `None` when there are none.
    fn reach(
        &self,
        bot: &mut Bot,
        more: Mp,
        keep: impl Fn(Coord) -> bool,
    ) -> Option<(ReachMap, Vec<Coord>)> {
        let m = bot.los.memo()?;
        let (entity, at, enemy_key) = self.key;
        let far = bot
            .reach
            .entry((entity, at, enemy_key, more.0))
            .or_insert_with(|| {
                std::sync::Arc::new(reach_from(m, at, more, self.stops, self.bounds))
            })
            .clone();
        let mut extra: Vec<Coord> = far
            .keys()
            .copied()
            .filter(|c| !self.near.contains_key(c) && keep(*c))
            .collect();
        extra.sort();
        (!extra.is_empty()).then_some((far, extra))
    }
}

/// A candidate order; a move's path is spelled out only when it is
/// checked.
enum Cand {
    Order(Order),
    Move {
        unit: usize,
        to: Coord,
        seishin: bool,
    },
}

/// A unit's reach map, shared with the bot's memo.
type ReachMap = std::sync::Arc<FastMap<Coord, Reached>>;

/// A unit's id and its reach map.
type Reaches = (String, ReachMap);

impl Cand {
    fn order(&self, reaches: &[Reaches]) -> Order {
        match self {
            Cand::Order(o) => o.clone(),
            Cand::Move { unit, to, seishin } => {
                let mut order = Order::plain_move(
                    reaches[*unit].0.clone(),
                    path_to(&reaches[*unit].1, *to)
                        .iter()
                        .map(|c| c.label())
                        .collect(),
                );
                if let Order::Move { seishin: s, .. } = &mut order {
                    *s = *seishin;
                }
                order
            }
        }
    }
}

/// The Op Fire met along the path into `to` (R 9.0), summed hex by hex
/// over the reach tree.
fn along(
    bot: &mut Bot,
    view: &View,
    reach: &FastMap<Coord, Reached>,
    to: Coord,
    map: usize,
    memo: &mut FastMap<(Coord, usize), f32>,
) -> f32 {
    let mut chain = Vec::new();
    let mut at = to;
    let mut base = 0.0;
    while let Some(r) = reach.get(&at) {
        if let Some(m) = memo.get(&(at, map)) {
            base = *m;
            break;
        }
        let Some(prev) = r.prev else {
            break;
        };
        chain.push(at);
        at = prev;
        if chain.len() > reach.len() {
            break;
        }
    }
    for c in chain.into_iter().rev() {
        base += exposure(bot, view, c);
        memo.insert((c, map), base);
    }
    base
}

/// The best candidate the engine accepts, a lesser one now and then by the
/// level's design; a Pass when nothing is worth a Use and passing is
/// allowed (R 4.1).
fn choose(bot: &mut Bot, world: &mut World, view: &View, c: Choice, j: super::Judgement) -> Order {
    let Choice {
        candidates,
        reaches,
        follow_me,
    } = c;
    // Best first; equal values keep the order they were built in.
    let mut order: Vec<(f32, u32)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| (c.0, i as u32))
        .collect();
    order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let pass_ok = check(world, &Order::Pass).is_ok();
    let best = order.first().map_or(0.0, |c| c.0);
    if pass_ok && best < j.pass_bar {
        return Order::Pass;
    }
    let mut start = 0;
    if j.mistake > 0.0 && (bot.rng.below(1000) as f32) < j.mistake * 1000.0 {
        start = bot.rng.below(j.mistake_among.min(order.len()).max(1));
    }
    for (value, i) in order.iter().skip(start).chain(order.iter()) {
        let cand = &candidates[*i as usize].1;
        let order = cand.order(&reaches);
        if let Cand::Move { unit, .. } = cand
            && follow_me.contains(unit)
        {
            // Follow Me! first (R 5.4), then this move.
            let Some(p) = view.mine().find(|p| p.id == reaches[*unit].0) else {
                continue;
            };
            if let Some(cp) = super::cp::ready(world, p.entity, &p.id, CpFunction::FollowMe) {
                bot.next = Some(order);
                return cp;
            }
            continue;
        }
        if check(world, &order).is_ok() {
            // Smoke on the way first (R 48.0), or a Smoke Grenade thrown
            // on it (R 48.1).
            if let Some(smoke) = super::smoke::before_move(bot, world, view, &order) {
                return smoke;
            }
            let order = super::smoke::with_grenade(bot, world, view, &order).unwrap_or(order);
            if j.tactical_cp
                && *value >= REROLL_WORTH
                && let Some(cp) = reroll_first(world, view, &order)
            {
                bot.next = Some(order);
                return cp;
            }
            return order;
        }
    }
    Order::Pass
}

/// The candidates of one decision, with the reach maps their moves follow
/// (those in `follow_me` need Follow Me!).
struct Choice {
    candidates: Vec<(f32, Cand)>,
    reaches: Vec<Reaches>,
    follow_me: Vec<usize>,
}

/// A CP readied to re-roll the MC of a unit about to fire or move, when it
/// might fail it (R 3.0 #1, R 7.1).
fn reroll_first(world: &mut World, view: &View, order: &Order) -> Option<Order> {
    let (Order::Fire { unit, .. } | Order::Move { unit, .. }) = order else {
        return None;
    };
    let p = view.mine().find(|p| &p.id == unit)?;
    let (_, morale) = morale_to_act(world, p.entity)?;
    if morale_check(&view.aid, morale, false).p() >= 0.95 {
        return None;
    }
    super::cp::ready(world, p.entity, unit, CpFunction::Reroll)
}

/// The Wire hexes on the board (R 43.6), in map order.
pub fn wire_hexes(world: &mut World) -> Vec<Coord> {
    let mut q = world.query::<(&crate::world::FortificationCounter, &crate::world::Location)>();
    let mut v: Vec<Coord> = q
        .iter(world)
        .filter(|(f, l)| f.kind == crate::scenario::schema::FortificationKind::Wire && !l.in_cave)
        .map(|(_, l)| l.coord)
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The last resort of a unit the rules leave no other Use: marked Op Fire
/// (a Squad in a Banzai Charge, R 59.6, when no charge path is found).
fn op_fire_fallback(unit: String) -> Order {
    Order::MarkOpFire { unit, facing: None }
}
