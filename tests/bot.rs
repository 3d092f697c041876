//! The bot (issue 6): every order it gives is accepted by the engine, in
//! whole games of both scenarios from both sides; its games are
//! reproducible byte for byte; `bob sim` reports a small simulation.

use bob::bot::sim::{Player, SimConfig, Versus, play_game, run, wilson};
use bob::bot::{Bot, Level, acting_side};
use bob::engine::game::{apply, begin_game};
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::engine::{GameEvent, headless_world};
use bob::scenario::schema::SideId;
use bob::scenario::{Loaded, PlayerAid, Roster};

mod common;
use common::{entity, headless, loaded, order};

/// What a simulation's games share.
fn shared(loaded: &Loaded, roster: &Roster, aid: &PlayerAid) -> bob::engine::Shared {
    bob::engine::Shared::new(
        loaded.clone(),
        std::sync::Arc::new(roster.clone()),
        std::sync::Arc::new(aid.clone()),
    )
}

/// The bot plays `bot_side` against random orders; every bot order is
/// accepted (never refused), and the game ends with a verdict.
fn bot_orders_are_legal(name: &str, seed: u64, bot_side: SideId, level: Level) -> usize {
    let mut world = headless(name, seed);
    let mut bot = Bot::new(level, seed);
    let mut rng = Lcg(seed);
    let mut log: Vec<GameEvent> = begin_game(&mut world);
    let mut bot_orders = 0;
    let mut steps = 0;
    while world.get_resource::<GameOver>().is_none() {
        steps += 1;
        assert!(steps < 100_000, "{name} seed {seed}: the game did not end");
        let side = acting_side(&world).expect("a side acts until the game is over");
        if side == bot_side {
            let order = bot.order(&mut world);
            match apply(&mut world, &order) {
                Ok(events) => log.extend(events),
                Err(e) => panic!("{name} seed {seed}: the bot's {order:?} was refused: {e}"),
            }
            bot_orders += 1;
        } else {
            let order = random_order(&mut world, &mut rng);
            if let Ok(events) = apply(&mut world, &order) {
                log.extend(events);
            }
        }
    }
    assert!(matches!(log.last(), Some(GameEvent::GameEnded { .. })));
    assert_eq!(acting_side(&world), None);
    bot_orders
}

#[test]
fn every_bot_order_is_accepted_on_both_scenarios_and_sides() {
    let mut orders = 0;
    for seed in 0..4 {
        for name in ["training", "guadalcanal"] {
            for side in SideId::BOTH {
                let level = [Level::Easy, Level::Normal, Level::Hard][seed as usize % 3];
                orders += bot_orders_are_legal(name, seed, side, level);
            }
        }
    }
    assert!(orders > 500, "only {orders} bot orders");
}

/// Bot against bot: the same seed gives the same event log, byte for byte.
#[test]
fn bot_games_are_reproducible() {
    for name in ["training", "guadalcanal"] {
        let (loaded, roster, aid) = loaded(name);
        for seed in [3, 17, 42] {
            let players = [Player::Bot(Level::Normal), Player::Bot(Level::Hard)];
            let (a, log_a) = play_game(&shared(&loaded, &roster, &aid), seed, players);
            let (b, log_b) = play_game(&shared(&loaded, &roster, &aid), seed, players);
            let lines = |l: &[GameEvent]| l.iter().map(GameEvent::line).collect::<Vec<_>>();
            let (a_lines, b_lines) = (lines(&log_a), lines(&log_b));
            if let Some(i) =
                (0..a_lines.len().max(b_lines.len())).find(|i| a_lines.get(*i) != b_lines.get(*i))
            {
                panic!(
                    "{name} seed {seed}: the logs part at line {i}: {:?} / {:?}",
                    a_lines.get(i),
                    b_lines.get(i)
                );
            }
            assert_eq!(a, b);
            assert!(a.turns > 0);
        }
    }
}

