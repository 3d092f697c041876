//! The command line: `bob [play] [SCENARIO]`, `bob list`, `bob check FILE...`,
//! `bob screenshot SCENARIO OUT.png`, `bob script FILE [--journal J]`,
//! `bob replay FILE --log`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::app::ScreenshotRequest;
use crate::journal;
use crate::scenario::{self, FileReport, PlayerAid, Roster};
use crate::ui::demo::{DemoOptions, Modes};
use crate::ui::session::{JournalLaunch, LaunchMode};
use crate::ui::window::{self, LaunchOptions};

#[derive(Debug, Parser)]
#[command(
    name = "bob",
    version,
    about = "Band of Brothers (series rules v2.2) on the desktop",
    long_about = "Band of Brothers (series rules v2.2) on the desktop.\n\nWith no command, opens the main menu; `bob play SCENARIO` goes straight to the board."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open a scenario: a built-in id (see `bob list`) or a .ron file.
    Play {
        /// Scenario id, built-in file name, or path.
        #[arg(default_value = scenario::DEFAULT_SCENARIO)]
        scenario: String,
        /// Window size, WIDTHxHEIGHT.
        #[arg(long, default_value = "1600x900", value_parser = parse_size)]
        size: (u32, u32),
        /// Resume the unfinished game of this scenario from its journal.
        #[arg(long, conflicts_with = "load")]
        resume: bool,
        /// Load a saved game (or any journal).
        #[arg(long, value_name = "FILE")]
        load: Option<PathBuf>,
        /// Where journals and saves live (default: $BOB_DATA_DIR, else
        /// $XDG_DATA_HOME/band-of-brothers, else ~/.local/share/band-of-brothers).
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
        /// Play against the bot, which takes this side: allies or axis.
        #[arg(long, value_name = "SIDE", value_parser = crate::ui::vs_bot::parse_side)]
        vs_bot: Option<crate::scenario::schema::SideId>,
        /// The bot's level with --vs-bot: easy, normal or hard.
        #[arg(long, default_value = "normal", value_parser = parse_level, requires = "vs_bot")]
        level: crate::bot::Level,
        #[command(flatten)]
        show: ShowArgs,
    },
    /// Watch the computer play both sides, paced, with captions; then the
    /// next scenario. Any key or click offers to take command of a side.
    Demo {
        /// Scenario to begin with (then the other built-ins in turn); all
        /// built-in scenarios by default.
        scenario: Option<String>,
        /// Seed of the dice and of the computer's choices (game N of the
        /// loop uses SEED + N); from the clock by default.
        #[arg(long)]
        seed: Option<u64>,
        /// How well the computer plays: easy, normal or hard.
        #[arg(long, default_value = "normal", value_parser = parse_level)]
        level: crate::bot::Level,
        /// Pacing: 2 plays twice as fast, 0.5 half as fast.
        #[arg(long, default_value_t = 1.0, value_parser = parse_speed)]
        speed: f32,
        /// No pacing: play the scenario (or each built-in once) to its end
        /// as fast as it goes, print each verdict, and quit.
        #[arg(long)]
        exit_at_end: bool,
        /// Window size, WIDTHxHEIGHT.
        #[arg(long, default_value = "1600x900", value_parser = parse_size)]
        size: (u32, u32),
        /// Save a PNG of the window after `--after` seconds, then quit.
        #[arg(long, value_name = "OUT.png")]
        screenshot: Option<PathBuf>,
        /// Seconds before `--screenshot`.
        #[arg(long, default_value_t = 20.0, requires = "screenshot")]
        after: f32,
        #[command(flatten)]
        show: ShowArgs,
    },
    /// List the scenarios built into this binary.
    List,
    /// Check scenario files and print every problem as file:line:column.
    Check {
        /// Scenario files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Run a scenario through a script of orders and print the event log.
    Script {
        /// The script file (see docs/scripts.md).
        file: PathBuf,
        /// Journal every order to this file, flushed to disk before its
        /// events are printed.
        #[arg(long, value_name = "FILE")]
        journal: Option<PathBuf>,
        /// With --journal: replay the journal first and go on after its last
        /// complete entry.
        #[arg(long, requires = "journal")]
        resume: bool,
    },
    /// Replay a journal or save on the board, with replay controls; `--log`
    /// prints its event log instead.
    Replay {
        /// The journal or save file.
        file: PathBuf,
        /// Print the event log (headless).
        #[arg(long)]
        log: bool,
        /// Open at this position: the state after this many orders.
        #[arg(long, value_name = "N", default_value_t = 0)]
        at: usize,
        /// Window size, WIDTHxHEIGHT.
        #[arg(long, default_value = "1600x900", value_parser = parse_size)]
        size: (u32, u32),
        /// Render a few frames at `--at`, save this PNG and quit.
        #[arg(long, value_name = "OUT.png")]
        screenshot: Option<PathBuf>,
        /// Stand on this event (1 = the first) of the order after `--at`,
        /// the board as it was at that event.
        #[arg(long, value_name = "K")]
        event: Option<usize>,
    },
    /// Play a whole game of random legal orders and journal it (for the
    /// replay viewer and measurements).
    RandomGame {
        /// Scenario id, built-in file name, or path.
        scenario: String,
        /// The journal to write.
        out: PathBuf,
        /// Seed of the dice and of the random player.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop when a Rout destination is asked with at least this many
        /// choices (to reach a rout choice for a screenshot).
        #[arg(long, value_name = "N")]
        until_rout_choices: Option<usize>,
    },
    /// Render a scenario for a few frames and save a PNG.
    Screenshot {
        /// Scenario id, built-in file name, or path.
        scenario: String,
        /// Where to write the PNG.
        out: PathBuf,
        /// Window size, WIDTHxHEIGHT.
        #[arg(long, default_value = "1600x900", value_parser = parse_size)]
        size: (u32, u32),
        /// Frames to render before the capture.
        #[arg(long, default_value_t = 8)]
        frames: u32,
        /// Hex to show as hovered (its units fill the unit card), e.g. `E6`.
        #[arg(long)]
        hover: Option<String>,
        /// Put sample markers on some units, to look at the marker art.
        #[arg(long)]
        sample_markers: bool,
        /// Zoom in by this factor from the fitted view, centred on `--hover`.
        #[arg(long, default_value_t = 1.0)]
        zoom: f32,
        /// Show the LOS tool's thread from this hex to `--hover`.
        #[arg(long)]
        los_from: Option<String>,
        /// Play this script's orders first (see docs/scripts.md), to show a
        /// position from a real game.
        #[arg(long)]
        script: Option<PathBuf>,
        /// Select this unit (its action bar shows), e.g. `A1`.
        #[arg(long)]
        select: Option<String>,
        /// Arm an action for the selected unit: `move` (reachable hexes and
        /// the path to `--hover`) or `fire` (the fire preview at `--hover`).
        #[arg(long, value_parser = ["move", "fire"])]
        mode: Option<String>,
        /// Show a screen: `menu`, `settings` or `load` (the main menu and its
        /// views), `hand-over`, or `result` (a whole random game played
        /// through the interface first).
        #[arg(long, value_parser = ["menu", "settings", "load", "hand-over", "result"])]
        screen: Option<String>,
    },
    /// Play headless games, bot against bot or against random orders, and
    /// print win rates (95% Wilson interval), draws, turns, losses, how each
    /// game was decided, and games per second.
    Sim {
        /// Scenario id, built-in file name, or path.
        scenario: String,
        /// How many games.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
        games: u32,
        /// Seed of the first game; game i uses SEED + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads to play on.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// The bot's level: easy, normal or hard.
        #[arg(long, default_value = "normal", value_parser = parse_level)]
        level: crate::bot::Level,
        /// The bot's opponent: `bot`, or `random` orders (the bot then plays
        /// the Allies in even games and the Axis in odd ones).
        #[arg(long, default_value = "bot", value_parser = ["bot", "random"])]
        vs: String,
    },
}

