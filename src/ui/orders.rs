//! Orders from the keyboard, sent to the same engine `bob script` drives:
//! `U` marks the selected unit Used (R 4.2), `O` marks it Op Fire (R 4.3),
//! `G` fires it at the hex under the mouse (R 6.0), `P` passes (R 4.1). In an
//! Op Fire window, `Y` fires every eligible unit and `N` holds fire (R 9.0).
//! Every event and refusal goes to the log panel.

use bevy::prelude::*;

use crate::engine::op_fire::OpFireWindow;
use crate::engine::{Dice, Order};
use crate::phases::{apply, begin_game};
use crate::world::Unit;

use super::{Hovered, Selected};

/// The event log shown under the board: newest last.
#[derive(Resource, Debug, Default, Clone)]
pub struct GameLog {
    pub lines: Vec<String>,
    /// The last refusal, shown until the next accepted order.
    pub refusal: Option<String>,
}

/// Starts the Operations Phase once the scenario is on the board.
pub fn start_operations(world: &mut World) {
    if crate::journal::session::start_game(world) {
        return;
    }
    if world.get_resource::<Dice>().is_none() {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        world.insert_resource(Dice::seeded(seed));
    }
    let events = begin_game(world);
    let mut log = world.get_resource_or_insert_with(GameLog::default);
    log.lines.extend(events.iter().map(|e| e.line()));
}

/// `bob screenshot --script FILE`: plays the script's orders on the board
/// before the capture (its seed and forced rolls included). A script for
/// another scenario, a bad file or a refused order is logged and stops there.
pub fn play_screenshot_script(world: &mut World) {
    let Some(path) = world
        .get_resource::<crate::app::ScreenshotRequest>()
        .and_then(|r| r.script.clone())
    else {
        return;
    };
    let name = path.display().to_string();
    let script = match crate::scenario::read_file(&path)
        .and_then(|bytes| crate::engine::script::parse(&name, &bytes))
    {
        Ok(s) => s,
        Err(report) => {
            error!("{report}");
            return;
        }
    };
    let here = world
        .resource::<crate::world::ActiveScenario>()
        .scenario
        .id
        .clone();
    if script.scenario != here {
        error!(
            "{name}: the script is for `{}`, not `{here}`",
            script.scenario
        );
        return;
    }
    world.insert_resource(Dice::seeded(script.seed));
    world
        .resource_mut::<Dice>()
        .force(script.rolls.iter().copied());
    for (i, order) in script.orders.iter().enumerate() {
        let result = apply(world, order);
        let mut log = world.resource_mut::<GameLog>();
        match result {
            Ok(events) => log.lines.extend(events.iter().map(|e| e.line())),
            Err(r) => {
                log.refusal = Some(format!("order {} refused: {r}", i + 1));
                return;
            }
        }
    }
}

/// Reads the order keys and applies the order.
pub fn keyboard_orders(world: &mut World) {
    let Some(keys) = world.get_resource::<ButtonInput<KeyCode>>() else {
        return;
    };
    let pressed = |k| keys.just_pressed(k);
    let (u, o, g, p, y, n) = (
        pressed(KeyCode::KeyU),
        pressed(KeyCode::KeyO),
        pressed(KeyCode::KeyG),
        pressed(KeyCode::KeyP),
        pressed(KeyCode::KeyY),
        pressed(KeyCode::KeyN),
    );
    if !(u || o || g || p || y || n) {
        return;
    }
    let selected = world
        .resource::<Selected>()
        .0
        .and_then(|e| world.get::<Unit>(e))
        .map(|u| u.id.clone());
    let hovered = world.resource::<Hovered>().0;
    let window = world.get_resource::<OpFireWindow>().cloned();
    let order = match (window, selected) {
        (Some(w), _) if y => Some(Order::OpFire { firers: w.eligible }),
        (Some(_), _) if n => Some(Order::OpFire { firers: vec![] }),
        (_, _) if p => Some(Order::Pass),
        (_, Some(unit)) if u => Some(Order::MarkUsed { unit }),
        (_, Some(unit)) if o => Some(Order::MarkOpFire { unit, facing: None }),
        (_, Some(unit)) if g => hovered.map(|h| Order::Fire {
            unit,
            target: h.label(),
        }),
        _ => None,
    };
    let Some(order) = order else {
        world.resource_mut::<GameLog>().refusal =
            Some("Select a unit first (click it); G fires at the hex under the mouse.".into());
        return;
    };
    let result = apply(world, &order);
    if result.is_ok() {
        // On disk before the result is shown.
        crate::journal::session::record(world, &order);
    }
    let mut log = world.resource_mut::<GameLog>();
    match result {
        Ok(events) => {
            log.refusal = None;
            log.lines.extend(events.iter().map(|e| e.line()));
        }
        Err(r) => log.refusal = Some(r.to_string()),
    }
}
