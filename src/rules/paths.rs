//! The one shortest-path search over hexes (Dijkstra), for every rule that
//! asks for the fewest MPs: where a unit can move (R 5.0), the bot's reach
//! over its memo of step costs, rout destinations (R 11.0) and a Banzai
//! Charge's cheapest paths (R 59.6). The caller gives the start, the cost
//! of each step (or none where it cannot be taken), the budget, and the
//! hexes a move may enter but not leave. Nodes are settled in order of MPs
//! spent, ties by the caller's key and then by node, so every search takes
//! the same paths from run to run; a node's way in is replaced only by a
//! strictly cheaper one.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hash;

use crate::map::fast_hash::FxHashMap;
use crate::scenario::Coord;
use crate::scenario::schema::Side6;

use super::Mp;

/// A place a search visits: a hex, or a hex with more state (the enemies a
/// routing unit has seen, R 11.0).
pub trait Node: Copy + Eq + Hash + Ord {
    fn hex(self) -> Coord;
}

impl Node for Coord {
    fn hex(self) -> Coord {
        self
    }
}

impl Node for (Coord, u64) {
    fn hex(self) -> Coord {
        self.0
    }
}

/// The cheapest way found into a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Best<N> {
    /// MPs spent from the start.
    pub spent: Mp,
    /// The node before it (`None` at the start).
    pub prev: Option<N>,
}

/// One step the search weighs: out of `from` (reached having spent
/// `spent`) across its hexside `side` (the `side`th of `Side6::ALL`) into
/// the hex `to`.
#[derive(Debug, Clone, Copy)]
pub struct Step<N> {
    pub from: N,
    pub side: usize,
    pub to: Coord,
    pub spent: Mp,
}

/// A search under way; [`Search::settle`] settles one node at a time, so
/// a caller may stop as soon as it has its answer (every node settled by
/// then is as the whole search would leave it).
pub struct Search<N, K, O> {
    start: N,
    columns: u8,
    rows: u8,
    /// The MPs a path may spend (`None`: no limit).
    budget: Option<Mp>,
    /// Past this many nodes found, no node is expanded.
    cap: usize,
    /// The tie key of a node: among equal costs the smallest key settles
    /// first, then the smallest node.
    order: O,
    best: FxHashMap<N, Best<N>>,
    heap: BinaryHeap<Reverse<(Mp, K, N)>>,
}

impl<N: Node, K: Ord, O: Fn(N) -> K> Search<N, K, O> {
    /// A search from `start` on a board of `size` (columns, rows).
    pub fn new(start: N, size: (u8, u8), budget: Option<Mp>, order: O) -> Self {
        let mut best = FxHashMap::default();
        best.insert(
            start,
            Best {
                spent: Mp(0),
                prev: None,
            },
        );
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((Mp(0), order(start), start)));
        Search {
            start,
            columns: size.0,
            rows: size.1,
            budget,
            cap: usize::MAX,
            order,
            best,
            heap,
        }
    }

    /// No node is expanded once more than `cap` are found.
    pub fn with_cap(mut self, cap: usize) -> Self {
        self.cap = cap;
        self
    }

    /// The cost of the next entry waiting to be settled.
    pub fn next_cost(&self) -> Option<Mp> {
        self.heap.peek().map(|Reverse((c, _, _))| *c)
    }

    /// The cheapest way into `n` found so far.
    pub fn best(&self, n: &N) -> Option<Best<N>> {
        self.best.get(n).copied()
    }

    /// Settles the next cheapest node and weighs the steps out of it
    /// (none out of a hex other than the start where `stop`): `cost` gives
    /// the node a step enters and its MPs, or `None` where the step cannot
    /// be taken. `None` when every node is settled.
    pub fn settle(
        &mut self,
        stop: impl Fn(N) -> bool,
        mut cost: impl FnMut(&Step<N>) -> Option<(N, Mp)>,
    ) -> Option<(N, Mp)> {
        let (at, spent) = loop {
            let Reverse((spent, _, at)) = self.heap.pop()?;
            if self.best.get(&at).is_none_or(|b| b.spent >= spent) {
                break (at, spent);
            }
        };
        if (at != self.start && stop(at)) || self.best.len() > self.cap {
            return Some((at, spent));
        }
        let left = self.budget.map(|b| Mp(b.0.saturating_sub(spent.0)));
        for (side, s) in Side6::ALL.into_iter().enumerate() {
            let Some(to) = at.hex().neighbour(s, self.columns, self.rows) else {
                continue;
            };
            let step = Step {
                from: at,
                side,
                to,
                spent,
            };
            let Some((next, mp)) = cost(&step) else {
                continue;
            };
            if left.is_some_and(|l| mp > l) {
                continue;
            }
            let total = spent + mp;
            if self.best.get(&next).is_none_or(|b| total < b.spent) {
                self.best.insert(
                    next,
                    Best {
                        spent: total,
                        prev: Some(at),
                    },
                );
                self.heap.push(Reverse((total, (self.order)(next), next)));
            }
        }
        Some((at, spent))
    }

    /// Runs the search to its end: the cheapest way into every node.
    pub fn run(
        mut self,
        stop: impl Fn(N) -> bool,
        mut cost: impl FnMut(&Step<N>) -> Option<(N, Mp)>,
    ) -> FxHashMap<N, Best<N>> {
        while self.settle(&stop, &mut cost).is_some() {}
        self.best
    }
}