fn parse_level(s: &str) -> Result<crate::bot::Level, String> {
    s.parse()
}

/// Streamer mode flags, on `play` and `demo`.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct ShowArgs {
    /// Streamer mode: large overlays (phase, last roll, FP arithmetic,
    /// casualties, captions) instead of the side panels; F9 toggles it.
    #[arg(long)]
    pub stream: bool,
    /// With --stream: a chroma key from the start: `table` (the default)
    /// makes the table around the map solid green, `overlays` leaves only
    /// the overlays on green; F8 cycles off / table / overlays.
    #[arg(long, requires = "stream", num_args = 0..=1, default_missing_value = "table",
          value_parser = parse_chroma, value_name = "table|overlays")]
    pub chroma: Option<crate::ui::stream::Chroma>,
}

fn parse_chroma(s: &str) -> Result<crate::ui::stream::Chroma, String> {
    match s {
        "table" => Ok(crate::ui::stream::Chroma::Table),
        "overlays" => Ok(crate::ui::stream::Chroma::OverlaysOnly),
        _ => Err(format!("--chroma `{s}`: use table or overlays")),
    }
}

fn parse_speed(s: &str) -> Result<f32, String> {
    let x: f32 = s
        .trim()
        .parse()
        .map_err(|_| format!("speed `{s}` is not a number"))?;
    if !(0.1..=20.0).contains(&x) {
        return Err(format!("speed {x} is outside 0.1 .. 20"));
    }
    Ok(x)
}

