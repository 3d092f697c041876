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

/// Spawns the board and the setup of the active scenario.
pub fn spawn_scenario(
    mut commands: Commands,
    active: Res<ActiveScenario>,
    aid: Option<Res<AidRes>>,
) {
    let sc = &active.scenario;
    // With the Player Aid known, the board (and the lines of sight already
    // traced on it) is shared with earlier games of the same map.
    let board = match aid {
        Some(aid) => Board::shared(&sc.map, &aid.0),
        None => std::sync::Arc::new(Board::from_map(&sc.map)),
    };
    for coord in board.coords() {
        if let Some(cell) = board.cell(coord) {
            commands.spawn(HexCell {
                coord,
                terrain: cell.terrain,
                level: cell.level,
            });
        }
    }
    for f in &board.fortifications {
        commands.spawn((
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
        let mut e = commands.spawn((
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
    let cp = |side: SideId| {
        sc.sides
            .iter()
            .find(|c| c.side == side)
            .map_or(0, |c| c.command_points)
    };
    commands.insert_resource(TurnTrack {
        turn: 1,
        last_turn: sc.turns,
        phase: Phase::Setup,
        active: sc.first_player,
        command_points: [cp(SideId::Allies), cp(SideId::Axis)],
    });
    commands.insert_resource(Viewer(sc.first_player));
    commands.insert_resource(BoardRes(board));
}
