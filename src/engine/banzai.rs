//! The Japanese Banzai Charge by SSR — R 59.6: at the start of a turn,
//! before any action, the charge is announced, Suppression comes off
//! every Japanese unit and every Japanese Squad (GD Squads excepted) must
//! charge unless it is marked Op Fire: +4 MP, +2 Morale in all phases, +2
//! Melee FP, no Assault Fire, and a path to the closest enemy hex by the
//! fewest MPs (`rules::banzai`). The card lists windows, ranges of turns
//! with one charge each: the Japanese choose its turn, and on a window's
//! last turn it comes without asking. Until the last required charge is
//! called no other Japanese Squad move goes closer to its Rout Edge.

use crate::world::UnitId;
use std::sync::Arc;

use bevy::prelude::*;

use crate::rules::Mp;
use crate::rules::banzai::{charge_targets, cheapest, check_charge, due_windows, from_edge};
use crate::rules::movement::MoveRules;
use crate::scenario::Coord;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{BanzaiWindow, Nationality, SideId};
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Location, Marks, RosterRes, Suppression, TurnTrack, Unit,
    mark, marks,
};

use super::events::GameEvent;
use super::orders::{Order, Refusal};
use super::pacific::PacificEvent;

/// The Squad charges this turn (R 59.6); it stops charging when marked Op
/// Fire.
#[derive(Component, Debug, Clone, Copy)]
pub struct Banzai;

/// Whether `entity` charges now: a Banzai counter and no Op Fire marker.
pub fn charging(world: &World, entity: Entity) -> bool {
    world.get::<Banzai>(entity).is_some() && !marks(world, entity).op_fire
}

/// +4 MP for a charging Squad (R 59.6).
pub fn mp_bonus(world: &World, entity: Entity) -> Mp {
    if charging(world, entity) {
        Mp::whole(u16::from(world.resource::<AidRes>().0.constants.banzai_mp))
    } else {
        Mp(0)
    }
}

/// +2 Melee FP for a Squad that charged this turn (R 59.6).
pub fn melee_bonus(world: &World, entity: Entity) -> u8 {
    if world.get::<Banzai>(entity).is_some() {
        world.resource::<AidRes>().0.constants.banzai_melee_fp
    } else {
        0
    }
}

fn japanese(world: &World, unit: &Unit) -> Option<UnitClass> {
    world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .filter(|t| t.nationality == Nationality::Japanese)
        .map(|t| t.class)
}

/// The turns on which a Banzai Charge was announced this game: the window
/// holding such a turn is spent (R 59.6).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Called(pub Vec<u8>);

/// The card's Banzai windows (R 59.6).
fn windows(world: &World) -> Vec<BanzaiWindow> {
    world
        .resource::<ActiveScenario>()
        .scenario
        .special_rules
        .banzai_windows()
}

/// The windows whose charge is still to be called: not spent and not over
/// (R 59.6), in turn order. While there is one, no Japanese Squad moves
/// closer to its Rout Edge.
pub fn due(world: &World) -> Vec<BanzaiWindow> {
    let called = world.get_resource::<Called>().map_or(&[][..], |c| &c.0[..]);
    due_windows(&windows(world), called, world.resource::<TurnTrack>().turn)
}

/// What the start of a turn brought (R 59.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnStart {
    /// No charge this turn.
    Quiet,
    /// The charge is announced: its GD and Op Fire choices follow.
    Announced,
    /// A window is open and this is not its last turn: the Japanese are
    /// asked whether to call it now.
    Ask(BanzaiWindow),
}

/// The start of a turn (reinforcements placed, before any action): last
/// turn's Banzai counters go; in an open window (R 59.6) the charge is
/// announced on the window's last turn, asked for on its earlier ones.
pub fn begin_turn(world: &mut World, events: &mut Vec<GameEvent>) -> TurnStart {
    let old: Vec<Entity> = crate::world::queries::collect::<Entity, With<Banzai>, _>(world, |e| e);
    for e in old {
        world.entity_mut(e).remove::<Banzai>();
    }
    let turn = world.resource::<TurnTrack>().turn;
    let Some(w) = due(world).into_iter().find(|w| w.contains(turn)) else {
        return TurnStart::Quiet;
    };
    if turn < w.to {
        return TurnStart::Ask(w);
    }
    if w.from < w.to {
        events.push(GameEvent::Pacific(PacificEvent::BanzaiForced {
            turn,
            from: w.from,
        }));
    }
    announce(world, events);
    TurnStart::Announced
}

