//! The bot's Smoke (R 48.0-48.2, R 59.3): a fire attack that comes out of,
//! crosses or goes into a Smoke hex loses the moving-in-Open-Ground bonus,
//! and -1 FP more when the Smoke is not Dispersed (R 48.0). The bot values
//! a counter by the exact odds of the enemy fire it takes off its units:
//! the Op Fire its movers would draw crossing Open Ground, and the fire a
//! Suppressed unit in the open takes where it stands. It places Smoke with
//! a GD Squad (R 59.3) or a Mortar WT given Smoke rounds (SSR) before its
//! movers go, and a moving Squad throws a Smoke Grenade (R 48.1) into the
//! Open Ground hex of its path where it cuts the most Op Fire.

use bevy::prelude::*;

use crate::engine::Order;
use crate::engine::operations::check;
use crate::engine::orders::SmokeGrenade;
use crate::rules::fire::{FireKind, Smoke};
use crate::rules::los::{LosQuery, line_of_sight};
use crate::rules::smoke::{SmokeSide, after_placing, on_line};
use crate::scenario::Coord;
use crate::scenario::roster::{UnitClass, UnitType};
use crate::scenario::schema::Side6;

use super::Bot;
use super::ops::{Goals, MOVE_CHANCE, danger_at, danger_with, exposure, exposure_with};
use super::view::{Piece, View, attack_on};

/// The least Op Fire a Smoke Grenade must take off a move (in enemy units
/// eliminated) to be thrown: it costs the MP of entering the hex again.
const GRENADE_BAR: f32 = 0.02;
/// The least Op Fire Smoke placed before a move must take off the mover's
/// path to be worth a Use of the unit placing it.
const SMOKE_BAR: f32 = 0.04;

/// The Smoke counters on the board with `extra` placed too (R 48.0: one a
/// hex; Smoke placed on Dispersed Smoke flips it).
fn counters(view: &View, extra: Option<(Coord, SmokeSide)>) -> Vec<(Coord, SmokeSide)> {
    let mut v = view.smoke.clone();
    if let Some((at, side)) = extra {
        match v.iter_mut().find(|c| c.0 == at) {
            Some(c) => c.1 = after_placing(Some(c.1), side),
            None => v.push((at, side)),
        }
    }
    v
}

/// The Smoke a fire from `line.0` at `line.1` is impacted by (R 48.0): the
/// worst counter it comes out of, crosses (hexsides and vertices too) or
/// goes into.
fn on_the_line(view: &View, counters: &[(Coord, SmokeSide)], line: (Coord, Coord)) -> Smoke {
    let (from, to) = line;
    let between: Vec<Coord> = counters
        .iter()
        .filter(|c| c.0 != from && c.0 != to)
        .map(|c| c.0)
        .collect();
    let crossed: Vec<Coord> = if between.is_empty() {
        Vec::new()
    } else {
        let q = LosQuery {
            smoke: between,
            ..LosQuery::new(from, to)
        };
        line_of_sight(&view.board, &view.aid, &q)
            .sight()
            .map(|s| s.smoke.clone())
            .unwrap_or_default()
    };
    on_line(
        counters
            .iter()
            .filter(|c| c.0 == from || c.0 == to || crossed.contains(&c.0))
            .map(|c| c.1),
    )
}

/// The Smoke hexes a fire from `from` at `to` touches (R 48.0), for the
/// attack plan's sight.
pub fn touched(view: &View, from: Coord, to: Coord) -> Vec<Coord> {
    view.smoke
        .iter()
        .filter(|c| on_the_line(view, &[**c], (from, to)) != Smoke::None)
        .map(|c| c.0)
        .collect()
}

/// One enemy attack from `line.0` at a unit of mine in `line.1` by a unit
/// of type `firer.0` (Reduced: `firer.1`), when Smoke on the board (and
/// `extra`) impacts it; `None` when no Smoke does, for the remembered
/// threat to count instead.
pub fn smoked_attack(
    bot: &mut Bot,
    view: &View,
    firer: (&UnitType, bool),
    line: (Coord, Coord),
    kind: FireKind,
    moving: Option<bool>,
    extra: Option<(Coord, SmokeSide)>,
) -> Option<f32> {
    if view.smoke.is_empty() && extra.is_none() || line.0 == line.1 {
        return None;
    }
    let smoke = on_the_line(view, &counters(view, extra), line);
    if smoke == Smoke::None {
        return None;
    }
    let Some(hindrances) = bot.los.sight(&view.board, &view.aid, line.0, line.1) else {
        return Some(0.0);
    };
    Some(attack_on(
        view,
        firer.0,
        firer.1,
        line,
        kind,
        moving,
        (hindrances, smoke),
    ))
}

