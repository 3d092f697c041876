//! The journal in the window: a new game starts a journal in the data
//! directory, under the journal's OS lock (one window per game); every
//! accepted order is appended (and on disk) before its events reach the log
//! panel, and an order whose write fails is taken back; an unfinished
//! journal found at launch is offered for resume; F5 saves the game under a
//! name. A window whose journal cannot be written plays no order.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::orders::GameLog;
use crate::app::AppState;
use crate::engine::{Dice, Order};
use crate::world::{ActiveScenario, AidRes, RosterRes, Unit};

use crate::journal::file::{JournalRead, JournalWriter, lock, read_journal};
use crate::journal::replay::{header_for, replay, replay_into, save};
use crate::journal::{Entry, Header, current_journal, safe_name, state_hash};

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
    /// A new game: an unfinished one there is kept aside (the player chose).
    New,
    /// `bob play --resume`: this journal, already checked by a replay.
    Resume(Box<JournalRead>, PathBuf),
    /// `bob play --load FILE`: a save, already checked by a replay.
    Load(Box<JournalRead>),
}

/// The journal of the game on the board.
#[derive(Resource)]
pub struct GameJournal {
    pub writer: JournalWriter,
    /// The journal as written: its header and its whole entries. An order
    /// whose write fails is taken back by replaying these (docs/decisions.md,
    /// "Taking an order back").
    pub kept: JournalRead,
}

impl GameJournal {
    /// A journal whose file holds `header` and `entries`.
    pub fn new(writer: JournalWriter, header: Header, entries: Vec<(usize, Entry)>) -> Self {
        let kept = JournalRead {
            file: writer.path.display().to_string(),
            header,
            entries,
            valid_len: 0,
            len: 0,
            dropped: None,
        };
        GameJournal { writer, kept }
    }
}

/// Why the board plays no order: its journal cannot be written, or the game
/// is open in another window. Every order is refused with it, until the
/// game is left.
#[derive(Resource, Clone, Debug)]
pub struct JournalStop(pub String);

/// What went wrong with the journal, told above the board until an order is
/// journaled again.
#[derive(Resource, Clone, Debug)]
pub struct JournalWarning(pub String);

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
/// and journal are set here). The journal's lock is taken before anything
/// reads, moves or writes the file: a game open in another window is not
/// touched, and this window plays no order.
pub fn start_game(world: &mut World) -> bool {
    let Some(launch) = world.get_resource::<JournalLaunch>().cloned() else {
        return false;
    };
    world.remove_resource::<JournalStop>();
    world.remove_resource::<JournalWarning>();
    let id = world.resource::<ActiveScenario>().scenario.id.clone();
    let current = match &launch.mode {
        LaunchMode::Resume(_, path) => path.clone(),
        _ => current_journal(&launch.dir, &id),
    };
    let held = match lock(&current) {
        Ok(held) => held,
        Err(e) => {
            stop(world, not_journaled(&current, &e));
            return false;
        }
    };
    match launch.mode {
        LaunchMode::Resume(read, path) => {
            let writer = JournalWriter::resume_held(held, &path, &read);
            go_on(world, &read, &path, writer);
            true
        }
        LaunchMode::Load(read) => {
            let mut header = read.header.clone();
            header.summary = None;
            let writer = JournalWriter::start(held, &current, &header, &read.entries);
            go_on(world, &read, &current, writer);
            true
        }
        LaunchMode::Fresh if held.metadata().is_ok_and(|m| m.len() > 0) => {
            match offer(world, &current) {
                // The lock goes with the offer: the answer takes it again.
                Some(o) => {
                    world.insert_resource(o);
                    true
                }
                None => {
                    new_game(world, &current, held);
                    false
                }
            }
        }
        LaunchMode::Fresh | LaunchMode::New => {
            new_game(world, &current, held);
            false
        }
    }
}

/// What the player is told when the journal at `path` cannot be taken.
fn not_journaled(path: &Path, e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::WouldBlock {
        return format!(
            "{e}. No order is played in this window: play the game there, or watch it here read-only with `bob replay {}`.",
            path.display()
        );
    }
    let dir = path.parent().unwrap_or(path).display();
    format!(
        "cannot write the journal {}: {e}. This game would not be journaled, so no order is played: make {dir} writable and with free space (or start with --data-dir DIR), then start the game again.",
        path.display()
    )
}

/// No order is played on this board: the player is told why, in the log and
/// above the board, until the game is left.
fn stop(world: &mut World, why: String) {
    warn!("{why}");
    log_refusal(world, why.clone());
    world.insert_resource(JournalWarning(why.clone()));
    world.insert_resource(JournalStop(why));
}

