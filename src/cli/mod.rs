//! The command line: clap definitions of the one-shot subcommands, and what each one runs.

mod book_commands;
mod review_command;
mod search_commands;
mod train_commands;

use crate::rules::diagram::diagram;
use crate::rules::game::{Game, GameError};
use crate::rules::notation::{self, NotationError, ObfLine, Setup};
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
    /// What to run; without a subcommand, the engine reads protocol commands from stdin.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Speak the NBoard protocol (also chosen when the first line is `nboard N`).
    #[arg(long, conflicts_with = "gtp")]
    pub nboard: bool,
    /// Speak GTP (also chosen when the first line is a GTP command).
    #[arg(long)]
    pub gtp: bool,
    /// Search threads of the engine, 1-256 (default: the machine's cores).
    #[arg(long, value_parser = threads_arg)]
    pub threads: Option<usize>,
    /// Transposition table size of the engine in MB, 1-65536 [default: 64].
    #[arg(long, value_parser = hash_arg)]
    pub hash: Option<usize>,
    /// Midgame depth of NBoard's and GTP's moves, 1-64 (default: by time, 1 s a move on 8x8).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// The opening book: on (the built-in one), off, or a book file [default: on].
    #[arg(long)]
    pub book: Option<String>,
    /// Play any book move within this many discs of the best [default: 0].
    #[arg(long)]
    pub bookrandom: Option<usize>,
    /// Evaluate with this weights file (from `othel train fit`) instead of the built-in weights of
    /// its board size; for the engine and every subcommand.
    #[arg(long, global = true)]
    pub weights: Option<std::path::PathBuf>,
}

impl Cli {
    /// Installs the weights file given by `--weights`, if any (before any evaluation).
    pub fn install_weights(&self) -> Result<(), CliError> {
        let Some(path) = &self.weights else {
            return Ok(());
        };
        let bytes = std::fs::read(path).map_err(|e| CliError::File(path.clone(), e))?;
        let weights = crate::eval::weights::Weights::from_bytes(&bytes)
            .map_err(|e| CliError::Train(format!("{}: {e}", path.display())))?;
        crate::eval::model::install(weights)
            .map_err(|e| CliError::Train(format!("{}: {e}", path.display())))
    }

