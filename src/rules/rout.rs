//! The Rout Phase as pure rules — R 11.0 (who must check, the rout move and
//! its destinations), R 11.1 (the casualty margin), R 11.2 (No Quarter,
//! reduced Rout casualties), R 57.3 (SS Desperation), R 59.5 (Seishin). The
//! phase flow is `phases/rout.rs`.

use crate::map::Board;
use crate::map::fast_hash::{FxHashMap, FxHashSet};
use crate::rules::fire::hexside_protection;
use crate::rules::los::{LosQuery, line_of_sight, unit_level};
use crate::rules::movement::{MoveRules, step_total};
use crate::rules::paths::Search;
use crate::rules::{D10, Morale, Mp};
use crate::scenario::Coord;
use crate::scenario::player_aid::PlayerAid;
use crate::scenario::schema::{MapEdge, Side6};

/// What a Rout Phase MC did (R 11.0, R 11.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoutResult {
    /// Passed: the unit stays.
    Stays,
    /// Failed: the unit routs.
    Routs,
    /// Failed by at least the Casualty number: it routs, then is Reduced
    /// (eliminated if already Reduced) and Fully Suppressed (R 11.1).
    RoutsReduced,
}

/// Which Casualty number measures a failed Rout MC (R 11.1): the second
/// number of a Full-Strength unit, unless it is in Melee or adjacent to an
/// enemy not in Melee, when the first (or only) number counts.
pub fn rout_casualty_number(casualty: (u8, Option<u8>), in_melee_or_adjacent: bool) -> u8 {
    match casualty {
        (_, Some(second)) if !in_melee_or_adjacent => second,
        (first, _) => first,
    }
}

/// Resolves a Rout MC: passed on a roll at most the Morale (10 passes with no
/// roll, R 7.1); failed by the Casualty number or more, Reduced after routing.
pub fn rout_check(
    aid: &PlayerAid,
    morale: Morale,
    roll: D10,
    casualty: (u8, Option<u8>),
    in_melee_or_adjacent: bool,
) -> RoutResult {
    if morale.0 >= aid.constants.morale_auto_pass || roll.0 <= morale.0 {
        return RoutResult::Stays;
    }
    let margin = roll.0 - morale.0;
    if margin >= rout_casualty_number(casualty, in_melee_or_adjacent) {
        RoutResult::RoutsReduced
    } else {
        RoutResult::Routs
    }
}

/// An enemy unit as the Rout rules see it: where it is, and whether it is
/// in Melee (R 12.0: a friendly unit shares its location).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnemyUnit {
    pub at: Coord,
    pub in_melee: bool,
    /// In the Cave below `at`: adjacent only to its two front hexes (R 43.4).
    pub in_cave: bool,
}

impl EnemyUnit {
    /// Whether this enemy is adjacent to the location above `c` (R 43.4:
    /// "The Cave is only adjacent to its two frontal hexes.").
    pub fn adjacent_to(&self, board: &Board, c: Coord) -> bool {
        use crate::rules::fortifications::{Place, adjacent};
        let me = Place {
            coord: self.at,
            in_cave: self.in_cave,
        };
        adjacent(
            board,
            me,
            Place {
                coord: c,
                in_cave: false,
            },
        )
    }
}

/// Why a unit must take a Rout MC (R 11.0); one MC even if several apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoutReason {
    /// In the same location as an enemy unit.
    InMelee,
    /// Adjacent to an enemy unit not in Melee.
    AdjacentEnemy,
    /// Not in Beneficial Terrain, within 5 hexes of an enemy unit not in
    /// Melee whose LOS is not Hindered.
    Exposed,
}

impl RoutReason {
    pub fn text(self) -> &'static str {
        match self {
            RoutReason::InMelee => "in Melee",
            RoutReason::AdjacentEnemy => "adjacent to an enemy not in Melee",
            RoutReason::Exposed => "not in Beneficial Terrain, in unhindered LOS of an enemy",
        }
    }
}

