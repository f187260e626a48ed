//! Simplifications after compression: variables that every remaining step
//! keeps at their initial value, and inputs whose value only decides a
//! branch.
//!
//! * A variable whose every write, in every thread, stores its initial value
//!   whenever it holds that value, holds it in every reachable state (by
//!   induction over executions); its reads become the constant and its
//!   writes disappear. After reduction this is typically a mutex whose every
//!   acquire is merged with its release into one step.
//! * `havoc v; assume g` where `v` is a thread-local temporary that the step
//!   does not read on its right-hand sides and that is dead afterwards (or
//!   overwritten by the step): only whether some value of `v` satisfies `g`
//!   matters. When every conjunct of `g` that mentions `v` compares `v`
//!   with a literal, that is decided here and `v` leaves the step: a
//!   `while (__VERIFIER_nondet_int())` becomes a nondeterministic branch
//!   without an input. So is it when those conjuncts bound one sum `s +
//!   c·v` by a range of at least `|c|` values: some `v` satisfies them
//!   whatever `s` is (the quotient of a wrap whose value is not used).

use std::collections::BTreeSet;

use engine::ir::{CmpOp, Cond, Term, VarId};
use engine::linear::{term_to_lin, Lin};

use crate::cfg::{Cfg, Edge};
use crate::lower::{ThreadInst, VarInfo};
use crate::term::{and, subst_cond, subst_term};

