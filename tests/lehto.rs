//! Othel Lehto: the five pictures of the rules (../shared/seeds, 7×7, white placing), the swap
//! rules, cascades of several waves, and a whole 5×5 game.

mod common;

use common::reference::{RefBoard, RefMove};

use othel::rules::geometry::{Geometry, Size5, Size7, Size9};
use othel::rules::lehto::lehto_waves;
use othel::rules::notation::{Setup, board_string};
use othel::rules::{Bits, Color, Game, IllegalReason, Lehto, Move, Position, Square};

type L7 = Lehto<Size7>;

/// A 7×7 position from seven rows (X black, O white, - empty) and the colour to move.
fn board(rows: [&str; 7], to_move: &str) -> L7 {
    format!("{} {to_move}", rows.concat())
        .parse::<Setup>()
        .and_then(|s| s.to_position())
        .expect("a valid 7x7 board")
}

fn rows_of(position: &L7) -> Vec<String> {
    let text = board_string(position);
    let squares = &text[..49];
    (0..7)
        .map(|r| squares[r * 7..r * 7 + 7].to_string())
        .collect()
}

fn place(position: &L7, square: &str) -> L7 {
    position.play(Move::Place(square.parse().expect("a square")))
}

/// palindromes.png without its four white triangles.
const PALINDROMES: [&str; 7] = [
    "O--OX--", // a1 white, d1 white, e1 black
    "-X-----", // b2 black
    "--X----", // c3 black
    "-------", "------X", // g5 black
    "-------", "XX-XX-X", // a7 b7 d7 e7 g7 black
];

#[test]
fn palindromes_picture_white_at_f1_flips_the_row_run() {
    let after = place(&board(PALINDROMES, "O"), "f1");
    assert_eq!(rows_of(&after)[0], "O--OOO-", "d1 e1 f1 read O X O");
}

#[test]
fn palindromes_picture_white_at_d4_flips_the_diagonal_run() {
    let after = place(&board(PALINDROMES, "O"), "d4");
    let rows = rows_of(&after);
    assert_eq!(&rows[..4], ["O--OX--", "-O-----", "--O----", "---O---"]);
}

#[test]
fn palindromes_picture_white_at_g6_flips_the_column_run() {
    let after = place(&board(PALINDROMES, "O"), "g6");
    let rows = rows_of(&after);
    assert_eq!(&rows[4..], ["------O", "------O", "XX-XX-O"]);
}

#[test]
fn palindromes_picture_white_at_c7_flips_the_bottom_row_run() {
    let after = place(&board(PALINDROMES, "O"), "c7");
    assert_eq!(
        rows_of(&after)[6],
        "OOOOO-X",
        "g7 is cut off by the empty f7"
    );
}

/// not-palindromes.png without its three white triangles.
const NOT_PALINDROMES: [&str; 7] = [
    "O------", "-O-----", "--X----", "-------", "------X", "-------", "X--XX--",
];

#[test]
fn not_palindromes_picture_flips_nothing() {
    let start = board(NOT_PALINDROMES, "O");
    for square in ["d4", "g6", "c7"] {
        let after = place(&start, square);
        let expected_count = start.disc_counts();
        assert_eq!(
            after.disc_counts(),
            (expected_count.0, expected_count.1 + 1),
            "white at {square} only adds its own stone"
        );
        assert_eq!(
            after.player(),
            start.opponent(),
            "black's stones are untouched"
        );
    }
}

/// place.png: white is about to play d5.
const PLACE: [&str; 7] = [
    "-------", "---O---", "-XXXXX-", "---X---", "-------", "-------", "-------",
];

/// The board after each wave of white's d5 on the place.png board.
fn place_picture_waves() -> Vec<L7> {
    let start = board(PLACE, "O");
    let d5 = "d5".parse::<Square>().unwrap().index(7).unwrap();
    let mut player = start.player() | <Size7 as Geometry>::Bits::bit(d5);
    let mut opponent = start.opponent();
    let mut boards = Vec::new();
    for wave in lehto_waves::<Size7>(start.player(), start.opponent(), d5) {
        player |= wave;
        opponent &= !wave;
        boards.push(L7::from_discs(opponent, player, Color::Black).unwrap());
    }
    boards
}

#[test]
fn place_picture_white_at_d5_makes_a_palindrome_on_column_d() {
    let waves = place_picture_waves();
    assert_eq!(waves.len(), 2, "two waves flip, the third marks nothing");
}

#[test]
fn first_flip_picture_is_the_board_after_the_first_wave() {
    // first-flip.png: column d white from d2 to d5; row 3 now reads X X O X X.
    assert_eq!(
        rows_of(&place_picture_waves()[0]),
        [
            "-------", "---O---", "-XXOXX-", "---O---", "---O---", "-------", "-------"
        ]
    );
}

#[test]
fn second_flip_picture_is_the_board_after_the_second_wave() {
    // second-flip.png: row 3's palindrome X X O X X flips to white.
    let expected = [
        "-------", "---O---", "-OOOOO-", "---O---", "---O---", "-------", "-------",
    ];
    assert_eq!(rows_of(&place_picture_waves()[1]), expected);
    let after = place(&board(PLACE, "O"), "d5");
    assert_eq!(
        rows_of(&after),
        expected,
        "playing d5 gives the whole cascade"
    );
    assert_eq!(after.side_to_move(), Color::Black);
}

