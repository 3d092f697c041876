//! The game driver (R 1.0): [`begin_game`] and [`apply`] drive a whole
//! game. Orders of the Operations Phase go to `engine::operations`; every
//! phase without a choice to make then runs by itself until the game waits
//! for a [`Decision`] (answered by an order) or the game is over.

use bevy::prelude::*;

use crate::engine::decision::{Decision, Pending};
use crate::engine::events::GameEvent;
use crate::engine::orders::{Order, Refusal};
use crate::engine::phases::{end, melee, rout, run_phase};
use crate::world::{Phase, TurnTrack};

/// Starts a game at its first turn: hexes of the setup areas controlled,
/// Turn 1 reinforcements placed, then the Operations Phase.
pub fn begin_game(world: &mut World) -> Vec<GameEvent> {
    end::init_control(world);
    let mut events = Vec::new();
    advance(world, &mut events);
    events
}

/// Checks an order against the state, then executes it and runs the game on
/// until it waits again.
pub fn apply(world: &mut World, order: &Order) -> Result<Vec<GameEvent>, Refusal> {
    if world.get_resource::<end::GameOver>().is_some() {
        return Err(Refusal::GameOver);
    }
    let mut events = Vec::new();
    if let Some(Pending(decision)) = world.get_resource::<Pending>().cloned() {
        answer(world, &decision, order, &mut events)?;
        // A move resumed by the answer passes hexes too (R 18.0).
        end::note_moves(world, &events);
        advance(world, &mut events);
        crate::engine::combat_events::record_eliminations(world, &events);
        return Ok(events);
    }
    if is_answer(order) {
        return Err(Refusal::NothingToAnswer);
    }
    let phase = world.get_resource::<TurnTrack>().map(|t| t.phase);
    if phase != Some(Phase::Operations) {
        return Err(Refusal::NotOperationsPhase);
    }
    melee::check_no_withdrawal(world, order)?;
    crate::engine::banzai::check_order(world, order)?;
    let ops = crate::engine::operations::apply(world, order)?;
    end::note_moves(world, &ops);
    events.extend(ops);
    advance(world, &mut events);
    // Combat Event 4 may bring back a unit lost in any phase (R 17.0).
    crate::engine::combat_events::record_eliminations(world, &events);
    Ok(events)
}

/// An accepted order as the views receive it: the referee's events, and
/// each side's fog as it stood before the order, from which each view makes
/// that side's copy (`engine::view`, R 15.0).
#[derive(Debug, Clone)]
pub struct Seen {
    pub events: Vec<GameEvent>,
    /// By `SideId::index`.
    pub fogs: [crate::engine::view::Fog; 2],
}

/// [`apply`], for a player's screen: the driver takes what each side cannot
/// see before the order, so no view speaks to a side from the referee's
/// stream alone.
pub fn apply_seen(world: &mut World, order: &Order) -> Result<Seen, Refusal> {
    let fogs =
        crate::scenario::schema::SideId::BOTH.map(|s| crate::engine::view::Fog::of(world, s));
    apply(world, order).map(|events| Seen { events, fogs })
}

fn is_answer(order: &Order) -> bool {
    matches!(
        order,
        Order::CpReroll { .. }
            | Order::Rout { .. }
            | Order::Melee { .. }
            | Order::Casualties { .. }
            | Order::Place { .. }
            | Order::Hold { .. }
            | Order::BanzaiGd { .. }
            | Order::BanzaiOpFire { .. }
            | Order::BanzaiAnnounce { .. }
            | Order::Face { .. }
    )
}

fn answer(
    world: &mut World,
    decision: &Decision,
    order: &Order,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    match (decision, order) {
        (Decision::CpReroll { .. }, Order::CpReroll { unit }) => {
            match world.resource::<TurnTrack>().phase {
                Phase::Rout => rout::answer_reroll(world, decision, unit.as_deref(), events),
                _ => melee::answer_reroll(world, decision, unit.as_deref(), events),
            }
        }
        (Decision::RoutDestination { .. }, Order::Rout { unit, to, facing }) => {
            rout::answer_destination(world, decision, unit, to, *facing, events)
        }
        (Decision::MeleeOrder { choices, .. }, Order::Melee { at }) => {
            if !choices.contains(at) {
                return Err(Refusal::WrongAnswer {
                    reason: format!("no Melee to resolve in {at} (R 12.0)"),
                });
            }
            world.remove_resource::<Pending>();
            melee::choose(world, at, events);
            Ok(())
        }
        (Decision::Casualties { .. }, Order::Casualties { units }) => {
            melee::answer_casualties(world, decision, units, events)
        }
        (Decision::Reinforcement { .. }, Order::Place { unit, at }) => {
            end::answer_place(world, decision, unit, at, events)
        }
        (Decision::Reinforcement { .. }, Order::Hold { unit }) => {
            end::answer_hold(world, decision, unit, events)
        }
        (Decision::BanzaiGd { units: choices, .. }, Order::BanzaiGd { units }) => {
            crate::engine::banzai::answer_gd(world, choices, units, events)
        }
        (
            Decision::BanzaiOpFire {
                side,
                units: choices,
            },
            Order::BanzaiOpFire { units },
        ) => crate::engine::banzai::answer_op_fire(world, *side, choices, units, events),
        (Decision::RevealedFacing { unit: asked, .. }, Order::Face { unit, facing }) => {
            crate::engine::concealment::answer_facing(world, asked, unit, *facing, events)
        }
        (Decision::BanzaiAnnounce { .. }, Order::BanzaiAnnounce { now }) => {
            crate::engine::banzai::answer_announce(world, *now, events);
            Ok(())
        }
        _ => Err(Refusal::DecisionAwaited {
            what: decision.describe(),
        }),
    }
}

/// Runs every phase that needs no choice, until the game waits for an order
/// (Operations), a decision, or is over.
pub fn advance(world: &mut World, events: &mut Vec<GameEvent>) {
    // Every pass either waits, ends the game, or moves a phase on; the bound
    // only guards against a bug looping forever.
    for _ in 0..1000 {
        if world.get_resource::<Pending>().is_some()
            || world.get_resource::<end::GameOver>().is_some()
        {
            return;
        }
        end::note_occupied(world);
        let Some(phase) = world.get_resource::<TurnTrack>().map(|t| t.phase) else {
            return;
        };
        match phase {
            Phase::Setup => {
                run_phase(world, Phase::Setup, |s| &mut s.operations, events);
                // The first order comes next (R 4.0), unless the phase
                // ended at once.
                if world.resource::<TurnTrack>().phase == Phase::Operations {
                    return;
                }
            }
            Phase::Operations => {
                if world
                    .get_resource::<crate::engine::operations::OpsState>()
                    .is_some()
                {
                    return;
                }
                // No Operations Phase under way (a world set up by hand).
                let ops = crate::engine::operations::begin_operations(world);
                events.extend(ops);
                if world.resource::<TurnTrack>().phase == Phase::Operations {
                    return;
                }
            }
            Phase::Rout => run_phase(world, Phase::Rout, |s| &mut s.rout, events),
            Phase::Melee => run_phase(world, Phase::Melee, |s| &mut s.melee, events),
            Phase::Recovery => run_phase(world, Phase::Recovery, |s| &mut s.recovery, events),
        }
    }
}
