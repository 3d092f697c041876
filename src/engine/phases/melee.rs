//! The Melee Phase — R 12.0 (units sharing a location are in Melee; the
//! first player orders the Melees, decides on CPs and allocates casualties
//! first; two dice per unit against its Melee FP; each die at or under is one
//! Reduction of an enemy unit, the owner's choice; WTs and Guns eliminated
//! by any casualty; one CP re-roll per side per Melee; one round per
//! location), R 12.1 (simultaneous), R 12.2 (Flank +1), R 59.1 (Japanese
//! Melee FP; no withdrawal from Melee).
//!
//! A Melee is fought in strike groups: one group today (simultaneous,
//! R 12.1); a unit with an Ambush counter strikes first at +2 and its
//! casualties are applied before the others attack (R 51.2).
//!
//! The phase is Bevy systems: the [`MeleePhase`] schedule, kept in the
//! world's [`super::PhaseSchedules`] and run on one thread, its systems
//! chained: [`find_melees`], an ordinary system over the units, finds the
//! locations in Melee (R 12.0) and sets up [`MeleeState`]; [`next_melee`]
//! starts the next one (the first player chooses when several remain);
//! then a strike group's steps, each an exclusive system that runs only in
//! its stage of the [`Fight`]: [`roll_group`], [`offer_rerolls`],
//! [`allocate`], [`apply_casualties`]. A step that asks a player raises the
//! `Decision`; the later systems do nothing while it is pending, the answer
//! (`choose`, `answer_reroll`, `answer_casualties`) moves the stage on, and
//! the driver runs the schedule again. One run of the schedule fights one
//! strike group as far as it goes.

use crate::world::UnitId;
use std::collections::VecDeque;

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

use crate::engine::Dice;
use crate::engine::casualties::{self, By, Hit};
use crate::engine::command_points::CpFunction;
use crate::engine::events::GameEvent;
use crate::engine::orders::{Order, Refusal};
use crate::engine::random::Lcg;
use crate::rules::melee::{melee_fp, melee_hits};
use crate::scenario::Coord;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{Nationality, SideId};
use crate::world::{AidRes, Location, Phase, RosterRes, TurnTrack, Unit, marks};

use super::{
    OnBoard, PhaseEvents, cp, first_player, hand_over, in_melee, listed, next_phase, on_board,
    with_events,
};
use crate::engine::decision::{Decision, Pending, ask};

/// One unit's Melee roll.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Roll {
    unit: Entity,
    side: SideId,
    fp: u8,
    dice: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FightStage {
    Roll,
    /// CP re-roll offers, first player (0) then the other (1).
    Reroll(u8),
    /// Casualty allocation, first player (0) then the other (1).
    Allocate(u8),
    Apply,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Fight {
    at: Coord,
    in_cave: bool,
    groups: VecDeque<Vec<Entity>>,
    rolls: Vec<Roll>,
    stage: FightStage,
    rerolled: [bool; 2],
    allocated: [Vec<Entity>; 2],
}

/// Where the Melee Phase stands.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct MeleeState {
    remaining: Vec<(Coord, bool)>,
    fight: Option<Fight>,
}

/// The locations with Melee (R 12.0): infantry of both sides (not Decoys).
fn melee_locations(all: &[OnBoard]) -> Vec<(Coord, bool)> {
    let mut out: Vec<(Coord, bool)> = all
        .iter()
        .filter(|u| !u.is_decoy() && in_melee(all, u))
        .map(OnBoard::location)
        .collect();
    out.sort();
    out.dedup();
    out
}

fn order_of(world: &World) -> [SideId; 2] {
    let first = first_player(world);
    [first, first.other()]
}

/// The Melee Phase's systems (R 12.0).
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct MeleePhase;

/// The Melee Phase's schedule: one thread, its systems chained; once a
/// decision is pending the rest does nothing.
pub fn schedule() -> Schedule {
    let mut s = Schedule::new(MeleePhase);
    s.set_executor(SingleThreadedExecutor::new());
    s.add_systems(
        (
            find_melees.run_if(not(resource_exists::<MeleeState>)),
            next_melee.run_if(between_melees),
            roll_group.run_if(in_stage(|s| s == FightStage::Roll)),
            offer_rerolls.run_if(in_stage(|s| rerolling(s).is_some())),
            allocate.run_if(in_stage(|s| allocating(s).is_some())),
            apply_casualties.run_if(in_stage(|s| s == FightStage::Apply)),
        )
            .chain(),
    );
    s
}

