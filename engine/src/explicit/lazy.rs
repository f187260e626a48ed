//! Guards over lazy values ([`super::UNDEF`]): a three-valued evaluation
//! in which every lazy variable ranges over an interval. A guard that holds
//! (or fails) for every value of the interval need not choose the values;
//! lowered C tests every input against its type's range right after
//! reading it, and those tests should not force the search to enumerate
//! values that nothing else reads.

use super::{UNDEF, UNDEF_NAT};
use crate::interp::State;
use crate::ir::{CmpOp, Cond, Term};

/// A closed interval of values; `i128::MIN`/`i128::MAX` stand for no bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Interval {
    lo: i128,
    hi: i128,
}

const ANY: Interval = Interval {
    lo: i128::MIN,
    hi: i128::MAX,
};

/// The values a lazy variable stands for: [`UNDEF`] any in `full`,
/// [`UNDEF_NAT`] any in `nat`.
#[derive(Clone, Copy, Debug)]
struct Domains {
    full: Interval,
    nat: Interval,
}

impl Interval {
    fn point(x: i128) -> Self {
        Interval { lo: x, hi: x }
    }
    fn unbounded(self) -> bool {
        self.lo == i128::MIN || self.hi == i128::MAX
    }
}

/// Bounds of a term; a lazy variable lies in `lazy`.
fn term(t: &Term, s: &State, lazy: Domains) -> Interval {
    let known = |i: Interval| if i.unbounded() { ANY } else { i };
    match t {
        Term::Const(k) => Interval::point(i128::from(*k)),
        Term::Var(v) => match s.vals[v.index()] {
            UNDEF => lazy.full,
            UNDEF_NAT => lazy.nat,
            x => Interval::point(x),
        },
        Term::Add(a, b) | Term::Sub(a, b) => {
            let (a, b) = (term(a, s, lazy), term(b, s, lazy));
            if a.unbounded() || b.unbounded() {
                return ANY;
            }
            let ends = if matches!(t, Term::Add(..)) {
                a.lo.checked_add(b.lo).zip(a.hi.checked_add(b.hi))
            } else {
                a.lo.checked_sub(b.hi).zip(a.hi.checked_sub(b.lo))
            };
            ends.map_or(ANY, |(lo, hi)| known(Interval { lo, hi }))
        }
        Term::Mul(k, a) => {
            let a = term(a, s, lazy);
            let k = i128::from(*k);
            if a.unbounded() {
                return ANY;
            }
            match (a.lo.checked_mul(k), a.hi.checked_mul(k)) {
                (Some(x), Some(y)) => known(Interval {
                    lo: x.min(y),
                    hi: x.max(y),
                }),
                _ => ANY,
            }
        }
        Term::Neg(a) => {
            let a = term(a, s, lazy);
            if a.unbounded() {
                return ANY;
            }
            known(Interval {
                lo: -a.hi,
                hi: -a.lo,
            })
        }
        // Division, remainder and the non-linear operations: exact on
        // points only.
        Term::Div(..) | Term::Mod(..) | Term::Nl(..) => {
            match crate::interp::eval_term(t, &s.vals) {
                Ok(x) if !reads_undef(t, s) => Interval::point(x),
                _ => ANY,
            }
        }
    }
}

fn reads_undef(t: &Term, s: &State) -> bool {
    let mut found = false;
    t.for_each_var(&mut |v| found |= super::is_lazy(s.vals[v.index()]));
    found
}

