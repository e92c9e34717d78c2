//! GGF records. Invariants: no panic; a record that reads writes back to one that reads to the
//! same record; replaying it as a game either works or says why.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othel::rules::ggf::GgfRecord;
use othel::with_position_type;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = text.parse::<GgfRecord>() else {
        return;
    };
    let written = record.to_string();
    let again: GgfRecord = written.parse().expect("a written record reads");
    assert_eq!(again, record);
    let kind = record.kind();
    with_position_type!(kind, P => {
        let _ = record.to_game::<P>();
    });
});
