//! Every test file shares `tests/common` (issue 24): each top-level
//! `tests/*.rs` has a `mod common;` line, so the built-in data, scenario
//! loading, forced dice, orders and `bob script` are written once, there.

use std::path::Path;

mod common;

/// The test files that load nothing of the game's data (no roster, no
/// Player Aid, no scenario, no script) and so have no use for `common`.
/// Keep it short: a file that starts loading data leaves the list.
const EXEMPT: &[&str] = &[
    // `bob::ui::frame_stats` parsing and arithmetic only; built with
    // `--features measure`.
    "frame_stats.rs",
    // Runs the `bench-frames` binary under xvfb (the child loads its
    // scenario) and compares its images; loads nothing in process.
    "present.rs",
    // Reads `docs/rules-audit.md` and checks the test names it cites.
    "rules_audit.rs",
];

/// Whether `text` has a `mod common;` line (not commented out).
fn has_common(text: &str) -> bool {
    text.lines().any(|l| l.trim() == "mod common;")
}

/// The top-level test files (name, text) that lack `mod common;` and are not
/// in `exempt`.
fn missing(dir: &Path, exempt: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("tests/") {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_file()
            && name.ends_with(".rs")
            && !exempt.contains(&name.as_str())
            && !has_common(&common::source::read(&path))
        {
            out.push(name);
        }
    }
    out.sort();
    out
}

#[test]
fn every_test_file_uses_common() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let missing = missing(&dir, EXEMPT);
    assert!(
        missing.is_empty(),
        "these test files have no `mod common;` line: {missing:?}"
    );
}

/// The exemptions stay true: each exempt file exists, has no `mod
/// common;`, and loads none of the game's data.
#[test]
fn the_exempt_files_load_nothing() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for name in EXEMPT {
        let text = common::source::read(&dir.join(name));
        assert!(
            !has_common(&text),
            "{name} uses common: drop it from EXEMPT"
        );
        for loads in [
            "builtin_roster",
            "builtin_player_aid",
            "world::load",
            "headless_world",
            "script::run",
            "\"script\"",
        ] {
            assert!(!text.contains(loads), "{name} loads data ({loads})");
        }
    }
}

/// The check itself: a file without the line is caught, a commented-out
/// line does not count, an exempt file is let through.
#[test]
fn the_check_catches_a_file_without_common() {
    let dir = std::env::temp_dir().join(format!("bob-common-used-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("common")).unwrap();
    std::fs::write(dir.join("uses.rs"), "mod common;\nuse common::data;\n").unwrap();
    std::fs::write(dir.join("lacks.rs"), "use bob::scenario;\n").unwrap();
    std::fs::write(dir.join("commented.rs"), "// mod common;\n").unwrap();
    std::fs::write(dir.join("exempt.rs"), "fn main() {}\n").unwrap();
    std::fs::write(dir.join("common/mod.rs"), "pub fn data() {}\n").unwrap();
    assert_eq!(missing(&dir, &["exempt.rs"]), ["commented.rs", "lacks.rs"]);
    assert_eq!(
        missing(&dir, &[]),
        ["commented.rs", "exempt.rs", "lacks.rs"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