/// A small simulation: every game counted once, the report names each
/// victory condition, rates with intervals.
#[test]
fn a_small_simulation_reports() {
    let (loaded, roster, aid) = loaded("training");
    let cfg = SimConfig {
        games: 6,
        seed: 5,
        threads: 2,
        level: Level::Normal,
        versus: Versus::Random,
        progress: false,
    };
    let report = run(&loaded, &roster, &aid, &cfg);
    assert_eq!(report.games.len(), 6);
    // Even games the bot plays the Allies, odd ones the Axis.
    let sides: Vec<_> = report.games.iter().map(|g| g.0).collect();
    assert_eq!(sides, [Some(SideId::Allies), Some(SideId::Axis)].repeat(3));
    let text = report.text();
    assert!(
        text.starts_with("training: 6 games, bot against random orders\n"),
        "{text}"
    );
    assert!(text.contains("bot as Allies wins "), "{text}");
    assert!(
        text.contains("decided by \"Allies control J5/I6/K7\": "),
        "{text}"
    );
    assert!(text.contains("decided by \"otherwise Axis\": "), "{text}");
    assert!(text.contains("games/s"), "{text}");
}

/// The Wilson interval: 8 of 10 gives 49.0%-94.3%; 0 of 0 says nothing.
#[test]
fn wilson_interval() {
    let (lo, hi) = wilson(8, 10);
    assert_eq!(
        ((lo * 1000.0).round(), (hi * 1000.0).round()),
        (490.0, 943.0)
    );
    assert_eq!(wilson(0, 0), (0.0, 1.0));
}

/// `bob sim` refuses a bad level and an unknown scenario clearly.
#[test]
fn sim_command_line_errors() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bob"))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, _, err) = run(&["sim", "training", "--level", "brutal"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unknown bot level `brutal`: use easy, normal or hard"),
        "{err}"
    );
    let (code, _, err) = run(&["sim", "training", "--games", "0"]);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = run(&["sim", "nowhere"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("nowhere"), "{err}");
    let (code, out, _) = run(&["sim", "training", "--games", "2", "--vs", "random"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("training: 2 games, bot against random orders"),
        "{out}"
    );
}

/// Guadalcanal, bot against bot, seed 72: a Combat Event after a fire
/// eliminated the firer, and the engine then touched the gone unit (a
/// panic found by `bob sim`). The game now plays to its last turn.
#[test]
fn a_firer_lost_to_a_combat_event_does_not_stop_the_game() {
    let (loaded, roster, aid) = loaded("guadalcanal");
    let players = [Player::Bot(Level::Normal), Player::Bot(Level::Normal)];
    let (r, log) = play_game(&shared(&loaded, &roster, &aid), 72, players);
    assert_eq!(r.turns, 6);
    assert!(matches!(log.last(), Some(GameEvent::GameEnded { .. })));
}

/// Bot against bot on Guadalcanal, every order checked: the bot's orders
/// are never refused; returns the log.
fn strict_bot_game(name: &str, seed: u64) -> Vec<GameEvent> {
    let mut world = headless(name, seed);
    let mut bots = [Bot::new(Level::Normal, seed), Bot::new(Level::Hard, !seed)];
    let mut log: Vec<GameEvent> = begin_game(&mut world);
    let mut steps = 0;
    while let Some(side) = acting_side(&world) {
        steps += 1;
        assert!(steps < 100_000, "{name} seed {seed}: the game did not end");
        let order = bots[side.index()].order(&mut world);
        match apply(&mut world, &order) {
            Ok(events) => log.extend(events),
            Err(e) => panic!("{name} seed {seed}: the bot's {order:?} was refused: {e}"),
        }
    }
    log
}

/// The Banzai Charge (R 59.6): when the Japanese announce it, the bot's
/// charging Squads move by the rule's path (the engine checks the closest
/// target and the fewest MPs, and refuses any other path), and some
/// games see a charge (toward the Rout Edge too: the charge path governs a
/// charging Squad, docs/decisions.md; a path through Wire ends in it).
#[test]
fn the_bot_charges_when_the_banzai_is_called() {
    use bob::engine::pacific::PacificEvent;
    let mut games_with_charge = 0;
    let mut games_with_banzai = 0;
    for seed in 1..=4 {
        let log = strict_bot_game("guadalcanal", seed);
        let mut charging: Vec<bob::world::UnitId> = Vec::new();
        let mut charged = false;
        for e in &log {
            match e {
                GameEvent::Pacific(PacificEvent::BanzaiAnnounced { charging: c, .. }) => {
                    charging = c.clone();
                }
                GameEvent::TurnBegins { .. } => charging.clear(),
                GameEvent::MoveStarted { unit, .. } if charging.contains(unit) => {
                    charged = true;
                }
                _ => {}
            }
            if matches!(e, GameEvent::Pacific(PacificEvent::BanzaiAnnounced { charging: c, .. }) if !c.is_empty())
            {
                games_with_banzai += 1;
            }
        }
        games_with_charge += usize::from(charged);
    }
    assert!(games_with_banzai > 0);
    assert!(games_with_charge >= 1, "{games_with_charge} of 4 games");
}

/// The bot spends CPs in the Operations Phase (R 3.0): Follow Me!, +1 Prof
/// FP or a readied MC re-roll appear in its games, each accepted.
#[test]
fn the_bot_uses_command_points_in_operations() {
    use bob::engine::command_points::CpFunction;
    let mut readied = 0;
    for (name, seed) in [("training", 2), ("guadalcanal", 3), ("training", 4)] {
        let log = strict_bot_game(name, seed);
        readied += log
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    GameEvent::CpReadied { .. }
                        | GameEvent::CommandPointSpent {
                            function: CpFunction::FollowMe,
                            ..
                        }
                )
            })
            .count();
    }
    assert!(readied > 0);
}

