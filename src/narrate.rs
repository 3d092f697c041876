//! Captions: what happened, in plain words, for someone watching a game
//! (`bob demo`, streamer mode). A pure function from an engine event and the
//! little it needs to know of the units and the map ([`Facts`]) to a
//! sentence: "Marine squad in kunai grass at E5 pinned by MG fire from the
//! bunker at F4". The event log keeps the rules and the numbers; captions
//! tell the story.

use std::collections::HashMap;

use crate::engine::GameEvent;
use crate::engine::combat_events::EventLog;
use crate::engine::pacific::PacificEvent;
use crate::rules::fire::FireOutcome;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{FortificationKind, Nationality, SideId, Terrain};
use crate::world::Phase;

/// What a caption needs to know of one unit, read before the order that
/// may remove it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitFacts {
    /// "Marine squad", "Japanese MG team", or "concealed unit" when the
    /// viewer may not know what it is (R 15.0).
    pub noun: String,
    pub side: SideId,
    /// Its hex label (`"F4"`).
    pub at: String,
    /// What fire it puts out: "rifle", "MG", "mortar".
    pub weapon: &'static str,
}

/// The units, the places and the sides, as captions name them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    pub units: HashMap<String, UnitFacts>,
    /// Hex label -> where a unit there is: "in kunai grass", "in the bunker".
    pub places: HashMap<String, String>,
    /// The sides as people: `["Marines", "Japanese"]` (by `SideId::index`).
    pub sides: [String; 2],
}

impl Facts {
    fn side(&self, s: SideId) -> &str {
        &self.sides[s.index()]
    }

    /// "Marine squad", or the unit's id when it is not known.
    fn noun(&self, unit: &str) -> String {
        self.units
            .get(unit)
            .map_or_else(|| format!("unit {unit}"), |u| u.noun.clone())
    }

    /// "in the bunker at F4" (the place only, when the hex is unknown).
    fn place(&self, hex: &str) -> String {
        match self.places.get(hex) {
            Some(p) => format!("{p} at {hex}"),
            None => format!("at {hex}"),
        }
    }

    /// "Marine squad in kunai grass at E5".
    fn unit_at(&self, unit: &str) -> String {
        match self.units.get(unit) {
            Some(u) => format!("{} {}", u.noun, self.place(&u.at)),
            None => format!("unit {unit}"),
        }
    }

    fn weapon(&self, unit: &str) -> &'static str {
        self.units.get(unit).map_or("rifle", |u| u.weapon)
    }

    /// "the bunker at F4", "kunai grass at E5", "open ground at C3": the
    /// place without its preposition, for "from ..." and "to ...".
    fn bare(&self, hex: &str) -> String {
        let place = self.places.get(hex).map_or("", String::as_str);
        let bare = ["in ", "on ", "among "]
            .iter()
            .find_map(|p| place.strip_prefix(p))
            .unwrap_or(place);
        match bare {
            "" => hex.to_string(),
            "the open" => format!("open ground at {hex}"),
            b => format!("{b} at {hex}"),
        }
    }

    /// Where a unit is now, as [`Facts::bare`].
    fn source(&self, unit: &str) -> String {
        match self.units.get(unit) {
            Some(u) => self.bare(&u.at),
            None => format!("unit {unit}"),
        }
    }

    /// The unit's side as people ("Japanese"), when known.
    fn side_of(&self, unit: &str) -> &str {
        self.units.get(unit).map_or("enemy", |u| self.side(u.side))
    }

    /// The unit now stands in `hex`.
    fn moved(&mut self, unit: &str, hex: &str) {
        if let Some(u) = self.units.get_mut(unit) {
            u.at = hex.to_string();
        }
    }
}

/// The sides as people, for captions.
pub fn people(n: Nationality) -> &'static str {
    match n {
        Nationality::American => "Americans",
        Nationality::AmericanAirborne => "Paratroopers",
        Nationality::UsMarines => "Marines",
        Nationality::German => "Germans",
        Nationality::Japanese => "Japanese",
        Nationality::Russian => "Russians",
        Nationality::Commonwealth => "Commonwealth troops",
        Nationality::Italian => "Italians",
    }
}

