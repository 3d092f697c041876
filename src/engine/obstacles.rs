//! Wire and Roadblocks removed by hand — R 43.7: "A Squad not in Melee
//! which starts in a hex with a blocked hexside may remove the Roadblock
//! marker by expending its entire movement allowance. To succeed it must
//! survive and pass all MCs. For Op Fire it is treated as if it moved into
//! the hex and gets no protection from the Roadblock (and therefore may be
//! considered moving in Open Ground)." R 43.6: Wire is removed by the same
//! procedure.
//!
//! The Squad takes its MC to move (R 5.0), then the enemy may Op Fire at it
//! in its own hex as at a unit that has just entered it; if it is still on
//! the board and passed every MC when the window closes, the counter goes.
//! Either way it is Used. For fire a live Roadblock is a Wall on its
//! blocked hexside (R 43.7, R 46.1), except against the Squad removing it.

use crate::world::UnitId;
use bevy::prelude::*;

use crate::rules::fortifications::place_label;
use crate::scenario::Coord;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::FortificationKind;
use crate::world::{Board, FortificationCounter, Location, RosterRes, Unit, mark};

use super::events::GameEvent;
use super::movement::MoveInProgress;
use super::orders::Refusal;

/// A Squad removing the Wire or Roadblock `counter` of its hex, until the
/// Op Fire at it is over (R 43.6, R 43.7).
#[derive(Resource, Debug, Clone, Copy)]
pub struct Clearing {
    pub unit: Entity,
    pub counter: Entity,
    pub kind: FortificationKind,
    /// It failed an MC: the counter stays.
    pub failed: bool,
}

/// The live Wire or Roadblock counter in `at`, if any (a Roadblock first).
pub fn obstacle_at(world: &mut World, at: Coord) -> Option<(Entity, FortificationKind)> {
    let mut found: Vec<(Entity, FortificationKind)> =
        crate::world::queries::collect::<(Entity, &FortificationCounter, &Location), (), _>(
            world,
            |(e, f, l)| (e, f.kind, l.coord == at && !l.in_cave),
        )
        .into_iter()
        .filter(|(_, k, here)| {
            *here && matches!(k, FortificationKind::Wire | FortificationKind::Roadblock)
        })
        .map(|(e, k, _)| (e, k))
        .collect();
    found.sort_by_key(|(e, k)| (*k != FortificationKind::Roadblock, *e));
    found.first().copied()
}

fn refuse(unit: &str, reason: impl Into<String>) -> Refusal {
    Refusal::Obstacle {
        unit: UnitId::from(unit),
        reason: reason.into(),
    }
}

/// R 43.6, R 43.7: a Squad, not in Melee, in a hex with Wire or a
/// Roadblock. The Wire or Roadblock it would remove.
pub fn check_clear(
    world: &mut World,
    entity: Entity,
) -> Result<(Entity, FortificationKind), Refusal> {
    let Some(unit) = world.get::<Unit>(entity).cloned() else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    let class = world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .map(|t| t.class);
    if class != Some(UnitClass::Squad) {
        return Err(refuse(
            &unit.id,
            "only a Squad removes Wire or a Roadblock (R 43.7)",
        ));
    }
    let Some(loc) = world.get::<Location>(entity).copied() else {
        return Err(refuse(&unit.id, "it is not on the map"));
    };
    let in_melee =
        crate::world::queries::collect::<(&Unit, &Location), (), _>(world, |(u, l)| (u.side, *l))
            .iter()
            .any(|(s, l)| *s != unit.side && *l == loc);
    if in_melee {
        return Err(refuse(
            &unit.id,
            "a Squad in Melee may not remove Wire or a Roadblock (R 43.7)",
        ));
    }
    obstacle_at(world, loc.coord).ok_or_else(|| {
        refuse(
            &unit.id,
            format!(
                "there is no Wire or Roadblock in {} (R 43.6, R 43.7)",
                loc.coord.label()
            ),
        )
    })
}

