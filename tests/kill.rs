//! The kill test: a scripted game runs in a child process (`bob script
//! --journal`), is killed with SIGKILL at random points many times and
//! resumed each time (`--resume`); it ends with the same journal, the same
//! event log and the same final state as an uninterrupted run.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bob::engine::game::{apply, begin_game};
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::engine::script::Script;

mod common;

const BOB: &str = env!("CARGO_BIN_EXE_bob");

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bob-kill-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The accepted orders of a seeded random game, as a script.
fn random_script(name: &str, seed: u64) -> Script {
    let mut world = common::headless(name, seed);
    let mut rng = Lcg(seed);
    begin_game(&mut world);
    let mut orders = Vec::new();
    for _ in 0..3000 {
        if world.get_resource::<GameOver>().is_some() {
            break;
        }
        let order = random_order(&mut world, &mut rng);
        if apply(&mut world, &order).is_ok() {
            orders.push(order);
        }
    }
    Script {
        scenario: name.into(),
        seed,
        rolls: vec![],
        orders,
    }
}

fn replay_log(journal: &PathBuf) -> String {
    let out = Command::new(BOB)
        .arg("replay")
        .arg(journal)
        .arg("--log")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_game_killed_many_times_ends_like_an_uninterrupted_one() {
    let dir = temp_dir("game");
    // The longest of a few seeded random games.
    let script = (0..40)
        .flat_map(|seed| ["guadalcanal", "training"].map(|n| random_script(n, seed)))
        .max_by_key(|s| s.orders.len())
        .unwrap();
    assert!(script.orders.len() > 20, "{}", script.orders.len());
    let script_path = dir.join("game.ron");
    std::fs::write(&script_path, ron::to_string(&script).unwrap()).unwrap();

    // The uninterrupted run.
    let clean = dir.join("clean.ron");
    let t0 = Instant::now();
    let out = Command::new(BOB)
        .args(["script"])
        .arg(&script_path)
        .arg("--journal")
        .arg(&clean)
        .output()
        .unwrap();
    let full_time = t0.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let clean_stdout = String::from_utf8(out.stdout).unwrap();
    let clean_log = replay_log(&clean);
    assert_eq!(clean_log, clean_stdout);

    // Killed at random points, resumed each time; rounds of whole games
    // until enough kills have landed.
    let mut rng = Lcg(7);
    let span = full_time.as_micros().max(2000) as usize;
    let mut kills = 0;
    let mut rounds = 0;
    let body = |p: &PathBuf| {
        let t = std::fs::read_to_string(p).unwrap();
        t.split_once('\n').unwrap().1.to_string()
    };
    // The cap is far above need: how many kills land per game depends on
    // the machine's speed, so rounds go on until 50 have.
    while kills < 50 && rounds < 400 {
        rounds += 1;
        let killed = dir.join(format!("killed-{rounds}.ron"));
        let mut last_stdout = None;
        for attempt in 0..200 {
            let mut child = Command::new(BOB)
                .args(["script"])
                .arg(&script_path)
                .arg("--journal")
                .arg(&killed)
                .arg("--resume")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // Late attempts run longer, so the game surely ends.
            let wait = if attempt < 30 {
                rng.below(span)
            } else {
                span * 4
            };
            std::thread::sleep(Duration::from_micros(wait as u64));
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap();
                if !child.wait().unwrap().success() {
                    kills += 1;
                    continue;
                }
            }
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "round {rounds} attempt {attempt}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            last_stdout = Some(String::from_utf8(out.stdout).unwrap());
            break;
        }
        assert_eq!(
            last_stdout.as_deref(),
            Some(clean_stdout.as_str()),
            "round {rounds}: the resumed run's whole log"
        );
        assert_eq!(replay_log(&killed), clean_log, "round {rounds}");
        // The journals agree entry for entry (the header's start date aside).
        assert_eq!(
            body(&killed),
            body(&clean),
            "round {rounds}: the journals' entries"
        );
    }
    eprintln!(
        "kill test: {kills} SIGKILLs survived in {rounds} games of {} ({} orders each, uninterrupted run {} ms)",
        script.scenario,
        script.orders.len(),
        full_time.as_millis()
    );
    assert!(kills >= 50, "only {kills} kills landed");
}