/// "Marine squad", "German MG team" (R 2.0: Squads, WTs, Decoys).
pub fn unit_noun(n: Nationality, class: UnitClass, reduced: bool) -> String {
    let who = match n {
        Nationality::American => "American",
        Nationality::AmericanAirborne => "Paratrooper",
        Nationality::UsMarines => "Marine",
        Nationality::German => "German",
        Nationality::Japanese => "Japanese",
        Nationality::Russian => "Russian",
        Nationality::Commonwealth => "Commonwealth",
        Nationality::Italian => "Italian",
    };
    let what = match class {
        UnitClass::Squad => "squad",
        UnitClass::MgTeam => "MG team",
        UnitClass::MortarTeam => "mortar team",
        UnitClass::GdSquad => "grenade discharger squad",
        UnitClass::Decoy => "decoy",
        UnitClass::Gun => "gun crew",
    };
    if reduced {
        format!("depleted {who} {what}")
    } else {
        format!("{who} {what}")
    }
}

/// What fire a unit puts out.
pub fn weapon(class: UnitClass) -> &'static str {
    match class {
        UnitClass::MgTeam => "MG",
        UnitClass::MortarTeam | UnitClass::GdSquad => "mortar",
        UnitClass::Squad | UnitClass::Decoy => "rifle",
        UnitClass::Gun => "gun",
    }
}

/// Where a unit in this hex is: the fortification it would use, else the
/// terrain (R 43.0, R 40.0).
pub fn place(terrain: Terrain, fort: Option<FortificationKind>) -> String {
    let fort = fort.and_then(|f| match f {
        FortificationKind::Foxhole => Some("in a foxhole"),
        FortificationKind::Trench => Some("in a trench"),
        FortificationKind::Bunker => Some("in the bunker"),
        FortificationKind::Pillbox => Some("in the pillbox"),
        FortificationKind::Cave | FortificationKind::SmallCave => Some("in the cave"),
        FortificationKind::Fortified => Some("in the fortified building"),
        FortificationKind::Wire | FortificationKind::Roadblock => None,
    });
    if let Some(f) = fort {
        return f.to_string();
    }
    match terrain {
        Terrain::Open => "in the open",
        Terrain::Road => "on the road",
        Terrain::Orchard => "in the orchard",
        Terrain::WheatField => "in the wheat",
        Terrain::Woods => "in the woods",
        Terrain::WoodenBuilding => "in the wooden building",
        Terrain::StoneBuilding => "in the stone building",
        Terrain::Huts => "in the huts",
        Terrain::Jungle => "in the jungle",
        Terrain::KunaiGrass => "in kunai grass",
        Terrain::PalmTrees => "among the palms",
        Terrain::Swamp => "in the swamp",
        Terrain::Stream => "in the stream",
        Terrain::Gully => "in the gully",
        Terrain::Surf => "in the surf",
        Terrain::Ocean => "in the sea",
        Terrain::Sandbar => "on the sandbar",
        Terrain::River => "in the river",
    }
    .to_string()
}

/// What a caption remembers between the events of one order: who is
/// firing, so a result can say whose fire it was.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Narrator {
    firer: Option<(String, FireWord)>,
    /// A unit whose end a fire result already told.
    told_eliminated: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FireWord {
    Fire,
    OpFire,
    FinalOpFire,
    AssaultFire,
}

