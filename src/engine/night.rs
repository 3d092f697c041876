//! Night in the engine — R 50.0 (Visibility Range), R 50.1 (Illumination
//! counters), R 50.2 (fire only at seen targets, Muzzle Flashes and the
//! chain of responses), R 43.6 (Wire: stopping on entering and leaving,
//! Trip Flares, a Banzai Squad clearing Wire). The questions are
//! `rules::night`; this room reads the world and keeps the night's
//! counters.
//!
//! A Muzzle Flash response is offered through an Op Fire window (the same
//! decision, answered with `op_fire`) whose eligible units are all "lit
//! only" (at most one fires, R 50.2), with [`FlashResponse`] marking it.
//! A Trip Flare adds "lit only" units to the ordinary Op Fire window of the
//! mover entering the Wire (at most one of them fires, R 43.6).

use crate::world::UnitId;
use std::collections::VecDeque;

use bevy::prelude::*;

use crate::rules::Hexes;
use crate::rules::fire::{Conditions, FireContext, FireKind, Firer, infantry_fp};
use crate::rules::los::is_blocked;
use crate::rules::night::{NightScene, check_illumination, night_minimum_mp};
use crate::rules::{Mp, night};
use crate::scenario::Coord;
use crate::scenario::schema::{FortificationKind, SideId};
use crate::world::{
    ActiveScenario, AidRes, BoardRes, FortificationCounter, Location, Marks, RosterRes, Unit, mark,
    marks,
};

use super::events::GameEvent;
use super::op_fire::OpFireWindow;
use super::orders::Refusal;
use super::pacific::PacificEvent;

/// Illumination counters on the board this turn (R 50.1).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Illumination(pub Vec<Coord>);

/// Wire hexes whose Trip Flare has gone up: once a scenario (R 43.6).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct TrippedWire(pub Vec<Coord>);

/// A unit that fired Unilluminated at Night this turn: its Muzzle Flash
/// gave it away (R 50.2). The board marks it; removed in Recovery.
#[derive(Component, Debug, Clone, Copy)]
pub struct MuzzleFlashed;

/// The Op Fire window open now is the response to a Muzzle Flash
/// (R 50.2): not Op Fire, Normal FP, one unit at most.
#[derive(Resource, Debug, Clone, Copy)]
pub struct FlashResponse;

/// A Trip Flare lights the hex just entered for the window about to open
/// (R 43.6).
#[derive(Resource, Debug, Clone, Copy)]
pub(crate) struct TripFlare(Coord);

/// What the Operations Phase does once the Muzzle Flash chain is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Resume {
    /// Nothing waits (a Fire order).
    #[default]
    Nothing,
    /// The move under way goes on (R 9.0).
    Continue,
    /// The move under way ends (a failed MC after Op Fire, R 9.0).
    Stop,
}

/// Units whose Muzzle Flash still waits for its response (R 50.2), the
/// latest first: the chain goes on from the unit that fired last.
#[derive(Resource, Debug, Clone, Default)]
pub struct FlashQueue {
    flashers: VecDeque<Entity>,
    resume: Resume,
}

/// The scenario's Visibility Range, if it is a Night scenario (R 50.0).
pub fn visibility_range(world: &World) -> Option<u8> {
    world
        .resource::<ActiveScenario>()
        .scenario
        .special_rules
        .night
        .map(|n| n.visibility_range)
}

/// Night or Day for the fire arithmetic (R 50.2).
pub fn conditions(world: &World) -> Option<Conditions> {
    visibility_range(world).map(|_| Conditions::Night)
}

/// The night scene of the position: Illumination counters on the board;
/// `None` by day.
pub fn scene(world: &World) -> Option<NightScene> {
    scene_of(
        &world.resource::<ActiveScenario>().scenario,
        &world.resource::<AidRes>().0,
        world.get_resource::<Illumination>(),
        world.get_resource::<TripFlare>(),
    )
}

