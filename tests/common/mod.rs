//! Helpers shared by the tests: the built-in data, a test ground from
//! `tests/data/` with its dice forced and its game begun, orders written as
//! a script writes them, and `bob script` run as a player runs it.

#![allow(dead_code)]

pub mod source;

use bob::scenario::{self, PlayerAid, Roster};

/// The built-in roster and Player Aid.
pub fn data() -> (Roster, PlayerAid) {
    (
        scenario::builtin_roster().expect("the built-in roster"),
        scenario::builtin_player_aid().expect("the built-in Player Aid"),
    )
}

/// The ground of a test, with its dice forced, its game begun.
pub fn world_of(file: &str, rolls: &[u8]) -> (bevy::prelude::World, Vec<String>) {
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let loaded = bob::world::load(&format!("tests/data/{file}"), &roster, &aid).unwrap();
    let mut w = bob::engine::headless_world(loaded, roster, aid, 1);
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
        .unwrap_or_else(|r| panic!("{text} refused: {r}"))
        .iter()
        .map(bob::engine::GameEvent::line)
        .collect()
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
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let file = format!("tests/scripts/{name}.ron");
    let bytes = std::fs::read(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let s = bob::engine::script::parse(&file, &bytes).unwrap();
    let r = bob::engine::script::run(&s, &roster, &aid).unwrap();
    (r.lines, r.stopped.map(|(_, _, why)| why))
}
