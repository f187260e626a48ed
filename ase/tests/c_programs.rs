//! End-to-end tests of `ase check` and `ase lower` on the C programs of
//! `tests-c/programs/`.
//!
//! Each program's first line is `// expect: safe|unsafe|unknown`: the
//! verdict of `ase check` with the options of its `// args:` line
//! (`--no-races` or `--races`: what the expectation is about), within
//! 120 s or the seconds of its `// timeout:` line (a program whose proof
//! takes long, so that a slow build still decides it). Every
//! program must get exactly that verdict, except those listed in
//! `tests-c/known-unknown.txt` (programs the verifier cannot decide yet,
//! with the reason): they may answer `unknown` but never the opposite of
//! their expectation. The verdict lines of all programs are snapshotted
//! (`snapshots/c_programs__verdicts.snap`), and every program that lowers
//! is printed by `ase lower` and must parse back as `.gc`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

const ASE: &str = env!("CARGO_BIN_EXE_ase");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn programs() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("tests-c/programs"))
        .expect("tests-c/programs")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    v.sort();
    v
}

fn expectation(file: &str) -> String {
    let text = std::fs::read_to_string(root().join("tests-c/programs").join(file)).expect("read");
    text.lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("// expect:")
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_else(|| panic!("{file} has no `// expect:` line"))
}

/// The program's options of `ase check`, `ase lower` and `ase certify`:
/// its `// args:` line (`--no-races` for a program about assertions,
/// `--races` for one about data races, `--concurrent push:2,pop` for a
/// library).
fn program_args(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join("tests-c/programs").join(file)).expect("read");
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.strip_prefix("// args:"))
        .map(|a| a.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The seconds of a program's `// timeout:` line, else 120.
fn program_timeout(file: &str) -> String {
    let text = std::fs::read_to_string(root().join("tests-c/programs").join(file)).expect("read");
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.strip_prefix("// timeout:"))
        .map_or_else(|| "120".to_string(), |t| t.trim().to_string())
}