impl Narrator {
    /// The caption of one event, or `None` for bookkeeping no one watching
    /// needs (a unit marked Used, a CP counter returned...). Moves and
    /// routs update where `f` has the unit, so later captions of the same
    /// order place it right.
    pub fn caption(&mut self, e: &GameEvent, f: &mut Facts) -> Option<String> {
        use GameEvent as E;
        match e {
            E::Moved { unit, to, .. } | E::BackedUp { unit, to, .. } => f.moved(unit, to),
            E::Routs { unit, path, .. } => {
                if let Some(to) = path.last() {
                    f.moved(unit, to);
                }
            }
            _ => {}
        }
        let f = &*f;
        Some(match e {
            E::OpsRangeStarted { side, min, max } => {
                format!("The {} act: {min} to {max} units this time", f.side(*side))
            }
            E::MarkedOpFire { unit, .. } => {
                format!("{} watches for movement (Op Fire)", f.unit_at(unit))
            }
            E::FireStarted { unit, .. } => {
                self.firer = Some((unit.to_string(), FireWord::Fire));
                return None;
            }
            E::FireFailed { unit } => {
                format!("{} loses its nerve and holds its fire", f.unit_at(unit))
            }
            E::NoLos { unit, target, .. } => {
                format!("{} cannot see {target}: no shot", f.unit_at(unit))
            }
            E::FireRoll { unit, .. } => {
                if self.firer.as_ref().is_none_or(|(u, _)| u != unit) {
                    self.firer = Some((unit.to_string(), FireWord::Fire));
                }
                return None;
            }
            E::FireResult {
                target, outcome, ..
            } => self.fire_result(target, *outcome, f),
            E::Eliminated { unit } => {
                if self.told_eliminated.as_deref() == Some(unit.as_str()) {
                    return None;
                }
                format!("{} is wiped out", f.unit_at(unit))
            }
            E::OpFireWindow {
                side,
                mover,
                at,
                eligible,
            }
            | E::OpFireWindowAtStart {
                side,
                mover,
                at,
                eligible,
                ..
            } => format!(
                "{} enters {} under the guns of {} {} unit{}",
                f.noun(mover),
                f.bare(at),
                eligible.len(),
                f.side(*side),
                if eligible.len() == 1 { "" } else { "s" }
            ),
            E::OpFirePassed { side, .. } => format!("The {} hold their fire", f.side(*side)),
            E::OpFires {
                unit,
                mover,
                at,
                final_op_fire,
            } => {
                let word = if *final_op_fire {
                    FireWord::FinalOpFire
                } else {
                    FireWord::OpFire
                };
                self.firer = Some((unit.to_string(), word));
                let what = if *final_op_fire {
                    "Final Op Fire"
                } else {
                    "Op Fire"
                };
                format!(
                    "{what}! {} opens up on the {} at {at}",
                    f.unit_at(unit),
                    f.noun(mover)
                )
            }
            E::MoraleCheck {
                unit,
                morale,
                roll,
                passed,
                ..
            } => format!(
                "{} {} its Morale Check: rolled {roll}, needed {morale} or less",
                f.noun(unit),
                if *passed { "passes" } else { "fails" }
            ),
            E::MoraleAutoPass { .. } | E::FacesAtEnd { .. } => return None,
            E::MoveFailed { unit } => format!("{} will not move", f.unit_at(unit)),
            E::ClearingStarted { unit, what, .. } => format!(
                "{} crawls out to pull down the {}",
                f.unit_at(unit),
                what.to_lowercase()
            ),
            E::ObstacleRemoved { what, at, .. } => {
                format!("The {} at {at} is gone", what.to_lowercase())
            }
            E::ObstacleStays { unit, what, .. } => format!(
                "{} is driven off; the {} holds",
                f.unit_at(unit),
                what.to_lowercase()
            ),
            E::Moved { unit, to, .. } => format!("{} moves to {}", f.noun(unit), f.bare(to)),
            E::MoveEnded { unit, at } => format!("{} halts {}", f.noun(unit), f.place(at)),
            E::ConcealmentLost { unit, .. } => format!("{} is spotted", f.unit_at(unit)),
            E::DecoyRemoved { unit } => {
                let at = f.units.get(unit.as_str()).map_or("", |u| u.at.as_str());
                format!("The {} unit at {at} was only a decoy", f.side_of(unit))
            }
            E::Passed { side, .. } => format!("The {} pass", f.side(*side)),
            E::SideFinished { side } => format!("The {} have no one left to act", f.side(*side)),
            E::PhaseEnded { next, .. } => match next {
                Phase::Rout => "Rout Phase: shaken units must hold or run".to_string(),
                Phase::Melee => "Melee Phase: hand-to-hand fighting".to_string(),
                Phase::Recovery => "Recovery Phase: the troops catch their breath".to_string(),
                Phase::Operations => "Operations Phase".to_string(),
                Phase::Setup => return None,
            },
            E::CommandPointSpent { side, unit, .. } | E::CpSpent { side, unit, .. } => format!(
                "The {} spend a Command Point on the {}",
                f.side(*side),
                f.noun(unit)
            ),
            E::Withdraws { unit, from } => format!(
                "{} tries to break away from the melee at {from}",
                f.noun(unit)
            ),
            E::DeclaresRetreat { unit, .. } => format!("{} falls back", f.unit_at(unit)),
            E::Reluctance { unit } => {
                format!("{} goes to ground under fire and stops", f.noun(unit))
            }
            E::BackedUp { unit, to, .. } => format!("{} backs up to {}", f.noun(unit), f.bare(to)),
            E::AssaultFires { unit, target, .. } => {
                self.firer = Some((unit.to_string(), FireWord::AssaultFire));
                format!("{} assault fires at {target}", f.unit_at(unit))
            }
            E::FlankCounter { unit, at } => {
                format!("{} storms {at} from the flank", f.noun(unit))
            }
            E::RoutPart { checking, .. } if checking.is_empty() => return None,
            E::RoutPart { side, checking } => format!(
                "{} shaken unit{} of the {} must hold or run",
                checking.len(),
                if checking.len() == 1 { "" } else { "s" },
                f.side(*side)
            ),
            E::Routs { unit, path, .. } => match path.last() {
                Some(to) => format!("{} breaks and runs to {}", f.noun(unit), f.bare(to)),
                None => format!("{} breaks", f.unit_at(unit)),
            },
            E::RoutedOff { unit } => {
                format!("{} flees off the map and is lost", f.noun(unit))
            }
            E::RoutEliminated { unit, .. } => {
                format!("{} breaks with nowhere to run and is lost", f.unit_at(unit))
            }
            E::RoutCasualty {
                unit, eliminated, ..
            } => {
                if *eliminated {
                    format!("{} is cut down as it runs", f.noun(unit))
                } else {
                    format!("{} takes losses as it runs", f.noun(unit))
                }
            }
            E::SsDesperation { unit } => {
                format!("{} refuses to run and fights on, bloodied", f.unit_at(unit))
            }
            E::NoMelee => return None,
            E::MeleeBegins { at, allies, axis } => {
                let names = |ids: &[crate::world::UnitId]| {
                    ids.iter()
                        .map(|u| f.noun(u))
                        .collect::<Vec<_>>()
                        .join(" and ")
                };
                format!(
                    "Melee {}: {} against {}",
                    f.place(at),
                    names(allies),
                    names(axis)
                )
            }
            E::MeleeRoll { unit, hits, .. } => format!(
                "{} strikes: {}",
                f.noun(unit),
                match hits {
                    0 => "no hits".to_string(),
                    1 => "1 hit".to_string(),
                    n => format!("{n} hits"),
                }
            ),
            E::MeleeCasualty { unit, eliminated } => {
                if *eliminated {
                    format!("{} is killed in the melee", f.unit_at(unit))
                } else {
                    format!("{} is bloodied in the melee", f.unit_at(unit))
                }
            }
            E::Recovered { unit, now } => {
                format!("{} rallies ({now})", f.unit_at(unit))
            }
            E::TurnBegins { turn } => format!("Turn {turn} begins"),
            E::Reinforces { unit, at } => {
                format!("Reinforcements: a {} arrives {}", f.noun(unit), f.place(at))
            }
            E::GameEnded {
                winner, reasons, ..
            } => {
                let who = match winner {
                    Some(s) => format!("The {} win", f.side(*s)),
                    None => "A draw".to_string(),
                };
                match reasons.first() {
                    Some(r) => format!("{who}: {}", r.trim_end_matches('.')),
                    None => who,
                }
            }
            E::CombatEvent(log) => return combat_event(log, f),
            E::MarkedUsed { .. }
            | E::MoveStarted { .. }
            | E::CpReadied { .. }
            | E::CpsReturned { .. }
            | E::FacingTaken { .. }
            | E::AssaultFireLost { .. }
            | E::ConcealmentRegained { .. }
            | E::ConcealmentWeakened { .. }
            | E::DecisionAwaited { .. }
            | E::RoutCheck { .. }
            | E::ReinforcementHeld { .. }
            | E::MarkersRemoved => return None,
            E::Pacific(p) => match p {
                PacificEvent::AmbushCounter { unit, .. } => format!(
                    "Ambush! {} was waiting in the jungle and strikes first",
                    f.unit_at(unit)
                ),
                PacificEvent::FortificationRevealed { kind, at, .. } => {
                    format!("A hidden {} revealed at {at}", kind.to_lowercase())
                }
                PacificEvent::BanzaiAnnounced { .. } => {
                    "Banzai! The Japanese leave their holes and charge".to_string()
                }
                PacificEvent::BanzaiGdSquads { charging } if !charging.is_empty() => {
                    "The grenade dischargers charge with them".to_string()
                }
                PacificEvent::BanzaiOpFireMarked { units, .. } if !units.is_empty() => {
                    match units.len() {
                        1 => format!(
                            "{} holds its fire and waits for the charge",
                            f.unit_at(&units[0])
                        ),
                        n => format!("{n} units hold their fire and wait for the charge"),
                    }
                }
                PacificEvent::BanzaiGdSquads { .. }
                | PacificEvent::BanzaiOpFireMarked { .. }
                | PacificEvent::BanzaiForced { .. }
                | PacificEvent::BanzaiWaits { .. } => {
                    return None;
                }
                PacificEvent::FortificationProtects { .. } => return None,
                PacificEvent::Illumination { at, .. } => {
                    format!("A flare bursts over {at} and lights the ground below")
                }
                PacificEvent::TripFlare { unit, .. } => {
                    format!(
                        "A trip flare goes up: {} caught in the wire",
                        f.unit_at(unit)
                    )
                }
                PacificEvent::MuzzleFlash { unit, .. } => {
                    format!("Muzzle flashes give away {}", f.unit_at(unit))
                }
                PacificEvent::WireCleared { unit, .. } => {
                    format!("{} tears through the wire", f.unit_at(unit))
                }
                PacificEvent::IlluminationRemoved { .. }
                | PacificEvent::FlashAnswered { .. }
                | PacificEvent::DecoyRegenerated { .. }
                | PacificEvent::RainClearsSmoke { .. } => {
                    return None;
                }
                PacificEvent::StormCheck { outcome, .. } => match outcome {
                    crate::rules::monsoon::StormOutcome::Starts => {
                        "The monsoon breaks: rain hammers the ground".to_string()
                    }
                    crate::rules::monsoon::StormOutcome::Stops => "The rain stops".to_string(),
                    crate::rules::monsoon::StormOutcome::Holds => return None,
                },
                PacificEvent::SeishinDeclared { unit } => {
                    format!("Seishin! {} throws itself at the enemy", f.unit_at(unit))
                }
            },
            E::Smoke(crate::engine::smoke::SmokeEvent::Placed { at, .. }) => {
                format!("Smoke drifts across {}", f.place(at))
            }
            E::Smoke(_) => return None,
            E::Mortar(crate::engine::mortar::MortarEvent::Directed { unit, spotter, .. }) => {
                format!(
                    "A spotter in {spotter} calls down {}'s mortar",
                    f.unit_at(unit)
                )
            }
            E::Gun(crate::engine::gun::GunEvent::Turned { unit, .. }) => {
                format!("{} swings its gun round", f.unit_at(unit))
            }
            E::Gun(crate::engine::gun::GunEvent::ProfCheck {
                unit,
                passed: false,
                ..
            }) => format!("{} misses its chance to fire", f.unit_at(unit)),
            E::Gun(_) => return None,
        })
    }

