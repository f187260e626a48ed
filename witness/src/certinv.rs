//! Location invariants of a correctness witness from a checked
//! certificate (`engine::certify`).
//!
//! A certificate gives, per tuple of thread locations, an inductive
//! invariant of the lowered program, checked by the independent checker.
//! At a location `l` of thread `t`, every reachable state satisfies the
//! disjunction of the invariants of the tuples with `t` at `l`; the other
//! threads' locations are abstracted away by deciding every `p@L` test by
//! the tuple. A C position is the disjunction over the IR locations at it.
//!
//! The formulas are over the lowered program's variables; a witness can
//! only name C variables. Every condition is brought into negation normal
//! form, and each comparison that mentions a variable without a C
//! counterpart — a temporary, a local, a pointer or thread handle (whose
//! IR values are the lowering's numbers), a mutex, a variable the
//! dead-variable resets write, a 64-bit unsigned cell — or a `/`, `%`, is
//! replaced by `true`. In negation normal form that only weakens the
//! formula, so the result still holds in every reachable state.
//!
//! Large disjunctions (an explicit-state certificate lists states) are
//! summarised by their interval hull: per variable, the least and greatest
//! value any disjunct allows, again a weakening.

use crate::invariant::WitnessInvariants;
use crate::source::{function_at, functions, Locator, SrcLoc};
use engine::certify::Certificate;
use engine::ir::{CmpOp, Cond, LocId, Term};
use frontend::ParsedUnit;
use lowering::{Lowered, VarOrigin};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// Largest exact formula written (comparisons); larger ones become their
/// interval hull.
pub const MAX_LITERALS: usize = 48;

/// `Σ a·x op c` with `op` one of `<=`, `>=`, `==`, `!=`; terms sorted by
/// variable, the first coefficient positive.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Lit {
    terms: Vec<(usize, i64)>,
    op: Op,
    c: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Op {
    Le,
    Ge,
    Eq,
    Ne,
}

/// A formula in negation normal form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Form {
    True,
    False,
    Lit(Lit),
    And(Vec<Form>),
    Or(Vec<Form>),
}

/// A linear term: coefficients per variable and a constant; `None` when it
/// uses `/`, `%` or a non-linear operation, or overflows.
fn linear(t: &Term) -> Option<(BTreeMap<usize, i64>, i64)> {
    fn go(t: &Term, k: i64, m: &mut BTreeMap<usize, i64>, c: &mut i64) -> Option<()> {
        match t {
            Term::Const(v) => *c = c.checked_add(v.checked_mul(k)?)?,
            Term::Var(v) => {
                let e = m.entry(v.index()).or_insert(0);
                *e = e.checked_add(k)?;
            }
            Term::Add(a, b) => {
                go(a, k, m, c)?;
                go(b, k, m, c)?;
            }
            Term::Sub(a, b) => {
                go(a, k, m, c)?;
                go(b, k.checked_neg()?, m, c)?;
            }
            Term::Mul(f, a) => go(a, k.checked_mul(*f)?, m, c)?,
            Term::Neg(a) => go(a, k.checked_neg()?, m, c)?,
            Term::Div(..) | Term::Mod(..) | Term::Nl(..) | Term::Select(..) => return None,
        }
        Some(())
    }
    let mut m = BTreeMap::new();
    let mut c = 0;
    go(t, 1, &mut m, &mut c)?;
    m.retain(|_, v| *v != 0);
    Some((m, c))
}

