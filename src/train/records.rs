//! Self-play game records: the compact, append-only text form in which training games are kept
//! (`data/README.md`), and their replay into labelled positions.
//!
//! A games file starts with a header line, `#othel-games 1` and `key=value` words that say how its
//! games were played (board size, depth, solve point, seed, …); further `#` lines are comments.
//! Every other line is one game: `INDEX OPENING SOLVE MARGIN TRANSCRIPT SCORES`, where INDEX is the
//! game's number (which, with the header, determines the game), OPENING the plies of the opening it
//! started from, SOLVE the ply from which both sides played perfectly (every position from there
//! on has the game's result as its exact score), MARGIN black's final disc difference (signed,
//! empties to the winner), TRANSCRIPT the moves from the start position, passes left out, and
//! SCORES (version 2 on) the search's score of every position from the opening's end to the solve
//! point, in discs from the side to move's view, comma-separated (`-` when there is none).
//! Version 1 files (no SCORES) are read as well.
//! A file is only ever appended to; a last line without its newline is a game cut off by a kill
//! and is ignored (and cut away before appending again).

use super::samples::Sample;
use crate::rules::notation::{parse_transcript, write_transcript};
use crate::rules::{Color, Move, Position};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The first word of a games file.
pub const MAGIC: &str = "#othel-games";
/// The format's version written: 2 keeps the search scores.
pub const VERSION: u32 = 2;

/// The versions read.
const VERSIONS: [u32; 2] = [1, 2];

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number in its run.
    pub index: u64,
    /// Plies of the opening it started from.
    pub opening: u32,
    /// The ply from which both sides played perfectly.
    pub solve_ply: u32,
    /// Black's final disc difference.
    pub margin: i32,
    /// The moves from the start position (passes may be left out).
    pub moves: Vec<Move>,
    /// The search's score (discs, side to move's view) of each position from the end of the
    /// opening to the solve ply, passes left out; empty in version 1 records.
    pub scores: Vec<i32>,
}

/// How a games file's games were played: its header's `key=value` words, in order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RecordHeader {
    /// The format's version (1: no search scores).
    pub version: u32,
    /// The words, keys unique.
    pub fields: BTreeMap<String, String>,
}

/// What is wrong with a games file or one of its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordsError {
    /// The file does not start with the header line.
    NotGames,
    /// The header's version is not one this build reads.
    Version(String),
    /// A header word is not `key=value`.
    BadField(String),
    /// The header has no board size, or one this caller cannot use.
    Size(String),
    /// Line `line` (from 1) is not a game.
    BadLine {
        /// The line's number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A game does not replay: an illegal move, an unfinished game or a wrong margin.
    Replay {
        /// The game's number.
        index: u64,
        /// What went wrong.
        reason: String,
    },
}

impl fmt::Display for RecordsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RecordsError::NotGames => write!(f, "not an othel games file (no '{MAGIC}' header)"),
            RecordsError::Version(v) => {
                write!(f, "games file version {v} is not one of {VERSIONS:?}")
            }
            RecordsError::BadField(w) => write!(f, "header word '{w}' is not key=value"),
            RecordsError::Size(s) => write!(f, "{s}"),
            RecordsError::BadLine { line, reason } => write!(f, "line {line}: {reason}"),
            RecordsError::Replay { index, reason } => write!(f, "game {index}: {reason}"),
        }
    }
}

impl std::error::Error for RecordsError {}

