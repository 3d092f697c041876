//! Mortars (R 31.0, R 31.1), Type 89 GD Squads (R 59.3), Smoke (R 48.0 -
//! R 48.2, R 13.0) and Guns (R 20) in the engine, through `bob script`
//! files in `tests/scripts/` on the grounds in `tests/data/`, with forced
//! dice: exact log lines.

mod common;

/// Runs a script given as text in process; the log, and the refusal that
/// stopped it if any.
fn run_text(text: &str) -> (Vec<String>, Option<String>) {
    common::script_run("inline.ron", text.as_bytes())
}

/// Runs `tests/scripts/NAME.ron`; it must run to its end.
fn run(name: &str) -> Vec<String> {
    let (lines, stopped) = common::script_lines(name);
    assert_eq!(stopped, None, "{name}: {lines:#?}");
    lines
}

/// The refusal of `order` as the first order on `ground`.
fn refusal(ground: &str, order: &str) -> String {
    let text = format!("(scenario: \"tests/data/{ground}.ron\", orders: [{order}])");
    run_text(&text).1.unwrap_or_default()
}

/// R 31.1 Directed Fire through a spotter next to the Mortar (-1), R 31.0
/// airbursts in woods (+1), and Mortar Op Fire at a unit moving in Open
/// Ground within 4 hexes (+4, PAC Mortar column).
#[test]
fn r31_mortar_directed_fire_airburst_and_op_fire() {
    assert_eq!(
        run("mortar_fire"),
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "GM fires at B1 (R 6.0); Ops Range 1/3",
            "GM fires by Directed Fire: its spotter in A5 sees B1, -1 FP (R 31.1)",
            "GM rolls 3 against B1 (R 6.2)",
            "P1: +6 Normal FP (R 2.1); \u{2212}1 Mortar Directed Fire (R 31.1) = 5 FP; roll 3 \u{2192} Suppressed (R 6.2)",
            "GM3 fires at H5 (R 6.0); Ops Range 2/3",
            "GM3 rolls 2 against H5 (R 6.2)",
            "P2: +6 Normal FP (R 2.1); +1 Woods (PAC \u{a7}2a) = 7 FP; roll 2 \u{2192} Reduced and Fully Suppressed (R 6.2)",
            "Axis pass after 2 (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "P4 moves (R 5.0); Ops Range 1/3",
            "P4 moves H1 \u{2192} H2: 1 MP, 4 left (R 5.0)",
            "Op Fire window: P4 enters H2; Axis may fire with GM4 (R 9.0)",
            "GM4 Op Fires at P4 in H2 and is Used (R 9.0, R 4.3)",
            "GM4 rolls 9 against H2 (R 6.2)",
            "P4: +4 Prof FP: Op Fire (R 9.0); +4 Target moving in Open Ground, range 3 (R 41.0) = 8 FP; roll 9 \u{2192} No Effect (R 6.2)",
            "P4 ends its move in H2; Used (R 4.2)",
        ]
    );
}

/// R 31.0: a Mortar never fires inside its minimum range, nor from inside
/// a building.
#[test]
fn r31_0_minimum_range_and_no_fire_from_a_building() {
    assert_eq!(
        refusal("mortar_ground", "fire(unit: \"GM\", target: \"C5\")"),
        "target 1 hexes away, inside the Mortar's minimum range 2 (R 31.0)"
    );
    assert_eq!(
        refusal("mortar_ground", "fire(unit: \"GM2\", target: \"B1\")"),
        "a Mortar may not fire from inside a building (R 31.0)"
    );
}

