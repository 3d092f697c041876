//! `bob check`: every bad-scenario case of the foundation gives its precise
//! message with file, line and column; good scenarios pass (R 2.0, R 18.0,
//! R 43.4).

mod common;
use common::{data, script_output};

use std::path::PathBuf;

use bob::cli::check_files;

fn base() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/minimal.ron"
    ))
    .expect("minimal.ron is in the repo")
}

/// Checks `text` as if it were the file `bad.ron`; returns the report.
fn check_text(text: &str) -> (String, bool) {
    let dir = std::env::temp_dir().join(format!("bob-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = format!(
        "case-{:x}.ron",
        text.len() * 31 + text.bytes().map(usize::from).sum::<usize>()
    );
    let path = dir.join(&name);
    std::fs::write(&path, text).unwrap();
    let (roster, aid) = data();
    let (out, ok) = check_files(std::slice::from_ref(&path), &roster, &aid);
    (out.replace(&path.display().to_string(), "bad.ron"), ok)
}

fn broken(from: &str, to: &str) -> String {
    let b = base();
    assert!(b.contains(from), "the base file contains {from:?}");
    b.replacen(from, to, 1)
}

#[test]
fn the_built_in_scenarios_pass() {
    let (roster, aid) = data();
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (out, ok) = check_files(&files, &roster, &aid);
    assert!(ok, "{out}");
    assert!(out.contains("scenarios/guadalcanal.ron: ok"), "{out}");
    assert!(out.contains("scenarios/training.ron: ok"), "{out}");
}

#[test]
fn the_minimal_scenario_passes() {
    let (out, ok) = check_text(&base());
    assert!(ok, "{out}");
    assert_eq!(out, "bad.ron: ok \u{2014} Minimal (minimal)\n");
}

#[test]
fn unknown_terrain_suggests_the_right_word() {
    let (out, ok) = check_text(&broken("terrain: woods", "terrain: jungel"));
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:40:23: field `terrain`: unknown terrain `\"jungel\"` \u{2014} did you mean `jungle`?\n"
    );
}

#[test]
fn unit_off_the_map() {
    let (out, ok) = check_text(&broken("at: \"E3\"", "at: \"Z99\""));
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:52:56: unit G1 placed off the map at `Z99` (the map is A1\u{2013}F5)\n"
    );
}

#[test]
fn two_units_with_one_id() {
    let (out, ok) = check_text(&broken("(id: \"A2\"", "(id: \"A1\""));
    assert!(!ok);
    assert_eq!(out, "bad.ron:51:14: two units with the id `A1`\n");
}

#[test]
fn over_stacked_hex_at_setup() {
    let text = broken(
        "        (id: \"G1\"",
        "        (id: \"A3\", unit: \"para_squad\", side: allies, at: \"A2\"),\n        (id: \"G1\"",
    );
    let (out, ok) = check_text(&text);
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:52:14: over-stacked hex at setup: A2 has 3 allies units (A1, A2, A3) (R 2.0: two Squads/WTs per side)\n"
    );
}

#[test]
fn reinforcement_past_the_last_turn() {
    let (out, ok) = check_text(&broken("(turn: 2,", "(turn: 4,"));
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:55:10: a reinforcement arrives on turn 4, but the scenario has 3 turns\n"
    );
}

#[test]
fn cave_not_on_a_hill_facing_lower_ground() {
    // E2 is level 1; its NE spine faces F2 (level 0) and E1 (level 0): good.
    let good = broken(
        "(kind: foxhole, at: \"D4\")",
        "(kind: cave, at: \"E2\", facing: Some(ne))",
    );
    let (out, ok) = check_text(&good);
    assert!(ok, "{out}");
    // Raise E1, one of its two front hexes, to the cave's level.
    let bad = good.replace(
        "(level: 1, hexes: [\"E2\"])",
        "(level: 1, hexes: [\"E2\", \"E1\"])",
    );
    let (out, ok) = check_text(&bad);
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:46:30: a cave must be on a hill facing lower ground (R 43.4): front hex E1 is level 1, the cave's hex E2 is level 1\n"
    );
    let flat = good.replace("(level: 1, hexes: [\"E2\"])", "(level: 1, hexes: [\"A1\"])");
    let (out, _) = check_text(&flat);
    assert_eq!(
        out,
        "bad.ron:46:30: a cave must be on a hill facing lower ground (R 43.4): E2 is level 0\n"
    );
}

#[test]
fn unknown_unit_type_suggests_the_right_id() {
    let (out, ok) = check_text(&broken("unit: \"para_squad\"", "unit: \"para_sqad\""));
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:50:26: unknown unit type `\"para_sqad\"` \u{2014} did you mean `para_squad`?\n"
    );
}

#[test]
fn truncated_file() {
    let b = base();
    let (out, ok) = check_text(&b[..b.len() / 2]);
    assert!(!ok);
    assert!(out.starts_with("bad.ron:"), "{out}");
    assert!(
        out.contains("truncated") || out.contains("Unexpected end"),
        "{out}"
    );
}

