//! Special Anti-Tank Weapons at Guns and WTs — R 33.0: "When firing at an
//! unconcealed Gun, WT, and Pillboxes within Range of the SATW, a Squad
//! armed with a Bazooka, Panzerschreck, or PIAT may increase its FP by +1.
//! The second (lower) Casualty number of the Gun is also used." (R 20.2
//! says the same of the Casualty number.) Which SATW a Squad carries is
//! roster data (`satw_weapon`); its Range by year and whether it helps at
//! Guns and WTs is PAC data (`player_aid.ron`, `satw_weapons`); the +1 is
//! the Player Aid situation `satw_bonus`, shown in the FP breakdown.
//!
//! Vehicles are not in the game, so the SATW's own FP and the SATW Check
//! are not played.

use crate::rules::Hexes;
use crate::rules::fire::FireKind;
use crate::scenario::player_aid::SatwWeapon;
use crate::scenario::roster::UnitClass;

/// The year of a scenario date as the cards print it ("20 December 1944",
/// "July 1942", "1944"): its last word.
pub fn year(date: &str) -> Option<u16> {
    date.split_whitespace().last()?.parse().ok()
}

/// One shot of a Squad at one unit, as R 33.0 sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SatwShot {
    pub firer: UnitClass,
    pub target: UnitClass,
    pub target_concealed: bool,
    /// The target is in a Pillbox that is not Concealed (R 43.0).
    pub in_pillbox: bool,
    pub range: Hexes,
    pub kind: FireKind,
}

/// R 33.0: the +1 FP (and, at a Gun, its second Casualty number) for a
/// Squad armed with `weapon` in `year`: a Bazooka, Panzerschreck or PIAT
/// (`vs_gun_wt`), issued by then, the target unconcealed and a Gun, a WT or
/// in a Pillbox, within the SATW's Range. Not in Final Op Fire ("SATWs may
/// not be used as part of Final Op Fire").
pub fn gun_wt_bonus(weapon: &SatwWeapon, year: u16, shot: &SatwShot) -> bool {
    let Some(now) = weapon.in_year(year) else {
        return false;
    };
    weapon.vs_gun_wt
        && shot.firer == UnitClass::Squad
        && shot.kind != FireKind::FinalOpFire
        && !shot.target_concealed
        && (shot.target.is_gun() || shot.target.is_weapon_team() || shot.in_pillbox)
        && shot.range.0 <= u32::from(now.range)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::roster::SatwKind;

    fn aid() -> crate::scenario::PlayerAid {
        crate::scenario::builtin_player_aid().unwrap()
    }

    fn shot(target: UnitClass, range: u32) -> SatwShot {
        SatwShot {
            firer: UnitClass::Squad,
            target,
            target_concealed: false,
            in_pillbox: false,
            range: Hexes(range),
            kind: FireKind::Normal,
        }
    }

    #[test]
    fn the_year_of_a_card_date() {
        assert_eq!(year("20 December 1944"), Some(1944));
        assert_eq!(year("July 1942"), Some(1942));
        assert_eq!(year("1944"), Some(1944));
        assert_eq!(year("soon"), None);
    }

    /// PAC §4: FP/Range by year, "—" before a weapon was issued.
    #[test]
    fn the_pac_satw_table() {
        let a = aid();
        let at = |k, y| {
            a.satw_weapon(k)
                .unwrap()
                .in_year(y)
                .map(|s| (s.fp, s.range))
        };
        assert_eq!(at(SatwKind::Bazooka, 1943), Some((9, 4)));
        assert_eq!(at(SatwKind::Bazooka, 1944), Some((11, 4)));
        assert_eq!(at(SatwKind::Panzerfaust, 1942), None);
        assert_eq!(at(SatwKind::Panzerfaust, 1944), Some((22, 2)));
        assert_eq!(at(SatwKind::Panzerfaust, 1945), Some((22, 3)));
        assert_eq!(at(SatwKind::Panzerschreck, 1944), Some((18, 4)));
        assert_eq!(at(SatwKind::Piat, 1944), Some((10, 3)));
        assert_eq!(at(SatwKind::RussianAtr, 1942), Some((4, 10)));
        assert_eq!(at(SatwKind::ItalianAtr, 1945), Some((5, 12)));
        let helps: Vec<SatwKind> = a
            .satw_weapons
            .iter()
            .filter(|w| w.vs_gun_wt)
            .map(|w| w.kind)
            .collect();
        assert_eq!(
            helps,
            [SatwKind::Bazooka, SatwKind::Panzerschreck, SatwKind::Piat]
        );
    }

    /// Every Squad with an SATW number carries a weapon of the PAC table,
    /// and only those.
    #[test]
    fn every_satw_number_has_its_weapon() {
        let a = aid();
        let roster = crate::scenario::builtin_roster().unwrap();
        for u in &roster.units {
            assert_eq!(
                u.full.satw.is_some(),
                u.satw_weapon.is_some(),
                "{}: SATW number and weapon",
                u.id
            );
            if let Some(k) = u.satw_weapon {
                assert!(a.satw_weapon(k).is_some(), "{}: {k:?}", u.id);
            }
        }
        assert_eq!(
            roster.get("para_bazooka").unwrap().satw_weapon,
            Some(SatwKind::Bazooka)
        );
    }

    /// R 33.0: a Bazooka Squad at an unconcealed Gun or WT within 4 hexes,
    /// or at units in a revealed Pillbox; not a Squad, a Concealed target,
    /// beyond Range, in Final Op Fire, nor with a Panzerfaust.
    #[test]
    fn the_bonus_at_guns_wts_and_pillboxes() {
        let a = aid();
        let bazooka = a.satw_weapon(SatwKind::Bazooka).unwrap();
        let faust = a.satw_weapon(SatwKind::Panzerfaust).unwrap();
        let piat = a.satw_weapon(SatwKind::Piat).unwrap();
        let yes = |w, s: SatwShot| gun_wt_bonus(w, 1944, &s);
        assert!(yes(bazooka, shot(UnitClass::Gun, 4)));
        assert!(yes(bazooka, shot(UnitClass::MgTeam, 1)));
        assert!(yes(bazooka, shot(UnitClass::MortarTeam, 3)));
        assert!(!yes(bazooka, shot(UnitClass::Gun, 5)));
        assert!(!yes(bazooka, shot(UnitClass::Squad, 2)));
        assert!(yes(
            bazooka,
            SatwShot {
                in_pillbox: true,
                ..shot(UnitClass::Squad, 2)
            }
        ));
        assert!(!yes(
            bazooka,
            SatwShot {
                target_concealed: true,
                ..shot(UnitClass::Gun, 2)
            }
        ));
        assert!(!yes(
            bazooka,
            SatwShot {
                kind: FireKind::FinalOpFire,
                ..shot(UnitClass::Gun, 1)
            }
        ));
        assert!(yes(
            bazooka,
            SatwShot {
                kind: FireKind::OpFire,
                ..shot(UnitClass::Gun, 2)
            }
        ));
        assert!(!yes(faust, shot(UnitClass::Gun, 1)));
        assert!(yes(piat, shot(UnitClass::Gun, 3)));
        assert!(!yes(piat, shot(UnitClass::Gun, 4)));
        // A PIAT before 1943 was not issued.
        assert!(!gun_wt_bonus(piat, 1942, &shot(UnitClass::Gun, 1)));
    }
}
