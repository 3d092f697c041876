//! Guns (R 20.0-20.10) through `bob script` with forced dice, on the test
//! ground `tests/data/gun_ground.ron` (a 57mm AT Gun and a squad in the
//! wood at C3 facing E, German squads, an MG and a 20mm Flak gun to the
//! east), and the Gun scenario `crossroads_gun` through `bob check`.

mod common;
use common::{script_output, script_output_ending};

/// Runs orders on the gun ground with forced rolls: exit status, standard
/// output lines, standard error.
fn run(tag: &str, rolls: &str, orders: &str) -> (Option<i32>, Vec<String>, String) {
    let dir = std::env::temp_dir().join(format!("bob-guns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{tag}.ron"));
    let text = format!(
        "(scenario: \"tests/data/gun_ground.ron\", seed: 1, rolls: [{rolls}], orders: [{orders}])"
    );
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bob"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("script")
        .arg(&file)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn refusal(stderr: &str) -> &str {
    stderr.split(" refused: ").nth(1).unwrap_or(stderr).trim()
}

/// R 4.1, R 20.0: a Gun that starts and ends its Use Concealed counts one;
/// no CP may be spent on it (the refusal says why).
#[test]
fn a_concealed_gun_counts_one_and_takes_no_cp() {
    let (code, out, err) = run(
        "cp",
        "",
        "mark_used(unit: \"A1\"), cp(unit: \"A1\", function: reroll)",
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 marked Used (R 4.2); Ops Range 1/3",
        ]
    );
    assert_eq!(
        refusal(&err),
        "no such CP for A1: CPs may not be used on a Gun, except for the second player to act first (R 20.0, R 3.0 #2)"
    );
    let (code, _, err) = run("cp2", "", "cp(unit: \"A1\", function: prof_fp)");
    assert_eq!(code, Some(1));
    assert!(refusal(&err).starts_with("no such CP for A1: CPs may not be used on a Gun"));
}

/// R 3.0 #2: the one CP a Gun may take lets the second player act first
/// with it, outside both Ops Ranges.
#[test]
fn a_gun_may_act_first_with_a_cp() {
    let (code, out, err) = run(
        "first",
        "3, 6",
        "cp(unit: \"G3\", function: act_first), fire(unit: \"G3\", target: \"C3\")",
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out[..4],
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "G3: a CP is ready to act before the first player (R 3.0 #2, R 4.0)",
            "Axis spend a CP on G3: act before the first player (R 3.0 #2, R 4.0); 0 CP left",
            "G3 fires at C3 (R 6.0); Ops Range 0/3",
        ]
    );
}

/// R 20.4, R 20.2: no fire into its own hex, no move to a new hex, no shot
/// outside the arc of the facing asked for.
#[test]
fn gun_orders_the_rules_refuse() {
    let cases = [
        (
            "fire(unit: \"A1\", target: \"C3\")",
            "a Gun may not fire at units in its own hex (R 20.4)",
        ),
        (
            "move(unit: \"A1\", path: [\"D3\"])",
            "A1: a 57mm AT Gun may not move to a new hex (R 20.2)",
        ),
        (
            "fire(unit: \"A1\", target: \"E1\", facing: Some(se))",
            "A1: the target is outside the firing arc of facing Se (R 20.4)",
        ),
    ];
    for (i, (order, why)) in cases.into_iter().enumerate() {
        let (code, _, err) = run(&format!("refuse{i}"), "", order);
        assert_eq!(code, Some(1), "{order}");
        assert_eq!(refusal(&err), why, "{order}");
    }
}