/// [`scene`] from the resources it reads, for a system that holds them.
pub(crate) fn scene_of(
    scenario: &crate::scenario::schema::Scenario,
    aid: &crate::scenario::player_aid::PlayerAid,
    illumination: Option<&Illumination>,
    flare: Option<&TripFlare>,
) -> Option<NightScene> {
    let vr = scenario.special_rules.night.map(|n| n.visibility_range)?;
    let mut s = NightScene::new(&aid.night, vr);
    if let Some(i) = illumination {
        s.illumination = i.0.clone();
    }
    if let Some(f) = flare {
        s.flashing.push(f.0);
    }
    Some(s)
}

/// Whether a unit in `from` sees `to` at Night (always by day): within its
/// Visibility Range or Illuminated (R 50.0, R 50.2). An unseen unit is out
/// of LOS for fire, Concealment, spotting and Rout.
pub fn sees(world: &World, from: Coord, to: Coord) -> bool {
    scene(world).is_none_or(|s| s.sees(from, to))
}

/// R 50.2: at Night `firer` may fire at `to` only within its Visibility
/// Range or at an Illuminated target, or when the open window's Trip Flare
/// or Muzzle Flash lights `to` for it.
pub fn check_sight(world: &World, firer: Entity, to: Coord) -> Result<(), Refusal> {
    let Some(s) = scene(world) else {
        return Ok(());
    };
    let (Some(u), Some(l)) = (world.get::<Unit>(firer), world.get::<Location>(firer)) else {
        return Ok(());
    };
    if let Some(w) = world.get_resource::<OpFireWindow>()
        && w.at == to
        && w.lit_only.contains(&u.id)
    {
        return Ok(());
    }
    // A Trip Flare lights its hex for Unused units only (R 43.6).
    let mut s = s;
    if marks(world, firer).used {
        s.flashing.clear();
    }
    s.may_fire(l.coord, to).map_err(|r| Refusal::Fire {
        reason: r.to_string(),
    })
}

/// The units of `eligible` (ids) that may fire at `at` only by the light
/// of a Trip Flare (R 43.6): at most one of them fires.
pub fn lit_only(world: &mut World, eligible: &[UnitId], at: Coord) -> Vec<UnitId> {
    let Some(mut s) = scene(world) else {
        return Vec::new();
    };
    if s.flashing.is_empty() {
        return Vec::new();
    }
    s.flashing.clear();
    let mut q = world.query::<(&Unit, &Location)>();
    q.iter(world)
        .filter(|(u, l)| eligible.contains(&u.id) && !s.sees(l.coord, at))
        .map(|(u, _)| u.id.clone())
        .collect()
}

/// The night minimum of a unit's hexes (R 50.2; none for Japanese
/// Infantry, R 59.0), for `MoveRules`.
pub fn mp_minimum(world: &World, unit: Entity) -> Option<Mp> {
    visibility_range(world)?;
    let aid = world.resource::<AidRes>().0.clone();
    let u = world.get::<Unit>(unit)?;
    let t = world.resource::<RosterRes>().0.get(&u.kind)?.clone();
    night_minimum_mp(&aid, t.nationality)
}

/// Whether a Wire counter is in `at` (R 43.6).
pub fn wire_in(world: &mut World, at: Coord) -> bool {
    crate::world::queries::with_query::<(&FortificationCounter, &Location), (), _>(
        world,
        |mut q| q.any(|(f, l)| f.kind == FortificationKind::Wire && l.coord == at && !l.in_cave),
    )
}

/// R 43.6: an Infantry unit stops when it enters a Wire hex and moves one
/// hex only when it leaves one. Checked before the move.
pub fn check_wire(
    world: &mut World,
    start: Coord,
    path: &[Coord],
    labels: &[String],
) -> Result<(), Refusal> {
    let start_in = wire_in(world, start);
    let wired: Vec<bool> = path.iter().map(|c| wire_in(world, *c)).collect();
    let Some(n) = night::wire_stop(start_in, path.len(), |i| wired[i]) else {
        return Ok(());
    };
    let reason = if start_in && n == 1 {
        format!(
            "a unit leaving Wire in {} moves one hex only (R 43.6)",
            start.label()
        )
    } else {
        format!(
            "the move stops on entering Wire in {} (R 43.6)",
            path[n - 1].label()
        )
    };
    Err(Refusal::Step {
        n: n + 1,
        to: labels.get(n).cloned().unwrap_or_default(),
        reason,
    })
}

