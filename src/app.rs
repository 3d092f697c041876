//! The Bevy application's foundations: its states (`Loading → InGame`),
//! data loading through bevy_asset_loader, and the screenshot runner used by
//! `bob screenshot` and CI. The window that puts them together with the
//! board and panels is `ui::window`.

use std::path::PathBuf;

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy_asset_loader::prelude::*;

use crate::scenario::{self, PlayerAid, Roster};
use crate::world::{AidRes, RosterRes};

/// `bob screenshot`: render a few frames, save a PNG, quit.
#[derive(Debug, Clone, Resource)]
pub struct ScreenshotRequest {
    pub path: PathBuf,
    pub frames: u32,
    pub hover: Option<String>,
    pub sample_markers: bool,
    /// Zoom from the fitted view, centred on the hovered hex.
    pub zoom: f32,
    /// Anchor the LOS tool here (the thread runs to `hover`).
    pub los_from: Option<String>,
    /// Orders to play before the capture.
    pub script: Option<PathBuf>,
    /// Select this unit.
    pub select: Option<String>,
    /// Arm an action for it: `move` or `fire`.
    pub mode: Option<String>,
    /// A screen to show: `menu`, `settings`, `load`, `hand-over`, `result`.
    pub screen: Option<String>,
}

impl ScreenshotRequest {
    /// A plain picture of the board after `frames` frames: no hover, no
    /// zoom, no script, nothing selected.
    pub fn plain(path: PathBuf, frames: u32) -> Self {
        ScreenshotRequest {
            path,
            frames,
            hover: None,
            sample_markers: false,
            zoom: 1.0,
            los_from: None,
            script: None,
            select: None,
            mode: None,
            screen: None,
        }
    }
}

#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AppState {
    /// bevy_asset_loader reads `assets/units.ron` and `assets/player_aid.ron`.
    #[default]
    Loading,
    /// The files in `assets/` could not be read: the built-in copies are used.
    LoadFailed,
    /// The board is on screen.
    InGame,
    /// The main menu (`bob` with no arguments).
    Menu,
}

/// Where loading goes on to: the menu or the board.
#[derive(Resource, Clone, Copy)]
pub(crate) struct AfterLoading(pub AppState);

/// A data file from `assets/`: the roster or the Player Aid, chosen by name.
#[derive(Asset, TypePath, Debug, Clone)]
pub enum DataFile {
    Roster(Roster),
    /// Boxed: the Player Aid is far larger than the roster's handle.
    PlayerAid(Box<PlayerAid>),
}

/// Reads `units.ron` and `player_aid.ron` with the same precise errors as
/// `bob check` (file:line:column and a sentence).
#[derive(Default, TypePath)]
pub struct DataFileLoader;

#[derive(Debug, thiserror::Error)]
pub enum DataFileError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Bad(String),
}

impl AssetLoader for DataFileLoader {
    type Asset = DataFile;
    type Settings = ();
    type Error = DataFileError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<DataFile, DataFileError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let path = load_context.path().to_string();
        let file = format!("assets/{path}");
        if path.ends_with("player_aid.ron") {
            scenario::parse_player_aid(&file, &bytes)
                .map(|a| DataFile::PlayerAid(Box::new(a)))
                .map_err(|r| DataFileError::Bad(r.to_string()))
        } else {
            scenario::parse_data(&file, &bytes)
                .map(DataFile::Roster)
                .map_err(|r| DataFileError::Bad(r.to_string()))
        }
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

#[derive(AssetCollection, Resource)]
pub struct GameData {
    #[asset(path = "units.ron")]
    pub units: Handle<DataFile>,
    #[asset(path = "player_aid.ron")]
    pub aid: Handle<DataFile>,
}

/// The built-in roster and Player Aid, used when `assets/` is not at hand.
#[derive(Resource, Clone)]
pub(crate) struct BuiltinData {
    pub roster: Roster,
    pub aid: PlayerAid,
}

/// The schedules of a frame run by one thread (Bevy's single-threaded
/// executor): the main world's and the renderer's extraction and `Render`
/// (the cameras' own pass schedules keep theirs: run by one thread too they
/// measured no better). A frame's systems
/// are small (a few ms in all); handed out to the task pool one by one,
/// their threads spent as much time waking and sleeping as running them,
/// which on two cores came out of the renderer's time: in six paired runs
/// the kept board took 1.6 ms of CPU a frame less (15.8 to 14.2) and the
/// walking mouse 2.0 ms less (21.1 to 19.3; docs/performance.md's history in git, "Sweep
/// frames, round 5"). The renderer keeps its own thread (pipelined
/// rendering) and llvmpipe its rasterizer threads.
pub(crate) struct OneThread;

impl Plugin for OneThread {
    fn build(&self, _app: &mut App) {}

