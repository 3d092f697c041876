//! Combat Events — R 17.0, played on the world: after an attack whose roll
//! was a 1, the additional roll, the roll on the Combat Event Table or the
//! Japanese Event Table, and the entry's effect. Where the entry leaves a
//! choice to the player rolling, the game waits for it like an Op Fire
//! window: `CombatEventDecision` holds the question, `Order::CombatEvent`
//! answers it, every other order is refused meanwhile. A choice must be made
//! if possible (R 17.0): when the units that qualify are no more than the
//! entry asks for, they are all taken without asking.
//!
//! Which units qualify is `rules::combat_events`; the tables are data
//! (`assets/player_aid.ron`). Guns take part as the entries say (a Gun is
//! removed by entry 1, revealed by entry 5, readied alone by entry 8, never
//! a Squad/WT nor Infantry for the others). Vehicles, SATTs and Carriers are
//! not in the game: the entries naming them (entry 1's UK, entry 7's "not in
//! a Carrier", entry 8's Vehicle or Carrier) find no such unit.

use crate::world::UnitId;
use std::collections::VecDeque;

use bevy::prelude::*;

use crate::rules::D10;
use crate::rules::combat_events::{
    Piece, READY_GUN, READY_INFANTRY, ReadyChoice, Table, ambush_options, banzai_options,
    casualty_options, choose_options, conceal_options, fugg_fires, fugg_options, is_squad,
    mark_used_options, may_cause_event, picks, ready_choice, ready_gun_options, ready_options,
    restore_options, return_hosts, reveal_options, sniper_options, who_rolls,
};
use crate::rules::melee::{melee_fp, melee_hits};
use crate::scenario::Coord;
use crate::scenario::player_aid::{CombatEvents, EventEffect};
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{Nationality, SideId, Theater};
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Concealed, Facing, FortificationCounter, Location, Marks,
    Phase, RosterRes, StackOrder, Suppression, TurnTrack, Unit, mark, marks,
};

use super::Dice;
use super::events::GameEvent;
use super::orders::Refusal;

/// The attack just resolved, noted by `fire::attack_location` and played
/// by `after_attack` once the attack's own effects are over (R 17.0).
#[derive(Resource, Debug, Clone, Copy)]
pub struct LastAttack {
    pub firer: Entity,
    pub target: Coord,
    pub roll: D10,
}

/// Notes an attack's roll; `after_attack` decides on the Combat Event.
pub fn note_attack(world: &mut World, firer: Entity, target: Coord, roll: D10) {
    world.insert_resource(LastAttack {
        firer,
        target,
        roll,
    });
}

/// The question the game waits for (R 17.0): `side` picks `count` of
/// `options` (unit ids, or entry numbers for "choose one event").
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct CombatEventDecision {
    pub side: SideId,
    pub question: String,
    pub options: Vec<String>,
    pub count: usize,
    job: Job,
}

/// One-time Command Points gained from the Combat Event Table (entry 9),
/// by side, as gained (the log's count); they are spent through
/// `command_points`, which keeps them apart from the turn's CPs.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventCommandPoints(pub [u8; 2]);

/// Squads and WTs eliminated so far, by id (for entry 4).
#[derive(Resource, Debug, Clone, Default)]
pub struct Graveyard(pub Vec<UnitId>);

/// Events waiting while an earlier one waits for its choice.
#[derive(Resource, Debug, Clone, Default)]
pub(crate) struct Jobs(VecDeque<Job>);

/// What the event still has to do, and who decides.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Job {
    /// The player rolling on the table.
    side: SideId,
    table: Table,
    step: Step,
    /// The attack that caused the event.
    firer: UnitId,
    target: Coord,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Effect(EventEffect),
    /// Entry 4, second pick: the Squad to place the returning one with.
    ReturnHost {
        squad: String,
    },
    /// Ambush: one casualty of the Melee attack, allocated by its owner.
    AmbushHit {
        at: Coord,
        in_cave: bool,
    },
    /// Entry 8, once the roller took Guns or Infantry: `count` of them.
    ReadyUnits {
        guns: bool,
        count: u8,
    },
}