/// Run condition: no decision is pending, the phase is under way and no
/// Melee is being fought.
fn between_melees(state: Option<Res<MeleeState>>, pending: Option<Res<Pending>>) -> bool {
    pending.is_none() && state.is_some_and(|s| s.fight.is_none())
}

/// Run condition: no decision is pending and a Melee is being fought, at
/// a stage `stage` accepts.
fn in_stage(
    stage: fn(FightStage) -> bool,
) -> impl FnMut(Option<Res<MeleeState>>, Option<Res<Pending>>) -> bool + Clone {
    move |state: Option<Res<MeleeState>>, pending: Option<Res<Pending>>| {
        pending.is_none()
            && state
                .and_then(|s| s.fight.as_ref().map(|f| f.stage))
                .is_some_and(stage)
    }
}

/// The phase begins: the locations in Melee (R 12.0); with none, the
/// Recovery Phase.
fn find_melees(
    units: Query<(Entity, &Unit, &Location)>,
    roster: Res<RosterRes>,
    mut track: ResMut<TurnTrack>,
    mut commands: Commands,
    mut out: ResMut<PhaseEvents>,
) {
    let all = listed(units.iter(), &roster.0);
    let remaining = melee_locations(&all);
    if remaining.is_empty() {
        out.0.push(GameEvent::NoMelee);
        hand_over(&mut track, Phase::Melee, Phase::Recovery, &mut out.0);
        return;
    }
    commands.insert_resource(MeleeState {
        remaining,
        fight: None,
    });
}

/// The next Melee: the only one left, or the first player's choice
/// (R 12.0); with none left, the Recovery Phase.
fn next_melee(world: &mut World) {
    with_events(world, |world, events| {
        let remaining = world.resource::<MeleeState>().remaining.clone();
        match remaining.as_slice() {
            [] => {
                world.remove_resource::<MeleeState>();
                next_phase(world, Phase::Melee, Phase::Recovery, events);
            }
            [only] => start(world, *only, events),
            many => {
                let mut choices: Vec<String> = many.iter().map(|l| l.0.label()).collect();
                choices.dedup();
                let side = first_player(world);
                ask(world, Decision::MeleeOrder { side, choices }, events);
            }
        }
    });
}

/// The Melee being fought, taken out of the state (every step puts it
/// back, or ends it).
fn fight_of(world: &World) -> Option<Fight> {
    world.get_resource::<MeleeState>()?.fight.clone()
}

fn set_fight(world: &mut World, fight: Option<Fight>) {
    world.resource_mut::<MeleeState>().fight = fight;
}

/// The first player's choice of the next Melee.
pub fn choose(world: &mut World, at: &str, events: &mut Vec<GameEvent>) {
    let loc = world
        .resource::<MeleeState>()
        .remaining
        .iter()
        .find(|l| l.0.label() == at)
        .copied();
    if let Some(loc) = loc {
        start(world, loc, events);
    }
}

/// Starts the Melee in a location: its strike groups (R 12.1, R 51.2).
fn start(world: &mut World, loc: (Coord, bool), events: &mut Vec<GameEvent>) {
    world
        .resource_mut::<MeleeState>()
        .remaining
        .retain(|l| *l != loc);
    let all = on_board(world);
    let here: Vec<&OnBoard> = all
        .iter()
        .filter(|u| u.location() == loc && !u.is_decoy())
        .collect();
    let names = |s: SideId| {
        here.iter()
            .filter(|u| u.unit.side == s)
            .map(|u| u.unit.id.clone())
            .collect::<Vec<_>>()
    };
    events.push(GameEvent::MeleeBegins {
        at: loc.0.label(),
        allies: names(SideId::Allies),
        axis: names(SideId::Axis),
    });
    let ambushers: Vec<Entity> = here
        .iter()
        .filter(|u| marks(world, u.entity).ambush)
        .map(|u| u.entity)
        .collect();
    let others: Vec<Entity> = here
        .iter()
        .filter(|u| !ambushers.contains(&u.entity))
        .map(|u| u.entity)
        .collect();
    let groups: VecDeque<Vec<Entity>> = [ambushers, others]
        .into_iter()
        .filter(|g| !g.is_empty())
        .collect();
    set_fight(
        world,
        Some(Fight {
            at: loc.0,
            in_cave: loc.1,
            groups,
            rolls: Vec::new(),
            stage: FightStage::Roll,
            rerolled: [false; 2],
            allocated: [Vec::new(), Vec::new()],
        }),
    );
}