/// The comparison `a op b` (negated when `neg`) as a formula; `True` when
/// it cannot be written (see the module doc).
fn comparison(op: CmpOp, a: &Term, b: &Term, neg: bool, named: &dyn Fn(usize) -> bool) -> Form {
    let (Some((ma, ca)), Some((mb, cb))) = (linear(a), linear(b)) else {
        return Form::True;
    };
    let mut m = ma;
    for (v, k) in mb {
        let e = m.entry(v).or_insert(0);
        let Some(n) = e.checked_sub(k) else {
            return Form::True;
        };
        *e = n;
    }
    m.retain(|_, v| *v != 0);
    // Σ m op cb - ca
    let Some(c) = cb.checked_sub(ca) else {
        return Form::True;
    };
    let op = if neg { op.negated() } else { op };
    let (op, c) = match op {
        CmpOp::Eq => (Op::Eq, Some(c)),
        CmpOp::Ne => (Op::Ne, Some(c)),
        CmpOp::Le => (Op::Le, Some(c)),
        CmpOp::Ge => (Op::Ge, Some(c)),
        CmpOp::Lt => (Op::Le, c.checked_sub(1)),
        CmpOp::Gt => (Op::Ge, c.checked_add(1)),
    };
    let Some(c) = c else { return Form::True };
    if m.is_empty() {
        let holds = match op {
            Op::Le => 0 <= c,
            Op::Ge => 0 >= c,
            Op::Eq => c == 0,
            Op::Ne => c != 0,
        };
        return if holds { Form::True } else { Form::False };
    }
    if !m.keys().all(|&v| named(v)) {
        return Form::True;
    }
    let mut terms: Vec<(usize, i64)> = m.into_iter().collect();
    let (mut op, mut c) = (op, c);
    if terms[0].1 < 0 {
        let Some(nc) = c.checked_neg() else {
            return Form::True;
        };
        if terms.iter().any(|t| t.1 == i64::MIN) {
            return Form::True;
        }
        for t in &mut terms {
            t.1 = -t.1;
        }
        c = nc;
        op = match op {
            Op::Le => Op::Ge,
            Op::Ge => Op::Le,
            o => o,
        };
    }
    Form::Lit(Lit { terms, op, c })
}

/// A condition in negation normal form at a tuple of locations (location
/// tests decided), over named variables only.
fn nnf(c: &Cond, locs: &[LocId], neg: bool, named: &dyn Fn(usize) -> bool) -> Form {
    match c {
        Cond::True => bool_form(!neg),
        Cond::False => bool_form(neg),
        Cond::At(t, l) => bool_form((locs.get(t.index()) == Some(l)) != neg),
        Cond::Cmp(op, a, b) => comparison(*op, a, b, neg, named),
        Cond::Not(a) => nnf(a, locs, !neg, named),
        Cond::And(a, b) | Cond::Or(a, b) => {
            let parts = vec![nnf(a, locs, neg, named), nnf(b, locs, neg, named)];
            if matches!(c, Cond::And(..)) != neg {
                and(parts)
            } else {
                or(parts)
            }
        }
    }
}

fn bool_form(b: bool) -> Form {
    if b {
        Form::True
    } else {
        Form::False
    }
}

/// The conjuncts of a formula.
fn conjuncts(f: &Form) -> Vec<Form> {
    match f {
        Form::True => Vec::new(),
        Form::And(v) => v.clone(),
        f => vec![f.clone()],
    }
}

fn and(parts: Vec<Form>) -> Form {
    let mut out = Vec::new();
    for p in parts {
        match p {
            Form::True => {}
            Form::False => return Form::False,
            Form::And(v) => out.extend(v),
            p => out.push(p),
        }
    }
    let Some(mut out) = tighten(out) else {
        return Form::False;
    };
    out.sort();
    out.dedup();
    match out.len() {
        0 => Form::True,
        1 => out.pop().expect("one"),
        _ => Form::And(out),
    }
}

