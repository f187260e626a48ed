//! End-to-end tests of the `ase` binary.
//!
//! - every `examples/*.gc` and `tests-gc/*.gc`: the exit code matches the
//!   file's `// expect:` line, and the text output is snapshotted (with the
//!   time of the stats line normalised);
//! - every `tests-gc/invalid/*.gc`: exit code 2 and a snapshot of the
//!   rendered diagnostics;
//! - every `tests-gc/diverging/*.gc`: checked with its budget, the verdict is
//!   the expected one or `unknown`, never the opposite one;
//! - the JSON output of a safe, an unsafe and an unknown case;
//! - bad invocations;
//! - the models of `/work/shared/gc-models` when that folder exists.
//!
//! A `.gc` file may carry, among its first comment lines, `// expect: V`
//! (`safe`, `unsafe`, `unknown` or `invalid`) and `// args: ...`, extra
//! arguments for `ase check` (budgets, e.g. `--max-iterations 3`).
//!
//! Every child process runs in the workspace root and gets paths relative to
//! it, so the paths in the outputs (diagnostics) are stable.

mod common;

use common::{ase, root};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn code(out: &Output) -> i32 {
    out.status.code().expect("ase was killed by a signal")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// The `.gc` files of `dir` (relative to the workspace root), as relative
/// paths with `/` separators, sorted.
fn gc_files(dir: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot read `{dir}`: {e}"))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "gc"))
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            format!("{dir}/{name}")
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .gc file in `{dir}`");
    files
}

fn stem(path: &str) -> &str {
    Path::new(path).file_stem().unwrap().to_str().unwrap()
}

/// What the leading comment lines of a `.gc` file say.
struct Header {
    /// The `// expect:` verdict.
    expect: String,
    /// The `// args:` arguments.
    args: Vec<String>,
}

fn header(path: &Path) -> Header {
    let source = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read `{}`: {e}", path.display()));
    let mut expect = None;
    let mut args = Vec::new();
    for line in source.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(comment) = line.strip_prefix("//").or_else(|| line.strip_prefix('#')) else {
            break; // the end of the leading comments
        };
        let comment = comment.trim();
        if let Some(v) = comment.strip_prefix("expect:") {
            expect = Some(v.trim().to_owned());
        } else if let Some(a) = comment.strip_prefix("args:") {
            args.extend(a.split_whitespace().map(str::to_owned));
        }
    }
    let expect = expect.unwrap_or_else(|| panic!("`{}` has no `// expect:` line", path.display()));
    Header { expect, args }
}

/// The exit code of a verdict.
fn exit_code_of(verdict: &str) -> i32 {
    match verdict {
        "safe" => 0,
        "unsafe" => 1,
        "invalid" => 2,
        "unknown" => 3,
        other => panic!("unknown verdict `{other}`"),
    }
}

/// Replaces every `time: 0.123 s` by `time: [t] s`, and the time of the
/// certificate check (`certified: yes (0.012 s)`) likewise.
fn normalise_time(text: &str) -> String {
    normalise_after(&normalise_after(text, "time: "), "certified: yes (")
}

