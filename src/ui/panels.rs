//! egui panels: the top bar (turn track, phase, side, Ops Range, CPs), the
//! Scenario Card (R 18.0), the hex and unit card, and the Player Aid with
//! House values marked.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::{Color32, RichText};

use crate::scenario::Coord;
use crate::scenario::player_aid::{Cell, PlayerAid};
use crate::scenario::roster::{CounterSide, Source, UnitType};
use crate::scenario::schema::{Entry, MapEdge, Scenario, SideCard, SideId, VictoryCondition};
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Concealed, Facing, FortificationCounter, Location, Marks,
    RosterRes, Suppression, TurnTrack, Unit, Viewer,
};

use super::camera::PanelInsets;
use super::counters::{Shown, shown_to};
use super::{Hovered, PanelState, Selected, turn_line};

pub const HOUSE: Color32 = Color32::from_rgb(240, 180, 60);
pub const ACCENT: Color32 = Color32::from_rgb(230, 210, 150);
pub const DIM: Color32 = Color32::from_rgb(170, 170, 160);
/// The three Morale values of a unit card, in the order printed (R 7.0).
const MORALE_COLUMNS: &str =
    "Morale unsuppressed / Suppressed / Fully Suppressed (the white, yellow and red values, R 7.0)";

pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "bob_root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    )
}

pub fn loading_screen(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut ui = root_ui(&ctx);
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.centered_and_justified(|ui| {
            ui.heading("Band of Brothers \u{2014} loading the roster and the Player Aid\u{2026}");
        });
    });
    Ok(())
}

/// What the action bar shows and where its clicks go.
#[derive(bevy::ecs::system::SystemParam)]
pub struct ActPanel<'w> {
    bar: Res<'w, super::act::ActionBar>,
    intent: Res<'w, super::act::Intent>,
    path: Res<'w, super::act::PathPreview>,
    requests: ResMut<'w, super::act::Requests>,
    highlight: ResMut<'w, super::tray::LogHighlight>,
    log: Res<'w, super::orders::GameLog>,
    plan: Res<'w, super::facing::FacingPlan>,
    viewer: Res<'w, Viewer>,
    demo: Option<Res<'w, super::demo::Demo>>,
}

type UnitQueryRow<'a> = (
    Entity,
    &'a Unit,
    &'a Location,
    Option<&'a Facing>,
    Option<&'a Suppression>,
    Option<&'a Marks>,
    Option<&'a Concealed>,
);

/// The resources that say who must act now (`bot::side_to_act`).
#[derive(bevy::ecs::system::SystemParam)]
pub struct ToAct<'w> {
    over: Option<Res<'w, crate::engine::phases::end::GameOver>>,
    event: Option<Res<'w, crate::engine::combat_events::CombatEventDecision>>,
    pending: Option<Res<'w, crate::engine::decision::Pending>>,
    window: Option<Res<'w, crate::engine::op_fire::OpFireWindow>>,
}

/// What the panels read of the engine's state.
type EngineReads<'w> = (
    Option<Res<'w, crate::engine::operations::OpsState>>,
    Option<Res<'w, crate::engine::banzai::Called>>,
    ToAct<'w>,
    Option<Res<'w, crate::engine::command_points::CommandPoints>>,
);

