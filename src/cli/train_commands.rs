//! `othel train gen|eval|label|fit`: making training samples by self-play, measuring the
//! evaluation against them, labelling test sets by search, and fitting weights to them.

use super::{CliError, read_transcripts};
use crate::eval::Evaluate;
use crate::eval::weights::{phase_shift, supported};
use crate::rules::Position;
use crate::rules::geometry::{Size6, Size8, Size9, Size10, Size12, Size14, Size16};
use crate::rules::{Lehto, Move, Othello};
use crate::search::Searcher;
use crate::shard::Shard;
use crate::train::fit::{FitOptions, fit};
use crate::train::label::{self, LabelBy};
use crate::train::records::{self, GameRecord, Labels, RecordHeader};
use crate::train::samples::{self, Sample};
use crate::train::selfplay::{SelfPlay, play_game, random_moves};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Runs `$body` with `$P` the position type of a board side with a pattern evaluation (Othello on
/// 6 to 16, Lehto on 9; checked before). `with_position_type!` would build the self-play
/// and the fit for every variant and size, of which these seven can use them.
macro_rules! with_trained_board {
    ($size:expr, $P:ident => $body:expr) => {
        match $size {
            6 => {
                type $P = Othello<Size6>;
                $body
            }
            8 => {
                type $P = Othello<Size8>;
                $body
            }
            9 => {
                type $P = Lehto<Size9>;
                $body
            }
            10 => {
                type $P = Othello<Size10>;
                $body
            }
            12 => {
                type $P = Othello<Size12>;
                $body
            }
            14 => {
                type $P = Othello<Size14>;
                $body
            }
            _ => {
                type $P = Othello<Size16>;
                $body
            }
        }
    };
}

/// How `train eval` and `train fit` label the positions of games files before the solve point.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct LabelArgs {
    /// Label positions before the solve point with this share of the search's score, the
    /// rest the game's result (0 to 1; games files of version 2 keep the scores).
    #[arg(long, default_value_t = 0.0)]
    search_weight: f64,
    /// Give back to the result labelling a position what the random moves played after it
    /// lost, by the search's scores (games files of version 2; the random moves are found by
    /// making the games' random draws again).
    #[arg(long)]
    undo_random: bool,
}

