//! Linear integer expressions, normalised atoms, and Boolean formulas over
//! atoms.
//!
//! Atoms are kept in a canonical form so that syntactically different but
//! equal constraints (`x < y`, `y > x`, `x - y <= -1`) become one predicate:
//! this keeps the predicate set small and makes "is this predicate new?"
//! a hash lookup.

use crate::ir::{CmpOp, Cond, LocId, Term, ThreadId};
use std::cell::Cell;
use std::fmt;

thread_local! {
    static OVERFLOW: Cell<bool> = const { Cell::new(false) };
}

/// Whether arithmetic on coefficients has overflowed since the last call
/// (and clears the flag). Coefficients can grow without bound (`x := 2x`
/// doubles them at every step); after an overflow every result computed
/// from them is meaningless, so the checker must answer `unknown`.
pub fn take_overflow() -> bool {
    OVERFLOW.with(|f| f.replace(false))
}

fn overflowed() -> i128 {
    OVERFLOW.with(|f| f.set(true));
    0
}

fn add(a: i128, b: i128) -> i128 {
    a.checked_add(b).unwrap_or_else(overflowed)
}

fn mul(a: i128, b: i128) -> i128 {
    a.checked_mul(b).unwrap_or_else(overflowed)
}

fn neg(a: i128) -> i128 {
    a.checked_neg().unwrap_or_else(overflowed)
}

/// A symbol of a linear expression. What it stands for depends on the
/// context: a program variable (by [`crate::ir::VarId`] index, possibly
/// followed by input slots), or a symbolic constant of symbolic execution.
pub type Sym = u32;

/// A linear expression `Σ coef·sym + constant` over the integers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Lin {
    /// Non-zero coefficients, sorted by symbol.
    pub terms: Vec<(Sym, i128)>,
    /// The constant part.
    pub constant: i128,
}

impl Lin {
    /// The constant `c`.
    pub fn constant(c: i128) -> Lin {
        Lin {
            terms: Vec::new(),
            constant: c,
        }
    }
    /// The symbol `s`.
    pub fn sym(s: Sym) -> Lin {
        Lin {
            terms: vec![(s, 1)],
            constant: 0,
        }
    }
    /// The value, when the expression has no symbols.
    pub fn as_constant(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.constant)
    }
    /// `self + k·other`.
    pub fn add_scaled(&self, k: i128, other: &Lin) -> Lin {
        if k == 0 {
            return self.clone();
        }
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let take_left = j >= other.terms.len()
                || (i < self.terms.len() && self.terms[i].0 < other.terms[j].0);
            let take_right = i >= self.terms.len()
                || (j < other.terms.len() && other.terms[j].0 < self.terms[i].0);
            if take_left {
                terms.push(self.terms[i]);
                i += 1;
            } else if take_right {
                terms.push((other.terms[j].0, mul(k, other.terms[j].1)));
                j += 1;
            } else {
                let c = add(self.terms[i].1, mul(k, other.terms[j].1));
                if c != 0 {
                    terms.push((self.terms[i].0, c));
                }
                i += 1;
                j += 1;
            }
        }
        Lin {
            terms,
            constant: add(self.constant, mul(k, other.constant)),
        }
    }
    /// `k·self`.
    pub fn scale(&self, k: i128) -> Lin {
        if k == 0 {
            return Lin::constant(0);
        }
        Lin {
            terms: self.terms.iter().map(|&(s, c)| (s, mul(c, k))).collect(),
            constant: mul(self.constant, k),
        }
    }
    /// Replaces every symbol `s` by `f(s)`.
    pub fn substitute(&self, f: &impl Fn(Sym) -> Lin) -> Lin {
        let mut out = Lin::constant(self.constant);
        for &(s, c) in &self.terms {
            out = out.add_scaled(c, &f(s));
        }
        out
    }
    /// The value under an assignment of the symbols.
    pub fn eval(&self, value: &impl Fn(Sym) -> i128) -> i128 {
        self.terms
            .iter()
            .fold(self.constant, |acc, &(s, c)| add(acc, mul(c, value(s))))
    }
    /// Whether the expression mentions `s`.
    pub fn mentions(&self, s: Sym) -> bool {
        self.terms.iter().any(|&(t, _)| t == s)
    }
}

