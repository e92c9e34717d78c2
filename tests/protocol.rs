//! The engine protocol, through the real binary: the example sessions of protocol.md, whole games
//! driven move by move, stop and isready during a search, the end of input, bad input.

mod common;

use common::engine::{Engine, spawn_piped};
use std::io::Write;
use std::time::{Duration, Instant};

/// Runs a whole script through a pipe (the engine started with `args`) and returns the output
/// lines.
fn run_script_with(args: &[&str], script: &str) -> Vec<String> {
    let mut child = spawn_piped(args);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("the script is written");
    let out = child.wait_with_output().expect("the engine ends");
    assert!(out.status.success(), "exit status {:?}", out.status);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs a whole script through a pipe and returns the output lines.
fn run_script(script: &str) -> Vec<String> {
    run_script_with(&[], script)
}

/// Replaces the figures that vary between runs (nodes, time, nps; NBoard's node stats and move
/// times) and the machine's core count.
fn mask(line: &str) -> String {
    if line.starts_with("nodestats ") {
        return "nodestats * *".into();
    }
    if let Some(played) = line.strip_prefix("=== ")
        && let Some(cut) = played.rfind('/')
    {
        return format!("=== {}/*", &played[..cut]);
    }
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for i in 1..words.len() {
        if ["nodes", "time", "nps"].contains(&words[i - 1].as_str())
            && words[i].parse::<f64>().is_ok()
        {
            words[i] = "*".into();
        }
    }
    let line = words.join(" ");
    if line.starts_with("option name threads") {
        let cut = line.find("default").unwrap_or(line.len());
        return line[..cut].to_string();
    }
    line
}

#[test]
fn every_example_session_of_protocol_md_replays() {
    let doc = include_str!("../protocol.md");
    let mut sessions = 0;
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        // A fence may give the engine's arguments: ```session --threads 1
        let Some(args) = line.trim().strip_prefix("```session") else {
            continue;
        };
        let args: Vec<&str> = args.split_whitespace().collect();
        let mut script = String::new();
        let mut expected = Vec::new();
        for l in lines.by_ref() {
            if l.trim() == "```" {
                break;
            }
            match l.strip_prefix("> ") {
                Some(command) => {
                    script.push_str(command);
                    script.push('\n');
                }
                None => expected.push(mask(l)),
            }
        }
        let got: Vec<String> = run_script_with(&args, &script)
            .iter()
            .map(|l| mask(l))
            .collect();
        assert_eq!(got, expected, "session:\n{script}");
        sessions += 1;
    }
    assert!(sessions >= 6, "found {sessions} sessions");
}

/// Two `go depth 2` sides play a whole game; returns the number of moves played.
fn play_a_game(setup: &[&str], first_moves: &[&str]) -> usize {
    let mut engine = Engine::start();
    for command in setup {
        engine.send(command);
    }
    for mv in first_moves {
        engine.send(&format!("play {mv}"));
    }
    let mut played = first_moves.len();
    loop {
        engine.send("go depth 2");
        let (best, infos) = engine.until("bestmove", Duration::from_secs(60));
        assert!(infos.iter().all(|l| l.starts_with("info ")), "{infos:?}");
        let mv = best.split_whitespace().nth(1).expect("a move").to_string();
        if mv == "none" {
            break;
        }
        assert!(!infos.is_empty(), "an info line before bestmove {mv}");
        engine.send(&format!("play {mv}"));
        played += 1;
        assert!(played < 400, "the game does not end");
    }
    engine.send("moves");
    assert_eq!(engine.expect_line(Duration::from_secs(10)), "moves none");
    engine.send("isready");
    assert_eq!(engine.expect_line(Duration::from_secs(10)), "readyok");
    played
}

#[test]
fn a_whole_8x8_game_between_two_depth_2_sides() {
    assert!(play_a_game(&["setoption threads=1"], &[]) >= 20);
}

