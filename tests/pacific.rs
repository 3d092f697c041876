//! The Pacific rules in the engine (issue 8), through `bob script` files in
//! `tests/scripts/` on the grounds in `tests/data/`, with forced dice: every
//! log line of R 51.2's two ambush examples and R 43.0's Fire Lane and
//! Bunker examples.

mod common;

use bob::engine::script;
use bob::scenario;
use common::{order, play, refused, world_of};

/// Runs `tests/scripts/NAME.ron` in process; it must run to its end.
fn run(name: &str) -> Vec<String> {
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let file = format!("tests/scripts/{name}.ron");
    let bytes = std::fs::read(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let s = script::parse(&file, &bytes).unwrap();
    // Cargo runs integration tests from the package root, where the
    // scripts' scenario paths start.
    let r = script::run(&s, &roster, &aid).unwrap();
    assert_eq!(r.stopped, None, "{name}: {:#?}", r.lines);
    r.lines
}

/// R 51.1 / R 51.2 first example: M1 loses its Conceal counter next to the
/// Concealed J1, which keeps its own; the Assault Fire is 3 FP and misses;
/// M2 walks into J1's hex: J1's counter comes off and it takes an Ambush
/// counter, and its owner is asked its facing (R 2.2: it keeps W); in the
/// Melee J1 strikes first at 3 + 2 = 5, eliminating M2
/// before it can strike back.
#[test]
fn r51_2_first_example_the_ambush_eliminates_before_the_marines_strike() {
    assert_eq!(
        run("jungle_ambush"),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 moves (R 5.0); Ops Range 1/3",
            "M1 moves A2 \u{2192} B2: 3 MP, 2 left (R 5.0)",
            "M1 loses its Conceal counter: adjacent to an enemy unit (R 15.0)",
            "Op Fire window: M1 enters B2; Axis may fire with J1 (R 9.0)",
            "Axis hold their fire at B2 (R 9.0)",
            "M1 Assault Fires at C2; its move is over (R 5.2)",
            "M1 rolls 7 against C2 (R 6.2)",
            "J1: +3 Prof FP: Assault Fire (R 5.2); \u{2212}2 Jungle (PAC \u{a7}2a); +3 Adjacent (PAC \u{a7}2b); \u{2212}1 Target Concealed (R 15.0) = 3 FP; roll 7 \u{2192} No Effect (R 6.2)",
            "M1 ends its move in B2; Used (R 4.2)",
            "M2 moves (R 5.0); Ops Range 2/3",
            "Op Fire window: M2 leaves B1 for the Melee in C2; Axis may fire at B1 with J1 (R 9.0)",
            "Axis hold their fire at B1 (R 9.0)",
            "M2 moves B1 \u{2192} C2: 3 MP, 2 left (R 5.0)",
            "J1 loses its Conceal counter: an enemy unit entered its Jungle hex (R 15.0)",
            "J1 takes an Ambush counter in C2: in the Melee it strikes first at +2 (R 51.1, R 51.2)",
            "M2 loses its Conceal counter: it entered an enemy unit's hex (R 15.0)",
            "Axis to decide: J1's facing: it lost its Conceal counter (an enemy unit entered its Jungle hex) and chooses its facing (R 2.2)",
            "J1 takes facing W as it loses Concealment (R 2.2)",
            "M2 ends its move in C2; Used (R 4.2)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 marked Used (R 4.2); Ops Range 1/3",
            "J2 marked Used (R 4.2); Ops Range 2/3",
            "J2 takes a Conceal counter: Used out of all enemy LOS (R 15.0)",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Allies Rout Phase: M2 must check (R 11.0)",
            "M2 Rout MC (in Melee): Morale 12, No Quarter (R 11.2) passes with no roll (R 11.0, R 7.1)",
            "Axis Rout Phase: J1 must check (R 11.0)",
            "J1 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in C2: M2 against J1 (R 12.0)",
            "J1 Melee FP 5: rolls 2, 4 -> 2 casualties (R 12.0, R 51.2)",
            "M2 is eliminated in Melee (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Scenario over: Axis win. otherwise Axis win. Losses: Allies 1 eliminated, 0 Reduced; Axis 0 eliminated, 0 Reduced (R 18.0)",
        ]
    );
}

/// R 51.2 first example, last case: with an unconcealed J2 in the hex, the
/// Ambush only Reduces M2; then J2 and the Reduced M2 strike together, and
/// their casualties land at once.
#[test]
fn r51_2_first_example_an_unconcealed_squad_strikes_with_the_survivors() {
    let log = run("jungle_ambush_b");
    // The Operations Phase is the first test's, with J2 hit at 4 FP too.
    assert!(log.contains(&"J2: +3 Prof FP: Assault Fire (R 5.2); \u{2212}2 Jungle (PAC \u{a7}2a); +3 Adjacent (PAC \u{a7}2b) = 4 FP; roll 7 \u{2192} No Effect (R 6.2)".to_string()));
    let rout = log
        .iter()
        .position(|l| l.starts_with("Operations Phase ends"))
        .unwrap();
    assert_eq!(
        log[rout..],
        [
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Allies Rout Phase: M2 must check (R 11.0)",
            "M2 Rout MC (in Melee): Morale 12, No Quarter (R 11.2) passes with no roll (R 11.0, R 7.1)",
            "Axis Rout Phase: J1, J2 must check (R 11.0)",
            "J1 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "J2 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in C2: M2 against J1, J2 (R 12.0)",
            "J1 Melee FP 5: rolls 3, 9 -> 1 casualty (R 12.0, R 51.2)",
            "M2 is Reduced in Melee (R 12.0)",
            "M2 Melee FP 4: rolls 4, 8 -> 1 casualty (R 12.0)",
            "J2 Melee FP 3: rolls 6, 2 -> 1 casualty (R 12.0)",
            "Axis to decide: 1 Melee casualties in C2 among J1, J2 (R 12.0)",
            "M2 is eliminated in Melee (R 12.0)",
            "J2 is Reduced in Melee (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Scenario over: Axis win. otherwise Axis win. Losses: Allies 1 eliminated, 0 Reduced; Axis 0 eliminated, 1 Reduced (R 18.0)",
        ]
    );
}

