//! The map as plain data: terrain at the centre dot, elevation, hexside
//! features, roads and paths, fortifications. Built from the scenario; read by
//! the rule functions and the board drawing.

use std::sync::Arc;

use crate::scenario::Coord;
use crate::scenario::PlayerAid;
use crate::scenario::coords::expand;
use crate::scenario::schema::{
    FortificationKind, HexsideFeature, MapSpec, RoadKind, Side6, Spine, Terrain,
};

use super::fast_hash::FxHashMap;

/// One hex of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub terrain: Terrain,
    /// Hill level (R 47.0).
    pub level: u8,
}

/// A hexside named once: by the hex on its north or east (`N`, `Ne`, `Se`)
/// where that neighbour exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge {
    pub coord: Coord,
    pub side: Side6,
}

/// A fortification counter on the map (R 43.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fortification {
    pub coord: Coord,
    pub kind: FortificationKind,
    pub facing: Option<Spine>,
    pub concealed: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    pub columns: u8,
    pub rows: u8,
    cells: Vec<Cell>,
    hexsides: FxHashMap<Edge, Vec<HexsideFeature>>,
    roads: FxHashMap<Edge, RoadKind>,
    pub fortifications: Vec<Fortification>,
    /// The map the board was built from.
    pub map: MapSpec,
    /// The Player Aid whose terrain the lines of sight remembered below
    /// were traced with (`None`: the board remembers no line of sight).
    pub aid: Option<Arc<PlayerAid>>,
    /// Lines of sight already traced on this map (see `rules::los`).
    pub los_memo: LosMemo,
    /// Whether the thread between two hexes is blocked, one byte per pair
    /// (see `rules::los::with_blocked_table`).
    pub blocked_memo: Kept<Vec<u8>>,
    /// Threads already laid on this map (see `rules::los::thread`).
    pub thread_memo: ThreadMemo,
    /// The hexes a thread meets, by where its far end lies from its first
    /// (see `rules::los::thread`).
    pub shape_memo: Memo<hexx::Hex, Arc<super::sight::Met>>,
}

/// LOS depends on the map alone (R 14.0; units never block it), so each
/// thread traced without Smoke is kept for the life of the board: the
/// engine asks the same pairs again on every step of every move. A clone
/// starts empty; two boards compare equal whatever they remember.
/// A traced thread by (from, to, from in Cave, to in Cave), with the
/// board's Player Aid.
pub type LosKey = (Coord, Coord, bool, bool);

pub type LosMemo = Memo<LosKey, super::sight::Los>;

/// The threads of R 14.0 laid on this map, by (from, to): they depend on
/// the map's size and hexsides alone.
pub type ThreadMemo = Memo<(Coord, Coord), Vec<super::sight::ThreadStep>>;

/// What a board remembers of the questions asked about its map: a field
/// of the board, filled by the rule functions that read the board through
/// a shared reference (hence the lock). A clone starts empty; two boards
/// compare equal whatever they remember.
pub struct Kept<T>(pub std::sync::Mutex<T>);

/// A board's memo by question.
pub type Memo<K, V> = Kept<FxHashMap<K, V>>;

impl<T: Default> Default for Kept<T> {
    fn default() -> Self {
        Kept(std::sync::Mutex::new(T::default()))
    }
}

impl<T: Default> Clone for Kept<T> {
    fn clone(&self) -> Self {
        Kept::default()
    }
}

impl<T> PartialEq for Kept<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> std::fmt::Debug for Kept<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kept")
    }
}

impl Board {
    /// The board of `map` for games played with `aid`: it remembers the
    /// lines of sight traced on it (they depend on the map and the Player
    /// Aid's terrain alone, R 14.0). Games that should share what it
    /// remembers are given the same board (`engine::Shared`).
    pub fn with_aid(map: &MapSpec, aid: Arc<PlayerAid>) -> Board {
        Board {
            aid: Some(aid),
            ..Board::from_map(map)
        }
    }

    /// Whether the lines of sight this board remembers hold for `aid`: it
    /// equals the board's Player Aid (the same one, mostly, which spares
    /// the comparison).
    pub fn remembers_for(&self, aid: &PlayerAid) -> bool {
        self.aid
            .as_deref()
            .is_some_and(|a| std::ptr::eq(a, aid) || a == aid)
    }