/// Beneficial Terrain in a hex (R 6.2, R 11.0): its terrain, or a
/// Fortification in it, gives a Beneficial Terrain modifier.
pub fn beneficial_hex(board: &Board, aid: &PlayerAid, at: Coord) -> bool {
    let row_beneficial = |key: &str| aid.terrain_row(key).is_some_and(|r| r.beneficial);
    board
        .cell(at)
        .is_some_and(|c| row_beneficial(c.terrain.key()))
        || board.fortifications_at(at).any(|f| {
            !f.kind.is_cave()
                && crate::rules::fire::fortification_key(f.kind).is_some_and(row_beneficial)
        })
}

/// Whether a unit at `at` must take a Rout MC, and why (R 11.0). Seishin
/// Squads check only in Melee (R 59.5).
pub fn rout_reason(
    board: &Board,
    aid: &PlayerAid,
    at: Coord,
    in_melee: bool,
    seishin: bool,
    enemies: &[EnemyUnit],
) -> Option<RoutReason> {
    if in_melee {
        return Some(RoutReason::InMelee);
    }
    if seishin {
        return None;
    }
    let free = enemies.iter().filter(|e| !e.in_melee);
    if free.clone().any(|e| e.adjacent_to(board, at)) {
        return Some(RoutReason::AdjacentEnemy);
    }
    if beneficial_hex(board, aid, at) {
        return None;
    }
    let range = u32::from(aid.constants.rout_check_range);
    free.filter(|e| e.at.distance(at) <= range)
        .any(|e| {
            line_of_sight(board, aid, &los_from(e.at, e.in_cave, at))
                .sight()
                .is_some_and(|s| s.hindrances == 0)
        })
        .then_some(RoutReason::Exposed)
}

/// The LOS question from an enemy at `enemy` (in the Cave below it when
/// `in_cave`: R 43.4, "LOS can only be traced to the Cave, through either
/// of its front adjacent hexes") to the hex `at`.
fn los_from(enemy: Coord, in_cave: bool, at: Coord) -> LosQuery {
    LosQuery {
        from_in_cave: in_cave,
        ..LosQuery::new(enemy, at)
    }
}

/// A hex protects against one enemy (R 11.0): out of its LOS, or with a
/// Beneficial Terrain modifier against its fire — the hex's terrain or
/// Fortification, a hedgerow or wall its LOS crosses into the hex, or a
/// higher elevation (R 47.3). An enemy in a Cave sees only through its
/// front hexes (R 43.4).
pub fn protected_from(
    board: &Board,
    aid: &PlayerAid,
    enemy: Coord,
    in_cave: bool,
    at: Coord,
) -> bool {
    if crate::rules::los::is_blocked(board, aid, &los_from(enemy, in_cave, at)) {
        return true;
    }
    let row_beneficial = |key: &str| aid.terrain_row(key).is_some_and(|r| r.beneficial);
    beneficial_hex(board, aid, at)
        || hexside_protection(board, enemy, at).is_some_and(row_beneficial)
        || unit_level(board, at, false) > unit_level(board, enemy, in_cave)
}

/// What a rout move aims at (R 11.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoutGoal {
    /// A hex with Beneficial Terrain against every enemy, or out of all
    /// enemy LOS, reached this phase.
    Safety,
    /// No such hex in reach: all MPs spent toward the nearest one.
    TowardSafety,
    /// No such hex at all: toward the Rout Edge by the fewest MPs.
    TowardEdge,
}

impl RoutGoal {
    pub fn text(self) -> &'static str {
        match self {
            RoutGoal::Safety => "to safety",
            RoutGoal::TowardSafety => "toward safety",
            RoutGoal::TowardEdge => "toward its Rout Edge",
        }
    }
}

/// One legal rout: the hexes entered, in order, and their MP cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoutPath {
    pub to: Coord,
    pub path: Vec<Coord>,
    pub cost: Mp,
}

/// Where a failed unit may rout (R 11.0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoutPlan {
    /// The hexes it may end in, all serving the same goal; the owner
    /// chooses when there are several.
    Move {
        goal: RoutGoal,
        choices: Vec<RoutPath>,
    },
    /// It reaches its Rout Edge with the MP to leave: off the board,
    /// eliminated.
    OffEdge { path: Vec<Coord> },
    /// No legal rout: eliminated.
    Eliminated,
}

