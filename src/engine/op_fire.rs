//! Op Fire — R 9.0, Final Op Fire — R 10.0: each time a moving unit enters a
//! hex, the non-moving side may fire at it with any number of its units that
//! can (LOS, range): units not yet Used Op Fire (a marker is not needed, it
//! adds +1), Used units Final Op Fire at an adjacent hex (−2). The move waits
//! for the answer. Every firer ends Used, an Op Fire marker flipping to its
//! Used side (R 4.3); a Suppressed mover takes an immediate MC and its move
//! ends if it fails (R 5.0), once for every Suppression (R 9.0).
//!
//! With facing in use (R 2.2) a firer fires to its front, turning as it
//! fires (-1, R 6.0) unless it is a WT or Japanese Squad firing Final Op
//! Fire (R 10.1). A Used unit may Final Op Fire beyond one hex, within
//! normal Range, by spending a CP (R 3.0 #3, R 10.0). Op Fire comes at a
//! unit's start hex when its first hex is a Melee hex (R 9.0), and from the
//! hex a unit Withdraws from once none of its side is left there (R 5.1).

use crate::world::UnitId;
use std::collections::BTreeMap;

use bevy::prelude::*;

use crate::rules::Hexes;
use crate::rules::facing::FireFacing;
use crate::rules::fire::{FireContext, FireKind, Firer, infantry_fp};
use crate::scenario::Coord;
use crate::scenario::roster::FireRange;
use crate::scenario::schema::{Nationality, SideId, Spine};
use crate::world::{AidRes, Concealed, Location, Marks, RosterRes, Unit, mark, mark_attack, marks};

use super::events::GameEvent;
use super::fire::MoverFate;
use super::movement::{continue_move, stop_move};
use super::orders::Refusal;

/// The decision the game waits for.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct OpFireWindow {
    /// The side that may fire.
    pub side: SideId,
    pub mover: Entity,
    pub mover_id: crate::world::UnitId,
    pub at: Coord,
    /// Units that may fire, by id.
    pub eligible: Vec<crate::world::UnitId>,
    /// Those of `eligible` that see the hex only by a Trip Flare's or a
    /// Muzzle Flash's light: at most one of them fires (R 43.6, R 50.2).
    pub lit_only: Vec<crate::world::UnitId>,
}

/// Opens a window if any enemy unit may Op Fire at the mover in `at`.
pub fn open_window(
    world: &mut World,
    mover: Entity,
    at: Coord,
    events: &mut Vec<GameEvent>,
) -> bool {
    let Some((side, mover_id, eligible)) = eligible_at(world, mover, at) else {
        return false;
    };
    let lit_only = super::night::lit_only(world, &eligible, at);
    events.push(GameEvent::OpFireWindow {
        side,
        mover: mover_id.clone(),
        at: at.label(),
        eligible: eligible.clone(),
    });
    world.insert_resource(OpFireWindow {
        side,
        mover,
        mover_id,
        at,
        eligible,
        lit_only,
    });
    true
}

/// R 9.0 exception: the mover's first hex is a Melee hex, where no one may
/// fire (R 6.1), so Op Fire may come at the hex it starts from, before it
/// enters `into`. Opens that window if any enemy unit may fire.
pub fn open_window_at_start(
    world: &mut World,
    mover: Entity,
    start: Coord,
    into: Coord,
    events: &mut Vec<GameEvent>,
) -> bool {
    let Some((side, mover_id, eligible)) = eligible_at(world, mover, start) else {
        return false;
    };
    events.push(GameEvent::OpFireWindowAtStart {
        side,
        mover: mover_id.clone(),
        at: start.label(),
        into: into.label(),
        eligible: eligible.clone(),
    });
    world.insert_resource(OpFireWindow {
        side,
        mover,
        mover_id,
        at: start,
        eligible,
        lit_only: Vec::new(),
    });
    true
}