#[test]
fn empty_file_and_junk_bytes_never_panic() {
    let (out, ok) = check_text("");
    assert!(!ok);
    assert_eq!(out, "bad.ron:1:1: file is empty\n");
    let junk: Vec<u8> = (0..5000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let dir = std::env::temp_dir().join(format!("bob-junk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("junk.ron");
    std::fs::write(&path, &junk).unwrap();
    let (roster, aid) = data();
    let (out, ok) = check_files(std::slice::from_ref(&path), &roster, &aid);
    assert!(!ok);
    assert!(out.contains("junk.ron:"), "{out}");
}

#[test]
fn missing_file_is_named() {
    let (roster, aid) = data();
    let (out, ok) = check_files(&[PathBuf::from("no/such/file.ron")], &roster, &aid);
    assert!(!ok);
    assert_eq!(
        out,
        "no/such/file.ron:1:1: no such file, and no built-in scenario by that name (see `bob list`)\n"
    );
}

/// Thousands of byte-level mutations of a good scenario: the checker answers
/// every one with a result, never a panic.
#[test]
fn mutated_scenarios_never_panic() {
    let (roster, aid) = data();
    let good = base().into_bytes();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut refused = 0;
    for _ in 0..3000 {
        let mut bytes = good.clone();
        for _ in 0..(1 + next() % 4) {
            let at = (next() as usize) % bytes.len();
            match next() % 3 {
                0 => bytes[at] = (next() % 256) as u8,
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, b"\"[(:,)]0Z9-"[(next() % 11) as usize]),
            }
        }
        let (_, problems) = bob::scenario::validate::check_scenario(&bytes, &roster, &aid);
        if !problems.is_empty() {
            refused += 1;
            for p in &problems {
                assert!(p.line >= 1 && p.col >= 1, "{p:?}");
                assert!(!p.message.is_empty());
            }
        }
    }
    assert!(refused > 1000, "most mutations are refused ({refused})");
}

/// `bob script FILE | head`: a reader that closes the pipe ends the
/// command quietly, exit status 141 and nothing on standard error.
#[test]
fn a_cut_output_ends_quietly() {
    let bob = env!("CARGO_BIN_EXE_bob");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripts/first_moves.ron");
    let mut child = std::process::Command::new(bob)
        .arg("script")
        .arg(script)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reading end closed before the first line is written.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert_eq!(err, "");
}

/// A script whose orders run out while the game waits for a decision says
/// what is pending on standard error and exits 3 (docs/scripts.md).
#[test]
fn a_script_ending_on_a_decision_says_what_waits() {
    let bob = env!("CARGO_BIN_EXE_bob");
    let dir = std::env::temp_dir().join(format!("bob-pending-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pending.ron");
    std::fs::write(
        &file,
        r#"(
    scenario: "training",
    seed: 2,
    orders: [
        mark_used(unit: "A1"),
        pass,
        mark_op_fire(unit: "G4"),
        mark_op_fire(unit: "G1"),
        pass,
        move(unit: "A4", path: ["D5", "E5", "F5"]),
        // Asked at D5 only because the Conceal counters might fire (R 15.0).
        op_fire(firers: []),
    ],
)
"#,
    )
    .unwrap();
    let out = std::process::Command::new(bob)
        .arg("script")
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(
        err,
        format!(
            "{}: the script ended while the game waits: Axis to decide: fire at A4 in E5 with any of G4 or hold fire (R 9.0)\n",
            file.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The binary itself: `bob check` exits 1 and names the problem; `bob list`
/// lists both built-in scenarios.
#[test]
fn the_binary_checks_and_lists() {
    let bob = env!("CARGO_BIN_EXE_bob");
    let dir = std::env::temp_dir().join(format!("bob-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, broken("at: \"E3\"", "at: \"Z99\"")).unwrap();
    let out = std::process::Command::new(bob)
        .arg("check")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with(":52:56: unit G1 placed off the map at `Z99` (the map is A1\u{2013}F5)\n"),
        "{text}"
    );
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/training.ron");
    let out = std::process::Command::new(bob)
        .args(["check", good])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = std::process::Command::new(bob)
        .arg("list")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("alligator_creek Wire on the Sandspit"),
        "{text}"
    );
    assert!(
        text.contains("\nguadalcanal    The Ridge Beyond the Ford"),
        "{text}"
    );
    assert!(
        text.contains("\ntraining       Training: The Hedges of Saint-Martin"),
        "{text}"
    );
    let out = std::process::Command::new(bob)
        .args(["play", "no-such-scenario"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "no-such-scenario:1:1: no such file, and no built-in scenario by that name (see `bob list`)\n"
    );
}

/// `bob script`: the example script prints the exact log and exits 0.
#[test]
fn the_example_script_runs() {
    assert_eq!(
        script_output("first_ops_range"),
        "Allies Ops Range 1\u{2013}3 (R 4.1)\n\
         A1 marked Used (R 4.2); Ops Range 1/3\n\
         A2 marked Op Fire facing E (R 4.3); Ops Range 2/3\n\
         A3 marked Used (R 4.2); Ops Range 3/3\n\
         Allies pass after 3: no further Use fits (R 4.1)\n\
         Axis Ops Range 1\u{2013}3 (R 4.1)\n\
         G1 marked Op Fire facing W (R 4.3); Ops Range 1/3\n\
         Axis pass after 1 (R 4.1)\n\
         Allies Ops Range 1\u{2013}3 (R 4.1)\n"
    );
}

/// `bob script` with moves: MP costs, Concealment lost, a Decoy removed, and
/// an Op Fire window at every hex an enemy could fire into, held here.
#[test]
fn the_move_script_runs() {
    let out = script_output("first_moves");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 moves (R 5.0); Ops Range 1/3",
            "A1 moves C3 \u{2192} D3: 2 MP, 3 left (R 5.0)",
            "A1 loses its Conceal counter: in Open Ground in enemy LOS (R 15.0)",
            "Op Fire window: A1 enters D3; Axis may fire with G4 (R 9.0)",
            "Axis hold their fire at D3 (R 9.0)",
            "A1 moves D3 \u{2192} E3: 2 MP, 1 left (R 5.0)",
            "Op Fire window: A1 enters E3; Axis are asked, though no unit may fire: only Conceal counters might (R 9.0, R 15.0)",
            "Axis hold their fire at E3 (R 9.0)",
            "A1 moves E3 \u{2192} F3: 1 MP, 0 left (R 5.0)",
            "Op Fire window: A1 enters F3; Axis may fire with G4 (R 9.0)",
            "Axis hold their fire at F3 (R 9.0)",
            "A1 ends its move in F3; Used (R 4.2)",
            "A4 moves (R 5.0); Ops Range 2/3",
            "A4 moves C5 \u{2192} D5: 2 MP, 3 left (R 5.0)",
            "Op Fire window: A4 enters D5; Axis are asked, though no unit may fire: only Conceal counters might (R 9.0, R 15.0)",
            "Axis hold their fire at D5 (R 9.0)",
            "A4 moves D5 \u{2192} E5: 1 MP, 2 left (R 5.0)",
            "A4 loses its Conceal counter: in Open Ground in enemy LOS (R 15.0)",
            "Op Fire window: A4 enters E5; Axis may fire with G4 (R 9.0)",
            "Axis hold their fire at E5 (R 9.0)",
            "A4 moves E5 \u{2192} F5: 1 MP, 1 left (R 5.0)",
            "Op Fire window: A4 enters F5; Axis may fire with G5 (R 9.0)",
            "Axis hold their fire at F5 (R 9.0)",
            "A4 moves F5 \u{2192} G5: 1 MP, 0 left (R 5.0)",
            "Op Fire window: A4 enters G5; Axis may fire with G4, G5, G6 (R 9.0)",
            "Axis hold their fire at G5 (R 9.0)",
            "G4 loses its Conceal counter: an enemy unit moved adjacent (R 15.0)",
            "A4 ends its move in G5; Used (R 4.2)",
            "AD1 moves (R 5.0); Ops Range 3/3",
            "AD1 moves C2 \u{2192} D2: 2 MP, 3 left (R 5.0)",
            "AD1 was a Decoy: removed on losing Concealment (R 15.0)",
            "Allies pass after 3: no further Use fits (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// `bob script` with fire: the FP arithmetic, the roll, the result, and a
/// failed LOS marking the firer Used.
#[test]
fn the_fire_script_runs() {
    let out = script_output("first_fire");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A4 moves (R 5.0); Ops Range 1/3",
            "A4 moves C5 \u{2192} D5: 2 MP, 3 left (R 5.0)",
            "Op Fire window: A4 enters D5; Axis are asked, though no unit may fire: only Conceal counters might (R 9.0, R 15.0)",
            "Axis hold their fire at D5 (R 9.0)",
            "A4 moves D5 \u{2192} E5: 1 MP, 2 left (R 5.0)",
            "A4 loses its Conceal counter: in Open Ground in enemy LOS (R 15.0)",
            "Op Fire window: A4 enters E5; Axis may fire with G4 (R 9.0)",
            "Axis hold their fire at E5 (R 9.0)",
            "A4 moves E5 \u{2192} F5: 1 MP, 1 left (R 5.0)",
            "Op Fire window: A4 enters F5; Axis may fire with G5 (R 9.0)",
            "Axis hold their fire at F5 (R 9.0)",
            "A4 moves F5 \u{2192} G5: 1 MP, 0 left (R 5.0)",
            "Op Fire window: A4 enters G5; Axis may fire with G4, G5, G6 (R 9.0)",
            "Axis hold their fire at G5 (R 9.0)",
            "G4 loses its Conceal counter: an enemy unit moved adjacent (R 15.0)",
            "A4 ends its move in G5; Used (R 4.2)",
            "A2 fires at H5 (R 6.0); Ops Range 2/3",
            "A2 loses its Conceal counter: it fired (R 15.0)",
            "A2 rolls 4 against H5 (R 6.2)",
            "G4: +8 Normal FP (R 2.1); \u{2212}1 Wooden building (PAC \u{a7}2a) = 7 FP; roll 4 \u{2192} Suppressed (R 6.2)",
            "A3 fires at H5 (R 6.0); Ops Range 3/3",
            "A3 has no LOS to H5: blocked at D3 by a Hedgerow (R 44.0); Used (R 14.0)",
            "Allies pass after 3: no further Use fits (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// `bob script` with Op Fire: the window, the Prof FP arithmetic with the
/// Op Fire raise and the moving-in-Open bonus, the Reduction, the failed
/// immediate MC that ends the move (R 9.0, R 5.0, R 4.3).
#[test]
fn the_op_fire_script_runs() {
    let out = script_output("first_op_fire");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 marked Used (R 4.2); Ops Range 1/3",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "G4 marked Op Fire (R 4.3); Ops Range 1/3",
            "G1 marked Op Fire (R 4.3); Ops Range 2/3",
            "Axis pass after 2 (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A4 moves (R 5.0); Ops Range 1/3",
            "A4 moves C5 \u{2192} D5: 2 MP, 3 left (R 5.0)",
            "Op Fire window: A4 enters D5; Axis are asked, though no unit may fire: only Conceal counters might (R 9.0, R 15.0)",
            "Axis hold their fire at D5 (R 9.0)",
            "A4 moves D5 \u{2192} E5: 1 MP, 2 left (R 5.0)",
            "A4 loses its Conceal counter: in Open Ground in enemy LOS (R 15.0)",
            "Op Fire window: A4 enters E5; Axis may fire with G4 (R 9.0)",
            "G4 Op Fires at A4 in E5 and is Used (R 9.0, R 4.3)",
            "G4 loses its Conceal counter: it fired (R 15.0)",
            "G4 rolls 3 against E5 (R 6.2)",
            "A4: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire while marked Op Fire (R 9.0); +4 Target moving in Open Ground, range 3 (R 41.0) = 8 FP; roll 3 \u{2192} Reduced and Fully Suppressed (R 6.2)",
            "A4 MC: needs 2 or less, rolled 8 \u{2192} failed (R 9.0, R 7.1)",
            "A4 ends its move in E5; Used (R 4.2)",
            "A7 moves (R 5.0); Ops Range 2/3",
            "A7 moves F12 \u{2192} F11: 1 MP, 4 left (R 5.0)",
            "Op Fire window: A7 enters F11; Axis are asked, though no unit may fire: only Conceal counters might (R 9.0, R 15.0)",
            "Axis hold their fire at F11 (R 9.0)",
            "A7 ends its move in F11; Used (R 4.2)",
        ]
    );
}

/// `bob script` with Final Op Fire (R 10.0): a Used squad fires at −2 when
/// the mover enters the adjacent hex; an unmarked squad may Op Fire (R 9.0).
#[test]
fn the_final_op_fire_script_runs() {
    let out = script_output("final_op_fire");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 marked Used (R 4.2); Ops Range 1/3",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "G4 marked Used (R 4.2); Ops Range 1/3",
            "Axis pass after 1 (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A4 moves (R 5.0); Ops Range 1/3",
            "A4 moves C5 \u{2192} D5: 2 MP, 3 left (R 5.0)",
            "Op Fire window: A4 enters D5; Axis are asked, though no unit may fire: only Conceal counters might (R 9.0, R 15.0)",
            "Axis hold their fire at D5 (R 9.0)",
            "A4 moves D5 \u{2192} E5: 1 MP, 2 left (R 5.0)",
            "A4 loses its Conceal counter: in Open Ground in enemy LOS (R 15.0)",
            "Op Fire window: A4 enters E5; Axis may fire with G4 (R 9.0)",
            "Axis hold their fire at E5 (R 9.0)",
            "A4 moves E5 \u{2192} F5: 1 MP, 1 left (R 5.0)",
            "Op Fire window: A4 enters F5; Axis may fire with G5 (R 9.0)",
            "Axis hold their fire at F5 (R 9.0)",
            "A4 moves F5 \u{2192} G5: 1 MP, 0 left (R 5.0)",
            "Op Fire window: A4 enters G5; Axis may fire with G4, G5, G6 (R 9.0)",
            "G4 Final Op Fires at A4 in G5 (R 10.0)",
            "G4 loses its Conceal counter: it fired (R 15.0)",
            "G4 rolls 2 against G5 (R 6.2)",
            "A4: +3 Prof FP: Final Op Fire (R 10.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); +3 Adjacent (PAC \u{a7}2b); +4 Target moving in Open Ground, range 1 (R 41.0); \u{2212}2 Final Op Fire (R 10.0) = 9 FP; roll 2 \u{2192} Reduced and Fully Suppressed (R 6.2)",
            "A4 MC: needs 2 or less, rolled 10 \u{2192} failed (R 9.0, R 7.1)",
            "A4 ends its move in G5; Used (R 4.2)",
        ]
    );
}

/// Illegal moves stop a script with their reason and exit 1.
#[test]
fn illegal_moves_are_refused_with_their_reason() {
    let bob = env!("CARGO_BIN_EXE_bob");
    let dir = std::env::temp_dir().join(format!("bob-moves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (orders, reason) in [
        (
            r#"move(unit: "A1", path: ["D3", "E3", "F3", "G3"])"#,
            "step 4 into G3: needs 1 MP, 0 MP left (R 5.0)",
        ),
        (
            r#"move(unit: "A1", path: ["E3"])"#,
            "step 1 into E3: E3 is not adjacent to C3",
        ),
        (
            r#"move(unit: "A1", path: ["Q3"])"#,
            "`Q3` is not a hex of this map",
        ),
        (
            r#"move(unit: "A1", path: [])"#,
            "a move needs at least one hex",
        ),
        // A3 joins the Decoy in C2; A1 would make three there.
        (
            r#"move(unit: "A3", path: ["C2"]), op_fire(firers: []), move(unit: "A1", path: ["C2"])"#,
            "the move would end with more than 2 Squads/WTs of a side in C2 (R 2.0)",
        ),
        (
            r#"move(unit: "G1", path: ["H6"])"#,
            "G1 is not a unit of the side to act (Allies)",
        ),
        (
            r#"fire(unit: "A1", target: "C4")"#,
            "C4 holds friendly infantry: no fire into it (R 6.1)",
        ),
        (r#"fire(unit: "A1", target: "D3")"#, "no enemy unit in D3"),
        (r#"op_fire(firers: ["G1"])"#, "no Op Fire window is open"),
        (
            r#"mark_used(unit: "A1"), pass, mark_op_fire(unit: "G4"), pass,
               move(unit: "A4", path: ["D5", "E5"]), op_fire(firers: []), mark_used(unit: "A2")"#,
            "the Op Fire window at E5 must be answered first (R 9.0)",
        ),
        (
            r#"mark_used(unit: "A1"), pass, mark_op_fire(unit: "G4"), pass,
               move(unit: "A4", path: ["D5", "E5"]), op_fire(firers: []), op_fire(firers: ["G1"])"#,
            "G1 may not Op Fire at E5 (R 9.0)",
        ),
        (
            r#"fire(unit: "AD1", target: "H5")"#,
            "a Decoy may not fire (R 15.0)",
        ),
    ] {
        let text = format!("(scenario: \"training\", orders: [{orders}])");
        let file = dir.join("m.ron");
        std::fs::write(&file, text).unwrap();
        let out = std::process::Command::new(bob)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("script")
            .arg(&file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(1), "{orders}: {err}");
        assert!(err.ends_with(&format!("refused: {reason}\n")), "{err}");
    }
}

/// Runs a script given as text (from the repository root); returns the exit
/// status, standard output and standard error.
fn run_script_text(name: &str, text: &str) -> (Option<i32>, String, String) {
    let dir = std::env::temp_dir().join(format!("bob-events-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bob"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("script")
        .arg(&file)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// R 17.0: a firing 1, then the additional roll: 4 is no event; a 3 is
/// ignored when the scenario has no Japanese units.
#[test]
fn combat_event_rolls_of_4_and_of_3_without_japanese_are_no_event() {
    let out = script_output("events_none");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 fires at E3 (R 6.0); Ops Range 1/3",
            "A1 rolls 1 against E3 (R 6.2)",
            "G1: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Reduced and Fully Suppressed (R 6.2)",
            "A1 rolled a 1: Combat Event roll 4 -> no event (R 17.0)",
            "A2 fires at E4 (R 6.0); Ops Range 2/3",
            "A2 rolls 1 against E4 (R 6.2)",
            "G2: +8 Normal FP (R 2.1) = 8 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "G2 is eliminated (R 8.0)",
            "A2 rolled a 1: Combat Event roll 3 -> the Japanese Event Table, but no Japanese units: no event (R 17.0)",
        ]
    );
}

/// R 17.0: on a 1 the attacker's player rolls on the Combat Event Table and
/// chooses: a Sniper Attack (2), then Stragglers (4) that must be placed,
/// even with the concealed G3, which loses its Concealment.
#[test]
fn combat_event_roll_1_the_attacker_rolls_and_chooses() {
    let out = script_output("events_attacker");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 fires at E4 (R 6.0); Ops Range 1/3",
            "A1 rolls 1 against E4 (R 6.2)",
            "G2: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "G2 is eliminated (R 8.0)",
            "A1 rolled a 1: Combat Event roll 1 -> Allies roll on the Combat Event Table (R 17.0)",
            "Allies roll 2 on the Combat Event Table: entry 2, Sniper Attack (R 17.0)",
            "Combat Event: Allies pick 1 of A1, A2, A3, A4, G1: an unconcealed Squad/WT the sniper Reduces (R 17.0)",
            "Allies pick G1 (R 17.0)",
            "G1 is Reduced and Fully Suppressed: a Sniper Attack (R 17.0, R 8.0)",
            "A2 fires at E3 (R 6.0); Ops Range 2/3",
            "A2 rolls 1 against E3 (R 6.2)",
            "G1: +8 Normal FP (R 2.1) = 8 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "G1 is eliminated (R 8.0)",
            "A2 rolled a 1: Combat Event roll 1 -> Allies roll on the Combat Event Table (R 17.0)",
            "Allies roll 4 on the Combat Event Table: entry 4, Stragglers (R 17.0)",
            "Combat Event: Allies pick 1 of G1, G2: an eliminated Squad that returns, Reduced and Used (R 17.0)",
            "Allies pick G2 (R 17.0)",
            "G3 loses its Conceal counter: a returning Squad joins it, R 17.0 (R 15.0)",
            "G2 returns Used on its Reduced side in G5 with G3 (R 17.0)",
        ]
    );
}

/// R 17.0: on a 2 the other player rolls and chooses: Pinned (7) marks two
/// Americans Used; Choice (10) takes entry 9, two one-time CPs; the
/// Americans, all Used now, are finished (R 4.1).
#[test]
fn combat_event_roll_2_the_other_player_rolls_and_chooses() {
    let out = script_output("events_other");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 fires at E3 (R 6.0); Ops Range 1/3",
            "A1 rolls 1 against E3 (R 6.2)",
            "G1: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Reduced and Fully Suppressed (R 6.2)",
            "A1 rolled a 1: Combat Event roll 2 -> Axis roll on the Combat Event Table (R 17.0)",
            "Axis roll 7 on the Combat Event Table: entry 7, Pinned (R 17.0)",
            "Combat Event: Axis pick 2 of A2, A3, A4, G1, G2: unconcealed Squads/WTs marked Used (R 17.0)",
            "Axis pick A2, A3 (R 17.0)",
            "A2 is marked Used (R 17.0)",
            "A3 is marked Used (R 17.0)",
            "A4 fires at E3 (R 6.0); Ops Range 2/3",
            "A4 rolls 1 against E3 (R 6.2)",
            "G1: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "G1 is eliminated (R 8.0)",
            "A4 rolled a 1: Combat Event roll 2 -> Axis roll on the Combat Event Table (R 17.0)",
            "Axis roll 10 on the Combat Event Table: entry 10, Choice (R 17.0)",
            "Combat Event: Axis pick 1 of 1, 2, 3, 4, 5, 6, 7, 8, 9: the entry of the Combat Event Table that happens (R 17.0)",
            "Axis pick 9 (R 17.0)",
            "Axis choose entry 9, Command Points (R 17.0)",
            "Axis gain 2 one-time CPs, 2 held (R 17.0)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 17.0 in the Pacific: on a 3 the Japanese player rolls on the Japanese
/// Event Table: Sniper Attack, Fugg Babe Ruth, Ambush, Banzai.
#[test]
fn combat_event_roll_3_the_japanese_event_table() {
    let out = script_output("events_japanese");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}2 (R 4.1)",
            "M1 fires at E3 (R 6.0); Ops Range 1/2",
            "M1 rolls 1 against E3 (R 6.2)",
            "J1: +4 Normal FP (R 2.1) = 4 FP; roll 1 \u{2192} Suppressed (R 6.2)",
            "M1 rolled a 1: Combat Event roll 3 -> Axis roll on the Japanese Event Table (R 17.0)",
            "Axis roll 2 on the Japanese Event Table: entry 1-3, Sniper Attack (R 17.0)",
            "Combat Event: Axis pick 1 of M1, M2, M3, M4: an unconcealed Squad/WT the sniper Reduces (R 17.0)",
            "Axis pick M2 (R 17.0)",
            "M2 is Reduced and Fully Suppressed: a Sniper Attack (R 17.0, R 8.0)",
            "M4 fires at F5 (R 6.0); Ops Range 2/2",
            "M4 rolls 1 against F5 (R 6.2)",
            "J4: +8 Normal FP (R 2.1) = 8 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "J4 is eliminated (R 8.0)",
            "M4 rolled a 1: Combat Event roll 3 -> Axis roll on the Japanese Event Table (R 17.0)",
            "Axis roll 5 on the Japanese Event Table: entry 4-6, Fugg Babe Ruth (R 17.0)",
            "Combat Event: Axis pick 1 of M1, M2, M3, M4: an enemy Infantry unit that may give itself away (R 17.0)",
            "Axis pick M3 (R 17.0)",
            "M3 is unused: roll 9, Marines = 9 -> it fires at an imaginary target and is marked Used (R 17.0)",
            "Allies pass after 2: no further Use fits (R 4.1)",
            "Axis Ops Range 1\u{2013}2 (R 4.1)",
            "J6 fires at B3 (R 6.0); Ops Range 1/2",
            "J6 rolls 1 against B3 (R 6.2)",
            "M1: +5 Normal FP (R 2.1) = 5 FP; roll 1 \u{2192} Reduced and Fully Suppressed (R 6.2)",
            "J6 rolled a 1: Combat Event roll 3 -> Axis roll on the Japanese Event Table (R 17.0)",
            "Axis roll 7 on the Japanese Event Table: entry 7-8, Ambush (R 17.0)",
            "J3 rolls a Melee attack with no bonus: Melee FP 3, dice 2 and 5 -> 1 casualty (R 17.0, R 12.0)",
            "M3 is Reduced and Fully Suppressed: a Melee casualty of the Ambush (R 17.0, R 8.0)",
            "J2 fires at B4 (R 6.0); Ops Range 2/2",
            "J2 rolls 1 against B4 (R 6.2)",
            "M2: +5 Normal FP (R 2.1) = 5 FP; roll 1 \u{2192} Suppressed (R 6.2)",
            "J2 rolled a 1: Combat Event roll 3 -> Axis roll on the Japanese Event Table (R 17.0)",
            "Axis roll 9 on the Japanese Event Table: entry 9-10, Banzai (R 17.0)",
            "Combat Event: Allies pick 1 of J1, J5: a Japanese non-GD Squad that removes Suppression and Banzai Charges (R 17.0)",
            "Allies pick J1 (R 17.0)",
            "J1 loses its Suppression to Banzai Charge (R 17.0, R 59.6)",
            "J1 Banzai Charges this turn unless marked Op Fire: +4 MP, +2 Morale, +2 Melee FP, toward the closest enemy (R 59.6, R 17.0)",
            "Axis pass after 2: no further Use fits (R 4.1)",
            "Allies Ops Range 1\u{2013}2 (R 4.1)",
        ]
    );
}

/// R 17.0: the choice comes before any other order, must name exactly the
/// number of units asked for, among those that qualify.
#[test]
fn a_combat_event_choice_must_be_answered_first_and_rightly() {
    for (orders, reason) in [
        (
            r#"fire(unit: "A1", target: "E4"), mark_used(unit: "A3")"#,
            "the Combat Event must be answered first: Allies pick 1 of A1, A2, A3, A4, G1 (R 17.0)",
        ),
        (
            r#"fire(unit: "A1", target: "E4"), combat_event(picks: ["G3"])"#,
            "`G3` is not one of A1, A2, A3, A4, G1 (R 17.0)",
        ),
        (
            r#"fire(unit: "A1", target: "E4"), combat_event(picks: ["G1", "A1"])"#,
            "pick exactly 1 of A1, A2, A3, A4, G1 (R 17.0)",
        ),
        (
            r#"combat_event(picks: [])"#,
            "no Combat Event waits for a choice",
        ),
    ] {
        let text = format!(
            "(scenario: \"tests/data/events_europe.ron\", rolls: [1, 1, 2], orders: [{orders}])"
        );
        let (code, _, err) = run_script_text("e.ron", &text);
        assert_eq!(code, Some(1), "{orders}: {err}");
        assert!(err.ends_with(&format!("refused: {reason}\n")), "{err}");
    }
}

/// R 17.0 is optional in Europe: the training scenario leaves it off, and a
/// firing 1 gives no additional roll.
#[test]
fn no_combat_events_where_the_scenario_leaves_them_off() {
    let (code, out, err) = run_script_text(
        "t.ron",
        r#"(scenario: "training", rolls: [1], orders: [fire(unit: "A2", target: "H5")])"#,
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("A2 rolls 1 against H5 (R 6.2)"), "{out}");
    assert!(!out.contains("R 17.0"), "{out}");
}

/// R 17.0: Combat Events are required in the Pacific.
#[test]
fn a_pacific_scenario_must_play_combat_events() {
    let (out, ok) = check_text(&broken("theater: europe", "theater: pacific"));
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:7:5: Combat Events are required in the Pacific (R 17.0): set `combat_events: true` in `special_rules`\n"
    );
}

/// R 3.1: a company given CPs twice, and a unit of a company the card gives
/// no CPs when the card uses Company CPs.
#[test]
fn company_cps_are_checked() {
    let text = broken(
        "command_points: 1,\n            decoys: 0,",
        "command_points: 1,\n            companies: [(company: \"E\", command_points: 1), (company: \"E\", command_points: 2)],\n            decoys: 0,",
    )
    .replacen(
        "(id: \"A1\", unit: \"para_squad\", side: allies, at: \"A2\"),",
        "(id: \"A1\", unit: \"para_squad\", side: allies, at: \"A2\", company: Some(\"F\")),",
        1,
    );
    let (out, ok) = check_text(&text);
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:17:70: company `E` is given CPs twice on the allies card (R 3.1)\n\
         bad.ron:51:14: unit A1 is in company `F`, which the allies card gives no CPs; companies: E, E (R 3.1)\n"
    );
}