/// R 20.4: a Gun turns within its hex to fire, and a turned shot needs a
/// Prof Check even at short range; outside Op Fire it keeps its new facing
/// when it fails.
#[test]
fn a_gun_turning_to_fire_checks_and_keeps_its_facing() {
    let (code, out, err) = run(
        "turn",
        "7",
        "fire(unit: \"A1\", target: \"E1\", facing: Some(ne))",
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out[1..5],
        [
            "A1 fires at E1 (R 6.0); Ops Range 3/3",
            "A1 turns within its hex to face Ne to fire (R 20.4)",
            "A1 Prof Check: +8 Prof Rating (R 20.4); \u{2212}1 turned within its hex to fire (R 20.4) = 7; roll 7 \u{2192} passes (R 20.4)",
            "A1 loses its Conceal counter: it fired (R 15.0)",
        ]
    );
    let (code, out, err) = run(
        "turn2",
        "8",
        "fire(unit: \"A1\", target: \"E1\", facing: Some(ne))",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&"A1 Prof Check: +8 Prof Rating (R 20.4); \u{2212}1 turned within its hex to fire (R 20.4) = 7; roll 8 \u{2192} fails: no shot, Used (R 20.4)".to_string()));
    assert!(!out.iter().any(|l| l.contains("goes back to facing")));
}

/// R 20.1, R 20.4, R 20.10: the Gun scenario passes `bob check`; a Gun
/// needs a facing and two Guns may not share a hex.
#[test]
fn the_gun_scenario_checks_and_bad_gun_setups_are_refused() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bob"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "scenarios/crossroads_gun.ron"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "scenarios/crossroads_gun.ron: ok \u{2014} The Crossroads Gun (crossroads_gun)"
    );
    let good = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/gun_ground.ron"
    ))
    .unwrap();
    let dir = std::env::temp_dir().join(format!("bob-guns-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "(id: \"A1\", unit: \"us_57mm_at\", side: allies, at: \"C3\", facing: Some(e), concealed: true)",
            "(id: \"A1\", unit: \"us_57mm_at\", side: allies, at: \"C3\", concealed: true)",
            "unit A1 is a Gun and needs a `facing`: its arc points at a hexspine (R 20.4)",
        ),
        (
            "(id: \"G4\", unit: \"ger1_mg\", side: axis, at: \"H5\")",
            "(id: \"G4\", unit: \"ger_20mm\", side: axis, at: \"I5\", facing: Some(w))",
            "two Guns in I5: G3, G4 \u{2014} no more than one Gun in a hex (R 20.10)",
        ),
    ];
    for (i, (from, to, why)) in cases.into_iter().enumerate() {
        assert!(good.contains(from));
        let file = dir.join(format!("bad{i}.ron"));
        std::fs::write(&file, good.replace(from, to)).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bob"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("check")
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{why}");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(why), "{text}");
    }
}

/// The roster: every Gun carries its Gun values and nothing else does
/// (units.md: 57mm AT 10/4, Casualty 6/3, Prof 8; 20mm 5/9; 88mm 15/10).
#[test]
fn every_gun_in_the_roster_has_its_values() {
    let roster = bob::scenario::builtin_roster().unwrap();
    for u in &roster.units {
        assert_eq!(u.class.is_gun(), u.gun.is_some(), "{}", u.id);
        if let Some(g) = u.gun {
            assert_eq!(u.full.fp, g.vs_infantry, "{}", u.id);
            assert_eq!(u.full.casualty, (g.casualty.0, None), "{}", u.id);
            assert_eq!(u.mp, 0, "{}", u.id);
        }
    }
    let g = roster.get("us_57mm_at").unwrap().gun.unwrap();
    assert_eq!(
        (g.vs_vehicle, g.vs_infantry, g.prof, g.casualty),
        (10, 4, 8, (6, 3))
    );
}

