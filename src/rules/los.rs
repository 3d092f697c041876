//! Line of Sight — R 14.0 (LOS), R 40.0 (Buildings and Woods), R 43.3–43.5
//! (Pillboxes, Caves, Fortified Positions), R 44.0 (Hedgerows), R 45.3
//! (Stream), R 45.4 (Gully), R 46.0–46.1 (Hindering Terrain, Walls), R 47.0–47.4
//! (Hills, Blind Hexes, Cliffs), R 48.0 (Smoke), R 51.0 (Jungle), R 52.0 (Swamp).
//!
//! The thread of R 14.0 is a straight segment between two centre dots, laid in
//! world space with hexx's flat layout. [`thread`] lists, in order, the hexes it
//! runs through, the hexsides it crosses, the hexsides it runs exactly along (the
//! rulebook's "hexspine", R 44.0) and the hexes it only touches at a vertex.
//! [`line_of_sight`] applies the rules to that list. Which terrain and which
//! hexside features block or hinder is read from the Player Aid rows
//! (`blocks_los`, `hindrance`); how they count is the rulebook's.
//!
//! Heights (R 47.0, R 47.2): a unit is at the height of its ground (a Gully is
//! one level below its hex, R 45.4; a Cave is at the level of the highest hex
//! it faces, R 43.4). An obstacle is its ground, plus one level when its terrain
//! blocks LOS (woods, buildings, jungle, swamp: "Level 1 terrain" on Level 0).
//! Crest and Cliff hexsides are not read: the hex levels already place the hill
//! edge (R 47.4: a Cliff impacts LOS like a normal crest line).

use hexx::{Hex, HexLayout};

use crate::map::board::{Board, Edge};
pub use crate::map::sight::{Blocker, Los, Sight, ThreadStep};
use crate::map::sight::{Contact, Met};
use crate::scenario::Coord;
use crate::scenario::coords::side_vector;
use crate::scenario::player_aid::PlayerAid;
use crate::scenario::schema::{HexsideFeature, Side6, Spine, Terrain};

/// One LOS question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LosQuery {
    pub from: Coord,
    pub to: Coord,
    /// Hexes holding Smoke or Dispersed Smoke (R 48.0).
    pub smoke: Vec<Coord>,
    /// The unit at `from` is inside the Cave of its hex (R 43.4). Ignored when
    /// the hex has no Cave with a facing.
    pub from_in_cave: bool,
    /// The unit at `to` is inside the Cave of its hex.
    pub to_in_cave: bool,
}

impl LosQuery {
    pub fn new(from: Coord, to: Coord) -> Self {
        LosQuery {
            from,
            to,
            smoke: Vec::new(),
            from_in_cave: false,
            to_in_cave: false,
        }
    }

    /// The same question asked from the other end.
    pub fn reversed(&self) -> Self {
        LosQuery {
            from: self.to,
            to: self.from,
            smoke: self.smoke.clone(),
            from_in_cave: self.to_in_cave,
            to_in_cave: self.from_in_cave,
        }
    }
}

/// Distance (in hex radii) under which a corner counts as lying on the thread.
/// Between centre dots, a corner not on the thread is at least
/// `0.866 / length` away, so this is exact on any map up to 500 hexes across.
const EPS: f64 = 1e-3;

fn world(layout: &HexLayout, h: Hex) -> [f64; 2] {
    let v = layout.hex_to_world_pos(h);
    [f64::from(v.x), f64::from(v.y)]
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// How the segment from the origin to `d` meets the hex at `rel` (relative to
/// the first end hex), and where along it (0 at the start, 1 at the end).
/// The corners are hexx's `hex_corners` (`unit`, the layout's
/// `center_aligned_hex_corners` read once per thread of sight, plus the hex's centre:
/// the same sums), and the lists live on the stack.
fn contact(
    layout: &HexLayout,
    unit: &[hexx::Vec2; 6],
    rel: Hex,
    d: [f64; 2],
) -> Option<(f64, Contact)> {
    let len2 = dot(d, d);
    let len = len2.sqrt();
    let normal = [-d[1] / len, d[0] / len];
    let center = layout.hex_to_world_pos(rel);
    let corners = unit
        .map(|c| c + center)
        .map(|c| [f64::from(c.x), f64::from(c.y)]);
    let s = corners.map(|c| dot(normal, c));
    let t_of = |p: [f64; 2]| dot(p, d) / len2;
    // The corners on the thread, in order.
    let mut on = [0usize; 6];
    let mut n_on = 0;
    for (i, v) in s.iter().enumerate() {
        if v.abs() <= EPS {
            on[n_on] = i;
            n_on += 1;
        }
    }
    let above = s.iter().any(|&v| v > EPS);
    let below = s.iter().any(|&v| v < -EPS);
    if above && below {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut meet = |t: f64| {
            lo = lo.min(t);
            hi = hi.max(t);
        };
        for &i in &on[..n_on] {
            meet(t_of(corners[i]));
        }
        for i in 0..6 {
            let j = (i + 1) % 6;
            if (s[i] > EPS && s[j] < -EPS) || (s[i] < -EPS && s[j] > EPS) {
                let k = s[i] / (s[i] - s[j]);
                let p = [
                    corners[i][0] + (corners[j][0] - corners[i][0]) * k,
                    corners[i][1] + (corners[j][1] - corners[i][1]) * k,
                ];
                meet(t_of(p));
            }
        }
        Some(((lo + hi) / 2.0, Contact::Inside))
    } else if n_on == 2 {
        let (a, b) = (corners[on[0]], corners[on[1]]);
        Some((
            t_of([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]),
            Contact::Side,
        ))
    } else if n_on == 1 {
        Some((t_of(corners[on[0]]), Contact::Vertex))
    } else {
        None
    }
}

fn side_between(a: Hex, b: Hex) -> Option<Side6> {
    Side6::ALL.into_iter().find(|s| side_vector(*s) == b - a)
}

/// The thread from the centre dot of `from` to that of `to` (R 14.0), for the
/// LOS rules and for drawing the LOS tool. Laid in world space with hexx's
/// flat layout over the hexes of `Hex::line_to` and their neighbours. Every hex
/// whose inside the thread crosses is listed, also one whose corner it only
/// clips (which `line_to`'s sampled points can miss). The thread from `to` to
/// `from` is exactly this one reversed. Laid once per map and pair of hexes
/// (`Board::thread_memo`).
pub fn thread(board: &Board, from: Coord, to: Coord) -> Vec<ThreadStep> {
    if let Ok(memo) = board.thread_memo.0.lock()
        && let Some(steps) = memo.get(&(from, to))
    {
        return steps.clone();
    }
    let steps = lay_thread(board, from, to);
    if let Ok(mut memo) = board.thread_memo.0.lock() {
        memo.insert((from, to), steps.clone());
    }
    steps
}

/// [`Met`] worked out with hexx's flat layout over the hexes of
/// `Hex::line_to` and their neighbours.
fn meet_hexes(a: Hex, b: Hex) -> Met {
    let layout = HexLayout::flat();
    let unit = layout.center_aligned_hex_corners();
    let d = world(&layout, b - a);
    let mut candidates: Vec<Hex> = a
        .line_to(b)
        .flat_map(|h| std::iter::once(h).chain(h.all_neighbors()))
        .filter(|h| *h != a && *h != b)
        .collect();
    candidates.sort_by_key(|h| (h.x, h.y));
    candidates.dedup();
    let mut met: Met = candidates
        .into_iter()
        .filter_map(|h| {
            let (t, c) = contact(&layout, &unit, h - a, d)?;
            (t > 0.0 && t < 1.0).then_some((t, c, h))
        })
        .collect();
    met.push((1.0, Contact::Inside, b));
    met.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then((x.2.x, x.2.y).cmp(&(y.2.x, y.2.y)))
    });
    met
}

/// [`meet_hexes`] from the origin to `delta`. The geometry of a thread
/// depends only on where its far end lies from its first (the contacts
/// are measured from the first hex), so every pair of hexes the same
/// distance and direction apart shares it: worked out once per board
/// (`Board::shape_memo`), and moved onto the pair.
fn shape(board: &Board, delta: Hex) -> std::sync::Arc<Met> {
    if let Ok(memo) = board.shape_memo.0.lock()
        && let Some(m) = memo.get(&delta)
    {
        return m.clone();
    }
    let m = std::sync::Arc::new(meet_hexes(Hex::ZERO, delta));
    if let Ok(mut memo) = board.shape_memo.0.lock() {
        memo.insert(delta, m.clone());
    }
    m
}

