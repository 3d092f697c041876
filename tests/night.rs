//! Night and Wire in the engine (R 50.0-50.2, R 43.6, R 59.6), through
//! `bob script` files in `tests/scripts/` on the grounds in `tests/data/`,
//! with forced dice: every log line of a Muzzle Flash chain, a Trip Flare
//! and a Banzai Squad clearing Wire, and the refusals of the dark and of
//! the Wire.

use bob::engine::script;
use bob::scenario;

/// Runs `tests/scripts/NAME.ron` in process: its log lines, and the
/// refusal that stopped it, if any.
fn run(name: &str) -> (Vec<String>, Option<String>) {
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let file = format!("tests/scripts/{name}.ron");
    let bytes = std::fs::read(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let s = script::parse(&file, &bytes).unwrap();
    let r = script::run(&s, &roster, &aid).unwrap();
    (r.lines, r.stopped.map(|(_, _, why)| why))
}

/// R 50.2: at Night M1 may not fire at J1, 4 hexes away, beyond its
/// Visibility Range of 2 and not Illuminated.
#[test]
fn r50_2_no_fire_beyond_the_visibility_range() {
    let (_, stopped) = run("night_dark");
    assert_eq!(
        stopped.as_deref(),
        Some("target 4 hexes away, beyond the Visibility Range 2 and not Illuminated (R 50.2)")
    );
}

/// R 50.1, R 50.2: the Illumination counter over G3 lets M1 fire at J1;
/// then the Muzzle Flash chain: J2 answers M1, M2 answers J2, J1 answers
/// M2; J1 stands in the light, so its fire flashes for no one and the
/// Operations Phase goes on. Each answer is ONE Unused unit out of the
/// flashing unit's Visibility Range, with Normal FP; the answers count in
/// no Ops Range; the Illumination counter comes off in Recovery.
#[test]
fn r50_2_a_muzzle_flash_chain() {
    let (lines, stopped) = run("muzzle_flash_chain");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "Illumination in G3, fired near M1: units there and adjacent are Illuminated (R 50.1); Ops Range 1/3",
            "M1 fires at G3 (R 6.0); Ops Range 2/3",
            "M1 rolls 10 against G3 (R 6.2)",
            "J1: +4 Normal FP (R 2.1) = 4 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Muzzle Flash: M1 in C3 fired Unilluminated; Axis may answer with ONE Unused unit out of its Visibility Range: J1, J2 (R 50.2)",
            "J2 answers the Muzzle Flash of M1 with Normal FP (R 50.2)",
            "J2 rolls 4 against C3 (R 6.2)",
            "M1: +5 Normal FP (R 2.1) = 5 FP; roll 4 \u{2192} Suppressed (R 6.2)",
            "Muzzle Flash: J2 in G6 fired Unilluminated; Allies may answer with ONE Unused unit out of its Visibility Range: M2 (R 50.2)",
            "M2 answers the Muzzle Flash of J2 with Normal FP (R 50.2)",
            "M2 rolls 10 against G6 (R 6.2)",
            "J2: +4 Normal FP (R 2.1) = 4 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Muzzle Flash: M2 in D6 fired Unilluminated; Axis may answer with ONE Unused unit out of its Visibility Range: J1 (R 50.2)",
            "J1 answers the Muzzle Flash of M2 with Normal FP (R 50.2)",
            "J1 rolls 10 against D6 (R 6.2)",
            "M2: +5 Normal FP (R 2.1) = 5 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Allies Rout Phase: no unit must check (R 11.0)",
            "Axis Rout Phase: no unit must check (R 11.0)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "No Melee this turn (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "M1 recovers one step of Suppression: full Morale (R 13.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "1 Illumination counter(s) removed (R 50.1)",
            "Scenario over: Axis win. otherwise Axis win. Losses: Allies 0 eliminated, 0 Reduced; Axis 0 eliminated, 0 Reduced (R 18.0)",
        ]
    );
}

/// R 43.6, R 59.6, R 50.2: J1 Banzai Charges through the dark (no window at
/// G3 or F3: every Marine is beyond its Visibility Range of 2) into the
/// Wire at E3. The Trip Flare: M2 (2 hexes) sees it anyway, M1 (3 hexes)
/// fires by the flare's light; moving in Open Ground at Night is +1 at
/// range 2 and +0 at range 3. J1 survives, clears the Wire and is Reduced.
#[test]
fn r43_6_trip_flare_and_banzai_wire_clearing() {
    let (lines, stopped) = run("trip_flare");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Turn 1: the Japanese announce a Banzai Charge; Suppression removed from none; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: J1 (R 59.6)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 moves H3 \u{2192} G3: 1 MP, 8 left (R 5.0)",
            "J1 moves G3 \u{2192} F3: 1 MP, 7 left (R 5.0)",
            "J1 moves F3 \u{2192} E3: 1 MP, 6 left (R 5.0)",
            "Trip Flare in E3: J1 entered the Wire; one Unused unit out of its Visibility Range may Op Fire too (R 43.6)",
            "Op Fire window: J1 enters E3; Allies may fire with M1, M2, M3, M4 (R 9.0)",
            "M2 Op Fires at J1 in E3 and is Used (R 9.0, R 4.3)",
            "M2 rolls 10 against E3 (R 6.2)",
            "J1: +3 Prof FP: Op Fire (R 9.0); +1 Target moving in Open Ground at Night or in Monsoon rain, range 2 (R 50.2) = 4 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "M1 Op Fires at J1 in E3 and is Used (R 9.0, R 4.3)",
            "M1 rolls 10 against E3 (R 6.2)",
            "J1: +3 Prof FP: Op Fire (R 9.0); +0 Target moving in Open Ground at Night or in Monsoon rain, range 3 (R 50.2) = 3 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "J1 charges through the Wire in E3 and clears it; J1 is Reduced (R 43.6, R 59.6)",
            "J1 ends its move in E3; Used (R 4.2)",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 43.6: only ONE unit fires by the Trip Flare's light (M1 and M3 are
/// both beyond J1's Visibility Range).
#[test]
fn r43_6_one_unit_only_by_the_trip_flare() {
    let (lines, stopped) = run("trip_flare_two");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Op Fire window: J1 enters E3; Allies may fire with M1, M2, M3, M4 (R 9.0)")
    );
    assert_eq!(stopped.as_deref(), Some("M3 may not Op Fire at E3 (R 9.0)"));
}

