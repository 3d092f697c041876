//! `bob replay FILE`: the normal board with replay controls. The board, the
//! counters, the log panel and the dice tray show the game at the current
//! position (the state after the journal's first `at` entries); no order can
//! be given. A step forward plays the next entry through the same `send` as
//! play; a step back (or a jump) puts the world back to its setup and plays
//! the entries again up to the position, which is instant for a whole game
//! (see `docs/performance.md`). Every position reached is checked against
//! the state hash the journal recorded.

use std::sync::Arc;
use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::RichText;

use crate::engine::game::begin_game;
use crate::journal::file::JournalRead;
use crate::journal::position::{Context, capture};
use crate::journal::replay::{Outline, check_state, insert_dice, reset_to_setup};

use super::orders::GameLog;
use super::panels::{ACCENT, DIM};
use super::replay_board::{OrderEvents, OrderView};

/// What `bob replay` hands the window.
#[derive(Resource, Clone)]
pub struct ReplayLaunch {
    pub read: JournalRead,
    pub outline: Outline,
    /// The position to open at.
    pub start: usize,
    /// How long the headless replay of the whole journal took.
    pub whole: Duration,
    /// Then stand on this event (1-based) of the next order.
    pub event: Option<usize>,
}

/// Steps per second of each speed.
pub const SPEEDS: [f32; 6] = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

/// The replay under way.
#[derive(Resource, Clone)]
pub struct Replay {
    pub read: Arc<JournalRead>,
    pub outline: Outline,
    /// The position shown: the state after this many entries.
    pub at: usize,
    pub playing: bool,
    /// An index into [`SPEEDS`].
    pub speed: usize,
    /// When the next step plays (seconds since start), while playing.
    next_step: f64,
    /// A refused entry or a state that differs from the journal's.
    pub problem: Option<String>,
    /// The last rebuild from the start: its position and how long it took.
    pub rebuilt: Option<(usize, Duration)>,
    /// The whole journal replayed headlessly at launch.
    pub whole: Duration,
    /// Stepping by event: the events of the order at `at` shown up to this
    /// one (its log line highlighted, the lines after it hidden); `None`
    /// shows the whole order.
    pub event: Option<usize>,
    /// The log lines of the order at `at` (of the game's start at 0): one
    /// line an event.
    pub order_lines: std::ops::Range<usize>,
    /// How long the last step back by event took (no rebuild within an
    /// order).
    pub event_back: Option<Duration>,
    /// The order at `at`: the positions before and after it and its events,
    /// for the board at an event (`ui::replay_board`).
    pub order: Option<Arc<OrderView>>,
    /// What the events do not carry (map size, units that enter later).
    pub context: Arc<Context>,
    /// The board was set to an event's position since the last rebuild:
    /// the position after the order is back, but the world's own order of
    /// its entities is not the one play gave, so the next order is played
    /// on a world rebuilt from the start (the engine's results must not
    /// depend on that order, and this way they cannot).
    pub perturbed: bool,
}

impl Replay {
    /// The number of entries (the last position).
    pub fn len(&self) -> usize {
        self.read.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.read.entries.is_empty()
    }

    /// The position a request leads to.
    pub fn target(&self, go: Go) -> usize {
        let marks = &self.outline.marks;
        let t = match go {
            Go::Forward => self.at + 1,
            Go::Back => self.at.saturating_sub(1),
            Go::To(k) => k,
            Go::Start => 0,
            Go::End => self.len(),
            Go::PrevMark => marks
                .iter()
                .rev()
                .find(|m| m.position < self.at)
                .map_or(0, |m| m.position),
            Go::NextMark => marks
                .iter()
                .find(|m| m.position > self.at)
                .map_or(self.len(), |m| m.position),
            // Within the order, or to the next one (see `step_event`).
            Go::NextEvent => match self.event {
                Some(_) => self.at,
                None => self.at + 1,
            },
            Go::PrevEvent => match self.event {
                Some(0) => self.at.saturating_sub(1),
                Some(_) => self.at,
                None if self.order_lines.len() > 1 => self.at,
                None => self.at.saturating_sub(1),
            },
        };
        t.min(self.len())
    }

