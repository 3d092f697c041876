//! A view per side — R 15.0 (Concealment and Decoys), R 59.2: what one side
//! may know of the other's units as the events of an order unfold.
//!
//! The driver's events are the referee's: they name every unit by its id and
//! say who could have fired. A side's copy names an enemy unit under a
//! Conceal counter by the counter it sees — `?E5`, its hex, or `?E5.2` for
//! the second counter from the bottom of a hex that holds several — never by
//! its id (Decoy ids such as `GD1` would give a Decoy away), and leaves out
//! the other side's questions: an Op Fire window, its pass and any decision
//! the other side is asked. A Decoy in the same place opens no window, so
//! "a window opened and was passed" would tell a real unit from a Decoy. A
//! unit that loses its counter is named by both (`?E5 (G4)`) as it is
//! revealed, and by its id from then on.

use bevy::prelude::*;

use crate::map::UnitId;
use crate::scenario::schema::SideId;
use crate::world::{Concealed, Location, StackOrder, Unit};

use super::events::GameEvent;

/// What a side cannot see of the enemy: each enemy unit under a Conceal
/// counter, with the label the side knows it by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fog {
    pub side: SideId,
    hidden: Vec<(UnitId, String)>,
}

impl Fog {
    /// The fog of `side` in `world` now.
    pub fn of(world: &mut World, side: SideId) -> Fog {
        let mut q = world.query::<(&Unit, &Location, Option<&StackOrder>, Has<Concealed>)>();
        // (hex label, in Cave, stack place, id) of each Concealed enemy unit.
        let mut counters: Vec<(String, bool, u8, UnitId)> = q
            .iter(world)
            .filter(|(u, _, _, concealed)| u.side != side && *concealed)
            .map(|(u, l, s, _)| {
                (
                    l.coord.label(),
                    l.in_cave,
                    s.map_or(0, |s| s.0),
                    u.id.clone(),
                )
            })
            .collect();
        // By hex, then bottom first as stacked on the table; the id only
        // breaks a tie of the stack order, which the table never has.
        counters.sort();
        let mut hidden = Vec::with_capacity(counters.len());
        for (i, (hex, cave, _, id)) in counters.iter().enumerate() {
            let here = |c: &(String, bool, u8, UnitId)| c.0 == *hex && c.1 == *cave;
            let place = counters[..i].iter().filter(|c| here(c)).count() + 1;
            let cave = if *cave { " cave" } else { "" };
            let label = if counters.iter().filter(|c| here(c)).count() > 1 {
                format!("?{hex}{cave}.{place}")
            } else {
                format!("?{hex}{cave}")
            };
            hidden.push((id.clone(), label));
        }
        Fog { side, hidden }
    }

    /// The label of a hidden enemy unit.
    pub fn label(&self, id: &str) -> Option<&str> {
        self.hidden
            .iter()
            .find(|(u, _)| u.as_str() == id)
            .map(|(_, l)| l.as_str())
    }

    /// The side's copy of `events`, as log lines. `world` is the world after
    /// them: a unit that takes a Conceal counter is named by its hex there
    /// from then on.
    pub fn lines(&mut self, world: &mut World, events: &[GameEvent]) -> Vec<String> {
        self.copy(world, events)
            .into_iter()
            .map(|(_, l)| l)
            .collect()
    }

    /// [`Fog::lines`], each with the index of its event in `events`.
    pub fn copy(&mut self, world: &mut World, events: &[GameEvent]) -> Vec<(usize, String)> {
        let mut out = Vec::with_capacity(events.len());
        for (i, e) in events.iter().enumerate() {
            if self.secret(e) {
                continue;
            }
            let line = match e {
                GameEvent::ConcealmentLost { unit, .. } => {
                    let line = match self.label(unit) {
                        Some(label) => {
                            let both = format!("{label} ({unit})");
                            replace_word(&e.line(), unit, &both)
                        }
                        None => e.line(),
                    };
                    self.hidden.retain(|(u, _)| u != unit);
                    self.hide_all(line)
                }
                GameEvent::DecoyRemoved { unit } => {
                    let line = self.hide_all(e.line());
                    self.hidden.retain(|(u, _)| u != unit);
                    line
                }
                GameEvent::ConcealmentRegained { unit, .. } => {
                    let line = self.hide_all(e.line());
                    let enemy = enemy_of(world, unit, self.side);
                    if enemy && self.label(unit).is_none() {
                        let fresh = Fog::of(world, self.side);
                        if let Some(label) = fresh.label(unit) {
                            self.hidden.push((unit.clone(), label.to_string()));
                        }
                    }
                    line
                }
                _ => self.hide_in(e, e.line()),
            };
            out.push((i, line));
        }
        out
    }

    fn secret(&self, e: &GameEvent) -> bool {
        secret_to(self.side, e)
    }

