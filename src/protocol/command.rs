//! The commands of the engine protocol and their nom parsers. A line parses into one [`Command`] or
//! a [`ParseError`] that says what is wrong, quoting the input.

use crate::rules::Move;
use crate::rules::notation::parse_transcript;
use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, multispace0, multispace1};
use nom::combinator::{all_consuming, map, map_res, opt, rest, value};
use nom::multi::{many0, many1};
use nom::sequence::{preceded, separated_pair};
use nom::{IResult, Parser};
use std::fmt;

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// The variant's start position.
    StartPos,
    /// A board string (squares and colour to move).
    Board(String),
    /// A GGF game record (its moves included).
    Ggf(String),
}

/// The parameters of `go`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GoParams {
    /// `depth D`
    pub depth: Option<u32>,
    /// `nodes N`
    pub nodes: Option<u64>,
    /// `movetime MS`
    pub movetime: Option<u64>,
    /// `wtime MS`
    pub wtime: Option<u64>,
    /// `btime MS`
    pub btime: Option<u64>,
    /// `winc MS`
    pub winc: Option<u64>,
    /// `binc MS`
    pub binc: Option<u64>,
    /// `movestogo N`
    pub movestogo: Option<u32>,
    /// `infinite`
    pub infinite: bool,
    /// `exact`
    pub exact: bool,
    /// `wld`
    pub wld: bool,
    /// `multipv K`
    pub multipv: Option<usize>,
    /// `fullwidth`
    pub full_width: bool,
    /// `ponder`: the position is the one after the opponent's predicted move; search it with
    /// these limits, the clock not running until `ponderhit`.
    pub ponder: bool,
    /// `searchmoves M …`: only these moves (empty: every move).
    pub searchmoves: Vec<Move>,
}

/// A command of the protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `othel`: identify and list the options.
    Othel,
    /// `isready`
    IsReady,
    /// `newgame`
    NewGame,
    /// `setoption NAME=VALUE …`
    SetOption(Vec<(String, String)>),
    /// `position …`
    Position {
        /// Where the game starts.
        start: Start,
        /// The moves played from there.
        moves: Vec<Move>,
    },
    /// `moves`: the legal moves.
    Moves,
    /// `board`: the board string.
    Board,
    /// `d`: a diagram.
    Diagram,
    /// `play M`
    Play(Move),
    /// `undo`
    Undo,
    /// `go …`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`: the move a `go ponder` predicted was played.
    PonderHit,
    /// `eval`
    Eval,
    /// `perft D`
    Perft(u32),
    /// `quit`
    Quit,
    /// `help`: the commands, one a line.
    Help,
}

/// What `help` prints: each command's form and what it does, one a line (protocol.md has the
/// whole of it).
pub const HELP: &[&str] = &[
    "othel  identify, list the options, then othelok",
    "isready  readyok once every earlier command is handled",
    "newgame  a fresh game; the search forgets what it learned",
    "setoption NAME=VALUE ...  variant, size, threads, hash, multipv, book, bookrandom",
    "position startpos|board <board string>|ggf <record> [moves M ...]  set the position",
    "moves  the legal moves",
    "board  the board string",
    "d  a diagram of the board",
    "play M  play one move",
    "undo  take back one move",
    "go [depth D] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N] \
     [infinite] [exact] [wld] [multipv K] [fullwidth] [ponder] [searchmoves M ...]  search: info \
     lines, then bestmove",
    "stop  end the search; its bestmove follows",
    "ponderhit  the move go ponder predicted was played: its clock starts now",
    "eval  the static evaluation and its terms",
    "perft D  count the move paths D plies deep",
    "help  this list",
    "quit  exit once the commands before it are answered",
];

/// A line that is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// The input, shortened for quoting in an error.
pub fn quote(input: &str) -> String {
    const MAX: usize = 80;
    let trimmed = input.trim();
    if trimmed.chars().count() > MAX {
        let short: String = trimmed.chars().take(MAX).collect();
        format!("'{short}…' ({} bytes)", trimmed.len())
    } else {
        format!("'{trimmed}'")
    }
}

fn word(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c.is_whitespace()).parse(input)
}

fn number<T: std::str::FromStr>(input: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse::<T>).parse(input)
}

