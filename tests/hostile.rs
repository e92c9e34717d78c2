//! A hostile environment: weights and book files truncated or corrupted at any byte are errors,
//! never panics, and the engine keeps its built-in data; a match killed by SIGTERM keeps every
//! game it finished and `--resume` goes on from there.

mod common;

use common::Scratch;
use othel::book::Book;
use othel::eval::model::Model;
use othel::eval::weights::Weights;
use rand::{RngExt, SeedableRng, rngs::StdRng};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const OTHEL: &str = env!("CARGO_BIN_EXE_othel");

/// Every truncation in the first bytes, then a spread of cut points, and random byte changes.
fn damaged(original: &[u8], seed: u64) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let len = original.len();
    for cut in (0..len.min(300)).chain((300..len).step_by((len / 300).max(1))) {
        out.push(original[..cut].to_vec());
    }
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..600 {
        let mut bytes = original.to_vec();
        for _ in 0..rng.random_range(1..4) {
            // Mostly in the header and the first values, where the shape is read.
            let at = if rng.random_bool(0.5) {
                rng.random_range(0..len.min(64))
            } else {
                rng.random_range(0..len)
            };
            bytes[at] = rng.random();
        }
        out.push(bytes);
    }
    out
}

#[test]
fn damaged_weights_files_are_errors_not_panics() {
    let original = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/weights/othello-6.weights"
    ))
    .expect("the 6x6 weights");
    let mut refused = 0;
    for bytes in damaged(&original, 1) {
        match Weights::from_bytes(&bytes) {
            // A change that still reads as weights must still lay over the patterns or say why.
            Ok(w) => {
                let _ = Model::<u64>::new(w);
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                refused += 1;
            }
        }
    }
    assert!(refused > 300, "{refused}");
}

#[test]
fn damaged_book_files_are_errors_not_panics() {
    for (file, seed) in [("othello-6.book", 2), ("lehto-9.book", 3)] {
        let path = format!("{}/book/{file}", env!("CARGO_MANIFEST_DIR"));
        let original = std::fs::read(path).expect("a book");
        let mut refused = 0;
        for bytes in damaged(&original, seed) {
            match Book::from_bytes(&bytes) {
                Ok(book) => {
                    // Whatever reads must also write and show without panicking.
                    let _ = book.to_text();
                }
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    refused += 1;
                }
            }
        }
        assert!(refused > 100, "{file}: {refused}");
        let text = Book::from_bytes(&original).expect("the book").to_text();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..300 {
            let mut t: Vec<char> = text.chars().collect();
            let at = rng.random_range(0..t.len());
            t[at] = ['x', '9', ' ', '\n', '-', 'O', '.'][rng.random_range(0..7)];
            let _ = Book::from_text(&t.into_iter().collect::<String>());
        }
    }
}

#[test]
fn a_damaged_file_leaves_the_engine_on_its_built_in_data() {
    let dir = Scratch::new("hostile");
    let original =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/book/othello-6.book")).unwrap();
    let cut = dir.join("cut.book");
    std::fs::write(&cut, &original[..original.len() / 2]).unwrap();
    let weights = dir.join("cut.weights");
    std::fs::write(&weights, b"OTHELWT1\x08\x10").unwrap();
    // A one-shot command names the file and fails.
    let out = Command::new(OTHEL)
        .args(["--weights", weights.to_str().unwrap(), "board"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("truncated") && !err.contains("panicked"),
        "{err}"
    );
    // The engine answers a bad book with an error line and goes on with its own.
    let mut child = Command::new(OTHEL)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!(
        "setoption variant=othello size=6 book={}\nisready\nposition startpos\ngo depth 4\n",
        cut.display()
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l.starts_with("error ") && l.contains("cut.book")),
        "{text}"
    );
    assert!(
        text.contains("readyok") && text.contains("bestmove "),
        "{text}"
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[cfg(unix)]
#[test]
fn a_match_killed_by_sigterm_keeps_its_games_and_resumes() {
    let dir = Scratch::new("hostile-match");
    let games = dir.join("games.ggf");
    let args = |resume: bool| {
        let mut a = vec![
            "match".to_string(),
            "--engine".to_string(),
            format!("name=a cmd='{OTHEL} --threads 1' depth=2"),
            "--engine".to_string(),
            format!("name=b cmd='{OTHEL} --threads 1' depth=1"),
            "--size".to_string(),
            "6".to_string(),
            "--games".to_string(),
            "40".to_string(),
            "--out".to_string(),
            games.display().to_string(),
        ];
        if resume {
            a.push("--resume".to_string());
        }
        a
    };
    let mut child = Command::new(OTHEL)
        .args(args(false))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a few games are in.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let n = std::fs::read_to_string(&games).map_or(0, |t| t.lines().count());
        if n >= 4 {
            break;
        }
        assert!(Instant::now() < deadline, "no games written");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let _ = child.wait();
    let text = std::fs::read_to_string(&games).unwrap();
    // Every line is a whole game record.
    assert!(text.is_empty() || text.ends_with('\n'), "{text}");
    let kept = text.lines().count();
    assert!(
        text.lines()
            .all(|l| l.starts_with("(;") && l.ends_with(";)")),
        "{text}"
    );
    let out = Command::new(OTHEL).args(args(true)).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&games).unwrap();
    let mut numbers: Vec<usize> = text
        .lines()
        .filter_map(|l| {
            let start = l.find("GN[")? + 3;
            l[start..].split(']').next()?.parse().ok()
        })
        .collect();
    numbers.sort();
    assert!(kept >= 4);
    assert_eq!(numbers, (0..40).collect::<Vec<_>>());
}
