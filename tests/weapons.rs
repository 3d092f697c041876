//! Mortars (R 31.0, R 31.1), Type 89 GD Squads (R 59.3), Smoke (R 48.0 -
//! R 48.2, R 13.0) and Guns (R 20) in the engine, through `bob script`
//! files in `tests/scripts/` on the grounds in `tests/data/`, with forced
//! dice: exact log lines.

use bob::engine::script;
use bob::scenario;

/// Runs a script given as text in process; the log, and the refusal that
/// stopped it if any.
fn run_text(text: &str) -> (Vec<String>, Option<String>) {
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let s = script::parse("inline.ron", text.as_bytes()).unwrap();
    // Cargo runs integration tests from the package root, where the
    // scripts' scenario paths start.
    let r = script::run(&s, &roster, &aid).unwrap();
    (r.lines, r.stopped.map(|(_, _, why)| why))
}

/// Runs `tests/scripts/NAME.ron`; it must run to its end.
fn run(name: &str) -> Vec<String> {
    let file = format!("{}/tests/scripts/{name}.ron", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(file).unwrap();
    let (lines, stopped) = run_text(&text);
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
