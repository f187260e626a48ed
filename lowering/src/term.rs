//! Smart constructors over the IR's terms and conditions (constant folding,
//! trivial simplification), substitution, and value ranges.

use engine::ir::{CmpOp, Cond, NlOp, Term, VarId};

/// `a + b`, folded.
pub fn add(a: Term, b: Term) -> Term {
    match (&a, &b) {
        (Term::Const(x), Term::Const(y)) => match x.checked_add(*y) {
            Some(s) => Term::Const(s),
            None => Term::Add(Box::new(a), Box::new(b)),
        },
        (Term::Const(0), _) => b,
        (_, Term::Const(0)) => a,
        (_, Term::Const(y)) if *y < 0 && *y != i64::MIN => {
            Term::Sub(Box::new(a), Box::new(Term::Const(-y)))
        }
        _ => Term::Add(Box::new(a), Box::new(b)),
    }
}

/// `a - b`, folded.
pub fn sub(a: Term, b: Term) -> Term {
    match (&a, &b) {
        (Term::Const(x), Term::Const(y)) => match x.checked_sub(*y) {
            Some(s) => Term::Const(s),
            None => Term::Sub(Box::new(a), Box::new(b)),
        },
        (_, Term::Const(0)) => a,
        _ if a == b => Term::Const(0),
        _ => Term::Sub(Box::new(a), Box::new(b)),
    }
}

/// `k * a`, folded.
pub fn mul(k: i64, a: Term) -> Term {
    match a {
        _ if k == 0 => Term::Const(0),
        _ if k == 1 => a,
        Term::Const(x) => match x.checked_mul(k) {
            Some(p) => Term::Const(p),
            None => Term::Mul(k, Box::new(Term::Const(x))),
        },
        a => Term::Mul(k, Box::new(a)),
    }
}

/// A non-linear operation, folded when both sides are literals.
pub fn nl(op: NlOp, a: Term, b: Term) -> Term {
    if let (Term::Const(x), Term::Const(y)) = (&a, &b) {
        if let Some(v) = op
            .apply((*x).into(), (*y).into())
            .and_then(|v| i64::try_from(v).ok())
        {
            return Term::Const(v);
        }
    }
    Term::Nl(op, Box::new(a), Box::new(b))
}

/// `-a`, folded.
pub fn neg(a: Term) -> Term {
    match a {
        Term::Const(x) if x != i64::MIN => Term::Const(-x),
        Term::Neg(inner) => *inner,
        a => Term::Neg(Box::new(a)),
    }
}

/// `a op b`, folded when both sides are literals.
pub fn cmp(op: CmpOp, a: Term, b: Term) -> Cond {
    if let (Term::Const(x), Term::Const(y)) = (&a, &b) {
        return if op.holds(x, y) {
            Cond::True
        } else {
            Cond::False
        };
    }
    if a == b {
        return match op {
            CmpOp::Eq | CmpOp::Le | CmpOp::Ge => Cond::True,
            _ => Cond::False,
        };
    }
    Cond::Cmp(op, a, b)
}

/// `a && b`, simplified.
pub fn and(a: Cond, b: Cond) -> Cond {
    match (&a, &b) {
        (Cond::True, _) => b,
        (_, Cond::True) => a,
        (Cond::False, _) | (_, Cond::False) => Cond::False,
        _ if a == b => a,
        _ => Cond::And(Box::new(a), Box::new(b)),
    }
}

/// `a || b`, simplified.
pub fn or(a: Cond, b: Cond) -> Cond {
    match (&a, &b) {
        (Cond::False, _) => b,
        (_, Cond::False) => a,
        (Cond::True, _) | (_, Cond::True) => Cond::True,
        _ if a == b => a,
        _ => Cond::Or(Box::new(a), Box::new(b)),
    }
}

/// `!a`, simplified (comparisons are negated in place).
pub fn not(a: Cond) -> Cond {
    match a {
        Cond::True => Cond::False,
        Cond::False => Cond::True,
        Cond::Not(inner) => *inner,
        Cond::Cmp(op, x, y) => Cond::Cmp(op.negated(), x, y),
        a => Cond::Not(Box::new(a)),
    }
}

