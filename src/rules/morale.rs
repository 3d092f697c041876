//! A unit's current Morale for a Morale Check — R 7.0–7.1 (white / yellow /
//! red by Suppression), with the modifiers of the Player Aid §5: Declared
//! Retreat (R 5.3), Withdrawal (R 5.1), Seishin (R 59.5), Banzai (R 59.6),
//! Pluck (R 60.1), No Quarter (R 11.2), Out of Command (R 63.1), Fatigue
//! (R 64.2), Tank Shock (R 20.13). Never below 1. Every modifier value is
//! read from the `morale` rows of `assets/player_aid.ron` by its key.

use std::fmt;

use crate::scenario::player_aid::PlayerAid;

use super::Morale;
use super::fire::SuppressionLevel;

/// A Morale modifier that applies to this check. The caller decides when
/// each applies (phase, nationality, Pluck counters); this module applies the
/// rules between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoraleModifier {
    /// Declared before moving (R 5.3).
    DeclaredRetreat,
    /// Leaving an enemy-occupied hex (R 5.1); no automatic pass at 10.
    Withdrawal,
    /// Seishin declared, Operations Phase (R 59.5).
    Seishin,
    /// In a Banzai Charge this turn (R 59.6).
    Banzai,
    /// Pluck, an MC during movement (R 60.1): yellow and red only.
    Pluck,
    /// Rout Phase, non-Japanese in Melee with Japanese (R 11.2, R 59.1).
    NoQuarterVsJapanese,
    /// Rout Phase, Germans and Russians in Melee with each other from 1942
    /// (R 11.2).
    NoQuarterGermanRussian,
    /// Out of Command, the MC to move (R 63.1).
    OutOfCommand,
    /// Fatigue levels (R 64.2): applied first, to a minimum of 1.
    Fatigue(u8),
    /// Tank Shock (R 20.13).
    TankShock,
}

impl MoraleModifier {
    /// The key of its row in the Player Aid `morale` table.
    pub fn key(self) -> &'static str {
        match self {
            MoraleModifier::DeclaredRetreat => "declared_retreat",
            MoraleModifier::Withdrawal => "withdrawal",
            MoraleModifier::Seishin => "seishin",
            MoraleModifier::Banzai => "banzai",
            MoraleModifier::Pluck => "pluck",
            MoraleModifier::NoQuarterVsJapanese => "no_quarter_vs_japanese",
            MoraleModifier::NoQuarterGermanRussian => "no_quarter_german_russian",
            MoraleModifier::OutOfCommand => "out_of_command",
            MoraleModifier::Fatigue(_) => "fatigue",
            MoraleModifier::TankShock => "tank_shock",
        }
    }

    pub fn rule(self) -> &'static str {
        match self {
            MoraleModifier::DeclaredRetreat => "R 5.3",
            MoraleModifier::Withdrawal => "R 5.1",
            MoraleModifier::Seishin => "R 59.5",
            MoraleModifier::Banzai => "R 59.6",
            MoraleModifier::Pluck => "R 60.1",
            MoraleModifier::NoQuarterVsJapanese | MoraleModifier::NoQuarterGermanRussian => {
                "R 11.2"
            }
            MoraleModifier::OutOfCommand => "R 63.1",
            MoraleModifier::Fatigue(_) => "R 64.2",
            MoraleModifier::TankShock => "R 20.13",
        }
    }
}

/// The unit and what applies to its check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoraleContext {
    /// White, yellow and red Morale of the counter side in play (R 2.1).
    pub morale: (u8, u8, u8),
    pub suppression: SuppressionLevel,
    pub modifiers: Vec<MoraleModifier>,
}

/// One line of the Morale value.
pub type MoraleLine = super::ModLine;

/// The Morale, line by line; the lines add up to `total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoraleBreakdown {
    pub lines: Vec<MoraleLine>,
    pub total: Morale,
    /// Withdrawing: a 10 is not an automatic pass (R 7.1, R 5.1).
    pub withdrawing: bool,
}

