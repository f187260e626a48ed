//! Bounds of a thread's own variables per location: an interval analysis
//! of one thread's control graph, for the variables no other thread
//! writes (only the thread's own steps change them, so its graph alone
//! decides their values, whatever the other threads do).
//!
//! Forward data flow from the initial values: a step's guard narrows the
//! bounds of each variable of a linear comparison against the bounds of
//! the rest (`i + 1 < n` bounds `i`; `-2^31 <= x - 2^32·q <= 2^31 - 1`
//! with `x` known bounds the quotient `q`), a conjunct false over the
//! bounds disables the step, and its assignments evaluate their right-hand
//! sides over the bounds (`*`: any value). Bounds that
//! keep growing at a location are widened to no bound after
//! [`WIDEN_AFTER`] changes; then [`NARROWINGS`] passes recompute every
//! location from its predecessors, which keeps an over-approximation (the
//! steps are monotone, so each pass stays above the least fixed point)
//! and gives the bound a loop's exit test sets back (`[0, K - 1]` for
//! `for (i = 0; i < K; i++)`). A location no step can reach has no bounds:
//! the thread is never there; a step whose guard the bounds where it
//! leaves disable is never taken.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use fixedbitset::FixedBitSet;

use crate::interval::{self, Interval, Leaves, ANY};
use crate::ir::{CmpOp, Cond, LocId, Program, Rhs, Term, ThreadId, TransId, Transition, VarId};

type Env = Vec<Interval>;

/// Changes of a location's bounds before they are widened.
const WIDEN_AFTER: u32 = 3;
/// Passes that narrow the widened bounds.
const NARROWINGS: usize = 2;
/// Most variables analysed per thread ([`relevant`]).
pub const MAX_VARS: usize = 256;

/// The bounds of some variables of one thread, per location.
pub struct ThreadRanges {
    /// The variables bounded, sorted.
    vars: Vec<VarId>,
    /// Per location, the bounds of `vars` there; `None`: never reached.
    at: Vec<Option<Vec<Interval>>>,
    /// The thread's transitions the bounds show are never taken.
    never: BTreeSet<TransId>,
}

impl ThreadRanges {
    /// The bounds of `vars` (variables only thread `t` writes, or none)
    /// in `t`'s locations.
    pub fn new(program: &Program, t: ThreadId, vars: &[VarId]) -> Self {
        Flow::new(program, t, vars, &program.writers()).ranges()
    }

    /// The bounds of `v` at `loc`: `None` when the thread never reaches
    /// `loc`; [`ANY`] for a variable not analysed.
    pub fn bounds(&self, loc: LocId, v: VarId) -> Option<Interval> {
        let env = self.at.get(loc.index())?.as_ref()?;
        Some(match self.vars.binary_search(&v) {
            Ok(k) => env[k],
            Err(_) => ANY,
        })
    }

    /// Whether transition `t` of the thread is never taken, in any run.
    pub fn never_taken(&self, t: TransId) -> bool {
        self.never.contains(&t)
    }
}

/// The variables worth bounding in thread `t`: those only it writes
/// (`writers`: [`Program::writers`]) among the guards of its transitions,
/// and, again, among what the right-hand sides of their assignments read
/// (at most [`MAX_VARS`]).
pub fn relevant(program: &Program, t: ThreadId, writers: &[FixedBitSet]) -> Vec<VarId> {
    let own = |v: VarId| writers[v.index()].ones().all(|w| w == t.index());
    let thread = program.thread(t);
    let mut out: BTreeSet<VarId> = BTreeSet::new();
    let mut queue: Vec<VarId> = Vec::new();
    for &id in &thread.transitions {
        program
            .transition(id)
            .guard
            .for_each_var(&mut |v| queue.push(v));
    }
    // What each variable's assignments read.
    let mut feeds: BTreeMap<VarId, Vec<VarId>> = BTreeMap::new();
    for &id in &thread.transitions {
        for a in &program.transition(id).assigns {
            if let Rhs::Expr(e) = &a.rhs {
                let list = feeds.entry(a.var).or_default();
                e.for_each_var(&mut |v| list.push(v));
            }
        }
    }
    while let Some(v) = queue.pop() {
        if !own(v) || out.contains(&v) {
            continue;
        }
        if out.len() >= MAX_VARS {
            break;
        }
        out.insert(v);
        queue.extend(feeds.get(&v).into_iter().flatten());
    }
    out.into_iter().collect()
}

