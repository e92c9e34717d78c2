//! An engine process of a match: started from its spec, spoken to over pipes in its protocol,
//! its traffic logged, its faults told apart (crash or hang, garbage).

use super::spec::{EngineSpec, MoveLimit, Proto};
use crate::rules::ggf::{GgfMove, GgfRecord};
use crate::rules::notation::Setup;
use crate::rules::{BoardKind, Color, Move};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How a game is lost by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// Over the clock.
    Time,
    /// The process died, or gave no reply in time.
    Crash,
    /// An illegal move.
    Illegal,
    /// A reply that could not be read.
    Garbage,
}

impl FaultKind {
    /// The suffix of a forfeit's GGF result: `:t`, `:c`, `:i`, `:g`.
    pub fn letter(self) -> char {
        match self {
            FaultKind::Time => 't',
            FaultKind::Crash => 'c',
            FaultKind::Illegal => 'i',
            FaultKind::Garbage => 'g',
        }
    }

    /// From a suffix letter.
    pub fn from_letter(c: char) -> Option<FaultKind> {
        Some(match c {
            't' => FaultKind::Time,
            'c' => FaultKind::Crash,
            'i' => FaultKind::Illegal,
            'g' => FaultKind::Garbage,
            _ => return None,
        })
    }

    /// Its name in summaries.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Time => "time",
            FaultKind::Crash => "crash/hang",
            FaultKind::Illegal => "illegal move",
            FaultKind::Garbage => "garbage",
        }
    }

    /// Every kind, in summary order.
    pub const ALL: [FaultKind; 4] = [
        FaultKind::Time,
        FaultKind::Crash,
        FaultKind::Illegal,
        FaultKind::Garbage,
    ];
}

/// What went wrong, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    /// The kind of forfeit it makes.
    pub kind: FaultKind,
    /// What happened.
    pub detail: String,
}

impl Fault {
    fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

/// The game as an engine is asked to move in it.
pub struct GameView<'a> {
    /// Variant and size.
    pub kind: BoardKind,
    /// The start position.
    pub start: &'a Setup,
    /// Whether the start is the variant's own start position.
    pub standard_start: bool,
    /// The moves so far (passes included), with their times.
    pub moves: &'a [GgfMove],
    /// The colour to move.
    pub to_move: Color,
    /// Time left on each clock (black, white), when the mover plays with a clock.
    pub remaining: [Duration; 2],
}

/// A running engine process.
pub struct Player {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<Option<String>>,
    log: Option<File>,
    /// GTP: how many of the game's moves the engine's board holds.
    gtp_moves: usize,
    ping: u64,
    /// The opponent's reply its last `bestmove` predicted (`ponder M`), with pondering on.
    prediction: Option<Move>,
    /// The moves of the game up to the position it ponders, while it ponders.
    pondering: Option<Vec<Move>>,
}

/// How long an engine may take to start and answer a setup command.
const SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// The engine's command line in its folder, its standard error dropped.
fn engine_command(spec: &EngineSpec) -> Command {
    let mut command = Command::new(&spec.command[0]);
    command.args(&spec.command[1..]).stderr(Stdio::null());
    if let Some(dir) = &spec.dir {
        command.current_dir(dir);
    }
    command
}

/// Whether the engine's command can be started at all (it exists, it is a program): checked
/// before the first game, so that a mistyped `cmd=` is refused instead of forfeiting every game.
/// The process is started and killed at once.
pub fn check_starts(spec: &EngineSpec) -> Result<(), String> {
    let mut command = engine_command(spec);
    command.stdin(Stdio::null()).stdout(Stdio::null());
    let mut child = command.spawn().map_err(|e| {
        format!(
            "engine {}: cannot start '{}': {e}",
            spec.name,
            spec.command.join(" ")
        )
    })?;
    let _ = child.kill();
    let _ = child.wait();
    Ok(())
}

