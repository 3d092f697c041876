//! Measurement, built only with the `measure` feature: the `bench-frames`
//! binary (`src/bin/bench-frames.rs`), and the launch and frame times that
//! `bob screenshot` prints in such a build ([`LaunchTiming`]).
//!
//! `bench-frames`: what a frame costs. Two figures, measured in one run
//! under the same display:
//!
//! - the game's own systems per frame (everything of ours, not Bevy's nor
//!   the renderer): timers around the [`GameSystems`] set in `Update` and in
//!   the egui pass, summed per frame; on the still board, and while the
//!   mouse sweeps the map (the hovered hex moves every frame, a unit is
//!   selected and the LOS tool is anchored, so the hex card, the fire
//!   preview, the LOS thread and the overlays are rebuilt every frame);
//! - frames per second of that board against an empty Bevy window of the
//!   same size (a child process each, one after the other).
//!
//! Wall-clock time swings with the machine's load, so both are also taken
//! in CPU terms: our systems' CPU time on the thread that runs them (the
//! bench runs `Update` and the egui pass single-threaded so that all of them
//! run on one thread; `CLOCK_THREAD_CPUTIME_ID`), and the whole
//! process's CPU time per frame (renderer and its threads included, from
//! `/proc/self/stat`), whose ratio to the empty window's is the frame-rate
//! ratio a machine with nothing else to do would see.
//!
//! The numbers are printed; `docs/performance.md` keeps them.

use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::GameSystems;
use crate::scenario::Coord;

/// When the command line began (`cli::run` marks it first thing).
static LAUNCHED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// Marks the launch, for [`LaunchTiming`]'s launch → first board.
pub fn mark_launch() {
    LAUNCHED.get_or_init(Instant::now);
}

/// `bob screenshot`, built with `measure`: the time from launch to the
/// first frame with the board drawn, and the frame times after it, printed
/// when the capture is taken (`docs/performance.md`).
pub struct LaunchTiming;

/// The frames counted so far, as `screenshot_runner` counts them.
#[derive(Resource, Default)]
struct Timing {
    frames: u32,
    first_board: Option<Duration>,
    frame_secs: Vec<f32>,
}

impl Plugin for LaunchTiming {
    fn build(&self, app: &mut App) {
        use crate::app::{AppState, screenshot_runner};
        app.init_resource::<Timing>().add_systems(
            Update,
            time_frames
                .before(screenshot_runner)
                .run_if(in_state(AppState::InGame).or_else(in_state(AppState::Menu))),
        );
    }
}

fn time_frames(req: Res<crate::app::ScreenshotRequest>, time: Res<Time>, mut t: ResMut<Timing>) {
    t.frames += 1;
    if t.first_board.is_none() {
        t.first_board = Some(LAUNCHED.get_or_init(Instant::now).elapsed());
    } else {
        t.frame_secs.push(time.delta_secs());
    }
    if t.frames != req.frames.max(1) {
        return;
    }
    let n = t.frame_secs.len().max(1) as f32;
    let mean = t.frame_secs.iter().sum::<f32>() / n;
    let worst = t.frame_secs.iter().copied().fold(0.0f32, f32::max);
    let tail = &t.frame_secs[t.frame_secs.len().saturating_sub(60)..];
    let tail_mean = tail.iter().sum::<f32>() / tail.len().max(1) as f32;
    info!(
        "first board frame {:.0} ms after launch; {} frames on the board, mean frame time {:.1} ms, worst {:.1} ms, last {} frames {:.1} ms",
        t.first_board.unwrap_or_default().as_secs_f64() * 1000.0,
        t.frame_secs.len(),
        mean * 1000.0,
        worst * 1000.0,
        tail.len(),
        tail_mean * 1000.0
    );
}

/// Frames to let pass before measuring (the map texture is painted, the
/// panels settle, pipelines are compiled).
pub const WARM_UP: u32 = 30;

