//! Data races (SOUNDNESS.md, "Data races").
//!
//! A data race is a reachable state in which two threads can each take,
//! as their next step, an access to the same memory cell, at least one of
//! them a write and at least one of them not atomic. In the lowered
//! program every step accesses shared memory at most once, through a case
//! split that names the cell, so "thread `t` can take access `a` next" is
//! `t@L ∧ g`: the thread is at the step's source location and the step's
//! guard holds. The race check therefore
//! 1. finds the steps whose accesses may race ([`mark`]): accesses of C
//!    objects (not of mutexes, thread handles and other pthread objects,
//!    which only the pthread API touches) by two different threads, at
//!    least one a write and one not atomic, not both under a common mutex
//!    (then they cannot both be next: the lockset analysis is exact for
//!    the mutexes it accepts) and not a step of `main` while it runs alone;
//!    such a step is never merged with another by the compression
//!    ([`crate::cfg::Edge::accesses`]), so its source location and guard
//!    survive into the IR;
//! 2. turns the surviving steps into one error disjunct per variable and
//!    pair of threads ([`conditions`]); the engines search for it like for
//!    any other error;
//! 3. names the two accesses of the last state of a trace ([`find`]).
//!
//! Atomic accesses (inside an atomic section, or to an `_Atomic` object)
//! race only with plain ones. The guard of a step leaving a location
//! outside atomic sections also requires `__atomic == 0`; the race
//! condition leaves that conjunct out: a plain access does not wait for
//! another thread's atomic section (C has no such sections; SV-COMP's
//! `__VERIFIER_atomic_begin/end` exclude each other, not plain code).

use std::collections::{BTreeMap, BTreeSet};

use engine::interp::State;
use engine::ir::{CmpOp, Cond, LocId, Term, ThreadId, VarId};
use frontend::lang_c::span::Span;

use crate::cfg::Access;
use crate::lower::ThreadInst;
use crate::term::{and, or};

/// What the reduction knows about which steps can run at the same time.
#[derive(Clone, Debug, Default)]
pub(crate) struct Concurrency {
    /// Per location of `main`: no other thread runs while `main` is there.
    pub alone: Vec<bool>,
    /// Per thread, per location: the mutexes it surely holds there (`None`
    /// where it never gets).
    pub held: Vec<Vec<Option<BTreeSet<VarId>>>>,
}

/// One access of a step that may race, as it appears in the IR.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceAccess {
    /// The thread taking the step.
    pub thread: ThreadId,
    /// Where the thread is when the step is its next one.
    pub loc: LocId,
    /// When the step can be taken there and makes this access (a read in
    /// the right operand of `&&`/`||` only when the left one does not
    /// decide), without the atomic flag's guard.
    pub guard: Cond,
    /// The cell accessed.
    pub var: VarId,
    /// A write (else a read).
    pub write: bool,
    /// An atomic access.
    pub atomic: bool,
    /// The statement (a span of the parsed text).
    pub span: Option<Span>,
}

impl RaceAccess {
    /// Whether this access and `other` race when both can happen next.
    pub fn conflicts(&self, other: &RaceAccess) -> bool {
        self.thread != other.thread
            && self.var == other.var
            && kinds_conflict((self.write, self.atomic), (other.write, other.atomic))
    }

    /// Whether the thread can take this access next in state `s`.
    pub fn next_in(&self, s: &State) -> bool {
        s.locs.get(self.thread.index()) == Some(&self.loc)
            && engine::interp::eval_cond(&self.guard, s).unwrap_or(false)
    }

    fn at(&self) -> Cond {
        and(Cond::At(self.thread, self.loc), self.guard.clone())
    }
}

/// Whether two accesses of one cell by different threads, each `(write,
/// atomic)`, conflict: one writes, and not both are atomic.
pub(crate) fn kinds_conflict((w1, a1): (bool, bool), (w2, a2): (bool, bool)) -> bool {
    (w1 || w2) && !(a1 && a2)
}

/// When evaluating `c` reads `v`: C's `&&` and `||` evaluate their right
/// operand only when the left one does not decide, and the lowering builds
/// a condition's `And`/`Or` in C's order (left operand first), so in
/// `l != 5 || x <= 3` the cell `x` is read only when `l == 5`. A
/// comparison that mentions `v` reads it.
pub(crate) fn reads_when(c: &Cond, v: VarId) -> Cond {
    match c {
        Cond::True | Cond::False | Cond::At(..) | Cond::Cmp(..) => atom_reads(c, v),
        Cond::Not(a) => reads_when(a, v),
        Cond::And(a, b) => or(reads_when(a, v), right_reads(b, v, a, false)),
        Cond::Or(a, b) => or(reads_when(a, v), right_reads(b, v, a, true)),
    }
}

