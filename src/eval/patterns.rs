//! The patterns of the trained evaluation: groups of squares (in Othello an edge with its two
//! X-squares, a 3×3 and a 2×5 corner block, the inner rows, the diagonals, and on 8×8 a corner
//! triangle, an edge block, a diagonal band and a narrow triangle; in Lehto on 9×9 whole lines and 3×3 windows) whose every
//! combination of discs carries a learned weight (the idea of Buro's Logistello, followed by Edax
//! and Egaroucid). Each pattern is written once, for the top-left corner or the top edge, and
//! placed on the board under the 8 symmetries of the square; the images that cover the same
//! squares are one instance.
//!
//! A configuration's index is the base-3 number of its squares in the pattern's own order (0
//! empty, 1 the player to move, 2 the opponent). The evaluation finds it with two bit extractions
//! (one per colour) and a table from the extracted bits to their base-3 value in that order.
//! A pattern read from the moves ([`Source::Moves`], 8×8 only) numbers its squares the same way
//! from who can play on them instead of who holds them.

use crate::rules::symmetry::Symmetry;

/// One pattern: its name and its squares as (row, column) in the canonical orientation.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// For reports.
    pub name: &'static str,
    /// What it is summed under in the evaluation's terms.
    pub group: Group,
    /// The squares, in the order of the base-3 digits (first = least significant).
    pub squares: Vec<(usize, usize)>,
    /// What a square's digit says.
    pub source: Source,
}

/// What the digit of a pattern's square is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The disc on it: 0 empty, 1 the player to move's, 2 the opponent's.
    Discs,
    /// Who can play there: 1 where the player to move can, 2 where only the opponent can, 0
    /// where neither can (or the square is taken).
    Moves,
}

/// The families the evaluation reports separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Edge + 2 X-squares.
    Edges,
    /// The corner blocks.
    Corners,
    /// Inner rows and columns.
    Lines,
    /// Diagonals.
    Diagonals,
    /// Who can play on the edges and the rows behind them (patterns of [`Source::Moves`]).
    Mobility,
}

impl Group {
    /// Every group, in report order.
    pub const ALL: [Group; 5] = [
        Group::Edges,
        Group::Corners,
        Group::Lines,
        Group::Diagonals,
        Group::Mobility,
    ];

    /// For reports.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Edges => "edge patterns",
            Group::Corners => "corner patterns",
            Group::Lines => "line patterns",
            Group::Diagonals => "diagonal patterns",
            Group::Mobility => "mobility",
        }
    }
}

/// The most squares a pattern has: the fit keeps an index within a pattern's table in 16 bits.
pub const MAX_SQUARES: usize = 10;

