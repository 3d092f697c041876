//! The hand-over screen (hotseat): whenever the screen passes to the other
//! side — a new Ops Range, an Op Fire window or a decision for the other
//! side (the view follows the decider, see `act::send`), or `V` — the board
//! is hidden behind "<side> player: press Space" until that player is at
//! the keyboard, so neither sees the other's Concealed units (R 15.0).
//! Optional: Settings, "hand-over screen".

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
}

impl HandOver {
    /// The player at the keyboard pressed Space: the board shows again.
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

/// Puts the screen up when the view changed sides, if the setting is on;
/// the game's end shows its result instead.
pub fn watch_viewer(
    viewer: Res<Viewer>,
    settings: Res<UiSettings>,
    over: Option<Res<crate::engine::phases::end::GameOver>>,
    mut hand: ResMut<HandOver>,
) {
    if hand.last == Some(viewer.0) {
        return;
    }
    let first = hand.last.is_none();
    hand.last = Some(viewer.0);
    if !first && settings.hand_over && over.is_none() {
        hand.to = Some(viewer.0);
        hand.count += 1;
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
    let space = keys.just_pressed(KeyCode::Space);
    keys.clear();
    mouse.clear();
    if space {
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
                    ui.add_space(rect.height() * 0.38);
                    ui.label(
                        RichText::new(format!("{name} player: press Space"))
                            .size(34.0)
                            .strong()
                            .color(ACCENT),
                    );
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
                });
            });
        });
    Ok(())
}
