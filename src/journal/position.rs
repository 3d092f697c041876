//! The board between two events of one order, for `bob replay`: the engine
//! applies an order whole, so the position after its k-th event is built
//! here as a view — the position before the order with the order's first k
//! events applied to it ([`position_at`]). Applying all of an order's
//! events gives exactly the position the engine left after the order
//! (`tests/event_position.rs` proves it for every order of many random and
//! bot games of every scenario), so each intermediate board is the one the
//! log lines describe: the mover in the hex it has just entered, a target
//! Suppressed only after the roll that suppressed it, a casualty removed
//! when it happens.

use std::collections::BTreeMap;

use bevy::prelude::*;

use crate::engine::GameEvent;
use crate::engine::banzai::Banzai;
use crate::engine::combat_events::EventLog;
use crate::engine::pacific::PacificEvent;
use crate::engine::seishin::Seishin;
use crate::engine::smoke::{SmokeCounter, SmokeEvent};
use crate::rules::fire::{FireOutcome, SuppressionLevel, suppression_after};
use crate::rules::fortifications::split_label;
use crate::rules::smoke::{SmokeSide, after_placing, after_recovery};
use crate::scenario::Coord;
use crate::scenario::schema::{FortificationKind, Nationality, Scenario, SideId, Spine};
use crate::world::{
    Concealed, Facing, FortificationCounter, Location, Marks, Phase, Suppression, TurnTrack, Unit,
};

/// One unit as the board shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitView {
    pub kind: String,
    pub side: SideId,
    pub reduced: bool,
    pub company: Option<String>,
    pub at: Coord,
    pub in_cave: bool,
    pub facing: Option<Spine>,
    pub suppression: Option<Suppression>,
    /// Under a Conceal counter; `true` for the Japanese −2 one (R 59.2).
    pub concealed: Option<bool>,
    pub used: bool,
    pub op_fire: bool,
    pub flank: bool,
    pub ambush: bool,
    pub banzai: bool,
    pub seishin: bool,
}

/// A fortification counter as the board shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FortView {
    pub at: Coord,
    pub kind: FortificationKind,
    pub facing: Option<Spine>,
    pub concealed: bool,
}

/// What the board shows: units by id, fortifications, Smoke.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Position {
    pub units: BTreeMap<String, UnitView>,
    /// Sorted by hex, then kind.
    pub forts: Vec<FortView>,
    pub smoke: BTreeMap<Coord, SmokeSide>,
    /// The phase (a new turn starts in `Setup`, where reinforcements enter).
    pub phase: Phase,
    /// The Banzai question (call the charge now?) or, once it is
    /// announced, the GD Squads' or the Allied Op Fire choice is awaited
    /// (R 59.6).
    pub banzai_choice: bool,
}

/// What the events do not carry: the map's size (to read hex labels) and
/// every unit the scenario may bring onto the board (reinforcements, a
/// regenerated Decoy), with the Conceal counter it enters under.
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub columns: u8,
    pub rows: u8,
    /// id -> (type, side, company, enters Concealed, Japanese −2 counter).
    pub units: BTreeMap<String, (String, SideId, Option<String>, bool, bool)>,
}

impl Context {
    pub fn of(sc: &Scenario) -> Context {
        let japanese = |side: SideId| {
            sc.special_rules.japanese_minus_two_conceal
                && sc
                    .sides
                    .iter()
                    .any(|c| c.side == side && c.nationality == Nationality::Japanese)
        };
        let setup = sc
            .setup
            .iter()
            .map(|p| (&p.id, &p.unit, p.side, &p.company, p.concealed));
        let later = sc.reinforcements.iter().flat_map(|r| {
            r.units
                .iter()
                .map(move |u| (&u.id, &u.unit, r.side, &u.company, u.concealed))
        });
        let units = setup
            .chain(later)
            .map(|(id, kind, side, company, concealed)| {
                let entry = (
                    kind.clone(),
                    side,
                    company.clone(),
                    concealed,
                    japanese(side),
                );
                (id.clone(), entry)
            })
            .collect();
        Context {
            columns: sc.map.columns,
            rows: sc.map.rows,
            units,
        }
    }

