//! Events of the Pacific rules (R 43, R 50, R 51, R 55.2, R 59), as plain
//! data with their log lines. One `GameEvent::Pacific` variant carries them
//! so the Pacific rooms keep their own words.

/// What a Pacific rule did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PacificEvent {
    /// An enemy unit entered the Jungle hex of a Concealed unit: its
    /// Conceal counter came off and it takes an Ambush counter (R 51.1,
    /// R 51.2).
    AmbushCounter {
        unit: crate::world::UnitId,
        at: String,
    },
    /// A Concealed Fortification is revealed (R 43.0).
    FortificationRevealed {
        kind: &'static str,
        at: String,
        why: &'static str,
    },
    /// The attack's result was the one with the revealed Fortification's
    /// modifier (R 43.0).
    FortificationProtects {
        unit: crate::world::UnitId,
        kind: &'static str,
    },
    /// The Japanese announce the Banzai Charge of this turn (R 59.6).
    BanzaiAnnounced {
        turn: u8,
        rallied: Vec<crate::world::UnitId>,
        charging: Vec<crate::world::UnitId>,
    },
    /// The last turn of a Banzai window came with its charge not yet
    /// called: it is announced without asking (R 59.6).
    BanzaiForced { turn: u8, from: u8 },
    /// The Japanese chose not to call the window's charge this turn; it
    /// is due by Turn `last` (R 59.6).
    BanzaiWaits { turn: u8, last: u8 },
    /// The GD Squads the Japanese player chose to charge with (R 59.6).
    BanzaiGdSquads { charging: Vec<crate::world::UnitId> },
    /// At the announcement the Allied player marked these units Op Fire,
    /// outside the Ops Range (R 59.6).
    BanzaiOpFireMarked {
        side: crate::scenario::schema::SideId,
        units: Vec<crate::world::UnitId>,
    },
    /// An Illumination counter placed near a unit, counting in the Ops
    /// Range (R 50.1).
    Illumination {
        unit: crate::world::UnitId,
        at: String,
        used: u8,
        max: u8,
    },
    /// The Recovery Phase took the Illumination counters off (R 50.1).
    IlluminationRemoved { count: usize },
    /// A unit entered a Wire hex at Night for the first time: Trip Flare
    /// (R 43.6).
    TripFlare {
        unit: crate::world::UnitId,
        at: String,
    },
    /// A unit fired Unilluminated at Night: `side` may answer with one
    /// of `eligible` (R 50.2).
    MuzzleFlash {
        unit: crate::world::UnitId,
        at: String,
        side: crate::scenario::schema::SideId,
        eligible: Vec<crate::world::UnitId>,
    },
    /// The answer to a Muzzle Flash: the responder, or none (R 50.2).
    FlashAnswered {
        side: crate::scenario::schema::SideId,
        flasher: crate::world::UnitId,
        by: Option<crate::world::UnitId>,
    },
    /// A Concealed unit was Used to bring back a removed Decoy in its hex
    /// (R 50.3).
    DecoyRegenerated {
        unit: crate::world::UnitId,
        decoy: String,
        at: String,
        used: u8,
        max: u8,
    },
    /// A Banzai Squad cleared the Wire it entered: Reduced, or eliminated
    /// if it already was (R 43.6, R 8.0).
    WireCleared {
        unit: crate::world::UnitId,
        at: String,
        eliminated: bool,
    },
    /// A Squad passed its MC to move and declares Seishin (R 59.5).
    SeishinDeclared { unit: crate::world::UnitId },
    /// The first player's Monsoon Storm Check (R 55.2).
    StormCheck {
        side: crate::scenario::schema::SideId,
        roll: u8,
        from: u8,
        to: u8,
        outcome: crate::rules::monsoon::StormOutcome,
        raining: bool,
    },
    /// The deluge started: the Smoke on the board is gone (R 55.2).
    RainClearsSmoke { count: usize },
}

