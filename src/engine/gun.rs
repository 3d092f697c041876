//! Guns in the Operations Phase — R 20.0 (three in the Ops Range, no CPs),
//! R 20.2 (an MC whenever it fires, even with a Prof Check), R 20.4 (the
//! firing arc, turning in the hex to fire, the Prof Check; a failed check
//! marks the Gun Used, and for Op Fire or Final Op Fire puts it back to its
//! old facing; never at its own hex), R 20.5 (fire at Infantry and Guns
//! with the second FP and the V/G column), R 20.7 (Final Op Fire only at an
//! adjacent hex in the arc, -3), R 5.0 and R 20.2 (a Gun never moves to a
//! new hex). The arithmetic is `rules::gun`; the roll against each unit in
//! the hex is the infantry attack of `engine::fire` (`plan_attack` asks
//! [`gun_breakdown`] for a Gun's FP), so the fire preview and the engine
//! share one function.

use bevy::prelude::*;

use crate::rules::facing::{FireFacing, facing_toward};
use crate::rules::fire::{Conditions, Elevation, FireContext, FireKind, FireRefusal, FpBreakdown};
use crate::rules::gun::{
    GunRefusal, GunShot, GunSite, GunTurn, ProfCheck, aim, gun_fp, prof_check, turn_refusal,
};
use crate::rules::los::Sight;
use crate::rules::los::unit_level;
use crate::rules::{D10, Hexes};
use crate::scenario::Coord;
use crate::scenario::roster::{GunRating, UnitType};
use crate::scenario::schema::Spine;
use crate::world::{
    AidRes, BoardRes, Facing, Location, RosterRes, Unit, attack_under_way, mark, mark_attack, marks,
};

use super::Dice;
use super::events::GameEvent;
use super::fire::MoverFate;
use super::op_fire::OpFirePlan;
use super::orders::Refusal;

/// What a Gun did, for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GunEvent {
    /// It turns within its hex to fire (R 20.4); not movement, so no Op
    /// Fire answers it.
    Turned {
        unit: crate::world::UnitId,
        facing: Spine,
    },
    /// Its Prof Check (R 20.4): the Rating and modifiers, the roll.
    ProfCheck {
        unit: crate::world::UnitId,
        arithmetic: String,
        target: i16,
        roll: u8,
        passed: bool,
    },
    /// An Unused Gun Used to change facing, without firing (R 43.3,
    /// R 43.5); the Ops Range after it.
    UsedToTurn {
        unit: crate::world::UnitId,
        facing: Spine,
        used: u8,
        max: u8,
    },
    /// A failed Prof Check after turning to Op Fire or Final Op Fire puts
    /// it back to its old facing (R 20.4).
    FacingReturned {
        unit: crate::world::UnitId,
        facing: Spine,
    },
}

impl GunEvent {
    pub fn line(&self) -> String {
        match self {
            GunEvent::Turned { unit, facing } => {
                format!("{unit} turns within its hex to face {facing:?} to fire (R 20.4)")
            }
            GunEvent::ProfCheck {
                unit,
                arithmetic,
                target,
                roll,
                passed,
            } => {
                let result = if *passed {
                    "passes"
                } else {
                    "fails: no shot, Used"
                };
                format!(
                    "{unit} Prof Check: {arithmetic} = {target}; roll {roll} \u{2192} {result} (R 20.4)"
                )
            }
            GunEvent::UsedToTurn {
                unit,
                facing,
                used,
                max,
            } => format!(
                "{unit} is Used to change facing to {facing:?}, without firing (R 43.3, R 43.5); Ops Range {used}/{max}"
            ),
            GunEvent::FacingReturned { unit, facing } => format!(
                "{unit} goes back to facing {facing:?}: it failed its Prof Check after turning (R 20.4)"
            ),
        }
    }
}

/// The roster entry of a unit, if it is a Gun.
pub fn gun_type(world: &World, entity: Entity) -> Option<(UnitType, GunRating)> {
    let u = world.get::<Unit>(entity)?;
    let ut = world.resource::<RosterRes>().0.get(&u.kind)?;
    ut.gun
        .filter(|_| ut.class.is_gun())
        .map(|g| (ut.clone(), g))
}

pub fn is_gun(world: &World, entity: Entity) -> bool {
    gun_type(world, entity).is_some()
}

