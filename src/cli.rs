//! The command line: clap definitions of the one-shot subcommands, and what each one runs.

use crate::rules::diagram::diagram;
use crate::rules::game::{Game, GameError};
use crate::rules::notation::{self, NotationError, Setup};
use crate::rules::variant::BadSize;
use crate::rules::{BoardKind, Position, Variant, perft};
use crate::with_position_type;
use clap::{Args, Parser, Subcommand};
use std::fmt;

/// othel: an engine for Othello/Reversi (even boards 4x4 to 16x16) and Othel Lehto (odd boards
/// 5x5 to 19x19).
#[derive(Parser, Debug)]
#[command(name = "othel", version, about)]
pub struct Cli {
    /// What to run.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Counts the leaves of the game tree to a depth (a pass is a ply; a finished game is a leaf).
    Perft {
        /// Which position.
        #[command(flatten)]
        position: PositionArgs,
        /// Worker threads (1: no pool).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Plies to count.
        depth: u32,
    },
    /// Plays moves from a position and prints the result as a board string and a diagram.
    Board {
        /// Which position.
        #[command(flatten)]
        position: PositionArgs,
        /// Moves, separate or run together as a transcript (f5d6c3).
        moves: Vec<String>,
    },
}

/// The options that choose a start position.
#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// othello or lehto (default: othello, or what --size or --board implies).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// The side of the board (default: 8 for Othello, 9 for Lehto).
    #[arg(long)]
    pub size: Option<usize>,
    /// A board string: the squares from a1 row by row (X black, O white, - empty), a space, the
    /// colour to move.
    #[arg(long)]
    pub board: Option<String>,
}

/// Why a subcommand failed.
#[derive(Debug)]
pub enum CliError {
    /// A board string that cannot be read.
    Board(NotationError),
    /// A variant and size that do not go together.
    Size(BadSize),
    /// The board string disagrees with --variant or --size.
    Conflict(String),
    /// Moves that cannot be read or played.
    Moves(GameError),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CliError::Board(e) => write!(f, "bad --board: {e}"),
            CliError::Size(e) => e.fmt(f),
            CliError::Conflict(s) => f.write_str(s),
            CliError::Moves(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CliError {}

impl PositionArgs {
    /// The board kind and, when --board was given, its setup.
    pub fn resolve(&self) -> Result<(BoardKind, Option<Setup>), CliError> {
        if let Some(text) = &self.board {
            let setup: Setup = text.parse().map_err(CliError::Board)?;
            let kind = setup.kind();
            if self.variant.is_some_and(|v| v != kind.variant())
                || self.size.is_some_and(|s| s != kind.size())
            {
                return Err(CliError::Conflict(format!(
                    "the board string is {kind}, which contradicts --variant/--size"
                )));
            }
            return Ok((kind, Some(setup)));
        }
        let variant = self
            .variant
            .or_else(|| self.size.and_then(Variant::for_size))
            .unwrap_or(Variant::Othello);
        let size = self.size.unwrap_or(variant.default_size());
        let kind = BoardKind::new(variant, size).map_err(CliError::Size)?;
        Ok((kind, None))
    }
}

/// The start position of `P` or the given setup.
fn start_position<P: Position>(setup: &Option<Setup>) -> Result<P, CliError> {
    match setup {
        Some(setup) => setup.to_position().map_err(CliError::Board),
        None => Ok(P::start()),
    }
}

/// Runs a subcommand, writing its output to stdout.
pub fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Perft {
            position,
            threads,
            depth,
        } => {
            let (kind, setup) = position.resolve()?;
            let report = with_position_type!(kind, P => {
                let start: P = start_position(&setup)?;
                perft::run(&start, depth, threads)
            });
            println!("{report}");
        }
        Command::Board { position, moves } => {
            let (kind, setup) = position.resolve()?;
            let text = with_position_type!(kind, P => {
                let mut game = Game::new(start_position::<P>(&setup)?);
                let mut all = Vec::new();
                for word in &moves {
                    let parsed = notation::parse_transcript(word)
                        .map_err(|e| CliError::Moves(GameError::Notation(e)))?;
                    all.extend(parsed);
                }
                game.play_all(&all).map_err(CliError::Moves)?;
                let pos = game.position();
                format!("board {}\n{}", notation::board_string(pos), diagram(pos))
            });
            print!("{text}");
        }
    }
    Ok(())
}
