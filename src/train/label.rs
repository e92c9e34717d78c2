//! Labels positions by search: each one's score from a search of a fixed depth, or solved exactly.
//! A test set labelled so measures the static evaluation against better labels than a game's
//! result (against exact scores at 20–24 empties, a deep search at 30–40), without the noise of
//! the moves played after it.

use super::samples::Sample;
use crate::eval::{DISC, Evaluate};
use crate::rules::{Bits, Color};
use crate::search::{Limits, Searcher, SearcherError};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use std::collections::HashSet;
use std::ops::RangeInclusive;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// How a position is labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelBy {
    /// A search of this many plies (the trained boards' midgame ProbCut on, as in play); exact
    /// once the depth reaches the empty squares.
    Depth(u32),
    /// Solved exactly: the final disc difference with perfect play.
    Exact,
}

/// Up to `count` distinct positions (by their discs) with a number of empty squares in
/// `empties`, chosen at random by `seed` from `samples` (the same on every run).
pub fn pick<P: Evaluate>(
    samples: &[Sample<P::Bits>],
    empties: RangeInclusive<u32>,
    count: usize,
    seed: u64,
) -> Vec<Sample<P::Bits>> {
    let squares = (P::start().size() * P::start().size()) as u32;
    let mut seen = HashSet::new();
    let mut candidates: Vec<Sample<P::Bits>> = samples
        .iter()
        .filter(|s| {
            let discs = (s.player | s.opponent).count();
            empties.contains(&(squares - discs))
        })
        .filter(|s| seen.insert((s.player, s.opponent)))
        .copied()
        .collect();
    candidates.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
    candidates.truncate(count);
    candidates
}

/// The positions with their labels replaced by `by`'s scores (in discs, rounded), labelled on
/// `threads` threads, each with a one-thread searcher and a table of `hash_mb` MB; `on_labelled`
/// is called after each. Positions that are not valid for `P` are left out.
pub fn label<P: Evaluate>(
    positions: &[Sample<P::Bits>],
    by: LabelBy,
    threads: usize,
    hash_mb: usize,
    on_labelled: &(dyn Fn() + Sync),
) -> Result<Vec<Sample<P::Bits>>, SearcherError> {
    let next = AtomicUsize::new(0);
    let labelled = Mutex::new(vec![None; positions.len()]);
    let failed = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let searcher = match Searcher::new(1, hash_mb) {
                    Ok(s) => s,
                    Err(e) => {
                        if let Ok(mut f) = failed.lock() {
                            f.get_or_insert(e);
                        }
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    let Some(sample) = positions.get(i) else {
                        break;
                    };
                    let score = score_of::<P>(&searcher, sample, by);
                    if let Ok(mut out) = labelled.lock() {
                        out[i] = score.map(|score| Sample { score, ..*sample });
                    }
                    on_labelled();
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(labelled
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect())
}

/// One position's score in discs from its side to move's view by `by`; `None` for discs that
/// are not a position of `P`.
fn score_of<P: Evaluate>(searcher: &Searcher, sample: &Sample<P::Bits>, by: LabelBy) -> Option<i8> {
    let pos = P::from_discs(sample.player, sample.opponent, Color::Black).ok()?;
    let limits = match by {
        LabelBy::Depth(depth) => Limits::depth(depth),
        LabelBy::Exact => Limits {
            exact: true,
            ..Limits::default()
        },
    };
    // A fresh table: the label is the same whichever positions the thread searched before.
    searcher.clear();
    let result = searcher.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
    let discs = (result.score as f64 / DISC as f64).round();
    Some(discs.clamp(i8::MIN as f64, i8::MAX as f64) as i8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Size6;
    use crate::rules::{Othello, Position};
    use crate::search::endgame8::tests::negamax;

    type P = Othello<Size6>;

    fn positions(empties: u32) -> Vec<Sample<<P as Position>::Bits>> {
        crate::eval::random_positions::<P>(40)
            .into_iter()
            .filter(|p| p.empty_count() == empties && !p.legal_moves().is_empty())
            .map(|p| Sample {
                player: p.player(),
                opponent: p.opponent(),
                score: 0,
            })
            .collect()
    }

    #[test]
    fn exact_labels_are_the_negamax_scores_and_a_deep_enough_depth_is_exact() {
        let some = positions(8);
        assert!(some.len() >= 5, "{} positions", some.len());
        let exact = label::<P>(&some, LabelBy::Exact, 2, 1, &|| {}).expect("searchers");
        let deep = label::<P>(&some, LabelBy::Depth(8), 1, 1, &|| {}).expect("searchers");
        assert_eq!(exact.len(), some.len());
        for ((s, e), d) in some.iter().zip(&exact).zip(&deep) {
            let pos = P::from_discs(s.player, s.opponent, Color::Black).expect("a position");
            assert_eq!((e.player, e.opponent), (s.player, s.opponent), "in order");
            assert_eq!(e.score as i32, negamax(&pos));
            assert_eq!(d.score, e.score);
        }
    }

    #[test]
    fn a_shallow_label_is_the_searchs_score() {
        let some = positions(20);
        assert!(!some.is_empty());
        let labelled = label::<P>(&some, LabelBy::Depth(2), 1, 1, &|| {}).expect("searchers");
        let searcher = Searcher::new(1, 1).expect("a searcher");
        for s in &labelled {
            let pos = P::from_discs(s.player, s.opponent, Color::Black).expect("a position");
            searcher.clear();
            let result = searcher.search(
                &pos,
                &Limits::depth(2),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            assert_eq!(
                s.score as i32,
                (result.score as f64 / DISC as f64).round() as i32
            );
        }
    }

    #[test]
    fn picks_are_distinct_in_range_and_the_same_each_run() {
        let mut all = positions(12);
        all.extend(positions(14));
        all.extend(positions(12));
        let picked = pick::<P>(&all, 12..=13, 1000, 5);
        assert!(!picked.is_empty());
        assert!(
            picked
                .iter()
                .all(|s| 36 - (s.player | s.opponent).count() == 12)
        );
        let distinct: HashSet<_> = picked.iter().map(|s| (s.player, s.opponent)).collect();
        assert_eq!(distinct.len(), picked.len());
        let twelve: HashSet<_> = positions(12)
            .iter()
            .map(|s| (s.player, s.opponent))
            .collect();
        assert_eq!(picked.len(), twelve.len(), "every one of 12 empties");
        assert_eq!(pick::<P>(&all, 12..=13, 3, 5), picked[..3]);
        assert_eq!(pick::<P>(&all, 12..=13, 1000, 5), picked);
    }
}
