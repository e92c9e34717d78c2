//! The game the controller holds, behind an object-safe trait so that the variant and size can
//! change at run time while everything below stays monomorphised.

use crate::book::build::{Builder, Growth};
use crate::book::{Book, BookMove};
use crate::eval::{Evaluate, Term};
use crate::rules::diagram::diagram;
use crate::rules::game::GameError;
use crate::rules::ggf::{GgfError, GgfRecord};
use crate::rules::notation::{Setup, board_string};
use crate::rules::perft::{self, PerftReport};
use crate::rules::{BoardKind, Color, Game, IllegalMove, Move};
use crate::search::{Limits, PonderHit, Report, SearchResult, Searcher};
use crate::with_position_type;
use std::sync::atomic::AtomicBool;

/// A game of any variant and size.
pub trait Session: Send {
    /// The variant and size.
    fn kind(&self) -> BoardKind;
    /// The colour to move.
    fn side_to_move(&self) -> Color;
    /// Replaces the game: from `setup` (or the start) with `moves` played. On an error the game is
    /// unchanged.
    fn set(&mut self, setup: Option<&Setup>, moves: &[Move]) -> Result<(), GameError>;
    /// Replaces the game by a GGF record's.
    fn set_ggf(&mut self, record: &GgfRecord) -> Result<(), GgfError>;
    /// The game as a GGF record with these extra properties (`PB`, `PW`, …).
    fn record(&self, properties: Vec<(String, String)>) -> GgfRecord;
    /// Plays one move.
    fn play(&mut self, mv: Move) -> Result<(), IllegalMove>;
    /// Takes back one move.
    fn undo(&mut self) -> Option<Move>;
    /// The legal moves.
    fn legal_moves(&self) -> Vec<Move>;
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// The board string.
    fn board_string(&self) -> String;
    /// The diagram.
    fn diagram(&self) -> String;
    /// The static evaluation's terms.
    fn eval_terms(&self) -> Vec<Term>;
    /// Loads the evaluation of the board (its weights are decoded at their first use), so that
    /// the next search spends its time searching ([`super::ready_for_search`]).
    fn load_evaluation(&self) {
        let _ = self.eval_terms();
    }
    /// Empty squares left.
    fn empties(&self) -> u32;
    /// Moves played since the start (passes count).
    fn moves_made(&self) -> usize;
    /// Whether the player to move has no move but to pass.
    fn must_pass(&self) -> bool;
    /// Black's disc margin: the final score when the game is over (empty squares to the winner),
    /// else the discs on the board now.
    fn black_margin(&self) -> i32;
    /// Perft from the position.
    fn perft(&self, depth: u32, threads: usize) -> PerftReport;
    /// The book moves of the position, best first.
    fn book_moves(&self, book: &Book) -> Vec<BookMove>;
    /// The book move to play within `window` centi-discs of the best (`pick` draws an index).
    fn book_choice(
        &self,
        book: &Book,
        window: i32,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<BookMove>;
    /// Adds the game's first `plies` positions to `book`, new ones searched to `depth`; returns
    /// how many were new.
    fn learn(&self, book: &mut Book, searcher: &Searcher, depth: u32, plies: usize) -> usize;
    /// A copy that a search thread can own.
    fn boxed_clone(&self) -> Box<dyn Session>;
    /// Searches the position, or ponders it with `ponder` (see [`Searcher::search_or_ponder`]).
    fn search_or_ponder(
        &self,
        searcher: &Searcher,
        limits: &Limits,
        stop: &AtomicBool,
        ponder: Option<&PonderHit>,
        on_report: &mut (dyn FnMut(&Report) + Send),
    ) -> SearchResult;
    /// Searches the position.
    fn search(
        &self,
        searcher: &Searcher,
        limits: &Limits,
        stop: &AtomicBool,
        on_report: &mut (dyn FnMut(&Report) + Send),
    ) -> SearchResult {
        self.search_or_ponder(searcher, limits, stop, None, on_report)
    }
}

struct GameSession<P: Evaluate>(Game<P>);

impl<P: Evaluate> Session for GameSession<P> {
    fn kind(&self) -> BoardKind {
        BoardKind::new(P::VARIANT, self.0.position().size()).unwrap_or_default()
    }
    fn side_to_move(&self) -> Color {
        self.0.position().side_to_move()
    }
    fn set(&mut self, setup: Option<&Setup>, moves: &[Move]) -> Result<(), GameError> {
        let start = match setup {
            Some(s) => s.to_position::<P>().map_err(GameError::Notation)?,
            None => P::start(),
        };
        let mut game = Game::new(start);
        game.play_all(moves)?;
        self.0 = game;
        Ok(())
    }
    fn set_ggf(&mut self, record: &GgfRecord) -> Result<(), GgfError> {
        self.0 = record.to_game::<P>()?;
        Ok(())
    }
    fn record(&self, properties: Vec<(String, String)>) -> GgfRecord {
        GgfRecord::from_game(&self.0, properties)
    }
    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.0.play(mv)
    }
    fn undo(&mut self) -> Option<Move> {
        self.0.undo()
    }
    fn legal_moves(&self) -> Vec<Move> {
        self.0.position().legal_moves()
    }
    fn is_over(&self) -> bool {
        self.0.position().is_game_over()
    }
    fn board_string(&self) -> String {
        board_string(self.0.position())
    }
    fn diagram(&self) -> String {
        diagram(self.0.position())
    }
    fn eval_terms(&self) -> Vec<Term> {
        self.0.position().terms().as_ref().to_vec()
    }
    fn empties(&self) -> u32 {
        self.0.position().empty_count()
    }
    fn moves_made(&self) -> usize {
        self.0.moves().len()
    }
    fn must_pass(&self) -> bool {
        self.0.position().must_pass()
    }
    fn black_margin(&self) -> i32 {
        let pos = self.0.position();
        if pos.is_game_over() {
            pos.black_final_score()
        } else {
            let (black, white) = pos.disc_counts();
            black as i32 - white as i32
        }
    }
    fn perft(&self, depth: u32, threads: usize) -> PerftReport {
        perft::run(self.0.position(), depth, threads)
    }
    fn book_moves(&self, book: &Book) -> Vec<BookMove> {
        book.moves(self.0.position())
    }
    fn book_choice(
        &self,
        book: &Book,
        window: i32,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<BookMove> {
        book.choose(self.0.position(), window, pick)
    }
    fn learn(&self, book: &mut Book, searcher: &Searcher, depth: u32, plies: usize) -> usize {
        let growth = Growth {
            plies: 0,
            depth,
            width: 0,
        };
        let mut builder = Builder::new(searcher, growth, |_: usize, _: &Book| {});
        let moves = self.0.moves();
        builder.add_game(book, self.0.start(), &moves[..plies.min(moves.len())]);
        builder.searched()
    }
    fn boxed_clone(&self) -> Box<dyn Session> {
        Box::new(GameSession(self.0.clone()))
    }
    fn search_or_ponder(
        &self,
        searcher: &Searcher,
        limits: &Limits,
        stop: &AtomicBool,
        ponder: Option<&PonderHit>,
        on_report: &mut (dyn FnMut(&Report) + Send),
    ) -> SearchResult {
        searcher.search_or_ponder(self.0.position(), limits, stop, ponder, on_report)
    }
}

/// A new game of `kind` from its start position.
pub fn new_session(kind: BoardKind) -> Box<dyn Session> {
    with_position_type!(kind, P => Box::new(GameSession::<P>(Game::default())))
}
