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
use bob::engine::phases::end::{GameOver, tally};
use bob::scenario::schema::SideId;
use bob::ui::{Hovered, Selected, act, decide, drive, handover, orders, result};
use bob::world::spawn::spawn_scenario;
use bob::world::{ActiveScenario, AidRes, RosterRes, TurnTrack};

mod common;

/// A headless App with the interface's resources on `name`, no systems.
fn ui_app(name: &str, seed: u64) -> App {
    let (loaded, roster, aid) = common::loaded(name);
    let mut app = App::new();
    // The decision window's panel without its plugin's keys and rings (they
    // need a window and egui).
    app.add_plugins(MinimalPlugins)
        .add_plugins(act::ActPlugin)
        .init_resource::<decide::DecisionPanel>()
        .init_resource::<Selected>()
        .init_resource::<Hovered>()
        .init_resource::<orders::GameLog>()
        .init_resource::<handover::HandOver>()
        .init_resource::<bob::ui::facing::FacingPlan>()
        .init_resource::<bob::ui::facing::TurnRequest>()
        .init_resource::<result::ResultRequest>()
        // The result screen's turn record, as its plugin adds it.
        .add_systems(
            act::OrderShown,
            result::on_order.in_set(act::ShownSet::Told),
        )
        .insert_resource(ActiveScenario {
            scenario: loaded.scenario,
            origin: loaded.origin,
        })
        .insert_resource(RosterRes(Arc::new(roster)))
        .insert_resource(AidRes(Arc::new(aid)))
        .insert_resource(Dice::seeded(seed))
        .insert_resource(drive::UiDriver::new(seed ^ 0x0a11));
    app
}