/// The measurement under way.
#[derive(Resource, Debug, Default)]
pub struct FrameStats {
    /// Frames to measure after the warm-up.
    pub frames: u32,
    seen: u32,
    open: Option<Instant>,
    this_frame: Duration,
    cpu_open: Option<Duration>,
    cpu_this_frame: Duration,
    process_cpu_from: Option<Duration>,
    raster_cpu_from: Option<Duration>,
    main_open: Option<Instant>,
    main_this_frame: Duration,
    measure_from: Option<Instant>,
    /// Frames the board camera had drawn when measuring began.
    drawn_from: u64,
    /// Of them, frames drawn only in their changed rectangles.
    partial_from: u64,
    /// Pixels the board camera had drawn when measuring began.
    shaded_from: u64,
    /// The figures were printed (a capture follows).
    done: bool,
    /// Our systems' time in each measured frame, seconds.
    pub ours: Vec<f64>,
    /// Our systems' CPU time in each measured frame, seconds.
    pub ours_cpu: Vec<f64>,
    /// The main world's whole update in each measured frame, seconds.
    pub main: Vec<f64>,
}

/// Mean and worst of a list, in milliseconds.
pub fn mean_worst_ms(v: &[f64]) -> (f64, f64) {
    let n = v.len().max(1) as f64;
    let mean = v.iter().sum::<f64>() / n;
    let worst = v.iter().copied().fold(0.0, f64::max);
    (mean * 1000.0, worst * 1000.0)
}

/// CPU time of the calling thread so far (`CLOCK_THREAD_CPUTIME_ID`; Linux
/// only, `None` elsewhere).
#[cfg(target_os = "linux")]
pub fn thread_cpu() -> Option<Duration> {
    use std::ffi::{c_int, c_long};
    #[repr(C)]
    struct Timespec {
        sec: c_long,
        nsec: c_long,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
    }
    const CLOCK_THREAD_CPUTIME_ID: c_int = 3;
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: clock_gettime writes one `struct timespec` (two C longs on
    // Linux with glibc or musl) to the pointer, which points at `t`.
    let r = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (r == 0).then(|| Duration::new(t.sec as u64, t.nsec as u32))
}

#[cfg(not(target_os = "linux"))]
pub fn thread_cpu() -> Option<Duration> {
    None
}

/// A `/proc/.../stat` line's name (in brackets) and its CPU time, user and
/// system, in clock ticks of 10 ms.
pub fn stat_ticks(text: &str) -> Option<(&str, u64)> {
    // Fields after the command name (which may hold spaces) in brackets.
    let (head, rest) = text.rsplit_once(')')?;
    let name = head.split_once('(').map_or("", |(_, n)| n);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 here.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some((name, ticks))
}

/// CPU time of the whole process so far, all threads, user and system
/// (Linux, in clock ticks of 10 ms; `None` elsewhere).
pub fn process_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    let (_, ticks) = stat_ticks(&text)?;
    Some(Duration::from_millis(ticks * 10))
}

/// CPU time so far of the process's threads whose name begins with
/// `prefix` (Linux, clock ticks of 10 ms; `None` elsewhere): Mesa's software
/// rasterizer runs its tiles on threads named `llvmpipe-N`.
pub fn threads_cpu(prefix: &str) -> Option<Duration> {
    let mut ticks = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let text = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        if let Some((name, t)) = stat_ticks(&text)
            && name.starts_with(prefix)
        {
            ticks += t;
        }
    }
    Some(Duration::from_millis(ticks * 10))
}

/// The CPU time between two readings, ms a frame over `frames` (0 when
/// either reading is missing).
pub fn per_frame_ms(from: Option<Duration>, now: Option<Duration>, frames: f64) -> f64 {
    match (from, now) {
        (Some(a), Some(b)) => b.saturating_sub(a).as_secs_f64() * 1000.0 / frames,
        _ => 0.0,
    }
}

/// The name of the software rasterizer's threads (see `threads_cpu`).
const RASTER_THREADS: &str = "llvmpipe";

fn open_timer(mut s: ResMut<FrameStats>) {
    s.open = Some(Instant::now());
    s.cpu_open = thread_cpu();
}

fn close_timer(mut s: ResMut<FrameStats>) {
    if let Some(t) = s.open.take() {
        s.this_frame += t.elapsed();
    }
    if let (Some(from), Some(now)) = (s.cpu_open.take(), thread_cpu()) {
        s.cpu_this_frame += now.saturating_sub(from);
    }
}

fn open_main(mut s: ResMut<FrameStats>) {
    s.main_open = Some(Instant::now());
}

