//! The Operations Phase flow — R 4.0 (Operations Phase), R 4.1 (Operations
//! Range), R 4.2 (Used), R 4.3 (Op Fire): who acts, what counts, when play
//! passes, when the phase ends. Movement and fire orders join this flow with
//! the rest of issue 3.

use crate::world::UnitId;
use bevy::prelude::*;

use crate::rules::ops_range::{OpsTally, use_cost};
use crate::scenario::schema::SideId;
use crate::world::{
    ActiveScenario, AidRes, Concealed, Facing, Marks, Phase, TurnTrack, Unit, mark, marks,
};

use super::combat_events::CombatEventDecision;
use super::command_points::{self, CpFunction};
use super::events::GameEvent;
use super::orders::{Order, Refusal};

/// Whose Ops Range it is, and what it has counted (R 4.1).
#[derive(Resource, Debug, Clone)]
pub struct OpsState {
    pub acting: SideId,
    pub tally: OpsTally,
    /// Sides whose every unit is Used or Op Fire.
    pub finished: [bool; 2],
}

fn ops_range_of(world: &World, side: SideId) -> crate::scenario::schema::OpsRange {
    world
        .resource::<ActiveScenario>()
        .scenario
        .sides
        .iter()
        .find(|c| c.side == side)
        .map_or(crate::scenario::schema::OpsRange { min: 1, max: 1 }, |c| {
            c.ops_range
        })
}

/// Runs `f` over the Use cost of each unit of `side` that may still be
/// Used (a Gun three, one while Concealed, R 4.1, R 20.0), in the kept
/// query's order. Each cost is worked out only when `f` asks for it, so a
/// check that stops at the first unit that answers lists nothing.
fn with_open_costs<R>(
    world: &mut World,
    side: SideId,
    f: impl FnOnce(&mut dyn Iterator<Item = u8>) -> R,
) -> R {
    let constants = world.resource::<AidRes>().0.constants;
    let roster = world.resource::<crate::world::RosterRes>().0.clone();
    crate::world::queries::with_query::<(Entity, &Unit, &Marks, Has<Concealed>), (), _>(
        world,
        |q| {
            let mut costs = q
                .filter(|(_, u, m, _)| u.side == side && !m.used && !m.op_fire)
                .map(|(_, u, _, concealed)| {
                    // The unit's class read here, as `gun::use_kind` reads it,
                    // without a second lookup of the unit.
                    let class = roster
                        .get(&u.kind)
                        .map_or(crate::scenario::roster::UnitClass::Squad, |t| t.class);
                    use_cost(&constants, crate::rules::gun::use_kind(class), concealed)
                });
            f(&mut costs)
        },
    )
}

/// Starts the Operations Phase: the scenario's first player opens (R 4.0).
pub fn begin_operations(world: &mut World) -> Vec<GameEvent> {
    let first = world.resource::<ActiveScenario>().scenario.first_player;
    if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
        t.phase = Phase::Operations;
        t.active = first;
    }
    let range = ops_range_of(world, first);
    world.insert_resource(OpsState {
        acting: first,
        tally: OpsTally::new(range),
        finished: [false; 2],
    });
    let mut events = vec![GameEvent::OpsRangeStarted {
        side: first,
        min: range.min,
        max: range.max,
    }];
    // Until the first player Uses a unit, the second may act first with one
    // unit per CP (R 3.0 #2, R 4.0).
    world.insert_resource(SecondMayActFirst);
    settle(world, &mut events);
    events
}

/// The start of the Operations Phase, before the first player's first Use:
/// the second player may still spend CPs to act first (R 3.0 #2).
#[derive(Resource, Debug, Clone, Copy)]
pub struct SecondMayActFirst;

