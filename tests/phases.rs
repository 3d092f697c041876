//! The Rout, Melee and Recovery Phases with forced dice, on hand-built
//! boards in `tests/data/` (R 11.0–11.2, R 12.0, R 13.0, R 57.3, R 67).

use bevy::prelude::*;

use bob::engine::command_points::{self, CpFunction};
use bob::engine::decision::Pending;
use bob::engine::game::{advance, apply};
use bob::engine::{Dice, Order};
use bob::scenario::Coord;
use bob::world::{Location, Phase, Suppression, TurnTrack, Unit};

mod common;
use common::{accepted, entity, headless, lines};

/// The test ground `tests/data/FILE`, its game not begun, control of its
/// hexes set.
fn world_of(file: &str) -> World {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut w = headless(&path, 1);
    bob::engine::phases::end::init_control(&mut w);
    w
}

fn exists(w: &mut World, id: &str) -> bool {
    let mut q = w.query::<&Unit>();
    q.iter(w).any(|u| u.id == id)
}

fn at(w: &mut World, id: &str) -> String {
    let e = entity(w, id);
    w.get::<Location>(e).unwrap().coord.label()
}

fn place(w: &mut World, id: &str, hex: &str) {
    let e = entity(w, id);
    let c = Coord::parse(hex, 16, 12).unwrap();
    w.entity_mut(e).insert(Location {
        coord: c,
        in_cave: false,
    });
}

fn remove(w: &mut World, id: &str) {
    let e = entity(w, id);
    w.entity_mut(e).despawn();
}

fn suppress(w: &mut World, id: &str, s: Suppression) {
    let e = entity(w, id);
    w.entity_mut(e).insert(s);
}

/// Every unit Used, the phase set, the dice forced: then the game runs on.
fn start_phase(w: &mut World, phase: Phase, rolls: &[u8]) -> Vec<String> {
    let mut q = w.query_filtered::<Entity, With<Unit>>();
    let all: Vec<Entity> = q.iter(w).collect();
    for e in all {
        bob::world::mark(w, e, |m| m.used = true);
    }
    w.resource_mut::<TurnTrack>().phase = phase;
    w.resource_mut::<Dice>().force(rolls.iter().copied());
    let mut events = Vec::new();
    advance(w, &mut events);
    lines(&events)
}

