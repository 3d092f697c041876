//! Infantry fire in the Operations Phase — R 6.0 (Infantry Fire: the MC to
//! fire, Range), R 6.1 (restrictions), R 6.2 (one roll against each unit in
//! the location), R 7.0 (Suppression), R 8.0 (Casualties), R 14.0 (a failed
//! LOS marks the firer Used), R 15.0 (Concealment lost by firing and by
//! Suppression). The FP arithmetic is `rules::fire`; this room gathers its
//! inputs from the world and applies the results.
//!
//! Facing (R 2.2, when the scenario uses it): fire only to the front,
//! turning as it fires for −1 (R 6.0), flank fire +1 (R 6.2). CPs: +1 Prof
//! FP readied on the firer (R 3.0 #5), Final Op Fire beyond one hex (R 10.0).
//!
//! Not yet here: Fire Lanes and the reveal of Concealed Fortifications
//! (R 43.0), Smoke. Combat Events (R 17.0) follow each attack
//! (`combat_events`).

use crate::world::UnitId;
use bevy::prelude::*;

use crate::rules::Hexes;
use crate::rules::facing::{FireFacing, facing_toward, fire_facing, flank_fire, in_front};
use crate::rules::fire::{
    Conceal, Elevation, FireContext, FireKind, FireOutcome, Firer, FpBreakdown, Motion,
    TargetTerrain, hexside_protection, infantry_fp,
};
use crate::rules::los::{Los, LosQuery, line_of_sight, unit_level};
use crate::scenario::Coord;
use crate::scenario::schema::Spine;
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Concealed, Facing, Location, RosterRes, Suppression, Unit,
    attack_under_way, mark, mark_attack,
};

use super::Dice;
use super::casualties::{By, Hit};
use super::command_points::CpFunction;
use super::events::GameEvent;
use super::orders::Refusal;

/// Whether this scenario plays with Infantry facing (R 2.2: optional in
/// Europe, required in the Pacific).
pub fn facing_in_use(world: &World) -> bool {
    world
        .resource::<ActiveScenario>()
        .scenario
        .special_rules
        .facing_required
}

/// The facing a unit keeps when it fires: none while Concealed (it chooses
/// one as it loses Concealment, R 2.2) or still to choose one after losing
/// it, else its counter's.
pub fn kept_facing(world: &World, unit: Entity) -> Option<Spine> {
    if world.get::<Concealed>(unit).is_some()
        || world
            .get::<super::concealment::FacingAwaited>(unit)
            .is_some()
    {
        return None;
    }
    world.get::<Facing>(unit).map(|f| f.0)
}

/// The facing a firer would fire with at `to`, when facing is in use
/// (R 2.2, R 6.0, R 10.1); `None` when it is not. With no facing asked
/// for, a unit whose front does not hold the target turns toward it.
pub fn check_facing(
    world: &World,
    firer: Entity,
    to: Coord,
    wanted: Option<Spine>,
    may_turn: bool,
) -> Result<Option<FireFacing>, Refusal> {
    if !facing_in_use(world) {
        return Ok(None);
    }
    let Ok((unit, from)) = unit_and_place(world, firer) else {
        return Ok(None);
    };
    let kept = kept_facing(world, firer);
    if fires_any_direction(world, firer) {
        // It keeps the facing it has (a Concealed one takes one as it is
        // revealed, R 2.2) and fires whatever the target's direction.
        let facing = kept.or(wanted).unwrap_or_else(|| facing_toward(from, to));
        return Ok(Some(FireFacing {
            facing,
            changed: false,
        }));
    }
    // With no facing asked for, a unit whose front does not hold the target
    // turns toward it.
    let wanted = wanted.or_else(|| {
        kept.filter(|k| !in_front(from, *k, to))
            .map(|_| facing_toward(from, to))
    });
    fire_facing(from, to, kept, wanted, may_turn)
        .map(Some)
        .map_err(|r| Refusal::Facing {
            unit: unit.id,
            reason: r.to_string(),
        })
}

