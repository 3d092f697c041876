//! `bob demo`: the computer plays both sides in the normal window, paced
//! so a person can follow (Op Fire windows, decisions and the dice stay up
//! a moment), the camera going to the hexes of each caption. At the end the
//! verdict shows, then the next scenario begins. Any key or click offers to
//! take command of a side: that side is then played on the board as in
//! hotseat, the other stays with the computer. `--exit-at-end` plays
//! without pacing and quits at the end (the check that every scenario
//! plays through).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::RichText;

use crate::app::AppState;
use crate::bot::{Bot, Level, acting_side};
use crate::engine::op_fire::OpFireWindow;

use crate::engine::phases::end::GameOver;
use crate::engine::{Dice, Order};
use crate::scenario::schema::SideId;
use crate::scenario::{Coord, Loaded};
use crate::world::{ActiveScenario, AidRes, BoardRes, RosterRes, TurnTrack, Viewer};

use super::camera::{BoardCamera, PanelInsets};
use super::captions::Captions;
use super::panels::side_name;
use super::stream::{Casualties, Chroma, StreamMode};

/// Who gives the computer's orders. The demo asks it for every order and
/// decision of whichever side the computer plays.
pub trait Brain: Send + Sync {
    fn order(&mut self, world: &mut World) -> Order;
}

impl Brain for Bot {
    fn order(&mut self, world: &mut World) -> Order {
        Bot::order(self, world)
    }
}

/// The computer player of the demo: the bot (`crate::bot`).
pub fn brain(level: Level, seed: u64) -> Box<dyn Brain> {
    Box::new(Bot::new(level, seed))
}

/// What `bob demo` asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoOptions {
    /// The scenarios to play in turn (ids or paths); the first is open.
    pub playlist: Vec<String>,
    pub seed: u64,
    /// How well the computer plays.
    pub level: Level,
    /// Pacing: 2.0 plays twice as fast.
    pub speed: f32,
    /// No pacing; quit after the last scenario of the playlist.
    pub exit_at_end: bool,
    /// Save a PNG of the window after this many seconds, then quit.
    pub screenshot: Option<(PathBuf, f32)>,
}

/// The demo and streamer options of a launch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Modes {
    pub demo: Option<DemoOptions>,
    /// Streamer mode from the start (`--stream`).
    pub stream: bool,
    /// The chroma key from the start (`--chroma`).
    pub chroma: Chroma,
}

impl Modes {
    /// The demo plays on by itself: the window must redraw continuously.
    pub fn continuous(&self) -> bool {
        self.demo.is_some()
    }
}

/// The scenarios a demo plays in turn: the one named first (alone with
/// `--exit-at-end`, else followed by the other built-ins), or every
/// built-in.
pub fn playlist(first: Option<&str>, exit_at_end: bool) -> Vec<String> {
    let builtins: Vec<String> = crate::scenario::embedded()
        .map(|e| e.file.trim_end_matches(".ron").to_string())
        .collect();
    let Some(first) = first else {
        return builtins;
    };
    let stem = first.trim_end_matches(".ron");
    let mut list = vec![first.to_string()];
    if !exit_at_end && builtins.iter().any(|b| b == stem) {
        let at = builtins.iter().position(|b| b == stem).unwrap_or(0);
        list.extend(
            builtins
                .iter()
                .cycle()
                .skip(at + 1)
                .take(builtins.len() - 1)
                .cloned(),
        );
    }
    list
}

/// A running demo.
#[derive(Resource)]
pub struct Demo {
    pub opts: DemoOptions,
    /// The side a person took command of.
    pub human: Option<SideId>,
    brain: Box<dyn Brain>,
    /// Games begun so far, counting from 0.
    pub game: usize,
    next_at: f64,
    ended_at: Option<f64>,
    /// The "take command" offer is open.
    pub offer: bool,
    /// Accepted orders this game.
    pub orders: u64,
    /// Steps in a row where every order asked for was refused.
    stuck: u32,
    /// Wall clock at the start of this game, for the `--exit-at-end` report.
    started: std::time::Instant,
    /// The computer is acting (the camera follows it).
    bot_acting: bool,
    /// Resource types of the rules engine, removed between games.
    /// The next scenario, set up when the board is left.
    pending_next: Option<Loaded>,
    shot_requested: bool,
}

