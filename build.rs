//! Checks every scenario in `scenarios/` (and the roster and Player Aid they
//! rely on) and embeds them, so the binary carries its scenarios. A broken
//! file fails the build with `file:line:column: reason`.
#![allow(dead_code)]

#[path = "src/scenario/coords.rs"]
mod coords;
#[path = "src/scenario/player_aid.rs"]
mod player_aid;
#[path = "src/scenario/roster.rs"]
mod roster;
#[path = "src/scenario/schema.rs"]
mod schema;
#[path = "src/scenario/validate.rs"]
mod validate;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=scenarios");
    println!("cargo:rerun-if-changed=assets/units.ron");
    println!("cargo:rerun-if-changed=assets/player_aid.ron");
    println!("cargo:rerun-if-changed=src/scenario");
    // Worktrees may share one build directory: the embedded paths below are
    // absolute, so a build for another target dir must run this again.
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");

    let mut failures = Vec::new();
    let units_path = root.join("assets/units.ron");
    let aid_path = root.join("assets/player_aid.ron");
    let roster = load::<roster::Roster>(&units_path, &mut failures);
    let aid = load::<player_aid::PlayerAid>(&aid_path, &mut failures);
    if let Some(aid) = &aid {
        // R 17.0: the Event Tables cover every roll exactly once.
        let text = std::fs::read_to_string(&aid_path).unwrap_or_default();
        let line = text
            .lines()
            .position(|l| l.trim_start().starts_with("combat_events:"))
            .map_or(1, |n| n + 1);
        for p in aid.combat_events.problems(aid.constants.die_faces) {
            failures.push(format!("assets/player_aid.ron:{line}:5: {p}"));
        }
        // Every situation row the fire rules read (R 43.6's `firer_in_wire`…).
        for p in aid.problems() {
            failures.push(format!("assets/player_aid.ron:1:1: {p}"));
        }
    }

    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("scenarios"))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();

    let mut table = String::from(
        "/// Scenario files carried by the binary: (file name, text).\npub static EMBEDDED_SCENARIOS: &[(&str, &str)] = &[\n",
    );
    for path in &files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let bytes = std::fs::read(path).unwrap_or_default();
        if let (Some(roster), Some(aid)) = (&roster, &aid) {
            let (_, problems) = validate::check_scenario(&bytes, roster, aid);
            if !problems.is_empty() {
                failures.push(
                    validate::FileReport {
                        file: format!("scenarios/{name}"),
                        problems,
                    }
                    .to_string(),
                );
            }
        }
        // Relative to the crate being compiled, not to this build script's
        // checkout: a shared build directory must not mix checkouts.
        writeln!(
            table,
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/scenarios/{name}\"))),"
        )
        .ok();
    }
    table.push_str("];\n");

    if !failures.is_empty() {
        for f in &failures {
            eprintln!("{f}");
        }
        eprintln!(
            "error: {} data file(s) failed their check; see above",
            failures.len()
        );
        std::process::exit(1);
    }
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}

fn load<T: serde::de::DeserializeOwned>(path: &Path, failures: &mut Vec<String>) -> Option<T> {
    let file = path
        .strip_prefix(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default())
        .unwrap_or(path)
        .display()
        .to_string();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            failures.push(format!("{file}:1:1: cannot read: {e}"));
            return None;
        }
    };
    match validate::text_of(&bytes).and_then(validate::parse_ron::<T>) {
        Ok(v) => Some(v),
        Err(p) => {
            failures.push(
                validate::FileReport {
                    file,
                    problems: vec![p],
                }
                .to_string(),
            );
            None
        }
    }
}
