//! The egui side of acting: the action bar under the board, the fire
//! preview beside it, and the Op Fire window's dialog. They only show what
//! `act` computed from the engine and send requests back.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::{Color32, RichText};

use crate::engine::command_points::CpFunction;
use crate::rules::fire::FireKind;
use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, Viewer};

use super::act::{ActionBar, Intent, OpFireDialog, PathPreview, Preview, Requests};
use super::camera::PanelInsets;
use super::panels::{ACCENT, DIM, side_name};
use super::preview::{FirePreview, percent};

pub const REFUSED: Color32 = Color32::from_rgb(240, 110, 90);
pub const GOOD: Color32 = Color32::from_rgb(120, 220, 130);
const ELIM: Color32 = Color32::from_rgb(235, 80, 70);
const REDUCED: Color32 = Color32::from_rgb(240, 150, 60);
const SUPPRESSED: Color32 = Color32::from_rgb(240, 210, 90);

/// The engine's text in the egui fonts: ASCII minus and arrows.
pub fn ascii(s: &str) -> String {
    s.replace('\u{2212}', "-").replace('\u{2192}', "->")
}

/// The action bar: the selected unit's actions, greyed with the engine's
/// reason when not allowed; returns nothing, requests go to `req`.
pub fn action_bar(
    ui: &mut egui::Ui,
    bar: &ActionBar,
    intent: Intent,
    path: &PathPreview,
    req: &mut Requests,
) {
    ui.horizontal(|ui| {
        let title = match &bar.unit {
            Some(u) => format!("{u}:"),
            None => "No unit selected (click one, or Tab):".to_string(),
        };
        ui.label(RichText::new(title).strong().color(ACCENT));
        for b in bar.buttons.iter().chain(&bar.pacific) {
            let armed = matches!(
                (b.action, intent),
                (super::act::Action::Move, Intent::Move)
                    | (super::act::Action::Fire, Intent::Fire)
                    | (super::act::Action::Illuminate, Intent::Illuminate)
            ) || (b.action == super::act::Action::Seishin && bar.seishin);
            let text = format!("{} [{}]", b.action.label(), b.action.key());
            let button = egui::Button::new(RichText::new(text).strong()).selected(armed);
            let resp = ui.add_enabled(b.refusal.is_none(), button);
            let resp = match &b.refusal {
                Some(r) => resp.on_disabled_hover_text(ascii(r)),
                None => resp,
            };
            if resp.clicked() {
                req.action = Some(b.action);
            }
            if matches!(
                b.action,
                super::act::Action::Used | super::act::Action::Pass
            ) {
                ui.separator();
            }
        }
        ui.separator();
        ui.label(RichText::new("CP:").strong().color(ACCENT));
        for (function, refusal) in &bar.cp {
            let button = egui::Button::new(RichText::new(cp_label(*function)).strong());
            let resp = ui.add_enabled(refusal.is_none(), button);
            let resp = match refusal {
                Some(r) => resp.on_disabled_hover_text(ascii(r)),
                None => {
                    resp.on_hover_text(format!("{} ({})", function.describe(), function.rule()))
                }
            };
            if resp.clicked() {
                req.cp = Some(*function);
            }
        }
        ui.separator();
        ui.label(RichText::new("Tab next unit \u{00b7} Q/E or drag: turn").color(DIM));
        ui.label(RichText::new(super::act::ESCAPE_HELP).color(DIM));
    });
    // Why the greyed buttons are greyed, each reason once.
    let mut reasons: Vec<String> = Vec::new();
    for b in bar.buttons.iter().chain(&bar.pacific) {
        if let Some(r) = &b.refusal {
            let line = ascii(r);
            if !reasons.contains(&line) {
                reasons.push(line);
            }
        }
    }
    let hint = match intent {
        Intent::Move => Some(match (&path.refusal, path.left) {
            (Some(r), _) => (ascii(r), REFUSED),
            (None, Some(left)) if !path.path.is_empty() => (
                format!(
                    "Move to {}: {} hex(es), {} MP left. Click to move.",
                    path.path.last().map(|c| c.label()).unwrap_or_default(),
                    path.path.len(),
                    super::act::mp_text(left)
                ),
                GOOD,
            ),
            _ => (
                "Move: the lit hexes show the MPs left there; click one to move.".to_string(),
                ACCENT,
            ),
        }),
        Intent::Fire => Some((
            "Fire: hover an enemy hex for the preview; click it to fire.".to_string(),
            ACCENT,
        )),
        Intent::Illuminate => Some(match (&bar.lights.refusal, bar.lights.at) {
            (Some(r), _) => (ascii(r), REFUSED),
            (None, Some(at)) => (
                format!(
                    "Illuminate {}: the ringed hexes are lit this turn (R 50.1). Click to place.",
                    at.label()
                ),
                GOOD,
            ),
            _ => (
                "Illuminate: hover a hex within range to see what it lights; click to place."
                    .to_string(),
                ACCENT,
            ),
        }),
        Intent::Select => None,
    };
    ui.horizontal_wrapped(|ui| {
        if let Some((text, colour)) = hint {
            ui.label(RichText::new(text).color(colour));
        }
        if !reasons.is_empty() {
            ui.label(RichText::new("Not now:").color(DIM));
            ui.label(RichText::new(reasons.join(" \u{00b7} ")).color(REFUSED));
        }
    });
}

