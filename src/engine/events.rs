//! What happened, as plain data: the log panel, the journal, replays, the
//! bot and the tests all read these. Every event has its log line with the
//! rule it applies.

use crate::rules::Fp;
use crate::rules::fire::FireOutcome;
use crate::scenario::schema::{SideId, Spine};
use crate::world::{Phase, UnitId};

use super::command_points::CpFunction;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEvent {
    /// A side starts an Ops Range (R 4.1).
    OpsRangeStarted { side: SideId, min: u8, max: u8 },
    /// A unit was marked Used (R 4.2); `used` of `max` counted so far.
    MarkedUsed {
        unit: UnitId,
        side: SideId,
        used: u8,
        max: u8,
    },
    /// A unit was marked Op Fire (R 4.3), turned to `facing` if given.
    MarkedOpFire {
        unit: UnitId,
        side: SideId,
        facing: Option<Spine>,
        used: u8,
        max: u8,
    },
    /// A unit is selected to move (R 5.0); `used` of `max` counted.
    MoveStarted { unit: UnitId, used: u8, max: u8 },
    /// A unit is selected to fire (R 6.0); `used` of `max` counted.
    FireStarted {
        unit: UnitId,
        target: String,
        used: u8,
        max: u8,
    },
    /// The unit failed its MC to fire and is Used (R 6.1).
    FireFailed { unit: UnitId },
    /// No LOS to the target: the unit is Used (R 14.0).
    NoLos {
        unit: UnitId,
        target: String,
        why: String,
    },
    /// The one roll of a fire attack (R 6.2).
    FireRoll {
        unit: UnitId,
        target: String,
        roll: u8,
    },
    /// The attack against one unit in the location, with its arithmetic.
    FireResult {
        target: UnitId,
        arithmetic: String,
        fp: Fp,
        roll: u8,
        outcome: FireOutcome,
    },
    /// A unit is eliminated (R 8.0).
    Eliminated { unit: UnitId },
    /// The moving unit entered a hex in reach of these Op Fire units: the
    /// side may fire (R 9.0).
    OpFireWindow {
        side: SideId,
        mover: UnitId,
        at: String,
        eligible: Vec<UnitId>,
    },
    /// The side let the mover go on.
    OpFirePassed { side: SideId, at: String },
    /// A unit Op Fires (R 9.0) or Final Op Fires (R 10.0) at the mover; it
    /// is Used, an Op Fire marker flipping (R 4.3).
    OpFires {
        unit: UnitId,
        mover: UnitId,
        at: String,
        final_op_fire: bool,
    },
    /// A Morale Check (R 7.1): passed when the roll is at most the Morale.
    MoraleCheck {
        unit: UnitId,
        morale: u8,
        roll: u8,
        passed: bool,
        rule: &'static str,
    },
    /// The unit failed its MC to move: it stays and is Used (R 5.0, R 4.2).
    MoveFailed { unit: UnitId },
    /// A Squad spends its whole move to remove the Wire or Roadblock in
    /// its hex (R 43.6, R 43.7).
    ClearingStarted {
        unit: UnitId,
        what: &'static str,
        at: String,
    },
    /// It survived and passed every MC: the counter is removed (R 43.6,
    /// R 43.7).
    ObstacleRemoved {
        unit: UnitId,
        what: &'static str,
        at: String,
    },
    /// It failed an MC: the counter stays (R 43.7).
    ObstacleStays {
        unit: UnitId,
        what: &'static str,
        at: String,
    },
    /// One step of a move (R 5.0).
    Moved {
        unit: UnitId,
        from: String,
        to: String,
        cost: String,
        left: String,
    },
    /// The move is over; the unit is Used (R 4.2).
    MoveEnded { unit: UnitId, at: String },
    /// A unit adopts a facing at the end of its move (R 2.2).
    FacesAtEnd { unit: UnitId, facing: Spine },
    /// A Conceal counter came off (R 15.0).
    ConcealmentLost { unit: UnitId, why: &'static str },
    /// A Decoy lost its Concealment and is removed (R 15.0).
    DecoyRemoved { unit: UnitId },
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
    /// A CP is readied on a unit for its next action (R 3.0).
    CpReadied { unit: UnitId, function: CpFunction },
    /// A CP is spent: its counter goes on the unit (R 3.0); `left` of the
    /// side's CPs remain this turn.
    CommandPointSpent {
        side: SideId,
        unit: UnitId,
        function: CpFunction,
        left: u8,
    },
    /// CP counters come off the units; each side has this many CPs for the
    /// new turn (R 3.0, R 13.0).
    CpsReturned { allies: u8, axis: u8 },
    /// A unit takes a facing as it fires: turning (-1 FP, R 6.0) or, with no
    /// facing to keep, free (losing Concealment, R 2.2).
    FacingTaken {
        unit: UnitId,
        facing: Spine,
        turned: bool,
    },
    /// A unit selected in an enemy hex tries to move out: Morale −3 for
    /// the MC, no automatic pass (R 5.1).
    Withdraws { unit: UnitId, from: String },
    /// A Declared Retreat: +4 Morale for its MCs this move, unless it
    /// starts in an enemy's hex (`bonus` false); it moves as a Routing unit
    /// (R 5.3).
    DeclaresRetreat { unit: UnitId, bonus: bool },
    /// Op Fire at the mover in the hex it starts from, its first hex being
    /// a Melee hex (R 9.0).
    OpFireWindowAtStart {
        side: SideId,
        mover: UnitId,
        at: String,
        into: String,
        eligible: Vec<UnitId>,
    },
    /// A non-elite American Squad Suppressed mid-move: its move is over,
    /// with no MC (R 58.1).
    Reluctance { unit: UnitId },
    /// A move ended in a hex it over-stacks: back to an earlier hex,
    /// regardless of MPs, with no Op Fire (R 5.0, R 9.0).
    BackedUp {
        unit: UnitId,
        from: String,
        to: String,
    },
    /// Assault Fire by a moving Squad (R 5.2), or a Fireteam's before or mid
    /// move for `mp` MP (R 58.3).
    AssaultFires {
        unit: UnitId,
        target: String,
        fireteam: Option<(String, String)>,
    },
    /// The Assault Fire named in the order cannot happen now.
    AssaultFireLost { unit: UnitId, why: String },
    /// A unit marked Op Fire or Used out of all enemy LOS takes a Conceal
    /// counter (R 15.0).
    ConcealmentRegained { unit: UnitId, why: &'static str },
    /// A Japanese unit leaving its starting hex: its −2 Conceal counter
    /// becomes −1 (R 59.2).
    ConcealmentWeakened { unit: UnitId },
    /// An MC with Morale modifiers that reach 10 or more: passed with no
    /// roll (R 7.1).
    MoraleAutoPass {
        unit: UnitId,
        morale: u8,
        rule: &'static str,
    },
    /// The mover entered Melee through a flank hex of every enemy unit
    /// there: a Flank counter, +1 Melee FP (R 12.2).
    FlankCounter { unit: UnitId, at: String },
    /// The game waits for this side's decision.
    DecisionAwaited { side: SideId, what: String },
    /// A side's part of the Rout Phase begins (R 11.0).
    RoutPart { side: SideId, checking: Vec<UnitId> },
    /// A unit must take a Rout MC, and why (R 11.0); Morale 10 or more
    /// passes with no roll (R 7.1).
    RoutCheck {
        unit: UnitId,
        reason: &'static str,
        morale: u8,
        no_quarter: bool,
        auto_pass: bool,
    },
    /// A CP is spent (R 3.0).
    CpSpent {
        side: SideId,
        unit: UnitId,
        purpose: &'static str,
    },
    /// A failed unit routs along this path (R 11.0).
    Routs {
        unit: UnitId,
        path: Vec<String>,
        goal: &'static str,
    },
    /// A failed unit reaches its Rout Edge with MP to spare: off the board,
    /// eliminated (R 11.0).
    RoutedOff { unit: UnitId },
    /// A failed unit has no legal rout (R 11.0) or leaves a Melee with no
    /// friend left in it (R 11.1): eliminated. Guns failing are eliminated.
    RoutEliminated { unit: UnitId, why: &'static str },
    /// Failed by its Casualty number or more: Reduced (or eliminated) and
    /// Fully Suppressed after routing (R 11.1).
    RoutCasualty {
        unit: UnitId,
        margin: u8,
        casualty: u8,
        eliminated: bool,
    },
    /// SS Desperation: failed by one, Reduced, Fully Suppressed, stays
    /// (R 57.3, R 11.2).
    SsDesperation { unit: UnitId },
    /// No Melee anywhere this turn (R 12.0).
    NoMelee,
    /// A Melee begins in a location (R 12.0); `first_strike` when a
    /// previously Concealed unit attacks first (R 51.2).
    MeleeBegins {
        at: String,
        allies: Vec<UnitId>,
        axis: Vec<UnitId>,
    },
    /// One unit's Melee dice (R 12.0): one casualty per die at or under its
    /// Melee FP.
    MeleeRoll {
        unit: UnitId,
        fp: u8,
        dice: Vec<u8>,
        hits: u8,
        rule: &'static str,
    },
    /// A Melee casualty (R 12.0): Reduced, or eliminated (WTs and Guns by
    /// any casualty, a Reduced unit by another).
    MeleeCasualty { unit: UnitId, eliminated: bool },
    /// A unit recovers one step of Suppression (R 13.0).
    Recovered { unit: UnitId, now: &'static str },
    /// Used, Op Fire, CP and Flank counters removed, CPs back (R 13.0).
    MarkersRemoved,
    /// The turn marker advances (R 13.0).
    TurnBegins { turn: u8 },
    /// A reinforcement enters play (R 16.1, R 18.0).
    Reinforces { unit: UnitId, at: String },
    /// A reinforcement kept off board until a later turn (R 18.0).
    ReinforcementHeld { unit: UnitId },
    /// The scenario is over: the winner (or a draw), each condition and why,
    /// and the losses of each side (R 18.0).
    GameEnded {
        winner: Option<SideId>,
        reasons: Vec<String>,
        losses: String,
    },
    /// A Combat Event and its effects (R 17.0).
    CombatEvent(super::combat_events::EventLog),
    /// A Pacific rule at work (R 43, R 50, R 51, R 55.2, R 59).
    Pacific(super::pacific::PacificEvent),
    /// Mortar fire (R 31.0, R 31.1).
    Mortar(super::mortar::MortarEvent),
    /// Smoke placed and lifting (R 48.0-48.2, R 13.0).
    Smoke(super::smoke::SmokeEvent),
    /// A Gun turns, takes its Prof Check, or goes back to its facing
    /// (R 20.4).
    Gun(super::gun::GunEvent),
}

pub(crate) fn side_word(s: SideId) -> &'static str {
    match s {
        SideId::Allies => "Allies",
        SideId::Axis => "Axis",
    }
}

/// What an Op Fire window offers `side`: its units that may fire, or, when
/// none may, the question asked all the same because its Conceal counters
/// might (R 15.0), with the rules cited.
pub(crate) fn firers(side: SideId, eligible: &[UnitId]) -> String {
    if eligible.is_empty() {
        format!(
            "{} are asked, though no unit may fire: only Conceal counters might (R 9.0, R 15.0)",
            side_word(side)
        )
    } else {
        format!(
            "{} may fire with {} (R 9.0)",
            side_word(side),
            eligible.join(", ")
        )
    }
}

impl GameEvent {
    /// The unit this event takes off the board for good, if any: fire
    /// (R 8.0), routing off the edge or with no legal rout (R 11.0), Rout
    /// casualties (R 11.1) and Melee casualties (R 12.0). A Decoy removed
    /// on losing Concealment is not an elimination (R 15.0).
    pub fn eliminated_unit(&self) -> Option<&str> {
        match self {
            GameEvent::Eliminated { unit }
            | GameEvent::RoutedOff { unit }
            | GameEvent::RoutEliminated { unit, .. }
            | GameEvent::RoutCasualty {
                unit,
                eliminated: true,
                ..
            }
            | GameEvent::MeleeCasualty {
                unit,
                eliminated: true,
            } => Some(unit),
            _ => None,
        }
    }

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
                "Op Fire window: {mover} enters {at}; {}",
                firers(*side, eligible)
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
            GameEvent::ClearingStarted { unit, what, at } => format!(
                "{unit} spends its whole move to remove the {what} in {at}; for Op Fire it has just moved into the hex (R 43.7)"
            ),
            GameEvent::ObstacleRemoved { unit, what, at } => format!(
                "{unit} survived and passed every MC: the {what} in {at} is removed (R 43.6, R 43.7)"
            ),
            GameEvent::ObstacleStays { unit, what, at } => {
                format!("{unit} failed an MC: the {what} in {at} stays (R 43.7)")
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
            GameEvent::FacesAtEnd { unit, facing } => {
                format!("{unit} faces {facing:?} at the end of its move (R 2.2)")
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
            GameEvent::CpReadied { unit, function } => format!(
                "{unit}: a CP is ready to {} ({})",
                function.describe(),
                function.rule()
            ),
            GameEvent::CommandPointSpent {
                side,
                unit,
                function,
                left,
            } => format!(
                "{} spend a CP on {unit}: {} ({}); {left} CP left",
                side_word(*side),
                function.describe(),
                function.rule()
            ),
            GameEvent::CpsReturned { allies, axis } => format!(
                "CP counters returned: Allies {allies}, Axis {axis} CP this turn (R 3.0, R 13.0)"
            ),
            GameEvent::FacingTaken {
                unit,
                facing,
                turned,
            } => {
                if *turned {
                    format!("{unit} turns to face {facing:?} to fire: -1 FP (R 6.0)")
                } else {
                    format!("{unit} takes facing {facing:?} as it loses Concealment (R 2.2)")
                }
            }
            GameEvent::Withdraws { unit, from } => format!(
                "{unit} Withdraws from the Melee in {from}: Morale -3 for its MC, no automatic pass (R 5.1)"
            ),
            GameEvent::DeclaresRetreat { unit, bonus: true } => format!(
                "{unit} Declares Retreat: +4 Morale for its MCs, moves as a Routing unit (R 5.3)"
            ),
            GameEvent::DeclaresRetreat { unit, bonus: false } => format!(
                "{unit} Declares Retreat: no +4 Morale, it starts in an enemy's hex; moves as a Routing unit (R 5.3)"
            ),
            GameEvent::OpFireWindowAtStart {
                side,
                mover,
                at,
                into,
                eligible,
            } => format!(
                "Op Fire window: {mover} leaves {at} for the Melee in {into}; {}",
                if eligible.is_empty() {
                    firers(*side, eligible)
                } else {
                    format!(
                        "{} may fire at {at} with {} (R 9.0)",
                        side_word(*side),
                        eligible.join(", ")
                    )
                }
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
            GameEvent::FlankCounter { unit, at } => format!(
                "{unit} enters the Melee in {at} through the enemy's flank: Flank counter, +1 Melee FP (R 12.2)"
            ),
            GameEvent::MoraleAutoPass { unit, morale, rule } => {
                format!("{unit} MC: Morale {morale}, passed with no roll ({rule}, R 7.1)")
            }
            GameEvent::ConcealmentWeakened { unit } => format!(
                "{unit} leaves its starting hex: its -2 Conceal counter becomes -1 (R 59.2)"
            ),
            GameEvent::DecisionAwaited { side, what } => {
                format!("{} to decide: {what}", side_word(*side))
            }
            GameEvent::RoutPart { side, checking } => {
                if checking.is_empty() {
                    format!(
                        "{} Rout Phase: no unit must check (R 11.0)",
                        side_word(*side)
                    )
                } else {
                    format!(
                        "{} Rout Phase: {} must check (R 11.0)",
                        side_word(*side),
                        checking.join(", ")
                    )
                }
            }
            GameEvent::RoutCheck {
                unit,
                reason,
                morale,
                no_quarter,
                auto_pass,
            } => {
                let nq = if *no_quarter {
                    ", No Quarter (R 11.2)"
                } else {
                    ""
                };
                if *auto_pass {
                    format!(
                        "{unit} Rout MC ({reason}): Morale {morale}{nq} passes with no roll (R 11.0, R 7.1)"
                    )
                } else {
                    format!("{unit} Rout MC ({reason}): Morale {morale}{nq} (R 11.0)")
                }
            }
            GameEvent::CpSpent {
                side,
                unit,
                purpose,
            } => format!("{} spend a CP: {unit} {purpose} (R 3.0)", side_word(*side)),
            GameEvent::Routs { unit, path, goal } => {
                format!("{unit} routs {goal}: {} (R 11.0)", path.join(" -> "))
            }
            GameEvent::RoutedOff { unit } => {
                format!("{unit} routs off its Rout Edge and is eliminated (R 11.0)")
            }
            GameEvent::RoutEliminated { unit, why } => {
                format!("{unit} is eliminated: {why}")
            }
            GameEvent::RoutCasualty {
                unit,
                margin,
                casualty,
                eliminated,
            } => {
                if *eliminated {
                    format!("{unit} failed by {margin} (Casualty {casualty}): eliminated (R 11.1)")
                } else {
                    format!(
                        "{unit} failed by {margin} (Casualty {casualty}): Reduced and Fully Suppressed (R 11.1)"
                    )
                }
            }
            GameEvent::SsDesperation { unit } => format!(
                "{unit} failed by one: SS Desperation, Reduced and Fully Suppressed in place (R 57.3, R 11.2)"
            ),
            GameEvent::NoMelee => "No Melee this turn (R 12.0)".to_string(),
            GameEvent::MeleeBegins { at, allies, axis } => format!(
                "Melee in {at}: {} against {} (R 12.0)",
                allies.join(", "),
                axis.join(", ")
            ),
            GameEvent::MeleeRoll {
                unit,
                fp,
                dice,
                hits,
                rule,
            } => format!(
                "{unit} Melee FP {fp}: rolls {} -> {hits} casualt{} ({rule})",
                dice.iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                if *hits == 1 { "y" } else { "ies" }
            ),
            GameEvent::MeleeCasualty { unit, eliminated } => {
                if *eliminated {
                    format!("{unit} is eliminated in Melee (R 12.0)")
                } else {
                    format!("{unit} is Reduced in Melee (R 12.0)")
                }
            }
            GameEvent::Recovered { unit, now } => {
                format!("{unit} recovers one step of Suppression: {now} (R 13.0)")
            }
            GameEvent::MarkersRemoved => {
                "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)"
                    .to_string()
            }
            GameEvent::TurnBegins { turn } => format!("Turn {turn} begins (R 13.0)"),
            GameEvent::Reinforces { unit, at } => {
                format!("{unit} enters as a reinforcement at {at} (R 18.0)")
            }
            GameEvent::ReinforcementHeld { unit } => {
                format!("{unit} is kept off board until a later turn (R 18.0)")
            }
            GameEvent::GameEnded {
                winner,
                reasons,
                losses,
            } => format!(
                "Scenario over: {}. {}. Losses: {losses} (R 18.0)",
                match winner {
                    Some(s) => format!("{} win", side_word(*s)),
                    None => "a draw".to_string(),
                },
                reasons.join("; ")
            ),
            GameEvent::CombatEvent(e) => e.line(),
            GameEvent::Pacific(e) => e.line(),
            GameEvent::Mortar(e) => e.line(),
            GameEvent::Smoke(e) => e.line(),
            GameEvent::Gun(e) => e.line(),
        }
    }
}
