//! Rows of `docs/rules-audit.md` the engine broke, each proven by an
//! exact log with forced dice on a ground of `tests/data/`: WTs in a Swamp
//! or Surf (R 52.0, R 45.6), a mover on a Path (R 53.0), a firer in Wire
//! (R 43.6), control of a hex entered (R 18.0), the Cave's adjacency
//! (R 43.4), a Declared Retreat from an enemy's hex (R 5.3); where a Gun
//! may change facing (R 40.0, R 40.1, R 43.3, R 43.5), Cliffs (R 47.4),
//! routs in Wire, at Surf and seen from a Cave (R 43.6, R 45.6, R 43.4),
//! Ocean and Surf (R 45.5, R 45.6), a hedgerow next to the firer (R 44.0),
//! fire through a zero Hindrance (R 46.0) and Follow Me! in a Banzai Charge
//! (R 59.6).

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

/// The log up to the end of the Rout Phase.
fn through_rout_phase(log: &[String]) -> &[String] {
    let end = log
        .iter()
        .position(|l| l.starts_with("Rout Phase ends"))
        .map_or(log.len(), |i| i + 1);
    &log[..end]
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

/// J1 (in its Cave), M1 and M2 are marked Used; the log through the Rout
/// Phase.
fn cave_rout_phase(w: &mut bevy::prelude::World, mut log: Vec<String>) -> Vec<String> {
    for unit in ["J1", "M1", "M2"] {
        log.extend(play(w, &format!(r#"mark_used(unit: "{unit}")"#)));
    }
    through_rout_phase(&log).to_vec()
}

/// Of the Marines only M2, in a front hex of the Cave, takes a Rout MC.
const ONLY_M2_CHECKS: [&str; 12] = [
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
];

/// R 43.4: "The Cave is only adjacent to its two frontal hexes." J1 in
/// the Cave of D3 (front hexes D4 and C4): M2 in D4 takes a Rout MC as
/// adjacent to an enemy not in Melee; M1 in E4, which touches D3 but is
/// not in front of the Cave, takes none (both stand in Woods, out of the
/// Exposed case).
#[test]
fn r43_4_a_unit_beside_a_cave_but_not_in_front_is_not_adjacent_to_it() {
    let (mut w, log) = world_of("cave_adjacent_ground.ron", &[]);
    assert_eq!(cave_rout_phase(&mut w, log), ONLY_M2_CHECKS);
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

/// R 40.0: "A Gun in a building may not change its facing, unless that
/// building hex is Fortified." R 43.5: "An Unused Gun may be Used to
/// change facing." R 40.1: "A Vehicle or Gun may change its facing in a
/// Hut hex." R 43.3: "Guns in a Pillbox … can only change facing by being
/// 'Used' (without firing) to do so." and "Units can fire in any
/// direction." A1 (Fortified) and A3 (Pillbox) may not turn to fire nor
/// as marked Op Fire, but are Used to turn; A4 in a wooden building may
/// not turn at all; A2 in Huts turns to fire; the Squad A5 in a Pillbox
/// fires behind itself with no turn and no −1.
#[test]
fn r40_0_r40_1_r43_3_r43_5_where_a_gun_may_change_facing() {
    let (mut w, mut log) = world_of("gun_facing_ground.ron", &[10, 1, 1]);
    assert_eq!(
        refused(&mut w, r#"fire(unit: "A1", target: "E1")"#),
        "A1: a Gun in a Fortified building changes facing only by being Used, without firing (R 40.0, R 43.5)"
    );
    assert_eq!(
        refused(&mut w, r#"turn(unit: "A4", facing: e)"#),
        "A4: a Gun in a building may not turn within its hex (R 20.2)"
    );
    assert_eq!(
        refused(&mut w, r#"fire(unit: "A3", target: "E1")"#),
        "A3: a Gun in a Pillbox changes facing only by being Used, without firing (R 43.3)"
    );
    assert_eq!(
        refused(&mut w, r#"mark_op_fire(unit: "A3", facing: Some(e))"#),
        "A3: a Gun in a Pillbox changes facing only by being Used, without firing (R 43.3)"
    );
    assert_eq!(
        refused(&mut w, r#"turn(unit: "A5", facing: e)"#),
        "A5: only a Gun is Used to change its facing (R 43.3, R 43.5)"
    );
    log.extend(play(&mut w, r#"turn(unit: "A1", facing: e)"#));
    log.extend(play(&mut w, r#"turn(unit: "A3", facing: e)"#));
    log.extend(play(&mut w, r#"fire(unit: "A5", target: "E6")"#));
    log.extend(play(&mut w, r#"fire(unit: "A2", target: "E1")"#));
    assert_eq!(
        log,
        [
            "Allies Ops Range 1\u{2013}12 (R 4.1)",
            "A1 is Used to change facing to E, without firing (R 43.3, R 43.5); Ops Range 3/12",
            "A3 is Used to change facing to E, without firing (R 43.3, R 43.5); Ops Range 6/12",
            "A5 fires at E6 (R 6.0); Ops Range 7/12",
            "A5 rolls 10 against E6 (R 6.2)",
            "G2: +6 Normal FP (R 2.1); +3 Adjacent (PAC \u{a7}2b) = 9 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "A2 fires at E1 (R 6.0); Ops Range 10/12",
            "A2 turns within its hex to face Ne to fire (R 20.4)",
            "A2 Prof Check: +8 Prof Rating (R 20.4); \u{2212}1 turned within its hex to fire (R 20.4) = 7; roll 1 \u{2192} passes (R 20.4)",
            "A2 rolls 1 against E1 (R 6.2)",
            "G1: +4 Gun FP at Infantry/Guns (R 20.5) = 4 FP; roll 1 \u{2192} Suppressed (R 6.2)",
            "Allies pass after 10: no further Use fits (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 47.4: "No unit can cross a Cliff hex side." "…Guns may not fire
/// across a Cliff hexside to an adjacent hex (either up or down)." "Units
/// on either side of a Cliff hexside are not adjacent." A2 may not climb
/// the Cliff into D4, nor the Gun A3 fire across it at D2; A1 fires across
/// it at G1 with no +3 Adjacent; in the Rout Phase only A2 and G2, where
/// no Cliff runs, are adjacent to an enemy; A1, G1 and G3 take no MC.
#[test]
fn r47_4_no_unit_crosses_a_cliff_and_units_across_it_are_not_adjacent() {
    let (mut w, mut log) = world_of("cliff_ground.ron", &[10]);
    assert_eq!(
        refused(&mut w, r#"move(unit: "A2", path: ["D4"])"#),
        "step 1 into D4: no unit crosses the Cliff hexside between C5 and D4 (R 47.4)"
    );
    assert_eq!(
        refused(&mut w, r#"fire(unit: "A3", target: "D2")"#),
        "a Gun may not fire across a Cliff hexside to an adjacent hex (R 47.4)"
    );
    log.extend(play(&mut w, r#"fire(unit: "A1", target: "D3")"#));
    for unit in ["A2", "A3", "G1", "G2", "G3"] {
        log.extend(play(&mut w, &format!(r#"mark_used(unit: "{unit}")"#)));
    }
    assert_eq!(
        through_rout_phase(&log),
        [
            "Allies Ops Range 1\u{2013}6 (R 4.1)",
            "A1 fires at D3 (R 6.0); Ops Range 1/6",
            "A1 rolls 10 against D3 (R 6.2)",
            "G1: +6 Normal FP (R 2.1); \u{2212}1 Woods (best of 2 terrain choices) (PAC \u{a7}2a) = 5 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "A2 marked Used (R 4.2); Ops Range 2/6",
            "A3 marked Used (R 4.2); Ops Range 5/6",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "G1 marked Used (R 4.2); Ops Range 1/3",
            "G2 marked Used (R 4.2); Ops Range 2/3",
            "G3 marked Used (R 4.2); Ops Range 3/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Allies Rout Phase: A2, A3 must check (R 11.0)",
            "A2 Rout MC (adjacent to an enemy not in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "A3 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Axis Rout Phase: G2, G3 must check (R 11.0)",
            "G2 Rout MC (adjacent to an enemy not in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "G3 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
        ]
    );
}

/// Both sides mark their one unit Used; the log up to the end of the Rout
/// Phase, answering each Rout destination choice with its first hex.
fn rout_phase(file: &str, rolls: &[u8]) -> Vec<String> {
    let (mut w, mut log) = world_of(file, rolls);
    log.extend(play(&mut w, r#"mark_used(unit: "A1")"#));
    log.extend(play(&mut w, r#"mark_used(unit: "G1")"#));
    while let Some(bob::engine::decision::Pending(
        bob::engine::decision::Decision::RoutDestination { unit, choices, .. },
    )) = w.get_resource::<bob::engine::decision::Pending>().cloned()
    {
        log.extend(play(
            &mut w,
            &format!(r#"rout(unit: "{unit}", to: "{}")"#, choices[0]),
        ));
    }
    through_rout_phase(&log).to_vec()
}

/// R 43.6: "An Infantry unit must stop both when it enters and leaves a
/// wire hex (a unit can only move one hex when leaving)." G1 fails its
/// Rout MC and routs toward its Rout Edge: it stops in the Wire of D2.
#[test]
fn r43_6_a_rout_stops_in_wire() {
    assert_eq!(
        rout_phase("rout_wire_ground.ron", &[9])[9..],
        [
            "Axis Rout Phase: G1 must check (R 11.0)",
            "G1 Rout MC (adjacent to an enemy not in Melee): Morale 8 (R 11.0)",
            "G1 MC: needs 8 or less, rolled 9 \u{2192} failed (R 11.0, R 7.1)",
            "Axis to decide: G1's Rout destination, one of D1, D2 (R 11.0)",
            "G1 routs toward its Rout Edge: C2 -> D1 (R 11.0)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
        ]
    );
}

/// R 45.6: "Routing units that are moving toward their Rout edge will stop
/// when reaching a Surf hex." G1 fails its Rout MC and routs toward its
/// Rout Edge: it stops in the Surf of E2.
#[test]
fn r45_6_a_rout_toward_the_edge_stops_in_surf() {
    assert_eq!(
        rout_phase("rout_surf_ground.ron", &[9])[9..],
        [
            "Axis Rout Phase: G1 must check (R 11.0)",
            "G1 Rout MC (adjacent to an enemy not in Melee): Morale 8 (R 11.0)",
            "G1 MC: needs 8 or less, rolled 9 \u{2192} failed (R 11.0, R 7.1)",
            "Axis to decide: G1's Rout destination, one of E1, E2, E3 (R 11.0)",
            "G1 routs toward its Rout Edge: C2 -> D1 -> E1 (R 11.0)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
        ]
    );
}

/// R 45.5: "The only units that can voluntarily enter an Ocean hex are an
/// LC and its passengers." and "Units can't be Concealed in Ocean hexes."
/// R 45.6: "Units can't be Concealed in Surf hexes." A1 may not wade into
/// the Ocean of B1; it loses its Conceal counter entering the Surf of C2,
/// out of all enemy LOS; A2, Used in the Surf out of all enemy LOS, gains
/// none.
#[test]
fn r45_5_r45_6_no_entry_into_ocean_and_no_concealment_in_surf() {
    let (mut w, mut log) = world_of("surf_ocean_ground.ron", &[]);
    assert_eq!(
        refused(&mut w, r#"move(unit: "A1", path: ["B1"])"#),
        "step 1 into B1: B1 (Ocean) may be entered only by a Landing Craft and its passengers (R 45.5)"
    );
    log.extend(play_holding_fire(
        &mut w,
        r#"move(unit: "A1", path: ["C2"])"#,
    ));
    log.extend(play(&mut w, r#"mark_used(unit: "A2")"#));
    assert_eq!(
        log,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 moves (R 5.0); Ops Range 1/3",
            "A1 moves B2 \u{2192} C2: 2 MP, 3 left (R 5.0)",
            "A1 loses its Conceal counter: units can't be Concealed in Surf or Ocean hexes (R 45.5, R 45.6) (R 15.0)",
            "A1 ends its move in C2; Used (R 4.2)",
            "A2 marked Used (R 4.2); Ops Range 2/3",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 44.0: "Target units do NOT get the benefit of the hedgerow when they
/// move into or out of a hex on the opposite side of a hedgerow hexside
/// from an adjacent firing unit. They may also be considered moving in
/// Open Ground in that case." A1 enters C2 across the hedgerow from G1:
/// G1, adjacent, gets the moving-in-Open +4 and A1 no −2; G2, two hexes
/// away, fires across the same hedgerow and A1 keeps its −2.
#[test]
fn r44_0_no_hedgerow_against_an_adjacent_firer() {
    let (mut w, mut log) = world_of("hedgerow_ground.ron", &[10, 10]);
    log.extend(play(&mut w, r#"move(unit: "A1", path: ["C2"])"#));
    log.extend(play(&mut w, r#"op_fire(firers: ["G1", "G2"])"#));
    assert_eq!(
        log[..10],
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 moves (R 5.0); Ops Range 1/3",
            "A1 moves B2 \u{2192} C2: 1 MP, 4 left (R 5.0)",
            "Op Fire window: A1 enters C2; Axis may fire with G1, G2 (R 9.0)",
            "G1 Op Fires at A1 in C2 and is Used (R 9.0, R 4.3)",
            "G1 rolls 10 against C2 (R 6.2)",
            "A1: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); +3 Adjacent (PAC \u{a7}2b); +4 Target moving in Open Ground, range 1 (R 41.0) = 11 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "G2 Op Fires at A1 in C2 and is Used (R 9.0, R 4.3)",
            "G2 rolls 10 against C2 (R 6.2)",
            "A1: +3 Prof FP: Op Fire (R 9.0); \u{2212}2 Hedgerow hexside (fire crosses it, target adjacent to it) (R 44.0); +0 moving in Open Ground: no bonus with a Beneficial Terrain modifier (R 41.0) = 1 FP; roll 10 \u{2192} No Effect (R 6.2)",
        ]
    );
}

/// R 43.4: "Units can only enter or exit a Cave, fire into or out of, and
/// LOS can only be traced to the Cave, through either of its front adjacent
/// hexes." M1, in the open at F4, is in the LOS of the hex D3 but not of
/// J1 in its Cave, so it takes no Rout MC for being seen (R 11.0); M2, in
/// a front hex, is adjacent to J1 and checks.
#[test]
fn r43_4_rout_los_from_an_enemy_in_a_cave_is_traced_through_its_front() {
    use bob::rules::los::{LosQuery, is_blocked};
    let (mut w, log) = world_of("cave_rout_ground.ron", &[]);
    {
        let board = &w.resource::<bob::world::BoardRes>().0;
        let aid = &w.resource::<bob::world::AidRes>().0;
        let (d3, f4) = (
            Coord::parse("D3", 8, 8).unwrap(),
            Coord::parse("F4", 8, 8).unwrap(),
        );
        assert!(!is_blocked(board, aid, &LosQuery::new(d3, f4)));
        let from_cave = LosQuery {
            from_in_cave: true,
            ..LosQuery::new(d3, f4)
        };
        assert!(is_blocked(board, aid, &from_cave));
    }
    assert_eq!(cave_rout_phase(&mut w, log), ONLY_M2_CHECKS);
}

/// R 59.6: "CPs may not be used to increase their MP." J1 charges (no GD
/// Squad fires, none is marked Op Fire): the Japanese may not spend their
/// CP on Follow Me! for it.
#[test]
fn r59_6_no_follow_me_for_a_charging_squad() {
    let (mut w, mut log) = world_of("banzai_cp_ground.ron", &[]);
    log.extend(play(&mut w, "banzai_gd(units: [])"));
    log.extend(play(&mut w, "banzai_op_fire(units: [])"));
    assert_eq!(
        refused(&mut w, r#"cp(unit: "J1", function: follow_me)"#),
        "no such CP for J1: CPs may not be used to increase a charging Squad's MP (R 59.6)"
    );
}

/// R 46.0: "Even if the Hindrance is zero, a unit … fired at through
/// Hindering Terrain by Direct Fire is never considered moving in Open
/// Ground." G1, on its hill, Op Fires at A1 entering the open C6 across the
/// Wheat of C3: no Hindrance, and no moving-in-Open bonus either.
#[test]
fn r46_0_fire_through_a_zero_hindrance_is_never_at_a_unit_moving_in_open_ground() {
    let (mut w, mut log) = world_of("hindered_hill_ground.ron", &[10]);
    log.extend(play(&mut w, r#"move(unit: "A1", path: ["C6"])"#));
    log.extend(play(&mut w, r#"op_fire(firers: ["G1"])"#));
    assert_eq!(
        log[..7],
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 moves (R 5.0); Ops Range 1/3",
            "A1 moves C7 \u{2192} C6: 1 MP, 4 left (R 5.0)",
            "Op Fire window: A1 enters C6; Axis may fire with G1 (R 9.0)",
            "G1 Op Fires at A1 in C6 and is Used (R 9.0, R 4.3)",
            "G1 rolls 10 against C6 (R 6.2)",
            "A1: +3 Prof FP: Op Fire (R 9.0); +1 Target at lower elevation (R 47.3); +0 moving in Open Ground: no bonus with Hindering Terrain (R 46.0) = 4 FP; roll 10 \u{2192} No Effect (R 6.2)",
        ]
    );
}
