//! Certificates from the engines' proofs. Not trusted: the checker
//! ([`super::check`]) decides whether what is built here is a proof.

use super::{Certificate, Dnf, Invariant, ProgramRef};
use crate::explicit::is_lazy;
use crate::interp::State;
use crate::ir::{CmpOp, Cond, LocId, Program, Term, VarId};
use crate::linear::{Atom, Formula, Lin, Rel, Sym};
use crate::smt::{Smt, SmtError, Space};
use crate::verdict::{ProofStates, SymbolicState};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Why no certificate was built.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum BuildError {
    /// The certificate would be larger than the limit.
    #[error("the certificate would have more than {limit} conjuncts ({states} states)")]
    TooLarge {
        /// The limit on conjuncts.
        limit: usize,
        /// The states it summarises.
        states: usize,
    },
    /// A value does not fit in the 64-bit literals of the IR.
    #[error("a value beyond 2^120")]
    ValueTooLarge,
    /// The proof has no safe fragment to build from.
    #[error("the proof is not by the safe-fragment check")]
    NoFragment,
    /// Quantifier elimination failed.
    #[error("quantifier elimination: {0}")]
    Prover(#[from] SmtError),
}

/// `Σ a·x` as an IR term (first coefficient positive, as atoms are).
fn lin_term(terms: &[(u32, i128)]) -> Option<Term> {
    let mut out: Option<Term> = None;
    for &(x, a) in terms {
        let v = Term::Var(VarId(x));
        let mag = i64::try_from(a.unsigned_abs()).ok()?;
        let part = if mag == 1 {
            v
        } else {
            Term::Mul(mag, Box::new(v))
        };
        out = Some(match out {
            None if a < 0 => Term::Neg(Box::new(part)),
            None => part,
            Some(t) if a < 0 => Term::Sub(Box::new(t), Box::new(part)),
            Some(t) => Term::Add(Box::new(t), Box::new(part)),
        });
    }
    out
}

/// A predicate literal as an IR condition; `None` when it has none
/// (coefficients beyond 64 bits). `lhs ≡ rhs (mod k)` is `lhs % k == rhs`.
pub fn literal(atom: &Atom, positive: bool) -> Option<Cond> {
    let mut lhs = lin_term(&atom.lhs.terms)?;
    let rhs = match atom.rel {
        Rel::Mod(k) => atom.rhs.rem_euclid(k),
        _ => atom.rhs,
    };
    let rhs = Term::literal(rhs)?;
    let op = match (&atom.rel, positive) {
        (Rel::Le, true) => CmpOp::Le,
        (Rel::Le, false) => CmpOp::Gt,
        (Rel::Eq, true) | (Rel::Mod(_), true) => CmpOp::Eq,
        (Rel::Eq, false) | (Rel::Mod(_), false) => CmpOp::Ne,
    };
    if let Rel::Mod(k) = atom.rel {
        lhs = Term::Mod(Box::new(lhs), i64::try_from(k).ok()?);
    }
    Some(Cond::Cmp(op, lhs, rhs))
}

/// Merges cubes that differ in one literal only (`c ∧ p ∨ c ∧ ¬p` is `c`)
/// and drops cubes another one subsumes, until nothing changes: the same
/// disjunction, usually far shorter. `None` is "either value".
pub fn merge_cubes(cubes: impl IntoIterator<Item = Vec<Option<bool>>>) -> Vec<Vec<Option<bool>>> {
    let mut set: BTreeSet<Vec<Option<bool>>> = cubes.into_iter().collect();
    let width = set.iter().next().map_or(0, Vec::len);
    loop {
        let mut changed = false;
        for i in 0..width {
            let with: Vec<Vec<Option<bool>>> =
                set.iter().filter(|c| c[i] == Some(true)).cloned().collect();
            for c in with {
                let mut other = c.clone();
                other[i] = Some(false);
                let mut merged = c.clone();
                merged[i] = None;
                if set.contains(&merged) {
                    set.remove(&c);
                    changed = true;
                } else if set.contains(&other) {
                    set.remove(&c);
                    set.remove(&other);
                    set.insert(merged);
                    changed = true;
                }
            }
            let without: Vec<Vec<Option<bool>>> = set
                .iter()
                .filter(|c| c[i] == Some(false))
                .cloned()
                .collect();
            for c in without {
                let mut merged = c.clone();
                merged[i] = None;
                if set.contains(&merged) {
                    set.remove(&c);
                    changed = true;
                }
            }
        }
        if !changed {
            return set.into_iter().collect();
        }
    }
}

/// A cube as conjuncts (literals without an IR form left out).
fn cube_conj(lits: &[[Option<Cond>; 2]], cube: &[Option<bool>]) -> Vec<Cond> {
    cube.iter()
        .enumerate()
        .filter_map(|(i, b)| b.and_then(|b| lits[i][usize::from(b)].clone()))
        .collect()
}

/// The union of the abstract states of a proof, per tuple of locations: the
/// literals common to all states of a tuple in a first block, the rest as
/// a disjunction of cubes. Literals without an IR form are left out (the
/// invariant only gets weaker; the checker decides whether it still holds).
pub fn from_proof_states(program: ProgramRef, proof: &str, states: &ProofStates) -> Certificate {
    let mut by_tuple: BTreeMap<Vec<LocId>, BTreeSet<&Vec<bool>>> = BTreeMap::new();
    for (locs, cube) in &states.states {
        by_tuple.entry(locs.clone()).or_default().insert(cube);
    }
    let lits: Vec<[Option<Cond>; 2]> = states
        .predicates
        .iter()
        .map(|a| [literal(a, false), literal(a, true)])
        .collect();
    let mut invariants = Vec::with_capacity(by_tuple.len());
    for (locs, cubes) in by_tuple {
        let first = cubes.iter().next().copied();
        let common: Vec<bool> = (0..states.predicates.len())
            .map(|i| first.is_some_and(|f| cubes.iter().all(|c| c[i] == f[i])))
            .collect();
        let mut blocks = Vec::new();
        if let Some(f) = first {
            let conj: Vec<Cond> = (0..f.len())
                .filter(|&i| common[i])
                .filter_map(|i| lits[i][usize::from(f[i])].clone())
                .collect();
            if !conj.is_empty() {
                blocks.push(vec![conj]);
            }
        }
        if cubes.len() > 1 {
            let merged = merge_cubes(cubes.iter().map(|c| {
                c.iter()
                    .enumerate()
                    .map(|(i, &b)| (!common[i]).then_some(b))
                    .collect()
            }));
            let mut seen = HashSet::new();
            let dnf: Dnf = merged
                .iter()
                .map(|c| cube_conj(&lits, c))
                .filter(|d| seen.insert(d.clone()))
                .collect();
            blocks.push(dnf);
        }
        invariants.push(Invariant { locs, blocks });
    }
    Certificate {
        program,
        proof: proof.to_string(),
        invariants,
    }
}

/// `v op x`.
fn var_cmp(op: CmpOp, v: usize, x: i128) -> Result<Cond, BuildError> {
    let k = Term::literal(x).ok_or(BuildError::ValueTooLarge)?;
    Ok(Cond::Cmp(op, Term::Var(VarId::new(v)), k))
}

/// `v >= k`.
fn at_least(v: usize, k: i128) -> Result<Cond, BuildError> {
    var_cmp(CmpOp::Ge, v, k)
}

fn eq(v: usize, x: i128) -> Result<Cond, BuildError> {
    var_cmp(CmpOp::Eq, v, x)
}

/// `v < lo || v > hi`.
fn outside(v: usize, (lo, hi): (i128, i128)) -> Result<Cond, BuildError> {
    let k = |x: i128| Term::literal(x).ok_or(BuildError::ValueTooLarge);
    let x = Term::Var(VarId::new(v));
    Ok(Cond::Or(
        Box::new(Cond::Cmp(CmpOp::Lt, x.clone(), k(lo)?)),
        Box::new(Cond::Cmp(CmpOp::Gt, x, k(hi)?)),
    ))
}

/// `v` in the set `dom` (sorted disjoint intervals, `i128::MIN`/`MAX` for
/// no bound); nothing when it is every integer.
/// Whether a domain is every integer (it constrains nothing).
fn unbounded(dom: &[(i128, i128)]) -> bool {
    dom.iter()
        .any(|&(lo, hi)| lo == i128::MIN && hi == i128::MAX)
}

fn within(v: usize, dom: &[(i128, i128)]) -> Result<Option<Cond>, BuildError> {
    let k = |x: i128| Term::literal(x).ok_or(BuildError::ValueTooLarge);
    let x = || Term::Var(VarId::new(v));
    let mut any: Option<Cond> = None;
    for &(lo, hi) in dom {
        let mut part: Option<Cond> = None;
        for (op, end, unbounded) in [
            (CmpOp::Ge, lo, lo == i128::MIN),
            (CmpOp::Le, hi, hi == i128::MAX),
        ] {
            if !unbounded {
                let c = Cond::Cmp(op, x(), k(end)?);
                part = Some(match part {
                    Some(p) => Cond::And(Box::new(p), Box::new(c)),
                    None => c,
                });
            }
        }
        // An interval without bounds: every integer.
        let Some(part) = part else {
            return Ok(None);
        };
        any = Some(match any {
            Some(a) => Cond::Or(Box::new(a), Box::new(part)),
            None => part,
        });
    }
    Ok(Some(any.unwrap_or(Cond::False)))
}

/// Per tuple: how many states, the first state's values, and which
/// variables are constant.
struct Summary {
    first: Vec<i128>,
    constant: Vec<bool>,
}

/// The states of an exhaustive search, per tuple of locations: variables
/// constant at a tuple as equalities in a first block, the states as a
/// disjunction over the others. A variable given by an input of a known
/// range ([`crate::explicit::input_ranges`]) is, at a tuple where its owner
/// waits at the input's target location, also allowed any value outside
/// the range (the search tried only the range: a value outside blocks the
/// owner for good, and no other thread reads the variable). With
/// `saturated` counters and their cap `K`, a counter at `K` is `>= K`
/// ([`crate::saturate`]). A lazy value (`lazy` gives its symbol and
/// domain: an input not chosen yet) lies in its domain, and equals the
/// first variable of the state with the same symbol.
pub fn from_states<'d, I: Iterator<Item = State>>(
    program: ProgramRef,
    proof: &str,
    ir: &Program,
    states: impl Fn() -> I,
    lazy: &dyn Fn(i128) -> Option<crate::explicit::LazyValue<'d>>,
    saturated: Option<(&[VarId], i128)>,
    max_conjuncts: usize,
) -> Result<Certificate, BuildError> {
    let nvars = ir.vars.len();
    let mut cap = vec![None; nvars];
    if let Some((counters, k)) = saturated {
        for c in counters {
            cap[c.index()] = Some(k);
        }
    }
    let eq = |v: usize, x: i128| match cap[v] {
        Some(k) if x >= k => at_least(v, k),
        _ => eq(v, x),
    };
    let mut summaries: BTreeMap<Vec<LocId>, Summary> = BTreeMap::new();
    let mut count = 0usize;
    for s in states() {
        count += 1;
        match summaries.get_mut(&s.locs) {
            Some(sum) => {
                for (v, x) in s.vals.iter().enumerate() {
                    if sum.first[v] != *x {
                        sum.constant[v] = false;
                    }
                }
            }
            // Lazy values are never constant: they are constrained per
            // state.
            None => {
                summaries.insert(
                    s.locs.clone(),
                    Summary {
                        constant: s.vals.iter().map(|&x| !is_lazy(x)).collect(),
                        first: s.vals,
                    },
                );
            }
        }
    }
    // Relaxed variables per (thread, location), with their ranges.
    let mut relaxed: HashMap<(usize, LocId), BTreeMap<usize, (i128, i128)>> = HashMap::new();
    for ((t, v), (lo, hi)) in crate::explicit::input_ranges(ir) {
        let tr = ir.transition(t);
        let r = relaxed
            .entry((tr.thread.index(), tr.to))
            .or_default()
            .entry(v.index())
            .or_insert((lo, hi));
        *r = (r.0.min(lo), r.1.max(hi));
    }
    let relaxed_at = |locs: &[LocId]| -> BTreeMap<usize, (i128, i128)> {
        let mut out = BTreeMap::new();
        for (t, &l) in locs.iter().enumerate() {
            if let Some(m) = relaxed.get(&(t, l)) {
                out.extend(m.iter().map(|(&v, &r)| (v, r)));
            }
        }
        out
    };
    // Size check before building anything: per state, a conjunct for each
    // variable that is not constant at its tuple, except a lazy value that
    // may be any integer and that no other variable holds (it constrains
    // nothing: a variable a slice of CEGPV never reads, an untouched
    // buffer), times the subsets of the relaxed variables.
    let relaxed_count: HashMap<&Vec<LocId>, usize> = summaries
        .iter()
        .map(|(locs, sum)| {
            let r = relaxed_at(locs)
                .keys()
                .filter(|&&v| !sum.constant[v])
                .count();
            (locs, r)
        })
        .collect();
    let mut size = summaries.len().saturating_mul(nvars);
    for s in states() {
        let Some((locs, sum)) = summaries.get_key_value(&s.locs) else {
            continue;
        };
        let mut symbols = HashSet::new();
        let conjuncts = (0..nvars)
            .filter(|&v| !sum.constant[v])
            .filter(
                |&v| match is_lazy(s.vals[v]).then(|| lazy(s.vals[v])).flatten() {
                    Some(value) => !symbols.insert(value.symbol) || !unbounded(value.domain),
                    None => true,
                },
            )
            .count();
        size = size.saturating_add(
            conjuncts
                .max(1)
                .saturating_mul(1usize << relaxed_count[locs].min(16)),
        );
        if size > max_conjuncts {
            break;
        }
    }
    if size > max_conjuncts {
        return Err(BuildError::TooLarge {
            limit: max_conjuncts,
            states: count,
        });
    }
    // The disjuncts of each tuple.
    let mut dnfs: BTreeMap<Vec<LocId>, (Dnf, HashSet<Vec<Cond>>)> = BTreeMap::new();
    let relaxed_by_tuple: HashMap<Vec<LocId>, BTreeMap<usize, (i128, i128)>> = summaries
        .keys()
        .map(|l| (l.clone(), relaxed_at(l)))
        .collect();
    for s in states() {
        let Some(sum) = summaries.get(&s.locs) else {
            continue;
        };
        let relax = &relaxed_by_tuple[&s.locs];
        let free: Vec<usize> = (0..nvars).filter(|&v| !sum.constant[v]).collect();
        if free.is_empty() {
            continue;
        }
        let rel: Vec<usize> = free
            .iter()
            .copied()
            .filter(|v| relax.contains_key(v))
            .collect();
        let entry = dnfs.entry(s.locs.clone()).or_default();
        // The first variable holding each symbol.
        let mut holder: HashMap<u32, usize> = HashMap::new();
        // Every subset of the relaxed free variables may lie outside.
        for mask in 0u32..(1 << rel.len().min(16)) {
            let mut conj = Vec::with_capacity(free.len());
            for &v in &free {
                match rel.iter().position(|&r| r == v) {
                    Some(i) if mask & (1 << i) != 0 => conj.push(outside(v, relax[&v])?),
                    _ if is_lazy(s.vals[v]) => {
                        if let Some(value) = lazy(s.vals[v]) {
                            match holder.get(&value.symbol) {
                                Some(&u) => conj.push(Cond::Cmp(
                                    CmpOp::Eq,
                                    Term::Var(VarId::new(v)),
                                    Term::Var(VarId::new(u)),
                                )),
                                None => {
                                    holder.insert(value.symbol, v);
                                    conj.extend(within(v, value.domain)?);
                                }
                            }
                        }
                    }
                    _ => conj.push(eq(v, s.vals[v])?),
                }
            }
            if entry.1.insert(conj.clone()) {
                entry.0.push(conj);
            }
        }
    }
    let mut invariants = Vec::with_capacity(summaries.len());
    for (locs, sum) in &summaries {
        let relax = &relaxed_by_tuple[locs];
        let mut blocks = Vec::new();
        let mut common = Vec::new();
        for v in (0..nvars).filter(|&v| sum.constant[v] && !is_lazy(sum.first[v])) {
            match relax.get(&v) {
                Some(&r) => blocks.push(vec![vec![eq(v, sum.first[v])?], vec![outside(v, r)?]]),
                None => common.push(eq(v, sum.first[v])?),
            }
        }
        if !common.is_empty() {
            blocks.insert(0, vec![common]);
        }
        if let Some((dnf, _)) = dnfs.remove(locs) {
            blocks.push(dnf);
        }
        invariants.push(Invariant {
            locs: locs.clone(),
            blocks,
        });
    }
    Ok(Certificate {
        program,
        proof: proof.to_string(),
        invariants,
    })
}