/// The kind of relation of an [`Atom`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    /// `lhs <= rhs`
    Le,
    /// `lhs == rhs`
    Eq,
    /// `lhs ≡ rhs (mod k)`, `k >= 2`; produced only by quantifier elimination.
    Mod(i128),
}

/// A normalised atomic constraint `Σ coef·sym REL rhs`: at least one symbol,
/// coefficients with gcd 1 (for `Le`, `Eq`) and a positive first coefficient.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom {
    /// The relation.
    pub rel: Rel,
    /// The left-hand side (its `constant` is always 0).
    pub lhs: Lin,
    /// The right-hand side constant.
    pub rhs: i128,
}

/// The result of normalising a constraint: a constant, or a literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Norm {
    /// The constraint has no symbols; its truth value.
    Const(bool),
    /// `atom` (when the flag is true) or `!atom`.
    Lit(Atom, bool),
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (
        a.checked_abs().unwrap_or_else(overflowed),
        b.checked_abs().unwrap_or_else(overflowed),
    );
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Atom {
    /// Normalises `e <= 0`.
    pub fn le_zero(e: &Lin) -> Norm {
        if e.terms.is_empty() {
            return Norm::Const(e.constant <= 0);
        }
        let g = e.terms.iter().fold(0, |g, &(_, c)| gcd(g, c)).max(1);
        let rhs = neg(e.constant).div_euclid(g);
        let terms: Vec<_> = e.terms.iter().map(|&(s, c)| (s, c / g)).collect();
        if terms[0].1 > 0 {
            Norm::Lit(
                Atom {
                    rel: Rel::Le,
                    lhs: Lin { terms, constant: 0 },
                    rhs,
                },
                true,
            )
        } else {
            // Σa·x <= r  iff  !(Σ(-a)·x <= -r-1)
            Norm::Lit(
                Atom {
                    rel: Rel::Le,
                    lhs: Lin {
                        terms: terms.into_iter().map(|(s, c)| (s, neg(c))).collect(),
                        constant: 0,
                    },
                    rhs: add(neg(rhs), -1),
                },
                false,
            )
        }
    }

    /// Normalises `e == 0`.
    pub fn eq_zero(e: &Lin) -> Norm {
        if e.terms.is_empty() {
            return Norm::Const(e.constant == 0);
        }
        let g = e.terms.iter().fold(0, |g, &(_, c)| gcd(g, c)).max(1);
        if e.constant % g != 0 {
            return Norm::Const(false);
        }
        let sign = if e.terms[0].1 > 0 { 1 } else { -1 };
        Norm::Lit(
            Atom {
                rel: Rel::Eq,
                lhs: Lin {
                    terms: e
                        .terms
                        .iter()
                        .map(|&(s, c)| (s, mul(sign, c) / g))
                        .collect(),
                    constant: 0,
                },
                rhs: mul(-sign, e.constant) / g,
            },
            true,
        )
    }

    /// Normalises `e ≡ 0 (mod k)`, `k >= 1`.
    pub fn mod_zero(e: &Lin, k: i128) -> Norm {
        let k = k.checked_abs().unwrap_or_else(overflowed).max(1);
        let terms: Vec<_> = e
            .terms
            .iter()
            .map(|&(s, c)| (s, c.rem_euclid(k)))
            .filter(|&(_, c)| c != 0)
            .collect();
        let rhs = neg(e.constant).rem_euclid(k);
        if terms.is_empty() || k == 1 {
            return Norm::Const(k == 1 || rhs == 0);
        }
        Norm::Lit(
            Atom {
                rel: Rel::Mod(k),
                lhs: Lin { terms, constant: 0 },
                rhs,
            },
            true,
        )
    }

    /// Normalises `lhs REL rhs` after substituting into the left-hand side.
    pub fn substitute(&self, f: &impl Fn(Sym) -> Lin) -> Norm {
        let e = self
            .lhs
            .substitute(f)
            .add_scaled(-1, &Lin::constant(self.rhs));
        match self.rel {
            Rel::Le => Atom::le_zero(&e),
            Rel::Eq => Atom::eq_zero(&e),
            Rel::Mod(k) => Atom::mod_zero(&e, k),
        }
    }

    /// The truth value under an assignment of the symbols.
    pub fn eval(&self, value: &impl Fn(Sym) -> i128) -> bool {
        let l = self.lhs.eval(value);
        match self.rel {
            Rel::Le => l <= self.rhs,
            Rel::Eq => l == self.rhs,
            Rel::Mod(k) => add(l, neg(self.rhs)).rem_euclid(k) == 0,
        }
    }

    /// Displays the atom with symbol names given by `name`.
    pub fn display<'a>(&'a self, name: &'a dyn Fn(Sym) -> String) -> impl fmt::Display + 'a {
        DisplayAtom { atom: self, name }
    }
}