#[allow(clippy::too_many_arguments)]
pub fn game_panels(
    mut contexts: EguiContexts,
    active: Res<ActiveScenario>,
    turn: Res<TurnTrack>,
    viewer: Res<Viewer>,
    roster: Res<RosterRes>,
    aid: Res<AidRes>,
    board: Res<BoardRes>,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    mut panels: ResMut<PanelState>,
    mut insets: ResMut<PanelInsets>,
    los: Res<super::los_tool::LosTool>,
    (ops, banzai_called, to_act, cps): EngineReads,
    units: Query<UnitQueryRow>,
    forts: Query<(&FortificationCounter, &Location)>,
    mut act: ActPanel,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut ui = root_ui(&ctx);
    let sc = &active.scenario;

    let top = egui::Panel::top("top_bar")
        .show(&mut ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(&sc.title).strong());
                ui.separator();
                ui.label(turn_line(&turn));
                ui.separator();
                // A Banzai Charge still to be called (R 59.6).
                let called = banzai_called.as_ref().map_or(&[][..], |c| &c.0[..]);
                if let Some(w) = crate::rules::banzai::due_windows(
                    &sc.special_rules.banzai_windows(),
                    called,
                    turn.turn,
                )
                .first()
                {
                    ui.label(
                        RichText::new(format!("Banzai Charge due: {} (R 59.6)", w.label()))
                            .color(ACCENT),
                    );
                    ui.separator();
                }
                // Whoever must answer now: a decision or an Op Fire window
                // is the other side's while the Ops Range is not (R 9.0).
                let acting = crate::bot::side_to_act(
                    to_act.over.is_some(),
                    to_act.event.as_deref(),
                    to_act.pending.as_deref(),
                    to_act.window.as_deref(),
                    ops.as_deref(),
                );
                ui.label(match acting {
                    Some(side) => format!("To act: {}", side_name(sc, side)),
                    None if to_act.over.is_some() => "Game over".to_string(),
                    None => format!("To act: {}", side_name(sc, turn.active)),
                });
                for card in &sc.sides {
                    ui.separator();
                    // The side acting shows its tally: used/max (min–max), R 4.1.
                    let tally = ops
                        .as_ref()
                        .filter(|o| o.acting == card.side)
                        .map(|o| format!("{}/{} ", o.tally.used, o.tally.range.max))
                        .unwrap_or_default();
                    ui.label(format!(
                        "{}: Ops {tally}({}\u{2013}{}), CPs left {}",
                        side_name(sc, card.side),
                        card.ops_range.min,
                        card.ops_range.max,
                        cps.as_deref().map_or_else(
                            || crate::engine::command_points::CommandPoints::from_card(sc, [0; 2])
                                .left(card.side),
                            |c| c.left(card.side)
                        )
                    ));
                }
                ui.separator();
                ui.label(
                    RichText::new(format!("View: {} (V)", side_name(sc, viewer.0))).color(ACCENT),
                );
                ui.separator();
                // The two reference panels, by key or by click.
                if ui
                    .selectable_label(panels.player_aid, "Player Aid (F1)")
                    .clicked()
                {
                    panels.player_aid = !panels.player_aid;
                }
                if ui
                    .selectable_label(panels.scenario_card, "Scenario Card (F2)")
                    .clicked()
                {
                    panels.scenario_card = !panels.scenario_card;
                }
            });
        })
        .response
        .rect
        .height();

    let bottom = egui::Panel::bottom("log")
        .resizable(true)
        .default_size(170.0)
        .show(&mut ui, |ui| {
            super::dialogs::action_bar(ui, &act.bar, *act.intent, &act.path, &mut act.requests);
            ui.separator();
            ui.label(RichText::new("LOG").strong().color(ACCENT));
            if let Some(r) = &act.log.refusal {
                ui.label(RichText::new(r).color(Color32::from_rgb(240, 90, 70)));
            }
            // Only the rows in view are laid out (a whole game's log is
            // hundreds of lines): one line a row, long lines scroll sideways.
            let row = ui.text_style_height(&egui::TextStyle::Monospace);
            // The viewing side's copy: enemy Conceal counters by their hexes,
            // the other side's questions left out (R 15.0); with the computer
            // on both sides (a demo nobody took command of), the referee's
            // lines, as the captions tell it.
            let shown = match &act.demo {
                Some(d) if d.human.is_none() => act.log.shown_to(None),
                _ => act.log.shown_to(Some(act.viewer.0)),
            };
            egui::ScrollArea::both()
                .stick_to_bottom(true)
                .auto_shrink([false, false])
                .show_rows(ui, row, shown.len(), |ui, rows| {
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                    ui.spacing_mut().button_padding.y = 0.0;
                    ui.spacing_mut().interact_size.y = row;
                    for i in rows {
                        let Some(&(at, line)) = shown.get(i) else {
                            continue;
                        };
                        // The egui fonts have no arrow glyph.
                        let line = super::dialogs::ascii(line);
                        let on = act.highlight.line == Some(at);
                        let has_hexes = act.log.hexes.get(at).is_some_and(|h| !h.is_empty());
                        let text = RichText::new(line).monospace();
                        if has_hexes {
                            if ui.selectable_label(on, text).clicked() {
                                act.highlight.line = if on { None } else { Some(at) };
                            }
                        } else {
                            ui.label(text);
                        }
                    }
                });
        })
        .response
        .rect
        .height();

    let mut left = 0.0;
    if panels.scenario_card {
        left = egui::Panel::left("scenario_card")
            .resizable(true)
            .default_size(300.0)
            .show(&mut ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| scenario_card(ui, sc));
            })
            .response
            .rect
            .width();
    }

    let right = egui::Panel::right("info")
        .resizable(true)
        .default_size(400.0)
        .show(&mut ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                steady_section(ui, "hex_card", |ui| {
                    hex_card(
                        ui, sc, &board.0, &aid.0, &roster.0, hovered.0, viewer.0, &units, &forts,
                        &act.plan,
                    );
                });
                ui.separator();
                steady_section(ui, "los_card", |ui| los_card(ui, &los));
                let chosen = selected.0.and_then(|e| units.get(e).ok()).or_else(|| {
                    hovered.0.and_then(|c| {
                        units
                            .iter()
                            .filter(|r| r.2.coord == c)
                            .filter(|r| shown_to(viewer.0, r.1.side, r.6.copied()) == Shown::Face)
                            .min_by_key(|r| r.1.id.clone())
                    })
                });
                steady_section(ui, "unit_card", |ui| match chosen {
                    Some(row) => unit_card(ui, sc, &roster.0, row, viewer.0),
                    None => {
                        ui.label(RichText::new("Unit card").strong().color(ACCENT));
                        ui.label(RichText::new("Hover a hex or click a unit.").color(DIM));
                    }
                });
                ui.separator();
                let header = RichText::new("PLAYER AID (F1)").strong().color(ACCENT);
                // Closed, its tables are not laid out at all.
                if ui.selectable_label(panels.player_aid, header).clicked() {
                    panels.player_aid = !panels.player_aid;
                }
                if panels.player_aid {
                    player_aid(ui, &aid.0, &mut panels.aid_tab);
                } else {
                    ui.label(RichText::new("Closed \u{2014} F1 or a click opens it.").color(DIM));
                }
            });
        })
        .response
        .rect
        .width();

    let scale = ctx.zoom_factor();
    let (l, r, t, b) = (left * scale, right * scale, top * scale, bottom * scale);
    if (insets.left - l).abs() > 0.5
        || (insets.right - r).abs() > 0.5
        || (insets.top - t).abs() > 0.5
        || (insets.bottom - b).abs() > 0.5
    {
        insets.left = l;
        insets.right = r;
        insets.top = t;
        insets.bottom = b;
    }
    Ok(())
}