/// The move `order` with a Smoke Grenade (R 48.1), when its side has them,
/// its unit is a Squad, and Dispersed Smoke in one Open Ground hex of the
/// path takes at least [`GRENADE_BAR`] of Op Fire off the mover there (no
/// moving-in-Open bonus, R 48.0). It is thrown from the hex before, into
/// the hex it protects, paying that hex's MP again; the best such move
/// the engine accepts, or `None`.
pub fn with_grenade(bot: &mut Bot, world: &mut World, view: &View, order: &Order) -> Option<Order> {
    let Order::Move {
        unit,
        path,
        smoke_grenade: None,
        ..
    } = order
    else {
        return None;
    };
    if !crate::engine::smoke::smoke_rules(world)
        .grenades
        .contains(&view.me)
    {
        return None;
    }
    let p = view.mine().find(|p| &p.id == unit)?;
    if p.kind.as_ref().map(|k| k.class) != Some(UnitClass::Squad) {
        return None;
    }
    let mut gains: Vec<(f32, usize, Coord)> = Vec::new();
    for (k, label) in path.iter().enumerate() {
        let Ok(c) = Coord::parse(label, view.board.columns, view.board.rows) else {
            continue;
        };
        if view.beneficial(c) || view.count_at(view.me.other(), c) > 0 {
            continue;
        }
        let before = exposure(bot, view, c);
        if before <= 0.0 {
            continue;
        }
        let after = exposure_with(bot, view, c, Some((c, SmokeSide::Dispersed)));
        gains.push((before - after, k, c));
    }
    gains.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for (gain, k, c) in gains {
        if gain < GRENADE_BAR {
            break;
        }
        let mut o = order.clone();
        if let Order::Move { smoke_grenade, .. } = &mut o {
            *smoke_grenade = Some(SmokeGrenade {
                after: k,
                at: c.label(),
            });
        }
        if check(world, &o).is_ok() {
            return Some(o);
        }
    }
    None
}

/// Smoke placed first for the move `order` (R 48.0, R 59.3; Mortar by
/// SSR), when another unit of mine can place it and the Ops Range has
/// room for both (R 4.1): into the hex, the enemy's own or one of the
/// path's, where it takes the most Op Fire off the mover along the whole
/// path, at least [`SMOKE_BAR`] (times the Mortar's MC to fire). `None`
/// when no Smoke pays.
pub fn before_move(bot: &mut Bot, world: &mut World, view: &View, order: &Order) -> Option<Order> {
    let Order::Move { unit, path, .. } = order else {
        return None;
    };
    if !has_smoke(world, view) {
        return None;
    }
    let tally = world
        .get_resource::<crate::engine::operations::OpsState>()?
        .tally;
    if tally.used + 2 > tally.range.max {
        return None;
    }
    let placers: Vec<&Piece> = view
        .mine()
        .filter(|p| !p.used && !p.op_fire && &p.id != unit)
        .filter(|p| {
            p.kind
                .as_ref()
                .is_some_and(|k| matches!(k.class, UnitClass::GdSquad | UnitClass::MortarTeam))
        })
        .collect();
    if placers.is_empty() {
        return None;
    }
    let hexes: Vec<Coord> = path
        .iter()
        .filter_map(|l| Coord::parse(l, view.board.columns, view.board.rows).ok())
        .collect();
    let mut spots: Vec<Coord> = view
        .enemies()
        .filter(|e| !e.used && !e.in_cave && !e.is_decoy())
        .map(|e| e.at)
        .chain(hexes.iter().copied())
        .collect();
    spots.sort();
    spots.dedup();
    let before: f32 = hexes.iter().map(|c| exposure(bot, view, *c)).sum();
    let mut best: Option<(f32, Order)> = None;
    for p in placers {
        let (side, mc) = placed_by(world, view, p)?;
        for s in &spots {
            let after: f32 = hexes
                .iter()
                .map(|c| exposure_with(bot, view, *c, Some((*s, side))))
                .sum();
            keep_best(
                world,
                &mut best,
                mc * (before - after),
                SMOKE_BAR,
                &p.id,
                *s,
            );
        }
    }
    best.map(|b| b.1)
}

/// `unit` placing Smoke in `at` becomes `best` when it is worth more than
/// `bar` and `best`, and the engine accepts it.
fn keep_best(
    world: &mut World,
    best: &mut Option<(f32, Order)>,
    value: f32,
    bar: f32,
    unit: &str,
    at: Coord,
) {
    if value <= bar || best.as_ref().is_some_and(|b| value <= b.0) {
        return;
    }
    let o = Order::PlaceSmoke {
        unit: unit.to_string(),
        at: at.label(),
    };
    if check(world, &o).is_ok() {
        *best = Some((value, o));
    }
}

