//! The Japanese Banzai Charge by SSR — R 59.6: on a turn the scenario
//! names, before any action, the charge is announced, Suppression comes off
//! every Japanese unit and every Japanese Squad (GD Squads excepted) must
//! charge unless it is marked Op Fire: +4 MP, +2 Morale in all phases, +2
//! Melee FP, no Assault Fire, and a path to the closest enemy hex by the
//! fewest MPs (`rules::banzai`). Until the last required charge is called
//! no other Japanese Squad move goes closer to its Rout Edge.

use bevy::prelude::*;

use crate::rules::Mp;
use crate::rules::banzai::{charge_targets, cheapest, check_charge, from_edge};
use crate::rules::movement::MoveRules;
use crate::scenario::Coord;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{Nationality, SideId};
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Location, OpFire, RosterRes, Suppression, TurnTrack, Unit,
    Used,
};

use super::events::GameEvent;
use super::orders::{Order, Refusal};
use super::pacific::PacificEvent;

/// The Squad charges this turn (R 59.6); it stops charging when marked Op
/// Fire.
#[derive(Component, Debug, Clone, Copy)]
pub struct Banzai;

/// Whether `entity` charges now: a Banzai counter and no Op Fire marker.
pub fn charging(world: &World, entity: Entity) -> bool {
    world.get::<Banzai>(entity).is_some() && world.get::<OpFire>(entity).is_none()
}

/// +4 MP for a charging Squad (R 59.6).
pub fn mp_bonus(world: &World, entity: Entity) -> Mp {
    if charging(world, entity) {
        Mp::whole(u16::from(world.resource::<AidRes>().0.constants.banzai_mp))
    } else {
        Mp(0)
    }
}

/// +2 Melee FP for a Squad that charged this turn (R 59.6).
pub fn melee_bonus(world: &World, entity: Entity) -> u8 {
    if world.get::<Banzai>(entity).is_some() {
        world.resource::<AidRes>().0.constants.banzai_melee_fp
    } else {
        0
    }
}

fn japanese(world: &World, unit: &Unit) -> Option<UnitClass> {
    world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .filter(|t| t.nationality == Nationality::Japanese)
        .map(|t| t.class)
}

/// The start of a turn (reinforcements placed, before any action): on a
/// turn of the scenario's `banzai_turns` the charge is announced (R 59.6).
pub fn begin_turn(world: &mut World, events: &mut Vec<GameEvent>) {
    let mut q = world.query_filtered::<Entity, With<Banzai>>();
    let old: Vec<Entity> = q.iter(world).collect();
    for e in old {
        world.entity_mut(e).remove::<Banzai>();
    }
    let turn = world.resource::<TurnTrack>().turn;
    if !world
        .resource::<ActiveScenario>()
        .scenario
        .special_rules
        .banzai_turns
        .contains(&turn)
    {
        return;
    }
    let mut q = world.query::<(Entity, &Unit)>();
    let mut units: Vec<(String, Entity, Unit)> = q
        .iter(world)
        .map(|(e, u)| (u.id.clone(), e, u.clone()))
        .collect();
    units.sort_by(|a, b| a.0.cmp(&b.0));
    let mut rallied = Vec::new();
    let mut charging = Vec::new();
    for (id, e, u) in units {
        let Some(class) = japanese(world, &u) else {
            continue;
        };
        if world.get::<Suppression>(e).is_some() {
            world.entity_mut(e).remove::<Suppression>();
            rallied.push(id.clone());
        }
        // GD Squads may charge but need not (R 59.6): here they do not.
        if class == UnitClass::Squad {
            world.entity_mut(e).insert(Banzai);
            charging.push(id);
        }
    }
    events.push(GameEvent::Pacific(PacificEvent::BanzaiAnnounced {
        turn,
        rallied,
        charging,
    }));
}

fn refuse(unit: &str, reason: impl Into<String>) -> Refusal {
    Refusal::Banzai {
        unit: unit.to_string(),
        reason: reason.into(),
    }
}

/// The last turn of the scenario's required charges, if any.
fn last_banzai_turn(world: &World) -> Option<u8> {
    let s = &world.resource::<ActiveScenario>().scenario.special_rules;
    s.banzai_turns.iter().copied().max()
}

