//! Bounded model checking: a symbolic search for error traces of bounded
//! length, a bug finder that never proves anything.
//!
//! The explicit search samples inputs it cannot enumerate in a small range,
//! and ASE may get lost refining predicates; a bug that needs particular
//! input values (two threads that each pass a check with an amount above a
//! threshold of a 32-bit range) escapes both. Here the inputs are symbolic:
//! the program's interleavings are unrolled for `k` steps as one Z3
//! formula, and a model of "an error state after exactly `k` steps" gives
//! the initial values, the transition of every step and every input value.
//!
//! **Encoding.** Every step `i` has a copy of the variables (`v_i[x]`) and
//! of the thread locations (`l_i[t]`, integers), and one selector `s_i[j]`
//! per transition, defined by the bits of the step's choice so that exactly
//! one holds (one transition of one thread per step: the IR's interleaving
//! semantics) without a quadratic at-most-one constraint. Step `i` asserts,
//! for every transition `j` of thread `t`,
//! `s_i[j] ⇒ l_i[t] = from ∧ guard_i ∧ l_{i+1}[t] = to ∧ v_{i+1}[x] = e_i`
//! for each `x := e`; a variable keeps its value unless one of its writers
//! is selected, and so does the location of every thread none of whose
//! transitions is. An input `x := *` leaves `v_{i+1}[x]` unconstrained: its
//! value in the model is the input. Terms are mathematical integers as in
//! the interpreter (`interp.rs`): wrap-around is explicit in the lowered
//! program, and [`term`] is the one place that turns an IR term into Z3.
//!
//! **Partial-order reduction.** Two transitions of different threads are
//! independent when neither writes a variable the other reads or writes and
//! neither guard reads the other's thread location: taken one after the
//! other, they can be swapped and reach the same state. A step of thread
//! `t` directly after an independent step of a thread `u > t` is excluded;
//! swapping such neighbours (a bubble sort towards ascending threads) turns
//! every execution into an allowed one of the same length and final state,
//! so no error state is lost at any depth and shortest traces stay
//! shortest. Without it the unsatisfiable depths cost time exponential in
//! the number of steps of independent threads.
//!
//! **Search.** One incremental solver: the initial state and then one step
//! after another are asserted for good; after each, "the error holds in the
//! last state" is checked in a scope of its own. The depths are tried in
//! order `0, 1, 2, ...`, so the first trace found is a shortest one. At
//! depths that are powers of two the solver is also asked whether any
//! execution of that length exists; when none does, every execution ends
//! earlier and all of them have been searched: the run stops.
//!
//! **Answers.** `unsafe` only with a trace that the interpreter has
//! replayed ([`Trace::execute`]) and whose last state satisfies the target
//! (a model that does not replay is an internal error, answered `unknown`);
//! otherwise `unknown` ("no error within k steps"). Never `safe`: not even
//! when every execution ends within the bound (SOUNDNESS.md).
//!
//! **Target.** [`Config::target`] restricts the error states looked for:
//! the C front end's error condition also holds at *give-up* locations
//! (behaviour that is not modelled), where a trace is no bug; the portfolio
//! passes "some thread called `reach_error()`" so that a give-up state is
//! never the goal.

use crate::interp::{self, RunError};
use crate::ir::{CmpOp, Cond, LocId, NlOp, Program, Rhs, Term, ThreadId, TransId};
use crate::smt::{Smt, SmtError, Space};
use crate::verdict::{Limit, Outcome, Stats, Trace, Unknown, UnknownKind, Verdict};
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use z3::ast::{Array, Bool, Int, BV};
use z3::Sort;

/// The depth limit of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The most steps of a trace looked for.
    pub max_depth: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// The depth limit unless one is given: in practice the deadline ends the
/// search first.
pub const DEFAULT_MAX_DEPTH: usize = 1000;

/// What one search runs with.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The depth limit.
    pub bounds: Bounds,
    /// When to stop (with `unknown`).
    pub deadline: Option<Instant>,
    /// Set from another thread to stop early (with `unknown`, or with a
    /// trace already found and replayed).
    pub cancel: Option<&'static AtomicBool>,
    /// The error states that count as bugs: only states satisfying both the
    /// program's error condition and this are looked for (`None`: every
    /// error state).
    pub target: Option<Cond>,
}

