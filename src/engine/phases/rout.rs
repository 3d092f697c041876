//! The Rout Phase — R 11.0 (who must check, one MC each, the rout move),
//! R 11.1 (Rout casualties and the note: every unit of a side takes its MC
//! before any routs), R 11.2 (No Quarter Morale, reduced Rout casualties),
//! R 57.3 (SS Desperation), R 59.1 (+2 Morale in Melee with Japanese),
//! R 59.5 (Seishin). The first player's part comes first. A failed MC may be
//! re-rolled with a CP (R 3.0); where several destinations qualify the owner
//! chooses: both are [`Decision`]s.
//!
//! The phase is Bevy systems: the [`RoutPhase`] schedule, kept in the
//! world's [`super::PhaseSchedules`] and run on one thread, its systems
//! chained: [`enter`] sets up [`RoutState`]; [`who_must_check`], an ordinary
//! system over the units, finds the side's units that must take a Rout MC;
//! [`take_checks`] rolls them and [`rout_failed`] routs the failed units
//! (exclusive systems: they roll dice, ask and call `casualties::take`).
//! A step that asks a player leaves its unit in the state (`rolled`,
//! `choosing`) and raises the `Decision`; the later systems do nothing while
//! it is pending, the answer (`answer_reroll`, `answer_destination`) finishes
//! the step, and the driver runs the schedule again. One run of the
//! schedule takes a side's part as far as it goes.

use crate::world::UnitId;
use std::collections::VecDeque;

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::engine::Dice;
use crate::engine::casualties::{self, By, Hit};
use crate::engine::command_points::CpFunction;
use crate::engine::events::GameEvent;
use crate::engine::night::{Illumination, TripFlare};
use crate::engine::orders::Refusal;
use crate::rules::morale::{MoraleContext, MoraleModifier, morale_total};
use crate::rules::movement::MoveRules;
use crate::rules::rout::{
    EnemyUnit, RoutPlan, RoutResult, destinations, full_hexes, rout_casualty_number, rout_check,
    rout_reason, ss_desperation,
};
use crate::rules::{D10, Morale, Mp};
use crate::scenario::Coord;
use crate::scenario::schema::{Nationality, SideId, Spine};
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Location, Phase, RosterRes, Suppression, Unit,
};

use super::{
    OnBoard, PhaseEvents, cp, in_melee, listed, next_phase, no_decision, on_board, with_events,
};
use crate::engine::decision::{Decision, Pending, ask};

/// A unit that failed its Rout MC, waiting to rout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Failed {
    unit: Entity,
    result: RoutResult,
    margin: u8,
    casualty: u8,
}

/// A unit to check: why, and whether it was in Melee or adjacent to an
/// enemy not in Melee (R 11.1: which Casualty number counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ToCheck {
    unit: Entity,
    reason: &'static str,
    close: bool,
}

/// One destination offered: the hex, the path to it, the goal's words.
type Destination = (Coord, Vec<Coord>, &'static str);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    /// The side's part has not started.
    Start,
    /// Taking MCs; `rolled` is a failed MC waiting on a CP re-roll answer.
    Checking {
        queue: VecDeque<ToCheck>,
        rolled: Option<(ToCheck, Morale, D10)>,
    },
    /// Every MC taken: the failed units rout in turn; `choosing` waits on
    /// its destination.
    Routing {
        queue: VecDeque<Failed>,
        choosing: Option<(Failed, Vec<Destination>)>,
    },
}

/// Where the Rout Phase stands.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct RoutState {
    pub side: SideId,
    /// 0: the first player's part; 1: the other's.
    pub part: u8,
    stage: Stage,
    failed: Vec<Failed>,
}

/// The Rout Phase's systems (R 11.0).
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct RoutPhase;

