//! The engine protocol on stdin/stdout (protocol.md describes it completely).
//!
//! A reader thread only reads and parses lines: `quit` ends the process at once; every other
//! command, and every parse error, goes over a channel to the [`controller::Controller`] on the
//! main thread, so replies keep the order of the commands. The controller never waits for a search
//! (searches run on a thread of their own and never read input), so `stop` and `isready` are
//! handled as soon as they are read; `stop` raises the search's atomic stop flag. (A `stop` that
//! raised the flag straight from the reader could be overtaken by the `go` before it, which
//! lowers the flag.)

pub mod command;
pub mod controller;
pub mod output;
pub mod session;

use command::{Command, parse};
use controller::{Controller, Flow};
use output::Output;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;

/// What the reader hands the controller.
enum Message {
    Command(Command, String),
    Error(String),
}

/// Runs the protocol on stdin and stdout until `quit` or the end of input. Returns the exit code.
pub fn run() -> i32 {
    let out = Arc::new(Output::stdout());
    let stop = Arc::new(AtomicBool::new(false));
    let mut controller = match Controller::new(Arc::clone(&out), Arc::clone(&stop)) {
        Ok(c) => c,
        Err(e) => {
            log::error!("{e}");
            return 1;
        }
    };
    let (sender, receiver) = mpsc::channel::<Message>();
    let reader_stop = Arc::clone(&stop);
    let reader_out = Arc::clone(&out);
    let reader = std::thread::Builder::new()
        .name("othel-reader".into())
        .spawn(move || read_loop(std::io::stdin().lock(), &sender, &reader_stop, &reader_out));
    if let Err(e) = reader {
        log::error!("cannot start the input reader: {e}");
        return 1;
    }
    for message in receiver {
        match message {
            Message::Error(e) => out.line(format!("error {e}")),
            Message::Command(command, line) => {
                if controller.handle(command, &line) == Flow::Quit {
                    return 0;
                }
            }
        }
    }
    // End of input: let a running search finish and print its result.
    controller.finish_search();
    0
}

fn read_loop(
    mut input: impl BufRead,
    sender: &mpsc::Sender<Message>,
    stop: &AtomicBool,
    out: &Output,
) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => {
                log::error!("reading input: {e}");
                return;
            }
        }
        let line = String::from_utf8_lossy(&buffer);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        log::debug!("<< {line}");
        let message = match parse(line) {
            Ok(Command::Quit) => {
                stop.store(true, Relaxed);
                out.flush();
                std::process::exit(0);
            }
            Ok(command) => Message::Command(command, line.to_string()),
            Err(e) => Message::Error(e.to_string()),
        };
        if sender.send(message).is_err() {
            return;
        }
    }
}
