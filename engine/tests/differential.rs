//! Randomized differential testing of the checkers against each other and
//! against a bounded explicit-state search.
//!
//! Every program from [`engine::generate::random_program`] (seed =
//! base seed + i) is checked by ASE and by UR with deterministic budgets,
//! and the verdicts are cross-examined:
//!
//! - an `unsafe` trace must replay in the interpreter, and the explicit
//!   search with a bound covering the trace's values must find an error too
//!   (when it runs out of states instead, the run is counted as
//!   inconclusive, not as a failure);
//! - a `safe` program must have no error the explicit search finds at
//!   bounds 3, 6 and 10;
//! - ASE and UR never disagree (one `safe`, the other `unsafe`);
//! - no checker panics.
//!
//! On a failure the program is printed as `.gc` with its seed, shrunk
//! (transitions, assignments, guards, ... dropped while the same failure
//! persists) and printed again; save the shrunk one under
//! `engine/tests/regressions/` with a comment saying what went wrong.
//!
//! The default test checks a fixed set of programs. The long run is ignored
//! by default:
//!
//! ```text
//! cargo test --release -p ase-engine --test differential -- --ignored --nocapture
//! ASE_DIFF_PROGRAMS=20000 ASE_DIFF_SEED=7 cargo test --release -p ase-engine \
//!     --test differential -- --ignored --nocapture
//! ```
//!
//! (`ASE_DIFF_PROGRAMS` defaults to 50,000, `ASE_DIFF_SEED` to
//! [`LONG_SEED`]. The long run varies the generator's configuration with
//! the seed unless `ASE_DIFF_VARIANTS=0`. The checkers' budgets default to
//! 15 iterations, 20,000 states and a 10 s timeout, and
//! `ASE_DIFF_MAX_ITERATIONS`, `ASE_DIFF_MAX_STATES` and `ASE_DIFF_TIMEOUT`
//! (seconds) override them; `ASE_DIFF_PROBE_UNKNOWN=0` skips the explicit
//! search that only counts how many `unknown` programs are unsafe.)
//! Almost all of the long run's time goes to programs that end in a
//! limit; `ASE_DIFF_TIMEOUT=2` makes it about twice as fast.
//!
//! `ASE_DIFF_VERDICTS=FILE` (either test) writes one line per program:
//! its seed and each checker's verdict, iterations and prover queries, in
//! seed order, for comparing two versions of the checkers program by
//! program.

use engine::ase::Config;
use engine::explicit::{self, Bounds};
use engine::generate::{random_program, GenConfig};
use engine::ir::{Cond, Program, Rhs, SourceMap, Term, ThreadId, TransId, VarId};
use engine::parse::parse_program;
use engine::print::print_program;
use engine::verdict::{Outcome, Trace, Verdict};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Base seed of the fixed-seed test.
const FIXED_SEED: u64 = 1_000;
/// Programs of the fixed-seed test.
const FIXED_PROGRAMS: u64 = 2_000;
/// Default base seed of the long run.
const LONG_SEED: u64 = 0x5eed_0000;
/// Default number of programs of the long run.
const LONG_PROGRAMS: u64 = 50_000;

/// State cap of the explicit search that confirms an `unsafe` trace.
const CONFIRM_STATES: u64 = 200_000;
/// State cap of the explicit searches that look for a bug in a `safe`
/// program.
const REFUTE_STATES: u64 = 50_000;
/// Bounds of the explicit searches that look for a bug in a `safe` program
/// (largest first: when it completes, the smaller ones add nothing).
const REFUTE_BOUNDS: [i64; 3] = [10, 6, 3];
/// A safety net on every explicit search.
const EXPLICIT_TIMEOUT: Duration = Duration::from_secs(20);
/// Most failures shrunk.
const SHOWN_FAILURES: usize = 5;
/// Time limit of shrinking one failure.
const SHRINK_TIME: Duration = Duration::from_secs(120);

/// How programs are checked.
#[derive(Clone, Debug)]
struct Settings {
    /// ASE's budgets.
    config: Config,
    /// UR's budgets.
    ur_config: Config,
    /// Also search for a bug (explicitly, at bound 10) when a checker
    /// answers unknown, to count how many of those programs are unsafe.
    probe_unknown: bool,
    /// Vary the generator's configuration with the seed (see
    /// [`generator`]); else use the default one.
    variants: bool,
}

/// The generator configuration for a seed: the default one, or with
/// `variants` one of three by `seed % 3`: the default, one heavy on inputs
/// and unconstrained values, and one with larger constants, more location
/// guards and deeper bugs. Returns a label for the program's name.
fn generator(seed: u64, variants: bool) -> (&'static str, GenConfig) {
    let default = GenConfig::default();
    match seed % 3 {
        _ if !variants => ("", default),
        1 => (
            " (variant inputs)",
            GenConfig {
                input_percent: 40,
                max_input_transitions: 3,
                unconstrained_percent: 50,
                init_percent: 60,
                closed_percent: 0,
                ..default
            },
        ),
        2 => (
            " (variant arith)",
            GenConfig {
                max_const: 6,
                location_guard_percent: 15,
                shallow_error_depth: 4,
                ..default
            },
        ),
        _ => ("", default),
    }
}