struct DisplayAtom<'a> {
    atom: &'a Atom,
    name: &'a dyn Fn(Sym) -> String,
}

impl fmt::Display for DisplayAtom<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(s, c)) in self.atom.lhs.terms.iter().enumerate() {
            let n = (self.name)(s);
            match (i, c) {
                (0, 1) => write!(f, "{n}")?,
                (0, -1) => write!(f, "-{n}")?,
                (0, c) => write!(f, "{c}*{n}")?,
                (_, 1) => write!(f, " + {n}")?,
                (_, -1) => write!(f, " - {n}")?,
                (_, c) if c < 0 => write!(f, " - {}*{n}", -c)?,
                (_, c) => write!(f, " + {c}*{n}")?,
            }
        }
        match self.atom.rel {
            Rel::Le => write!(f, " <= {}", self.atom.rhs),
            Rel::Eq => write!(f, " == {}", self.atom.rhs),
            Rel::Mod(k) => write!(f, " % {k} == {}", self.atom.rhs),
        }
    }
}

/// A Boolean formula in negation normal form over atoms of type `A` and
/// thread locations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula<A> {
    /// `true`
    True,
    /// `false`
    False,
    /// An atom (flag true) or its negation.
    Lit(A, bool),
    /// The thread is (flag true) or is not at the location.
    At(ThreadId, LocId, bool),
    /// Conjunction.
    And(Vec<Formula<A>>),
    /// Disjunction.
    Or(Vec<Formula<A>>),
}

impl<A> Formula<A> {
    /// Conjunction with constant folding.
    pub fn and(parts: impl IntoIterator<Item = Formula<A>>) -> Formula<A> {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Formula::True => {}
                Formula::False => return Formula::False,
                Formula::And(inner) => out.extend(inner),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => Formula::True,
            1 => out.pop().expect("one element"),
            _ => Formula::And(out),
        }
    }
    /// Disjunction with constant folding.
    pub fn or(parts: impl IntoIterator<Item = Formula<A>>) -> Formula<A> {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Formula::False => {}
                Formula::True => return Formula::True,
                Formula::Or(inner) => out.extend(inner),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => Formula::False,
            1 => out.pop().expect("one element"),
            _ => Formula::Or(out),
        }
    }
    /// Maps every literal through `f`, which may return any formula
    /// (constant folding applies).
    pub fn map_lits<B>(&self, f: &mut impl FnMut(&A, bool) -> Formula<B>) -> Formula<B> {
        match self {
            Formula::True => Formula::True,
            Formula::False => Formula::False,
            Formula::Lit(a, pos) => f(a, *pos),
            Formula::At(t, l, pos) => Formula::At(*t, *l, *pos),
            Formula::And(v) => Formula::and(v.iter().map(|x| x.map_lits(f))),
            Formula::Or(v) => Formula::or(v.iter().map(|x| x.map_lits(f))),
        }
    }
    /// Resolves location literals with the given thread locations.
    pub fn at_locations(&self, locs: &[LocId]) -> Formula<A>
    where
        A: Clone,
    {
        match self {
            Formula::At(t, l, pos) => {
                if (locs[t.index()] == *l) == *pos {
                    Formula::True
                } else {
                    Formula::False
                }
            }
            Formula::True => Formula::True,
            Formula::False => Formula::False,
            Formula::Lit(a, p) => Formula::Lit(a.clone(), *p),
            Formula::And(v) => Formula::and(v.iter().map(|x| x.at_locations(locs))),
            Formula::Or(v) => Formula::or(v.iter().map(|x| x.at_locations(locs))),
        }
    }
    /// Evaluates with a valuation of the atoms and the thread locations.
    pub fn eval(&self, atom: &impl Fn(&A) -> bool, locs: &[LocId]) -> bool {
        match self {
            Formula::True => true,
            Formula::False => false,
            Formula::Lit(a, pos) => atom(a) == *pos,
            Formula::At(t, l, pos) => (locs[t.index()] == *l) == *pos,
            Formula::And(v) => v.iter().all(|x| x.eval(atom, locs)),
            Formula::Or(v) => v.iter().any(|x| x.eval(atom, locs)),
        }
    }
    /// Calls `f` on every location literal's thread and location.
    pub fn for_each_at(&self, f: &mut impl FnMut(ThreadId, LocId)) {
        match self {
            Formula::At(t, l, _) => f(*t, *l),
            Formula::And(v) | Formula::Or(v) => v.iter().for_each(|x| x.for_each_at(f)),
            _ => {}
        }
    }
    /// Calls `f` on every atom.
    pub fn for_each_atom(&self, f: &mut impl FnMut(&A)) {
        match self {
            Formula::Lit(a, _) => f(a),
            Formula::And(v) | Formula::Or(v) => v.iter().for_each(|x| x.for_each_atom(f)),
            _ => {}
        }
    }
    /// Whether the formula is the constant `true`.
    pub fn is_true(&self) -> bool {
        matches!(self, Formula::True)
    }
    /// Whether the formula is the constant `false`.
    pub fn is_false(&self) -> bool {
        matches!(self, Formula::False)
    }
}