/// What the log shows of a Combat Event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventLog {
    /// The additional roll after a firing 1.
    Check {
        unit: crate::world::UnitId,
        fire_roll: u8,
        roll: u8,
        outcome: CheckOutcome,
    },
    /// The roll on a table and the entry it gives.
    Entry {
        side: SideId,
        table: Table,
        roll: u8,
        entry: String,
        title: String,
    },
    /// The game waits for `side` to pick.
    Choose {
        side: SideId,
        count: usize,
        options: Vec<String>,
        question: String,
    },
    Picked {
        side: SideId,
        picks: Vec<String>,
    },
    /// Entry 10: the event chosen.
    ChosenEntry {
        side: SideId,
        entry: u8,
        title: String,
    },
    NoEffect {
        why: String,
    },
    Reduced {
        unit: crate::world::UnitId,
        why: String,
        /// It was Reduced already (or a WT in Melee): it is eliminated.
        eliminated: bool,
    },
    Removed {
        unit: crate::world::UnitId,
        why: String,
    },
    Restored {
        unit: crate::world::UnitId,
    },
    Returned {
        unit: crate::world::UnitId,
        at: String,
        with: String,
    },
    FortificationRevealed {
        at: String,
    },
    Concealed {
        unit: crate::world::UnitId,
    },
    MarkedUsed {
        unit: crate::world::UnitId,
    },
    Readied {
        unit: crate::world::UnitId,
        marker: &'static str,
    },
    CommandPoints {
        side: SideId,
        gained: u8,
        held: u8,
    },
    Fugg {
        unit: crate::world::UnitId,
        roll: u8,
        bonus: u8,
        total: u8,
        fires: bool,
    },
    AmbushAttack {
        unit: crate::world::UnitId,
        fp: u8,
        dice: Vec<u8>,
        hits: u8,
    },
    Banzai {
        unit: crate::world::UnitId,
    },
    /// The unit picked for the Banzai entry charges this turn (R 59.6).
    BanzaiCharges {
        unit: crate::world::UnitId,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckOutcome {
    NoEvent,
    Rolls(SideId, Table),
    NoJapanese,
}

fn side_word(s: SideId) -> &'static str {
    match s {
        SideId::Allies => "Allies",
        SideId::Axis => "Axis",
    }
}

impl EventLog {
    pub fn line(&self) -> String {
        match self {
            EventLog::Check {
                unit,
                fire_roll,
                roll,
                outcome,
            } => {
                let what = match outcome {
                    CheckOutcome::NoEvent => "no event".to_string(),
                    CheckOutcome::Rolls(side, table) => {
                        format!("{} roll on the {}", side_word(*side), table.name())
                    }
                    CheckOutcome::NoJapanese => {
                        "the Japanese Event Table, but no Japanese units: no event".to_string()
                    }
                };
                format!("{unit} rolled a {fire_roll}: Combat Event roll {roll} -> {what} (R 17.0)")
            }
            EventLog::Entry {
                side,
                table,
                roll,
                entry,
                title,
            } => format!(
                "{} roll {roll} on the {}: entry {entry}, {title} (R 17.0)",
                side_word(*side),
                table.name()
            ),
            EventLog::Choose {
                side,
                count,
                options,
                question,
            } => format!(
                "Combat Event: {} pick {count} of {}: {question} (R 17.0)",
                side_word(*side),
                options.join(", ")
            ),
            EventLog::Picked { side, picks } => {
                format!("{} pick {} (R 17.0)", side_word(*side), picks.join(", "))
            }
            EventLog::ChosenEntry { side, entry, title } => format!(
                "{} choose entry {entry}, {title} (R 17.0)",
                side_word(*side)
            ),
            EventLog::NoEffect { why } => format!("No event: {why} (R 17.0)"),
            EventLog::Reduced {
                unit,
                why,
                eliminated: false,
            } => format!("{unit} is Reduced and Fully Suppressed: {why} (R 17.0, R 8.0)"),
            EventLog::Reduced { unit, why, .. } => {
                format!("{unit} takes a casualty it cannot absorb: {why} (R 17.0, R 8.0)")
            }
            EventLog::Removed { unit, why } => format!("{unit} is removed: {why} (R 17.0)"),
            EventLog::Restored { unit } => {
                format!("{unit} flips to its Full Strength side and keeps its Suppression (R 17.0)")
            }
            EventLog::Returned { unit, at, with } => {
                format!("{unit} returns Used on its Reduced side in {at} with {with} (R 17.0)")
            }
            EventLog::FortificationRevealed { at } => {
                format!("The Fortification in {at} loses its Concealment (R 17.0)")
            }
            EventLog::Concealed { unit } => {
                format!("{unit} gains a Conceal counter (R 17.0, R 15.0)")
            }
            EventLog::MarkedUsed { unit } => format!("{unit} is marked Used (R 17.0)"),
            EventLog::Readied { unit, marker } => format!(
                "{unit} loses its {marker} counter and may be Used again this turn (R 17.0)"
            ),
            EventLog::CommandPoints { side, gained, held } => format!(
                "{} gain {gained} one-time CPs, {held} held (R 17.0)",
                side_word(*side)
            ),
            EventLog::Fugg {
                unit,
                roll,
                bonus,
                total,
                fires,
            } => {
                let sum = if *bonus > 0 {
                    format!("roll {roll} +{bonus} not Marines = {total}")
                } else {
                    format!("roll {roll}, Marines = {total}")
                };
                let result = if *fires {
                    "it fires at an imaginary target and is marked Used"
                } else {
                    "it holds its fire"
                };
                format!("{unit} is unused: {sum} -> {result} (R 17.0)")
            }
            EventLog::AmbushAttack {
                unit,
                fp,
                dice,
                hits,
            } => format!(
                "{unit} rolls a Melee attack with no bonus: Melee FP {fp}, dice {} -> {hits} {} (R 17.0, R 12.0)",
                dice.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" and "),
                if *hits == 1 { "casualty" } else { "casualties" }
            ),
            EventLog::Banzai { unit } => {
                format!("{unit} loses its Suppression to Banzai Charge (R 17.0, R 59.6)")
            }
            EventLog::BanzaiCharges { unit } => format!(
                "{unit} Banzai Charges this turn unless marked Op Fire: +4 MP, +2 Morale, +2 Melee FP, toward the closest enemy (R 59.6, R 17.0)"
            ),
        }
    }
}

