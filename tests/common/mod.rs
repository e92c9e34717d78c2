//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod engine;
pub mod reference;

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A folder of its own for one test's files, deleted with everything in it when the test ends
/// (also when it fails), so that test runs leave nothing behind in the temporary folder.
pub struct Scratch(tempfile::TempDir);

impl Scratch {
    /// A new empty folder whose name starts with `othel-NAME-`.
    pub fn new(name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("othel-{name}-"))
            .tempdir()
            .expect("a scratch folder");
        Scratch(dir)
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

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
