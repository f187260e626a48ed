//! Randomized differential test of the counter abstraction's deadlock
//! condition (`lowering::counter`, SOUNDNESS.md "Deadlocks of threads
//! created in loops") and race condition ("Data races", *Threads created
//! in loops*) against the bounded program.
//!
//! Each generated program starts workers in a loop. For deadlocks, the
//! workers and `main` take mutexes in orders that depend on the worker's
//! argument, leave some held, wait on a semaphore or a condition variable,
//! post and signal, and `main` may join the workers; for races, they read
//! and write shared cells with and without a mutex, the workers' accesses
//! depending on their argument, and `main`'s before or after joining them.
//! Each is lowered with the property checked and two instances per loop
//! site, and its counter system is searched with saturated counters, then
//! given to the inference of invariants. When either proves the counter
//! system free of the property's errors, the exhaustive search of the
//! bounded program (its first instances one by one) must not reach one: an
//! error there is an error of the program for some number of threads,
//! which the proof claims to cover. Searches that give up are counted,
//! never a failure.
//!
//! ```text
//! cargo test --release -p ase-lowering --test counter_differential -- --nocapture
//! ASE_COUNTER_DIFF_N=5000 ASE_COUNTER_DIFF_SEED=1000000 cargo test --release \
//!     -p ase-lowering --test counter_differential -- --ignored --nocapture
//! ```

#[allow(dead_code)] // the program generator of the other differential tests
mod gen_c;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use engine::explicit::{self, Bounds};
use engine::verdict::Verdict;
use gen_c::Rng;
use lowering::{Checks, Options, TraceEnd};

/// Programs checked by the default test.
const DEFAULT_N: u64 = 60;
/// Time one search may take.
const TIMEOUT: Duration = Duration::from_secs(2);

const MUTEXES: usize = 3;

/// A program whose workers are started in a loop.
fn program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut text = String::from(
        "#include <pthread.h>\n#include <semaphore.h>\n\
         extern _Bool __VERIFIER_nondet_bool(void);\n",
    );
    for k in 0..MUTEXES {
        writeln!(text, "pthread_mutex_t m{k} = PTHREAD_MUTEX_INITIALIZER;").unwrap();
    }
    text.push_str(
        "pthread_cond_t c = PTHREAD_COND_INITIALIZER;\nint flag = 0;\nint g = 0;\nsem_t s;\n",
    );
    text.push_str("void *worker(void *arg) {\n  int id = (int)(long)arg;\n");
    body(&mut rng, &mut text, true);
    text.push_str("  return 0;\n}\n");
    // Loops of few iterations are unrolled: this one is not.
    let n = 100;
    writeln!(text, "int main(void) {{\n  pthread_t ids[{n}];").unwrap();
    let permits = [0, 1, 1000][rng.below(3)];
    writeln!(text, "  sem_init(&s, 0, {permits});").unwrap();
    if rng.chance(30) {
        body(&mut rng, &mut text, false);
    }
    create_loop(&mut rng, &mut text, n);
    body(&mut rng, &mut text, false);
    if rng.chance(50) {
        writeln!(
            text,
            "  for (int i = 0; i < {n}; i++) pthread_join(ids[i], 0);"
        )
        .unwrap();
        body(&mut rng, &mut text, false);
    }
    text.push_str("  return 0;\n}\n");
    text
}

/// The loop that starts `n` workers, their arguments making them differ
/// (without the quotient of a division as an input).
fn create_loop(rng: &mut Rng, text: &mut String, n: usize) {
    let arg = if rng.chance(50) {
        "__VERIFIER_nondet_bool()"
    } else {
        "i < 1"
    };
    writeln!(
        text,
        "  for (int i = 0; i < {n}; i++)\n    pthread_create(&ids[i], 0, worker, (void *)(long)({arg}));"
    )
    .unwrap();
}

/// A few blocking operations; a worker's may depend on its `id`.
fn body(rng: &mut Rng, text: &mut String, worker: bool) {
    let mut held: Vec<usize> = Vec::new();
    for _ in 0..rng.range(1, 4) {
        let lock = |k: usize| format!("pthread_mutex_lock(&m{k});");
        let unlock = |k: usize| format!("pthread_mutex_unlock(&m{k});");
        match rng.below(8) {
            0 | 1 => {
                let k = rng.below(MUTEXES);
                if !held.contains(&k) {
                    writeln!(text, "  {}", lock(k)).unwrap();
                    held.push(k);
                }
            }
            2 => {
                if let Some(k) = held.pop() {
                    writeln!(text, "  {}", unlock(k)).unwrap();
                }
            }
            3 if worker && held.is_empty() => {
                // Two mutexes in an order that depends on the worker.
                let a = rng.below(MUTEXES);
                let b = (a + 1 + rng.below(MUTEXES - 1)) % MUTEXES;
                let (first, second) = if rng.chance(50) { (a, b) } else { (b, a) };
                writeln!(
                    text,
                    "  if (id) {{ {} {} }} else {{ {} {} }}\n  g = g + 1;\n  {} {}",
                    lock(a),
                    lock(b),
                    lock(first),
                    lock(second),
                    unlock(b),
                    unlock(a)
                )
                .unwrap();
            }
            4 => text.push_str("  sem_wait(&s);\n"),
            5 => text.push_str("  sem_post(&s);\n"),
            6 if held.is_empty() => {
                let wait = if rng.chance(50) { "while" } else { "if" };
                writeln!(
                    text,
                    "  pthread_mutex_lock(&m0);\n  {wait} (!flag) pthread_cond_wait(&c, &m0);\n  \
                     pthread_mutex_unlock(&m0);"
                )
                .unwrap();
            }
            7 if held.is_empty() => {
                let wake = if rng.chance(50) {
                    "signal"
                } else {
                    "broadcast"
                };
                writeln!(
                    text,
                    "  pthread_mutex_lock(&m0);\n  flag = 1;\n  pthread_cond_{wake}(&c);\n  \
                     pthread_mutex_unlock(&m0);"
                )
                .unwrap();
            }
            _ => text.push_str("  g = g + 1;\n"),
        }
    }
    // Most of the time, release what is held.
    if rng.chance(80) {
        while let Some(k) = held.pop() {
            writeln!(text, "  pthread_mutex_unlock(&m{k});").unwrap();
        }
    }
}

