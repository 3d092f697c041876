//! The journal: replaying a journal gives the same event log byte for byte
//! and the same state, for many seeded random games of both scenarios; a
//! journal cut mid-line resumes to its last complete entry; an open Op Fire
//! window is open again after a resume.

mod common;
use common::data;

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use bob::engine::game::{apply, begin_game};
use bob::engine::op_fire::OpFireWindow;
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::engine::{Order, headless_world};
use bob::journal::file::{JournalWriter, parse_journal, read_journal};
use bob::journal::replay::header_for;
use bob::journal::state::state_text;
use bob::journal::{replay, state_hash};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bob-journal-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A seeded random game, journaled to `path` as it is played; stops early
/// when `stop` says so. Returns the event log and the final state text.
fn journaled_game(
    name: &str,
    seed: u64,
    path: &Path,
    stop: impl Fn(&mut World) -> bool,
) -> (Vec<String>, String) {
    journaled_game_answering(name, seed, path, stop, |_| None)
}

/// As [`journaled_game`], with `answer` giving the order instead of the
/// random player where it returns one.
fn journaled_game_answering(
    name: &str,
    seed: u64,
    path: &Path,
    stop: impl Fn(&mut World) -> bool,
    answer: impl Fn(&mut World) -> Option<Order>,
) -> (Vec<String>, String) {
    let (roster, aid) = data();
    let loaded = bob::world::load(name, &roster, &aid).unwrap();
    let header = header_for(&loaded.scenario, seed, &[]);
    let mut world = headless_world(loaded, roster, aid, seed);
    let mut writer = JournalWriter::create(path, &header).unwrap();
    let mut rng = Lcg(seed ^ 0x5eed);
    let mut lines: Vec<String> = begin_game(&mut world).iter().map(|e| e.line()).collect();
    for _ in 0..2000 {
        if world.get_resource::<GameOver>().is_some() || stop(&mut world) {
            break;
        }
        let order = answer(&mut world).unwrap_or_else(|| random_order(&mut world, &mut rng));
        if let Ok(events) = apply(&mut world, &order) {
            writer.append(&order, state_hash(&mut world)).unwrap();
            lines.extend(events.iter().map(|e| e.line()));
        }
    }
    (lines, state_text(&mut world))
}

#[test]
fn replaying_a_journal_gives_the_same_log_byte_for_byte() {
    let (roster, aid) = data();
    let dir = temp_dir("determinism");
    let mut games = 0;
    let mut orders = 0;
    for name in ["training", "guadalcanal"] {
        for seed in 0..60 {
            let path = dir.join(format!("{name}-{seed}.ron"));
            let (lines, state) = journaled_game(name, seed, &path, |_| false);
            let read = read_journal(&path).unwrap();
            assert!(read.dropped.is_none());
            let mut r =
                replay(&read, &roster, &aid).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
            assert_eq!(
                r.lines.join("\n"),
                lines.join("\n"),
                "{name} seed {seed}: the replayed log differs"
            );
            assert_eq!(state_text(&mut r.world), state, "{name} seed {seed}");
            games += 1;
            orders += read.entries.len();
        }
    }
    eprintln!("determinism: {games} games, {orders} journaled orders replayed");
    assert_eq!(games, 120);
    assert!(orders > 2000, "{orders}");
}

#[test]
fn an_open_op_fire_window_is_open_again_after_a_resume() {
    let (roster, aid) = data();
    let dir = temp_dir("opfire");
    let mut found = 0;
    for seed in 0..200 {
        let path = dir.join(format!("g{seed}.ron"));
        let (_, state) = journaled_game("training", seed, &path, |w| {
            w.get_resource::<OpFireWindow>().is_some()
        });
        if !state.contains("opfire side=") {
            continue;
        }
        let read = read_journal(&path).unwrap();
        let mut r = replay(&read, &roster, &aid).unwrap();
        let window = r.world.get_resource::<OpFireWindow>().cloned();
        assert!(window.is_some(), "seed {seed}: the window is gone");
        assert_eq!(state_text(&mut r.world), state);
        // The answer the window waits for is accepted, any other order not.
        assert!(apply(&mut r.world, &Order::Pass).is_err());
        assert!(
            apply(
                &mut r.world,
                &Order::OpFire {
                    firers: vec![],
                    facing: Default::default()
                }
            )
            .is_ok()
        );
        found += 1;
        if found == 5 {
            break;
        }
    }
    assert_eq!(found, 5, "random games opening an Op Fire window");
}