/// R 43.3 Pillboxes and Bunkers: "Units can fire in any direction." No
/// turn, so no −1 (R 6.0) and no refusal for Final Op Fire (R 10.1); a
/// Gun keeps its arc (`engine::gun`).
fn fires_any_direction(world: &World, firer: Entity) -> bool {
    let Some(loc) = world.get::<Location>(firer) else {
        return false;
    };
    !super::gun::is_gun(world, firer)
        && crate::rules::fortifications::fires_any_direction(super::fortifications::kind_at(
            world,
            loc.coord,
            loc.in_cave,
        ))
}

/// The firer takes the facing it fires with, after its MC (R 2.2: a unit
/// that fails its MC does not change facing); a turn is marked for the −1
/// of this attack (R 6.0).
pub fn take_facing(
    world: &mut World,
    firer: Entity,
    facing: Option<FireFacing>,
    events: &mut Vec<GameEvent>,
) {
    let Some(ff) = facing else {
        return;
    };
    let concealed = world.get::<Concealed>(firer).is_some();
    let id = world
        .get::<Unit>(firer)
        .map(|u| u.id.clone())
        .unwrap_or_default();
    if ff.changed || concealed {
        events.push(GameEvent::FacingTaken {
            unit: id,
            facing: ff.facing,
            turned: ff.changed,
        });
    }
    world.entity_mut(firer).insert(Facing(ff.facing));
    if ff.changed {
        mark_attack(world, firer, |a| a.turned = true);
    }
}

/// Checks a fire order before anything happens (R 6.0, R 6.1): the target hex
/// exists and holds enemy units and no friendly ones, the firer is not in an
/// enemy's location, the attack is one the rules allow (range, kind), and
/// the target is to the front of the facing it fires with (R 2.2, R 6.0).
pub fn check_fire(
    world: &mut World,
    firer: Entity,
    target: &str,
    facing: Option<Spine>,
) -> Result<(Coord, Option<FireFacing>), Refusal> {
    // A Gun fires with its own values and arc (R 20.4, R 20.5).
    if super::gun::is_gun(world, firer) {
        return super::gun::check_fire(world, firer, target, facing);
    }
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    // `K5/cave` names the Cave below K5 (R 43.4).
    let (hex, into_cave) = crate::rules::fortifications::split_label(target);
    let to = Coord::parse(hex, board.columns, board.rows).map_err(|_| Refusal::BadHex {
        label: target.to_string(),
    })?;
    let (unit, from) = unit_and_place(world, firer)?;
    if into_cave {
        super::fortifications::check_cave_target(world, firer, to)?;
    } else {
        check_target_hex(world, firer, from, to)?;
    }
    let ut = roster_type(world, &unit)?;
    let mut ctx = FireContext::new(
        FireKind::Normal,
        Firer::of(&ut, unit.reduced),
        Hexes(from.distance(to)),
        "open",
    );
    // At Night: Normal Range only, at seen targets (R 50.2); in the
    // Monsoon rain: range at most three (R 55.2).
    ctx.conditions = fire_conditions(world);
    infantry_fp(&aid, &ctx).map_err(|r| Refusal::Fire {
        reason: r.to_string(),
    })?;
    super::night::check_sight(world, firer, to)?;
    // Where a Mortar may fire from (R 31.0).
    super::mortar::check_position(world, firer)?;
    let facing = check_facing(world, firer, to, facing, true)?;
    Ok((to, facing))
}

