//! What the bot's side may know of the game (R 15.0): its own units in full,
//! enemy units where they stand, but the identity of an enemy under a
//! Conceal counter only as "a Conceal counter" — the same rule the counters
//! on screen follow (`ui::counters::shown_to`). A Concealed enemy is valued
//! as the side's most common Squad/WT of the scenario's published order of
//! battle, weighted by the chance it is real and not a Decoy.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use crate::rules::Hexes;
use crate::rules::fire::{
    FireContext, FireKind, Firer, Motion, Smoke, SuppressionLevel, infantry_fp,
};
use crate::rules::los::{Los, LosQuery, line_of_sight};
use crate::rules::odds::{FireOdds, OddsTarget, fire_odds};
use crate::scenario::Coord;
use crate::scenario::roster::{UnitClass, UnitType};
use crate::scenario::schema::SideId;
use crate::world::board::Board;
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Concealed, Location, Marks, RosterRes, Suppression, Unit,
};
use crate::world::{Shown, shown_to};

/// One unit on the board as the viewing side knows it.
#[derive(Debug, Clone)]
pub struct Piece {
    pub entity: Entity,
    pub id: String,
    pub side: SideId,
    pub at: Coord,
    pub in_cave: bool,
    pub used: bool,
    pub op_fire: bool,
    pub concealed: bool,
    pub suppression: SuppressionLevel,
    /// The unit type, when the viewer may know it.
    pub kind: Option<Arc<UnitType>>,
    pub reduced: bool,
}

impl Piece {
    /// The unit type the viewer reckons with: its own, or the typical
    /// enemy for a Conceal counter.
    pub fn reckoned<'a>(&'a self, typical: &'a Arc<UnitType>) -> &'a Arc<UnitType> {
        self.kind.as_ref().unwrap_or(typical)
    }

    pub fn is_decoy(&self) -> bool {
        self.kind
            .as_ref()
            .is_some_and(|k| k.class == UnitClass::Decoy)
    }
}

/// The side's view of the board for one decision.
pub struct View {
    pub me: SideId,
    pub board: Arc<Board>,
    pub aid: Arc<crate::scenario::PlayerAid>,
    pub pieces: Vec<Piece>,
    /// The enemy's most common Squad/WT in the order of battle.
    pub typical_enemy: Arc<UnitType>,
    /// My side's most common Squad/WT (what enemy fire is reckoned against).
    pub typical_mine: Arc<UnitType>,
    /// The chance an enemy Conceal counter is a real unit.
    pub p_real: f32,
    /// The map's memo (LOS, steps, terrain), when bound.
    pub memo: Option<Arc<super::memo::MapMemo>>,
    /// A digest of what the side knows of the enemy's units (where, Used,
    /// Reduced, identity) and of itself: the danger of a hex depends on
    /// nothing else.
    pub enemy_key: u64,
    /// The unit types' numbers by type id (`memo::type_key`), for the
    /// shared threat memo.
    pub type_index: Arc<FastMap<String, u64>>,
    /// The Smoke and Dispersed Smoke counters on the board, by hex (R 48.0).
    pub smoke: Vec<(Coord, crate::rules::smoke::SmokeSide)>,
}

