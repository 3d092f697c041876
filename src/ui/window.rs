//! The window: the Bevy app with every plugin of the game (`app`'s states
//! and data loading, the board and panels, the journal, the bot, demo and
//! streamer modes), opened by `bob play`, `bob screenshot` and the rest.

use std::process::ExitCode;

use bevy::asset::AssetMetaCheck;
use bevy::log::LogPlugin;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_asset_loader::prelude::*;

use crate::app::{
    AfterLoading, AppState, BuiltinData, DataFile, DataFileLoader, GameData, OneThread,
    ScreenshotProgress, ScreenshotRequest, asset_root, insert_data, screenshot_runner,
    use_builtin_data,
};
use crate::scenario::{self, Loaded};
use crate::ui;
use crate::world::ActiveScenario;
use crate::world::spawn::spawn_scenario;

/// What the command line asks the window to do.
pub struct LaunchOptions {
    pub loaded: Loaded,
    pub size: (u32, u32),
    pub screenshot: Option<ScreenshotRequest>,
    /// The journal: a new game, a resume or a load (none for screenshots).
    pub journal: Option<crate::ui::session::JournalLaunch>,
    /// `bob replay FILE`: the journal to replay on the board.
    pub replay: Option<ui::replay::ReplayLaunch>,
    /// `bob demo`, streamer mode.
    pub modes: ui::demo::Modes,
}

/// Opens the window on the board and runs until it closes.
pub fn run(options: LaunchOptions) -> ExitCode {
    run_with(options, false)
}

/// Opens the window on the main menu (`menu`) or on the board.
pub fn run_with(options: LaunchOptions, menu: bool) -> ExitCode {
    match app(options, menu) {
        Ok(mut app) => exit_code(app.run()),
        Err(code) => code,
    }
}

/// The process's exit status for the way the app ended.
pub fn exit_code(exit: AppExit) -> ExitCode {
    match exit {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// The app of [`run_with`], not yet running (the frames bench adds its
/// plugin to it); the exit status when it cannot open.
pub fn app(options: LaunchOptions, menu: bool) -> Result<App, ExitCode> {
    // Without a display the window system cannot start: say so plainly
    // rather than let it fail deep inside.
    if ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .all(|v| std::env::var_os(v).is_none_or(|x| x.is_empty()))
    {
        eprintln!(
            "bob: no display (DISPLAY and WAYLAND_DISPLAY are unset); run it on a desktop, or under `xvfb-run`"
        );
        return Err(ExitCode::FAILURE);
    }
    let (roster, aid) = match (scenario::builtin_roster(), scenario::builtin_player_aid()) {
        (Ok(r), Ok(a)) => (r, a),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return Err(ExitCode::FAILURE);
        }
    };
    let title = format!(
        "Band of Brothers \u{2014} {}",
        options.loaded.scenario.title
    );
    let screen = options.screenshot.as_ref().and_then(|r| r.screen.clone());
    let menu = menu || matches!(screen.as_deref(), Some("menu" | "settings" | "load"));
    let after = if menu {
        AppState::Menu
    } else {
        AppState::InGame
    };
    let (settings, settings_file) = crate::settings::load(
        &options
            .journal
            .as_ref()
            .map_or_else(crate::journal::data_dir, |j| j.dir.clone()),
    );
    let settings = if options.screenshot.is_some() && !menu {
        // A still picture of the board: no dice animation, and no hand-over
        // screen unless it is the picture asked for.
        crate::settings::Settings {
            dice_seconds: 0.0,
            hand_over: screen.as_deref() == Some("hand-over"),
            ..settings
        }
    } else {
        settings
    };
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title,
                    resolution: WindowResolution::from(options.size),
                    ..default()
                }),
                ..default()
            })
            // Pipelines compile before the frame that needs them, so the map
            // texture is complete in its first frames and screenshots never
            // miss a piece.
            .set(bevy::render::RenderPlugin {
                synchronous_pipeline_compilation: true,
                ..default()
            })
            .set(AssetPlugin {
                file_path: asset_root(),
                meta_check: AssetMetaCheck::Never,
                ..default()
            })
            .set(LogPlugin {
                filter: "warn,bob=info,wgpu=error,naga=error".to_string(),
                ..default()
            }),
    )
    .insert_resource(ClearColor(ui::palette::TABLE))
    .insert_resource(ActiveScenario {
        scenario: options.loaded.scenario,
        origin: options.loaded.origin,
    })
    .insert_resource(BuiltinData { roster, aid })
    .insert_resource(AfterLoading(after))
    .insert_resource(settings)
    .insert_resource(settings_file)
    .init_asset::<DataFile>()
    .init_asset_loader::<DataFileLoader>()
    .init_state::<AppState>()
    .add_loading_state(
        LoadingState::new(AppState::Loading)
            .continue_to_state(after)
            .on_failure_continue_to_state(AppState::LoadFailed)
            .load_collection::<GameData>(),
    )
    .add_systems(OnEnter(AppState::LoadFailed), use_builtin_data)
    .add_systems(
        OnEnter(AppState::Menu),
        insert_data.before(ui::menu::build_menu),
    )
    .add_systems(
        OnEnter(AppState::InGame),
        (insert_data, spawn_scenario).chain().before(ui::BoardSetup),
    )
    .add_plugins(ui::UiPlugin)
    .add_plugins(crate::ui::session::JournalPlugin)
    .add_plugins(ui::vs_bot::VsBotPlugin)
    .add_plugins(OneThread);
    let continuous = options.modes.continuous();
    app.add_plugins(ui::demo::ModesPlugin(options.modes));
    if let Some(j) = options.journal {
        app.insert_resource(j);
    }
    if let Some(r) = options.replay {
        app.insert_resource(r);
    }
    if options.screenshot.is_none() && !continuous {
        // A turn-based board: redraw on input, not continuously, so an idle
        // game costs next to nothing. Animations ask for redraws.
        app.insert_resource(bevy::winit::WinitSettings::desktop_app());
    }
    if let Some(req) = options.screenshot {
        // A screenshot is of a board drawn whole on every frame: drawing
        // only the changed rectangles may round a map texel one level the
        // other way on a few pixels (docs/performance.md's history in git, "Sweep frames,
        // round 2"), and the stored screenshots must not drift with it.
        app.insert_resource(req)
            .init_resource::<ui::render::retain::WholeFrames>()
            .init_resource::<ScreenshotProgress>()
            .add_systems(
                Update,
                screenshot_runner
                    .run_if(in_state(AppState::InGame).or_else(in_state(AppState::Menu))),
            );
        // Built for measurement: launch to the first board, and frame times.
        #[cfg(feature = "measure")]
        app.add_plugins(ui::frame_stats::LaunchTiming);
    }
    Ok(app)
}
