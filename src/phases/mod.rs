//! The turn after the Operations Phase (R 1.0): the Rout Phase
//! (`rout.rs`, R 11.0–11.2), the Melee Phase (`melee.rs`, R 12.0–12.2), the
//! Recovery Phase (`recovery.rs`, R 13.0), and the end of the scenario with
//! hex control, reinforcements and victory (`end.rs`, R 16.1, R 18.0).
//!
//! [`begin_game`] and [`apply`] drive a whole game: orders of the
//! Operations Phase go to `engine::operations`; every phase without a choice
//! to make then runs by itself until the game waits for a [`Decision`]
//! (answered by an order, like the Op Fire window) or the game is over.

pub mod cp;
pub mod end;
pub mod melee;
pub mod recovery;
pub mod rout;

use bevy::prelude::*;

use crate::engine::events::GameEvent;
use crate::engine::orders::{Order, Refusal};
use crate::engine::random::Lcg;
use crate::scenario::Coord;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, Location, Phase, RosterRes, TurnTrack, Unit};

/// A choice the game waits for, answered by an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Spend a CP to re-roll (R 3.0): a failed Rout MC (`units` is the one
    /// unit) or a unit's Melee dice (one CP per side per Melee). Answer
    /// `cp_reroll(unit: Some(..))` or `cp_reroll(unit: None)`.
    CpReroll {
        side: SideId,
        units: Vec<String>,
        what: &'static str,
    },
    /// Where a routing unit goes when several hexes qualify (R 11.0), and,
    /// where facing is in use (`facing`), the facing it adopts at the end of
    /// its rout (R 2.2: asked then even when one hex qualifies). Answer
    /// `rout(unit, to)` or `rout(unit, to, facing: Some(w))`; without a
    /// facing the unit keeps its own.
    RoutDestination {
        side: SideId,
        unit: String,
        choices: Vec<String>,
        facing: bool,
    },
    /// Which Melee the first player resolves next (R 12.0). Answer
    /// `melee(at)`.
    MeleeOrder { side: SideId, choices: Vec<String> },
    /// The owner allocates `count` Melee casualties among its units
    /// (R 12.0). Answer `casualties(units: [..])`, one id per Reduction.
    Casualties {
        side: SideId,
        at: String,
        count: u8,
        units: Vec<String>,
    },
    /// Where a reinforcement enters (R 16.1, R 18.0). Answer
    /// `place(unit, at)`, or `hold(unit)` when `may_hold`: it stays off
    /// board until a later turn (R 18.0).
    Reinforcement {
        side: SideId,
        unit: String,
        choices: Vec<String>,
        may_hold: bool,
    },
    /// At a Banzai announcement the Japanese choose which of their GD
    /// Squads charge (any of `units`, or none). Answer `banzai_gd(units)`
    /// (R 59.6).
    BanzaiGd { side: SideId, units: Vec<String> },
    /// At a Banzai announcement the Allied player may mark any of these
    /// units Op Fire. Answer `banzai_op_fire(units)`, any of them or none
    /// (R 59.6).
    BanzaiOpFire { side: SideId, units: Vec<String> },
    /// At the start of a turn of a Banzai window that is not its last, the
    /// Japanese choose to announce the window's one charge now or wait;
    /// on Turn `last` it comes without asking. Answer
    /// `banzai_announce(now: true)` or `banzai_announce(now: false)`
    /// (R 59.6).
    BanzaiAnnounce { side: SideId, turn: u8, last: u8 },
    /// Where facing is in use, a Concealed Infantry unit that lost its
    /// counter by another's doing (`why`) chooses its facing (R 2.2); it
    /// had `facing` under the counter. Asked one unit at a time, by id,
    /// before the action that revealed it goes on. Answer
    /// `face(unit, facing: Some(w))`, or `face(unit)` to keep its facing.
    RevealedFacing {
        side: SideId,
        unit: String,
        why: &'static str,
        facing: Option<crate::scenario::schema::Spine>,
    },
}

