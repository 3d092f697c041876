//! Operations Range — R 4.0 (Operations Phase), R 4.1 (Operations Range).
//!
//! The bookkeeping of one side's Ops Range: how much each Use counts, whether
//! a further Use fits, and whether the side must pass. Pure: the engine asks,
//! this answers, with typed reasons for the interface's greyed buttons.

use crate::scenario::player_aid::Constants;
use crate::scenario::schema::OpsRange;

/// What is being Used (R 4.0: units and assets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UseKind {
    /// An infantry unit or Decoy.
    Infantry,
    /// A Gun or Vehicle (R 20.0).
    GunOrVehicle,
    /// An asset: Artillery, Aircraft, Illumination (R 4.0).
    Asset,
}

/// How much a Use counts against the Ops Range (R 4.1): Guns, Vehicles and
/// Artillery count three; a unit or Decoy that starts and ends its Use
/// Concealed always counts one, even a Gun or Vehicle.
pub fn use_cost(c: &Constants, kind: UseKind, concealed_throughout: bool) -> u8 {
    match kind {
        UseKind::Infantry => c.ops_cost_concealed,
        UseKind::GunOrVehicle if concealed_throughout => c.ops_cost_concealed,
        UseKind::GunOrVehicle | UseKind::Asset => c.ops_cost_asset,
    }
}

/// Why a Use is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpsRefusal {
    /// It would exceed the maximum (R 4.1): `used` so far, `cost` of this one.
    OverMaximum { used: u8, cost: u8, max: u8 },
}

impl std::fmt::Display for OpsRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpsRefusal::OverMaximum { used, cost, max } => write!(
                f,
                "Ops Range full {used}/{max}: this Use counts {cost} (R 4.1)"
            ),
        }
    }
}

/// One side's current Ops Range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpsTally {
    pub range: OpsRange,
    /// Units counted so far in this Ops Range.
    pub used: u8,
}

impl OpsTally {
    pub fn new(range: OpsRange) -> Self {
        OpsTally { range, used: 0 }
    }

    /// May a Use of this cost be made now? (R 4.1: never above the maximum.)
    pub fn check(&self, cost: u8) -> Result<(), OpsRefusal> {
        if self.used.saturating_add(cost) > self.range.max {
            return Err(OpsRefusal::OverMaximum {
                used: self.used,
                cost,
                max: self.range.max,
            });
        }
        Ok(())
    }

    /// Counts a Use that was checked.
    pub fn record(&mut self, cost: u8) {
        self.used = self.used.saturating_add(cost);
    }

    /// Has the minimum been reached (so the player may pass)?
    pub fn minimum_met(&self) -> bool {
        self.used >= self.range.min
    }

    /// Must play pass now? Yes when the maximum is reached, or when the
    /// minimum is not yet met but no remaining Use fits under the maximum
    /// (R 4.1: "unless it is impossible to select another unit without
    /// exceeding the maximum"), or when nothing is left to Use. The costs
    /// are read only until one fits.
    pub fn must_pass(&self, remaining_costs: impl IntoIterator<Item = u8>) -> bool {
        if self.used >= self.range.max {
            return true;
        }
        !remaining_costs.into_iter().any(|c| self.check(c).is_ok())
    }

    /// May the player pass by choice now? Only with the minimum met, or when
    /// passing is forced.
    pub fn may_pass(&self, remaining_costs: impl IntoIterator<Item = u8>) -> bool {
        self.minimum_met() || self.must_pass(remaining_costs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constants() -> Constants {
        crate::scenario::builtin_player_aid()
            .expect("player aid builds")
            .constants
    }

    fn range(min: u8, max: u8) -> OpsRange {
        OpsRange { min, max }
    }

    /// R 4.1 example: with an Ops Range of 3–6, an infantry unit and an
    /// Artillery asset make four; a Vehicle (three more) would exceed six.
    #[test]
    fn r4_1_example_artillery_then_no_vehicle() {
        let c = constants();
        let mut t = OpsTally::new(range(3, 6));
        let inf = use_cost(&c, UseKind::Infantry, false);
        t.check(inf).unwrap();
        t.record(inf);
        let art = use_cost(&c, UseKind::Asset, false);
        assert_eq!(art, 3);
        t.check(art).unwrap();
        t.record(art);
        assert_eq!(t.used, 4);
        let veh = use_cost(&c, UseKind::GunOrVehicle, false);
        assert_eq!(
            t.check(veh),
            Err(OpsRefusal::OverMaximum {
                used: 4,
                cost: 3,
                max: 6
            })
        );
        assert_eq!(
            t.check(veh).unwrap_err().to_string(),
            "Ops Range full 4/6: this Use counts 3 (R 4.1)"
        );
        // An infantry unit still fits, and the minimum of three is met.
        assert!(t.check(inf).is_ok());
        assert!(t.minimum_met());
    }

    /// R 4.1: a unit that starts and ends its Use Concealed counts one, even
    /// a Gun or Vehicle.
    #[test]
    fn concealed_guns_count_one() {
        let c = constants();
        assert_eq!(use_cost(&c, UseKind::GunOrVehicle, true), 1);
        assert_eq!(use_cost(&c, UseKind::GunOrVehicle, false), 3);
        assert_eq!(use_cost(&c, UseKind::Asset, true), 3);
    }

    /// R 4.1: below the minimum a player may not pass, unless nothing left
    /// fits under the maximum; at the maximum play passes.
    #[test]
    fn passing() {
        let mut t = OpsTally::new(range(2, 4));
        assert!(!t.may_pass([1, 1, 3]));
        t.record(1);
        assert!(!t.may_pass([1, 3]));
        // Only a three-count Use is left and it would exceed 4 after 2 more.
        t.record(2);
        assert!(t.must_pass([3]));
        assert!(t.may_pass([3]));
        t.record(1);
        assert!(t.must_pass([1]), "at the maximum play passes");
        // Nothing left to Use: pass.
        let empty = OpsTally::new(range(1, 3));
        assert!(empty.must_pass([]));
    }
}