    /// A unit of the scenario coming onto the board at a location, with no
    /// marker yet; with whether it enters Concealed and under a −2 counter.
    fn entering(&self, id: &str, at: Coord, in_cave: bool) -> Option<(UnitView, bool, bool)> {
        let (kind, side, company, concealed, minus_two) = self.units.get(id)?;
        let u = UnitView {
            kind: kind.clone(),
            side: *side,
            reduced: false,
            company: company.clone(),
            at,
            in_cave,
            facing: None,
            suppression: None,
            concealed: None,
            used: false,
            op_fire: false,
            flank: false,
            ambush: false,
            banzai: false,
            seishin: false,
        };
        Some((u, *concealed, *minus_two))
    }

    /// A location label (`K5`, `K5/cave`).
    fn place(&self, label: &str) -> Option<(Coord, bool)> {
        let (hex, cave) = split_label(label);
        Coord::parse(hex, self.columns, self.rows)
            .ok()
            .map(|c| (c, cave))
    }
}

/// The position the engine's world holds now.
pub fn capture(world: &mut World) -> Position {
    let mut units = BTreeMap::new();
    let mut q = world.query::<(
        &Unit,
        &Location,
        Option<&Facing>,
        Option<&Suppression>,
        Option<&Concealed>,
        Option<&Marks>,
        (Has<Banzai>, Has<Seishin>),
    )>();
    for (u, l, f, s, c, marks, (banzai, seishin)) in q.iter(world) {
        let marks = marks.copied().unwrap_or_default();
        units.insert(
            u.id.to_string(),
            UnitView {
                kind: u.kind.to_string(),
                side: u.side,
                reduced: u.reduced,
                company: u.company.as_ref().map(|c| c.to_string()),
                at: l.coord,
                in_cave: l.in_cave,
                facing: f.map(|f| f.0),
                suppression: s.copied(),
                concealed: c.map(|c| c.minus_two),
                used: marks.used,
                op_fire: marks.op_fire,
                flank: marks.flank,
                ambush: marks.ambush,
                banzai,
                seishin,
            },
        );
    }
    let mut forts: Vec<FortView> = world
        .query::<(&FortificationCounter, &Location)>()
        .iter(world)
        .map(|(f, l)| FortView {
            at: l.coord,
            kind: f.kind,
            facing: f.facing,
            concealed: f.concealed,
        })
        .collect();
    forts.sort_by_key(|f| (f.at, format!("{:?}{:?}", f.kind, f.facing)));
    let smoke = world
        .query::<&SmokeCounter>()
        .iter(world)
        .map(|s| (s.at, s.side))
        .collect();
    let phase = world
        .get_resource::<TurnTrack>()
        .map_or(Phase::Setup, |t| t.phase);
    let banzai_choice = world
        .get_resource::<crate::engine::decision::Pending>()
        .is_some_and(|p| {
            matches!(
                p.0,
                crate::engine::decision::Decision::BanzaiGd { .. }
                    | crate::engine::decision::Decision::BanzaiOpFire { .. }
                    | crate::engine::decision::Decision::BanzaiAnnounce { .. }
            )
        });
    Position {
        units,
        forts,
        smoke,
        phase,
        banzai_choice,
    }
}

/// The position after the first events of an order: `before` (the position
/// before the order) with `events` applied in turn. `after`, the position
/// after the whole order, is read for one thing no event carries: the
/// facing a unit that had none takes as it fires (R 2.2; the engine logs a
/// facing only when it turns a unit or costs it its Conceal counter).
pub fn position_at(
    before: &Position,
    after: &Position,
    events: &[GameEvent],
    ctx: &Context,
) -> Position {
    let mut walk = Walk {
        p: before.clone(),
        announced: false,
    };
    for e in events {
        if let GameEvent::FireRoll { unit, .. } = e
            && let (Some(u), Some(a)) = (
                walk.p.units.get_mut(unit.as_str()),
                after.units.get(unit.as_str()),
            )
            && u.facing.is_none()
        {
            u.facing = a.facing;
        }
        walk.apply(e, ctx);
    }
    walk.p
}

