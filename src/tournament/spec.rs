//! An engine as the match runner is told about it: `name=NAME cmd="COMMAND ARGS" [proto=…]
//! [dir=DIR] [option.NAME=VALUE …] [depth=D | nodes=N | movetime=MS | tc=BASE+INC]
//! [ponder=on|off]`.

use crate::rules::{BoardKind, Variant};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// othel's own protocol (protocol.md).
    Othel,
    /// NBoard, version 2.
    Nboard,
    /// GTP, version 2.
    Gtp,
}

impl fmt::Display for Proto {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Proto::Othel => "othel",
            Proto::Nboard => "nboard",
            Proto::Gtp => "gtp",
        })
    }
}

/// How much an engine may think per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveLimit {
    /// The engine's own default (GTP engines only).
    Own,
    /// Plies.
    Depth(u32),
    /// Nodes.
    Nodes(u64),
    /// Milliseconds per move.
    Movetime(u64),
    /// A game clock: base time and increment per move.
    Clock {
        /// Time for the whole game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveLimit::Own => f.write_str("own"),
            MoveLimit::Depth(d) => write!(f, "depth={d}"),
            MoveLimit::Nodes(n) => write!(f, "nodes={n}"),
            MoveLimit::Movetime(ms) => write!(f, "movetime={ms}"),
            MoveLimit::Clock { base, increment } => {
                write!(f, "tc={}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// One engine of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Its name in records and tables.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Its protocol.
    pub proto: Proto,
    /// The working directory to start it in.
    pub dir: Option<PathBuf>,
    /// Options set before the first game (`setoption` for othel engines).
    pub options: Vec<(String, String)>,
    /// Its thinking limit.
    pub limit: MoveLimit,
    /// Whether it thinks on the opponent's time (othel's protocol: `go ponder`, `ponderhit`).
    pub ponder: bool,
}

/// Splits a command line into words: spaces separate, `"…"` and `'…'` quote, `\` escapes.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (_, '\\') => {
                word.push(chars.next().ok_or("a '\\' ends the text")?);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("an unclosed quote in '{text}'"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// `60+0.5`, `60` (seconds, increment in seconds).
fn parse_tc(text: &str) -> Result<MoveLimit, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |t: &str| {
        t.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("bad time control 'tc={text}' (BASE+INC in seconds)"))
    };
    let (base, increment) = (seconds(base)?, seconds(inc)?);
    if base.is_zero() {
        return Err(format!("time control 'tc={text}' has no time"));
    }
    Ok(MoveLimit::Clock { base, increment })
}

impl FromStr for EngineSpec {
    type Err = String;

    /// The one-word form: `name=a cmd="othel --threads 1" depth=4` (quotes inside).
    fn from_str(text: &str) -> Result<EngineSpec, String> {
        EngineSpec::from_words(&split_words(text)?)
    }
}

impl EngineSpec {
    /// The spec from its `KEY=VALUE` words.
    pub fn from_words(words: &[String]) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut command = None;
        let mut proto = Proto::Othel;
        let mut dir = None;
        let mut options = Vec::new();
        let mut limit = None;
        let mut ponder = false;
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}' is not KEY=VALUE"))?;
            let mut set_limit = |l: MoveLimit| {
                if limit.replace(l).is_some() {
                    Err("give one of depth=, nodes=, movetime= and tc=".to_string())
                } else {
                    Ok(())
                }
            };
            let number = |what: &str| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("{what} takes a positive whole number: '{word}'"))
            };
            match key {
                "name" if !value.is_empty() => name = Some(value.to_string()),
                "cmd" => {
                    let words = split_words(value)?;
                    if words.is_empty() {
                        return Err("cmd is empty".into());
                    }
                    command = Some(words);
                }
                "proto" => {
                    proto = match value {
                        "othel" => Proto::Othel,
                        "nboard" => Proto::Nboard,
                        "gtp" => Proto::Gtp,
                        _ => {
                            return Err(format!("unknown protocol '{value}' (othel, nboard, gtp)"));
                        }
                    }
                }
                "dir" => dir = Some(PathBuf::from(value)),
                "depth" => set_limit(MoveLimit::Depth(number("depth")?.min(64) as u32))?,
                "nodes" => set_limit(MoveLimit::Nodes(number("nodes")?))?,
                "movetime" => set_limit(MoveLimit::Movetime(number("movetime")?))?,
                "tc" => set_limit(parse_tc(value)?)?,
                "ponder" => {
                    ponder = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(format!("ponder takes on or off: '{word}'")),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => return Err(format!("unknown engine setting '{word}'")),
                },
            }
        }
        let name = name.ok_or("an engine needs name=NAME")?;
        let command = command.ok_or_else(|| format!("engine {name} needs cmd=\"COMMAND\""))?;
        let limit = match (limit, proto) {
            (Some(l), _) => l,
            (None, Proto::Gtp) => MoveLimit::Own,
            (None, _) => {
                return Err(format!(
                    "engine {name} needs a limit: depth=, nodes=, movetime= or tc="
                ));
            }
        };
        Ok(EngineSpec {
            name,
            command,
            proto,
            dir,
            options,
            limit,
            ponder,
        })
    }

    /// Whether the engine's protocol can play `kind` with its limit, from openings that may start
    /// from a position of their own (`board_openings`); why not, if it cannot.
    pub fn check(&self, kind: BoardKind, board_openings: bool) -> Result<(), String> {
        let refuse = |why: &str| Err(format!("engine {} ({}): {why}", self.name, self.proto));
        if self.ponder && self.proto != Proto::Othel {
            return refuse("only othel's protocol ponders (go ponder, ponderhit)");
        }
        match self.proto {
            Proto::Othel => Ok(()),
            Proto::Nboard => {
                if kind.variant() == Variant::Lehto {
                    return refuse("NBoard plays Othello only");
                }
                match self.limit {
                    MoveLimit::Nodes(_) | MoveLimit::Movetime(_) => {
                        refuse("NBoard sets a depth or a clock, not nodes or a move time")
                    }
                    _ => Ok(()),
                }
            }
            Proto::Gtp => {
                if kind.variant() == Variant::Lehto {
                    return refuse("GTP plays Othello only");
                }
                if board_openings {
                    return refuse("GTP cannot set up a position; use transcript openings");
                }
                match self.limit {
                    MoveLimit::Own | MoveLimit::Clock { .. } => Ok(()),
                    _ => refuse("GTP has a clock but no depth, nodes or move time"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let spec: EngineSpec = r#"name=a cmd="othel --threads 1" option.hash=16 depth=4"#
            .parse()
            .unwrap();
        assert_eq!(spec.command, ["othel", "--threads", "1"]);
        assert_eq!(spec.options, [("hash".to_string(), "16".to_string())]);
        assert_eq!(spec.limit, MoveLimit::Depth(4));
        assert!(!spec.ponder);
        let spec: EngineSpec = "name=p cmd=othel tc=10+0.1 ponder=on".parse().unwrap();
        assert!(spec.ponder);
        let spec: EngineSpec = "name=b cmd='edax -gtp' proto=gtp tc=60+0.5"
            .parse()
            .unwrap();
        assert_eq!(spec.proto, Proto::Gtp);
        assert_eq!(
            spec.limit,
            MoveLimit::Clock {
                base: Duration::from_secs(60),
                increment: Duration::from_millis(500)
            }
        );
        for bad in [
            "cmd=othel depth=1",
            "name=a depth=1",
            "name=a cmd=othel",
            "name=a cmd=othel depth=1 nodes=5",
            "name=a cmd=othel depth=x",
            "name=a cmd=othel proto=uci depth=1",
            "name=a cmd=\"othel depth=1",
            "name=a cmd=othel tc=0",
            "name=a cmd=othel colour=blue depth=1",
            "name=a cmd=othel depth=1 ponder=yes",
        ] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn protocols_refuse_what_they_cannot_express() {
        let othello = BoardKind::default();
        let lehto = BoardKind::default_for(Variant::Lehto);
        let spec = |s: &str| s.parse::<EngineSpec>().unwrap();
        assert!(spec("name=a cmd=x depth=3").check(lehto, true).is_ok());
        assert!(
            spec("name=a cmd=x proto=nboard depth=3")
                .check(lehto, false)
                .is_err()
        );
        assert!(
            spec("name=a cmd=x proto=nboard nodes=3")
                .check(othello, false)
                .is_err()
        );
        assert!(
            spec("name=a cmd=x proto=nboard tc=5")
                .check(othello, true)
                .is_ok()
        );
        assert!(
            spec("name=a cmd=x proto=gtp depth=3")
                .check(othello, false)
                .is_err()
        );
        assert!(spec("name=a cmd=x proto=gtp").check(othello, true).is_err());
        assert!(
            spec("name=a cmd=x tc=5 ponder=on")
                .check(lehto, true)
                .is_ok()
        );
        assert!(
            spec("name=a cmd=x proto=nboard tc=5 ponder=on")
                .check(othello, false)
                .is_err()
        );
        assert!(
            spec("name=a cmd=x proto=gtp tc=5+1")
                .check(othello, false)
                .is_ok()
        );
    }
}
