//! Hostile input: every RON reader (scenario, journal/save, script,
//! settings, the roster and Player Aid data files) fed thousands of byte-level mutations of
//! real files answers with a result or a located error, never a panic or a
//! hang; the hand-written bad files in `tests/bad/` each give their exact
//! message (`NAME.expected`); a 50 MB file is refused before it is read.

mod common;
use common::data;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bob::engine::game::{apply, begin_game};
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::engine::{headless_world, script};
use bob::journal::file::{JournalWriter, parse_journal};
use bob::journal::replay::{header_for, scenario_of};
use bob::journal::{content_hash, replay, state_hash};
use bob::scenario::validate::Problem;
use bob::scenario::{self, FileReport, PlayerAid, Roster};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Byte-level mutations of `good`: overwrite, delete, insert a RON-ish byte,
/// duplicate or cut a run; 1 to 4 per case. Seeded, so a failure replays.
struct Mutator(Lcg);

impl Mutator {
    fn mutate(&mut self, good: &[u8]) -> Vec<u8> {
        let r = &mut self.0;
        let mut bytes = good.to_vec();
        for _ in 0..1 + r.below(4) {
            if bytes.is_empty() {
                bytes.push(b'(');
            }
            let at = r.below(bytes.len());
            match r.below(5) {
                0 => bytes[at] = r.below(256) as u8,
                1 => {
                    bytes.remove(at);
                }
                2 => bytes.insert(at, b"\"[(:,)]0Z9-\n\\"[r.below(13)]),
                3 => {
                    let end = (at + 1 + r.below(40)).min(bytes.len());
                    let run = bytes[at..end].to_vec();
                    bytes.splice(at..at, run);
                }
                _ => bytes.truncate(at),
            }
        }
        bytes
    }
}

fn assert_located(r: &FileReport) {
    assert!(!r.problems.is_empty());
    for p in &r.problems {
        assert!(p.line >= 1 && p.col >= 1, "{p:?}");
        assert!(!p.message.is_empty());
    }
}

/// Runs `cases` mutations of `good` through `read`; returns (cases, refused).
fn campaign(
    good: &[u8],
    seed: u64,
    cases: usize,
    mut read: impl FnMut(&[u8]) -> Result<(), FileReport>,
) -> (usize, usize) {
    let mut m = Mutator(Lcg(seed));
    let mut refused = 0;
    for i in 0..cases {
        let bytes = m.mutate(good);
        let t = Instant::now();
        if let Err(r) = read(&bytes) {
            assert_located(&r);
            refused += 1;
        }
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "case {i} of seed {seed} took {:?}",
            t.elapsed()
        );
    }
    (cases, refused)
}

/// A journal of a random game, as bytes.
fn a_journal(name: &str, seed: u64) -> Vec<u8> {
    let (roster, aid) = data();
    let loaded = bob::world::load(name, &roster, &aid).unwrap();
    let header = header_for(&loaded.scenario, seed, &[]);
    let mut world = headless_world(loaded, roster, aid, seed);
    let dir = std::env::temp_dir().join(format!("bob-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}-{seed}.ron"));
    let mut w = JournalWriter::create(&path, &header).unwrap();
    let mut rng = Lcg(seed);
    begin_game(&mut world);
    for _ in 0..400 {
        if world.get_resource::<GameOver>().is_some() {
            break;
        }
        let order = random_order(&mut world, &mut rng);
        if apply(&mut world, &order).is_ok() {
            w.append(&order, state_hash(&mut world)).unwrap();
        }
    }
    std::fs::read(&path).unwrap()
}

#[test]
fn mutated_journals_never_panic() {
    let (roster, aid) = data();
    let mut total = (0, 0);
    for (name, seed) in [("training", 1), ("guadalcanal", 2)] {
        let good = a_journal(name, seed);
        let (n, refused) = campaign(&good, seed, 1500, |b| {
            let read = parse_journal("j.ron", b)?;
            replay(&read, &roster, &aid).map(|_| ())
        });
        total = (total.0 + n, total.1 + refused);
    }
    eprintln!("journals: {} mutations, {} refused", total.0, total.1);
    assert!(total.1 > 1000, "most mutations are refused ({})", total.1);
}

#[test]
fn mutated_scripts_never_panic() {
    let (roster, aid) = data();
    let mut total = (0, 0);
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/scripts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for (i, f) in files.iter().enumerate() {
        let good = std::fs::read(f).unwrap();
        let (n, refused) = campaign(&good, 100 + i as u64, 500, |b| {
            let s = script::parse("s.ron", b)?;
            // Only built-in scenarios: a mutated name must not read the disk.
            if scenario::paths::refuse_escape(&s.scenario).is_some() || s.scenario.contains('.') {
                return Ok(());
            }
            script::run(&s, &roster, &aid).map(|_| ())
        });
        total = (total.0 + n, total.1 + refused);
    }
    eprintln!("scripts: {} mutations, {} refused", total.0, total.1);
    assert!(total.1 > 500, "{}", total.1);
}