/// Conjuncts with the bounds on each single variable merged: at most a
/// lower and an upper bound, or one equality, and the disequalities
/// within them; `None` when they contradict each other.
fn tighten(parts: Vec<Form>) -> Option<Vec<Form>> {
    #[derive(Default)]
    struct B {
        lo: Option<i64>,
        hi: Option<i64>,
        ne: Vec<i64>,
    }
    let mut bounds: BTreeMap<usize, B> = BTreeMap::new();
    let mut out = Vec::new();
    for p in parts {
        match &p {
            Form::Lit(l) if matches!(l.terms[..], [(_, 1)]) => {
                let b = bounds.entry(l.terms[0].0).or_default();
                let (lo, hi) = match l.op {
                    Op::Le => (None, Some(l.c)),
                    Op::Ge => (Some(l.c), None),
                    Op::Eq => (Some(l.c), Some(l.c)),
                    Op::Ne => {
                        b.ne.push(l.c);
                        continue;
                    }
                };
                b.lo = b.lo.max(lo);
                b.hi = match (b.hi, hi) {
                    (Some(a), Some(c)) => Some(a.min(c)),
                    (a, c) => a.or(c),
                };
            }
            _ => out.push(p),
        }
    }
    for (v, mut b) in bounds {
        let lit = |op, c| {
            Form::Lit(Lit {
                terms: vec![(v, 1)],
                op,
                c,
            })
        };
        // A disequality at a bound moves the bound.
        loop {
            let moved = match (b.lo, b.hi) {
                (Some(lo), _) if b.ne.contains(&lo) && lo < i64::MAX => {
                    b.lo = Some(lo + 1);
                    true
                }
                (_, Some(hi)) if b.ne.contains(&hi) && hi > i64::MIN => {
                    b.hi = Some(hi - 1);
                    true
                }
                _ => false,
            };
            if !moved {
                break;
            }
            if matches!((b.lo, b.hi), (Some(lo), Some(hi)) if lo > hi) {
                return None;
            }
        }
        match (b.lo, b.hi) {
            (Some(lo), Some(hi)) if lo > hi => return None,
            (Some(lo), Some(hi)) if lo == hi => {
                out.push(lit(Op::Eq, lo));
                continue;
            }
            (lo, hi) => {
                out.extend(lo.map(|c| lit(Op::Ge, c)));
                out.extend(hi.map(|c| lit(Op::Le, c)));
            }
        }
        b.ne.sort_unstable();
        b.ne.dedup();
        for d in b.ne {
            if b.lo.is_none_or(|lo| lo < d) && b.hi.is_none_or(|hi| d < hi) {
                out.push(lit(Op::Ne, d));
            }
        }
    }
    Some(out)
}

/// Whether two literals are each other's negation.
fn complementary(a: &Form, b: &Form) -> bool {
    let (Form::Lit(a), Form::Lit(b)) = (a, b) else {
        return false;
    };
    if a.terms != b.terms {
        return false;
    }
    let (x, y) = if a.op <= b.op { (a, b) } else { (b, a) };
    match (x.op, y.op) {
        (Op::Le, Op::Ge) => x.c.checked_add(1) == Some(y.c),
        (Op::Eq, Op::Ne) => x.c == y.c,
        _ => false,
    }
}

/// Largest disjunction simplified by absorption and resolution.
const MAX_MERGE: usize = 64;

/// Disjuncts (as sorted conjunct lists) simplified: one implied by another
/// is dropped (`a ∨ (a ∧ b) = a`), and two that differ in one
/// complementary literal are merged (`(a ∧ l) ∨ (a ∧ ¬l) = a`).
fn merge(mut ds: Vec<Vec<Form>>) -> Vec<Vec<Form>> {
    if ds.len() > MAX_MERGE {
        return ds;
    }
    loop {
        ds.sort();
        ds.dedup();
        let mut changed = false;
        let mut i = 0;
        while i < ds.len() {
            let subsumed = (0..ds.len()).any(|j| {
                j != i && ds[j].len() < ds[i].len() && ds[j].iter().all(|c| ds[i].contains(c))
            });
            if subsumed {
                ds.remove(i);
                changed = true;
            } else {
                i += 1;
            }
        }
        'pairs: for i in 0..ds.len() {
            for j in i + 1..ds.len() {
                if ds[i].len() != ds[j].len() {
                    continue;
                }
                let only_i: Vec<&Form> = ds[i].iter().filter(|c| !ds[j].contains(c)).collect();
                let only_j: Vec<&Form> = ds[j].iter().filter(|c| !ds[i].contains(c)).collect();
                if let ([a], [b]) = (&only_i[..], &only_j[..]) {
                    if complementary(a, b) {
                        let a = (*a).clone();
                        let common: Vec<Form> =
                            ds[i].iter().filter(|c| **c != a).cloned().collect();
                        ds.remove(j);
                        ds[i] = common;
                        changed = true;
                        break 'pairs;
                    }
                }
            }
        }
        if !changed {
            return ds;
        }
    }
}