/// Units still in this location, side by side.
fn fighters(world: &mut World, fight: &Fight) -> Vec<OnBoard> {
    on_board(world)
        .into_iter()
        .filter(|u| u.location() == (fight.at, fight.in_cave) && !u.is_decoy())
        .collect()
}

fn roll_dice(world: &mut World) -> Vec<u8> {
    let n = world.resource::<AidRes>().0.constants.melee_dice;
    (0..n)
        .map(|_| world.resource_mut::<Dice>().d10().0)
        .collect()
}

fn log_roll(world: &World, r: &Roll, events: &mut Vec<GameEvent>) {
    let dice: Vec<crate::rules::D10> = r.dice.iter().map(|d| crate::rules::D10(*d)).collect();
    let ambush = marks(world, r.unit).ambush;
    events.push(GameEvent::MeleeRoll {
        unit: world
            .get::<Unit>(r.unit)
            .map(|u| u.id.clone())
            .unwrap_or_default(),
        fp: r.fp,
        dice: r.dice.clone(),
        hits: melee_hits(r.fp, &dice),
        rule: if ambush {
            "R 12.0, R 51.2"
        } else if world.get::<crate::engine::banzai::Banzai>(r.unit).is_some() {
            "R 12.0, R 59.6"
        } else if crate::engine::seishin::declared(world, r.unit) {
            "R 12.0, R 59.5"
        } else if marks(world, r.unit).flank {
            "R 12.0, R 12.2"
        } else {
            "R 12.0"
        },
    });
}

/// The group strikes: every unit rolls its dice (R 12.0).
fn roll_group(world: &mut World) {
    if let Some(fight) = fight_of(world) {
        with_events(world, |world, events| roll(world, fight, events));
    }
}

fn roll(world: &mut World, mut fight: Fight, events: &mut Vec<GameEvent>) {
    let all = fighters(world, &fight);
    let sides = order_of(world);
    if !sides.iter().all(|s| all.iter().any(|u| u.unit.side == *s)) || fight.groups.is_empty() {
        set_fight(world, None);
        return;
    }
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let group = fight.groups.front().cloned().unwrap_or_default();
    let mut strikers: Vec<&OnBoard> = all.iter().filter(|u| group.contains(&u.entity)).collect();
    strikers.sort_by_key(|u| (u.unit.side != sides[0], u.unit.id.clone()));
    fight.rolls.clear();
    for u in strikers {
        let Some(ut) = roster.get(&u.unit.kind) else {
            continue;
        };
        let side = if u.unit.reduced { ut.reduced } else { ut.full };
        let flank = marks(world, u.entity).flank;
        let mut fp = melee_fp(&aid, ut.class, &side, u.unit.reduced, flank);
        if marks(world, u.entity).ambush {
            fp += aid.constants.melee_ambush_fp;
        }
        // A Squad that charged this turn: +2 (R 59.6).
        fp += crate::engine::banzai::melee_bonus(world, u.entity);
        // A Squad that declared Seishin this turn: +2 (R 59.5).
        fp += crate::engine::seishin::melee_bonus(world, u.entity);
        let roll = Roll {
            unit: u.entity,
            side: u.unit.side,
            fp,
            dice: roll_dice(world),
        };
        log_roll(world, &roll, events);
        fight.rolls.push(roll);
    }
    fight.stage = FightStage::Reroll(0);
    fight.allocated = [Vec::new(), Vec::new()];
    set_fight(world, Some(fight));
}

