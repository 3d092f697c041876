//! Replaying a journal headlessly: the scenario it names (checked against its
//! content hash), the seeded dice, then every entry through the engine with
//! the state hash checked after each.

use std::path::Path;

use bevy::prelude::*;

use crate::engine::{Dice, headless_world};
use crate::phases::{apply, begin_game};
use crate::scenario::validate::{Problem, parse_ron};
use crate::scenario::{self, FileReport, Loaded, PlayerAid, Roster, Scenario};
use crate::world::{ActiveScenario, TurnTrack};

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
            let scenario = scenario::check_bytes(&name, text.as_bytes(), roster, aid)?;
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
                scenario,
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
            scenario::load(&h.scenario, roster, aid)?
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

/// Plays a journal's dice and entries into `world`, which holds its
/// scenario at setup. Returns the event log.
pub fn replay_into(world: &mut World, read: &JournalRead) -> Result<Vec<String>, FileReport> {
    let h = &read.header;
    let mut dice = Dice::seeded(h.seed);
    dice.force(h.rolls.iter().copied());
    world.insert_resource(dice);
    let mut lines: Vec<String> = begin_game(world).iter().map(|e| e.line()).collect();
    for (no, entry) in &read.entries {
        match apply(world, &entry.order) {
            Ok(events) => lines.extend(events.iter().map(|e| e.line())),
            Err(r) => {
                return Err(report(
                    read,
                    *no,
                    "order",
                    format!("field `order`: order {} is refused on replay: {r}", entry.n),
                ));
            }
        }
        let hash = format!("{:016x}", state_hash(world));
        if hash != entry.state {
            return Err(report(
                read,
                *no,
                "state",
                format!(
                    "field `state`: after order {} the game is in state {hash}, the journal recorded {} (written by another version of the rules?)",
                    entry.n, entry.state
                ),
            ));
        }
    }
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
