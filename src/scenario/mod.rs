//! Scenarios as data: the RON schema, the unit roster, the Player Aid, checks
//! with precise errors, and the scenarios the binary carries (R 18.0).

pub mod coords;
pub mod paths;
pub mod player_aid;
pub mod roster;
pub mod schema;
pub mod validate;

use std::path::Path;

pub use coords::Coord;
pub use player_aid::PlayerAid;
pub use roster::Roster;
pub use schema::Scenario;
pub use validate::{FileReport, Problem};

// A build directory shared by several checkouts may hold another build
// script's output, with items this one no longer uses.
#[allow(dead_code)]
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// The built-in scenario the game opens with.
pub const DEFAULT_SCENARIO: &str = "training";

/// `assets/units.ron` as built. Included here, from this crate's own
/// directory, rather than through `OUT_DIR`: a build directory shared by
/// several checkouts must not hand one checkout another's data.
const UNITS_RON: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/units.ron"));

/// `assets/player_aid.ron` as built (see [`UNITS_RON`]).
const PLAYER_AID_RON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/player_aid.ron"
));

/// The unit roster as built into the binary (checked by `build.rs`).
pub fn builtin_roster() -> Result<Roster, FileReport> {
    parse_data("assets/units.ron", UNITS_RON.as_bytes())
}

/// The Player Aid as built into the binary (checked by `build.rs`).
pub fn builtin_player_aid() -> Result<PlayerAid, FileReport> {
    parse_player_aid("assets/player_aid.ron", PLAYER_AID_RON.as_bytes())
}

/// Parses a Player Aid file and checks it has every row the rules read
/// ([`PlayerAid::problems`]), naming the file in any error.
pub fn parse_player_aid(file: &str, bytes: &[u8]) -> Result<PlayerAid, FileReport> {
    let aid: PlayerAid = parse_data(file, bytes)?;
    let problems: Vec<validate::Problem> = aid
        .problems()
        .into_iter()
        .map(|m| validate::Problem::at((1, 1), m))
        .collect();
    if problems.is_empty() {
        Ok(aid)
    } else {
        Err(FileReport {
            file: file.to_string(),
            problems,
        })
    }
}

/// Parses a roster or Player Aid file, naming the file in any error.
pub fn parse_data<T: serde::de::DeserializeOwned>(
    file: &str,
    bytes: &[u8],
) -> Result<T, FileReport> {
    validate::text_of(bytes)
        .and_then(validate::parse_ron::<T>)
        .map_err(|p| FileReport {
            file: file.to_string(),
            problems: vec![p],
        })
}

/// A scenario file carried by the binary.
#[derive(Debug, Clone, Copy)]
pub struct Embedded {
    pub file: &'static str,
    pub text: &'static str,
}

/// Every scenario carried by the binary, sorted by file name.
pub fn embedded() -> impl Iterator<Item = Embedded> {
    embedded::EMBEDDED_SCENARIOS
        .iter()
        .map(|(file, text)| Embedded { file, text })
}

/// A scenario that passed its check, with where it came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Shared: a simulation starts many games from one load.
    pub scenario: std::sync::Arc<Scenario>,
    /// `scenarios/training.ron (built in)` or the path given.
    pub origin: String,
}

/// A check that needs the board and the rules, run on a scenario that
/// passed [`validate`]; given by a higher room (`rules::setup`, R 15.0),
/// which this data room does not import. `world::load` passes it.
pub type SetupCheck = fn(&str, &Scenario, &Roster, &PlayerAid) -> Vec<validate::Problem>;

/// Checks one file's bytes as a scenario: [`validate`], then `setup`.
pub fn check_bytes_with(
    file: &str,
    bytes: &[u8],
    roster: &Roster,
    aid: &PlayerAid,
    setup: SetupCheck,
) -> Result<Scenario, FileReport> {
    let (scenario, mut problems) = validate::check_scenario(bytes, roster, aid);
    if let (Some(s), true, Ok(src)) = (&scenario, problems.is_empty(), validate::text_of(bytes)) {
        problems.extend(setup(src, s, roster, aid));
    }
    match scenario {
        Some(s) if problems.is_empty() => Ok(s),
        _ => Err(FileReport {
            file: file.to_string(),
            problems,
        }),
    }
}

/// Finds a scenario by built-in id (`training`), built-in file name
/// (`training.ron`), or a path on disk, and checks it with `setup` too.
pub fn load_with(
    name: &str,
    roster: &Roster,
    aid: &PlayerAid,
    setup: SetupCheck,
) -> Result<Loaded, FileReport> {
    for e in embedded() {
        let stem = e.file.trim_end_matches(".ron");
        if name == e.file || name == stem {
            let file = format!("scenarios/{} (built in)", e.file);
            let scenario = check_bytes_with(&file, e.text.as_bytes(), roster, aid, setup)?;
            return Ok(Loaded {
                scenario: scenario.into(),
                origin: file,
            });
        }
    }
    for e in embedded() {
        if let Ok(s) = validate::parse_ron::<Scenario>(e.text)
            && s.id == name
        {
            let file = format!("scenarios/{} (built in)", e.file);
            let scenario = check_bytes_with(&file, e.text.as_bytes(), roster, aid, setup)?;
            return Ok(Loaded {
                scenario: scenario.into(),
                origin: file,
            });
        }
    }
    let bytes = read_file(Path::new(name))?;
    let scenario = check_bytes_with(name, &bytes, roster, aid, setup)?;
    Ok(Loaded {
        scenario: scenario.into(),
        origin: name.to_string(),
    })
}

/// Reads a file a person handed us, refusing directories and huge files.
pub fn read_file(path: &Path) -> Result<Vec<u8>, FileReport> {
    let file = path.display().to_string();
    let fail = |message: String| FileReport {
        file: file.clone(),
        problems: vec![Problem {
            line: 1,
            col: 1,
            message,
        }],
    };
    let meta = std::fs::metadata(path).map_err(|e| {
        fail(if e.kind() == std::io::ErrorKind::NotFound {
            "no such file, and no built-in scenario by that name (see `bob list`)".to_string()
        } else {
            format!("cannot read: {e}")
        })
    })?;
    if !meta.is_file() {
        return Err(fail("not a file".to_string()));
    }
    if meta.len() > validate::MAX_FILE_BYTES as u64 {
        return Err(fail(format!(
            "file is {} bytes; the limit is {} bytes",
            meta.len(),
            validate::MAX_FILE_BYTES
        )));
    }
    std::fs::read(path).map_err(|e| fail(format!("cannot read: {e}")))
}