/// The CP re-roll offers, the first player's then the other's, until one
/// is asked (R 3.0, R 12.0).
fn offer_rerolls(world: &mut World) {
    by_side(world, rerolling, offer_reroll);
}

/// The side (0: the first player, 1: the other) whose CP re-roll is
/// offered.
fn rerolling(stage: FightStage) -> Option<u8> {
    match stage {
        FightStage::Reroll(i) => Some(i),
        _ => None,
    }
}

/// A step of a Melee taken for one side (0: the first player, 1: the
/// other; 2: both done).
type SideStep = fn(&mut World, Fight, u8, &mut Vec<GameEvent>);

/// Takes `step` for the side `turn` reads in the fight's stage, again and
/// again while it reads one and no decision is pending.
fn by_side(world: &mut World, turn: fn(FightStage) -> Option<u8>, step: SideStep) {
    with_events(world, |world, events| {
        while world.get_resource::<Pending>().is_none() {
            let Some(fight) = fight_of(world) else {
                return;
            };
            let Some(i) = turn(fight.stage) else {
                return;
            };
            step(world, fight, i, events);
        }
    });
}

/// One CP per side per Melee may re-roll both dice of one unit (R 3.0,
/// R 12.0); the first player decides first.
fn offer_reroll(world: &mut World, mut fight: Fight, i: u8, events: &mut Vec<GameEvent>) {
    if i >= 2 {
        fight.stage = FightStage::Allocate(0);
        set_fight(world, Some(fight));
        return;
    }
    let side = order_of(world)[usize::from(i)];
    let units: Vec<String> = if fight.rerolled[side.index()] {
        Vec::new()
    } else {
        fight
            .rolls
            .iter()
            .filter(|r| r.side == side && cp::may_spend(world, side, r.unit))
            .filter_map(|r| world.get::<Unit>(r.unit).map(|u| u.id.to_string()))
            .collect()
    };
    fight.stage = FightStage::Reroll(i);
    set_fight(world, Some(fight));
    if units.is_empty() {
        advance_reroll(world);
    } else {
        ask(
            world,
            Decision::CpReroll {
                side,
                units,
                what: "Melee dice",
            },
            events,
        );
    }
}

fn advance_reroll(world: &mut World) {
    if let Some(f) = world.resource_mut::<MeleeState>().fight.as_mut()
        && let FightStage::Reroll(i) = f.stage
    {
        f.stage = FightStage::Reroll(i + 1);
    }
}

/// The Melee being fought, for an answer.
fn current_fight(world: &World) -> Result<Fight, Refusal> {
    world
        .get_resource::<MeleeState>()
        .and_then(|s| s.fight.clone())
        .ok_or(Refusal::NothingToAnswer)
}

/// The answer to a Melee CP re-roll offer.
pub fn answer_reroll(
    world: &mut World,
    decision: &Decision,
    unit: Option<&str>,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Decision::CpReroll { side, units, .. } = decision else {
        return Err(Refusal::NothingToAnswer);
    };
    let mut fight = current_fight(world)?;
    if let Some(id) = unit {
        if !units.iter().any(|u| u == id) {
            return Err(Refusal::WrongAnswer {
                reason: format!(
                    "{id} may not re-roll its Melee dice; one of {} (R 3.0)",
                    units.join(", ")
                ),
            });
        }
        world.remove_resource::<Pending>();
        let Some(pos) = fight
            .rolls
            .iter()
            .position(|r| world.get::<Unit>(r.unit).is_some_and(|u| u.id == id))
        else {
            return Err(Refusal::NothingToAnswer);
        };
        cp::spend(world, *side, fight.rolls[pos].unit, CpFunction::MeleeReroll);
        events.push(GameEvent::CpSpent {
            side: *side,
            unit: UnitId::from(id),
            purpose: "re-rolls both Melee dice",
        });
        fight.rolls[pos].dice = roll_dice(world);
        log_roll(world, &fight.rolls[pos], events);
        fight.rerolled[side.index()] = true;
        set_fight(world, Some(fight));
    } else {
        world.remove_resource::<Pending>();
    }
    advance_reroll(world);
    Ok(())
}