/// A `cp` order: who may give it, then the CP readied or spent (R 3.0).
fn cp_order(
    world: &mut World,
    state: &OpsState,
    unit: &str,
    function: CpFunction,
) -> Result<Vec<GameEvent>, Refusal> {
    let entity = unit_entity(world, unit)?;
    let side = world.get::<Unit>(entity).map_or(state.acting, |u| u.side);
    let window = world
        .get_resource::<super::op_fire::OpFireWindow>()
        .cloned();
    let allowed = match (&window, function) {
        // During an Op Fire window: the firing side readies CPs on its
        // firers, the moving side on its mover.
        (Some(w), _) => side == w.side || entity == w.mover,
        (None, CpFunction::ActFirst) => {
            side != world.resource::<ActiveScenario>().scenario.first_player
                && world.get_resource::<SecondMayActFirst>().is_some()
                && {
                    let m = marks(world, entity);
                    !m.used && !m.op_fire
                }
        }
        (None, _) => side == state.acting,
    };
    if !allowed {
        return Err(match function {
            CpFunction::ActFirst => Refusal::CpNotApplicable {
                unit: UnitId::from(unit),
                reason: "only the second player, before the first player Uses a unit (R 3.0 #2)"
                    .into(),
            },
            _ => Refusal::NotYourUnit {
                unit: UnitId::from(unit),
                acting: state.acting,
            },
        });
    }
    let mut events = Vec::new();
    command_points::ready(world, entity, function, &mut events)?;
    Ok(events)
}

/// Counts a Use (R 4.1), or spends the CP of a unit acting first (R 3.0 #2).
fn begin_use(world: &mut World, entity: Entity, cost: u8, events: &mut Vec<GameEvent>) -> OpsTally {
    if command_points::is_ready(world, entity, CpFunction::ActFirst)
        && world.get_resource::<SecondMayActFirst>().is_some()
        && command_points::use_ready(world, entity, CpFunction::ActFirst, events)
    {
        return world.resource::<OpsState>().tally;
    }
    world.remove_resource::<SecondMayActFirst>();
    record_use(world, cost)
}

/// Checks an order against the state, then executes it.
pub fn apply(world: &mut World, order: &Order) -> Result<Vec<GameEvent>, Refusal> {
    let mut result = apply_order(world, order);
    if let Ok(events) = &mut result {
        // A unit the order revealed chooses its facing before the game goes
        // on (R 2.2).
        super::concealment::ask_facing(world, events);
    }
    // A CP readied for an action that is over goes back unspent (R 3.0).
    if result.is_ok() && !matches!(order, Order::Cp { .. }) && idle(world) {
        command_points::clear_ready(world);
    }
    result
}

/// No Op Fire window and no move is waiting: the action is over.
fn idle(world: &World) -> bool {
    world
        .get_resource::<super::op_fire::OpFireWindow>()
        .is_none()
        && world
            .get_resource::<super::movement::MoveInProgress>()
            .is_none()
}

