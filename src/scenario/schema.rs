//! The scenario card as data — R 18.0 (Scenario Cards), with the map and the setup.
//!
//! This module depends on `serde` only, so `build.rs` can compile it to check
//! every scenario before the game is built.

use serde::{Deserialize, Serialize};

/// A whole scenario: the card, the map and the setup (R 18.0).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short name used on the command line (`bob play training`).
    pub id: String,
    pub title: String,
    /// Place of the action, as printed on the card.
    pub place: String,
    /// Date of the action, as printed on the card.
    pub date: String,
    pub theater: Theater,
    /// The historical introduction printed on the card.
    #[serde(default)]
    pub introduction: String,
    /// Number of game turns (R 1.0).
    pub turns: u8,
    /// The side that is the first player in every Operations Phase (R 4.0).
    pub first_player: SideId,
    /// Exactly two side cards: one for the Allies, one for the Axis.
    pub sides: Vec<SideCard>,
    /// Victory conditions (R 18.0); the first listed is checked first.
    pub victory: Vec<VictoryCondition>,
    /// Scenario special rules as typed flags.
    #[serde(default)]
    pub special_rules: SpecialRules,
    pub map: MapSpec,
    /// Units on the board at the start.
    pub setup: Vec<Placement>,
    /// Units that arrive later (R 16.1, R 18.0).
    #[serde(default)]
    pub reinforcements: Vec<Reinforcement>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Theater {
    Europe,
    Pacific,
}

/// The two sides of every scenario.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum SideId {
    Allies,
    Axis,
}

impl SideId {
    pub const BOTH: [SideId; 2] = [SideId::Allies, SideId::Axis];

    pub fn other(self) -> SideId {
        match self {
            SideId::Allies => SideId::Axis,
            SideId::Axis => SideId::Allies,
        }
    }

    pub fn index(self) -> usize {
        match self {
            SideId::Allies => 0,
            SideId::Axis => 1,
        }
    }
}

/// Nationalities: they select counter colours and national rules (R 56.0–60.0).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Nationality {
    American,
    AmericanAirborne,
    UsMarines,
    German,
    Japanese,
    Russian,
    Commonwealth,
    Italian,
}

impl Nationality {
    pub fn name(self) -> &'static str {
        match self {
            Nationality::American => "American",
            Nationality::AmericanAirborne => "American (Airborne)",
            Nationality::UsMarines => "US Marines",
            Nationality::German => "German",
            Nationality::Japanese => "Japanese",
            Nationality::Russian => "Russian",
            Nationality::Commonwealth => "Commonwealth",
            Nationality::Italian => "Italian",
        }
    }
}

