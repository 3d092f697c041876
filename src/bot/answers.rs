//! The bot's answers to the decisions the game waits for: Op Fire windows
//! (R 9.0, R 10.0), CP re-rolls (R 3.0), Rout destinations (R 11.0), the
//! order of Melees and the allocation of their casualties (R 12.0),
//! reinforcement entry hexes (R 18.0), Combat Event choices (R 17.0) and
//! the facing of a unit the enemy revealed (R 2.2).

use bevy::prelude::*;

use crate::engine::Order;
use crate::engine::decision::{Answer, Decision, PickKind};
use crate::engine::op_fire::{OpFireWindow, may_fire_at};
use crate::rules::fire::FireKind;
use crate::scenario::Coord;
use crate::scenario::roster::UnitClass;

use super::Bot;
use super::doctrine::Doctrine;
use crate::engine::command_points::CpFunction;

/// The least gain in worth (enemy units eliminated) for which a CP buys
/// +1 Prof FP on an Op Fire (R 3.0 #5).
const CP_PROF_GAIN: f32 = 0.06;
use super::ops::{Goals, attack_value, danger_at};
use super::view::View;

/// Who may fire in an Op Fire window and with what: units marked Op Fire
/// and Used units (Final Op Fire, R 10.0) fire whenever the attack is worth
/// anything; a unit not yet Used fires only for a good attack, since firing
/// Uses it (R 9.0). A CP to Final Op Fire beyond one hex (R 10.0) is spent
/// for one very good attack at most.
pub fn op_fire(
    bot: &mut Bot,
    world: &mut World,
    view: &View,
    w: &OpFireWindow,
    eligible: &[String],
) -> Order {
    let mut firers: Vec<(f32, String, Entity, FireKind)> = Vec::new();
    let mut cp_used = false;
    let j = bot.level.judgement();
    let doctrine = Doctrine::of(world, view, j.doctrine);
    for id in eligible {
        let Some(p) = view.pieces.iter().find(|p| p.id == **id) else {
            continue;
        };
        let Ok(plan) = may_fire_at(world, p.entity, w.at, None) else {
            continue;
        };
        let value = attack_value(bot, world, view, p.entity, w.at, plan.kind, Some(w.mover));
        let bar = if plan.cp_range {
            0.35
        } else if p.op_fire || plan.kind == FireKind::FinalOpFire {
            0.02
        } else {
            // Firing spends the unit's action for the turn.
            0.12 + j.pass_bar
        };
        let bar = doctrine.op_fire_bar(view, p, w.at, bar);
        if value < bar || (plan.cp_range && cp_used) {
            continue;
        }
        cp_used |= plan.cp_range;
        firers.push((value, id.to_string(), p.entity, plan.kind));
    }
    firers.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let best = firers.first().map(|f| (f.1.clone(), f.2, f.3, f.0));
    let order = Order::OpFire {
        firers: firers.into_iter().map(|(_, id, _, _)| id).collect(),
        facing: Default::default(),
    };
    if crate::engine::operations::check(world, &order).is_ok() {
        // +1 Prof FP on the best firer when it changes the odds (R 3.0 #5).
        if j.tactical_cp
            && let Some((id, entity, kind, value)) = best
        {
            let raised = super::ops::attack_worth(
                bot,
                world,
                view,
                super::ops::Attack {
                    firer: entity,
                    at: w.at,
                    kind,
                    mover: Some(w.mover),
                    extras: crate::engine::fire::AttackExtras {
                        cp_prof_bonus: true,
                        ..Default::default()
                    },
                    recon: 0.0,
                },
            );
            if raised - value >= CP_PROF_GAIN
                && let Some(cp) = super::cp::ready(world, entity, &id, CpFunction::ProfFp)
            {
                bot.next = Some(order);
                return cp;
            }
        }
        order
    } else {
        Order::OpFire {
            firers: Vec::new(),
            facing: Default::default(),
        }
    }
}

