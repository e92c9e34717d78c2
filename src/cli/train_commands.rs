//! `othel train gen|fit`: making training samples by self-play, and fitting weights to them.

use super::CliError;
use crate::eval::Evaluate;
use crate::eval::weights::supported;
use crate::rules::geometry::{Size6, Size8};
use crate::rules::notation::parse_transcript;
use crate::rules::{Move, Othello};
use crate::search::Searcher;
use crate::train::fit::{FitOptions, fit};
use crate::train::samples::{self, Sample};
use crate::train::selfplay::{SelfPlay, play_game};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// The train subcommands.
#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Plays self-play games and appends their labelled positions to a samples file: moves by a
    /// shallow search (with random moves now and then) until SOLVE squares are empty, then perfect
    /// play; positions of the ending get their exact score, earlier ones the exact score reached.
    /// The games are played with the built-in evaluation, or the one given by --weights.
    Gen {
        /// The side of the (Othello) board: 6 or 8.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Games to play.
        #[arg(long)]
        games: u64,
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
        /// Games played at once (default: the machine's cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Transposition table of each game's searcher, in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// The samples file (appended to when it exists).
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits pattern weights to samples files by regularised least squares, phase by phase, and
    /// reports the error on held-out samples.
    Fit {
        /// Samples files.
        #[arg(required = true)]
        samples: Vec<PathBuf>,
        /// The side of the (Othello) board: 6 or 8.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Ridge penalty per weight.
        #[arg(long, default_value_t = 2.0)]
        lambda: f64,
        /// Conjugate-gradient iterations per phase.
        #[arg(long, default_value_t = 100)]
        iterations: usize,
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
            let openings = match openings {
                Some(path) => read_openings(&path)?,
                None => Vec::new(),
            };
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
                games,
                threads: threads.max(1),
                hash,
                out,
                size,
            };
            match size {
                6 => generate::<Othello<Size6>>(&job),
                _ => generate::<Othello<Size8>>(&job),
            }
        }
        TrainCommand::Fit {
            samples: files,
            size,
            lambda,
            iterations,
            holdout,
            min_samples,
            out,
        } => {
            check_size(size)?;
            let mut all = Vec::new();
            for path in &files {
                let file =
                    std::fs::File::open(path).map_err(|e| CliError::File(path.clone(), e))?;
                let read = samples::read(std::io::BufReader::new(file), size)
                    .map_err(|e| CliError::Train(format!("{}: {e}", path.display())))?;
                all.extend(read);
            }
            if all.is_empty() {
                return Err(CliError::Train("no samples to fit".into()));
            }
            println!("{} samples", all.len());
            let options = FitOptions {
                lambda,
                iterations,
                holdout,
                min_samples,
            };
            let started = Instant::now();
            let print = |r: &crate::train::fit::PhaseReport| {
                let borrowed = if r.source == r.phase {
                    String::new()
                } else {
                    format!(", too few: takes phase {}", r.source)
                };
                println!(
                    "phase {:2} (empties {:2}-{:2}): {:8} fitted, rmse {:5.2}; {:7} held out, rmse {:5.2} (predicting 0: {:5.2}){borrowed}",
                    r.phase,
                    r.phase * 4,
                    r.phase * 4 + 3,
                    r.train,
                    r.train_rmse,
                    r.held_out,
                    r.holdout_rmse,
                    r.zero_rmse
                )
            };
            let weights = match size {
                6 => fit::<Othello<Size6>>(&all, &options, print),
                _ => fit::<Othello<Size8>>(&all, &options, print),
            }
            .map_err(|e| CliError::Train(e.to_string()))?;
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

fn check_size(size: usize) -> Result<(), CliError> {
    if supported(size) {
        Ok(())
    } else {
        Err(CliError::Train(format!(
            "the pattern evaluation is for 6x6 and 8x8 Othello, not {size}x{size}"
        )))
    }
}

/// Openings as transcripts, one a line (`#` comments and blank lines skipped).
fn read_openings(path: &Path) -> Result<Vec<Vec<Move>>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::File(path.to_path_buf(), e))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_transcript(line).map_err(|e| CliError::Line(n + 1, e))?);
    }
    Ok(out)
}

struct GenJob {
    config: SelfPlay,
    openings: Vec<Vec<Move>>,
    games: u64,
    threads: usize,
    hash: usize,
    out: PathBuf,
    size: usize,
}

fn generate<P: Evaluate>(job: &GenJob) -> Result<(), CliError> {
    let exists = job.out.exists();
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&job.out)
        .map_err(|e| CliError::File(job.out.clone(), e))?;
    if exists {
        // Appending: the file must already be samples of this size.
        let head = std::fs::read(&job.out).map_err(|e| CliError::File(job.out.clone(), e))?;
        samples::read(head.as_slice(), job.size)
            .map_err(|e| CliError::Train(format!("{}: {e}", job.out.display())))?;
    } else {
        file.write_all(&samples::header(job.size))
            .map_err(|e| CliError::File(job.out.clone(), e))?;
    }
    let next = AtomicU64::new(0);
    let started = Instant::now();
    let bar = ProgressBar::new(job.games);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games, {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (tx, rx) = mpsc::channel::<Vec<Sample>>();
    let mut total = 0usize;
    let mut write_error = None;
    std::thread::scope(|scope| {
        for _ in 0..job.threads {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let Ok(searcher) = Searcher::new(1, job.hash) else {
                    return;
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= job.games {
                        break;
                    }
                    let opening: &[Move] = if job.openings.is_empty() {
                        &[]
                    } else {
                        &job.openings[(i % job.openings.len() as u64) as usize]
                    };
                    let samples = play_game::<P>(&searcher, &job.config, opening, i);
                    if tx.send(samples).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for batch in rx {
            total += batch.len();
            if write_error.is_none()
                && let Err(e) = samples::write_records(&mut file, &batch)
            {
                write_error = Some(e);
                // Stop handing out games.
                next.store(job.games, Ordering::Relaxed);
            }
            bar.inc(1);
            bar.set_message(format!("{total} samples"));
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(CliError::File(job.out.clone(), e));
    }
    println!(
        "{} games, {} samples appended to {} in {:.1} s",
        job.games,
        total,
        job.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