fn apply_order(world: &mut World, order: &Order) -> Result<Vec<GameEvent>, Refusal> {
    let state = current_state(world)?;
    let mut events = Vec::new();
    if let Some(asked) = revealed_facing_asked(world) {
        // A revealed unit's facing is answered first (R 2.2).
        let Order::Face { unit, facing } = order else {
            return Err(facing_awaited(world));
        };
        super::concealment::answer_facing(world, &asked, unit, *facing, &mut events)?;
        return Ok(events);
    }
    if world.contains_resource::<CombatEventDecision>() {
        answer_combat_event(world, order, &mut events)?;
        return Ok(events);
    }
    if let Order::Cp { unit, function } = order {
        return cp_order(world, &state, unit, *function);
    }
    if let Some(w) = world.get_resource::<super::op_fire::OpFireWindow>() {
        let at = w.at.label();
        let Order::OpFire { firers, facing } = order else {
            return Err(Refusal::DecisionPending { at });
        };
        super::op_fire::answer(world, firers, facing, &mut events)?;
        settle_when_idle(world, &mut events);
        return Ok(events);
    }
    match order {
        Order::OpFire { .. } => return Err(Refusal::NoDecisionPending),
        Order::CombatEvent { .. } => return Err(Refusal::NoCombatEventPending),
        Order::Cp { .. } => {}
        Order::MarkUsed { unit } | Order::MarkOpFire { unit, .. } => {
            let (entity, cost) = ready_to_use(world, &state, unit)?;
            check_op_fire_facing(world, entity, order)?;
            let tally = begin_use(world, entity, cost, &mut events);
            let side = state.acting;
            match order {
                Order::MarkOpFire { facing, .. } => {
                    mark(world, entity, |m| m.op_fire = true);
                    if let Some(f) = facing {
                        world.entity_mut(entity).insert(Facing(*f));
                    }
                    events.push(GameEvent::MarkedOpFire {
                        unit: UnitId::from(unit),
                        side,
                        facing: *facing,
                        used: tally.used,
                        max: tally.range.max,
                    });
                    super::concealment::regain_concealment(
                        world,
                        entity,
                        "marked Op Fire out of all enemy LOS",
                        &mut events,
                    );
                }
                _ => {
                    mark(world, entity, |m| m.used = true);
                    events.push(GameEvent::MarkedUsed {
                        unit: UnitId::from(unit),
                        side,
                        used: tally.used,
                        max: tally.range.max,
                    });
                    super::concealment::regain_concealment(
                        world,
                        entity,
                        "Used out of all enemy LOS",
                        &mut events,
                    );
                }
            }
            settle(world, &mut events);
        }
        Order::Move { .. } => {
            let Some((unit, plan)) = super::movement::MovePlan::of(order) else {
                return Err(Refusal::EmptyPath);
            };
            let (entity, cost) = ready_to_use(world, &state, unit)?;
            let steps = super::movement::check_move(world, entity, &plan)?;
            let end_facing = super::movement::check_end_facing(world, order)?;
            let tally = begin_use(world, entity, cost, &mut events);
            if let Some(f) = end_facing {
                world
                    .entity_mut(entity)
                    .insert(super::movement::EndFacing(f));
            }
            events.push(GameEvent::MoveStarted {
                unit: UnitId::from(unit),
                used: tally.used,
                max: tally.range.max,
            });
            super::movement::execute_move(world, entity, &steps, &mut events);
            // A move waiting on an Op Fire window (or its Assault Fire's
            // Muzzle Flash, R 50.2) settles when it ends.
            settle_when_idle(world, &mut events);
        }
        Order::Fire {
            unit,
            target,
            facing,
        } => {
            let (entity, cost) = ready_to_use(world, &state, unit)?;
            // A Gun that fires counts three even if it was Concealed (R 4.1).
            let cost = super::gun::fire_cost(world, entity, cost);
            if cost > 0 {
                state.tally.check(cost).map_err(Refusal::OpsRange)?;
            }
            let (to, facing) = super::fire::check_fire(world, entity, target, *facing)?;
            let tally = begin_use(world, entity, cost, &mut events);
            let into_cave = crate::rules::fortifications::split_label(target).1;
            events.push(GameEvent::FireStarted {
                unit: UnitId::from(unit),
                target: crate::rules::fortifications::place_label(to, into_cave),
                used: tally.used,
                max: tally.range.max,
            });
            if into_cave {
                // Fire into the Cave below the hex (R 43.4).
                crate::world::mark_attack(world, entity, |a| a.into_cave = true);
            }
            super::fire::execute_fire(world, entity, to, facing, &mut events);
            // Its Muzzle Flash may be answered first at Night (R 50.2).
            super::night::open_flashes(world, &mut events);
            settle_when_idle(world, &mut events);
        }
        Order::Turn { unit, facing } => {
            let (entity, cost) = ready_to_use(world, &state, unit)?;
            super::gun::check_turn_by_use(world, entity, *facing)?;
            let tally = begin_use(world, entity, cost, &mut events);
            let range = (tally.used, tally.range.max);
            super::gun::turn_by_use(world, entity, *facing, range, &mut events);
            settle(world, &mut events);
        }
        Order::RegenerateDecoy { unit, decoy } => {
            let (entity, cost) = ready_to_use(world, &state, unit)?;
            let kind = super::night::check_regenerate(world, entity, decoy)?;
            let tally = begin_use(world, entity, cost, &mut events);
            super::night::regenerate(world, entity, decoy, kind, tally, &mut events);
            settle(world, &mut events);
        }
        Order::Illuminate { unit, at } => {
            let (to, cost) = super::night::check_illuminate(world, state.acting, unit, at)?;
            state.tally.check(cost).map_err(Refusal::OpsRange)?;
            // An asset, not a unit: it counts in the Ops Range (R 4.0, R 50.1).
            world.remove_resource::<SecondMayActFirst>();
            let tally = record_use(world, cost);
            super::night::illuminate(world, state.acting, unit, to, tally, &mut events);
            settle(world, &mut events);
        }
        Order::Clear { unit } => {
            let (entity, cost) = ready_to_use(world, &state, unit)?;
            let obstacle = super::obstacles::check_clear(world, entity)?;
            let tally = begin_use(world, entity, cost, &mut events);
            events.push(GameEvent::MoveStarted {
                unit: UnitId::from(unit),
                used: tally.used,
                max: tally.range.max,
            });
            super::obstacles::execute_clear(world, entity, obstacle, &mut events);
            if world
                .get_resource::<super::movement::MoveInProgress>()
                .is_none()
            {
                settle(world, &mut events);
            }
        }
        Order::PlaceSmoke { unit, at } => {
            let (entity, cost) = ready_to_use(world, &state, unit)?;
            let (to, source) = super::smoke::check_place(world, entity, at)?;
            let tally = begin_use(world, entity, cost, &mut events);
            events.push(GameEvent::Smoke(super::smoke::SmokeEvent::Started {
                unit: UnitId::from(unit),
                at: to.label(),
                used: tally.used,
                max: tally.range.max,
            }));
            super::smoke::execute_place(world, entity, to, source, &mut events);
            settle(world, &mut events);
        }
        Order::Pass => {
            check_pass(world, &state)?;
            events.push(GameEvent::Passed {
                side: state.acting,
                used: state.tally.used,
                forced: false,
            });
            hand_over(world, &mut events);
        }
        Order::CpReroll { .. }
        | Order::Rout { .. }
        | Order::Melee { .. }
        | Order::Casualties { .. }
        | Order::Place { .. }
        | Order::Hold { .. }
        | Order::BanzaiGd { .. }
        | Order::BanzaiOpFire { .. }
        | Order::BanzaiAnnounce { .. }
        | Order::Face { .. } => return Err(Refusal::NothingToAnswer),
    }
    Ok(events)
}