fn or(parts: Vec<Form>) -> Form {
    let mut out = Vec::new();
    for p in parts {
        match p {
            Form::False => {}
            Form::True => return Form::True,
            Form::Or(v) => out.extend(v),
            p => out.push(p),
        }
    }
    let ds = merge(out.iter().map(conjuncts).collect());
    if ds.iter().any(|d| d.is_empty()) {
        return Form::True;
    }
    let mut out: Vec<Form> = ds.into_iter().map(and).collect();
    out.sort();
    out.dedup();
    match out.len() {
        0 => return Form::False,
        1 => return out.pop().expect("one"),
        _ => {}
    }
    // Factor out the conjuncts common to every disjunct:
    // (c ∧ a) ∨ (c ∧ b) = c ∧ (a ∨ b).
    let sets: Vec<Vec<Form>> = out.iter().map(conjuncts).collect();
    let common: Vec<Form> = sets[0]
        .iter()
        .filter(|c| sets[1..].iter().all(|s| s.contains(c)))
        .cloned()
        .collect();
    if common.is_empty() {
        return Form::Or(out);
    }
    let rest: Vec<Form> = sets
        .into_iter()
        .map(|s| and(s.into_iter().filter(|c| !common.contains(c)).collect()))
        .collect();
    let mut all = common;
    all.push(or(rest));
    and(all)
}

fn size(f: &Form) -> usize {
    match f {
        Form::True | Form::False => 0,
        Form::Lit(_) => 1,
        Form::And(v) | Form::Or(v) => v.iter().map(size).sum(),
    }
}

/// Per variable: the least and greatest value (`None`: unbounded).
type Hull = BTreeMap<usize, (Option<i64>, Option<i64>)>;

/// The interval hull of a formula's states; `None` for `false`.
fn hull(f: &Form) -> Option<Hull> {
    match f {
        Form::True => Some(Hull::new()),
        Form::False => None,
        Form::Lit(l) => {
            let mut h = Hull::new();
            if let [(v, 1)] = l.terms[..] {
                let b = match l.op {
                    Op::Le => (None, Some(l.c)),
                    Op::Ge => (Some(l.c), None),
                    Op::Eq => (Some(l.c), Some(l.c)),
                    Op::Ne => return Some(h),
                };
                h.insert(v, b);
            }
            Some(h)
        }
        Form::And(v) => {
            let mut h = Hull::new();
            for p in v {
                for (var, (lo, hi)) in hull(p)? {
                    let e = h.entry(var).or_insert((None, None));
                    e.0 = match (e.0, lo) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        (a, b) => a.or(b),
                    };
                    e.1 = match (e.1, hi) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                }
            }
            if h.values()
                .any(|b| matches!(b, (Some(lo), Some(hi)) if lo > hi))
            {
                return None;
            }
            Some(h)
        }
        Form::Or(v) => {
            let mut acc: Option<Hull> = None;
            for p in v {
                let Some(h) = hull(p) else { continue };
                acc = Some(match acc {
                    None => h,
                    Some(a) => a
                        .into_iter()
                        .filter_map(|(var, (lo, hi))| {
                            let (lo2, hi2) = h.get(&var)?;
                            let lo = lo.zip(*lo2).map(|(a, b)| a.min(b));
                            let hi = hi.zip(*hi2).map(|(a, b)| a.max(b));
                            (lo.is_some() || hi.is_some()).then_some((var, (lo, hi)))
                        })
                        .collect(),
                });
            }
            acc
        }
    }
}

