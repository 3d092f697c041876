//! Combat Events — R 17.0 and the two Event Tables of the rulebook's last
//! page: when an attack causes an event, who rolls on which table, and which
//! units each entry may pick. The tables themselves (rolls, texts, numbers)
//! are data (`assets/player_aid.ron`, `combat_events`); the engine applies
//! the effects (`engine::combat_events`).
//!
//! Guns (R 20.0) are neither Squads nor WTs (R 2.0: the two types of
//! Infantry unit) nor Infantry: a Gun firing a 1 causes no event, Sniper
//! Attacks, Rally, Stragglers, Gone to Ground, Pinned and Fugg Babe Ruth
//! never pick one; entry 1 removes a Gun, entry 5 may reveal one, entry 8
//! readies two Infantry units or one Gun (the roller's choice), and an
//! Ambush may be rolled by a Gun in Melee or fall on one. Vehicles, SATTs
//! and Carriers are not in the game: the entries naming them find none.

use crate::map::Board;
use crate::rules::D10;
use crate::scenario::Coord;
use crate::scenario::player_aid::{CombatEvents, EventEffect, EventEntry, EventRoll};
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{Nationality, SideId};

/// The two tables of R 17.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Combat,
    Japanese,
}

impl Table {
    pub fn name(self) -> &'static str {
        match self {
            Table::Combat => "Combat Event Table",
            Table::Japanese => "Japanese Event Table",
        }
    }

    pub fn entries(self, ce: &CombatEvents) -> &[EventEntry] {
        match self {
            Table::Combat => &ce.combat,
            Table::Japanese => &ce.japanese,
        }
    }
}

/// A unit as the event entries see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub id: crate::map::UnitId,
    pub side: SideId,
    pub class: UnitClass,
    pub nationality: Nationality,
    pub at: Coord,
    pub in_cave: bool,
    pub reduced: bool,
    pub concealed: bool,
    pub used: bool,
    pub op_fire: bool,
    /// Its hex gives it a Beneficial Terrain modifier (R 15.0).
    pub beneficial: bool,
    /// It is being Used right now (the unit moving).
    pub moving: bool,
}

/// A Squad (a GD Squad is a Squad, R 59.3).
pub fn is_squad(class: UnitClass) -> bool {
    matches!(class, UnitClass::Squad | UnitClass::GdSquad)
}

/// A Squad or WT (R 2.0): not a Decoy, not a Gun (R 20.2: a Gun and its
/// crew are one unit of their own).
pub fn is_squad_or_wt(class: UnitClass) -> bool {
    match class {
        UnitClass::Squad | UnitClass::MgTeam | UnitClass::MortarTeam | UnitClass::GdSquad => true,
        UnitClass::Decoy | UnitClass::Gun => false,
    }
}

/// A unit that rolls Melee dice (R 12.0): every one but a Decoy; a Gun
/// fights as a Full-Strength WT (R 20.8).
pub fn rolls_melee(class: UnitClass) -> bool {
    class != UnitClass::Decoy
}

/// R 17.0: a Squad or WT rolling `fire_roll` (a 1) when firing on another
/// unit in the Operations Phase may cause a Combat Event; MCs never do, nor
/// a Gun's roll (a Gun is not a Squad or WT; `docs/decisions.md`).
pub fn may_cause_event(ce: &CombatEvents, roll: D10, firer: UnitClass, operations: bool) -> bool {
    operations && roll.0 == ce.fire_roll && is_squad_or_wt(firer)
}

/// R 17.0: the additional roll: who rolls, on which table. `japanese` is
/// the Japanese side, if the scenario has one; without it a 3 is ignored.
pub fn who_rolls(
    ce: &CombatEvents,
    roll: D10,
    attacker: SideId,
    japanese: Option<SideId>,
) -> Option<(SideId, Table)> {
    match ce.event_roll(roll.0)? {
        EventRoll::AttackerRolls => Some((attacker, Table::Combat)),
        EventRoll::OtherRolls => Some((attacker.other(), Table::Combat)),
        EventRoll::JapaneseTable => japanese.map(|j| (j, Table::Japanese)),
    }
}

fn ids<'a>(pieces: impl Iterator<Item = &'a Piece>) -> Vec<String> {
    let mut v: Vec<String> = pieces.map(|p| p.id.to_string()).collect();
    v.sort();
    v
}

