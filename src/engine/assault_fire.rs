//! Assault Fire — R 5.2: a moving Squad fires with its Prof FP after
//! entering a hex; it is then Used and its move is over. No MC to fire (it
//! passed one to move; a unit Suppressed as it entered passed its immediate
//! MC, R 9.0, or its move is already over), no facing penalty. R 58.3: a
//! Squad in Fireteams may instead Assault Fire once before or mid move, for
//! 2 MP and Prof −2, and go on moving. The attack is the shared one of
//! `engine::fire`.
//!
//! CP hook: the CP that raises Prof FP by 1, not above Normal (R 3.0 use 5,
//! R 5.2), is [`AttackExtras::cp_prof_bonus`]; `fire` takes the extras so
//! the Command Points room only has to set it.

use bevy::prelude::*;

use crate::rules::Hexes;
use crate::rules::fire::{FireContext, FireKind, Firer, infantry_fp};
use crate::rules::los::{Los, LosQuery, line_of_sight};
use crate::scenario::Coord;
use crate::world::{AidRes, BoardRes, Location, Unit};

use super::events::GameEvent;
use super::fire::sight_of;
use super::fire::{AttackExtras, attack_location_with};
use super::orders::Refusal;

/// Checks an Assault Fire from `from` at `target` before the move starts
/// (R 5.2, R 6.1, R 58.3): the target is on the map and holds enemy units
/// and no friendly ones, `from` holds no enemy, and the attack is one the
/// unit may make (a Squad; in Fireteams before or mid move; in range).
pub fn check_assault_fire(
    world: &mut World,
    entity: Entity,
    from: Coord,
    target: &str,
    fireteam_mid_move: bool,
) -> Result<Coord, Refusal> {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let to = Coord::parse(target, board.columns, board.rows).map_err(|_| Refusal::BadHex {
        label: target.to_string(),
    })?;
    let Some(unit) = world.entity(entity).get::<Unit>().cloned() else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    super::fire::check_target_hex(world, entity, from, to)?;
    let ut = super::fire::roster_type(world, &unit)?;
    let mut ctx = FireContext::new(
        FireKind::AssaultFire,
        Firer::of(&ut, unit.reduced),
        Hexes(from.distance(to)),
        "open",
    );
    ctx.fireteam_mid_move = fireteam_mid_move;
    infantry_fp(&aid, &ctx).map_err(|r| Refusal::AssaultFire {
        reason: r.to_string(),
    })?;
    if let Los::Blocked { at, reason } = line_of_sight(&board, &aid, &LosQuery::new(from, to)) {
        return Err(Refusal::AssaultFire {
            reason: format!(
                "no LOS from {} to {}: blocked at {} by {} (R 14.0)",
                from.label(),
                to.label(),
                at.label(),
                reason.describe()
            ),
        });
    }
    Ok(to)
}

/// Plays an Assault Fire from where the mover stands at `to`: the target
/// must still hold an enemy unit (a Decoy next to the mover may have gone),
/// LOS (R 14.0), the Conceal counter lost by firing (R 15.0), one attack.
/// `fireteam` carries the MPs spent and left for a Fireteam's fire (R 58.3).
pub fn assault_fire(
    world: &mut World,
    firer: Entity,
    to: Coord,
    fireteam: Option<(String, String)>,
    extras: AttackExtras,
    events: &mut Vec<GameEvent>,
) {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let unit = {
        let e = world.entity(firer);
        match (e.get::<Unit>(), e.get::<Location>()) {
            (Some(u), Some(_)) => u.clone(),
            _ => return,
        }
    };
    let mut q = world.query::<(&Unit, &Location)>();
    let enemy_there = q
        .iter(world)
        .any(|(u, l)| l.coord == to && u.side != unit.side);
    if !enemy_there {
        events.push(GameEvent::AssaultFireLost {
            unit: unit.id,
            why: format!("no enemy unit is left in {}", to.label()),
        });
        return;
    }
    events.push(GameEvent::AssaultFires {
        unit: unit.id.clone(),
        target: to.label(),
        fireteam,
    });
    // The thread as for any fire: Smoke on it modifies the attack (R 48.0).
    let query = super::fortifications::los_query(world, firer, to, false);
    let Some(sight) = sight_of(&board, &aid, &unit.id, &query, events) else {
        return;
    };
    super::concealment::lose_concealment(world, firer, "it fired", events);
    attack_location_with(
        world,
        firer,
        to,
        FireKind::AssaultFire,
        &sight,
        None,
        extras,
        events,
    );
    // At Night its Muzzle Flash may be answered (R 50.2): the caller opens
    // the response window before the move goes on or settles.
    super::night::fired(world, firer);
}
