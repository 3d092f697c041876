//! Facing by hand (R 2.2): `Q` and `E` turn the selected unit one hexspine
//! to the left or to the right, and a drag from the unit toward a hexspine
//! points it there.
//!
//! The engine takes a facing only with an order: as the unit is marked Op
//! Fire (R 4.3), as it fires (R 6.0, -1 FP for the turn) or at the end of
//! its move (R 2.2). So a turn by hand is held as the unit's *planned*
//! facing: drawn on the board, named on the hex card, and given with the
//! unit's next Op Fire mark, fire order or move (`with_plan`). A unit that
//! may do none of these now does not turn, and the log says why (marking it
//! Used does not turn Infantry: see `docs/decisions.md`).

use bevy::prelude::*;

use crate::engine::Order;
use crate::scenario::schema::Spine;
use crate::world::{Facing, Location, Unit};

use super::act::Action;
use super::layout::{HEX_RADIUS, hex_center, spine_point};
use super::{Hovered, Selected};

/// The facing the selected unit will take with its next Op Fire mark, fire
/// order or move (at the end of the move).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FacingPlan {
    pub unit: Option<Entity>,
    pub facing: Option<Spine>,
    /// The orders accepted when it was planned: any accepted order since
    /// ends it (the unit has acted or the position changed).
    pub orders: u64,
}

impl FacingPlan {
    /// The planned facing of `unit`, if it has one.
    pub fn of(&self, unit: Entity) -> Option<Spine> {
        self.facing.filter(|_| self.unit == Some(unit))
    }
}

/// A turn asked by a key or a drag, carried out once a frame.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum TurnRequest {
    #[default]
    None,
    /// Hexspines to turn: +1 to the left (counter-clockwise, `Q`), -1 to
    /// the right (`E`).
    By(i32),
    /// Face this hexspine (a drag).
    Toward(Spine),
}

/// A drag that started on the selected unit: it turns the unit instead of
/// panning the map.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct FacingDrag {
    pub active: bool,
}

/// `from` turned `steps` hexspines, counter-clockwise for positive steps.
pub fn turned(from: Spine, steps: i32) -> Spine {
    let i = Spine::ALL.iter().position(|s| *s == from).unwrap_or(0) as i32;
    Spine::ALL[(i + steps).rem_euclid(Spine::ALL.len() as i32) as usize]
}

/// The hexspine of a unit in `unit` nearest the direction to `to` (world
/// coordinates).
pub fn spine_toward(unit: crate::scenario::Coord, to: Vec2) -> Option<Spine> {
    let centre = hex_center(unit);
    let d = to - centre;
    if d.length() < HEX_RADIUS * 0.3 {
        return None;
    }
    Spine::ALL.into_iter().max_by(|a, b| {
        let da = (spine_point(unit, *a) - centre).dot(d);
        let db = (spine_point(unit, *b) - centre).dot(d);
        da.total_cmp(&db)
    })
}

/// Why the selected unit may not turn now (`None`: it may): facing is not
/// in use in this scenario (R 2.2), or the unit may neither be marked Op
/// Fire (R 4.3), nor fire (R 6.0), nor move (R 2.2: it adopts the facing
/// at the end of its move) now, by the engine's check.
pub fn why_not(world: &mut World, unit: &str) -> Option<String> {
    if !crate::engine::fire::facing_in_use(world) {
        return Some("this scenario does not use Infantry facing (R 2.2)".into());
    }
    let op_fire = super::act::refusal(world, Action::OpFire, Some(unit))?;
    super::act::refusal(world, Action::Fire, Some(unit))?;
    super::act::refusal(world, Action::Move, Some(unit))?;
    Some(format!(
        "{unit} turns only as it is marked Op Fire (R 4.3), as it fires (R 6.0) or at the end of its move (R 2.2): {op_fire}"
    ))
}

/// `Q` turns the selected unit left, `E` right.
/// While the decision window asks a facing, Q and E are its (`decide`).
pub fn facing_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut req: ResMut<TurnRequest>,
    panel: Res<super::decide::DecisionPanel>,
) {
    if panel.view.as_ref().is_some_and(|v| v.facing) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyQ) {
        *req = TurnRequest::By(1);
    }
    if keys.just_pressed(KeyCode::KeyE) {
        *req = TurnRequest::By(-1);
    }
}

/// A left drag that starts on the selected unit's hex points the unit at
/// the hexspine toward which it is released (the map does not pan).
#[allow(clippy::too_many_arguments)]
pub fn facing_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    units: Query<&Location>,
    windows: Query<&Window>,
    cameras: Query<(&Camera, &GlobalTransform), With<super::camera::BoardCamera>>,
    mut drag: ResMut<FacingDrag>,
    mut req: ResMut<TurnRequest>,
    mut egui: bevy_egui::EguiContexts,
) {
    let at = selected.0.and_then(|e| units.get(e).ok()).map(|l| l.coord);
    if buttons.just_pressed(MouseButton::Left) {
        let over_panel = egui
            .ctx_mut()
            .map(|c| c.is_pointer_over_egui())
            .unwrap_or(false);
        drag.active = !over_panel && at.is_some() && at == hovered.0;
    }
    if !drag.active || !buttons.just_released(MouseButton::Left) {
        return;
    }
    drag.active = false;
    let cursor = windows.single().ok().and_then(|w| w.cursor_position());
    let world_pos = cameras
        .single()
        .ok()
        .zip(cursor)
        .and_then(|((camera, tf), p)| camera.viewport_to_world_2d(tf, p).ok());
    if let Some(spine) = at.zip(world_pos).and_then(|(c, p)| spine_toward(c, p)) {
        *req = TurnRequest::Toward(spine);
    }
}