/// R 6.1 for `firer` firing from `from` at `to`: enemy units in `to` and
/// no friendly infantry, no enemy unit in `from`.
pub fn check_target_hex(
    world: &mut World,
    firer: Entity,
    from: Coord,
    to: Coord,
) -> Result<(), Refusal> {
    let Some(side) = world.entity(firer).get::<Unit>().map(|u| u.side) else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    // A Cave is a location of its own (R 43.4).
    let firer_in_cave = world.get::<Location>(firer).is_some_and(|l| l.in_cave);
    let mut enemies_there = 0;
    let all =
        crate::world::queries::collect::<(Entity, &Unit, &Location), (), _>(world, |(e, u, l)| {
            (e, u.side, *l)
        });
    for (e, unit_side, l) in all {
        if e == firer {
            continue;
        }
        if l.coord == to && !l.in_cave && unit_side == side {
            return Err(Refusal::FriendlyInTarget { at: to.label() });
        }
        if l.coord == to && !l.in_cave {
            enemies_there += 1;
        }
        if l.coord == from && l.in_cave == firer_in_cave && unit_side != side {
            return Err(Refusal::EnemyInOwnHex);
        }
    }
    if enemies_there == 0 {
        return Err(Refusal::NoTarget { at: to.label() });
    }
    Ok(())
}

fn unit_and_place(world: &World, e: Entity) -> Result<(Unit, Coord), Refusal> {
    let er = world.entity(e);
    match (er.get::<Unit>(), er.get::<Location>()) {
        (Some(u), Some(l)) => Ok((u.clone(), l.coord)),
        _ => Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        }),
    }
}

/// Plays a checked fire order: the MC to fire, LOS, then one roll against
/// The LOS for an attack from `from` to `to` (R 14.0); when it is blocked,
/// logs why and gives `None` (the firer is then Used, R 14.0).
pub fn sight_or_no_los(
    board: &crate::world::board::Board,
    aid: &crate::scenario::PlayerAid,
    unit: &str,
    from: Coord,
    to: Coord,
    events: &mut Vec<GameEvent>,
) -> Option<crate::rules::los::Sight> {
    sight_of(board, aid, unit, &LosQuery::new(from, to), events)
}

/// [`sight_or_no_los`] for any LOS question (a Cave at either end, R 43.4).
pub fn sight_of(
    board: &crate::world::board::Board,
    aid: &crate::scenario::PlayerAid,
    unit: &str,
    query: &LosQuery,
    events: &mut Vec<GameEvent>,
) -> Option<crate::rules::los::Sight> {
    seen_or_no_los(line_of_sight(board, aid, query), unit, query, events)
}

/// The thread's Sight, or the `NoLos` event for a blocked one (R 14.0).
pub fn seen_or_no_los(
    los: Los,
    unit: &str,
    query: &LosQuery,
    events: &mut Vec<GameEvent>,
) -> Option<crate::rules::los::Sight> {
    match los {
        Los::Blocked { at, reason } => {
            events.push(GameEvent::NoLos {
                unit: UnitId::from(unit),
                target: crate::rules::fortifications::place_label(query.to, query.to_in_cave),
                why: format!("blocked at {} by {}", at.label(), reason.describe()),
            });
            None
        }
        Los::Seen(s) => Some(s),
    }
}

/// every unit in the target location, each with its own modifiers.
pub fn execute_fire(
    world: &mut World,
    firer: Entity,
    to: Coord,
    facing: Option<FireFacing>,
    events: &mut Vec<GameEvent>,
) {
    if super::gun::is_gun(world, firer) {
        super::gun::execute_fire(world, firer, to, facing, events);
        return;
    }
    let Ok((unit, _)) = unit_and_place(world, firer) else {
        return;
    };
    mark(world, firer, |m| m.used = true);
    if !super::checks::morale_check_to_act(world, firer, "R 6.0", events) {
        events.push(GameEvent::FireFailed {
            unit: unit.id.clone(),
        });
        return;
    }
    let into_cave = super::fortifications::attacks_cave(world, firer, None);
    let query = super::fortifications::los_query(world, firer, to, into_cave);
    // A Mortar without LOS may fire by Directed Fire (R 31.1).
    let Some((sight, directed)) =
        super::mortar::sight_or_no_los(world, firer, &unit.id, &query, false, events)
    else {
        mark_attack(world, firer, |a| a.into_cave = false);
        return;
    };
    take_facing(world, firer, facing, events);
    // The firer that fires loses its Conceal counter (R 15.0).
    super::concealment::lose_concealment(world, firer, "it fired", events);
    // Its Muzzle Flash may be answered (R 50.2).
    super::night::fired(world, firer);
    let extras = AttackExtras {
        directed,
        ..AttackExtras::default()
    };
    attack_location_with(
        world,
        firer,
        to,
        FireKind::Normal,
        &sight,
        None,
        extras,
        events,
    );
    super::combat_events::after_attack(world, events);
    // A Combat Event may have eliminated the firer (R 17.0).
    mark_attack(world, firer, |a| {
        a.turned = false;
        a.into_cave = false;
    });
}