/// What a Use of this unit counts in the Ops Range (R 4.1, R 20.0).
pub fn use_kind(world: &World, entity: Entity) -> crate::rules::ops_range::UseKind {
    let class = world
        .get::<Unit>(entity)
        .and_then(|u| {
            world
                .resource::<RosterRes>()
                .0
                .get(&u.kind)
                .map(|t| t.class)
        })
        .unwrap_or(crate::scenario::roster::UnitClass::Squad);
    crate::rules::gun::use_kind(class)
}

/// A Gun that fires loses its Conceal counter (R 15.0), so its Use counts
/// three whatever it started as (R 4.1, R 20.0); any other Use keeps
/// `cost`, and acting first with a CP counts nothing (R 3.0 #2).
pub fn fire_cost(world: &World, entity: Entity, cost: u8) -> u8 {
    if cost > 0 && is_gun(world, entity) {
        world.resource::<AidRes>().0.constants.ops_cost_asset
    } else {
        cost
    }
}

/// The facing a Gun has: its placement, or toward `to` if it was given
/// none (R 20.4).
fn facing_of(world: &World, gun: Entity, from: Coord, to: Coord) -> Spine {
    world
        .get::<Facing>(gun)
        .map_or_else(|| facing_toward(from, to), |f| f.0)
}

/// The facing a Gun in `from` fires at `to` with (R 20.4), from the one
/// it has now.
fn aim_from(
    world: &World,
    firer: Entity,
    from: Coord,
    to: Coord,
    wanted: Option<Spine>,
    final_op_fire: bool,
) -> Result<FireFacing, GunRefusal> {
    let current = facing_of(world, firer, from, to);
    aim(
        from,
        to,
        current,
        wanted,
        no_turn(world, from, final_op_fire),
    )
}

/// Where a Gun in `from` stands, as far as turning goes: its terrain's
/// building flags and the Fortification it is in (R 40.0, R 40.1, R 43.3,
/// R 43.5).
fn site(world: &World, from: Coord) -> GunSite {
    let aid = &world.resource::<AidRes>().0;
    let row = world
        .resource::<BoardRes>()
        .0
        .cell(from)
        .and_then(|c| aid.terrain_row(c.terrain.key()));
    GunSite {
        building: row.is_some_and(|r| r.building),
        gun_turns: row.is_some_and(|r| r.gun_turns),
        fortification: super::fortifications::kind_at(world, from, false),
    }
}

/// Why a Gun in `from` may not turn to fire, if it may not: Final Op Fire
/// (R 20.7), a building (R 20.2), a Pillbox, Bunker or Fortified building
/// (R 43.3, R 43.5): `rules::gun::turn_refusal`.
fn no_turn(world: &World, from: Coord, final_op_fire: bool) -> Option<GunRefusal> {
    let how = if final_op_fire {
        GunTurn::ToFinalOpFire
    } else {
        GunTurn::ToFire
    };
    turn_refusal(site(world, from), how)
}

/// Checks that `unit`, if it is a Gun, may change its facing to `facing`
/// `how` (R 4.3, R 43.3, R 43.5); any other unit may.
pub fn check_turn(world: &World, unit: Entity, facing: Spine, how: GunTurn) -> Result<(), Refusal> {
    let Some((u, from)) = place(world, unit) else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    if !is_gun(world, unit) || world.get::<Facing>(unit).is_some_and(|f| f.0 == facing) {
        return Ok(());
    }
    match turn_refusal(site(world, from), how) {
        Some(why) => Err(Refusal::Gun {
            unit: u.id,
            reason: why.to_string(),
        }),
        None => Ok(()),
    }
}

/// Checks an order to Use an Unused Gun to change its facing, without
/// firing (R 43.3, R 43.5): only a Gun, and only where it may turn so.
pub fn check_turn_by_use(world: &World, unit: Entity, facing: Spine) -> Result<(), Refusal> {
    if let Some(u) = world.get::<Unit>(unit).filter(|_| !is_gun(world, unit)) {
        return Err(Refusal::Gun {
            unit: u.id.clone(),
            reason: "only a Gun is Used to change its facing (R 43.3, R 43.5)".into(),
        });
    }
    check_turn(world, unit, facing, GunTurn::ByUse)
}

/// Plays a checked turn by a Use (R 43.3, R 43.5): the Gun takes its new
/// facing and is Used; `used` of `max` is the Ops Range after it.
pub fn turn_by_use(
    world: &mut World,
    unit: Entity,
    facing: Spine,
    (used, max): (u8, u8),
    events: &mut Vec<GameEvent>,
) {
    mark(world, unit, |m| m.used = true);
    world.entity_mut(unit).insert(Facing(facing));
    let unit = world
        .get::<Unit>(unit)
        .map(|u| u.id.clone())
        .unwrap_or_default();
    events.push(GameEvent::Gun(GunEvent::UsedToTurn {
        unit,
        facing,
        used,
        max,
    }));
}

