//! Training the pattern evaluation end to end: self-play samples, their labels, a fit, and the
//! fitted weights used for more self-play.

mod common;

use common::Scratch;
use othel::eval::model::Model;
use othel::eval::weights::Weights;
use othel::eval::{DISC, Evaluate};
use othel::rules::geometry::Size6;
use othel::rules::{Color, Othello, Position};
use othel::search::{Limits, Searcher};
use othel::train::samples;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

fn othel(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othel"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the engine with `args`, sends it `script` and returns what it printed.
fn converse(args: &[&str], script: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut engine = Command::new(env!("CARGO_BIN_EXE_othel"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut input) = engine.stdin.take() {
        input
            .write_all(script.as_bytes())
            .expect("the engine reads");
    }
    let out = engine.wait_with_output().expect("the engine ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts that a run of othel succeeded, showing its standard error if not.
fn assert_succeeded(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs othel with `args`, which must fail with `message` in its standard error.
fn refused(args: &[&str], message: &str) {
    let out = othel(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
}

/// A fresh folder for one test's files, deleted when the test ends.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("train-{name}"))
}

#[test]
fn self_play_samples_fit_into_weights_that_play() {
    let dir = scratch("pipeline");
    let data = dir.join("six.samples");
    let data_s = data.to_str().unwrap();
    let gen_args = [
        "train",
        "gen",
        "--size",
        "6",
        "--games",
        "40",
        "--depth",
        "2",
        "--solve",
        "12",
        "--threads",
        "2",
        "--hash",
        "4",
        "--out",
        data_s,
    ];
    let out = othel(&gen_args);
    assert_succeeded(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("40 games, "), "{text}");

    let bytes = std::fs::read(&data).unwrap();
    let set = samples::read(bytes.as_slice(), 6).unwrap();
    assert!(set.len() > 40 * 10, "{} samples", set.len());
    // Positions of the perfect ending carry their exact score.
    let searcher = Searcher::new(1, 4).unwrap();
    let stop = AtomicBool::new(false);
    let exact = Limits {
        exact: true,
        ..Limits::default()
    };
    let mut checked = 0;
    for s in set
        .iter()
        .filter(|s| 36 - (s.player | s.opponent).count_ones() <= 12)
        .take(60)
    {
        let pos = Othello::<Size6>::from_discs(s.player, s.opponent, Color::Black).unwrap();
        let result = searcher.search(&pos, &exact, &stop, &mut |_| {});
        assert_eq!(result.score, s.score as i32 * DISC, "{s:?}");
        checked += 1;
    }
    assert_eq!(checked, 60);

    // Appending keeps one header.
    let out = othel(&gen_args);
    assert!(out.status.success());
    let more = samples::read(std::fs::read(&data).unwrap().as_slice(), 6).unwrap();
    assert_eq!(
        more.len(),
        2 * set.len(),
        "the same seeds play the same games"
    );

    let weights = dir.join("six.weights");
    let out = othel(&[
        "train",
        "fit",
        data_s,
        "--size",
        "6",
        "--iterations",
        "40",
        "--lambda",
        "1",
        "--out",
        weights.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_succeeded(&out);
    assert!(text.contains("phase  0 (empties  0- 3)"), "{text}");
    let w = Weights::from_bytes(&std::fs::read(&weights).unwrap()).unwrap();
    let model = Model::<u64>::new(w).unwrap();
    // The fit explains its samples far better than a constant 0.
    let (mut fitted, mut zero) = (0.0, 0.0);
    for s in &more {
        let pos = Othello::<Size6>::from_discs(s.player, s.opponent, Color::Black).unwrap();
        let predicted = model.evaluate(&pos.pattern_inputs()) as f64 / DISC as f64;
        fitted += (predicted - s.score as f64).powi(2);
        zero += (s.score as f64).powi(2);
    }
    assert!(fitted < 0.5 * zero, "fitted {fitted} vs zero {zero}");

    // The weights play more games.
    let again = dir.join("again.samples");
    let out = othel(&[
        "train",
        "gen",
        "--size",
        "6",
        "--games",
        "4",
        "--depth",
        "2",
        "--solve",
        "10",
        "--weights",
        weights.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_succeeded(&out);
}

#[test]
fn larger_boards_train_from_games_files_into_weights_the_engine_uses() {
    let dir = scratch("ten");
    // Each board: its side, games to play, moves to a position, how to set it up, and where its
    // evaluation's terms are (the weights', the baseline's) in the engine's `eval`.
    type Board<'a> = (&'a str, u64, &'a str, &'a str, [std::ops::Range<usize>; 2]);
    let boards: [Board; 5] = [
        ("10", 6, "e4 d6 c7", "size=10", [0..6, 6..14]),
        ("12", 2, "f5 e7 d8", "size=12", [0..6, 6..14]),
        ("14", 2, "g6 h6 i6", "size=14", [0..6, 6..14]),
        ("16", 2, "h7 i7 j7", "size=16", [0..6, 6..14]),
        // Lehto: the baseline's four terms first; its positions are all placements.
        ("9", 4, "e5 d4 f6", "variant=lehto size=9", [4..10, 0..4]),
    ];
    for (size, games, moves, setup, [trained, untrained]) in boards {
        let data = dir.join(format!("{size}.games"));
        let out = othel(&[
            "train",
            "gen",
            "--size",
            size,
            "--games",
            &games.to_string(),
            "--depth",
            "1",
            "--solve",
            "8",
            "--hash",
            "4",
            "--out",
            data.to_str().unwrap(),
        ]);
        assert_succeeded(&out);
        // Fits the games with this ridge and these iterations into a weights file.
        let fit = |name: &str, lambda: &str, iterations: &str| {
            let weights = dir.join(format!("{size}{name}.weights"));
            let out = othel(&[
                "train",
                "fit",
                data.to_str().unwrap(),
                "--size",
                size,
                "--iterations",
                iterations,
                "--lambda",
                lambda,
                "--out",
                weights.to_str().unwrap(),
            ]);
            assert_succeeded(&out);
            (weights, out)
        };
        let (weights, out) = fit("", "1", "20");
        let text = String::from_utf8_lossy(&out.stdout);
        // Phases of 8 empty squares on the larger boards.
        assert!(text.contains("phase  1 (empties  8-15)"), "{text}");
        let w = Weights::from_bytes(&std::fs::read(&weights).unwrap()).unwrap();
        assert_eq!(w.size.to_string(), size);
        assert!(w.values.iter().any(|&v| v != 0));
        // The engine evaluates that board with them, and by the patterns' terms.
        let text = converse(
            &["--weights", weights.to_str().unwrap(), "--book", "off"],
            &format!("setoption {setup}\nposition startpos\neval\ngo depth 3\nquit\n"),
        );
        // The patterns correct the baseline's terms, which stay in the evaluation.
        assert!(text.contains("edge_patterns"), "{text}");
        let baseline_term = if size == "9" {
            " material "
        } else {
            " corners "
        };
        assert!(text.contains(baseline_term), "{text}");
        assert!(text.contains("bestmove "), "{text}");

        // A fit held at zero by its ridge leaves the baseline's evaluation as it was.
        let (held, _) = fit("-held", "1e12", "5");
        let text = converse(
            &["--weights", held.to_str().unwrap()],
            &format!("setoption {setup}\nposition startpos moves {moves}\neval\nquit\n"),
        );
        // `eval TOTAL name value …`: the weights' terms are all 0 here, the baseline's make the
        // whole total.
        let words: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("eval "))
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let value = |w: &str| w.parse::<f64>().unwrap();
        let terms: Vec<f64> = words[2..].chunks(2).map(|t| value(t[1])).collect();
        assert_eq!(terms.len(), trained.len() + untrained.len(), "{text}");
        assert!(terms[trained].iter().all(|&v| v == 0.0), "{text}");
        let baseline: f64 = terms[untrained].iter().sum();
        assert!(baseline != 0.0, "{text}");
        assert!((value(words[1]) - baseline).abs() < 0.015, "{text}");
    }
}

#[test]
fn bad_training_input_is_an_error() {
    let dir = scratch("bad");
    let junk = dir.join("junk");
    std::fs::write(&junk, "not samples at all").unwrap();
    let junk = junk.to_str().unwrap();
    refused(
        &["train", "fit", junk, "--out", "/dev/null"],
        "not an othel samples file",
    );
    refused(
        &[
            "train",
            "gen",
            "--size",
            "7",
            "--games",
            "1",
            "--out",
            "/dev/null",
        ],
        "Lehto on 9x9, not 7x7",
    );
    let wide = dir.join("ten.samples");
    refused(
        &[
            "train",
            "gen",
            "--size",
            "10",
            "--games",
            "1",
            "--out",
            wide.to_str().unwrap(),
        ],
        "up to 8x8",
    );
    let out = dir.join("x");
    let args = ["train", "gen", "--size", "6", "--games", "1"];
    refused(
        &[
            &args[..],
            &["--weights", junk, "--out", out.to_str().unwrap()],
        ]
        .concat(),
        "bad magic",
    );
    // Appending to a file that is not samples is refused.
    refused(&[&args[..], &["--out", junk]].concat(), "");
}

#[test]
fn train_label_writes_a_test_set_of_exact_or_searched_scores() {
    let dir = scratch("label");
    let games = dir.join("six.games");
    let games_s = games.to_str().unwrap();
    let out = othel(&[
        "train",
        "gen",
        "--size",
        "6",
        "--games",
        "20",
        "--depth",
        "2",
        "--solve",
        "8",
        "--threads",
        "2",
        "--hash",
        "4",
        "--out",
        games_s,
    ]);
    assert_succeeded(&out);

    let exact = dir.join("exact.samples");
    let label = |empties: &str, how: &[&str], file: &PathBuf| {
        othel(
            &[
                &[
                    "train",
                    "label",
                    games_s,
                    "--size",
                    "6",
                    "--empties",
                    empties,
                ][..],
                &["--count", "15", "--threads", "2", "--hash", "4", "--out"],
                &[file.to_str().unwrap()],
                how,
            ]
            .concat(),
        )
    };
    let out = label("10-12", &["--exact"], &exact);
    assert_succeeded(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("15 positions labelled (exact)"), "{text}");
    let set = samples::read(std::fs::read(&exact).unwrap().as_slice(), 6).unwrap();
    assert_eq!(set.len(), 15);
    // Every label is the exact score (the games' own labels before their solve point at 8
    // empties are results of play, which an exact solve need not equal).
    let searcher = Searcher::new(1, 4).unwrap();
    let stop = AtomicBool::new(false);
    let solve = Limits {
        exact: true,
        ..Limits::default()
    };
    for s in &set {
        let empties = 36 - (s.player | s.opponent).count_ones();
        assert!((10..=12).contains(&empties), "{empties} empties");
        let pos = Othello::<Size6>::from_discs(s.player, s.opponent, Color::Black).unwrap();
        let result = searcher.search(&pos, &solve, &stop, &mut |_| {});
        assert_eq!(result.score, s.score as i32 * DISC, "{s:?}");
    }
    // The same choice on every run; a search's labels are its scores; eval reads the set.
    let deep = dir.join("deep.samples");
    assert_succeeded(&label("10-12", &["--depth", "3"], &deep));
    let searched = samples::read(std::fs::read(&deep).unwrap().as_slice(), 6).unwrap();
    let discs = |s: &samples::Sample| (s.player, s.opponent);
    assert_eq!(
        searched.iter().map(discs).collect::<Vec<_>>(),
        set.iter().map(discs).collect::<Vec<_>>()
    );
    assert_ne!(
        searched.iter().map(|s| s.score).collect::<Vec<_>>(),
        set.iter().map(|s| s.score).collect::<Vec<_>>(),
        "a depth-3 search is not a solve"
    );
    let out = othel(&["train", "eval", exact.to_str().unwrap(), "--size", "6"]);
    assert_succeeded(&out);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("all            15"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Bad requests are refused with a reason.
    let refused_label = |size: &str, empties: &str, how: &[&str], message: &str| {
        let args = [
            "train",
            "label",
            games_s,
            "--size",
            size,
            "--empties",
            empties,
        ];
        let rest = ["--count", "1", "--out", "/dev/null"];
        refused(&[&args[..], &rest, how].concat(), message);
    };
    refused_label("6", "12-10", &["--exact"], "range");
    refused_label(
        "6",
        "30",
        &["--exact"],
        "no positions with 30-30 empty squares",
    );
    refused_label("10", "30", &["--exact"], "up to 8x8");
    refused_label("6", "10", &[], "--depth");
}

/// The lines of a games file after its header, sorted (games land in the order they finish).
fn game_lines(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().skip(1).map(str::to_string).collect();
    lines.sort();
    lines
}

#[test]
fn game_records_shard_resume_and_replay_into_a_fit() {
    let dir = scratch("records");
    let play = |out: &std::path::Path, extra: &[&str]| {
        let base = [
            "train",
            "gen",
            "--size",
            "6",
            "--games",
            "12",
            "--depth",
            "2",
            "--solve",
            "10",
            "--threads",
            "2",
            "--hash",
            "4",
            "--out",
        ];
        let out = othel(&[&base[..], &[out.to_str().unwrap()], extra].concat());
        assert_succeeded(&out);
    };
    let whole = dir.join("whole.games");
    play(&whole, &[]);
    let all = game_lines(&whole);
    assert_eq!(all.len(), 12);
    let text = std::fs::read_to_string(&whole).unwrap();
    assert!(text.starts_with("#othel-games 2 "), "{text}");
    assert!(text.lines().next().unwrap().contains(" size=6 "));
    // Each game keeps a search score for each position from its opening's end to the solve ply.
    for line in text.lines().skip(1) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 6, "{line}");
        let opening: usize = words[1].parse().unwrap();
        let solve: usize = words[2].parse().unwrap();
        let scores: Vec<i32> = words[5].split(',').map(|w| w.parse().unwrap()).collect();
        assert_eq!(scores.len(), solve - opening, "{line}");
        assert!(scores.iter().all(|s| s.abs() <= 36), "{line}");
    }

    // Three shards together are the whole run, game for game.
    let mut union = Vec::new();
    for k in 0..3 {
        let part = dir.join(format!("part{k}.games"));
        play(&part, &["--shard", &format!("{k}/3")]);
        let lines = game_lines(&part);
        assert_eq!(lines.len(), 4);
        union.extend(lines);
    }
    union.sort();
    assert_eq!(union, all);

    // A file cut inside a game (a kill) resumes: the cut game and the missing ones are played,
    // none twice.
    let cut = dir.join("cut.games");
    let keep: Vec<&str> = text.lines().take(6).collect();
    let partial = text.lines().nth(6).unwrap();
    std::fs::write(
        &cut,
        format!("{}\n{}", keep.join("\n"), &partial[..partial.len() / 2]),
    )
    .unwrap();
    play(&cut, &[]);
    assert_eq!(game_lines(&cut), all);

    // Played otherwise: refused rather than mixed.
    refused(
        &[
            "train",
            "gen",
            "--size",
            "6",
            "--games",
            "12",
            "--depth",
            "3",
            "--solve",
            "10",
            "--out",
            cut.to_str().unwrap(),
        ],
        "played otherwise",
    );

    // A version 1 file of the same games is not resumed in version 2.
    let old = dir.join("old.games");
    let v1: String = text
        .lines()
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            if l.starts_with('#') {
                l.replacen("#othel-games 2 ", "#othel-games 1 ", 1) + "\n"
            } else {
                words[..5].join(" ") + "\n"
            }
        })
        .collect();
    std::fs::write(&old, v1).unwrap();
    refused(
        &[
            "train",
            "gen",
            "--size",
            "6",
            "--games",
            "12",
            "--depth",
            "2",
            "--solve",
            "10",
            "--out",
            old.to_str().unwrap(),
        ],
        "played otherwise",
    );

    // The games replay into positions that a fit reads.
    let weights = dir.join("w.weights");
    let out = othel(&[
        "train",
        "fit",
        whole.to_str().unwrap(),
        "--size",
        "6",
        "--min-samples",
        "10",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert_succeeded(&out);
    let report = String::from_utf8_lossy(&out.stdout);
    let count: usize = report.split_whitespace().next().unwrap().parse().unwrap();
    // 12 games of 6x6 from a 6-ply random opening: 26 placements after it at most, some passes.
    assert!((12 * 20..=12 * 26).contains(&count), "{report}");
    refused(
        &[
            "train",
            "fit",
            whole.to_str().unwrap(),
            "--size",
            "8",
            "--out",
            "/dev/null",
        ],
        "6x6 board, not 8x8",
    );
    // The evaluation's error against the same games' labels, with the new weights and with a
    // fit that leans on them as a prior.
    let eval_args = ["train", "eval", whole.to_str().unwrap(), "--size", "6"];
    let out = othel(&[&["--weights", weights.to_str().unwrap()], &eval_args[..]].concat());
    assert_succeeded(&out);
    let table = String::from_utf8_lossy(&out.stdout);
    let all = table
        .lines()
        .find(|l| l.starts_with("all"))
        .expect("a total");
    assert_eq!(
        all.split_whitespace().nth(1),
        Some(count.to_string().as_str()),
        "{table}"
    );

    // A finished file compressed, in bzip2 as data/ keeps its chunks or in gzip as it kept them
    // until the sixty-seventh session (here in two streams, as `cat a.bz2 b.bz2` makes), reads as
    // the plain one; a run is not played again beside it, nor written compressed; a damaged one is
    // an error.
    let text = std::fs::read(&whole).unwrap();
    let half = text.len() / 2;
    let gen_to = |out: &std::path::Path, message: &str| {
        let out = out.to_str().unwrap();
        let words = [
            "train", "gen", "--size", "6", "--games", "12", "--depth", "2",
        ];
        refused(
            &[&words[..], &["--solve", "10", "--out", out]].concat(),
            message,
        );
    };
    let gzip: fn(&[u8]) -> Vec<u8> = |part| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(part).unwrap();
        encoder.finish().unwrap()
    };
    let bzip2: fn(&[u8]) -> Vec<u8> = |part| {
        let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
        encoder.write_all(part).unwrap();
        encoder.finish().unwrap()
    };
    for (stem, extension, pack) in [("whole", "gz", gzip), ("other", "bz2", bzip2)] {
        let packed: Vec<u8> = [&text[..half], &text[half..]]
            .into_iter()
            .flat_map(pack)
            .collect();
        let compressed = dir.join(format!("{stem}.games.{extension}"));
        std::fs::write(&compressed, &packed).unwrap();
        let out = othel(
            &[
                &["--weights", weights.to_str().unwrap()],
                &["train", "eval", compressed.to_str().unwrap(), "--size", "6"][..],
            ]
            .concat(),
        );
        assert_succeeded(&out);
        assert_eq!(String::from_utf8_lossy(&out.stdout), table);
        gen_to(&dir.join(format!("{stem}.games")), "compressed already");
        gen_to(
            &dir.join(format!("new.games.{extension}")),
            "plain .games file",
        );
        let damaged_name = format!("damaged.games.{extension}");
        let damaged = dir.join(&damaged_name);
        std::fs::write(&damaged, &packed[..packed.len() / 3]).unwrap();
        refused(
            &["train", "eval", damaged.to_str().unwrap(), "--size", "6"],
            &damaged_name,
        );
    }

    let fit_args = [
        "train",
        "fit",
        whole.to_str().unwrap(),
        "--size",
        "6",
        "--min-samples",
        "10",
    ];
    let prior = ["--prior", weights.to_str().unwrap()];
    let again = dir.join("again.weights");
    let out = othel(
        &[
            &fit_args[..],
            &prior,
            &["--smooth", "0.5", "--out", again.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_succeeded(&out);
    refused(
        &[&fit_args[..], &["--smooth", "2", "--out", "/dev/null"]].concat(),
        "--smooth",
    );
    // Finer phases, over the coarser prior; the engine evaluates with them.
    let fine = dir.join("fine.weights");
    let fine_args = [&fit_args[..], &prior, &["--out", fine.to_str().unwrap()]].concat();
    let out = othel(&[&fine_args[..], &["--phase-width", "2"]].concat());
    assert_succeeded(&out);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("phase 16 (empties 32-33)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let w = Weights::from_bytes(&std::fs::read(&fine).unwrap()).unwrap();
    assert_eq!((w.phases, w.phase_shift()), (17, 1));
    let out = othel(&[&["--weights", fine.to_str().unwrap()], &eval_args[..]].concat());
    assert_succeeded(&out);
    refused(
        &[&fine_args[..], &["--phase-width", "3"]].concat(),
        "--phase-width must be 2, 4 or 8",
    );
    // Labels from the search's scores fit other weights; version 1 games (no scores) still read.
    let searched = dir.join("searched.weights");
    let out = othel(
        &[
            &fit_args[..],
            &["--search-weight", "1", "--out", searched.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_succeeded(&out);
    assert_ne!(
        std::fs::read(&searched).unwrap(),
        std::fs::read(&weights).unwrap()
    );
    let out = othel(&["train", "eval", old.to_str().unwrap(), "--size", "6"]);
    assert_succeeded(&out);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .any(|l| l.starts_with("all") && l.contains(&format!(" {count} "))),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    refused(
        &[&eval_args[..], &["--search-weight", "2"]].concat(),
        "--search-weight",
    );
    // Giving back what random moves lost changes the labels (the games' draws are made again
    // and match); a file whose header does not say how its games were drawn is refused, and so
    // is one whose draws do not give its games.
    let plain = othel(&eval_args);
    let undone = othel(&[&eval_args[..], &["--undo-random"]].concat());
    assert_succeeded(&undone);
    assert_ne!(plain.stdout, undone.stdout);
    let text = std::fs::read_to_string(&whole).unwrap();
    let (head, games) = text.split_once('\n').unwrap();
    for (changed, message) in [
        (head.replace(" seed=", " sown="), "does not say how"),
        (
            head.replace(" seed=", " seed=9"),
            "random draws do not give",
        ),
    ] {
        let path = dir.join("changed.games");
        std::fs::write(&path, format!("{changed}\n{games}")).unwrap();
        refused(
            &[
                "train",
                "eval",
                path.to_str().unwrap(),
                "--size",
                "6",
                "--undo-random",
            ],
            message,
        );
    }
}

/// data/README.md promises at most 150 MB of data in the repository. A chunk still being played
/// is a plain `games-NNNNNN.games` file that is never committed, so it is left out of the sum.
#[test]
fn the_data_folder_stays_within_its_150_mb_budget() {
    fn committed_bytes(dir: &std::path::Path) -> u64 {
        let mut total = 0;
        for entry in std::fs::read_dir(dir).expect("data/ is readable") {
            let path = entry.expect("a data/ entry").path();
            if path.is_dir() {
                total += committed_bytes(&path);
            } else if path.extension().is_none_or(|ext| ext != "games") {
                total += std::fs::metadata(&path).expect("a data/ file").len();
            }
        }
        total
    }
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data");
    let bytes = committed_bytes(&data);
    assert!(
        bytes > 100_000_000,
        "data/ holds the self-play records ({bytes} bytes)"
    );
    assert!(
        bytes <= 150_000_000,
        "data/ holds {bytes} bytes, over its 150 MB budget"
    );
}