    fn fire_result(&mut self, target: &str, outcome: FireOutcome, f: &Facts) -> String {
        let (firer, word) = self
            .firer
            .clone()
            .unwrap_or_else(|| (String::new(), FireWord::Fire));
        let kind = match word {
            FireWord::Fire => "fire",
            FireWord::OpFire => "Op Fire",
            FireWord::FinalOpFire => "Final Op Fire",
            FireWord::AssaultFire => "assault fire",
        };
        let by = if firer.is_empty() {
            kind.to_string()
        } else {
            format!("{} {kind} from {}", f.weapon(&firer), f.source(&firer))
        };
        let who = f.unit_at(target);
        match outcome {
            FireOutcome::NoEffect => format!("{who} shrugs off {by}"),
            FireOutcome::Suppressed => format!("{who} pinned by {by}"),
            FireOutcome::Reduced => format!("{who} hit hard by {by}"),
            FireOutcome::Eliminated => {
                self.told_eliminated = Some(target.to_string());
                format!("{who} wiped out by {by}")
            }
        }
    }
}

/// Combat Events (R 17.0): the entry drawn and its effects on units.
fn combat_event(log: &EventLog, f: &Facts) -> Option<String> {
    Some(match log {
        EventLog::Entry { side, title, .. } => {
            format!("Combat Event for the {}: {title}!", f.side(*side))
        }
        EventLog::ChosenEntry { side, title, .. } => {
            format!("The {} choose: {title}", f.side(*side))
        }
        EventLog::Reduced {
            unit, eliminated, ..
        } => {
            if *eliminated {
                format!("{} is lost", f.unit_at(unit))
            } else {
                format!("{} is hit hard", f.unit_at(unit))
            }
        }
        EventLog::Removed { unit, .. } => format!("{} is taken off the board", f.unit_at(unit)),
        EventLog::Restored { unit } => format!("{} is back to full strength", f.noun(unit)),
        EventLog::Returned { unit, at, .. } => {
            format!("{} returns to the fight {}", f.noun(unit), f.place(at))
        }
        EventLog::FortificationRevealed { at } => format!("A fortification is spotted at {at}"),
        EventLog::Concealed { unit } => format!("{} vanishes from sight", f.noun(unit)),
        EventLog::CommandPoints { side, gained, .. } => format!(
            "The {} gain {gained} Command Point{}",
            f.side(*side),
            if *gained == 1 { "" } else { "s" }
        ),
        EventLog::Banzai { unit } => format!("Banzai! {} charges", f.unit_at(unit)),
        EventLog::AmbushAttack { unit, hits, .. } => format!(
            "Ambush! {} strikes: {hits} hit{}",
            f.noun(unit),
            if *hits == 1 { "" } else { "s" }
        ),
        EventLog::Check { .. }
        | EventLog::Choose { .. }
        | EventLog::Picked { .. }
        | EventLog::NoEffect { .. }
        | EventLog::MarkedUsed { .. }
        | EventLog::Readied { .. }
        | EventLog::Fugg { .. }
        | EventLog::BanzaiCharges { .. } => return None,
    })
}

