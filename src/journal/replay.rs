//! Replaying a journal headlessly: the scenario it names (checked against its
//! content hash), the seeded dice, then every entry through the engine with
//! the state hash checked after each.

use std::path::Path;

use bevy::prelude::*;

use crate::engine::game::{apply, begin_game};
use crate::engine::{Dice, GameEvent, headless_world};
use crate::scenario::validate::{Problem, parse_ron};
use crate::scenario::{self, FileReport, Loaded, PlayerAid, Roster, Scenario};
use crate::world::{ActiveScenario, Phase, TurnTrack};

use super::file::{JournalRead, read_journal};
use super::{FORMAT, Header, Summary, content_hash, state_hash};

/// A replayed game: the world as the journal left it and its event log.
pub struct Replayed {
    pub world: World,
    pub lines: Vec<String>,
}

fn report(read: &JournalRead, line: usize, field: &str, message: String) -> FileReport {
    let src = line_text(read, line);
    let col = src
        .as_deref()
        .and_then(|l| l.find(&format!("{field}:")))
        .map_or(1, |c| c + 1);
    FileReport {
        file: read.file.clone(),
        problems: vec![Problem { line, col, message }],
    }
}

/// The canonical text of a line, rebuilt (the column of a field in it).
fn line_text(read: &JournalRead, line: usize) -> Option<String> {
    if line == 1 {
        return ron::to_string(&read.header).ok();
    }
    read.entries
        .iter()
        .find(|(l, _)| *l == line)
        .and_then(|(_, e)| ron::to_string(e).ok())
}

/// The content hash of the built-in scenario with this id, if any.
pub fn builtin_hash(id: &str) -> Option<String> {
    scenario::embedded()
        .filter_map(|e| parse_ron::<Scenario>(e.text).ok())
        .find(|s| s.id == id)
        .map(|s| content_hash(&s))
}

/// A new journal's header for a game of `scenario` with these dice. The
/// scenario's text is carried inside unless it is a built-in one, unchanged.
pub fn header_for(scenario: &Scenario, seed: u64, rolls: &[u8]) -> Header {
    let content = content_hash(scenario);
    let builtin = builtin_hash(&scenario.id).is_some_and(|h| h == content);
    Header {
        format: FORMAT,
        scenario: scenario.id.clone(),
        content,
        scenario_text: (!builtin).then(|| super::canonical_text(scenario)),
        seed,
        rolls: rolls.to_vec(),
        started: super::utc_now(),
        summary: None,
    }
}

/// The scenario a journal was written for, checked against its content hash.
pub fn scenario_of(
    read: &JournalRead,
    roster: &Roster,
    aid: &PlayerAid,
) -> Result<Loaded, FileReport> {
    let h = &read.header;
    let loaded = match &h.scenario_text {
        Some(text) => {
            let name = format!("{} (the scenario inside, line 1)", read.file);
            let scenario = crate::world::check_bytes(&name, text.as_bytes(), roster, aid)?;
            if scenario.id != h.scenario {
                return Err(report(
                    read,
                    1,
                    "scenario",
                    format!(
                        "field `scenario`: `{}` but the scenario inside is `{}`",
                        h.scenario, scenario.id
                    ),
                ));
            }
            Loaded {
                scenario: scenario.into(),
                origin: name,
            }
        }
        None => {
            if builtin_hash(&h.scenario).is_none() {
                return Err(report(
                    read,
                    1,
                    "scenario",
                    format!(
                        "field `scenario`: `{}` is not a built-in scenario; a journal names a built-in scenario or carries its text, never a path",
                        h.scenario
                    ),
                ));
            }
            crate::world::load(&h.scenario, roster, aid)?
        }
    };
    let here = content_hash(&loaded.scenario);
    if here != h.content {
        return Err(report(
            read,
            1,
            "content",
            format!(
                "field `content`: the journal was written for another version of `{}` (content hash {}); this one hashes to {here}",
                h.scenario, h.content
            ),
        ));
    }
    Ok(loaded)
}

/// Puts a journal's dice (seed, then forced rolls) into `world`.
pub fn insert_dice(world: &mut World, header: &Header) {
    let mut dice = Dice::seeded(header.seed);
    dice.force(header.rolls.iter().copied());
    world.insert_resource(dice);
}

/// Checks the state after entry `index` (0-based) against the hash the
/// journal recorded; the error names file, line and field `state`.
pub fn check_state(world: &mut World, read: &JournalRead, index: usize) -> Result<(), FileReport> {
    let Some((no, entry)) = read.entries.get(index) else {
        return Ok(());
    };
    let hash = format!("{:016x}", state_hash(world));
    if hash == entry.state {
        return Ok(());
    }
    Err(report(
        read,
        *no,
        "state",
        format!(
            "field `state`: after order {} the game is in state {hash}, the journal recorded {} (written by another version of the rules?)",
            entry.n, entry.state
        ),
    ))
}

