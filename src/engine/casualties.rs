//! The one casualty writer: what a hit does to one unit, whoever deals it —
//! fire (R 6.2, R 7.0, R 8.0, R 15.0), a Combat Event (R 17.0), a failed
//! Rout MC (R 11.0, R 11.1, R 57.3) or Melee (R 12.0, R 12.1). A Reduced unit
//! that is Reduced again is eliminated (R 8.0); an eliminated unit leaves the
//! board. Each dealer adds its own (`By`): its log lines, the Suppression
//! that comes with the hit, whether the unit loses its Conceal counter, and
//! the Graveyard that Combat Event entry 4 reads.

use bevy::prelude::*;

use crate::rules::fire::{SuppressionLevel, suppression_step};
use crate::scenario::roster::UnitClass;
use crate::world::{RosterRes, Suppression, Unit};

use super::combat_events::{EventLog, Graveyard};
use super::events::GameEvent;

/// A casualty to one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// One step of Suppression (R 6.2, R 7.0).
    Suppress,
    /// Reduced (R 8.0): eliminated if Reduced already.
    Reduce,
    /// Eliminated outright.
    Eliminate,
}

/// Who deals the casualty, with what that rule adds to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By<'a> {
    /// A fire attack: `Eliminated`; a Reduced unit is Fully Suppressed; a
    /// Suppressed unit loses its Conceal counter and a Decoy is removed
    /// (R 15.0).
    Fire,
    /// A Combat Event (R 17.0), `why` for its line: a Decoy or Gun is removed
    /// (a Gun counts as eliminated, R 20.2, R 20.8); in the Ambush's Melee a
    /// WT is eliminated by any casualty (R 12.0). An eliminated unit goes to
    /// the Graveyard at once (entry 4 may be played within the same order).
    /// A Reduced unit is Fully Suppressed and loses its Conceal counter.
    CombatEvent { why: &'a str, melee: bool },
    /// A Rout (R 11.0): eliminated with its reason; a Reduced unit is Fully
    /// Suppressed (R 57.3), no line of its own.
    Rout { why: &'static str },
    /// The Rout casualty after the move (R 11.1): its line first, then
    /// Reduced and Fully Suppressed, or eliminated.
    RoutCasualty { margin: u8, casualty: u8 },
    /// Melee (R 12.1): its line first; a Reduced unit takes no Suppression.
    Melee,
}

/// Applies `hit` to the unit `e` and writes its events. Returns true when
/// the unit has left the board (eliminated, or a Decoy or Gun removed).
pub fn take(
    world: &mut World,
    e: Entity,
    hit: Hit,
    by: By<'_>,
    events: &mut Vec<GameEvent>,
) -> bool {
    let Some(unit) = world.get::<Unit>(e).cloned() else {
        return true;
    };
    if let By::CombatEvent { why, melee } = by {
        let class = world
            .resource::<RosterRes>()
            .0
            .get(&unit.kind)
            .map(|t| t.class);
        // A Decoy is removed; a Gun has no Reduced side, so any casualty
        // eliminates it (R 20.2, R 20.8) and it counts as eliminated.
        if let Some(class) = class.filter(|c| crate::rules::combat_events::casualty_removes(*c)) {
            world.entity_mut(e).despawn();
            events.push(GameEvent::CombatEvent(EventLog::Removed {
                unit: unit.id.clone(),
                why: format!("a {}, {why}", class.name()),
            }));
            if class.is_gun() {
                events.push(GameEvent::Eliminated { unit: unit.id });
            }
            return true;
        }
        if melee && hit == Hit::Reduce && class.is_some_and(UnitClass::is_weapon_team) {
            return eliminate(world, e, unit, by, events);
        }
    }
    match hit {
        Hit::Eliminate => eliminate(world, e, unit, by, events),
        Hit::Reduce if unit.reduced => eliminate(world, e, unit, by, events),
        Hit::Reduce => {
            match by {
                By::RoutCasualty { margin, casualty } => {
                    events.push(GameEvent::RoutCasualty {
                        unit: unit.id.clone(),
                        margin,
                        casualty,
                        eliminated: false,
                    });
                }
                By::Melee => events.push(GameEvent::MeleeCasualty {
                    unit: unit.id.clone(),
                    eliminated: false,
                }),
                _ => {}
            }
            if let Some(mut u) = world.get_mut::<Unit>(e) {
                u.reduced = true;
            }
            if by != By::Melee {
                world.entity_mut(e).insert(Suppression::Full);
            }
            if let By::CombatEvent { why, .. } = by {
                events.push(GameEvent::CombatEvent(EventLog::Reduced {
                    unit: unit.id,
                    why: why.to_string(),
                    eliminated: false,
                }));
            }
            after_suppression(world, e, by, events)
        }
        Hit::Suppress => {
            let level = SuppressionLevel::from(world.get::<Suppression>(e).copied());
            match suppression_step(level) {
                SuppressionLevel::Suppressed => {
                    world.entity_mut(e).insert(Suppression::Suppressed);
                }
                SuppressionLevel::Full => {
                    world.entity_mut(e).insert(Suppression::Full);
                }
                SuppressionLevel::None => {}
            }
            after_suppression(world, e, by, events)
        }
    }
}

/// A Suppressed unit loses its Conceal counter; a Decoy is removed (R 15.0).
/// Fire and Combat Events only: a routing unit or one in Melee keeps it.
fn after_suppression(
    world: &mut World,
    e: Entity,
    by: By<'_>,
    events: &mut Vec<GameEvent>,
) -> bool {
    match by {
        By::Fire | By::CombatEvent { .. } => {
            !super::concealment::reveal(world, e, "it was Suppressed", events)
        }
        By::Rout { .. } | By::RoutCasualty { .. } | By::Melee => false,
    }
}

/// The unit is eliminated: its line, then it leaves the board.
fn eliminate(
    world: &mut World,
    e: Entity,
    unit: Unit,
    by: By<'_>,
    events: &mut Vec<GameEvent>,
) -> bool {
    let id = unit.id;
    match by {
        By::Fire => events.push(GameEvent::Eliminated { unit: id.clone() }),
        By::CombatEvent { why, .. } => {
            events.push(GameEvent::CombatEvent(EventLog::Reduced {
                unit: id.clone(),
                why: why.to_string(),
                eliminated: true,
            }));
            events.push(GameEvent::Eliminated { unit: id.clone() });
        }
        By::Rout { why } => events.push(GameEvent::RoutEliminated {
            unit: id.clone(),
            why,
        }),
        By::RoutCasualty { margin, casualty } => events.push(GameEvent::RoutCasualty {
            unit: id.clone(),
            margin,
            casualty,
            eliminated: true,
        }),
        By::Melee => events.push(GameEvent::MeleeCasualty {
            unit: id.clone(),
            eliminated: true,
        }),
    }
    world.entity_mut(e).despawn();
    if matches!(by, By::CombatEvent { .. }) {
        world
            .get_resource_or_insert_with(Graveyard::default)
            .0
            .push(id);
    }
    true
}