/// The train subcommands.
#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Plays self-play games and appends them to a games file (data/README.md), or their labelled
    /// positions to a samples file when OUT ends in .samples: moves by a search of --depth (with
    /// random moves now and then) until SOLVE squares are empty, then perfect play; positions of
    /// the ending get their exact score, earlier ones the exact score reached. Game i is the same
    /// on every run; a games file that exists is resumed (the games it holds are not played
    /// again). The games are played with the built-in evaluation, or the one given by --weights.
    Gen {
        /// The side of the board: 6, 8, 10, 12, 14 or 16 (Othello), or 9 (Lehto).
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Games to play: numbers FROM to FROM+GAMES-1.
        #[arg(long)]
        games: u64,
        /// The first game's number.
        #[arg(long, default_value_t = 0)]
        from: u64,
        /// Play only this shard's games (K/N: the numbers i with i mod N = K), or `auto` for the
        /// scheduler's (SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX of
        /// OTHEL_SHARD_COUNT).
        #[arg(long)]
        shard: Option<Shard>,
        /// Search depth of the moves before the solve point.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Solve exactly from this many empty squares.
        #[arg(long, default_value_t = 18)]
        solve: u32,
        /// Chance of a random move at each ply before --random-until.
        #[arg(long, default_value_t = 0.1)]
        epsilon: f64,
        /// No random moves after this ply.
        #[arg(long, default_value_t = 30)]
        random_until: u32,
        /// Random moves that start a game when there are no openings.
        #[arg(long, default_value_t = 6)]
        random_opening: u32,
        /// Openings (transcripts, one a line); game i starts from opening i.
        #[arg(long)]
        openings: Option<PathBuf>,
        /// Game i is seeded with SEED + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once, 1-256 (default: the machine's cores).
        #[arg(long, value_parser = super::threads_arg)]
        threads: Option<usize>,
        /// Transposition table of each game's searcher, in MB.
        #[arg(long, default_value_t = 16, value_parser = super::hash_arg)]
        hash: usize,
        /// The games file (.samples: a samples file), appended to when it exists; plain, to be
        /// compressed once the run is complete.
        #[arg(long)]
        out: PathBuf,
    },
    /// Measures the static evaluation (the built-in weights, or --weights) against the labels
    /// of games or samples files: mean absolute and root mean square error in discs by phase
    /// (positions with at most the games' solve point's empties are labelled exactly).
    Eval {
        /// Games files (plain, bzip2 or gzip) and samples files (games not used in the fit, for a
        /// fair figure).
        #[arg(required = true)]
        samples: Vec<PathBuf>,
        /// The side of the board: 6, 8, 10, 12, 14 or 16 (Othello), or 9 (Lehto).
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// How games' positions are labelled.
        #[command(flatten)]
        labels: LabelArgs,
    },
    /// Labels positions of games or samples files by a search of --depth plies or an exact
    /// solve (--exact), and writes them as a samples file: a test set for `train eval` whose
    /// labels are not the noise of the moves played after each position (boards up to 8x8).
    Label {
        /// Games files (plain, bzip2 or gzip) and samples files to take the positions from (games
        /// not used in the fit, for a fair figure).
        #[arg(required = true)]
        samples: Vec<PathBuf>,
        /// The side of the board: 6 or 8 (Othello).
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Positions with this many empty squares: N or A-B.
        #[arg(long, value_parser = empties_arg)]
        empties: (u32, u32),
        /// How many positions (distinct, chosen at random by --seed among those in range).
        #[arg(long)]
        count: usize,
        /// Label by a search of this many plies.
        #[arg(long, conflicts_with = "exact", required_unless_present = "exact")]
        depth: Option<u32>,
        /// Label by an exact solve.
        #[arg(long)]
        exact: bool,
        /// Seed of the choice of positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Positions labelled at once, 1-256 (default: the machine's cores).
        #[arg(long, value_parser = super::threads_arg)]
        threads: Option<usize>,
        /// Transposition table of each searcher, in MB.
        #[arg(long, default_value_t = 64, value_parser = super::hash_arg)]
        hash: usize,
        /// The samples file to write (replaced).
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits pattern weights to games and samples files by regularised least squares, phase by
    /// phase, and reports the error on held-out samples.
    Fit {
        /// Games files, plain, bzip2 or gzip (their games replayed into labelled positions), and
        /// samples files.
        #[arg(required = true)]
        samples: Vec<PathBuf>,
        /// The side of the board: 6, 8, 10, 12, 14 or 16 (Othello), or 9 (Lehto).
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// How games' positions are labelled.
        #[command(flatten)]
        labels: LabelArgs,
        /// Ridge penalty per weight.
        #[arg(long, default_value_t = 2.0)]
        lambda: f64,
        /// Conjugate-gradient iterations per phase.
        #[arg(long, default_value_t = 100)]
        iterations: usize,
        /// Each phase is also fitted on the samples of the phases beside it (weighted by this,
        /// 0 to 1; 0: its own only): more data for every phase, the weights changing smoothly.
        #[arg(long, default_value_t = 0.0)]
        smooth: f64,
        /// Shrink towards these weights instead of towards 0 (`builtin`: the weights built in for
        /// the size): the fit keeps what they learned where the new samples say little. A file
        /// fitted before the board's later patterns were added gives them zero tables.
        #[arg(long)]
        prior: Option<String>,
        /// Empty counts a phase spans: 2, 4 or 8 (default: 4 up to 8x8, 8 on larger boards);
        /// the weights file records it.
        #[arg(long)]
        phase_width: Option<usize>,
        /// Hold one sample in N out of the fit to measure the error (0: fit on all).
        #[arg(long, default_value_t = 10)]
        holdout: u64,
        /// A phase with fewer samples takes the weights of the nearest phase with enough.
        #[arg(long, default_value_t = 1000)]
        min_samples: usize,
        /// The weights file to write.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Runs a train subcommand.
pub fn run(command: TrainCommand) -> Result<(), CliError> {
    match command {
        TrainCommand::Gen {
            size,
            games,
            from,
            shard,
            depth,
            solve,
            epsilon,
            random_until,
            random_opening,
            openings,
            seed,
            threads,
            hash,
            out,
        } => {
            check_size(size)?;
            if !(0.0..=1.0).contains(&epsilon) {
                return Err(CliError::Train("--epsilon must be between 0 and 1".into()));
            }
            let openings_name = match &openings {
                Some(path) => path
                    .file_name()
                    .map_or("openings".into(), |n| n.to_string_lossy().into_owned()),
                None => "random".into(),
            };
            let openings = match openings {
                Some(path) => read_transcripts(&path)?,
                None => Vec::new(),
            };
            // Lehto's games say so (Othello's files, older, say nothing: size alone tells).
            let variant = (size % 2 == 1).then(|| ("variant", "lehto".to_string()));
            let header = RecordHeader::new(variant.into_iter().chain([
                ("size", size.to_string()),
                ("depth", depth.to_string()),
                ("solve", solve.to_string()),
                ("epsilon", epsilon.to_string()),
                ("random-until", random_until.to_string()),
                ("random-opening", random_opening.to_string()),
                ("openings", openings_name),
                ("seed", seed.to_string()),
                ("weights", crate::eval::model::weights_id(size)),
            ]));
            let config = SelfPlay {
                depth,
                solve_empties: solve,
                random_opening,
                epsilon,
                random_until,
                seed,
            };
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let job = GenJob {
                config,
                openings,
                first: from,
                games,
                shard: shard.unwrap_or(Shard::ALL),
                header,
                threads: threads.max(1),
                hash,
                out,
                size,
            };
            with_trained_board!(size, P => generate::<P>(&job))
        }
        TrainCommand::Eval {
            samples: files,
            size,
            labels,
        } => {
            check_size(size)?;
            with_trained_board!(size, P => {
                let all = read_all_samples::<P>(&files, labels)?;
                print_errors::<P>(&all);
            });
            Ok(())
        }
        TrainCommand::Label {
            samples: files,
            size,
            empties,
            count,
            depth,
            exact,
            seed,
            threads,
            hash,
            out,
        } => {
            if !(size == 6 || size == 8) {
                return Err(CliError::Train(format!(
                    "samples files hold Othello boards up to 8x8: --size 6 or 8, not {size}"
                )));
            }
            if count == 0 {
                return Err(CliError::Train("--count must be at least 1".into()));
            }
            let by = match depth {
                Some(d) if !exact => LabelBy::Depth(d),
                _ => LabelBy::Exact,
            };
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let job = LabelJob {
                empties: empties.0..=empties.1,
                count,
                by,
                seed,
                threads,
                hash,
            };
            with_trained_board!(size, P => label_files::<P>(&files, &job, &out))
        }
        TrainCommand::Fit {
            samples: files,
            size,
            labels,
            lambda,
            iterations,
            smooth,
            prior,
            holdout,
            phase_width,
            min_samples,
            out,
        } => {
            check_size(size)?;
            let phase_shift = match phase_width {
                None => phase_shift(size),
                Some(w @ (2 | 4 | 8)) => w.trailing_zeros(),
                Some(w) => {
                    return Err(CliError::Train(format!(
                        "--phase-width must be 2, 4 or 8, not {w}"
                    )));
                }
            };
            if !(0.0..=1.0).contains(&smooth) {
                return Err(CliError::Train("--smooth must be between 0 and 1".into()));
            }
            let prior = match prior.as_deref() {
                None => None,
                Some("builtin") => {
                    Some(crate::eval::model::embedded_weights(size).ok_or_else(|| {
                        CliError::Train(format!("no built-in weights for {size}x{size}"))
                    })?)
                }
                Some(path) => {
                    let bytes =
                        std::fs::read(path).map_err(|e| CliError::File(PathBuf::from(path), e))?;
                    let w = crate::eval::weights::Weights::from_bytes_of_fewer_patterns(&bytes)
                        .map_err(|e| CliError::Train(format!("--prior {path}: {e}")))?;
                    if w.size != size {
                        return Err(CliError::Train(format!(
                            "--prior {path} is for {0}x{0}, not {size}x{size}",
                            w.size
                        )));
                    }
                    Some(w)
                }
            };
            let options = FitOptions {
                lambda,
                iterations,
                smooth,
                prior,
                holdout,
                min_samples,
                phase_shift,
            };
            let width = 1 << phase_shift;
            let print = |r: &crate::train::fit::PhaseReport| {
                let borrowed = if r.source == r.phase {
                    String::new()
                } else {
                    format!(", too few: takes phase {}", r.source)
                };
                println!(
                    "phase {:2} (empties {:2}-{:2}): {:8} fitted, rmse {:5.2}; {:7} held out, rmse {:5.2} (without the weights: {:5.2}){borrowed}",
                    r.phase,
                    r.phase * width,
                    r.phase * width + width - 1,
                    r.train,
                    r.train_rmse,
                    r.held_out,
                    r.holdout_rmse,
                    r.zero_rmse
                )
            };
            let (weights, started) =
                with_trained_board!(size, P => fit_files::<P>(&files, labels, &options, print))?;
            std::fs::write(&out, weights.to_bytes()).map_err(|e| CliError::File(out.clone(), e))?;
            println!(
                "wrote {} ({} bytes) in {:.1} s",
                out.display(),
                weights.to_bytes().len(),
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
    }
}

/// Fits weights to the labelled positions of `files`; returns them and when the fit started
/// (after the files were read).
fn fit_files<P: Evaluate>(
    files: &[PathBuf],
    labels: LabelArgs,
    options: &FitOptions,
    report: impl FnMut(&crate::train::fit::PhaseReport),
) -> Result<(crate::eval::weights::Weights, Instant), CliError> {
    let all = read_all_samples::<P>(files, labels)?;
    if all.is_empty() {
        return Err(CliError::Train("no samples to fit".into()));
    }
    println!("{} samples", all.len());
    let started = Instant::now();
    let weights = fit::<P>(&all, options, report).map_err(|e| CliError::Train(e.to_string()))?;
    Ok((weights, started))
}

/// What `train label` does to the positions it reads.
struct LabelJob {
    empties: std::ops::RangeInclusive<u32>,
    count: usize,
    by: LabelBy,
    seed: u64,
    threads: usize,
    hash: usize,
}

/// Picks positions of `files`, labels them and writes them to `out` as a samples file.
fn label_files<P: Evaluate>(files: &[PathBuf], job: &LabelJob, out: &Path) -> Result<(), CliError> {
    let all = read_all_samples::<P>(files, LabelArgs::default())?;
    let picked = label::pick::<P>(&all, job.empties.clone(), job.count, job.seed);
    if picked.is_empty() {
        return Err(CliError::Train(format!(
            "no positions with {}-{} empty squares in the files",
            job.empties.start(),
            job.empties.end()
        )));
    }
    if picked.len() < job.count {
        eprintln!(
            "only {} distinct positions with {}-{} empty squares",
            picked.len(),
            job.empties.start(),
            job.empties.end()
        );
    }
    let started = Instant::now();
    let bar = ProgressBar::new(picked.len() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} positions, eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let labelled = label::label::<P>(&picked, job.by, job.threads, job.hash, &|| bar.inc(1))
        .map_err(|e| CliError::Train(e.to_string()))?;
    bar.finish_and_clear();
    let narrow: Vec<Sample> = labelled.iter().filter_map(Sample::narrow).collect();
    let mut bytes = samples::header(P::start().size());
    samples::write_records(&mut bytes, &narrow)
        .map_err(|e| CliError::File(out.to_path_buf(), e))?;
    std::fs::write(out, bytes).map_err(|e| CliError::File(out.to_path_buf(), e))?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} positions labelled ({}) and written to {} in {seconds:.1} s ({:.2} positions/s)",
        narrow.len(),
        match job.by {
            LabelBy::Depth(d) => format!("depth {d}"),
            LabelBy::Exact => "exact".to_string(),
        },
        out.display(),
        narrow.len() as f64 / seconds.max(1e-9)
    );
    Ok(())
}

/// A `--empties` value: N or A-B.
fn empties_arg(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("a number of empty squares or a range A-B, not '{text}'");
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text.trim(), text.trim()),
    };
    let a: u32 = a.parse().map_err(|_| bad())?;
    let b: u32 = b.parse().map_err(|_| bad())?;
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

fn check_size(size: usize) -> Result<(), CliError> {
    if supported(size) {
        Ok(())
    } else {
        Err(CliError::Train(format!(
            "the pattern evaluation is for Othello on 6x6 to 16x16 and Lehto on 9x9, not {size}x{size}"
        )))
    }
}

/// Prints the static evaluation's error against the samples' labels, by 4 empties.
fn print_errors<P: Evaluate>(samples: &[Sample<P::Bits>]) {
    let squares = P::start().size().pow(2);
    // Per phase: count, sum of |error|, sum of error², sum of error (discs).
    let mut sums = vec![(0usize, 0.0f64, 0.0f64, 0.0f64); squares / 4 + 1];
    for s in samples {
        let Ok(pos) = P::from_discs(s.player, s.opponent, crate::rules::Color::Black) else {
            continue;
        };
        let empties = pos.empty_count() as usize;
        let error = pos.evaluate() as f64 / crate::eval::DISC as f64 - s.score as f64;
        let slot = &mut sums[empties / 4];
        slot.0 += 1;
        slot.1 += error.abs();
        slot.2 += error * error;
        slot.3 += error;
    }
    println!("empties  positions   mae   rmse   bias (discs, evaluation - label)");
    let mut total = (0usize, 0.0f64, 0.0f64);
    for (phase, &(n, abs, sq, sum)) in sums.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let nf = n as f64;
        println!(
            "{:2}-{:2} {:11} {:6.2} {:6.2} {:+6.2}",
            phase * 4,
            phase * 4 + 3,
            n,
            abs / nf,
            (sq / nf).sqrt(),
            sum / nf
        );
        total = (total.0 + n, total.1 + abs, total.2 + sq);
    }
    if total.0 > 0 {
        let nf = total.0 as f64;
        println!(
            "all   {:11} {:6.2} {:6.2}",
            total.0,
            total.1 / nf,
            (total.2 / nf).sqrt()
        );
    }
}