fn log(events: &mut Vec<GameEvent>, e: EventLog) {
    events.push(GameEvent::CombatEvent(e));
}

/// Combat Events are played: the scenario's flag, always in the Pacific.
pub fn enabled(world: &World) -> bool {
    let sc = &world.resource::<ActiveScenario>().scenario;
    sc.special_rules.combat_events || sc.theater == Theater::Pacific
}

fn japanese_side(world: &World) -> Option<SideId> {
    world
        .resource::<ActiveScenario>()
        .scenario
        .sides
        .iter()
        .find(|c| c.nationality == Nationality::Japanese)
        .map(|c| c.side)
}

fn tables(world: &World) -> std::sync::Arc<crate::scenario::PlayerAid> {
    world.resource::<AidRes>().0.clone()
}

/// Notes the units these events eliminated, in any phase (for entry 4).
pub fn record_eliminations(world: &mut World, events: &[GameEvent]) {
    let add = |grave: &mut Graveyard| {
        for unit in events.iter().filter_map(GameEvent::eliminated_unit) {
            if !grave.0.iter().any(|g| g == unit) {
                grave.0.push(UnitId::from(unit));
            }
        }
    };
    // Written in place once it exists, and only when someone fell (this
    // runs after every order).
    if world.contains_resource::<Graveyard>() {
        if events.iter().any(|e| e.eliminated_unit().is_some()) {
            add(&mut world.resource_mut::<Graveyard>());
        }
        return;
    }
    let mut grave = Graveyard::default();
    add(&mut grave);
    world.insert_resource(grave);
}

/// After an attack is resolved (its MCs included): on a firing 1 in the
/// Operations Phase, the additional roll and the event (R 17.0).
pub fn after_attack(world: &mut World, events: &mut Vec<GameEvent>) {
    let Some(last) = world.remove_resource::<LastAttack>() else {
        return;
    };
    record_eliminations(world, events);
    if !enabled(world) {
        return;
    }
    let operations = world
        .get_resource::<TurnTrack>()
        .is_some_and(|t| t.phase == Phase::Operations);
    let Some(unit) = world.get::<Unit>(last.firer).cloned() else {
        return;
    };
    let Some(class) = world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .map(|t| t.class)
    else {
        return;
    };
    let aid = tables(world);
    let ce: &CombatEvents = &aid.combat_events;
    if !may_cause_event(ce, last.roll, class, operations) {
        return;
    }
    let roll = world.resource_mut::<Dice>().d10();
    let japanese = japanese_side(world);
    let who = who_rolls(ce, roll, unit.side, japanese);
    let outcome = match who {
        Some((side, table)) => CheckOutcome::Rolls(side, table),
        None if ce.event_roll(roll.0).is_some() => CheckOutcome::NoJapanese,
        None => CheckOutcome::NoEvent,
    };
    log(
        events,
        EventLog::Check {
            unit: unit.id.clone(),
            fire_roll: last.roll.0,
            roll: roll.0,
            outcome,
        },
    );
    let Some((side, table)) = who else {
        return;
    };
    let face = world.resource_mut::<Dice>().d10();
    let Some(entry) = CombatEvents::entry(table.entries(ce), face.0) else {
        return;
    };
    log(
        events,
        EventLog::Entry {
            side,
            table,
            roll: face.0,
            entry: if entry.from == entry.to {
                entry.from.to_string()
            } else {
                format!("{}-{}", entry.from, entry.to)
            },
            title: entry.title.clone(),
        },
    );
    let job = Job {
        side,
        table,
        step: Step::Effect(entry.effect),
        firer: unit.id,
        target: last.target,
    };
    world
        .get_resource_or_insert_with(Jobs::default)
        .0
        .push_back(job);
    run_jobs(world, events);
}