/// Carries out this frame's turn on the selected unit, when it may turn;
/// otherwise the log shows why not. A plan for another unit is dropped when
/// the selection changes, and a plan is done once the unit has taken it.
pub fn apply_turn(world: &mut World) {
    let req = std::mem::take(&mut *world.resource_mut::<TurnRequest>());
    let selected = world.resource::<Selected>().0;
    let plan = *world.resource::<FacingPlan>();
    let orders = world.resource::<super::act::OrderCount>().0;
    let current = selected.and_then(|e| world.get::<Facing>(e).map(|f| f.0));
    if plan.unit.is_some()
        && (plan.unit != selected || plan.facing == current || plan.orders != orders)
    {
        *world.resource_mut::<FacingPlan>() = FacingPlan::default();
    }
    if req == TurnRequest::None {
        return;
    }
    let Some((e, id)) = selected.and_then(|e| world.get::<Unit>(e).map(|u| (e, u.id.clone())))
    else {
        world.resource_mut::<super::orders::GameLog>().refusal =
            Some("select a unit to turn it".into());
        return;
    };
    if let Some(why) = why_not(world, &id) {
        world.resource_mut::<super::orders::GameLog>().refusal = Some(why);
        return;
    }
    let from = world.resource::<FacingPlan>().of(e).or(current);
    let to = match req {
        TurnRequest::By(steps) => turned(from.unwrap_or(Spine::E), steps),
        TurnRequest::Toward(s) => s,
        TurnRequest::None => return,
    };
    *world.resource_mut::<FacingPlan>() = if Some(to) == current {
        FacingPlan::default()
    } else {
        FacingPlan {
            unit: Some(e),
            facing: Some(to),
            orders,
        }
    };
    world.resource_mut::<super::orders::GameLog>().refusal = None;
}

/// The order with the planned facing of its unit, for an Op Fire mark or a
/// fire order (the orders whose facing the engine takes).
pub fn with_plan(world: &World, mut order: Order) -> Order {
    let plan = *world.resource::<FacingPlan>();
    let (Some(e), Some(spine)) = (plan.unit, plan.facing) else {
        return order;
    };
    let Some(planned_id) = world.get::<Unit>(e).map(|u| u.id.clone()) else {
        return order;
    };
    match &mut order {
        Order::MarkOpFire { unit, facing }
        | Order::Fire { unit, facing, .. }
        | Order::Move { unit, facing, .. }
            if *unit == planned_id =>
        {
            *facing = Some(spine);
        }
        _ => {}
    }
    order
}

/// What the hex card says of a unit's facing: its facing and the planned
/// turn.
pub fn facing_words(facing: Option<Spine>, planned: Option<Spine>) -> String {
    match (facing, planned) {
        (Some(f), Some(p)) => format!(", facing {f:?}, turning to {p:?} (Q/E)"),
        (None, Some(p)) => format!(", turning to {p:?} (Q/E)"),
        (Some(f), None) => format!(", facing {f:?}"),
        (None, None) => String::new(),
    }
}

#[derive(Component)]
pub struct PlanArt;

/// The planned facing drawn on the board: an arrow toward its hexspine.
pub fn draw_plan(
    mut commands: Commands,
    plan: Res<FacingPlan>,
    units: Query<&Location>,
    old: Query<Entity, With<PlanArt>>,
    mut paint: super::paint::PaintAssets,
) {
    if !plan.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some((c, spine)) = plan
        .unit
        .and_then(|e| units.get(e).ok())
        .map(|l| l.coord)
        .zip(plan.facing)
    else {
        return;
    };
    let mut p = paint.painter(&mut commands);
    let spawned = arrow(&mut p, c, spine);
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert(PlanArt);
    }
}

/// An arrow from the centre of `c` toward its hexspine `spine`: a planned
/// facing (the caller calls `finish`).
pub fn arrow(
    p: &mut super::paint::Painter,
    c: crate::scenario::Coord,
    spine: Spine,
) -> [Entity; 4] {
    let centre = hex_center(c);
    let dir = (spine_point(c, spine) - centre).normalize_or_zero();
    let angle = dir.y.atan2(dir.x);
    let z = super::board::z::HOVER + 2.0;
    let tip = centre + dir * HEX_RADIUS * 0.78;
    [
        p.line(centre, tip, 7.0, Color::BLACK, z),
        p.line(centre, tip, 4.0, super::palette::HOVER, z + 0.1),
        p.triangle(tip, Vec2::new(20.0, 16.0), angle, Color::BLACK, z + 0.2),
        p.triangle(
            tip,
            Vec2::new(14.0, 11.0),
            angle,
            super::palette::HOVER,
            z + 0.3,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Coord;

    #[test]
    fn q_and_e_turn_one_hexspine_each_way_and_come_round() {
        assert_eq!(turned(Spine::E, 1), Spine::Ne);
        assert_eq!(turned(Spine::E, -1), Spine::Se);
        assert_eq!(turned(Spine::Se, 1), Spine::E);
        assert_eq!(turned(Spine::W, 6), Spine::W);
    }

    #[test]
    fn a_drag_points_at_the_nearest_hexspine() {
        let c = Coord::new(3, 3);
        for s in Spine::ALL {
            let far = hex_center(c) + (spine_point(c, s) - hex_center(c)) * 3.0;
            assert_eq!(spine_toward(c, far), Some(s));
        }
        // Released on the unit itself: no turn.
        assert_eq!(spine_toward(c, hex_center(c)), None);
    }
}