/// The settings of the long run: the checkers get deterministic budgets,
/// and a generous timeout only as a safety net (a timeout gives `unknown`,
/// which is allowed). `ASE_DIFF_MAX_ITERATIONS`, `ASE_DIFF_MAX_STATES` and
/// `ASE_DIFF_TIMEOUT` (seconds) override them.
fn long_settings() -> Settings {
    let config = Config {
        timeout: Some(Duration::from_secs(env_u64("ASE_DIFF_TIMEOUT", 10))),
        max_iterations: Some(env_u64("ASE_DIFF_MAX_ITERATIONS", 15) as u32),
        max_states: Some(env_u64("ASE_DIFF_MAX_STATES", 20_000)),
        cancel: None,
    };
    Settings {
        config,
        ur_config: config,
        probe_unknown: env_u64("ASE_DIFF_PROBE_UNKNOWN", 1) != 0,
        variants: env_u64("ASE_DIFF_VARIANTS", 1) != 0,
    }
}

/// The settings of the fixed-seed test and the regressions: smaller
/// budgets, so that 2,000 programs take well under a minute in a debug
/// build. (Almost all the time goes to programs that hit a limit; the
/// smaller limits turn about 5% of ASE's `safe` answers into `unknown`.
/// UR gets fewer iterations: its predicate set grows quickly.)
fn quick_settings() -> Settings {
    Settings {
        config: Config {
            timeout: Some(Duration::from_secs(10)),
            max_iterations: Some(4),
            max_states: Some(100),
            cancel: None,
        },
        ur_config: Config {
            timeout: Some(Duration::from_secs(10)),
            max_iterations: Some(3),
            max_states: Some(100),
            cancel: None,
        },
        probe_unknown: false,
        variants: false,
    }
}

// ----- one program -------------------------------------------------------

/// Something that must not happen.
#[derive(Clone, Debug)]
struct Failure {
    /// A short tag; shrinking keeps programs that fail with the same tag.
    kind: &'static str,
    /// What happened, with the evidence.
    message: String,
}

/// What the checks of one program found (for the summary).
#[derive(Default)]
struct Report {
    ase: Option<Outcome>,
    ur: Option<Outcome>,
    /// Explicit searches run.
    explicit_runs: u64,
    /// Explicit searches that hit their state or time limit where a
    /// definite answer was wanted.
    inconclusive: u64,
    /// ASE answered unknown, and the explicit search at bound 10 found a
    /// bug.
    ase_unknown_but_unsafe: bool,
    /// Likewise for UR.
    ur_unknown_but_unsafe: bool,
    ase_time: Duration,
    ur_time: Duration,
    explicit_time: Duration,
}

/// Runs a checker, turning a panic into a failure.
fn run_checker(
    name: &'static str,
    kind: &'static str,
    f: impl FnOnce() -> Outcome,
) -> Result<(Outcome, Duration), Failure> {
    let start = Instant::now();
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(out) => Ok((out, start.elapsed())),
        Err(payload) => {
            let what = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".into());
            Err(Failure {
                kind,
                message: format!("{name} panicked: {what}"),
            })
        }
    }
}

/// The largest absolute value in a trace's states and inputs.
fn trace_magnitude(trace: &Trace) -> i128 {
    let states = std::iter::once(&trace.initial).chain(trace.steps.iter().map(|s| &s.state));
    let values = states.flat_map(|s| s.vals.iter().copied());
    let inputs = trace
        .steps
        .iter()
        .flat_map(|s| s.inputs.iter().map(|(_, x)| *x));
    values.chain(inputs).map(i128::abs).max().unwrap_or(0)
}

fn explicit_check(p: &Program, bound: i64, max_states: u64, report: &mut Report) -> Outcome {
    let out = explicit::check(
        p,
        &Bounds {
            bound,
            max_states,
            partial_order: false,
        },
        Some(Instant::now() + EXPLICIT_TIMEOUT),
    );
    report.explicit_runs += 1;
    report.explicit_time += out.stats.time;
    out
}

fn is_limit(v: &Verdict) -> bool {
    use engine::verdict::{Limit, UnknownKind};
    matches!(
        v,
        Verdict::Unknown(why)
            if matches!(why.kind, UnknownKind::Budget(Limit::States | Limit::Time))
    )
}

fn show_trace(p: &Program, t: &Trace) -> String {
    let mut s = String::new();
    let _ = write!(s, "  initial {:?}", t.initial.vals);
    for step in &t.steps {
        let _ = write!(
            s,
            "\n  {} inputs {:?} -> locs {:?} vals {:?}",
            p.transition(step.transition).label,
            step.inputs,
            step.state.locs.iter().map(|l| l.0).collect::<Vec<_>>(),
            step.state.vals
        );
    }
    s
}

