//! The night drawn (R 50.0-50.2): in a Night scenario the board is dark
//! beyond the Visibility Range of every unit of the side whose eyes the
//! board shows; Illuminated hexes glow around their Illumination counters
//! (R 50.1), and units whose Muzzle Flash gave them away this turn are
//! ringed (R 50.2). What is dark comes from `rules::night::NightScene`,
//! the same question the engine asks before any fire.

use bevy::prelude::*;

use crate::engine::night::{Illumination, MuzzleFlashed};
use crate::rules::night::NightScene;
use crate::scenario::Coord;
use crate::scenario::schema::{Side6, SideId};
use crate::world::{ActiveScenario, AidRes, Location, Unit, Viewer};

use super::board::z;
use super::layout::{HEX_RADIUS, hex_center, side_ends};
use super::paint::PaintAssets;

/// Art of the night overlay, redrawn when the position changes.
#[derive(Component)]
pub struct NightArt;

/// What the overlay was last drawn for.
#[derive(Resource, Debug, Default, Clone)]
pub struct NightDrawn {
    key: Option<NightKey>,
    /// The see-through material of the overlay (the painter's own is
    /// opaque).
    blend: Option<Handle<ColorMaterial>>,
}

#[derive(Debug, Clone, PartialEq)]
struct NightKey {
    viewer: SideId,
    units: Vec<(SideId, Coord)>,
    lit: Vec<Coord>,
    flashes: Vec<Coord>,
}

const DARK: Color = Color::srgba(0.01, 0.02, 0.08, 0.74);
const GLOW: Color = Color::srgba(1.0, 0.86, 0.35, 0.20);
const FLARE: Color = Color::srgb(1.0, 0.93, 0.55);
const FLASH: Color = Color::srgb(1.0, 0.45, 0.10);

/// Above the board's art and Fortifications, below the counters.
const Z_DARK: f32 = z::COUNTER - 1.0;

#[allow(clippy::too_many_arguments)]
pub fn draw_night(
    mut commands: Commands,
    mut paint: PaintAssets,
    active: Res<ActiveScenario>,
    aid: Res<AidRes>,
    viewer: Option<Res<Viewer>>,
    illumination: Option<Res<Illumination>>,
    units: Query<(&Unit, &Location)>,
    flashed: Query<&Location, With<MuzzleFlashed>>,
    mut drawn: ResMut<NightDrawn>,
    old: Query<Entity, With<NightArt>>,
) {
    let Some(night) = active.scenario.special_rules.night else {
        return;
    };
    let mut placed: Vec<(SideId, Coord)> = units.iter().map(|(u, l)| (u.side, l.coord)).collect();
    placed.sort_by_key(|(s, c)| (s.index(), *c));
    let mut flashes: Vec<Coord> = flashed.iter().map(|l| l.coord).collect();
    flashes.sort();
    let key = NightKey {
        viewer: viewer.map_or(SideId::Allies, |v| v.0),
        units: placed,
        lit: illumination.map(|i| i.0.clone()).unwrap_or_default(),
        flashes,
    };
    if drawn.key.as_ref() == Some(&key) {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let mut scene = NightScene::new(&aid.0.night, night.visibility_range);
    scene.illumination = key.lit.clone();
    let map = &active.scenario.map;
    let seen = scene.sides(map.columns, map.rows, &key.units)[key.viewer.index()].clone();
    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    for col in 0..map.columns {
        for row in 0..map.rows {
            let c = Coord::new(col, row);
            let centre = hex_center(c);
            if !seen.contains(&c) {
                spawned.push(p.hexagon(centre, HEX_RADIUS, DARK, Z_DARK));
            } else if scene.illuminated(c) {
                spawned.push(p.hexagon(centre, HEX_RADIUS, GLOW, Z_DARK));
            }
        }
    }
    // The Illumination counters: a flare over the hex (R 50.1).
    for c in &key.lit {
        let at = hex_center(*c) + Vec2::new(0.0, HEX_RADIUS * 0.55);
        spawned.push(p.circle(at, 13.0, Color::BLACK.with_alpha(0.7), Z_DARK + 0.1));
        spawned.push(p.circle(at, 10.0, FLARE, Z_DARK + 0.2));
        for i in 0..4 {
            let d = Vec2::from_angle(std::f32::consts::FRAC_PI_4 * i as f32) * 17.0;
            spawned.push(p.line(at - d, at + d, 2.5, FLARE, Z_DARK + 0.15));
        }
    }
    // Units given away by their Muzzle Flash: the hex ringed (R 50.2).
    for c in &key.flashes {
        for side in Side6::ALL {
            let (a, b) = side_ends(*c, side);
            spawned.push(p.line(a, b, 6.0, FLASH, Z_DARK + 0.3));
        }
    }
    p.finish();
    let blend = drawn
        .blend
        .get_or_insert_with(|| {
            p.materials.add(ColorMaterial {
                color: Color::WHITE,
                alpha_mode: bevy::sprite_render::AlphaMode2d::Blend,
                ..default()
            })
        })
        .clone();
    spawned.sort();
    spawned.dedup();
    for e in spawned {
        p.commands
            .entity(e)
            .insert((NightArt, MeshMaterial2d(blend.clone())));
    }
    drawn.key = Some(key);
}
