//! The unit roster (`assets/units.ron`): counter values, R 2.0–2.1.
//!
//! Depends on `serde` only, so `build.rs` can use it to check scenarios.

use serde::{Deserialize, Serialize};

use super::schema::Nationality;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    pub units: Vec<UnitType>,
}

impl Roster {
    pub fn get(&self, id: &str) -> Option<&UnitType> {
        self.units.iter().find(|u| u.id == id)
    }
}

/// What a counter is, for stacking (R 2.0), Melee (R 12.0) and fire.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum UnitClass {
    Squad,
    /// Weapon Team with a machine gun.
    MgTeam,
    /// Weapon Team with a mortar (R 31.0).
    MortarTeam,
    /// Japanese Grenade Discharger squad: fires as a mortar (R 59.3).
    GdSquad,
    /// A Decoy: moves, never fires (R 15.0).
    Decoy,
    /// A Gun and its crew (R 20.0, R 20.2): never moves to a new hex, fires
    /// with its Gun values ([`GunRating`]).
    Gun,
}

impl UnitClass {
    /// Squads and WTs count against the stacking limit (R 2.0); Decoys
    /// count as the squads they pretend to be.
    pub fn stacks(self) -> bool {
        true
    }

    /// Infantry (R 2.0): Squads, WTs, GD Squads and the Decoys that stand
    /// for them; a Gun is not (R 20.0).
    pub fn is_infantry(self) -> bool {
        match self {
            UnitClass::Squad
            | UnitClass::MgTeam
            | UnitClass::MortarTeam
            | UnitClass::GdSquad
            | UnitClass::Decoy => true,
            UnitClass::Gun => false,
        }
    }

    /// A Gun (R 20.0).
    pub fn is_gun(self) -> bool {
        self == UnitClass::Gun
    }

    pub fn is_weapon_team(self) -> bool {
        matches!(self, UnitClass::MgTeam | UnitClass::MortarTeam)
    }

    pub fn name(self) -> &'static str {
        match self {
            UnitClass::Squad => "Squad",
            UnitClass::MgTeam => "MG Weapon Team",
            UnitClass::MortarTeam => "Mortar Weapon Team",
            UnitClass::GdSquad => "GD Squad",
            UnitClass::Decoy => "Decoy",
            UnitClass::Gun => "Gun",
        }
    }
}

/// Where a value comes from (see `player-aid.md`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The Europe Player Aid Card.
    Pac,
    /// A counter as printed.
    Counter,
    /// Stated in a rule, e.g. `Rule("R 43.4")`.
    Rule(String),
    /// Forced by a worked example, e.g. `Example("Ex 51.2")`.
    Example(String),
    /// Our own value; shown marked in the Player Aid panel.
    House(String),
}

impl Source {
    pub fn is_house(&self) -> bool {
        matches!(self, Source::House(_))
    }

    pub fn label(&self) -> String {
        match self {
            Source::Pac => "PAC".to_string(),
            Source::Counter => "counter".to_string(),
            Source::Rule(r) | Source::Example(r) => r.clone(),
            Source::House(why) if why.is_empty() => "House".to_string(),
            Source::House(why) => format!("House: {why}"),
        }
    }
}

/// Range of a unit's fire (R 2.1, R 31.0).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FireRange {
    /// Full FP up to this many hexes, half FP up to twice that (R 6.0).
    Normal(u8),
    /// A band: minimum to maximum, no long range (mortars, GD squads).
    Band(u8, u8),
    /// A minimum only (mortar `>1`).
    AtLeast(u8),
    /// Cannot fire (Decoys).
    None,
}

impl FireRange {
    pub fn label(self) -> String {
        match self {
            FireRange::Normal(r) => r.to_string(),
            FireRange::Band(a, b) => format!("{a}-{b}"),
            FireRange::AtLeast(a) => format!(">{}", a.saturating_sub(1)),
            FireRange::None => "-".to_string(),
        }
    }
}

/// One side of a counter.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CounterSide {
    /// Normal FP (R 2.1).
    pub fp: u8,
    /// Proficient FP, used for Op Fire, Final Op Fire, Assault Fire (R 2.1).
    pub prof: u8,
    /// Melee FP subscript; `None` means use Normal FP (R 12.0).
    #[serde(default)]
    pub melee: Option<u8>,
    pub range: FireRange,
    #[serde(default)]
    pub satw: Option<u8>,
    /// First Casualty number, and the second on a Full-Strength side (R 2.1).
    pub casualty: (u8, Option<u8>),
    /// Morale when unsuppressed (white), Suppressed (yellow), Fully Suppressed (red).
    pub morale: (u8, u8, u8),
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    /// Id used by scenarios (`"para_squad"`).
    pub id: String,
    /// Name as printed in the roster.
    pub name: String,
    /// Short label drawn on the counter (`"101"`, `"MG"`).
    pub short: String,
    pub nationality: Nationality,
    pub class: UnitClass,
    /// Movement Points (R 5.0: Squads 5, WTs 4).
    pub mp: u8,
    pub full: CounterSide,
    pub reduced: CounterSide,
    /// Fireteams (R 58.3).
    #[serde(default)]
    pub fireteams: bool,
    /// Seishin (R 59.5).
    #[serde(default)]
    pub seishin: bool,
    /// Pluck (R 60.1): "+1" next to the Morale of some Commonwealth units.
    #[serde(default)]
    pub pluck: bool,
    /// Waffen-SS: SS Desperation against Russians (R 57.3, R 11.2).
    #[serde(default)]
    pub ss: bool,
    /// A Gun's own values (R 20.2, R 20.4); `Some` exactly for class `gun`.
    #[serde(default)]
    pub gun: Option<GunRating>,
    /// The Special Anti-Tank Weapon of a Squad with an SATW number (R 33.0);
    /// its FP and Range by year are PAC data (`player_aid.ron`,
    /// `satw_weapons`).
    #[serde(default)]
    pub satw_weapon: Option<SatwKind>,
    pub source: Source,
}

/// The Special Anti-Tank Weapons of R 33.0 and the PAC's SATW table.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum SatwKind {
    Bazooka,
    Panzerfaust,
    Panzerschreck,
    RussianAtr,
    Piat,
    ItalianAtr,
}

/// What a Gun counter prints beyond its crew's Morale (R 20.2, R 20.4):
/// "Gun vs. Vehicle/Inf" FP, the Prof Rating, and the two Casualty numbers.
/// Its `CounterSide` carries the crew: `fp` is the FP at Infantry and Guns,
/// `casualty` the first number alone, `morale` the crew's Morale.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GunRating {
    /// FP against Vehicles, before the slash (R 20.4).
    pub vs_vehicle: u8,
    /// FP against Infantry and Guns, after the slash (R 20.4, R 20.5).
    pub vs_infantry: u8,
    /// Prof Rating: a Prof Check passes on a roll at or under it, with the
    /// PAC modifiers (R 20.4).
    pub prof: u8,
    /// Casualty when attacked by Infantry or Artillery, and (three lower)
    /// by a Gun, Vehicle, Aircraft or SATW Squad in range (R 20.2).
    pub casualty: (u8, u8),
}