/// The refusal of entry `index` on replay, as a file report.
pub fn refused(read: &JournalRead, index: usize, why: &dyn std::fmt::Display) -> FileReport {
    let (no, n) = read.entries.get(index).map_or((1, 0), |(l, e)| (*l, e.n));
    report(
        read,
        no,
        "order",
        format!("field `order`: order {n} is refused on replay: {why}"),
    )
}

/// A journal written before a revealed unit chose its facing (R 2.2): the
/// versions that wrote it let a unit that lost its Conceal counter by an
/// enemy's doing keep the facing it had, with no question. When the game
/// now waits for that question and the state the journal recorded after
/// the order is not reached, each unit asked keeps its facing (the answer
/// `face(unit)`, what those versions did) and the action goes on, so such
/// a save loads whole. A journal written since answers the question in an
/// entry of its own (or records the state that waits for it), so for it
/// nothing is answered here.
fn keep_revealed_facings(world: &mut World, recorded: &str, events: &mut Vec<GameEvent>) {
    loop {
        let Some(crate::engine::decision::Pending(
            crate::engine::decision::Decision::RevealedFacing { unit, .. },
        )) = world
            .get_resource::<crate::engine::decision::Pending>()
            .cloned()
        else {
            return;
        };
        if format!("{:016x}", state_hash(world)) == recorded {
            return;
        }
        let keep = crate::engine::orders::Order::Face { unit, facing: None };
        match apply(world, &keep) {
            Ok(more) => events.extend(more),
            Err(_) => return,
        }
    }
}

/// Plays a journal's dice and entries into `world`, which holds its
/// scenario at setup, calling `each` with the position reached (0 after the
/// game's start, `i + 1` after entry `i`) and the events that led there.
pub fn replay_each(
    world: &mut World,
    read: &JournalRead,
    mut each: impl FnMut(&mut World, usize, &[GameEvent]),
) -> Result<(), FileReport> {
    insert_dice(world, &read.header);
    let start = begin_game(world);
    each(world, 0, &start);
    for (i, (_, entry)) in read.entries.iter().enumerate() {
        let mut events = apply(world, &entry.order).map_err(|r| refused(read, i, &r))?;
        keep_revealed_facings(world, &entry.state, &mut events);
        check_state(world, read, i)?;
        each(world, i + 1, &events);
    }
    Ok(())
}

/// Plays a journal's dice and entries into `world`, which holds its
/// scenario at setup. Returns the event log.
pub fn replay_into(world: &mut World, read: &JournalRead) -> Result<Vec<String>, FileReport> {
    let mut lines = Vec::new();
    replay_each(world, read, |_, _, events| {
        lines.extend(events.iter().map(|e| e.line()));
    })?;
    Ok(lines)
}

/// Replays a journal read back, in a new headless world.
pub fn replay(
    read: &JournalRead,
    roster: &Roster,
    aid: &PlayerAid,
) -> Result<Replayed, FileReport> {
    let loaded = scenario_of(read, roster, aid)?;
    let mut world = headless_world(loaded, roster.clone(), aid.clone(), read.header.seed);
    let lines = replay_into(&mut world, read)?;
    Ok(Replayed { world, lines })
}

/// `bob replay FILE --log`: the event log of a journal or save, with a note
/// when a cut last line was dropped.
pub fn replay_lines(
    path: &Path,
    roster: &Roster,
    aid: &PlayerAid,
) -> Result<(Vec<String>, Option<String>), FileReport> {
    let read = read_journal(path)?;
    let r = replay(&read, roster, aid)?;
    Ok((r.lines, read.dropped))
}

/// What a save shows: scenario, turn, phase, side to act, orders, date.
pub fn summary_of(world: &World, orders: usize) -> Summary {
    let title = world
        .get_resource::<ActiveScenario>()
        .map_or(String::new(), |a| a.scenario.title.clone());
    let (turn, phase, active) = world
        .get_resource::<TurnTrack>()
        .map_or((0, String::new(), None), |t| {
            (t.turn, t.phase.name().to_string(), Some(t.active))
        });
    let window = world
        .get_resource::<crate::engine::op_fire::OpFireWindow>()
        .map(|w| w.side);
    let side = window.or(active).map_or("-".into(), |s| format!("{s:?}"));
    let side_to_act = if window.is_some() {
        format!("{side} (Op Fire window open)")
    } else {
        side
    };
    Summary {
        title,
        turn,
        phase,
        side_to_act,
        orders,
        saved: super::utc_now(),
    }
}

