//! The end of a scenario — R 18.0 (hex control; elimination and exit
//! conditions; surviving Decoys never count), R 16.1 (Area of Control, where
//! reinforcements may set up). The phase flow is `phases/end.rs`.

use crate::rules::rout::edge_distance;
use crate::scenario::Coord;
use crate::scenario::schema::{MapEdge, SideId, VictoryCondition};

/// Which side controls each hex (R 18.0): the last to have a unit in it, or
/// to pass through it, with no enemy unit present. Hexes never entered and
/// outside the setup areas are nobody's. On the engine's small hasher: it
/// is looked up after every order; nothing reads it in the map's order
/// (the journal sorts it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HexControl(pub crate::map::fast_hash::FxHashMap<Coord, SideId>);

impl HexControl {
    pub fn controller(&self, c: Coord) -> Option<SideId> {
        self.0.get(&c).copied()
    }

    /// A unit of `side` is in (or passes through) `c` with no enemy unit
    /// present: `side` controls it.
    pub fn occupy(&mut self, c: Coord, side: SideId) {
        self.0.insert(c, side);
    }
}

/// What the game counts at its end, per side (index by `SideId::index`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub control: HexControl,
    /// Squads/WTs of each side eliminated (Decoys never count).
    pub eliminated: [u16; 2],
    /// Squads/WTs of each side on the board Reduced at the end.
    pub reduced: [u16; 2],
    /// Units of each side that left the map by each edge.
    pub exited: [Vec<MapEdge>; 2],
}