/// The labelled positions of every file, in order.
fn read_all_samples<P: Position>(
    files: &[PathBuf],
    labels: LabelArgs,
) -> Result<Vec<Sample<P::Bits>>, CliError> {
    if !(0.0..=1.0).contains(&labels.search_weight) {
        return Err(CliError::Train(
            "--search-weight must be between 0 and 1".into(),
        ));
    }
    let mut all = Vec::new();
    for path in files {
        all.extend(read_samples::<P>(path, labels)?);
    }
    Ok(all)
}

/// Reads the labelled positions of a games file (replayed) or a samples file.
fn read_samples<P: Position>(
    path: &Path,
    labels: LabelArgs,
) -> Result<Vec<Sample<P::Bits>>, CliError> {
    let size = P::start().size();
    let bytes = std::fs::read(path)
        .and_then(records::decompressed)
        .map_err(|e| CliError::File(path.to_path_buf(), e))?;
    let bad = |e: &dyn std::fmt::Display| CliError::Train(format!("{}: {e}", path.display()));
    if !records::is_games(&bytes) {
        let read = samples::read(bytes.as_slice(), size).map_err(|e| bad(&e))?;
        return Ok(read.iter().map(Sample::widen).collect());
    }
    let text = String::from_utf8(bytes).map_err(|e| bad(&e))?;
    let file = records::read(&text).map_err(|e| bad(&e))?;
    let found = file.header.size().map_err(|e| bad(&e))?;
    if found != size {
        return Err(bad(&format!(
            "games of the {found}x{found} board, not {size}x{size}"
        )));
    }
    label_games::<P>(&file, labels).map_err(|e| bad(&e))
}