    /// The entry played next, in its script form.
    pub fn next_order(&self) -> Option<String> {
        self.read
            .entries
            .get(self.at)
            .map(|(_, e)| ron::to_string(&e.order).unwrap_or_else(|_| format!("{:?}", e.order)))
    }
}

/// Where to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Go {
    Forward,
    Back,
    To(usize),
    Start,
    End,
    /// The start of the turn or phase before the current one.
    PrevMark,
    /// The start of the next turn or phase.
    NextMark,
    /// The next event of the order (each event a step: an Op Fire shot, an
    /// MC, a casualty...), then the next order's first.
    NextEvent,
    /// The event before; before an order's first, the order before it.
    PrevEvent,
}

/// Requests from the keys and the controls, handled once a frame.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct ReplayRequests {
    pub go: Option<Go>,
    pub toggle_play: bool,
    pub speed: Option<usize>,
}

/// Orders from the board are given only outside a replay.
pub fn orders_allowed(replay: Option<Res<Replay>>) -> bool {
    replay.is_none()
}

pub struct ReplayPlugin;

impl Plugin for ReplayPlugin {
    fn build(&self, app: &mut App) {
        use crate::app::AppState;
        app.init_resource::<ReplayRequests>()
            .add_systems(
                super::act::OrderShown,
                super::replay_board::on_order.in_set(super::act::ShownSet::Told),
            )
            .add_systems(
                Update,
                (replay_keys, control)
                    .chain()
                    .before(super::act::refresh_views)
                    .in_set(super::GameSystems)
                    .run_if(resource_exists::<Replay>)
                    .run_if(in_state(AppState::InGame)),
            )
            .add_systems(
                bevy_egui::EguiPrimaryContextPass,
                replay_panel
                    .after(super::panels::game_panels)
                    .in_set(super::GameSystems)
                    .run_if(resource_exists::<Replay>)
                    .run_if(in_state(AppState::InGame)),
            );
    }
}

/// Starts the replay when the window was opened by `bob replay`: the
/// journal's dice, the game's start, then the position asked for. Returns
/// false when there is no replay to start.
pub fn begin(world: &mut World) -> bool {
    let Some(launch) = world.remove_resource::<ReplayLaunch>() else {
        return false;
    };
    let context = Context::of(&world.resource::<crate::world::ActiveScenario>().scenario);
    world.init_resource::<OrderEvents>();
    world.insert_resource(Replay {
        read: Arc::new(launch.read),
        outline: launch.outline,
        at: 0,
        playing: false,
        speed: 2,
        next_step: 0.0,
        problem: None,
        rebuilt: None,
        whole: launch.whole,
        event: None,
        order_lines: 0..0,
        event_back: None,
        order: None,
        context: Arc::new(context),
        perturbed: false,
    });
    start_position(world);
    match launch.event {
        Some(k) if k > 0 => {
            go_to(world, launch.start);
            for _ in 0..k {
                step_event(world, Go::NextEvent);
            }
        }
        _ => go_to(world, launch.start),
    }
    true
}

/// The game's start (position 0) on a world at its setup.
fn start_position(world: &mut World) {
    let header = world.resource::<Replay>().read.header.clone();
    insert_dice(world, &header);
    let before = capture(world);
    let events = begin_game(world);
    let after = capture(world);
    world.resource_mut::<Replay>().order = Some(Arc::new(OrderView {
        before,
        events: events.clone(),
        after,
    }));
    let mut log = GameLog::default();
    log.push_events(&events);
    let lines = 0..log.lines.len();
    world.insert_resource(log);
    world.resource_mut::<Replay>().order_lines = lines;
    world.insert_resource(super::tray::DiceTray::default());
    world.insert_resource(super::tray::LogHighlight::default());
    world.insert_resource(super::Selected(None));
    world.insert_resource(super::act::Intent::Select);
    world
        .get_resource_or_insert_with(super::act::OrderCount::default)
        .0 += 1;
    world.resource_mut::<Replay>().at = 0;
}

