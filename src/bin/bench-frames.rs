//! `bench-frames`: what a frame of the board costs, against an empty Bevy
//! window of the same size (`bob::ui::frame_stats`; the figures go to
//! `docs/performance.md`). Built with the `measure` feature:
//! `cargo build --release --features measure`, then run it under the
//! display to measure, e.g. `xvfb-run`.

use std::path::PathBuf;
use std::process::ExitCode;

use bob::ui::frame_stats::{self, Child};
use clap::Parser;

/// Measure frame costs: the game's own systems per frame on each scenario,
/// and the board's frame rate against an empty Bevy window of the same size
/// (run it under the display to measure, e.g. xvfb-run).
#[derive(Debug, Parser)]
#[command(name = "bench-frames")]
struct Args {
    /// Scenarios to measure.
    #[arg(default_values_t = ["training".to_string(), "guadalcanal".to_string()])]
    scenarios: Vec<String>,
    /// Frames to measure (after a warm-up of 30).
    #[arg(long, default_value_t = 120)]
    frames: u32,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = bob::cli::parse_size)]
    size: (u32, u32),
    /// Each window measured this many times, the windows taking turns;
    /// the table gives the medians and each round's CPU ratio.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=50))]
    rounds: u32,
    /// Measure one window (`board`, `bare`, `stream`, `sweep`, `walk`,
    /// `wander` or `empty`) in this process, as a child of the bench.
    #[arg(long)]
    child: Option<String>,
    /// With --child: after the frames, let the board settle and save the
    /// window as PNG here.
    #[arg(long, requires = "child")]
    capture: Option<PathBuf>,
    /// With --child: draw every frame on the board whole.
    #[arg(long, requires = "child")]
    whole: bool,
    /// With --child: egui's texture updates reach the renderer a frame late.
    #[arg(long, requires = "child")]
    late_textures: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let Some(kind) = args.child else {
        return frame_stats::bench(&args.scenarios, args.frames, args.size, args.rounds);
    };
    let scenario = args
        .scenarios
        .first()
        .map_or(bob::scenario::DEFAULT_SCENARIO, String::as_str);
    frame_stats::run_child(
        scenario,
        Child {
            kind,
            frames: args.frames,
            size: args.size,
            capture: args.capture,
            whole: args.whole,
            late_textures: args.late_textures,
        },
    )
}