/// The analysis of one thread, kept to bound its runs from a given state
/// ([`Flow::taken_from`]).
pub struct Flow<'a> {
    program: &'a Program,
    thread: ThreadId,
    /// The variables analysed, sorted.
    vars: Vec<VarId>,
    /// Per variable of the program: its value when no thread writes it
    /// and it is declared with one.
    constant: Vec<Option<i128>>,
}

impl<'a> Flow<'a> {
    /// The analysis of thread `t` over `vars` (variables only `t` writes,
    /// or none); `writers`: [`Program::writers`].
    pub fn new(program: &'a Program, t: ThreadId, vars: &[VarId], writers: &[FixedBitSet]) -> Self {
        let mut vars = vars.to_vec();
        vars.sort_unstable();
        vars.dedup();
        let constant = program
            .vars
            .iter()
            .zip(writers)
            .map(|(d, w)| d.init.filter(|_| w.is_clear()).map(i128::from))
            .collect();
        Flow {
            program,
            thread: t,
            vars,
            constant,
        }
    }

    /// The variables analysed, sorted.
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// The transitions the thread may take in its runs from `start`, its
    /// variables [`Self::vars`] in `entry` there, taking only those
    /// `allowed` admits: an over-approximation (a transition not listed
    /// is taken in none of those runs).
    pub fn taken_from(
        &self,
        start: LocId,
        entry: Vec<Interval>,
        allowed: &dyn Fn(TransId) -> bool,
    ) -> Vec<TransId> {
        let at = self.fixpoint(start, entry, allowed);
        self.program
            .thread(self.thread)
            .transitions
            .iter()
            .copied()
            .filter(|&id| {
                let tr = self.program.transition(id);
                allowed(id)
                    && matches!(at.get(tr.from.index()), Some(Some(env)) if self.step(env, tr).is_some())
            })
            .collect()
    }
    /// The bounds over the thread's locations.
    pub fn ranges(&self) -> ThreadRanges {
        let thread = self.program.thread(self.thread);
        let entry: Env = self
            .vars
            .iter()
            .map(|v| {
                self.program.vars[v.index()]
                    .init
                    .map_or(ANY, |x| Interval::point(i128::from(x)))
            })
            .collect();
        let at = self.fixpoint(thread.initial, entry, &|_| true);
        let never = thread
            .transitions
            .iter()
            .copied()
            .filter(|&id| {
                let tr = self.program.transition(id);
                match at.get(tr.from.index()) {
                    Some(Some(env)) => self.step(env, tr).is_none(),
                    _ => true,
                }
            })
            .collect();
        ThreadRanges {
            vars: self.vars.clone(),
            at,
            never,
        }
    }

    /// The bounds at each location of the thread's runs from `start` with
    /// the bounds `entry`, taking only the transitions `allowed` admits
    /// (`None`: not reached).
    fn fixpoint(
        &self,
        start: LocId,
        entry: Env,
        allowed: &dyn Fn(TransId) -> bool,
    ) -> Vec<Option<Env>> {
        let thread = self.program.thread(self.thread);
        let n = thread.locs.len();
        let mut incoming: Vec<Vec<&Transition>> = vec![Vec::new(); n];
        let mut outgoing: Vec<Vec<&Transition>> = vec![Vec::new(); n];
        for &id in &thread.transitions {
            let tr = self.program.transition(id);
            if tr.from.index() < n && tr.to.index() < n && allowed(id) {
                incoming[tr.to.index()].push(tr);
                outgoing[tr.from.index()].push(tr);
            }
        }
        let start = start.index();
        let mut at: Vec<Option<Env>> = vec![None; n];
        if start >= n {
            return at;
        }
        at[start] = Some(entry.clone());
        let mut changes = vec![0u32; n];
        let mut queue = VecDeque::from([start]);
        while let Some(l) = queue.pop_front() {
            let Some(env) = at[l].clone() else { continue };
            for tr in &outgoing[l] {
                let Some(post) = self.step(&env, tr) else {
                    continue;
                };
                let to = tr.to.index();
                let joined = match &at[to] {
                    None => post,
                    Some(old) => {
                        let hull: Env = old.iter().zip(&post).map(|(a, b)| a.hull(*b)).collect();
                        if hull == *old {
                            continue;
                        }
                        changes[to] += 1;
                        if changes[to] > WIDEN_AFTER {
                            widen(old, &hull)
                        } else {
                            hull
                        }
                    }
                };
                at[to] = Some(joined);
                queue.push_back(to);
            }
        }
        for _ in 0..NARROWINGS {
            for l in 0..n {
                let mut new: Option<Env> = (l == start).then(|| entry.clone());
                for tr in &incoming[l] {
                    let Some(pre) = &at[tr.from.index()] else {
                        continue;
                    };
                    if let Some(post) = self.step(pre, tr) {
                        new = Some(match new {
                            None => post,
                            Some(e) => e.iter().zip(&post).map(|(a, b)| a.hull(*b)).collect(),
                        });
                    }
                }
                at[l] = new;
            }
        }
        at
    }

