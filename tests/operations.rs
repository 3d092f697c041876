//! R 67.0, the extended example of play: its whole Operations Phase, step by
//! step, with the rulebook's dice, on a stand-in for Board 20
//! (`tests/data/r67.ron`). Every event line is asserted, then the positions,
//! markers and CPs of its Figure #4.
//!
//! Beside it: facing, the Command Point functions and American Reluctance
//! (R 58.1) on small test grounds.

use bevy::prelude::*;

use bob::engine::command_points::{CommandPoints, CpFunction};
use bob::engine::operations::{apply, begin_operations};
use bob::engine::{Dice, GameEvent, Order, headless_world};
use bob::scenario::roster::UnitType;
use bob::scenario::schema::Spine;
use bob::scenario::{self, PlayerAid, Roster};
use bob::world::{
    ActiveScenario, Concealed, Facing, Location, Marks, Suppression, TurnTrack, Unit,
};

mod common;
use common::entity;

fn data_file(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The built-in roster, with the example's two counters when it lacks
/// them, and the built-in Player Aid.
fn r67_data() -> (Roster, PlayerAid) {
    let (mut roster, aid) = common::data();
    let path = data_file("r67_units.ron");
    let bytes = std::fs::read(&path).expect("r67_units.ron");
    let extra: Vec<UnitType> = scenario::parse_data(&path, &bytes).expect("r67 units parse");
    for u in extra {
        if roster.get(&u.id).is_none() {
            roster.units.push(u);
        }
    }
    (roster, aid)
}

fn world(rolls: &[u8]) -> World {
    let (roster, aid) = r67_data();
    let loaded = bob::world::load(&data_file("r67.ron"), &roster, &aid).expect("r67 loads");
    let mut w = headless_world(loaded, roster, aid, 67);
    w.resource_mut::<Dice>().force(rolls.iter().copied());
    w
}

fn play(w: &mut World, order: Order) -> Vec<String> {
    match apply(w, &order) {
        Ok(events) => events.iter().map(GameEvent::line).collect(),
        Err(r) => panic!("{order:?} refused: {r}"),
    }
}

fn fire(unit: &str, target: &str) -> Order {
    Order::Fire {
        unit: unit.into(),
        target: target.into(),
        facing: None,
    }
}

/// A move as a script writes it (options left at their defaults).
fn mv(unit: &str, path: &[&str]) -> Order {
    let hexes: Vec<String> = path.iter().map(|h| format!("{h:?}")).collect();
    ron::from_str(&format!(
        "move(unit: {unit:?}, path: [{}])",
        hexes.join(", ")
    ))
    .expect("a move order")
}

fn op_fire(firers: &[&str]) -> Order {
    Order::OpFire {
        firers: firers.iter().map(|s| s.to_string()).collect(),
        facing: Default::default(),
    }
}

/// One row of the final position: where the unit is and its markers.
#[derive(Debug, PartialEq, Eq)]
struct Counter {
    id: String,
    at: String,
    reduced: bool,
    suppression: Option<Suppression>,
    used: bool,
    op_fire: bool,
    concealed: bool,
    cp: Option<CpFunction>,
}

fn counters(w: &mut World) -> Vec<Counter> {
    let mut q = w.query::<(
        &Unit,
        &Location,
        Option<&Suppression>,
        &Marks,
        Has<Concealed>,
    )>();
    let mut v: Vec<Counter> = q
        .iter(w)
        .map(|(u, l, s, m, c)| Counter {
            id: u.id.to_string(),
            at: l.coord.label(),
            reduced: u.reduced,
            suppression: s.copied(),
            used: m.used,
            op_fire: m.op_fire,
            concealed: c,
            cp: m.cp,
        })
        .collect();
    v.sort_by(|a, b| a.id.cmp(&b.id));
    v
}

fn counter(
    id: &str,
    at: &str,
    reduced: bool,
    suppression: Option<Suppression>,
    cp: Option<CpFunction>,
) -> Counter {
    Counter {
        id: id.into(),
        at: at.into(),
        reduced,
        suppression,
        used: true,
        op_fire: false,
        concealed: false,
        cp,
    }
}

#[test]
fn r67_operations_phase_step_by_step() {
    // The rulebook's dice, in the order they are rolled.
    let rolls = [
        1, // F7 fires at the Decoy in G5: a 1
        3, // F5 Op Fires at H5: a 3, Reduced
        4, // the Reduced Squad's MC (needs a 1): fails
        1, // G7 fires at F5: a 1, only a Suppression
        7, // F5 Final Op Fires with the CP: MC (needs 6) fails
        2, // F5 Final Op Fires at G5: MC passes
        2, // ... the attack: a 2, Reduced
        1, // the Russian's MC (needs a 1): passes
        5, // the Russian Assault Fires at F5: a 5, a miss
        7, // F5 Final Op Fires at G6: MC fails
        9, // E6 Op Fires at G6: a 9, Suppressed
        5, // the Russian's MC (needs a 6): passes
    ];
    let mut w = world(&rolls);
    let mut log: Vec<String> = begin_operations(&mut w)
        .iter()
        .map(GameEvent::line)
        .collect();
    // 1st Operations Phase, Russian. The Germans could spend their CP to act
    // first (R 3.0 #2) but decline: they give no `cp` order.
    log.extend(play(&mut w, fire("R1", "G5")));
    log.extend(play(&mut w, mv("R4", &["H5", "G5"])));
    log.extend(play(&mut w, op_fire(&["G1"])));
    // Operations Phase, Germans: E6 marked Op Fire.
    log.extend(play(
        &mut w,
        Order::MarkOpFire {
            unit: "G2".into(),
            facing: None,
        },
    ));
    // Operations Phase, Russians again.
    log.extend(play(&mut w, fire("R2", "F5")));
    // The Russian had planned to go on into the Melee, but Fully Suppressed
    // he Assault Fires at the adjacent German instead (R 5.2).
    log.extend(play(
        &mut w,
        ron::from_str(r#"move(unit: "R5", path: ["H5", "G5"], assault_fire: Some("F5"))"#)
            .expect("a move order"),
    ));
    // The German spends his CP to Final Op Fire two hexes away (R 10.0).
    log.extend(play(&mut w, op_fire(&["G1"])));
    log.extend(play(&mut w, op_fire(&["G1"])));
    // Germans again: nothing to Use; Russians again.
    log.extend(play(&mut w, mv("R3", &["G6", "F5"])));
    log.extend(play(&mut w, op_fire(&["G1", "G2"])));

    let expected = [
        "Allies Ops Range 1–2 (R 4.1)",
        "R1 fires at G5 (R 6.0); Ops Range 1/2",
        "R1 rolls 1 against G5 (R 6.2)",
        "GD1: +6 Normal FP (R 2.1); −3 long range (3 hexes, Range 2): halved, rounded down (R 6.0); −1 Wooden building (PAC §2a); −1 Target Concealed (R 15.0) = 1 FP; roll 1 → Suppressed (R 6.2)",
        "GD1 was a Decoy: removed on losing Concealment (R 15.0)",
        "R4 moves (R 5.0); Ops Range 2/2",
        "R4 moves H6 → H5: 1 MP, 4 left (R 5.0)",
        "Op Fire window: R4 enters H5; Axis may fire with G1 (R 9.0)",
        "G1 Op Fires at R4 in H5 and is Used (R 9.0, R 4.3)",
        "G1 loses its Conceal counter: it fired (R 15.0)",
        "G1 rolls 3 against H5 (R 6.2)",
        "R4: +5 Prof FP: Op Fire (R 9.0); +4 Target moving in Open Ground, range 2 (R 41.0) = 9 FP; roll 3 → Reduced and Fully Suppressed (R 6.2)",
        "R4 MC: needs 1 or less, rolled 4 → failed (R 9.0, R 7.1)",
        "R4 ends its move in H5; Used (R 4.2)",
        "Allies pass after 2: no further Use fits (R 4.1)",
        "Axis Ops Range 1–2 (R 4.1)",
        "G2 marked Op Fire (R 4.3); Ops Range 1/2",
        "Axis: every unit Used or marked Op Fire (R 4.1)",
        "Allies Ops Range 1–2 (R 4.1)",
        "R2 fires at F5 (R 6.0); Ops Range 1/2",
        "R2 rolls 1 against F5 (R 6.2)",
        "G1: +6 Normal FP (R 2.1); −2 Stone building (PAC §2a) = 4 FP; roll 1 → Suppressed (R 6.2)",
        "R5 moves (R 5.0); Ops Range 2/2",
        "R5 moves H6 → H5: 1 MP, 4 left (R 5.0)",
        "Op Fire window: R5 enters H5; Axis may fire with G1 (R 9.0)",
        "G1 Final Op Fires at R5 in H5 (R 10.0)",
        "Axis spend a CP on G1: Final Op Fire beyond one hex (R 3.0 #3, R 10.0); 0 CP left",
        "G1 MC: needs 6 or less, rolled 7 → failed (R 6.0, R 7.1)",
        "G1 fails its MC to fire and is Used (R 6.1)",
        "R5 moves H5 → G5: 2 MP, 2 left (R 5.0)",
        "Op Fire window: R5 enters G5; Axis may fire with G1 (R 9.0)",
        "G1 Final Op Fires at R5 in G5 (R 10.0)",
        "G1 MC: needs 6 or less, rolled 2 → passed (R 6.0, R 7.1)",
        "G1 rolls 2 against G5 (R 6.2)",
        "R5: +5 Prof FP: Final Op Fire (R 10.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); −1 Wooden building (PAC §2a); +3 Adjacent (PAC §2b); −2 Final Op Fire (R 10.0) = 6 FP; roll 2 → Reduced and Fully Suppressed (R 6.2)",
        "R5 MC: needs 1 or less, rolled 1 → passed (R 9.0, R 7.1)",
        "R5 Assault Fires at F5; its move is over (R 5.2)",
        "R5 rolls 5 against F5 (R 6.2)",
        "G1: +3 Prof FP: Assault Fire (R 5.2); −2 Stone building (PAC §2a); +3 Adjacent (PAC §2b) = 4 FP; roll 5 → No Effect (R 6.2)",
        "R5 ends its move in G5; Used (R 4.2)",
        "Allies pass after 2: no further Use fits (R 4.1)",
        "Allies Ops Range 1–2 (R 4.1)",
        "R3 moves (R 5.0); Ops Range 1/2",
        "R3 moves G7 → G6: 1 MP, 4 left (R 5.0)",
        "Op Fire window: R3 enters G6; Axis may fire with G1, G2 (R 9.0)",
        "G1 Final Op Fires at R3 in G6 (R 10.0)",
        "G1 MC: needs 6 or less, rolled 7 → failed (R 6.0, R 7.1)",
        "G1 fails its MC to fire and is Used (R 6.1)",
        "G2 Op Fires at R3 in G6 and is Used (R 9.0, R 4.3)",
        "G2 loses its Conceal counter: it fired (R 15.0)",
        "G2 rolls 9 against G6 (R 6.2)",
        "R3: +5 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire while marked Op Fire (R 9.0); +4 Target moving in Open Ground, range 2 (R 41.0) = 10 FP; roll 9 → Suppressed (R 6.2)",
        "R3 MC: needs 6 or less, rolled 5 → passed (R 9.0, R 7.1)",
        "R3 moves G6 → F5: 2 MP, 2 left (R 5.0)",
        "R3 ends its move in F5; Used (R 4.2)",
        "Allies: every unit Used or marked Op Fire (R 4.1)",
        "Operations Phase ends; Rout Phase begins (R 1.0)",
    ];
    assert_eq!(log, expected, "\n{}", log.join("\n"));

    // Figure #4: the Melee in F5, the two Reduced Russians Fully Suppressed,
    // every unit Used, the German CP counter on F5, the Russian CP saved.
    use Suppression::{Full, Suppressed};
    assert_eq!(
        counters(&mut w),
        vec![
            counter(
                "G1",
                "F5",
                false,
                Some(Suppressed),
                Some(CpFunction::FinalOpFireRange)
            ),
            counter("G2", "E6", false, None, None),
            counter("R1", "F7", false, None, None),
            counter("R2", "G7", false, None, None),
            counter("R3", "F5", false, Some(Suppressed), None),
            counter("R4", "H5", true, Some(Full), None),
            counter("R5", "G5", true, Some(Full), None),
        ]
    );
    assert_eq!(
        bob::scenario::schema::SideId::BOTH.map(|s| bob::engine::command_points::left(&w, s)),
        [1, 0]
    );
    assert_eq!(
        w.resource::<CommandPoints>()
            .left(bob::scenario::schema::SideId::Axis),
        0
    );
    // Every forced roll was used.
    assert_eq!(w.resource::<Dice>().forced_left(), 0);
}

// ---------------------------------------------------------------------
// Facing (R 2.2, R 6.0, R 6.2, R 10.1) and Command Points (R 3.0, R 3.1,
// R 5.4) on the same board, with facing switched on.
// ---------------------------------------------------------------------

/// The R 67 board with facing in use and every unit unconcealed, facing
/// as given.
fn faced(rolls: &[u8], facings: &[(&str, Spine)]) -> World {
    let mut w = world(rolls);
    std::sync::Arc::make_mut(&mut w.resource_mut::<ActiveScenario>().scenario)
        .special_rules
        .facing_required = true;
    for (id, f) in facings {
        let e = entity(&mut w, id);
        w.entity_mut(e).remove::<Concealed>().insert(Facing(*f));
    }
    begin_operations(&mut w);
    w
}

fn refused(w: &mut World, order: Order) -> String {
    apply(w, &order).expect_err("refused").to_string()
}

fn cp(unit: &str, function: CpFunction) -> Order {
    Order::Cp {
        unit: unit.into(),
        function,
    }
}

/// R 6.0: only to the front; turning as it fires costs -1; R 6.2: fire from
/// behind the target's black line is +1.
#[test]
fn fire_with_facing_turning_and_flank() {
    // G1 in F5 faces west: G7 is behind its line. R2 faces south-east, away
    // from F5, and turns to fire.
    let mut w = faced(&[6], &[("G1", Spine::W), ("R2", Spine::Se)]);
    assert_eq!(
        refused(
            &mut w,
            Order::Fire {
                unit: "R2".into(),
                target: "F5".into(),
                facing: Some(Spine::Se),
            }
        ),
        "R2: the target is not to the front of facing Se; give a facing to turn to (R 6.0, R 2.2)"
    );
    let lines = play(&mut w, fire("R2", "F5"));
    assert_eq!(
        lines,
        [
            "R2 fires at F5 (R 6.0); Ops Range 1/2",
            "R2 turns to face Nw to fire: -1 FP (R 6.0)",
            "R2 rolls 6 against F5 (R 6.2)",
            "G1: +6 Normal FP (R 2.1); −1 Firer changed facing to fire (R 6.0); −2 Stone building (PAC §2a); +1 Fire into a flank hex of the target's facing (or Melee entered through it) (R 6.2) = 4 FP; roll 6 → No Effect (R 6.2)",
        ]
    );
    let r2 = entity(&mut w, "R2");
    assert_eq!(w.get::<Facing>(r2), Some(&Facing(Spine::Nw)));
}

/// R 2.2: a unit failing its MC keeps its facing; R 3.0 #1: a CP readied
/// on it re-rolls the failed MC, once, and goes on the unit.
#[test]
fn reroll_cp_and_no_turn_after_a_failed_mc() {
    let mut w = faced(&[8, 9], &[("G1", Spine::W), ("R2", Spine::Se)]);
    let r2 = entity(&mut w, "R2");
    w.entity_mut(r2).insert(Suppression::Suppressed);
    assert_eq!(
        play(&mut w, cp("R2", CpFunction::Reroll)),
        ["R2: a CP is ready to re-roll a failed MC (R 3.0 #1)"]
    );
    assert_eq!(
        refused(&mut w, cp("R2", CpFunction::ProfFp)),
        "R2 already has a CP this turn: one per unit (R 3.0)"
    );
    assert_eq!(
        play(&mut w, fire("R2", "F5")),
        [
            "R2 fires at F5 (R 6.0); Ops Range 1/2",
            "R2 MC: needs 6 or less, rolled 8 \u{2192} failed (R 6.0, R 7.1)",
            "Allies spend a CP on R2: re-roll a failed MC (R 3.0 #1); 0 CP left",
            "R2 MC: needs 6 or less, rolled 9 \u{2192} failed (R 6.0, R 7.1)",
            "R2 fails its MC to fire and is Used (R 6.1)",
        ]
    );
    assert_eq!(w.get::<Facing>(r2), Some(&Facing(Spine::Se)));
    assert_eq!(bob::world::marks(&w, r2).cp, Some(CpFunction::Reroll));
    assert_eq!(
        refused(&mut w, cp("R3", CpFunction::Reroll)),
        "the Allies side has no CP left this turn (R 3.0)"
    );
}

/// R 5.4: Follow Me! gives +1 MP for the phase; R 3.0 #2: the second player
/// acts first with one unit per CP, outside both Ops Ranges.
#[test]
fn follow_me_and_acting_first() {
    let mut w = faced(&[], &[]);
    // The Germans act first with G2 (R 3.0 #2), before any Russian Use.
    assert_eq!(
        refused(&mut w, cp("G2", CpFunction::FollowMe)),
        "G2 is not a unit of the side to act (Allies)"
    );
    assert_eq!(
        play(&mut w, cp("G2", CpFunction::ActFirst)),
        ["G2: a CP is ready to act before the first player (R 3.0 #2, R 4.0)"]
    );
    assert_eq!(
        play(
            &mut w,
            Order::MarkOpFire {
                unit: "G2".into(),
                facing: Some(Spine::E),
            }
        ),
        [
            "Axis spend a CP on G2: act before the first player (R 3.0 #2, R 4.0); 0 CP left",
            "G2 marked Op Fire facing E (R 4.3); Ops Range 0/2",
        ]
    );
    // Six Open hexes: one more than a Squad's 5 MP, unless it follows.
    let six = ["I7", "J7", "J6", "J5", "J4", "J3"];
    let moving = w.resource::<TurnTrack>().active;
    assert_eq!(moving, bob::scenario::schema::SideId::Allies);
    assert!(refused(&mut w, mv("R4", &six)).starts_with("step 6 into J3"));
    assert_eq!(
        play(&mut w, cp("R4", CpFunction::FollowMe)),
        ["Allies spend a CP on R4: Follow Me! +1 MP this phase (R 3.0 #6, R 5.4); 0 CP left"]
    );
    // The Germans hold their fire in every Op Fire window on the way.
    let mut lines = play(&mut w, mv("R4", &six));
    while w
        .get_resource::<bob::engine::op_fire::OpFireWindow>()
        .is_some()
    {
        lines.extend(play(&mut w, op_fire(&[])));
    }
    assert_eq!(lines[0], "R4 moves (R 5.0); Ops Range 1/2");
    assert_eq!(lines[1], "R4 moves H6 \u{2192} I7: 1 MP, 5 left (R 5.0)");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("R4 ends its move in J3; Used (R 4.2)")
    );
    // Too late to act first now.
    assert_eq!(
        refused(&mut w, cp("G1", CpFunction::ActFirst)),
        "no such CP for G1: only the second player, before the first player Uses a unit (R 3.0 #2)"
    );
}

/// R 3.0 #5: +1 Prof FP readied in an Op Fire window, spent on the attack;
/// R 10.1: a Japanese Squad or WT may not turn to Final Op Fire.
#[test]
fn prof_cp_in_an_op_fire_window() {
    let mut w = faced(&[4], &[("G1", Spine::E), ("G2", Spine::E)]);
    let lines = play(&mut w, mv("R4", &["H5", "G5"]));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Op Fire window: R4 enters H5; Axis may fire with G1 (R 9.0)")
    );
    assert_eq!(
        refused(&mut w, fire("R1", "G5")),
        "the Op Fire window at H5 must be answered first (R 9.0)"
    );
    assert_eq!(
        play(&mut w, cp("G1", CpFunction::ProfFp)),
        ["G1: a CP is ready to +1 Prof FP for one attack (R 3.0 #5, R 9.0)"]
    );
    let lines = play(&mut w, op_fire(&["G1"]));
    assert_eq!(
        lines[..3],
        [
            "G1 Op Fires at R4 in H5 and is Used (R 9.0, R 4.3)",
            "Axis spend a CP on G1: +1 Prof FP for one attack (R 3.0 #5, R 9.0); 0 CP left",
            "G1 rolls 4 against H5 (R 6.2)",
        ]
    );
    assert_eq!(
        lines[3],
        "R4: +5 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: one CP (R 3.0, R 9.0); +4 Target moving in Open Ground, range 2 (R 41.0) = 10 FP; roll 4 → Reduced and Fully Suppressed (R 6.2)"
    );
}

