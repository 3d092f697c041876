//! Moving a unit in the Operations Phase — R 5.0 (Movement), R 4.2 (a unit
//! that moves or tries to is Used), R 2.0 (stacking at the end of a move),
//! R 15.0 (losing Concealment, Decoys removed). The Op Fire window at each
//! hex joins with the fire orders.

use crate::world::UnitId;
use bevy::prelude::*;

use crate::rules::Mp;
use crate::rules::facing::flank_fire;
use crate::rules::los::{LosQuery, is_blocked};
use crate::rules::morale::MoraleModifier;
use crate::rules::movement::{
    MoveRules, RetreatEnemy, back_up_to, check_retreat_path, check_step, may_withdraw,
    subject_to_reluctance,
};
use crate::scenario::Coord;
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Concealed, Facing, Location, RosterRes, Unit, mark,
};

use super::events::GameEvent;
use super::fire::AttackExtras;
use super::orders::{FireteamFire, Order, Refusal};

/// A unit's place and side, for the checks.
struct Occupant {
    entity: Entity,
    side: crate::scenario::schema::SideId,
    coord: Coord,
    in_cave: bool,
}

/// The query [`occupants`] lists; asked as the same query elsewhere, so
/// that it walks the units in the same order.
use crate::rules::fortifications::Place;

type OccupantQuery = (Entity, &'static Unit, &'static Location, Has<Concealed>);

fn occupants(world: &mut World) -> Vec<Occupant> {
    crate::world::queries::with_query::<OccupantQuery, (), _>(world, |q| {
        // Room for a scenario's units at once, rather than grown by steps.
        let mut all = Vec::with_capacity(32);
        all.extend(q.map(|(entity, u, l, _)| Occupant {
            entity,
            side: u.side,
            coord: l.coord,
            in_cave: l.in_cave,
        }));
        all
    })
}

/// A move as ordered (R 5.0): its hexes and options.
#[derive(Debug, Clone, Copy)]
pub struct MovePlan<'a> {
    pub path: &'a [String],
    /// R 5.3.
    pub declared_retreat: bool,
    /// R 5.2: the hex fired at after the last hex of the path.
    pub assault_fire: Option<&'a str>,
    /// R 58.3.
    pub fireteam_fire: Option<&'a FireteamFire>,
    /// R 48.1.
    pub smoke_grenade: Option<&'a super::orders::SmokeGrenade>,
    /// R 59.5.
    pub seishin: bool,
}

/// The facing a moving unit adopts at the end of its move (R 2.2: "A moving
/// or Routing unit may adopt any facing at the end of its move"), held on
/// the mover until the move ends.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndFacing(pub crate::scenario::schema::Spine);

/// The end-of-move facing a `Move` order asks for: only where Infantry
/// facing is in use (R 2.2).
pub fn check_end_facing(
    world: &World,
    order: &Order,
) -> Result<Option<crate::scenario::schema::Spine>, Refusal> {
    let Order::Move {
        unit,
        facing: Some(f),
        ..
    } = order
    else {
        return Ok(None);
    };
    if !super::fire::facing_in_use(world) {
        return Err(Refusal::Facing {
            unit: UnitId::from(unit),
            reason: "this scenario does not use Infantry facing (R 2.2)".into(),
        });
    }
    Ok(Some(*f))
}

impl<'a> MovePlan<'a> {
    /// The plan a `Move` order gives; `None` for any other order.
    pub fn of(order: &'a Order) -> Option<(&'a str, MovePlan<'a>)> {
        let Order::Move {
            unit,
            path,
            declared_retreat,
            assault_fire,
            fireteam_fire,
            smoke_grenade,
            seishin,
            ..
        } = order
        else {
            return None;
        };
        Some((
            unit.as_str(),
            MovePlan {
                path,
                declared_retreat: *declared_retreat,
                assault_fire: assault_fire.as_deref(),
                fireteam_fire: fireteam_fire.as_ref(),
                smoke_grenade: smoke_grenade.as_ref(),
                seishin: *seishin,
            },
        ))
    }
}

impl<'a> MovePlan<'a> {
    /// A plain move along `path`.
    pub fn along(path: &'a [String]) -> MovePlan<'a> {
        MovePlan {
            path,
            declared_retreat: false,
            assault_fire: None,
            fireteam_fire: None,
            smoke_grenade: None,
            seishin: false,
        }
    }
}

/// A move checked against the rules, ready to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedMove {
    /// The hexes and the MP cost of each step.
    pub steps: Vec<(Coord, Mp)>,
    /// The unit starts in an enemy hex (R 5.1).
    pub withdrawal: bool,
    pub declared_retreat: bool,
    pub assault_fire: Option<Coord>,
    /// (hexes entered before firing, target) (R 58.3).
    pub fireteam_fire: Option<(usize, Coord)>,
    /// For each step, whether it goes into the Cave of its hex (R 43.4).
    pub caves: Vec<bool>,
    /// A Smoke Grenade thrown on the way (R 48.1).
    pub smoke_grenade: Option<super::smoke::CheckedGrenade>,
    /// Seishin is declared once the MC to move is passed (R 59.5).
    pub seishin: bool,
}

