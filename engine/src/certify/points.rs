//! Certificates whose invariants are explicit sets of states.
//!
//! A certificate built from the exhaustive search lists, per tuple of
//! thread locations, the states the search visited: every combination of
//! its blocks' disjuncts fixes every variable to a literal. Such an
//! invariant is a finite set of points, and its obligations need no
//! prover: a transition without inputs is evaluated on each point, and the
//! successor is looked up in the target tuple's set (or the target's
//! invariant is evaluated on it). This is the same check as the prover's
//! (the semantics of the module doc of [`super::check`], on mathematical
//! integers: an operation whose result does not fit `i128` is not
//! evaluated, and the caller falls back to the prover), only by
//! enumeration, which thousands of points need: the prover times out on
//! a disjunction of thousands of points on both sides of a consecution.

use super::Invariant;
use crate::ir::{CmpOp, Cond, LocId, Term};

/// A state: the value of every variable.
pub(super) type State = Vec<i128>;

/// The states of `inv` at tuple `locs` when every combination of its
/// blocks' disjuncts is a conjunction of `v == literal` (location tests
/// decided by the tuple) that fixes every one of the `nvars` variables;
/// `None` otherwise, or when there would be more than `limit` states.
pub(super) fn points(
    inv: &Invariant,
    nvars: usize,
    locs: &[LocId],
    limit: usize,
) -> Option<Vec<State>> {
    let mut partial: Vec<Vec<Option<i128>>> = vec![vec![None; nvars]];
    for block in &inv.blocks {
        let mut next = Vec::new();
        for disjunct in block {
            let Some(fixed) = equalities(disjunct, locs)? else {
                continue; // a location test the tuple falsifies
            };
            for p in &partial {
                let mut q = p.clone();
                let consistent = fixed.iter().all(|&(v, c)| {
                    let slot = q.get_mut(v);
                    match slot {
                        Some(Some(old)) => *old == c,
                        Some(s) => {
                            *s = Some(c);
                            true
                        }
                        None => false,
                    }
                });
                if consistent {
                    next.push(q);
                    if next.len() > limit {
                        return None;
                    }
                }
            }
        }
        partial = next;
    }
    let mut states: Vec<State> = partial
        .into_iter()
        .map(|p| p.into_iter().collect::<Option<State>>())
        .collect::<Option<_>>()?;
    states.sort_unstable();
    states.dedup();
    Some(states)
}

/// The variables a conjunction fixes: `Some(None)` when a location test is
/// false at the tuple (the disjunct is empty), `None` when a conjunct is
/// not `v == literal`, `true` or a location test.
fn equalities(conj: &[Cond], locs: &[LocId]) -> Option<Option<Vec<(usize, i128)>>> {
    let mut out = Vec::new();
    for c in conj {
        match c {
            Cond::True => {}
            Cond::At(t, l) => {
                if locs.get(t.index()) != Some(l) {
                    return Some(None);
                }
            }
            Cond::Cmp(CmpOp::Eq, Term::Var(v), Term::Const(k))
            | Cond::Cmp(CmpOp::Eq, Term::Const(k), Term::Var(v)) => {
                out.push((v.index(), i128::from(*k)));
            }
            _ => return None,
        }
    }
    Some(Some(out))
}

/// The value of a term in a state; `None` when an intermediate result
/// does not fit `i128` (or a divisor is not positive, which the IR
/// forbids).
pub(super) fn term(t: &Term, s: &[i128]) -> Option<i128> {
    Some(match t {
        Term::Const(k) => i128::from(*k),
        Term::Var(v) => *s.get(v.index())?,
        Term::Add(a, b) => term(a, s)?.checked_add(term(b, s)?)?,
        Term::Sub(a, b) => term(a, s)?.checked_sub(term(b, s)?)?,
        Term::Mul(k, a) => i128::from(*k).checked_mul(term(a, s)?)?,
        Term::Neg(a) => term(a, s)?.checked_neg()?,
        Term::Div(a, k) if *k > 0 => term(a, s)?.div_euclid(i128::from(*k)),
        Term::Mod(a, k) if *k > 0 => term(a, s)?.rem_euclid(i128::from(*k)),
        Term::Div(..) | Term::Mod(..) => return None,
        Term::Nl(op, a, b) => op.apply(term(a, s)?, term(b, s)?)?,
        Term::Select(..) => return None,
    })
}