/// The side that may fire at the mover in `at`, the mover's id and the
/// units that may, by id; `None` when no window is offered. A window is
/// offered with no unit that may fire when a Conceal counter of the side
/// could have fired for all the mover can tell ([`counter_offers`], R 15.0):
/// then the side can only hold. Not into a location with
/// the firing side's own infantry, nor from a location holding a unit of
/// the mover's side (R 6.1): a Melee hex the mover Withdrew from counts
/// once no unit of its side is left there (R 5.1).
fn eligible_at(
    world: &mut World,
    mover: Entity,
    at: Coord,
) -> Option<(SideId, crate::world::UnitId, Vec<crate::world::UnitId>)> {
    let mover_side = world.get::<Unit>(mover)?.side;
    let side = mover_side.other();
    let board = world.resource::<crate::world::BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let special = special_kinds(world, &roster);
    // One pass over the units: the hexes held by the mover's side, listed
    // once, and the enemy units with their hexes; none when `side` holds
    // `at`.
    let mut held: Vec<Coord> = Vec::with_capacity(16);
    let mut foes: Vec<Foe> = Vec::with_capacity(32);
    let occupied = crate::world::queries::with_query::<
        (Entity, &Unit, &Location, Has<Concealed>, Option<&Marks>),
        (),
        _,
    >(world, |q| {
        for (e, u, l, concealed, marks) in q {
            if u.side == side {
                if l.coord == at {
                    return true;
                }
                foes.push(Foe {
                    entity: e,
                    at: *l,
                    kind: special
                        .iter()
                        .find(|(k, _)| **k == *u.kind)
                        .map_or(FoeKind::Plain, |(_, f)| *f),
                    concealed,
                    used: marks.is_some_and(|m| m.used),
                });
            } else if u.side == mover_side && !held.contains(&l.coord) {
                held.push(l.coord);
            }
        }
        false
    });
    if occupied {
        return None;
    }
    // Not from a hex holding a unit of the mover's side (R 6.1). Then the
    // firer's own thread: `plan_in` refuses a blocked one (Smoke never
    // blocks, R 48.0), and it refuses most units, so it is read first from
    // the map's table; a Mortar's thread may also be a spotter's, from a
    // hex next to it (R 31.1). The units left take the whole check.
    let (columns, rows) = (board.columns, board.rows);
    let candidates: Vec<Entity> = crate::rules::los::with_blocked_table(&board, &aid, |table| {
        foes.iter()
            .filter(|f| !held.contains(&f.at.coord))
            .filter(|f| match f.kind {
                _ if f.at.in_cave => true,
                FoeKind::Gun => true,
                FoeKind::Plain => !table.blocked(f.at.coord, at),
                FoeKind::Mortar => sees_or_spots(table, f.at.coord, at, columns, rows),
            })
            .map(|f| f.entity)
            .collect()
    });
    // No one of `side` is in `at` (above), so no friendly infantry there.
    let mut eligible: Vec<crate::world::UnitId> = if candidates.is_empty() {
        Vec::new()
    } else {
        let scene = FireScene::with(world, board.clone(), aid.clone(), roster.clone());
        candidates
            .into_iter()
            .filter(|e| plan_in(world, &scene, *e, at, None).is_ok())
            .filter_map(|e| world.get::<Unit>(e).map(|u| u.id.clone()))
            .collect()
    };
    // With no unit that may fire, the window is still offered when a
    // Conceal counter might fire (R 15.0).
    if eligible.is_empty() {
        let free: Vec<&Foe> = foes
            .iter()
            .filter(|f| f.concealed && !held.contains(&f.at.coord))
            .collect();
        if free.is_empty() || !counters_offer(world, side, &free, at, (&board, &aid, &roster)) {
            return None;
        }
    }
    eligible.sort();
    let mover_id = world.get::<Unit>(mover)?.id.clone();
    Some((side, mover_id, eligible))
}

/// Whether the thread from `c`, or from a spotter's hex next to it
/// (R 31.1), to `at` is clear.
fn sees_or_spots(
    table: &mut crate::rules::los::BlockedTable,
    c: Coord,
    at: Coord,
    columns: u8,
    rows: u8,
) -> bool {
    !table.blocked(c, at)
        || crate::scenario::schema::Side6::ALL
            .into_iter()
            .filter_map(|s| c.neighbour(s, columns, rows))
            .any(|n| !table.blocked(n, at))
}