/// The Rout Phase's schedule: one thread, its systems chained; once a
/// decision is pending the rest does nothing.
pub fn schedule() -> Schedule {
    let mut s = Schedule::new(RoutPhase);
    s.set_executor(SingleThreadedExecutor::new());
    s.add_systems(
        (
            enter.run_if(not(resource_exists::<RoutState>)),
            who_must_check.run_if(part_starts),
            take_checks.run_if(no_decision),
            rout_failed.run_if(no_decision),
        )
            .chain(),
    );
    s
}

/// The phase begins with the first player's part (R 11.0).
fn enter(mut commands: Commands, scenario: Res<ActiveScenario>) {
    commands.insert_resource(RoutState {
        side: scenario.scenario.first_player,
        part: 0,
        stage: Stage::Start,
        failed: Vec::new(),
    });
}

/// Run condition: a side's part has not started.
fn part_starts(state: Option<Res<RoutState>>) -> bool {
    state.is_some_and(|s| s.stage == Stage::Start)
}

/// The data and the night scene [`who_must_check`] reads (R 11.0, R 50.2).
#[derive(SystemParam)]
struct Look<'w> {
    board: Res<'w, BoardRes>,
    aid: Res<'w, AidRes>,
    roster: Res<'w, RosterRes>,
    scenario: Res<'w, ActiveScenario>,
    illumination: Option<Res<'w, Illumination>>,
    flare: Option<Res<'w, TripFlare>>,
}

/// Takes the side's MCs in id order until one waits on a CP re-roll answer
/// (R 3.0); with every MC taken, the failed units are to rout (R 11.1 note).
fn take_checks(world: &mut World) {
    with_events(world, |world, events| {
        while world.get_resource::<Pending>().is_none() {
            let next = match &mut world.resource_mut::<RoutState>().stage {
                Stage::Checking {
                    queue,
                    rolled: None,
                } => queue.pop_front(),
                _ => return,
            };
            let Some(next) = next else {
                let failed = std::mem::take(&mut world.resource_mut::<RoutState>().failed);
                set_stage(
                    world,
                    Stage::Routing {
                        queue: failed.into(),
                        choosing: None,
                    },
                );
                return;
            };
            take_check(world, next, events);
        }
    });
}

/// Routs the failed units in turn until one waits on its destination; then
/// the other side's part, or the Melee Phase after both (R 11.0).
fn rout_failed(world: &mut World) {
    with_events(world, |world, events| {
        while world.get_resource::<Pending>().is_none() {
            let next = match &mut world.resource_mut::<RoutState>().stage {
                Stage::Routing {
                    queue,
                    choosing: None,
                } => queue.pop_front(),
                _ => return,
            };
            match next {
                Some(next) => rout_unit(world, next, events),
                None => return end_part(world, events),
            }
        }
    });
}

/// A side's part is over: the other side's begins, or the phase ends.
fn end_part(world: &mut World, events: &mut Vec<GameEvent>) {
    let mut s = world.resource_mut::<RoutState>();
    if s.part == 0 {
        s.part = 1;
        s.side = s.side.other();
        s.stage = Stage::Start;
        return;
    }
    world.remove_resource::<RoutState>();
    next_phase(world, Phase::Rout, Phase::Melee, events);
}

fn set_stage(world: &mut World, stage: Stage) {
    world.resource_mut::<RoutState>().stage = stage;
}

/// The enemy units of `side`, each in Melee or not (R 12.0), with the
/// units in `leaving` taken as gone from their hexes (R 11.1 note).
fn enemies_of(all: &[OnBoard], side: SideId, leaving: &[Entity]) -> Vec<EnemyUnit> {
    all.iter()
        .filter(|e| e.unit.side != side)
        .map(|e| EnemyUnit {
            at: e.at,
            in_cave: e.in_cave,
            in_melee: all.iter().any(|f| {
                f.unit.side == side
                    && !f.is_decoy()
                    && f.location() == e.location()
                    && !leaving.contains(&f.entity)
            }),
        })
        .collect()
}

