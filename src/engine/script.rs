//! `bob script FILE`: run a scenario through a list of orders with optional
//! forced dice, printing one line per event. An illegal order stops the run
//! with its reason. The format is in `docs/scripts.md`.

use serde::{Deserialize, Serialize};

use crate::scenario::{self, FileReport, PlayerAid, Roster};

use bevy::prelude::World;

use super::{Dice, GameEvent, Order, headless_world};
use crate::engine::game::{apply, begin_game};

/// A script file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// A built-in scenario id or a path to a scenario file.
    pub scenario: String,
    /// Seed of the dice.
    #[serde(default)]
    pub seed: u64,
    /// Rolls the d10 gives first, in order (1..=10).
    #[serde(default)]
    pub rolls: Vec<u8>,
    /// The orders, in order.
    pub orders: Vec<Order>,
}

/// What a run produced: the log, and the refusal that stopped it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptRun {
    pub lines: Vec<String>,
    /// (1-based order number, the order, the reason).
    pub stopped: Option<(usize, String, String)>,
    /// What the game still waits for when the orders ran out, as the log
    /// says it (`Axis to decide: …`).
    pub pending: Option<String>,
}

/// The decision a world waits for, in the log's words, if any.
pub fn pending(world: &World) -> Option<String> {
    let d = crate::engine::decision::awaited(world)?;
    Some(
        GameEvent::DecisionAwaited {
            side: d.side(),
            what: d.describe(),
        }
        .line(),
    )
}

/// Reads a script file's bytes (named `file` in errors).
pub fn parse(file: &str, bytes: &[u8]) -> Result<Script, FileReport> {
    let script: Script = scenario::parse_data(file, bytes)?;
    // A path named inside a file never climbs out of the working folder.
    if let Some(why) = scenario::paths::refuse_escape(&script.scenario) {
        let src = String::from_utf8_lossy(bytes);
        let pos = scenario::validate::locate(&src, Some("scenario"), &script.scenario, 0);
        return Err(FileReport {
            file: file.to_string(),
            problems: vec![scenario::Problem::at(
                pos,
                format!("field `scenario`: {why}"),
            )],
        });
    }
    Ok(script)
}

/// Runs a script; the scenario is loaded like `bob play` loads it.
pub fn run(script: &Script, roster: &Roster, aid: &PlayerAid) -> Result<ScriptRun, FileReport> {
    let loaded = crate::world::load::load_named(&script.scenario, roster, aid)?;
    let mut world = headless_world(loaded, roster.clone(), aid.clone(), script.seed);
    world
        .resource_mut::<Dice>()
        .force(script.rolls.iter().copied());
    let mut lines: Vec<String> = begin_game(&mut world).iter().map(|e| e.line()).collect();
    for (i, order) in script.orders.iter().enumerate() {
        match apply(&mut world, order) {
            Ok(events) => lines.extend(events.iter().map(|e| e.line())),
            Err(refusal) => {
                return Ok(ScriptRun {
                    lines,
                    stopped: Some((i + 1, order.script_text(), refusal.to_string())),
                    pending: None,
                });
            }
        }
    }
    Ok(ScriptRun {
        lines,
        stopped: None,
        pending: pending(&world),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> (Roster, PlayerAid) {
        (
            crate::scenario::builtin_roster().unwrap(),
            crate::scenario::builtin_player_aid().unwrap(),
        )
    }

    #[test]
    fn a_script_runs_and_stops_at_an_illegal_order() {
        let (roster, aid) = data();
        let text = r#"(
            scenario: "training",
            seed: 3,
            orders: [
                mark_used(unit: "A1"),
                mark_op_fire(unit: "A2", facing: Some(e)),
                pass,
                mark_used(unit: "A3"),
            ],
        )"#;
        let script = parse("t.ron", text.as_bytes()).unwrap();
        let out = run(&script, &roster, &aid).unwrap();
        assert_eq!(
            out.lines,
            [
                "Allies Ops Range 1\u{2013}3 (R 4.1)",
                "A1 marked Used (R 4.2); Ops Range 1/3",
                "A2 marked Op Fire facing E (R 4.3); Ops Range 2/3",
                "Allies pass after 2 (R 4.1)",
                "Axis Ops Range 1\u{2013}3 (R 4.1)",
            ]
        );
        let (n, order, reason) = out.stopped.unwrap();
        assert_eq!(n, 4);
        // The refused order as a script writes it, not as Rust prints it.
        assert_eq!(order, r#"mark_used(unit:"A3")"#);
        assert_eq!(reason, "A3 is not a unit of the side to act (Axis)");
    }

    #[test]
    fn a_bad_script_names_file_line_and_field() {
        let text = "(\n  scenario: \"training\",\n  orders: [mark_usd(unit: \"A1\")],\n)";
        let err = parse("s.ron", text.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "s.ron:3:12: unknown order `\"mark_usd\"` \u{2014} did you mean `mark_used`?"
        );
    }
}
