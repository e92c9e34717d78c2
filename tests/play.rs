//! `othel play`: the plain mode through pipes (a whole game, its diagrams against `othel board`,
//! bad input at the prompt), and the full-screen game driven in tmux as a person would (typing,
//! arrow keys, a mouse click, hint, undo, a Lehto swap, a game to its end).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn othel(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_othel"))
        .args(args)
        .output()
        .expect("othel runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Plays a plain-mode game to its end: at each prompt, sends what `answer` returns for the last
/// legal moves listed (or the scripted line it gives). Returns the whole output.
fn plain_game(args: &[&str], mut answer: impl FnMut(&[String], usize) -> String) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_othel"))
        .args(["play", "--plain", "--threads", "1"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("othel play starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut output = String::new();
    let mut legal: Vec<String> = Vec::new();
    let mut prompts = 0;
    for line in stdout.lines() {
        let line = line.expect("a line");
        output.push_str(&line);
        output.push('\n');
        if let Some(list) = line.strip_prefix("legal moves: ") {
            legal = list.split_whitespace().map(str::to_string).collect();
        }
        if line.ends_with(": your move") || line.starts_with("the game is over") {
            let reply = if line.starts_with("the game is over") {
                "quit".to_string()
            } else {
                answer(&legal, prompts)
            };
            prompts += 1;
            assert!(prompts < 500, "the game does not end:\n{output}");
            writeln!(stdin, "{reply}").expect("othel reads");
        }
    }
    assert!(child.wait().expect("othel ends").success());
    output
}

#[test]
fn a_plain_game_between_two_people_shows_the_diagrams_othel_board_shows() {
    let mut played: Vec<String> = Vec::new();
    let output = plain_game(
        &["--size", "6", "--black", "human", "--white", "human"],
        |legal, _| {
            // The last legal move each time: another game than the first-move one.
            let mv = legal.last().expect("a legal move").clone();
            played.push(mv.clone());
            mv
        },
    );
    assert!(output.contains("game over: "), "{output}");
    // Every diagram is `othel board`'s for the moves so far.
    let boards: Vec<&str> = output.split("board ").skip(1).collect();
    assert!(boards.len() > 20, "{output}");
    // The first board is the start, the last the end; check the start, a middle one and the end.
    let diagram = |text: &str| -> String {
        text.lines()
            .take_while(|l| !l.starts_with("black to move") && !l.starts_with("white to move"))
            .filter(|l| {
                !l.contains(" plays ")
                    && !l.starts_with("game over")
                    && !l.starts_with("the game is over")
                    && !l.contains("passes")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let expected = |moves: &[String]| {
        let mut args = vec!["board", "--size", "6"];
        args.extend(moves.iter().map(String::as_str));
        let text = othel(&args);
        diagram(text.strip_prefix("board ").expect("a board line"))
    };
    assert_eq!(diagram(boards[0]), expected(&[]));
    assert_eq!(diagram(boards[1]), expected(&played[..1]));
    assert_eq!(diagram(boards[5]), expected(&played[..5]));
    let last = boards.last().expect("the end");
    assert_eq!(diagram(last), expected(&played));
    assert!(last.contains("game over:"), "{last}");
}

#[test]
fn a_plain_game_against_the_engine_with_bad_input_at_the_prompt() {
    let script = [
        "a1",
        "nonsense",
        "level 99",
        "save",
        "load /nonexistent/x.ggf",
        "undo",
        "hint",
    ];
    let output = plain_game(&["--size", "6", "--level", "2"], |legal, n| {
        match script.get(n) {
            Some(line) => line.to_string(),
            None => legal.first().expect("a legal move").clone(),
        }
    });
    for complaint in [
        "error: illegal move 'a1'",
        "error: 'nonsense' is not a square or a command",
        "error: level takes a number from 1 to 10",
        "error: 'save' needs a file name",
        "error: cannot read /nonexistent/x.ggf",
        "error: there is no move to take back",
    ] {
        assert!(output.contains(complaint), "{complaint}\n{output}");
    }
    assert!(output.contains("hint: "), "{output}");
    assert!(output.contains("white plays "), "{output}");
    assert!(output.contains("game over: "), "{output}");
    // Nothing the bad lines did changed the board: the first board after them is the start.
    let first_move = output.find("black plays ").expect("black played");
    let before = &output[..first_move];
    assert_eq!(before.matches("board ").count(), 1, "{before}");
}

#[test]
fn a_plain_game_against_a_pondering_engine_plays_to_its_end() {
    // Replies the engine predicted and replies it did not, a hint and an undo between.
    let script = ["", "", "hint", "", "undo"];
    let output = plain_game(
        &[
            "--size",
            "6",
            "--movetime",
            "30",
            "--ponder",
            "--book",
            "off",
        ],
        |legal, n| match script.get(n) {
            Some(line) if !line.is_empty() => line.to_string(),
            _ => legal[n % legal.len()].clone(),
        },
    );
    assert!(output.contains("hint: "), "{output}");
    assert!(output.contains("took back "), "{output}");
    assert!(output.contains("white plays "), "{output}");
    assert!(output.contains("game over: "), "{output}");
    assert!(!output.contains("error"), "{output}");
}

/// tmux on the server of `session` alone (`-L`): on the shared default server, one test's last
/// kill-session stops the server while another's new-session is connecting to it ("server
/// exited unexpectedly").
fn tmux(session: &str) -> Command {
    let mut command = Command::new("tmux");
    command.args(["-L", session]);
    command
}

/// A terminal in tmux running `othel play`, read and typed into as a person would.
struct Tmux {
    session: String,
}

impl Tmux {
    fn start(args: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            println!("skipped: tmux is not installed");
            return None;
        }
        let session = format!("othel-play-{}-{}", std::process::id(), args.len());
        let command = format!(
            "NO_COLOR=1 {} play --threads 1 {args}",
            env!("CARGO_BIN_EXE_othel")
        );
        let status = tmux(&session)
            .args([
                "new-session",
                "-d",
                "-x",
                "110",
                "-y",
                "32",
                "-s",
                &session,
                &command,
            ])
            .status()
            .expect("tmux runs");
        assert!(status.success());
        Some(Tmux { session })
    }

    /// The tmux `subcommand` aimed at this session.
    fn command(&self, subcommand: &str) -> Command {
        let mut command = tmux(&self.session);
        command.args([subcommand, "-t", &self.session]);
        command
    }

    fn keys(&self, keys: &[&str]) {
        let status = self
            .command("send-keys")
            .args(keys)
            .status()
            .expect("tmux runs");
        assert!(status.success());
    }

    fn literal(&self, text: &str) {
        let status = self
            .command("send-keys")
            .args(["-l", text])
            .status()
            .expect("tmux runs");
        assert!(status.success());
    }

    fn screen(&self) -> String {
        let out = self
            .command("capture-pane")
            .arg("-p")
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen shows `text`; returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "no '{text}' on the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The board's rows as cells (`X`, `O`, `*` playable, `-` empty; last move and turned discs
    /// without their brackets).
    fn board(&self, size: usize) -> Vec<Vec<char>> {
        let screen = self.screen();
        let mut rows = Vec::new();
        for line in screen.lines() {
            let Some((number, rest)) = line.get(..4).zip(line.get(4..)) else {
                continue;
            };
            if number.trim().parse::<usize>().ok() != Some(rows.len() + 1) || rows.len() == size {
                continue;
            }
            let cells: Vec<char> = rest
                .chars()
                .collect::<Vec<_>>()
                .chunks(3)
                .take(size)
                .map(|c| c[1])
                .collect();
            rows.push(cells);
        }
        assert_eq!(rows.len(), size, "no board:\n{screen}");
        rows
    }

    fn count(&self, size: usize, what: char) -> usize {
        self.board(size)
            .iter()
            .flatten()
            .filter(|&&c| c == what)
            .count()
    }

    /// Plays the humans' moves by typing the first playable square at every "to move: your
    /// move" until the game is over; returns the final screen. Checks the verdict against the
    /// discs on the board (`empties_to_winner`: Othello's rule).
    fn play_to_the_end(&self, size: usize, empties_to_winner: bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(240);
        loop {
            let screen = self.screen();
            if screen.contains("game over: ") {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the game does not end:\n{screen}"
            );
            if screen.contains("to move: your move")
                && let Some(square) = self.first_playable(size)
            {
                let before = self.board(size);
                self.literal(&square);
                self.keys(&["Enter"]);
                // Wait for the move to land before reading the screen again.
                let until = Instant::now() + Duration::from_secs(5);
                while self.board(size) == before && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(20));
                }
            } else {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let screen = self.wait_for("type new (or Ctrl-N) for another game");
        let (x, o) = (self.count(size, 'X'), self.count(size, 'O'));
        let empties = size * size - x - o;
        let margin = x as i64 - o as i64;
        let verdict = match margin.cmp(&0) {
            std::cmp::Ordering::Greater => {
                let m = margin + if empties_to_winner { empties as i64 } else { 0 };
                format!("black wins by {m}")
            }
            std::cmp::Ordering::Less => {
                let m = -margin + if empties_to_winner { empties as i64 } else { 0 };
                format!("white wins by {m}")
            }
            std::cmp::Ordering::Equal => "a draw".to_string(),
        };
        assert!(screen.contains(&verdict), "{verdict}\n{screen}");
        screen
    }

    /// The first playable square, as typed.
    fn first_playable(&self, size: usize) -> Option<String> {
        let board = self.board(size);
        for (r, row) in board.iter().enumerate() {
            for (c, &cell) in row.iter().enumerate() {
                if cell == '*' {
                    return Some(format!("{}{}", (b'a' + c as u8) as char, r + 1));
                }
            }
        }
        None
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command("kill-session").stderr(Stdio::null()).status();
    }
}

#[test]
fn a_6x6_game_against_the_engine_in_a_terminal() {
    let Some(tty) = Tmux::start("--size 6 --level 2") else {
        return;
    };
    tty.wait_for("black to move: your move");
    assert_eq!(
        (tty.count(6, 'X'), tty.count(6, 'O'), tty.count(6, '*')),
        (2, 2, 4)
    );
    // Typed: c2 (playable on 6x6's start), then the engine answers.
    tty.literal("c2");
    tty.keys(&["Enter"]);
    tty.wait_for("white plays ");
    let screen = tty.wait_for("black to move: your move");
    assert!(screen.contains("last: white"), "{screen}");
    // Bad input changes nothing.
    let before = tty.board(6);
    tty.literal("a1");
    tty.keys(&["Enter"]);
    tty.wait_for("error: illegal move 'a1'");
    tty.literal("zz");
    tty.keys(&["Enter"]);
    tty.wait_for("error: 'zz' is not a square");
    assert_eq!(tty.board(6), before);
    // A hint: a score on every playable square.
    tty.literal("?");
    let screen = tty.wait_for("hint: ");
    assert!(
        screen.contains("every move:") || tty.count(6, '*') == 0,
        "{screen}"
    );
    // Undo goes back to the start (the engine's move and ours).
    tty.literal("<");
    tty.wait_for("took back 2 moves");
    assert_eq!((tty.count(6, 'X'), tty.count(6, 'O')), (2, 2));
    // By the arrow keys: the cursor starts on c3; up to c2 and Enter.
    tty.keys(&["Up", "Enter"]);
    tty.wait_for("black plays c2");
    // The rest of the game by typing the first playable square.
    tty.play_to_the_end(6, true);
    tty.keys(&["C-c"]);
}

#[test]
fn a_9x9_lehto_game_with_a_swap_and_a_10x10_game_between_two_people() {
    let Some(tty) = Tmux::start("--variant lehto --size 9 --black engine --white human --level 3")
    else {
        return;
    };
    let screen = tty.wait_for("swap (typed) trades colours");
    assert!(
        screen.contains("black plays ") || screen.contains("last: black"),
        "{screen}"
    );
    tty.literal("swap");
    tty.keys(&["Enter"]);
    tty.wait_for("white plays swap");
    // The human owns black's disc now, and the engine (white now) moves again.
    let screen = tty.wait_for("black to move: your move");
    assert!(screen.contains("black (human)"), "{screen}");
    assert!(screen.contains("last: white"), "{screen}");
    assert_eq!(tty.count(9, 'X') + tty.count(9, 'O'), 2, "{screen}");
    // To the end: the board full, the verdict the disc difference.
    tty.play_to_the_end(9, false);
    assert_eq!(tty.count(9, 'X') + tty.count(9, 'O'), 81);
    tty.keys(&["C-c"]);
    drop(tty);

    let Some(tty) = Tmux::start("--size 10 --black human --white human") else {
        return;
    };
    tty.wait_for("black to move: your move");
    tty.literal("d5");
    tty.keys(&["Enter"]);
    tty.wait_for("white to move: your move");
    assert_eq!((tty.count(10, 'X'), tty.count(10, 'O')), (4, 1));
    // A mouse click on d6 (column 3, row 5): a1's cell starts at column 4 (from 0), row 1,
    // each cell 3 wide; SGR mouse reports count from 1.
    let (x, y) = (4 + 3 * 3 + 1 + 1, 1 + 5 + 1);
    tty.literal(&format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"));
    tty.wait_for("white plays d6");
    tty.wait_for("black to move: your move");
    assert_eq!((tty.count(10, 'X'), tty.count(10, 'O')), (3, 3));
    // Two people: undo takes back one move.
    tty.literal("undo");
    tty.keys(&["Enter"]);
    tty.wait_for("took back 1 move");
    assert_eq!((tty.count(10, 'X'), tty.count(10, 'O')), (4, 1));
    // Both people play on to the end.
    tty.play_to_the_end(10, true);
    tty.keys(&["C-c"]);
}
