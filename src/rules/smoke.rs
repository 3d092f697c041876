//! Smoke — R 48.0 (one Smoke or Dispersed Smoke counter a hex; Smoke placed
//! on Dispersed Smoke flips it; Recovery removes Dispersed Smoke, then flips
//! Smoke to Dispersed; the attack is impacted by the worst Smoke it touches),
//! R 48.1 (Smoke Grenades: a moving Squad, its own or an adjacent non-water
//! hex, the MP of entering it, one per Activation), R 48.2 / R 59.3 (GD
//! Squads place Dispersed Smoke within LOS and normal range instead of
//! moving), R 13.0 (the Recovery Phase).

use crate::rules::fire::Smoke;

/// A hex's Smoke counter, by side shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SmokeSide {
    Dispersed,
    Smoke,
}

impl SmokeSide {
    pub fn name(self) -> &'static str {
        match self {
            SmokeSide::Smoke => "Smoke",
            SmokeSide::Dispersed => "Dispersed Smoke",
        }
    }
}

/// The counter in a hex after `placed` is put there, given what it held
/// (R 48.0): never more than one counter; Smoke on Dispersed Smoke flips it
/// to Smoke; Dispersed Smoke adds nothing to a counter already there.
pub fn after_placing(held: Option<SmokeSide>, placed: SmokeSide) -> SmokeSide {
    held.map_or(placed, |h| h.max(placed))
}

/// The counter after the Recovery Phase (R 13.0, R 48.0): Dispersed Smoke is
/// removed, Smoke flips to Dispersed Smoke.
pub fn after_recovery(held: SmokeSide) -> Option<SmokeSide> {
    match held {
        SmokeSide::Smoke => Some(SmokeSide::Dispersed),
        SmokeSide::Dispersed => None,
    }
}

/// The Smoke an attack is impacted by (R 48.0): the fire comes out of,
/// crosses or goes into these counters; several do not add up, and Smoke
/// outweighs Dispersed Smoke.
pub fn on_line(counters: impl IntoIterator<Item = SmokeSide>) -> Smoke {
    match counters.into_iter().max() {
        Some(SmokeSide::Smoke) => Smoke::Smoke,
        Some(SmokeSide::Dispersed) => Smoke::Dispersed,
        None => Smoke::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SmokeSide::{Dispersed, Smoke as Full};

    /// R 48.0: "There will never be more than one Smoke/Dispersed Smoke
    /// counter in a hex"; Smoke placed on Dispersed Smoke flips it.
    #[test]
    fn r48_0_one_counter_a_hex() {
        assert_eq!(after_placing(None, Dispersed), Dispersed);
        assert_eq!(after_placing(None, Full), Full);
        assert_eq!(after_placing(Some(Full), Full), Full);
        assert_eq!(after_placing(Some(Dispersed), Full), Full);
        assert_eq!(after_placing(Some(Full), Dispersed), Full);
        assert_eq!(after_placing(Some(Dispersed), Dispersed), Dispersed);
    }

    /// R 13.0, R 48.0: Dispersed Smoke goes, then Smoke becomes Dispersed.
    #[test]
    fn r13_0_recovery_flips_and_removes() {
        assert_eq!(after_recovery(Full), Some(Dispersed));
        assert_eq!(after_recovery(Dispersed), None);
    }

    /// R 48.0: fire through several Smoke hexes is not penalised more; the
    /// worst counter on the line counts.
    #[test]
    fn r48_0_the_worst_smoke_on_the_line() {
        assert_eq!(on_line([]), Smoke::None);
        assert_eq!(on_line([Dispersed, Dispersed]), Smoke::Dispersed);
        assert_eq!(on_line([Dispersed, Full, Full]), Smoke::Smoke);
    }
}
