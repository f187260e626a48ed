//! Template locals whose values only matter through their order
//! (SOUNDNESS.md, "Threads created in loops", *order-only inputs*).
//!
//! A local of a large type assigned an input (`x = nondet()`) would be
//! forgotten by the counter abstraction. When the template only *compares*
//! it — with constants, or with other such locals — and copies it between
//! such locals, never computes with it, never stores it in shared memory,
//! then an execution depends on the values of these locals only through
//! their order relative to each other and to the constants compared with.
//! A representative set of values ([`representatives`]) realises every such
//! order: each constant, and in each gap between consecutive constants (and
//! below the least, above the greatest) as many distinct values as there
//! are locals (all of the gap's values when it has fewer). The inputs then
//! take exactly those values, and the local states stay finite.

use std::collections::{BTreeSet, HashSet};

use engine::ir::{Program, Rhs, Term, Transition, VarId};

/// The locals among `locals` that are only compared and copied by `code`
/// (the template's transitions and the spawns that start it): every
/// comparison mentioning one has a local of the set or a constant on each
/// side, every value computed from one is a copy into a local of the set,
/// and every value assigned to one is an input, a constant or a copy of
/// one.
pub(super) fn order_only(code: &[&Transition], locals: &[VarId]) -> BTreeSet<VarId> {
    let mut set: BTreeSet<VarId> = locals.iter().copied().collect();
    let plain = |t: &Term, set: &BTreeSet<VarId>| match t {
        Term::Var(v) => set.contains(v),
        Term::Const(_) => true,
        _ => false,
    };
    loop {
        let mut out: HashSet<VarId> = HashSet::new();
        for tr in code {
            let mut cs = Vec::new();
            super::cmps(&tr.guard, &mut cs);
            for (a, b) in cs {
                if !(plain(a, &set) && plain(b, &set)) {
                    for t in [a, b] {
                        t.for_each_var(&mut |v| {
                            if set.contains(&v) {
                                out.insert(v);
                            }
                        });
                    }
                }
            }
            for a in &tr.assigns {
                let copy_of = match &a.rhs {
                    Rhs::Expr(Term::Var(w)) => Some(*w),
                    _ => None,
                };
                // A value computed from a local of the set: only a copy
                // into another one.
                if let Rhs::Expr(e) = &a.rhs {
                    if copy_of.is_none() || !set.contains(&a.var) {
                        e.for_each_var(&mut |v| {
                            if set.contains(&v) {
                                out.insert(v);
                            }
                        });
                    }
                }
                // What a local of the set is assigned.
                if set.contains(&a.var) {
                    let ok = match &a.rhs {
                        Rhs::Nondet | Rhs::Expr(Term::Const(_)) => true,
                        Rhs::Expr(Term::Var(w)) => set.contains(w),
                        Rhs::Expr(_) => false,
                    };
                    if !ok {
                        out.insert(a.var);
                        if let Some(w) = copy_of {
                            out.insert(w);
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            return set;
        }
        set.retain(|v| !out.contains(v));
    }
}

/// The locals of `set` that hold an input's value on some path of `code`:
/// assigned an input (by the template or a spawn), or a copy of such a
/// local. The others only ever hold constants ([`constants`] has them).
pub(super) fn input_fed(code: &[&Transition], set: &BTreeSet<VarId>) -> BTreeSet<VarId> {
    let mut fed = BTreeSet::new();
    loop {
        let before = fed.len();
        for tr in code {
            for a in &tr.assigns {
                let from_input = match &a.rhs {
                    Rhs::Nondet => true,
                    Rhs::Expr(Term::Var(w)) => fed.contains(w),
                    Rhs::Expr(_) => false,
                };
                if from_input && set.contains(&a.var) {
                    fed.insert(a.var);
                }
            }
        }
        if fed.len() == before {
            return fed;
        }
    }
}

/// The constants `code` compares locals of `set` with or assigns to them,
/// and their initial values.
pub(super) fn constants(p: &Program, code: &[&Transition], set: &BTreeSet<VarId>) -> BTreeSet<i64> {
    let mut out: BTreeSet<i64> = set.iter().filter_map(|v| p.var(*v).init).collect();
    for tr in code {
        let mut cs = Vec::new();
        super::cmps(&tr.guard, &mut cs);
        for (a, b) in cs {
            if let (Term::Var(v), Term::Const(k)) | (Term::Const(k), Term::Var(v)) = (a, b) {
                if set.contains(v) {
                    out.insert(*k);
                }
            }
        }
        for a in &tr.assigns {
            if let (true, Rhs::Expr(Term::Const(k))) = (set.contains(&a.var), &a.rhs) {
                out.insert(*k);
            }
        }
    }
    out
}

/// The gaps between consecutive constants, below the least and above the
/// greatest: each as `(lo, hi)`, the integers strictly between (`None` for
/// an unbounded side).
fn gaps(constants: &BTreeSet<i64>) -> Vec<(Option<i64>, Option<i64>)> {
    let cs: Vec<i64> = constants.iter().copied().collect();
    let mut out = vec![(None, cs.first().copied())];
    out.extend(cs.windows(2).map(|w| (Some(w[0]), Some(w[1]))));
    if let Some(&hi) = cs.last() {
        out.push((Some(hi), None));
    }
    out
}

/// How many slots a gap needs to hold `n` canonical values with a free
/// slot below, between and above them: `2n + 1`.
fn slots(n: usize) -> i64 {
    2 * n as i64 + 1
}

/// Whether gap `g` has fewer integers than the slots (then its values are
/// kept exactly and inputs take all of them).
fn small(g: (Option<i64>, Option<i64>), n: usize) -> bool {
    match g {
        (Some(a), Some(b)) => b.saturating_sub(a).saturating_sub(1) < slots(n) + 1,
        _ => false,
    }
}

/// The `k`-th slot of gap `g` (`k >= 1`), counted from its lower end (from
/// the upper end for the gap below every constant).
fn slot(g: (Option<i64>, Option<i64>), k: i64) -> i64 {
    match g {
        (Some(a), _) => a.saturating_add(k),
        (None, Some(b)) => b.saturating_sub(k),
        (None, None) => k,
    }
}

/// The values an input of an order-only local takes, with `n` such locals
/// holding canonical values ([`canonical`]): the constants, every slot
/// `1 ..= 2n + 1` of each gap (all of a small gap's values) — below, equal
/// to, between and above any held canonical values, in every gap.
pub(super) fn input_values(constants: &BTreeSet<i64>, n: usize) -> Vec<i64> {
    let mut out: BTreeSet<i64> = constants.clone();
    for g in gaps(constants) {
        match g {
            (Some(a), Some(b)) if small(g, n) => out.extend(a + 1..b),
            _ => out.extend((1..=slots(n)).map(|k| slot(g, k))),
        }
    }
    out.into_iter().collect()
}

/// Renames the values of `vals` at `positions` (not constants, not in a
/// small gap) order-preservingly to the even slots of their gap: the
/// `j`-th smallest distinct value of a gap becomes slot `2j` (counted from
/// the gap's constant end). The order of the values among themselves and
/// relative to the constants is kept, so the template behaves the same
/// from the renamed state; and an input can again fall below, between or
/// above them ([`input_values`]).
pub(super) fn canonical(
    vals: &mut [Option<i64>],
    positions: &[usize],
    constants: &BTreeSet<i64>,
    n: usize,
) {
    for g in gaps(constants) {
        if small(g, n) {
            continue;
        }
        let inside = |v: i64| g.0.is_none_or(|a| v > a) && g.1.is_none_or(|b| v < b);
        let mut held: Vec<i64> = positions
            .iter()
            .filter_map(|&i| vals[i])
            .filter(|&v| inside(v))
            .collect();
        held.sort_unstable();
        held.dedup();
        // From the gap's constant end: ascending above a constant,
        // descending below the least one.
        if g.0.is_none() && g.1.is_some() {
            held.reverse();
        }
        for &i in positions {
            if let Some(v) = vals[i].filter(|&v| inside(v)) {
                let j = held.iter().position(|&h| h == v).unwrap_or(0) as i64 + 1;
                vals[i] = Some(slot(g, 2 * j));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position of `v` relative to the constants: a gap (even) or a
    /// constant (odd).
    fn position(cs: &BTreeSet<i64>, v: i64) -> usize {
        cs.iter()
            .position(|&c| c == v)
            .map(|i| 2 * i + 1)
            .unwrap_or_else(|| 2 * cs.iter().filter(|&&c| c < v).count())
    }

    /// The order type of held values and a new one: each one's position,
    /// and the order of the new one against each held one.
    fn order_type(cs: &BTreeSet<i64>, held: &[i64], new: i64) -> Vec<(usize, std::cmp::Ordering)> {
        let mut t: Vec<(usize, std::cmp::Ordering)> = held
            .iter()
            .map(|&h| (position(cs, h), new.cmp(&h)))
            .collect();
        t.push((position(cs, new), std::cmp::Ordering::Equal));
        t
    }

    #[test]
    fn canonical_values_leave_room_for_every_new_input() {
        let cs = BTreeSet::from([0, 3, 100]);
        let n = 2;
        let inputs = input_values(&cs, n);
        // The small gap (0, 3) is enumerated.
        assert!(inputs.contains(&1) && inputs.contains(&2));
        // Every held pair (concrete, wide range), canonicalised, and every
        // new concrete value: some input realises the same order type.
        let range = -8..110;
        for a in range.clone() {
            for b in range.clone() {
                let mut held = vec![Some(a), Some(b)];
                canonical(&mut held, &[0, 1], &cs, n);
                let held: Vec<i64> = held.into_iter().flatten().collect();
                // The canonical values keep the order type of the originals.
                assert_eq!(
                    order_type(&cs, &[a], b),
                    order_type(&cs, &held[..1], held[1])
                );
                for new in range.clone() {
                    let want = order_type(&cs, &[a, b], new);
                    assert!(
                        inputs.iter().any(|&x| order_type(&cs, &held, x) == want),
                        "held {a}, {b} as {held:?}: no input like {new}"
                    );
                }
            }
        }
    }

    fn program(src: &str) -> Program {
        engine::parse::parse_program(src).expect("parses")
    }

    #[test]
    fn only_compared_and_copied_locals_qualify() {
        let p = program(
            "var x = 0, y = 0, z = 0, g = 0;
             thread t at a {
               a -> b do x := *, y := *, z := *;
               b -> c when x == y && x <= 5 do y := x;
               c -> d when z != 0 do g := z + 1;
             }
             error g == 7;",
        );
        let v = |n: &str| VarId::new(p.vars.iter().position(|d| d.name == n).expect("var"));
        let code: Vec<&Transition> = p.transitions.iter().collect();
        let set = order_only(&code, &[v("x"), v("y"), v("z")]);
        assert_eq!(set, BTreeSet::from([v("x"), v("y")]));
        assert_eq!(constants(&p, &code, &set), BTreeSet::from([0, 5]));
    }
}
