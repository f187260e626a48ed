//! A seeded generator of small random pthread C programs, for the
//! differential test of the reduction (`reduction_differential.rs`).
//!
//! A program has 2–3 global ints with small initial values, 1–2 mutexes
//! (`PTHREAD_MUTEX_INITIALIZER`), 1–2 start routines and 1–3 worker
//! threads created by `main` (some joined, some created only after an
//! earlier one was joined), and bodies made of what the reduction reasons
//! about: reads, writes and increments of globals, under a lock, under
//! another lock, or under none (sometimes only one thread takes the lock);
//! thread-local variables; `if`/`else` on shared and local values;
//! `for` loops with two iterations; `while (__VERIFIER_nondet_int())`
//! loops whose bodies keep every value bounded (increments are saturated:
//! `if (x < 3) x = x + 1;`); nondeterministic inputs in `[0, 2]`
//! (`__VERIFIER_nondet_bool()`, sums of two of them, or
//! `__VERIFIER_nondet_int()`/`_uchar()` constrained by
//! `__VERIFIER_assume`); atomic sections (rarely nested with locks);
//! `pthread_mutex_trylock`; assumptions on shared values; `main` holding a
//! mutex while it creates the threads; rare misuses the lowering gives up
//! on (unlocking a mutex not held, a lock kept at a thread's end); and
//! assertions (`if (!(c)) reach_error();`) inside the threads and in `main`
//! after the joins. Every local is initialised and every loop is bounded or
//! keeps the state finite, so the exhaustive explicit search decides most
//! programs. The unreduced model cannot enumerate some inputs (an `int`
//! whose assumption is not in the guard right after the input, a
//! `while (__VERIFIER_nondet_int())`, an uninitialised local `pthread_t`):
//! those programs are only conclusive with the reduction.
//!
//! The same seed always gives the same program (SplitMix64, independent of
//! platform and library versions).

use std::fmt::Write as _;

/// SplitMix64.
pub struct Rng(u64);

impl Rng {
    /// A generator for one seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x005e_ed0f_c0de)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    /// True with probability `pct` percent.
    pub fn chance(&mut self, pct: u32) -> bool {
        self.below(100) < pct as usize
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Where a statement is generated.
#[derive(Clone, Default)]
struct Ctx {
    /// Mutexes held (indices).
    held: Vec<usize>,
    /// Inside an atomic section.
    atomic: bool,
    /// Inside a `while` loop: every write must keep values bounded.
    unbounded_loop: bool,
    /// Nesting depth of `for` loops (their counters are `i0`, `i1`).
    fors: usize,
    /// Nesting depth of compound statements.
    depth: usize,
    /// The function is `main`.
    main: bool,
}

/// One program being generated.
struct Gen {
    rng: Rng,
    globals: usize,
    mutexes: usize,
    /// Statements still allowed in the current function.
    budget: usize,
    /// Per mutex, a "discipline" for this program: globals it is meant to
    /// protect (so that some programs are well locked).
    guarded_by: Vec<Option<usize>>,
    out: String,
}

const LOCALS: usize = 2;
const OPS: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];

impl Gen {
    fn global(&mut self) -> String {
        format!("g{}", self.rng.below(self.globals))
    }

    fn local(&mut self) -> String {
        format!("l{}", self.rng.below(LOCALS))
    }

    fn var(&mut self) -> String {
        if self.rng.chance(65) {
            self.global()
        } else {
            self.local()
        }
    }

    fn small(&mut self) -> i64 {
        self.rng.range(0, 3)
    }

    fn atom(&mut self) -> String {
        let a = self.var();
        let op = *self.rng.pick(&OPS);
        let b = if self.rng.chance(60) {
            self.small().to_string()
        } else {
            self.var()
        };
        format!("{a} {op} {b}")
    }

    /// A condition for an assertion: weak comparisons, so that a good
    /// share of the programs are safe.
    fn claim(&mut self) -> String {
        let a = self.var();
        let atom = match self.rng.below(7) {
            0 => format!("{a} < {}", self.rng.range(2, 4)),
            1 => format!("{a} >= {}", self.rng.range(-2, 0)),
            2 => format!("{a} != {}", self.rng.range(2, 5)),
            3 => format!("{a} <= {} + {}", self.var(), self.rng.range(1, 3)),
            4 => format!("{a} == {}", self.var()),
            _ => self.atom(),
        };
        if self.rng.chance(20) {
            format!("{atom} || {}", self.atom())
        } else {
            atom
        }
    }

    fn cond(&mut self) -> String {
        match self.rng.below(10) {
            0 => format!("{} && {}", self.atom(), self.atom()),
            1 => format!("{} || {}", self.atom(), self.atom()),
            _ => self.atom(),
        }
    }

