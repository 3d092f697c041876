//! Never lose a game when the disk fills or a second window opens on it
//! (issue 27): an order whose journal write fails is refused in the window's
//! own order path (`ui::act::send`) and taken back, the journal never holds
//! a partial line, the game goes on when space returns; a journal another
//! process holds is refused, and a killed holder leaves no lock behind.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bevy::prelude::World;
use bob::engine::Order;
use bob::engine::game::{apply, begin_game};
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::journal::file::{JournalSink, JournalWriter, held_elsewhere, lock, read_journal};
use bob::journal::replay::header_for;
use bob::journal::{JournalRead, state_hash};
use bob::ui::orders::GameLog;
use bob::ui::session::{
    GameJournal, JournalLaunch, JournalStop, JournalWarning, LaunchMode, start_game,
};

mod common;

const BOB: &str = env!("CARGO_BIN_EXE_bob");

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bob-write-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A journal file on a disk with `room` bytes left: a write past it stops
/// mid-line with the OS's "No space left on device"; cutting the file back
/// gives the room back.
#[derive(Debug)]
struct Tight {
    file: File,
    room: Arc<AtomicU64>,
}

const ENOSPC: i32 = 28;

impl Write for Tight {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.room.load(Ordering::SeqCst);
        if room == 0 {
            return Err(std::io::Error::from_raw_os_error(ENOSPC));
        }
        let n = self.file.write(&buf[..buf.len().min(room as usize)])?;
        self.room.fetch_sub(n as u64, Ordering::SeqCst);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl JournalSink for Tight {
    fn sync(&mut self) -> std::io::Result<()> {
        self.file.sync_data()
    }

    fn cut(&mut self, len: u64) -> std::io::Result<()> {
        let was = self.file.metadata()?.len();
        self.file.set_len(len)?;
        self.room
            .fetch_add(was.saturating_sub(len), Ordering::SeqCst);
        Ok(())
    }
}

/// The training scenario on a headless board with the window's order path
/// (log, dice tray, `OrderShown` with the log's view), its game begun, and
/// a journal at `path` on a disk with `room` bytes left.
fn board(path: &Path, seed: u64, room: &Arc<AtomicU64>) -> World {
    let mut w = common::headless("training", seed);
    w.init_resource::<bob::ui::act::OrderCount>();
    w.init_resource::<GameLog>();
    w.init_resource::<bob::ui::tray::DiceTray>();
    w.init_resource::<bob::ui::tray::UiSettings>();
    w.init_resource::<bob::ui::tray::LogHighlight>();
    w.init_resource::<bob::ui::Selected>();
    let mut shown = bob::ui::act::order_shown_schedule();
    shown.add_systems(bob::ui::act::show_in_log);
    w.add_schedule(shown);
    let header = header_for(
        &w.resource::<bob::world::ActiveScenario>().scenario,
        seed,
        &[],
    );
    bob::journal::file::write_copy(path, &header, &[]).unwrap();
    let file = OpenOptions::new().append(true).open(path).unwrap();
    let len = file.metadata().unwrap().len();
    let sink = Tight {
        file,
        room: room.clone(),
    };
    let writer = JournalWriter::on(Box::new(sink), path, 0, len);
    w.insert_resource(GameJournal::new(writer, header, Vec::new()));
    let events = begin_game(&mut w);
    w.resource_mut::<GameLog>().push_events(&events);
    w
}

/// The next random order the engine accepts in `w`'s position (tried on a
/// replay of its journal, so `w` is not touched).
fn next_order(w: &World, rng: &mut Lcg) -> Order {
    let kept: JournalRead = w.resource::<GameJournal>().kept.clone();
    let (roster, aid) = common::data();
    let mut scratch = bob::journal::replay(&kept, &roster, &aid).unwrap().world;
    loop {
        let order = random_order(&mut scratch, rng);
        if apply(&mut scratch, &order).is_ok() {
            return order;
        }
        scratch = bob::journal::replay(&kept, &roster, &aid).unwrap().world;
    }
}

/// The journal on disk: whole lines only, replayed to `w`'s state.
fn journal_agrees(path: &Path, w: &mut World, orders: usize) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes.last(), Some(&b'\n'), "a partial line on disk");
    let read = read_journal(path).unwrap();
    assert!(read.dropped.is_none(), "{:?}", read.dropped);
    assert_eq!(read.entries.len(), orders);
    let (roster, aid) = common::data();
    let mut replayed = bob::journal::replay(&read, &roster, &aid).unwrap().world;
    assert_eq!(state_hash(&mut replayed), state_hash(w));
}