/// `bob script` with Withdrawal (R 5.1): the MC at Morale -3, no Op Fire from a
/// Melee hex that still holds a friendly unit (R 6.1), Op Fire from the hex
/// left empty of friends as the unit enters the next hex.
#[test]
fn the_withdrawal_script_runs() {
    let out = script_output("withdrawal");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}6 (R 4.1)",
            "A2 moves (R 5.0); Ops Range 1/6",
            "A2 Withdraws from the Melee in D6: Morale -3 for its MC, no automatic pass (R 5.1)",
            "A2 MC: needs 7 or less, rolled 3 \u{2192} passed (R 5.1, R 7.1)",
            "A2 moves D6 \u{2192} C6: 1 MP, 4 left (R 5.0)",
            "A2 ends its move in C6; Used (R 4.2)",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}6 (R 4.1)",
            "G1 marked Op Fire (R 4.3); Ops Range 1/6",
            "Axis pass after 1 (R 4.1)",
            "Allies Ops Range 1\u{2013}6 (R 4.1)",
            "A1 moves (R 5.0); Ops Range 1/6",
            "A1 Withdraws from the Melee in C3: Morale -3 for its MC, no automatic pass (R 5.1)",
            "A1 MC: needs 7 or less, rolled 5 \u{2192} passed (R 5.1, R 7.1)",
            "A1 moves C3 \u{2192} B3: 1 MP, 4 left (R 5.0)",
            "Op Fire window: A1 enters B3; Axis may fire with G1 (R 9.0)",
            "G1 Op Fires at A1 in B3 and is Used (R 9.0, R 4.3)",
            "G1 rolls 9 against B3 (R 6.2)",
            "A1: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); +1 Prof FP raise: Op Fire while marked Op Fire (R 9.0); +3 Adjacent (PAC \u{a7}2b); +4 Target moving in Open Ground, range 1 (R 41.0) = 12 FP; roll 9 \u{2192} Suppressed (R 6.2)",
            "A1 MC: needs 6 or less, rolled 2 \u{2192} passed (R 9.0, R 7.1)",
            "A1 moves B3 \u{2192} A3: 1 MP, 3 left (R 5.0)",
            "Op Fire window: A1 enters A3; Axis may fire with G1 (R 9.0)",
            "Axis hold their fire at A3 (R 9.0)",
            "A1 ends its move in A3; Used (R 4.2)",
        ]
    );
}

