//! The replay viewer's controller, in a headless App: forward, back, jumps
//! to a position and to a turn or phase land on the state a fresh replay of
//! the journal to that point gives (same state hash, same event log), and a
//! step back on a whole game is a rebuild from the start.

mod common;
use common::data;

use std::path::PathBuf;

use bob::journal::file::read_journal;
use bob::journal::position::capture;
use bob::journal::replay::{outline, random_game};
use bob::journal::{replay, state_hash};
use bob::ui::orders::GameLog;
use bob::ui::replay::{Go, Replay, ReplayLaunch, ReplayRequests, headless_viewer};

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bob-replay-view-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The state hash and log of a fresh headless replay of the first `k` entries.
fn fresh(read: &bob::journal::JournalRead, k: usize) -> (u64, Vec<String>) {
    let (roster, aid) = data();
    let mut cut = read.clone();
    cut.entries.truncate(k);
    let mut r = replay(&cut, &roster, &aid).unwrap();
    (state_hash(&mut r.world), r.lines)
}

/// A whole random game of `loaded` journaled at `path`: its order count
/// and the journal read back.
fn played(
    loaded: &bob::scenario::Loaded,
    seed: u64,
    path: &std::path::Path,
) -> (usize, bob::journal::JournalRead) {
    let (roster, aid) = data();
    let n = random_game(
        loaded.clone(),
        &roster,
        &aid,
        seed,
        path,
        usize::MAX,
        |_| false,
    )
    .unwrap();
    (n, read_journal(path).unwrap())
}

/// The viewer's launch at position `start` of `read`.
fn launch_at(
    read: &bob::journal::JournalRead,
    outline: bob::journal::replay::Outline,
    start: usize,
) -> ReplayLaunch {
    ReplayLaunch {
        read: read.clone(),
        outline,
        start,
        whole: Default::default(),
        event: None,
    }
}

fn go(app: &mut bevy::app::App, to: Go) -> usize {
    app.world_mut().resource_mut::<ReplayRequests>().go = Some(to);
    app.update();
    let r = app.world().resource::<Replay>();
    assert!(r.problem.is_none(), "{:?}", r.problem);
    r.at
}

fn check_at(app: &mut bevy::app::App, read: &bob::journal::JournalRead, k: usize, what: &str) {
    let (hash, lines) = fresh(read, k);
    let world = app.world_mut();
    assert_eq!(world.resource::<Replay>().at, k, "{what}");
    assert_eq!(state_hash(world), hash, "{what}: state at {k}");
    assert_eq!(
        world.resource::<GameLog>().lines,
        lines,
        "{what}: the log panel at {k}"
    );
}