/// R 3.0 #4 and the Recovery Phase: one Melee re-roll CP per side per Melee
/// per turn; CP counters come off and the card's CPs come back.
#[test]
fn melee_reroll_and_return_in_recovery() {
    use bob::engine::command_points::{melee_reroll, return_command_points};
    let mut w = faced(&[], &[]);
    let f5 = bob::scenario::Coord::parse("F5", 10, 10).unwrap();
    let (r1, r2) = (entity(&mut w, "R1"), entity(&mut w, "R2"));
    let mut events = Vec::new();
    melee_reroll(&mut w, r1, f5, &mut events).unwrap();
    assert_eq!(
        events.iter().map(GameEvent::line).collect::<Vec<_>>(),
        ["Allies spend a CP on R1: re-roll its Melee dice (R 3.0 #4, R 12.0); 0 CP left"]
    );
    assert_eq!(
        melee_reroll(&mut w, r2, f5, &mut events)
            .unwrap_err()
            .to_string(),
        "the Allies side already spent a CP in the Melee at F5 this turn (R 3.0 #4)"
    );
    let back = return_command_points(&mut w);
    assert_eq!(
        back.iter().map(GameEvent::line).collect::<Vec<_>>(),
        ["CP counters returned: Allies 1, Axis 1 CP this turn (R 3.0, R 13.0)"]
    );
    assert_eq!(bob::world::marks(&w, r1).cp, None);
    assert_eq!(
        bob::scenario::schema::SideId::BOTH.map(|s| bob::engine::command_points::left(&w, s)),
        [1, 1]
    );
    melee_reroll(&mut w, r2, f5, &mut events).unwrap();
}