/// The answer to a decision other than an Op Fire window: the bot ranks
/// the decision's own legal answers (`Decision::legal_answers`) and takes
/// the best; it makes up none of its own.
pub fn decision(bot: &mut Bot, world: &mut World, view: &View, d: &Decision) -> Order {
    let answers = d.legal_answers();
    let offers = answers.offers();
    let first = offers.first().map(|a| a.order.clone());
    let declined = answers.declined().cloned();
    // The options of a several-pick answer, or of one pick per button.
    let options: Vec<String> = match &answers.picks {
        Some(p) => p.options.clone(),
        None => offers.iter().map(|a| a.label.clone()).collect(),
    };
    let made = |kind: PickKind, picks: Vec<String>| match &answers.picks {
        Some(p) => p.kind.order(picks),
        None => kind.order(picks),
    };
    let order = match d {
        // A failed Rout MC is always worth a re-roll; a Melee re-roll is
        // made blind to the dice and keeps the CP for a Rout MC instead.
        Decision::CpReroll { what, .. } => {
            if what.contains("Melee") {
                declined
            } else {
                first.or(declined)
            }
        }
        Decision::RoutDestination { .. } => safest(bot, view, offers),
        Decision::MeleeOrder { .. } => first,
        // GD Squads keep their distance: they fire as mortars (R 59.3).
        Decision::BanzaiGd { .. } => Some(made(PickKind::BanzaiGd, Vec::new())),
        // A defender (the side that wins by default) waits for the charge
        // in Op Fire with every free unit; an attacker keeps its units free
        // to take its objectives (R 59.6).
        Decision::BanzaiOpFire { side, .. } => {
            let defends = world
                .resource::<crate::world::ActiveScenario>()
                .scenario
                .victory
                .iter()
                .any(|v| {
                    matches!(v, crate::scenario::schema::VictoryCondition::Otherwise { side: s } if s == side)
                });
            Some(made(
                PickKind::BanzaiOpFire,
                if defends { options } else { Vec::new() },
            ))
        }
        // The Banzai's turn: when enough Squads reach an enemy this turn
        // (R 59.6, `doctrine::banzai_now`); waiting is the declining answer.
        Decision::BanzaiAnnounce { .. } => {
            if super::doctrine::banzai_now(world, view, bot.level.judgement().doctrine) {
                first
            } else {
                declined
            }
        }
        Decision::Casualties { count, at, .. } => Some(made(
            PickKind::Casualties,
            allocate(world, view, at, *count, &options),
        )),
        // Toward the nearest enemy, by `face_the_enemy` (R 2.2).
        Decision::RevealedFacing { .. } => first,
        Decision::Reinforcement { .. } => {
            let goals = Goals::of(world, view);
            offers
                .iter()
                .min_by_key(|a| {
                    let c = parse(view, &a.label);
                    (goals.distance(c), c)
                })
                .map(|a| a.order.clone())
        }
        Decision::CombatEvent {
            question, count, ..
        } => Some(made(
            PickKind::CombatEvent,
            combat_event(view, question, *count, &options),
        )),
        // Answered by `op_fire`, from the window itself.
        Decision::OpFire { .. } => Some(made(PickKind::OpFire, Vec::new())),
    };
    order.unwrap_or(Order::Pass)
}

fn parse(view: &View, label: &str) -> Coord {
    Coord::parse(label, view.board.columns, view.board.rows).unwrap_or(Coord::new(0, 0))
}

/// The Rout destination under the least enemy fire (R 11.0): the first
/// of the safest answers.
fn safest(bot: &mut Bot, view: &View, answers: &[Answer]) -> Option<Order> {
    let mut best: Option<(f32, &Answer)> = None;
    for a in answers {
        let Order::Rout { to, .. } = &a.order else {
            continue;
        };
        let d = danger_at(bot, view, parse(view, to), true);
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, a));
        }
    }
    best.map(|(_, a)| a.order.clone())
}

/// Melee casualties (R 12.0): Reduce Full-Strength Squads first, one step
/// each, so as few units as possible are eliminated; then the cheapest.
fn allocate(world: &World, view: &View, _at: &str, count: u8, units: &[String]) -> Vec<String> {
    let mut room: Vec<(String, u8, u8)> = units
        .iter()
        .map(|id| {
            let p = view.pieces.iter().find(|p| &p.id == id);
            let (cap, worth) = match p.and_then(|p| p.kind.as_ref().map(|k| (p, k))) {
                Some((p, k)) if k.class.is_weapon_team() || p.reduced => (1, 1),
                Some((_, k)) if k.class == UnitClass::Decoy => (1, 0),
                _ => (2, 2),
            };
            (id.clone(), cap, worth)
        })
        .collect();
    let _ = world;
    let mut out = Vec::new();
    for _ in 0..count {
        // A Full-Strength Squad with both steps left first, then the least
        // worth.
        let pick = (0..room.len()).filter(|i| room[*i].1 > 0).min_by_key(|i| {
            let (_, cap, worth) = &room[*i];
            (if *cap == 2 { 0 } else { 1 }, *worth, *i)
        });
        let Some(i) = pick else {
            break;
        };
        room[i].1 -= 1;
        room[i].2 = room[i].2.saturating_sub(1);
        out.push(room[i].0.clone());
    }
    out
}

/// A Combat Event choice (R 17.0): harm goes to the enemy's units, help to
/// one's own; an entry of the table, the first offered.
fn combat_event(view: &View, question: &str, count: usize, options: &[String]) -> Vec<String> {
    let q = question;
    let harmful = [
        "Reduce",
        "lose their Concealment",
        "marked Used",
        "give itself away",
        "casualty",
        "Banzai",
    ]
    .iter()
    .any(|w| q.contains(w));
    let mut options: Vec<(i32, usize, &String)> = options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let owner = view.pieces.iter().find(|p| &p.id == o).map(|p| p.side);
            let mine = owner == Some(view.me);
            let score = match owner {
                None => 0,
                Some(_) if mine != harmful => 1,
                Some(_) => -1,
            };
            (score, i, o)
        })
        .collect();
    options.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    options
        .into_iter()
        .take(count)
        .map(|(_, _, o)| o.clone())
        .collect()
}
