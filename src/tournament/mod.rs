//! The match runner (`othel match`): engines as child processes playing each other over
//! openings, every game appended to a GGF file as it ends, Elo and SPRT statistics, faults
//! recorded as forfeits, an interrupted run resumed where it stopped.
//!
//! Games are numbered in a fixed schedule: game `g` belongs to encounter `g / 2` (a pair of
//! engines and an opening, played twice with the colours reversed); encounters cycle through the
//! pairs (round robin), then move to the next opening. Each of `concurrency` workers owns its own
//! engine processes, so a process serves one game at a time; an engine that faults is restarted
//! for its next game.

pub mod game;
pub mod player;
pub mod spec;
pub mod stats;

use crate::rules::ggf::{GgfMove, GgfRecord};
use crate::rules::notation::{Setup, parse_transcript};
use crate::rules::{BoardKind, Color};
use game::{Finished, GameSetup, Opening, forfeit_before_start, opening_moves, play_game};
use indicatif::{ProgressBar, ProgressStyle};
use player::{FaultKind, Player};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use spec::EngineSpec;
use stats::{Sprt, SprtDecision, Tally};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Duration;

/// Everything a match is run with.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines.
    pub engines: Vec<EngineSpec>,
    /// Variant and size.
    pub kind: BoardKind,
    /// The openings (at least one: the start position when no file is given).
    pub openings: Vec<Opening>,
    /// Shuffle the openings with this seed.
    pub seed: Option<u64>,
    /// Games in all (default: `rounds` encounters per pair, two games each).
    pub games: Option<usize>,
    /// Encounters per pair.
    pub rounds: usize,
    /// Games at once.
    pub concurrency: usize,
    /// The GGF file the games are appended to.
    pub out: Option<PathBuf>,
    /// Continue the games already in `out`.
    pub resume: bool,
    /// The folder of the engines' traffic logs.
    pub log_dir: Option<PathBuf>,
    /// Stop when this test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Write the summary as JSON here.
    pub json: Option<PathBuf>,
    /// Time past a clock or move time before an engine counts as hung.
    pub margin: Duration,
    /// How long an engine without a clock or move time may take for a move.
    pub timeout: Duration,
    /// Draw a progress bar on stderr (when it is a terminal).
    pub progress: bool,
    /// Play only this shard's game numbers.
    pub shard: crate::shard::Shard,
}

/// `count` different openings of a few random plies from the start of `kind` (4 on 4×4 and 6×6
/// Othello, 6 on larger boards, 2 in Lehto), drawn with `seed`: what a match plays without an
/// openings file, so that its games differ (the same start every time would make the two games
/// of every encounter the same two games). Fewer when the board has fewer such positions.
pub fn random_openings(kind: BoardKind, count: usize, seed: u64) -> Vec<Opening> {
    use crate::rules::Position;
    use rand::RngExt;
    let plies = match (kind.variant(), kind.size()) {
        (crate::rules::Variant::Lehto, _) => 2,
        (_, 0..=6) => 4,
        _ => 6,
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    // Small boards have few distinct openings: give up after enough repeats.
    let mut tries = 0usize;
    while openings.len() < count && tries < count * 20 + 100 {
        tries += 1;
        let (moves, position) = crate::with_position_type!(kind, P => {
            let mut pos = P::start();
            let mut moves = Vec::new();
            for _ in 0..plies {
                if pos.is_game_over() {
                    break;
                }
                let legal = pos.legal_moves();
                let mv = legal[rng.random_range(0..legal.len())];
                pos = pos.play_unchecked(mv);
                moves.push(mv);
            }
            (moves, crate::rules::notation::board_string(&pos))
        });
        if seen.insert(position) {
            openings.push(Opening { start: None, moves });
        }
    }
    openings
}

/// Reads an openings file: one opening a line, a transcript (`f5d6c3`), a board string, or a GGF
/// record (its start position and moves); `#` lines and blank lines are skipped. Each must be legal
/// on `kind`.
pub fn read_openings(path: &Path, kind: BoardKind) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("{}:{}: {e}", path.display(), number + 1);
        let opening = if line.starts_with("(;") {
            let record: GgfRecord = line
                .parse()
                .map_err(|e: crate::rules::ggf::GgfError| at(e.to_string()))?;
            if record.kind() != kind {
                return Err(at(format!("the game is {}, not {kind}", record.kind())));
            }
            let start = (record.start != game::standard_start(kind)).then_some(record.start);
            Opening {
                start,
                moves: record.moves.iter().map(|m| m.mv).collect(),
            }
        } else if let Ok(setup) = line.parse::<Setup>() {
            if setup.kind() != kind {
                return Err(at(format!("the board is {}, not {kind}", setup.kind())));
            }
            Opening {
                start: Some(setup),
                moves: Vec::new(),
            }
        } else {
            Opening {
                start: None,
                moves: parse_transcript(line).map_err(|e| at(e.to_string()))?,
            }
        };
        opening_moves(kind, &opening).map_err(at)?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("{} holds no openings", path.display()));
    }
    Ok(openings)
}