#[test]
fn a_journal_cut_mid_line_resumes_to_its_last_complete_entry() {
    let (roster, aid) = data();
    let dir = temp_dir("cut");
    let path = dir.join("cut.ron");
    journaled_game("training", 11, &path, |_| false);
    let whole = std::fs::read(&path).unwrap();
    let full = parse_journal("cut.ron", &whole).unwrap();
    let n = full.entries.len();
    assert!(n > 10);
    // Cut the file in the middle of its last line.
    let last_start = whole[..whole.len() - 1]
        .iter()
        .rposition(|b| *b == b'\n')
        .unwrap()
        + 1;
    let cut_at = last_start + 9;
    std::fs::write(&path, &whole[..cut_at]).unwrap();
    let read = read_journal(&path).unwrap();
    assert_eq!(read.entries.len(), n - 1);
    let last_line = n + 1;
    let piece = String::from_utf8_lossy(&whole[last_start..cut_at]).to_string();
    assert_eq!(
        read.dropped.as_deref(),
        Some(
            format!(
                "{}:{last_line}: the last entry was cut off (9 bytes: `{piece}`) and is dropped; resuming after entry {}",
                path.display(),
                n - 1
            )
            .as_str()
        )
    );
    // Resuming cuts the piece away and goes on with the same order.
    let mut r = replay(&read, &roster, &aid).unwrap();
    let mut writer = JournalWriter::resume(&path, &read).unwrap();
    let order = full.entries[n - 1].1.order.clone();
    apply(&mut r.world, &order).unwrap();
    writer.append(&order, state_hash(&mut r.world)).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), whole);
}

#[test]
fn a_save_carries_a_summary_and_loads_to_the_same_state() {
    let (roster, aid) = data();
    let dir = temp_dir("save");
    let path = dir.join("game.ron");
    let (lines, state) = journaled_game("guadalcanal", 4, &path, |_| false);
    let read = read_journal(&path).unwrap();
    let mut r = replay(&read, &roster, &aid).unwrap();
    let to = bob::ui::session::save_path(&dir, "my-game_1").unwrap();
    let summary = bob::journal::replay::save(&to, &read, &r.world).unwrap();
    assert!(summary.turn >= 1, "{summary:?}");
    assert_eq!(summary.orders, read.entries.len());
    let loaded = read_journal(&to).unwrap();
    assert_eq!(loaded.header.summary.as_ref(), Some(&summary));
    let mut again = replay(&loaded, &roster, &aid).unwrap();
    assert_eq!(again.lines, lines);
    assert_eq!(state_text(&mut again.world), state);
    assert_eq!(state_text(&mut r.world), state);
    // A save name is a name, never a path.
    assert_eq!(
        bob::ui::session::save_path(&dir, "../../etc/passwd").unwrap_err(),
        "`../../etc/passwd`: a save name is letters, digits, `-` and `_` only (no folders)"
    );
}

#[test]
fn a_scenario_from_a_file_travels_inside_the_journal() {
    let (roster, aid) = data();
    let dir = temp_dir("inside");
    let text = std::fs::read_to_string("tests/data/minimal.ron").unwrap();
    let sc = bob::world::check_bytes("minimal.ron", text.as_bytes(), &roster, &aid).unwrap();
    let header = header_for(&sc, 3, &[]);
    assert!(header.scenario_text.is_some());
    let path = dir.join("m.ron");
    JournalWriter::create(&path, &header).unwrap();
    // The scenario file may be gone: the journal still replays.
    let read = read_journal(&path).unwrap();
    let r = replay(&read, &roster, &aid).unwrap();
    assert!(!r.lines.is_empty());
    // A built-in scenario is named, not carried.
    let training = bob::world::load("training", &roster, &aid).unwrap();
    assert_eq!(header_for(&training.scenario, 3, &[]).scenario_text, None);
}

/// A Peleliu game journaled past a Storm Check that changed the weather
/// (R 55.2) replays to the same state, the weather line included: a resume
/// mid-storm is checked against the hash.
#[test]
fn a_resume_after_the_storm_changed_checks_the_weather() {
    let (roster, aid) = data();
    let dir = temp_dir("storm");
    let mut found = 0;
    for seed in 0..40 {
        let path = dir.join(format!("p{seed}.ron"));
        let (_, state) = journaled_game("peleliu", seed, &path, |w| {
            w.get_resource::<bob::engine::monsoon::MonsoonState>()
                .is_some_and(|s| s.settled)
        });
        if !state.contains("\nweather raining=") {
            continue;
        }
        let read = read_journal(&path).unwrap();
        let mut r = replay(&read, &roster, &aid).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(state_text(&mut r.world), state, "seed {seed}");
        found += 1;
        if found == 3 {
            break;
        }
    }
    assert_eq!(found, 3, "Peleliu games whose weather changed");
}

