//! Randomized differential test of the tails of heap arrays of run-time
//! length (`lowering/src/lower/tails.rs`) against the exact model of short
//! arrays (`Options { tails: false }`: arrays of 1 to 8 elements, cell by
//! cell).
//!
//! Each generated program allocates an array of an input length `n` in
//! `[1, 3]` (so the exact model is complete), of `int` or of a struct of
//! two `int` members (a tail element of two cells), and runs three threads
//! of reads, writes and assertions at indices that are constants, `n − 1`,
//! an input or a value read. Both lowerings are searched exhaustively by
//! [`engine::explicit::prove`]; when both are conclusive:
//!
//! - a `safe` tails model means a `safe` exact model (the abstraction is a
//!   proof of the program);
//! - an error trace of the tails model (one before any tail exists) means
//!   the exact model reaches the error too;
//! - when the exact model reaches the error, the tails model is not
//!   `safe` (it reaches the error or the tails' give-up).
//!
//! The exact array model (`Options { array_values: true }`: every tail an
//! IR array, every element kept) is compared with the same exact model:
//! bounded model checking finds an error in it exactly when the exhaustive
//! search finds one in the model of short arrays (the programs are
//! loop-free, so every execution ends within the depth).
//!
//! ```text
//! ASE_ARRAYS_DIFF_N=200 cargo test --release -p ase-lowering --test tails_differential the_array_model
//! cargo test --release -p ase-lowering --test tails_differential -- --nocapture
//! ASE_TAILS_DIFF_N=2000 cargo test --release -p ase-lowering --test tails_differential
//! ```

mod common;
#[allow(dead_code)]
mod gen_c;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use engine::explicit::{self, Bounds};
use engine::ir::Program;
use engine::verdict::{UnknownKind, Verdict};
use gen_c::Rng;
use lowering::{Checks, Lowered, Options};

/// Programs checked by default (`ASE_TAILS_DIFF_N` sets another count).
const N: u64 = 120;
/// Time one search may take.
const TIMEOUT: Duration = Duration::from_secs(5);

/// One search: `Some(true)` safe, `Some(false)` unsafe, `None` unknown.
fn safe(program: &Program) -> Option<bool> {
    let bounds = Bounds {
        bound: 3,
        max_states: 200_000,
        partial_order: false,
    };
    match explicit::prove(program, &bounds, Some(Instant::now() + TIMEOUT)).verdict {
        Verdict::Safe(_) => Some(true),
        Verdict::Unsafe(_) => Some(false),
        Verdict::Unknown(_) => None,
    }
}

/// Whether `reach_error()` is reachable (`None`: unknown).
fn error_reachable(l: &Lowered) -> Option<bool> {
    safe(&l.errors_only()).map(|s| !s)
}

/// An index expression of the array (usually in bounds).
fn index(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => "0".into(),
        1 => "n - 1".into(),
        2 => "i".into(),
        3 => "n / 2".into(),
        _ => format!("{}", rng.range(0, 2)),
    }
}

/// An element of `a` (a member of it in an array of structs).
fn element(rng: &mut Rng, structs: bool) -> String {
    let i = index(rng);
    match (structs, rng.chance(50)) {
        (false, _) => format!("a[{i}]"),
        (true, true) => format!("a[{i}].x"),
        (true, false) => format!("a[{i}].y"),
    }
}

/// A few statements over `a`, the thread's input `i` and local `x`.
fn statements(rng: &mut Rng, structs: bool, out: &mut String) {
    for _ in 0..rng.range(1, 3) {
        let c = rng.range(0, 2);
        // Values stay in [0, 2] unless `malloc`'s contents are read or an
        // element is incremented: range assertions usually hold.
        let kind = rng.below(8);
        let mut e = || element(rng, structs);
        let s = match kind {
            0 | 1 => format!("{} = {c};", e()),
            2 => format!("x = {};", e()),
            3 => {
                let j = e();
                format!("{j} = {c}; if ({j} != {c}) reach_error();")
            }
            4 => {
                let j = e();
                format!("if ({j} < 0 || {j} > 2) reach_error();")
            }
            5 => "if (x < 0 || x > 2) reach_error();".into(),
            6 => format!("if ({} != {c}) reach_error();", e()),
            _ => format!("{} = {} + 1;", e(), e()),
        };
        let _ = writeln!(out, "  {s}");
    }
}

