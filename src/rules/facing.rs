//! Infantry facing — R 2.2 (front and flank), R 6.0 (fire only to the
//! front; turning to fire), R 6.2 (flank fire), R 10.1 (who may turn to
//! Final Op Fire).
//!
//! The top of a unit lines up with a hexspine (`Spine`). The rulebook draws
//! a "black line" in a picture the text lacks; we read it as the line through
//! the centre of the unit's hex perpendicular to that spine (it runs through
//! the midpoints of two opposite hexsides and on through the centres of a
//! straight row of hexes). Hexes whose centre is in front of the line are the
//! front, hexes behind it the flank, and a hex whose centre lies on the line
//! counts as front (see `docs/decisions.md`): of the six adjacent hexes four
//! are front and the two behind the unit are its flank.
//!
//! All arithmetic is on integers: hex centres in units where a flat-topped
//! hex is exact, so "on the line" is never a rounding question.

use crate::scenario::Coord;
use crate::scenario::schema::Spine;

/// Where another hex lies for a unit with a facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arc {
    /// In front of the black line, or on it (R 2.2).
    Front,
    /// Behind the black line (R 2.2): fire from here gets +1 (R 6.2).
    Flank,
}

/// The offset of `other`'s centre from `unit`'s, as (twice x, y in half hex
/// heights): x east, y south. A flat-topped hex of side 1 has its neighbours'
/// centres 1.5 apart in x and sqrt(3)/2 apart in y, so `(3·dq, 2·dr + dq)`
/// in axial steps is exact in these units.
fn offset(unit: Coord, other: Coord) -> (i64, i64) {
    let d = other.hex() - unit.hex();
    let (q, r) = (i64::from(d.x), i64::from(d.y));
    (3 * q, 2 * r + q)
}

/// Four times the dot product of the centre offset (in hex sides) with the
/// unit vector toward `facing`: positive in front of the black line, zero on
/// it, negative behind. Comparable between spines (every spine is a unit
/// vector), so the largest value is the spine pointing most nearly at `other`.
pub fn lean(unit: Coord, facing: Spine, other: Coord) -> i64 {
    let (x2, y) = offset(unit, other);
    // x = x2 / 2, y_real = y * sqrt(3) / 2; spines at 0, 60, ... degrees.
    match facing {
        Spine::E => 2 * x2,
        Spine::W => -2 * x2,
        Spine::Ne => x2 - 3 * y,
        Spine::Nw => -x2 - 3 * y,
        Spine::Se => x2 + 3 * y,
        Spine::Sw => -x2 + 3 * y,
    }
}

/// Front or flank of a unit in `unit` facing `facing`, for a different hex
/// (R 2.2). `None` for the unit's own hex: units in one hex are not on each
/// other's flanks.
pub fn arc(unit: Coord, facing: Spine, other: Coord) -> Option<Arc> {
    if unit == other {
        return None;
    }
    Some(if lean(unit, facing, other) >= 0 {
        Arc::Front
    } else {
        Arc::Flank
    })
}

/// Whether `other` is to the front of the unit (R 6.0: it may fire there).
pub fn in_front(unit: Coord, facing: Spine, other: Coord) -> bool {
    arc(unit, facing, other) == Some(Arc::Front)
}

/// The facing pointing most nearly at `target`: the one a unit turning to
/// fire would take (ties go to the first in `Spine::ALL`).
pub fn facing_toward(unit: Coord, target: Coord) -> Spine {
    let mut best = Spine::E;
    for s in Spine::ALL {
        if lean(unit, s, target) > lean(unit, best, target) {
            best = s;
        }
    }
    best
}

/// Why a unit may not take a facing to fire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnRefusal {
    /// The target is not to the front of the facing it would fire with
    /// (R 6.0).
    NotInFront { facing: Spine },
    /// WTs and Japanese Squads cannot change facing to Final Op Fire
    /// (R 10.1).
    NoTurnForFinalOpFire,
}

