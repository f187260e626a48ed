//! Lazy values: an input or free initial value that the search has not
//! chosen yet is a *symbol* standing for every value of its *domain* (a
//! union of intervals). Copies share the symbol (the values are equal);
//! a guard whose truth depends on one symbol alone narrows its domain
//! exactly; a guard decided for every value of the domains needs no
//! choice. Guards are evaluated three-valuedly over the domains' hulls;
//! the sets of values for which a guard may / must hold are computed per
//! symbol (comparisons affine in it with every other variable concrete are
//! exact). Lowered C tests every input against its type's range right
//! after reading it, and copies it around (into queues, arrays, function
//! arguments): neither should force the search to enumerate values.

use crate::ase::hash::FxHashMap;
use crate::interp::State;
use crate::interval::{self, Interval, Leaves, ANY};
use crate::ir::{CmpOp, Cond, LocId, Term, ThreadId};

/// Bits of a lazy value that number its symbol; the bits above (up to
/// [`LAZY_SPAN`]) index its domain in the [`Table`].
const SYMBOL_BITS: u32 = 24;

/// Values below `i128::MIN + LAZY_SPAN` are lazy: `i128::MIN + (domain <<
/// SYMBOL_BITS) + symbol`. No value of a program comes near (the
/// interpreter's values are those of C's types, at most 64 bits).
const LAZY_SPAN: i128 = 1 << 88;

/// Whether a value is lazy.
pub fn is_lazy(x: i128) -> bool {
    x < i128::MIN + LAZY_SPAN
}

/// The lazy value of symbol `symbol` with domain `domain`.
pub(super) fn value(domain: u32, symbol: u32) -> i128 {
    i128::MIN + (i128::from(domain) << SYMBOL_BITS) + i128::from(symbol)
}

/// The symbol of a lazy value.
pub(super) fn symbol(x: i128) -> u32 {
    ((x - i128::MIN) & ((1 << SYMBOL_BITS) - 1)) as u32
}

/// The domain of a lazy value (an index into the [`Table`]).
pub(super) fn domain(x: i128) -> u32 {
    ((x - i128::MIN) >> SYMBOL_BITS) as u32
}

/// The domain of a fresh input: every integer.
pub(super) const ANYTHING: u32 = 0;

/// The domains met so far, each stored once; [`ANYTHING`] is the first.
pub(super) struct Table {
    sets: Vec<Set>,
    ids: FxHashMap<Set, u32>,
}

impl Table {
    pub(super) fn new() -> Self {
        let mut t = Table {
            sets: Vec::new(),
            ids: FxHashMap::default(),
        };
        t.intern(everything());
        t
    }

    /// The index of `set`, added when new.
    pub(super) fn intern(&mut self, set: Set) -> u32 {
        if let Some(&id) = self.ids.get(&set) {
            return id;
        }
        let id = u32::try_from(self.sets.len()).expect("fewer than 2^32 domains");
        self.sets.push(set.clone());
        self.ids.insert(set, id);
        id
    }

    pub(super) fn get(&self, id: u32) -> &Set {
        &self.sets[id as usize]
    }

    /// The domain of the lazy value `x`.
    fn of(&self, x: i128) -> &Set {
        self.get(domain(x))
    }
}

/// The smallest interval around a (non-empty) set.
fn hull(set: &Set) -> Interval {
    match (set.first(), set.last()) {
        (Some(&(lo, _)), Some(&(_, hi))) => Interval { lo, hi },
        _ => ANY,
    }
}

fn reads_lazy(t: &Term, s: &State) -> bool {
    let mut found = false;
    t.for_each_var(&mut |v| found |= is_lazy(s.vals[v.index()]));
    found
}

