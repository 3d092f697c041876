//! Night — R 50.0 (Visibility Range), R 50.1 (Illumination counters),
//! R 50.2 (Night effects: fire only within the Visibility Range or at
//! Illuminated targets, Muzzle Flashes, the night movement minimum, out of
//! LOS for Concealment and spotting), R 50.3 (Regenerating Decoys); R 43.6
//! (Wire: Trip Flares, stopping on entering and leaving). Pure functions
//! over plain values: the engine, the bot and the board's night shading
//! all ask the same questions here.

use std::collections::BTreeSet;

use crate::scenario::Coord;
use crate::scenario::player_aid::{NightAid, PlayerAid};
use crate::scenario::schema::{Nationality, SideId};

use super::Mp;

/// What the night lets units see at one moment: the scenario's Visibility
/// Range, the Illumination counters on the board, and the hexes of units
/// whose Muzzle Flash (or Trip Flare) lights them for a response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NightScene {
    /// Visibility Range in hexes (R 50.0).
    pub visibility_range: u32,
    /// Units this close to an Illumination counter are Illuminated (R 50.1).
    pub lit_within: u32,
    /// Hexes holding Illumination counters (R 50.1).
    pub illumination: Vec<Coord>,
    /// Hexes lit for a response by a Muzzle Flash or a Trip Flare
    /// (R 50.2, R 43.6).
    pub flashing: Vec<Coord>,
}

/// Why a unit may not do something at Night.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NightRefusal {
    /// The target is beyond the firer's Visibility Range and not
    /// Illuminated (R 50.2).
    OutOfSight { range: u32, vr: u32 },
    /// An Illumination counter goes within so many hexes of a friendly unit
    /// (R 50.1).
    IlluminationTooFar { range: u32, most: u32 },
    /// The unit placing an Illumination counter is in Melee (R 50.1).
    IlluminationFromMelee,
    /// Only at Night (R 50.1, R 50.3).
    NotNight,
    /// Every one-time Illumination counter of the side is spent (R 50.1).
    NoIlluminationLeft { had: u8 },
}

impl std::fmt::Display for NightRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NightRefusal::OutOfSight { range, vr } => write!(
                f,
                "target {range} hexes away, beyond the Visibility Range {vr} and not Illuminated (R 50.2)"
            ),
            NightRefusal::IlluminationTooFar { range, most } => write!(
                f,
                "Illumination {range} hexes away: within {most} of the unit placing it (R 50.1)"
            ),
            NightRefusal::IlluminationFromMelee => {
                write!(f, "a unit in Melee may not place Illumination (R 50.1)")
            }
            NightRefusal::NotNight => write!(f, "only in a Night scenario (R 50.0)"),
            NightRefusal::NoIlluminationLeft { had } => write!(
                f,
                "all {had} Illumination counters of the side are spent: one-time counters (R 50.1)"
            ),
        }
    }
}

impl NightScene {
    /// The scene of a Night scenario with Visibility Range `vr`, no
    /// counters yet.
    pub fn new(aid: &NightAid, vr: u8) -> Self {
        NightScene {
            visibility_range: u32::from(vr),
            lit_within: u32::from(aid.illuminated_within),
            illumination: Vec::new(),
            flashing: Vec::new(),
        }
    }

    /// R 50.1: units in the hex of an Illumination counter or adjacent to
    /// it are Illuminated.
    pub fn illuminated(&self, at: Coord) -> bool {
        self.illumination
            .iter()
            .any(|c| c.distance(at) <= self.lit_within)
    }

    /// R 50.0: within the Visibility Range of a unit in `from`.
    pub fn in_range(&self, from: Coord, to: Coord) -> bool {
        from.distance(to) <= self.visibility_range
    }

    /// Whether a unit in `from` sees a unit in `to` (LOS aside): within
    /// its Visibility Range, Illuminated, or lit by a Muzzle Flash or Trip
    /// Flare (R 50.0, R 50.2, R 43.6). An unseen unit is "out of LOS" for
    /// fire, Concealment, spotting and Rout (R 50.2).
    pub fn sees(&self, from: Coord, to: Coord) -> bool {
        self.in_range(from, to) || self.illuminated(to) || self.flashing.contains(&to)
    }