/// Whether one of these Conceal counters of `side` could fire at `at` for
/// all the mover can tell from what both see (its hex, its Used marker, the
/// CPs left): in reach ([`counter_reach`]), and seeing the hex as any unit
/// might: from its hex or a spotter's next to it, or from its Cave
/// (R 15.0, R 31.1, R 43.4).
fn counters_offer(
    world: &mut World,
    side: SideId,
    counters: &[&Foe],
    at: Coord,
    (board, aid, roster): (
        &crate::map::Board,
        &crate::scenario::PlayerAid,
        &crate::scenario::Roster,
    ),
) -> bool {
    let reach = counter_reach(world, side, roster, aid.constants.long_range_factor);
    let cp_left = super::command_points::left(world, side) > 0;
    let (columns, rows) = (board.columns, board.rows);
    crate::rules::los::with_blocked_table(board, aid, |table| {
        counters.iter().any(|f| {
            let range = f.at.coord.distance(at);
            reach.is_none_or(|r| range <= r)
                // Used: Final Op Fire next to it (R 43.4, R 47.4), or
                // beyond with a CP (R 10.0, R 3.0 #3).
                && (!f.used
                    || cp_left
                    || crate::rules::fortifications::adjacent_hexes(board, f.at.coord, at))
                && if f.at.in_cave {
                    let query = crate::rules::los::LosQuery {
                        from_in_cave: true,
                        ..crate::rules::los::LosQuery::new(f.at.coord, at)
                    };
                    !crate::rules::los::is_blocked(board, aid, &query)
                } else {
                    sees_or_spots(table, f.at.coord, at, columns, rows)
                }
        })
    })
}

/// An enemy unit at the Op Fire check of one hex: where it is, and what
/// kind of checks its class takes.
struct Foe {
    entity: Entity,
    at: Location,
    kind: FoeKind,
    /// Under a Conceal counter (R 15.0).
    concealed: bool,
    /// Marked Used: only Final Op Fire is left to it (R 10.0).
    used: bool,
}

/// How far from the mover a Conceal counter of `side` may stand and still
/// offer an Op Fire window: the longest range any real unit of the side on
/// the board could fire at (the scenario card shows the other side's forces,
/// not which counter is which), `None` for no limit (a Gun, a Mortar with
/// no maximum). Night and Monsoon limits are not read: a window offered
/// too often tells nothing (R 15.0).
fn counter_reach(
    world: &mut World,
    side: SideId,
    roster: &crate::scenario::Roster,
    long_range_factor: u8,
) -> Option<u32> {
    let kinds: Vec<(crate::scenario::roster::UnitClass, FireRange)> =
        crate::world::queries::collect::<&Unit, (), _>(world, |u| {
            (u.side == side)
                .then(|| roster.get(&u.kind))
                .flatten()
                .map(|t| {
                    let face = if u.reduced { &t.reduced } else { &t.full };
                    (t.class, face.range)
                })
        })
        .into_iter()
        .flatten()
        .collect();
    longest_reach(&kinds, long_range_factor)
}

/// The longest range of these unit kinds, `None` for no limit: a Gun fires
/// as far as it sees (R 20.4), a Mortar `>1` has no maximum (R 31.0); a
/// unit with a Normal Range fires to its long range (R 6.0), a band to its
/// end; a Decoy not at all.
fn longest_reach(
    kinds: &[(crate::scenario::roster::UnitClass, FireRange)],
    long_range_factor: u8,
) -> Option<u32> {
    let mut longest = 0;
    for (class, range) in kinds {
        let r = match range {
            _ if class.is_gun() => return None,
            FireRange::AtLeast(_) => return None,
            FireRange::Normal(r) => u32::from(*r) * u32::from(long_range_factor),
            FireRange::Band(_, b) => u32::from(*b),
            FireRange::None => 0,
        };
        longest = longest.max(r);
    }
    Some(longest)
}

/// Guns and Mortars have checks of their own: a Gun its arc (R 20.4), a
/// Mortar its spotters (R 31.1).
#[derive(Clone, Copy)]
enum FoeKind {
    Plain,
    Gun,
    Mortar,
}

/// The roster's kinds whose units are Guns or fire as Mortars.
type SpecialKinds = std::sync::Arc<Vec<(String, FoeKind)>>;

/// What the Op Fire checks remember of a game: a resource of its world
/// (`phases::prepare` makes it), filled on first use. Both answers depend
/// on the world's roster and Player Aid alone; a world without it works
/// them out every time.
#[derive(Resource, Default)]
pub struct OpFireMemo {
    /// The roster's Guns and Mortars, with the roster they were read from.
    special: std::sync::Mutex<Option<(std::sync::Arc<crate::scenario::Roster>, SpecialKinds)>>,
    /// `fp_allows`'s answers, with the Player Aid they were read from.
    fp_allows: std::sync::Mutex<FpMemo>,
}

