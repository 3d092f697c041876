//! Where a unit can move this Use: every hex with the most MPs it can have
//! left there, and the path that leaves them. Step costs are
//! `rules::movement::check_step`, the function the engine's move check
//! uses; a unit may enter an enemy hex but not go on from it (R 5.0). The
//! search is `rules::paths`. The chosen path is checked by the engine
//! itself before it is offered.

use std::collections::HashMap;

use bevy::prelude::*;

use crate::rules::Mp;
use crate::rules::movement::check_step;
use crate::rules::paths::cheapest_paths;
use crate::scenario::Coord;
use crate::world::{AidRes, BoardRes, Location, Unit};

/// The best way found into a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reached {
    /// MPs left on arrival.
    pub left: Mp,
    /// The hex before it on the path (`None` at the start).
    pub prev: Option<Coord>,
}

/// Every hex `entity` can reach with its MPs (R 5.0), with the +1 MP of
/// Seishin when `seishin` (R 59.5): the engine's allowance and movement
/// rules, the night minimum of 1 1/2 MP a hex included (R 50.2).
pub fn reachable(world: &mut World, entity: Entity, seishin: bool) -> HashMap<Coord, Reached> {
    let mut out = HashMap::new();
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let rules = crate::engine::movement::move_rules(world, entity);
    let (Some(unit), Some(start)) = (
        world.get::<Unit>(entity).cloned(),
        world.get::<Location>(entity).map(|l| l.coord),
    ) else {
        return out;
    };
    let allowance = crate::engine::movement::allowance(world, entity, seishin);
    let mut q = world.query::<(&Unit, &Location)>();
    let enemy_hexes: Vec<Coord> = q
        .iter(world)
        .filter(|(u, _)| u.side != unit.side)
        .map(|(_, l)| l.coord)
        .collect();
    // Equal MPs left: the hex with the greater label first.
    let best = cheapest_paths(
        start,
        (board.columns, board.rows),
        allowance,
        |c| std::cmp::Reverse(c.label()),
        |c| enemy_hexes.contains(&c),
        |s| {
            let left = Mp(allowance.0 - s.spent.0);
            check_step(&board, &aid, rules, s.from, s.to, left)
                .ok()
                .map(|c| c.total)
        },
    );
    out.extend(best.into_iter().map(|(c, b)| {
        (
            c,
            Reached {
                left: Mp(allowance.0 - b.spent.0),
                prev: b.prev,
            },
        )
    }));
    out
}

/// The path from the start to `to` (start excluded), or empty.
pub fn path_to<S: std::hash::BuildHasher>(
    reach: &HashMap<Coord, Reached, S>,
    to: Coord,
) -> Vec<Coord> {
    let mut path = Vec::new();
    let mut at = to;
    while let Some(r) = reach.get(&at) {
        let Some(prev) = r.prev else {
            break;
        };
        path.push(at);
        at = prev;
        if path.len() > reach.len() {
            return Vec::new();
        }
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::operations::{begin_operations, check};
    use crate::engine::{Order, headless_world};

    /// Every hex offered in the training game is one the engine's move
    /// check accepts along the offered path (or refuses only for stacking),
    /// and with the MPs shown left.
    #[test]
    fn offered_paths_are_accepted_by_the_engine() {
        let roster = crate::scenario::builtin_roster().unwrap();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let loaded = crate::world::load("training", &roster, &aid).unwrap();
        let mut w = headless_world(loaded, roster, aid, 3);
        begin_operations(&mut w);
        let mut q = w.query::<(Entity, &Unit)>();
        let a1 = q
            .iter(&w)
            .find(|(_, u)| u.id == "A1")
            .map(|(e, _)| e)
            .unwrap();
        let reach = reachable(&mut w, a1, false);
        assert!(reach.len() > 6, "{}", reach.len());
        let mut accepted = 0;
        for (&to, r) in &reach {
            let path = path_to(&reach, to);
            if path.is_empty() {
                assert!(r.prev.is_none());
                continue;
            }
            let order = Order::plain_move("A1", path.iter().map(|c| c.label()).collect());
            match check(&mut w, &order) {
                Ok(()) => accepted += 1,
                Err(crate::engine::Refusal::OverStacked { .. }) => {}
                Err(e) => panic!("{} refused: {e}", to.label()),
            }
        }
        assert!(accepted > 6);
    }
}
