//! Property tests: no line makes the parsers panic, and no sequence of valid and invalid commands
//! makes the controller (or the GTP engine) panic.

use othel::protocol::command::{Command, parse};
use othel::protocol::controller::{Controller, Flow};
use othel::protocol::gtp::GtpEngine;
use othel::protocol::output::Output;
use othel::protocol::{gtp, nboard};
use othel::search::Searcher;
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn gtp_line() -> impl Strategy<Value = String> {
    let vertex = "[a-tA-T][0-9]{1,2}|pass|PASS";
    prop_oneof![
        prop_oneof![
            Just("protocol_version"),
            Just("name"),
            Just("list_commands"),
            Just("clear_board"),
            Just("undo"),
            Just("showboard"),
            Just("final_score"),
            Just("gogui-rules_board"),
            Just("gogui-rules_legal_moves"),
            Just("gogui-rules_final_result"),
        ]
        .prop_map(str::to_string),
        (0usize..20).prop_map(|n| format!("boardsize {n}")),
        ("[bwx]", vertex).prop_map(|(c, v)| format!("play {c} {v}")),
        "[bwx]".prop_map(|c| format!("genmove {c}")),
        ("[0-9]{1,3}", "-?[0-9]{1,3}").prop_map(|(a, b)| format!("time_settings {a} {b} 0")),
        "[ -~]{0,60}",
    ]
}

fn command_line() -> impl Strategy<Value = String> {
    let square = "[a-t][0-9]{1,2}";
    prop_oneof![
        Just("othel".to_string()),
        Just("isready".to_string()),
        Just("newgame".to_string()),
        Just("moves".to_string()),
        Just("board".to_string()),
        Just("d".to_string()),
        Just("undo".to_string()),
        Just("eval".to_string()),
        Just("stop".to_string()),
        Just("ponderhit".to_string()),
        Just("play pass".to_string()),
        Just("play swap".to_string()),
        Just("position startpos".to_string()),
        square.prop_map(|s| format!("play {s}")),
        proptest::collection::vec(square, 0..6)
            .prop_map(|m| format!("position startpos moves {}", m.join(" "))),
        (0u32..4).prop_map(|d| format!("go depth {d}")),
        (0u32..4).prop_map(|d| format!("go ponder depth {d}")),
        (0u32..4).prop_map(|d| format!("perft {d}")),
        (0usize..4).prop_map(|k| format!("go depth 2 multipv {k}")),
        prop_oneof![Just("othello"), Just("lehto"), Just("chess")]
            .prop_flat_map(|v| (Just(v), 0usize..22))
            .prop_map(|(v, s)| format!("setoption variant={v} size={s}")),
        (0usize..5).prop_map(|t| format!("setoption threads={t} hash={t}")),
        "[XO.-]{0,40} [XOZ]".prop_map(|b| format!("position board {b}")),
        "[ -~]{0,60}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_line_makes_the_parser_panic(line in "\\PC{0,200}") {
        let _ = parse(&line);
    }

    #[test]
    fn no_command_sequence_makes_the_controller_panic(
        lines in proptest::collection::vec(command_line(), 1..30)
    ) {
        let out = Arc::new(Output::to(Box::new(std::io::sink())));
        let stop = Arc::new(AtomicBool::new(false));
        let mut controller = Controller::new(out, stop).expect("a controller");
        for line in &lines {
            if let Ok(command) = parse(line)
                && controller.handle(command, line) == Flow::Quit
            {
                break;
            }
        }
        // As the engine does at the end of its input: a `go ponder` still waiting for its
        // `ponderhit` stops.
        controller.end_of_input();
    }

    #[test]
    fn no_line_makes_the_nboard_or_gtp_parsers_panic(line in "\\PC{0,200}") {
        let _ = nboard::parse(&line);
        let _ = gtp::parse_line(&line);
        let _ = gtp::looks_like_gtp(&line);
    }

    #[test]
    fn no_command_sequence_makes_the_gtp_engine_panic(
        lines in proptest::collection::vec(gtp_line(), 1..30)
    ) {
        let searcher = Searcher::new(1, 1).expect("a searcher");
        let mut engine = GtpEngine::new(searcher, Some(1));
        for line in &lines {
            if let Some(response) = engine.respond(line) {
                prop_assert!(response.text.ends_with("\n\n"));
                prop_assert!(!response.text.trim_end().contains("\n\n"));
                if response.quit {
                    break;
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Through the real binary: any script of valid and invalid lines ends in a clean exit, every
    /// `isready` is answered, every line that does not parse gets an error line, and every `go`
    /// either ends in one `bestmove` or is refused with an error.
    #[test]
    fn every_script_gets_its_answers(lines in proptest::collection::vec(command_line(), 1..25)) {
        use std::io::Write;
        let script = lines.join("\n") + "\nisready\n";
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_othel"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("othel starts");
        child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("it reads");
        let out = child.wait_with_output().expect("it ends");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        prop_assert!(out.status.success(), "{script}\n{stderr}");
        prop_assert!(!stderr.contains("panicked"), "{stderr}");
        // A first line in another protocol's shape starts that protocol; its answers are checked
        // by the GTP and NBoard tests.
        let first = script.lines().next().unwrap_or("");
        if first.split_whitespace().next() == Some("nboard") || gtp::looks_like_gtp(first) {
            return Ok(());
        }
        let count = |prefix: &str| stdout.lines().filter(|l| l.starts_with(prefix)).count();
        // What the engine saw, classified by its own parser (commands are case-insensitive, so
        // `Go` is a search and `ISREADY` is answered), up to a `quit` if the script holds one.
        let mut seen = script.lines().map(parse).collect::<Vec<_>>();
        if let Some(quit) = seen.iter().position(|c| matches!(c, Ok(Command::Quit))) {
            seen.truncate(quit);
        }
        let sent = |wanted: fn(&Command) -> bool| {
            seen.iter().filter(|c| c.as_ref().is_ok_and(wanted)).count()
        };
        let sent_isready = sent(|c| matches!(c, Command::IsReady));
        prop_assert_eq!(count("readyok"), sent_isready, "{}\n{}", script, stdout);
        let unparseable = script
            .lines()
            .zip(&seen)
            .filter(|(l, c)| !l.trim().is_empty() && c.is_err())
            .count();
        prop_assert!(count("error") >= unparseable, "{}\n{}", script, stdout);
        let gos = sent(|c| matches!(c, Command::Go(_)));
        prop_assert!(count("bestmove") <= gos, "{}\n{}", script, stdout);
        prop_assert!(count("bestmove") + count("error") >= gos, "{}\n{}", script, stdout);
    }
}