/// The start of a side's part: who must check (R 11.0), in id order.
fn who_must_check(
    units: Query<(Entity, &Unit, &Location)>,
    look: Look,
    mut state: ResMut<RoutState>,
    mut out: ResMut<PhaseEvents>,
) {
    let (board, aid, roster) = (&look.board.0, &look.aid.0, &look.roster.0);
    let side = state.side;
    let all = listed(units.iter(), roster);
    let foes = enemies_of(&all, side, &[]);
    let night = crate::engine::night::scene_of(
        &look.scenario.scenario,
        aid,
        look.illumination.as_deref(),
        look.flare.as_deref(),
    );
    let mut queue = VecDeque::new();
    // Units in a Cave never take a Rout MC (R 43.4).
    for u in all
        .iter()
        .filter(|u| u.unit.side == side && !u.is_decoy() && !u.in_cave)
    {
        let melee = in_melee(&all, u);
        let seishin = roster.get(&u.unit.kind).is_some_and(|t| t.seishin);
        // At Night an unseen unit is out of LOS for Rout (R 50.2); by day
        // every enemy counts (no list copied).
        let seen_by: Vec<EnemyUnit>;
        let seen_by: &[EnemyUnit] = match &night {
            Some(n) => {
                seen_by = foes
                    .iter()
                    .filter(|e| n.sees(e.at, u.at))
                    .copied()
                    .collect();
                &seen_by
            }
            None => &foes,
        };
        if let Some(reason) = rout_reason(board, aid, u.at, melee, seishin, seen_by) {
            let close = melee
                || foes
                    .iter()
                    .any(|e| !e.in_melee && e.adjacent_to(board, u.at));
            queue.push_back(ToCheck {
                unit: u.entity,
                reason: reason.text(),
                close,
            });
        }
    }
    let checking = queue
        .iter()
        .filter_map(|c| all.iter().find(|u| u.entity == c.unit))
        .map(|u| u.unit.id.clone())
        .collect();
    out.0.push(GameEvent::RoutPart { side, checking });
    state.stage = Stage::Checking {
        queue,
        rolled: None,
    };
}

/// The unit's Rout Phase Morale (R 7.1) with No Quarter (R 11.2, R 59.1).
fn rout_morale(world: &mut World, unit: Entity) -> Option<(Morale, bool)> {
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    // The unit and the enemy units in its location, read in place (no copy
    // of every unit on the board).
    let (my_side, reduced, here, ut) = {
        let er = world.get_entity(unit).ok()?;
        let me = er.get::<Unit>()?;
        let here = *er.get::<Location>()?;
        (me.side, me.reduced, here, roster.get(&me.kind)?)
    };
    let side = if reduced { ut.reduced } else { ut.full };
    let mut modifiers = Vec::new();
    let foes: Vec<Nationality> =
        crate::world::queries::with_query::<(&Unit, &Location), (), _>(world, |q| {
            q.filter(|(e, l)| e.side != my_side && **l == here)
                .filter_map(|(e, _)| roster.get(&e.kind))
                .filter(|t| t.class != crate::scenario::roster::UnitClass::Decoy)
                .map(|t| t.nationality)
                .collect()
        });
    if ut.nationality != Nationality::Japanese && foes.contains(&Nationality::Japanese) {
        modifiers.push(MoraleModifier::NoQuarterVsJapanese);
    }
    let year = scenario_year(world);
    let german_russian = |a: Nationality, b: Nationality| {
        (a == Nationality::German && b == Nationality::Russian)
            || (a == Nationality::Russian && b == Nationality::German)
    };
    if year >= aid.constants.no_quarter_german_russian_from
        && foes.iter().any(|f| german_russian(ut.nationality, *f))
    {
        modifiers.push(MoraleModifier::NoQuarterGermanRussian);
    }
    let no_quarter = !modifiers.is_empty();
    // +2 Morale in all phases of a Banzai Charge (R 59.6).
    if world.get::<crate::engine::banzai::Banzai>(unit).is_some() {
        modifiers.push(MoraleModifier::Banzai);
    }
    let suppression = world.get::<Suppression>(unit).copied();
    let morale = morale_total(
        &aid,
        &MoraleContext {
            morale: side.morale,
            suppression: suppression.into(),
            modifiers,
        },
    );
    Some((morale, no_quarter))
}