/// Replaces variables that stay at their initial value by that value.
/// `keep` are variables that must stay (read outside the threads' edges).
pub(super) fn invariant_constants(
    threads: &mut [ThreadInst],
    vars: &[VarInfo],
    keep: &dyn Fn(VarId) -> bool,
) {
    let mut constant: Vec<Option<i64>> = vars.iter().map(|v| v.init).collect();
    for (i, c) in constant.iter_mut().enumerate() {
        if keep(VarId::new(i)) {
            *c = None;
        }
    }
    // Remove candidates until every write of the rest preserves them.
    loop {
        let mut changed = false;
        let snapshot = constant.clone();
        let sigma = |v: VarId| snapshot[v.index()].map(Term::Const);
        for t in threads.iter() {
            for e in t.cfg.live() {
                for v in &e.havoc {
                    if constant[v.index()].take().is_some() {
                        changed = true;
                    }
                }
                for (v, rhs) in &e.assigns {
                    if let Some(c) = constant[v.index()] {
                        if subst_term(rhs, &sigma) != Term::Const(c) {
                            constant[v.index()] = None;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let sigma = |v: VarId| constant[v.index()].map(Term::Const);
    for t in threads.iter_mut() {
        for e in t.cfg.edges.iter_mut().filter(|e| !e.dead) {
            e.guard = subst_cond(&e.guard, &sigma);
            e.assigns.retain(|(v, _)| constant[v.index()].is_none());
            for (_, rhs) in &mut e.assigns {
                *rhs = subst_term(rhs, &sigma);
            }
            for (_, i, t) in &mut e.stores {
                *i = subst_term(i, &sigma);
                *t = subst_term(t, &sigma);
            }
            if e.guard == Cond::False {
                e.dead = true;
            }
        }
        t.cfg.edges.retain(|e| !e.dead);
    }
}

/// Removes the writes of variables that no step reads (dead stores).
/// `keep` are variables that must stay.
pub(super) fn unread_variables(
    threads: &mut [ThreadInst],
    nvars: usize,
    keep: &dyn Fn(VarId) -> bool,
) {
    let mut read = vec![false; nvars];
    for t in threads.iter() {
        for e in t.cfg.live() {
            e.for_each_read(&mut |v| read[v.index()] = true);
        }
    }
    let dead = |v: VarId| !read[v.index()] && !keep(v);
    for t in threads.iter_mut() {
        for e in t.cfg.edges.iter_mut() {
            e.assigns.retain(|(v, _)| !dead(*v));
            e.havoc.retain(|v| !dead(*v));
        }
    }
}

/// Decides dead inputs that only feed comparisons with literals.
pub(super) fn dead_inputs(cfg: &mut Cfg, local: &dyn Fn(VarId) -> bool) {
    let live = liveness(cfg, local);
    for e in cfg.edges.iter_mut().filter(|e| !e.dead) {
        let mut rhs_reads = BTreeSet::new();
        e.for_each_rhs_read(&mut |v| {
            rhs_reads.insert(v);
        });
        let candidates: Vec<VarId> = e
            .havoc
            .iter()
            .copied()
            .filter(|v| {
                local(*v)
                    && !rhs_reads.contains(v)
                    && (!live[e.to].contains(v) || e.assigns.iter().any(|(w, _)| w == v))
            })
            .collect();
        // Again while some input leaves: the quotient of a wrap may bound
        // the one of an earlier wrap (`t - 2^32·q1 - 2^32·q2`).
        let mut left = candidates;
        loop {
            let before = left.len();
            left.retain(|&v| !decide(e, v));
            if e.dead || left.len() == before {
                break;
            }
        }
    }
    cfg.edges.retain(|e| !e.dead);
}

/// Decides the input `v` of `e` when the conjuncts of its guard that
/// mention `v` allow it ([`satisfiable`], [`always_solvable`]): `v` leaves
/// the step's havoc and those conjuncts its guard (or the step is dead).
/// Whether it did.
fn decide(e: &mut Edge, v: VarId) -> bool {
    let mut conjuncts = Vec::new();
    crate::cfg::conjuncts_of(&e.guard, &mut conjuncts);
    let (about, rest): (Vec<Cond>, Vec<Cond>) = conjuncts.into_iter().partition(|c| {
        let mut m = false;
        c.for_each_var(&mut |w| m |= w == v);
        m
    });
    let sat = match satisfiable(v, &about) {
        Some(sat) => sat,
        None if always_solvable(v, &about) => true,
        None => return false,
    };
    e.havoc.retain(|w| *w != v);
    e.guard = if sat {
        rest.into_iter().fold(Cond::True, and)
    } else {
        Cond::False
    };
    if e.guard == Cond::False {
        e.dead = true;
    }
    true
}

/// Whether every value of the other variables leaves some integer `v`
/// that satisfies all the conditions: each bounds one sum `s + c·v` (the
/// same for all, up to sign) by a literal, and the bounds leave room for
/// `|c|` consecutive values, one of which `s + c·v` takes whatever `s` is.
/// This is the quotient of a wrap into a type's range, `lo <= t - 2^32·q
/// <= hi` with `hi - lo + 1 = 2^32` (`lower::expr`'s `wrap`), when the
/// wrapped value is not used: the guard then holds for one `q`, whatever
/// `t` is.
fn always_solvable(v: VarId, conds: &[Cond]) -> bool {
    let mut shape: Option<Vec<(u32, i128)>> = None;
    let (mut lo, mut hi) = (i128::MIN, i128::MAX);
    let coefficient = |terms: &[(u32, i128)]| terms.iter().find(|(s, _)| *s == v.0).map(|t| t.1);
    for c in conds {
        let Cond::Cmp(op, a, b) = c else {
            return false;
        };
        // `form + k op 0`, `v`'s coefficient made positive.
        let d = Term::Sub(Box::new(a.clone()), Box::new(b.clone()));
        if d.divides() {
            return false;
        }
        let mut lin = term_to_lin(&d);
        let mut op = *op;
        if coefficient(&lin.terms).is_some_and(|c| c < 0) {
            lin = lin.scale(-1);
            op = op.flip();
        }
        let Lin { terms, constant: k } = lin;
        if shape.get_or_insert_with(|| terms.clone()) != &terms {
            return false;
        }
        match op {
            CmpOp::Lt => hi = hi.min(-k - 1),
            CmpOp::Le => hi = hi.min(-k),
            CmpOp::Gt => lo = lo.max(-k + 1),
            CmpOp::Ge => lo = lo.max(-k),
            CmpOp::Eq | CmpOp::Ne => return false,
        }
    }
    let Some(c) = shape.as_deref().and_then(coefficient) else {
        return false;
    };
    matches!(hi.checked_sub(lo), Some(d) if d < i128::MAX && d + 1 >= c)
}

/// The local variables live at each location (read before written on some
/// path), over the edges' havoc, guard and assignments.
fn liveness(cfg: &Cfg, local: &dyn Fn(VarId) -> bool) -> Vec<BTreeSet<VarId>> {
    let mut live: Vec<BTreeSet<VarId>> = vec![BTreeSet::new(); cfg.locs.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for e in cfg.live() {
            let mut before: BTreeSet<VarId> = live[e.to].clone();
            for (v, _) in &e.assigns {
                before.remove(v);
            }
            e.for_each_read(&mut |v| {
                if local(v) {
                    before.insert(v);
                }
            });
            for v in &e.havoc {
                before.remove(v);
            }
            if !before.is_subset(&live[e.from]) {
                live[e.from].extend(before);
                changed = true;
            }
        }
    }
    live
}

/// Whether some integer `v` satisfies all the conditions, when each is a
/// comparison of `v` with a literal (`None` otherwise).
fn satisfiable(v: VarId, conds: &[Cond]) -> Option<bool> {
    let (mut lo, mut hi) = (i128::MIN, i128::MAX);
    let mut eq: Option<i128> = None;
    let mut ne = BTreeSet::new();
    for c in conds {
        let (op, k) = match c {
            Cond::Cmp(op, Term::Var(x), Term::Const(k)) if *x == v => (*op, i128::from(*k)),
            Cond::Cmp(op, Term::Const(k), Term::Var(x)) if *x == v => (op.flip(), i128::from(*k)),
            _ => return None,
        };
        match op {
            CmpOp::Eq => {
                if eq.is_some_and(|e| e != k) {
                    return Some(false);
                }
                eq = Some(k);
            }
            CmpOp::Ne => {
                ne.insert(k);
            }
            CmpOp::Lt => hi = hi.min(k - 1),
            CmpOp::Le => hi = hi.min(k),
            CmpOp::Gt => lo = lo.max(k + 1),
            CmpOp::Ge => lo = lo.max(k),
        }
    }
    Some(match eq {
        Some(x) => lo <= x && x <= hi && !ne.contains(&x),
        None => {
            if lo > hi {
                false
            } else {
                let excluded = ne.range(lo..=hi).count() as i128;
                // `hi - lo + 1` values, minus the excluded ones.
                !matches!(hi.checked_sub(lo), Some(d) if d < excluded)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(op: CmpOp, v: VarId, k: i64) -> Cond {
        Cond::Cmp(op, Term::Var(v), Term::Const(k))
    }

    #[test]
    fn satisfiability_of_bounds_and_exclusions() {
        let v = VarId(0);
        let int = [c(CmpOp::Ge, v, -5), c(CmpOp::Le, v, 5)];
        assert_eq!(
            satisfiable(v, &[int[0].clone(), int[1].clone(), c(CmpOp::Ne, v, 0)]),
            Some(true)
        );
        assert_eq!(
            satisfiable(v, &[c(CmpOp::Eq, v, 6), int[1].clone()]),
            Some(false)
        );
        assert_eq!(
            satisfiable(
                v,
                &[c(CmpOp::Ge, v, 1), c(CmpOp::Le, v, 1), c(CmpOp::Ne, v, 1)]
            ),
            Some(false)
        );
        assert_eq!(
            satisfiable(
                v,
                &[c(CmpOp::Ge, v, 1), c(CmpOp::Le, v, 2), c(CmpOp::Ne, v, 1)]
            ),
            Some(true)
        );
        assert_eq!(
            satisfiable(v, &[c(CmpOp::Gt, v, 3), c(CmpOp::Lt, v, 4)]),
            Some(false)
        );
        let other = Cond::Cmp(CmpOp::Eq, Term::Var(v), Term::Var(VarId(1)));
        assert_eq!(satisfiable(v, &[other]), None);
        assert_eq!(satisfiable(v, &[]), Some(true));
    }

    #[test]
    fn the_quotient_of_a_wrap_always_has_a_value() {
        // `-2^31 <= t - 2^32·q <= 2^31 - 1`, `t = x - 2^32·p`: one `q` fits
        // whatever `x` and `p` are; a narrower range, or a step of 3 over a
        // range of 2, need not.
        let (q, x, p) = (VarId(0), VarId(1), VarId(2));
        let m = 1i64 << 32;
        let t = Term::Sub(
            Box::new(Term::Sub(
                Box::new(Term::Var(x)),
                Box::new(Term::Mul(m, Box::new(Term::Var(p)))),
            )),
            Box::new(Term::Mul(m, Box::new(Term::Var(q)))),
        );
        let within = |lo: i64, hi: i64| {
            [
                Cond::Cmp(CmpOp::Le, Term::Const(lo), t.clone()),
                Cond::Cmp(CmpOp::Le, t.clone(), Term::Const(hi)),
            ]
        };
        assert!(always_solvable(
            q,
            &within(i32::MIN.into(), i32::MAX.into())
        ));
        assert!(!always_solvable(q, &within(0, 1000)));
        // The same of `p`, whatever `q` is.
        assert!(always_solvable(
            p,
            &within(i32::MIN.into(), i32::MAX.into())
        ));
        // Bounds of two different sums: not this shape.
        let [low, _] = within(i32::MIN.into(), i32::MAX.into());
        let other = Cond::Cmp(CmpOp::Le, Term::Var(q), Term::Const(5));
        assert!(!always_solvable(q, &[low, other]));
        let three = [
            Cond::Cmp(
                CmpOp::Ge,
                Term::Mul(3, Box::new(Term::Var(q))),
                Term::Var(x),
            ),
            Cond::Cmp(
                CmpOp::Lt,
                Term::Mul(3, Box::new(Term::Var(q))),
                Term::Add(Box::new(Term::Var(x)), Box::new(Term::Const(2))),
            ),
        ];
        assert!(!always_solvable(q, &three));
        // Equalities are left to `satisfiable`.
        let eq = Cond::Cmp(CmpOp::Eq, Term::Var(q), Term::Var(x));
        assert!(!always_solvable(q, &[eq]));
    }
}