impl Decision {
    pub fn side(&self) -> SideId {
        match self {
            Decision::CpReroll { side, .. }
            | Decision::RoutDestination { side, .. }
            | Decision::MeleeOrder { side, .. }
            | Decision::Casualties { side, .. }
            | Decision::Reinforcement { side, .. }
            | Decision::BanzaiGd { side, .. }
            | Decision::BanzaiOpFire { side, .. }
            | Decision::BanzaiAnnounce { side, .. }
            | Decision::RevealedFacing { side, .. } => *side,
        }
    }

    /// What the game waits for, in words (with its rule).
    pub fn describe(&self) -> String {
        match self {
            Decision::CpReroll { units, what, .. } => {
                format!(
                    "a CP re-roll of {what} for {} or none (R 3.0)",
                    units.join(", ")
                )
            }
            Decision::RoutDestination {
                unit,
                choices,
                facing,
                ..
            } => {
                let and_facing = if *facing {
                    " and the facing it adopts there (R 2.2)"
                } else {
                    ""
                };
                format!(
                    "{unit}'s Rout destination, one of {} (R 11.0){and_facing}",
                    choices.join(", ")
                )
            }
            Decision::MeleeOrder { choices, .. } => {
                format!("the next Melee, one of {} (R 12.0)", choices.join(", "))
            }
            Decision::Casualties {
                at, count, units, ..
            } => format!(
                "{count} Melee casualties in {at} among {} (R 12.0)",
                units.join(", ")
            ),
            Decision::Reinforcement {
                unit,
                choices,
                may_hold,
                ..
            } => format!(
                "where {unit} enters{}, one of {} (R 18.0)",
                if *may_hold {
                    " or to keep it off board"
                } else {
                    ""
                },
                if choices.len() > 8 {
                    format!("{} and {} more", choices[..8].join(", "), choices.len() - 8)
                } else {
                    choices.join(", ")
                }
            ),
            Decision::BanzaiGd { units, .. } => format!(
                "which GD Squads charge, any of {} or none (R 59.6)",
                units.join(", ")
            ),
            Decision::BanzaiOpFire { units, .. } => format!(
                "which units to mark Op Fire against the Banzai Charge, any of {} or none (R 59.6)",
                units.join(", ")
            ),
            Decision::BanzaiAnnounce { turn, last, .. } => format!(
                "whether to announce the Banzai Charge now, on Turn {turn}, or wait (it comes by itself on Turn {last}) (R 59.6)"
            ),
            Decision::RevealedFacing { unit, why, .. } => format!(
                "{unit}'s facing: it lost its Conceal counter ({why}) and chooses its facing (R 2.2)"
            ),
        }
    }
}

/// The decision the game waits for, if any.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Pending(pub Decision);

/// Asks for a decision: the event says who must answer what.
pub(crate) fn ask(world: &mut World, decision: Decision, events: &mut Vec<GameEvent>) {
    events.push(GameEvent::DecisionAwaited {
        side: decision.side(),
        what: decision.describe(),
    });
    world.insert_resource(Pending(decision));
}

/// Starts a game at its first turn: hexes of the setup areas controlled,
/// Turn 1 reinforcements placed, then the Operations Phase.
pub fn begin_game(world: &mut World) -> Vec<GameEvent> {
    end::init_control(world);
    let mut events = Vec::new();
    advance(world, &mut events);
    events
}

