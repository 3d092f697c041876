//! A small painter: circles, rectangles, lines, hexes and text. Shapes are
//! gathered into one vertex-coloured mesh per layer (the whole integer part of
//! their z), so the board is a handful of draw calls rather than thousands of
//! entities; text stays as Text2d entities above the layer it labels.

use std::collections::BTreeMap;

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use super::layout::HEX_RADIUS;
use super::render::damage::Parts;

/// The longest piece of a shape's place (`Parts`), in world units: a long
/// diagonal line is covered by boxes of at most this across its longer
/// side instead of one box around all of it.
const PIECE: f32 = 64.0;

/// A shape is cut into pieces for its place when its bounds are more than
/// this many times its area (a diagonal line; not a circle or a hex).
const SPARSE: f32 = 3.0;

/// A layer whose shapes give more places than this is placed by its bounds
/// alone (the map's art: hundreds of shapes, redrawn whole anyway).
const MAX_PARTS: usize = 48;

/// The white materials the batches use; colour is per vertex. The ground's
/// layers are opaque; the overlays' (`z::OVERLAY` and above) are blended,
/// so that Bevy sorts them into the transparent phase above everything
/// else, where `present` draws them apart from the ground.
#[derive(Resource, Default)]
pub struct ArtCache {
    white: Option<Handle<ColorMaterial>>,
    overlay: Option<Handle<ColorMaterial>>,
}

/// Whether a painter's layer (the integer part of its z) is an overlay.
fn overlay_layer(layer: i32) -> bool {
    layer as f32 >= super::board::z::OVERLAY
}

/// The resources a drawing system needs, as one system parameter.
#[derive(bevy::ecs::system::SystemParam)]
pub struct PaintAssets<'w> {
    pub meshes: ResMut<'w, Assets<Mesh>>,
    pub materials: ResMut<'w, Assets<ColorMaterial>>,
    pub cache: ResMut<'w, ArtCache>,
}

impl<'w> PaintAssets<'w> {
    /// A painter drawing with these assets through `commands`.
    pub fn painter<'a, 'cw, 's>(
        &'a mut self,
        commands: &'a mut Commands<'cw, 's>,
    ) -> Painter<'a, 'cw, 's> {
        Painter {
            commands,
            meshes: &mut self.meshes,
            materials: &mut self.materials,
            cache: &mut self.cache,
            batches: BTreeMap::new(),
        }
    }
}

/// A convex polygon waiting to be put in its layer's mesh.
struct Shape {
    z: f32,
    points: Vec<Vec2>,
    colour: [f32; 4],
}

/// Shapes of one layer and the entity that will carry their mesh.
struct Batch {
    entity: Entity,
    shapes: Vec<Shape>,
}

pub struct Painter<'a, 'w, 's> {
    pub commands: &'a mut Commands<'w, 's>,
    pub meshes: &'a mut Assets<Mesh>,
    pub materials: &'a mut Assets<ColorMaterial>,
    pub cache: &'a mut ArtCache,
    batches: BTreeMap<i32, Batch>,
}