/// The patterns of an n×n board: Othello's (n even, 6 ≤ n ≤ 16), or Lehto's on 9×9
/// ([`lehto_patterns`]). Up to 8×8 Othello's edge pattern is the whole edge with its two
/// X-squares and the lines and diagonals are whole; on larger boards every
/// pattern is cut to its first [`MAX_SQUARES`] squares from the corner or edge it starts at (a
/// window its 8 placements put at each end), and diagonals longer than that are left out. 8×8 has
/// two more, Egaroucid's shapes: the corner's triangle of 10 squares (a1–d1, a2–c2, a3, b3, a4)
/// and the edge block (a1, c1–f1, h1, c2–f2), which see a corner with the squares that decide
/// whether it can be taken, and an edge with the row behind it. With 7.9 M positions to fit them
/// they paid (+20.8 Elo at 40 ms a move, weights/README.md); with 3.75 M they had not. And two
/// read from the moves: the squares of the edge and its X-squares, and of the second row and the
/// two corners beside it, where each side can play.
pub fn patterns(n: usize) -> Vec<Pattern> {
    if n % 2 == 1 {
        return lehto_patterns(n);
    }
    let window = n.min(MAX_SQUARES);
    let mut list = Vec::new();
    let mut edge: Vec<_> = (0..window).map(|c| (0, c)).collect();
    if n <= 8 {
        edge.extend([(1, 1), (1, n - 2)]);
    }
    list.push(Pattern {
        name: if n <= 8 { "edge+2x" } else { "edge" },
        group: Group::Edges,
        squares: edge,
        source: Source::Discs,
    });
    list.push(Pattern {
        name: "corner 3x3",
        group: Group::Corners,
        squares: (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).collect(),
        source: Source::Discs,
    });
    list.push(Pattern {
        name: "corner 2x5",
        group: Group::Corners,
        squares: (0..2).flat_map(|r| (0..5).map(move |c| (r, c))).collect(),
        source: Source::Discs,
    });
    const LINE_NAMES: [&str; 5] = ["row 2", "row 3", "row 4", "row 5", "row 6"];
    for (row, name) in (1..n / 2).zip(LINE_NAMES) {
        list.push(Pattern {
            name,
            group: Group::Lines,
            squares: (0..window).map(|c| (row, c)).collect(),
            source: Source::Discs,
        });
    }
    list.extend(diagonals(n, window));
    if n == 8 {
        list.push(Pattern {
            name: "corner triangle",
            group: Group::Corners,
            squares: (0..4)
                .flat_map(|r| (0..4 - r).map(move |c| (r, c)))
                .collect(),
            source: Source::Discs,
        });
        list.push(Pattern {
            name: "edge block",
            group: Group::Edges,
            squares: [(0, 0), (0, 2), (0, 3), (0, 4), (0, 5), (0, 7)]
                .into_iter()
                .chain((2..6).map(|c| (1, c)))
                .collect(),
            source: Source::Discs,
        });
        // Who can play on the edge and its X-squares: whether a corner can be taken now is an
        // "or" over its three lines, which no sum of disc patterns can say (the idea of
        // Egaroucid's mobility patterns).
        list.push(Pattern {
            name: "edge moves",
            group: Group::Mobility,
            squares: (0..8).map(|c| (0, c)).chain([(1, 1), (1, 6)]).collect(),
            source: Source::Moves,
        });
        // Who can play on the second row (its C- and X-squares among them) and on the corners
        // beside it: a move onto an X- or C-square is worth what the corner's being open or
        // closed makes it, which a sum of separate squares' weights cannot say.
        list.push(Pattern {
            name: "row 2 moves",
            group: Group::Mobility,
            squares: (0..8).map(|c| (1, c)).chain([(0, 0), (0, 7)]).collect(),
            source: Source::Moves,
        });
        // Two of Egaroucid's patterns, written for this list: the corner's diagonal to the fourth
        // square with the two lines beside it, and the corner with five squares of each edge and
        // its X-square. With the evaluation in AVX-512 lanes they pay for their time (+18 Elo at
        // 40 ms a move, weights/README.md, fifty-third session); summed by the scalar loop they
        // did not (−1.3 Elo, fifty-second).
        list.push(Pattern {
            name: "diagonal band",
            group: Group::Diagonals,
            squares: vec![
                (0, 0),
                (1, 1),
                (2, 2),
                (3, 3),
                (0, 1),
                (1, 2),
                (2, 3),
                (1, 0),
                (2, 1),
                (3, 2),
            ],
            source: Source::Discs,
        });
        list.push(Pattern {
            name: "narrow triangle",
            group: Group::Corners,
            squares: (0..5)
                .map(|c| (0, c))
                .chain((1..5).map(|r| (r, 0)))
                .chain([(1, 1)])
                .collect(),
            source: Source::Discs,
        });
        // Two of Egaroucid's later shapes, written for this list: the "fish" (a1 b1 a2 b2 c2 d2
        // b3 c3 b4 d4) and the "kite" (a1 b1 a2 b2 c2 d2 e2 b3 b4 b5), a corner with its X-square
        // and the squares that reach out from it along the second lines and the diagonal. Each is
        // its own mirror image about the diagonal, so has four placements; their eight instances
        // fill the fifth group of sixteen evaluation lanes (src/eval/lanes.rs), which the seventy
        // before them left two-thirds empty.
        // Both begin with the same six squares (the corner, its C- and X-squares, c2 and d2) in
        // the same order, which is each digit's place in the index.
        let wing = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (1, 3)];
        list.push(Pattern {
            name: "fish",
            group: Group::Corners,
            squares: wing
                .into_iter()
                .chain([(2, 1), (2, 2), (3, 1), (3, 3)])
                .collect(),
            source: Source::Discs,
        });
        list.push(Pattern {
            name: "kite",
            group: Group::Corners,
            squares: wing
                .into_iter()
                .chain([(1, 4), (2, 1), (3, 1), (4, 1)])
                .collect(),
            source: Source::Discs,
        });
    }
    list
}