/// A window size, `WIDTHxHEIGHT` (also the frames bench's `--size`).
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{s}` is not WIDTHxHEIGHT, like 1600x900"))?;
    let w: u32 = w
        .trim()
        .parse()
        .map_err(|_| format!("width `{w}` is not a number"))?;
    let h: u32 = h
        .trim()
        .parse()
        .map_err(|_| format!("height `{h}` is not a number"))?;
    if !(320..=7680).contains(&w) || !(240..=4320).contains(&h) {
        return Err(format!("{w}x{h} is outside 320x240 .. 7680x4320"));
    }
    Ok((w, h))
}

/// Runs the command line; the process exit code is returned.
pub fn run(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    #[cfg(feature = "measure")]
    crate::ui::frame_stats::mark_launch();
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let (roster, aid) = match builtin_data() {
        Ok(d) => d,
        Err(report) => {
            eprintln!("{report}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        None => {
            // The main menu; the default scenario comes selected.
            match prepare_play(
                scenario::DEFAULT_SCENARIO,
                Some(JournalArgs::default()),
                &roster,
                &aid,
            ) {
                Ok((loaded, journal)) => window::run_with(
                    LaunchOptions {
                        loaded,
                        size: (1600, 900),
                        screenshot: None,
                        journal,
                        replay: None,
                        modes: Modes::default(),
                    },
                    true,
                ),
                Err(report) => {
                    eprintln!("{report}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Play {
            scenario,
            size,
            resume,
            load,
            data_dir,
            vs_bot,
            level,
            show,
        }) => {
            if let Some(side) = vs_bot {
                crate::ui::vs_bot::request(side, level);
            }
            play(
                &scenario,
                size,
                None,
                roster,
                aid,
                Some(JournalArgs {
                    resume,
                    load,
                    data_dir,
                }),
                Modes {
                    demo: None,
                    stream: show.stream,
                    chroma: show.chroma.unwrap_or_default(),
                },
            )
        }
        Some(Command::Demo {
            scenario,
            seed,
            level,
            speed,
            exit_at_end,
            size,
            screenshot,
            after,
            show,
        }) => {
            let list = crate::ui::demo::playlist(scenario.as_deref(), exit_at_end);
            let seed = seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_secs())
            });
            if let Err(code) = emit(&format!(
                "bob demo: seed {seed}, playing {}\n",
                list.join(", ")
            )) {
                return code;
            }
            let first = list[0].clone();
            play(
                &first,
                size,
                None,
                roster,
                aid,
                None,
                Modes {
                    demo: Some(DemoOptions {
                        playlist: list,
                        seed,
                        level,
                        speed,
                        exit_at_end,
                        screenshot: screenshot.map(|p| (p, after)),
                    }),
                    stream: show.stream,
                    chroma: show.chroma.unwrap_or_default(),
                },
            )
        }
        Some(Command::List) => match emit(&list(&roster, &aid)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        },
        Some(Command::Check { files }) => {
            let (out, ok) = check_files(&files, &roster, &aid);
            if let Err(code) = emit(&out) {
                return code;
            }
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some(Command::Script {
            file,
            journal: None,
            ..
        }) => run_script(&file, &roster, &aid),
        Some(Command::Script {
            file,
            journal: Some(journal),
            resume,
        }) => run_script_journaled(&file, &journal, resume, &roster, &aid),
        Some(Command::Replay {
            file, log: true, ..
        }) => replay(&file, &roster, &aid),
        Some(Command::Replay {
            file,
            at,
            size,
            screenshot,
            event,
            ..
        }) => replay_on_board(&file, (at, event), size, screenshot, roster, aid),
        Some(Command::RandomGame {
            scenario,
            out,
            seed,
            until_rout_choices,
        }) => random_game(&scenario, &out, seed, until_rout_choices, &roster, &aid),
        Some(Command::Sim {
            scenario,
            games,
            seed,
            threads,
            level,
            vs,
        }) => crate::bot::sim::command(
            &scenario,
            &crate::bot::sim::SimConfig {
                games,
                seed,
                threads: usize::from(threads),
                level,
                versus: if vs == "random" {
                    crate::bot::sim::Versus::Random
                } else {
                    crate::bot::sim::Versus::Bot
                },
                progress: true,
            },
            &roster,
            &aid,
        ),
        Some(Command::Screenshot {
            scenario,
            out,
            size,
            frames,
            hover,
            sample_markers,
            zoom,
            los_from,
            script,
            select,
            mode,
            screen,
        }) => play(
            &scenario,
            size,
            Some(ScreenshotRequest {
                path: out,
                frames,
                hover,
                sample_markers,
                zoom: zoom.clamp(0.25, 8.0),
                los_from,
                script,
                select,
                mode,
                screen,
            }),
            roster,
            aid,
            None,
            Modes::default(),
        ),
    }
}

/// `bob replay FILE`: the journal is checked by a whole headless replay
/// (timed) before the window opens on the board with the replay controls.
fn replay_on_board(
    path: &std::path::Path,
    (at, event): (usize, Option<usize>),
    size: (u32, u32),
    screenshot: Option<PathBuf>,
    roster: Roster,
    aid: PlayerAid,
) -> ExitCode {
    let prepared = journal::read_journal(path).and_then(|read| {
        let loaded = journal::replay::scenario_of(&read, &roster, &aid)?;
        let (outline, whole) = journal::replay::outline(&read, &roster, &aid)?;
        Ok((read, loaded, outline, whole))
    });
    let (read, loaded, outline, whole) = match prepared {
        Ok(p) => p,
        Err(report) => {
            eprintln!("{report}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(d) = &read.dropped {
        eprintln!("{d}");
    }
    eprintln!(
        "{}: {} orders, {} turns and phases; the whole journal replayed headlessly in {:.1} ms",
        path.display(),
        read.entries.len(),
        outline.marks.len(),
        whole.as_secs_f64() * 1000.0
    );
    let start = at.min(read.entries.len());
    window::run(LaunchOptions {
        loaded,
        size,
        screenshot: screenshot.map(|path| ScreenshotRequest::plain(path, 8)),
        journal: None,
        replay: Some(crate::ui::replay::ReplayLaunch {
            read,
            outline,
            start,
            whole,
            event,
        }),
        modes: Modes::default(),
    })
}

/// `bob random-game SCENARIO OUT`: a whole game of random legal orders,
/// journaled.
fn random_game(
    name: &str,
    out: &std::path::Path,
    seed: u64,
    until_rout_choices: Option<usize>,
    roster: &Roster,
    aid: &PlayerAid,
) -> ExitCode {
    let loaded = match crate::world::load(name, roster, aid) {
        Ok(l) => l,
        Err(report) => {
            eprintln!("{report}");
            return ExitCode::FAILURE;
        }
    };
    let stop = |world: &mut bevy::prelude::World| {
        until_rout_choices.is_some_and(|n| {
            matches!(
                world.get_resource::<crate::engine::decision::Pending>(),
                Some(crate::engine::decision::Pending(crate::engine::decision::Decision::RoutDestination { choices, .. }))
                    if choices.len() >= n
            )
        })
    };
    match journal::replay::random_game(loaded, roster, aid, seed, out, usize::MAX, stop) {
        Ok(n) => match emit(&format!("{}: {n} orders\n", out.display())) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        },
        Err(e) => {
            eprintln!("{}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}

/// `bob script FILE`: prints the event log; exit 1 on a bad file or an
/// illegal order (with the reason).
fn run_script(path: &std::path::Path, roster: &Roster, aid: &PlayerAid) -> ExitCode {
    let name = path.display().to_string();
    let result = scenario::read_file(path)
        .and_then(|bytes| crate::engine::script::parse(&name, &bytes))
        .and_then(|script| crate::engine::script::run(&script, roster, aid));
    match result {
        Ok(run) => {
            if let Err(code) = emit_lines(&run.lines) {
                return code;
            }
            stopped_exit(&name, run.stopped, run.pending)
        }
        Err(report) => {
            eprintln!("{report}");
            ExitCode::FAILURE
        }
    }
}

/// The exit status of a command whose output was cut (its reader closed
/// the pipe, as `| head` does): the status a program killed by SIGPIPE
/// reports, 128 + 13. The command ends quietly with it.
const CUT: u8 = 141;

/// The exit status of a script that ended while the game waits for a
/// decision (`docs/scripts.md`).
pub const PENDING: u8 = 3;

/// Writes `text` to standard output. A closed pipe ends the command
/// quietly ([`CUT`]); any other failure is said on standard error.
fn emit(text: &str) -> Result<(), ExitCode> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(ExitCode::from(CUT)),
        Err(e) => {
            eprintln!("bob: cannot write the output: {e}");
            Err(ExitCode::FAILURE)
        }
    }
}

/// [`emit`] of each line with its newline.
fn emit_lines<'a>(lines: impl IntoIterator<Item = &'a String>) -> Result<(), ExitCode> {
    lines.into_iter().try_for_each(|l| emit(&format!("{l}\n")))
}

/// Exit 0 when a script ran to its end with nothing waiting; 1 with the
/// refused order; [`PENDING`] when the game still waits for a decision,
/// which is named on standard error.
fn stopped_exit(
    name: &str,
    stopped: Option<(usize, String, String)>,
    pending: Option<String>,
) -> ExitCode {
    match (stopped, pending) {
        (Some((n, order, reason)), _) => {
            eprintln!("{name}: order {n} ({order}) refused: {reason}");
            ExitCode::FAILURE
        }
        (None, Some(what)) => {
            eprintln!("{name}: the script ended while the game waits: {what}");
            ExitCode::from(PENDING)
        }
        (None, None) => ExitCode::SUCCESS,
    }
}

fn builtin_data() -> Result<(Roster, PlayerAid), FileReport> {
    Ok((scenario::builtin_roster()?, scenario::builtin_player_aid()?))
}

/// The text `bob list` prints.
pub fn list(roster: &Roster, aid: &PlayerAid) -> String {
    let mut out = String::new();
    for e in scenario::embedded() {
        match crate::world::check_bytes(e.file, e.text.as_bytes(), roster, aid) {
            Ok(s) => {
                out.push_str(&format!(
                    "{:<14} {} \u{2014} {}, {} ({} turns)\n",
                    s.id, s.title, s.place, s.date, s.turns
                ));
            }
            Err(r) => out.push_str(&format!("{r}\n")),
        }
    }
    out
}

/// Checks files; returns the report text and whether all were good.
pub fn check_files(files: &[PathBuf], roster: &Roster, aid: &PlayerAid) -> (String, bool) {
    let mut out = String::new();
    let mut ok = true;
    for path in files {
        let name = path.display().to_string();
        let result = scenario::read_file(path)
            .and_then(|bytes| crate::world::check_bytes(&name, &bytes, roster, aid));
        match result {
            Ok(s) => out.push_str(&format!("{name}: ok \u{2014} {} ({})\n", s.title, s.id)),
            Err(report) => {
                ok = false;
                out.push_str(&format!("{report}\n"));
            }
        }
    }
    (out, ok)
}

/// The journal flags of `bob play`.
#[derive(Debug, Default)]
struct JournalArgs {
    resume: bool,
    load: Option<PathBuf>,
    data_dir: Option<PathBuf>,
}

fn play(
    name: &str,
    size: (u32, u32),
    screenshot: Option<ScreenshotRequest>,
    roster: Roster,
    aid: PlayerAid,
    journal: Option<JournalArgs>,
    modes: Modes,
) -> ExitCode {
    let (loaded, journal) = match prepare_play(name, journal, &roster, &aid) {
        Ok(l) => l,
        Err(report) => {
            eprintln!("{report}");
            return ExitCode::FAILURE;
        }
    };
    window::run(LaunchOptions {
        loaded,
        size,
        screenshot,
        journal,
        replay: None,
        modes,
    })
}

/// The scenario to open and the journal to go with it: `--load` and
/// `--resume` are checked by a full headless replay before any window opens,
/// so a bad file is reported here, by file, line and field (and kept).
fn prepare_play(
    name: &str,
    args: Option<JournalArgs>,
    roster: &Roster,
    aid: &PlayerAid,
) -> Result<(scenario::Loaded, Option<JournalLaunch>), String> {
    let Some(args) = args else {
        return Ok((
            crate::world::load(name, roster, aid).map_err(|r| r.to_string())?,
            None,
        ));
    };
    let dir = args.data_dir.unwrap_or_else(journal::data_dir);
    let checked =
        |path: &std::path::Path| -> Result<(scenario::Loaded, journal::JournalRead), String> {
            let (loaded, read) = crate::ui::menu::check_journal(path, roster, aid)?;
            if let Some(d) = &read.dropped {
                eprintln!("{d}");
            }
            Ok((loaded, read))
        };
    if let Some(file) = args.load {
        let (loaded, read) = checked(&file)?;
        open_here(&journal::current_journal(&dir, &loaded.scenario.id))?;
        let mode = LaunchMode::Load(Box::new(read));
        return Ok((loaded, Some(JournalLaunch { dir, mode })));
    }
    let loaded = crate::world::load(name, roster, aid).map_err(|r| r.to_string())?;
    let path = journal::current_journal(&dir, &loaded.scenario.id);
    open_here(&path)?;
    if !args.resume {
        let mode = LaunchMode::Fresh;
        return Ok((loaded, Some(JournalLaunch { dir, mode })));
    }
    if !journal::file::holds_a_game(&path) {
        return Err(format!(
            "{}: no unfinished game of `{}` to resume",
            path.display(),
            loaded.scenario.id
        ));
    }
    let (loaded, read) = checked(&path)?;
    let mode = LaunchMode::Resume(Box::new(read), path);
    Ok((loaded, Some(JournalLaunch { dir, mode })))
}

/// Refuses a game whose journal another window holds, before this one
/// opens (the window takes the journal's lock itself).
fn open_here(path: &std::path::Path) -> Result<(), String> {
    if journal::file::held_elsewhere(path) {
        return Err(format!(
            "{}; play it there, or watch it read-only with `bob replay {}`",
            journal::file::in_use(path),
            path.display()
        ));
    }
    Ok(())
}

/// `bob script FILE --journal J [--resume]`.
fn run_script_journaled(
    path: &std::path::Path,
    journal_path: &std::path::Path,
    resume: bool,
    roster: &Roster,
    aid: &PlayerAid,
) -> ExitCode {
    use std::io::Write;
    let name = path.display().to_string();
    let script = match scenario::read_file(path)
        .and_then(|bytes| crate::engine::script::parse(&name, &bytes))
    {
        Ok(s) => s,
        Err(report) => {
            eprintln!("{report}");
            return ExitCode::FAILURE;
        }
    };
    let stdout = std::io::stdout();
    let mut out = |line: &str| {
        let mut lock = stdout.lock();
        let _ = writeln!(lock, "{line}");
        let _ = lock.flush();
    };
    match journal::headless::run_script_journaled(
        &script,
        roster,
        aid,
        journal_path,
        resume,
        &mut out,
    ) {
        Ok(run) => {
            if let Some(d) = run.dropped {
                eprintln!("{d}");
            }
            stopped_exit(&name, run.stopped, run.pending)
        }
        Err(report) => {
            eprintln!("{report}");
            ExitCode::FAILURE
        }
    }
}

/// `bob replay FILE --log`.
fn replay(path: &std::path::Path, roster: &Roster, aid: &PlayerAid) -> ExitCode {
    match journal::replay_lines(path, roster, aid) {
        Ok((lines, dropped)) => {
            if let Some(d) = dropped {
                eprintln!("{d}");
            }
            match emit_lines(&lines) {
                Ok(()) => ExitCode::SUCCESS,
                Err(code) => code,
            }
        }
        Err(report) => {
            eprintln!("{report}");
            ExitCode::FAILURE
        }
    }
}
