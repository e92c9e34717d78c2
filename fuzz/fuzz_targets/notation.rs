//! Board strings, OBF lines and transcripts. Invariants: no panic; what parses writes back to
//! itself (a board string read, written and read again is the same position; a transcript
//! likewise); the position's legal moves are those a plain scan of every square finds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othel::rules::notation::{ObfLine, board_string, parse_transcript, write_transcript};
use othel::rules::{Move, Position, Square};
use othel::with_position_type;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(moves) = parse_transcript(text) {
        let written = write_transcript(&moves);
        let again = parse_transcript(&written).expect("a written transcript reads");
        let kept: Vec<Move> = moves.into_iter().filter(|m| *m != Move::Pass).collect();
        assert_eq!(again, kept);
    }
    let Ok(obf) = text.parse::<ObfLine>() else {
        return;
    };
    let kind = obf.setup.kind();
    with_position_type!(kind, P => {
        let Ok(pos) = obf.setup.to_position::<P>() else { return };
        let written = board_string(&pos);
        let again: ObfLine = written.parse().expect("a written board string reads");
        let pos2 = again.setup.to_position::<P>().expect("and is a position");
        assert_eq!(board_string(&pos2), written);
        // Legal placements: the squares where trying the move succeeds.
        let size = pos.size();
        let mut scanned: Vec<Move> = (0..size * size)
            .map(|i| Move::Place(Square::from_index(i, size)))
            .filter(|&m| pos.try_play(m).is_ok())
            .collect();
        let mut legal: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, Move::Place(_)))
            .collect();
        scanned.sort();
        legal.sort();
        assert_eq!(legal, scanned);
    });
});
