//! The full-screen game: the board with coordinates, discs in colour, the playable squares
//! marked (with every move's score after a hint), the last move and the discs it turned
//! highlighted; disc counts, whose turn, the clocks, the engine's level; moves by typing a
//! square, by the arrow keys and Enter, or by a mouse click. The engine thinks on a thread of
//! its own, so the screen keeps answering; any key stops a hint. With `NO_COLOR` set, discs are
//! `X` and `O` and highlights are brackets.

use super::command::{HELP, Input, parse_input};
use super::table::Cell;
use super::thinker::Purpose;
use super::{Play, Reply, format_clock, format_discs};
use crate::rules::{Color, Move};
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Paint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::{DefaultTerminal, Frame};
use std::io;
use std::time::Duration;

/// The screen's state beside the game.
struct Screen {
    color: bool,
    cursor: (usize, usize),
    typed: String,
    log: Vec<String>,
    /// Where the board's a1 cell was drawn (column, row), for mouse clicks.
    origin: Option<(u16, u16)>,
}

impl Screen {
    fn say(&mut self, lines: impl IntoIterator<Item = String>) {
        self.log.extend(lines);
        let excess = self.log.len().saturating_sub(4);
        self.log.drain(..excess);
    }
}

/// Plays until the player quits.
pub fn run(mut play: Play, color: bool) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let _ = execute!(io::stdout(), EnableMouseCapture);
    let result = event_loop(&mut play, &mut terminal, color);
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::try_restore()?;
    result
}

fn event_loop(play: &mut Play, terminal: &mut DefaultTerminal, color: bool) -> io::Result<()> {
    let size = play.table.size();
    let mut screen = Screen {
        color,
        cursor: (size / 2 - 1, size / 2 - 1),
        typed: String::new(),
        log: vec![
            "type a square such as f5 and Enter, or move with the arrows; help lists the commands"
                .into(),
        ],
        origin: None,
    };
    loop {
        let said = play.step(false);
        screen.say(said);
        let hint = play.poll_hint();
        screen.say(hint);
        terminal.draw(|frame| draw(frame, play, &mut screen))?;
        if !event::poll(Duration::from_millis(50))? {
            continue;
        }
        let input = match event::read()? {
            Event::Key(key) if key.kind == KeyEventKind::Press => {
                if play.thinking() == Some(Purpose::Hint) {
                    let stopped = play.finish_hint(true);
                    screen.say(stopped);
                }
                match key_input(key, play, &mut screen) {
                    KeyOutcome::Quit => return Ok(()),
                    KeyOutcome::Nothing => continue,
                    KeyOutcome::Do(input) => input,
                }
            }
            Event::Mouse(mouse) => {
                if !matches!(mouse.kind, MouseEventKind::Down(MouseButton::Left)) {
                    continue;
                }
                match clicked_square(&screen, mouse.column, mouse.row, play.table.size()) {
                    Some((col, row)) => {
                        screen.cursor = (col, row);
                        Input::Play(cell_move(col, row, play.table.size()))
                    }
                    None => continue,
                }
            }
            _ => continue,
        };
        match play.handle(input.clone()) {
            Ok(Reply::Quit) => return Ok(()),
            Ok(Reply::Said(lines)) => {
                screen.say(lines);
                if input == Input::Help {
                    screen.say([format!("commands: {HELP}; keys: arrows and Enter, ? hint, < undo, > redo, Esc clears, Ctrl-C quits")]);
                }
                // A new board may have another size.
                let n = play.table.size();
                screen.cursor = (screen.cursor.0.min(n - 1), screen.cursor.1.min(n - 1));
            }
            Err(e) => screen.say([format!("error: {e}")]),
        }
    }
}

/// The placement on the cell in `col` and `row` of a board of side `n`.
fn cell_move(col: usize, row: usize, n: usize) -> Move {
    Move::Place(crate::rules::Square::from_index(row * n + col, n))
}

enum KeyOutcome {
    Quit,
    Nothing,
    Do(Input),
}