#[test]
fn american_reluctance_ends_the_move_without_an_mc() {
    // R 58.1: the US Army Squad Suppressed mid-move stops and is Used, with
    // no MC to go on; the second, missed, goes on.
    let (roster, aid) = r67_data();
    let loaded =
        bob::world::load(&data_file("reluctance.ron"), &roster, &aid).expect("reluctance loads");
    let mut w = headless_world(loaded, roster, aid, 58);
    w.resource_mut::<Dice>().force([3, 6, 3, 10]);
    let mut log: Vec<String> = begin_operations(&mut w)
        .iter()
        .map(GameEvent::line)
        .collect();
    log.extend(play(&mut w, mv("U1", &["C2", "D2"])));
    log.extend(play(&mut w, op_fire(&["G1"])));
    log.extend(play(&mut w, mv("U2", &["C5", "D5"])));
    log.extend(play(&mut w, op_fire(&["G2"])));
    let expected = [
        "Allies Ops Range 1–3 (R 4.1)",
        "U1 moves (R 5.0); Ops Range 1/3",
        "U1 MC: needs 9 or less, rolled 3 → passed (R 5.0, R 7.1)",
        "U1 moves B2 → C2: 1 MP, 4 left (R 5.0)",
        "Op Fire window: U1 enters C2; Axis may fire with G1, G2 (R 9.0)",
        "G1 Op Fires at U1 in C2 and is Used (R 9.0, R 4.3)",
        "G1 rolls 6 against C2 (R 6.2)",
        "U1: +3 Prof FP: Op Fire (R 9.0); +4 Target moving in Open Ground, range 3 (R 41.0) = 7 FP; roll 6 → Suppressed (R 6.2)",
        "U1 is Suppressed mid-move: American Reluctance ends its move, no MC (R 58.1)",
        "U1 ends its move in C2; Used (R 4.2)",
        "U2 moves (R 5.0); Ops Range 2/3",
        "U2 MC: needs 9 or less, rolled 3 → passed (R 5.0, R 7.1)",
        "U2 moves B5 → C5: 1 MP, 4 left (R 5.0)",
        "Op Fire window: U2 enters C5; Axis may fire with G2 (R 9.0)",
        "G2 Op Fires at U2 in C5 and is Used (R 9.0, R 4.3)",
        "G2 rolls 10 against C5 (R 6.2)",
        "U2: +3 Prof FP: Op Fire (R 9.0); +4 Target moving in Open Ground, range 3 (R 41.0) = 7 FP; roll 10 → No Effect (R 6.2)",
        "U2 moves C5 → D5: 1 MP, 3 left (R 5.0)",
        "U2 ends its move in D5; Used (R 4.2)",
        "Allies: every unit Used or marked Op Fire (R 4.1)",
        "Axis: every unit Used or marked Op Fire (R 4.1)",
        "Operations Phase ends; Rout Phase begins (R 1.0)",
    ];
    assert_eq!(log, expected, "\n{}", log.join("\n"));
}
