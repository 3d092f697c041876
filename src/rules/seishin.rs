//! Seishin — R 59.5: a Japanese Squad marked "S" that is not in the same
//! hex as an enemy unit, passes its MC to move and has enough MPs to reach
//! an enemy occupied hex in that move (with the Seishin MP bonus) may
//! declare Seishin: +1 MP, +1 Morale in the Operations Phase (not Rout) and
//! +2 Melee (not Close Assault) FP that turn; it must attempt to enter a hex
//! which held an enemy unit at the start of its movement. A Squad in a
//! Banzai Charge does not get the effects of Seishin (R 59.6). The Rout
//! exception (benefit 1) is in `rules::rout`.

use std::fmt;

use crate::scenario::roster::UnitClass;

/// What the declaration depends on, for one Squad and its ordered move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declaration {
    /// The unit type carries the "S" (R 59.5).
    pub seishin_squad: bool,
    pub class: UnitClass,
    /// An enemy unit is in the Squad's hex now.
    pub with_enemy: bool,
    /// The Squad charges this turn (R 59.6).
    pub charging: bool,
    /// The last hex of the ordered path holds an enemy unit now, at the
    /// start of the movement.
    pub ends_at_enemy: bool,
}

/// Why Seishin may not be declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeishinRefusal {
    /// Only Japanese Squads marked "S".
    NotSeishin,
    /// Not while in the same hex as an enemy unit.
    WithEnemy,
    /// A charging Squad does not get the effects of Seishin (R 59.6).
    Charging,
    /// The move must attempt to enter a hex holding an enemy unit at the
    /// start of movement.
    NoEnemyAtTheEnd,
}

impl fmt::Display for SeishinRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeishinRefusal::NotSeishin => {
                write!(f, "only a Japanese Squad marked \"S\" has Seishin (R 59.5)")
            }
            SeishinRefusal::WithEnemy => write!(
                f,
                "Seishin is declared only by a Squad not in the same hex as an enemy unit (R 59.5)"
            ),
            SeishinRefusal::Charging => write!(
                f,
                "a Squad in a Banzai Charge does not get the effects of Seishin (R 59.6)"
            ),
            SeishinRefusal::NoEnemyAtTheEnd => write!(
                f,
                "a Seishin move must end entering a hex that holds an enemy unit at the start of movement (R 59.5)"
            ),
        }
    }
}

/// May this Squad declare Seishin for this move (R 59.5)? The MP check
/// (enough MPs, with the bonus, to reach the enemy hex) is the move's own
/// step-by-step check with the bonus added.
pub fn check_declaration(d: &Declaration) -> Result<(), SeishinRefusal> {
    if !d.seishin_squad || d.class != UnitClass::Squad {
        return Err(SeishinRefusal::NotSeishin);
    }
    if d.with_enemy {
        return Err(SeishinRefusal::WithEnemy);
    }
    if d.charging {
        return Err(SeishinRefusal::Charging);
    }
    if !d.ends_at_enemy {
        return Err(SeishinRefusal::NoEnemyAtTheEnd);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok() -> Declaration {
        Declaration {
            seishin_squad: true,
            class: UnitClass::Squad,
            with_enemy: false,
            charging: false,
            ends_at_enemy: true,
        }
    }

    /// R 59.5: an "S" Squad, free of enemies, moving into an enemy hex.
    #[test]
    fn r59_5_declared_by_a_free_s_squad_moving_into_an_enemy_hex() {
        assert_eq!(check_declaration(&ok()), Ok(()));
    }

    /// R 59.5 / R 59.6: every condition refuses on its own.
    #[test]
    fn r59_5_each_condition_refuses() {
        let cases = [
            (
                Declaration {
                    seishin_squad: false,
                    ..ok()
                },
                SeishinRefusal::NotSeishin,
            ),
            (
                Declaration {
                    class: UnitClass::GdSquad,
                    ..ok()
                },
                SeishinRefusal::NotSeishin,
            ),
            (
                Declaration {
                    with_enemy: true,
                    ..ok()
                },
                SeishinRefusal::WithEnemy,
            ),
            (
                Declaration {
                    charging: true,
                    ..ok()
                },
                SeishinRefusal::Charging,
            ),
            (
                Declaration {
                    ends_at_enemy: false,
                    ..ok()
                },
                SeishinRefusal::NoEnemyAtTheEnd,
            ),
        ];
        for (d, why) in cases {
            assert_eq!(check_declaration(&d), Err(why), "{d:?}");
        }
        assert_eq!(
            SeishinRefusal::Charging.to_string(),
            "a Squad in a Banzai Charge does not get the effects of Seishin (R 59.6)"
        );
    }
}