/// A program whose workers, started in a loop, race on shared cells or
/// not: each access is under the mutex or not, a worker's may depend on
/// its argument, `main`'s come before or after the join loop.
fn race_program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut text = String::from(
        "#include <pthread.h>\nextern _Bool __VERIFIER_nondet_bool(void);\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint g = 0;\nint h = 0;\n",
    );
    // The argument is tested as a pointer: a conversion to `int` would be
    // an input of the counter system, which the saturated search samples
    // (and then gives up).
    text.push_str("void *worker(void *arg) {\n  int t = 0;\n");
    for _ in 0..rng.range(1, 4) {
        let access = race_access(&mut rng);
        match rng.below(3) {
            0 => writeln!(text, "  if (arg) {{ {access} }}").unwrap(),
            _ => writeln!(text, "  {access}").unwrap(),
        }
    }
    text.push_str("  return 0;\n}\n");
    let n = 100;
    writeln!(
        text,
        "int main(void) {{\n  pthread_t ids[{n}];\n  int t = 0;"
    )
    .unwrap();
    create_loop(&mut rng, &mut text, n);
    if rng.chance(40) {
        writeln!(text, "  {}", race_access(&mut rng)).unwrap();
    }
    if rng.chance(70) {
        writeln!(
            text,
            "  for (int i = 0; i < {n}; i++) pthread_join(ids[i], 0);"
        )
        .unwrap();
    }
    if rng.chance(60) {
        writeln!(text, "  {}", race_access(&mut rng)).unwrap();
    }
    text.push_str("  return 0;\n}\n");
    text
}

/// A read or a write of `g` or `h`, under the mutex or not.
fn race_access(rng: &mut Rng) -> String {
    let cell = ["g", "h"][rng.below(2)];
    let access = match rng.below(3) {
        0 => format!("t = {cell};"),
        1 => format!("{cell} = 1;"),
        _ => format!("{cell} = {cell} + 1;"),
    };
    if rng.chance(50) {
        format!("pthread_mutex_lock(&m); {access} pthread_mutex_unlock(&m);")
    } else {
        access
    }
}

/// The property a differential run checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Property {
    Deadlocks,
    Races,
}

#[derive(Debug, Default)]
struct Counts {
    /// No counter system (a reason of the abstraction's).
    not_applicable: u64,
    /// The counter system proved free of the property's errors, and the
    /// bounded search found none.
    proved: u64,
    /// The counter system's search reached its error condition (for the
    /// bounded search: an error, or none).
    not_proved: u64,
    /// The bounded search reached an error of the property.
    errors: u64,
    /// A search gave up.
    unknown: u64,
    disagreements: Vec<u64>,
}

