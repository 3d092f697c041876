//! The start of the Operations Phase (R 4.0) as Bevy systems: the
//! [`OperationsPhase`] schedule, kept in the world's
//! [`super::PhaseSchedules`] and run on one thread, its systems chained,
//! while the turn is at its start (`Phase::Setup`). [`reinforce`] places
//! the turn's reinforcements (R 18.0), asking where several entry hexes
//! qualify; once all are placed, [`banzai_begins`] opens the turn's Banzai
//! Charge (R 59.6), and [`begin`] starts the first player's Ops Range
//! (`engine::operations::begin_operations`, R 4.0) and then asks the
//! charge's choices, or whether to call it now, before the first order.
//! Each is an exclusive system (they place units, ask and call the engine's
//! world-level helpers); what one hands the next is kept in
//! [`TurnOpening`]. The orders of the phase and its end (every side done,
//! R 4.1) stay in `engine::operations`.

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

use crate::engine::banzai::{self, TurnStart};
use crate::world::{Phase, TurnTrack};

use super::{end, no_decision, with_events};

/// The systems of the Operations Phase's start (R 4.0).
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct OperationsPhase;

/// Where the start of a turn stands: every reinforcement placed, and what
/// the start of the turn brought for a Banzai Charge (R 59.6).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnOpening {
    reinforced: bool,
    banzai: Option<TurnStart>,
}

/// The schedule: one thread, its systems chained; once a decision is
/// pending the rest does nothing.
pub fn schedule() -> Schedule {
    let mut s = Schedule::new(OperationsPhase);
    s.set_executor(SingleThreadedExecutor::new());
    s.add_systems(
        (
            reinforce.run_if(no_decision),
            banzai_begins.run_if(|o: Res<TurnOpening>| o.reinforced && o.banzai.is_none()),
            begin.run_if(|o: Res<TurnOpening>| o.banzai.is_some()),
        )
            .chain(),
    );
    s
}

/// The turn's reinforcements enter (R 18.0); where a player must choose, a
/// decision waits.
fn reinforce(world: &mut World) {
    with_events(world, |world, events| {
        if end::place_reinforcements(world, events) {
            world.resource_mut::<TurnOpening>().reinforced = true;
        }
    });
}

/// A Banzai Charge is announced before any action (R 59.6).
fn banzai_begins(world: &mut World) {
    with_events(world, |world, events| {
        let start = banzai::begin_turn(world, events);
        world.resource_mut::<TurnOpening>().banzai = Some(start);
    });
}

/// The first player's Ops Range starts (R 4.0); then the charge's choices,
/// or the question whether to call it now, come before the first order. A
/// phase with nothing to Use ends at once.
fn begin(world: &mut World) {
    let start = std::mem::take(&mut *world.resource_mut::<TurnOpening>()).banzai;
    with_events(world, |world, events| {
        let ops = crate::engine::operations::begin_operations(world);
        let ended = world.resource::<TurnTrack>().phase != Phase::Operations;
        events.extend(ops);
        if let Some(start) = start
            && !ended
        {
            banzai::ask_at_start(world, start, events);
        }
    });
}
