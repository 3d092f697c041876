//! Losing Conceal counters — R 15.0 (and Decoys removed when they lose it).

use bevy::prelude::*;

use crate::scenario::roster::UnitClass;
use crate::world::{Concealed, RosterRes, Unit};

use super::events::GameEvent;

/// Takes the Conceal counter off a unit; a Decoy is removed instead (R 15.0).
/// Returns false when the unit was a Decoy and is gone.
pub fn lose_concealment(
    world: &mut World,
    entity: Entity,
    why: &'static str,
    events: &mut Vec<GameEvent>,
) -> bool {
    let Some(unit) = world.entity(entity).get::<Unit>().cloned() else {
        return false;
    };
    if world.entity(entity).get::<Concealed>().is_none() {
        return true;
    }
    let decoy = world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .is_some_and(|t| t.class == UnitClass::Decoy);
    if decoy {
        world.entity_mut(entity).despawn();
        events.push(GameEvent::DecoyRemoved { unit: unit.id });
        false
    } else {
        world.entity_mut(entity).remove::<Concealed>();
        events.push(GameEvent::ConcealmentLost { unit: unit.id, why });
        true
    }
}

/// R 15.0: an unconcealed Infantry unit marked Op Fire or Used (but not
/// after firing or Rout) out of the LOS of every enemy unit takes a Conceal
/// counter. A Japanese unit's -2 counter never comes back: it gets a -1
/// (R 59.2). Returns whether it took one.
pub fn regain_concealment(
    world: &mut World,
    entity: Entity,
    why: &'static str,
    events: &mut Vec<GameEvent>,
) -> bool {
    let (side, unit, at) = {
        let e = world.entity(entity);
        match (e.get::<Unit>(), e.get::<crate::world::Location>()) {
            (Some(u), Some(l)) if e.get::<Concealed>().is_none() => (u.side, u.id.clone(), l.coord),
            _ => return false,
        }
    };
    let board = world.resource::<crate::world::BoardRes>().0.clone();
    let aid = world.resource::<crate::world::AidRes>().0.clone();
    let enemies: Vec<crate::scenario::Coord> =
        crate::world::queries::with_query::<(&Unit, &crate::world::Location), (), _>(world, |q| {
            q.filter(|(u, _)| u.side != side)
                .map(|(_, l)| l.coord)
                .collect()
        });
    // At Night an unseen unit is out of LOS for Concealment (R 50.2).
    let night = super::night::scene(world);
    let seen = crate::rules::los::with_blocked_table(&board, &aid, |table| {
        enemies
            .iter()
            .any(|&e| night.as_ref().is_none_or(|n| n.sees(e, at)) && !table.blocked(e, at))
    });
    if seen {
        return false;
    }
    world
        .entity_mut(entity)
        .insert(Concealed { minus_two: false });
    events.push(GameEvent::ConcealmentRegained { unit, why });
    true
}

/// R 59.2: a Japanese -2 Conceal counter becomes -1 once the unit leaves
/// its starting hex.
pub fn weaken_japanese_concealment(world: &mut World, entity: Entity, events: &mut Vec<GameEvent>) {
    let Some(c) = world.entity(entity).get::<Concealed>().copied() else {
        return;
    };
    if !c.minus_two {
        return;
    }
    world
        .entity_mut(entity)
        .insert(Concealed { minus_two: false });
    if let Some(u) = world.entity(entity).get::<Unit>() {
        events.push(GameEvent::ConcealmentWeakened { unit: u.id.clone() });
    }
}