/// Executes a checked removal: the MC to move, then the Op Fire window in
/// the Squad's own hex as if it had just entered it; the counter goes when
/// the Squad survives and passes every MC (`finish`).
pub fn execute_clear(
    world: &mut World,
    entity: Entity,
    (counter, kind): (Entity, FortificationKind),
    events: &mut Vec<GameEvent>,
) {
    let Some(unit) = world.get::<Unit>(entity).cloned() else {
        return;
    };
    let Some(at) = world.get::<Location>(entity).map(|l| l.coord) else {
        return;
    };
    events.push(GameEvent::ClearingStarted {
        unit: unit.id.clone(),
        what: kind.name(),
        at: at.label(),
    });
    if !super::checks::morale_check_with(world, entity, &[], "R 43.7", events) {
        mark(world, entity, |m| m.used = true);
        events.push(GameEvent::MoveFailed {
            unit: unit.id.clone(),
        });
        super::concealment::regain_concealment(world, entity, "Used out of all enemy LOS", events);
        return;
    }
    world.insert_resource(Clearing {
        unit: entity,
        counter,
        kind,
        failed: false,
    });
    world.insert_resource(MoveInProgress {
        mover: entity,
        unit: unit.id.clone(),
        steps: Default::default(),
        left: crate::rules::Mp(0),
        hex_open: false,
        trail: vec![at],
        declared_retreat: false,
        assault_fire: None,
        fireteam_fire: None,
        start_window_done: true,
        fired: false,
        caves: Default::default(),
        smoke_grenade: None,
    });
    // For Op Fire it is treated as if it moved into the hex (R 43.7).
    if !super::op_fire::open_window(world, entity, at, events) {
        super::movement::stop_move(world, events);
    }
}

/// The Squad failed an MC (or stopped, R 58.1): the removal fails.
pub fn fail(world: &mut World, mover: Entity) {
    if let Some(mut c) = world.get_resource_mut::<Clearing>()
        && c.unit == mover
    {
        c.failed = true;
    }
}

/// The unit removing an obstacle now, if any: it gets no protection from
/// the Roadblock (R 43.7).
pub fn clearing_unit(world: &World) -> Option<Entity> {
    world.get_resource::<Clearing>().map(|c| c.unit)
}

/// The move of `mover` is over and it is still on the board: if it was
/// removing an obstacle and passed every MC, the counter goes (R 43.6,
/// R 43.7).
pub fn finish(world: &mut World, mover: Entity, events: &mut Vec<GameEvent>) {
    let Some(c) = world.get_resource::<Clearing>().copied() else {
        return;
    };
    world.remove_resource::<Clearing>();
    if c.unit != mover {
        return;
    }
    let (Some(unit), Some(at)) = (
        world.get::<Unit>(mover).map(|u| u.id.clone()),
        world.get::<Location>(mover).map(|l| l.coord),
    ) else {
        return;
    };
    if c.failed {
        events.push(GameEvent::ObstacleStays {
            unit,
            what: c.kind.name(),
            at: place_label(at, false),
        });
    } else if let Ok(e) = world.get_entity_mut(c.counter) {
        e.despawn();
        events.push(GameEvent::ObstacleRemoved {
            unit,
            what: c.kind.name(),
            at: place_label(at, false),
        });
    }
}

/// A removal whose Squad was eliminated leaves nothing behind.
pub fn forget_gone(world: &mut World) {
    if world
        .get_resource::<Clearing>()
        .is_some_and(|c| world.get_entity(c.unit).is_err())
    {
        world.remove_resource::<Clearing>();
    }
}

/// The hexside a Roadblock in `at` blocks: the first hexside of its spine
/// (R 43.7; the scenario's `facing`).
pub fn roadblock_edge(
    board: &Board,
    at: Coord,
    facing: crate::scenario::schema::Spine,
) -> crate::world::board::Edge {
    board.edge(at, facing.sides()[0])
}

/// Fire from `from` at `to` crosses a live Roadblock's blocked hexside as
/// it enters `to`: a Wall for fire (R 43.7, R 46.1).
pub fn behind_roadblock(world: &mut World, board: &Board, from: Coord, to: Coord) -> bool {
    let Some(edge) = crate::rules::fire::crossed_edge(board, from, to) else {
        return false;
    };
    crate::world::queries::collect::<(&FortificationCounter, &Location), (), _>(world, |(f, l)| {
        (f.kind, f.facing, l.coord)
    })
    .into_iter()
    .any(|(kind, facing, at)| {
        kind == FortificationKind::Roadblock
            && facing.is_some_and(|s| roadblock_edge(board, at, s) == edge)
    })
}