/// The movement rules of `entity`'s move: the scenario's, with the night
/// minimum of its hexes, 1 1/2 MP (R 50.2; none for Japanese Infantry,
/// R 59.0). The move's check and the board's reach both use it.
pub fn move_rules(world: &World, entity: Entity) -> MoveRules {
    let mut rules = MoveRules::of(&world.resource::<ActiveScenario>().scenario.special_rules);
    rules.night_minimum = super::night::mp_minimum(world, entity);
    rules
}

/// The MPs of `entity`'s move (R 5.0): its allowance, +1 for a CP (R 5.4),
/// +4 in a Banzai Charge (R 59.6), +1 when it declares Seishin (R 59.5).
pub fn allowance(world: &World, entity: Entity, seishin: bool) -> Mp {
    let own = world
        .get::<Unit>(entity)
        .and_then(|u| world.resource::<RosterRes>().0.get(&u.kind))
        .map_or(Mp(0), |t| Mp::whole(u16::from(t.mp)));
    own + super::command_points::mp_bonus(world, entity)
        + super::banzai::mp_bonus(world, entity)
        + if seishin {
            super::seishin::mp(world)
        } else {
            Mp(0)
        }
}

/// Checks a move before anything happens: hexes, MPs step by step, no
/// passing through an enemy hex, stacking at the end (R 2.0, R 5.0); a
/// Withdrawal (R 5.1), a Declared Retreat (R 5.3), Assault Fire (R 5.2,
/// R 58.3).
pub fn check_move(
    world: &mut World,
    entity: Entity,
    plan: &MovePlan,
) -> Result<CheckedMove, Refusal> {
    // A Gun never moves to a new hex (R 20.2).
    super::gun::check_move(world, entity)?;
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let rules = move_rules(world, entity);
    let (unit, start, start_in_cave) = {
        let e = world.entity(entity);
        match (e.get::<Unit>(), e.get::<Location>()) {
            (Some(u), Some(l)) => (u.clone(), l.coord, l.in_cave),
            _ => {
                return Err(Refusal::UnknownUnit {
                    unit: crate::world::UnitId::default(),
                });
            }
        }
    };
    let ut = world.resource::<RosterRes>().0.get(&unit.kind).cloned();
    let allowance = allowance(world, entity, plan.seishin);
    let path = plan.path;
    if path.is_empty() {
        return Err(Refusal::EmptyPath);
    }
    // Two hexes a turn in the Monsoon rain (R 55.2).
    super::monsoon::check_path(world, path)?;
    if plan.seishin {
        // Seishin: an "S" Squad moving into an enemy hex (R 59.5).
        let end = path.last().and_then(|l| {
            let (hex, cave) = crate::rules::fortifications::split_label(l);
            Coord::parse(hex, board.columns, board.rows)
                .ok()
                .filter(|_| !cave)
        });
        super::seishin::check(world, entity, end, plan.declared_retreat)?;
    }
    let others = occupants(world);
    // Units in a Cave are not in the hex above it (R 43.4).
    let enemy_in = |c: Coord| {
        others
            .iter()
            .any(|o| o.side != unit.side && o.coord == c && !o.in_cave)
    };
    let withdrawal = !start_in_cave && enemy_in(start);
    if withdrawal && ut.as_ref().is_some_and(|t| !may_withdraw(t.nationality)) {
        return Err(Refusal::JapaneseNoWithdrawal {
            unit: unit.id.clone(),
        });
    }
    // A unit starting in an enemy's hex may Declare Retreat, without the
    // +4 (R 5.3); it Withdraws at -3 (R 5.1) and moves as a Routing unit.
    if plan.declared_retreat && (plan.assault_fire.is_some() || plan.fireteam_fire.is_some()) {
        return Err(Refusal::RetreatNoAssaultFire);
    }
    if plan.assault_fire.is_some() && plan.fireteam_fire.is_some() {
        return Err(Refusal::AssaultFireTwice);
    }
    let fireteam_mp = Mp::whole(u16::from(aid.constants.fireteam_fire_mp));
    if let Some(ff) = plan.fireteam_fire
        && ff.after >= path.len()
    {
        return Err(Refusal::AssaultFire {
            reason: format!(
                "a Fireteam fires before or mid move, after 0 to {} of its {} hexes; at the end of the move it is `assault_fire` (R 58.3)",
                path.len() - 1,
                path.len()
            ),
        });
    }
    let mut steps = Vec::new();
    let mut coords = Vec::new();
    let mut caves = Vec::new();
    let mut in_cave = start_in_cave;
    let mut at = start;
    let mut left = allowance;
    let mut smoke_grenade = None;
    for (i, label) in path.iter().enumerate() {
        let g = plan.smoke_grenade;
        smoke_grenade = smoke_grenade.or(super::smoke::grenade_at_step(
            world, entity, g, i, at, &mut left,
        )?);
        if plan.fireteam_fire.is_some_and(|f| f.after == i) {
            if left < fireteam_mp {
                return Err(Refusal::AssaultFire {
                    reason: format!(
                        "a Fireteam needs {fireteam_mp} MP to fire, {left} MP left (R 58.3)"
                    ),
                });
            }
            left = Mp(left.0 - fireteam_mp.0);
        }
        // `K5/cave` is the Cave below K5 (R 43.4).
        let (hex, into_cave) = crate::rules::fortifications::split_label(label);
        let to = Coord::parse(hex, board.columns, board.rows).map_err(|_| Refusal::BadHex {
            label: label.clone(),
        })?;
        let step = |reason: String| Refusal::Step {
            n: i + 1,
            to: label.clone(),
            reason,
        };
        let cost = if into_cave || in_cave {
            let from = crate::rules::fortifications::Place { coord: at, in_cave };
            super::fortifications::cave_step(world, entity, from, to, into_cave, left)
                .map_err(step)?
        } else {
            check_step(&board, &aid, rules, at, to, left)
                .map_err(|r| step(r.to_string()))?
                .total
        };
        left = Mp(left.0 - cost.0);
        steps.push((to, cost));
        coords.push(to);
        caves.push(into_cave);
        in_cave = into_cave;
        if into_cave {
            at = to;
            continue;
        }
        if enemy_in(to) && withdrawal {
            return Err(Refusal::WithdrawalIntoEnemy { at: label.clone() });
        }
        if enemy_in(to) && i + 1 < path.len() {
            return Err(Refusal::PastEnemy { at: label.clone() });
        }
        at = to;
    }
    // Wire stops a move on entering, and leaving it is one hex (R 43.6).
    super::night::check_wire(world, start, &coords, path)?;
    let g = plan.smoke_grenade;
    smoke_grenade = smoke_grenade.or(super::smoke::grenade_at_step(
        world,
        entity,
        g,
        path.len(),
        at,
        &mut left,
    )?);
    if let Some(g) = g.filter(|_| smoke_grenade.is_none()) {
        return Err(Refusal::Fire {
            reason: format!(
                "Smoke Grenade into {}: thrown after 0 to {} hexes of the move (R 48.1)",
                g.at,
                path.len()
            ),
        });
    }
    let limit = usize::from(aid.constants.stacking_per_side);
    let own_there = others
        .iter()
        .filter(|o| {
            o.side == unit.side && o.coord == at && o.in_cave == in_cave && o.entity != entity
        })
        .count();
    if own_there + 1 > limit {
        return Err(Refusal::OverStacked {
            at: at.label(),
            limit: aid.constants.stacking_per_side,
        });
    }
    if plan.declared_retreat {
        let enemies: Vec<RetreatEnemy> = others
            .iter()
            .filter(|o| o.side != unit.side)
            .map(|o| RetreatEnemy {
                at: o.coord,
                in_cave: o.in_cave,
                in_melee: others
                    .iter()
                    .any(|f| f.side == unit.side && f.coord == o.coord && f.entity != entity),
            })
            .collect();
        let sees = |a: Coord, b: Coord| !is_blocked(&board, &aid, &LosQuery::new(a, b));
        check_retreat_path(&board, start, &coords, &enemies, sees).map_err(|(i, r)| {
            Refusal::Retreat {
                n: i + 1,
                reason: r.to_string(),
            }
        })?;
    }
    let assault_fire = match plan.assault_fire {
        Some(t) => Some(super::assault_fire::check_assault_fire(
            world, entity, at, t, false,
        )?),
        None => None,
    };
    let fireteam_fire = match plan.fireteam_fire {
        Some(f) => {
            let from = if f.after == 0 {
                start
            } else {
                coords[f.after - 1]
            };
            let to = super::assault_fire::check_assault_fire(world, entity, from, &f.target, true)?;
            Some((f.after, to))
        }
        None => None,
    };
    Ok(CheckedMove {
        steps,
        withdrawal,
        declared_retreat: plan.declared_retreat,
        assault_fire,
        fireteam_fire,
        caves,
        smoke_grenade,
        seishin: plan.seishin,
    })
}

