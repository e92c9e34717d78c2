//! A human-readable picture of a position: coordinates, discs, legal moves, counts and the result.

use super::bits::Bits;
use super::position::Position;
use super::variant::Color;
use std::fmt::Write;

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black (X)",
        Color::White => "white (O)",
    }
}

/// The diagram: one line a row, `X` black, `O` white, `*` a legal placement, `-` empty; then the
/// disc counts, the colour to move and the legal moves, or the result when the game is over.
pub fn diagram<P: Position>(position: &P) -> String {
    let size = position.size();
    let (black, white) = (position.black(), position.white());
    let legal = position.placements();
    let mut out = String::new();
    let header: String = (0..size)
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    let _ = writeln!(out, "   {header}");
    for row in 0..size {
        let _ = write!(out, "{:>2} ", row + 1);
        for col in 0..size {
            let i = row * size + col;
            let c = if black.has(i) {
                'X'
            } else if white.has(i) {
                'O'
            } else if legal.has(i) && !position.is_game_over() {
                '*'
            } else {
                '-'
            };
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    let (b, w) = position.disc_counts();
    let _ = writeln!(out, "black (X) {b}, white (O) {w}");
    if position.is_game_over() {
        let score = position.final_score();
        let black_margin = if position.side_to_move() == Color::Black {
            score
        } else {
            -score
        };
        let result = match black_margin {
            0 => "a draw".to_string(),
            m if m > 0 => format!("black wins by {m}"),
            m => format!("white wins by {}", -m),
        };
        let _ = writeln!(out, "game over: {result}");
    } else {
        let moves: Vec<String> = position
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        let _ = writeln!(out, "{} to move", color_name(position.side_to_move()));
        let _ = writeln!(out, "legal moves: {}", moves.join(" "));
    }
    out
}