impl Demo {
    pub fn speed(&self) -> f32 {
        self.opts.speed
    }

    fn paced(&self) -> bool {
        !self.opts.exit_at_end
    }

    fn seed_of(&self, game: usize) -> u64 {
        self.opts.seed.wrapping_add(game as u64)
    }
}

/// Demo, streamer mode and captions.
pub struct ModesPlugin(pub Modes);

impl Plugin for ModesPlugin {
    fn build(&self, app: &mut App) {
        let modes = &self.0;
        app.init_resource::<Captions>()
            .add_systems(
                super::act::OrderShown,
                super::captions::on_order.in_set(super::act::ShownSet::Told),
            )
            .init_resource::<super::captions::CaptionStripBottom>()
            .init_resource::<Casualties>()
            .insert_resource(StreamMode {
                on: modes.stream,
                chroma: modes.chroma,
            })
            .add_systems(
                OnEnter(AppState::InGame),
                prime_captions.after(super::BoardSetup),
            )
            .add_systems(
                Update,
                (
                    super::stream::stream_keys,
                    super::stream::apply_chroma,
                    super::captions::advance_captions,
                    super::stream::count_casualties,
                )
                    .chain()
                    .run_if(in_state(AppState::InGame)),
            )
            .add_systems(
                bevy_egui::EguiPrimaryContextPass,
                (
                    super::stream::stream_overlays,
                    super::captions::caption_strip,
                )
                    .chain()
                    .after(super::panels::game_panels)
                    .run_if(in_state(AppState::InGame)),
            );
        let Some(opts) = modes.demo.clone() else {
            return;
        };

        let speed = opts.speed;
        let seed = opts.seed;
        app.insert_resource(Demo {
            brain: brain(opts.level, seed),
            opts,
            human: None,
            game: 0,
            next_at: 0.0,
            ended_at: None,
            offer: false,
            orders: 0,
            stuck: 0,
            started: std::time::Instant::now(),
            bot_acting: true,
            pending_next: None,
            shot_requested: false,
        })
        .insert_resource(Dice::seeded(seed))
        .insert_resource(super::tray::UiSettings {
            dice_seconds: 0.6 / speed.max(0.1),
            hand_over: false,
        })
        .add_systems(
            Update,
            (
                drive
                    .after(super::act::handle_requests)
                    .before(super::decide::refresh_and_send),
                offer_take_over,
                follow_camera.after(super::camera::fit_when_panels_settle),
                demo_screenshot,
            )
                .run_if(in_state(AppState::InGame)),
        )
        .add_systems(
            Update,
            demo_settings
                .after(super::settings::apply_settings)
                .before(super::handover::watch_viewer),
        )
        .add_systems(OnExit(AppState::InGame), set_up_next)
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            demo_windows
                .after(super::captions::caption_strip)
                .run_if(in_state(AppState::InGame)),
        );
    }
}

/// No hand-over screen in a demo (nobody hands the screen over), and the
/// dice roll at the demo's pace, whatever the settings file says.
fn demo_settings(demo: Res<Demo>, mut ui: ResMut<super::tray::UiSettings>) {
    let dice = 0.6 / demo.speed().max(0.1);
    if ui.hand_over || ui.dice_seconds != dice {
        ui.hand_over = false;
        ui.dice_seconds = dice;
    }
}

/// The captions know the units as they stand at the start.
fn prime_captions(world: &mut World) {
    let human = super::captions::hidden_from(world);
    let facts = super::captions::facts(world, human);
    let demo = world.contains_resource::<Demo>();
    let stream = world.resource::<StreamMode>().on;
    let mut captions = world.resource_mut::<Captions>();
    captions.clear();
    captions.visible = demo || stream;
    captions.prime(facts);
}