/// Checks an order against the state, then executes it and runs the game on
/// until it waits again.
pub fn apply(world: &mut World, order: &Order) -> Result<Vec<GameEvent>, Refusal> {
    if world.get_resource::<end::GameOver>().is_some() {
        return Err(Refusal::GameOver);
    }
    let mut events = Vec::new();
    if let Some(Pending(decision)) = world.get_resource::<Pending>().cloned() {
        answer(world, &decision, order, &mut events)?;
        advance(world, &mut events);
        crate::engine::combat_events::record_eliminations(world, &events);
        return Ok(events);
    }
    if is_answer(order) {
        return Err(Refusal::NothingToAnswer);
    }
    let phase = world.get_resource::<TurnTrack>().map(|t| t.phase);
    if phase != Some(Phase::Operations) {
        return Err(Refusal::NotOperationsPhase);
    }
    melee::check_no_withdrawal(world, order)?;
    crate::engine::banzai::check_order(world, order)?;
    let ops = crate::engine::operations::apply(world, order)?;
    end::note_moves(world, &ops);
    events.extend(ops);
    advance(world, &mut events);
    // Combat Event 4 may bring back a unit lost in any phase (R 17.0).
    crate::engine::combat_events::record_eliminations(world, &events);
    Ok(events)
}

fn is_answer(order: &Order) -> bool {
    matches!(
        order,
        Order::CpReroll { .. }
            | Order::Rout { .. }
            | Order::Melee { .. }
            | Order::Casualties { .. }
            | Order::Place { .. }
            | Order::Hold { .. }
            | Order::BanzaiGd { .. }
            | Order::BanzaiOpFire { .. }
            | Order::BanzaiAnnounce { .. }
            | Order::Face { .. }
    )
}

fn answer(
    world: &mut World,
    decision: &Decision,
    order: &Order,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    match (decision, order) {
        (Decision::CpReroll { .. }, Order::CpReroll { unit }) => {
            match world.resource::<TurnTrack>().phase {
                Phase::Rout => rout::answer_reroll(world, decision, unit.as_deref(), events),
                _ => melee::answer_reroll(world, decision, unit.as_deref(), events),
            }
        }
        (Decision::RoutDestination { .. }, Order::Rout { unit, to, facing }) => {
            rout::answer_destination(world, decision, unit, to, *facing, events)
        }
        (Decision::MeleeOrder { choices, .. }, Order::Melee { at }) => {
            if !choices.contains(at) {
                return Err(Refusal::WrongAnswer {
                    reason: format!("no Melee to resolve in {at} (R 12.0)"),
                });
            }
            world.remove_resource::<Pending>();
            melee::choose(world, at, events);
            Ok(())
        }
        (Decision::Casualties { .. }, Order::Casualties { units }) => {
            melee::answer_casualties(world, decision, units, events)
        }
        (Decision::Reinforcement { .. }, Order::Place { unit, at }) => {
            end::answer_place(world, decision, unit, at, events)
        }
        (Decision::Reinforcement { .. }, Order::Hold { unit }) => {
            end::answer_hold(world, decision, unit, events)
        }
        (Decision::BanzaiGd { units: choices, .. }, Order::BanzaiGd { units }) => {
            crate::engine::banzai::answer_gd(world, choices, units, events)
        }
        (
            Decision::BanzaiOpFire {
                side,
                units: choices,
            },
            Order::BanzaiOpFire { units },
        ) => crate::engine::banzai::answer_op_fire(world, *side, choices, units, events),
        (Decision::RevealedFacing { unit: asked, .. }, Order::Face { unit, facing }) => {
            crate::engine::concealment::answer_facing(world, asked, unit, *facing, events)
        }
        (Decision::BanzaiAnnounce { .. }, Order::BanzaiAnnounce { now }) => {
            crate::engine::banzai::answer_announce(world, *now, events);
            Ok(())
        }
        _ => Err(Refusal::DecisionAwaited {
            what: decision.describe(),
        }),
    }
}