/// Searches for an error trace of at most `config.bounds.max_depth` steps.
/// Answers `unsafe` (a shortest trace, replayed by the interpreter) or
/// `unknown`; never `safe`.
pub fn check(program: &Program, config: &Config) -> Outcome {
    let start = Instant::now();
    let mut smt = Smt::new(config.deadline);
    smt.cancel = config.cancel;
    let mut stats = Stats::default();
    let mut search = Search::new(program, &mut smt);
    let verdict = match search.run(config, &mut stats) {
        Ok(v) => v,
        Err(SmtError::Timeout) => {
            let cancelled = config
                .cancel
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst));
            let (why, limit) = if cancelled {
                ("cancelled", Limit::Cancelled)
            } else {
                ("time limit reached", Limit::Time)
            };
            Verdict::unknown(
                UnknownKind::Budget(limit),
                format!("{why} ({})", no_error_within(search.searched)),
            )
        }
        Err(e) => Verdict::Unknown(
            Unknown::from(e).map(|d| format!("{d} ({})", no_error_within(search.searched))),
        ),
    };
    stats.prover_queries = smt.queries;
    stats.time = start.elapsed();
    Outcome { verdict, stats }
}

fn no_error_within(searched: Option<usize>) -> String {
    match searched {
        None => "no depth searched".into(),
        Some(k) => format!("no error within {k} step{}", if k == 1 { "" } else { "s" }),
    }
}

/// The Z3 constants of one state.
pub(crate) struct Frame {
    pub(crate) vars: Vec<Int>,
    pub(crate) locs: Vec<Int>,
    /// One array from the integers to the integers per program array
    /// (empty for the engines that take no arrays).
    pub(crate) arrays: Vec<Array>,
}

/// The unrolling under construction.
struct Search<'a> {
    program: &'a Program,
    smt: &'a mut Smt,
    /// The states of the unrolling so far (`frames.len() - 1` steps).
    frames: Vec<Frame>,
    /// The transition selectors of each step.
    selectors: Vec<Vec<Bool>>,
    /// The deepest depth whose error query was unsatisfiable.
    searched: Option<usize>,
    /// Per variable: the transitions that assign it.
    writers: Vec<Vec<TransId>>,
    /// Per transition `j` and thread `u` above `j`'s thread: `u`'s
    /// transitions that do not commute with `j` ([`dependencies`]).
    dependent: Vec<Vec<(usize, Vec<usize>)>>,
}