/// The position being built, and what the events so far said that the
/// position does not hold.
struct Walk {
    p: Position,
    /// A Banzai Charge was announced at this turn's start (R 59.6).
    announced: bool,
}

impl Walk {
    fn apply(&mut self, e: &GameEvent, ctx: &Context) {
        let p = &mut self.p;
        match e {
            GameEvent::TurnBegins { .. } => p.phase = Phase::Setup,
            GameEvent::PhaseEnded { next, .. } => p.phase = *next,
            GameEvent::OpsRangeStarted { .. } if p.phase == Phase::Setup => {
                // The turn's first action: last turn's Banzai counters are
                // gone unless a charge was announced this turn (R 59.6).
                if !self.announced && !p.banzai_choice {
                    for u in p.units.values_mut() {
                        u.banzai = false;
                    }
                }
                p.banzai_choice = false;
                p.phase = Phase::Operations;
            }
            // The GD Squads' or the Allied Op Fire choice (R 59.6).
            GameEvent::DecisionAwaited { what, .. } if what.ends_with("(R 59.6)") => {
                p.banzai_choice = true;
            }
            GameEvent::Pacific(PacificEvent::BanzaiAnnounced { .. }) => {
                for u in p.units.values_mut() {
                    u.banzai = false;
                }
                self.announced = true;
            }
            _ => {}
        }
        apply(p, e, ctx);
    }
}

fn level(s: Option<Suppression>) -> SuppressionLevel {
    SuppressionLevel::from(s)
}

fn marker(l: Option<SuppressionLevel>) -> Option<Suppression> {
    match l {
        Some(SuppressionLevel::Suppressed) => Some(Suppression::Suppressed),
        Some(SuppressionLevel::Full) => Some(Suppression::Full),
        _ => None,
    }
}