/// The year of the scenario: the last number of its date.
fn scenario_year(world: &World) -> u16 {
    let date = &world.resource::<ActiveScenario>().scenario.date;
    date.split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse::<u16>().ok())
        .rfind(|y| *y > 1000)
        .unwrap_or(0)
}

fn unit_id(world: &World, e: Entity) -> UnitId {
    world
        .get::<Unit>(e)
        .map(|u| u.id.clone())
        .unwrap_or_default()
}

/// One Rout MC (R 11.0); a failure may wait on a CP re-roll (R 3.0).
fn take_check(world: &mut World, check: ToCheck, events: &mut Vec<GameEvent>) {
    let Some((morale, no_quarter)) = rout_morale(world, check.unit) else {
        return;
    };
    let id = unit_id(world, check.unit);
    let aid = world.resource::<AidRes>().0.clone();
    let auto_pass = morale.0 >= aid.constants.morale_auto_pass;
    events.push(GameEvent::RoutCheck {
        unit: id.clone(),
        reason: check.reason,
        morale: morale.0,
        no_quarter,
        auto_pass,
    });
    if auto_pass {
        return;
    }
    let roll = roll_check(world, &id, morale, events);
    if roll.0 <= morale.0 {
        return;
    }
    let side = world.get::<Unit>(check.unit).map(|u| u.side);
    if let Some(side) = side
        && cp::may_spend(world, side, check.unit)
    {
        if let Stage::Checking { rolled, .. } = &mut world.resource_mut::<RoutState>().stage {
            *rolled = Some((check, morale, roll));
        }
        ask(
            world,
            Decision::CpReroll {
                side,
                units: vec![id.to_string()],
                what: "its failed Rout MC",
            },
            events,
        );
        return;
    }
    record_failure(world, check, morale, roll);
}

fn roll_check(world: &mut World, id: &str, morale: Morale, events: &mut Vec<GameEvent>) -> D10 {
    let roll = world.resource_mut::<Dice>().d10();
    events.push(GameEvent::MoraleCheck {
        unit: UnitId::from(id),
        morale: morale.0,
        roll: roll.0,
        passed: roll.0 <= morale.0,
        rule: "R 11.0",
    });
    roll
}

fn record_failure(world: &mut World, check: ToCheck, morale: Morale, roll: D10) {
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let Some(u) = world.get::<Unit>(check.unit).cloned() else {
        return;
    };
    let Some(ut) = roster.get(&u.kind) else {
        return;
    };
    let side = if u.reduced { ut.reduced } else { ut.full };
    let result = rout_check(&aid, morale, roll, side.casualty, check.close);
    if result == RoutResult::Stays {
        return;
    }
    world.resource_mut::<RoutState>().failed.push(Failed {
        unit: check.unit,
        result,
        margin: roll.0 - morale.0,
        casualty: rout_casualty_number(side.casualty, check.close),
    });
}

/// The answer to a CP re-roll offer on a failed Rout MC.
pub fn answer_reroll(
    world: &mut World,
    decision: &Decision,
    unit: Option<&str>,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Decision::CpReroll { side, units, .. } = decision else {
        return Err(Refusal::NothingToAnswer);
    };
    if let Some(u) = unit
        && !units.iter().any(|x| x == u)
    {
        return Err(Refusal::WrongAnswer {
            reason: format!("{u} has no failed Rout MC to re-roll (R 3.0)"),
        });
    }
    let Some(RoutState {
        stage:
            Stage::Checking {
                rolled: Some((check, morale, roll)),
                ..
            },
        ..
    }) = world.get_resource::<RoutState>().cloned()
    else {
        return Err(Refusal::NothingToAnswer);
    };
    world.remove_resource::<Pending>();
    if let Stage::Checking { rolled, .. } = &mut world.resource_mut::<RoutState>().stage {
        *rolled = None;
    }
    let mut roll = roll;
    if let Some(id) = unit {
        cp::spend(world, *side, check.unit, CpFunction::Reroll);
        events.push(GameEvent::CpSpent {
            side: *side,
            unit: UnitId::from(id),
            purpose: "re-rolls its Rout MC",
        });
        roll = roll_check(world, id, morale, events);
    }
    if roll.0 > morale.0 {
        record_failure(world, check, morale, roll);
    }
    Ok(())
}