/// `bob script` with Assault Fire (R 5.2) at Prof FP with no MC, and Op Fire
/// at the start hex of a unit whose first hex is a Melee hex (R 9.0).
#[test]
fn the_assault_fire_script_runs() {
    let out = script_output("assault_fire");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}6 (R 4.1)",
            "A4 moves (R 5.0); Ops Range 1/6",
            "A4 moves G7 \u{2192} H7: 1 MP, 4 left (R 5.0)",
            "Op Fire window: A4 enters H7; Axis may fire with G3, G4 (R 9.0)",
            "Axis hold their fire at H7 (R 9.0)",
            "A4 Assault Fires at I5; its move is over (R 5.2)",
            "A4 rolls 6 against I5 (R 6.2)",
            "G3: +5 Prof FP: Assault Fire (R 5.2) = 5 FP; roll 6 \u{2192} No Effect (R 6.2)",
            "A4 ends its move in H7; Used (R 4.2)",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}6 (R 4.1)",
            "G4 marked Op Fire (R 4.3); Ops Range 1/6",
            "Axis pass after 1 (R 4.1)",
            "Allies Ops Range 1\u{2013}6 (R 4.1)",
            "A5 moves (R 5.0); Ops Range 1/6",
            "Op Fire window: A5 leaves H4 for the Melee in I5; Axis may fire at H4 with G3, G4 (R 9.0)",
            "G4 Op Fires at A5 in H4 and is Used (R 9.0, R 4.3)",
            "G4 rolls 6 against H4 (R 6.2)",
            "A5: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire while marked Op Fire (R 9.0); +4 Target moving in Open Ground, range 4 (R 41.0) = 8 FP; roll 6 \u{2192} Suppressed (R 6.2)",
            "A5 MC: needs 6 or less, rolled 4 \u{2192} passed (R 9.0, R 7.1)",
            "A5 moves H4 \u{2192} I5: 1 MP, 4 left (R 5.0)",
            "A5 ends its move in I5; Used (R 4.2)",
        ]
    );
}