/// R 20.4, R 20.7: a Gun turns to Op Fire, fails its Prof Check and goes
/// back to its old facing; Used, it Final Op Fires only at an adjacent hex
/// in its arc, at -3, with its second FP and the V/G column.
#[test]
fn gun_op_fire_script() {
    let out = script_output("gun_op_fire");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A3 marked Used (R 4.2); Ops Range 1/3",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}4 (R 4.1)",
            "G2 moves (R 5.0); Ops Range 1/4",
            "G2 moves E1 \u{2192} D1: 1 MP, 4 left (R 5.0)",
            "Op Fire window: G2 enters D1; Allies may fire with A1, A2, A3 (R 9.0)",
            "Allies hold their fire at D1 (R 9.0)",
            "G2 moves D1 \u{2192} C1: 1 MP, 3 left (R 5.0)",
            "Op Fire window: G2 enters C1; Allies may fire with A1, A2, A3 (R 9.0)",
            "A1 Op Fires at G2 in C1 and is Used (R 9.0, R 4.3)",
            "A1 turns within its hex to face Ne to fire (R 20.4)",
            "A1 Prof Check: +8 Prof Rating (R 20.4); \u{2212}2 Op Fire (R 20.4); \u{2212}1 turned within its hex to fire (R 20.4) = 5; roll 6 \u{2192} fails: no shot, Used (R 20.4)",
            "A1 goes back to facing E: it failed its Prof Check after turning (R 20.4)",
            "G2 ends its move in C1; Used (R 4.2)",
            "G1 moves (R 5.0); Ops Range 2/4",
            "G1 moves H3 \u{2192} G3: 1 MP, 4 left (R 5.0)",
            "Op Fire window: G1 enters G3; Allies may fire with A2 (R 9.0)",
            "Allies hold their fire at G3 (R 9.0)",
            "G1 moves G3 \u{2192} F3: 1 MP, 3 left (R 5.0)",
            "Op Fire window: G1 enters F3; Allies may fire with A2 (R 9.0)",
            "Allies hold their fire at F3 (R 9.0)",
            "G1 moves F3 \u{2192} E3: 1 MP, 2 left (R 5.0)",
            "Op Fire window: G1 enters E3; Allies may fire with A2 (R 9.0)",
            "Allies hold their fire at E3 (R 9.0)",
            "G1 moves E3 \u{2192} D3: 1 MP, 1 left (R 5.0)",
            "Op Fire window: G1 enters D3; Allies may fire with A1, A2 (R 9.0)",
            "A1 Final Op Fires at G1 in D3 (R 10.0)",
            "A1 Prof Check: +8 Prof Rating (R 20.4); \u{2212}3 Final Op Fire (R 20.7) = 5; roll 4 \u{2192} passes (R 20.4)",
            "A1 loses its Conceal counter: it fired (R 15.0)",
            "A1 rolls 2 against D3 (R 6.2)",
            "G1: +4 Gun FP at Infantry/Guns (R 20.5) = 4 FP; roll 2 \u{2192} Suppressed (R 6.2)",
            "G1 MC: needs 5 or less, rolled 3 \u{2192} passed (R 9.0, R 7.1)",
            "G1 ends its move in D3; Used (R 4.2)",
        ]
    );
}

