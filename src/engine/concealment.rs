//! Losing Conceal counters — R 15.0 (and Decoys removed when they lose it),
//! and the facing a revealed Infantry unit chooses then (R 2.2).

use bevy::prelude::*;

use crate::engine::decision::{Decision, Pending};
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::Spine;
use crate::world::{Concealed, Facing, RosterRes, Unit};

use super::orders::Refusal;

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

/// R 2.2: "A Concealed Infantry unit chooses its facing when it loses its
/// Concealment." The unit lost its counter by an enemy's doing and its
/// owner has not yet chosen; until then it has no facing when attacked
/// (all fire against it is towards its front), as while Concealed.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FacingAwaited {
    pub why: &'static str,
}

/// Takes the Conceal counter off a unit by another's doing: an enemy moving
/// next to it or into its Jungle hex, a Suppression, a Combat Event
/// (R 15.0, R 17.0, R 51.1). Where facing is in use, an Infantry unit (not
/// a Gun, R 20.0; not the unit moving, which adopts its facing at the end
/// of its move) then chooses its facing (R 2.2): its owner is asked at the
/// next pause of the action under way ([`ask_facing`]). A unit losing its
/// counter by its own fire takes its facing as it fires
/// (`fire::take_facing`). Returns false when the unit was a Decoy and is
/// gone.
pub fn reveal(
    world: &mut World,
    entity: Entity,
    why: &'static str,
    events: &mut Vec<GameEvent>,
) -> bool {
    let was_concealed = world.get::<Concealed>(entity).is_some();
    if !lose_concealment(world, entity, why, events) {
        return false;
    }
    if was_concealed && chooses_facing(world, entity) {
        world.entity_mut(entity).insert(FacingAwaited { why });
        world
            .get_resource_or_insert_with(|| FacingsAwaited(false))
            .0 = true;
    }
    true
}

/// Whether some unit may carry [`FacingAwaited`]: the pause points look
/// for one only then (they are passed on every step of every move). Kept
/// once inserted, so that a game does not add and drop it again and again.
#[derive(Resource, Debug, Clone, Copy)]
pub(crate) struct FacingsAwaited(bool);

/// Whether a unit that lost its counter now chooses a facing (R 2.2).
fn chooses_facing(world: &World, entity: Entity) -> bool {
    if !super::fire::facing_in_use(world) {
        return false;
    }
    let moving = world
        .get_resource::<super::movement::MoveInProgress>()
        .is_some_and(|m| m.mover == entity);
    let infantry = world.get::<Unit>(entity).is_some_and(|u| {
        world
            .resource::<RosterRes>()
            .0
            .get(&u.kind)
            .is_some_and(|t| t.class.is_infantry() && t.class != UnitClass::Decoy)
    });
    infantry && !moving
}

/// Asks the owner of the first revealed unit (by id) still without its
/// chosen facing (R 2.2), unless a Combat Event's choice comes first
/// (R 17.0). Returns whether the game now waits for a decision; the
/// action under way then pauses until it is answered (the move's next hex,
/// its Assault Fire, the next Op Fire window, the pass of the Ops Range).
pub fn ask_facing(world: &mut World, events: &mut Vec<GameEvent>) -> bool {
    if world.contains_resource::<Pending>() {
        return true;
    }
    if !world.get_resource::<FacingsAwaited>().is_some_and(|a| a.0)
        || world.contains_resource::<super::combat_events::CombatEventDecision>()
    {
        return false;
    }
    let first = crate::world::queries::with_query::<(&Unit, &FacingAwaited, Option<&Facing>), (), _>(
        world,
        |q| {
            q.map(|(u, a, f)| (u.id.clone(), u.side, a.why, f.map(|f| f.0)))
                .min_by(|a, b| a.0.cmp(&b.0))
        },
    );
    let Some((unit, side, why, facing)) = first else {
        world.insert_resource(FacingsAwaited(false));
        return false;
    };
    crate::engine::decision::ask(
        world,
        Decision::RevealedFacing {
            side,
            unit: unit.to_string(),
            why,
            facing,
        },
        events,
    );
    true
}

/// The answer `face(unit, facing)` to [`Decision::RevealedFacing`]: the unit
/// asked takes `facing`, or keeps the one it had with none (R 2.2). Then
/// the next revealed unit is asked, or the action it paused goes on.
pub fn answer_facing(
    world: &mut World,
    asked: &str,
    unit: &str,
    facing: Option<Spine>,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    if unit != asked {
        return Err(Refusal::WrongAnswer {
            reason: not_the_unit_to_face(unit, asked),
        });
    }
    let found = crate::world::queries::with_query::<(Entity, &Unit), With<FacingAwaited>, _>(
        world,
        |mut q| q.find(|(_, u)| u.id == unit).map(|(e, _)| e),
    );
    world.remove_resource::<Pending>();
    if let Some(e) = found {
        let mut entity = world.entity_mut(e);
        entity.remove::<FacingAwaited>();
        if let Some(f) = facing {
            entity.insert(Facing(f));
        }
        let kept = world.get::<Facing>(e).map(|f| f.0);
        if let Some(f) = kept {
            events.push(GameEvent::FacingTaken {
                unit: crate::world::UnitId::from(unit),
                facing: f,
                turned: false,
            });
        }
    }
    if ask_facing(world, events) {
        return Ok(());
    }
    super::operations::resume(world, events);
    Ok(())
}

/// The reason a `face` answer naming another unit is refused (R 2.2).
pub fn not_the_unit_to_face(unit: &str, asked: &str) -> String {
    format!("{unit} is not the unit to face: {asked} chooses its facing now (R 2.2)")
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
    // Never in Surf or Ocean (R 45.5, R 45.6).
    if crate::rules::concealment::concealment_forbidden(&board, &aid, at).is_some() {
        return false;
    }
    let enemies: Vec<crate::scenario::Coord> =
        crate::world::queries::with_query::<(&Unit, &crate::world::Location), (), _>(world, |q| {
            q.filter(|(u, _)| u.side != side)
                .map(|(_, l)| l.coord)
                .collect()
        });
    if enemy_sees(world, (&board, &aid), &enemies, at) {
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

/// Whether a unit in one of the enemy hexes `enemies` has `at` in LOS for
/// Concealment (R 15.0): a clear or hindered line, and at Night only an
/// enemy that sees the hex (R 50.2: an unseen unit is out of LOS).
pub(crate) fn enemy_sees(
    world: &World,
    (board, aid): (
        &std::sync::Arc<crate::world::Board>,
        &std::sync::Arc<crate::scenario::PlayerAid>,
    ),
    enemies: &[crate::scenario::Coord],
    at: crate::scenario::Coord,
) -> bool {
    let night = super::night::scene(world);
    crate::rules::los::with_blocked_table(board, aid, |table| {
        enemies
            .iter()
            .any(|&e| night.as_ref().is_none_or(|n| n.sees(e, at)) && !table.blocked(e, at))
    })
}
