//! Caves as a place to move and fire — R 43.4: a Cave is a location below
//! its hex, adjacent only to its two front hexes; it is entered and left
//! only through them, for 2 MP (the Player Aid's `cave` row); only
//! Japanese units enter it, one unit at a time; fired at from a front hex
//! its modifier is 0. (Its LOS is `rules::los`, its FP floor `rules::fire`.)

use crate::map::Board;
use crate::scenario::Coord;
use crate::scenario::player_aid::PlayerAid;
use crate::scenario::schema::{FortificationKind, HexsideFeature};

use super::Mp;
use super::los::cave_facing;

/// A location on the map: a hex, or the Cave below it (R 43.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    pub coord: Coord,
    pub in_cave: bool,
}

/// The suffix naming the Cave of a hex in orders: `K5/cave`.
pub const CAVE_SUFFIX: &str = "/cave";

/// Splits `K5/cave` into (`K5`, true); any other label is (label, false).
pub fn split_label(label: &str) -> (&str, bool) {
    match label.strip_suffix(CAVE_SUFFIX) {
        Some(hex) => (hex, true),
        None => (label, false),
    }
}

/// The label of a location: `K5`, or `K5/cave` for its Cave.
pub fn place_label(c: Coord, in_cave: bool) -> String {
    let mut label = String::with_capacity(if in_cave { 12 } else { 4 });
    c.push_label(&mut label);
    if in_cave {
        label.push_str(CAVE_SUFFIX);
    }
    label
}

/// The two front hexes of the Cave in `c`, if it has one (R 43.4).
pub fn cave_front(board: &Board, c: Coord) -> Option<Vec<Coord>> {
    let facing = cave_facing(board, c)?;
    Some(
        facing
            .sides()
            .into_iter()
            .filter_map(|s| board.neighbour(c, s))
            .collect(),
    )
}

/// Whether two locations are adjacent (R 2.0: next hexes), knowing Caves
/// (R 43.4: "The Cave is only adjacent to its two frontal hexes.") and
/// Cliffs (R 47.4: "Units on either side of a Cliff hexside are not
/// adjacent."): a Cave is adjacent only to the locations above its two
/// front hexes, never to the location above it nor to another Cave; two
/// hexes are adjacent when they touch, unless a Cliff runs between them.
/// Every question of units being adjacent asks this.
pub fn adjacent(board: &Board, a: Place, b: Place) -> bool {
    let touching = match (a.in_cave, b.in_cave) {
        (false, false) => a.coord.distance(b.coord) == 1,
        (true, true) => false,
        (true, false) => cave_front(board, a.coord).is_some_and(|f| f.contains(&b.coord)),
        (false, true) => cave_front(board, b.coord).is_some_and(|f| f.contains(&a.coord)),
    };
    touching && !across_cliff(board, a.coord, b.coord)
}

/// [`adjacent`] for two hexes (the locations above any Cave).
pub fn adjacent_hexes(board: &Board, a: Coord, b: Coord) -> bool {
    adjacent(
        board,
        Place {
            coord: a,
            in_cave: false,
        },
        Place {
            coord: b,
            in_cave: false,
        },
    )
}

/// Whether a Cliff hexside runs between two neighbouring hexes (R 47.4).
pub fn across_cliff(board: &Board, a: Coord, b: Coord) -> bool {
    a.side_towards(b)
        .is_some_and(|s| board.hexside(a, s).contains(&HexsideFeature::Cliff))
}

/// R 43.3 Pillboxes and Bunkers: "Units can fire in any direction." Whether
/// Infantry in this Fortification fire with no facing to keep or turn.
pub fn fires_any_direction(fortification: Option<FortificationKind>) -> bool {
    matches!(
        fortification,
        Some(FortificationKind::Pillbox | FortificationKind::Bunker)
    )
}

/// R 43.4: fire at a unit in the Cave of `cave` from `from`, one of its two
/// front hexes: the Cave's modifier is 0.
pub fn fired_from_front(board: &Board, cave: Coord, from: Coord) -> bool {
    cave_front(board, cave).is_some_and(|f| f.contains(&from))
}

/// Why a step into or out of a Cave is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaveRefusal {
    NoCave { at: Coord },
    NotJapanese,
    NotFromFront { cave: Coord },
    Full { cave: Coord },
    NotEnoughMp { need: Mp, left: Mp },
    NoTableEntry,
}

impl std::fmt::Display for CaveRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CaveRefusal::NoCave { at } => write!(f, "{} has no Cave (R 43.4)", at.label()),
            CaveRefusal::NotJapanese => write!(f, "non-Japanese units can't enter Caves (R 43.4)"),
            CaveRefusal::NotFromFront { cave } => write!(
                f,
                "the Cave of {} is entered and left only through its two front hexes (R 43.4)",
                cave.label()
            ),
            CaveRefusal::Full { cave } => write!(
                f,
                "the Cave of {} holds one unit already (R 43.4)",
                cave.label()
            ),
            CaveRefusal::NotEnoughMp { need, left } => {
                write!(f, "needs {need} MP, {left} MP left (R 43.4)")
            }
            CaveRefusal::NoTableEntry => write!(f, "the Player Aid has no MP for `cave`"),
        }
    }
}