/// R 43.6: the first time at Night a Wire hex is entered, a Trip Flare
/// goes up there: ONE Unused unit not in the mover's Visibility Range may
/// Op Fire at it, besides those who see it anyway. Call before the Op Fire
/// window of the hex; [`flare_out`] after.
pub fn trip_flare(world: &mut World, mover: Entity, at: Coord, events: &mut Vec<GameEvent>) {
    // No Trip Flares in the Monsoon rain (R 55.2).
    if visibility_range(world).is_none() || super::monsoon::raining(world) || !wire_in(world, at) {
        return;
    }
    let mut tripped = world
        .get_resource::<TrippedWire>()
        .cloned()
        .unwrap_or_default();
    if tripped.0.contains(&at) {
        return;
    }
    tripped.0.push(at);
    world.insert_resource(tripped);
    world.insert_resource(TripFlare(at));
    let unit = world
        .get::<Unit>(mover)
        .map(|u| u.id.clone())
        .unwrap_or_default();
    events.push(GameEvent::Pacific(PacificEvent::TripFlare {
        unit,
        at: at.label(),
    }));
}

/// The Trip Flare's light is carried by the window it opened (its "lit
/// only" units); it lights nothing more.
pub fn flare_out(world: &mut World) {
    world.remove_resource::<TripFlare>();
}

/// An `illuminate` order before anything happens (R 50.1): a Night
/// scenario, a counter left to the side, a hex of the map within range of
/// the side's unit `near`, which is not in Melee (Used or not, R 4.2).
/// Gives the hex and what it counts in the Ops Range.
pub fn check_illuminate(
    world: &mut World,
    side: SideId,
    near: &str,
    at: &str,
) -> Result<(Coord, u8), Refusal> {
    let refuse = |r: night::NightRefusal| Refusal::Night {
        reason: r.to_string(),
    };
    let Some(spec) = world
        .resource::<ActiveScenario>()
        .scenario
        .special_rules
        .night
    else {
        return Err(refuse(night::NightRefusal::NotNight));
    };
    super::monsoon::check_not_raining(world, "Illumination")
        .map_err(|reason| Refusal::Night { reason })?;
    let placed = world
        .get_resource::<IlluminationSpent>()
        .map_or(0, |s| s.0[side.index()]);
    if placed >= spec.illumination[side.index()] {
        return Err(refuse(night::NightRefusal::NoIlluminationLeft {
            had: spec.illumination[side.index()],
        }));
    }
    let board = world.resource::<BoardRes>().0.clone();
    let to = Coord::parse(at, board.columns, board.rows).map_err(|_| Refusal::BadHex {
        label: at.to_string(),
    })?;
    let mut q = world.query::<(&Unit, &Location)>();
    let all: Vec<(Unit, Location)> = q.iter(world).map(|(u, l)| (u.clone(), *l)).collect();
    let Some((u, l)) = all.iter().find(|(u, _)| u.id == near) else {
        return Err(Refusal::UnknownUnit {
            unit: UnitId::from(near),
        });
    };
    if u.side != side {
        return Err(Refusal::NotYourUnit {
            unit: UnitId::from(near),
            acting: side,
        });
    }
    let in_melee = all
        .iter()
        .any(|(o, ol)| o.side != side && ol.coord == l.coord && ol.in_cave == l.in_cave);
    let aid = world.resource::<AidRes>().0.clone();
    check_illumination(&aid.night, l.coord, to, in_melee).map_err(refuse)?;
    Ok((to, aid.night.illumination_ops_cost))
}

/// Illumination counters each side has placed so far, Allies then Axis:
/// one-time counters (R 50.1).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IlluminationSpent(pub [u8; 2]);

/// Places a checked Illumination counter (R 50.1).
pub fn illuminate(
    world: &mut World,
    side: SideId,
    near: &str,
    at: Coord,
    tally: crate::rules::ops_range::OpsTally,
    events: &mut Vec<GameEvent>,
) {
    world
        .get_resource_or_insert_with(IlluminationSpent::default)
        .0[side.index()] += 1;
    world
        .get_resource_or_insert_with(Illumination::default)
        .0
        .push(at);
    events.push(GameEvent::Pacific(PacificEvent::Illumination {
        unit: UnitId::from(near),
        at: at.label(),
        used: tally.used,
        max: tally.range.max,
    }));
}