/// A move under way: the hexes still to enter, paused while the opponent
/// answers an Op Fire window (R 9.0).
#[derive(Resource, Debug, Clone)]
pub struct MoveInProgress {
    pub mover: Entity,
    pub unit: crate::world::UnitId,
    pub steps: std::collections::VecDeque<(Coord, Mp)>,
    pub left: Mp,
    /// The hex just entered still owes its after-fire effects (enemy
    /// Conceal counters next to the mover, R 15.0).
    pub hex_open: bool,
    /// The start hex, then every hex entered (for backing up, R 5.0).
    pub trail: Vec<Coord>,
    /// +4 for every MC of this move (R 5.3, R 9.0).
    pub declared_retreat: bool,
    /// Still to fire at the end of the move (R 5.2).
    pub assault_fire: Option<Coord>,
    /// Still to fire after so many hexes (R 58.3).
    pub fireteam_fire: Option<(usize, Coord)>,
    /// The Op Fire window at the start hex (first hex a Melee hex, R 9.0)
    /// has been offered.
    pub start_window_done: bool,
    /// The mover fired: no Conceal counter regained at the end (R 15.0).
    pub fired: bool,
    /// For each step still to take, whether it goes into a Cave (R 43.4).
    pub caves: std::collections::VecDeque<bool>,
    /// Still to throw after so many hexes (R 48.1).
    pub smoke_grenade: Option<super::smoke::CheckedGrenade>,
}

