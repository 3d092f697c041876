//! The hand-over screen (hotseat): whenever the screen passes to the other
//! side — a new Ops Range, an Op Fire window or a decision for the other
//! side (the view follows the decider, see `act::send`), or `V` — the board
//! is hidden behind "<side> player: press Space or click" until that player
//! is at the keyboard, so neither sees the other's Concealed units (R 15.0).
//! The screen says why it passes (the question asked, or the Ops Range) and
//! recaps what the other side did since this side last looked, in this
//! side's copy of the log. Never in a replay. Optional: Settings,
//! "hand-over screen".

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::RichText;

use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, Viewer};

use super::panels::{ACCENT, DIM, side_name};
use super::tray::UiSettings;

/// The hand-over screen: the side the screen goes to while it is up.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct HandOver {
    pub to: Option<SideId>,
    /// The view the board last showed.
    last: Option<SideId>,
    /// Hand-overs shown so far.
    pub count: u32,
    /// Why the screen passes: the question the side is asked, or its Ops
    /// Range.
    pub why: String,
    /// What the other side did since this side last had the screen, in this
    /// side's words (its copy of the log, R 15.0), newest last.
    pub recap: Vec<String>,
    /// How much of each side's copy of the log that side has had on screen.
    seen: [usize; 2],
}

/// At most this many lines of the recap are shown (the log keeps them all).
const RECAP_LINES: usize = 12;

impl HandOver {
    /// The player at the keyboard pressed Space or clicked: the board shows
    /// again.
    pub fn dismiss(&mut self) {
        self.to = None;
    }

    /// Puts the screen up for `side` (`bob screenshot --screen hand-over`).
    pub fn show(&mut self, side: SideId) {
        self.to = Some(side);
        self.last = Some(side);
        self.count += 1;
    }
}

/// Why the screen passes to `side`: the question it is asked, else its Ops
/// Range, else the `V` key. The same words whether the question is asked
/// because a real unit could fire or only a Conceal counter sees (R 15.0).
pub fn reason(world: &World, side: SideId) -> String {
    let name = side_name(&world.resource::<ActiveScenario>().scenario, side);
    if let Some(d) = crate::engine::decision::awaited(world).filter(|d| d.side() == side) {
        return format!("{}: the {name} player to answer", d.title());
    }
    let acting = world
        .get_resource::<crate::engine::operations::OpsState>()
        .map(|s| s.acting);
    if acting == Some(side) {
        return format!("OPS RANGE: the {name} player to act (R 4.0)");
    }
    format!("The board turns to the {name} player's view")
}

/// The last lines of `side`'s own copy of the log since that side last had
/// the screen (R 15.0).
fn recap(world: &World, side: SideId) -> Vec<String> {
    let (Some(log), Some(hand)) = (
        world.get_resource::<super::orders::GameLog>(),
        world.get_resource::<HandOver>(),
    ) else {
        return Vec::new();
    };
    let lines = log.shown_to(Some(side));
    let new: Vec<String> = lines
        .iter()
        .skip(hand.seen[side.index()].min(lines.len()))
        .map(|(_, l)| l.to_string())
        .collect();
    new[new.len().saturating_sub(RECAP_LINES)..].to_vec()
}

/// Puts the screen up for `side` with its reason and recap (`bob screenshot
/// --screen hand-over`).
pub fn show_to(world: &mut World, side: SideId) {
    let why = reason(world, side);
    let recap = recap(world, side);
    let mut hand = world.resource_mut::<HandOver>();
    hand.show(side);
    hand.why = why;
    hand.recap = recap;
}