#[test]
fn whole_6x6_and_10x10_games() {
    assert!(play_a_game(&["setoption size=6 threads=1"], &[]) >= 10);
    assert!(play_a_game(&["setoption size=10 threads=2"], &[]) >= 40);
}

#[test]
fn a_9x9_lehto_game_with_a_swap() {
    let moves = play_a_game(&["setoption variant=lehto threads=2"], &["e5", "swap"]);
    assert_eq!(moves, 82, "81 placements and the swap");
}

#[test]
fn a_first_search_without_isready_spends_its_time_searching() {
    // No `isready` first, as in a pipeline: the search decodes the weights (70 to 200 ms for
    // 8×8's here) and brings the table's pages in before its clock starts. When they ate its
    // 20 ms instead, it ended at depth 2 or 3; ready, it reaches 12 here (a depth this shallow
    // takes well under a millisecond).
    let mut engine = Engine::start();
    engine.send("setoption book=off threads=1");
    engine.send("position startpos moves f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6 c5 g5");
    engine.send("go movetime 20");
    let (_, infos) = engine.until("bestmove", Duration::from_secs(10));
    let depth = deepest(&infos);
    assert!(depth >= 6, "depth {depth}: {infos:?}");
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let (_, _) = engine.until("readyok", Duration::from_millis(500));
    let sent = Instant::now();
    engine.send("stop");
    let (best, _) = engine.until("bestmove", Duration::from_secs(5));
    let latency = sent.elapsed();
    assert!(
        latency < Duration::from_millis(100),
        "bestmove after {latency:?}"
    );
    assert!(best.split_whitespace().nth(1).is_some_and(|m| m != "none"));
}

/// The depth of the deepest `info` line among `lines` (0 without one).
fn deepest(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

#[test]
fn a_ponder_search_answers_only_after_ponderhit_and_then_on_its_clock() {
    let mut engine = Engine::start();
    engine.send("setoption book=off threads=1");
    engine.send("isready");
    engine.until("readyok", Duration::from_secs(10));
    // The position after the opponent's predicted move, with the clock as it will be.
    engine.send("position startpos moves f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6 c5 g5");
    engine.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(600));
    // Far past what the clock would give the move (2 s over some 20 moves), still no bestmove.
    engine.send("isready");
    let (_, pondered) = engine.until("readyok", Duration::from_secs(2));
    assert!(
        pondered.iter().all(|l| l.starts_with("info ")),
        "{pondered:?}"
    );
    let sent = Instant::now();
    engine.send("ponderhit");
    let (best, after) = engine.until("bestmove", Duration::from_secs(5));
    let latency = sent.elapsed();
    // The clock runs from the hit, and the pondering done is a head start: the search stops
    // within the move's share of the clock (its hard limit is four times the share, under 0.8 s).
    assert!(
        latency < Duration::from_millis(900),
        "bestmove after {latency:?}"
    );
    assert!(best.contains(" ponder "), "{best}");
    let depth = deepest(&pondered).max(deepest(&after));
    assert!(depth >= 10, "depth {depth}: {pondered:?} {after:?}");
    engine.send("ponderhit");
    let (refused, _) = engine.until("error", Duration::from_secs(2));
    assert!(refused.contains("no go ponder is running"), "{refused}");
}

#[test]
fn a_ponder_search_that_finished_early_still_waits_and_stop_ends_one() {
    let mut engine = Engine::start();
    engine.send("setoption book=off threads=1");
    engine.send("position startpos moves f5 d6 c3");
    engine.send("go ponder depth 3");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let (_, before) = engine.until("readyok", Duration::from_secs(2));
    assert!(
        before.iter().any(|l| l.starts_with("info depth 3 ")),
        "{before:?}"
    );
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    let sent = Instant::now();
    engine.send("ponderhit");
    engine.until("bestmove", Duration::from_secs(2));
    assert!(
        sent.elapsed() < Duration::from_millis(200),
        "{:?}",
        sent.elapsed()
    );
    // Another move was played than the one predicted: stop, and the bestmove comes at once.
    engine.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    engine.send("stop");
    engine.until("bestmove", Duration::from_secs(2));
    assert!(
        sent.elapsed() < Duration::from_millis(200),
        "{:?}",
        sent.elapsed()
    );
    // The end of the input ends a ponder search as it ends `go infinite`.
    let lines = run_script("setoption book=off\nposition startpos\ngo ponder\n");
    let last = lines.last().expect("output");
    assert!(last.starts_with("bestmove "), "{lines:?}");
}