/// Whether an atom of a condition reads `v`: a comparison that mentions
/// it.
fn atom_reads(c: &Cond, v: VarId) -> Cond {
    let mut found = false;
    if let Cond::Cmp(..) = c {
        c.for_each_var(&mut |w| found |= w == v);
    }
    if found {
        Cond::True
    } else {
        Cond::False
    }
}

/// When the right operand `b` of `&&` (`negate` false) or `||` (true)
/// with left operand `a` reads `v`: where the left operand does not decide
/// (`a`, or `!a` for `||`) and `b` reads it. Built only when `b` reads it
/// at all, and the left operand is simplified under the values that
/// reading pins (`t == k`): a guard split into one case per cell of an
/// array, `i == 0 && .. || i == 1 && .. || ..`, reads cell `c` exactly
/// when `i == c`, not under a copy of every case before it (which made
/// the race conditions quadratic in the cells, and their making cubic).
fn right_reads(b: &Cond, v: VarId, a: &Cond, negate: bool) -> Cond {
    let reads = reads_when(b, v);
    if reads == Cond::False {
        return Cond::False;
    }
    let left = under_pins(a, &pinned(&reads));
    let left = if negate { crate::term::not(left) } else { left };
    and(left, reads)
}

/// `c` where the terms of `pins` have their values (folded): variables
/// wherever they occur, other terms where a comparison has them as a side.
fn under_pins(c: &Cond, pins: &[(Term, i64)]) -> Cond {
    if pins.is_empty() {
        return c.clone();
    }
    let value = |t: &Term| pins.iter().find(|(p, _)| p == t).map(|&(_, k)| k);
    let side = |t: &Term| match value(t) {
        Some(k) => Term::Const(k),
        None => crate::term::subst_term(t, &|x| value(&Term::Var(x)).map(Term::Const)),
    };
    match c {
        Cond::Cmp(op, a, b) => crate::term::cmp(*op, side(a), side(b)),
        Cond::Not(a) => crate::term::not(under_pins(a, pins)),
        Cond::And(a, b) => and(under_pins(a, pins), under_pins(b, pins)),
        Cond::Or(a, b) => or(under_pins(a, pins), under_pins(b, pins)),
        Cond::True | Cond::False | Cond::At(..) => c.clone(),
    }
}

/// The terms a condition pins to a constant by a conjunct `t == k`.
fn pinned(c: &Cond) -> Vec<(Term, i64)> {
    match c {
        Cond::And(a, b) => {
            let mut out = pinned(a);
            out.extend(pinned(b));
            out
        }
        Cond::Cmp(CmpOp::Eq, Term::Const(k), t) | Cond::Cmp(CmpOp::Eq, t, Term::Const(k)) => {
            vec![(t.clone(), *k)]
        }
        _ => Vec::new(),
    }
}

/// The condition under which a step with `guard` can take access `a`
/// next: the guard holds and, for a read by the guard alone, the guard's
/// evaluation reads the cell or the lowering recorded a read of it
/// ([`crate::cfg::Edge::reads`]).
pub(crate) fn access_guard(guard: &Cond, a: &Access) -> Cond {
    if a.in_guard_only {
        and(guard.clone(), or(reads_when(guard, a.var), a.also.clone()))
    } else {
        guard.clone()
    }
}

