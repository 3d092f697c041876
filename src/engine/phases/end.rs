//! Hex control, reinforcements and the end of the scenario — R 18.0 (a hex
//! is controlled by the side that last had a unit in it or passing through
//! it with no enemy present; a unit eliminated entering a hex does not
//! control it; setup areas start controlled; reinforcements; victory),
//! R 16.1 (Area of Control).

use crate::world::UnitId;
use std::collections::HashSet;

use bevy::prelude::*;

use crate::engine::events::GameEvent;
use crate::engine::orders::Refusal;
use crate::rules::victory::{HexControl, Tally, Verdict, evaluate, in_area_of_control};
use crate::scenario::Coord;
use crate::scenario::coords::expand;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{Entry, Nationality, SideId};
use crate::world::{
    ActiveScenario, AidRes, BoardRes, Concealed, Location, RosterRes, StackOrder, TurnTrack, Unit,
};

use super::on_board;
use crate::engine::decision::{Decision, Pending, ask};

/// Who controls each hex (R 18.0).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Control(pub HexControl);

/// Reinforcements that have entered play, by id.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Entered(pub HashSet<String>);

/// The scenario is over; its verdict.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct GameOver(pub Verdict);

/// At the start: every hex of a side's setup area is its own (R 18.0).
pub fn init_control(world: &mut World) {
    let sc = world.resource::<ActiveScenario>().scenario.clone();
    let mut control = HexControl::default();
    for card in &sc.sides {
        for area in &card.setup_area {
            for c in expand(area, sc.map.columns, sc.map.rows).unwrap_or_default() {
                control.occupy(c, card.side);
            }
        }
    }
    world.insert_resource(Control(control));
    world.init_resource::<Entered>();
}

/// Every hex with units of one side only (Decoys do not control) is that
/// side's (R 18.0). Runs after every pass of the driver's `advance`.
pub fn note_occupied(world: &mut World) {
    occupy(world);
}

/// [`note_occupied`]'s look: only at the units standing where their side
/// does not already hold the hex (a hex already its occupiers' side's
/// cannot change hands). Nothing is listed, sorted or written unless a hex
/// changes hands.
fn occupy(world: &mut World) {
    let Some(Control(control)) = world.get_resource::<Control>() else {
        return;
    };
    let roster = &world.resource::<RosterRes>().0;
    let decoy = |u: &Unit| {
        roster
            .get(&u.kind)
            .is_some_and(|t| t.class == UnitClass::Decoy)
    };
    // A mover waiting in the hex it entered controls it only once it has
    // survived the fire there (R 18.0).
    let waiting = waiting_mover(world);
    // (hex, side) of units, Decoys aside, in hexes their side does not hold.
    let Some(mut taken) =
        crate::world::queries::try_with_query::<(Entity, &Unit, &Location), (), _>(world, |q| {
            let mut taken: Vec<(Coord, SideId)> = Vec::new();
            for (e, u, l) in q {
                if Some(e) == waiting {
                    continue;
                }
                let here = (l.coord, u.side);
                if control.controller(here.0) != Some(here.1) && !taken.contains(&here) && !decoy(u)
                {
                    taken.push(here);
                }
            }
            taken
        })
    else {
        // No unit ever: register the query's components as listing them
        // would.
        crate::world::queries::with_query::<(Entity, &Unit, &Location), (), _>(world, |_| ());
        return;
    };
    if taken.is_empty() {
        // Nothing changes hands: leave the resource untouched.
        return;
    }
    // Not where units of both sides (Decoys aside) stand.
    crate::world::queries::try_with_query::<(&Unit, &Location), (), _>(world, |q| {
        let mixed: Vec<Coord> = q
            .filter(|(u, l)| taken.iter().any(|t| t.0 == l.coord && t.1 != u.side) && !decoy(u))
            .map(|(_, l)| l.coord)
            .collect();
        taken.retain(|t| !mixed.contains(&t.0));
    });
    if taken.is_empty() {
        return;
    }
    let mut control = world.resource_mut::<Control>();
    for (c, side) in taken {
        control.0.occupy(c, side);
    }
}

/// The hex a mover entered and still stands in while its move waits (an
/// Op Fire window, a decision): not yet its side's, since "A unit
/// eliminated (by Op Fire, etc.) when entering a hex does not control the
/// hex." (R 18.0). The next order's [`note_moves`] settles it.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct EntryAwaitingFire {
    pub unit: UnitId,
    pub hex: String,
}