/// How one attack on a location went for a moving unit in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoverFate {
    NotHit,
    Suppressed,
    Gone,
}

/// Choices of the firing player that change one attack: the CP raising
/// Prof FP by 1 up to Normal (R 3.0 use 5, R 5.2), a Fireteam's Assault
/// Fire before or mid move (R 58.3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AttackExtras {
    pub cp_prof_bonus: bool,
    pub fireteam_mid_move: bool,
    /// A Mortar WT fires through a spotter's LOS: −1 (R 31.1).
    pub directed: bool,
}

/// One unit in the attacked location, as the attack sees it.
#[derive(Debug, Clone)]
pub struct TargetPlan {
    pub entity: Entity,
    pub unit: Unit,
    /// The FP arithmetic against this unit, line by line.
    pub breakdown: FpBreakdown,
    /// The casualty numbers of the side it shows (R 2.1).
    pub casualty: (u8, Option<u8>),
    pub suppression: Option<Suppression>,
    pub concealed: bool,
    /// The attack with the target's Concealed Fortification, used if the
    /// roll reveals it (R 43.0); `breakdown` is the attack without it.
    pub hidden_fortification: Option<FireContext>,
}

/// An attack before its roll: the firer and every unit it will roll
/// against. The fire preview and the attack itself both build it here.
#[derive(Debug, Clone)]
pub struct AttackPlan {
    pub firer: Unit,
    pub targets: Vec<TargetPlan>,
    /// A CP readied for +1 Prof FP is part of this attack (R 3.0 #5).
    pub cp_prof: bool,
}

/// The roster entry of `unit`; a unit type missing from the roster is
/// refused by name, never a panic.
pub fn roster_type(
    world: &World,
    unit: &Unit,
) -> Result<crate::scenario::roster::UnitType, Refusal> {
    world
        .resource::<RosterRes>()
        .0
        .get(&unit.kind)
        .cloned()
        .ok_or(Refusal::UnknownUnit {
            unit: unit.id.clone(),
        })
}

