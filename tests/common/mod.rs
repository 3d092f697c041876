//! Helpers shared by the tests: the built-in data, a test ground from
//! `tests/data/` with its dice forced and its game begun, orders written as
//! a script writes them, and `bob script` run as a player runs it.

#![allow(dead_code)]

pub mod source;

use bevy::prelude::World;
use bob::engine::{GameEvent, Order};
use bob::scenario::{self, Loaded, PlayerAid, Roster};

/// The built-in roster and Player Aid.
pub fn data() -> (Roster, PlayerAid) {
    (
        scenario::builtin_roster().expect("the built-in roster"),
        scenario::builtin_player_aid().expect("the built-in Player Aid"),
    )
}

/// The scenario `name` (a built-in one's name or a file's path) loaded
/// with the built-in data, and that data.
pub fn loaded(name: &str) -> (Loaded, Roster, PlayerAid) {
    let (roster, aid) = data();
    let loaded = bob::world::load(name, &roster, &aid).unwrap_or_else(|e| panic!("{name}: {e}"));
    (loaded, roster, aid)
}

/// A headless world of the scenario `name` ([`loaded`]), its dice seeded
/// with `seed`, its game not begun.
pub fn headless(name: &str, seed: u64) -> World {
    let (loaded, roster, aid) = loaded(name);
    bob::engine::headless_world(loaded, roster, aid, seed)
}

/// The log lines of `events`.
pub fn lines(events: &[GameEvent]) -> Vec<String> {
    events.iter().map(GameEvent::line).collect()
}

/// Plays `order`, which must be accepted; its log lines.
pub fn accepted(w: &mut World, order: &Order) -> Vec<String> {
    match bob::engine::game::apply(w, order) {
        Ok(events) => lines(&events),
        Err(r) => panic!("{order:?} refused: {r}"),
    }
}

/// The ground of a test, with its dice forced, its game begun.
pub fn world_of(file: &str, rolls: &[u8]) -> (bevy::prelude::World, Vec<String>) {
    let mut w = headless(&format!("tests/data/{file}"), 1);
    w.resource_mut::<bob::engine::Dice>()
        .force(rolls.iter().copied());
    let lines = bob::engine::game::begin_game(&mut w)
        .iter()
        .map(bob::engine::GameEvent::line)
        .collect();
    (w, lines)
}

/// An order as a script writes it.
pub fn order(text: &str) -> bob::engine::Order {
    ron::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays an order that must be accepted; its log lines.
pub fn play(w: &mut bevy::prelude::World, text: &str) -> Vec<String> {
    bob::engine::game::apply(w, &order(text))
        .map(|events| lines(&events))
        .unwrap_or_else(|r| panic!("{text} refused: {r}"))
}

/// The refusal of an order that must be refused.
pub fn refused(w: &mut bevy::prelude::World, text: &str) -> String {
    match bob::engine::game::apply(w, &order(text)) {
        Ok(events) => panic!("{text} accepted: {events:?}"),
        Err(r) => r.to_string(),
    }
}

/// The entity of the unit with scenario id `id`.
pub fn entity(w: &mut bevy::prelude::World, id: &str) -> bevy::prelude::Entity {
    let mut q = w.query::<(bevy::prelude::Entity, &bob::world::Unit)>();
    q.iter(w)
        .find(|(_, u)| u.id == id)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

/// Runs `bob script tests/scripts/NAME.ron` from the repository root; it
/// must succeed; returns its standard output.
pub fn script_output(name: &str) -> String {
    script_output_ending(name, 0)
}

/// [`script_output`] of a script that must end with exit status `code`
/// (3: its orders run out while the game waits for a decision).
pub fn script_output_ending(name: &str, code: i32) -> String {
    let script = format!("{}/tests/scripts/{name}.ron", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bob"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["script", &script])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// Runs the script `tests/scripts/NAME.ron` in the engine: its log lines
/// and the refusal that stopped it, if any.
pub fn script_lines(name: &str) -> (Vec<String>, Option<String>) {
    let file = format!("tests/scripts/{name}.ron");
    let bytes = std::fs::read(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    script_run(&file, &bytes)
}

/// Runs a script given as the bytes of `file` in the engine, with the
/// built-in data: its log lines and the refusal that stopped it, if any.
/// (Cargo runs integration tests from the package root, where the scripts'
/// scenario paths start.)
pub fn script_run(file: &str, bytes: &[u8]) -> (Vec<String>, Option<String>) {
    let (roster, aid) = data();
    let s = bob::engine::script::parse(file, bytes).unwrap();
    let r = bob::engine::script::run(&s, &roster, &aid).unwrap();
    (r.lines, r.stopped.map(|(_, _, why)| why))
}
