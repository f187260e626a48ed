//! `ase bench` end to end: the built binary over a folder of small models.

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

/// Runs `ase bench --runs 1 --timeout 60 ARGS`.
fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ase"))
        .arg("bench")
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
        .args(["bench", "--runs", "0", empty.to_str().unwrap()])
        .output()
        .expect("run ase");
    assert_eq!(out.status.code(), Some(2));
}
