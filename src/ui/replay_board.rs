//! The replay's board at an event (issue 7): while `bob replay` stands on
//! the k-th event of an order, the counters, markers, fortifications and
//! Smoke show [`position_at`] the position before the order with its first
//! k events applied — the mover in the hex it has just entered, a target
//! Suppressed only after its roll, a casualty gone when it falls. The view
//! is written into the world's components (the board draws them); a unit
//! the order has removed by now comes back as a [`Ghost`] entity, one it
//! brings on later is taken off the board ([`Offstage`]). Leaving the event
//! puts the position after the order back exactly (the replay checks it
//! against the journal's state hash before the next order is played).

use crate::world::UnitId;
use bevy::prelude::*;

use crate::engine::GameEvent;
use crate::engine::banzai::Banzai;
use crate::engine::seishin::Seishin;
use crate::engine::smoke::SmokeCounter;
use crate::journal::position::{Context, FortView, Position, UnitView, capture, position_at};
use crate::world::{
    Concealed, Facing, FortificationCounter, Location, Marks, StackOrder, Suppression, Unit,
};

/// The events of the last order `ui::act::send` applied (kept only while a
/// replay runs).
#[derive(Resource, Debug, Clone, Default)]
pub struct OrderEvents(pub Vec<GameEvent>);

/// [`super::act::OrderShown`]: a replay keeps the order's events for its
/// board at an event.
pub fn on_order(world: &mut World) {
    world.resource_scope(|world, applied: Mut<super::act::Applied>| {
        if let Some(mut seen) = world.get_resource_mut::<OrderEvents>() {
            seen.0.clone_from(&applied.events);
        }
    });
}

/// The order the replay stands on: the position before it, its events, the
/// position after it.
#[derive(Debug, Clone)]
pub struct OrderView {
    pub before: Position,
    pub events: Vec<GameEvent>,
    pub after: Position,
}

/// A unit or fortification the engine no longer has, shown at an event
/// before the one that removed it.
#[derive(Component, Debug, Clone, Copy)]
pub struct Ghost;

/// A unit or fortification taken off the board at an event before the one
/// that brings it on, with its location after the order.
#[derive(Component, Debug, Clone, Copy)]
pub struct Offstage(pub Option<Location>);

/// The view of an order at its event `k` (0-based; the first k+1 events
/// applied).
pub fn at_event(order: &OrderView, k: usize, ctx: &Context) -> Position {
    let k = (k + 1).min(order.events.len());
    position_at(&order.before, &order.after, &order.events[..k], ctx)
}

/// Shows `view` on the board. `after` is the position the engine holds.
pub fn show(world: &mut World, view: &Position) {
    // Units.
    let mut q = world.query_filtered::<(Entity, &Unit), Without<Ghost>>();
    let real: Vec<(Entity, String)> = q.iter(world).map(|(e, u)| (e, u.id.to_string())).collect();
    clear_ghosts(world);
    for (e, id) in &real {
        match view.units.get(id) {
            Some(v) => put_unit(world, *e, v),
            None => hide(world, *e),
        }
    }
    for (id, v) in &view.units {
        if real.iter().any(|(_, r)| r == id) {
            continue;
        }
        let e = world
            .spawn((
                Unit {
                    id: UnitId::from(id),
                    kind: (&v.kind).into(),
                    side: v.side,
                    reduced: v.reduced,
                    company: v.company.as_ref().map(Into::into),
                },
                StackOrder(u8::MAX),
                Ghost,
            ))
            .id();
        put_unit(world, e, v);
    }
    // Fortifications, matched by hex and kind.
    let mut q = world.query_filtered::<(Entity, &FortificationCounter), Without<Ghost>>();
    let forts: Vec<(Entity, FortificationCounter)> = q.iter(world).map(|(e, f)| (e, *f)).collect();
    let mut shown: Vec<FortView> = Vec::new();
    for (e, f) in forts {
        let at = world
            .get::<Location>(e)
            .copied()
            .or_else(|| world.get::<Offstage>(e).and_then(|o| o.0))
            .map(|l| l.coord);
        let found = view
            .forts
            .iter()
            .find(|v| Some(v.at) == at && v.kind == f.kind && !shown.contains(v));
        match found {
            Some(v) => {
                shown.push(*v);
                put_fort(world, e, v);
            }
            None => hide(world, e),
        }
    }
    for v in &view.forts {
        if !shown.contains(v) {
            let e = world
                .spawn((
                    FortificationCounter {
                        kind: v.kind,
                        facing: v.facing,
                        concealed: v.concealed,
                    },
                    Ghost,
                ))
                .id();
            put_fort(world, e, v);
        }
    }
    // Smoke: one counter a hex.
    let mut q = world.query_filtered::<Entity, With<SmokeCounter>>();
    let smoke: Vec<Entity> = q.iter(world).collect();
    for e in smoke {
        world.entity_mut(e).despawn();
    }
    for (at, side) in &view.smoke {
        world.spawn(SmokeCounter {
            at: *at,
            side: *side,
        });
    }
}