/// R 43.6: a unit leaving Wire moves one hex only.
#[test]
fn r43_6_leaving_wire_is_one_hex() {
    let (_, stopped) = run("wire_leaving");
    assert_eq!(
        stopped.as_deref(),
        Some("step 2 into C6: a unit leaving Wire in B5 moves one hex only (R 43.6)")
    );
}

/// R 50.2: the Marine leaving the Wire pays 1 1/2 MP for Open Ground at
/// Night; R 43.6: a move stops on entering Wire.
#[test]
fn r50_2_night_minimum_and_r43_6_wire_stops_a_move() {
    let (lines, stopped) = run("wire_night_move");
    assert!(
        lines.contains(&"M4 moves B5 \u{2192} B6: 1\u{bd} MP, 3\u{bd} left (R 5.0)".to_string()),
        "{lines:#?}"
    );
    assert_eq!(
        stopped.as_deref(),
        Some("step 3 into F3: the move stops on entering Wire in E3 (R 43.6)")
    );
}

/// R 50.3: the Decoy MD1 is removed on losing its counter in J1's sight;
/// the Concealed M3 is Used to regenerate it in its hex, Concealed and
/// Used, counting in the Ops Range. MD1 on the board cannot come back
/// twice, and only a Concealed unit regenerates.
#[test]
fn r50_3_a_concealed_unit_regenerates_a_removed_decoy() {
    let (lines, stopped) = run("regenerate_decoy");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "MD1 moves (R 5.0); Ops Range 1/3",
            "MD1 moves E1 \u{2192} F1: 1\u{bd} MP, 3\u{bd} left (R 5.0)",
            "MD1 was a Decoy: removed on losing Concealment (R 15.0)",
            "M3 is Used to regenerate the Decoy MD1 in A1, Concealed and Used (R 50.3); Ops Range 2/3",
        ]
    );
    let (_, stopped) = run("regenerate_decoy_refused");
    assert_eq!(
        stopped.as_deref(),
        Some("M1 is not Concealed: only a Concealed unit regenerates a Decoy (R 50.3)")
    );
}

// R 59.6, the Banzai Charge and the Rout Edge: a charging Squad follows
// the charge's own path rule even toward its Rout Edge; every other
// Japanese Squad move toward it is refused until the last required charge
// is called (docs/decisions.md).

/// Turn 2 of a card calling charges on turns 2 and 3: J1 in E5 charges the
/// closest Marine, M1 in B5, three hexes west, toward its own Rout Edge
/// (the west), by the fewest MPs; the engine accepts it.
#[test]
fn r59_6_a_charge_may_go_toward_the_rout_edge() {
    let (lines, stopped) = run("banzai_rout_edge");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 marked Used (R 4.2); Ops Range 1/3",
            "J2 marked Used (R 4.2); Ops Range 2/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 marked Used (R 4.2); Ops Range 1/3",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Axis Rout Phase: no unit must check (R 11.0)",
            "Allies Rout Phase: M1 must check (R 11.0)",
            "M1 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "No Melee this turn (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Turn 2 begins (R 13.0)",
            "Turn 2: the Japanese announce a Banzai Charge; Suppression removed from none; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: J1, J2 (R 59.6)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 moves E5 \u{2192} D5: 1 MP, 8 left (R 5.0)",
            "Op Fire window: J1 enters D5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at D5 (R 9.0)",
            "J1 moves D5 \u{2192} C5: 1 MP, 7 left (R 5.0)",
            "Op Fire window: J1 enters C5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at C5 (R 9.0)",
            "J1 moves C5 \u{2192} B5: 1 MP, 6 left (R 5.0)",
            "J1 ends its move in B5; Used (R 4.2)",
        ]
    );
}

/// Turn 1, before the first required charge: J2 may not step west, toward
/// its Rout Edge.
#[test]
fn r59_6_no_step_toward_the_rout_edge_before_the_last_charge_is_called() {
    let (lines, stopped) = run("banzai_rout_edge_refused");
    assert_eq!(lines, ["Axis Ops Range 1\u{2013}3 (R 4.1)"]);
    assert_eq!(
        stopped.as_deref(),
        Some(
            "J2: D8 is closer to the Rout Edge; no Japanese Squad moves closer to it before the last Banzai Charge is called (turn 3) (R 59.6)"
        )
    );
}