    /// The bounds of a variable in `env` (a constant: its value; any other
    /// variable not analysed: [`ANY`]).
    fn var(&self, env: &Env, v: VarId) -> Interval {
        match self.vars.binary_search(&v) {
            Ok(k) => env[k],
            Err(_) => self.constant[v.index()].map_or(ANY, Interval::point),
        }
    }

    /// Bounds of `t` over `env`; a linear term keeps a bound of one side
    /// when the other is missing (`i + 1` of `i >= 0` is `>= 1`).
    fn bounds(&self, env: &Env, t: &Term) -> Interval {
        let mut coeffs = BTreeMap::new();
        if let Some(constant) = linear(t, 1, &mut coeffs) {
            return coeffs
                .iter()
                .filter(|(_, &k)| k != 0)
                .fold(Interval::point(constant), |sum, (&x, &k)| {
                    add(sum, scale(self.var(env, x), k))
                });
        }
        interval::term(t, &no_locations(&|t| self.variable(env, t)))
    }

    /// The truth of `c` over `env` (`None`: it depends).
    fn truth(&self, env: &Env, c: &Cond) -> Option<bool> {
        interval::cond(c, &no_locations(&|t| self.variable(env, t)))
    }

    /// The bounds of `t` when it is a variable.
    fn variable(&self, env: &Env, t: &Term) -> Option<Interval> {
        match t {
            Term::Var(v) => Some(self.var(env, *v)),
            _ => None,
        }
    }

    /// The bounds after `tr` from a state in `env`; `None` when its guard
    /// admits none of them.
    fn step(&self, env: &Env, tr: &Transition) -> Option<Env> {
        let mut env = env.clone();
        for c in tr.guard.conjuncts() {
            self.narrow(&mut env, c)?;
        }
        let mut post = env.clone();
        for a in &tr.assigns {
            if let Ok(k) = self.vars.binary_search(&a.var) {
                post[k] = match &a.rhs {
                    Rhs::Expr(e) => self.bounds(&env, e),
                    Rhs::Nondet => ANY,
                };
            }
        }
        Some(post)
    }

    /// Narrows `env` by the conjunct `c`; `None` when no state of `env`
    /// satisfies it.
    fn narrow(&self, env: &mut Env, c: &Cond) -> Option<()> {
        if self.truth(env, c) == Some(false) {
            return None;
        }
        let Cond::Cmp(op, a, b) = c else {
            return Some(());
        };
        let op = *op;
        // `a - b op 0` as `Σ k·x + constant op 0`.
        let mut coeffs = BTreeMap::new();
        let Some(constant) = linear(a, 1, &mut coeffs)
            .and_then(|ka| linear(b, -1, &mut coeffs).and_then(|kb| ka.checked_add(kb)))
        else {
            return Some(());
        };
        coeffs.retain(|_, k| *k != 0);
        for (&x, &k) in &coeffs {
            let Ok(slot) = self.vars.binary_search(&x) else {
                continue;
            };
            // The rest, `Σ others + constant`.
            let mut rest = Interval::point(constant);
            for (&y, &j) in &coeffs {
                if y == x {
                    continue;
                }
                rest = add(rest, scale(self.var(env, y), j));
            }
            // `k·x + r op 0` for some `r` in `rest`: bounds of `k·x` (none
            // from a missing bound of `rest`).
            let neg_lo = (rest.lo != i128::MIN)
                .then(|| rest.lo.checked_neg())
                .flatten();
            let neg_hi = (rest.hi != i128::MAX)
                .then(|| rest.hi.checked_neg())
                .flatten();
            let kx = match op {
                CmpOp::Lt => upto(neg_lo.and_then(|h| h.checked_sub(1))),
                CmpOp::Le => upto(neg_lo),
                CmpOp::Gt => from(neg_hi.and_then(|l| l.checked_add(1))),
                CmpOp::Ge => from(neg_hi),
                CmpOp::Eq => upto(neg_lo).meet(from(neg_hi)).unwrap_or(ANY),
                CmpOp::Ne => ANY,
            };
            env[slot] = env[slot].meet(divide(kx, k))?;
        }
        Some(())
    }
}

