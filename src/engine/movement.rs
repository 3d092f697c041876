//! Moving a unit in the Operations Phase — R 5.0 (Movement), R 4.2 (a unit
//! that moves or tries to is Used), R 2.0 (stacking at the end of a move),
//! R 15.0 (losing Concealment, Decoys removed). The Op Fire window at each
//! hex joins with the fire orders.

use bevy::prelude::*;

use crate::rules::Mp;
use crate::rules::los::{LosQuery, line_of_sight};
use crate::rules::movement::{MoveRules, check_step};
use crate::scenario::Coord;
use crate::world::{ActiveScenario, AidRes, BoardRes, Concealed, Location, RosterRes, Unit, Used};

use super::events::GameEvent;
use super::orders::Refusal;

/// A unit's place and side, for the checks.
struct Occupant {
    entity: Entity,
    side: crate::scenario::schema::SideId,
    coord: Coord,
    concealed: bool,
}

fn occupants(world: &mut World) -> Vec<Occupant> {
    let mut q = world.query::<(Entity, &Unit, &Location, Has<Concealed>)>();
    q.iter(world)
        .map(|(entity, u, l, concealed)| Occupant {
            entity,
            side: u.side,
            coord: l.coord,
            concealed,
        })
        .collect()
}

/// Checks a move before anything happens: hexes, MPs step by step, no
/// passing through an enemy hex, stacking at the end (R 2.0, R 5.0).
/// Returns the hexes and the MP cost of each step.
pub fn check_move(
    world: &mut World,
    entity: Entity,
    path: &[String],
) -> Result<Vec<(Coord, Mp)>, Refusal> {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let rules = MoveRules {
        new_britain_jungle: world
            .resource::<ActiveScenario>()
            .scenario
            .special_rules
            .new_britain_jungle,
    };
    let (unit, start) = {
        let e = world.entity(entity);
        match (e.get::<Unit>(), e.get::<Location>()) {
            (Some(u), Some(l)) => (u.clone(), l.coord),
            _ => {
                return Err(Refusal::UnknownUnit {
                    unit: String::new(),
                });
            }
        }
    };
    let allowance = world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .map_or(Mp(0), |t| Mp::whole(u16::from(t.mp)));
    if path.is_empty() {
        return Err(Refusal::EmptyPath);
    }
    let others = occupants(world);
    let mut steps = Vec::new();
    let mut at = start;
    let mut left = allowance;
    for (i, label) in path.iter().enumerate() {
        let to = Coord::parse(label, board.columns, board.rows).map_err(|_| Refusal::BadHex {
            label: label.clone(),
        })?;
        let cost = check_step(&board, &aid, rules, at, to, left).map_err(|r| Refusal::Step {
            n: i + 1,
            to: label.clone(),
            reason: r.to_string(),
        })?;
        left = Mp(left.0 - cost.total.0);
        steps.push((to, cost.total));
        let enemy_here = others.iter().any(|o| o.side != unit.side && o.coord == to);
        if enemy_here && i + 1 < path.len() {
            return Err(Refusal::PastEnemy { at: label.clone() });
        }
        at = to;
    }
    let limit = usize::from(aid.constants.stacking_per_side);
    let own_there = others
        .iter()
        .filter(|o| o.side == unit.side && o.coord == at && o.entity != entity)
        .count();
    if own_there + 1 > limit {
        return Err(Refusal::OverStacked {
            at: at.label(),
            limit: aid.constants.stacking_per_side,
        });
    }
    Ok(steps)
}

/// A move under way: the hexes still to enter, paused while the opponent
/// answers an Op Fire window (R 9.0).
#[derive(Resource, Debug, Clone)]
pub struct MoveInProgress {
    pub mover: Entity,
    pub unit: String,
    pub steps: std::collections::VecDeque<(Coord, Mp)>,
    pub left: Mp,
    /// The hex just entered still owes its after-fire effects (enemy
    /// Conceal counters next to the mover, R 15.0).
    pub hex_open: bool,
}

/// Executes a checked move: the MC before moving, then the hexes one by one
/// (R 4.2, R 5.0, R 15.0), pausing for Op Fire windows (R 9.0).
pub fn execute_move(
    world: &mut World,
    entity: Entity,
    steps: &[(Coord, Mp)],
    events: &mut Vec<GameEvent>,
) {
    let roster = world.resource::<RosterRes>().0.clone();
    let Some(unit) = world.entity(entity).get::<Unit>().cloned() else {
        return;
    };
    let Some(ut) = roster.get(&unit.kind) else {
        return;
    };
    if !super::checks::morale_check_to_act(world, entity, "R 5.0", events) {
        world.entity_mut(entity).insert(Used);
        events.push(GameEvent::MoveFailed {
            unit: unit.id.clone(),
        });
        return;
    }
    world.insert_resource(MoveInProgress {
        mover: entity,
        unit: unit.id.clone(),
        steps: steps.iter().copied().collect(),
        left: Mp::whole(u16::from(ut.mp)),
        hex_open: false,
    });
    continue_move(world, events);
}