#[test]
fn forward_back_and_jumps_land_on_the_fresh_replay() {
    let (roster, aid) = data();
    let dir = temp("controller");
    // Training seed 15 has a Final Op Fire at a hex of two units after the
    // jump: its targets are listed in the same order as in the fresh replay.
    for (name, seed) in [
        ("training", 15),
        ("tests/data/ops_ground.ron", 1),
        ("guadalcanal", 5),
        ("training", 11),
        ("alligator_creek", 4),
        ("peleliu", 6),
        ("crossroads_gun", 2),
    ] {
        let path = dir.join(format!("game-{}-{seed}.ron", name.replace('/', "-")));
        let loaded = bob::world::load(name, &roster, &aid).unwrap();
        let (n, read) = played(&loaded, seed, &path);
        assert!(n > 100, "{name}: a whole game has more than {n} orders");
        let (outline, whole) = outline(&read, &roster, &aid).unwrap();
        eprintln!(
            "{name}: the whole journal ({n} orders) replayed headlessly in {:.1} ms",
            whole.as_secs_f64() * 1000.0
        );
        assert_eq!(outline.positions.len(), n + 1);
        let last_turn = loaded.scenario.turns;
        assert!(
            outline
                .marks
                .iter()
                .any(|m| m.turn == last_turn && m.phase == bob::world::Phase::Recovery),
            "{name}: the marks reach the last Recovery Phase: {:?}",
            outline.marks
        );
        let launch = launch_at(&read, outline.clone(), 0);
        let mut app = headless_viewer(launch, loaded, roster.clone(), aid.clone());
        app.update();
        check_at(&mut app, &read, 0, "start");
        for k in 1..=5 {
            assert_eq!(go(&mut app, Go::Forward), k);
        }
        check_at(&mut app, &read, 5, "five steps forward");
        assert_eq!(go(&mut app, Go::Back), 4);
        check_at(&mut app, &read, 4, "one step back");
        let mid = n / 2;
        assert_eq!(go(&mut app, Go::To(mid)), mid);
        check_at(&mut app, &read, mid, "jump forward");
        assert_eq!(go(&mut app, Go::End), n);
        check_at(&mut app, &read, n, "the end");
        assert_eq!(go(&mut app, Go::Back), n - 1);
        check_at(&mut app, &read, n - 1, "a step back from the end");
        let (k, took) = app.world().resource::<Replay>().rebuilt.unwrap();
        assert_eq!(k, n - 1);
        eprintln!(
            "{name}: a step back from the end of a whole game ({n} orders) rebuilt in {:.1} ms",
            took.as_secs_f64() * 1000.0
        );
        // Turn 2's first phase, from the outline's marks.
        let t2 = outline.marks.iter().find(|m| m.turn == 2).unwrap().position;
        assert_eq!(go(&mut app, Go::To(t2)), t2);
        check_at(&mut app, &read, t2, "jump back to turn 2");
        let next = outline
            .marks
            .iter()
            .find(|m| m.position > t2)
            .unwrap()
            .position;
        assert_eq!(go(&mut app, Go::NextMark), next);
        check_at(&mut app, &read, next, "the next phase");
        assert_eq!(go(&mut app, Go::PrevMark), t2);
        assert_eq!(go(&mut app, Go::Start), 0);
        check_at(&mut app, &read, 0, "back to the start");
        // Play: steps forward by itself.
        app.world_mut().resource_mut::<ReplayRequests>().toggle_play = true;
        app.update();
        assert!(app.world().resource::<Replay>().playing);
    }
}

/// A jump lands on a world rebuilt from a kept position, whose units are
/// stored in another order than in the game as played: over many random
/// games, every jump forward and back gives the fresh replay's state and log.
#[test]
fn jumps_match_fresh_replays_over_many_games() {
    let (roster, aid) = data();
    let dir = temp("many");
    let mut jumps = 0;
    for name in ["training", "guadalcanal", "alligator_creek"] {
        let loaded = bob::world::load(name, &roster, &aid).unwrap();
        for seed in 20..32 {
            let path = dir.join(format!("{name}-{seed}.ron"));
            let (n, read) = played(&loaded, seed, &path);
            let (outline, _) = outline(&read, &roster, &aid).unwrap();
            let launch = launch_at(&read, outline, 0);
            let mut app = headless_viewer(launch, loaded.clone(), roster.clone(), aid.clone());
            app.update();
            for k in [n / 3, 2 * n / 3, n, n / 2, n - 1] {
                assert_eq!(go(&mut app, Go::To(k)), k);
                check_at(
                    &mut app,
                    &read,
                    k,
                    &format!("{name} seed {seed}: jump to {k}"),
                );
                jumps += 1;
            }
        }
    }
    assert_eq!(jumps, 3 * 12 * 5);
}

