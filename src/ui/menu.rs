//! The main menu (`bob` with no arguments): the built-in scenarios with the
//! selected one's scenario card, New game (hotseat, or "vs bot": the
//! computer takes the second player's side), Continue when an unfinished game of that scenario has a journal
//! (its turn, phase, side to act and date; a damaged journal says what is
//! wrong or what was dropped), Load (the saves in the data directory with
//! their summaries), Settings and Quit.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::{Color32, RichText};

use crate::app::AppState;
use crate::journal::file::{JournalRead, read_journal};
use crate::journal::{self, current_journal};
use crate::scenario::{self, Loaded, PlayerAid, Roster};
use crate::settings::{Settings, SettingsFile};
use crate::ui::session::{JournalLaunch, LaunchMode, ResumeOffer, offer};
use crate::world::{ActiveScenario, AidRes, RosterRes};

use super::panels::{ACCENT, DIM};

const WARN: Color32 = Color32::from_rgb(240, 90, 70);

/// Set to `true` by `ui::vs_bot::VsBotPlugin`; without it the menu's
/// "vs bot" choice is shown greyed. The choice itself is
/// `Settings::vs_bot`; New game then seats `ui::vs_bot::VsBot` on the
/// second player's side.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BotAvailable(pub bool);

/// A scenario in the menu and the unfinished game found for it.
#[derive(Clone)]
pub struct ScenarioEntry {
    pub loaded: Loaded,
    pub unfinished: Option<ResumeOffer>,
}

/// A save in the data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveEntry {
    pub path: PathBuf,
    /// Its summary (scenario, turn, side to act, date) or why it is unreadable.
    pub text: String,
    pub readable: bool,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum MenuView {
    #[default]
    Main,
    Load,
    Settings,
}

/// What the player picked this frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MenuAction {
    NewGame,
    Continue,
    Load(PathBuf),
    Quit,
}

/// The menu's content, read when it opens.
#[derive(Resource, Clone)]
pub struct MainMenu {
    pub dir: PathBuf,
    pub scenarios: Vec<ScenarioEntry>,
    /// Built-in scenarios that fail their check (never expected).
    pub problems: Vec<String>,
    pub selected: usize,
    pub saves: Vec<SaveEntry>,
    pub view: MenuView,
    pub message: Option<String>,
    pub action: Option<MenuAction>,
}

/// The saves in `dir/saves`, newest name last, each with its summary.
pub fn list_saves(dir: &Path) -> Vec<SaveEntry> {
    let Ok(entries) = std::fs::read_dir(dir.join("saves")) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| match read_journal(&path) {
            Ok(read) => {
                let text = match &read.header.summary {
                    Some(s) => format!(
                        "{}: turn {}, {}, {} to act, {} orders; saved {}",
                        s.title, s.turn, s.phase, s.side_to_act, s.orders, s.saved
                    ),
                    None => format!(
                        "{}: a journal of {} orders (no summary), started {}",
                        read.header.scenario,
                        read.entries.len(),
                        read.header.started
                    ),
                };
                let text = match &read.dropped {
                    Some(d) => format!("{text}. {d}"),
                    None => text,
                };
                SaveEntry {
                    path,
                    text,
                    readable: true,
                }
            }
            Err(report) => SaveEntry {
                path,
                text: report.to_string(),
                readable: false,
            },
        })
        .collect()
}

/// A journal or save, read, matched with its scenario and replayed to the
/// end (so a bad one is refused before the board opens).
pub fn check_journal(
    path: &Path,
    roster: &Roster,
    aid: &PlayerAid,
) -> Result<(Loaded, JournalRead), String> {
    let read = read_journal(path).map_err(|r| r.to_string())?;
    let loaded = journal::replay::scenario_of(&read, roster, aid).map_err(|r| r.to_string())?;
    journal::replay(&read, roster, aid).map_err(|r| r.to_string())?;
    Ok((loaded, read))
}

