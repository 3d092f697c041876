//! Orders a player (a person, the bot, a script, a journal) gives the game,
//! and the typed reasons an order is refused — checked before anything is
//! executed, and shown on the interface's greyed buttons.

use serde::{Deserialize, Serialize};

use crate::rules::ops_range::OpsRefusal;
use crate::scenario::schema::{SideId, Spine};

/// One order of the Operations Phase (R 4.0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Order {
    /// Mark a unit Used without an action (R 4.2).
    MarkUsed { unit: String },
    /// Mark a unit Op Fire, optionally turning it as it is marked (R 4.3).
    MarkOpFire {
        unit: String,
        #[serde(default)]
        facing: Option<Spine>,
    },
    /// Use an Unused Gun to change its facing, without firing (R 43.3: in a
    /// Pillbox, R 43.5: in a Fortified building; anywhere a Gun may turn).
    Turn { unit: String, facing: Spine },
    /// Move a unit through these hexes, in order (R 5.0). A unit starting in
    /// an enemy hex Withdraws (R 5.1). Options: a Declared Retreat (R 5.3),
    /// Assault Fire at a hex after the last one (R 5.2), a Fireteam's Assault
    /// Fire before or mid move (R 58.3).
    Move {
        unit: String,
        path: Vec<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        declared_retreat: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        assault_fire: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fireteam_fire: Option<FireteamFire>,
        /// A Smoke Grenade thrown during the move (R 48.1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        smoke_grenade: Option<SmokeGrenade>,
        /// A Japanese "S" Squad declares Seishin for this move (R 59.5).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        seishin: bool,
        /// The facing the unit adopts at the end of its move, where facing
        /// is in use (R 2.2); without it the unit keeps its facing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Spine>,
    },
    /// Fire at the units in a hex (R 6.0), turning to `facing` as it fires
    /// when given (R 6.0: -1 FP; facing in use only, R 2.2).
    Fire {
        unit: String,
        target: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Spine>,
    },
    /// The answer to an Op Fire window: these units fire, in order; an
    /// empty list passes (R 9.0). `facing` turns firers as they fire
    /// (R 6.0, R 10.1).
    OpFire {
        firers: Vec<String>,
        #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
        facing: std::collections::BTreeMap<String, Spine>,
    },
    /// End this Ops Range: play passes to the opponent (R 4.1).
    Pass,
    /// Spend or ready a Command Point on a unit (R 3.0, R 3.1, R 5.4).
    Cp {
        unit: String,
        function: super::command_points::CpFunction,
    },
    /// The answer to a CP re-roll offer (R 3.0): the unit whose MC or Melee
    /// dice are rolled again, or none.
    CpReroll {
        #[serde(default)]
        unit: Option<String>,
    },
    /// The answer to a Rout destination choice (R 11.0), with the facing
    /// the unit adopts at the end of its rout where facing is in use
    /// (R 2.2); without one it keeps its facing.
    Rout {
        unit: String,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Spine>,
    },
    /// The answer to a revealed unit's facing (R 2.2): the facing it takes
    /// as it loses its Conceal counter; without one it keeps its own.
    Face {
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Spine>,
    },
    /// The first player's choice of the next Melee (R 12.0).
    Melee { at: String },
    /// The owner's allocation of Melee casualties: one unit id per
    /// Reduction (R 12.0).
    Casualties { units: Vec<String> },
    /// Where a reinforcement enters (R 16.1, R 18.0).
    Place { unit: String, at: String },
    /// Keep a reinforcement off board until a later turn (R 18.0).
    Hold { unit: String },
    /// The answer to a Combat Event choice: the units (or the entry
    /// number) picked by the player rolling on the table (R 17.0).
    CombatEvent { picks: Vec<String> },
    /// Place one of the side's Illumination counters in `at`, within
    /// range of its unit `unit` not in Melee; it counts as one unit in the
    /// Ops Range (R 4.0, R 50.1).
    Illuminate { unit: String, at: String },
    /// At Night, Use a Concealed unit to bring back the removed Decoy
    /// `decoy` in its hex (R 50.3).
    RegenerateDecoy { unit: String, decoy: String },
    /// A GD Squad places Dispersed Smoke instead of moving (R 59.3), or a
    /// Mortar WT fires Smoke (by SSR), into a hex in LOS and range.
    PlaceSmoke { unit: String, at: String },
    /// A Squad spends its whole move to remove the Wire or Roadblock in its
    /// hex (R 43.6, R 43.7).
    Clear { unit: String },
    /// The answer to the Banzai announcement's GD choice: the GD Squads
    /// that charge too (R 59.6).
    BanzaiGd { units: Vec<String> },
    /// The answer to the Banzai announcement: the Allied units marked Op
    /// Fire before any action, outside the Ops Range (R 59.6).
    BanzaiOpFire { units: Vec<String> },
    /// The answer to the Banzai question at the start of a turn of an open
    /// window: announce the charge now, or wait for a later turn of the
    /// window (R 59.6).
    BanzaiAnnounce { now: bool },
}