/// The [`SpecialKinds`] of the world's roster, listed once per game.
fn special_kinds(world: &World, roster: &std::sync::Arc<crate::scenario::Roster>) -> SpecialKinds {
    let list = || -> SpecialKinds {
        std::sync::Arc::new(
            roster
                .units
                .iter()
                .filter_map(|t| {
                    if t.class.is_gun() {
                        Some((t.id.clone(), FoeKind::Gun))
                    } else if crate::rules::mortar::fires_as_mortar(t.class) {
                        Some((t.id.clone(), FoeKind::Mortar))
                    } else {
                        None
                    }
                })
                .collect(),
        )
    };
    let Some(Ok(mut kept)) = world.get_resource::<OpFireMemo>().map(|m| m.special.lock()) else {
        return list();
    };
    if let Some((r, kinds)) = kept.as_ref()
        && std::sync::Arc::ptr_eq(r, roster)
    {
        return kinds.clone();
    }
    let kinds = list();
    *kept = Some((roster.clone(), kinds.clone()));
    kinds
}

/// How a unit would Op Fire at `at`: Op Fire or Final Op Fire (R 9.0,
/// R 10.0), whether a CP must be spent to reach beyond one hex (R 10.0), and
/// the facing it fires with (R 2.2, R 6.0, R 10.1). `wanted` is the facing
/// asked for; with none, a unit that must turn may still fire (the window
/// offers it), turning toward the mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpFirePlan {
    pub kind: FireKind,
    pub cp_range: bool,
    pub facing: Option<FireFacing>,
}

/// Whether `firer` may Op Fire or Final Op Fire at a unit moving into `at`.
pub fn may_fire_at(
    world: &World,
    firer: Entity,
    at: Coord,
    wanted: Option<Spine>,
) -> Result<OpFirePlan, Refusal> {
    let Some(u) = world
        .get::<Unit>(firer)
        .filter(|_| world.get::<Location>(firer).is_some())
    else {
        return Err(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        });
    };
    // No fire into a location holding friendly infantry (R 6.1).
    let friends_there =
        crate::world::queries::try_with_query::<(&Unit, &Location), (), _>(world, |mut q| {
            q.any(|(o, ol)| o.side == u.side && ol.coord == at && !ol.in_cave)
        });
    if friends_there != Some(false) {
        return Err(Refusal::NotEligible {
            unit: u.id.clone(),
            at: at.label(),
        });
    }
    plan_at(world, firer, at, wanted)
}

/// [`may_fire_at`] once it is known that no friendly unit is in `at`.
fn plan_at(
    world: &World,
    firer: Entity,
    at: Coord,
    wanted: Option<Spine>,
) -> Result<OpFirePlan, Refusal> {
    plan_in(world, &FireScene::of(world), firer, at, wanted).map_err(|refusal| {
        refusal.unwrap_or_else(|| Refusal::NotEligible {
            unit: world
                .get::<Unit>(firer)
                .map(|u| u.id.clone())
                .unwrap_or_default(),
            at: at.label(),
        })
    })
}

/// What the Op Fire checks of every unit at one hex share, read once for
/// all of them: the map, the Player Aid, the Night and rain and whether the
/// mover is in the first hex of its move.
struct FireScene {
    board: std::sync::Arc<crate::world::board::Board>,
    aid: std::sync::Arc<crate::scenario::PlayerAid>,
    roster: std::sync::Arc<crate::scenario::Roster>,
    conditions: crate::rules::fire::Conditions,
    first_hex: bool,
}

impl FireScene {
    fn of(world: &World) -> Self {
        FireScene::with(
            world,
            world.resource::<crate::world::BoardRes>().0.clone(),
            world.resource::<AidRes>().0.clone(),
            world.resource::<RosterRes>().0.clone(),
        )
    }

    /// The scene with the map, the Player Aid and the roster already read.
    fn with(
        world: &World,
        board: std::sync::Arc<crate::world::board::Board>,
        aid: std::sync::Arc<crate::scenario::PlayerAid>,
        roster: std::sync::Arc<crate::scenario::Roster>,
    ) -> Self {
        FireScene {
            board,
            aid,
            roster,
            conditions: super::fire::fire_conditions(world),
            first_hex: super::mortar::mover_in_first_hex(world),
        }
    }
}

