//! Exact chances from the d10, counted face by face (never sampled): the
//! outcome of a fire attack on one unit (R 6.1, R 6.2, R 7.0, R 8.0) and of a
//! Morale Check (R 7.1, R 5.1), with a CP re-roll (R 3.0).

use crate::scenario::player_aid::PlayerAid;

use super::fire::{FireOutcome, FpBreakdown, SuppressionLevel, resolve, suppression_after};
use super::{D10, Fp, Morale};

/// The unit fired at, as far as the odds go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OddsTarget {
    /// `(first, Some(second))` Full Strength, `(only, None)` Reduced (R 2.1).
    pub casualty: (u8, Option<u8>),
    pub suppression: SuppressionLevel,
}

/// How many faces of the die give each effect on the unit; they add up to
/// `faces`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireOdds {
    /// Nothing changes: a miss, or a Suppression step on a unit already
    /// Fully Suppressed (R 6.2).
    pub no_effect: u8,
    /// One Suppression step that changes the unit's marker, to
    /// `suppressed_to` (R 7.0).
    pub suppressed: u8,
    /// Reduced and Fully Suppressed (R 6.2, R 8.0).
    pub reduced: u8,
    /// Eliminated, including a Reduced unit Reduced again (R 8.0).
    pub eliminated: u8,
    /// The faces of the die (R 2.0).
    pub faces: u8,
    /// The marker a Suppression step leaves.
    pub suppressed_to: SuppressionLevel,
}

impl FireOdds {
    /// `count` faces as a probability.
    pub fn fraction(&self, count: u8) -> f32 {
        f32::from(count) / f32::from(self.faces)
    }

    pub fn p_no_effect(&self) -> f32 {
        self.fraction(self.no_effect)
    }

    pub fn p_suppressed(&self) -> f32 {
        self.fraction(self.suppressed)
    }

    pub fn p_reduced(&self) -> f32 {
        self.fraction(self.reduced)
    }

    pub fn p_eliminated(&self) -> f32 {
        self.fraction(self.eliminated)
    }
}

/// The chances of an attack at `fp` against one unit (R 6.1, R 6.2): every
/// face of the die resolved exactly as [`resolve`] would.
pub fn fire_odds(
    aid: &PlayerAid,
    fp: Fp,
    target: OddsTarget,
    within_normal_range: bool,
    adjacent: bool,
) -> FireOdds {
    let faces = aid.constants.die_faces;
    let mut odds = FireOdds {
        no_effect: 0,
        suppressed: 0,
        reduced: 0,
        eliminated: 0,
        faces,
        suppressed_to: super::fire::suppression_step(target.suppression),
    };
    for face in 1..=faces {
        let outcome = resolve(
            aid,
            D10(face),
            fp,
            target.casualty,
            within_normal_range,
            adjacent,
        );
        let slot = match outcome {
            FireOutcome::NoEffect => &mut odds.no_effect,
            FireOutcome::Suppressed
                if suppression_after(target.suppression, outcome) == Some(target.suppression) =>
            {
                &mut odds.no_effect
            }
            FireOutcome::Suppressed => &mut odds.suppressed,
            FireOutcome::Reduced => &mut odds.reduced,
            FireOutcome::Eliminated => &mut odds.eliminated,
        };
        *slot += 1;
    }
    odds
}

/// The chances of a built attack against one unit.
pub fn breakdown_odds(aid: &PlayerAid, attack: &FpBreakdown, target: OddsTarget) -> FireOdds {
    fire_odds(
        aid,
        attack.total,
        target,
        attack.within_normal_range,
        attack.adjacent,
    )
}

/// The chance a Morale Check passes (R 7.1): a roll ≤ Morale passes; a
/// Morale of 10 or more passes with no roll, unless the unit is Withdrawing
/// from an enemy-occupied hex (R 5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoraleChance {
    /// Faces that pass.
    pub passes: u8,
    pub faces: u8,
    /// False when the check passes with no roll.
    pub needs_roll: bool,
}

impl MoraleChance {
    pub fn p(&self) -> f32 {
        f32::from(self.passes) / f32::from(self.faces)
    }

    /// With a CP re-roll of a failed check (R 3.0 use 1): passing faces
    /// out of faces², i.e. p + (1 − p)·p exactly.
    pub fn with_cp_reroll(&self) -> (u16, u16) {
        let p = u16::from(self.passes);
        let n = u16::from(self.faces);
        (p * n + (n - p) * p, n * n)
    }
}