fn los_card(ui: &mut egui::Ui, los: &super::los_tool::LosTool) {
    match (&los.from, &los.result) {
        (_, Some((from, to, result))) => {
            ui.label(
                RichText::new(format!("LINE OF SIGHT {} to {}", from.label(), to.label()))
                    .strong()
                    .color(ACCENT),
            );
            let colour = match result {
                crate::rules::los::Los::Seen(s) if s.is_clear() => Color32::from_rgb(90, 220, 110),
                crate::rules::los::Los::Seen(_) => Color32::from_rgb(250, 185, 40),
                crate::rules::los::Los::Blocked { .. } => Color32::from_rgb(240, 70, 60),
            };
            ui.label(RichText::new(result.summary()).color(colour));
            ui.label(
                RichText::new("L moves the anchor \u{00b7} Esc puts the tool away")
                    .small()
                    .color(DIM),
            );
        }
        (Some(from), None) => {
            ui.label(
                RichText::new(format!("LINE OF SIGHT from {}", from.label()))
                    .strong()
                    .color(ACCENT),
            );
            ui.label(RichText::new("Hover another hex.").color(DIM));
        }
        (None, None) => {
            ui.label(
                RichText::new("Line of Sight: press L over a hex, then hover another.").color(DIM),
            );
        }
    }
    ui.separator();
}

fn side_card(sc: &Scenario, side: SideId) -> Option<&SideCard> {
    sc.sides.iter().find(|c| c.side == side)
}

pub fn side_name(sc: &Scenario, side: SideId) -> String {
    side_card(sc, side).map_or_else(|| format!("{side:?}"), |c| c.nationality.name().to_string())
}

fn edge_name(e: MapEdge) -> &'static str {
    match e {
        MapEdge::North => "north",
        MapEdge::South => "south",
        MapEdge::East => "east",
        MapEdge::West => "west",
    }
}