/// Replays a checked journal onto the board, then goes on writing it.
fn go_on(
    world: &mut World,
    read: &JournalRead,
    path: &Path,
    writer: std::io::Result<JournalWriter>,
) {
    match replay_into(world, read) {
        Ok(lines) => {
            // The replayed lines name every unit: each side's log starts
            // after them (R 15.0).
            let mut log = world.get_resource_or_insert_with(GameLog::default);
            log.lines.extend(lines);
            log.own_copies_from_now();
        }
        Err(report) => {
            stop(world, report.to_string());
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
    let mut header = read.header.clone();
    header.summary = None;
    keep_writer(world, path, header, read.entries.clone(), writer);
}

/// Puts the journal's writer in place, or stops the board and tells why.
fn keep_writer(
    world: &mut World,
    path: &Path,
    header: Header,
    entries: Vec<(usize, Entry)>,
    writer: std::io::Result<JournalWriter>,
) {
    match writer {
        Ok(writer) => {
            world.insert_resource(GameJournal::new(writer, header, entries));
        }
        Err(e) => stop(world, not_journaled(path, &e)),
    }
}

/// Seeds the dice and starts a journal under the lock `held` (an old one
/// there is archived).
fn new_game(world: &mut World, path: &Path, held: std::fs::File) {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    world.insert_resource(Dice::seeded(seed));
    let header = header_for(&world.resource::<ActiveScenario>().scenario, seed, &[]);
    let writer = JournalWriter::start(held, path, &header, &[]);
    keep_writer(world, path, header, Vec::new(), writer);
}

/// What to tell the player about an unfinished journal; None when there is
/// nothing to resume (no order yet, or the game is over).
pub fn offer(world: &mut World, path: &Path) -> Option<ResumeOffer> {
    if !crate::journal::file::holds_a_game(path) {
        return None;
    }
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

/// Whether the board may play an order: not while [`JournalStop`] says
/// why (told in the log again).
pub fn may_play(world: &mut World) -> bool {
    let Some(JournalStop(why)) = world.get_resource::<JournalStop>().cloned() else {
        return true;
    };
    log_refusal(world, why);
    false
}

/// Appends an accepted order to the journal, on disk before the caller
/// shows its events. Returns false when the write failed: the order is then
/// taken back (the board rebuilt from the journal, which does not hold it),
/// nothing of it is shown, and the player is told why and what to do, in
/// the log and above the board, until an order is journaled again.
pub fn record(world: &mut World, order: &Order) -> bool {
    if world.get_resource::<GameJournal>().is_none() {
        return true;
    }
    let hash = state_hash(world);
    let mut journal = world.resource_mut::<GameJournal>();
    let written = journal.writer.append(order, hash);
    let path = journal.writer.path.display().to_string();
    let broken = journal.writer.is_broken();
    let e = match written {
        Ok(entry) => {
            let line = journal.kept.entries.last().map_or(1, |(l, _)| *l) + 1;
            journal.kept.entries.push((line, entry));
            world.remove_resource::<JournalWarning>();
            return true;
        }
        Err(e) => e,
    };
    let told = format!(
        "The journal {path} could not be written: {e}. The order was not played; the game stands as before it."
    );
    match take_back(world) {
        Err(why) => stop(
            world,
            format!(
                "{told} It could not be taken back on the board ({why}): close the window and resume the game; its journal holds every order before this one."
            ),
        ),
        Ok(()) if broken => stop(
            world,
            format!(
                "{told} Nothing more can be written to it: close the window, free some space, and resume the game; its journal holds every order before this one."
            ),
        ),
        Ok(()) => {
            let told = format!("{told} Free some space and give the order again.");
            warn!("{told}");
            log_refusal(world, told.clone());
            world.insert_resource(JournalWarning(told));
        }
    }
    false
}

/// Takes back the order just applied: the board is rebuilt from the journal,
/// which does not hold it (docs/decisions.md, "Taking an order back"). The
/// selected unit stays selected; the log is not touched.
fn take_back(world: &mut World) -> Result<(), String> {
    let kept = world.resource::<GameJournal>().kept.clone();
    let selected = world
        .get_resource::<super::Selected>()
        .and_then(|s| s.0)
        .and_then(|e| world.get::<Unit>(e))
        .map(|u| u.id.clone());
    crate::engine::reset(world, kept.header.seed);
    replay_into(world, &kept).map_err(|r| r.to_string())?;
    if let Some(id) = selected {
        let mut units = world.query::<(Entity, &Unit)>();
        let again = units.iter(world).find(|(_, u)| u.id == id).map(|(e, _)| e);
        world.insert_resource(super::Selected(again));
    }
    // The units are new entities: the panels rebuild from the world.
    world
        .get_resource_or_insert_with(super::act::OrderCount::default)
        .0 += 1;
    Ok(())
}

/// The journal's trouble, above the board until an order is journaled
/// again (or, for a board that plays no order, until the game is left).
fn journal_banner(mut contexts: EguiContexts, warning: Option<Res<JournalWarning>>) -> Result {
    let Some(warning) = warning else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    egui::Window::new("The journal")
        .collapsible(false)
        .resizable(false)
        .default_width(520.0)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 48.0])
        .show(&ctx, |ui| {
            ui.label(
                egui::RichText::new(warning.0.as_str()).color(egui::Color32::from_rgb(240, 90, 70)),
            );
        });
    Ok(())
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
        // The new game keeps the old journal aside, under its lock.
        _ => {
            world.insert_resource(JournalLaunch {
                dir,
                mode: LaunchMode::New,
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
                (resume_prompt, save_dialog, journal_banner).run_if(in_state(AppState::InGame)),
            );
    }
}
