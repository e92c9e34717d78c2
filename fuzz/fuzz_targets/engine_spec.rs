//! The match runner's engine specs. Invariant: no panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othel::tournament::spec::EngineSpec;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = text.parse::<EngineSpec>();
    }
});