/// Writes a save: the journal read so far, with a summary of the state.
pub fn save(to: &Path, read: &JournalRead, world: &World) -> std::io::Result<Summary> {
    let summary = summary_of(world, read.entries.len());
    let mut header = read.header.clone();
    header.summary = Some(summary.clone());
    super::file::write_copy(to, &header, &read.entries)?;
    Ok(summary)
}

/// Where each position of a replay stands: position `k` is the state after
/// the journal's first `k` entries (0 = the game's start).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// Turn and phase of every position, `entries + 1` of them.
    pub positions: Vec<(u8, Phase)>,
    /// The first position of every turn and phase the game went through,
    /// in order: a phase that runs inside one entry (a Recovery Phase) is
    /// marked at the position after that entry.
    pub marks: Vec<Mark>,
}

/// One turn and phase of the game and the position where it is first seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub turn: u8,
    pub phase: Phase,
    pub position: usize,
}

impl Mark {
    pub fn label(&self) -> String {
        format!("Turn {} - {}", self.turn, self.phase.name())
    }
}

impl Outline {
    fn note(&mut self, turn: u8, phase: Phase, position: usize) {
        if !self
            .marks
            .iter()
            .any(|m| m.turn == turn && m.phase == phase)
        {
            self.marks.push(Mark {
                turn,
                phase,
                position,
            });
        }
    }

    /// The turns and phases an entry's events went through, from `turn`.
    fn note_events(&mut self, mut turn: u8, events: &[GameEvent], position: usize) {
        for e in events {
            match e {
                GameEvent::TurnBegins { turn: t } => turn = *t,
                GameEvent::PhaseEnded { next, .. } => self.note(turn, *next, position),
                _ => {}
            }
        }
    }

    /// The mark a position belongs to (the last one at or before it).
    pub fn mark_of(&self, position: usize) -> Option<&Mark> {
        self.marks.iter().rev().find(|m| m.position <= position)
    }
}

fn turn_phase(world: &World) -> (u8, Phase) {
    world
        .get_resource::<TurnTrack>()
        .map_or((0, Phase::Setup), |t| (t.turn, t.phase))
}

/// Replays a journal headlessly and outlines it for the replay viewer;
/// also returns how long the whole replay took.
pub fn outline(
    read: &JournalRead,
    roster: &Roster,
    aid: &PlayerAid,
) -> Result<(Outline, std::time::Duration), FileReport> {
    let loaded = scenario_of(read, roster, aid)?;
    let started = std::time::Instant::now();
    let mut world = headless_world(loaded, roster.clone(), aid.clone(), read.header.seed);
    let mut out = Outline::default();
    let mut before = (1, Phase::Setup);
    replay_each(&mut world, read, |world, position, events| {
        out.note_events(before.0, events, position);
        let now = turn_phase(world);
        out.note(now.0, now.1, position);
        out.positions.push(now);
        before = now;
    })?;
    Ok((out, started.elapsed()))
}

/// Puts a world back to its scenario's setup, as `spawn_scenario` left it
/// (`engine::reset`; the dice are the journal's, put in by the caller).
/// The viewer and the interface's resources are kept.
pub fn reset_to_setup(world: &mut World, header: &Header) {
    crate::engine::reset(world, header.seed);
}

/// A seeded game of random legal orders (`engine::random`), journaled to
/// `path` as it is played, until the game is over, `stop` says so, or
/// `max_orders` were accepted. Returns the orders accepted.
pub fn random_game(
    loaded: Loaded,
    roster: &Roster,
    aid: &PlayerAid,
    seed: u64,
    path: &Path,
    max_orders: usize,
    mut stop: impl FnMut(&mut World) -> bool,
) -> std::io::Result<usize> {
    use crate::engine::random::{Lcg, random_order};
    let header = header_for(&loaded.scenario, seed, &[]);
    let mut world = headless_world(loaded, roster.clone(), aid.clone(), seed);
    let mut writer = super::file::JournalWriter::create(path, &header)?;
    let mut rng = Lcg(seed ^ 0x5eed);
    begin_game(&mut world);
    let mut accepted = 0;
    let mut tries = 0;
    while accepted < max_orders && tries < 200_000 {
        if world
            .get_resource::<crate::engine::phases::end::GameOver>()
            .is_some()
            || stop(&mut world)
        {
            break;
        }
        tries += 1;
        let order = random_order(&mut world, &mut rng);
        if apply(&mut world, &order).is_ok() {
            writer.append(&order, state_hash(&mut world))?;
            accepted += 1;
        }
    }
    Ok(accepted)
}