/// An `unsafe` answer: the trace replays, and the explicit search within
/// the trace's values finds an error too.
fn confirm_unsafe(
    p: &Program,
    name: &str,
    trace: &Trace,
    report: &mut Report,
) -> Result<(), Failure> {
    if let Err(e) = trace.replay(p) {
        return Err(Failure {
            kind: if name == "ASE" {
                "ase-trace-does-not-replay"
            } else {
                "ur-trace-does-not-replay"
            },
            message: format!(
                "{name} answered unsafe with a trace that does not replay: {e}\n{}",
                show_trace(p, trace)
            ),
        });
    }
    let magnitude = trace_magnitude(trace);
    let Ok(bound) = i64::try_from(magnitude.max(3)) else {
        report.inconclusive += 1;
        return Ok(());
    };
    let out = explicit_check(p, bound, CONFIRM_STATES, report);
    match &out.verdict {
        Verdict::Unsafe(_) => Ok(()),
        v if is_limit(v) => {
            report.inconclusive += 1;
            Ok(())
        }
        v => Err(Failure {
            kind: if name == "ASE" {
                "explicit-misses-ase-trace"
            } else {
                "explicit-misses-ur-trace"
            },
            message: format!(
                "{name} answered unsafe with a replaying trace within bound {bound}, \
                 but the explicit search says: {v:?}\n{}",
                show_trace(p, trace)
            ),
        }),
    }
}

/// Explicit searches for a bug at bounds 10, 6 and 3 (the smaller bounds
/// only when the larger one ran out of states): a bug's trace, if any, and
/// whether some search completed without hitting a limit.
fn explicit_bug(p: &Program, report: &mut Report) -> (Option<Trace>, bool) {
    let mut complete = false;
    for bound in REFUTE_BOUNDS {
        let out = explicit_check(p, bound, REFUTE_STATES, report);
        match out.verdict {
            Verdict::Unsafe(trace) => return (Some(trace), true),
            v if is_limit(&v) => {}
            _ => {
                complete = true;
                break;
            }
        }
    }
    (None, complete)
}

/// All checks of one program.
fn check_program(p: &Program, settings: &Settings) -> (Report, Option<Failure>) {
    let mut report = Report::default();
    let failure = check_into(p, settings, &mut report).err();
    (report, failure)
}

fn check_into(p: &Program, settings: &Settings, report: &mut Report) -> Result<(), Failure> {
    let config = &settings.config;
    let (ase, t) = run_checker("ASE", "ase-panic", || engine::ase::check(p, config))?;
    report.ase_time = t;
    let (ur, t) = run_checker("UR", "ur-panic", || {
        engine::ur::check(p, &settings.ur_config)
    })?;
    report.ur_time = t;
    let (ase_v, ur_v) = (ase.verdict.clone(), ur.verdict.clone());
    report.ase = Some(ase);
    report.ur = Some(ur);

    match (&ase_v, &ur_v) {
        (Verdict::Safe(_), Verdict::Unsafe(t)) | (Verdict::Unsafe(t), Verdict::Safe(_)) => {
            let (safe, unsafe_) = if matches!(ase_v, Verdict::Safe(_)) {
                ("ASE", "UR")
            } else {
                ("UR", "ASE")
            };
            let replays = t.replay(p).map_or_else(
                |e| format!("no ({e}): {unsafe_} is wrong"),
                |()| format!("yes: {safe} is wrong"),
            );
            return Err(Failure {
                kind: "ase-ur-disagree",
                message: format!(
                    "{safe} answered safe, {unsafe_} answered unsafe (trace replays: {replays})\n{}",
                    show_trace(p, t)
                ),
            });
        }
        _ => {}
    }

    if let Verdict::Unsafe(t) = &ase_v {
        confirm_unsafe(p, "ASE", t, report)?;
    }
    if let Verdict::Unsafe(t) = &ur_v {
        confirm_unsafe(p, "UR", t, report)?;
    }

    let any_safe = matches!(ase_v, Verdict::Safe(_)) || matches!(ur_v, Verdict::Safe(_));
    let any_unknown = matches!(ase_v, Verdict::Unknown(_)) || matches!(ur_v, Verdict::Unknown(_));
    if any_safe || (settings.probe_unknown && any_unknown) {
        let (bug, complete) = explicit_bug(p, report);
        if any_safe && !complete {
            report.inconclusive += 1;
        }
        if let Some(trace) = bug {
            for (name, v) in [("ASE", &ase_v), ("UR", &ur_v)] {
                if let Verdict::Safe(proof) = v {
                    return Err(Failure {
                        kind: if name == "ASE" {
                            "ase-wrongly-safe"
                        } else {
                            "ur-wrongly-safe"
                        },
                        message: format!(
                            "{name} answered safe ({}), but the explicit search finds an error:\n{}",
                            proof.describe(),
                            show_trace(p, &trace)
                        ),
                    });
                }
            }
            report.ase_unknown_but_unsafe = matches!(ase_v, Verdict::Unknown(_));
            report.ur_unknown_but_unsafe = matches!(ur_v, Verdict::Unknown(_));
        }
    }
    Ok(())
}

