//! Round trips: board strings, transcripts and GGF records written then read give the same game, on
//! every size of both variants; OBF files read.

mod common;

use othel::rules::ggf::GgfRecord;
use othel::rules::notation::{ObfLine, Setup, board_string, parse_transcript};
use othel::rules::{BoardKind, Game, Position, Variant};
use othel::with_position_type;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn random_game<P: Position>(rng: &mut StdRng) -> Game<P> {
    let mut game = Game::new(P::start());
    while !game.position().is_game_over() {
        let moves = game.position().legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        game.play(mv).expect("a legal move");
    }
    // Some games stop early, as a game record often does.
    let keep = rng.random_range(0..=game.moves().len());
    while game.moves().len() > keep {
        game.undo();
    }
    game
}

fn round_trips<P: Position>(games: usize) {
    let mut rng = StdRng::seed_from_u64(42);
    for _ in 0..games {
        let game = random_game::<P>(&mut rng);
        for pos in game.positions() {
            let text = board_string(pos);
            let back: P = text.parse::<Setup>().unwrap().to_position().unwrap();
            assert_eq!(back.player(), pos.player(), "{text}");
            assert_eq!(back.opponent(), pos.opponent(), "{text}");
            assert_eq!(back.side_to_move(), pos.side_to_move(), "{text}");
        }

        let transcript = game.transcript();
        let mut replayed = Game::new(P::start());
        replayed.play_transcript(&transcript).unwrap();
        assert_eq!(replayed, game, "transcript {transcript}");
        assert_eq!(
            parse_transcript(&transcript).unwrap().len(),
            game.moves()
                .iter()
                .filter(|m| **m != othel::rules::Move::Pass)
                .count()
        );

        let record = GgfRecord::from_game(&game, vec![("PB".into(), "black [1]".into())]);
        let text = record.to_string();
        let read: GgfRecord = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(read.to_game::<P>().unwrap(), game, "{text}");
        assert_eq!(
            read.properties[0],
            ("PB".to_string(), "black [1]".to_string())
        );
        assert_eq!(read.to_string(), text);
    }
}

#[test]
fn games_round_trip_on_every_size_of_both_variants() {
    for size in 4..=19 {
        let Some(variant) = Variant::for_size(size) else {
            continue;
        };
        let kind = BoardKind::new(variant, size).unwrap();
        with_position_type!(kind, P => round_trips::<P>(if size <= 9 { 30 } else { 5 }));
    }
}

#[test]
fn a_finished_game_records_black_s_margin() {
    let mut rng = StdRng::seed_from_u64(7);
    let kind = BoardKind::new(Variant::Othello, 6).unwrap();
    with_position_type!(kind, P => {
        let mut game = Game::new(P::start());
        while !game.position().is_game_over() {
            let moves = game.position().legal_moves();
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        let (black, white) = game.position().disc_counts();
        let record = GgfRecord::from_game(&game, vec![]).to_string();
        let margin = black as i32 - white as i32;
        let empties = 36 - black as i32 - white as i32;
        let margin = margin + margin.signum() * empties;
        assert!(record.contains(&format!("RE[{margin:+}.000]")), "{record}");
    });
}

#[test]
fn ffo_files_read_with_their_scores() {
    for file in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let Some(path) = common::shared_data(&format!("ffo/{file}")) else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let obf: ObfLine = line.parse().unwrap_or_else(|e| panic!("{e}: {line}"));
            assert_eq!(obf.setup.kind(), BoardKind::default());
            assert!(!obf.scores.is_empty());
            let pos: othel::rules::Othello<othel::rules::geometry::Size8> =
                obf.setup.to_position().unwrap();
            for (mv, _) in &obf.scores {
                assert!(pos.try_play(*mv).is_ok(), "{mv} is legal in {line}");
            }
        }
    }
}

#[test]
fn xot_openings_replay() {
    let Some(path) = common::shared_data("openings/xot-large.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut game = Game::<othel::rules::Othello<othel::rules::geometry::Size8>>::default();
        game.play_transcript(line)
            .unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(game.moves().len(), 8);
        count += 1;
    }
    assert_eq!(count, 10784);
}