/// Goes to a position: forward by playing the entries, back by putting the
/// world to its setup and playing them again from the start.
pub fn go_to(world: &mut World, target: usize) {
    let (at, len) = {
        let r = world.resource::<Replay>();
        (r.at, r.len())
    };
    let target = target.min(len);
    let perturbed = world.resource::<Replay>().perturbed;
    let rebuild = target < at || (perturbed && target != at);
    show_event(world, None);
    let started = std::time::Instant::now();
    if rebuild {
        let header = world.resource::<Replay>().read.header.clone();
        reset_to_setup(world, &header);
        start_position(world);
        world.resource_mut::<Replay>().perturbed = false;
    }
    // Every state was checked against the journal when it was opened: a
    // rebuild checks only the position it lands on.
    while world.resource::<Replay>().at < target {
        let last = world.resource::<Replay>().at + 1 == target;
        if !forward(world, last || !rebuild, last) {
            break;
        }
    }
    if rebuild {
        let took = started.elapsed();
        // A jump shows where it lands; the dice do not roll again.
        world.resource_mut::<super::tray::DiceTray>().settled = true;
        world.resource_mut::<Replay>().rebuilt = Some((target, took));
        info!(
            "replay: rebuilt position {target} from the start in {:.1} ms",
            took.as_secs_f64() * 1000.0
        );
    }
}

/// Plays the next entry as play would (log, dice tray, hexes); false when
/// there is none, or it is refused, or (with `check`) the state is not the
/// journal's. With `view`, keeps the positions before and after it and its
/// events for the board at an event.
fn forward(world: &mut World, check: bool, view: bool) -> bool {
    let (read, i) = {
        let r = world.resource::<Replay>();
        (r.read.clone(), r.at)
    };
    let Some((_, entry)) = read.entries.get(i) else {
        return false;
    };
    let before = world.resource::<GameLog>().lines.len();
    let position = view.then(|| capture(world));
    world.resource_mut::<Replay>().order = None;
    let problem = if super::act::send(world, &entry.order) {
        let after = world.resource::<GameLog>().lines.len();
        if let Some(before) = position {
            let events = std::mem::take(&mut world.resource_mut::<OrderEvents>().0);
            let after = capture(world);
            world.resource_mut::<Replay>().order = Some(Arc::new(OrderView {
                before,
                events,
                after,
            }));
        }
        let mut r = world.resource_mut::<Replay>();
        r.at = i + 1;
        r.order_lines = before..after;
        if check {
            check_state(world, &read, i).err().map(|r| r.to_string())
        } else {
            None
        }
    } else {
        let why = world
            .resource::<GameLog>()
            .refusal
            .clone()
            .unwrap_or_default();
        Some(crate::journal::replay::refused(&read, i, &why).to_string())
    };
    let ok = problem.is_none();
    if let Some(p) = problem {
        let mut r = world.resource_mut::<Replay>();
        r.problem = Some(p);
        r.playing = false;
    }
    ok
}

/// Shows the order at the position up to its event `event` (`None`: the
/// whole order): the log cut after that event's line, the line highlighted
/// (its hexes ringed on the board), and the board as it stands at that
/// event (`ui::replay_board`); `None` puts the position after the order
/// back.
fn show_event(world: &mut World, event: Option<usize>) {
    let (start, order, context) = {
        let mut r = world.resource_mut::<Replay>();
        let was = r.event;
        r.event = event;
        if was.is_none() && event.is_none() {
            return;
        }
        (r.order_lines.start, r.order.clone(), r.context.clone())
    };
    world.resource_mut::<GameLog>().cut = event.map(|k| start + k + 1);
    world.resource_mut::<super::tray::LogHighlight>().line = event.map(|k| start + k);
    let Some(order) = order else {
        return;
    };
    match event {
        Some(k) => {
            let view = super::replay_board::at_event(&order, k, &context);
            super::replay_board::show(world, &view);
            world.resource_mut::<Replay>().perturbed = true;
        }
        None => {
            if let Err(why) = super::replay_board::restore(world, &order.after) {
                let mut r = world.resource_mut::<Replay>();
                r.problem = Some(format!("the board after order {}: {why}", r.at));
                r.playing = false;
            }
        }
    }
}

