//! Bounded model checking (`engine::bmc`): the encoding on small `.gc`
//! programs (shortest traces at the exact depth, guards, inputs, initial
//! constraints, location guards, the target, never `safe`, replayed
//! traces), and a differential test against the bounded explicit search on
//! the random program generator.

use engine::bmc::{self, Bounds, Config};
use engine::explicit;
use engine::generate::{random_program, GenConfig};
use engine::ir::{Cond, Program};
use engine::parse::parse_program;
use engine::print::print_program;
use engine::verdict::{Limit, Outcome, Trace, UnknownKind, Verdict};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn program(src: &str) -> Program {
    parse_program(src).unwrap_or_else(|e| panic!("{e:?}"))
}

fn config(max_depth: usize) -> Config {
    Config {
        bounds: Bounds { max_depth },
        deadline: Some(Instant::now() + Duration::from_secs(60)),
        ..Config::default()
    }
}

fn run(p: &Program, max_depth: usize) -> Outcome {
    bmc::check(p, &config(max_depth))
}

/// The trace of an unsafe outcome, checked to replay.
fn trace(p: &Program, o: &Outcome) -> Trace {
    match &o.verdict {
        Verdict::Unsafe(t) => {
            t.replay(p).expect("the trace replays");
            t.clone()
        }
        v => panic!("expected unsafe, got {v:?}"),
    }
}

fn unknown(o: &Outcome) -> &str {
    match &o.verdict {
        Verdict::Unknown(why) => &why.detail,
        v => panic!("expected unknown, got {v:?}"),
    }
}

fn labels(p: &Program, t: &Trace) -> Vec<String> {
    t.steps
        .iter()
        .map(|s| p.transition(s.transition).label.clone())
        .collect()
}

#[test]
fn finds_the_error_at_the_minimal_depth() {
    // The error needs three steps of p; q only wastes time.
    let p = program(
        "var x = 0, y = 0;
         thread p at 0 { a: 0 -> 1 do x := x + 1; b: 1 -> 2 do x := x + 1; c: 2 -> 0 do x := x + 1; }
         thread q at 0 { d: 0 -> 0 do y := y + 1; }
         error x == 3;",
    );
    let o = run(&p, 20);
    let t = trace(&p, &o);
    assert_eq!(labels(&p, &t), ["a", "b", "c"]);
    // A bound one short finds nothing, and says so.
    let o = run(&p, 2);
    assert_eq!(unknown(&o), "no error within 2 steps (the depth limit)");
}

#[test]
fn an_initial_error_is_depth_zero() {
    let p = program("var x; init x > 5; thread p at 0 { 0 -> 0; } error x == 7;");
    let t = trace(&p, &run(&p, 5));
    assert!(t.steps.is_empty());
    assert_eq!(t.initial.vals, [7]);
}

#[test]
fn guards_block() {
    // The guard never holds: x stays 0.
    let p = program(
        "var x = 0; thread p at a { a -> b when x > 0 do x := 5; b -> a do x := 0; } error x == 5;",
    );
    let why = unknown(&run(&p, 10)).to_string();
    assert!(why.contains("every execution ends within 0 steps"), "{why}");
    // A loop that runs forever: the depth limit.
    let p = program(
        "var x = 0; thread p at a { a -> a when x < 3 do x := x + 1; a -> a when x >= 3 do x := 0; } error x == 4;",
    );
    assert_eq!(
        unknown(&run(&p, 12)),
        "no error within 12 steps (the depth limit)"
    );
}

#[test]
fn inputs_take_the_values_the_bug_needs() {
    // A value far outside any sampled range, in a window of 5.
    let p = program(
        "var x = 0, y = 0;
         thread p at 0 { 0 -> 1 do x := *; 1 -> 2 when x >= 1000000000 && x <= 1000000005 do y := 3 * x; }
         error y == 3000000009;",
    );
    let t = trace(&p, &run(&p, 10));
    assert_eq!(t.steps.len(), 2);
    assert_eq!(t.steps[0].inputs[0].1, 1_000_000_003);
}

#[test]
fn two_threads_pass_a_check_with_large_amounts() {
    // The bank account: each thread checks `a <= bal` and subtracts later;
    // amounts must be at least a million, the balance is 1.5 million.
    let p = program(
        "var bal = 1500000, a1 = 0, a2 = 0, t1 = 0, t2 = 0;
         thread w1 at 0 {
           0 -> 1 do a1 := *;
           1 -> 2 when a1 >= 1000000 && a1 <= bal;
           1 -> 9 when a1 < 1000000 || a1 > bal;
           2 -> 3 do t1 := bal;
           3 -> 9 do bal := t1 - a1;
         }
         thread w2 at 0 {
           0 -> 1 do a2 := *;
           1 -> 2 when a2 >= 1000000 && a2 <= bal;
           1 -> 9 when a2 < 1000000 || a2 > bal;
           2 -> 3 do t2 := bal;
           3 -> 9 do bal := t2 - a2;
         }
         error bal < 0;",
    );
    let t = trace(&p, &run(&p, 20));
    assert_eq!(t.steps.len(), 8);
    let inputs: Vec<i128> = t
        .steps
        .iter()
        .flat_map(|s| s.inputs.iter().map(|i| i.1))
        .collect();
    assert!(inputs.iter().all(|&a| a >= 1_000_000), "{inputs:?}");
    // The explicit search with its default bound does not find it.
    let e = explicit::check(
        &p,
        &explicit::Bounds {
            bound: 10,
            max_states: 100_000,
            partial_order: false,
        },
        None,
    );
    assert!(matches!(e.verdict, Verdict::Unknown(_)));
}

