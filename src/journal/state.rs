//! The state hash: a stable digest of what the players see and what decides
//! the next roll — units, their locations and markers, fortifications, the
//! turn and phase, the Ops Range, a pending Op Fire window or move, the
//! Seishin declarations and the Monsoon's weather once it changed, and the
//! dice position. Written after every journal entry and checked on replay.

use bevy::prelude::*;

use crate::engine::Dice;
use crate::engine::movement::MoveInProgress;
use crate::engine::op_fire::OpFireWindow;
use crate::engine::operations::OpsState;
use crate::world::{
    Concealed, Facing, FortificationCounter, Location, Marks, StackOrder, Suppression, TurnTrack,
    Unit,
};

/// The canonical text the hash covers, one line per item, sorted: readable
/// when two states must be compared by eye.
pub fn state_text(world: &mut World) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut q = world.query::<(
        &Unit,
        Option<&Location>,
        Option<&Facing>,
        Option<&Suppression>,
        Option<&Concealed>,
        Option<&StackOrder>,
        Option<&Marks>,
    )>();
    for (u, loc, facing, supp, conc, stack, marks) in q.iter(world) {
        let (used, op) = marks.map_or((false, false), |m| (m.used, m.op_fire));
        lines.push(format!(
            "unit {} {} {:?} reduced={} company={:?} at={} cave={} facing={:?} supp={:?} conceal={:?} stack={:?} used={used} op={op}",
            u.id,
            u.kind,
            u.side,
            u.reduced,
            u.company,
            loc.map_or("-".into(), |l| l.coord.label()),
            loc.is_some_and(|l| l.in_cave),
            facing.map(|f| f.0),
            supp,
            conc.map(|c| c.minus_two),
            stack.map(|s| s.0),
        ));
    }
    let mut q = world.query::<(&FortificationCounter, Option<&Location>)>();
    for (f, loc) in q.iter(world) {
        lines.push(format!(
            "fort {:?} at={} facing={:?} concealed={}",
            f.kind,
            loc.map_or("-".into(), |l| l.coord.label()),
            f.facing,
            f.concealed
        ));
    }
    lines.sort();
    if let Some(t) = world.get_resource::<TurnTrack>() {
        // `cp`: the CPs each side has left (R 3.0).
        let left = crate::scenario::schema::SideId::BOTH
            .map(|side| crate::engine::command_points::left(world, side));
        lines.push(format!(
            "turn {}/{} {:?} active={:?} cp={:?}",
            t.turn, t.last_turn, t.phase, t.active, left
        ));
    }
    if let Some(s) = world.get_resource::<OpsState>() {
        lines.push(format!(
            "ops acting={:?} used={} range={}-{} finished={:?}",
            s.acting, s.tally.used, s.tally.range.min, s.tally.range.max, s.finished
        ));
    }
    if let Some(w) = world.get_resource::<OpFireWindow>() {
        lines.push(format!(
            "opfire side={:?} mover={} at={} eligible={:?}",
            w.side,
            w.mover_id,
            w.at.label(),
            w.eligible
        ));
    }
    if let Some(m) = world.get_resource::<MoveInProgress>() {
        let steps: Vec<String> = m
            .steps
            .iter()
            .map(|(c, mp)| format!("{}:{}", c.label(), mp.0))
            .collect();
        lines.push(format!(
            "move {} steps={steps:?} left={} open={}",
            m.unit, m.left.0, m.hex_open
        ));
    }
    if let Some(p) = world.get_resource::<crate::engine::decision::Pending>() {
        lines.push(format!("pending {:?}", p.0));
    }
    if let Some(c) = world.get_resource::<crate::engine::phases::end::Control>() {
        let mut hexes: Vec<String> =
            c.0.0
                .iter()
                .map(|(h, s)| format!("{}={s:?}", h.label()))
                .collect();
        hexes.sort();
        lines.push(format!("control {hexes:?}"));
    }
    if let Some(e) = world.get_resource::<crate::engine::phases::end::Entered>() {
        let mut ids: Vec<&String> = e.0.iter().collect();
        ids.sort();
        lines.push(format!("entered {ids:?}"));
    }
    if let Some(g) = world.get_resource::<crate::engine::phases::end::GameOver>() {
        lines.push(format!("over {:?}", g.0));
    }
    // Seishin declared this turn (R 59.5): a line only while one holds,
    // so journals of games without it hash as before.
    let mut q = world.query_filtered::<&Unit, With<crate::engine::seishin::Seishin>>();
    let mut seishin: Vec<String> = q.iter(world).map(|u| u.id.to_string()).collect();
    if !seishin.is_empty() {
        seishin.sort();
        lines.push(format!("seishin {seishin:?}"));
    }
    // The Monsoon's weather once a Storm Check changed it (R 55.2): a line
    // only when it differs from the scenario's start.
    if let (Some(active), Some(now)) = (
        world.get_resource::<crate::world::ActiveScenario>(),
        world.get_resource::<crate::engine::monsoon::MonsoonState>(),
    ) && crate::engine::monsoon::state_of(active, None) != Some(*now)
    {
        lines.push(format!(
            "weather raining={} settled={}",
            now.raining, now.settled
        ));
    }
    if let Some(d) = world.get_resource::<Dice>() {
        let (pos, forced) = d.position();
        lines.push(format!("dice {pos} forced={forced:?}"));
    }
    lines.join("\n")
}

/// FNV-1a 64 of [`state_text`].
pub fn state_hash(world: &mut World) -> u64 {
    super::fnv1a(state_text(world).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::monsoon::MonsoonState;
    use crate::engine::seishin::Seishin;

    /// The Seishin declarations and the Monsoon's weather are in the hash,
    /// each as a line only when it holds: a game without them hashes as
    /// before (R 59.5, R 55.2).
    #[test]
    fn seishin_and_the_storm_are_in_the_hash_only_when_they_hold() {
        let roster = crate::scenario::builtin_roster().unwrap();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let loaded = crate::world::load("peleliu", &roster, &aid).unwrap();
        let mut w = crate::engine::headless_world(loaded, roster, aid, 5);
        let before = state_hash(&mut w);
        // A Storm Check that changed nothing leaves the hash alone.
        w.insert_resource(MonsoonState {
            raining: false,
            settled: false,
        });
        assert_eq!(state_hash(&mut w), before);
        w.insert_resource(MonsoonState {
            raining: true,
            settled: true,
        });
        let text = state_text(&mut w);
        assert!(
            text.contains("\nweather raining=true settled=true\n"),
            "{text}"
        );
        let storm = state_hash(&mut w);
        assert_ne!(storm, before);
        let mut q = w.query::<(Entity, &Unit)>();
        let (e, id) = q
            .iter(&w)
            .map(|(e, u)| (e, u.id.clone()))
            .min_by(|a, b| a.1.cmp(&b.1))
            .unwrap();
        w.entity_mut(e).insert(Seishin);
        let text = state_text(&mut w);
        assert!(text.contains(&format!("\nseishin [\"{id}\"]\n")), "{text}");
        assert_ne!(state_hash(&mut w), storm);
    }
}
