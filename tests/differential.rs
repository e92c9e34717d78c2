//! The fast boards against the plain reference board: seeded random games on every size of both
//! variants, with the legal moves and the board compared at every ply.

mod common;

use common::reference::{RefBoard, RefMove};
use othel::rules::notation::board_string;
use othel::rules::{BoardKind, Move, Position, Variant};
use othel::with_position_type;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn play_random_games<P: Position>(games: usize, seed: u64) {
    let lehto = P::VARIANT == Variant::Lehto;
    let size = P::start().size();
    let mut rng = StdRng::seed_from_u64(seed);
    for game in 0..games {
        let mut fast = P::start();
        let mut reference = RefBoard::new(lehto, size);
        for ply in 0.. {
            let where_ = format!("{} {size}x{size} game {game} ply {ply}", P::VARIANT);
            assert_eq!(board_string(&fast), reference.board_string(), "{where_}");
            let fast_moves: Vec<String> = fast.legal_moves().iter().map(Move::to_string).collect();
            let ref_moves: Vec<RefMove> = reference.legal_moves();
            let ref_names: Vec<String> = ref_moves.iter().map(|m| m.name()).collect();
            assert_eq!(fast_moves, ref_names, "{where_}");
            assert_eq!(fast.is_game_over(), reference.is_over(), "{where_}");
            if ref_moves.is_empty() {
                assert_eq!(fast.final_score(), reference.final_score(), "{where_}");
                break;
            }
            let pick = rng.random_range(0..ref_moves.len());
            let mv: Move = ref_names[pick].parse().expect("the reference names moves");
            fast = fast.try_play(mv).expect("the reference's move is legal");
            reference.play(ref_moves[pick]);
        }
    }
}

fn check_variant(variant: Variant, sizes: &[usize], games: usize) {
    for &size in sizes {
        let kind = BoardKind::new(variant, size).expect("an allowed size");
        with_position_type!(kind, P => play_random_games::<P>(games, 1000 + size as u64));
    }
}

#[test]
fn othello_boards_agree_with_the_reference_on_every_size() {
    check_variant(Variant::Othello, &[4, 6, 8, 10, 12, 14, 16], 40);
}

#[test]
fn lehto_boards_agree_with_the_reference_on_every_size() {
    check_variant(Variant::Lehto, &[5, 7, 9, 11, 13, 15, 17, 19], 6);
}

#[test]
fn many_8x8_games_agree_with_the_reference() {
    let kind = BoardKind::default();
    with_position_type!(kind, P => play_random_games::<P>(1000, 8));
}

/// Stable discs, as the solver's cut-off counts them, never flip for the rest of a game.
fn stable_discs_never_flip<G: othel::rules::othello::OthelloGeometry>(games: usize) {
    use othel::rules::Bits;
    use othel::rules::othello::stable_discs;
    let mut rng = StdRng::seed_from_u64(77);
    for _ in 0..games {
        let mut line = vec![othel::rules::Othello::<G>::start()];
        while !line.last().unwrap().is_game_over() {
            let moves = line.last().unwrap().legal_moves();
            let next = line
                .last()
                .unwrap()
                .play(moves[rng.random_range(0..moves.len())]);
            line.push(next);
        }
        for (i, pos) in line.iter().enumerate() {
            let occupied = pos.player() | pos.opponent();
            let black = stable_discs::<G>(pos.black(), occupied);
            let white = stable_discs::<G>(pos.white(), occupied);
            assert!((black & !pos.black()).is_empty() && (white & !pos.white()).is_empty());
            for later in &line[i..] {
                assert_eq!(later.black() & black, black, "a stable black disc flipped");
                assert_eq!(later.white() & white, white, "a stable white disc flipped");
            }
            if pos.is_game_over() && pos.empties().is_empty() {
                assert_eq!(
                    black | white,
                    occupied,
                    "on a full board every disc is stable"
                );
            }
        }
    }
}

/// The 8×8 layout's fast stable discs (edge table included) never flip for the rest of a game.
#[test]
fn fast_8x8_stable_discs_never_flip() {
    use othel::rules::Othello;
    use othel::rules::geometry::Size8;
    use othel::rules::stability8::stable_discs8;
    let mut rng = StdRng::seed_from_u64(78);
    for _ in 0..300 {
        let mut line = vec![Othello::<Size8>::start()];
        while let Some(pos) = line.last().filter(|p| !p.is_game_over()) {
            let moves = pos.legal_moves();
            let next = pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            line.push(next);
        }
        for (i, pos) in line.iter().enumerate() {
            let occupied = pos.black() | pos.white();
            let black = stable_discs8(pos.black(), occupied, !0);
            let white = stable_discs8(pos.white(), occupied, !0);
            for later in &line[i..] {
                assert_eq!(later.black() & black, black, "a stable black disc flipped");
                assert_eq!(later.white() & white, white, "a stable white disc flipped");
            }
        }
    }
}

#[test]
fn stable_discs_never_flip_on_any_othello_size() {
    use othel::rules::geometry::*;
    stable_discs_never_flip::<Size4>(200);
    stable_discs_never_flip::<Size6>(100);
    stable_discs_never_flip::<Size8>(100);
    stable_discs_never_flip::<Size10>(20);
    stable_discs_never_flip::<Size16>(3);
}