/// The Ops Range under way, if this is the Operations Phase (R 4.0).
fn current_state(world: &World) -> Result<OpsState, Refusal> {
    let phase = world.get_resource::<TurnTrack>().map(|t| t.phase);
    match world.get_resource::<OpsState>() {
        Some(state) if phase == Some(Phase::Operations) => Ok(state.clone()),
        _ => Err(Refusal::NotOperationsPhase),
    }
}

/// The unit named and what its Use counts, if it may be Used now (R 4.1).
fn ready_to_use(world: &mut World, state: &OpsState, unit: &str) -> Result<(Entity, u8), Refusal> {
    if world.get_resource::<SecondMayActFirst>().is_some()
        && let Some(e) = acting_first(world, unit)
    {
        // Readied to act first with a CP: outside both Ops Ranges (R 3.0 #2).
        check_own_ready_unit(world, unit, state.acting.other())?;
        return Ok((e, 0));
    }
    let (entity, concealed) = check_own_ready_unit(world, unit, state.acting)?;
    let constants = world.resource::<AidRes>().0.constants;
    let cost = use_cost(&constants, super::gun::use_kind(world, entity), concealed);
    state.tally.check(cost).map_err(Refusal::OpsRange)?;
    Ok((entity, cost))
}

/// R 4.3: a Gun in a building may not change its facing as it is marked
/// Op Fire (nor one in a Pillbox, Bunker or Fortified building, R 43.3,
/// R 43.5).
fn check_op_fire_facing(world: &World, entity: Entity, order: &Order) -> Result<(), Refusal> {
    match order {
        Order::MarkOpFire {
            facing: Some(f), ..
        } => super::gun::check_turn(world, entity, *f, crate::rules::gun::GunTurn::MarkedOpFire),
        _ => Ok(()),
    }
}

/// The unit named, if a CP to act first is readied on it (R 3.0 #2).
fn acting_first(world: &mut World, unit: &str) -> Option<Entity> {
    crate::world::queries::with_query::<(Entity, &Unit, &command_points::CpReady), (), _>(
        world,
        |mut q| {
            q.find(|(_, u, r)| u.id == unit && r.0 == CpFunction::ActFirst)
                .map(|(e, _, _)| e)
        },
    )
}

/// Counts a checked Use against the Ops Range; returns the new tally.
fn record_use(world: &mut World, cost: u8) -> OpsTally {
    let mut state = world.resource_mut::<OpsState>();
    state.tally.record(cost);
    state.tally
}