/// Why the modifiers asked for cannot go together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoraleRefusal {
    /// Declared Retreat is not for units starting in an enemy hex, and
    /// Withdrawal is only for them (R 5.3, R 5.1).
    RetreatWhileWithdrawing,
    /// The same modifier twice.
    Repeated { key: &'static str },
    /// The Player Aid has no Morale value under this key.
    MissingData { key: String },
}

impl fmt::Display for MoraleRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoraleRefusal::RetreatWhileWithdrawing => write!(
                f,
                "a unit leaving an enemy hex may not Declare Retreat (R 5.3, R 5.1)"
            ),
            MoraleRefusal::Repeated { key } => write!(f, "`{key}` given twice"),
            MoraleRefusal::MissingData { key } => {
                write!(f, "the Player Aid has no Morale value for `{key}`")
            }
        }
    }
}

/// The Morale total of [`morale_value`], or the plain white/yellow/red
/// value when the modifiers cannot combine (an impossible pair is refused
/// by the order's checks before any MC is rolled).
pub fn morale_total(aid: &PlayerAid, ctx: &MoraleContext) -> super::Morale {
    morale_value(aid, ctx).map_or(super::Morale(ctx.morale.0), |b| b.total)
}

/// The unit's current Morale for an MC (R 7.0, R 7.1, PAC §5): the white,
/// yellow or red value by its Suppression, Fatigue first (to a minimum of 1,
/// R 64.2), then every other modifier, never below 1.
///
/// Rules between modifiers: in a Banzai Charge, Seishin has no effect
/// (R 59.6), nor Out of Command (R 63.1) nor Fatigue (R 59.6); Pluck adds
/// only to yellow and red Morale (R 60.1). A modifier that has no effect
/// keeps a 0 line saying why.
pub fn morale_value(
    aid: &PlayerAid,
    ctx: &MoraleContext,
) -> Result<MoraleBreakdown, MoraleRefusal> {
    let has = |m: MoraleModifier| ctx.modifiers.contains(&m);
    if has(MoraleModifier::DeclaredRetreat) && has(MoraleModifier::Withdrawal) {
        return Err(MoraleRefusal::RetreatWhileWithdrawing);
    }
    for (i, m) in ctx.modifiers.iter().enumerate() {
        if ctx.modifiers[..i].iter().any(|o| o.key() == m.key()) {
            return Err(MoraleRefusal::Repeated { key: m.key() });
        }
    }
    let banzai = has(MoraleModifier::Banzai);

    let mut lines = Vec::new();
    let (base, colour) = match ctx.suppression {
        SuppressionLevel::None => (ctx.morale.0, "white"),
        SuppressionLevel::Suppressed => (ctx.morale.1, "yellow"),
        SuppressionLevel::Full => (ctx.morale.2, "red"),
    };
    let mut total = i16::from(base);
    lines.push(MoraleLine {
        text: format!("{colour} Morale"),
        delta: total,
        rule: "R 7.0",
    });

    // Morale is never below its floor (PAC §5; R 63.1, R 64.2, R 20.13).
    let morale_floor = i16::from(aid.constants.morale_floor);
    let floor = |lines: &mut Vec<MoraleLine>, total: &mut i16| {
        if *total < morale_floor {
            lines.push(MoraleLine {
                text: "never below 1".to_string(),
                delta: morale_floor - *total,
                rule: "PAC \u{00a7}5",
            });
            *total = morale_floor;
        }
    };

    // Fatigue first, to a minimum of 1 (R 64.2).
    let fatigue = ctx.modifiers.iter().find_map(|m| match m {
        MoraleModifier::Fatigue(n) => Some(*n),
        _ => None,
    });
    let ordered = fatigue.map(MoraleModifier::Fatigue).into_iter().chain(
        ctx.modifiers
            .iter()
            .copied()
            .filter(|m| !matches!(m, MoraleModifier::Fatigue(_))),
    );
    for m in ordered {
        let key = m.key();
        let row = aid
            .morale_row(key)
            .ok_or_else(|| MoraleRefusal::MissingData {
                key: key.to_string(),
            })?;
        let value = i16::from(row.inf.fp().ok_or_else(|| MoraleRefusal::MissingData {
            key: key.to_string(),
        })?);
        let ignored = match m {
            MoraleModifier::Seishin if banzai => Some(("in a Banzai Charge", "R 59.6")),
            MoraleModifier::Fatigue(_) if banzai => Some(("in a Banzai Charge", "R 59.6")),
            MoraleModifier::OutOfCommand if banzai => Some(("in a Banzai Charge", "R 63.1")),
            MoraleModifier::Pluck if ctx.suppression == SuppressionLevel::None => {
                Some(("on white Morale", "R 60.1"))
            }
            _ => None,
        };
        if let Some((why, rule)) = ignored {
            lines.push(MoraleLine {
                text: format!("{}: no effect {why}", row.name),
                delta: 0,
                rule,
            });
            continue;
        }
        let (text, delta) = match m {
            MoraleModifier::Fatigue(n) => {
                (format!("{} \u{00d7}{n}", row.name), value * i16::from(n))
            }
            _ => (row.name.clone(), value),
        };
        total += delta;
        lines.push(MoraleLine {
            text,
            delta,
            rule: m.rule(),
        });
        if matches!(m, MoraleModifier::Fatigue(_)) {
            floor(&mut lines, &mut total);
        }
    }
    floor(&mut lines, &mut total);
    Ok(MoraleBreakdown {
        lines,
        total: Morale(total.clamp(0, i16::from(u8::MAX)) as u8),
        withdrawing: has(MoraleModifier::Withdrawal),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::odds::morale_check;

    fn aid() -> PlayerAid {
        crate::scenario::builtin_player_aid().expect("player aid builds")
    }

    fn morale_of(id: &str) -> (u8, u8, u8) {
        let roster = crate::scenario::builtin_roster().expect("roster builds");
        roster.get(id).expect("unit in roster").full.morale
    }

    fn value(id: &str, s: SuppressionLevel, modifiers: &[MoraleModifier]) -> MoraleBreakdown {
        let b = morale_value(
            &aid(),
            &MoraleContext {
                morale: morale_of(id),
                suppression: s,
                modifiers: modifiers.to_vec(),
            },
        )
        .expect("modifiers go together");
        let sum: i16 = b.lines.iter().map(|l| l.delta).sum();
        assert_eq!(sum, i16::from(b.total.0), "lines add up: {:#?}", b.lines);
        b
    }

    fn deltas(b: &MoraleBreakdown) -> Vec<(i16, &'static str)> {
        b.lines.iter().map(|l| (l.delta, l.rule)).collect()
    }

    use MoraleModifier::*;
    use SuppressionLevel as S;

    /// R 7.0: white, yellow, red by Suppression (Paratroopers 10/6/2).
    #[test]
    fn colour_by_suppression() {
        assert_eq!(value("para_squad", S::None, &[]).total, Morale(10));
        assert_eq!(value("para_squad", S::Suppressed, &[]).total, Morale(6));
        assert_eq!(value("para_squad", S::Full, &[]).total, Morale(2));
    }

    /// R 5.3 / R 9.0: a Suppressed unit with a Declared Retreat keeps +4:
    /// 6 + 4 = 10, a pass with no roll (R 7.1).
    #[test]
    fn declared_retreat_plus_4() {
        let b = value("para_squad", S::Suppressed, &[DeclaredRetreat]);
        assert_eq!(deltas(&b), vec![(6, "R 7.0"), (4, "R 5.3")]);
        assert_eq!(b.total, Morale(10));
        let c = morale_check(&aid(), b.total, b.withdrawing);
        assert!(!c.needs_roll);
    }

    /// R 5.1: −3 to leave a Melee, never below 1; a white 10 − 3 = 7 needs
    /// a roll.
    #[test]
    fn withdrawal_minus_3_never_below_1() {
        let b = value("para_squad", S::Full, &[Withdrawal]);
        assert_eq!(
            deltas(&b),
            vec![(2, "R 7.0"), (-3, "R 5.1"), (2, "PAC \u{00a7}5")]
        );
        assert_eq!(b.total, Morale(1));
        let b = value("para_squad", S::None, &[Withdrawal]);
        assert_eq!(b.total, Morale(7));
        assert!(b.withdrawing);
        assert_eq!(morale_check(&aid(), b.total, b.withdrawing).passes, 7);
    }

    /// R 64.2: Fatigue first, to a minimum of 1, then the rest: red 2,
    /// Fatigue 3 → 1, Declared Retreat → 5 (not 2 − 3 + 4 = 3).
    #[test]
    fn fatigue_first_to_a_minimum_of_1() {
        let b = value("para_squad", S::Full, &[DeclaredRetreat, Fatigue(3)]);
        assert_eq!(
            deltas(&b),
            vec![
                (2, "R 7.0"),
                (-3, "R 64.2"),
                (2, "PAC \u{00a7}5"),
                (4, "R 5.3")
            ]
        );
        assert_eq!(b.total, Morale(5));
    }

    /// R 59.5 / R 59.6: Seishin +1; in a Banzai Charge +2 and no Seishin,
    /// no Out of Command.
    #[test]
    fn seishin_and_banzai() {
        let b = value("jap_squad", S::Suppressed, &[Seishin]);
        assert_eq!(b.total, Morale(6 + 1));
        let b = value("jap_squad", S::Suppressed, &[Seishin, Banzai, OutOfCommand]);
        assert_eq!(
            deltas(&b),
            vec![(6, "R 7.0"), (0, "R 59.6"), (2, "R 59.6"), (0, "R 63.1")]
        );
        assert_eq!(b.total, Morale(8));
        let b = value("jap_squad", S::None, &[Seishin]);
        assert_eq!(b.total, Morale(11));
        assert!(!morale_check(&aid(), b.total, false).needs_roll);
    }

    /// R 60.1: Pluck +1 on yellow and red, not white.
    #[test]
    fn pluck_yellow_and_red_only() {
        assert_eq!(
            value("para_squad", S::Suppressed, &[Pluck]).total,
            Morale(7)
        );
        assert_eq!(value("para_squad", S::Full, &[Pluck]).total, Morale(3));
        let b = value("para_squad", S::None, &[Pluck]);
        assert_eq!(deltas(&b), vec![(10, "R 7.0"), (0, "R 60.1")]);
    }

    /// R 11.2 No Quarter, R 63.1 Out of Command, R 20.13 Tank Shock.
    #[test]
    fn other_modifiers() {
        assert_eq!(
            value("para_squad", S::Full, &[NoQuarterVsJapanese]).total,
            Morale(4)
        );
        assert_eq!(
            value("ger1_squad", S::Suppressed, &[NoQuarterGermanRussian]).total,
            Morale(6)
        );
        assert_eq!(
            value("para_squad", S::Suppressed, &[OutOfCommand]).total,
            Morale(3)
        );
        assert_eq!(
            value("para_squad", S::Suppressed, &[TankShock]).total,
            Morale(5)
        );
    }

    #[test]
    fn refusals() {
        let ctx = MoraleContext {
            morale: morale_of("para_squad"),
            suppression: S::None,
            modifiers: vec![DeclaredRetreat, Withdrawal],
        };
        assert_eq!(
            morale_value(&aid(), &ctx),
            Err(MoraleRefusal::RetreatWhileWithdrawing)
        );
        let ctx = MoraleContext {
            modifiers: vec![Fatigue(1), Fatigue(2)],
            ..ctx
        };
        assert_eq!(
            morale_value(&aid(), &ctx),
            Err(MoraleRefusal::Repeated { key: "fatigue" })
        );
    }
}