/// Builds the attack of `firer` on the location `to`: each unit in it with
/// its own modifiers (R 6.2); `mover` is the unit moving into the location,
/// if any (Op Fire, R 9.0), which is fired on as moving.
pub fn plan_attack(
    world: &mut World,
    firer: Entity,
    to: Coord,
    kind: FireKind,
    sight: &crate::rules::los::Sight,
    mover: Option<Entity>,
    extras: AttackExtras,
) -> Option<AttackPlan> {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let (unit, from) = unit_and_place(world, firer).ok()?;
    let ut = roster.get(&unit.kind)?.clone();
    // The hexside the thread crosses into the target hex (R 44.0, R 46.1).
    let hexside_key = hexside_protection(&board, from, to);
    // A live Roadblock is a Wall on its blocked hexside (R 43.7, R 46.1),
    // except for the Squad removing it.
    let roadblock =
        hexside_key.is_none() && super::obstacles::behind_roadblock(world, &board, from, to);
    let clearing = super::obstacles::clearing_unit(world);
    // The Cave below the hex is a location of its own (R 43.4).
    let into_cave = super::fortifications::attacks_cave(world, firer, mover);
    let firer_in_cave = world.get::<Location>(firer).is_some_and(|l| l.in_cave);
    let firer_level = unit_level(&board, from, firer_in_cave);
    let target_level = unit_level(&board, to, into_cave);
    let elevation = match target_level.cmp(&firer_level) {
        std::cmp::Ordering::Greater => Elevation::Higher,
        std::cmp::Ordering::Less => Elevation::Lower,
        std::cmp::Ordering::Equal => Elevation::Level,
    };
    let mut terrain_key = board.cell(to).map_or("open", |c| c.terrain.key());
    // The Fortification in the target location; a Concealed one counts only
    // once revealed by the roll (R 43.0). Fire Lanes, Wire (R 43.0, R 43.6).
    let mut defence = super::fortifications::defending(world, to, into_cave);
    if into_cave && super::fortifications::cave_modifier_waived(world, to, from) {
        // From a front hex the Cave's modifier is 0 (R 43.4).
        defence = None;
        terrain_key = "open";
    }
    let fortification = defence.filter(|d| !d.1).map(|d| d.0);
    let hidden_key = defence.filter(|d| d.1).map(|d| d.0);
    let fire_lane = super::fortifications::fire_lane(world, firer, to);
    let conditions = fire_conditions(world);
    let firer_in_wire = super::fortifications::in_wire(world, firer);
    let attack = attack_under_way(world, firer);
    let (turned, marked) = (attack.turned, attack.from_op_fire_marker);
    let facing_rule = facing_in_use(world);
    // Adjacent as R 43.4 and R 47.4 have it: a Cave only to its two front
    // hexes, never across a Cliff.
    let adjacent = crate::rules::fortifications::adjacent(
        &board,
        crate::rules::fortifications::Place {
            coord: from,
            in_cave: firer_in_cave,
        },
        crate::rules::fortifications::Place {
            coord: to,
            in_cave: into_cave,
        },
    );
    // A Used unit Final Op Firing at a unit not adjacent spent a CP to do
    // so (R 10.0).
    let cp_range = kind == FireKind::FinalOpFire && !adjacent;
    // A CP readied for +1 Prof FP counts only when the raise fits under
    // Normal FP (R 3.0 #5, R 9.0); the attack spends it.
    let cp_prof =
        kind.uses_prof() && super::command_points::is_ready(world, firer, CpFunction::ProfFp) && {
            let mut probe = FireContext::new(
                kind,
                Firer::of(&ut, unit.reduced),
                Hexes(from.distance(to)),
                "open",
            );
            probe.firer_marked_op_fire = kind == FireKind::OpFire && marked;
            probe.cp_prof_bonus = true;
            probe.cp_final_op_fire_range = cp_range;
            probe.changed_facing = turned;
            probe.conditions = conditions;
            infantry_fp(&aid, &probe).is_ok()
        };
    let mut found: Vec<(Entity, Unit, Option<Concealed>, Option<Suppression>)> =
        crate::world::queries::with_query::<
            (
                Entity,
                &Unit,
                &Location,
                Option<&Concealed>,
                Option<&Suppression>,
            ),
            (),
            _,
        >(world, |q| {
            q.filter(|(_, u, l, _, _)| {
                l.coord == to && u.side != unit.side && l.in_cave == into_cave
            })
            .map(|(e, u, _, c, s)| (e, u.clone(), c.copied(), s.copied()))
            .collect()
        });
    // The targets in the order of their ids, not of the world's storage: a
    // world rebuilt from a saved position stores its units in another order,
    // and the log must read the same whichever way the game got there.
    found.sort_by(|a, b| a.1.id.cmp(&b.1.id));
    // The mover's last step, into `to`: Trench to Trench is not moving in
    // Open Ground (R 43.2); across a Path hexside it moves on the Path
    // (R 53.0).
    let last_step = world
        .get_resource::<super::movement::MoveInProgress>()
        .and_then(|m| match m.trail.as_slice() {
            [.., a, b] => Some((*a, *b)),
            _ => None,
        })
        .filter(|(_, b)| *b == to);
    let in_trench =
        last_step.is_some_and(|(a, b)| crate::rules::movement::trench_step(&board, a, b));
    let on_path = last_step.is_some_and(|(a, b)| crate::rules::movement::path_step(&board, a, b));
    let mut targets = Vec::new();
    for (target, tu, concealed, suppression) in found {
        let Some(tt) = roster.get(&tu.kind) else {
            continue;
        };
        let mut ctx = FireContext::new(
            kind,
            Firer::of(&ut, unit.reduced),
            Hexes(from.distance(to)),
            terrain_key,
        );
        ctx.adjacent = adjacent;
        ctx.firer_marked_op_fire = kind == FireKind::OpFire && marked;
        // Night or Monsoon rain: the moving-in-Open bonus and range (R 50.2, R 55.2).
        ctx.conditions = conditions;
        ctx.cp_prof_bonus = extras.cp_prof_bonus;
        ctx.fireteam_mid_move = extras.fireteam_mid_move;
        ctx.directed = extras.directed;
        if Some(target) == mover {
            let open_ground = !in_trench
                && board
                    .cell(to)
                    .and_then(|c| aid.terrain_row(c.terrain.key()))
                    .is_some_and(|r| !r.beneficial);
            // On a Path, fired on by an adjacent unit: no terrain benefit,
            // yet not moving in Open Ground (R 53.0).
            ctx.target_motion = Motion::Moving {
                open_ground,
                on_path,
            };
        }
        ctx.target = TargetTerrain {
            hex: terrain_key,
            fortification,
            hexside: if roadblock && clearing != Some(target) {
                Some("wall")
            } else {
                hexside_key
            },
            elevation,
        };
        ctx.target_concealed = concealed.map(|c| {
            if c.minus_two {
                Conceal::JapaneseMinusTwo
            } else {
                Conceal::Standard
            }
        });
        ctx.hindrances = sight.hindrances;
        ctx.hindered_line = sight.through_hindering;
        ctx.smoke = super::smoke::impact(world, &sight.smoke);
        ctx.fire_lane = fire_lane;
        ctx.firer_in_wire = firer_in_wire;
        ctx.changed_facing = turned;
        ctx.cp_final_op_fire_range = cp_range;
        ctx.cp_prof_bonus = ctx.cp_prof_bonus || cp_prof;
        // Flank fire at a unit with a facing: not moving, not Concealed,
        // not still to choose its facing after losing its counter (R 2.2,
        // R 6.2).
        ctx.flank = facing_rule
            && Some(target) != mover
            && concealed.is_none()
            && flank_fire(to, kept_facing(world, target), from);
        // A Bazooka/Panzerschreck/PIAT Squad at a Gun, WT or Pillbox (R 33.0).
        ctx.satw_bonus = super::gun::satw_bonus(world, &ut, tt, &ctx, to);
        // A Gun fires with its own FP and the V/G column (R 20.5).
        let (breakdown, gun_casualty) = match super::gun::gun_breakdown(world, firer, target, &ctx)
        {
            Some(Ok(b)) => b,
            Some(Err(_)) => continue,
            None => match infantry_fp(&aid, &ctx) {
                Ok(b) => (b, None),
                // A row the rules read is missing: the Player Aid is
                // checked for every one at load (`PlayerAid::problems`), so
                // this is a key left out of that list. Said aloud, never a
                // crash that loses the game (R 43.6 was once lost so).
                Err(e @ crate::rules::fire::FireRefusal::MissingData { .. }) => {
                    error!("{e}: add the key to `FIRE_SITUATIONS`");
                    continue;
                }
                Err(_) => continue,
            },
        };
        let side = if tu.reduced { tt.reduced } else { tt.full };
        let hidden_key = hidden_key.filter(|_| !super::gun::is_gun(world, firer));
        let hidden_fortification = hidden_key.filter(|_| Some(target) != mover).map(|k| {
            let mut c = ctx;
            c.target.fortification = Some(k);
            c
        });
        targets.push(TargetPlan {
            entity: target,
            unit: tu,
            breakdown,
            casualty: gun_casualty
                .or_else(|| super::gun::satw_casualty(tt, ctx.satw_bonus))
                .unwrap_or(side.casualty),
            suppression,
            concealed: concealed.is_some(),
            hidden_fortification,
        });
    }
    Some(AttackPlan {
        firer: unit,
        targets,
        cp_prof,
    })
}