impl View {
    pub fn of(
        world: &mut World,
        me: SideId,
        types: &mut TypeCache,
        memo: Option<Arc<super::memo::MapMemo>>,
    ) -> View {
        let board = world.resource::<BoardRes>().0.clone();
        let aid = world.resource::<AidRes>().0.clone();
        types.refresh(world);
        let mut q = world.query::<(
            Entity,
            &Unit,
            &Location,
            &Marks,
            Option<&Concealed>,
            Option<&Suppression>,
        )>();
        let mut pieces: Vec<Piece> = q
            .iter(world)
            .map(|(e, u, l, m, c, s)| {
                let known = shown_to(me, u.side, c.copied()) == Shown::Face;
                Piece {
                    entity: e,
                    id: u.id.to_string(),
                    side: u.side,
                    at: l.coord,
                    in_cave: l.in_cave,
                    used: m.used,
                    op_fire: m.op_fire,
                    concealed: c.is_some(),
                    suppression: SuppressionLevel::from(s.copied()),
                    kind: if known { types.get(&u.kind) } else { None },
                    reduced: u.reduced,
                }
            })
            .collect();
        pieces.sort_by(|a, b| a.id.cmp(&b.id));
        let enemy_concealed = pieces
            .iter()
            .filter(|p| p.side != me && p.kind.is_none())
            .count();
        let decoys = world
            .resource::<ActiveScenario>()
            .scenario
            .sides
            .iter()
            .find(|s| s.side == me.other())
            .map_or(0, |s| usize::from(s.decoys));
        let p_real = if enemy_concealed == 0 {
            1.0
        } else {
            (1.0 - decoys as f32 / enemy_concealed as f32).max(0.35)
        };
        let smoke: Vec<(Coord, crate::rules::smoke::SmokeSide)> =
            crate::engine::smoke::counters(world)
                .into_iter()
                .map(|c| (c.at, c.side))
                .collect();
        let enemy_key = {
            use std::hash::{Hash, Hasher};
            let mut h = FastHasher::default();
            (me, p_real.to_bits(), &smoke).hash(&mut h);
            for e in pieces.iter().filter(|p| p.side != me) {
                (
                    e.at,
                    e.in_cave,
                    e.used,
                    e.op_fire,
                    e.reduced,
                    e.kind.as_ref().map(|k| k.id.as_str()),
                )
                    .hash(&mut h);
            }
            h.finish()
        };
        View {
            me,
            board,
            aid,
            pieces,
            typical_enemy: types.typical[me.other().index()].clone(),
            typical_mine: types.typical[me.index()].clone(),
            p_real,
            memo,
            enemy_key,
            type_index: types.index.clone(),
            smoke,
        }
    }

    pub fn mine(&self) -> impl Iterator<Item = &Piece> {
        self.pieces.iter().filter(move |p| p.side == self.me)
    }

    pub fn enemies(&self) -> impl Iterator<Item = &Piece> {
        self.pieces.iter().filter(move |p| p.side != self.me)
    }

    /// Units of `side` in hex `c` (outside Caves).
    pub fn count_at(&self, side: SideId, c: Coord) -> usize {
        self.pieces
            .iter()
            .filter(|p| p.side == side && p.at == c && !p.in_cave)
            .count()
    }

    pub fn terrain_key(&self, c: Coord) -> &'static str {
        self.board.cell(c).map_or("open", |c| c.terrain.key())
    }

    /// Beneficial Terrain for fire (PAC): not Open Ground.
    pub fn beneficial(&self, c: Coord) -> bool {
        if let Some(m) = &self.memo {
            return m.beneficial(c);
        }
        self.aid
            .terrain_row(self.terrain_key(c))
            .is_some_and(|r| r.beneficial)
    }
}

/// Unit types by id, shared, and the typical Squad/WT of each side.
pub struct TypeCache {
    by_id: HashMap<String, Arc<UnitType>>,
    /// The number of each type (`memo::type_key`), by type id.
    pub index: Arc<FastMap<String, u64>>,
    pub typical: [Arc<UnitType>; 2],
    ready: bool,
}

impl Default for TypeCache {
    fn default() -> Self {
        let blank = Arc::new(UnitType {
            id: String::new(),
            name: String::new(),
            short: String::new(),
            nationality: crate::scenario::schema::Nationality::American,
            class: UnitClass::Squad,
            mp: 4,
            full: blank_side(),
            reduced: blank_side(),
            fireteams: false,
            seishin: false,
            pluck: false,
            ss: false,
            gun: None,
            satw_weapon: None,
            source: crate::scenario::roster::Source::Pac,
        });
        TypeCache {
            by_id: HashMap::new(),
            index: Default::default(),
            typical: [blank.clone(), blank],
            ready: false,
        }
    }
}

