//! What a thread over the map meets (R 14.0): the shapes of a line of
//! sight's answer. Traced by `rules::los`; kept here, beside the board, so
//! that the board can remember the lines already traced on it.

use crate::map::board::Edge;
use crate::scenario::Coord;
use crate::scenario::schema::Terrain;

/// What the thread between two hexes shows (R 14.0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Los {
    /// The units see each other; the thread may be Hindered or in Smoke.
    Seen(Sight),
    /// No LOS. `at` is the first hex, counted from the query's `from`, where
    /// the thread is stopped: the blocking hex; for a hexside, the hex the
    /// thread enters through it; for a Stream or Cave, the unit's own hex.
    Blocked { at: Coord, reason: Blocker },
}

impl Los {
    pub fn is_blocked(&self) -> bool {
        matches!(self, Los::Blocked { .. })
    }

    /// The sight, when there is LOS.
    pub fn sight(&self) -> Option<&Sight> {
        match self {
            Los::Seen(s) => Some(s),
            Los::Blocked { .. } => None,
        }
    }
}

/// An unblocked thread and what lies on it. Lists are sorted, so the same
/// thread traced the other way compares equal (R 47.2: "LOS always works both
/// ways").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sight {
    /// Number of Hindrances (R 46.0): each is -1 FP for Infantry, -1 Prof for
    /// Guns/Vehicles, -1 SATW Morale. Orchard, Wheat Field and Kunai Grass give
    /// one per two hexes (rounded up), Palm Trees one, Walls one in all.
    pub hindrances: u8,
    /// The intervening hexes whose Hindering Terrain counted.
    pub hindering_hexes: Vec<Coord>,
    /// The intervening Wall hexsides that counted (R 46.1).
    pub walls: Vec<Edge>,
    /// Smoke hexes the fire comes out of, crosses (hexsides and vertices
    /// included) or goes into (R 48.0). Smoke never blocks LOS; it modifies
    /// the attack and denies "moving in Open Ground".
    pub smoke: Vec<Coord>,
    /// The thread passes Hindering Terrain or a Wall that would hinder it at
    /// one level, even where different elevations make its Hindrance zero:
    /// "Even if the Hindrance is zero, a unit … fired at through Hindering
    /// Terrain by Direct Fire is never considered moving in Open Ground."
    /// (R 46.0)
    pub through_hindering: bool,
}

impl Sight {
    /// No Hindrance and no Smoke.
    pub fn is_clear(&self) -> bool {
        self.hindrances == 0 && self.smoke.is_empty()
    }
}

/// Why the thread is blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocker {
    /// Blocking terrain (Player Aid `blocks_los`) higher than both units, or
    /// at the higher unit's level when the other is lower (R 14.0, R 47.2).
    Terrain(Terrain),
    /// The hill itself, at this level (R 47.2).
    Hill { level: i8 },
    /// The lower unit lies in a Blind Hex behind an obstacle of this level,
    /// which the higher unit sees over (R 47.2).
    BlindHex { obstacle_level: i8 },
    /// A Hedgerow hexside not adjacent to either unit, or one the thread runs
    /// along (R 44.0).
    Hedgerow(Edge),
    /// The second Palm Tree hex (R 46.0).
    PalmTrees,
    /// A unit in a Stream sees only adjacent or higher units (R 45.3).
    Stream,
    /// LOS to a unit in a Cave runs only through its two front hexes; the Cave
    /// and the location above it never see each other (R 43.4).
    Cave,
    /// A hex off this map (a caller error).
    OffMap,
}

impl Blocker {
    /// What blocks, in the rulebook's words, with its rule.
    pub fn describe(self) -> String {
        match self {
            Blocker::Terrain(t) => format!("{} (R 14.0, R 47.2)", t.name()),
            Blocker::Hill { level } => format!("the Level {level} hill (R 47.2)"),
            Blocker::BlindHex { obstacle_level } => {
                format!("a Blind Hex behind Level {obstacle_level} (R 47.2)")
            }
            Blocker::Hedgerow(_) => "a Hedgerow (R 44.0)".to_string(),
            Blocker::PalmTrees => "a second Palm Tree hex (R 46.0)".to_string(),
            Blocker::Stream => {
                "the Stream: only adjacent or higher units are seen (R 45.3)".to_string()
            }
            Blocker::Cave => "the Cave: seen only through its two front hexes (R 43.4)".to_string(),
            Blocker::OffMap => "off the map".to_string(),
        }
    }
}

impl Los {
    /// One line for the LOS tool and the log: "clear", "hindered (2)",
    /// "blocked at E4 by Woods (R 14.0, R 47.2)".
    pub fn summary(&self) -> String {
        match self {
            Los::Seen(s) if s.is_clear() => "clear".to_string(),
            Los::Seen(s) => {
                let mut parts = Vec::new();
                if s.hindrances > 0 {
                    parts.push(format!(
                        "hindered ({}, \u{2212}{} FP, R 46.0)",
                        s.hindrances, s.hindrances
                    ));
                }
                if !s.smoke.is_empty() {
                    parts.push("through Smoke (R 48.0)".to_string());
                }
                parts.join(", ")
            }
            Los::Blocked { at, reason } => {
                format!("blocked at {} by {}", at.label(), reason.describe())
            }
        }
    }
}

/// One piece of the thread, in order from its first hex to its last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadStep {
    /// The thread runs through the inside of this hex. The first and the last
    /// steps are the two end hexes.
    Hex(Coord),
    /// The thread crosses `edge` from hex `from` into hex `into`;
    /// `at_vertex` when it crosses exactly at one end of that hexside.
    Cross {
        from: Coord,
        into: Coord,
        edge: Edge,
        at_vertex: bool,
    },
    /// The thread runs exactly along this hexside, between its two hexes (on
    /// the map first; `None` beyond the map edge). R 14.0 ("seen on both sides
    /// of the thread") and R 44.0 ("along a hedgerow hex spine").
    Along {
        edge: Edge,
        hexes: [Option<Coord>; 2],
    },
    /// The thread touches this hex at one vertex only.
    Touch(Coord),
}

/// Where a thread meets one hex other than its end hexes (R 14.0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Contact {
    /// Through its inside.
    Inside,
    /// Exactly along one of its hexsides.
    Side,
    /// At one vertex only.
    Vertex,
}

/// Where the thread from `a` to `b` meets the hexes other than `a`, in
/// order along it (ties by hex): `b` last, at 1.
pub type Met = Vec<(f64, Contact, hexx::Hex)>;
