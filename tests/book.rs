//! The opening book end to end: the built-in books, `othel book build/add/show/export/import`
//! (resuming a build), a corrupt or truncated book (a clear error, the engine goes on without a
//! book), and `bookrandom` staying in its window.

mod common;

use common::Scratch;
use othel::book::{Book, embedded};
use othel::rules::geometry::{Size6, Size8};
use othel::rules::{BoardKind, Othello, Position, Variant};
use rand::{RngExt, SeedableRng, rngs::StdRng};
use std::io::Write;
use std::process::{Command, Output, Stdio};

const OTHEL: &str = env!("CARGO_BIN_EXE_othel");

fn othel(args: &[&str]) -> Output {
    Command::new(OTHEL).args(args).output().expect("othel runs")
}

#[test]
fn the_built_in_books_know_their_openings() {
    for (variant, size) in [
        (Variant::Othello, 8),
        (Variant::Othello, 6),
        (Variant::Lehto, 9),
    ] {
        let kind = BoardKind::new(variant, size).unwrap();
        let book = embedded(kind).expect("a built-in book");
        assert!(book.len() > 100, "{kind}: {} positions", book.len());
        othel::with_position_type!(kind, P => {
            let start = P::start();
            assert!(!book.moves(&start).is_empty(), "{kind}: the start has no book move");
        });
    }
    // Lehto's book knows the swap decision after any first move.
    let kind = BoardKind::new(Variant::Lehto, 9).unwrap();
    let book = embedded(kind).unwrap();
    othel::with_position_type!(kind, P => {
        let after = P::start().play("c3".parse().unwrap());
        let moves = book.moves(&after);
        assert!(moves.iter().any(|m| m.mv == othel::rules::Move::Swap), "{moves:?}");
    });
}

/// The 6×6 book is solved: from the start (white wins 20–16, so −4 for black), every position
/// along the perfect lines has exact scores for all its moves, and its score is its best move's.
#[test]
fn the_6x6_book_is_solved() {
    let book = embedded(BoardKind::new(Variant::Othello, 6).unwrap()).unwrap();
    let start = Othello::<Size6>::start();
    assert_eq!(
        book.get(&start).map(|e| (e.score, e.exact)),
        Some((-400, true))
    );
    let mut lines = vec![(start, 0)];
    let mut deepest = 0;
    while let Some((pos, ply)) = lines.pop() {
        let moves = book.moves(&pos);
        let Some(best) = moves.first().copied() else {
            continue;
        };
        deepest = deepest.max(ply);
        let entry = book.get(&pos).unwrap();
        assert!(
            entry.exact && entry.score == best.score,
            "{entry:?} vs {best:?}"
        );
        for m in &moves {
            assert!(m.exact, "{m:?}");
            if m.score == best.score {
                lines.push((pos.play(m.mv), ply + 1));
            }
        }
    }
    assert!(deepest >= 6, "the perfect lines end at ply {deepest}");
}

#[test]
fn book_choices_stay_in_the_random_window() {
    let book = embedded(BoardKind::default()).unwrap();
    let start = Othello::<Size8>::start();
    let mut pos = start.play("f5".parse().unwrap());
    let mut rng = StdRng::seed_from_u64(11);
    let mut plies = 0;
    while let Some(best) = book.moves(&pos).first().copied() {
        for window in [0, 100, 300] {
            for _ in 0..20 {
                let m = book
                    .choose(&pos, window, |n| rng.random_range(0..n))
                    .unwrap();
                assert!(m.score >= best.score - window, "{m:?} vs {best:?}");
                if window == 0 {
                    assert_eq!(m.score, best.score);
                }
            }
        }
        pos = pos.play(best.mv);
        plies += 1;
    }
    assert!(plies >= 3, "the book's main line is {plies} plies long");
}