/// Routs one failed unit (R 11.0, R 11.1, R 57.3).
fn rout_unit(world: &mut World, failed: Failed, events: &mut Vec<GameEvent>) {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let all = on_board(world);
    let Some(me) = all.iter().find(|u| u.entity == failed.unit).cloned() else {
        return;
    };
    let Some(ut) = roster.get(&me.unit.kind).cloned() else {
        return;
    };
    // A Gun that fails its Rout MC is eliminated (R 11.0, R 20.2).
    if crate::rules::gun::eliminated_by_failed_rout(ut.class) {
        let why = "a Gun that fails its Rout MC is eliminated (R 11.0, R 20.2)";
        eliminate(world, me.entity, why, events);
        return;
    }
    // Units of the side still to rout leave their Melees too (R 11.1 note).
    let leaving: Vec<Entity> = match &world.resource::<RoutState>().stage {
        Stage::Routing { queue, .. } => queue.iter().map(|f| f.unit).chain([me.entity]).collect(),
        _ => vec![me.entity],
    };
    let enemies = enemies_of(&all, me.unit.side, &leaving);
    let was_in_melee = in_melee(&all, &me);
    let friends: Vec<Coord> = all
        .iter()
        .filter(|f| f.unit.side == me.unit.side && f.entity != me.entity && !f.in_cave)
        .map(|f| f.at)
        .collect();
    let full = full_hexes(&friends, aid.constants.stacking_per_side);
    let scenario = &world.resource::<ActiveScenario>().scenario;
    let Some(card) = scenario.sides.iter().find(|c| c.side == me.unit.side) else {
        return;
    };
    let rules = MoveRules::of(&scenario.special_rules);
    let vs_russians = scenario
        .sides
        .iter()
        .any(|c| c.side != me.unit.side && c.nationality == Nationality::Russian);
    let plan = destinations(
        &board,
        &aid,
        &crate::rules::rout::RoutQuery {
            from: me.at,
            mp: Mp::whole(u16::from(ut.mp)),
            enemies: &enemies,
            full: &full,
            rout_edge: card.rout_edge,
            rules,
            wire: &crate::engine::fortifications::wire_hexes(world),
        },
    );
    match plan {
        RoutPlan::Eliminated => {
            if ss_desperation(ut.ss, !me.unit.reduced, vs_russians, failed.margin) {
                events.push(GameEvent::SsDesperation {
                    unit: me.unit.id.clone(),
                });
                // Reduced and Fully Suppressed, it stays (R 57.3); a Full
                // Strength unit only, so never eliminated here.
                let why = "no legal rout (R 11.0)";
                casualties::take(world, me.entity, Hit::Reduce, By::Rout { why }, events);
                return;
            }
            let why = if was_in_melee {
                "it would rout out of Melee with no friendly unit left in it (R 11.1)"
            } else {
                "no legal rout (R 11.0)"
            };
            eliminate(world, me.entity, why, events);
        }
        RoutPlan::OffEdge { path } => {
            events.push(GameEvent::Routs {
                unit: me.unit.id.clone(),
                path: labels(me.at, &path),
                goal: "off its Rout Edge",
            });
            world.entity_mut(me.entity).despawn();
            events.push(GameEvent::RoutedOff {
                unit: me.unit.id.clone(),
            });
        }
        RoutPlan::Move { goal, choices } => {
            // Where facing is in use the owner is asked even for one hex:
            // a Routing unit may adopt any facing at the end of its move
            // (R 2.2).
            let facing = crate::engine::fire::facing_in_use(world);
            if choices.len() == 1 && !facing {
                let c = &choices[0];
                finish_rout(world, failed, (c.to, &c.path, goal.text()), None, events);
            } else {
                let options: Vec<Destination> = choices
                    .iter()
                    .map(|c| (c.to, c.path.clone(), goal.text()))
                    .collect();
                if let Stage::Routing { choosing, .. } =
                    &mut world.resource_mut::<RoutState>().stage
                {
                    *choosing = Some((failed, options));
                }
                ask(
                    world,
                    Decision::RoutDestination {
                        side: me.unit.side,
                        unit: me.unit.id.to_string(),
                        choices: choices.iter().map(|c| c.to.label()).collect(),
                        facing,
                    },
                    events,
                );
            }
        }
    }
}