impl RecordHeader {
    /// A header from `key=value` pairs.
    pub fn new<'a>(pairs: impl IntoIterator<Item = (&'a str, String)>) -> RecordHeader {
        RecordHeader {
            version: VERSION,
            fields: pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(String::as_str)
    }

    /// The board side the games are on.
    pub fn size(&self) -> Result<usize, RecordsError> {
        self.get("size")
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| RecordsError::Size("the header gives no board size".into()))
    }

    /// The header line, newline included.
    pub fn to_line(&self) -> String {
        let mut line = format!("{MAGIC} {}", self.version);
        for (k, v) in &self.fields {
            line.push(' ');
            line.push_str(k);
            line.push('=');
            line.push_str(v);
        }
        line.push('\n');
        line
    }

    fn parse(line: &str) -> Result<RecordHeader, RecordsError> {
        let mut words = line.split_whitespace();
        if words.next() != Some(MAGIC) {
            return Err(RecordsError::NotGames);
        }
        let version = match words.next() {
            Some(v) => match v.parse::<u32>() {
                Ok(n) if VERSIONS.contains(&n) => n,
                _ => return Err(RecordsError::Version(v.to_string())),
            },
            None => return Err(RecordsError::Version("(none)".into())),
        };
        let mut fields = BTreeMap::new();
        for word in words {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| RecordsError::BadField(word.to_string()))?;
            fields.insert(k.to_string(), v.to_string());
        }
        Ok(RecordHeader { version, fields })
    }
}

impl GameRecord {
    /// The game's line in the form of `version`, newline included (version 1 drops the scores).
    pub fn to_line(&self, version: u32) -> String {
        let mut line = format!(
            "{} {} {} {:+} {}",
            self.index,
            self.opening,
            self.solve_ply,
            self.margin,
            write_transcript(&self.moves)
        );
        if version >= 2 {
            line.push(' ');
            if self.scores.is_empty() {
                line.push('-');
            }
            for (i, score) in self.scores.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                line.push_str(&score.to_string());
            }
        }
        line.push('\n');
        line
    }

    fn parse(text: &str, version: u32) -> Result<GameRecord, String> {
        let mut words = text.split_whitespace();
        let mut number = |what: &str| -> Result<i64, String> {
            let word = words.next().ok_or_else(|| format!("no {what}"))?;
            word.parse::<i64>()
                .map_err(|_| format!("{what} '{word}' is not a number"))
        };
        let index = number("game number")?;
        let opening = number("opening length")?;
        let solve_ply = number("solve ply")?;
        let margin = number("margin")?;
        let (Ok(index), Ok(opening), Ok(solve_ply), Ok(margin)) = (
            u64::try_from(index),
            u32::try_from(opening),
            u32::try_from(solve_ply),
            i32::try_from(margin),
        ) else {
            return Err("a number out of range".into());
        };
        let transcript = words.next().unwrap_or("");
        let scores = match (version, words.next()) {
            (1, None) | (_, Some("-")) => Vec::new(),
            (1, Some(extra)) => return Err(format!("unexpected '{extra}' after the moves")),
            (_, None) => return Err("no scores".into()),
            (_, Some(list)) => list
                .split(',')
                .map(|w| {
                    w.parse::<i32>()
                        .ok()
                        .filter(|s| s.abs() <= 64 * 64)
                        .ok_or_else(|| format!("score '{w}' is not a number of discs"))
                })
                .collect::<Result<_, _>>()?,
        };
        if let Some(extra) = words.next() {
            return Err(format!("unexpected '{extra}' after the scores"));
        }
        let moves = parse_transcript(transcript).map_err(|e| e.to_string())?;
        Ok(GameRecord {
            index,
            opening,
            solve_ply,
            margin,
            moves,
            scores,
        })
    }

    /// Replays the game and labels its positions: every position from the end of the opening on
    /// where the side to move has a placement, with the game's final margin from that side's view.
    /// From the solve ply on that is the position's exact score; before it, the result the game
    /// reached (Logistello's labels), adjusted and mixed as `labels` asks when the record has
    /// scores. Errors when a move is illegal, the game does not end, its end is not the recorded
    /// margin, or it has scores but not one for each position before the solve ply.
    pub fn samples<P: Position>(
        &self,
        labels: &Labels,
    ) -> Result<Vec<Sample<P::Bits>>, RecordsError> {
        let fail = |reason: String| RecordsError::Replay {
            index: self.index,
            reason,
        };
        let mut positions: Vec<P> = Vec::with_capacity(self.moves.len());
        let mut pos = P::start();
        for (ply, &mv) in self.moves.iter().enumerate() {
            if mv != Move::Pass && pos.must_pass() {
                pos = pos.play_pass_unchecked();
            }
            if ply >= self.opening as usize && mv != Move::Pass {
                positions.push(pos);
            }
            pos = pos
                .try_play(mv)
                .map_err(|e| fail(format!("move {}: {e}", ply + 1)))?;
        }
        if pos.must_pass() && !pos.is_game_over() {
            pos = pos.play_pass_unchecked();
        }
        if !pos.is_game_over() {
            return Err(fail("the moves do not finish the game".into()));
        }
        let black_margin = pos.black_final_score();
        if black_margin != self.margin {
            return Err(fail(format!(
                "the game ends {black_margin:+}, not {:+} as recorded",
                self.margin
            )));
        }
        let before_solve = (self.solve_ply as usize).saturating_sub(self.opening as usize);
        if !self.scores.is_empty() && self.scores.len() != before_solve.min(positions.len()) {
            return Err(fail(format!(
                "{} scores for {} positions before the solve point",
                self.scores.len(),
                before_solve.min(positions.len())
            )));
        }
        let lost = self.lost_to_random_moves(&positions, labels.random_moves);
        Ok(positions
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let black_result = self
                    .margin
                    .saturating_add(lost.get(k).copied().unwrap_or(0));
                let result = match p.side_to_move() {
                    Color::Black => black_result,
                    Color::White => black_result.saturating_neg(),
                };
                let label = match self.scores.get(k) {
                    Some(&searched) if labels.search_weight > 0.0 => {
                        (labels.search_weight * searched as f64
                            + (1.0 - labels.search_weight) * result as f64)
                            .round() as i32
                    }
                    _ => result,
                };
                Sample {
                    player: p.player(),
                    opponent: p.opponent(),
                    score: label.clamp(-127, 127) as i8,
                }
            })
            .collect())
    }

    /// For each of `positions` (those [`GameRecord::samples`] labels, the `k`th before move
    /// `opening + k`), what the random moves from it on cost black, in discs by the search's
    /// scores: the best move's score less the score of the move played, added for black's
    /// random moves and taken away for white's. Empty when the record has no scores or
    /// `random_moves` (flags by move index) is empty.
    fn lost_to_random_moves<P: Position>(
        &self,
        positions: &[P],
        random_moves: &[bool],
    ) -> Vec<i32> {
        if self.scores.is_empty() || random_moves.is_empty() {
            return Vec::new();
        }
        let mut lost = vec![0; positions.len()];
        let mut black: i32 = 0;
        for k in (0..self.scores.len()).rev() {
            let random = random_moves.get(self.opening as usize + k) == Some(&true);
            if let (true, Some(&next)) = (random, self.scores.get(k + 1)) {
                let mover = positions[k].side_to_move();
                // The move's score from its mover's view: the next position's, turned round
                // unless the other side had to pass.
                let played = if positions[k + 1].side_to_move() == mover {
                    next
                } else {
                    next.saturating_neg()
                };
                // Saturating: the scores come from a file.
                let cost = self.scores[k].saturating_sub(played).max(0);
                black = if mover == Color::Black {
                    black.saturating_add(cost)
                } else {
                    black.saturating_sub(cost)
                };
            }
            lost[k] = black;
        }
        lost
    }
}