impl Player {
    /// Starts the engine and sets it up for `kind` (its options, its depth).
    pub fn start(spec: &EngineSpec, kind: BoardKind, log: Option<&Path>) -> Result<Player, Fault> {
        let mut command = engine_command(spec);
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
        let mut child = command.spawn().map_err(|e| {
            Fault::new(
                FaultKind::Crash,
                format!("cannot start '{}': {e}", spec.command.join(" ")),
            )
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(Fault::new(FaultKind::Crash, "no pipes to the engine"));
        };
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = sender.send(None);
        });
        let log = log.and_then(|path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .inspect_err(|e| log::warn!("cannot open the log {}: {e}", path.display()))
                .ok()
        });
        let mut player = Player {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            log,
            gtp_moves: 0,
            ping: 0,
            prediction: None,
            pondering: None,
        };
        player.note(&format!("# started: {}", spec.command.join(" ")));
        player.setup(kind)?;
        Ok(player)
    }

    fn note(&mut self, text: &str) {
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "{text}");
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.note(&format!("> {line}"));
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Fault::new(FaultKind::Crash, format!("the engine's input closed: {e}")))
    }

    /// The next line before `deadline`.
    fn receive(&mut self, deadline: Instant) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Some(line)) => {
                self.note(&format!("< {line}"));
                Ok(line)
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                self.note("# the engine's output ended");
                Err(Fault::new(FaultKind::Crash, "the engine died"))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.note("# no reply in time");
                Err(Fault::new(
                    FaultKind::Crash,
                    "the engine hung (no reply in time)",
                ))
            }
        }
    }

    /// Reads lines until one that `accept` takes (it returns what the line gives); an `error` line
    /// from an othel engine is garbage.
    fn wait_for<T>(
        &mut self,
        deadline: Instant,
        mut accept: impl FnMut(&str) -> Option<Result<T, String>>,
    ) -> Result<T, Fault> {
        loop {
            let line = self.receive(deadline)?;
            if self.spec.proto == Proto::Othel && line.starts_with("error") {
                return Err(Fault::new(FaultKind::Garbage, line));
            }
            if let Some(result) = accept(line.trim()) {
                return result.map_err(|e| Fault::new(FaultKind::Garbage, e));
            }
        }
    }

    /// A GTP exchange: the reply's text after `=`, or the error after `?`.
    fn gtp(&mut self, command: &str, deadline: Instant) -> Result<Result<String, String>, Fault> {
        self.send(command)?;
        let reply = self.wait_for(deadline, |line| {
            if let Some(ok) = line.strip_prefix('=') {
                Some(Ok(Ok(ok.trim().to_string())))
            } else {
                line.strip_prefix('?')
                    .map(|err| Ok(Err(err.trim().to_string())))
            }
        })?;
        // The reply ends at an empty line.
        loop {
            if self.receive(deadline)?.trim().is_empty() {
                return Ok(reply);
            }
        }
    }

    fn setup(&mut self, kind: BoardKind) -> Result<(), Fault> {
        let deadline = Instant::now() + SETUP_TIMEOUT;
        match self.spec.proto {
            Proto::Othel => {
                self.send("othel")?;
                self.wait_for(deadline, |l| (l == "othelok").then_some(Ok(())))?;
                let mut settings =
                    format!("setoption variant={} size={}", kind.variant(), kind.size());
                for (name, value) in self.spec.options.clone() {
                    settings.push_str(&format!(" {name}={value}"));
                }
                self.send(&settings)?;
                self.send("isready")?;
                self.wait_for(deadline, |l| (l == "readyok").then_some(Ok(())))
            }
            Proto::Nboard => {
                self.send("nboard 2")?;
                if let MoveLimit::Depth(d) = self.spec.limit {
                    self.send(&format!("set depth {d}"))?;
                }
                self.sync_nboard(deadline)
            }
            Proto::Gtp => {
                self.gtp("protocol_version", deadline)?
                    .map_err(|e| Fault::new(FaultKind::Garbage, e))?;
                self.gtp(&format!("boardsize {}", kind.size()), deadline)?
                    .map_err(|e| Fault::new(FaultKind::Garbage, format!("boardsize: {e}")))?;
                Ok(())
            }
        }
    }

    fn sync_nboard(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.send(&format!("ping {}", self.ping))?;
        self.wait_for(deadline, |l| (l == pong).then_some(Ok(())))
    }

    /// Gets the engine ready for a new game.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        let deadline = Instant::now() + SETUP_TIMEOUT;
        self.prediction = None;
        if self.pondering.take().is_some() {
            // Still pondering when the last game ended.
            self.send("stop")?;
            self.bestmove(deadline)?;
        }
        match self.spec.proto {
            Proto::Othel => {
                self.send("newgame")?;
                self.send("isready")?;
                self.wait_for(deadline, |l| (l == "readyok").then_some(Ok(())))
            }
            Proto::Nboard => self.sync_nboard(deadline),
            Proto::Gtp => {
                self.gtp_moves = 0;
                self.gtp("clear_board", deadline)?
                    .map_err(|e| Fault::new(FaultKind::Garbage, format!("clear_board: {e}")))?;
                Ok(())
            }
        }
    }

    /// Asks for a move; returns the text of the move the engine chose. `timeout` is how long it
    /// may take before it counts as hung.
    pub fn request_move(&mut self, game: &GameView, timeout: Duration) -> Result<String, Fault> {
        let deadline = Instant::now() + timeout;
        match self.spec.proto {
            Proto::Othel => self.othel_move(game, deadline),
            Proto::Nboard => self.nboard_move(game, deadline),
            Proto::Gtp => self.gtp_move(game, deadline),
        }
    }

    fn othel_move(&mut self, game: &GameView, deadline: Instant) -> Result<String, Fault> {
        if let Some(pondered) = self.pondering.take() {
            if game.moves.iter().map(|m| m.mv).eq(pondered) {
                // The predicted move was played: the search goes on, its clock from now.
                self.send("ponderhit")?;
                return self.bestmove(deadline);
            }
            // Another move: the ponder search's move is not wanted (its time is the mover's).
            self.send("stop")?;
            self.bestmove(deadline)?;
        }
        self.send(&Self::othel_position(game))?;
        self.send(&self.othel_go(game))?;
        self.bestmove(deadline)
    }

    /// The move an engine that pondered predicted its opponent would reply to its last move, if
    /// it ponders and said one.
    pub fn take_prediction(&mut self) -> Option<Move> {
        self.prediction.take()
    }

    /// Starts the engine pondering `game`, whose last move is the opponent's predicted reply;
    /// its next [`Player::request_move`] tells it whether that move came.
    pub fn ponder(&mut self, game: &GameView) -> Result<(), Fault> {
        self.send(&Self::othel_position(game))?;
        self.send(&format!("{} ponder", self.othel_go(game)))?;
        self.pondering = Some(game.moves.iter().map(|m| m.mv).collect());
        Ok(())
    }

    /// The engine's `bestmove`: its move, and the reply it predicts kept when it ponders.
    fn bestmove(&mut self, deadline: Instant) -> Result<String, Fault> {
        let (mv, predicted) = self.wait_for(deadline, |line| {
            let mut words = line.strip_prefix("bestmove")?.split_whitespace();
            let Some(mv) = words.next() else {
                return Some(Err(format!("a bestmove without a move: '{line}'")));
            };
            let predicted = match (words.next(), words.next()) {
                (Some("ponder"), Some(reply)) => reply.parse::<Move>().ok(),
                _ => None,
            };
            Some(Ok((mv.to_string(), predicted)))
        })?;
        self.prediction = predicted.filter(|_| self.spec.ponder);
        Ok(mv)
    }

    /// `position …` for the game.
    fn othel_position(game: &GameView) -> String {
        let mut position = if game.standard_start {
            "position startpos".to_string()
        } else {
            format!("position board {}", game.start)
        };
        if !game.moves.is_empty() {
            position.push_str(" moves");
            for m in game.moves {
                position.push_str(&format!(" {}", m.mv));
            }
        }
        position
    }

    /// `go …` for the engine's limit and the game's clocks.
    fn othel_go(&self, game: &GameView) -> String {
        match self.spec.limit {
            MoveLimit::Own => "go".to_string(),
            MoveLimit::Depth(d) => format!("go depth {d}"),
            MoveLimit::Nodes(n) => format!("go nodes {n}"),
            MoveLimit::Movetime(ms) => format!("go movetime {ms}"),
            MoveLimit::Clock { increment, .. } => format!(
                "go btime {} wtime {} binc {inc} winc {inc}",
                game.remaining[0].as_millis(),
                game.remaining[1].as_millis(),
                inc = increment.as_millis()
            ),
        }
    }

    fn nboard_move(&mut self, game: &GameView, deadline: Instant) -> Result<String, Fault> {
        let mut properties = vec![("PC".to_string(), "othel match".to_string())];
        if let MoveLimit::Clock { base, increment } = self.spec.limit {
            properties.push((
                "TI".to_string(),
                format!("{}/{}", base.as_secs_f64(), increment.as_secs_f64()),
            ));
        }
        let record = GgfRecord {
            properties,
            start: game.start.clone(),
            moves: game.moves.to_vec(),
        };
        self.send(&format!("set game {record}"))?;
        self.sync_nboard(deadline)?;
        self.send("go")?;
        self.wait_for(deadline, |line| {
            let rest = line.strip_prefix("===")?;
            Some(
                rest.trim()
                    .split(['/', ' '])
                    .next()
                    .filter(|m| !m.is_empty())
                    .map(str::to_string)
                    .ok_or_else(|| format!("a move line without a move: '{line}'")),
            )
        })
    }

    fn gtp_move(&mut self, game: &GameView, deadline: Instant) -> Result<String, Fault> {
        let color = |c: Color| if c == Color::Black { "b" } else { "w" };
        while self.gtp_moves < game.moves.len() {
            let m = &game.moves[self.gtp_moves];
            let color = color(m.color);
            match m.mv {
                Move::Pass => {
                    // GTP names the colour of every `play` and `genmove`, so a pass need not be
                    // told: engines that pass by themselves (GRhino) or refuse the word stay in
                    // step without it. Those that want it get it; a refusal is no fault.
                    if let Err(e) = self.gtp(&format!("play {color} pass"), deadline)? {
                        self.note(&format!("# the engine refused the pass ({e}): going on"));
                    }
                }
                mv => {
                    self.gtp(&format!("play {color} {mv}"), deadline)?
                        .map_err(|e| {
                            Fault::new(FaultKind::Garbage, format!("play {mv} refused: {e}"))
                        })?;
                }
            }
            self.gtp_moves += 1;
        }
        if let MoveLimit::Clock { .. } = self.spec.limit {
            let left = game.remaining[game.to_move as usize].as_secs_f64();
            self.gtp(
                &format!("time_left {} {} 0", color(game.to_move), left.floor()),
                deadline,
            )?
            .map_err(|e| Fault::new(FaultKind::Garbage, format!("time_left: {e}")))?;
        }
        let reply = self
            .gtp(&format!("genmove {}", color(game.to_move)), deadline)?
            .map_err(|e| Fault::new(FaultKind::Garbage, format!("genmove: {e}")))?;
        // The engine has played its move on its own board.
        self.gtp_moves += 1;
        Ok(reply)
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        // Every protocol ends with `quit`.
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A moment to leave on its own, then it is killed.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