fn normalise_after(text: &str, key: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(key) {
        let (before, after) = rest.split_at(i + key.len());
        out.push_str(before);
        let digits = after
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(after.len());
        if digits > 0 && after[digits..].starts_with(" s") {
            out.push_str("[t]");
            rest = &after[digits..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Snapshot of an output, described by the command that produced it.
fn snapshot(name: &str, command: &str, output: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_description(command);
    settings.set_omit_expression(true);
    settings.set_prepend_module_to_snapshot(true);
    settings.bind(|| insta::assert_snapshot!(name, output));
}

/// Runs `ase check [ARGS] FILE` in text format, checks the exit code against
/// the `// expect:` line and snapshots stdout.
fn check_and_snapshot(file: &str) {
    let h = header(&root().join(file));
    let mut args = vec!["check".to_owned()];
    args.extend(h.args.iter().cloned());
    args.push(file.to_owned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ase(&args);
    let command = format!("ase {}", args.join(" "));
    assert_eq!(
        code(&out),
        exit_code_of(&h.expect),
        "`{command}`: exit code does not match `// expect: {}`\nstdout:\n{}\nstderr:\n{}",
        h.expect,
        stdout(&out),
        stderr(&out),
    );
    let first = stdout(&out).lines().next().unwrap_or_default().to_owned();
    assert!(
        first.starts_with(&h.expect),
        "`{command}`: the verdict line `{first}` does not start with `{}`",
        h.expect
    );
    snapshot(stem(file), &command, &normalise_time(&stdout(&out)));
}

#[test]
fn time_normalisation() {
    assert_eq!(
        normalise_time("iterations: 1, time: 0.012 s\ntime: 12 s, time: x s"),
        "iterations: 1, time: [t] s\ntime: [t] s, time: x s"
    );
}

#[test]
fn snapshot_names_are_unique() {
    let mut names: Vec<String> = gc_files("examples")
        .iter()
        .chain(&gc_files("tests-gc"))
        .map(|f| stem(f).to_owned())
        .collect();
    names.extend(
        gc_files("tests-gc/invalid")
            .iter()
            .map(|f| format!("invalid-{}", stem(f))),
    );
    let count = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), count, "two .gc files share a snapshot name");
}

#[test]
fn examples() {
    for file in gc_files("examples") {
        check_and_snapshot(&file);
    }
}

#[test]
fn tests_gc() {
    let files = gc_files("tests-gc");
    assert!(files.len() >= 12);
    for file in files {
        check_and_snapshot(&file);
    }
}

#[test]
fn invalid_inputs() {
    for file in gc_files("tests-gc/invalid") {
        let h = header(&root().join(&file));
        assert_eq!(h.expect, "invalid", "`{file}`");
        let out = ase(&["check", &file]);
        assert_eq!(
            code(&out),
            2,
            "`ase check {file}` should reject the input\nstdout:\n{}\nstderr:\n{}",
            stdout(&out),
            stderr(&out)
        );
        assert_eq!(stdout(&out), "", "`{file}`: nothing on stdout");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("┌─ {file}:")),
            "`{file}`: the diagnostic names the file\n{err}"
        );
        snapshot(
            &format!("invalid-{}", stem(&file)),
            &format!("ase check {file} (stderr)"),
            &err,
        );
    }
}

/// Programs on which the refinement does not converge: with a budget the
/// verdict is `unknown` (or, should the engine learn to converge, the
/// expected one), but never the opposite verdict.
#[test]
fn diverging_programs_are_never_wrong() {
    for file in gc_files("tests-gc/diverging") {
        let h = header(&root().join(&file));
        assert!(!h.args.is_empty(), "`{file}` needs a budget in `// args:`");
        let mut args = vec!["check"];
        args.extend(h.args.iter().map(String::as_str));
        args.push(&file);
        let out = ase(&args);
        let c = code(&out);
        assert!(
            c == exit_code_of(&h.expect) || c == 3,
            "`ase {}`: exit code {c}, expected `{}` or unknown\n{}{}",
            args.join(" "),
            h.expect,
            stdout(&out),
            stderr(&out)
        );
    }
}

// ---------------------------------------------------------------- JSON

/// Runs `ase check --format json ARGS` and parses stdout.
/// Runs `ase check --format json ARGS`; `expected_code` -1 accepts any
/// verdict's exit code (0, 1 or 3).
fn json(args: &[&str], expected_code: i32) -> Value {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = ase(&all);
    let accepted = if expected_code == -1 {
        [0, 1, 3].contains(&code(&out))
    } else {
        code(&out) == expected_code
    };
    assert!(
        accepted,
        "expected exit code {expected_code}, got {}: `ase {}`\nstdout:\n{}\nstderr:\n{}",
        code(&out),
        all.join(" "),
        stdout(&out),
        stderr(&out)
    );
    serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("`ase {}`: stdout is not JSON: {e}", all.join(" ")))
}

