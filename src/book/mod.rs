//! The opening book: positions stored once per symmetry class, each with its negamaxed score, the
//! depth of the search behind it, whether that is exact, and how often it was played or learned.
//! A book answers "which moves do you know here, and what are they worth" for any position of its
//! variant and size; `build` grows and rescores books. book/README.md documents both file formats.

pub mod build;

use crate::rules::notation::Setup;
use crate::rules::symmetry::Symmetry;
use crate::rules::{Bits, BoardKind, Color, Move, Position, Variant};
use std::collections::HashMap;
use std::fmt;

/// What the book knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The negamaxed score in centi-discs from the view of the side to move.
    pub score: i32,
    /// The score of the position's own search (its value as a leaf), centi-discs.
    pub leaf: i32,
    /// The depth of the search behind the leaf score.
    pub depth: u8,
    /// Whether the leaf score is exact (solved to the end).
    pub exact: bool,
    /// How often the position was played or learned.
    pub count: u32,
}

/// A move the book knows, with what it is worth to the player who makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its score in centi-discs from the mover's view.
    pub score: i32,
    /// The depth of the search behind it.
    pub depth: u8,
    /// Whether the score is exact.
    pub exact: bool,
    /// How often it was played or learned.
    pub count: u32,
}

/// Why a book file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file does not start with the book header.
    NotABook,
    /// The file ends before the entries it announces.
    Truncated,
    /// An entry that cannot be a position.
    Corrupt(String),
    /// A line of a text book that cannot be read.
    BadLine(usize, String),
    /// The book is for another variant or size.
    WrongKind {
        /// What the book holds.
        found: BoardKind,
        /// What was asked for.
        expected: BoardKind,
    },
    /// The file cannot be read or written.
    Io(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BookError::NotABook => f.write_str("not an othel book (no OTHELBK1 header)"),
            BookError::Truncated => f.write_str("the book file is truncated"),
            BookError::Corrupt(what) => write!(f, "the book file is corrupt: {what}"),
            BookError::BadLine(n, what) => write!(f, "line {n}: {what}"),
            BookError::WrongKind { found, expected } => {
                write!(f, "the book is for {found}, not {expected}")
            }
            BookError::Io(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for BookError {}

/// The binary file's header.
const MAGIC: &[u8; 8] = b"OTHELBK1";

/// A book of one variant and size.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    kind: BoardKind,
    entries: HashMap<Vec<u8>, BookEntry>,
}

/// The squares of a position, row by row: 0 empty, 1 black, 2 white.
fn cells<P: Position>(pos: &P) -> Vec<u8> {
    let (black, white) = (pos.black(), pos.white());
    let n = pos.size() * pos.size();
    (0..n)
        .map(|i| {
            if black.has(i) {
                1
            } else if white.has(i) {
                2
            } else {
                0
            }
        })
        .collect()
}

/// Two bits a square, four squares a byte.
fn pack(cells: &[u8]) -> Vec<u8> {
    cells
        .chunks(4)
        .map(|c| c.iter().enumerate().fold(0u8, |b, (k, v)| b | v << (2 * k)))
        .collect()
}

/// The key of a position: the smallest packing of its eight symmetric images, then a byte with
/// the colour to move (bit 0) and whether a swap is allowed (bit 1).
pub fn key<P: Position>(pos: &P) -> Vec<u8> {
    let size = pos.size();
    let cells = cells(pos);
    let mut best: Option<Vec<u8>> = None;
    let mut image = vec![0u8; cells.len()];
    for symmetry in Symmetry::all() {
        for (i, &c) in cells.iter().enumerate() {
            image[symmetry.apply_index(i, size)] = c;
        }
        let packed = pack(&image);
        if best.as_ref().is_none_or(|b| packed < *b) {
            best = Some(packed);
        }
    }
    let mut key = best.unwrap_or_default();
    key.push((pos.side_to_move() == Color::White) as u8 | (pos.can_swap() as u8) << 1);
    key
}

/// The key's length for a board of side `size`.
fn key_len(size: usize) -> usize {
    (size * size).div_ceil(4) + 1
}

/// The board string a key stands for (its canonical image).
fn setup_of_key(key: &[u8], kind: BoardKind) -> Result<Setup, BookError> {
    let n = kind.size() * kind.size();
    if key.len() != key_len(kind.size()) {
        return Err(BookError::Corrupt("a key of the wrong length".into()));
    }
    let mut squares = String::with_capacity(n);
    for i in 0..n {
        squares.push(match key[i / 4] >> (2 * (i % 4)) & 3 {
            0 => '-',
            1 => 'X',
            2 => 'O',
            _ => return Err(BookError::Corrupt("a square of no colour".into())),
        });
    }
    let flags = key[key.len() - 1];
    if flags > 3 {
        return Err(BookError::Corrupt("bad flags".into()));
    }
    let to_move = if flags & 1 == 1 {
        Color::White
    } else {
        Color::Black
    };
    Setup::from_squares(&squares, to_move).map_err(|e| BookError::Corrupt(e.to_string()))
}

impl Book {
    /// An empty book.
    pub fn new(kind: BoardKind) -> Book {
        Book {
            kind,
            entries: HashMap::new(),
        }
    }

    /// The variant and size.
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What the book knows of `pos`.
    pub fn get<P: Position>(&self, pos: &P) -> Option<BookEntry> {
        self.entries.get(&key(pos)).copied()
    }

    /// Stores what is known of `pos`.
    pub fn insert<P: Position>(&mut self, pos: &P, entry: BookEntry) {
        self.entries.insert(key(pos), entry);
    }

    /// Adds another book's positions (the parts of a sharded build, say): a position both hold
    /// keeps the better search (exact first, then deeper) and the higher count. The negamaxed
    /// values are stale until [`build::negamax_all`] runs. Returns how many positions were new.
    pub fn merge(&mut self, other: &Book) -> Result<usize, BookError> {
        if other.kind != self.kind {
            return Err(BookError::WrongKind {
                found: other.kind,
                expected: self.kind,
            });
        }
        let mut new = 0;
        for (k, theirs) in &other.entries {
            match self.entries.get_mut(k) {
                None => {
                    self.entries.insert(k.clone(), *theirs);
                    new += 1;
                }
                Some(mine) => {
                    let better = (theirs.exact, theirs.depth) > (mine.exact, mine.depth);
                    let count = mine.count.max(theirs.count);
                    if better {
                        *mine = *theirs;
                    }
                    mine.count = count;
                }
            }
        }
        Ok(new)
    }

    /// Every position held (each as its canonical image), of type `P`, which must be the book's
    /// kind.
    pub fn positions<P: Position>(&self) -> Result<Vec<P>, BookError> {
        self.entries
            .keys()
            .map(|k| {
                setup_of_key(k, self.kind)?
                    .to_position::<P>()
                    .map_err(|e| BookError::Corrupt(e.to_string()))
            })
            .collect()
    }

    /// The moves of `pos` that lead to book positions, best first (ties: most played first).
    pub fn moves<P: Position>(&self, pos: &P) -> Vec<BookMove> {
        let mut out: Vec<BookMove> = pos
            .legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let child = pos.play_unchecked(mv);
                let e = self.get(&child)?;
                Some(BookMove {
                    mv,
                    score: -e.score,
                    depth: e.depth,
                    exact: e.exact,
                    count: e.count,
                })
            })
            .collect();
        out.sort_by_key(|m| (std::cmp::Reverse(m.score), std::cmp::Reverse(m.count)));
        out
    }

    /// The move to play: the best, or with `window` > 0 (centi-discs) any move within `window`
    /// of the best, chosen by `pick` (given how many there are, it returns an index).
    pub fn choose<P: Position>(
        &self,
        pos: &P,
        window: i32,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<BookMove> {
        let moves = self.moves(pos);
        let best = moves.first()?.score;
        let near: Vec<BookMove> = moves
            .into_iter()
            .filter(|m| m.score >= best - window.max(0))
            .collect();
        let i = if near.len() > 1 { pick(near.len()) } else { 0 };
        near.get(i).or(near.first()).copied()
    }

    /// The compact binary file (book/README.md describes it).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<&Vec<u8>> = self.entries.keys().collect();
        keys.sort();
        let mut out = Vec::with_capacity(16 + keys.len() * (key_len(self.kind.size()) + 14));
        out.extend_from_slice(MAGIC);
        out.push(match self.kind.variant() {
            Variant::Othello => 0,
            Variant::Lehto => 1,
        });
        out.push(self.kind.size() as u8);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        for key in keys {
            let e = self.entries[key];
            out.extend_from_slice(key);
            out.extend_from_slice(&(e.score as i16).to_le_bytes());
            out.extend_from_slice(&(e.leaf as i16).to_le_bytes());
            out.push(e.depth);
            out.push(e.exact as u8);
            out.extend_from_slice(&e.count.to_le_bytes());
        }
        out
    }

    /// Reads a binary book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(BookError::NotABook);
        }
        let variant = match bytes[8] {
            0 => Variant::Othello,
            1 => Variant::Lehto,
            v => return Err(BookError::Corrupt(format!("unknown variant {v}"))),
        };
        let kind = BoardKind::new(variant, bytes[9] as usize)
            .map_err(|e| BookError::Corrupt(e.to_string()))?;
        let count = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        let klen = key_len(kind.size());
        let record = klen + 10;
        let body = &bytes[16..];
        if body.len() < count.saturating_mul(record) {
            return Err(BookError::Truncated);
        }
        if body.len() > count * record {
            return Err(BookError::Corrupt("bytes after the last entry".into()));
        }
        let mut book = Book::new(kind);
        for chunk in body.chunks_exact(record) {
            let key = &chunk[..klen];
            // Every key must be a position.
            setup_of_key(key, kind)?;
            let r = &chunk[klen..];
            let exact = match r[5] {
                0 => false,
                1 => true,
                _ => return Err(BookError::Corrupt("a bad exact flag".into())),
            };
            book.entries.insert(
                key.to_vec(),
                BookEntry {
                    score: i16::from_le_bytes([r[0], r[1]]) as i32,
                    leaf: i16::from_le_bytes([r[2], r[3]]) as i32,
                    depth: r[4],
                    exact,
                    count: u32::from_le_bytes([r[6], r[7], r[8], r[9]]),
                },
            );
        }
        Ok(book)
    }

    /// The text form: a header line, then a line a position, sorted:
    /// `<board string> <score> <leaf> <depth> <exact|-> <count>` (scores in discs).
    pub fn to_text(&self) -> String {
        let mut lines: Vec<String> = self
            .entries
            .iter()
            .filter_map(|(key, e)| {
                let setup = setup_of_key(key, self.kind).ok()?;
                Some(format!(
                    "{setup} {:.2} {:.2} {} {} {}",
                    e.score as f64 / 100.0,
                    e.leaf as f64 / 100.0,
                    e.depth,
                    if e.exact { "exact" } else { "-" },
                    e.count
                ))
            })
            .collect();
        lines.sort();
        format!(
            "# othel book {} {} positions {}\n{}\n",
            self.kind.variant(),
            self.kind.size(),
            lines.len(),
            lines.join("\n")
        )
    }

    /// Reads the text form.
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let mut lines = text.lines().enumerate();
        let header = lines.next().map(|(_, l)| l).unwrap_or("");
        let words: Vec<&str> = header.split_whitespace().collect();
        let kind = match words.as_slice() {
            ["#", "othel", "book", variant, size, ..] => {
                let variant: Variant = variant
                    .parse()
                    .map_err(|_| BookError::BadLine(1, format!("unknown variant {variant}")))?;
                let size: usize = size
                    .parse()
                    .map_err(|_| BookError::BadLine(1, format!("bad size {size}")))?;
                BoardKind::new(variant, size).map_err(|e| BookError::BadLine(1, e.to_string()))?
            }
            _ => return Err(BookError::NotABook),
        };
        let mut book = Book::new(kind);
        for (n, line) in lines {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |what: &str| BookError::BadLine(n + 1, format!("{what}: '{line}'"));
            let w: Vec<&str> = line.split_whitespace().collect();
            let [squares, color, score, leaf, depth, exact, count] = w.as_slice() else {
                return Err(bad("expected a board string and five fields"));
            };
            let setup: Setup = format!("{squares} {color}")
                .parse()
                .map_err(|e: crate::rules::notation::NotationError| bad(&e.to_string()))?;
            if setup.kind() != kind {
                return Err(bad("a board of another size"));
            }
            let centi = |t: &str| {
                t.parse::<f64>()
                    .ok()
                    .filter(|v| v.abs() <= 327.0)
                    .map(|v| (v * 100.0).round() as i32)
                    .ok_or_else(|| bad("a bad score"))
            };
            let entry = BookEntry {
                score: centi(score)?,
                leaf: centi(leaf)?,
                depth: depth.parse().map_err(|_| bad("a bad depth"))?,
                exact: match *exact {
                    "exact" => true,
                    "-" => false,
                    _ => return Err(bad("exact or -")),
                },
                count: count.parse().map_err(|_| bad("a bad count"))?,
            };
            book.insert_setup(&setup, entry)?;
        }
        Ok(book)
    }

    fn insert_setup(&mut self, setup: &Setup, entry: BookEntry) -> Result<(), BookError> {
        crate::with_position_type!(self.kind, P => {
            let pos: P = setup
                .to_position()
                .map_err(|e| BookError::Corrupt(e.to_string()))?;
            self.insert(&pos, entry);
        });
        Ok(())
    }

    /// Reads a book file, binary or text. Errors do not name the file: the caller does.
    pub fn load(path: &std::path::Path) -> Result<Book, BookError> {
        // The caller names the file.
        let bytes = std::fs::read(path).map_err(|e| BookError::Io(e.to_string()))?;
        if bytes.starts_with(MAGIC) {
            Book::from_bytes(&bytes)
        } else if bytes.starts_with(b"# othel book") {
            let text = String::from_utf8(bytes)
                .map_err(|_| BookError::Corrupt("text that is not UTF-8".into()))?;
            Book::from_text(&text)
        } else {
            Err(BookError::NotABook)
        }
    }

    /// Writes the binary file (atomically: a temporary file renamed over the old one).
    pub fn save(&self, path: &std::path::Path) -> Result<(), BookError> {
        let temporary = path.with_extension("tmp");
        std::fs::write(&temporary, self.to_bytes())
            .and_then(|_| std::fs::rename(&temporary, path))
            .map_err(|e| BookError::Io(format!("{}: {e}", path.display())))
    }
}