/// A Smoke Grenade thrown by a moving Squad (R 48.1): after entering
/// `after` hexes of the path (0: before moving), into `at`, its own or an
/// adjacent hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmokeGrenade {
    pub after: usize,
    pub at: String,
}

/// A Fireteam Squad's Assault Fire before or mid move (R 58.3): after
/// entering `after` hexes of the path (0: before moving), at `target`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireteamFire {
    pub after: usize,
    pub target: String,
}

impl Order {
    /// The order as a script writes it (`move(unit:"A4",path:["D5"])`),
    /// for messages about a script's or a journal's orders.
    pub fn script_text(&self) -> String {
        ron::to_string(self).unwrap_or_else(|_| format!("{self:?}"))
    }

    /// The answer with the facing its unit adopts (R 2.2), for the answers
    /// that name one (a Rout, a revealed unit's facing); others unchanged.
    pub fn with_facing(mut self, picked: Option<Spine>) -> Order {
        if let Order::Rout { facing, .. } | Order::Face { facing, .. } = &mut self {
            *facing = picked;
        }
        self
    }

    /// A plain move along `path`, with no Withdrawal option, Declared
    /// Retreat or Assault Fire (R 5.0).
    pub fn plain_move(unit: impl Into<String>, path: Vec<String>) -> Order {
        Order::Move {
            unit: unit.into(),
            path,
            declared_retreat: false,
            assault_fire: None,
            fireteam_fire: None,
            smoke_grenade: None,
            seishin: false,
            facing: None,
        }
    }
}