/// Replays the games of a games file into labelled positions.
fn label_games<P: Position>(
    file: &records::GamesFile,
    labels: LabelArgs,
) -> Result<Vec<Sample<P::Bits>>, String> {
    let played = labels
        .undo_random
        .then(|| {
            SelfPlay::from_header(&file.header)
                .ok_or("--undo-random: the header does not say how the games were played")
        })
        .transpose()?;
    let from_opening = file.header.get("openings") != Some("random");
    let mut out = Vec::new();
    for game in &file.games {
        let random_moves = match &played {
            Some(config) => random_moves::<P>(game, config, from_opening).ok_or_else(|| {
                format!(
                    "game {}: its random draws do not give its moves (played by another build?)",
                    game.index
                )
            })?,
            None => Vec::new(),
        };
        let labels = Labels {
            search_weight: labels.search_weight,
            random_moves: &random_moves,
        };
        out.extend(game.samples::<P>(&labels).map_err(|e| e.to_string())?);
    }
    Ok(out)
}

struct GenJob {
    config: SelfPlay,
    openings: Vec<Vec<Move>>,
    first: u64,
    games: u64,
    shard: Shard,
    header: RecordHeader,
    threads: usize,
    hash: usize,
    out: PathBuf,
    size: usize,
}

/// Where the games go: a games file (resumed) or a samples file (appended to).
enum Sink {
    Games,
    Samples,
}

