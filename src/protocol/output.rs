//! Protocol output: whole lines to stdout, each flushed at once, from any thread.

use std::fmt::Display;
use std::io::Write;
use std::sync::Mutex;

/// Where replies go. Lines from the controller and the search thread never interleave.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    /// Output to stdout.
    pub fn stdout() -> Output {
        Output::to(Box::new(std::io::stdout()))
    }

    /// Output to any writer (tests).
    pub fn to(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(sink),
        }
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: impl Display) {
        // A poisoned lock only means another thread panicked mid-write; the sink is still usable.
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout (the front end went away) is not the engine's error: nothing to do.
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }

    /// Flushes what is written (every line already is; this waits for a line being written).
    pub fn flush(&self) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = sink.flush();
    }

    /// Writes text exactly as given (it carries its own line ends) and flushes it.
    pub fn raw(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.flush();
    }

    /// Writes several lines as one block.
    pub fn block(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        for line in text.lines() {
            let _ = writeln!(sink, "{line}");
        }
        let _ = sink.flush();
    }
}