/// The question the rout move answers.
#[derive(Debug, Clone)]
pub struct RoutQuery<'a> {
    pub from: Coord,
    /// The unit's Movement allowance (R 11.0: "its normal Movement
    /// allowance").
    pub mp: Mp,
    /// Every enemy unit, with its Melee status as it will be once the
    /// routing units have left.
    pub enemies: &'a [EnemyUnit],
    /// Hexes the unit may pass but not end in (R 2.0 stacking).
    pub full: &'a [Coord],
    pub rout_edge: MapEdge,
    pub rules: MoveRules,
    /// The Wire hexes on the board now: a rout stops on entering one, and
    /// moves one hex when leaving one (R 43.6).
    pub wire: &'a [Coord],
}

/// How far `c` is from a map edge, in hexes.
pub fn edge_distance(c: Coord, edge: MapEdge, columns: u8, rows: u8) -> u32 {
    u32::from(match edge {
        MapEdge::North => c.row,
        MapEdge::South => rows.saturating_sub(c.row + 1),
        MapEdge::West => c.col,
        MapEdge::East => columns.saturating_sub(c.col + 1),
    })
}

/// Bounds the search; far above any real board's states.
const MAX_STATES: usize = 50_000;

/// A search state: the hex and the enemies seen so far (a bit mask).
type State = (Coord, u64);

/// The search of `rules::paths` over (hex, enemies seen), without an MP
/// limit, run only as far as the answer needs: states are settled in order
/// of cost (then hex, then mask), so stopping after a cost leaves every
/// state of lower or equal cost exactly as the whole search would have it.
struct RoutSearch<'a> {
    board: &'a Board,
    aid: &'a PlayerAid,
    q: &'a RoutQuery<'a>,
    /// The enemy locations (hex, in its Cave), once each, for the "seen"
    /// set (at most 64).
    enemy_hexes: Vec<(Coord, bool)>,
    /// Enemies not in Melee: their adjacent hexes may not be entered.
    free: Vec<EnemyUnit>,
    sees: FxHashMap<Coord, u64>,
    paths: Search<State, (), fn(State)>,
    /// States in the order they were settled (cost never decreases).
    settled: Vec<(State, Mp)>,
}

/// The enemies (bits of `enemy_hexes`) that see `c`, remembered in `sees`.
fn seen_from(
    sees: &mut FxHashMap<Coord, u64>,
    board: &Board,
    aid: &PlayerAid,
    enemy_hexes: &[(Coord, bool)],
    c: Coord,
) -> u64 {
    *sees.entry(c).or_insert_with(|| {
        enemy_hexes
            .iter()
            .enumerate()
            .filter(|(_, (e, cave))| {
                !crate::rules::los::is_blocked(board, aid, &los_from(*e, *cave, c))
            })
            .fold(0, |m, (i, _)| m | (1 << i))
    })
}

/// Whether a rout may enter `c`: not an enemy's hex, nor adjacent to an
/// enemy not in Melee.
fn legal_hex(board: &Board, enemy_hexes: &[(Coord, bool)], free: &[EnemyUnit], c: Coord) -> bool {
    !enemy_hexes.iter().any(|(e, _)| *e == c) && !free.iter().any(|e| e.adjacent_to(board, c))
}

/// R 43.6: "An Infantry unit must stop both when it enters and leaves a
/// wire hex (a unit can only move one hex when leaving)." Whether a rout
/// that has reached `here` (not its start) goes no further.
fn stops_in(q: &RoutQuery, here: Coord) -> bool {
    here != q.from && (q.wire.contains(&here) || q.wire.contains(&q.from))
}

impl<'a> RoutSearch<'a> {
    fn new(board: &'a Board, aid: &'a PlayerAid, q: &'a RoutQuery<'a>) -> Self {
        let mut enemy_hexes: Vec<(Coord, bool)> =
            q.enemies.iter().map(|e| (e.at, e.in_cave)).collect();
        enemy_hexes.sort();
        enemy_hexes.dedup();
        enemy_hexes.truncate(64);
        let free = q.enemies.iter().filter(|e| !e.in_melee).copied().collect();
        let mut sees = FxHashMap::default();
        let start: State = (
            q.from,
            seen_from(&mut sees, board, aid, &enemy_hexes, q.from),
        );
        let order: fn(State) = |_| ();
        RoutSearch {
            board,
            aid,
            q,
            enemy_hexes,
            free,
            sees,
            paths: Search::new(start, (board.columns, board.rows), None, order)
                .with_cap(MAX_STATES),
            settled: Vec::new(),
        }
    }

