//! Perft: the number of leaves of the game tree to a fixed depth, the check of a move generator
//! against published counts. A pass is a ply of its own; a game that ends before the depth counts as
//! one leaf.

use super::bits::Bits;
use super::position::Position;
use rayon::prelude::*;
use std::fmt;
use std::time::Instant;

/// The leaves below `position` at `depth` plies.
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let placements = position.placements();
    if depth == 1 {
        // The last ply is counted, not played: a pass or a finished game is one leaf.
        let children = placements.count() as u64 + position.can_swap() as u64;
        return children.max(1);
    }
    let mut leaves = 0;
    for index in placements.squares() {
        leaves += perft(&position.play_index_unchecked(index), depth - 1);
    }
    if position.can_swap() {
        leaves += perft(&position.play_swap_unchecked(), depth - 1);
    }
    if leaves == 0 {
        // No placement and no swap: a pass, or the end of the game.
        leaves = if position.must_pass() {
            perft(&position.play_pass_unchecked(), depth - 1)
        } else {
            1
        };
    }
    leaves
}

/// The children of a position, a pass included.
fn children<P: Position>(position: &P) -> Vec<P> {
    let mut out: Vec<P> = position
        .placements()
        .squares()
        .map(|i| position.play_index_unchecked(i))
        .collect();
    if position.can_swap() {
        out.push(position.play_swap_unchecked());
    }
    if out.is_empty() && position.must_pass() {
        out.push(position.play_pass_unchecked());
    }
    out
}

/// Perft on the current rayon pool: the top `split` plies are shared out between the threads.
pub fn perft_parallel<P: Position>(position: &P, depth: u32, split: u32) -> u64 {
    if split == 0 || depth <= 2 {
        return perft(position, depth);
    }
    let kids = children(position);
    if kids.is_empty() {
        return 1;
    }
    kids.par_iter()
        .map(|child| perft_parallel(child, depth - 1, split - 1))
        .sum()
}

/// A perft run: the depth, the leaves and the time taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerftReport {
    /// Plies searched.
    pub depth: u32,
    /// Leaves counted.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl PerftReport {
    /// Leaves per second.
    pub fn nps(&self) -> u64 {
        if self.seconds > 0.0 {
            (self.nodes as f64 / self.seconds) as u64
        } else {
            0
        }
    }
}

impl fmt::Display for PerftReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "perft {} nodes {} time {:.3} nps {}",
            self.depth,
            self.nodes,
            self.seconds,
            self.nps()
        )
    }
}

/// Runs perft, on one thread or on `threads` threads, and times it.
pub fn run<P: Position>(position: &P, depth: u32, threads: usize) -> PerftReport {
    let started = Instant::now();
    let nodes = if threads <= 1 {
        perft(position, depth)
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| perft_parallel(position, depth, 3)),
            // No pool could be made (the system refused threads): count on this one.
            Err(_) => perft(position, depth),
        }
    };
    PerftReport {
        depth,
        nodes,
        seconds: started.elapsed().as_secs_f64(),
    }
}