impl<'a> Search<'a> {
    fn new(program: &'a Program, smt: &'a mut Smt) -> Search<'a> {
        let mut writers = vec![Vec::new(); program.vars.len()];
        for (j, tr) in program.transitions.iter().enumerate() {
            for a in &tr.assigns {
                writers[a.var.index()].push(TransId::new(j));
            }
        }
        Search {
            program,
            dependent: dependencies(program),
            smt,
            frames: Vec::new(),
            selectors: Vec::new(),
            searched: None,
            writers,
        }
    }

    /// Symbols per step: the variables and the locations.
    fn stride(&self) -> u32 {
        (self.program.vars.len() + self.program.threads.len()) as u32
    }

    fn frame(&mut self, i: usize) -> Frame {
        let (n, m) = (self.program.vars.len(), self.program.threads.len());
        let base = i as u32 * self.stride();
        Frame {
            vars: (0..n as u32)
                .map(|x| self.smt.constant(Space::Symbolic, base + x))
                .collect(),
            locs: (0..m as u32)
                .map(|t| self.smt.constant(Space::Symbolic, base + n as u32 + t))
                .collect(),
            // Set by `run` (the initial contents) and `unroll` (terms of
            // the previous step's).
            arrays: Vec::new(),
        }
    }

    /// The selectors of step `i`: one per transition, defined by the bits
    /// of the step's choice (binary: exactly one selector holds, without a
    /// quadratic at-most-one constraint), and the constraints defining them.
    fn selectors(&mut self, i: usize) -> (Vec<Bool>, Vec<Bool>) {
        let m = self.program.transitions.len();
        let width = usize::BITS - (m.max(2) - 1).leading_zeros();
        let bits: Vec<Bool> = (0..width)
            .map(|b| Bool::new_const(format!("bmc.c{i}.{b}")))
            .collect();
        let mut defs = Vec::with_capacity(m + 1);
        let sel: Vec<Bool> = (0..m)
            .map(|j| {
                let s = Bool::new_const(format!("bmc.s{i}.{j}"));
                let code: Vec<Bool> = bits
                    .iter()
                    .enumerate()
                    .map(|(b, bit)| {
                        if j >> b & 1 == 1 {
                            bit.clone()
                        } else {
                            bit.not()
                        }
                    })
                    .collect();
                defs.push(s.eq(Bool::and(&code)));
                s
            })
            .collect();
        // A code beyond the last transition selects nothing: excluded.
        defs.push(Bool::or(&sel));
        (sel, defs)
    }

    fn run(&mut self, config: &Config, stats: &mut Stats) -> Result<Verdict, SmtError> {
        let p = self.program;
        let first = self.frame(0);
        for (x, d) in p.vars.iter().enumerate() {
            if let Some(k) = d.init {
                self.smt.assert(&first.vars[x].eq(Int::from_i64(k)));
            }
        }
        let mut first = first;
        first.arrays = (p.arrays.iter().enumerate())
            .map(|(x, d)| match d.init {
                Some(k) => Array::const_array(&Sort::int(), &Int::from_i64(k)),
                None => Array::new_const(format!("bmc.a{x}"), &Sort::int(), &Sort::int()),
            })
            .collect();
        for (t, th) in p.threads.iter().enumerate() {
            self.smt
                .assert(&first.locs[t].eq(Int::from_u64(th.initial.0.into())));
        }
        for c in &p.init {
            self.smt.assert(&cond(c, &first));
        }
        self.frames.push(first);
        let target = match &config.target {
            Some(t) => Cond::And(Box::new(p.error_cond()), Box::new(t.clone())),
            None => p.error_cond(),
        };
        for k in 0..=config.bounds.max_depth {
            stats.iterations = k as u32;
            if self.smt.out_of_time() {
                return Err(SmtError::Timeout);
            }
            if k > 0 {
                if p.transitions.is_empty() {
                    return Ok(Verdict::unknown(
                        UnknownKind::NoProof,
                        format!("{} (no transitions)", no_error_within(self.searched)),
                    ));
                }
                self.unroll();
                if k.is_power_of_two() && !self.smt.check()? {
                    return Ok(Verdict::unknown(
                        UnknownKind::NoProof,
                        format!(
                            "{}: every execution ends within {} step{} (bounded model checking proves nothing)",
                            no_error_within(self.searched),
                            k - 1,
                            if k == 2 { "" } else { "s" }
                        ),
                    ));
                }
            }
            let goal = cond(&target, &self.frames[k]);
            self.smt.push();
            self.smt.assert(&goal);
            let found = self.smt.check_model();
            let verdict = match found {
                Ok(Some(model)) => Some(self.trace(&model, k, &target)),
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            };
            self.smt.pop();
            match verdict {
                Some(v) => return v,
                None => self.searched = Some(k),
            }
        }
        Ok(Verdict::unknown(
            UnknownKind::NoProof,
            format!("{} (the depth limit)", no_error_within(self.searched)),
        ))
    }

    /// Asserts one more step: from the last frame to a new one.
    fn unroll(&mut self) {
        let p = self.program;
        let i = self.frames.len() - 1;
        let next = self.frame(i + 1);
        let (sel, mut parts) = self.selectors(i);
        let cur = &self.frames[i];
        for (j, tr) in p.transitions.iter().enumerate() {
            let t = tr.thread.index();
            let mut effect = vec![
                cur.locs[t].eq(loc(tr.from)),
                cond(&tr.guard, cur),
                next.locs[t].eq(loc(tr.to)),
            ];
            for a in &tr.assigns {
                if let Rhs::Expr(e) = &a.rhs {
                    effect.push(next.vars[a.var.index()].eq(term(e, cur)));
                }
            }
            parts.push(sel[j].implies(Bool::and(&effect)));
        }
        // Arrays are terms of the previous ones, not constants: the stores
        // of the selected transition, else unchanged (no equation between
        // arrays, which would cost Z3 extensionality).
        let mut next = next;
        next.arrays = cur.arrays.clone();
        for (j, tr) in p.transitions.iter().enumerate() {
            for (x, stored) in stores(tr, cur) {
                next.arrays[x] = sel[j].ite(&stored, &next.arrays[x]);
            }
        }
        // Frame conditions: what the chosen transition does not touch.
        for (t, th) in p.threads.iter().enumerate() {
            let mut moved: Vec<Bool> = th
                .transitions
                .iter()
                .map(|j| sel[j.index()].clone())
                .collect();
            moved.push(next.locs[t].eq(&cur.locs[t]));
            parts.push(Bool::or(&moved));
        }
        for (x, writers) in self.writers.iter().enumerate() {
            let mut written: Vec<Bool> = writers.iter().map(|j| sel[j.index()].clone()).collect();
            written.push(next.vars[x].eq(&cur.vars[x]));
            parts.push(Bool::or(&written));
        }
        // Partial-order reduction: a step of thread `t` right after an
        // independent step of a thread `u > t` is not needed (the two in the
        // other order reach the same state in as many steps).
        if let Some(prev) = self.selectors.last() {
            let moved: Vec<Bool> = p
                .threads
                .iter()
                .map(|th| {
                    let v: Vec<Bool> = th
                        .transitions
                        .iter()
                        .map(|j| prev[j.index()].clone())
                        .collect();
                    Bool::or(&v)
                })
                .collect();
            for (j, per_thread) in self.dependent.iter().enumerate() {
                for (u, deps) in per_thread {
                    let mut allowed: Vec<Bool> = deps.iter().map(|&d| prev[d].clone()).collect();
                    allowed.push(moved[*u].not());
                    parts.push(sel[j].implies(Bool::or(&allowed)));
                }
            }
        }
        for part in &parts {
            self.smt.assert(part);
        }
        self.selectors.push(sel);
        self.frames.push(next);
    }

    /// The trace of a model of the error query at depth `k`, replayed.
    fn trace(&mut self, model: &z3::Model, k: usize, target: &Cond) -> Result<Verdict, SmtError> {
        let p = self.program;
        let stride = self.stride();
        let value = |smt: &mut Smt, i: usize, sym: u32| {
            smt.value(model, Space::Symbolic, i as u32 * stride + sym)
        };
        let mut values = Vec::with_capacity(p.vars.len());
        for x in 0..p.vars.len() {
            values.push(value(self.smt, 0, x as u32)?);
        }
        let mut steps = Vec::with_capacity(k);
        for i in 0..k {
            let mut chosen = Vec::new();
            for (j, s) in self.selectors[i].iter().enumerate() {
                if self.smt.bool_value(model, s)? {
                    chosen.push(j);
                }
            }
            let [tr] = chosen[..] else {
                return Ok(internal(format!(
                    "step {} chooses {} transitions",
                    i + 1,
                    chosen.len()
                )));
            };
            let mut inputs = Vec::new();
            for a in &p.transitions[tr].assigns {
                if a.rhs == Rhs::Nondet {
                    inputs.push((a.var, value(self.smt, i + 1, a.var.0)?));
                }
            }
            steps.push((TransId::new(tr), inputs));
        }
        let initial = match interp::initial_state(p, values) {
            Ok(s) => s,
            Err(e) => return Ok(internal(e.to_string())),
        };
        let initial = match self.initial_elements(model, initial, &steps)? {
            Ok(s) => s,
            Err(e) => return Ok(internal(e.to_string())),
        };
        Ok(match Trace::execute_from(p, initial, &steps) {
            Ok(trace) => {
                let last = trace.last_state();
                match crate::interp::eval_cond(target, last) {
                    Ok(true) => Verdict::Unsafe(trace),
                    Ok(false) => internal("the trace does not end in a target state".into()),
                    Err(e) => internal(e.to_string()),
                }
            }
            Err(e) => internal(e.to_string()),
        })
    }
}