/// Opens the output for appending; for a games file, returns the numbers of the games it holds.
fn open_output(job: &GenJob) -> Result<(Sink, std::fs::File, HashSet<u64>), CliError> {
    let sink = if job.out.extension().is_some_and(|e| e == "samples") {
        Sink::Samples
    } else {
        Sink::Games
    };
    let file_error = |e| CliError::File(job.out.clone(), e);
    let bad = |e: &dyn std::fmt::Display| CliError::Train(format!("{}: {e}", job.out.display()));
    if matches!(sink, Sink::Samples) && job.size > 8 {
        return Err(bad(
            &"samples files hold boards up to 8x8: write a games file",
        ));
    }
    // Games are appended to a plain file and compressed once complete (data/README.md).
    if job
        .out
        .extension()
        .is_some_and(|e| records::FINISHED_EXTENSIONS.iter().any(|f| e == *f))
    {
        return Err(bad(
            &"games are written to a plain .games file (compressed once the run is complete)",
        ));
    }
    if let Some(compressed) = records::compressed_paths(&job.out).find(|p| p.exists()) {
        return Err(bad(&format!(
            "{} exists: these games were played and compressed already",
            compressed.display()
        )));
    }
    let existing = match std::fs::read(&job.out) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(file_error(e)),
    };
    let mut done = HashSet::new();
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&job.out)
        .map_err(file_error)?;
    match (&sink, existing) {
        (Sink::Samples, Some(bytes)) => {
            // Appending: the file must already be samples of this size.
            samples::read(bytes.as_slice(), job.size).map_err(|e| bad(&e))?;
        }
        (Sink::Samples, None) => file
            .write_all(&samples::header(job.size))
            .map_err(file_error)?,
        (Sink::Games, Some(bytes)) if !bytes.is_empty() => {
            let text = String::from_utf8(bytes).map_err(|e| bad(&e))?;
            let read = records::read(&text).map_err(|e| bad(&e))?;
            if read.header != job.header {
                return Err(bad(&format!(
                    "its games were played otherwise ({}), not as asked ({})",
                    read.header.to_line().trim_end(),
                    job.header.to_line().trim_end()
                )));
            }
            if read.whole_len < text.len() {
                // A game cut off by a kill: cut it away so that appending starts a whole line.
                file.set_len(read.whole_len as u64).map_err(file_error)?;
                log::warn!("{}: cut off a partial last line", job.out.display());
            }
            done.extend(read.games.iter().map(|g| g.index));
        }
        (Sink::Games, _) => file
            .write_all(job.header.to_line().as_bytes())
            .map_err(file_error)?,
    }
    Ok((sink, file, done))
}