/// R 48.0: Smoke fired by a Mortar (SSR) at a target hex costs the next
/// attack there -1; R 48.1: a Smoke Grenade thrown into the next hex (1 MP)
/// takes the +4 for moving in Open Ground away from Op Fire; R 13.0: the
/// Recovery Phase removes the Dispersed Smoke and flips the Smoke.
#[test]
fn r48_smoke_rounds_grenades_and_recovery() {
    assert_eq!(
        run("smoke"),
        [
            "Axis Ops Range 1–3 (R 4.1)",
            "GM3 is Used to place Smoke at H5 (R 48.0); Ops Range 1/3",
            "GM3 places Smoke in H5 (R 48.0)",
            "GM4 fires at H5 (R 6.0); Ops Range 2/3",
            "GM4 rolls 5 against H5 (R 6.2)",
            "P2: +6 Normal FP (R 2.1); +1 Woods (PAC §2a); −1 Smoke on the line (no moving-in-Open bonus, except for Artillery) (R 48.0) = 6 FP; roll 5 → Suppressed (R 6.2)",
            "Axis pass after 2 (R 4.1)",
            "Allies Ops Range 1–3 (R 4.1)",
            "P4 moves (R 5.0); Ops Range 1/3",
            "P4 places Dispersed Smoke in H2 (R 48.1)",
            "P4 moves H1 → H2: 1 MP, 3 left (R 5.0)",
            "Op Fire window: P4 enters H2; Axis may fire with GM (R 9.0)",
            "GM Op Fires at P4 in H2 and is Used (R 9.0, R 4.3)",
            "GM rolls 6 against H2 (R 6.2)",
            "P4: +4 Prof FP: Op Fire (R 9.0); +0 moving in Open Ground: no bonus with Smoke (R 48.0) = 4 FP; roll 6 → No Effect (R 6.2)",
            "P4 ends its move in H2; Used (R 4.2)",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1–3 (R 4.1)",
            "GM2 marked Used (R 4.2); Ops Range 1/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1–3 (R 4.1)",
            "P1 marked Used (R 4.2); Ops Range 1/3",
            "P3 marked Used (R 4.2); Ops Range 2/3",
            "P2 marked Used (R 4.2); Ops Range 3/3",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Axis Rout Phase: GM, GM3, GM4 must check (R 11.0)",
            "GM Rout MC (adjacent to an enemy not in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "GM3 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "GM4 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Allies Rout Phase: P1, P3, P4 must check (R 11.0)",
            "P1 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "P3 Rout MC (adjacent to an enemy not in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "P4 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "No Melee this turn (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "P2 recovers one step of Suppression: full Morale (R 13.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Dispersed Smoke removed from H2; Smoke in H5 flips to Dispersed Smoke (R 13.0, R 48.0)",
            "Scenario over: Axis win. otherwise Axis win. Losses: Allies 0 eliminated, 0 Reduced; Axis 0 eliminated, 0 Reduced (R 18.0)",
        ]
    );
}

/// R 59.3: a GD Squad is Used to place the Japanese Smoke counter, Dispersed;
/// a GD Squad fires as a Mortar, with no +3 at an adjacent target.
#[test]
fn r59_3_gd_squads_place_smoke_and_fire_as_mortars() {
    assert_eq!(
        run("gd_smoke"),
        [
            "Axis Ops Range 1–3 (R 4.1)",
            "GD1 is Used to place Smoke at E3 (R 48.0); Ops Range 1/3",
            "GD1 places Dispersed Smoke in E3 (R 59.3)",
            "GD2 fires at D4 (R 6.0); Ops Range 2/3",
            "GD2 rolls 7 against D4 (R 6.2)",
            "M2: +6 Normal FP (R 2.1) = 6 FP; roll 7 → No Effect (R 6.2)",
        ]
    );
}

/// R 59.3: once the Japanese Smoke counters are used up no more Smoke is
/// placed; a Squad places none this way; a GD Squad fires from a Swamp, a
/// Mortar WT does not (R 31.0).
#[test]
fn r59_3_smoke_runs_out_and_only_gd_squads_and_mortars_place_it() {
    let (lines, stopped) = run_text(
        r#"(scenario: "tests/data/gd_ground.ron", orders: [
            place_smoke(unit: "GD1", at: "E3"),
            place_smoke(unit: "GD2", at: "D4"),
        ])"#,
    );
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert_eq!(
        stopped.as_deref(),
        Some("no Smoke counters left for the GD Squads (R 59.3)")
    );
    assert_eq!(
        refusal("mortar_ground", "place_smoke(unit: \"GM2\", at: \"H5\")"),
        "a Mortar may not fire from inside a building (R 31.0)"
    );
    assert_eq!(
        refusal("mortar_ground", "place_smoke(unit: \"GM\", at: \"C5\")"),
        "target 1 hexes away, inside the Mortar's minimum range 2 (R 31.0)"
    );
    assert_eq!(
        refusal("gd_ground", "place_smoke(unit: \"GD3\", at: \"J3\")"),
        "`J3` is not a hex of this map"
    );
    let (lines, stopped) = run_text(
        r#"(scenario: "tests/data/gd_ground.ron", orders: [place_smoke(unit: "GD3", at: "E3")])"#,
    );
    assert_eq!(stopped, None);
    assert_eq!(lines[2], "GD3 places Dispersed Smoke in E3 (R 59.3)");
}

/// R 48.1: a Smoke Grenade goes only into the Squad's own or an adjacent
/// hex, and only for a side given Smoke Grenades.
#[test]
fn r48_1_smoke_grenade_limits() {
    let (_, stopped) = run_text(
        r#"(scenario: "tests/data/mortar_ground.ron", orders: [
            mark_used(unit: "GM2"),
            pass,
            move(unit: "P4", path: ["H2"], smoke_grenade: Some((after: 0, at: "H3"))),
        ])"#,
    );
    assert_eq!(
        stopped.as_deref(),
        Some(
            "Smoke Grenade into H3: a Smoke Grenade goes into the Squad's own or an adjacent non-water hex (R 48.1)"
        )
    );
    let (_, stopped) = run_text(
        r#"(scenario: "tests/data/gd_ground.ron", orders: [
            mark_used(unit: "GD3"),
            pass,
            move(unit: "M1", path: ["F3"], smoke_grenade: Some((after: 1, at: "F3"))),
        ])"#,
    );
    assert_eq!(
        stopped.as_deref(),
        Some("Smoke Grenade into F3: this side has no Smoke Grenades (R 48.1)")
    );
}