/// Prints one bot-against-bot game's log, for reading a scenario's play:
/// `BOB_LOG=alligator_creek:1000 [BOB_VS=random] cargo test --release --test bot -- --ignored print_a_bot_game --nocapture`.
#[test]
#[ignore]
fn print_a_bot_game() {
    let spec = std::env::var("BOB_LOG").unwrap_or_else(|_| "alligator_creek:1000".into());
    let (name, seed) = spec.split_once(':').unwrap_or((spec.as_str(), "1"));
    let (loaded, roster, aid) = loaded(name);
    let seed: u64 = seed.parse().unwrap();
    // `BOB_VS=random`: against random orders, the bot on the side `bob sim
    // --vs random` gives it for this seed's game.
    let players = match std::env::var("BOB_VS").as_deref() {
        Ok("random") => {
            bob::bot::sim::players_for((seed % 2) as u32, Level::Normal, Versus::Random).0
        }
        _ => [Player::Bot(Level::Normal), Player::Bot(Level::Normal)],
    };
    let (r, log) = play_game(&shared(&loaded, &roster, &aid), seed, players);
    for e in &log {
        println!("{}", e.line());
    }
    println!("{r:?}");
}

/// A world on a test ground, the game begun; units moved to `moves` (id,
/// hex) first.
fn ground(name: &str, moves: &[(&str, &str)]) -> bevy::prelude::World {
    let (loaded, roster, aid) = loaded(&format!("tests/data/{name}.ron"));
    let (cols, rows) = (loaded.scenario.map.columns, loaded.scenario.map.rows);
    let mut w = headless_world(loaded, roster, aid, 1);
    for (id, at) in moves {
        let e = entity(&mut w, id);
        let coord = bob::scenario::Coord::parse(at, cols, rows).unwrap();
        w.entity_mut(e).insert(bob::world::Location {
            coord,
            in_cave: false,
        });
    }
    begin_game(&mut w);
    w
}