    /// After every plugin's `finish`, so that each schedule exists.
    fn cleanup(&self, app: &mut App) {
        use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
        fn one(app: &mut SubApp, label: impl ScheduleLabel) {
            app.edit_schedule(label, |s| {
                s.set_executor(SingleThreadedExecutor::new());
            });
        }
        let main = app.main_mut();
        one(main, First);
        one(main, PreUpdate);
        one(main, Update);
        one(main, PostUpdate);
        one(main, Last);
        one(main, bevy_egui::EguiPrimaryContextPass);
        if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
            one(render, bevy::render::ExtractSchedule);
            one(render, bevy::render::Render);
        }
    }
}

/// Where `assets/` is: beside the working directory (a checkout, `cargo run`),
/// else beside the binary. If neither has it, loading fails over to the
/// copies built into the binary.
pub(crate) fn asset_root() -> String {
    let candidates = [
        std::env::var_os("BEVY_ASSET_ROOT").map(|r| PathBuf::from(r).join("assets")),
        std::env::current_dir().ok().map(|d| d.join("assets")),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets")),
        std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(|p| p.join("assets"))),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|d| d.join("units.ron").is_file())
        .map_or_else(|| "assets".to_string(), |d| d.display().to_string())
}

pub(crate) fn use_builtin_data(mut next: ResMut<NextState<AppState>>, after: Res<AfterLoading>) {
    warn!(
        "assets/units.ron or assets/player_aid.ron could not be read; using the copies built into the game"
    );
    next.set(after.0);
}

/// Makes the roster and Player Aid resources: from `assets/` when loaded,
/// else the built-in copies.
pub(crate) fn insert_data(
    mut commands: Commands,
    data: Option<Res<GameData>>,
    files: Res<Assets<DataFile>>,
    builtin: Res<BuiltinData>,
) {
    let mut roster = builtin.roster.clone();
    let mut aid = builtin.aid.clone();
    if let Some(data) = data {
        if let Some(DataFile::Roster(r)) = files.get(&data.units) {
            roster = r.clone();
        }
        if let Some(DataFile::PlayerAid(a)) = files.get(&data.aid) {
            aid = PlayerAid::clone(a);
        }
    }
    commands.insert_resource(RosterRes(std::sync::Arc::new(roster)));
    commands.insert_resource(AidRes(std::sync::Arc::new(aid)));
    // The phases' schedules and the engine's memos, as a headless game's.
    commands.queue(|world: &mut World| crate::engine::phases::prepare(world));
}

#[derive(Resource, Default)]
pub(crate) struct ScreenshotProgress {
    frames: u32,
    requested: bool,
}

/// Counts frames on the board, then captures the window, saves the PNG,
/// checks it is not blank and quits (exit status 1 if it is blank).
pub(crate) fn screenshot_runner(
    mut commands: Commands,
    req: Res<ScreenshotRequest>,
    mut progress: ResMut<ScreenshotProgress>,
) {
    progress.frames += 1;
    if progress.requested || progress.frames < req.frames {
        return;
    }
    progress.requested = true;
    capture_and_quit(&mut commands, req.path.clone());
}

/// Captures the window, saves it as PNG and quits: exit status 1 if the
/// picture is blank or cannot be written.
pub(crate) fn capture_and_quit(commands: &mut Commands, path: PathBuf) {
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            let result = save_png(&captured.image, &path);
            match result {
                Ok(colours) => {
                    info!(
                        "screenshot saved to {} ({colours} distinct colours)",
                        path.display()
                    );
                    exit.write(AppExit::Success);
                }
                Err(e) => {
                    error!("screenshot {}: {e}", path.display());
                    exit.write(AppExit::error());
                }
            }
        },
    );
}

/// Saves the capture as PNG; fails when the picture is blank (fewer than
/// a handful of colours).
fn save_png(image: &Image, path: &std::path::Path) -> Result<usize, String> {
    let dynamic = image
        .clone()
        .try_into_dynamic()
        .map_err(|e| format!("cannot convert the capture: {e}"))?;
    let rgb = dynamic.to_rgb8();
    let mut colours = std::collections::HashSet::new();
    for p in rgb.pixels().step_by(7) {
        colours.insert(p.0);
        if colours.len() > 1000 {
            break;
        }
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    rgb.save(path).map_err(|e| format!("cannot write: {e}"))?;
    if colours.len() < 16 {
        return Err(format!("the picture is blank ({} colours)", colours.len()));
    }
    Ok(colours.len())
}
