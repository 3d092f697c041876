//! The Jungle in the Operations Phase — R 51.1 (losing Concealment in the
//! Jungle: a stationary Concealed unit keeps its counter when an enemy moves
//! next to it, so an enemy may walk into its hex; then the counter and any
//! Decoys come off and the unit takes an Ambush counter), R 51.2 (the
//! Ambush counter gives the Melee first strike at +2, `phases::melee`).

use bevy::prelude::*;

use crate::scenario::Coord;
use crate::scenario::schema::Terrain;
use crate::world::{BoardRes, Concealed, Location, Unit, mark};

use super::events::GameEvent;
use super::pacific::PacificEvent;

/// Whether `at` is a Jungle hex (R 51.0).
pub fn is_jungle(world: &World, at: Coord) -> bool {
    world
        .resource::<BoardRes>()
        .0
        .cell(at)
        .is_some_and(|c| c.terrain == Terrain::Jungle)
}

/// R 51.1: `mover` has just entered the Jungle hex `at`. Concealed enemy
/// units there (not in a Cave) lose their counters, Decoys are removed, and
/// every unit that was Concealed takes an Ambush counter (R 51.2). Called
/// after the Flank check, which a Concealed enemy denies (R 51.2 example).
pub fn ambush_on_entering(
    world: &mut World,
    mover: Entity,
    at: Coord,
    events: &mut Vec<GameEvent>,
) {
    if !is_jungle(world, at) {
        return;
    }
    let Some(side) = world.get::<Unit>(mover).map(|u| u.side) else {
        return;
    };
    let mut hidden: Vec<(crate::world::UnitId, Entity)> = crate::world::queries::with_query::<
        (Entity, &Unit, &Location),
        With<Concealed>,
        _,
    >(world, |q| {
        q.filter(|(_, u, l)| u.side != side && l.coord == at && !l.in_cave)
            .map(|(e, u, _)| (u.id.clone(), e))
            .collect()
    });
    hidden.sort();
    for (id, e) in hidden {
        let why = "an enemy unit entered its Jungle hex";
        if super::concealment::reveal(world, e, why, events) {
            mark(world, e, |m| m.ambush = true);
            events.push(GameEvent::Pacific(PacificEvent::AmbushCounter {
                unit: id,
                at: at.label(),
            }));
        }
    }
}