    fn legal_hex(&self, c: Coord) -> bool {
        legal_hex(self.board, &self.enemy_hexes, &self.free, c)
    }

    /// Settles the next state; false when the search is over.
    fn step(&mut self) -> bool {
        let (board, aid, rules) = (self.board, self.aid, self.q.rules);
        let (enemy_hexes, free, sees) = (&self.enemy_hexes, &self.free, &mut self.sees);
        let q = self.q;
        let settled = self.paths.settle(
            |_| false,
            |s| {
                let ((here, mask), to) = (s.from, s.to);
                if stops_in(q, here) || !legal_hex(board, enemy_hexes, free, to) {
                    return None;
                }
                let closer = enemy_hexes
                    .iter()
                    .enumerate()
                    .any(|(i, (e, _))| mask & (1 << i) != 0 && to.distance(*e) < here.distance(*e));
                if closer {
                    return None;
                }
                let step = step_total(board, aid, rules, here, to).ok()?;
                let seen = seen_from(sees, board, aid, enemy_hexes, to);
                Some(((to, mask | seen), step))
            },
        );
        match settled {
            Some(state) => {
                self.settled.push(state);
                true
            }
            None => false,
        }
    }

    /// Settles every state costing at most `bound`.
    fn settle_through(&mut self, bound: Mp) {
        while self.paths.next_cost().is_some_and(|c| c <= bound) {
            self.step();
        }
    }

    /// The states costing at most `bound`, by cost, hex and mask (after
    /// [`Self::settle_through`] that bound).
    fn states_through(&self, bound: Mp) -> Vec<(State, Mp)> {
        let mut states: Vec<(State, Mp)> = self
            .settled
            .iter()
            .filter(|(_, c)| *c <= bound)
            .copied()
            .collect();
        states.sort_by_key(|(s, c)| (*c, s.0, s.1));
        states
    }

    /// The cheapest states, other than the start hex, whose hex satisfies
    /// `pick`, in (hex, mask) order; empty when there is none.
    fn cheapest(&mut self, pick: &mut dyn FnMut(Coord) -> bool) -> Vec<State> {
        let from = self.q.from;
        let mut seen = 0;
        let min = loop {
            if let Some((_, c)) = self.settled[seen..]
                .iter()
                .find(|(s, _)| s.0 != from && pick(s.0))
            {
                break *c;
            }
            seen = self.settled.len();
            if !self.step() {
                return Vec::new();
            }
        };
        self.settle_through(min);
        self.states_through(min)
            .into_iter()
            .filter(|(s, c)| *c == min && s.0 != from && pick(s.0))
            .map(|(s, _)| s)
            .collect()
    }

    /// The hexes entered on the way to `s`, with the MPs spent on reaching
    /// each.
    fn path_to(&self, mut s: State) -> Vec<(Coord, Mp)> {
        let mut out = Vec::new();
        while let Some(best) = self.paths.best(&s) {
            out.push((s.0, best.spent));
            match best.prev {
                Some(p) => s = p,
                None => break,
            }
        }
        out.pop(); // the start hex
        out.reverse();
        out
    }

    /// Whether any hex the search could ever reach (ignoring the rule of
    /// not nearing a seen enemy, which only removes steps) satisfies
    /// `pick`: when none does, the search need not run to its end to learn
    /// it.
    fn may_reach(&self, pick: &mut dyn FnMut(Coord) -> bool) -> bool {
        let mut seen: FxHashSet<Coord> = FxHashSet::default();
        seen.insert(self.q.from);
        let mut todo = vec![self.q.from];
        while let Some(here) = todo.pop() {
            if stops_in(self.q, here) {
                continue;
            }
            for side in Side6::ALL {
                let Some(to) = self.board.neighbour(here, side) else {
                    continue;
                };
                if seen.contains(&to)
                    || !self.legal_hex(to)
                    || step_total(self.board, self.aid, self.q.rules, here, to).is_err()
                {
                    continue;
                }
                if pick(to) {
                    return true;
                }
                seen.insert(to);
                todo.push(to);
            }
        }
        false
    }
}