/// Runs every phase that needs no choice, until the game waits for an order
/// (Operations), a decision, or is over.
pub fn advance(world: &mut World, events: &mut Vec<GameEvent>) {
    // Every pass either waits, ends the game, or moves a phase on; the bound
    // only guards against a bug looping forever.
    for _ in 0..1000 {
        if world.get_resource::<Pending>().is_some()
            || world.get_resource::<end::GameOver>().is_some()
        {
            return;
        }
        end::note_occupied(world);
        let Some(phase) = world.get_resource::<TurnTrack>().map(|t| t.phase) else {
            return;
        };
        match phase {
            Phase::Setup => {
                if end::place_reinforcements(world, events) {
                    // A Banzai Charge is announced before any action (R 59.6).
                    let start = crate::engine::banzai::begin_turn(world, events);
                    let ops = crate::engine::operations::begin_operations(world);
                    let ended = world.resource::<TurnTrack>().phase != Phase::Operations;
                    events.extend(ops);
                    if !ended {
                        // Its choices, or the question whether to call
                        // it now, come before the first order.
                        crate::engine::banzai::ask_at_start(world, start, events);
                        return;
                    }
                }
            }
            Phase::Operations => {
                if world
                    .get_resource::<crate::engine::operations::OpsState>()
                    .is_some()
                {
                    return;
                }
                // No Operations Phase under way (a world set up by hand).
                let ops = crate::engine::operations::begin_operations(world);
                events.extend(ops);
                if world.resource::<TurnTrack>().phase == Phase::Operations {
                    return;
                }
            }
            Phase::Rout => {
                if rout::run(world, events) {
                    next_phase(world, Phase::Rout, Phase::Melee, events);
                }
            }
            Phase::Melee => {
                if melee::run(world, events) {
                    next_phase(world, Phase::Melee, Phase::Recovery, events);
                }
            }
            Phase::Recovery => recovery::run(world, events),
        }
    }
}

pub(crate) fn next_phase(world: &mut World, from: Phase, to: Phase, events: &mut Vec<GameEvent>) {
    if let Some(mut t) = world.get_resource_mut::<TurnTrack>() {
        t.phase = to;
    }
    events.push(GameEvent::PhaseEnded {
        phase: from,
        next: to,
    });
}

/// The first player of the scenario: first in the Rout Phase and the one
/// who orders the Melees (R 11.0, R 12.0).
pub(crate) fn first_player(world: &World) -> SideId {
    world.resource::<ActiveScenario>().scenario.first_player
}

/// One unit on the board, as the phases read it.
#[derive(Debug, Clone)]
pub(crate) struct OnBoard {
    pub entity: Entity,
    pub unit: Unit,
    pub at: Coord,
    pub in_cave: bool,
    pub class: UnitClass,
    /// The id's first bytes, for sorting.
    id_prefix: u64,
}

impl OnBoard {
    pub fn location(&self) -> (Coord, bool) {
        (self.at, self.in_cave)
    }

    pub fn is_decoy(&self) -> bool {
        self.class == UnitClass::Decoy
    }
}

/// Every unit on the board, sorted by id.
pub(crate) fn on_board(world: &mut World) -> Vec<OnBoard> {
    let roster = world.resource::<RosterRes>().0.clone();
    let mut all: Vec<OnBoard> =
        crate::world::queries::collect::<(Entity, &Unit, &Location), (), _>(world, |(e, u, l)| {
            OnBoard {
                entity: e,
                unit: u.clone(),
                at: l.coord,
                in_cave: l.in_cave,
                class: roster.get(&u.kind).map_or(UnitClass::Squad, |t| t.class),
                id_prefix: id_prefix(&u.id),
            }
        });
    // By id; the first eight bytes compared as one number first (ids are
    // short), the whole text only when those are equal.
    all.sort_by(|a, b| {
        a.id_prefix
            .cmp(&b.id_prefix)
            .then_with(|| a.unit.id.cmp(&b.unit.id))
    });
    all
}

/// The first eight bytes of an id as a big-endian number, zero-padded: two
/// ids whose prefixes differ order as their prefixes do.
fn id_prefix(id: &str) -> u64 {
    id.bytes()
        .chain(std::iter::repeat(0))
        .take(8)
        .fold(0, |k, b| k << 8 | u64::from(b))
}