/// The truth of a condition in a state at tuple `locs`.
pub(super) fn cond(c: &Cond, locs: &[LocId], s: &[i128]) -> Option<bool> {
    Some(match c {
        Cond::True => true,
        Cond::False => false,
        Cond::Cmp(op, a, b) => {
            let (a, b) = (term(a, s)?, term(b, s)?);
            op.holds(a, b)
        }
        Cond::At(t, l) => locs.get(t.index()) == Some(l),
        Cond::Not(a) => !cond(a, locs, s)?,
        Cond::And(a, b) => cond(a, locs, s)? && cond(b, locs, s)?,
        Cond::Or(a, b) => cond(a, locs, s)? || cond(b, locs, s)?,
    })
}

/// Whether a state satisfies an invariant (every block has a disjunct
/// whose conjuncts all hold).
pub(super) fn holds(inv: &Invariant, locs: &[LocId], s: &[i128]) -> Option<bool> {
    for block in &inv.blocks {
        let mut any = false;
        for disjunct in block {
            let mut all = true;
            for c in disjunct {
                if !cond(c, locs, s)? {
                    all = false;
                    break;
                }
            }
            if all {
                any = true;
                break;
            }
        }
        if !any {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{ThreadId, VarId};

    fn eq(v: u32, k: i64) -> Cond {
        Cond::Cmp(CmpOp::Eq, Term::Var(VarId(v)), Term::Const(k))
    }

    #[test]
    fn blocks_of_equalities_are_points() {
        let inv = Invariant {
            locs: vec![LocId(0)],
            blocks: vec![
                vec![vec![eq(0, 1)]],
                vec![vec![eq(1, 2)], vec![eq(1, 3)], vec![eq(1, 4), eq(0, 9)]],
            ],
        };
        let pts = points(&inv, 2, &[LocId(0)], 100).expect("points");
        // The last disjunct contradicts the first block.
        assert_eq!(pts, vec![vec![1, 2], vec![1, 3]]);
        assert_eq!(holds(&inv, &[LocId(0)], &[1, 3]), Some(true));
        assert_eq!(holds(&inv, &[LocId(0)], &[1, 4]), Some(false));
    }

    #[test]
    fn anything_else_is_not_a_point_set() {
        let unfixed = Invariant {
            locs: vec![LocId(0)],
            blocks: vec![vec![vec![eq(0, 1)]]],
        };
        assert_eq!(points(&unfixed, 2, &[LocId(0)], 100), None);
        let range = Invariant {
            locs: vec![LocId(0)],
            blocks: vec![vec![vec![Cond::Cmp(
                CmpOp::Ge,
                Term::Var(VarId(0)),
                Term::Const(0),
            )]]],
        };
        assert_eq!(points(&range, 1, &[LocId(0)], 100), None);
        let many = Invariant {
            locs: vec![LocId(0)],
            blocks: vec![(0..10).map(|k| vec![eq(0, k)]).collect()],
        };
        assert_eq!(points(&many, 1, &[LocId(0)], 5), None);
        // A location test the tuple falsifies drops its disjunct.
        let at = Invariant {
            locs: vec![LocId(0)],
            blocks: vec![vec![
                vec![Cond::At(ThreadId(0), LocId(1)), eq(0, 1)],
                vec![eq(0, 2)],
            ]],
        };
        assert_eq!(points(&at, 1, &[LocId(0)], 5), Some(vec![vec![2]]));
    }

    #[test]
    fn evaluation_is_exact_or_refuses() {
        let x = || Box::new(Term::Var(VarId(0)));
        assert_eq!(term(&Term::Div(x(), 2), &[-3]), Some(-2));
        assert_eq!(term(&Term::Mod(x(), 2), &[-3]), Some(1));
        assert_eq!(term(&Term::Mul(2, x()), &[i128::MAX]), None);
    }
}
