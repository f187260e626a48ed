//! End-to-end tests of the pipeline on the C programs of `tests-c/programs/`,
//! in process (the command line itself is tested in `cli.rs`).
//!
//! Each program's first line is `// expect: safe|unsafe|unknown`: the
//! verdict of the check with the options of its `// args:` line
//! (`--no-races` or `--races`: what the expectation is about;
//! `--concurrent` and `--init`: a library checked through its harness),
//! within 120 s or the seconds of its `// timeout:` line (a program whose
//! proof takes long, so that a slow build still decides it). Every program
//! must get exactly that verdict, except those listed in
//! `tests-c/known-unknown.txt` (programs the verifier cannot decide yet,
//! with the reason): they may answer `unknown` but never the opposite of
//! their expectation. The verdict lines of all programs are snapshotted
//! (`snapshots/c_programs__verdicts.snap`); every safe verdict is certified
//! and its certificate checked again as `ase certify` does; and every
//! program that lowers is printed as `.gc` and must parse back.
//!
//! The tests run side by side, but at most two programs are checked at any
//! moment by all of them together ([`in_slot`]): a program's time limit is
//! then about its own work, not about how many others share the cores.

mod common;

use common::root;

use engine::verdict::Verdict;
use pipeline::{CInput, Options};
use std::path::PathBuf;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

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

fn path(file: &str) -> PathBuf {
    root().join("tests-c/programs").join(file)
}

/// The comment header of a program: its `// key:` lines.
fn header(file: &str, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(path(file)).expect("read");
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.strip_prefix(&format!("// {key}:")))
        .map(|v| v.trim().to_string())
}

fn expectation(file: &str) -> String {
    header(file, "expect").unwrap_or_else(|| panic!("{file} has no `// expect:` line"))
}

/// The program's options from its `// args:` line: `--no-races` for a
/// program about assertions, `--races` for one about data races,
/// `--no-memsafety`, `--no-deadlocks`, `--no-thread-safety`, `--overflow`,
/// `--memtrack`, `--no-heap-tails`, `--concurrent push:2,pop` and `--init
/// reset` for a library, `--extern-calls MODE`, `--spec FILE` (beside the
/// program); `--property NAME` is
/// [`program_property`],
/// `--engine` and `--backend` [`program_engines`].
fn program_input(file: &str) -> CInput {
    let mut input = CInput::default();
    let args = header(file, "args").unwrap_or_default();
    let mut words = args.split_whitespace();
    while let Some(word) = words.next() {
        let mut value = || words.next().expect("a value after the option");
        match word {
            "--races" => {
                input.lowering.checks.assertions = false;
                input.lowering.checks.memsafety = false;
                input.lowering.checks.deadlocks = false;
                input.lowering.checks.thread_safety = false;
            }
            "--no-races" => input.lowering.checks.races = false,
            "--no-thread-safety" => input.lowering.checks.thread_safety = false,
            "--no-deadlocks" => input.lowering.checks.deadlocks = false,
            "--no-memsafety" => input.lowering.checks.memsafety = false,
            "--overflow" => input.lowering.checks.overflow = true,
            "--memtrack" => input.lowering.checks.memtrack = true,
            "--no-heap-tails" => input.lowering.tails = false,
            "--property" | "--engine" | "--backend" => {
                value();
            }
            "--concurrent" => input
                .concurrent
                .extend(lowering::harness::Concurrent::parse_list(value()).expect("--concurrent")),
            "--init" => input.init = Some(value().to_string()),
            "--spec" => {
                let text = std::fs::read_to_string(path(value())).expect("the specification");
                input.lowering.spec = Some(lowering::spec::Spec::parse(&text).expect("--spec"));
            }
            "--fini" => input.fini = Some(value().to_string()),
            "--extern-calls" => {
                input.lowering.extern_calls = match value() {
                    "give-up" => lowering::ExternCalls::GiveUp,
                    "pure" => lowering::ExternCalls::Pure,
                    "havoc" => lowering::ExternCalls::Havoc,
                    other => panic!("{file}: `--extern-calls {other}` is not known to the test"),
                }
            }
            other => panic!("{file}: option `{other}` of `// args:` is not known to the test"),
        }
    }
    input
}

