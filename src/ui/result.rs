//! The result screen: when the last turn is over (R 13.0, R 18.0) the
//! winner, every victory condition read with its numbers (the verdict of
//! `rules::victory::evaluate`, as `phases::end::finish` left it), the losses
//! of each side and a turn-by-turn summary gathered from the events of every
//! accepted order (hexes taken, units lost, steps reduced). Buttons: main
//! menu, save, quit.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::RichText;

use crate::engine::GameEvent;
use crate::engine::phases::end::{Control, GameOver};
use crate::rules::fire::FireOutcome;
use crate::rules::victory::HexControl;
use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, TurnTrack};

use super::panels::{ACCENT, DIM, side_name};

/// What one turn cost and gained each side (index by `SideId::index`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnLine {
    pub turn: u8,
    /// Hexes that came under the side's control this turn (R 18.0).
    pub taken: [Vec<String>; 2],
    /// The side's units eliminated this turn.
    pub lost: [Vec<String>; 2],
    /// Steps the side's units lost to Reduction this turn (R 8.0, R 12.0).
    pub reduced: [u16; 2],
}

/// The turn-by-turn record, fed by every accepted order.
#[derive(Resource, Debug, Clone, Default)]
pub struct TurnRecord {
    pub turns: Vec<TurnLine>,
    /// Control as it was after the last order noted.
    control: Option<HexControl>,
}

impl TurnRecord {
    fn line(&mut self, turn: u8) -> &mut TurnLine {
        if let Some(i) = self.turns.iter().position(|t| t.turn == turn) {
            return &mut self.turns[i];
        }
        self.turns.push(TurnLine {
            turn,
            ..TurnLine::default()
        });
        self.turns.sort_by_key(|t| t.turn);
        let i = self.turns.iter().position(|t| t.turn == turn).unwrap_or(0);
        &mut self.turns[i]
    }
}

/// The side of a unit by its id, from the scenario's setup and
/// reinforcements (the unit may be gone from the board).
fn side_of(world: &World, unit: &str) -> Option<SideId> {
    let sc = &world.get_resource::<ActiveScenario>()?.scenario;
    sc.setup
        .iter()
        .find(|p| p.id == unit)
        .map(|p| p.side)
        .or_else(|| {
            sc.reinforcements
                .iter()
                .find(|r| r.units.iter().any(|u| u.id == unit))
                .map(|r| r.side)
        })
}

/// Whether the unit is a Decoy (its removal is no loss, R 15.0).
fn is_decoy(world: &World, unit: &str) -> bool {
    let Some(sc) = world.get_resource::<ActiveScenario>() else {
        return false;
    };
    let Some(roster) = world.get_resource::<crate::world::RosterRes>() else {
        return false;
    };
    let kind = sc
        .scenario
        .setup
        .iter()
        .find(|p| p.id == unit)
        .map(|p| p.unit.clone())
        .or_else(|| {
            sc.scenario
                .reinforcements
                .iter()
                .flat_map(|r| r.units.iter())
                .find(|u| u.id == unit)
                .map(|u| u.unit.clone())
        });
    kind.and_then(|k| roster.0.get(&k))
        .is_some_and(|t| t.class == crate::scenario::roster::UnitClass::Decoy)
}

/// [`super::act::OrderShown`]: the accepted order in the turn record.
pub fn on_order(world: &mut World) {
    world.resource_scope(|world, applied: Mut<super::act::Applied>| {
        note_events(world, &applied.events);
    });
}

