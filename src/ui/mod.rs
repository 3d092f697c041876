//! The board on screen and the egui panels. Nothing here decides a rule:
//! it draws the world and, later, sends orders.

pub mod act;
pub mod board;
pub mod camera;
pub mod captions;
pub mod counters;
pub mod decide;
pub mod demo;
pub mod dialogs;
pub mod drive;
pub mod facing;
pub mod fort_art;
#[cfg(feature = "measure")]
pub mod frame_stats;
pub mod gun_art;
pub mod handover;
pub mod layout;
pub mod los_tool;
pub mod markers;
pub mod menu;
pub mod night;
pub mod orders;
pub mod paint;
pub mod palette;
pub mod panels;
pub mod preview;
pub mod render;
pub mod replay;
pub mod replay_board;
pub mod result;
pub mod session;
pub mod settings;
pub mod stream;
pub mod teardown;
pub mod tray;
pub mod vs_bot;
pub mod window;

use bevy::prelude::*;
use bevy_egui::{EguiPlugin, EguiPrimaryContextPass};

use crate::app::{AppState, ScreenshotRequest};
use crate::scenario::Coord;
use crate::world::{
    ActiveScenario, BoardRes, Concealed, Location, Marks, Suppression, TurnTrack, Unit, Viewer,
};

/// Systems that draw the board once the scenario is spawned.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardSetup;

/// Every system of ours that runs each frame on the board (the frames
/// bench, `frame_stats`, times this set).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameSystems;

/// The hex under the mouse (or pinned by `bob screenshot --hover`).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Hovered(pub Option<Coord>);

/// The selected unit, shown in the unit card.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Selected(pub Option<Entity>);

/// Which panels are open.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct PanelState {
    pub scenario_card: bool,
    pub player_aid: bool,
    pub aid_tab: usize,
}

impl Default for PanelState {
    fn default() -> Self {
        PanelState {
            scenario_card: true,
            // The Player Aid's tables are the panels' heaviest layout: open
            // on demand (F1).
            player_aid: false,
            aid_tab: 0,
        }
    }
}

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            EguiPlugin::default(),
            act::ActPlugin,
            decide::DecidePlugin,
            menu::MenuPlugin,
            replay::ReplayPlugin,
            markers::MarkersPlugin,
            render::retain::RetainPlugin,
        ))
        .init_resource::<paint::ArtCache>()
        .init_resource::<Hovered>()
        .init_resource::<Selected>()
        .init_resource::<PanelState>()
        .init_resource::<camera::PanelInsets>()
        .init_resource::<los_tool::LosTool>()
        .init_resource::<orders::GameLog>()
        .init_resource::<night::NightDrawn>()
        .init_resource::<facing::FacingPlan>()
        .init_resource::<facing::TurnRequest>()
        .init_resource::<facing::FacingDrag>()
        .add_systems(Startup, camera::spawn_camera)
        .add_systems(
            OnEnter(AppState::InGame),
            (
                (
                    board::draw_board,
                    pin_screenshot_hover,
                    sample_markers,
                    pin_screenshot_los,
                ),
                orders::start_operations,
                orders::play_screenshot_script,
                pin_screenshot_selection,
                panels::forget_card_heights,
            )
                .chain()
                .in_set(BoardSetup),
        )
        .add_systems(
            Update,
            (
                (
                    keys_to_text_fields,
                    facing::facing_drag,
                    camera::camera_controls,
                    camera::fit_when_panels_settle,
                    track_hover,
                    select_on_click,
                    keyboard_commands,
                    forget_selection_on_hand_over,
                    act::action_keys.run_if(replay::orders_allowed),
                    facing::facing_keys.run_if(replay::orders_allowed),
                    facing::apply_turn.run_if(replay::orders_allowed),
                    act::handle_requests.run_if(replay::orders_allowed),
                    decide::refresh_and_send,
                    act::refresh_views,
                )
                    .chain(),
                (
                    counters::redraw_counters,
                    night::draw_night,
                    counters::redraw_smoke,
                    act::draw_reach,
                    act::draw_act_overlays,
                    draw_hover_outline,
                    facing::draw_plan,
                    los_tool::los_keys,
                    los_tool::draw_los,
                    board::rest_map_camera,
                )
                    .chain(),
            )
                .chain()
                .in_set(GameSystems)
                .run_if(in_state(AppState::InGame)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                panels::loading_screen
                    .run_if(in_state(AppState::Loading).or_else(in_state(AppState::LoadFailed))),
                (
                    panels::game_panels.run_if(stream::panels_shown),
                    dialogs::act_windows,
                    decide::decision_window,
                    tray::dice_tray.run_if(stream::panels_shown),
                )
                    .chain()
                    .in_set(GameSystems)
                    .run_if(in_state(AppState::InGame)),
            ),
        );
    }
}