/// The hull as a formula.
fn hull_form(h: Option<Hull>) -> Form {
    let Some(h) = h else { return Form::False };
    let mut parts = Vec::new();
    for (v, (lo, hi)) in h {
        let lit = |op, c| {
            Form::Lit(Lit {
                terms: vec![(v, 1)],
                op,
                c,
            })
        };
        match (lo, hi) {
            (Some(a), Some(b)) if a == b => parts.push(lit(Op::Eq, a)),
            (lo, hi) => {
                if let Some(a) = lo {
                    parts.push(lit(Op::Ge, a));
                }
                if let Some(b) = hi {
                    parts.push(lit(Op::Le, b));
                }
            }
        }
    }
    and(parts)
}

/// How C code can write a variable: its name and type.
struct CVar {
    name: String,
    bits: u8,
    signed: bool,
}

/// A literal in C; `None` when its arithmetic might overflow in C.
fn c_literal(l: &Lit, vars: &[Option<CVar>]) -> Option<String> {
    let var = |v: usize| vars.get(v).and_then(|x| x.as_ref());
    let op = match l.op {
        Op::Le => "<=",
        Op::Ge => ">=",
        Op::Eq => "==",
        Op::Ne => "!=",
    };
    // A lone variable compared with a constant that C converts to the
    // variable's type without change needs no cast.
    if let [(v, 1)] = l.terms[..] {
        let x = var(v)?;
        let plain = if x.signed {
            x.bits <= 32 && i32::try_from(l.c).is_ok() || x.bits == 64
        } else {
            x.bits <= 32 && (0..=i64::from(i32::MAX)).contains(&l.c)
        };
        if plain {
            return Some(format!("{} {op} {}", x.name, constant(l.c)));
        }
    }
    // Otherwise every variable is cast to `long long`, and the sum must
    // not overflow it.
    let mut magnitude: i128 = i128::from(l.c).abs();
    for &(v, k) in &l.terms {
        let x = var(v)?;
        let max = if x.signed {
            1i128 << (x.bits - 1)
        } else {
            (1i128 << x.bits) - 1
        };
        magnitude += i128::from(k).abs() * max;
    }
    if magnitude >= 1i128 << 62 {
        return None;
    }
    let terms: Option<Vec<(String, i128)>> = l
        .terms
        .iter()
        .map(|&(v, k)| Some((format!("(long long){}", var(v)?.name), i128::from(k))))
        .collect();
    let s = crate::invariant::linear_sum(&terms?);
    Some(format!("{s} {op} {}", constant(l.c)))
}

fn constant(c: i64) -> String {
    if i32::try_from(c).is_ok() {
        c.to_string()
    } else {
        format!("{c}LL")
    }
}

/// Drops the literals C cannot write (weakening: `true`).
fn writable(f: Form, vars: &[Option<CVar>]) -> Form {
    match f {
        Form::Lit(l) if c_literal(&l, vars).is_none() => Form::True,
        Form::And(v) => and(v.into_iter().map(|p| writable(p, vars)).collect()),
        Form::Or(v) => or(v.into_iter().map(|p| writable(p, vars)).collect()),
        f => f,
    }
}

/// The formula in C (`1` for true, `0` for false).
fn c_text(f: &Form, vars: &[Option<CVar>], top: bool) -> String {
    match f {
        Form::True => "1".into(),
        Form::False => "0".into(),
        Form::Lit(l) => {
            let s = c_literal(l, vars).unwrap_or_else(|| "1".into());
            if top {
                s
            } else {
                format!("({s})")
            }
        }
        Form::And(v) => {
            let s = v
                .iter()
                .map(|p| c_text(p, vars, false))
                .collect::<Vec<_>>()
                .join(" && ");
            if top {
                s
            } else {
                format!("({s})")
            }
        }
        Form::Or(v) => {
            let s = v
                .iter()
                .map(|p| c_text(p, vars, false))
                .collect::<Vec<_>>()
                .join(" || ");
            if top {
                s
            } else {
                format!("({s})")
            }
        }
    }
}