/// Reads the menu's content: the scenarios, their unfinished games, the saves.
pub fn build_menu(world: &mut World) {
    let dir = world
        .get_resource::<JournalLaunch>()
        .map_or_else(journal::data_dir, |l| l.dir.clone());
    let roster = world.resource::<RosterRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let mut scenarios = Vec::new();
    let mut problems = Vec::new();
    for e in scenario::embedded() {
        match crate::world::load(e.file, &roster, &aid) {
            Ok(loaded) => {
                let path = current_journal(&dir, &loaded.scenario.id);
                let unfinished = if path.exists() {
                    offer(world, &path)
                } else {
                    None
                };
                scenarios.push(ScenarioEntry { loaded, unfinished });
            }
            Err(r) => problems.push(r.to_string()),
        }
    }
    // The scenario of an unfinished game first comes selected.
    let selected = scenarios
        .iter()
        .position(|s| s.unfinished.is_some())
        .unwrap_or(0);
    let saves = list_saves(&dir);
    let view = match world
        .get_resource::<crate::app::ScreenshotRequest>()
        .and_then(|r| r.screen.clone())
        .as_deref()
    {
        Some("settings") => MenuView::Settings,
        Some("load") => MenuView::Load,
        _ => MenuView::Main,
    };
    world.insert_resource(MainMenu {
        dir,
        scenarios,
        problems,
        selected,
        saves,
        view,
        message: None,
        action: None,
    });
}

/// The menu on screen.
pub fn menu_screen(
    mut contexts: EguiContexts,
    mut menu: ResMut<MainMenu>,
    mut settings: ResMut<Settings>,
    mut file: ResMut<SettingsFile>,
    mut screen: ResMut<super::settings::SettingsScreen>,
    bot: Option<Res<BotAvailable>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let bot = bot.is_some_and(|b| b.0);
    let mut root = super::panels::root_ui(&ctx);
    egui::Panel::left("menu_left")
        .resizable(false)
        .exact_size(360.0)
        .show(&mut root, |ui| {
            ui.add_space(12.0);
            ui.heading(RichText::new("BAND OF BROTHERS").strong().color(ACCENT));
            ui.label(RichText::new("Series rules v2.2, with the Pacific rules").color(DIM));
            ui.add_space(12.0);
            ui.label(RichText::new("SCENARIOS").strong().color(ACCENT));
            let mut pick = None;
            for (i, s) in menu.scenarios.iter().enumerate() {
                let sc = &s.loaded.scenario;
                let mut text = format!("{}\n{}, {}", sc.title, sc.place, sc.date);
                if s.unfinished.is_some() {
                    text.push_str("\n(unfinished game)");
                }
                if ui
                    .selectable_label(menu.selected == i, RichText::new(text))
                    .clicked()
                {
                    pick = Some(i);
                }
            }
            for p in &menu.problems {
                ui.label(RichText::new(p).color(WARN));
            }
            if let Some(i) = pick {
                menu.selected = i;
                menu.view = MenuView::Main;
            }
            ui.add_space(12.0);
            ui.separator();
            main_buttons(ui, &mut menu, &mut settings, bot);
            if let Some(m) = &menu.message {
                ui.add_space(8.0);
                ui.label(RichText::new(m).color(WARN));
            }
            if let Some(e) = &file.error {
                ui.add_space(8.0);
                ui.label(RichText::new(super::settings::bad_file_note(e)).color(WARN));
            }
        });
    egui::CentralPanel::default().show(&mut root, |ui| match menu.view {
        MenuView::Main => {
            if let Some(entry) = menu.scenarios.get(menu.selected) {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    super::panels::scenario_card(ui, &entry.loaded.scenario);
                });
            }
        }
        MenuView::Load => load_view(ui, &mut menu),
        MenuView::Settings => {
            ui.heading(RichText::new("SETTINGS").strong().color(ACCENT));
            super::settings::settings_body(ui, &mut settings, &mut file, &mut screen);
        }
    });
    Ok(())
}

