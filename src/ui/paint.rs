//! A small painter: circles, rectangles, lines, hexes and text. Shapes are
//! gathered into one vertex-coloured mesh per layer (the whole integer part of
//! their z), so the board is a handful of draw calls rather than thousands of
//! entities; text stays as Text2d entities above the layer it labels.

use std::collections::BTreeMap;

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use super::layout::HEX_RADIUS;

/// The one white material every batch uses; colour is per vertex.
#[derive(Resource, Default)]
pub struct ArtCache {
    white: Option<Handle<ColorMaterial>>,
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
        for (_, mut batch) in std::mem::take(&mut self.batches) {
            batch.shapes.sort_by(|a, b| a.z.total_cmp(&b.z));
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
            self.commands
                .entity(batch.entity)
                .insert((Mesh2d(handle), MeshMaterial2d(white.clone())));
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