/// The SV-COMP property a program is checked for (`--property NAME` of its
/// `// args:` line).
fn program_property(file: &str) -> Option<PathBuf> {
    let args = header(file, "args").unwrap_or_default();
    let mut words = args.split_whitespace();
    words.find(|w| *w == "--property")?;
    Some(PathBuf::from(words.next().expect("a property name")))
}

/// The engine a program is checked with (`--engine NAME` of its `// args:`
/// line, else `auto`) and the back-end of CEGPV (`--backend NAME`).
fn program_engines(file: &str) -> (pipeline::Engine, pipeline::Engine) {
    let args = header(file, "args").unwrap_or_default();
    let named = |option: &str| {
        let mut words = args.split_whitespace();
        words.find(|w| *w == option)?;
        Some(match words.next().expect("an engine name") {
            "auto" => pipeline::Engine::Auto,
            "ase" => pipeline::Engine::Ase,
            "explicit" => pipeline::Engine::Explicit,
            "bmc" => pipeline::Engine::Bmc,
            "infer" => pipeline::Engine::Infer,
            "cegpv" => pipeline::Engine::Cegpv,
            "magic" => pipeline::Engine::Magic,
            other => panic!("{file}: engine `{other}` is not known to the test"),
        })
    };
    (
        named("--engine").unwrap_or(pipeline::Engine::Auto),
        named("--backend").unwrap_or(pipeline::Engine::Auto),
    )
}

/// The job of checking a program as its header says.
fn program_job(file: &str, reduce: bool) -> pipeline::task::Job {
    let mut input = program_input(file);
    input.lowering.reduce = reduce;
    pipeline::task::resolve(&path(file), program_property(file).as_deref(), &input).expect("a job")
}

