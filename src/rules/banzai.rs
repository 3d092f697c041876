//! The Banzai Charge's path — R 59.6: a charging Squad attempts to enter the
//! closest hex (in hexes, not MPs) holding an enemy unit and not fully
//! stacked with Japanese, by the fewest MPs possible; if it cannot reach
//! one, it moves as close as it can to one of them along the quickest
//! route. Among equally close hexes and equally cheap paths the player
//! chooses. And R 59.6's last paragraph: until the last required charge,
//! no Japanese Squad moves closer to its Rout Edge.

use std::collections::HashMap;

use crate::map::Board;
use crate::scenario::Coord;
use crate::scenario::player_aid::PlayerAid;
use crate::scenario::schema::{BanzaiWindow, MapEdge};

use super::Mp;
use super::movement::{MoveRules, step_total};

/// The windows whose one charge is still to be called on `turn` (R 59.6),
/// in turn order: those of `windows` not over (`to >= turn`) holding none
/// of the turns a charge was `called` on. While there is one, "the last
/// required Banzai Charge" is not yet called.
pub fn due_windows(windows: &[BanzaiWindow], called: &[u8], turn: u8) -> Vec<BanzaiWindow> {
    windows
        .iter()
        .copied()
        .filter(|w| w.to >= turn && !called.iter().any(|t| w.contains(*t)))
        .collect()
}

/// The hexes the charge must go for: the closest (in hexes) of `enemies`
/// not `full` of Japanese; sorted.
pub fn charge_targets(start: Coord, enemies: &[Coord], full: impl Fn(Coord) -> bool) -> Vec<Coord> {
    let open: Vec<Coord> = enemies.iter().copied().filter(|c| !full(*c)).collect();
    let Some(nearest) = open.iter().map(|c| start.distance(*c)).min() else {
        return Vec::new();
    };
    let mut out: Vec<Coord> = open
        .into_iter()
        .filter(|c| start.distance(*c) == nearest)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The fewest MPs to every hex reachable from `start` within `allowance`
/// (R 5.0 step costs), never moving on out of a hex where `stops` (an
/// enemy hex ends a move): the search of `rules::paths`.
pub fn cheapest(
    board: &Board,
    aid: &PlayerAid,
    rules: MoveRules,
    start: Coord,
    allowance: Mp,
    stops: impl Fn(Coord) -> bool,
) -> HashMap<Coord, Mp> {
    super::paths::cheapest_paths(
        start,
        (board.columns, board.rows),
        allowance,
        |_| (),
        stops,
        |s| step_total(board, aid, rules, s.from, s.to).ok(),
    )
    .into_iter()
    .map(|(c, b)| (c, b.spent))
    .collect()
}

/// Why a charge path is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChargeRefusal {
    /// It must enter one of these closest enemy hexes.
    NotATarget { targets: Vec<Coord> },
    /// None is reachable: it must end as close as it can, in one of these.
    NotClosest { best: Vec<Coord> },
    /// A cheaper path reaches the same hex.
    NotFewestMp { spent: Mp, fewest: Mp },
}

impl std::fmt::Display for ChargeRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |v: &[Coord]| v.iter().map(|c| c.label()).collect::<Vec<_>>().join(", ");
        match self {
            ChargeRefusal::NotATarget { targets } => write!(
                f,
                "a Banzai Charge must enter the closest enemy hex: {} (R 59.6)",
                list(targets)
            ),
            ChargeRefusal::NotClosest { best } => write!(
                f,
                "a Banzai Charge that cannot reach the closest enemy must end as close as it can: {} (R 59.6)",
                list(best)
            ),
            ChargeRefusal::NotFewestMp { spent, fewest } => write!(
                f,
                "a Banzai Charge takes the fewest MPs: {spent} MP where {fewest} MP would do (R 59.6)"
            ),
        }
    }
}

