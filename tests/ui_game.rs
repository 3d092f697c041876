//! A whole game of the training scenario played through the interface's
//! own message path, headless: a Bevy App (MinimalPlugins, no window) with
//! the UI's resources and systems. Every order is a request the buttons and
//! keys make (`ui::act::Requests`, the decision window's `DecisionPanel`),
//! handled by `act::handle_requests` and sent by `act::send`; the hand-over
//! screen comes up and is taken down with "Space"; the game ends on the
//! result screen, which agrees with the engine's verdict (R 13.0, R 18.0).

use std::sync::Arc;

use bevy::prelude::*;

use bob::engine::Dice;
use bob::phases::end::{GameOver, tally};
use bob::scenario::{self, schema::SideId};
use bob::ui::{Hovered, Selected, act, decide, drive, handover, orders, result};
use bob::world::spawn::spawn_scenario;
use bob::world::{ActiveScenario, AidRes, RosterRes, TurnTrack};

fn game_app(seed: u64) -> App {
    let roster = scenario::builtin_roster().unwrap();
    let aid = scenario::builtin_player_aid().unwrap();
    let loaded = scenario::load("training", &roster, &aid).unwrap();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins((act::ActPlugin, decide::DecidePlugin))
        .init_resource::<Selected>()
        .init_resource::<Hovered>()
        .init_resource::<orders::GameLog>()
        .init_resource::<handover::HandOver>()
        .insert_resource(ActiveScenario {
            scenario: loaded.scenario,
            origin: loaded.origin,
        })
        .insert_resource(RosterRes(Arc::new(roster)))
        .insert_resource(AidRes(Arc::new(aid)))
        .insert_resource(Dice::seeded(seed))
        .insert_resource(drive::UiDriver::new(seed ^ 0x0a11))
        .add_systems(
            Startup,
            (
                spawn_scenario,
                orders::start_operations,
                result::start_record,
            )
                .chain(),
        )
        .add_systems(
            Update,
            (
                drive::drive_step,
                act::handle_requests,
                decide::refresh_and_send,
                act::refresh_views,
                result::open_result,
                handover::watch_viewer,
            )
                .chain(),
        );
    app
}

/// Plays until the result screen is up; returns the frames it took.
fn play_to_result(app: &mut App) -> u64 {
    for frame in 1..=300_000u64 {
        app.update();
        if app.world().get_resource::<result::ResultScreen>().is_some() {
            return frame;
        }
    }
    panic!("no result screen after 300000 frames");
}

#[test]
fn a_whole_training_game_through_the_ui_reaches_the_result_screen() {
    for seed in [1u64, 2, 3] {
        let mut app = game_app(seed);
        let frames = play_to_result(&mut app);
        let world = app.world_mut();
        let verdict = world.resource::<GameOver>().0.clone();
        let screen = world.resource::<result::ResultScreen>().clone();
        // The screen says what the engine decided (R 18.0).
        assert_eq!(screen.winner, verdict.winner, "seed {seed}");
        assert_eq!(screen.reasons, verdict.reasons, "seed {seed}");
        let expected = match verdict.winner {
            Some(SideId::Allies) => "American (Airborne) win",
            Some(SideId::Axis) => "German win",
            None => "A draw",
        };
        assert_eq!(screen.headline, expected, "seed {seed}");
        // Every turn of the five is in the summary, in order.
        let last = world.resource::<TurnTrack>().last_turn;
        let turns: Vec<u8> = screen.turns.iter().map(|t| t.turn).collect();
        assert_eq!(turns, (1..=last).collect::<Vec<u8>>(), "seed {seed}");
        // The units lost, turn by turn, add up to the losses counted at the
        // end (R 18.0).
        let t = tally(world);
        for s in SideId::BOTH {
            let lost: usize = screen.turns.iter().map(|l| l.lost[s.index()].len()).sum();
            assert_eq!(
                lost,
                usize::from(t.eliminated[s.index()]),
                "seed {seed} {s:?}"
            );
        }
        // The game went through the UI: orders were accepted by `send`, the
        // last log line is the verdict, and the screen changed hands.
        assert!(world.resource::<act::OrderCount>().0 > 50, "seed {seed}");
        let log = world.resource::<orders::GameLog>();
        let end = log.lines.last().unwrap();
        assert!(end.starts_with("Scenario over: "), "seed {seed}: {end}");
        let hand = world.resource::<handover::HandOver>();
        assert!(
            hand.count >= 2 * u32::from(last),
            "seed {seed}: {}",
            hand.count
        );
        assert_eq!(hand.to, None, "seed {seed}");
        eprintln!(
            "seed {seed}: {frames} frames, {} orders, {} hand-overs, {}",
            world.resource::<act::OrderCount>().0,
            hand.count,
            screen.headline
        );
    }
}

/// With the hand-over screen up, the driver's "Space" is all that happens
/// that frame: no order reaches the engine behind the hidden board.
#[test]
fn nothing_is_ordered_while_the_hand_over_screen_is_up() {
    let mut app = game_app(9);
    app.update();
    let before = app.world().resource::<act::OrderCount>().0;
    let viewer = app.world().resource::<bob::world::Viewer>().0;
    app.world_mut()
        .resource_mut::<handover::HandOver>()
        .show(viewer);
    app.update();
    assert_eq!(app.world().resource::<act::OrderCount>().0, before);
    assert_eq!(app.world().resource::<handover::HandOver>().to, None);
}