    /// R 50.2: units may only fire at targets within the Visibility Range
    /// or Illuminated (Muzzle Flashes and Trip Flares excepted).
    pub fn may_fire(&self, from: Coord, to: Coord) -> Result<(), NightRefusal> {
        if self.sees(from, to) {
            Ok(())
        } else {
            Err(NightRefusal::OutOfSight {
                range: from.distance(to),
                vr: self.visibility_range,
            })
        }
    }

    /// Every hex of a `columns` x `rows` board that at least one unit in
    /// `viewers` sees (LOS aside): the board's lit part for that side.
    pub fn visible(&self, columns: u8, rows: u8, viewers: &[Coord]) -> BTreeSet<Coord> {
        let mut seen = BTreeSet::new();
        for col in 0..columns {
            for row in 0..rows {
                let at = Coord::new(col, row);
                if viewers.iter().any(|v| self.sees(*v, at)) {
                    seen.insert(at);
                }
            }
        }
        seen
    }

    /// For a position (each unit's side and hex), the hexes each side can
    /// see and so fire at, LOS aside (R 50.0, R 50.1, R 50.2): indexed by
    /// `SideId::index`.
    pub fn sides(&self, columns: u8, rows: u8, units: &[(SideId, Coord)]) -> [BTreeSet<Coord>; 2] {
        let of = |side: SideId| -> Vec<Coord> {
            units
                .iter()
                .filter(|(s, _)| *s == side)
                .map(|(_, c)| *c)
                .collect()
        };
        let mut out = [BTreeSet::new(), BTreeSet::new()];
        for side in [SideId::Allies, SideId::Axis] {
            out[side.index()] = self.visible(columns, rows, &of(side));
        }
        out
    }
}

/// R 50.1: an Illumination counter may be placed within its range of a
/// friendly unit not in Melee (the unit counts as one selected in the
/// Operations Range).
pub fn check_illumination(
    aid: &NightAid,
    from: Coord,
    at: Coord,
    in_melee: bool,
) -> Result<(), NightRefusal> {
    if in_melee {
        return Err(NightRefusal::IlluminationFromMelee);
    }
    let range = from.distance(at);
    let most = u32::from(aid.illumination_range);
    if range > most {
        return Err(NightRefusal::IlluminationTooFar { range, most });
    }
    Ok(())
}

/// R 50.2, R 59.0: at Night any hex costs non-Japanese Infantry at least
/// this much, before hexside costs; Japanese Infantry moves without it.
/// Every unit class of the roster is Infantry (Squads, WTs, GD Squads,
/// Decoys).
pub fn night_minimum_mp(aid: &PlayerAid, nationality: Nationality) -> Option<Mp> {
    (nationality != Nationality::Japanese).then(|| Mp::from_aid(aid.night.infantry_min_mp))
}

/// R 50.2: at Night entering a hex costs at least `min` MP; the MPs to add
/// to a hex whose own cost is `base`, if any.
pub fn night_minimum_extra(min: Mp, base: Mp) -> Option<Mp> {
    (base < min).then(|| Mp(min.0 - base.0))
}

