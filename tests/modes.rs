//! The NBoard and GTP modes through the real binary: games played through each, a `ping` during a
//! search, exact hints, errors (the example sessions of protocol.md are replayed by protocol.rs).

mod common;

use common::engine::Engine;
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);

/// Reads a GTP reply: its lines up to the empty line that ends it.
fn gtp_reply(engine: &Engine) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = engine.expect_line(20 * SECOND);
        if line.is_empty() {
            return lines;
        }
        lines.push(line);
    }
}

/// Sends a GTP command and returns its reply's first line.
fn gtp(engine: &mut Engine, command: &str) -> String {
    engine.send(command);
    gtp_reply(engine).remove(0)
}

/// The lines of an NBoard `hint` or `analyze` up to the `status` line that closes it.
fn until_status(engine: &Engine) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = engine.expect_line(30 * SECOND);
        if line == "status" {
            return lines;
        }
        lines.push(line);
    }
}

#[test]
fn nboard_go_answers_with_a_legal_move_and_leaves_the_board_alone() {
    let mut e = Engine::start_with(&["--threads", "1", "--book", "off"]);
    e.send("nboard 2");
    e.send("set depth 3");
    assert_eq!(e.expect_line(5 * SECOND), "set myname othel");
    e.send("set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    for _ in 0..2 {
        e.send("go");
        let (played, before) = e.until("=== ", 10 * SECOND);
        // White's replies to f5: d6, f6 or f4.
        let mv = played[4..6].to_ascii_lowercase();
        assert!(["d6", "f6", "f4"].contains(&mv.as_str()), "{played}");
        let fields: Vec<&str> = played[4..].split('/').collect();
        assert_eq!(fields.len(), 3, "{played}");
        assert!(fields[1].parse::<f64>().is_ok() && fields[2].parse::<f64>().is_ok());
        assert!(
            before.iter().any(|l| l.starts_with("search ")),
            "{before:?}"
        );
        assert!(
            before.iter().any(|l| l.starts_with("nodestats ")),
            "{before:?}"
        );
    }
}

#[test]
fn nboard_follows_passes_given_by_set_game_and_by_move() {
    // Black (to move) has no move on this 4x4 board; white's d1 ends the game.
    let mut e = Engine::start_with(&["--nboard", "--threads", "1"]);
    for game in [
        "set game (;GM[Othello]TY[4]BO[4 OO*------------- *]B[PA]W[D1];)",
        "set game (;GM[Othello]TY[4]BO[4 OO*------------- *];)\nmove D1",
        "set game (;GM[Othello]TY[4]BO[4 OO*------------- *];)\nmove PA\nmove D1/1.00/0.5",
    ] {
        e.send(game);
        e.send("analyze");
        let lines = until_status(&e);
        let analysis: Vec<&String> = lines.iter().filter(|l| l.starts_with("analysis")).collect();
        // Two moves made (the pass and d1), so three positions. In the last the game is over
        // with white holding all four discs: -16 for black, who would move.
        assert_eq!(analysis.len(), 3, "{lines:?}");
        assert_eq!(analysis[0], "analysis 2 -16.00", "{lines:?}");
    }
}

#[test]
fn nboard_answers_from_the_book_and_learns_into_a_book_file() {
    let dir = common::Scratch::new("nboard");
    let book = dir.join("learnt.book");
    // A book file of two positions: made by `othel book add` from one opening.
    let games = dir.join("opening.txt");
    std::fs::write(&games, "f5d6\n").unwrap();
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_othel"))
        .args([
            "book",
            "add",
            games.to_str().unwrap(),
            "--depth",
            "2",
            "--threads",
            "1",
        ])
        .arg("--book")
        .arg(&book)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let mut e = Engine::start_with(&[
        "--nboard",
        "--threads",
        "1",
        "--book",
        book.to_str().unwrap(),
    ]);
    e.send("set depth 2");
    assert_eq!(e.expect_line(5 * SECOND), "set myname othel");
    e.send("set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
    e.send("go");
    let (played, before) = e.until("=== ", 10 * SECOND);
    // The four first moves are one position up to symmetry: any of them is the book's.
    let first = &played[4..6];
    assert!(["F5", "D3", "C4", "E6"].contains(&first), "{played}");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with(&format!("book {first} "))),
        "{before:?}"
    );
    e.send("move f5");
    e.send("hint 1");
    let lines = until_status(&e);
    assert!(
        lines[0].starts_with("book d6 ") || lines[0].starts_with("book f4 "),
        "{lines:?}"
    );
    // Learning a longer game adds its positions to the file.
    e.send("move d6");
    e.send("move c3");
    e.send("learn");
    let (_, _) = e.until("learned", 20 * SECOND);
    let export = std::process::Command::new(env!("CARGO_BIN_EXE_othel"))
        .args(["book", "export", book.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&export.stdout);
    assert!(
        text.starts_with("# othel book othello 8 positions 4"),
        "{text}"
    );
}

