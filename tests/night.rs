//! Night and Wire in the engine (R 50.0-50.2, R 43.6, R 59.6), through
//! `bob script` files in `tests/scripts/` on the grounds in `tests/data/`,
//! with forced dice: every log line of a Muzzle Flash chain, a Trip Flare
//! and a Banzai Squad clearing Wire, and the refusals of the dark and of
//! the Wire.

mod common;

use bob::scenario;
use common::{entity, order, play, refused, world_of};

/// Runs `tests/scripts/NAME.ron` in process: its log lines, and the
/// refusal that stopped it, if any.
fn run(name: &str) -> (Vec<String>, Option<String>) {
    common::script_lines(name)
}

/// R 50.2: at Night M1 may not fire at J1, 4 hexes away, beyond its
/// Visibility Range of 2 and not Illuminated.
#[test]
fn r50_2_no_fire_beyond_the_visibility_range() {
    let (_, stopped) = run("night_dark");
    assert_eq!(
        stopped.as_deref(),
        Some("target 4 hexes away, beyond the Visibility Range 2 and not Illuminated (R 50.2)")
    );
}

/// R 50.1, R 50.2: the Illumination counter over G3 lets M1 fire at J1;
/// then the Muzzle Flash chain: J2 answers M1, M2 answers J2, J1 answers
/// M2; J1 stands in the light, so its fire flashes for no one and the
/// Operations Phase goes on. Each answer is ONE Unused unit out of the
/// flashing unit's Visibility Range, with Normal FP; the answers count in
/// no Ops Range; the Illumination counter comes off in Recovery.
#[test]
fn r50_2_a_muzzle_flash_chain() {
    let (lines, stopped) = run("muzzle_flash_chain");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "Illumination in G3, fired near M1: units there and adjacent are Illuminated (R 50.1); Ops Range 1/3",
            "M1 fires at G3 (R 6.0); Ops Range 2/3",
            "M1 rolls 10 against G3 (R 6.2)",
            "J1: +4 Normal FP (R 2.1) = 4 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Muzzle Flash: M1 in C3 fired Unilluminated; Axis may answer with ONE Unused unit out of its Visibility Range: J1, J2 (R 50.2)",
            "J2 answers the Muzzle Flash of M1 with Normal FP (R 50.2)",
            "J2 rolls 4 against C3 (R 6.2)",
            "M1: +5 Normal FP (R 2.1) = 5 FP; roll 4 \u{2192} Suppressed (R 6.2)",
            "Muzzle Flash: J2 in G6 fired Unilluminated; Allies may answer with ONE Unused unit out of its Visibility Range: M2 (R 50.2)",
            "M2 answers the Muzzle Flash of J2 with Normal FP (R 50.2)",
            "M2 rolls 10 against G6 (R 6.2)",
            "J2: +4 Normal FP (R 2.1) = 4 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Muzzle Flash: M2 in D6 fired Unilluminated; Axis may answer with ONE Unused unit out of its Visibility Range: J1 (R 50.2)",
            "J1 answers the Muzzle Flash of M2 with Normal FP (R 50.2)",
            "J1 rolls 10 against D6 (R 6.2)",
            "M2: +5 Normal FP (R 2.1) = 5 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Allies Rout Phase: no unit must check (R 11.0)",
            "Axis Rout Phase: no unit must check (R 11.0)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "No Melee this turn (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "M1 recovers one step of Suppression: full Morale (R 13.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "1 Illumination counter(s) removed (R 50.1)",
            "Scenario over: Axis win. otherwise Axis win. Losses: Allies 0 eliminated, 0 Reduced; Axis 0 eliminated, 0 Reduced (R 18.0)",
        ]
    );
}