/// Executes a checked move: the MC before moving, then the hexes one by one
/// (R 4.2, R 5.0, R 15.0), pausing for Op Fire windows (R 9.0).
pub fn execute_move(
    world: &mut World,
    entity: Entity,
    checked: &CheckedMove,
    events: &mut Vec<GameEvent>,
) {
    let roster = world.resource::<RosterRes>().0.clone();
    let Some(unit) = world.entity(entity).get::<Unit>().cloned() else {
        return;
    };
    let Some(start) = world.entity(entity).get::<Location>().map(|l| l.coord) else {
        return;
    };
    let Some(ut) = roster.get(&unit.kind) else {
        return;
    };
    let (modifiers, rule): (&[MoraleModifier], &'static str) = if checked.withdrawal {
        events.push(GameEvent::Withdraws {
            unit: unit.id.clone(),
            from: start.label(),
        });
        if checked.declared_retreat {
            // "Units starting in the same hex as an enemy unit cannot get
            // this +4 Morale modifier." (R 5.3)
            events.push(GameEvent::DeclaresRetreat {
                unit: unit.id.clone(),
                bonus: false,
            });
        }
        (&[MoraleModifier::Withdrawal], "R 5.1")
    } else if checked.declared_retreat {
        events.push(GameEvent::DeclaresRetreat {
            unit: unit.id.clone(),
            bonus: true,
        });
        (&[MoraleModifier::DeclaredRetreat], "R 5.3")
    } else {
        (&[], "R 5.0")
    };
    if !super::checks::morale_check_with(world, entity, modifiers, rule, events) {
        mark(world, entity, |m| m.used = true);
        events.push(GameEvent::MoveFailed {
            unit: unit.id.clone(),
        });
        super::concealment::regain_concealment(world, entity, "Used out of all enemy LOS", events);
        return;
    }
    if checked.seishin {
        // Declared once the MC to move is passed (R 59.5).
        super::seishin::declare(world, entity, events);
    }
    world.insert_resource(MoveInProgress {
        mover: entity,
        unit: unit.id.clone(),
        steps: checked.steps.iter().copied().collect(),
        left: Mp::whole(u16::from(ut.mp))
            + super::command_points::mp_bonus(world, entity)
            + super::banzai::mp_bonus(world, entity)
            + super::seishin::mp_bonus(world, entity),
        hex_open: false,
        trail: vec![start],
        // No +4 for a unit that started in an enemy's hex (R 5.3).
        declared_retreat: checked.declared_retreat && !checked.withdrawal,
        assault_fire: checked.assault_fire,
        fireteam_fire: checked.fireteam_fire,
        start_window_done: false,
        fired: false,
        caves: checked.caves.iter().copied().collect(),
        smoke_grenade: checked.smoke_grenade,
    });
    continue_move(world, events);
}

/// The immediate MC of a moving unit Suppressed by Op Fire (R 5.0, R 9.0):
/// none for a non-elite American Squad, whose move is simply over (R 58.1);
/// +4 under a Declared Retreat (R 9.0); Pluck on yellow and red (R 60.1).
/// Returns whether the move goes on.
pub fn mover_check(world: &mut World, mover: Entity, events: &mut Vec<GameEvent>) -> bool {
    let Some(unit) = world.entity(mover).get::<Unit>().cloned() else {
        return false;
    };
    let Some(ut) = world.resource::<RosterRes>().0.get(&unit.kind).cloned() else {
        return false;
    };
    if subject_to_reluctance(ut.nationality, ut.class) {
        events.push(GameEvent::Reluctance { unit: unit.id });
        super::obstacles::fail(world, mover);
        return false;
    }
    let mut modifiers = Vec::new();
    if world
        .get_resource::<MoveInProgress>()
        .is_some_and(|m| m.mover == mover && m.declared_retreat)
    {
        modifiers.push(MoraleModifier::DeclaredRetreat);
    }
    if ut.pluck {
        modifiers.push(MoraleModifier::Pluck);
    }
    let passed = super::checks::morale_check_with(world, mover, &modifiers, "R 9.0", events);
    if !passed {
        // A failed MC also fails a removal of Wire or a Roadblock (R 43.7).
        super::obstacles::fail(world, mover);
    }
    passed
}