/// Plays queued events until one waits for a choice.
fn run_jobs(world: &mut World, events: &mut Vec<GameEvent>) {
    while !world.contains_resource::<CombatEventDecision>() {
        let Some(job) = world
            .get_resource_mut::<Jobs>()
            .and_then(|mut j| j.0.pop_front())
        else {
            return;
        };
        start(world, job, events);
    }
}

/// Every unit, as the entries see it, with its entity.
fn pieces(world: &mut World) -> Vec<(Entity, Piece)> {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = tables(world);
    let roster = world.resource::<RosterRes>().0.clone();
    let moving = world
        .get_resource::<super::movement::MoveInProgress>()
        .map(|m| m.mover);
    let mut q = world.query::<(Entity, &Unit, &Location, Has<Concealed>, &Marks)>();
    q.iter(world)
        .filter_map(|(e, u, l, concealed, marks)| {
            let t = roster.get(&u.kind)?;
            let beneficial = board
                .cell(l.coord)
                .and_then(|c| aid.terrain_row(c.terrain.key()))
                .is_some_and(|r| r.beneficial)
                || board.fortifications_at(l.coord).next().is_some();
            Some((
                e,
                Piece {
                    id: u.id.clone(),
                    side: u.side,
                    class: t.class,
                    nationality: t.nationality,
                    at: l.coord,
                    in_cave: l.in_cave,
                    reduced: u.reduced,
                    concealed,
                    used: marks.used,
                    op_fire: marks.op_fire,
                    beneficial,
                    moving: moving == Some(e),
                },
            ))
        })
        .collect()
}

fn entity_of(world: &mut World, id: &str) -> Option<Entity> {
    let mut q = world.query::<(Entity, &Unit)>();
    q.iter(world).find(|(_, u)| u.id == id).map(|(e, _)| e)
}

/// A unit named in the scenario: its type, side and company.
fn scenario_unit(world: &World, id: &str) -> Option<(String, SideId, Option<String>)> {
    let sc = &world.resource::<ActiveScenario>().scenario;
    sc.setup
        .iter()
        .find(|p| p.id == id)
        .map(|p| (p.unit.clone(), p.side, p.company.clone()))
        .or_else(|| {
            sc.reinforcements.iter().find_map(|r| {
                r.units
                    .iter()
                    .find(|u| u.id == id)
                    .map(|u| (u.unit.clone(), r.side, None))
            })
        })
}

/// Entry 4: eliminated Squads that some lone Squad could take in.
fn returnable(world: &mut World, all: &[Piece]) -> Vec<String> {
    let grave = world
        .get_resource::<Graveyard>()
        .cloned()
        .unwrap_or_default();
    let roster = world.resource::<RosterRes>().0.clone();
    let mut v: Vec<String> = grave
        .0
        .iter()
        .filter(|id| !all.iter().any(|p| &p.id == *id))
        .filter(|id| {
            scenario_unit(world, id).is_some_and(|(kind, side, _)| {
                roster.get(&kind).is_some_and(|t| {
                    is_squad(t.class) && !return_hosts(all, side, t.nationality).is_empty()
                })
            })
        })
        .map(|id| id.to_string())
        .collect();
    v.sort();
    v
}

/// The options of a step, how many to pick, the question, who decides, and
/// the words for "nothing qualifies".
struct Ask {
    options: Vec<String>,
    count: usize,
    question: String,
    side: SideId,
    none: &'static str,
}

/// Entry 8's units: `count` Infantry units, or Guns.
fn ready_ask(options: Vec<String>, count: u8, guns: bool, side: SideId) -> Ask {
    Ask {
        options,
        count: usize::from(count),
        question: if guns {
            "the Gun that loses its Used or Op Fire counter".to_string()
        } else {
            "Infantry units that lose their Used or Op Fire counter".to_string()
        },
        side,
        none: "no Infantry unit or Gun with a Used or Op Fire counter",
    }
}