#[test]
fn build_resume_show_export_and_import() {
    let dir = Scratch::new("book");
    let path = dir.join("six.book");
    let p = path.to_str().unwrap();
    let build = [
        "book", "build", "--size", "6", "--plies", "3", "--depth", "4", "--width", "1",
    ];
    let out = othel(&[&build[..], &["--threads", "1", "--out", p]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(first.contains(" searched "), "{first}");
    // Built again: nothing new to search.
    let out = othel(&[&build[..], &["--threads", "1", "--out", p]].concat());
    assert!(String::from_utf8_lossy(&out.stdout).contains(" searched 0 "));
    let shown = othel(&["book", "show", "--book", p, "--size", "6"]);
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.starts_with("position score "), "{text}");
    assert!(
        text.lines().filter(|l| l.starts_with("move ")).count() == 4,
        "{text}"
    );
    // Text and binary forms carry the same book.
    let text_path = dir.join("six.txt");
    assert!(
        othel(&["book", "export", p, "--out", text_path.to_str().unwrap()])
            .status
            .success()
    );
    let again = dir.join("again.book");
    let imported = othel(&[
        "book",
        "import",
        text_path.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(imported.status.success());
    assert_eq!(Book::load(&path).unwrap(), Book::load(&again).unwrap());
}

#[test]
fn a_corrupt_or_truncated_book_is_an_error_and_the_engine_goes_on() {
    let good = embedded(BoardKind::default()).unwrap().to_bytes();
    let dir = Scratch::new("book");
    let truncated = dir.join("truncated.book");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let corrupt = dir.join("corrupt.book");
    let mut bytes = good.clone();
    bytes[20] = 0xff;
    bytes[21] = 0xff;
    std::fs::write(&corrupt, &bytes).unwrap();
    for (path, why) in [(&truncated, "truncated"), (&corrupt, "corrupt")] {
        let mut child = Command::new(OTHEL)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let script = format!(
            "setoption threads=1 book={}\nposition startpos moves f5\ngo depth 3\n",
            path.display()
        );
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("error book ") && lines[0].contains(why),
            "{text}"
        );
        // No book: the reply comes from a search.
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 3 ")),
            "{text}"
        );
        assert!(lines.last().unwrap().starts_with("bestmove "), "{text}");
    }
}

#[test]
fn the_8x8_book_covers_most_xot_openings() {
    let Some(path) = common::shared_data("openings/xot-large.txt") else {
        return;
    };
    let book = embedded(BoardKind::default()).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let (mut lines, mut covered, mut plies, mut known) = (0, 0, 0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let moves = othel::rules::notation::parse_transcript(line.trim()).unwrap();
        let mut pos = Othello::<Size8>::start();
        let mut all = true;
        for mv in moves.iter().take(8) {
            pos = pos.play(*mv);
            plies += 1;
            if book.get(&pos).is_some() {
                known += 1;
            } else {
                all = false;
            }
        }
        lines += 1;
        covered += all as usize;
    }
    let share = covered as f64 / lines as f64;
    println!(
        "XOT: {covered} of {lines} openings ({:.1}%) have all of plies 1-8 in the book; \
         {known} of {plies} plies ({:.1}%)",
        100.0 * share,
        100.0 * known as f64 / plies as f64
    );
    assert!(share > 0.5, "{covered} of {lines}");
}

#[test]
fn book_show_names_a_size_mismatch() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_othel"))
        .args([
            "book",
            "show",
            "--book",
            concat!(env!("CARGO_MANIFEST_DIR"), "/book/othello-6.book"),
        ])
        .output()
        .expect("othel runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the book is for othello 6x6, the position is othello 8x8"),
        "{err}"
    );
}

#[test]
fn a_sharded_build_merges_into_a_book_holding_the_whole_build() {
    let dir = Scratch::new("book-shards");
    let path = |name: &str| dir.join(name).display().to_string();
    let build = |out: &str, shard: Option<&str>| {
        let mut args = vec![
            "book",
            "build",
            "--size",
            "6",
            "--plies",
            "5",
            "--depth",
            "4",
            "--width",
            "2",
            "--threads",
            "1",
            "--out",
            out,
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let out = othel(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    build(&path("whole.book"), None);
    let parts: Vec<String> = (0..3).map(|k| path(&format!("part{k}.book"))).collect();
    for (k, part) in parts.iter().enumerate() {
        build(part, Some(&format!("{k}/3")));
    }
    let mut args = vec!["book", "merge"];
    args.extend(parts.iter().map(String::as_str));
    let merged = path("merged.book");
    args.extend(["--out", &merged]);
    let out = othel(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same build on the merged book adds the few positions above the split.
    build(&merged, None);
    let load = |p: &str| Book::load(std::path::Path::new(p)).expect("a book");
    let (whole, merged_book) = (load(&path("whole.book")), load(&merged));
    // Every position of the unsharded build is in the merged book with the same search (a
    // position's search starts from a clear table, so it is the same on every machine).
    let entries = |book: &Book| -> std::collections::HashMap<String, (i32, u8, bool)> {
        book.to_text()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let leaf = (w[3].parse::<f64>().unwrap() * 100.0).round() as i32;
                (
                    format!("{} {}", w[0], w[1]),
                    (leaf, w[4].parse().unwrap(), w[5] == "exact"),
                )
            })
            .collect()
    };
    let (w, m) = (entries(&whole), entries(&merged_book));
    assert!(
        w.len() > 50 && m.len() >= w.len(),
        "{} {}",
        w.len(),
        m.len()
    );
    for (position, search) in &w {
        assert_eq!(m.get(position), Some(search), "{position}");
    }
    // Books of another kind do not merge.
    let eight = path("eight.book");
    let out = othel(&[
        "book",
        "build",
        "--plies",
        "1",
        "--depth",
        "2",
        "--threads",
        "1",
        "--out",
        &eight,
    ]);
    assert!(out.status.success());
    let out = othel(&[
        "book",
        "merge",
        &eight,
        &parts[0],
        "--out",
        &path("bad.book"),
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("othello 6x6"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
