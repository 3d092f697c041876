//! Reading and checking scenario files: every problem names its line, column
//! and a plain sentence. Never panics, whatever the bytes (R 18.0 for the card,
//! R 2.0 stacking, R 43.4 caves, R 15.0 Decoys).
//!
//! Depends on `serde`, `ron` and `hexx` only: `build.rs` compiles it too.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use super::coords::{Coord, LabelError, expand};
use super::player_aid::PlayerAid;
use super::roster::{Roster, UnitClass};
use super::schema::{
    BanzaiWindow, Entry, FortificationKind, Nationality, RoadKind, Scenario, SideId, Terrain,
    Theater, VictoryCondition,
};

/// Files larger than this are refused before parsing: no scenario, roster or
/// save comes near it, and junk must not cost unbounded memory.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// One problem in a file, with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl Problem {
    pub fn at(pos: (usize, usize), message: impl Into<String>) -> Self {
        Problem {
            line: pos.0,
            col: pos.1,
            message: message.into(),
        }
    }
}

/// All problems of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileReport {
    pub file: String,
    pub problems: Vec<Problem>,
}

impl fmt::Display for FileReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}:{}:{}: {}", self.file, p.line, p.col, p.message)?;
        }
        Ok(())
    }
}

/// Decodes bytes as UTF-8 text within the size limit.
pub fn text_of(bytes: &[u8]) -> Result<&str, Problem> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Problem::at(
            (1, 1),
            format!(
                "file is {} bytes; the limit is {} bytes",
                bytes.len(),
                MAX_FILE_BYTES
            ),
        ));
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Problem::at((1, 1), "file is empty"));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let col = good.iter().rev().take_while(|b| **b != b'\n').count() + 1;
        Problem::at((line, col), "file is not UTF-8 text")
    })
}

/// Parses any RON file into `T`, turning the parser's error into a plain sentence.
pub fn parse_ron<T: serde::de::DeserializeOwned>(src: &str) -> Result<T, Problem> {
    ron::from_str::<T>(src).map_err(|e| {
        let pos = (e.span.start.line.max(1), e.span.start.col.max(1));
        let mut message = describe_ron_error(&e.code);
        let about_a_value = !matches!(
            e.code,
            ron::Error::NoSuchEnumVariant { .. }
                | ron::Error::NoSuchStructField { .. }
                | ron::Error::MissingStructField { .. }
                | ron::Error::DuplicateStructField { .. }
                | ron::Error::Eof
        );
        // An unknown variant written as a field's value (`facing: Some(up)`)
        // names that field too; one in a list (an order's name) does not.
        let field_value =
            matches!(e.code, ron::Error::NoSuchEnumVariant { .. }) && value_follows_field(src, pos);
        if (about_a_value || field_value)
            && let Some(field) = field_before(src, pos)
        {
            let mut chars = message.chars();
            let first = chars.next().map(|c| c.to_ascii_lowercase());
            message = format!(
                "field `{field}`: {}{}",
                first.unwrap_or(' '),
                chars.as_str()
            );
        }
        Problem::at(pos, message)
    })
}

/// Whether the text at `pos` is a field's value on its line: only blanks,
/// or `Some(`, between the field's `:` and `pos`.
fn value_follows_field(src: &str, pos: (usize, usize)) -> bool {
    let Some(line) = pos.0.checked_sub(1).and_then(|i| src.lines().nth(i)) else {
        return false;
    };
    let upto: String = line.chars().take(pos.1.saturating_sub(1)).collect();
    upto.rfind(':').is_some_and(|i| {
        let between = upto[i + 1..].trim();
        between.is_empty() || between == "Some("
    })
}

/// The field whose value starts near `pos`: the identifier before the last
/// `:` on the way there (a wrong type then names its field).
fn field_before(src: &str, pos: (usize, usize)) -> Option<String> {
    let line = src.lines().nth(pos.0.checked_sub(1)?)?;
    let upto: String = line.chars().take(pos.1.saturating_sub(1)).collect();
    // The last `:` outside a string ("A1:B5" is a hex area, not a field).
    let mut in_string = false;
    let mut escaped = false;
    let mut colon = None;
    for (i, c) in upto.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            ':' if !in_string => colon = Some(i),
            _ => {}
        }
    }
    let colon = colon?;
    let ident: String = upto[..colon]
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (!ident.is_empty() && !ident.starts_with(|c: char| c.is_ascii_digit())).then_some(ident)
}

