//! Streamer mode (F9, `--stream`): large, high-contrast overlays readable at
//! 720p instead of the side panels: a phase banner, the last roll with what
//! it needed and the outcome, the FP arithmetic of the last attack, the
//! casualties so far, the caption strip, and for a person playing a compact
//! action bar. F8 (`--chroma`) turns the table around the map solid green
//! for a chroma key, and pressed again leaves only the overlays on green.

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::{Color32, RichText};

use crate::rules::fire::FireOutcome;
use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, TurnTrack};

use super::camera::{BoardCamera, PanelInsets};
use super::captions::Captions;
use super::panels::side_name;

/// What is behind the overlays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Chroma {
    /// The board on its table.
    #[default]
    Off,
    /// The table around the map is solid green.
    Table,
    /// Only the overlays, on solid green.
    OverlaysOnly,
}

impl Chroma {
    pub fn next(self) -> Chroma {
        match self {
            Chroma::Off => Chroma::Table,
            Chroma::Table => Chroma::OverlaysOnly,
            Chroma::OverlaysOnly => Chroma::Off,
        }
    }
}

/// Streamer mode on or off, and the chroma key.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamMode {
    pub on: bool,
    pub chroma: Chroma,
}

/// The green of the chroma key.
pub const CHROMA_GREEN: Color = Color::srgb(0.0, 1.0, 0.0);
/// A render layer nothing is drawn on: the board camera looks there to show
/// only the overlays.
const EMPTY_LAYER: usize = 31;

/// The casualties so far, per side (by `SideId::index`): eliminated and
/// Reduced units: Squads, WTs and Guns (R 18.0 counts them the same way).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Casualties {
    pub eliminated: [u16; 2],
    pub reduced: [u16; 2],
    counted_at: Option<u64>,
}

/// Whether the normal side panels are drawn (not in streamer mode).
pub fn panels_shown(stream: Option<Res<StreamMode>>) -> bool {
    stream.is_none_or(|s| !s.on)
}

/// F9 streamer mode, F8 the chroma key.
pub fn stream_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut stream: ResMut<StreamMode>,
    mut captions: ResMut<Captions>,
    mut insets: ResMut<PanelInsets>,
    demo: Option<Res<super::demo::Demo>>,
) {
    if keys.just_pressed(KeyCode::F9) {
        stream.on = !stream.on;
        insets.refit = true;
    }
    if keys.just_pressed(KeyCode::F8) {
        stream.chroma = stream.chroma.next();
    }
    captions.visible = stream.on || demo.is_some();
}

/// Applies the chroma key to the table colour and the board camera.
pub fn apply_chroma(
    stream: Res<StreamMode>,
    mut clear: ResMut<ClearColor>,
    mut commands: Commands,
    cameras: Query<Entity, With<BoardCamera>>,
) {
    if !stream.is_changed() {
        return;
    }
    let chroma = if stream.on {
        stream.chroma
    } else {
        Chroma::Off
    };
    clear.0 = match chroma {
        Chroma::Off => super::palette::TABLE,
        Chroma::Table | Chroma::OverlaysOnly => CHROMA_GREEN,
    };
    for cam in &cameras {
        if chroma == Chroma::OverlaysOnly {
            commands
                .entity(cam)
                .insert(RenderLayers::layer(EMPTY_LAYER));
        } else {
            commands.entity(cam).remove::<RenderLayers>();
        }
    }
}

/// Counts the casualties once per accepted order.
pub fn count_casualties(world: &mut World) {
    let orders = world.resource::<super::act::OrderCount>().0;
    if world.resource::<Casualties>().counted_at == Some(orders) {
        return;
    }
    let t = crate::engine::phases::end::tally(world);
    *world.resource_mut::<Casualties>() = Casualties {
        eliminated: t.eliminated,
        reduced: t.reduced,
        counted_at: Some(orders),
    };
}

const PANEL: Color32 = Color32::from_rgb(10, 10, 10);