/// A formula over program variables as an IR condition; literals without an
/// IR form become `true` (the formula is in negation normal form, so this
/// only weakens it).
fn formula_cond(f: &Formula<Atom>) -> Cond {
    match f {
        Formula::True => Cond::True,
        Formula::False => Cond::False,
        Formula::Lit(a, pos) => literal(a, *pos).unwrap_or(Cond::True),
        Formula::At(t, l, pos) => {
            let at = Cond::At(*t, *l);
            if *pos {
                at
            } else {
                Cond::Not(Box::new(at))
            }
        }
        Formula::And(parts) => parts
            .iter()
            .map(formula_cond)
            .reduce(|a, b| Cond::And(Box::new(a), Box::new(b)))
            .unwrap_or(Cond::True),
        Formula::Or(parts) => parts
            .iter()
            .map(formula_cond)
            .reduce(|a, b| Cond::Or(Box::new(a), Box::new(b)))
            .unwrap_or(Cond::False),
    }
}

/// A formula as disjuncts of conjuncts (its top-level `or` and `and`).
fn formula_dnf(f: &Formula<Atom>) -> Dnf {
    let conj = |f: &Formula<Atom>| -> Vec<Cond> {
        match f {
            Formula::And(parts) => parts.iter().map(formula_cond).collect(),
            Formula::True => Vec::new(),
            f => vec![formula_cond(f)],
        }
    };
    match f {
        Formula::Or(parts) => parts.iter().map(conj).collect(),
        Formula::False => Vec::new(),
        f => vec![conj(f)],
    }
}