impl Search<'_> {
    /// The initial state of a trace with the initial value of every array
    /// element the steps read and the program does not fix: taken from the
    /// model as the steps are replayed (an element is added to the initial
    /// state and to the current one when first read: it was never written).
    fn initial_elements(
        &mut self,
        model: &z3::Model,
        mut initial: interp::State,
        steps: &[(TransId, Vec<(crate::ir::VarId, i128)>)],
    ) -> Result<Result<interp::State, RunError>, SmtError> {
        let mut cur = initial.clone();
        let mut at = 0;
        loop {
            let result = match steps.get(at) {
                Some((t, inputs)) => interp::step(self.program, &cur, *t, inputs).map(Some),
                // The error condition may read elements too.
                None => interp::is_error(self.program, &cur).map(|_| None),
            };
            match result {
                Ok(Some(next)) => {
                    cur = next;
                    at += 1;
                }
                Ok(None) => return Ok(Ok(initial)),
                Err(RunError::UnknownElement(x, i)) => {
                    let e = self.frames[0].arrays[x.index()].select(&Int::from_i128(i));
                    let Some(e) = e.as_int() else {
                        return Ok(Err(RunError::UnknownElement(x, i)));
                    };
                    let v = self.smt.int_value(model, &e)?;
                    initial.arrays[x.index()].cells.insert(i, v);
                    cur.arrays[x.index()].cells.insert(i, v);
                }
                Err(e) => return Ok(Err(e)),
            }
        }
    }
}