const WHITE: Color32 = Color32::from_rgb(255, 255, 255);
const YELLOW: Color32 = Color32::from_rgb(255, 214, 10);
const GREEN: Color32 = Color32::from_rgb(80, 230, 100);
const RED: Color32 = Color32::from_rgb(255, 80, 60);
const GREY: Color32 = Color32::from_rgb(200, 200, 200);

/// Heights the overlays take at the top and bottom, in logical pixels.
const BANNER: f32 = 64.0;
const FOOTER: f32 = 150.0;

fn panel() -> egui::Frame {
    egui::Frame::new()
        .fill(PANEL)
        .corner_radius(6.0)
        .stroke(egui::Stroke::new(2.0, YELLOW))
        .inner_margin(egui::Margin::symmetric(14, 8))
}

fn outcome_colour(o: FireOutcome) -> Color32 {
    match o {
        FireOutcome::NoEffect => GREY,
        FireOutcome::Suppressed => YELLOW,
        FireOutcome::Reduced => Color32::from_rgb(255, 150, 40),
        FireOutcome::Eliminated => RED,
    }
}

/// The world data the overlays read.
#[derive(bevy::ecs::system::SystemParam)]
pub struct StreamView<'w> {
    stream: Res<'w, StreamMode>,
    active: Res<'w, ActiveScenario>,
    turn: Res<'w, TurnTrack>,
    ops: Option<Res<'w, crate::engine::operations::OpsState>>,
    tray: Res<'w, super::tray::DiceTray>,
    captions: Res<'w, Captions>,
    casualties: Res<'w, Casualties>,
    demo: Option<Res<'w, super::demo::Demo>>,
}

