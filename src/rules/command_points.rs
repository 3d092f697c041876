//! Command Points — R 3.0: the six functions a CP may be spent on.
//! How and when they are spent is the engine's (`engine::command_points`).

use serde::{Deserialize, Serialize};

/// The six uses of a CP, numbered as in R 3.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CpFunction {
    /// 1. Re-roll an infantry MC.
    Reroll,
    /// 2. The second player acts first with this unit.
    ActFirst,
    /// 3. A Used unit Final Op Fires beyond one hex, within normal Range.
    FinalOpFireRange,
    /// 4. Re-roll a Melee roll (one per side per Melee per turn).
    MeleeReroll,
    /// 5. +1 Prof FP before one attack, not above Normal FP.
    ProfFp,
    /// 6. Follow Me!: +1 MP for an unmounted infantry unit this phase.
    FollowMe,
}

impl CpFunction {
    /// Its number in R 3.0.
    pub fn number(self) -> u8 {
        match self {
            CpFunction::Reroll => 1,
            CpFunction::ActFirst => 2,
            CpFunction::FinalOpFireRange => 3,
            CpFunction::MeleeReroll => 4,
            CpFunction::ProfFp => 5,
            CpFunction::FollowMe => 6,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            CpFunction::Reroll => "re-roll a failed MC",
            CpFunction::ActFirst => "act before the first player",
            CpFunction::FinalOpFireRange => "Final Op Fire beyond one hex",
            CpFunction::MeleeReroll => "re-roll its Melee dice",
            CpFunction::ProfFp => "+1 Prof FP for one attack",
            CpFunction::FollowMe => "Follow Me! +1 MP this phase",
        }
    }

    /// The rules it cites, for log lines.
    pub fn rule(self) -> &'static str {
        match self {
            CpFunction::Reroll => "R 3.0 #1",
            CpFunction::ActFirst => "R 3.0 #2, R 4.0",
            CpFunction::FinalOpFireRange => "R 3.0 #3, R 10.0",
            CpFunction::MeleeReroll => "R 3.0 #4, R 12.0",
            CpFunction::ProfFp => "R 3.0 #5, R 9.0",
            CpFunction::FollowMe => "R 3.0 #6, R 5.4",
        }
    }
}
