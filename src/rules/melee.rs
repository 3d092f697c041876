//! Melee — R 12.0 (two dice per unit against its Melee FP, each die at or
//! under one casualty), R 12.2 (Flank +1). Allocation and the Melee Phase
//! flow come with issue 4.

use crate::rules::D10;
use crate::scenario::player_aid::PlayerAid;
use crate::scenario::roster::{CounterSide, UnitClass};

/// A unit's Melee FP (R 12.0): the subscript if printed, else its Normal FP
/// (not Prof); Guns and Full-Strength WTs 2, Reduced WTs 1; +1 with a Flank
/// counter (R 12.2).
pub fn melee_fp(
    aid: &PlayerAid,
    class: UnitClass,
    side: &CounterSide,
    reduced: bool,
    flank: bool,
) -> u8 {
    let c = &aid.constants;
    let base = if class.is_gun() {
        c.melee_fp_gun
    } else if class.is_weapon_team() {
        if reduced {
            c.melee_fp_wt_reduced
        } else {
            c.melee_fp_wt_full
        }
    } else {
        side.melee.unwrap_or(side.fp)
    };
    base + u8::from(flank)
}

/// Casualties a unit's Melee dice inflict: one per die at or under its Melee
/// FP (R 12.0).
pub fn melee_hits(fp: u8, dice: &[D10]) -> u8 {
    dice.iter().filter(|d| d.0 <= fp).count() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R 12.0 example: an Airborne Squad (FP 6) rolls 3 and 6: two
    /// Reductions, eliminating the German; the German 1st Line Squad (FP 5)
    /// rolls 1 and 6: one Reduction of the Airborne unit.
    #[test]
    fn r12_example_airborne_against_first_line() {
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let roster = crate::scenario::builtin_roster().unwrap();
        let para = roster.get("para_squad").unwrap();
        let ger = roster.get("ger1_squad").unwrap();
        let para_fp = melee_fp(&aid, para.class, &para.full, false, false);
        let ger_fp = melee_fp(&aid, ger.class, &ger.full, false, false);
        assert_eq!((para_fp, ger_fp), (6, 5));
        assert_eq!(melee_hits(para_fp, &[D10(3), D10(6)]), 2);
        assert_eq!(melee_hits(ger_fp, &[D10(1), D10(6)]), 1);
    }

    #[test]
    fn weapon_teams_subscripts_and_flank() {
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let roster = crate::scenario::builtin_roster().unwrap();
        let mg = roster.get("para_mg").unwrap();
        assert_eq!(melee_fp(&aid, mg.class, &mg.full, false, false), 2);
        assert_eq!(melee_fp(&aid, mg.class, &mg.reduced, true, false), 1);
        let marine = roster.get("marine42_squad").unwrap();
        // Marines fight with their subscript (5), +1 with a Flank counter.
        assert_eq!(melee_fp(&aid, marine.class, &marine.full, false, true), 6);
    }
}