#[test]
fn initial_constraints_and_location_guards() {
    let p = program(
        "var x, y = 0;
         init x > 100 && x < 200;
         thread p at 0 { 0 -> 1 when q@1 && x >= 150 do y := x; }
         thread q at 0 { 0 -> 1; 1 -> 0; }
         error p@1 && y != 0 && y < 151;",
    );
    let t = trace(&p, &run(&p, 10));
    assert_eq!(t.initial.vals[0], 150);
    assert_eq!(t.steps.len(), 2);
}

#[test]
fn order_of_threads_in_a_shortest_trace() {
    // The error needs r, then q, then p (descending thread order), each
    // reading what the one before wrote: the partial-order reduction must
    // keep such traces.
    let p = program(
        "var a = 0, b = 0, c = 0;
         thread p at 0 { 0 -> 1 when b == 1 do c := 1; }
         thread q at 0 { 0 -> 1 when a == 1 do b := 1; }
         thread r at 0 { 0 -> 1 do a := 1; }
         error c == 1;",
    );
    let t = trace(&p, &run(&p, 10));
    assert_eq!(labels(&p, &t), ["r.1", "q.1", "p.1"]);
    // Independent steps in any order: still the shortest depth.
    let p = program(
        "var a = 0, b = 0, c = 0;
         thread p at 0 { 0 -> 1 do c := 1; }
         thread q at 0 { 0 -> 1 do b := 1; }
         thread r at 0 { 0 -> 1 do a := 1; }
         error a + b + c == 3 && r@1;",
    );
    assert_eq!(trace(&p, &run(&p, 10)).steps.len(), 3);
}

#[test]
fn the_target_excludes_give_up_states() {
    // `giveup` is reachable in one step, the real error in three.
    let p = program(
        "var x = 0;
         thread p at 0 { 0 -> giveup when x == 0; 0 -> 1 do x := 1; 1 -> 2; 2 -> err; }
         error p@giveup;
         error p@err;",
    );
    let t = trace(&p, &run(&p, 10));
    assert_eq!(t.steps.len(), 1);
    let err = p
        .thread(engine::ir::ThreadId(0))
        .locs
        .iter()
        .position(|l| l == "err");
    let target = Cond::At(
        engine::ir::ThreadId(0),
        engine::ir::LocId::new(err.expect("err")),
    );
    let o = bmc::check(
        &p,
        &Config {
            target: Some(target.clone()),
            ..config(10)
        },
    );
    let t = trace(&p, &o);
    assert_eq!(labels(&p, &t), ["p.2", "p.3", "p.4"]);
    // Only a give-up state is reachable: nothing to report.
    let p = program(
        "var x = 0; thread p at 0 { 0 -> giveup; 0 -> 1; 5 -> err when x == 1; } error p@giveup; error p@err;",
    );
    let err = p
        .thread(engine::ir::ThreadId(0))
        .locs
        .iter()
        .position(|l| l == "err");
    let target = Cond::At(
        engine::ir::ThreadId(0),
        engine::ir::LocId::new(err.expect("err")),
    );
    let o = bmc::check(
        &p,
        &Config {
            target: Some(target),
            ..config(10)
        },
    );
    unknown(&o);
}

#[test]
fn never_safe() {
    // Safe programs: loop-free (every execution ends) and looping.
    for src in [
        "var x = 0; thread p at 0 { 0 -> 1 do x := x + 1; } thread q at 0 { 0 -> 1 do x := x + 2; } error x > 3;",
        "var x = 0; thread p at 0 { 0 -> 0 when x < 5 do x := x + 1; } error x > 5;",
        "var x; thread p at 0 { 0 -> 0 do x := *; } error x != x;",
        "var x = 0; thread p at 0 { } error x == 1;",
    ] {
        let p = program(src);
        let o = run(&p, 15);
        assert!(matches!(o.verdict, Verdict::Unknown(_)), "{src}: {:?}", o.verdict);
    }
}

#[test]
fn cancelled_and_late_runs_are_unknown() {
    let p = program("var x = 0; thread p at 0 { 0 -> 0 do x := x + 1; } error x == 30;");
    static CANCEL: AtomicBool = AtomicBool::new(true);
    let o = bmc::check(
        &p,
        &Config {
            cancel: Some(&CANCEL),
            ..config(100)
        },
    );
    assert!(unknown(&o).starts_with("cancelled"), "{:?}", o.verdict);
    let o = bmc::check(
        &p,
        &Config {
            deadline: Some(Instant::now()),
            ..config(100)
        },
    );
    assert!(
        unknown(&o).starts_with("time limit reached"),
        "{:?}",
        o.verdict
    );
}

