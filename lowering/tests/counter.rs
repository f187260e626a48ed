//! The counter abstraction of threads created in loops
//! (`lowering::counter`): what it builds, what the engines make of it, and
//! what it forgets or refuses.

use engine::verdict::Verdict;
use lowering::counter::counter_system;
use lowering::{Lowered, Options};

mod common;

fn lower(name: &str, text: &str, instances: usize) -> Lowered {
    let options = Options {
        instances,
        ..Options::default()
    };
    common::lower_text("counter", name, text, &options)
}

const WORKERS: &str = r#"
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int inside = 0;
void *worker(void *arg) {
  ACQUIRE
  inside = inside + 1;
  if (inside != 1) reach_error();
  inside = inside - 1;
  RELEASE
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 10000; i++) pthread_create(&t, 0, worker, 0);
  return 0;
}
"#;

fn workers(locked: bool) -> String {
    let (l, u) = if locked {
        ("pthread_mutex_lock(&m);", "pthread_mutex_unlock(&m);")
    } else {
        ("", "")
    };
    WORKERS.replace("ACQUIRE", l).replace("RELEASE", u)
}

fn ase(p: &engine::ir::Program, secs: u64) -> Verdict {
    let config = engine::ase::Config {
        timeout: Some(std::time::Duration::from_secs(secs)),
        ..Default::default()
    };
    engine::ase::check(p, &config).verdict
}

#[test]
fn workers_under_a_mutex_are_counted_and_proved() {
    let l = lower("locked", &workers(true), 3);
    assert_eq!(l.loop_sites.len(), 1);
    assert_eq!(l.loop_sites[0].instances.len(), 3);
    let c = counter_system(&l).expect("a counter system");
    assert_eq!(c.templates, vec![("worker.1".to_string(), 4)]);
    // The instances are gone; one thread of counter transitions instead.
    let names: Vec<&str> = c.program.threads.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["main", "worker_1_counters"]);
    let coarse = c.coarse.as_ref().expect("main's loop counter is forgotten");
    assert!(matches!(ase(coarse, 20), Verdict::Safe(_)));
}

#[test]
fn the_counter_system_keeps_the_race_of_two_workers() {
    let l = lower("racy", &workers(false), 2);
    let c = counter_system(&l).expect("a counter system");
    let coarse = c.coarse.expect("coarse");
    // An error trace of the abstraction exists (two workers in the
    // critical section): the abstraction does not lose the bug.
    let bounds = engine::explicit::Bounds {
        bound: 8,
        max_states: 200_000,
        partial_order: false,
    };
    let o = engine::explicit::check(&coarse, &bounds, None);
    assert!(matches!(o.verdict, Verdict::Unsafe(_)), "{:?}", o.verdict);
    assert!(!matches!(ase(&c.program, 20), Verdict::Safe(_)));
}

#[test]
fn one_instance_per_site_is_not_counted() {
    let l = lower("one", &workers(true), 1);
    assert!(l.loop_sites.is_empty());
    assert!(counter_system(&l).is_err());
}

#[test]
fn unbounded_locals_and_distinct_arguments_are_forgotten() {
    let ticket = r#"
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int next = 0, serving = 0;
void *worker(void *arg) {
  int my = next;
  next = next + 1;
  while (serving != my) {}
  serving = serving + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) pthread_create(&t, 0, worker, 0);
  return 0;
}
"#;
    let c = counter_system(&lower("ticket", ticket, 3)).expect("a counter system");
    assert!(
        c.forgotten
            .iter()
            .any(|f| f.contains("`my`") && f.contains("unboundedly many")),
        "{:?}",
        c.forgotten
    );
    let args = r#"
#include <pthread.h>
extern void reach_error(void);
void *worker(void *arg) {
  if ((int)arg == 7) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 10000; i++) pthread_create(&t, 0, worker, (void *)i);
  return 0;
}
"#;
    let c = counter_system(&lower("args", args, 3)).expect("a counter system");
    assert!(
        c.forgotten
            .iter()
            .any(|f| f.contains("not interchangeable")),
        "{:?}",
        c.forgotten
    );
    // Forgetting over-approximates: the worker given 7 may fail.
    assert!(!matches!(ase(&c.program, 10), Verdict::Safe(_)));
}