/// At the end of each frame: record it, and quit with the figures once
/// enough frames were measured.
fn close_frame(
    mut s: ResMut<FrameStats>,
    mut exit: MessageWriter<AppExit>,
    label: Res<BenchLabel>,
    retained: Option<Res<super::render::retain::Retained>>,
    capture: Option<ResMut<Capture>>,
) {
    let (drawn, partial, shaded) = retained.map_or((0, 0, 0), |r| (r.drawn, r.partial, r.shaded));
    if s.done {
        return;
    }
    if let Some(t) = s.main_open.take() {
        s.main_this_frame += t.elapsed();
    }
    let ours = std::mem::take(&mut s.this_frame).as_secs_f64();
    let ours_cpu = std::mem::take(&mut s.cpu_this_frame).as_secs_f64();
    let main = std::mem::take(&mut s.main_this_frame).as_secs_f64();
    s.seen += 1;
    if s.seen == WARM_UP {
        s.measure_from = Some(Instant::now());
        s.process_cpu_from = process_cpu();
        s.raster_cpu_from = threads_cpu(RASTER_THREADS);
        s.drawn_from = drawn;
        s.partial_from = partial;
        s.shaded_from = shaded;
        return;
    }
    let Some(from) = s.measure_from else {
        return;
    };
    s.ours.push(ours);
    s.ours_cpu.push(ours_cpu);
    s.main.push(main);
    if s.ours.len() as u32 >= s.frames {
        let secs = from.elapsed().as_secs_f64();
        let n = s.ours.len() as f64;
        let fps = n / secs;
        let (om, ow) = mean_worst_ms(&s.ours);
        let (cm, cw) = mean_worst_ms(&s.ours_cpu);
        let (mm, mw) = mean_worst_ms(&s.main);
        let process_ms = per_frame_ms(s.process_cpu_from, process_cpu(), n);
        let raster_ms = per_frame_ms(s.raster_cpu_from, threads_cpu(RASTER_THREADS), n);
        println!(
            "BENCH {} frames={} secs={secs:.3} fps={fps:.2} ours_mean_ms={om:.3} ours_worst_ms={ow:.3} ours_cpu_mean_ms={cm:.3} ours_cpu_worst_ms={cw:.3} main_mean_ms={mm:.3} main_worst_ms={mw:.3} process_cpu_ms={process_ms:.2} raster_cpu_ms={raster_ms:.2} drawn={} partial={} shaded_kpx={:.1}",
            label.0,
            s.ours.len(),
            drawn.saturating_sub(s.drawn_from),
            partial.saturating_sub(s.partial_from),
            shaded.saturating_sub(s.shaded_from) as f64 / 1000.0 / n
        );
        s.done = true;
        match capture {
            // The mouse stops; the window is captured once the board settles.
            Some(mut c) => c.stopped = true,
            None => {
                exit.write(AppExit::Success);
            }
        }
    }
}

/// The name the figures are printed under.
#[derive(Resource, Debug, Clone)]
pub struct BenchLabel(pub String);

/// `--capture`: after the measured frames the mouse stops, and once the
/// board has settled the window is saved as PNG (to compare the picture
/// drawn in changed rectangles with one drawn whole, `--whole`).
#[derive(Resource, Debug)]
pub struct Capture {
    path: std::path::PathBuf,
    stopped: bool,
    /// Frames to wait after the mouse stops (egui's fades end).
    wait: u32,
}

/// Frames between the mouse stopping and the capture.
const CAPTURE_AFTER: u32 = 40;

fn capture_when_settled(mut commands: Commands, mut c: ResMut<Capture>) {
    if !c.stopped || c.wait == 0 {
        return;
    }
    c.wait -= 1;
    if c.wait == 0 {
        crate::app::capture_and_quit(&mut commands, c.path.clone());
    }
}

fn mouse_stopped(capture: Option<Res<Capture>>) -> bool {
    capture.is_some_and(|c| c.stopped)
}