impl Painter<'_, '_, '_> {
    /// Adds a shape to its layer; returns the layer's entity.
    fn shape(&mut self, points: Vec<Vec2>, colour: Color, z: f32) -> Entity {
        let layer = z.floor() as i32;
        let batch = match self.batches.get_mut(&layer) {
            Some(b) => b,
            None => {
                let entity = self
                    .commands
                    .spawn((
                        Transform::from_xyz(0.0, 0.0, layer as f32),
                        Visibility::default(),
                    ))
                    .id();
                self.batches.entry(layer).or_insert(Batch {
                    entity,
                    shapes: Vec::new(),
                })
            }
        };
        batch.shapes.push(Shape {
            z,
            points,
            colour: colour.to_linear().to_f32_array(),
        });
        batch.entity
    }

    /// Builds each layer's mesh. Call once, after the last shape.
    pub fn finish(&mut self) {
        let white = match &self.cache.white {
            Some(h) => h.clone(),
            None => {
                let h = self.materials.add(ColorMaterial::from_color(Color::WHITE));
                self.cache.white = Some(h.clone());
                h
            }
        };
        let overlay = match &self.cache.overlay {
            Some(h) => h.clone(),
            None => {
                let h = self.materials.add(ColorMaterial {
                    alpha_mode: bevy::sprite_render::AlphaMode2d::Blend,
                    ..ColorMaterial::from_color(Color::WHITE)
                });
                self.cache.overlay = Some(h.clone());
                h
            }
        };
        for (layer, mut batch) in std::mem::take(&mut self.batches) {
            let material = if overlay_layer(layer) {
                overlay.clone()
            } else {
                white.clone()
            };
            batch.shapes.sort_by(|a, b| a.z.total_cmp(&b.z));
            let parts: Vec<Rect> = batch
                .shapes
                .iter()
                .flat_map(|s| shape_parts(&s.points))
                .take(MAX_PARTS + 1)
                .collect();
            let mut positions: Vec<[f32; 3]> = Vec::new();
            let mut colours: Vec<[f32; 4]> = Vec::new();
            let mut indices: Vec<u32> = Vec::new();
            for s in &batch.shapes {
                let base = positions.len() as u32;
                for p in &s.points {
                    positions.push([p.x, p.y, 0.0]);
                    colours.push(s.colour);
                }
                for i in 1..s.points.len().saturating_sub(1) as u32 {
                    indices.extend([base, base + i, base + i + 1]);
                }
            }
            let n = positions.len();
            let mut mesh = Mesh::new(
                PrimitiveTopology::TriangleList,
                RenderAssetUsages::RENDER_WORLD,
            );
            mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
            mesh.insert_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; n]);
            mesh.insert_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; n]);
            mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colours);
            mesh.insert_indices(Indices::U32(indices));
            let handle = self.meshes.add(mesh);
            let mut entity = self.commands.entity(batch.entity);
            entity.insert((Mesh2d(handle), MeshMaterial2d(material)));
            if parts.len() <= MAX_PARTS {
                entity.insert(Parts(parts));
            }
        }
    }

    fn polygon(n: usize, centre: Vec2, radii: Vec2, angle: f32, start: f32) -> Vec<Vec2> {
        let rot = Vec2::from_angle(angle);
        (0..n)
            .map(|i| {
                let a = start + i as f32 * std::f32::consts::TAU / n as f32;
                centre + rot.rotate(Vec2::new(a.cos() * radii.x, a.sin() * radii.y))
            })
            .collect()
    }

    pub fn circle(&mut self, centre: Vec2, radius: f32, colour: Color, z: f32) -> Entity {
        let n = if radius < 4.0 { 10 } else { 18 };
        self.shape(
            Self::polygon(n, centre, Vec2::splat(radius), 0.0, 0.0),
            colour,
            z,
        )
    }

    pub fn ellipse(
        &mut self,
        centre: Vec2,
        radii: Vec2,
        angle: f32,
        colour: Color,
        z: f32,
    ) -> Entity {
        self.shape(Self::polygon(16, centre, radii, angle, 0.0), colour, z)
    }

    pub fn rect(&mut self, centre: Vec2, size: Vec2, angle: f32, colour: Color, z: f32) -> Entity {
        let rot = Vec2::from_angle(angle);
        let h = size * 0.5;
        let pts = [
            Vec2::new(-h.x, -h.y),
            Vec2::new(h.x, -h.y),
            Vec2::new(h.x, h.y),
            Vec2::new(-h.x, h.y),
        ]
        .into_iter()
        .map(|p| centre + rot.rotate(p))
        .collect();
        self.shape(pts, colour, z)
    }

    /// A straight stroke from `a` to `b`.
    pub fn line(&mut self, a: Vec2, b: Vec2, width: f32, colour: Color, z: f32) -> Entity {
        let d = b - a;
        self.rect(
            (a + b) * 0.5,
            Vec2::new(d.length(), width),
            d.y.atan2(d.x),
            colour,
            z,
        )
    }

    /// A flat-topped hexagon of the given circumradius.
    pub fn hexagon(&mut self, centre: Vec2, radius: f32, colour: Color, z: f32) -> Entity {
        self.shape(
            Self::polygon(6, centre, Vec2::splat(radius), 0.0, 0.0),
            colour,
            z,
        )
    }

    /// An isosceles triangle pointing along `angle` (0 = east).
    pub fn triangle(
        &mut self,
        centre: Vec2,
        size: Vec2,
        angle: f32,
        colour: Color,
        z: f32,
    ) -> Entity {
        let rot = Vec2::from_angle(angle);
        let pts = [
            Vec2::new(size.y * 0.5, 0.0),
            Vec2::new(-size.y * 0.5, size.x * 0.5),
            Vec2::new(-size.y * 0.5, -size.x * 0.5),
        ]
        .into_iter()
        .map(|p| centre + rot.rotate(p))
        .collect();
        self.shape(pts, colour, z)
    }

    pub fn text(
        &mut self,
        text: impl Into<String>,
        at: Vec2,
        size: f32,
        colour: Color,
        z: f32,
    ) -> Entity {
        self.commands
            .spawn((
                Text2d::new(text.into()),
                TextFont {
                    font_size: bevy::text::FontSize::Px(size),
                    ..default()
                },
                TextColor(colour),
                Transform::from_translation(at.extend(z)),
            ))
            .id()
    }
}