/// The leaves of an evaluation that knows `term`'s bounds and no
/// location.
fn no_locations<'b>(term: &'b dyn Fn(&Term) -> Option<Interval>) -> Leaves<'b> {
    fn nowhere(_: ThreadId, _: LocId) -> Option<bool> {
        None
    }
    Leaves { term, at: &nowhere }
}

/// `x <= hi` (no bound when `hi` is unknown or at the edge of `i128`).
fn upto(hi: Option<i128>) -> Interval {
    match hi {
        Some(hi) if hi != i128::MAX && hi != i128::MIN => Interval { lo: i128::MIN, hi },
        _ => ANY,
    }
}

/// `x >= lo`.
fn from(lo: Option<i128>) -> Interval {
    match lo {
        Some(lo) if lo != i128::MIN && lo != i128::MAX => Interval { lo, hi: i128::MAX },
        _ => ANY,
    }
}

/// `a + b`, a missing bound staying missing.
fn add(a: Interval, b: Interval) -> Interval {
    let end = |x: i128, y: i128, none: i128| {
        if x == none || y == none {
            none
        } else {
            x.checked_add(y).unwrap_or(none)
        }
    };
    Interval {
        lo: end(a.lo, b.lo, i128::MIN),
        hi: end(a.hi, b.hi, i128::MAX),
    }
}

/// The integers `x` with `k·x` in `a` (`k != 0`), a missing bound staying
/// missing.
fn divide(a: Interval, k: i128) -> Interval {
    let (lo, hi) = (a.lo != i128::MIN, a.hi != i128::MAX);
    let (lo, hi) = if k > 0 {
        (
            lo.then(|| ceil_div(a.lo, k)),
            hi.then(|| floor_div(a.hi, k)),
        )
    } else {
        (
            hi.then(|| ceil_div(a.hi, k)),
            lo.then(|| floor_div(a.lo, k)),
        )
    };
    Interval {
        lo: lo.unwrap_or(i128::MIN),
        hi: hi.unwrap_or(i128::MAX),
    }
}