fn check_stats(v: &Value) {
    let stats = v["stats"].as_object().expect("\"stats\" is an object");
    for key in [
        "iterations",
        "prover_queries",
        "symbolic_states",
        "abstract_states",
    ] {
        assert!(stats[key].is_u64(), "stats.{key} is a count: {v}");
    }
    let time = stats["time"].as_f64().expect("stats.time is a number");
    assert!(time >= 0.0);
    let preds = &stats["predicates"];
    let count = preds["count"].as_u64().expect("stats.predicates.count");
    let list = preds["list"].as_array().expect("stats.predicates.list");
    assert_eq!(list.len() as u64, count);
    assert!(list.iter().all(Value::is_string), "predicates are strings");
}

#[test]
fn json_safe() {
    let v = json(&["examples/ticket.gc"], 0);
    assert_eq!(v["verdict"], "safe");
    let check = v["check"].as_str().expect("\"check\" names the proof");
    assert!(check == "SF" || check == "II", "check = {check}");
    assert!(v.get("trace").is_none() && v.get("reason").is_none());
    check_stats(&v);
    assert!(v["stats"]["predicates"]["count"].as_u64().unwrap() > 0);
}

#[test]
fn json_unsafe() {
    let v = json(&["tests-gc/nd-input-bug.gc"], 1);
    assert_eq!(v["verdict"], "unsafe");
    assert!(v.get("check").is_none() && v.get("reason").is_none());
    check_stats(&v);
    let trace = &v["trace"];
    assert_eq!(trace["initial"]["values"]["x"], 0);
    assert_eq!(trace["initial"]["values"]["seen"], 0);
    assert_eq!(trace["initial"]["locations"]["reader"], "start");
    let steps = trace["steps"].as_array().expect("trace.steps");
    assert_eq!(steps.len(), 2);
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["step"], i as u64 + 1);
        assert_eq!(step["thread"], "reader");
        assert!(step["values"].is_object() && step["inputs"].is_object());
    }
    assert_eq!(steps[0]["transition"], "read");
    assert_eq!(steps[0]["from"], "start");
    assert_eq!(steps[0]["to"], "check");
    assert_eq!(steps[0]["inputs"]["x"], 42);
    assert_eq!(steps[0]["values"]["x"], 42);
    assert_eq!(steps[1]["transition"], "magic");
    assert_eq!(steps[1]["inputs"], serde_json::json!({}));
    assert_eq!(steps[1]["locations"]["reader"], "bad");
    assert_eq!(steps[1]["values"], serde_json::json!({"x": 42, "seen": 0}));
}

#[test]
fn json_unsafe_multi_thread_trace() {
    let v = json(&["examples/lost-update.gc"], 1);
    let steps = v["trace"]["steps"].as_array().expect("trace.steps");
    let threads: Vec<&str> = steps
        .iter()
        .map(|s| s["thread"].as_str().unwrap())
        .collect();
    assert_eq!(steps.len(), 4);
    assert!(threads.contains(&"t1") && threads.contains(&"t2"));
    let last = steps.last().unwrap();
    assert_eq!(last["values"]["x"], 1);
    assert_eq!(
        last["locations"],
        serde_json::json!({"t1": "done", "t2": "done"})
    );
}

#[test]
fn json_unknown_iterations() {
    let v = json(&["--max-iterations", "1", "tests-gc/count-to-10.gc"], 3);
    assert_eq!(v["verdict"], "unknown");
    let reason = v["reason"].as_str().expect("\"reason\" is a string");
    assert!(reason.contains("iteration limit"), "reason = {reason}");
    assert_eq!(v["unknown_kind"], "iterations");
    assert!(v.get("check").is_none() && v.get("trace").is_none());
    check_stats(&v);
    assert_eq!(v["stats"]["iterations"], 1);
}

#[test]
fn json_unknown_states() {
    let v = json(&["--max-states", "5", "tests-gc/three-threads-bug.gc"], 3);
    assert_eq!(v["verdict"], "unknown");
    let reason = v["reason"].as_str().expect("\"reason\" is a string");
    assert!(reason.contains("state limit"), "reason = {reason}");
    assert_eq!(v["unknown_kind"], "states");
    check_stats(&v);
}

