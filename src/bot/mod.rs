//! The bot: a player that gives the same orders and answers a person gives,
//! chosen by exact odds (`rules::odds`, `engine::fire::plan_attack`), the
//! danger of each hex it could reach, the scenario's victory conditions
//! (`rules::victory`) and the Ops Range tempo (R 4.1). It sees what its
//! side may see (R 15.0, `view`). Every order is checked with the engine's
//! own checks before it is given; the fallback is a Pass, a hold fire, or
//! marking a unit Used. See `docs/bot.md`.

mod answers;
mod cp;
mod doctrine;
mod guns;
mod memo;
mod night;
mod ops;
pub mod sim;
mod smoke;
pub mod view;

use std::str::FromStr;

use bevy::prelude::*;

use crate::engine::Order;
use crate::engine::combat_events::CombatEventDecision;
use crate::engine::decision::{Decision, Pending};
use crate::engine::op_fire::OpFireWindow;
use crate::engine::operations::OpsState;
use crate::engine::phases::end::GameOver;
use crate::engine::random::Lcg;
use crate::scenario::schema::SideId;

use view::{LosCache, TypeCache, View};

/// How well the bot plays: its judgement, never its dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Level {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "normal" => Ok(Level::Normal),
            "hard" => Ok(Level::Hard),
            _ => Err(format!("unknown bot level `{s}`: use easy, normal or hard")),
        }
    }
}

/// What a level changes: the weights of its judgement and how often it
/// deliberately takes a lesser order.
#[derive(Debug, Clone, Copy)]
pub struct Judgement {
    /// Weight of the fire a hex is exposed to.
    pub danger: f32,
    /// Weight of Op Fire met along a path.
    pub path_danger: f32,
    /// Weight of each hex of progress toward an objective.
    pub progress: f32,
    /// Below this value the bot passes instead of Using a unit (R 4.1).
    pub pass_bar: f32,
    /// Chance to take a lesser order on purpose, and among how many.
    pub mistake: f32,
    pub mistake_among: usize,
    /// How much it minds its side's doctrine (`bot::doctrine`).
    pub doctrine: f32,
    /// Whether it spends CPs in the Operations Phase (Follow Me!, +1 Prof
    /// FP, a readied MC re-roll), not only on failed Rout MCs.
    pub tactical_cp: bool,
}

impl Level {
    pub fn judgement(self) -> Judgement {
        match self {
            Level::Easy => Judgement {
                danger: 0.4,
                path_danger: 0.2,
                progress: 0.12,
                pass_bar: 0.0,
                mistake: 0.35,
                mistake_among: 5,
                doctrine: 0.3,
                tactical_cp: false,
            },
            Level::Normal => Judgement {
                danger: 1.0,
                path_danger: 0.8,
                progress: 0.15,
                pass_bar: 0.04,
                mistake: 0.08,
                mistake_among: 3,
                doctrine: 1.0,
                tactical_cp: true,
            },
            Level::Hard => Judgement {
                danger: 1.0,
                path_danger: 1.0,
                progress: 0.15,
                pass_bar: 0.04,
                mistake: 0.0,
                mistake_among: 1,
                doctrine: 1.2,
                tactical_cp: true,
            },
        }
    }
}

/// A bot player for either side.
pub struct Bot {
    pub level: Level,
    rng: Lcg,
    los: LosCache,
    types: TypeCache,
    /// Reach maps by (unit, hex, enemy positions).
    #[allow(clippy::type_complexity)]
    reach: view::FastMap<
        (Entity, crate::scenario::Coord, u64, u16),
        std::sync::Arc<view::FastMap<crate::scenario::Coord, memo::Reached>>,
    >,
    /// Danger and Op Fire exposure by (hex, kind) for the enemy
    /// situation of the given digest (`View::enemy_key`).
    danger: (u64, view::FastMap<(crate::scenario::Coord, u8), f32>),
    /// The order planned after a CP order (R 3.0): given next if the
    /// engine still accepts it.
    next: Option<Order>,
}

impl Bot {
    pub fn new(level: Level, seed: u64) -> Self {
        Bot {
            level,
            rng: Lcg(seed ^ 0xb07_b07),
            los: LosCache::default(),
            types: TypeCache::default(),
            reach: Default::default(),
            danger: Default::default(),
            next: None,
        }
    }

    /// The bot, starting from another bot's memo of the map (a simulation
    /// hands it from one game to the next; see `memo`).
    pub fn with_memo(mut self, memo: Option<std::sync::Arc<memo::MapMemo>>) -> Self {
        self.los = view::LosCache::with_memo(memo);
        self
    }