/// The disjunction of conditions. A long one is a balanced tree
/// ([`engine::ir::disjunction`]): a chain of thousands (the cases of an
/// access into a large array) would be deeper than the recursive walks of
/// the engines can descend.
pub fn any(conds: impl IntoIterator<Item = Cond>) -> Cond {
    let mut parts: Vec<Cond> = Vec::new();
    for c in conds {
        match c {
            Cond::True => return Cond::True,
            Cond::False => {}
            c if parts.last() == Some(&c) => {}
            c => parts.push(c),
        }
    }
    if parts.len() <= SHORT {
        parts.into_iter().fold(Cond::False, or)
    } else {
        engine::ir::disjunction(parts)
    }
}

/// The most disjuncts [`any`] keeps as a chain (the shape it always had,
/// which the printed `.gc` shows without parentheses).
const SHORT: usize = 64;

/// `lo <= t && t <= hi`; a bound of `i128::MIN` or `i128::MAX` (or beyond
/// [`Term::literal`]'s reach) is no bound.
pub fn within(t: &Term, lo: i128, hi: i128) -> Cond {
    let a = Term::literal(lo).map_or(Cond::True, |lo| cmp(CmpOp::Le, lo, t.clone()));
    let b = Term::literal(hi).map_or(Cond::True, |hi| cmp(CmpOp::Le, t.clone(), hi));
    and(a, b)
}

/// Every flag of `flags` is 1.
pub fn all_set(flags: &[VarId]) -> Cond {
    flags.iter().fold(Cond::True, |c, &v| {
        and(c, cmp(CmpOp::Eq, Term::Var(v), Term::Const(1)))
    })
}

/// Replaces variables by terms (`f` returns `None` to keep a variable).
pub fn subst_term(t: &Term, f: &impl Fn(VarId) -> Option<Term>) -> Term {
    match t {
        Term::Const(k) => Term::Const(*k),
        Term::Var(v) => f(*v).unwrap_or(Term::Var(*v)),
        Term::Add(a, b) => add(subst_term(a, f), subst_term(b, f)),
        Term::Sub(a, b) => sub(subst_term(a, f), subst_term(b, f)),
        Term::Mul(k, a) => mul(*k, subst_term(a, f)),
        Term::Neg(a) => neg(subst_term(a, f)),
        Term::Div(a, k) => Term::Div(Box::new(subst_term(a, f)), *k),
        Term::Mod(a, k) => Term::Mod(Box::new(subst_term(a, f)), *k),
        Term::Nl(op, a, b) => nl(*op, subst_term(a, f), subst_term(b, f)),
        Term::Select(x, i) => Term::Select(*x, Box::new(subst_term(i, f))),
    }
}

/// Replaces variables by terms in a condition.
pub fn subst_cond(c: &Cond, f: &impl Fn(VarId) -> Option<Term>) -> Cond {
    match c {
        Cond::True => Cond::True,
        Cond::False => Cond::False,
        Cond::Cmp(op, a, b) => cmp(*op, subst_term(a, f), subst_term(b, f)),
        Cond::At(t, l) => Cond::At(*t, *l),
        Cond::Not(a) => not(subst_cond(a, f)),
        Cond::And(a, b) => and(subst_cond(a, f), subst_cond(b, f)),
        Cond::Or(a, b) => or(subst_cond(a, f), subst_cond(b, f)),
    }
}

/// The number of nodes of a term (to bound growth under substitution).
pub fn term_size(t: &Term) -> usize {
    match t {
        Term::Const(_) | Term::Var(_) => 1,
        Term::Add(a, b) | Term::Sub(a, b) | Term::Nl(_, a, b) => 1 + term_size(a) + term_size(b),
        Term::Mul(_, a) | Term::Neg(a) | Term::Div(a, _) | Term::Mod(a, _) | Term::Select(_, a) => {
            1 + term_size(a)
        }
    }
}

/// The number of nodes of a condition.
pub fn cond_size(c: &Cond) -> usize {
    match c {
        Cond::True | Cond::False | Cond::At(..) => 1,
        Cond::Cmp(_, a, b) => 1 + term_size(a) + term_size(b),
        Cond::Not(a) => 1 + cond_size(a),
        Cond::And(a, b) | Cond::Or(a, b) => 1 + cond_size(a) + cond_size(b),
    }
}

