//! The journal in the window: a new game starts a journal in the data
//! directory; every accepted order is appended (and on disk) before its
//! events reach the log panel; an unfinished journal found at launch is
//! offered for resume; F5 saves the game under a name.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::orders::GameLog;
use crate::app::AppState;
use crate::engine::{Dice, Order};
use crate::world::{ActiveScenario, AidRes, RosterRes};

use crate::journal::file::{JournalRead, JournalWriter, archive, read_journal, write_copy};
use crate::journal::replay::{header_for, replay, replay_into, save};
use crate::journal::{current_journal, safe_name, state_hash};

/// How the window was launched, journal-wise (set by `bob play`).
#[derive(Resource, Clone)]
pub struct JournalLaunch {
    /// The data directory (journals in `journals/`, saves in `saves/`).
    pub dir: PathBuf,
    pub mode: LaunchMode,
}

#[derive(Clone)]
pub enum LaunchMode {
    /// A new game, unless an unfinished one is found and the player takes it.
    Fresh,
    /// `bob play --resume`: this journal, already checked by a replay.
    Resume(Box<JournalRead>, PathBuf),
    /// `bob play --load FILE`: a save, already checked by a replay.
    Load(Box<JournalRead>),
}

/// The journal of the game on the board.
#[derive(Resource)]
pub struct GameJournal {
    pub writer: JournalWriter,
}

/// An unfinished journal found at launch, waiting for the player's answer.
#[derive(Resource, Clone)]
pub struct ResumeOffer {
    pub path: PathBuf,
    /// What the player is told: the game found, or why it cannot be resumed.
    pub text: String,
    pub read: Option<Box<JournalRead>>,
}

/// The player's answer to a [`ResumeOffer`].
#[derive(Resource, Clone, Copy, PartialEq, Eq)]
pub enum ResumeChoice {
    Resume,
    NewGame,
}

/// The save dialog (F5).
#[derive(Resource, Default)]
pub struct SaveDialog {
    pub open: bool,
    pub name: String,
    pub message: Option<String>,
    pub requested: Option<String>,
}

fn log_line(world: &mut World, line: String) {
    world
        .get_resource_or_insert_with(GameLog::default)
        .push_note(line);
}

fn log_refusal(world: &mut World, line: String) {
    world.get_resource_or_insert_with(GameLog::default).refusal = Some(line);
}

/// Called when the Operations Phase would start. Returns true when the
/// journal took the start over (a resume, a load, or an offer waiting for
/// its answer); false when the normal start goes on (a new game, whose dice
/// and journal are set here).
pub fn start_game(world: &mut World) -> bool {
    let Some(launch) = world.get_resource::<JournalLaunch>().cloned() else {
        return false;
    };
    let id = world.resource::<ActiveScenario>().scenario.id.clone();
    let current = current_journal(&launch.dir, &id);
    match launch.mode {
        LaunchMode::Resume(read, path) => {
            go_on(world, &read, &path);
            true
        }
        LaunchMode::Load(read) => {
            let copied = (|| {
                if current.exists() {
                    archive(&current)?;
                }
                let mut header = read.header.clone();
                header.summary = None;
                write_copy(&current, &header, &read.entries)
            })();
            if let Err(e) = copied {
                log_refusal(
                    world,
                    format!(
                        "cannot copy the save to {}: {e}; this game is not journaled",
                        current.display()
                    ),
                );
            }
            go_on(world, &read, &current);
            true
        }
        LaunchMode::Fresh if current.exists() => match offer(world, &current) {
            Some(o) => {
                world.insert_resource(o);
                true
            }
            None => {
                new_game(world, &current);
                false
            }
        },
        LaunchMode::Fresh => {
            new_game(world, &current);
            false
        }
    }
}

/// Replays a checked journal onto the board, then goes on writing it.
fn go_on(world: &mut World, read: &JournalRead, path: &Path) {
    match replay_into(world, read) {
        Ok(lines) => {
            // The replayed lines name every unit: each side's log starts
            // after them (R 15.0).
            let mut log = world.get_resource_or_insert_with(GameLog::default);
            log.lines.extend(lines);
            log.own_copies_from_now();
        }
        Err(report) => {
            log_refusal(world, report.to_string());
            return;
        }
    }
    if let Some(d) = &read.dropped {
        log_line(world, d.clone());
    }
    log_line(
        world,
        format!(
            "Resumed from {} after {} orders",
            path.display(),
            read.entries.len()
        ),
    );
    let writer = JournalWriter::resume(path, read);
    keep_writer(world, path, writer);
}

