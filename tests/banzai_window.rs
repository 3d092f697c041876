//! R 59.6's "range of turns": a card lists windows of turns, one Banzai
//! Charge in each, whose turn the Japanese choose. At the start of each
//! turn of an open window, before any action, they are asked whether to
//! call it now; on the window's last turn it is announced without asking.
//! Until it is called no Japanese Squad moves closer to its Rout Edge.
//! Ground: `tests/data/banzai_window.ron` (one charge in Turns 2-3).

mod common;

use bob::bot::{Bot, Level};
use bob::scenario;

use common::{entity, play, world_of};

/// `bob script tests/scripts/NAME.ron`: the log from the start of Turn 2,
/// and the refusal that stopped it, if any.
fn run(name: &str) -> (Vec<String>, Option<String>) {
    let (lines, stopped) = common::script_lines(name);
    let from = lines
        .iter()
        .position(|l| l == "Turn 2 begins (R 13.0)")
        .expect("Turn 2 begins");
    (lines[from..].to_vec(), stopped)
}

/// The end of a quiet turn on the ground: the Marine in the open passes
/// its Rout MC, no Melee, Recovery.
const TURN_END: [&str; 9] = [
    "Operations Phase ends; Rout Phase begins (R 1.0)",
    "Axis Rout Phase: no unit must check (R 11.0)",
    "Allies Rout Phase: M1 must check (R 11.0)",
    "M1 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
    "Rout Phase ends; Melee Phase begins (R 1.0)",
    "No Melee this turn (R 12.0)",
    "Melee Phase ends; Recovery Phase begins (R 1.0)",
    "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
    "Turn 3 begins (R 13.0)",
];

/// Turn 1 of the ground played out: every unit marked Used. The game then
/// waits at the start of Turn 2 for the Banzai question.
fn at_turn_two() -> bevy::prelude::World {
    let (mut w, _) = world_of("banzai_window.ron", &[]);
    for id in ["J1", "J2", "M1"] {
        play(&mut w, &format!("mark_used(unit: \"{id}\")"));
    }
    w
}

/// `turn_two`, the end of the turn (`TURN_END`) and `turn_three`.
fn turn_two_then_three(turn_two: &[&str], turn_three: &[&str]) -> Vec<String> {
    [turn_two, &TURN_END, turn_three]
        .concat()
        .into_iter()
        .map(String::from)
        .collect()
}

const ASKED: &str = "Axis to decide: whether to announce the Banzai Charge now, on Turn 2, or wait (it comes by itself on Turn 3) (R 59.6)";

/// The window's first turn: the Japanese wait. Nothing binds their Squads
/// on Turn 2 (they are marked Used); on Turn 3, the window's last, the
/// charge is announced without asking, and the Allies are offered the Op
/// Fire marking.
#[test]
fn r59_6_wait_on_the_first_turn_and_the_charge_comes_on_the_last() {
    let (lines, stopped) = run("banzai_window_wait");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        turn_two_then_three(
            &[
                "Turn 2 begins (R 13.0)",
                "Axis Ops Range 1\u{2013}3 (R 4.1)",
                ASKED,
                "Turn 2: the Japanese do not call the Banzai Charge this turn; it is due by Turn 3 (R 59.6)",
                "J1 marked Used (R 4.2); Ops Range 1/3",
                "J2 marked Used (R 4.2); Ops Range 2/3",
                "Axis: every unit Used or marked Op Fire (R 4.1)",
                "Allies Ops Range 1\u{2013}3 (R 4.1)",
                "M1 marked Used (R 4.2); Ops Range 1/3",
                "Allies: every unit Used or marked Op Fire (R 4.1)",
            ],
            &[
                "Turn 3 is the last of the Banzai window (Turns 2-3) and the charge is not yet called: it is announced now (R 59.6)",
                "Turn 3: the Japanese announce a Banzai Charge; Suppression removed from none; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: J1, J2 (R 59.6)",
                "Axis Ops Range 1\u{2013}3 (R 4.1)",
                "Allies to decide: which units to mark Op Fire against the Banzai Charge, any of M1 or none (R 59.6)",
                "Against the Banzai Charge the Allies mark Op Fire outside the Ops Range: none (R 59.6)",
            ]
        )
    );
}

/// The window's first turn: the Japanese call the charge. Turn 3 begins
/// without the question (the window is spent), and J2 may now step west,
/// toward its Rout Edge.
#[test]
fn r59_6_charge_on_the_first_turn_and_no_question_on_the_second() {
    let (lines, stopped) = run("banzai_window_now");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        turn_two_then_three(
            &[
                "Turn 2 begins (R 13.0)",
                "Axis Ops Range 1\u{2013}3 (R 4.1)",
                ASKED,
                "Turn 2: the Japanese announce a Banzai Charge; Suppression removed from none; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: J1, J2 (R 59.6)",
                "Allies to decide: which units to mark Op Fire against the Banzai Charge, any of M1 or none (R 59.6)",
                "Against the Banzai Charge the Allies mark Op Fire outside the Ops Range: none (R 59.6)",
                "J1 marked Op Fire (R 4.3); Ops Range 1/3",
                "J2 marked Op Fire (R 4.3); Ops Range 2/3",
                "Axis: every unit Used or marked Op Fire (R 4.1)",
                "Allies Ops Range 1\u{2013}3 (R 4.1)",
                "M1 marked Used (R 4.2); Ops Range 1/3",
                "Allies: every unit Used or marked Op Fire (R 4.1)",
            ],
            &[
                "Axis Ops Range 1\u{2013}3 (R 4.1)",
                "J2 moves (R 5.0); Ops Range 1/3",
                "J2 moves E8 \u{2192} D8: 1 MP, 4 left (R 5.0)",
                "Op Fire window: J2 enters D8; Allies may fire with M1 (R 9.0)",
            ]
        )
    );
}