fn place(world: &World, e: Entity) -> Option<(Unit, Coord)> {
    Some((
        world.get::<Unit>(e)?.clone(),
        world.get::<Location>(e)?.coord,
    ))
}

fn refuse(r: impl ToString) -> Refusal {
    Refusal::Fire {
        reason: r.to_string(),
    }
}

/// The range limits every Gun shot keeps: never its own hex (R 20.4),
/// at Night at most the Vehicle/Gun range (R 50.2), in the Monsoon rain
/// three hexes (R 55.2, through `gun_fp`).
fn check_range(
    world: &World,
    gun: &GunRating,
    ut: &UnitType,
    from: Coord,
    to: Coord,
) -> Result<(), Refusal> {
    let aid = &world.resource::<AidRes>().0;
    let range = Hexes(from.distance(to));
    if range.0 == 0 {
        return Err(refuse(GunRefusal::OwnHex));
    }
    if crate::rules::fortifications::across_cliff(&world.resource::<BoardRes>().0, from, to) {
        return Err(refuse(GunRefusal::AcrossCliff));
    }
    let conditions = super::fire::fire_conditions(world);
    let max = Hexes(u32::from(aid.night.vehicle_gun_max_range));
    if conditions == Conditions::Night && range > max {
        return Err(refuse(GunRefusal::BeyondNightRange { range, max }));
    }
    let mut ctx = FireContext::new(
        FireKind::Normal,
        crate::rules::fire::Firer::of(ut, false),
        range,
        "open",
    );
    ctx.conditions = conditions;
    gun_fp(aid, gun, &ctx).map(|_| ()).map_err(refuse)
}

/// Checks a Gun's fire order (R 6.1 as for a Squad, R 20.4): the target
/// hex, the range, and the facing it fires with, turning toward the target
/// when it is outside the arc and no facing is given.
pub fn check_fire(
    world: &mut World,
    firer: Entity,
    target: &str,
    wanted: Option<Spine>,
) -> Result<(Coord, Option<FireFacing>), Refusal> {
    let board = world.resource::<BoardRes>().0.clone();
    let to = Coord::parse(target, board.columns, board.rows).map_err(|_| Refusal::BadHex {
        label: target.to_string(),
    })?;
    let (unit, from) = place(world, firer).ok_or(Refusal::UnknownUnit {
        unit: crate::world::UnitId::default(),
    })?;
    let (ut, gun) = gun_type(world, firer).ok_or(Refusal::UnknownUnit {
        unit: unit.id.clone(),
    })?;
    if from == to {
        return Err(refuse(GunRefusal::OwnHex));
    }
    super::fire::check_target_hex(world, firer, from, to)?;
    check_range(world, &gun, &ut, from, to)?;
    super::night::check_sight(world, firer, to)?;
    let ff = aim_from(world, firer, from, to, wanted, false).map_err(|r| Refusal::Facing {
        unit: unit.id,
        reason: r.to_string(),
    })?;
    Ok((to, Some(ff)))
}

/// Plays a checked fire order by a Gun (R 20.4, R 20.5): Used; the MC
/// (R 20.2); LOS; the turn; the Prof Check if one is required; then the
/// attack on every unit in the hex.
pub fn execute_fire(
    world: &mut World,
    firer: Entity,
    to: Coord,
    facing: Option<FireFacing>,
    events: &mut Vec<GameEvent>,
) {
    mark(world, firer, |m| m.used = true);
    fire_at(world, firer, to, FireKind::Normal, facing, None, events);
}

/// Whether a Gun may Op Fire (not yet Used) or Final Op Fire (Used) at a
/// unit moving into `at` (R 9.0, R 20.4, R 20.7): in range and LOS, and
/// for Final Op Fire only into an adjacent hex within its arc as placed.
pub fn may_op_fire(
    world: &World,
    firer: Entity,
    at: Coord,
    kind: FireKind,
    wanted: Option<Spine>,
) -> Result<OpFirePlan, Refusal> {
    let (unit, from) = place(world, firer).ok_or(Refusal::UnknownUnit {
        unit: crate::world::UnitId::default(),
    })?;
    let not_eligible = || Refusal::NotEligible {
        unit: unit.id.clone(),
        at: at.label(),
    };
    let (ut, gun) = gun_type(world, firer).ok_or_else(not_eligible)?;
    check_range(world, &gun, &ut, from, at).map_err(|_| not_eligible())?;
    let final_op_fire = kind == FireKind::FinalOpFire;
    if final_op_fire && from.distance(at) > 1 {
        return Err(not_eligible());
    }
    super::night::check_sight(world, firer, at).map_err(|_| not_eligible())?;
    let query = super::fortifications::los_query(world, firer, at, false);
    if super::mortar::fire_los(world, firer, &query, false)
        .los
        .is_blocked()
    {
        return Err(not_eligible());
    }
    let ff =
        aim_from(world, firer, from, at, wanted, final_op_fire).map_err(|r| Refusal::Facing {
            unit: unit.id.clone(),
            reason: r.to_string(),
        })?;
    Ok(OpFirePlan {
        kind,
        cp_range: false,
        facing: Some(ff),
    })
}

