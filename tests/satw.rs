//! R 33.0: a Squad with a Bazooka at Guns and WTs, on the test ground
//! `tests/data/satw_ground.ron` (the Bazooka Squad A1 and the plain
//! Squad A2; 20mm guns G1 three hexes from A1 and G2 five; the MG WT G3 in
//! the open, the Concealed MG WT G4 in a wood). Exact log lines.

mod common;

use common::{play, world_of};

/// The FP line of one shot of `unit` at `target` with the roll forced.
fn shot(unit: &str, target: &str, roll: u8) -> Vec<String> {
    let (mut w, _) = world_of("satw_ground.ron", &[roll]);
    let lines = play(
        &mut w,
        &format!(r#"fire(unit: "{unit}", target: "{target}")"#),
    );
    lines[2..].to_vec()
}

const BONUS: &str = "+1 Bazooka / Panzerschreck / PIAT squad at an unconcealed Gun, WT or Pillbox within SATW range (R 33.0)";

/// R 33.0, R 20.2: +1 FP and the Gun's second Casualty number (3): a 4
/// eliminates the 20mm (4 + 3 <= 7), where the plain Squad only
/// Suppresses it (4 + 6 > 6).
#[test]
fn a_bazooka_at_a_gun_in_range() {
    assert_eq!(
        shot("A1", "E3", 4),
        [
            format!("G1: +6 Normal FP (R 2.1); {BONUS} = 7 FP; roll 4 \u{2192} Eliminated (R 6.2)"),
            "G1 is eliminated (R 8.0)".to_string(),
        ]
    );
    assert_eq!(
        shot("A2", "E3", 4),
        ["G1: +6 Normal FP (R 2.1) = 6 FP; roll 4 \u{2192} Suppressed (R 6.2)"]
    );
}

/// Beyond the Bazooka's Range of 4 (PAC §4, 1944) the Gun at 5 hexes is
/// fired on like any Gun: no +1, the first Casualty number.
#[test]
fn no_bonus_beyond_the_satw_range() {
    assert_eq!(
        shot("A1", "G3", 4),
        ["G2: +6 Normal FP (R 2.1) = 6 FP; roll 4 \u{2192} Suppressed (R 6.2)"]
    );
}

/// At an unconcealed WT: +1 FP, so a 3 Reduces it (3 + 4 <= 7) where the
/// plain Squad's 6 FP only Suppresses; at a Concealed WT: nothing.
#[test]
fn a_bazooka_at_a_wt() {
    assert_eq!(
        shot("A1", "E5", 3),
        [format!(
            "G3: +6 Normal FP (R 2.1); {BONUS} = 7 FP; roll 3 \u{2192} Reduced and Fully Suppressed (R 6.2)"
        )]
    );
    assert_eq!(
        shot("A2", "E5", 3),
        ["G3: +6 Normal FP (R 2.1) = 6 FP; roll 3 \u{2192} Suppressed (R 6.2)"]
    );
    assert_eq!(
        shot("A1", "E1", 4)[0],
        "G4: +6 Normal FP (R 2.1); \u{2212}1 Woods (PAC \u{a7}2a); \u{2212}1 Target Concealed (R 15.0) = 4 FP; roll 4 \u{2192} Suppressed (R 6.2)"
    );
}