/// Recovery Phase: Illumination counters come off (R 50.1, R 14.0 of the
/// Recovery list), and the Muzzle Flash marks with them.
pub fn recovery(world: &mut World, events: &mut Vec<GameEvent>) {
    if let Some(i) = world.remove_resource::<Illumination>()
        && !i.0.is_empty()
    {
        events.push(GameEvent::Pacific(PacificEvent::IlluminationRemoved {
            count: i.0.len(),
        }));
    }
    let flashed: Vec<Entity> =
        crate::world::queries::collect::<Entity, With<MuzzleFlashed>, _>(world, |e| e);
    for e in flashed {
        world.entity_mut(e).remove::<MuzzleFlashed>();
    }
}

/// A unit that just fired at Night: Unilluminated, its Muzzle Flash may be
/// answered (R 50.2); queued, the latest first.
pub fn fired(world: &mut World, firer: Entity) {
    let Some(s) = scene(world) else {
        return;
    };
    // No Muzzle Flash in the Monsoon rain (R 55.2).
    if super::monsoon::raining(world) {
        return;
    }
    let Some(at) = world.get::<Location>(firer).map(|l| l.coord) else {
        return;
    };
    if s.illuminated(at) {
        return;
    }
    world.entity_mut(firer).insert(MuzzleFlashed);
    world
        .get_resource_or_insert_with(FlashQueue::default)
        .flashers
        .push_front(firer);
}

/// After an Op Fire window's attacks: the Muzzle Flash responses come
/// first, then the move `resume`s. Returns whether a response window is
/// open (the move then waits for the chain).
pub fn after_op_fire(world: &mut World, resume: Resume, events: &mut Vec<GameEvent>) -> bool {
    if let Some(mut q) = world.get_resource_mut::<FlashQueue>() {
        q.resume = resume;
    }
    open_flashes(world, events)
}

/// Opens the response window of the next queued Muzzle Flash that any
/// enemy unit may answer (R 50.2). Returns whether one is open.
pub fn open_flashes(world: &mut World, events: &mut Vec<GameEvent>) -> bool {
    if world.contains_resource::<OpFireWindow>() {
        return true;
    }
    // A Combat Event's choice comes first (R 17.0); the chain opens after
    // it is answered (a "Fugg Babe Ruth" fire flashes too).
    if world.contains_resource::<super::combat_events::CombatEventDecision>() {
        return false;
    }
    loop {
        let Some(flasher) = world
            .get_resource_mut::<FlashQueue>()
            .and_then(|mut q| q.flashers.pop_front())
        else {
            return false;
        };
        let (Some(u), Some(l)) = (
            world.get::<Unit>(flasher).cloned(),
            world.get::<Location>(flasher).copied(),
        ) else {
            continue;
        };
        let eligible = responders(world, flasher, u.side, l.coord);
        if eligible.is_empty() {
            continue;
        }
        let side = u.side.other();
        events.push(GameEvent::Pacific(PacificEvent::MuzzleFlash {
            unit: u.id.clone(),
            at: l.coord.label(),
            side,
            eligible: eligible.clone(),
        }));
        world.insert_resource(FlashResponse);
        world.insert_resource(OpFireWindow {
            side,
            mover: flasher,
            mover_id: u.id,
            at: l.coord,
            eligible: eligible.clone(),
            lit_only: eligible,
        });
        return true;
    }
}

