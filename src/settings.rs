//! The player's settings: `settings.ron` in the data directory
//! ([`crate::journal::data_dir`]). Read with the same located errors as every
//! other file (`FileReport`: file, line, column, field); a bad file is never
//! overwritten without the player's say, and the game runs on the defaults
//! meanwhile, saying why.
//!
//! ```text
//! (hand_over: true, dice_seconds: 0.6, ui_scale: 1.0, vs_bot: false)
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::scenario::validate::{Problem, parse_ron, text_of};
use crate::scenario::{self, FileReport};

/// The settings file's name in the data directory.
pub const FILE_NAME: &str = "settings.ron";

/// The dice animation lasts at most this long, in seconds (0 = none).
pub const DICE_SECONDS: (f32, f32) = (0.0, 3.0);
/// The UI scale (egui zoom) lies in this range.
pub const UI_SCALE: (f32, f32) = (0.5, 3.0);

/// What the player chose in the Settings screen. A missing field takes its
/// default; an unknown field is an error (a typo must not pass silently).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, bevy::prelude::Resource)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// Hide the board behind "<side> player: press Space" whenever the
    /// screen passes to the other side (hotseat).
    pub hand_over: bool,
    /// Seconds the dice roll in the dice tray before they settle; 0 = none.
    pub dice_seconds: f32,
    /// The size of the panels and text (egui zoom), 1.0 = normal.
    pub ui_scale: f32,
    /// Play against the bot (offered in the menu once a bot is built in).
    pub vs_bot: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hand_over: true,
            dice_seconds: 0.6,
            ui_scale: 1.0,
            vs_bot: false,
        }
    }
}

/// Where the settings file lives.
pub fn path_in(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

/// The line and column where `field:` is written in `src` (1, 1 if absent).
fn field_at(src: &str, field: &str) -> (usize, usize) {
    let key = format!("{field}:");
    for (i, line) in src.lines().enumerate() {
        if let Some(c) = line.find(&key) {
            return (i + 1, c + 1);
        }
    }
    (1, 1)
}

/// Parses a settings file's bytes; `file` names it in the errors.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Settings, FileReport> {
    let located = |p: Problem| FileReport {
        file: file.to_string(),
        problems: vec![p],
    };
    let src = text_of(bytes).map_err(located)?;
    let s: Settings = parse_ron(src).map_err(located)?;
    let ranges = [
        ("dice_seconds", s.dice_seconds, DICE_SECONDS),
        ("ui_scale", s.ui_scale, UI_SCALE),
    ];
    let problems: Vec<Problem> = ranges
        .iter()
        .filter(|(_, v, (lo, hi))| !(*lo..=*hi).contains(v))
        .map(|(field, v, (lo, hi))| {
            Problem::at(
                field_at(src, field),
                format!("field `{field}`: {v} is outside {lo} .. {hi}"),
            )
        })
        .collect();
    if problems.is_empty() {
        Ok(s)
    } else {
        Err(FileReport {
            file: file.to_string(),
            problems,
        })
    }
}

/// What reading the settings at start-up gave.
#[derive(Debug, Clone, PartialEq, bevy::prelude::Resource)]
pub struct SettingsFile {
    pub path: PathBuf,
    /// Why the file could not be used (the defaults are in force); the file
    /// is only replaced when the player saves over it on purpose.
    pub error: Option<String>,
}

/// Reads the settings in `dir`: no file gives the defaults; a bad file gives
/// the defaults and its located error.
pub fn load(dir: &Path) -> (Settings, SettingsFile) {
    let path = path_in(dir);
    let mut file = SettingsFile {
        path: path.clone(),
        error: None,
    };
    if !path.exists() {
        return (Settings::default(), file);
    }
    match scenario::read_file(&path).and_then(|b| parse(&path.display().to_string(), &b)) {
        Ok(s) => (s, file),
        Err(report) => {
            file.error = Some(report.to_string());
            (Settings::default(), file)
        }
    }
}

/// Writes the settings (a whole new file, flushed, then renamed over the
/// old one, so a crash leaves either the old or the new file).
pub fn save(path: &Path, s: &Settings) -> std::io::Result<()> {
    use std::io::Write;
    let text = ron::ser::to_string_pretty(s, ron::ser::PrettyConfig::default())
        .map_err(std::io::Error::other)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("ron.tmp");
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_round_trip() {
        let s = Settings::default();
        let text = ron::to_string(&s).unwrap();
        assert_eq!(parse("s.ron", text.as_bytes()).unwrap(), s);
    }

    #[test]
    fn a_missing_field_takes_its_default() {
        let s = parse("s.ron", b"(ui_scale: 1.5)").unwrap();
        assert_eq!(
            s,
            Settings {
                ui_scale: 1.5,
                ..Settings::default()
            }
        );
    }

    #[test]
    fn an_out_of_range_value_names_its_line_and_field() {
        let r = parse("s.ron", b"(\n  hand_over: false,\n  ui_scale: 9.0,\n)").unwrap_err();
        assert_eq!(
            r.to_string(),
            "s.ron:3:3: field `ui_scale`: 9 is outside 0.5 .. 3"
        );
    }

    #[test]
    fn a_bad_file_is_kept_and_the_defaults_are_used() {
        let dir = std::env::temp_dir().join(format!("bob-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = path_in(&dir);
        std::fs::write(&path, "(hand_over: maybe)").unwrap();
        let (s, file) = load(&dir);
        assert_eq!(s, Settings::default());
        let error = file.error.unwrap();
        assert_eq!(
            error,
            format!(
                "{}:1:12: field `hand_over`: expected boolean",
                path.display()
            )
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "(hand_over: maybe)"
        );
        save(&path, &Settings::default()).unwrap();
        assert_eq!(
            load(&dir),
            (Settings::default(), SettingsFile { path, error: None })
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
