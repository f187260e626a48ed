//! Guards over lazy values ([`super::UNDEF`]): a three-valued evaluation
//! in which every lazy variable ranges over an interval. A guard that holds
//! (or fails) for every value of the interval need not choose the values;
//! lowered C tests every input against its type's range right after
//! reading it, and those tests should not force the search to enumerate
//! values that nothing else reads.

use super::{UNDEF, UNDEF_NAT};
use crate::interp::State;
use crate::ir::{CmpOp, Cond, Term, VarId};

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

/// A set of integers: sorted, disjoint closed intervals; `i128::MIN` and
/// `i128::MAX` stand for no bound.
type Set = Vec<(i128, i128)>;

fn everything() -> Set {
    vec![(i128::MIN, i128::MAX)]
}

fn intersect(a: &Set, b: &Set) -> Set {
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

/// `t` as `a * v + b`, every other variable at its value in `s`; `None`
/// when `t` is not affine in `v`, reads another lazy value or overflows.
fn affine(t: &Term, s: &State, v: VarId) -> Option<(i128, i128)> {
    Some(match t {
        Term::Const(k) => (0, i128::from(*k)),
        Term::Var(x) if *x == v => (1, 0),
        Term::Var(x) => {
            let value = s.vals[x.index()];
            if super::is_lazy(value) {
                return None;
            }
            (0, value)
        }
        Term::Add(a, b) => {
            let (a, b) = (affine(a, s, v)?, affine(b, s, v)?);
            (a.0.checked_add(b.0)?, a.1.checked_add(b.1)?)
        }
        Term::Sub(a, b) => {
            let (a, b) = (affine(a, s, v)?, affine(b, s, v)?);
            (a.0.checked_sub(b.0)?, a.1.checked_sub(b.1)?)
        }
        Term::Mul(k, a) => {
            let (x, y) = affine(a, s, v)?;
            let k = i128::from(*k);
            (x.checked_mul(k)?, y.checked_mul(k)?)
        }
        Term::Neg(a) => {
            let (x, y) = affine(a, s, v)?;
            (x.checked_neg()?, y.checked_neg()?)
        }
        Term::Div(..) | Term::Mod(..) | Term::Nl(..) => {
            if reads_undef(t, s) {
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

/// The values of `v` for which `c` may hold (`.0`) and must hold (`.1`),
/// every other variable at its value in `s`, other lazy values unknown: a
/// comparison that is affine in `v` over concrete values is decided
/// exactly, any other (another lazy value, a non-affine term, an overflow)
/// may hold for every value and must hold for none.
fn sets(c: &Cond, s: &State, v: VarId) -> (Set, Set) {
    match c {
        Cond::True => (everything(), everything()),
        Cond::False => (Vec::new(), Vec::new()),
        Cond::At(t, l) if s.locs[t.index()] == *l => (everything(), everything()),
        Cond::At(..) => (Vec::new(), Vec::new()),
        Cond::Not(a) => {
            let (may, must) = sets(a, s, v);
            (complement(&must), complement(&may))
        }
        Cond::And(a, b) => {
            let ((a_may, a_must), (b_may, b_must)) = (sets(a, s, v), sets(b, s, v));
            (intersect(&a_may, &b_may), intersect(&a_must, &b_must))
        }
        Cond::Or(a, b) => {
            let ((a_may, a_must), (b_may, b_must)) = (sets(a, s, v), sets(b, s, v));
            (union(&a_may, &b_may), union(&a_must, &b_must))
        }
        Cond::Cmp(op, a, b) => {
            let exact = affine(a, s, v)
                .zip(affine(b, s, v))
                .and_then(|(a, b)| solve_cmp(*op, a.0.checked_sub(b.0)?, a.1.checked_sub(b.1)?));
            match exact {
                Some(set) => (set.clone(), set),
                None => (everything(), Vec::new()),
            }
        }
    }
}

/// One value of the lazy variable `v` that decides `guard` in `s` for
/// every value of `v` that enables it, when the guard's truth depends on
/// `v` alone (other lazy values aside from it are not read, or not in a
/// way that matters: the values for which it may hold are those for which
/// it must): `Some(None)` when no value enables it, `Some(Some(x))` with
/// the enabling value closest to 0, `None` when the set is not exact. A
/// transition that then overwrites `v` without reading it has the same
/// successors for every enabling value, so one stands for all.
pub(super) fn representative(guard: &Cond, s: &State, v: VarId) -> Option<Option<i128>> {
    let (may, must) = sets(guard, s, v);
    if may != must {
        return None;
    }
    // Per interval, its element closest to 0; of those, the closest (the
    // positive one on a tie).
    Some(
        may.iter()
            .map(|&(lo, hi)| 0.clamp(lo, hi))
            .min_by_key(|x| (x.unsigned_abs(), *x < 0)),
    )
}

/// The values of the lazy variable `v` for which `guard` may hold in `s`
/// (other lazy values unknown, the others at their values), when they are
/// at most `cap` many; every integer counts, also for a value narrowed to
/// [`UNDEF_NAT`] (narrowing only restricts the values the search samples:
/// a concrete execution may have taken a narrowing step with a negative
/// value, and must find its transitions here). An input
/// that its guard fixes (a quotient, a value tested against a few
/// constants or a small type range) takes exactly those values, which
/// covers every execution through the transition (for any other value the
/// guard is false whatever the other lazy values are). `None` when the set
/// is larger or unbounded.
pub(super) fn solve(guard: &Cond, s: &State, v: VarId, cap: i128) -> Option<Vec<i128>> {
    let (set, _) = sets(guard, s, v);
    let mut size: i128 = 0;
    for &(lo, hi) in &set {
        if lo == i128::MIN || hi == i128::MAX {
            return None;
        }
        size = size.checked_add(hi.checked_sub(lo)?.checked_add(1)?)?;
        if size > cap {
            return None;
        }
    }
    Some(set.into_iter().flat_map(|(lo, hi)| lo..=hi).collect())
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
    fn a_quotient_fixed_by_its_guard_is_solved() {
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
        let s = state(vec![6, UNDEF]);
        assert_eq!(solve(&within, &s, q, 1024), Some(vec![1]));
        // x = -6 (C's truncation: -3 <= r <= 0 when x + 1 < 0): q = -1.
        let s = state(vec![-6, UNDEF]);
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
        assert_eq!(solve(&neg, &s, q, 1024), Some(vec![-1]));
        // Unbounded, or too many values: not solved.
        let half = cmp(CmpOp::Gt, Term::Var(q), Term::Const(5));
        assert_eq!(solve(&half, &s, q, 1024), None);
        let wide = Cond::And(
            Box::new(half),
            Box::new(cmp(CmpOp::Lt, Term::Var(q), Term::Const(5000))),
        );
        assert_eq!(solve(&wide, &s, q, 1024), None);
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
        assert_eq!(solve(&ne, &s, q, 1024), Some(vec![1, 3]));
        // Unsatisfiable: no value.
        let none = cmp(
            CmpOp::Eq,
            Term::Mul(2, Box::new(Term::Var(q))),
            Term::Const(3),
        );
        assert_eq!(solve(&none, &s, q, 1024), Some(vec![]));
    }

    /// `solve` against evaluation on random guards: affine comparisons of
    /// the lazy value `q` (small coefficients), a concrete `x` and, in half
    /// of them, a second lazy value `w`, under `&&`, `||` and `!`; `q` is
    /// sometimes narrowed ([`UNDEF_NAT`]). Without `w`, a solved set must be
    /// exactly the values in a window around zero that satisfy the guard
    /// (every solution lies in the window, by the size of the constants);
    /// with `w`, it must contain every value of `q` for which some `w` in a
    /// window satisfies it. Narrowing does not restrict the set.
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
        let (mut solved, mut unsolved, mut with_w) = (0, 0, 0);
        for round in 0..3000 {
            let two = round % 2 == 1;
            let vars: &[VarId] = if two { &[q, x, w] } else { &[q, x] };
            let g = formula(&mut next, vars, 3);
            let xv = i128::from(small(next(13)));
            let lazy_q = if next(4) == 0 { UNDEF_NAT } else { UNDEF };
            let s = state(vec![xv, lazy_q, UNDEF]);
            let window = if two { -300..=300 } else { -2000..=2000 };
            let ws = if two { -10..=10 } else { 0..=0 };
            let holds: Vec<i128> = window
                .clone()
                .filter(|&v| {
                    ws.clone()
                        .any(|wv| crate::interp::eval_cond(&g, &state(vec![xv, v, wv])) == Ok(true))
                })
                .collect();
            if !two {
                // Without a second lazy value the sets are exact: a
                // representative enables the guard, none when nothing does.
                match representative(&g, &s, q) {
                    Some(Some(r)) => assert_eq!(
                        crate::interp::eval_cond(&g, &state(vec![xv, r, UNDEF])),
                        Ok(true),
                        "{g:?} with x = {xv}: {r}"
                    ),
                    Some(None) => assert!(holds.is_empty(), "{g:?} with x = {xv}"),
                    None => panic!("{g:?} with x = {xv}: not exact"),
                }
            }
            match solve(&g, &s, q, 64) {
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
            solved > 150 && unsolved > 150 && with_w > 50,
            "{solved} solved, {unsolved} not, {with_w} with a second lazy value"
        );
    }

    #[test]
    fn a_representative_stands_for_the_enabling_values() {
        let (q, w) = (VarId(1), VarId(2));
        let s = state(vec![0, UNDEF, UNDEF]);
        let ge = |k| cmp(CmpOp::Ge, Term::Var(q), Term::Const(k));
        let le = |k| cmp(CmpOp::Le, Term::Var(q), Term::Const(k));
        // 5 <= q <= 2^32 - 1: 5.
        let g = Cond::And(Box::new(ge(5)), Box::new(le(4_294_967_295)));
        assert_eq!(representative(&g, &s, q), Some(Some(5)));
        // q <= -3 || q >= 4: -3.
        let g = Cond::Or(Box::new(le(-3)), Box::new(ge(4)));
        assert_eq!(representative(&g, &s, q), Some(Some(-3)));
        // -2 <= q: 0.
        assert_eq!(representative(&ge(-2), &s, q), Some(Some(0)));
        // Unsatisfiable: none.
        let g = Cond::And(Box::new(ge(5)), Box::new(le(4)));
        assert_eq!(representative(&g, &s, q), Some(None));
        // Depends on w as well: not exact.
        let g = Cond::And(
            Box::new(ge(5)),
            Box::new(cmp(CmpOp::Lt, Term::Var(q), Term::Var(w))),
        );
        assert_eq!(representative(&g, &s, q), None);
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