/// R 59.6: checks a charge that ends in `end` having spent `spent`, given
/// the closest `targets` and the `cheapest` costs from its start. Any
/// target reached by any cheapest path is the player's choice.
pub fn check_charge(
    cheapest: &HashMap<Coord, Mp>,
    targets: &[Coord],
    end: Coord,
    spent: Mp,
) -> Result<(), ChargeRefusal> {
    if targets.is_empty() {
        return Ok(());
    }
    let reachable: Vec<Coord> = targets
        .iter()
        .copied()
        .filter(|t| cheapest.contains_key(t))
        .collect();
    if reachable.is_empty() {
        let gap = |c: Coord| targets.iter().map(|t| c.distance(*t)).min().unwrap_or(0);
        let closest = cheapest.keys().map(|c| gap(*c)).min().unwrap_or(0);
        let mut best: Vec<Coord> = cheapest
            .keys()
            .copied()
            .filter(|c| gap(*c) == closest)
            .collect();
        best.sort();
        if !best.contains(&end) {
            return Err(ChargeRefusal::NotClosest { best });
        }
    } else if !reachable.contains(&end) {
        return Err(ChargeRefusal::NotATarget { targets: reachable });
    }
    let fewest = cheapest.get(&end).copied().unwrap_or(spent);
    if spent > fewest {
        return Err(ChargeRefusal::NotFewestMp { spent, fewest });
    }
    Ok(())
}

/// How many hexes `c` lies from the map edge `edge` (R 59.6, R 11.0).
pub fn from_edge(c: Coord, edge: MapEdge, columns: u8, rows: u8) -> u8 {
    match edge {
        MapEdge::North => c.row,
        MapEdge::South => rows.saturating_sub(c.row + 1),
        MapEdge::West => c.col,
        MapEdge::East => columns.saturating_sub(c.col + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::MapSpec;

    fn board() -> Board {
        Board::from_map(&MapSpec::open(10, 10))
    }

    fn c(l: &str) -> Coord {
        Coord::parse(l, 10, 10).unwrap()
    }

    /// R 59.6: a window is due until a charge is called in it or it is
    /// over; the windows still due are the Rout Edge rule's "until the
    /// last required Banzai Charge".
    #[test]
    fn r59_6_windows_due_until_called_or_over() {
        let w = |from, to| BanzaiWindow { from, to };
        let cards = [w(2, 3), w(5, 6)];
        assert_eq!(due_windows(&cards, &[], 1), [w(2, 3), w(5, 6)]);
        assert_eq!(due_windows(&cards, &[2], 3), [w(5, 6)]);
        assert_eq!(due_windows(&cards, &[3], 4), [w(5, 6)]);
        assert_eq!(due_windows(&cards, &[3, 5], 5), []);
        assert_eq!(due_windows(&cards, &[3], 7), []);
    }

    /// The closest enemy hexes by hexes (E2 and H5, both 4 hexes from D5:
    /// either is the player's choice); a hex full of Japanese is skipped.
    #[test]
    fn r59_6_targets_are_the_closest_enemy_hexes() {
        let enemies = [c("H5"), c("A9"), c("E2")];
        assert_eq!(
            charge_targets(c("D5"), &enemies, |_| false),
            [c("E2"), c("H5")]
        );
        assert_eq!(
            charge_targets(c("D5"), &enemies, |h| h == c("E2")),
            [c("H5")]
        );
    }

    /// On open ground, 9 MP (5 + 4): an enemy 7 hexes off is reached by
    /// several paths of 7 MP, each the player's choice; 8 MP is refused; an
    /// enemy out of reach: as close as it can.
    #[test]
    fn r59_6_fewest_mp_and_as_close_as_it_can() {
        let b = board();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let costs = cheapest(&b, &aid, MoveRules::default(), c("A5"), Mp::whole(9), |h| {
            h == c("H5")
        });
        assert_eq!(costs.get(&c("H5")), Some(&Mp::whole(7)));
        assert_eq!(
            check_charge(&costs, &[c("H5")], c("H5"), Mp::whole(7)),
            Ok(())
        );
        assert_eq!(
            check_charge(&costs, &[c("H5")], c("H5"), Mp::whole(8)),
            Err(ChargeRefusal::NotFewestMp {
                spent: Mp::whole(8),
                fewest: Mp::whole(7)
            })
        );
        assert_eq!(
            check_charge(&costs, &[c("H5")], c("G5"), Mp::whole(6)),
            Err(ChargeRefusal::NotATarget {
                targets: vec![c("H5")]
            })
        );
        let short = cheapest(
            &b,
            &aid,
            MoveRules::default(),
            c("A5"),
            Mp::whole(5),
            |_| false,
        );
        assert_eq!(
            check_charge(&short, &[c("H5")], c("E5"), Mp::whole(4)),
            Err(ChargeRefusal::NotClosest {
                best: vec![c("F4"), c("F5"), c("F6")]
            })
        );
        assert_eq!(
            check_charge(&short, &[c("H5")], c("F5"), Mp::whole(5)),
            Ok(())
        );
    }
}
