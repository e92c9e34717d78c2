//! Growing a book: a tree from the start position (every move within a width of the best expanded
//! to a number of plies), or the positions of given games; every new position scored by a search,
//! the values negamaxed back. Only positions not yet in the book are searched, so a build that was
//! interrupted (the book is saved as it grows) resumes where it stopped, and rerunning a build
//! costs only what is new.

use super::{Book, BookEntry, key};
use crate::eval::Evaluate;
use crate::rules::{Move, Position};
use crate::search::{Limits, Precision, Searcher};
use crate::shard::Shard;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// How positions are scored and how far the tree grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Growth {
    /// Plies from the start to expand.
    pub plies: u32,
    /// Search depth of each new position (exact when the empties allow).
    pub depth: u32,
    /// Expand every move within this many centi-discs of the best.
    pub width: i32,
}

/// What a build reports as it goes.
pub trait Progress {
    /// A new position was searched; `searched` counts them in this run.
    fn searched(&mut self, searched: usize, book: &Book);
}

impl<F: FnMut(usize, &Book)> Progress for F {
    fn searched(&mut self, searched: usize, book: &Book) {
        self(searched, book)
    }
}

/// Grows books: owns the searcher and counts the searches.
pub struct Builder<'a, R: Progress> {
    searcher: &'a Searcher,
    growth: Growth,
    progress: R,
    searched: usize,
    /// Whether a value changed in the current pass of [`Builder::grow`].
    changed: bool,
    stop: AtomicBool,
}

/// The children of a position (a pass is a move when it is the only one).
fn children<P: Position>(pos: &P) -> Vec<(Move, P)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| (mv, pos.play_unchecked(mv)))
        .collect()
}

impl<'a, R: Progress> Builder<'a, R> {
    /// A builder searching with `searcher`.
    pub fn new(searcher: &'a Searcher, growth: Growth, progress: R) -> Self {
        Builder {
            searcher,
            growth,
            progress,
            searched: 0,
            changed: false,
            stop: AtomicBool::new(false),
        }
    }

    /// Positions searched so far.
    pub fn searched(&self) -> usize {
        self.searched
    }

    /// Makes sure `pos` is in the book, searching it when it is new.
    fn ensure<P: Evaluate>(&mut self, book: &mut Book, pos: &P) {
        if book.get(pos).is_some() {
            return;
        }
        let (score, exact, depth) = if pos.is_game_over() {
            (pos.final_score() * crate::eval::DISC, true, 0)
        } else {
            let empties = pos.empty_count();
            let exact = empties <= self.growth.depth;
            let limits = if exact {
                Limits {
                    exact: true,
                    ..Limits::default()
                }
            } else {
                Limits::depth(self.growth.depth)
            };
            // A clear table makes every score what a lone search of the position says, so
            // a book is the same however (and in how many runs) it was built.
            self.searcher.clear();
            let result = self.searcher.search(pos, &limits, &self.stop, &mut |_| {});
            let exact = result.precision == Precision::Exact;
            (result.score, exact, result.depth.min(255) as u8)
        };
        book.insert(
            pos,
            BookEntry {
                score,
                leaf: score,
                depth,
                exact,
                count: 0,
            },
        );
        self.searched += 1;
        self.progress.searched(self.searched, book);
    }

    /// Grows the tree from `root` (expanding `plies` plies) and negamaxes it. Which moves are
    /// within the width of the best depends on values that change as the tree grows below them,
    /// so the tree is grown again until a pass searches nothing and changes no value: a finished
    /// build run again has nothing to do.
    pub fn grow<P: Evaluate>(&mut self, book: &mut Book, root: &P) {
        loop {
            let searched = self.searched;
            self.changed = false;
            let mut visited = HashSet::new();
            self.grow_node(book, root, 0, &mut visited);
            if self.searched == searched && !self.changed {
                break;
            }
        }
    }

    /// Grows only `shard`'s part of what [`Builder::grow`] grows: the subtrees below the
    /// positions at the split ply ([`split_ply`]) whose number in key order is the shard's. The
    /// positions above the split are left out; the parts merge with [`Book::merge`], and the same
    /// build run on the merged book adds them (a few searches) and negamaxes the whole.
    pub fn grow_shard<P: Evaluate>(&mut self, book: &mut Book, root: &P, shard: Shard) {
        let (split, frontier) = split_frontier(root, self.growth.plies, shard.count);
        let owned: Vec<P> = frontier
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shard.owns(*i as u64))
            .map(|(_, p)| p)
            .collect();
        loop {
            let searched = self.searched;
            self.changed = false;
            let mut visited = HashSet::new();
            for pos in &owned {
                self.grow_node(book, pos, split, &mut visited);
            }
            if self.searched == searched && !self.changed {
                break;
            }
        }
    }

    fn grow_node<P: Evaluate>(
        &mut self,
        book: &mut Book,
        pos: &P,
        ply: u32,
        visited: &mut HashSet<(Vec<u8>, u32)>,
    ) {
        self.ensure(book, pos);
        if ply >= self.growth.plies || pos.is_game_over() || !visited.insert((super::key(pos), ply))
        {
            return;
        }
        let kids = children(pos);
        for (_, child) in &kids {
            self.ensure(book, child);
        }
        let value = |book: &Book, child: &P| book.get(child).map_or(i32::MIN, |e| -e.score);
        let best = kids
            .iter()
            .map(|(_, c)| value(book, c))
            .max()
            .unwrap_or(i32::MIN);
        for (_, child) in &kids {
            if value(book, child) >= best.saturating_sub(self.growth.width.max(0)) {
                self.grow_node(book, child, ply + 1, visited);
            }
        }
        self.changed |= negamax(book, pos);
    }

    /// Adds the positions of a game (from `start`, its `moves`): each counted once more, new ones
    /// searched, then the values negamaxed from the end back.
    pub fn add_game<P: Evaluate>(&mut self, book: &mut Book, start: &P, moves: &[Move]) {
        let mut line = vec![*start];
        let mut pos = *start;
        for &mv in moves {
            // Transcripts leave passes out.
            if mv != Move::Pass && pos.must_pass() {
                pos = pos.play_pass_unchecked();
                line.push(pos);
            }
            match pos.try_play(mv) {
                Ok(next) => {
                    pos = next;
                    line.push(pos);
                }
                Err(_) => break,
            }
        }
        for pos in &line {
            self.ensure(book, pos);
            if let Some(mut e) = book.get(pos) {
                e.count = e.count.saturating_add(1);
                book.insert(pos, e);
            }
        }
        for pos in line.iter().rev() {
            negamax(book, pos);
        }
    }
}