/// A victory condition as the card prints it.
pub fn victory_sentence(sc: &Scenario, v: &VictoryCondition) -> String {
    match v {
        VictoryCondition::ControlHexes {
            side,
            hexes,
            at_least,
        } => match at_least {
            Some(n) => format!(
                "{} win if they control at least {n} of {} at the end of the game.",
                side_name(sc, *side),
                hexes.join(", ")
            ),
            None => format!(
                "{} win if they control {} at the end of the game.",
                side_name(sc, *side),
                hexes.join(", ")
            ),
        },
        VictoryCondition::EliminateUnits {
            side,
            count,
            reduced_counts_half,
        } => format!(
            "{} win by eliminating {count} enemy units{} (Squads, WTs and Guns; Decoys never count, R 18.0).",
            side_name(sc, *side),
            if *reduced_counts_half {
                ", a Reduced unit counting half"
            } else {
                ""
            }
        ),
        VictoryCondition::ExitUnits { side, count, edge } => format!(
            "{} win by exiting {count} units off the {} edge.",
            side_name(sc, *side),
            edge_name(*edge)
        ),
        VictoryCondition::Otherwise { side } => {
            format!("Otherwise the {} win.", side_name(sc, *side))
        }
    }
}

/// The special rules as sentences with their rule references.
pub fn special_rule_lines(sc: &Scenario) -> Vec<String> {
    let r = &sc.special_rules;
    let mut v = Vec::new();
    if r.facing_required {
        v.push("Infantry facing is in use (R 2.2).".to_string());
    }
    if r.combat_events {
        v.push("Combat Events are in use (R 17.0).".to_string());
    }
    if let Some(n) = r.night {
        v.push(format!(
            "Night: Visibility Range {} (R 50.0).",
            n.visibility_range
        ));
    }
    if r.monsoon {
        v.push("Monsoon: storm checks in the Recovery Phase (R 55.2).".to_string());
    }
    for w in r.banzai_windows() {
        v.push(if w.from == w.to {
            format!("One Banzai Charge on {} (R 59.6).", w.label())
        } else {
            format!(
                "One Banzai Charge in {}: the Japanese call it at the start of the turn they choose; on Turn {} it comes by itself (R 59.6).",
                w.label(),
                w.to
            )
        });
    }
    if r.japanese_minus_two_conceal {
        v.push("Japanese units start under \u{2212}2 Conceal counters (R 59.2).".to_string());
    }
    if r.new_britain_jungle {
        v.push("New Britain: Jungle costs 2.5 MP (R 51.0).".to_string());
    }
    v.extend(r.notes.iter().cloned());
    v
}

pub fn scenario_card(ui: &mut egui::Ui, sc: &Scenario) {
    ui.label(RichText::new("SCENARIO CARD (F2)").strong().color(ACCENT));
    ui.heading(&sc.title);
    ui.label(RichText::new(format!("{} \u{2014} {}", sc.place, sc.date)).italics());
    if !sc.introduction.is_empty() {
        ui.add_space(4.0);
        ui.label(&sc.introduction);
    }
    ui.add_space(6.0);
    egui::Grid::new("card_facts")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            ui.label("Turns");
            ui.label(sc.turns.to_string());
            ui.end_row();
            ui.label("First player");
            ui.label(side_name(sc, sc.first_player));
            ui.end_row();
            ui.label("Map");
            let last = Coord::new(
                sc.map.columns.saturating_sub(1),
                sc.map.rows.saturating_sub(1),
            );
            ui.label(format!(
                "{}\u{00d7}{} hexes, A1\u{2013}{}",
                sc.map.columns,
                sc.map.rows,
                last.label()
            ));
            ui.end_row();
        });
    for card in &sc.sides {
        ui.add_space(6.0);
        ui.label(
            RichText::new(format!(
                "{} \u{2014} {}",
                card.nationality.name(),
                card.force
            ))
            .strong()
            .color(ACCENT),
        );
        egui::Grid::new(format!("card_side_{:?}", card.side))
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                ui.label("Ops Range");
                ui.label(format!(
                    "{}\u{2013}{} (R 4.1)",
                    card.ops_range.min, card.ops_range.max
                ));
                ui.end_row();
                ui.label("Command Points");
                ui.label(format!("{} per turn (R 3.0)", card.command_points));
                ui.end_row();
                for co in &card.companies {
                    ui.label(format!("Company {}", co.company));
                    ui.label(format!("{} CPs (R 3.1)", co.command_points));
                    ui.end_row();
                }
                ui.label("Decoys");
                ui.label(card.decoys.to_string());
                ui.end_row();
                ui.label("Rout Edge");
                ui.label(edge_name(card.rout_edge));
                ui.end_row();
                ui.label("Sets up in");
                ui.label(card.setup_area.join(", "));
                ui.end_row();
            });
        if !card.setup_note.is_empty() {
            ui.label(RichText::new(&card.setup_note).color(DIM));
        }
    }
    ui.add_space(6.0);
    ui.label(RichText::new("Victory").strong().color(ACCENT));
    for v in &sc.victory {
        ui.label(format!("\u{2022} {}", victory_sentence(sc, v)));
    }
    let ssr = special_rule_lines(sc);
    if !ssr.is_empty() {
        ui.add_space(6.0);
        ui.label(RichText::new("Special rules").strong().color(ACCENT));
        for s in ssr {
            ui.label(format!("\u{2022} {s}"));
        }
    }
    if !sc.reinforcements.is_empty() {
        ui.add_space(6.0);
        ui.label(RichText::new("Reinforcements").strong().color(ACCENT));
        for r in &sc.reinforcements {
            let entry = match &r.entry {
                Entry::Edge(e) => format!("enter from the {} edge", edge_name(*e)),
                Entry::AreaOfControl => "set up in their Area of Control (R 16.1)".to_string(),
                Entry::Hexes(h) => format!("set up in {}", h.join(", ")),
            };
            let units: Vec<String> = r
                .units
                .iter()
                .map(|u| format!("{} ({})", u.id, u.unit))
                .collect();
            ui.label(format!(
                "\u{2022} Turn {}: {} \u{2014} {}; {}.",
                r.turn,
                side_name(sc, r.side),
                units.join(", "),
                entry
            ));
        }
    }
}

