//! A board drawn only in each frame's changed rectangles (`ui::damage`,
//! `ui::present`) shows the picture a board drawn whole shows: the same
//! mouse moves (the bench's sweep, a hex seven on every frame, and its walk,
//! a neighbouring hex every four frames), then the window captured once the
//! board settles, in one run drawing in rectangles and in one drawing every
//! frame whole.
//!
//! Tolerance: llvmpipe shades a textured rectangle cut by a scissor on a
//! fixed-point path whose texture coordinates start from the cut edge, so a
//! few isolated pixels of the map come out one level (of 255) apart; at
//! most 1 level, at most 0.01% of the window's pixels (92 at 1280x720).
//! Needs `xvfb-run` (CI has it); skipped where it is missing.

use std::path::Path;
use std::process::Command;

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType};

fn have_xvfb() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The board after `frames` frames of the mouse moving (`kind`), captured;
/// the frames drawn only in their changed rectangles.
fn capture(scenario: &str, kind: &str, frames: u32, whole: bool, out: &Path) -> u64 {
    let mut cmd = Command::new("xvfb-run");
    cmd.args(["-a", "-s", "-screen 0 1600x900x24"])
        .arg(env!("CARGO_BIN_EXE_bob"))
        .args(["bench-frames", scenario, "--child", kind])
        .args(["--frames", &frames.to_string(), "--size", "1280x720"])
        .arg("--capture")
        .arg(out);
    if whole {
        cmd.arg("--whole");
    }
    let run = cmd.output().expect("xvfb-run starts");
    assert!(
        run.status.success() && out.exists(),
        "{scenario} {kind} whole={whole}: {}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    let figures = stdout
        .lines()
        .find_map(bob::ui::frame_stats::parse_figures)
        .expect("the bench's figures");
    figures.partial
}

fn pixels(path: &Path) -> Image {
    let bytes = std::fs::read(path).unwrap();
    Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .unwrap()
}

/// Pixels that differ, and the largest difference of a channel.
fn differences(a: &Image, b: &Image) -> (usize, u8) {
    assert_eq!(a.size(), b.size());
    let (a, b) = (a.data.as_ref().unwrap(), b.data.as_ref().unwrap());
    let mut n = 0;
    let mut most = 0;
    for (p, q) in a.chunks(4).zip(b.chunks(4)) {
        let d = p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap();
        if d > 0 {
            n += 1;
            most = most.max(d);
        }
    }
    (n, most)
}

#[test]
fn a_board_drawn_in_changed_rectangles_shows_what_a_whole_redraw_shows() {
    if !have_xvfb() {
        eprintln!("skipped: no xvfb-run");
        return;
    }
    let dir = std::env::temp_dir().join(format!("bob-present-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (scenario, kind, frames) in [("training", "sweep", 12), ("guadalcanal", "walk", 30)] {
        let parts = dir.join(format!("{scenario}-{kind}-parts.png"));
        let whole = dir.join(format!("{scenario}-{kind}-whole.png"));
        // Most frames drawn in rectangles, none in the whole run.
        assert!(capture(scenario, kind, frames, false, &parts) >= u64::from(frames) / 2);
        assert_eq!(capture(scenario, kind, frames, true, &whole), 0);
        let (a, b) = (pixels(&parts), pixels(&whole));
        let (n, most) = differences(&a, &b);
        let total = (a.width() * a.height()) as usize;
        assert!(
            most <= 1 && n * 10_000 <= total,
            "{scenario} {kind}: {n} pixels differ, by up to {most} levels"
        );
        // Not two blank pictures: the board and its panels are there.
        let data = a.data.as_ref().unwrap();
        let first = &data[..4];
        assert!(data.chunks(4).filter(|p| *p != first).count() > total / 10);
    }
    std::fs::remove_dir_all(&dir).ok();
}