/// The truth value of `c` for every value of the lazy values in their
/// intervals (each on its own, even when two share a symbol), or `None`
/// when it depends on them. A variable that is not lazy is its value;
/// division, remainder and the non-linear operations are exact on values
/// that are not lazy, else unbounded.
fn cond(c: &Cond, s: &State, lazy: &dyn Fn(i128) -> Interval) -> Option<bool> {
    let term = |t: &Term| match t {
        Term::Var(v) => Some(match s.vals[v.index()] {
            x if is_lazy(x) => lazy(x),
            x => Interval::point(x),
        }),
        Term::Div(..) | Term::Mod(..) | Term::Nl(..) | Term::Select(..) => {
            Some(match crate::interp::eval_term(t, &s.vals) {
                Ok(x) if !reads_lazy(t, s) => Interval::point(x),
                _ => ANY,
            })
        }
        _ => None,
    };
    let at = |t: ThreadId, l: LocId| Some(s.locs[t.index()] == l);
    interval::cond(
        c,
        &Leaves {
            term: &term,
            at: &at,
        },
    )
}

/// What a guard that reads lazy values says without choosing them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guard {
    /// False for every value of the domains: the transition is disabled.
    Never,
    /// True for every value of the domains: taken, the values lazy.
    Always,
    /// True for every value of the domains that the search would sample
    /// (those in `[-bound, bound]`, some for each): taken with the values
    /// lazy, an over-approximation (the successor also stands for values
    /// for which the guard is false).
    Sampled,
    /// It depends on the values.
    Depends,
}

/// Decides `guard` in `s` over the domains of its lazy values.
pub(super) fn guard(guard: &Cond, s: &State, table: &Table, bound: i128) -> Guard {
    // An interval without bounds is never decided by a comparison, so an
    // unbounded domain is given a huge finite range instead (no value of a
    // program comes near).
    let huge = |x: i128| {
        let h = hull(table.of(x));
        Interval {
            lo: h.lo.max(i128::MIN / 4),
            hi: h.hi.min(i128::MAX / 4),
        }
    };
    match cond(guard, s, &huge) {
        Some(false) => return Guard::Never,
        Some(true) => return Guard::Always,
        None => {}
    }
    let mut empty = false;
    let sampled = |x: i128| {
        let h = hull(table.of(x));
        Interval {
            lo: h.lo.max(-bound),
            hi: h.hi.min(bound),
        }
    };
    guard.for_each_var(&mut |v| {
        let x = s.vals[v.index()];
        if is_lazy(x) {
            let i = sampled(x);
            empty |= i.lo > i.hi;
        }
    });
    if !empty && cond(guard, s, &sampled) == Some(true) {
        return Guard::Sampled;
    }
    Guard::Depends
}

/// A set of integers: sorted, disjoint closed intervals; `i128::MIN` and
/// `i128::MAX` stand for no bound.
pub(super) type Set = Vec<(i128, i128)>;

fn everything() -> Set {
    vec![(i128::MIN, i128::MAX)]
}