fn main_buttons(ui: &mut egui::Ui, menu: &mut MainMenu, settings: &mut Settings, bot: bool) {
    let big = |t: &str| egui::Button::new(RichText::new(t).size(18.0).strong());
    let entry = menu.scenarios.get(menu.selected).cloned();
    if let Some(offer) = entry.as_ref().and_then(|e| e.unfinished.as_ref()) {
        ui.label(RichText::new("UNFINISHED GAME").strong().color(ACCENT));
        let colour = if offer.read.is_some() { DIM } else { WARN };
        ui.label(RichText::new(&offer.text).color(colour));
        ui.label(RichText::new(format!("File: {}", offer.path.display())).color(DIM));
        if ui
            .add_enabled(offer.read.is_some(), big("Continue"))
            .clicked()
        {
            menu.action = Some(MenuAction::Continue);
        }
        ui.add_space(6.0);
    }
    let new = match entry.as_ref().and_then(|e| e.unfinished.as_ref()) {
        Some(_) => "New game (the unfinished one is kept aside)",
        None => "New game",
    };
    if ui.add(big(new)).clicked() {
        menu.action = Some(MenuAction::NewGame);
    }
    ui.vertical(|ui| {
        ui.label("Hotseat: two players at one desktop, or:");
        let vs = match entry.as_ref() {
            Some(e) => format!(
                "vs bot: the computer plays the {}",
                e.loaded
                    .scenario
                    .sides
                    .iter()
                    .find(|c| c.side != e.loaded.scenario.first_player)
                    .map_or("second player", |c| c.nationality.name())
            ),
            None => "vs bot".to_string(),
        };
        ui.add_enabled(bot, egui::Checkbox::new(&mut settings.vs_bot, vs))
            .on_disabled_hover_text("The bot is not built in yet.");
    });
    ui.add_space(6.0);
    let saves = format!("Load ({} saved)", menu.saves.len());
    if ui.add(big(&saves)).clicked() {
        menu.view = MenuView::Load;
    }
    if ui.add(big("Settings")).clicked() {
        menu.view = MenuView::Settings;
    }
    if ui.add(big("Quit")).clicked() {
        menu.action = Some(MenuAction::Quit);
    }
}

fn load_view(ui: &mut egui::Ui, menu: &mut MainMenu) {
    ui.heading(RichText::new("LOAD A SAVED GAME").strong().color(ACCENT));
    ui.label(
        RichText::new(format!(
            "Saves in {} (F5 in a game saves one)",
            menu.dir.join("saves").display()
        ))
        .color(DIM),
    );
    ui.add_space(8.0);
    if menu.saves.is_empty() {
        ui.label("No saved game yet.");
    }
    let mut chosen = None;
    egui::ScrollArea::vertical().show(ui, |ui| {
        for s in &menu.saves {
            let name = s
                .path
                .file_stem()
                .map_or(String::new(), |n| n.to_string_lossy().to_string());
            ui.group(|ui| {
                ui.set_width(ui.available_width());
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(s.readable, egui::Button::new("Load"))
                        .clicked()
                    {
                        chosen = Some(s.path.clone());
                    }
                    ui.label(RichText::new(name).strong());
                });
                let colour = if s.readable {
                    Color32::LIGHT_GRAY
                } else {
                    WARN
                };
                ui.label(RichText::new(super::dialogs::ascii(&s.text)).color(colour));
            });
        }
    });
    if let Some(p) = chosen {
        menu.action = Some(MenuAction::Load(p));
    }
}

/// Starts the board on `loaded` with this journal launch.
fn start(world: &mut World, loaded: Loaded, mode: LaunchMode, dir: PathBuf) {
    world.insert_resource(ActiveScenario {
        scenario: loaded.scenario,
        origin: loaded.origin,
    });
    world.insert_resource(JournalLaunch { dir, mode });
    world
        .resource_mut::<NextState<AppState>>()
        .set(AppState::InGame);
}