/// Whether a unit of the other side than `side` is in `at`.
/// R 12.2: a unit moving into Melee through a flank hex of every enemy unit
/// there (each unconcealed, so with a facing, R 2.2) takes a Flank counter,
/// +1 Melee FP in the Melee Phase. A concealed enemy has no facing, so no
/// Flank counter (R 51.1 in the Jungle). Only where facing is in use.
fn flank_on_entering(
    world: &mut World,
    mover: Entity,
    side: crate::scenario::schema::SideId,
    from: Coord,
    to: Coord,
    events: &mut Vec<GameEvent>,
) {
    if !super::fire::facing_in_use(world) {
        return;
    }
    let enemies: Vec<(Option<crate::scenario::schema::Spine>, bool)> =
        crate::world::queries::with_query::<
            (
                &Unit,
                &Location,
                Option<&Facing>,
                Has<Concealed>,
                Has<super::concealment::FacingAwaited>,
            ),
            (),
            _,
        >(world, |q| {
            q.filter(|(u, l, _, _, _)| u.side != side && l.coord == to && !l.in_cave)
                .map(|(_, _, f, c, a)| (f.map(|f| f.0), c || a))
                .collect()
        });
    // A unit still to choose its facing has none yet (R 2.2).
    let through_flank = !enemies.is_empty()
        && enemies
            .iter()
            .all(|(facing, hidden)| !hidden && flank_fire(to, *facing, from));
    if !through_flank {
        return;
    }
    let Some(unit) = world.get::<Unit>(mover).map(|u| u.id.clone()) else {
        return;
    };
    mark(world, mover, |m| m.flank = true);
    events.push(GameEvent::FlankCounter {
        unit,
        at: to.label(),
    });
}

fn enemy_in(world: &mut World, side: crate::scenario::schema::SideId, at: Coord) -> bool {
    crate::world::queries::with_query::<OccupantQuery, (), _>(world, |mut q| {
        q.any(|(_, u, l, _)| u.side != side && l.coord == at)
    })
}

/// The mover's side and hex, and whether it is Concealed; `None` when it
/// is not a unit on the map.
fn mover_place(
    world: &World,
    mover: Entity,
) -> Option<(crate::scenario::schema::SideId, Coord, bool)> {
    let e = world.get_entity(mover).ok()?;
    Some((
        e.get::<Unit>()?.side,
        e.get::<Location>()?.coord,
        e.contains::<Concealed>(),
    ))
}

/// Whether the mover stands in a Cave (R 43.4).
fn mover_in_cave(world: &World, mover: Entity) -> bool {
    world.get::<Location>(mover).is_some_and(|l| l.in_cave)
}

