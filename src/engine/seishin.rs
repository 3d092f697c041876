//! Seishin in the engine — R 59.5: a `Move` order with `seishin: true`
//! declares it. The order is checked before anything happens
//! (`rules::seishin`, and the path with the +1 MP); the declaration holds
//! once the Squad passes its MC to move: +1 MP for that move, +1 Morale for
//! its MCs in the Operations Phase (not Rout) and +2 Melee FP that turn.
//! The counter comes off in the Recovery Phase.

use bevy::prelude::*;

use crate::rules::Mp;
use crate::rules::seishin::{Declaration, check_declaration};
use crate::world::{AidRes, Location, Phase, RosterRes, TurnTrack, Unit};

use super::events::GameEvent;
use super::orders::Refusal;
use super::pacific::PacificEvent;

/// The Squad declared Seishin this turn (R 59.5).
#[derive(Component, Debug, Clone, Copy)]
pub struct Seishin;

/// Whether `entity` declared Seishin this turn and still gets its effects
/// (not in a Banzai Charge, R 59.6).
pub fn declared(world: &World, entity: Entity) -> bool {
    world.get::<Seishin>(entity).is_some() && world.get::<super::banzai::Banzai>(entity).is_none()
}

/// The +1 MP of a Seishin move (R 59.5), from the Player Aid constants.
pub fn mp(world: &World) -> Mp {
    Mp::whole(u16::from(world.resource::<AidRes>().0.constants.seishin_mp))
}

/// +1 MP for a Squad that declared Seishin (R 59.5).
pub fn mp_bonus(world: &World, entity: Entity) -> Mp {
    if declared(world, entity) {
        mp(world)
    } else {
        Mp(0)
    }
}

/// +1 Morale in the Operations Phase, not in the Rout Phase (R 59.5).
pub fn morale_applies(world: &World, entity: Entity) -> bool {
    declared(world, entity)
        && world
            .get_resource::<TurnTrack>()
            .is_some_and(|t| t.phase == Phase::Operations)
}

/// +2 Melee FP that turn (R 59.5).
pub fn melee_bonus(world: &World, entity: Entity) -> u8 {
    if declared(world, entity) {
        world.resource::<AidRes>().0.constants.seishin_melee_fp
    } else {
        0
    }
}

/// Checks a Seishin declaration for `entity` moving to `end` (R 59.5): an
/// "S" Squad not in an enemy's hex, not charging, whose path ends in a hex
/// holding an enemy unit now (not in its Cave).
pub fn check(
    world: &mut World,
    entity: Entity,
    end: Option<crate::scenario::Coord>,
    declared_retreat: bool,
) -> Result<(), Refusal> {
    let (unit, at) = {
        let e = world.entity(entity);
        match (e.get::<Unit>(), e.get::<Location>()) {
            (Some(u), Some(l)) => (u.clone(), *l),
            _ => {
                return Err(Refusal::UnknownUnit {
                    unit: crate::world::UnitId::default(),
                });
            }
        }
    };
    let refuse = |reason: String| Refusal::Seishin {
        unit: unit.id.clone(),
        reason,
    };
    if declared_retreat {
        return Err(refuse(
            "a Declared Retreat cannot declare Seishin, which must enter an enemy hex (R 5.3, R 59.5)"
                .into(),
        ));
    }
    let ut = world.resource::<RosterRes>().0.get(&unit.kind).cloned();
    let mut q = world.query::<(&Unit, &Location)>();
    let enemies: Vec<crate::scenario::Coord> = q
        .iter(world)
        .filter(|(o, l)| o.side != unit.side && !l.in_cave)
        .map(|(_, l)| l.coord)
        .collect();
    let enemy_at = |c: crate::scenario::Coord| enemies.contains(&c);
    let with_enemy = !at.in_cave && enemy_at(at.coord);
    let ends_at_enemy = end.is_some_and(enemy_at);
    let d = Declaration {
        seishin_squad: ut.as_ref().is_some_and(|t| t.seishin),
        class: ut.map_or(crate::scenario::roster::UnitClass::Decoy, |t| t.class),
        with_enemy,
        charging: super::banzai::charging(world, entity),
        ends_at_enemy,
    };
    check_declaration(&d).map_err(|r| refuse(r.to_string()))
}

/// The Squad passed its MC to move: Seishin is declared (R 59.5).
pub fn declare(world: &mut World, entity: Entity, events: &mut Vec<GameEvent>) {
    let Some(unit) = world.get::<Unit>(entity).map(|u| u.id.clone()) else {
        return;
    };
    world.entity_mut(entity).insert(Seishin);
    events.push(GameEvent::Pacific(PacificEvent::SeishinDeclared { unit }));
}

/// The Recovery Phase: Seishin lasts for its turn only (R 59.5).
pub fn end_of_turn(world: &mut World) {
    let all: Vec<Entity> = crate::world::queries::collect::<Entity, With<Seishin>, _>(world, |e| e);
    for e in all {
        world.entity_mut(e).remove::<Seishin>();
    }
}
