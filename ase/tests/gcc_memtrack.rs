//! The lost-block check against concrete runs (SOUNDNESS.md, "Memory
//! safety", valid-memtrack): generated two-thread programs move pointers to
//! list nodes between globals, locals of both threads, a block-scoped
//! local, the nodes' `next` fields and the worker's result; they allocate,
//! link, follow and free nodes (half of them only push, pop and move nodes
//! of two global lists, now and then drop a list, and free both lists at
//! the end). Every execution is the same (the worker
//! runs under a mutex while `main` waits in the join), so one run decides
//! the program: gcc builds an instrumented copy that, after every
//! statement, marks the nodes reached from the pointers in scope (and the
//! result until the join) through allocated nodes, and flags an allocated
//! node left unmarked (valid-memtrack), a use or free of a freed node
//! (valid-deref, valid-free). `ase check --property valid-memsafety` of the
//! plain program must answer `unsafe` when the run flags something and
//! `safe` otherwise, or `unknown`; at least [`MIN_DECIDED`] percent are
//! decided.
//!
//! ```text
//! ASE_GCC_MEMTRACK_PROGRAMS=300 cargo test --release --test gcc_memtrack -- --nocapture
//! ```

mod common;

use std::path::{Path, PathBuf};

use engine::generate::Rng;

/// Programs generated unless `ASE_GCC_MEMTRACK_PROGRAMS` says otherwise;
/// `ASE_GCC_MEMTRACK_SEED` picks other programs.
const PROGRAMS: u64 = 30;
/// Percentage of the programs `ase` must decide.
const MIN_DECIDED: usize = 60;

/// One statement over the pointer variables `vars`: the plain text and the
/// instrumented one (which checks a node before using or freeing it).
fn stmt(rng: &mut Rng, vars: &[&str]) -> (String, String) {
    let x = vars[rng.below(vars.len())];
    let y = vars[rng.below(vars.len())];
    match rng.below(9) {
        0 | 1 => {
            let s = format!("{x} = malloc(sizeof(struct node)); {x}->v = 1; {x}->next = 0;");
            (s.clone(), s.replace("malloc(", "track_malloc("))
        }
        2 => (format!("{x} = {y};"), format!("{x} = {y};")),
        3 => (format!("{x} = 0;"), format!("{x} = 0;")),
        4 => (
            format!("if ({x}) {x}->next = {y};"),
            format!("if ({x} && use({x})) {x}->next = {y};"),
        ),
        5 => (
            format!("if ({x}) {y} = {x}->next;"),
            format!("if ({x} && use({x})) {y} = {x}->next;"),
        ),
        6 => (
            format!("if ({x}) {{ free({x}); {x} = 0; }}"),
            format!("if ({x}) {{ track_free({x}); {x} = 0; }}"),
        ),
        7 => (
            format!("if ({x}) free({x});"),
            format!("if ({x}) track_free({x});"),
        ),
        _ => {
            let keep = rng.below(2) == 0;
            let s =
                format!(
                "{{ struct node *l = malloc(sizeof(struct node)); l->v = 2; l->next = {y};{} }}",
                if keep { format!(" {x} = l;") } else { String::new() }
            );
            let checked = s
                .replace("malloc(", "track_malloc(")
                .replace(" }", " CHECK_WITH(l); }");
            (s, checked)
        }
    }
}

/// A statement that keeps every node on one of the global lists `g0`,
/// `g1` (`x`: a local of the thread), except, rarely, one that drops a
/// list.
fn careful_stmt(rng: &mut Rng, x: &str) -> (String, String) {
    let g = ["g0", "g1"][rng.below(2)];
    let h = ["g0", "g1"][rng.below(2)];
    let s = match rng.below(6) {
        0 | 1 => format!(
            "{{ struct node *l = malloc(sizeof(struct node)); l->v = 1; l->next = {g}; {g} = l; }}"
        ),
        2 => format!("if ({g}) {{ struct node *l = {g}; {g} = {g}->next; free(l); }}"),
        3 => {
            format!("if ({g}) {{ struct node *l = {g}; {g} = {g}->next; l->next = {h}; {h} = l; }}")
        }
        4 => format!("{x} = {g}; {g} = 0; if ({x}) {x}->v = 3; {g} = {x}; {x} = 0;"),
        _ if rng.below(3) == 0 => format!("{g} = 0;"),
        _ => format!("{x} = {g}; {x} = 0;"),
    };
    let checked = s
        .replace("malloc(", "track_malloc(")
        .replace("free(l)", "track_free(l)");
    (s, checked)
}