/// R 20.2, R 20.5, R 20.8, R 4.1: Gun fire at a Gun and an infantry squad
/// together, the MC a Suppressed Gun takes to fire, the Prof Check at range,
/// the second Casualty number against Gun fire, the first against infantry
/// fire; one Gun fills an Ops Range of 3.
#[test]
fn gun_fire_script() {
    let out = script_output("gun_fire");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A3 marked Used (R 4.2); Ops Range 1/3",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}4 (R 4.1)",
            "G3 fires at C3 (R 6.0); Ops Range 3/4",
            "G3 Prof Check: +9 Prof Rating (R 20.4); +0 range 6 over 5 hexes (PAC \u{a7}3) = 9; roll 3 \u{2192} passes (R 20.4)",
            "G3 rolls 5 against C3 (R 6.2)",
            "A1: +9 Gun FP at Infantry/Guns (R 20.5); \u{2212}1 Woods (PAC \u{a7}2a); \u{2212}1 Target Concealed (R 15.0) = 7 FP; roll 5 \u{2192} Suppressed (R 6.2)",
            "A1 loses its Conceal counter: it was Suppressed (R 15.0)",
            "A2: +9 Gun FP at Infantry/Guns (R 20.5); \u{2212}1 Woods (PAC \u{a7}2a) = 8 FP; roll 5 \u{2192} Suppressed (R 6.2)",
            "Axis pass after 3 (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 fires at I5 (R 6.0); Ops Range 3/3",
            "A1 MC: needs 6 or less, rolled 4 \u{2192} passed (R 20.2, R 7.1)",
            "A1 Prof Check: +8 Prof Rating (R 20.4); +0 range 6 over 5 hexes (PAC \u{a7}3) = 8; roll 5 \u{2192} passes (R 20.4)",
            "A1 rolls 1 against I5 (R 6.2)",
            "G3: +4 Gun FP at Infantry/Guns (R 20.5) = 4 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "G3 is eliminated (R 8.0)",
            "Allies pass after 3: no further Use fits (R 4.1)",
            "Axis Ops Range 1\u{2013}4 (R 4.1)",
            "G4 fires at C3 (R 6.0); Ops Range 1/4",
            "G4 rolls 1 against C3 (R 6.2)",
            "A1: +8 Normal FP (R 2.1); \u{2212}1 Woods (PAC \u{a7}2a) = 7 FP; roll 1 \u{2192} Eliminated (R 6.2)",
            "A1 is eliminated (R 8.0)",
            "A2: +8 Normal FP (R 2.1); \u{2212}1 Woods (PAC \u{a7}2a) = 7 FP; roll 1 \u{2192} Reduced and Fully Suppressed (R 6.2)",
        ]
    );
}

