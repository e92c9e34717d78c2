//! One game of a match: the referee's board, the clocks, the moves asked of each engine, and the
//! record of how it ended.

use super::player::{Fault, FaultKind, GameView, Player};
use super::spec::MoveLimit;
use super::{PONDER_PROPERTY, PonderTally};
use crate::protocol::session::new_session;
use crate::rules::ggf::{GgfMove, GgfRecord};
use crate::rules::notation::Setup;
use crate::rules::{BoardKind, Color, Move};
use std::time::{Duration, Instant};

/// Where a game starts: a position (or the variant's start) and moves played from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The start position; `None` for the variant's own.
    pub start: Option<Setup>,
    /// Moves from it (passes may be left out).
    pub moves: Vec<Move>,
}

/// A forfeit: who lost it, how, and what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Forfeit {
    /// The colour that forfeited.
    pub loser: Color,
    /// How.
    pub kind: FaultKind,
    /// What happened.
    pub detail: String,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// Its number in the schedule.
    pub index: usize,
    /// Black's and white's engine names.
    pub names: [String; 2],
    /// Black's disc margin (the whole board for a forfeit's winner).
    pub black_margin: i32,
    /// Set when the game was lost by default.
    pub forfeit: Option<Forfeit>,
    /// The GGF record.
    pub record: GgfRecord,
}

/// What a game is played with.
pub struct GameSetup<'a> {
    /// Its number in the schedule.
    pub index: usize,
    /// Variant and size.
    pub kind: BoardKind,
    /// The opening.
    pub opening: &'a Opening,
    /// Black's and white's names.
    pub names: [&'a str; 2],
    /// Black's and white's limits.
    pub limits: [MoveLimit; 2],
    /// Extra time past a clock or a move time before an engine counts as hung.
    pub margin: Duration,
    /// How long an engine without a clock or move time may think before it counts as hung.
    pub timeout: Duration,
}

/// The variant's start position as a setup.
pub fn standard_start(kind: BoardKind) -> Setup {
    // A fresh game's board string always reads back.
    new_session(kind)
        .board_string()
        .parse()
        .unwrap_or_else(|_| unreachable!("a start position's board string reads back"))
}