#[test]
fn nboard_ping_stops_a_search_at_once() {
    let mut e = Engine::start_with(&["--nboard", "--threads", "2"]);
    e.send("set depth 40");
    e.send("set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
    e.send("hint 1");
    let _ = e.until("search ", 10 * SECOND);
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    e.send("ping 42");
    let (_, before) = e.until("pong 42", 5 * SECOND);
    let waited = sent.elapsed();
    assert!(waited < Duration::from_millis(500), "pong after {waited:?}");
    // The stopped search said what it had, then closed its status, all before the pong.
    assert_eq!(
        before.last().map(String::as_str),
        Some("status"),
        "{before:?}"
    );
    // The engine goes on serving.
    e.send("ping 43");
    assert_eq!(e.expect_line(5 * SECOND), "pong 43");
}

#[test]
fn nboard_hint_3_solves_ffo_1_exactly() {
    let mut e = Engine::start_with(&["--nboard", "--threads", "2"]);
    e.send("set depth 16");
    e.send("set game (;GM[Othello]TY[8]BO[8 --***** --OOO**-O-OOO**O*-O*O*O**O***O***--*O*O**-***OOO--OOOOO-- *];)");
    e.send("hint 3");
    let lines = until_status(&e);
    let exact: Vec<(String, String)> = lines
        .iter()
        .filter(|l| l.ends_with(" 0 100%"))
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            (w[1][..2].to_string(), w[2].to_string())
        })
        .collect();
    // A2 and H7 both score +6: either may be the third line.
    let mut third = exact.get(2).cloned().unwrap_or_default();
    if third.0 == "H7" {
        third.0 = "A2".to_string();
    }
    let found = [exact[0].clone(), exact[1].clone(), third];
    let expected = [("G8", "18.00"), ("H1", "12.00"), ("A2", "6.00")]
        .map(|(m, s)| (m.to_string(), s.to_string()));
    assert_eq!(exact.len(), 3, "{lines:?}");
    assert_eq!(found, expected, "{lines:?}");
}

#[test]
fn nboard_ignores_what_it_does_not_understand_and_reports_bad_input() {
    let mut e = Engine::start_with(&["--nboard", "--threads", "1"]);
    // Lines that are no command are ignored (and logged): no reply at all.
    e.send("frobnicate 3");
    e.send("ping 1");
    assert_eq!(e.expect_line(5 * SECOND), "pong 1");
    // Commands with arguments it cannot read say so in the status line, as illegal moves do.
    for bad in ["set depth banana", "move z9", "move zz"] {
        e.send(bad);
        let status = e.expect_line(5 * SECOND);
        assert!(status.starts_with("status error: "), "{bad}: {status}");
    }
    // Lines it reads but cannot carry out say so in the status line.
    e.send("move f5");
    e.send("move f5");
    let status = e.expect_line(5 * SECOND);
    assert!(
        status.starts_with("status error: illegal move 'f5'"),
        "{status}"
    );
    e.send("set game (;GM[Othello]TY[8]BO[8 nonsense];)");
    let status = e.expect_line(5 * SECOND);
    assert!(status.starts_with("status error: "), "{status}");
    // The game is still the one after f5: white's three replies.
    e.send("set depth 2");
    assert_eq!(e.expect_line(5 * SECOND), "set myname othel");
    e.send("hint 3");
    let lines = until_status(&e);
    let mut moves: Vec<String> = lines
        .iter()
        .filter(|l| l.ends_with(" 0 2"))
        .map(|l| l[7..9].to_string())
        .collect();
    moves.sort();
    assert_eq!(moves, ["d6", "f4", "f6"], "{lines:?}");
}

