//! `othel review`: each move of a game scored against the best one, and each side's total loss.

use super::{CliError, EngineArgs, PositionArgs, content_lines, play_moves, start_position};
use crate::eval::{DISC, Evaluate};
use crate::rules::ggf::GgfRecord;
use crate::rules::notation::{self, Setup};
use crate::rules::{BoardKind, Color, Game, Move, Position};
use crate::search::review::{MoveReview, ReviewDepth, SideTotals, Verdict, review_game};
use crate::search::{Precision, Searcher, format_score_of};
use crate::with_position_type;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The options of `othel review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The board of a game given by its moves (and of a file's transcripts).
    #[command(flatten)]
    pub position: PositionArgs,
    /// The game's moves, separate or as a transcript (f5d6c3…).
    #[arg(conflicts_with = "file")]
    pub moves: Vec<String>,
    /// Review every game of a file instead: GGF records (as `othel match --out` writes them) or
    /// transcripts, one a line.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Midgame search depth (default: Othello 16 up to 10x10, 14 on 12x12, 10 beyond; Lehto 6
    /// up to 7x7, 4 on 9x9, 3 beyond).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Solve exactly from this many empty squares (default: 20 in Othello up to 10x10, 18 beyond; 12 in Lehto).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub exact_from: Option<u32>,
    /// Mark a move that loses at least this many discs as a mistake.
    #[arg(long, default_value_t = 2.0, value_parser = discs_arg)]
    pub mistake: f64,
    /// The search's resources.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// A number of discs from 0 to 128.
fn discs_arg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(d) if (0.0..=128.0).contains(&d) => Ok(d),
        _ => Err("a number of discs from 0 to 128".to_string()),
    }
}

/// A game to review, read but not yet replayed on a board of its kind.
enum GameSource {
    /// Moves from the start (or --board's position).
    Moves(Vec<Move>),
    /// A GGF record: its own board, and its players and result.
    Record(GgfRecord),
}

/// One game read, with the board it is played on and the header line its review starts with.
struct ToReview {
    kind: BoardKind,
    setup: Option<Setup>,
    source: GameSource,
    header: String,
}

/// `othel review`: reads every game first (a bad one fails before any search), then reviews each
/// in turn, a line a move and a line a side.
pub fn review(request: &ReviewArgs) -> Result<(), CliError> {
    let games = read_games(request)?;
    let searcher = Searcher::new(request.engine.threads_or_cores(), request.engine.hash)
        .map_err(CliError::Searcher)?;
    searcher.prepare_if_quick();
    for (i, game) in games.iter().enumerate() {
        println!("game {}{}", i + 1, game.header);
        let default = ReviewDepth::default_for(game.kind);
        let depth = ReviewDepth {
            depth: request.depth.unwrap_or(default.depth),
            exact_from: request.exact_from.unwrap_or(default.exact_from),
        };
        with_position_type!(game.kind, P => {
            let played = replay::<P>(game)?;
            review_one(&searcher, &played, depth, request.mistake);
        });
    }
    Ok(())
}

/// Reviews one game, printing as it goes.
fn review_one<P: Evaluate>(searcher: &Searcher, game: &Game<P>, depth: ReviewDepth, mistake: f64) {
    // Readied before the first search, so that its time is the search's (the weights decoded).
    let _ = game.start().evaluate();
    let threshold = (mistake * DISC as f64).round() as i32;
    let mut totals = [SideTotals::default(); 2];
    let stop = AtomicBool::new(false);
    review_game(searcher, game, depth, &stop, &mut |review| {
        let loss = review.loss();
        let is_mistake = loss > 0 && loss >= threshold;
        totals[side(review.color)].add(loss, is_mistake);
        println!("{}", move_line(review, is_mistake));
    });
    for color in [Color::Black, Color::White] {
        let t = totals[side(color)];
        println!(
            "{} moves {} loss {:.2} mistakes {}",
            color.name(),
            t.moves,
            t.loss as f64 / DISC as f64,
            t.mistakes
        );
    }
}

fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// `ply N COLOR MOVE score S best M S loss L depth D [mistake]`, the scores from the mover's
/// view; `… exact` instead of the depth once solved; `ply N COLOR MOVE forced` for the only move.
fn move_line(review: &MoveReview, is_mistake: bool) -> String {
    let head = format!(
        "ply {} {} {}",
        review.ply,
        review.color.name(),
        review.played
    );
    match review.verdict {
        Verdict::Forced => format!("{head} forced"),
        Verdict::Scored {
            played,
            best,
            best_score,
            depth,
            precision,
        } => {
            let how = match precision {
                Precision::Exact => "exact".to_string(),
                _ => format!("depth {depth}"),
            };
            let loss = match precision {
                Precision::Exact => format!("{}", review.loss() / DISC),
                _ => format!("{:.2}", review.loss() as f64 / DISC as f64),
            };
            format!(
                "{head} score {} best {best} {} loss {loss} {how}{}",
                format_score_of(played, precision),
                format_score_of(best_score, precision),
                if is_mistake { " mistake" } else { "" }
            )
        }
    }
}

/// The game of `source` replayed on `P`.
fn replay<P: Position>(game: &ToReview) -> Result<Game<P>, CliError> {
    match &game.source {
        GameSource::Moves(moves) => {
            let mut played = Game::new(start_position::<P>(&game.setup)?);
            played.play_all(moves).map_err(CliError::Moves)?;
            Ok(played)
        }
        GameSource::Record(record) => record
            .to_game::<P>()
            .map_err(|e| CliError::Conflict(format!("review: {e}"))),
    }
}

/// The games asked for: the moves given, or every line of the file (GGF records and transcripts),
/// each replayed once to check it.
fn read_games(request: &ReviewArgs) -> Result<Vec<ToReview>, CliError> {
    let (kind, setup) = request.position.resolve()?;
    let Some(path) = &request.file else {
        let moves = with_position_type!(kind, P => {
            play_moves(Game::new(start_position::<P>(&setup)?), &request.moves)?
                .moves()
                .to_vec()
        });
        return Ok(vec![ToReview {
            kind,
            setup,
            source: GameSource::Moves(moves),
            header: String::new(),
        }]);
    };
    let text = std::fs::read_to_string(path).map_err(|e| CliError::File(path.clone(), e))?;
    let mut games = Vec::new();
    for (n, line) in content_lines(&text) {
        let at = |what: String| CliError::Conflict(format!("{}: line {n}: {what}", shown(path)));
        let game = if line.starts_with("(;") {
            let record: GgfRecord = line.parse().map_err(|e| at(format!("{e}")))?;
            ToReview {
                kind: record.kind(),
                setup: None,
                header: record_header(&record),
                source: GameSource::Record(record),
            }
        } else {
            let moves = notation::parse_transcript(line).map_err(|e| CliError::Line(n, e))?;
            ToReview {
                kind,
                setup: setup.clone(),
                source: GameSource::Moves(moves),
                header: String::new(),
            }
        };
        with_position_type!(game.kind, P => {
            replay::<P>(&game).map_err(|e| at(e.to_string()))?;
        });
        games.push(game);
    }
    if games.is_empty() {
        return Err(CliError::Conflict(format!("{}: no games", shown(path))));
    }
    Ok(games)
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// ` black NAME white NAME result R` from a record's players and result, those it has.
fn record_header(record: &GgfRecord) -> String {
    let mut header = String::new();
    for (key, word) in [("PB", "black"), ("PW", "white"), ("RE", "result")] {
        if let Some((_, value)) = record.properties.iter().find(|(k, _)| k == key) {
            let value = value.split_whitespace().collect::<Vec<_>>().join("_");
            if !value.is_empty() {
                header.push_str(&format!(" {word} {value}"));
            }
        }
    }
    header
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forced_move_and_an_exact_loss_read_as_documented() {
        let forced = MoveReview {
            ply: 3,
            color: Color::White,
            played: "c4".parse().unwrap(),
            verdict: Verdict::Forced,
        };
        assert_eq!(move_line(&forced, false), "ply 3 white c4 forced");
        let exact = MoveReview {
            ply: 50,
            color: Color::Black,
            played: "a1".parse().unwrap(),
            verdict: Verdict::Scored {
                played: -2 * DISC,
                best: "h8".parse().unwrap(),
                best_score: 4 * DISC,
                depth: 11,
                precision: Precision::Exact,
            },
        };
        assert_eq!(
            move_line(&exact, true),
            "ply 50 black a1 score -2 best h8 +4 loss 6 exact mistake"
        );
        let midgame = MoveReview {
            ply: 20,
            color: Color::White,
            played: "d3".parse().unwrap(),
            verdict: Verdict::Scored {
                played: 125,
                best: "d3".parse().unwrap(),
                best_score: 125,
                depth: 16,
                precision: Precision::Depth,
            },
        };
        assert_eq!(
            move_line(&midgame, false),
            "ply 20 white d3 score +1.25 best d3 +1.25 loss 0.00 depth 16"
        );
    }
}