/// A keyword that must end at whitespace or the end of the line.
fn keyword<'a>(
    name: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    nom::combinator::verify(word, move |w: &str| w.eq_ignore_ascii_case(name))
}

/// One parameter of `go`.
#[derive(Clone)]
enum GoParam {
    Depth(u32),
    Nodes(u64),
    MoveTime(u64),
    WTime(u64),
    BTime(u64),
    WInc(u64),
    BInc(u64),
    MovesToGo(u32),
    MultiPv(usize),
    Infinite,
    Exact,
    Wld,
    FullWidth,
    Ponder,
    SearchMoves(Vec<Move>),
}

fn with_number<'a, T: std::str::FromStr>(
    name: &'static str,
    make: fn(T) -> GoParam,
) -> impl Parser<&'a str, Output = GoParam, Error = nom::error::Error<&'a str>> {
    map(preceded((keyword(name), multispace1), number::<T>), make)
}

fn go_param(input: &str) -> IResult<&str, GoParam> {
    preceded(
        multispace1,
        alt((
            with_number("depth", GoParam::Depth),
            with_number("nodes", GoParam::Nodes),
            with_number("movetime", GoParam::MoveTime),
            with_number("wtime", GoParam::WTime),
            with_number("btime", GoParam::BTime),
            with_number("winc", GoParam::WInc),
            with_number("binc", GoParam::BInc),
            with_number("movestogo", GoParam::MovesToGo),
            with_number("multipv", GoParam::MultiPv),
            value(GoParam::Infinite, keyword("infinite")),
            value(GoParam::Exact, keyword("exact")),
            value(GoParam::Wld, keyword("wld")),
            value(GoParam::FullWidth, keyword("fullwidth")),
            value(GoParam::Ponder, keyword("ponder")),
            map(
                preceded(
                    keyword("searchmoves"),
                    many1(preceded(multispace1, map_res(word, str::parse::<Move>))),
                ),
                GoParam::SearchMoves,
            ),
        )),
    )
    .parse(input)
}

/// The most lines `multipv` (the option and `go`'s parameter) may ask for.
pub const MAX_MULTIPV: usize = 64;

impl GoParams {
    /// Refuses what would search without the bound it seems to give, or asks the impossible.
    fn check(&self) -> Result<(), String> {
        if self.depth == Some(0) {
            return Err("go depth takes a depth of at least 1".into());
        }
        if let Some(k) = self.multipv
            && !(1..=MAX_MULTIPV).contains(&k)
        {
            return Err(format!("go multipv takes 1 to {MAX_MULTIPV}, not {k}"));
        }
        if self.winc.is_some() && self.wtime.is_none() {
            return Err("go winc needs wtime (an increment without the time left)".into());
        }
        if self.binc.is_some() && self.btime.is_none() {
            return Err("go binc needs btime (an increment without the time left)".into());
        }
        if self.movestogo == Some(0) {
            return Err("go movestogo takes at least 1".into());
        }
        if self.movestogo.is_some() && self.wtime.is_none() && self.btime.is_none() {
            return Err("go movestogo needs wtime or btime".into());
        }
        Ok(())
    }

    fn set(&mut self, param: GoParam) {
        match param {
            GoParam::Depth(n) => self.depth = Some(n),
            GoParam::Nodes(n) => self.nodes = Some(n),
            GoParam::MoveTime(n) => self.movetime = Some(n),
            GoParam::WTime(n) => self.wtime = Some(n),
            GoParam::BTime(n) => self.btime = Some(n),
            GoParam::WInc(n) => self.winc = Some(n),
            GoParam::BInc(n) => self.binc = Some(n),
            GoParam::MovesToGo(n) => self.movestogo = Some(n),
            GoParam::MultiPv(n) => self.multipv = Some(n),
            GoParam::Infinite => self.infinite = true,
            GoParam::Exact => self.exact = true,
            GoParam::Wld => self.wld = true,
            GoParam::FullWidth => self.full_width = true,
            GoParam::Ponder => self.ponder = true,
            GoParam::SearchMoves(moves) => self.searchmoves.extend(moves),
        }
    }
}