/// R 51.2 Ambush and Flank example: J3 entering the Concealed M3's hex
/// from a flank hex gets no Flank counter; M3 takes an Ambush counter and
/// keeps the facing it set up with when asked (R 2.2); J4, entering after
/// M3 is revealed, gets one. M3 strikes first at 5 + 2;
/// then J3 (Reduced by the Ambush, Melee 2) and J4 (3 + 1) together.
#[test]
fn r51_2_ambush_and_flank_example() {
    assert_eq!(
        run("jungle_flank"),
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J3 moves (R 5.0); Ops Range 1/3",
            "Op Fire window: J3 leaves D2 for the Melee in C3; Allies may fire at D2 with M3 (R 9.0)",
            "Allies hold their fire at D2 (R 9.0)",
            "J3 moves D2 \u{2192} C3: 3 MP, 2 left (R 5.0)",
            "M3 loses its Conceal counter: an enemy unit entered its Jungle hex (R 15.0)",
            "M3 takes an Ambush counter in C3: in the Melee it strikes first at +2 (R 51.1, R 51.2)",
            "J3 loses its Conceal counter: it entered an enemy unit's hex (R 15.0)",
            "Allies to decide: M3's facing: it lost its Conceal counter (an enemy unit entered its Jungle hex) and chooses its facing (R 2.2)",
            "M3 takes facing W as it loses Concealment (R 2.2)",
            "J3 ends its move in C3; Used (R 4.2)",
            "J4 moves (R 5.0); Ops Range 2/3",
            "J4 moves D3 \u{2192} C3: 3 MP, 2 left (R 5.0)",
            "J4 enters the Melee in C3 through the enemy's flank: Flank counter, +1 Melee FP (R 12.2)",
            "J4 loses its Conceal counter: it entered an enemy unit's hex (R 15.0)",
            "J4 ends its move in C3; Used (R 4.2)",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M3 marked Used (R 4.2); Ops Range 1/3",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Axis Rout Phase: J3, J4 must check (R 11.0)",
            "J3 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "J4 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Allies Rout Phase: M3 must check (R 11.0)",
            "M3 Rout MC (in Melee): Morale 12, No Quarter (R 11.2) passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in C3: M3 against J3, J4 (R 12.0)",
            "M3 Melee FP 7: rolls 9, 5 -> 1 casualty (R 12.0, R 51.2)",
            "Axis to decide: 1 Melee casualties in C3 among J3, J4 (R 12.0)",
            "J3 is Reduced in Melee (R 12.0)",
            "J3 Melee FP 2: rolls 2, 7 -> 1 casualty (R 12.0)",
            "J4 Melee FP 4: rolls 4, 6 -> 1 casualty (R 12.0, R 12.2)",
            "M3 is eliminated in Melee (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Scenario over: Axis win. otherwise Axis win. Losses: Allies 1 eliminated, 0 Reduced; Axis 0 eliminated, 1 Reduced (R 18.0)",
        ]
    );
}

/// R 43.0 Fire Lane example: the MG WT in a Bunker Op Fires at 10 FP at a
/// Squad moving in an adjacent Jungle hex; the same MG without the Bunker
/// at 8 FP. Firing reveals the Bunker (its occupant lost Concealment).
#[test]
fn r43_0_fire_lane_example_10_fp_else_8() {
    assert_eq!(
        run("fire_lane"),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 moves (R 5.0); Ops Range 1/3",
            "M1 moves A3 \u{2192} B3: 3 MP, 2 left (R 5.0)",
            "Op Fire window: M1 enters B3; Axis may fire with J5, JM1, JM2 (R 9.0)",
            "JM1 Op Fires at M1 in B3 and is Used (R 9.0, R 4.3)",
            "JM1 takes facing W as it loses Concealment (R 2.2)",
            "JM1 loses its Conceal counter: it fired (R 15.0)",
            "JM1 rolls 10 against B3 (R 6.2)",
            "M1: +6 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); +0 Fire Lane: no Beneficial Terrain modifier for a moving target (R 43.0); +3 Adjacent (PAC \u{a7}2b) = 10 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Bunker in C3 revealed: a unit in it lost its Concealment (R 43.0)",
            "JM2 Op Fires at M1 in B3 and is Used (R 9.0, R 4.3)",
            "JM2 rolls 10 against B3 (R 6.2)",
            "M1: +6 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); \u{2212}2 Jungle (PAC \u{a7}2a); +3 Adjacent (PAC \u{a7}2b) = 8 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "M1 ends its move in B3; Used (R 4.2)",
        ]
    );
}

/// R 43.0 Bunker example: 3 FP with the Jungle would Suppress on a 3, so
/// the Bunker is revealed; with its -3 the attack is 2 FP, No Effect; J5
/// keeps its -2 Conceal counter, the Bunker stays revealed.
#[test]
fn r43_0_bunker_example_revealed_after_the_roll() {
    assert_eq!(
        run("bunker_reveal"),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "MG1 fires at C5 (R 6.0); Ops Range 1/3",
            "MG1 MC: needs 9 or less, rolled 3 \u{2192} passed (R 6.0, R 7.1)",
            "MG1 rolls 3 against C5 (R 6.2)",
            "J5: +7 Normal FP (R 2.1); \u{2212}3 Pillbox / Bunker (R 43.3); \u{2212}2 Target under a Japanese -2 Conceal counter (R 59.2) = 2 FP; roll 3 \u{2192} No Effect (R 6.2)",
            "Bunker in C5 revealed: its modifier changes the result (R 43.0)",
            "J5: the revealed Bunker modifier changes the result; J5 gets it (R 43.0)",
        ]
    );
}

