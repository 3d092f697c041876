//! Scenario → entities: one entity per hex, per unit, per fortification.

use crate::world::UnitId;
use std::collections::HashMap;

use bevy::prelude::*;

use crate::scenario::Coord;
use crate::scenario::schema::{Nationality, SideId};

use super::{
    ActiveScenario, AidRes, Board, BoardRes, Concealed, Facing, FortificationCounter, HexCell,
    Location, Phase, StackOrder, TurnTrack, Unit, Viewer,
};

/// Spawns the board and the setup of the active scenario. An exclusive
/// system: a headless game calls it straight on its world, without building
/// a system and a command queue for every game (the order in which entities
/// and resources are made is the one the commands gave).
pub fn spawn_scenario(world: &mut World) {
    // The rules' kept query states, made before the units they list.
    world.init_resource::<super::queries::KeptQueries>();
    let sc = world.resource::<ActiveScenario>().scenario.clone();
    // The board the world was given for this map and Player Aid (shared
    // with other games, with the lines of sight traced on it), else a new
    // one.
    let aid = world.get_resource::<AidRes>().map(|a| a.0.clone());
    let board = match (world.get_resource::<BoardRes>(), &aid) {
        (Some(b), Some(aid)) if b.0.map == sc.map && b.0.remembers_for(aid) => b.0.clone(),
        (_, Some(aid)) => std::sync::Arc::new(Board::with_aid(&sc.map, aid.clone())),
        (_, None) => std::sync::Arc::new(Board::from_map(&sc.map)),
    };
    // The hexes in one batch, in board order (the entities they get are the
    // ones spawning them one by one gave).
    let cells: Vec<HexCell> = board
        .coords()
        .filter_map(|coord| {
            board.cell(coord).map(|cell| HexCell {
                coord,
                terrain: cell.terrain,
                level: cell.level,
            })
        })
        .collect();
    world.spawn_batch(cells);
    for f in &board.fortifications {
        world.spawn((
            FortificationCounter {
                kind: f.kind,
                facing: f.facing,
                concealed: f.concealed,
            },
            Location {
                coord: f.coord,
                in_cave: f.kind.is_cave(),
            },
        ));
    }
    let japanese: HashMap<SideId, bool> = sc
        .sides
        .iter()
        .map(|c| (c.side, c.nationality == Nationality::Japanese))
        .collect();
    let mut order: HashMap<(Coord, bool), u8> = HashMap::new();
    for p in &sc.setup {
        let Ok(coord) = Coord::parse(&p.at, sc.map.columns, sc.map.rows) else {
            continue;
        };
        let n = order.entry((coord, p.in_cave)).or_insert(0);
        let mut e = world.spawn((
            Unit {
                id: UnitId::from(&p.id),
                kind: (&p.unit).into(),
                side: p.side,
                reduced: p.reduced,
                company: p.company.as_ref().map(Into::into),
            },
            Location {
                coord,
                in_cave: p.in_cave,
            },
            StackOrder(*n),
        ));
        *n += 1;
        if let Some(f) = p.facing {
            e.insert(Facing(f));
        }
        if p.concealed {
            let minus_two = sc.special_rules.japanese_minus_two_conceal
                && japanese.get(&p.side).copied().unwrap_or(false);
            e.insert(Concealed { minus_two });
        }
    }
    world.insert_resource(TurnTrack {
        turn: 1,
        last_turn: sc.turns,
        phase: Phase::Setup,
        active: sc.first_player,
    });
    world.insert_resource(Viewer(sc.first_player));
    world.insert_resource(BoardRes(board));
}

#[cfg(test)]
mod tests {
    use bevy::prelude::*;

    use crate::scenario::Coord;
    use crate::scenario::schema::{SideId, Terrain};
    use crate::world::HexCell;

    /// The hexes spawned in one batch get the entities spawning them one by
    /// one gave, and so do the entities spawned after them (units, whose
    /// entities order some of the engine's lists).
    #[test]
    fn a_batch_of_hexes_takes_the_entities_one_by_one_would() {
        let cells = |n: u8| -> Vec<HexCell> {
            (0..n)
                .map(|i| HexCell {
                    coord: Coord::new(i, 0),
                    terrain: Terrain::Open,
                    level: 0,
                })
                .collect()
        };
        let start = |world: &mut World| {
            world.insert_resource(crate::world::Viewer(SideId::Allies));
        };
        let mut one_by_one = World::new();
        start(&mut one_by_one);
        let mut a: Vec<Entity> = cells(20)
            .into_iter()
            .map(|c| one_by_one.spawn(c).id())
            .collect();
        a.push(one_by_one.spawn(crate::world::StackOrder(0)).id());
        let mut batched = World::new();
        start(&mut batched);
        let mut b: Vec<Entity> = batched.spawn_batch(cells(20)).collect();
        b.push(batched.spawn(crate::world::StackOrder(0)).id());
        assert_eq!(a, b);
    }
}