pub(super) fn intersect(a: &Set, b: &Set) -> Set {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let lo = a[i].0.max(b[j].0);
        let hi = a[i].1.min(b[j].1);
        if lo <= hi {
            out.push((lo, hi));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

fn complement(a: &Set) -> Set {
    let mut out = Vec::new();
    let mut next = Some(i128::MIN);
    for &(lo, hi) in a {
        if let Some(from) = next {
            if from < lo {
                out.push((from, lo - 1));
            }
        }
        next = hi.checked_add(1);
    }
    if let Some(from) = next {
        out.push((from, i128::MAX));
    }
    out
}

fn union(a: &Set, b: &Set) -> Set {
    complement(&intersect(&complement(a), &complement(b)))
}

/// The elements of a set, when it has at most `cap` of them.
pub(super) fn elements(set: &Set, cap: i128) -> Option<Vec<i128>> {
    let mut size: i128 = 0;
    for &(lo, hi) in set {
        if lo == i128::MIN || hi == i128::MAX {
            return None;
        }
        size = size.checked_add(hi.checked_sub(lo)?.checked_add(1)?)?;
        if size > cap {
            return None;
        }
    }
    Some(set.iter().flat_map(|&(lo, hi)| lo..=hi).collect())
}

/// The element of a set closest to 0 (the positive one on a tie).
pub(super) fn closest_to_zero(set: &Set) -> Option<i128> {
    set.iter()
        .map(|&(lo, hi)| 0.clamp(lo, hi))
        .min_by_key(|x| (x.unsigned_abs(), *x < 0))
}

/// `t` as `a * σ + b`, σ the symbol `sym`, every other variable at its
/// value in `s`; `None` when `t` is not affine in σ, reads another lazy
/// value or overflows.
fn affine(t: &Term, s: &State, sym: u32) -> Option<(i128, i128)> {
    Some(match t {
        Term::Const(k) => (0, i128::from(*k)),
        Term::Var(x) => {
            let value = s.vals[x.index()];
            if !is_lazy(value) {
                (0, value)
            } else if symbol(value) == sym {
                (1, 0)
            } else {
                return None;
            }
        }
        Term::Add(a, b) => {
            let (a, b) = (affine(a, s, sym)?, affine(b, s, sym)?);
            (a.0.checked_add(b.0)?, a.1.checked_add(b.1)?)
        }
        Term::Sub(a, b) => {
            let (a, b) = (affine(a, s, sym)?, affine(b, s, sym)?);
            (a.0.checked_sub(b.0)?, a.1.checked_sub(b.1)?)
        }
        Term::Mul(k, a) => {
            let (x, y) = affine(a, s, sym)?;
            let k = i128::from(*k);
            (x.checked_mul(k)?, y.checked_mul(k)?)
        }
        Term::Neg(a) => {
            let (x, y) = affine(a, s, sym)?;
            (x.checked_neg()?, y.checked_neg()?)
        }
        Term::Div(..) | Term::Mod(..) | Term::Nl(..) | Term::Select(..) => {
            if reads_lazy(t, s) {
                return None;
            }
            (0, crate::interp::eval_term(t, &s.vals).ok()?)
        }
    })
}

/// The values of `v` for which `a * v + b op 0`.
fn solve_cmp(op: CmpOp, a: i128, b: i128) -> Option<Set> {
    if a == 0 {
        return Some(if op.holds(b, 0) {
            everything()
        } else {
            Vec::new()
        });
    }
    // Make `a` positive: `a v + b op 0` iff `-a v - b flip(op) 0`.
    let (a, b, op) = if a < 0 {
        (a.checked_neg()?, b.checked_neg()?, op.flip())
    } else {
        (a, b, op)
    };
    let floor = |n: i128| n.div_euclid(a);
    let ceil = |n: i128| n.checked_neg().map(|m| -m.div_euclid(a));
    let nb = b.checked_neg()?;
    Some(match op {
        // a v <= -b
        CmpOp::Le => vec![(i128::MIN, floor(nb))],
        CmpOp::Lt => vec![(i128::MIN, floor(nb.checked_sub(1)?))],
        CmpOp::Ge => vec![(ceil(nb)?, i128::MAX)],
        CmpOp::Gt => vec![(ceil(nb.checked_add(1)?)?, i128::MAX)],
        CmpOp::Eq if nb.rem_euclid(a) == 0 => vec![(nb / a, nb / a)],
        CmpOp::Eq => Vec::new(),
        CmpOp::Ne if nb.rem_euclid(a) == 0 => complement(&vec![(nb / a, nb / a)]),
        CmpOp::Ne => everything(),
    })
}

/// The values of the symbol `sym` for which `c` may hold (`.0`) and must
/// hold (`.1`), every other variable at its value in `s`, other symbols
/// unknown: a comparison that is affine in `sym` over concrete values is
/// decided exactly (every occurrence of the symbol is the same value), any
/// other (another symbol, a non-affine term, an overflow) may hold for
/// every value and must hold for none.
fn sets(c: &Cond, s: &State, sym: u32) -> (Set, Set) {
    match c {
        Cond::True => (everything(), everything()),
        Cond::False => (Vec::new(), Vec::new()),
        Cond::At(t, l) if s.locs[t.index()] == *l => (everything(), everything()),
        Cond::At(..) => (Vec::new(), Vec::new()),
        Cond::Not(a) => {
            let (may, must) = sets(a, s, sym);
            (complement(&must), complement(&may))
        }
        Cond::And(a, b) => {
            let ((a_may, a_must), (b_may, b_must)) = (sets(a, s, sym), sets(b, s, sym));
            (intersect(&a_may, &b_may), intersect(&a_must, &b_must))
        }
        Cond::Or(a, b) => {
            let ((a_may, a_must), (b_may, b_must)) = (sets(a, s, sym), sets(b, s, sym));
            (union(&a_may, &b_may), union(&a_must, &b_must))
        }
        Cond::Cmp(op, a, b) => {
            let exact = affine(a, s, sym)
                .zip(affine(b, s, sym))
                .and_then(|(a, b)| solve_cmp(*op, a.0.checked_sub(b.0)?, a.1.checked_sub(b.1)?));
            match exact {
                Some(set) => (set.clone(), set),
                None => (everything(), Vec::new()),
            }
        }
    }
}

/// When the truth of `guard` in `s` depends on the symbol `sym` alone
/// (for every value of its domain `dom`, whatever the other lazy values
/// are: the values for which it may hold are those for which it must):
/// the values of the domain for which it holds. Taking the transition
/// with the domain narrowed to them is exact.
pub(super) fn exact(guard: &Cond, s: &State, sym: u32, dom: &Set) -> Option<Set> {
    let (may, must) = sets(guard, s, sym);
    let must = intersect(&must, dom);
    (intersect(&may, dom) == must).then_some(must)
}

/// The values of the domain `dom` of the symbol `sym` for which `guard`
/// may hold in `s` (other lazy values unknown): for any other value it is
/// false, so narrowing the domain to them loses no execution through the
/// transition.
pub(super) fn may(guard: &Cond, s: &State, sym: u32, dom: &Set) -> Set {
    intersect(&sets(guard, s, sym).0, dom)
}

/// The values of the domain `dom` of the symbol `sym` for which `guard`
/// may hold in `s` (other lazy values unknown, the others at their
/// values), when they are at most `cap` many: an input that its guard
/// fixes (a quotient, a value tested against a few constants) takes
/// exactly those, which covers every execution through the transition
/// (for any other value the guard is false whatever the other lazy
/// values are). `None` when the set is larger or unbounded.
pub(super) fn solve(guard: &Cond, s: &State, sym: u32, dom: &Set, cap: i128) -> Option<Vec<i128>> {
    elements(&may(guard, s, sym, dom), cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{LocId, VarId};

    fn state(vals: Vec<i128>) -> State {
        State {
            locs: vec![LocId(0)],
            vals,
            arrays: Vec::new(),
        }
    }

    fn cmp(op: CmpOp, a: Term, b: Term) -> Cond {
        Cond::Cmp(op, a, b)
    }

    /// Symbol `sym` with any value.
    fn any(sym: u32) -> i128 {
        value(ANYTHING, sym)
    }

    #[test]
    fn lazy_values_round_trip() {
        for (d, s) in [(0, 0), (1, 0), (0, 5), (77, (1 << SYMBOL_BITS) - 1)] {
            let x = value(d, s);
            assert!(is_lazy(x));
            assert_eq!((domain(x), symbol(x)), (d, s));
        }
        assert!(!is_lazy(-(1 << 64)) && !is_lazy(0) && !is_lazy(i128::MAX));
    }

    #[test]
    fn type_range_tests_narrow_the_domain() {
        let mut table = Table::new();
        let v = Term::Var(VarId(0));
        let in_int = Cond::And(
            Box::new(cmp(CmpOp::Le, Term::Const(-2147483648), v.clone())),
            Box::new(cmp(CmpOp::Le, v.clone(), Term::Const(2147483647))),
        );
        let s = state(vec![any(0), 0]);
        assert_eq!(guard(&in_int, &s, &table, 10), Guard::Sampled);
        let int = exact(&in_int, &s, 0, &everything()).expect("exact");
        assert_eq!(int, vec![(-2147483648, 2147483647)]);
        // Narrowed, the test holds for every value.
        let d = table.intern(int);
        let narrowed = state(vec![value(d, 0), 0]);
        assert_eq!(guard(&in_int, &narrowed, &table, 10), Guard::Always);
        // Another conjunct false whatever the lazy value: disabled.
        let off = Cond::And(
            Box::new(in_int.clone()),
            Box::new(cmp(CmpOp::Ne, Term::Var(VarId(1)), Term::Const(0))),
        );
        assert_eq!(guard(&off, &s, &table, 10), Guard::Never);
        // A test the sampled values split: it depends, exactly on v.
        let split = cmp(CmpOp::Gt, v.clone(), Term::Const(5));
        assert_eq!(guard(&split, &narrowed, &table, 10), Guard::Depends);
        assert_eq!(
            exact(&split, &narrowed, 0, table.get(d)),
            Some(vec![(6, 2147483647)])
        );
        // False for the sampled values but not for every integer.
        let big = cmp(CmpOp::Gt, v.clone(), Term::Const(100));
        assert_eq!(guard(&big, &s, &table, 10), Guard::Depends);
        // Outside the domain: never.
        let huge = cmp(CmpOp::Gt, v, Term::Const(1 << 40));
        assert_eq!(guard(&huge, &narrowed, &table, 10), Guard::Never);
    }

    #[test]
    fn copies_of_a_symbol_are_one_value() {
        // x and y hold the same symbol: x - y == 0 and !x == y (as C's
        // `!x == y`) are decided exactly.
        let (x, y) = (Term::Var(VarId(0)), Term::Var(VarId(1)));
        let s = state(vec![any(3), any(3)]);
        let diff = cmp(
            CmpOp::Eq,
            Term::Sub(Box::new(x.clone()), Box::new(y.clone())),
            Term::Const(0),
        );
        assert_eq!(exact(&diff, &s, 3, &everything()), Some(everything()));
        let not_x_is_y = Cond::Or(
            Box::new(Cond::And(
                Box::new(cmp(CmpOp::Eq, x.clone(), Term::Const(0))),
                Box::new(cmp(CmpOp::Eq, y.clone(), Term::Const(1))),
            )),
            Box::new(Cond::And(
                Box::new(cmp(CmpOp::Ne, x.clone(), Term::Const(0))),
                Box::new(cmp(CmpOp::Eq, y.clone(), Term::Const(0))),
            )),
        );
        assert_eq!(exact(&not_x_is_y, &s, 3, &everything()), Some(vec![]));
        // Different symbols: not exact for either.
        let t = state(vec![any(3), any(4)]);
        assert_eq!(exact(&diff, &t, 3, &everything()), None);
    }

    #[test]
    fn a_quotient_fixed_by_its_guard_is_solved() {
        let all = everything();
        // 0 <= x + 1 - 4 q <= 3 with x = 6: q = 1 only.
        let (x, q) = (Term::Var(VarId(0)), VarId(1));
        let r = Term::Sub(
            Box::new(Term::Add(Box::new(x), Box::new(Term::Const(1)))),
            Box::new(Term::Mul(4, Box::new(Term::Var(q)))),
        );
        let within = Cond::And(
            Box::new(cmp(CmpOp::Le, Term::Const(0), r.clone())),
            Box::new(cmp(CmpOp::Le, r, Term::Const(3))),
        );
        let s = state(vec![6, any(0)]);
        assert_eq!(solve(&within, &s, 0, &all, 1024), Some(vec![1]));
        // x = -6 (C's truncation: -3 <= r <= 0 when x + 1 < 0): q = -1.
        let s = state(vec![-6, any(0)]);
        let neg = Cond::Or(
            Box::new(Cond::And(
                Box::new(cmp(CmpOp::Ge, Term::Var(VarId(0)), Term::Const(0))),
                Box::new(within.clone()),
            )),
            Box::new(cmp(
                CmpOp::Eq,
                Term::Mul(-2, Box::new(Term::Var(q))),
                Term::Const(2),
            )),
        );
        assert_eq!(solve(&neg, &s, 0, &all, 1024), Some(vec![-1]));
        // Unbounded, or too many values: not solved; within a domain: its
        // values only.
        let half = cmp(CmpOp::Gt, Term::Var(q), Term::Const(5));
        assert_eq!(solve(&half, &s, 0, &all, 1024), None);
        assert_eq!(solve(&half, &s, 0, &vec![(0, 7)], 1024), Some(vec![6, 7]));
        let wide = Cond::And(
            Box::new(half),
            Box::new(cmp(CmpOp::Lt, Term::Var(q), Term::Const(5000))),
        );
        assert_eq!(solve(&wide, &s, 0, &all, 1024), None);
        // Excluded points and strict bounds.
        let ne = Cond::And(
            Box::new(cmp(CmpOp::Ne, Term::Var(q), Term::Const(2))),
            Box::new(Cond::And(
                Box::new(cmp(
                    CmpOp::Gt,
                    Term::Mul(3, Box::new(Term::Var(q))),
                    Term::Const(0),
                )),
                Box::new(cmp(CmpOp::Lt, Term::Var(q), Term::Const(4))),
            )),
        );
        assert_eq!(solve(&ne, &s, 0, &all, 1024), Some(vec![1, 3]));
        // Unsatisfiable: no value.
        let none = cmp(
            CmpOp::Eq,
            Term::Mul(2, Box::new(Term::Var(q))),
            Term::Const(3),
        );
        assert_eq!(solve(&none, &s, 0, &all, 1024), Some(vec![]));
    }

    /// `solve` and `exact` against evaluation on random guards: affine
    /// comparisons of the lazy value `q` (small coefficients), a concrete
    /// `x` and, in two rounds of three, `w`, under `&&`, `||` and `!`. `w`
    /// is a second lazy value, or a copy of `q` (the same symbol), and `q`
    /// is sometimes restricted to a domain. With `q` alone or `w` a copy,
    /// the sets are exact: a solved set must be exactly the values of the
    /// domain in a window around zero that satisfy the guard (every
    /// solution lies in the window, by the size of the constants); with a
    /// second lazy value `w`, it must contain every value of `q` for which
    /// some `w` in a window satisfies it.
    #[test]
    fn solved_sets_agree_with_evaluation() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let (x, q, w) = (VarId(0), VarId(1), VarId(2));
        fn small(r: u64) -> i64 {
            i64::try_from(r).unwrap() - 6
        }
        type Next<'a> = &'a mut dyn FnMut(u64) -> u64;
        fn atom(next: Next, vars: &[VarId]) -> Cond {
            let mut lhs = Term::Const(0);
            // The first two always, the third in half of the atoms.
            for (i, &v) in vars.iter().enumerate() {
                if i >= 2 && next(2) == 0 {
                    continue;
                }
                let k = small(next(13));
                lhs = Term::Add(
                    Box::new(lhs),
                    Box::new(Term::Mul(k, Box::new(Term::Var(v)))),
                );
            }
            let op = CmpOp::ALL[usize::try_from(next(6)).unwrap()];
            Cond::Cmp(op, lhs, Term::Const(small(next(13)) * 20))
        }
        fn formula(next: Next, vars: &[VarId], depth: u32) -> Cond {
            let sub = |next: Next| Box::new(formula(next, vars, depth - 1));
            match if depth == 0 { 0 } else { next(4) } {
                0 => atom(next, vars),
                1 => Cond::Not(sub(next)),
                2 => Cond::And(sub(next), sub(next)),
                _ => Cond::Or(sub(next), sub(next)),
            }
        }
        let (mut solved, mut unsolved, mut with_w, mut copies) = (0, 0, 0, 0);
        let wide: Set = vec![(i128::MIN, i128::MAX)];
        let narrow: Set = vec![(-50, -20), (0, 30)];
        for round in 0..4500 {
            let (two, copy) = (round % 3 == 1, round % 3 == 2);
            let vars: &[VarId] = if two || copy { &[q, x, w] } else { &[q, x] };
            let g = formula(&mut next, vars, 3);
            let xv = i128::from(small(next(13)));
            let dom = if next(4) == 0 { &narrow } else { &wide };
            let s = state(vec![xv, any(0), any(u32::from(!copy))]);
            let window = if two { -300..=300 } else { -2000..=2000 };
            let ws = if two { -10..=10 } else { 0..=0 };
            let in_dom = |v: i128| dom.iter().any(|&(lo, hi)| lo <= v && v <= hi);
            let holds: Vec<i128> = window
                .clone()
                .filter(|&v| {
                    in_dom(v)
                        && ws.clone().any(|wv| {
                            let wv = if copy { v } else { wv };
                            crate::interp::eval_cond(&g, &state(vec![xv, v, wv])) == Ok(true)
                        })
                })
                .collect();
            if !two {
                // Without a second lazy value the sets are exact.
                let set = exact(&g, &s, 0, dom).unwrap_or_else(|| panic!("{g:?}: not exact"));
                for v in window.clone() {
                    let inside = set.iter().any(|&(lo, hi)| lo <= v && v <= hi);
                    assert_eq!(inside, holds.contains(&v), "{g:?} with x = {xv}: {v}");
                }
                copies += usize::from(copy);
            }
            match solve(&g, &s, 0, dom, 64) {
                Some(values) if two => {
                    with_w += 1;
                    for v in &holds {
                        assert!(values.contains(v), "{g:?} with x = {xv}: {v} missing");
                    }
                }
                Some(values) => {
                    solved += 1;
                    assert_eq!(values, holds, "{g:?} with x = {xv}");
                }
                None if two => {}
                None => {
                    unsolved += 1;
                    // Too many values, or unbounded: the window shows more
                    // than the cap or reaches its ends.
                    let at_edge =
                        holds.first() == Some(window.start()) || holds.last() == Some(window.end());
                    assert!(
                        holds.len() > 64 || at_edge,
                        "{g:?} with x = {xv}: {holds:?}"
                    );
                }
            }
        }
        assert!(
            solved > 150 && unsolved > 150 && with_w > 50 && copies > 1000,
            "{solved} solved, {unsolved} not, {with_w} with a second lazy value, {copies} copies"
        );
    }

    #[test]
    fn arithmetic_widens_the_interval() {
        let table = Table::new();
        let v = Term::Var(VarId(0));
        let s = state(vec![any(0), 3]);
        // 2 * v + x <= 23 for v in [-10, 10], x = 3.
        let t = Term::Add(
            Box::new(Term::Mul(2, Box::new(v))),
            Box::new(Term::Var(VarId(1))),
        );
        assert_eq!(
            guard(&cmp(CmpOp::Le, t.clone(), Term::Const(23)), &s, &table, 10),
            Guard::Sampled
        );
        assert_eq!(
            guard(&cmp(CmpOp::Le, t, Term::Const(22)), &s, &table, 10),
            Guard::Depends
        );
    }
}