/// [`thread`] laid afresh.
fn lay_thread(board: &Board, from: Coord, to: Coord) -> Vec<ThreadStep> {
    if from == to {
        return vec![ThreadStep::Hex(from)];
    }
    if to < from {
        let mut steps = thread(board, to, from);
        steps.reverse();
        for s in &mut steps {
            if let ThreadStep::Cross { from, into, .. } = s {
                std::mem::swap(from, into);
            }
        }
        return steps;
    }
    let layout = HexLayout::flat();
    let unit = layout.center_aligned_hex_corners();
    let (a, b) = (from.hex(), to.hex());
    let d = world(&layout, b - a);
    let shape = shape(board, b - a);
    let met: Vec<(f64, Contact, Hex)> = shape.iter().map(|&(t, c, h)| (t, c, h + a)).collect();

    let on_map = |h: Hex| Coord::from_hex(h, board.columns, board.rows);
    let mut steps = vec![ThreadStep::Hex(from)];
    // The last hex the thread was inside, unless it has since run along a hexside.
    let mut last_inside = Some(a);
    let mut touched: Vec<Coord> = Vec::new();
    // The thread met a vertex since the last hex it was inside.
    let mut at_vertex = false;
    let mut i = 0;
    while i < met.len() {
        let (t, kind, h) = met[i];
        match kind {
            Contact::Inside => {
                let Some(c) = on_map(h) else {
                    // Cannot happen between two hexes of a rectangular map.
                    i += 1;
                    continue;
                };
                if let Some(prev) = last_inside.and_then(on_map)
                    && let Some(side) = side_between(prev.hex(), h)
                {
                    steps.extend(touched.drain(..).map(ThreadStep::Touch));
                    steps.push(ThreadStep::Cross {
                        from: prev,
                        into: c,
                        edge: board.edge(prev, side),
                        at_vertex,
                    });
                }
                steps.extend(touched.drain(..).map(ThreadStep::Touch));
                at_vertex = false;
                steps.push(ThreadStep::Hex(c));
                last_inside = Some(h);
                i += 1;
            }
            Contact::Side => {
                // The two hexes of the hexside met at the same point.
                let mut pair = vec![h];
                let mut j = i + 1;
                while j < met.len() && (met[j].0 - t).abs() < 1e-6 && met[j].1 == Contact::Side {
                    pair.push(met[j].2);
                    j += 1;
                }
                let other = pair.get(1).copied().or_else(|| {
                    // The partner was not a candidate: find it among the neighbours.
                    h.all_neighbors().into_iter().find(|n| {
                        *n != a
                            && *n != b
                            && contact(&layout, &unit, *n - a, d)
                                .is_some_and(|(tn, k)| k == Contact::Side && (tn - t).abs() < 1e-6)
                    })
                });
                let mut hexes = [on_map(h), other.and_then(on_map)];
                hexes.sort_by_key(|c| (c.is_none(), *c));
                let edge = match (hexes[0], other) {
                    (Some(c), Some(o)) => {
                        let o = if c.hex() == h { o } else { h };
                        side_between(c.hex(), o).map(|s| board.edge(c, s))
                    }
                    _ => None,
                };
                if let Some(edge) = edge {
                    steps.extend(touched.drain(..).map(ThreadStep::Touch));
                    steps.push(ThreadStep::Along { edge, hexes });
                }
                last_inside = None;
                at_vertex = false;
                i = j;
            }
            Contact::Vertex => {
                at_vertex = true;
                if let Some(c) = on_map(h) {
                    touched.push(c);
                }
                i += 1;
            }
        }
    }
    steps
}

/// The Player Aid row of a hexside feature.
fn feature_key(f: HexsideFeature) -> &'static str {
    match f {
        HexsideFeature::Hedgerow => "hedgerow",
        HexsideFeature::Wall => "wall",
        HexsideFeature::Crest => "crest",
        HexsideFeature::Cliff => "cliff",
    }
}

/// Terrain that blocks LOS at its level (Player Aid `blocks_los`; R 14.0).
fn blocks(aid: &PlayerAid, t: Terrain) -> bool {
    aid.terrain_row(t.key()).is_some_and(|r| r.blocks_los)
}

/// Hindering Terrain (Player Aid `hindrance`; R 46.0).
fn hinders(aid: &PlayerAid, t: Terrain) -> bool {
    aid.terrain_row(t.key())
        .is_some_and(|r| r.hindrance && !r.blocks_los)
}

/// The level of the ground at the centre dot: the hill level (R 47.0), one
/// lower in a Gully (R 45.4).
pub fn ground_level(board: &Board, c: Coord) -> i8 {
    board.cell(c).map_or(0, |cell| {
        i8::try_from(cell.level).unwrap_or(i8::MAX) - i8::from(cell.terrain == Terrain::Gully)
    })
}

/// The facing of the Cave in this hex, if any (R 43.4).
pub fn cave_facing(board: &Board, c: Coord) -> Option<Spine> {
    board
        .fortifications_at(c)
        .find(|f| f.kind.is_cave())
        .and_then(|f| f.facing)
}

/// The two front hexes of a Cave (R 43.4).
fn cave_front(board: &Board, c: Coord, facing: Spine) -> [Option<Coord>; 2] {
    facing.sides().map(|s| board.neighbour(c, s))
}

/// The height a unit sees from and is seen at (R 47.2: units in buildings and
/// woods are at the height of the ground). A unit in a Cave is at the level of
/// the highest hex the Cave faces (R 43.4).
pub fn unit_level(board: &Board, c: Coord, in_cave: bool) -> i8 {
    match cave_facing(board, c).filter(|_| in_cave) {
        Some(facing) => cave_front(board, c, facing)
            .into_iter()
            .flatten()
            .map(|f| ground_level(board, f))
            .max()
            .unwrap_or_else(|| ground_level(board, c)),
        None => ground_level(board, c),
    }
}

/// How an obstacle stops the thread (R 47.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Over {
    /// Higher than both units.
    Higher,
    /// At the higher unit's level, the other unit being lower.
    SameLevel,
    /// Lower than the higher unit, higher than the other, which lies in its
    /// Blind Hexes.
    Blind,
}

/// The two ends of the thread and their heights.
struct Ends<'a> {
    board: &'a Board,
    aid: &'a PlayerAid,
    from: Coord,
    to: Coord,
    from_level: i8,
    to_level: i8,
}

impl Ends<'_> {
    fn terrain(&self, c: Coord) -> Terrain {
        self.board
            .cell(c)
            .map_or(Terrain::Open, |cell| cell.terrain)
    }

    /// Would an obstacle this high at intervening hex `at` stop the thread?
    /// R 14.0 / R 47.2: terrain higher than both blocks; terrain at the level
    /// of one unit blocks that unit's LOS to lower elevations; terrain below
    /// the higher unit and above the lower one casts Blind Hexes: one less than
    /// its distance from the higher unit per level of difference (Level 2 hill
    /// over Level 1: distance - 1; Level 3 over Level 2: distance - 1; Level 3
    /// over Level 1: distance - 2).
    fn over(&self, height: i8, at: Coord) -> Option<Over> {
        let (hi, lo) = (
            self.from_level.max(self.to_level),
            self.from_level.min(self.to_level),
        );
        if height > hi {
            return Some(Over::Higher);
        }
        if height == hi && hi > lo {
            return Some(Over::SameLevel);
        }
        if height > lo && height < hi {
            let (high, low) = if self.from_level > self.to_level {
                (self.from, self.to)
            } else {
                (self.to, self.from)
            };
            let blind = i64::from(high.distance(at)) - i64::from(hi - height);
            if i64::from(at.distance(low)) <= blind {
                return Some(Over::Blind);
            }
        }
        None
    }

    /// The obstacle an intervening hex makes: its ground, one level more when
    /// its terrain blocks LOS.
    fn height(&self, c: Coord) -> i8 {
        ground_level(self.board, c) + i8::from(blocks(self.aid, self.terrain(c)))
    }

    fn hex_blocker(&self, c: Coord) -> Option<Blocker> {
        let ground = ground_level(self.board, c);
        let height = self.height(c);
        Some(match self.over(height, c)? {
            Over::Blind => Blocker::BlindHex {
                obstacle_level: height,
            },
            _ if matches!(self.over(ground, c), Some(Over::Higher | Over::SameLevel)) => {
                Blocker::Hill { level: ground }
            }
            _ => Blocker::Terrain(self.terrain(c)),
        })
    }

    /// Would a Woods hex (a Level 1 obstacle) on this ground stop the thread
    /// here? The test of R 44.0 for Hedgerows and of R 46.0 for Hindrances.
    fn woods_would_block(&self, ground: i8, at: Coord) -> bool {
        self.over(ground + 1, at).is_some()
    }

    fn different_levels(&self) -> bool {
        self.from_level != self.to_level
    }

    /// Does Hindering Terrain `t` at intervening hex `c` count (R 46.0)? At
    /// different elevations Wheat and Kunai Grass never do; otherwise a
    /// Hindrance counts where a Level 1 obstacle in that hex would stop the
    /// thread (so never from a valley the thread passes over).
    fn hindrance_counts(&self, t: Terrain, c: Coord) -> bool {
        if self.different_levels() && matches!(t, Terrain::WheatField | Terrain::KunaiGrass) {
            return false;
        }
        self.woods_would_block(ground_level(self.board, c), c)
    }

    fn is_end(&self, c: Coord) -> bool {
        c == self.from || c == self.to
    }
}

/// Hindrances met so far (R 46.0, R 46.1).
#[derive(Default)]
struct Tally {
    /// Hexes per kind counted "one per two hexes".
    per_two: Vec<(Terrain, u8)>,
    palm_trees: u8,
    hexes: Vec<Coord>,
    walls: Vec<Edge>,
}