    /// A right-hand side that cannot grow without bound when repeated:
    /// a constant or a plain copy.
    fn bounded_rhs(&mut self) -> String {
        if self.rng.chance(50) {
            self.small().to_string()
        } else {
            self.var()
        }
    }

    fn rhs(&mut self, cx: &Ctx) -> String {
        if cx.unbounded_loop {
            return self.bounded_rhs();
        }
        match self.rng.below(6) {
            0 => self.small().to_string(),
            1 => self.var(),
            2 => format!("{} + {}", self.var(), self.rng.range(1, 2)),
            3 => format!("{} - {}", self.var(), self.rng.range(1, 2)),
            4 => format!("{} + {}", self.var(), self.var()),
            _ => format!("{} + 1", self.global()),
        }
    }

    fn line(&mut self, depth: usize, s: &str) {
        for _ in 0..depth + 1 {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// An increment of `x`, saturated inside unbounded loops.
    fn increment(&mut self, cx: &Ctx, x: &str) {
        let d = cx.depth;
        if cx.unbounded_loop {
            let bound = self.rng.range(1, 3);
            self.line(d, &format!("if ({x} < {bound}) {x} = {x} + 1;"));
        } else {
            let s = match self.rng.below(4) {
                0 => format!("{x}++;"),
                1 => format!("{x} += 1;"),
                2 => format!("{x} = {x} - 1;"),
                _ => format!("{x} = {x} + 1;"),
            };
            self.line(d, &s);
        }
    }

    /// A global the statement should touch, preferring one protected by a
    /// held mutex.
    fn target_global(&mut self, cx: &Ctx) -> String {
        for &m in &cx.held {
            if let Some(g) = self.guarded_by[m] {
                if self.rng.chance(70) {
                    return format!("g{g}");
                }
            }
        }
        self.global()
    }

    fn block(&mut self, cx: &Ctx, n: usize) {
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.stmt(cx);
        }
    }

    fn stmt(&mut self, cx: &Ctx) {
        self.budget = self.budget.saturating_sub(1);
        let d = cx.depth;
        let compound_ok = cx.depth < 2 && self.budget > 0;
        loop {
            match self.rng.below(22) {
                // Writes of globals.
                0..=2 => {
                    let x = self.target_global(cx);
                    let r = self.rhs(cx);
                    self.line(d, &format!("{x} = {r};"));
                }
                3..=4 => {
                    let x = self.target_global(cx);
                    self.increment(cx, &x);
                }
                // Thread-local work.
                5..=6 => {
                    let x = self.local();
                    let r = if self.rng.chance(60) {
                        self.target_global(cx)
                    } else {
                        self.rhs(cx)
                    };
                    self.line(d, &format!("{x} = {r};"));
                }
                7 => {
                    let x = self.local();
                    self.increment(cx, &x);
                }
                // A critical section.
                8..=10 if compound_ok && (!cx.atomic || self.rng.chance(15)) => {
                    let free: Vec<usize> =
                        (0..self.mutexes).filter(|m| !cx.held.contains(m)).collect();
                    if free.is_empty() {
                        continue;
                    }
                    let m = *self.rng.pick(&free);
                    let mut inner = cx.clone();
                    inner.held.push(m);
                    if self.rng.chance(15) {
                        // trylock
                        self.line(d, &format!("if (pthread_mutex_trylock(&m{m}) == 0) {{"));
                        inner.depth += 1;
                        let n = self.rng.range(1, 3) as usize;
                        self.block(&inner, n);
                        self.line(d + 1, &format!("pthread_mutex_unlock(&m{m});"));
                        if self.rng.chance(40) {
                            self.line(d, "} else {");
                            let mut other = cx.clone();
                            other.depth += 1;
                            self.block(&other, 1);
                        }
                        self.line(d, "}");
                    } else {
                        self.line(d, &format!("pthread_mutex_lock(&m{m});"));
                        let n = self.rng.range(1, 3) as usize;
                        self.block(&inner, n);
                        // Rarely, the lock stays held (at the thread's end,
                        // others block on it).
                        if cx.main || !self.rng.chance(3) {
                            self.line(d, &format!("pthread_mutex_unlock(&m{m});"));
                        }
                    }
                }
                // An atomic section.
                11 if compound_ok
                    && !cx.atomic
                    && (cx.held.is_empty() || self.rng.chance(30))
                    && self.rng.chance(50) =>
                {
                    self.line(d, "__VERIFIER_atomic_begin();");
                    let mut inner = cx.clone();
                    inner.atomic = true;
                    let n = self.rng.range(1, 3) as usize;
                    self.block(&inner, n);
                    self.line(d, "__VERIFIER_atomic_end();");
                }
                // Branches.
                12..=13 if compound_ok => {
                    let c = self.cond();
                    self.line(d, &format!("if ({c}) {{"));
                    let mut inner = cx.clone();
                    inner.depth += 1;
                    let n = self.rng.range(1, 2) as usize;
                    self.block(&inner, n);
                    if self.rng.chance(50) {
                        self.line(d, "} else {");
                        self.block(&inner, 1);
                    }
                    self.line(d, "}");
                }
                // Loops.
                14 if compound_ok && cx.fors < 2 => {
                    let i = cx.fors;
                    self.line(d, &format!("for (i{i} = 0; i{i} < 2; i{i}++) {{"));
                    let mut inner = cx.clone();
                    inner.depth += 1;
                    inner.fors += 1;
                    let n = self.rng.range(1, 2) as usize;
                    self.block(&inner, n);
                    self.line(d, "}");
                }
                15 if compound_ok && !cx.unbounded_loop && cx.fors == 0 && !cx.atomic => {
                    let mut inner = cx.clone();
                    inner.depth += 1;
                    inner.unbounded_loop = true;
                    match self.rng.below(20) {
                        0..=14 => self.line(d, "while (__VERIFIER_nondet_bool()) {"),
                        // An unconstrained input: the unreduced model can
                        // only sample it, the reduced one removes it.
                        15..=17 => self.line(d, "while (__VERIFIER_nondet_int()) {"),
                        _ => {
                            // The same loop with a constrained input.
                            self.line(d, "n0 = __VERIFIER_nondet_int();");
                            self.line(d, "__VERIFIER_assume(0 <= n0 && n0 <= 1);");
                            self.line(d, "while (n0) {");
                            self.line(d + 1, "n0 = __VERIFIER_nondet_int();");
                            self.line(d + 1, "__VERIFIER_assume(0 <= n0 && n0 <= 1);");
                        }
                    }
                    let n = self.rng.range(1, 2) as usize;
                    self.block(&inner, n);
                    self.line(d, "}");
                }
                // A constrained input.
                16 if !cx.unbounded_loop => {
                    // The explicit search enumerates an input when its range
                    // is small: a `_Bool`, an `unsigned char`, or an `int`
                    // whose assumption ends up in the guard right after it.
                    let x = self.local();
                    let hi = self.rng.range(1, 2);
                    match self.rng.below(20) {
                        0..=10 => self.line(d, &format!("{x} = __VERIFIER_nondet_bool();")),
                        11..=15 => self.line(
                            d,
                            &format!("{x} = __VERIFIER_nondet_bool() + __VERIFIER_nondet_bool();"),
                        ),
                        16 => {
                            self.line(d, &format!("{x} = __VERIFIER_nondet_uchar();"));
                            self.line(d, &format!("__VERIFIER_assume({x} <= {hi});"));
                        }
                        _ => {
                            self.line(d, &format!("{x} = __VERIFIER_nondet_int();"));
                            self.line(d, &format!("__VERIFIER_assume(0 <= {x} && {x} <= {hi});"));
                        }
                    }
                }
                // An assertion.
                17 => {
                    let c = self.claim();
                    self.line(d, &format!("if (!({c})) reach_error();"));
                }
                // An assumption on a shared value (may block).
                19 if self.rng.chance(30) => {
                    let c = self.atom();
                    self.line(d, &format!("__VERIFIER_assume({c});"));
                }
                // A conditional write of a global from a local.
                18 | 20 => {
                    let c = self.atom();
                    let x = self.target_global(cx);
                    let l = self.local();
                    self.line(d, &format!("if ({c}) {x} = {l};"));
                }
                21 if !cx.main && !cx.atomic && cx.depth > 0 && self.rng.chance(20) => {
                    self.line(d, "return 0;");
                }
                // Rarely, a misuse the lowering gives up on: unlocking a
                // mutex the thread does not hold.
                21 if cx.held.is_empty() && !cx.atomic && self.rng.chance(4) => {
                    let m = self.rng.below(self.mutexes);
                    self.line(d, &format!("pthread_mutex_unlock(&m{m});"));
                }
                _ => continue,
            }
            break;
        }
    }
}

/// The program for one seed.
pub fn program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let globals = rng.range(2, 3) as usize;
    let mutexes = rng.range(1, 2) as usize;
    let routines = rng.range(1, 2) as usize;
    let threads = rng.range(1, 3) as usize;
    let mut guarded_by = Vec::new();
    for _ in 0..mutexes {
        guarded_by.push(if rng.chance(70) {
            Some(rng.below(globals))
        } else {
            None
        });
    }
    let mut g = Gen {
        rng,
        globals,
        mutexes,
        budget: 0,
        guarded_by,
        out: String::new(),
    };
    let _ = writeln!(g.out, "// generated by lowering/tests/gen_c (seed {seed})");
    g.out.push_str(
        "#include <pthread.h>\n\
         extern void reach_error(void);\n\
         extern int __VERIFIER_nondet_int(void);\n\
         extern _Bool __VERIFIER_nondet_bool(void);\n\
         extern unsigned char __VERIFIER_nondet_uchar(void);\n\
         extern void __VERIFIER_assume(int);\n\
         extern void __VERIFIER_atomic_begin(void);\n\
         extern void __VERIFIER_atomic_end(void);\n\n",
    );
    for k in 0..globals {
        let init = if g.rng.chance(60) {
            0
        } else {
            g.rng.range(1, 2)
        };
        let _ = writeln!(g.out, "int g{k} = {init};");
    }
    // Thread handles: globals (zero-initialised) or, sometimes, locals of
    // `main` (an uninitialised handle is an input of a large range, which
    // only the reduced model's constant propagation removes).
    let global_handles = g.rng.chance(90);
    let handles: Vec<String> = (0..threads).map(|t| format!("t{t}")).collect();
    if global_handles {
        let _ = writeln!(g.out, "pthread_t {};", handles.join(", "));
    }
    for m in 0..mutexes {
        let _ = writeln!(g.out, "pthread_mutex_t m{m} = PTHREAD_MUTEX_INITIALIZER;");
    }
    g.out.push('\n');
    // Thread budgets: fewer statements with more threads.
    let per_thread = match threads {
        1 => 7,
        2 => 5,
        _ => 4,
    };
    for r in 0..routines {
        let _ = writeln!(g.out, "void *worker{r}(void *arg) {{");
        locals(&mut g);
        g.budget = g.rng.range(2, per_thread) as usize;
        let cx = Ctx::default();
        while g.budget > 0 {
            g.stmt(&cx);
        }
        g.out.push_str("  return 0;\n}\n\n");
    }
    g.out.push_str("int main(void) {\n");
    if !global_handles {
        let _ = writeln!(g.out, "  pthread_t {};", handles.join(", "));
    }
    locals(&mut g);
    let cx = Ctx {
        main: true,
        ..Ctx::default()
    };
    // Before the threads: main runs alone.
    g.budget = g.rng.below(3);
    g.block(&cx, 2);
    // Sometimes main holds a mutex while it creates the threads.
    let held_over_creation = g.rng.chance(15).then(|| g.rng.below(mutexes));
    if let Some(m) = held_over_creation {
        let _ = writeln!(g.out, "  pthread_mutex_lock(&m{m});");
    }
    let mut joined = vec![false; threads];
    for (t, done) in joined.iter_mut().enumerate() {
        let r = g.rng.below(routines);
        let _ = writeln!(g.out, "  pthread_create(&t{t}, 0, worker{r}, 0);");
        // Sometimes join at once (main alone again), or work concurrently.
        if g.rng.chance(20) {
            let _ = writeln!(g.out, "  pthread_join(t{t}, 0);");
            *done = true;
            g.budget = g.rng.below(2);
            let creating = Ctx {
                held: held_over_creation.into_iter().collect(),
                ..cx.clone()
            };
            g.block(&creating, 1);
        }
    }
    let unlock_first = g.rng.chance(50);
    let unlock = |g: &mut Gen| {
        if let Some(m) = held_over_creation {
            let _ = writeln!(g.out, "  pthread_mutex_unlock(&m{m});");
        }
    };
    if unlock_first {
        unlock(&mut g);
    }
    g.budget = if g.rng.chance(50) {
        g.rng.range(1, 2) as usize
    } else {
        0
    };
    let concurrent = Ctx {
        held: (!unlock_first)
            .then_some(held_over_creation)
            .flatten()
            .into_iter()
            .collect(),
        ..cx.clone()
    };
    g.block(&concurrent, 2);
    if !unlock_first {
        unlock(&mut g);
    }
    let join_all = g.rng.chance(60);
    for (t, done) in joined.iter().enumerate() {
        if !done && (join_all || g.rng.chance(50)) {
            let _ = writeln!(g.out, "  pthread_join(t{t}, 0);");
        }
    }
    let asserts = if g.rng.chance(30) { 2 } else { 1 };
    for _ in 0..asserts {
        let c = g.claim();
        let _ = writeln!(g.out, "  if (!({c})) reach_error();");
    }
    g.out.push_str("  return 0;\n}\n");
    g.out
}

fn locals(g: &mut Gen) {
    let inits: Vec<String> = (0..LOCALS)
        .map(|k| format!("l{k} = {}", g.rng.range(0, 1)))
        .collect();
    let _ = writeln!(g.out, "  int {}, i0 = 0, i1 = 0, n0 = 0;", inits.join(", "));
}