/// A thread's statements (careful ones or any), plain and instrumented
/// with a check after each.
fn body(rng: &mut Rng, vars: &[&str], count: usize, careful: bool) -> (String, String) {
    let (mut plain, mut checked) = (String::new(), String::new());
    for _ in 0..count {
        let (p, c) = if careful {
            careful_stmt(rng, vars[0])
        } else {
            stmt(rng, vars)
        };
        plain.push_str(&format!("  {p}\n"));
        checked.push_str(&format!("  {c} CHECK;\n"));
    }
    (plain, checked)
}

/// The tracker of the instrumented program: the nodes handed out and
/// whether each is allocated, the pointers in scope (`roots`), and the
/// first violation seen (1: a node lost, 2: a freed node used or freed).
const TRACKER: &str = r#"
#define MAX 64
struct node *nodes[MAX]; int alive[MAX]; int count; int bad;
struct node **roots[16]; int nroots;
struct node *held; /* the worker's result until the join */
void *track_malloc(unsigned long n) { struct node *p = malloc(n); nodes[count] = p; alive[count] = 1; count++; return p; }
int find(struct node *p) { for (int i = count - 1; i >= 0; i--) if (nodes[i] == p) return i; return -1; }
int use(struct node *p) { int i = find(p); if (i < 0 || !alive[i]) { if (!bad) bad = 2; return 0; } return 1; }
/* Freed nodes stay in memory: no address is handed out twice, as in the model. */
void track_free(struct node *p) { int i = find(p); if (i < 0 || !alive[i]) { if (!bad) bad = 2; return; } alive[i] = 0; }
void mark(struct node *p, int *seen) {
  int i = find(p);
  if (i < 0 || !alive[i] || seen[i]) return;
  seen[i] = 1; mark(p->next, seen);
}
void check(struct node *extra) {
  int seen[MAX] = {0};
  for (int r = 0; r < nroots; r++) mark(*roots[r], seen);
  mark(held, seen); mark(extra, seen);
  for (int i = 0; i < count; i++) if (alive[i] && !seen[i] && !bad) bad = 1;
}
#define CHECK check(0)
#define CHECK_WITH(l) check(l)
"#;