/// Marks `id` Used (R 4.2) as if it had acted.
fn used(w: &mut bevy::prelude::World, id: &str) {
    let e = entity(w, id);
    bob::world::mark(w, e, |m| m.used = true);
}

/// The Hard bot's order (no deliberate mistakes) for the side acting.
fn first_order(w: &mut bevy::prelude::World) -> bob::engine::Order {
    Bot::new(Level::Hard, 1).order(w)
}

/// R 50.1: at Night (Visibility Range 2) the Marines see neither Japanese
/// Squad (J1 four hexes from M1, J2 three from M2), both in their Normal
/// Range: the bot fires its one Illumination counter into F2, next to J1,
/// first. With the Japanese inside the Visibility Range it has nothing to
/// light and fires instead.
#[test]
fn the_bot_fires_illumination_over_the_enemy_in_the_dark() {
    let mut w = ground("night_ground", &[]);
    assert_eq!(
        first_order(&mut w),
        order("illuminate(unit: \"M1\", at: \"F2\")")
    );
    let mut w = ground("night_ground", &[("J1", "E3"), ("J2", "E6")]);
    assert_eq!(
        first_order(&mut w),
        order("fire(unit: \"M2\", target: \"E6\")")
    );
}

/// R 50.3: at Night the Concealed M3, with no shot in the dark and the
/// enemy four hexes off, is Used to bring back the removed Decoy MD1; far
/// from the enemy it does not.
#[test]
fn the_bot_regenerates_a_decoy_near_the_enemy_at_night() {
    use bob::engine::night::IlluminationSpent;
    for (at, expected) in [
        ("C1", "regenerate_decoy(unit: \"M3\", decoy: \"MD1\")"),
        ("A1", "mark_op_fire(unit: \"M1\", facing: Some(e))"),
    ] {
        let mut w = ground("night_decoy_ground", &[("M3", at)]);
        w.insert_resource(IlluminationSpent([1, 0]));
        bob::engine::game::apply(&mut w, &order("move(unit: \"MD1\", path: [\"F1\"])")).unwrap();
        assert_eq!(first_order(&mut w), order(expected), "M3 in {at}");
    }
}

/// R 59.5: J1, an "S" Squad, reaches M1 six hexes off only with Seishin's
/// +1 MP: the bot declares it for the assault (M1 and J2, the GD Squad,
/// are Used first). With M1 out of reach even so, its move declares nothing.
#[test]
fn the_bot_declares_seishin_for_an_assault() {
    let mut w = ground("seishin_ground", &[]);
    used(&mut w, "M1");
    bob::engine::game::apply(&mut w, &order("mark_used(unit: \"J2\")")).unwrap();
    assert_eq!(
        first_order(&mut w),
        order(
            "move(unit: \"J1\", path: [\"B4\", \"C4\", \"D3\", \"E4\", \"F4\", \"G5\"], seishin: true)"
        )
    );
    let mut w = ground("seishin_ground", &[("M1", "J5")]);
    used(&mut w, "M1");
    bob::engine::game::apply(&mut w, &order("mark_used(unit: \"J2\")")).unwrap();
    assert_eq!(
        first_order(&mut w),
        order(
            "move(unit: \"J1\", path: [\"B4\", \"C4\", \"D3\", \"E3\", \"F3\"], facing: Some(e))"
        )
    );
}

/// The order `first_order` gives on `name` with `moves`, after the
/// `before` orders (each accepted), with the units `spent` Used.
fn order_after(
    name: &str,
    moves: &[(&str, &str)],
    before: &[&str],
    spent: &[&str],
) -> bob::engine::Order {
    let mut w = ground(name, moves);
    for o in before {
        bob::engine::game::apply(&mut w, &order(o)).unwrap();
    }
    for id in spent {
        used(&mut w, id);
    }
    first_order(&mut w)
}