// ----- shrinking ---------------------------------------------------------

fn map_term(t: &Term, f: &impl Fn(VarId) -> VarId) -> Term {
    match t {
        Term::Const(k) => Term::Const(*k),
        Term::Var(v) => Term::Var(f(*v)),
        Term::Add(a, b) => Term::Add(Box::new(map_term(a, f)), Box::new(map_term(b, f))),
        Term::Sub(a, b) => Term::Sub(Box::new(map_term(a, f)), Box::new(map_term(b, f))),
        Term::Mul(k, a) => Term::Mul(*k, Box::new(map_term(a, f))),
        Term::Neg(a) => Term::Neg(Box::new(map_term(a, f))),
        Term::Div(a, k) => Term::Div(Box::new(map_term(a, f)), *k),
        Term::Mod(a, k) => Term::Mod(Box::new(map_term(a, f)), *k),
        Term::Nl(op, a, b) => Term::Nl(*op, Box::new(map_term(a, f)), Box::new(map_term(b, f))),
        Term::Select(x, i) => Term::Select(*x, Box::new(map_term(i, f))),
    }
}

fn map_cond(c: &Cond, fv: &impl Fn(VarId) -> VarId, ft: &impl Fn(ThreadId) -> ThreadId) -> Cond {
    match c {
        Cond::True => Cond::True,
        Cond::False => Cond::False,
        Cond::Cmp(op, a, b) => Cond::Cmp(*op, map_term(a, fv), map_term(b, fv)),
        Cond::At(t, l) => Cond::At(ft(*t), *l),
        Cond::Not(a) => Cond::Not(Box::new(map_cond(a, fv, ft))),
        Cond::And(a, b) => Cond::And(Box::new(map_cond(a, fv, ft)), Box::new(map_cond(b, fv, ft))),
        Cond::Or(a, b) => Cond::Or(Box::new(map_cond(a, fv, ft)), Box::new(map_cond(b, fv, ft))),
    }
}

fn cond_mentions(c: &Cond, var: Option<VarId>, thread: Option<ThreadId>) -> bool {
    match c {
        Cond::True | Cond::False => false,
        Cond::Cmp(_, a, b) => {
            let mut found = false;
            let mut f = |v| found |= Some(v) == var;
            a.for_each_var(&mut f);
            b.for_each_var(&mut f);
            found
        }
        Cond::At(t, _) => Some(*t) == thread,
        Cond::Not(a) => cond_mentions(a, var, thread),
        Cond::And(a, b) | Cond::Or(a, b) => {
            cond_mentions(a, var, thread) || cond_mentions(b, var, thread)
        }
    }
}

/// The immediate sub-conditions and simpler replacements of a condition.
fn simpler_conds(c: &Cond) -> Vec<Cond> {
    let mut out = Vec::new();
    match c {
        Cond::True => {}
        Cond::Not(a) => out.push((**a).clone()),
        Cond::And(a, b) | Cond::Or(a, b) => {
            out.push((**a).clone());
            out.push((**b).clone());
            for a2 in simpler_conds(a) {
                out.push(match c {
                    Cond::And(..) => Cond::And(Box::new(a2), b.clone()),
                    _ => Cond::Or(Box::new(a2), b.clone()),
                });
            }
            for b2 in simpler_conds(b) {
                out.push(match c {
                    Cond::And(..) => Cond::And(a.clone(), Box::new(b2)),
                    _ => Cond::Or(a.clone(), Box::new(b2)),
                });
            }
        }
        _ => {}
    }
    out
}

/// Rebuilds the derived tables after an edit and normalises the program
/// through its text (locations in order of appearance, labels); `None`
/// when the edit made it invalid (e.g. an error names a location that no
/// transition mentions any more).
fn normalise(mut p: Program) -> Option<Program> {
    for (i, th) in p.threads.iter_mut().enumerate() {
        th.transitions = (0..p.transitions.len())
            .filter(|&t| p.transitions[t].thread.index() == i)
            .map(TransId::new)
            .collect();
    }
    let text = print_program(&p);
    let mut q = parse_program(&text).ok()?;
    q.source_map = SourceMap::default();
    Some(q)
}