impl std::fmt::Display for TurnRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TurnRefusal::NotInFront { facing } => write!(
                f,
                "the target is not to the front of facing {facing:?}; give a facing to turn to (R 6.0, R 2.2)"
            ),
            TurnRefusal::NoTurnForFinalOpFire => write!(
                f,
                "WTs and Japanese Squads cannot change facing to Final Op Fire (R 10.1)"
            ),
        }
    }
}

/// What a unit's facing means for one attack of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireFacing {
    /// The facing it fires with (and keeps).
    pub facing: Spine,
    /// It changed facing to fire: −1 (R 6.0).
    pub changed: bool,
}

/// The facing a firer fires with (R 6.0, R 10.1, R 2.2).
///
/// `current` is its facing, `None` when it has none to keep: Concealed
/// (it chooses its facing as it loses Concealment, with no −1) or never
/// given one. `wanted` is the facing asked for in the order. `may_turn` is
/// false for a WT or Japanese Squad firing Final Op Fire (R 10.1).
pub fn fire_facing(
    firer: Coord,
    target: Coord,
    current: Option<Spine>,
    wanted: Option<Spine>,
    may_turn: bool,
) -> Result<FireFacing, TurnRefusal> {
    let (facing, changed) = match (current, wanted) {
        (Some(c), Some(w)) if c != w => {
            if !may_turn {
                return Err(TurnRefusal::NoTurnForFinalOpFire);
            }
            (w, true)
        }
        (Some(c), _) => (c, false),
        (None, Some(w)) => (w, false),
        (None, None) => (facing_toward(firer, target), false),
    };
    if !in_front(firer, facing, target) {
        return Err(TurnRefusal::NotInFront { facing });
    }
    Ok(FireFacing { facing, changed })
}

