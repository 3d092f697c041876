//! The LOS tool: press `L` over a hex to anchor the thread there; the thread
//! to the hex under the mouse is drawn clear (green), hindered (amber, with
//! the hindering hexes ringed) or blocked (red past the blocking hex), and
//! the panel names the blocker and its rule (R 14.0, R 44.0, R 46.0, R 47.2).

use bevy::prelude::*;

use crate::rules::los::{Los, LosQuery, line_of_sight};
use crate::scenario::Coord;
use crate::world::{AidRes, BoardRes};

use super::Hovered;
use super::board::z;
use super::layout::hex_center;
use super::paint::PaintAssets;

/// The anchored end of the thread, and the last answer.
#[derive(Resource, Debug, Default, Clone)]
pub struct LosTool {
    pub from: Option<Coord>,
    pub result: Option<(Coord, Coord, Los)>,
}

#[derive(Component)]
pub struct LosArt;

const CLEAR: Color = Color::srgb(0.20, 0.85, 0.30);
const HINDERED: Color = Color::srgb(1.0, 0.72, 0.15);
const BLOCKED: Color = Color::srgb(0.95, 0.15, 0.12);

/// `L` anchors the thread at the hovered hex (again to move it); `Escape`
/// puts the tool away.
pub fn los_keys(
    keys: Res<ButtonInput<KeyCode>>,
    hovered: Res<Hovered>,
    mut tool: ResMut<LosTool>,
    panel: Option<Res<super::decide::DecisionPanel>>,
) {
    if keys.just_pressed(KeyCode::KeyL) {
        tool.from = hovered.0;
    }
    let question = panel.is_some_and(|p| p.view.is_some());
    if keys.just_pressed(KeyCode::Escape)
        && super::act::escape_goes_to(question, tool.from.is_some(), false)
            == super::act::Escape::PutAwayLos
    {
        tool.from = None;
    }
}

pub fn draw_los(
    mut commands: Commands,
    mut paint: PaintAssets,
    hovered: Res<Hovered>,
    board: Res<BoardRes>,
    aid: Res<AidRes>,
    mut tool: ResMut<LosTool>,
    old: Query<Entity, With<LosArt>>,
) {
    if !hovered.is_changed() && !tool.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(from), Some(to)) = (tool.from, hovered.0) else {
        tool.result = None;
        return;
    };
    if from == to {
        tool.result = None;
        return;
    }
    let los = line_of_sight(&board.0, &aid.0, &LosQuery::new(from, to));
    let (a, b) = (hex_center(from), hex_center(to));
    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    let zl = z::HOVER + 1.0;
    spawned.push(p.circle(a, 7.0, Color::BLACK, zl));
    match &los {
        Los::Seen(s) => {
            let colour = if s.is_clear() { CLEAR } else { HINDERED };
            spawned.push(p.line(a, b, 6.0, Color::BLACK, zl));
            spawned.push(p.line(a, b, 3.5, colour, zl + 0.1));
            for h in &s.hindering_hexes {
                let c = hex_center(*h);
                spawned.push(p.circle(c, 11.0, HINDERED, zl + 0.2));
                spawned.push(p.circle(c, 8.0, Color::BLACK.with_alpha(0.6), zl + 0.3));
            }
            spawned.push(p.circle(b, 8.0, colour, zl + 0.2));
        }
        Los::Blocked { at, reason } => {
            // The blocking hex ringed, with the reason beside it.
            let c = hex_center(*at);
            for side in crate::scenario::schema::Side6::ALL {
                let (a1, b1) = super::layout::side_ends(*at, side);
                spawned.push(p.line(a1, b1, 8.0, Color::BLACK, zl + 0.3));
                spawned.push(p.line(a1, b1, 5.0, BLOCKED, zl + 0.4));
            }
            let text = format!("blocked: {}", super::dialogs::ascii(&reason.describe()));
            let label_at = c + Vec2::new(0.0, -super::layout::HEX_RADIUS * 1.15);
            let width = 8.8 * text.chars().count() as f32 + 14.0;
            spawned.push(p.rect(
                label_at,
                Vec2::new(width, 22.0),
                0.0,
                Color::BLACK.with_alpha(0.85),
                zl + 0.5,
            ));
            spawned.push(p.text(text, label_at, 15.0, BLOCKED, zl + 0.6));
            // Split the thread where it passes the blocking hex.
            let ab = b - a;
            let t = ((hex_center(*at) - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
            let stop = a + ab * t;
            spawned.push(p.line(a, b, 6.0, Color::BLACK, zl));
            spawned.push(p.line(a, stop, 3.5, CLEAR, zl + 0.1));
            spawned.push(p.line(stop, b, 3.5, BLOCKED, zl + 0.1));
            let d = 9.0;
            spawned.push(p.line(
                stop + Vec2::new(-d, -d),
                stop + Vec2::new(d, d),
                4.0,
                BLOCKED,
                zl + 0.2,
            ));
            spawned.push(p.line(
                stop + Vec2::new(-d, d),
                stop + Vec2::new(d, -d),
                4.0,
                BLOCKED,
                zl + 0.2,
            ));
        }
    }
    spawned.push(p.circle(a, 5.0, CLEAR, zl + 0.3));
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert(LosArt);
    }
    tool.result = Some((from, to, los));
}