/// Smaller variants of a program (each one edit).
fn candidates(p: &Program) -> Vec<Program> {
    let mut out = Vec::new();
    // Drop a thread that no condition mentions.
    for t in 0..p.threads.len() {
        let tid = ThreadId::new(t);
        let mentioned = p
            .transitions
            .iter()
            .map(|tr| &tr.guard)
            .chain(&p.error)
            .chain(&p.init)
            .any(|c| cond_mentions(c, None, Some(tid)));
        if mentioned || p.threads.len() == 1 {
            continue;
        }
        let mut q = p.clone();
        q.threads.remove(t);
        q.transitions.retain(|tr| tr.thread != tid);
        let ft = |x: ThreadId| {
            if x.index() > t {
                ThreadId::new(x.index() - 1)
            } else {
                x
            }
        };
        for tr in &mut q.transitions {
            tr.thread = ft(tr.thread);
            tr.guard = map_cond(&tr.guard, &|v| v, &ft);
        }
        q.error = q.error.iter().map(|c| map_cond(c, &|v| v, &ft)).collect();
        out.push(q);
    }
    // Drop an error disjunct or an init constraint.
    for i in 0..p.error.len() {
        if p.error.len() > 1 {
            let mut q = p.clone();
            q.error.remove(i);
            out.push(q);
        }
        for c in simpler_conds(&p.error[i]) {
            let mut q = p.clone();
            q.error[i] = c;
            out.push(q);
        }
    }
    for i in 0..p.init.len() {
        let mut q = p.clone();
        q.init.remove(i);
        out.push(q);
    }
    // Drop a transition, an assignment; simplify a guard or a right-hand side.
    for i in 0..p.transitions.len() {
        let mut q = p.clone();
        q.transitions.remove(i);
        out.push(q);
        let tr = &p.transitions[i];
        if tr.guard != Cond::True {
            let mut q = p.clone();
            q.transitions[i].guard = Cond::True;
            out.push(q);
            for c in simpler_conds(&tr.guard) {
                let mut q = p.clone();
                q.transitions[i].guard = c;
                out.push(q);
            }
        }
        for a in 0..tr.assigns.len() {
            let mut q = p.clone();
            q.transitions[i].assigns.remove(a);
            out.push(q);
            let simpler: Vec<Rhs> = match &tr.assigns[a].rhs {
                Rhs::Nondet => vec![Rhs::Expr(Term::Const(0))],
                Rhs::Expr(Term::Const(0)) => vec![],
                Rhs::Expr(Term::Const(_)) => vec![Rhs::Expr(Term::Const(0))],
                Rhs::Expr(Term::Var(_)) => vec![Rhs::Expr(Term::Const(0))],
                Rhs::Expr(e) => {
                    let mut v = vec![Rhs::Expr(Term::Const(0))];
                    match e {
                        Term::Add(x, y) | Term::Sub(x, y) => {
                            v.push(Rhs::Expr((**x).clone()));
                            v.push(Rhs::Expr((**y).clone()));
                        }
                        Term::Mul(_, x) | Term::Neg(x) => v.push(Rhs::Expr((**x).clone())),
                        _ => {}
                    }
                    v
                }
            };
            for rhs in simpler {
                let mut q = p.clone();
                q.transitions[i].assigns[a].rhs = rhs;
                out.push(q);
            }
        }
    }
    // Fix an unconstrained variable; drop a variable nobody mentions.
    for v in 0..p.vars.len() {
        if p.vars[v].init.is_none() {
            let mut q = p.clone();
            q.vars[v].init = Some(0);
            out.push(q);
        }
        let vid = VarId::new(v);
        let mentioned = p.transitions.iter().any(|tr| {
            cond_mentions(&tr.guard, Some(vid), None)
                || tr.assigns.iter().any(|a| {
                    let mut found = a.var == vid;
                    if let Rhs::Expr(e) = &a.rhs {
                        e.for_each_var(&mut |x| found |= x == vid);
                    }
                    found
                })
        }) || p
            .error
            .iter()
            .chain(&p.init)
            .any(|c| cond_mentions(c, Some(vid), None));
        if !mentioned && p.vars.len() > 1 {
            let mut q = p.clone();
            q.vars.remove(v);
            let fv = |x: VarId| {
                if x.index() > v {
                    VarId::new(x.index() - 1)
                } else {
                    x
                }
            };
            let ft = |t: ThreadId| t;
            for tr in &mut q.transitions {
                tr.guard = map_cond(&tr.guard, &fv, &ft);
                for a in &mut tr.assigns {
                    a.var = fv(a.var);
                    if let Rhs::Expr(e) = &a.rhs {
                        a.rhs = Rhs::Expr(map_term(e, &fv));
                    }
                }
            }
            q.error = q.error.iter().map(|c| map_cond(c, &fv, &ft)).collect();
            q.init = q.init.iter().map(|c| map_cond(c, &fv, &ft)).collect();
            out.push(q);
        }
    }
    out.into_iter().filter_map(normalise).collect()
}

/// A size measure that every accepted shrinking step decreases: the
/// length of the text, with a penalty for nondeterminism (so that `x := 0`
/// counts as smaller than `x := *`, and `var x = 0` than `var x`).
fn size(p: &Program) -> usize {
    let free = p.vars.iter().filter(|v| v.init.is_none()).count();
    let inputs = p
        .transitions
        .iter()
        .flat_map(|t| &t.assigns)
        .filter(|a| a.rhs == Rhs::Nondet)
        .count();
    print_program(p).len() + 8 * (free + inputs)
}

