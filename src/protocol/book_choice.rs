//! The opening book as the protocols use it: which book (`book=on|off|PATH`), how much variety
//! (`bookrandom=D`), and the move it answers with.

use super::session::Session;
use crate::book::{Book, BookMove, embedded};
use crate::rules::{BoardKind, Position};
use rand::RngExt;
use std::sync::Arc;

/// Which book the engine uses.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum BookSetting {
    /// The book built into the binary for the variant and size.
    #[default]
    On,
    /// No book.
    Off,
    /// A book file.
    Path(String),
}

impl BookSetting {
    /// Reads `on`, `off` or a path.
    pub fn parse(value: &str) -> BookSetting {
        // Keywords in any case, as every keyword of the protocol; anything else is a file.
        match value.to_ascii_lowercase().as_str() {
            "on" | "true" | "default" => BookSetting::On,
            "off" | "false" | "none" => BookSetting::Off,
            _ => BookSetting::Path(value.to_string()),
        }
    }
}

impl std::fmt::Display for BookSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            BookSetting::On => f.write_str("on"),
            BookSetting::Off => f.write_str("off"),
            BookSetting::Path(p) => f.write_str(p),
        }
    }
}

/// The book in use and how moves are drawn from it.
#[derive(Clone, Debug, Default)]
pub struct BookChoice {
    /// The setting.
    pub setting: BookSetting,
    /// The book for the current variant and size, when there is one.
    pub book: Option<Arc<Book>>,
    /// Play any move within this many centi-discs of the best (0: the best).
    pub window: i32,
    /// Where a file book came from (for learning into it).
    pub file: Option<String>,
}

impl BookChoice {
    /// Loads the book `setting` names for `kind`. A file that cannot be read is an error, and the
    /// engine is left without a book (the protocols go on without one; a one-shot command stops). The
    /// error names the file but not that it is a book: the caller says so.
    pub fn load(&mut self, setting: BookSetting, kind: BoardKind) -> Result<(), String> {
        self.setting = setting;
        self.book = None;
        self.file = None;
        match &self.setting {
            BookSetting::Off => Ok(()),
            BookSetting::On => {
                self.book = embedded(kind).filter(|b| !b.is_empty()).map(Arc::new);
                Ok(())
            }
            BookSetting::Path(path) => {
                // A path can be anything a user typed: quoted, and shortened when long.
                let name = super::command::quote(path);
                let book =
                    Book::load(std::path::Path::new(path)).map_err(|e| format!("{name}: {e}"))?;
                if book.kind() != kind {
                    return Err(format!("{name} is for {}, not {kind}", book.kind()));
                }
                self.book = Some(Arc::new(book));
                self.file = Some(path.clone());
                Ok(())
            }
        }
    }

    /// The same book for another variant or size: the built-in one of that kind, or the file
    /// when it is of that kind.
    pub fn follow_kind(&mut self, kind: BoardKind) {
        if self.book.as_ref().is_some_and(|b| b.kind() == kind) {
            return;
        }
        if let Err(e) = self.load(self.setting.clone(), kind) {
            log::warn!("book {e}; going on without a book");
        }
    }

    /// The book move for the game's position, if the book knows one.
    pub fn choose(&self, session: &dyn Session) -> Option<BookMove> {
        let book = self.book.as_ref().filter(|b| b.kind() == session.kind())?;
        let mut rng = rand::rng();
        session.book_choice(book, self.window, &mut |n| rng.random_range(0..n))
    }

    /// The book move for a position, if the book knows one.
    pub fn choose_position<P: Position>(&self, pos: &P) -> Option<BookMove> {
        let book = self.book.as_ref()?;
        if book.kind() != BoardKind::new(P::VARIANT, pos.size()).ok()? {
            return None;
        }
        let mut rng = rand::rng();
        book.choose(pos, self.window, |n| rng.random_range(0..n))
    }

    /// Every book move of the position, best first.
    pub fn moves(&self, session: &dyn Session) -> Vec<BookMove> {
        match &self.book {
            Some(book) if book.kind() == session.kind() => session.book_moves(book),
            _ => Vec::new(),
        }
    }
}