/// While the window's charge is not called, J2 may not step west, toward
/// its Rout Edge (R 59.6's last paragraph).
#[test]
fn r59_6_no_step_toward_the_rout_edge_while_the_window_is_open() {
    let (lines, stopped) = run("banzai_window_refused");
    assert_eq!(
        lines[lines.len() - 1],
        "Turn 2: the Japanese do not call the Banzai Charge this turn; it is due by Turn 3 (R 59.6)"
    );
    assert_eq!(
        stopped.as_deref(),
        Some(
            "J2: D8 is closer to the Rout Edge; no Japanese Squad moves closer to it before the last required Banzai Charge is called (due in Turns 2-3) (R 59.6)"
        )
    );
}

/// The question is a decision like the others: no other order is taken
/// before it is answered, and an answer to no question is refused.
#[test]
fn r59_6_the_question_comes_before_any_action() {
    let mut w = at_turn_two();
    assert_eq!(
        common::refused(&mut w, "mark_used(unit: \"J1\")"),
        "the game waits for whether to announce the Banzai Charge now, on Turn 2, or wait (it comes by itself on Turn 3) (R 59.6)"
    );
    play(&mut w, "banzai_announce(now: false)");
    assert_eq!(
        common::refused(&mut w, "banzai_announce(now: true)"),
        "no decision is pending"
    );
}

/// The bot calls the charge when enough of its Squads would reach the
/// closest enemy with the charge's +4 MP this turn: with M1 in B5, J1 (3
/// hexes) and J2 both do; with M1 moved far east to T5 (15 hexes), none
/// does and it waits; with M1 in M2 only J1 reaches it, and the levels
/// part: Easy and Normal (half of the Squads is enough) call it, Hard (three
/// fifths) waits.
#[test]
fn the_bot_calls_the_banzai_when_its_squads_reach_the_enemy() {
    let answer = |w: &mut bevy::prelude::World, level: Level| Bot::new(level, 1).order(w);
    let now = |now: bool| bob::engine::Order::BanzaiAnnounce { now };
    let mut w = at_turn_two();
    assert_eq!(answer(&mut w, Level::Hard), now(true));
    for (at, easy, normal, hard) in [("T5", false, false, false), ("M2", true, true, false)] {
        let mut w = at_turn_two();
        let m1 = entity(&mut w, "M1");
        let coord = bob::scenario::Coord::parse(at, 20, 10).unwrap();
        w.entity_mut(m1).insert(bob::world::Location {
            coord,
            in_cave: false,
        });
        assert_eq!(
            [
                answer(&mut w, Level::Easy),
                answer(&mut w, Level::Normal),
                answer(&mut w, Level::Hard)
            ],
            [now(easy), now(normal), now(hard)],
            "M1 in {at}"
        );
    }
}

/// A save taken while the question is pending loads with the question
/// pending and takes its answer: the journal of Turn 1 replays to the
/// question, and the answer plays on as in the unsaved game.
#[test]
fn r59_6_a_save_at_the_question_loads_and_answers() {
    use bob::journal::replay::header_for;
    use bob::journal::{JournalWriter, read_journal, replay, state_hash};
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let dir = std::env::temp_dir().join(format!("bob-banzai-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("at-question.ron");
    let (mut w, _) = world_of("banzai_window.ron", &[]);
    let sc = w.resource::<bob::world::ActiveScenario>().scenario.clone();
    let mut writer = JournalWriter::create(&path, &header_for(&sc, 1, &[])).unwrap();
    for id in ["J1", "J2", "M1"] {
        let order = common::order(&format!("mark_used(unit: \"{id}\")"));
        bob::engine::game::apply(&mut w, &order).unwrap();
        writer.append(&order, state_hash(&mut w)).unwrap();
    }
    drop(writer);
    let read = read_journal(&path).unwrap();
    let mut loaded = replay(&read, &roster, &aid).unwrap().world;
    assert_eq!(
        loaded.get_resource::<bob::engine::decision::Pending>(),
        w.get_resource::<bob::engine::decision::Pending>()
    );
    assert!(matches!(
        loaded.get_resource::<bob::engine::decision::Pending>(),
        Some(bob::engine::decision::Pending(
            bob::engine::decision::Decision::BanzaiAnnounce {
                turn: 2,
                last: 3,
                ..
            }
        ))
    ));
    assert_eq!(
        play(&mut loaded, "banzai_announce(now: true)"),
        play(&mut w, "banzai_announce(now: true)")
    );
    assert_eq!(state_hash(&mut loaded), state_hash(&mut w));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The old form `banzai_turns: [2, 3]` is still read: each listed turn is
/// a window of one turn (a charge on each), next to the `banzai` windows.
#[test]
fn the_old_banzai_turns_are_one_turn_windows() {
    use bob::scenario::schema::{BanzaiWindow, SpecialRules};
    let r: SpecialRules =
        ron::from_str("(banzai_turns: [6, 2], banzai: [(from: 3, to: 4)])").unwrap();
    let w = |from, to| BanzaiWindow { from, to };
    assert_eq!(r.banzai_windows(), [w(2, 2), w(3, 4), w(6, 6)]);
    assert_eq!(w(3, 4).label(), "Turns 3-4");
    assert_eq!(w(2, 2).label(), "Turn 2");
}