/// How [`GameRecord::samples`] labels the positions before the solve point of a game with scores.
#[derive(Clone, Copy, Debug, Default)]
pub struct Labels<'a> {
    /// The share of the search's score in the label, the rest the game's result (0: the result).
    pub search_weight: f64,
    /// Which moves, by index, were random (see [`crate::train::selfplay::random_moves`]); empty
    /// when not known. A random move's cost, by the search's scores, is given back to the
    /// results that label the positions before it: the result the game would have reached had
    /// the searcher played there.
    pub random_moves: &'a [bool],
}

/// A games file read: its header, its games, and whether its last line was cut off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesFile {
    /// How the games were played.
    pub header: RecordHeader,
    /// The games, in file order.
    pub games: Vec<GameRecord>,
    /// Bytes of whole lines: what is left after cutting away a last line without its newline.
    pub whole_len: usize,
}

/// Reads a games file's text.
pub fn read(text: &str) -> Result<GamesFile, RecordsError> {
    let whole_len = text.rfind('\n').map_or(0, |i| i + 1);
    let whole = &text[..whole_len];
    let mut lines = whole.lines().enumerate();
    let header = match lines.next() {
        Some((_, line)) => RecordHeader::parse(line)?,
        None => return Err(RecordsError::NotGames),
    };
    let mut games = Vec::new();
    for (n, line) in lines {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        games.push(GameRecord::parse(line, header.version).map_err(|reason| {
            RecordsError::BadLine {
                line: n + 1,
                reason,
            }
        })?);
    }
    Ok(GamesFile {
        header,
        games,
        whole_len,
    })
}

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The first bytes of a bzip2 stream (then the block size, `1`–`9`).
const BZIP2_MAGIC: [u8; 3] = *b"BZh";