    /// `e`'s line with every hidden unit's id replaced by its label, except
    /// an id that the event names only as a hex: a unit `G5` leaves the hex
    /// G5 of "moves G4 → G5" as it is.
    fn hide_in(&self, e: &GameEvent, mut line: String) -> String {
        let fields = format!("{e:?}");
        for (id, label) in &self.hidden {
            if !only_as_hex(&fields, id) {
                line = replace_word(&line, id, label);
            }
        }
        line
    }

    /// The line with every hidden unit's id replaced by its label.
    fn hide_all(&self, mut line: String) -> String {
        for (id, label) in &self.hidden {
            line = replace_word(&line, id, label);
        }
        line
    }
}

/// Whether the event is the other side's question or its answer, kept from
/// `side` (a Decoy would have raised none): an Op Fire window, its pass, a
/// decision it is asked.
pub fn secret_to(side: SideId, e: &GameEvent) -> bool {
    match e {
        GameEvent::OpFireWindow { side: s, .. }
        | GameEvent::OpFireWindowAtStart { side: s, .. }
        | GameEvent::OpFirePassed { side: s, .. }
        | GameEvent::DecisionAwaited { side: s, .. } => *s != side,
        _ => false,
    }
}

/// Whether every mention of `word` in an event's fields (as `{:?}` prints
/// them, field names included) is a hex: the whole value of a field that
/// holds hex labels (`at`, `to`, `from`, `into`, `path`, and `target` but in
/// a `FireResult`, where it is a unit). Any other mention — a unit field, or
/// the word inside a longer text — makes it a unit's.
fn only_as_hex(fields: &str, word: &str) -> bool {
    let quoted = format!("\"{word}\"");
    let unit_target = fields.starts_with("FireResult");
    let mut as_hex = 0;
    for (i, _) in fields.match_indices(&quoted) {
        let hex = match field_before(&fields[..i]) {
            "at" | "to" | "from" | "into" | "path" => true,
            "target" => !unit_target,
            _ => false,
        };
        if !hex {
            return false;
        }
        as_hex += 1;
    }
    as_hex > 0 && as_hex == count_words(fields, word)
}

/// The name of the field whose value `before` ends in (`path: ["G4", ` →
/// `path`).
fn field_before(before: &str) -> &str {
    let Some(p) = before.rfind(": ") else {
        return "";
    };
    let head = &before[..p];
    let start = head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    &head[start..]
}

/// Whole-word mentions of `word` in `text`.
fn count_words(text: &str, word: &str) -> usize {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            !before.is_some_and(part) && !after.is_some_and(part)
        })
        .count()
}

/// Whether the unit `id` belongs to the other side than `side`.
fn enemy_of(world: &mut World, id: &str, side: SideId) -> bool {
    let mut q = world.query::<&Unit>();
    q.iter(world).any(|u| u.id == id && u.side != side)
}

/// `text` with every whole-word `word` (not part of a longer name such as
/// `G10` for `G1`) replaced by `with`.
pub fn replace_word(text: &str, word: &str, with: &str) -> String {
    if word.is_empty() {
        return text.to_string();
    }
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + word.len()..].chars().next();
        out.push_str(&rest[..i]);
        if before.is_some_and(part) || after.is_some_and(part) {
            out.push_str(word);
        } else {
            out.push_str(with);
        }
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit whose id reads like a hex (`G5`) is hidden where the event
    /// names it as a unit, never where it names the hex G5.
    #[test]
    fn a_hex_that_reads_like_a_hidden_unit_stays_a_hex() {
        let moved = r#"Moved { unit: "A4", from: "G4", to: "G5", cost: "1", left: "0" }"#;
        assert!(only_as_hex(moved, "G5"));
        let fire = r#"FireRoll { unit: "G4", target: "G5", roll: 2 }"#;
        assert!(only_as_hex(fire, "G5"));
        assert!(!only_as_hex(fire, "G4"));
        let result =
            r#"FireResult { target: "G5", arithmetic: "x", fp: Fp(3), roll: 2, outcome: Pass }"#;
        assert!(!only_as_hex(result, "G5"));
        let window = r#"OpFireWindow { side: Axis, mover: "A4", at: "G5", eligible: ["G5"] }"#;
        assert!(!only_as_hex(window, "G5"));
        let told = r#"Note { why: "G5 fires", at: "G5" }"#;
        assert!(!only_as_hex(told, "G5"));
        assert!(!only_as_hex(moved, "H8"));
    }

    /// Whole names only: `G1` is not the start of `G10` nor of `GD1`.
    #[test]
    fn only_whole_names_are_replaced() {
        assert_eq!(
            replace_word("G1 fires at G10 and GD1; G1.", "G1", "?E5"),
            "?E5 fires at G10 and GD1; ?E5."
        );
        assert_eq!(replace_word("GD1 moves", "GD1", "?C3"), "?C3 moves");
        assert_eq!(replace_word("xG1 G1x G1", "G1", "?"), "xG1 G1x ?");
    }
}
