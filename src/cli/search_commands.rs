//! The subcommands that search: `analyze`, `solve` and `bench`.

use super::{CliError, EngineArgs, read_transcripts};
use crate::eval::{DISC, Evaluate, random_positions};
use crate::rules::geometry::{Size6, Size8, Size9, Size10, Size12, Size14, Size16};
use crate::rules::notation::{self, ObfLine, Setup};
use crate::rules::{Game, Lehto, Move, Othello};
use crate::search::{Limits, Precision, Report, SearchResult, Searcher, format_score_of};
use crate::with_position_type;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The depth `othel bench` searches by default (a selective depth since the midgame ProbCut).
pub const BENCH_DEPTH: u32 = 16;

fn searcher(threads: usize, hash: usize) -> Result<Searcher, CliError> {
    Searcher::new(threads, hash).map_err(CliError::Searcher)
}

/// `othel analyze`: a report per iteration, then the best move.
pub fn analyze<P: Evaluate>(pos: &P, limits: &Limits, engine: &EngineArgs) -> Result<(), CliError> {
    let searcher = searcher(engine.threads_or_cores(), engine.hash)?;
    // Readied before the search, as the protocol's `go` is: the weights decoded (70–200 ms for
    // 8×8's) and a table of the default size brought in, so that `time` and `nps` are the
    // search's own (`othel analyze f5 --depth 8` said `time 88` for 2,340 nodes).
    let _ = pos.evaluate();
    searcher.prepare_if_quick();
    let stop = AtomicBool::new(false);
    let multipv = limits.multipv > 1;
    let result = searcher.search(pos, limits, &stop, &mut |report: &Report| {
        if multipv {
            println!("info multipv {} {report}", report.line);
        } else {
            println!("info {report}");
        }
    });
    match result.best {
        Some(best) => match result.ponder {
            Some(ponder) => println!("bestmove {best} ponder {ponder}"),
            None => println!("bestmove {best}"),
        },
        None => println!("bestmove none"),
    }
    Ok(())
}

/// One solved line of a position file.
struct Solved {
    empties: u32,
    result: SearchResult,
}

fn solve_one<P: Evaluate>(
    setup: &Setup,
    searcher: &Searcher,
    wld: bool,
) -> Result<Solved, CliError> {
    let pos: P = setup.to_position().map_err(|e| CliError::Line(0, e))?;
    let limits = Limits {
        exact: !wld,
        wld,
        ..Limits::default()
    };
    searcher.clear();
    let stop = AtomicBool::new(false);
    let result = searcher.search(&pos, &limits, &stop, &mut |_: &Report| {});
    Ok(Solved {
        empties: pos.empty_count(),
        result,
    })
}

/// `othel solve FILE`: solves every position, compares with the file's scores, prints totals.
pub fn solve(file: &Path, wld: bool, engine: &EngineArgs) -> Result<(), CliError> {
    let text = std::fs::read_to_string(file).map_err(|e| CliError::File(file.to_path_buf(), e))?;
    let searcher = searcher(engine.threads_or_cores(), engine.hash)?;
    let mut mismatches = Vec::new();
    let (mut total_nodes, mut total_time, mut count) = (0u64, Duration::ZERO, 0);
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let obf: ObfLine = line.parse().map_err(|e| CliError::Line(n + 1, e))?;
        let kind = obf.setup.kind();
        let solved = with_position_type!(kind, P => solve_one::<P>(&obf.setup, &searcher, wld))
            .map_err(|e| match e {
                CliError::Line(_, e) => CliError::Line(n + 1, e),
                other => other,
            })?;
        count += 1;
        let r = &solved.result;
        let best = r.best.map_or("none".to_string(), |m| m.to_string());
        let score = r.score / DISC;
        let file_score = r
            .best
            .and_then(|b| obf.scores.iter().find(|(m, _)| *m == b).map(|&(_, s)| s));
        let shown = match r.precision {
            Precision::WinLossDraw => wld_word(score).to_string(),
            _ => format!("{score:+}"),
        };
        let file_shown = file_score.map_or(String::new(), |s| format!(" file {s:+}"));
        println!(
            "#{count} empties {} best {best} score {shown}{file_shown} nodes {} time {:.3}",
            solved.empties,
            r.nodes,
            r.time.as_secs_f64()
        );
        if let Some(expected) = obf.best_score() {
            // A win/loss/draw solve only answers for the sign, of the score and of its move.
            let differs = |a: i32, b: i32| match r.precision {
                Precision::WinLossDraw => a.signum() != b.signum(),
                _ => a != b,
            };
            let wrong = differs(score, expected);
            let wrong_move = !wrong && file_score.is_some_and(|s| differs(s, expected));
            if wrong || wrong_move {
                let message = format!(
                    "#{count} (line {}): {best} scores {shown}, the file's best is {expected:+}",
                    n + 1
                );
                eprintln!("othel: mismatch {message}");
                mismatches.push(message);
            }
        }
        total_nodes += r.nodes;
        total_time += r.time;
    }
    let secs = total_time.as_secs_f64();
    let nps = if secs > 0.0 {
        (total_nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("total positions {count} nodes {total_nodes} time {secs:.3} nps {nps}");
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(CliError::Mismatch(mismatches))
    }
}