/// After the turn's Ops Range started, before its first order: the
/// announced charge's choices, or the question whether to call it now.
pub fn ask_at_start(world: &mut World, start: TurnStart, events: &mut Vec<GameEvent>) {
    match start {
        TurnStart::Quiet => {}
        TurnStart::Announced => ask_gd(world, events),
        TurnStart::Ask(w) => {
            let sc = &world.resource::<ActiveScenario>().scenario;
            let side = sc
                .sides
                .iter()
                .find(|s| s.nationality == Nationality::Japanese)
                .map_or(SideId::Axis, |s| s.side);
            let turn = world.resource::<TurnTrack>().turn;
            crate::engine::decision::ask(
                world,
                crate::engine::decision::Decision::BanzaiAnnounce {
                    side,
                    turn,
                    last: w.to,
                },
                events,
            );
        }
    }
}

/// The answer to the question: the charge now, with its choices, or a
/// later turn of the window (R 59.6).
pub fn answer_announce(world: &mut World, now: bool, events: &mut Vec<GameEvent>) {
    world.remove_resource::<crate::engine::decision::Pending>();
    if now {
        announce(world, events);
        ask_gd(world, events);
    } else {
        let turn = world.resource::<TurnTrack>().turn;
        let last = due(world).first().map_or(turn, |w| w.to);
        events.push(GameEvent::Pacific(PacificEvent::BanzaiWaits { turn, last }));
    }
}

/// The announcement (R 59.6): Suppression comes off every Japanese unit
/// and every Japanese Squad charges; the GD Squads and the Allied Op Fire
/// marking are asked next (`ask_gd`). The window is spent.
fn announce(world: &mut World, events: &mut Vec<GameEvent>) {
    let turn = world.resource::<TurnTrack>().turn;
    world
        .get_resource_or_insert_with(Called::default)
        .0
        .push(turn);
    let mut rallied = Vec::new();
    let mut charging = Vec::new();
    for (id, e, u) in sorted_units(world) {
        let Some(class) = japanese(world, &u) else {
            continue;
        };
        if world.get::<Suppression>(e).is_some() {
            world.entity_mut(e).remove::<Suppression>();
            rallied.push(id.clone());
        }
        // GD Squads may charge but need not (R 59.6): asked in `ask_gd`.
        if class == UnitClass::Squad {
            world.entity_mut(e).insert(Banzai);
            charging.push(id);
        }
    }
    events.push(GameEvent::Pacific(PacificEvent::BanzaiAnnounced {
        turn,
        rallied,
        charging,
    }));
}

/// Every unit with its entity, sorted by id.
fn sorted_units(world: &mut World) -> Vec<(UnitId, Entity, Unit)> {
    let mut q = world.query::<(Entity, &Unit)>();
    let mut units: Vec<(UnitId, Entity, Unit)> = q
        .iter(world)
        .map(|(e, u)| (u.id.clone(), e, u.clone()))
        .collect();
    units.sort_by(|a, b| a.0.cmp(&b.0));
    units
}

/// After the announcement: the Japanese player chooses which GD Squads
/// charge, if he has any on the board; else the Allied Op Fire marking
/// follows at once (R 59.6).
pub fn ask_gd(world: &mut World, events: &mut Vec<GameEvent>) {
    let mut side = None;
    let mut gds = Vec::new();
    for (id, e, u) in sorted_units(world) {
        if japanese(world, &u) == Some(UnitClass::GdSquad) && world.get::<Location>(e).is_some() {
            side = Some(u.side);
            gds.push(id.to_string());
        }
    }
    match side {
        Some(side) => crate::engine::decision::ask(
            world,
            crate::engine::decision::Decision::BanzaiGd { side, units: gds },
            events,
        ),
        None => ask_op_fire(world, events),
    }
}

/// Checks that an answer names only offered units, each once; the
/// decision is then answered: the picked units, by id.
fn take_picks(
    world: &mut World,
    choices: &[String],
    picks: &[String],
) -> Result<Vec<(UnitId, Entity)>, Refusal> {
    for (i, p) in picks.iter().enumerate() {
        if !choices.contains(p) || picks[..i].contains(p) {
            return Err(Refusal::WrongAnswer {
                reason: format!("{p} is not one of {} (R 59.6)", choices.join(", ")),
            });
        }
    }
    world.remove_resource::<crate::engine::decision::Pending>();
    Ok(sorted_units(world)
        .into_iter()
        .filter(|(id, ..)| picks.iter().any(|p| p == id))
        .map(|(id, e, _)| (id, e))
        .collect())
}