/// One event forward or back. Within an order no rebuild is needed; before
/// an order's first event is the order before it (a step back by order).
fn step_event(world: &mut World, go: Go) {
    let started = std::time::Instant::now();
    let (at, len, event, n) = {
        let r = world.resource::<Replay>();
        (r.at, r.len(), r.event, r.order_lines.len())
    };
    match (go, event) {
        (Go::NextEvent, Some(k)) => show_event(world, (k + 2 < n).then_some(k + 1)),
        (Go::NextEvent, None) if at < len => {
            go_to(world, at + 1);
            let n = world.resource::<Replay>().order_lines.len();
            show_event(world, (n > 1).then_some(0));
        }
        (Go::PrevEvent, Some(k)) if k > 0 => show_event(world, Some(k - 1)),
        (Go::PrevEvent, None) if n > 1 => show_event(world, Some(n - 2)),
        (Go::PrevEvent, _) if at > 0 => go_to(world, at - 1),
        _ => {}
    }
    if go == Go::PrevEvent {
        world.resource_mut::<Replay>().event_back = Some(started.elapsed());
    }
}

/// Keys: `.` forward, `,` back (with Shift, `>` and `<`: by event), Space play/pause, Page Up/Down the previous
/// or next turn or phase, `[` `]` slower/faster, End the last position.
pub fn replay_keys(
    keys: Res<ButtonInput<KeyCode>>,
    replay: Res<Replay>,
    mut req: ResMut<ReplayRequests>,
) {
    let pairs = [
        (KeyCode::Period, Go::Forward),
        (KeyCode::Comma, Go::Back),
        (KeyCode::PageUp, Go::PrevMark),
        (KeyCode::PageDown, Go::NextMark),
        (KeyCode::End, Go::End),
    ];
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for (k, go) in pairs {
        if keys.just_pressed(k) {
            req.go = Some(match (go, shift) {
                (Go::Forward, true) => Go::NextEvent,
                (Go::Back, true) => Go::PrevEvent,
                (go, _) => go,
            });
        }
    }
    if keys.just_pressed(KeyCode::Space) {
        req.toggle_play = true;
    }
    if keys.just_pressed(KeyCode::BracketLeft) {
        req.speed = Some(replay.speed.saturating_sub(1));
    }
    if keys.just_pressed(KeyCode::BracketRight) {
        req.speed = Some((replay.speed + 1).min(SPEEDS.len() - 1));
    }
}

/// Carries out the requests and, while playing, steps at the speed chosen.
pub fn control(world: &mut World) {
    let req = std::mem::take(&mut *world.resource_mut::<ReplayRequests>());
    let now = world
        .get_resource::<Time>()
        .map_or(0.0, |t| t.elapsed_secs_f64());
    let mut go = req.go;
    {
        let mut r = world.resource_mut::<Replay>();
        if let Some(s) = req.speed {
            r.speed = s.min(SPEEDS.len() - 1);
        }
        if req.toggle_play {
            r.playing = !r.playing && r.problem.is_none();
            if r.playing && r.at >= r.len() {
                // Playing at the end starts again from the beginning.
                go = Some(Go::Start);
            }
            r.next_step = now + 1.0 / f64::from(SPEEDS[r.speed]);
        }
        if go.is_none() && r.playing && now >= r.next_step {
            go = Some(Go::Forward);
            r.next_step = now + 1.0 / f64::from(SPEEDS[r.speed]);
        }
    }
    match go {
        Some(g @ (Go::NextEvent | Go::PrevEvent)) => step_event(world, g),
        Some(g) => {
            let target = world.resource::<Replay>().target(g);
            go_to(world, target);
        }
        None => {}
    }
    let mut r = world.resource_mut::<Replay>();
    if r.at >= r.len() {
        r.playing = false;
    }
    if r.playing {
        world.write_message(bevy::window::RequestRedraw);
    }
}