/// R 20.4: the 57mm Gun in C3 faces east. G1 in the open at C1, outside
/// its arc, is worth a shot even with the Prof Check turning costs (Prof 8
/// -1 = 70%): it turns to NE, which of the facings holding C1 covers G1's
/// way in best. G1 in the stone house at E2, inside the arc, is a poor
/// shot: the Gun waits on Op Fire for it to step into the open next to it
/// (marked Op Fire +1, Op Fire -2). G1 in the wood at A2, outside the arc,
/// is not worth turning for while G2 comes from E2: it stays on Op Fire
/// facing east. G1 in the open at E3, in the arc, is shot at at once.
#[test]
fn the_gun_turns_for_a_good_shot_and_waits_on_op_fire_for_a_poor_one() {
    let cases: [(&[(&str, &str)], &str); 4] = [
        (
            &[("G1", "C1")],
            "fire(unit: \"A1\", target: \"C1\", facing: Some(ne))",
        ),
        (&[("G1", "E2")], "mark_op_fire(unit: \"A1\")"),
        (&[("G1", "A2"), ("G2", "E2")], "mark_op_fire(unit: \"A1\")"),
        (&[("G1", "E3")], "fire(unit: \"A1\", target: \"E3\")"),
    ];
    for (moves, expected) in cases {
        assert_eq!(
            order_after("bot_gun_ground", moves, &[], &[]),
            order(expected),
            "{moves:?}"
        );
    }
}

/// R 48.0: the German MG in H1 is marked Op Fire over the open ground the
/// paratroopers must cross to F3; before the first of them goes, the
/// Mortar PM fires Smoke into the MG's own hex (every shot out of it loses
/// the moving-in-Open bonus and takes -1). With both German units Used
/// (no Op Fire left to fear) the squad goes without Smoke.
#[test]
fn the_bot_smokes_the_op_fire_threat_before_crossing_open_ground() {
    assert_eq!(
        order_after(
            "bot_smoke_ground",
            &[],
            &["mark_op_fire(unit: \"G1\")", "pass"],
            &[]
        ),
        order("place_smoke(unit: \"PM\", at: \"H1\")")
    );
    assert_eq!(
        order_after(
            "bot_smoke_ground",
            &[],
            &["mark_used(unit: \"G1\")", "pass"],
            &["G2"]
        ),
        order("move(unit: \"P1\", path: [\"C3\", \"D2\", \"E3\", \"F3\"])")
    );
}

/// R 48.1: P1 in D3 crosses the open E3 under the MG's Op Fire to F3 with
/// MP to spare (1 + 2 of its 5): it throws a Smoke Grenade into E3 before
/// entering it (1 MP more), so the MG's Op Fire there gets no
/// moving-in-Open bonus. With the MG Used it throws none.
#[test]
fn the_bot_throws_a_smoke_grenade_where_op_fire_waits() {
    assert_eq!(
        order_after(
            "bot_smoke_ground",
            &[("P1", "D3")],
            &["mark_op_fire(unit: \"G1\")", "pass"],
            &["PM", "P2"]
        ),
        order(
            "move(unit: \"P1\", path: [\"E3\", \"F3\"], smoke_grenade: Some((after: 0, at: \"E3\")))"
        )
    );
    assert_eq!(
        order_after(
            "bot_smoke_ground",
            &[("P1", "D3")],
            &["mark_used(unit: \"G1\")", "pass"],
            &["PM", "P2", "G2"]
        ),
        order("move(unit: \"P1\", path: [\"E3\", \"F3\"])")
    );
}

