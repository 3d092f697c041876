//! `bob script FILE --journal J [--resume]`: a scripted game that journals
//! every order like the window does, and resumes from its journal after a
//! crash (the kill test drives it).

use std::path::Path;

use crate::engine::Dice;
use crate::engine::game::{apply, begin_game};
use crate::engine::headless_world;
use crate::engine::script::Script;
use crate::scenario::validate::Problem;
use crate::scenario::{FileReport, PlayerAid, Roster};

use super::file::{JournalWriter, read_journal};
use super::replay::{header_for, replay, scenario_of};
use super::{content_hash, state_hash};

/// How a journaled run went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournaledRun {
    /// Orders found in the journal and replayed, not played again.
    pub resumed: usize,
    /// What a cut last line lost.
    pub dropped: Option<String>,
    /// (1-based order number, the order, the reason) when an order is refused.
    pub stopped: Option<(usize, String, String)>,
    /// What the game still waits for when the orders ran out.
    pub pending: Option<String>,
}

fn io_report(path: &Path, e: &std::io::Error) -> FileReport {
    FileReport {
        file: path.display().to_string(),
        problems: vec![Problem {
            line: 1,
            col: 1,
            message: format!("cannot write the journal: {e}"),
        }],
    }
}

fn mismatch(file: &str, line: usize, field: &str, message: String) -> FileReport {
    FileReport {
        file: file.to_string(),
        problems: vec![Problem {
            line,
            col: 1,
            message: format!("field `{field}`: {message}"),
        }],
    }
}

/// Runs a script, journaling to `journal`; with `resume`, an existing
/// journal of the same script is replayed first and the script goes on
/// after its last complete entry. Each event line goes to `out` once its
/// order is on disk.
pub fn run_script_journaled(
    script: &Script,
    roster: &Roster,
    aid: &PlayerAid,
    journal: &Path,
    resume: bool,
    out: &mut dyn FnMut(&str),
) -> Result<JournaledRun, FileReport> {
    let loaded = crate::world::load::load_named(&script.scenario, roster, aid)?;
    let mut run = JournaledRun {
        resumed: 0,
        dropped: None,
        stopped: None,
        pending: None,
    };
    let (mut world, mut writer) = if resume && super::file::holds_a_game(journal) {
        let read = read_journal(journal)?;
        let h = &read.header;
        scenario_of(&read, roster, aid)?;
        if h.content != content_hash(&loaded.scenario) {
            return Err(mismatch(
                &read.file,
                1,
                "content",
                format!(
                    "the journal is for another scenario than `{}`",
                    script.scenario
                ),
            ));
        }
        if h.seed != script.seed || h.rolls != script.rolls {
            return Err(mismatch(
                &read.file,
                1,
                "seed",
                "the journal's dice are not the script's (seed or rolls)".into(),
            ));
        }
        for (i, (line, e)) in read.entries.iter().enumerate() {
            if script.orders.get(i) != Some(&e.order) {
                return Err(mismatch(
                    &read.file,
                    *line,
                    "order",
                    format!("order {} is not the script's order {}", e.n, i + 1),
                ));
            }
        }
        let replayed = replay(&read, roster, aid)?;
        for l in &replayed.lines {
            out(l);
        }
        run.resumed = read.entries.len();
        run.dropped = read.dropped.clone();
        let writer = JournalWriter::resume(journal, &read).map_err(|e| io_report(journal, &e))?;
        (replayed.world, writer)
    } else {
        let mut world = headless_world(loaded, roster.clone(), aid.clone(), script.seed);
        world
            .resource_mut::<Dice>()
            .force(script.rolls.iter().copied());
        let header = header_for(
            &world.resource::<crate::world::ActiveScenario>().scenario,
            script.seed,
            &script.rolls,
        );
        let writer = JournalWriter::create(journal, &header).map_err(|e| io_report(journal, &e))?;
        for e in begin_game(&mut world) {
            out(&e.line());
        }
        (world, writer)
    };
    for (i, order) in script.orders.iter().enumerate().skip(run.resumed) {
        match apply(&mut world, order) {
            Ok(events) => {
                let hash = state_hash(&mut world);
                writer
                    .append(order, hash)
                    .map_err(|e| io_report(journal, &e))?;
                for e in &events {
                    out(&e.line());
                }
            }
            Err(refusal) => {
                run.stopped = Some((i + 1, order.script_text(), refusal.to_string()));
                return Ok(run);
            }
        }
    }
    run.pending = crate::engine::script::pending(&world);
    Ok(run)
}