/// A shape's places for `Parts`: its bounds, or for a long shape that
/// fills little of them (a diagonal line) its bounds within strips of at
/// most `PIECE` across its longer side.
fn shape_parts(points: &[Vec2]) -> Vec<Rect> {
    let Some(first) = points.first() else {
        return Vec::new();
    };
    let bounds = points
        .iter()
        .fold(Rect::from_center_size(*first, Vec2::ZERO), |r, p| {
            r.union_point(*p)
        });
    let size = bounds.size();
    let long = size.x.max(size.y);
    // Twice the polygon's area (shoelace).
    let twice: f32 = points
        .iter()
        .zip(points.iter().cycle().skip(1))
        .map(|(p, q)| p.perp_dot(*q))
        .sum();
    if long <= PIECE || size.x * size.y <= SPARSE * 0.5 * twice.abs() {
        return vec![bounds];
    }
    // Along x or y: swap the axes so that the strips run across x.
    let across_x = size.x >= size.y;
    let flip = |v: Vec2| if across_x { v } else { Vec2::new(v.y, v.x) };
    let pts: Vec<Vec2> = points.iter().map(|p| flip(*p)).collect();
    let (x0, x1) = if across_x {
        (bounds.min.x, bounds.max.x)
    } else {
        (bounds.min.y, bounds.max.y)
    };
    let strips = (long / PIECE).ceil();
    (0..strips as u32)
        .filter_map(|i| {
            let a = x0 + (x1 - x0) * i as f32 / strips;
            let b = x0 + (x1 - x0) * (i + 1) as f32 / strips;
            strip_bounds(&pts, a, b).map(|r| Rect::from_corners(flip(r.min), flip(r.max)))
        })
        .collect()
}

/// The bounds of the part of a polygon between x = `a` and x = `b`: its
/// corners between them and where its edges cross them.
fn strip_bounds(points: &[Vec2], a: f32, b: f32) -> Option<Rect> {
    let mut out: Option<Rect> = None;
    let mut add = |p: Vec2| {
        out = Some(out.map_or(Rect::from_center_size(p, Vec2::ZERO), |r| r.union_point(p)));
    };
    for (p, q) in points.iter().zip(points.iter().cycle().skip(1)) {
        if (a..=b).contains(&p.x) {
            add(*p);
        }
        for x in [a, b] {
            if (p.x - x) * (q.x - x) < 0.0 {
                add(p.lerp(*q, (x - p.x) / (q.x - p.x)));
            }
        }
    }
    out
}