/// The unit named, if it belongs to the side acting and may still be Used.
fn check_own_ready_unit(
    world: &mut World,
    id: &str,
    acting: SideId,
) -> Result<(Entity, bool), Refusal> {
    let found = crate::world::queries::with_query::<(Entity, &Unit, &Marks, Has<Concealed>), (), _>(
        world,
        |mut q| {
            q.find(|r| r.1.id == id)
                .map(|(e, u, m, concealed)| (e, u.side, m.used, m.op_fire, concealed))
        },
    );
    let Some((e, side, used, op, concealed)) = found else {
        return Err(Refusal::UnknownUnit {
            unit: UnitId::from(id),
        });
    };
    if side != acting {
        return Err(Refusal::NotYourUnit {
            unit: UnitId::from(id),
            acting,
        });
    }
    if used {
        return Err(Refusal::AlreadyUsed {
            unit: UnitId::from(id),
        });
    }
    if op {
        return Err(Refusal::AlreadyOpFire {
            unit: UnitId::from(id),
        });
    }
    Ok((e, concealed))
}

/// After a Use: note finished sides, and pass when the Ops Range is full or
/// nothing left fits (R 4.1).
pub(crate) fn settle(world: &mut World, events: &mut Vec<GameEvent>) {
    // Nothing passes while a Combat Event waits for its choice (R 17.0),
    // nor before a revealed unit has chosen its facing (R 2.2).
    if world.contains_resource::<CombatEventDecision>()
        || super::concealment::ask_facing(world, events)
    {
        return;
    }
    let state = world.resource::<OpsState>().clone();
    // `None` when no unit is left to Use, else whether play must pass.
    let open = with_open_costs(world, state.acting, |costs| {
        let mut costs = costs.peekable();
        costs.peek().is_some().then(|| state.tally.must_pass(costs))
    });
    if open.is_none() {
        mark_finished(world, state.acting, events);
        hand_over(world, events);
    } else if open == Some(true) {
        events.push(GameEvent::Passed {
            side: state.acting,
            used: state.tally.used,
            forced: true,
        });
        hand_over(world, events);
    }
}

/// The answer to a Combat Event choice (R 17.0); then the move it
/// interrupted goes on, and the Ops Range settles.
fn answer_combat_event(
    world: &mut World,
    order: &Order,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Order::CombatEvent { picks } = order else {
        let d = world.resource::<CombatEventDecision>();
        return Err(Refusal::CombatEventPending {
            side: d.side,
            count: d.count,
            options: d.options.clone(),
        });
    };
    super::combat_events::answer(world, picks, events)?;
    if world.contains_resource::<CombatEventDecision>()
        || world
            .get_resource::<super::op_fire::OpFireWindow>()
            .is_some()
        // Muzzle Flashes of the fire before it, or of the event's own fire,
        // are answered first; the move waits for the chain (R 50.2).
        || super::night::open_flashes(world, events)
    {
        return Ok(());
    }
    super::movement::continue_move(world, events);
    settle_when_idle(world, events);
    Ok(())
}

/// The unit whose facing the game waits for, if it waits for one (R 2.2).
fn revealed_facing_asked(world: &World) -> Option<String> {
    match world.get_resource::<crate::engine::decision::Pending>() {
        Some(crate::engine::decision::Pending(
            crate::engine::decision::Decision::RevealedFacing { unit, .. },
        )) => Some(unit.clone()),
        _ => None,
    }
}

/// The refusal of any other order while a revealed unit's facing is asked.
fn facing_awaited(world: &World) -> Refusal {
    Refusal::DecisionAwaited {
        what: world
            .get_resource::<crate::engine::decision::Pending>()
            .map(|p| p.0.describe())
            .unwrap_or_default(),
    }
}

/// The action a revealed unit's facing choice paused goes on once it is
/// answered (R 2.2): a Combat Event choice or an Op Fire window still open
/// comes first, then the Muzzle Flashes (R 50.2), the rest of the move, and
/// the Ops Range settles (R 4.1).
pub fn resume(world: &mut World, events: &mut Vec<GameEvent>) {
    if current_state(world).is_err()
        || world.contains_resource::<CombatEventDecision>()
        || world
            .get_resource::<super::op_fire::OpFireWindow>()
            .is_some()
        || super::night::open_flashes(world, events)
    {
        return;
    }
    super::movement::continue_move(world, events);
    settle_when_idle(world, events);
    if idle(world) {
        // A CP readied for the action that is over goes back (R 3.0).
        command_points::clear_ready(world);
    }
}