/// Who plays whom with which opening in game `g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Scheduled {
    black: usize,
    white: usize,
    opening: usize,
}

/// The schedule of a match.
struct Schedule {
    pairs: Vec<(usize, usize)>,
    order: Vec<usize>,
    total: usize,
}

impl Schedule {
    fn new(config: &MatchConfig) -> Schedule {
        let n = config.engines.len();
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        let mut order: Vec<usize> = (0..config.openings.len()).collect();
        if let Some(seed) = config.seed {
            order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
        }
        let total = config
            .games
            .unwrap_or(config.rounds.max(1) * pairs.len() * 2);
        Schedule {
            pairs,
            order,
            total,
        }
    }

    fn game(&self, g: usize) -> Scheduled {
        let encounter = g / 2;
        let (first, second) = self.pairs[encounter % self.pairs.len()];
        let opening = self.order[(encounter / self.pairs.len()) % self.order.len()];
        let (black, white) = if g.is_multiple_of(2) {
            (first, second)
        } else {
            (second, first)
        };
        Scheduled {
            black,
            white,
            opening,
        }
    }
}

/// A match's results.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Engine names, in the order given.
    pub names: Vec<String>,
    /// Results per pair (first, second), from the first's view.
    pub pairs: BTreeMap<(usize, usize), Tally>,
    /// Forfeits per engine and kind.
    pub forfeits: BTreeMap<(usize, FaultKind), u32>,
    /// Games finished.
    pub games: usize,
    /// The test's log-likelihood ratio, bounds and decision, when one runs.
    pub sprt: Option<(f64, (f64, f64), SprtDecision)>,
    /// When the test decided: the games finished then and the ratio it reached (the games still
    /// being played when it stopped the match may pull the final ratio back under the bound).
    pub sprt_decided: Option<(usize, f64)>,
    /// Per engine, the seconds its timed moves took and how many they were (the records' move
    /// times; openings' moves have none).
    pub thinking: BTreeMap<usize, Thinking>,
    /// Per engine that pondered, its predictions and how many came true.
    pub pondering: BTreeMap<usize, PonderTally>,
}

/// An engine's thinking time over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thinking {
    /// Seconds, summed over its timed moves.
    pub seconds: f64,
    /// Its timed moves.
    pub moves: u32,
}

/// How an engine's pondering went: of the replies it predicted and pondered on, how many the
/// opponent then played. A game's record keeps each side's as `BP[hits/predictions]` and
/// `WP[…]` (only for a side that pondered), so that `--summary` and `--resume` count them too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderTally {
    /// Predictions that came true: the opponent played the predicted reply (the engine got a
    /// `ponderhit`; where that reply ended the game or left it to pass, a `stop`, or `quit`
    /// after its last game).
    pub hits: u32,
    /// Predictions answered by the opponent's move (hits and misses).
    pub predictions: u32,
}

/// The GGF property after the colour's letter that holds a side's [`PonderTally`].
const PONDER_PROPERTY: &str = "P";

impl PonderTally {
    /// One more prediction answered.
    pub fn add(&mut self, hit: bool) {
        self.predictions += 1;
        self.hits += u32::from(hit);
    }

    /// Adds another tally's counts to this one's.
    fn absorb(&mut self, other: PonderTally) {
        self.hits += other.hits;
        self.predictions += other.predictions;
    }