fn cell_text(c: &Cell) -> String {
    c.label()
}

/// Shortens a table entry to `max` characters; the full text goes in the tooltip.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
        s.push('\u{2026}');
        s
    }
}

/// The info panel's sections that keep their height (`steady_section`).
const STEADY_SECTIONS: [&str; 3] = ["hex_card", "los_card", "unit_card"];

fn steady_key(name: &str) -> egui::Id {
    egui::Id::new(("steady_section", name))
}

/// A board opened (a new game, a loaded one) starts its cards at their own
/// heights again.
pub fn forget_card_heights(mut contexts: EguiContexts) {
    if let Ok(ctx) = contexts.ctx_mut() {
        ctx.data_mut(|d| {
            for name in STEADY_SECTIONS {
                d.remove::<f32>(steady_key(name));
            }
        });
    }
}

/// A section of the info panel that keeps the tallest height it has had
/// since the board opened (`forget_card_heights`), so that what is under it
/// stays in place as the mouse goes from hex to hex (a player reads the
/// cards without them jumping, and a frame redraws only the lines that
/// changed: docs/performance.md's history in git, "Sweep frames, round 5").
fn steady_section(ui: &mut egui::Ui, name: &str, add: impl FnOnce(&mut egui::Ui)) {
    debug_assert!(STEADY_SECTIONS.contains(&name));
    let key = steady_key(name);
    let tallest = ui.data(|d| d.get_temp::<f32>(key)).unwrap_or(0.0);
    let height = ui
        .scope(|ui| {
            ui.set_min_height(tallest);
            add(ui);
        })
        .response
        .rect
        .height();
    if height > tallest {
        ui.data_mut(|d| d.insert_temp(key, height));
    }
}

