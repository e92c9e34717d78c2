//! Training the pattern evaluation end to end: self-play samples, their labels, a fit, and the
//! fitted weights used for more self-play.

use othel::eval::DISC;
use othel::eval::model::Model;
use othel::eval::weights::Weights;
use othel::rules::geometry::Size6;
use othel::rules::{Color, Othello, Position};
use othel::search::{Limits, Searcher};
use othel::train::samples;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

fn othel(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othel"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs othel with `args`, which must fail with `message` in its standard error.
fn refused(args: &[&str], message: &str) {
    let out = othel(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othel-train-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("phase  0 (empties  0- 3)"), "{text}");
    let w = Weights::from_bytes(&std::fs::read(&weights).unwrap()).unwrap();
    let model = Model::new(w).unwrap();
    // The fit explains its samples far better than a constant 0.
    let (mut fitted, mut zero) = (0.0, 0.0);
    for s in &more {
        let pos = Othello::<Size6>::from_discs(s.player, s.opponent, Color::Black).unwrap();
        let theirs = Othello::<Size6>::from_discs(s.opponent, s.player, Color::Black).unwrap();
        let empties = 36 - (s.player | s.opponent).count_ones();
        let predicted = model.evaluate(
            s.player,
            s.opponent,
            empties,
            pos.placements().count_ones(),
            theirs.placements().count_ones(),
        ) as f64
            / DISC as f64;
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
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
            "10",
            "--games",
            "1",
            "--out",
            "/dev/null",
        ],
        "6x6 and 8x8",
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
    std::fs::remove_dir_all(&dir).ok();
}