fn option_pair(input: &str) -> IResult<&str, (String, String)> {
    preceded(
        multispace1,
        separated_pair(
            take_till1(|c: char| c == '=' || c.is_whitespace()),
            nom::character::complete::char('='),
            take_till1(|c: char| c.is_whitespace()),
        ),
    )
    .map(|(k, v): (&str, &str)| (k.to_ascii_lowercase(), v.to_string()))
    .parse(input)
}

/// Parses one line (without its newline) into a command.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let fail = |what: &str| ParseError {
        message: format!("{what}: {}", quote(line)),
    };
    let (rest_of_line, name) = word(line).map_err(|_| fail("empty command"))?;
    let args = rest_of_line;
    let simple = |command: Command| {
        if args.trim().is_empty() {
            Ok(command)
        } else {
            Err(fail(&format!("'{name}' takes no arguments")))
        }
    };
    match name.to_ascii_lowercase().as_str() {
        "othel" => simple(Command::Othel),
        "isready" => simple(Command::IsReady),
        "newgame" => simple(Command::NewGame),
        "moves" => simple(Command::Moves),
        "board" => simple(Command::Board),
        "d" => simple(Command::Diagram),
        "undo" => simple(Command::Undo),
        "stop" => simple(Command::Stop),
        "ponderhit" => simple(Command::PonderHit),
        "eval" => simple(Command::Eval),
        "quit" => simple(Command::Quit),
        "help" => simple(Command::Help),
        "setoption" => {
            let pairs = all_consuming((many0(option_pair), multispace0))
                .parse(args)
                .map(|(_, (pairs, _))| pairs)
                .map_err(|_| fail("setoption takes NAME=VALUE pairs"))?;
            if pairs.is_empty() {
                return Err(fail("setoption takes NAME=VALUE pairs"));
            }
            Ok(Command::SetOption(pairs))
        }
        "go" => {
            let (_, (params, _)) = all_consuming((many0(go_param), multispace0))
                .parse(args)
                .map_err(|_| {
                    fail("go takes depth D, nodes N, movetime MS, wtime MS, btime MS, winc MS, binc MS, movestogo N, infinite, exact, wld, multipv K, fullwidth, ponder, searchmoves M ...")
                })?;
            let mut go = GoParams::default();
            for param in params {
                go.set(param);
            }
            go.check().map_err(|e| fail(&e))?;
            Ok(Command::Go(go))
        }
        "perft" => {
            let (_, depth) = all_consuming(preceded(multispace1, number::<u32>))
                .parse(args.trim_end())
                .map_err(|_| fail("perft takes a depth"))?;
            Ok(Command::Perft(depth))
        }
        "play" => {
            let (_, mv) = all_consuming(preceded(multispace1, word))
                .parse(args.trim_end())
                .map_err(|_| fail("play takes one move"))?;
            let mv: Move = mv.parse().map_err(|e| fail(&format!("{e}")))?;
            Ok(Command::Play(mv))
        }
        "position" => parse_position(args).map_err(|e| fail(&e)),
        _ => Err(fail("unknown command (help lists them)")),
    }
}

type PositionParts<'a> = (Start, Option<&'a str>);

fn position_start(input: &str) -> IResult<&str, PositionParts<'_>> {
    preceded(
        multispace1,
        alt((
            map(
                (
                    keyword("startpos"),
                    opt(preceded((multispace1, keyword("moves")), rest)),
                ),
                |(_, moves)| (Start::StartPos, moves),
            ),
            map(
                (
                    keyword("board"),
                    multispace1,
                    word,
                    multispace1,
                    word,
                    opt(preceded((multispace1, keyword("moves")), rest)),
                ),
                |(_, _, squares, _, color, moves)| {
                    (Start::Board(format!("{squares} {color}")), moves)
                },
            ),
            map(
                preceded((keyword("ggf"), multispace1), rest),
                |record: &str| (Start::Ggf(record.trim().to_string()), None),
            ),
        )),
    )
    .parse(input)
}

