//! Where hexes are on screen: hexx's flat layout, rows growing downward.

use bevy::prelude::*;
use hexx::{Hex, HexLayout, HexOrientation};

use crate::scenario::Coord;
use crate::scenario::coords::side_vector;
use crate::scenario::schema::{Side6, Spine};

/// Centre-to-corner size of a hex in world units.
pub const HEX_RADIUS: f32 = 50.0;

/// The map layout: flat-topped hexes, row numbers growing downward.
pub fn layout() -> HexLayout {
    let mut l = HexLayout {
        orientation: HexOrientation::Flat,
        origin: Vec2::ZERO,
        scale: Vec2::splat(HEX_RADIUS),
    };
    l.invert_y();
    l
}

pub fn hex_center(c: Coord) -> Vec2 {
    layout().hex_to_world_pos(c.hex())
}

fn hex_center_raw(h: Hex) -> Vec2 {
    layout().hex_to_world_pos(h)
}

/// The six corners of a hex.
pub fn corners(c: Coord) -> [Vec2; 6] {
    layout().hex_corners(c.hex())
}

/// Midpoint of a hexside.
pub fn side_midpoint(c: Coord, side: Side6) -> Vec2 {
    (hex_center(c) + hex_center_raw(c.hex() + side_vector(side))) * 0.5
}

/// The two ends of a hexside.
pub fn side_ends(c: Coord, side: Side6) -> (Vec2, Vec2) {
    let centre = hex_center(c);
    let mid = side_midpoint(c, side);
    let along = (mid - centre).perp().normalize_or_zero() * (HEX_RADIUS * 0.5);
    (mid - along, mid + along)
}

/// The corner a hexspine names.
pub fn spine_point(c: Coord, spine: Spine) -> Vec2 {
    let centre = hex_center(c);
    let [a, b] = spine.sides();
    let dir = ((side_midpoint(c, a) - centre) + (side_midpoint(c, b) - centre)).normalize_or_zero();
    centre + dir * HEX_RADIUS
}

/// The hex under a world position, if it is on the map.
pub fn coord_at(pos: Vec2, columns: u8, rows: u8) -> Option<Coord> {
    Coord::from_hex(layout().world_pos_to_hex(pos), columns, rows)
}

/// World rectangle covering the whole map.
pub fn map_bounds(columns: u8, rows: u8) -> Rect {
    let mut r = Rect::EMPTY;
    for c in [
        Coord::new(0, 0),
        Coord::new(columns.saturating_sub(1), 0),
        Coord::new(0, rows.saturating_sub(1)),
        Coord::new(columns.saturating_sub(1), rows.saturating_sub(1)),
    ] {
        for p in corners(c) {
            r = r.union_point(p);
        }
        let below = hex_center(c) + Vec2::new(0.0, -HEX_RADIUS);
        r = r.union_point(below);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_grow_downward_and_b_sits_lower() {
        let a1 = hex_center(Coord::new(0, 0));
        let a2 = hex_center(Coord::new(0, 1));
        let b1 = hex_center(Coord::new(1, 0));
        assert!(a2.y < a1.y, "row 2 is below row 1");
        assert!(
            b1.x > a1.x && b1.y < a1.y,
            "B1 is east of and lower than A1"
        );
        assert_eq!(coord_at(b1, 16, 12), Some(Coord::new(1, 0)));
    }

    #[test]
    fn spines_sit_between_their_sides() {
        let c = Coord::new(2, 2);
        let centre = hex_center(c);
        let ne = spine_point(c, Spine::Ne) - centre;
        assert!(ne.x > 0.0 && ne.y > 0.0, "NE spine is up and right: {ne:?}");
        let e = spine_point(c, Spine::E) - centre;
        assert!(
            (e.y).abs() < 0.01 && e.x > 0.0,
            "E spine is due east: {e:?}"
        );
    }
}
