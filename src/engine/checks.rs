//! Checks a unit takes to act: the Morale Check before moving or firing
//! (R 5.0, R 6.0, R 7.1).

use bevy::prelude::*;

use crate::rules::Morale;
use crate::rules::morale::{MoraleContext, MoraleModifier, morale_total};
use crate::rules::odds::morale_check;
use crate::world::{AidRes, RosterRes, Suppression, Unit};

use super::Dice;
use super::command_points::CpFunction;
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
/// (R 5.3), Withdrawal -3 with no automatic pass (R 5.1), Pluck (R 60.1)...
pub fn morale_check_with(
    world: &mut World,
    entity: Entity,
    modifiers: &[MoraleModifier],
    rule: &'static str,
    events: &mut Vec<GameEvent>,
) -> bool {
    let Some((unit, morale)) = morale_with(world, entity, modifiers) else {
        return false;
    };
    let aid = world.resource::<AidRes>().0.clone();
    let withdrawing = modifiers.contains(&MoraleModifier::Withdrawal);
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
        unit: unit.id.clone(),
        morale: morale.0,
        roll: roll.0,
        passed,
        rule,
    });
    if passed || !super::command_points::use_ready(world, entity, CpFunction::Reroll, events) {
        return passed;
    }
    // A CP readied on the unit re-rolls the failed MC (R 3.0 #1).
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

/// The unit and the Morale it checks against to act now: its side's value,
/// coloured by its Suppression (R 7.1). The fire preview shows the same.
pub fn morale_to_act(world: &World, entity: Entity) -> Option<(Unit, Morale)> {
    morale_with(world, entity, &[])
}

/// The unit and its Morale with these modifiers (R 7.1, PAC §5).
fn morale_with(
    world: &World,
    entity: Entity,
    modifiers: &[MoraleModifier],
) -> Option<(Unit, Morale)> {
    let aid = world.resource::<AidRes>().0.clone();
    let unit = world.get_entity(entity).ok()?.get::<Unit>()?.clone();
    let suppression = world.get::<Suppression>(entity).copied();
    let roster = world.resource::<RosterRes>().0.clone();
    let ut = roster.get(&unit.kind)?;
    // +2 Morale for a charging Squad (R 59.6).
    let mut modifiers = modifiers.to_vec();
    if super::banzai::charging(world, entity) {
        modifiers.push(MoraleModifier::Banzai);
    }
    // +1 Morale in the Operations Phase after declaring Seishin (R 59.5).
    if super::seishin::morale_applies(world, entity) {
        modifiers.push(MoraleModifier::Seishin);
    }
    let side = if unit.reduced { ut.reduced } else { ut.full };
    let morale = morale_total(
        &aid,
        &MoraleContext {
            morale: side.morale,
            suppression: suppression.into(),
            modifiers,
        },
    );
    Some((unit, morale))
}