#[test]
fn a_cascade_runs_three_waves() {
    // The place.png board with column b holding O X X X O: the second wave turns b3 white, which
    // makes column b read O X O X O, and the third wave flips b2 and b4.
    let start = board(
        [
            "-O-----", "-X-O---", "-XXXXX-", "-X-X---", "-O-----", "-------", "-------",
        ],
        "O",
    );
    let d5 = "d5".parse::<Square>().unwrap().index(7).unwrap();
    let waves = lehto_waves::<Size7>(start.player(), start.opponent(), d5);
    assert_eq!(
        waves.iter().map(|w| w.count()).collect::<Vec<_>>(),
        [2, 4, 2]
    );
    assert_eq!(
        rows_of(&place(&start, "d5")),
        [
            "-O-----", "-O-O---", "-OOOOO-", "-O-O---", "-O-O---", "-------", "-------"
        ]
    );
}

#[test]
fn waves_are_judged_against_the_board_as_it_stood() {
    // 5×5, white plays e2. Wave 1: row 2 reads O X X O, so c2 and d2 flip. Wave 2 judges c2 and d2
    // on the same board: c2's diagonal d1-c2-b3 reads X O X (d1, b3 flip) and d2's column
    // d1-d2-d3 reads X O X (d1, d3 flip). Judged one after the other, d1 would already be white
    // when d2's column is read (O O X, no palindrome) and d3 would stay black.
    type L5 = Lehto<Size5>;
    let start: L5 = "--OX--OXX--X-XO-------OO- O"
        .parse::<Setup>()
        .unwrap()
        .to_position()
        .unwrap();
    let after = start.play("e2".parse().unwrap());
    assert_eq!(board_string(&after), "--OO--OOOO-O-OO-------OO- X");
    let sequential = "--OO--OOOO-O-XO-------OO- X";
    assert_ne!(board_string(&after), sequential);
    let waves = lehto_waves::<Size5>(start.player(), start.opponent(), 9);
    assert_eq!(waves.len(), 2);
    assert_eq!(
        waves[1].count(),
        3,
        "d1, b3 and d3 flip together in the second wave"
    );
}

#[test]
fn swap_is_legal_only_as_the_second_move() {
    let mut game = Game::new(Lehto::<Size9>::start());
    assert!(!game.position().legal_moves().contains(&Move::Swap));
    let err = game.play(Move::Swap).unwrap_err();
    assert_eq!(err.reason, IllegalReason::CannotSwap);
    game.play("e5".parse().unwrap()).unwrap();
    assert!(game.position().legal_moves().contains(&Move::Swap));
    let before = *game.position();
    game.play(Move::Swap).unwrap();
    let after = *game.position();
    assert_eq!(after.side_to_move(), Color::White, "white moves next");
    assert_eq!(
        board_string(&after),
        board_string(&before),
        "the board stays"
    );
    assert!(!after.can_swap());
    assert_eq!(
        game.play(Move::Swap).unwrap_err().reason,
        IllegalReason::CannotSwap
    );
    game.play("d4".parse().unwrap()).unwrap();
    assert!(!game.position().can_swap(), "no swap after the second move");
    // Without a swap, the third move may not swap either.
    let mut plain = Game::new(Lehto::<Size9>::start());
    plain.play_transcript("e5d4").unwrap();
    assert!(!plain.position().can_swap());
    assert!(plain.play(Move::Swap).is_err());
}

#[test]
fn occupied_squares_and_passes_are_illegal_in_lehto() {
    let mut game = Game::new(Lehto::<Size5>::start());
    game.play("c3".parse().unwrap()).unwrap();
    assert_eq!(
        game.play("c3".parse().unwrap()).unwrap_err().reason,
        IllegalReason::Occupied
    );
    assert_eq!(
        game.play(Move::Pass).unwrap_err().reason,
        IllegalReason::CannotPass
    );
}

#[test]
fn a_full_5x5_game_ends_when_the_board_is_full() {
    let mut game = Game::new(Lehto::<Size5>::start());
    let mut reference = RefBoard::lehto(5);
    // Every square in order, a1 first: long rows make long palindromes and cascades.
    for index in 0..25 {
        assert!(!game.position().is_game_over());
        let (row, col) = (index / 5, index % 5);
        let mv: Move = RefMove::Place(row, col).name().parse().unwrap();
        game.play(mv).unwrap();
        reference.play(RefMove::Place(row, col));
        assert_eq!(
            board_string(game.position()),
            reference.board_string(),
            "after {mv}"
        );
    }
    let end = game.position();
    assert!(end.is_game_over());
    assert!(end.legal_moves().is_empty());
    let (black, white) = end.disc_counts();
    assert_eq!(black + white, 25);
    assert_eq!(end.final_score(), reference.final_score());
    assert_eq!(end.final_score().unsigned_abs(), black.abs_diff(white));
}

/// `first_waves` gives, from one walk, the first wave of the cascade for either player placing.
fn first_waves_match_the_cascades<G: Geometry>(boards: u64) {
    use othel::rules::lehto::first_waves;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut checked = 0;
    for _ in 0..boards {
        let (mut player, mut opponent) = (G::Bits::ZERO, G::Bits::ZERO);
        for sq in 0..G::SQUARES {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 3 {
                0 => player |= G::Bits::bit(sq),
                1 => opponent |= G::Bits::bit(sq),
                _ => {}
            }
        }
        let empties = (0..G::SQUARES).filter(|&sq| !(player | opponent).has(sq));
        for sq in empties {
            let first = |p, o| {
                lehto_waves::<G>(p, o, sq)
                    .first()
                    .copied()
                    .unwrap_or(G::Bits::ZERO)
            };
            let waves = first_waves::<G>(player, opponent, sq);
            assert_eq!(waves, (first(player, opponent), first(opponent, player)));
            checked += (waves != (G::Bits::ZERO, G::Bits::ZERO)) as u32;
        }
    }
    assert!(checked > 0, "no placement marked anything");
}

#[test]
fn first_waves_of_both_players_match_the_cascades() {
    first_waves_match_the_cascades::<Size5>(200);
    first_waves_match_the_cascades::<Size9>(100);
}
