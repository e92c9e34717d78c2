//! A game: a start position and the moves played from it, with undo.

use super::notation::{self, NotationError};
use super::position::{IllegalMove, Position};
use super::square::Move;
use std::fmt;

/// A game of one variant and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<P: Position> {
    /// The position before the first move and every one after, so undo is a pop.
    positions: Vec<P>,
    moves: Vec<Move>,
}

/// Why a sequence of moves could not be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameError {
    /// The moves could not be read.
    Notation(NotationError),
    /// Move number `ply` (from 1) is illegal.
    Illegal {
        /// Which move of the sequence, from 1.
        ply: usize,
        /// The move and why it is illegal.
        error: IllegalMove,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GameError::Notation(e) => e.fmt(f),
            GameError::Illegal { ply, error } => write!(f, "move {ply}: {error}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<NotationError> for GameError {
    fn from(e: NotationError) -> Self {
        GameError::Notation(e)
    }
}

impl<P: Position> Default for Game<P> {
    fn default() -> Self {
        Game::new(P::start())
    }
}

impl<P: Position> Game<P> {
    /// A game from `start`.
    pub fn new(start: P) -> Self {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The position now.
    pub fn position(&self) -> &P {
        // Never empty: `new` pushes the start and `undo` keeps it.
        &self.positions[self.positions.len() - 1]
    }

    /// The position before the first move.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// Plays a move, or leaves the game as it is and says why the move is illegal.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let next = self.position().try_play(mv)?;
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Plays a move, first passing for the player to move when it must pass and the move is a
    /// placement (as transcripts leave passes out).
    pub fn play_with_implicit_pass(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if matches!(mv, Move::Place(_)) && self.position().must_pass() {
            let after_pass = self.position().play_pass_unchecked();
            let next = after_pass.try_play(mv)?;
            self.positions.extend([after_pass, next]);
            self.moves.extend([Move::Pass, mv]);
            Ok(())
        } else {
            self.play(mv)
        }
    }

    /// Plays a sequence of moves with implicit passes; on an illegal move the game is left as it
    /// was before the call.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), GameError> {
        let mut trial = self.clone();
        for (i, &mv) in moves.iter().enumerate() {
            trial
                .play_with_implicit_pass(mv)
                .map_err(|error| GameError::Illegal { ply: i + 1, error })?;
        }
        *self = trial;
        Ok(())
    }

    /// Reads a transcript and plays it (see [`Game::play_all`]).
    pub fn play_transcript(&mut self, transcript: &str) -> Result<(), GameError> {
        let moves = notation::parse_transcript(transcript)?;
        self.play_all(&moves)
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// The moves as a transcript (passes left out).
    pub fn transcript(&self) -> String {
        notation::write_transcript(&self.moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Size8;
    use crate::rules::{Othello, Square};

    #[test]
    fn an_illegal_move_in_a_transcript_leaves_the_game_unchanged() {
        let mut game = Game::<Othello<Size8>>::default();
        game.play_transcript("f5d6").unwrap();
        let before = game.clone();
        let err = game.play_transcript("c3a1").unwrap_err();
        assert!(matches!(err, GameError::Illegal { ply: 2, .. }), "{err}");
        assert_eq!(game, before);
        assert_eq!(
            game.undo(),
            Some(Move::Place("d6".parse::<Square>().unwrap()))
        );
        assert_eq!(game.transcript(), "f5");
    }
}