/// Seconds the verdict stays up before the next scenario, at speed 1.
const VERDICT_SECONDS: f64 = 10.0;
/// Orders asked of the computer before a step counts as stuck.
const ATTEMPTS: usize = 400;
/// Stuck steps in a row before the demo gives up on a game.
const STUCK_LIMIT: u32 = 50;

/// Gives the computer's orders: paced (one order, then a pause and its
/// captions), or as fast as it goes with `--exit-at-end`.
fn drive(world: &mut World) {
    let now = world.resource::<Time>().elapsed_secs_f64();
    let demo = world.resource::<Demo>();
    let (human, paced, speed) = (demo.human, demo.paced(), f64::from(demo.speed().max(0.05)));
    if let Some(h) = human
        && world.resource::<Viewer>().0 != h
    {
        world.resource_mut::<Viewer>().0 = h;
    }
    if world.contains_resource::<GameOver>() {
        game_over(world, now);
        return;
    }
    let demo = world.resource::<Demo>();
    if demo.offer || demo.pending_next.is_some() {
        return;
    }
    let side = acting_side(world);
    let bot = side.is_some_and(|s| Some(s) != human);
    world.resource_mut::<Demo>().bot_acting = bot;
    if !bot {
        return;
    }
    if paced {
        if now < world.resource::<Demo>().next_at || world.resource::<Captions>().busy() {
            return;
        }
        step(world);
        let pause = if world.contains_resource::<OpFireWindow>()
            || super::decide::decision_view(world).is_some()
        {
            1.2
        } else {
            0.4
        };
        world.resource_mut::<Demo>().next_at = now + pause / speed;
        return;
    }
    // No pacing: orders until this frame's time is spent.
    world.resource_mut::<Captions>().drop_queue();
    let frame = std::time::Instant::now();
    while frame.elapsed() < std::time::Duration::from_millis(25) {
        if world.contains_resource::<GameOver>() || !step(world) {
            break;
        }
    }
}

/// One order of the computer, asked again while the engine refuses it;
/// false when it gave up (the demo is stuck).
fn step(world: &mut World) -> bool {
    for _ in 0..ATTEMPTS {
        let order = world.resource_scope(|world, mut demo: Mut<Demo>| demo.brain.order(world));
        if super::act::send(world, &order) {
            let human = {
                let mut demo = world.resource_mut::<Demo>();
                demo.orders += 1;
                demo.stuck = 0;
                demo.human
            };
            if let Some(h) = human
                && world.resource::<Viewer>().0 != h
            {
                world.resource_mut::<Viewer>().0 = h;
            }
            return true;
        }
    }
    let mut demo = world.resource_mut::<Demo>();
    demo.stuck += 1;
    if demo.stuck >= STUCK_LIMIT {
        let what = world
            .resource::<super::orders::GameLog>()
            .refusal
            .clone()
            .unwrap_or_default();
        error!("demo: no order of the computer is accepted ({what})");
        if world.resource::<Demo>().opts.exit_at_end {
            world.write_message(AppExit::error());
        }
        world.resource_mut::<Demo>().stuck = 0;
    }
    false
}

/// The verdict, then the next scenario (or the end of `--exit-at-end`).
fn game_over(world: &mut World, now: f64) {
    let (ended, paced, speed) = {
        let d = world.resource::<Demo>();
        (d.ended_at, d.paced(), f64::from(d.speed().max(0.05)))
    };
    let Some(ended) = ended else {
        world.resource_mut::<Demo>().ended_at = Some(now);
        report(world);
        return;
    };
    if paced && (now - ended < VERDICT_SECONDS / speed || world.resource::<Demo>().offer) {
        return;
    }
    if world.resource::<Demo>().pending_next.is_some() {
        return;
    }
    let demo = world.resource::<Demo>();
    let next = demo.game + 1;
    if demo.opts.exit_at_end && next >= demo.opts.playlist.len() {
        world.write_message(AppExit::Success);
        return;
    }
    let name = demo.opts.playlist[next % demo.opts.playlist.len()].clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let aid = world.resource::<AidRes>().0.clone();
    match crate::world::load(&name, &roster, &aid) {
        Ok(loaded) => {
            let mut demo = world.resource_mut::<Demo>();
            demo.game = next;
            demo.pending_next = Some(loaded);
            // Leaving the board and entering it again sets up the next game.
            world
                .resource_mut::<NextState<AppState>>()
                .set(AppState::InGame);
        }
        Err(report) => {
            error!("{report}");
            world.write_message(AppExit::error());
        }
    }
}

