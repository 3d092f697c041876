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
    /// The Combat Event and Japanese Event Tables (R 17.0, last page).
    pub combat_events: CombatEvents,
    /// Night (R 50.0-50.3) and Wire (R 43.6) numbers.
    pub night: NightAid,
    /// The Gun/Vehicle Prof Check modifiers (PAC §3, R 20.4, R 20.7).
    pub gun_prof: Box<GunProfAid>,
    /// The SATWs' FP and Range by year and what they do at Guns and WTs
    /// (PAC §4, R 33.0).
    #[serde(default)]
    pub satw_weapons: Vec<SatwWeapon>,
}

/// One SATW of the PAC table (PAC §4, R 33.0).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SatwWeapon {
    pub kind: super::roster::SatwKind,
    pub name: String,
    /// FP and Range from each year on, earliest first ("from Aug 1943"
    /// counts from 1943).
    pub by_year: Vec<SatwYear>,
    /// R 33.0: +1 FP at an unconcealed Gun, WT or Pillbox within the SATW's
    /// Range, and a Gun's second (lower) Casualty number.
    pub vs_gun_wt: bool,
    pub source: Source,
}

/// An SATW's FP and Range from a year on.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SatwYear {
    pub from: u16,
    pub fp: u8,
    pub range: u8,
}

impl SatwWeapon {
    /// Its FP and Range in `year`; `None` before it was issued.
    pub fn in_year(&self, year: u16) -> Option<SatwYear> {
        self.by_year.iter().rev().find(|y| y.from <= year).copied()
    }
}

/// A range band of the Gun/Vehicle Prof Check: over `over` hexes, `value`
/// (PAC §3: "> 5: 0, > 10: -1, > 20: -2, > 30: -3", pick one).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ProfRangeBand {
    pub over: u8,
    pub value: i8,
}

/// The cases that call for a Gun/Vehicle Prof Check and what each adds to
/// the Prof Rating (PAC §3, R 20.4, R 20.7). One check, modifiers add;
/// the "pick one" groups take their single worst value.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GunProfAid {
    /// Range bands, each a case of its own (pick one).
    pub range: Vec<ProfRangeBand>,
    /// Firer Op Firing (pick one with Final Op Fire).
    pub op_fire: i8,
    /// Final Op Fire (R 20.7: -3).
    pub final_op_fire: i8,
    /// Firer marked Op Fire.
    pub marked_op_fire: i8,
    /// Turned within its hex to fire.
    pub turned: i8,
    /// Smoke on the line (R 48.0).
    pub smoke: i8,
    /// Dispersed Smoke on the line: no modifier, but a check.
    pub dispersed_smoke: i8,
    /// Target at a higher elevation (R 47.3).
    pub target_higher: i8,
    /// Each Hindrance on the line (R 46.0).
    pub hindrance: i8,
    /// At Night, per hex of range (R 50.2) ...
    pub night_per_hex: i8,
    /// ... never below this in all.
    pub night_max: i8,
}

/// The numbers of the Night rules (R 50.1, R 50.2) as the rulebook prints
/// them in words.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NightAid {
    /// An Illumination counter is placed within this many hexes of a
    /// friendly unit not in Melee (R 50.1).
    pub illumination_range: u8,
    /// An Illumination counter counts as this many units selected in
    /// the Operations Range (R 50.1: "at a cost of one unit").
    pub illumination_ops_cost: u8,
    /// Units this many hexes or closer to an Illumination counter are
    /// Illuminated: its own hex and the adjacent ones (R 50.1).
    pub illuminated_within: u8,
    /// The least a hex costs non-Japanese Infantry at Night, before
    /// hexside costs (R 50.2, R 59.0).
    pub infantry_min_mp: f32,
    /// The least a hex costs a Vehicle at Night (R 50.2).
    pub vehicle_min_mp: f32,
    /// Vehicles and Guns never fire beyond this range at Night (R 50.2).
    pub vehicle_gun_max_range: u8,
}

/// The situation rows (§2b) the fire rules read by key, and whether they
/// read its Infantry FP value (the moving-in-Open rows are read by range
/// band, Directed Fire from the Mortar column). An attack that needs a
/// missing one could not be resolved, so such a Player Aid is refused at
/// load ([`PlayerAid::problems`]), never an attack left without a result.
pub const FIRE_SITUATIONS: &[(&str, bool)] = &[
    ("adjacent", true),
    ("moving_open", false),
    ("moving_open_night", false),
    ("final_op_fire", true),
    ("concealed", true),
    ("japanese_concealed", true),
    ("smoke", true),
    ("dispersed_smoke", true),
    ("hindrance", true),
    ("flank", true),
    ("changed_facing", true),
    ("mortar_directed", false),
    ("satw_bonus", true),
    ("fireteam_fire", true),
    ("prof_adjacent_op_fire", true),
    ("prof_marked_op_fire", true),
    ("prof_cp", true),
    ("firer_in_wire", true),
];