/// R 43.6, R 59.6, R 50.2: J1 Banzai Charges through the dark (no window at
/// G3 or F3: every Marine is beyond its Visibility Range of 2) into the
/// Wire at E3. The Trip Flare: M2 (2 hexes) sees it anyway, M1 (3 hexes)
/// fires by the flare's light; moving in Open Ground at Night is +1 at
/// range 2 and +0 at range 3. J1 survives, clears the Wire and is Reduced.
#[test]
fn r43_6_trip_flare_and_banzai_wire_clearing() {
    let (lines, stopped) = run("trip_flare");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Turn 1: the Japanese announce a Banzai Charge; Suppression removed from none; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: J1 (R 59.6)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "Allies to decide: which units to mark Op Fire against the Banzai Charge, any of M1, M2, M3, M4 or none (R 59.6)",
            "Against the Banzai Charge the Allies mark Op Fire outside the Ops Range: none (R 59.6)",
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 moves H3 \u{2192} G3: 1 MP, 8 left (R 5.0)",
            "J1 moves G3 \u{2192} F3: 1 MP, 7 left (R 5.0)",
            "J1 moves F3 \u{2192} E3: 1 MP, 6 left (R 5.0)",
            "Trip Flare in E3: J1 entered the Wire; one Unused unit out of its Visibility Range may Op Fire too (R 43.6)",
            "Op Fire window: J1 enters E3; Allies may fire with M1, M2, M3, M4 (R 9.0)",
            "M2 Op Fires at J1 in E3 and is Used (R 9.0, R 4.3)",
            "M2 rolls 10 against E3 (R 6.2)",
            "J1: +3 Prof FP: Op Fire (R 9.0); +1 Target moving in Open Ground at Night or in Monsoon rain, range 2 (R 50.2) = 4 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "M1 Op Fires at J1 in E3 and is Used (R 9.0, R 4.3)",
            "M1 rolls 10 against E3 (R 6.2)",
            "J1: +3 Prof FP: Op Fire (R 9.0); +0 Target moving in Open Ground at Night or in Monsoon rain, range 3 (R 50.2) = 3 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "J1 charges through the Wire in E3 and clears it; J1 is Reduced (R 43.6, R 59.6)",
            "J1 ends its move in E3; Used (R 4.2)",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 43.6: only ONE unit fires by the Trip Flare's light (M1 and M3 are
/// both beyond J1's Visibility Range).
#[test]
fn r43_6_one_unit_only_by_the_trip_flare() {
    let (lines, stopped) = run("trip_flare_two");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Op Fire window: J1 enters E3; Allies may fire with M1, M2, M3, M4 (R 9.0)")
    );
    assert_eq!(stopped.as_deref(), Some("M3 may not Op Fire at E3 (R 9.0)"));
}

/// R 43.6: a unit leaving Wire moves one hex only.
#[test]
fn r43_6_leaving_wire_is_one_hex() {
    let (_, stopped) = run("wire_leaving");
    assert_eq!(
        stopped.as_deref(),
        Some("step 2 into C6: a unit leaving Wire in B5 moves one hex only (R 43.6)")
    );
}

/// R 50.2: the Marine leaving the Wire pays 1 1/2 MP for Open Ground at
/// Night; R 43.6: a move stops on entering Wire.
#[test]
fn r50_2_night_minimum_and_r43_6_wire_stops_a_move() {
    let (lines, stopped) = run("wire_night_move");
    assert!(
        lines.contains(&"M4 moves B5 \u{2192} B6: 1\u{bd} MP, 3\u{bd} left (R 5.0)".to_string()),
        "{lines:#?}"
    );
    assert_eq!(
        stopped.as_deref(),
        Some("step 3 into F3: the move stops on entering Wire in E3 (R 43.6)")
    );
}

/// R 50.3: the Decoy MD1 is removed on losing its counter in J1's sight;
/// the Concealed M3 is Used to regenerate it in its hex, Concealed and
/// Used, counting in the Ops Range. MD1 on the board cannot come back
/// twice, and only a Concealed unit regenerates.
#[test]
fn r50_3_a_concealed_unit_regenerates_a_removed_decoy() {
    let (lines, stopped) = run("regenerate_decoy");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "MD1 moves (R 5.0); Ops Range 1/3",
            "MD1 moves E1 \u{2192} F1: 1\u{bd} MP, 3\u{bd} left (R 5.0)",
            "MD1 was a Decoy: removed on losing Concealment (R 15.0)",
            "M3 is Used to regenerate the Decoy MD1 in A1, Concealed and Used (R 50.3); Ops Range 2/3",
        ]
    );
    let (_, stopped) = run("regenerate_decoy_refused");
    assert_eq!(
        stopped.as_deref(),
        Some("M1 is not Concealed: only a Concealed unit regenerates a Decoy (R 50.3)")
    );
}

