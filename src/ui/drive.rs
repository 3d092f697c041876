//! A player at the controls, for tests and screenshots: it takes the random
//! player's order (`engine::random::random_order`) and gives it the way a
//! person does — select the unit and press the action's key, then click the
//! hex; answer an Op Fire window or a decision through its dialog; press
//! Space at the hand-over screen. Nothing here calls the engine: every order
//! goes through the UI's requests (`act::Requests`, `decide::DecisionPanel`)
//! and from there through `act::send`.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;

use crate::engine::Order;
use crate::engine::random::{Lcg, random_order};
use crate::scenario::Coord;
use crate::world::{BoardRes, Unit};

use super::Selected;
use super::act::{Action, Requests};

/// The driver's dice and what it does next.
#[derive(Resource, Debug, Clone)]
pub struct UiDriver {
    pub rng: Lcg,
    /// A click to give on the next frame (the target of a Move or Fire
    /// armed this frame).
    staged: Option<Coord>,
    /// Frames driven.
    pub steps: u64,
}

impl UiDriver {
    pub fn new(seed: u64) -> Self {
        UiDriver {
            rng: Lcg(seed),
            staged: None,
            steps: 0,
        }
    }
}

fn entity_of(world: &mut World, id: &str) -> Option<Entity> {
    let mut q = world.query::<(Entity, &Unit)>();
    q.iter(world).find(|(_, u)| u.id == id).map(|(e, _)| e)
}

fn hex(world: &World, label: &str) -> Option<Coord> {
    let b = &world.resource::<BoardRes>().0;
    Coord::parse(label, b.columns, b.rows).ok()
}

/// One frame of play: the requests a person's key or click would make.
pub fn drive_step(world: &mut World) {
    let Some(mut d) = world.remove_resource::<UiDriver>() else {
        return;
    };
    d.steps += 1;
    step(world, &mut d);
    world.insert_resource(d);
}

fn step(world: &mut World, d: &mut UiDriver) {
    if world
        .get_resource::<crate::engine::phases::end::GameOver>()
        .is_some()
    {
        return;
    }
    if let Some(mut hand) = world.get_resource_mut::<super::handover::HandOver>()
        && hand.to.is_some()
    {
        // Space.
        hand.dismiss();
        return;
    }
    if let Some(at) = d.staged.take() {
        world.resource_mut::<Requests>().click = Some(at);
        return;
    }
    let order = random_order(world, &mut d.rng);
    let select = |world: &mut World, unit: &str| {
        let e = entity_of(world, unit);
        world.resource_mut::<Selected>().0 = e;
        e.is_some()
    };
    let mut req = Requests::default();
    match order {
        Order::OpFire { firers, .. } => req.answer_op_fire = Some(firers),
        Order::Pass => req.action = Some(Action::Pass),
        Order::MarkUsed { unit } => {
            if select(world, &unit) {
                req.action = Some(Action::Used);
            }
        }
        Order::MarkOpFire { unit, .. } => {
            if select(world, &unit) {
                req.action = Some(Action::OpFire);
            }
        }
        Order::Fire { unit, target, .. } => {
            if select(world, &unit) {
                req.action = Some(Action::Fire);
                d.staged = hex(world, &target);
            }
        }
        Order::Move { unit, path, .. } => {
            if select(world, &unit) {
                req.action = Some(Action::Move);
                d.staged = path.last().and_then(|l| hex(world, l));
            }
        }
        Order::Cp { unit, function } => {
            if select(world, &unit) {
                req.cp = Some(function);
            }
        }
        // The decision window's buttons (R 3.0, R 11.0, R 12.0, R 17.0, R 18.0).
        decision => {
            world.resource_mut::<super::decide::DecisionPanel>().chosen = Some(decision);
        }
    }
    *world.resource_mut::<Requests>() = req;
}

/// The systems of one frame of play, in the window's order, without the
/// window: the driver's input, then what the UI does with it.
pub fn ui_frame(world: &mut World) {
    drive_step(world);
    super::act::handle_requests(world);
    super::decide::refresh_and_send(world);
    super::act::refresh_views(world);
    super::result::open_result(world);
    if let Err(e) = world.run_system_once(super::handover::watch_viewer) {
        warn!("hand-over: {e}");
    }
}

/// Plays the game to its end through the UI's requests, at most `frames`
/// frames; true when the result screen is up.
pub fn play_out(world: &mut World, seed: u64, frames: u64) -> bool {
    world.insert_resource(UiDriver::new(seed));
    world.init_resource::<super::handover::HandOver>();
    for _ in 0..frames {
        if world
            .get_resource::<super::result::ResultScreen>()
            .is_some()
        {
            return true;
        }
        ui_frame(world);
    }
    world
        .get_resource::<super::result::ResultScreen>()
        .is_some()
}

/// `bob screenshot --screen result`: a whole random game played through the
/// UI before the capture.
pub fn screenshot_play_out(world: &mut World) {
    let wanted = world
        .get_resource::<crate::app::ScreenshotRequest>()
        .is_some_and(|r| r.screen.as_deref() == Some("result"));
    if !wanted {
        return;
    }
    if !play_out(world, 1, 200_000) {
        warn!("--screen result: the game did not end");
    }
    // The screen on the capture is the result, not a hand-over.
    world.resource_mut::<super::handover::HandOver>().dismiss();
}