/// The training scenario played through the interface: set up as the game
/// state is entered, torn down as it is left (the result screen's "Main
/// menu").
fn game_app(seed: u64) -> App {
    use bob::app::AppState;
    let mut app = ui_app("training", seed);
    app.add_plugins(bevy::state::app::StatesPlugin)
        .insert_state(AppState::InGame)
        .add_systems(
            OnEnter(AppState::InGame),
            (
                spawn_scenario,
                orders::start_operations,
                result::start_record,
            )
                .chain(),
        )
        .add_systems(OnExit(AppState::InGame), bob::ui::teardown::leave_to_menu)
        .add_systems(
            Update,
            (
                drive::drive_step,
                act::handle_requests,
                decide::refresh_and_send,
                act::refresh_views,
                result::open_result,
                result::act_on_result,
                handover::watch_viewer,
                bob::ui::forget_selection_on_hand_over,
            )
                .chain()
                .run_if(in_state(AppState::InGame)),
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

/// Issue 26: the hand-over screen says why the screen passes (the question
/// the side is asked, or its Ops Range), recaps what the other side did in
/// the arriving side's own copy of the log (R 15.0), and the selection of the
/// side that left does not survive it.
#[test]
fn the_hand_over_says_why_and_recaps_in_the_side_s_own_words() {
    let mut app = game_app(1);
    let mut seen = 0;
    let mut asked = 0;
    let mut dialogs = 0;
    for _ in 0..20_000 {
        app.update();
        let world = app.world_mut();
        if world.get_resource::<result::ResultScreen>().is_some() {
            break;
        }
        // The Op Fire dialog names a mover still under its Conceal counter
        // by the counter, as the side asked sees it (R 15.0).
        let dialog = world.resource::<act::OpFireDialog>().clone();
        if let Some(w) = &dialog.window {
            let concealed = world.get::<bob::world::Concealed>(w.mover).is_some();
            if concealed {
                assert_eq!(dialog.mover, "a Conceal counter", "for {}", w.mover_id);
            }
            dialogs += 1;
        }
        let world = app.world();
        let hand = world.resource::<handover::HandOver>();
        let Some(to) = hand.to else {
            continue;
        };
        if hand.count == seen {
            continue;
        }
        seen = hand.count;
        assert!(
            hand.why.contains(": the ") && hand.why.contains(" player to "),
            "{}",
            hand.why
        );
        if !hand.why.starts_with("OPS RANGE") {
            asked += 1;
        }
        let log = world.resource::<orders::GameLog>();
        let own: Vec<&str> = log.shown_to(Some(to)).iter().map(|(_, l)| *l).collect();
        for line in &hand.recap {
            assert!(
                own.contains(&line.as_str()),
                "{line} is not in {to:?}'s copy"
            );
        }
        assert_eq!(
            world.resource::<Selected>().0,
            None,
            "selection kept over the hand-over"
        );
    }
    assert!(seen >= 4, "only {seen} hand-overs");
    assert!(asked >= 1, "no hand-over for a question");
    assert!(dialogs >= 1, "no Op Fire dialog");
}

/// R 15.0: the Op Fire dialog names a mover still under its Conceal counter
/// as "a Conceal counter", never by its id (A4): the
/// Germans are asked at D5 only because their counters might fire.
#[test]
fn the_op_fire_dialog_names_a_concealed_mover_by_its_counter() {
    use bob::engine::Order;
    let mut app = game_app(2);
    app.update();
    let orders = [
        Order::MarkUsed { unit: "A1".into() },
        Order::Pass,
        Order::MarkOpFire {
            unit: "G4".into(),
            facing: None,
        },
        Order::MarkOpFire {
            unit: "G1".into(),
            facing: None,
        },
        Order::Pass,
        Order::plain_move(
            "A4".to_string(),
            vec!["D5".to_string(), "E5".to_string(), "F5".to_string()],
        ),
    ];
    for o in &orders {
        assert!(act::send(app.world_mut(), o), "{o:?} refused");
    }
    act::refresh_views(app.world_mut());
    let dialog = app.world().resource::<act::OpFireDialog>().clone();
    let w = dialog.window.expect("no Op Fire window");
    assert_eq!((w.mover_id.as_str(), w.at.label().as_str()), ("A4", "D5"));
    assert!(w.eligible.is_empty());
    assert_eq!(dialog.mover, "a Conceal counter");
}

mod menu {
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    use bevy::prelude::*;

    use bob::app::AppState;
    use bob::ui::menu::{MainMenu, MenuAction, act_on_menu, build_menu};
    use bob::ui::session::{JournalLaunch, LaunchMode};
    use bob::world::{ActiveScenario, AidRes, RosterRes};

    fn data_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bob-menu-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("journals")).unwrap();
        std::fs::create_dir_all(dir.join("saves")).unwrap();
        dir
    }

    /// An unfinished game of `training`: the first moves of a script.
    fn journal_of_first_moves(to: &Path) {
        let (roster, aid) = super::common::data();
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(root.join("tests/scripts/first_moves.ron")).unwrap();
        let script = bob::engine::script::parse("first_moves.ron", &bytes).unwrap();
        bob::journal::headless::run_script_journaled(
            &script,
            &roster,
            &aid,
            to,
            false,
            &mut |_| {},
        )
        .unwrap();
    }

    fn menu_world(dir: &Path) -> World {
        let mut world = World::new();
        let (roster, aid) = super::common::data();
        world.insert_resource(RosterRes(Arc::new(roster)));
        world.insert_resource(AidRes(Arc::new(aid)));
        world.insert_resource(JournalLaunch {
            dir: dir.to_path_buf(),
            mode: LaunchMode::Fresh,
        });
        world.init_resource::<NextState<AppState>>();
        build_menu(&mut world);
        world
    }

    fn choose(world: &mut World, action: MenuAction) {
        world.resource_mut::<MainMenu>().action = Some(action);
        act_on_menu(world);
    }

    fn started(world: &World) -> bool {
        matches!(
            *world.resource::<NextState<AppState>>(),
            NextState::Pending(AppState::InGame)
        )
    }

    /// Continue resumes the unfinished journal; its summary is offered.
    #[test]
    fn continue_resumes_the_unfinished_game() {
        let dir = data_dir("continue");
        let journal = dir.join("journals/training.ron");
        journal_of_first_moves(&journal);
        let mut world = menu_world(&dir);
        let menu = world.resource::<MainMenu>().clone();
        let entry = &menu.scenarios[menu.selected];
        assert_eq!(entry.loaded.scenario.id, "training");
        let offer = entry.unfinished.as_ref().unwrap();
        assert!(
            offer.text.starts_with(
                "An unfinished game was found: Training: The Hedges of Saint-Martin, turn 1, \
                 Operations Phase, Axis to act, 10 orders (started "
            ),
            "{}",
            offer.text
        );
        choose(&mut world, MenuAction::Continue);
        assert!(started(&world));
        assert_eq!(world.resource::<ActiveScenario>().scenario.id, "training");
        match &world.resource::<JournalLaunch>().mode {
            LaunchMode::Resume(read, path) => {
                assert_eq!(read.entries.len(), 10);
                assert_eq!(path, &journal);
            }
            _ => panic!("not a resume"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A journal cut mid-line is offered up to its last whole entry, with
    /// what was dropped; junk is reported, not offered, and kept; New game
    /// keeps the unfinished journal aside as the board starts.
    #[test]
    fn damaged_journals_are_told_and_kept() {
        let dir = data_dir("damaged");
        let journal = dir.join("journals/training.ron");
        journal_of_first_moves(&journal);
        let text = std::fs::read_to_string(&journal).unwrap();
        std::fs::write(&journal, &text[..text.len() - 20]).unwrap();
        let world = menu_world(&dir);
        let menu = world.resource::<MainMenu>().clone();
        let offer = menu.scenarios[menu.selected].unfinished.clone().unwrap();
        assert!(offer.read.is_some());
        assert!(offer.text.contains("9 orders"), "{}", offer.text);
        assert!(offer.text.contains("dropped"), "{}", offer.text);

        std::fs::write(&journal, "(format: 1, junk").unwrap();
        let mut world = menu_world(&dir);
        let menu = world.resource::<MainMenu>().clone();
        let offer = menu.scenarios[menu.selected].unfinished.clone().unwrap();
        assert!(offer.read.is_none());
        assert!(
            offer.text.starts_with(&format!(
                "The unfinished game cannot be resumed:\n{}:1:",
                journal.display()
            )),
            "{}",
            offer.text
        );
        choose(&mut world, MenuAction::NewGame);
        assert!(started(&world));
        assert!(matches!(
            world.resource::<JournalLaunch>().mode,
            LaunchMode::New
        ));
        // The old journal is kept aside as the board starts, under the
        // journal's lock, and the new one takes its name.
        assert!(!bob::ui::session::start_game(&mut world));
        assert!(
            world
                .get_resource::<bob::ui::session::JournalStop>()
                .is_none()
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("journals/training-old-1.ron")).unwrap(),
            "(format: 1, junk"
        );
        let new = bob::journal::read_journal(&journal).unwrap();
        assert!(new.entries.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Load lists the saves with their summaries and opens the one chosen;
    /// an unreadable save is listed with its error and refused.
    #[test]
    fn load_lists_and_opens_saves() {
        let dir = data_dir("load");
        let save = dir.join("saves/first.ron");
        journal_of_first_moves(&save);
        std::fs::write(dir.join("saves/junk.ron"), "junk").unwrap();
        let mut world = menu_world(&dir);
        let saves = world.resource::<MainMenu>().saves.clone();
        assert_eq!(saves.len(), 2);
        assert!(saves[0].readable);
        assert!(
            saves[0]
                .text
                .starts_with("training: a journal of 10 orders (no summary), started "),
            "{}",
            saves[0].text
        );
        assert!(!saves[1].readable);
        choose(&mut world, MenuAction::Load(dir.join("saves/junk.ron")));
        assert!(!started(&world));
        assert!(world.resource::<MainMenu>().message.is_some());
        choose(&mut world, MenuAction::Load(save));
        assert!(started(&world));
        match &world.resource::<JournalLaunch>().mode {
            LaunchMode::Load(read) => assert_eq!(read.entries.len(), 10),
            _ => panic!("not a load"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Facing by hand (R 2.2, R 4.3): on Guadalcanal (facing in use) `E` twice
/// turns the selected unit two hexspines to the right as a plan; the Op
/// Fire button's order carries it, and the engine gives the unit that
/// facing. Marked, the unit may not turn again, and the log says why.
#[test]
fn q_and_e_set_the_facing_given_with_the_op_fire_mark() {
    use bob::scenario::schema::Spine;
    use bob::ui::facing::{FacingPlan, TurnRequest, apply_turn, turned, why_not};
    use bob::world::{Facing, Unit};

    let app_for = |name: &str| {
        let mut app = ui_app(name, 4);
        app.add_systems(Startup, (spawn_scenario, orders::start_operations).chain())
            .add_systems(
                Update,
                (apply_turn, act::handle_requests, act::refresh_views).chain(),
            );
        app.update();
        app
    };

    let mut app = app_for("guadalcanal");
    let world = app.world_mut();
    let ready = act::ready_units(world);
    let (unit, id) = ready
        .into_iter()
        .find(|(_, id)| why_not(world, id).is_none())
        .expect("a unit of the side to act may be marked Op Fire");
    world.resource_mut::<Selected>().0 = Some(unit);
    let before = world.get::<Facing>(unit).map(|f| f.0);
    let want = turned(turned(before.unwrap_or(Spine::E), -1), -1);
    for _ in 0..2 {
        *app.world_mut().resource_mut::<TurnRequest>() = TurnRequest::By(-1);
        app.update();
    }
    let world = app.world_mut();
    assert_eq!(world.resource::<FacingPlan>().of(unit), Some(want), "{id}");
    // Not taken yet: the engine turns a unit only with an order.
    assert_eq!(world.get::<Facing>(unit).map(|f| f.0), before, "{id}");
    // A move would carry it too, as the facing at its end (R 2.2).
    let moved = bob::ui::facing::with_plan(
        world,
        bob::engine::Order::plain_move(id.clone(), vec!["A1".into()]),
    );
    assert!(
        matches!(moved, bob::engine::Order::Move { facing: Some(f), .. } if f == want),
        "{moved:?}"
    );
    world.resource_mut::<act::Requests>().action = Some(act::Action::OpFire);
    app.update();
    let world = app.world_mut();
    assert!(
        bob::world::marks(world, unit).op_fire,
        "{id} marked Op Fire"
    );
    assert_eq!(world.get::<Facing>(unit).map(|f| f.0), Some(want), "{id}");
    let line = format!("{id} marked Op Fire facing {want:?} (R 4.3)");
    let log = world.resource::<orders::GameLog>();
    assert!(
        log.lines.iter().any(|l| l.starts_with(&line)),
        "{line} in {:?}",
        log.lines
    );
    // Marked, it may not turn (R 4.3: it turned as it was marked).
    *world.resource_mut::<TurnRequest>() = TurnRequest::By(1);
    app.update();
    let world = app.world_mut();
    assert_eq!(world.resource::<FacingPlan>().of(unit), None);
    assert_eq!(world.get::<Facing>(unit).map(|f| f.0), Some(want));
    let refusal = world.resource::<orders::GameLog>().refusal.clone().unwrap();
    assert!(
        refusal.starts_with(&format!(
            "{id} turns only as it is marked Op Fire (R 4.3), as it fires (R 6.0) or at the end of its move (R 2.2): "
        )),
        "{refusal}"
    );

    // Training plays without facing (R 2.2 is optional in Europe).
    let mut app = app_for("training");
    let world = app.world_mut();
    let (unit, id) = act::ready_units(world).remove(0);
    assert_eq!(
        why_not(world, &id).as_deref(),
        Some("this scenario does not use Infantry facing (R 2.2)")
    );
    world.resource_mut::<Selected>().0 = Some(unit);
    *world.resource_mut::<TurnRequest>() = TurnRequest::By(1);
    app.update();
    let world = app.world_mut();
    assert_eq!(world.resource::<FacingPlan>().of(unit), None);
    assert!(world.get::<Unit>(unit).is_some());
}

/// "Main menu" on the result screen: the game's world is torn down as the
/// game state is left (no restart of the program), the menu state is
/// entered, and a new game started from there plays to its result again.
#[test]
fn main_menu_from_the_result_screen_clears_the_game_without_a_restart() {
    use bob::app::AppState;
    use bob::engine::operations::OpsState;
    use bob::world::Unit;

    let mut app = game_app(5);
    let units = |app: &mut App| {
        let world = app.world_mut();
        world.query::<&Unit>().iter(world).count()
    };
    play_to_result(&mut app);
    assert!(units(&mut app) > 0);
    app.world_mut().resource_mut::<result::ResultRequest>().menu = true;
    app.update();
    app.update();
    let state = *app.world().resource::<State<AppState>>().get();
    assert_eq!(state, AppState::Menu);
    assert_eq!(units(&mut app), 0, "the game's units are gone");
    let world = app.world();
    assert!(!world.contains_resource::<GameOver>());
    assert!(!world.contains_resource::<OpsState>());
    assert!(!world.contains_resource::<result::ResultScreen>());
    assert!(world.resource::<orders::GameLog>().lines.is_empty());
    // New game from the menu: the board is set up again and plays through.
    app.world_mut()
        .resource_mut::<NextState<AppState>>()
        .set(AppState::InGame);
    app.update();
    assert!(units(&mut app) > 0);
    assert!(!app.world().contains_resource::<GameOver>());
    play_to_result(&mut app);
    let end = app
        .world()
        .resource::<orders::GameLog>()
        .lines
        .last()
        .cloned()
        .unwrap();
    assert!(end.starts_with("Scenario over: "), "{end}");
}