/// Carries out the menu's action.
pub fn act_on_menu(world: &mut World) {
    let Some(action) = world.resource_mut::<MainMenu>().action.take() else {
        return;
    };
    let menu = world.resource::<MainMenu>().clone();
    let entry = menu.scenarios.get(menu.selected).cloned();
    let fail = |world: &mut World, m: String| {
        world.resource_mut::<MainMenu>().message = Some(m);
    };
    match (action, entry) {
        (MenuAction::Quit, _) => {
            world.write_message(AppExit::Success);
        }
        (MenuAction::NewGame, Some(e)) => {
            // The unfinished game is kept aside as the new one starts, under
            // the journal's lock (`ui::session::start_game`).
            // "vs bot": the computer takes the second player's side.
            if world.get_resource::<Settings>().is_some_and(|s| s.vs_bot) {
                let side = e.loaded.scenario.first_player.other();
                world.insert_resource(super::vs_bot::VsBot::seated(
                    side,
                    crate::bot::Level::Normal,
                ));
            }
            start(world, e.loaded, LaunchMode::New, menu.dir);
        }
        (MenuAction::Continue, Some(e)) => {
            if let Some(ResumeOffer {
                path,
                read: Some(read),
                ..
            }) = e.unfinished
            {
                start(world, e.loaded, LaunchMode::Resume(read, path), menu.dir);
            }
        }
        (MenuAction::Load(path), _) => {
            let roster = world.resource::<RosterRes>().0.clone();
            let aid = world.resource::<AidRes>().0.clone();
            match check_journal(&path, &roster, &aid) {
                Ok((loaded, read)) => {
                    start(world, loaded, LaunchMode::Load(Box::new(read)), menu.dir);
                }
                Err(m) => fail(world, m),
            }
        }
        (_, None) => {}
    }
}

/// The window's title names the scenario on the board.
pub fn title_window(active: Res<ActiveScenario>, mut windows: Query<&mut Window>) {
    for mut w in &mut windows {
        let title = format!("Band of Brothers \u{2014} {}", active.scenario.title);
        if w.title != title {
            w.title = title;
        }
    }
}

pub struct MenuPlugin;

impl Plugin for MenuPlugin {
    fn build(&self, app: &mut App) {
        use bevy_egui::EguiPrimaryContextPass;
        app.init_resource::<BotAvailable>()
            .init_resource::<super::settings::SettingsScreen>()
            .init_resource::<super::handover::HandOver>()
            .init_resource::<super::result::ResultRequest>()
            .add_systems(
                super::act::OrderShown,
                super::result::on_order.in_set(super::act::ShownSet::Told),
            )
            .add_systems(OnEnter(AppState::Menu), build_menu)
            .add_systems(OnEnter(AppState::InGame), title_window)
            .add_systems(OnExit(AppState::InGame), super::teardown::leave_to_menu)
            .add_systems(
                OnEnter(AppState::InGame),
                (
                    super::result::start_record,
                    super::drive::screenshot_play_out,
                    screenshot_hand_over,
                )
                    .chain()
                    .after(super::BoardSetup),
            )
            .add_systems(Update, act_on_menu.run_if(in_state(AppState::Menu)))
            .add_systems(
                Update,
                (super::handover::gate_input, super::handover::watch_viewer)
                    .chain()
                    .before(super::camera::camera_controls)
                    .run_if(in_state(AppState::InGame)),
            )
            .add_systems(
                Update,
                (super::result::open_result, super::result::act_on_result)
                    .chain()
                    .after(super::act::refresh_views)
                    .run_if(in_state(AppState::InGame))
                    // The demo shows its own verdict, then plays on.
                    .run_if(not(resource_exists::<super::demo::Demo>)),
            )
            .add_systems(Update, super::settings::apply_settings)
            .add_systems(
                EguiPrimaryContextPass,
                (
                    menu_screen.run_if(in_state(AppState::Menu)),
                    (
                        super::result::result_window,
                        super::handover::hand_over_screen,
                    )
                        .chain()
                        .after(super::tray::dice_tray)
                        .run_if(in_state(AppState::InGame)),
                    super::settings::settings_windows,
                ),
            );
    }
}

/// `bob screenshot --screen hand-over`: the screen up, calling the side to act.
fn screenshot_hand_over(world: &mut World) {
    let asked = world
        .get_resource::<crate::app::ScreenshotRequest>()
        .is_some_and(|r| r.screen.as_deref() == Some("hand-over"));
    if asked {
        let viewer = world.resource::<crate::world::Viewer>().0;
        super::handover::show_to(world, viewer);
    }
}
