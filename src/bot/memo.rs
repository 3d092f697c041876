//! What the bot knows of a map that never changes during a game: the LOS
//! between every two hexes (R 14.0: units never block it) and the MP cost
//! of every step (R 5.0). Both are pure functions of the map, the Player
//! Aid and the scenario's movement rules, so a memo serves every game on
//! the same map: a bot keeps its own, and a simulation hands it from one
//! game's bots to the next (`Bot::with_memo`), so that a thousand games
//! trace each thread once. Entries are filled on first use; a value, once
//! there, is the value the rule function gives, so the memo never changes
//! a decision (the games stay reproducible).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;

use crate::rules::Mp;
use crate::rules::los::{Los, LosQuery, line_of_sight};
use crate::rules::movement::{MoveRules, step_cost};
use crate::scenario::Coord;
use crate::scenario::PlayerAid;
use crate::scenario::schema::Side6;
use crate::world::board::Board;
use crate::world::{ActiveScenario, AidRes, BoardRes};

/// LOS not traced yet.
const UNKNOWN: u8 = 0;
/// LOS blocked.
const BLOCKED: u8 = 1;

/// One map's unchanging facts, for the bot.
pub struct MapMemo {
    /// What the memo was built for (see [`key`]).
    key: u64,
    /// The board it was last found to serve (held, so never another's).
    board: Mutex<Arc<Board>>,
    columns: u8,
    rows: u8,
    /// LOS by (from, to): `UNKNOWN`, `BLOCKED`, or 2 + hindrances.
    los: Vec<AtomicU8>,
    /// Step cost by (from, side), in MP sixths; `None` where the step
    /// cannot be taken at all (R 5.0).
    steps: Vec<[Option<u16>; 6]>,
    /// The same at Night for a unit with the night minimum (R 50.2), in a
    /// Night scenario.
    night_steps: Option<Vec<[Option<u16>; 6]>>,
    /// Beneficial Terrain (not Open Ground) by hex (PAC).
    beneficial: Vec<bool>,
    /// Threats reckoned on this map (`view::threat`).
    threats: Mutex<super::view::FastMap<ThreatKey, f32>>,
}

/// A threat by (from, to, firer type, target type, firer Reduced, kind of
/// fire and motion), the types as [`type_key`] numbers them.
pub type ThreatKey = (Coord, Coord, u64, u64, bool, u8);

impl MapMemo {
    fn build(
        key: u64,
        board: &Arc<Board>,
        aid: &PlayerAid,
        rules: MoveRules,
        night: bool,
    ) -> MapMemo {
        let n = usize::from(board.columns) * usize::from(board.rows);
        let mut beneficial = vec![false; n];
        for c in board.coords() {
            beneficial[index(board.rows, c)] = board
                .cell(c)
                .and_then(|cell| aid.terrain_row(cell.terrain.key()))
                .is_some_and(|r| r.beneficial);
        }
        let table = |rules: MoveRules| {
            let mut steps = vec![[None; 6]; n];
            for c in board.coords() {
                let i = index(board.rows, c);
                for (k, side) in Side6::ALL.into_iter().enumerate() {
                    steps[i][k] = board
                        .neighbour(c, side)
                        .and_then(|to| step_cost(board, aid, rules, c, to).ok())
                        .map(|s| s.total.0);
                }
            }
            steps
        };
        let night_steps = night.then(|| {
            table(MoveRules {
                night_minimum: Some(Mp::from_aid(aid.night.infantry_min_mp)),
                ..rules
            })
        });
        MapMemo {
            key,
            board: Mutex::new(board.clone()),
            columns: board.columns,
            rows: board.rows,
            los: (0..n * n).map(|_| AtomicU8::new(UNKNOWN)).collect(),
            steps: table(rules),
            night_steps,
            beneficial,
            threats: Mutex::new(Default::default()),
        }
    }

    fn index(&self, c: Coord) -> Option<usize> {
        (c.col < self.columns && c.row < self.rows).then(|| index(self.rows, c))
    }

    /// The hindrances on the thread from `from` to `to`, or `None` when it
    /// is blocked (R 14.0, R 46.0); traced once per process.
    pub fn sight(&self, board: &Board, aid: &PlayerAid, from: Coord, to: Coord) -> Option<u8> {
        let (Some(a), Some(b)) = (self.index(from), self.index(to)) else {
            return None;
        };
        let slot = &self.los[a * usize::from(self.columns) * usize::from(self.rows) + b];
        match slot.load(Ordering::Relaxed) {
            UNKNOWN => {}
            BLOCKED => return None,
            v => return Some(v - 2),
        }
        let seen = match line_of_sight(board, aid, &LosQuery::new(from, to)) {
            Los::Seen(s) => Some(s.hindrances.min(250)),
            Los::Blocked { .. } => None,
        };
        slot.store(seen.map_or(BLOCKED, |h| h + 2), Ordering::Relaxed);
        seen
    }