/// [`plan_at`] with the shared reads done; `Err(None)`: not eligible.
/// The checks are pure, so their order only decides which runs first.
fn plan_in(
    world: &World,
    scene: &FireScene,
    firer: Entity,
    at: Coord,
    wanted: Option<Spine>,
) -> Result<OpFirePlan, Option<Refusal>> {
    let roster = &scene.roster;
    let er = world.entity(firer);
    let (Some(u), Some(l)) = (er.get::<Unit>(), er.get::<Location>()) else {
        return Err(Some(Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        }));
    };
    let ut = roster.get(&u.kind).ok_or(None)?;
    let kind = kind_for(er.get::<Marks>().is_some_and(|m| m.used));
    // A Gun: its arc, no CP, Final Op Fire only next to it (R 20.4, R 20.7).
    if ut.class.is_gun() {
        return super::gun::may_op_fire(world, firer, at, kind, wanted).map_err(Some);
    }
    let range = l.coord.distance(at);
    // Beyond an adjacent hex (R 43.4, R 47.4) Final Op Fire needs a CP (R 10.0).
    let cp_range = kind == FireKind::FinalOpFire
        && !crate::rules::fortifications::adjacent_hexes(&scene.board, l.coord, at);
    // At Night: Normal Range only, at seen targets (R 50.2); in the
    // Monsoon rain: range at most three (R 55.2).
    let question = FireKey {
        kind,
        firer: Firer::of(ut, u.reduced),
        range,
        cp_range,
        conditions: scene.conditions,
    };
    if !fp_allows(world, &scene.aid, question) {
        return Err(None);
    }
    // As `fortifications::los_query` asks it: at the open of `at`. The
    // firer's own thread first: the cheapest check, and the one that
    // refuses most units (Smoke never blocks, R 48.0).
    let query = crate::rules::los::LosQuery {
        from_in_cave: l.in_cave,
        ..crate::rules::los::LosQuery::new(l.coord, at)
    };
    let mortar = crate::rules::mortar::fires_as_mortar(ut.class);
    let blocked = crate::rules::los::is_blocked(&scene.board, &scene.aid, &query);
    if blocked && !mortar {
        return Err(None);
    }
    if cp_range && super::command_points::check(world, firer).is_err() {
        return Err(None);
    }
    super::night::check_sight(world, firer, at).map_err(|_| None)?;
    // No WT from a Swamp or Surf hex (R 45.6, R 52.0); a Mortar's firing
    // position (R 31.0).
    super::mortar::check_position(world, firer).map_err(|_| None)?;
    // A Mortar may see through a spotter, not at a mover's first hex (R 31.1).
    // Last: it searches the spotters' hexes. (Without the Smoke, which
    // never blocks a thread.)
    if blocked && !super::mortar::spotter_sees(world, firer, &query, scene.first_hex) {
        return Err(None);
    }
    // WTs and Japanese Squads cannot turn to Final Op Fire (R 10.1).
    let may_turn = !(kind == FireKind::FinalOpFire
        && (ut.class.is_weapon_team() || ut.nationality == Nationality::Japanese));
    let facing = super::fire::check_facing(world, firer, at, wanted, may_turn).map_err(Some)?;
    Ok(OpFirePlan {
        kind,
        cp_range,
        facing,
    })
}

/// An Op Fire eligibility question: the attack `plan_in` asks
/// `infantry_fp` about, by everything that varies in it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct FireKey {
    kind: FireKind,
    firer: Firer,
    range: u32,
    cp_range: bool,
    conditions: crate::rules::fire::Conditions,
}

impl std::hash::Hash for FireKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let side = &self.firer.side;
        (self.kind, self.firer.class, side.fp, side.prof, self.range).hash(h);
        (self.cp_range, self.conditions as u8).hash(h);
    }
}

impl FireKey {
    /// The attack itself: at a stationary target in the open, as the
    /// eligibility check asks it.
    fn context(&self) -> FireContext {
        let mut ctx = FireContext::new(self.kind, self.firer, Hexes(self.range), "open");
        ctx.cp_final_op_fire_range = self.cp_range;
        ctx.conditions = self.conditions;
        ctx
    }
}

/// The Player Aid the remembered answers were computed with (held, so
/// never another's), and the answers.
type FpMemo = (
    Option<std::sync::Arc<crate::scenario::PlayerAid>>,
    crate::world::fast_hash::FxHashMap<FireKey, bool>,
);

