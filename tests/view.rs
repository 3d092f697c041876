//! A view per side (R 15.0): side A's copy of the events is the same
//! whether a Concealed unit of side B is a real unit or a Decoy, until the
//! event that reveals it (`engine::view`).

use std::sync::Arc;

use bevy::prelude::World;

use bob::engine::decision::{Decision, awaited, random_answer};
use bob::engine::game::{apply, begin_game};
use bob::engine::operations::OpsState;
use bob::engine::random::{Lcg, random_order};
use bob::engine::view::Fog;
use bob::engine::{GameEvent, Order, headless_world};
use bob::scenario::roster::UnitClass;
use bob::scenario::schema::SideId;
use bob::scenario::{self, Loaded, PlayerAid, Roster};
use bob::world::{Phase, TurnTrack};

mod common;

/// B's answer to any question: hold fire, decline, keep off, or the first
/// choice where the rules demand one (a Rout hex).
fn hold(d: &Decision) -> Order {
    let answers = d.legal_answers();
    if let Some(p) = &answers.picks {
        if p.kind.any_number() {
            return p.kind.order(Vec::new());
        }
        return p
            .kind
            .order(p.options.iter().take(p.count).cloned().collect());
    }
    if let Some(declined) = answers.declined() {
        return declined.clone();
    }
    answers.choices[0].order.clone()
}

/// Applies `order`, then B's answers to every question B is asked; with
/// the titles of those questions, which the hotseat screen shows by passing
/// to B (A sees that B is asked, and not what).
fn play(world: &mut World, order: &Order, b: SideId) -> Option<(Vec<GameEvent>, Vec<String>)> {
    let mut events = apply(world, order).ok()?;
    let mut asked = Vec::new();
    while let Some(d) = awaited(world).filter(|d| d.side() == b) {
        asked.push(d.title().to_string());
        match apply(world, &hold(&d)) {
            Ok(more) => events.extend(more),
            Err(_) => break,
        }
    }
    Some((events, asked))
}

/// The scenario with the unit `id` set up as `decoy` instead.
fn as_decoy(loaded: &Loaded, id: &str, decoy: &str) -> Loaded {
    let mut sc = (*loaded.scenario).clone();
    for p in sc.setup.iter_mut().filter(|p| p.id == id) {
        p.unit = decoy.to_string();
        p.reduced = false;
    }
    Loaded {
        scenario: Arc::new(sc),
        origin: loaded.origin.clone(),
    }
}

/// Whether a line of A's copy reveals the unit labelled `label` as `id`.
fn reveals(line: &str, label: &str, id: &str) -> bool {
    line.contains(&format!("{label} ({id})")) || line.contains(&format!("{label} was a Decoy"))
}