/// The extension of a finished games file kept compressed: bzip2, which keeps the text records in
/// 27% fewer bytes than gzip (a chunk of 5,000 8x8 games: 297 KB against 409 KB at `-9`).
pub const COMPRESSED_EXTENSION: &str = "bz2";

/// The extensions of finished games files: bzip2's, and gzip's (data/ kept its chunks so until the
/// sixty-seventh session; such files are read as well).
pub const FINISHED_EXTENSIONS: [&str; 2] = [COMPRESSED_EXTENSION, "gz"];

/// The names the games file `path` may be kept under once complete and compressed: its name with
/// each of [`FINISHED_EXTENSIONS`] added.
pub fn compressed_paths(path: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    FINISHED_EXTENSIONS.into_iter().map(move |extension| {
        let mut name = path.as_os_str().to_owned();
        name.push(".");
        name.push(extension);
        PathBuf::from(name)
    })
}

/// A data file's bytes as written: bzip2 or gzip streams (a chunk's games file compressed once it
/// is complete, `bzip2 -9`, formerly `gzip -9n`, to keep `data/` within its budget: text game
/// records shrink about 3.8 times, 2.7 with gzip) decompressed, every concatenated stream in
/// turn; anything else as it is.
pub fn decompressed(bytes: Vec<u8>) -> std::io::Result<Vec<u8>> {
    let mut decoder: Box<dyn std::io::Read + '_> = if bytes.starts_with(&GZIP_MAGIC) {
        Box::new(flate2::read::MultiGzDecoder::new(bytes.as_slice()))
    } else if bytes.starts_with(&BZIP2_MAGIC) && bytes.get(3).is_some_and(u8::is_ascii_digit) {
        Box::new(bzip2::read::MultiBzDecoder::new(bytes.as_slice()))
    } else {
        return Ok(bytes);
    };
    let mut out = Vec::with_capacity(bytes.len() * 4);
    decoder.read_to_end(&mut out)?;
    Ok(out)
}