/// One side of the scenario card.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SideCard {
    pub side: SideId,
    pub nationality: Nationality,
    /// The force as named on the card ("Easy Company, 506th PIR").
    pub force: String,
    /// Operations Range: units to Use per turn of play (R 4.1).
    pub ops_range: OpsRange,
    /// Command Points per turn (R 3.0).
    #[serde(default)]
    pub command_points: u8,
    /// Company CPs (R 3.1), when the scenario uses them.
    #[serde(default)]
    pub companies: Vec<CompanyCps>,
    /// Decoys this side receives (R 15.0); they appear in the setup.
    #[serde(default)]
    pub decoys: u8,
    /// The map edge this side routs toward (R 11.0).
    pub rout_edge: MapEdge,
    /// Where this side sets up; hexes here start controlled by it (R 18.0).
    pub setup_area: Vec<String>,
    /// The setup instructions printed on the card.
    #[serde(default)]
    pub setup_note: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct OpsRange {
    pub min: u8,
    pub max: u8,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CompanyCps {
    pub company: String,
    pub command_points: u8,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum MapEdge {
    North,
    South,
    East,
    West,
}

/// Victory conditions (R 18.0).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum VictoryCondition {
    /// The side controls every listed hex at the end of the game, or `at_least` of them.
    ControlHexes {
        side: SideId,
        hexes: Vec<String>,
        #[serde(default)]
        at_least: Option<u8>,
    },
    /// The side eliminates at least `count` enemy units: Squads, WTs, Guns (a Reduced unit
    /// counts half when `reduced_counts_half`). Decoys never count (R 18.0).
    EliminateUnits {
        side: SideId,
        count: u8,
        #[serde(default)]
        reduced_counts_half: bool,
    },
    /// The side exits at least `count` units off the given map edge.
    ExitUnits {
        side: SideId,
        count: u8,
        edge: MapEdge,
    },
    /// The side wins when no other condition is met at the end of the game.
    Otherwise { side: SideId },
}

/// Scenario special rules (SSRs) as typed flags.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SpecialRules {
    /// Infantry facing (R 2.2): optional in Europe, required in the Pacific.
    #[serde(default)]
    pub facing_required: bool,
    /// Combat Events (R 17.0): optional in Europe, required in the Pacific.
    #[serde(default)]
    pub combat_events: bool,
    /// Night (R 50.0) with its Visibility Range.
    #[serde(default)]
    pub night: Option<Night>,
    /// Monsoon (R 55.2): storm checks in the Recovery Phase.
    #[serde(default)]
    pub monsoon: bool,
    /// The Monsoon Storm Check's range and the weather at the start
    /// (R 55.2); required with `monsoon`.
    #[serde(default)]
    pub monsoon_storm: Option<MonsoonStorm>,
    /// The old form of `banzai`, still read: each listed turn is a window
    /// of its own, one charge on that turn (written as
    /// `banzai: [(from: 2, to: 2)]` today).
    #[serde(default)]
    pub banzai_turns: Vec<u8>,
    /// The Banzai Charges the Japanese must execute (R 59.6): each window
    /// is a range of turns, `from..=to` (one turn: `from == to`), in which
    /// ONE charge must be announced. At the start of each turn of an open
    /// window the Japanese choose to announce it now or wait; on the
    /// window's last turn it is announced without asking. Windows may not
    /// overlap, and lie within the scenario's turns. Not written when
    /// there is none, so a card without Banzai keeps its content hash.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub banzai: Vec<BanzaiWindow>,
    /// Japanese units enter play under −2 Conceal counters (R 59.2).
    #[serde(default)]
    pub japanese_minus_two_conceal: bool,
    /// Jungle movement costs 2.5 MP instead of 3 (New Britain, R 51.0).
    #[serde(default)]
    pub new_britain_jungle: bool,
    /// Further SSRs in plain words, printed on the card.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Who may place Smoke (R 48.0-48.2, R 59.3). Not written when there
    /// is none, so a scenario without Smoke keeps its content hash.
    #[serde(default, skip_serializing_if = "SmokeRules::is_none")]
    pub smoke: SmokeRules,
}

/// A range of turns in which one Banzai Charge must be executed (R 59.6).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BanzaiWindow {
    pub from: u8,
    pub to: u8,
}

impl BanzaiWindow {
    /// Whether `turn` lies in the window.
    pub fn contains(&self, turn: u8) -> bool {
        (self.from..=self.to).contains(&turn)
    }

    /// "Turn 2" or "Turns 5-6".
    pub fn label(&self) -> String {
        if self.from == self.to {
            format!("Turn {}", self.from)
        } else {
            format!("Turns {}-{}", self.from, self.to)
        }
    }
}

impl SpecialRules {
    /// The Banzai windows of the card, in turn order: `banzai`, and each
    /// turn of the old `banzai_turns` as a window of its own (R 59.6).
    pub fn banzai_windows(&self) -> Vec<BanzaiWindow> {
        let mut w: Vec<BanzaiWindow> = self
            .banzai
            .iter()
            .copied()
            .chain(
                self.banzai_turns
                    .iter()
                    .map(|&t| BanzaiWindow { from: t, to: t }),
            )
            .collect();
        w.sort_by_key(|w| (w.from, w.to));
        w
    }
}

impl SmokeRules {
    /// No side may place Smoke.
    pub fn is_none(&self) -> bool {
        *self == SmokeRules::default()
    }
}

/// Smoke by SSR (R 48.0-48.2, R 59.3).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SmokeRules {
    /// Sides given Smoke Grenades: their Squads place Dispersed Smoke while
    /// moving (R 48.1).
    #[serde(default)]
    pub grenades: Vec<SideId>,
    /// Smoke counters the Japanese GD Squads may place, in all (R 59.3).
    #[serde(default)]
    pub gd_counters: u8,
    /// Smoke rounds for a side's Mortar WTs, in all (house, by SSR).
    #[serde(default)]
    pub mortar_rounds: Vec<(SideId, u8)>,
}

/// The Monsoon Storm Check (R 55.2): a d10 roll from `from` to `to` starts
/// a deluge if it is dry, stops it if it rains; `raining` at the start.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MonsoonStorm {
    pub from: u8,
    pub to: u8,
    #[serde(default)]
    pub raining: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Night {
    pub visibility_range: u8,
    /// One-time Illumination counters of each side, Allies then Axis
    /// (R 50.1: "one time use counters").
    #[serde(default)]
    pub illumination: [u8; 2],
}

