//! Protocol output: whole lines to stdout, each flushed at once, from any thread.

use std::fmt::Display;
use std::io::Write;
use std::sync::Mutex;

/// Where replies go. Lines from the controller and the search thread never interleave.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
    /// Whether a closed sink ends the process (stdout: the front end has gone, so nothing the
    /// engine does can matter any more, a running search included).
    exit_when_closed: bool,
}

impl Output {
    /// Output to stdout.
    pub fn stdout() -> Output {
        Output {
            sink: Mutex::new(Box::new(std::io::stdout())),
            exit_when_closed: true,
        }
    }

    /// Output to any writer (tests).
    pub fn to(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(sink),
            exit_when_closed: false,
        }
    }

    /// What a write's result means: a closed stdout ends the process quietly; other errors
    /// are not the engine's to act on.
    fn check(&self, written: std::io::Result<()>) {
        if let Err(e) = written
            && e.kind() == std::io::ErrorKind::BrokenPipe
            && self.exit_when_closed
        {
            log::info!("standard output closed: exiting");
            std::process::exit(0);
        }
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: impl Display) {
        // A poisoned lock only means another thread panicked mid-write; the sink is still usable.
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let written = writeln!(sink, "{text}").and_then(|_| sink.flush());
        self.check(written);
    }

    /// Flushes what is written (every line already is; this waits for a line being written).
    pub fn flush(&self) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = sink.flush();
    }

    /// Writes text exactly as given (it carries its own line ends) and flushes it.
    pub fn raw(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let written = sink.write_all(text.as_bytes()).and_then(|_| sink.flush());
        self.check(written);
    }

    /// Writes several lines as one block.
    pub fn block(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let written = text
            .lines()
            .try_for_each(|line| writeln!(sink, "{line}"))
            .and_then(|_| sink.flush());
        self.check(written);
    }
}
