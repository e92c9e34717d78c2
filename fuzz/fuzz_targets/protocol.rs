//! Lines into the engine protocol's controller, and single lines into the NBoard and GTP
//! parsers. Invariants: no panic, no hang (searches are stopped before the end; perft above
//! depth 4 is left out, as a slow command rather than a fault).
#![no_main]

use libfuzzer_sys::fuzz_target;
use othel::protocol::command::{Command, parse};
use othel::protocol::controller::{Controller, Flow};
use othel::protocol::output::Output;
use othel::protocol::{gtp, nboard};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let out = Arc::new(Output::to(Box::new(std::io::sink())));
    let stop = Arc::new(AtomicBool::new(false));
    let Ok(mut controller) = Controller::new(out, Arc::clone(&stop)) else {
        return;
    };
    for line in text.lines().take(40) {
        let _ = nboard::parse(line);
        let _ = gtp::parse_line(line);
        let Ok(command) = parse(line) else { continue };
        if matches!(command, Command::Perft(d) if d > 4) {
            continue;
        }
        // A search may not run long: each is stopped by the next line.
        stop.store(true, Ordering::Relaxed);
        controller.finish_search();
        if controller.handle(command, line) == Flow::Quit {
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    controller.finish_search();
});