/// A CP button's label (R 3.0).
fn cp_label(function: CpFunction) -> &'static str {
    match function {
        CpFunction::Reroll => "Re-roll",
        CpFunction::ProfFp => "Prof FP",
        CpFunction::FollowMe => "Follow Me",
        CpFunction::ActFirst => "Act first",
        CpFunction::FinalOpFireRange => "Final Op Fire range",
        CpFunction::MeleeReroll => "Melee re-roll",
    }
}

/// The fire preview window and the Op Fire dialog, over the board.
pub fn act_windows(
    mut contexts: EguiContexts,
    preview: Res<Preview>,
    dialog: Res<OpFireDialog>,
    (insets, strip): (
        Res<PanelInsets>,
        Option<Res<super::captions::CaptionStripBottom>>,
    ),
    active: Res<ActiveScenario>,
    viewer: Res<Viewer>,
    mut req: ResMut<Requests>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let scale = ctx.zoom_factor();
    let left = insets.left / scale;
    // Below the demo's caption strip when it hangs from the top of the board.
    let top =
        super::captions::CaptionStripBottom::below(strip.as_deref(), insets.top / scale + 12.0)
            - 12.0;
    let right = insets.right / scale;
    let width = ctx.viewport_rect().width();
    if let Some(w) = &dialog.window {
        egui::Window::new(
            RichText::new(format!(
                "OP FIRE \u{2014} {} entered {}",
                dialog.mover,
                w.at.label()
            ))
            .strong(),
        )
        .id(egui::Id::new("op_fire_dialog"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [left + 12.0, top + 12.0])
        .default_width(430.0)
        .show(&ctx, |ui| {
            if w.eligible.is_empty() {
                // Asked so that the mover cannot tell a Decoy from a real
                // unit by whether the screen passed (R 15.0).
                ui.label(
                    RichText::new(format!(
                        "No {} unit may fire at the moving unit. You are asked because \
                         your Conceal counters see it: the other side cannot tell whether \
                         they could (R 9.0, R 15.0).",
                        side_name(&active.scenario, w.side)
                    ))
                    .color(ACCENT),
                );
            } else {
                ui.label(
                    RichText::new(format!(
                        "{} may fire at the moving unit (R 9.0):",
                        side_name(&active.scenario, w.side)
                    ))
                    .color(ACCENT),
                );
            }
            for (i, (id, p)) in dialog.previews.iter().enumerate() {
                let mut on = dialog.chosen.contains(id);
                ui.horizontal(|ui| {
                    if ui
                        .checkbox(&mut on, RichText::new(format!("{} {id}", i + 1)).strong())
                        .changed()
                    {
                        req.toggle_op_fire = Some(id.clone());
                    }
                    if let Some(p) = p {
                        ui.label(RichText::new(kind_name(p.kind)).color(DIM));
                    }
                });
                if let Some(p) = p {
                    ui.indent(id, |ui| preview_body(ui, p, viewer.0));
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                let fire = ui.add_enabled(
                    !dialog.chosen.is_empty(),
                    egui::Button::new(
                        RichText::new(format!("Fire with {} [Enter]", dialog.chosen.len()))
                            .strong(),
                    ),
                );
                if fire.clicked() {
                    req.answer_op_fire = Some(dialog.chosen.clone());
                }
                if ui
                    .button(RichText::new("Pass [N / Space]").strong())
                    .clicked()
                {
                    req.answer_op_fire = Some(Vec::new());
                }
                if !w.eligible.is_empty() {
                    ui.label(RichText::new("1-9 choose \u{00b7} Y all").color(DIM));
                }
            });
        });
    } else if let Some(p) = &preview.0 {
        // Over the half of the board away from the firer and the target.
        let columns = active.scenario.map.columns;
        let (corner, offset) = if u32::from(p.from.col) + u32::from(p.to.col) < u32::from(columns) {
            (egui::Align2::RIGHT_TOP, [-(right + 12.0), top + 12.0])
        } else {
            (egui::Align2::LEFT_TOP, [left + 12.0, top + 12.0])
        };
        egui::Window::new(
            RichText::new(format!(
                "FIRE PREVIEW \u{2014} {} at {}",
                p.firer,
                p.to.label()
            ))
            .strong(),
        )
        .id(egui::Id::new("fire_preview"))
        .collapsible(false)
        .resizable(false)
        .anchor(corner, offset)
        .default_width((width - left - right - 40.0).clamp(260.0, 420.0))
        .show(&ctx, |ui| {
            preview_body(ui, p, viewer.0);
        });
    }
    Ok(())
}

fn kind_name(kind: FireKind) -> &'static str {
    match kind {
        FireKind::OpFire => "Op Fire (R 9.0)",
        FireKind::FinalOpFire => "Final Op Fire (R 10.0)",
        _ => "Fire (R 6.0)",
    }
}