/// One event's change to the board (the turn's start aside, see [`Walk`]).
fn apply(p: &mut Position, e: &GameEvent, ctx: &Context) {
    let unit = |p: &mut Position, id: &str, f: &mut dyn FnMut(&mut UnitView)| {
        if let Some(u) = p.units.get_mut(id) {
            f(u);
        }
    };
    match e {
        GameEvent::MarkedUsed { unit: id, .. }
        | GameEvent::FireFailed { unit: id }
        | GameEvent::NoLos { unit: id, .. }
        | GameEvent::MoveFailed { unit: id }
        | GameEvent::MoveEnded { unit: id, .. }
        | GameEvent::FireStarted { unit: id, .. } => unit(p, id, &mut |u| u.used = true),
        GameEvent::MarkedOpFire {
            unit: id, facing, ..
        } => unit(p, id, &mut |u| {
            u.op_fire = true;
            if facing.is_some() {
                u.facing = *facing;
            }
        }),
        GameEvent::OpFires {
            unit: id,
            final_op_fire,
            ..
        } => unit(p, id, &mut |u| {
            if !final_op_fire {
                u.op_fire = false;
                u.used = true;
            }
        }),
        GameEvent::FireResult {
            target, outcome, ..
        } => unit(p, target, &mut |u| {
            if *outcome == FireOutcome::Reduced {
                u.reduced = true;
            }
            if *outcome != FireOutcome::Eliminated {
                u.suppression = marker(suppression_after(level(u.suppression), *outcome));
            }
        }),
        GameEvent::Moved { unit: id, to, .. } | GameEvent::BackedUp { unit: id, to, .. } => {
            if let Some((c, cave)) = ctx.place(to) {
                unit(p, id, &mut |u| {
                    u.at = c;
                    u.in_cave = cave;
                });
            }
        }
        GameEvent::Routs { unit: id, path, .. } => {
            if let Some((c, cave)) = path.last().and_then(|l| ctx.place(l)) {
                unit(p, id, &mut |u| {
                    u.at = c;
                    u.in_cave = cave;
                });
            }
        }
        GameEvent::FacingTaken {
            unit: id, facing, ..
        }
        | GameEvent::FacesAtEnd { unit: id, facing } => {
            unit(p, id, &mut |u| u.facing = Some(*facing))
        }
        GameEvent::ConcealmentLost { unit: id, .. } => unit(p, id, &mut |u| u.concealed = None),
        GameEvent::ConcealmentRegained { unit: id, .. } => {
            unit(p, id, &mut |u| u.concealed = Some(false))
        }
        GameEvent::ConcealmentWeakened { unit: id } => {
            unit(p, id, &mut |u| u.concealed = Some(false))
        }
        GameEvent::DecoyRemoved { unit: id } => {
            p.units.remove(id.as_str());
        }
        GameEvent::FlankCounter { unit: id, .. } => unit(p, id, &mut |u| u.flank = true),
        GameEvent::RoutCasualty {
            unit: id,
            eliminated: false,
            ..
        }
        | GameEvent::SsDesperation { unit: id } => unit(p, id, &mut |u| {
            u.reduced = true;
            u.suppression = Some(Suppression::Full);
        }),
        GameEvent::MeleeCasualty {
            unit: id,
            eliminated: false,
        } => unit(p, id, &mut |u| u.reduced = true),
        GameEvent::Recovered { unit: id, .. } => unit(p, id, &mut |u| {
            u.suppression = match u.suppression {
                Some(Suppression::Full) => Some(Suppression::Suppressed),
                _ => None,
            }
        }),
        GameEvent::MarkersRemoved => {
            for u in p.units.values_mut() {
                u.used = false;
                u.op_fire = false;
                u.flank = false;
                u.ambush = false;
                u.seishin = false;
            }
        }
        GameEvent::Reinforces { unit: id, at } => {
            if let Some((c, cave)) = ctx.place(at)
                && let Some((mut u, concealed, minus_two)) = ctx.entering(id, c, cave)
            {
                u.concealed = concealed.then_some(minus_two);
                p.units.insert(id.to_string(), u);
            }
        }
        GameEvent::ClearingStarted { unit: id, .. } => unit(p, id, &mut |u| u.used = true),
        GameEvent::ObstacleRemoved { what, at, .. } => {
            if let Some((c, _)) = ctx.place(at)
                && let Some(i) = p
                    .forts
                    .iter()
                    .position(|f| f.at == c && f.kind.name() == *what)
            {
                p.forts.remove(i);
            }
        }
        GameEvent::Pacific(e) => pacific(p, e, ctx),
        GameEvent::Smoke(e) => smoke(p, e, ctx),
        GameEvent::CombatEvent(e) => combat_event(p, e, ctx),
        _ => {}
    }
    if let Some(id) = e.eliminated_unit() {
        p.units.remove(id);
    }
}

