//! The one-shot subcommands, run as the real binary.

use std::process::{Command, Output};

fn othel(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othel"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn perft_prints_its_last_line() {
    let out = othel(&["perft", "6"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(&words[..4], ["perft", "6", "nodes", "8200"], "{last}");
    assert_eq!(words[4], "time");
    assert_eq!(words[6], "nps");
    assert!(words[5].parse::<f64>().is_ok() && words[7].parse::<u64>().is_ok());
}

#[test]
fn perft_takes_variant_size_board_and_threads() {
    let out = othel(&[
        "perft",
        "--variant",
        "lehto",
        "--size",
        "5",
        "--threads",
        "2",
        "3",
    ]);
    assert!(
        stdout(&out).starts_with("perft 3 nodes 14400 "),
        "{}",
        stdout(&out)
    );
    let out = othel(&["perft", "--board", "OOX------------- X", "2"]);
    assert!(
        stdout(&out).starts_with("perft 2 nodes 1 "),
        "{}",
        stdout(&out)
    );
    // A board string may begin with an empty square's '-'.
    let out = othel(&["perft", "--board", "-OX------------- X", "1"]);
    assert!(
        stdout(&out).starts_with("perft 1 nodes 1 "),
        "{}",
        stdout(&out)
    );
    // So may an OBF line, with its ';' and scores.
    let out = othel(&["perft", "--board", "OOX------------- X; d1:+0", "2"]);
    assert!(
        stdout(&out).starts_with("perft 2 nodes 1 "),
        "{}",
        stdout(&out)
    );
    let out = othel(&["perft", "--size", "6", "5"]);
    assert!(
        stdout(&out).starts_with("perft 5 nodes 1364 "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn board_plays_moves_and_prints_the_result() {
    let out = othel(&["board", "f5d6", "c3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(
        text.lines().next().unwrap(),
        "board ------------------X--------XX------OXX-----O-------------------- O"
    );
    assert!(text.contains("legal moves: d3 f3 f4 g5"), "{text}");
    assert!(text.contains("black (X) 5, white (O) 2"), "{text}");
    assert!(text.contains(" 1  - - - - - - - -"), "{text}");
}

#[test]
fn board_shows_a_finished_game() {
    let out = othel(&["board", "--board", "OOX------------- O", "d1"]);
    let text = stdout(&out);
    assert!(text.contains("game over: white wins by 16"), "{text}");
}

#[test]
fn board_plays_lehto_with_a_swap() {
    let out = othel(&["board", "--variant", "lehto", "e5", "swap", "d4"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("board "), "{text}");
    assert!(text.contains("black (X) 1, white (O) 1"), "{text}");
    assert!(text.contains("black (X) to move"), "{text}");
}

#[test]
fn bad_input_exits_non_zero_with_a_message() {
    let cases: [&[&str]; 8] = [
        &["board", "f5", "a1"],
        &["board", "f5x"],
        &["board", "--board", "XO X"],
        &["board", "--variant", "othello", "--size", "9"],
        &["board", "--variant", "lehto", "--size", "8"],
        &["board", "--variant", "chess"],
        &["perft", "--board", &"-".repeat(64), "3"],
        &[
            "board",
            "--size",
            "9",
            "--board",
            "---------------------------OX------XO--------------------------- X",
        ],
    ];
    for args in cases {
        let out = othel(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.trim().is_empty(), "{args:?} printed no message");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    }
    let illegal = othel(&["board", "f5", "a1"]);
    assert!(String::from_utf8_lossy(&illegal.stderr).contains("a1"));
}

#[test]
fn analyze_prints_iterations_and_a_best_move() {
    let args = [
        "analyze",
        "--depth",
        "5",
        "--threads",
        "1",
        "--book",
        "off",
        "f5d6",
    ];
    let out = othel(&args);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[4].starts_with("info depth 5 score "), "{text}");
    assert!(lines[5].starts_with("bestmove "), "{text}");
}

#[test]
fn analyze_answers_from_the_book_and_a_bad_book_is_an_error() {
    // The built-in book knows the start position's replies.
    let out = othel(&["analyze", "--depth", "5", "--threads", "1", "f5"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("info depth 0 book score "), "{text}");
    let mv = lines[0].rsplit(' ').next().unwrap();
    assert!(["d6", "f6", "f4"].contains(&mv), "{text}");
    assert_eq!(lines[1], format!("bestmove {mv}"));
    let bad = temp_file("bad.book", "OTHELBK1 but then nothing sensible");
    let out = othel(&["analyze", "--depth", "3", "--book", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("book"));
}

#[test]
fn analyze_searches_only_the_moves_asked_for() {
    // After f5, the book would answer at once; a move asked for is searched, and never another.
    let args = ["analyze", "--depth", "6", "--threads", "1", "f5"];
    let out = othel(&[&args[..], &["--searchmoves", "f4"]].concat());
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("info depth 6 score "), "{text}");
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove f4")),
        "{text}"
    );
    let out = othel(&[&args[..], &["--searchmoves", "d6,f6", "--multipv", "3"]].concat());
    let text = stdout(&out);
    let at_6: Vec<&str> = text.lines().filter(|l| l.contains(" depth 6 ")).collect();
    assert_eq!(at_6.len(), 2, "{text}");
    assert!(at_6.iter().all(|l| !l.contains(" pv f4")), "{text}");
    let out = othel(&[&args[..], &["--searchmoves", "c4"]].concat());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("c4 is not a legal move here"), "{err}");
}

/// A file holding `text` whose name ends with `-NAME`, deleted when dropped (also when the test
/// fails).
fn temp_file(name: &str, text: &str) -> tempfile::TempPath {
    let file = tempfile::Builder::new()
        .prefix("othel-test-")
        .suffix(&format!("-{name}"))
        .tempfile()
        .expect("a temporary file");
    std::fs::write(file.path(), text).expect("a temporary file written");
    file.into_temp_path()
}

const FFO_1: &str =
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";

#[test]
fn solve_checks_the_file_s_scores() {
    let good = temp_file("good.obf", &format!("{FFO_1}\n\nOOX------------- O\n"));
    let out = othel(&["solve", good.to_str().unwrap(), "--threads", "2"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("#1 empties 14 best g8 score +18 file +18 nodes "),
        "{text}"
    );
    assert!(
        lines[1].starts_with("#2 empties 13 best d1 score +16 nodes "),
        "{text}"
    );
    assert!(lines[2].starts_with("total positions 2 nodes "), "{text}");

    let wrong = temp_file("wrong.obf", &FFO_1.replace("G8:+18", "G8:+20"));
    let out = othel(&["solve", wrong.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("#1"));

    let bad = temp_file("bad.obf", "not a board\n");
    let out = othel(&["solve", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
    let out = othel(&["solve", "/nonexistent/file.obf"]);
    assert!(!out.status.success());

    let wld = othel(&["solve", good.to_str().unwrap(), "--wld"]);
    assert!(wld.status.success());
    assert!(stdout(&wld).contains("score win"));
}

#[test]
fn bench_counts_the_same_nodes_every_run() {
    let signature = |out: &Output| stdout(out).lines().last().unwrap().to_string();
    let a = othel(&["bench", "--depth", "5"]);
    let b = othel(&["bench", "--depth", "5"]);
    assert!(a.status.success());
    let (sa, sb) = (signature(&a), signature(&b));
    let words: Vec<&str> = sa.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{sa}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"));
    assert_eq!(words[0], sb.split_whitespace().next().unwrap());
    // The evaluation's own cost, board by board: `evaluation BOARD ns N positions P`.
    let text = stdout(&a);
    for board in ["othello 8x8", "othello 10x10", "othello 16x16", "lehto 9x9"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("evaluation {board} ns ")))
            .unwrap_or_else(|| panic!("no {board} evaluation line in {text}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let ns: f64 = words[words.len() - 3].parse().unwrap();
        assert!(ns > 0.0 && ns < 1e6, "{line}");
        assert!(
            words[words.len() - 1].parse::<usize>().unwrap() > 100,
            "{line}"
        );
    }
}

#[test]
fn bench_searches_the_positions_of_a_file() {
    // The second line is the bench's own fourth position: the same search, the same nodes.
    let file = temp_file(
        "bench-positions",
        "# two games\nf5d6c3d3c4f4f6f3e6e7\n\nf5f6d3c5d6c7b5e3\n",
    );
    let out = othel(&[
        "bench",
        "--depth",
        "5",
        "--positions",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The two positions, the evaluation's timings, the signature.
    let lines: Vec<String> = stdout(&out)
        .lines()
        .filter(|l| !l.starts_with("evaluation "))
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("position 1 depth 5 "), "{}", lines[0]);
    let own = othel(&["bench", "--depth", "5"]);
    let nodes = |line: &str| {
        line.split(" nodes ")
            .nth(1)
            .map(|s| s.split(' ').next().unwrap().to_string())
    };
    let fourth = stdout(&own).lines().nth(3).unwrap().to_string();
    assert_eq!(nodes(&lines[1]), nodes(&fourth));
    // An illegal move or a missing file: an error, not a panic.
    let bad = temp_file("bench-bad", "f5f5\n");
    for path in [bad.to_str().unwrap(), "/nonexistent/positions.txt"] {
        let out = othel(&["bench", "--depth", "3", "--positions", path]);
        assert!(!out.status.success());
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}

#[test]
fn impossible_thread_counts_and_table_sizes_are_refused_at_once() {
    // 100000 threads used to be started (the machine's load passed 3000); 0 was taken as 1.
    for args in [
        &[
            "analyze",
            "--threads",
            "100000",
            "--depth",
            "2",
            "--book",
            "off",
        ][..],
        &["analyze", "--threads", "0", "--depth", "2"],
        &["analyze", "--hash", "0", "--depth", "2"],
        &["perft", "--threads", "0", "3"],
        &["solve", "--threads", "257", "/dev/null"],
        &["--threads", "100000"],
        &[
            "train",
            "gen",
            "--threads",
            "0",
            "--games",
            "1",
            "--out",
            "/dev/null",
        ],
    ] {
        let started = std::time::Instant::now();
        let out = othel(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("a whole number from 1 to"), "{args:?}: {err}");
        assert_eq!(
            err.lines()
                .next()
                .map(|l| l.starts_with("error: invalid value")),
            Some(true)
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{args:?}"
        );
    }
}

#[test]
fn analyze_with_an_unreadable_book_says_why_and_does_not_go_on() {
    let out = othel(&["analyze", "--book", "/nonexistent/book", "--depth", "2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'/nonexistent/book'"), "{err}");
    assert!(!err.contains("going on"), "{err}");
    assert_eq!(err.matches("/nonexistent/book").count(), 1, "{err}");
}

/// The `ply` lines of one game's review, its header and its two totals lines.
struct ReviewedGame<'a> {
    header: &'a str,
    plies: Vec<Vec<&'a str>>,
    totals: Vec<Vec<&'a str>>,
}

fn reviewed_games(text: &str) -> Vec<ReviewedGame<'_>> {
    let mut games: Vec<ReviewedGame> = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "game" => games.push(ReviewedGame {
                header: line,
                plies: Vec::new(),
                totals: Vec::new(),
            }),
            "ply" => games.last_mut().unwrap().plies.push(words),
            "black" | "white" => games.last_mut().unwrap().totals.push(words),
            _ => panic!("unexpected line {line}"),
        }
    }
    games
}

#[test]
fn review_scores_every_move_of_a_match_s_games() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let games = dir.path().join("games.ggf");
    let games = games.to_str().unwrap();
    let bin = env!("CARGO_BIN_EXE_othel");
    let quick = format!("name=quick cmd='{bin} --threads 1' depth=1");
    let slow = format!("name=slow cmd='{bin} --threads 1' depth=3");
    let out = othel(&[
        "match", "--size", "6", "--engine", &quick, "--engine", &slow, "--games", "2", "--out",
        games,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = othel(&[
        "review",
        "--file",
        games,
        "--threads",
        "1",
        "--depth",
        "4",
        "--exact-from",
        "14",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let reviewed = reviewed_games(&text);
    assert_eq!(reviewed.len(), 2, "{text}");
    for game in &reviewed {
        // `game N black quick white slow result +4.000`, the players either way round.
        let header: Vec<&str> = game.header.split_whitespace().collect();
        assert_eq!(header[2], "black", "{}", game.header);
        assert_eq!(header[6], "result", "{}", game.header);
        let result: f64 = header[7].parse().unwrap();
        let mut exact_seen = false;
        let mut last_exact: Option<(&str, i32)> = None;
        let mut losses = [0.0f64; 2];
        let mut mistakes = [0u32; 2];
        let mut moves = [0u32; 2];
        for words in &game.plies {
            let side = usize::from(words[2] == "white");
            moves[side] += 1;
            if words[4] == "forced" {
                assert_eq!(words.len(), 5, "{words:?}");
                continue;
            }
            // ply N COLOR MOVE score S best M S loss L (depth D | exact) [mistake]
            assert_eq!((words[4], words[6], words[9]), ("score", "best", "loss"));
            let exact = words[11] == "exact";
            // Once solved, solved to the end.
            assert!(exact || !exact_seen, "{words:?}");
            exact_seen |= exact;
            let loss: f64 = words[10].parse().unwrap();
            let (score, best): (f64, f64) = (words[5].parse().unwrap(), words[8].parse().unwrap());
            assert!(
                (best - score - loss).abs() < 0.011 && loss >= 0.0,
                "{words:?}"
            );
            if exact {
                assert!(!words[5].contains('.'), "{words:?}");
                last_exact = Some((words[2], words[5].parse().unwrap()));
            }
            let mistake = words.last() == Some(&"mistake");
            assert_eq!(mistake, loss >= 2.0, "{words:?}");
            losses[side] += loss;
            mistakes[side] += u32::from(mistake);
        }
        // After the last move scored every move was forced: its exact score is the result.
        let (color, score) = last_exact.expect("an exact end");
        let black_view = if color == "black" { score } else { -score };
        assert_eq!(f64::from(black_view), result, "{}", game.header);
        for (side, totals) in game.totals.iter().enumerate() {
            // COLOR moves N loss L mistakes M
            assert_eq!(totals[0], ["black", "white"][side]);
            assert_eq!(totals[2].parse::<u32>().unwrap(), moves[side]);
            let loss: f64 = totals[4].parse().unwrap();
            assert!((loss - losses[side]).abs() < 0.05, "{totals:?} {losses:?}");
            assert_eq!(totals[6].parse::<u32>().unwrap(), mistakes[side]);
        }
    }
}

#[test]
fn review_refuses_a_bad_game_before_searching() {
    let out = othel(&["review", "--size", "6", "c4"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 1"), "{err}");
    assert!(stdout(&out).is_empty());
    let file = temp_file("games.txt", "f5d6c3\n# a comment\nf5f5\n");
    let path = file.to_str().unwrap();
    let out = othel(&["review", "--file", path]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3"), "{err}");
    assert!(stdout(&out).is_empty());
    for args in [
        ["review", "--file", path, "f5"],
        ["review", "--mistake", "-1", "f5"],
        ["review", "--mistake", "NaN", "f5"],
    ] {
        let out = othel(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