    /// Builds the board from a checked scenario map. Bad labels were refused by
    /// the check; any that slip through are skipped, never a panic.
    pub fn from_map(map: &MapSpec) -> Board {
        let (columns, rows) = (map.columns, map.rows);
        let mut board = Board {
            columns,
            rows,
            cells: vec![
                Cell {
                    terrain: map.base_terrain,
                    level: 0
                };
                usize::from(columns) * usize::from(rows)
            ],
            hexsides: FxHashMap::default(),
            roads: FxHashMap::default(),
            fortifications: Vec::new(),
            map: map.clone(),
            aid: None,
            los_memo: LosMemo::default(),
            blocked_memo: Kept::default(),
            thread_memo: ThreadMemo::default(),
            shape_memo: Memo::default(),
        };
        let coords = |entries: &Vec<String>| -> Vec<Coord> {
            entries
                .iter()
                .flat_map(|e| expand(e, columns, rows).unwrap_or_default())
                .collect()
        };
        for area in &map.terrain {
            for c in coords(&area.hexes) {
                if let Some(cell) = board.cell_mut(c) {
                    cell.terrain = area.terrain;
                }
            }
        }
        for area in &map.elevation {
            for c in coords(&area.hexes) {
                if let Some(cell) = board.cell_mut(c) {
                    cell.level = area.level;
                }
            }
        }
        for run in &map.hexsides {
            if let Ok(c) = Coord::parse(&run.hex, columns, rows) {
                for side in &run.sides {
                    let e = board.edge(c, *side);
                    let v = board.hexsides.entry(e).or_default();
                    if !v.contains(&run.feature) {
                        v.push(run.feature);
                    }
                }
            }
        }
        for road in &map.roads {
            let chain: Vec<Coord> = road
                .hexes
                .iter()
                .filter_map(|h| Coord::parse(h, columns, rows).ok())
                .collect();
            for pair in chain.windows(2) {
                if let Some(side) = pair[0].side_towards(pair[1]) {
                    let e = board.edge(pair[0], side);
                    board.roads.insert(e, road.kind);
                }
            }
        }
        for f in &map.fortifications {
            if let Ok(coord) = Coord::parse(&f.at, columns, rows) {
                board.fortifications.push(Fortification {
                    coord,
                    kind: f.kind,
                    facing: f.facing,
                    concealed: f.concealed,
                });
            }
        }
        board
    }

    fn index(&self, c: Coord) -> Option<usize> {
        (c.col < self.columns && c.row < self.rows)
            .then(|| usize::from(c.col) * usize::from(self.rows) + usize::from(c.row))
    }

    pub fn cell(&self, c: Coord) -> Option<Cell> {
        self.index(c).map(|i| self.cells[i])
    }

    fn cell_mut(&mut self, c: Coord) -> Option<&mut Cell> {
        self.index(c).map(|i| &mut self.cells[i])
    }

    /// Every hex, column by column.
    pub fn coords(&self) -> impl Iterator<Item = Coord> + '_ {
        (0..self.columns).flat_map(move |col| (0..self.rows).map(move |row| Coord::new(col, row)))
    }

    pub fn neighbour(&self, c: Coord, side: Side6) -> Option<Coord> {
        c.neighbour(side, self.columns, self.rows)
    }

    /// The one name of the hexside of `c` on `side`.
    pub fn edge(&self, c: Coord, side: Side6) -> Edge {
        match side {
            Side6::N | Side6::Ne | Side6::Se => Edge { coord: c, side },
            _ => match self.neighbour(c, side) {
                Some(n) => Edge {
                    coord: n,
                    side: side.opposite(),
                },
                None => Edge { coord: c, side },
            },
        }
    }

    /// Features on the hexside of `c` on `side` (hedgerow, wall, crest, cliff).
    pub fn hexside(&self, c: Coord, side: Side6) -> &[HexsideFeature] {
        self.hexsides
            .get(&self.edge(c, side))
            .map_or(&[], Vec::as_slice)
    }

    /// Road or path crossing the hexside of `c` on `side`.
    pub fn road(&self, c: Coord, side: Side6) -> Option<RoadKind> {
        self.roads.get(&self.edge(c, side)).copied()
    }

    pub fn fortifications_at(&self, c: Coord) -> impl Iterator<Item = &Fortification> {
        self.fortifications.iter().filter(move |f| f.coord == c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::{HexsideRun, RoadRun, TerrainArea};

    fn map() -> MapSpec {
        MapSpec {
            columns: 4,
            rows: 4,
            base_terrain: Terrain::Open,
            terrain: vec![TerrainArea {
                terrain: Terrain::Woods,
                hexes: vec!["B2:C3".into()],
            }],
            elevation: vec![],
            hexsides: vec![HexsideRun {
                feature: HexsideFeature::Hedgerow,
                hex: "B2".into(),
                sides: vec![Side6::S],
            }],
            roads: vec![RoadRun {
                kind: RoadKind::Road,
                hexes: vec!["A1".into(), "B1".into(), "C1".into()],
            }],
            fortifications: vec![],
        }
    }

    #[test]
    fn hexsides_are_shared_by_both_hexes() {
        let b = Board::from_map(&map());
        let b2 = Coord::parse("B2", 4, 4).unwrap();
        let b3 = Coord::parse("B3", 4, 4).unwrap();
        assert_eq!(b.hexside(b2, Side6::S), &[HexsideFeature::Hedgerow]);
        assert_eq!(b.hexside(b3, Side6::N), &[HexsideFeature::Hedgerow]);
        assert_eq!(b.hexside(b3, Side6::S), &[] as &[HexsideFeature]);
    }

    #[test]
    fn terrain_rectangles_and_roads() {
        let b = Board::from_map(&map());
        let c3 = Coord::parse("C3", 4, 4).unwrap();
        assert_eq!(b.cell(c3).unwrap().terrain, Terrain::Woods);
        assert_eq!(
            b.cell(Coord::parse("D4", 4, 4).unwrap()).unwrap().terrain,
            Terrain::Open
        );
        let a1 = Coord::parse("A1", 4, 4).unwrap();
        let b1 = Coord::parse("B1", 4, 4).unwrap();
        assert_eq!(
            b.road(a1, a1.side_towards(b1).unwrap()),
            Some(RoadKind::Road)
        );
        assert_eq!(
            b.road(b1, b1.side_towards(a1).unwrap()),
            Some(RoadKind::Road)
        );
        assert_eq!(b.road(a1, Side6::S), None);
    }
}