/// The arrays a transition stores into, each with its contents after the
/// step: the stores applied in order to the contents in `f`.
fn stores(tr: &crate::ir::Transition, f: &Frame) -> Vec<(usize, Array)> {
    let mut out: Vec<(usize, Array)> = Vec::new();
    for st in &tr.stores {
        let x = st.array.index();
        let (i, v) = (term(&st.index, f), term(&st.value, f));
        match out.iter_mut().find(|(y, _)| *y == x) {
            Some((_, a)) => *a = a.store(&i, &v),
            None => out.push((x, f.arrays[x].store(&i, &v))),
        }
    }
    out
}

/// Per transition `j` (of thread `t`) and per thread `u > t`: the
/// transitions of `u` that may not commute with `j`. Two transitions of
/// different threads are *independent* when neither writes a variable the
/// other reads or writes and neither guard reads the other's thread's
/// location: then, from any state, taking both in either order is possible
/// when it is in one order, and reaches the same state.
///
/// None at all (no reduction, every interleaving searched) when the pairs
/// of transitions of different threads are more than [`MAX_PAIRS`]: the
/// constraints of the reduction grow with their number (20,000 transitions
/// per thread, the cases of accesses into a large array, made hundreds of
/// millions of them, built before any deadline was looked at).
fn dependencies(p: &Program) -> Vec<Vec<(usize, Vec<usize>)>> {
    let per_thread: Vec<usize> = p.threads.iter().map(|th| th.transitions.len()).collect();
    let pairs: usize = p
        .transitions
        .iter()
        .map(|tr| per_thread[tr.thread.index() + 1..].iter().sum::<usize>())
        .sum();
    if pairs > MAX_PAIRS {
        return vec![Vec::new(); p.transitions.len()];
    }
    // Bits: the variables, then the arrays (an array is one unit).
    let n = p.vars.len();
    let words = (n + p.arrays.len()).div_ceil(64).max(1);
    let set = |bits: &mut Vec<u64>, v: usize| bits[v / 64] |= 1 << (v % 64);
    let meets = |a: &[u64], b: &[u64]| a.iter().zip(b).any(|(x, y)| x & y != 0);
    let mut reads = Vec::with_capacity(p.transitions.len());
    let mut writes = Vec::with_capacity(p.transitions.len());
    let mut sees = Vec::with_capacity(p.transitions.len());
    for tr in &p.transitions {
        let (mut r, mut w) = (vec![0u64; words], vec![0u64; words]);
        tr.guard.for_each_var(&mut |v| set(&mut r, v.index()));
        tr.guard.for_each_array(&mut |x| set(&mut r, n + x.index()));
        for a in &tr.assigns {
            set(&mut w, a.var.index());
            if let Rhs::Expr(e) = &a.rhs {
                e.for_each_var(&mut |v| set(&mut r, v.index()));
                e.for_each_array(&mut |x| set(&mut r, n + x.index()));
            }
        }
        for st in &tr.stores {
            set(&mut w, n + st.array.index());
            for e in [&st.index, &st.value] {
                e.for_each_var(&mut |v| set(&mut r, v.index()));
                e.for_each_array(&mut |x| set(&mut r, n + x.index()));
            }
        }
        let mut threads = Vec::new();
        locations_read(&tr.guard, &mut |t| threads.push(t));
        reads.push(r);
        writes.push(w);
        sees.push(threads);
    }
    let independent = |a: usize, b: usize| {
        let (ta, tb) = (p.transitions[a].thread, p.transitions[b].thread);
        !meets(&writes[a], &reads[b])
            && !meets(&writes[a], &writes[b])
            && !meets(&writes[b], &reads[a])
            && !sees[a].contains(&tb)
            && !sees[b].contains(&ta)
    };
    p.transitions
        .iter()
        .enumerate()
        .map(|(j, tr)| {
            p.threads
                .iter()
                .enumerate()
                .filter(|(u, _)| *u > tr.thread.index())
                .map(|(u, th)| {
                    let deps = th
                        .transitions
                        .iter()
                        .map(|d| d.index())
                        .filter(|&d| !independent(j, d))
                        .collect();
                    (u, deps)
                })
                .collect()
        })
        .collect()
}

/// The most pairs of transitions [`dependencies`] relates.
const MAX_PAIRS: usize = 4_000_000;

