//! The floating-point abstraction against the compiler (SOUNDNESS.md,
//! "Floating point"): generated two-thread programs compute with `double`,
//! `float`, `int` and `long long` values (arithmetic, `sqrt`/`fabs`,
//! conversions both ways, branches on floating-point comparisons), are
//! compiled by gcc and run, and then checked by `ase check` with
//! assertions whose truth the run printed: the final `int` and `long
//! long` values equal (true) or differ from (false) the run's, and a
//! floating-point comparison the run evaluated. Every execution of such a
//! program is the same, so the run decides each assertion: `ase` must
//! never answer `safe` for a false one nor `unsafe` for a true one. The
//! model decides the integer assertions of programs whose integers do not
//! depend on a floating-point value (at least [`MIN_DECIDED`] percent of
//! all integer assertions), and answers the others `unknown`.
//!
//! ```text
//! ASE_GCC_FLOAT_PROGRAMS=200 cargo test --release --test gcc_floats -- --nocapture
//! ```

mod common;

use std::path::{Path, PathBuf};

use engine::generate::Rng;

/// Programs generated unless `ASE_GCC_FLOAT_PROGRAMS` says otherwise;
/// `ASE_GCC_FLOAT_SEED` picks other programs.
const PROGRAMS: u64 = 24;
/// Percentage of the integer assertions `ase` must decide.
const MIN_DECIDED: usize = 40;

fn pick<'a>(rng: &mut Rng, xs: &[&'a str]) -> &'a str {
    xs[rng.below(xs.len())]
}

/// A floating-point expression over `g` (double), `h` (float) and the
/// integers `n`, `k`.
fn fexpr(rng: &mut Rng, depth: u32) -> String {
    if depth == 0 || rng.below(3) == 0 {
        return pick(
            rng,
            &[
                "g",
                "h",
                "n",
                "k",
                "0.5",
                "1e10",
                "-3.25",
                "0.1f",
                "2.0",
                "(double)n",
            ],
        )
        .to_string();
    }
    let a = fexpr(rng, depth - 1);
    match rng.below(6) {
        0 => format!("sqrt(fabs({a}))"),
        1 => format!("(-({a}))"),
        2 => format!("(float)({a})"),
        _ => {
            let b = fexpr(rng, depth - 1);
            format!("(({a}) {} ({b}))", pick(rng, &["+", "-", "*", "/"]))
        }
    }
}

/// A floating-point comparison.
fn fcmp(rng: &mut Rng) -> String {
    format!(
        "({}) {} ({})",
        fexpr(rng, 2),
        pick(rng, &["<", "<=", ">", ">=", "==", "!="]),
        fexpr(rng, 2)
    )
}

/// A statement of a thread. With `floats_reach_ints`, integers may get
/// values from floating-point ones (conversions, branches).
fn stmt(rng: &mut Rng, floats_reach_ints: bool) -> String {
    let c = rng.below(7) + 1;
    let choices = if floats_reach_ints { 7 } else { 4 };
    match rng.below(choices) {
        0 => format!("g = {};", fexpr(rng, 3)),
        1 => format!("h = {};", fexpr(rng, 2)),
        2 => format!("n = (n * {c} + {}) % 1000;", rng.below(50)),
        3 => format!("k = k * 2 + n - {c};"),
        4 => format!("if ({}) n += {c}; else n -= {c};", fcmp(rng)),
        5 => format!("n = (int)fmod(fabs({}), 100.0);", fexpr(rng, 2)),
        _ => format!("k += ({}) ? 1 : 2;", fcmp(rng)),
    }
}

/// A program: a worker's statements under a mutex, then `main`'s after
/// the join, then `CHECK`.
fn program(rng: &mut Rng) -> String {
    let floats_reach_ints = rng.below(2) == 0;
    let mut body = |count: usize| -> String {
        (0..count)
            .map(|_| format!("  {}\n", stmt(rng, floats_reach_ints)))
            .collect()
    };
    let worker = body(3);
    let main = body(3);
    format!(
        "#include <assert.h>\n#include <math.h>\n#include <pthread.h>\n#include <stdio.h>\n\
         double g = 1.5;\nfloat h = 0.25f;\nint n = 3;\nlong long k = 7;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *worker(void *arg) {{\n  pthread_mutex_lock(&m);\n{worker}  pthread_mutex_unlock(&m);\n  return 0;\n}}\n\
         int main(void) {{\n  pthread_t t;\n  pthread_create(&t, 0, worker, 0);\n  pthread_join(t, 0);\n{main}  CHECK;\n  return 0;\n}}\n"
    )
}

/// The run's final `n`, `k` and the truth of `cmp`.
fn run(dir: &Path, text: &str, cmp: &str) -> (String, String, bool) {
    let print = format!("printf(\"%d %lld %d\\n\", n, k, ({cmp}) ? 1 : 0)");
    let line = common::gcc_output(dir, &text.replace("CHECK", &print));
    let mut words = line.split_whitespace().map(str::to_string);
    let mut next = || words.next().expect("three values");
    let (n, k, truth) = (next(), next(), next());
    (n, k, truth == "1")
}

#[test]
fn float_abstraction_agrees_with_gcc() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gcc_floats");
    std::fs::create_dir_all(&dir).unwrap();
    let gcc = if common::gcc_works(&dir) {
        Ok(())
    } else {
        Err("no gcc with libm".to_string())
    };
    if common::resource("the comparison with gcc", gcc).is_none() {
        return;
    }
    let programs = common::env_u64("ASE_GCC_FLOAT_PROGRAMS", PROGRAMS);
    let mut rng = Rng(common::env_u64("ASE_GCC_FLOAT_SEED", 0x5eed_f10a_7000_0001));
    // (file, assertion holds, about integers only)
    let mut checks: Vec<(PathBuf, bool, bool)> = Vec::new();
    for i in 0..programs {
        let text = program(&mut rng);
        let cmp = fcmp(&mut rng);
        let (n, k, truth) = run(&dir, &text, &cmp);
        for (j, (assertion, holds, integers)) in [
            (format!("n == {n} && k == {k}LL"), true, true),
            (format!("n != {n} || k != {k}LL"), false, true),
            (cmp, truth, false),
        ]
        .into_iter()
        .enumerate()
        {
            let file = dir.join(format!("p{i}_{j}.c"));
            std::fs::write(
                &file,
                text.replace("CHECK", &format!("assert({assertion})")),
            )
            .unwrap();
            checks.push((file, holds, integers));
        }
    }
    let files: Vec<PathBuf> = checks.iter().map(|c| c.0.clone()).collect();
    let got = common::json_verdicts(&["--no-races"], &files);
    let runs: Vec<(&Path, bool)> = checks.iter().map(|c| (c.0.as_path(), c.1)).collect();
    let decided = common::decided_by_runs(&runs, &got)
        .iter()
        .zip(&checks)
        .filter(|(d, c)| **d && c.2)
        .count();
    let integer_checks = checks.iter().filter(|c| c.2).count();
    eprintln!("{decided} of {integer_checks} integer assertions decided");
    assert!(
        decided * 100 >= integer_checks * MIN_DECIDED,
        "only {decided} of {integer_checks} integer assertions decided"
    );
}
