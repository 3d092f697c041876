//! The dice tray and the log's hexes. The tray shows every roll of the last
//! order with what it was for and what it needed, rolling for a moment
//! first (a click skips it). Each log line remembers the hexes it is about,
//! so a click on it rings them on the board. Both read the engine's events
//! only.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::{Color32, RichText};

use crate::engine::GameEvent;
use crate::scenario::Coord;
use crate::world::{BoardRes, Location, Unit};

use super::dialogs::{GOOD, REFUSED, ascii};
use super::panels::{ACCENT, DIM};

/// One roll of the d10 and what it meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrayRoll {
    pub roll: u8,
    pub purpose: String,
    pub needed: String,
    pub result: String,
    /// Good or bad for the roller, when that is plain (an MC).
    pub passed: Option<bool>,
}

/// The rolls of the last order that rolled.
#[derive(Resource, Debug, Default, Clone)]
pub struct DiceTray {
    pub rolls: Vec<TrayRoll>,
    /// When they arrived (seconds since start), for the animation.
    pub since: f64,
    /// The animation was skipped or is over.
    pub settled: bool,
}

/// Interface settings (the menu will edit them).
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct UiSettings {
    /// Seconds the dice roll before they settle; 0 = no animation.
    pub dice_seconds: f32,
    /// The hand-over screen between the sides' Ops Ranges.
    pub hand_over: bool,
}

impl Default for UiSettings {
    fn default() -> Self {
        UiSettings {
            dice_seconds: 0.6,
            hand_over: true,
        }
    }
}

/// The rolls in these events, in order: MCs, and each attack's roll with
/// its result against every unit in the hex. `name` gives each unit's name
/// as the reader knows it (an enemy under a Conceal counter by the counter,
/// R 15.0); hexes stay hexes, even where a unit's id reads like one.
pub fn rolls_of(events: &[GameEvent], name: impl Fn(&str) -> String) -> Vec<TrayRoll> {
    let mut out: Vec<TrayRoll> = Vec::new();
    for e in events {
        match e {
            GameEvent::MoraleCheck {
                unit,
                morale,
                roll,
                passed,
                rule,
            } => out.push(TrayRoll {
                roll: *roll,
                purpose: format!("{} Morale Check ({rule}, R 7.1)", name(unit)),
                needed: format!("needs {morale} or less"),
                result: if *passed { "passed" } else { "failed" }.to_string(),
                passed: Some(*passed),
            }),
            GameEvent::FireRoll { unit, target, roll } => out.push(TrayRoll {
                roll: *roll,
                purpose: format!("{} fires at {target} (R 6.2)", name(unit)),
                needed: String::new(),
                result: String::new(),
                passed: None,
            }),
            GameEvent::FireResult {
                target,
                fp,
                outcome,
                ..
            } => {
                if let Some(last) = out.last_mut().filter(|r| r.passed.is_none()) {
                    let target = name(target);
                    let sep = if last.needed.is_empty() { "" } else { "; " };
                    last.needed
                        .push_str(&format!("{sep}{} FP vs {target}", fp.0));
                    let sep = if last.result.is_empty() { "" } else { "; " };
                    last.result
                        .push_str(&format!("{sep}{target} {}", outcome.name()));
                }
            }
            _ => {}
        }
    }
    out
}