/// Calls `f` on every thread whose location `c` reads.
fn locations_read(c: &Cond, f: &mut impl FnMut(ThreadId)) {
    match c {
        Cond::True | Cond::False | Cond::Cmp(..) => {}
        Cond::At(t, _) => f(*t),
        Cond::Not(a) => locations_read(a, f),
        Cond::And(a, b) | Cond::Or(a, b) => {
            locations_read(a, f);
            locations_read(b, f);
        }
    }
}

fn internal(why: String) -> Verdict {
    Verdict::unknown(
        UnknownKind::Internal,
        format!("internal error: the bounded model checking trace does not replay ({why})"),
    )
}

pub(crate) fn loc(l: LocId) -> Int {
    Int::from_u64(l.0.into())
}

/// An IR term in the state `f`: the one translation of IR terms into Z3
/// (mathematical integers, as in the interpreter).
pub(crate) fn term(t: &Term, f: &Frame) -> Int {
    match t {
        Term::Const(k) => Int::from_i64(*k),
        Term::Var(v) => f.vars[v.index()].clone(),
        Term::Add(a, b) => Int::add(&[term(a, f), term(b, f)]),
        Term::Sub(a, b) => Int::sub(&[term(a, f), term(b, f)]),
        Term::Mul(k, a) => Int::mul(&[Int::from_i64(*k), term(a, f)]),
        Term::Neg(a) => term(a, f).unary_minus(),
        // Z3's integer division and remainder are Euclidean, as the IR's
        // (the divisor is positive).
        Term::Div(a, k) => term(a, f).div(Int::from_i64(*k)),
        Term::Mod(a, k) => term(a, f).modulo(Int::from_i64(*k)),
        Term::Nl(op, a, b) => nonlinear(*op, term(a, f), term(b, f)),
        Term::Select(x, i) => f.arrays[x.index()]
            .select(&term(i, f))
            .as_int()
            .expect("arrays map integers to integers"),
    }
}

/// A non-linear operation, with the IR's total semantics (`NlOp::apply`):
/// C's truncating division and remainder from Z3's Euclidean ones on
/// absolute values, zero divisors as the IR defines them, and bitwise
/// operations on 64-bit two's complement (`int2bv` reduces modulo 2^64, as
/// `NlOp::apply` does).
fn nonlinear(op: NlOp, a: Int, b: Int) -> Int {
    let zero = Int::from_i64(0);
    let abs = |x: &Int| x.ge(&zero).ite(x, &x.unary_minus());
    let bits = |x: &Int| BV::from_int(x, 64);
    match op {
        NlOp::Mul => Int::mul(&[a, b]),
        NlOp::Div => {
            let q = abs(&a).div(abs(&b));
            let same_sign = a.ge(&zero).eq(b.ge(&zero));
            let q = same_sign.ite(&q, &q.unary_minus());
            b.eq(&zero).ite(&zero, &q)
        }
        NlOp::Rem => {
            let r = abs(&a).modulo(abs(&b));
            let r = a.ge(&zero).ite(&r, &r.unary_minus());
            b.eq(&zero).ite(&a, &r)
        }
        NlOp::And => Int::from_bv(&bits(&a).bvand(bits(&b)), true),
        NlOp::Or => Int::from_bv(&bits(&a).bvor(bits(&b)), true),
        NlOp::Xor => Int::from_bv(&bits(&a).bvxor(bits(&b)), true),
    }
}

/// An IR condition in the state `f` (locations included).
pub(crate) fn cond(c: &Cond, f: &Frame) -> Bool {
    match c {
        Cond::True => Bool::from_bool(true),
        Cond::False => Bool::from_bool(false),
        Cond::Cmp(op, a, b) => {
            let (a, b) = (term(a, f), term(b, f));
            match op {
                CmpOp::Eq => a.eq(&b),
                CmpOp::Ne => a.eq(&b).not(),
                CmpOp::Lt => a.lt(&b),
                CmpOp::Le => a.le(&b),
                CmpOp::Gt => a.gt(&b),
                CmpOp::Ge => a.ge(&b),
            }
        }
        Cond::At(t, l) => at(f, *t, *l),
        Cond::Not(a) => cond(a, f).not(),
        Cond::And(a, b) => Bool::and(&[cond(a, f), cond(b, f)]),
        Cond::Or(a, b) => Bool::or(&[cond(a, f), cond(b, f)]),
    }
}

fn at(f: &Frame, t: ThreadId, l: LocId) -> Bool {
    f.locs[t.index()].eq(loc(l))
}