/// R 43.4: entering the Cave of `to` from `from` (a front hex), for a
/// Japanese unit (`japanese`) while the Cave is empty (`occupied`): its
/// cost, the Player Aid's `cave` MP.
pub fn enter_cave(
    board: &Board,
    aid: &PlayerAid,
    japanese: bool,
    from: Place,
    to: Coord,
    occupied: bool,
    left: Mp,
) -> Result<Mp, CaveRefusal> {
    let front = cave_front(board, to).ok_or(CaveRefusal::NoCave { at: to })?;
    if !japanese {
        return Err(CaveRefusal::NotJapanese);
    }
    if from.in_cave || !front.contains(&from.coord) {
        return Err(CaveRefusal::NotFromFront { cave: to });
    }
    if occupied {
        return Err(CaveRefusal::Full { cave: to });
    }
    let need = aid
        .terrain_row("cave")
        .and_then(|r| r.inf_mp.mp())
        .map(Mp::from_aid)
        .ok_or(CaveRefusal::NoTableEntry)?;
    if need > left {
        return Err(CaveRefusal::NotEnoughMp { need, left });
    }
    Ok(need)
}

/// R 43.4: a unit leaves a Cave only into one of its two front hexes.
pub fn leave_cave(board: &Board, cave: Coord, to: Coord) -> Result<(), CaveRefusal> {
    let front = cave_front(board, cave).ok_or(CaveRefusal::NoCave { at: cave })?;
    if front.contains(&to) {
        Ok(())
    } else {
        Err(CaveRefusal::NotFromFront { cave })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::{
        ElevationArea, FortificationKind, FortificationSpec, MapSpec, Spine,
    };

    /// A hill K5 (Level 1) with a Cave facing SW: its front hexes are J5
    /// and K6 (R 43.4's example names I4 and J4 on its own map).
    fn board() -> Board {
        let mut map = MapSpec::open(16, 12);
        map.elevation.push(ElevationArea {
            level: 1,
            hexes: vec!["K5".into()],
        });
        map.fortifications.push(FortificationSpec {
            kind: FortificationKind::Cave,
            at: "K5".into(),
            facing: Some(Spine::Sw),
            concealed: false,
        });
        Board::from_map(&map)
    }

    fn c(l: &str) -> Coord {
        Coord::parse(l, 16, 12).unwrap()
    }

    fn above(l: &str) -> Place {
        Place {
            coord: c(l),
            in_cave: false,
        }
    }

    #[test]
    fn r43_4_cave_entered_only_from_its_front_by_japanese_for_2_mp() {
        let b = board();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let five = Mp::whole(5);
        let front = cave_front(&b, c("K5")).unwrap();
        assert_eq!(front.len(), 2);
        for f in &front {
            assert_eq!(
                enter_cave(&b, &aid, true, above(&f.label()), c("K5"), false, five),
                Ok(Mp::whole(2))
            );
            assert_eq!(leave_cave(&b, c("K5"), *f), Ok(()));
        }
        // Every other neighbour, and the hex above, are no way in or out.
        for other in ["K4", "L4", "L5", "J4", "K5"] {
            if front.contains(&c(other)) {
                continue;
            }
            assert_eq!(
                enter_cave(&b, &aid, true, above(other), c("K5"), false, five),
                Err(CaveRefusal::NotFromFront { cave: c("K5") }),
                "{other}"
            );
        }
        let f0 = above(&front[0].label());
        assert_eq!(
            enter_cave(&b, &aid, false, f0, c("K5"), false, five),
            Err(CaveRefusal::NotJapanese)
        );
        assert_eq!(
            enter_cave(&b, &aid, true, f0, c("K5"), true, five),
            Err(CaveRefusal::Full { cave: c("K5") })
        );
        assert_eq!(
            enter_cave(&b, &aid, true, f0, c("K5"), false, Mp::whole(1)),
            Err(CaveRefusal::NotEnoughMp {
                need: Mp::whole(2),
                left: Mp::whole(1)
            })
        );
        assert!(fired_from_front(&b, c("K5"), front[1]));
        assert!(!fired_from_front(&b, c("K5"), c("K4")));
        assert_eq!(split_label("K5/cave"), ("K5", true));
        assert_eq!(split_label("K5"), ("K5", false));
    }

    /// R 43.4: "The Cave is only adjacent to its two frontal hexes." The
    /// other four hexes touching K5, and K5 itself, are not adjacent to its
    /// Cave; hexes are adjacent as ever.
    #[test]
    fn r43_4_the_cave_is_only_adjacent_to_its_two_frontal_hexes() {
        let b = board();
        let cave = Place {
            coord: c("K5"),
            in_cave: true,
        };
        let front = cave_front(&b, c("K5")).unwrap();
        let touching: Vec<Coord> = crate::scenario::schema::Side6::ALL
            .into_iter()
            .filter_map(|s| b.neighbour(c("K5"), s))
            .collect();
        assert_eq!(touching.len(), 6);
        for t in touching {
            let expected = front.contains(&t);
            assert_eq!(adjacent(&b, cave, above(&t.label())), expected, "{t:?}");
            assert_eq!(adjacent(&b, above(&t.label()), cave), expected, "{t:?}");
            assert!(adjacent(&b, above("K5"), above(&t.label())));
        }
        assert!(!adjacent(&b, cave, above("K5")));
        assert!(!adjacent(&b, cave, cave));
        assert!(!adjacent(&b, above("K5"), above("K7")));
    }
}