/// Casualties one unit can take: a Full-Strength Squad two (Reduced, then
/// eliminated), a Reduced Squad one; WTs (and Guns) are eliminated by any
/// casualty (R 12.0).
fn capacity(class: UnitClass, reduced: bool) -> u8 {
    if class.is_weapon_team() || class.is_gun() || reduced {
        1
    } else {
        2
    }
}

/// Hits the other side's rolls inflict on `side`.
fn hits_on(fight: &Fight, side: SideId) -> u8 {
    fight
        .rolls
        .iter()
        .filter(|r| r.side != side)
        .map(|r| {
            let dice: Vec<crate::rules::D10> =
                r.dice.iter().map(|d| crate::rules::D10(*d)).collect();
            melee_hits(r.fp, &dice)
        })
        .sum()
}

/// The casualties allocated, the first player's then the other's, until an
/// owner is asked (R 12.0).
fn allocate(world: &mut World) {
    by_side(world, allocating, allocate_side);
}

/// The side (0: the first player, 1: the other) allocating casualties.
fn allocating(stage: FightStage) -> Option<u8> {
    match stage {
        FightStage::Allocate(i) => Some(i),
        _ => None,
    }
}

/// The owner allocates the casualties its units take, the first player
/// first (R 12.0); no choice to make, no question asked.
fn allocate_side(world: &mut World, mut fight: Fight, i: u8, events: &mut Vec<GameEvent>) {
    if i >= 2 {
        fight.stage = FightStage::Apply;
        set_fight(world, Some(fight));
        return;
    }
    let side = order_of(world)[usize::from(i)];
    let count = hits_on(&fight, side);
    let mine: Vec<OnBoard> = fighters(world, &fight)
        .into_iter()
        .filter(|u| u.unit.side == side)
        .collect();
    let total: u8 = mine.iter().map(|u| capacity(u.class, u.unit.reduced)).sum();
    fight.stage = FightStage::Allocate(i + 1);
    if count == 0 || mine.is_empty() {
        set_fight(world, Some(fight));
        return;
    }
    if count >= total || mine.len() == 1 {
        fight.allocated[side.index()] = mine
            .iter()
            .flat_map(|u| {
                std::iter::repeat_n(u.entity, usize::from(capacity(u.class, u.unit.reduced)))
            })
            .take(usize::from(count))
            .collect();
        set_fight(world, Some(fight));
        return;
    }
    let at = fight.at.label();
    fight.stage = FightStage::Allocate(i);
    set_fight(world, Some(fight));
    ask(
        world,
        Decision::Casualties {
            side,
            at,
            count,
            units: mine.iter().map(|u| u.unit.id.to_string()).collect(),
        },
        events,
    );
}

/// The owner's allocation: one id per Reduction.
pub fn answer_casualties(
    world: &mut World,
    decision: &Decision,
    units: &[String],
    _events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Decision::Casualties {
        side,
        count,
        units: candidates,
        ..
    } = decision
    else {
        return Err(Refusal::NothingToAnswer);
    };
    let mut fight = current_fight(world)?;
    let mine: Vec<OnBoard> = fighters(world, &fight)
        .into_iter()
        .filter(|u| u.unit.side == *side)
        .collect();
    let wrong = |reason: String| Err(Refusal::WrongAnswer { reason });
    if units.len() != usize::from(*count) {
        return wrong(format!(
            "{count} casualties to allocate, {} given (R 12.0)",
            units.len()
        ));
    }
    let mut chosen = Vec::new();
    for id in units {
        let Some(u) = mine.iter().find(|u| &u.unit.id == id) else {
            return wrong(format!(
                "{id} is not in this Melee; one of {} (R 12.0)",
                candidates.join(", ")
            ));
        };
        let already = chosen.iter().filter(|e| **e == u.entity).count();
        if already >= usize::from(capacity(u.class, u.unit.reduced)) {
            return wrong(format!(
                "{id} cannot take another casualty: it is already eliminated (R 12.0)"
            ));
        }
        chosen.push(u.entity);
    }
    world.remove_resource::<Pending>();
    fight.allocated[side.index()] = chosen;
    if let FightStage::Allocate(i) = fight.stage {
        fight.stage = FightStage::Allocate(i + 1);
    }
    set_fight(world, Some(fight));
    Ok(())
}