/// Units of the other side in the same location (R 12.0).
pub fn in_melee(pieces: &[Piece], p: &Piece) -> bool {
    pieces
        .iter()
        .any(|o| o.side != p.side && o.at == p.at && o.in_cave == p.in_cave)
}

/// Entry 1: the unit that made the roll, or one unit fired upon (the units
/// of the other side in the target hex). A Decoy or Gun picked is removed
/// (`casualty_removes`), Infantry is Reduced.
pub fn casualty_options(pieces: &[Piece], firer: &str, target: Coord) -> Vec<String> {
    let Some(f) = pieces.iter().find(|p| p.id == firer) else {
        return ids(pieces
            .iter()
            .filter(|p| p.at == target && !p.in_cave && p.id != firer));
    };
    let mut v = vec![f.id.to_string()];
    v.extend(ids(pieces
        .iter()
        .filter(|p| p.at == target && !p.in_cave && p.side != f.side)));
    v
}

/// Entry 1: the unit picked is removed, not Reduced: a Decoy or a Gun
/// (SATTs and Vehicles are not in the game).
pub fn casualty_removes(class: UnitClass) -> bool {
    matches!(class, UnitClass::Decoy | UnitClass::Gun)
}

/// Sniper Attack (entry 2; Japanese 1-3): unconcealed Squads/WTs, of the
/// enemy only when `enemy_only` (the Japanese table).
pub fn sniper_options(pieces: &[Piece], roller: SideId, enemy_only: bool) -> Vec<String> {
    ids(pieces
        .iter()
        .filter(|p| is_squad_or_wt(p.class) && !p.concealed && (!enemy_only || p.side != roller)))
}

/// Entry 3: Reduced Squads.
pub fn restore_options(pieces: &[Piece]) -> Vec<String> {
    ids(pieces.iter().filter(|p| is_squad(p.class) && p.reduced))
}

/// Entry 4: the Squads a returning Squad may be placed with: lone Squads of
/// its side and nationality (a Concealed one gives up its Concealment).
pub fn return_hosts(pieces: &[Piece], side: SideId, nationality: Nationality) -> Vec<String> {
    ids(pieces.iter().filter(|p| {
        p.side == side
            && p.nationality == nationality
            && is_squad(p.class)
            && !pieces
                .iter()
                .any(|o| o.id != p.id && o.side == side && o.at == p.at && o.in_cave == p.in_cave)
    }))
}

/// Entry 5: enemy units under Conceal counters.
pub fn reveal_options(pieces: &[Piece], roller: SideId) -> Vec<String> {
    ids(pieces.iter().filter(|p| p.side != roller && p.concealed))
}

/// Entry 6: unconcealed Squads/WTs in Beneficial Terrain, not adjacent to
/// (nor with) an enemy unit (adjacent as R 43.4 and R 47.4 have it).
pub fn conceal_options(board: &Board, pieces: &[Piece]) -> Vec<String> {
    use super::fortifications::{Place, adjacent};
    let place = |p: &Piece| Place {
        coord: p.at,
        in_cave: p.in_cave,
    };
    ids(pieces.iter().filter(|p| {
        is_squad_or_wt(p.class)
            && !p.concealed
            && p.beneficial
            && !pieces
                .iter()
                .any(|o| o.side != p.side && (o.at == p.at || adjacent(board, place(o), place(p))))
    }))
}

/// Entry 7: unconcealed Squads/WTs not yet Used (an Op Fire marker is
/// replaced by the Used one).
pub fn mark_used_options(pieces: &[Piece]) -> Vec<String> {
    ids(pieces
        .iter()
        .filter(|p| is_squad_or_wt(p.class) && !p.concealed && !p.used && !p.moving))
}

/// Entry 8: Infantry units with a Used or Op Fire counter.
pub fn ready_options(pieces: &[Piece]) -> Vec<String> {
    ids(pieces
        .iter()
        .filter(|p| is_squad_or_wt(p.class) && (p.used || p.op_fire) && !p.moving))
}

/// Entry 8: Guns with a Used or Op Fire counter (the one "Vehicle, Gun, or
/// Carrier with passengers": only Guns are in the game).
pub fn ready_gun_options(pieces: &[Piece]) -> Vec<String> {
    ids(pieces
        .iter()
        .filter(|p| p.class.is_gun() && (p.used || p.op_fire) && !p.moving))
}

