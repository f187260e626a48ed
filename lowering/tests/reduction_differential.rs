//! Randomized differential test of the reduction (`lowering/src/reduce/`)
//! against the fine-grained lowering.
//!
//! Every program of the generator in `gen_c/` (seed = base seed + i) is
//! parsed, lowered twice — with `Options { reduce: true }` and with
//! `Options { reduce: false }` — and both IR programs are searched
//! exhaustively by [`engine::explicit::prove`]. When both searches are
//! conclusive, their verdicts must agree: both `safe`, or both `unsafe`
//! with traces that end alike (at an error location, or at a give-up
//! location — [`lowering::Lowered::trace_end`]), and the reduced model's
//! bug trace must replay on the finest model (`reduce` and `compress` off:
//! [`lowering::unreduced::replay`]). When both are unsafe but
//! the shortest traces end differently (a program may reach both), each
//! kind of error state is searched for on its own, and the models must not
//! disagree on either. A search that runs out of states or time is
//! counted, never a failure.
//!
//! On a disagreement the C program and both lowered programs are printed,
//! and the C file is saved under `lowering/tests/regressions/`.
//!
//! ```text
//! cargo test --release -p ase-lowering --test reduction_differential -- --nocapture
//! ASE_REDUCE_DIFF_N=20000 ASE_REDUCE_DIFF_SEED=1000000 cargo test --release \
//!     -p ase-lowering --test reduction_differential -- --ignored --nocapture
//! ```
//!
//! The default test checks [`DEFAULT_N`] programs from seed 0 (and half as
//! many for data races, lowered with `Checks { races }` both ways, and for
//! deadlocks, with `Checks { deadlocks }`); the ignored
//! long run checks `ASE_REDUCE_DIFF_N` programs (default 5,000) from
//! `ASE_REDUCE_DIFF_SEED` (default [`LONG_SEED`]), for data races instead
//! of assertions with `ASE_REDUCE_DIFF_RACES=1`, for deadlocks with
//! `ASE_REDUCE_DIFF_DEADLOCKS=1`. `ASE_REDUCE_DIFF_SHOW=1`
//! prints every program with both verdicts; `ASE_REDUCE_DIFF_KEEP=1` keeps
//! the generated C files (in `target/tmp/reduction_differential/`).

mod gen_c;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use engine::explicit::{self, Bounds};
use engine::ir::Program;
use engine::verdict::{Trace, Verdict};
use lowering::{Checks, Lowered, Options, TraceEnd};

/// Programs checked by the default test.
const DEFAULT_N: u64 = 300;
/// First seed of the long run.
const LONG_SEED: u64 = 1_000_000;
/// States one search may visit.
const MAX_STATES: u64 = 200_000;
/// Time one search may take.
const TIMEOUT: Duration = Duration::from_secs(5);

/// What one search of one lowered program said.
#[derive(Clone, Debug, PartialEq)]
enum Answer {
    Safe,
    Unsafe(TraceEnd),
    Unknown(String),
    /// The lowering refused the program.
    Refused(String),
}

impl Answer {
    fn conclusive(&self) -> bool {
        matches!(self, Answer::Safe | Answer::Unsafe(_))
    }
}

/// Searches `lowered.program`; the answer, and the trace of an unsafe one.
fn search(lowered: &Lowered) -> (Answer, Option<Trace>) {
    search_traced(lowered, &lowered.program)
}

/// Searches `program`, a variant of `lowered.program`.
fn search_program(lowered: &Lowered, program: &Program) -> Answer {
    search_traced(lowered, program).0
}

fn search_traced(lowered: &Lowered, program: &Program) -> (Answer, Option<Trace>) {
    let bounds = Bounds {
        bound: 3,
        max_states: MAX_STATES,
        partial_order: false,
    };
    let outcome = explicit::prove(program, &bounds, Some(Instant::now() + TIMEOUT));
    match outcome.verdict {
        Verdict::Safe(_) => (Answer::Safe, None),
        Verdict::Unsafe(trace) => {
            let last = trace.last_state();
            // The two models number their racing accesses differently.
            let end = match lowered.trace_end(last) {
                TraceEnd::Race(..) => TraceEnd::Race(0, 0),
                TraceEnd::Deadlock(_) => TraceEnd::Deadlock(Vec::new()),
                end => end,
            };
            (Answer::Unsafe(end), Some(trace))
        }
        Verdict::Unknown(why) => (Answer::Unknown(why.detail), None),
    }
}

/// Searches for one kind of error state only: bugs (`reach_error()`
/// locations, races: `errors`) or give-up locations (`!errors`).
fn search_kind(lowered: &Lowered, errors: bool) -> Answer {
    let bugs = lowered.errors_only().error.len();
    let mut p = lowered.program.clone();
    if errors {
        p.error.truncate(bugs);
    } else {
        p.error.drain(..bugs);
    }
    search_program(lowered, &p)
}