#[test]
fn an_order_whose_write_fails_mid_line_is_refused_taken_back_and_played_when_space_returns() {
    let dir = temp_dir("full");
    let path = dir.join("training.ron");
    let room = Arc::new(AtomicU64::new(u64::MAX / 2));
    let mut w = board(&path, 11, &room);
    let mut rng = Lcg(11);
    for _ in 0..6 {
        let order = next_order(&w, &mut rng);
        assert!(bob::ui::act::send(&mut w, &order), "{order:?}");
    }
    journal_agrees(&path, &mut w, 6);

    // The disk fills: the next line gets 20 bytes on disk, then no more.
    let order = next_order(&w, &mut rng);
    let before = state_hash(&mut w);
    let lines = w.resource::<GameLog>().lines.clone();
    let count = w.resource::<bob::ui::act::OrderCount>().0;
    let size = std::fs::metadata(&path).unwrap().len();
    for _ in 0..2 {
        room.store(20, Ordering::SeqCst);
        assert!(!bob::ui::act::send(&mut w, &order));
        // Refused, with the OS error, the file and what to do; the position
        // is the one before the order, and nothing of it is shown.
        let told = format!(
            "The journal {} could not be written: No space left on device (os error 28). \
             The order was not played; the game stands as before it. \
             Free some space and give the order again.",
            path.display()
        );
        assert_eq!(w.resource::<GameLog>().refusal.as_deref(), Some(&*told));
        assert_eq!(w.resource::<JournalWarning>().0, told);
        assert!(w.get_resource::<JournalStop>().is_none());
        assert_eq!(state_hash(&mut w), before);
        assert_eq!(w.resource::<GameLog>().lines, lines);
        assert!(w.resource::<bob::ui::act::OrderCount>().0 > count);
        // The fragment was cut back: the file is as it was.
        assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
        journal_agrees(&path, &mut w, 6);
    }
    // Space returns: the same order is played, and the game goes on.
    room.store(u64::MAX / 2, Ordering::SeqCst);
    assert!(bob::ui::act::send(&mut w, &order));
    assert!(w.get_resource::<JournalWarning>().is_none());
    assert!(w.resource::<GameLog>().refusal.is_none());
    assert!(w.resource::<GameLog>().lines.len() > lines.len());
    for _ in 0..4 {
        let order = next_order(&w, &mut rng);
        assert!(bob::ui::act::send(&mut w, &order), "{order:?}");
    }
    journal_agrees(&path, &mut w, 11);
}

/// A sink whose writes stop mid-line and whose cut fails too.
#[derive(Debug)]
struct Stuck(File);