/// Puts the mouse on the hex (column, row) that `at(frame, columns, rows)`
/// gives for this frame; the hovered hex changes only when it changes (as
/// the mouse tracker does: reading it does not mark it changed, so the LOS
/// thread, the outlines and the hex card are not rebuilt on the frames in
/// between).
fn move_mouse(
    hovered: &mut ResMut<super::Hovered>,
    board: &crate::world::BoardRes,
    n: &mut u32,
    at: impl Fn(u32, u32, u32) -> (u32, u32),
) {
    let (cols, rows) = (u32::from(board.0.columns), u32::from(board.0.rows));
    if cols == 0 || rows == 0 {
        return;
    }
    let (col, row) = at(*n, cols, rows);
    *n += 1;
    let now = Some(Coord::new(col as u8, row as u8));
    if hovered.0 != now {
        hovered.0 = now;
    }
}

/// Moves the hovered hex every frame across the map, as a sweeping mouse.
fn sweep_hover(
    mut hovered: ResMut<super::Hovered>,
    board: Res<crate::world::BoardRes>,
    mut n: Local<u32>,
) {
    // A stride prime to the map size visits every hex, far apart in turn.
    move_mouse(&mut hovered, &board, &mut n, |n, cols, rows| {
        let i = (n * 7) % (cols * rows);
        (i % cols, i / cols)
    });
}

/// Frames a walking mouse spends on each hex.
const WALK_FRAMES: u32 = 4;

/// Moves the hovered hex to the next one along the rows every few frames,
/// as a mouse moved across the map at a hand's pace (a hex is about 50
/// pixels wide, so four frames a hex is 12 pixels a frame), row after row
/// (there and back).
fn walk_hover(
    mut hovered: ResMut<super::Hovered>,
    board: Res<crate::world::BoardRes>,
    mut n: Local<u32>,
) {
    move_mouse(&mut hovered, &board, &mut n, |n, cols, rows| {
        let i = (n / WALK_FRAMES) % (cols * rows);
        let (row, along) = (i / cols, i % cols);
        let col = if row % 2 == 0 {
            along
        } else {
            cols - 1 - along
        };
        (col, row)
    });
}

/// The wandering mouse's state: a fixed pseudo-random sequence (the same in
/// every run), the hex it is on and the frame it moves on.
#[derive(Default)]
struct Wander {
    seed: u64,
    at: (u32, u32),
    next: u32,
    n: u32,
}

impl Wander {
    fn roll(&mut self, sides: u32) -> u32 {
        // Knuth's MMIX step; the high bits are the well-mixed ones.
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.seed >> 33) % u64::from(sides.max(1))) as u32
    }
}

