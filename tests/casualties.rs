//! The one casualty writer (`engine::casualties`): a Reduced unit that is
//! Reduced again is eliminated (R 8.0), and the lines each dealer writes.

mod common;

use bevy::prelude::*;
use bob::engine::GameEvent;
use bob::engine::casualties::{By, Hit, take};
use bob::engine::combat_events::Graveyard;
use bob::world::{Suppression, Unit};

fn lines(events: &[GameEvent]) -> Vec<String> {
    events.iter().map(GameEvent::line).collect()
}

fn hit(w: &mut World, id: &str, h: Hit, by: By<'_>) -> (bool, Vec<String>) {
    let e = common::entity(w, id);
    let mut events = Vec::new();
    let gone = take(w, e, h, by, &mut events);
    (gone, lines(&events))
}

fn unit(w: &mut World, id: &str) -> (Unit, Option<Suppression>) {
    let e = common::entity(w, id);
    (
        w.get::<Unit>(e).unwrap().clone(),
        w.get::<Suppression>(e).copied(),
    )
}

/// Fire: Reduced and Fully Suppressed, then eliminated by a second Reduce.
#[test]
fn fire_reduces_then_eliminates() {
    let (mut w, _) = common::world_of("minimal.ron", &[]);
    let (gone, first) = hit(&mut w, "A1", Hit::Reduce, By::Fire);
    assert!(!gone);
    assert_eq!(first, Vec::<String>::new());
    let (u, s) = unit(&mut w, "A1");
    assert!(u.reduced);
    assert_eq!(s, Some(Suppression::Full));
    let (gone, second) = hit(&mut w, "A1", Hit::Reduce, By::Fire);
    assert!(gone);
    assert_eq!(second, ["A1 is eliminated (R 8.0)"]);
}

/// Fire: a Suppress is one step, Suppressed then Fully Suppressed.
#[test]
fn fire_suppression_steps() {
    let (mut w, _) = common::world_of("minimal.ron", &[]);
    assert_eq!(hit(&mut w, "G1", Hit::Suppress, By::Fire), (false, vec![]));
    assert_eq!(unit(&mut w, "G1").1, Some(Suppression::Suppressed));
    hit(&mut w, "G1", Hit::Suppress, By::Fire);
    assert_eq!(unit(&mut w, "G1").1, Some(Suppression::Full));
    assert!(!unit(&mut w, "G1").0.reduced);
}

/// A Combat Event's casualty: the Reduced unit is eliminated with its line,
/// and goes to the Graveyard at once (R 17.0 entry 4).
#[test]
fn combat_event_eliminates_a_reduced_unit() {
    let (mut w, _) = common::world_of("minimal.ron", &[]);
    let by = By::CombatEvent {
        why: "a Sniper Attack",
        melee: false,
    };
    let (gone, first) = hit(&mut w, "G1", Hit::Reduce, by);
    assert!(!gone);
    assert_eq!(
        first,
        ["G1 is Reduced and Fully Suppressed: a Sniper Attack (R 17.0, R 8.0)"]
    );
    let (gone, second) = hit(&mut w, "G1", Hit::Reduce, by);
    assert!(gone);
    assert_eq!(
        second,
        [
            "G1 takes a casualty it cannot absorb: a Sniper Attack (R 17.0, R 8.0)",
            "G1 is eliminated (R 8.0)"
        ]
    );
    let grave = w.resource::<Graveyard>();
    assert!(grave.0.iter().any(|g| g == "G1"));
}

/// In the Ambush's Melee a WT is eliminated by any casualty (R 12.0).
#[test]
fn ambush_melee_eliminates_a_weapon_team() {
    let (mut w, _) = common::world_of("minimal.ron", &[]);
    let by = By::CombatEvent {
        why: "a Melee casualty of the Ambush",
        melee: true,
    };
    let (gone, lines) = hit(&mut w, "A2", Hit::Reduce, by);
    assert!(gone);
    assert_eq!(
        lines,
        [
            "A2 takes a casualty it cannot absorb: a Melee casualty of the Ambush (R 17.0, R 8.0)",
            "A2 is eliminated (R 8.0)"
        ]
    );
}

/// Melee: its line first; a Reduced unit takes no Suppression (R 12.1);
/// Reduced again, eliminated.
#[test]
fn melee_reduces_without_suppression() {
    let (mut w, _) = common::world_of("minimal.ron", &[]);
    let (gone, first) = hit(&mut w, "G1", Hit::Reduce, By::Melee);
    assert!(!gone);
    assert_eq!(first, ["G1 is Reduced in Melee (R 12.0)"]);
    let (u, s) = unit(&mut w, "G1");
    assert!(u.reduced);
    assert_eq!(s, None);
    let (gone, second) = hit(&mut w, "G1", Hit::Reduce, By::Melee);
    assert!(gone);
    assert_eq!(second, ["G1 is eliminated in Melee (R 12.0)"]);
}

/// The Rout casualty (R 11.1): its line, Reduced and Fully Suppressed; a
/// Reduced unit is eliminated.
#[test]
fn rout_casualty() {
    let (mut w, _) = common::world_of("minimal.ron", &[]);
    let by = By::RoutCasualty {
        margin: 3,
        casualty: 2,
    };
    let (gone, first) = hit(&mut w, "G1", Hit::Reduce, by);
    assert!(!gone);
    assert_eq!(
        first,
        ["G1 failed by 3 (Casualty 2): Reduced and Fully Suppressed (R 11.1)"]
    );
    assert_eq!(unit(&mut w, "G1").1, Some(Suppression::Full));
    let (gone, second) = hit(&mut w, "G1", Hit::Reduce, by);
    assert!(gone);
    assert_eq!(second, ["G1 failed by 3 (Casualty 2): eliminated (R 11.1)"]);
}