/// One game of A's random orders, B holding fire and declining: A's copies
/// in the two worlds agree until the unit `x` is revealed or the Operations
/// Phase ends. Returns the number of A's orders compared.
fn compare(
    real: Loaded,
    decoy: Loaded,
    data: (&Roster, &PlayerAid),
    seed: u64,
    a: SideId,
    x: &str,
) -> Result<usize, String> {
    let (roster, aid) = data;
    let mut w1 = headless_world(real, roster.clone(), aid.clone(), seed);
    let mut w2 = headless_world(decoy, roster.clone(), aid.clone(), seed);
    begin_game(&mut w1);
    begin_game(&mut w2);
    let b = a.other();
    let mut rng = Lcg(seed);
    let mut compared = 0;
    for _ in 0..400 {
        if w1.resource::<TurnTrack>().phase != Phase::Operations {
            return Ok(compared);
        }
        let Some(label) = Fog::of(&mut w1, a).label(x).map(str::to_string) else {
            return Ok(compared);
        };
        let order = match awaited(&w1) {
            Some(d) if d.side() == a => random_answer(&w1, &d, &mut rng),
            Some(d) => hold(&d),
            None if w1.get_resource::<OpsState>().map(|s| s.acting) == Some(a) => {
                random_order(&mut w1, &mut rng)
            }
            None => Order::Pass,
        };
        let (mut f1, mut f2) = (Fog::of(&mut w1, a), Fog::of(&mut w2, a));
        let (e1, e2) = (play(&mut w1, &order, b), play(&mut w2, &order, b));
        let (e1, e2) = match (e1, e2) {
            (None, None) => continue,
            (Some(e1), Some(e2)) => (e1, e2),
            (one, _) => {
                return Err(format!(
                    "{order:?} accepted only where {x} is {}",
                    if one.is_some() { "real" } else { "a Decoy" }
                ));
            }
        };
        compared += 1;
        let ((e1, asked1), (e2, asked2)) = (e1, e2);
        let (l1, l2) = (f1.lines(&mut w1, &e1), f2.lines(&mut w2, &e2));
        let end = |l: &[String]| {
            l.iter()
                .position(|s| s.starts_with("Operations Phase ends"))
                .unwrap_or(l.len())
        };
        let (l1, l2) = (&l1[..end(&l1)], &l2[..end(&l2)]);
        for i in 0..l1.len().max(l2.len()) {
            let (s1, s2) = (l1.get(i), l2.get(i));
            if s1 == s2 {
                continue;
            }
            if s1.is_some_and(|s| reveals(s, &label, x))
                || s2.is_some_and(|s| reveals(s, &label, x))
            {
                return Ok(compared);
            }
            return Err(format!(
                "after {order:?}, line {i}: real {s1:?}, Decoy {s2:?}\nreal: {l1:#?}\nDecoy: {l2:#?}"
            ));
        }
        // The flow, not only the text: B is asked the same questions (the
        // hand-over screen passes to B as often), until the unit is revealed.
        if asked1 != asked2 && !l1.iter().chain(l2).any(|s| reveals(s, &label, x)) {
            return Err(format!(
                "after {order:?}, B is asked {asked1:?} where {x} is real, {asked2:?} where it is a Decoy\nreal: {l1:#?}"
            ));
        }
    }
    Ok(compared)
}