/// The body of a function: its input index, then statements.
fn body(rng: &mut Rng, structs: bool) -> String {
    let mut s = String::from(
        "  int x = 0;\n  int i = __VERIFIER_nondet_int();\n  \
         __VERIFIER_assume(0 <= i && i < n);\n",
    );
    statements(rng, structs, &mut s);
    s
}

fn program(seed: u64, structs: bool) -> String {
    program_with(seed, structs, &["t1", "t2"])
}

/// A generated program whose threads run the functions `workers`.
fn program_with(seed: u64, structs: bool, workers: &[&str]) -> String {
    let mut rng = Rng::new(seed);
    let (decl, elem) = match structs {
        true => ("struct e { int x; int y; } *a;", "struct e"),
        false => ("int *a;", "int"),
    };
    let alloc = if rng.chance(75) {
        format!("calloc(n, sizeof({elem}))")
    } else {
        format!("malloc(sizeof({elem}) * n)")
    };
    let mut s = format!(
        "#include <pthread.h>\n#include <stdlib.h>\n\
         extern int __VERIFIER_nondet_int(void);\n\
         extern void __VERIFIER_assume(int);\n\
         extern void reach_error(void);\n\
         {decl}\nint n;\n",
    );
    for t in workers {
        let _ = write!(
            s,
            "void *{t}(void *arg) {{\n{}  return 0;\n}}\n",
            body(&mut rng, structs)
        );
    }
    let (mut create, mut join) = (String::new(), String::new());
    let handles: Vec<String> = (0..workers.len()).map(|k| format!("h{k}")).collect();
    let handles = handles.join(", ");
    for (k, t) in workers.iter().enumerate() {
        let _ = writeln!(create, "  pthread_create(&h{k}, 0, {t}, 0);");
        let _ = writeln!(join, "  pthread_join(h{k}, 0);");
    }
    let _ = write!(
        s,
        "int main(void) {{\n  pthread_t {};\n  n = __VERIFIER_nondet_int();\n  \
         __VERIFIER_assume(n >= 1 && n <= 3);\n  a = {alloc};\n  {{\n{}  }}\n\
         {create}{join}  {{\n{}  }}\n  return 0;\n}}\n",
        handles,
        body(&mut rng, structs),
        body(&mut rng, structs)
    );
    s
}

#[test]
fn tails_agree_with_the_exact_model_of_short_arrays() {
    compare(false);
}

#[test]
fn struct_tails_agree_with_the_exact_model_of_short_arrays() {
    compare(true);
}