/// The accesses of one step to cells `relevant` accepts: a cell written is
/// a write, a cell only read a read (by the guard, a right-hand side, or a
/// read the lowering recorded).
pub(crate) fn step_accesses(
    e: &crate::cfg::Edge,
    atomic_step: bool,
    relevant: &dyn Fn(VarId) -> bool,
    atomic_var: &dyn Fn(VarId) -> bool,
) -> Vec<Access> {
    let mut written = BTreeSet::new();
    for (v, _) in &e.assigns {
        written.insert(*v);
    }
    let mut read = BTreeSet::new();
    e.guard.for_each_var(&mut |v| {
        read.insert(v);
    });
    let mut by_rhs = BTreeSet::new();
    e.for_each_rhs_read(&mut |v| {
        by_rhs.insert(v);
    });
    read.extend(by_rhs.iter().copied());
    for v in &e.havoc {
        read.remove(v);
    }
    // A read recorded under a condition the guard contradicts is none (a
    // case of an access split by cell records the reads of every case, and
    // a step for the indices outside the array those of none).
    let pins = pinned(&e.guard);
    let mut recorded: BTreeMap<VarId, Cond> = BTreeMap::new();
    for (c, v) in &e.reads {
        let c = &under_pins(c, &pins);
        let its_pins = pinned(c);
        if *c == Cond::False
            || (!its_pins.is_empty() && under_pins(&e.guard, &its_pins) == Cond::False)
        {
            continue;
        }
        let w = recorded.entry(*v).or_insert(Cond::False);
        *w = or(std::mem::replace(w, Cond::False), c.clone());
    }
    read.extend(recorded.keys().copied());
    written
        .iter()
        .map(|&v| (v, true))
        .chain(read.difference(&written).map(|&v| (v, false)))
        .filter(|(v, _)| relevant(*v))
        .map(|(var, write)| Access {
            var,
            write,
            atomic: atomic_step || atomic_var(var),
            in_guard_only: !write && !by_rhs.contains(&var),
            also: recorded.get(&var).cloned().unwrap_or(Cond::False),
        })
        .collect()
}

/// Sets [`crate::cfg::Edge::accesses`] of every step with an access that
/// may race with an access of another thread. `relevant`: the cells of C
/// objects the check covers; `atomic_var`: cells of `_Atomic` objects;
/// `conc`: what the reduction knows (none without it: every pair of
/// threads may then run together, holding no lock); `params`: per
/// thread's `run` flag, the cells of its start routine's parameter.
///
/// The step that starts a thread (sets its `run` flag) and writes its
/// parameter is no access of the parameter: the write happens before the
/// thread's first step, and before any other thread can learn the
/// parameter's address from it (`pthread_create` synchronises with the
/// start of the new thread). With the instances of a thread created in a
/// loop counted, the write would otherwise stand beside any instance's
/// read of its own parameter.
pub(crate) fn mark(
    threads: &mut [ThreadInst],
    relevant: &dyn Fn(VarId) -> bool,
    atomic_var: &dyn Fn(VarId) -> bool,
    conc: Option<&Concurrency>,
    params: &BTreeMap<VarId, Vec<VarId>>,
) {
    struct Candidate {
        thread: usize,
        edge: usize,
        access: Access,
        held: BTreeSet<VarId>,
    }
    let mut by_var: BTreeMap<VarId, Vec<Candidate>> = BTreeMap::new();
    for (k, t) in threads.iter().enumerate() {
        for (i, e) in t.cfg.edges.iter().enumerate() {
            if e.dead {
                continue;
            }
            let alone =
                k == 0 && conc.is_some_and(|c| c.alone.get(e.from).copied().unwrap_or(false));
            if alone {
                continue;
            }
            let atomic_step = t.cfg.locs[e.from].depth > 0 || t.cfg.locs[e.to].depth > 0;
            let held = conc
                .and_then(|c| c.held.get(k)?.get(e.from)?.clone())
                .unwrap_or_default();
            let started = started_params(e, params);
            for access in step_accesses(e, atomic_step, relevant, atomic_var) {
                if access.write && started.contains(&access.var) {
                    continue;
                }
                by_var.entry(access.var).or_default().push(Candidate {
                    thread: k,
                    edge: i,
                    access,
                    held: held.clone(),
                });
            }
        }
    }
    for candidates in by_var.values() {
        for c in candidates {
            let kind = |a: &Access| (a.write, a.atomic);
            let races = candidates.iter().any(|d| {
                d.thread != c.thread
                    && kinds_conflict(kind(&c.access), kind(&d.access))
                    && c.held.is_disjoint(&d.held)
            });
            if races {
                let e = &mut threads[c.thread].cfg.edges[c.edge];
                if !e.accesses.contains(&c.access) {
                    e.accesses.push(c.access.clone());
                }
            }
        }
    }
}

