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

/// Executes a checked move: the MC before moving, each step, Concealment,
/// and the Used marker at the end (R 4.2, R 5.0, R 15.0).
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
    let mut left = Mp::whole(u16::from(ut.mp));
    for (to, cost) in steps {
        let from = world
            .entity(entity)
            .get::<Location>()
            .map_or(*to, |l| l.coord);
        left = Mp(left.0.saturating_sub(cost.0));
        world.entity_mut(entity).insert(Location {
            coord: *to,
            in_cave: false,
        });
        events.push(GameEvent::Moved {
            unit: unit.id.clone(),
            from: from.label(),
            to: to.label(),
            cost: cost.to_string(),
            left: left.to_string(),
        });
        if !concealment_after_step(world, entity, events) {
            return;
        }
    }
    world.entity_mut(entity).insert(Used);
    events.push(GameEvent::MoveEnded {
        unit: unit.id.clone(),
        at: steps.last().map_or_else(String::new, |s| s.0.label()),
    });
}

/// R 15.0 after the mover enters a hex: the mover loses its Conceal counter
/// when adjacent to an enemy, or in Open Ground in an enemy's LOS; enemy units
/// adjacent to it lose theirs. Decoys that lose it are removed. Returns false
/// when the mover itself was removed.
fn concealment_after_step(world: &mut World, mover: Entity, events: &mut Vec<GameEvent>) -> bool {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let all = occupants(world);
    let Some(me) = all.iter().find(|o| o.entity == mover) else {
        return false;
    };
    let enemies: Vec<&Occupant> = all.iter().filter(|o| o.side != me.side).collect();
    let mut revealed: Vec<(Entity, &'static str)> = Vec::new();
    if me.concealed {
        let adjacent = enemies.iter().any(|e| e.coord.distance(me.coord) == 1);
        let open = board
            .cell(me.coord)
            .and_then(|c| aid.terrain_row(c.terrain.key()))
            .is_some_and(|r| !r.beneficial);
        let seen = open
            && enemies.iter().any(|e| {
                !line_of_sight(&board, &aid, &LosQuery::new(e.coord, me.coord)).is_blocked()
            });
        if adjacent {
            revealed.push((me.entity, "adjacent to an enemy unit"));
        } else if seen {
            revealed.push((me.entity, "in Open Ground in enemy LOS"));
        }
    }
    for e in &enemies {
        if e.concealed && e.coord.distance(me.coord) == 1 {
            revealed.push((e.entity, "an enemy unit moved adjacent"));
        }
    }
    let mut mover_alive = true;
    for (entity, why) in revealed {
        let alive = super::concealment::lose_concealment(world, entity, why, events);
        if entity == mover && !alive {
            mover_alive = false;
        }
    }
    mover_alive
}
