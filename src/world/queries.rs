//! Queries kept from one call to the next. `World::query` builds a new
//! `QueryState` each time (matching every archetype anew), which cost the
//! engine more than the rules it answers: the engine's world-level helpers
//! (Op Fire eligibility, the moves, `phases::on_board` in the phases'
//! exclusive systems) ask "which units are where" after every order; the
//! phases' ordinary systems keep their own query state. A state is kept per query type in the world's
//! own [`KeptQueries`] resource (made with the world's units by
//! `spawn::spawn_scenario`), for as long as the world has the same
//! archetypes. When a new archetype appears that might match, the state is
//! built afresh rather than brought up to date: a fresh state may list the
//! archetypes in another order than an updated one (Bevy matches them
//! through a hash map). No result of the game depends on that order (the
//! phases, the random player and the bot sort units by id), but a kept
//! state never lists them otherwise than a fresh one would either. New
//! archetypes that cannot change that order (see [`same_order`]) keep the
//! state. A world without the resource builds every state afresh.

use std::any::{Any, TypeId};
use std::sync::Mutex;

use bevy::ecs::archetype::ArchetypeId;
use bevy::ecs::query::{QueryData, QueryFilter, QueryIter, QueryState};
use bevy::ecs::world::WorldId;
use bevy::prelude::*;

use super::fast_hash::FxHashMap;

/// One kept state, boxed.
type Slot = Option<Box<dyn Any + Send>>;

/// The query states kept for this world: a slot per query type, emptied
/// while its state is in use (taken out and put back in place). Behind a
/// lock because the rules read the world through shared references; the
/// lock is never held while a query runs.
#[derive(Resource, Default)]
pub struct KeptQueries(Mutex<FxHashMap<TypeId, Slot>>);

/// A kept state, with the world and the number of archetypes it was built
/// for.
type Kept<D, F> = ((WorldId, usize), QueryState<D, F>);

/// The kept state for `world`, or a fresh one; `None` when the world has
/// never seen one of the components.
fn take<D, F>(world: &World) -> Option<Box<Kept<D, F>>>
where
    D: QueryData + 'static,
    F: QueryFilter + 'static,
{
    let kept = world.get_resource::<KeptQueries>().and_then(|k| {
        k.0.lock()
            .ok()?
            .get_mut(&TypeId::of::<(D, F)>())
            .and_then(Option::take)
    });
    let now = (world.id(), world.archetypes().len());
    match kept.and_then(|b| b.downcast::<Kept<D, F>>().ok()) {
        Some(s) if s.0 == now => Some(s),
        Some(mut s) if s.0.0 == now.0 && same_order(world, s.0.1, &s.1) => {
            s.0 = now;
            Some(s)
        }
        _ => Some(Box::new((now, QueryState::<D, F>::try_new(world)?))),
    }
}

/// Whether `state`, kept while the world had `seen` archetypes, brought up
/// to date lists the units in the order a fresh state would. A fresh state
/// of a query with no required component matches the archetypes in the
/// order they were made, as an update does (it appends the new ones). One
/// with required components walks the archetypes holding the rarest of
/// them, in the order of Bevy's hash map of archetypes by component; when
/// none of the archetypes made since holds any of them, those maps are as
/// they were, so a fresh state walks them as the kept one did. Most new
/// archetypes are the world's resources (in Bevy 0.19 each resource is an
/// entity), which hold no unit component.
fn same_order<D, F>(world: &World, seen: usize, state: &QueryState<D, F>) -> bool
where
    D: QueryData + 'static,
    F: QueryFilter + 'static,
{
    let required = state.component_access().required();
    if required.is_clear() {
        return true;
    }
    let archetypes = world.archetypes();
    (seen..archetypes.len()).all(|i| {
        let archetype = &archetypes[ArchetypeId::new(i)];
        required.iter().all(|c| !archetype.contains(c))
    })
}

fn keep<D, F>(world: &World, state: Box<Kept<D, F>>)
where
    D: QueryData + 'static,
    F: QueryFilter + 'static,
{
    let Some(kept) = world.get_resource::<KeptQueries>() else {
        return;
    };
    let Ok(mut kept) = kept.0.lock() else {
        return;
    };
    let state: Box<dyn Any + Send> = state;
    kept.insert(TypeId::of::<(D, F)>(), Some(state));
}

/// Runs `f` over the read-only query `D` filtered by `F` on `world`, with a
/// kept query state, as `world.query_filtered::<D, F>()` would (components
/// the world has not seen yet are registered, as there).
pub fn with_query<D, F, R>(
    world: &mut World,
    f: impl FnOnce(QueryIter<'_, '_, D::ReadOnly, F>) -> R,
) -> R
where
    D: QueryData + 'static,
    F: QueryFilter + 'static,
{
    let mut state = match take::<D, F>(world) {
        Some(s) => s,
        None => {
            let q = QueryState::<D, F>::new(world);
            Box::new(((world.id(), world.archetypes().len()), q))
        }
    };
    let out = f(state.1.iter(world));
    keep(world, state);
    out
}

/// [`with_query`] on a shared world, as `world.try_query_filtered::<D, F>()`
/// would: `None` when the world has never seen one of the components.
pub fn try_with_query<D, F, R>(
    world: &World,
    f: impl FnOnce(QueryIter<'_, '_, D::ReadOnly, F>) -> R,
) -> Option<R>
where
    D: QueryData + 'static,
    F: QueryFilter + 'static,
{
    let mut state = take::<D, F>(world)?;
    let out = f(state.1.iter(world));
    keep(world, state);
    Some(out)
}

/// Collects the query into a vector.
pub fn collect<D, F, T>(
    world: &mut World,
    map: impl FnMut(<D::ReadOnly as QueryData>::Item<'_, '_>) -> T,
) -> Vec<T>
where
    D: QueryData + 'static,
    F: QueryFilter + 'static,
{
    with_query::<D, F, _>(world, |q| q.map(map).collect())
}
