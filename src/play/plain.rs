//! The line-oriented game: a board diagram after each move (the same as `othel board` prints for
//! the same moves), what each side played, and the player's lines read from the input. For
//! scripts, tests and screen readers; every bad line gets an `error:` line and changes nothing.

use super::command::{HELP, Input, parse_input};

use super::{Play, Reply, format_clock};
use crate::rules::Color;
use std::io::{self, BufRead, Write};

/// Plays until the input ends or the player quits.
pub fn run(mut play: Play, input: impl BufRead, mut out: impl Write) -> io::Result<()> {
    writeln!(
        out,
        "othel play: {}, black {}, white {}, the engine at {}; type a square such as f5, or help",
        play.table.kind(),
        play.table.player(Color::Black).name(),
        play.table.player(Color::White).name(),
        play.strength.describe()
    )?;
    let mut lines = input.lines();
    show_board(&play, &mut out)?;
    loop {
        // Everything that needs no human, each move shown.
        loop {
            let said = play.step(true);
            if said.is_empty() {
                break;
            }
            for line in said {
                writeln!(out, "{line}")?;
            }
            show_board(&play, &mut out)?;
        }
        prompt(&play, &mut out)?;
        out.flush()?;
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = match line {
            Ok(l) => l,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                writeln!(out, "error: the line is not UTF-8 text")?;
                continue;
            }
            Err(e) => return Err(e),
        };
        if line.trim().is_empty() {
            continue;
        }
        let parsed = match parse_input(&line) {
            Ok(input) => input,
            Err(e) => {
                writeln!(out, "error: {e}")?;
                continue;
            }
        };
        let changes_board = matches!(
            parsed,
            Input::Play(_) | Input::Undo | Input::Redo | Input::New | Input::Load(_)
        );
        let shows_board = matches!(parsed, Input::Board);
        let is_help = matches!(parsed, Input::Help);
        let is_hint = matches!(parsed, Input::Hint);
        match play.handle(parsed) {
            Ok(Reply::Quit) => return Ok(()),
            Ok(Reply::Said(said)) => {
                for line in said {
                    writeln!(out, "{line}")?;
                }
                if is_hint {
                    for line in play.finish_hint(false) {
                        writeln!(out, "{line}")?;
                    }
                }
                if is_help {
                    writeln!(out, "commands: {HELP}")?;
                }
                if changes_board || shows_board {
                    show_board(&play, &mut out)?;
                }
            }
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
}

/// `board STRING` and the diagram, as `othel board` prints them.
fn show_board(play: &Play, out: &mut impl Write) -> io::Result<()> {
    let session = play.table.session();
    write!(
        out,
        "board {}\n{}",
        session.board_string(),
        session.diagram()
    )
}

/// Whose turn it is, with the clocks.
fn prompt(play: &Play, out: &mut impl Write) -> io::Result<()> {
    let table = &play.table;
    if let Some(outcome) = table.outcome() {
        return writeln!(
            out,
            "the game is over ({}): new for another, quit to leave",
            outcome.describe()
        );
    }
    let mover = table.to_move();
    let mut line = format!("{} to move", mover.name());
    if let (Some(b), Some(w)) = (table.time_left(Color::Black), table.time_left(Color::White)) {
        line.push_str(&format!(
            " (clocks: black {}, white {})",
            format_clock(b),
            format_clock(w)
        ));
    }
    if table.swap_offered() {
        line.push_str("; swap trades colours with black (then white moves again)");
    }
    writeln!(out, "{line}: your move")
}
