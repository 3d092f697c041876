//! The Monsoon in the engine — R 55.2: the weather (`MonsoonState`, from
//! the scenario's `monsoon_storm` until a Storm Check changes it), the
//! Storm Check of the Recovery Phase, and the rain's limits on fire (the
//! `Conditions` of every attack: range at most three, moving in Open Ground
//! +2 / +1 / 0) and on movement (two hexes a turn).

use bevy::prelude::*;

use crate::rules::fire::Conditions;
use crate::rules::monsoon::{StormOutcome, check_hexes, storm_check};
use crate::scenario::schema::MonsoonStorm;
use crate::world::{ActiveScenario, AidRes};

use super::Dice;
use super::events::GameEvent;
use super::orders::Refusal;
use super::pacific::PacificEvent;

/// The weather of a Monsoon scenario once a Storm Check has changed it
/// (R 55.2); before that, the scenario's own.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonsoonState {
    pub raining: bool,
    /// The deluge started or stopped: no more Storm Checks.
    pub settled: bool,
}

/// The scenario's Storm Check, when the Monsoon rules are in effect.
fn storm(world: &World) -> Option<MonsoonStorm> {
    let rules = &world
        .get_resource::<ActiveScenario>()?
        .scenario
        .special_rules;
    if rules.monsoon {
        rules.monsoon_storm
    } else {
        None
    }
}

/// The weather now, if this is a Monsoon scenario.
pub fn state(world: &World) -> Option<MonsoonState> {
    state_of(
        world.get_resource::<ActiveScenario>()?,
        world.get_resource::<MonsoonState>(),
    )
}

/// The weather of `active` given the state a Storm Check left, if any.
pub fn state_of(active: &ActiveScenario, now: Option<&MonsoonState>) -> Option<MonsoonState> {
    let rules = &active.scenario.special_rules;
    let storm = rules.monsoon_storm.filter(|_| rules.monsoon)?;
    Some(now.copied().unwrap_or(MonsoonState {
        raining: storm.raining,
        settled: false,
    }))
}

/// Whether it rains in a Monsoon now (R 55.2).
pub fn raining(world: &World) -> bool {
    state(world).is_some_and(|s| s.raining)
}

/// The conditions of an attack: Monsoon rain or day (R 55.2).
pub fn conditions(world: &World) -> Conditions {
    if raining(world) {
        Conditions::MonsoonRain
    } else {
        Conditions::Day
    }
}

/// The conditions of an attack given the night's, if any: the rain adds
/// its three-hex limit to the dark's (R 50.2, R 55.2).
pub fn with_rain(night: Option<Conditions>, world: &World) -> Conditions {
    match (night, raining(world)) {
        (Some(_), true) => Conditions::NightRain,
        (Some(n), false) => n,
        (None, _) => conditions(world),
    }
}

/// R 55.2: "There is no Smoke, Illumination, Muzzle Flash, or Trip Flares"
/// while it rains in a Monsoon. `what` names the thing refused.
pub fn check_not_raining(world: &World, what: &str) -> Result<(), String> {
    if raining(world) {
        Err(format!("no {what} in the Monsoon rain (R 55.2)"))
    } else {
        Ok(())
    }
}

/// R 55.2: when the deluge starts the Smoke on the board is gone ("there
/// is no Smoke" while it rains).
fn rain_clears_smoke(world: &mut World, events: &mut Vec<GameEvent>) {
    let mut q = world.query_filtered::<Entity, With<super::smoke::SmokeCounter>>();
    let smoke: Vec<Entity> = q.iter(world).collect();
    if smoke.is_empty() {
        return;
    }
    for e in &smoke {
        world.entity_mut(*e).despawn();
    }
    events.push(GameEvent::Pacific(PacificEvent::RainClearsSmoke {
        count: smoke.len(),
    }));
}

/// R 55.2: in the rain Infantry moves at most two hexes a turn.
pub fn check_path(world: &World, path: &[String]) -> Result<(), Refusal> {
    if !raining(world) {
        return Ok(());
    }
    let max = world.resource::<AidRes>().0.constants.monsoon_max_hexes;
    check_hexes(path.len(), max).map_err(|n| Refusal::Step {
        n,
        to: path[n - 1].clone(),
        reason: format!("in the Monsoon rain Infantry moves at most {max} hexes a turn (R 55.2)"),
    })
}

/// The Recovery Phase: the first player's Monsoon Storm Check, until it
/// starts or stops raining (R 55.2).
pub fn storm_check_in_recovery(world: &mut World, events: &mut Vec<GameEvent>) {
    let (Some(storm), Some(now)) = (storm(world), state(world)) else {
        return;
    };
    if now.settled {
        return;
    }
    let roll = world.resource_mut::<Dice>().d10().0;
    let outcome = storm_check(&storm, now.raining, roll);
    let raining = match outcome {
        StormOutcome::Holds => now.raining,
        StormOutcome::Starts => true,
        StormOutcome::Stops => false,
    };
    world.insert_resource(MonsoonState {
        raining,
        settled: outcome != StormOutcome::Holds,
    });
    let side = world.resource::<ActiveScenario>().scenario.first_player;
    events.push(GameEvent::Pacific(PacificEvent::StormCheck {
        side,
        roll,
        from: storm.from,
        to: storm.to,
        outcome,
        raining,
    }));
    if outcome == StormOutcome::Starts {
        rain_clears_smoke(world, events);
    }
}