/// An interval of integers (inclusive); `None` bounds are infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The least value, if bounded.
    pub lo: Option<i128>,
    /// The greatest value, if bounded.
    pub hi: Option<i128>,
}

impl Range {
    /// `[lo, hi]`.
    pub fn new(lo: i128, hi: i128) -> Self {
        Range {
            lo: Some(lo),
            hi: Some(hi),
        }
    }
    /// All integers.
    pub const ALL: Range = Range { lo: None, hi: None };
}

/// An interval containing every value of `t`, given intervals of the variables.
pub fn range_of(t: &Term, var: &impl Fn(VarId) -> Range) -> Range {
    fn lift(a: Option<i128>, b: Option<i128>, f: fn(i128, i128) -> Option<i128>) -> Option<i128> {
        f(a?, b?)
    }
    match t {
        Term::Const(k) => Range::new(i128::from(*k), i128::from(*k)),
        Term::Var(v) => var(*v),
        Term::Add(a, b) => {
            let (a, b) = (range_of(a, var), range_of(b, var));
            Range {
                lo: lift(a.lo, b.lo, i128::checked_add),
                hi: lift(a.hi, b.hi, i128::checked_add),
            }
        }
        Term::Sub(a, b) => {
            let (a, b) = (range_of(a, var), range_of(b, var));
            Range {
                lo: lift(a.lo, b.hi, i128::checked_sub),
                hi: lift(a.hi, b.lo, i128::checked_sub),
            }
        }
        Term::Neg(a) => {
            let a = range_of(a, var);
            Range {
                lo: a.hi.and_then(|h| h.checked_neg()),
                hi: a.lo.and_then(|l| l.checked_neg()),
            }
        }
        Term::Div(a, k) => {
            let a = range_of(a, var);
            let k = i128::from(*k);
            Range {
                lo: a.lo.map(|l| l.div_euclid(k)),
                hi: a.hi.map(|h| h.div_euclid(k)),
            }
        }
        Term::Mod(_, k) => Range {
            lo: Some(0),
            hi: Some(i128::from(*k) - 1),
        },
        Term::Mul(k, a) => {
            let a = range_of(a, var);
            let k = i128::from(*k);
            let x = a.lo.and_then(|l| l.checked_mul(k));
            let y = a.hi.and_then(|h| h.checked_mul(k));
            if k >= 0 {
                Range { lo: x, hi: y }
            } else {
                Range { lo: y, hi: x }
            }
        }
        Term::Nl(op, a, b) => nl_range(*op, range_of(a, var), range_of(b, var)),
        Term::Select(..) => Range::ALL,
    }
}