/// One attack on every unit in a location with one roll (R 6.2), each unit
/// with its own modifiers; `mover` is the unit moving into the location, if
/// any (Op Fire, R 9.0), which is fired on as moving.
pub fn attack_location(
    world: &mut World,
    firer: Entity,
    to: Coord,
    kind: FireKind,
    sight: &crate::rules::los::Sight,
    mover: Option<Entity>,
    events: &mut Vec<GameEvent>,
) -> MoverFate {
    let extras = AttackExtras::default();
    attack_location_with(world, firer, to, kind, sight, mover, extras, events)
}

/// [`attack_location`] with the firing player's choices.
#[allow(clippy::too_many_arguments)]
pub fn attack_location_with(
    world: &mut World,
    firer: Entity,
    to: Coord,
    kind: FireKind,
    sight: &crate::rules::los::Sight,
    mover: Option<Entity>,
    extras: AttackExtras,
    events: &mut Vec<GameEvent>,
) -> MoverFate {
    let aid = world.resource::<AidRes>().0.clone();
    let Some(plan) = plan_attack(world, firer, to, kind, sight, mover, extras) else {
        return MoverFate::NotHit;
    };
    let mut fate = MoverFate::NotHit;
    if plan.cp_prof {
        super::command_points::use_ready(world, firer, CpFunction::ProfFp, events);
    }
    let roll = world.resource_mut::<Dice>().d10();
    let into_cave = super::fortifications::attacks_cave(world, firer, mover);
    events.push(GameEvent::FireRoll {
        unit: plan.firer.id.clone(),
        target: crate::rules::fortifications::place_label(to, into_cave),
        roll: roll.0,
    });
    for t in plan.targets {
        // A Concealed Fortification may be revealed by the roll (R 43.0).
        let (breakdown, outcome, revealed) =
            super::fortifications::resolve_target(world, &aid, &t, to, roll);
        events.push(GameEvent::FireResult {
            target: t.unit.id.clone(),
            arithmetic: breakdown
                .lines
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
            fp: breakdown.total,
            roll: roll.0,
            outcome,
        });
        if let Some(changed) = revealed {
            super::fortifications::after_reveal(world, to, &t.unit.id, changed, events);
        }
        let gone = apply_outcome(world, t.entity, outcome, events);
        if Some(t.entity) == mover {
            fate = if gone {
                MoverFate::Gone
            } else if outcome == FireOutcome::NoEffect {
                MoverFate::NotHit
            } else {
                MoverFate::Suppressed
            };
        }
    }
    super::fortifications::sweep(world, events);
    super::combat_events::note_attack(world, firer, to, roll);
    fate
}

/// Applies a fire result to one unit (R 6.2, R 7.0, R 8.0, R 15.0): the
/// casualty writer's hit, a Reduced unit Fully Suppressed, a Suppressed unit
/// losing its Conceal counter (a Decoy is removed). True when it is gone.
fn apply_outcome(
    world: &mut World,
    target: Entity,
    outcome: FireOutcome,
    events: &mut Vec<GameEvent>,
) -> bool {
    let hit = match outcome {
        FireOutcome::NoEffect => return false,
        FireOutcome::Suppressed => Hit::Suppress,
        FireOutcome::Reduced => Hit::Reduce,
        FireOutcome::Eliminated => Hit::Eliminate,
    };
    super::casualties::take(world, target, hit, By::Fire, events)
}

/// The conditions of a fire attack: Night (R 50.2) and the Monsoon's rain
/// (R 55.2), each with its limits, else day.
pub fn fire_conditions(world: &World) -> crate::rules::fire::Conditions {
    super::monsoon::with_rain(super::night::conditions(world), world)
}