/// Stepping by event: `>` from an order's position plays the next order and
/// shows its first event (its log line highlighted, the lines after it
/// hidden, the board at that event: the mover in the hex it has just
/// entered); `>` again walks its events; `<` walks them back without a
/// rebuild, and before the first event is the order before, as a fresh
/// replay gives it.
#[test]
fn event_steps_walk_an_orders_events_and_back() {
    use bob::ui::tray::LogHighlight;
    let (roster, aid) = data();
    let dir = temp("events");
    let path = dir.join("training.ron");
    let loaded = bob::world::load("training", &roster, &aid).unwrap();
    let (n, read) = played(&loaded, 3, &path);
    let (outline, _) = outline(&read, &roster, &aid).unwrap();
    // The first move of two hexes or more, with at least four events.
    let k = (1..=n)
        .find(|&k| {
            let (_, before) = fresh(&read, k - 1);
            let (_, after) = fresh(&read, k);
            let steps = after[before.len()..]
                .iter()
                .filter(|l| l.contains(" moves ") && l.contains(" MP, "))
                .count();
            after.len() - before.len() >= 4 && steps >= 2
        })
        .unwrap();
    let (_, lines_before) = fresh(&read, k - 1);
    let (_, lines_after) = fresh(&read, k);
    let events = lines_after.len() - lines_before.len();
    let launch = launch_at(&read, outline, k - 1);
    let mut app = headless_viewer(launch, loaded, roster, aid);
    app.update();
    check_at(&mut app, &read, k - 1, "the order before");
    let shown = |app: &bevy::app::App| {
        let w = app.world();
        (
            w.resource::<Replay>().event,
            w.resource::<GameLog>().shown().to_vec(),
            w.resource::<LogHighlight>().line,
        )
    };
    let start = lines_before.len();
    let mut hexes_seen = Vec::new();
    for e in 0..events - 1 {
        assert_eq!(go(&mut app, Go::NextEvent), k, "event {e}");
        let (event, lines, lit) = shown(&app);
        assert_eq!(event, Some(e));
        assert_eq!(lines, lines_after[..start + e + 1].to_vec(), "event {e}");
        assert_eq!(lit, Some(start + e), "event {e}: its line is lit");
        // The board is the position at that event.
        let order = app.world().resource::<Replay>().order.clone().unwrap();
        let ctx = app.world().resource::<Replay>().context.clone();
        let view = bob::ui::replay_board::at_event(&order, e, &ctx);
        assert_eq!(capture(app.world_mut()), view, "event {e}: the board");
        // A step of the move: the mover stands in the hex it entered.
        if let Some(bob::engine::GameEvent::Moved { unit, to, .. }) = order.events.get(e) {
            let at = view.units[unit.as_str()].at.label();
            assert_eq!(&at, to, "event {e}: {unit} in the hex it entered");
            hexes_seen.push(at);
        }
    }
    assert!(hexes_seen.len() >= 2, "{hexes_seen:?}");
    // The last event is the whole order: the engine's own position.
    assert_eq!(go(&mut app, Go::NextEvent), k);
    assert_eq!(shown(&app).0, None);
    assert_eq!(shown(&app).1, lines_after);
    check_at(&mut app, &read, k, "the order's last event");
    // Back by event: within the order, no rebuild.
    let rebuilt = app.world().resource::<Replay>().rebuilt;
    for e in (0..events - 1).rev() {
        assert_eq!(go(&mut app, Go::PrevEvent), k);
        let (event, lines, lit) = shown(&app);
        assert_eq!(event, Some(e));
        assert_eq!(lines, lines_after[..start + e + 1].to_vec());
        assert_eq!(lit, Some(start + e));
    }
    assert_eq!(app.world().resource::<Replay>().rebuilt, rebuilt);
    // Back on the first event, the mover has not gone on yet.
    let order = app.world().resource::<Replay>().order.clone().unwrap();
    let ctx = app.world().resource::<Replay>().context.clone();
    assert_eq!(
        capture(app.world_mut()),
        bob::ui::replay_board::at_event(&order, 0, &ctx)
    );
    assert_ne!(
        bob::ui::replay_board::at_event(&order, 0, &ctx),
        order.after,
        "the first event of a move is not the position after it"
    );
    let took = app.world().resource::<Replay>().event_back.unwrap();
    eprintln!(
        "order {k} ({events} events): a step back by event took {:.1} us",
        took.as_secs_f64() * 1e6
    );
    // Before the first event: the order before, rebuilt from the start.
    assert_eq!(go(&mut app, Go::PrevEvent), k - 1);
    assert_eq!(shown(&app).0, None);
    check_at(&mut app, &read, k - 1, "back past the first event");
    let took = app.world().resource::<Replay>().event_back.unwrap();
    eprintln!(
        "back past the first event of order {k}: {:.1} ms (a rebuild from the start)",
        took.as_secs_f64() * 1000.0
    );
}