/// The unit whose move waits in the hex it entered, if any (R 18.0).
fn waiting_mover(world: &World) -> Option<Entity> {
    world
        .get_resource::<crate::engine::movement::MoveInProgress>()
        .map(|m| m.mover)
}

/// Hexes passed through during the order (R 18.0): a unit entering a hex
/// with no enemy present controls it, unless it is eliminated entering it.
/// The hex a paused move waits in counts only once the mover has survived
/// the fire there ([`EntryAwaitingFire`]).
pub fn note_moves(world: &mut World, events: &[GameEvent]) {
    if world.get_resource::<Control>().is_none() {
        return;
    }
    let awaiting = world.remove_resource::<EntryAwaitingFire>();
    // (unit, hex, still standing)
    let mut entries: Vec<(&str, &str, bool)> = Vec::new();
    if let Some(a) = &awaiting {
        entries.push((&a.unit, &a.hex, true));
    }
    for e in events {
        match e {
            GameEvent::Moved { unit, to, .. } => entries.push((unit, to, true)),
            GameEvent::Eliminated { unit } | GameEvent::DecoyRemoved { unit } => {
                if let Some(last) = entries.iter_mut().rev().find(|x| x.0 == unit) {
                    last.2 = false;
                }
            }
            _ => {}
        }
    }
    // A move still under way waits in the hex it last entered: that one
    // waits for the fire too.
    let paused = world
        .get_resource::<crate::engine::movement::MoveInProgress>()
        .map(|m| m.unit.clone());
    if let Some(mover) = paused
        && let Some(i) = entries.iter().rposition(|x| *x.0 == *mover)
        && entries[i].2
    {
        let (unit, hex, _) = entries.remove(i);
        let wait = EntryAwaitingFire {
            unit: UnitId::from(unit),
            hex: hex.to_string(),
        };
        world.insert_resource(wait);
    }
    if entries.is_empty() {
        return;
    }
    let sc = &world.resource::<ActiveScenario>().scenario;
    let roster = &world.resource::<RosterRes>().0;
    let kind_of = |id: &str| {
        sc.setup
            .iter()
            .find(|p| p.id == id)
            .map(|p| (p.side, p.unit.as_str()))
            .or_else(|| {
                sc.reinforcements.iter().find_map(|r| {
                    r.units
                        .iter()
                        .find(|u| u.id == id)
                        .map(|u| (r.side, u.unit.as_str()))
                })
            })
    };
    let decoy = |kind: &str| {
        roster
            .get(kind)
            .is_some_and(|t| t.class == UnitClass::Decoy)
    };
    let mut taken: Vec<(Coord, SideId)> = Vec::new();
    for (unit, hex, standing) in entries {
        if !standing {
            continue;
        }
        let (Some((side, kind)), Ok(c)) = (
            kind_of(unit),
            Coord::parse(hex, sc.map.columns, sc.map.rows),
        ) else {
            continue;
        };
        if decoy(kind) {
            continue;
        }
        // An enemy unit (not a Decoy) in the hex now.
        let enemy_there =
            crate::world::queries::try_with_query::<(&Unit, &Location), (), _>(world, |mut q| {
                q.any(|(o, l)| l.coord == c && o.side != side && !decoy(&o.kind))
            })
            .unwrap_or(false);
        if !enemy_there {
            taken.push((c, side));
        }
    }
    let mut control = world.resource_mut::<Control>();
    for (c, side) in taken {
        control.0.occupy(c, side);
    }
}

