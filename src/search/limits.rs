//! What bounds a search (depth, nodes, time, a clock) and how a clock becomes time to spend.

use std::time::Duration;

/// The time on the clock of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left.
    pub time_left: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// The limits of one search. With none set, the search runs to the end of the game (or until
/// stopped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Spend this long.
    pub movetime: Option<Duration>,
    /// Budget the time from this clock.
    pub clock: Option<Clock>,
    /// Search until stopped.
    pub infinite: bool,
    /// Solve exactly (the final disc difference).
    pub exact: bool,
    /// Solve for win, loss or draw only.
    pub wld: bool,
    /// How many best moves to score exactly (at least 1).
    pub multipv: usize,
    /// Search every move to the full depth: no ProbCut in the midgame (which the trained boards
    /// use otherwise; see `alphabeta::midgame_probcut`).
    pub full_width: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            clock: None,
            infinite: false,
            exact: false,
            wld: false,
            multipv: 1,
            full_width: false,
        }
    }
}

impl Limits {
    /// What a game-playing front end (NBoard, GTP) asks for: `depth` plies in the midgame and an
    /// exact solve once few enough squares are empty (up to 8 more than the depth, at most 24),
    /// within the clock when there is one.
    pub fn playing(depth: u32, empties: u32, clock: Option<Clock>) -> Limits {
        let exact = empties <= depth.max((depth + 8).min(24));
        Limits {
            depth: (!exact).then_some(depth),
            exact,
            clock,
            ..Limits::default()
        }
    }

    /// A search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}

/// How long to think: the soft limit is checked between iterations, the hard one stops the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Don't start another iteration after this.
    pub soft: Duration,
    /// Stop the search here.
    pub hard: Duration,
}

/// Kept in hand on every clock, for the time the move takes to reach the other side.
const SAFETY: Duration = Duration::from_millis(30);

/// The budget for a move with `empties` empty squares left.
pub fn budget(limits: &Limits, empties: u32) -> Option<TimeBudget> {
    if limits.infinite {
        return None;
    }
    let from_movetime = limits.movetime.map(|t| TimeBudget { soft: t, hard: t });
    let from_clock = limits.clock.map(|clock| {
        let usable = clock.time_left.saturating_sub(SAFETY);
        // The player to move makes about half of the remaining moves; keep some for the endgame.
        let moves = clock
            .moves_to_go
            .unwrap_or_else(|| (empties / 2).saturating_sub(4).max(4))
            .max(1);
        let share = usable / moves + clock.increment * 3 / 4;
        let soft = share.min(usable / 2);
        let hard = (soft * 4).min(usable * 2 / 5).max(soft);
        TimeBudget { soft, hard }
    });
    match (from_movetime, from_clock) {
        (Some(a), Some(b)) => Some(TimeBudget {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
        }),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_never_overrun() {
        for left in [10u64, 100, 1000, 60_000, 600_000] {
            for inc in [0u64, 100, 2000] {
                for empties in [2, 20, 60] {
                    let limits = Limits {
                        clock: Some(Clock {
                            time_left: Duration::from_millis(left),
                            increment: Duration::from_millis(inc),
                            moves_to_go: None,
                        }),
                        ..Limits::default()
                    };
                    let b = budget(&limits, empties).unwrap();
                    assert!(b.soft <= b.hard);
                    assert!(
                        b.hard < Duration::from_millis(left.max(1)),
                        "{left} {inc} {empties}"
                    );
                }
            }
        }
        assert_eq!(budget(&Limits::default(), 10), None);
    }
}