fn ask(world: &mut World, job: &Job) -> Ask {
    let all: Vec<Piece> = pieces(world).into_iter().map(|(_, p)| p).collect();
    let aid = tables(world);
    let ask = |options: Vec<String>, count: usize, question: &str, none: &'static str| Ask {
        options,
        count,
        question: question.to_string(),
        side: job.side,
        none,
    };
    match &job.step {
        Step::ReturnHost { squad } => {
            let hosts = scenario_unit(world, squad)
                .and_then(|(kind, side, _)| {
                    let t = world.resource::<RosterRes>().0.get(&kind).cloned()?;
                    Some(return_hosts(&all, side, t.nationality))
                })
                .unwrap_or_default();
            ask(
                hosts,
                1,
                &format!("the lone Squad {squad} is placed with"),
                "no lone Squad of its nationality",
            )
        }
        Step::ReadyUnits { guns, count } => {
            let v = if *guns {
                ready_gun_options(&all)
            } else {
                ready_options(&all)
            };
            ready_ask(v, *count, *guns, job.side)
        }
        Step::AmbushHit { at, in_cave } => {
            let victims: Vec<String> = all
                .iter()
                .filter(|p| p.side != job.side && p.at == *at && p.in_cave == *in_cave)
                .map(|p| p.id.to_string())
                .collect();
            let mut a = ask(
                victims,
                1,
                "the unit that takes the Melee casualty (owner's choice, R 12.0)",
                "no enemy unit left in the Melee",
            );
            a.side = job.side.other();
            a
        }
        Step::Effect(effect) => {
            let n = picks(*effect);
            match *effect {
                EventEffect::Casualty => ask(
                    casualty_options(&all, &job.firer, job.target),
                    n,
                    "the unit that made the roll or one unit fired upon is Reduced (a Decoy or Gun is removed; no Vehicles or SATTs are in the game)",
                    "neither the firer nor a unit fired upon is left",
                ),
                EventEffect::Sniper { enemy_only, .. } => ask(
                    sniper_options(&all, job.side, enemy_only),
                    n,
                    "an unconcealed Squad/WT the sniper Reduces",
                    if enemy_only {
                        "no enemy unit qualifies"
                    } else {
                        "no unconcealed Squad/WT"
                    },
                ),
                EventEffect::Restore { .. } => ask(
                    restore_options(&all),
                    n,
                    "a Reduced Squad that flips to its Full Strength side",
                    "no Reduced Squad",
                ),
                EventEffect::Return { .. } => ask(
                    returnable(world, &all),
                    n,
                    "an eliminated Squad that returns, Reduced and Used",
                    "no eliminated Squad can join a lone Squad of its nationality",
                ),
                EventEffect::Reveal { .. } => ask(
                    reveal_options(&all, job.side),
                    n,
                    "enemy units that lose their Concealment",
                    "no Concealed enemy unit",
                ),
                EventEffect::Conceal { .. } => ask(
                    conceal_options(&world.resource::<BoardRes>().0, &all),
                    n,
                    "unconcealed Squads/WTs in Beneficial Terrain, not adjacent to an enemy, that gain Concealment",
                    "no unconcealed Squad/WT in Beneficial Terrain away from the enemy",
                ),
                EventEffect::MarkUsed { .. } => ask(
                    mark_used_options(&all),
                    n,
                    "unconcealed Squads/WTs marked Used",
                    "no unconcealed Squad/WT left to mark Used",
                ),
                EventEffect::Ready { infantry, assets } => match ready_choice(&all) {
                    ReadyChoice::Either => ask(
                        vec![READY_INFANTRY.to_string(), READY_GUN.to_string()],
                        1,
                        &format!(
                            "remove Used/Op Fire counters from {infantry} Infantry units or {assets} Gun (no Vehicles or Carriers are in the game)"
                        ),
                        "",
                    ),
                    ReadyChoice::Infantry(v) => ready_ask(v, infantry, false, job.side),
                    ReadyChoice::Guns(v) => ready_ask(v, assets, true, job.side),
                    ReadyChoice::Nothing => Ask {
                        options: Vec::new(),
                        count: n,
                        question: String::new(),
                        side: job.side,
                        none: "no Infantry unit or Gun with a Used or Op Fire counter",
                    },
                },
                EventEffect::CommandPoints { .. } => ask(Vec::new(), 0, "", ""),
                EventEffect::Choose => ask(
                    choose_options(job.table.entries(&aid.combat_events)),
                    n,
                    "the entry of the Combat Event Table that happens",
                    "",
                ),
                EventEffect::FuggBabeRuth { .. } => ask(
                    fugg_options(&all, job.side),
                    n,
                    "an enemy Infantry unit that may give itself away",
                    "no enemy Infantry unit",
                ),
                EventEffect::Ambush => ask(
                    ambush_options(&all, job.side),
                    n,
                    "a unit in Melee that rolls a Melee attack",
                    "no Melee on the board",
                ),
                EventEffect::Banzai => {
                    let mut a = ask(
                        banzai_options(&all, job.side),
                        n,
                        "a Japanese non-GD Squad that removes Suppression and Banzai Charges",
                        "no Japanese Squad may Banzai Charge",
                    );
                    // The non-Japanese player chooses.
                    a.side = job.side.other();
                    a
                }
            }
        }
    }
}