/// The chance a Morale Check at `morale` passes (R 7.1, R 5.1).
pub fn morale_check(aid: &PlayerAid, morale: Morale, withdrawing: bool) -> MoraleChance {
    let faces = aid.constants.die_faces;
    let auto = morale.0 >= aid.constants.morale_auto_pass && !withdrawing;
    MoraleChance {
        passes: if auto { faces } else { morale.0.min(faces) },
        faces,
        needs_roll: !auto,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Hexes;
    use crate::rules::fire::{FireContext, FireKind, Firer, Motion, infantry_fp};

    fn aid() -> PlayerAid {
        crate::scenario::builtin_player_aid().expect("player aid builds")
    }

    fn fresh(casualty: (u8, Option<u8>)) -> OddsTarget {
        OddsTarget {
            casualty,
            suppression: SuppressionLevel::None,
        }
    }

    fn counts(o: &FireOdds) -> [u8; 4] {
        [o.no_effect, o.suppressed, o.reduced, o.eliminated]
    }

    /// R 67.0: the German Op Fire at 9 FP against a Full-Strength 4/7
    /// Russian: 1–2 eliminate (2 + 7 = 9), 3–5 Reduce (5 + 4 = 9), 6–9
    /// Suppress, 10 never.
    #[test]
    fn nine_fp_against_4_7() {
        let o = fire_odds(&aid(), Fp(9), fresh((4, Some(7))), true, false);
        assert_eq!(counts(&o), [1, 4, 3, 2]);
        assert_eq!(o.faces, 10);
        assert_eq!(o.p_eliminated(), 0.2);
        assert_eq!(o.p_reduced(), 0.3);
        assert_eq!(o.suppressed_to, SuppressionLevel::Suppressed);
    }

    /// Every FP from −3 to 20, Full and Reduced, any range flag: the four
    /// counts add to exactly 10 of 10, and a 10 is always No Effect.
    #[test]
    fn odds_sum_to_ten() {
        let aid = aid();
        for fp in -3..=20 {
            for casualty in [(4, Some(8)), (3, Some(7)), (5, None), (4, None)] {
                for suppression in [
                    SuppressionLevel::None,
                    SuppressionLevel::Suppressed,
                    SuppressionLevel::Full,
                ] {
                    for (normal, adjacent) in [(false, false), (true, false), (true, true)] {
                        let o = fire_odds(
                            &aid,
                            Fp(fp),
                            OddsTarget {
                                casualty,
                                suppression,
                            },
                            normal,
                            adjacent,
                        );
                        let sum: u8 = counts(&o).iter().sum();
                        assert_eq!(sum, 10, "fp {fp} {casualty:?} {suppression:?}");
                        assert!(o.no_effect >= 1, "a 10 is No Effect: fp {fp}");
                    }
                }
            }
        }
    }

    /// R 6.1 at 0 FP: only the 1 counts — a Suppression within normal
    /// Range, a Reduction adjacent (elimination if already Reduced),
    /// nothing at long range.
    #[test]
    fn zero_fp_only_the_one() {
        let aid = aid();
        let full = fresh((4, Some(8)));
        assert_eq!(
            counts(&fire_odds(&aid, Fp(0), full, true, false)),
            [9, 1, 0, 0]
        );
        assert_eq!(
            counts(&fire_odds(&aid, Fp(0), full, true, true)),
            [9, 0, 1, 0]
        );
        assert_eq!(
            counts(&fire_odds(&aid, Fp(0), fresh((5, None)), true, true)),
            [9, 0, 0, 1]
        );
        assert_eq!(
            counts(&fire_odds(&aid, Fp(0), full, false, false)),
            [10, 0, 0, 0]
        );
    }

    /// R 6.2: a Fully Suppressed unit suffers nothing from a Suppression
    /// step; a Suppressed one goes to Fully Suppressed.
    #[test]
    fn current_suppression_counts() {
        let aid = aid();
        let mut t = fresh((4, Some(8)));
        t.suppression = SuppressionLevel::Full;
        let o = fire_odds(&aid, Fp(5), t, true, false);
        // 1 Reduces (1 + 4 = 5); 2–5 would only Suppress.
        assert_eq!(counts(&o), [9, 0, 1, 0]);
        t.suppression = SuppressionLevel::Suppressed;
        let o = fire_odds(&aid, Fp(5), t, true, false);
        assert_eq!(counts(&o), [5, 4, 1, 0]);
        assert_eq!(o.suppressed_to, SuppressionLevel::Full);
    }

    /// The R 43.0 Fire Lane attack (10 FP, adjacent) against the Marine
    /// squad (4/8): 1–2 eliminate, 3–6 Reduce, 7–9 Suppress.
    #[test]
    fn odds_of_a_built_attack() {
        let aid = aid();
        let roster = crate::scenario::builtin_roster().unwrap();
        let mg = Firer::of(roster.get("jap_mg").unwrap(), false);
        let mut ctx = FireContext::new(FireKind::OpFire, mg, Hexes(1), "jungle");
        ctx.target_motion = Motion::Moving {
            open_ground: false,
            on_path: false,
        };
        ctx.fire_lane = true;
        let attack = infantry_fp(&aid, &ctx).unwrap();
        let marines = roster.get("marine42_squad").unwrap().full.casualty;
        let o = breakdown_odds(&aid, &attack, fresh(marines));
        assert_eq!(counts(&o), [1, 3, 4, 2]);
    }

    /// R 7.1: roll ≤ Morale passes; 10 passes with no roll, except when
    /// Withdrawing (R 5.1); a CP re-roll (R 3.0).
    #[test]
    fn morale_check_chances() {
        let aid = aid();
        let ten = morale_check(&aid, Morale(10), false);
        assert_eq!((ten.passes, ten.needs_roll), (10, false));
        assert_eq!(ten.p(), 1.0);
        let eleven = morale_check(&aid, Morale(11), false);
        assert_eq!((eleven.passes, eleven.needs_roll), (10, false));
        let withdrawing = morale_check(&aid, Morale(10), true);
        assert_eq!((withdrawing.passes, withdrawing.needs_roll), (10, true));
        let six = morale_check(&aid, Morale(6), false);
        assert_eq!((six.passes, six.faces, six.needs_roll), (6, 10, true));
        assert_eq!(six.p(), 0.6);
        assert_eq!(six.with_cp_reroll(), (84, 100));
        let one = morale_check(&aid, Morale(1), false);
        assert_eq!((one.passes, one.needs_roll), (1, true));
        assert_eq!(one.with_cp_reroll(), (19, 100));
    }
}