/// The units that may answer the Muzzle Flash of `flasher` in `at`
/// (R 50.2): Unused (not Used, not marked Op Fire) enemy units not within
/// its Visibility Range, that could fire at it (R 6.1, LOS, Normal Range).
fn responders(world: &mut World, flasher: Entity, side: SideId, at: Coord) -> Vec<UnitId> {
    let Some(vr) = visibility_range(world) else {
        return Vec::new();
    };
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let mut q = world.query::<(Entity, &Unit, &Location, &Marks)>();
    let all: Vec<(Entity, Unit, Location, bool, bool)> = q
        .iter(world)
        .map(|(e, u, l, m)| (e, u.clone(), *l, m.used, m.op_fire))
        .collect();
    // A unit on the move is being Used (R 4.2).
    let moving = world
        .get_resource::<super::movement::MoveInProgress>()
        .map(|m| m.mover);
    let mut out = Vec::new();
    for (e, u, l, used, op) in &all {
        if u.side == side || *used || *op || l.in_cave || e == &flasher || Some(*e) == moving {
            continue;
        }
        let range = l.coord.distance(at);
        if range <= u32::from(vr) {
            continue;
        }
        // No fire from a location with an enemy, nor into one with a
        // friendly unit (R 6.1).
        if all.iter().any(|(_, o, ol, _, _)| {
            (o.side == side && ol.coord == l.coord)
                || (o.side == u.side && ol.coord == at && !ol.in_cave)
        }) {
            continue;
        }
        let Some(t) = roster.get(&u.kind) else {
            continue;
        };
        let mut ctx = FireContext::new(
            FireKind::Normal,
            Firer::of(t, u.reduced),
            Hexes(range),
            "open",
        );
        ctx.conditions = Conditions::Night;
        if infantry_fp(&aid, &ctx).is_err() {
            continue;
        }
        let query = super::fortifications::los_query(world, *e, at, false);
        if is_blocked(&board, &aid, &query) {
            continue;
        }
        if super::fire::check_facing(world, *e, at, None, true).is_err() {
            continue;
        }
        out.push(u.id.clone());
    }
    out.sort();
    out
}

/// The attack `firer` would make in the open window `window`: its kind and
/// the mover it is made against. A Muzzle Flash answer is Normal FP against
/// a unit that is not moving (R 50.2); otherwise Op Fire, or Final Op Fire
/// for a Used unit (R 9.0, R 10.0). The engine fires and the Op Fire
/// dialog previews with this one answer.
pub fn window_attack(
    world: &World,
    window: &OpFireWindow,
    firer: Entity,
) -> (FireKind, Option<Entity>) {
    if world.contains_resource::<FlashResponse>() {
        (FireKind::Normal, None)
    } else {
        let used = marks(world, firer).used;
        (super::op_fire::kind_for(used), Some(window.mover))
    }
}

/// The answer to a Muzzle Flash window (R 50.2): ONE unit fires at the
/// flashing unit's location with its Normal FP (not Op Fire); if it fails
/// its MC no other may. Its own Muzzle Flash may be answered in turn; when
/// the chain ends the Operations Range goes on.
pub fn answer_flash(
    world: &mut World,
    window: &OpFireWindow,
    firers: &[String],
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    if firers.len() > 1 {
        return Err(Refusal::NotEligible {
            unit: UnitId::from(&firers[1]),
            at: window.at.label(),
        });
    }
    let responder = match firers.first() {
        Some(id) => {
            let mut q = world.query::<(Entity, &Unit)>();
            let e = q
                .iter(world)
                .find(|(_, u)| &u.id == id)
                .map(|(e, u)| (e, u.id.clone()));
            let Some((e, id)) = e else {
                return Err(Refusal::NotEligible {
                    unit: UnitId::from(id),
                    at: window.at.label(),
                });
            };
            Some((e, id))
        }
        None => None,
    };
    let facing = match responder {
        Some((e, _)) => super::fire::check_facing(world, e, window.at, None, true)?,
        None => None,
    };
    let attack = responder
        .as_ref()
        .map(|(e, _)| window_attack(world, window, *e));
    world.remove_resource::<OpFireWindow>();
    world.remove_resource::<FlashResponse>();
    events.push(GameEvent::Pacific(PacificEvent::FlashAnswered {
        side: window.side,
        flasher: window.mover_id.clone(),
        by: responder.as_ref().map(|r| r.1.clone()),
    }));
    if let (Some((e, id)), Some(attack)) = (responder, attack) {
        respond(world, e, &id, window.at, attack, facing, events);
    }
    if !open_flashes(world, events) {
        let resume = world
            .remove_resource::<FlashQueue>()
            .map(|q| q.resume)
            .unwrap_or_default();
        resume_move(world, resume, events);
    }
    Ok(())
}

