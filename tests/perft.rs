//! Perft driven by tests/data/perft.txt: the fast boards against the pinned counts, and the plain
//! reference board against the same counts.

mod common;

use common::reference::RefBoard;
use othel::rules::notation::Setup;
use othel::rules::{BoardKind, Move, Position, Variant, perft};
use othel::with_position_type;

struct Case {
    kind: BoardKind,
    depth: u32,
    nodes: u64,
    slow: bool,
    board: Option<String>,
    line: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (fields, board) = match line.split_once('|') {
                Some((f, b)) => (f, Some(b.trim().to_string())),
                None => (line, None),
            };
            let words: Vec<&str> = fields.split_whitespace().collect();
            let variant: Variant = words[0].parse().expect("variant");
            let size: usize = words[1].parse().expect("size");
            Case {
                kind: BoardKind::new(variant, size).expect("allowed size"),
                depth: words[2].parse().expect("depth"),
                nodes: words[3].parse().expect("nodes"),
                slow: words.get(4) == Some(&"slow"),
                board,
                line: line.to_string(),
            }
        })
        .collect()
}

fn start<P: Position>(case: &Case) -> P {
    match &case.board {
        Some(text) => text
            .parse::<Setup>()
            .and_then(|s| s.to_position())
            .expect("a valid board string"),
        None => P::start(),
    }
}

fn check_fast(slow: bool, threads: usize) {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.slow == slow) {
        let nodes = with_position_type!(case.kind, P => {
            perft::run(&start::<P>(case), case.depth, threads).nodes
        });
        assert_eq!(nodes, case.nodes, "{}", case.line);
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn perft_counts_from_the_data_file() {
    check_fast(false, 1);
}

#[test]
fn perft_counts_agree_on_two_threads() {
    check_fast(false, 2);
}

#[test]
#[ignore = "slow: run in release by .ci/run"]
fn slow_perft_counts_from_the_data_file() {
    check_fast(true, 2);
}

fn reference_board(case: &Case) -> RefBoard {
    let lehto = case.kind.variant() == Variant::Lehto;
    let mut board = RefBoard::new(lehto, case.kind.size());
    if let Some(text) = &case.board {
        let setup: Setup = text.parse().expect("a valid board string");
        for (i, square) in setup.squares().iter().enumerate() {
            use common::reference::Cell;
            board.cells[i / case.kind.size()][i % case.kind.size()] = match square {
                Some(othel::rules::Color::Black) => Cell::Black,
                Some(othel::rules::Color::White) => Cell::White,
                None => Cell::Empty,
            };
        }
        board.to_move = match setup.side_to_move() {
            othel::rules::Color::Black => common::reference::Cell::Black,
            othel::rules::Color::White => common::reference::Cell::White,
        };
    }
    board
}

fn check_reference(max_nodes: u64) {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.nodes <= max_nodes) {
        assert_eq!(
            reference_board(case).perft(case.depth),
            case.nodes,
            "{}",
            case.line
        );
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn reference_board_agrees_with_the_pinned_counts() {
    check_reference(300_000);
}

#[test]
#[ignore = "slow: run in release by .ci/run"]
fn reference_board_agrees_with_the_larger_pinned_counts() {
    check_reference(20_000_000);
}

/// Black has no placement on this 4×4 board but white has one (d1): black's pass is a ply.
const BLACK_MUST_PASS: &str = "OOX------------- X";

#[test]
fn pass_counts_as_a_ply() {
    let kind = BoardKind::new(Variant::Othello, 4).unwrap();
    with_position_type!(kind, P => {
        let pos: P = BLACK_MUST_PASS.parse::<Setup>().unwrap().to_position().unwrap();
        assert_eq!(pos.legal_moves(), vec![Move::Pass]);
        assert_eq!(perft::perft(&pos, 1), 1, "the pass itself is the one leaf");
        let after_pass = pos.play(Move::Pass);
        assert_eq!(
            perft::perft(&pos, 2),
            after_pass.legal_moves().len() as u64,
            "depth 2 counts white's replies to the pass"
        );
    });
}

#[test]
fn finished_game_is_a_leaf() {
    let kind = BoardKind::new(Variant::Othello, 4).unwrap();
    with_position_type!(kind, P => {
        // White's d1 takes black's last disc: the game ends after one ply.
        let pos: P = "OOX------------- O".parse::<Setup>().unwrap().to_position().unwrap();
        let over = pos.play("d1".parse().unwrap());
        assert!(over.is_game_over());
        assert_eq!(over.legal_moves(), vec![]);
        for depth in 1..6 {
            assert_eq!(perft::perft(&over, depth), 1);
            assert_eq!(perft::perft(&pos, depth), 1);
        }
        assert_eq!(perft::perft(&pos, 0), 1);
    });
}