/// The parameter cells of the threads that step `e` starts (sets the
/// `run` flag of to 1).
fn started_params(e: &crate::cfg::Edge, params: &BTreeMap<VarId, Vec<VarId>>) -> BTreeSet<VarId> {
    e.assigns
        .iter()
        .filter(|(_, t)| matches!(t, engine::ir::Term::Const(1)))
        .filter_map(|(v, _)| params.get(v))
        .flatten()
        .copied()
        .collect()
}

/// The error disjuncts of the race check: per variable and pair of
/// threads, "one can write it next and the other access it next, not both
/// atomically". Each is conjoined with `running` (the program has not
/// stopped).
pub(crate) fn conditions(accesses: &[RaceAccess], running: &Cond) -> Vec<Cond> {
    // Per variable and thread, "can take an access of this kind next",
    // per kind `(write, atomic)`.
    const KINDS: [(bool, bool); 4] = [(false, false), (false, true), (true, false), (true, true)];
    let mut by: BTreeMap<VarId, BTreeMap<ThreadId, [Cond; 4]>> = BTreeMap::new();
    for a in accesses {
        let next = by
            .entry(a.var)
            .or_default()
            .entry(a.thread)
            .or_insert_with(|| [Cond::False, Cond::False, Cond::False, Cond::False]);
        let k = KINDS
            .iter()
            .position(|&k| k == (a.write, a.atomic))
            .expect("every kind is listed");
        next[k] = or(std::mem::replace(&mut next[k], Cond::False), a.at());
    }
    let mut out = Vec::new();
    for threads in by.values() {
        let list: Vec<&[Cond; 4]> = threads.values().collect();
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                let mut c = Cond::False;
                for (ka, ca) in KINDS.iter().zip(a.iter()) {
                    for (kb, cb) in KINDS.iter().zip(b.iter()) {
                        if kinds_conflict(*ka, *kb) {
                            c = or(c, and(ca.clone(), cb.clone()));
                        }
                    }
                }
                if c != Cond::False {
                    out.push(and(c, running.clone()));
                }
            }
        }
    }
    out
}