impl PlayerAid {
    /// What the rules need of this Player Aid and it lacks: every situation
    /// row of [`FIRE_SITUATIONS`], with an Infantry FP value where read. `build.rs`
    /// refuses the built-in file with any; a file loaded at run time too.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for &(key, inf_fp) in FIRE_SITUATIONS {
            match self.situation(key) {
                None => out.push(format!(
                    "situations: no row `{key}`, which the fire rules read"
                )),
                Some(row) if inf_fp && row.inf.fp().is_none() => out.push(format!(
                    "situations: row `{key}` has no Infantry FP value (`inf: fp(..)`), which the fire rules read"
                )),
                Some(_) => {}
            }
        }
        out
    }

    /// The PAC row of an SATW (R 33.0).
    pub fn satw_weapon(&self, kind: super::roster::SatwKind) -> Option<&SatwWeapon> {
        self.satw_weapons.iter().find(|w| w.kind == kind)
    }

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
    /// No more than this many unmounted Guns in a hex (R 20.10).
    pub guns_per_hex: u8,
    /// A Cave lowers FP only to this (R 43.4: "to a minimum FP of 1").
    pub cave_min_fp: u8,
    /// Morale is never below this (PAC §5).
    pub morale_floor: u8,
    /// MPs a Follow Me! CP adds for the phase (R 5.4).
    pub follow_me_mp: u8,
    /// MPs a Fireteam Squad spends to Assault Fire before or mid move (R 58.3).
    pub fireteam_fire_mp: u8,
    /// Moving off the board costs this many MP (R 18.0); a routing unit
    /// needs it left on reaching its Rout Edge (R 11.0).
    pub off_board_mp: u8,
    /// Year from which Germans and Russians in Melee with each other get the
    /// No Quarter Morale bonus (R 11.2, R 57.1).
    pub no_quarter_german_russian_from: u16,
    /// Melee FP bonus of a unit that was Concealed when the enemy entered its
    /// Jungle hex: it strikes first (R 51.2).
    pub melee_ambush_fp: u8,
    /// R 59.6: +4 MP for a Squad in a Banzai Charge.
    pub banzai_mp: u8,
    /// R 59.6: +2 Melee FP for a Squad in a Banzai Charge.
    pub banzai_melee_fp: u8,
    /// R 59.5: +1 MP for a Squad that declares Seishin.
    pub seishin_mp: u8,
    /// R 59.5: +2 Melee FP that turn for a Squad that declared Seishin.
    pub seishin_melee_fp: u8,
    /// R 55.2: in Monsoon rain the maximum range is three hexes.
    pub monsoon_max_range: u8,
    /// R 55.2: in Monsoon rain Infantry moves at most two hexes a turn.
    pub monsoon_max_hexes: u8,
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
    /// A building where a Gun may still change its facing (R 40.1 Huts).
    #[serde(default)]
    pub gun_turns: bool,
    /// Routing units moving toward their Rout Edge stop on reaching a hex
    /// of this terrain: the rule that says so (R 45.6 Surf).
    #[serde(default)]
    pub rout_stop: Option<String>,
    /// No unit may be Concealed in a hex of this terrain: the rule (R 45.5
    /// Ocean, R 45.6 Surf).
    #[serde(default)]
    pub no_concealment: Option<String>,
    /// No unit may enter a hex of this terrain voluntarily (R 45.5 Ocean:
    /// only an LC and its passengers, and no LC is built): the rule.
    #[serde(default)]
    pub no_voluntary_entry: Option<String>,
    /// Guns may not set up in or enter a hex of this terrain (R 52.0
    /// Swamp): the rule.
    #[serde(default)]
    pub no_gun: Option<String>,
    /// WTs may not fire from a hex of this terrain: the rule that says so
    /// (R 45.6 Surf, R 52.0 Swamp).
    #[serde(default)]
    pub no_wt_fire: Option<String>,
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

/// R 17.0: when a Combat Event happens, and the two Event Tables printed on
/// the last page of the rulebook. The texts are the tables' own; what each
/// entry does is `effect`, played by `engine::combat_events`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CombatEvents {
    /// A Squad or WT firing in the Operations Phase with this roll may
    /// cause a Combat Event.
    pub fire_roll: u8,
    /// The additional roll after such an attack; rolls not listed: no event.
    pub event_roll: Vec<EventRollRow>,
    /// The Combat Event Table (used on a 1 or 2), one row per roll.
    pub combat: Vec<EventEntry>,
    /// The Japanese Event Table (used on a 3 when there is a Japanese player).
    pub japanese: Vec<EventEntry>,
}