/// The split of a build of `plies` plies into `count` shards and the positions there: the first
/// ply (at most `plies`, at most 8) with at least four positions a shard, its positions every
/// move reaches (a position reached twice, or as a symmetric image, once) in the order of their
/// book keys: the same list on every machine.
pub fn split_frontier<P: Position>(root: &P, plies: u32, count: u64) -> (u32, Vec<P>) {
    let mut level = vec![*root];
    let mut split = 0;
    while split < plies.min(8) && (level.len() as u64) < 4 * count {
        let mut next: Vec<(Vec<u8>, P)> = level
            .iter()
            .filter(|p| !p.is_game_over())
            .flat_map(|p| children(p).into_iter().map(|(_, c)| (key(&c), c)))
            .collect();
        next.sort_by(|a, b| a.0.cmp(&b.0));
        next.dedup_by(|a, b| a.0 == b.0);
        level = next.into_iter().map(|(_, p)| p).collect();
        split += 1;
    }
    (split, level)
}

/// Negamaxes every position of the book again, the fullest boards first (after a merge).
pub fn negamax_all<P: Position>(book: &mut Book) -> Result<(), super::BookError> {
    let mut positions: Vec<P> = book.positions()?;
    positions.sort_by_key(|p| p.empty_count());
    // A pass or a swap keeps the empties; another sweep settles what such a child changed.
    for _ in 0..8 {
        let mut changed = false;
        for pos in &positions {
            changed |= negamax(book, pos);
        }
        if !changed {
            break;
        }
    }
    Ok(())
}

/// Sets the book value of `pos` from its children in the book: their best when every move is in
/// the book, else the better of that and the position's own search (which stands for the moves
/// the book does not hold). Says whether the value changed.
pub fn negamax<P: Position>(book: &mut Book, pos: &P) -> bool {
    let Some(mut entry) = book.get(pos) else {
        return false;
    };
    let kids = children(pos);
    let known: Vec<i32> = kids
        .iter()
        .filter_map(|(_, c)| book.get(c).map(|e| -e.score))
        .collect();
    let score = match known.iter().max() {
        None => entry.leaf,
        Some(&best) if known.len() == kids.len() => best,
        Some(&best) => best.max(entry.leaf),
    };
    if score != entry.score {
        entry.score = score;
        book.insert(pos, entry);
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Size6;
    use crate::rules::{BoardKind, Othello, Variant};

    #[test]
    fn a_small_book_agrees_with_its_own_search() {
        let searcher = Searcher::new(1, 4).unwrap();
        let growth = Growth {
            plies: 3,
            depth: 4,
            width: 0,
        };
        let mut book = Book::new(BoardKind::new(Variant::Othello, 6).unwrap());
        let mut builder = Builder::new(&searcher, growth, |_: usize, _: &Book| {});
        let start = Othello::<Size6>::start();
        builder.grow(&mut book, &start);
        let searched = builder.searched();
        assert!(searched > 5);
        // Every move of the start is in the book, and the start's value is their best.
        let moves = book.moves(&start);
        assert_eq!(moves.len(), start.legal_moves().len());
        assert_eq!(book.get(&start).unwrap().score, moves[0].score);
        // A leaf's score is what a search of the same depth says.
        let stop = AtomicBool::new(false);
        for (mv, child) in children(&start) {
            let e = book.get(&child).unwrap();
            let grandchildren_known = children(&child).iter().all(|(_, g)| book.get(g).is_some());
            if !grandchildren_known {
                let r = searcher.search(&child, &Limits::depth(4), &stop, &mut |_| {});
                assert_eq!(e.leaf, r.score, "{mv}");
                assert_eq!(e.score, e.leaf, "{mv}");
            }
        }
        // Growing again searches nothing new.
        let mut again = Builder::new(&searcher, growth, |_: usize, _: &Book| {});
        again.grow(&mut book, &start);
        assert_eq!(again.searched(), 0);
    }
}