/// `--exit-at-end`: one line per game on stdout.
fn report(world: &mut World) {
    let demo = world.resource::<Demo>();
    if !demo.opts.exit_at_end {
        return;
    }
    let id = world.resource::<ActiveScenario>().scenario.id.clone();
    let verdict = world
        .resource::<super::orders::GameLog>()
        .lines
        .iter()
        .rev()
        .find(|l| l.starts_with("Scenario over"))
        .cloned()
        .unwrap_or_default();
    let turn = world.resource::<TurnTrack>().turn;
    println!(
        "demo {id} seed {}: {} orders, turn {turn}, {:.1} s: {verdict}",
        demo.seed_of(demo.game),
        demo.orders,
        demo.started.elapsed().as_secs_f64()
    );
}

/// Leaving the board for the next game: the old game's entities, the
/// engine's resources and the views go; the next scenario and its dice come
/// in. Entering the board again then sets it up as at launch.
fn set_up_next(world: &mut World) {
    let Some(loaded) = world
        .get_resource_mut::<Demo>()
        .and_then(|mut d| d.pending_next.take())
    else {
        return;
    };
    super::teardown::clear_game(world);
    let title = format!("Band of Brothers \u{2014} {}", loaded.scenario.title);
    world.insert_resource(ActiveScenario {
        scenario: loaded.scenario,
        origin: loaded.origin,
    });
    let (seed, game) = {
        let d = world.resource::<Demo>();
        (d.seed_of(d.game), d.game)
    };
    world.insert_resource(Dice::seeded(seed));
    let mut demo = world.resource_mut::<Demo>();
    demo.brain = brain(demo.opts.level, seed);
    demo.human = None;
    demo.ended_at = None;
    demo.offer = false;
    demo.orders = 0;
    demo.stuck = 0;
    demo.next_at = 0.0;
    demo.started = std::time::Instant::now();
    let mut q = world.query::<&mut Window>();
    for mut w in q.iter_mut(world) {
        w.title = title.clone();
    }
    info!("demo: game {} begins (seed {seed})", game + 1);
}

/// Any key or click (outside the windows) offers to take command of a side.
fn offer_take_over(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    mut demo: ResMut<Demo>,
    mut egui: EguiContexts,
) {
    if demo.human.is_some() || demo.offer {
        return;
    }
    let key = keys
        .get_just_pressed()
        .any(|k| !matches!(k, KeyCode::F8 | KeyCode::F9));
    let over_egui = egui
        .ctx_mut()
        .map(|c| c.is_pointer_over_egui())
        .unwrap_or(false);
    let click = buttons.get_just_pressed().next().is_some() && !over_egui;
    if key || click {
        demo.offer = true;
    }
}