/// `bob script` with a Conceal counter regained out of all enemy LOS (R 15.0),
/// a back-up out of an over-stacked hex after a failed MC (R 5.0) and a
/// Declared Retreat's +4 Morale (R 5.3, R 9.0).
#[test]
fn the_retreat_and_backup_script_runs() {
    let out = script_output("retreat_backup");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}6 (R 4.1)",
            "A10 marked Used (R 4.2); Ops Range 1/6",
            "A10 takes a Conceal counter: Used out of all enemy LOS (R 15.0)",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}6 (R 4.1)",
            "G5 marked Op Fire (R 4.3); Ops Range 1/6",
            "G6 marked Op Fire (R 4.3); Ops Range 2/6",
            "Axis pass after 2 (R 4.1)",
            "Allies Ops Range 1\u{2013}6 (R 4.1)",
            "A6 moves (R 5.0); Ops Range 1/6",
            "A6 moves M4 \u{2192} N4: 1 MP, 4 left (R 5.0)",
            "Op Fire window: A6 enters N4; Axis may fire with G5, G6 (R 9.0)",
            "G5 Op Fires at A6 in N4 and is Used (R 9.0, R 4.3)",
            "G5 rolls 6 against N4 (R 6.2)",
            "A6: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire while marked Op Fire (R 9.0); +4 Target moving in Open Ground, range 3 (R 41.0) = 8 FP; roll 6 \u{2192} Suppressed (R 6.2)",
            "A7: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire while marked Op Fire (R 9.0) = 4 FP; roll 6 \u{2192} No Effect (R 6.2)",
            "A8: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire while marked Op Fire (R 9.0) = 4 FP; roll 6 \u{2192} No Effect (R 6.2)",
            "A6 MC: needs 6 or less, rolled 9 \u{2192} failed (R 9.0, R 7.1)",
            "A6 backs up N4 -> M4: its failed move over-stacked N4; no Op Fire (R 5.0, R 9.0)",
            "A6 ends its move in M4; Used (R 4.2)",
            "A9 moves (R 5.0); Ops Range 2/6",
            "A9 Declares Retreat: +4 Morale for its MCs, moves as a Routing unit (R 5.3)",
            "A9 MC: Morale 14, passed with no roll (R 5.3, R 7.1)",
            "A9 moves O3 \u{2192} N2: 1 MP, 4 left (R 5.0)",
            // G5, Used, may Final Op Fire beyond one hex for a CP (R 10.0).
            "Op Fire window: A9 enters N2; Axis may fire with G5, G6 (R 9.0)",
            "G6 Op Fires at A9 in N2 and is Used (R 9.0, R 4.3)",
            "G6 rolls 6 against N2 (R 6.2)",
            "A9: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire while marked Op Fire (R 9.0); +2 Target moving in Open Ground, range 6 (R 41.0) = 6 FP; roll 6 \u{2192} Suppressed (R 6.2)",
            "A9 MC: Morale 10, passed with no roll (R 9.0, R 7.1)",
            "A9 moves N2 \u{2192} M2: 1 MP, 3 left (R 5.0)",
            "Op Fire window: A9 enters M2; Axis may fire with G5 (R 9.0)",
            "Axis hold their fire at M2 (R 9.0)",
            "A9 ends its move in M2; Used (R 4.2)",
        ]
    );
}