/// The concrete states of a symbolic state, `∃k. pc(k) ∧ x = vals(k)`, as
/// disjuncts over program variables: constant values as equalities, the
/// rest by Z3's quantifier elimination.
fn symbolic_dnf(smt: &mut Smt, nvars: usize, s: &SymbolicState) -> Result<Dnf, BuildError> {
    let mut common = Vec::new();
    let shift = |k: Sym| Lin::sym(k + nvars as Sym);
    let mut parts = Vec::new();
    let mut bound: BTreeSet<Sym> = BTreeSet::new();
    for (v, val) in s.vals.iter().enumerate() {
        match val.as_constant() {
            Some(c) => common.push(eq(v, c)?),
            None => {
                let shifted = val.substitute(&shift);
                bound.extend(shifted.terms.iter().map(|t| t.0));
                parts.push(crate::linear::compare(
                    CmpOp::Eq,
                    &Lin::sym(v as Sym),
                    &shifted,
                ));
            }
        }
    }
    if parts.is_empty() {
        // One concrete state (its path condition is satisfiable).
        return Ok(vec![common]);
    }
    for c in &s.pc {
        let shifted = c.substitute(&shift);
        shifted.for_each_atom(&mut |a: &Atom| bound.extend(a.lhs.terms.iter().map(|t| t.0)));
        parts.push(shifted);
    }
    let bound: Vec<Sym> = bound.into_iter().filter(|&k| k as usize >= nvars).collect();
    let f = smt.eliminate_exists(Space::State, &bound, &Formula::and(parts))?;
    Ok(formula_dnf(&f)
        .into_iter()
        .map(|mut d| {
            d.extend(common.iter().cloned());
            d
        })
        .collect())
}

