//! `othel book build|add|show|export|import`.

use super::{CliError, EngineArgs, PositionArgs, play_moves, start_position};
use crate::book::build::{Builder, Growth};
use crate::book::{Book, embedded};
use crate::eval::Evaluate;
use crate::rules::ggf::GgfRecord;
use crate::rules::notation::{Setup, parse_transcript};
use crate::rules::{BoardKind, Game, Move, Position, Variant};
use crate::search::{Searcher, format_score};
use crate::with_position_type;
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The book subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Grows a book from the start position: every move within WIDTH discs of the best is
    /// expanded up to PLIES plies; new positions are searched to DEPTH (exact when few enough
    /// squares are empty) and the values negamaxed back. Resumes from OUT when it exists.
    Build {
        /// othello or lehto, and the size.
        #[command(flatten)]
        position: PositionArgs,
        /// Plies to expand from the start.
        #[arg(long)]
        plies: u32,
        /// Search depth of each new position.
        #[arg(long)]
        depth: u32,
        /// Expand the moves within this many discs of the best.
        #[arg(long, default_value_t = 0.0)]
        width: f64,
        /// The book file (read first when it exists, then saved as the build goes).
        #[arg(long)]
        out: PathBuf,
        /// Build only this shard's part (K/N, or `auto` for the scheduler's): the subtrees below
        /// the positions of the split ply (the first with 4N of them) whose number is K mod N.
        /// `book merge` joins the parts; the same build run on the merged book then adds the
        /// positions above the split.
        #[arg(long)]
        shard: Option<crate::shard::Shard>,
        /// The search's resources.
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Joins books of one kind (the parts of a sharded build) into OUT: a position several hold
    /// keeps the best search of it; every value is negamaxed again.
    Merge {
        /// The books to join.
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// The book to write (joined in too when it exists).
        #[arg(long)]
        out: PathBuf,
    },
    /// Adds the positions of games (GGF records or transcripts, one a line) to a book: new
    /// positions are searched to DEPTH, every position counted, the values negamaxed again.
    Add {
        /// The games.
        games: PathBuf,
        /// The book file to add to (made when absent).
        #[arg(long)]
        book: PathBuf,
        /// othello or lehto, and the size (of transcripts; GGF records say theirs).
        #[command(flatten)]
        position: PositionArgs,
        /// Search depth of each new position.
        #[arg(long, default_value_t = 10)]
        depth: u32,
        /// Only the first PLIES plies of each game.
        #[arg(long)]
        plies: Option<usize>,
        /// The search's resources.
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// The book moves of a position, with their scores, depths and counts.
    Show {
        /// The book file (default: the built-in book of the variant and size).
        #[arg(long)]
        book: Option<PathBuf>,
        /// Which position.
        #[command(flatten)]
        position: PositionArgs,
        /// Moves played from it, separate or as a transcript.
        moves: Vec<String>,
    },
    /// Writes a book as text (one position a line) to stdout or OUT.
    Export {
        /// The book file (default: the built-in book of --variant/--size).
        book: Option<PathBuf>,
        /// othello or lehto (for the built-in book; default: othello, or what --size implies).
        #[arg(long)]
        variant: Option<Variant>,
        /// The side of the board (for the built-in book; default: 8 for Othello, 9 for Lehto).
        #[arg(long)]
        size: Option<usize>,
        /// The text file to write.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Reads a text book and writes it as a binary book.
    Import {
        /// The text book.
        text: PathBuf,
        /// The binary book to write.
        #[arg(long)]
        out: PathBuf,
    },
}

fn book_error(e: impl std::fmt::Display) -> CliError {
    CliError::Book(e.to_string())
}

/// A spinner on stderr: positions searched, book size, rate.
fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A book file, or a new book when it does not exist yet.
fn open_or_new(path: &Path, kind: BoardKind) -> Result<Book, CliError> {
    if !path.exists() {
        return Ok(Book::new(kind));
    }
    let book = Book::load(path).map_err(|e| book_error(format!("{}: {e}", path.display())))?;
    if book.kind() != kind {
        return Err(book_error(format!(
            "{} is a {} book, not {kind}",
            path.display(),
            book.kind()
        )));
    }
    Ok(book)
}

/// Saves `book` now and then while it grows (every 30 seconds), and on request.
struct Saver<'a> {
    path: &'a Path,
    last: Instant,
    bar: ProgressBar,
}

impl Saver<'_> {
    fn tick(&mut self, searched: usize, book: &Book) {
        self.bar
            .set_message(format!("{searched} searched, {} positions", book.len()));
        if self.last.elapsed() > Duration::from_secs(30) {
            if let Err(e) = book.save(self.path) {
                log::error!("{e}");
            }
            self.last = Instant::now();
        }
    }
}

