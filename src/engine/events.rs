//! What happened, as plain data: the log panel, the journal, replays, the
//! bot and the tests all read these. Every event has its log line with the
//! rule it applies.

use crate::rules::Fp;
use crate::rules::fire::FireOutcome;
use crate::scenario::schema::{SideId, Spine};
use crate::world::Phase;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEvent {
    /// A side starts an Ops Range (R 4.1).
    OpsRangeStarted { side: SideId, min: u8, max: u8 },
    /// A unit was marked Used (R 4.2); `used` of `max` counted so far.
    MarkedUsed {
        unit: String,
        side: SideId,
        used: u8,
        max: u8,
    },
    /// A unit was marked Op Fire (R 4.3), turned to `facing` if given.
    MarkedOpFire {
        unit: String,
        side: SideId,
        facing: Option<Spine>,
        used: u8,
        max: u8,
    },
    /// A unit is selected to move (R 5.0); `used` of `max` counted.
    MoveStarted { unit: String, used: u8, max: u8 },
    /// A unit is selected to fire (R 6.0); `used` of `max` counted.
    FireStarted {
        unit: String,
        target: String,
        used: u8,
        max: u8,
    },
    /// The unit failed its MC to fire and is Used (R 6.1).
    FireFailed { unit: String },
    /// No LOS to the target: the unit is Used (R 14.0).
    NoLos {
        unit: String,
        target: String,
        why: String,
    },
    /// The one roll of a fire attack (R 6.2).
    FireRoll {
        unit: String,
        target: String,
        roll: u8,
    },
    /// The attack against one unit in the location, with its arithmetic.
    FireResult {
        target: String,
        arithmetic: String,
        fp: Fp,
        roll: u8,
        outcome: FireOutcome,
    },
    /// A unit is eliminated (R 8.0).
    Eliminated { unit: String },
    /// The moving unit entered a hex in reach of these Op Fire units: the
    /// side may fire (R 9.0).
    OpFireWindow {
        side: SideId,
        mover: String,
        at: String,
        eligible: Vec<String>,
    },
    /// The side let the mover go on.
    OpFirePassed { side: SideId, at: String },
    /// A unit Op Fires (R 9.0) or Final Op Fires (R 10.0) at the mover; it
    /// is Used, an Op Fire marker flipping (R 4.3).
    OpFires {
        unit: String,
        mover: String,
        at: String,
        final_op_fire: bool,
    },
    /// A Morale Check (R 7.1): passed when the roll is at most the Morale.
    MoraleCheck {
        unit: String,
        morale: u8,
        roll: u8,
        passed: bool,
        rule: &'static str,
    },
    /// The unit failed its MC to move: it stays and is Used (R 5.0, R 4.2).
    MoveFailed { unit: String },
    /// One step of a move (R 5.0).
    Moved {
        unit: String,
        from: String,
        to: String,
        cost: String,
        left: String,
    },
    /// The move is over; the unit is Used (R 4.2).
    MoveEnded { unit: String, at: String },
    /// A Conceal counter came off (R 15.0).
    ConcealmentLost { unit: String, why: &'static str },
    /// A Decoy lost its Concealment and is removed (R 15.0).
    DecoyRemoved { unit: String },
    /// The side's Ops Range ended: by choice, at its maximum, or because no
    /// further Use fits (R 4.1).
    Passed {
        side: SideId,
        used: u8,
        forced: bool,
    },
    /// Every unit of the side is Used or Op Fire (R 4.1).
    SideFinished { side: SideId },
    /// The phase is over (R 1.0).
    PhaseEnded { phase: Phase, next: Phase },
    /// A unit selected in an enemy hex tries to move out: Morale −3 for
    /// the MC, no automatic pass (R 5.1).
    Withdraws { unit: String, from: String },
    /// A Declared Retreat: +4 Morale for its MCs this move; it moves as a
    /// Routing unit (R 5.3).
    DeclaresRetreat { unit: String },
    /// Op Fire at the mover in the hex it starts from, its first hex being
    /// a Melee hex (R 9.0).
    OpFireWindowAtStart {
        side: SideId,
        mover: String,
        at: String,
        into: String,
        eligible: Vec<String>,
    },
    /// A non-elite American Squad Suppressed mid-move: its move is over,
    /// with no MC (R 58.1).
    Reluctance { unit: String },
    /// A move ended in a hex it over-stacks: back to an earlier hex,
    /// regardless of MPs, with no Op Fire (R 5.0, R 9.0).
    BackedUp {
        unit: String,
        from: String,
        to: String,
    },
    /// Assault Fire by a moving Squad (R 5.2), or a Fireteam's before or mid
    /// move for `mp` MP (R 58.3).
    AssaultFires {
        unit: String,
        target: String,
        fireteam: Option<(String, String)>,
    },
    /// The Assault Fire named in the order cannot happen now.
    AssaultFireLost { unit: String, why: String },
    /// A unit marked Op Fire or Used out of all enemy LOS takes a Conceal
    /// counter (R 15.0).
    ConcealmentRegained { unit: String, why: &'static str },
    /// A Japanese unit leaving its starting hex: its −2 Conceal counter
    /// becomes −1 (R 59.2).
    ConcealmentWeakened { unit: String },
    /// An MC with Morale modifiers that reach 10 or more: passed with no
    /// roll (R 7.1).
    MoraleAutoPass {
        unit: String,
        morale: u8,
        rule: &'static str,
    },
}

fn side_word(s: SideId) -> &'static str {
    match s {
        SideId::Allies => "Allies",
        SideId::Axis => "Axis",
    }
}

impl GameEvent {
    /// The log line, with its rule reference.
    pub fn line(&self) -> String {
        match self {
            GameEvent::OpsRangeStarted { side, min, max } => {
                format!("{} Ops Range {min}\u{2013}{max} (R 4.1)", side_word(*side))
            }
            GameEvent::MarkedUsed {
                unit, used, max, ..
            } => format!("{unit} marked Used (R 4.2); Ops Range {used}/{max}"),
            GameEvent::MarkedOpFire {
                unit,
                facing,
                used,
                max,
                ..
            } => match facing {
                Some(f) => {
                    format!("{unit} marked Op Fire facing {f:?} (R 4.3); Ops Range {used}/{max}")
                }
                None => format!("{unit} marked Op Fire (R 4.3); Ops Range {used}/{max}"),
            },
            GameEvent::MoveStarted { unit, used, max } => {
                format!("{unit} moves (R 5.0); Ops Range {used}/{max}")
            }
            GameEvent::FireStarted {
                unit,
                target,
                used,
                max,
            } => format!("{unit} fires at {target} (R 6.0); Ops Range {used}/{max}"),
            GameEvent::FireFailed { unit } => {
                format!("{unit} fails its MC to fire and is Used (R 6.1)")
            }
            GameEvent::NoLos { unit, target, why } => {
                format!("{unit} has no LOS to {target}: {why}; Used (R 14.0)")
            }
            GameEvent::FireRoll { unit, target, roll } => {
                format!("{unit} rolls {roll} against {target} (R 6.2)")
            }
            GameEvent::FireResult {
                target,
                arithmetic,
                fp,
                roll,
                outcome,
            } => format!(
                "{target}: {arithmetic} = {fp} FP; roll {roll} \u{2192} {} (R 6.2)",
                match outcome {
                    FireOutcome::NoEffect => "No Effect",
                    FireOutcome::Suppressed => "Suppressed",
                    FireOutcome::Reduced => "Reduced and Fully Suppressed",
                    FireOutcome::Eliminated => "Eliminated",
                }
            ),
            GameEvent::Eliminated { unit } => format!("{unit} is eliminated (R 8.0)"),
            GameEvent::OpFireWindow {
                side,
                mover,
                at,
                eligible,
            } => format!(
                "Op Fire window: {mover} enters {at}; {} may fire with {} (R 9.0)",
                side_word(*side),
                eligible.join(", ")
            ),
            GameEvent::OpFirePassed { side, at } => {
                format!("{} hold their fire at {at} (R 9.0)", side_word(*side))
            }
            GameEvent::OpFires {
                unit,
                mover,
                at,
                final_op_fire,
            } => {
                if *final_op_fire {
                    format!("{unit} Final Op Fires at {mover} in {at} (R 10.0)")
                } else {
                    format!("{unit} Op Fires at {mover} in {at} and is Used (R 9.0, R 4.3)")
                }
            }
            GameEvent::MoraleCheck {
                unit,
                morale,
                roll,
                passed,
                rule,
            } => format!(
                "{unit} MC: needs {morale} or less, rolled {roll} \u{2192} {} ({rule}, R 7.1)",
                if *passed { "passed" } else { "failed" }
            ),
            GameEvent::MoveFailed { unit } => {
                format!("{unit} fails to move and is Used (R 5.0, R 4.2)")
            }
            GameEvent::Moved {
                unit,
                from,
                to,
                cost,
                left,
            } => format!("{unit} moves {from} \u{2192} {to}: {cost} MP, {left} left (R 5.0)"),
            GameEvent::MoveEnded { unit, at } => {
                format!("{unit} ends its move in {at}; Used (R 4.2)")
            }
            GameEvent::ConcealmentLost { unit, why } => {
                format!("{unit} loses its Conceal counter: {why} (R 15.0)")
            }
            GameEvent::DecoyRemoved { unit } => {
                format!("{unit} was a Decoy: removed on losing Concealment (R 15.0)")
            }
            GameEvent::Passed { side, used, forced } => {
                if *forced {
                    format!(
                        "{} pass after {used}: no further Use fits (R 4.1)",
                        side_word(*side)
                    )
                } else {
                    format!("{} pass after {used} (R 4.1)", side_word(*side))
                }
            }
            GameEvent::SideFinished { side } => format!(
                "{}: every unit Used or marked Op Fire (R 4.1)",
                side_word(*side)
            ),
            GameEvent::PhaseEnded { phase, next } => {
                format!("{} ends; {} begins (R 1.0)", phase.name(), next.name())
            }
            GameEvent::Withdraws { unit, from } => format!(
                "{unit} Withdraws from the Melee in {from}: Morale -3 for its MC, no automatic pass (R 5.1)"
            ),
            GameEvent::DeclaresRetreat { unit } => format!(
                "{unit} Declares Retreat: +4 Morale for its MCs, moves as a Routing unit (R 5.3)"
            ),
            GameEvent::OpFireWindowAtStart {
                side,
                mover,
                at,
                into,
                eligible,
            } => format!(
                "Op Fire window: {mover} leaves {at} for the Melee in {into}; {} may fire at {at} with {} (R 9.0)",
                side_word(*side),
                eligible.join(", ")
            ),
            GameEvent::Reluctance { unit } => format!(
                "{unit} is Suppressed mid-move: American Reluctance ends its move, no MC (R 58.1)"
            ),
            GameEvent::BackedUp { unit, from, to } => format!(
                "{unit} backs up {from} -> {to}: its failed move over-stacked {from}; no Op Fire (R 5.0, R 9.0)"
            ),
            GameEvent::AssaultFires {
                unit,
                target,
                fireteam,
            } => match fireteam {
                Some((mp, left)) => format!(
                    "{unit} Assault Fires at {target} by Fireteams: {mp} MP, {left} left, Prof -2 (R 58.3)"
                ),
                None => format!("{unit} Assault Fires at {target}; its move is over (R 5.2)"),
            },
            GameEvent::AssaultFireLost { unit, why } => {
                format!("{unit} does not Assault Fire: {why} (R 5.2)")
            }
            GameEvent::ConcealmentRegained { unit, why } => {
                format!("{unit} takes a Conceal counter: {why} (R 15.0)")
            }
            GameEvent::MoraleAutoPass { unit, morale, rule } => {
                format!("{unit} MC: Morale {morale}, passed with no roll ({rule}, R 7.1)")
            }
            GameEvent::ConcealmentWeakened { unit } => format!(
                "{unit} leaves its starting hex: its -2 Conceal counter becomes -1 (R 59.2)"
            ),
        }
    }
}