/// Two accesses that race in state `s`, the first a write, as indices
/// into `accesses`.
pub fn find(
    accesses: &[RaceAccess],
    s: &State,
    tag: &dyn Fn(VarId) -> bool,
) -> Option<(usize, usize)> {
    let next: Vec<usize> = (0..accesses.len())
        .filter(|&i| accesses[i].next_in(s))
        .collect();
    let mut pairs = next
        .iter()
        .flat_map(|&i| next.iter().map(move |&j| (i, j)))
        .filter(|&(i, j)| accesses[i].write && accesses[i].conflicts(&accesses[j]));
    // A race on a union's tag alone is between two members (see
    // `Lowered::trace_end`): one on a cell of C memory first.
    let first = pairs.next()?;
    Some(
        std::iter::once(first)
            .chain(pairs)
            .find(|&(i, _)| !tag(accesses[i].var))
            .unwrap_or(first),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{Cfg, Edge, LocKind};

    /// A thread `start -> a -(step)-> b`, `a` at atomic depth `depth`.
    fn thread(name: &str, step: Edge, depth: u32) -> ThreadInst {
        let mut cfg = Cfg::default();
        let start = cfg.loc(LocKind::Normal, None);
        let a = cfg.loc(LocKind::Normal, None);
        let b = cfg.loc(LocKind::Normal, None);
        cfg.locs[a].depth = depth;
        cfg.edge(Edge::new(start, a, Cond::True, vec![]));
        cfg.edge(Edge {
            from: a,
            to: b,
            ..step
        });
        ThreadInst {
            name: name.into(),
            func: name.into(),
            created_at: None,
            run: None,
            param: None,
            cfg,
            handles: None,
        }
    }

    const X: VarId = VarId(0);
    const Y: VarId = VarId(1);
    const M: VarId = VarId(2);

    fn write_x() -> Edge {
        Edge::new(0, 0, Cond::True, vec![(X, Term::Const(1))])
    }
    fn read_x_into_y() -> Edge {
        Edge::new(0, 0, Cond::True, vec![(Y, Term::Var(X))])
    }

    /// Marks the two threads' steps; returns the accesses of each thread's
    /// second step.
    fn marked(mut ts: Vec<ThreadInst>, conc: Option<&Concurrency>) -> Vec<Vec<Access>> {
        // X and Y are data, M is not (a mutex).
        mark(&mut ts, &|v| v != M, &|_| false, conc, &BTreeMap::new());
        ts.iter().map(|t| t.cfg.edges[1].accesses.clone()).collect()
    }

    #[test]
    fn the_start_of_a_thread_does_not_race_on_its_parameter() {
        // t1 starts t2 (sets its run flag R) and writes its parameter X;
        // t2 reads X.
        const R: VarId = VarId(3);
        let start = Edge::new(
            0,
            0,
            Cond::True,
            vec![(R, Term::Const(1)), (X, Term::Const(7))],
        );
        let params = BTreeMap::from([(R, vec![X])]);
        let mut ts = vec![thread("t1", start, 0), thread("t2", read_x_into_y(), 0)];
        mark(&mut ts, &|v| v != M && v != R, &|_| false, None, &params);
        assert!(ts.iter().all(|t| t.cfg.edges[1].accesses.is_empty()));
        // Another write of the parameter races with the read.
        let mut ts = vec![thread("t1", write_x(), 0), thread("t2", read_x_into_y(), 0)];
        mark(&mut ts, &|v| v != M && v != R, &|_| false, None, &params);
        assert!(ts.iter().all(|t| t.cfg.edges[1].accesses.len() == 1));
    }

    /// `reads_when` as C's order defines it, without simplification.
    fn reads_when_plain(c: &Cond, v: VarId) -> Cond {
        match c {
            Cond::True | Cond::False | Cond::At(..) | Cond::Cmp(..) => atom_reads(c, v),
            Cond::Not(a) => reads_when_plain(a, v),
            Cond::And(a, b) => or(
                reads_when_plain(a, v),
                and((**a).clone(), reads_when_plain(b, v)),
            ),
            Cond::Or(a, b) => or(
                reads_when_plain(a, v),
                and(crate::term::not((**a).clone()), reads_when_plain(b, v)),
            ),
        }
    }

    /// A xorshift step: a number below `n`.
    fn below(seed: &mut u64, n: u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed % n
    }

    /// A random comparison of one of variables 0..4 with a small constant.
    fn random_cmp(seed: &mut u64, op: CmpOp) -> Cond {
        let v = VarId(below(seed, 4) as u32);
        Cond::Cmp(op, Term::Var(v), Term::Const(below(seed, 3) as i64))
    }

    /// A random condition over variables 0..4 with small constants, with
    /// the case splits of array accesses (`x == k && ..`) among them.
    fn random_cond(seed: &mut u64, depth: u32) -> Cond {
        if depth == 0 || below(seed, 4) == 0 {
            let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Le, CmpOp::Gt][below(seed, 4) as usize];
            return random_cmp(seed, op);
        }
        let a = Box::new(random_cond(seed, depth - 1));
        let b = Box::new(random_cond(seed, depth - 1));
        match below(seed, 4) {
            0 => Cond::And(a, b),
            1 => Cond::Or(a, b),
            2 => Cond::Not(a),
            _ => Cond::And(Box::new(random_cmp(seed, CmpOp::Eq)), b),
        }
    }

    #[test]
    fn reads_when_agrees_with_cs_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..2000 {
            let c = random_cond(&mut seed, 4);
            for v in 0..4 {
                let (fast, plain) = (reads_when(&c, VarId(v)), reads_when_plain(&c, VarId(v)));
                for vals in 0..81_u32 {
                    let s = State {
                        locs: Vec::new(),
                        vals: (0..4)
                            .map(|k| i128::from(vals / 3_u32.pow(k) % 3))
                            .collect(),
                        arrays: Vec::new(),
                    };
                    let eval = |c: &Cond| engine::interp::eval_cond(c, &s).expect("no overflow");
                    assert_eq!(eval(&fast), eval(&plain), "{c:?} reads {v} at {:?}", s.vals);
                }
            }
        }
    }

    #[test]
    fn a_case_split_reads_each_cell_under_its_case_alone() {
        // `i == 0 && x0 > 0 || i == 1 && x1 > 0 || i == 2 && x2 > 0`
        let i = VarId(0);
        let case = |k: i64| {
            Cond::And(
                Box::new(Cond::Cmp(CmpOp::Eq, Term::Var(i), Term::Const(k))),
                Box::new(Cond::Cmp(
                    CmpOp::Gt,
                    Term::Var(VarId(1 + k as u32)),
                    Term::Const(0),
                )),
            )
        };
        let split = (1..3).fold(case(0), |c, k| Cond::Or(Box::new(c), Box::new(case(k))));
        assert_eq!(
            reads_when(&split, VarId(3)),
            Cond::Cmp(CmpOp::Eq, Term::Var(i), Term::Const(2))
        );
    }

    #[test]
    fn write_and_read_of_two_threads_race() {
        let got = marked(
            vec![thread("t1", write_x(), 0), thread("t2", read_x_into_y(), 0)],
            None,
        );
        let w = Access {
            var: X,
            write: true,
            atomic: false,
            in_guard_only: false,
            also: Cond::False,
        };
        let r = Access {
            var: X,
            write: false,
            atomic: false,
            in_guard_only: false,
            also: Cond::False,
        };
        assert_eq!(got[0], vec![w]);
        // t2 writes Y, which t1 never touches: only its read of X races.
        assert_eq!(got[1], vec![r]);
    }

    #[test]
    fn reads_only_do_not_race() {
        let got = marked(
            vec![
                thread("t1", read_x_into_y(), 0),
                thread("t2", Edge::new(0, 0, cmp_x(), vec![]), 0),
            ],
            None,
        );
        assert!(got[0].iter().all(|a| a.var != X), "{got:?}");
        assert!(got[1].is_empty(), "{got:?}");
    }

    fn cmp_x() -> Cond {
        Cond::Cmp(CmpOp::Gt, Term::Var(X), Term::Const(0))
    }

    #[test]
    fn a_common_lock_orders_the_accesses() {
        let held: Vec<Vec<Option<BTreeSet<VarId>>>> =
            vec![vec![None, Some(BTreeSet::from([M])), None]; 2];
        let locked = Concurrency {
            alone: vec![false; 3],
            held,
        };
        let got = marked(
            vec![thread("t1", write_x(), 0), thread("t2", write_x(), 0)],
            Some(&locked),
        );
        assert!(got.iter().all(Vec::is_empty), "{got:?}");
        // Without the lockset knowledge they race.
        let got = marked(
            vec![thread("t1", write_x(), 0), thread("t2", write_x(), 0)],
            None,
        );
        assert!(got.iter().all(|a| a.len() == 1), "{got:?}");
    }

    #[test]
    fn atomic_accesses_race_only_with_plain_ones() {
        let both = marked(
            vec![thread("t1", write_x(), 1), thread("t2", write_x(), 1)],
            None,
        );
        assert!(both.iter().all(Vec::is_empty), "{both:?}");
        let mixed = marked(
            vec![thread("t1", write_x(), 1), thread("t2", read_x_into_y(), 0)],
            None,
        );
        assert!(mixed[0][0].atomic && !mixed[1][0].atomic, "{mixed:?}");
    }

    #[test]
    fn main_alone_does_not_race() {
        let alone = Concurrency {
            alone: vec![true; 3],
            held: vec![vec![None; 3]; 2],
        };
        let got = marked(
            vec![thread("main", write_x(), 0), thread("t2", write_x(), 0)],
            Some(&alone),
        );
        assert!(got.iter().all(Vec::is_empty), "{got:?}");
    }

    fn access(thread: u32, loc: u32, write: bool, atomic: bool) -> RaceAccess {
        RaceAccess {
            thread: ThreadId(thread),
            loc: LocId(loc),
            guard: Cond::True,
            var: X,
            write,
            atomic,
            span: None,
        }
    }

    #[test]
    fn conditions_and_find_name_the_conflicting_pair() {
        let accesses = vec![
            access(0, 1, false, false),
            access(1, 1, true, false),
            access(1, 2, false, true),
        ];
        let conds = conditions(&accesses, &Cond::True);
        assert_eq!(conds.len(), 1);
        let state = |l0: u32, l1: u32| State {
            locs: vec![LocId(l0), LocId(l1)],
            vals: vec![0; 3],
            arrays: Vec::new(),
        };
        let holds = |s: &State| engine::interp::eval_cond(&conds[0], s).unwrap();
        // Thread 0 reads, thread 1 writes: a race, the write named first.
        assert!(holds(&state(1, 1)));
        assert_eq!(find(&accesses, &state(1, 1), &|_| false), Some((1, 0)));
        // Thread 1's atomic read and thread 0's plain read: no write.
        assert!(!holds(&state(1, 2)));
        assert_eq!(find(&accesses, &state(1, 2), &|_| false), None);
        assert!(!holds(&state(0, 1)));
    }
}