/// Starts a step: applied at once when there is nothing to choose, else the
/// game waits for the player's pick.
fn start(world: &mut World, job: Job, events: &mut Vec<GameEvent>) {
    let a = ask(world, &job);
    if a.count == 0 {
        apply(world, &job, &[], events);
    } else if a.options.is_empty() {
        log(
            events,
            EventLog::NoEffect {
                why: a.none.to_string(),
            },
        );
    } else if a.options.len() <= a.count {
        apply(world, &job, &a.options, events);
    } else {
        log(
            events,
            EventLog::Choose {
                side: a.side,
                count: a.count,
                options: a.options.clone(),
                question: a.question.clone(),
            },
        );
        world.insert_resource(CombatEventDecision {
            side: a.side,
            question: a.question,
            options: a.options,
            count: a.count,
            job,
        });
    }
}

/// The answer to a Combat Event decision: exactly the number of distinct
/// picks asked for, each among the options (checked again now).
pub fn answer(
    world: &mut World,
    picked: &[String],
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Some(d) = world.get_resource::<CombatEventDecision>().cloned() else {
        return Err(Refusal::NoCombatEventPending);
    };
    let now = ask(world, &d.job);
    let bad = |reason: String| Err(Refusal::CombatEventPick { reason });
    if picked.len() != d.count {
        return bad(format!(
            "pick exactly {} of {} (R 17.0)",
            d.count,
            now.options.join(", ")
        ));
    }
    for (i, p) in picked.iter().enumerate() {
        if !now.options.contains(p) || picked[..i].contains(p) {
            return bad(format!(
                "`{p}` is not one of {} (R 17.0)",
                now.options.join(", ")
            ));
        }
    }
    world.remove_resource::<CombatEventDecision>();
    log(
        events,
        EventLog::Picked {
            side: d.side,
            picks: picked.to_vec(),
        },
    );
    apply(world, &d.job, picked, events);
    run_jobs(world, events);
    Ok(())
}

/// Queues a follow-up step before any other waiting event.
fn then(world: &mut World, job: Job) {
    world
        .get_resource_or_insert_with(Jobs::default)
        .0
        .push_front(job);
}

/// Reduces a unit (R 8.0): a Reduced one, or a WT in Melee (R 12.0), is
/// eliminated; otherwise it flips and is Fully Suppressed, losing any
/// Conceal counter (R 15.0). A Decoy is removed; a Gun is removed and
/// counts as eliminated (entry 1; R 20.2, R 20.8 in the Ambush's Melee).
fn reduce(world: &mut World, e: Entity, why: &str, melee: bool, events: &mut Vec<GameEvent>) {
    let by = super::casualties::By::CombatEvent { why, melee };
    super::casualties::take(world, e, super::casualties::Hit::Reduce, by, events);
}

/// Plays a step with its picks.
fn apply(world: &mut World, job: &Job, picked: &[String], events: &mut Vec<GameEvent>) {
    let targets: Vec<(String, Entity)> = picked
        .iter()
        .filter_map(|id| entity_of(world, id).map(|e| (id.clone(), e)))
        .collect();
    match &job.step {
        Step::ReturnHost { squad } => {
            if let Some((host_id, host)) = targets.first() {
                place_returning(world, squad, host_id, *host, events);
            }
        }
        Step::ReadyUnits { .. } => ready_units(world, &targets, events),
        Step::AmbushHit { .. } => {
            for (_, e) in &targets {
                reduce(world, *e, "a Melee casualty of the Ambush", true, events);
            }
        }
        Step::Effect(effect) => apply_effect(world, job, *effect, picked, &targets, events),
    }
}