    /// Black's and white's tallies in a game's record, those it has (a malformed one is left
    /// out: it only informs).
    fn of_record(record: &GgfRecord) -> [Option<PonderTally>; 2] {
        ["B", "W"].map(|color| {
            let key = format!("{color}{PONDER_PROPERTY}");
            let (_, value) = record.properties.iter().find(|(k, _)| *k == key)?;
            let (hits, predictions) = value.split_once('/')?;
            let tally = PonderTally {
                hits: hits.parse().ok()?,
                predictions: predictions.parse().ok()?,
            };
            (tally.hits <= tally.predictions).then_some(tally)
        })
    }
}

impl fmt::Display for PonderTally {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.hits, self.predictions)
    }
}

impl Summary {
    /// Adds each side's pondering in a game's record to its engine's.
    fn add_pondering(&mut self, black: usize, white: usize, record: &GgfRecord) {
        for (engine, tally) in [black, white]
            .into_iter()
            .zip(PonderTally::of_record(record))
        {
            if let Some(t) = tally {
                self.pondering.entry(engine).or_default().absorb(t);
            }
        }
    }

    /// Adds a finished game between engines `black` and `white`: its result, and what its record
    /// holds of each side's thinking time and pondering (live, and again from the files).
    fn add_game(
        &mut self,
        (black, white): (usize, usize),
        black_margin: i32,
        loser: Option<Color>,
        kind: Option<FaultKind>,
        record: &GgfRecord,
    ) {
        self.add(black, white, black_margin, loser, kind);
        self.add_thinking(black, white, &record.moves);
        self.add_pondering(black, white, record);
    }

    /// Runs the test on the first pair's results so far; true once it has decided. A decision
    /// stands once reached: the games still being played when it stopped the match are counted
    /// (in the ratio too) but cannot take it back (a match stopped at H1 after 977 games had
    /// reported "undecided", its last two games having pulled the ratio back under the bound).
    fn decide_sprt(&mut self, sprt: Option<Sprt>) -> bool {
        let earlier = self.sprt.map(|(_, _, d)| d);
        if let (Some(sprt), Some(tally)) = (sprt, self.pairs.get(&(0, 1))) {
            let llr = sprt.llr(tally);
            let decision = match earlier {
                Some(d) if d != SprtDecision::Continue => d,
                _ => sprt.decide_ratio(llr),
            };
            if decision != SprtDecision::Continue && self.sprt_decided.is_none() {
                self.sprt_decided = Some((self.games, llr));
            }
            self.sprt = Some((llr, sprt.bounds(), decision));
        }
        self.sprt
            .is_some_and(|(_, _, d)| d != SprtDecision::Continue)
    }

    /// Adds the move times of a game's record to each side's engine, to the millisecond as the
    /// game files keep them (a summary made again from the files is the same).
    fn add_thinking(&mut self, black: usize, white: usize, moves: &[GgfMove]) {
        for m in moves {
            if let Some(seconds) = m.seconds {
                let seconds = (seconds * 1000.0).round() / 1000.0;
                let engine = if m.color == Color::Black {
                    black
                } else {
                    white
                };
                let t = self.thinking.entry(engine).or_default();
                t.seconds += seconds;
                t.moves += 1;
            }
        }
    }

    /// The first engine's thinking time over the second's (equal time when near 1).
    pub fn time_ratio(&self, first: usize, second: usize) -> Option<f64> {
        let (a, b) = (self.thinking.get(&first)?, self.thinking.get(&second)?);
        (b.seconds > 0.0).then(|| a.seconds / b.seconds)
    }

    fn add(
        &mut self,
        black: usize,
        white: usize,
        black_margin: i32,
        forfeit: Option<Color>,
        kind: Option<FaultKind>,
    ) {
        let (first, second, margin) = if black < white {
            (black, white, black_margin)
        } else {
            (white, black, -black_margin)
        };
        self.pairs.entry((first, second)).or_default().add(margin);
        if let (Some(loser), Some(kind)) = (forfeit, kind) {
            let engine = if loser == Color::Black { black } else { white };
            *self.forfeits.entry((engine, kind)).or_default() += 1;
        }
        self.games += 1;
    }