/// One result of the additional roll (R 17.0).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct EventRollRow {
    pub from: u8,
    pub to: u8,
    pub result: EventRoll,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EventRoll {
    /// The player whose unit made the attack rolls on the Combat Event Table.
    AttackerRolls,
    /// The other player rolls on the Combat Event Table.
    OtherRolls,
    /// The Japanese player rolls on the Japanese Event Table (ignored when
    /// the scenario has no Japanese units).
    JapaneseTable,
}

/// One entry of an Event Table: the rolls it covers, its words, its effect.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EventEntry {
    pub from: u8,
    pub to: u8,
    pub title: String,
    /// The entry as printed.
    pub text: String,
    pub effect: EventEffect,
    pub source: Source,
}

/// What an entry does; the numbers are the table's.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EventEffect {
    /// The firer or one unit fired upon is removed (Decoy, SATT, Gun),
    /// Reduced (Infantry) or marked UK (Vehicle).
    Casualty,
    /// Reduce `units` unconcealed Squads/WTs; `enemy_only`: of the side
    /// rolling's enemy, else no event.
    Sniper { units: u8, enemy_only: bool },
    /// Flip `units` Reduced Squads to Full Strength, Suppression kept.
    Restore { units: u8 },
    /// Place an eliminated Squad, Used and Reduced, with a lone unconcealed
    /// unmounted Squad of its nationality.
    Return { units: u8 },
    /// `units` enemy units lose Concealment (and a Fortification they hold).
    Reveal { units: u8 },
    /// Conceal `units` unmounted Squads/WTs in Beneficial Terrain not
    /// adjacent to an enemy.
    Conceal { units: u8 },
    /// Mark `units` unconcealed Squads/WTs not in a Carrier Used.
    MarkUsed { units: u8 },
    /// Remove Used/Op Fire from `infantry` Infantry units or `assets`
    /// Vehicle, Gun or loaded Carrier.
    Ready { infantry: u8, assets: u8 },
    /// Gain `cps` one-time Command Points.
    CommandPoints { cps: u8 },
    /// Choose one other entry of this table.
    Choose,
    /// An enemy Infantry unit is revealed; unused, it may fire at nothing:
    /// a roll of `fires_on` or more (`non_marine_bonus` added unless
    /// Marines) gives a Muzzle Flash and marks it Used.
    FuggBabeRuth { fires_on: u8, non_marine_bonus: u8 },
    /// A Japanese unit in a Melee rolls a Melee attack with no bonus.
    Ambush,
    /// The non-Japanese player picks a Japanese non-GD Squad to Banzai Charge.
    Banzai,
}

impl CombatEvents {
    /// The table's entry for a roll.
    pub fn entry(table: &[EventEntry], roll: u8) -> Option<&EventEntry> {
        table.iter().find(|e| (e.from..=e.to).contains(&roll))
    }

    /// What the additional roll means (None: no event).
    pub fn event_roll(&self, roll: u8) -> Option<EventRoll> {
        self.event_roll
            .iter()
            .find(|r| (r.from..=r.to).contains(&roll))
            .map(|r| r.result)
    }

    /// Checks the tables cover every face of the die exactly once and that
    /// "choose one event" never chooses itself.
    pub fn problems(&self, die_faces: u8) -> Vec<String> {
        let mut out = Vec::new();
        let mut cover = |name: &str, ranges: Vec<(u8, u8)>, every: bool| {
            for face in 1..=die_faces {
                let n = ranges
                    .iter()
                    .filter(|(a, b)| (*a..=*b).contains(&face))
                    .count();
                if n > 1 || (every && n == 0) {
                    out.push(format!(
                        "combat_events.{name}: roll {face} is covered {n} times (must be {})",
                        if every { "once" } else { "at most once" }
                    ));
                }
            }
            for (a, b) in ranges {
                if a > b || a == 0 || b > die_faces {
                    out.push(format!(
                        "combat_events.{name}: rolls {a}-{b} are not a range of the d{die_faces}"
                    ));
                }
            }
        };
        cover(
            "event_roll",
            self.event_roll.iter().map(|r| (r.from, r.to)).collect(),
            false,
        );
        cover(
            "combat",
            self.combat.iter().map(|r| (r.from, r.to)).collect(),
            true,
        );
        cover(
            "japanese",
            self.japanese.iter().map(|r| (r.from, r.to)).collect(),
            true,
        );
        if !(1..=die_faces).contains(&self.fire_roll) {
            out.push(format!(
                "combat_events.fire_roll: {} is not a face of the d{die_faces}",
                self.fire_roll
            ));
        }
        if self
            .japanese
            .iter()
            .any(|e| e.effect == EventEffect::Choose)
        {
            out.push("combat_events.japanese: `choose` belongs to the Combat Event Table".into());
        }
        out
    }
}