impl Tally {
    /// Counts one hex of Hindering Terrain; the second Palm Tree hex blocks.
    fn add(&mut self, t: Terrain, c: Coord) -> Result<(), Blocker> {
        self.hexes.push(c);
        if t == Terrain::PalmTrees {
            self.palm_trees += 1;
            if self.palm_trees >= 2 {
                return Err(Blocker::PalmTrees);
            }
            return Ok(());
        }
        // Wheat Field and Kunai Grass are one kind (R 46.0 prints them together).
        let kind = if t == Terrain::KunaiGrass {
            Terrain::WheatField
        } else {
            t
        };
        match self.per_two.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n = n.saturating_add(1),
            None => self.per_two.push((kind, 1)),
        }
        Ok(())
    }

    fn total(&self) -> u8 {
        self.per_two
            .iter()
            .fold(0u8, |sum, (_, n)| sum.saturating_add(n.div_ceil(2)))
            .saturating_add(self.palm_trees)
            .saturating_add(u8::from(!self.walls.is_empty()))
    }
}

/// Line of Sight between two units (R 14.0), symmetric (R 47.2).
///
/// Objects in the two end hexes never matter (R 14.0). In the hexes between:
/// blocking terrain and hills per R 47.2 (see [`Ends::over`]); along a hexside,
/// only what blocks on both sides (R 14.0); Hedgerows per R 44.0; Hindering
/// Terrain and Walls per R 46.0–46.1; Palm Trees block at the second hex
/// (R 46.0); Pillboxes, Bunkers, Wire and Fortifications do not block
/// (R 43.3, R 43.6); Caves see only through their front hexes (R 43.4); a unit
/// in a Stream sees only adjacent or higher units (R 45.3). Smoke is reported,
/// never blocks (R 48.0).
pub fn line_of_sight(board: &Board, aid: &PlayerAid, q: &LosQuery) -> Los {
    // Remembered by the board, for its Player Aid, for threads without
    // Smoke.
    if !q.smoke.is_empty() || !board.remembers_for(aid) {
        return trace(board, aid, q);
    }
    let key = memo_key(q);
    if let Ok(memo) = board.los_memo.0.lock()
        && let Some(los) = memo.get(&key)
    {
        return los.clone();
    }
    let los = trace(board, aid, q);
    if let Ok(mut memo) = board.los_memo.0.lock() {
        memo.insert(key, los.clone());
    }
    los
}

/// The LOS memo's key of a query without Smoke.
fn memo_key(q: &LosQuery) -> crate::map::board::LosKey {
    (q.from, q.to, q.from_in_cave, q.to_in_cave)
}

/// Whether [`line_of_sight`] is blocked, without copying a remembered
/// thread's sight. Smoke never blocks (R 48.0: it is only reported in the
/// sight), so the thread is asked without it, and remembered.
pub fn is_blocked(board: &Board, aid: &PlayerAid, q: &LosQuery) -> bool {
    if board.remembers_for(aid)
        && let Ok(memo) = board.los_memo.0.lock()
        && let Some(los) = memo.get(&memo_key(q))
    {
        return los.is_blocked();
    }
    if q.smoke.is_empty() {
        line_of_sight(board, aid, q).is_blocked()
    } else {
        let q = LosQuery {
            smoke: Vec::new(),
            ..q.clone()
        };
        line_of_sight(board, aid, &q).is_blocked()
    }
}

/// [`is_blocked`] for threads between hexes, neither end in a Cave, as a
/// table of the board's (`Board::blocked_memo`): one byte per pair of hexes
/// (0 not asked yet, 1 clear, 2 blocked), filled from [`is_blocked`] the
/// first time a pair is asked. The Op Fire check at every hex entered asks
/// it for every enemy unit; a byte read is much cheaper than the memo's
/// lock and hash lookup.
pub struct BlockedTable<'a> {
    board: &'a Board,
    aid: &'a PlayerAid,
    cells: Vec<u8>,
}

impl BlockedTable<'_> {
    /// Whether the thread from `from` to `to` is blocked (Smoke never
    /// blocks, R 48.0).
    pub fn blocked(&mut self, from: Coord, to: Coord) -> bool {
        let n = usize::from(self.board.columns) * usize::from(self.board.rows);
        let index = |c: Coord| {
            (c.col < self.board.columns && c.row < self.board.rows)
                .then(|| usize::from(c.col) * usize::from(self.board.rows) + usize::from(c.row))
        };
        let (Some(a), Some(b)) = (index(from), index(to)) else {
            return is_blocked(self.board, self.aid, &LosQuery::new(from, to));
        };
        if self.cells.is_empty() {
            return is_blocked(self.board, self.aid, &LosQuery::new(from, to));
        }
        let slot = &mut self.cells[a * n + b];
        if *slot == 0 {
            let blocked = is_blocked(self.board, self.aid, &LosQuery::new(from, to));
            *slot = if blocked { 2 } else { 1 };
        }
        *slot == 2
    }
}

/// Runs `f` with the [`BlockedTable`] of `board` and `aid`: the board's
/// own when it remembers for `aid`, else none (every pair traced).
pub fn with_blocked_table<R>(
    board: &Board,
    aid: &PlayerAid,
    f: impl FnOnce(&mut BlockedTable) -> R,
) -> R {
    let n = usize::from(board.columns) * usize::from(board.rows);
    let kept = board.remembers_for(aid);
    // Taken out while `f` runs, so that a nested call builds its own.
    let mut cells = match kept {
        true => board
            .blocked_memo
            .0
            .lock()
            .map(|mut c| std::mem::take(&mut *c))
            .unwrap_or_default(),
        false => Vec::new(),
    };
    if kept && cells.len() != n * n {
        cells = vec![0; n * n];
    }
    let mut table = BlockedTable { board, aid, cells };
    let out = f(&mut table);
    if kept && let Ok(mut c) = board.blocked_memo.0.lock() {
        *c = table.cells;
    }
    out
}

