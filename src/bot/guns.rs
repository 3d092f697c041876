//! The bot's Guns (R 20.0-20.7): the firing arc and the Prof Check. A
//! Gun's fire is worth its attack times the chance of passing the Prof
//! Check the shot needs (R 20.4: turning in its hex -1, Op Fire -2, marked
//! Op Fire +1, range, Hindrances, Smoke); a target outside the arc is shot
//! at only when that is still worth it, turning to the facing that, of
//! those holding the target, best covers the enemy's way in. A Gun whose
//! best shot now is worth less than waiting on Op Fire for the enemy to
//! step into its arc is marked Op Fire instead, turned to cover that
//! approach (R 4.3: a Gun not in a building may turn as it is marked).

use bevy::prelude::*;

use crate::rules::fire::FireKind;
use crate::rules::gun::in_arc;
use crate::scenario::Coord;
use crate::scenario::schema::{Side6, Spine};
use crate::world::{Facing, Location, mark, marks};

use super::Bot;
use super::ops::{Goals, MOVE_CHANCE, attack_value};
use super::view::{Piece, View};

/// What a Gun of mine can do this Use: the Op Fire worth of each facing it
/// may take, best first.
pub struct GunPlan {
    pub at: Coord,
    pub current: Spine,
    /// (facing, worth of being marked Op Fire with it), best first; ties
    /// keep the current facing, then the order of `Spine::ALL`.
    pub covers: Vec<(Spine, f32)>,
}

impl GunPlan {
    /// The worth of marking the Gun Op Fire with its best facing.
    pub fn cover(&self) -> f32 {
        self.covers.first().map_or(0.0, |c| c.1)
    }

    /// The facing to mark Op Fire with: `None` to keep the current one.
    pub fn mark_facing(&self) -> Option<Spine> {
        self.covers
            .first()
            .map(|c| c.0)
            .filter(|f| *f != self.current)
    }

    /// The facing to fire at `h` with: `None` when `h` is in the arc now;
    /// else, of the facings holding `h`, the one covering best (R 20.4).
    pub fn fire_facing(&self, h: Coord) -> Option<Spine> {
        if in_arc(self.at, self.current, h) {
            return None;
        }
        self.covers
            .iter()
            .find(|(f, _)| in_arc(self.at, *f, h))
            .map(|c| c.0)
    }
}

/// The plan of `u` if it is a Gun: each facing it may take (only its own
/// in a building, R 20.2, R 4.3) valued by the Op Fire it would hold over
/// the enemy's next steps.
pub fn plan(
    bot: &mut Bot,
    world: &mut World,
    view: &View,
    goals: &Goals,
    u: &Piece,
) -> Option<GunPlan> {
    if !crate::engine::gun::is_gun(world, u.entity) {
        return None;
    }
    let current = world.get::<Facing>(u.entity).map(|f| f.0)?;
    let may_turn = !view
        .aid
        .terrain_row(view.terrain_key(u.at))
        .is_some_and(|r| r.building);
    let steps = approach(view, goals, u.at);
    let facings: Vec<Spine> = std::iter::once(current)
        .chain(Spine::ALL.into_iter().filter(|f| may_turn && *f != current))
        .collect();
    let mut covers: Vec<(Spine, f32)> = facings
        .into_iter()
        .map(|f| (f, cover(bot, world, view, u, f, &steps)))
        .collect();
    // Stable: equal worths keep the current facing first.
    covers.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some(GunPlan {
        at: u.at,
        current,
        covers,
    })
}

/// The next step of each enemy unit that may still move: the neighbouring
/// hex nearest what my side holds or wants (else the Gun itself), when it
/// comes nearer; in map order.
fn approach(view: &View, goals: &Goals, gun: Coord) -> Vec<(Entity, Coord)> {
    let near = |c: Coord| {
        goals
            .hexes
            .iter()
            .map(|h| h.distance(c))
            .min()
            .unwrap_or_else(|| gun.distance(c))
    };
    let mut out: Vec<(Entity, Coord)> = view
        .enemies()
        .filter(|e| !e.used && !e.in_cave && !e.is_decoy())
        .filter(|e| e.kind.as_ref().is_none_or(|k| k.mp > 0))
        .filter_map(|e| {
            let step = Side6::ALL
                .iter()
                .filter_map(|s| view.board.neighbour(e.at, *s))
                .filter(|c| *c != gun && view.count_at(view.me, *c) == 0)
                .min_by_key(|c| (near(*c), *c))?;
            (near(step) < near(e.at)).then_some((e.entity, step))
        })
        .collect();
    out.sort_by_key(|(_, c)| *c);
    out
}

/// The worth of the Gun `g` marked Op Fire facing `f`: the best Op Fire
/// attack at an enemy unit stepping into its arc (exact odds with the
/// marked Gun's Prof Check, R 20.4), times [`MOVE_CHANCE`]. Reckoned with
/// the engine's own attack plan: the Gun is marked and turned, the enemy
/// stands in its next hex, for the reckoning only.
fn cover(
    bot: &mut Bot,
    world: &mut World,
    view: &View,
    g: &Piece,
    f: Spine,
    steps: &[(Entity, Coord)],
) -> f32 {
    let mut best: f32 = 0.0;
    let old_facing = world.get::<Facing>(g.entity).copied();
    let old_marks = marks(world, g.entity);
    mark(world, g.entity, |m| m.op_fire = true);
    world.entity_mut(g.entity).insert(Facing(f));
    for &(e, step) in steps {
        if !in_arc(g.at, f, step) {
            continue;
        }
        let Some(old) = world.get::<Location>(e).copied() else {
            continue;
        };
        world.entity_mut(e).insert(Location {
            coord: step,
            in_cave: false,
        });
        let v = attack_value(bot, world, view, g.entity, step, FireKind::OpFire, Some(e));
        world.entity_mut(e).insert(old);
        best = best.max(v);
    }
    mark(world, g.entity, |m| *m = old_marks);
    let mut gun = world.entity_mut(g.entity);
    match old_facing {
        Some(old) => {
            gun.insert(old);
        }
        None => {
            gun.remove::<Facing>();
        }
    }
    MOVE_CHANCE * best
}