fn key_input(key: KeyEvent, play: &Play, screen: &mut Screen) -> KeyOutcome {
    let n = play.table.size();
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c' | 'q' | 'd') if ctrl => KeyOutcome::Quit,
        KeyCode::Char('n') if ctrl => KeyOutcome::Do(Input::New),
        KeyCode::Char(c) if !ctrl => {
            if screen.typed.is_empty() {
                match c {
                    '?' => return KeyOutcome::Do(Input::Hint),
                    '<' => return KeyOutcome::Do(Input::Undo),
                    '>' => return KeyOutcome::Do(Input::Redo),
                    _ => {}
                }
            }
            if screen.typed.len() < 200 {
                screen.typed.push(c);
            }
            KeyOutcome::Nothing
        }
        KeyCode::Backspace => {
            screen.typed.pop();
            KeyOutcome::Nothing
        }
        KeyCode::Esc => {
            screen.typed.clear();
            KeyOutcome::Nothing
        }
        KeyCode::Left => {
            screen.cursor.0 = screen.cursor.0.saturating_sub(1);
            KeyOutcome::Nothing
        }
        KeyCode::Right => {
            screen.cursor.0 = (screen.cursor.0 + 1).min(n - 1);
            KeyOutcome::Nothing
        }
        KeyCode::Up => {
            screen.cursor.1 = screen.cursor.1.saturating_sub(1);
            KeyOutcome::Nothing
        }
        KeyCode::Down => {
            screen.cursor.1 = (screen.cursor.1 + 1).min(n - 1);
            KeyOutcome::Nothing
        }
        KeyCode::Enter => {
            if screen.typed.trim().is_empty() {
                screen.typed.clear();
                let (col, row) = screen.cursor;
                return KeyOutcome::Do(Input::Play(cell_move(col, row, n)));
            }
            let typed = std::mem::take(&mut screen.typed);
            match parse_input(&typed) {
                Ok(Input::Quit) => KeyOutcome::Quit,
                Ok(input) => KeyOutcome::Do(input),
                Err(e) => {
                    screen.say([format!("error: {e}")]);
                    KeyOutcome::Nothing
                }
            }
        }
        _ => KeyOutcome::Nothing,
    }
}

/// The board square under a click, as (column, row).
fn clicked_square(screen: &Screen, x: u16, y: u16, n: usize) -> Option<(usize, usize)> {
    let (ox, oy) = screen.origin?;
    if x < ox || y < oy {
        return None;
    }
    let (col, row) = (((x - ox) / 3) as usize, (y - oy) as usize);
    (col < n && row < n).then_some((col, row))
}

fn draw(frame: &mut Frame, play: &Play, screen: &mut Screen) {
    let area = frame.area();
    let n = play.table.size() as u16;
    let board_width = 4 + 3 * n;
    let [top, bottom] =
        Layout::vertical([Constraint::Min(n + 2), Constraint::Length(6)]).areas(area);
    let wide = top.width >= board_width + 34;
    let (board_area, panel_area) = if wide {
        let [b, p] = Layout::horizontal([Constraint::Length(board_width + 2), Constraint::Min(30)])
            .areas(top);
        (b, p)
    } else {
        let [b, p] = Layout::vertical([Constraint::Length(n + 2), Constraint::Min(0)]).areas(top);
        (b, p)
    };
    draw_board(frame, play, screen, board_area);
    frame.render_widget(Paragraph::new(panel(play)), panel_area);
    let mut lines: Vec<Line> = screen.log.iter().map(|l| Line::from(l.clone())).collect();
    lines.push(Line::from(format!("> {}_", screen.typed)));
    frame.render_widget(Paragraph::new(lines), bottom);
}