fn blank_side() -> crate::scenario::roster::CounterSide {
    crate::scenario::roster::CounterSide {
        fp: 4,
        prof: 2,
        melee: None,
        range: crate::scenario::roster::FireRange::Normal(5),
        satw: None,
        casualty: (4, Some(8)),
        morale: (7, 6, 5),
    }
}

impl TypeCache {
    fn refresh(&mut self, world: &World) {
        if self.ready {
            return;
        }
        let roster = world.resource::<RosterRes>().0.clone();
        let mut index = FastMap::default();
        for t in &roster.units {
            let t = Arc::new(t.clone());
            index.insert(t.id.clone(), super::memo::type_key(&t));
            self.by_id.insert(t.id.clone(), t);
        }
        self.index = Arc::new(index);
        // The published order of battle: setup and reinforcements.
        let sc = &world.resource::<ActiveScenario>().scenario;
        let mut counts: [HashMap<&str, usize>; 2] = Default::default();
        for u in &sc.setup {
            *counts[u.side.index()].entry(u.unit.as_str()).or_default() += 1;
        }
        for r in &sc.reinforcements {
            for u in &r.units {
                *counts[r.side.index()].entry(u.unit.as_str()).or_default() += 1;
            }
        }
        for side in SideId::BOTH {
            let mut best: Vec<(&str, usize)> = counts[side.index()]
                .iter()
                .filter(|(k, _)| {
                    self.by_id
                        .get(**k)
                        .is_some_and(|t| t.class != UnitClass::Decoy)
                })
                .map(|(k, n)| (*k, *n))
                .collect();
            best.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            if let Some(t) = best.first().and_then(|(k, _)| self.by_id.get(*k)) {
                self.typical[side.index()] = t.clone();
            }
        }
        self.ready = true;
    }

    pub fn get(&self, id: &str) -> Option<Arc<UnitType>> {
        self.by_id.get(id).cloned()
    }
}

/// A small fast hasher for the bot's caches (keys are a few small
/// integers; SipHash showed in the profile).
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

pub type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

/// LOS between hexes depends on the map only (R 14.0): read from the
/// bot's memo of the map (`bot::memo`), traced once per pair.
#[derive(Default)]
pub struct LosCache {
    memo: Option<Arc<super::memo::MapMemo>>,
    /// Threats already reckoned: (from, to, unit type, reduced, kind, motion).
    threats: FastMap<(Coord, Coord, u64, bool, u8, u8), f32>,
    /// The shared threats this game has read (no lock to read them again).
    shared: FastMap<super::memo::ThreatKey, f32>,
    /// The board the memo was last bound to (held, so never another's).
    board: Option<Arc<Board>>,
}

impl LosCache {
    /// A cache starting from `memo` (another game's, on the same map or
    /// not: [`LosCache::bind`] checks).
    pub fn with_memo(memo: Option<Arc<super::memo::MapMemo>>) -> LosCache {
        LosCache {
            memo,
            ..LosCache::default()
        }
    }

    /// Takes the memo of the world's map (once per board).
    pub fn bind(&mut self, world: &World) {
        let board = &world.resource::<BoardRes>().0;
        if self.memo.is_some() && self.board.as_ref().is_some_and(|b| Arc::ptr_eq(b, board)) {
            return;
        }
        let memo = super::memo::of(world, self.memo.as_ref());
        if !self.memo.as_ref().is_some_and(|m| Arc::ptr_eq(m, &memo)) {
            self.threats.clear();
            self.shared.clear();
            self.memo = Some(memo);
        }
        self.board = Some(board.clone());
    }

    /// The map's memo (bound before each decision).
    pub fn memo(&self) -> Option<&Arc<super::memo::MapMemo>> {
        self.memo.as_ref()
    }

    /// The hindrances on the thread, or `None` when it is blocked.
    pub fn sight(
        &mut self,
        board: &Arc<Board>,
        aid: &crate::scenario::PlayerAid,
        from: Coord,
        to: Coord,
    ) -> Option<u8> {
        match &self.memo {
            Some(m) => m.sight(board, aid, from, to),
            None => match line_of_sight(board, aid, &LosQuery::new(from, to)) {
                Los::Seen(s) => Some(s.hindrances),
                Los::Blocked { .. } => None,
            },
        }
    }
}

