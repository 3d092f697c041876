//! The turn (R 1.0): the start of the Operations Phase with the turn's
//! reinforcements (`operations.rs`, R 4.0, R 18.0, R 59.6), the Rout Phase
//! (`rout.rs`, R 11.0–11.2), the Melee Phase (`melee.rs`, R 12.0–12.2), the
//! Recovery Phase (`recovery.rs`, R 13.0), and the end of the scenario with
//! hex control, reinforcements and victory (`end.rs`, R 16.1, R 18.0).
//!
//! Each phase is Bevy systems: a schedule (the Operations Phase's start,
//! [`operations::OperationsPhase`]; [`recovery::RecoveryPhase`],
//! [`rout::RoutPhase`], [`melee::MeleePhase`]) kept in the world's
//! [`PhaseSchedules`], run on one thread with its systems chained. Systems
//! that look at the units are ordinary systems with their own query state;
//! the steps that roll dice, ask a player or call the engine's world-level
//! helpers are exclusive systems. A step that raises a `Decision` stops the
//! rest of the schedule (its run conditions see `Pending`); [`run_phase`]
//! runs the schedule again and again until the phase waits for a decision,
//! hands over to the next phase or ends the game. The driver that runs them
//! in turn is `engine::game`.

pub mod cp;
pub mod end;
pub mod melee;
pub mod operations;
pub mod recovery;
pub mod rout;

use bevy::prelude::*;

use crate::engine::decision::Pending;
use crate::engine::events::GameEvent;
use crate::scenario::Coord;
use crate::scenario::roster::Roster;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, Location, Phase, RosterRes, TurnTrack, Unit};

/// The phases that are Bevy systems, each a schedule kept in the world it
/// runs on (made the first time a phase runs; a schedule's systems keep
/// their query state for that world). Not Bevy's own `Schedules`: the
/// window's world holds those, and a game's resources are cleared from it
/// when the game is left.
#[derive(Resource)]
pub struct PhaseSchedules {
    pub operations: Schedule,
    pub rout: Schedule,
    pub melee: Schedule,
    pub recovery: Schedule,
}

impl Default for PhaseSchedules {
    fn default() -> Self {
        PhaseSchedules {
            operations: operations::schedule(),
            rout: rout::schedule(),
            melee: melee::schedule(),
            recovery: recovery::schedule(),
        }
    }
}

/// The events a phase's systems give, in order, for the driver to collect.
#[derive(Resource, Debug, Clone, Default)]
pub struct PhaseEvents(pub Vec<GameEvent>);

/// Gives a new world the phases' schedules, their event store and the
/// engine's memos before its units are spawned, so that a game never adds them mid-way (a
/// resource added mid-way changes the order in which queries list the
/// units, which the random player and the bot still pick by).
pub fn prepare(world: &mut World) {
    world.init_resource::<Schedules>();
    world.init_resource::<PhaseSchedules>();
    world.init_resource::<PhaseEvents>();
    world.init_resource::<operations::TurnOpening>();
    world.init_resource::<crate::engine::op_fire::OpFireMemo>();
    world.init_resource::<crate::engine::banzai::ChargeMemo>();
}

/// Runs `phase`'s schedule on `world` until the phase waits for a
/// decision, hands over to the next phase or ends the game (R 1.0); its
/// events are appended to `events`. Every run of the schedule either waits,
/// ends or moves its phase on a step (a part of the Rout Phase, a strike
/// group of a Melee); the bound only guards against a bug looping forever.
pub(crate) fn run_phase(
    world: &mut World,
    phase: Phase,
    schedule: impl FnOnce(&mut PhaseSchedules) -> &mut Schedule,
    events: &mut Vec<GameEvent>,
) {
    // A world made without `prepare` (the window's) gets them here.
    world.init_resource::<PhaseSchedules>();
    world.init_resource::<PhaseEvents>();
    world.init_resource::<operations::TurnOpening>();
    world.resource_scope(|world, mut schedules: Mut<PhaseSchedules>| {
        let schedule = schedule(&mut schedules);
        for _ in 0..1000 {
            schedule.run(world);
            let over = world.get_resource::<TurnTrack>().map(|t| t.phase) != Some(phase)
                || world.get_resource::<end::GameOver>().is_some();
            if over || world.get_resource::<Pending>().is_some() {
                break;
            }
        }
    });
    events.append(&mut world.resource_mut::<PhaseEvents>().0);
}

/// Runs an exclusive system's step with the phase's events at hand: the
/// world-level helpers it calls write to a plain list.
pub(crate) fn with_events(world: &mut World, step: impl FnOnce(&mut World, &mut Vec<GameEvent>)) {
    let mut events = std::mem::take(&mut world.resource_mut::<PhaseEvents>().0);
    step(world, &mut events);
    world.resource_mut::<PhaseEvents>().0 = events;
}