/// Whether a unit shares its location with an enemy unit that is not a
/// Decoy: in Melee (R 12.0).
pub(crate) fn in_melee(all: &[OnBoard], u: &OnBoard) -> bool {
    all.iter()
        .any(|o| o.unit.side != u.unit.side && !o.is_decoy() && o.location() == u.location())
}

/// A random answer to the decision pending, for the random player.
pub fn random_answer(world: &World, rng: &mut Lcg) -> Option<Order> {
    let Pending(decision) = world.get_resource::<Pending>()?;
    let pick = |v: &[String], rng: &mut Lcg| v[rng.below(v.len())].clone();
    Some(match decision {
        Decision::CpReroll { units, .. } => Order::CpReroll {
            unit: (rng.below(2) == 0 && !units.is_empty()).then(|| pick(units, rng)),
        },
        // One hex asked only for its facing: no draw (the unit keeps its
        // facing), so random games stay as they were before the question.
        Decision::RoutDestination { unit, choices, .. } => Order::Rout {
            unit: unit.clone(),
            to: match choices.as_slice() {
                [only] => only.clone(),
                _ => pick(choices, rng),
            },
            facing: None,
        },
        Decision::MeleeOrder { choices, .. } => Order::Melee {
            at: pick(choices, rng),
        },
        Decision::Casualties {
            at, count, units, ..
        } => Order::Casualties {
            units: melee::random_allocation(world, at, *count, units, rng),
        },
        Decision::Reinforcement {
            unit,
            may_hold: true,
            ..
        } if rng.below(10) == 0 => Order::Hold { unit: unit.clone() },
        Decision::Reinforcement { unit, choices, .. } => Order::Place {
            unit: unit.clone(),
            at: pick(choices, rng),
        },
        Decision::BanzaiGd { units, .. } => Order::BanzaiGd {
            units: units
                .iter()
                .filter(|_| rng.below(2) == 0)
                .cloned()
                .collect(),
        },
        Decision::BanzaiOpFire { units, .. } => Order::BanzaiOpFire {
            units: units
                .iter()
                .filter(|_| rng.below(2) == 0)
                .cloned()
                .collect(),
        },
        Decision::BanzaiAnnounce { .. } => Order::BanzaiAnnounce {
            now: rng.below(2) == 0,
        },
        // Any of the six hexspines (R 2.2).
        Decision::RevealedFacing { unit, .. } => {
            let spines = crate::scenario::schema::Spine::ALL;
            Order::Face {
                unit: unit.clone(),
                facing: Some(spines[rng.below(spines.len())]),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R 2.2: the random player turns a revealed unit to one of the six
    /// hexspines, drawn from its seeded generator (the same seed, the same
    /// spine).
    #[test]
    fn the_random_player_draws_a_revealed_unit_s_facing() {
        let mut world = World::new();
        world.insert_resource(Pending(Decision::RevealedFacing {
            side: SideId::Axis,
            unit: "J1".into(),
            why: "it was Suppressed",
            facing: None,
        }));
        let (mut rng, mut again) = (Lcg(7), Lcg(7));
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..64 {
            let answer = random_answer(&world, &mut rng);
            assert_eq!(answer, random_answer(&world, &mut again));
            let Some(Order::Face {
                unit,
                facing: Some(f),
            }) = answer
            else {
                panic!("no facing drawn: {answer:?}");
            };
            assert_eq!(unit, "J1");
            seen.insert(f);
        }
        assert_eq!(seen.len(), 6, "{seen:?}");
    }
    /// Ids ordered by their prefix number, then by text, order as the text.
    #[test]
    fn id_prefixes_order_as_the_ids() {
        let mut ids = vec![
            "A10",
            "A1",
            "",
            "B2",
            "A2",
            "G12345678",
            "G12345677",
            "G1234567",
            "g1",
            "A1a",
        ];
        let mut by_prefix = ids.clone();
        by_prefix.sort_by(|a, b| id_prefix(a).cmp(&id_prefix(b)).then_with(|| a.cmp(b)));
        ids.sort();
        assert_eq!(by_prefix, ids);
    }
}