/// The map: hexes labelled by column letter and row number (`C6`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// Columns A, B, C… (at most 26).
    pub columns: u8,
    /// Rows 1, 2, 3…
    pub rows: u8,
    /// Terrain of every hex not listed in `terrain`.
    pub base_terrain: Terrain,
    /// Terrain at the centre dot, by hex lists (`"C6"`) or rectangles (`"C6:E8"`).
    #[serde(default)]
    pub terrain: Vec<TerrainArea>,
    /// Hill levels (R 47.0); unlisted hexes are Level 0.
    #[serde(default)]
    pub elevation: Vec<ElevationArea>,
    /// Hedgerows, walls, crest lines, cliffs on hexsides.
    #[serde(default)]
    pub hexsides: Vec<HexsideRun>,
    /// Roads and paths: chains of adjacent hexes joined through their hexsides.
    #[serde(default)]
    pub roads: Vec<RoadRun>,
    /// Fortification counters placed at the start (R 43.0).
    #[serde(default)]
    pub fortifications: Vec<FortificationSpec>,
}

impl MapSpec {
    /// A map of Open Ground with nothing on it.
    pub fn open(columns: u8, rows: u8) -> MapSpec {
        MapSpec {
            columns,
            rows,
            base_terrain: Terrain::Open,
            terrain: vec![],
            elevation: vec![],
            hexsides: vec![],
            roads: vec![],
            fortifications: vec![],
        }
    }
}

/// Terrain at a hex's centre dot (R 39.0–55.0).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Open,
    Road,
    Orchard,
    WheatField,
    Woods,
    WoodenBuilding,
    StoneBuilding,
    Huts,
    Jungle,
    KunaiGrass,
    PalmTrees,
    Swamp,
    Stream,
    Gully,
    Surf,
    Ocean,
    Sandbar,
    River,
}

impl Terrain {
    pub const ALL: [Terrain; 18] = [
        Terrain::Open,
        Terrain::Road,
        Terrain::Orchard,
        Terrain::WheatField,
        Terrain::Woods,
        Terrain::WoodenBuilding,
        Terrain::StoneBuilding,
        Terrain::Huts,
        Terrain::Jungle,
        Terrain::KunaiGrass,
        Terrain::PalmTrees,
        Terrain::Swamp,
        Terrain::Stream,
        Terrain::Gully,
        Terrain::Surf,
        Terrain::Ocean,
        Terrain::Sandbar,
        Terrain::River,
    ];

    /// The name as the rulebook prints it.
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Open => "Open Ground",
            Terrain::Road => "Road",
            Terrain::Orchard => "Orchard",
            Terrain::WheatField => "Wheat Field",
            Terrain::Woods => "Woods",
            Terrain::WoodenBuilding => "Wooden Building",
            Terrain::StoneBuilding => "Stone Building",
            Terrain::Huts => "Huts",
            Terrain::Jungle => "Jungle",
            Terrain::KunaiGrass => "Kunai Grass",
            Terrain::PalmTrees => "Palm Trees",
            Terrain::Swamp => "Swamp",
            Terrain::Stream => "Stream",
            Terrain::Gully => "Gully",
            Terrain::Surf => "Surf",
            Terrain::Ocean => "Ocean",
            Terrain::Sandbar => "Sandbar",
            Terrain::River => "River",
        }
    }

    /// The key of this terrain's row in `assets/player_aid.ron`.
    pub fn key(self) -> &'static str {
        match self {
            Terrain::Open => "open",
            Terrain::Road => "road",
            Terrain::Orchard => "orchard",
            Terrain::WheatField => "wheat_field",
            Terrain::Woods => "woods",
            Terrain::WoodenBuilding => "wooden_building",
            Terrain::StoneBuilding => "stone_building",
            Terrain::Huts => "huts",
            Terrain::Jungle => "jungle",
            Terrain::KunaiGrass => "kunai_grass",
            Terrain::PalmTrees => "palm_trees",
            Terrain::Swamp => "swamp",
            Terrain::Stream => "stream",
            Terrain::Gully => "gully",
            Terrain::Surf => "surf",
            Terrain::Ocean => "ocean",
            Terrain::Sandbar => "sandbar",
            Terrain::River => "river",
        }
    }

    /// Fortifications may not be placed here (R 43.0; Huts excepted, R 40.1).
    pub fn forbids_fortification(self) -> bool {
        matches!(
            self,
            Terrain::WoodenBuilding
                | Terrain::StoneBuilding
                | Terrain::Swamp
                | Terrain::Surf
                | Terrain::Ocean
                | Terrain::Sandbar
                | Terrain::River
                | Terrain::Stream
        )
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TerrainArea {
    pub terrain: Terrain,
    pub hexes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ElevationArea {
    pub level: u8,
    pub hexes: Vec<String>,
}

/// The six hexsides of a flat-topped hex.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Side6 {
    N,
    Ne,
    Se,
    S,
    Sw,
    Nw,
}

impl Side6 {
    pub const ALL: [Side6; 6] = [
        Side6::N,
        Side6::Ne,
        Side6::Se,
        Side6::S,
        Side6::Sw,
        Side6::Nw,
    ];
}

/// The six hexspines (corners) of a flat-topped hex: unit and cave facing
/// point at a hexspine (R 2.2, R 43.4).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Spine {
    E,
    Ne,
    Nw,
    W,
    Sw,
    Se,
}