/// A Gun's shot at the units in `to` (R 20.2, R 20.4, R 20.5); the caller
/// has marked it Used. `mover` is the unit moving into `to` under Op Fire.
pub fn fire_at(
    world: &mut World,
    firer: Entity,
    to: Coord,
    kind: FireKind,
    facing: Option<FireFacing>,
    mover: Option<Entity>,
    events: &mut Vec<GameEvent>,
) -> MoverFate {
    let Some((unit, from)) = place(world, firer) else {
        return MoverFate::NotHit;
    };
    let Some((_, gun)) = gun_type(world, firer) else {
        return MoverFate::NotHit;
    };
    let marked = attack_under_way(world, firer).from_op_fire_marker;
    let done = |world: &mut World| {
        mark_attack(world, firer, |a| {
            a.turned = false;
            a.from_op_fire_marker = false;
        });
    };
    // A Gun must pass an MC whenever it fires (R 20.2).
    if !super::checks::morale_check_to_act(world, firer, "R 20.2", events) {
        events.push(GameEvent::FireFailed { unit: unit.id });
        done(world);
        return MoverFate::NotHit;
    }
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let Some(sight) = super::fire::sight_or_no_los(&board, &aid, &unit.id, from, to, events) else {
        done(world);
        return MoverFate::NotHit;
    };
    let old = facing_of(world, firer, from, to);
    let turned = facing.is_some_and(|f| f.changed);
    if let Some(f) = facing {
        world.entity_mut(firer).insert(Facing(f.facing));
        if f.changed {
            mark_attack(world, firer, |a| a.turned = true);
            events.push(GameEvent::Gun(GunEvent::Turned {
                unit: unit.id.clone(),
                facing: f.facing,
            }));
        }
    }
    let shot = shot_of(world, from, to, kind, turned, marked, &sight);
    if let Some(check) = prof_check(&aid.gun_prof, gun.prof, &shot) {
        let roll: D10 = world.resource_mut::<Dice>().d10();
        let passed = check.passes(roll);
        events.push(GameEvent::Gun(GunEvent::ProfCheck {
            unit: unit.id.clone(),
            arithmetic: check.arithmetic(),
            target: check.target,
            roll: roll.0,
            passed,
        }));
        if !passed {
            // Op Fire and Final Op Fire: back to the old facing (R 20.4).
            if turned && kind != FireKind::Normal {
                world.entity_mut(firer).insert(Facing(old));
                events.push(GameEvent::Gun(GunEvent::FacingReturned {
                    unit: unit.id.clone(),
                    facing: old,
                }));
            }
            done(world);
            return MoverFate::NotHit;
        }
    }
    super::concealment::lose_concealment(world, firer, "it fired", events);
    super::night::fired(world, firer);
    let fate = super::fire::attack_location(world, firer, to, kind, &sight, mover, events);
    mark_attack(world, firer, |a| {
        a.turned = false;
        a.from_op_fire_marker = false;
    });
    fate
}

/// A Gun's shot from `from` at `to` as the Prof Check sees it (PAC §3):
/// range, Smoke and Hindrances on the thread, a higher target, Night.
fn shot_of(
    world: &World,
    from: Coord,
    to: Coord,
    kind: FireKind,
    turned: bool,
    marked_op_fire: bool,
    sight: &Sight,
) -> GunShot {
    let board = &world.resource::<BoardRes>().0;
    GunShot {
        kind,
        range: Hexes(from.distance(to)),
        marked_op_fire,
        turned,
        smoke: super::smoke::impact(world, &sight.smoke),
        target_higher: unit_level(board, to, false) > unit_level(board, from, false),
        hindrances: sight.hindrances,
        conditions: super::fire::fire_conditions(world),
    }
}