/// Run condition: no player is being asked a question.
pub(crate) fn no_decision(pending: Option<Res<Pending>>) -> bool {
    pending.is_none()
}

pub(crate) fn next_phase(world: &mut World, from: Phase, to: Phase, events: &mut Vec<GameEvent>) {
    if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
        hand_over(&mut t, from, to, events);
    } else {
        events.push(GameEvent::PhaseEnded {
            phase: from,
            next: to,
        });
    }
}

/// [`next_phase`] for a system that holds the turn track.
pub(crate) fn hand_over(
    track: &mut TurnTrack,
    from: Phase,
    to: Phase,
    events: &mut Vec<GameEvent>,
) {
    track.phase = to;
    events.push(GameEvent::PhaseEnded {
        phase: from,
        next: to,
    });
}

/// The first player of the scenario: first in the Rout Phase and the one
/// who orders the Melees (R 11.0, R 12.0).
pub(crate) fn first_player(world: &World) -> SideId {
    world.resource::<ActiveScenario>().scenario.first_player
}

/// One unit on the board, as the phases read it.
#[derive(Debug, Clone)]
pub(crate) struct OnBoard {
    pub entity: Entity,
    pub unit: Unit,
    pub at: Coord,
    pub in_cave: bool,
    pub class: UnitClass,
    /// The id's first bytes, for sorting.
    id_prefix: u64,
}

impl OnBoard {
    pub fn location(&self) -> (Coord, bool) {
        (self.at, self.in_cave)
    }

    pub fn is_decoy(&self) -> bool {
        self.class == UnitClass::Decoy
    }
}

impl OnBoard {
    fn new(entity: Entity, unit: &Unit, location: &Location, roster: &Roster) -> OnBoard {
        OnBoard {
            entity,
            unit: unit.clone(),
            at: location.coord,
            in_cave: location.in_cave,
            class: roster.get(&unit.kind).map_or(UnitClass::Squad, |t| t.class),
            id_prefix: id_prefix(&unit.id),
        }
    }
}

/// Every unit on the board, sorted by id.
pub(crate) fn on_board(world: &mut World) -> Vec<OnBoard> {
    let roster = world.resource::<RosterRes>().0.clone();
    let mut all: Vec<OnBoard> =
        crate::world::queries::collect::<(Entity, &Unit, &Location), (), _>(world, |(e, u, l)| {
            OnBoard::new(e, u, l, &roster)
        });
    sort_by_id(&mut all);
    all
}

/// The units a system's query lists, sorted by id as [`on_board`] gives
/// them (the query lists them in no order a rule may depend on).
pub(crate) fn listed<'a>(
    rows: impl Iterator<Item = (Entity, &'a Unit, &'a Location)>,
    roster: &Roster,
) -> Vec<OnBoard> {
    let mut all: Vec<OnBoard> = rows
        .map(|(e, u, l)| OnBoard::new(e, u, l, roster))
        .collect();
    sort_by_id(&mut all);
    all
}

/// By id; the first eight bytes compared as one number first (ids are
/// short), the whole text only when those are equal.
fn sort_by_id(all: &mut [OnBoard]) {
    all.sort_by(|a, b| {
        a.id_prefix
            .cmp(&b.id_prefix)
            .then_with(|| a.unit.id.cmp(&b.unit.id))
    });
}

/// The first eight bytes of an id as a big-endian number, zero-padded: two
/// ids whose prefixes differ order as their prefixes do.
fn id_prefix(id: &str) -> u64 {
    id.bytes()
        .chain(std::iter::repeat(0))
        .take(8)
        .fold(0, |k, b| k << 8 | u64::from(b))
}

/// Whether a unit shares its location with an enemy unit that is not a
/// Decoy: in Melee (R 12.0).
pub(crate) fn in_melee(all: &[OnBoard], u: &OnBoard) -> bool {
    all.iter()
        .any(|o| o.unit.side != u.unit.side && !o.is_decoy() && o.location() == u.location())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids ordered by their prefix number, then by text, order as the text.
    #[test]
    fn id_prefixes_order_as_the_ids() {
        let mut ids = vec![
            "A10",
            "A1",
            "",
            "B2",
            "A2",
            "G12345678",
            "G12345677",
            "G1234567",
            "g1",
            "A1a",
        ];
        let mut by_prefix = ids.clone();
        by_prefix.sort_by(|a, b| id_prefix(a).cmp(&id_prefix(b)).then_with(|| a.cmp(b)));
        ids.sort();
        assert_eq!(by_prefix, ids);
    }
}