/// R 59.6 on an order: a charging Squad may not be marked Used, fire or
/// Assault Fire, and moves by the charge path; before the last required
/// charge no Japanese Squad moves closer to its Rout Edge.
pub fn check_order(world: &mut World, order: &Order) -> Result<(), Refusal> {
    let unit = match order {
        Order::MarkUsed { unit }
        | Order::Fire { unit, .. }
        | Order::Move { unit, .. }
        | Order::RegenerateDecoy { unit, .. } => unit,
        _ => return Ok(()),
    };
    let Some((entity, u, loc)) =
        crate::world::queries::with_query::<(Entity, &Unit, &Location), (), _>(world, |mut q| {
            q.find(|(_, u, _)| &u.id == unit)
                .map(|(e, u, l)| (e, u.clone(), *l))
        })
    else {
        return Ok(());
    };
    if japanese(world, &u) != Some(UnitClass::Squad) {
        return Ok(());
    }
    let charges = charging(world, entity) && world.get::<Used>(entity).is_none();
    // The charge's own path rule governs a charging Squad's move, even
    // toward the Rout Edge (R 59.6, docs/decisions.md).
    if let Order::Move { path, .. } = order
        && !charges
    {
        check_rout_edge(world, &u, loc.coord, path)?;
    }
    if !charges {
        return Ok(());
    }
    match order {
        Order::MarkUsed { .. } | Order::Fire { .. } | Order::RegenerateDecoy { .. } => Err(refuse(
            unit,
            "it must Banzai Charge unless it is marked Op Fire (R 59.6)",
        )),
        Order::Move {
            path,
            declared_retreat,
            assault_fire,
            fireteam_fire,
            ..
        } => {
            if assault_fire.is_some() || fireteam_fire.is_some() {
                return Err(refuse(
                    unit,
                    "a charging Squad may not Assault Fire (R 59.6)",
                ));
            }
            if *declared_retreat {
                return Err(refuse(unit, "a charging Squad may not retreat (R 59.6)"));
            }
            check_path(world, entity, &u, loc.coord, path)
        }
        _ => Ok(()),
    }
}

fn parse_path(world: &World, path: &[String]) -> Option<Vec<Coord>> {
    let board = world.resource::<BoardRes>().0.clone();
    path.iter()
        .map(|l| Coord::parse(l, board.columns, board.rows).ok())
        .collect()
}

/// R 59.6's last paragraph: until the last required charge is called (at
/// the start of the last Banzai turn), no Japanese Squad steps closer to
/// its Rout Edge; a charging Squad follows its charge path instead.
fn check_rout_edge(world: &World, u: &Unit, start: Coord, path: &[String]) -> Result<(), Refusal> {
    let Some(last) = last_banzai_turn(world) else {
        return Ok(());
    };
    if world.resource::<TurnTrack>().turn >= last {
        return Ok(());
    }
    let sc = &world.resource::<ActiveScenario>().scenario;
    let Some(edge) = sc
        .sides
        .iter()
        .find(|s| s.side == u.side)
        .map(|s| s.rout_edge)
    else {
        return Ok(());
    };
    let (cols, rows) = (sc.map.columns, sc.map.rows);
    let Some(coords) = parse_path(world, path) else {
        return Ok(());
    };
    let from = from_edge(start, edge, cols, rows);
    if let Some(c) = coords
        .iter()
        .find(|c| from_edge(**c, edge, cols, rows) < from)
    {
        return Err(refuse(
            &u.id,
            format!(
                "{} is closer to the Rout Edge; no Japanese Squad moves closer to it before the last Banzai Charge is called (turn {last}) (R 59.6)",
                c.label()
            ),
        ));
    }
    Ok(())
}

/// The charge path (R 59.6): to the closest enemy hex by the fewest MPs.
fn check_path(
    world: &mut World,
    entity: Entity,
    u: &Unit,
    start: Coord,
    path: &[String],
) -> Result<(), Refusal> {
    let Some(coords) = parse_path(world, path) else {
        return Ok(());
    };
    let Some(&end) = coords.last() else {
        return Ok(());
    };
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let rules = MoveRules::of(&world.resource::<ActiveScenario>().scenario.special_rules);
    let limit = usize::from(aid.constants.stacking_per_side);
    let mut q = world.query::<(&Unit, &Location)>();
    let all: Vec<(SideId, Coord, bool)> = q
        .iter(world)
        .map(|(o, l)| (o.side, l.coord, l.in_cave))
        .collect();
    let enemy_at = |c: Coord| {
        all.iter()
            .any(|(s, l, cave)| *s != u.side && *l == c && !cave)
    };
    let enemies: Vec<Coord> = all
        .iter()
        .filter(|(s, _, cave)| *s != u.side && !cave)
        .map(|(_, c, _)| *c)
        .collect();
    let full = |c: Coord| {
        all.iter()
            .filter(|(s, l, cave)| *s == u.side && *l == c && !cave)
            .count()
            >= limit
    };
    let targets = charge_targets(start, &enemies, full);
    let allowance = world
        .resource::<RosterRes>()
        .0
        .get(&u.kind)
        .map_or(Mp(0), |t| Mp::whole(u16::from(t.mp)))
        + super::command_points::mp_bonus(world, entity)
        + mp_bonus(world, entity);
    let costs = cheapest(&board, &aid, rules, start, allowance, enemy_at);
    let mut spent = Mp(0);
    let mut at = start;
    for c in &coords {
        let left = Mp(allowance.0.saturating_sub(spent.0));
        match crate::rules::movement::check_step(&board, &aid, rules, at, *c, left) {
            Ok(step) => spent = Mp(spent.0 + step.total.0),
            // The move's own check names the bad step.
            Err(_) => return Ok(()),
        }
        at = *c;
    }
    // A charge whose path holds Wire enters it to clear it (R 59.6, R 43.6).
    if super::night::wire_in(world, end) {
        return Ok(());
    }
    check_charge(&costs, &targets, end, spent).map_err(|r| refuse(&u.id, r.to_string()))
}