/// Plays the move on until it ends or an Op Fire window opens.
pub fn continue_move(world: &mut World, events: &mut Vec<GameEvent>) {
    // A Combat Event's choice comes first (R 17.0).
    if world.contains_resource::<super::combat_events::CombatEventDecision>() {
        return;
    }
    loop {
        let Some(mut mv) = world.get_resource::<MoveInProgress>().cloned() else {
            return;
        };
        // A revealed unit chooses its facing before the move goes on (R 2.2).
        if super::concealment::ask_facing(world, events) {
            return;
        }
        if world.get_entity(mv.mover).is_err() {
            world.remove_resource::<MoveInProgress>();
            return;
        }
        if mv.hex_open {
            // The mover survived all fire in this hex: now it affects the
            // Concealment of enemies next to it (R 15.0).
            reveal_neighbours(world, mv.mover, events);
            mv.hex_open = false;
            if let Some(mut m) = world.get_resource_mut::<MoveInProgress>() {
                m.hex_open = false;
            }
            if super::concealment::ask_facing(world, events) {
                return;
            }
        }
        let entered = mv.trail.len() - 1;
        if let Some(g) = mv.smoke_grenade.filter(|g| g.after == entered) {
            // A Smoke Grenade, paid for in MP (R 48.1).
            mv.left = Mp(mv.left.0.saturating_sub(g.cost.0));
            mv.smoke_grenade = None;
            world.insert_resource(mv.clone());
            super::smoke::throw_grenade(world, &mv.unit, g, events);
            continue;
        }
        if let Some((after, target)) = mv.fireteam_fire
            && after == entered
        {
            // A Fireteam fires before or mid move, and goes on (R 58.3).
            let cost = Mp::whole(u16::from(
                world.resource::<AidRes>().0.constants.fireteam_fire_mp,
            ));
            mv.left = Mp(mv.left.0.saturating_sub(cost.0));
            mv.fireteam_fire = None;
            mv.fired = true;
            world.insert_resource(mv.clone());
            let spent = Some((cost.to_string(), mv.left.to_string()));
            let extras = AttackExtras {
                fireteam_mid_move: true,
                ..AttackExtras::default()
            };
            super::assault_fire::assault_fire(world, mv.mover, target, spent, extras, events);
            // Its Muzzle Flash is answered before the move goes on (R 50.2).
            if super::night::after_op_fire(world, super::night::Resume::Continue, events) {
                return;
            }
            continue;
        }
        let Some(&(to, cost)) = mv.steps.front() else {
            if let Some(target) = mv.assault_fire.take() {
                // Assault Fire after the last hex; the move is over (R 5.2).
                mv.fired = true;
                world.insert_resource(mv.clone());
                let extras = AttackExtras::default();
                super::assault_fire::assault_fire(world, mv.mover, target, None, extras, events);
            }
            stop_move(world, events);
            // The Muzzle Flash of an Assault Fire at Night (R 50.2).
            super::night::after_op_fire(world, super::night::Resume::Nothing, events);
            return;
        };
        let Some(side) = world.entity(mv.mover).get::<Unit>().map(|u| u.side) else {
            return;
        };
        let into_cave = mv.caves.front().copied().unwrap_or(false);
        if entered == 0 && !mv.start_window_done && !into_cave && enemy_in(world, side, to) {
            // The first hex is a Melee hex: Op Fire may come at the start
            // hex, before the mover enters it (R 9.0).
            mv.start_window_done = true;
            world.insert_resource(mv.clone());
            if super::op_fire::open_window_at_start(world, mv.mover, mv.trail[0], to, events) {
                return;
            }
        }
        // The step, on this copy and on the move in the world alike.
        let from = mv.trail[entered];
        let step = |m: &mut MoveInProgress| {
            m.steps.pop_front();
            m.caves.pop_front();
            m.left = Mp(m.left.0.saturating_sub(cost.0));
            m.hex_open = true;
            m.trail.push(to);
        };
        step(&mut mv);
        if let Some(mut m) = world.get_resource_mut::<MoveInProgress>() {
            step(&mut m);
        }
        let was_in_cave = world.get::<Location>(mv.mover).is_some_and(|l| l.in_cave);
        world.entity_mut(mv.mover).insert(Location {
            coord: to,
            in_cave: into_cave,
        });
        let place = crate::rules::fortifications::place_label;
        events.push(GameEvent::Moved {
            unit: mv.unit.clone(),
            from: place(from, was_in_cave),
            to: place(to, into_cave),
            cost: cost.to_string(),
            left: mv.left.to_string(),
        });
        if !into_cave {
            flank_on_entering(world, mv.mover, side, from, to, events);
            // Concealed units in the Jungle hex entered: Ambush (R 51.1,
            // R 51.2); a Concealed Fortification there is revealed (R 43.0).
            super::jungle::ambush_on_entering(world, mv.mover, to, events);
            super::fortifications::reveal_on_entry(world, to, events);
        }
        super::fortifications::sweep(world, events);
        // The moving unit loses its Concealment first (R 15.0).
        if !mover_concealment(world, mv.mover, events) {
            world.remove_resource::<MoveInProgress>();
            return;
        }
        // A Japanese -2 counter is -1 once the unit leaves its starting
        // hex (R 59.2).
        super::concealment::weaken_japanese_concealment(world, mv.mover, events);
        // A Trip Flare lights the Wire hex for this window (R 43.6).
        super::night::trip_flare(world, mv.mover, to, events);
        let opened = super::op_fire::open_window(world, mv.mover, to, events);
        super::night::flare_out(world);
        if opened {
            return;
        }
    }
}

/// Ends the move where the unit stands: its last hex, or a failed MC after
/// Op Fire (R 5.0), backing up out of a hex it would over-stack (R 5.0,
/// R 2.2). The unit is Used (R 4.2) and, unless it fired, takes a Conceal
/// counter out of all enemy LOS (R 15.0).
pub fn stop_move(world: &mut World, events: &mut Vec<GameEvent>) {
    let Some(mv) = world.remove_resource::<MoveInProgress>() else {
        return;
    };
    if world.get_entity(mv.mover).is_err() {
        return;
    }
    if mv.hex_open {
        reveal_neighbours(world, mv.mover, events);
    }
    let limit = world.resource::<AidRes>().0.constants.stacking_per_side;
    let all = occupants(world);
    if let Some(me) = all.iter().find(|o| o.entity == mv.mover) {
        let own = |c: Coord| {
            all.iter()
                .filter(|o| o.side == me.side && o.coord == c && o.entity != mv.mover)
                .count()
        };
        if let Some(back) = back_up_to(&mv.trail, own, limit) {
            world.entity_mut(mv.mover).insert(Location {
                coord: back,
                in_cave: false,
            });
            events.push(GameEvent::BackedUp {
                unit: mv.unit.clone(),
                from: me.coord.label(),
                to: back.label(),
            });
        }
    }
    mark(world, mv.mover, |m| m.used = true);
    // A Squad that survived and passed every MC removes its obstacle
    // (R 43.6, R 43.7).
    super::obstacles::finish(world, mv.mover, events);
    // A charging Banzai Squad that survived clears the Wire (R 43.6).
    super::night::banzai_clears_wire(world, mv.mover, events);
    if world.get_entity(mv.mover).is_err() {
        return;
    }
    let at = world
        .entity(mv.mover)
        .get::<Location>()
        .map_or_else(String::new, |l| {
            crate::rules::fortifications::place_label(l.coord, l.in_cave)
        });
    events.push(GameEvent::MoveEnded {
        unit: mv.unit.clone(),
        at,
    });
    // The facing chosen for the end of the move (R 2.2).
    if let Some(EndFacing(f)) = world.entity_mut(mv.mover).take::<EndFacing>() {
        world.entity_mut(mv.mover).insert(crate::world::Facing(f));
        events.push(GameEvent::FacesAtEnd {
            unit: mv.unit.clone(),
            facing: f,
        });
    }
    if !mv.fired {
        super::concealment::regain_concealment(
            world,
            mv.mover,
            "Used out of all enemy LOS",
            events,
        );
    }
}