/// The books built into the binary (book/*.book).
pub fn embedded(kind: BoardKind) -> Option<Book> {
    let bytes: &[u8] = match (kind.variant(), kind.size()) {
        (Variant::Othello, 8) => include_bytes!("../../book/othello-8.book"),
        (Variant::Othello, 6) => include_bytes!("../../book/othello-6.book"),
        (Variant::Lehto, 9) => include_bytes!("../../book/lehto-9.book"),
        _ => return None,
    };
    match Book::from_bytes(bytes) {
        Ok(book) => Some(book),
        Err(e) => {
            log::error!("the built-in {kind} book is unreadable: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Size8;
    use crate::rules::{Othello, Position};

    fn entry(score: i32) -> BookEntry {
        BookEntry {
            score,
            leaf: score,
            depth: 10,
            exact: false,
            count: 1,
        }
    }

    #[test]
    fn positions_are_found_under_all_eight_symmetries() {
        let pos = Othello::<Size8>::start()
            .play("f5".parse().unwrap())
            .play("d6".parse().unwrap())
            .play("c3".parse().unwrap());
        let mut book = Book::new(BoardKind::default());
        book.insert(&pos, entry(150));
        let setup = Setup::from_position(&pos);
        for symmetry in Symmetry::all() {
            let image: Othello<Size8> = setup.transformed(symmetry).to_position().unwrap();
            assert_eq!(book.get(&image), Some(entry(150)), "{symmetry:?}");
        }
        // The same discs with the other colour to move are another position.
        let other: Othello<Size8> = Setup::from_squares(&setup.squares_string(), Color::Black)
            .unwrap()
            .to_position()
            .unwrap();
        assert_eq!(book.get(&other), None);
    }

    #[test]
    fn binary_and_text_forms_round_trip_and_damage_is_an_error() {
        let mut book = Book::new(BoardKind::default());
        let start = Othello::<Size8>::start();
        for (i, mv) in start.legal_moves().into_iter().enumerate() {
            book.insert(&start.play(mv), entry(-30 * i as i32));
        }
        book.insert(&start, entry(0));
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        assert_eq!(Book::from_text(&book.to_text()).unwrap(), book);
        assert_eq!(
            Book::from_bytes(&bytes[..bytes.len() - 3]),
            Err(BookError::Truncated)
        );
        assert_eq!(Book::from_bytes(b"NOTABOOK"), Err(BookError::NotABook));
        let mut corrupt = bytes.clone();
        corrupt[16] = 0xff;
        assert!(matches!(
            Book::from_bytes(&corrupt),
            Err(BookError::Corrupt(_))
        ));
        assert!(Book::from_text("# othel book othello 8\nnonsense 1 2").is_err());
        // All four first moves are symmetric: one position, scored by the last insert.
        assert_eq!(book.len(), 2);
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 4);
        assert!(moves.iter().all(|m| m.score == moves[0].score));
    }

    #[test]
    fn choice_stays_in_its_window() {
        let start = Othello::<Size8>::start();
        let after = start.play("f5".parse().unwrap());
        let mut book = Book::new(BoardKind::default());
        let replies = after.legal_moves();
        for (i, &mv) in replies.iter().enumerate() {
            // Replies worth 0, -1, -2 discs to white.
            book.insert(&after.play(mv), entry(100 * i as i32));
        }
        let best = book.moves(&after)[0].score;
        assert_eq!(book.choose(&after, 0, |_| 99).unwrap().score, best);
        let mut seen = std::collections::HashSet::new();
        for pick in 0..5 {
            let m = book.choose(&after, 150, |n| pick % n).unwrap();
            assert!(m.score >= best - 150, "{m:?}");
            seen.insert(m.mv);
        }
        assert!(seen.len() > 1, "the window offers a choice");
    }
}