/// The time limit covers preprocessing and lowering: a limit shorter than
/// they take ends in `unknown` without running an engine.
#[test]
fn json_unknown_time_spent_lowering() {
    let v = json(
        &[
            "--timeout",
            "0.000001",
            "tests-c/programs/lost_update_race_unsafe.c",
        ],
        3,
    );
    assert_eq!(v["verdict"], "unknown");
    let reason = v["reason"].as_str().expect("\"reason\" is a string");
    assert!(
        reason.starts_with("time limit reached (preprocessing and lowering took"),
        "reason = {reason}"
    );
    assert_eq!(v["unknown_kind"], "time");
}

/// The engine is deterministic: two runs give the same output but the time
/// and the process's resources.
#[test]
fn json_is_deterministic() {
    for (file, code) in [
        ("examples/mutex.gc", 0),
        ("tests-gc/three-threads-bug.gc", 1),
        ("tests-gc/nd-countdown.gc", 1),
    ] {
        let mut a = json(&[file], code);
        let mut b = json(&[file], code);
        for v in [&mut a, &mut b] {
            assert!(v["resources"]["cpu_seconds"].as_f64().is_some());
            assert!(v["resources"]["peak_memory_bytes"].as_u64().unwrap() > 0);
            v["stats"]["time"] = Value::Null;
            v["resources"] = Value::Null;
            if code == 0 {
                assert!(v["certificate_time"].as_f64().is_some());
                v["certificate_time"] = Value::Null;
            }
        }
        assert_eq!(a, b, "`{file}`: two runs differ");
    }
}

/// Values beyond 64 bits are written as strings (JSON readers lose
/// precision beyond that); this once panicked the renderer.
#[test]
fn json_values_beyond_64_bits() {
    let v = json(&["tests-gc/big-values.gc"], 1);
    assert_eq!(v["verdict"], "unsafe");
    let steps = v["trace"]["steps"].as_array().expect("steps");
    let last = &steps[steps.len() - 1]["values"];
    assert!(
        last.as_object()
            .expect("values")
            .values()
            .any(|x| x.is_string()),
        "{last}"
    );
}

// ---------------------------------------------------- bad invocations