/// Both sides' casualties at once (R 12.1), then the next strike group.
fn apply_casualties(world: &mut World) {
    if let Some(fight) = fight_of(world) {
        with_events(world, |world, events| apply(world, fight, events));
    }
}

fn apply(world: &mut World, mut fight: Fight, events: &mut Vec<GameEvent>) {
    let roster = world.resource::<RosterRes>().0.clone();
    for side in order_of(world) {
        let hits = std::mem::take(&mut fight.allocated[side.index()]);
        let mut seen: Vec<Entity> = Vec::new();
        for e in hits.iter().copied() {
            if seen.contains(&e) {
                continue;
            }
            seen.push(e);
            let n = hits.iter().filter(|x| **x == e).count();
            let Some(u) = world.get::<Unit>(e).cloned() else {
                continue;
            };
            let class = roster.get(&u.kind).map_or(UnitClass::Squad, |t| t.class);
            let hit = if n >= usize::from(capacity(class, u.reduced)) {
                Hit::Eliminate
            } else {
                Hit::Reduce
            };
            casualties::take(world, e, hit, By::Melee, events);
        }
    }
    fight.groups.pop_front();
    fight.rolls.clear();
    fight.stage = FightStage::Roll;
    if fight.groups.is_empty() {
        set_fight(world, None);
    } else {
        set_fight(world, Some(fight));
    }
}

/// R 59.1 No withdrawal from Melee: a Japanese unit in Melee may only be
/// marked Used or Op Fire.
pub fn check_no_withdrawal(world: &mut World, order: &Order) -> Result<(), Refusal> {
    let Order::Move { unit, .. } = order else {
        return Ok(());
    };
    let roster = world.resource::<RosterRes>().0.clone();
    // Only a Japanese unit in Melee is held (R 59.1); most moves stop here.
    let me = crate::world::queries::with_query::<(&Unit, &crate::world::Location), (), _>(
        world,
        |mut q| {
            q.find(|(u, _)| &u.id == unit).map(|(u, l)| {
                let japanese = roster
                    .get(&u.kind)
                    .is_some_and(|t| t.nationality == Nationality::Japanese);
                (u.side, *l, japanese)
            })
        },
    );
    let Some((side, at, true)) = me else {
        return Ok(());
    };
    // An enemy unit, not a Decoy, in its location.
    let held = crate::world::queries::with_query::<(&Unit, &crate::world::Location), (), _>(
        world,
        |mut q| {
            q.any(|(o, l)| {
                o.side != side
                    && *l == at
                    && roster
                        .get(&o.kind)
                        .is_none_or(|t| t.class != UnitClass::Decoy)
            })
        },
    );
    if held {
        return Err(Refusal::NoWithdrawal {
            unit: UnitId::from(unit),
        });
    }
    Ok(())
}

/// A legal allocation picked at random, for the random player.
pub fn random_allocation(
    world: &World,
    _at: &str,
    count: u8,
    units: &[String],
    rng: &mut Lcg,
) -> Vec<String> {
    let roster = world.resource::<RosterRes>().0.clone();
    let mut room: Vec<(String, u8)> = units
        .iter()
        .map(|id| {
            let cap = world
                .iter_entities()
                .find_map(|e| e.get::<Unit>().filter(|u| &u.id == id).cloned())
                .map_or(1, |u| {
                    capacity(
                        roster.get(&u.kind).map_or(UnitClass::Squad, |t| t.class),
                        u.reduced,
                    )
                });
            (id.clone(), cap)
        })
        .collect();
    let mut out = Vec::new();
    for _ in 0..count {
        let open: Vec<usize> = (0..room.len()).filter(|i| room[*i].1 > 0).collect();
        if open.is_empty() {
            break;
        }
        let i = open[rng.below(open.len())];
        room[i].1 -= 1;
        out.push(room[i].0.clone());
    }
    out
}
