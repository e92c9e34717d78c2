//! What bounds a search (depth, nodes, time, a clock) and how a clock becomes time to spend.

use crate::rules::Move;
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
    /// What a move has been seen to cost outside the search (the front end's clock against the
    /// search's own time), when the front end measured it; an estimate from the board otherwise.
    pub move_overhead: Option<Duration>,
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
    /// Search only these of the root's moves (UCI's `searchmoves`); empty: every move. Moves
    /// that are not legal are left out.
    pub searchmoves: Vec<Move>,
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
            searchmoves: Vec::new(),
        }
    }
}

/// The time a move gets from a game-playing front end (NBoard, GTP) that sets neither a clock nor
/// a depth: a human pace, longer on larger boards, a few seconds at most.
pub fn default_move_time(size: usize) -> Duration {
    match size {
        0..=8 => Duration::from_millis(1000),
        9..=10 => Duration::from_millis(2000),
        _ => Duration::from_millis(3000),
    }
}

impl Limits {
    /// What a game-playing front end (NBoard, GTP) asks for on a board of side `size`: `depth`
    /// plies in the midgame when a depth was set, as deep as the time allows otherwise (the clock
    /// when there is one, [`default_move_time`] when not), and an exact solve once few enough
    /// squares are empty (up to 8 more than the depth, at most 24; 20 without a depth), still
    /// within the clock or the move's time.
    pub fn playing(depth: Option<u32>, empties: u32, size: usize, clock: Option<Clock>) -> Limits {
        let exact = match depth {
            Some(d) => empties <= d.max((d + 8).min(24)),
            None => empties <= 20,
        };
        let movetime = (depth.is_none() && clock.is_none()).then(|| default_move_time(size));
        Limits {
            depth: if exact { None } else { depth },
            exact,
            clock,
            movetime,
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
    /// A fixed time for the move (`movetime`): iterations go on until the hard limit, rather
    /// than stopping early when the next one is unlikely to finish.
    pub spend_all: bool,
}

/// Kept in hand on every clock, for the time the move takes to reach the other side and for a
/// stall of the machine (another process's burst on a shared machine) that no measured cost
/// foresees. 30 ms lost one game in a CI run of 1 s games on 16×16 beside other tests (the game
/// ends with this and the reserve below in hand, about 60 ms); 50 ms is a twentieth of such a
/// clock and nothing of a longer one.
const SAFETY: Duration = Duration::from_millis(50);

/// Kept in hand out of a fixed time per move: a twentieth, at most this.
const MOVETIME_SAFETY: Duration = Duration::from_millis(10);

/// The empty squares from which a search ends in moments (on 8×8 an exact solve of 14 empty
/// squares takes about a millisecond, of 18 about ten): a clock is shared among the moves before
/// them. Shared among all the moves to the end but four, as before, the clock kept back time that
/// the last moves never needed. At 1 s a game, 1 thread, XOT openings: 86% of the clock spent
/// instead of 82%, a sixth more on each midgame move and less at 20–23 empty squares (where the
/// solve often ends early); against the earlier sharing +13.9 Elo [−11.0, +38.8] over 600 games
/// (seed 31), and against NTest at `depth=14` 51.7% instead of 45.2% (seed 5, 200 games each):
/// no more than a hint, but no sign of harm.
const QUICK_END: u32 = 14;

/// The fewest moves a clock is shared among (without `movestogo`): a third of what is left at
/// most, so that the hard limit below stays at two fifths of it.
const MIN_SHARES: u32 = 3;

/// What a move costs outside the search, updated with one more observation: the largest recent
/// cost, decaying by an eighth a move (a slow move is not forgotten at once), each observation
/// capped at 200 ms (a front end that paused is not a cost of every move).
pub fn track_overhead(known: Option<Duration>, observed: Duration) -> Duration {
    let kept = known.map_or(Duration::ZERO, |d| d * 7 / 8);
    kept.max(observed.min(Duration::from_millis(200)))
}

/// The time a move costs outside the search, estimated from the board's empty squares (bigger
/// boards: longer positions to replay, more root moves to make): 1 ms plus 8 µs a square.
fn per_move_overhead(empties: u32) -> Duration {
    Duration::from_micros(1000 + 8 * u64::from(empties))
}

/// The budget for a move with `empties` empty squares left.
pub fn budget(limits: &Limits, empties: u32) -> Option<TimeBudget> {
    if limits.infinite {
        return None;
    }
    let from_movetime = limits.movetime.map(|t| {
        let spend = t.saturating_sub((t / 20).min(MOVETIME_SAFETY));
        TimeBudget {
            soft: spend,
            hard: spend,
            spend_all: true,
        }
    });
    let from_clock = limits.clock.map(|clock| {
        // Every move also costs time outside the search (the position sent and replayed, the
        // root's moves made, the reply travelling): about 4 ms a move on 16×16 under a match
        // runner, which over 126 moves is half of a 1 s clock. Kept aside for the moves to come.
        let own_moves_left = clock.moves_to_go.unwrap_or(empties / 2).max(1);
        let overhead = clock
            .move_overhead
            .unwrap_or_else(|| per_move_overhead(empties));
        // Twice over: the cost grows as the game gets longer (longer positions to send and
        // replay), and a move that runs out of time loses the game.
        let reserve = overhead * own_moves_left * 2;
        let usable = clock.time_left.saturating_sub(SAFETY + reserve);
        // The player to move makes about half of the remaining moves, but those of the last
        // QUICK_END empty squares take moments: the clock is shared among the ones before.
        let moves = clock
            .moves_to_go
            .unwrap_or_else(|| (empties.saturating_sub(QUICK_END) / 2).max(MIN_SHARES))
            .max(1);
        let share = usable / moves + clock.increment * 3 / 4;
        let soft = share.min(usable / 2);
        let hard = (soft * 4).min(usable * 2 / 5).max(soft);
        TimeBudget {
            soft,
            hard,
            spend_all: false,
        }
    });
    match (from_movetime, from_clock) {
        (Some(a), Some(b)) => Some(TimeBudget {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
            spend_all: false,
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
                            move_overhead: None,
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

    #[test]
    fn a_movetime_is_spent_less_a_small_margin() {
        let limits = |ms| Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        };
        let b = budget(&limits(1000), 30).unwrap();
        assert_eq!(b.hard, Duration::from_millis(990));
        assert!(b.spend_all);
        let b = budget(&limits(100), 30).unwrap();
        assert_eq!(b.hard, Duration::from_millis(95));
    }

    #[test]
    fn front_ends_without_a_depth_play_by_time() {
        let by_time = Limits::playing(None, 40, 10, None);
        assert_eq!(by_time.depth, None);
        assert_eq!(by_time.movetime, Some(default_move_time(10)));
        assert!(default_move_time(16) <= Duration::from_secs(5));
        let deep = Limits::playing(Some(12), 40, 8, None);
        assert_eq!(
            (deep.depth, deep.movetime, deep.exact),
            (Some(12), None, false)
        );
        let clock = Clock {
            time_left: Duration::from_secs(10),
            ..Clock::default()
        };
        let clocked = Limits::playing(None, 40, 8, Some(clock));
        assert_eq!((clocked.depth, clocked.movetime), (None, None));
        assert!(Limits::playing(None, 20, 8, None).exact);
    }
}