/// Movement orders the rules refuse on the skirmish ground: Withdrawal into
/// another enemy hex (R 5.1), Declared Retreat from a Melee with no friend
/// left in it (its enemy is then not in Melee), with Assault Fire, closer
/// to or next to an enemy (R 5.3, R 11.0), Assault Fire twice,
/// from a Melee hex, by a Squad without Fireteams mid move (R 5.2, R 58.3).
#[test]
fn illegal_movement_options_are_refused_with_their_reason() {
    assert_refused(
        "tests/data/skirmish.ron",
        &[
            (
                r#"move(unit: "A1", path: ["C4", "C5", "C6", "D6"])"#,
                "a Withdrawal may not enter D6, a hex with another enemy unit (R 5.1)",
            ),
            (
                r#"move(unit: "A1", path: ["B3"], declared_retreat: true)"#,
                "step 1: B3 is next to the enemy in C3: a Declared Retreat moves as a Routing unit (R 5.3, R 11.0)",
            ),
            (
                r#"move(unit: "A9", path: ["N2"], declared_retreat: true, assault_fire: Some("P6"))"#,
                "a Declared Retreat may not Assault Fire (R 5.3)",
            ),
            (
                r#"move(unit: "A9", path: ["O4"], declared_retreat: true)"#,
                "step 1: O4 is closer to the enemy in P6, seen during the move: a Declared Retreat moves as a Routing unit (R 5.3, R 11.0)",
            ),
            (
                r#"move(unit: "A5", path: ["I4"], declared_retreat: true)"#,
                "step 1: I4 is next to the enemy in I5: a Declared Retreat moves as a Routing unit (R 5.3, R 11.0)",
            ),
            (
                r#"move(unit: "A4", path: ["H7"], assault_fire: Some("I5"), fireteam_fire: Some((after: 0, target: "I5")))"#,
                "a Fireteam that Assault Fires during its move may not Assault Fire at its end (R 58.3)",
            ),
            (
                r#"move(unit: "A5", path: ["I5"], assault_fire: Some("I5"))"#,
                "no fire from a location with an enemy unit (R 6.1)",
            ),
            (
                r#"move(unit: "A4", path: ["H7"], fireteam_fire: Some((after: 0, target: "I5")))"#,
                "no Assault Fire: only a Fireteam Squad Assault Fires before or mid move (R 58.3)",
            ),
            (
                r#"move(unit: "A4", path: ["H7"], assault_fire: Some("J1"))"#,
                "no enemy unit in J1",
            ),
        ],
    );
}