#[test]
fn a_pondered_book_move_waits_for_ponderhit_too() {
    let mut engine = Engine::start();
    engine.send("isready");
    engine.until("readyok", Duration::from_secs(10));
    engine.send("position startpos moves f5");
    engine.send("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let (_, before) = engine.until("readyok", Duration::from_secs(2));
    assert!(before.is_empty(), "{before:?}");
    engine.send("ponderhit");
    let (best, infos) = engine.until("bestmove", Duration::from_secs(2));
    assert!(infos.iter().any(|l| l.contains(" book ")), "{infos:?}");
    assert!(
        ["bestmove d6", "bestmove f4", "bestmove f6"].contains(&best.as_str()),
        "{best}"
    );
}

#[test]
fn searchmoves_searches_only_the_moves_given() {
    // White's moves after f5 are d6, f4 and f6; the book knows them all, and is not asked.
    let mut engine = Engine::start();
    engine.send("position startpos moves f5");
    let mut search = |go: &str| {
        engine.send(go);
        let (best, infos) = engine.until("bestmove", Duration::from_secs(20));
        let best = best.split_whitespace().nth(1).unwrap_or("").to_string();
        assert!(infos.iter().all(|l| !l.contains(" book ")), "{infos:?}");
        (best, infos)
    };
    let (best, infos) = search("go depth 6 searchmoves f4");
    assert_eq!(best, "f4", "{infos:?}");
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 6 ")),
        "{infos:?}"
    );
    // Two lines a depth, however many were asked for, and never the third move.
    let (best, infos) = search("go depth 4 multipv 3 searchmoves d6 f6");
    assert!(["d6", "f6"].contains(&best.as_str()), "{infos:?}");
    let depth_4: Vec<&String> = infos.iter().filter(|l| l.contains(" depth 4 ")).collect();
    assert_eq!(depth_4.len(), 2, "{infos:?}");
    assert!(depth_4.iter().all(|l| !l.contains(" pv f4")), "{infos:?}");
    for (go, refused) in [
        ("go depth 4 searchmoves c4", "c4 is not a legal move here"),
        (
            "go depth 4 searchmoves f6 pass",
            "pass is not a legal move here",
        ),
    ] {
        engine.send(go);
        let (error, _) = engine.until("error", Duration::from_secs(5));
        assert!(error.contains(refused), "{error}");
    }
    engine.send("isready");
    let (_, between) = engine.until("readyok", Duration::from_secs(5));
    assert!(between.is_empty(), "{between:?}");
}

#[test]
fn commands_during_a_search_are_refused_or_answered() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.send("setoption hash=16");
    let (refused, _) = engine.until("error", Duration::from_secs(2));
    assert!(refused.contains("setoption hash=16"), "{refused}");
    engine.send("board");
    let (board, _) = engine.until("board", Duration::from_secs(2));
    assert!(board.ends_with(" X"));
    engine.send("stop");
    engine.until("bestmove", Duration::from_secs(2));
    engine.send("setoption hash=16");
    engine.send("isready");
    let (_, between) = engine.until("readyok", Duration::from_secs(5));
    assert!(between.is_empty(), "{between:?}");
}

#[test]
fn end_of_input_finishes_the_search() {
    let lines = run_script("setoption book=off\nposition startpos moves f5d6c3d3c4\ngo depth 9\n");
    let last = lines.last().expect("output");
    assert!(last.starts_with("bestmove "), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 9 ")),
        "{lines:?}"
    );
}