/// R 15.0 when the mover enters a hex: it loses its Conceal counter when
/// adjacent to an enemy, or in Open Ground in an enemy's LOS. A Decoy is
/// removed. Returns false when the mover was removed.
fn mover_concealment(world: &mut World, mover: Entity, events: &mut Vec<GameEvent>) -> bool {
    let Some((side, at, concealed)) = mover_place(world, mover) else {
        return false;
    };
    if !concealed {
        return true;
    }
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let enemy_places: Vec<Place> =
        crate::world::queries::with_query::<OccupantQuery, (), _>(world, |q| {
            q.filter(|(_, u, _, _)| u.side != side)
                .map(|(_, _, l, _)| Place {
                    coord: l.coord,
                    in_cave: l.in_cave,
                })
                .collect()
        });
    let enemies: Vec<Coord> = enemy_places.iter().map(|p| p.coord).collect();
    // Next to an enemy (a Cave only to its two front hexes, R 43.4), or in
    // its hex (R 15.0, R 51.1).
    let here = Place {
        coord: at,
        in_cave: mover_in_cave(world, mover),
    };
    let adjacent = enemy_places
        .iter()
        .any(|e| *e == here || crate::rules::fortifications::adjacent(&board, *e, here));
    let open = board
        .cell(at)
        .and_then(|c| aid.terrain_row(c.terrain.key()))
        .is_some_and(|r| !r.beneficial);
    // At Night an unseen unit is out of LOS for Concealment (R 50.2).
    // (Asked only when neither of the reasons before it holds.)
    let seen = || open && super::concealment::enemy_sees(world, (&board, &aid), &enemies, at);
    let why = if crate::rules::concealment::concealment_forbidden(&board, &aid, at).is_some() {
        crate::rules::concealment::NO_CONCEALMENT_HERE
    } else if enemies.contains(&at) {
        "it entered an enemy unit's hex"
    } else if adjacent {
        "adjacent to an enemy unit"
    } else if seen() {
        "in Open Ground in enemy LOS"
    } else {
        return true;
    };
    super::concealment::lose_concealment(world, mover, why, events)
}