/// The answer to the GD choice: these GD Squads charge too (R 59.6).
pub fn answer_gd(
    world: &mut World,
    choices: &[String],
    picks: &[String],
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    for (_, e) in take_picks(world, choices, picks)? {
        world.entity_mut(e).insert(Banzai);
    }
    let mut charging: Vec<UnitId> = picks.iter().map(UnitId::from).collect();
    charging.sort();
    events.push(GameEvent::Pacific(PacificEvent::BanzaiGdSquads {
        charging,
    }));
    ask_op_fire(world, events);
    Ok(())
}

/// "The Allied player may mark any of his own units Op Fire" (R 59.6):
/// his units on the board, unmarked and not in Melee, are offered.
fn ask_op_fire(world: &mut World, events: &mut Vec<GameEvent>) {
    let all =
        crate::world::queries::collect::<(&Unit, &Location, &Marks), (), _>(world, |(u, l, m)| {
            (u.id.clone(), u.side, *l, m.used || m.op_fire)
        });
    let Some(japanese_side) = sorted_units(world)
        .into_iter()
        .find(|(_, _, u)| japanese(world, u).is_some())
        .map(|(_, _, u)| u.side)
    else {
        return;
    };
    let side = japanese_side.other();
    let mut units: Vec<String> = all
        .iter()
        .filter(|(_, s, l, marked)| {
            *s == side && !marked && !all.iter().any(|(_, o, ol, _)| *o != side && ol == l)
        })
        .map(|(id, ..)| id.to_string())
        .collect();
    if units.is_empty() {
        return;
    }
    units.sort();
    crate::engine::decision::ask(
        world,
        crate::engine::decision::Decision::BanzaiOpFire { side, units },
        events,
    );
}

/// The answer to the Allied Op Fire marking: these units are marked Op
/// Fire outside the Ops Range, as they face, and may regain Concealment
/// like any unit marked Op Fire (R 59.6, R 4.3, R 15.0).
pub fn answer_op_fire(
    world: &mut World,
    side: SideId,
    choices: &[String],
    picks: &[String],
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let marked = take_picks(world, choices, picks)?;
    for (_, e) in &marked {
        mark(world, *e, |m| m.op_fire = true);
    }
    events.push(GameEvent::Pacific(PacificEvent::BanzaiOpFireMarked {
        side,
        units: marked.iter().map(|(id, _)| id.clone()).collect(),
    }));
    for (_, e) in marked {
        super::concealment::regain_concealment(
            world,
            e,
            "marked Op Fire out of all enemy LOS",
            events,
        );
    }
    // A side with nothing left to Use lets the other go on (R 4.1).
    super::operations::settle(world, events);
    Ok(())
}

fn refuse(unit: &str, reason: impl Into<String>) -> Refusal {
    Refusal::Banzai {
        unit: UnitId::from(unit),
        reason: reason.into(),
    }
}

/// R 59.6 on an order: a charging Squad may not be marked Used, fire or
/// Assault Fire, and moves by the charge path; before the last required
/// charge no Japanese Squad moves closer to its Rout Edge.
pub fn check_order(world: &mut World, order: &Order) -> Result<(), Refusal> {
    let unit = match order {
        Order::MarkUsed { unit }
        | Order::Fire { unit, .. }
        | Order::Move { unit, .. }
        | Order::RegenerateDecoy { unit, .. }
        | Order::PlaceSmoke { unit, .. }
        | Order::Clear { unit } => unit,
        _ => return Ok(()),
    };
    // Only Japanese units are bound, and a unit's type is of its side's
    // nationality (the scenario's check): without a Japanese side there is
    // nothing to look up.
    if !world
        .resource::<ActiveScenario>()
        .scenario
        .sides
        .iter()
        .any(|c| c.nationality == Nationality::Japanese)
    {
        return Ok(());
    }
    let Some((entity, u, loc)) =
        crate::world::queries::with_query::<(Entity, &Unit, &Location), (), _>(world, |mut q| {
            q.find(|(_, u, _)| &u.id == unit)
                .map(|(e, u, l)| (e, u.clone(), *l))
        })
    else {
        return Ok(());
    };
    let class = japanese(world, &u);
    match class {
        Some(UnitClass::Squad) => {}
        // A GD Squad is bound only when it chose to charge.
        Some(UnitClass::GdSquad) if world.get::<Banzai>(entity).is_some() => {}
        _ => return Ok(()),
    }
    let charges = charging(world, entity) && !marks(world, entity).used;
    // The charge's own path rule governs a charging Squad's move, even
    // toward the Rout Edge (R 59.6, docs/decisions.md).
    if let Order::Move { path, .. } = order
        && !charges
        && class == Some(UnitClass::Squad)
    {
        check_rout_edge(world, &u, loc.coord, path)?;
    }
    if !charges {
        return Ok(());
    }
    match order {
        Order::MarkUsed { .. }
        | Order::Fire { .. }
        | Order::RegenerateDecoy { .. }
        | Order::PlaceSmoke { .. }
        | Order::Clear { .. } => Err(refuse(
            unit,
            "it must Banzai Charge unless it is marked Op Fire (R 59.6)",
        )),
        Order::Move {
            path,
            declared_retreat,
            assault_fire,
            fireteam_fire,
            ..
        } => {
            if assault_fire.is_some() || fireteam_fire.is_some() {
                return Err(refuse(
                    unit,
                    "a charging Squad may not Assault Fire (R 59.6)",
                ));
            }
            if *declared_retreat {
                return Err(refuse(unit, "a charging Squad may not retreat (R 59.6)"));
            }
            check_path(world, entity, &u, loc.coord, path)
        }
        _ => Ok(()),
    }
}