/// The legal rout moves of a failed unit (R 11.0). A step may not enter an
/// enemy's hex or a hex adjacent to an enemy not in Melee, nor bring the
/// unit closer (in hexes) to an enemy it sees or has seen during this rout.
/// With those limits: every hex reachable this phase that protects against
/// all enemies (the owner's choice); else the hexes where all MPs run out on
/// a cheapest route toward the nearest such hex; else toward the Rout Edge
/// by the fewest MPs, leaving the board when the edge is reached with the
/// off-board cost left; else, when no step at all is legal, elimination.
pub fn destinations(board: &Board, aid: &PlayerAid, q: &RoutQuery) -> RoutPlan {
    let mut search = RoutSearch::new(board, aid, q);
    search.settle_through(q.mp);
    let states = search.states_through(q.mp);
    let may_end = |c: Coord| c != q.from && !q.full.contains(&c);

    // 1. Safety within reach: the owner chooses among the hexes.
    let mut safe_cache: FxHashMap<Coord, bool> = FxHashMap::default();
    let mut safe = |c: Coord| {
        *safe_cache.entry(c).or_insert_with(|| {
            q.enemies
                .iter()
                .all(|e| protected_from(board, aid, e.at, e.in_cave, c))
        })
    };
    let mut choices: Vec<RoutPath> = Vec::new();
    for (s, cost) in &states {
        if *cost <= q.mp && may_end(s.0) && !choices.iter().any(|c| c.to == s.0) && safe(s.0) {
            choices.push(RoutPath {
                to: s.0,
                path: search.path_to(*s).into_iter().map(|p| p.0).collect(),
                cost: *cost,
            });
        }
    }
    if !choices.is_empty() {
        choices.sort_by_key(|c| c.to);
        return RoutPlan::Move {
            goal: RoutGoal::Safety,
            choices,
        };
    }
    // R 45.6: "Routing units that are moving toward their Rout edge will
    // stop when reaching a Surf hex." (the terrain row's `rout_stop`).
    let rout_stop = |c: Coord| {
        board
            .cell(c)
            .and_then(|cell| aid.terrain_row(cell.terrain.key()))
            .is_some_and(|r| r.rout_stop.is_some())
    };
    // Where all MPs run out along each cheapest route to one of `targets`;
    // toward the Rout Edge, at the first Surf hex.
    let toward = |search: &RoutSearch, targets: &[State], to_edge: bool| -> Vec<RoutPath> {
        let mut out: Vec<RoutPath> = Vec::new();
        for t in targets {
            let mut path = search.path_to(*t);
            if let Some(i) = path.iter().position(|(c, _)| to_edge && rout_stop(*c)) {
                path.truncate(i + 1);
            }
            while path
                .last()
                .is_some_and(|(c, cost)| *cost > q.mp || !may_end(*c))
            {
                path.pop();
            }
            if let Some(&(to, cost)) = path.last()
                && !out.iter().any(|o| o.to == to)
            {
                out.push(RoutPath {
                    to,
                    path: path.iter().map(|p| p.0).collect(),
                    cost,
                });
            }
        }
        out.sort_by_key(|c| c.to);
        out
    };
    // 2. Safety beyond reach: all MPs toward the nearest.
    if search.may_reach(&mut safe) {
        let targets = search.cheapest(&mut safe);
        if !targets.is_empty() {
            let choices = toward(&search, &targets, false);
            if !choices.is_empty() {
                return RoutPlan::Move {
                    goal: RoutGoal::TowardSafety,
                    choices,
                };
            }
        }
    }
    // 3. Toward the Rout Edge by the fewest MPs; off it with MP to spare.
    let (columns, rows) = (board.columns, board.rows);
    let mut on_edge = |c: Coord| c.on_edge(q.rout_edge, columns, rows);
    let targets = if search.may_reach(&mut on_edge) {
        search.cheapest(&mut on_edge)
    } else {
        Vec::new()
    };
    let off = Mp::whole(u16::from(aid.constants.off_board_mp));
    if let Some(t) = targets.iter().find(|t| {
        search.paths.best(t).is_some_and(|b| b.spent + off <= q.mp)
            && !search.path_to(**t).iter().any(|(c, _)| rout_stop(*c))
    }) {
        return RoutPlan::OffEdge {
            path: search.path_to(*t).into_iter().map(|p| p.0).collect(),
        };
    }
    let mut choices = toward(&search, &targets, true);
    if choices.is_empty() {
        // The edge cannot be reached: as near to it as the MPs allow.
        let reach: Vec<&(State, Mp)> = states
            .iter()
            .filter(|(s, c)| *c <= q.mp && may_end(s.0))
            .collect();
        if let Some(nearest) = reach
            .iter()
            .map(|(s, _)| edge_distance(s.0, q.rout_edge, columns, rows))
            .min()
        {
            let ends: Vec<State> = reach
                .iter()
                .filter(|(s, _)| edge_distance(s.0, q.rout_edge, columns, rows) == nearest)
                .map(|(s, _)| *s)
                .collect();
            choices = toward(&search, &ends, true);
        }
    }
    if choices.is_empty() {
        RoutPlan::Eliminated
    } else {
        RoutPlan::Move {
            goal: RoutGoal::TowardEdge,
            choices,
        }
    }
}