/// The answer that takes entry 8's "2 Infantry units".
pub const READY_INFANTRY: &str = "infantry";
/// The answer that takes entry 8's "1 Gun".
pub const READY_GUN: &str = "gun";

/// Entry 8's choice (R 17.0: "2 Infantry units or 1 Vehicle, Gun, or
/// Carrier"): the units themselves when only one kind qualifies, else the
/// roller first picks the kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadyChoice {
    Nothing,
    Infantry(Vec<String>),
    Guns(Vec<String>),
    /// Both kinds qualify: the roller picks [`READY_INFANTRY`] or
    /// [`READY_GUN`].
    Either,
}

pub fn ready_choice(pieces: &[Piece]) -> ReadyChoice {
    let infantry = ready_options(pieces);
    let guns = ready_gun_options(pieces);
    match (infantry.is_empty(), guns.is_empty()) {
        (true, true) => ReadyChoice::Nothing,
        (false, true) => ReadyChoice::Infantry(infantry),
        (true, false) => ReadyChoice::Guns(guns),
        (false, false) => ReadyChoice::Either,
    }
}

/// Entry 10: any other entry of the Combat Event Table, by its roll.
pub fn choose_options(table: &[EventEntry]) -> Vec<String> {
    table
        .iter()
        .filter(|e| e.effect != EventEffect::Choose)
        .map(|e| e.from.to_string())
        .collect()
}

/// Fugg Babe Ruth: enemy Infantry units (Decoys included: they are
/// revealed). A Gun is not Infantry (R 2.0, R 20.2; `docs/decisions.md`).
pub fn fugg_options(pieces: &[Piece], japanese: SideId) -> Vec<String> {
    ids(pieces
        .iter()
        .filter(|p| p.side != japanese && p.class.is_infantry()))
}

/// Fugg Babe Ruth: the roll, plus the bonus unless the unit is a Marine
/// unit; at `fires_on` or more it fires at an imaginary target.
pub fn fugg_fires(roll: D10, marine: bool, fires_on: u8, non_marine_bonus: u8) -> (u8, bool) {
    let total = roll.0 + if marine { 0 } else { non_marine_bonus };
    (total, total >= fires_on)
}

/// Ambush: Japanese units in a Melee ("one of his units": a Gun too, which
/// fights as a Full-Strength WT, R 20.8).
pub fn ambush_options(pieces: &[Piece], japanese: SideId) -> Vec<String> {
    ids(pieces
        .iter()
        .filter(|p| p.side == japanese && rolls_melee(p.class) && in_melee(pieces, p)))
}

/// Banzai: Japanese non-GD Squads, unconcealed, not in Melee, not Used nor
/// being Used (an Op Fire marker is allowed).
pub fn banzai_options(pieces: &[Piece], japanese: SideId) -> Vec<String> {
    ids(pieces.iter().filter(|p| {
        p.side == japanese
            && p.class == UnitClass::Squad
            && !p.concealed
            && !p.used
            && !p.moving
            && !in_melee(pieces, p)
    }))
}