/// Whether `infantry_fp` allows the attack (R 6.0, R 9.0, R 10.0, R 50.2,
/// R 55.2): the eligibility check at every hex entered asks this for
/// every enemy unit, and the answer depends only on the Player Aid and
/// the question, so the game remembers it ([`OpFireMemo`]).
fn fp_allows(
    world: &World,
    aid: &std::sync::Arc<crate::scenario::PlayerAid>,
    key: FireKey,
) -> bool {
    let work = || infantry_fp(aid, &key.context()).is_ok();
    let Some(Ok(mut memo)) = world
        .get_resource::<OpFireMemo>()
        .map(|m| m.fp_allows.lock())
    else {
        return work();
    };
    if !memo
        .0
        .as_ref()
        .is_some_and(|a| std::sync::Arc::ptr_eq(a, aid))
    {
        *memo = (Some(aid.clone()), Default::default());
    }
    if let Some(allows) = memo.1.get(&key) {
        return *allows;
    }
    let allows = work();
    memo.1.insert(key, allows);
    allows
}

/// Op Fire for a unit not yet Used, Final Op Fire for a Used one (R 10.0).
pub fn kind_for(used: bool) -> FireKind {
    if used {
        FireKind::FinalOpFire
    } else {
        FireKind::OpFire
    }
}

/// The answer to an Op Fire window: these units fire, in order (none = pass).
pub fn answer(
    world: &mut World,
    firers: &[String],
    facing: &BTreeMap<String, Spine>,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Some(window) = world.get_resource::<OpFireWindow>().cloned() else {
        return Err(Refusal::NoDecisionPending);
    };
    let not_eligible = |f: &String| Refusal::NotEligible {
        unit: UnitId::from(f),
        at: window.at.label(),
    };
    check_answer(&window, firers)?;
    if let Some(f) = facing.keys().find(|f| !firers.contains(f)) {
        return Err(not_eligible(f));
    }
    // The answer to a Muzzle Flash (R 50.2).
    if world.contains_resource::<super::night::FlashResponse>() {
        return super::night::answer_flash(world, &window, firers, events);
    }
    // Every firer's facing and CP is checked before anyone fires.
    let mut plans = Vec::new();
    for id in firers {
        let found = crate::world::queries::with_query::<(Entity, &Unit), (), _>(world, |mut q| {
            q.find(|(_, u)| &u.id == id).map(|(e, _)| e)
        });
        let Some(e) = found else {
            return Err(not_eligible(id));
        };
        plans.push((
            e,
            may_fire_at(world, e, window.at, facing.get(id).copied())?,
        ));
    }
    let cp_units: Vec<Entity> = plans
        .iter()
        .filter(|(_, p)| p.cp_range)
        .map(|(e, _)| *e)
        .collect();
    super::command_points::check_all(world, &cp_units)?;
    world.remove_resource::<OpFireWindow>();
    if firers.is_empty() {
        events.push(GameEvent::OpFirePassed {
            side: window.side,
            at: window.at.label(),
        });
    }
    let mut stopped = false;
    for (id, (firer, plan)) in firers.iter().zip(plans) {
        if world.get::<Location>(firer).is_none() {
            continue;
        }
        if world.get_entity(window.mover).is_err() {
            break;
        }
        let kind = plan.kind;
        // Fired or not, the unit is Used; an Op Fire marker flips (R 9.0,
        // R 4.3), still counting +1 Prof for this attack.
        if marks(world, firer).op_fire {
            mark_attack(world, firer, |a| a.from_op_fire_marker = true);
        }
        mark(world, firer, Marks::flip_to_used);
        events.push(GameEvent::OpFires {
            unit: UnitId::from(id),
            mover: window.mover_id.clone(),
            at: window.at.label(),
            final_op_fire: kind == FireKind::FinalOpFire,
        });
        // A Gun: MC, turn, Prof Check, then its shot (R 20.2, R 20.4).
        let fate = if super::gun::is_gun(world, firer) {
            super::gun::fire_at(
                world,
                firer,
                window.at,
                kind,
                plan.facing,
                Some(window.mover),
                events,
            )
        } else {
            // Beyond one hex a Used unit needs a CP, spent before its MC (R 10.0).
            if plan.cp_range {
                let _ = super::command_points::spend(
                    world,
                    firer,
                    super::command_points::CpFunction::FinalOpFireRange,
                    events,
                );
            }
            if !super::checks::morale_check_to_act(world, firer, "R 6.0", events) {
                mark_attack(world, firer, |a| a.from_op_fire_marker = false);
                events.push(GameEvent::FireFailed {
                    unit: UnitId::from(id),
                });
                continue;
            }
            super::fire::take_facing(world, firer, plan.facing, events);
            super::concealment::lose_concealment(world, firer, "it fired", events);
            // Its Muzzle Flash may be answered after this window (R 50.2).
            super::night::fired(world, firer);
            // From a Cave, or at a mover in one (R 43.4).
            let to_cave = super::fortifications::attacks_cave(world, firer, Some(window.mover));
            let query = super::fortifications::los_query(world, firer, window.at, to_cave);
            let first_hex = super::mortar::mover_in_first_hex(world);
            let Some((sight, directed)) =
                super::mortar::sight_or_no_los(world, firer, id, &query, first_hex, events)
            else {
                continue;
            };
            let extras = super::fire::AttackExtras {
                directed,
                ..Default::default()
            };
            let fate = super::fire::attack_location_with(
                world,
                firer,
                window.at,
                kind,
                &sight,
                Some(window.mover),
                extras,
                events,
            );
            mark_attack(world, firer, |a| {
                a.turned = false;
                a.from_op_fire_marker = false;
            });
            fate
        };
        match fate {
            MoverFate::Gone => break,
            MoverFate::Suppressed => {
                // An immediate MC for each Suppression (R 5.0, R 9.0).
                if !super::movement::mover_check(world, window.mover, events) {
                    stopped = true;
                }
            }
            MoverFate::NotHit => {}
        }
        super::combat_events::after_attack(world, events);
    }
    // The attack that eliminated the mover still gives its Combat Event.
    super::combat_events::after_attack(world, events);
    let resume = if stopped {
        super::night::Resume::Stop
    } else {
        super::night::Resume::Continue
    };
    // Muzzle Flash responses come first; the move waits for them (R 50.2).
    if world.get_entity(window.mover).is_ok() && super::night::after_op_fire(world, resume, events)
    {
        return Ok(());
    }
    if world.get_entity(window.mover).is_err() {
        world.remove_resource::<super::movement::MoveInProgress>();
        super::obstacles::forget_gone(world);
        super::night::open_flashes(world, events);
    } else if stopped {
        stop_move(world, events);
    } else {
        continue_move(world, events);
    }
    Ok(())
}