/// Adds an accepted order's events to the turn record: eliminations and
/// Reductions by the turn they happened in, and the hexes whose control
/// changed (R 18.0) to the turn the order was given in.
pub fn note_events(world: &mut World, events: &[GameEvent]) {
    let Some(now) = world.get_resource::<TurnTrack>().map(|t| t.turn) else {
        return;
    };
    let began = events
        .iter()
        .filter(|e| matches!(e, GameEvent::TurnBegins { .. }))
        .count() as u8;
    let mut turn = now.saturating_sub(began).max(1);
    let start = turn;
    let mut lost: Vec<(u8, SideId, String)> = Vec::new();
    let mut reduced: Vec<(u8, SideId)> = Vec::new();
    for e in events {
        let (unit, eliminated) = match e {
            GameEvent::TurnBegins { turn: t } => {
                turn = *t;
                continue;
            }
            e if e.eliminated_unit().is_some() => (e.eliminated_unit().unwrap_or_default(), true),
            GameEvent::MeleeCasualty {
                unit,
                eliminated: false,
            }
            | GameEvent::RoutCasualty {
                unit,
                eliminated: false,
                ..
            }
            | GameEvent::FireResult {
                target: unit,
                outcome: FireOutcome::Reduced,
                ..
            }
            | GameEvent::SsDesperation { unit } => (unit.as_str(), false),
            _ => continue,
        };
        if is_decoy(world, unit) {
            continue;
        }
        let Some(side) = side_of(world, unit) else {
            continue;
        };
        if eliminated {
            if !lost.iter().any(|l| l.2 == unit) {
                lost.push((turn, side, unit.to_string()));
            }
        } else {
            reduced.push((turn, side));
        }
    }
    let control = world.get_resource::<Control>().map(|c| c.0.clone());
    let mut record = world.get_resource_or_insert_with(TurnRecord::default);
    // Every turn an order was given in has its line, quiet or not.
    record.line(start);
    for (t, side, unit) in lost {
        record.line(t).lost[side.index()].push(unit);
    }
    for (t, side) in reduced {
        record.line(t).reduced[side.index()] += 1;
    }
    let Some(control) = control else {
        return;
    };
    if let Some(before) = record.control.take() {
        let mut taken: Vec<(crate::scenario::Coord, SideId)> = control
            .0
            .iter()
            .filter(|(c, s)| before.controller(**c) != Some(**s))
            .map(|(c, s)| (*c, *s))
            .collect();
        taken.sort_by_key(|(c, _)| (c.col, c.row));
        for (c, s) in taken {
            record.line(start).taken[s.index()].push(c.label());
        }
    }
    record.control = Some(control);
}

/// Starts the record on the position as it stands (after setup, or after a
/// resumed journal's replay): control changes count from here.
pub fn start_record(world: &mut World) {
    let control = world.get_resource::<Control>().map(|c| c.0.clone());
    world.insert_resource(TurnRecord {
        turns: Vec::new(),
        control,
    });
}

/// The whole game's record, rebuilt from the journal on disk (a resumed or
/// loaded game included): its orders replayed headlessly, each order's
/// events noted as in the window. None without a readable journal.
fn journal_record(world: &World) -> Option<TurnRecord> {
    use crate::journal::replay::scenario_of;
    let path = world
        .get_resource::<crate::ui::session::GameJournal>()?
        .writer
        .path
        .clone();
    let read = crate::journal::read_journal(&path).ok()?;
    let roster = world
        .get_resource::<crate::world::RosterRes>()?
        .0
        .as_ref()
        .clone();
    let aid = world
        .get_resource::<crate::world::AidRes>()?
        .0
        .as_ref()
        .clone();
    let loaded = scenario_of(&read, &roster, &aid).ok()?;
    let mut w = crate::engine::headless_world(loaded, roster, aid, read.header.seed);
    let mut dice = crate::engine::Dice::seeded(read.header.seed);
    dice.force(read.header.rolls.iter().copied());
    w.insert_resource(dice);
    crate::engine::game::begin_game(&mut w);
    start_record(&mut w);
    for (_, entry) in &read.entries {
        let events = crate::engine::game::apply(&mut w, &entry.order).ok()?;
        note_events(&mut w, &events);
    }
    w.remove_resource::<TurnRecord>()
}

/// The result screen's content, made once when the game ends.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct ResultScreen {
    pub winner: Option<SideId>,
    /// "American (Airborne) win" or "A draw".
    pub headline: String,
    /// Each condition read, in the card's order, met or not and why.
    pub reasons: Vec<String>,
    /// Per side: eliminated and Reduced units: Squads, WTs and Guns (R 18.0).
    pub losses: Vec<String>,
    pub turns: Vec<TurnLine>,
    /// The board is being looked at: the window is folded.
    pub folded: bool,
}

/// Opens the result screen once the game is over.
pub fn open_result(world: &mut World) {
    if world.get_resource::<ResultScreen>().is_some() {
        return;
    }
    let Some(GameOver(verdict)) = world.get_resource::<GameOver>().cloned() else {
        return;
    };
    let sc = world.resource::<ActiveScenario>().scenario.clone();
    let tally = crate::engine::phases::end::tally(world);
    let headline = match verdict.winner {
        Some(s) => format!("{} win", side_name(&sc, s)),
        None => "A draw".to_string(),
    };
    let losses = SideId::BOTH
        .iter()
        .map(|s| {
            format!(
                "{}: {} units eliminated, {} Reduced at the end",
                side_name(&sc, *s),
                tally.eliminated[s.index()],
                tally.reduced[s.index()]
            )
        })
        .collect();
    let turns = journal_record(world)
        .or_else(|| world.get_resource::<TurnRecord>().cloned())
        .map(|r| r.turns)
        .unwrap_or_default();
    world.insert_resource(ResultScreen {
        winner: verdict.winner,
        headline,
        reasons: verdict.reasons,
        losses,
        turns,
        folded: false,
    });
}