/// The camera goes smoothly to the hexes of the caption on screen, near
/// enough to read the counters; between captions it rests on the whole map.
#[allow(clippy::too_many_arguments)]
fn follow_camera(
    demo: Res<Demo>,
    captions: Res<Captions>,
    insets: Res<PanelInsets>,
    board: Res<BoardRes>,
    time: Res<Time>,
    windows: Query<&Window>,
    mut cam: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    if !demo.paced() || demo.offer || !demo.bot_acting && demo.ended_at.is_none() {
        return;
    }
    let Ok(window) = windows.single() else {
        return;
    };
    let Ok((mut tf, mut proj)) = cam.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = &mut *proj else {
        return;
    };
    let avail = Vec2::new(
        (window.width() - insets.left - insets.right).max(100.0),
        (window.height() - insets.top - insets.bottom).max(100.0),
    );
    let bounds = super::layout::map_bounds(board.0.columns, board.0.rows);
    let fit = (bounds.width() * 1.04 / avail.x).max(bounds.height() * 1.04 / avail.y);
    let (centre, scale) = match captions.focus() {
        Some(hexes) => focus_on(hexes, avail, fit),
        None => (bounds.center(), fit),
    };
    let shift = Vec2::new(
        (insets.right - insets.left) * 0.5 * scale,
        (insets.top - insets.bottom) * 0.5 * scale,
    );
    let goal = centre + shift;
    let k = 1.0 - (-time.delta_secs() * 2.5 * demo.speed().clamp(0.5, 3.0)).exp();
    let now = tf.translation.truncate();
    let next = now + (goal - now) * k;
    tf.translation.x = next.x;
    tf.translation.y = next.y;
    o.scale = (o.scale.ln() + (scale.ln() - o.scale.ln()) * k).exp();
}

/// The centre and scale that show these hexes with a margin, no closer
/// than twice the fitted view and no farther than the whole map.
fn focus_on(hexes: &[Coord], avail: Vec2, fit: f32) -> (Vec2, f32) {
    let centres: Vec<Vec2> = hexes
        .iter()
        .map(|c| super::layout::hex_center(*c))
        .collect();
    let min = centres
        .iter()
        .copied()
        .reduce(Vec2::min)
        .unwrap_or_default();
    let max = centres
        .iter()
        .copied()
        .reduce(Vec2::max)
        .unwrap_or_default();
    let margin = Vec2::splat(super::layout::HEX_RADIUS * 3.0);
    let size = max - min + margin * 2.0;
    let scale = (size.x / avail.x)
        .max(size.y / avail.y)
        .clamp(fit * 0.5, fit);
    ((min + max) * 0.5, scale)
}

/// A side as people ("Germans"), from its card.
fn people_of(sc: &crate::scenario::schema::Scenario, side: SideId) -> &'static str {
    sc.sides
        .iter()
        .find(|c| c.side == side)
        .map_or("side", |c| crate::narrate::people(c.nationality))
}

/// `bob demo --screenshot OUT.png --after S`: a picture of the demo, then quit.
fn demo_screenshot(mut commands: Commands, mut demo: ResMut<Demo>, time: Res<Time>) {
    let Some((path, after)) = demo.opts.screenshot.clone() else {
        return;
    };
    if demo.shot_requested || time.elapsed_secs() < after {
        return;
    }
    demo.shot_requested = true;
    crate::app::capture_and_quit(&mut commands, path);
}