/// The diagonals of the n×n board from length `longest` down to 4, each from the top edge to the
/// right edge (cutting off the top-right corner; its images cut off the others).
/// On 8×8 the three longest with the squares beside their ends (the main diagonal with a C-square
/// at each corner, four placements; the diagonal of 7 with the two corners; that of 6 with the two
/// C-squares), refitted from the shipped weights laid over them: −4.4 Elo [−24.1, +15.4] at 40 ms a
/// move, SPRT H0 after 957 games (weights/README.md, fifty-eighth session).
/// Egaroucid's "edge + 2Y" (an edge with the two squares c2 and f2) in place of the 8×8 diagonal of
/// 4, which lies inside the corner triangle, refitted on 24% more games: −18.3 Elo [−45.6, +9.1],
/// SPRT H0 after 532 games (weights/README.md, fifty-ninth and sixtieth sessions).
fn diagonals(n: usize, longest: usize) -> impl Iterator<Item = Pattern> {
    const NAMES: [&str; 7] = [
        "diagonal 4",
        "diagonal 5",
        "diagonal 6",
        "diagonal 7",
        "diagonal 8",
        "diagonal 9",
        "diagonal 10",
    ];
    (4..=longest).rev().map(move |len| Pattern {
        name: NAMES[len - 4],
        group: Group::Diagonals,
        squares: (0..len).map(|i| (i, i + n - len)).collect(),
        source: Source::Discs,
    })
}

/// The patterns of Lehto on the odd n×n board (n ≤ 9): every line whole, since a palindrome is
/// made along a line and a whole line shows each run on it, where it ends, and which empty square
/// would extend it into a palindrome (or one stone from one); and 3×3 windows (the corner, the
/// middle of an edge, the centre) for what crosses lines near a square. Corners and edges matter
/// far less than in Othello, but a run that ends at the edge cannot grow there.
pub fn lehto_patterns(n: usize) -> Vec<Pattern> {
    let mut list = Vec::new();
    const ROW_NAMES: [&str; 5] = ["edge", "row 2", "row 3", "row 4", "row 5"];
    for (row, name) in (0..=n / 2).zip(ROW_NAMES) {
        list.push(Pattern {
            name,
            group: if row == 0 { Group::Edges } else { Group::Lines },
            squares: (0..n).map(|c| (row, c)).collect(),
            source: Source::Discs,
        });
    }
    let window = |name, top: usize, left: usize| Pattern {
        name,
        group: Group::Corners,
        squares: (top..top + 3)
            .flat_map(|r| (left..left + 3).map(move |c| (r, c)))
            .collect(),
        source: Source::Discs,
    };
    list.push(window("corner 3x3", 0, 0));
    list.push(window("edge 3x3", 0, n / 2 - 1));
    list.push(window("centre 3x3", n / 2 - 1, n / 2 - 1));
    list.extend(diagonals(n, n));
    list
}

/// One placement of a pattern on the board.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The pattern's number in [`patterns`].
    pub pattern: usize,
    /// Its squares (indices), ascending: the order a bit extraction yields them in.
    pub squares: Vec<usize>,
    /// From the squares' bits in ascending order to their base-3 value in the pattern's own
    /// order.
    pub ternary: Vec<u16>,
}

/// 3 to the power `k`.
pub const fn pow3(k: usize) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < k {
        p *= 3;
        i += 1;
    }
    p
}

/// The distinct placements of `pattern` on the n×n board under the 8 symmetries: each as its
/// squares (indices) in the pattern's order. Images covering the same squares as an earlier one
/// are left out.
pub fn placements(n: usize, pattern: &Pattern) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut seen: Vec<Vec<usize>> = Vec::new();
    for sym in Symmetry::all() {
        let placed: Vec<usize> = pattern
            .squares
            .iter()
            .map(|&(r, c)| {
                let (r, c) = sym.apply(r, c, n);
                r * n + c
            })
            .collect();
        let mut set = placed.clone();
        set.sort_unstable();
        if !seen.contains(&set) {
            seen.push(set);
            out.push(placed);
        }
    }
    out
}

/// Every distinct placement of every pattern on the n×n board.
pub fn instances(n: usize, patterns: &[Pattern]) -> Vec<Instance> {
    let mut out = Vec::new();
    for (index, pattern) in patterns.iter().enumerate() {
        for placed in placements(n, pattern) {
            // The j-th set bit of the mask is square `ascending[j]`; its digit is its place in
            // the pattern's order.
            let mut ascending = placed.clone();
            ascending.sort_unstable();
            let digit: Vec<usize> = ascending
                .iter()
                .map(|sq| placed.iter().position(|p| p == sq).unwrap_or(0))
                .collect();
            let ternary = (0..1usize << placed.len())
                .map(|bits| {
                    (0..placed.len())
                        .filter(|j| bits >> j & 1 == 1)
                        .map(|j| pow3(digit[j]))
                        .sum::<usize>() as u16
                })
                .collect();
            out.push(Instance {
                pattern: index,
                squares: ascending,
                ternary,
            });
        }
    }
    out
}