/// A program: `main`'s statements, the worker's under the mutex (its
/// argument and result nodes or null), `main`'s after the join. With
/// `checked`, the instrumented copy that prints the violation seen.
fn program(rng: &mut Rng) -> (String, String) {
    let main_vars = ["c", "d", "g0", "g1"];
    let worker_vars = ["a", "b", "g0", "g1"];
    let after_vars = ["c", "d", "r", "g0", "g1"];
    // Half the programs keep their nodes on the global lists and free them
    // at the end.
    let careful = rng.below(2) == 0;
    let (before_p, before_c) = body(rng, &main_vars, 3, careful);
    let (worker_p, worker_c) = body(rng, &worker_vars, 4, careful);
    let (mut after_p, mut after_c) = body(rng, &after_vars, 3, careful);
    if careful {
        for g in ["g0", "g1"] {
            let free_all =
                format!("while ({g}) {{ struct node *l = {g}; {g} = {g}->next; free(l); }}");
            after_p.push_str(&format!("  {free_all}\n"));
            after_c.push_str(&format!(
                "  {} CHECK;\n",
                free_all.replace("free(l)", "track_free(l)")
            ));
        }
    }
    let arg = ["c", "0"][rng.below(2)];
    let result = ["a", "b", "0"][rng.below(3)];
    let take = rng.below(2) == 0;
    let join = if take { "(void **)&r" } else { "0" };
    let plain = format!(
        "#include <pthread.h>\n#include <stdlib.h>\n\
         struct node {{ int v; struct node *next; }};\n\
         struct node *g0, *g1;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *worker(void *arg) {{\n  struct node *a = arg, *b = 0;\n  pthread_mutex_lock(&m);\n{worker_p}  pthread_mutex_unlock(&m);\n  return {result};\n}}\n\
         int main(void) {{\n  pthread_t t;\n  struct node *c = 0, *d = 0, *r = 0;\n{before_p}  pthread_create(&t, 0, worker, {arg});\n  pthread_join(t, {join});\n{after_p}  return 0;\n}}\n"
    );
    // Roots: the globals and main's locals always; the worker's locals
    // and parameter while it runs; its result from its return to the join.
    let checked = format!(
        "#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n\
         struct node {{ int v; struct node *next; }};\n\
         struct node *g0, *g1;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n{TRACKER}\n\
         void *worker(void *arg) {{\n  struct node *a = arg, *b = 0;\n  pthread_mutex_lock(&m);\n  roots[nroots++] = (struct node **)&arg; roots[nroots++] = &a; roots[nroots++] = &b;\n{worker_c}  held = {result}; nroots -= 3; CHECK;\n  pthread_mutex_unlock(&m);\n  return held;\n}}\n\
         int main(void) {{\n  pthread_t t;\n  struct node *c = 0, *d = 0, *r = 0;\n  roots[nroots++] = &g0; roots[nroots++] = &g1;\n  roots[nroots++] = &c; roots[nroots++] = &d; roots[nroots++] = &r;\n{before_c}  pthread_create(&t, 0, worker, {arg});\n  pthread_join(t, {join});\n  held = 0; CHECK;\n{after_c}  nroots = 2; CHECK;\n  printf(\"%d\\n\", bad);\n  return 0;\n}}\n"
    );
    (plain, checked)
}

#[test]
fn lost_blocks_agree_with_runs() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gcc_memtrack");
    std::fs::create_dir_all(&dir).unwrap();
    let gcc = if common::gcc_works(&dir) {
        Ok(())
    } else {
        Err("no gcc".to_string())
    };
    if common::resource("the comparison with gcc", gcc).is_none() {
        return;
    }
    let programs = common::env_u64("ASE_GCC_MEMTRACK_PROGRAMS", PROGRAMS);
    let mut rng = Rng(common::env_u64(
        "ASE_GCC_MEMTRACK_SEED",
        0x5eed_0011_0000_0001,
    ));
    let mut checks: Vec<(PathBuf, bool)> = Vec::new();
    let mut flagged = [0usize; 3];
    for i in 0..programs {
        let (plain, checked) = program(&mut rng);
        let bad: usize = common::gcc_output(&dir, &checked)
            .trim()
            .parse()
            .expect("the run prints what it saw");
        flagged[bad] += 1;
        let file = dir.join(format!("p{i}.c"));
        std::fs::write(&file, plain).unwrap();
        // The instrumented copy, for a reader of a failure.
        std::fs::write(dir.join(format!("p{i}.run.c")), &checked).unwrap();
        checks.push((file, bad == 0));
    }
    let files: Vec<PathBuf> = checks.iter().map(|c| c.0.clone()).collect();
    let got = common::json_verdicts(&["--property", "valid-memsafety"], &files);
    let runs: Vec<(&Path, bool)> = checks.iter().map(|c| (c.0.as_path(), c.1)).collect();
    let decided = common::decided_by_runs(&runs, &got)
        .iter()
        .filter(|d| **d)
        .count();
    eprintln!(
        "{} programs: {} without violation, {} losing a node, {} using or freeing a freed one; \
         {decided} decided",
        checks.len(),
        flagged[0],
        flagged[1],
        flagged[2]
    );
    assert!(
        decided * 100 >= checks.len() * MIN_DECIDED,
        "only {decided} of {} programs decided",
        checks.len()
    );
}