// ----- differential ------------------------------------------------------

/// Programs of the differential test (`ASE_BMC_DIFF_N` overrides; the
/// seeds start at `ASE_BMC_DIFF_SEED`, default 7,000).
const PROGRAMS: u64 = 400;
/// The explicit search's value bound.
const BOUND: i64 = 6;
/// The depth BMC searches when the explicit search found no error.
const DEPTH: usize = 8;

/// Whether every value of the trace (initial, inputs, states) lies in
/// `[-b, b]`.
fn within(t: &Trace, b: i64) -> bool {
    let ok = |v: &i128| v.abs() <= b as i128;
    t.initial.vals.iter().all(ok)
        && t.steps
            .iter()
            .all(|s| s.state.vals.iter().all(ok) && s.inputs.iter().all(|(_, v)| ok(v)))
}

/// On random programs: every BMC trace replays; when the bounded explicit
/// search finds a shortest error trace of `L` steps, BMC with bound `L`
/// finds one of at most `L` steps (exactly `L` when BMC's trace stays
/// within the explicit search's bound); BMC never answers `safe`.
#[test]
fn differential_against_the_explicit_search() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (n, base) = (
        env("ASE_BMC_DIFF_N", PROGRAMS),
        env("ASE_BMC_DIFF_SEED", 7_000),
    );
    let mut failures = Vec::new();
    let (mut unsafe_both, mut bmc_only, mut timeouts) = (0, 0, 0);
    for seed in base..base + n {
        // Every third program heavy on inputs and location guards.
        let gen = match seed % 3 {
            1 => GenConfig {
                input_percent: 40,
                max_input_transitions: 3,
                unconstrained_percent: 50,
                location_guard_percent: 20,
                ..GenConfig::default()
            },
            _ => GenConfig::default(),
        };
        let p = random_program(seed, &gen);
        let e = explicit::check(
            &p,
            &explicit::Bounds {
                bound: BOUND,
                max_states: 50_000,
                partial_order: false,
            },
            Some(Instant::now() + Duration::from_secs(20)),
        );
        let shortest = match &e.verdict {
            Verdict::Unsafe(t) => Some(t.steps.len()),
            _ => None,
        };
        let depth = shortest.unwrap_or(DEPTH);
        let cfg = Config {
            bounds: Bounds { max_depth: depth },
            deadline: Some(Instant::now() + Duration::from_secs(20)),
            ..Config::default()
        };
        let b = bmc::check(&p, &cfg);
        let fail = |what: String| format!("seed {seed}: {what}\n{}", print_program(&p));
        match (&b.verdict, shortest) {
            (Verdict::Safe(_), _) => failures.push(fail("BMC answered safe".into())),
            (Verdict::Unsafe(t), _) if t.replay(&p).is_err() => {
                failures.push(fail(format!("the trace does not replay: {t:?}")))
            }
            (Verdict::Unsafe(t), Some(l)) => {
                unsafe_both += 1;
                let k = t.steps.len();
                if k > l || (within(t, BOUND) && k != l) {
                    failures.push(fail(format!(
                        "BMC's trace has {k} steps, the explicit search's shortest {l}"
                    )));
                }
            }
            (Verdict::Unsafe(t), None) => {
                bmc_only += 1;
                // Inside the bound, the explicit search would have seen it
                // (unless it stopped at its state limit).
                if within(t, BOUND)
                    && !matches!(&e.verdict, Verdict::Unknown(w) if w.kind == UnknownKind::Budget(Limit::States))
                {
                    failures.push(fail(format!(
                        "BMC found a trace within bound {BOUND} the explicit search missed ({:?})",
                        e.verdict
                    )));
                }
            }
            (Verdict::Unknown(why), Some(l)) => {
                if why.kind == UnknownKind::Budget(Limit::Time) {
                    timeouts += 1;
                } else {
                    failures.push(fail(format!(
                        "BMC missed the explicit search's error trace of {l} steps: {why}"
                    )));
                }
            }
            (Verdict::Unknown(_), None) => {}
        }
    }
    println!(
        "{n} programs: {unsafe_both} unsafe for both, {bmc_only} found by BMC only, {timeouts} BMC timeouts"
    );
    assert!(unsafe_both > n / 10, "too few unsafe programs");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn many_transitions_are_searched_without_the_reduction() {
    // Two threads of 2,100 transitions each: more pairs than the reduction
    // relates (its constraints would grow with them), so every interleaving
    // is searched; the shortest trace is still found and replays.
    let n = 2_100;
    let steps = |v: &str| {
        (0..n)
            .map(|k| format!("0 -> 0 when {v} == {k} do {v} := {v} + 1;"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let p = program(&format!(
        "var x = 0, y = 0;
         thread p at 0 {{ {} }}
         thread q at 0 {{ {} }}
         error x == 2 && y == 1;",
        steps("x"),
        steps("y")
    ));
    let o = run(&p, 10);
    assert_eq!(trace(&p, &o).steps.len(), 3);
}