/// `bob screenshot --hover E6`: show that hex's units in the unit card.
fn pin_screenshot_hover(
    req: Option<Res<ScreenshotRequest>>,
    active: Res<ActiveScenario>,
    mut hovered: ResMut<Hovered>,
) {
    let Some(label) = req.and_then(|r| r.hover.clone()) else {
        return;
    };
    let map = &active.scenario.map;
    match Coord::parse(&label, map.columns, map.rows) {
        Ok(c) => hovered.0 = Some(c),
        Err(_) => warn!("--hover {label}: not a hex of this map"),
    }
}

/// `bob screenshot --select A1 --mode move`: select a unit and arm an action.
fn pin_screenshot_selection(
    req: Option<Res<ScreenshotRequest>>,
    units: Query<(Entity, &Unit)>,
    mut selected: ResMut<Selected>,
    mut intent: ResMut<act::Intent>,
    mut settings: ResMut<tray::UiSettings>,
) {
    let Some(req) = req else {
        return;
    };
    // A still picture: the dice show their faces at once.
    settings.dice_seconds = 0.0;
    if let Some(id) = &req.select {
        match units.iter().find(|(_, u)| u.id == *id) {
            Some((e, _)) => selected.0 = Some(e),
            None => warn!("--select {id}: no such unit"),
        }
    }
    *intent = match req.mode.as_deref() {
        Some("move") => act::Intent::Move,
        Some("fire") => act::Intent::Fire,
        _ => act::Intent::Select,
    };
}

/// `bob screenshot --los-from C3 --hover H6`: show the LOS tool's thread.
fn pin_screenshot_los(
    req: Option<Res<ScreenshotRequest>>,
    active: Res<ActiveScenario>,
    mut tool: ResMut<los_tool::LosTool>,
) {
    let Some(label) = req.and_then(|r| r.los_from.clone()) else {
        return;
    };
    let map = &active.scenario.map;
    match Coord::parse(&label, map.columns, map.rows) {
        Ok(c) => tool.from = Some(c),
        Err(_) => warn!("--los-from {label}: not a hex of this map"),
    }
}

/// `bob screenshot --sample-markers`: mark a few units so the marker art can
/// be looked at. Only for screenshots; no rule is applied.
fn sample_markers(
    mut commands: Commands,
    req: Option<Res<ScreenshotRequest>>,
    units: Query<(Entity, &Unit)>,
) {
    if !req.is_some_and(|r| r.sample_markers) {
        return;
    }
    let mut sorted: Vec<(Entity, String)> =
        units.iter().map(|(e, u)| (e, u.id.to_string())).collect();
    sorted.sort_by(|a, b| a.1.cmp(&b.1));
    let used = || Marks {
        used: true,
        ..Marks::default()
    };
    for (i, (e, _)) in sorted.into_iter().enumerate() {
        let mut ec = commands.entity(e);
        match i % 6 {
            0 => {
                ec.insert(Suppression::Suppressed).remove::<Concealed>();
            }
            1 => {
                ec.insert((Suppression::Full, used())).remove::<Concealed>();
            }
            2 => {
                ec.insert(Marks {
                    op_fire: true,
                    ..Marks::default()
                });
            }
            3 => {
                ec.insert(used()).remove::<Concealed>();
            }
            4 => {
                ec.remove::<Concealed>();
            }
            _ => {}
        }
    }
}

