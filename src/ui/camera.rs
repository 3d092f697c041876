//! The board camera: fit the map between the panels, pan (drag, arrow keys,
//! WASD) and zoom (wheel, + and −) around the cursor.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;

use crate::world::BoardRes;

use super::layout::map_bounds;

#[derive(Component)]
pub struct BoardCamera;

/// Widths of the egui panels in logical pixels, so the map fits between them.
#[derive(Resource, Debug, Default, Clone)]
pub struct PanelInsets {
    pub left: f32,
    pub right: f32,
    pub top: f32,
    pub bottom: f32,
    /// Fit the map again on the next frame.
    pub refit: bool,
    fitted_to: Option<[f32; 4]>,
}

/// Whether the current mouse press has become a drag (so release is not a click).
#[derive(Resource, Debug, Default)]
pub struct DragState {
    pub dragged: bool,
    travelled: f32,
}

pub fn spawn_camera(mut commands: Commands) {
    // No MSAA: on software Vulkan (llvmpipe) it quadruples the fill cost.
    commands.spawn((Camera2d, BoardCamera, Msaa::Off));
    commands.init_resource::<DragState>();
}

/// Fits the whole map in the space between the panels: at start, when the
/// panels change size, and on Home/F.
pub fn fit_when_panels_settle(
    mut insets: ResMut<PanelInsets>,
    windows: Query<&Window>,
    board: Res<BoardRes>,
    shot: Option<Res<crate::app::ScreenshotRequest>>,
    hovered: Res<super::Hovered>,
    mut cam: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let key = [insets.left, insets.right, insets.top, insets.bottom];
    if !insets.refit && insets.fitted_to == Some(key) {
        return;
    }
    let Ok(window) = windows.single() else {
        return;
    };
    let Ok((mut tf, mut proj)) = cam.single_mut() else {
        return;
    };
    let bounds = map_bounds(board.0.columns, board.0.rows);
    let avail = Vec2::new(
        (window.width() - insets.left - insets.right).max(100.0),
        (window.height() - insets.top - insets.bottom).max(100.0),
    );
    let margin = 1.04;
    let scale = (bounds.width() * margin / avail.x).max(bounds.height() * margin / avail.y);
    if let Projection::Orthographic(o) = &mut *proj {
        o.scale = scale;
    }
    // Centre the map in the free area: shift by half the inset difference.
    let shift = Vec2::new(
        (insets.right - insets.left) * 0.5 * scale,
        (insets.top - insets.bottom) * 0.5 * scale,
    );
    let mut c = bounds.center() + shift;
    // `bob screenshot --zoom Z --hover HEX`: a close look at one place.
    if let Some(shot) = shot.filter(|s| s.zoom != 1.0) {
        let s = scale / shot.zoom;
        if let Projection::Orthographic(o) = &mut *proj {
            o.scale = s;
        }
        let focus = hovered.0.map_or(bounds.center(), super::layout::hex_center);
        c = focus + shift * (s / scale);
    }
    tf.translation.x = c.x;
    tf.translation.y = c.y;
    insets.fitted_to = Some(key);
    insets.refit = false;
}

#[allow(clippy::too_many_arguments)]
pub fn camera_controls(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    time: Res<Time>,
    windows: Query<&Window>,
    mut cam: Query<(&Camera, &GlobalTransform, &mut Transform, &mut Projection), With<BoardCamera>>,
    mut drag: ResMut<DragState>,
    mut egui: bevy_egui::EguiContexts,
    facing: Option<Res<super::facing::FacingDrag>>,
) {
    let Ok((camera, gtf, mut tf, mut proj)) = cam.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = &mut *proj else {
        return;
    };
    let egui_wants = egui
        .ctx_mut()
        .map(|c| c.is_pointer_over_egui() || c.egui_wants_pointer_input())
        .unwrap_or(false);
    let egui_keys = egui
        .ctx_mut()
        .map(|c| c.egui_wants_keyboard_input())
        .unwrap_or(false);

    // Keyboard pan and zoom.
    if !egui_keys {
        let mut d = Vec2::ZERO;
        if keys.any_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]) {
            d.x -= 1.0;
        }
        if keys.any_pressed([KeyCode::ArrowRight, KeyCode::KeyD]) {
            d.x += 1.0;
        }
        if keys.any_pressed([KeyCode::ArrowUp, KeyCode::KeyW]) {
            d.y += 1.0;
        }
        if keys.any_pressed([KeyCode::ArrowDown, KeyCode::KeyS]) {
            d.y -= 1.0;
        }
        let speed = 700.0 * o.scale * time.delta_secs();
        tf.translation += (d * speed).extend(0.0);
        if keys.pressed(KeyCode::Equal) || keys.pressed(KeyCode::NumpadAdd) {
            o.scale = (o.scale * (1.0 - time.delta_secs())).max(0.2);
        }
        if keys.pressed(KeyCode::Minus) || keys.pressed(KeyCode::NumpadSubtract) {
            o.scale = (o.scale * (1.0 + time.delta_secs())).min(6.0);
        }
    }

    // Drag to pan.
    if buttons.just_pressed(MouseButton::Left)
        || buttons.just_pressed(MouseButton::Right)
        || buttons.just_pressed(MouseButton::Middle)
    {
        drag.dragged = false;
        drag.travelled = 0.0;
    }
    let held = buttons.any_pressed([MouseButton::Left, MouseButton::Right, MouseButton::Middle]);
    if held && !egui_wants && motion.delta != Vec2::ZERO {
        drag.travelled += motion.delta.length();
        if drag.travelled > 4.0 {
            drag.dragged = true;
        }
        // A drag from the selected unit turns it (`facing`), not the map.
        if drag.dragged && !facing.as_ref().is_some_and(|f| f.active) {
            tf.translation.x -= motion.delta.x * o.scale;
            tf.translation.y += motion.delta.y * o.scale;
        }
    }

    // Wheel zoom around the cursor.
    if scroll.delta.y != 0.0 && !egui_wants {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        let factor = (1.0 - 0.12 * lines).clamp(0.5, 1.5);
        let cursor_world = windows
            .single()
            .ok()
            .and_then(|w| w.cursor_position())
            .and_then(|p| camera.viewport_to_world_2d(gtf, p).ok());
        let new_scale = (o.scale * factor).clamp(0.2, 6.0);
        if let Some(cw) = cursor_world {
            let k = new_scale / o.scale;
            let cam_pos = tf.translation.truncate();
            let moved = cw + (cam_pos - cw) * k;
            tf.translation.x = moved.x;
            tf.translation.y = moved.y;
        }
        o.scale = new_scale;
    }
}