/// R 15.0 once the mover has survived all fire in its hex: enemy units next
/// to it lose their Conceal counters (Decoys are removed).
fn reveal_neighbours(world: &mut World, mover: Entity, events: &mut Vec<GameEvent>) {
    let Some((side, at, _)) = mover_place(world, mover) else {
        return;
    };
    // Next to it as R 43.4 has it: a Cave only to its two front hexes.
    let board = world.resource::<BoardRes>().0.clone();
    let here = Place {
        coord: at,
        in_cave: mover_in_cave(world, mover),
    };
    // In id order: the events tell them in the order they lose their
    // counters, never in the order the ECS lists them.
    let mut near: Vec<(crate::world::UnitId, Entity, Coord)> =
        crate::world::queries::with_query::<OccupantQuery, (), _>(world, |q| {
            q.filter(|(_, u, l, concealed)| {
                let there = Place {
                    coord: l.coord,
                    in_cave: l.in_cave,
                };
                u.side != side
                    && *concealed
                    && crate::rules::fortifications::adjacent(&board, here, there)
            })
            .map(|(e, u, l, _)| (u.id.clone(), e, l.coord))
            .collect()
        });
    near.sort_by(|a, b| a.0.cmp(&b.0));
    let near: Vec<(Entity, Coord)> = near.into_iter().map(|(_, e, c)| (e, c)).collect();
    if near.is_empty() {
        return;
    }
    // Stationary Concealed units in Jungle keep their counters (R 51.1).
    let in_jungle = |c: Coord| {
        board
            .cell(c)
            .is_some_and(|x| x.terrain == crate::scenario::schema::Terrain::Jungle)
    };
    let near: Vec<Entity> = near
        .into_iter()
        .filter(|(_, c)| !in_jungle(*c))
        .map(|(e, _)| e)
        .collect();
    for e in near {
        super::concealment::reveal(world, e, "an enemy unit moved adjacent", events);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::operations::{apply, begin_operations};
    use crate::engine::{Dice, Order, headless_world};
    use crate::scenario::Roster;
    use crate::world::marks;

    fn world_on(scenario: &str, roster: Roster, rolls: &[u8]) -> World {
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let loaded = crate::world::load(scenario, &roster, &aid).unwrap();
        let mut w = headless_world(loaded, roster, aid, 1);
        w.resource_mut::<Dice>().force(rolls.iter().copied());
        w
    }

    fn entity(w: &mut World, id: &str) -> Entity {
        let mut q = w.query::<(Entity, &Unit)>();
        q.iter(w).find(|(_, u)| u.id == id).unwrap().0
    }

    fn run(w: &mut World, orders: &[Order]) -> Vec<String> {
        let mut lines: Vec<String> = begin_operations(w).iter().map(GameEvent::line).collect();
        for o in orders {
            lines.extend(apply(w, o).unwrap().iter().map(GameEvent::line));
        }
        lines
    }

    fn mv(unit: &str, path: &[&str], assault_fire: Option<&str>) -> Order {
        Order::Move {
            unit: unit.into(),
            path: path.iter().map(|s| s.to_string()).collect(),
            declared_retreat: false,
            assault_fire: assault_fire.map(str::to_string),
            fireteam_fire: None,
            smoke_grenade: None,
            seishin: false,
            facing: None,
        }
    }

    /// R 5.1 / R 59.1: a Japanese unit in an enemy hex may not move out.
    #[test]
    fn japanese_in_melee_may_not_withdraw() {
        let roster = crate::scenario::builtin_roster().unwrap();
        let mut w = world_on("tests/data/jungle.ron", roster, &[]);
        let j2 = entity(&mut w, "J2");
        w.entity_mut(j2).insert(Location {
            coord: Coord::parse("A2", 4, 3).unwrap(),
            in_cave: false,
        });
        run(&mut w, &[Order::MarkUsed { unit: "M1".into() }]);
        assert_eq!(
            apply(&mut w, &mv("J2", &["B2"], None))
                .unwrap_err()
                .to_string(),
            "J2 is Japanese in an enemy hex: it may only be marked Used or Op Fire (R 5.1, R 59.1)"
        );
    }

    /// R 60.1: with Pluck (given here to the training scenario's
    /// paratroopers), the immediate MC of a Fully Suppressed mover is at
    /// red 2 + 1 = 3.
    #[test]
    fn pluck_adds_one_to_a_mid_move_mc() {
        let orders = [
            Order::MarkUsed { unit: "A1".into() },
            Order::Pass,
            Order::MarkOpFire {
                unit: "G4".into(),
                facing: None,
            },
            Order::Pass,
            mv("A4", &["D5", "E5", "F5"], None),
            // Asked at D5 only because the Conceal counters might fire
            // (R 15.0).
            Order::OpFire {
                firers: vec![],
                facing: Default::default(),
            },
            Order::OpFire {
                firers: vec!["G4".into()],
                facing: Default::default(),
            },
        ];
        let base = crate::scenario::builtin_roster().unwrap();
        let mut plucky = base;
        for u in &mut plucky.units {
            if u.id == "para_squad" {
                u.pluck = true;
            }
        }
        let mut w = world_on("training", plucky, &[3, 3]);
        let lines = run(&mut w, &orders);
        assert!(
            lines.contains(
                &"A4 MC: needs 3 or less, rolled 3 \u{2192} passed (R 9.0, R 7.1)".to_string()
            ),
            "{lines:#?}"
        );
    }

    /// R 12.2 on the Guadalcanal map: J4 in H4 faces W, so its NE and SE
    /// hexes are its flank (the unit's black line runs N-S). A Marine
    /// entering from NW gets nothing; from NE, a Flank counter. A concealed
    /// J4 has no facing, so no counter (R 2.2, R 51.1).
    #[test]
    fn entering_melee_through_the_flank_takes_a_flank_counter() {
        let roster = crate::scenario::builtin_roster().unwrap();
        let mut w = world_on("guadalcanal", roster, &[]);
        let (j4, m1) = (entity(&mut w, "J4"), entity(&mut w, "M1"));
        let h4 = Coord::parse("H4", 16, 12).unwrap();
        let side = crate::scenario::schema::SideId::Allies;
        let board = w.resource::<BoardRes>().0.clone();
        let ne = board
            .neighbour(h4, crate::scenario::schema::Side6::Ne)
            .unwrap();
        let nw = board
            .neighbour(h4, crate::scenario::schema::Side6::Nw)
            .unwrap();
        let mut events = Vec::new();
        flank_on_entering(&mut w, m1, side, ne, h4, &mut events);
        assert!(events.is_empty(), "concealed J4 has no facing");
        w.entity_mut(j4).remove::<Concealed>();
        flank_on_entering(&mut w, m1, side, nw, h4, &mut events);
        assert!(events.is_empty() && !marks(&w, m1).flank);
        flank_on_entering(&mut w, m1, side, ne, h4, &mut events);
        assert_eq!(
            events.iter().map(GameEvent::line).collect::<Vec<_>>(),
            [
                "M1 enters the Melee in H4 through the enemy's flank: Flank counter, +1 Melee FP (R 12.2)"
            ]
        );
        assert!(marks(&w, m1).flank);
    }
}