fn describe_ron_error(code: &ron::Error) -> String {
    match code {
        ron::Error::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => {
            let what = outer.as_deref().map(kind_words).unwrap_or("value".into());
            let mut s = format!("unknown {what} `\"{found}\"`");
            match did_you_mean(found, expected.iter().copied()) {
                Some(best) => s.push_str(&format!(" \u{2014} did you mean `{best}`?")),
                None => s.push_str(&format!("; expected one of {}", expected.join(", "))),
            }
            s
        }
        ron::Error::NoSuchStructField {
            expected,
            found,
            outer,
        } => {
            let what = outer.as_deref().map(kind_words).unwrap_or("struct".into());
            let mut s = format!("unknown field `{found}` in {what}");
            match did_you_mean(found, expected.iter().copied()) {
                Some(best) => s.push_str(&format!(" \u{2014} did you mean `{best}`?")),
                None => s.push_str(&format!("; expected one of {}", expected.join(", "))),
            }
            s
        }
        ron::Error::MissingStructField { field, outer } => {
            let what = outer.as_deref().map(kind_words).unwrap_or("struct".into());
            format!("missing field `{field}` in {what}")
        }
        ron::Error::DuplicateStructField { field, outer } => {
            let what = outer.as_deref().map(kind_words).unwrap_or("struct".into());
            format!("field `{field}` given twice in {what}")
        }
        ron::Error::Eof => "file ends too early (truncated?)".to_string(),
        other => other.to_string(),
    }
}