/// R 11.0, R 12.0, R 20.8: a Gun passes its Rout MC, fights a Melee with FP
/// 2, and one casualty eliminates it.
#[test]
fn gun_melee_script() {
    let out = script_output("gun_melee");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A3 marked Used (R 4.2); Ops Range 1/3",
            "Allies pass after 1 (R 4.1)",
            "Axis Ops Range 1\u{2013}4 (R 4.1)",
            "G3 fires at C3 (R 6.0); Ops Range 3/4",
            "G3 Prof Check: +9 Prof Rating (R 20.4); +0 range 6 over 5 hexes (PAC \u{a7}3) = 9; roll 3 \u{2192} passes (R 20.4)",
            "G3 rolls 5 against C3 (R 6.2)",
            "A1: +9 Gun FP at Infantry/Guns (R 20.5); \u{2212}1 Woods (PAC \u{a7}2a); \u{2212}1 Target Concealed (R 15.0) = 7 FP; roll 5 \u{2192} Suppressed (R 6.2)",
            "A1 loses its Conceal counter: it was Suppressed (R 15.0)",
            "A2: +9 Gun FP at Infantry/Guns (R 20.5); \u{2212}1 Woods (PAC \u{a7}2a) = 8 FP; roll 5 \u{2192} Suppressed (R 6.2)",
            "G1 moves (R 5.0); Ops Range 4/4",
            "G1 moves H3 \u{2192} G3: 1 MP, 4 left (R 5.0)",
            "Op Fire window: G1 enters G3; Allies may fire with A1, A2 (R 9.0)",
            "Allies hold their fire at G3 (R 9.0)",
            "G1 moves G3 \u{2192} F3: 1 MP, 3 left (R 5.0)",
            "Op Fire window: G1 enters F3; Allies may fire with A1, A2 (R 9.0)",
            "Allies hold their fire at F3 (R 9.0)",
            "G1 moves F3 \u{2192} E3: 1 MP, 2 left (R 5.0)",
            "Op Fire window: G1 enters E3; Allies may fire with A1, A2 (R 9.0)",
            "Allies hold their fire at E3 (R 9.0)",
            "G1 moves E3 \u{2192} D3: 1 MP, 1 left (R 5.0)",
            "Op Fire window: G1 enters D3; Allies may fire with A1, A2 (R 9.0)",
            "Allies hold their fire at D3 (R 9.0)",
            "G1 ends its move in D3; Used (R 4.2)",
            "Axis pass after 4: no further Use fits (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A1 marked Used (R 4.2); Ops Range 3/3",
            "Allies pass after 3: no further Use fits (R 4.1)",
            "Axis Ops Range 1\u{2013}4 (R 4.1)",
            "G2 moves (R 5.0); Ops Range 1/4",
            "G2 moves E1 \u{2192} D1: 1 MP, 4 left (R 5.0)",
            "Op Fire window: G2 enters D1; Allies may fire with A2, A3 (R 9.0)",
            "Allies hold their fire at D1 (R 9.0)",
            "G2 moves D1 \u{2192} D2: 1 MP, 3 left (R 5.0)",
            "Op Fire window: G2 enters D2; Allies may fire with A1, A2, A3 (R 9.0)",
            "Allies hold their fire at D2 (R 9.0)",
            "G2 moves D2 \u{2192} C3: 2 MP, 1 left (R 5.0)",
            "G2 ends its move in C3; Used (R 4.2)",
            "G4 marked Used (R 4.2); Ops Range 2/4",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "A2 marked Used (R 4.2); Ops Range 1/3",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Allies Rout Phase: A1, A2 must check (R 11.0)",
            "A1 Rout MC (in Melee): Morale 6 (R 11.0)",
            "A1 MC: needs 6 or less, rolled 2 \u{2192} passed (R 11.0, R 7.1)",
            "A2 Rout MC (in Melee): Morale 6 (R 11.0)",
            "A2 MC: needs 6 or less, rolled 3 \u{2192} passed (R 11.0, R 7.1)",
            "Axis Rout Phase: G2 must check (R 11.0)",
            "G2 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in C3: A1, A2 against G2 (R 12.0)",
            "A1 Melee FP 2: rolls 4, 6 -> 0 casualties (R 12.0)",
            "A2 Melee FP 6: rolls 1, 9 -> 1 casualty (R 12.0)",
            "G2 Melee FP 5: rolls 5, 8 -> 1 casualty (R 12.0)",
            "Allies to decide: a CP re-roll of Melee dice for A2 or none (R 3.0)",
            "Axis to decide: a CP re-roll of Melee dice for G2 or none (R 3.0)",
            "Allies to decide: 1 Melee casualties in C3 among A1, A2 (R 12.0)",
            "A1 is eliminated in Melee (R 12.0)",
            "G2 is Reduced in Melee (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Turn 2 begins (R 13.0)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 11.0, R 20.2: a Gun that fails its Rout MC is eliminated, with no CP
/// re-roll offered (R 20.0).
#[test]
fn gun_rout_script() {
    // The script ends on the Allies' CP re-roll question (exit status 3).
    let out = script_output_ending("gun_rout", 3);
    let lines: Vec<&str> = out.lines().collect();
    // The same Operations Phase as gun_melee.ron.
    let melee = script_output("gun_melee");
    let ops = melee
        .lines()
        .position(|l| l.starts_with("Operations Phase ends"))
        .unwrap();
    assert_eq!(lines[..ops], melee.lines().collect::<Vec<_>>()[..ops]);
    assert_eq!(
        lines[ops..],
        [
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Allies Rout Phase: A1, A2 must check (R 11.0)",
            "A1 Rout MC (in Melee): Morale 6 (R 11.0)",
            "A1 MC: needs 6 or less, rolled 7 \u{2192} failed (R 11.0, R 7.1)",
            "A2 Rout MC (in Melee): Morale 6 (R 11.0)",
            "A2 MC: needs 6 or less, rolled 3 \u{2192} passed (R 11.0, R 7.1)",
            "A1 is eliminated: a Gun that fails its Rout MC is eliminated (R 11.0, R 20.2)",
            "Axis Rout Phase: G2 must check (R 11.0)",
            "G2 Rout MC (in Melee): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "Melee in C3: A2 against G2 (R 12.0)",
            "A2 Melee FP 6: rolls 4, 6 -> 2 casualties (R 12.0)",
            "G2 Melee FP 5: rolls 1, 9 -> 1 casualty (R 12.0)",
            "Allies to decide: a CP re-roll of Melee dice for A2 or none (R 3.0)",
        ]
    );
}
