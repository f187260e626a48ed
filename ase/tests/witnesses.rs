//! Source-level counterexamples and SV-COMP witnesses, end to end.
//!
//! - Golden tests (insta) of the rendered C counterexamples of five kinds of
//!   bug: a lost update, a section broken by a missing lock, an atomicity
//!   violation, a bug behind a nondet input, a bug that needs three threads.
//! - Every unsafe program of `tests-c/programs/` gets a GraphML violation
//!   witness that is read back, checked (required keys, declared data keys,
//!   one entry node, a reachable violation node, the program's hash) and
//!   replayed by the interpreter on the lowered program: a witness that
//!   does not replay fails the test.
//! - Correctness witnesses (GraphML and YAML) of safe programs are read
//!   back and checked; YAML violation witnesses of one-thread programs too.
//! - Golden tests (insta) of YAML correctness witnesses: their location
//!   invariants come from the checked certificate (a program proved by the
//!   exhaustive search and one proved by ASE), or from ASE's abstract
//!   states with `--no-certify`.
//! - With `../shared/sv-benchmarks` present, an ignored test does the same
//!   for the unsafe SV-COMP tasks (`ASE_WITNESS_TIMEOUT`, default 20 s).

mod common;

use common::{root, ASE};

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `ase`. The tests here are about assertion counterexamples unless
/// they say otherwise: a `check` without `--races`, `--no-races` or a
/// property checks assertions only (`--no-races`).
fn ase(args: &[&str]) -> (Option<i32>, String, String) {
    let mut args = args.to_vec();
    let chosen = args
        .iter()
        .any(|a| matches!(*a, "--races" | "--no-races" | "--property"))
        || args.last().is_some_and(|a| a.ends_with(".yml"));
    if args.first() == Some(&"check") && !chosen {
        args.insert(1, "--no-races");
    }
    let out = Command::new(ASE)
        .current_dir(root())
        .env("ASE_JOBS", "1")
        .args(&args)
        .output()
        .expect("run ase");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The output without the statistics line (its figures include times).
fn without_stats(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("iterations:"))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn golden(name: &str, file: &str, mode: &str) {
    let path = format!("tests-c/programs/{file}");
    let (code, out, err) = ase(&["check", "--trace", mode, &path]);
    assert_eq!(code, Some(1), "{file}: {out}{err}");
    insta::assert_snapshot!(name, without_stats(&out));
}

/// A race counterexample: the trace to the state where both accesses are
/// next, both underlined; its JSON names them.
#[test]
fn counterexample_data_race() {
    let file = "tests-c/programs/lost_update_race_unsafe.c";
    let (code, out, err) = ase(&["check", "--races", file]);
    assert_eq!(code, Some(1), "{out}{err}");
    insta::assert_snapshot!("cex-data-race", without_stats(&out));
    let (_, out, _) = ase(&["check", "--races", "--format", "json", file]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let race = &v["source_trace"]["violation"];
    assert_eq!(race["kind"], "data-race", "{race}");
    let accesses = race["accesses"].as_array().expect("two accesses");
    assert_eq!(accesses.len(), 2);
    assert_eq!(accesses[0]["access"], "write");
    assert_ne!(accesses[0]["thread"], accesses[1]["thread"]);
    for a in accesses {
        assert_eq!(a["variable"], race["variable"]);
        assert!(a["line"].as_u64().is_some(), "{a}");
    }
}

/// The `violation` of the JSON answer of a deadlock check of `file`, a
/// deadlock.
fn deadlock_json(file: &str) -> serde_json::Value {
    let args = ["check", "--property", "no-deadlock", "--format", "json"];
    let (_, out, _) = ase(&[&args[..], &[file]].concat());
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let deadlock = v["source_trace"]["violation"].clone();
    assert_eq!(deadlock["kind"], "deadlock", "{deadlock}");
    deadlock
}

/// A deadlock counterexample: the trace to the state where no thread can
/// move, every waiting call underlined with what it waits for (the mutex's
/// holder and where it took it); its JSON lists the waiting threads.
#[test]
fn counterexample_deadlock() {
    let file = "tests-c/programs/deadlock_lock_order_unsafe.c";
    let (code, out, err) = ase(&["check", "--property", "no-deadlock", file]);
    assert_eq!(code, Some(1), "{out}{err}");
    insta::assert_snapshot!("cex-deadlock", without_stats(&out));
    let deadlock = deadlock_json(file);
    let threads = deadlock["threads"].as_array().expect("waiting threads");
    assert_eq!(threads.len(), 3, "main and both tellers: {deadlock}");
    let tellers: Vec<&serde_json::Value> =
        threads.iter().filter(|t| t["holder"].is_object()).collect();
    assert_eq!(tellers.len(), 2, "{deadlock}");
    // Each teller waits for the mutex the other one holds.
    assert_eq!(tellers[0]["holder"]["thread"], tellers[1]["thread"]);
    assert_eq!(tellers[1]["holder"]["thread"], tellers[0]["thread"]);
    let main = threads
        .iter()
        .find(|t| t["thread"] == "main")
        .expect("main");
    assert_eq!(main["joined"], tellers[0]["thread"], "{deadlock}");
}

/// A partial deadlock: a worker ended holding the lock the logger waits
/// for while main still runs. The trace says the holder has ended and that
/// other threads may still run; its JSON marks the deadlock partial and
/// lists only the thread that waits forever.
#[test]
fn counterexample_partial_deadlock() {
    let file = "tests-c/programs/deadlock_partial_holder_ended_unsafe.c";
    let args = ["check", "--property", "no-deadlock", "--trace", "compact"];
    let (code, out, err) = ase(&[&args[..], &[file]].concat());
    assert_eq!(code, Some(1), "{out}{err}");
    insta::assert_snapshot!("cex-partial-deadlock", without_stats(&out));
    let deadlock = deadlock_json(file);
    assert_eq!(deadlock["partial"], true, "{deadlock}");
    let threads = deadlock["threads"].as_array().expect("waiting threads");
    assert_eq!(
        threads.len(),
        1,
        "only the logger waits forever: {deadlock}"
    );
    assert_eq!(threads[0]["holder"]["ended"], true, "{deadlock}");
    assert!(
        threads[0]["thread"]
            .as_str()
            .is_some_and(|t| t.starts_with("logger")),
        "{deadlock}"
    );
}

/// A lost wake-up: the signal comes before the wait, and the waiter waits
/// forever (spurious wake-ups are not counted on).
#[test]
fn counterexample_lost_wakeup() {
    golden(
        "cex-lost-wakeup",
        "deadlock_lost_wakeup_unsafe.c",
        "compact",
    );
}

/// Heap blocks named by the program: each cell of a `malloc`'d block by
/// the access path through the variable that first held it (`n->val`,
/// numbered when the call hands out several blocks), never by the
/// lowering's names.
#[test]
fn counterexample_heap_names() {
    golden("cex-heap-names", "heap_queue_unsafe.c", "compact");
}

#[test]
fn counterexample_lost_update() {
    golden("cex-lost-update", "lost_update_race_unsafe.c", "compact");
}

#[test]
fn counterexample_missing_lock() {
    golden("cex-missing-lock", "mutex_one_side_unsafe.c", "compact");
}

#[test]
fn counterexample_atomicity_violation() {
    golden(
        "cex-atomicity",
        "atomic_section_missing_unsafe.c",
        "compact",
    );
}

#[test]
fn counterexample_nondet_input() {
    golden(
        "cex-nondet-input",
        "nondet_specific_value_unsafe.c",
        "compact",
    );
}

#[test]
fn counterexample_three_threads() {
    golden("cex-three-threads", "three_thread_bug_unsafe.c", "compact");
}

#[test]
fn counterexample_full_mode() {
    golden("cex-lost-update-full", "lost_update_race_unsafe.c", "full");
}

#[test]
fn counterexample_json_has_source_positions() {
    let (code, out, _) = ase(&[
        "check",
        "--format",
        "json",
        "tests-c/programs/nondet_specific_value_unsafe.c",
    ]);
    assert_eq!(code, Some(1));
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let steps = v["source_trace"]["steps"].as_array().expect("steps");
    assert!(!steps.is_empty());
    assert!(steps.iter().all(|s| s["file"].is_string()));
    let input = steps
        .iter()
        .flat_map(|s| s["events"].as_array().cloned().unwrap_or_default())
        .find(|e| e["kind"] == "input")
        .expect("an input event");
    assert_eq!(input["function"], "__VERIFIER_nondet_int");
    assert_eq!(input["value"], 42);
    let last = steps.last().expect("last");
    assert!(last["line"].as_u64().is_some());
    assert!(last["events"]
        .as_array()
        .expect("events")
        .iter()
        .any(|e| e["kind"] == "error"));
    // The IR trace is still there.
    assert!(v["trace"]["steps"].is_array());
}

/// Checks a violation witness file of `program`: read back, well-formed,
/// and replayed on the lowered program.
fn check_violation(program: &Path, witness_file: &Path, data_model: Option<&str>) {
    let options = lowering::Options::default();
    check_violation_with(program, witness_file, data_model, options);
}

/// [`check_violation`] of a witness of a program lowered with `options`
/// (a race witness is replayed on the program lowered with races; one of
/// `--extern-calls pure` with that assumption).
fn check_violation_with(
    program: &Path,
    witness_file: &Path,
    data_model: Option<&str>,
    options: lowering::Options,
) {
    if let Err(e) = violation_checks_in(program, witness_file, data_model, options) {
        let text = std::fs::read_to_string(witness_file).expect("witness written");
        panic!(
            "the witness of {} does not check: {e}\n{text}",
            program.display()
        );
    }
}

/// Whether the witness of `program` (lowered with `options`) checks.
fn violation_checks(
    program: &Path,
    witness_file: &Path,
    options: lowering::Options,
) -> Result<witness::replay::Replayed, String> {
    violation_checks_in(program, witness_file, None, options)
}

fn violation_checks_in(
    program: &Path,
    witness_file: &Path,
    data_model: Option<&str>,
    options: lowering::Options,
) -> Result<witness::replay::Replayed, String> {
    let text = std::fs::read_to_string(witness_file).expect("witness written");
    let opts = frontend::Options {
        data_model: match data_model {
            Some("LP64") => frontend::DataModelChoice::Lp64,
            Some("ILP32") => frontend::DataModelChoice::Ilp32,
            _ => frontend::DataModelChoice::Auto,
        },
        ..frontend::Options::default()
    };
    let unit = frontend::parse_file(program, &opts).expect("parses");
    let lowered = lowering::lower_with(&unit, &options).expect("lowers");
    let checked = witness::check_violation_witness(&text, program, &unit, &lowered);
    // A bug past the allocation of a heap array of run-time length is
    // found in the program lowered without tails (SOUNDNESS.md, "Heap
    // arrays of run-time length"): the witness is one of that program.
    // Or in the exact array model (every element of every such array an
    // element of an IR array), which bounded model checking searches.
    if checked.is_err() && lowered.tail_errors() {
        let arrays = lowering::Options {
            array_values: true,
            ..options.clone()
        };
        let arrays = lowering::lower_with(&unit, &arrays).expect("lowers");
        if let Ok(r) = witness::check_violation_witness(&text, program, &unit, &arrays) {
            return Ok(r);
        }
        let exact = lowering::Options {
            tails: false,
            ..options
        };
        let exact = lowering::lower_with(&unit, &exact).expect("lowers");
        return witness::check_violation_witness(&text, program, &unit, &exact);
    }
    checked
}

fn expectation(path: &Path) -> String {
    std::fs::read_to_string(path)
        .expect("read")
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("// expect:")
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_default()
}

#[test]
fn violation_witnesses_of_unsafe_programs_replay() {
    let dir = tempdir("violations");
    let mut checked = 0;
    let mut yaml = 0;
    let mut yaml_failures = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests-c/programs"))
        .expect("programs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| expectation(p) == "unsafe")
        .collect();
    files.sort();
    for program in files {
        let w = dir.join(format!(
            "{}.graphml",
            program.file_stem().expect("stem").to_string_lossy()
        ));
        // The program's `// args:` (assertions alone without them): race
        // programs (`--races`) give race witnesses, `--property NAME`
        // programs witnesses of that property.
        let text = std::fs::read_to_string(&program).expect("read");
        let mut args: Vec<&str> = text
            .lines()
            .find_map(|l| l.strip_prefix("// args:"))
            .map(|a| a.split_whitespace().collect())
            .unwrap_or_default();
        if args.is_empty() {
            args.push("--no-races");
        }
        // Libraries checked through a harness: the replay below lowers the
        // file alone.
        if args.contains(&"--concurrent") {
            continue;
        }
        let races = args.contains(&"--races");
        let property = args
            .iter()
            .position(|a| *a == "--property")
            .map(|i| args[i + 1]);
        let mut command = vec!["check"];
        command.extend(&args);
        command.extend(["--timeout", "60", "--witness", w.to_str().expect("utf-8")]);
        command.push(program.to_str().expect("utf-8"));
        let (code, out, err) = ase(&command);
        if code != Some(1) {
            assert!(
                !w.exists(),
                "{}: a witness without a verdict",
                program.display()
            );
            eprintln!("{}: not unsafe ({out}{err})", program.display());
            continue;
        }
        let checks = match property {
            Some(name) => {
                let mut input = pipeline::CInput::default();
                let p = sv_comp::property::Property::named(name).expect("a property name");
                pipeline::task::check_only(&p, &mut input);
                input.lowering.checks
            }
            None => lowering::Checks {
                assertions: !races,
                races,
                memsafety: !races && !args.contains(&"--no-memsafety"),
                thread_safety: !races && !args.contains(&"--no-thread-safety"),
                ..lowering::Checks::ASSERTIONS
            },
        };
        let witness = std::fs::read_to_string(&w).expect("witness");
        if races {
            assert!(witness.contains("G ! data-race"), "{witness}");
        }
        // Deadlocks are checked apart, on a model of their own
        // (`pipeline/src/apart.rs`): their witnesses are of that model.
        let checks = if witness.contains("G ! deadlock") {
            lowering::Checks::DEADLOCKS
        } else {
            checks
        };
        let extern_calls = match args.iter().position(|a| *a == "--extern-calls") {
            Some(i) => match args[i + 1] {
                "pure" => lowering::ExternCalls::Pure,
                "havoc" => lowering::ExternCalls::Havoc,
                _ => lowering::ExternCalls::GiveUp,
            },
            None => lowering::ExternCalls::GiveUp,
        };
        let options = lowering::Options {
            checks,
            extern_calls,
            ..lowering::Options::default()
        };
        check_violation_with(&program, &w, None, options.clone());
        checked += 1;
        // The same check's witness in the YAML format (2.0 with one
        // thread, 2.2 with thread ids).
        let y = w.with_extension("yml");
        let mut command = command.clone();
        command.splice(1..1, ["--witness-format", "yaml"]);
        let at = command
            .iter()
            .position(|a| *a == "--witness")
            .expect("--witness")
            + 1;
        command[at] = y.to_str().expect("utf-8");
        let (code, out, err) = ase(&command);
        assert_eq!(code, Some(1), "{}: {out}{err}", program.display());
        if y.exists() {
            if let Err(e) = violation_checks(&program, &y, options) {
                yaml_failures.push(format!("{}: {e}", program.display()));
            }
            yaml += 1;
        } else {
            eprintln!("{}: no YAML witness ({err})", program.display());
        }
    }
    assert!(checked >= 40, "only {checked} violation witnesses checked");
    assert!(
        yaml_failures.is_empty(),
        "YAML witnesses that do not check:\n{}",
        yaml_failures.join("\n")
    );
    assert!(yaml >= 40, "only {yaml} YAML violation witnesses checked");
}

#[test]
fn corrupted_witnesses_are_rejected() {
    let dir = tempdir("corrupt");
    let program = root().join("tests-c/programs/lost_update_race_unsafe.c");
    let w = dir.join("w.graphml");
    let (code, _, _) = ase(&[
        "check",
        "--witness",
        w.to_str().expect("utf-8"),
        program.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, Some(1));
    let good = std::fs::read_to_string(&w).expect("witness");
    let unit = frontend::parse_file(&program, &frontend::Options::default()).expect("parses");
    let lowered = lowering::lower(&unit).expect("lowers");
    assert!(witness::check_violation_witness(&good, &program, &unit, &lowered).is_ok());
    // Another thread order: the replay fails.
    let swapped = good.replacen(
        "<data key=\"threadId\">1</data>",
        "<data key=\"threadId\">2</data>",
        1,
    );
    assert!(witness::check_violation_witness(&swapped, &program, &unit, &lowered).is_err());
    // A wrong line.
    let moved = good.replacen(
        "<data key=\"startline\">17</data>",
        "<data key=\"startline\">16</data>",
        1,
    );
    assert!(witness::check_violation_witness(&moved, &program, &unit, &lowered).is_err());
    // A missing required key.
    let no_hash = good.replace("<data key=\"programhash\">", "<data key=\"programhash-x\">");
    assert!(witness::check_violation_witness(&no_hash, &program, &unit, &lowered).is_err());
    // No violation node.
    let no_violation = good.replace(
        "<data key=\"violation\">true</data>",
        "<data key=\"violation\">false</data>",
    );
    assert!(witness::check_violation_witness(&no_violation, &program, &unit, &lowered).is_err());
    // Cut short: the path does not reach the error.
    let edges: Vec<&str> = good
        .match_indices("<edge ")
        .map(|(i, _)| &good[i..])
        .collect();
    assert!(edges.len() > 2);
}

/// A YAML witness (format 2.2) of a data race checks; with another
/// thread, line or hash, or without a thread creation, it does not.
#[test]
fn corrupted_yaml_witnesses_are_rejected() {
    let dir = tempdir("corrupt-yaml");
    let program = root().join("tests-c/programs/race_after_join_unsafe.c");
    let w = dir.join("w.yml");
    let (code, _, _) = ase(&[
        "check",
        "--races",
        "--witness-format",
        "yaml",
        "--witness",
        w.to_str().expect("utf-8"),
        program.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, Some(1));
    let good = std::fs::read_to_string(&w).expect("witness");
    assert!(good.contains("format_version: \"2.2\""), "{good}");
    let unit = frontend::parse_file(&program, &frontend::Options::default()).expect("parses");
    let options = lowering::Options {
        checks: lowering::Checks {
            races: true,
            ..lowering::Checks::ASSERTIONS
        },
        ..lowering::Options::default()
    };
    let lowered = lowering::lower_with(&unit, &options).expect("lowers");
    let check = |text: &str| witness::check_violation_witness(text, &program, &unit, &lowered);
    let replayed = check(&good).expect("the witness checks");
    assert_eq!(replayed.threads_created, 2);
    // The race's second access in thread 1 (`first`), not 2 (`second`).
    let other_thread = good.replacen("thread_id: 2", "thread_id: 1", 1);
    assert!(check(&other_thread).is_err());
    // The access at another line.
    let moved = good.replacen("line: 14", "line: 13", 1);
    assert!(check(&moved).is_err());
    // Another program's hash.
    let hash = witness::sha256_hex(&std::fs::read(&program).expect("read"));
    let other_hash = good.replace(&hash, &"0".repeat(64));
    assert!(check(&other_hash).is_err());
    // Without the creation of thread 2: the waypoints name no such thread.
    let start = good.find("    - segment:").expect("a segment");
    let next = start
        + 1
        + good[start + 1..]
            .find("    - segment:")
            .expect("two segments");
    let second = next
        + 1
        + good[next + 1..]
            .find("    - segment:")
            .expect("three segments");
    let uncreated = format!("{}{}", &good[..next], &good[second..]);
    assert!(check(&uncreated).is_err());
}

#[test]
fn nondet_assumption_is_standard() {
    let dir = tempdir("nondet");
    let program = root().join("tests-c/programs/nondet_specific_value_unsafe.c");
    let w = dir.join("w.graphml");
    let (code, _, _) = ase(&[
        "check",
        "--witness",
        w.to_str().expect("utf-8"),
        program.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, Some(1));
    let text = std::fs::read_to_string(&w).expect("witness");
    let parsed = witness::graphml::parse(&text).expect("parses");
    let e = parsed
        .edges
        .iter()
        .find(|e| e.data.contains_key("assumption"))
        .expect("an assumption edge");
    assert_eq!(e.data["assumption"], "\\result == 42;");
    assert_eq!(e.data["assumption.resultfunction"], "__VERIFIER_nondet_int");
    assert_eq!(parsed.graph["architecture"], "32bit");
    assert_eq!(parsed.graph["sourcecodelang"], "C");
    // YAML 2.0 also covers this one-thread program.
    let y = dir.join("w.yml");
    let (code, _, err) = ase(&[
        "check",
        "--witness-format",
        "yaml",
        "--witness",
        y.to_str().expect("utf-8"),
        program.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, Some(1), "{err}");
    let doc: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&std::fs::read_to_string(&y).expect("yaml")).expect("parses");
    let entry = &doc[0];
    assert_eq!(entry["entry_type"].as_str(), Some("violation_sequence"));
    check_yaml_metadata(entry, &program);
    let segments = entry["content"].as_sequence().expect("segments");
    let last = &segments.last().expect("a segment")["segment"][0]["waypoint"];
    assert_eq!(last["type"].as_str(), Some("target"));
    let first = &segments[0]["segment"][0]["waypoint"];
    assert_eq!(first["type"].as_str(), Some("function_return"));
    assert_eq!(
        first["constraint"]["value"].as_str(),
        Some("\\result == 42")
    );
}

fn check_yaml_metadata(entry: &serde_yaml_ng::Value, program: &Path) {
    let m = &entry["metadata"];
    assert_eq!(m["format_version"].as_str(), Some("2.0"));
    for k in ["uuid", "creation_time"] {
        assert!(m[k].as_str().is_some_and(|s| !s.is_empty()), "{k}");
    }
    assert!(m["producer"]["name"].as_str().is_some());
    let task = &m["task"];
    let file = task["input_files"][0].as_str().expect("input file");
    let hash = task["input_file_hashes"][file].as_str().expect("hash");
    let bytes = std::fs::read(program).expect("program");
    assert_eq!(hash, witness::sha256_hex(&bytes));
    assert!(task["specification"].as_str().is_some());
    assert!(task["data_model"].as_str().is_some());
    assert_eq!(task["language"].as_str(), Some("C"));
}

#[test]
fn correctness_witnesses_and_invariants() {
    let dir = tempdir("correct");
    for file in [
        "mutex_counter_safe.c",
        "peterson_safe.c",
        "atomic_section_safe.c",
    ] {
        let program = root().join("tests-c/programs").join(file);
        let g = dir.join(format!("{file}.graphml"));
        let (code, out, err) = ase(&[
            "check",
            "--invariants",
            "--witness",
            g.to_str().expect("utf-8"),
            program.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, Some(0), "{file}: {out}{err}");
        assert!(out.contains("predicates ("), "{out}");
        assert!(out.contains("invariants (from "), "{out}");
        let w = witness::graphml::parse(&std::fs::read_to_string(&g).expect("graphml"))
            .expect("parses");
        w.check(Some(&std::fs::read(&program).expect("program")))
            .expect("well-formed");
        assert_eq!(w.graph["witness-type"], "correctness_witness");
        let y = dir.join(format!("{file}.yml"));
        let (code, _, _) = ase(&[
            "check",
            "--witness-format",
            "yaml",
            "--witness",
            y.to_str().expect("utf-8"),
            program.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, Some(0));
        let doc: serde_yaml_ng::Value =
            serde_yaml_ng::from_str(&std::fs::read_to_string(&y).expect("yaml")).expect("parses");
        let entry = &doc[0];
        assert_eq!(entry["entry_type"].as_str(), Some("invariant_set"));
        check_yaml_metadata(entry, &program);
        for inv in entry["content"].as_sequence().expect("content") {
            let i = &inv["invariant"];
            assert_eq!(i["type"].as_str(), Some("location_invariant"));
            assert!(i["location"]["line"].as_u64().is_some());
            assert!(i["value"].as_str().is_some_and(|v| !v.is_empty()));
            assert_eq!(i["format"].as_str(), Some("c_expression"));
        }
    }
}

/// A YAML correctness witness with the run-dependent metadata (creation
/// time, uuid, producer version) blanked.
fn yaml_witness(file: &str, extra: &[&str]) -> String {
    let dir = tempdir("yaml-cert");
    let y = dir.join(format!("{file}.yml"));
    let path = format!("tests-c/programs/{file}");
    let mut args = vec!["check", "--witness-format", "yaml", "--witness"];
    args.push(y.to_str().expect("utf-8"));
    args.extend_from_slice(extra);
    args.push(&path);
    let (code, out, err) = ase(&args);
    assert_eq!(code, Some(0), "{file}: {out}{err}");
    let text = std::fs::read_to_string(&y).expect("witness");
    let doc: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).expect("parses");
    check_yaml_metadata(&doc[0], &root().join(&path));
    text.lines()
        .map(|l| {
            let key = l.trim_start().split(':').next().unwrap_or("");
            if ["uuid", "creation_time", "version"].contains(&key) {
                format!("{}{key}: …\n", &l[..l.len() - l.trim_start().len()])
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

/// The location invariants of YAML correctness witnesses come from the
/// checked certificate: per C position the disjunction over the tuples of
/// thread locations at it, over global C variables. A program proved by
/// the exhaustive search (no abstract states) gets them too; without a
/// certificate (`--no-certify`) they come from the abstract states, or
/// there are none.
#[test]
fn correctness_witness_invariants_from_the_certificate() {
    // Proved by the exhaustive search (engine auto): the certificate lists
    // its states.
    insta::assert_snapshot!(
        "yaml-cert-mutex-counter",
        yaml_witness("mutex_counter_safe.c", &[])
    );
    insta::assert_snapshot!("yaml-cert-peterson", yaml_witness("peterson_safe.c", &[]));
    // Proved by ASE.
    insta::assert_snapshot!(
        "yaml-cert-peterson-ase",
        yaml_witness("peterson_safe.c", &["--engine", "ase"])
    );
    // Without a certificate: ASE is run for abstract states, and the
    // witness has the literals common to them.
    insta::assert_snapshot!(
        "yaml-no-certify-mutex-counter",
        yaml_witness("mutex_counter_safe.c", &["--no-certify"])
    );
}

#[test]
fn witness_needs_c_input() {
    let (code, _, err) = ase(&["check", "--witness", "/dev/null", "tests-gc/lost-update.gc"]);
    assert_eq!(code, Some(2), "{err}");
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ase-witness-tests-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// The unsafe tasks of `../shared/sv-benchmarks` (an `expected_verdict:
/// false` for `unreach-call`): every one `ase` answers `unsafe` within the
/// time limit gets a witness that must check and replay. Prints the counts.
#[test]
#[ignore = "long: runs the unsafe SV-COMP tasks (set ASE_WITNESS_TIMEOUT, ASE_WITNESS_FILTER)"]
fn sv_benchmarks_violation_witnesses() {
    let bench = root().join("../shared/sv-benchmarks/c");
    if !bench.is_dir() {
        eprintln!("skipped: {} is absent", bench.display());
        return;
    }
    let timeout = std::env::var("ASE_WITNESS_TIMEOUT").unwrap_or_else(|_| "20".into());
    let filter = std::env::var("ASE_WITNESS_FILTER").unwrap_or_default();
    // `yaml` checks the YAML witnesses (format 2.0, 2.2 with threads).
    let format = std::env::var("ASE_WITNESS_FORMAT").unwrap_or_else(|_| "graphml".into());
    let dir = tempdir("svcomp");
    let mut tasks = Vec::new();
    collect_yml(&bench, &mut tasks);
    tasks.sort();
    let (mut unsafe_tasks, mut solved, mut replayed) = (0, 0, 0);
    let mut failures = Vec::new();
    for task in tasks {
        if !task.to_string_lossy().contains(&filter) {
            continue;
        }
        let text = std::fs::read_to_string(&task).unwrap_or_default();
        if !unreach_call_false(&text) {
            continue;
        }
        unsafe_tasks += 1;
        let w = dir.join(format!("w{unsafe_tasks}.{format}"));
        let (code, out, _) = ase(&[
            "check",
            "--timeout",
            &timeout,
            "--witness-format",
            &format,
            "--witness",
            w.to_str().expect("utf-8"),
            task.to_str().expect("utf-8"),
        ]);
        if code != Some(1) {
            continue;
        }
        solved += 1;
        if !w.exists() {
            failures.push(format!("{}: no witness written", task.display()));
            continue;
        }
        let program = task
            .parent()
            .expect("dir")
            .join(input_file(&text).expect("input_files"));
        let model = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("data_model:").map(str::trim));
        let result = std::panic::catch_unwind(|| check_violation(&program, &w, model));
        match result {
            Ok(()) => replayed += 1,
            Err(_) => failures.push(format!(
                "{}: {}",
                task.display(),
                out.lines().next().unwrap_or("")
            )),
        }
    }
    eprintln!(
        "sv-benchmarks: {unsafe_tasks} unsafe tasks, {solved} answered unsafe within {timeout} s, {replayed} witnesses checked and replayed"
    );
    assert!(failures.is_empty(), "witnesses that fail: {failures:#?}");
}

fn collect_yml(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_yml(&p, out);
        } else if p.extension().is_some_and(|e| e == "yml") {
            out.push(p);
        }
    }
}

fn unreach_call_false(yml: &str) -> bool {
    let mut in_unreach = false;
    for l in yml.lines() {
        let t = l.trim();
        if t.starts_with("- property_file:") {
            in_unreach = t.contains("unreach-call.prp");
        } else if in_unreach && t.starts_with("expected_verdict:") {
            return t.ends_with("false");
        }
    }
    false
}

fn input_file(yml: &str) -> Option<String> {
    let mut lines = yml.lines();
    while let Some(l) = lines.next() {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("input_files:") {
            let rest = rest.trim().trim_matches(|c| c == '\'' || c == '"');
            if !rest.is_empty() && !rest.starts_with('[') {
                return Some(rest.to_string());
            }
            if let Some(inner) = rest.strip_prefix('[') {
                return inner.split(',').next().map(|s| {
                    s.trim()
                        .trim_matches(|c| c == '\'' || c == '"' || c == ']')
                        .to_string()
                });
            }
            return lines.next().map(|n| {
                n.trim()
                    .trim_start_matches('-')
                    .trim()
                    .trim_matches(|c| c == '\'' || c == '"')
                    .to_string()
            });
        }
    }
    None
}