/// R 2.2: a revealed unit's facing is an answer like any other. Random
/// games of Guadalcanal journal `face` orders and replay byte for byte; a
/// journal stopped at the question replays to the question, which then
/// takes its answer and nothing else.
#[test]
fn a_journal_with_a_revealed_unit_s_facing_replays_byte_for_byte() {
    let (roster, aid) = data();
    let dir = temp_dir("facing");
    let asked = |w: &mut World| {
        matches!(
            w.get_resource::<bob::engine::decision::Pending>(),
            Some(bob::engine::decision::Pending(
                bob::engine::decision::Decision::RevealedFacing { .. }
            ))
        )
    };
    let (mut whole, mut stopped) = (0, 0);
    for seed in 0..20 {
        let path = dir.join(format!("whole-{seed}.ron"));
        let (lines, state) = journaled_game("guadalcanal", seed, &path, |_| false);
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("order:face(") {
            let read = read_journal(&path).unwrap();
            let mut r = replay(&read, &roster, &aid).unwrap();
            assert_eq!(r.lines.join("\n"), lines.join("\n"), "seed {seed}");
            assert_eq!(state_text(&mut r.world), state, "seed {seed}");
            whole += 1;
        }
        let path = dir.join(format!("asked-{seed}.ron"));
        let (_, state) = journaled_game("guadalcanal", seed, &path, asked);
        if !state.contains("RevealedFacing") {
            continue;
        }
        let read = read_journal(&path).unwrap();
        let mut r = replay(&read, &roster, &aid).unwrap();
        assert!(asked(&mut r.world), "seed {seed}: the question is gone");
        assert_eq!(state_text(&mut r.world), state);
        assert!(apply(&mut r.world, &Order::Pass).is_err());
        let Some(bob::engine::decision::Pending(bob::engine::decision::Decision::RevealedFacing {
            unit,
            ..
        })) = r
            .world
            .get_resource::<bob::engine::decision::Pending>()
            .cloned()
        else {
            unreachable!()
        };
        assert!(apply(&mut r.world, &Order::Face { unit, facing: None }).is_ok());
        stopped += 1;
    }
    eprintln!("revealed facing: {whole} whole games, {stopped} stopped at the question");
    assert!(
        whole >= 3 && stopped >= 3,
        "{whole} whole, {stopped} stopped"
    );
}

/// A save written before a revealed unit chose its facing (R 2.2) holds no
/// `face` answers: the unit kept its facing and the action went on within
/// the same order. Made here from games whose every question was answered
/// "keep its own": each `face` entry taken out and the state it recorded
/// moved to the entry before it, as those versions recorded it. Such a
/// save loads whole, with the log and state of the game that answered.
#[test]
fn a_save_from_before_the_revealed_unit_s_facing_loads_whole() {
    let (roster, aid) = data();
    let dir = temp_dir("older-facing");
    let keep = |w: &mut World| match w.get_resource::<bob::engine::decision::Pending>() {
        Some(bob::engine::decision::Pending(bob::engine::decision::Decision::RevealedFacing {
            unit,
            ..
        })) => Some(Order::Face {
            unit: unit.clone(),
            facing: None,
        }),
        _ => None,
    };
    let mut older = 0;
    for seed in 0..20 {
        let path = dir.join(format!("keep-{seed}.ron"));
        let (lines, state) = journaled_game_answering("guadalcanal", seed, &path, |_| false, keep);
        let mut read = read_journal(&path).unwrap();
        let mut entries: Vec<(usize, bob::journal::Entry)> = Vec::new();
        for (line, entry) in read.entries.drain(..) {
            match (&entry.order, entries.last_mut()) {
                (Order::Face { .. }, Some(before)) => before.1.state = entry.state,
                _ => entries.push((line, entry)),
            }
        }
        let answered = entries.len() < read_journal(&path).unwrap().entries.len();
        read.entries = entries;
        if !answered {
            continue;
        }
        let mut r = replay(&read, &roster, &aid).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(r.lines.join("\n"), lines.join("\n"), "seed {seed}");
        assert_eq!(state_text(&mut r.world), state, "seed {seed}");
        older += 1;
    }
    eprintln!("{older} older saves loaded whole");
    assert!(older >= 3, "only {older} games met the question");
}