/// `FortificationKind` → "fortification kind".
fn kind_words(type_name: &str) -> String {
    let mut out = String::new();
    for (i, ch) in type_name.chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            out.push(' ');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

/// The one candidate close to what was written: within a third of its
/// letters (one at least, never all of them), or a longer name it begins;
/// none when two are as close (the caller lists the legal names instead).
pub fn did_you_mean<'a>(found: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let n = found.chars().count();
    let limit = (n / 3).max(1);
    let mut close: Vec<(usize, &str)> = candidates
        .filter_map(|c| {
            let d = edit_distance(found, c);
            // Near enough to be a slip, and not every letter changed ("up"
            // is no slip for "e"); or the start of a longer name ("pa").
            let slip = d <= limit && d < n;
            let start = n >= 2 && c.len() > found.len() && c.starts_with(found);
            (slip || start).then_some((if start { 0 } else { d }, c))
        })
        .collect();
    close.sort_by_key(|(d, _)| *d);
    match close.as_slice() {
        // Two names as near as each other: neither is suggested.
        [(a, _), (b, _), ..] if a == b => None,
        [(_, best), ..] => Some(best),
        [] => None,
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Finds where a quoted value appears in the source, for semantic problems the
/// parser cannot place. `field` narrows the search to `field: "value"`;
/// `nth` picks a later occurrence (0 = first).
pub fn locate(src: &str, field: Option<&str>, value: &str, nth: usize) -> (usize, usize) {
    let needle = format!("\"{value}\"");
    let mut seen = 0;
    let mut start = 0;
    while let Some(off) = src[start..].find(&needle) {
        let at = start + off;
        let before = src[..at].trim_end();
        let matches = match field {
            Some(f) => before
                .strip_suffix(':')
                .map(|b| b.trim_end().ends_with(f))
                .unwrap_or(false),
            None => true,
        };
        if matches {
            if seen == nth {
                return position_of(src, at);
            }
            seen += 1;
        }
        start = at + needle.len();
    }
    (1, 1)
}

/// The 1-based line and column of a byte offset.
pub fn position_of(src: &str, offset: usize) -> (usize, usize) {
    let before = &src[..offset.min(src.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The position of the first `field:` in the source.
fn locate_field(src: &str, field: &str) -> (usize, usize) {
    let needle = format!("{field}:");
    src.find(&needle)
        .map_or((1, 1), |off| position_of(src, off))
}

/// The position of the `nth` `needle` after the first `anchor`.
fn locate_after(src: &str, anchor: &str, needle: &str, nth: usize) -> (usize, usize) {
    let Some(start) = src.find(anchor) else {
        return (1, 1);
    };
    src[start..].match_indices(needle).nth(nth).map_or_else(
        || position_of(src, start),
        |(off, _)| position_of(src, start + off),
    )
}

/// Reads and checks a scenario. Returns the scenario when it parsed, and every
/// problem found (empty when the scenario is good).
pub fn check_scenario(
    bytes: &[u8],
    roster: &Roster,
    aid: &PlayerAid,
) -> (Option<Scenario>, Vec<Problem>) {
    let src = match text_of(bytes) {
        Ok(s) => s,
        Err(p) => return (None, vec![p]),
    };
    let scenario: Scenario = match parse_ron(src) {
        Ok(s) => s,
        Err(p) => return (None, vec![p]),
    };
    let problems = Checker {
        src,
        sc: &scenario,
        roster,
        aid,
        problems: Vec::new(),
    }
    .run();
    (Some(scenario), problems)
}

struct Checker<'a> {
    src: &'a str,
    sc: &'a Scenario,
    roster: &'a Roster,
    aid: &'a PlayerAid,
    problems: Vec<Problem>,
}

impl Checker<'_> {
    fn push(&mut self, pos: (usize, usize), msg: String) {
        self.problems.push(Problem::at(pos, msg));
    }

    fn map_range(&self) -> String {
        let last = Coord::new(
            self.sc.map.columns.saturating_sub(1),
            self.sc.map.rows.saturating_sub(1),
        );
        format!("A1\u{2013}{}", last.label())
    }

    /// Expands one hex list entry, reporting a bad label as `what`.
    fn hexes(&mut self, field: Option<&str>, entry: &str, what: &str) -> Vec<Coord> {
        match expand(entry, self.sc.map.columns, self.sc.map.rows) {
            Ok(v) => v,
            Err(e) => {
                let pos = locate(self.src, field, entry, 0);
                let msg = match e {
                    LabelError::Malformed => format!(
                        "{what} `\"{entry}\"` is not a hex label (a column letter and a row number, like \"C6\")"
                    ),
                    LabelError::OffMap { .. } => format!(
                        "{what} off the map at `{entry}` (the map is {})",
                        self.map_range()
                    ),
                };
                self.push(pos, msg);
                Vec::new()
            }
        }
    }

    /// The terrain of a hex as the map gives it: its last terrain area, or
    /// the base terrain (labels already checked by the map's own checks).
    fn terrain_at(&self, c: Coord) -> Terrain {
        let map = &self.sc.map;
        map.terrain
            .iter()
            .rev()
            .find(|area| {
                area.hexes
                    .iter()
                    .any(|h| expand(h, map.columns, map.rows).is_ok_and(|v| v.contains(&c)))
            })
            .map_or(map.base_terrain, |area| area.terrain)
    }

    fn one_hex(&mut self, field: Option<&str>, entry: &str, what: &str) -> Option<Coord> {
        if entry.contains(':') {
            let pos = locate(self.src, field, entry, 0);
            self.push(
                pos,
                format!("{what} must be one hex, not the area `{entry}`"),
            );
            return None;
        }
        self.hexes(field, entry, what).into_iter().next()
    }

    fn run(mut self) -> Vec<Problem> {
        let sc = self.sc;
        if sc.map.columns == 0 || sc.map.columns > 26 || sc.map.rows == 0 || sc.map.rows > 99 {
            let pos = locate_field(self.src, "columns");
            self.push(
                pos,
                format!(
                    "the map must have 1\u{2013}26 columns and 1\u{2013}99 rows, not {}\u{00d7}{}",
                    sc.map.columns, sc.map.rows
                ),
            );
            return self.problems;
        }
        if sc.turns == 0 {
            let pos = locate_field(self.src, "turns");
            self.push(pos, "a scenario needs at least one turn (R 1.0)".into());
        }
        self.check_sides();
        if sc.theater == Theater::Pacific && !sc.special_rules.combat_events {
            let pos = if self.src.contains("combat_events:") {
                locate_field(self.src, "combat_events")
            } else {
                locate_field(self.src, "theater")
            };
            self.push(
                pos,
                "Combat Events are required in the Pacific (R 17.0): set `combat_events: true` in `special_rules`".into(),
            );
        }
        // The Monsoon needs its Storm Check range (R 55.2).
        let monsoon = &sc.special_rules;
        let storm_problem = match monsoon.monsoon_storm {
            None if monsoon.monsoon => Some(
                "the Monsoon needs its Storm Check: set `monsoon_storm: Some((from: 1, to: 2))` in `special_rules` (R 55.2)",
            ),
            Some(s) if s.from < 1 || s.from > s.to || s.to > 10 => {
                Some("`monsoon_storm` needs 1 <= from <= to <= 10, a d10 range (R 55.2)")
            }
            _ => None,
        };
        if let Some(why) = storm_problem {
            let pos = if self.src.contains("monsoon_storm:") {
                locate_field(self.src, "monsoon_storm")
            } else {
                locate_field(self.src, "monsoon")
            };
            self.push(pos, why.into());
        }
        // At Night units see at least their neighbours (R 50.0).
        if sc
            .special_rules
            .night
            .is_some_and(|n| n.visibility_range == 0)
        {
            self.push(
                locate_field(self.src, "visibility_range"),
                "`visibility_range` must be at least 1 hex at Night (R 50.0)".into(),
            );
        }
        self.check_banzai();
        let elevation = self.check_map();
        self.check_units(&elevation);
        self.check_victory();
        self.problems
    }

    /// The Banzai windows (R 59.6): each a range `from <= to` within the
    /// scenario's turns, none overlapping another. A window of `banzai` is
    /// located by its `from:`, a turn of `banzai_turns` by that field.
    fn check_banzai(&mut self) {
        let r = &self.sc.special_rules;
        let mut all: Vec<(BanzaiWindow, (usize, usize))> = r
            .banzai
            .iter()
            .enumerate()
            .map(|(i, w)| (*w, locate_after(self.src, "banzai:", "from:", i)))
            .collect();
        let old = locate_field(self.src, "banzai_turns");
        all.extend(
            r.banzai_turns
                .iter()
                .map(|&t| (BanzaiWindow { from: t, to: t }, old)),
        );
        let turns = self.sc.turns;
        for (w, pos) in &all {
            if w.from < 1 || w.from > w.to {
                self.push(
                    *pos,
                    format!(
                        "Banzai window (from: {}, to: {}) needs 1 <= from <= to (R 59.6)",
                        w.from, w.to
                    ),
                );
            } else if w.to > turns {
                self.push(
                    *pos,
                    format!(
                        "Banzai window (from: {}, to: {}) ends after the scenario's last turn, {turns} (R 59.6)",
                        w.from, w.to
                    ),
                );
            }
        }
        all.retain(|(w, _)| w.from <= w.to);
        for (i, (a, _)) in all.iter().enumerate() {
            if let Some((b, pos)) = all[i + 1..]
                .iter()
                .find(|(b, _)| b.from <= a.to && a.from <= b.to)
            {
                self.push(
                    *pos,
                    format!(
                        "Banzai window (from: {}, to: {}) overlaps (from: {}, to: {}): one charge per window, each turn in one window at most (R 59.6)",
                        b.from, b.to, a.from, a.to
                    ),
                );
            }
        }
    }

    fn check_sides(&mut self) {
        let sc = self.sc;
        for side in SideId::BOTH {
            let n = sc.sides.iter().filter(|c| c.side == side).count();
            if n != 1 {
                let pos = locate_field(self.src, "sides");
                self.push(
                    pos,
                    format!(
                        "the card needs exactly one `{}` side, found {n}",
                        side_word(side)
                    ),
                );
            }
        }
        for card in &sc.sides {
            if card.ops_range.min == 0 || card.ops_range.min > card.ops_range.max {
                let pos = locate_field(self.src, "ops_range");
                self.push(
                    pos,
                    format!(
                        "Ops Range {}\u{2013}{} for the {} is not a range of at least one unit (R 4.1)",
                        card.ops_range.min,
                        card.ops_range.max,
                        side_word(card.side)
                    ),
                );
            }
            for area in &card.setup_area {
                self.hexes(None, area, "setup area");
            }
            self.check_companies(card);
        }
    }

    /// R 3.1: each company named once on its card; when a card gives
    /// Company CPs, every unit of that side names a company of the card or
    /// none (a unit of no company may use any CP).
    fn check_companies(&mut self, card: &super::schema::SideCard) {
        let sc = self.sc;
        let mut seen: HashSet<&str> = HashSet::new();
        for co in &card.companies {
            if !seen.insert(co.company.as_str()) {
                let pos = locate(self.src, Some("company"), &co.company, 1);
                self.push(
                    pos,
                    format!(
                        "company `{}` is given CPs twice on the {} card (R 3.1)",
                        co.company,
                        side_word(card.side)
                    ),
                );
            }
        }
        if card.companies.is_empty() {
            return;
        }
        let setup = sc
            .setup
            .iter()
            .filter(|p| p.side == card.side)
            .map(|p| (&p.id, &p.company));
        let reinforcements = sc
            .reinforcements
            .iter()
            .filter(|r| r.side == card.side)
            .flat_map(|r| r.units.iter().map(|u| (&u.id, &u.company)));
        let mut problems = Vec::new();
        for (id, company) in setup.chain(reinforcements) {
            if let Some(c) = company
                && !seen.contains(c.as_str())
            {
                problems.push((locate(self.src, Some("id"), id, 0), id.clone(), c.clone()));
            }
        }
        for (pos, id, c) in problems {
            self.push(
                pos,
                format!(
                    "unit {id} is in company `{c}`, which the {} card gives no CPs; companies: {} (R 3.1)",
                    side_word(card.side),
                    card.companies
                        .iter()
                        .map(|co| co.company.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }

    /// Checks the map and returns the level of every hex.
    fn check_map(&mut self) -> HashMap<Coord, u8> {
        let sc = self.sc;
        let mut terrain = HashMap::new();
        for area in &sc.map.terrain {
            for h in &area.hexes {
                for c in self.hexes(None, h, "terrain hex") {
                    terrain.insert(c, area.terrain);
                }
            }
        }
        let mut level = HashMap::new();
        for area in &sc.map.elevation {
            for h in &area.hexes {
                for c in self.hexes(None, h, "elevation hex") {
                    level.insert(c, area.level);
                }
            }
        }
        for run in &sc.map.hexsides {
            self.one_hex(Some("hex"), &run.hex, "hexside");
        }
        let mut on_road: HashSet<Coord> = HashSet::new();
        for road in &sc.map.roads {
            let mut prev: Option<(Coord, &str)> = None;
            for h in &road.hexes {
                let Some(c) = self.one_hex(None, h, "road hex") else {
                    prev = None;
                    continue;
                };
                if road.kind == RoadKind::Road {
                    on_road.insert(c);
                }
                if let Some((p, plabel)) = prev
                    && p.distance(c) != 1
                {
                    let pos = locate(self.src, None, h, 0);
                    self.push(
                        pos,
                        format!("road runs from {plabel} to {h}, which are not adjacent"),
                    );
                }
                prev = Some((c, h));
            }
        }
        let mut fort_at: HashMap<(Coord, bool), FortificationKind> = HashMap::new();
        for f in &sc.map.fortifications {
            let Some(c) = self.one_hex(Some("at"), &f.at, "fortification") else {
                continue;
            };
            let pos = locate(self.src, Some("at"), &f.at, 0);
            let t = terrain.get(&c).copied().unwrap_or(sc.map.base_terrain);
            if t.forbids_fortification() && f.kind != FortificationKind::Fortified {
                self.push(
                    pos,
                    format!(
                        "a {} may not be placed in {} at {} (R 43.0)",
                        f.kind.name(),
                        t.name(),
                        f.at
                    ),
                );
            }
            // R 43.5: "Fortified counters may be placed only in Building
            // hexes to represent Fortified Positions."
            if f.kind == FortificationKind::Fortified
                && !matches!(t, Terrain::WoodenBuilding | Terrain::StoneBuilding)
            {
                self.push(
                    pos,
                    format!(
                        "a Fortified Position may be placed only in a Building hex (R 43.5): {} is {}",
                        f.at,
                        t.name()
                    ),
                );
            }
            // R 43.7: "A Roadblock must be placed in an Open Ground or Road
            // hex with its directional arrow pointed at the hexside to be
            // blocked."
            if f.kind == FortificationKind::Roadblock {
                if !matches!(t, Terrain::Open | Terrain::Road) && !on_road.contains(&c) {
                    self.push(
                        pos,
                        format!(
                            "a Roadblock must be placed in an Open Ground or Road hex (R 43.7): {} is {}",
                            f.at,
                            t.name()
                        ),
                    );
                }
                if f.facing.is_none() {
                    self.push(
                        pos,
                        format!(
                            "the Roadblock at {} needs a `facing`: the hexside it blocks (R 43.7)",
                            f.at
                        ),
                    );
                }
            }
            // R 43.6: Wire "can't be concealed"; R 43.0: "Caves have Fire
            // Lanes, but not Fortification Concealment."
            if f.concealed {
                let rule = match f.kind {
                    FortificationKind::Wire => Some("R 43.6"),
                    k if k.is_cave() => Some("R 43.0"),
                    _ => None,
                };
                if let Some(rule) = rule {
                    self.push(
                        pos,
                        format!(
                            "the {} at {} may not be set up Concealed ({rule})",
                            f.kind.name(),
                            f.at
                        ),
                    );
                }
            }
            if let Some(prev) = fort_at.insert((c, f.kind.is_cave()), f.kind) {
                self.push(
                    pos,
                    format!(
                        "{} already has a {}: only one Fortification per location (R 43.0)",
                        f.at,
                        prev.name()
                    ),
                );
            }
            if f.kind.is_cave() {
                self.check_cave(c, f.facing, &f.at, pos, &level);
            }
        }
        level
    }

    /// R 43.4: a Cave is set up in a Hill hex facing lower ground: both hexes
    /// in front of it are at a lower elevation.
    fn check_cave(
        &mut self,
        c: Coord,
        facing: Option<super::schema::Spine>,
        label: &str,
        pos: (usize, usize),
        level: &HashMap<Coord, u8>,
    ) {
        let here = level.get(&c).copied().unwrap_or(0);
        let Some(spine) = facing else {
            self.push(
                pos,
                format!("the cave at {label} needs a `facing` toward lower ground (R 43.4)"),
            );
            return;
        };
        if here == 0 {
            self.push(
                pos,
                format!(
                    "a cave must be on a hill facing lower ground (R 43.4): {label} is level 0"
                ),
            );
            return;
        }
        for side in spine.sides() {
            match c.neighbour(side, self.sc.map.columns, self.sc.map.rows) {
                None => self.push(
                    pos,
                    format!(
                        "a cave must be on a hill facing lower ground (R 43.4): the cave at {label} faces off the map"
                    ),
                ),
                Some(front) => {
                    let l = level.get(&front).copied().unwrap_or(0);
                    if l >= here {
                        self.push(
                            pos,
                            format!(
                                "a cave must be on a hill facing lower ground (R 43.4): front hex {} is level {l}, the cave's hex {label} is level {here}",
                                front.label()
                            ),
                        );
                    }
                }
            }
        }
    }

    fn check_units(&mut self, _level: &HashMap<Coord, u8>) {
        let sc = self.sc;
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut stacks: BTreeMap<(Coord, SideId, bool), Vec<&str>> = BTreeMap::new();
        let mut decoys = [0u8; 2];
        let mut guns: BTreeMap<Coord, Vec<&str>> = BTreeMap::new();
        let caves: HashSet<Coord> = sc
            .map
            .fortifications
            .iter()
            .filter(|f| f.kind.is_cave())
            .filter_map(|f| Coord::parse(&f.at, sc.map.columns, sc.map.rows).ok())
            .collect();
        let all_ids = sc.setup.iter().map(|p| &p.id).chain(
            sc.reinforcements
                .iter()
                .flat_map(|r| r.units.iter().map(|u| &u.id)),
        );
        for id in all_ids {
            let n = ids.entry(id.as_str()).or_insert(0);
            *n += 1;
            if *n == 2 {
                let pos = locate(self.src, Some("id"), id, 1);
                self.push(pos, format!("two units with the id `{id}`"));
            }
        }
        for p in &sc.setup {
            let nationality = self.card_nationality(p.side);
            let ut = self.unit_type(&p.unit, nationality);
            let Some(c) = self.one_hex(Some("at"), &p.at, &format!("unit {} placed", p.id)) else {
                continue;
            };
            if ut == Some(UnitClass::Decoy) {
                decoys[p.side.index()] += 1;
            }
            if ut == Some(UnitClass::Gun) {
                guns.entry(c).or_default().push(&p.id);
                // R 52.0: "… Guns … cannot setup in or enter a swamp hex."
                let t = self.terrain_at(c);
                if let Some(rule) = self
                    .aid
                    .terrain_row(t.key())
                    .and_then(|r| r.no_gun.as_ref())
                {
                    let pos = locate(self.src, Some("at"), &p.at, 0);
                    self.push(
                        pos,
                        format!(
                            "unit {} is a Gun: Guns cannot set up in a {} hex ({rule}): {} is {}",
                            p.id,
                            t.name(),
                            p.at,
                            t.name()
                        ),
                    );
                }
                // A Gun's placement is its facing (R 20.4).
                if p.facing.is_none() {
                    let pos = locate(self.src, Some("id"), &p.id, 0);
                    self.push(
                        pos,
                        format!(
                            "unit {} is a Gun and needs a `facing`: its arc points at a hexspine (R 20.4)",
                            p.id
                        ),
                    );
                }
            }
            if sc.special_rules.facing_required && p.facing.is_none() {
                let pos = locate(self.src, Some("id"), &p.id, 0);
                self.push(
                    pos,
                    format!(
                        "unit {} needs a `facing`: this scenario requires facing (R 2.2)",
                        p.id
                    ),
                );
            }
            if p.in_cave {
                let pos = locate(self.src, Some("id"), &p.id, 0);
                if !caves.contains(&c) {
                    self.push(
                        pos,
                        format!("unit {} is `in_cave` but {} has no cave", p.id, p.at),
                    );
                } else if nationality != Some(Nationality::Japanese) {
                    self.push(
                        pos,
                        format!(
                            "unit {}: non-Japanese units can't enter Caves (R 43.4)",
                            p.id
                        ),
                    );
                }
            }
            if !self.in_setup_area(p.side, c) {
                let pos = locate(self.src, Some("at"), &p.at, 0);
                self.push(
                    pos,
                    format!(
                        "unit {} at {} is outside the {} setup area",
                        p.id,
                        p.at,
                        side_word(p.side)
                    ),
                );
            }
            stacks
                .entry((c, p.side, p.in_cave))
                .or_default()
                .push(&p.id);
        }
        // No more than one unmounted Gun in a hex (R 20.10).
        let gun_limit = usize::from(self.aid.constants.guns_per_hex);
        for (c, ids) in guns {
            if ids.len() > gun_limit {
                let pos = locate(self.src, Some("id"), ids[gun_limit], 0);
                self.push(
                    pos,
                    format!(
                        "two Guns in {}: {} \u{2014} no more than one Gun in a hex (R 20.10)",
                        c.label(),
                        ids.join(", ")
                    ),
                );
            }
        }
        let limit = self.aid.constants.stacking_per_side as usize;
        for ((c, side, cave), units) in stacks {
            let cap = if cave { 1 } else { limit };
            if units.len() > cap {
                let pos = locate(self.src, Some("id"), units[cap], 0);
                let msg = if cave {
                    format!(
                        "over-stacked cave at {}: {} \u{2014} a Cave holds one unit (R 43.4)",
                        c.label(),
                        units.join(", ")
                    )
                } else {
                    format!(
                        "over-stacked hex at setup: {} has {} {} units ({}) (R 2.0: two Squads/WTs per side)",
                        c.label(),
                        units.len(),
                        side_word(side),
                        units.join(", ")
                    )
                };
                self.push(pos, msg);
            }
        }
        for card in &sc.sides {
            let have = decoys[card.side.index()];
            if have != card.decoys {
                let pos = locate_field(self.src, "decoys");
                self.push(
                    pos,
                    format!(
                        "the {} card gives {} Decoys but the setup places {have} (R 15.0)",
                        side_word(card.side),
                        card.decoys
                    ),
                );
            }
        }
        for (i, r) in sc.reinforcements.iter().enumerate() {
            if r.turn == 0 || r.turn > sc.turns {
                let pos = locate_after(self.src, "reinforcements:", "turn:", i);
                self.push(
                    pos,
                    format!(
                        "a reinforcement arrives on turn {}, but the scenario has {} turns",
                        r.turn, sc.turns
                    ),
                );
            }
            let nationality = self.card_nationality(r.side);
            for u in &r.units {
                self.unit_type(&u.unit, nationality);
            }
            if let Entry::Hexes(hexes) = &r.entry {
                for h in hexes {
                    self.hexes(None, h, "reinforcement hex");
                }
            }
        }
    }

    fn card_nationality(&self, side: SideId) -> Option<Nationality> {
        self.sc
            .sides
            .iter()
            .find(|c| c.side == side)
            .map(|c| c.nationality)
    }

    /// Looks a unit type up, reporting unknown types and wrong nationalities.
    fn unit_type(&mut self, id: &str, nationality: Option<Nationality>) -> Option<UnitClass> {
        let roster = self.roster;
        match roster.get(id) {
            Some(ut) => {
                if let Some(n) = nationality
                    && n != ut.nationality
                {
                    let pos = locate(self.src, Some("unit"), id, 0);
                    self.push(
                        pos,
                        format!(
                            "unit type `{id}` is {}, but its side is {}",
                            ut.nationality.name(),
                            n.name()
                        ),
                    );
                }
                Some(ut.class)
            }
            None => {
                let pos = locate(self.src, Some("unit"), id, 0);
                let mut msg = format!("unknown unit type `\"{id}\"`");
                if let Some(best) = did_you_mean(id, roster.units.iter().map(|u| u.id.as_str())) {
                    msg.push_str(&format!(" \u{2014} did you mean `{best}`?"));
                }
                self.push(pos, msg);
                None
            }
        }
    }

    fn in_setup_area(&self, side: SideId, c: Coord) -> bool {
        let sc = self.sc;
        let Some(card) = sc.sides.iter().find(|s| s.side == side) else {
            return true;
        };
        card.setup_area.iter().any(|a| {
            expand(a, sc.map.columns, sc.map.rows)
                .map(|v| v.contains(&c))
                .unwrap_or(true)
        })
    }

    fn check_victory(&mut self) {
        let sc = self.sc;
        if sc.victory.is_empty() {
            let pos = locate_field(self.src, "victory");
            self.push(
                pos,
                "the card needs at least one victory condition (R 18.0)".into(),
            );
        }
        for v in &sc.victory {
            if let VictoryCondition::ControlHexes {
                hexes, at_least, ..
            } = v
            {
                let mut n = 0;
                for h in hexes {
                    n += self.hexes(None, h, "victory hex").len();
                }
                if let Some(k) = at_least
                    && usize::from(*k) > n
                {
                    let pos = locate_field(self.src, "at_least");
                    self.push(
                        pos,
                        format!("victory needs {k} hexes controlled but lists only {n}"),
                    );
                }
            }
        }
    }
}

fn side_word(side: SideId) -> &'static str {
    match side {
        SideId::Allies => "allies",
        SideId::Axis => "axis",
    }
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    const SPINES: [&str; 6] = ["e", "ne", "nw", "w", "sw", "se"];

    /// A slip is suggested; a name that shares nothing, or two names as
    /// near as each other, are not (the caller lists the legal names).
    #[test]
    fn only_close_names_are_suggested() {
        let orders = ["mark_used", "mark_op_fire", "pass", "place", "move"];
        assert_eq!(
            did_you_mean("mark_usd", orders.into_iter()),
            Some("mark_used")
        );
        assert_eq!(did_you_mean("pa", orders.into_iter()), Some("pass"));
        assert_eq!(
            did_you_mean("jungel", ["jungle", "swamp"].into_iter()),
            Some("jungle")
        );
        assert_eq!(did_you_mean("s", SPINES.into_iter()), None);
        assert_eq!(did_you_mean("up", SPINES.into_iter()), None);
        assert_eq!(did_you_mean("nn", SPINES.into_iter()), None);
        assert_eq!(did_you_mean("nee", SPINES.into_iter()), Some("ne"));
    }
}