#[test]
fn gtp_plays_a_whole_game_by_genmove_and_play() {
    let mut e = Engine::start_with(&["--gtp", "--depth", "2", "--threads", "1"]);
    assert_eq!(gtp(&mut e, "boardsize 6"), "=");
    let mut moves = 0;
    loop {
        let result = gtp(&mut e, "gogui-rules_final_result");
        if result != "= unknown" {
            break;
        }
        let side = gtp(&mut e, "gogui-rules_side_to_move");
        let color = if side == "= black" { "b" } else { "w" };
        if color == "b" {
            let reply = gtp(&mut e, "genmove b");
            assert!(reply.starts_with("= "), "{reply}");
        } else {
            // White plays the first legal move itself (or passes).
            let legal = gtp(&mut e, "gogui-rules_legal_moves");
            let mv = legal.split(' ').nth(1).unwrap_or("pass").to_string();
            assert_eq!(gtp(&mut e, &format!("play w {mv}")), "=");
        }
        moves += 1;
        assert!(moves < 80, "the game does not end");
    }
    // final_score agrees with the discs on the board.
    e.send("showboard");
    let board = gtp_reply(&e);
    let count = |c: char| -> i32 {
        board[2..8]
            .iter()
            .map(|row| row.chars().skip(4).filter(|&x| x == c).count() as i32)
            .sum()
    };
    let (black, white) = (count('X'), count('O'));
    let margin = black - white;
    let empties = 36 - black - white;
    let margin = match margin {
        m if m > 0 => m + empties,
        m if m < 0 => m - empties,
        m => m,
    };
    let expected = match margin {
        0 => "= 0".to_string(),
        m if m > 0 => format!("= B+{m}"),
        m => format!("= W+{}", -m),
    };
    assert_eq!(gtp(&mut e, "final_score"), expected, "{board:?}");
    // Once over, genmove passes and play is refused.
    assert_eq!(gtp(&mut e, "genmove b"), "= pass");
    assert!(gtp(&mut e, "play w a1").starts_with("? "));
}

#[test]
fn gtp_undo_illegal_moves_unknown_commands_and_ids() {
    let mut e = Engine::start_with(&["--gtp", "--depth", "1", "--threads", "1"]);
    assert_eq!(gtp(&mut e, "3 protocol_version"), "=3 2");
    assert_eq!(gtp(&mut e, "play b F5"), "=");
    assert_eq!(gtp(&mut e, "gogui-rules_side_to_move"), "= white");
    // Occupied square, wrong colour, square off the board, nonsense colour.
    for bad in ["play w f5", "play b d6", "play w z9", "play x d6"] {
        let reply = gtp(&mut e, bad);
        assert!(reply.starts_with("? "), "{bad}: {reply}");
    }
    assert_eq!(gtp(&mut e, "12 frobnicate"), "?12 unknown command");
    assert_eq!(gtp(&mut e, "known_command frobnicate"), "= false");
    assert_eq!(gtp(&mut e, "undo"), "=");
    assert_eq!(gtp(&mut e, "gogui-rules_side_to_move"), "= black");
    assert_eq!(gtp(&mut e, "gogui-rules_legal_moves"), "= d3 c4 f5 e6");
    assert!(gtp(&mut e, "undo").starts_with("? "));
    assert!(gtp(&mut e, "boardsize 9").starts_with("? "));
    assert_eq!(gtp(&mut e, "gogui-rules_board_size"), "= 8");
    assert_eq!(gtp(&mut e, "final_score"), "= 0");
    // A genmove with a clock answers well within it.
    assert_eq!(gtp(&mut e, "time_settings 2 0 0"), "=");
    let start = Instant::now();
    let reply = gtp(&mut e, "genmove b");
    assert!(
        ["= d3", "= c4", "= f5", "= e6"].contains(&reply.as_str()),
        "{reply}"
    );
    assert!(start.elapsed() < 2 * SECOND);
    e.send("quit");
    assert_eq!(gtp_reply(&e), ["="]);
}

#[test]
fn gtp_with_a_clock_searches_every_move_after_one_ends_on_time() {
    // Quarry's "time per move": byo-yomi of one stone, told before every genmove. Every search
    // ends on its time limit on 10x10; before the fix the flag that limit raised stayed up, and
    // every later genmove answered at once with an unsearched move.
    let mut engine = Engine::start_with(&["--gtp", "--threads", "1", "--book", "off"]);
    assert_eq!(gtp(&mut engine, "boardsize 10"), "=");
    assert_eq!(gtp(&mut engine, "time_settings 0 1 1"), "=");
    for color in ["b", "w", "b", "w"] {
        assert_eq!(gtp(&mut engine, &format!("time_left {color} 1 1")), "=");
        let started = Instant::now();
        let reply = gtp(&mut engine, &format!("genmove {color}"));
        let took = started.elapsed();
        assert!(reply.starts_with("= ") && reply != "= pass", "{reply}");
        assert!(
            took >= Duration::from_millis(30),
            "genmove {color} took {took:?}"
        );
        assert!(took < 2 * SECOND, "genmove {color} took {took:?}");
    }
}