/// R 17.0, R 50.2 (issue 3): "Fugg Babe Ruth" at Night. M2 fires at an
/// imaginary target and its Muzzle Flash is answered like any fire's, once
/// the event's choice is made: J2 answers it; then M1's own flash, from the
/// fire that rolled the 1, is offered to J1, which lets it pass.
#[test]
fn r17_0_fugg_babe_ruth_at_night_gives_a_muzzle_flash() {
    let (lines, stopped) = run("fugg_night");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "Illumination in G3, fired near M1: units there and adjacent are Illuminated (R 50.1); Ops Range 1/3",
            "M1 fires at G3 (R 6.0); Ops Range 2/3",
            "M1 rolls 1 against G3 (R 6.2)",
            "J1: +4 Normal FP (R 2.1) = 4 FP; roll 1 \u{2192} Suppressed (R 6.2)",
            "M1 rolled a 1: Combat Event roll 3 -> Axis roll on the Japanese Event Table (R 17.0)",
            "Axis roll 5 on the Japanese Event Table: entry 4-6, Fugg Babe Ruth (R 17.0)",
            "Combat Event: Axis pick 1 of M1, M2: an enemy Infantry unit that may give itself away (R 17.0)",
            "Axis pick M2 (R 17.0)",
            "M2 is unused: roll 9, Marines = 9 -> it fires at an imaginary target and is marked Used (R 17.0)",
            "Muzzle Flash: M2 in D6 fired Unilluminated; Axis may answer with ONE Unused unit out of its Visibility Range: J1, J2 (R 50.2)",
            "J2 answers the Muzzle Flash of M2 with Normal FP (R 50.2)",
            "J2 rolls 10 against D6 (R 6.2)",
            "M2: +5 Normal FP (R 2.1) = 5 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Muzzle Flash: M1 in C3 fired Unilluminated; Axis may answer with ONE Unused unit out of its Visibility Range: J1 (R 50.2)",
            "Axis let the Muzzle Flash of M1 pass (R 50.2)",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
}