fn track_hover(
    windows: Query<&Window>,
    cameras: Query<(&Camera, &GlobalTransform), With<camera::BoardCamera>>,
    board: Res<BoardRes>,
    req: Option<Res<ScreenshotRequest>>,
    mut hovered: ResMut<Hovered>,
    mut egui: bevy_egui::EguiContexts,
) {
    if req.is_some() {
        return;
    }
    let over_panel = egui
        .ctx_mut()
        .map(|c| c.is_pointer_over_egui())
        .unwrap_or(false);
    let Ok(window) = windows.single() else {
        return;
    };
    let Ok((camera, cam_tf)) = cameras.single() else {
        return;
    };
    let now = if over_panel {
        hovered.0
    } else {
        window
            .cursor_position()
            .and_then(|p| camera.viewport_to_world_2d(cam_tf, p).ok())
            .and_then(|w| layout::coord_at(w, board.0.columns, board.0.rows))
    };
    if hovered.0 != now {
        hovered.0 = now;
    }
}

/// Click a hex to select its top unit; click again to cycle through the
/// stack. With Move or Fire armed the click goes to the action instead;
/// a right click disarms it.
#[allow(clippy::too_many_arguments)]
fn select_on_click(
    buttons: Res<ButtonInput<MouseButton>>,
    hovered: Res<Hovered>,
    viewer: Res<Viewer>,
    units: Query<(Entity, &Location, &Unit, Has<Concealed>)>,
    mut selected: ResMut<Selected>,
    mut egui: bevy_egui::EguiContexts,
    drag: Res<camera::DragState>,
    mut intent: ResMut<act::Intent>,
    mut requests: ResMut<act::Requests>,
) {
    if buttons.just_released(MouseButton::Right) && !drag.dragged {
        *intent = act::Intent::Select;
    }
    if !buttons.just_released(MouseButton::Left) || drag.dragged {
        return;
    }
    if egui
        .ctx_mut()
        .map(|c| c.is_pointer_over_egui())
        .unwrap_or(false)
    {
        return;
    }
    if *intent != act::Intent::Select {
        requests.click = hovered.0;
        if hovered.0.is_none() {
            *intent = act::Intent::Select;
        }
        return;
    }
    let Some(c) = hovered.0 else {
        selected.0 = None;
        return;
    };
    // An enemy unit under a Conceal counter is not selected: its hex card
    // shows the counter, and a selection would name it (R 15.0).
    let mut here: Vec<(Entity, String)> = units
        .iter()
        .filter(|(_, l, u, concealed)| l.coord == c && (u.side == viewer.0 || !concealed))
        .map(|(e, _, u, _)| (e, u.id.to_string()))
        .collect();
    here.sort_by(|a, b| a.1.cmp(&b.1));
    let next = match selected
        .0
        .and_then(|s| here.iter().position(|(e, _)| *e == s))
    {
        Some(i) => here.get((i + 1) % here.len()).map(|x| x.0),
        None => here.first().map(|x| x.0),
    };
    selected.0 = next;
}

/// Keys do only what they say. While a text field has focus (the save
/// dialog's name), no game key acts: the keys are cleared before the game's
/// systems read them. Any other widget egui gave the focus to (Tab walks it
/// through buttons and log lines) lets it go at once, so Tab stays the
/// game's next-unit key and Space never presses a button the player did
/// not click.
fn keys_to_text_fields(mut egui: bevy_egui::EguiContexts, mut keys: ResMut<ButtonInput<KeyCode>>) {
    let Ok(ctx) = egui.ctx_mut() else {
        return;
    };
    if ctx.text_edit_focused() {
        keys.reset_all();
    } else if let Some(id) = ctx.memory(|m| m.focused()) {
        ctx.memory_mut(|m| m.surrender_focus(id));
    }
}