fn parse_position(args: &str) -> Result<Command, String> {
    let (remaining, (start, moves)) = position_start(args).map_err(|_| {
        "position takes startpos, board <board string> or ggf <record>, then moves".to_string()
    })?;
    if !remaining.trim().is_empty() {
        return Err(format!("unexpected '{}' in position", remaining.trim()));
    }
    let moves = match moves {
        None => Vec::new(),
        Some(text) => {
            let mut all = Vec::new();
            for w in text.split_whitespace() {
                all.extend(parse_transcript(w).map_err(|e| e.to_string())?);
            }
            all
        }
    };
    Ok(Command::Position { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse("othel"), Ok(Command::Othel));
        assert_eq!(parse("  isready  "), Ok(Command::IsReady));
        assert_eq!(
            parse("setoption variant=lehto size=9"),
            Ok(Command::SetOption(vec![
                ("variant".into(), "lehto".into()),
                ("size".into(), "9".into())
            ]))
        );
        let Ok(Command::Position { start, moves }) = parse("position startpos moves f5d6 c3")
        else {
            panic!()
        };
        assert_eq!(start, Start::StartPos);
        assert_eq!(moves.len(), 3);
        let Ok(Command::Position { start, .. }) = parse("position board ---- X") else {
            panic!()
        };
        assert_eq!(start, Start::Board("---- X".into()));
        let Ok(Command::Go(go)) = parse("go depth 12 wtime 1000 btime 2000 exact multipv 3") else {
            panic!()
        };
        assert_eq!(
            (go.depth, go.wtime, go.btime, go.exact, go.multipv),
            (Some(12), Some(1000), Some(2000), true, Some(3))
        );
        assert_eq!(parse("go"), Ok(Command::Go(GoParams::default())));
        let Ok(Command::Go(go)) = parse("go depth 10 fullwidth") else {
            panic!()
        };
        assert!(go.full_width && !GoParams::default().full_width);
        let Ok(Command::Go(go)) = parse("go ponder wtime 900 btime 800") else {
            panic!()
        };
        assert!(go.ponder && !GoParams::default().ponder);
        assert_eq!((go.wtime, go.btime), (Some(900), Some(800)));
        assert_eq!(parse("ponderhit"), Ok(Command::PonderHit));
        let Ok(Command::Go(go)) = parse("go searchmoves c4 E3 depth 8 searchmoves pass") else {
            panic!()
        };
        let moves: Vec<String> = go.searchmoves.iter().map(Move::to_string).collect();
        assert_eq!(
            (moves.join(" "), go.depth),
            ("c4 e3 pass".to_string(), Some(8))
        );
        assert_eq!(parse("play F5"), Ok(Command::Play("f5".parse().unwrap())));
        assert_eq!(parse("perft 7"), Ok(Command::Perft(7)));
    }

    #[test]
    fn help_names_every_command_and_only_commands() {
        let named: Vec<&str> = HELP
            .iter()
            .map(|line| line.split_whitespace().next().unwrap_or(""))
            .collect();
        for name in &named {
            // Each one is a command, whatever its arguments.
            let refused = parse(name).err().map(|e| e.message).unwrap_or_default();
            assert!(!refused.contains("unknown command"), "{name}: {refused}");
        }
        for line in [
            "othel",
            "isready",
            "newgame",
            "moves",
            "board",
            "d",
            "undo",
            "stop",
            "ponderhit",
            "eval",
            "quit",
            "help",
            "setoption a=b",
            "go",
            "perft 1",
            "play f5",
            "position startpos",
        ] {
            let name = line.split_whitespace().next().unwrap_or("");
            assert!(parse(line).is_ok(), "{line}");
            assert!(named.contains(&name), "help lacks {name}");
        }
    }

    #[test]
    fn bad_lines_are_errors_that_quote_the_input() {
        for bad in [
            "",
            "fly",
            "go depth",
            "go depth x",
            "go sideways",
            "go searchmoves",
            "go searchmoves z99",
            "go searchmoves depth 3",
            "perft",
            "perft -1",
            "play",
            "play z9z",
            "play f5 d6",
            "setoption",
            "setoption size",
            "position",
            "position startpos moves q",
            "position board",
            "isready now",
            "goo",
            "godepth 3",
        ] {
            let err = parse(bad).unwrap_err();
            assert!(err.message.contains(&quote(bad)), "{bad}: {}", err.message);
        }
        let long = "x".repeat(1 << 20);
        let err = parse(&long).unwrap_err();
        assert!(err.message.len() < 300);
    }
}
