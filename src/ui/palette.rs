//! Colours of the board and counters. Presentation only: no rule reads these.

use bevy::prelude::*;

use crate::scenario::schema::{Nationality, Terrain, Theater};

pub const TABLE: Color = Color::srgb(0.17, 0.16, 0.14);
pub const GRID: Color = Color::srgba(0.10, 0.10, 0.08, 0.55);
pub const LABEL: Color = Color::srgba(0.08, 0.08, 0.06, 0.85);
pub const HEDGEROW: Color = Color::srgb(0.16, 0.30, 0.10);
pub const HEDGEROW_DARK: Color = Color::srgb(0.09, 0.19, 0.06);
pub const WALL: Color = Color::srgb(0.45, 0.43, 0.40);
pub const CREST: Color = Color::srgb(0.42, 0.26, 0.10);
pub const CLIFF: Color = Color::srgb(0.20, 0.14, 0.10);
pub const ROAD: Color = Color::srgb(0.80, 0.70, 0.52);
pub const ROAD_EDGE: Color = Color::srgb(0.52, 0.43, 0.30);
pub const PATH: Color = Color::srgb(0.66, 0.54, 0.36);
pub const WATER: Color = Color::srgb(0.33, 0.56, 0.78);
pub const WATER_LIGHT: Color = Color::srgb(0.55, 0.74, 0.90);
pub const STONE: Color = Color::srgb(0.62, 0.60, 0.58);
pub const STONE_ROOF: Color = Color::srgb(0.40, 0.36, 0.36);
pub const WOOD_BUILDING: Color = Color::srgb(0.56, 0.38, 0.22);
pub const WOOD_ROOF: Color = Color::srgb(0.36, 0.22, 0.12);
pub const THATCH: Color = Color::srgb(0.72, 0.60, 0.34);
pub const OUTLINE: Color = Color::srgb(0.08, 0.07, 0.06);
pub const TREE: Color = Color::srgb(0.17, 0.38, 0.13);
pub const TREE_DARK: Color = Color::srgb(0.10, 0.25, 0.08);
pub const JUNGLE: Color = Color::srgb(0.08, 0.32, 0.14);
pub const JUNGLE_LIGHT: Color = Color::srgb(0.18, 0.46, 0.18);
pub const ORCHARD_TREE: Color = Color::srgb(0.28, 0.50, 0.18);
pub const WHEAT_LINE: Color = Color::srgb(0.70, 0.56, 0.20);
pub const GRASS_TUFT: Color = Color::srgb(0.55, 0.56, 0.24);
pub const PALM: Color = Color::srgb(0.20, 0.45, 0.16);
pub const SWAMP_REED: Color = Color::srgb(0.25, 0.33, 0.16);
pub const HOVER: Color = Color::srgba(1.0, 0.95, 0.4, 0.9);

/// Base colour of a hex by terrain at its centre dot.
pub fn terrain_base(t: Terrain) -> Color {
    match t {
        Terrain::Open | Terrain::Road => Color::srgb(0.62, 0.70, 0.42),
        Terrain::Orchard => Color::srgb(0.56, 0.68, 0.38),
        Terrain::WheatField => Color::srgb(0.86, 0.77, 0.42),
        Terrain::Woods => Color::srgb(0.36, 0.52, 0.26),
        Terrain::WoodenBuilding | Terrain::StoneBuilding => Color::srgb(0.66, 0.66, 0.50),
        Terrain::Huts => Color::srgb(0.66, 0.62, 0.40),
        Terrain::Jungle => Color::srgb(0.20, 0.42, 0.20),
        Terrain::KunaiGrass => Color::srgb(0.78, 0.76, 0.44),
        Terrain::PalmTrees => Color::srgb(0.70, 0.70, 0.46),
        Terrain::Swamp => Color::srgb(0.40, 0.46, 0.32),
        Terrain::Stream => Color::srgb(0.56, 0.64, 0.40),
        Terrain::Gully => Color::srgb(0.55, 0.50, 0.34),
        Terrain::Surf => Color::srgb(0.55, 0.74, 0.82),
        Terrain::Ocean => Color::srgb(0.22, 0.42, 0.66),
        Terrain::Sandbar => Color::srgb(0.88, 0.82, 0.60),
        Terrain::River => Color::srgb(0.30, 0.52, 0.74),
    }
}

/// Hills are progressively lighter in Europe and darker in the Pacific (R 47.0).
pub fn with_elevation(base: Color, level: u8, theater: Theater) -> Color {
    if level == 0 {
        return base;
    }
    let l = base.to_srgba();
    let k = 0.16 * f32::from(level.min(3));
    let (r, g, b) = match theater {
        Theater::Europe => (
            l.red + (1.0 - l.red) * k,
            l.green + (1.0 - l.green) * k * 0.9,
            l.blue + (1.0 - l.blue) * k * 0.6,
        ),
        Theater::Pacific => (
            l.red * (1.0 - k) + 0.25 * k,
            l.green * (1.0 - k) + 0.18 * k,
            l.blue * (1.0 - k) + 0.08 * k,
        ),
    };
    Color::srgb(r, g, b)
}

/// Counter colours by nationality: (body, text).
pub fn counter_colours(n: Nationality) -> (Color, Color) {
    match n {
        Nationality::AmericanAirborne | Nationality::American => {
            (Color::srgb(0.42, 0.48, 0.26), Color::WHITE)
        }
        Nationality::UsMarines => (Color::srgb(0.23, 0.36, 0.22), Color::WHITE),
        Nationality::German => (Color::srgb(0.50, 0.56, 0.60), Color::BLACK),
        Nationality::Japanese => (Color::srgb(0.85, 0.72, 0.36), Color::BLACK),
        Nationality::Russian => (Color::srgb(0.55, 0.30, 0.22), Color::WHITE),
        Nationality::Commonwealth => (Color::srgb(0.62, 0.52, 0.34), Color::BLACK),
        Nationality::Italian => (Color::srgb(0.50, 0.58, 0.40), Color::BLACK),
    }
}