/// `⌊a / k⌋`.
fn floor_div(a: i128, k: i128) -> i128 {
    let q = a / k;
    if (a % k != 0) && ((a < 0) != (k < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈a / k⌉`.
fn ceil_div(a: i128, k: i128) -> i128 {
    let q = a / k;
    if (a % k != 0) && ((a < 0) == (k < 0)) {
        q + 1
    } else {
        q
    }
}

/// `k·a`, a missing bound staying missing.
fn scale(a: Interval, k: i128) -> Interval {
    let end = |x: i128, missing: bool| {
        if missing {
            None
        } else {
            x.checked_mul(k)
        }
    };
    let (x, y) = (end(a.lo, a.lo == i128::MIN), end(a.hi, a.hi == i128::MAX));
    let (lo_end, hi_end) = if k >= 0 { (x, y) } else { (y, x) };
    Interval {
        lo: lo_end.unwrap_or(i128::MIN),
        hi: hi_end.unwrap_or(i128::MAX),
    }
}

/// Adds `k·t` to `coeffs` and returns its constant part (`None`: not
/// linear, or too large).
fn linear(t: &Term, k: i128, coeffs: &mut BTreeMap<VarId, i128>) -> Option<i128> {
    match t {
        Term::Const(c) => i128::from(*c).checked_mul(k),
        Term::Var(v) => {
            let e = coeffs.entry(*v).or_insert(0);
            *e = e.checked_add(k)?;
            Some(0)
        }
        Term::Add(a, b) => linear(a, k, coeffs)?.checked_add(linear(b, k, coeffs)?),
        Term::Sub(a, b) => linear(a, k, coeffs)?.checked_add(linear(b, k.checked_neg()?, coeffs)?),
        Term::Mul(c, a) => linear(a, k.checked_mul(i128::from(*c))?, coeffs),
        Term::Neg(a) => linear(a, k.checked_neg()?, coeffs),
        Term::Div(..) | Term::Mod(..) | Term::Nl(..) | Term::Select(..) => None,
    }
}

/// Widening: a bound that moved since `old` is dropped.
fn widen(old: &Env, new: &Env) -> Env {
    old.iter()
        .zip(new)
        .map(|(o, n)| Interval {
            lo: if n.lo < o.lo { i128::MIN } else { o.lo },
            hi: if n.hi > o.hi { i128::MAX } else { o.hi },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        crate::parse::parse_program(src).expect("parses")
    }

    fn loc(p: &Program, t: usize, name: &str) -> LocId {
        let th = &p.threads[t];
        LocId::new(th.locs.iter().position(|l| l == name).expect("location"))
    }

    #[test]
    fn a_counted_loop_bounds_its_counter() {
        let p = program(
            "var i = 0, a = 0;
             thread w at head {
               head -> body when i < 10;
               body -> head do a := i, i := i + 1;
               head -> done when i >= 10;
             }
             error a < 0;",
        );
        let i = VarId::new(0);
        let r = ThreadRanges::new(&p, ThreadId::new(0), &[i]);
        let at = |name| r.bounds(loc(&p, 0, name), i);
        assert_eq!(at("body"), Some(Interval { lo: 0, hi: 9 }));
        assert_eq!(at("head"), Some(Interval { lo: 0, hi: 10 }));
        assert_eq!(at("done"), Some(Interval { lo: 10, hi: 10 }));
    }

    #[test]
    fn an_unbounded_counter_and_an_unreached_location() {
        let p = program(
            "var i = 0, x;
             thread w at head {
               head -> head do i := i + 1;
               head -> never when i < 0;
               head -> input do x := *;
             }
             error x < 0;",
        );
        let (i, x) = (VarId::new(0), VarId::new(1));
        let r = ThreadRanges::new(&p, ThreadId::new(0), &[i, x]);
        assert_eq!(
            r.bounds(loc(&p, 0, "head"), i),
            Some(Interval {
                lo: 0,
                hi: i128::MAX
            })
        );
        assert_eq!(r.bounds(loc(&p, 0, "never"), i), None);
        assert_eq!(r.bounds(loc(&p, 0, "input"), x), Some(ANY));
    }

    #[test]
    fn a_wrap_quotient_of_a_value_in_range_is_zero() {
        // `t := x - 2^32·q` with `-2^31 <= x - 2^32·q <= 2^31 - 1` and
        // `x` in [0, 3]: `q` is 0, and so `t` is `x`; the step that needs
        // `t == 7` is never taken.
        let p = program(
            "var x = 0, q, t = 0, y = 0;
             thread w at a {
               a -> a when x < 3 do x := x + 1;
               a -> b do q := *;
               b -> c when -2147483648 <= x - 4294967296 * q && x - 4294967296 * q <= 2147483647 do t := x - 4294967296 * q;
               c -> d when t == 7 do y := 1;
             }
             error y == 1;",
        );
        let (q, t) = (VarId::new(1), VarId::new(2));
        let r = ThreadRanges::new(
            &p,
            ThreadId::new(0),
            &relevant(&p, ThreadId::new(0), &p.writers()),
        );
        assert_eq!(
            r.bounds(loc(&p, 0, "c"), t),
            Some(Interval { lo: 0, hi: 3 })
        );
        assert_eq!(r.bounds(loc(&p, 0, "b"), q), Some(ANY));
        let never: Vec<_> = p.threads[0]
            .transitions
            .iter()
            .filter(|&&id| r.never_taken(id))
            .map(|&id| p.transition(id).to)
            .collect();
        assert_eq!(never, vec![loc(&p, 0, "d")]);
    }
}