/// Shrinks a program while it fails with the same kind of failure.
fn shrink(p: &Program, kind: &str, settings: &Settings) -> (Program, Failure) {
    let fails = |q: &Program| check_program(q, settings).1.filter(|f| f.kind == kind);
    let (best, failure) = shrink_with(p, fails);
    let failure = failure.unwrap_or(Failure {
        kind: "flaky",
        message: "the failure did not reproduce".into(),
    });
    (best, failure)
}

/// Greedy shrinking: takes the first smaller candidate that still fails
/// until none does (or a budget of checks is spent).
fn shrink_with(
    p: &Program,
    fails: impl Fn(&Program) -> Option<Failure>,
) -> (Program, Option<Failure>) {
    let mut best = p.clone();
    let mut failure = fails(&best);
    if failure.is_none() {
        return (best, None);
    }
    let mut budget = 2_000;
    let deadline = Instant::now() + SHRINK_TIME;
    'outer: loop {
        for q in candidates(&best) {
            if size(&q) >= size(&best) {
                continue;
            }
            if budget == 0 || Instant::now() > deadline {
                break 'outer;
            }
            budget -= 1;
            if let Some(f) = fails(&q) {
                best = q;
                failure = Some(f);
                continue 'outer;
            }
        }
        break;
    }
    (best, failure)
}

#[test]
fn shrinking_keeps_the_failure_and_minimises() {
    // A stand-in failure: "the explicit search finds an error at bound 3
    // in at least two steps".
    let fails = |q: &Program| {
        let out = explicit::check(
            q,
            &Bounds {
                bound: 3,
                max_states: 10_000,
                partial_order: false,
            },
            None,
        );
        match out.verdict {
            Verdict::Unsafe(t) if t.steps.len() >= 2 => Some(Failure {
                kind: "deep-bug",
                message: format!("{} steps", t.steps.len()),
            }),
            _ => None,
        }
    };
    let mut shrunk = 0;
    for seed in 0..200 {
        let p = random_program(seed, &GenConfig::default());
        if fails(&p).is_none() {
            continue;
        }
        let (small, failure) = shrink_with(&p, fails);
        assert!(failure.is_some(), "seed {seed}");
        assert!(size(&small) <= size(&p));
        // Every smaller candidate of the result passes: it is locally minimal.
        assert!(candidates(&small)
            .iter()
            .all(|q| size(q) >= size(&small) || fails(q).is_none()));
        assert!(small.transitions.len() <= 4, "{}", print_program(&small));
        shrunk += 1;
    }
    assert!(shrunk >= 10, "{shrunk}");
}

// ----- many programs -----------------------------------------------------

/// Counts of verdicts of one checker.
#[derive(Default)]
struct Tally {
    /// Safe answers by proof (short name).
    safe: BTreeMap<&'static str, u64>,
    unsafe_: u64,
    unknown: BTreeMap<String, u64>,
    /// Prover queries.
    queries: u64,
    time: Duration,
    /// Time spent on programs answered safe, unsafe, unknown.
    class_time: [Duration; 3],
    slowest: (Duration, String),
}

impl Tally {
    fn add(&mut self, out: &Outcome, time: Duration, what: &str) {
        match &out.verdict {
            Verdict::Safe(proof) => *self.safe.entry(proof.short()).or_default() += 1,
            Verdict::Unsafe(_) => self.unsafe_ += 1,
            Verdict::Unknown(why) => {
                // Group reasons by their text before any figures.
                // (and with names in backquotes blanked).
                let head = why
                    .detail
                    .split(['(', ':'])
                    .next()
                    .unwrap_or(&why.detail)
                    .trim();
                let key = head
                    .split('`')
                    .enumerate()
                    .map(|(i, part)| if i % 2 == 1 { "_" } else { part })
                    .collect::<Vec<_>>()
                    .join("`");
                *self.unknown.entry(key).or_default() += 1;
            }
        }
        self.queries += out.stats.prover_queries;
        self.time += time;
        let class = match out.verdict {
            Verdict::Safe(_) => 0,
            Verdict::Unsafe(_) => 1,
            Verdict::Unknown(_) => 2,
        };
        self.class_time[class] += time;
        if time > self.slowest.0 {
            self.slowest = (time, what.to_string());
        }
    }

    fn merge(&mut self, other: Tally) {
        for (k, n) in other.safe {
            *self.safe.entry(k).or_default() += n;
        }
        self.unsafe_ += other.unsafe_;
        for (k, n) in other.unknown {
            *self.unknown.entry(k).or_default() += n;
        }
        self.queries += other.queries;
        self.time += other.time;
        for (a, b) in self.class_time.iter_mut().zip(other.class_time) {
            *a += b;
        }
        if other.slowest.0 > self.slowest.0 {
            self.slowest = other.slowest;
        }
    }

