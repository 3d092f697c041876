//! A board drawn only in each frame's changed rectangles (`ui::render::damage`,
//! `ui::render::present`) shows the picture a board drawn whole shows: the same
//! mouse moves, then the window captured once the board settles, in one run
//! drawing in rectangles and in one drawing every frame whole. The moves:
//! the bench's sweep (a hex seven on, every frame), its walk (a neighbouring
//! hex every four frames, so frames kept between them: the board camera's
//! phases must survive them), the walk again with egui's font atlas reaching
//! the renderer a frame after the text that first uses a glyph (the order
//! the executor picked now and then, which lost a letter of the hex card on
//! CI), and a random wander with the side panels opened and closed.
//!
//! Tolerance: llvmpipe shades a textured rectangle cut by a scissor on a
//! fixed-point path whose texture coordinates start from the cut edge, so a
//! few isolated pixels of the map come out one level (of 255) apart; at
//! most 1 level, at most 0.01% of the window's pixels (92 at 1280x720).
//! A failing case leaves both pictures and a picture of the differences
//! (in magenta) under the target directory, `present-failures/`.
//! Needs `xvfb-run` (CI has it); skipped where it is missing. Runs the
//! `bench-frames` binary, so it is built with the `measure` feature:
//! `cargo test --release --features measure --test present`.

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
fn capture(
    scenario: &str,
    kind: &str,
    frames: u32,
    whole: bool,
    extra: &[&str],
    out: &Path,
) -> u64 {
    let mut cmd = Command::new("xvfb-run");
    cmd.args(["-a", "-s", "-screen 0 1600x900x24"])
        .arg(env!("CARGO_BIN_EXE_bench-frames"))
        .args([scenario, "--child", kind])
        .args(["--frames", &frames.to_string(), "--size", "1280x720"])
        .args(extra)
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

/// Pixels that differ, the largest difference of a channel, and the
/// bounding box of the differing pixels (x0, y0, x1, y1, inclusive).
fn differences(a: &Image, b: &Image) -> (usize, u8, [u32; 4]) {
    assert_eq!(a.size(), b.size());
    let w = a.width();
    let (a, b) = (a.data.as_ref().unwrap(), b.data.as_ref().unwrap());
    let mut n = 0;
    let mut most = 0;
    let mut bbox = [u32::MAX, u32::MAX, 0, 0];
    for (i, (p, q)) in a.chunks(4).zip(b.chunks(4)).enumerate() {
        let d = p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap();
        if d > 0 {
            n += 1;
            most = most.max(d);
            let (x, y) = (i as u32 % w, i as u32 / w);
            bbox = [
                bbox[0].min(x),
                bbox[1].min(y),
                bbox[2].max(x),
                bbox[3].max(y),
            ];
        }
    }
    (n, most, bbox)
}

/// Keeps a failing case's pictures, and the first one dimmed with its
/// differing pixels in magenta, under the target directory.
fn keep_failure(name: &str, parts: &Path, whole: &Path) -> std::path::PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_bench-frames"));
    let dir = bin
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."))
        .join("present-failures");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(parts, dir.join(format!("{name}-parts.png"))).unwrap();
    std::fs::copy(whole, dir.join(format!("{name}-whole.png"))).unwrap();
    let (a, b) = (pixels(parts), pixels(whole));
    let mut diff = a.clone().try_into_dynamic().unwrap().to_rgb8();
    let b = b.try_into_dynamic().unwrap().to_rgb8();
    for (p, q) in diff.pixels_mut().zip(b.pixels()) {
        p.0 = if p.0 == q.0 {
            p.0.map(|c| c / 3)
        } else {
            [255, 0, 255]
        };
    }
    diff.save(dir.join(format!("{name}-diff.png"))).unwrap();
    dir
}

#[test]
fn a_board_drawn_in_changed_rectangles_shows_what_a_whole_redraw_shows() {
    if !have_xvfb() {
        eprintln!("skipped: no xvfb-run");
        return;
    }
    let dir = std::env::temp_dir().join(format!("bob-present-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&str, &str, u32, &[&str]); 4] = [
        ("training", "sweep", 12, &[]),
        ("guadalcanal", "walk", 30, &[]),
        ("guadalcanal", "walk", 30, &["--late-textures"]),
        ("training", "wander", 90, &[]),
    ];
    let mut failures = Vec::new();
    for (scenario, kind, frames, extra) in cases {
        let name = format!("{scenario}-{kind}{}", extra.concat());
        let parts = dir.join(format!("{name}-parts.png"));
        let whole = dir.join(format!("{name}-whole.png"));
        // Some frames drawn in rectangles, none in the whole run.
        assert!(capture(scenario, kind, frames, false, extra, &parts) >= u64::from(frames) / 8);
        assert_eq!(capture(scenario, kind, frames, true, &[], &whole), 0);
        let (a, b) = (pixels(&parts), pixels(&whole));
        let (n, most, [x0, y0, x1, y1]) = differences(&a, &b);
        let total = (a.width() * a.height()) as usize;
        if most > 1 || n * 10_000 > total {
            let kept = keep_failure(&name, &parts, &whole);
            failures.push(format!(
                "{name}: {n} pixels differ, by up to {most} levels, in ({x0},{y0})-({x1},{y1}); pictures in {}",
                kept.display()
            ));
        }
        // Not two blank pictures: the board and its panels are there.
        let data = a.data.as_ref().unwrap();
        let first = &data[..4];
        assert!(data.chunks(4).filter(|p| *p != first).count() > total / 10);
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