/// Tells a games file from a samples file by its first bytes.
pub fn is_games(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Othello;
    use crate::rules::geometry::Size8;

    fn weighted(search_weight: f64) -> Labels<'static> {
        Labels {
            search_weight,
            ..Labels::default()
        }
    }

    fn header() -> RecordHeader {
        RecordHeader::new([("size", "8".to_string()), ("depth", "10".to_string())])
    }

    // A whole game: f5d6c3d3c4f4f6f3e6e7 … found by playing the first legal move until the end.
    fn first_move_game() -> GameRecord {
        let mut pos = Othello::<Size8>::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            let mv = if pos.must_pass() {
                Move::Pass
            } else {
                pos.legal_moves()[0]
            };
            moves.push(mv);
            pos = pos.try_play(mv).unwrap();
        }
        let margin = pos.black_final_score();
        GameRecord {
            index: 7,
            opening: 2,
            solve_ply: 40,
            margin,
            moves: moves.into_iter().filter(|m| *m != Move::Pass).collect(),
            // One score for each of the 38 positions from ply 2 to the solve ply.
            scores: (0..38).map(|k| k - 19).collect(),
        }
    }

    #[test]
    fn games_survive_the_file_form() {
        let game = first_move_game();
        let text = header().to_line() + "# a comment\n" + &game.to_line(VERSION);
        let file = read(&text).unwrap();
        assert_eq!(file.header, header());
        assert_eq!(file.games, vec![game.clone()]);
        assert_eq!(file.whole_len, text.len());
        // Version 1 has no scores, and reads back without them.
        let old = RecordHeader {
            version: 1,
            ..header()
        };
        let text1 = old.to_line() + &game.to_line(1);
        assert!(text1.starts_with("#othel-games 1 "));
        let file1 = read(&text1).unwrap();
        assert_eq!(file1.header, old);
        let unscored = GameRecord {
            scores: Vec::new(),
            ..game.clone()
        };
        assert_eq!(file1.games, vec![unscored.clone()]);
        // A record without scores writes `-` in version 2.
        assert!(unscored.to_line(2).ends_with(" -\n"));
        assert_eq!(
            read(&(header().to_line() + &unscored.to_line(2)))
                .unwrap()
                .games,
            vec![unscored]
        );
        // A line cut off by a kill is left out, and whole_len says where to cut.
        let cut = text.clone() + "8 2 40 +4 f5d6c3";
        let file = read(&cut).unwrap();
        assert_eq!(file.games, vec![game]);
        assert_eq!(file.whole_len, text.len());
    }

    #[test]
    fn replay_labels_every_position_after_the_opening_with_the_result() {
        let game = first_move_game();
        let samples = game.samples::<Othello<Size8>>(&Labels::default()).unwrap();
        let placements_after_opening = game.moves.len() - 2;
        assert_eq!(samples.len(), placements_after_opening);
        // The first labelled position is the one after f5 d6 (or whatever the first two were),
        // black to move: its label is black's margin.
        assert_eq!(samples[0].score as i32, game.margin);
        assert_eq!((samples[0].player | samples[0].opponent).count_ones(), 6);
        // The last is one move from the end; its side's view of the same result.
        let last = samples.last().unwrap();
        assert_eq!((last.player | last.opponent).count_ones(), 63);
    }

    #[test]
    fn labels_mix_the_search_score_before_the_solve_point_only() {
        let game = first_move_game();
        let result = game.samples::<Othello<Size8>>(&Labels::default()).unwrap();
        let searched = game.samples::<Othello<Size8>>(&weighted(1.0)).unwrap();
        let half = game.samples::<Othello<Size8>>(&weighted(0.5)).unwrap();
        assert_eq!(result.len(), searched.len());
        for k in 0..result.len() {
            let r = result[k].score as i32;
            if k < 38 {
                let s = game.scores[k];
                assert_eq!(searched[k].score as i32, s, "position {k}");
                assert_eq!(half[k].score as i32, ((r + s) as f64 / 2.0).round() as i32);
            } else {
                // From the solve ply on: the exact result whatever the weight.
                assert_eq!(searched[k].score as i32, r, "position {k}");
                assert_eq!(half[k].score as i32, r);
            }
        }
        // A record whose scores do not match its positions is refused.
        let mut short = game;
        short.scores.pop();
        assert!(matches!(
            short.samples::<Othello<Size8>>(&weighted(0.5)),
            Err(RecordsError::Replay { .. })
        ));
    }

    #[test]
    fn a_random_moves_cost_is_given_back_to_the_labels_before_it() {
        let game = first_move_game();
        let plain = game.samples::<Othello<Size8>>(&Labels::default()).unwrap();
        // Moves 5 and 9 (positions 3 and 7 after the two-move opening) were random. Their
        // positions' scores are 6 and 1; the next positions' -4 and 7 (the other side to move
        // in each: the first-move game has no pass there).
        let mut scored = game.clone();
        scored.scores = vec![0; 38];
        scored.scores[3] = 6;
        scored.scores[4] = -4;
        scored.scores[7] = 1;
        scored.scores[8] = 7;
        let mut random = vec![false; game.moves.len()];
        random[5] = true;
        random[9] = true;
        let labels = Labels {
            search_weight: 0.0,
            random_moves: &random,
        };
        let undone = scored.samples::<Othello<Size8>>(&labels).unwrap();
        // Costs: 6 - 4 = 2 for the mover of move 5, 1 + 7 = 8 for the mover of move 9; the
        // opening's two moves make position 3 black's (f5 d6 … alternate: 0 black, 1 white).
        let mut pos = Othello::<Size8>::start();
        let mut movers = Vec::new();
        for &mv in &game.moves {
            if pos.must_pass() {
                pos = pos.play_pass_unchecked();
            }
            movers.push(pos.side_to_move());
            pos = pos.try_play(mv).unwrap();
        }
        assert!(movers[6] != movers[5] && movers[10] != movers[9]);
        for k in 0..plain.len() {
            let mover = movers[k + 2];
            let mut gain = 0;
            for (j, cost) in [(3, 2), (7, 8)] {
                if k <= j {
                    gain += if movers[j + 2] == mover { cost } else { -cost };
                }
            }
            assert_eq!(
                undone[k].score as i32,
                plain[k].score as i32 + gain,
                "position {k}"
            );
        }
        // A cost never counts below 0 (a random move the search scored better than its best).
        scored.scores[4] = -9;
        let undone = scored.samples::<Othello<Size8>>(&labels).unwrap();
        let later = if movers[9] == movers[5] { 8 } else { -8 };
        assert_eq!(undone[3].score as i32 - plain[3].score as i32, later);
        // Scores from a corrupt file at the ends of the range: labels, no overflow.
        scored.scores[3] = i32::MAX;
        scored.scores[4] = i32::MAX;
        scored.scores[7] = i32::MAX;
        scored.scores[8] = i32::MAX;
        let extreme = scored.samples::<Othello<Size8>>(&labels).unwrap();
        // Position 7's mover lost "everything" by its random move: the label saturates.
        assert_eq!(extreme[7].score, 127);
        assert_eq!(extreme[8].score, plain[8].score);
        // Without scores or without the flags nothing changes.
        let unscored = scored
            .samples::<Othello<Size8>>(&Labels::default())
            .unwrap();
        assert_eq!(unscored, plain);
        assert_eq!(game.samples::<Othello<Size8>>(&labels).unwrap(), plain);
    }

    #[test]
    fn bad_games_are_errors() {
        let game = first_move_game();
        let mut wrong = game.clone();
        wrong.margin += 2;
        assert!(matches!(
            wrong.samples::<Othello<Size8>>(&Labels::default()),
            Err(RecordsError::Replay { .. })
        ));
        let mut short = game.clone();
        short.moves.truncate(30);
        assert!(short.samples::<Othello<Size8>>(&Labels::default()).is_err());
        let mut illegal = game;
        illegal.moves[0] = "a1".parse().unwrap();
        assert!(
            illegal
                .samples::<Othello<Size8>>(&Labels::default())
                .is_err()
        );
        let head = header().to_line();
        for bad in [
            "x 2 40 +4 f5 -",
            "1 2 40",
            "1 2 40 +4 f5",
            "1 2 40 +4 f5 1,x",
            "1 2 40 +4 f5 1,2 d6",
            "1 -2 40 +4 f5 -",
            "1 2 40 +4 z9 -",
        ] {
            let text = format!("{head}{bad}\n");
            assert!(
                matches!(read(&text), Err(RecordsError::BadLine { line: 2, .. })),
                "{bad}"
            );
        }
        assert_eq!(read("1 2 3 +4 f5\n"), Err(RecordsError::NotGames));
        assert!(matches!(
            read("#othel-games 9 size=8\n"),
            Err(RecordsError::Version(_))
        ));
        // Version 1 lines end with the moves.
        assert!(matches!(
            read("#othel-games 1 size=8\n1 2 40 +4 f5 1,2\n"),
            Err(RecordsError::BadLine { line: 2, .. })
        ));
        assert!(matches!(
            read("#othel-games 1 size\n"),
            Err(RecordsError::BadField(_))
        ));
    }
}
