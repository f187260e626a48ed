//! Three-valued evaluation over intervals: the bounds of a term when some
//! of its parts are only known to lie in intervals, and the truth value of
//! a condition for every such value (`None`: it depends on them). Used by
//! the explicit search for its lazy values and by the partial-order
//! reduction for a thread's own variables over its future.

use crate::ir::{CmpOp, Cond, LocId, Term, ThreadId};

/// A closed interval of values; `i128::MIN`/`i128::MAX` stand for no bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// The least value.
    pub lo: i128,
    /// The greatest value.
    pub hi: i128,
}

/// Every value.
pub const ANY: Interval = Interval {
    lo: i128::MIN,
    hi: i128::MAX,
};

impl Interval {
    /// The one value `x`.
    pub fn point(x: i128) -> Self {
        Interval { lo: x, hi: x }
    }

    /// Whether a bound is missing.
    pub fn unbounded(self) -> bool {
        self.lo == i128::MIN || self.hi == i128::MAX
    }

    /// The smallest interval holding both.
    pub fn hull(self, other: Interval) -> Interval {
        Interval {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    /// The values of both (`None`: none).
    pub fn meet(self, other: Interval) -> Option<Interval> {
        let (lo, hi) = (self.lo.max(other.lo), self.hi.min(other.hi));
        (lo <= hi).then_some(Interval { lo, hi })
    }

    /// Whether every value of `self` is one of `other`.
    pub fn within(self, other: Interval) -> bool {
        other.lo <= self.lo && self.hi <= other.hi
    }
}

/// What an evaluation knows of the leaves: `term(t)` gives the bounds of a
/// subterm it decides itself (a variable, or a quotient of known values),
/// `None` to let the evaluation compute them from the parts; `at` the
/// truth of a location test (`None`: unknown).
pub struct Leaves<'a> {
    /// Bounds of the subterms the caller knows.
    pub term: &'a dyn Fn(&Term) -> Option<Interval>,
    /// Truth of `thread@loc`.
    pub at: &'a dyn Fn(ThreadId, LocId) -> Option<bool>,
}

/// Bounds of `t`: [`ANY`] where an operation leaves the range of `i128` or
/// a part is unbounded.
pub fn term(t: &Term, leaves: &Leaves) -> Interval {
    if let Some(known) = (leaves.term)(t) {
        return known;
    }
    let known = |i: Interval| if i.unbounded() { ANY } else { i };
    match t {
        Term::Const(k) => Interval::point(i128::from(*k)),
        Term::Add(a, b) | Term::Sub(a, b) => {
            let (a, b) = (term(a, leaves), term(b, leaves));
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
            let a = term(a, leaves);
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
            let a = term(a, leaves);
            if a.unbounded() {
                return ANY;
            }
            known(Interval {
                lo: -a.hi,
                hi: -a.lo,
            })
        }
        // Variables the caller does not bound, division, remainder and
        // the non-linear operations.
        _ => ANY,
    }
}

/// The truth value of `c` for every value of its parts in their bounds
/// (each on its own, even when two are equal), or `None` when it depends
/// on them.
pub fn cond(c: &Cond, leaves: &Leaves) -> Option<bool> {
    match c {
        Cond::True => Some(true),
        Cond::False => Some(false),
        Cond::At(t, l) => (leaves.at)(*t, *l),
        Cond::Not(a) => cond(a, leaves).map(|b| !b),
        Cond::And(a, b) => match (cond(a, leaves), cond(b, leaves)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        Cond::Or(a, b) => match (cond(a, leaves), cond(b, leaves)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        Cond::Cmp(op, a, b) => {
            let (a, b) = (term(a, leaves), term(b, leaves));
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