/// Hotseat: when the screen passes to the other side, the last side's
/// selection and armed action go with it; a selection kept over the
/// hand-over would ring and name a unit of the other side, a Decoy under its
/// counter included (R 15.0).
pub fn forget_selection_on_hand_over(
    viewer: Res<Viewer>,
    mut selected: ResMut<Selected>,
    mut intent: ResMut<act::Intent>,
) {
    if viewer.is_changed() && !viewer.is_added() {
        selected.0 = None;
        *intent = act::Intent::Select;
    }
}

/// F1 Player Aid, F2 Scenario Card, V hands the screen to the other side.
fn keyboard_commands(
    keys: Res<ButtonInput<KeyCode>>,
    mut panels: ResMut<PanelState>,
    mut viewer: ResMut<Viewer>,
    mut fit: ResMut<camera::PanelInsets>,
) {
    if keys.just_pressed(KeyCode::F1) {
        panels.player_aid = !panels.player_aid;
    }
    if keys.just_pressed(KeyCode::F2) {
        panels.scenario_card = !panels.scenario_card;
    }
    if keys.just_pressed(KeyCode::KeyV) {
        viewer.0 = viewer.0.other();
    }
    if keys.just_pressed(KeyCode::Home) || keys.just_pressed(KeyCode::KeyF) {
        fit.refit = true;
    }
}

/// The outline of the hovered hex (`false`) or the selected unit's hex
/// (`true`): drawn once, then moved.
#[derive(Component)]
struct HoverArt(bool);

/// Moves the hover and selection outlines to their hexes. The two meshes are
/// built once per board and only their transforms change as the mouse moves.
fn draw_hover_outline(
    mut commands: Commands,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    units: Query<&Location>,
    mut art: Query<(&HoverArt, &mut Transform, &mut Visibility)>,
    mut paint: paint::PaintAssets,
    mut shown: Local<Option<[Option<Coord>; 2]>>,
) {
    if art.is_empty() {
        // An outline around the origin's hex; the hover's above the
        // selection's.
        let origin = Coord::new(0, 0);
        let centre = layout::hex_center(origin);
        for (selection, colour, w, z) in [
            (true, Color::srgb(1.0, 1.0, 1.0), 4.0, board::z::HOVER),
            (false, palette::HOVER, 3.0, board::z::HOVER + 0.5),
        ] {
            let mut p = paint.painter(&mut commands);
            let mut layer = None;
            for side in crate::scenario::schema::Side6::ALL {
                let (a, b) = layout::side_ends(origin, side);
                layer = Some(p.line(a - centre, b - centre, w, colour, z));
            }
            p.finish();
            if let Some(e) = layer {
                p.commands.entity(e).insert((
                    HoverArt(selection),
                    Transform::from_xyz(0.0, 0.0, z),
                    Visibility::Hidden,
                ));
            }
        }
        *shown = None;
        return;
    }
    let selection = selected.0.and_then(|e| units.get(e).ok()).map(|l| l.coord);
    let now = [selection, hovered.0];
    if *shown == Some(now) {
        return;
    }
    *shown = Some(now);
    for (which, mut tf, mut vis) in &mut art {
        match if which.0 { now[0] } else { now[1] } {
            Some(c) => {
                let centre = layout::hex_center(c);
                tf.translation.x = centre.x;
                tf.translation.y = centre.y;
                vis.set_if_neq(Visibility::Inherited);
            }
            None => {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
}

/// Turn, phase and side to act, for the top bar.
pub fn turn_line(t: &TurnTrack) -> String {
    // The game waits in the Setup step only for a reinforcement's hex.
    let phase = match t.phase {
        crate::world::Phase::Setup => "Reinforcements enter (R 18.0)",
        p => p.name(),
    };
    format!("Turn {} of {} \u{2014} {phase}", t.turn, t.last_turn)
}
