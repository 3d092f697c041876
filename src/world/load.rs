//! Loading a scenario checked whole: the data checks of
//! `scenario::validate`, then those that need the board and the rules
//! (`rules::setup`, R 15.0). Every game, check and test loads through here.

use crate::scenario::{self, FileReport, Loaded, PlayerAid, Roster, Scenario};

/// Finds a scenario by built-in id (`training`), built-in file name
/// (`training.ron`), or a path on disk, and checks it whole.
pub fn load(name: &str, roster: &Roster, aid: &PlayerAid) -> Result<Loaded, FileReport> {
    scenario::load_with(
        name,
        roster,
        aid,
        crate::rules::setup::setup_concealment_problems,
    )
}

/// Checks one file's bytes as a scenario, whole.
pub fn check_bytes(
    file: &str,
    bytes: &[u8],
    roster: &Roster,
    aid: &PlayerAid,
) -> Result<Scenario, FileReport> {
    scenario::check_bytes_with(
        file,
        bytes,
        roster,
        aid,
        crate::rules::setup::setup_concealment_problems,
    )
}

/// [`load`] for a scenario named inside a file (a script, a journal): the
/// path is checked first, so that a file cannot reach outside the working
/// folder.
pub fn load_named(name: &str, roster: &Roster, aid: &PlayerAid) -> Result<Loaded, FileReport> {
    if let Some(why) = scenario::paths::refuse_escape(name) {
        return Err(FileReport {
            file: name.to_string(),
            problems: vec![scenario::Problem {
                line: 1,
                col: 1,
                message: why,
            }],
        });
    }
    load(name, roster, aid)
}