/// Hexes where a reinforcement of `side` may enter by its `entry` (R 16.1,
/// R 18.0): not holding or adjacent to an enemy unit, and not full.
fn entry_hexes(world: &mut World, side: SideId, entry: &Entry) -> Vec<Coord> {
    let board = world.resource::<BoardRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    let edge = world
        .resource::<ActiveScenario>()
        .scenario
        .sides
        .iter()
        .find(|c| c.side == side)
        .map(|c| c.rout_edge);
    let all = on_board(world);
    let friends: Vec<Coord> = all
        .iter()
        .filter(|u| u.unit.side == side)
        .map(|u| u.at)
        .collect();
    let enemies: Vec<Coord> = all
        .iter()
        .filter(|u| u.unit.side != side)
        .map(|u| u.at)
        .collect();
    let enemy_places: Vec<crate::rules::fortifications::Place> = all
        .iter()
        .filter(|u| u.unit.side != side)
        .map(|u| crate::rules::fortifications::Place {
            coord: u.at,
            in_cave: u.in_cave,
        })
        .collect();
    let (columns, rows) = (board.columns, board.rows);
    let candidates: Vec<Coord> = match entry {
        Entry::Edge(e) => board
            .coords()
            .filter(|c| c.on_edge(*e, columns, rows))
            .collect(),
        Entry::AreaOfControl => match edge {
            Some(edge) => board
                .coords()
                .filter(|c| in_area_of_control(*c, edge, columns, rows, &friends, &enemies))
                .collect(),
            None => Vec::new(),
        },
        Entry::Hexes(list) => list
            .iter()
            .flat_map(|h| expand(h, columns, rows).unwrap_or_default())
            .collect(),
    };
    let limit = usize::from(aid.constants.stacking_per_side);
    let mut out: Vec<Coord> = candidates
        .into_iter()
        .filter(|c| {
            enemy_places.iter().all(|e| {
                let here = crate::rules::fortifications::Place {
                    coord: *c,
                    in_cave: false,
                };
                e.coord != *c && !crate::rules::fortifications::adjacent(&board, *e, here)
            })
        })
        .filter(|c| friends.iter().filter(|f| *f == c).count() < limit)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Reinforcements kept off board this turn (R 18.0), with the turn.
#[derive(Resource, Debug, Clone, Default)]
pub struct Held {
    pub turn: u8,
    pub units: Vec<String>,
}

/// Before a turn begins, its reinforcements enter (R 18.0): one at a time,
/// the owner choosing where when there is a choice. True when all are in.
/// A reinforcement with nowhere legal to enter waits for the next turn.
/// One that enters by an edge or on named hexes may be kept off board for
/// a later turn; one that enters in its AOC must come on the turn it
/// arrives (R 18.0), and none is held past the last turn.
pub fn place_reinforcements(world: &mut World, events: &mut Vec<GameEvent>) -> bool {
    let turn = world.resource::<TurnTrack>().turn;
    // The reinforcements due by now, not a copy of the whole scenario.
    let (due, last_turn) = {
        let sc = &world.resource::<ActiveScenario>().scenario;
        let due: Vec<_> = sc
            .reinforcements
            .iter()
            .filter(|r| r.turn <= turn)
            .cloned()
            .collect();
        (due, sc.turns)
    };
    world.init_resource::<Entered>();
    if world.get_resource::<Held>().is_none_or(|h| h.turn != turn) {
        world.insert_resource(Held {
            turn,
            units: Vec::new(),
        });
    }
    for r in &due {
        for u in &r.units {
            if world.resource::<Entered>().0.contains(&u.id)
                || world.resource::<Held>().units.contains(&u.id)
            {
                continue;
            }
            let hexes = entry_hexes(world, r.side, &r.entry);
            let may_hold = r.entry != Entry::AreaOfControl && turn < last_turn;
            match hexes.as_slice() {
                [] => continue,
                [only] if !may_hold => enter(world, &u.id, *only, events),
                many => {
                    ask(
                        world,
                        Decision::Reinforcement {
                            side: r.side,
                            unit: u.id.clone(),
                            choices: many.iter().map(|c| c.label()).collect(),
                            may_hold,
                        },
                        events,
                    );
                    return false;
                }
            }
        }
    }
    true
}

/// The owner keeps a reinforcement off board until a later turn (R 18.0).
pub fn answer_hold(
    world: &mut World,
    decision: &Decision,
    unit: &str,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Decision::Reinforcement {
        unit: arriving,
        may_hold,
        ..
    } = decision
    else {
        return Err(Refusal::NothingToAnswer);
    };
    if unit != arriving || !may_hold {
        return Err(Refusal::WrongAnswer {
            reason: format!(
                "{arriving} must enter now: reinforcements entering in their AOC, or on the last turn, cannot be kept off board (R 18.0)"
            ),
        });
    }
    world.remove_resource::<Pending>();
    world.resource_mut::<Held>().units.push(unit.to_string());
    events.push(GameEvent::ReinforcementHeld {
        unit: UnitId::from(unit),
    });
    Ok(())
}

/// Puts a reinforcement on the board (R 18.0: it may be Concealed; a
/// Japanese one under a -2 counter, R 59.2).
fn enter(world: &mut World, id: &str, at: Coord, events: &mut Vec<GameEvent>) {
    let sc = world.resource::<ActiveScenario>().scenario.clone();
    let Some((side, u)) = sc
        .reinforcements
        .iter()
        .find_map(|r| r.units.iter().find(|u| u.id == id).map(|u| (r.side, u)))
    else {
        return;
    };
    let japanese = sc
        .sides
        .iter()
        .any(|c| c.side == side && c.nationality == Nationality::Japanese);
    let stack = on_board(world).iter().filter(|o| o.at == at).count() as u8;
    let id = UnitId::from(&u.id);
    let mut e = world.spawn((
        Unit {
            id: id.clone(),
            kind: (&u.unit).into(),
            side,
            reduced: false,
            company: u.company.as_ref().map(Into::into),
        },
        Location {
            coord: at,
            in_cave: false,
        },
        StackOrder(stack),
    ));
    if u.concealed {
        e.insert(Concealed {
            minus_two: sc.special_rules.japanese_minus_two_conceal && japanese,
        });
    }
    world.resource_mut::<Entered>().0.insert(u.id.clone());
    events.push(GameEvent::Reinforces {
        unit: id,
        at: at.label(),
    });
}

/// The owner's choice of entry hex.
pub fn answer_place(
    world: &mut World,
    decision: &Decision,
    unit: &str,
    at: &str,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let Decision::Reinforcement {
        unit: arriving,
        choices,
        ..
    } = decision
    else {
        return Err(Refusal::NothingToAnswer);
    };
    if unit != arriving || !choices.iter().any(|c| c == at) {
        return Err(Refusal::WrongAnswer {
            reason: format!("{arriving} may enter at one of its entry hexes only (R 18.0)"),
        });
    }
    let board = world.resource::<BoardRes>().0.clone();
    let Ok(c) = Coord::parse(at, board.columns, board.rows) else {
        return Err(Refusal::BadHex {
            label: at.to_string(),
        });
    };
    world.remove_resource::<Pending>();
    enter(world, unit, c, events);
    Ok(())
}

/// What the game counts at its end (R 18.0): control, and the losses of
/// each side among the units (Squads, WTs, Guns; no Decoys) that were
/// ever on the board.
pub fn tally(world: &mut World) -> Tally {
    let sc = world.resource::<ActiveScenario>().scenario.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let entered = world.get_resource::<Entered>().cloned().unwrap_or_default();
    let all = on_board(world);
    let mut t = Tally {
        control: world
            .get_resource::<Control>()
            .map(|c| c.0.clone())
            .unwrap_or_default(),
        ..Tally::default()
    };
    let appeared = sc
        .setup
        .iter()
        .map(|p| (p.id.clone(), p.side, p.unit.clone()))
        .chain(sc.reinforcements.iter().flat_map(|r| {
            r.units
                .iter()
                .filter(|u| entered.0.contains(&u.id))
                .map(move |u| (u.id.clone(), r.side, u.unit.clone()))
        }));
    for (id, side, kind) in appeared {
        if roster
            .get(&kind)
            .is_some_and(|t| t.class == UnitClass::Decoy)
        {
            continue;
        }
        match all.iter().find(|u| u.unit.id == id) {
            None => t.eliminated[side.index()] += 1,
            Some(u) if u.unit.reduced => t.reduced[side.index()] += 1,
            Some(_) => {}
        }
    }
    t
}

/// The last turn is over: victory is determined (R 13.0, R 18.0).
pub fn finish(world: &mut World, events: &mut Vec<GameEvent>) {
    note_occupied(world);
    let sc = world.resource::<ActiveScenario>().scenario.clone();
    let t = tally(world);
    let verdict = evaluate(&sc.victory, sc.map.columns, sc.map.rows, &t);
    events.push(GameEvent::GameEnded {
        winner: verdict.winner,
        reasons: verdict.reasons.clone(),
        losses: t.losses(),
    });
    world.insert_resource(GameOver(verdict));
}