/// The responding unit fires (R 50.2): Used, its MC to fire (R 6.0), then
/// one roll against every unit in the location with Normal FP.
fn respond(
    world: &mut World,
    e: Entity,
    id: &str,
    at: Coord,
    (kind, mover): (FireKind, Option<Entity>),
    facing: Option<crate::rules::facing::FireFacing>,
    events: &mut Vec<GameEvent>,
) {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    mark(world, e, |m| m.used = true);
    if !super::checks::morale_check_to_act(world, e, "R 6.0", events) {
        events.push(GameEvent::FireFailed {
            unit: UnitId::from(id),
        });
        return;
    }
    super::fire::take_facing(world, e, facing, events);
    super::concealment::lose_concealment(world, e, "it fired", events);
    let query = super::fortifications::los_query(world, e, at, false);
    let Some(sight) = super::fire::sight_of(&board, &aid, id, &query, events) else {
        return;
    };
    super::fire::attack_location(world, e, at, kind, &sight, mover, events);
    crate::world::mark_attack(world, e, |a| a.turned = false);
    super::combat_events::after_attack(world, events);
    if world.get_entity(e).is_ok() {
        fired(world, e);
    }
}

/// Once the Muzzle Flash chain is over, the move it interrupted goes on or
/// ends (R 9.0, R 50.2).
pub fn resume_move(world: &mut World, resume: Resume, events: &mut Vec<GameEvent>) {
    let Some(mv) = world.get_resource::<super::movement::MoveInProgress>() else {
        return;
    };
    if world.get_entity(mv.mover).is_err() {
        world.remove_resource::<super::movement::MoveInProgress>();
        return;
    }
    match resume {
        Resume::Stop => super::movement::stop_move(world, events),
        Resume::Continue | Resume::Nothing => super::movement::continue_move(world, events),
    }
}

/// R 43.6: a Japanese Squad in a Banzai Charge that enters a Wire hex and
/// survives all fire clears it: it is Reduced (R 8.0) and its move ends
/// there (the Wire already stopped it). Called as its move ends.
pub fn banzai_clears_wire(world: &mut World, mover: Entity, events: &mut Vec<GameEvent>) {
    if !super::banzai::charging(world, mover) {
        return;
    }
    let Some(l) = world.get::<Location>(mover).copied() else {
        return;
    };
    if l.in_cave {
        return;
    }
    let mut q = world.query::<(Entity, &FortificationCounter, &Location)>();
    let wire: Vec<Entity> = q
        .iter(world)
        .filter(|(_, f, fl)| f.kind == FortificationKind::Wire && fl.coord == l.coord)
        .map(|(e, _, _)| e)
        .collect();
    if wire.is_empty() {
        return;
    }
    for w in wire {
        world.entity_mut(w).despawn();
    }
    let Some(u) = world.get::<Unit>(mover).cloned() else {
        return;
    };
    events.push(GameEvent::Pacific(PacificEvent::WireCleared {
        unit: u.id.clone(),
        at: l.coord.label(),
        eliminated: u.reduced,
    }));
    if u.reduced {
        world.entity_mut(mover).despawn();
        events.push(GameEvent::Eliminated { unit: u.id });
        return;
    }
    if let Some(mut unit) = world.get_mut::<Unit>(mover) {
        unit.reduced = true;
    }
    world
        .entity_mut(mover)
        .insert(crate::world::Suppression::Full);
}