fn assert_bad_invocation(args: &[&str], message: &str) {
    let out = ase(args);
    assert_eq!(
        code(&out),
        2,
        "`ase {}` should fail with exit code 2\nstdout:\n{}\nstderr:\n{}",
        args.join(" "),
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(stdout(&out), "", "`ase {}`", args.join(" "));
    let err = stderr(&out);
    assert!(
        err.contains(message),
        "`ase {}`: stderr lacks `{message}`:\n{err}",
        args.join(" ")
    );
}

#[test]
fn missing_file() {
    assert_bad_invocation(&["check", "tests-gc/no-such-file.gc"], "cannot read");
}

#[test]
fn directory_without_programs() {
    // A directory stands for the programs below it; none is bad input.
    let dir = std::env::temp_dir().join(format!("ase-empty-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("notes.txt"), "not a program").expect("write");
    assert_bad_invocation(&["check", dir.to_str().expect("utf-8")], "no programs");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn invalid_c_says_error_once() {
    // The diagnostic's severity is the only "error:" (it once read
    // "error: error: unknown identifier").
    let dir = std::env::temp_dir().join(format!("ase-invalid-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("undeclared.c");
    std::fs::write(&file, "int main(void) { return nosuch; }\n").expect("write");
    assert_bad_invocation(
        &["check", file.to_str().expect("utf-8")],
        "error: unknown identifier `nosuch`",
    );
    assert!(!stderr(&ase(&["check", file.to_str().expect("utf-8")])).contains("error: error"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cegpv_is_not_its_own_backend() {
    assert_bad_invocation(
        &[
            "check",
            "--engine",
            "cegpv",
            "--backend",
            "cegpv",
            "examples/mutex.gc",
        ],
        "--backend cegpv",
    );
}

#[test]
fn not_a_gc_file() {
    assert_bad_invocation(&["check", "Cargo.toml"], "unsupported input");
}

#[test]
fn unknown_flag() {
    assert_bad_invocation(&["check", "--bogus", "examples/mutex.gc"], "--bogus");
}

#[test]
fn bad_specifications() {
    let c = "tests-c/programs/spec_lock_order_safe.c";
    assert_bad_invocation(
        &["check", c, "--spec", "tests-c/programs/no-such.spec"],
        "cannot read `tests-c/programs/no-such.spec`",
    );
    // A C program is no specification: its first line is not an item.
    assert_bad_invocation(
        &["check", c, "--spec", c],
        "specification, line 1: expected `STATE -ACTION-> STATE`",
    );
}

#[test]
fn magic_checks_a_specification_end_to_end() {
    let out = ase(&[
        "check",
        "tests-c/programs/spec_lock_order_unsafe.c",
        "--engine",
        "magic",
        "--no-deadlocks",
        "--spec",
        "tests-c/programs/spec_lock_order.spec",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let text = v.to_string();
    assert!(text.contains("call of `acquire` in state `held`"), "{text}");
    assert!(
        text.contains("\"spec\""),
        "the sub-property is named: {text}"
    );
}

#[test]
fn no_file_argument() {
    assert_bad_invocation(&["check"], "<FILE>");
}

#[test]
fn unknown_format() {
    assert_bad_invocation(
        &["check", "--format", "xml", "examples/mutex.gc"],
        "invalid value 'xml'",
    );
}

#[test]
fn zero_timeout() {
    assert_bad_invocation(
        &["check", "--timeout", "0", "examples/mutex.gc"],
        "--timeout must be a number of seconds",
    );
}

#[test]
fn nan_timeout() {
    assert_bad_invocation(
        &["check", "--timeout", "NaN", "examples/mutex.gc"],
        "--timeout must be a number of seconds",
    );
}

#[test]
fn negative_max_iterations() {
    assert_bad_invocation(
        &["check", "--max-iterations", "-1", "examples/mutex.gc"],
        "-1",
    );
}

/// A timeout beyond a year is rejected (it once panicked in
/// `Duration::from_secs_f64`).
#[test]
fn huge_timeout() {
    assert_bad_invocation(
        &["check", "--timeout", "1e20", "examples/mutex.gc"],
        "--timeout",
    );
}

// ------------------------------------------------ the shared models

/// The models of the papers, if the shared folder is there (the slow ones
/// are left out to keep the debug-build test time low).
#[test]
fn shared_gc_models() {
    let Some(dir) = common::shared("gc-models") else {
        return;
    };
    const SLOW: [&str; 3] = ["peterson2", "ticket2-nd", "ticket4"];
    let mut models: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read the shared models")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "gc"))
        .filter(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap();
            !name.starts_with("elev") && !SLOW.contains(&name)
        })
        .collect();
    models.sort();
    assert!(!models.is_empty(), "no model in {}", dir.display());
    let mut failures = Vec::new();
    for model in &models {
        let h = header(model);
        let path = model.to_str().unwrap();
        let out = ase(&["check", "--format", "json", "--timeout", "60", path]);
        let verdict = serde_json::from_str::<Value>(&stdout(&out))
            .ok()
            .and_then(|v| v["verdict"].as_str().map(str::to_owned));
        if verdict.as_deref() != Some(h.expect.as_str()) || code(&out) != exit_code_of(&h.expect) {
            failures.push(format!(
                "{}: expected {}, got {:?} (exit code {})\n{}",
                model.display(),
                h.expect,
                verdict,
                code(&out),
                stderr(&out)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "wrong verdicts:\n{}",
        failures.join("\n")
    );
}

// ------------------------------------------------------- the UR engine

/// UR proves a program with one concrete initial state and no inputs,
/// finds bugs with a replayable trace, and declines the rest.
#[test]
fn ur_engine() {
    let v = json(&["--engine", "ur", "examples/ticket.gc"], 0);
    assert_eq!(v["verdict"], "safe");
    assert_eq!(v["check"], "EX");

    let v = json(&["--engine", "ur", "examples/lost-update.gc"], 1);
    assert_eq!(v["verdict"], "unsafe");
    assert!(!v["trace"]["steps"].as_array().expect("steps").is_empty());

    // Unconstrained initial values and inputs are outside UR's scope.
    let v = json(&["--engine", "ur", "examples/mutex.gc"], 3);
    assert_eq!(v["verdict"], "unknown");
    let reason = v["reason"].as_str().expect("reason");
    assert!(
        reason.contains("UR needs one concrete initial state"),
        "{reason}"
    );
}

/// UR and ASE agree on every program of `tests-gc/` that UR supports.
#[test]
fn ur_agrees_with_ase() {
    for path in gc_files("tests-gc") {
        let ase_v = json(&["--max-iterations", "20", &path], -1);
        let ur_v = json(&["--engine", "ur", "--max-iterations", "20", &path], -1);
        let (a, u) = (ase_v["verdict"].as_str(), ur_v["verdict"].as_str());
        assert!(
            !(a == Some("safe") && u == Some("unsafe") || a == Some("unsafe") && u == Some("safe")),
            "`{path}`: ASE says {a:?}, UR says {u:?}"
        );
    }
}

// -------------------------------------------------- the explicit search

/// The bounded explicit search finds bugs (shortest traces) and never
/// claims safety.
#[test]
fn explicit_engine() {
    let v = json(
        &[
            "--engine",
            "explicit",
            "--bound",
            "5",
            "tests-gc/three-threads-bug.gc",
        ],
        1,
    );
    assert_eq!(v["verdict"], "unsafe");
    assert_eq!(v["trace"]["steps"].as_array().expect("steps").len(), 6);

    let v = json(
        &["--engine", "explicit", "--bound", "3", "examples/mutex.gc"],
        3,
    );
    let reason = v["reason"].as_str().expect("reason");
    assert!(reason.starts_with("no error within bound 3"), "{reason}");

    assert_bad_invocation(
        &[
            "check",
            "--engine",
            "explicit",
            "--bound=-1",
            "examples/mutex.gc",
        ],
        "--bound",
    );
}

/// `--concurrent` on bad input: a missing function, a bad list, a file with
/// its own `main`, and a parameter no argument can be built for.
#[test]
fn concurrent_refuses_what_it_cannot_harness() {
    let lib = "tests-c/programs/lib_counter_unsafe.c";
    let out = ase(&["check", lib, "--concurrent", "transfer,withdraw"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no function `withdraw` is defined"),
        "{}",
        stderr(&out)
    );
    let out = ase(&["check", lib, "--concurrent", "transfer:0"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("from 1 to 64"), "{}", stderr(&out));
    let out = ase(&["check", "examples/counter_race.c", "--concurrent", "worker"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("defines `main`"), "{}", stderr(&out));
    let dir = std::env::temp_dir().join(format!("ase-cli-concurrent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("pp.c");
    std::fs::write(&file, "int g;\nvoid f(int ***p) { g = 1; }\n").expect("write");
    let out = ase(&[
        "check",
        file.to_str().expect("utf-8"),
        "--concurrent",
        "f:2",
    ]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot build an argument"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ase pre-commit` without the framework: what it checks, what it skips,
/// and which results block.
#[test]
fn pre_commit_checks_threads_and_skips_the_rest() {
    let out = ase(&[
        "pre-commit",
        "tests-c/programs/lib_counter_safe.c",
        "tests-c/programs/atomic_section_safe.c",
        "README.md",
    ]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("ase: 1 checked, 1 skipped"), "{text}");
    assert!(
        text.contains("note   tests-c/programs/lib_counter_safe.c: no `main`"),
        "{text}"
    );
    // The hook checks races and assertions: the unprotected update races
    // before its assertion can fail.
    let out = ase(&[
        "pre-commit",
        "--concurrent",
        "transfer:2",
        "tests-c/programs/lib_counter_unsafe.c",
    ]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("error: data race on `balance`"),
        "{}",
        stdout(&out)
    );
    let out = ase(&[
        "pre-commit",
        "--no-races",
        "--concurrent",
        "transfer:2",
        "tests-c/programs/lib_counter_unsafe.c",
    ]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("the error is reached"),
        "{}",
        stdout(&out)
    );
    // unknown blocks only when asked.
    for (flag, expected) in [(None, 0), (Some("--fail-on-unknown"), 1)] {
        let mut args = vec!["pre-commit", "--timeout", "0.01"];
        args.extend(flag);
        args.push("tests-c/programs/withdraw_loop_race_safe.c");
        let out = ase(&args);
        assert!(stdout(&out).contains("unknown"), "{}", stdout(&out));
        assert_eq!(code(&out), expected, "{flag:?}: {}", stdout(&out));
    }
}

/// The root `Cargo.toml` lists the integration tests one by one (its
/// sources live in `ase/`, so cargo does not discover them): every file of
/// `ase/tests/` must be listed, or it would silently not run.
#[test]
fn every_integration_test_is_declared() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root().join("ase/tests")).expect("ase/tests") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".rs") && !manifest.contains(&format!("path = \"ase/tests/{name}\"")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "add a [[test]] entry to the root Cargo.toml for: {missing:?}"
    );
}

/// Output into a closed pipe (`ase check ... | head -1`) ends `ase`
/// quietly with the status of SIGPIPE, never a panic.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ase"))
        .current_dir(root())
        .env("ASE_JOBS", "1")
        .args([
            "check",
            "--trace",
            "full",
            "tests-c/programs/lost_update_race_unsafe.c",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run ase");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
}

/// `ase lower` lowers a program whose unmodelled constructs give up where
/// reached, and lists them as warnings, once each.
#[test]
fn lower_lists_the_give_ups() {
    let out = ase(&[
        "lower",
        "tests-c/programs/giveup_recursion_unreached_safe.c",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("thread main"), "{}", stdout(&out));
    let warnings: Vec<String> = stderr(&out)
        .lines()
        .filter(|l| l.contains("gives up"))
        .map(str::to_string)
        .collect();
    assert_eq!(
        warnings,
        ["warning: gives up where reached: recursion deeper than 8 calls of `depth` (line 13)"]
    );
}

// ------------------------------------------------- compilation databases

/// `--compile-commands`: a file is preprocessed with its build's include
/// paths and macros (`tests-c/compile-commands`: the header is found
/// through the entry's `-I`, and its `-DUSE_LOCK` makes the workers lock).
#[test]
fn compile_commands_give_the_builds_flags() {
    let db = "tests-c/compile-commands";
    let file = "tests-c/compile-commands/src/tally.c";
    let out = ase(&["check", "--compile-commands", db, file]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    // The same include path without the macro: the workers race.
    let include = "tests-c/compile-commands/include";
    let out = ase(&["check", "-I", include, file]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    // Without the database the header is not found: invalid input.
    let out = ase(&["check", file]);
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    // A file the database does not compile.
    let other = "tests-c/programs/barrier_safe.c";
    let out = ase(&["lower", "--compile-commands", db, other]);
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stderr(&out).contains("has no compile command for"),
        "{}",
        stderr(&out)
    );
}

/// `ase pre-commit` finds the compilation database at the root where it
/// runs (or in `build/`) by itself, and checks the files it does not
/// compile without it.
#[test]
fn the_hook_finds_the_compilation_database() {
    // A copy of the project, in which a file outside the database is added.
    let source = root().join("tests-c/compile-commands");
    let project = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compile-commands-hook");
    for file in ["compile_commands.json", "include/tally.h", "src/tally.c"] {
        let to = project.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(source.join(file), to).unwrap();
    }
    let hook = |files: &[&str]| {
        std::process::Command::new(common::ASE)
            .current_dir(&project)
            .env("ASE_JOBS", "1")
            .args(["pre-commit", "--timeout", "60"])
            .args(files)
            .output()
            .expect("cannot run the ase binary")
    };
    let out = hook(&["src/tally.c"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("1 checked"), "{}", stdout(&out));
    // A file outside the database: checked as it is (here: it does not
    // preprocess, which blocks the commit).
    let outside = project.join("src/outside.c");
    std::fs::write(
        &outside,
        "#include \"tally.h\"\nint main(void) { return 0; }\n",
    )
    .unwrap();
    let out = hook(&["src/outside.c"]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
}
