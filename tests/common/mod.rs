//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod engine;
pub mod reference;

use std::path::PathBuf;

/// The shared test data folder (`../shared/data` beside the repository), or `None` with a printed
/// reason when this clone has none.
pub fn shared_data(file: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(file);
    if path.exists() {
        Some(path)
    } else {
        println!(
            "skipped: {} is absent (../shared is not beside this clone)",
            path.display()
        );
        None
    }
}