/// Rows of facts, a name and its value, in two columns of half the width
/// each (a long value wraps), striped as egui's grids are. Laid out in the
/// frame that shows them: an egui grid sizes its columns and rows from the
/// frame before, so a hex with a longer value, or one wrapping onto a
/// second line, was drawn again a frame later with the lines under it moved
/// (docs/performance.md's history in git, "Sweep frames, round 5").
fn facts(ui: &mut egui::Ui, rows: &[(&str, String)]) {
    let gap = ui.spacing().item_spacing;
    let half = ((ui.available_width() - gap.x) / 2.0).max(0.0);
    let height = ui.spacing().interact_size.y;
    let stripe = ui.visuals().faint_bg_color;
    let column = egui::Layout::top_down(egui::Align::Min);
    for (n, (name, value)) in rows.iter().enumerate() {
        let background = ui.painter().add(egui::Shape::Noop);
        let row = ui.horizontal(|ui| {
            ui.set_min_height(height);
            ui.allocate_ui_with_layout(egui::vec2(half, height), column, |ui| {
                ui.set_width(half);
                ui.label(*name);
            });
            ui.allocate_ui_with_layout(egui::vec2(half, height), column, |ui| {
                ui.set_width(half);
                ui.add(egui::Label::new(value.as_str()).wrap());
            });
        });
        if n % 2 == 1 {
            let rect = row.response.rect.expand2(egui::vec2(0.0, gap.y / 2.0));
            ui.painter()
                .set(background, egui::Shape::rect_filled(rect, 0.0, stripe));
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn hex_card(
    ui: &mut egui::Ui,
    sc: &Scenario,
    board: &crate::world::Board,
    aid: &PlayerAid,
    roster: &crate::scenario::Roster,
    hovered: Option<Coord>,
    viewer: SideId,
    units: &Query<UnitQueryRow>,
    forts: &Query<(&FortificationCounter, &Location)>,
    plan: &super::facing::FacingPlan,
) {
    let Some(c) = hovered else {
        ui.label(RichText::new("Hex").strong().color(ACCENT));
        ui.label(RichText::new("Hover a hex to see its terrain and counters.").color(DIM));
        return;
    };
    let Some(cell) = board.cell(c) else {
        return;
    };
    ui.label(
        RichText::new(format!(
            "Hex {} \u{2014} {}",
            c.label(),
            cell.terrain.name()
        ))
        .strong()
        .color(ACCENT),
    );
    let mut rows: Vec<(&str, String)> = Vec::new();
    if let Some(row) = aid.terrain_row(cell.terrain.key()) {
        rows.push((
            "Infantry fire",
            format!("{} ({})", cell_text(&row.inf), row.source.label()),
        ));
        rows.push(("Infantry MP", cell_text(&row.inf_mp)));
        rows.push((
            "Beneficial Terrain",
            (if row.beneficial { "yes" } else { "no" }).into(),
        ));
    }
    rows.push(("Elevation", format!("Level {} (R 47.0)", cell.level)));
    let mut sides = Vec::new();
    for s in crate::scenario::schema::Side6::ALL {
        for f in board.hexside(c, s) {
            sides.push(format!("{f:?} ({s:?})"));
        }
    }
    if !sides.is_empty() {
        rows.push(("Hexsides", sides.join(", ")));
    }
    let mut roads = Vec::new();
    for s in crate::scenario::schema::Side6::ALL {
        if let Some(k) = board.road(c, s) {
            roads.push(format!("{k:?} ({s:?})"));
        }
    }
    if !roads.is_empty() {
        rows.push(("Roads/paths", roads.join(", ")));
    }
    facts(ui, &rows);
    let here_units: Vec<_> = units.iter().filter(|r| r.2.coord == c).collect();
    let own_here = here_units.iter().any(|r| r.1.side == viewer);
    for (f, _) in forts.iter().filter(|(_, l)| l.coord == c) {
        if f.concealed && !own_here {
            ui.label("\u{2022} Concealed Fortification (R 43.0)");
        } else {
            ui.label(format!(
                "\u{2022} {}{}{}",
                f.kind.name(),
                f.facing
                    .map(|s| format!(", facing {s:?}"))
                    .unwrap_or_default(),
                if f.concealed { ", concealed" } else { "" }
            ));
        }
    }
    let mut rows = here_units;
    rows.sort_by_key(|r| r.1.id.clone());
    for r in rows {
        let where_ = if r.2.in_cave { " (in the Cave)" } else { "" };
        match shown_to(viewer, r.1.side, r.6.copied()) {
            Shown::ConcealOnly { minus_two } => {
                ui.label(format!(
                    "\u{2022} Conceal counter {} ({}){where_}",
                    if minus_two { "\u{2212}2" } else { "\u{2212}1" },
                    side_name(sc, r.1.side)
                ));
            }
            Shown::Face => {
                let name = roster
                    .get(&r.1.kind)
                    .map_or(r.1.kind.as_str(), |u| u.name.as_str());
                ui.label(format!(
                    "\u{2022} {} {}{}{where_}{}",
                    r.1.id,
                    name,
                    if r.1.reduced { " (Reduced)" } else { "" },
                    super::facing::facing_words(r.3.map(|f| f.0), plan.of(r.0))
                ));
            }
        }
    }
}

fn side_values(side: &CounterSide) -> [String; 7] {
    [
        side.fp.to_string(),
        side.prof.to_string(),
        side.melee.map_or("\u{2014}".to_string(), |m| m.to_string()),
        side.range.label(),
        side.satw.map_or("\u{2014}".to_string(), |s| s.to_string()),
        match side.casualty {
            (a, Some(b)) => format!("{a}/{b}"),
            (a, None) => a.to_string(),
        },
        format!("{}/{}/{}", side.morale.0, side.morale.1, side.morale.2),
    ]
}

fn unit_card(
    ui: &mut egui::Ui,
    sc: &Scenario,
    roster: &crate::scenario::Roster,
    row: UnitQueryRow,
    viewer: SideId,
) {
    let (_, unit, loc, facing, supp, marks, conc) = row;
    let marks = marks.copied().unwrap_or_default();
    if shown_to(viewer, unit.side, conc.copied()) != Shown::Face {
        ui.label(RichText::new("Unit card").strong().color(ACCENT));
        ui.label("An enemy Conceal counter: what lies beneath is unknown (R 15.0).");
        return;
    }
    let Some(ut): Option<&UnitType> = roster.get(&unit.kind) else {
        ui.label(format!("Unknown unit type {}", unit.kind));
        return;
    };
    ui.label(
        RichText::new(format!("UNIT {} \u{2014} {}", unit.id, ut.name))
            .strong()
            .color(ACCENT),
    );
    ui.label(format!(
        "{} \u{00b7} {} \u{00b7} {} MP \u{00b7} {} at {}{}",
        ut.nationality.name(),
        ut.class.name(),
        ut.mp,
        side_name(sc, unit.side),
        loc.coord.label(),
        if loc.in_cave { " (in the Cave)" } else { "" }
    ));
    // A Gun shows its Gun values instead (R 20.2, R 20.4).
    super::gun_art::gun_values(ui, ut);
    if ut.gun.is_none() {
        egui::Grid::new("unit_values")
            .num_columns(8)
            .striped(true)
            .show(ui, |ui| {
                for h in [
                    "", "FP", "Prof", "Melee", "Range", "SATW", "Casualty", "Morale",
                ] {
                    let head = ui.label(RichText::new(h).strong());
                    if h == "Morale" {
                        head.on_hover_text(MORALE_COLUMNS);
                    }
                }
                ui.end_row();
                for (label, side, current) in [
                    ("Full", &ut.full, !unit.reduced),
                    ("Reduced", &ut.reduced, unit.reduced),
                ] {
                    let text = |s: String| {
                        if current {
                            RichText::new(s).strong().color(Color32::WHITE)
                        } else {
                            RichText::new(s).color(DIM)
                        }
                    };
                    ui.label(text(label.to_string()));
                    for v in side_values(side) {
                        ui.label(text(v));
                    }
                    ui.end_row();
                }
            });
    }
    let mut status = Vec::new();
    match supp {
        Some(Suppression::Suppressed) => status.push("Suppressed (R 7.0)".to_string()),
        Some(Suppression::Full) => status.push("Fully Suppressed (R 7.0)".to_string()),
        None => {}
    }
    if marks.used {
        status.push("Used (R 4.2)".into());
    }
    if marks.op_fire {
        status.push("Op Fire (R 4.3)".into());
    }
    if let Some(c) = conc {
        status.push(format!(
            "Concealed {} (R 15.0{})",
            if c.minus_two {
                "\u{2212}2"
            } else {
                "\u{2212}1"
            },
            if c.minus_two { ", R 59.2" } else { "" }
        ));
    }
    if let Some(f) = facing {
        status.push(format!("facing {:?} (R 2.2)", f.0));
    }
    if ut.seishin {
        status.push("Seishin (R 59.5)".into());
    }
    if ut.fireteams {
        status.push("Fireteams (R 58.3)".into());
    }
    if !status.is_empty() {
        ui.label(status.join(" \u{00b7} "));
    }
    source_label(ui, &ut.source);
}

fn source_label(ui: &mut egui::Ui, source: &Source) {
    let text = format!("Source: {}", source.label());
    if source.is_house() {
        ui.label(RichText::new(text).color(HOUSE));
    } else {
        ui.label(RichText::new(text).color(DIM));
    }
}

fn player_aid(ui: &mut egui::Ui, aid: &PlayerAid, tab: &mut usize) {
    ui.style_mut().override_text_style = Some(egui::TextStyle::Small);
    ui.spacing_mut().item_spacing = egui::vec2(6.0, 2.0);
    let mut titles: Vec<String> = vec!["Terrain".into(), "Situations".into(), "Morale".into()];
    titles.extend(
        aid.tables
            .iter()
            .map(|t| format!("{} {}", t.section, t.title)),
    );
    ui.horizontal_wrapped(|ui| {
        for (i, t) in titles.iter().enumerate() {
            ui.selectable_value(tab, i, t.as_str());
        }
    });
    ui.label(
        RichText::new(
            "Amber = House value (not printed on the PAC); hover a row for its source and note.",
        )
        .small()
        .color(HOUSE),
    );
    egui::ScrollArea::horizontal()
        .id_salt("aid_scroll")
        .show(ui, |ui| match *tab {
            0 => {
                egui::Grid::new("aid_terrain").striped(true).show(ui, |ui| {
                    for h in [
                        "Terrain", "Inf", "V/G", "Mort", "Art", "Air", "SC", "Flame", "Inf MP",
                        "Veh MP",
                    ] {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    for row in &aid.terrain {
                        let colour = if row.source.is_house() {
                            HOUSE
                        } else {
                            Color32::LIGHT_GRAY
                        };
                        let tip = format!("{} \u{2014} {}", row.source.label(), row.note);
                        ui.label(RichText::new(clip(&row.name, 26)).color(colour))
                            .on_hover_text(&tip);
                        for c in [
                            &row.inf,
                            &row.vg,
                            &row.mort,
                            &row.art,
                            &row.air,
                            &row.sc,
                            &row.flame,
                            &row.inf_mp,
                            &row.veh_mp,
                        ] {
                            let full = cell_text(c);
                            ui.label(RichText::new(clip(&full, 6)).color(colour))
                                .on_hover_text(format!("{full}\n{tip}"));
                        }
                        ui.end_row();
                    }
                });
            }
            1 | 2 => {
                let rows = if *tab == 1 {
                    &aid.situations
                } else {
                    &aid.morale
                };
                egui::Grid::new(("aid_mods", *tab))
                    .striped(true)
                    .show(ui, |ui| {
                        for h in ["Situation", "Inf", "V/G", "Mort", "Art", "Source"] {
                            ui.label(RichText::new(h).strong());
                        }
                        ui.end_row();
                        for row in rows {
                            let colour = if row.source.is_house() {
                                HOUSE
                            } else {
                                Color32::LIGHT_GRAY
                            };
                            let mut inf = cell_text(&row.inf);
                            if !row.bands.is_empty() {
                                let bands: Vec<String> = row
                                    .bands
                                    .iter()
                                    .map(|b| {
                                        let v = Cell::Fp(b.value).label();
                                        if b.to >= 99 {
                                            format!("{}+: {v}", b.from)
                                        } else {
                                            format!("{}\u{2013}{}: {v}", b.from, b.to)
                                        }
                                    })
                                    .collect();
                                inf = bands.join(", ");
                            }
                            ui.label(RichText::new(clip(&row.name, 30)).color(colour))
                                .on_hover_text(format!("{}\n{}", row.name, row.note));
                            ui.label(RichText::new(clip(&inf, 22)).color(colour))
                                .on_hover_text(&inf);
                            for c in [&row.vg, &row.mort, &row.art] {
                                let full = cell_text(c);
                                ui.label(RichText::new(clip(&full, 8)).color(colour))
                                    .on_hover_text(full);
                            }
                            ui.label(RichText::new(clip(&row.source.label(), 14)).color(colour))
                                .on_hover_text(row.source.label());
                            ui.end_row();
                        }
                    });
            }
            n => {
                if let Some(t) = aid.tables.get(n - 3) {
                    ui.label(RichText::new(format!("{} {}", t.section, t.title)).strong());
                    egui::Grid::new(("aid_table", n))
                        .striped(true)
                        .show(ui, |ui| {
                            if !t.columns.is_empty() {
                                for h in &t.columns {
                                    ui.label(RichText::new(h).strong());
                                }
                                ui.label(RichText::new("Source").strong());
                                ui.end_row();
                            }
                            for row in &t.rows {
                                let colour = if row.source.is_house() {
                                    HOUSE
                                } else {
                                    Color32::LIGHT_GRAY
                                };
                                for c in &row.cells {
                                    ui.label(RichText::new(clip(c, 48)).color(colour))
                                        .on_hover_text(c);
                                }
                                ui.label(RichText::new(row.source.label()).color(colour));
                                ui.end_row();
                            }
                        });
                }
            }
        });
}