/// The counters' labels, which the wandering mouse hides one by one.
type CounterLabels<'w, 's> = Query<
    'w,
    's,
    (Entity, &'static mut Visibility),
    (With<super::counters::CounterArt>, With<Text2d>),
>;

/// The wandering mouse's panels open and close until this frame.
const PANELS_UNTIL: u32 = 95;

/// Moves the hovered hex at random: mostly to a hex beside it, sometimes a
/// jump across the map, after one to six frames; opens and closes the
/// Player Aid and the Scenario Card now and then, so that egui's panels
/// appear, move and disappear under the board's changes; and puts the
/// selected unit in and out of Move now and then and hides one counter's
/// label after another, so that the ground under the overlays changes too
/// (under `z::OVERLAY`; the reach's labels make their frames whole, a
/// hidden label is drawn again in its rectangle).
fn wander_hover(
    mut hovered: ResMut<super::Hovered>,
    mut panels: ResMut<super::PanelState>,
    mut intent: ResMut<super::act::Intent>,
    mut counters: CounterLabels,
    board: Res<crate::world::BoardRes>,
    mut w: Local<Wander>,
) {
    let (cols, rows) = (u32::from(board.0.columns), u32::from(board.0.rows));
    if cols == 0 || rows == 0 {
        return;
    }
    let n = w.n;
    w.n += 1;
    // The panels move the board's view (a whole frame): not in the last
    // frames, so that the compared picture comes after counters hidden in
    // their rectangles.
    if n % 23 == 22 && n < PANELS_UNTIL {
        panels.player_aid = !panels.player_aid;
    }
    if n % 37 == 36 && n < PANELS_UNTIL {
        panels.scenario_card = !panels.scenario_card;
    }
    if n % 13 == 12
        && let Some(mut shown) = counters
            .iter_mut()
            .filter(|(_, v)| **v != Visibility::Hidden)
            .min_by_key(|(e, _)| *e)
            .map(|(_, v)| v)
    {
        *shown = Visibility::Hidden;
    }
    // In and out of Move every 17 frames, then out of it from frame 60 on.
    let moving = n < 60 && (n / 17) % 2 == 1;
    intent.set_if_neq(if moving {
        super::act::Intent::Move
    } else {
        super::act::Intent::Select
    });
    if n < w.next {
        return;
    }
    w.next = n + 1 + w.roll(6);
    w.at = if w.roll(5) == 0 {
        (w.roll(cols), w.roll(rows))
    } else {
        let (c, r) = w.at;
        let step = |v: u32, d: u32, max: u32| (v + d).saturating_sub(1).min(max - 1);
        (step(c, w.roll(3), cols), step(r, w.roll(3), rows))
    };
    let (col, row) = w.at;
    move_mouse(&mut hovered, &board, &mut 0, |_, _, _| (col, row));
}

/// Selects the first unit that may act and anchors the LOS tool on it.
fn select_and_anchor(world: &mut World) {
    let ready = super::act::ready_units(world);
    if let Some((e, _)) = ready.first() {
        world.resource_mut::<super::Selected>().0 = Some(*e);
        let at = world.get::<crate::world::Location>(*e).map(|l| l.coord);
        world.resource_mut::<super::los_tool::LosTool>().from = at;
    }
}

/// The board, measured: timers around our systems and each frame, the
/// sweeping mouse, and the exit after the frames asked.
pub struct BoardBench {
    pub frames: u32,
    pub label: String,
    /// Sweep the mouse over the map (else the board stands still).
    pub sweep: bool,
    /// Walk the mouse over the map, a hex every few frames.
    pub walk: bool,
    /// Wander the mouse over the map at random, opening and closing panels.
    pub wander: bool,
    /// Save the window here after the measured frames (see [`Capture`]).
    pub capture: Option<std::path::PathBuf>,
    /// Draw every frame on the board whole.
    pub whole: bool,
    /// egui's texture updates a frame late (see `retain::LateTextures`).
    pub late_textures: bool,
    /// Close the Scenario Card and the Player Aid (F2, F1), to tell their
    /// share.
    pub bare: bool,
    /// Streamer mode (F9): no side panels, log or dice tray, to tell the
    /// share of the panels against the board's.
    pub stream: bool,
}

fn stream_mode(mut stream: ResMut<super::stream::StreamMode>) {
    stream.on = true;
}

fn close_side_panels(mut panels: ResMut<super::PanelState>) {
    panels.scenario_card = false;
    panels.player_aid = false;
}

impl Plugin for BoardBench {
    fn build(&self, app: &mut App) {
        use crate::app::AppState;
        use bevy::ecs::schedule::SingleThreadedExecutor;
        // One thread runs all of `Update` and the egui pass, so the timers'
        // thread CPU time is the time of the systems between them.
        app.edit_schedule(Update, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        })
        .edit_schedule(bevy_egui::EguiPrimaryContextPass, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
        app.insert_resource(FrameStats {
            frames: self.frames,
            ..default()
        })
        .insert_resource(continuous())
        .insert_resource(BenchLabel(self.label.clone()))
        .add_systems(
            Update,
            (
                open_timer.before(GameSystems),
                close_timer.after(GameSystems),
            ),
        )
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            (
                open_timer.before(GameSystems),
                close_timer.after(GameSystems),
            ),
        )
        .add_systems(
            OnEnter(AppState::InGame),
            select_and_anchor.after(super::BoardSetup),
        )
        .add_systems(First, open_main)
        .add_systems(Last, close_frame);
        if self.bare {
            app.add_systems(OnEnter(AppState::InGame), close_side_panels);
        }
        if self.stream {
            app.add_systems(OnEnter(AppState::InGame), stream_mode);
        }
        // The mouse: crossing the map every frame, or walking it.
        type Mouse = fn(ResMut<super::Hovered>, Res<crate::world::BoardRes>, Local<u32>);
        let mouse: Option<Mouse> = match (self.sweep, self.walk) {
            (true, _) => Some(sweep_hover),
            (_, true) => Some(walk_hover),
            _ => None,
        };
        if self.wander {
            app.add_systems(
                Update,
                wander_hover
                    .before(open_timer)
                    .run_if(in_state(AppState::InGame).and_then(not(mouse_stopped))),
            );
        }
        if let Some(mouse) = mouse {
            app.add_systems(
                Update,
                mouse
                    .before(open_timer)
                    .run_if(in_state(AppState::InGame).and_then(not(mouse_stopped))),
            );
        }
        if self.whole {
            app.init_resource::<super::render::retain::WholeFrames>();
        }
        if self.late_textures {
            app.init_resource::<super::render::retain::LateTextures>();
        }
        if let Some(path) = &self.capture {
            app.insert_resource(Capture {
                path: path.clone(),
                stopped: false,
                wait: CAPTURE_AFTER,
            })
            .add_systems(Last, capture_when_settled.after(close_frame));
        }
    }
}