/// The streamer overlays; in streamer mode the side panels are not drawn,
/// so this also sets the insets the map fits between.
#[allow(clippy::too_many_arguments)]
pub fn stream_overlays(
    mut contexts: EguiContexts,
    v: StreamView,
    mut insets: ResMut<PanelInsets>,
    bar: Res<super::act::ActionBar>,
    intent: Res<super::act::Intent>,
    path: Res<super::act::PathPreview>,
    mut requests: ResMut<super::act::Requests>,
) -> Result {
    if !v.stream.on {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let scale = ctx.zoom_factor();
    let view = ctx.viewport_rect();
    let sc = &v.active.scenario;
    // A person plays: the action bar stays at hand, compact.
    let playing = v.demo.as_ref().is_none_or(|d| d.human.is_some());
    let footer = if playing { FOOTER + 60.0 } else { FOOTER };
    let (t, b) = (BANNER * scale, footer * scale);
    if insets.left != 0.0 || insets.right != 0.0 || insets.top != t || insets.bottom != b {
        insets.left = 0.0;
        insets.right = 0.0;
        insets.top = t;
        insets.bottom = b;
    }

    // The phase banner across the top.
    let acting = v.ops.as_ref().map(|o| {
        format!(
            "{} TO ACT {}/{}",
            side_name(sc, o.acting).to_uppercase(),
            o.tally.used,
            o.tally.range.max
        )
    });
    let banner = format!(
        "TURN {}/{}  \u{2022}  {}{}",
        v.turn.turn,
        v.turn.last_turn,
        v.turn.phase.name().to_uppercase(),
        acting
            .map(|a| format!("  \u{2022}  {a}"))
            .unwrap_or_default()
    );
    egui::Area::new(egui::Id::new("stream_banner"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::CENTER_TOP)
        .fixed_pos([view.center().x, 6.0])
        .interactable(false)
        .show(&ctx, |ui| {
            panel().show(ui, |ui| {
                ui.add(
                    egui::Label::new(RichText::new(banner).size(28.0).strong().color(WHITE))
                        .extend(),
                );
            });
        });

    // Casualties so far, top right.
    egui::Area::new(egui::Id::new("stream_casualties"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::RIGHT_TOP)
        .fixed_pos([view.right() - 10.0, BANNER + 10.0])
        .interactable(false)
        .show(&ctx, |ui| {
            panel().show(ui, |ui| {
                ui.label(
                    RichText::new("CASUALTIES")
                        .size(18.0)
                        .strong()
                        .color(YELLOW),
                );
                for side in SideId::BOTH {
                    let i = side.index();
                    let line = RichText::new(format!(
                        "{}  {} lost, {} reduced",
                        side_name(sc, side),
                        v.casualties.eliminated[i],
                        v.casualties.reduced[i]
                    ))
                    .size(22.0)
                    .strong()
                    .color(WHITE);
                    ui.add(egui::Label::new(line).extend());
                }
            });
        });

    // The last roll, bottom left above the captions.
    let above_footer = view.bottom() - footer + 4.0;
    if let Some(r) = v.tray.rolls.last() {
        let colour = match r.passed {
            Some(true) => GREEN,
            Some(false) => RED,
            None => YELLOW,
        };
        egui::Area::new(egui::Id::new("stream_roll"))
            .order(egui::Order::Foreground)
            .pivot(egui::Align2::LEFT_BOTTOM)
            .fixed_pos([10.0, above_footer])
            .interactable(false)
            .show(&ctx, |ui| {
                panel().show(ui, |ui| {
                    ui.set_max_width(view.width() * 0.42);
                    ui.horizontal(|ui| {
                        egui::Frame::new()
                            .fill(colour)
                            .corner_radius(6.0)
                            .inner_margin(egui::Margin::symmetric(14, 2))
                            .show(ui, |ui| {
                                ui.label(
                                    RichText::new(format!("{}", r.roll))
                                        .size(52.0)
                                        .strong()
                                        .color(Color32::BLACK),
                                );
                            });
                        ui.vertical(|ui| {
                            ui.label(RichText::new("LAST ROLL").size(16.0).strong().color(YELLOW));
                            ui.label(
                                RichText::new(super::dialogs::ascii(&r.purpose))
                                    .size(20.0)
                                    .color(WHITE),
                            );
                            if !r.needed.is_empty() {
                                ui.label(RichText::new(&r.needed).size(20.0).color(GREY));
                            }
                            if !r.result.is_empty() {
                                ui.label(
                                    RichText::new(&r.result).size(24.0).strong().color(colour),
                                );
                            }
                        });
                    });
                });
            });
    }

    // The FP arithmetic of the last attack, bottom right.
    if let Some(f) = &v.captions.last_fire {
        egui::Area::new(egui::Id::new("stream_fp"))
            .order(egui::Order::Foreground)
            .pivot(egui::Align2::RIGHT_BOTTOM)
            .fixed_pos([view.right() - 10.0, above_footer])
            .interactable(false)
            .show(&ctx, |ui| {
                panel().show(ui, |ui| {
                    ui.set_max_width(view.width() * 0.42);
                    ui.label(
                        RichText::new(format!("FIRE vs {}", f.target))
                            .size(16.0)
                            .strong()
                            .color(YELLOW),
                    );
                    for line in &f.lines {
                        ui.label(RichText::new(line).size(18.0).color(WHITE));
                    }
                    ui.label(
                        RichText::new(format!(
                            "= {} FP, roll {} -> {}",
                            f.fp,
                            f.roll,
                            f.outcome.name()
                        ))
                        .size(24.0)
                        .strong()
                        .color(outcome_colour(f.outcome)),
                    );
                });
            });
    }

    if playing {
        egui::Area::new(egui::Id::new("stream_action_bar"))
            .order(egui::Order::Foreground)
            .pivot(egui::Align2::CENTER_BOTTOM)
            .fixed_pos([view.center().x, view.bottom() - 6.0])
            .show(&ctx, |ui| {
                panel().show(ui, |ui| {
                    ui.style_mut().override_text_style = Some(egui::TextStyle::Heading);
                    super::dialogs::action_bar(ui, &bar, *intent, &path, &mut requests);
                });
            });
    }
    Ok(())
}
