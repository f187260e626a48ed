//! `ase tables` end to end: the built binary over a folder of small models.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The two-process mutex of the ASE paper's Fig. 1 (safe).
const MUTEX: &str = "\
// expect: safe
var x, y;
var b = 0;

thread p1 at 1 {
  t1: 1 -> 2 do b := b + 1;
  t2: 2 -> 3 when x <= y && b == 2;
  t3: 3 -> 2 do x := *;
}

thread p2 at 1 {
  t4: 1 -> 2 do b := b + 1;
  t5: 2 -> 3 when x > y && b == 2;
  t6: 3 -> 2 do y := *;
}

error p1@3 && p2@3;
";

/// The mutex with p2's `x > y` weakened to `x >= y`: both processes enter
/// their critical sections when `x == y` (unsafe).
fn mutex_bug() -> String {
    MUTEX
        .replace("expect: safe", "expect: unsafe")
        .replace("x > y &&", "x >= y &&")
}

/// A two-process ticket lock from `t = s = 0`: one concrete initial state
/// and no inputs, so UR runs on it too (safe).
const TICKET: &str = "\
// expect: safe
var t = 0, s = 0, a1 = 0, a2 = 0;

thread p1 at 0 {
  draw1:  0 -> 1 do a1 := t, t := t + 1;
  enter1: 1 -> 2 when a1 <= s;
  leave1: 2 -> 0 do s := s + 1;
}

thread p2 at 0 {
  draw2:  0 -> 1 do a2 := t, t := t + 1;
  enter2: 1 -> 2 when a2 <= s;
  leave2: 2 -> 0 do s := s + 1;
}

error p1@2 && p2@2;
";

/// The ticket lock with p2 entering one ticket early (`a2 <= s + 1`): both
/// processes are critical after p1 draws 0 and p2 draws 1 (unsafe).
fn ticket_bug() -> String {
    TICKET
        .replace("expect: safe", "expect: unsafe")
        .replace("a2 <= s;", "a2 <= s + 1;")
}

/// A fresh, empty folder under Cargo's scratch directory for tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("models")).expect("create scratch folder");
    dir
}

/// Writes `files` (name, text) into `dir`.
fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write model");
    }
}

/// Runs `ase tables --runs 1 --timeout 60 ARGS`.
fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ase"))
        .arg("tables")
        .args(["--runs", "1", "--timeout", "60"])
        .args(args)
        .output()
        .expect("run ase")
}