/// The replay controls, over the board above the log.
pub fn replay_panel(
    mut contexts: EguiContexts,
    replay: Res<Replay>,
    mut req: ResMut<ReplayRequests>,
    insets: Res<super::camera::PanelInsets>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let scale = ctx.zoom_factor();
    let r = &*replay;
    let file = std::path::Path::new(&r.read.file)
        .file_name()
        .map_or(r.read.file.clone(), |f| f.to_string_lossy().to_string());
    egui::Window::new(RichText::new(format!("REPLAY \u{2014} {file}")).strong())
        .id(egui::Id::new("replay_controls"))
        .collapsible(false)
        .resizable(false)
        .anchor(
            egui::Align2::LEFT_BOTTOM,
            [insets.left / scale + 10.0, -(insets.bottom / scale) - 10.0],
        )
        .show(&ctx, |ui| {
            let here = r
                .outline
                .mark_of(r.at)
                .map_or(String::new(), |m| m.label());
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!("Order {} of {}", r.at, r.len()))
                        .strong()
                        .color(ACCENT),
                );
                ui.separator();
                ui.label(RichText::new(here).strong());
                if let Some(k) = r.event {
                    ui.separator();
                    ui.label(
                        RichText::new(format!(
                            "event {} of {}",
                            k + 1,
                            r.order_lines.len()
                        ))
                        .color(ACCENT),
                    );
                }
            });
            let mut chosen = None;
            ui.horizontal(|ui| {
                let mut button = |ui: &mut egui::Ui, text: &str, go: Go, enabled: bool| {
                    if ui
                        .add_enabled(enabled, egui::Button::new(RichText::new(text).strong()))
                        .clicked()
                    {
                        chosen = Some(go);
                    }
                };
                let back = r.at > 0;
                let fwd = r.at < r.len();
                button(ui, "|<", Go::Start, back);
                button(ui, "<< Phase", Go::PrevMark, back);
                button(ui, "< Back", Go::Back, back);
                button(ui, "< Event", Go::PrevEvent, back || r.event.is_some_and(|k| k > 0));
                let play = if r.playing { "Pause" } else { "Play" };
                if ui
                    .add_enabled(
                        r.problem.is_none(),
                        egui::Button::new(RichText::new(play).strong()),
                    )
                    .clicked()
                {
                    req.toggle_play = true;
                }
                button(ui, "Event >", Go::NextEvent, fwd || r.event.is_some());
                button(ui, "Forward >", Go::Forward, fwd);
                button(ui, "Phase >>", Go::NextMark, fwd);
                button(ui, ">|", Go::End, fwd);
            });
            if chosen.is_some() {
                req.go = chosen;
            }
            ui.horizontal(|ui| {
                ui.label("Speed:");
                let mut speed = r.speed;
                egui::ComboBox::from_id_salt("replay_speed")
                    .selected_text(speed_label(speed))
                    .show_ui(ui, |ui| {
                        for i in 0..SPEEDS.len() {
                            ui.selectable_value(&mut speed, i, speed_label(i));
                        }
                    });
                if speed != r.speed {
                    req.speed = Some(speed);
                }
                ui.separator();
                ui.label("Jump to:");
                let current = r.outline.mark_of(r.at).map(|m| m.position);
                egui::ComboBox::from_id_salt("replay_jump")
                    .selected_text(
                        r.outline
                            .mark_of(r.at)
                            .map_or("-".to_string(), |m| m.label()),
                    )
                    .height(320.0)
                    .show_ui(ui, |ui| {
                        for m in &r.outline.marks {
                            let on = current == Some(m.position)
                                && r.outline.mark_of(r.at).is_some_and(|c| c == m);
                            if ui
                                .selectable_label(on, format!("{} (order {})", m.label(), m.position))
                                .clicked()
                            {
                                req.go = Some(Go::To(m.position));
                            }
                        }
                    });
                ui.separator();
                let mut at = r.at;
                let slider = egui::Slider::new(&mut at, 0..=r.len()).show_value(false);
                if ui.add(slider).changed() {
                    req.go = Some(Go::To(at));
                }
            });
            ui.label(
                RichText::new(
                    "Keys: , back  . forward  < > (Shift , .) by event  Space play/pause  PgUp PgDn phase  [ ] speed  End last. No orders can be given.",
                )
                .small()
                .color(DIM),
            );
            if let Some(next) = r.next_order() {
                ui.label(RichText::new(format!("Next: {}", super::dialogs::ascii(&next))).color(DIM));
            } else {
                ui.label(RichText::new("End of the journal.").color(DIM));
            }
            let mut timing = format!(
                "Whole journal replayed in {:.0} ms",
                r.whole.as_secs_f64() * 1000.0
            );
            if let Some((k, took)) = r.rebuilt {
                timing.push_str(&format!(
                    "; last step back rebuilt order {k} in {:.0} ms",
                    took.as_secs_f64() * 1000.0
                ));
            }
            ui.label(RichText::new(timing).small().color(DIM));
            if let Some(p) = &r.problem {
                ui.label(RichText::new(p).color(super::dialogs::REFUSED));
            }
        });
    Ok(())
}