/// R 50.2: the Op Fire dialog of a Muzzle Flash previews the attack the
/// engine makes, Normal FP at a unit that is not moving (5 FP against M1,
/// not J2's Prof 3 plus Op Fire modifiers): both come from
/// `night::window_attack`.
#[test]
fn r50_2_the_flash_dialog_previews_the_normal_fp_the_engine_fires() {
    let (mut w, _) = world_of("night_ground.ron", &[10, 4]);
    play(&mut w, r#"illuminate(unit: "M1", at: "G3")"#);
    play(&mut w, r#"fire(unit: "M1", target: "G3")"#);
    let window = w
        .get_resource::<bob::engine::op_fire::OpFireWindow>()
        .cloned()
        .expect("the Muzzle Flash window");
    let j2 = entity(&mut w, "J2");
    let (kind, mover) = bob::engine::night::window_attack(&w, &window, j2);
    assert_eq!((kind, mover), (bob::rules::fire::FireKind::Normal, None));
    let preview = bob::ui::preview::fire_preview(&mut w, j2, window.at, kind, mover).unwrap();
    assert_eq!(preview.targets.len(), 1);
    let plan = &preview.targets[0].plan;
    assert_eq!(plan.unit.id, "M1");
    assert_eq!(plan.breakdown.total.0, 5);
    let preview_text: Vec<String> = plan
        .breakdown
        .lines
        .iter()
        .map(|l| format!("{:+} {} ({})", l.delta, l.text, l.rule))
        .collect();
    assert_eq!(preview_text, ["+5 Normal FP (R 2.1)"]);
    let lines = play(&mut w, r#"op_fire(firers: ["J2"])"#);
    assert!(
        lines.contains(
            &"M1: +5 Normal FP (R 2.1) = 5 FP; roll 4 \u{2192} Suppressed (R 6.2)".to_string()
        ),
        "{lines:#?}"
    );
}

/// R 50.2: the reach shown on the board at Night is the engine's: 1 1/2 MP
/// a hex of Open Ground for the Marines (three hexes of their five MP, 1/2
/// left), the plain MP for Japanese Infantry (R 59.0).
#[test]
fn r50_2_the_night_reach_costs_one_and_a_half_a_hex() {
    use bob::rules::Mp;
    use bob::scenario::Coord;
    let (mut w, _) = world_of("night_ground.ron", &[]);
    let hex = |l: &str| Coord::parse(l, 10, 6).unwrap();
    let m1 = entity(&mut w, "M1");
    let reach = bob::engine::reach::reachable(&mut w, m1, false);
    assert_eq!(reach.get(&hex("F3")).map(|r| r.left), Some(Mp(3)));
    assert!(!reach.contains_key(&hex("G2")));
    let path = bob::engine::reach::path_to(&reach, hex("F3"));
    assert_eq!(path.len(), 3);
    assert_eq!(
        bob::engine::operations::check(
            &mut w,
            &order(r#"move(unit: "M1", path: ["D3", "E3", "F3"])"#)
        ),
        Ok(())
    );
    assert_eq!(
        bob::engine::operations::check(
            &mut w,
            &order(r#"move(unit: "M1", path: ["D3", "E3", "F3", "F2"])"#)
        )
        .unwrap_err()
        .to_string(),
        "step 4 into F2: needs 1\u{bd} MP, \u{bd} MP left (R 5.0)"
    );
    let j1 = entity(&mut w, "J1");
    let reach = bob::engine::reach::reachable(&mut w, j1, false);
    assert_eq!(reach.get(&hex("D3")).map(|r| r.left), Some(Mp::whole(2)));
}

/// R 55.2 at Night: dry on turn 1, the Mortar places Smoke; the Storm
/// Check rolls a 1 and the deluge starts, taking the Smoke off the board.
/// In the rain there is no Smoke (rounds or grenades), no Illumination,
/// no Trip Flare and no Muzzle Flash, and no fire beyond three hexes, the
/// Mortar's included.
#[test]
fn r55_2_the_rain_stops_smoke_illumination_flares_flashes_and_long_fire() {
    let (mut w, mut log) = world_of("night_storm_ground.ron", &[1, 10, 10]);
    for o in [
        r#"place_smoke(unit: "MM", at: "E5")"#,
        r#"mark_used(unit: "M1")"#,
        r#"mark_used(unit: "J1")"#,
        r#"mark_used(unit: "J2")"#,
    ] {
        log.extend(play(&mut w, o));
    }
    assert!(bob::engine::monsoon::raining(&w));
    let tail: Vec<&str> = log.iter().rev().take(5).rev().map(String::as_str).collect();
    assert_eq!(
        tail,
        [
            "Smoke in E5 flips to Dispersed Smoke (R 13.0, R 48.0)",
            "Allies Monsoon Storm Check: roll 1 (changes on 1-2): a monsoon deluge starts; no more checks (R 55.2)",
            "1 Smoke counter(s) removed: there is no Smoke in the Monsoon rain (R 55.2)",
            "Turn 2 begins (R 13.0)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
        ]
    );
    assert!(bob::engine::smoke::counters(&w).is_empty());
    assert_eq!(
        refused(&mut w, r#"illuminate(unit: "M1", at: "G3")"#),
        "no Illumination in the Monsoon rain (R 55.2)"
    );
    assert_eq!(
        refused(&mut w, r#"place_smoke(unit: "MM", at: "E5")"#),
        "no Smoke in the Monsoon rain (R 55.2)"
    );
    assert_eq!(
        refused(
            &mut w,
            r#"move(unit: "M1", path: ["D3"], smoke_grenade: Some((after: 0, at: "D3")))"#
        ),
        "Smoke Grenade into D3: no Smoke in the Monsoon rain (R 55.2)"
    );
    assert_eq!(
        refused(&mut w, r#"fire(unit: "MM", target: "G3")"#),
        "target 5 hexes away: in the Monsoon rain no fire beyond 3 hexes (R 55.2)"
    );
    // M1 fires in the dark and the rain: no Muzzle Flash (the Ops Range
    // goes on at once, M1 carries no flash mark).
    let lines = play(&mut w, r#"fire(unit: "M1", target: "E4")"#);
    assert!(
        !lines.iter().any(|l| l.contains("Muzzle Flash")),
        "{lines:#?}"
    );
    let m1 = entity(&mut w, "M1");
    assert!(w.get::<bob::engine::night::MuzzleFlashed>(m1).is_none());
    play(&mut w, r#"mark_used(unit: "MM")"#);
    // J1 walks into the Wire of E3: no Trip Flare.
    let lines = play(&mut w, r#"move(unit: "J1", path: ["F3", "E3"])"#);
    assert!(
        !lines.iter().any(|l| l.contains("Trip Flare")),
        "{lines:#?}"
    );
    assert_eq!(
        lines,
        [
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 moves G3 \u{2192} F3: 1 MP, 4 left (R 5.0)",
            "J1 moves F3 \u{2192} E3: 1 MP, 3 left (R 5.0)",
            "J1 ends its move in E3; Used (R 4.2)",
        ]
    );
}

/// A headless App of the interface on a test ground: the requests of the
/// buttons, keys and clicks handled and the views rebuilt each frame, as in
/// `tests/ui_game.rs`.
fn ui_app(file: &str) -> bevy::prelude::App {
    use bevy::prelude::*;
    use bob::ui::{Hovered, Selected, act, decide, orders};
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let loaded = bob::world::load(&format!("tests/data/{file}"), &roster, &aid).unwrap();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(act::ActPlugin)
        .init_resource::<decide::DecisionPanel>()
        .init_resource::<Selected>()
        .init_resource::<Hovered>()
        .init_resource::<orders::GameLog>()
        .init_resource::<bob::ui::handover::HandOver>()
        .init_resource::<bob::ui::facing::FacingPlan>()
        .init_resource::<bob::ui::result::ResultRequest>()
        .insert_resource(bob::world::ActiveScenario {
            scenario: loaded.scenario,
            origin: loaded.origin,
        })
        .insert_resource(bob::world::RosterRes(std::sync::Arc::new(roster)))
        .insert_resource(bob::world::AidRes(std::sync::Arc::new(aid)))
        .insert_resource(bob::engine::Dice::seeded(1))
        .add_systems(
            Startup,
            (bob::world::spawn::spawn_scenario, orders::start_operations).chain(),
        )
        .add_systems(Update, (act::handle_requests, act::refresh_views).chain());
    app.update();
    app
}

/// Selects `id` and runs a frame.
fn select(app: &mut bevy::prelude::App, id: &str) {
    let e = entity(app.world_mut(), id);
    app.world_mut().resource_mut::<bob::ui::Selected>().0 = Some(e);
    app.update();
}

/// The selected unit's Night and Seishin buttons: each action's label and
/// refusal.
fn pacific_buttons(app: &bevy::prelude::App) -> Vec<(&'static str, Option<String>)> {
    app.world()
        .resource::<bob::ui::act::ActionBar>()
        .pacific
        .iter()
        .map(|b| (b.action.label(), b.refusal.clone()))
        .collect()
}

/// Sends a button's request and runs a frame.
fn press(app: &mut bevy::prelude::App, action: bob::ui::act::Action) {
    app.world_mut()
        .resource_mut::<bob::ui::act::Requests>()
        .action = Some(action);
    app.update();
}

/// The game log's last line.
fn last_line(app: &bevy::prelude::App) -> String {
    let log = app.world().resource::<bob::ui::orders::GameLog>();
    log.lines.last().cloned().unwrap_or_default()
}

/// Issue 8 / issue 5 through the interface's message path: the
/// Illumination button arms a hex pick whose preview rings the hexes a
/// counter would light (or gives the engine's refusal), and the click sends
/// the order a script sends, with the same log line; spent, the button is
/// greyed with the rule. The Decoy button brings back the removed Decoy
/// (R 50.3); the Seishin toggle adds its +1 MP to the reach and the move
/// it sends declares Seishin (R 59.5).
#[test]
fn night_and_seishin_buttons_send_the_scripts_orders() {
    use bob::rules::Mp;
    use bob::scenario::Coord;
    use bob::ui::act::{Action, Intent};
    let hex = |l: &str| Coord::parse(l, 10, 6).unwrap();

    // Illumination (R 50.1) on the night ground.
    let mut app = ui_app("night_ground.ron");
    select(&mut app, "M1");
    let none_removed =
        "no Decoy of this side has been removed: none to bring back (R 50.3)".to_string();
    assert_eq!(
        pacific_buttons(&app),
        [
            ("Illuminate", None),
            ("Decoy back", Some(none_removed.clone()))
        ]
    );
    press(&mut app, Action::Illuminate);
    assert_eq!(*app.world().resource::<Intent>(), Intent::Illuminate);
    app.world_mut().resource_mut::<bob::ui::Hovered>().0 = Some(hex("I3"));
    app.update();
    let lights = app
        .world()
        .resource::<bob::ui::act::IlluminationPreview>()
        .clone();
    assert_eq!(
        lights.refusal.as_deref(),
        Some("Illumination 6 hexes away: within 5 of the unit placing it (R 50.1)")
    );
    app.world_mut().resource_mut::<bob::ui::Hovered>().0 = Some(hex("G3"));
    app.update();
    let lights = app
        .world()
        .resource::<bob::ui::act::IlluminationPreview>()
        .clone();
    assert_eq!(lights.refusal, None);
    let mut lit: Vec<String> = lights.lit.iter().map(|c| c.label()).collect();
    lit.sort();
    assert_eq!(lit, ["F2", "F3", "G2", "G3", "G4", "H2", "H3"]);
    app.world_mut()
        .resource_mut::<bob::ui::act::Requests>()
        .click = Some(hex("G3"));
    app.update();
    assert_eq!(
        last_line(&app),
        "Illumination in G3, fired near M1: units there and adjacent are Illuminated (R 50.1); Ops Range 1/3"
    );
    assert_eq!(*app.world().resource::<Intent>(), Intent::Select);
    assert_eq!(
        app.world().resource::<bob::engine::night::Illumination>().0,
        [hex("G3")]
    );
    assert_eq!(
        pacific_buttons(&app),
        [
            (
                "Illuminate",
                Some(
                    "all 1 Illumination counters of the side are spent: one-time counters (R 50.1)"
                        .to_string()
                )
            ),
            ("Decoy back", Some(none_removed))
        ]
    );

    // A regenerated Decoy (R 50.3), as tests/scripts/regenerate_decoy.ron.
    let mut app = ui_app("night_decoy_ground.ron");
    select(&mut app, "M3");
    assert_eq!(
        pacific_buttons(&app)[1],
        (
            "Decoy back",
            Some("no Decoy of this side has been removed: none to bring back (R 50.3)".into())
        )
    );
    assert!(bob::ui::act::send(
        app.world_mut(),
        &order(r#"move(unit: "MD1", path: ["F1"])"#)
    ));
    app.update();
    assert_eq!(pacific_buttons(&app)[1], ("Decoy back", None));
    press(&mut app, Action::Decoy);
    assert_eq!(
        last_line(&app),
        "M3 is Used to regenerate the Decoy MD1 in A1, Concealed and Used (R 50.3); Ops Range 2/3"
    );

    // Seishin (R 59.5): a toggle for the "S" Squad, +1 MP in the reach.
    let mut app = ui_app("seishin_ground.ron");
    select(&mut app, "J2");
    assert_eq!(pacific_buttons(&app), []);
    select(&mut app, "J1");
    assert_eq!(pacific_buttons(&app), [("Seishin +1 MP", None)]);
    press(&mut app, Action::Move);
    let left = |app: &bevy::prelude::App, l: &str| {
        app.world()
            .resource::<bob::ui::act::Reach>()
            .hexes
            .get(&hex(l))
            .map(|r| r.left)
    };
    assert_eq!(left(&app, "F5"), Some(Mp::whole(0)));
    assert_eq!(left(&app, "G5"), None);
    press(&mut app, Action::Seishin);
    assert!(app.world().resource::<bob::ui::act::ActionBar>().seishin);
    assert_eq!(*app.world().resource::<Intent>(), Intent::Move);
    assert_eq!(left(&app, "F5"), Some(Mp::whole(1)));
    assert_eq!(left(&app, "G5"), Some(Mp::whole(0)));
    app.world_mut()
        .resource_mut::<bob::ui::act::Requests>()
        .click = Some(hex("G5"));
    app.update();
    let log = app.world().resource::<bob::ui::orders::GameLog>();
    assert!(
        log.lines.iter().any(|l| l
            == "J1 declares Seishin: +1 MP, +1 Morale this Operations Phase, +2 Melee FP this turn (R 59.5)"),
        "{:#?}",
        log.lines
    );
    assert!(!app.world().resource::<bob::ui::act::ActionBar>().seishin);
}

// R 59.6, the Banzai Charge and the Rout Edge: a charging Squad follows
// the charge's own path rule even toward its Rout Edge; every other
// Japanese Squad move toward it is refused until the last required charge
// is called (docs/decisions.md).

/// Turn 2 of a card calling charges on turns 2 and 3: J1 in E5 charges the
/// closest Marine, M1 in B5, three hexes west, toward its own Rout Edge
/// (the west), by the fewest MPs; the engine accepts it.
#[test]
fn r59_6_a_charge_may_go_toward_the_rout_edge() {
    let (lines, stopped) = run("banzai_rout_edge");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "J1 marked Used (R 4.2); Ops Range 1/3",
            "J2 marked Used (R 4.2); Ops Range 2/3",
            "Axis: every unit Used or marked Op Fire (R 4.1)",
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 marked Used (R 4.2); Ops Range 1/3",
            "Allies: every unit Used or marked Op Fire (R 4.1)",
            "Operations Phase ends; Rout Phase begins (R 1.0)",
            "Axis Rout Phase: no unit must check (R 11.0)",
            "Allies Rout Phase: M1 must check (R 11.0)",
            "M1 Rout MC (not in Beneficial Terrain, in unhindered LOS of an enemy): Morale 10 passes with no roll (R 11.0, R 7.1)",
            "Rout Phase ends; Melee Phase begins (R 1.0)",
            "No Melee this turn (R 12.0)",
            "Melee Phase ends; Recovery Phase begins (R 1.0)",
            "Used, Op Fire, CP and Flank counters removed; CPs returned (R 13.0, R 3.0)",
            "Turn 2 begins (R 13.0)",
            "Turn 2: the Japanese announce a Banzai Charge; Suppression removed from none; charging (+4 MP, +2 Morale, +2 Melee FP) unless marked Op Fire: J1, J2 (R 59.6)",
            "Axis Ops Range 1\u{2013}3 (R 4.1)",
            "Allies to decide: which units to mark Op Fire against the Banzai Charge, any of M1 or none (R 59.6)",
            "Against the Banzai Charge the Allies mark Op Fire outside the Ops Range: none (R 59.6)",
            "J1 moves (R 5.0); Ops Range 1/3",
            "J1 moves E5 \u{2192} D5: 1 MP, 8 left (R 5.0)",
            "Op Fire window: J1 enters D5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at D5 (R 9.0)",
            "J1 moves D5 \u{2192} C5: 1 MP, 7 left (R 5.0)",
            "Op Fire window: J1 enters C5; Allies may fire with M1 (R 9.0)",
            "Allies hold their fire at C5 (R 9.0)",
            "J1 moves C5 \u{2192} B5: 1 MP, 6 left (R 5.0)",
            "J1 ends its move in B5; Used (R 4.2)",
        ]
    );
}

/// Turn 1, before the first required charge: J2 may not step west, toward
/// its Rout Edge.
#[test]
fn r59_6_no_step_toward_the_rout_edge_before_the_last_charge_is_called() {
    let (lines, stopped) = run("banzai_rout_edge_refused");
    assert_eq!(lines, ["Axis Ops Range 1\u{2013}3 (R 4.1)"]);
    assert_eq!(
        stopped.as_deref(),
        Some(
            "J2: D8 is closer to the Rout Edge; no Japanese Squad moves closer to it before the last required Banzai Charge is called (due in Turn 3) (R 59.6)"
        )
    );
}

/// R 50.2, R 5.2: "Whenever an Unilluminated unit fires" includes Assault
/// Fire: M1 moves through the dark and Assault Fires at J1 two hexes off;
/// J2, beyond M1's Visibility Range, answers its Muzzle Flash; J2's own
/// flash is offered to M2, who lets it pass.
#[test]
fn r50_2_an_assault_fire_flashes_too() {
    let (lines, stopped) = run("assault_fire_flash");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 moves (R 5.0); Ops Range 1/3",
            "M1 moves C3 \u{2192} D3: 1\u{bd} MP, 3\u{bd} left (R 5.0)",
            "M1 moves D3 \u{2192} E3: 1\u{bd} MP, 2 left (R 5.0)",
            "Op Fire window: M1 enters E3; Axis may fire with J1 (R 9.0)",
            "Axis hold their fire at E3 (R 9.0)",
            "M1 Assault Fires at G3; its move is over (R 5.2)",
            "M1 rolls 10 against G3 (R 6.2)",
            "J1: +3 Prof FP: Assault Fire (R 5.2) = 3 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "M1 ends its move in E3; Used (R 4.2)",
            "Muzzle Flash: M1 in E3 fired Unilluminated; Axis may answer with ONE Unused unit out of its Visibility Range: J2 (R 50.2)",
            "J2 answers the Muzzle Flash of M1 with Normal FP (R 50.2)",
            "J2 rolls 4 against E3 (R 6.2)",
            "M1: +5 Normal FP (R 2.1) = 5 FP; roll 4 \u{2192} Suppressed (R 6.2)",
            "Muzzle Flash: J2 in G6 fired Unilluminated; Allies may answer with ONE Unused unit out of its Visibility Range: M2 (R 50.2)",
            "Allies let the Muzzle Flash of J2 pass (R 50.2)",
        ]
    );
}

/// R 50.2, R 58.3: a Fireteam's fire mid move flashes; the chain is answered
/// before the move goes on (M1 fires from D3 at J1, J2 answers, M2 lets
/// J2's flash go, M1 moves on to D2).
#[test]
fn r50_2_a_fireteam_fire_mid_move_flashes_before_the_move_goes_on() {
    let (lines, stopped) = run("fireteam_flash");
    assert_eq!(stopped, None, "{lines:#?}");
    assert_eq!(
        lines,
        [
            "Allies Ops Range 1\u{2013}3 (R 4.1)",
            "M1 moves (R 5.0); Ops Range 1/3",
            "M1 moves C3 \u{2192} D3: 1\u{bd} MP, 3\u{bd} left (R 5.0)",
            "Op Fire window: M1 enters D3; Axis may fire with J1 (R 9.0)",
            "Axis hold their fire at D3 (R 9.0)",
            "M1 Assault Fires at F3 by Fireteams: 2 MP, 1\u{bd} left, Prof -2 (R 58.3)",
            "M1 rolls 10 against F3 (R 6.2)",
            "J1: +5 Prof FP: Assault Fire (R 5.2); \u{2212}2 Fireteam fire before or mid move (Prof FP) (R 58.3) = 3 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Muzzle Flash: M1 in D3 fired Unilluminated; Axis may answer with ONE Unused unit out of its Visibility Range: J2 (R 50.2)",
            "J2 answers the Muzzle Flash of M1 with Normal FP (R 50.2)",
            "J2 rolls 10 against D3 (R 6.2)",
            "M1: +5 Normal FP (R 2.1) = 5 FP; roll 10 \u{2192} No Effect (R 6.2)",
            "Muzzle Flash: J2 in G6 fired Unilluminated; Allies may answer with ONE Unused unit out of its Visibility Range: M2 (R 50.2)",
            "Allies let the Muzzle Flash of J2 pass (R 50.2)",
            "M1 moves D3 \u{2192} D2: 1\u{bd} MP, 0 left (R 5.0)",
            "Op Fire window: M1 enters D2; Axis may fire with J1 (R 9.0)",
            "Axis hold their fire at D2 (R 9.0)",
            "M1 ends its move in D2; Used (R 4.2)",
        ]
    );
}
