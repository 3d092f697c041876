//! The Player Aid Card as data (`assets/player_aid.ron`).
//!
//! Every number the rulebook leaves to its PAC, each with its source
//! (`player-aid.md`). The engine reads the typed rows; the Player Aid panel
//! shows every row and marks House values.

use serde::{Deserialize, Serialize};

use super::roster::Source;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlayerAid {
    /// Game constants the rules print in words (stacking, dice, ranges).
    pub constants: Constants,
    /// §2a Terrain table: the target's single best modifier, and MP costs.
    pub terrain: Vec<TerrainRow>,
    /// §2b Situation modifiers, added to the best terrain modifier.
    pub situations: Vec<ModifierRow>,
    /// §5 Morale modifiers (R 7.1 and the national rules).
    pub morale: Vec<ModifierRow>,
    /// Tables shown in the panel as printed (§1, §3–§6).
    pub tables: Vec<TextTable>,
}

impl PlayerAid {
    pub fn terrain_row(&self, key: &str) -> Option<&TerrainRow> {
        self.terrain.iter().find(|r| r.key == key)
    }

    pub fn situation(&self, key: &str) -> Option<&ModifierRow> {
        self.situations.iter().find(|r| r.key == key)
    }

    pub fn morale_row(&self, key: &str) -> Option<&ModifierRow> {
        self.morale.iter().find(|r| r.key == key)
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Constants {
    /// Squads/WTs per side in one location at the end of a move (R 2.0).
    pub stacking_per_side: u8,
    /// Faces of the main die (R 2.0).
    pub die_faces: u8,
    /// A roll of this is always No Effect (R 6.1).
    pub always_no_effect: u8,
    /// Long range reaches this many times the printed Range (R 6.0).
    pub long_range_factor: u8,
    /// Morale of this or more passes with no roll (R 7.1).
    pub morale_auto_pass: u8,
    /// Rout checks look for enemies within this many hexes (R 11.0).
    pub rout_check_range: u8,
    /// Melee dice per unit (R 12.0).
    pub melee_dice: u8,
    /// Melee FP of a Gun and of a Full-Strength / Reduced WT (R 12.0).
    pub melee_fp_gun: u8,
    pub melee_fp_wt_full: u8,
    pub melee_fp_wt_reduced: u8,
    /// Concealed units and Decoys count this much toward Ops Range when Used (R 4.1).
    pub ops_cost_concealed: u8,
    /// Assets count this much toward Ops Range (R 4.1).
    pub ops_cost_asset: u8,
    /// A Cave lowers FP only to this (R 43.4: "to a minimum FP of 1").
    pub cave_min_fp: u8,
    /// Morale is never below this (PAC §5).
    pub morale_floor: u8,
    /// Moving off the board costs this many MP (R 18.0); a routing unit
    /// needs it left on reaching its Rout Edge (R 11.0).
    #[serde(default = "one")]
    pub off_board_mp: u8,
    /// Year from which Germans and Russians in Melee with each other get the
    /// No Quarter Morale bonus (R 11.2, R 57.1).
    #[serde(default = "no_quarter_year")]
    pub no_quarter_german_russian_from: u16,
    /// Melee FP bonus of a unit that was Concealed when the enemy entered its
    /// Jungle hex: it strikes first (R 51.2).
    #[serde(default = "two")]
    pub melee_ambush_fp: u8,
}

fn one() -> u8 {
    1
}

fn two() -> u8 {
    2
}

fn no_quarter_year() -> u16 {
    1942
}

/// A table cell: a modifier, an MP cost, "not allowed", or words.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Cell {
    /// A modifier to FP (or Prof, or Morale).
    Fp(i8),
    /// A Movement Point cost (halves allowed).
    Mp(f32),
    /// Not allowed / no attack possible.
    No,
    /// Printed in words.
    Text(String),
    /// Empty on the card.
    Blank,
}

impl Cell {
    pub fn label(&self) -> String {
        match self {
            Cell::Fp(0) => "0".to_string(),
            Cell::Fp(v) if *v > 0 => format!("+{v}"),
            Cell::Fp(v) => format!("\u{2212}{}", v.unsigned_abs()),
            Cell::Mp(m) => {
                // Costs come in sixths at most (halves and thirds, R 5.0).
                let sixths = (m * 6.0).round() as i32;
                let whole = sixths / 6;
                let frac = match sixths % 6 {
                    0 => "",
                    1 => "\u{2159}",
                    2 => "\u{2153}",
                    3 => "\u{00bd}",
                    4 => "\u{2154}",
                    _ => "\u{215a}",
                };
                match (whole, frac) {
                    (w, "") => w.to_string(),
                    (0, f) => f.to_string(),
                    (w, f) => format!("{w}{f}"),
                }
            }
            Cell::No => "\u{2014}".to_string(),
            Cell::Text(t) => t.clone(),
            Cell::Blank => String::new(),
        }
    }

    pub fn fp(&self) -> Option<i8> {
        match self {
            Cell::Fp(v) => Some(*v),
            _ => None,
        }
    }

    pub fn mp(&self) -> Option<f32> {
        match self {
            Cell::Mp(v) => Some(*v),
            _ => None,
        }
    }
}

/// §2a: one row of the Terrain table.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    /// A terrain id (`woods`), or a feature id (`hedgerow`, `higher_elevation`).
    pub key: String,
    pub name: String,
    /// Infantry fire.
    pub inf: Cell,
    /// Vehicle/Gun fire at infantry or guns.
    pub vg: Cell,
    pub mort: Cell,
    pub art: Cell,
    pub air: Cell,
    /// Satchel charge.
    pub sc: Cell,
    pub flame: Cell,
    pub inf_mp: Cell,
    pub veh_mp: Cell,
    /// Counts as Beneficial Terrain (R 11.0, R 15.0).
    #[serde(default)]
    pub beneficial: bool,
    /// Blocks LOS at its level (R 14.0, R 47.2).
    #[serde(default)]
    pub blocks_los: bool,
    /// Is a Hindrance (R 46.0).
    #[serde(default)]
    pub hindrance: bool,
    /// A building (Huts count, R 40.1): keeps its modifier against Fire
    /// Lanes (R 43.0).
    #[serde(default)]
    pub building: bool,
    #[serde(default)]
    pub note: String,
    pub source: Source,
}

/// A range band for modifiers that depend on distance.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub from: u8,
    pub to: u8,
    pub value: i8,
}

/// §2b / §5: a modifier row.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ModifierRow {
    pub key: String,
    pub name: String,
    pub inf: Cell,
    #[serde(default = "blank")]
    pub vg: Cell,
    #[serde(default = "blank")]
    pub mort: Cell,
    #[serde(default = "blank")]
    pub art: Cell,
    /// For distance-dependent modifiers: the value by range band.
    #[serde(default)]
    pub bands: Vec<Band>,
    #[serde(default)]
    pub note: String,
    pub source: Source,
}

fn blank() -> Cell {
    Cell::Blank
}

/// A table shown as printed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TextTable {
    pub section: String,
    pub title: String,
    #[serde(default)]
    pub columns: Vec<String>,
    pub rows: Vec<TextRow>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TextRow {
    pub cells: Vec<String>,
    pub source: Source,
}