impl Tally {
    /// "Allies 2 eliminated, 1 Reduced; Axis 0 eliminated, 0 Reduced".
    pub fn losses(&self) -> String {
        SideId::BOTH
            .iter()
            .map(|s| {
                format!(
                    "{} {} eliminated, {} Reduced",
                    side_word(*s),
                    self.eliminated[s.index()],
                    self.reduced[s.index()]
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The result: the winner (none is a draw) and every condition read, met or
/// not, with its numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub winner: Option<SideId>,
    pub reasons: Vec<String>,
}

fn side_word(s: SideId) -> &'static str {
    match s {
        SideId::Allies => "Allies",
        SideId::Axis => "Axis",
    }
}

fn met(yes: bool) -> &'static str {
    if yes { "met" } else { "not met" }
}

/// Reads the card's conditions in order at the end of the last turn
/// (R 13.0, R 18.0): the first met wins; `otherwise` wins when none before
/// it is met; with none met and no `otherwise`, a draw.
pub fn evaluate(conditions: &[VictoryCondition], columns: u8, rows: u8, t: &Tally) -> Verdict {
    let mut reasons = Vec::new();
    for c in conditions {
        let (side, ok) = match c {
            VictoryCondition::ControlHexes {
                side,
                hexes,
                at_least,
            } => {
                let held: Vec<&String> = hexes
                    .iter()
                    .filter(|h| {
                        Coord::parse(h, columns, rows)
                            .is_ok_and(|c| t.control.controller(c) == Some(*side))
                    })
                    .collect();
                let need = at_least.map_or(hexes.len(), usize::from);
                let ok = held.len() >= need;
                reasons.push(format!(
                    "{} control {} of {} ({need} needed): {}",
                    side_word(*side),
                    if held.is_empty() {
                        "none".to_string()
                    } else {
                        held.iter()
                            .map(|h| h.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                    hexes.join(", "),
                    met(ok)
                ));
                (*side, ok)
            }
            VictoryCondition::EliminateUnits {
                side,
                count,
                reduced_counts_half,
            } => {
                let enemy = side.other().index();
                // Counted in halves: a Reduced survivor counts half.
                let halves = 2 * t.eliminated[enemy]
                    + if *reduced_counts_half {
                        t.reduced[enemy]
                    } else {
                        0
                    };
                let ok = halves >= 2 * u16::from(*count);
                let shown = if halves.is_multiple_of(2) {
                    format!("{}", halves / 2)
                } else {
                    format!("{}.5", halves / 2)
                };
                reasons.push(format!(
                    "{} eliminated {shown} enemy units ({count} needed{}): {}",
                    side_word(*side),
                    if *reduced_counts_half {
                        ", Reduced count half"
                    } else {
                        ""
                    },
                    met(ok)
                ));
                (*side, ok)
            }
            VictoryCondition::ExitUnits { side, count, edge } => {
                let n = t.exited[side.index()].iter().filter(|e| *e == edge).count();
                let ok = n >= usize::from(*count);
                reasons.push(format!(
                    "{} exited {n} units off the {edge:?} edge ({count} needed): {}",
                    side_word(*side),
                    met(ok)
                ));
                (*side, ok)
            }
            VictoryCondition::Otherwise { side } => {
                reasons.push(format!("otherwise {} win", side_word(*side)));
                (*side, true)
            }
        };
        if ok {
            return Verdict {
                winner: Some(side),
                reasons,
            };
        }
    }
    reasons.push("no condition met: a draw".to_string());
    Verdict {
        winner: None,
        reasons,
    }
}

/// R 16.1 Area of Control: a hex closer to the side's Rout Edge than at
/// least two friendly units (or the sole remaining one), and without two or
/// more enemy units closer to that edge. Units in Melee count.
pub fn in_area_of_control(
    c: Coord,
    edge: MapEdge,
    columns: u8,
    rows: u8,
    friends: &[Coord],
    enemies: &[Coord],
) -> bool {
    let d = |x: Coord| edge_distance(x, edge, columns, rows);
    let need = if friends.len() == 1 { 1 } else { 2 };
    let behind_friends = friends.iter().filter(|f| d(**f) > d(c)).count();
    let enemies_closer = enemies.iter().filter(|e| d(**e) < d(c)).count();
    !friends.is_empty() && behind_friends >= need && enemies_closer < 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(label: &str) -> Coord {
        Coord::parse(label, 16, 12).unwrap()
    }

    fn training_card() -> Vec<VictoryCondition> {
        vec![
            VictoryCondition::ControlHexes {
                side: SideId::Allies,
                hexes: vec!["J5".into(), "I6".into(), "K7".into()],
                at_least: Some(2),
            },
            VictoryCondition::Otherwise { side: SideId::Axis },
        ]
    }

    /// R 18.0: two of three hexes held wins; one does not, and the
    /// `otherwise` side wins.
    #[test]
    fn control_two_of_three_or_otherwise() {
        let mut t = Tally::default();
        t.control.occupy(c("J5"), SideId::Allies);
        t.control.occupy(c("I6"), SideId::Axis);
        let v = evaluate(&training_card(), 16, 12, &t);
        assert_eq!(v.winner, Some(SideId::Axis));
        assert_eq!(
            v.reasons,
            [
                "Allies control J5 of J5, I6, K7 (2 needed): not met",
                "otherwise Axis win"
            ]
        );
        t.control.occupy(c("K7"), SideId::Allies);
        let v = evaluate(&training_card(), 16, 12, &t);
        assert_eq!(v.winner, Some(SideId::Allies));
        assert_eq!(
            v.reasons,
            ["Allies control J5, K7 of J5, I6, K7 (2 needed): met"]
        );
    }

    /// R 18.0 with the Guadalcanal card: a Reduced survivor counts half;
    /// Decoys never count (they are never in the tally).
    #[test]
    fn eliminations_count_reduced_as_half() {
        let card = vec![
            VictoryCondition::EliminateUnits {
                side: SideId::Allies,
                count: 5,
                reduced_counts_half: true,
            },
            VictoryCondition::Otherwise { side: SideId::Axis },
        ];
        let mut t = Tally::default();
        t.eliminated[SideId::Axis.index()] = 4;
        t.reduced[SideId::Axis.index()] = 1;
        let v = evaluate(&card, 16, 12, &t);
        assert_eq!(v.winner, Some(SideId::Axis));
        assert_eq!(
            v.reasons[0],
            "Allies eliminated 4.5 enemy units (5 needed, Reduced count half): not met"
        );
        t.reduced[SideId::Axis.index()] = 2;
        assert_eq!(evaluate(&card, 16, 12, &t).winner, Some(SideId::Allies));
        // No condition met and no `otherwise`: a draw.
        let v = evaluate(&card[..1], 16, 12, &Tally::default());
        assert_eq!(v.winner, None);
    }

    /// R 16.1: closer to the west edge than two friends, fewer than two
    /// enemies nearer the edge.
    #[test]
    fn area_of_control() {
        let friends = [c("D5"), c("E6")];
        assert!(in_area_of_control(
            c("B5"),
            MapEdge::West,
            16,
            12,
            &friends,
            &[]
        ));
        assert!(!in_area_of_control(
            c("D7"),
            MapEdge::West,
            16,
            12,
            &friends,
            &[]
        ));
        let enemies = [c("A1"), c("A2")];
        assert!(!in_area_of_control(
            c("B5"),
            MapEdge::West,
            16,
            12,
            &friends,
            &enemies
        ));
        // The sole remaining friendly unit is enough.
        assert!(in_area_of_control(
            c("C5"),
            MapEdge::West,
            16,
            12,
            &[c("D5")],
            &[]
        ));
    }
}