/// Runs a book subcommand.
pub fn run(command: BookCommand) -> Result<(), CliError> {
    match command {
        BookCommand::Build {
            position,
            plies,
            depth,
            width,
            out,
            shard,
            engine,
        } => {
            let (kind, _) = position.resolve()?;
            let mut book = open_or_new(&out, kind)?;
            let searcher = Searcher::new(engine.threads_or_cores(), engine.hash)
                .map_err(CliError::Searcher)?;
            let growth = Growth {
                plies,
                depth,
                width: (width.clamp(0.0, 1000.0) * 100.0).round() as i32,
            };
            let started = Instant::now();
            let mut saver = Saver {
                path: &out,
                last: Instant::now(),
                bar: spinner(),
            };
            let searched = with_position_type!(kind, P => {
                let mut builder =
                    Builder::new(&searcher, growth, |n: usize, b: &Book| saver.tick(n, b));
                match shard {
                    Some(shard) => builder.grow_shard(&mut book, &P::start(), shard),
                    None => builder.grow(&mut book, &P::start()),
                }
                builder.searched()
            });
            saver.bar.finish_and_clear();
            book.save(&out).map_err(book_error)?;
            println!(
                "book {} positions {} searched {searched} time {:.1} bytes {}",
                out.display(),
                book.len(),
                started.elapsed().as_secs_f64(),
                book.to_bytes().len()
            );
        }
        BookCommand::Merge { parts, out } => {
            let load = |path: &Path| {
                Book::load(path).map_err(|e| book_error(format!("{}: {e}", path.display())))
            };
            let mut book = load(&parts[0])?;
            for path in &parts[1..] {
                book.merge(&load(path)?)
                    .map_err(|e| book_error(format!("{}: {e}", path.display())))?;
            }
            if out.exists() {
                book.merge(&load(&out)?)
                    .map_err(|e| book_error(format!("{}: {e}", out.display())))?;
            }
            let kind = book.kind();
            with_position_type!(kind, P => crate::book::build::negamax_all::<P>(&mut book))
                .map_err(book_error)?;
            book.save(&out).map_err(book_error)?;
            println!(
                "book {} positions {} from {} parts",
                out.display(),
                book.len(),
                parts.len()
            );
        }
        BookCommand::Add {
            games,
            book: path,
            position,
            depth,
            plies,
            engine,
        } => {
            let (kind, _) = position.resolve()?;
            let mut book = open_or_new(&path, kind)?;
            let lines = read_games(&games, kind)?;
            let searcher = Searcher::new(engine.threads_or_cores(), engine.hash)
                .map_err(CliError::Searcher)?;
            let growth = Growth {
                plies: 0,
                depth,
                width: 0,
            };
            let started = Instant::now();
            let mut saver = Saver {
                path: &path,
                last: Instant::now(),
                bar: spinner(),
            };
            let searched = with_position_type!(kind, P => {
                let mut builder =
                    Builder::new(&searcher, growth, |n: usize, b: &Book| saver.tick(n, b));
                for (start, moves) in &lines {
                    let start: P = start_position(start)?;
                    let moves = &moves[..plies.unwrap_or(moves.len()).min(moves.len())];
                    builder.add_game(&mut book, &start, moves);
                }
                builder.searched()
            });
            saver.bar.finish_and_clear();
            book.save(&path).map_err(book_error)?;
            println!(
                "book {} games {} positions {} searched {searched} time {:.1}",
                path.display(),
                lines.len(),
                book.len(),
                started.elapsed().as_secs_f64()
            );
        }
        BookCommand::Show {
            book,
            position,
            moves,
        } => {
            let (kind, setup) = position.resolve()?;
            let book = load_or_embedded(book.as_deref(), kind)?;
            if book.kind() != kind {
                return Err(book_error(format!(
                    "the book is for {}, the position is {kind} (give --variant/--size or a --board of the book's kind)",
                    book.kind()
                )));
            }
            with_position_type!(kind, P => {
                let game = play_moves(Game::new(start_position::<P>(&setup)?), &moves)?;
                print!("{}", show(&book, game.position()));
            });
        }
        BookCommand::Export {
            book,
            variant,
            size,
            out,
        } => {
            let position = PositionArgs {
                variant,
                size,
                board: None,
            };
            let (kind, _) = position.resolve()?;
            let book = load_or_embedded(book.as_deref(), kind)?;
            match out {
                Some(path) => std::fs::write(&path, book.to_text())
                    .map_err(|e| CliError::File(path.clone(), e))?,
                None => print!("{}", book.to_text()),
            }
        }
        BookCommand::Import { text, out } => {
            let content =
                std::fs::read_to_string(&text).map_err(|e| CliError::File(text.clone(), e))?;
            let book = Book::from_text(&content).map_err(book_error)?;
            book.save(&out).map_err(book_error)?;
            println!("book {} positions {}", out.display(), book.len());
        }
    }
    Ok(())
}