/// Globals are created before any thread is lowered when pointers may
/// point into them: a dereference in the first instance's code has the
/// same cases as in the later ones, even when the code meets a global
/// (`&lk2`, the array `buf`) only after its first dereference. The
/// dereference of the failing assumption (an `abort()` inside the atomic
/// section) once kept the first instance's section apart from the others'.
#[test]
fn instances_see_the_same_dereference_cases() {
    let text = r#"
#include <pthread.h>
extern void reach_error(void);
extern void abort(void);
void assume_abort_if_not(int c) { if (!c) abort(); }
int lk = 0;
void __VERIFIER_atomic_acquire(int *p) { assume_abort_if_not(*p == 0); *p = 1; }
void __VERIFIER_atomic_release(int *p) { assume_abort_if_not(*p == 1); *p = 0; }
int lk2 = 0;
int buf[3];
int n = 0;
void *worker(void *arg) {
  __VERIFIER_atomic_acquire(&lk);
  __VERIFIER_atomic_release(&lk);
  __VERIFIER_atomic_acquire(&lk2);
  buf[n % 3] = 1;
  __VERIFIER_atomic_release(&lk2);
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
"#;
    let l = lower("deref-cases", text, 3);
    assert_eq!(l.loop_sites.len(), 1);
    let c = counter_system(&l).expect("a counter system");
    assert_eq!(c.templates.len(), 1);
}

const ANNOUNCE: &str = r#"
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int started = 0;
int finished = 0;
void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  started++;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  int seen = finished;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  int now = started;
  __VERIFIER_atomic_end();
  if (!(seen < now)) reach_error();
  __VERIFIER_atomic_begin();
  finished++;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
"#;

fn var(p: &engine::ir::Program, name: &str) -> engine::ir::VarId {
    let i = p.vars.iter().position(|v| v.name == name);
    engine::ir::VarId::new(i.unwrap_or_else(|| panic!("no variable {name}")))
}

/// The announce program lowered, and its view program assuming nothing.
fn announce_view() -> (Lowered, lowering::counter::CounterSystem) {
    use lowering::counter::{view_program, View};
    let l = lower("announce", ANNOUNCE, 3);
    let v = view_program(&l, &View::default()).expect("a view program");
    (l, v)
}

/// The bounded search of a view program.
fn search(p: &engine::ir::Program) -> Verdict {
    let bounds = engine::explicit::Bounds {
        bound: 8,
        max_states: 100_000,
        partial_order: false,
    };
    engine::explicit::check(p, &bounds, None).verdict
}

#[test]
fn the_view_program_tracks_one_instance_exactly() {
    use engine::ir::{Rhs, Term};
    let (_, v) = announce_view();
    let p = &v.program;
    let [t] = &v.tracked[..] else {
        panic!("one tracked instance")
    };
    assert_eq!(p.thread(t.thread).name, "worker_1_tracked");
    // The tracked instance reads `finished` into its own `seen`; an
    // anonymous one only counts its step (its value is picked).
    let seen = var(p, "worker.1.seen");
    let finished = var(p, "finished");
    let reads = |tr: &engine::ir::Transition| {
        tr.assigns
            .iter()
            .any(|a| a.var == seen && a.rhs == Rhs::Expr(Term::Var(finished)))
    };
    let tracked: Vec<_> = p
        .thread(t.thread)
        .transitions
        .iter()
        .map(|&i| p.transition(i))
        .collect();
    assert!(tracked.iter().any(|tr| reads(tr)));
    assert!(!p
        .transitions
        .iter()
        .any(|tr| tr.thread != t.thread && reads(tr)));
    // The comparison is made on the picked value by anonymous instances.
    let picked = t.machinery().any(|m| {
        p.transitions.iter().any(|tr| {
            let mut hit = false;
            tr.guard.for_each_var(&mut |w| hit |= w == m);
            hit
        })
    });
    assert!(picked);
}

#[test]
fn an_assumption_the_tracked_instance_breaks_is_an_error() {
    use engine::ir::{CmpOp, Cond, Term};
    use lowering::counter::{view_program, View};
    let (l, plain) = announce_view();
    let p = &plain.program;
    let t = &plain.tracked[0];
    let seen = var(p, "worker.1.seen");
    let finished = var(p, "finished");
    // The local state right after the read.
    let after = p
        .thread(t.thread)
        .transitions
        .iter()
        .map(|&i| p.transition(i))
        .find(|tr| tr.assigns.iter().any(|a| a.var == seen))
        .expect("the read")
        .to
        .index()
        - 1;
    let assume = |c: Cond| View {
        assumptions: vec![[(after, c)].into_iter().collect()],
    };
    // `seen < finished` is false right after the read: the tracked
    // instance violates it, an error of the view program.
    let wrong = view_program(
        &l,
        &assume(Cond::Cmp(CmpOp::Lt, Term::Var(seen), Term::Var(finished))),
    )
    .expect("a view program");
    assert!(matches!(search(&wrong.program), Verdict::Unsafe(_)));
    // `seen <= finished` holds: the error of the program itself needs
    // unboundedly many steps, the search finds none.
    let right = view_program(
        &l,
        &assume(Cond::Cmp(CmpOp::Le, Term::Var(seen), Term::Var(finished))),
    )
    .expect("a view program");
    assert!(!matches!(search(&right.program), Verdict::Unsafe(_)));
    // Assuming nothing, the picked values make an anonymous instance fail
    // the check: the abstraction without assumptions loses the proof.
    assert!(matches!(search(&plain.program), Verdict::Unsafe(_)));
}

#[test]
fn view_forms_count_the_instances_past_an_update() {
    let (_, v) = announce_view();
    let p = &v.program;
    let t = &v.tracked[0];
    let started = var(p, "started");
    let forms = v.view_forms();
    // `started - Σ n_σ` over the local states from the one after the
    // increment on (every instance there has incremented it once), and
    // its negation: an equality `started == Σ n_σ` among the candidates.
    let after: Vec<usize> = p
        .thread(t.thread)
        .transitions
        .iter()
        .map(|&i| p.transition(i))
        .filter(|tr| tr.assigns.iter().any(|a| a.var == started))
        .map(|tr| tr.to.index() - 1)
        .collect();
    assert!(!after.is_empty());
    let counts = |f: &Vec<(engine::ir::VarId, i64)>, sign: i64| {
        f.contains(&(started, sign))
            && f.iter()
                .filter(|(w, _)| *w != started)
                .all(|(w, k)| *k == -sign && t.counters.contains(w))
            && f.contains(&(t.counters[after[0]], -sign))
    };
    assert!(forms.iter().any(|f| counts(f, 1)));
    assert!(forms.iter().any(|f| counts(f, -1)));
    // No form mentions the picked values; the pending start only with
    // every counter (the instances started, [`spawn_forms_count_the_threads_a_loop_started`]).
    let picked: Vec<engine::ir::VarId> = t.picked.iter().flatten().copied().collect();
    assert!(forms
        .iter()
        .all(|f| f.iter().all(|(w, _)| !picked.contains(w))));
    assert!(forms
        .iter()
        .filter(|f| f.iter().any(|(w, _)| *w == t.start))
        .all(|f| t.counters.iter().all(|n| f.iter().any(|(w, _)| w == n))));
}

/// Workers started in a loop bounded by an input `k` (copied into the
/// shared `n`), which may lose each other's updates of `x`, and a checker
/// of `x <= n` (`tests-c`: threads_in_loop_lost_updates).
fn lost_updates() -> Lowered {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests-c/programs/threads_in_loop_lost_updates_safe.c");
    let text = std::fs::read_to_string(path).expect("the lost-updates program");
    lower("lost_updates", &text, 3)
}

/// The forms that count the instances a loop site started: the loop's
/// bound `k` (read by the spawn) and the checker's `n` (read by another
/// thread's guard), minus every counter and the pending start, both
/// signs; with them the relying inference proves `x <= n`.
#[test]
fn spawn_forms_count_the_threads_a_loop_started() {
    use lowering::counter::{view_program, View};
    let l = lost_updates();
    let v = view_program(&l, &View::default()).expect("a view program");
    let p = &v.program;
    let t = &v.tracked[0];
    let forms = v.view_forms();
    // The pending start holds 1 (the initial local state is the first).
    let started = |y: engine::ir::VarId, sign: i64| {
        forms.iter().any(|f| {
            f.len() == t.counters.len() + 2
                && f.contains(&(y, sign))
                && f.contains(&(t.start, -sign))
                && t.counters.iter().all(|&n| f.contains(&(n, -sign)))
        })
    };
    for name in ["main.k", "main.i", "n"] {
        let y = var(p, name);
        assert!(started(y, 1) && started(y, -1), "no spawn form of {name}");
    }
    if let Err(e) = relying_proof(&l) {
        panic!("no proof: {e}");
    }
}

/// The relying inference on the view program assuming nothing (the first
/// pass of `ase`'s view programs), with its forms and the limits `ase`
/// gives it: the view program and its invariant, or why it excludes no
/// error.
fn relying_proof(
    l: &Lowered,
) -> Result<
    (
        lowering::counter::CounterSystem,
        Vec<engine::certify::Invariant>,
    ),
    String,
> {
    use lowering::counter::{view_program, View};
    let v = view_program(l, &View::default()).expect("a view program");
    let forms = v.view_forms();
    let hints = engine::infer::Hints {
        forms: &forms,
        scratch: &v.scratch(),
        rely: &v.relies,
    };
    let limits = engine::infer::Limits {
        max_queries: 6_000,
        equality_vars: 24,
        pairs: false,
        counters: false,
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(240);
    let (invariants, excluded) =
        engine::infer::inductive(&v.program, Some(deadline), limits, hints).expect("inferred");
    excluded.map(|()| (v, invariants))
}

/// The ticket workers of `tests-c` (threads created in a loop that draw
/// tickets from a growing counter), and their buggy twin that draws and
/// increases in two critical sections.
fn ticket_workers(safe: bool) -> Lowered {
    let name = if safe { "safe" } else { "unsafe" };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../tests-c/programs/threads_in_loop_ticket_{name}.c"
    ));
    let text = std::fs::read_to_string(path).expect("the ticket program");
    lower(&format!("ticket_{name}"), &text, 3)
}

