//! The decisions the game waits for: one protocol for every question a
//! player is asked mid-turn — an Op Fire window or a Muzzle Flash answer
//! (R 9.0, R 10.0, R 50.2), a Combat Event pick (R 17.0), a CP re-roll
//! (R 3.0), a Rout destination and facing (R 11.0, R 2.2), the next Melee and
//! its casualties (R 12.0), a reinforcement's hex (R 16.1, R 18.0), the
//! Banzai announcement and its choices (R 59.6), a revealed unit's facing
//! (R 2.2). A rule that must ask raises a [`Decision`] with [`ask`]; the
//! driver (`engine::game`) stops there, and the answer comes back as an
//! [`Order`] through [`crate::engine::game::apply`]. [`awaited`] shows the
//! one the game waits for, [`Decision::legal_answers`] every answer to it.

use bevy::prelude::*;

use crate::engine::events::GameEvent;
use crate::engine::orders::Order;
use crate::engine::random::Lcg;
use crate::scenario::schema::SideId;

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
    /// An Op Fire window (R 9.0, R 10.0): `side` may fire at `mover` in
    /// `at` with any of `eligible`, at most one of `lit_only` (seeing the
    /// hex only by a Trip Flare's or a Muzzle Flash's light, R 43.6,
    /// R 50.2); or the answer to a Muzzle Flash (`muzzle_flash`: Normal FP,
    /// one unit at most, R 50.2). Answer `op_fire(firers: [..])`, none
    /// holding fire. Its state is `op_fire::OpFireWindow`.
    OpFire {
        side: SideId,
        mover: String,
        at: String,
        eligible: Vec<String>,
        lit_only: Vec<String>,
        muzzle_flash: bool,
    },
    /// A Combat Event's question (R 17.0): `side` picks `count` distinct
    /// `options` (unit ids, or entry numbers). Answer
    /// `combat_event(picks: [..])`. Its state is
    /// `combat_events::CombatEventDecision`.
    CombatEvent {
        side: SideId,
        question: String,
        options: Vec<String>,
        count: usize,
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
            | Decision::RevealedFacing { side, .. }
            | Decision::OpFire { side, .. }
            | Decision::CombatEvent { side, .. } => *side,
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
            Decision::OpFire {
                mover,
                at,
                eligible,
                ..
            } if eligible.is_empty() => format!(
                "whether to fire at {mover} in {at}: no unit may, only Conceal counters might, so hold fire (R 9.0, R 15.0)"
            ),
            Decision::OpFire {
                mover,
                at,
                eligible,
                ..
            } => format!(
                "fire at {mover} in {at} with any of {} or hold fire (R 9.0)",
                eligible.join(", ")
            ),
            Decision::CombatEvent {
                question, count, ..
            } => format!("{question} Pick {count} (R 17.0)"),
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

/// One answer a player may give: its words on a button and the order it
/// sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub label: String,
    pub order: Order,
}

/// What a several-pick answer is made into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickKind {
    /// `casualties(units)`: a unit may be named once per Reduction (R 12.0).
    Casualties,
    /// `combat_event(picks)`: distinct options (R 17.0).
    CombatEvent,
    /// `banzai_gd(units)`: any of the GD Squads, or none (R 59.6).
    BanzaiGd,
    /// `banzai_op_fire(units)`: any of the units, or none (R 59.6).
    BanzaiOpFire,
    /// `op_fire(firers)`: any of the eligible units, or none (R 9.0); the
    /// engine refuses more than one that sees the hex only by a flare's or
    /// a flash's light (R 43.6, R 50.2).
    OpFire,
}

impl PickKind {
    /// The order the picks make.
    pub fn order(self, picks: Vec<String>) -> Order {
        match self {
            PickKind::Casualties => Order::Casualties { units: picks },
            PickKind::CombatEvent => Order::CombatEvent { picks },
            PickKind::BanzaiGd => Order::BanzaiGd { units: picks },
            PickKind::BanzaiOpFire => Order::BanzaiOpFire { units: picks },
            PickKind::OpFire => Order::OpFire {
                firers: picks,
                facing: Default::default(),
            },
        }
    }