/// Puts the journal's writer in place, or tells why the game is not journaled.
fn keep_writer(world: &mut World, path: &Path, writer: std::io::Result<JournalWriter>) {
    match writer {
        Ok(writer) => {
            world.insert_resource(GameJournal { writer });
        }
        Err(e) => log_refusal(
            world,
            format!(
                "cannot write the journal {}: {e}; this game is not journaled",
                path.display()
            ),
        ),
    }
}

/// Seeds the dice and starts a journal (an old one there is archived).
fn new_game(world: &mut World, path: &Path) {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    world.insert_resource(Dice::seeded(seed));
    let header = header_for(&world.resource::<ActiveScenario>().scenario, seed, &[]);
    let writer = JournalWriter::create(path, &header);
    keep_writer(world, path, writer);
}

/// What to tell the player about an unfinished journal; None when there is
/// nothing to resume (no order yet, or the game is over).
pub fn offer(world: &mut World, path: &Path) -> Option<ResumeOffer> {
    let roster = world.resource::<RosterRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let read = match read_journal(path) {
        Ok(r) => r,
        Err(report) => {
            return Some(ResumeOffer {
                path: path.to_path_buf(),
                text: format!(
                    "The unfinished game cannot be resumed:\n{report}\nThe file is kept."
                ),
                read: None,
            });
        }
    };
    if read.entries.is_empty() {
        return None;
    }
    match replay(&read, &roster, &aid) {
        Ok(r)
            if r.world
                .get_resource::<crate::engine::phases::end::GameOver>()
                .is_some() =>
        {
            None
        }
        Ok(r) => {
            let s = crate::journal::replay::summary_of(&r.world, read.entries.len());
            let mut text = format!(
                "An unfinished game was found: {}, turn {}, {}, {} to act, {} orders (started {}).",
                s.title, s.turn, s.phase, s.side_to_act, s.orders, read.header.started
            );
            if let Some(d) = &read.dropped {
                text.push('\n');
                text.push_str(d);
            }
            Some(ResumeOffer {
                path: path.to_path_buf(),
                text,
                read: Some(Box::new(read)),
            })
        }
        Err(report) => Some(ResumeOffer {
            path: path.to_path_buf(),
            text: format!("The unfinished game cannot be resumed:\n{report}\nThe file is kept."),
            read: None,
        }),
    }
}

/// Appends an accepted order to the journal, on disk before the caller
/// shows its events. A failed write is told in the log panel.
pub fn record(world: &mut World, order: &Order) {
    if world.get_resource::<GameJournal>().is_none() {
        return;
    }
    let hash = state_hash(world);
    let result = world
        .resource_mut::<GameJournal>()
        .writer
        .append(order, hash);
    if let Err(e) = result {
        let path = world
            .resource::<GameJournal>()
            .writer
            .path
            .display()
            .to_string();
        log_refusal(
            world,
            format!("the journal {path} could not be written: {e}"),
        );
    }
}

/// The egui prompt for an unfinished game.
fn resume_prompt(
    mut contexts: EguiContexts,
    offer: Option<Res<ResumeOffer>>,
    mut commands: Commands,
) -> Result {
    let Some(offer) = offer else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    egui::Window::new("Unfinished game")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(&ctx, |ui| {
            ui.label(offer.text.as_str());
            ui.label(format!("File: {}", offer.path.display()));
            ui.horizontal(|ui| {
                if offer.read.is_some() && ui.button("Resume").clicked() {
                    commands.insert_resource(ResumeChoice::Resume);
                }
                let new = if offer.read.is_some() {
                    "New game (the old journal is kept aside)"
                } else {
                    "New game (the file is kept aside)"
                };
                if ui.button(new).clicked() {
                    commands.insert_resource(ResumeChoice::NewGame);
                }
            });
        });
    Ok(())
}