/// Every hex reachable from `start` on a board of `size` within `budget`
/// MPs, by the fewest MPs: `cost` prices a step (`None` where it cannot be
/// taken); a hex where `stop` may be entered but not left (the start
/// excepted); equal costs settle by smallest `order` key, then by hex.
pub fn cheapest_paths<K: Ord>(
    start: Coord,
    size: (u8, u8),
    budget: Mp,
    order: impl Fn(Coord) -> K,
    stop: impl Fn(Coord) -> bool,
    mut cost: impl FnMut(&Step<Coord>) -> Option<Mp>,
) -> FxHashMap<Coord, Best<Coord>> {
    Search::new(start, size, Some(budget), order).run(stop, |s| Some((s.to, cost(s)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(l: &str) -> Coord {
        Coord::parse(l, 5, 5).unwrap()
    }

    /// The path into `to`, start first.
    fn path(best: &FxHashMap<Coord, Best<Coord>>, to: Coord) -> Vec<String> {
        let mut out = vec![to.label()];
        let mut at = to;
        while let Some(prev) = best[&at].prev {
            out.push(prev.label());
            at = prev;
        }
        out.reverse();
        out
    }

    /// On a 5×5 map at 1 MP a step, entering C4 costing 3: the budget
    /// bounds the reach, a stop hex is entered but not left (the start
    /// is always left), and of two equally cheap ways the one through the
    /// node settled first (smallest key, then smallest hex) is kept.
    #[test]
    fn ties_budget_and_stops() {
        let flat = |s: &Step<Coord>| Some(if s.to == c("C4") { Mp(3) } else { Mp(1) });
        let two = cheapest_paths(c("C3"), (5, 5), Mp(2), |_| (), |_| false, flat);
        // Two MPs: hexes within two steps, none through C4.
        assert!(two.keys().all(|h| h.distance(c("C3")) <= 2));
        assert_eq!(two[&c("C3")].spent, Mp(0));
        assert_eq!(two[&c("B4")].spent, Mp(2));
        assert!(!two.contains_key(&c("C4")));
        assert!(!two.contains_key(&c("C5")));
        // E3 by D2 or D3 at 2 MP: by the smaller hex, D2...
        assert_eq!(path(&two, c("E3")), ["C3", "D2", "E3"]);
        // ...or by the smaller key: D3 first when the keys reverse hexes.
        let rev = cheapest_paths(c("C3"), (5, 5), Mp(2), Reverse, |_| false, flat);
        assert_eq!(path(&rev, c("E3")), ["C3", "D3", "E3"]);
        assert_eq!(rev.len(), two.len());
        // D2 may be entered but not left: E3 only by D3, E2 not at all.
        let stopped = cheapest_paths(c("C3"), (5, 5), Mp(2), |_| (), |h| h == c("D2"), flat);
        assert_eq!(path(&stopped, c("E3")), ["C3", "D3", "E3"]);
        assert!(stopped.contains_key(&c("D2")));
        assert!(two.contains_key(&c("E2")));
        assert!(!stopped.contains_key(&c("E2")));
        // The start is left even when it is a stop hex.
        let from_stop = cheapest_paths(c("C3"), (5, 5), Mp(1), |_| (), |_| true, flat);
        assert_eq!(from_stop.len(), 6);
        // Exactly the budget is enough.
        let three = cheapest_paths(c("C3"), (5, 5), Mp(3), |_| (), |_| false, flat);
        assert_eq!(three[&c("C4")].spent, Mp(3));
        assert_eq!(path(&three, c("C4")), ["C3", "C4"]);
    }
}