/// The preview: the MC to fire, the LOS, then for each unit in the hex its
/// arithmetic and odds. Units the viewer may not see show only the
/// Conceal counter's arithmetic (R 15.0).
fn preview_body(ui: &mut egui::Ui, p: &FirePreview, viewer: SideId) {
    let mc = if p.mc.needs_roll {
        format!(
            "MC to fire: Morale {}, passes on 1-{} ({}) (R 6.0)",
            p.morale.0,
            p.mc.passes,
            percent(p.mc.passes, p.mc.faces)
        )
    } else {
        format!("MC to fire: Morale {}, no roll (R 7.1)", p.morale.0)
    };
    ui.label(RichText::new(mc).color(DIM));
    if let Some(b) = &p.blocked {
        ui.label(
            RichText::new(format!(
                "LOS {}: the firer would be Used (R 14.0)",
                ascii(b)
            ))
            .color(REFUSED),
        );
        return;
    }
    ui.label(RichText::new(format!("LOS {}", ascii(&p.los))).color(DIM));
    if let Some(c) = &p.gun_prof {
        ui.label(
            RichText::new(format!(
                "Prof Check: {} = {}, passes on 1-{} (R 20.4)",
                ascii(&c.arithmetic()),
                c.target,
                c.target.clamp(0, 10)
            ))
            .color(ACCENT),
        );
    }
    egui::Grid::new(("odds", p.firer.as_str(), p.to.label()))
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            for t in &p.targets {
                let hidden = t.plan.concealed && viewer != t.plan.unit.side;
                let name = if hidden {
                    "Conceal counter".to_string()
                } else {
                    t.plan.unit.id.to_string()
                };
                ui.label(RichText::new(name).strong().color(ACCENT));
                ui.label(
                    RichText::new(format!("{} FP", t.plan.breakdown.total.0))
                        .strong()
                        .color(ACCENT),
                );
                ui.end_row();
                for line in &t.plan.breakdown.lines {
                    let delta = if line.delta < 0 {
                        format!("-{}", -line.delta)
                    } else {
                        format!("+{}", line.delta)
                    };
                    ui.label(
                        RichText::new(format!("  {} ({})", ascii(&line.text), line.rule))
                            .monospace(),
                    );
                    ui.label(RichText::new(delta).monospace());
                    ui.end_row();
                }
                if hidden {
                    ui.label(RichText::new("  odds depend on the hidden unit").color(DIM));
                    ui.end_row();
                    continue;
                }
                let o = &t.odds;
                ui.horizontal(|ui| {
                    ui.label("  ");
                    for (label, n, colour) in [
                        ("Elim", o.eliminated, ELIM),
                        ("Reduced", o.reduced, REDUCED),
                        ("Suppr", o.suppressed, SUPPRESSED),
                        ("No effect", o.no_effect, DIM),
                    ] {
                        ui.label(
                            RichText::new(format!("{label} {}", percent(n, o.faces)))
                                .strong()
                                .color(colour),
                        );
                    }
                });
                ui.end_row();
            }
        });
}