    /// Whether any number of picks (none included) answers, rather than
    /// exactly `count`.
    pub fn any_number(self) -> bool {
        matches!(
            self,
            PickKind::BanzaiGd | PickKind::BanzaiOpFire | PickKind::OpFire
        )
    }

    /// Whether an option may be picked more than once.
    pub fn repeats(self) -> bool {
        self == PickKind::Casualties
    }
}

/// An answer of `count` picks among `options` (up to `count` where any
/// number will do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picks {
    pub kind: PickKind,
    pub count: usize,
    pub options: Vec<String>,
}

impl Picks {
    /// Whether `picked` picks make an answer.
    pub fn ready(&self, picked: usize) -> bool {
        if self.kind.any_number() {
            picked <= self.count
        } else {
            picked == self.count
        }
    }
}

/// Every legal answer to a decision: one order among `choices`, or one
/// made of `picks`. The window, the random player, scripts and the bot all
/// take their answers from here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answers {
    /// One answer each (empty when `picks` is used).
    pub choices: Vec<Answer>,
    pub picks: Option<Picks>,
    /// The choice that declines, where the rules allow one: a CP re-roll
    /// (R 3.0), a reinforcement kept off board (R 18.0), the Banzai question
    /// (R 59.6). Always the last.
    pub pass: Option<usize>,
    /// The answer also names the facing the unit adopts (R 2.2): any of the
    /// six hexspines, or none to keep its own ([`Order::with_facing`]).
    pub facing: bool,
}

impl Answers {
    /// The choices that do not decline.
    pub fn offers(&self) -> &[Answer] {
        match self.pass {
            Some(p) => &self.choices[..p],
            None => &self.choices,
        }
    }

    /// The declining choice's order, if there is one.
    pub fn declined(&self) -> Option<&Order> {
        self.pass.map(|p| &self.choices[p].order)
    }
}

/// What a decision is about, ringed on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Unit(String),
    Hex(String),
}

/// A single pick is an answer per option; several picks are one answer made
/// of them.
fn one_or_many(kind: PickKind, count: usize, options: &[String]) -> Answers {
    if count == 1 {
        return Answers {
            choices: options
                .iter()
                .map(|o| Answer {
                    label: o.clone(),
                    order: kind.order(vec![o.clone()]),
                })
                .collect(),
            picks: None,
            pass: None,
            facing: false,
        };
    }
    Answers {
        choices: Vec::new(),
        picks: Some(Picks {
            kind,
            count,
            options: options.to_vec(),
        }),
        pass: None,
        facing: false,
    }
}