/// Checks an answer to the window: each firer eligible, none named twice.
pub fn check_answer(window: &OpFireWindow, firers: &[String]) -> Result<(), Refusal> {
    for (i, f) in firers.iter().enumerate() {
        // Only ONE unit fires by a Trip Flare's or Muzzle Flash's light
        // (R 43.6, R 50.2).
        let listed = |ids: &[crate::world::UnitId], f: &String| ids.iter().any(|id| id == f);
        let second_lit =
            listed(&window.lit_only, f) && firers[..i].iter().any(|o| listed(&window.lit_only, o));
        if !listed(&window.eligible, f) || firers[..i].contains(f) || second_lit {
            return Err(Refusal::NotEligible {
                unit: UnitId::from(f),
                at: window.at.label(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::roster::UnitClass;

    /// R 6.0: a Squad of Normal Range 6 fires to 12 with the long range
    /// factor 2; a GD band to its end (R 59.3); a Gun (R 20.4) or a Mortar
    /// `>1` (R 31.0) has no limit, so a counter anywhere in sight offers a
    /// window; a Decoy alone offers none beyond its hex.
    #[test]
    fn a_counter_offers_a_window_as_far_as_its_side_could_fire() {
        let squad = (UnitClass::Squad, FireRange::Normal(6));
        let mg = (UnitClass::MgTeam, FireRange::Normal(8));
        let gd = (UnitClass::GdSquad, FireRange::Band(2, 13));
        let decoy = (UnitClass::Decoy, FireRange::None);
        assert_eq!(longest_reach(&[squad, decoy], 2), Some(12));
        assert_eq!(longest_reach(&[squad, mg], 2), Some(16));
        assert_eq!(longest_reach(&[squad, gd], 2), Some(13));
        assert_eq!(longest_reach(&[decoy], 2), Some(0));
        assert_eq!(
            longest_reach(&[squad, (UnitClass::Gun, FireRange::None)], 2),
            None
        );
        assert_eq!(
            longest_reach(&[(UnitClass::MortarTeam, FireRange::AtLeast(2)), squad], 2),
            None
        );
    }
}