    /// How the protocol starts when no subcommand is given.
    pub fn startup(&self) -> crate::protocol::Startup {
        use crate::protocol::Mode;
        crate::protocol::Startup {
            mode: if self.nboard {
                Mode::Nboard
            } else if self.gtp {
                Mode::Gtp
            } else {
                Mode::Detect
            },
            threads: self.threads,
            hash_mb: self.hash,
            depth: self.depth,
            book: self.book.clone(),
            bookrandom: self.bookrandom,
        }
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Counts the leaves of the game tree to a depth (a pass is a ply; a finished game is a leaf).
    Perft {
        /// Which position.
        #[command(flatten)]
        position: PositionArgs,
        /// Worker threads, 1-256 (1: no pool).
        #[arg(long, default_value_t = 1, value_parser = threads_arg)]
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
    /// Searches a position and prints a report per iteration, then the best move.
    Analyze {
        /// Which position.
        #[command(flatten)]
        position: PositionArgs,
        /// Moves played from it, separate or as a transcript.
        moves: Vec<String>,
        /// Search this many plies deep.
        #[arg(long)]
        depth: Option<u32>,
        /// Search this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Solve exactly (final disc difference).
        #[arg(long)]
        exact: bool,
        /// Solve for win, loss or draw.
        #[arg(long)]
        wld: bool,
        /// Score this many best moves.
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// Search every move to the full depth (no ProbCut in the midgame).
        #[arg(long)]
        full_width: bool,
        /// Search only these moves, e.g. `c4,e3` (the protocol's `go searchmoves`): to score a
        /// move one has in mind.
        #[arg(long, value_delimiter = ',', num_args = 1..)]
        searchmoves: Vec<crate::rules::Move>,
        /// The opening book: on (the built-in one), off, or a book file; a book move is answered
        /// without a search (not with --exact, --wld or --searchmoves).
        #[arg(long, default_value = "on")]
        book: String,
        /// Play any book move within this many discs of the best.
        #[arg(long, default_value_t = 0)]
        bookrandom: usize,
        /// The search's resources.
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Reviews games: each move's score against the best move's (to a fixed depth, exactly near
    /// the end), what it lost, and each side's total loss and mistakes.
    Review(Box<review_command::ReviewArgs>),
    /// Solves every position of a file of board strings or OBF lines exactly and checks the scores
    /// the file gives.
    Solve {
        /// The file: one board string or OBF line a line; the length gives the size.
        file: std::path::PathBuf,
        /// Solve for win, loss or draw only.
        #[arg(long)]
        wld: bool,
        /// The search's resources.
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Builds, grows, shows, exports and imports opening books.
    Book {
        /// What to do.
        #[command(subcommand)]
        command: book_commands::BookCommand,
    },
    /// Plays engines against each other (round robin over openings) and reports who is stronger.
    Match(Box<MatchArgs>),
    /// The game for people: a full-screen board in a terminal (a line-oriented game with --plain
    /// or when not on a terminal), against the engine or another person, on every board.
    Play(Box<crate::play::PlayArgs>),
    /// Trains the pattern evaluation: self-play samples, then a least-squares fit.
    Train {
        /// What to do.
        #[command(subcommand)]
        command: train_commands::TrainCommand,
    },
    /// Searches a fixed list of positions to a fixed depth, then times the static evaluation on
    /// each board with trained weights (`evaluation BOARD ns N positions P`); the last line is
    /// `<nodes> nodes <nps> nps` (the node count is the same on every run with one thread).
    #[command(mut_arg("threads", |a| a.help("Search threads, 1-256 (default: 1, whose node count is the same on every run)")))]
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = search_commands::BENCH_DEPTH)]
        depth: u32,
        /// Search these 8x8 positions instead: a file of game transcripts from the start
        /// position (`f5d6c3…`), one a line (`#` comments and blank lines skipped).
        #[arg(long)]
        positions: Option<std::path::PathBuf>,
        /// The search's resources.
        #[command(flatten)]
        engine: EngineArgs,
    },
}

/// The options of `othel match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine: name=NAME cmd="COMMAND ARGS" [proto=othel|nboard|gtp] [dir=DIR]
    /// [option.NAME=VALUE …] [depth=D | nodes=N | movetime=MS | tc=BASE+INC] [ponder=on|off];
    /// two or more.
    /// Either one quoted word (`--engine "name=a cmd='othel --threads 1' depth=4"`) or, as
    /// cutechess-cli takes it, the words up to the next option
    /// (`--engine name=a cmd="othel --threads 1" depth=4`).
    /// ([`group_engine_words`] makes the second form one word before clap reads it.)
    #[arg(long = "engine", required_unless_present = "summary")]
    pub engines: Vec<String>,
    /// Play nothing: print the summary (and --json, --sprt) of the games in these GGF files,
    /// e.g. the shards of one match run apart (a game number counts once). The engines are
    /// the --engine names in that order, or as the files first name them.
    #[arg(long, num_args = 1..)]
    pub summary: Vec<std::path::PathBuf>,
    /// othello or lehto (default: othello, or what --size implies).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// The side of the board (default: 8 for Othello, 9 for Lehto).
    #[arg(long)]
    pub size: Option<usize>,
    /// Openings, one a line: transcripts, board strings or GGF records (default: random openings
    /// of a few plies, a different one for each encounter).
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Shuffle the openings with this seed (default: in the file's order); without --openings,
    /// the seed of the random openings (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games in all.
    #[arg(long, conflicts_with = "rounds")]
    pub games: Option<usize>,
    /// Encounters per pair of engines (two games each, colours reversed).
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Append every finished game to this GGF file.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Go on with the games already in --out.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Log each engine's traffic in this folder.
    #[arg(long)]
    pub log: Option<std::path::PathBuf>,
    /// Stop once a sequential test decides: elo0=0 elo1=5 alpha=0.05 beta=0.05.
    #[arg(long, num_args = 1..=4)]
    pub sprt: Option<Vec<String>>,
    /// Play only this shard's games (K/N: game numbers i with i mod N = K), or `auto` for the
    /// scheduler's (Slurm job array, Kubernetes indexed Job); N shards' --out files together hold
    /// the whole match (`--summary` merges them, with --sprt there).
    #[arg(long, conflicts_with = "sprt")]
    pub shard: Option<crate::shard::Shard>,
    /// Write the summary as JSON to this file.
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
    /// Seconds past a clock or move time before an engine counts as hung.
    #[arg(long, default_value_t = 2.0)]
    pub margin: f64,
    /// Seconds an engine without a clock or move time may take for one move.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
}

/// Rewrites `othel match`'s cutechess-style engines, `--engine name=a cmd=othel depth=4` (the
/// words up to the next option), into the one-word form `--engine "name=\"a\" cmd=\"othel\" …"`
/// that clap takes, quoting each value so that a word the shell left whole (`cmd=othel
/// --threads 1`) stays whole. Other arguments pass unchanged.
pub fn group_engine_words(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let is_match = args
        .iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'));
    if is_match.is_none_or(|a| a != "match") {
        return args;
    }
    let mut out = Vec::with_capacity(args.len());
    let mut words = args.into_iter().peekable();
    while let Some(arg) = words.next() {
        if arg != "--engine" {
            out.push(arg);
            continue;
        }
        out.push(arg);
        let mut group = Vec::new();
        while let Some(next) = words.peek() {
            let text = next.to_string_lossy();
            if text.starts_with("--") || !text.contains('=') {
                break;
            }
            group.push(text.into_owned());
            words.next();
        }
        match group.len() {
            0 => {}
            // One word: already the one-word form (its own quoting inside).
            1 => out.push(group.remove(0).into()),
            _ => {
                let quoted: Vec<String> = group
                    .iter()
                    .map(|w| {
                        let (key, value) = w.split_once('=').unwrap_or((w, ""));
                        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
                        format!("{key}=\"{escaped}\"")
                    })
                    .collect();
                out.push(quoted.join(" ").into());
            }
        }
    }
    out
}

/// Threads and table size of a search.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search threads, 1-256 (default: the machine's cores).
    #[arg(long, value_parser = threads_arg)]
    pub threads: Option<usize>,
    /// Transposition table size in MB, 1-65536.
    #[arg(long, default_value_t = 64, value_parser = hash_arg)]
    pub hash: usize,
}

/// A `--threads` value: 1 to [`crate::search::MAX_THREADS`].
pub fn threads_arg(text: &str) -> Result<usize, String> {
    bounded_arg(text, crate::search::MAX_THREADS)
}

/// A `--hash` value in MB: 1 to [`crate::search::MAX_HASH_MB`].
pub fn hash_arg(text: &str) -> Result<usize, String> {
    bounded_arg(text, crate::search::MAX_HASH_MB)
}

fn bounded_arg(text: &str, max: usize) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("a whole number from 1 to {max}")),
    }
}