/// Settles unless an Op Fire window or a move is still waiting.
fn settle_when_idle(world: &mut World, events: &mut Vec<GameEvent>) {
    if idle(world) {
        settle(world, events);
    }
}

fn mark_finished(world: &mut World, side: SideId, events: &mut Vec<GameEvent>) {
    let mut state = world.resource_mut::<OpsState>();
    if !state.finished[side.index()] {
        state.finished[side.index()] = true;
        events.push(GameEvent::SideFinished { side });
    }
}

/// Play passes to the opponent; a side with nothing left lets the other
/// continue; when neither has anything left the phase ends (R 4.1).
fn hand_over(world: &mut World, events: &mut Vec<GameEvent>) {
    let acting = world.resource::<OpsState>().acting;
    for side in [acting.other(), acting] {
        if with_open_costs(world, side, |costs| costs.next().is_none()) {
            mark_finished(world, side, events);
            continue;
        }
        let range = ops_range_of(world, side);
        {
            let mut state = world.resource_mut::<OpsState>();
            state.acting = side;
            state.tally = OpsTally::new(range);
        }
        if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
            t.active = side;
        }
        events.push(GameEvent::OpsRangeStarted {
            side,
            min: range.min,
            max: range.max,
        });
        return;
    }
    if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
        t.phase = Phase::Rout;
    }
    world.remove_resource::<OpsState>();
    world.remove_resource::<SecondMayActFirst>();
    // Follow Me! lasts for the phase only (R 5.4).
    command_points::end_of_phase(world);
    events.push(GameEvent::PhaseEnded {
        phase: Phase::Operations,
        next: Phase::Rout,
    });
}

/// Checks an order without executing it: the very checks `apply` makes
/// before anything happens, in the same order. The interface greys its
/// buttons and explains why with these refusals.
pub fn check(world: &mut World, order: &Order) -> Result<(), Refusal> {
    let state = current_state(world)?;
    if let Some(asked) = revealed_facing_asked(world) {
        return match order {
            Order::Face { unit, .. } if *unit == asked => Ok(()),
            Order::Face { unit, .. } => Err(Refusal::WrongAnswer {
                reason: super::concealment::not_the_unit_to_face(unit, &asked),
            }),
            _ => Err(facing_awaited(world)),
        };
    }
    if let Some(d) = world.get_resource::<CombatEventDecision>() {
        // The picks themselves are checked when the answer is applied.
        return match order {
            Order::CombatEvent { .. } => Ok(()),
            _ => Err(Refusal::CombatEventPending {
                side: d.side,
                count: d.count,
                options: d.options.clone(),
            }),
        };
    }
    if let Some(w) = world
        .get_resource::<super::op_fire::OpFireWindow>()
        .cloned()
    {
        return match order {
            Order::OpFire { firers, .. } => super::op_fire::check_answer(&w, firers),
            Order::Cp { .. } => Ok(()),
            _ => Err(Refusal::DecisionPending { at: w.at.label() }),
        };
    }
    let checked = match order {
        Order::OpFire { .. } => Err(Refusal::NoDecisionPending),
        Order::CombatEvent { .. } => Err(Refusal::NoCombatEventPending),
        Order::Cp { unit, .. } => {
            let entity = unit_entity(world, unit)?;
            command_points::check(world, entity)
        }
        Order::MarkUsed { unit } | Order::MarkOpFire { unit, .. } => {
            let (entity, _) = ready_to_use(world, &state, unit)?;
            check_op_fire_facing(world, entity, order)
        }
        Order::Turn { unit, facing } => {
            let (entity, _) = ready_to_use(world, &state, unit)?;
            super::gun::check_turn_by_use(world, entity, *facing)
        }
        Order::Move { .. } => {
            let Some((unit, plan)) = super::movement::MovePlan::of(order) else {
                return Err(Refusal::EmptyPath);
            };
            let (entity, _) = ready_to_use(world, &state, unit)?;
            super::movement::check_move(world, entity, &plan).map(|_| ())
        }
        Order::Fire {
            unit,
            target,
            facing,
        } => {
            let (entity, cost) = ready_to_use(world, &state, unit)?;
            let cost = super::gun::fire_cost(world, entity, cost);
            if cost > 0 {
                state.tally.check(cost).map_err(Refusal::OpsRange)?;
            }
            super::fire::check_fire(world, entity, target, *facing).map(|_| ())
        }
        Order::PlaceSmoke { unit, at } => {
            let (entity, _) = ready_to_use(world, &state, unit)?;
            super::smoke::check_place(world, entity, at).map(|_| ())
        }
        Order::Clear { unit } => {
            let (entity, _) = ready_to_use(world, &state, unit)?;
            super::obstacles::check_clear(world, entity).map(|_| ())
        }
        Order::Pass => check_pass(world, &state),
        Order::RegenerateDecoy { unit, decoy } => {
            let (entity, _) = ready_to_use(world, &state, unit)?;
            super::night::check_regenerate(world, entity, decoy).map(|_| ())
        }
        Order::Illuminate { unit, at } => {
            let (_, cost) = super::night::check_illuminate(world, state.acting, unit, at)?;
            state.tally.check(cost).map_err(Refusal::OpsRange)
        }
        Order::CpReroll { .. }
        | Order::Rout { .. }
        | Order::Melee { .. }
        | Order::Casualties { .. }
        | Order::Place { .. }
        | Order::Hold { .. }
        | Order::BanzaiGd { .. }
        | Order::BanzaiOpFire { .. }
        | Order::BanzaiAnnounce { .. }
        | Order::Face { .. } => Err(Refusal::NothingToAnswer),
    };
    checked?;
    // A Banzai Charge binds the Japanese Squads (R 59.6).
    super::banzai::check_order(world, order)
}