/// Both windows of the bench update as fast as they can, focused or not.
/// Bevy's default (`WinitSettings::game`) waits up to 1/60 s between the
/// updates of a window without focus, as every window under Xvfb is; the
/// board's own redraw requests woke it earlier, the empty window's did
/// not, and the empty window ran at 60.0 fps while the board ran at 57–94.
fn continuous() -> bevy::winit::WinitSettings {
    use bevy::winit::{UpdateMode, WinitSettings};
    WinitSettings {
        focused_mode: UpdateMode::Continuous,
        unfocused_mode: UpdateMode::Continuous,
    }
}

/// An empty Bevy window of the same size: the frame rate to compare with.
pub fn run_empty(size: (u32, u32), frames: u32) -> std::process::ExitCode {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "empty".into(),
                    resolution: bevy::window::WindowResolution::from(size),
                    ..default()
                }),
                ..default()
            })
            .set(bevy::log::LogPlugin {
                filter: "warn,wgpu=error,naga=error".to_string(),
                ..default()
            }),
    )
    .insert_resource(ClearColor(super::palette::TABLE))
    .insert_resource(FrameStats {
        frames,
        ..default()
    })
    .insert_resource(continuous())
    .insert_resource(BenchLabel("empty".into()))
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn((Camera2d, Msaa::Off));
    })
    .add_systems(First, open_main)
    .add_systems(Last, close_frame);
    super::window::exit_code(app.run())
}

/// How a child of the bench runs: which window, and what it does.
#[derive(Debug, Clone)]
pub struct Child {
    /// `board` (still), `bare`, `stream`, `sweep`, `walk`, `wander` or
    /// `empty`.
    pub kind: String,
    pub frames: u32,
    pub size: (u32, u32),
    /// See [`BoardBench::capture`].
    pub capture: Option<std::path::PathBuf>,
    /// See [`BoardBench::whole`].
    pub whole: bool,
    /// See [`BoardBench::late_textures`].
    pub late_textures: bool,
}

/// One child of the bench: the empty window, or the scenario's board in
/// the game's window with [`BoardBench`].
pub fn run_child(scenario: &str, child: Child) -> std::process::ExitCode {
    use std::process::ExitCode;
    if child.kind == "empty" {
        return run_empty(child.size, child.frames);
    }
    let loaded = match crate::scenario::builtin_roster()
        .and_then(|r| Ok((r, crate::scenario::builtin_player_aid()?)))
        .and_then(|(roster, aid)| crate::world::load(scenario, &roster, &aid))
    {
        Ok(l) => l,
        Err(report) => {
            eprintln!("{report}");
            return ExitCode::FAILURE;
        }
    };
    let label = loaded.scenario.id.clone();
    let options = super::window::LaunchOptions {
        loaded,
        size: child.size,
        screenshot: None,
        journal: None,
        replay: None,
        modes: super::demo::Modes::default(),
    };
    let mut app = match super::window::app(options, false) {
        Ok(app) => app,
        Err(code) => return code,
    };
    let kind = child.kind.as_str();
    // A board redrawn continuously, the mouse pinned by the bench.
    app.insert_resource(crate::app::ScreenshotRequest::plain(
        std::path::PathBuf::new(),
        0,
    ))
    .add_plugins(BoardBench {
        frames: child.frames,
        label,
        sweep: kind == "sweep",
        walk: kind == "walk",
        wander: kind == "wander",
        capture: child.capture,
        whole: child.whole,
        late_textures: child.late_textures,
        bare: kind == "bare",
        stream: kind == "stream",
    });
    super::window::exit_code(app.run())
}

