//! Combat Events with Guns (R 17.0, R 20.0) played with forced dice on the
//! test grounds `tests/data/events_gun_ground.ron` (Europe, Combat Events
//! on: an American 57mm AT Gun A1 with the squad A2 in the wood at C3, the
//! squads A3 and A4; the German squad G1, the Concealed 88mm G2, the 20mm
//! G3 in the open at F4, the Concealed squad G4 and the Decoy GD1) and
//! `tests/data/events_gun_pacific.ron` (the 57mm A1 in a Melee with the
//! Japanese J3). Each test asserts the exact log.

mod common;

use common::{play, world_of};

/// The log of the begun game and of the orders, in order.
fn log(file: &str, rolls: &[u8], orders: &[&str]) -> (bevy::prelude::World, Vec<String>) {
    let (mut w, mut lines) = world_of(file, rolls);
    for o in orders {
        lines.extend(play(&mut w, o));
    }
    (w, lines)
}

const GROUND: &str = "events_gun_ground.ron";
const PACIFIC: &str = "events_gun_pacific.ron";

/// A2 fires at the 20mm G3 with a 1 (Suppressed: 1 + Casualty 6 is over
/// FP 6), then the Allies roll `entry` on the Combat Event Table (its
/// `title`) and answer `picks`, if any: the log after the entry's line.
fn after_a2_rolls_a_one(entry: u8, title: &str, picks: &[&str]) -> Vec<String> {
    let answer = format!(
        "combat_event(picks: [{}])",
        picks
            .iter()
            .map(|p| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut orders = vec![r#"fire(unit: "A2", target: "F4")"#];
    if !picks.is_empty() {
        orders.push(&answer);
    }
    let (_, lines) = log(GROUND, &[1, 1, entry], &orders);
    assert_eq!(
        lines[..6],
        [
            "Allies Ops Range 1\u{2013}6 (R 4.1)".to_string(),
            "A2 fires at F4 (R 6.0); Ops Range 1/6".into(),
            "A2 rolls 1 against F4 (R 6.2)".into(),
            "G3: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Suppressed (R 6.2)".into(),
            "A2 rolled a 1: Combat Event roll 1 -> Allies roll on the Combat Event Table (R 17.0)"
                .into(),
            format!(
                "Allies roll {entry} on the Combat Event Table: entry {entry}, {title} (R 17.0)"
            ),
        ]
    );
    lines[6..].to_vec()
}

/// R 17.0: "a Squad or WT rolls a 1"; a Gun is neither (R 2.0, R 20.2),
/// so its 1 brings no additional roll (`docs/decisions.md`).
#[test]
fn a_gun_rolling_a_one_causes_no_combat_event() {
    let (_, lines) = log(GROUND, &[1], &[r#"fire(unit: "A1", target: "E3")"#]);
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}6 (R 4.1)",
            "A1 fires at E3 (R 6.0); Ops Range 3/6",
            "A1 rolls 1 against E3 (R 6.2)",
            "G1: +4 Gun FP at Infantry/Guns (R 20.5) = 4 FP; roll 1 \u{2192} Suppressed (R 6.2)",
        ]
    );
}

/// Entry 1: the Gun fired upon may be picked; it is removed (not Reduced)
/// and counts as eliminated like any other elimination.
#[test]
fn entry_1_removes_the_gun_fired_upon() {
    assert_eq!(
        after_a2_rolls_a_one(1, "Casualty", &["G3"]),
        [
            "Combat Event: Allies pick 1 of A2, G3: the unit that made the roll or one unit fired upon is Reduced (a Decoy or Gun is removed; no Vehicles or SATTs are in the game) (R 17.0)",
            "Allies pick G3 (R 17.0)",
            "G3 is removed: a Gun, a casualty of the Combat Event (R 17.0)",
            "G3 is eliminated (R 8.0)",
        ]
    );
    let (mut w, _) = log(
        GROUND,
        &[1, 1, 1],
        &[
            r#"fire(unit: "A2", target: "F4")"#,
            r#"combat_event(picks: ["G3"])"#,
        ],
    );
    let t = bob::engine::phases::end::tally(&mut w);
    assert_eq!(t.eliminated, [0, 1]);
}

/// Entry 2: the Sniper picks among unconcealed Squads/WTs: neither the
/// 57mm A1 nor the 20mm G3, both unconcealed.
#[test]
fn entry_2_the_sniper_never_picks_a_gun() {
    assert_eq!(
        after_a2_rolls_a_one(2, "Sniper Attack", &["A4"]),
        [
            "Combat Event: Allies pick 1 of A2, A3, A4, G1: an unconcealed Squad/WT the sniper Reduces (R 17.0)",
            "Allies pick A4 (R 17.0)",
            "A4 is Reduced and Fully Suppressed: a Sniper Attack (R 17.0, R 8.0)",
        ]
    );
}

/// Entry 5: the Concealed 88mm G2 is one of the enemy units that may be
/// spotted; it loses its Conceal counter.
#[test]
fn entry_5_spots_a_concealed_gun() {
    assert_eq!(
        after_a2_rolls_a_one(5, "Spotted", &["G2", "GD1"]),
        [
            "Combat Event: Allies pick 2 of G2, G4, GD1: enemy units that lose their Concealment (R 17.0)",
            "Allies pick G2, GD1 (R 17.0)",
            "G2 loses its Conceal counter: spotted in a Combat Event, R 17.0 (R 15.0)",
            "GD1 was a Decoy: removed on losing Concealment (R 15.0)",
        ]
    );
}

/// Entry 6: the unconcealed 57mm A1 in the wood, away from the enemy, is
/// not a Squad/WT: only A2 beside it goes to ground.
#[test]
fn entry_6_no_conceal_counter_for_a_gun() {
    assert_eq!(
        after_a2_rolls_a_one(6, "Gone to Ground", &[]),
        ["A2 gains a Conceal counter (R 17.0, R 15.0)"]
    );
}

/// Entry 7: Pinned marks unconcealed Squads/WTs Used: not the unused,
/// unconcealed 57mm A1.
#[test]
fn entry_7_pins_no_gun() {
    assert_eq!(
        after_a2_rolls_a_one(7, "Pinned", &["A3", "G1"]),
        [
            "Combat Event: Allies pick 2 of A3, A4, G1: unconcealed Squads/WTs marked Used (R 17.0)",
            "Allies pick A3, G1 (R 17.0)",
            "A3 is marked Used (R 17.0)",
            "G1 is marked Used (R 17.0)",
        ]
    );
}

/// Entry 8: "2 Infantry units or 1 Vehicle, Gun, or Carrier": with a Used
/// Gun and a Used Squad the roller picks the kind, then the units; with
/// only Infantry Used there is nothing to choose.
#[test]
fn entry_8_two_infantry_or_one_gun() {
    let head = [
        "Allies Ops Range 1\u{2013}6 (R 4.1)",
        "A1 marked Used (R 4.2); Ops Range 3/6",
        "A2 fires at F4 (R 6.0); Ops Range 4/6",
        "A2 rolls 1 against F4 (R 6.2)",
        "G3: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Suppressed (R 6.2)",
        "A2 rolled a 1: Combat Event roll 1 -> Allies roll on the Combat Event Table (R 17.0)",
        "Allies roll 8 on the Combat Event Table: entry 8, Second Wind (R 17.0)",
        "Combat Event: Allies pick 1 of infantry, gun: remove Used/Op Fire counters from 2 Infantry units or 1 Gun (no Vehicles or Carriers are in the game) (R 17.0)",
    ];
    for (kind, readied) in [("gun", "A1"), ("infantry", "A2")] {
        let (mut w, lines) = log(
            GROUND,
            &[1, 1, 8],
            &[
                r#"mark_used(unit: "A1")"#,
                r#"fire(unit: "A2", target: "F4")"#,
                &format!(r#"combat_event(picks: ["{kind}"])"#),
            ],
        );
        let mut want: Vec<String> = head.map(String::from).to_vec();
        want.extend([
            format!("Allies pick {kind} (R 17.0)"),
            format!("{readied} loses its Used counter and may be Used again this turn (R 17.0)"),
        ]);
        assert_eq!(lines, want, "{kind}");
        let e = common::entity(&mut w, readied);
        assert!(!bob::world::marks(&w, e).used, "{kind}");
    }
    assert_eq!(
        after_a2_rolls_a_one(8, "Second Wind", &[]),
        ["A2 loses its Used counter and may be Used again this turn (R 17.0)"]
    );
}

/// Fugg Babe Ruth picks an unmounted enemy Infantry unit: the 57mm A1 is
/// not Infantry (`docs/decisions.md`); A3, not Marines, fires on 6 + 3.
#[test]
fn fugg_babe_ruth_never_picks_a_gun() {
    let (_, lines) = log(
        PACIFIC,
        &[1, 3, 4, 6],
        &[
            r#"fire(unit: "A2", target: "E3")"#,
            r#"combat_event(picks: ["A3"])"#,
        ],
    );
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}4 (R 4.1)",
            "A2 fires at E3 (R 6.0); Ops Range 1/4",
            "A2 rolls 1 against E3 (R 6.2)",
            "J1: +6 Normal FP (R 2.1) = 6 FP; roll 1 \u{2192} Reduced and Fully Suppressed (R 6.2)",
            "A2 rolled a 1: Combat Event roll 3 -> Axis roll on the Japanese Event Table (R 17.0)",
            "Axis roll 4 on the Japanese Event Table: entry 4-6, Fugg Babe Ruth (R 17.0)",
            "Combat Event: Axis pick 1 of A2, A3: an enemy Infantry unit that may give itself away (R 17.0)",
            "Axis pick A3 (R 17.0)",
            "A3 is unused: roll 6 +3 not Marines = 9 -> it fires at an imaginary target and is marked Used (R 17.0)",
        ]
    );
}

/// Ambush: a Melee casualty on a Gun eliminates it (in Melee a Gun is a
/// Full-Strength WT, R 20.8), and it counts as eliminated.
#[test]
fn an_ambush_casualty_eliminates_a_gun() {
    let (mut w, lines) = log(
        PACIFIC,
        &[1, 3, 7, 2, 5],
        &[r#"fire(unit: "A2", target: "E3")"#],
    );
    assert_eq!(
        lines[4..],
        [
            "A2 rolled a 1: Combat Event roll 3 -> Axis roll on the Japanese Event Table (R 17.0)",
            "Axis roll 7 on the Japanese Event Table: entry 7-8, Ambush (R 17.0)",
            "J3 rolls a Melee attack with no bonus: Melee FP 3, dice 2 and 5 -> 1 casualty (R 17.0, R 12.0)",
            "A1 is removed: a Gun, a Melee casualty of the Ambush (R 17.0)",
            "A1 is eliminated (R 8.0)",
        ]
    );
    let t = bob::engine::phases::end::tally(&mut w);
    assert_eq!(t.eliminated, [1, 0]);
}