/// The table row of `model` (the line starting with `| model `), split into
/// trimmed cells.
fn row(stdout: &str, model: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&format!("| {model} ")))
        .unwrap_or_else(|| panic!("no row for {model} in:\n{stdout}"));
    line.trim_matches('|')
        .split(" | ")
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn safe_and_unsafe_models_beside_the_paper() {
    let dir = scratch("ok");
    let models = dir.join("models");
    write(
        &models,
        &[
            ("mutex.gc", MUTEX),
            ("mutex-bug.gc", &mutex_bug()),
            ("notes.txt", "not a model"),
        ],
    );
    // Found by default beside the models' folder.
    write(
        &dir,
        &[(
            "paper-tables.md",
            "## ASE Fig. 8\n\n\
             | Program | Iter. | Prvr. Qurs. | Preds. | Symb/Abs States | Time(s) | Check | .gc file |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- |\n\
             | mutex | 1 | 24 | 4 | 700/38 | 424 **[?]** | II | mutex |\n",
        )],
    );
    let out_file = dir.join("table.md");
    let out = bench(&[
        models.to_str().unwrap(),
        "--output",
        out_file.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.starts_with("| model "), "{stdout}");

    let bug = row(&stdout, "mutex-bug");
    assert_eq!(bug[1..4], ["unsafe", "unsafe", "cex"], "{stdout}");
    assert_eq!(bug[9..], ["–", "–", "–", "–", "–"], "{stdout}");
    let ok = row(&stdout, "mutex");
    assert_eq!(ok[1..3], ["safe", "safe"], "{stdout}");
    assert!(["SF", "II"].contains(&ok[3].as_str()), "{stdout}");
    assert_eq!(ok[9..], ["1", "24", "4", "700/38", "II"], "{stdout}");
    assert!(
        stdout.contains("2 models: 2 correct, 0 wrong, 0 unknown"),
        "{stdout}"
    );
    // Rows sorted by file name; one progress line per model.
    assert!(stdout.find("| mutex-bug ").unwrap() < stdout.find("| mutex ").unwrap());
    assert_eq!(stderr.lines().filter(|l| l.starts_with('[')).count(), 2);
    let saved = std::fs::read_to_string(&out_file).expect("--output file");
    assert_eq!(saved, stdout);
}

#[test]
fn wrong_verdict_fails_the_bench() {
    let dir = scratch("wrong");
    let models = dir.join("models");
    let lying = mutex_bug().replace("expect: unsafe", "expect: safe");
    write(
        &models,
        &[
            ("lying.gc", &lying),
            ("broken.gc", "// expect: safe\nvar x = ;\n"),
        ],
    );
    let out = bench(&[models.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(row(&stdout, "lying")[2], "**WRONG: unsafe**", "{stdout}");
    let broken = row(&stdout, "broken");
    assert!(broken[2].starts_with("invalid (line 2: "), "{stdout}");
    assert!(
        stdout.contains("2 models: 0 correct, 1 wrong, 0 unknown, 1 invalid"),
        "{stdout}"
    );
    assert!(stdout.contains("Paper figures: none."), "{stdout}");
}

#[test]
fn bad_invocations_exit_2() {
    let dir = scratch("bad");
    let missing = dir.join("no-such-folder");
    assert_eq!(bench(&[missing.to_str().unwrap()]).status.code(), Some(2));
    let empty = dir.join("models");
    assert_eq!(bench(&[empty.to_str().unwrap()]).status.code(), Some(2));
    write(&empty, &[("m.gc", MUTEX)]);
    let no_paper = dir.join("no-paper.md");
    let out = bench(&[
        empty.to_str().unwrap(),
        "--paper",
        no_paper.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_ase"))
        .args(["tables", "--runs", "0", empty.to_str().unwrap()])
        .output()
        .expect("run ase");
    assert_eq!(out.status.code(), Some(2));
}

/// The papers' file of the compare tests: a Fig. 7 row for `ticket` (ASE
/// and UR columns) and a Fig. 8 row for `mutex` (ASE only).
const PAPER: &str = "\
## ASE Fig. 7: ASE vs. UR

| Program | ψ | Iter. ASE | Iter. UR | Prvr. Qurs. ASE | Prvr. Qurs. UR | Preds. ASE | Preds. UR | Con/Abs ASE | Con/Abs UR | Check | .gc file |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| ticket2 | t | 4 | 5 | 135 | 120 | 8 | 9 | 22/9 | 12/9 | SF | ticket |

## ASE Fig. 8: ASE only

| Program | Iter. | Prvr. Qurs. | Preds. | Symb/Abs States | Time(s) | Check | .gc file |
| --- | --- | --- | --- | --- | --- | --- | --- |
| mutex | 1 | 24 | 4 | 700/38 | 424 | II | mutex |
";

/// A scratch folder with the mutexes (inputs: UR does not run) and the
/// ticket locks (concrete: UR runs), and [`PAPER`] beside the models.
fn mixed_models(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let models = dir.join("models");
    write(
        &models,
        &[
            ("mutex.gc", MUTEX),
            ("mutex-bug.gc", &mutex_bug()),
            ("ticket.gc", TICKET),
            ("ticket-bug.gc", &ticket_bug()),
        ],
    );
    write(&dir, &[("paper-tables.md", PAPER)]);
    (dir, models)
}

#[test]
fn compare_puts_both_engines_side_by_side() {
    let (dir, models) = mixed_models("compare");
    let out_file = dir.join("compare.md");
    let out = bench(&[
        models.to_str().unwrap(),
        "--compare",
        "--output",
        out_file.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let header = row(&stdout, "model");
    assert_eq!(
        header,
        [
            "model",
            "expect",
            "verdict ASE",
            "verdict UR",
            "iter ASE",
            "iter UR",
            "queries ASE",
            "queries UR",
            "preds ASE",
            "preds UR",
            "time ASE",
            "time UR",
            "states ASE",
            "states UR",
            "check ASE",
            "paper iter ASE/UR",
            "paper preds ASE/UR"
        ],
        "{stdout}"
    );

    // Both engines run on the ticket locks.
    let ticket = row(&stdout, "ticket");
    assert_eq!(ticket[1..4], ["safe", "safe", "safe"], "{stdout}");
    assert!(["SF", "II"].contains(&ticket[14].as_str()), "{stdout}");
    assert_eq!(ticket[15..], ["4/5", "8/9"], "{stdout}");
    for (i, cell) in ticket[4..14].iter().enumerate() {
        assert!(!cell.is_empty(), "column {} of {stdout}", i + 4);
    }
    // UR's states are concrete/abstract states.
    assert!(ticket[13].contains('/'), "{stdout}");
    let bug = row(&stdout, "ticket-bug");
    assert_eq!(bug[1..4], ["unsafe", "unsafe", "unsafe"], "{stdout}");
    assert_eq!(bug[14], "cex", "{stdout}");
    assert_eq!(bug[15..], ["–", "–"], "{stdout}");

    // UR does not run on the mutexes (unconstrained x, y and `x := *`); the
    // Fig. 8 row of mutex is not a Fig. 7 row.
    let mutex = row(&stdout, "mutex");
    assert_eq!(mutex[1..4], ["safe", "safe", "unsupported"], "{stdout}");
    for i in [5, 7, 9, 11, 13] {
        assert_eq!(mutex[i], "", "column {i} of {stdout}");
    }
    assert_eq!(mutex[15..], ["–", "–"], "{stdout}");
    let mutex_bug = row(&stdout, "mutex-bug");
    assert_eq!(
        mutex_bug[1..4],
        ["unsafe", "unsafe", "unsupported"],
        "{stdout}"
    );

    assert!(
        stdout.contains("ASE: 4 models: 4 correct, 0 wrong, 0 unknown, 0 unsupported; total time"),
        "{stdout}"
    );
    assert!(
        stdout.contains("UR: 4 models: 2 correct, 0 wrong, 0 unknown, 2 unsupported; total time"),
        "{stdout}"
    );
    // One progress line per model, with both engines.
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), 4, "{stderr}");
    assert!(
        progress
            .iter()
            .all(|l| l.contains("ASE: ") && l.contains("; UR: ")),
        "{stderr}"
    );
    let saved = std::fs::read_to_string(&out_file).expect("--output file");
    assert_eq!(saved, stdout);
}

#[test]
fn ur_engine_table() {
    let (_dir, models) = mixed_models("ur");
    let out = bench(&[models.to_str().unwrap(), "--engine", "ur"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(row(&stdout, "model")[7], "con/abs states", "{stdout}");
    let ticket = row(&stdout, "ticket");
    assert_eq!(ticket[1..4], ["safe", "safe", "EX"], "{stdout}");
    // UR's columns of Fig. 7 (which has no check column for UR).
    assert_eq!(ticket[9..], ["5", "120", "9", "12/9", "–"], "{stdout}");
    let bug = row(&stdout, "ticket-bug");
    assert_eq!(bug[1..4], ["unsafe", "unsafe", "cex"], "{stdout}");
    let mutex = row(&stdout, "mutex");
    assert_eq!(
        mutex[2..9],
        ["unsupported", "", "", "", "", "", ""],
        "{stdout}"
    );
    // Fig. 8 has no UR figures.
    assert_eq!(mutex[9..], ["–", "–", "–", "–", "–"], "{stdout}");
    assert_eq!(row(&stdout, "mutex-bug")[2], "unsupported", "{stdout}");
    assert!(
        stdout.contains("4 models: 2 correct, 0 wrong, 0 unknown, 2 unsupported; total time"),
        "{stdout}"
    );

    // `--engine ase` is the default table.
    let out = bench(&[models.to_str().unwrap(), "--engine", "ase"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(row(&stdout, "model")[7], "sym/abs states", "{stdout}");
    assert_eq!(row(&stdout, "ticket")[9..12], ["4", "135", "8"], "{stdout}");
    assert!(
        stdout.contains("4 models: 4 correct, 0 wrong, 0 unknown; total time"),
        "{stdout}"
    );
}

#[test]
fn compare_fails_on_a_wrong_verdict_of_either_engine() {
    let dir = scratch("compare-wrong");
    let models = dir.join("models");
    let lying = ticket_bug().replace("expect: unsafe", "expect: safe");
    write(&models, &[("lying.gc", &lying), ("mutex.gc", MUTEX)]);
    let out = bench(&[models.to_str().unwrap(), "--compare"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let lying = row(&stdout, "lying");
    assert_eq!(
        lying[2..4],
        ["**WRONG: unsafe**", "**WRONG: unsafe**"],
        "{stdout}"
    );
    assert!(stdout.contains("UR: 2 models: 0 correct, 1 wrong, 0 unknown, 1 unsupported"));
    assert!(stderr.contains("bench FAILED"), "{stderr}");
    assert!(stdout.contains("Paper figures: none."), "{stdout}");

    // `--compare` runs both engines: it does not take `--engine`.
    let out = bench(&[models.to_str().unwrap(), "--compare", "--engine", "ur"]);
    assert_eq!(out.status.code(), Some(2));
}
