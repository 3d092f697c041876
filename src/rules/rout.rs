//! Rout checks and Rout casualties — R 11.0, R 11.1 (the casualty margin),
//! R 11.2 (No Quarter Morale). The rout move itself comes with the Rout
//! Phase.

use crate::rules::{D10, Morale};
use crate::scenario::player_aid::PlayerAid;

/// What a Rout Phase MC did (R 11.0, R 11.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoutResult {
    /// Passed: the unit stays.
    Stays,
    /// Failed: the unit routs.
    Routs,
    /// Failed by at least the Casualty number: it routs, then is Reduced
    /// (eliminated if already Reduced) and Fully Suppressed (R 11.1).
    RoutsReduced,
}

/// Which Casualty number measures a failed Rout MC (R 11.1): the second
/// number of a Full-Strength unit, unless it is in Melee or adjacent to an
/// enemy not in Melee, when the first (or only) number counts.
pub fn rout_casualty_number(casualty: (u8, Option<u8>), in_melee_or_adjacent: bool) -> u8 {
    match casualty {
        (_, Some(second)) if !in_melee_or_adjacent => second,
        (first, _) => first,
    }
}

/// Resolves a Rout MC: passed on a roll at most the Morale (10 passes with no
/// roll, R 7.1); failed by the Casualty number or more, Reduced after routing.
pub fn rout_check(
    aid: &PlayerAid,
    morale: Morale,
    roll: D10,
    casualty: (u8, Option<u8>),
    in_melee_or_adjacent: bool,
) -> RoutResult {
    if morale.0 >= aid.constants.morale_auto_pass || roll.0 <= morale.0 {
        return RoutResult::Stays;
    }
    let margin = roll.0 - morale.0;
    if margin >= rout_casualty_number(casualty, in_melee_or_adjacent) {
        RoutResult::RoutsReduced
    } else {
        RoutResult::Routs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R 11.1 example: a Fully Suppressed 4/7 Squad (Morale 1) in Open Ground
    /// is unaffected on a 1, routs on 2–7, is Reduced on 8 or higher; if
    /// adjacent to an enemy, Reduced on 5 or higher.
    #[test]
    fn r11_1_example_casualty_margins() {
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let results: Vec<RoutResult> = (1..=10)
            .map(|r| rout_check(&aid, Morale(1), D10(r), (4, Some(7)), false))
            .collect();
        use RoutResult::*;
        assert_eq!(
            results,
            [
                Stays,
                Routs,
                Routs,
                Routs,
                Routs,
                Routs,
                Routs,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced
            ]
        );
        let adjacent: Vec<RoutResult> = (1..=10)
            .map(|r| rout_check(&aid, Morale(1), D10(r), (4, Some(7)), true))
            .collect();
        assert_eq!(
            adjacent,
            [
                Stays,
                Routs,
                Routs,
                Routs,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced
            ]
        );
        // A Reduced unit has only one number, whatever its position.
        assert_eq!(rout_casualty_number((4, None), false), 4);
        // Morale 10 passes with no roll (R 7.1).
        assert_eq!(
            rout_check(&aid, Morale(10), D10(10), (4, Some(7)), true),
            Stays
        );
    }
}