impl Formula<Atom> {
    /// Substitutes into every atom and re-normalises.
    pub fn substitute(&self, f: &impl Fn(Sym) -> Lin) -> Formula<Atom> {
        self.map_lits(&mut |a, pos| norm_to_formula(a.substitute(f), pos))
    }
}

/// A literal or constant as a formula, negated when `pos` is false.
pub fn norm_to_formula(n: Norm, pos: bool) -> Formula<Atom> {
    match n {
        Norm::Const(b) => {
            if b == pos {
                Formula::True
            } else {
                Formula::False
            }
        }
        Norm::Lit(a, p) => Formula::Lit(a, p == pos),
    }
}

/// A program term as a linear expression over variable indices.
///
/// # Panics
///
/// On `/`, `%` and [`Term::Nl`], which have no linear form: callers check
/// [`crate::ir::Program::divides`] first.
pub fn term_to_lin(t: &Term) -> Lin {
    match t {
        Term::Const(k) => Lin::constant(*k as i128),
        Term::Var(v) => Lin::sym(v.0),
        Term::Add(a, b) => term_to_lin(a).add_scaled(1, &term_to_lin(b)),
        Term::Sub(a, b) => term_to_lin(a).add_scaled(-1, &term_to_lin(b)),
        Term::Mul(k, a) => term_to_lin(a).scale(*k as i128),
        Term::Neg(a) => term_to_lin(a).scale(-1),
        Term::Div(..) | Term::Mod(..) | Term::Nl(..) | Term::Select(..) => {
            panic!("`/`, `%` or a non-linear operation reached the linear encoding")
        }
    }
}

/// A normalised comparison `a op b`.
pub fn compare(op: CmpOp, a: &Lin, b: &Lin) -> Formula<Atom> {
    let d = a.add_scaled(-1, b); // a - b
    match op {
        CmpOp::Le => norm_to_formula(Atom::le_zero(&d), true),
        CmpOp::Lt => norm_to_formula(Atom::le_zero(&d.add_scaled(1, &Lin::constant(1))), true),
        CmpOp::Gt => norm_to_formula(Atom::le_zero(&d), false),
        CmpOp::Ge => norm_to_formula(Atom::le_zero(&d.add_scaled(1, &Lin::constant(1))), false),
        CmpOp::Eq => norm_to_formula(Atom::eq_zero(&d), true),
        CmpOp::Ne => norm_to_formula(Atom::eq_zero(&d), false),
    }
}