/// The certificate of a proof by the safe-fragment check: per tuple, the
/// abstract states in or reachable from `inf` (closed under every
/// transition: all their pairs are exact) and the expanded symbolic states
/// of the other abstract states (exact sets: the successors of each are
/// expanded symbolic states, identical to one, or in an abstract state
/// matched on the path, which lies on a cycle). The union contains the
/// initial states and is inductive; the plain union of all abstract states
/// need not be, since a state on a tree path may have inexact transitions.
pub fn from_fragment(
    program: ProgramRef,
    proof: &str,
    ir: &Program,
    states: &ProofStates,
    deadline: Option<std::time::Instant>,
) -> Result<Certificate, BuildError> {
    let fragment = states.fragment.as_ref().ok_or(BuildError::NoFragment)?;
    let lits: Vec<[Option<Cond>; 2]> = states
        .predicates
        .iter()
        .map(|a| [literal(a, false), literal(a, true)])
        .collect();
    let mut by_tuple: BTreeMap<Vec<LocId>, (Dnf, HashSet<Vec<Cond>>)> = BTreeMap::new();
    let mut add = |locs: &[LocId], d: Vec<Cond>| {
        let e = by_tuple.entry(locs.to_vec()).or_default();
        if e.1.insert(d.clone()) {
            e.0.push(d);
        }
    };
    let mut cubes: BTreeMap<&Vec<LocId>, Vec<Vec<Option<bool>>>> = BTreeMap::new();
    for ((locs, cube), &inside) in states.states.iter().zip(&fragment.in_fragment) {
        if inside {
            cubes
                .entry(locs)
                .or_default()
                .push(cube.iter().map(|&b| Some(b)).collect());
        }
    }
    for (locs, cs) in cubes {
        for c in merge_cubes(cs) {
            add(locs, cube_conj(&lits, &c));
        }
    }
    let mut smt = Smt::new(deadline);
    for s in &fragment.symbolic {
        for d in symbolic_dnf(&mut smt, ir.vars.len(), s)? {
            add(&s.locs, d);
        }
    }
    Ok(Certificate {
        program,
        proof: proof.to_string(),
        invariants: by_tuple
            .into_iter()
            .map(|(locs, (dnf, _))| Invariant {
                locs,
                blocks: vec![dnf],
            })
            .collect(),
    })
}