fn pacific(p: &mut Position, e: &PacificEvent, ctx: &Context) {
    match e {
        PacificEvent::AmbushCounter { unit, .. } => {
            if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.concealed = None;
                u.ambush = true;
            }
        }
        PacificEvent::FortificationRevealed { at, .. } => {
            if let Some((c, _)) = ctx.place(at) {
                for f in p.forts.iter_mut().filter(|f| f.at == c) {
                    f.concealed = false;
                }
            }
        }
        PacificEvent::FlashAnswered { by: Some(unit), .. } => {
            if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.used = true;
            }
        }
        PacificEvent::BanzaiGdSquads { charging } => {
            // Answered; the Allied choice, if any, is asked next.
            p.banzai_choice = false;
            for id in charging {
                if let Some(u) = p.units.get_mut(id.as_str()) {
                    u.banzai = true;
                }
            }
        }
        PacificEvent::BanzaiOpFireMarked { units, .. } => {
            p.banzai_choice = false;
            for id in units {
                if let Some(u) = p.units.get_mut(id.as_str()) {
                    u.op_fire = true;
                }
            }
        }
        PacificEvent::SeishinDeclared { unit } => {
            if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.seishin = true;
            }
        }
        // The question whether to call the charge now is answered: wait.
        PacificEvent::BanzaiWaits { .. } => p.banzai_choice = false,
        PacificEvent::BanzaiAnnounced {
            rallied, charging, ..
        } => {
            // Its GD or Op Fire choice, if any, is asked next.
            p.banzai_choice = false;
            for id in rallied {
                if let Some(u) = p.units.get_mut(id.as_str()) {
                    u.suppression = None;
                }
            }
            for id in charging {
                if let Some(u) = p.units.get_mut(id.as_str()) {
                    u.banzai = true;
                }
            }
        }
        PacificEvent::WireCleared {
            unit,
            at,
            eliminated,
        } => {
            if let Some((c, _)) = ctx.place(at) {
                p.forts
                    .retain(|f| !(f.at == c && f.kind == FortificationKind::Wire));
            }
            if *eliminated {
                p.units.remove(unit.as_str());
            } else if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.reduced = true;
                u.suppression = Some(Suppression::Full);
            }
        }
        PacificEvent::DecoyRegenerated {
            unit, decoy, at, ..
        } => {
            // The Decoy comes back facing as the unit that brings it back.
            let facing = p.units.get_mut(unit.as_str()).and_then(|u| {
                u.used = true;
                u.facing
            });
            if let Some((c, cave)) = ctx.place(at)
                && let Some((mut u, _, minus_two)) = ctx.entering(decoy, c, cave)
            {
                u.concealed = Some(minus_two);
                u.used = true;
                if facing.is_some() {
                    u.facing = facing;
                }
                p.units.insert(decoy.clone(), u);
            }
        }
        _ => {}
    }
}

fn smoke(p: &mut Position, e: &SmokeEvent, ctx: &Context) {
    match e {
        SmokeEvent::Placed {
            at, placed, before, ..
        } => {
            if let Some((c, _)) = ctx.place(at) {
                p.smoke.insert(c, after_placing(*before, *placed));
            }
        }
        SmokeEvent::Recovered { .. } => {
            p.smoke = p
                .smoke
                .iter()
                .filter_map(|(c, s)| after_recovery(*s).map(|s| (*c, s)))
                .collect();
        }
        SmokeEvent::Started { .. } => {}
    }
}

fn combat_event(p: &mut Position, e: &EventLog, ctx: &Context) {
    match e {
        EventLog::Reduced {
            unit, eliminated, ..
        } => {
            if *eliminated {
                p.units.remove(unit.as_str());
            } else if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.reduced = true;
                u.suppression = Some(Suppression::Full);
            }
        }
        EventLog::Restored { unit } => {
            if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.reduced = false;
            }
        }
        EventLog::Returned { unit, with, .. } => {
            if let Some(host) = p.units.get(with).cloned()
                && let Some((mut u, _, _)) = ctx.entering(unit, host.at, host.in_cave)
            {
                u.reduced = true;
                u.used = true;
                u.facing = host.facing;
                p.units.insert(unit.to_string(), u);
            }
        }
        EventLog::Removed { unit, .. } => {
            p.units.remove(unit.as_str());
        }
        EventLog::Concealed { unit } => {
            if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.concealed = Some(false);
            }
        }
        EventLog::MarkedUsed { unit } => {
            if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.op_fire = false;
                u.used = true;
            }
        }
        EventLog::Readied { unit, .. } => {
            if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.op_fire = false;
                u.used = false;
            }
        }
        EventLog::Banzai { unit } | EventLog::BanzaiCharges { unit } => {
            if let Some(u) = p.units.get_mut(unit.as_str()) {
                u.banzai = true;
            }
        }
        EventLog::FortificationRevealed { at } => {
            if let Some((c, _)) = ctx.place(at) {
                for f in p.forts.iter_mut().filter(|f| f.at == c) {
                    f.concealed = false;
                }
            }
        }
        _ => {}
    }
}