#[test]
fn gtp_takes_passes_once_the_game_is_over_and_undo_stays_in_step() {
    let mut engine = Engine::start_with(&["--gtp", "--threads", "1"]);
    assert_eq!(gtp(&mut engine, "boardsize 4"), "=");
    for (color, mv) in [
        ("b", "b1"),
        ("w", "a1"),
        ("b", "a2"),
        ("w", "c1"),
        ("b", "d4"),
        ("w", "a3"),
        ("b", "d1"),
        ("w", "b4"),
        ("b", "a4"),
        ("w", "c4"),
    ] {
        assert_eq!(gtp(&mut engine, &format!("play {color} {mv}")), "=", "{mv}");
    }
    assert_eq!(gtp(&mut engine, "final_score"), "= W+10");
    assert_eq!(gtp(&mut engine, "genmove b"), "= pass");
    // A controller mirroring that pass (or the other engine's) is not refused...
    assert_eq!(gtp(&mut engine, "play b pass"), "=");
    assert_eq!(gtp(&mut engine, "play w pass"), "=");
    // ...and undo takes back those passes first, then c4.
    for _ in 0..3 {
        assert_eq!(gtp(&mut engine, "undo"), "=");
        assert_eq!(gtp(&mut engine, "final_score"), "= W+10");
    }
    assert_eq!(gtp(&mut engine, "undo"), "=");
    assert_ne!(gtp(&mut engine, "final_score"), "= W+10");
    // Placements still are refused once the game is over.
    assert_eq!(gtp(&mut engine, "play w c4"), "=");
    assert!(gtp(&mut engine, "play b c3").starts_with("? illegal move"));
}

/// Waits for the engine to exit by itself; panics after `within`.
fn exits_within(engine: &mut Engine, within: Duration) {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if let Ok(Some(status)) = engine.child.try_wait() {
            assert!(status.success(), "{status:?}");
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the engine still runs {within:?} after its input ended");
}

#[test]
fn the_end_of_input_ends_endless_searches_with_their_answer() {
    // The engine's protocol: `go infinite`, then the input ends.
    let mut engine = Engine::start_with(&["--threads", "1"]);
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.close_input();
    let (best, _) = engine.until("bestmove ", 10 * SECOND);
    assert_ne!(best, "bestmove none");
    exits_within(&mut engine, 10 * SECOND);

    // NBoard at depth 40, and GTP genmove at depth 40: a move, then the exit.
    let mut engine = Engine::start_with(&["--nboard", "--threads", "1", "--book", "off"]);
    engine.send("nboard 2");
    engine.send("set depth 40");
    engine.send("set game (;GM[Othello]PC[x]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    engine.send("go");
    engine.close_input();
    let (played, _) = engine.until("=== ", 10 * SECOND);
    assert!(played.len() > 4, "{played}");
    exits_within(&mut engine, 10 * SECOND);

    let mut engine =
        Engine::start_with(&["--gtp", "--threads", "1", "--depth", "40", "--book", "off"]);
    engine.send("genmove b");
    engine.close_input();
    let reply = gtp_reply(&engine);
    assert!(reply[0].starts_with("= "), "{reply:?}");
    exits_within(&mut engine, 10 * SECOND);
}

#[test]
fn a_closed_output_ends_the_engine() {
    use std::io::Write;
    for (args, script) in [
        (&["--threads", "1"][..], "go infinite\n"),
        (
            &["--nboard", "--threads", "1"],
            "nboard 2\nset depth 40\ngo\n",
        ),
    ] {
        let mut child = common::engine::spawn_piped(args);
        // The front end goes away without reading: the engine's next line fails to write.
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(script.as_bytes())
            .expect("the engine reads");
        // The input stays open: only the closed output can end it.
        let deadline = Instant::now() + 20 * SECOND;
        let status = loop {
            if let Ok(Some(status)) = child.try_wait() {
                break status;
            }
            assert!(Instant::now() < deadline, "{args:?}: still running");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{args:?}: {status:?}");
        drop(stdin);
    }
}