/// R 48.0, R 5.2: an Assault Fire into a Smoke hex takes the -1 like any
/// other fire (its thread carries the Smoke hexes, as fire and Op Fire do).
#[test]
fn r48_assault_fire_through_smoke() {
    assert_eq!(
        run("assault_fire_smoke"),
        [
            "Axis Ops Range 1–3 (R 4.1)",
            "GM3 is Used to place Smoke at B5 (R 48.0); Ops Range 1/3",
            "GM3 places Smoke in B5 (R 48.0)",
            "Axis pass after 1 (R 4.1)",
            "Allies Ops Range 1–3 (R 4.1)",
            "P3 moves (R 5.0); Ops Range 1/3",
            "P3 moves C5 → C4: 1 MP, 4 left (R 5.0)",
            "Op Fire window: P3 enters C4; Axis may fire with GM, GM4 (R 9.0)",
            "Axis hold their fire at C4 (R 9.0)",
            "P3 Assault Fires at B5; its move is over (R 5.2)",
            "P3 rolls 5 against B5 (R 6.2)",
            "GM: +5 Prof FP: Assault Fire (R 5.2); −1 Smoke on the line (no moving-in-Open bonus, except for Artillery) (R 48.0) = 4 FP; roll 5 → No Effect (R 6.2)",
            "P3 ends its move in C4; Used (R 4.2)",
        ]
    );
}

/// R 43.7 (and R 43.6 for Wire): A1 spends its move to remove the
/// Roadblock in its hex; G1 Op Fires at it as at a unit that has just moved
/// in (moving in Open Ground, +4) with no Wall for the Roadblock; A1 is
/// Suppressed, passes its MC and the Roadblock goes. A2 removes the Wire in
/// E3 with no one left to fire. Failing the MC, the Roadblock stays. Only a
/// Squad, and only where there is Wire or a Roadblock.
#[test]
fn r43_7_a_squad_removes_a_roadblock_and_wire() {
    let script = |rolls: &str| {
        format!(
            r#"(scenario: "tests/data/roadblock_ground.ron", rolls: [{rolls}], orders: [
                clear(unit: "A1"), op_fire(firers: ["G1"]), clear(unit: "A2")])"#
        )
    };
    let (lines, stopped) = run_text(&script("5, 2"));
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines[1..13],
        [
            "A1 moves (R 5.0); Ops Range 1/2",
            "A1 spends its whole move to remove the Roadblock in C3; for Op Fire it has just moved into the hex (R 43.7)",
            "Op Fire window: A1 enters C3; Axis may fire with G1 (R 9.0)",
            "G1 Op Fires at A1 in C3 and is Used (R 9.0, R 4.3)",
            "G1 rolls 5 against C3 (R 6.2)",
            "A1: +3 Prof FP: Op Fire (R 9.0); +4 Target moving in Open Ground, range 2 (R 41.0) = 7 FP; roll 5 \u{2192} Suppressed (R 6.2)",
            "A1 MC: needs 6 or less, rolled 2 \u{2192} passed (R 9.0, R 7.1)",
            "A1 survived and passed every MC: the Roadblock in C3 is removed (R 43.6, R 43.7)",
            "A1 ends its move in C3; Used (R 4.2)",
            "A2 moves (R 5.0); Ops Range 2/2",
            "A2 spends its whole move to remove the Wire in E3; for Op Fire it has just moved into the hex (R 43.7)",
            "A2 survived and passed every MC: the Wire in E3 is removed (R 43.6, R 43.7)",
        ]
    );
    let (lines, _) = run_text(&script("5, 10"));
    assert_eq!(
        lines[7..9],
        [
            "A1 MC: needs 6 or less, rolled 10 \u{2192} failed (R 9.0, R 7.1)",
            "A1 failed an MC: the Roadblock in C3 stays (R 43.7)",
        ]
    );
    assert_eq!(
        refusal("roadblock_ground", r#"clear(unit: "A3")"#),
        "A3: only a Squad removes Wire or a Roadblock (R 43.7)"
    );
    assert_eq!(
        refusal("roadblock_ground", r#"clear(unit: "A4")"#),
        "A4: there is no Wire or Roadblock in G5 (R 43.6, R 43.7)"
    );
}

/// R 43.7: for fire a Roadblock is a Wall (R 46.1) on the hexside it
/// blocks: G1's fire from C1 enters C3 across it, -2 (against the Squad
/// removing it there is none: `r43_7_a_squad_removes_a_roadblock_and_wire`).
#[test]
fn r43_7_a_roadblock_is_a_wall_for_fire() {
    let (lines, stopped) = run_text(
        r#"(scenario: "tests/data/roadblock_ground.ron", rolls: [9], orders: [
            mark_used(unit: "A3"), pass, fire(unit: "G1", target: "C3")])"#,
    );
    assert_eq!(stopped, None, "{lines:#?}");
    assert!(
        lines.contains(
            &"A1: +5 Normal FP (R 2.1); \u{2212}2 Wall hexside or Dike Road, target directly behind (R 46.1) = 3 FP; roll 9 \u{2192} No Effect (R 6.2)"
                .to_string()
        ),
        "{lines:#?}"
    );
}