/// Puts the screen up when the view changed sides, if the setting is on,
/// with the reason and the recap; the game's end shows its result instead,
/// and a replay never shows it (its keys are the replay's).
pub fn watch_viewer(world: &mut World) {
    let Some(viewer) = world.get_resource::<Viewer>().map(|v| v.0) else {
        return;
    };
    let Some(hand) = world.get_resource::<HandOver>() else {
        return;
    };
    if hand.last == Some(viewer) {
        return;
    }
    let (first, last) = (hand.last.is_none(), hand.last);
    let lengths = world
        .get_resource::<super::orders::GameLog>()
        .and_then(|log| log.copies.as_ref().map(|c| [c[0].len(), c[1].len()]));
    let shown = !first
        && world
            .get_resource::<UiSettings>()
            .is_none_or(|s| s.hand_over)
        && !world.contains_resource::<crate::engine::phases::end::GameOver>()
        && !world.contains_resource::<super::replay::Replay>();
    let why = if shown {
        reason(world, viewer)
    } else {
        String::new()
    };
    let recap = if shown {
        recap(world, viewer)
    } else {
        Vec::new()
    };
    let mut hand = world.resource_mut::<HandOver>();
    hand.last = Some(viewer);
    if let Some(lengths) = lengths {
        // The side leaving has seen its copy so far; the side arriving sees
        // its own from here.
        if let Some(l) = last {
            hand.seen[l.index()] = lengths[l.index()];
        }
        hand.seen[viewer.index()] = lengths[viewer.index()];
    }
    if shown {
        hand.to = Some(viewer);
        hand.count += 1;
        hand.why = why;
        hand.recap = recap;
    }
}

/// While the screen is up, no key or click reaches the board; Space takes
/// it down.
pub fn gate_input(
    mut keys: ResMut<ButtonInput<KeyCode>>,
    mut mouse: ResMut<ButtonInput<MouseButton>>,
    mut hand: ResMut<HandOver>,
) {
    if hand.to.is_none() {
        return;
    }
    let go = keys.just_pressed(KeyCode::Space) || mouse.just_released(MouseButton::Left);
    keys.clear();
    mouse.clear();
    if go {
        hand.dismiss();
    }
}

/// The opaque screen over everything, with the side to call.
pub fn hand_over_screen(
    mut contexts: EguiContexts,
    active: Res<ActiveScenario>,
    hand: Res<HandOver>,
) -> Result {
    let Some(side) = hand.to else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    let rect = ctx.viewport_rect();
    let name = side_name(&active.scenario, side);
    egui::Area::new(egui::Id::new("hand_over"))
        .order(egui::Order::Foreground)
        .fixed_pos(rect.min)
        .show(&ctx, |ui| {
            ui.painter()
                .rect_filled(rect, 0.0, egui::Color32::from_rgb(22, 24, 20));
            // Every click lands here, not on the panels below.
            ui.allocate_rect(rect, egui::Sense::click());
            ui.scope_builder(egui::UiBuilder::new().max_rect(rect), |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(rect.height() * 0.22);
                    ui.label(
                        RichText::new(format!("{name} player: press Space or click"))
                            .size(34.0)
                            .strong()
                            .color(ACCENT),
                    );
                    if !hand.why.is_empty() {
                        ui.add_space(6.0);
                        ui.label(RichText::new(hand.why.as_str()).size(20.0).strong());
                    }
                    ui.add_space(10.0);
                    ui.label(
                        RichText::new(format!(
                            "The board is hidden while the screen passes to the {name} player, \
                             so the other side's Concealed units stay hidden (R 15.0)."
                        ))
                        .color(DIM),
                    );
                    ui.label(
                        RichText::new("The hand-over screen can be turned off in Settings.")
                            .color(DIM),
                    );
                    if !hand.recap.is_empty() {
                        ui.add_space(18.0);
                        ui.label(
                            RichText::new("Since your last look")
                                .size(17.0)
                                .strong()
                                .color(ACCENT),
                        );
                        ui.add_space(4.0);
                        for line in &hand.recap {
                            ui.label(RichText::new(super::dialogs::ascii(line)).size(14.0));
                        }
                    }
                });
            });
        });
    Ok(())
}