/// Lowers and checks one program.
fn check_one(seed: u64, property: Property, counts: &mut Counts) {
    let text = match property {
        Property::Deadlocks => program(seed),
        Property::Races => race_program(seed),
    };
    if std::env::var_os("ASE_COUNTER_DIFF_TEXT").is_some() {
        eprintln!("seed {seed}:\n{text}");
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("counter_differential");
    std::fs::create_dir_all(&dir).expect("temp dir");
    // One file per property: the two tests run side by side.
    let path = dir.join(format!("{property:?}_seed_{seed}.c"));
    std::fs::write(&path, &text).expect("write program");
    let unit = frontend::parse_file(&path, &frontend::Options::default())
        .unwrap_or_else(|e| panic!("seed {seed}: the frontend rejects\n{text}\n{e}"));
    let _ = std::fs::remove_file(&path);
    let options = Options {
        instances: 2,
        checks: match property {
            Property::Deadlocks => Checks::DEADLOCKS,
            Property::Races => Checks {
                assertions: false,
                races: true,
                ..Checks::ASSERTIONS
            },
        },
        ..Options::default()
    };
    let Ok(lowered) = lowering::lower_with(&unit, &options) else {
        counts.not_applicable += 1;
        return;
    };
    // Bugs only: the bounded program gives up where a site would start a
    // third instance.
    let bugs = lowered.errors_only();
    let bounded = explicit::prove(
        &bugs,
        &Bounds {
            bound: 3,
            max_states: 500_000,
            partial_order: false,
        },
        Some(Instant::now() + TIMEOUT),
    );
    let error = match &bounded.verdict {
        Verdict::Unsafe(trace) => {
            let last = trace.last_state();
            // A thread at a give-up location stands for more steps the
            // bounded program does not make (a wake-up, a release).
            let cut = lowered
                .give_ups
                .iter()
                .any(|(t, l, _)| last.locs.get(t.index()) == Some(l));
            if cut {
                if std::env::var_os("ASE_COUNTER_DIFF_SHOW").is_some() {
                    eprintln!("seed {seed}: bounded: cut");
                }
                counts.unknown += 1;
                return;
            }
            matches!(
                (property, lowered.trace_end(last)),
                (Property::Deadlocks, TraceEnd::Deadlock(_))
                    | (Property::Races, TraceEnd::Race(..))
            )
        }
        Verdict::Safe(_) => false,
        Verdict::Unknown(why) => {
            if std::env::var_os("ASE_COUNTER_DIFF_SHOW").is_some() {
                eprintln!("seed {seed}: bounded: {}", why.detail);
            }
            counts.unknown += 1;
            return;
        }
    };
    counts.errors += u64::from(error);
    // As `ase` searches it: shared variables set from their own values
    // forgotten.
    let growing = lowering::counter::self_updated_shared(&lowered);
    let forgotten = lowering::Lowered {
        program: lowering::counter::forget(&lowered.program, &growing),
        ..lowered.clone()
    };
    let system = match lowering::counter::counter_system(&forgotten) {
        Ok(system) => system,
        Err(e) => {
            if std::env::var_os("ASE_COUNTER_DIFF_SHOW").is_some() {
                eprintln!("seed {seed}: {e}");
            }
            counts.not_applicable += 1;
            return;
        }
    };
    if std::env::var_os("ASE_COUNTER_DIFF_TEXT").is_some() {
        eprintln!("{}", engine::print::print_program(&system.program));
    }
    let Ok(saturation) = engine::saturate::Saturation::new(&system.program, &system.counters, 2)
    else {
        counts.not_applicable += 1;
        return;
    };
    let bounds = Bounds {
        bound: 8,
        max_states: 100_000,
        partial_order: false,
    };
    let deadline = Some(Instant::now() + TIMEOUT);
    let (mut outcome, _) =
        explicit::prove_saturated(&system.program, &saturation, &bounds, deadline);
    if !matches!(outcome.verdict, Verdict::Safe(_)) {
        // Inferred invariants, as `ase` tries next.
        let deadline = Some(Instant::now() + TIMEOUT);
        let inferred = engine::infer::prove(&system.program, deadline, None).outcome;
        if matches!(inferred.verdict, Verdict::Safe(_)) {
            outcome = inferred;
        }
    }
    match outcome.verdict {
        Verdict::Safe(_) if error => {
            eprintln!(
                "seed {seed}: the counter system is proved free of {property:?}, but the bounded \
                 program has one\n{text}"
            );
            counts.disagreements.push(seed);
        }
        Verdict::Safe(_) => counts.proved += 1,
        Verdict::Unsafe(_) => counts.not_proved += 1,
        Verdict::Unknown(why) => {
            if std::env::var_os("ASE_COUNTER_DIFF_SHOW").is_some() {
                eprintln!(
                    "seed {seed}: counters: {} (bounded error: {error})",
                    why.detail
                );
            }
            counts.unknown += 1;
        }
    }
}

fn run(property: Property, first: u64, n: u64) {
    let mut counts = Counts::default();
    for seed in first..first + n {
        check_one(seed, property, &mut counts);
    }
    eprintln!("{property:?}: {n} programs from seed {first}: {counts:?}");
    assert!(
        counts.disagreements.is_empty(),
        "proved free of {property:?} by the counter system, not when bounded: {:?}",
        counts.disagreements
    );
    // The test can fail: it proves some programs and finds errors in
    // others.
    assert!(counts.proved > 0 && counts.errors > 0, "{counts:?}");
}

/// A long run's first seed and number of programs, from the environment.
fn long_run() -> (u64, u64) {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    (
        env("ASE_COUNTER_DIFF_SEED", 1_000_000),
        env("ASE_COUNTER_DIFF_N", 5_000),
    )
}

#[test]
fn counter_proofs_of_deadlock_freedom_hold_for_the_bounded_program() {
    run(Property::Deadlocks, 0, DEFAULT_N);
}

#[test]
fn counter_proofs_of_race_freedom_hold_for_the_bounded_program() {
    run(Property::Races, 0, DEFAULT_N);
}

#[test]
#[ignore]
fn counter_proofs_of_deadlock_freedom_long_run() {
    let (first, n) = long_run();
    run(Property::Deadlocks, first, n);
}

#[test]
#[ignore]
fn counter_proofs_of_race_freedom_long_run() {
    let (first, n) = long_run();
    run(Property::Races, first, n);
}