impl PacificEvent {
    /// The log line, with the rule it applies.
    pub fn line(&self) -> String {
        match self {
            PacificEvent::AmbushCounter { unit, at } => format!(
                "{unit} takes an Ambush counter in {at}: in the Melee it strikes first at +2 (R 51.1, R 51.2)"
            ),
            PacificEvent::FortificationRevealed { kind, at, why } => {
                format!("{kind} in {at} revealed: {why} (R 43.0)")
            }
            PacificEvent::FortificationProtects { unit, kind } => format!(
                "{unit}: the revealed {kind} modifier changes the result; {unit} gets it (R 43.0)"
            ),
            PacificEvent::StormCheck {
                side,
                roll,
                from,
                to,
                outcome,
                raining,
            } => {
                use crate::rules::monsoon::StormOutcome;
                let what = match outcome {
                    StormOutcome::Holds if *raining => "it rains on",
                    StormOutcome::Holds => "it stays dry",
                    StormOutcome::Starts => "a monsoon deluge starts; no more checks",
                    StormOutcome::Stops => "the rain stops; no more checks",
                };
                let who = match side {
                    crate::scenario::schema::SideId::Allies => "Allies",
                    crate::scenario::schema::SideId::Axis => "Axis",
                };
                format!(
                    "{who} Monsoon Storm Check: roll {roll} (changes on {from}-{to}): {what} (R 55.2)"
                )
            }
            PacificEvent::RainClearsSmoke { count } => format!(
                "{count} Smoke counter(s) removed: there is no Smoke in the Monsoon rain (R 55.2)"
            ),
            PacificEvent::SeishinDeclared { unit } => format!(
                "{unit} declares Seishin: +1 MP, +1 Morale this Operations Phase, +2 Melee FP this turn (R 59.5)"
            ),
            PacificEvent::BanzaiAnnounced {
                turn,
                rallied,
                charging,
            } => format!(
                "Turn {turn}: the Japanese announce a Banzai Charge; Suppression removed from {}; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: {} (R 59.6)",
                if rallied.is_empty() {
                    "none".to_string()
                } else {
                    rallied.join(", ")
                },
                if charging.is_empty() {
                    "none".to_string()
                } else {
                    charging.join(", ")
                }
            ),
            PacificEvent::BanzaiForced { turn, from } => format!(
                "Turn {turn} is the last of the Banzai window (Turns {from}-{turn}) and the charge is not yet called: it is announced now (R 59.6)"
            ),
            PacificEvent::BanzaiWaits { turn, last } => format!(
                "Turn {turn}: the Japanese do not call the Banzai Charge this turn; it is due by Turn {last} (R 59.6)"
            ),
            PacificEvent::BanzaiGdSquads { charging } => format!(
                "GD Squads charging with the Banzai (+4 MP, +2 Morale, +2 Melee FP): {} (R 59.6)",
                list_or_none(charging)
            ),
            PacificEvent::BanzaiOpFireMarked { side, units } => format!(
                "Against the Banzai Charge the {} mark Op Fire outside the Ops Range: {} (R 59.6)",
                crate::engine::events::side_word(*side),
                list_or_none(units)
            ),
            PacificEvent::Illumination {
                unit,
                at,
                used,
                max,
            } => format!(
                "Illumination in {at}, fired near {unit}: units there and adjacent are Illuminated (R 50.1); Ops Range {used}/{max}"
            ),
            PacificEvent::IlluminationRemoved { count } => {
                format!("{count} Illumination counter(s) removed (R 50.1)")
            }
            PacificEvent::TripFlare { unit, at } => format!(
                "Trip Flare in {at}: {unit} entered the Wire; one Unused unit out of its Visibility Range may Op Fire too (R 43.6)"
            ),
            PacificEvent::MuzzleFlash {
                unit,
                at,
                side,
                eligible,
            } => format!(
                "Muzzle Flash: {unit} in {at} fired Unilluminated; {side:?} may answer with ONE Unused unit out of its Visibility Range: {} (R 50.2)",
                eligible.join(", ")
            ),
            PacificEvent::FlashAnswered { side, flasher, by } => match by {
                Some(u) => {
                    format!("{u} answers the Muzzle Flash of {flasher} with Normal FP (R 50.2)")
                }
                None => format!("{side:?} let the Muzzle Flash of {flasher} pass (R 50.2)"),
            },
            PacificEvent::DecoyRegenerated {
                unit,
                decoy,
                at,
                used,
                max,
            } => format!(
                "{unit} is Used to regenerate the Decoy {decoy} in {at}, Concealed and Used (R 50.3); Ops Range {used}/{max}"
            ),
            PacificEvent::WireCleared {
                unit,
                at,
                eliminated,
            } => format!(
                "{unit} charges through the Wire in {at} and clears it; {unit} is {} (R 43.6, R 59.6)",
                if *eliminated { "eliminated" } else { "Reduced" }
            ),
        }
    }
}

/// `a, b, c`, or `none`.
fn list_or_none<S: std::borrow::Borrow<str>>(v: &[S]) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}