/// Generated programs over arrays of `int` or of structs (`structs`).
fn compare(structs: bool) {
    let options = |tails| Options {
        tails,
        checks: Checks::default(),
        ..Options::default()
    };
    let n = std::env::var("ASE_TAILS_DIFF_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(N);
    let (mut compared, mut tails_safe, mut exact_safe, mut bugs) = (0, 0, 0, 0);
    for seed in 0..n {
        let text = program(seed, structs);
        // Distinct files: the two tests run side by side.
        let name = format!("tails{}{seed}", if structs { "_struct" } else { "" });
        let abstracted = common::lower_text("tails_differential", &name, &text, &options(true));
        let exact = common::lower_text("tails_differential", &name, &text, &options(false));
        assert!(!exact.tails, "seed {seed}: tails without tails\n{text}");
        // A write-only array is a buffer without contents (buffers.rs).
        if !abstracted.tails {
            continue;
        }
        let t_safe = safe(&abstracted.program);
        let t_error = error_reachable(&abstracted);
        let e_error = error_reachable(&exact);
        let e_safe = safe(&exact.program);
        if t_safe.is_some() && e_safe.is_some() {
            compared += 1;
        }
        if e_safe == Some(true) {
            exact_safe += 1;
        }
        if t_safe == Some(true) {
            tails_safe += 1;
            assert_eq!(
                e_safe,
                Some(true),
                "seed {seed}: the tails model is safe, the exact one is not\n{text}"
            );
        }
        if t_error == Some(true) {
            assert_eq!(
                e_error,
                Some(true),
                "seed {seed}: the tails model reaches the error, the exact one does not\n{text}"
            );
        }
        if e_error == Some(true) {
            bugs += 1;
            assert_ne!(
                t_safe,
                Some(true),
                "seed {seed}: the exact model reaches the error, the tails model is safe\n{text}"
            );
        }
    }
    eprintln!(
        "{n} programs: {compared} compared, safe: {tails_safe} with tails of {exact_safe} \
         exactly; {bugs} with a bug"
    );
    assert!(
        tails_safe > 0 && bugs > 0,
        "the generator covers both answers"
    );
}

#[test]
fn the_array_model_agrees_with_the_exact_model_of_short_arrays() {
    // The short-array model has neither tails nor IR arrays.
    let options = |array_values: bool| Options {
        tails: false,
        array_values,
        checks: Checks::default(),
        ..Options::default()
    };
    // Bounded model checking takes up to seconds per program: fewer by
    // default (`ASE_ARRAYS_DIFF_N` sets another count).
    let n = std::env::var("ASE_ARRAYS_DIFF_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let (mut compared, mut bugs) = (0, 0);
    for seed in 0..n {
        let structs = seed % 3 == 2;
        // One worker, every fourth program two (the reduction's movers):
        // bounded model checking of three threads' interleavings takes long.
        let workers: &[&str] = if seed % 4 == 3 {
            &["t1", "t2"]
        } else {
            &["t1"]
        };
        let text = program_with(seed, structs, workers);
        let name = format!("arrays{seed}");
        let arrays = common::lower_text("tails_differential", &name, &text, &options(true));
        let exact = common::lower_text("tails_differential", &name, &text, &options(false));
        if !arrays.array_values || arrays.program.arrays.is_empty() {
            continue;
        }
        let Some(e_error) = error_reachable(&exact) else {
            continue;
        };
        let config = engine::bmc::Config {
            bounds: engine::bmc::Bounds { max_depth: 400 },
            deadline: Some(Instant::now() + 4 * TIMEOUT),
            cancel: None,
            target: Some(arrays.bug_condition()),
        };
        let a_error = match engine::bmc::check(&arrays.errors_only(), &config).verdict {
            Verdict::Unsafe(t) => {
                let end = arrays.trace_end(t.last_state());
                assert!(
                    matches!(
                        end,
                        lowering::TraceEnd::Error | lowering::TraceEnd::Violation(_)
                    ),
                    "seed {seed}: the array model's trace ends in {end:?}\n{text}"
                );
                true
            }
            Verdict::Unknown(u) if u.kind == UnknownKind::NoProof => false,
            Verdict::Unknown(u) => {
                assert_ne!(u.kind, UnknownKind::Internal, "seed {seed}: {}", u.detail);
                continue;
            }
            Verdict::Safe(_) => panic!("bounded model checking proves nothing"),
        };
        compared += 1;
        bugs += usize::from(e_error);
        assert_eq!(
            a_error,
            e_error,
            "seed {seed}: the array model {} the error, the exact model {}\n{text}",
            if a_error { "reaches" } else { "does not reach" },
            if e_error { "does" } else { "does not" },
        );
    }
    eprintln!("{n} programs: {compared} compared, {bugs} with a bug");
    assert!(compared > 0 && bugs > 0, "some programs are compared");
}