fn labels(from: Coord, path: &[Coord]) -> Vec<String> {
    std::iter::once(from)
        .chain(path.iter().copied())
        .map(Coord::label)
        .collect()
}

/// Eliminated by its Rout, with the reason (R 11.0, R 11.1, R 20.2).
fn eliminate(world: &mut World, entity: Entity, why: &'static str, events: &mut Vec<GameEvent>) {
    casualties::take(world, entity, Hit::Eliminate, By::Rout { why }, events);
}

/// The rout move itself, the facing adopted at its end (R 2.2), then the
/// Rout casualty (R 11.1).
fn finish_rout(
    world: &mut World,
    failed: Failed,
    (to, path, goal): (Coord, &[Coord], &'static str),
    facing: Option<Spine>,
    events: &mut Vec<GameEvent>,
) {
    let Some(from) = world.get::<Location>(failed.unit).map(|l| l.coord) else {
        return;
    };
    let id = unit_id(world, failed.unit);
    events.push(GameEvent::Routs {
        unit: id.clone(),
        path: labels(from, path),
        goal,
    });
    world.entity_mut(failed.unit).insert(Location {
        coord: to,
        in_cave: false,
    });
    if let Some(f) = facing {
        world
            .entity_mut(failed.unit)
            .insert(crate::world::Facing(f));
        events.push(GameEvent::FacesAtEnd {
            unit: id.clone(),
            facing: f,
        });
    }
    if failed.result == RoutResult::RoutsReduced {
        let by = By::RoutCasualty {
            margin: failed.margin,
            casualty: failed.casualty,
        };
        casualties::take(world, failed.unit, Hit::Reduce, by, events);
    }
}

/// The owner's choice of Rout destination.
pub fn answer_destination(
    world: &mut World,
    decision: &Decision,
    unit: &str,
    to: &str,
    facing: Option<Spine>,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Decision::RoutDestination {
        unit: routing,
        choices,
        facing: facing_in_use,
        ..
    } = decision
    else {
        return Err(Refusal::NothingToAnswer);
    };
    if unit != routing || !choices.iter().any(|c| c == to) {
        return Err(Refusal::WrongAnswer {
            reason: format!("{routing} may rout to {} only (R 11.0)", choices.join(", ")),
        });
    }
    if facing.is_some() && !facing_in_use {
        return Err(Refusal::WrongAnswer {
            reason: "this scenario does not use Infantry facing (R 2.2)".into(),
        });
    }
    let Some(RoutState {
        stage:
            Stage::Routing {
                choosing: Some((failed, options)),
                ..
            },
        ..
    }) = world.get_resource::<RoutState>().cloned()
    else {
        return Err(Refusal::NothingToAnswer);
    };
    let Some((dest, path, goal)) = options.into_iter().find(|o| o.0.label() == to) else {
        return Err(Refusal::NothingToAnswer);
    };
    world.remove_resource::<Pending>();
    if let Stage::Routing { choosing, .. } = &mut world.resource_mut::<RoutState>().stage {
        *choosing = None;
    }
    finish_rout(world, failed, (dest, &path, goal), facing, events);
    Ok(())
}