fn parse_path(world: &World, path: &[String]) -> Option<Vec<Coord>> {
    let board = world.resource::<BoardRes>().0.clone();
    path.iter()
        .map(|l| Coord::parse(l, board.columns, board.rows).ok())
        .collect()
}

/// What the fewest MPs of a charge depend on besides the world's map and
/// Player Aid: the movement rules, the start, the MP allowance and the
/// enemy hexes (a move stops in one, R 5.0).
#[derive(PartialEq)]
struct CheapestKey {
    rules: MoveRules,
    start: Coord,
    allowance: Mp,
    stops: Vec<Coord>,
}

type Costs = Arc<std::collections::HashMap<Coord, Mp>>;

/// The last charges searched in this game: the random player and the bot
/// ask the same Squad's charge again and again while no enemy moves. A
/// resource of the world (`phases::prepare` makes it), with the board and
/// Player Aid the searches were made on (held, so never another's); a
/// world without it searches every time.
#[derive(Resource, Default)]
pub struct ChargeMemo(std::sync::Mutex<Option<ChargesOn>>);

/// Searches made on one board with one Player Aid.
struct ChargesOn {
    board: Arc<crate::world::Board>,
    aid: Arc<crate::scenario::PlayerAid>,
    kept: Vec<(CheapestKey, Costs)>,
}

/// How many searches are kept.
const CHEAPEST_KEPT: usize = 16;

/// `search()`'s answer for `key` on `board` with `aid`, from the last
/// searches when one had the same inputs.
fn remembered_cheapest(
    world: &World,
    (board, aid): (&Arc<crate::world::Board>, &Arc<crate::scenario::PlayerAid>),
    key: CheapestKey,
    search: impl FnOnce() -> std::collections::HashMap<Coord, Mp>,
) -> Costs {
    let Some(Ok(mut memo)) = world.get_resource::<ChargeMemo>().map(|m| m.0.lock()) else {
        return Arc::new(search());
    };
    let on = match memo.take() {
        Some(on) if Arc::ptr_eq(&on.board, board) && Arc::ptr_eq(&on.aid, aid) => on,
        _ => ChargesOn {
            board: board.clone(),
            aid: aid.clone(),
            kept: Vec::new(),
        },
    };
    let on = memo.insert(on);
    if let Some((_, c)) = on.kept.iter().find(|(k, _)| *k == key) {
        return c.clone();
    }
    let costs = Arc::new(search());
    if on.kept.len() >= CHEAPEST_KEPT {
        on.kept.remove(0);
    }
    on.kept.push((key, costs.clone()));
    costs
}