    /// A threat reckoned before on this map, by any game.
    pub fn threat(&self, key: &ThreatKey) -> Option<f32> {
        self.threats.lock().ok().and_then(|t| t.get(key).copied())
    }

    pub fn remember_threat(&self, key: ThreatKey, value: f32) {
        if let Ok(mut t) = self.threats.lock() {
            t.insert(key, value);
        }
    }

    /// Whether `c` is Beneficial Terrain (not Open Ground, PAC).
    pub fn beneficial(&self, c: Coord) -> bool {
        self.index(c).is_some_and(|i| self.beneficial[i])
    }

    /// The MP cost of the step from `from` through its `side` (R 5.0),
    /// with the night minimum when `night` (R 50.2).
    pub fn step(&self, from: Coord, side: usize, night: bool) -> Option<Mp> {
        let table = match (&self.night_steps, night) {
            (Some(t), true) => t,
            _ => &self.steps,
        };
        self.index(from).and_then(|i| table[i][side]).map(Mp)
    }
}

fn index(rows: u8, c: Coord) -> usize {
    usize::from(c.col) * usize::from(rows) + usize::from(c.row)
}

/// What LOS and MP costs read in `world`: the map as the card gives it,
/// the fortifications as they stand, the Player Aid and the movement
/// rules, as one number.
fn key(world: &World) -> u64 {
    let board = &world.resource::<BoardRes>().0;
    let aid = &world.resource::<AidRes>().0;
    let sc = &world.resource::<ActiveScenario>().scenario;
    let rules = MoveRules::of(&sc.special_rules);
    let mut h = DefaultHasher::new();
    let night = sc.special_rules.night.is_some();
    format!(
        "{:?}|{:?}|{:?}|{:?}|{night}",
        sc.map, board.fortifications, aid, rules
    )
    .hash(&mut h);
    (board.columns, board.rows).hash(&mut h);
    h.finish()
}

/// The memo of the world's map: `kept` when it serves this map, else a new
/// one.
pub fn of(world: &World, kept: Option<&Arc<MapMemo>>) -> Arc<MapMemo> {
    let board = &world.resource::<BoardRes>().0;
    if let Some(m) = kept {
        let Ok(mut served) = m.board.lock() else {
            return m.clone();
        };
        if Arc::ptr_eq(&served, board) {
            return m.clone();
        }
        if m.key == key(world) {
            *served = board.clone();
            return m.clone();
        }
    }
    let aid = world.resource::<AidRes>().0.clone();
    let sc = &world.resource::<ActiveScenario>().scenario;
    let rules = MoveRules::of(&sc.special_rules);
    let night = sc.special_rules.night.is_some();
    Arc::new(MapMemo::build(key(world), board, &aid, rules, night))
}

/// The best way found into a hex: MPs left on arrival and the hex before.
pub use crate::engine::reach::{Reached, path_to};

/// What else bounds a unit's move: the night minimum of its hexes
/// (R 50.2) and the Wire on the board, which stops a unit entering it and
/// lets a unit leaving it move one hex only (R 43.6).
#[derive(Debug, Clone, Copy, Default)]
pub struct Bounds<'a> {
    pub night: bool,
    pub wire: &'a [Coord],
}

/// Every hex a unit starting in `start` with `allowance` MPs can reach
/// (R 5.0), with the most MPs it can have left there; it may enter a hex in
/// `stops` (an enemy hex) or Wire but not go on from it. The search of
/// `rules::paths`, as `engine::reach::reachable` runs it, over the memo's
/// step costs; ties go by hex so the paths are the same from run to run.
pub fn reach(
    memo: &MapMemo,
    start: Coord,
    allowance: Mp,
    stops: &[Coord],
    bounds: Bounds,
) -> super::view::FastMap<Coord, Reached> {
    let out_of_wire = bounds.wire.contains(&start);
    let best = crate::rules::paths::cheapest_paths(
        start,
        (memo.columns, memo.rows),
        allowance,
        |_| (),
        |at| stops.contains(&at) || bounds.wire.contains(&at) || out_of_wire,
        |s| memo.step(s.from, s.side, bounds.night),
    );
    let mut out = super::view::FastMap::default();
    out.reserve(best.len());
    out.extend(best.into_iter().map(|(c, b)| {
        (
            c,
            Reached {
                left: Mp(allowance.0 - b.spent.0),
                prev: b.prev,
            },
        )
    }));
    out
}

/// A number for a unit type, the same for equal types in every game (the
/// shared threat memo is keyed by it): its content, hashed.
pub fn type_key(t: &crate::scenario::roster::UnitType) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{t:?}").hash(&mut h);
    h.finish()
}