/// Every built-in scenario, each side as A, each Concealed real unit of B
/// in turn as the one made a Decoy, over several seeds.
#[test]
fn a_side_cannot_tell_a_concealed_unit_from_a_decoy() {
    let (roster, aid) = common::data();
    let mut compared = 0;
    let mut failures = Vec::new();
    for e in scenario::embedded() {
        let stem = e.file.trim_end_matches(".ron");
        let loaded = bob::world::load(stem, &roster, &aid).unwrap();
        for a in SideId::BOTH {
            let b = a.other();
            let nationality = |unit: &str| roster.get(unit).map(|t| t.nationality);
            for p in loaded
                .scenario
                .setup
                .iter()
                .filter(|p| p.side == b && p.concealed)
            {
                let Some(t) = roster.get(&p.unit) else {
                    continue;
                };
                if !matches!(t.class, UnitClass::Squad | UnitClass::MgTeam) {
                    continue;
                }
                let Some(decoy) = roster.units.iter().find(|d| {
                    d.class == UnitClass::Decoy && Some(d.nationality) == nationality(&p.unit)
                }) else {
                    continue;
                };
                let with_decoy = as_decoy(&loaded, &p.id, &decoy.id);
                for seed in 0..4 {
                    match compare(
                        loaded.clone(),
                        with_decoy.clone(),
                        (&roster, &aid),
                        seed,
                        a,
                        &p.id,
                    ) {
                        Ok(n) => compared += n,
                        Err(why) => failures.push(format!("{stem} seed {seed}, {}: {why}", p.id)),
                    }
                }
            }
        }
    }
    assert!(compared > 200, "only {compared} orders compared");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// R 15.0: the Allies see the German counters by their hexes — the Decoy
/// GD1 as `?H9`, like any other — and a revealed unit by both names once;
/// the Germans' own copy names their units, and the Allies' window and
/// pass are not in it.
#[test]
fn a_side_names_concealed_enemies_by_their_counters() {
    let mut world = common::headless("training", 1);
    let mut allies = Fog::of(&mut world, SideId::Allies);
    assert_eq!(allies.label("GD1"), Some("?H9"));
    assert_eq!(allies.label("G4"), Some("?H5"));
    assert_eq!(allies.label("A1"), None);
    let events = [
        GameEvent::ConcealmentLost {
            unit: "G4".into(),
            why: "it fired",
        },
        GameEvent::DecoyRemoved { unit: "GD1".into() },
        GameEvent::OpFirePassed {
            side: SideId::Allies,
            at: "H5".into(),
        },
    ];
    assert_eq!(
        allies.lines(&mut world, &events),
        [
            "?H5 (G4) loses its Conceal counter: it fired (R 15.0)",
            "?H9 was a Decoy: removed on losing Concealment (R 15.0)",
            "Allies hold their fire at H5 (R 9.0)",
        ]
    );
    assert_eq!(allies.label("G4"), None);
    let mut axis = Fog::of(&mut world, SideId::Axis);
    assert_eq!(axis.label("AD1"), Some("?C2"));
    assert_eq!(
        axis.lines(&mut world, &events),
        [
            "G4 loses its Conceal counter: it fired (R 15.0)",
            "GD1 was a Decoy: removed on losing Concealment (R 15.0)",
        ]
    );
}

/// R 15.0: a hidden German unit whose id reads like a hex (G5, Concealed in
/// H8) is named by its counter where the Allies' copy names it as a unit,
/// and the hex G5 stays G5: "A4 moves F5 → G5", "G4 fires at G5".
#[test]
fn a_hex_named_like_a_hidden_unit_stays_a_hex() {
    let mut world = common::headless("training", 4);
    begin_game(&mut world);
    let mut allies = Fog::of(&mut world, SideId::Allies);
    assert_eq!(allies.label("G5"), Some("?H8"));
    let events = [
        GameEvent::Moved {
            unit: "A4".into(),
            from: "F5".into(),
            to: "G5".into(),
            cost: "1".into(),
            left: "0".into(),
        },
        GameEvent::MoveEnded {
            unit: "A4".into(),
            at: "G5".into(),
        },
    ];
    let lines = allies.lines(&mut world, &events);
    assert!(lines[0].contains("F5 \u{2192} G5"), "{lines:?}");
    assert!(lines[1].contains("in G5"), "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("?H8")), "{lines:?}");
}

/// R 15.0: the dice tray speaks to the side on screen: the Allies see a
/// German unit's MC under its counter's name while it keeps the counter.
#[test]
fn the_dice_tray_names_a_concealed_enemy_by_its_counter() {
    let mut world = common::headless("training", 1);
    world.init_resource::<bob::ui::orders::GameLog>();
    world.init_resource::<bob::ui::tray::UiSettings>();
    let fogs = SideId::BOTH.map(|s| Fog::of(&mut world, s));
    let mc = GameEvent::MoraleCheck {
        unit: "G4".into(),
        morale: 6,
        roll: 3,
        passed: true,
        rule: "R 5.0",
    };
    let tray = |world: &mut World, viewer: SideId| {
        world.insert_resource(bob::world::Viewer(viewer));
        world.insert_resource(bob::ui::act::Applied {
            order: None,
            events: vec![mc.clone()],
            fogs: Some(fogs.clone()),
        });
        bob::ui::act::show_in_log(world);
        world.resource::<bob::ui::tray::DiceTray>().rolls[0]
            .purpose
            .clone()
    };
    assert_eq!(
        tray(&mut world, SideId::Allies),
        "?H5 Morale Check (R 5.0, R 7.1)"
    );
    assert_eq!(
        tray(&mut world, SideId::Axis),
        "G4 Morale Check (R 5.0, R 7.1)"
    );
    let log = world.resource::<bob::ui::orders::GameLog>();
    assert_eq!(
        log.shown_to(Some(SideId::Allies))[0],
        (
            0,
            "?H5 MC: needs 6 or less, rolled 3 \u{2192} passed (R 5.0, R 7.1)"
        )
    );
}