fn apply_effect(
    world: &mut World,
    job: &Job,
    effect: EventEffect,
    picked: &[String],
    targets: &[(String, Entity)],
    events: &mut Vec<GameEvent>,
) {
    match effect {
        EventEffect::Casualty => {
            for (_, e) in targets {
                reduce(world, *e, "a casualty of the Combat Event", false, events);
            }
        }
        EventEffect::Sniper { .. } => {
            for (_, e) in targets {
                reduce(world, *e, "a Sniper Attack", false, events);
            }
        }
        EventEffect::Restore { .. } => {
            for (id, e) in targets {
                if let Some(mut u) = world.get_mut::<Unit>(*e) {
                    u.reduced = false;
                }
                log(
                    events,
                    EventLog::Restored {
                        unit: UnitId::from(id),
                    },
                );
            }
        }
        EventEffect::Return { .. } => {
            for squad in picked {
                then(
                    world,
                    Job {
                        step: Step::ReturnHost {
                            squad: squad.clone(),
                        },
                        ..job.clone()
                    },
                );
            }
        }
        EventEffect::Reveal { .. } => {
            for (_, e) in targets {
                reveal(world, *e, events);
            }
        }
        EventEffect::Conceal { .. } => {
            for (id, e) in targets {
                // A −2 counter, once lost, is never regained (R 59.2).
                world.entity_mut(*e).insert(Concealed { minus_two: false });
                log(
                    events,
                    EventLog::Concealed {
                        unit: UnitId::from(id),
                    },
                );
            }
        }
        EventEffect::MarkUsed { .. } => {
            for (id, e) in targets {
                mark(world, *e, crate::world::Marks::flip_to_used);
                log(
                    events,
                    EventLog::MarkedUsed {
                        unit: UnitId::from(id),
                    },
                );
            }
        }
        EventEffect::Ready { infantry, assets } => {
            let all: Vec<Piece> = pieces(world).into_iter().map(|(_, p)| p).collect();
            if ready_choice(&all) == ReadyChoice::Either {
                // The roller chose the kind; the units come next.
                let guns = picked.first().is_some_and(|p| p == READY_GUN);
                then(
                    world,
                    Job {
                        step: Step::ReadyUnits {
                            guns,
                            count: if guns { assets } else { infantry },
                        },
                        ..job.clone()
                    },
                );
            } else {
                ready_units(world, targets, events);
            }
        }
        EventEffect::CommandPoints { cps } => {
            // Spendable like any CP, not returned at the turn's end (R 3.0).
            super::command_points::grant_one_time(world, job.side, cps);
            let mut held = world.get_resource_or_insert_with(EventCommandPoints::default);
            let n = &mut held.0[job.side.index()];
            *n = n.saturating_add(cps);
            let held = *n;
            log(
                events,
                EventLog::CommandPoints {
                    side: job.side,
                    gained: cps,
                    held,
                },
            );
        }
        EventEffect::Choose => {
            let aid = tables(world);
            let chosen = picked
                .first()
                .and_then(|p| p.parse::<u8>().ok())
                .and_then(|n| CombatEvents::entry(job.table.entries(&aid.combat_events), n));
            if let Some(entry) = chosen {
                log(
                    events,
                    EventLog::ChosenEntry {
                        side: job.side,
                        entry: entry.from,
                        title: entry.title.clone(),
                    },
                );
                then(
                    world,
                    Job {
                        step: Step::Effect(entry.effect),
                        ..job.clone()
                    },
                );
            }
        }
        EventEffect::FuggBabeRuth {
            fires_on,
            non_marine_bonus,
        } => {
            if let Some((id, e)) = targets.first() {
                fugg(world, id, *e, fires_on, non_marine_bonus, events);
            }
        }
        EventEffect::Ambush => {
            if let Some((id, e)) = targets.first() {
                ambush(world, job, id, *e, events);
            }
        }
        EventEffect::Banzai => {
            for (id, e) in targets {
                world.entity_mut(*e).remove::<Suppression>();
                log(
                    events,
                    EventLog::Banzai {
                        unit: UnitId::from(id),
                    },
                );
                // It charges when it is next Used this turn, by the rules
                // of an SSR charge, unless marked Op Fire (R 59.6).
                world.entity_mut(*e).insert(super::banzai::Banzai);
                log(
                    events,
                    EventLog::BanzaiCharges {
                        unit: UnitId::from(id),
                    },
                );
            }
        }
    }
}

/// Entry 8: the units lose their Used or Op Fire counter; a side that had
/// finished may act again when the Ops Range reverts to it (R 17.0).
fn ready_units(world: &mut World, targets: &[(String, Entity)], events: &mut Vec<GameEvent>) {
    for (id, e) in targets {
        let marker = if marks(world, *e).used {
            "Used"
        } else {
            "Op Fire"
        };
        let side = world.get::<Unit>(*e).map(|u| u.side);
        mark(world, *e, |m| {
            m.used = false;
            m.op_fire = false;
        });
        if let (Some(side), Some(mut state)) = (
            side,
            world.get_resource_mut::<super::operations::OpsState>(),
        ) {
            state.finished[side.index()] = false;
        }
        log(
            events,
            EventLog::Readied {
                unit: UnitId::from(id),
                marker,
            },
        );
    }
}