/// The captions of one order's events, in order.
pub fn captions(events: &[GameEvent], f: &Facts) -> Vec<(usize, String)> {
    let mut n = Narrator::default();
    let mut f = f.clone();
    events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| n.caption(e, &mut f).map(|c| (i, c)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Fp;

    /// The Guadalcanal ridge in small: a Marine squad in kunai grass, a
    /// Marine MG in the open, a Japanese MG in a bunker and a squad in the
    /// jungle.
    fn facts() -> Facts {
        let unit = |noun: &str, side, at: &str, weapon| UnitFacts {
            noun: noun.to_string(),
            side,
            at: at.to_string(),
            weapon,
        };
        let mut units = HashMap::new();
        units.insert(
            "M1".to_string(),
            unit("Marine squad", SideId::Allies, "E5", "rifle"),
        );
        units.insert(
            "M5".to_string(),
            unit("Marine MG team", SideId::Allies, "C3", "MG"),
        );
        units.insert(
            "J1".to_string(),
            unit("Japanese MG team", SideId::Axis, "F4", "MG"),
        );
        units.insert(
            "J4".to_string(),
            unit("Japanese squad", SideId::Axis, "H4", "rifle"),
        );
        let places = [
            ("E5", place(Terrain::KunaiGrass, None)),
            ("C3", place(Terrain::Open, None)),
            (
                "F4",
                place(Terrain::Jungle, Some(FortificationKind::Bunker)),
            ),
            ("H4", place(Terrain::Jungle, None)),
            ("E6", place(Terrain::Stream, None)),
            (
                "I4",
                place(Terrain::Jungle, Some(FortificationKind::Foxhole)),
            ),
        ]
        .into_iter()
        .map(|(h, p)| (h.to_string(), p))
        .collect();
        Facts {
            units,
            places,
            sides: ["Marines".to_string(), "Japanese".to_string()],
        }
    }

    fn said(events: &[GameEvent]) -> Vec<String> {
        captions(events, &facts())
            .into_iter()
            .map(|c| c.1)
            .collect()
    }

    fn result(target: &str, outcome: FireOutcome) -> GameEvent {
        GameEvent::FireResult {
            target: target.into(),
            arithmetic: "6 FP".to_string(),
            fp: Fp(6),
            roll: 3,
            outcome,
        }
    }

    fn fire(unit: &str, hex: &str, outcome: FireOutcome, target: &str) -> Vec<GameEvent> {
        vec![
            GameEvent::FireStarted {
                unit: unit.into(),
                target: hex.to_string(),
                used: 1,
                max: 3,
            },
            GameEvent::FireRoll {
                unit: unit.into(),
                target: hex.to_string(),
                roll: 3,
            },
            result(target, outcome),
        ]
    }

    #[test]
    fn fire_results_name_target_place_weapon_and_source() {
        assert_eq!(
            said(&fire("J1", "E5", FireOutcome::Suppressed, "M1")),
            ["Marine squad in kunai grass at E5 pinned by MG fire from the bunker at F4"]
        );
        assert_eq!(
            said(&fire("J1", "E5", FireOutcome::NoEffect, "M1")),
            ["Marine squad in kunai grass at E5 shrugs off MG fire from the bunker at F4"]
        );
        assert_eq!(
            said(&fire("M1", "H4", FireOutcome::Reduced, "J4")),
            ["Japanese squad in the jungle at H4 hit hard by rifle fire from kunai grass at E5"]
        );
        // A firer in the open is named by what it is.
        let mut killed = fire("M5", "H4", FireOutcome::Eliminated, "J4");
        killed.push(GameEvent::Eliminated { unit: "J4".into() });
        assert_eq!(
            said(&killed),
            ["Japanese squad in the jungle at H4 wiped out by MG fire from open ground at C3"]
        );
    }

    #[test]
    fn a_failed_fire_and_no_line_of_sight() {
        assert_eq!(
            said(&[
                GameEvent::FireFailed { unit: "M1".into() },
                GameEvent::NoLos {
                    unit: "J1".into(),
                    target: "C3".to_string(),
                    why: "blocked by the jungle at D4".to_string(),
                },
                GameEvent::Eliminated { unit: "M5".into() },
            ]),
            [
                "Marine squad in kunai grass at E5 loses its nerve and holds its fire",
                "Japanese MG team in the bunker at F4 cannot see C3: no shot",
                "Marine MG team in the open at C3 is wiped out",
            ]
        );
    }

    #[test]
    fn op_fire_window_fire_and_hold() {
        let events = [
            GameEvent::Moved {
                unit: "M1".into(),
                from: "E5".to_string(),
                to: "E6".to_string(),
                cost: "2".to_string(),
                left: "3".to_string(),
            },
            GameEvent::OpFireWindow {
                side: SideId::Axis,
                mover: "M1".into(),
                at: "E6".to_string(),
                eligible: vec!["J1".into(), "J4".into()],
            },
            GameEvent::OpFires {
                unit: "J1".into(),
                mover: "M1".into(),
                at: "E6".to_string(),
                final_op_fire: false,
            },
            GameEvent::FireRoll {
                unit: "J1".into(),
                target: "E6".to_string(),
                roll: 2,
            },
            result("M1", FireOutcome::Suppressed),
            GameEvent::OpFirePassed {
                side: SideId::Axis,
                at: "E6".to_string(),
            },
            GameEvent::OpFires {
                unit: "J4".into(),
                mover: "M1".into(),
                at: "E6".to_string(),
                final_op_fire: true,
            },
            result("M1", FireOutcome::Reduced),
            GameEvent::MarkedOpFire {
                unit: "M5".into(),
                side: SideId::Allies,
                facing: None,
                used: 1,
                max: 2,
            },
        ];
        assert_eq!(
            said(&events),
            [
                "Marine squad moves to the stream at E6",
                "Marine squad enters the stream at E6 under the guns of 2 Japanese units",
                "Op Fire! Japanese MG team in the bunker at F4 opens up on the Marine squad at E6",
                "Marine squad in the stream at E6 pinned by MG Op Fire from the bunker at F4",
                "The Japanese hold their fire",
                "Final Op Fire! Japanese squad in the jungle at H4 opens up on the Marine squad at E6",
                "Marine squad in the stream at E6 hit hard by rifle Final Op Fire from the jungle at H4",
                "Marine MG team in the open at C3 watches for movement (Op Fire)",
            ]
        );
    }

    #[test]
    fn moves_and_morale() {
        let events = [
            GameEvent::MoveStarted {
                unit: "M1".into(),
                used: 1,
                max: 3,
            },
            GameEvent::Moved {
                unit: "M1".into(),
                from: "E5".to_string(),
                to: "E6".to_string(),
                cost: "2".to_string(),
                left: "3".to_string(),
            },
            GameEvent::ConcealmentLost {
                unit: "M1".into(),
                why: "it moved in enemy LOS",
            },
            GameEvent::MoraleCheck {
                unit: "M1".into(),
                morale: 6,
                roll: 8,
                passed: false,
                rule: "R 9.0",
            },
            GameEvent::MoveEnded {
                unit: "M1".into(),
                at: "E6".to_string(),
            },
            GameEvent::MoveFailed { unit: "M5".into() },
            GameEvent::DecoyRemoved { unit: "J4".into() },
        ];
        assert_eq!(
            said(&events),
            [
                "Marine squad moves to the stream at E6",
                "Marine squad in the stream at E6 is spotted",
                "Marine squad fails its Morale Check: rolled 8, needed 6 or less",
                "Marine squad halts in the stream at E6",
                "Marine MG team in the open at C3 will not move",
                "The Japanese unit at H4 was only a decoy",
            ]
        );
    }

    #[test]
    fn routs() {
        let events = [
            GameEvent::RoutPart {
                side: SideId::Axis,
                checking: vec!["J4".into()],
            },
            GameEvent::RoutPart {
                side: SideId::Allies,
                checking: vec![],
            },
            GameEvent::Routs {
                unit: "J4".into(),
                path: vec!["H5".to_string(), "I4".to_string()],
                goal: "toward its Rout Edge",
            },
            GameEvent::RoutCasualty {
                unit: "J4".into(),
                margin: 4,
                casualty: 4,
                eliminated: false,
            },
            GameEvent::RoutedOff { unit: "M5".into() },
            GameEvent::RoutEliminated {
                unit: "M1".into(),
                why: "no legal rout (R 11.0)",
            },
        ];
        assert_eq!(
            said(&events),
            [
                "1 shaken unit of the Japanese must hold or run",
                "Japanese squad breaks and runs to a foxhole at I4",
                "Japanese squad takes losses as it runs",
                "Marine MG team flees off the map and is lost",
                "Marine squad in kunai grass at E5 breaks with nowhere to run and is lost",
            ]
        );
    }

    #[test]
    fn melee() {
        let events = [
            GameEvent::MeleeBegins {
                at: "H4".to_string(),
                allies: vec!["M1".into()],
                axis: vec!["J4".into()],
            },
            GameEvent::MeleeRoll {
                unit: "M1".into(),
                fp: 4,
                dice: vec![2, 7],
                hits: 1,
                rule: "R 12.0",
            },
            GameEvent::MeleeRoll {
                unit: "J4".into(),
                fp: 5,
                dice: vec![9, 8],
                hits: 0,
                rule: "R 12.0",
            },
            GameEvent::MeleeCasualty {
                unit: "J4".into(),
                eliminated: true,
            },
            GameEvent::NoMelee,
        ];
        assert_eq!(
            said(&events),
            [
                "Melee in the jungle at H4: Marine squad against Japanese squad",
                "Marine squad strikes: 1 hit",
                "Japanese squad strikes: no hits",
                "Japanese squad in the jungle at H4 is killed in the melee",
            ]
        );
    }

    #[test]
    fn combat_events() {
        use crate::rules::combat_events::Table;
        let events = [
            GameEvent::CombatEvent(EventLog::Entry {
                side: SideId::Axis,
                table: Table::Japanese,
                roll: 7,
                entry: "7".to_string(),
                title: "Banzai Charge".to_string(),
            }),
            GameEvent::CombatEvent(EventLog::Banzai { unit: "J4".into() }),
            GameEvent::CombatEvent(EventLog::Reduced {
                unit: "M1".into(),
                why: "Sniper".to_string(),
                eliminated: false,
            }),
            GameEvent::CombatEvent(EventLog::NoEffect {
                why: "no target".to_string(),
            }),
        ];
        assert_eq!(
            said(&events),
            [
                "Combat Event for the Japanese: Banzai Charge!",
                "Banzai! Japanese squad in the jungle at H4 charges",
                "Marine squad in kunai grass at E5 is hit hard",
            ]
        );
    }

    #[test]
    fn phases_turns_and_ops_ranges() {
        let events = [
            GameEvent::OpsRangeStarted {
                side: SideId::Allies,
                min: 1,
                max: 3,
            },
            GameEvent::Passed {
                side: SideId::Allies,
                used: 2,
                forced: false,
            },
            GameEvent::PhaseEnded {
                phase: Phase::Operations,
                next: Phase::Rout,
            },
            GameEvent::PhaseEnded {
                phase: Phase::Rout,
                next: Phase::Melee,
            },
            GameEvent::PhaseEnded {
                phase: Phase::Melee,
                next: Phase::Recovery,
            },
            GameEvent::MarkersRemoved,
            GameEvent::TurnBegins { turn: 2 },
            GameEvent::Reinforces {
                unit: "M5".into(),
                at: "C3".to_string(),
            },
        ];
        assert_eq!(
            said(&events),
            [
                "The Marines act: 1 to 3 units this time",
                "The Marines pass",
                "Rout Phase: shaken units must hold or run",
                "Melee Phase: hand-to-hand fighting",
                "Recovery Phase: the troops catch their breath",
                "Turn 2 begins",
                "Reinforcements: a Marine MG team arrives in the open at C3",
            ]
        );
    }

    #[test]
    fn the_verdict() {
        let won = GameEvent::GameEnded {
            winner: Some(SideId::Axis),
            reasons: vec![
                "Marines control 0 of 2 objective hexes (need 2): not met.".to_string(),
                "Otherwise the Japanese win.".to_string(),
            ],
            losses: "Allies 3 eliminated, 1 Reduced; Axis 1 eliminated, 0 Reduced".to_string(),
        };
        let draw = GameEvent::GameEnded {
            winner: None,
            reasons: vec![],
            losses: String::new(),
        };
        assert_eq!(
            said(&[won, draw]),
            [
                "The Japanese win: Marines control 0 of 2 objective hexes (need 2): not met",
                "A draw",
            ]
        );
    }

    #[test]
    fn nouns_and_places_from_the_data() {
        assert_eq!(
            unit_noun(Nationality::UsMarines, UnitClass::Squad, false),
            "Marine squad"
        );
        assert_eq!(
            unit_noun(Nationality::German, UnitClass::MgTeam, true),
            "depleted German MG team"
        );
        assert_eq!(place(Terrain::KunaiGrass, None), "in kunai grass");
        assert_eq!(
            place(Terrain::Open, Some(FortificationKind::Wire)),
            "in the open"
        );
        assert_eq!(people(Nationality::AmericanAirborne), "Paratroopers");
        assert_eq!(weapon(UnitClass::GdSquad), "mortar");
    }
}