/// Acts on the player's answer to the prompt.
fn apply_choice(world: &mut World) {
    let Some(choice) = world.remove_resource::<ResumeChoice>() else {
        return;
    };
    let Some(offer) = world.remove_resource::<ResumeOffer>() else {
        return;
    };
    let dir = world
        .get_resource::<JournalLaunch>()
        .map_or_else(crate::journal::data_dir, |l| l.dir.clone());
    match (choice, offer.read) {
        (ResumeChoice::Resume, Some(read)) => {
            world.insert_resource(JournalLaunch {
                dir,
                mode: LaunchMode::Resume(read, offer.path),
            });
        }
        _ => {
            if let Err(e) = archive(&offer.path) {
                log_refusal(
                    world,
                    format!("cannot move {} aside: {e}", offer.path.display()),
                );
            }
            world.insert_resource(JournalLaunch {
                dir,
                mode: LaunchMode::Fresh,
            });
        }
    }
    crate::ui::orders::start_operations(world);
}

fn save_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut dialog: ResMut<SaveDialog>,
    journal: Option<Res<GameJournal>>,
) {
    if keys.just_pressed(KeyCode::F5) && journal.is_some() {
        dialog.open = true;
        dialog.message = None;
        if dialog.name.is_empty() {
            dialog.name = journal.map_or("game".into(), |j| {
                j.writer
                    .path
                    .file_stem()
                    .map_or("game".into(), |s| s.to_string_lossy().to_string())
            });
        }
    }
}

/// The save dialog: a name, Save and Close.
fn save_dialog(mut contexts: EguiContexts, mut dialog: ResMut<SaveDialog>) -> Result {
    if !dialog.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let mut close = false;
    egui::Window::new("Save the game")
        .collapsible(false)
        .resizable(false)
        .show(&ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("Name:");
                ui.text_edit_singleline(&mut dialog.name);
            });
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    let name = dialog.name.clone();
                    dialog.requested = Some(name);
                }
                if ui.button("Close").clicked() {
                    close = true;
                }
            });
            if let Some(m) = &dialog.message {
                ui.label(m);
            }
        });
    if close {
        dialog.open = false;
    }
    Ok(())
}

/// Where a save named `name` goes, or why the name is refused: a name is a
/// file name in the saves folder, never a path.
pub fn save_path(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let name = name.trim().trim_end_matches(".ron");
    if name.is_empty() || safe_name(name) != name {
        return Err(format!(
            "`{name}`: a save name is letters, digits, `-` and `_` only (no folders)"
        ));
    }
    Ok(dir.join("saves").join(format!("{name}.ron")))
}

/// Writes the save the dialog asked for.
fn do_save(world: &mut World) {
    let Some(name) = world.resource_mut::<SaveDialog>().requested.take() else {
        return;
    };
    let dir = world
        .get_resource::<JournalLaunch>()
        .map_or_else(crate::journal::data_dir, |l| l.dir.clone());
    let message = match save_path(&dir, &name) {
        Err(e) => e,
        Ok(to) => {
            let Some(path) = world
                .get_resource::<GameJournal>()
                .map(|j| j.writer.path.clone())
            else {
                return;
            };
            match read_journal(&path) {
                Err(r) => format!("cannot read the journal: {r}"),
                Ok(read) => match save(&to, &read, world) {
                    Ok(s) => format!(
                        "Saved to {} (turn {}, {}, {} to act)",
                        to.display(),
                        s.turn,
                        s.phase,
                        s.side_to_act
                    ),
                    Err(e) => format!("cannot save to {}: {e}", to.display()),
                },
            }
        }
    };
    log_line(world, message.clone());
    world.resource_mut::<SaveDialog>().message = Some(message);
}

/// The resume prompt and the save dialog.
pub struct JournalPlugin;

impl Plugin for JournalPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SaveDialog>()
            .add_systems(
                Update,
                (apply_choice, save_keys, do_save).run_if(in_state(AppState::InGame)),
            )
            .add_systems(
                EguiPrimaryContextPass,
                (resume_prompt, save_dialog).run_if(in_state(AppState::InGame)),
            );
    }
}