/// The load average, as `uptime` gives it (Linux; empty elsewhere).
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// `bench-frames`: each scenario's board, and an empty window before
/// it, each in a child process under the same display; prints the table.
pub fn bench(
    scenarios: &[String],
    frames: u32,
    size: (u32, u32),
    rounds: u32,
) -> std::process::ExitCode {
    use std::process::ExitCode;
    let Ok(me) = std::env::current_exe() else {
        eprintln!("bench-frames: cannot find the running program");
        return ExitCode::FAILURE;
    };
    let run = |kind: &str, scenario: &str| -> Result<Figures, String> {
        let out = std::process::Command::new(&me)
            .args([scenario, "--child", kind])
            .args(["--frames", &frames.to_string()])
            .args(["--size", &format!("{}x{}", size.0, size.1)])
            .output()
            .map_err(|e| format!("cannot start {}: {e}", me.display()))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        stdout.lines().find_map(parse_figures).ok_or_else(|| {
            format!(
                "{kind} {scenario}: no figures ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        })
    };
    println!(
        "{frames} frames after a warm-up of {WARM_UP}, {}x{}, {rounds} rounds (medians; the windows take turns in each round), load average {}; still = the board as opened, bare = without the Scenario Card and Player Aid, stream = streamer mode (no side panels, log or tray), sweep = the mouse crossing the map every frame, a unit selected and the LOS tool anchored",
        size.0,
        size.1,
        load_average()
    );
    println!(
        "fps and its ratio are wall-clock; cpu/frame is the whole process's CPU time per frame (renderer included) and its ratio empty/board the load-free frame-rate ratio, of the medians and then of each round; raster = of the cpu/frame, the software rasterizer's threads (llvmpipe), board / empty window; game systems = our systems per frame, CPU time (mean / worst) then wall mean; main = Bevy's main-world update, wall; drawn = frames on which something on screen changed, so the board and panels were drawn (the others show the kept picture), part = of those, frames drawn only in their changed rectangles; kpx = thousands of pixels drawn a frame (the whole window on a frame drawn whole); walk = the mouse moving one hex every 4 frames"
    );
    println!(
        "{:<12} {:<6} {:>6} {:>6} {:>6} {:>9} {:>9} {:>6} {:<15} {:>11} {:>17} {:>7} {:>7} {:>7} {:>4} {:>6}",
        "scenario",
        "board",
        "fps",
        "empty",
        "ratio",
        "cpu/frame",
        "empty cpu",
        "ratio",
        "rounds",
        "raster",
        "game sys cpu ms",
        "wall ms",
        "main ms",
        "drawn",
        "part",
        "kpx"
    );
    let mut ok = true;
    for sc in scenarios {
        const BOARDS: [(&str, &str); 5] = [
            ("still", "board"),
            ("bare", "bare"),
            ("stream", "stream"),
            ("sweep", "sweep"),
            ("walk", "walk"),
        ];
        // Each round measures the empty window and then every board.
        let figures = (0..rounds)
            .map(|_| {
                let empty = run("empty", sc)?;
                let boards = BOARDS
                    .iter()
                    .map(|(_, kind)| run(kind, sc))
                    .collect::<Result<Vec<_>, String>>()?;
                Ok((empty, boards))
            })
            .collect::<Result<Vec<_>, String>>();
        match figures {
            Ok(rounds) => {
                let empties: Vec<Figures> = rounds.iter().map(|(e, _)| e.clone()).collect();
                let empty = median_figures(&empties);
                for (b, (what, _)) in BOARDS.iter().enumerate() {
                    let runs: Vec<Figures> = rounds.iter().map(|(_, bs)| bs[b].clone()).collect();
                    let board = median_figures(&runs);
                    let ratio = |a: f64, b: f64| 100.0 * a / b.max(f64::MIN_POSITIVE);
                    let each = rounds
                        .iter()
                        .map(|(e, bs)| format!("{:.0}", ratio(e.process_cpu, bs[b].process_cpu)))
                        .collect::<Vec<_>>()
                        .join("/");
                    println!(
                        "{:<12} {:<6} {:>6.2} {:>6.2} {:>5.0}% {:>9.1} {:>9.1} {:>5.0}% {:<15} {:>11} {:>7.2} / {:>7.2} {:>7.2} {:>7.1} {:>3}/{:<3} {:>4} {:>6.1}",
                        sc,
                        what,
                        board.fps,
                        empty.fps,
                        ratio(board.fps, empty.fps),
                        board.process_cpu,
                        empty.process_cpu,
                        ratio(empty.process_cpu, board.process_cpu),
                        each,
                        format!("{:.1}/{:.1}", board.raster_cpu, empty.raster_cpu),
                        board.ours_cpu_mean,
                        board.ours_cpu_worst,
                        board.ours_mean,
                        board.main_mean,
                        board.drawn,
                        frames,
                        board.partial,
                        board.shaded_kpx,
                    );
                }
            }
            Err(e) => {
                eprintln!("{e}");
                ok = false;
            }
        }
    }
    println!("load average at the end {}", load_average());
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The median of each figure over several runs of one window (the worst
/// figures: the largest); the counts are those of the first run (the same
/// in every run of a board: its mouse is scripted).
pub fn median_figures(runs: &[Figures]) -> Figures {
    let median = |f: fn(&Figures) -> f64| {
        let mut v: Vec<f64> = runs.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        match v.len() {
            0 => 0.0,
            n if n % 2 == 1 => v[n / 2],
            n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
        }
    };
    let worst = |f: fn(&Figures) -> f64| runs.iter().map(f).fold(0.0, f64::max);
    let first = runs.first().cloned().unwrap_or_default();
    Figures {
        fps: median(|f| f.fps),
        ours_mean: median(|f| f.ours_mean),
        ours_worst: worst(|f| f.ours_worst),
        ours_cpu_mean: median(|f| f.ours_cpu_mean),
        ours_cpu_worst: worst(|f| f.ours_cpu_worst),
        main_mean: median(|f| f.main_mean),
        main_worst: worst(|f| f.main_worst),
        process_cpu: median(|f| f.process_cpu),
        raster_cpu: median(|f| f.raster_cpu),
        ..first
    }
}

/// One child's figures, parsed from its `BENCH` line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    pub label: String,
    pub fps: f64,
    pub ours_mean: f64,
    pub ours_worst: f64,
    pub ours_cpu_mean: f64,
    pub ours_cpu_worst: f64,
    pub main_mean: f64,
    pub main_worst: f64,
    /// The whole process's CPU time per frame, ms.
    pub process_cpu: f64,
    /// Of it, the software rasterizer's threads (`RASTER_THREADS`), ms.
    pub raster_cpu: f64,
    /// Measured frames on which the board was drawn (the others showed the
    /// kept picture, see `retain`).
    pub drawn: u64,
    /// Of them, frames drawn only in their changed rectangles (`present`).
    pub partial: u64,
    /// Pixels drawn a measured frame, thousands (the whole window on a
    /// frame drawn whole, its rectangles on one drawn in them, none on a
    /// kept one).
    pub shaded_kpx: f64,
}

/// Reads a `BENCH label key=value ...` line.
pub fn parse_figures(line: &str) -> Option<Figures> {
    let mut words = line.strip_prefix("BENCH ")?.split_whitespace();
    let mut f = Figures {
        label: words.next()?.to_string(),
        ..default()
    };
    for w in words {
        let (k, v) = w.split_once('=')?;
        let v: f64 = v.parse().ok()?;
        match k {
            "fps" => f.fps = v,
            "ours_mean_ms" => f.ours_mean = v,
            "ours_worst_ms" => f.ours_worst = v,
            "ours_cpu_mean_ms" => f.ours_cpu_mean = v,
            "ours_cpu_worst_ms" => f.ours_cpu_worst = v,
            "process_cpu_ms" => f.process_cpu = v,
            "raster_cpu_ms" => f.raster_cpu = v,
            "drawn" => f.drawn = v as u64,
            "partial" => f.partial = v as u64,
            "shaded_kpx" => f.shaded_kpx = v,
            "main_mean_ms" => f.main_mean = v,
            "main_worst_ms" => f.main_worst = v,
            _ => {}
        }
    }
    Some(f)
}