#[test]
fn quit_ends_the_engine_during_a_search() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("quit");
    let started = Instant::now();
    loop {
        if let Some(status) = engine.child.try_wait().expect("status") {
            assert!(status.success());
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(2), "still running");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn quit_answers_the_commands_before_it_and_ends_the_search_with_its_bestmove() {
    // All of it arrives at once, as from a shell pipeline: nothing before `quit` may be lost, and
    // the search it interrupts (depth 30 would take hours) still prints its move.
    let started = Instant::now();
    let lines = run_script(
        "isready\nposition startpos moves f5\nmoves\nsetoption book=off\ngo depth 30\nquit\nisready\n",
    );
    assert!(started.elapsed() < Duration::from_secs(10), "{lines:?}");
    assert_eq!(
        lines.first().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );
    let mut moves: Vec<&str> = lines[1].split(' ').collect();
    moves.sort_unstable();
    assert_eq!(moves, ["d6", "f4", "f6", "moves"], "{lines:?}");
    let last = lines.last().expect("output");
    assert!(last.starts_with("bestmove "), "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| *l == "readyok").count(),
        1,
        "{lines:?}"
    );
}

#[test]
fn bad_input_gets_one_error_line_each_and_the_engine_goes_on() {
    let huge = "x".repeat(1 << 20);
    let script = format!(
        "\n   \n{huge}\ngo depth -3\nposition board XO X\nposition ggf (;GM[Go];)\nplay z9\nplay a1\nsetoption threads=0\nsetoption hash=abc\nperft x\n\u{ff}\u{fe}\nmoves now\nsetoption variant=lehto size=8\nposition startpos moves f5 f5\nmoves\n"
    );
    let lines = run_script(&script);
    let errors = lines.iter().filter(|l| l.starts_with("error ")).count();
    assert_eq!(errors, 13, "{lines:#?}");
    assert_eq!(lines.last().map(String::as_str), Some("moves d3 c4 f5 e6"));
    assert!(
        lines.iter().all(|l| l.len() < 400),
        "an error quotes a short piece of the input"
    );
}

#[test]
fn invalid_utf8_is_an_error_line() {
    let mut child = spawn_piped(&[]);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"go \xff\xfe\nboard\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("error "));
    assert!(lines[1].starts_with("board "));
}

#[test]
fn go_refuses_what_would_search_without_its_bound() {
    let script = "go multipv 0\ngo multipv 65\ngo multipv 1000000\ngo winc 100\ngo binc 5 wtime 100\ngo depth 0\ngo movestogo 3\nmoves\n";
    let lines = run_script(script);
    assert_eq!(lines.len(), 8, "{lines:#?}");
    for line in &lines[..7] {
        assert!(line.starts_with("error go "), "{line}");
    }
    assert!(lines[0].contains("1 to 64"), "{}", lines[0]);
    assert!(lines[3].contains("needs wtime"), "{}", lines[3]);
    assert!(lines[4].contains("needs btime"), "{}", lines[4]);
    assert_eq!(lines[7], "moves d3 c4 f5 e6");
}

#[test]
fn option_keywords_are_not_case_sensitive_and_othel_shows_the_defaults() {
    let lines = run_script(
        "setoption size=-1\nsetoption book=/x/y\nsetoption Book=OFF\nsetoption VARIANT=Lehto size=11\nothel\nposition startpos\ngo depth 1\n",
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("No such file") && l.contains("OFF")),
        "{lines:#?}"
    );
    // No book move: the search ran (book=OFF was taken as off, not as a file named OFF).
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&"option name size type spin default 8 min 4 max 19".to_string()),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name variant type combo default othello ")),
        "{lines:#?}"
    );
    let size_error = lines
        .iter()
        .find(|l| l.contains("size=-1"))
        .expect("an error");
    assert!(size_error.contains("from 4 to 19"), "{size_error}");
    let book_error = lines.iter().find(|l| l.contains("/x/y")).expect("an error");
    assert_eq!(
        book_error.matches("/x/y").count(),
        2,
        "the path, then the line: {book_error}"
    );
}

