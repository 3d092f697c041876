//! The Monsoon — R 55.2: while Monsoon rules are in effect, the player that
//! goes first makes a Monsoon Storm Check in the Recovery Phase until it
//! starts or stops raining: one die; a roll in the scenario's range starts a
//! deluge if it is dry and stops it if it rains; once it starts or stops,
//! no more rolls. While it rains: moving in Open Ground is +2 at range 1, +1
//! at range 2, +0 beyond (`rules::fire`, `Conditions::MonsoonRain`); the
//! maximum range is three hexes; Vehicles and Infantry move at most two
//! hexes a turn; no Smoke, Illumination, Muzzle Flash or Trip Flares.

use crate::scenario::schema::MonsoonStorm;

/// What one Storm Check did (R 55.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StormOutcome {
    /// The roll is outside the range: the weather holds, checks go on.
    Holds,
    /// A deluge starts; no more checks.
    Starts,
    /// The rain stops; no more checks.
    Stops,
}

/// The weather after a Storm Check rolling `roll` with it `raining` now.
pub fn storm_check(storm: &MonsoonStorm, raining: bool, roll: u8) -> StormOutcome {
    if roll < storm.from || roll > storm.to {
        StormOutcome::Holds
    } else if raining {
        StormOutcome::Stops
    } else {
        StormOutcome::Starts
    }
}

/// Whether a move of `hexes` hexes is within the rain's limit of `max`
/// hexes a turn (R 55.2); `Err` with the first step beyond it (1-based).
pub fn check_hexes(hexes: usize, max: u8) -> Result<(), usize> {
    if hexes > usize::from(max) {
        Err(usize::from(max) + 1)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R 55.2: in the range the weather changes, outside it holds.
    #[test]
    fn r55_2_a_roll_in_the_range_starts_or_stops_the_deluge() {
        let storm = MonsoonStorm {
            from: 1,
            to: 3,
            raining: false,
        };
        let dry: Vec<StormOutcome> = (1..=10).map(|r| storm_check(&storm, false, r)).collect();
        assert_eq!(
            dry,
            [
                StormOutcome::Starts,
                StormOutcome::Starts,
                StormOutcome::Starts,
                StormOutcome::Holds,
                StormOutcome::Holds,
                StormOutcome::Holds,
                StormOutcome::Holds,
                StormOutcome::Holds,
                StormOutcome::Holds,
                StormOutcome::Holds,
            ]
        );
        assert_eq!(storm_check(&storm, true, 3), StormOutcome::Stops);
        assert_eq!(storm_check(&storm, true, 4), StormOutcome::Holds);
    }

    /// R 55.2: no fire beyond three hexes in the rain; in the dry a Squad
    /// of Range 6 fires four hexes.
    #[test]
    fn r55_2_max_range_three_hexes() {
        use crate::rules::Hexes;
        use crate::rules::fire::{Conditions, FireContext, FireKind, Firer, infantry_fp};
        let roster = crate::scenario::builtin_roster().unwrap();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let ut = roster.get("jap_squad").unwrap();
        let mut ctx = FireContext::new(FireKind::Normal, Firer::of(ut, false), Hexes(4), "open");
        assert!(infantry_fp(&aid, &ctx).is_ok());
        ctx.conditions = Conditions::MonsoonRain;
        assert_eq!(
            infantry_fp(&aid, &ctx).unwrap_err().to_string(),
            "target 4 hexes away: in the Monsoon rain no fire beyond 3 hexes (R 55.2)"
        );
        ctx.range = Hexes(3);
        ctx.adjacent = false;
        assert!(infantry_fp(&aid, &ctx).is_ok());
    }

    /// R 55.2: at most two hexes a turn in the rain; the third step is the
    /// one refused.
    #[test]
    fn r55_2_two_hexes_a_turn() {
        assert_eq!(check_hexes(1, 2), Ok(()));
        assert_eq!(check_hexes(2, 2), Ok(()));
        assert_eq!(check_hexes(3, 2), Err(3));
    }
}