/// A `regenerate_decoy` order before anything happens (R 50.3): a Night
/// scenario; `unit` is Concealed (Unused is checked as for any Use);
/// `decoy` is a Decoy of its side that was in play and has been removed;
/// the hex has room for it (R 2.0). Gives the Decoy's unit type.
pub fn check_regenerate(world: &mut World, unit: Entity, decoy: &str) -> Result<String, Refusal> {
    let refuse = |reason: String| Refusal::Night { reason };
    if visibility_range(world).is_none() {
        return Err(refuse(night::NightRefusal::NotNight.to_string()));
    }
    let (Some(u), Some(l)) = (
        world.get::<Unit>(unit).cloned(),
        world.get::<Location>(unit).copied(),
    ) else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    if world.get::<crate::world::Concealed>(unit).is_none() {
        return Err(refuse(format!(
            "{} is not Concealed: only a Concealed unit regenerates a Decoy (R 50.3)",
            u.id
        )));
    }
    let Some((_, kind)) = decoys_in_play_once(world, u.side)
        .into_iter()
        .find(|(id, _)| id == decoy)
    else {
        return Err(refuse(format!(
            "{decoy} is not a Decoy of the side that has been in play (R 50.3)"
        )));
    };
    let mut q = world.query::<(&Unit, &Location)>();
    let all: Vec<(Unit, Location)> = q.iter(world).map(|(u, l)| (u.clone(), *l)).collect();
    if all.iter().any(|(o, _)| o.id == decoy) {
        return Err(refuse(format!(
            "{decoy} is still on the board: only a removed Decoy is regenerated (R 50.3)"
        )));
    }
    let limit = usize::from(world.resource::<AidRes>().0.constants.stacking_per_side);
    let own = all
        .iter()
        .filter(|(o, ol)| o.side == u.side && *ol == l)
        .count();
    if own + 1 > limit {
        return Err(Refusal::OverStacked {
            at: l.coord.label(),
            limit: limit as u8,
        });
    }
    Ok(kind)
}

/// The Decoys of `side` that have been in play (set up, or entered as
/// reinforcements), with their unit types, in scenario order.
fn decoys_in_play_once(world: &World, side: SideId) -> Vec<(String, String)> {
    let sc = &world.resource::<ActiveScenario>().scenario;
    let roster = &world.resource::<RosterRes>().0;
    let entered = world.get_resource::<crate::engine::phases::end::Entered>();
    let is_decoy = |kind: &str| {
        roster
            .get(kind)
            .is_some_and(|t| t.class == crate::scenario::roster::UnitClass::Decoy)
    };
    sc.setup
        .iter()
        .map(|p| (p.id.clone(), p.unit.clone(), p.side))
        .chain(sc.reinforcements.iter().flat_map(|r| {
            r.units
                .iter()
                .filter(|x| entered.is_some_and(|e| e.0.contains(&x.id)))
                .map(move |x| (x.id.clone(), x.unit.clone(), r.side))
        }))
        .filter(|(_, kind, s)| *s == side && is_decoy(kind))
        .map(|(id, kind, _)| (id, kind))
        .collect()
}

/// The Decoys of `side` a Concealed unit may bring back at Night (R 50.3):
/// in play once and removed since.
pub fn removed_decoys(world: &mut World, side: SideId) -> Vec<String> {
    let mut q = world.query::<&Unit>();
    let on_board: Vec<UnitId> = q.iter(world).map(|u| u.id.clone()).collect();
    decoys_in_play_once(world, side)
        .into_iter()
        .map(|(id, _)| id)
        .filter(|id| !on_board.iter().any(|o| o == id))
        .collect()
}

/// Plays a checked regeneration (R 50.3): the unit is Used, the Decoy
/// placed in its hex, Concealed and Used, with the unit's facing.
pub fn regenerate(
    world: &mut World,
    unit: Entity,
    decoy: &str,
    kind: String,
    tally: crate::rules::ops_range::OpsTally,
    events: &mut Vec<GameEvent>,
) {
    let (Some(u), Some(l)) = (
        world.get::<Unit>(unit).cloned(),
        world.get::<Location>(unit).copied(),
    ) else {
        return;
    };
    mark(world, unit, |m| m.used = true);
    let facing = world.get::<crate::world::Facing>(unit).copied();
    let mut q = world.query::<(&Location, &crate::world::StackOrder)>();
    let top = q
        .iter(world)
        .filter(|(ol, _)| **ol == l)
        .map(|(_, s)| s.0 + 1)
        .max()
        .unwrap_or(0);
    let mut e = world.spawn((
        Unit {
            id: UnitId::from(decoy),
            kind: kind.into(),
            side: u.side,
            reduced: false,
            company: None,
        },
        l,
        crate::world::StackOrder(top),
        crate::world::Concealed { minus_two: false },
        Marks {
            used: true,
            ..Marks::default()
        },
    ));
    if let Some(f) = facing {
        e.insert(f);
    }
    events.push(GameEvent::Pacific(PacificEvent::DecoyRegenerated {
        unit: u.id,
        decoy: decoy.to_string(),
        at: l.coord.label(),
        used: tally.used,
        max: tally.range.max,
    }));
}