#[test]
fn movetime_spends_the_time_it_gives() {
    // Not a speed test: the answer must not come long before the time given (it came after about
    // half of it), nor long after.
    let started = Instant::now();
    let lines = run_script("setoption book=off threads=1\nposition startpos\ngo movetime 600\n");
    let took = started.elapsed();
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    assert!(took >= Duration::from_millis(550), "{took:?}");
}

#[test]
fn wld_scores_are_signs_and_evaluations_always_have_decimals() {
    let lines = run_script(
        "setoption book=off\nposition board --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X\ngo wld multipv 3\n",
    );
    // The word after `score`.
    let score_of = |line: &str| {
        line.split(" score ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let wld: Vec<&String> = lines.iter().filter(|l| l.contains(" wld score ")).collect();
    assert!(!wld.is_empty(), "{lines:#?}");
    for line in wld {
        assert!(
            ["+1", "+0", "-1"].contains(&score_of(line).as_str()),
            "{line}"
        );
    }
    for line in lines
        .iter()
        .filter(|l| l.starts_with("info depth ") && !l.contains(" wld "))
    {
        assert!(
            score_of(line).contains('.'),
            "an evaluation without decimals: {line}"
        );
    }
}

#[test]
fn messages_name_what_is_wrong() {
    let lines = run_script(
        "position startpos moves f5 moves d6\nposition board ---------------------------OX------XO--------------------------- X;\nboard\nplay pass\n",
    );
    assert!(
        lines[0].starts_with("error 'moves' is not a square or move"),
        "{lines:?}"
    );
    // An OBF line is a board string too (the command line's --board took it already).
    assert_eq!(
        lines[1],
        "board ---------------------------OX------XO--------------------------- X"
    );
    assert!(
        lines[2].contains("only legal when there is no placement to make"),
        "{lines:?}"
    );
}

/// The peak resident memory of a process, in MB (Linux's VmHWM).
#[cfg(target_os = "linux")]
fn peak_rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kb / 1024.0
}

#[cfg(target_os = "linux")]
#[test]
fn memory_stays_within_the_hash_size_on_every_board() {
    // A table is made at once but costs memory only once it is touched (by `isready`, `newgame`
    // or a search): a huge table asked for and replaced before that costs nothing, and with
    // hash=N a long search stays under N + 64 MB.
    for (variant, size) in [
        ("othello", 8),
        ("othello", 12),
        ("othello", 16),
        ("lehto", 19),
    ] {
        let mut engine = Engine::start();
        engine.send("setoption hash=4096");
        engine.send(&format!(
            "setoption hash=8 threads=2 book=off variant={variant} size={size}"
        ));
        engine.send("isready");
        assert_eq!(engine.expect_line(Duration::from_secs(20)), "readyok");
        let untouched = peak_rss_mb(engine.child.id());
        assert!(
            untouched < 64.0,
            "{untouched:.1} MB after hash=4096, then 8"
        );
        engine.send("position startpos");
        engine.send("go movetime 1500");
        engine.until("bestmove", Duration::from_secs(30));
        let peak = peak_rss_mb(engine.child.id());
        assert!(
            peak < 8.0 + 64.0,
            "{variant} {size}x{size}: peak {peak:.1} MB with hash=8"
        );
        // `isready` brings a new table's pages in, so that the search does not pay for them.
        engine.send("setoption hash=64");
        engine.send("isready");
        assert_eq!(engine.expect_line(Duration::from_secs(20)), "readyok");
        let ready = peak_rss_mb(engine.child.id());
        assert!(
            ready > peak + 48.0,
            "{variant} {size}x{size}: {ready:.1} MB after hash=64 and isready, {peak:.1} MB before"
        );
        engine.send("go movetime 1500");
        engine.until("bestmove", Duration::from_secs(30));
        let bigger = peak_rss_mb(engine.child.id());
        assert!(
            bigger > peak + 8.0 && bigger < 64.0 + 64.0,
            "{variant} {size}x{size}: peak {bigger:.1} MB with hash=64 after {peak:.1} MB"
        );
    }
}