/// The hexes an event is about: the hexes it names, and where the units it
/// names stand now.
pub fn event_hexes(world: &mut World, e: &GameEvent) -> Vec<Coord> {
    let (columns, rows) = {
        let b = &world.resource::<BoardRes>().0;
        (b.columns, b.rows)
    };
    let (hexes, units): (Vec<&str>, Vec<&str>) = match e {
        GameEvent::MarkedUsed { unit, .. }
        | GameEvent::MarkedOpFire { unit, .. }
        | GameEvent::MoveStarted { unit, .. }
        | GameEvent::FireFailed { unit }
        | GameEvent::MoraleCheck { unit, .. }
        | GameEvent::MoveFailed { unit }
        | GameEvent::ConcealmentLost { unit, .. } => (vec![], vec![unit]),
        GameEvent::FireStarted { unit, target, .. }
        | GameEvent::NoLos { unit, target, .. }
        | GameEvent::FireRoll { unit, target, .. } => (vec![target], vec![unit]),
        GameEvent::FireResult { target, .. } => (vec![], vec![target]),
        GameEvent::OpFireWindow {
            mover,
            at,
            eligible,
            ..
        } => (
            vec![at],
            std::iter::once(mover)
                .chain(eligible)
                .map(|id| id.as_str())
                .collect(),
        ),
        GameEvent::OpFirePassed { at, .. } => (vec![at], vec![]),
        GameEvent::OpFires { unit, at, .. } => (vec![at], vec![unit]),
        GameEvent::Moved { from, to, .. } => (vec![from, to], vec![]),
        GameEvent::MoveEnded { at, .. } => (vec![at], vec![]),
        _ => (vec![], vec![]),
    };
    let mut out: Vec<Coord> = hexes
        .iter()
        .filter_map(|h| Coord::parse(h, columns, rows).ok())
        .collect();
    if !units.is_empty() {
        let mut q = world.query::<(&Unit, &Location)>();
        for (u, l) in q.iter(world) {
            if units.contains(&u.id.as_str()) && !out.contains(&l.coord) {
                out.push(l.coord);
            }
        }
    }
    out
}

/// The log line clicked, whose hexes are ringed on the board.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct LogHighlight {
    pub line: Option<usize>,
}

/// The dice tray over the bottom right of the board.
pub fn dice_tray(
    mut contexts: EguiContexts,
    mut tray: ResMut<DiceTray>,
    settings: Res<UiSettings>,
    insets: Res<super::camera::PanelInsets>,
    time: Res<Time>,
) -> Result {
    if tray.rolls.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let scale = ctx.zoom_factor();
    let view = ctx.viewport_rect();
    let at = [
        view.right() - insets.right / scale - 12.0,
        view.bottom() - insets.bottom / scale - 12.0,
    ];
    let elapsed = time.elapsed_secs_f64() - tray.since;
    let rolling = !tray.settled && elapsed < f64::from(settings.dice_seconds);
    if rolling {
        ctx.request_repaint();
    } else {
        tray.settled = true;
    }
    let response = egui::Window::new(RichText::new("DICE").strong().color(ACCENT))
        .id(egui::Id::new("dice_tray"))
        .collapsible(false)
        .resizable(false)
        .pivot(egui::Align2::RIGHT_BOTTOM)
        .fixed_pos(at)
        .show(&ctx, |ui| {
            for (i, r) in tray.rolls.iter().enumerate() {
                ui.horizontal(|ui| {
                    let face = if rolling {
                        // A tumbling face until the die settles.
                        1 + ((elapsed * 23.0) as usize + i * 7) % 10
                    } else {
                        usize::from(r.roll)
                    };
                    let colour = match (rolling, r.passed) {
                        (true, _) => DIM,
                        (false, Some(true)) => GOOD,
                        (false, Some(false)) => REFUSED,
                        (false, None) => ACCENT,
                    };
                    let die = egui::Button::new(
                        RichText::new(format!("{face:>2}"))
                            .monospace()
                            .size(22.0)
                            .strong()
                            .color(Color32::BLACK),
                    )
                    .fill(colour)
                    .min_size(egui::vec2(40.0, 36.0));
                    ui.add(die);
                    ui.vertical(|ui| {
                        ui.label(RichText::new(ascii(&r.purpose)).strong());
                        if !r.needed.is_empty() {
                            ui.label(RichText::new(&r.needed).color(DIM));
                        }
                        if !rolling {
                            ui.label(RichText::new(&r.result).color(colour));
                        }
                    });
                });
            }
            if rolling {
                ui.label(RichText::new("click to skip").small().color(DIM));
            }
        });
    if rolling
        && response
            .is_some_and(|r| r.response.contains_pointer() && ctx.input(|i| i.pointer.any_click()))
    {
        tray.settled = true;
    }
    Ok(())
}