/// Puts the position after the order back (the engine's own), and checks
/// it is: a difference is a defect of [`position_at`] or of [`show`].
pub fn restore(world: &mut World, after: &Position) -> Result<(), String> {
    show(world, after);
    clear_ghosts(world);
    let mut q = world.query_filtered::<Entity, With<Offstage>>();
    let off: Vec<Entity> = q.iter(world).collect();
    if !off.is_empty() {
        return Err(format!("{} pieces left off the board", off.len()));
    }
    let now = capture(world);
    if &now != after {
        return Err("the board differs from the position after the order".into());
    }
    Ok(())
}

/// Takes a piece off the board, keeping where it was.
fn hide(world: &mut World, e: Entity) {
    if world.get::<Offstage>(e).is_some() {
        return;
    }
    let at = world.get::<Location>(e).copied();
    world
        .entity_mut(e)
        .remove::<Location>()
        .insert(Offstage(at));
}

fn clear_ghosts(world: &mut World) {
    let mut q = world.query_filtered::<Entity, With<Ghost>>();
    let ghosts: Vec<Entity> = q.iter(world).collect();
    for e in ghosts {
        world.entity_mut(e).despawn();
    }
}

fn toggle<C: Component>(world: &mut World, e: Entity, on: bool, c: C) {
    let mut ent = world.entity_mut(e);
    if on {
        ent.insert(c);
    } else {
        ent.remove::<C>();
    }
}

fn put_unit(world: &mut World, e: Entity, v: &UnitView) {
    {
        let mut ent = world.entity_mut(e);
        ent.remove::<Offstage>();
        ent.insert(Location {
            coord: v.at,
            in_cave: v.in_cave,
        });
        if let Some(mut u) = ent.get_mut::<Unit>()
            && u.reduced != v.reduced
        {
            u.reduced = v.reduced;
        }
        match v.facing {
            Some(f) => {
                ent.insert(Facing(f));
            }
            None => {
                ent.remove::<Facing>();
            }
        }
        match v.suppression {
            Some(s) => {
                ent.insert(s);
            }
            None => {
                ent.remove::<Suppression>();
            }
        }
        match v.concealed {
            Some(minus_two) => {
                ent.insert(Concealed { minus_two });
            }
            None => {
                ent.remove::<Concealed>();
            }
        }
    }
    if let Some(mut marks) = world.get_mut::<Marks>(e) {
        // The position shows no CP counter: it stays as it is.
        let cp = marks.cp;
        marks.set_if_neq(Marks {
            used: v.used,
            op_fire: v.op_fire,
            flank: v.flank,
            ambush: v.ambush,
            cp,
        });
    }
    toggle(world, e, v.banzai, Banzai);
    toggle(world, e, v.seishin, Seishin);
}

fn put_fort(world: &mut World, e: Entity, v: &FortView) {
    let mut ent = world.entity_mut(e);
    ent.remove::<Offstage>();
    ent.insert(Location {
        coord: v.at,
        in_cave: v.kind.is_cave(),
    });
    if let Some(mut f) = ent.get_mut::<FortificationCounter>() {
        f.facing = v.facing;
        f.concealed = v.concealed;
    }
}
