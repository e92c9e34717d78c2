//! `othel match` through the real binaries: a deeper engine beats a shallower one, othel plays
//! itself through each protocol, misbehaving engines forfeit the right way, an interrupted run
//! resumed gives the same totals, SPRT stops early, impossible pairings are refused.

mod common;

use common::Scratch;
use othel::rules::ggf::GgfRecord;
use othel::rules::{Color, Othello, Position, geometry::Size8};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const OTHEL: &str = env!("CARGO_BIN_EXE_othel");
const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_othel-test-engine");

/// A fresh folder for one test's files, deleted when the test ends.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("match-{name}"))
}

/// Some short openings (the first moves of a few well-known lines).
fn openings(dir: &Path) -> PathBuf {
    let path = dir.join("openings.txt");
    let lines = [
        "f5d6c3d3c4",
        "f5f6e6f4e3",
        "f5d6c5f4e3",
        "f5f4e3f6d3",
        "f5d6c4d3c2",
        "f5f6e6d6c5",
        "f5d6c3d3c4f4",
        "f5f4e3d6c5",
        "# a comment, skipped",
        "f5d6c5f4d3",
        "f5f6e6f4g5",
    ];
    std::fs::write(&path, lines.join("\n")).expect("openings written");
    path
}

fn othel_engine(name: &str, limit: &str) -> String {
    format!("name={name} cmd=\"{OTHEL} --threads 1\" {limit}")
}