/// Whether the side has Smoke left to place: counters for the GD Squads
/// (R 59.3) or rounds for its Mortars (SSR).
fn has_smoke(world: &World, view: &View) -> bool {
    let (gd, mortar) = match world.get_resource::<crate::engine::smoke::SmokeSupply>() {
        Some(s) => (s.gd_left, s.mortar_left.clone()),
        None => {
            let r = crate::engine::smoke::smoke_rules(world);
            (r.gd_counters, r.mortar_rounds)
        }
    };
    gd > 0 || mortar.iter().any(|(s, n)| *s == view.me && *n > 0)
}

/// What `p` places and the chance it does (R 59.3: a GD Squad's Dispersed
/// Smoke; SSR: a Mortar's Smoke after its MC to fire, R 6.0).
fn placed_by(world: &World, view: &View, p: &Piece) -> Option<(SmokeSide, f32)> {
    match p.kind.as_ref()?.class {
        UnitClass::GdSquad => Some((SmokeSide::Dispersed, 1.0)),
        UnitClass::MortarTeam => Some((
            SmokeSide::Smoke,
            crate::engine::checks::morale_to_act(world, p.entity).map_or(0.0, |m| {
                crate::rules::odds::morale_check(&view.aid, m.1, false).p()
            }),
        )),
        _ => None,
    }
}

/// The hexes a unit of mine would enter across Open Ground this turn: the
/// open neighbours nearer its goal for the side that must take hexes, any
/// open neighbour for a Suppressed unit pulling back.
fn crossings(view: &View, goals: &Goals, m: &Piece) -> Vec<Coord> {
    let here = goals.distance(m.at);
    let withdrawing = m.suppression != crate::rules::fire::SuppressionLevel::None;
    Side6::ALL
        .iter()
        .filter_map(|s| view.board.neighbour(m.at, *s))
        .filter(|c| !view.beneficial(*c) && view.count_at(view.me.other(), *c) == 0)
        .filter(|c| withdrawing || goals.attacker && goals.distance(*c) < here)
        .collect()
}

/// Smoke placed by `u`, a GD Squad (Dispersed Smoke, R 59.3) or a Mortar
/// WT with Smoke rounds (Smoke, SSR), into the hex where it takes the most
/// enemy fire off the side's units: the enemy's own hex (every attack out
/// of it is impacted) or a hex its movers must cross. Worth, for each unit
/// of mine that may still act, the Op Fire it no longer draws crossing
/// its best hex, or for a Suppressed unit in the open the fire it no
/// longer takes where it stands, times [`MOVE_CHANCE`]. `None` when `u`
/// places no Smoke or nothing is gained.
pub fn place_smoke(
    bot: &mut Bot,
    world: &mut World,
    view: &View,
    goals: &Goals,
    u: &Piece,
) -> Option<(f32, Order)> {
    let (side, mc) = placed_by(world, view, u)?;
    if !has_smoke(world, view) {
        return None;
    }
    let movers: Vec<(Piece, Vec<Coord>)> = view
        .mine()
        .filter(|m| {
            !m.used
                && !m.op_fire
                && !m.is_decoy()
                && !m.in_cave
                && m.entity != u.entity
                && m.kind.as_ref().is_some_and(|k| k.mp > 0)
        })
        .map(|m| (m.clone(), crossings(view, goals, m)))
        .collect();
    let mut hexes: Vec<Coord> = view
        .enemies()
        .filter(|e| !e.used && !e.in_cave && !e.is_decoy())
        .map(|e| e.at)
        .chain(movers.iter().flat_map(|(_, c)| c.iter().copied()))
        .collect();
    hexes.sort();
    hexes.dedup();
    let mut best: Option<(f32, Order)> = None;
    for s in hexes {
        let extra = Some((s, side));
        let mut value = 0.0;
        for (m, cross) in &movers {
            let mut gain: f32 = 0.0;
            for c in cross {
                gain = gain.max(exposure(bot, view, *c) - exposure_with(bot, view, *c, extra));
            }
            let exposed = m.suppression != crate::rules::fire::SuppressionLevel::None
                && !view.beneficial(m.at);
            if exposed {
                gain = gain.max(
                    danger_at(bot, view, m.at, false) - danger_with(bot, view, m.at, false, extra),
                );
            }
            value += MOVE_CHANCE * mc * gain;
        }
        keep_best(world, &mut best, value, 0.0, &u.id, s);
    }
    best
}