/// The Prof Check a Gun would take to fire at `to` now (R 20.4), for the
/// fire preview: it turns if its arc does not hold the target, and a Gun
/// marked Op Fire gets +1 for Op Fire. The attack itself builds the same
/// [`GunShot`].
pub fn prospective_prof(
    world: &World,
    firer: Entity,
    to: Coord,
    kind: FireKind,
    sight: &Sight,
) -> Option<ProfCheck> {
    let (_, gun) = gun_type(world, firer)?;
    let from = world.get::<Location>(firer)?.coord;
    let turned = aim_from(world, firer, from, to, None, kind == FireKind::FinalOpFire)
        .is_ok_and(|f| f.changed);
    let marked = kind == FireKind::OpFire && marks(world, firer).op_fire;
    let shot = shot_of(world, from, to, kind, turned, marked, sight);
    prof_check(&world.resource::<AidRes>().0.gun_prof, gun.prof, &shot)
}

/// A Gun's attack on one target: its FP arithmetic, and the Casualty the
/// target shows when it is a Gun itself (R 20.2).
pub type GunAttack = (FpBreakdown, Option<(u8, Option<u8>)>);

/// A Gun's FP at one target (R 20.5), and the Casualty that target shows
/// to a Gun (R 20.2: a Gun target's second number). `None` if `firer` is
/// not a Gun; `Some(Err)` if the attack is not allowed.
pub fn gun_breakdown(
    world: &World,
    firer: Entity,
    target: Entity,
    ctx: &FireContext,
) -> Option<Result<GunAttack, FireRefusal>> {
    let (_, gun) = gun_type(world, firer)?;
    let aid = &world.resource::<AidRes>().0;
    let mut ctx = *ctx;
    // A higher target is a Prof Check modifier for a Gun, not FP (PAC §2a).
    if ctx.target.elevation == Elevation::Higher {
        ctx.target.elevation = Elevation::Level;
    }
    let casualty = gun_type(world, target).map(|(_, g)| crate::rules::gun::casualty(&g, true));
    Some(gun_fp(aid, &gun, &ctx).map(|b| (b, casualty)))
}

/// A Gun may not move to a new hex (R 20.2); it may turn within its hex
/// when it fires.
pub fn check_move(world: &World, unit: Entity) -> Result<(), Refusal> {
    if let Some((ut, _)) = gun_type(world, unit) {
        return Err(Refusal::Gun {
            unit: world
                .get::<Unit>(unit)
                .map(|u| u.id.clone())
                .unwrap_or_default(),
            reason: format!("a {} may not move to a new hex (R 20.2)", ut.name),
        });
    }
    Ok(())
}

/// R 33.0: a Squad armed with a Bazooka, Panzerschreck or PIAT firing at
/// an unconcealed Gun, WT or Pillbox within its SATW's Range (in the
/// scenario's year): +1 FP (`ctx.satw_bonus`). The cheap checks come
/// first: most firers carry no such weapon.
pub fn satw_bonus(
    world: &mut World,
    firer: &UnitType,
    target: &UnitType,
    ctx: &FireContext,
    at: Coord,
) -> bool {
    let Some(kind) = firer.satw_weapon else {
        return false;
    };
    let aid = world.resource::<AidRes>().0.clone();
    let Some(weapon) = aid.satw_weapon(kind).filter(|w| w.vs_gun_wt) else {
        return false;
    };
    let Some(year) = crate::rules::satw::year(
        &world
            .resource::<crate::world::ActiveScenario>()
            .scenario
            .date,
    ) else {
        return false;
    };
    let mut q = world.query::<(&crate::world::FortificationCounter, &Location)>();
    let in_pillbox = q.iter(world).any(|(f, l)| {
        l.coord == at
            && !f.concealed
            && f.kind == crate::scenario::schema::FortificationKind::Pillbox
    });
    crate::rules::satw::gun_wt_bonus(
        weapon,
        year,
        &crate::rules::satw::SatwShot {
            firer: firer.class,
            target: target.class,
            target_concealed: ctx.target_concealed.is_some(),
            in_pillbox,
            range: ctx.range,
            kind: ctx.kind,
        },
    )
}

/// R 33.0, R 20.2: with the SATW bonus, a Gun shows its second (lower)
/// Casualty number.
pub fn satw_casualty(target: &UnitType, satw_bonus: bool) -> Option<(u8, Option<u8>)> {
    target
        .gun
        .filter(|_| satw_bonus)
        .map(|g| crate::rules::gun::casualty(&g, true))
}
