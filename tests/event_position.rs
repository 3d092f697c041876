//! The board at an event (`bob replay`, `<` `>`): applying all of an
//! order's events to the position before the order gives exactly the
//! position the engine leaves after it — units, hexes, facing, steps,
//! Suppression, Conceal, Used, Op Fire and the Pacific markers,
//! fortifications and Smoke — for every order of many seeded random and
//! bot games of every scenario.

mod common;
use common::data;

use bob::bot::{Bot, Level, acting_side};
use bob::engine::game::{apply, begin_game};
use bob::engine::phases::end::GameOver;
use bob::engine::random::{Lcg, random_order};
use bob::engine::{GameEvent, headless_world};
use bob::journal::position::{Context, Position, capture, position_at};
use bob::scenario;

fn scenarios() -> Vec<String> {
    scenario::embedded()
        .map(|e| e.file.trim_end_matches(".ron").to_string())
        .collect()
}

/// What differs between the view and the engine, unit by unit.
fn diff(view: &Position, engine: &Position) -> String {
    let mut out = Vec::new();
    for (id, u) in &engine.units {
        match view.units.get(id) {
            Some(v) if v == u => {}
            Some(v) => out.push(format!("{id}: view {v:?}\n   engine {u:?}")),
            None => out.push(format!("{id}: missing from the view")),
        }
    }
    for id in view.units.keys() {
        if !engine.units.contains_key(id) {
            out.push(format!("{id}: still in the view"));
        }
    }
    if view.forts != engine.forts {
        out.push(format!(
            "forts: view {:?}\n   engine {:?}",
            view.forts, engine.forts
        ));
    }
    if (view.phase, view.banzai_choice) != (engine.phase, engine.banzai_choice) {
        out.push(format!(
            "phase: view {:?} {}, engine {:?} {}",
            view.phase, view.banzai_choice, engine.phase, engine.banzai_choice
        ));
    }
    if view.smoke != engine.smoke {
        out.push(format!(
            "smoke: view {:?}\n   engine {:?}",
            view.smoke, engine.smoke
        ));
    }
    out.join("\n")
}

#[derive(Default)]
struct Tally {
    games: usize,
    orders: usize,
    events: usize,
    wrong: usize,
    bad: Vec<String>,
}

impl Tally {
    fn check(
        &mut self,
        what: &str,
        before: &Position,
        events: &[GameEvent],
        after: &Position,
        ctx: &Context,
    ) {
        self.orders += 1;
        self.events += events.len();
        let view = position_at(before, after, events, ctx);
        let scenario = what.split(' ').next().unwrap_or_default().to_string();
        let seen = self.bad.iter().filter(|b| b.starts_with(&scenario)).count();
        if &view != after {
            self.wrong += 1;
        }
        if &view != after && seen < 3 {
            let lines: Vec<String> = events.iter().map(|e| format!("    {}", e.line())).collect();
            self.bad.push(format!(
                "{what}\n{}\n  {}",
                lines.join("\n"),
                diff(&view, after)
            ));
        }
    }
}

/// One game: random orders for both sides, or a bot for `bot` against
/// random orders.
fn game(name: &str, seed: u64, bot: Option<Level>, t: &mut Tally) {
    let (roster, aid) = data();
    let loaded = bob::world::load(name, &roster, &aid).unwrap();
    let ctx = Context::of(&loaded.scenario);
    let mut world = headless_world(loaded, roster, aid, seed);
    let mut rng = Lcg(seed ^ 0x5eed);
    let mut bots = bot.map(|l| (Bot::new(l, seed), Bot::new(l, !seed)));
    let before = capture(&mut world);
    let events = begin_game(&mut world);
    let after = capture(&mut world);
    t.check(
        &format!("{name} seed {seed}: the game's start"),
        &before,
        &events,
        &after,
        &ctx,
    );
    for step in 0..3000 {
        if world.get_resource::<GameOver>().is_some() {
            break;
        }
        let order = match (&mut bots, acting_side(&world)) {
            (Some((a, _)), Some(bob::scenario::schema::SideId::Allies)) => a.order(&mut world),
            (Some((_, b)), Some(_)) => b.order(&mut world),
            _ => random_order(&mut world, &mut rng),
        };
        let before = capture(&mut world);
        if let Ok(events) = apply(&mut world, &order) {
            let after = capture(&mut world);
            t.check(
                &format!("{name} seed {seed} step {step}: {order:?}"),
                &before,
                &events,
                &after,
                &ctx,
            );
        }
    }
    t.games += 1;
}

#[test]
fn all_of_an_orders_events_give_the_position_after_it() {
    let mut t = Tally::default();
    for name in scenarios() {
        for seed in 0..16 {
            game(&name, seed, None, &mut t);
        }
        for seed in 0..3 {
            game(&name, 100 + seed, Some(Level::Normal), &mut t);
        }
    }
    eprintln!(
        "board at the event: {} games, {} orders, {} events; every order's events lead to its position",
        t.games, t.orders, t.events
    );
    assert!(
        t.bad.is_empty(),
        "{} orders wrong:\n{}",
        t.wrong,
        t.bad.join("\n\n")
    );
    assert!(t.orders > 5000, "{}", t.orders);
}