fn known_unknown() -> Vec<String> {
    std::fs::read_to_string(root().join("tests-c/known-unknown.txt"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| !w.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The verdict line of `ase check` (engines one after the other, so that
/// the proof and trace are deterministic), without step counts.
fn verdict(file: &str, timeout: &str) -> String {
    verdict_with(file, timeout, &["--jobs", "1"])
}

/// The verdict line of `ase check` with further arguments. Every safe
/// verdict must be certified, and its certificate must check again in a
/// separate run (`ase certify`, which lowers the C again, with the same
/// reduction setting).
fn verdict_with(file: &str, timeout: &str, extra: &[&str]) -> String {
    let path = format!("tests-c/programs/{file}");
    let cert = std::env::temp_dir().join(format!(
        "ase-c-programs-{}-{}-{file}.cert",
        std::process::id(),
        extra.join("")
    ));
    let own = program_args(file);
    let mut args = vec!["check", "--timeout", timeout];
    args.extend_from_slice(extra);
    args.extend(own.iter().map(String::as_str));
    args.push(&path);
    let out = Command::new(ASE)
        .current_dir(root())
        .args(&args)
        .arg("--certificate")
        .arg(&cert)
        .output()
        .expect("run ase");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap_or("").to_string();
    let word = first.split([':', ' ']).next().unwrap_or("").to_string();
    let code = out.status.code();
    let expected_code = match word.as_str() {
        "safe" => Some(0),
        "unsafe" => Some(1),
        "unknown" => Some(3),
        _ => None,
    };
    assert_eq!(
        code,
        expected_code,
        "{file}: exit code {code:?} for output\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // With the short timeouts of the differential test, the certificate
    // check may run out of time (the verdict then stands, uncertified);
    // any other reason is a failure.
    let short = timeout.parse::<u64>().is_ok_and(|t| t < 60);
    let out_of_time = stdout.contains("\ncertified: no (")
        && (stdout.contains("time limit reached") || stdout.contains("undecided: timeout"));
    if word == "safe" && !(short && out_of_time) {
        assert!(
            stdout.contains("\ncertified: yes ("),
            "{file}: not certified\n{stdout}"
        );
        let mut again = vec!["certify", &path];
        if extra.contains(&"--no-reduce") {
            again.push("--no-reduce");
        }
        again.extend(own.iter().map(String::as_str));
        let again = Command::new(ASE)
            .current_dir(root())
            .args(&again)
            .arg(&cert)
            .output()
            .expect("run ase certify");
        assert_eq!(
            again.status.code(),
            Some(0),
            "{file}: ase certify\n{}{}",
            String::from_utf8_lossy(&again.stdout),
            String::from_utf8_lossy(&again.stderr)
        );
    }
    let _ = std::fs::remove_file(&cert);
    if word == "unsafe" {
        return "unsafe".into();
    }
    first
}

#[test]
fn c_programs_get_their_expected_verdicts() {
    let files = programs();
    assert!(
        files.len() >= 40,
        "tests-c/programs has {} programs",
        files.len()
    );
    let slow = known_unknown();
    let results = for_all_programs(|f| {
        let timeout = if slow.contains(f) {
            "3".to_string()
        } else {
            program_timeout(f)
        };
        verdict(f, &timeout)
    });
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    for (f, v) in &results {
        let expect = expectation(f);
        let word = v.split([':', ' ']).next().unwrap_or("");
        let ok = word == expect || (slow.contains(f) && word == "unknown");
        if !ok {
            failures.push(format!("{f}: expected {expect}, got {v}"));
        }
        // Whether a known-unknown program is decided in its short time
        // depends on the machine (and the build): either answer shows alike.
        let shown = if slow.contains(f) && expect != "unknown" {
            format!("{expect} or unknown (known)")
        } else if slow.contains(f) {
            "unknown (known)".to_string()
        } else {
            v.clone()
        };
        lines.push(format!("{f}: {shown}"));
    }
    assert!(
        failures.is_empty(),
        "wrong verdicts:\n{}",
        failures.join("\n")
    );
    insta::assert_snapshot!("verdicts", lines.join("\n"));
}

/// Runs `f` on every program, two at a time, and returns the results sorted
/// by file.
fn for_all_programs(f: impl Fn(&String) -> String + Sync) -> Vec<(String, String)> {
    let files = programs();
    let results = Mutex::new(Vec::new());
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().expect("lock");
                    *n += 1;
                    *n - 1
                };
                let Some(file) = files.get(i) else { break };
                let v = f(file);
                results.lock().expect("lock").push((file.clone(), v));
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort();
    results
}

/// The differential test of the reduction on every program: the
/// fine-grained model (`--no-reduce`) and the reduced one checked with both
/// engines side by side (`--jobs 2`) never contradict each other or the
/// expectation.
#[test]
fn reduction_and_parallel_engines_keep_verdicts() {
    let results = for_all_programs(|f| {
        let fine = verdict_with(f, "4", &["--jobs", "1", "--no-reduce"]);
        let parallel = verdict_with(f, "10", &["--jobs", "2"]);
        format!("{fine}|{parallel}")
    });
    let word = |v: &str| v.split([':', ' ']).next().unwrap_or("").to_string();
    let mut failures = Vec::new();
    let mut decided = [0usize; 2];
    for (f, v) in &results {
        let (fine, parallel) = v.split_once('|').expect("two verdicts");
        let (fine, parallel) = (word(fine), word(parallel));
        let expect = expectation(f);
        for (i, w) in [&fine, &parallel].into_iter().enumerate() {
            if w != "unknown" {
                decided[i] += 1;
                if *w != expect && expect != "unknown" {
                    failures.push(format!("{f}: expected {expect}, got {w} ({v})"));
                }
            }
        }
        if fine != "unknown" && parallel != "unknown" && fine != parallel {
            failures.push(format!(
                "{f}: --no-reduce says {fine}, reduced says {parallel}"
            ));
        }
    }
    println!(
        "{} programs: {} decided without reduction, {} reduced with parallel engines",
        results.len(),
        decided[0],
        decided[1]
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn lowered_programs_parse_back() {
    for f in programs() {
        let out = Command::new(ASE)
            .current_dir(root())
            .args(["lower", &format!("tests-c/programs/{f}")])
            .args(program_args(&f))
            .output()
            .expect("run ase lower");
        match out.status.code() {
            Some(0) => {
                let text = String::from_utf8_lossy(&out.stdout);
                if let Err(errors) = engine::parse::parse_program(&text) {
                    panic!(
                        "{f}: `ase lower` output does not parse: {:?}",
                        errors.first()
                    );
                }
            }
            Some(3) => assert!(
                expectation(&f) == "unknown" || known_unknown().contains(&f),
                "{f}: lowering refused a program expected to be decided"
            ),
            code => panic!(
                "{f}: `ase lower` exit code {code:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        }
    }
}

/// An unsafe verdict of the reduced model comes with its trace replayed on
/// the program lowered without the reduction (`unreduced_replay` in the
/// JSON): as long as the reduced trace or longer, since each reduced step
/// is one or more fine-grained ones; and `--no-reduce` has nothing to
/// replay.
#[test]
fn unsafe_traces_replay_without_the_reduction() {
    for file in [
        "mutex_tally_loop_unsafe.c",
        "race_rare_interleaving_unsafe.c",
    ] {
        let path = format!("tests-c/programs/{file}");
        let run = |extra: &[&str]| -> serde_json::Value {
            let out = Command::new(ASE)
                .current_dir(root())
                .args([
                    "check",
                    "--format",
                    "json",
                    "--jobs",
                    "1",
                    "--timeout",
                    "60",
                ])
                .args(extra)
                .args(program_args(file))
                .arg(&path)
                .output()
                .expect("run ase");
            serde_json::from_slice(&out.stdout).expect("JSON output")
        };
        let v = run(&[]);
        assert_eq!(v["verdict"], "unsafe", "{file}: {v}");
        let reduced = v["trace"]["steps"].as_array().expect("trace steps").len();
        let unreduced = v["unreduced_replay"]["steps"]
            .as_u64()
            .unwrap_or_else(|| panic!("{file}: no unreduced_replay in {v}"));
        assert!(
            unreduced as usize >= reduced,
            "{file}: {unreduced} unreduced steps for {reduced} reduced ones"
        );
        let fine = run(&["--no-reduce"]);
        assert_eq!(fine["verdict"], "unsafe", "{file}: {fine}");
        assert!(fine.get("unreduced_replay").is_none(), "{file}: {fine}");
    }
}