fn speed_label(i: usize) -> String {
    let s = SPEEDS[i.min(SPEEDS.len() - 1)];
    if s < 1.0 {
        format!("{:.0} s a step", 1.0 / s)
    } else {
        format!("{s:.0} steps/s")
    }
}

/// A replay viewer without a window, for tests: the world holds the
/// scenario at its setup and the interface's resources; `control` runs
/// every update. Drive it through [`ReplayRequests`].
pub fn headless_viewer(
    launch: ReplayLaunch,
    loaded: crate::scenario::Loaded,
    roster: crate::scenario::Roster,
    aid: crate::scenario::PlayerAid,
) -> App {
    use bevy::ecs::system::RunSystemOnce;
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(crate::world::ActiveScenario {
            scenario: loaded.scenario,
            origin: loaded.origin,
        })
        .insert_resource(crate::world::RosterRes(Arc::new(roster)))
        .insert_resource(crate::world::AidRes(Arc::new(aid)))
        .init_resource::<GameLog>()
        .init_resource::<super::act::OrderCount>()
        .init_resource::<super::tray::UiSettings>()
        .init_resource::<super::tray::DiceTray>()
        .init_resource::<super::tray::LogHighlight>()
        .init_resource::<super::Selected>()
        .init_resource::<super::act::Intent>()
        .init_resource::<ReplayRequests>()
        .init_resource::<super::act::Applied>()
        .insert_resource(launch)
        .add_systems(Update, control.run_if(resource_exists::<Replay>))
        .add_systems(
            super::act::OrderShown,
            (
                super::replay_board::on_order.in_set(super::act::ShownSet::Told),
                super::act::follow_decider_shown.in_set(super::act::ShownSet::Viewer),
                super::act::show_in_log.in_set(super::act::ShownSet::Logged),
            ),
        )
        .edit_schedule(super::act::OrderShown, super::act::configure_order_shown);
    let world = app.world_mut();
    if let Err(e) = world.run_system_once(crate::world::spawn::spawn_scenario) {
        error!("setting up the scenario: {e}");
    }
    begin(world);
    app
}