impl Decision {
    /// The decision's name, as its window's title.
    pub fn title(&self) -> &'static str {
        match self {
            Decision::CpReroll { .. } => "CP RE-ROLL",
            Decision::RoutDestination { .. } => "ROUT",
            Decision::MeleeOrder { .. } => "MELEE",
            Decision::Casualties { .. } => "MELEE CASUALTIES",
            Decision::Reinforcement { .. } => "REINFORCEMENT",
            Decision::BanzaiGd { .. } => "BANZAI: GD SQUADS",
            Decision::BanzaiOpFire { .. } => "BANZAI: OP FIRE",
            Decision::BanzaiAnnounce { .. } => "BANZAI: CALL THE CHARGE?",
            Decision::RevealedFacing { .. } => REVEALED_TITLE,
            Decision::OpFire { .. } => "OP FIRE",
            Decision::CombatEvent { .. } => "COMBAT EVENT",
        }
    }

    /// What to decide, in plain words for the player, with the rule.
    pub fn explain(&self) -> String {
        match self {
            Decision::CpReroll { units, what, .. } => format!(
                "Spend one Command Point to roll {what} again for {}, or decline (R 3.0).",
                units.join(", ")
            ),
            Decision::RoutDestination { unit, facing, .. } => {
                if *facing {
                    format!(
                        "{unit} routs. Choose the facing it adopts at the end of its rout (R 2.2), \
                         then the hex it routs to (R 11.0)."
                    )
                } else {
                    format!("{unit} routs. Choose the hex it routs to (R 11.0).")
                }
            }
            Decision::MeleeOrder { .. } => {
                "The first player chooses which Melee is resolved next (R 12.0).".to_string()
            }
            Decision::Casualties { at, count, .. } => format!(
                "Allocate {count} Melee casualt{} in {at}: each pick is one Reduction \
                 (R 12.0).",
                if *count == 1 { "y" } else { "ies" }
            ),
            Decision::Reinforcement { unit, may_hold, .. } => {
                if *may_hold {
                    format!(
                        "Choose the hex where {unit} enters the map, or keep it off board for a later turn (R 16.1, R 18.0)."
                    )
                } else {
                    format!("Choose the hex where {unit} enters the map (R 16.1, R 18.0).")
                }
            }
            Decision::BanzaiGd { .. } => {
                "The Banzai Charge is announced. GD Squads may charge too (+4 MP, +2 Morale, +2 Melee FP) \
                 but need not: pick those that charge, then confirm; none is an answer (R 59.6)."
                    .to_string()
            }
            Decision::BanzaiOpFire { .. } => {
                "The Japanese announce a Banzai Charge. Before any action you may mark any of your \
                 units Op Fire, outside the Ops Range: pick them, then confirm; none is an answer (R 59.6)."
                    .to_string()
            }
            Decision::RevealedFacing {
                unit, why, facing, ..
            } => format!(
                "{unit} lost its Conceal counter: {why}. A Concealed unit chooses its facing \
                 when it loses its Concealment: pick a hexspine, or keep {} (R 2.2).",
                facing.map_or_else(
                    || "it without one".to_string(),
                    |f| format!("the facing it had ({})", format!("{f:?}").to_uppercase())
                )
            ),
            Decision::BanzaiAnnounce { turn, last, .. } => format!(
                "One Banzai Charge is due by Turn {last}. Call it now, on Turn {turn}, before any \
                 action: Suppression comes off every Japanese unit, every Squad charges (+4 MP, \
                 +2 Morale, +2 Melee FP) unless marked Op Fire, and the Allies may mark units Op \
                 Fire. Or wait: on Turn {last} it comes by itself (R 59.6)."
            ),
            Decision::OpFire {
                mover,
                at,
                muzzle_flash,
                eligible,
                ..
            } => {
                if *muzzle_flash {
                    format!(
                        "{mover} gave itself away by its Muzzle Flash in {at}: one unit may fire \
                         at it with Normal FP, or none (R 50.2)."
                    )
                } else if eligible.is_empty() {
                    format!(
                        "{mover} enters {at}. None of your units may fire at it; you are asked \
                         because your Conceal counters might, so that the other side cannot \
                         tell a Decoy from a real unit by whether you are asked. Hold fire \
                         (R 9.0, R 15.0)."
                    )
                } else {
                    format!(
                        "{mover} enters {at}. Fire at it with any of the units that may, or hold \
                         fire (R 9.0, R 10.0)."
                    )
                }
            }
            Decision::CombatEvent {
                question, count, ..
            } => format!("{question} Pick {count} of the options (R 17.0)."),
        }
    }

    /// Every legal answer (the engine still checks the one given).
    pub fn legal_answers(&self) -> Answers {
        let one = |label: String, order: Order| Answer { label, order };
        let choices = |choices: Vec<Answer>| Answers {
            choices,
            picks: None,
            pass: None,
            facing: false,
        };
        let any_of = |kind: PickKind, units: &[String]| Answers {
            choices: Vec::new(),
            picks: Some(Picks {
                kind,
                count: units.len(),
                options: units.to_vec(),
            }),
            pass: None,
            facing: false,
        };
        let mut answers =
            match self {
                Decision::CpReroll { units, .. } => choices(
                    units
                        .iter()
                        .map(|u| {
                            one(
                                format!("Spend a CP: re-roll {u}"),
                                Order::CpReroll {
                                    unit: Some(u.clone()),
                                },
                            )
                        })
                        .chain([one("Decline".into(), Order::CpReroll { unit: None })])
                        .collect(),
                ),
                Decision::RoutDestination {
                    unit,
                    choices: hexes,
                    facing,
                    ..
                } => Answers {
                    facing: *facing,
                    ..choices(
                        hexes
                            .iter()
                            .map(|to| {
                                one(
                                    to.clone(),
                                    Order::Rout {
                                        unit: unit.clone(),
                                        to: to.clone(),
                                        facing: None,
                                    },
                                )
                            })
                            .collect(),
                    )
                },
                Decision::MeleeOrder { choices: hexes, .. } => choices(
                    hexes
                        .iter()
                        .map(|at| one(format!("Melee in {at}"), Order::Melee { at: at.clone() }))
                        .collect(),
                ),
                Decision::Casualties { count, units, .. } => {
                    one_or_many(PickKind::Casualties, usize::from(*count), units)
                }
                Decision::Reinforcement {
                    unit,
                    choices: hexes,
                    may_hold,
                    ..
                } => choices(
                    hexes
                        .iter()
                        .map(|at| {
                            one(
                                at.clone(),
                                Order::Place {
                                    unit: unit.clone(),
                                    at: at.clone(),
                                },
                            )
                        })
                        .chain(may_hold.then(|| {
                            one("Keep off board".into(), Order::Hold { unit: unit.clone() })
                        }))
                        .collect(),
                ),
                Decision::BanzaiGd { units, .. } => any_of(PickKind::BanzaiGd, units),
                Decision::BanzaiOpFire { units, .. } => any_of(PickKind::BanzaiOpFire, units),
                Decision::RevealedFacing { unit, .. } => Answers {
                    facing: true,
                    ..choices(vec![one(
                        "Take this facing".into(),
                        Order::Face {
                            unit: unit.clone(),
                            facing: None,
                        },
                    )])
                },
                Decision::BanzaiAnnounce { .. } => choices(vec![
                    one(
                        "Announce the Banzai Charge now".into(),
                        Order::BanzaiAnnounce { now: true },
                    ),
                    one("Not this turn".into(), Order::BanzaiAnnounce { now: false }),
                ]),
                Decision::OpFire { eligible, .. } => any_of(PickKind::OpFire, eligible),
                Decision::CombatEvent { options, count, .. } => {
                    one_or_many(PickKind::CombatEvent, *count, options)
                }
            };
        let declines = matches!(
            self,
            Decision::CpReroll { .. }
                | Decision::Reinforcement { may_hold: true, .. }
                | Decision::BanzaiAnnounce { .. }
        );
        answers.pass = declines.then(|| answers.choices.len() - 1);
        answers
    }

    /// The unit or hex the decision is about.
    pub fn subject(&self) -> Option<Subject> {
        match self {
            Decision::RoutDestination { unit, .. } | Decision::RevealedFacing { unit, .. } => {
                Some(Subject::Unit(unit.clone()))
            }
            Decision::Casualties { at, .. } => Some(Subject::Hex(at.clone())),
            Decision::OpFire { mover, .. } => Some(Subject::Unit(mover.clone())),
            _ => None,
        }
    }
}