/// R 2.2: a Routing unit may adopt any facing at the end of its rout; the
/// bot's routing unit ends facing the nearest enemy it sees (A1 routs from
/// E4 to the woods at C3 or behind them; the German is at H4).
#[test]
fn the_bot_routs_facing_the_enemy() {
    use bevy::prelude::*;
    let mut w = ground("rout_open", &[("A1", "E4"), ("G1", "H4")]);
    std::sync::Arc::make_mut(&mut w.resource_mut::<bob::world::ActiveScenario>().scenario)
        .special_rules
        .facing_required = true;
    let mut q = w.query::<(Entity, &bob::world::Unit)>();
    let all: Vec<(Entity, String)> = q.iter(&w).map(|(e, u)| (e, u.id.to_string())).collect();
    for (e, id) in all {
        match id.as_str() {
            "A1" | "G1" => {
                bob::world::mark(&mut w, e, |m| m.used = true);
            }
            _ => {
                w.entity_mut(e).despawn();
            }
        }
    }
    let a1 = entity(&mut w, "A1");
    w.entity_mut(a1).insert(bob::world::Suppression::Full);
    w.resource_mut::<bob::world::TurnTrack>().phase = bob::world::Phase::Rout;
    w.resource_mut::<bob::engine::Dice>().force([5]);
    bob::engine::game::advance(&mut w, &mut Vec::new());
    let bob::engine::Order::Rout { to, facing, .. } = first_order(&mut w) else {
        panic!("no rout answer");
    };
    let (cols, rows) = {
        let b = &w.resource::<bob::world::BoardRes>().0;
        (b.columns, b.rows)
    };
    let to = bob::scenario::Coord::parse(&to, cols, rows).unwrap();
    let h4 = bob::scenario::Coord::parse("H4", cols, rows).unwrap();
    assert_eq!(facing, Some(bob::rules::facing::facing_toward(to, h4)));
}

/// R 2.2: a Concealed unit chooses its facing when it loses its counter;
/// the bot turns J1, revealed by M1 moving next to it in D3, toward the
/// nearest enemy it sees (M1, not M2 in B5), and the engine accepts it.
#[test]
fn the_bot_faces_a_revealed_unit_toward_the_enemy() {
    let mut w = ground("reveal_facing", &[]);
    begin_game(&mut w);
    for o in [
        r#"move(unit: "M1", path: ["C3", "D3"])"#,
        "op_fire(firers: [])",
        "op_fire(firers: [])",
    ] {
        apply(&mut w, &order(o)).unwrap();
    }
    assert_eq!(acting_side(&w), Some(SideId::Axis));
    let (cols, rows) = {
        let b = &w.resource::<bob::world::BoardRes>().0;
        (b.columns, b.rows)
    };
    let at = |l: &str| bob::scenario::Coord::parse(l, cols, rows).unwrap();
    let answer = first_order(&mut w);
    assert_eq!(
        answer,
        bob::engine::Order::Face {
            unit: "J1".into(),
            facing: Some(bob::rules::facing::facing_toward(at("E3"), at("D3"))),
        }
    );
    assert_eq!(
        answer,
        order(r#"face(unit: "J1", facing: Some(w))"#),
        "D3 lies west of E3"
    );
    let lines: Vec<String> = apply(&mut w, &answer)
        .unwrap()
        .iter()
        .map(GameEvent::line)
        .collect();
    assert_eq!(
        lines[0],
        "J1 takes facing W as it loses Concealment (R 2.2)"
    );
}

/// `bob sim` on one thread and on two prints the same report but for its
/// speed line: no game depends on the thread it is played on, or on what
/// the other games of its thread left in the memos (issue 24).
#[test]
fn one_thread_or_two_give_the_same_report() {
    let (loaded, roster, aid) = loaded("guadalcanal");
    let report = |threads: usize| {
        let cfg = SimConfig {
            games: 12,
            seed: 40,
            threads,
            level: Level::Normal,
            versus: Versus::Bot,
            progress: false,
        };
        run(&loaded, &roster, &aid, &cfg)
            .text()
            .lines()
            .filter(|l| !l.contains("games/s"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = report(1);
    assert!(one.starts_with("guadalcanal: 12 games"), "{one}");
    assert_eq!(one, report(2));
}