/// [`line_of_sight`] traced afresh.
fn trace(board: &Board, aid: &PlayerAid, q: &LosQuery) -> Los {
    for c in [q.from, q.to] {
        if board.cell(c).is_none() {
            return Los::Blocked {
                at: c,
                reason: Blocker::OffMap,
            };
        }
    }
    let from_cave = cave_facing(board, q.from).filter(|_| q.from_in_cave);
    let to_cave = cave_facing(board, q.to).filter(|_| q.to_in_cave);
    let smoke_at = |c: &Coord| q.smoke.contains(c);

    if q.from == q.to {
        // R 43.4: the Cave and the location above it have no LOS to each other.
        if from_cave.is_some() != to_cave.is_some() {
            return Los::Blocked {
                at: q.from,
                reason: Blocker::Cave,
            };
        }
        return Los::Seen(Sight {
            smoke: [q.from].into_iter().filter(smoke_at).collect(),
            ..Sight::default()
        });
    }

    let ends = Ends {
        board,
        aid,
        from: q.from,
        to: q.to,
        from_level: unit_level(board, q.from, q.from_in_cave),
        to_level: unit_level(board, q.to, q.to_in_cave),
    };

    // R 45.3: a unit in a Stream only sees adjacent units or higher ones.
    if q.from.distance(q.to) > 1 {
        for (c, in_cave, own, other) in [
            (q.from, from_cave.is_some(), ends.from_level, ends.to_level),
            (q.to, to_cave.is_some(), ends.to_level, ends.from_level),
        ] {
            if !in_cave && ends.terrain(c) == Terrain::Stream && other <= own {
                return Los::Blocked {
                    at: c,
                    reason: Blocker::Stream,
                };
            }
        }
    }

    let steps = thread(board, q.from, q.to);
    let last = steps.len() - 1;

    // R 43.4: the thread leaves a Cave through one of its front hexes, or
    // along a hexside of one of them ("including hexspines").
    for (c, facing, step) in [
        (
            q.from,
            from_cave,
            steps[1..last]
                .iter()
                .find(|s| !matches!(s, ThreadStep::Touch(_))),
        ),
        (
            q.to,
            to_cave,
            steps[1..last]
                .iter()
                .rev()
                .find(|s| !matches!(s, ThreadStep::Touch(_))),
        ),
    ] {
        let Some(facing) = facing else { continue };
        let front = cave_front(board, c, facing);
        let through_front = match step {
            Some(ThreadStep::Cross { from, into, .. }) => {
                let next = if *from == c { *into } else { *from };
                front.contains(&Some(next))
            }
            Some(ThreadStep::Along { hexes, .. }) => {
                hexes.iter().any(|h| h.is_some() && front.contains(h))
            }
            _ => false,
        };
        if !through_front {
            return Los::Blocked {
                at: c,
                reason: Blocker::Cave,
            };
        }
    }

    let mut tally = Tally::default();
    // R 46.0: the thread passes Hindering Terrain (or a Wall) that would
    // hinder at one level, even where different elevations make it count
    // zero.
    let mut through_hindering = false;
    let hindering_at = |t: Terrain, c: Coord, ends: &Ends| {
        hinders(aid, t) && ends.woods_would_block(ground_level(board, c), c)
    };
    for step in &steps[1..last] {
        match *step {
            ThreadStep::Hex(c) => {
                if let Some(reason) = ends.hex_blocker(c) {
                    return Los::Blocked { at: c, reason };
                }
                let t = ends.terrain(c);
                through_hindering |= hindering_at(t, c, &ends);
                if hinders(aid, t)
                    && ends.hindrance_counts(t, c)
                    && let Err(reason) = tally.add(t, c)
                {
                    return Los::Blocked { at: c, reason };
                }
            }
            ThreadStep::Along { edge, hexes } => {
                let sides: Vec<Coord> = hexes.iter().flatten().copied().collect();
                // R 14.0: blocking terrain must be seen on both sides of the
                // thread, so the lower side decides.
                if let [x, y] = sides[..] {
                    let low = if ends.height(y) < ends.height(x) {
                        y
                    } else {
                        x
                    };
                    if let Some(reason) = ends.hex_blocker(low) {
                        return Los::Blocked { at: low, reason };
                    }
                }
                let ground = sides
                    .iter()
                    .map(|c| ground_level(board, *c))
                    .min()
                    .unwrap_or(0);
                let at = sides[0];
                for f in board.hexside(edge.coord, edge.side) {
                    let Some(row) = aid.terrain_row(feature_key(*f)) else {
                        continue;
                    };
                    if row.blocks_los && ends.woods_would_block(ground, at) {
                        // R 44.0: "LOS directly along a hedgerow hex spine is blocked."
                        return Los::Blocked {
                            at,
                            reason: Blocker::Hedgerow(edge),
                        };
                    }
                    let wall = row.hindrance && !row.blocks_los;
                    through_hindering |= wall && ends.woods_would_block(ground, at);
                    if wall
                        && !ends.different_levels()
                        && ends.woods_would_block(ground, at)
                        && !tally.walls.contains(&edge)
                    {
                        tally.walls.push(edge);
                    }
                }
                for c in &sides {
                    through_hindering |= hindering_at(ends.terrain(*c), *c, &ends);
                }
                // R 46.0: on a hexside between two Hindrances only the one most
                // helpful to the target counts (Palm Trees first).
                let mut hindering: Vec<(Terrain, Coord)> = sides
                    .iter()
                    .map(|c| (ends.terrain(*c), *c))
                    .filter(|(t, c)| hinders(aid, *t) && ends.hindrance_counts(*t, *c))
                    .collect();
                hindering.sort_by_key(|(t, c)| (*t != Terrain::PalmTrees, *c));
                if let Some(&(t, c)) = hindering.first()
                    && let Err(reason) = tally.add(t, c)
                {
                    return Los::Blocked { at: c, reason };
                }
            }
            ThreadStep::Cross {
                from, into, edge, ..
            } => {
                // R 44.0 / R 46.0: the end hexes' own hexsides neither block nor hinder.
                if ends.is_end(from) || ends.is_end(into) {
                    continue;
                }
                let woods = ends.woods_would_block(ground_level(board, from), from)
                    || ends.woods_would_block(ground_level(board, into), into);
                for f in board.hexside(edge.coord, edge.side) {
                    let Some(row) = aid.terrain_row(feature_key(*f)) else {
                        continue;
                    };
                    if row.blocks_los && woods {
                        return Los::Blocked {
                            at: into,
                            reason: Blocker::Hedgerow(edge),
                        };
                    }
                    let wall = row.hindrance && !row.blocks_los;
                    through_hindering |= wall && woods;
                    if wall && !ends.different_levels() && woods && !tally.walls.contains(&edge) {
                        tally.walls.push(edge);
                    }
                }
            }
            ThreadStep::Touch(_) => {}
        }
    }

    let mut smoke: Vec<Coord> = steps
        .iter()
        .flat_map(|s| match *s {
            ThreadStep::Hex(c) | ThreadStep::Touch(c) => [Some(c), None],
            ThreadStep::Along { hexes, .. } => hexes,
            ThreadStep::Cross { .. } => [None, None],
        })
        .flatten()
        .filter(smoke_at)
        .collect();
    smoke.sort();
    smoke.dedup();
    let hindrances = tally.total();
    let mut hindering_hexes = tally.hexes;
    hindering_hexes.sort();
    let mut walls = tally.walls;
    walls.sort();
    Los::Seen(Sight {
        hindrances,
        hindering_hexes,
        walls,
        smoke,
        through_hindering,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::scenario::schema::{
        ElevationArea, FortificationKind, FortificationSpec, HexsideRun, MapSpec, TerrainArea,
    };

    fn aid() -> &'static PlayerAid {
        static AID: OnceLock<PlayerAid> = OnceLock::new();
        AID.get_or_init(|| crate::scenario::builtin_player_aid().expect("built-in Player Aid"))
    }

    /// A test map, built like a scenario's.
    struct Map(MapSpec);

    impl Map {
        fn new(columns: u8, rows: u8) -> Map {
            Map(MapSpec::open(columns, rows))
        }

        fn terrain(mut self, terrain: Terrain, hexes: &[&str]) -> Map {
            self.0.terrain.push(TerrainArea {
                terrain,
                hexes: hexes.iter().map(|h| h.to_string()).collect(),
            });
            self
        }

        fn level(mut self, level: u8, hexes: &[&str]) -> Map {
            self.0.elevation.push(ElevationArea {
                level,
                hexes: hexes.iter().map(|h| h.to_string()).collect(),
            });
            self
        }

        fn hexside(mut self, feature: HexsideFeature, hex: &str, sides: &[Side6]) -> Map {
            self.0.hexsides.push(HexsideRun {
                feature,
                hex: hex.into(),
                sides: sides.to_vec(),
            });
            self
        }

        fn fortification(
            mut self,
            kind: FortificationKind,
            at: &str,
            facing: Option<Spine>,
        ) -> Map {
            self.0.fortifications.push(FortificationSpec {
                kind,
                at: at.into(),
                facing,
                concealed: false,
            });
            self
        }

        fn board(&self) -> Board {
            Board::from_map(&self.0)
        }
    }

    fn c(label: &str) -> Coord {
        Coord::parse(label, 26, 99).unwrap()
    }

    fn labels(cs: &[Coord]) -> Vec<String> {
        cs.iter().map(|c| c.label()).collect()
    }

    /// Both directions agree: blocked both ways, or the same Sight (R 47.2).
    fn assert_symmetric(b: &Board, q: &LosQuery) -> (Los, Los) {
        let there = line_of_sight(b, aid(), q);
        let back = line_of_sight(b, aid(), &q.reversed());
        match (&there, &back) {
            (Los::Blocked { .. }, Los::Blocked { .. }) => {}
            (Los::Seen(x), Los::Seen(y)) => assert_eq!(x, y, "{q:?}"),
            _ => panic!("not symmetric for {q:?}: {there:?} / {back:?}"),
        }
        (there, back)
    }

    fn query(b: &Board, q: LosQuery) -> Los {
        assert_symmetric(b, &q).0
    }

    fn los(b: &Board, from: &str, to: &str) -> Los {
        query(b, LosQuery::new(c(from), c(to)))
    }

    fn seen(l: &Los) -> Sight {
        l.sight()
            .unwrap_or_else(|| panic!("expected LOS, got {l:?}"))
            .clone()
    }

    fn clear(b: &Board, from: &str, to: &str) {
        let s = seen(&los(b, from, to));
        assert!(s.is_clear(), "{from}-{to}: {s:?}");
    }

    fn blocked(l: Los) -> (String, Blocker) {
        match l {
            Los::Blocked { at, reason } => (at.label(), reason),
            Los::Seen(s) => panic!("expected no LOS, got {s:?}"),
        }
    }

    fn edge(b: &Board, hex: &str, side: Side6) -> Edge {
        b.edge(c(hex), side)
    }

    /// The thread in short: `C3`, `C3>D3` (crossing, `*` at a vertex),
    /// `D2|D3` (along a hexside), `~B2` (touching a vertex).
    fn sketch(steps: &[ThreadStep]) -> Vec<String> {
        steps
            .iter()
            .map(|s| match s {
                ThreadStep::Hex(c) => c.label(),
                ThreadStep::Cross {
                    from,
                    into,
                    at_vertex,
                    ..
                } => format!(
                    "{}>{}{}",
                    from.label(),
                    into.label(),
                    if *at_vertex { "*" } else { "" }
                ),
                ThreadStep::Along { hexes, .. } => hexes
                    .iter()
                    .map(|h| h.map_or("-".to_string(), Coord::label))
                    .collect::<Vec<_>>()
                    .join("|"),
                ThreadStep::Touch(c) => format!("~{}", c.label()),
            })
            .collect()
    }

    // ---- R 14.0 ----

    #[test]
    fn r14_terrain_blocks_per_the_player_aid_but_not_in_the_end_hexes() {
        // R 14.0 names Buildings, Woods, Jungle and Swamp; R 52.0 Swamp; Huts
        // are Buildings (R 40.1). Hindering and flat terrain does not block.
        for t in [
            Terrain::Woods,
            Terrain::WoodenBuilding,
            Terrain::StoneBuilding,
            Terrain::Huts,
            Terrain::Jungle,
            Terrain::Swamp,
        ] {
            let b = Map::new(6, 8).terrain(t, &["C3"]).board();
            assert_eq!(
                blocked(los(&b, "C1", "C5")),
                ("C3".into(), Blocker::Terrain(t)),
                "{t:?}"
            );
            assert_eq!(
                blocked(los(&b, "C5", "C1")),
                ("C3".into(), Blocker::Terrain(t))
            );
            // Objects in the firing and target hexes do not impact LOS.
            clear(&b, "C3", "C5");
            clear(&b, "C1", "C3");
        }
        for t in [
            Terrain::Open,
            Terrain::Road,
            Terrain::Stream,
            Terrain::Surf,
            Terrain::Ocean,
            Terrain::Sandbar,
            Terrain::River,
        ] {
            let b = Map::new(6, 8).terrain(t, &["C3"]).board();
            clear(&b, "C1", "C5");
        }
        for t in [
            Terrain::Orchard,
            Terrain::WheatField,
            Terrain::KunaiGrass,
            Terrain::PalmTrees,
        ] {
            let b = Map::new(6, 8).terrain(t, &["C3"]).board();
            assert_eq!(seen(&los(&b, "C1", "C5")).hindrances, 1, "{t:?}");
        }
    }

    #[test]
    fn r14_thread_along_a_hexside_is_blocked_only_by_terrain_on_both_sides() {
        // C3 and E3 sit on one horizontal line: the thread runs exactly along
        // the D2/D3 hexside.
        let b = Map::new(6, 6).board();
        assert_eq!(sketch(&thread(&b, c("C3"), c("E3"))), ["C3", "D2|D3", "E3"]);
        assert_eq!(sketch(&thread(&b, c("E3"), c("C3"))), ["E3", "D2|D3", "C3"]);
        let one = Map::new(6, 6).terrain(Terrain::Woods, &["D2"]).board();
        clear(&one, "C3", "E3");
        let other = Map::new(6, 6).terrain(Terrain::Woods, &["D3"]).board();
        clear(&other, "C3", "E3");
        let both = Map::new(6, 6)
            .terrain(Terrain::Woods, &["D2"])
            .terrain(Terrain::StoneBuilding, &["D3"])
            .board();
        assert!(matches!(
            blocked(los(&both, "C3", "E3")),
            (_, Blocker::Terrain(Terrain::Woods | Terrain::StoneBuilding))
        ));
        // A hill on one side, woods on the other: both block at Level 0.
        let mixed = Map::new(6, 6)
            .terrain(Terrain::Woods, &["D2"])
            .level(1, &["D3"])
            .board();
        assert!(los(&mixed, "C3", "E3").is_blocked());
    }

    #[test]
    fn r14_thread_through_a_vertex_touches_the_third_hex_only() {
        // A1 to B5 passes exactly through the vertices A2/B2/A3 and
        // B3/A4/B4; B2 and A4 are only touched there.
        let plain = Map::new(4, 6).board();
        assert_eq!(
            sketch(&thread(&plain, c("A1"), c("B5"))),
            [
                "A1", "A1>A2", "A2", "~B2", "A2>A3*", "A3", "A3>B3", "B3", "~A4", "B3>B4*", "B4",
                "B4>B5", "B5"
            ]
        );
        // Woods seen on one side of the thread only: no block (R 14.0).
        let woods = Map::new(4, 6)
            .terrain(Terrain::Woods, &["B2", "A4"])
            .board();
        clear(&woods, "A1", "B5");
        // A hedgerow on the hexside crossed at the vertex is crossed.
        let crossed = Map::new(4, 6)
            .hexside(HexsideFeature::Hedgerow, "A2", &[Side6::S])
            .board();
        assert_eq!(
            blocked(los(&crossed, "A1", "B5")),
            (
                "A3".into(),
                Blocker::Hedgerow(edge(&crossed, "A2", Side6::S))
            )
        );
        // The other two hexsides meeting at that vertex are not crossed.
        let beside = Map::new(4, 6)
            .hexside(HexsideFeature::Hedgerow, "B2", &[Side6::Sw, Side6::Nw])
            .board();
        clear(&beside, "A1", "B5");
        // R 48.0: Smoke in a hex touched at a vertex impacts the fire.
        let s = seen(&query(
            &plain,
            LosQuery {
                smoke: vec![c("B2")],
                ..LosQuery::new(c("A1"), c("B5"))
            },
        ));
        assert_eq!(labels(&s.smoke), ["B2"]);
    }

    #[test]
    fn r14_thread_clipping_a_hex_corner_crosses_that_hex() {
        // A1 to B4 clips the western corner of B2, a hex hexx's sampled line
        // (A1 A2 A3 B3 B4) leaves out. The thread is the rulebook's: terrain
        // filling B2 lies on both sides of it there.
        let plain = Map::new(4, 6).board();
        let line: Vec<String> = c("A1")
            .hex()
            .line_to(c("B4").hex())
            .map(|h| Coord::from_hex(h, 4, 6).unwrap().label())
            .collect();
        assert_eq!(line, ["A1", "A2", "A3", "B3", "B4"]);
        assert_eq!(
            sketch(&thread(&plain, c("A1"), c("B4"))),
            [
                "A1", "A1>A2", "A2", "A2>B2", "B2", "B2>A3", "A3", "A3>B3", "B3", "B3>B4", "B4"
            ]
        );
        let woods = Map::new(4, 6).terrain(Terrain::Woods, &["B2"]).board();
        assert_eq!(
            blocked(los(&woods, "A1", "B4")),
            ("B2".into(), Blocker::Terrain(Terrain::Woods))
        );
    }

    // ---- R 47.2: the Map 19 example ----

    /// The Map 19 section of R 47.2, as far as the text gives it: Level 2 at
    /// D3, E3, E4, C8; Level 1 at C5, C6, C7, D4, D5 (with a building), D6,
    /// D7, E5, E6; Level 0 elsewhere (E7, E8…).
    fn map19() -> Map {
        Map::new(6, 10)
            .level(2, &["D3", "E3", "E4", "C8"])
            .level(1, &["C5:C7", "D4:D7", "E5:E6"])
            .terrain(Terrain::WoodenBuilding, &["D5"])
    }

    #[test]
    fn r47_2_map19_example() {
        let b = map19().board();
        // C6 is a Level 1 Hill. It can see C7, D6, E6 (E6 along the D5/D6
        // hexside: the building is on one side only).
        clear(&b, "C6", "C7");
        clear(&b, "C6", "D6");
        assert_eq!(sketch(&thread(&b, c("C6"), c("E6"))), ["C6", "D5|D6", "E6"]);
        clear(&b, "C6", "E6");
        // C6 can not see E5: the building on the Level 1 Hill is a Level 2 obstacle.
        assert_eq!(
            blocked(los(&b, "C6", "E5")),
            ("D5".into(), Blocker::Terrain(Terrain::WoodenBuilding))
        );
        // C6 can not see E7: D6 is Level 1 like C6, so blocks LOS to lower elevations.
        assert_eq!(
            blocked(los(&b, "C6", "E7")),
            ("D6".into(), Blocker::Hill { level: 1 })
        );
        // E3 can not see E6, C5: blocked by the Level 2 hexes E4 and D3.
        assert_eq!(
            blocked(los(&b, "E3", "E6")),
            ("E4".into(), Blocker::Hill { level: 2 })
        );
        assert_eq!(
            blocked(los(&b, "E3", "C5")),
            ("D3".into(), Blocker::Hill { level: 2 })
        );
        // E4 can see D4, D5 and E5.
        clear(&b, "E4", "D4");
        clear(&b, "E4", "D5");
        clear(&b, "E4", "E5");
        // E4 can not see C7: the building in D5 is at Level 2, E4's level.
        assert_eq!(
            blocked(los(&b, "E4", "C7")),
            ("D5".into(), Blocker::Terrain(Terrain::WoodenBuilding))
        );
        // E4 can see C8: C8 is also at Level 2.
        clear(&b, "E4", "C8");
        // E4 cannot see E7 but can see E8: E6 (Level 1, 2 hexes away) makes 1 Blind Hex.
        assert_eq!(
            blocked(los(&b, "E4", "E7")),
            ("E6".into(), Blocker::BlindHex { obstacle_level: 1 })
        );
        assert_eq!(
            blocked(los(&b, "E7", "E4")),
            ("E6".into(), Blocker::BlindHex { obstacle_level: 1 })
        );
        clear(&b, "E4", "E8");
        // C8 can see D7 and E7: D7 is one hex away, so no Blind Hex.
        clear(&b, "C8", "D7");
        clear(&b, "C8", "E7");
    }

    #[test]
    fn r47_2_map19_woods_on_the_level1_hill_at_e6() {
        // "If E6 had Woods on the Level 1 Hill, it would be Level 2 Terrain. E4
        // would not be able to see E8 or any other non-Level 2 Hills in that row."
        let b = map19().terrain(Terrain::Woods, &["E6"]).board();
        for target in ["E7", "E8", "E9"] {
            assert_eq!(
                blocked(los(&b, "E4", target)),
                ("E6".into(), Blocker::Terrain(Terrain::Woods)),
                "{target}"
            );
        }
        clear(&b, "E4", "E6");
    }

    #[test]
    fn r47_2_map19_woods_on_level0_at_e6() {
        // "If E6 was Level 0 (green), but had woods in it … E4 would then be able
        // to see E5, E6 and E8. E7 would remain a Blind Hex."
        let mut m = map19();
        m.0.elevation[1].hexes = vec!["C5:C7".into(), "D4:D7".into(), "E5".into()];
        let b = m.terrain(Terrain::Woods, &["E6"]).board();
        clear(&b, "E4", "E5");
        clear(&b, "E4", "E6");
        clear(&b, "E4", "E8");
        assert_eq!(
            blocked(los(&b, "E4", "E7")),
            ("E6".into(), Blocker::BlindHex { obstacle_level: 1 })
        );
    }

    #[test]
    fn r47_2_level3_blind_hexes() {
        // Level 3 over Level 2 terrain: one less than the distance.
        let b = Map::new(4, 10).level(3, &["C1"]).level(2, &["C4"]).board();
        for target in ["C5", "C6"] {
            assert_eq!(
                blocked(los(&b, "C1", target)),
                ("C4".into(), Blocker::BlindHex { obstacle_level: 2 }),
                "{target}"
            );
        }
        clear(&b, "C1", "C7");
        // Level 3 over Level 1 terrain: two less than the distance.
        let b = Map::new(4, 10)
            .level(3, &["C1"])
            .terrain(Terrain::Woods, &["C4"])
            .board();
        assert_eq!(
            blocked(los(&b, "C1", "C5")),
            ("C4".into(), Blocker::BlindHex { obstacle_level: 1 })
        );
        clear(&b, "C1", "C6");
        // The same woods seen from Level 2: one less than the distance.
        let b = Map::new(4, 10)
            .level(2, &["C1"])
            .terrain(Terrain::Woods, &["C4"])
            .board();
        assert!(los(&b, "C1", "C6").is_blocked());
        clear(&b, "C1", "C7");
    }

    #[test]
    fn r47_2_building_at_the_firers_level_blocks_lower_ground() {
        // A building on Level 0 is Level 1 terrain: from a Level 1 Hill it
        // blocks LOS to Level 0, not to another Level 1 Hill.
        let low = Map::new(4, 8)
            .level(1, &["C1"])
            .terrain(Terrain::StoneBuilding, &["C3"])
            .board();
        assert_eq!(
            blocked(los(&low, "C1", "C5")),
            ("C3".into(), Blocker::Terrain(Terrain::StoneBuilding))
        );
        let high = Map::new(4, 8)
            .level(1, &["C1", "C5"])
            .terrain(Terrain::StoneBuilding, &["C3"])
            .board();
        clear(&high, "C1", "C5");
        // From Level 2 it casts one Blind Hex (2 hexes away).
        let l2 = Map::new(4, 8)
            .level(2, &["C1"])
            .terrain(Terrain::StoneBuilding, &["C3"])
            .board();
        assert_eq!(
            blocked(los(&l2, "C1", "C4")),
            ("C3".into(), Blocker::BlindHex { obstacle_level: 1 })
        );
        clear(&l2, "C1", "C5");
        // R 47.2: a unit in a building or woods is at ground height, not on top.
        assert_eq!(unit_level(&low, c("C3"), false), 0);
        let in_woods = Map::new(4, 8)
            .terrain(Terrain::Woods, &["C1", "C3", "C5"])
            .board();
        assert!(los(&in_woods, "C1", "C5").is_blocked());
    }

    // ---- R 44.0 Hedgerows ----

    /// The Hedgerow example of R 44.0 (the picture is not in the text; this
    /// places the American Squad in C3 and the hexsides so that each case holds,
    /// with case 4 on the D2/E3 hexside as printed).
    fn hedgerows() -> Board {
        Map::new(8, 7)
            .hexside(HexsideFeature::Hedgerow, "C3", &[Side6::Se])
            .hexside(HexsideFeature::Hedgerow, "D2", &[Side6::S, Side6::Se])
            .hexside(HexsideFeature::Hedgerow, "F4", &[Side6::Se])
            .board()
    }

    #[test]
    fn r44_hedgerow_example() {
        let b = hedgerows();
        // Good LOS to the adjacent German Squad across the hedgerow.
        clear(&b, "C3", "D3");
        // 1. Blocked: along a hedgerow hexspine (D2/D3).
        assert_eq!(sketch(&thread(&b, c("C3"), c("E3"))), ["C3", "D2|D3", "E3"]);
        assert_eq!(
            blocked(los(&b, "C3", "E3")),
            ("D2".into(), Blocker::Hedgerow(edge(&b, "D2", Side6::S)))
        );
        // 2. Good LOS: the hedgerow crossed is the American's own.
        assert_eq!(
            sketch(&thread(&b, c("C3"), c("E4"))),
            ["C3", "C3>D3", "D3", "D3>E4", "E4"]
        );
        clear(&b, "C3", "E4");
        // 3. Good LOS: one hedgerow adjacent to each Squad.
        assert_eq!(
            sketch(&thread(&b, c("C3"), c("G5"))),
            [
                "C3", "C3>D3", "D3", "D3>E4", "E4", "E4>F4", "F4", "F4>G5", "G5"
            ]
        );
        clear(&b, "C3", "G5");
        // 4. Blocked: crosses the D2/E3 hexside, adjacent to neither.
        assert_eq!(
            sketch(&thread(&b, c("C3"), c("F2"))),
            ["C3", "C3>D2", "D2", "D2>E3", "E3", "E3>F2", "F2"]
        );
        let e = Blocker::Hedgerow(edge(&b, "D2", Side6::Se));
        assert_eq!(blocked(los(&b, "C3", "F2")), ("E3".into(), e));
        assert_eq!(
            line_of_sight(&b, aid(), &LosQuery::new(c("F2"), c("C3"))),
            Los::Blocked {
                at: c("D2"),
                reason: e
            }
        );
    }

    #[test]
    fn r44_hedgerow_at_different_elevations_blocks_where_woods_would() {
        // Hedgerow on the C2/C3 hexside, Level 0; firer on a Level 2 hill at C1.
        let m = |firer: u8| {
            Map::new(4, 8)
                .level(firer, &["C1"])
                .hexside(HexsideFeature::Hedgerow, "C2", &[Side6::S])
                .board()
        };
        let l2 = m(2);
        // Woods in C3 (2 hexes away) would make C4 a Blind Hex.
        assert_eq!(
            blocked(los(&l2, "C1", "C4")),
            ("C3".into(), Blocker::Hedgerow(edge(&l2, "C2", Side6::S)))
        );
        clear(&l2, "C1", "C5");
        // Exception: the target's hex includes that hexside.
        clear(&l2, "C1", "C3");
        // From Level 1 the hedgerow is at the firer's level: blocks to Level 0.
        let l1 = m(1);
        assert!(los(&l1, "C1", "C5").is_blocked());
        assert!(los(&l1, "C1", "C7").is_blocked());
        // Between two Level 1 hills, a hedgerow down in the Level 0 valley
        // is no higher than either unit.
        let valley = Map::new(4, 8)
            .level(1, &["C1", "C5"])
            .hexside(HexsideFeature::Hedgerow, "C2", &[Side6::S])
            .board();
        clear(&valley, "C1", "C5");
    }

    // ---- R 46.0 / 46.1 Hindrances ----

    #[test]
    fn r46_orchard_wheat_kunai_one_hindrance_per_two_hexes_rounded_up() {
        let count = |m: Map| seen(&los(&m.board(), "C1", "C7")).hindrances;
        let orchard = |hexes: &[&str]| count(Map::new(4, 8).terrain(Terrain::Orchard, hexes));
        assert_eq!(orchard(&["C2"]), 1);
        assert_eq!(orchard(&["C2", "C3"]), 1);
        assert_eq!(orchard(&["C2", "C3", "C4"]), 2);
        assert_eq!(orchard(&["C2:C5"]), 2);
        assert_eq!(orchard(&["C2:C6"]), 3);
        // The firing and target hexes cause no Hindrance.
        assert_eq!(orchard(&["C1", "C7"]), 0);
        // Counted per kind: one Orchard and one Wheat Field hex are two.
        assert_eq!(
            count(
                Map::new(4, 8)
                    .terrain(Terrain::Orchard, &["C2"])
                    .terrain(Terrain::WheatField, &["C4"])
            ),
            2
        );
        // Wheat Field and Kunai Grass are printed as one kind.
        assert_eq!(
            count(
                Map::new(4, 8)
                    .terrain(Terrain::KunaiGrass, &["C2"])
                    .terrain(Terrain::WheatField, &["C4"])
            ),
            1
        );
        let b = Map::new(4, 8)
            .terrain(Terrain::WheatField, &["C2", "C5"])
            .board();
        assert_eq!(
            labels(&seen(&los(&b, "C1", "C7")).hindering_hexes),
            ["C2", "C5"]
        );
    }

    #[test]
    fn r46_palm_trees_one_hindrance_the_second_blocks() {
        let one = Map::new(4, 8).terrain(Terrain::PalmTrees, &["C3"]).board();
        let s = seen(&los(&one, "C1", "C5"));
        assert_eq!(
            (s.hindrances, labels(&s.hindering_hexes)),
            (1, vec!["C3".to_string()])
        );
        let two = Map::new(4, 8)
            .terrain(Terrain::PalmTrees, &["C2", "C3"])
            .board();
        assert_eq!(
            blocked(los(&two, "C1", "C5")),
            ("C3".into(), Blocker::PalmTrees)
        );
        assert_eq!(
            blocked(los(&two, "C5", "C1")),
            ("C2".into(), Blocker::PalmTrees)
        );
        // A second Palm Tree hex can be fired into; the firer's own is no Hindrance.
        let into = Map::new(4, 8)
            .terrain(Terrain::PalmTrees, &["C1", "C3", "C5"])
            .board();
        assert_eq!(seen(&los(&into, "C1", "C5")).hindrances, 1);
    }

    #[test]
    fn r46_different_elevations_ignore_wheat_and_keep_orchard_where_woods_would_block() {
        // Firer on a Level 1 hill: woods in C3 would block, so an Orchard there
        // hinders; Wheat never does at different elevations.
        let m = |t: Terrain| Map::new(4, 8).level(1, &["C1"]).terrain(t, &["C3"]).board();
        assert_eq!(seen(&los(&m(Terrain::Orchard), "C1", "C5")).hindrances, 1);
        assert_eq!(
            seen(&los(&m(Terrain::WheatField), "C1", "C5")).hindrances,
            0
        );
        assert_eq!(
            seen(&los(&m(Terrain::KunaiGrass), "C1", "C5")).hindrances,
            0
        );
        // From Level 2 an Orchard next to the firer (no Blind Hex) does not
        // hinder; one that would cast its Blind Hex over the target does.
        let l2 = |at: &str| {
            Map::new(4, 8)
                .level(2, &["C1"])
                .terrain(Terrain::Orchard, &[at])
                .board()
        };
        assert_eq!(seen(&los(&l2("C2"), "C1", "C6")).hindrances, 0);
        assert_eq!(seen(&los(&l2("C5"), "C1", "C6")).hindrances, 1);
        // Palm Trees follow the same test: from Level 2, two Palm Tree hexes
        // next to the firer neither hinder nor block.
        let palms = Map::new(4, 8)
            .level(2, &["C1"])
            .terrain(Terrain::PalmTrees, &["C2"])
            .board();
        assert_eq!(seen(&los(&palms, "C1", "C6")).hindrances, 0);
        // Two hills over a Level 0 valley of Wheat: nothing in the valley counts.
        let valley = Map::new(4, 8)
            .level(1, &["C1", "C5"])
            .terrain(Terrain::WheatField, &["C2:C4"])
            .board();
        clear(&valley, "C1", "C5");
    }

    /// R 46.0: "Even if the Hindrance is zero, a unit … fired at through
    /// Hindering Terrain by Direct Fire is never considered moving in Open
    /// Ground." From a Level 1 hill over Wheat or Kunai Grass the Hindrance
    /// is zero, yet the thread is marked as passing through it; over open
    /// ground it is not.
    #[test]
    fn r46_0_a_zero_hindrance_still_marks_the_thread() {
        let m = |t: Terrain| Map::new(4, 8).level(1, &["C1"]).terrain(t, &["C3"]).board();
        for t in [Terrain::WheatField, Terrain::KunaiGrass] {
            let s = seen(&los(&m(t), "C1", "C5"));
            assert_eq!((s.hindrances, s.through_hindering), (0, true), "{t:?}");
        }
        assert!(!seen(&los(&m(Terrain::Open), "C1", "C5")).through_hindering);
    }

    #[test]
    fn r46_hexside_between_two_hindrances_counts_once() {
        // C3 to G3 runs along D2/D3 and F2/F3.
        let b = Map::new(8, 5).board();
        assert_eq!(
            sketch(&thread(&b, c("C3"), c("G3"))),
            ["C3", "D2|D3", "E3", "F2|F3", "G3"]
        );
        // Orchards in D2, D3 and E3: the hexside counts as one hex, so two
        // hexes, one Hindrance (three hexes would be two).
        let orchards = Map::new(8, 5)
            .terrain(Terrain::Orchard, &["D2", "D3", "E3"])
            .board();
        let s = seen(&los(&orchards, "C3", "G3"));
        assert_eq!(
            (s.hindrances, labels(&s.hindering_hexes)),
            (1, vec!["D2".into(), "E3".into()])
        );
        // Palm Trees on both sides of one hexside are one Palm Tree hex: no block.
        let palms = Map::new(8, 5)
            .terrain(Terrain::PalmTrees, &["D2", "D3"])
            .board();
        assert_eq!(seen(&los(&palms, "C3", "G3")).hindrances, 1);
        // Palm Trees beside an Orchard: the Palm Trees count (more helpful).
        let mixed = Map::new(8, 5)
            .terrain(Terrain::Orchard, &["D2"])
            .terrain(Terrain::PalmTrees, &["D3", "F2"])
            .board();
        assert_eq!(
            blocked(los(&mixed, "C3", "G3")),
            ("F2".into(), Blocker::PalmTrees)
        );
        // A Hindrance on one side only still counts ("even hexsides").
        let single = Map::new(8, 5).terrain(Terrain::Orchard, &["F3"]).board();
        assert_eq!(seen(&los(&single, "C3", "G3")).hindrances, 1);
    }

    #[test]
    fn r46_1_walls_one_hindrance_not_from_the_end_hexes() {
        let walls = |hexsides: &[(&str, Side6)], firer: u8| {
            let mut m = Map::new(4, 8).level(firer, &["C1"]);
            for (hex, side) in hexsides {
                m = m.hexside(HexsideFeature::Wall, hex, &[*side]);
            }
            m.board()
        };
        let b = walls(&[("C2", Side6::S)], 0);
        let s = seen(&los(&b, "C1", "C5"));
        assert_eq!(
            (s.hindrances, s.walls.clone()),
            (1, vec![edge(&b, "C2", Side6::S)])
        );
        // Any number of intervening Walls is one Hindrance.
        let b = walls(&[("C2", Side6::S), ("C3", Side6::S)], 0);
        assert_eq!(seen(&los(&b, "C1", "C5")).hindrances, 1);
        // Walls of the firing or target hex do not hinder (the -2 "directly
        // behind" is a fire modifier, not LOS).
        clear(&walls(&[("C1", Side6::S)], 0), "C1", "C5");
        clear(&walls(&[("C4", Side6::S)], 0), "C1", "C5");
        // Different elevations: Walls are ignored.
        clear(&walls(&[("C2", Side6::S)], 1), "C1", "C5");
    }

    // ---- R 48.0 Smoke ----

    #[test]
    fn r48_smoke_is_reported_and_never_blocks() {
        let b = Map::new(6, 8).board();
        let smoke = |from: &str, to: &str, smoke: &[&str]| {
            seen(&query(
                &b,
                LosQuery {
                    smoke: smoke.iter().map(|s| c(s)).collect(),
                    ..LosQuery::new(c(from), c(to))
                },
            ))
        };
        assert_eq!(labels(&smoke("C1", "C5", &["C3"]).smoke), ["C3"]);
        assert_eq!(labels(&smoke("C1", "C5", &["C1"]).smoke), ["C1"]);
        assert_eq!(
            labels(&smoke("C1", "C5", &["C5", "C4"]).smoke),
            ["C4", "C5"]
        );
        assert_eq!(smoke("C1", "C5", &["D3", "B3"]).smoke, []);
        // Along a hexside: Smoke on either side counts.
        assert_eq!(labels(&smoke("C3", "E3", &["D2"]).smoke), ["D2"]);
        let s = smoke("C1", "C5", &["C2", "C3"]);
        assert_eq!((s.hindrances, s.is_clear()), (0, false));
        // Smoke adds nothing to a blocked thread.
        let woods = Map::new(6, 8).terrain(Terrain::Woods, &["C3"]).board();
        let q = LosQuery {
            smoke: vec![c("C2")],
            ..LosQuery::new(c("C1"), c("C5"))
        };
        assert!(query(&woods, q).is_blocked());
    }

    // ---- R 43 Fortifications ----

    #[test]
    fn r43_pillboxes_bunkers_foxholes_wire_do_not_block() {
        for kind in [
            FortificationKind::Pillbox,
            FortificationKind::Bunker,
            FortificationKind::Foxhole,
            FortificationKind::Wire,
        ] {
            let b = Map::new(4, 8).fortification(kind, "C3", None).board();
            clear(&b, "C1", "C5");
        }
    }

    /// A Level 1 hill with a Cave in D3 facing its SW hexspine: front hexes
    /// D4 and C4 (Level 0).
    fn cave() -> Map {
        Map::new(8, 9)
            .level(1, &["D1:D3", "C3", "E3"])
            .fortification(FortificationKind::Cave, "D3", Some(Spine::Sw))
    }

    fn from_cave(b: &Board, to: &str) -> Los {
        query(
            b,
            LosQuery {
                from_in_cave: true,
                ..LosQuery::new(c("D3"), c(to))
            },
        )
    }

    #[test]
    fn r43_4_cave_sees_only_through_its_front_hexes() {
        let b = cave().board();
        // Through D4, through C4, along the facing hexspine between them, and
        // along a hexside of a front hex ("including hexspines").
        for (to, path) in [
            (
                "D6",
                vec!["D3", "D3>D4", "D4", "D4>D5", "D5", "D5>D6", "D6"],
            ),
            ("B4", vec!["D3", "D3>C4", "C4", "C4>B4", "B4"]),
            ("C5", vec!["D3", "C4|D4", "C5"]),
            ("E5", vec!["D3", "D4|E4", "E5"]),
            ("D4", vec!["D3", "D3>D4", "D4"]),
        ] {
            assert_eq!(sketch(&thread(&b, c("D3"), c(to))), path);
            assert!(seen(&from_cave(&b, to)).is_clear(), "{to}");
        }
        // Any other way out is blocked, adjacent hexes included.
        assert_eq!(sketch(&thread(&b, c("D3"), c("F3"))), ["D3", "E3|E4", "F3"]);
        for to in ["F3", "B2", "D1", "E4", "C3"] {
            assert_eq!(
                blocked(from_cave(&b, to)),
                ("D3".into(), Blocker::Cave),
                "{to}"
            );
        }
        // The same hexes from the location above the Cave see normally.
        clear(&b, "D3", "E4");
        // The Cave and the location above it have no LOS to each other.
        assert_eq!(blocked(from_cave(&b, "D3")), ("D3".into(), Blocker::Cave));
    }

    #[test]
    fn r43_4_cave_is_at_the_level_of_the_highest_hex_it_faces() {
        let b = cave()
            .level(1, &["D7"])
            .terrain(Terrain::Woods, &["D5"])
            .board();
        assert_eq!(unit_level(&b, c("D3"), true), 0);
        assert_eq!(unit_level(&b, c("D3"), false), 1);
        // Above the Cave (Level 1) the woods in D5 are no higher than D7 (Level 1).
        clear(&b, "D3", "D7");
        // In the Cave (Level 0) they are at the target's level, above the Cave.
        assert_eq!(
            blocked(from_cave(&b, "D7")),
            ("D5".into(), Blocker::Terrain(Terrain::Woods))
        );
    }

    // ---- R 45 Water ----

    #[test]
    fn r45_3_stream_units_see_only_adjacent_or_higher_units() {
        let b = Map::new(4, 8)
            .terrain(Terrain::Stream, &["C3"])
            .level(1, &["C7"])
            .board();
        assert_eq!(blocked(los(&b, "C3", "C6")), ("C3".into(), Blocker::Stream));
        assert_eq!(blocked(los(&b, "C6", "C3")), ("C3".into(), Blocker::Stream));
        clear(&b, "C3", "C4");
        clear(&b, "C3", "C7");
        // The Stream between two units is no obstacle.
        clear(&b, "C1", "C5");
    }

    #[test]
    fn r45_4_gully_is_level_minus_one() {
        let b = Map::new(4, 10).terrain(Terrain::Gully, &["C4:C6"]).board();
        assert_eq!(unit_level(&b, c("C4"), false), -1);
        // Into the Gully from an adjacent hex, and along it.
        clear(&b, "C3", "C4");
        clear(&b, "C4", "C6");
        // Not over the Level 0 edge from further away.
        assert_eq!(
            blocked(los(&b, "C1", "C4")),
            ("C2".into(), Blocker::Hill { level: 0 })
        );
        assert_eq!(
            blocked(los(&b, "C4", "C8")),
            ("C7".into(), Blocker::Hill { level: 0 })
        );
    }

    // ---- the built-in scenarios ----

    fn scenario_board(name: &str) -> Board {
        let roster = crate::scenario::builtin_roster().expect("roster");
        let loaded = crate::scenario::load_with(
            name,
            &roster,
            aid(),
            crate::rules::setup::setup_concealment_problems,
        )
        .expect(name);
        Board::from_map(&loaded.scenario.map)
    }

    #[test]
    fn r47_2_los_works_both_ways_on_the_scenario_maps() {
        for name in ["training", "guadalcanal"] {
            let b = scenario_board(name);
            let coords: Vec<Coord> = b.coords().collect();
            let caves: Vec<Coord> = coords
                .iter()
                .copied()
                .filter(|c| cave_facing(&b, *c).is_some())
                .collect();
            let smoke = vec![coords[37], coords[101], coords[150]];
            let (mut seen_n, mut blocked_n, mut hindered_n, mut smoked_n) = (0, 0, 0, 0);
            for &from in &coords {
                for &to in &coords {
                    let mut qs = vec![LosQuery {
                        smoke: smoke.clone(),
                        ..LosQuery::new(from, to)
                    }];
                    if caves.contains(&from) {
                        qs.push(LosQuery {
                            from_in_cave: true,
                            ..LosQuery::new(from, to)
                        });
                    }
                    for q in qs {
                        match assert_symmetric(&b, &q).0 {
                            Los::Blocked { .. } => blocked_n += 1,
                            Los::Seen(s) => {
                                seen_n += 1;
                                hindered_n += usize::from(s.hindrances > 0);
                                smoked_n += usize::from(!s.smoke.is_empty());
                            }
                        }
                    }
                }
            }
            assert!(
                seen_n > 1000 && blocked_n > 1000 && hindered_n > 100 && smoked_n > 100,
                "{name}: {seen_n} seen, {blocked_n} blocked, {hindered_n} hindered, {smoked_n} smoke"
            );
        }
    }

    #[test]
    fn thread_shapes_worked_out_once_per_offset_match_every_pair_on_the_scenario_maps() {
        for name in [
            "training",
            "guadalcanal",
            "alligator_creek",
            "crossroads_gun",
            "peleliu",
        ] {
            let b = scenario_board(name);
            let coords: Vec<Coord> = b.coords().collect();
            for &from in &coords {
                for &to in coords.iter().filter(|to| **to > from) {
                    let (a, z) = (from.hex(), to.hex());
                    let moved: Met = shape(&b, z - a)
                        .iter()
                        .map(|&(t, c, h)| (t, c, h + a))
                        .collect();
                    assert_eq!(moved, meet_hexes(a, z), "{name}: {from:?} -> {to:?}");
                }
            }
        }
    }

    #[test]
    fn thread_is_well_formed_and_follows_hexx_lines_on_the_scenario_maps() {
        let b = scenario_board("training");
        let coords: Vec<Coord> = b.coords().collect();
        let (mut along, mut touch, mut same, mut clipped) = (0, 0, 0, 0);
        for &from in &coords {
            for &to in &coords {
                let steps = thread(&b, from, to);
                assert_eq!(steps.first(), Some(&ThreadStep::Hex(from)));
                assert_eq!(steps.last(), Some(&ThreadStep::Hex(to)));
                let hexes: Vec<Coord> = steps
                    .iter()
                    .filter_map(|s| match s {
                        ThreadStep::Hex(c) => Some(*c),
                        _ => None,
                    })
                    .collect();
                // Between two consecutive hexes: one Cross into the next hex,
                // or one Along whose hexes touch both.
                let mut k = 0;
                for s in &steps[1..] {
                    match *s {
                        ThreadStep::Hex(c) => {
                            k += 1;
                            assert_eq!(c, hexes[k]);
                        }
                        ThreadStep::Cross {
                            from: f,
                            into,
                            edge,
                            ..
                        } => {
                            assert_eq!((f, into), (hexes[k], hexes[k + 1]));
                            assert_eq!(Some(edge), f.side_towards(into).map(|sd| b.edge(f, sd)));
                        }
                        ThreadStep::Along { hexes: pair, .. } => {
                            along += 1;
                            assert_eq!(hexes[k].distance(hexes[k + 1]), 2);
                            for h in pair.into_iter().flatten() {
                                assert_eq!(h.distance(hexes[k]), 1);
                                assert_eq!(h.distance(hexes[k + 1]), 1);
                            }
                        }
                        ThreadStep::Touch(h) => {
                            touch += 1;
                            assert_eq!(h.distance(hexes[k]), 1);
                            assert_eq!(h.distance(hexes[k + 1]), 1);
                        }
                    }
                }
                assert_eq!(k + 1, hexes.len());
                // Without ties, hexx's line is the thread's hexes, in order,
                // less those whose corner the thread only clips.
                if steps
                    .iter()
                    .all(|s| matches!(s, ThreadStep::Hex(_) | ThreadStep::Cross { .. }))
                {
                    let line: Vec<Coord> = from
                        .hex()
                        .line_to(to.hex())
                        .map(|h| Coord::from_hex(h, b.columns, b.rows).unwrap())
                        .collect();
                    let mut rest = hexes.iter();
                    for h in &line {
                        assert!(rest.any(|x| x == h), "{}-{}", from.label(), to.label());
                    }
                    same += usize::from(hexes == line);
                    clipped += usize::from(hexes != line);
                }
            }
        }
        assert!(
            along > 100 && touch > 100 && same > 10_000 && clipped > 100,
            "{along} along, {touch} touches, {same} as hexx, {clipped} clipping a corner"
        );
    }

    #[test]
    fn player_aid_rows_give_los_for_every_terrain_and_hexside() {
        for t in Terrain::ALL {
            assert!(aid().terrain_row(t.key()).is_some(), "{t:?}");
        }
        let hedgerow = aid().terrain_row("hedgerow").unwrap();
        assert!(hedgerow.blocks_los && !hedgerow.hindrance);
        let wall = aid().terrain_row("wall").unwrap();
        assert!(wall.hindrance && !wall.blocks_los);
    }
}