fn panel(play: &Play) -> Vec<Line<'static>> {
    let table = &play.table;
    let (black, white) = table.counts();
    let mut lines = vec![
        Line::from(Span::styled(
            format!("othel: {}", table.kind()),
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::from(format!("engine: {}", play.strength.describe())),
        Line::from(""),
    ];
    for (color, count) in [(Color::Black, black), (Color::White, white)] {
        let clock = table
            .time_left(color)
            .map_or(String::new(), |t| format!("  {}", format_clock(t)));
        let turn = if table.outcome().is_none() && table.to_move() == color {
            "▶ "
        } else {
            "  "
        };
        lines.push(Line::from(format!(
            "{turn}{} ({}): {count}{clock}",
            color.name(),
            table.player(color).name()
        )));
    }
    lines.push(Line::from(""));
    match table.outcome() {
        Some(outcome) => {
            lines.push(Line::from(Span::styled(
                format!("game over: {}", outcome.describe()),
                Style::default().add_modifier(Modifier::BOLD),
            )));
            lines.push(Line::from("type new (or Ctrl-N) for another game"));
        }
        None => {
            let mover = table.to_move();
            let what = match play.thinking() {
                Some(Purpose::Move) => "the engine is thinking…".to_string(),
                Some(Purpose::Hint) => "thinking of a hint (any key stops it)…".to_string(),
                Some(Purpose::Ponder(_)) => {
                    "your move (the engine thinks on your time)".to_string()
                }
                None if table.engine_to_move() => "the engine is to move".to_string(),
                None => "your move".to_string(),
            };
            lines.push(Line::from(format!("{} to move: {what}", mover.name())));
            if table.swap_offered() {
                lines.push(Line::from("swap (typed) trades colours"));
            }
        }
    }
    if let Some(last) = table.last() {
        lines.push(Line::from(format!(
            "last: {} {} (turned {})",
            last.color.name(),
            last.mv,
            last.flipped.len()
        )));
    }
    if let Some(hint) = &play.hint
        && let Some(best) = hint.best
    {
        lines.push(Line::from(format!(
            "hint: {best} {}",
            format_discs(hint.score)
        )));
    }
    lines
}

fn draw_board(frame: &mut Frame, play: &Play, screen: &mut Screen, area: Rect) {
    let table = &play.table;
    let n = table.size();
    let cells = table.cells();
    let playable = table.playable();
    let last = table.last();
    let placed = last.and_then(|l| match l.mv {
        Move::Place(sq) => sq.index(n),
        _ => None,
    });
    let hint_scores: Vec<(usize, i32)> = play
        .hint
        .iter()
        .flat_map(|h| h.scores.iter())
        .filter_map(|&(m, s)| match m {
            Move::Place(sq) => sq.index(n).map(|i| (i, s)),
            _ => None,
        })
        .collect();
    let color = screen.color;
    let board = Style::default().bg(Paint::Rgb(0, 110, 50)).fg(Paint::Gray);
    let mut lines = Vec::new();
    let header: String = (0..n)
        .map(|c| format!(" {} ", (b'a' + c as u8) as char))
        .collect();
    lines.push(Line::from(format!("    {header}")));
    for row in 0..n {
        let mut spans = vec![Span::raw(format!("{:>3} ", row + 1))];
        for col in 0..n {
            let i = row * n + col;
            let (text, mut style) = match cells[i] {
                Cell::Disc(c) => {
                    let (symbol, paint) = match c {
                        Color::Black => (if color { "●" } else { "X" }, Paint::Black),
                        Color::White => (if color { "●" } else { "O" }, Paint::White),
                    };
                    let style = if color {
                        board.fg(paint)
                    } else {
                        Style::default()
                    };
                    (symbol.to_string(), style.add_modifier(Modifier::BOLD))
                }
                Cell::Empty => {
                    let mark = if playable.contains(&i) {
                        match hint_scores.iter().find(|&&(j, _)| j == i) {
                            Some(&(_, s)) => {
                                format!(
                                    "{:+}",
                                    (s as f64 / crate::eval::DISC as f64).round() as i32
                                )
                            }
                            None => if color { "·" } else { "*" }.to_string(),
                        }
                    } else if color {
                        " ".to_string()
                    } else {
                        "-".to_string()
                    };
                    let style = if color {
                        board.fg(Paint::Yellow)
                    } else {
                        Style::default()
                    };
                    (mark, style)
                }
            };
            let (open, close) = if Some(i) == placed {
                if color {
                    style = style.bg(Paint::Rgb(170, 60, 40));
                }
                ("[", "]")
            } else if last.is_some_and(|l| l.flipped.contains(&i)) {
                if color {
                    style = style.bg(Paint::Rgb(40, 150, 90));
                }
                ("(", ")")
            } else {
                (" ", " ")
            };
            if screen.cursor == (col, row) {
                style = style.add_modifier(Modifier::REVERSED);
            }
            let cell = if text.chars().count() >= 2 {
                format!("{text:>3}")
            } else if color {
                format!(" {text} ")
            } else {
                format!("{open}{text}{close}")
            };
            spans.push(Span::styled(cell, style));
        }
        lines.push(Line::from(spans));
    }
    screen.origin = Some((area.x + 4, area.y + 1));
    frame.render_widget(Paragraph::new(lines), area);
}