/// An interval containing every value of `op(a, b)` for `a`, `b` in the
/// intervals (the IR's semantics, [`NlOp::apply`]).
fn nl_range(op: NlOp, a: Range, b: Range) -> Range {
    let bounded = |r: Range| Some((r.lo?, r.hi?));
    // The largest magnitude of a bounded interval.
    let mag = |r: Range| bounded(r).map(|(l, h)| l.unsigned_abs().max(h.unsigned_abs()));
    let nonneg = |r: Range| r.lo.is_some_and(|l| l >= 0);
    match op {
        NlOp::Mul => {
            let (Some((al, ah)), Some((bl, bh))) = (bounded(a), bounded(b)) else {
                return Range::ALL;
            };
            let ps = [
                al.checked_mul(bl),
                al.checked_mul(bh),
                ah.checked_mul(bl),
                ah.checked_mul(bh),
            ];
            let Some(ps) = ps.into_iter().collect::<Option<Vec<i128>>>() else {
                return Range::ALL;
            };
            Range::new(*ps.iter().min().unwrap(), *ps.iter().max().unwrap())
        }
        // |a / b| <= |a|; `a / 0` is 0.
        NlOp::Div => match mag(a).and_then(|m| i128::try_from(m).ok()) {
            Some(m) if nonneg(a) && nonneg(b) => Range::new(0, m),
            Some(m) => Range::new(-m, m),
            None => Range::ALL,
        },
        // |a % b| <= |a|, with the sign of `a`; `a % 0` is `a`.
        NlOp::Rem => match mag(a).and_then(|m| i128::try_from(m).ok()) {
            Some(m) if nonneg(a) => Range::new(0, m),
            Some(m) => Range::new(-m, m),
            None => Range::ALL,
        },
        NlOp::And | NlOp::Or | NlOp::Xor => {
            // Operands beyond the signed 64-bit range (`unsigned long long`
            // values from 2^63 on) are reduced modulo 2^64 and the result
            // read back as a signed 64-bit value.
            let signed64 = Range::new(-(1i128 << 63), (1i128 << 63) - 1);
            let fits = |r: Range| {
                r.lo.is_some_and(|l| l >= -(1i128 << 63)) && r.hi.is_some_and(|h| h < 1i128 << 63)
            };
            if !fits(a) || !fits(b) {
                return signed64;
            }
            // Both operands are n-bit two's-complement values, and so is
            // the result; `&` with a non-negative operand is in `[0, it]`.
            if op == NlOp::And {
                match (nonneg(a), nonneg(b)) {
                    (true, true) => {
                        let hi = match (a.hi, b.hi) {
                            (Some(x), Some(y)) => Some(x.min(y)),
                            (x, y) => x.or(y),
                        };
                        return Range { lo: Some(0), hi };
                    }
                    (true, false) => {
                        return Range {
                            lo: Some(0),
                            hi: a.hi,
                        }
                    }
                    (false, true) => {
                        return Range {
                            lo: Some(0),
                            hi: b.hi,
                        }
                    }
                    _ => {}
                }
            }
            let (Some(ma), Some(mb)) = (mag(a), mag(b)) else {
                return Range::ALL;
            };
            let bits = 128 - ma.max(mb).leading_zeros();
            if bits >= 126 {
                return Range::ALL;
            }
            if nonneg(a) && nonneg(b) {
                Range::new(0, (1i128 << bits) - 1)
            } else {
                Range::new(-(1i128 << bits), (1i128 << bits) - 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_and_ranges() {
        let x = Term::Var(VarId(0));
        assert_eq!(add(Term::Const(2), Term::Const(3)), Term::Const(5));
        assert_eq!(sub(x.clone(), x.clone()), Term::Const(0));
        assert_eq!(
            not(cmp(CmpOp::Lt, x.clone(), Term::Const(1))),
            Cond::Cmp(CmpOp::Ge, x.clone(), Term::Const(1))
        );
        let r = range_of(&add(mul(-2, x.clone()), Term::Const(1)), &|_| {
            Range::new(0, 10)
        });
        assert_eq!(r, Range::new(-19, 1));
        let s = subst_term(&add(x.clone(), Term::Const(1)), &|_| Some(Term::Const(4)));
        assert_eq!(s, Term::Const(5));
    }

    /// The range of a bitwise operation contains its value, also on
    /// `unsigned long long` operands from 2^63 on (read back signed).
    #[test]
    fn bitwise_ranges_contain_the_values() {
        let u64max = (1i128 << 64) - 1;
        let samples = [
            0,
            1,
            255,
            (1i128 << 63) - 1,
            1i128 << 63,
            u64max - 1,
            u64max,
        ];
        let ranges = [
            Range::new(0, 255),
            Range::new(0, (1i128 << 63) - 1),
            Range::new(0, u64max),
            Range::new(1i128 << 63, u64max),
        ];
        for op in [NlOp::And, NlOp::Or, NlOp::Xor] {
            for ra in ranges {
                for rb in ranges {
                    let r = nl_range(op, ra, rb);
                    let inside = |v: i128, r: Range| {
                        r.lo.is_none_or(|l| l <= v) && r.hi.is_none_or(|h| v <= h)
                    };
                    for &a in samples.iter().filter(|&&a| inside(a, ra)) {
                        for &b in samples.iter().filter(|&&b| inside(b, rb)) {
                            let v = op.apply(a, b).expect("total");
                            assert!(inside(v, r), "{op:?}({a}, {b}) = {v} outside {r:?}");
                        }
                    }
                }
            }
        }
    }
}