/// The proof by relying anonymous steps (`Rely`, `View::from_rely`): found
/// for the ticket workers and accepted by the independent checker; never
/// for the twin, whose bug the bounded search of the lowered program (the
/// concrete semantics with three workers) finds. The anonymous steps of the
/// waiting workers assume a ticket other than the tracked worker's.
#[test]
fn relying_steps_prove_the_ticket_workers_and_not_their_twin() {
    use engine::certify::{self, Evidence};
    use lowering::counter::{view_program, View};
    let bounded = |l: &Lowered| {
        let bounds = engine::explicit::Bounds {
            bound: 40,
            max_states: 300_000,
            partial_order: false,
        };
        engine::explicit::check(&l.errors_only(), &bounds, None).verdict
    };
    let safe = ticket_workers(true);
    assert!(!matches!(bounded(&safe), Verdict::Unsafe(_)));
    let (v, invariants) = relying_proof(&safe).unwrap_or_else(|e| panic!("no proof: {e}"));
    // A waiting worker's anonymous step: its picked ticket differs from
    // the tracked worker's.
    let p = &v.program;
    let my = var(p, "worker.1.my");
    let differs = p.transitions.iter().any(|tr| {
        let mut reads = false;
        tr.guard.for_each_var(&mut |w| reads |= w == my);
        reads && tr.thread != v.tracked[0].thread
    });
    assert!(differs, "no anonymous step compares tickets");
    let stated = view_program(&safe, &View::from_rely(&v, &invariants)).expect("a view program");
    let c = certify::certify(
        &stated.program,
        "ticket",
        engine::verdict::Proof::InferredInvariant,
        Evidence::Invariants(&invariants),
        Some(std::time::Duration::from_secs(240)),
    );
    assert!(c.certified(), "{:?}", c.reason());
    let twin = ticket_workers(false);
    assert!(matches!(bounded(&twin), Verdict::Unsafe(_)));
    assert!(relying_proof(&twin).is_err());
}