/// A program condition as a formula over variable indices (negation pushed
/// into the literals).
pub fn cond_to_formula(c: &Cond, pos: bool) -> Formula<Atom> {
    match c {
        Cond::True => {
            if pos {
                Formula::True
            } else {
                Formula::False
            }
        }
        Cond::False => {
            if pos {
                Formula::False
            } else {
                Formula::True
            }
        }
        Cond::Cmp(op, a, b) => {
            let f = compare(*op, &term_to_lin(a), &term_to_lin(b));
            if pos {
                f
            } else {
                negate(&f)
            }
        }
        Cond::At(t, l) => Formula::At(*t, *l, pos),
        Cond::Not(a) => cond_to_formula(a, !pos),
        Cond::And(a, b) => {
            let (a, b) = (cond_to_formula(a, pos), cond_to_formula(b, pos));
            if pos {
                Formula::and([a, b])
            } else {
                Formula::or([a, b])
            }
        }
        Cond::Or(a, b) => {
            let (a, b) = (cond_to_formula(a, pos), cond_to_formula(b, pos));
            if pos {
                Formula::or([a, b])
            } else {
                Formula::and([a, b])
            }
        }
    }
}

/// The negation of a formula (kept in negation normal form).
pub fn negate<A: Clone>(f: &Formula<A>) -> Formula<A> {
    match f {
        Formula::True => Formula::False,
        Formula::False => Formula::True,
        Formula::Lit(a, p) => Formula::Lit(a.clone(), !p),
        Formula::At(t, l, p) => Formula::At(*t, *l, !p),
        Formula::And(v) => Formula::or(v.iter().map(negate)),
        Formula::Or(v) => Formula::and(v.iter().map(negate)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lin(terms: &[(Sym, i128)], c: i128) -> Lin {
        Lin {
            terms: terms.to_vec(),
            constant: c,
        }
    }

    #[test]
    fn equal_constraints_normalise_to_one_atom() {
        let x = Lin::sym(0);
        let y = Lin::sym(1);
        // x < y, y > x and 2x - 2y <= -2 are the same atom.
        let a = compare(CmpOp::Lt, &x, &y);
        let b = compare(CmpOp::Gt, &y, &x);
        let c = compare(CmpOp::Le, &lin(&[(0, 2), (1, -2)], 0), &Lin::constant(-2));
        assert_eq!(a, b);
        assert_eq!(a, c);
        // x >= y is its negation.
        assert_eq!(compare(CmpOp::Ge, &x, &y), negate(&a));
    }

    #[test]
    fn negative_leading_coefficient_flips_polarity() {
        // -x <= 3  iff  !(x <= -4)
        match Atom::le_zero(&lin(&[(0, -1)], -3)) {
            Norm::Lit(a, false) => {
                assert_eq!(a.lhs, lin(&[(0, 1)], 0));
                assert_eq!(a.rhs, -4);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn gcd_tightens_and_detects_infeasible_equalities() {
        // 2x <= 3  iff  x <= 1
        let Norm::Lit(a, true) = Atom::le_zero(&lin(&[(0, 2)], -3)) else {
            panic!()
        };
        assert_eq!(a.rhs, 1);
        // 2x == 3 is false over the integers
        assert_eq!(Atom::eq_zero(&lin(&[(0, 2)], -3)), Norm::Const(false));
    }

    #[test]
    fn substitution_renormalises() {
        // (x <= 5)[x + 1 / x] is x <= 4
        let Norm::Lit(a, true) = Atom::le_zero(&lin(&[(0, 1)], -5)) else {
            panic!()
        };
        let n = a.substitute(&|_| lin(&[(0, 1)], 1));
        let Norm::Lit(b, true) = n else { panic!() };
        assert_eq!(b.rhs, 4);
        // (x <= 5)[3 / x] is true
        assert_eq!(a.substitute(&|_| Lin::constant(3)), Norm::Const(true));
    }

    #[test]
    fn eval_agrees_with_meaning() {
        let Norm::Lit(a, true) = Atom::mod_zero(&lin(&[(0, 3)], -1), 2) else {
            panic!()
        };
        // 3x ≡ 1 (mod 2) iff x odd
        assert!(a.eval(&|_| 5));
        assert!(!a.eval(&|_| 4));
    }
}