impl EngineArgs {
    /// The threads asked for, or the machine's cores.
    pub fn threads_or_cores(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
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
    /// colour to move (an OBF line reads too: `…  X;` and any `move:score` entries after it).
    #[arg(long, allow_hyphen_values = true)]
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
    /// A file that cannot be read.
    File(std::path::PathBuf, std::io::Error),
    /// A line of a position file that cannot be read.
    Line(usize, NotationError),
    /// Scores that differ from a file's.
    Mismatch(Vec<String>),
    /// The searcher (its threads or its table) could not be made.
    Searcher(crate::search::SearcherError),
    /// A match that cannot be run.
    Match(String),
    /// A book that cannot be read, written or built.
    Book(String),
    /// Training data or weights that cannot be made, read or written.
    Train(String),
    /// `othel play` could not drive the terminal or write its output.
    Terminal(std::io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CliError::Board(e) => write!(f, "bad --board: {e}"),
            CliError::Match(e) => write!(f, "match: {e}"),
            CliError::Book(e) => write!(f, "book: {e}"),
            CliError::Train(e) => write!(f, "train: {e}"),
            CliError::Size(e) => e.fmt(f),
            CliError::Conflict(s) => f.write_str(s),
            CliError::Moves(e) => e.fmt(f),
            CliError::File(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            CliError::Line(n, e) => write!(f, "line {n}: {e}"),
            CliError::Mismatch(lines) => write!(f, "wrong scores: {}", lines.join("; ")),
            CliError::Searcher(e) => e.fmt(f),
            CliError::Terminal(e) => write!(f, "play: the terminal: {e}"),
        }
    }
}

impl std::error::Error for CliError {}

impl PositionArgs {
    /// The board kind and, when --board was given, its setup.
    pub fn resolve(&self) -> Result<(BoardKind, Option<Setup>), CliError> {
        if let Some(text) = &self.board {
            let setup = text.parse::<ObfLine>().map_err(CliError::Board)?.setup;
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
                let game = play_moves(Game::new(start_position::<P>(&setup)?), &moves)?;
                let pos = game.position();
                format!("board {}\n{}", notation::board_string(pos), diagram(pos))
            });
            print!("{text}");
        }
        Command::Analyze {
            position,
            moves,
            depth,
            movetime,
            exact,
            wld,
            multipv,
            full_width,
            searchmoves,
            book,
            bookrandom,
            engine,
        } => {
            let (kind, setup) = position.resolve()?;
            let mut choice = crate::protocol::book_choice::BookChoice {
                window: bookrandom.min(64) as i32 * crate::eval::DISC,
                ..Default::default()
            };
            if !(exact || wld || !searchmoves.is_empty()) {
                let setting = crate::protocol::book_choice::BookSetting::parse(&book);
                choice.load(setting, kind).map_err(CliError::Book)?;
            }
            let limits = crate::search::Limits {
                depth,
                movetime: movetime.map(std::time::Duration::from_millis),
                exact,
                wld,
                multipv,
                full_width,
                searchmoves,
                ..Default::default()
            };
            with_position_type!(kind, P => {
                let game = play_moves(Game::new(start_position::<P>(&setup)?), &moves)?;
                let legal = game.position().legal_moves();
                if let Some(bad) = limits.searchmoves.iter().find(|mv| !legal.contains(mv)) {
                    return Err(CliError::Conflict(format!(
                        "--searchmoves: {bad} is not a legal move here"
                    )));
                }
                match choice.choose_position(game.position()) {
                    Some(m) => {
                        // A book move is answered without a search.
                        let score = crate::search::format_score(m.score);
                        println!("info depth 0 book score {score} pv {}", m.mv);
                        println!("bestmove {}", m.mv);
                    }
                    None => search_commands::analyze(game.position(), &limits, &engine)?,
                }
            });
        }
        Command::Review(args) => review_command::review(&args)?,
        Command::Solve { file, wld, engine } => search_commands::solve(&file, wld, &engine)?,
        Command::Bench {
            depth,
            positions,
            engine,
        } => search_commands::bench(depth, positions.as_deref(), &engine)?,
        Command::Match(args) => run_match(&args)?,
        Command::Play(args) => crate::play::run(*args)?,
        Command::Book { command } => book_commands::run(command)?,
        Command::Train { command } => train_commands::run(command)?,
    }
    Ok(())
}