impl Write for Stuck {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(&buf[..buf.len().min(9)])?;
        Err(std::io::Error::from_raw_os_error(ENOSPC))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl JournalSink for Stuck {
    fn sync(&mut self) -> std::io::Result<()> {
        Ok(())
    }

    fn cut(&mut self, _: u64) -> std::io::Result<()> {
        Err(std::io::Error::from_raw_os_error(5))
    }
}

#[test]
fn a_fragment_that_cannot_be_cut_back_stops_the_board_and_nothing_follows_it() {
    let dir = temp_dir("stuck");
    let path = dir.join("training.ron");
    let room = Arc::new(AtomicU64::new(u64::MAX / 2));
    let mut w = board(&path, 5, &room);
    let mut rng = Lcg(5);
    let first = next_order(&w, &mut rng);
    assert!(bob::ui::act::send(&mut w, &first));
    let before = state_hash(&mut w);
    let file = OpenOptions::new().append(true).open(&path).unwrap();
    let size = file.metadata().unwrap().len();
    let kept = w.resource::<GameJournal>().kept.clone();
    let writer = JournalWriter::on(Box::new(Stuck(file)), &path, 1, size);
    w.insert_resource(GameJournal {
        writer,
        kept: kept.clone(),
    });
    let order = next_order(&w, &mut rng);
    assert!(!bob::ui::act::send(&mut w, &order));
    assert_eq!(state_hash(&mut w), before);
    let stop = w.resource::<JournalStop>().0.clone();
    assert!(
        stop.contains("No space left on device (os error 28)")
            && stop.ends_with(
                "Nothing more can be written to it: close the window, free some space, and resume the game; its journal holds every order before this one."
            ),
        "{stop}"
    );
    // Every later order is refused before it is played: nothing is written
    // after the 9-byte fragment.
    assert!(!bob::ui::act::send(&mut w, &order));
    assert_eq!(
        w.resource::<GameLog>().refusal.as_deref(),
        Some(stop.as_str())
    );
    assert_eq!(std::fs::metadata(&path).unwrap().len(), size + 9);
    // The reader drops the fragment: the game resumes after the first order.
    let read = read_journal(&path).unwrap();
    assert_eq!(read.entries.len(), 1);
    assert!(read.dropped.is_some());
}

#[test]
fn a_data_directory_that_cannot_be_written_is_told_and_the_board_plays_no_order() {
    let dir = temp_dir("readonly");
    // A folder under a plain file can never be made, whoever runs the test.
    std::fs::write(dir.join("file"), "").unwrap();
    let data = dir.join("file").join("data");
    let mut w = common::headless("training", 3);
    w.init_resource::<bob::ui::act::OrderCount>();
    w.init_resource::<GameLog>();
    w.insert_resource(JournalLaunch {
        dir: data.clone(),
        mode: LaunchMode::Fresh,
    });
    assert!(!start_game(&mut w));
    begin_game(&mut w);
    let journal = data.join("journals").join("training.ron");
    let told = format!(
        "cannot write the journal {}: Not a directory (os error 20). This game would not be journaled, so no order is played: make {} writable and with free space (or start with --data-dir DIR), then start the game again.",
        journal.display(),
        journal.parent().unwrap().display()
    );
    assert_eq!(w.resource::<JournalWarning>().0, told);
    let before = state_hash(&mut w);
    let order = random_order(&mut w, &mut Lcg(3));
    assert!(!bob::ui::act::send(&mut w, &order));
    assert_eq!(w.resource::<GameLog>().refusal.as_deref(), Some(&*told));
    assert_eq!(state_hash(&mut w), before);
    // Still there after the order.
    assert_eq!(w.resource::<JournalWarning>().0, told);
}

#[test]
fn a_journal_held_by_another_writer_is_refused_until_it_is_let_go() {
    let dir = temp_dir("lock");
    let path = dir.join("journals").join("training.ron");
    let roster_world = common::headless("training", 1);
    let header = header_for(
        &roster_world
            .resource::<bob::world::ActiveScenario>()
            .scenario,
        1,
        &[],
    );
    let first = JournalWriter::create(&path, &header).unwrap();
    assert!(held_elsewhere(&path));
    let second = JournalWriter::create(&path, &header).unwrap_err();
    assert_eq!(second.kind(), std::io::ErrorKind::WouldBlock);
    assert_eq!(
        second.to_string(),
        format!(
            "the game {} is open in another window (another `bob` holds its lock)",
            path.display()
        )
    );
    // The second writer touched nothing: no journal was put aside.
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
    // A window on the same data directory plays no order.
    let mut w = common::headless("training", 1);
    w.init_resource::<GameLog>();
    w.insert_resource(JournalLaunch {
        dir: dir.clone(),
        mode: LaunchMode::Fresh,
    });
    assert!(!start_game(&mut w));
    let stop = w.resource::<JournalStop>().0.clone();
    assert_eq!(
        stop,
        format!(
            "{second}. No order is played in this window: play the game there, or watch it here read-only with `bob replay {}`.",
            path.display()
        )
    );
    // `bob play` says so before a window opens.
    let out = Command::new(BOB)
        .args(["play", "training", "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!(
            "{second}; play it there, or watch it read-only with `bob replay {}`",
            path.display()
        )
    );
    drop(first);
    assert!(!held_elsewhere(&path));
    let again = JournalWriter::create(&path, &header).unwrap();
    drop(again);
    // The first journal was kept aside by the new one.
    assert!(path.with_file_name("training-old-1.ron").exists());
}

/// The lock holder for the test below: run as a child of the test binary.
#[test]
#[ignore = "a helper: run by a_killed_holder_leaves_no_lock"]
fn hold_the_lock_until_killed() {
    let Some(path) = std::env::var_os("BOB_HOLD_JOURNAL") else {
        return;
    };
    let _held = lock(Path::new(&path)).unwrap();
    println!("held");
    std::io::stdout().flush().unwrap();
    std::thread::sleep(std::time::Duration::from_secs(120));
}

#[test]
fn a_killed_holder_leaves_no_lock() {
    use std::io::BufRead;
    let dir = temp_dir("kill");
    let path = dir.join("training.ron");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "hold_the_lock_until_killed",
            "--ignored",
            "--nocapture",
        ])
        .env("BOB_HOLD_JOURNAL", &path)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = std::io::BufReader::new(child.stdout.take().unwrap());
    let held = out
        .lines()
        .map_while(Result::ok)
        .any(|l| l.contains("held"));
    assert!(held, "the helper did not take the lock");
    assert_eq!(
        lock(&path).unwrap_err().kind(),
        std::io::ErrorKind::WouldBlock
    );
    // SIGKILL: no chance to clean up.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!held_elsewhere(&path));
    assert!(lock(&path).is_ok());
}