/// The seconds of a program's `// timeout:` line, else 120.
fn program_timeout(file: &str) -> u64 {
    header(file, "timeout").map_or(120, |t| t.parse().expect("// timeout: seconds"))
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

/// How a program is checked.
#[derive(Clone, Copy)]
struct Run {
    /// Seconds.
    timeout: u64,
    /// Engines at the same time.
    jobs: usize,
    /// Whether the lowered program is reduced.
    reduce: bool,
    /// Whether a safe verdict is certified, and its certificate checked
    /// again (the main test; the differential tests compare verdicts).
    certify: bool,
}

/// The verdict line of a check (as `ase check` prints it first, without
/// the steps of a trace). With `run.certify`, every safe verdict must be
/// certified, and its certificate must check again against the program
/// lowered anew, as `ase certify` checks it.
fn verdict(file: &str, run: Run) -> String {
    verdict_of(file, program_job(file, run.reduce), run)
}

/// The verdict on a program's job.
fn verdict_of(file: &str, job: pipeline::task::Job, run: Run) -> String {
    verdict_of_with(file, job, run, None)
}

/// The verdict on a program's job, by `engine` when given (else the
/// program's own).
fn verdict_of_with(
    file: &str,
    job: pipeline::task::Job,
    run: Run,
    engine: Option<pipeline::Engine>,
) -> String {
    let input = job.input.clone();
    let mut options = Options::default();
    options.budget.timeout = Some(Duration::from_secs(run.timeout));
    options.engines.jobs = run.jobs;
    (options.engine, options.engines.backend) = program_engines(file);
    if let Some(e) = engine {
        options.engine = e;
    }
    options.certify = run.certify;
    let checked = match pipeline::check_c(&job, &options, Instant::now()) {
        Ok(checked) => checked,
        Err(e) if e.is_invalid() => panic!("{file}: invalid: {e}"),
        Err(e) => return format!("unknown: not modelled: {e}"),
    };
    let report = &checked.report;
    match &report.outcome.verdict {
        Verdict::Safe(proof) => {
            if run.certify {
                recertify(file, &input, report, run.timeout);
            }
            format!("safe (proved by the {})", proof.describe())
        }
        Verdict::Unsafe(_) => "unsafe".into(),
        Verdict::Unknown(why) => format!("unknown: {}", why.detail),
    }
}

/// Checks the certificate of a safe verdict again, from its text, against
/// the program lowered anew (or the counter system the certificate names,
/// made again from it). With the short timeouts of the differential
/// test, the certificate check may run out of time (the verdict then
/// stands, uncertified); any other reason is a failure.
fn recertify(file: &str, input: &CInput, report: &pipeline::Report, timeout: u64) {
    let certified = report
        .certified
        .as_ref()
        .unwrap_or_else(|| panic!("{file}: safe without a certification"));
    let c = &certified.certification;
    if !c.certified() {
        let out_of_time = c.reason().is_some_and(|r| r.contains("time"));
        assert!(timeout < 60 && out_of_time, "{file}: not certified: {c:?}");
        return;
    }
    let certificate = c.certificate.as_ref().expect("a certified certificate");
    let text = engine::certify::text::print(&certified.program, certificate);
    // The certificate names its program (a counter system by its
    // parameters): made again, it is the same program.
    let program = pipeline::certify::c_subject(&path(file), input, &text)
        .expect("lowers again")
        .unwrap_or_else(|e| panic!("{file}: the certificate's program: {e}"));
    let parsed = engine::certify::text::parse(&program, &text)
        .unwrap_or_else(|e| panic!("{file}: certificate does not parse: {e:?}"));
    assert_eq!(
        parsed.program.fingerprint,
        engine::certify::fingerprint(&program),
        "{file}: the certificate's program is made again differently"
    );
    let again = engine::certify::check::check(&program, &parsed, Some(Duration::from_secs(120)));
    assert!(
        again.result.is_ok(),
        "{file}: the certificate does not check again: {:?}",
        again.result
    );
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
            3
        } else {
            program_timeout(f)
        };
        let run = Run {
            timeout,
            jobs: 1,
            reduce: true,
            certify: true,
        };
        verdict(f, run)
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

/// Runs `f` on every program, in slots (each on a thread with the
/// stack of a main thread), and returns the results sorted by file.
fn for_all_programs(f: impl Fn(&String) -> String + Sync) -> Vec<(String, String)> {
    for_each_of(programs(), f)
}

/// How many programs are checked at once by all the tests of this binary
/// together: the tests run side by side, and each program's time limit
/// means something only when it has a core (the machine's two).
const SLOTS: usize = 2;

/// The slots in use (of [`SLOTS`]), and the signal that one was freed.
static IN_USE: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// Runs `f` in a slot: waits until fewer than [`SLOTS`] programs are
/// being checked by any test.
fn in_slot<T>(f: impl FnOnce() -> T) -> T {
    let (count, freed) = &IN_USE;
    {
        let mut n = count.lock().expect("lock");
        while *n >= SLOTS {
            n = freed.wait(n).expect("lock");
        }
        *n += 1;
    }
    // Freed when `f` returns or panics.
    struct Release;
    impl Drop for Release {
        fn drop(&mut self) {
            let (count, freed) = &IN_USE;
            *count.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
            freed.notify_one();
        }
    }
    let _release = Release;
    f()
}

/// `f` of each file, each in a slot ([`SLOTS`] workers, so that one test
/// alone still fills the slots); sorted by file.
fn for_each_of(files: Vec<String>, f: impl Fn(&String) -> String + Sync) -> Vec<(String, String)> {
    let results = Mutex::new(Vec::new());
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..SLOTS {
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(s, || loop {
                    let i = {
                        let mut n = next.lock().expect("lock");
                        *n += 1;
                        *n - 1
                    };
                    let Some(file) = files.get(i) else { break };
                    let v = in_slot(|| f(file));
                    results.lock().expect("lock").push((file.clone(), v));
                })
                .expect("a worker thread");
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort();
    results
}

/// MAGIC against the expected verdicts: on every program it applies to
/// (its threads share only variables of constant values), checked with
/// `--engine magic` and the program's other options, it never answers
/// `safe` where a bug is expected or `unsafe` where none is. (Its own
/// programs, `spec_*` and `magic_*`, expect its answers.)
#[test]
fn magic_never_contradicts_the_expected_verdicts() {
    let files: Vec<String> = programs()
        .into_iter()
        .filter(|f| {
            let job = program_job(f, true);
            pipeline::input::load(&job.program, &job.input)
                .is_ok_and(|(_, lowered)| engine::magic::applies(&lowered.program).is_ok())
        })
        .collect();
    let results = for_each_of(files, |file| {
        let job = program_job(file, true);
        let run = Run {
            timeout: 5,
            jobs: 1,
            reduce: true,
            certify: false,
        };
        let v = verdict_of_with(file, job, run, Some(pipeline::Engine::Magic));
        let truth = match expectation(file).as_str() {
            "unknown" => header(file, "true verdict").unwrap_or_default(),
            e => e.to_string(),
        };
        format!("{truth} {v}")
    });
    let wrong: Vec<String> = results
        .iter()
        .filter(|(_, r)| r.starts_with("safe unsafe") || r.starts_with("unsafe safe"))
        .map(|(f, r)| format!("{f}: {r}"))
        .collect();
    let decided = results
        .iter()
        .filter(|(_, r)| {
            !r.split_whitespace()
                .nth(1)
                .is_some_and(|v| v.starts_with("unknown"))
        })
        .count();
    eprintln!(
        "MAGIC applies to {} programs, decides {decided}",
        results.len()
    );
    assert!(decided > 0, "MAGIC decided no program");
    assert!(wrong.is_empty(), "MAGIC contradicts:\n{}", wrong.join("\n"));
}

/// The differential test of the reduction on every program: the
/// fine-grained model (no reduction) and the reduced one checked with both
/// engines side by side (two jobs) never contradict each other or the
/// expectation.
#[test]
fn reduction_and_parallel_engines_keep_verdicts() {
    let results = for_all_programs(|f| {
        let fine = Run {
            timeout: 2,
            jobs: 1,
            reduce: false,
            certify: false,
        };
        let parallel = Run {
            timeout: 3,
            jobs: 2,
            reduce: true,
            certify: false,
        };
        format!("{}|{}", verdict(f, fine), verdict(f, parallel))
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
                "{f}: without the reduction {fine}, reduced {parallel}"
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
    // Most programs are decided both ways (a floor, so that a test in
    // which everything ends unknown fails).
    for (n, how) in decided.iter().zip(["without reduction", "reduced"]) {
        assert!(
            n * 100 >= results.len() * 80,
            "only {n} of {} programs decided {how}",
            results.len()
        );
    }
}

/// The verdicts of `files` by default and with the lowering changed by
/// `alter` (5 s each): the programs where they differ (both deciding), and
/// how many both decide. `what`: the files, for the printed summary.
fn compare_models(
    files: Vec<String>,
    alter: fn(&mut lowering::Options),
    what: &str,
) -> (Vec<String>, usize) {
    let run = Run {
        timeout: 5,
        jobs: 1,
        reduce: true,
        certify: false,
    };
    let word = |v: &str| v.split([':', ' ']).next().unwrap_or("").to_string();
    let n = files.len();
    let results = for_each_of(files, |f| {
        let mut altered = program_job(f, true);
        alter(&mut altered.input.lowering);
        format!(
            "{}|{}",
            word(&verdict(f, run)),
            word(&verdict_of(f, altered, run))
        )
    });
    let mut failures = Vec::new();
    let mut compared = 0;
    for (f, v) in &results {
        let (default, altered) = v.split_once('|').expect("two verdicts");
        if default != "unknown" && altered != "unknown" {
            compared += 1;
            if default != altered {
                failures.push(format!("{f}: {default} by default, {altered} altered"));
            }
        }
    }
    println!("{n} programs {what}, {compared} decided both ways");
    (failures, compared)
}

/// Arrays of thread handles (SOUNDNESS.md, "Arrays of thread handles")
/// against the same arrays lowered like any other (one variable per
/// element, exact): the programs that store thread handles in arrays get
/// the same verdict both ways, where both decide.
#[test]
fn handle_arrays_keep_verdicts() {
    let stores_in_array = |f: &str| {
        let text = std::fs::read_to_string(path(f)).expect("a program");
        let squeezed: String = text.split_whitespace().collect();
        squeezed.contains("_create(&") && squeezed.contains("_join(") && squeezed.contains("[")
    };
    let files = programs().into_iter().filter(|f| stores_in_array(f));
    let (failures, compared) = compare_models(
        files.collect(),
        |o| o.handle_arrays = false,
        "store thread handles in arrays",
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 8, "only {compared} programs decided both ways");
}

/// Global arrays as tails (SOUNDNESS.md, "Heap arrays of run-time
/// length": by default those too large for a variable per element) against
/// the exact model: the programs with global arrays, their arrays of more
/// than 2 elements tails, get the same verdict both ways where both
/// decide.
#[test]
fn global_tails_keep_verdicts() {
    let global_array = |f: &str| {
        let text = std::fs::read_to_string(path(f)).expect("a program");
        text.lines().any(|l| {
            let global =
                l.starts_with("int ") || l.starts_with("unsigned ") || l.starts_with("long ");
            global && l.contains('[') && l.ends_with("];") && !l.contains('=') && !l.contains('(')
        })
    };
    let files = programs().into_iter().filter(|f| global_array(f));
    let (failures, compared) = compare_models(
        files.collect(),
        |o| o.tail_globals_above = 2,
        "have global arrays",
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 8, "only {compared} programs decided both ways");
}

#[test]
fn lowered_programs_parse_back() {
    for f in programs() {
        match pipeline::input::load(&path(&f), &program_job(&f, true).input) {
            Ok((_, lowered)) => {
                let text = engine::print::print_program(&lowered.program);
                if let Err(errors) = engine::parse::parse_program(&text) {
                    panic!(
                        "{f}: the lowered program does not parse: {:?}",
                        errors.first()
                    );
                }
            }
            Err(e) if e.is_invalid() => panic!("{f}: invalid: {e}"),
            Err(_) => assert!(
                expectation(&f) == "unknown" || known_unknown().contains(&f),
                "{f}: lowering refused a program expected to be decided"
            ),
        }
    }
}

/// An unsafe verdict of the reduced model comes with its trace replayed on
/// the program lowered without the reduction: as long as the reduced trace
/// or longer, since each reduced step is one or more fine-grained ones; and
/// without the reduction there is nothing to replay.
#[test]
fn unsafe_traces_replay_without_the_reduction() {
    for file in [
        "mutex_tally_loop_unsafe.c",
        "race_rare_interleaving_unsafe.c",
    ] {
        let run = |reduce: bool| {
            let job = program_job(file, reduce);
            let mut options = Options::default();
            options.budget.timeout = Some(Duration::from_secs(60));
            options.engines.jobs = 1;
            in_slot(|| pipeline::check_c(&job, &options, Instant::now()).expect("loads"))
        };
        let reduced = run(true).report;
        let Verdict::Unsafe(trace) = &reduced.outcome.verdict else {
            panic!("{file}: {:?}", reduced.outcome.verdict);
        };
        let unreduced = reduced
            .unreduced_steps
            .unwrap_or_else(|| panic!("{file}: no replay without the reduction"));
        assert!(
            unreduced >= trace.steps.len(),
            "{file}: {unreduced} unreduced steps for {} reduced ones",
            trace.steps.len()
        );
        let fine = run(false).report;
        assert!(
            matches!(fine.outcome.verdict, Verdict::Unsafe(_)),
            "{file}: {:?}",
            fine.outcome.verdict
        );
        assert_eq!(fine.unreduced_steps, None, "{file}");
    }
}
