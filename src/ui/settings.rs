//! The Settings screen (in the menu, and F10 in a game): the hand-over
//! screen on or off, the dice animation's length, the UI scale (egui zoom).
//! Saved to `settings.ron` in the data directory (`crate::settings`); a
//! damaged file is only replaced when the player saves on purpose.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::{Color32, RichText};

use crate::settings::{DICE_SECONDS, Settings, SettingsFile, UI_SCALE, save};

use super::panels::DIM;
use super::tray::UiSettings;

const WARN: Color32 = Color32::from_rgb(240, 90, 70);

/// The Settings window in a game, and the last save's message.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct SettingsScreen {
    pub open: bool,
    pub message: Option<String>,
    /// The player has read the note about a damaged settings file.
    pub noted: bool,
}

/// What the player is told about a settings file that could not be used.
pub fn bad_file_note(error: &str) -> String {
    format!(
        "The settings file could not be used; the defaults are in force. \
         It is kept as it is until you save the settings.\n{error}"
    )
}

/// The settings' controls, Save and Defaults.
pub fn settings_body(
    ui: &mut egui::Ui,
    settings: &mut Settings,
    file: &mut SettingsFile,
    screen: &mut SettingsScreen,
) {
    ui.checkbox(
        &mut settings.hand_over,
        "Hand-over screen: hide the board when the screen passes to the other side",
    );
    ui.add(
        egui::Slider::new(&mut settings.dice_seconds, DICE_SECONDS.0..=DICE_SECONDS.1)
            .step_by(0.1)
            .text("dice animation, seconds (0 = none)"),
    );
    ui.add(
        egui::Slider::new(&mut settings.ui_scale, UI_SCALE.0..=UI_SCALE.1)
            .step_by(0.05)
            .text("UI scale"),
    );
    ui.add_space(6.0);
    if let Some(e) = &file.error {
        ui.label(RichText::new(bad_file_note(e)).color(WARN));
    }
    ui.horizontal(|ui| {
        let label = if file.error.is_some() {
            "Save (replaces the damaged file)"
        } else {
            "Save"
        };
        if ui.button(RichText::new(label).strong()).clicked() {
            screen.message = Some(match save(&file.path, settings) {
                Ok(()) => {
                    file.error = None;
                    format!("Saved to {}", file.path.display())
                }
                Err(e) => format!("cannot write {}: {e}", file.path.display()),
            });
        }
        if ui.button("Defaults").clicked() {
            let vs_bot = settings.vs_bot;
            *settings = Settings {
                vs_bot,
                ..Settings::default()
            };
        }
    });
    if let Some(m) = &screen.message {
        ui.label(RichText::new(m).color(DIM));
    }
    ui.label(RichText::new(format!("File: {}", file.path.display())).color(DIM));
}

/// The settings take effect: the hand-over screen and the dice tray read
/// `UiSettings`.
pub fn apply_settings(
    settings: Res<Settings>,
    mut ui: ResMut<UiSettings>,
    keys: Res<ButtonInput<KeyCode>>,
    mut screen: ResMut<SettingsScreen>,
    state: Res<State<crate::app::AppState>>,
) {
    if keys.just_pressed(KeyCode::F10) && *state.get() == crate::app::AppState::InGame {
        screen.open = !screen.open;
    }
    if !settings.is_changed() {
        return;
    }
    ui.hand_over = settings.hand_over;
    ui.dice_seconds = settings.dice_seconds;
}

/// The UI scale, the in-game Settings window (F10) and the note about a
/// damaged settings file.
pub fn settings_windows(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut file: ResMut<SettingsFile>,
    mut screen: ResMut<SettingsScreen>,
    state: Res<State<crate::app::AppState>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    if (ctx.zoom_factor() - settings.ui_scale).abs() > 0.001 {
        ctx.set_zoom_factor(settings.ui_scale);
    }
    let in_game = *state.get() == crate::app::AppState::InGame;
    if !in_game {
        return Ok(());
    }
    if screen.open {
        let mut open = true;
        egui::Window::new("Settings (F10)")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(&ctx, |ui| {
                settings_body(ui, &mut settings, &mut file, &mut screen);
            });
        screen.open = open;
    } else if let Some(e) = file.error.clone()
        && !screen.noted
    {
        egui::Window::new(RichText::new("Settings file").color(WARN))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::RIGHT_TOP, [-12.0, 40.0])
            .show(&ctx, |ui| {
                ui.label(bad_file_note(&e));
                ui.horizontal(|ui| {
                    if ui.button("OK").clicked() {
                        screen.noted = true;
                    }
                    if ui.button("Settings (F10)").clicked() {
                        screen.open = true;
                    }
                });
            });
    }
    Ok(())
}