/// The opening's moves with their colours (passes made explicit), or why they are illegal.
pub fn opening_moves(kind: BoardKind, opening: &Opening) -> Result<Vec<GgfMove>, String> {
    let mut game = new_session(kind);
    if let Some(start) = &opening.start {
        game.set(Some(start), &[]).map_err(|e| e.to_string())?;
    }
    let mut out = Vec::new();
    for &mv in &opening.moves {
        if mv != Move::Pass && game.must_pass() {
            out.push(plain(game.side_to_move(), Move::Pass));
            game.play(Move::Pass).map_err(|e| e.to_string())?;
        }
        out.push(plain(game.side_to_move(), mv));
        game.play(mv).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

fn plain(color: Color, mv: Move) -> GgfMove {
    GgfMove {
        color,
        mv,
        eval: None,
        seconds: None,
    }
}

/// The whole-board margin a forfeit gives the winner.
fn forfeit_margin(kind: BoardKind, loser: Color) -> i32 {
    let all = (kind.size() * kind.size()) as i32;
    if loser == Color::Black { -all } else { all }
}

/// Plays one game between two running engines (black's first). The engines' faults end the game;
/// the caller restarts an engine that faulted.
pub fn play_game(setup: &GameSetup, players: [&mut Player; 2]) -> Finished {
    let [black, white] = players;
    let mut players = [black, white];
    let start = setup
        .opening
        .start
        .clone()
        .unwrap_or_else(|| standard_start(setup.kind));
    let standard = setup.opening.start.is_none();
    let mut moves = opening_moves(setup.kind, setup.opening).unwrap_or_default();
    let mut game = new_session(setup.kind);
    let _ = game.set(setup.opening.start.as_ref(), &setup.opening.moves);
    let clock_of = |limit: MoveLimit| match limit {
        MoveLimit::Clock { base, increment } => Some((base, increment)),
        _ => None,
    };
    let mut remaining = setup
        .limits
        .map(|l| clock_of(l).map_or(Duration::ZERO, |c| c.0));
    let mut forfeit = None;
    // Per side, the reply it predicted and ponders on, until the opponent moves; and how many of
    // its predictions the opponent's moves answered, and how many of those came true.
    let mut awaiting: [Option<Move>; 2] = [None, None];
    let mut pondering = [PonderTally::default(); 2];
    for (i, player) in players.iter_mut().enumerate() {
        if let Err(fault) = player.new_game() {
            let loser = if i == 0 { Color::Black } else { Color::White };
            forfeit = Some(forfeit_of(loser, fault));
            break;
        }
    }
    while forfeit.is_none() && !game.is_over() {
        let side = game.side_to_move();
        if game.must_pass() {
            moves.push(plain(side, Move::Pass));
            let _ = game.play(Move::Pass);
            continue;
        }
        let s = side as usize;
        let timeout = match setup.limits[s] {
            MoveLimit::Clock { .. } => remaining[s] + setup.margin,
            MoveLimit::Movetime(ms) => Duration::from_millis(ms) + setup.margin,
            _ => setup.timeout,
        };
        let view = GameView {
            kind: setup.kind,
            start: &start,
            standard_start: standard,
            moves: &moves,
            to_move: side,
            remaining,
        };
        let asked = Instant::now();
        let reply = players[s].request_move(&view, timeout);
        let took = asked.elapsed();
        let text = match reply {
            Ok(text) => text,
            Err(fault) => {
                forfeit = Some(forfeit_of(side, fault));
                break;
            }
        };
        if let Some((_, increment)) = clock_of(setup.limits[s]) {
            if took > remaining[s] {
                forfeit = Some(forfeit_of(
                    side,
                    Fault {
                        kind: FaultKind::Time,
                        detail: format!(
                            "took {:.3} s with {:.3} s left",
                            took.as_secs_f64(),
                            remaining[s].as_secs_f64()
                        ),
                    },
                ));
                break;
            }
            remaining[s] = remaining[s] - took + increment;
        }
        let mv = match text.parse::<Move>() {
            Ok(mv) => mv,
            Err(_) => {
                forfeit = Some(forfeit_of(
                    side,
                    Fault {
                        kind: FaultKind::Garbage,
                        detail: format!("'{text}' is not a move"),
                    },
                ));
                break;
            }
        };
        if let Err(e) = game.play(mv) {
            forfeit = Some(forfeit_of(
                side,
                Fault {
                    kind: FaultKind::Illegal,
                    detail: e.to_string(),
                },
            ));
            break;
        }
        moves.push(GgfMove {
            color: side,
            mv,
            eval: None,
            seconds: Some(took.as_secs_f64()),
        });
        if let Some(guess) = awaiting[1 - s].take() {
            pondering[1 - s].add(guess == mv);
        }
        // An engine that ponders thinks on the reply it predicted while the opponent moves.
        if let Some(guess) = players[s].take_prediction()
            && !game.is_over()
            && !game.must_pass()
            && game.legal_moves().contains(&guess)
        {
            let mut pondered = moves.clone();
            pondered.push(plain(game.side_to_move(), guess));
            let view = GameView {
                kind: setup.kind,
                start: &start,
                standard_start: standard,
                moves: &pondered,
                to_move: side,
                remaining,
            };
            if let Err(fault) = players[s].ponder(&view) {
                forfeit = Some(forfeit_of(side, fault));
                break;
            }
            awaiting[s] = Some(guess);
        }
    }
    let black_margin = match &forfeit {
        Some(f) => forfeit_margin(setup.kind, f.loser),
        None => game.black_margin(),
    };
    let result = match &forfeit {
        Some(f) => format!("{black_margin:+}.000:{}", f.kind.letter()),
        None => format!("{black_margin:+}.000"),
    };
    let mut properties = vec![
        ("PC".to_string(), "othel match".to_string()),
        ("GN".to_string(), setup.index.to_string()),
        ("PB".to_string(), setup.names[0].to_string()),
        ("PW".to_string(), setup.names[1].to_string()),
        ("RE".to_string(), result),
    ];
    if let (Some((base, inc)), true) = (
        clock_of(setup.limits[0]),
        setup.limits[0] == setup.limits[1],
    ) {
        properties.push((
            "TI".to_string(),
            format!("{}/{}", base.as_secs_f64(), inc.as_secs_f64()),
        ));
    }
    for (color, limit) in [("B", setup.limits[0]), ("W", setup.limits[1])] {
        properties.push((format!("{color}L"), limit.to_string()));
    }
    for (color, tally) in ["B", "W"].iter().zip(pondering) {
        if tally.predictions > 0 {
            properties.push((format!("{color}{PONDER_PROPERTY}"), tally.to_string()));
        }
    }
    if let Some(f) = &forfeit {
        properties.push(("GC".to_string(), format!("forfeit: {}", f.detail)));
    }
    Finished {
        index: setup.index,
        names: setup.names.map(str::to_string),
        black_margin,
        forfeit,
        record: GgfRecord {
            properties,
            start,
            moves,
        },
    }
}

fn forfeit_of(loser: Color, fault: Fault) -> Forfeit {
    Forfeit {
        loser,
        kind: fault.kind,
        detail: fault.detail,
    }
}

/// A game lost before it began: the engine could not start or be set up.
pub fn forfeit_before_start(setup: &GameSetup, loser: Color, fault: Fault) -> Finished {
    let black_margin = forfeit_margin(setup.kind, loser);
    let start = setup
        .opening
        .start
        .clone()
        .unwrap_or_else(|| standard_start(setup.kind));
    Finished {
        index: setup.index,
        names: setup.names.map(str::to_string),
        black_margin,
        record: GgfRecord {
            properties: vec![
                ("PC".to_string(), "othel match".to_string()),
                ("GN".to_string(), setup.index.to_string()),
                ("PB".to_string(), setup.names[0].to_string()),
                ("PW".to_string(), setup.names[1].to_string()),
                (
                    "RE".to_string(),
                    format!("{black_margin:+}.000:{}", fault.kind.letter()),
                ),
                ("GC".to_string(), format!("forfeit: {}", fault.detail)),
            ],
            start,
            moves: opening_moves(setup.kind, setup.opening).unwrap_or_default(),
        },
        forfeit: Some(forfeit_of(loser, fault)),
    }
}