/// The title of the revealed unit's facing question (R 2.2).
pub const REVEALED_TITLE: &str = "FACING";

/// The decision the game waits for, if any: a pending question of any
/// phase first (the driver answers it before anything else), then a Combat
/// Event's question (R 17.0), then an Op Fire window (R 9.0, R 50.2).
pub fn awaited(world: &World) -> Option<Decision> {
    if let Some(Pending(d)) = world.get_resource::<Pending>() {
        return Some(d.clone());
    }
    if let Some(d) = world.get_resource::<crate::engine::combat_events::CombatEventDecision>() {
        return Some(Decision::CombatEvent {
            side: d.side,
            question: d.question.clone(),
            options: d.options.clone(),
            count: d.count,
        });
    }
    let w = world.get_resource::<crate::engine::op_fire::OpFireWindow>()?;
    let ids = |v: &[crate::world::UnitId]| v.iter().map(|u| u.to_string()).collect();
    Some(Decision::OpFire {
        side: w.side,
        mover: w.mover_id.to_string(),
        at: w.at.label(),
        eligible: ids(&w.eligible),
        lit_only: ids(&w.lit_only),
        muzzle_flash: world.contains_resource::<crate::engine::night::FlashResponse>(),
    })
}

/// A random answer among the legal ones, for the random player: each kind
/// of decision draws as it always has, so seeded random games replay.
pub fn random_answer(world: &World, decision: &Decision, rng: &mut Lcg) -> Order {
    let answers = decision.legal_answers();
    let pick = |from: &[Answer], rng: &mut Lcg| from[rng.below(from.len())].order.clone();
    let picks = answers.picks.as_ref();
    match decision {
        Decision::CpReroll { .. } => {
            if rng.below(2) == 0 && !answers.offers().is_empty() {
                pick(answers.offers(), rng)
            } else {
                answers.declined().cloned().unwrap_or(Order::Pass)
            }
        }
        // One hex asked only for its facing: no draw (the unit keeps its
        // facing), so random games stay as they were before the question.
        Decision::RoutDestination { .. } => match answers.choices.as_slice() {
            [only] => only.order.clone(),
            all => pick(all, rng),
        },
        Decision::Reinforcement { may_hold: true, .. } if rng.below(10) == 0 => {
            answers.declined().cloned().unwrap_or(Order::Pass)
        }
        Decision::MeleeOrder { .. } | Decision::Reinforcement { .. } => pick(answers.offers(), rng),
        Decision::Casualties { at, count, .. } => match picks {
            Some(p) => p
                .kind
                .order(crate::engine::phases::melee::random_allocation(
                    world, at, *count, &p.options, rng,
                )),
            None => pick(&answers.choices, rng),
        },
        Decision::BanzaiGd { .. } | Decision::BanzaiOpFire { .. } => match picks {
            Some(p) => p.kind.order(
                p.options
                    .iter()
                    .filter(|_| rng.below(2) == 0)
                    .cloned()
                    .collect(),
            ),
            None => Order::Pass,
        },
        Decision::BanzaiAnnounce { .. } => pick(&answers.choices, rng),
        // Any of the six hexspines (R 2.2).
        Decision::RevealedFacing { .. } => {
            let spines = crate::scenario::schema::Spine::ALL;
            let facing = spines[rng.below(spines.len())];
            answers.choices[0].order.clone().with_facing(Some(facing))
        }
        Decision::OpFire { .. } => match picks {
            Some(p) => p.kind.order(
                p.options
                    .iter()
                    .filter(|_| rng.below(3) == 0)
                    .cloned()
                    .collect(),
            ),
            None => Order::Pass,
        },
        // `count` distinct options (R 17.0).
        Decision::CombatEvent { .. } => match picks {
            Some(p) => {
                let mut options = p.options.clone();
                let mut chosen = Vec::new();
                while chosen.len() < p.count && !options.is_empty() {
                    chosen.push(options.remove(rng.below(options.len())));
                }
                p.kind.order(chosen)
            }
            // One pick: an answer per option.
            None => pick(&answers.choices, rng),
        },
    }
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
            let d = awaited(&world).expect("a decision");
            let answer = random_answer(&world, &d, &mut rng);
            assert_eq!(answer, random_answer(&world, &d, &mut again));
            let Order::Face {
                unit,
                facing: Some(f),
            } = answer
            else {
                panic!("no facing drawn: {answer:?}");
            };
            assert_eq!(unit, "J1");
            seen.insert(f);
        }
        assert_eq!(seen.len(), 6, "{seen:?}");
    }
}