/// Entry 4, placed: Used, on its Reduced side, with the lone Squad, which
/// gives up its Concealment if it must.
fn place_returning(
    world: &mut World,
    squad: &str,
    host_id: &str,
    host: Entity,
    events: &mut Vec<GameEvent>,
) {
    let Some((kind, side, company)) = scenario_unit(world, squad) else {
        return;
    };
    let Some(loc) = world.get::<Location>(host).copied() else {
        return;
    };
    let facing = world.get::<Facing>(host).copied();
    super::concealment::reveal(world, host, "a returning Squad joins it, R 17.0", events);
    let mut q = world.query::<(&Location, &StackOrder)>();
    let top = q
        .iter(world)
        .filter(|(l, _)| **l == loc)
        .map(|(_, s)| s.0 + 1)
        .max()
        .unwrap_or(0);
    let mut e = world.spawn((
        Unit {
            id: UnitId::from(squad),
            kind: kind.into(),
            side,
            reduced: true,
            company: company.map(Into::into),
        },
        loc,
        StackOrder(top),
        Marks {
            used: true,
            ..Marks::default()
        },
    ));
    if let Some(f) = facing {
        e.insert(f);
    }
    log(
        events,
        EventLog::Returned {
            unit: UnitId::from(squad),
            at: loc.coord.label(),
            with: host_id.to_string(),
        },
    );
}

/// Entry 5: the unit loses its Concealment (a Decoy is removed), and so does
/// a Fortification it is in.
fn reveal(world: &mut World, e: Entity, events: &mut Vec<GameEvent>) {
    let Some(loc) = world.get::<Location>(e).copied() else {
        return;
    };
    let mut q = world.query::<(&mut FortificationCounter, &Location)>();
    let mut revealed = false;
    for (mut f, l) in q.iter_mut(world) {
        if l.coord == loc.coord && f.concealed {
            f.concealed = false;
            revealed = true;
        }
    }
    if revealed {
        log(
            events,
            EventLog::FortificationRevealed {
                at: loc.coord.label(),
            },
        );
    }
    super::concealment::reveal(world, e, "spotted in a Combat Event, R 17.0", events);
}

/// Fugg Babe Ruth: revealed; if unused and not a Decoy, the roll may make
/// it fire at nothing, which marks it Used (and gives a Muzzle Flash at
/// night, R 50.2).
fn fugg(
    world: &mut World,
    id: &str,
    e: Entity,
    fires_on: u8,
    non_marine_bonus: u8,
    events: &mut Vec<GameEvent>,
) {
    if !super::concealment::reveal(world, e, "Fugg Babe Ruth, R 17.0", events) {
        return;
    }
    let roster = world.resource::<RosterRes>().0.clone();
    let Some(t) = world.get::<Unit>(e).and_then(|u| roster.get(&u.kind)) else {
        return;
    };
    if marks(world, e).used || t.class == UnitClass::Decoy {
        return;
    }
    let marine = t.nationality == Nationality::UsMarines;
    let roll = world.resource_mut::<Dice>().d10();
    let (total, fires) = fugg_fires(roll, marine, fires_on, non_marine_bonus);
    log(
        events,
        EventLog::Fugg {
            unit: UnitId::from(id),
            roll: roll.0,
            bonus: if marine { 0 } else { non_marine_bonus },
            total,
            fires,
        },
    );
    if fires {
        mark(world, e, crate::world::Marks::flip_to_used);
        // It fired: at Night its Muzzle Flash may be answered like any
        // fire's (R 50.2); the chain opens once the event is over.
        super::night::fired(world, e);
    }
}

/// Ambush: the Japanese unit rolls its Melee dice with no bonus; each die
/// at or under its Melee FP Reduces an enemy unit in the Melee, chosen by
/// its owner (R 12.0).
fn ambush(world: &mut World, job: &Job, id: &str, e: Entity, events: &mut Vec<GameEvent>) {
    let aid = tables(world);
    let roster = world.resource::<RosterRes>().0.clone();
    let (Some(unit), Some(loc)) = (
        world.get::<Unit>(e).cloned(),
        world.get::<Location>(e).copied(),
    ) else {
        return;
    };
    let Some(t) = roster.get(&unit.kind) else {
        return;
    };
    let values = if unit.reduced { &t.reduced } else { &t.full };
    let fp = melee_fp(&aid, t.class, values, unit.reduced, false);
    let dice: Vec<D10> = (0..aid.constants.melee_dice)
        .map(|_| world.resource_mut::<Dice>().d10())
        .collect();
    let hits = melee_hits(fp, &dice);
    log(
        events,
        EventLog::AmbushAttack {
            unit: UnitId::from(id),
            fp,
            dice: dice.iter().map(|d| d.0).collect(),
            hits,
        },
    );
    for _ in 0..hits {
        then(
            world,
            Job {
                step: Step::AmbushHit {
                    at: loc.coord,
                    in_cave: loc.in_cave,
                },
                ..job.clone()
            },
        );
    }
}
