//! Checks a unit takes to act: the Morale Check before moving or firing
//! (R 5.0, R 6.0, R 7.1).

use bevy::prelude::*;

use crate::rules::Morale;
use crate::rules::morale::{MoraleContext, MoraleModifier, morale_value};
use crate::rules::odds::morale_check;
use crate::world::{AidRes, RosterRes, Suppression, Unit};

use super::Dice;
use super::events::GameEvent;

/// The MC a unit takes to act: Morale 10 passes with no roll; otherwise the
/// d10 must roll at most the current Morale (white, yellow or red by
/// Suppression). Returns whether it passed; logs the roll.
pub fn morale_check_to_act(
    world: &mut World,
    entity: Entity,
    rule: &'static str,
    events: &mut Vec<GameEvent>,
) -> bool {
    morale_check_with(world, entity, &[], rule, events)
}

/// The same MC with Morale modifiers (PAC §5): Declared Retreat +4
/// (R 5.3), Withdrawal −3 with no automatic pass (R 5.1), Pluck (R 60.1)...
pub fn morale_check_with(
    world: &mut World,
    entity: Entity,
    modifiers: &[MoraleModifier],
    rule: &'static str,
    events: &mut Vec<GameEvent>,
) -> bool {
    let aid = world.resource::<AidRes>().0.clone();
    let Some(unit) = world.entity(entity).get::<Unit>().cloned() else {
        return false;
    };
    let suppression = world.entity(entity).get::<Suppression>().copied();
    let Some(ut) = world.resource::<RosterRes>().0.get(&unit.kind).cloned() else {
        return false;
    };
    let side = if unit.reduced { ut.reduced } else { ut.full };
    let withdrawing = modifiers.contains(&MoraleModifier::Withdrawal);
    let morale = morale_value(
        &aid,
        &MoraleContext {
            morale: side.morale,
            suppression: suppression.into(),
            modifiers: modifiers.to_vec(),
        },
    )
    .map_or(Morale(side.morale.0), |b| b.total);
    if !morale_check(&aid, morale, withdrawing).needs_roll {
        if !modifiers.is_empty() {
            events.push(GameEvent::MoraleAutoPass {
                unit: unit.id,
                morale: morale.0,
                rule,
            });
        }
        return true;
    }
    let roll = world.resource_mut::<Dice>().d10();
    let passed = roll.0 <= morale.0;
    events.push(GameEvent::MoraleCheck {
        unit: unit.id,
        morale: morale.0,
        roll: roll.0,
        passed,
        rule,
    });
    passed
}