/// Whether fire from `firer` hits a target unit in its flank (R 6.2): only a
/// unit with a facing (not moving, Routing, Concealed, R 2.2), and `firer`
/// behind its black line.
pub fn flank_fire(target: Coord, target_facing: Option<Spine>, firer: Coord) -> bool {
    target_facing.is_some_and(|f| arc(target, f, firer) == Some(Arc::Flank))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::Side6;

    fn c(label: &str) -> Coord {
        Coord::parse(label, 26, 40).unwrap()
    }

    fn neighbours(at: Coord) -> Vec<(Side6, Coord)> {
        Side6::ALL
            .into_iter()
            .map(|s| (s, at.neighbour(s, 26, 40).unwrap()))
            .collect()
    }

    /// R 2.2: facing a spine, the two hexes either side of it and the two on
    /// the black line are front; the two behind the unit are its flank.
    #[test]
    fn four_adjacent_hexes_are_front_two_are_flank() {
        // Both kinds of column: E (5th, high) and F (6th, half a hex lower).
        for at in [c("E6"), c("F5")] {
            for facing in Spine::ALL {
                let [a, b] = facing.sides();
                let flank: Vec<Side6> = neighbours(at)
                    .into_iter()
                    .filter(|(_, n)| arc(at, facing, *n) == Some(Arc::Flank))
                    .map(|(s, _)| s)
                    .collect();
                let mut expected = vec![a.opposite(), b.opposite()];
                expected.sort_by_key(|s| Side6::ALL.iter().position(|x| x == s));
                assert_eq!(flank, expected, "{} facing {facing:?}", at.label());
                // The hexes through the two front hexsides lean forward most.
                for s in [a, b] {
                    let n = at.neighbour(s, 26, 40).unwrap();
                    assert!(lean(at, facing, n) > 0);
                }
            }
        }
    }

    /// The black line runs on through a straight row of hexes: those are
    /// front at any range; one hex off the line toward the back is flank.
    #[test]
    fn the_line_and_beyond() {
        // Facing E: the line is the unit's own column.
        let at = c("E6");
        assert_eq!(arc(at, Spine::E, c("E2")), Some(Arc::Front));
        assert_eq!(arc(at, Spine::E, c("E9")), Some(Arc::Front));
        assert_eq!(arc(at, Spine::E, c("D2")), Some(Arc::Flank));
        assert_eq!(arc(at, Spine::E, c("F1")), Some(Arc::Front));
        assert_eq!(arc(at, Spine::W, c("F1")), Some(Arc::Flank));
        assert_eq!(arc(at, Spine::E, at), None);
        // Facing NE from E6 (a high column): the line runs NW-SE through
        // D5, C5, F6, G7, H7. Those are front; the hexes south-west of it
        // are flank.
        for on_line in ["D5", "C5", "F6", "G7", "H7"] {
            assert_eq!(lean(at, Spine::Ne, c(on_line)), 0, "{on_line}");
            assert!(in_front(at, Spine::Ne, c(on_line)));
        }
        for behind in ["D6", "E7", "F7", "G8"] {
            assert_eq!(arc(at, Spine::Ne, c(behind)), Some(Arc::Flank), "{behind}");
        }
    }

    #[test]
    fn facing_toward_points_at_the_target() {
        let at = c("E6");
        assert_eq!(facing_toward(at, c("H6")), Spine::E);
        assert_eq!(facing_toward(at, c("B6")), Spine::W);
        assert_eq!(facing_toward(at, c("F4")), Spine::Ne);
        // Straight north lies between NE and NW: the first of them.
        assert_eq!(facing_toward(at, c("E2")), Spine::Ne);
        for target in ["A1", "J9", "E9", "C7", "G2"] {
            let t = c(target);
            assert!(in_front(at, facing_toward(at, t), t), "{target}");
        }
    }

    /// R 6.0: fire only to the front; turning costs −1; R 10.1: no turning
    /// to Final Op Fire for WTs and Japanese Squads; a unit with no facing
    /// (Concealed) takes one without the −1 (R 2.2).
    #[test]
    fn turning_to_fire() {
        let (at, east, west) = (c("E6"), c("G6"), c("C6"));
        assert_eq!(
            fire_facing(at, east, Some(Spine::E), None, true),
            Ok(FireFacing {
                facing: Spine::E,
                changed: false
            })
        );
        assert_eq!(
            fire_facing(at, west, Some(Spine::E), None, true),
            Err(TurnRefusal::NotInFront { facing: Spine::E })
        );
        assert_eq!(
            fire_facing(at, west, Some(Spine::E), Some(Spine::W), true),
            Ok(FireFacing {
                facing: Spine::W,
                changed: true
            })
        );
        // Turning where the target is still not in front is refused.
        assert_eq!(
            fire_facing(at, west, Some(Spine::E), Some(Spine::Ne), true),
            Err(TurnRefusal::NotInFront { facing: Spine::Ne })
        );
        // Asking for the facing it already has is no change.
        assert_eq!(
            fire_facing(at, east, Some(Spine::E), Some(Spine::E), false),
            Ok(FireFacing {
                facing: Spine::E,
                changed: false
            })
        );
        assert_eq!(
            fire_facing(at, west, Some(Spine::E), Some(Spine::W), false),
            Err(TurnRefusal::NoTurnForFinalOpFire)
        );
        assert_eq!(
            fire_facing(at, west, None, None, false),
            Ok(FireFacing {
                facing: Spine::W,
                changed: false
            })
        );
        assert_eq!(
            fire_facing(at, west, None, Some(Spine::Sw), false),
            Ok(FireFacing {
                facing: Spine::Sw,
                changed: false
            })
        );
    }

    /// R 6.2: +1 only from behind the black line of a unit with a facing.
    #[test]
    fn flank_fire_only_from_behind_a_faced_unit() {
        let at = c("E6");
        assert!(flank_fire(at, Some(Spine::E), c("C6")));
        assert!(flank_fire(at, Some(Spine::E), c("D6")));
        assert!(!flank_fire(at, Some(Spine::E), c("E5")));
        assert!(!flank_fire(at, Some(Spine::E), c("G6")));
        assert!(!flank_fire(at, None, c("C6")));
    }
}