fn run_match(args: &[String]) -> Output {
    Command::new(OTHEL)
        .arg("match")
        .args(args)
        .output()
        .expect("othel match runs")
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The summary without its thinking times (`time …` lines), which differ from run to run.
fn results(out: &Output) -> String {
    stdout(out)
        .lines()
        .filter(|l| !l.starts_with("time "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A JSON summary without its thinking times.
fn json_results(json: &str) -> String {
    let start = json.find(",\"thinking\":[").expect("thinking times");
    let end = start + json[start..].find(']').expect("their end") + 1;
    format!("{}{}", &json[..start], &json[end..])
}

/// The summary line of a pair.
fn pair_line(out: &Output, pair: &str) -> String {
    stdout(out)
        .lines()
        .find(|l| l.starts_with(pair))
        .unwrap_or_else(|| panic!("no '{pair}' line in {}", stdout(out)))
        .to_string()
}

/// The number after `word` in a line.
fn figure(line: &str, word: &str) -> f64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == word)
        .unwrap_or_else(|| panic!("no '{word}' in {line}"));
    words[at + 1]
        .trim_end_matches('%')
        .parse()
        .unwrap_or_else(|_| panic!("no number after '{word}' in {line}"))
}

/// Every record of a GGF file replays legally; returns them.
fn records(path: &Path) -> Vec<GgfRecord> {
    let text = std::fs::read_to_string(path).expect("the games file");
    text.lines()
        .map(|l| l.parse::<GgfRecord>().expect("a readable record"))
        .collect()
}

fn result_of(record: &GgfRecord) -> String {
    record
        .properties
        .iter()
        .find(|(k, _)| k == "RE")
        .map(|(_, v)| v.clone())
        .expect("a result")
}

#[test]
fn depth_4_beats_depth_1_clearly() {
    let dir = scratch("depth");
    let out_file = dir.join("games.ggf");
    let mut args = vec![
        "--engine".to_string(),
        othel_engine("shallow", "depth=1"),
        "--engine".to_string(),
        othel_engine("deep", "depth=4"),
    ];
    args.extend(strings(&["--games", "20", "--concurrency", "2", "--out"]));
    args.push(out_file.display().to_string());
    args.push("--openings".into());
    args.push(openings(&dir).display().to_string());
    let out = run_match(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = pair_line(&out, "shallow vs deep");
    assert_eq!(figure(&line, "games"), 20.0, "{line}");
    assert!(figure(&line, "score") <= 25.0, "{line}");
    assert!(figure(&line, "elo") < -150.0, "{line}");
    let games = records(&out_file);
    assert_eq!(games.len(), 20);
    for record in &games {
        let game = record.to_game::<Othello<Size8>>().expect("a legal game");
        assert!(game.position().is_game_over());
        let margin: f64 = result_of(record).parse().expect("a plain result");
        let (b, w) = game.position().disc_counts();
        let on_board = b as f64 - w as f64;
        // Empty squares go to the winner.
        assert!(margin.signum() == on_board.signum() && margin.abs() >= on_board.abs());
    }
}

#[test]
fn othel_plays_itself_through_each_protocol() {
    let dir = scratch("protocols");
    let out_file = dir.join("games.ggf");
    let args = vec![
        "--engine".to_string(),
        othel_engine("own", "depth=2"),
        "--engine".to_string(),
        format!("name=nboard cmd=\"{OTHEL} --nboard --threads 1\" proto=nboard depth=2"),
        "--engine".to_string(),
        format!("name=gtp cmd=\"{OTHEL} --gtp --depth 2 --threads 1\" proto=gtp"),
        "--engine".to_string(),
        format!("name=clocked cmd=\"{OTHEL} --threads 1\" tc=10+0.1"),
        "--rounds".to_string(),
        "1".to_string(),
        "--concurrency".to_string(),
        "2".to_string(),
        "--out".to_string(),
        out_file.display().to_string(),
        "--log".to_string(),
        dir.join("logs").display().to_string(),
    ];
    let out = run_match(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).starts_with("games 12\n"), "{}", stdout(&out));
    for engine in ["own", "nboard", "gtp", "clocked"] {
        assert!(
            stdout(&out).contains(&format!(
                "forfeits {engine}: time 0, crash/hang 0, illegal move 0, garbage 0"
            )),
            "{}",
            stdout(&out)
        );
    }
    let games = records(&out_file);
    assert_eq!(games.len(), 12);
    for record in &games {
        assert!(!result_of(record).contains(':'));
        record.to_game::<Othello<Size8>>().expect("a legal game");
    }
    // Each engine's traffic is logged.
    let log = std::fs::read_to_string(dir.join("logs").join("gtp-0.log"))
        .or_else(|_| std::fs::read_to_string(dir.join("logs").join("gtp-1.log")))
        .expect("a gtp log");
    assert!(log.contains("> genmove "), "{log}");
}

#[test]
fn misbehaving_engines_forfeit_and_the_tournament_goes_on() {
    let dir = scratch("faults");
    let out_file = dir.join("games.ggf");
    let faulty = |name: &str, flags: &str, limit: &str| {
        format!("name={name} cmd=\"{TEST_ENGINE} {flags}\" {limit}")
    };
    let mut args = vec![
        "--engine".to_string(),
        othel_engine("ref", "depth=1"),
        "--engine".to_string(),
        faulty("crash", "--crash-after 3", "depth=1"),
        "--engine".to_string(),
        faulty("hang", "--hang-after 3", "depth=1"),
        "--engine".to_string(),
        faulty("illegal", "--illegal-after 3", "depth=1"),
        "--engine".to_string(),
        faulty("garbage", "--garbage-after 3", "depth=1"),
        "--engine".to_string(),
        faulty("slow", "--slow-after 1 --slow-ms 1500", "tc=1+0"),
    ];
    args.extend(strings(&[
        "--timeout",
        "2",
        "--margin",
        "1",
        "--concurrency",
        "2",
    ]));
    args.push("--out".into());
    args.push(out_file.display().to_string());
    let out = run_match(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.starts_with("games 30\n"), "{text}");
    assert!(text.contains("forfeits ref: time 0, crash/hang 0, illegal move 0, garbage 0"));
    // Against the sound engine each faulty one loses both games by its own kind of forfeit.
    for (engine, suffix) in [
        ("crash", ":c"),
        ("hang", ":c"),
        ("illegal", ":i"),
        ("garbage", ":g"),
        ("slow", ":t"),
    ] {
        let line = pair_line(&out, &format!("ref vs {engine}:"));
        assert_eq!(figure(&line, "wins"), 2.0, "{line}");
        let against_ref: Vec<String> = records(&out_file)
            .iter()
            .filter(|r| {
                let names: Vec<&str> = r
                    .properties
                    .iter()
                    .filter(|(k, _)| k == "PB" || k == "PW")
                    .map(|(_, v)| v.as_str())
                    .collect();
                names.contains(&"ref") && names.contains(&engine)
            })
            .map(result_of)
            .collect();
        assert_eq!(against_ref.len(), 2);
        for result in against_ref {
            assert!(result.ends_with(suffix), "{engine}: {result}");
            assert!(result.starts_with("+64.000") || result.starts_with("-64.000"));
        }
    }
    for (engine, kind) in [
        ("crash", "crash/hang"),
        ("hang", "crash/hang"),
        ("illegal", "illegal move"),
        ("garbage", "garbage"),
        ("slow", "time"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("forfeits {engine}:")))
            .expect("a forfeit line");
        let count = line
            .split(", ")
            .find_map(|part| part.rsplit_once(' ').filter(|(k, _)| k.ends_with(kind)))
            .map(|(_, n)| n.parse::<u32>().expect("a count"))
            .expect("the kind's count");
        assert!(count >= 2, "{line}");
    }
}

#[test]
fn an_interrupted_run_resumed_gives_the_same_totals() {
    let dir = scratch("resume");
    let base = |out_file: &Path, games: &str| -> Vec<String> {
        let mut args = vec![
            "--engine".to_string(),
            othel_engine("one", "depth=1"),
            "--engine".to_string(),
            othel_engine("two", "depth=2"),
            "--openings".to_string(),
            openings(&dir).display().to_string(),
            "--seed".to_string(),
            "7".to_string(),
            "--games".to_string(),
            games.to_string(),
            "--out".to_string(),
            out_file.display().to_string(),
        ];
        args.push("--json".into());
        args.push(out_file.with_extension("json").display().to_string());
        args
    };
    let whole = dir.join("whole.ggf");
    let full = run_match(&base(&whole, "10"));
    assert!(
        full.status.success(),
        "{}",
        String::from_utf8_lossy(&full.stderr)
    );
    // Interrupted after four games, the fifth cut off while it was being written.
    let parts = dir.join("parts.ggf");
    let first = run_match(&base(&parts, "5"));
    assert!(first.status.success());
    let text = std::fs::read_to_string(&parts).expect("the games");
    let cut = text.trim_end().rfind('\n').expect("several games") + 40;
    std::fs::write(&parts, &text[..cut]).expect("the cut file");
    // Without --resume the file is not touched.
    let refused = run_match(&base(&parts, "10"));
    assert!(!refused.status.success());
    let mut resume = base(&parts, "10");
    resume.push("--resume".into());
    let resumed = run_match(&resume);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(results(&resumed), results(&full));
    let json = std::fs::read_to_string(parts.with_extension("json")).expect("the json");
    assert_eq!(
        json_results(&json),
        json_results(&std::fs::read_to_string(whole.with_extension("json")).expect("the json"))
    );
    assert!(json.starts_with("{\"games\":10,"), "{json}");
}

#[test]
fn sprt_stops_as_soon_as_it_decides() {
    let mut args = vec![
        "--engine".to_string(),
        othel_engine("deep", "depth=4"),
        "--engine".to_string(),
        othel_engine("shallow", "depth=1"),
    ];
    let dir = scratch("sprt");
    args.extend(strings(&["--games", "400", "--openings"]));
    args.push(openings(&dir).display().to_string());
    args.extend(strings(&[
        "--sprt",
        "elo0=0",
        "elo1=100",
        "alpha=0.05",
        "beta=0.05",
    ]));
    let out = run_match(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = figure(&stdout(&out), "games");
    assert!(games < 100.0, "{}", stdout(&out));
    assert!(stdout(&out).contains(": H1 accepted"), "{}", stdout(&out));
    // The line says when it decided: games still being played then are counted after it.
    let decided: f64 = stdout(&out)
        .split("H1 accepted after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no decision point: {}", stdout(&out)));
    assert!(decided >= 1.0 && decided <= games, "{}", stdout(&out));
}

#[test]
fn lehto_matches_and_impossible_pairings() {
    let out = run_match(&[
        "--variant".to_string(),
        "lehto".to_string(),
        "--size".to_string(),
        "5".to_string(),
        "--engine".to_string(),
        othel_engine("a", "depth=1"),
        "--engine".to_string(),
        othel_engine("b", "depth=2"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).starts_with("games 2\n"));
    for (bad, why) in [
        (
            vec![
                "--variant",
                "lehto",
                "--engine",
                "name=n cmd=x proto=nboard depth=2",
            ],
            "NBoard plays Othello only",
        ),
        (
            vec!["--engine", "name=g cmd=x proto=gtp depth=2"],
            "GTP has a clock but no depth",
        ),
        (vec!["--engine", "name=o cmd=x"], "needs a limit"),
    ] {
        let mut args: Vec<String> = strings(&bad);
        args.push("--engine".into());
        args.push(othel_engine("ok", "depth=1"));
        let out = run_match(&args);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{err}");
    }
    // An engine that cannot even start is refused before the first game (it used to forfeit
    // every game, counted as a result).
    let out = run_match(&[
        "--engine".to_string(),
        "name=ghost cmd=/nonexistent/engine depth=1".to_string(),
        "--engine".to_string(),
        othel_engine("ok", "depth=1"),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("engine ghost: cannot start"));
}

#[test]
fn engines_that_refuse_pass_play_whole_games_without_forfeits() {
    // On 4x4 passes come in most games; the GRhino-like engine refuses `play C pass` and skips a
    // colour without a move by itself. The runner must keep it in step, forfeiting nothing.
    let dir = scratch("no-pass");
    let games = dir.join("games.ggf");
    let args = vec![
        "--engine".to_string(),
        format!("name=nopass cmd=\"{TEST_ENGINE} --gtp-no-pass\" proto=gtp"),
        "--engine".to_string(),
        othel_engine("othel", "depth=2"),
        "--size".to_string(),
        "4".to_string(),
        "--games".to_string(),
        "12".to_string(),
        "--out".to_string(),
        games.display().to_string(),
    ];
    let out = run_match(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.contains("forfeits nopass: time 0, crash/hang 0, illegal move 0, garbage 0"),
        "{text}"
    );
    assert!(
        text.contains("forfeits othel: time 0, crash/hang 0, illegal move 0, garbage 0"),
        "{text}"
    );
    let records = records(&games);
    assert_eq!(records.len(), 12);
    let with_pass = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .filter(|l| l.contains("[PA]") || l.contains("[pa]"))
        .count();
    assert!(with_pass > 0, "no game had a pass: the test tests nothing");
}

#[test]
fn both_engine_forms_and_random_openings() {
    // cutechess-cli's form: the words up to the next option, the shell having removed the quotes.
    let spec = |name: &str, depth: &str| {
        vec![
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={OTHEL} --threads 1"),
            format!("depth={depth}"),
        ]
    };
    let dir = scratch("forms");
    let games = dir.join("games.ggf");
    let mut args = spec("a", "1");
    args.extend(spec("b", "2"));
    args.extend(strings(&["--games", "6", "--out"]));
    args.push(games.display().to_string());
    let out = run_match(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(figure(&pair_line(&out, "a vs b"), "games"), 6.0);
    // Without --openings every encounter starts from its own random opening: six different games.
    let text = std::fs::read_to_string(&games).unwrap();
    let mut moves: Vec<String> = text
        .lines()
        .map(|l| l[l.find("B[").unwrap()..].to_string())
        .collect();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 6, "{text}");
    // A command that cannot start is refused before any game.
    let out = run_match(&strings(&[
        "--engine",
        "name=x cmd=/nonexistent/engine depth=1",
        "--engine",
        &othel_engine("y", "depth=1"),
        "--games",
        "2",
    ]));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start '/nonexistent/engine'"));
}

#[test]
fn pondering_engines_think_on_the_opponents_time_and_keep_their_clocks() {
    let dir = scratch("ponder");
    let out_file = dir.join("games.ggf");
    let logs = dir.join("logs");
    let args = vec![
        "--engine".to_string(),
        othel_engine("clocked", "tc=3+0.05 ponder=on option.book=off"),
        "--engine".to_string(),
        othel_engine("deep", "depth=3 ponder=on"),
        "--engine".to_string(),
        othel_engine("plain", "tc=3+0.05"),
        "--rounds".to_string(),
        "1".to_string(),
        // One game at a time: a pondering engine searches while its opponent does.
        "--concurrency".to_string(),
        "1".to_string(),
        "--out".to_string(),
        out_file.display().to_string(),
        "--log".to_string(),
        logs.display().to_string(),
        "--openings".to_string(),
        openings(&dir).display().to_string(),
    ];
    let out = run_match(&args);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for engine in ["clocked", "deep", "plain"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("forfeits {engine}:")))
            .unwrap_or_else(|| panic!("no forfeits line for {engine}: {text}"));
        assert!(
            line.ends_with("time 0, crash/hang 0, illegal move 0, garbage 0"),
            "{line}"
        );
    }
    assert_eq!(records(&out_file).len(), 6);
    // What the pondering engines were sent: searches on the predicted reply, then mostly hits
    // (the same program predicts itself well), and a stop for each miss.
    let mut hits = 0;
    for engine in ["clocked", "deep"] {
        let traffic: String = std::fs::read_dir(&logs)
            .expect("the logs")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(engine))
            .map(|e| std::fs::read_to_string(e.path()).expect("a log"))
            .collect();
        let ponders = traffic.lines().filter(|l| l.ends_with(" ponder")).count();
        let engine_hits = traffic.lines().filter(|l| *l == "> ponderhit").count();
        let stops = traffic.lines().filter(|l| *l == "> stop").count();
        assert!(ponders >= 20, "{engine}: {ponders} ponder searches");
        assert!(engine_hits + stops <= ponders, "{engine}");
        assert!(
            ponders - engine_hits - stops <= 4,
            "{engine}: ponders left over"
        );
        hits += engine_hits;
        // The summary's count: the predictions, each answered by the opponent's next move (no
        // game here ends by forfeit), so one for each ponder search; and those that came true:
        // each `ponderhit`, and a predicted reply that ended the game or left the pondering side
        // to pass (stopped, as no move of its own follows, or left to `quit` after the last game).
        let prefix = format!("ponder {engine}: ");
        let line = text
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no ponder line for {engine}: {text}"));
        let words: Vec<&str> = line[prefix.len()..].split_whitespace().collect();
        let (counted_hits, predictions): (usize, usize) =
            (words[0].parse().unwrap(), words[2].parse().unwrap());
        assert!(
            engine_hits <= counted_hits && counted_hits <= predictions,
            "{line}: {engine_hits} ponderhit"
        );
        assert_eq!(predictions, ponders, "{line}");
    }
    assert!(hits > 0);
    assert!(!text.contains("ponder plain"), "{text}");
    // The records keep the counts: a summary made from them says the same.
    let again = run_match(&strings(&["--summary", &out_file.display().to_string()]));
    let ponder_lines = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("ponder "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(ponder_lines(&stdout(&again)), ponder_lines(&text));
    let plain: String = std::fs::read_dir(&logs)
        .expect("the logs")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("plain"))
        .map(|e| std::fs::read_to_string(e.path()).expect("a log"))
        .collect();
    assert!(
        !plain
            .lines()
            .any(|l| l.starts_with("> go") && l.ends_with(" ponder") || l == "> ponderhit"),
        "an engine without ponder=on pondered"
    );
}