/// R 43.6: an Infantry unit stops when it enters a Wire hex, and a unit
/// leaving one moves only one hex. `path` is the hexes entered in order,
/// `start_in_wire` whether it starts in Wire, `wire(i)` whether the i-th hex
/// of the path holds Wire. Returns the index of the first hex it may not
/// enter, if any.
pub fn wire_stop(
    start_in_wire: bool,
    path_len: usize,
    wire: impl Fn(usize) -> bool,
) -> Option<usize> {
    if start_in_wire && path_len > 1 {
        return Some(1);
    }
    (0..path_len)
        .find(|&i| wire(i))
        .filter(|&i| i + 1 < path_len)
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aid() -> PlayerAid {
        crate::scenario::builtin_player_aid().unwrap()
    }

    fn c(label: &str) -> Coord {
        Coord::parse(label, 26, 26).unwrap()
    }

    fn scene(vr: u8) -> NightScene {
        NightScene::new(&aid().night, vr)
    }

    /// R 50.0: "an enemy unit [may] be within the VR of one friendly unit
    /// and be fired upon by that unit, while another friendly unit would not
    /// be able to fire at that enemy unit because it was outside of the VR."
    #[test]
    fn one_unit_sees_what_another_does_not() {
        let s = scene(2);
        // C5 is 2 hexes from C3 and 4 from C1.
        assert_eq!(s.may_fire(c("C3"), c("C5")), Ok(()));
        assert_eq!(
            s.may_fire(c("C1"), c("C5")),
            Err(NightRefusal::OutOfSight { range: 4, vr: 2 })
        );
        assert_eq!(
            s.may_fire(c("C1"), c("C5")).unwrap_err().to_string(),
            "target 4 hexes away, beyond the Visibility Range 2 and not Illuminated (R 50.2)"
        );
    }

    /// R 50.1: the counter's hex and the adjacent ones are lit, one further
    /// is not; a lit target may be fired at from beyond the VR.
    #[test]
    fn illumination_lights_its_hex_and_the_adjacent_ones() {
        let mut s = scene(1);
        s.illumination.push(c("F5"));
        assert!(s.illuminated(c("F5")));
        assert!(s.illuminated(c("F6")));
        assert!(s.illuminated(c("G5")));
        assert!(!s.illuminated(c("F7")));
        assert_eq!(s.may_fire(c("F1"), c("F6")), Ok(()));
        assert_eq!(
            s.may_fire(c("F1"), c("F7")),
            Err(NightRefusal::OutOfSight { range: 6, vr: 1 })
        );
    }

    /// R 50.2: a Muzzle Flash lights the firer for the response only.
    #[test]
    fn a_flash_lights_the_firer() {
        let mut s = scene(1);
        assert!(!s.sees(c("A1"), c("A6")));
        s.flashing.push(c("A6"));
        assert!(s.sees(c("A1"), c("A6")));
    }

    /// R 50.1: within 5 hexes, not from Melee.
    #[test]
    fn illumination_is_placed_within_five_hexes_not_from_melee() {
        let a = aid();
        assert_eq!(
            check_illumination(&a.night, c("A1"), c("A6"), false),
            Ok(())
        );
        assert_eq!(
            check_illumination(&a.night, c("A1"), c("A7"), false),
            Err(NightRefusal::IlluminationTooFar { range: 6, most: 5 })
        );
        assert_eq!(
            check_illumination(&a.night, c("A1"), c("A2"), true),
            Err(NightRefusal::IlluminationFromMelee)
        );
    }

    /// R 50.2, R 59.0: 1 1/2 MP for non-Japanese Infantry, none for the
    /// Japanese.
    #[test]
    fn night_minimum_is_one_and_a_half_except_for_japanese() {
        let a = aid();
        assert_eq!(night_minimum_mp(&a, Nationality::UsMarines), Some(Mp(9)));
        assert_eq!(night_minimum_mp(&a, Nationality::Japanese), None);
    }

    /// The position's sight for each side: each unit's VR plus lit hexes.
    #[test]
    fn each_side_sees_around_its_units_and_lit_hexes() {
        let mut s = scene(1);
        s.illumination.push(c("E5"));
        let units = [(SideId::Allies, c("A1")), (SideId::Axis, c("E1"))];
        let [allies, axis] = s.sides(6, 6, &units);
        // A1 and its two on-board neighbours, plus E5's seven hexes.
        assert!(allies.contains(&c("A1")) && allies.contains(&c("B1")));
        assert!(!allies.contains(&c("C1")));
        assert!(allies.contains(&c("E5")) && allies.contains(&c("E6")));
        assert!(axis.contains(&c("E2")) && axis.contains(&c("E4")));
        assert!(!axis.contains(&c("A1")));
    }

    /// R 43.6: stop on entering Wire; one hex only when leaving it.
    #[test]
    fn wire_stops_on_entering_and_leaving() {
        // Path of 3, Wire in the 2nd hex: the 3rd may not be entered.
        assert_eq!(wire_stop(false, 3, |i| i == 1), Some(2));
        // Wire in the last hex: fine.
        assert_eq!(wire_stop(false, 3, |i| i == 2), None);
        // Starting in Wire: one hex only.
        assert_eq!(wire_stop(true, 2, |_| false), Some(1));
        assert_eq!(wire_stop(true, 1, |_| false), None);
    }
}
