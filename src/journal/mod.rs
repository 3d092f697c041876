//! Never lose a game: every accepted order is appended to a journal file and
//! flushed to disk before its result is shown; a journal replays headlessly
//! through [`crate::engine::operations::apply`] to the exact same state
//! (checked by a state hash on every entry). Saves are journals with a
//! summary; `bob replay FILE --log` prints a journal's event log.
//!
//! The file is RON, one value per line (see `docs/reliability.md`):
//!
//! ```text
//! (format: 1, scenario: "training", content: "9c1e...", seed: 7, rolls: [], ...)
//! (n: 1, order: mark_used(unit: "A1"), state: "03fa...")
//! (n: 2, order: pass, state: "77b0...")
//! ```
//!
//! Orders are stored through their serde form, so new order variants need no
//! change here.

pub mod file;
pub mod headless;
pub mod position;
pub mod replay;
pub mod state;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::engine::Order;
use crate::scenario::Scenario;

pub use file::{JournalRead, JournalWriter, read_journal};
pub use replay::{Replayed, replay, replay_lines};
pub use state::state_hash;

/// The journal format this build writes and the newest it reads.
pub const FORMAT: u32 = 1;

/// The environment variable that moves the data directory (tests use it).
pub const DATA_DIR_ENV: &str = "BOB_DATA_DIR";

/// The first line of a journal or save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The journal format (see [`FORMAT`]).
    pub format: u32,
    /// The id of the scenario played.
    pub scenario: String,
    /// FNV-1a 64 of the scenario's canonical serialized content, hex.
    pub content: String,
    /// The scenario itself, when it is not built into the binary: a journal
    /// never names a path to read.
    #[serde(default)]
    pub scenario_text: Option<String>,
    /// Seed of the dice.
    pub seed: u64,
    /// Rolls forced before the seeded stream (scripts).
    #[serde(default)]
    pub rolls: Vec<u8>,
    /// When the game started, UTC.
    #[serde(default)]
    pub started: String,
    /// Present in saves.
    #[serde(default)]
    pub summary: Option<Summary>,
}

/// What a save shows before it is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    pub title: String,
    pub turn: u8,
    pub phase: String,
    pub side_to_act: String,
    pub orders: usize,
    pub saved: String,
}

/// One accepted order and the state hash after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// 1-based order number.
    pub n: usize,
    pub order: Order,
    /// [`state_hash`] after the order, hex.
    pub state: String,
}

/// FNV-1a, 64 bits: stable across platforms and releases.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The canonical serialized content of a scenario (what its hash covers).
pub fn canonical_text(scenario: &Scenario) -> String {
    ron::to_string(scenario).unwrap_or_default()
}

/// The content hash of a scenario: of its canonical content, so an edited
/// scenario under the same name is told apart.
pub fn content_hash(scenario: &Scenario) -> String {
    format!("{:016x}", fnv1a(canonical_text(scenario).as_bytes()))
}

/// Where journals and saves live: `$BOB_DATA_DIR`, else
/// `$XDG_DATA_HOME/band-of-brothers`, else `~/.local/share/band-of-brothers`.
pub fn data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("band-of-brothers");
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".local/share/band-of-brothers")
}

/// The journal of the game in progress for a scenario.
pub fn current_journal(dir: &std::path::Path, scenario_id: &str) -> PathBuf {
    dir.join("journals")
        .join(format!("{}.ron", safe_name(scenario_id)))
}

/// A file name made only of letters, digits, `-` and `_` (anything else
/// becomes `_`), never empty, never a path.
pub fn safe_name(name: &str) -> String {
    let s: String = name
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() { "game".into() } else { s }
}

/// Now, UTC, as `2026-11-26 00:52:25 UTC`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_string(secs)
}

/// Seconds since 1970 as a UTC date and time.
pub fn utc_string(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil from days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_names() {
        assert_eq!(utc_string(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_string(1_795_654_345), "2026-11-26 00:52:25 UTC");
        assert_eq!(utc_string(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(safe_name("../../etc/passwd"), "______etc_passwd");
        assert_eq!(safe_name(""), "game");
    }

    #[test]
    fn content_hash_sees_an_edit_under_the_same_name() {
        let roster = crate::scenario::builtin_roster().unwrap();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let a = crate::world::load("training", &roster, &aid).unwrap();
        let mut b = (*a.scenario).clone();
        b.turns += 1;
        assert_eq!(content_hash(&a.scenario), content_hash(&a.scenario.clone()));
        assert_ne!(content_hash(&a.scenario), content_hash(&b));
        assert_eq!(content_hash(&a.scenario).len(), 16);
    }
}