/// R 67, Rout Phase to Recovery Phase: the Russian in Melee fails (7),
/// re-rolls with his CP and passes (5); the German fails (9) with no CP left
/// and, no German remaining in the Melee, is eliminated; no Melee; Recovery
/// removes the Used markers, lowers every Suppression one step and advances
/// the turn.
#[test]
fn r67_rout_melee_and_recovery() {
    let mut w = world_of("r67_board.ron");
    for id in ["R2", "R3"] {
        suppress(&mut w, id, Suppression::Full);
    }
    for id in ["R5", "G1"] {
        suppress(&mut w, id, Suppression::Suppressed);
    }
    // The German spent his CP on G1's Final Op Fire.
    let g1 = entity(&mut w, "G1");
    command_points::spend(&mut w, g1, CpFunction::FinalOpFireRange, &mut Vec::new()).unwrap();
    assert_eq!(
        bob::scenario::schema::SideId::BOTH.map(|s| bob::engine::command_points::left(&w, s)),
        [1, 0]
    );
    let log = start_phase(&mut w, Phase::Rout, &[7, 5, 9]);
    assert_eq!(
        log,
        [
            "Allies Rout Phase: R5 must check (R 11.0)",
            "R5 Rout MC (in Melee): Morale 6 (R 11.0)",
            "R5 MC: needs 6 or less, rolled 7 \u{2192} failed (R 11.0, R 7.1)",
            "Allies to decide: a CP re-roll of its failed Rout MC for R5 or none (R 3.0)",
        ]
    );
    let log = accepted(
        &mut w,
        &Order::CpReroll {
            unit: Some("R5".into()),
        },
    );
    assert_eq!(
        log,
        [
            "Allies spend a CP: R5 re-rolls its Rout MC (R 3.0)",
            "R5 MC: needs 6 or less, rolled 5 \u{2192} passed (R 11.0, R 7.1)",
            "Axis Rout Phase: G1 must check (R 11.0)",
            "G1 Rout MC (in Melee): Morale 5 (R 11.0)",
            "G1 MC: needs 5 or less, rolled 9 \u{2192} failed (R 11.0, R 7.1)",
            "G1 is eliminated: it would rout out of Melee with no friendly unit left in it (R 11.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "No Melee this turn (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "R2 recovers one step of Suppression: Suppressed (R 13.0)",
            "R3 recovers one step of Suppression: Suppressed (R 13.0)",
            "R5 recovers one step of Suppression: full Morale (R 13.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Turn 2 begins (R 13.0)",
            "Allies Ops Range 1\u{2013}2 (R 4.1)",
        ]
    );
    assert!(!exists(&mut w, "G1"));
    let r5 = entity(&mut w, "R5");
    assert!(!bob::world::marks(&w, r5).used && w.get::<Suppression>(r5).is_none());
    assert_eq!(
        bob::scenario::schema::SideId::BOTH.map(|s| bob::engine::command_points::left(&w, s)),
        [1, 1]
    );
    // The Russians now hold F5 (R 18.0).
    let f5 = Coord::parse("F5", 10, 10).unwrap();
    assert_eq!(
        w.resource::<bob::engine::phases::end::Control>()
            .0
            .controller(f5),
        Some(bob::scenario::schema::SideId::Allies)
    );
}

/// Answers every Rout destination choice with its first hex.
fn first_destinations(w: &mut World, log: &mut Vec<String>) {
    while let Some(Pending(bob::engine::decision::Decision::RoutDestination {
        unit,
        choices,
        ..
    })) = w.get_resource::<Pending>().cloned()
    {
        log.extend(accepted(
            w,
            &Order::Rout {
                unit,
                to: choices[0].clone(),
                facing: None,
            },
        ));
    }
}

/// A board with only these units, placed, some of them Fully Suppressed.
fn board(file: &str, units: &[(&str, &str)], fully_suppressed: &[&str]) -> World {
    let mut w = world_of(file);
    let ids: Vec<&str> = units.iter().map(|u| u.0).collect();
    keep(&mut w, &ids);
    for (id, hex) in units {
        place(&mut w, id, hex);
    }
    for id in fully_suppressed {
        suppress(&mut w, id, Suppression::Full);
    }
    w
}

/// Keeps only these units on the board.
fn keep(w: &mut World, ids: &[&str]) {
    let mut q = w.query::<&Unit>();
    let all: Vec<String> = q.iter(w).map(|u| u.id.to_string()).collect();
    for id in all {
        if !ids.contains(&id.as_str()) {
            remove(w, &id);
        }
    }
}

/// R 11.1 example: a Fully Suppressed 4/7 Squad (Morale 1) in Open Ground
/// is unaffected on a 1, routs on 2-7 and is Reduced (and Fully Suppressed)
/// at the end of its rout on 8 or more; adjacent to an enemy, Reduced on 5 or
/// more. Every roll 1-10, both cases, through the whole Rout Phase.
#[test]
fn r11_1_casualty_4_7_for_every_roll() {
    for (enemy_at, reduced_from) in [("E6", 8), ("G6", 5)] {
        for roll in 1..=10u8 {
            let mut w = world_of("rout_plain.ron");
            keep(&mut w, &["A1", "G1"]);
            place(&mut w, "A1", enemy_at);
            place(&mut w, "G1", "H6");
            suppress(&mut w, "G1", Suppression::Full);
            let mut log = start_phase(&mut w, Phase::Rout, &[roll]);
            first_destinations(&mut w, &mut log);
            let mc = format!(
                "G1 MC: needs 1 or less, rolled {roll} \u{2192} {} (R 11.0, R 7.1)",
                if roll == 1 { "passed" } else { "failed" }
            );
            assert!(log.contains(&mc), "{enemy_at} {roll}: {log:#?}");
            let routed = log.iter().any(|l| l.starts_with("G1 routs"));
            let casualty = log
                .iter()
                .any(|l| l.contains("Reduced and Fully Suppressed (R 11.1)"));
            assert_eq!(routed, roll >= 2, "{enemy_at} {roll}: {log:#?}");
            assert_eq!(
                casualty,
                roll >= reduced_from,
                "{enemy_at} {roll}: {log:#?}"
            );
            let g1 = entity(&mut w, "G1");
            let unit = w.get::<Unit>(g1).unwrap().clone();
            assert_eq!(unit.reduced, roll >= reduced_from);
            assert_eq!(at(&mut w, "G1") == "H6", roll == 1);
        }
    }
}

/// R 11.0: the woods at C3 protect, and hide the hexes behind them from the
/// German: those are the destinations, reached without nearing him.
#[test]
fn rout_must_reach_beneficial_terrain() {
    let mut w = board("rout_open.ron", &[("A1", "E4"), ("G1", "H4")], &["A1"]);
    let log = start_phase(&mut w, Phase::Rout, &[5]);
    assert_eq!(
        log[..4],
        [
            "Allies Rout Phase: A1 must check (R 11.0)",
            "A1 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 2 (R 11.0)",
            "A1 MC: needs 2 or less, rolled 5 \u{2192} failed (R 11.0, R 7.1)",
            "Allies to decide: A1's Rout destination, one of A2, A3, B2, C3 (R 11.0)",
        ]
    );
    // The woods, or the hexes the woods hide from the German (R 11.0).
    assert_eq!(
        accepted(
            &mut w,
            &Order::Rout {
                unit: "A1".into(),
                to: "C3".into(),
                facing: None,
            }
        )[0],
        "A1 routs to safety: E4 -> D3 -> C3 (R 11.0)"
    );
    assert_eq!(at(&mut w, "A1"), "C3");
}

/// R 11.0: with no Beneficial Terrain in reach, a hex out of all enemy LOS
/// (behind the knoll at K9) is a destination; the owner picks one.
#[test]
fn rout_must_leave_all_los() {
    let mut w = board("rout_open.ron", &[("A2", "N8"), ("G2", "K10")], &["A2"]);
    let log = start_phase(&mut w, Phase::Rout, &[5]);
    assert_eq!(log[0], "Allies Rout Phase: A2 must check (R 11.0)");
    let ask = log.last().unwrap().clone();
    assert!(
        ask.starts_with("Allies to decide: A2's Rout destination"),
        "{log:#?}"
    );
    let Some(Pending(bob::engine::decision::Decision::RoutDestination { choices, .. })) =
        w.get_resource::<Pending>().cloned()
    else {
        panic!("no destination asked: {log:#?}");
    };
    // Every choice is out of the German's LOS.
    let board = w.resource::<bob::world::BoardRes>().0.clone();
    let aid = w.resource::<bob::world::AidRes>().0.clone();
    let k10 = Coord::parse("K10", 16, 12).unwrap();
    for c in &choices {
        let to = Coord::parse(c, 16, 12).unwrap();
        assert!(
            bob::rules::los::line_of_sight(&board, &aid, &bob::rules::los::LosQuery::new(k10, to))
                .is_blocked(),
            "{c} is in LOS: {choices:?}"
        );
    }
    let pick = choices[0].clone();
    let log = accepted(
        &mut w,
        &Order::Rout {
            unit: "A2".into(),
            to: pick.clone(),
            facing: None,
        },
    );
    assert!(log[0].starts_with("A2 routs to safety: N8 -> "), "{log:#?}");
    assert!(log[0].ends_with(&format!("{pick} (R 11.0)")), "{log:#?}");
    assert_eq!(at(&mut w, "A2"), pick);
}

/// R 11.0: nothing protects anywhere: all MPs toward the Rout Edge (west)
/// by the fewest MPs; several hexes end equally cheap routes, the owner picks.
#[test]
fn rout_forced_toward_the_rout_edge() {
    let mut w = board("rout_plain.ron", &[("A3", "H6"), ("G3", "K6")], &["A3"]);
    let log = start_phase(&mut w, Phase::Rout, &[5]);
    let Some(Pending(bob::engine::decision::Decision::RoutDestination { choices, .. })) =
        w.get_resource::<Pending>().cloned()
    else {
        panic!("no destination asked: {log:#?}");
    };
    // Five MPs of open ground: every choice is in column C, five hexes west.
    assert!(choices.iter().all(|c| c.starts_with('C')), "{choices:?}");
    let log = accepted(
        &mut w,
        &Order::Rout {
            unit: "A3".into(),
            to: choices[0].clone(),
            facing: None,
        },
    );
    assert!(
        log[0].starts_with("A3 routs toward its Rout Edge: H6 -> "),
        "{log:#?}"
    );
}

/// R 11.0: reaching the Rout Edge with an MP left, the unit routs off the
/// board and is eliminated.
#[test]
fn rout_off_the_edge() {
    let mut w = board("rout_plain.ron", &[("A3", "C6"), ("G3", "F6")], &["A3"]);
    let log = start_phase(&mut w, Phase::Rout, &[5]);
    assert_eq!(
        log[2..5],
        [
            "A3 MC: needs 2 or less, rolled 5 \u{2192} failed (R 11.0, R 7.1)",
            "A3 routs off its Rout Edge: C6 -> B5 -> A5 (R 11.0)",
            "A3 routs off its Rout Edge and is eliminated (R 11.0)",
        ]
    );
    assert!(!exists(&mut w, "A3"));
}

/// R 11.0: in the corner, every neighbour is next to an enemy not in Melee:
/// no legal rout, eliminated.
#[test]
fn rout_eliminated_without_a_legal_path() {
    let mut w = board(
        "rout_plain.ron",
        &[("A3", "A1"), ("G1", "C1"), ("G2", "A3")],
        &["A3"],
    );
    let log = start_phase(&mut w, Phase::Rout, &[5]);
    assert_eq!(
        log[2..4],
        [
            "A3 MC: needs 2 or less, rolled 5 \u{2192} failed (R 11.0, R 7.1)",
            "A3 is eliminated: no legal rout (R 11.0)",
        ]
    );
    assert!(!exists(&mut w, "A3"));
}

/// R 11.1 note: a unit failing in Melee is eliminated unless a friendly
/// unit remains in the Melee; two failing together are both eliminated.
#[test]
fn rout_out_of_melee_needs_a_friend_left() {
    // Alone: eliminated.
    let mut w = board("rout_plain.ron", &[("A1", "F6"), ("G1", "F6")], &["A1"]);
    let log = start_phase(&mut w, Phase::Rout, &[5]);
    assert_eq!(
        log[..4],
        [
            "Allies Rout Phase: A1 must check (R 11.0)",
            "A1 Rout MC (in Melee): Morale 2 (R 11.0)",
            "A1 MC: needs 2 or less, rolled 5 \u{2192} failed (R 11.0, R 7.1)",
            "A1 is eliminated: it would rout out of Melee with no friendly unit left in it (R 11.1)",
        ]
    );
    // A friend passes and stays: the other routs out of the hex.
    let in_f6 = [("A1", "F6"), ("A2", "F6"), ("G1", "F6")];
    let mut w = board("rout_plain.ron", &in_f6, &["A1", "A2"]);
    let mut log = start_phase(&mut w, Phase::Rout, &[5, 1]);
    assert_eq!(log[0], "Allies Rout Phase: A1, A2 must check (R 11.0)");
    first_destinations(&mut w, &mut log);
    assert!(log.iter().any(|l| l.starts_with("A1 routs ")), "{log:#?}");
    assert_eq!(at(&mut w, "A2"), "F6");
    // Both fail: both eliminated, neither leaves a friend behind.
    let in_f6 = [("A1", "F6"), ("A2", "F6"), ("G1", "F6")];
    let mut w = board("rout_plain.ron", &in_f6, &["A1", "A2"]);
    let log = start_phase(&mut w, Phase::Rout, &[5, 6]);
    assert_eq!(
        log[4..7],
        [
            "A2 MC: needs 2 or less, rolled 6 \u{2192} failed (R 11.0, R 7.1)",
            "A1 is eliminated: it would rout out of Melee with no friendly unit left in it (R 11.1)",
            "A2 is eliminated: it would rout out of Melee with no friendly unit left in it (R 11.1)",
        ]
    );
}

/// R 11.2 example: the Suppressed SS Squad (Morale 6) alone in Melee with a
/// Russian in 1942 has Morale 7; it rolls 8, fails by one, and instead of
/// routing to its death it is Reduced and Fully Suppressed in place
/// (R 57.3). The Melee and the end of the scenario follow.
#[test]
fn r11_2_ss_desperation() {
    let mut w = world_of("ss_melee.ron");
    suppress(&mut w, "S1", Suppression::Suppressed);
    let log = start_phase(&mut w, Phase::Rout, &[8, 10, 10, 10, 10]);
    assert_eq!(
        log,
        [
            "Allies Rout Phase: R1 must check (R 11.0)",
            "R1 Rout MC (in Melee): Morale 11, No Quarter (R 11.2) passes with no roll (R 11.0, R 7.1)",
            "Axis Rout Phase: S1 must check (R 11.0)",
            "S1 Rout MC (in Melee): Morale 7, No Quarter (R 11.2) (R 11.0)",
            "S1 MC: needs 7 or less, rolled 8 \u{2192} failed (R 11.0, R 7.1)",
            "S1 failed by one: SS Desperation, Reduced and Fully Suppressed in place (R 57.3, R 11.2)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in C3: R1 against S1 (R 12.0)",
            "R1 Melee FP 6: rolls 10, 10 -> 0 casualties (R 12.0)",
            "S1 Melee FP 5: rolls 10, 10 -> 0 casualties (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Scenario over: Axis win. Allies eliminated 0 enemy units (1 needed): not met; otherwise Axis win. Losses: Allies 0 eliminated, 0 Reduced; Axis 0 eliminated, 1 Reduced (R 18.0)",
        ]
    );
    let s1 = entity(&mut w, "S1");
    assert!(w.get::<Unit>(s1).unwrap().reduced);
    assert_eq!(w.get::<Suppression>(s1), Some(&Suppression::Full));
    assert_eq!(at(&mut w, "S1"), "C3");
}

/// R 12.0 example: the Airborne Squad (FP 6) rolls 3 and 6, two
/// Reductions, eliminating the German; the German (FP 5) rolls 1 and 6,
/// Reducing the Airborne Squad. The Allies may spend their CP to re-roll
/// first (R 3.0) and decline. Casualties are simultaneous (R 12.1).
#[test]
fn r12_airborne_against_first_line() {
    let mut w = world_of("melee_ground.ron");
    keep(&mut w, &["A1", "G1"]);
    let log = start_phase(&mut w, Phase::Rout, &[3, 6, 1, 6]);
    assert_eq!(
        log,
        [
            "Allies Rout Phase: A1 must check (R 11.0)",
            "A1 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Axis Rout Phase: G1 must check (R 11.0)",
            "G1 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in C3: A1 against G1 (R 12.0)",
            "A1 Melee FP 6: rolls 3, 6 -> 2 casualties (R 12.0)",
            "G1 Melee FP 5: rolls 1, 6 -> 1 casualty (R 12.0)",
            "Allies to decide: a CP re-roll of Melee dice for A1 or none (R 3.0)",
        ]
    );
    let log = accepted(&mut w, &Order::CpReroll { unit: None });
    assert_eq!(
        log[..3],
        [
            "A1 is Reduced in Melee (R 12.0)",
            "G1 is eliminated in Melee (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
        ]
    );
    assert!(!exists(&mut w, "G1"));
    let a1 = entity(&mut w, "A1");
    assert!(w.get::<Unit>(a1).unwrap().reduced);
    // Lost in Melee, G1 is one Combat Event 4 could bring back (R 17.0).
    assert_eq!(
        w.resource::<bob::engine::combat_events::Graveyard>().0,
        ["G1"]
    );
}

/// R 12.0: the owner allocates; an MG WT is eliminated by any casualty. A
/// CP re-roll rolls both dice of the unit again (R 3.0).
#[test]
fn melee_casualties_are_the_owners_choice() {
    let mut w = world_of("melee_ground.ron");
    place(&mut w, "G2", "C3");
    let log = start_phase(&mut w, Phase::Rout, &[10, 10, 10, 10, 10, 10, 3, 6]);
    assert!(
        log.last()
            .unwrap()
            .contains("CP re-roll of Melee dice for A1"),
        "{log:#?}"
    );
    let log = accepted(
        &mut w,
        &Order::CpReroll {
            unit: Some("A1".into()),
        },
    );
    assert_eq!(
        log,
        [
            "Allies spend a CP: A1 re-rolls both Melee dice (R 3.0)",
            "A1 Melee FP 6: rolls 3, 6 -> 2 casualties (R 12.0)",
            "Axis to decide: 2 Melee casualties in C3 among G1, G2 (R 12.0)",
        ]
    );
    let refused = apply(
        &mut w,
        &Order::Casualties {
            units: vec!["G2".into(), "G2".into()],
        },
    );
    assert_eq!(
        refused.unwrap_err().to_string(),
        "G2 cannot take another casualty: it is already eliminated (R 12.0)"
    );
    assert_eq!(
        apply(&mut w, &Order::Pass).unwrap_err().to_string(),
        "the game waits for 2 Melee casualties in C3 among G1, G2 (R 12.0)"
    );
    let log = accepted(
        &mut w,
        &Order::Casualties {
            units: vec!["G2".into(), "G1".into()],
        },
    );
    assert_eq!(
        log[..2],
        [
            "G2 is eliminated in Melee (R 12.0)",
            "G1 is Reduced in Melee (R 12.0)"
        ]
    );
}

/// R 12.0: with two Melees, the first player chooses which is resolved
/// first; each location fights one round.
#[test]
fn the_first_player_orders_the_melees() {
    let units = [("A1", "F6"), ("G1", "F6"), ("A2", "H6"), ("G2", "H6")];
    let mut w = board("rout_plain.ron", &units, &[]);
    let log = start_phase(&mut w, Phase::Rout, &[10, 10, 10, 10, 10, 10, 10, 10]);
    assert_eq!(
        log.last().unwrap(),
        "Allies to decide: the next Melee, one of F6, H6 (R 12.0)"
    );
    assert_eq!(
        apply(&mut w, &Order::Melee { at: "C3".into() })
            .unwrap_err()
            .to_string(),
        "no Melee to resolve in C3 (R 12.0)"
    );
    let log = accepted(&mut w, &Order::Melee { at: "H6".into() });
    assert_eq!(
        log[..7],
        [
            "Melee in H6: A2 against G2 (R 12.0)",
            "A2 Melee FP 6: rolls 10, 10 -> 0 casualties (R 12.0)",
            "G2 Melee FP 5: rolls 10, 10 -> 0 casualties (R 12.0)",
            "Melee in F6: A1 against G1 (R 12.0)",
            "A1 Melee FP 6: rolls 10, 10 -> 0 casualties (R 12.0)",
            "G1 Melee FP 5: rolls 10, 10 -> 0 casualties (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
        ]
    );
}

/// R 59.1: a Japanese unit in Melee may not move out of it.
#[test]
fn japanese_do_not_withdraw_from_melee() {
    let mut w = headless("guadalcanal", 1);
    let (jap, marine) = {
        let mut q = w.query::<&Unit>();
        let all: Vec<Unit> = q.iter(&w).cloned().collect();
        let jap = all
            .iter()
            .find(|u| u.kind == "jap_squad")
            .unwrap()
            .id
            .clone();
        let marine = all
            .iter()
            .find(|u| u.kind.starts_with("marine4"))
            .unwrap()
            .id
            .clone();
        (jap, marine)
    };
    let hex = at(&mut w, &marine);
    place(&mut w, &jap, &hex);
    let refusal = bob::engine::phases::melee::check_no_withdrawal(
        &mut w,
        &Order::plain_move(jap.clone(), vec![hex]),
    )
    .unwrap_err();
    assert_eq!(
        refusal.to_string(),
        format!("{jap} is Japanese and in Melee: it may only be marked Used or Op Fire (R 59.1)")
    );
}

/// The board UI's decision window answers a Rout destination (R 11.0): it
/// names the Allies, lists every destination the engine offers as a button,
/// and the first button's order, sent as a click sends it, routs A2 there
/// and is logged.
#[test]
fn decision_window_answers_a_rout_destination() {
    use bob::ui::decide::decision_view;
    let mut w = board("rout_open.ron", &[("A2", "N8"), ("G2", "K10")], &["A2"]);
    start_phase(&mut w, Phase::Rout, &[5]);
    let Some(Pending(bob::engine::decision::Decision::RoutDestination { choices, .. })) =
        w.get_resource::<Pending>().cloned()
    else {
        panic!("no destination asked");
    };
    let view = decision_view(&w).expect("a decision is pending");
    assert_eq!(view.side, bob::scenario::schema::SideId::Allies);
    assert_eq!(view.title, "ROUT");
    assert_eq!(
        view.explain,
        "A2 routs. Choose the hex it routs to (R 11.0)."
    );
    let labels: Vec<String> = view.choices.iter().map(|c| c.label.clone()).collect();
    assert_eq!(labels, choices);
    assert!(view.many.is_none());
    let first = view.choices[0].clone();
    assert_eq!(
        first.order,
        Order::Rout {
            unit: "A2".into(),
            to: choices[0].clone(),
            facing: None,
        }
    );
    w.init_resource::<bob::ui::act::OrderCount>();
    w.init_resource::<bob::ui::orders::GameLog>();
    w.init_resource::<bob::ui::tray::DiceTray>();
    w.init_resource::<bob::ui::tray::UiSettings>();
    w.init_resource::<bob::ui::tray::LogHighlight>();
    // The log's part of the views an order's events go to.
    let mut shown = bob::ui::act::order_shown_schedule();
    shown.add_systems(bob::ui::act::show_in_log);
    w.add_schedule(shown);
    assert!(bob::ui::act::send(&mut w, &first.order));
    assert_eq!(at(&mut w, "A2"), choices[0]);
    assert_eq!(w.resource::<bob::ui::act::OrderCount>().0, 1);
    let log = &w.resource::<bob::ui::orders::GameLog>().lines;
    assert!(
        log[0].starts_with("A2 routs to safety: N8 -> ")
            && log[0].ends_with(&format!("{} (R 11.0)", choices[0])),
        "{log:#?}"
    );
    assert_ne!(
        decision_view(&w).map(|v| v.choices),
        Some(view.choices),
        "the same decision is still pending"
    );
}

/// Plays with Infantry facing, as the Pacific does (R 2.2).
fn with_facing(w: &mut World) {
    std::sync::Arc::make_mut(&mut w.resource_mut::<bob::world::ActiveScenario>().scenario)
        .special_rules
        .facing_required = true;
}

/// R 2.2: "A moving or Routing unit may adopt any facing at the end of its
/// move". Where facing is in use, the owner is asked for the facing with
/// the destination, and the unit turns as its rout ends, before its Rout
/// casualty (R 11.1); without facing in use a facing is refused.
#[test]
fn r2_2_a_routing_unit_adopts_a_facing_at_the_end_of_its_rout() {
    let mut w = board("rout_open.ron", &[("A1", "E4"), ("G1", "H4")], &["A1"]);
    with_facing(&mut w);
    let log = start_phase(&mut w, Phase::Rout, &[5]);
    assert_eq!(
        log[3],
        "Allies to decide: A1's Rout destination, one of A2, A3, B2, C3 (R 11.0) and the facing it adopts there (R 2.2)"
    );
    let log = accepted(
        &mut w,
        &Order::Rout {
            unit: "A1".into(),
            to: "C3".into(),
            facing: Some(bob::scenario::schema::Spine::E),
        },
    );
    assert_eq!(
        log[..2],
        [
            "A1 routs to safety: E4 -> D3 -> C3 (R 11.0)",
            "A1 faces E at the end of its move (R 2.2)",
        ]
    );
    let a1 = entity(&mut w, "A1");
    assert_eq!(
        w.get::<bob::world::Facing>(a1).map(|f| f.0),
        Some(bob::scenario::schema::Spine::E)
    );

    // Without facing in use, a facing is refused and nothing happens.
    let mut w = board("rout_open.ron", &[("A1", "E4"), ("G1", "H4")], &["A1"]);
    start_phase(&mut w, Phase::Rout, &[5]);
    let refused = apply(
        &mut w,
        &Order::Rout {
            unit: "A1".into(),
            to: "C3".into(),
            facing: Some(bob::scenario::schema::Spine::E),
        },
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        refused,
        "this scenario does not use Infantry facing (R 2.2)"
    );
    assert_eq!(at(&mut w, "A1"), "E4");
}

/// R 2.2: one hex qualifies, yet where facing is in use the owner is still
/// asked (for the facing); keeping its own facing is an answer.
#[test]
fn r2_2_one_rout_hex_is_still_asked_for_its_facing() {
    let mut w = board("rout_open.ron", &[("A1", "G5"), ("G1", "H4")], &["A1"]);
    let a1 = entity(&mut w, "A1");
    let before = w.get::<bob::world::Facing>(a1).map(|f| f.0);
    with_facing(&mut w);
    let log = start_phase(&mut w, Phase::Rout, &[5]);
    assert_eq!(
        log[2..],
        [
            "A1 MC: needs 2 or less, rolled 5 \u{2192} failed (R 11.0, R 7.1)",
            "Allies to decide: A1's Rout destination, one of C3 (R 11.0) and the facing it adopts there (R 2.2)",
        ]
    );
    let log = accepted(
        &mut w,
        &Order::Rout {
            unit: "A1".into(),
            to: "C3".into(),
            facing: None,
        },
    );
    assert_eq!(
        log[..2],
        [
            "A1 routs to safety: G5 -> F4 -> E4 -> D3 -> C3 (R 11.0)",
            "Axis Rout Phase: G1 must check (R 11.0)",
        ]
    );
    assert_eq!(w.get::<bob::world::Facing>(a1).map(|f| f.0), before);
}
