//! The Recovery Phase — R 13.0: units not in Melee recover one step of
//! Suppression; Used, Op Fire, CP and Flank counters come off (CPs return to
//! their players, R 3.0); the turn marker advances, and after the last turn
//! the scenario ends and victory is determined (R 18.0). Dispersed Smoke is
//! removed and Smoke flips to Dispersed (R 48.0, `engine::smoke::recover`).
//!
//! The phase is Bevy systems: the [`RecoveryPhase`] schedule, kept in the
//! world's [`super::PhaseSchedules`] and run on one thread in a fixed,
//! chained order. Its systems keep their own query state and write their
//! events to [`PhaseEvents`], which [`super::run_phase`] hands back to the
//! driver. It asks nothing: one run of the schedule is the whole phase.

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

use crate::engine::events::GameEvent;
use crate::scenario::roster::UnitClass;
use crate::world::{Location, Marks, Phase, RosterRes, Suppression, TurnTrack, Unit};

use super::{PhaseEvents, cp, end};

/// The Recovery Phase's systems (R 13.0).
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct RecoveryPhase;

/// The Recovery Phase's schedule: one thread, its systems chained.
pub fn schedule() -> Schedule {
    let mut s = Schedule::new(RecoveryPhase);
    s.set_executor(SingleThreadedExecutor::new());
    s.add_systems((recover_suppression, remove_markers, end_of_turn).chain());
    s
}

/// One unit on the board as the Recovery Phase reads it.
type Row<'a> = (Entity, &'a Unit, &'a Location, Option<&'a Suppression>);

/// Units not in Melee recover one step of Suppression (R 13.0), in id
/// order; a Decoy puts no unit in Melee (R 12.0).
fn recover_suppression(
    units: Query<Row>,
    roster: Res<RosterRes>,
    mut commands: Commands,
    mut out: ResMut<PhaseEvents>,
) {
    let decoy = |u: &Unit| {
        roster
            .0
            .get(&u.kind)
            .is_some_and(|t| t.class == UnitClass::Decoy)
    };
    let mut all: Vec<Row> = units.iter().collect();
    all.sort_by(|a, b| a.1.id.cmp(&b.1.id));
    let in_melee = |u: &Unit, l: &Location| {
        all.iter().any(|(_, o, ol, _)| {
            o.side != u.side && !decoy(o) && (ol.coord, ol.in_cave) == (l.coord, l.in_cave)
        })
    };
    for (entity, unit, location, suppression) in &all {
        if in_melee(unit, location) {
            continue;
        }
        let now = match suppression {
            Some(Suppression::Full) => {
                commands.entity(*entity).insert(Suppression::Suppressed);
                "Suppressed"
            }
            Some(Suppression::Suppressed) => {
                commands.entity(*entity).remove::<Suppression>();
                "full Morale"
            }
            None => continue,
        };
        out.0.push(GameEvent::Recovered {
            unit: unit.id.clone(),
            now,
        });
    }
}

/// Used, Op Fire, CP and Flank counters come off every unit on the board,
/// and a Melee Ambush lasts for its turn only (R 13.0, R 51.2).
fn remove_markers(mut marks: Query<&mut Marks, (With<Unit>, With<Location>)>) {
    for mut m in &mut marks {
        m.set_if_neq(Marks::default());
    }
}

/// The rest of the turn's end: Seishin ends (R 59.5), CPs return (R 3.0),
/// Illumination comes off (R 50.1), Smoke disperses (R 48.0); then the
/// scenario ends after its last turn (R 18.0), or the first player's
/// Monsoon Storm Check (R 55.2) and the next turn.
fn end_of_turn(world: &mut World) {
    super::with_events(world, end_turn);
}

fn end_turn(world: &mut World, events: &mut Vec<GameEvent>) {
    crate::engine::seishin::end_of_turn(world);
    cp::return_all(world);
    events.push(GameEvent::MarkersRemoved);
    crate::engine::night::recovery(world, events);
    crate::engine::smoke::recover(world, events);
    let (turn, last) = {
        let t = world.resource::<TurnTrack>();
        (t.turn, t.last_turn)
    };
    if turn >= last {
        end::finish(world, events);
    } else {
        crate::engine::monsoon::storm_check_in_recovery(world, events);
        if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
            t.turn += 1;
            t.phase = Phase::Setup;
        }
        events.push(GameEvent::TurnBegins { turn: turn + 1 });
    }
}