/// Both models are unsafe, but their shortest traces end differently:
/// both kinds of error state may be reachable. Compares the kinds one at
/// a time; a disagreement is a kind one model reaches and the other
/// provably does not.
fn kinds_disagree(reduced: &Lowered, unreduced: &Lowered) -> bool {
    [true, false].into_iter().any(|errors| {
        let a = search_kind(reduced, errors);
        let b = search_kind(unreduced, errors);
        a.conclusive() && b.conclusive() && (a == Answer::Safe) != (b == Answer::Safe)
    })
}

#[derive(Default, Debug)]
struct Counts {
    agree_safe: u64,
    agree_unsafe: u64,
    agree_give_up: u64,
    /// Both unsafe, their shortest traces ending at different kinds of
    /// error state, and no kind reached by one model and not the other.
    agree_both_kinds: u64,
    only_reduced_conclusive: u64,
    only_unreduced_conclusive: u64,
    both_unknown: u64,
    both_refused: u64,
    /// Bug traces of the reduced model replayed on the unreduced one.
    replayed: u64,
    disagreements: Vec<u64>,
}

struct Run {
    counts: Counts,
    /// Time spent in the searches of each model.
    time_reduced: Duration,
    time_unreduced: Duration,
}

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions")
}

/// Parses, lowers both ways and searches one program.
fn check_one(seed: u64, text: &str, run: &mut Run, show: bool, checks: Checks) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reduction_differential");
    std::fs::create_dir_all(&dir).expect("temp dir");
    // The assertion, race and deadlock tests run side by side: one file
    // each.
    let kind = match (checks.races, checks.deadlocks) {
        (true, _) => "races",
        (false, true) => "deadlocks",
        (false, false) => "asserts",
    };
    let path = dir.join(format!("seed_{seed}_{kind}.c"));
    std::fs::write(&path, text).expect("write program");
    let unit = frontend::parse_file(&path, &frontend::Options::default())
        .unwrap_or_else(|e| panic!("seed {seed}: the frontend rejects\n{text}\n{e}"));
    if std::env::var_os("ASE_REDUCE_DIFF_KEEP").is_none() {
        let _ = std::fs::remove_file(&path);
    }
    let lower = |reduce: bool| {
        lowering::lower_with(
            &unit,
            &Options {
                reduce,
                checks,
                ..Options::default()
            },
        )
    };
    let reduced = lower(true);
    let unreduced = lower(false);
    // The finest model (every CFG edge a step), on which bugs replay.
    let fine = || {
        lowering::lower_with(
            &unit,
            &Options {
                reduce: false,
                compress: false,
                checks,
                ..Options::default()
            },
        )
    };
    let t = Instant::now();
    let (a_red, red_trace) = match &reduced {
        Ok(l) => search(l),
        Err(e) => (Answer::Refused(e.to_string()), None),
    };
    run.time_reduced += t.elapsed();
    let t = Instant::now();
    let a_unr = match &unreduced {
        Ok(l) => search(l).0,
        Err(e) => Answer::Refused(e.to_string()),
    };
    run.time_unreduced += t.elapsed();
    if show {
        println!("seed {seed}: reduced {a_red:?}, unreduced {a_unr:?}\n{text}");
    }
    let c = &mut run.counts;
    let disagree = match (&a_red, &a_unr) {
        (Answer::Refused(a), Answer::Refused(b)) => {
            c.both_refused += 1;
            a != b
        }
        (Answer::Refused(_), _) | (_, Answer::Refused(_)) => true,
        (Answer::Unsafe(x), Answer::Unsafe(y))
            if std::mem::discriminant(x) != std::mem::discriminant(y) =>
        {
            let (Ok(r), Ok(u)) = (&reduced, &unreduced) else {
                unreachable!("both lowered")
            };
            let disagree = kinds_disagree(r, u);
            if !disagree {
                c.agree_both_kinds += 1;
            }
            disagree
        }
        (a, b) if a.conclusive() && b.conclusive() => {
            match a {
                _ if a != b => {}
                Answer::Safe => c.agree_safe += 1,
                Answer::Unsafe(TraceEnd::Error | TraceEnd::Race(..) | TraceEnd::Deadlock(_)) => {
                    c.agree_unsafe += 1
                }
                _ => c.agree_give_up += 1,
            }
            a != b
        }
        (a, _) if a.conclusive() => {
            c.only_reduced_conclusive += 1;
            false
        }
        (_, b) if b.conclusive() => {
            c.only_unreduced_conclusive += 1;
            false
        }
        _ => {
            c.both_unknown += 1;
            false
        }
    };
    // Every bug of the reduced model replays on the unreduced one.
    let replay = match (&a_red, &red_trace, &reduced) {
        (
            Answer::Unsafe(TraceEnd::Error | TraceEnd::Race(..) | TraceEnd::Deadlock(_)),
            Some(tr),
            Ok(r),
        ) => {
            let result = fine()
                .map_err(|e| e.to_string())
                .and_then(|u| lowering::unreduced::replay(r, &u, tr).map_err(|e| e.to_string()));
            if result.is_ok() {
                c.replayed += 1;
            }
            result.err()
        }
        _ => None,
    };
    if let Some(e) = &replay {
        println!("seed {seed}: the reduced trace does not replay on the unreduced program: {e}");
    }
    let disagree = disagree || replay.is_some();
    if disagree {
        c.disagreements.push(seed);
        let mut msg = String::new();
        let _ = writeln!(
            msg,
            "DISAGREEMENT seed {seed}: reduced {a_red:?}, unreduced {a_unr:?}"
        );
        let _ = writeln!(msg, "--- C program ---\n{text}");
        for (name, l) in [("reduced", &reduced), ("unreduced", &unreduced)] {
            if let Ok(l) = l {
                let _ = writeln!(
                    msg,
                    "--- {name} ---\n{}",
                    engine::print::print_program(&l.program)
                );
            }
        }
        println!("{msg}");
        let dir = regressions_dir();
        std::fs::create_dir_all(&dir).expect("regressions dir");
        let file = dir.join(format!("reduce_seed_{seed}.c"));
        let header = format!("// reduction disagreement: reduced {a_red:?}, unreduced {a_unr:?}\n");
        std::fs::write(&file, header + text).expect("save regression");
        println!("saved {}", file.display());
    }
}