/// R 43.4: the Cave of D3 (facing SW, front hexes D4 and C4) is entered
/// only from a front hex, by Japanese units, for 2 MP; fired into with LOS
/// traced only through its front hexes; from a front hex its modifier is
/// 0, from farther out -2.
#[test]
fn r43_4_a_cave_is_entered_and_fired_into_only_through_its_front_hexes() {
    let (mut w, mut log) = world_of("cave_ground.ron", &[9, 9, 9]);
    // J2 in E4 is next to the hill but not in front of the Cave.
    assert_eq!(
        refused(&mut w, r#"move(unit: "J2", path: ["D3/cave"])"#),
        "step 1 into D3/cave: the Cave of D3 is entered and left only through its two front hexes (R 43.4)"
    );
    log.extend(play(&mut w, r#"move(unit: "J1", path: ["D3/cave"])"#));
    log.extend(play(&mut w, "op_fire(firers: [])"));
    log.extend(play(&mut w, "pass"));
    // Marines may not enter, even from a front hex.
    assert_eq!(
        refused(&mut w, r#"move(unit: "M2", path: ["D3/cave"])"#),
        "step 1 into D3/cave: non-Japanese units can't enter Caves (R 43.4)"
    );
    // The hex above the Cave is empty.
    assert_eq!(
        refused(&mut w, r#"fire(unit: "M2", target: "D3")"#),
        "no enemy unit in D3"
    );
    // M3 in F3 is next to the hill but its LOS would reach the Cave only
    // across E3/E4; M2 fires from the front hex D4 (no Cave modifier); M1
    // from D6, through D4, gets the Cave's -2.
    for firer in ["M3", "M2", "M1"] {
        log.extend(play(
            &mut w,
            &format!(r#"fire(unit: "{firer}", target: "D3/cave")"#),
        ));
    }
    assert_eq!(
        log,
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 moves C4 \u{2192} D3/cave: 2 MP, 3 left (R 5.0)",
            "Op Fire window: J1 enters D3; Allies may fire with M1, M2, M3 (R 9.0)",
            "Allies hold their fire at D3 (R 9.0)",
            "J1 ends its move in D3/cave; Used (R 4.2)",
            "Axis pass after 1 (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M3 fires at D3/cave (R 6.0); Ops Range 1/3",
            "M3 has no LOS to D3/cave: blocked at D3 by the Cave: seen only through its two front hexes (R 43.4); Used (R 14.0)",
            "M2 fires at D3/cave (R 6.0); Ops Range 2/3",
            "M2 rolls 9 against D3/cave (R 6.2)",
            "J1: +4 Normal FP (R 2.1); +3 Adjacent (PAC \u{a7}2b) = 7 FP; roll 9 \u{2192} No Effect (R 6.2)",
            "M1 fires at D3/cave (R 6.0); Ops Range 3/3",
            "M1 rolls 9 against D3/cave (R 6.2)",
            "J1: +4 Normal FP (R 2.1); \u{2212}2 Cave (0 from its two front hexes; FP not below 1) (R 43.4) = 2 FP; roll 9 \u{2192} No Effect (R 6.2)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// Plays an order, then holds fire in every Op Fire window it opens.
fn play_holding_fire(w: &mut bevy::prelude::World, text: &str) -> Vec<String> {
    let mut lines = play(w, text);
    while w.contains_resource::<bob::engine::op_fire::OpFireWindow>() {
        lines.extend(play(w, "op_fire(firers: [])"));
    }
    lines
}

/// R 59.6: the charge announced on the SSR's turn (J3's Suppression
/// removed; J1 and J3 charge, the GD Squad J2 not); J1 may not be marked
/// Used, stop short, take a dearer path or Assault Fire; J3's step toward
/// the Rout Edge is judged by its charge path (R 59.6); either of two 7 MP
/// paths to M1 in H5 is the player's choice (5 + 4 MP); in the Melee J1
/// strikes at 3 + 2.
#[test]
fn r59_6_a_banzai_charge_takes_the_closest_enemy_by_a_cheapest_path() {
    use bevy::prelude::*;
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let loaded = bob::world::load("tests/data/banzai_ground.ron", &roster, &aid).unwrap();
    let mut w = bob::engine::headless_world(loaded, roster, aid, 1);
    w.resource_mut::<bob::engine::Dice>().force([4, 9, 7, 8]);
    let mut q = w.query::<(Entity, &bob::world::Unit)>();
    let j3 = q.iter(&w).find(|(_, u)| u.id == "J3").unwrap().0;
    w.entity_mut(j3).insert(bob::world::Suppression::Suppressed);
    let mut log: Vec<String> = bob::engine::game::begin_game(&mut w)
        .iter()
        .map(bob::engine::GameEvent::line)
        .collect();
    log.extend(play(&mut w, "banzai_gd(units: [])"));
    log.extend(play(&mut w, "banzai_op_fire(units: [])"));
    assert_eq!(
        refused(&mut w, r#"mark_used(unit: "J1")"#),
        "J1: it must Banzai Charge unless it is marked Op Fire (R 59.6)"
    );
    assert_eq!(
        refused(&mut w, r#"move(unit: "J1", path: ["B5", "C5"])"#),
        "J1: a Banzai Charge must enter the closest enemy hex: H5 (R 59.6)"
    );
    let dear = r#"move(unit: "J1", path: ["B5", "C5", "D5", "E5", "F5", "G5", "G6", "H5"])"#;
    assert_eq!(
        refused(&mut w, dear),
        "J1: a Banzai Charge takes the fewest MPs: 8 MP where 7 MP would do (R 59.6)"
    );
    assert_eq!(
        refused(
            &mut w,
            r#"move(unit: "J1", path: ["B5", "C5", "D5", "E5", "F5", "G5"], assault_fire: Some("H5"))"#
        ),
        "J1: a charging Squad may not Assault Fire (R 59.6)"
    );
    assert_eq!(
        refused(&mut w, r#"move(unit: "J3", path: ["A2"])"#),
        "J3: a Banzai Charge must enter the closest enemy hex: H5 (R 59.6)"
    );
    // Both cheapest paths are the player's choice.
    let other = order(r#"move(unit: "J1", path: ["B4", "C5", "D5", "E5", "F5", "G5", "H5"])"#);
    assert_eq!(bob::engine::banzai::check_order(&mut w, &other), Ok(()));
    log.extend(play_holding_fire(
        &mut w,
        r#"move(unit: "J1", path: ["B5", "C5", "D5", "E5", "F5", "G5", "H5"])"#,
    ));
    log.extend(play(&mut w, r#"mark_op_fire(unit: "J3")"#));
    log.extend(play(&mut w, r#"mark_used(unit: "J2")"#));
    log.extend(play(&mut w, r#"mark_used(unit: "M1")"#));
    log.extend(play(&mut w, r#"mark_used(unit: "M2")"#));
    assert_eq!(
        log,
        [
            "Turn 1: the Japanese announce a Banzai Charge; Suppression removed from J3; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: J1, J3 (R 59.6)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "Axis to decide: which GD Squads charge, any of J2 or none (R 59.6)",
            "GD Squads charging with the Banzai (+4 MP, +2 Morale, +2 Melee FP): none (R 59.6)",
            "Allies to decide: which units to mark Op Fire against the Banzai Charge, any of M1, M2 or none (R 59.6)",
            "Against the Banzai Charge the Allies mark Op Fire outside the Ops Range: none (R 59.6)",
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 moves A5 \u{2192} B5: 1 MP, 8 left (R 5.0)",
            "Op Fire window: J1 enters B5; Allies may fire with M1, M2 (R 9.0)",
            "Allies hold their fire at B5 (R 9.0)",
            "J1 moves B5 \u{2192} C5: 1 MP, 7 left (R 5.0)",
            "Op Fire window: J1 enters C5; Allies may fire with M1, M2 (R 9.0)",
            "Allies hold their fire at C5 (R 9.0)",
            "J1 moves C5 \u{2192} D5: 1 MP, 6 left (R 5.0)",
            "Op Fire window: J1 enters D5; Allies may fire with M1, M2 (R 9.0)",
            "Allies hold their fire at D5 (R 9.0)",
            "J1 moves D5 \u{2192} E5: 1 MP, 5 left (R 5.0)",
            "Op Fire window: J1 enters E5; Allies may fire with M1, M2 (R 9.0)",
            "Allies hold their fire at E5 (R 9.0)",
            "J1 moves E5 \u{2192} F5: 1 MP, 4 left (R 5.0)",
            "Op Fire window: J1 enters F5; Allies may fire with M1, M2 (R 9.0)",
            "Allies hold their fire at F5 (R 9.0)",
            "J1 moves F5 \u{2192} G5: 1 MP, 3 left (R 5.0)",
            "Op Fire window: J1 enters G5; Allies may fire with M1, M2 (R 9.0)",
            "Allies hold their fire at G5 (R 9.0)",
            "J1 moves G5 \u{2192} H5: 1 MP, 2 left (R 5.0)",
            "J1 ends its move in H5; Used (R 4.2)",
            "J3 marked Op Fire (R 4.3); Ops Range 2/3",
            "J2 marked Used (R 4.2); Ops Range 3/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 marked Used (R 4.2); Ops Range 1/3",
            "M2 marked Used (R 4.2); Ops Range 2/3",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Axis Rout Phase: J1 must check (R 11.0)",
            "J1 Rout MC (in Melee): Morale 12 passes with no roll (R 11.0, R 7.1)",
            "Allies Rout Phase: M1 must check (R 11.0)",
            "M1 Rout MC (in Melee): Morale 12, No Quarter (R 11.2) passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in H5: M1 against J1 (R 12.0)",
            "J1 Melee FP 5: rolls 4, 9 -> 1 casualty (R 12.0, R 59.6)",
            "M1 Melee FP 5: rolls 7, 8 -> 0 casualties (R 12.0)",
            "M1 is Reduced in Melee (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Turn 2 begins (R 13.0)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 59.6's announcement: the Japanese player chooses which GD Squads
/// charge (J2 here, which is then bound to the charge like a Squad), then
/// the Allied player may mark any of his units Op Fire before any action,
/// outside the Ops Range (M2 here). Answers naming other units are refused.
#[test]
fn r59_6_gd_squads_choose_to_charge_and_the_allies_mark_op_fire_at_the_announcement() {
    use bevy::prelude::*;
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let loaded = bob::world::load("tests/data/banzai_ground.ron", &roster, &aid).unwrap();
    let mut w = bob::engine::headless_world(loaded, roster, aid, 1);
    let mut log: Vec<String> = bob::engine::game::begin_game(&mut w)
        .iter()
        .map(bob::engine::GameEvent::line)
        .collect();
    assert_eq!(
        refused(&mut w, r#"banzai_gd(units: ["J1"])"#),
        "J1 is not one of J2 (R 59.6)"
    );
    assert_eq!(
        refused(&mut w, r#"mark_used(unit: "J3")"#),
        "the game waits for which GD Squads charge, any of J2 or none (R 59.6)"
    );
    log.extend(play(&mut w, r#"banzai_gd(units: ["J2"])"#));
    assert_eq!(
        refused(&mut w, r#"banzai_op_fire(units: ["M2", "M2"])"#),
        "M2 is not one of M1, M2 (R 59.6)"
    );
    log.extend(play(&mut w, r#"banzai_op_fire(units: ["M2"])"#));
    assert_eq!(
        refused(&mut w, r#"mark_used(unit: "J2")"#),
        "J2: it must Banzai Charge unless it is marked Op Fire (R 59.6)"
    );
    assert_eq!(
        log,
        [
            "Turn 1: the Japanese announce a Banzai Charge; Suppression removed from none; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: J1, J3 (R 59.6)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "Axis to decide: which GD Squads charge, any of J2 or none (R 59.6)",
            "GD Squads charging with the Banzai (+4 MP, +2 Morale, +2 Melee FP): J2 (R 59.6)",
            "Allies to decide: which units to mark Op Fire against the Banzai Charge, any of M1, M2 or none (R 59.6)",
            "Against the Banzai Charge the Allies mark Op Fire outside the Ops Range: M2 (R 59.6)",
        ]
    );
    let mut q = w.query::<(&bob::world::Unit, &bob::world::Marks)>();
    let marked: Vec<String> = q
        .iter(&w)
        .filter(|(_, m)| m.op_fire)
        .map(|(u, _)| u.id.to_string())
        .collect();
    assert_eq!(marked, ["M2"]);
}

/// R 59.6: "the closest hex ... which is either an enemy controlled Victory
/// Marker or a hex that contains an enemy unit". With C5, two hexes from
/// J1, an Allied-held Victory Marker, J1 must charge C5 rather than M1 in
/// H5.
#[test]
fn r59_6_an_enemy_victory_marker_is_a_charge_target() {
    use bevy::prelude::*;
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let mut loaded = bob::world::load("tests/data/banzai_ground.ron", &roster, &aid).unwrap();
    std::sync::Arc::make_mut(&mut loaded.scenario).victory.push(
        bob::scenario::schema::VictoryCondition::ControlHexes {
            side: bob::scenario::schema::SideId::Allies,
            hexes: vec!["C5".into()],
            at_least: None,
        },
    );
    let mut w = bob::engine::headless_world(loaded, roster, aid, 1);
    bob::engine::game::begin_game(&mut w);
    play(&mut w, "banzai_gd(units: [])");
    play(&mut w, "banzai_op_fire(units: [])");
    let c5 = bob::scenario::Coord::parse("C5", 10, 10).unwrap();
    w.resource_mut::<bob::engine::phases::end::Control>()
        .0
        .occupy(c5, bob::scenario::schema::SideId::Allies);
    assert_eq!(
        refused(
            &mut w,
            r#"move(unit: "J1", path: ["B5", "C5", "D5", "E5", "F5", "G5", "H5"])"#
        ),
        "J1: a Banzai Charge must enter the closest enemy hex: C5 (R 59.6)"
    );
    let to_marker = order(r#"move(unit: "J1", path: ["B5", "C5"])"#);
    assert_eq!(bob::engine::banzai::check_order(&mut w, &to_marker), Ok(()));
}

/// R 59.5 Seishin with forced dice: the GD Squad has no "S"; J1 cannot reach
/// M1 six hexes off on its 5 MP, and may not declare Seishin for a move
/// that does not end in an enemy hex; declared (after its MC to move, on
/// yellow Morale 6, no bonus), it moves with 6 MP; Fully Suppressed by Op
/// Fire at F5 it checks on red Morale 2 + 1 = 3 and goes on with a 3 (R 59.5:
/// +1 in the Operations Phase); in the Rout Phase no bonus (Morale 10, the
/// exception is Seishin's first benefit); in the Melee it strikes at 3 + 2.
#[test]
fn r59_5_seishin_gives_one_mp_one_morale_and_two_melee_fp() {
    use bevy::prelude::*;
    let (mut w, _) = world_of("seishin_ground.ron", &[]);
    let mut q = w.query::<(Entity, &bob::world::Unit)>();
    let j1 = q.iter(&w).find(|(_, u)| u.id == "J1").unwrap().0;
    w.entity_mut(j1).insert(bob::world::Suppression::Suppressed);
    assert_eq!(
        refused(&mut w, r#"move(unit: "J2", path: ["B8"], seishin: true)"#),
        "J2: only a Japanese Squad marked \"S\" has Seishin (R 59.5)"
    );
    let to_m1 = r#"["B5", "C5", "D5", "E5", "F5", "G5"]"#;
    assert_eq!(
        refused(&mut w, &format!(r#"move(unit: "J1", path: {to_m1})"#)),
        "step 6 into G5: needs 1 MP, 0 MP left (R 5.0)"
    );
    assert_eq!(
        refused(
            &mut w,
            r#"move(unit: "J1", path: ["B5", "C5", "D5", "E5", "F5"], seishin: true)"#
        ),
        "J1: a Seishin move must end entering a hex that holds an enemy unit at the start of movement (R 59.5)"
    );
    w.resource_mut::<bob::engine::Dice>()
        .force([6, 8, 3, 1, 4, 4, 9, 9]);
    let mut log = Vec::new();
    log.extend(play(
        &mut w,
        &format!(r#"move(unit: "J1", path: {to_m1}, seishin: true)"#),
    ));
    log.extend(answer_windows(&mut w, "F5", "M1"));
    log.extend(play(&mut w, r#"mark_used(unit: "J2")"#));
    assert_eq!(
        log,
        [
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 MC: needs 6 or less, rolled 6 \u{2192} passed (R 5.0, R 7.1)",
            "J1 declares Seishin: +1 MP, +1 Morale this Operations Phase, +2 Melee FP this turn (R 59.5)",
            "J1 moves A5 \u{2192} B5: 1 MP, 5 left (R 5.0)",
            "Op Fire window: J1 enters B5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at B5 (R 9.0)",
            "J1 moves B5 \u{2192} C5: 1 MP, 4 left (R 5.0)",
            "Op Fire window: J1 enters C5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at C5 (R 9.0)",
            "J1 moves C5 \u{2192} D5: 1 MP, 3 left (R 5.0)",
            "Op Fire window: J1 enters D5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at D5 (R 9.0)",
            "J1 moves D5 \u{2192} E5: 1 MP, 2 left (R 5.0)",
            "Op Fire window: J1 enters E5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at E5 (R 9.0)",
            "J1 moves E5 \u{2192} F5: 1 MP, 1 left (R 5.0)",
            "Op Fire window: J1 enters F5; Allies may fire with M1 (R 9.0)",
            "M1 Op Fires at J1 in F5 and is Used (R 9.0, R 4.3)",
            "M1 rolls 8 against F5 (R 6.2)",
            "J1: +3 Prof FP: Op Fire (R 9.0); +1 Prof FP raise: Op Fire at an adjacent unit (R 9.0); +3 Adjacent (PAC \u{a7}2b); +4 Target moving in Open Ground, range 1 (R 41.0) = 11 FP; roll 8 \u{2192} Suppressed (R 6.2)",
            "J1 MC: needs 3 or less, rolled 3 \u{2192} passed (R 9.0, R 7.1)",
            "J1 moves F5 \u{2192} G5: 1 MP, 0 left (R 5.0)",
            "J1 ends its move in G5; Used (R 4.2)",
            "J2 marked Used (R 4.2); Ops Range 2/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Axis Rout Phase: J1 must check (R 11.0)",
            "J1 Rout MC (in Melee): Morale 2 (R 11.0)",
            "J1 MC: needs 2 or less, rolled 1 \u{2192} passed (R 11.0, R 7.1)",
            "Allies Rout Phase: M1 must check (R 11.0)",
            "M1 Rout MC (in Melee): Morale 12, No Quarter (R 11.2) passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in G5: M1 against J1 (R 12.0)",
            "J1 Melee FP 5: rolls 4, 4 -> 2 casualties (R 12.0, R 59.5)",
            "M1 Melee FP 5: rolls 9, 9 -> 0 casualties (R 12.0)",
            "M1 is eliminated in Melee (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "J1 recovers one step of Suppression: Suppressed (R 13.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Scenario over: Axis win. otherwise Axis win. Losses: Allies 1 eliminated, 0 Reduced; Axis 0 eliminated, 0 Reduced (R 18.0)",
        ]
    );
}

/// R 55.2 Monsoon with forced dice: in the rain J1 may move only two hexes
/// and M1 may not fire four hexes; M1 Op Fires at J1 moving in the open two
/// hexes off at +1 (not +4); the first player's Storm Check in the
/// Recovery Phase rolls a 2, in the 1-3 range: the rain stops and no more
/// checks are made; on turn 2 three hexes are a legal move.
#[test]
fn r55_2_monsoon_rain_limits_fire_and_movement_until_the_storm_check() {
    let (mut w, mut log) = world_of("monsoon_ground.ron", &[]);
    assert!(bob::engine::monsoon::raining(&w));
    assert_eq!(
        refused(&mut w, r#"move(unit: "J1", path: ["B5", "C5", "D5"])"#),
        "step 3 into D5: in the Monsoon rain Infantry moves at most 2 hexes a turn (R 55.2)"
    );
    w.resource_mut::<bob::engine::Dice>().force([10, 2]);
    log.extend(play(&mut w, r#"move(unit: "J1", path: ["B5", "C5"])"#));
    log.extend(answer_windows(&mut w, "C5", "M1"));
    assert_eq!(
        log,
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 moves A5 \u{2192} B5: 1 MP, 4 left (R 5.0)",
            "Op Fire window: J1 enters B5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at B5 (R 9.0)",
            "J1 moves B5 \u{2192} C5: 1 MP, 3 left (R 5.0)",
            "Op Fire window: J1 enters C5; Allies may fire with M1 (R 9.0)",
            "M1 Op Fires at J1 in C5 and is Used (R 9.0, R 4.3)",
            "M1 rolls 10 against C5 (R 6.2)",
            "J1: +3 Prof FP: Op Fire (R 9.0); +1 Target moving in Open Ground at Night or in Monsoon rain, range 2 (R 55.2) = 4 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "J1 ends its move in C5; Used (R 4.2)",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Axis Rout Phase: no unit must check (R 11.0)",
            "Allies Rout Phase: M1 must check (R 11.0)",
            "M1 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "No Melee this turn (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Axis Monsoon Storm Check: roll 2 (changes on 1-3): the rain stops; no more checks (R 55.2)",
            "Turn 2 begins (R 13.0)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
    let now = bob::engine::monsoon::state(&w).unwrap();
    assert!(!now.raining && now.settled);
    let three = order(r#"move(unit: "J1", path: ["C6", "D6", "E6"])"#);
    assert_eq!(bob::engine::operations::check(&mut w, &three), Ok(()));
}

/// Answers every Op Fire window of the move under way: `firer` fires at
/// `at`, every other window holds its fire.
fn answer_windows(w: &mut bevy::prelude::World, at: &str, firer: &str) -> Vec<String> {
    let mut lines = Vec::new();
    while let Some(here) = w
        .get_resource::<bob::engine::op_fire::OpFireWindow>()
        .map(|win| win.at.label())
    {
        let fire = if here == at {
            format!(r#"op_fire(firers: ["{firer}"])"#)
        } else {
            "op_fire(firers: [])".to_string()
        };
        lines.extend(play(w, &fire));
    }
    lines
}

/// R 2.2: "A moving or Routing unit may adopt any facing at the end of its
/// move." M1 starts facing E, toward J1; it moves to C3 and faces W there,
/// so J1's fire from F3 comes into its flank: +1 (R 6.2). Where facing is
/// not in use, a move's facing is refused.
#[test]
fn r2_2_a_unit_adopts_a_facing_at_the_end_of_its_move() {
    let (lines, stopped) = common::script_lines("end_facing");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 moves (R 5.0); Ops Range 1/3",
            "M1 moves B3 \u{2192} C3: 1 MP, 4 left (R 5.0)",
            "Op Fire window: M1 enters C3; Axis may fire with J1, J2 (R 9.0)",
            "Axis hold their fire at C3 (R 9.0)",
            "M1 ends its move in C3; Used (R 4.2)",
            "M1 faces W at the end of its move (R 2.2)",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 fires at C3 (R 6.0); Ops Range 1/3",
            "J1 rolls 9 against C3 (R 6.2)",
            "M1: +5 Normal FP (R 2.1); +1 Fire into a flank hex of the target's facing (or Melee entered through it) (R 6.2) = 6 FP; roll 9 \u{2192} No Effect (R 6.2)",
        ]
    );
    let (mut w, _) = world_of("ops_ground.ron", &[]);
    assert_eq!(
        refused(&mut w, r#"move(unit: "A1", path: ["C4"], facing: Some(w))"#),
        "A1: this scenario does not use Infantry facing (R 2.2)"
    );
}

/// The side to act is the one that must answer now: the Op Fire window
/// opened by the Marines' move is the Japanese player's (R 9.0) while the
/// Ops Range is still the Marines' (R 4.1); the top bar and the bot read
/// the same function.
#[test]
fn the_side_to_act_answers_the_op_fire_window() {
    use bob::scenario::schema::SideId;
    let (mut w, _) = world_of("fireteams.ron", &[]);
    assert_eq!(bob::bot::acting_side(&w), Some(SideId::Allies));
    play(&mut w, r#"move(unit: "M1", path: ["C3"])"#);
    let ops = w.resource::<bob::engine::operations::OpsState>().acting;
    assert_eq!(ops, SideId::Allies);
    assert_eq!(bob::bot::acting_side(&w), Some(SideId::Axis));
    play(&mut w, "op_fire(firers: [])");
    assert_eq!(bob::bot::acting_side(&w), Some(SideId::Allies));
}

/// The facing a unit has (R 2.2).
fn facing_of(w: &mut bevy::prelude::World, id: &str) -> Option<bob::scenario::schema::Spine> {
    let e = common::entity(w, id);
    w.get::<bob::world::Facing>(e).map(|f| f.0)
}

/// R 2.2 "A Concealed Infantry unit chooses its facing when it loses its
/// Concealment": M1 moves next to the Concealed J1 (R 15.0). Once the hex
/// entry is over (its Op Fire window answered), J1's counter comes off and
/// the Japanese are asked its facing before the move goes on; another unit
/// or any other order is refused; the answer turns J1 to E, and M1's
/// Assault Fire from D3, resolved only then, comes into J1's flank: +1.
#[test]
fn r2_2_a_unit_revealed_by_an_enemy_moving_adjacent_chooses_its_facing() {
    let (mut w, _) = world_of("reveal_facing.ron", &[9]);
    play(
        &mut w,
        r#"move(unit: "M1", path: ["C3", "D3"], assault_fire: Some("E3"))"#,
    );
    play(&mut w, "op_fire(firers: [])");
    assert_eq!(
        play(&mut w, "op_fire(firers: [])"),
        [
            "Axis hold their fire at D3 (R 9.0)",
            "J1 loses its Conceal counter: an enemy unit moved adjacent (R 15.0)",
            "Axis to decide: J1's facing: it lost its Conceal counter (an enemy unit moved adjacent) and chooses its facing (R 2.2)",
        ]
    );
    assert_eq!(
        bob::bot::acting_side(&w),
        Some(bob::scenario::schema::SideId::Axis)
    );
    assert_eq!(
        refused(&mut w, r#"face(unit: "J2", facing: Some(e))"#),
        "J2 is not the unit to face: J1 chooses its facing now (R 2.2)"
    );
    assert_eq!(
        refused(&mut w, "pass"),
        "the game waits for J1's facing: it lost its Conceal counter (an enemy unit moved adjacent) and chooses its facing (R 2.2)"
    );
    assert_eq!(
        bob::engine::operations::check(&mut w, &order(r#"face(unit: "J1")"#)),
        Ok(())
    );
    assert_eq!(
        facing_of(&mut w, "J1"),
        Some(bob::scenario::schema::Spine::W)
    );
    assert_eq!(
        play(&mut w, r#"face(unit: "J1", facing: Some(e))"#),
        [
            "J1 takes facing E as it loses Concealment (R 2.2)",
            "M1 Assault Fires at E3; its move is over (R 5.2)",
            "M1 rolls 9 against E3 (R 6.2)",
            "J1: +5 Prof FP: Assault Fire (R 5.2); \u{2212}1 Palm Trees (PAC \u{a7}2a); +3 Adjacent (PAC \u{a7}2b); +1 Fire into a flank hex of the target's facing (or Melee entered through it) (R 6.2) = 8 FP; roll 9 \u{2192} No Effect (R 6.2)",
            "M1 ends its move in D3; Used (R 4.2)",
        ]
    );
    assert_eq!(
        facing_of(&mut w, "J1"),
        Some(bob::scenario::schema::Spine::E)
    );
    assert_eq!(
        refused(&mut w, r#"face(unit: "J1")"#),
        "no decision is pending"
    );
}

/// R 2.2 with R 15.0 "A Suppressed unit loses its Conceal counter": M2's
/// fire Suppresses the Concealed J2 (4 FP, roll 3); J2 is asked its facing
/// after the attack, before the Ops Range settles; `face` without a facing
/// keeps the one it had (W), logged as taken.
#[test]
fn r2_2_a_unit_suppressed_by_fire_chooses_its_facing() {
    let (mut w, _) = world_of("reveal_facing.ron", &[3]);
    assert_eq!(
        play(&mut w, r#"fire(unit: "M2", target: "E5")"#),
        [
            "M2 fires at E5 (R 6.0); Ops Range 1/3",
            "M2 rolls 3 against E5 (R 6.2)",
            "J2: +6 Normal FP (R 2.1); \u{2212}1 Palm Trees (PAC \u{a7}2a); \u{2212}1 Target Concealed (R 15.0) = 4 FP; roll 3 \u{2192} Suppressed (R 6.2)",
            "J2 loses its Conceal counter: it was Suppressed (R 15.0)",
            "Axis to decide: J2's facing: it lost its Conceal counter (it was Suppressed) and chooses its facing (R 2.2)",
        ]
    );
    assert_eq!(
        refused(&mut w, r#"fire(unit: "M1", target: "E5")"#),
        "the game waits for J2's facing: it lost its Conceal counter (it was Suppressed) and chooses its facing (R 2.2)"
    );
    assert_eq!(
        refused(&mut w, r#"face(unit: "J1", facing: Some(sw))"#),
        "J1 is not the unit to face: J2 chooses its facing now (R 2.2)"
    );
    assert_eq!(
        play(&mut w, r#"face(unit: "J2")"#),
        ["J2 takes facing W as it loses Concealment (R 2.2)"]
    );
    assert_eq!(
        facing_of(&mut w, "J2"),
        Some(bob::scenario::schema::Spine::W)
    );
    // The Allies go on with their Ops Range.
    play(&mut w, r#"mark_used(unit: "M1")"#);
}

/// The script `tests/scripts/reveal_facing.ron` (docs/scripts.md): both
/// questions answered with `face`, every line of the log; a `face` with a
/// facing that is not a hexspine is refused at parse time with the file,
/// line, column and field; a `face` naming another unit stops the run with
/// its reason.
#[test]
fn r2_2_the_revealed_facing_script() {
    assert_eq!(
        run("reveal_facing"),
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
            "M1 Assault Fires at E3; its move is over (R 5.2)",
            "M1 rolls 9 against E3 (R 6.2)",
            "J1: +5 Prof FP: Assault Fire (R 5.2); \u{2212}1 Palm Trees (PAC \u{a7}2a); +3 Adjacent (PAC \u{a7}2b); +1 Fire into a flank hex of the target's facing (or Melee entered through it) (R 6.2) = 8 FP; roll 9 \u{2192} No Effect (R 6.2)",
            "M1 ends its move in D3; Used (R 4.2)",
            "M2 fires at E5 (R 6.0); Ops Range 2/3",
            "M2 rolls 3 against E5 (R 6.2)",
            "J2: +6 Normal FP (R 2.1); \u{2212}1 Palm Trees (PAC \u{a7}2a); \u{2212}1 Target Concealed (R 15.0) = 4 FP; roll 3 \u{2192} Suppressed (R 6.2)",
            "J2 loses its Conceal counter: it was Suppressed (R 15.0)",
            "Axis to decide: J2's facing: it lost its Conceal counter (it was Suppressed) and chooses its facing (R 2.2)",
            "J2 takes facing W as it loses Concealment (R 2.2)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
    // One `face` order in a script around it: the parse error it gives.
    let parse_error = |file: &str, face: &str| {
        let text = format!(
            "(\n    scenario: \"tests/data/reveal_facing.ron\",\n    orders: [\n        {face},\n    ],\n)\n"
        );
        script::parse(file, text.as_bytes())
            .unwrap_err()
            .to_string()
    };
    // Nothing close to `up` or `s`: the six legal names, no guess.
    assert_eq!(
        parse_error("bad.ron", r#"face(unit: "J1", facing: Some(up))"#),
        "bad.ron:4:39: field `facing`: unknown spine `\"up\"`; expected one of e, ne, nw, w, sw, se"
    );
    assert_eq!(
        parse_error("bad.ron", r#"face(unit: "J1", facing: Some(s))"#),
        "bad.ron:4:39: field `facing`: unknown spine `\"s\"`; expected one of e, ne, nw, w, sw, se"
    );
    assert_eq!(
        parse_error("typo.ron", r#"face(unit: "J1", facng: Some(e))"#),
        "typo.ron:4:26: unknown field `facng` in face \u{2014} did you mean `facing`?"
    );
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let wrong = "(\n    scenario: \"tests/data/reveal_facing.ron\",\n    rolls: [3],\n    orders: [\n        fire(unit: \"M2\", target: \"E5\"),\n        face(unit: \"J1\", facing: Some(e)),\n    ],\n)\n";
    let s = script::parse("wrong.ron", wrong.as_bytes()).unwrap();
    let stopped = script::run(&s, &roster, &aid).unwrap().stopped;
    assert_eq!(
        stopped,
        Some((
            2,
            "face(unit:\"J1\",facing:Some(e))".to_string(),
            "J1 is not the unit to face: J2 chooses its facing now (R 2.2)".to_string()
        ))
    );
}

/// R 2.2 with R 15.0: two Concealed units next to the hex M1 enters (J2
/// moved to E4 for the test) lose their counters together and are asked
/// one at a time, by id; the move goes on only after both answers.
#[test]
fn r2_2_units_revealed_together_are_asked_by_id() {
    let (mut w, _) = world_of("reveal_facing.ron", &[]);
    let j2 = common::entity(&mut w, "J2");
    let (cols, rows) = {
        let b = &w.resource::<bob::world::BoardRes>().0;
        (b.columns, b.rows)
    };
    w.entity_mut(j2).insert(bob::world::Location {
        coord: bob::scenario::Coord::parse("E4", cols, rows).unwrap(),
        in_cave: false,
    });
    play(&mut w, r#"move(unit: "M1", path: ["C3", "D3"])"#);
    play(&mut w, "op_fire(firers: [])");
    assert_eq!(
        play(&mut w, "op_fire(firers: [])"),
        [
            "Axis hold their fire at D3 (R 9.0)",
            "J1 loses its Conceal counter: an enemy unit moved adjacent (R 15.0)",
            "J2 loses its Conceal counter: an enemy unit moved adjacent (R 15.0)",
            "Axis to decide: J1's facing: it lost its Conceal counter (an enemy unit moved adjacent) and chooses its facing (R 2.2)",
        ]
    );
    assert_eq!(
        refused(&mut w, r#"face(unit: "J2", facing: Some(nw))"#),
        "J2 is not the unit to face: J1 chooses its facing now (R 2.2)"
    );
    assert_eq!(
        play(&mut w, r#"face(unit: "J1", facing: Some(sw))"#),
        [
            "J1 takes facing Sw as it loses Concealment (R 2.2)",
            "Axis to decide: J2's facing: it lost its Conceal counter (an enemy unit moved adjacent) and chooses its facing (R 2.2)",
        ]
    );
    assert_eq!(
        play(&mut w, r#"face(unit: "J2", facing: Some(nw))"#),
        [
            "J2 takes facing Nw as it loses Concealment (R 2.2)",
            "M1 ends its move in D3; Used (R 4.2)",
        ]
    );
}