    fn line(&self, name: &str) -> String {
        let unknown: u64 = self.unknown.values().sum();
        let proofs: Vec<String> = self.safe.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let mut s = format!(
            "  {name:<4} safe {} ({}), unsafe {}, unknown {}",
            self.safe.values().sum::<u64>(),
            proofs.join(", "),
            self.unsafe_,
            unknown
        );
        if !self.unknown.is_empty() {
            let reasons: Vec<String> = self
                .unknown
                .iter()
                .map(|(k, n)| format!("{k}: {n}"))
                .collect();
            let _ = write!(s, " [{}]", reasons.join("; "));
        }
        let _ = write!(
            s,
            "\n       {} prover queries, time {:.1} s (safe {:.1}, unsafe {:.1}, unknown {:.1}), \
             slowest {:.2} s ({})",
            self.queries,
            self.time.as_secs_f64(),
            self.class_time[0].as_secs_f64(),
            self.class_time[1].as_secs_f64(),
            self.class_time[2].as_secs_f64(),
            self.slowest.0.as_secs_f64(),
            self.slowest.1
        );
        s
    }
}

/// The figures of a run over many programs.
#[derive(Default)]
struct Summary {
    programs: u64,
    ase: Tally,
    ur: Tally,
    explicit_runs: u64,
    explicit_time: Duration,
    inconclusive: u64,
    ase_unknown_but_unsafe: u64,
    ur_unknown_but_unsafe: u64,
    /// (which program, its text, what went wrong)
    failures: Vec<(String, String, Failure)>,
}

impl Summary {
    fn add(&mut self, what: &str, p: &Program, report: Report, failure: Option<Failure>) {
        self.programs += 1;
        if let Some(out) = &report.ase {
            self.ase.add(out, report.ase_time, what);
        }
        if let Some(out) = &report.ur {
            self.ur.add(out, report.ur_time, what);
        }
        self.explicit_runs += report.explicit_runs;
        self.explicit_time += report.explicit_time;
        self.inconclusive += report.inconclusive;
        self.ase_unknown_but_unsafe += u64::from(report.ase_unknown_but_unsafe);
        self.ur_unknown_but_unsafe += u64::from(report.ur_unknown_but_unsafe);
        if let Some(f) = failure {
            self.failures.push((what.to_string(), print_program(p), f));
        }
    }

    fn merge(&mut self, other: Summary) {
        self.programs += other.programs;
        self.ase.merge(other.ase);
        self.ur.merge(other.ur);
        self.explicit_runs += other.explicit_runs;
        self.explicit_time += other.explicit_time;
        self.inconclusive += other.inconclusive;
        self.ase_unknown_but_unsafe += other.ase_unknown_but_unsafe;
        self.ur_unknown_but_unsafe += other.ur_unknown_but_unsafe;
        self.failures.extend(other.failures);
    }

    fn print(&self, title: &str, settings: &Settings, elapsed: Duration) {
        eprintln!(
            "{title}: {} programs in {:.1} s, {} failure(s)\n  {settings:?}\n{}\n{}\n  explicit searches {} ({:.1} s), \
             inconclusive (state/time limit) {}\n  unknown but the explicit search finds a bug: \
             ASE {}, UR {}",
            self.programs,
            elapsed.as_secs_f64(),
            self.failures.len(),
            self.ase.line("ASE"),
            self.ur.line("UR"),
            self.explicit_runs,
            self.explicit_time.as_secs_f64(),
            self.inconclusive,
            self.ase_unknown_but_unsafe,
            self.ur_unknown_but_unsafe,
        );
    }

    /// Prints the failures (the first few shrunk) and panics if there are any.
    fn assert_no_failures(mut self, settings: &Settings) {
        if self.failures.is_empty() {
            return;
        }
        self.failures.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
        for (i, (what, text, failure)) in self.failures.iter().enumerate() {
            *kinds.entry(failure.kind).or_default() += 1;
            eprintln!(
                "\n===== FAILURE {} [{}] {what} =====\n{}\n----- program -----\n// {what}\n{text}",
                i + 1,
                failure.kind,
                failure.message
            );
            if i < SHOWN_FAILURES {
                if let Ok(p) = parse_program(text) {
                    let (small, f) = shrink(&p, failure.kind, settings);
                    eprintln!(
                        "----- shrunk [{}] -----\n{}\n// {what} (shrunk)\n{}",
                        f.kind,
                        f.message,
                        print_program(&small)
                    );
                }
            }
        }
        panic!(
            "{} program(s) failed the differential checks ({kinds:?}); see the output above",
            self.failures.len()
        );
    }
}