fn run(first: u64, n: u64, checks: Checks) {
    let show = std::env::var("ASE_REDUCE_DIFF_SHOW").is_ok_and(|v| v == "1");
    let start = Instant::now();
    let mut run = Run {
        counts: Counts::default(),
        time_reduced: Duration::ZERO,
        time_unreduced: Duration::ZERO,
    };
    for seed in first..first + n {
        let text = gen_c::program(seed);
        check_one(seed, &text, &mut run, show, checks);
    }
    let c = &run.counts;
    println!(
        "reduction differential ({checks:?}): {n} programs from seed {first} in {:.1?} \
         (searches: reduced {:.1?}, unreduced {:.1?})\n  \
         agree-safe {}, agree-unsafe {}, agree-give-up {}, agree-both-kinds {}, \
         only-reduced-conclusive {}, only-unreduced-conclusive {}, \
         both-unknown {}, both-refused {}, replayed {}, disagreements {} {:?}",
        start.elapsed(),
        run.time_reduced,
        run.time_unreduced,
        c.agree_safe,
        c.agree_unsafe,
        c.agree_give_up,
        c.agree_both_kinds,
        c.only_reduced_conclusive,
        c.only_unreduced_conclusive,
        c.both_unknown,
        c.both_refused,
        c.replayed,
        c.disagreements.len(),
        c.disagreements,
    );
    assert!(
        c.disagreements.is_empty(),
        "the reduced and unreduced lowerings disagree on seeds {:?} (saved under {})",
        c.disagreements,
        regressions_dir().display()
    );
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn reduced_and_unreduced_lowerings_agree() {
    run(0, DEFAULT_N, Checks::default());
}

/// The same programs checked for data races: the reduction keeps racing
/// accesses apart (SOUNDNESS.md, "Data races").
#[test]
fn reduced_and_unreduced_lowerings_agree_on_races() {
    let races = Checks {
        assertions: false,
        races: true,
        ..Checks::ASSERTIONS
    };
    run(0, DEFAULT_N / 2, races);
}

/// The same programs checked for deadlocks: the reduction keeps blocking
/// calls apart (SOUNDNESS.md, "Deadlocks").
#[test]
fn reduced_and_unreduced_lowerings_agree_on_deadlocks() {
    run(0, DEFAULT_N / 2, Checks::DEADLOCKS);
}

#[test]
#[ignore = "long run: ASE_REDUCE_DIFF_N programs (default 5,000)"]
fn reduced_and_unreduced_lowerings_agree_long() {
    let races = std::env::var("ASE_REDUCE_DIFF_RACES").is_ok_and(|v| v == "1");
    let deadlocks = std::env::var("ASE_REDUCE_DIFF_DEADLOCKS").is_ok_and(|v| v == "1");
    let checks = if deadlocks {
        Checks::DEADLOCKS
    } else {
        Checks {
            assertions: !races,
            races,
            ..Checks::ASSERTIONS
        }
    };
    run(
        env_u64("ASE_REDUCE_DIFF_SEED", LONG_SEED),
        env_u64("ASE_REDUCE_DIFF_N", 5_000),
        checks,
    );
}

#[test]
fn generator_is_deterministic() {
    for seed in 0..20 {
        assert_eq!(gen_c::program(seed), gen_c::program(seed));
    }
}
