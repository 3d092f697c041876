//! Rows of `docs/rules-audit.md` the engine broke, each proven by an
//! exact log with forced dice on a ground of `tests/data/`: WTs in a Swamp
//! or Surf (R 52.0, R 45.6), a mover on a Path (R 53.0), a firer in Wire
//! (R 43.6), control of a hex entered (R 18.0), the Cave's adjacency
//! (R 43.4) and a Declared Retreat from an enemy's hex (R 5.3).

mod common;

use bob::engine::op_fire::OpFireWindow;
use bob::engine::phases::end::Control;
use bob::scenario::Coord;
use bob::scenario::schema::SideId;
use common::{play, refused, world_of};

/// Who controls `hex` (R 18.0).
fn controller(w: &bevy::prelude::World, hex: &str) -> Option<SideId> {
    let c = Coord::parse(hex, 20, 20).unwrap();
    w.resource::<Control>().0.controller(c)
}

/// Plays an order, then holds fire in every Op Fire window it opens.
fn play_holding_fire(w: &mut bevy::prelude::World, text: &str) -> Vec<String> {
    let mut lines = play(w, text);
    while w.contains_resource::<OpFireWindow>() {
        lines.extend(play(w, "op_fire(firers: [])"));
    }
    lines
}

/// R 52.0: "WTs cannot fire from a swamp hex." R 45.6: "…but WTs may not
/// fire from a Surf hex." MG1 in the Swamp, MG2 in the Surf and the
/// Mortar MT1 in the Swamp are refused their fire; when G1 walks past them,
/// the Unused MT1 is offered no Op Fire, and next to them only MG3, in the
/// open, is offered the Final Op Fire (R 10.0).
#[test]
fn r52_0_and_r45_6_wts_never_fire_from_a_swamp_or_surf_hex() {
    let (mut w, mut log) = world_of("wt_terrain_ground.ron", &[10]);
    assert_eq!(
        refused(&mut w, r#"fire(unit: "MG1", target: "E3")"#),
        "a WT may not fire from a Swamp hex (R 52.0)"
    );
    assert_eq!(
        refused(&mut w, r#"fire(unit: "MG2", target: "E3")"#),
        "a WT may not fire from a Surf hex (R 45.6)"
    );
    assert_eq!(
        refused(&mut w, r#"fire(unit: "MT1", target: "E3")"#),
        "a WT may not fire from a Swamp hex (R 52.0)"
    );
    for wt in ["MG1", "MG2", "MG3"] {
        log.extend(play(&mut w, &format!(r#"mark_used(unit: "{wt}")"#)));
    }
    log.extend(play(&mut w, r#"move(unit: "G1", path: ["D3", "C3"])"#));
    assert_eq!(
        refused(&mut w, r#"op_fire(firers: ["MG1"])"#),
        "MG1 may not Op Fire at C3 (R 9.0)"
    );
    log.extend(play(&mut w, r#"op_fire(firers: ["MG3"])"#));
    assert_eq!(
        log,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "MG1 marked Used (R 4.2); Ops Range 1/3",
            "MG2 marked Used (R 4.2); Ops Range 2/3",
            "MG3 marked Used (R 4.2); Ops Range 3/3",
            "Allies pass after 3: no further Use fits (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "G1 moves (R 5.0); Ops Range 1/3",
            "G1 moves E3 \u{2192} D3: 1 MP, 4 left (R 5.0)",
            "G1 moves D3 \u{2192} C3: 1 MP, 3 left (R 5.0)",
            "Op Fire window: G1 enters C3; Allies may fire with MG3 (R 9.0)",
            "MG3 Final Op Fires at G1 in C3 (R 10.0)",
            "MG3 rolls 10 against C3 (R 6.2)",
            "G1: +7 Prof FP: Final Op Fire (R 10.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); +3 Adjacent (PAC \u{a7}2b); +4 Target moving in Open Ground, range 1 (R 41.0); \u{2212}2 Final Op Fire (R 10.0) = 13 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "G1 ends its move in C3; Used (R 4.2)",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 53.0: "If an infantry unit moving on a Path is fired upon by an
/// adjacent unit, the unit does not get beneficial modifiers from the
/// terrain in the hex but it is not considered moving in Open Ground."
/// "EXAMPLE: A Squad spends 1 MP to enter a Jungle/Path hex so it is
/// moving on the Path. If it is attacked with 7 FP, the FP for the attack
/// would be '7', not '5.'" M1 walks the Path into C2; J1 Op Fires from
/// D2 with 3 + 1 + 3 = 7: no −2 Jungle, no moving-in-Open bonus.
#[test]
fn r53_0_example_op_fire_at_a_path_mover_is_7_not_5() {
    let (mut w, mut log) = world_of("path_ground.ron", &[10]);
    log.extend(play(&mut w, r#"move(unit: "M1", path: ["B2", "C2"])"#));
    while w.contains_resource::<OpFireWindow>() {
        let firers = if log.iter().any(|l| l.contains("enters C2")) {
            r#"op_fire(firers: ["J1"])"#
        } else {
            "op_fire(firers: [])"
        };
        log.extend(play(&mut w, firers));
    }
    let end = log
        .iter()
        .position(|l| l.starts_with("M1 ends its move"))
        .map_or(log.len(), |i| i + 1);
    assert_eq!(
        log[..end],
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 moves (R 5.0); Ops Range 1/3",
            "M1 moves A2 \u{2192} B2: 1 MP, 4 left (R 5.0)",
            "M1 moves B2 \u{2192} C2: 1 MP, 3 left (R 5.0)",
            "Op Fire window: M1 enters C2; Axis may fire with J1 (R 9.0)",
            "J1 Op Fires at M1 in C2 and is Used (R 9.0, R 4.3)",
            "J1 rolls 10 against C2 (R 6.2)",
            "M1: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); +3 Adjacent (PAC \u{a7}2b) = 7 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "M1 ends its move in C2; Used (R 4.2)",
        ]
    );
}

/// R 43.6: "A unit in a wire hex gets -1 to its FP." A3 fires from the
/// Wire of B4 at G2: 6 − 1 = 5 FP (the row was missing from the Player
/// Aid, and the attack had a roll and no result).
#[test]
fn r43_6_a_unit_in_a_wire_hex_fires_at_minus_1() {
    let (mut w, mut log) = world_of("europe_rules_ground.ron", &[10]);
    log.extend(play(&mut w, r#"mark_used(unit: "G1")"#));
    log.extend(play(&mut w, r#"mark_used(unit: "G2")"#));
    log.extend(play(&mut w, r#"fire(unit: "A3", target: "E4")"#));
    assert_eq!(
        log,
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "G1 marked Used (R 4.2); Ops Range 1/3",
            "G2 marked Used (R 4.2); Ops Range 2/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A3 fires at E4 (R 6.0); Ops Range 1/3",
            "A3 rolls 10 against E4 (R 6.2)",
            "G2: +6 Normal FP (R 2.1); \u{2212}1 Firer in a Wire hex (R 43.6) = 5 FP; roll 10 \u{2192} No Effect (R 6.2)",
        ]
    );
}

/// R 18.0: "A unit eliminated (by Op Fire, etc.) when entering a hex does
/// not control the hex." G1 passes D2 (which it takes) and is eliminated
/// by A1's Op Fire as it enters C2, which stays no one's.
#[test]
fn r18_0_a_unit_eliminated_entering_a_hex_does_not_control_it() {
    let (mut w, mut log) = world_of("europe_rules_ground.ron", &[1]);
    log.extend(play(&mut w, r#"move(unit: "G1", path: ["D2", "C2"])"#));
    log.extend(play(&mut w, "op_fire(firers: [])"));
    // G1 waits in C2 for the Allies' answer: the hex is not yet its.
    assert_eq!(controller(&w, "C2"), None);
    log.extend(play(&mut w, r#"op_fire(firers: ["A1"])"#));
    assert_eq!(
        log,
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "G1 moves (R 5.0); Ops Range 1/3",
            "G1 moves E2 \u{2192} D2: 1 MP, 4 left (R 5.0)",
            "Op Fire window: G1 enters D2; Allies may fire with A1, A2, A3, A4 (R 9.0)",
            "Allies hold their fire at D2 (R 9.0)",
            "G1 moves D2 \u{2192} C2: 1 MP, 3 left (R 5.0)",
            "Op Fire window: G1 enters C2; Allies may fire with A1, A2, A3, A4 (R 9.0)",
            "A1 Op Fires at G1 in C2 and is Used (R 9.0, R 4.3)",
            "A1 rolls 1 against C2 (R 6.2)",
            "G1: +5 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); +3 Adjacent (PAC \u{a7}2b); +4 Target moving in Open Ground, range 1 (R 41.0) = 13 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "G1 is eliminated (R 8.0)",
        ]
    );
    assert_eq!(controller(&w, "D2"), Some(SideId::Axis));
    assert_eq!(controller(&w, "C2"), None);
}

/// R 18.0: "A hex is controlled by the side that last had a unit in (or
/// passing through) the hex with no enemy units present." M1's move
/// pauses in D3 while the Japanese choose J1's facing (R 2.2), then
/// passes D2, an Axis setup hex, which becomes the Allies'.
#[test]
fn r18_0_hexes_passed_after_a_mid_move_decision_are_controlled() {
    let (mut w, mut log) = world_of("reveal_facing.ron", &[]);
    assert_eq!(controller(&w, "D2"), Some(SideId::Axis));
    log.extend(play_holding_fire(
        &mut w,
        r#"move(unit: "M1", path: ["C3", "D3", "D2", "C2"])"#,
    ));
    log.extend(play_holding_fire(
        &mut w,
        r#"face(unit: "J1", facing: Some(e))"#,
    ));
    assert_eq!(
        log,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 moves (R 5.0); Ops Range 1/3",
            "M1 moves B3 \u{2192} C3: 1 MP, 4 left (R 5.0)",
            "Op Fire window: M1 enters C3; Axis may fire with J1, J2 (R 9.0)",
            "Axis hold their fire at C3 (R 9.0)",
            "M1 moves C3 \u{2192} D3: 1 MP, 3 left (R 5.0)",
            "Op Fire window: M1 enters D3; Axis may fire with J1, J2 (R 9.0)",
            "Axis hold their fire at D3 (R 9.0)",
            "J1 loses its Conceal counter: an enemy unit moved adjacent (R 15.0)",
            "Axis to decide: J1's facing: it lost its Conceal counter (an enemy unit moved adjacent) and chooses its facing (R 2.2)",
            "J1 takes facing E as it loses Concealment (R 2.2)",
            "M1 moves D3 \u{2192} D2: 1 MP, 2 left (R 5.0)",
            "Op Fire window: M1 enters D2; Axis may fire with J1, J2 (R 9.0)",
            "Axis hold their fire at D2 (R 9.0)",
            "M1 moves D2 \u{2192} C2: 1 MP, 1 left (R 5.0)",
            "Op Fire window: M1 enters C2; Axis may fire with J1, J2 (R 9.0)",
            "Axis hold their fire at C2 (R 9.0)",
            "M1 ends its move in C2; Used (R 4.2)",
        ]
    );
    assert_eq!(controller(&w, "D3"), Some(SideId::Allies));
    assert_eq!(controller(&w, "D2"), Some(SideId::Allies));
}

/// R 43.4: "The Cave is only adjacent to its two frontal hexes." J1 in
/// the Cave of D3 (front hexes D4 and C4): M2 in D4 takes a Rout MC as
/// adjacent to an enemy not in Melee; M1 in E4, which touches D3 but is
/// not in front of the Cave, takes none (both stand in Woods, out of the
/// Exposed case).
#[test]
fn r43_4_a_unit_beside_a_cave_but_not_in_front_is_not_adjacent_to_it() {
    let (mut w, mut log) = world_of("cave_adjacent_ground.ron", &[]);
    log.extend(play(&mut w, r#"mark_used(unit: "J1")"#));
    log.extend(play(&mut w, r#"mark_used(unit: "M1")"#));
    log.extend(play(&mut w, r#"mark_used(unit: "M2")"#));
    let end = log
        .iter()
        .position(|l| l.starts_with("Rout Phase ends"))
        .map_or(log.len(), |i| i + 1);
    assert_eq!(
        log[..end],
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 marked Used (R 4.2); Ops Range 1/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 marked Used (R 4.2); Ops Range 1/3",
            "M2 marked Used (R 4.2); Ops Range 2/3",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Axis Rout Phase: no unit must check (R 11.0)",
            "Allies Rout Phase: M2 must check (R 11.0)",
            "M2 Rout MC (adjacent to an enemy not in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
        ]
    );
}

/// R 5.3: "Units starting in the same hex as an enemy unit cannot get this
/// +4 Morale modifier." They may still Declare Retreat: A1 leaves the Melee
/// in B2 (A2 stays in it) with the Withdrawal's −3 (R 5.1) and no +4, and
/// moves as a Routing unit (R 11.0); A2, then alone with G1, may not retreat
/// into A3, next to an enemy no longer in Melee.
#[test]
fn r5_3_a_declared_retreat_from_an_enemy_hex_gets_no_plus_4() {
    let (mut w, mut log) = world_of("europe_rules_ground.ron", &[7]);
    log.extend(play_holding_fire(
        &mut w,
        r#"move(unit: "G1", path: ["D2", "C2", "B2"])"#,
    ));
    log.extend(play(&mut w, r#"mark_used(unit: "G2")"#));
    log.extend(play_holding_fire(
        &mut w,
        r#"move(unit: "A1", path: ["A2"], declared_retreat: true)"#,
    ));
    assert_eq!(
        log,
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "G1 moves (R 5.0); Ops Range 1/3",
            "G1 moves E2 \u{2192} D2: 1 MP, 4 left (R 5.0)",
            "Op Fire window: G1 enters D2; Allies may fire with A1, A2, A3, A4 (R 9.0)",
            "Allies hold their fire at D2 (R 9.0)",
            "G1 moves D2 \u{2192} C2: 1 MP, 3 left (R 5.0)",
            "Op Fire window: G1 enters C2; Allies may fire with A1, A2, A3, A4 (R 9.0)",
            "Allies hold their fire at C2 (R 9.0)",
            "G1 moves C2 \u{2192} B2: 1 MP, 2 left (R 5.0)",
            "G1 ends its move in B2; Used (R 4.2)",
            "G2 marked Used (R 4.2); Ops Range 2/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 moves (R 5.0); Ops Range 1/3",
            "A1 Withdraws from the Melee in B2: Morale -3 for its MC, no automatic pass (R 5.1)",
            "A1 Declares Retreat: no +4 Morale, it starts in an enemy's hex; moves as a Routing unit (R 5.3)",
            "A1 MC: needs 7 or less, rolled 7 \u{2192} passed (R 5.1, R 7.1)",
            "A1 moves B2 \u{2192} A2: 1 MP, 4 left (R 5.0)",
            "A1 ends its move in A2; Used (R 4.2)",
        ]
    );
    assert_eq!(
        refused(
            &mut w,
            r#"move(unit: "A2", path: ["A3"], declared_retreat: true)"#
        ),
        "step 1: A3 is next to the enemy in B2: a Declared Retreat moves as a Routing unit (R 5.3, R 11.0)"
    );
}