impl Spine {
    pub const ALL: [Spine; 6] = [
        Spine::E,
        Spine::Ne,
        Spine::Nw,
        Spine::W,
        Spine::Sw,
        Spine::Se,
    ];

    /// The two hexsides that meet at this spine: the "front" hexes of a cave.
    pub fn sides(self) -> [Side6; 2] {
        match self {
            Spine::E => [Side6::Ne, Side6::Se],
            Spine::Ne => [Side6::N, Side6::Ne],
            Spine::Nw => [Side6::Nw, Side6::N],
            Spine::W => [Side6::Sw, Side6::Nw],
            Spine::Sw => [Side6::S, Side6::Sw],
            Spine::Se => [Side6::Se, Side6::S],
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum HexsideFeature {
    Hedgerow,
    Wall,
    /// Crest line: crossing it upward costs extra (R 47.1).
    Crest,
    Cliff,
}

/// A feature drawn along one or more hexsides of a hex.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HexsideRun {
    pub feature: HexsideFeature,
    pub hex: String,
    pub sides: Vec<Side6>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum RoadKind {
    Road,
    Path,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RoadRun {
    pub kind: RoadKind,
    /// Adjacent hexes in order; the road crosses the hexside between each pair.
    pub hexes: Vec<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum FortificationKind {
    Foxhole,
    Trench,
    Bunker,
    Pillbox,
    Cave,
    SmallCave,
    Wire,
    Roadblock,
    Fortified,
}

impl FortificationKind {
    pub fn name(self) -> &'static str {
        match self {
            FortificationKind::Foxhole => "Foxhole",
            FortificationKind::Trench => "Trench",
            FortificationKind::Bunker => "Bunker",
            FortificationKind::Pillbox => "Pillbox",
            FortificationKind::Cave => "Cave",
            FortificationKind::SmallCave => "Small Cave",
            FortificationKind::Wire => "Wire",
            FortificationKind::Roadblock => "Roadblock",
            FortificationKind::Fortified => "Fortified Position",
        }
    }

    pub fn is_cave(self) -> bool {
        matches!(self, FortificationKind::Cave | FortificationKind::SmallCave)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FortificationSpec {
    pub kind: FortificationKind,
    pub at: String,
    /// Caves point at a hexspine (R 43.4); Roadblocks at a hexside, given by
    /// the first hexside of the spine.
    #[serde(default)]
    pub facing: Option<Spine>,
    /// Placed Concealed (Fortification Concealment, R 43.0).
    #[serde(default)]
    pub concealed: bool,
}

/// One unit on the board at setup.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// Unique id within the scenario (`"A1"`), used in logs, scripts, saves.
    pub id: String,
    /// Unit type id from `assets/units.ron`.
    pub unit: String,
    pub side: SideId,
    pub at: String,
    #[serde(default)]
    pub facing: Option<Spine>,
    #[serde(default)]
    pub concealed: bool,
    #[serde(default)]
    pub reduced: bool,
    /// Company identifier for Company CPs (R 3.1).
    #[serde(default)]
    pub company: Option<String>,
    /// Inside the Cave of its hex rather than above it (R 43.4).
    #[serde(default)]
    pub in_cave: bool,
}

/// Units entering on a later turn (R 16.1, R 18.0).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Reinforcement {
    pub turn: u8,
    pub side: SideId,
    pub entry: Entry,
    pub units: Vec<ReinforcementUnit>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// Enter from a map edge during the Operations Phase.
    Edge(MapEdge),
    /// Set up in the side's Area of Control before the turn (R 16.1).
    AreaOfControl,
    /// Set up in the listed hexes before the turn.
    Hexes(Vec<String>),
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ReinforcementUnit {
    pub id: String,
    pub unit: String,
    #[serde(default)]
    pub concealed: bool,
    #[serde(default)]
    pub company: Option<String>,
}