/// How many picks an entry asks for, when it asks for units.
pub fn picks(effect: EventEffect) -> usize {
    usize::from(match effect {
        EventEffect::Casualty
        | EventEffect::Choose
        | EventEffect::FuggBabeRuth { .. }
        | EventEffect::Ambush
        | EventEffect::Banzai => 1,
        EventEffect::Sniper { units, .. }
        | EventEffect::Restore { units }
        | EventEffect::Return { units }
        | EventEffect::Reveal { units }
        | EventEffect::Conceal { units }
        | EventEffect::MarkUsed { units } => units,
        EventEffect::Ready { infantry, .. } => infantry,
        EventEffect::CommandPoints { .. } => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ce() -> CombatEvents {
        crate::scenario::builtin_player_aid().unwrap().combat_events
    }

    fn c(label: &str) -> Coord {
        Coord::parse(label, 16, 12).unwrap()
    }

    fn piece(id: &str, side: SideId, class: UnitClass, at: &str) -> Piece {
        Piece {
            id: id.into(),
            side,
            class,
            nationality: if side == SideId::Allies {
                Nationality::UsMarines
            } else {
                Nationality::Japanese
            },
            at: c(at),
            in_cave: false,
            reduced: false,
            concealed: false,
            used: false,
            op_fire: false,
            beneficial: false,
            moving: false,
        }
    }

    use SideId::{Allies, Axis};
    use UnitClass::{Decoy, GdSquad, Gun, MgTeam, MortarTeam, Squad};

    #[test]
    fn the_tables_cover_every_roll_and_check_themselves() {
        let ce = ce();
        assert_eq!(ce.problems(10), Vec::<String>::new());
        let titles: Vec<String> = (1..=10)
            .map(|r| CombatEvents::entry(&ce.combat, r).unwrap().title.clone())
            .collect();
        assert_eq!(titles.len(), 10);
        let japanese: Vec<&str> = (1..=10)
            .map(|r| CombatEvents::entry(&ce.japanese, r).unwrap().title.as_str())
            .collect();
        assert_eq!(
            japanese,
            [
                "Sniper Attack",
                "Sniper Attack",
                "Sniper Attack",
                "Fugg Babe Ruth",
                "Fugg Babe Ruth",
                "Fugg Babe Ruth",
                "Ambush",
                "Ambush",
                "Banzai",
                "Banzai"
            ]
        );
        let mut broken = ce.clone();
        broken.combat.pop();
        broken.japanese[0].to = 4;
        assert_eq!(
            broken.problems(10),
            [
                "combat_events.combat: roll 10 is covered 0 times (must be once)",
                "combat_events.japanese: roll 4 is covered 2 times (must be once)",
            ]
        );
    }

    /// R 17.0: only a 1 by a Squad or WT in the Operations Phase.
    #[test]
    fn only_a_firing_one_by_a_squad_or_wt_in_operations() {
        let ce = ce();
        assert!(may_cause_event(&ce, D10(1), Squad, true));
        assert!(may_cause_event(&ce, D10(1), MgTeam, true));
        assert!(!may_cause_event(&ce, D10(2), Squad, true));
        assert!(!may_cause_event(&ce, D10(1), Squad, false));
        assert!(!may_cause_event(&ce, D10(1), Decoy, true));
    }

    /// R 17.0 names Squads and WTs; a Gun is neither (R 2.0, R 20.2), so
    /// its 1 causes no event (`docs/decisions.md`).
    #[test]
    fn a_gun_firing_a_one_causes_no_event() {
        let ce = ce();
        assert!(may_cause_event(&ce, D10(1), MortarTeam, true));
        assert!(may_cause_event(&ce, D10(1), GdSquad, true));
        assert!(!may_cause_event(&ce, D10(1), Gun, true));
        assert!(!is_squad_or_wt(Gun));
        assert!(!is_squad_or_wt(Decoy));
    }

    /// R 17.0: 1 the attacker, 2 the other player, 3 the Japanese table (or
    /// nothing without Japanese), 4-10 nothing.
    #[test]
    fn the_additional_roll() {
        let ce = ce();
        let who = |r, j| who_rolls(&ce, D10(r), Allies, j);
        assert_eq!(who(1, None), Some((Allies, Table::Combat)));
        assert_eq!(who(2, None), Some((Axis, Table::Combat)));
        assert_eq!(who(3, None), None);
        assert_eq!(who(3, Some(Axis)), Some((Axis, Table::Japanese)));
        for r in 4..=10 {
            assert_eq!(who(r, Some(Axis)), None);
        }
    }

    fn board() -> Vec<Piece> {
        let mut a1 = piece("A1", Allies, Squad, "C3");
        a1.reduced = true;
        a1.beneficial = true;
        let mut a2 = piece("A2", Allies, MgTeam, "C4");
        a2.concealed = true;
        a2.used = true;
        let mut a3 = piece("A3", Allies, Squad, "E5");
        a3.op_fire = true;
        let mut g1 = piece("G1", Axis, Squad, "E5");
        g1.reduced = true;
        let mut g2 = piece("G2", Axis, GdSquad, "H5");
        g2.reduced = true;
        g2.beneficial = true;
        let mut g3 = piece("G3", Axis, Decoy, "H6");
        g3.concealed = true;
        let mut g4 = piece("G4", Axis, Squad, "J5");
        g4.used = true;
        let g5 = piece("G5", Axis, Squad, "J6");
        vec![a1, a2, a3, g1, g2, g3, g4, g5]
    }

    /// `board()` with Guns: GG1 (Used, unconcealed, in Beneficial Terrain)
    /// with G2 in H5, GG2 Concealed and marked Op Fire in J8, and the
    /// Allied AG in the Melee at E5 (marked Reduced, which a Gun never is,
    /// to show entry 3 still leaves it out).
    fn gun_board() -> Vec<Piece> {
        let mut b = board();
        let mut gg1 = piece("GG1", Axis, Gun, "H5");
        gg1.used = true;
        gg1.beneficial = true;
        let mut gg2 = piece("GG2", Axis, Gun, "J8");
        gg2.concealed = true;
        gg2.op_fire = true;
        gg2.beneficial = true;
        let mut ag = piece("AG", Allies, Gun, "E5");
        ag.reduced = true;
        b.extend([gg1, gg2, ag]);
        b
    }

    /// Entry 1: a Gun fired upon may be picked, and is removed, like a
    /// Decoy; Infantry is Reduced.
    #[test]
    fn entry_1_removes_a_gun() {
        assert_eq!(
            casualty_options(&gun_board(), "A3", c("H5")),
            ["A3", "G2", "GG1"]
        );
        assert!(casualty_removes(Gun));
        assert!(casualty_removes(Decoy));
        assert!(!casualty_removes(Squad));
        assert!(!casualty_removes(MgTeam));
    }

    /// Entries 2, 3, 6, 7 and the Japanese Sniper name Squads/WTs: an
    /// unconcealed, unused Gun in Beneficial Terrain away from the enemy
    /// (GG1 before it was Used, AG) is never among them.
    #[test]
    fn guns_are_not_squads_or_wts_for_entries_2_3_6_7() {
        let mut b = gun_board();
        b[8].used = false;
        assert_eq!(
            sniper_options(&b, Allies, false),
            ["A1", "A3", "G1", "G2", "G4", "G5"]
        );
        assert_eq!(sniper_options(&b, Axis, true), ["A1", "A3"]);
        assert_eq!(restore_options(&b), ["A1", "G1", "G2"]);
        assert_eq!(conceal_options(&map(false), &b), ["A1", "G2"]);
        assert_eq!(mark_used_options(&b), ["A1", "A3", "G1", "G2", "G5"]);
    }

    /// Entry 4: a Squad stacked with a friendly Gun is not lone.
    #[test]
    fn entry_4_a_squad_with_a_gun_is_not_lone() {
        assert_eq!(
            return_hosts(&gun_board(), Allies, Nationality::UsMarines),
            ["A1"]
        );
    }

    /// Entry 5: a Concealed Gun is one of the enemy units that may be
    /// revealed.
    #[test]
    fn entry_5_reveals_a_concealed_gun() {
        assert_eq!(reveal_options(&gun_board(), Allies), ["G3", "GG2"]);
    }

    /// Entry 8: two Infantry units or one Gun; the roller chooses when both
    /// kinds qualify, else the kind that does.
    #[test]
    fn entry_8_two_infantry_or_one_gun() {
        let b = gun_board();
        assert_eq!(ready_options(&b), ["A2", "A3", "G4"]);
        assert_eq!(ready_gun_options(&b), ["GG1", "GG2"]);
        assert_eq!(ready_choice(&b), ReadyChoice::Either);
        let no_infantry: Vec<Piece> = b.iter().filter(|p| p.class == Gun).cloned().collect();
        assert_eq!(
            ready_choice(&no_infantry),
            ReadyChoice::Guns(vec!["GG1".into(), "GG2".into()])
        );
        assert_eq!(
            ready_choice(&board()),
            ReadyChoice::Infantry(vec!["A2".into(), "A3".into(), "G4".into()])
        );
        assert_eq!(ready_choice(&no_infantry[2..]), ReadyChoice::Nothing);
    }

    /// Fugg Babe Ruth picks an enemy Infantry unit: not a Gun (AG).
    #[test]
    fn fugg_babe_ruth_never_picks_a_gun() {
        assert_eq!(fugg_options(&gun_board(), Axis), ["A1", "A2", "A3"]);
    }

    /// Ambush: "one of his units in a Melee": a Gun in a Melee rolls too.
    #[test]
    fn a_gun_in_melee_may_ambush() {
        assert_eq!(ambush_options(&gun_board(), Allies), ["A3", "AG"]);
    }

    #[test]
    fn entry_1_the_firer_or_a_unit_fired_upon() {
        assert_eq!(casualty_options(&board(), "A3", c("H5")), ["A3", "G2"]);
        assert_eq!(casualty_options(&board(), "G5", c("E5")), ["G5", "A3"]);
    }

    #[test]
    fn entry_2_and_japanese_sniper() {
        let b = board();
        assert_eq!(
            sniper_options(&b, Allies, false),
            ["A1", "A3", "G1", "G2", "G4", "G5"]
        );
        assert_eq!(sniper_options(&b, Axis, true), ["A1", "A3"]);
    }

    #[test]
    fn entry_3_reduced_squads_only() {
        // A GD Squad is a Squad; WTs are not.
        assert_eq!(restore_options(&board()), ["A1", "G1", "G2"]);
    }

    #[test]
    fn entry_4_lone_squads_of_the_nationality() {
        let b = board();
        // A1 is alone (A2 is in C4); A3 shares E5 only with an enemy.
        assert_eq!(
            return_hosts(&b, Allies, Nationality::UsMarines),
            ["A1", "A3"]
        );
        assert_eq!(
            return_hosts(&b, Allies, Nationality::American),
            Vec::<String>::new()
        );
        let mut b2 = b.clone();
        b2[1].at = c("C3");
        assert_eq!(return_hosts(&b2, Allies, Nationality::UsMarines), ["A3"]);
    }

    #[test]
    fn entry_5_concealed_enemies() {
        assert_eq!(reveal_options(&board(), Allies), ["G3"]);
        assert_eq!(reveal_options(&board(), Axis), ["A2"]);
    }

    /// Open ground, 16 × 12, with a Cliff along H5's north-west side
    /// (toward G5), when `cliff`.
    fn map(cliff: bool) -> Board {
        let hexsides = if cliff {
            r#"[(feature: cliff, hex: "H5", sides: [nw])]"#
        } else {
            "[]"
        };
        let map: crate::scenario::schema::MapSpec = ron::from_str(&format!(
            r#"(columns: 16, rows: 12, base_terrain: open, hexsides: {hexsides})"#
        ))
        .expect("map parses");
        Board::from_map(&map)
    }

    /// Entry 6: "not adjacent to an enemy unit"; R 47.4: "Units on either
    /// side of a Cliff hexside are not adjacent."
    #[test]
    fn entry_6_beneficial_terrain_away_from_enemies() {
        let mut b = board();
        assert_eq!(conceal_options(&map(false), &b), ["A1", "G2"]);
        // An enemy moving next to G2 (H5) takes it off the list.
        b[2].at = c("G5");
        assert_eq!(conceal_options(&map(false), &b), ["A1"]);
        // Unless a Cliff runs between them.
        assert_eq!(conceal_options(&map(true), &b), ["A1", "G2"]);
    }

    #[test]
    fn entry_7_unconcealed_not_used() {
        assert_eq!(mark_used_options(&board()), ["A1", "A3", "G1", "G2", "G5"]);
    }

    #[test]
    fn entry_8_used_or_op_fire_infantry() {
        assert_eq!(ready_options(&board()), ["A2", "A3", "G4"]);
    }

    #[test]
    fn entry_10_any_other_entry() {
        assert_eq!(
            choose_options(&ce().combat),
            ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
        );
    }

    #[test]
    fn fugg_babe_ruth_targets_and_roll() {
        assert_eq!(fugg_options(&board(), Axis), ["A1", "A2", "A3"]);
        // 9 or more fires; +3 unless Marines.
        assert_eq!(fugg_fires(D10(8), true, 9, 3), (8, false));
        assert_eq!(fugg_fires(D10(9), true, 9, 3), (9, true));
        assert_eq!(fugg_fires(D10(6), false, 9, 3), (9, true));
        assert_eq!(fugg_fires(D10(5), false, 9, 3), (8, false));
    }

    #[test]
    fn ambush_needs_a_melee() {
        assert_eq!(ambush_options(&board(), Axis), ["G1"]);
        let mut b = board();
        b[2].at = c("E6");
        assert_eq!(ambush_options(&b, Axis), Vec::<String>::new());
    }

    #[test]
    fn banzai_unconcealed_unused_non_gd_squads_out_of_melee() {
        // G1 is in Melee, G2 is a GD Squad, G3 a Decoy, G4 Used.
        let mut b = board();
        assert_eq!(banzai_options(&b, Axis), ["G5"]);
        b[7].op_fire = true;
        assert_eq!(banzai_options(&b, Axis), ["G5"]);
        b[7].moving = true;
        assert_eq!(banzai_options(&b, Axis), Vec::<String>::new());
    }
}