/// Plays the move on until it ends or an Op Fire window opens.
pub fn continue_move(world: &mut World, events: &mut Vec<GameEvent>) {
    // A Combat Event's choice comes first (R 17.0).
    if world.contains_resource::<super::combat_events::CombatEventDecision>() {
        return;
    }
    loop {
        let Some(mut mv) = world.get_resource::<MoveInProgress>().cloned() else {
            return;
        };
        if world.get_entity(mv.mover).is_err() {
            world.remove_resource::<MoveInProgress>();
            return;
        }
        if mv.hex_open {
            // The mover survived all fire in this hex: now it affects the
            // Concealment of enemies next to it (R 15.0).
            reveal_neighbours(world, mv.mover, events);
            mv.hex_open = false;
            world.insert_resource(mv.clone());
        }
        let Some((to, cost)) = mv.steps.pop_front() else {
            stop_move(world, events);
            return;
        };
        let from = world
            .entity(mv.mover)
            .get::<Location>()
            .map_or(to, |l| l.coord);
        mv.left = Mp(mv.left.0.saturating_sub(cost.0));
        mv.hex_open = true;
        world.insert_resource(mv.clone());
        world.entity_mut(mv.mover).insert(Location {
            coord: to,
            in_cave: false,
        });
        events.push(GameEvent::Moved {
            unit: mv.unit.clone(),
            from: from.label(),
            to: to.label(),
            cost: cost.to_string(),
            left: mv.left.to_string(),
        });
        // The moving unit loses its Concealment first (R 15.0).
        if !mover_concealment(world, mv.mover, events) {
            world.remove_resource::<MoveInProgress>();
            return;
        }
        if super::op_fire::open_window(world, mv.mover, to, events) {
            return;
        }
    }
}

/// Ends the move where the unit stands: its last hex, or a failed MC after
/// Op Fire (R 5.0). The unit is Used (R 4.2).
pub fn stop_move(world: &mut World, events: &mut Vec<GameEvent>) {
    if let Some(mv) = world.remove_resource::<MoveInProgress>() {
        if world.get_entity(mv.mover).is_err() {
            return;
        }
        if mv.hex_open {
            reveal_neighbours(world, mv.mover, events);
        }
        world.entity_mut(mv.mover).insert(Used);
        let at = world
            .entity(mv.mover)
            .get::<Location>()
            .map_or_else(String::new, |l| l.coord.label());
        events.push(GameEvent::MoveEnded { unit: mv.unit, at });
    }
}

/// R 15.0 when the mover enters a hex: it loses its Conceal counter when
/// adjacent to an enemy, or in Open Ground in an enemy's LOS. A Decoy is
/// removed. Returns false when the mover was removed.
fn mover_concealment(world: &mut World, mover: Entity, events: &mut Vec<GameEvent>) -> bool {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let all = occupants(world);
    let Some(me) = all.iter().find(|o| o.entity == mover) else {
        return false;
    };
    if !me.concealed {
        return true;
    }
    let enemies: Vec<&Occupant> = all.iter().filter(|o| o.side != me.side).collect();
    let adjacent = enemies.iter().any(|e| e.coord.distance(me.coord) == 1);
    let open = board
        .cell(me.coord)
        .and_then(|c| aid.terrain_row(c.terrain.key()))
        .is_some_and(|r| !r.beneficial);
    let seen = open
        && enemies
            .iter()
            .any(|e| !line_of_sight(&board, &aid, &LosQuery::new(e.coord, me.coord)).is_blocked());
    let why = if adjacent {
        "adjacent to an enemy unit"
    } else if seen {
        "in Open Ground in enemy LOS"
    } else {
        return true;
    };
    super::concealment::lose_concealment(world, mover, why, events)
}

/// R 15.0 once the mover has survived all fire in its hex: enemy units next
/// to it lose their Conceal counters (Decoys are removed).
fn reveal_neighbours(world: &mut World, mover: Entity, events: &mut Vec<GameEvent>) {
    let all = occupants(world);
    let Some(me) = all.iter().find(|o| o.entity == mover) else {
        return;
    };
    let near: Vec<Entity> = all
        .iter()
        .filter(|o| o.side != me.side && o.concealed && o.coord.distance(me.coord) == 1)
        .map(|o| o.entity)
        .collect();
    for e in near {
        super::concealment::lose_concealment(world, e, "an enemy unit moved adjacent", events);
    }
}