/// Why an order is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotOperationsPhase,
    UnknownUnit {
        unit: crate::world::UnitId,
    },
    NotYourUnit {
        unit: crate::world::UnitId,
        acting: SideId,
    },
    AlreadyUsed {
        unit: crate::world::UnitId,
    },
    AlreadyOpFire {
        unit: crate::world::UnitId,
    },
    OpsRange(OpsRefusal),
    /// The minimum of the Ops Range is not met and a Use still fits (R 4.1).
    MustUseMinimum {
        used: u8,
        min: u8,
    },
    /// A move with no hexes.
    EmptyPath,
    /// Not a hex of this map.
    BadHex {
        label: String,
    },
    /// Step `n` of a move cannot be taken.
    Step {
        n: usize,
        to: String,
        reason: String,
    },
    /// Entering an enemy hex ends the move (R 5.0).
    PastEnemy {
        at: String,
    },
    /// The move would end over the stacking limit (R 2.0).
    OverStacked {
        at: String,
        limit: u8,
    },
    /// Fire into a location with friendly infantry (R 6.1).
    FriendlyInTarget {
        at: String,
    },
    /// Fire from a location with an enemy unit (R 6.1).
    EnemyInOwnHex,
    /// No enemy unit in the target hex.
    NoTarget {
        at: String,
    },
    /// The attack itself is not allowed (range, kind of unit…).
    Fire {
        reason: String,
    },
    /// The game waits for an Op Fire answer first.
    DecisionPending {
        at: String,
    },
    /// No Op Fire window is open.
    NoDecisionPending,
    /// The unit may not Op Fire in this window.
    NotEligible {
        unit: crate::world::UnitId,
        at: String,
    },
    /// The side has no CP left this turn (R 3.0).
    CpNoneLeft {
        side: SideId,
    },
    /// Only one CP on a unit each turn (R 3.0).
    CpAlreadyOnUnit {
        unit: crate::world::UnitId,
    },
    /// The side's CPs left belong to other companies (R 3.1).
    CpWrongCompany {
        unit: crate::world::UnitId,
        company: String,
    },
    /// That CP function cannot be used here.
    CpNotApplicable {
        unit: crate::world::UnitId,
        reason: String,
    },
    /// One Melee re-roll CP per side in each Melee each turn (R 3.0 #4).
    CpMeleeAlreadySpent {
        side: SideId,
        at: String,
    },
    /// The facing a unit would fire with does not allow the attack (R 2.2,
    /// R 6.0, R 10.1).
    Facing {
        unit: crate::world::UnitId,
        reason: String,
    },
    /// A Japanese unit in an enemy hex may not move out (R 5.1, R 59.1).
    JapaneseNoWithdrawal {
        unit: crate::world::UnitId,
    },
    /// A Withdrawal may not enter another enemy hex (R 5.1).
    WithdrawalIntoEnemy {
        at: String,
    },
    /// No Assault Fire in a Declared Retreat (R 5.3).
    RetreatNoAssaultFire,
    /// The path breaks the Routing restrictions of a Declared Retreat
    /// (R 5.3, R 11.0).
    Retreat {
        n: usize,
        reason: String,
    },
    /// The unit may not Assault Fire (R 5.2, R 58.3): the reason says why.
    AssaultFire {
        reason: String,
    },
    /// A Fireteam that Assault Fires during the move may not Assault Fire
    /// at its end (R 58.3).
    AssaultFireTwice,
    /// The game waits for another decision first.
    DecisionAwaited {
        what: String,
    },
    /// An answer given when no decision is pending.
    NothingToAnswer,
    /// The answer does not fit the decision.
    WrongAnswer {
        reason: String,
    },
    /// A Japanese unit in Melee may only be marked Used or Op Fire (R 59.1).
    NoWithdrawal {
        unit: crate::world::UnitId,
    },
    /// The scenario is over (R 18.0).
    GameOver,
    /// A Banzai Charge rule (R 59.6).
    Banzai {
        unit: crate::world::UnitId,
        reason: String,
    },
    /// Wire or a Roadblock may not be removed so (R 43.6, R 43.7).
    Obstacle {
        unit: crate::world::UnitId,
        reason: String,
    },
    /// A Seishin declaration refused (R 59.5).
    Seishin {
        unit: crate::world::UnitId,
        reason: String,
    },
    /// A Combat Event waits for its choice first (R 17.0).
    CombatEventPending {
        side: SideId,
        count: usize,
        options: Vec<String>,
    },
    /// No Combat Event waits for a choice.
    NoCombatEventPending,
    /// The picks do not answer the Combat Event's question.
    CombatEventPick {
        reason: String,
    },
    /// A Night rule refuses it (R 50.0-50.3).
    Night {
        reason: String,
    },
    /// A Gun may not do that (R 20.0, R 20.2).
    Gun {
        unit: crate::world::UnitId,
        reason: String,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotOperationsPhase => write!(f, "not in the Operations Phase (R 4.0)"),
            Refusal::UnknownUnit { unit } => write!(f, "no unit `{unit}` in this game"),
            Refusal::NotYourUnit { unit, acting } => {
                write!(f, "{unit} is not a unit of the side to act ({acting:?})")
            }
            Refusal::AlreadyUsed { unit } => write!(f, "{unit} is Used (R 4.2)"),
            Refusal::AlreadyOpFire { unit } => write!(f, "{unit} is marked Op Fire (R 4.3)"),
            Refusal::OpsRange(r) => write!(f, "{r}"),
            Refusal::EmptyPath => write!(f, "a move needs at least one hex"),
            Refusal::BadHex { label } => write!(f, "`{label}` is not a hex of this map"),
            Refusal::Step { n, to, reason } => write!(f, "step {n} into {to}: {reason}"),
            Refusal::PastEnemy { at } => {
                write!(f, "entering the enemy hex {at} ends the move (R 5.0)")
            }
            Refusal::OverStacked { at, limit } => write!(
                f,
                "the move would end with more than {limit} Squads/WTs of a side in {at} (R 2.0)"
            ),
            Refusal::FriendlyInTarget { at } => {
                write!(f, "{at} holds friendly infantry: no fire into it (R 6.1)")
            }
            Refusal::EnemyInOwnHex => {
                write!(f, "no fire from a location with an enemy unit (R 6.1)")
            }
            Refusal::NoTarget { at } => write!(f, "no enemy unit in {at}"),
            Refusal::Fire { reason } => write!(f, "{reason}"),
            Refusal::DecisionPending { at } => {
                write!(
                    f,
                    "the Op Fire window at {at} must be answered first (R 9.0)"
                )
            }
            Refusal::NoDecisionPending => write!(f, "no Op Fire window is open"),
            Refusal::NotEligible { unit, at } => {
                write!(f, "{unit} may not Op Fire at {at} (R 9.0)")
            }
            Refusal::CombatEventPending {
                side,
                count,
                options,
            } => write!(
                f,
                "the Combat Event must be answered first: {side:?} pick {count} of {} (R 17.0)",
                options.join(", ")
            ),
            Refusal::NoCombatEventPending => write!(f, "no Combat Event waits for a choice"),
            Refusal::CombatEventPick { reason } => write!(f, "{reason}"),
            Refusal::CpNoneLeft { side } => {
                write!(f, "the {side:?} side has no CP left this turn (R 3.0)")
            }
            Refusal::CpAlreadyOnUnit { unit } => {
                write!(f, "{unit} already has a CP this turn: one per unit (R 3.0)")
            }
            Refusal::CpWrongCompany { unit, company } => write!(
                f,
                "{unit} may only use a CP of its own company {company}, which has none left (R 3.1)"
            ),
            Refusal::CpNotApplicable { unit, reason } => {
                write!(f, "no such CP for {unit}: {reason}")
            }
            Refusal::CpMeleeAlreadySpent { side, at } => write!(
                f,
                "the {side:?} side already spent a CP in the Melee at {at} this turn (R 3.0 #4)"
            ),
            Refusal::Facing { unit, reason } => write!(f, "{unit}: {reason}"),
            Refusal::JapaneseNoWithdrawal { unit } => write!(
                f,
                "{unit} is Japanese in an enemy hex: it may only be marked Used or Op Fire (R 5.1, R 59.1)"
            ),
            Refusal::WithdrawalIntoEnemy { at } => write!(
                f,
                "a Withdrawal may not enter {at}, a hex with another enemy unit (R 5.1)"
            ),
            Refusal::RetreatNoAssaultFire => {
                write!(f, "a Declared Retreat may not Assault Fire (R 5.3)")
            }
            Refusal::Retreat { n, reason } => write!(f, "step {n}: {reason}"),
            Refusal::AssaultFire { reason } => write!(f, "no Assault Fire: {reason}"),
            Refusal::AssaultFireTwice => write!(
                f,
                "a Fireteam that Assault Fires during its move may not Assault Fire at its end (R 58.3)"
            ),
            Refusal::MustUseMinimum { used, min } => write!(
                f,
                "Ops Range {used}/{min}: at least {min} must be Used before passing (R 4.1)"
            ),
            Refusal::DecisionAwaited { what } => write!(f, "the game waits for {what}"),
            Refusal::NothingToAnswer => write!(f, "no decision is pending"),
            Refusal::WrongAnswer { reason } => write!(f, "{reason}"),
            Refusal::NoWithdrawal { unit } => write!(
                f,
                "{unit} is Japanese and in Melee: it may only be marked Used or Op Fire (R 59.1)"
            ),
            Refusal::GameOver => write!(f, "the scenario is over (R 18.0)"),
            Refusal::Banzai { unit, reason } | Refusal::Obstacle { unit, reason } => {
                write!(f, "{unit}: {reason}")
            }
            Refusal::Night { reason } => write!(f, "{reason}"),
            Refusal::Seishin { unit, reason } => write!(f, "{unit}: {reason}"),
            Refusal::Gun { unit, reason } => write!(f, "{unit}: {reason}"),
        }
    }
}