fn wld_word(score: i32) -> &'static str {
    match score.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
}

/// The bench positions: 8×8 games from the start, as transcripts (the start position, three XOT
/// openings, and four middle games of 20 to 30 plies from seeded random play).
const BENCH_GAMES: [&str; 8] = [
    "",
    "f5d6c4d3c2b3b4b5",
    "f5f4g3g6f3g4e3e2",
    "f5f6d3c5d6c7b5e3",
    "d3e3f3e2f5c5f1g5g6g3e6c3g2e1c4f6h3d6d7c7",
    "c4c5e6f5g4e3f4f3f6g6d2c3g5d3e2g7c2b1d6g3b3e1b2a2",
    "f5f6d3c5b5c3e6d2c2d6e3b2b1e2d1c1g7b6c7e1f1g5a2f7b3a1h5d8",
    "d3c3e6d6b3d2e1d1c2b4d7d8b2a3c6f6e8c5c1c7b6b7b5a7a8e3c4e7a4b8",
];

/// `othel bench`: a fixed search of fixed positions; prints a line a position, the static
/// evaluation's time per position on each board with trained weights, and the signature.
pub fn bench(depth: u32, positions: Option<&Path>, engine: &EngineArgs) -> Result<(), CliError> {
    let games: Vec<Vec<Move>> = match positions {
        None => BENCH_GAMES
            .iter()
            .map(|g| notation::parse_transcript(g).map_err(|e| CliError::Moves(e.into())))
            .collect::<Result<_, _>>()?,
        Some(path) => read_transcripts(path)?,
    };
    let searcher = searcher(engine.threads.unwrap_or(1), engine.hash)?;
    let started = Instant::now();
    let mut nodes = 0u64;
    for (i, moves) in games.iter().enumerate() {
        let result = {
            let mut game = Game::<Othello<Size8>>::default();
            game.play_all(moves).map_err(CliError::Moves)?;
            let pos = *game.position();
            searcher.clear();
            let stop = AtomicBool::new(false);
            searcher.search(&pos, &Limits::depth(depth), &stop, &mut |_: &Report| {})
        };
        let best: String = result.best.map_or("none".into(), |m: Move| m.to_string());
        println!(
            "position {} depth {} best {best} score {} nodes {} time {:.3}",
            i + 1,
            result.depth,
            format_score_of(result.score, result.precision),
            result.nodes,
            result.time.as_secs_f64()
        );
        nodes += result.nodes;
    }
    let secs = started.elapsed().as_secs_f64();
    // The evaluation's cost apart from the search's, on every board with trained weights.
    print_evaluation_speed::<Othello<Size8>>("othello 8x8");
    print_evaluation_speed::<Othello<Size6>>("othello 6x6");
    print_evaluation_speed::<Othello<Size10>>("othello 10x10");
    print_evaluation_speed::<Othello<Size12>>("othello 12x12");
    print_evaluation_speed::<Othello<Size14>>("othello 14x14");
    print_evaluation_speed::<Othello<Size16>>("othello 16x16");
    print_evaluation_speed::<Lehto<Size9>>("lehto 9x9");
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("{nodes} nodes {nps} nps");
    Ok(())
}

/// Prints `evaluation BOARD ns N positions P`: the static evaluation's mean time over the positions
/// of seeded random games of `P`'s board (each evaluated again and again, with its weights in
/// cache, as the search's leaves mostly find them).
fn print_evaluation_speed<P: Evaluate>(board: &str) {
    let positions = random_positions::<P>(8);
    let rounds = (400_000 / positions.len().max(1)).max(1);
    // Once for the weights to be read in, then timed.
    let mut sum = positions.iter().map(|p| p.evaluate() as i64).sum::<i64>();
    let started = Instant::now();
    for _ in 0..rounds {
        for p in &positions {
            sum += std::hint::black_box(p).evaluate() as i64;
        }
    }
    let ns = started.elapsed().as_nanos() as f64 / (rounds * positions.len()).max(1) as f64;
    std::hint::black_box(sum);
    println!(
        "evaluation {board} ns {ns:.1} positions {}",
        positions.len()
    );
}