/// How much an attack's outcome is worth to the firing side, per unit hit:
/// eliminated 1, Reduced 0.5, a new Suppression step 0.15.
pub fn odds_value(o: &FireOdds) -> f32 {
    o.p_eliminated() + 0.5 * o.p_reduced() + 0.15 * o.p_suppressed()
}

/// The threat an enemy `firer` standing at `from` puts on a unit of mine in
/// `to` (expected value of one attack), or 0 without LOS or Range. `moving`
/// is Op Fire at a unit moving (in Open Ground when `open`).
#[allow(clippy::too_many_arguments)]
pub fn threat(
    view: &View,
    los: &mut LosCache,
    firer: &UnitType,
    reduced: bool,
    from: Coord,
    to: Coord,
    kind: FireKind,
    moving: Option<bool>,
) -> f32 {
    if from == to {
        return 0.0;
    }
    let motion = moving.map_or(0, |open| 1 + u8::from(open));
    // Shared by every game on the map when both unit types are in the
    // roster (`memo::type_key`), else remembered for this game.
    let firer_key = view.type_index.get(&firer.id).copied();
    let shared = match (firer_key, view.type_index.get(&view.typical_mine.id)) {
        (Some(f), Some(t)) => Some((from, to, f, *t, reduced, kind as u8 * 3 + motion)),
        _ => None,
    };
    if let Some(k) = shared {
        if let Some(t) = los.shared.get(&k) {
            return *t;
        }
        if let Some(t) = los.memo.as_ref().and_then(|m| m.threat(&k)) {
            los.shared.insert(k, t);
            return t;
        }
    }
    let key = (
        from,
        to,
        firer_key.unwrap_or_else(|| super::memo::type_key(firer)),
        reduced,
        kind as u8 * 2 + view.me.index() as u8,
        motion,
    );
    if shared.is_none()
        && let Some(t) = los.threats.get(&key)
    {
        return *t;
    }
    let t = match los.sight(&view.board, &view.aid, from, to) {
        Some(hindrances) => attack_on(
            view,
            firer,
            reduced,
            (from, to),
            kind,
            moving,
            (hindrances, Smoke::None),
        ),
        None => 0.0,
    };
    match (shared, &los.memo) {
        (Some(k), Some(m)) => {
            m.remember_threat(k, t);
            los.shared.insert(k, t);
        }
        _ => {
            los.threats.insert(key, t);
        }
    }
    t
}

/// The worth of one attack by an enemy `firer` (a unit of its type) from
/// `line.0` at a typical unit of mine in `line.1`, with `sight.0`
/// Hindrances and the Smoke `sight.1` on the line (R 48.0: -1 FP for
/// Smoke, and never moving in Open Ground); `moving` as for [`threat`].
pub fn attack_on(
    view: &View,
    firer: &UnitType,
    reduced: bool,
    line: (Coord, Coord),
    kind: FireKind,
    moving: Option<bool>,
    sight: (u8, Smoke),
) -> f32 {
    let (from, to) = line;
    let (hindrances, smoke) = sight;
    let mut ctx = FireContext::new(
        kind,
        Firer::of(firer, reduced),
        Hexes(from.distance(to)),
        view.terrain_key(to),
    );
    ctx.hindrances = hindrances;
    ctx.smoke = smoke;
    if let Some(open_ground) = moving {
        ctx.target_motion = Motion::Moving {
            open_ground: open_ground && hindrances == 0,
            on_path: false,
        };
    }
    let Ok(b) = infantry_fp(&view.aid, &ctx) else {
        return 0.0;
    };
    let side = view.typical_mine.full;
    let o = fire_odds(
        &view.aid,
        b.total,
        OddsTarget {
            casualty: side.casualty,
            suppression: SuppressionLevel::None,
        },
        b.within_normal_range,
        b.adjacent,
    );
    odds_value(&o)
}
