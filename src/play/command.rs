//! What a player types in `othel play`, in both the full-screen and the plain mode: a square, or a
//! word for the other things a player does.

use super::levels::MAX_LEVEL;
use crate::rules::Move;
use std::path::PathBuf;

/// One typed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A square, `pass` or `swap`.
    Play(Move),
    /// The engine's best move with its score, and a score on every playable square.
    Hint,
    /// Take back the last move (against the engine: back to the human's turn).
    Undo,
    /// Play again a move taken back.
    Redo,
    /// A new game with the same players.
    New,
    /// The humans take the other colour, the engine the other.
    Switch,
    /// The engine's level.
    Level(u32),
    /// Save the game as GGF.
    Save(PathBuf),
    /// Load a GGF game.
    Load(PathBuf),
    /// The board again (plain mode).
    Board,
    /// The list of commands.
    Help,
    /// Leave.
    Quit,
}

/// The commands, for `help`.
pub const HELP: &str = "a square (f5) plays it; pass; swap (Lehto's second move); \
hint; undo; redo; new; switch (take the other colour); level 1-10; save FILE; load FILE; \
board; help; quit";

/// Reads a typed line.
pub fn parse_input(line: &str) -> Result<Input, String> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let lower = word.to_ascii_lowercase();
    let no_argument = |input: Input| {
        if rest.is_empty() {
            Ok(input)
        } else {
            Err(format!("'{lower}' takes nothing after it"))
        }
    };
    let path = |input: fn(PathBuf) -> Input| {
        if rest.is_empty() {
            Err(format!("'{lower}' needs a file name"))
        } else {
            Ok(input(PathBuf::from(rest)))
        }
    };
    match lower.as_str() {
        "" => Err("type a square such as f5, or help".into()),
        "hint" | "?" => no_argument(Input::Hint),
        "undo" | "<" => no_argument(Input::Undo),
        "redo" | ">" => no_argument(Input::Redo),
        "new" => no_argument(Input::New),
        "switch" => no_argument(Input::Switch),
        "board" => no_argument(Input::Board),
        "help" | "h" => no_argument(Input::Help),
        "quit" | "exit" | "q" => no_argument(Input::Quit),
        "save" => path(Input::Save),
        "load" => path(Input::Load),
        "level" => match rest.parse::<u32>() {
            Ok(n) if (1..=MAX_LEVEL).contains(&n) => Ok(Input::Level(n)),
            _ => Err(format!("level takes a number from 1 to {MAX_LEVEL}")),
        },
        _ => match line.parse::<Move>() {
            Ok(mv) => Ok(Input::Play(mv)),
            Err(_) => Err(format!(
                "'{line}' is not a square or a command (help lists them)"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_words_read() {
        assert_eq!(parse_input("f5"), Ok(Input::Play("f5".parse().unwrap())));
        assert_eq!(parse_input(" F5 "), Ok(Input::Play("f5".parse().unwrap())));
        assert_eq!(parse_input("pass"), Ok(Input::Play(Move::Pass)));
        assert_eq!(parse_input("swap"), Ok(Input::Play(Move::Swap)));
        assert_eq!(parse_input("HINT"), Ok(Input::Hint));
        assert_eq!(parse_input("?"), Ok(Input::Hint));
        assert_eq!(parse_input("level 3"), Ok(Input::Level(3)));
        assert_eq!(
            parse_input("save my game.ggf"),
            Ok(Input::Save(PathBuf::from("my game.ggf")))
        );
        for bad in [
            "", "f", "z99", "level", "level 11", "level x", "save", "undo 2", "xyzzy",
        ] {
            assert!(parse_input(bad).is_err(), "{bad}");
        }
    }
}