    /// The summary as JSON, for scripts.
    pub fn to_json(&self) -> String {
        fn number(x: f64) -> String {
            if x.is_finite() {
                format!("{x:.4}")
            } else {
                "null".into()
            }
        }
        fn string(s: &str) -> String {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
        let pairs: Vec<String> = self
            .pairs
            .iter()
            .map(|(&(a, b), t)| {
                let (low, high) = t.elo_interval();
                format!(
                    "{{\"first\":{},\"second\":{},\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{},\"elo\":{},\"elo_low\":{},\"elo_high\":{},\"los\":{},\"average_discs\":{}}}",
                    string(&self.names[a]),
                    string(&self.names[b]),
                    t.games(),
                    t.wins,
                    t.draws,
                    t.losses,
                    number(t.score()),
                    number(t.elo()),
                    number(low),
                    number(high),
                    number(t.los()),
                    number(t.average_discs())
                )
            })
            .collect();
        let forfeits: Vec<String> = self
            .forfeits
            .iter()
            .map(|(&(e, kind), n)| {
                format!(
                    "{{\"engine\":{},\"kind\":{},\"count\":{n}}}",
                    string(&self.names[e]),
                    string(kind.name())
                )
            })
            .collect();
        let (decided_after, decided_llr) = match self.sprt_decided {
            Some((games, llr)) => (games.to_string(), number(llr)),
            None => ("null".to_string(), "null".to_string()),
        };
        let sprt = match self.sprt {
            None => "null".to_string(),
            Some((llr, (low, high), decision)) => format!(
                "{{\"llr\":{},\"lower\":{},\"upper\":{},\"decision\":{},\"decided_after\":{},\"decided_llr\":{}}}",
                number(llr),
                number(low),
                number(high),
                string(match decision {
                    SprtDecision::H0 => "H0",
                    SprtDecision::H1 => "H1",
                    SprtDecision::Continue => "continue",
                }),
                decided_after,
                decided_llr,
            ),
        };
        let thinking: Vec<String> = self
            .thinking
            .iter()
            .map(|(&e, t)| {
                format!(
                    "{{\"engine\":{},\"seconds\":{},\"moves\":{}}}",
                    string(&self.names[e]),
                    number(t.seconds),
                    t.moves
                )
            })
            .collect();
        let pondering: Vec<String> = self
            .pondering
            .iter()
            .map(|(&e, t)| {
                format!(
                    "{{\"engine\":{},\"hits\":{},\"predictions\":{}}}",
                    string(&self.names[e]),
                    t.hits,
                    t.predictions
                )
            })
            .collect();
        format!(
            "{{\"games\":{},\"pairs\":[{}],\"forfeits\":[{}],\"thinking\":[{}],\"pondering\":[{}],\"sprt\":{sprt}}}\n",
            self.games,
            pairs.join(","),
            forfeits.join(","),
            thinking.join(","),
            pondering.join(",")
        )
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "games {}", self.games)?;
        for (&(a, b), t) in &self.pairs {
            let (low, high) = t.elo_interval();
            writeln!(
                f,
                "{} vs {}: games {} wins {} draws {} losses {} score {:.1}% elo {:+.1} [{:+.1}, {:+.1}] los {:.1}% discs {:+.2}",
                self.names[a],
                self.names[b],
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                t.elo(),
                low,
                high,
                100.0 * t.los(),
                t.average_discs()
            )?;
        }
        for (e, name) in self.names.iter().enumerate() {
            let counts: Vec<String> = FaultKind::ALL
                .iter()
                .map(|&k| {
                    format!(
                        "{} {}",
                        k.name(),
                        self.forfeits.get(&(e, k)).copied().unwrap_or(0)
                    )
                })
                .collect();
            writeln!(f, "forfeits {name}: {}", counts.join(", "))?;
        }
        for (&e, t) in &self.thinking {
            writeln!(
                f,
                "time {}: {:.1} s over {} moves, {:.1} ms a move",
                self.names[e],
                t.seconds,
                t.moves,
                1000.0 * t.seconds / f64::from(t.moves.max(1))
            )?;
        }
        for &(a, b) in self.pairs.keys() {
            if let Some(ratio) = self.time_ratio(a, b) {
                writeln!(
                    f,
                    "time ratio {} / {}: {ratio:.2}",
                    self.names[a], self.names[b]
                )?;
            }
        }
        for (&e, t) in &self.pondering {
            writeln!(
                f,
                "ponder {}: {} of {} predicted replies played ({:.1}%)",
                self.names[e],
                t.hits,
                t.predictions,
                100.0 * f64::from(t.hits) / f64::from(t.predictions.max(1))
            )?;
        }
        if let Some((llr, (low, high), decision)) = self.sprt {
            let verdict = match decision {
                SprtDecision::H1 => "H1 accepted",
                SprtDecision::H0 => "H0 accepted",
                SprtDecision::Continue => "undecided",
            };
            write!(
                f,
                "sprt llr {llr:.3} bounds [{low:.3}, {high:.3}]: {verdict}"
            )?;
            if let Some((games, at)) = self.sprt_decided {
                write!(f, " after {games} games (llr {at:.3} then)")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The games in the GGF files `paths` (a game number counted once however many files hold it):
/// their numbers, and the summary they make. Engines are `names` in that order, or (when empty)
/// as the files first name them; `sprt` is decided on the first pair.
fn read_finished(
    paths: &[PathBuf],
    names: &[String],
    sprt: Option<Sprt>,
) -> Result<(HashSet<usize>, Summary), String> {
    let mut done = HashSet::new();
    let mut summary = Summary {
        names: names.to_vec(),
        ..Summary::default()
    };
    let mut games = Vec::new();
    for path in paths {
        add_finished(
            path,
            &mut done,
            &mut summary.names,
            &mut games,
            names.is_empty(),
        )?;
    }
    replay(&mut summary, games, sprt);
    Ok((done, summary))
}

/// A finished game read back from a match's record.
struct RecordedGame {
    index: usize,
    black: usize,
    white: usize,
    black_margin: i32,
    loser: Option<Color>,
    kind: Option<FaultKind>,
    record: GgfRecord,
}

/// Adds `games` to `summary` in the order of their numbers, the order they were scheduled in,
/// running the test after each as the match did after each game it finished (a decision stands
/// once reached, as there), so that a summary made again from the files, or a resumed match,
/// decides where the match did (to within the games that finished out of order).
fn replay(summary: &mut Summary, mut games: Vec<RecordedGame>, sprt: Option<Sprt>) {
    games.sort_by_key(|g| g.index);
    for g in games {
        summary.add_game(
            (g.black, g.white),
            g.black_margin,
            g.loser,
            g.kind,
            &g.record,
        );
        summary.decide_sprt(sprt);
    }
}

/// The summary of the games in `paths` (the GGF files of a match, or of its shards run
/// apart): a game number counted once however many files hold it. Engines are `names` in that
/// order, or (when empty) as the files first name them; `sprt` is decided on the first pair.
pub fn summarize(
    paths: &[PathBuf],
    names: &[String],
    sprt: Option<Sprt>,
) -> Result<Summary, String> {
    read_finished(paths, names, sprt).map(|(_, summary)| summary)
}

/// Reads the games of `path` not in `done` into `games`, their engines by their indices in
/// `names`; `new_names`: an engine not yet in them is added (else it is an error).
fn add_finished(
    path: &Path,
    done: &mut HashSet<usize>,
    names: &mut Vec<String>,
    games: &mut Vec<RecordedGame>,
    new_names: bool,
) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let at = |e: &str| format!("{}:{}: {e}", path.display(), number + 1);
        let Ok(record) = line.parse::<GgfRecord>() else {
            // A record cut off by the interruption: played again.
            log::warn!(
                "{}",
                at("an unreadable record is ignored (the game is played again)")
            );
            continue;
        };
        let property = |key: &str| {
            record
                .properties
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        let index: usize = property("GN")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| at("a game without its number GN[…]"))?;
        let mut engine = |key: &str| {
            let name = property(key).unwrap_or("");
            match names.iter().position(|n| n == name) {
                Some(i) => Ok(i),
                None if new_names && !name.is_empty() => {
                    names.push(name.to_string());
                    Ok(names.len() - 1)
                }
                None => Err(at(&format!("'{name}' is not an engine of this match"))),
            }
        };
        let (black, white) = (engine("PB")?, engine("PW")?);
        let result = property("RE").ok_or_else(|| at("a game without a result"))?;
        let (margin, suffix) = result.split_once(':').unwrap_or((result, ""));
        let margin: f64 = margin
            .parse()
            .map_err(|_| at(&format!("bad result RE[{result}]")))?;
        let kind = suffix.chars().next().and_then(FaultKind::from_letter);
        let loser = kind.map(|_| {
            if margin < 0.0 {
                Color::Black
            } else {
                Color::White
            }
        });
        if done.insert(index) {
            games.push(RecordedGame {
                index,
                black,
                white,
                black_margin: margin.round() as i32,
                loser,
                kind,
                record,
            });
        }
    }
    Ok(())
}

/// Runs the match; prints nothing but the progress bar (the caller prints the summary).
pub fn run(config: &MatchConfig) -> Result<Summary, String> {
    if config.engines.len() < 2 {
        return Err("a match needs two engines or more".into());
    }
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(format!("two engines are named {name}"));
        }
    }
    let board_openings = config.openings.iter().any(|o| o.start.is_some());
    for engine in &config.engines {
        engine.check(config.kind, board_openings)?;
        player::check_starts(engine)?;
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return Err("--sprt compares two engines".into());
    }
    // A pondering engine thinks while its opponent does: two searches a game at once.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if config.engines.iter().any(|e| e.ponder) && config.concurrency.max(1) * 2 > cores {
        log::warn!(
            "ponder=on with --concurrency {}: up to {} searches at once on {cores} cores, so a \
             pondering engine takes time from its opponent",
            config.concurrency,
            config.concurrency.max(1) * 2
        );
    }
    let schedule = Schedule::new(config);
    let (done, mut summary) = match &config.out {
        Some(path) if config.resume && path.exists() => {
            read_finished(std::slice::from_ref(path), &names, config.sprt)?
        }
        Some(path) if !config.resume && path.metadata().is_ok_and(|m| m.len() > 0) => {
            return Err(format!(
                "{} already holds games: --resume to go on with them, or choose another file",
                path.display()
            ));
        }
        _ => (
            HashSet::new(),
            Summary {
                names: names.clone(),
                ..Summary::default()
            },
        ),
    };
    let mut out = match &config.out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        ),
        None => None,
    };
    if let Some(dir) = &config.log_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the log folder {}: {e}", dir.display()))?;
    }
    let owned = (0..schedule.total)
        .filter(|&g| config.shard.owns(g as u64))
        .count();
    let bar = if config.progress {
        ProgressBar::new(owned as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(summary.games as u64);
    let stop = AtomicBool::new(summary.decide_sprt(config.sprt));
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<Finished>();
    let mut write_error = None;
    std::thread::scope(|scope| {
        for worker in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (schedule, done, stop, next) = (&schedule, &done, &stop, &next);
            scope.spawn(move || {
                let mut players: Vec<Option<Player>> =
                    config.engines.iter().map(|_| None).collect();
                loop {
                    let g = next.fetch_add(1, Relaxed);
                    if g >= schedule.total || stop.load(Relaxed) {
                        return;
                    }
                    if done.contains(&g) || !config.shard.owns(g as u64) {
                        continue;
                    }
                    let finished = play_scheduled(config, schedule, g, worker, &mut players);
                    if sender.send(finished).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for finished in receiver {
            let s = schedule.game(finished.index);
            // The record and its newline in one write: `writeln!` on a file may make two, and a
            // kill between them would leave a line without its end.
            if let Some(file) = &mut out
                && let Err(e) = file
                    .write_all(format!("{}\n", finished.record).as_bytes())
                    .and_then(|_| file.flush())
            {
                write_error = Some(format!("cannot write the games: {e}"));
                stop.store(true, Relaxed);
            }
            let loser = finished.forfeit.as_ref().map(|f| f.loser);
            let kind = finished.forfeit.as_ref().map(|f| f.kind);
            if let Some(f) = &finished.forfeit {
                log::warn!(
                    "game {}: {} forfeits ({}): {}",
                    finished.index,
                    if f.loser == Color::Black {
                        &finished.names[0]
                    } else {
                        &finished.names[1]
                    },
                    f.kind.name(),
                    f.detail
                );
            }
            summary.add_game(
                (s.black, s.white),
                finished.black_margin,
                loser,
                kind,
                &finished.record,
            );
            if summary.decide_sprt(config.sprt) {
                stop.store(true, Relaxed);
            }
            bar.set_position(summary.games as u64);
            if let Some(t) = summary.pairs.values().next() {
                bar.set_message(format!(
                    "score {:.1}% elo {:+.0}",
                    100.0 * t.score(),
                    t.elo()
                ));
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(path) = &config.json {
        std::fs::write(path, summary.to_json())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(summary)
}

/// Plays game `g` with the worker's engine processes, starting those that are not running.
fn play_scheduled(
    config: &MatchConfig,
    schedule: &Schedule,
    g: usize,
    worker: usize,
    players: &mut [Option<Player>],
) -> Finished {
    let s = schedule.game(g);
    let opening = &config.openings[s.opening];
    let setup = GameSetup {
        index: g,
        kind: config.kind,
        opening,
        names: [
            config.engines[s.black].name.as_str(),
            config.engines[s.white].name.as_str(),
        ],
        limits: [config.engines[s.black].limit, config.engines[s.white].limit],
        margin: config.margin,
        timeout: config.timeout,
    };
    for (engine, color) in [(s.black, Color::Black), (s.white, Color::White)] {
        if players[engine].is_none() {
            let spec = &config.engines[engine];
            let log = config
                .log_dir
                .as_ref()
                .map(|dir| dir.join(format!("{}-{worker}.log", spec.name)));
            match Player::start(spec, config.kind, log.as_deref()) {
                Ok(p) => players[engine] = Some(p),
                Err(fault) => return forfeit_before_start(&setup, color, fault),
            }
        }
    }
    let (Some(mut black), Some(mut white)) = (players[s.black].take(), players[s.white].take())
    else {
        unreachable!("both engines were just started");
    };
    let finished = play_game(&setup, [&mut black, &mut white]);
    // An engine that faulted is dropped (stopped) and started afresh for its next game.
    let loser = finished.forfeit.as_ref().map(|f| f.loser);
    if loser != Some(Color::Black) {
        players[s.black] = Some(black);
    }
    if loser != Some(Color::White) {
        players[s.white] = Some(white);
    }
    finished
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sprt_decision_stands_when_games_in_flight_finish_after_it() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut summary = Summary {
            names: vec!["new".into(), "old".into()],
            ..Summary::default()
        };
        // Engine 0 wins two games in three until the test accepts H1.
        let mut played = 0;
        while !summary.decide_sprt(Some(sprt)) {
            let margin = if played % 3 == 2 { -2 } else { 2 };
            summary.add(0, 1, margin, None, None);
            played += 1;
            assert!(played < 1000, "never decided");
        }
        let (llr, _, decision) = summary.sprt.expect("a test");
        assert_eq!(decision, SprtDecision::H1);
        assert_eq!(summary.sprt_decided, Some((played, llr)));
        // Losses that finish after the stop are counted, and the verdict stays.
        for _ in 0..5 {
            summary.add(0, 1, -10, None, None);
        }
        let tally = summary.pairs[&(0, 1)];
        assert!(sprt.llr(&tally) < llr, "the losses pull the ratio down");
        assert_eq!(
            sprt.decide(&tally),
            SprtDecision::Continue,
            "under the bound"
        );
        assert!(summary.decide_sprt(Some(sprt)));
        assert_eq!(
            summary.sprt,
            Some((sprt.llr(&tally), sprt.bounds(), SprtDecision::H1))
        );
        assert_eq!(summary.games, played + 5);
        assert_eq!(summary.sprt_decided, Some((played, llr)), "when it decided");
        assert!(
            summary.to_string().contains(&format!(
                "H1 accepted after {played} games (llr {llr:.3} then)"
            )),
            "{summary}"
        );
        assert!(
            summary
                .to_json()
                .contains(&format!("\"decided_after\":{played},")),
            "{}",
            summary.to_json()
        );
    }
}