/// Checks programs `seed..seed + count` on all cores; with `progress`,
/// reports every 1,000 programs.
fn run_seeds(seed: u64, count: u64, settings: &Settings, progress: bool) -> Summary {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let failed = AtomicU64::new(0);
    let total = Mutex::new(Summary::default());
    let verdicts_file = std::env::var_os("ASE_DIFF_VERDICTS");
    let verdicts = verdicts_file.as_ref().map(|_| Mutex::new(Vec::new()));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut mine = Summary::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let s = seed.wrapping_add(i);
                    let (variant, gen) = generator(s, settings.variants);
                    let p = random_program(s, &gen);
                    let (report, failure) = check_program(&p, settings);
                    if let Some(lines) = &verdicts {
                        let line = format!(
                            "seed {s}{variant}: ASE {} | UR {}",
                            verdict_line(report.ase.as_ref()),
                            verdict_line(report.ur.as_ref())
                        );
                        if let Ok(mut lines) = lines.lock() {
                            lines.push((s, line));
                        }
                    }
                    if failure.is_some() {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if progress && n.wrapping_rem(1000) == 0 {
                        eprintln!(
                            "  ... {n}/{count} programs, {} failure(s), {:.0} s",
                            failed.load(Ordering::Relaxed),
                            start.elapsed().as_secs_f64()
                        );
                    }
                    mine.add(&format!("seed {s}{variant}"), &p, report, failure);
                }
                if let Ok(mut total) = total.lock() {
                    total.merge(mine);
                }
            });
        }
    });
    if let (Some(path), Some(lines)) = (verdicts_file, verdicts) {
        let mut lines = lines.into_inner().unwrap_or_else(|e| e.into_inner());
        lines.sort();
        let text: String = lines.into_iter().map(|(_, l)| l + "\n").collect();
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("cannot write {}: {e}", PathBuf::from(path).display());
        }
    }
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// A checker's answer for the `ASE_DIFF_VERDICTS` file: the verdict (with
/// the proof, or the reason up to its figures), iterations and queries.
fn verdict_line(out: Option<&Outcome>) -> String {
    let Some(out) = out else {
        return "-".into();
    };
    let verdict = match &out.verdict {
        Verdict::Safe(proof) => format!("safe ({})", proof.short()),
        Verdict::Unsafe(t) => format!("unsafe ({} steps)", t.steps.len()),
        Verdict::Unknown(why) => format!(
            "unknown ({})",
            why.detail
                .split(['(', ':'])
                .next()
                .unwrap_or(&why.detail)
                .trim()
        ),
    };
    format!(
        "{verdict}, {} iterations, {} queries",
        out.stats.iterations, out.stats.prover_queries
    )
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, got {v:?}")),
        Err(_) => default,
    }
}

#[test]
fn differential_fixed_seed() {
    let start = Instant::now();
    let settings = quick_settings();
    let summary = run_seeds(FIXED_SEED, FIXED_PROGRAMS, &settings, false);
    summary.print(
        &format!(
            "differential_fixed_seed (seeds {FIXED_SEED}..{})",
            FIXED_SEED + FIXED_PROGRAMS
        ),
        &settings,
        start.elapsed(),
    );
    summary.assert_no_failures(&settings);
}

#[test]
#[ignore = "long: run with --release -- --ignored --nocapture"]
fn differential_long() {
    let count = env_u64("ASE_DIFF_PROGRAMS", LONG_PROGRAMS);
    let seed = env_u64("ASE_DIFF_SEED", LONG_SEED);
    let start = Instant::now();
    let settings = long_settings();
    let summary = run_seeds(seed, count, &settings, true);
    summary.print(
        &format!(
            "differential_long (seeds {seed}..{})",
            seed.wrapping_add(count)
        ),
        &settings,
        start.elapsed(),
    );
    summary.assert_no_failures(&settings);
}

// ----- regressions -------------------------------------------------------

fn regressions_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions"))
}

/// The `// expect: safe|unsafe` header of a `.gc` file.
fn expected(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .take_while(|l| l.is_empty() || l.starts_with("//") || l.starts_with('#'))
        .find_map(|l| {
            l.trim_start_matches(['/', '#'])
                .trim()
                .strip_prefix("expect:")
                .map(str::trim)
        })
}

#[test]
fn regressions() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(regressions_dir())
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "gc"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    if files.is_empty() {
        eprintln!(
            "note: no regression programs in {}",
            regressions_dir().display()
        );
        return;
    }
    let start = Instant::now();
    let settings = quick_settings();
    let mut summary = Summary::default();
    for path in &files {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let p = match parse_program(&text) {
            Ok(mut p) => {
                p.source_map = SourceMap::default();
                p
            }
            Err(errs) => panic!("{name} does not parse: {errs:#?}"),
        };
        let (report, mut failure) = check_program(&p, &settings);
        if failure.is_none() {
            if let Some(expect) = expected(&text) {
                for (checker, out) in [("ASE", &report.ase), ("UR", &report.ur)] {
                    let Some(out) = out else { continue };
                    let got = out.verdict.name();
                    if got != "unknown" && got != expect {
                        failure = Some(Failure {
                            kind: "wrong-verdict",
                            message: format!("{checker} answered {got}, expected {expect}"),
                        });
                    }
                }
            }
        }
        summary.add(&name, &p, report, failure);
    }
    summary.print("regressions", &settings, start.elapsed());
    summary.assert_no_failures(&settings);
}