/// A repeatable pseudo-random number in 0..1 for a hex and an index, so the
/// same map always gets the same trees.
pub fn jitter(col: u8, row: u8, i: u32) -> f32 {
    let mut x =
        (u32::from(col) * 73_856_093) ^ (u32::from(row) * 19_349_663) ^ i.wrapping_mul(83_492_791);
    x ^= x >> 13;
    x = x.wrapping_mul(0x5bd1_e995);
    x ^= x >> 15;
    (x % 10_000) as f32 / 10_000.0
}

/// Points scattered inside a hex (within `fraction` of its radius).
pub fn scatter(col: u8, row: u8, n: u32, fraction: f32, salt: u32) -> Vec<Vec2> {
    (0..n)
        .map(|i| {
            let a = jitter(col, row, i * 2 + salt) * std::f32::consts::TAU;
            let r = jitter(col, row, i * 2 + 1 + salt).sqrt() * HEX_RADIUS * fraction;
            Vec2::new(a.cos() * r, a.sin() * r)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::board::z;

    #[test]
    fn the_hover_layers_are_overlays_and_the_ground_is_not() {
        // The hover outline, the LOS thread and the decision marks.
        for at in [z::HOVER, z::HOVER + 0.5, z::HOVER + 1.0, z::HOVER + 2.0] {
            assert!(overlay_layer(at.floor() as i32), "{at}");
        }
        // Smoke (HOVER - 2), the markers' chips, the counters, the map.
        for at in [z::HOVER - 2.0, 30.0, z::COUNTER, z::COUNTER - 1.0, z::HEX] {
            assert!(!overlay_layer(at.floor() as i32), "{at}");
        }
    }

    /// The corners of the rectangle a painter's `line` draws.
    fn line(a: Vec2, b: Vec2, width: f32) -> Vec<Vec2> {
        let d = b - a;
        let n = d.perp().normalize() * width * 0.5;
        vec![a - n, b - n, b + n, a + n]
    }

    fn covers(parts: &[Rect], p: Vec2) -> bool {
        parts.iter().any(|r| r.inflate(1e-3).contains(p))
    }

    #[test]
    fn a_long_diagonal_line_is_placed_in_pieces_along_it() {
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(640.0, 320.0));
        let pts = line(a, b, 6.0);
        let parts = shape_parts(&pts);
        // Strips of at most 64 across x (the line's ends reach past 0 and
        // 640 by its half-width: 11), each as high as the line rises in it
        // (at most 32) and its width across.
        assert_eq!(parts.len(), 11);
        for r in &parts {
            assert!(r.width() <= 64.0);
            assert!(r.height() < 32.0 + 8.0);
        }
        // Every point of the line is in a piece.
        for i in 0..=100 {
            for s in [-1.0, 0.0, 1.0] {
                let on = a.lerp(b, i as f32 / 100.0) + (b - a).perp().normalize() * 3.0 * s;
                assert!(covers(&parts, on), "{on}");
            }
        }
        // Upright (y longer): strips across y.
        let tall = shape_parts(&line(Vec2::ZERO, Vec2::new(100.0, 400.0), 4.0));
        assert_eq!(tall.len(), 7);
        assert!(tall.iter().all(|r| r.height() <= 400.0 / 7.0 + 4.0));
    }

    #[test]
    fn compact_shapes_are_placed_by_their_bounds() {
        // A level line fills its bounds; a circle most of them; a short
        // diagonal is not worth cutting.
        let level = line(Vec2::ZERO, Vec2::new(600.0, 0.0), 6.0);
        assert_eq!(shape_parts(&level), vec![Rect::new(0.0, -3.0, 600.0, 3.0)]);
        let circle = Painter::polygon(18, Vec2::new(5.0, 5.0), Vec2::splat(100.0), 0.0, 0.0);
        assert_eq!(shape_parts(&circle).len(), 1);
        assert_eq!(
            shape_parts(&line(Vec2::ZERO, Vec2::splat(40.0), 6.0)).len(),
            1
        );
        assert!(shape_parts(&[]).is_empty());
    }
}