/// What the result screen's buttons asked for.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ResultRequest {
    pub menu: bool,
    pub quit: bool,
}

/// The result window.
pub fn result_window(
    mut contexts: EguiContexts,
    active: Res<ActiveScenario>,
    screen: Option<ResMut<ResultScreen>>,
    mut request: ResMut<ResultRequest>,
    mut save: ResMut<crate::ui::session::SaveDialog>,
) -> Result {
    let Some(mut screen) = screen else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    let sc = &active.scenario;
    if screen.folded {
        egui::Window::new("Result")
            .id(egui::Id::new("result_folded"))
            .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
            .collapsible(false)
            .resizable(false)
            .show(&ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(&screen.headline).strong().color(ACCENT));
                    if ui.button("Show the result").clicked() {
                        screen.folded = false;
                    }
                });
            });
        return Ok(());
    }
    egui::Window::new(RichText::new(format!("RESULT \u{2014} {}", sc.title)).strong())
        .id(egui::Id::new("result_window"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .default_width(640.0)
        .show(&ctx, |ui| {
            ui.heading(RichText::new(&screen.headline).strong().color(ACCENT));
            ui.label(RichText::new("Victory conditions (R 18.0)").strong());
            for r in &screen.reasons {
                ui.label(format!("\u{2022} {}", super::dialogs::ascii(r)));
            }
            ui.add_space(6.0);
            ui.label(RichText::new("Losses").strong());
            for l in &screen.losses {
                ui.label(format!("\u{2022} {l}"));
            }
            ui.add_space(6.0);
            ui.label(RichText::new("Turn by turn").strong());
            egui::ScrollArea::vertical()
                .max_height(280.0)
                .show(ui, |ui| turn_table(ui, sc, &screen.turns));
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button(RichText::new("Main menu").strong()).clicked() {
                    request.menu = true;
                }
                if ui.button("Save\u{2026}").clicked() {
                    save.open = true;
                    save.message = None;
                    if save.name.is_empty() {
                        save.name = crate::journal::safe_name(&format!("{}-result", sc.id));
                    }
                }
                if ui.button("Look at the board").clicked() {
                    screen.folded = true;
                }
                if ui.button("Quit").clicked() {
                    request.quit = true;
                }
            });
        });
    Ok(())
}

fn turn_table(ui: &mut egui::Ui, sc: &crate::scenario::Scenario, turns: &[TurnLine]) {
    if turns.is_empty() {
        ui.label(RichText::new("No order was given in this session.").color(DIM));
        return;
    }
    egui::Grid::new("result_turns")
        .num_columns(1 + 3 * SideId::BOTH.len())
        .striped(true)
        .show(ui, |ui| {
            ui.label(RichText::new("Turn").strong());
            for s in SideId::BOTH {
                let name = side_name(sc, s);
                ui.label(RichText::new(format!("{name}: hexes taken")).strong());
                ui.label(RichText::new("units lost").strong());
                ui.label(RichText::new("steps reduced").strong());
            }
            ui.end_row();
            for t in turns {
                ui.label(t.turn.to_string());
                for s in SideId::BOTH {
                    let i = s.index();
                    ui.label(list_or_dash(&t.taken[i]));
                    ui.label(list_or_dash(&t.lost[i]));
                    ui.label(t.reduced[i].to_string());
                }
                ui.end_row();
            }
        });
}

fn list_or_dash(items: &[String]) -> String {
    if items.is_empty() {
        "-".into()
    } else {
        format!("{} ({})", items.len(), items.join(", "))
    }
}

/// Carries out the result screen's Main menu and Quit.
pub fn act_on_result(world: &mut World) {
    let req = std::mem::take(&mut *world.resource_mut::<ResultRequest>());
    if req.menu {
        super::teardown::back_to_menu(world);
    }
    if req.quit {
        world.write_message(AppExit::Success);
    }
}