#[test]
fn mutated_scenarios_and_data_files_never_panic() {
    let (roster, aid) = data();
    let mut total = (0, 0);
    for (i, f) in ["scenarios/guadalcanal.ron", "scenarios/training.ron"]
        .iter()
        .enumerate()
    {
        let good = std::fs::read(root().join(f)).unwrap();
        let (n, refused) = campaign(&good, 200 + i as u64, 800, |b| {
            bob::world::check_bytes("s.ron", b, &roster, &aid).map(|_| ())
        });
        total = (total.0 + n, total.1 + refused);
    }
    let units = std::fs::read(root().join("assets/units.ron")).unwrap();
    let (n, r) = campaign(&units, 300, 800, |b| {
        scenario::parse_data::<Roster>("units.ron", b).map(|_| ())
    });
    total = (total.0 + n, total.1 + r);
    let aid_file = std::fs::read(root().join("assets/player_aid.ron")).unwrap();
    let (n, r) = campaign(&aid_file, 301, 800, |b| {
        scenario::parse_data::<PlayerAid>("player_aid.ron", b).map(|_| ())
    });
    total = (total.0 + n, total.1 + r);
    eprintln!(
        "scenarios and data files: {} mutations, {} refused",
        total.0, total.1
    );
    assert!(total.1 > 1500, "{}", total.1);
}

/// What reading a bad file produces: the error report, or for a journal
/// that still resumes, the note about what was dropped.
fn outcome(path: &Path) -> String {
    let (roster, aid) = data();
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let mut bytes = std::fs::read(path).unwrap();
    if file.starts_with("journal-") {
        // A valid header needs today's content hash of `training`.
        let training = bob::world::load("training", &roster, &aid).unwrap();
        let text = String::from_utf8_lossy(&bytes)
            .replace("@TRAINING@", &content_hash(&training.scenario));
        bytes = text.into_bytes();
        let result = parse_journal(&name, &bytes).and_then(|read| {
            scenario_of(&read, &roster, &aid)?;
            replay(&read, &roster, &aid)?;
            Ok(read.dropped.unwrap_or_else(|| "ok".into()))
        });
        return result.unwrap_or_else(|r| r.to_string());
    }
    if file.starts_with("settings-") {
        return match bob::settings::parse(&name, &bytes) {
            Ok(_) => "ok".into(),
            Err(r) => r.to_string(),
        };
    }
    if file.starts_with("script-") {
        let result = script::parse(&name, &bytes).and_then(|s| script::run(&s, &roster, &aid));
        return match result {
            Ok(run) => match run.stopped {
                Some((n, order, reason)) => {
                    format!("{name}: order {n} ({order}) refused: {reason}")
                }
                None => "ok".into(),
            },
            Err(r) => r.to_string(),
        };
    }
    match bob::world::check_bytes(&name, &bytes, &roster, &aid) {
        Ok(_) => "ok".into(),
        Err(r) => r.to_string(),
    }
}

#[test]
fn every_bad_file_gives_its_exact_message() {
    let dir = root().join("tests/bad");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let got = outcome(f);
        let expected_path = f.with_extension("expected");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if std::env::var_os("BOB_BLESS").is_some() {
            std::fs::write(&expected_path, format!("{got}\n")).unwrap();
        } else if got != expected.trim_end_matches('\n') {
            failures.push(format!(
                "{}:\n  expected: {}\n  got:      {got}",
                f.display(),
                expected.trim_end()
            ));
        }
    }
    eprintln!("bad files: {} tried", files.len() + 1);
    assert!(files.len() >= 20, "{}", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A 50 MB file of junk (made here, never committed) is refused by its size
/// before a byte is read, by every reader and by the binary.
#[test]
fn a_50_mb_file_of_junk_is_refused_before_it_is_read() {
    let dir = std::env::temp_dir().join(format!("bob-junk50-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("junk.ron");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let mut r = Lcg(50);
        let mut block = vec![0u8; 1 << 20];
        for _ in 0..50 {
            for b in block.iter_mut() {
                *b = r.next_u64() as u8;
            }
            f.write_all(&block).unwrap();
        }
    }
    let expected =
        |name: &str| format!("{name}:1:1: file is 52428800 bytes; the limit is 4194304 bytes");
    let name = path.display().to_string();
    let t = Instant::now();
    let r = scenario::read_file(&path).unwrap_err();
    assert_eq!(r.to_string(), expected(&name));
    let r = bob::journal::read_journal(&path).unwrap_err();
    assert_eq!(r.to_string(), expected(&name));
    assert!(t.elapsed() < Duration::from_secs(1));
    let bob = env!("CARGO_BIN_EXE_bob");
    for args in [
        vec!["check", &name],
        vec!["replay", &name, "--log"],
        vec!["script", &name],
        vec!["play", "--load", &name],
    ] {
        let out = std::process::Command::new(bob)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(text.trim_end(), expected(&name), "{args:?}");
    }
    let _ = std::fs::remove_file(&path);
    // Bytes in memory over the limit are refused the same way.
    let big = vec![b' '; 4 * 1024 * 1024 + 1];
    let p: Problem = bob::scenario::validate::text_of(&big).unwrap_err();
    assert_eq!(
        p.message,
        "file is 4194305 bytes; the limit is 4194304 bytes"
    );
}

#[test]
fn mutated_settings_never_panic() {
    let good = "(\n    hand_over: true,\n    dice_seconds: 0.6,\n    ui_scale: 1.25,\n    vs_bot: false,\n)\n";
    assert!(bob::settings::parse("settings.ron", good.as_bytes()).is_ok());
    let (n, refused) = campaign(good.as_bytes(), 400, 3000, |b| {
        bob::settings::parse("settings.ron", b).map(|_| ())
    });
    eprintln!("settings: {n} mutations, {refused} refused");
    assert!(refused > 1500, "{refused}");
}