/// The journal on a real disk that fills: `bob script --journal` in a child
/// whose files may not grow past 2 KiB (`ulimit -f`, SIGXFSZ ignored so the
/// write fails with the OS error). The script stops with the error and the
/// journal holds whole lines only; resumed without the limit, it ends as an
/// uninterrupted run.
#[test]
fn a_journal_on_a_full_disk_holds_whole_lines_and_resumes() {
    let dir = temp_dir("fsize");
    let mut world = common::headless("training", 9);
    let mut rng = Lcg(9);
    begin_game(&mut world);
    let mut orders = Vec::new();
    // Sixty orders, and on to the next that no question waits on, so the
    // whole script ends with nothing to answer.
    while (orders.len() < 60 || bob::engine::decision::awaited(&world).is_some())
        && world.get_resource::<GameOver>().is_none()
    {
        let order = random_order(&mut world, &mut rng);
        if apply(&mut world, &order).is_ok() {
            orders.push(order);
        }
    }
    let script = bob::engine::script::Script {
        scenario: "training".into(),
        seed: 9,
        rolls: vec![],
        orders,
    };
    let script_path = dir.join("game.ron");
    std::fs::write(&script_path, ron::to_string(&script).unwrap()).unwrap();
    let journal = dir.join("journal.ron");
    let out = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 2; exec \"$0\" script \"$1\" --journal \"$2\"")
        .arg(BOB)
        .arg(&script_path)
        .arg(&journal)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("File too large (os error 27)"), "{stderr}");
    let bytes = std::fs::read(&journal).unwrap();
    assert!(bytes.len() <= 2048 && bytes.len() > 1024, "{}", bytes.len());
    assert_eq!(bytes.last(), Some(&b'\n'), "a partial line on disk");
    let read = read_journal(&journal).unwrap();
    assert!(read.dropped.is_none());
    assert!(read.entries.len() < script.orders.len());
    // Space returns: the game resumes from the file and ends as a clean run.
    let resumed = Command::new(BOB)
        .arg("script")
        .arg(&script_path)
        .args(["--journal"])
        .arg(&journal)
        .arg("--resume")
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let clean = dir.join("clean.ron");
    let run = Command::new(BOB)
        .arg("script")
        .arg(&script_path)
        .arg("--journal")
        .arg(&clean)
        .output()
        .unwrap();
    assert!(run.status.success());
    assert_eq!(resumed.stdout, run.stdout);
    let entries = |p: &Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .skip(1)
            .map(String::from)
            .collect()
    };
    assert_eq!(entries(&journal), entries(&clean));
}