/// The entity of the unit named, if it is in this game.
fn unit_entity(world: &mut World, unit: &str) -> Result<Entity, Refusal> {
    crate::world::queries::with_query::<(Entity, &Unit), (), _>(world, |mut q| {
        q.find(|(_, u)| u.id == unit).map(|(e, _)| e)
    })
    .ok_or_else(|| Refusal::UnknownUnit {
        unit: UnitId::from(unit),
    })
}

/// A side may pass once its minimum is met or nothing more fits (R 4.1).
fn check_pass(world: &mut World, state: &OpsState) -> Result<(), Refusal> {
    if with_open_costs(world, state.acting, |costs| state.tally.may_pass(costs)) {
        Ok(())
    } else {
        Err(Refusal::MustUseMinimum {
            used: state.tally.used,
            min: state.tally.range.min,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::headless_world;
    use crate::scenario::schema::Spine;

    fn training() -> World {
        ground("training")
    }

    /// A scenario by id or path, its world seeded 1.
    fn ground(name: &str) -> World {
        let roster = crate::scenario::builtin_roster().unwrap();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let loaded = crate::world::load(name, &roster, &aid).unwrap();
        headless_world(loaded, roster, aid, 1)
    }

    fn used(unit: &str) -> Order {
        Order::MarkUsed { unit: unit.into() }
    }

    /// R 4.1 with the training card (Ops Range 1–3 both sides, Allies first):
    /// the third Use fills the range and play passes to the Germans.
    #[test]
    fn third_use_fills_the_range_and_play_passes() {
        let mut w = training();
        let start = begin_operations(&mut w);
        assert_eq!(
            start,
            vec![GameEvent::OpsRangeStarted {
                side: SideId::Allies,
                min: 1,
                max: 3
            }]
        );
        assert_eq!(
            apply(&mut w, &used("A1")).unwrap(),
            vec![GameEvent::MarkedUsed {
                unit: "A1".into(),
                side: SideId::Allies,
                used: 1,
                max: 3
            }]
        );
        let op = apply(
            &mut w,
            &Order::MarkOpFire {
                unit: "A2".into(),
                facing: Some(Spine::E),
            },
        )
        .unwrap();
        assert_eq!(
            op[0].line(),
            "A2 marked Op Fire facing E (R 4.3); Ops Range 2/3"
        );
        assert_eq!(
            apply(&mut w, &used("A3")).unwrap(),
            vec![
                GameEvent::MarkedUsed {
                    unit: "A3".into(),
                    side: SideId::Allies,
                    used: 3,
                    max: 3
                },
                GameEvent::Passed {
                    side: SideId::Allies,
                    used: 3,
                    forced: true
                },
                GameEvent::OpsRangeStarted {
                    side: SideId::Axis,
                    min: 1,
                    max: 3
                },
            ]
        );
        assert_eq!(w.resource::<TurnTrack>().active, SideId::Axis);
    }

    /// R 4.1: below the minimum a player may not pass; at it he may.
    #[test]
    fn passing_needs_the_minimum_and_orders_are_checked() {
        let mut w = training();
        begin_operations(&mut w);
        assert_eq!(
            apply(&mut w, &Order::Pass).unwrap_err().to_string(),
            "Ops Range 0/1: at least 1 must be Used before passing (R 4.1)"
        );
        assert_eq!(
            apply(&mut w, &used("G1")).unwrap_err(),
            Refusal::NotYourUnit {
                unit: "G1".into(),
                acting: SideId::Allies
            }
        );
        assert_eq!(
            apply(&mut w, &used("Z9")).unwrap_err(),
            Refusal::UnknownUnit { unit: "Z9".into() }
        );
        apply(&mut w, &used("A1")).unwrap();
        assert_eq!(
            apply(&mut w, &used("A1")).unwrap_err(),
            Refusal::AlreadyUsed { unit: "A1".into() }
        );
        let pass = apply(&mut w, &Order::Pass).unwrap();
        assert_eq!(
            pass.iter().map(GameEvent::line).collect::<Vec<_>>(),
            [
                "Allies pass after 1 (R 4.1)",
                "Axis Ops Range 1\u{2013}3 (R 4.1)"
            ]
        );
    }

    /// R 4.1: once a side has Used every unit, the other continues alone, and
    /// the phase ends when both are done.
    #[test]
    fn a_finished_side_lets_the_other_continue_then_the_phase_ends() {
        let mut w = ground("tests/data/ops_ground.ron");
        begin_operations(&mut w);
        let mut log = Vec::new();
        // Germans: 7 units on the board (the reinforcement is not yet in play).
        // Allies: 10. Alternate one Use each until the Germans are done.
        let allies = ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "AD1", "AD2"];
        let axis = ["G1", "G2", "G3", "G4", "G5", "G6", "GD1"];
        let (mut ai, mut gi) = (0, 0);
        while w.get_resource::<OpsState>().is_some() {
            let acting = w.resource::<OpsState>().acting;
            let order = match acting {
                SideId::Allies => {
                    ai += 1;
                    used(allies[ai - 1])
                }
                SideId::Axis => {
                    gi += 1;
                    used(axis[gi - 1])
                }
            };
            let events = apply(&mut w, &order).unwrap();
            // Pass at once after the minimum when the range is still open.
            log.extend(events.iter().map(GameEvent::line));
            if let Some(s) = w.get_resource::<OpsState>().cloned()
                && s.tally.used >= 1
                && s.tally.used < 3
                && s.acting == acting
            {
                log.extend(
                    apply(&mut w, &Order::Pass)
                        .unwrap()
                        .iter()
                        .map(GameEvent::line),
                );
            }
        }
        assert_eq!((ai, gi), (10, 7));
        assert!(log.contains(&"Axis: every unit Used or marked Op Fire (R 4.1)".to_string()));
        assert_eq!(
            log.last().unwrap(),
            "Operations Phase ends; Rout Phase begins (R 1.0)"
        );
        // After the Germans finished, the Allies used their last three units
        // in one more Ops Range of their own.
        let tail: Vec<&String> = log.iter().rev().take(6).collect();
        assert_eq!(
            tail,
            [
                "Operations Phase ends; Rout Phase begins (R 1.0)",
                "Allies: every unit Used or marked Op Fire (R 4.1)",
                "AD2 marked Used (R 4.2); Ops Range 1/3",
                "Allies Ops Range 1\u{2013}3 (R 4.1)",
                "Allies pass after 1 (R 4.1)",
                "AD1 marked Used (R 4.2); Ops Range 1/3",
            ]
        );
        assert_eq!(w.resource::<TurnTrack>().phase, Phase::Rout);
    }
}