    /// This bot's memo of the map, once it has decided something.
    pub fn memo(&self) -> Option<std::sync::Arc<memo::MapMemo>> {
        self.los.memo().cloned()
    }

    /// The next order or decision answer for whichever side must act now.
    /// Never an order the engine refuses: each is checked with the
    /// engine's own checks, falling back to Pass / hold fire.
    pub fn order(&mut self, world: &mut World) -> Order {
        let Some(side) = acting_side(world) else {
            return Order::Pass;
        };
        if let Some(next) = self.next.take()
            && crate::engine::operations::check(world, &next).is_ok()
        {
            return next;
        }
        self.los.bind(world);
        let view = View::of(world, side, &mut self.types, self.los.memo().cloned());
        if self.danger.0 != view.enemy_key {
            self.danger = (view.enemy_key, Default::default());
        }
        match crate::engine::decision::awaited(world) {
            // The window's state (the mover, the hex) beside the decision's
            // answers: any of the eligible units (R 9.0, R 10.0).
            Some(d @ Decision::OpFire { .. }) => {
                if let Some(w) = world.get_resource::<OpFireWindow>().cloned() {
                    let eligible = d.legal_answers().picks.map(|p| p.options);
                    return answers::op_fire(self, world, &view, &w, &eligible.unwrap_or_default());
                }
            }
            Some(d) => {
                let order = answers::decision(self, world, &view, &d);
                return face_the_enemy(world, &view, order);
            }
            None => {}
        }
        let order = ops::operations(self, world, &view);
        face_the_enemy(world, &view, order)
    }
}

/// A move or a rout ends facing the nearest enemy the side can see from
/// where it ends (R 2.2: "A moving or Routing unit may adopt any facing at
/// the end of its move"), and a unit revealed by the enemy faces the
/// nearest enemy from its hex (R 2.2: "A Concealed Infantry unit chooses
/// its facing when it loses its Concealment"), where facing is in use;
/// with no enemy in sight of the map the unit keeps its facing.
fn face_the_enemy(world: &World, view: &View, mut order: Order) -> Order {
    if !crate::engine::fire::facing_in_use(world) {
        return order;
    }
    let parse =
        |l: &str| crate::scenario::Coord::parse(l, view.board.columns, view.board.rows).ok();
    let (end, facing) = match &mut order {
        Order::Move {
            path,
            facing: facing @ None,
            ..
        } => (path.last().and_then(|l| parse(l)), facing),
        Order::Rout {
            to,
            facing: facing @ None,
            ..
        } => (parse(to), facing),
        Order::Face {
            unit,
            facing: facing @ None,
        } => (
            view.pieces.iter().find(|p| p.id == *unit).map(|p| p.at),
            facing,
        ),
        _ => return order,
    };
    if let Some(end) = end
        && let Some(nearest) = view
            .pieces
            .iter()
            .filter(|p| p.side != view.me && p.at != end)
            .min_by_key(|p| (end.distance(p.at), p.id.clone()))
    {
        *facing = Some(crate::rules::facing::facing_toward(end, nearest.at));
    }
    order
}

/// The side that must give the next order or answer: a Combat Event
/// choice (R 17.0), a pending Rout, Melee or reinforcement decision
/// (R 11.0, R 12.0, R 18.0), an Op Fire window (R 9.0), else the side whose
/// Ops Range it is (R 4.1). `None` when the game is over.
pub fn acting_side(world: &World) -> Option<SideId> {
    side_to_act(
        world.get_resource::<GameOver>().is_some(),
        world.get_resource::<CombatEventDecision>(),
        world.get_resource::<Pending>(),
        world.get_resource::<OpFireWindow>(),
        world.get_resource::<OpsState>(),
    )
}

/// `acting_side` from the resources it reads (for systems that hold them).
pub fn side_to_act(
    game_over: bool,
    event: Option<&CombatEventDecision>,
    pending: Option<&Pending>,
    window: Option<&OpFireWindow>,
    ops: Option<&OpsState>,
) -> Option<SideId> {
    if game_over {
        return None;
    }
    // As `decision::awaited` orders them: a pending question first.
    if let Some(Pending(d)) = pending {
        return Some(d.side());
    }
    if let Some(d) = event {
        return Some(d.side);
    }
    if let Some(w) = window {
        return Some(w.side);
    }
    ops.map(|s| s.acting)
}