/// The C variables a witness may name: globals of integer type that the
/// dead-variable resets never write.
fn c_vars(lowered: &Lowered) -> Vec<Option<CVar>> {
    let reset: HashSet<usize> = lowered.resets.iter().map(|(_, v)| v.index()).collect();
    lowered
        .vars
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let name = m.c_name.as_ref().filter(|_| !m.heap)?;
            let ty = m.int_type?;
            let global = matches!(
                m.origin,
                VarOrigin::Object {
                    thread: None,
                    function: None,
                    mutex: false
                }
            );
            let fits = ty.signed || ty.bits != 64;
            (global && fits && !reset.contains(&i)).then(|| CVar {
                name: name.clone(),
                bits: ty.bits.max(1),
                signed: ty.signed,
            })
        })
        .collect()
}

/// The formula of a set of tuple invariants: exact when small, else the
/// interval hull.
fn summarise(parts: Vec<Form>, vars: &[Option<CVar>]) -> (Form, bool) {
    let exact = writable(or(parts), vars);
    if size(&exact) <= MAX_LITERALS {
        (exact, true)
    } else {
        (writable(hull_form(hull(&exact)), vars), false)
    }
}

/// The witness invariants a checked certificate of `lowered.program`
/// gives: per C position the disjunction over its IR locations and their
/// tuples, and (for the GraphML entry node) the one over all tuples.
pub fn from_certificate(
    unit: &ParsedUnit,
    file: &Path,
    lowered: &Lowered,
    cert: &Certificate,
) -> WitnessInvariants {
    let p = &lowered.program;
    let vars = c_vars(lowered);
    let named = |v: usize| vars.get(v).is_some_and(|x| x.is_some());
    // The invariant of every tuple, over named variables.
    let tuples: Vec<(&[LocId], Form)> = cert
        .invariants
        .iter()
        .map(|inv| {
            let blocks = inv
                .blocks
                .iter()
                .map(|b| {
                    or(b.iter()
                        .map(|d| and(d.iter().map(|c| nnf(c, &inv.locs, false, &named)).collect()))
                        .collect())
                })
                .collect();
            (&inv.locs[..], and(blocks))
        })
        .filter(|(_, f)| *f != Form::False)
        .collect();
    let loc = Locator::new(unit, file);
    let funcs = functions(unit);
    // Per C position: the function and the tuple invariants of its IR
    // locations.
    let mut at: Vec<(SrcLoc, Option<String>, HashSet<Form>)> = Vec::new();
    for t in 0..p.threads.len() {
        for l in 0..p.threads[t].locs.len() {
            let span = lowered.loc_span(t, l);
            let Some(pos) = span.and_then(|s| loc.locate(s)) else {
                continue;
            };
            let function = span.and_then(|s| function_at(&funcs, s.start).map(str::to_string));
            let here = tuples
                .iter()
                .filter(|(locs, _)| locs.get(t) == Some(&LocId::new(l)))
                .map(|(_, f)| f.clone());
            match at
                .iter_mut()
                .find(|(a, _, _)| a.line == pos.line && a.column == pos.column)
            {
                Some((_, _, fs)) => fs.extend(here),
                None => at.push((pos, function, here.collect())),
            }
        }
    }
    at.sort_by_key(|(a, _, _)| (a.line, a.column));
    let mut positions = Vec::new();
    let mut summarised = 0;
    for (pos, function, forms) in at {
        let (f, exact) = summarise(forms.into_iter().collect(), &vars);
        if f == Form::True {
            continue;
        }
        summarised += usize::from(!exact);
        positions.push((pos, function, c_text(&f, &vars, true)));
    }
    let (g, exact) = summarise(tuples.into_iter().map(|(_, f)| f).collect(), &vars);
    summarised += usize::from(!exact);
    // Steps inside an atomic section are merged, so an invariant of every
    // reachable IR state need not hold at a C point inside one.
    let atomic = p.var_by_name("__atomic").is_some();
    WitnessInvariants {
        global: (g != Form::True && !atomic).then(|| c_text(&g, &vars, true)),
        positions,
        source: if summarised == 0 {
            "the checked certificate".into()
        } else {
            format!("the checked certificate ({summarised} large disjunctions summarised by value ranges)")
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(v: usize, op: Op, c: i64) -> Form {
        Form::Lit(Lit {
            terms: vec![(v, 1)],
            op,
            c,
        })
    }

    #[test]
    fn factoring_and_hull() {
        let f = or(vec![
            and(vec![lit(0, Op::Eq, 1), lit(1, Op::Eq, 2)]),
            and(vec![lit(0, Op::Eq, 1), lit(1, Op::Eq, 5)]),
        ]);
        assert_eq!(
            f,
            and(vec![
                lit(0, Op::Eq, 1),
                or(vec![lit(1, Op::Eq, 2), lit(1, Op::Eq, 5)])
            ])
        );
        assert_eq!(
            hull_form(hull(&f)),
            and(vec![
                lit(0, Op::Eq, 1),
                lit(1, Op::Ge, 2),
                lit(1, Op::Le, 5)
            ])
        );
        // A disjunct without a bound on a variable drops it from the hull.
        let g = or(vec![lit(0, Op::Eq, 1), lit(1, Op::Eq, 2)]);
        assert_eq!(hull_form(hull(&g)), Form::True);
        assert_eq!(or(vec![Form::False, Form::False]), Form::False);
        // Bounds merge; contradictions are false.
        assert_eq!(
            and(vec![
                lit(0, Op::Eq, 1),
                lit(0, Op::Ne, 2),
                lit(0, Op::Le, 4)
            ]),
            lit(0, Op::Eq, 1)
        );
        assert_eq!(
            and(vec![
                lit(0, Op::Ge, 1),
                lit(0, Op::Ne, 1),
                lit(0, Op::Le, 2)
            ]),
            lit(0, Op::Eq, 2)
        );
        assert_eq!(and(vec![lit(0, Op::Eq, 1), lit(0, Op::Ne, 1)]), Form::False);
        // Absorption and resolution.
        assert_eq!(
            or(vec![
                and(vec![lit(0, Op::Eq, 1), lit(1, Op::Le, 0)]),
                and(vec![lit(0, Op::Eq, 1), lit(1, Op::Ge, 1)]),
                and(vec![lit(0, Op::Eq, 1), lit(2, Op::Eq, 7)]),
            ]),
            lit(0, Op::Eq, 1)
        );
        assert_eq!(or(vec![lit(1, Op::Ne, 3), lit(1, Op::Eq, 3)]), Form::True);
    }

    #[test]
    fn c_syntax() {
        let vars = vec![
            Some(CVar {
                name: "x".into(),
                bits: 32,
                signed: true,
            }),
            Some(CVar {
                name: "u".into(),
                bits: 32,
                signed: false,
            }),
        ];
        let l = |terms: Vec<(usize, i64)>, op, c| Lit { terms, op, c };
        assert_eq!(
            c_literal(&l(vec![(0, 1)], Op::Le, 3), &vars).unwrap(),
            "x <= 3"
        );
        assert_eq!(
            c_literal(&l(vec![(1, 1)], Op::Ge, -1), &vars).unwrap(),
            "(long long)u >= -1"
        );
        assert_eq!(
            c_literal(&l(vec![(0, 1), (1, -2)], Op::Eq, 0), &vars).unwrap(),
            "(long long)x - 2 * (long long)u == 0"
        );
        assert!(c_literal(&l(vec![(0, 1), (1, i64::MAX / 4)], Op::Eq, 0), &vars).is_none());
    }
}