/// Runs each script's orders on a scenario; each must stop with its reason.
fn assert_refused(scenario: &str, cases: &[(&str, &str)]) {
    let bob = env!("CARGO_BIN_EXE_bob");
    let dir = std::env::temp_dir().join(format!(
        "bob-refused-{}-{}",
        std::process::id(),
        scenario.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    for (orders, reason) in cases {
        let text = format!("(scenario: {scenario:?}, orders: [{orders}])");
        let file = dir.join("m.ron");
        std::fs::write(&file, text).unwrap();
        let out = std::process::Command::new(bob)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("script")
            .arg(&file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(1), "{orders}: {err}");
        assert!(err.ends_with(&format!("refused: {reason}\n")), "{err}");
    }
}

/// Without a display, `bob play` says so and exits 1 instead of failing
/// inside the window system; a bad `--mode` is refused by the command line.
#[test]
fn no_display_and_a_bad_mode_are_clear_errors() {
    let bob = env!("CARGO_BIN_EXE_bob");
    let out = std::process::Command::new(bob)
        .args(["play", "training"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "bob: no display (DISPLAY and WAYLAND_DISPLAY are unset); run it on a desktop, or under `xvfb-run`\n"
    );
    let out = std::process::Command::new(bob)
        .args(["screenshot", "training", "x.png", "--mode", "bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with("error: invalid value 'bogus' for '--mode <MODE>'"),
    );
}

#[test]
fn the_fireteam_script_runs() {
    // R 58.3: 2 MP and Prof FP -2 to fire mid move, then the move goes on.
    let out = script_output("fireteam");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 moves (R 5.0); Ops Range 1/3",
            "M1 moves B3 \u{2192} C3: 1 MP, 4 left (R 5.0)",
            "Op Fire window: M1 enters C3; Axis may fire with J1, J2 (R 9.0)",
            "Axis hold their fire at C3 (R 9.0)",
            "M1 Assault Fires at F3 by Fireteams: 2 MP, 2 left, Prof -2 (R 58.3)",
            "M1 rolls 4 against F3 (R 6.2)",
            "J1: +5 Prof FP: Assault Fire (R 5.2); \u{2212}2 Fireteam fire before or mid move (Prof FP) (R 58.3); \u{2212}1 Kunai Grass (PAC \u{a7}2a) = 2 FP; roll 4 \u{2192} No Effect (R 6.2)",
            "M1 moves C3 \u{2192} D3: 1 MP, 1 left (R 5.0)",
            "Op Fire window: M1 enters D3; Axis may fire with J1, J2 (R 9.0)",
            "Axis hold their fire at D3 (R 9.0)",
            "M1 ends its move in D3; Used (R 4.2)",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

#[test]
fn concealed_setup_must_be_entitled_to_its_counter() {
    // R 15.0: A1 in Open Ground in sight of G1 may not set up Concealed;
    // G1 in the woods of E3 may.
    let text = broken(
        "(id: \"A1\", unit: \"para_squad\", side: allies, at: \"A2\")",
        "(id: \"A1\", unit: \"para_squad\", side: allies, at: \"A2\", concealed: true)",
    )
    .replacen(
        "(id: \"G1\", unit: \"ger1_squad\", side: axis, at: \"E3\")",
        "(id: \"G1\", unit: \"ger1_squad\", side: axis, at: \"E3\", concealed: true)",
        1,
    );
    let (out, ok) = check_text(&text);
    assert!(!ok);
    assert_eq!(
        out,
        "bad.ron:50:14: unit A1 may not set up Concealed: A2 is Open Ground in the LOS of the enemy at E3: a Conceal counter needs Beneficial Terrain, no enemy LOS, a Hedgerow or Wall alongside, or a Hill (R 15.0)\n"
    );
}

/// R 18.0: a reinforcement entering by an edge may be kept off board for a
/// later turn, but not past the last turn.
#[test]
fn reinforcements_may_be_kept_off_board_until_the_last_turn() {
    let out = script_output("hold");
    let lines: Vec<&str> = out.lines().collect();
    let from = |first: &str| {
        let i = lines.iter().position(|l| *l == first).expect(first);
        lines[i..i + 3].to_vec()
    };
    assert_eq!(
        from("Turn 2 begins (R 13.0)"),
        [
            "Turn 2 begins (R 13.0)",
            "Axis to decide: where G2 enters or to keep it off board, one of F1, F2, F3, F4, F5 (R 18.0)",
            "G2 is kept off board until a later turn (R 18.0)",
        ]
    );
    assert_eq!(
        from("Turn 3 begins (R 13.0)"),
        [
            "Turn 3 begins (R 13.0)",
            "Axis to decide: where G2 enters, one of F1, F2, F3, F4, F5 (R 18.0)",
            "G2 enters as a reinforcement at F1 (R 18.0)",
        ]
    );
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scripts/hold.ron"
    ))
    .unwrap()
    .replace("place(unit: \"G2\", at: \"F1\")", "hold(unit: \"G2\")");
    let (code, _, err) = run_script_text("hold_last.ron", &script);
    assert_eq!(code, Some(1));
    assert!(
        err.ends_with("refused: G2 must enter now: reinforcements entering in their AOC, or on the last turn, cannot be kept off board (R 18.0)\n"),
        "{err}"
    );
}

/// R 17.0 entry 9, R 3.0: one-time CPs are kept until spent. The turn's CP
/// goes first (the re-roll leaves 2), the Recovery Phase returns the turn's
/// CP and keeps the two one-time CPs, so acting first on turn 2 leaves 2.
#[test]
fn one_time_cps_are_kept_through_the_recovery_phase() {
    let out = script_output("events_cp_kept");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 fires at E3 (R 6.0); Ops Range 1/3",
            "A1 rolls 1 against E3 (R 6.2)",
            "G1: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Reduced and Fully Suppressed (R 6.2)",
            "A1 rolled a 1: Combat Event roll 2 -> Axis roll on the Combat Event Table (R 17.0)",
            "Axis roll 7 on the Combat Event Table: entry 7, Pinned (R 17.0)",
            "Combat Event: Axis pick 2 of A2, A3, A4, G1, G2: unconcealed Squads/WTs marked Used (R 17.0)",
            "Axis pick A2, A3 (R 17.0)",
            "A2 is marked Used (R 17.0)",
            "A3 is marked Used (R 17.0)",
            "A4 fires at E3 (R 6.0); Ops Range 2/3",
            "A4 rolls 1 against E3 (R 6.2)",
            "G1: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "G1 is eliminated (R 8.0)",
            "A4 rolled a 1: Combat Event roll 2 -> Axis roll on the Combat Event Table (R 17.0)",
            "Axis roll 10 on the Combat Event Table: entry 10, Choice (R 17.0)",
            "Combat Event: Axis pick 1 of 1, 2, 3, 4, 5, 6, 7, 8, 9: the entry of the Combat Event Table that happens (R 17.0)",
            "Axis pick 9 (R 17.0)",
            "Axis choose entry 9, Command Points (R 17.0)",
            "Axis gain 2 one-time CPs, 2 held (R 17.0)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "G2: a CP is ready to re-roll a failed MC (R 3.0 #1)",
            "G2 fires at B3 (R 6.0); Ops Range 1/3",
            "G2 MC: needs 8 or less, rolled 9 \u{2192} failed (R 6.0, R 7.1)",
            "Axis spend a CP on G2: re-roll a failed MC (R 3.0 #1); 2 CP left",
            "G2 MC: needs 8 or less, rolled 5 \u{2192} passed (R 6.0, R 7.1)",
            "G2 rolls 8 against B3 (R 6.2)",
            "A1: +4 Normal FP (R 2.1) = 4 FP; roll 8 \u{2192} No Effect (R 6.2)",
            "G3 marked Used (R 4.2); Ops Range 2/3",
            "GD1 marked Used (R 4.2); Ops Range 3/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Allies Rout Phase: A1, A2, A4 must check (R 11.0)",
            "A1 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "A2 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "A4 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Axis Rout Phase: G2 must check (R 11.0)",
            "G2 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 8 (R 11.0)",
            "G2 MC: needs 8 or less, rolled 7 \u{2192} passed (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "No Melee this turn (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Turn 2 begins (R 13.0)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "G3: a CP is ready to act before the first player (R 3.0 #2, R 4.0)",
            "Axis spend a CP on G3: act before the first player (R 3.0 #2, R 4.0); 2 CP left",
            "G3 marked Used (R 4.2); Ops Range 0/3",
        ]
    );
}