/// A book file, or the built-in book of `kind`.
fn load_or_embedded(path: Option<&Path>, kind: BoardKind) -> Result<Book, CliError> {
    match path {
        Some(path) => Book::load(path).map_err(|e| book_error(format!("{}: {e}", path.display()))),
        None => embedded(kind).ok_or_else(|| book_error(format!("no built-in book for {kind}"))),
    }
}

/// The book's view of a position: its entry, then its moves.
pub fn show<P: Evaluate>(book: &Book, pos: &P) -> String {
    let mut out = String::new();
    match book.get(pos) {
        Some(e) => out.push_str(&format!(
            "position score {} leaf {} depth {}{} count {}\n",
            format_score(e.score),
            format_score(e.leaf),
            e.depth,
            if e.exact { " exact" } else { "" },
            e.count
        )),
        None => out.push_str("position not in the book\n"),
    }
    for m in book.moves(pos) {
        out.push_str(&format!(
            "move {} score {} depth {}{} count {}\n",
            m.mv,
            format_score(m.score),
            m.depth,
            if m.exact { " exact" } else { "" },
            m.count
        ));
    }
    out
}

/// A game to add: its start position (`None`: the variant's) and its moves.
type GameLine = (Option<Setup>, Vec<Move>);

/// The games of a file: GGF records or transcripts, one a line (`#` lines skipped).
fn read_games(path: &Path, kind: BoardKind) -> Result<Vec<GameLine>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::File(path.to_path_buf(), e))?;
    let mut games = Vec::new();
    for (n, line) in super::content_lines(&text) {
        let at = |e: String| book_error(format!("{}:{}: {e}", path.display(), n));
        if line.starts_with("(;") {
            let record: GgfRecord = line
                .parse()
                .map_err(|e: crate::rules::ggf::GgfError| at(e.to_string()))?;
            if record.kind() != kind {
                return Err(at(format!("the game is {}, not {kind}", record.kind())));
            }
            games.push((
                Some(record.start.clone()),
                record.moves.iter().map(|m| m.mv).collect(),
            ));
        } else {
            games.push((None, parse_transcript(line).map_err(|e| at(e.to_string()))?));
        }
    }
    Ok(games)
}
