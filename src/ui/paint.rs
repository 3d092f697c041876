//! A small painter over Bevy 2D meshes: circles, rectangles, lines and hexes
//! with shared meshes and one material per colour, so the board batches well.

use std::collections::HashMap;

use bevy::prelude::*;

use super::layout::HEX_RADIUS;

/// Shared meshes and a material per colour.
#[derive(Resource, Default)]
pub struct ArtCache {
    circle: Option<Handle<Mesh>>,
    square: Option<Handle<Mesh>>,
    hexagon: Option<Handle<Mesh>>,
    triangle: Option<Handle<Mesh>>,
    materials: HashMap<[u8; 4], Handle<ColorMaterial>>,
}

pub struct Painter<'a, 'w, 's> {
    pub commands: &'a mut Commands<'w, 's>,
    pub meshes: &'a mut Assets<Mesh>,
    pub materials: &'a mut Assets<ColorMaterial>,
    pub cache: &'a mut ArtCache,
}

impl Painter<'_, '_, '_> {
    pub fn material(&mut self, colour: Color) -> Handle<ColorMaterial> {
        let key = colour.to_srgba().to_u8_array();
        if let Some(h) = self.cache.materials.get(&key) {
            return h.clone();
        }
        let h = self.materials.add(ColorMaterial::from_color(colour));
        self.cache.materials.insert(key, h.clone());
        h
    }

    fn circle_mesh(&mut self) -> Handle<Mesh> {
        if self.cache.circle.is_none() {
            self.cache.circle = Some(self.meshes.add(Circle::new(1.0).mesh().resolution(20)));
        }
        self.cache.circle.clone().unwrap_or_default()
    }

    fn square_mesh(&mut self) -> Handle<Mesh> {
        if self.cache.square.is_none() {
            self.cache.square = Some(self.meshes.add(Rectangle::new(1.0, 1.0)));
        }
        self.cache.square.clone().unwrap_or_default()
    }

    fn hexagon_mesh(&mut self) -> Handle<Mesh> {
        if self.cache.hexagon.is_none() {
            self.cache.hexagon = Some(self.meshes.add(RegularPolygon::new(1.0, 6)));
        }
        self.cache.hexagon.clone().unwrap_or_default()
    }

    fn triangle_mesh(&mut self) -> Handle<Mesh> {
        if self.cache.triangle.is_none() {
            self.cache.triangle = Some(self.meshes.add(Triangle2d::new(
                Vec2::new(0.0, 0.5),
                Vec2::new(-0.5, -0.5),
                Vec2::new(0.5, -0.5),
            )));
        }
        self.cache.triangle.clone().unwrap_or_default()
    }

    /// Spawns a shape; returns its entity so callers can tag or parent it.
    fn shape(&mut self, mesh: Handle<Mesh>, colour: Color, transform: Transform) -> Entity {
        let material = self.material(colour);
        self.commands
            .spawn((Mesh2d(mesh), MeshMaterial2d(material), transform))
            .id()
    }

    pub fn circle(&mut self, centre: Vec2, radius: f32, colour: Color, z: f32) -> Entity {
        let m = self.circle_mesh();
        self.shape(
            m,
            colour,
            Transform::from_translation(centre.extend(z))
                .with_scale(Vec3::new(radius, radius, 1.0)),
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
        let m = self.circle_mesh();
        self.shape(
            m,
            colour,
            Transform::from_translation(centre.extend(z))
                .with_rotation(Quat::from_rotation_z(angle))
                .with_scale(radii.extend(1.0)),
        )
    }

    pub fn rect(&mut self, centre: Vec2, size: Vec2, angle: f32, colour: Color, z: f32) -> Entity {
        let m = self.square_mesh();
        self.shape(
            m,
            colour,
            Transform::from_translation(centre.extend(z))
                .with_rotation(Quat::from_rotation_z(angle))
                .with_scale(size.extend(1.0)),
        )
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
        let m = self.hexagon_mesh();
        self.shape(
            m,
            colour,
            Transform::from_translation(centre.extend(z))
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_6))
                .with_scale(Vec3::new(radius, radius, 1.0)),
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
        let m = self.triangle_mesh();
        self.shape(
            m,
            colour,
            Transform::from_translation(centre.extend(z))
                .with_rotation(Quat::from_rotation_z(angle - std::f32::consts::FRAC_PI_2))
                .with_scale(size.extend(1.0)),
        )
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
        u32::from(col) * 73_856_093 ^ u32::from(row) * 19_349_663 ^ i.wrapping_mul(83_492_791);
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