/// `othel match`: the summary on stdout, the progress bar on stderr.
fn run_match(args: &MatchArgs) -> Result<(), CliError> {
    use crate::tournament::{
        MatchConfig, game::Opening, random_openings, read_openings, run, spec::EngineSpec,
    };
    let position = PositionArgs {
        variant: args.variant,
        size: args.size,
        board: None,
    };
    let (kind, _) = position.resolve()?;
    let engines = args
        .engines
        .iter()
        .map(|e| {
            e.parse::<EngineSpec>()
                .map_err(|m| CliError::Match(format!("--engine: {m}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let openings = match &args.openings {
        Some(path) => read_openings(path, kind).map_err(CliError::Match)?,
        None => {
            // One opening per encounter (two games, colours reversed), so that no two
            // encounters repeat the same games; seeded, so that a run can be repeated.
            let pairs = engines.len() * engines.len().saturating_sub(1) / 2;
            let encounters = args
                .games
                .map_or(args.rounds.max(1) * pairs.max(1), |g| g.div_ceil(2));
            let openings =
                random_openings(kind, encounters.clamp(1, 100_000), args.seed.unwrap_or(1));
            if openings.is_empty() {
                vec![Opening {
                    start: None,
                    moves: Vec::new(),
                }]
            } else {
                openings
            }
        }
    };
    let sprt = match &args.sprt {
        Some(words) => Some(crate::tournament::stats::Sprt::parse(words).map_err(CliError::Match)?),
        None => None,
    };
    if !args.summary.is_empty() {
        let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
        let summary =
            crate::tournament::summarize(&args.summary, &names, sprt).map_err(CliError::Match)?;
        if let Some(path) = &args.json {
            std::fs::write(path, summary.to_json()).map_err(|e| CliError::File(path.clone(), e))?;
        }
        print_quietly(&summary.to_string());
        return Ok(());
    }
    let seconds = |s: f64, what: &str| {
        if (0.0..1e7).contains(&s) {
            Ok(std::time::Duration::from_secs_f64(s))
        } else {
            Err(CliError::Match(format!("{what} takes seconds: {s}")))
        }
    };
    let config = MatchConfig {
        engines,
        kind,
        openings,
        seed: args.seed,
        games: args.games,
        rounds: args.rounds,
        concurrency: args.concurrency.clamp(1, 256),
        out: args.out.clone(),
        resume: args.resume,
        log_dir: args.log.clone(),
        sprt,
        json: args.json.clone(),
        margin: seconds(args.margin, "--margin")?,
        timeout: seconds(args.timeout, "--timeout")?,
        progress: true,
        shard: args.shard.unwrap_or(crate::shard::Shard::ALL),
    };
    let summary = run(&config).map_err(CliError::Match)?;
    print_quietly(&summary.to_string());
    Ok(())
}

/// Writes to stdout, quietly giving up when its reader has gone (`othel match … | head`): `match`
/// keeps SIGPIPE ignored for its engines' sake, so a plain `print!` would panic.
fn print_quietly(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// Plays moves given as words (each a move or a transcript) on a game.
fn play_moves<P: Position>(mut game: Game<P>, words: &[String]) -> Result<Game<P>, CliError> {
    let mut all = Vec::new();
    for word in words {
        let parsed = notation::parse_transcript(word)
            .map_err(|e| CliError::Moves(GameError::Notation(e)))?;
        all.extend(parsed);
    }
    game.play_all(&all).map_err(CliError::Moves)?;
    Ok(game)
}

/// Game transcripts from a file, one a line (`#` comments and blank lines skipped): the openings
/// of `train gen`, the positions of `bench`.
fn read_transcripts(path: &std::path::Path) -> Result<Vec<Vec<crate::rules::Move>>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::File(path.to_path_buf(), e))?;
    content_lines(&text)
        .map(|(n, line)| notation::parse_transcript(line).map_err(|e| CliError::Line(n, e)))
        .collect()
}

/// The lines of a text file that hold something, trimmed, with their numbers (from 1): blank
/// lines and `#` comments left out.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::spec::EngineSpec;

    fn args(words: &[&str]) -> Vec<std::ffi::OsString> {
        words.iter().map(|w| w.into()).collect()
    }

    fn engines(words: &[&str]) -> Vec<EngineSpec> {
        let cli = Cli::try_parse_from(group_engine_words(args(words))).expect("parses");
        let Some(Command::Match(m)) = cli.command else {
            panic!("not a match")
        };
        m.engines
            .iter()
            .map(|e| e.parse().expect("a spec"))
            .collect()
    }

    #[test]
    fn both_engine_forms_give_the_same_engines() {
        // What the shell hands over for `--engine name=a cmd="othel --threads 1" depth=4 …`.
        let cutechess = engines(&[
            "othel",
            "match",
            "--engine",
            "name=a",
            "cmd=othel --threads 1",
            "option.book=off",
            "depth=4",
            "--engine",
            "name=b",
            r#"cmd=/opt/my "engine"\x"#,
            "movetime=40",
            "--games",
            "2",
        ]);
        let one_word = engines(&[
            "othel",
            "match",
            "--engine",
            r#"name=a cmd="othel --threads 1" option.book=off depth=4"#,
            "--engine",
            r#"name=b cmd='/opt/my "engine"\x' movetime=40"#,
            "--games",
            "2",
        ]);
        assert_eq!(cutechess, one_word);
        assert_eq!(cutechess[0].command, ["othel", "--threads", "1"]);
        // Other commands' arguments pass unchanged.
        let plain = args(&["othel", "perft", "--threads", "2", "5"]);
        assert_eq!(group_engine_words(plain.clone()), plain);
    }
}
