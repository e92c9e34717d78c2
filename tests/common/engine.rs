//! An engine process driven line by line, for the protocol tests.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The engine started with `args`, stdin and stdout piped, stderr dropped.
pub fn spawn_piped(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_othel"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts")
}

/// An engine process driven line by line.
pub struct Engine {
    /// The process.
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    /// The engine with no arguments.
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// The engine started with `args`.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = spawn_piped(args);
        let stdin = child.stdin.take().expect("stdin");
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        writeln!(stdin, "{command}").expect("the engine reads");
    }

    /// Ends the engine's input (end of file), as a front end that went away.
    #[allow(dead_code)]
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, within the time given.
    pub fn expect_line(&self, within: Duration) -> String {
        self.lines.recv_timeout(within).expect("a reply in time")
    }

    /// Reads lines until one starts with `prefix`; returns it and the lines before it.
    pub fn until(&self, prefix: &str, within: Duration) -> (String, Vec<String>) {
        let deadline = Instant::now() + within;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' line in time; got {before:?}"));
            if line.starts_with(prefix) {
                return (line, before);
            }
            before.push(line);
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