fn generate<P: Evaluate>(job: &GenJob) -> Result<(), CliError> {
    let (sink, mut file, done) = open_output(job)?;
    let todo: Vec<u64> = (job.first..job.first.saturating_add(job.games))
        .filter(|&i| job.shard.owns(i) && !done.contains(&i))
        .collect();
    if todo.len() as u64 != job.games {
        eprintln!(
            "{} of the games are this shard's and not yet in {}",
            todo.len(),
            job.out.display()
        );
    }
    let next = AtomicU64::new(0);
    let started = Instant::now();
    let bar = ProgressBar::new(todo.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games, {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut total = 0usize;
    let mut played = 0u64;
    let mut write_error = None;
    let mut replay_error = None;
    std::thread::scope(|scope| {
        for _ in 0..job.threads {
            let tx = tx.clone();
            let next = &next;
            let todo = &todo;
            scope.spawn(move || {
                let Ok(searcher) = Searcher::new(1, job.hash) else {
                    return;
                };
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&i) = todo.get(k) else { break };
                    let opening: &[Move] = if job.openings.is_empty() {
                        &[]
                    } else {
                        &job.openings[(i % job.openings.len() as u64) as usize]
                    };
                    let record = play_game::<P>(&searcher, &job.config, opening, i);
                    if tx.send(record).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for record in rx {
            let labelled = match record.samples::<P>(&Labels::default()) {
                Ok(samples) => samples,
                Err(e) => {
                    replay_error.get_or_insert(e);
                    Vec::new()
                }
            };
            total += labelled.len();
            played += 1;
            let written = match sink {
                Sink::Games => file.write_all(record.to_line(job.header.version).as_bytes()),
                Sink::Samples => {
                    let narrow: Vec<Sample> = labelled.iter().filter_map(Sample::narrow).collect();
                    samples::write_records(&mut file, &narrow)
                }
            };
            if write_error.is_none()
                && let Err(e) = written
            {
                write_error = Some(e);
                // Stop handing out games.
                next.store(todo.len() as u64, Ordering::Relaxed);
            }
            bar.inc(1);
            let seconds = started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{total} positions, {:.0} positions/s",
                total as f64 / seconds
            ));
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(CliError::File(job.out.clone(), e));
    }
    if let Some(e) = replay_error {
        return Err(CliError::Train(format!(
            "a game played does not replay: {e}"
        )));
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{played} games, {total} labelled positions appended to {} in {seconds:.1} s ({:.0} positions/s)",
        job.out.display(),
        total as f64 / seconds.max(1e-9)
    );
    Ok(())
}