/// The truth value of `c` for every value of the lazy variables in `lazy`
/// (each on its own), or `None` when it depends on them.
fn cond(c: &Cond, s: &State, lazy: Domains) -> Option<bool> {
    match c {
        Cond::True => Some(true),
        Cond::False => Some(false),
        Cond::At(t, l) => Some(s.locs[t.index()] == *l),
        Cond::Not(a) => cond(a, s, lazy).map(|b| !b),
        Cond::And(a, b) => match (cond(a, s, lazy), cond(b, s, lazy)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        Cond::Or(a, b) => match (cond(a, s, lazy), cond(b, s, lazy)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        Cond::Cmp(op, a, b) => {
            let (a, b) = (term(a, s, lazy), term(b, s, lazy));
            if a.unbounded() || b.unbounded() {
                return None;
            }
            let (always, never) = match op {
                CmpOp::Lt => (a.hi < b.lo, a.lo >= b.hi),
                CmpOp::Le => (a.hi <= b.lo, a.lo > b.hi),
                CmpOp::Gt => (a.lo > b.hi, a.hi <= b.lo),
                CmpOp::Ge => (a.lo >= b.hi, a.hi < b.lo),
                CmpOp::Eq => (
                    a.lo == a.hi && b.lo == b.hi && a.lo == b.lo,
                    a.hi < b.lo || b.hi < a.lo,
                ),
                CmpOp::Ne => (
                    a.hi < b.lo || b.hi < a.lo,
                    a.lo == a.hi && b.lo == b.hi && a.lo == b.lo,
                ),
            };
            if always {
                Some(true)
            } else if never {
                Some(false)
            } else {
                None
            }
        }
    }
}

/// What a guard that reads lazy values says without choosing them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guard {
    /// False for every value: the transition is disabled.
    Never,
    /// True for every value the search would choose (`[-bound, bound]`,
    /// `[0, bound]` for [`UNDEF_NAT`]): the transition is taken with the
    /// values left lazy.
    Sampled,
    /// True for every value in `[0, bound]` of the lazy values: the
    /// transition is taken with them narrowed to [`UNDEF_NAT`].
    Narrowed,
    /// It depends on the values: they must be chosen.
    Depends,
}

/// Decides `guard` in `s`, where lazy variables hold [`UNDEF`] or
/// [`UNDEF_NAT`].
pub(super) fn guard(guard: &Cond, s: &State, bound: i128) -> Guard {
    // Any integer: an interval without bounds is never decided by a
    // comparison, so a lazy variable is given a huge finite range instead.
    let huge = Interval {
        lo: i128::MIN / 4,
        hi: i128::MAX / 4,
    };
    let any = Domains {
        full: huge,
        nat: huge,
    };
    if cond(guard, s, any) == Some(false) {
        return Guard::Never;
    }
    let nat = Interval { lo: 0, hi: bound };
    let sampled = Domains {
        full: Interval {
            lo: -bound,
            hi: bound,
        },
        nat,
    };
    if cond(guard, s, sampled) == Some(true) {
        return Guard::Sampled;
    }
    match cond(guard, s, Domains { full: nat, nat }) {
        Some(true) => Guard::Narrowed,
        _ => Guard::Depends,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{LocId, VarId};

    fn state(vals: Vec<i128>) -> State {
        State {
            locs: vec![LocId(0)],
            vals,
        }
    }

    fn cmp(op: CmpOp, a: Term, b: Term) -> Cond {
        Cond::Cmp(op, a, b)
    }

    #[test]
    fn type_range_tests_hold_for_the_sampled_values() {
        let v = Term::Var(VarId(0));
        let in_int = Cond::And(
            Box::new(cmp(CmpOp::Le, Term::Const(-2147483648), v.clone())),
            Box::new(cmp(CmpOp::Le, v.clone(), Term::Const(2147483647))),
        );
        let s = state(vec![UNDEF, 0]);
        assert_eq!(guard(&in_int, &s, 10), Guard::Sampled);
        // Another conjunct false whatever the lazy value: disabled.
        let off = Cond::And(
            Box::new(in_int.clone()),
            Box::new(cmp(CmpOp::Ne, Term::Var(VarId(1)), Term::Const(0))),
        );
        assert_eq!(guard(&off, &s, 10), Guard::Never);
        // An unsigned type's range: the values are narrowed to [0, B].
        let unsigned = Cond::And(
            Box::new(cmp(CmpOp::Le, Term::Const(0), v.clone())),
            Box::new(cmp(CmpOp::Le, v.clone(), Term::Const(4294967295))),
        );
        assert_eq!(guard(&unsigned, &s, 10), Guard::Narrowed);
        let narrowed = state(vec![UNDEF_NAT, 0]);
        assert_eq!(guard(&unsigned, &narrowed, 10), Guard::Sampled);
        // A test the sampled values split: they must be chosen.
        let split = cmp(CmpOp::Gt, v.clone(), Term::Const(5));
        assert_eq!(guard(&split, &s, 10), Guard::Depends);
        // False for the sampled values but not for every integer.
        let big = cmp(CmpOp::Gt, v, Term::Const(100));
        assert_eq!(guard(&big, &s, 10), Guard::Depends);
    }

    #[test]
    fn arithmetic_widens_the_interval() {
        let v = Term::Var(VarId(0));
        let s = state(vec![UNDEF, 3]);
        // 2 * v + x <= 23 for v in [-10, 10], x = 3.
        let t = Term::Add(
            Box::new(Term::Mul(2, Box::new(v))),
            Box::new(Term::Var(VarId(1))),
        );
        assert_eq!(
            guard(&cmp(CmpOp::Le, t.clone(), Term::Const(23)), &s, 10),
            Guard::Sampled
        );
        assert_eq!(
            guard(&cmp(CmpOp::Le, t, Term::Const(22)), &s, 10),
            Guard::Depends
        );
    }
}
