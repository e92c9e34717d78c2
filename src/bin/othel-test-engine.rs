//! A deliberately misbehaving engine for testing the match runner: it speaks othel's protocol and
//! plays the first legal move, until the fault it is told to commit:
//! `othel-test-engine [--crash-after N] [--hang-after N] [--illegal-after N] [--garbage-after N]
//! [--slow-after N --slow-ms MS]` (N counts the `go` commands this process has answered).
//! `othel-test-engine --gtp-no-pass` speaks GTP instead, as GRhino does: it plays the first legal
//! move, passes by itself (a colour without a move is skipped), and answers `play COLOR pass`
//! with `? syntax error`.

use othel::protocol::command::{Command, Start, parse};
use othel::protocol::session::{Session, new_session};
use othel::rules::notation::Setup;
use othel::rules::{BoardKind, Move, Variant};
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Default)]
struct Faults {
    crash: Option<u32>,
    hang: Option<u32>,
    illegal: Option<u32>,
    garbage: Option<u32>,
    slow: Option<u32>,
    slow_ms: u64,
}

fn faults() -> Result<Faults, String> {
    let mut f = Faults::default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [flag, value] = pair else {
            return Err(format!("{pair:?}: every flag takes a number"));
        };
        let n: u64 = value
            .parse()
            .map_err(|_| format!("{flag} {value}: not a number"))?;
        match flag.as_str() {
            "--crash-after" => f.crash = Some(n as u32),
            "--hang-after" => f.hang = Some(n as u32),
            "--illegal-after" => f.illegal = Some(n as u32),
            "--garbage-after" => f.garbage = Some(n as u32),
            "--slow-after" => f.slow = Some(n as u32),
            "--slow-ms" => f.slow_ms = n,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(f)
}

/// GTP, the GRhino way: passes are never played by name.
fn gtp_without_passes() {
    let mut game: Box<dyn Session> = new_session(BoardKind::default());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let color_of = |c: &str| match c.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(othel::rules::Color::Black),
        "w" | "white" => Some(othel::rules::Color::White),
        _ => None,
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        // The colour named moves: the other one passes first when it has no move.
        let turn_to = |game: &mut Box<dyn Session>, color| {
            if game.side_to_move() != color && game.must_pass() {
                let _ = game.play(Move::Pass);
            }
            game.side_to_move() == color
        };
        let reply: Result<String, String> = match words.as_slice() {
            ["quit"] => {
                let _ = write!(out, "=\n\n");
                return;
            }
            ["boardsize", n] => match n
                .parse()
                .ok()
                .and_then(|n| BoardKind::new(Variant::Othello, n).ok())
            {
                Some(k) => {
                    game = new_session(k);
                    Ok(String::new())
                }
                None => Err("unacceptable size".into()),
            },
            ["clear_board"] => {
                game = new_session(game.kind());
                Ok(String::new())
            }
            ["play", _, mv] if mv.eq_ignore_ascii_case("pass") => Err("syntax error".into()),
            ["play", c, mv] => match (color_of(c), mv.parse::<Move>()) {
                (Some(color), Ok(mv)) if turn_to(&mut game, color) => game
                    .play(mv)
                    .map(|_| String::new())
                    .map_err(|e| format!("illegal move: {e}")),
                _ => Err("illegal move".into()),
            },
            ["genmove", c] => match color_of(c) {
                Some(color) if turn_to(&mut game, color) => match game.legal_moves().first() {
                    Some(&mv) if mv != Move::Pass => {
                        let _ = game.play(mv);
                        Ok(mv.to_string())
                    }
                    _ => Ok("pass".into()),
                },
                Some(_) => Ok("pass".into()),
                None => Err("syntax error".into()),
            },
            _ => Ok(String::new()),
        };
        let text = match reply {
            Ok(t) if t.is_empty() => "=\n\n".to_string(),
            Ok(t) => format!("= {t}\n\n"),
            Err(e) => format!("? {e}\n\n"),
        };
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--gtp-no-pass") {
        return gtp_without_passes();
    }
    let faults = match faults() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("othel-test-engine: {e}");
            std::process::exit(2);
        }
    };
    let mut kind = BoardKind::default();
    let mut game: Box<dyn Session> = new_session(kind);
    let mut answered = 0u32;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let reply = match parse(line.trim()) {
            Ok(Command::Othel) => Some("id name othel-test-engine\nothelok".to_string()),
            Ok(Command::IsReady) => Some("readyok".to_string()),
            Ok(Command::Quit) => return,
            Ok(Command::SetOption(pairs)) => {
                let get = |name: &str| pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v);
                let variant = get("variant").and_then(|v| v.parse::<Variant>().ok());
                let size = get("size").and_then(|s| s.parse::<usize>().ok());
                if let Some(v) = variant {
                    kind = BoardKind::new(v, size.unwrap_or(v.default_size())).unwrap_or(kind);
                }
                game = new_session(kind);
                None
            }
            Ok(Command::NewGame) => {
                game = new_session(kind);
                None
            }
            Ok(Command::Position { start, moves }) => {
                let setup = match start {
                    Start::Board(text) => text.parse::<Setup>().ok(),
                    _ => None,
                };
                let mut next = new_session(kind);
                match next.set(setup.as_ref(), &moves) {
                    Ok(()) => {
                        game = next;
                        None
                    }
                    Err(e) => Some(format!("error {e}")),
                }
            }
            Ok(Command::Go(_)) => {
                answered += 1;
                let after = |limit: Option<u32>| limit.is_some_and(|n| answered > n);
                if after(faults.crash) {
                    std::process::exit(3);
                }
                if after(faults.hang) {
                    std::thread::sleep(Duration::from_secs(3600));
                }
                if after(faults.slow) {
                    std::thread::sleep(Duration::from_millis(faults.slow_ms));
                }
                let legal = game.legal_moves();
                let mv = if after(faults.garbage) {
                    "bestmove ???".to_string()
                } else if after(faults.illegal) {
                    // An occupied or unreachable square: a1 is never legal at the start, and
                    // otherwise the first square that is not a legal move.
                    let size = kind.size();
                    let bad = (0..size * size)
                        .map(|i| Move::Place(othel::rules::Square::from_index(i, size)))
                        .find(|m| !legal.contains(m))
                        .map_or("a1".to_string(), |m| m.to_string());
                    format!("bestmove {bad}")
                } else {
                    match legal.first() {
                        Some(m) => format!("bestmove {m}"),
                        None => "bestmove none".to_string(),
                    }
                };
                Some(mv)
            }
            Ok(_) => None,
            Err(e) => Some(format!("error {e}")),
        };
        if let Some(text) = reply {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        }
    }
}