/// For each configuration of a pattern, the smallest index among its images under the pattern's
/// own symmetries (a row read backwards, a corner block mirrored on its diagonal): configurations
/// that are the same seen from another side share one weight in training.
pub fn canonical_indices(n: usize, pattern: &Pattern) -> Vec<u32> {
    let len = pattern.squares.len();
    let set: Vec<(usize, usize)> = pattern.squares.clone();
    // Permutations of the digits under which the pattern maps onto itself.
    let mut perms: Vec<Vec<usize>> = Vec::new();
    for sym in Symmetry::all() {
        let image: Option<Vec<usize>> = set
            .iter()
            .map(|&(r, c)| {
                let to = sym.apply(r, c, n);
                set.iter().position(|&s| s == to)
            })
            .collect();
        if let Some(perm) = image
            && !perms.contains(&perm)
        {
            perms.push(perm);
        }
    }
    (0..pow3(len))
        .map(|index| {
            let digits: Vec<usize> = (0..len).map(|k| index / pow3(k) % 3).collect();
            perms
                .iter()
                .map(|perm| (0..len).map(|k| digits[k] * pow3(perm[k])).sum::<usize>())
                .min()
                .unwrap_or(index) as u32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_cover_each_placement_once() {
        let list = patterns(8);
        let counts: Vec<usize> = (0..list.len())
            .map(|p| {
                instances(8, &list)
                    .iter()
                    .filter(|i| i.pattern == p)
                    .count()
            })
            .collect();
        // edge, 3x3, 2x5, rows 2-4, diagonals 8..4, triangle, edge block, edge moves, row 2
        // moves, diagonal band, narrow triangle, fish, kite
        assert_eq!(
            counts,
            vec![4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
        );
        assert_eq!(patterns(6).len(), 3 + 2 + 3);
        // 10x10: edge, 3x3, 2x5, rows 2-5, diagonals 10..4; 12x12: rows 2-6, the same diagonals.
        assert_eq!(patterns(10).len(), 3 + 4 + 7);
        assert_eq!(patterns(12).len(), 3 + 5 + 7);
        // 14x14 and 16x16: the 12x12 set, the rows past the sixth left to the baseline.
        assert_eq!(patterns(14).len(), 3 + 5 + 7);
        assert_eq!(patterns(16).len(), 3 + 5 + 7);
        // The fit keeps an index within a pattern's table in 16 bits; every square is on the
        // board.
        for n in crate::eval::weights::SUPPORTED {
            assert!(patterns(n).iter().all(|p| pow3(p.squares.len()) <= 1 << 16));
            assert!(
                patterns(n)
                    .iter()
                    .all(|p| p.squares.iter().all(|&(r, c)| r < n && c < n))
            );
        }
        // Lehto 9x9: the edge and rows 2-5 whole (the middle row twice: its row and column),
        // three 3x3 windows (the centre once), diagonals 9..4.
        let lehto = patterns(9);
        let counts: Vec<usize> = (0..lehto.len())
            .map(|p| {
                instances(9, &lehto)
                    .iter()
                    .filter(|i| i.pattern == p)
                    .count()
            })
            .collect();
        assert_eq!(counts, vec![4, 4, 4, 4, 2, 4, 4, 1, 2, 4, 4, 4, 4, 4]);
        // A window placed at both ends of a 12x12 edge: 8 placements.
        let edge = &patterns(12)[0];
        assert_eq!(placements(12, edge).len(), 8);
    }

    #[test]
    fn ternary_tables_follow_the_pattern_order() {
        let list = patterns(8);
        for inst in instances(8, &list) {
            let squares = &list[inst.pattern].squares;
            // A single disc on each square in turn has the digit of its place.
            let ones: Vec<usize> = (0..squares.len())
                .map(|j| inst.ternary[1 << j] as usize)
                .collect();
            let mut sorted = ones.clone();
            sorted.sort_unstable();
            let expected: Vec<usize> = (0..squares.len()).map(pow3).collect();
            assert_eq!(sorted, expected);
        }
    }

    #[test]
    fn canonical_index_is_shared_by_mirror_images() {
        let list = patterns(8);
        let row = &list[3];
        let canon = canonical_indices(8, row);
        // A disc on the first square and the same disc on the last are the same configuration.
        assert_eq!(canon[1], canon[pow3(7)]);
        assert_eq!(canon[1], 1);
        // The 2x5 corner block has no symmetry of its own.
        let block = canonical_indices(8, &list[2]);
        assert!(block.iter().enumerate().all(|(i, &c)| i as u32 == c));
    }
}