#[test]
fn engines_keep_within_their_clocks_on_a_16x16_board() {
    // 126 moves a side in 2 s: each move's cost outside the search (about 4 ms here) is a quarter
    // of the clock. Both of othel's protocols used to lose games on time. (At 1 s, half the
    // clock, a game ends with about 60 ms in hand, and a CI run beside other tests once stalled
    // longer than that.)
    let engine = |name: &str, proto: &str| {
        format!("name={name} cmd=\"{OTHEL} --threads 1\" proto={proto} tc=2+0")
    };
    let out = run_match(&strings(&[
        "--engine",
        &engine("nb", "nboard"),
        "--engine",
        &engine("ot", "othel"),
        "--size",
        "16",
        "--games",
        "4",
    ]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("forfeits nb: time 0,"), "{text}");
    assert!(text.contains("forfeits ot: time 0,"), "{text}");
}

#[test]
fn a_summary_of_split_game_files_equals_the_live_one() {
    let dir = scratch("summary");
    let games = dir.join("games.ggf");
    let mut args = vec![
        "--engine".to_string(),
        othel_engine("deep", "depth=3"),
        "--engine".to_string(),
        othel_engine("shallow", "depth=1"),
        "--games".to_string(),
        "8".to_string(),
        "--out".to_string(),
        games.display().to_string(),
        "--sprt".to_string(),
        "elo0=0 elo1=400".to_string(),
    ];
    let live = run_match(&args);
    assert!(
        live.status.success(),
        "{}",
        String::from_utf8_lossy(&live.stderr)
    );
    // The games split in two overlapping files, as shards or a resumed run leave them.
    let text = std::fs::read_to_string(&games).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (a, b) = (dir.join("a.ggf"), dir.join("b.ggf"));
    std::fs::write(&a, lines[..5].join("\n")).unwrap();
    std::fs::write(&b, lines[3..].join("\n")).unwrap();
    args = strings(&["--sprt", "elo0=0 elo1=400", "--summary"]);
    args.push(a.display().to_string());
    args.push(b.display().to_string());
    let merged = run_match(&args);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    // The same games: the same thinking times too.
    assert_eq!(stdout(&merged), stdout(&live));
    let time = |name: &str| {
        let line = stdout(&live)
            .lines()
            .find(|l| l.starts_with(&format!("time {name}: ")))
            .map(str::to_string);
        line.unwrap_or_else(|| panic!("no time line for {name}: {}", stdout(&live)))
    };
    // Each engine's recorded move times, read from the records once.
    let played = records(&games);
    let move_times = |name: &str| -> Vec<f64> {
        played
            .iter()
            .flat_map(|r| {
                let side = |key: &str| r.properties.iter().any(|(k, v)| k == key && v == name);
                r.moves
                    .iter()
                    .filter(move |m| side(if m.color == Color::Black { "PB" } else { "PW" }))
                    .filter_map(|m| m.seconds)
            })
            .collect()
    };
    // Each engine's timed moves are its moves in the records.
    for name in ["deep", "shallow"] {
        let timed = move_times(name).len();
        let line = time(name);
        assert!(line.contains(&format!(" over {timed} moves, ")), "{line}");
    }
    // The ratio divides by the second engine's time, so it is printed only when that time is not
    // zero. At depth 1 on an idle machine every move can take under half a millisecond, which
    // the records keep as 0.000.
    let shallow_seconds: f64 = move_times("shallow").iter().sum();
    assert_eq!(
        stdout(&live).contains("time ratio deep / shallow: "),
        shallow_seconds > 0.0,
        "shallow thought {shallow_seconds} s: {}",
        stdout(&live)
    );
}

#[test]
fn match_shards_play_the_whole_match_between_them() {
    let dir = scratch("shards");
    let base = |out: &Path| {
        vec![
            "--engine".to_string(),
            othel_engine("deep", "depth=3"),
            "--engine".to_string(),
            othel_engine("shallow", "depth=1"),
            "--games".to_string(),
            "10".to_string(),
            "--out".to_string(),
            out.display().to_string(),
        ]
    };
    let whole = dir.join("whole.ggf");
    let live = run_match(&base(&whole));
    assert!(
        live.status.success(),
        "{}",
        String::from_utf8_lossy(&live.stderr)
    );
    let numbers = |path: &Path| -> Vec<usize> {
        let text = std::fs::read_to_string(path).unwrap();
        let mut n: Vec<usize> = text
            .lines()
            .filter_map(|l| {
                let start = l.find("GN[")? + 3;
                l[start..].split(']').next()?.parse().ok()
            })
            .collect();
        n.sort();
        n
    };
    for count in [2, 3] {
        let mut union = Vec::new();
        let mut files = Vec::new();
        for k in 0..count {
            let part = dir.join(format!("part-{k}-of-{count}.ggf"));
            let mut args = base(&part);
            args.extend(strings(&["--shard", &format!("{k}/{count}")]));
            let out = run_match(&args);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let mine = numbers(&part);
            assert!(mine.iter().all(|g| g % count == k), "{mine:?}");
            union.extend(mine);
            files.push(part.display().to_string());
        }
        union.sort();
        assert_eq!(union, (0..10).collect::<Vec<_>>(), "{count} shards");
        // Their files merge into the live run's summary (the engines are deterministic).
        let mut args = strings(&["--summary"]);
        args.extend(files);
        let merged = run_match(&args);
        assert!(
            merged.status.success(),
            "{}",
            String::from_utf8_lossy(&merged.stderr)
        );
        assert_eq!(results(&merged), results(&live), "{count} shards");
    }
    // A shard killed halfway resumes: the games it lacks are played, none twice.
    let part = dir.join("part-0-of-2.ggf");
    let text = std::fs::read_to_string(&part).unwrap();
    let kept: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&part, kept.join("\n") + "\n").unwrap();
    let mut args = base(&part);
    args.extend(strings(&["--shard", "0/2", "--resume"]));
    let out = run_match(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(numbers(&part), vec![0, 2, 4, 6, 8]);
    // Each shard deciding on its own would not be the whole match's decision.
    let mut args = base(&dir.join("x.ggf"));
    args.extend(strings(&["--shard", "0/2", "--sprt", "elo0=0 elo1=5"]));
    let out = run_match(&args);
    assert!(!out.status.success());
}
