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