/// The take-command offer, the verdict, and the demo's corner label.
#[allow(clippy::too_many_arguments)]
fn demo_windows(
    mut contexts: EguiContexts,
    mut demo: ResMut<Demo>,
    active: Res<ActiveScenario>,
    over: Option<Res<GameOver>>,
    log: Res<super::orders::GameLog>,
    time: Res<Time>,
    mut viewer: ResMut<Viewer>,
    stream: Res<StreamMode>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let sc = &active.scenario;
    if demo.offer {
        egui::Window::new(RichText::new("TAKE COMMAND").strong().size(22.0))
            .id(egui::Id::new("demo_take_over"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(&ctx, |ui| {
                ui.label(RichText::new("Take command of:").size(18.0));
                ui.horizontal(|ui| {
                    for card in &sc.sides {
                        let name = format!("{} ({})", side_name(sc, card.side), card.force);
                        if ui.button(RichText::new(name).size(18.0).strong()).clicked() {
                            demo.human = Some(card.side);
                            demo.offer = false;
                            viewer.0 = card.side;
                        }
                    }
                    if ui
                        .button(RichText::new("Keep watching").size(18.0))
                        .clicked()
                        || ctx.input(|i| i.key_pressed(egui::Key::Escape))
                    {
                        demo.offer = false;
                    }
                });
                ui.label(
                    RichText::new("The other side stays with the computer.")
                        .color(super::panels::DIM),
                );
            });
    }
    if let Some(over) = over {
        let winner = match over.0.winner {
            Some(s) => format!("{} WIN", side_name(sc, s).to_uppercase()),
            None => "A DRAW".to_string(),
        };
        let losses = log
            .lines
            .iter()
            .rev()
            .find_map(|l| l.split("Losses: ").nth(1))
            .map(|l| l.trim_end_matches(" (R 18.0)").to_string());
        let next = demo.opts.playlist[(demo.game + 1) % demo.opts.playlist.len()].clone();
        let left = demo.ended_at.map_or(0.0, |t| {
            (VERDICT_SECONDS / f64::from(demo.speed().max(0.05)) - (time.elapsed_secs_f64() - t))
                .max(0.0)
        });
        egui::Window::new(RichText::new("SCENARIO OVER").strong().size(22.0))
            .id(egui::Id::new("demo_verdict"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, -40.0])
            .show(&ctx, |ui| {
                ui.label(
                    RichText::new(winner)
                        .size(34.0)
                        .strong()
                        .color(super::panels::ACCENT),
                );
                for r in &over.0.reasons {
                    ui.label(RichText::new(super::dialogs::ascii(r)).size(16.0));
                }
                if let Some(l) = losses {
                    ui.label(RichText::new(format!("Losses: {l}")).size(16.0));
                }
                if demo.paced() {
                    ui.separator();
                    ui.label(
                        RichText::new(format!("Next: {next} in {left:.0} s"))
                            .color(super::panels::DIM),
                    );
                }
            });
    }
    if !stream.on {
        let label = match demo.human {
            Some(h) => format!(
                "DEMO \u{2022} you command the {}; the computer plays the {}",
                people_of(sc, h),
                people_of(sc, h.other())
            ),
            None => "DEMO \u{2022} the computer plays both sides \u{2022} any key or click to take command"
                .to_string(),
        };
        let view = ctx.viewport_rect();
        egui::Area::new(egui::Id::new("demo_label"))
            .order(egui::Order::Foreground)
            .pivot(egui::Align2::CENTER_TOP)
            .fixed_pos([view.center().x, 34.0])
            .interactable(false)
            .show(&ctx, |ui| {
                egui::Frame::new()
                    .fill(super::captions::CAPTION_BG)
                    .corner_radius(6.0)
                    .inner_margin(egui::Margin::symmetric(12, 4))
                    .show(ui, |ui| {
                        let text = RichText::new(label)
                            .strong()
                            .color(super::captions::CAPTION_TEXT);
                        ui.add(egui::Label::new(text).extend());
                    });
            });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_playlist_begins_with_the_scenario_named_then_the_others() {
        assert_eq!(
            playlist(None, false),
            [
                "alligator_creek",
                "crossroads_gun",
                "guadalcanal",
                "peleliu",
                "training"
            ]
        );
        assert_eq!(
            playlist(Some("training"), false),
            [
                "training",
                "alligator_creek",
                "crossroads_gun",
                "guadalcanal",
                "peleliu"
            ]
        );
        assert_eq!(playlist(Some("training"), true), ["training"]);
        assert_eq!(playlist(Some("my.ron"), false), ["my.ron"]);
    }

    #[test]
    fn the_camera_frames_the_hexes_between_half_and_the_whole_map() {
        let c = |s: &str| Coord::parse(s, 16, 12).unwrap();
        let avail = Vec2::new(1000.0, 600.0);
        // One hex: as close as allowed, centred on it.
        let (centre, scale) = focus_on(&[c("F4")], avail, 2.0);
        assert_eq!(centre, super::super::layout::hex_center(c("F4")));
        assert_eq!(scale, 1.0);
        // Hexes far apart: no farther than the whole map.
        let (_, scale) = focus_on(&[c("A1"), c("P12")], avail, 2.0);
        assert_eq!(scale, 2.0);
    }
}