/// No Quarter (R 11.2, R 57.1, R 59.1): the Rout Phase Morale bonus of a
/// unit in Melee, by who it fights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoQuarter {
    /// A non-Japanese unit in Melee with Japanese units.
    pub against_japanese: bool,
    /// Germans and Russians in Melee with each other, from 1942.
    pub german_russian: bool,
}

/// SS Desperation (R 57.3, R 11.2): a Full-Strength SS unit, against
/// Russians, that would be eliminated for failing to Rout and failed its MC
/// by exactly one, is instead Reduced, stays and is Fully Suppressed.
pub fn ss_desperation(ss: bool, full_strength: bool, vs_russians: bool, margin: u8) -> bool {
    ss && full_strength && vs_russians && margin == 1
}

/// Units of one hex: the hexes a routing unit may not end in are those with
/// the stacking limit already reached by its side (R 2.0).
pub fn full_hexes(friends: &[Coord], limit: u8) -> Vec<Coord> {
    let mut sorted = friends.to_vec();
    sorted.sort_unstable();
    sorted
        .chunk_by(|a, b| a == b)
        .filter(|run| run.len() >= usize::from(limit))
        .map(|run| run[0])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R 2.0: a hex holding the stacking limit of friendly units is full
    /// (the rout may pass it but not end there); listed once, in order.
    #[test]
    fn full_hexes_are_those_at_the_stacking_limit() {
        let (a, b, c) = (Coord::new(0, 0), Coord::new(1, 0), Coord::new(2, 3));
        let friends = [c, a, b, c, a, c, b, a];
        assert_eq!(full_hexes(&friends, 3), vec![a, c]);
        assert_eq!(full_hexes(&friends, 2), vec![a, b, c]);
        assert_eq!(full_hexes(&friends, 4), Vec::<Coord>::new());
        assert_eq!(full_hexes(&[], 3), Vec::<Coord>::new());
    }

    /// R 11.1 example: a Fully Suppressed 4/7 Squad (Morale 1) in Open Ground
    /// is unaffected on a 1, routs on 2–7, is Reduced on 8 or higher; if
    /// adjacent to an enemy, Reduced on 5 or higher.
    #[test]
    fn r11_1_example_casualty_margins() {
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let results: Vec<RoutResult> = (1..=10)
            .map(|r| rout_check(&aid, Morale(1), D10(r), (4, Some(7)), false))
            .collect();
        use RoutResult::*;
        assert_eq!(
            results,
            [
                Stays,
                Routs,
                Routs,
                Routs,
                Routs,
                Routs,
                Routs,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced
            ]
        );
        let adjacent: Vec<RoutResult> = (1..=10)
            .map(|r| rout_check(&aid, Morale(1), D10(r), (4, Some(7)), true))
            .collect();
        assert_eq!(
            adjacent,
            [
                Stays,
                Routs,
                Routs,
                Routs,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced,
                RoutsReduced
            ]
        );
        // A Reduced unit has only one number, whatever its position.
        assert_eq!(rout_casualty_number((4, None), false), 4);
        // Morale 10 passes with no roll (R 7.1).
        assert_eq!(
            rout_check(&aid, Morale(10), D10(10), (4, Some(7)), true),
            Stays
        );
    }
}