/// R 59.6's last paragraph: until the last required charge is called
/// (while a window is not spent), no Japanese Squad steps closer to its
/// Rout Edge; a charging Squad follows its charge path instead.
fn check_rout_edge(world: &World, u: &Unit, start: Coord, path: &[String]) -> Result<(), Refusal> {
    let Some(window) = due(world).pop() else {
        return Ok(());
    };
    let sc = &world.resource::<ActiveScenario>().scenario;
    let Some(edge) = sc
        .sides
        .iter()
        .find(|s| s.side == u.side)
        .map(|s| s.rout_edge)
    else {
        return Ok(());
    };
    let (cols, rows) = (sc.map.columns, sc.map.rows);
    let Some(coords) = parse_path(world, path) else {
        return Ok(());
    };
    let from = from_edge(start, edge, cols, rows);
    if let Some(c) = coords
        .iter()
        .find(|c| from_edge(**c, edge, cols, rows) < from)
    {
        return Err(refuse(
            &u.id,
            format!(
                "{} is closer to the Rout Edge; no Japanese Squad moves closer to it before the last required Banzai Charge is called (due in {}) (R 59.6)",
                c.label(),
                window.label()
            ),
        ));
    }
    Ok(())
}

/// The Victory Marker hexes (those the victory conditions name) that the
/// enemy of `side` controls: targets of a charge like enemy units (R 59.6).
pub fn enemy_victory_markers(world: &World, side: SideId) -> Vec<Coord> {
    let sc = &world.resource::<ActiveScenario>().scenario;
    let Some(control) = world.get_resource::<crate::engine::phases::end::Control>() else {
        return Vec::new();
    };
    sc.victory
        .iter()
        .filter_map(|v| match v {
            crate::scenario::schema::VictoryCondition::ControlHexes { hexes, .. } => Some(hexes),
            _ => None,
        })
        .flatten()
        .filter_map(|h| Coord::parse(h, sc.map.columns, sc.map.rows).ok())
        .filter(|c| control.0.controller(*c).is_some_and(|s| s != side))
        .collect()
}

/// The charge path (R 59.6): to the closest enemy hex (or enemy-controlled
/// Victory Marker) by the fewest MPs.
fn check_path(
    world: &mut World,
    entity: Entity,
    u: &Unit,
    start: Coord,
    path: &[String],
) -> Result<(), Refusal> {
    let Some(coords) = parse_path(world, path) else {
        return Ok(());
    };
    let Some(&end) = coords.last() else {
        return Ok(());
    };
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let rules = MoveRules::of(&world.resource::<ActiveScenario>().scenario.special_rules);
    let limit = usize::from(aid.constants.stacking_per_side);
    let all: Vec<(SideId, Coord, bool)> =
        crate::world::queries::collect::<(&Unit, &Location), (), _>(world, |(o, l)| {
            (o.side, l.coord, l.in_cave)
        });
    let enemy_at = |c: Coord| {
        all.iter()
            .any(|(s, l, cave)| *s != u.side && *l == c && !cave)
    };
    let mut enemies: Vec<Coord> = all
        .iter()
        .filter(|(s, _, cave)| *s != u.side && !cave)
        .map(|(_, c, _)| *c)
        .collect();
    enemies.extend(enemy_victory_markers(world, u.side));
    let full = |c: Coord| {
        all.iter()
            .filter(|(s, l, cave)| *s == u.side && *l == c && !cave)
            .count()
            >= limit
    };
    let targets = charge_targets(start, &enemies, full);
    let allowance = world
        .resource::<RosterRes>()
        .0
        .get(&u.kind)
        .map_or(Mp(0), |t| Mp::whole(u16::from(t.mp)))
        + super::command_points::mp_bonus(world, entity)
        + mp_bonus(world, entity);
    let mut spent = Mp(0);
    let mut at = start;
    for c in &coords {
        let left = Mp(allowance.0.saturating_sub(spent.0));
        match crate::rules::movement::check_step(&board, &aid, rules, at, *c, left) {
            Ok(step) => spent = Mp(spent.0 + step.total.0),
            // The move's own check names the bad step.
            Err(_) => return Ok(()),
        }
        at = *c;
    }
    // A charge whose path holds Wire enters it to clear it (R 59.6, R 43.6).
    if super::night::wire_in(world, end) {
        return Ok(());
    }
    if targets.is_empty() {
        // No enemy to charge: any path will do (R 59.6).
        return Ok(());
    }
    // The fewest MPs from the start, only once the path itself stands.
    let mut stops: Vec<Coord> = all
        .iter()
        .filter(|(s, _, cave)| *s != u.side && !cave)
        .map(|(_, c, _)| *c)
        .collect();
    stops.sort();
    stops.dedup();
    let key = CheapestKey {
        rules,
        start,
        allowance,
        stops,
    };
    let costs = remembered_cheapest(world, (&board, &aid), key, || {
        cheapest(&board, &aid, rules, start, allowance, enemy_at)
    });
    check_charge(&costs, &targets, end, spent).map_err(|r| refuse(&u.id, r.to_string()))
}
