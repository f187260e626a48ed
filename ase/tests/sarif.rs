//! `ase check --format sarif` and several files at once: the log of a run
//! over a racy, a correct, a memory-unsafe and a missing file has the
//! expected results (rule, level, location, one thread flow per thread in
//! execution order), and it validates against the SARIF 2.1.0 JSON schema
//! (`tests/data/sarif-schema-2.1.0.json`, the OASIS schema) with the
//! `jsonschema` package from PyPI, in a virtual environment under the target
//! directory. Without `python3`, `venv` or PyPI the schema check says why
//! and is skipped; the rest of the test still runs.

mod common;

use common::{ase, root, ASE};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const JSONSCHEMA_VERSION: &str = "4.23.0";

/// A Python with `jsonschema`, or why there is none.
fn jsonschema_python() -> Result<PathBuf, String> {
    let target = Path::new(ASE)
        .parent()
        .and_then(Path::parent)
        .ok_or("no target directory")?;
    common::venv_python(
        target,
        "sarif-venv",
        "import jsonschema",
        &format!("jsonschema=={JSONSCHEMA_VERSION}"),
    )
}

#[test]
fn sarif_log_of_several_files() {
    let missing = "tests-c/programs/no_such_file.c";
    let out = ase(&[
        "check",
        "--timeout",
        "20",
        "--format",
        "sarif",
        "tests-c/programs/lost_update_race_unsafe.c",
        "tests-c/programs/mutex_tally_loop_safe.c",
        "tests-c/programs/memsafety_use_after_free_unsafe.c",
        "tests-c/programs/deadlock_join_holding_lock_unsafe.c",
        missing,
    ]);
    // The worst result: a file that cannot be read.
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let log: Value = serde_json::from_str(&text).expect("a JSON log");
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().expect("results");
    // No result for the safe file.
    assert_eq!(results.len(), 4, "{text}");
    // C is checked for races too: the lost update is reported as a data
    // race, located at both accesses.
    let bug = &results[0];
    assert_eq!(bug["ruleId"], "data-race", "{text}");
    assert_eq!(bug["level"], "error");
    assert_eq!(bug["locations"].as_array().map(Vec::len), Some(2), "{text}");
    let place = &bug["locations"][0]["physicalLocation"];
    assert_eq!(
        place["artifactLocation"]["uri"],
        "tests-c/programs/lost_update_race_unsafe.c"
    );
    assert!(place["region"]["startLine"].as_i64().is_some_and(|l| l > 0));
    // One thread flow per thread that took a step, steps in execution order.
    let flows = bug["codeFlows"][0]["threadFlows"]
        .as_array()
        .expect("thread flows");
    assert_eq!(flows.len(), 3, "main and two incrementers");
    let mut orders: Vec<i64> = Vec::new();
    for f in flows {
        let steps: Vec<i64> = f["locations"]
            .as_array()
            .expect("locations")
            .iter()
            .map(|l| l["executionOrder"].as_i64().expect("order"))
            .collect();
        assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
        orders.extend(steps);
    }
    orders.sort_unstable();
    assert_eq!(orders, (1..=orders.len() as i64).collect::<Vec<_>>());
    // Memory safety is checked by default: a rule per sub-property, at the
    // offending access.
    let deref = &results[1];
    assert_eq!(deref["ruleId"], "valid-deref", "{text}");
    assert_eq!(deref["level"], "error");
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert!(rules.iter().any(|r| r["id"] == "valid-deref"), "{text}");
    // A deadlock is located at every waiting call: main's join and the
    // worker's lock.
    let deadlock = &results[2];
    assert_eq!(deadlock["ruleId"], "deadlock", "{text}");
    assert_eq!(
        deadlock["locations"].as_array().map(Vec::len),
        Some(2),
        "{text}"
    );
    assert!(rules.iter().any(|r| r["id"] == "deadlock"), "{text}");
    let bad = &results[3];
    assert_eq!(bad["ruleId"], "invalid-input");
    assert_eq!(
        bad["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        missing
    );

    match common::resource("the SARIF schema check", jsonschema_python()) {
        None => {}
        Some(python) => {
            let dir = std::env::temp_dir().join(format!("ase-sarif-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let log_file = dir.join("log.sarif");
            std::fs::write(&log_file, &text).expect("write log");
            let schema = root().join("ase/tests/data/sarif-schema-2.1.0.json");
            let check = Command::new(python)
                .args([
                    "-c",
                    "import json, sys, jsonschema\n\
                     schema = json.load(open(sys.argv[1]))\n\
                     log = json.load(open(sys.argv[2]))\n\
                     jsonschema.Draft7Validator(schema).validate(log)\n\
                     print('valid')",
                ])
                .arg(&schema)
                .arg(&log_file)
                .output()
                .expect("run python");
            let _ = std::fs::remove_dir_all(&dir);
            assert!(
                check.status.success(),
                "the SARIF log does not validate: {}\n{text}",
                String::from_utf8_lossy(&check.stderr)
            );
        }
    }
}

#[test]
fn several_files_and_directories_give_a_summary_and_the_worst_exit_code() {
    let dir = std::env::temp_dir().join(format!("ase-multi-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("temp dir");
    let programs = root().join("tests-c/programs");
    for (name, to) in [
        ("mutex_tally_loop_safe.c", "a_safe.c"),
        ("lost_update_race_unsafe.c", "sub/b_unsafe.c"),
    ] {
        std::fs::copy(programs.join(name), dir.join(to)).expect("copy");
    }
    std::fs::write(dir.join("notes.txt"), "not a program").expect("write");
    let d = dir.to_str().expect("utf-8");
    let out = ase(&["check", "--timeout", "20", d]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let summary: Vec<&str> = stdout
        .lines()
        .skip_while(|l| *l != "summary:")
        .skip(1)
        .collect();
    assert_eq!(summary.len(), 2, "{stdout}");
    // Which engine proves it first may change; that it is proved may not.
    assert!(
        summary[0].contains("a_safe.c: safe (proved by "),
        "{stdout}"
    );
    // C is checked for races too by default: the lost update races first.
    assert!(
        summary[1].contains("sub/b_unsafe.c: unsafe: a data race is reachable"),
        "{stdout}"
    );
    // The trace of the buggy file is printed in full above the summary.
    assert!(stdout.contains("steps"), "{stdout}");
    // JSON: an array, one object per file.
    let out = ase(&["check", "--timeout", "20", "--format", "json", d]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let verdicts: Vec<&str> = v
        .as_array()
        .expect("array")
        .iter()
        .map(|o| o["verdict"].as_str().expect("verdict"))
        .collect();
    assert_eq!(verdicts, ["safe", "unsafe"]);
    // A single-output option with several files is refused.
    let out = ase(&["check", "--witness", "w.graphml", d, d]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The fingerprint of a bug (`partialFingerprints`) stays when lines shift
/// above it, and differs for another bug.
#[test]
fn fingerprints_survive_shifted_lines() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sarif-fingerprints");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bug.c");
    let path = file.to_str().expect("a UTF-8 path");
    let fingerprints = |text: &str| -> Vec<String> {
        std::fs::write(&file, text).unwrap();
        let out = ase(&["check", "--timeout", "20", "--format", "sarif", path]);
        let log: Value = serde_json::from_slice(&out.stdout).expect("a JSON log");
        log["runs"][0]["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| {
                r["partialFingerprints"]["aseBug/v1"]
                    .as_str()
                    .expect("a fingerprint")
                    .to_string()
            })
            .collect()
    };
    let racy =
        std::fs::read_to_string(root().join("tests-c/programs/lost_update_race_unsafe.c")).unwrap();
    let first = fingerprints(&racy);
    assert_eq!(first.len(), 1);
    let shifted = fingerprints(&format!("// a comment\n\n// another one\n{racy}"));
    assert_eq!(first, shifted, "lines shifted above the bug");
    let other =
        std::fs::read_to_string(root().join("tests-c/programs/deadlock_lock_order_unsafe.c"))
            .unwrap();
    let other = fingerprints(&other);
    assert_eq!(other.len(), 1);
    assert_ne!(first, other, "another bug");
}
