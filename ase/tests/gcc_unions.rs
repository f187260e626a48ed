//! The union model against the compiler (SOUNDNESS.md, "Unions"):
//! generated two-thread programs store into and read from the members of
//! unions (an `int`, a pair of `short`s, four `unsigned char`s), copy them
//! (assignment, `memcpy`), zero them (`memset`, static storage), initialise
//! local ones with designators and reach them through pointers; gcc builds
//! and runs each, and `ase check` is asked whether the final `n` equals
//! (true) or differs from (false) the run's. Every execution of such a
//! program is the same (the worker runs under a mutex before `main`
//! continues), so the run decides each assertion: `ase` must never answer
//! `safe` for a false one nor `unsafe` for a true one. A read of a member
//! other than the one stored last (type punning) is `unknown`; the others
//! are decided (at least [`MIN_DECIDED`] percent of the assertions).
//!
//! ```text
//! ASE_GCC_UNION_PROGRAMS=200 cargo test --release --test gcc_unions -- --nocapture
//! ```

mod common;

use std::path::{Path, PathBuf};

use engine::generate::Rng;

/// Programs generated unless `ASE_GCC_UNION_PROGRAMS` says otherwise;
/// `ASE_GCC_UNION_SEED` picks other programs.
const PROGRAMS: u64 = 24;
/// Percentage of the assertions `ase` must decide.
const MIN_DECIDED: usize = 30;

/// A union place: a global, or one through the pointer `q` (to `g`).
fn union_place(rng: &mut Rng) -> &'static str {
    ["g", "h", "(*q)"][rng.below(3)]
}

/// A member of a union place, as an lvalue.
fn member(rng: &mut Rng, u: &str) -> String {
    match rng.below(4) {
        0 => format!("{u}.i"),
        1 => format!("{u}.p.a"),
        2 => format!("{u}.p.b"),
        _ => format!("{u}.c[{}]", rng.below(4)),
    }
}

/// A statement of a thread.
fn stmt(rng: &mut Rng) -> String {
    let c = rng.below(90) + 1;
    let u = union_place(rng);
    match rng.below(9) {
        0 | 1 => format!("{} = n + {c};", member(rng, u)),
        2 | 3 => format!("n = (n + {}) % 1000;", member(rng, u)),
        4 => format!("{u}.p.a = {c}; {u}.p.b = n;"),
        5 => ["h = g;", "g = h;"][rng.below(2)].to_string(),
        6 => ["memcpy(&h, &g, sizeof g);", "memset(&g, 0, sizeof g);"][rng.below(2)].to_string(),
        7 => format!(
            "{{ union u t = {{ .p = {{ {c}, 2 }} }}; n += t.p.b; {} = t.p.a; }}",
            member(rng, "g")
        ),
        _ => format!("{{ union u t; t.i = {c}; h = t; }}"),
    }
}

/// A program: a worker's statements under a mutex, then `main`'s after
/// the join, then `CHECK`.
fn program(rng: &mut Rng) -> String {
    let mut body =
        |count: usize| -> String { (0..count).map(|_| format!("  {}\n", stmt(rng))).collect() };
    let worker = body(3);
    let main = body(3);
    format!(
        "#include <assert.h>\n#include <pthread.h>\n#include <stdio.h>\n#include <string.h>\n\
         struct pair {{ short a, b; }};\n\
         union u {{ int i; struct pair p; unsigned char c[4]; }};\n\
         union u g, h;\nunion u *q = &g;\nint n = 3;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *worker(void *arg) {{\n  pthread_mutex_lock(&m);\n{worker}  pthread_mutex_unlock(&m);\n  return 0;\n}}\n\
         int main(void) {{\n  pthread_t t;\n  pthread_create(&t, 0, worker, 0);\n  pthread_join(t, 0);\n{main}  CHECK;\n  return 0;\n}}\n"
    )
}

#[test]
fn union_model_agrees_with_gcc() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gcc_unions");
    std::fs::create_dir_all(&dir).unwrap();
    let gcc = if common::gcc_works(&dir) {
        Ok(())
    } else {
        Err("no gcc".to_string())
    };
    if common::resource("the comparison with gcc", gcc).is_none() {
        return;
    }
    let programs = common::env_u64("ASE_GCC_UNION_PROGRAMS", PROGRAMS);
    let mut rng = Rng(common::env_u64("ASE_GCC_UNION_SEED", 0x5eed_0010_0000_0001));
    // (file, assertion holds)
    let mut checks: Vec<(PathBuf, bool)> = Vec::new();
    for i in 0..programs {
        let text = program(&mut rng);
        let n = common::gcc_output(&dir, &text.replace("CHECK", "printf(\"%d\\n\", n)"));
        let n = n.trim();
        for (j, (assertion, holds)) in [(format!("n == {n}"), true), (format!("n != {n}"), false)]
            .into_iter()
            .enumerate()
        {
            let file = dir.join(format!("p{i}_{j}.c"));
            std::fs::write(
                &file,
                text.replace("CHECK", &format!("assert({assertion})")),
            )
            .unwrap();
            checks.push((file, holds));
        }
    }
    let files: Vec<PathBuf> = checks.iter().map(|c| c.0.clone()).collect();
    let got = common::json_verdicts(&["--no-races"], &files);
    let runs: Vec<(&Path, bool)> = checks.iter().map(|c| (c.0.as_path(), c.1)).collect();
    let decided = common::decided_by_runs(&runs, &got)
        .iter()
        .filter(|d| **d)
        .count();
    eprintln!("{decided} of {} assertions decided", checks.len());
    assert!(
        decided * 100 >= checks.len() * MIN_DECIDED,
        "only {decided} of {} assertions decided",
        checks.len()
    );
}
