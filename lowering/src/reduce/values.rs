//! Flow-insensitive value sets, and the removal of the edges they show
//! infeasible.
//!
//! Every value a variable holds in a reachable state is its initial value
//! or a value some live edge of some thread assigns to it: a variable that
//! is never havocked and only ever receives literals, or copies and small
//! combinations of variables that do, has a finite set of possible values.
//! The set is computed as a least fixed point over all threads' edges at
//! once, in any order and ignoring guards, which only over-approximates
//! it. A guard that is false for every combination of these values (see
//! [`decide`]) never holds in a reachable state, so its edge never fires and is removed. Nothing
//! else is rewritten: the remaining edges read what they read, so the race
//! check sees the same accesses.
//!
//! This is what decides the case splits of the lowering over a pointer that
//! another thread stored (`v = malloc(...)` in one thread, `*v = ...` in
//! another): the pointer can only hold the addresses actually stored.

use std::collections::BTreeSet;

use engine::interp::eval_term;
use engine::ir::{Cond, Term, VarId};

use super::constprop::Env;
use crate::cfg::{Cfg, Edge};
use crate::lower::VarInfo;

/// Most values a set holds before it becomes "any value".
const MAX_VALUES: usize = 64;
/// Most combinations of values enumerated to evaluate one term or atom.
const MAX_COMBINATIONS: usize = 256;

/// The possible values of one variable: `None` is any value.
pub(super) type Values = Option<BTreeSet<i64>>;

/// The value set of every variable over the live edges of `cfgs`.
/// `local[k][l]`, when given, holds sets of some of thread `k`'s variables
/// at its location `l` ([`super::constprop`]); they take precedence there.
pub(super) fn value_sets(
    cfgs: &[&Cfg],
    vars: &[VarInfo],
    local: &[Vec<Option<Env>>],
) -> Vec<Values> {
    let mut sets: Vec<Values> = vars
        .iter()
        .map(|v| v.init.map(|c| BTreeSet::from([c])))
        .collect();
    let mut scratch = vec![0i128; vars.len()];
    loop {
        let mut changed = false;
        for (k, cfg) in cfgs.iter().enumerate() {
            for e in cfg.live() {
                let env = local.get(k).and_then(|envs| envs[e.from].as_ref());
                for v in &e.havoc {
                    changed |= sets[v.index()].take().is_some();
                }
                for (v, t) in &e.assigns {
                    if sets[v.index()].is_none() {
                        continue;
                    }
                    let new = term_values(t, &|w| at_edge(e, env, &sets, w), &mut scratch);
                    let slot = &mut sets[v.index()];
                    match (new, slot.as_mut()) {
                        (None, _) => {
                            *slot = None;
                            changed = true;
                        }
                        (Some(new), Some(old)) => {
                            let before = old.len();
                            old.extend(new);
                            if old.len() > MAX_VALUES {
                                *slot = None;
                                changed = true;
                            } else {
                                changed |= old.len() != before;
                            }
                        }
                        (Some(_), None) => {}
                    }
                }
            }
        }
        if !changed {
            return sets;
        }
    }
}

/// Removes the live edges whose guard no combination of the value sets
/// satisfies (variables the edge havocs take any value; `local` as for
/// [`value_sets`]). Returns how many.
pub(super) fn remove_infeasible(
    cfg: &mut Cfg,
    sets: &[Values],
    local: Option<&[Option<Env>]>,
) -> usize {
    let mut scratch = vec![0i128; sets.len()];
    let mut removed = 0;
    for e in cfg.edges.iter_mut().filter(|e| !e.dead) {
        let env = local.and_then(|envs| envs[e.from].as_ref());
        if decide(&e.guard, &|v| at_edge(e, env, sets, v), &mut scratch) == Some(false) {
            e.dead = true;
            removed += 1;
        }
    }
    removed
}

/// The values `v` may have where edge `e` reads it (after its havoc): any
/// value when `e` havocs it, else its set at `e`'s source location when
/// `env` has one, else its flow-insensitive set.
fn at_edge<'a>(
    e: &Edge,
    env: Option<&'a Env>,
    sets: &'a [Values],
    v: VarId,
) -> Option<&'a BTreeSet<i64>> {
    if e.havoc.contains(&v) {
        None
    } else {
        env.and_then(|env| env.get(&v)).or(sets[v.index()].as_ref())
    }
}

/// The values of `t` over every combination of its variables' values, or
/// `None` when a variable may take any value, there are too many
/// combinations, or the arithmetic overflows.
pub(super) fn term_values<'a>(
    t: &Term,
    known: &impl Fn(VarId) -> Option<&'a BTreeSet<i64>>,
    scratch: &mut [i128],
) -> Values {
    let mut out = BTreeSet::new();
    let complete =
        for_each_combination(
            &vars_of_term(t),
            known,
            scratch,
            &mut |vals| match eval_term(t, vals).ok().and_then(|x| i64::try_from(x).ok()) {
                Some(x) => {
                    out.insert(x);
                    true
                }
                None => false,
            },
        );
    complete.then_some(out)
}

/// Whether a condition has the same truth value for every combination of
/// the values: `Some(b)` when it is `b` for all of them, `None` when that
/// is not known. The condition is evaluated as a whole over the
/// combinations of all its variables when they are few, else in
/// three-valued (Kleene) logic over its parts.
///
/// The variables of every part are collected once, bottom-up (a part
/// whose variables cannot be enumerated makes every part around it
/// non-enumerable too): collecting them again at every level is quadratic
/// in the depth, and the lowering's case splits over an array are deep.
pub(super) fn decide<'a>(
    c: &Cond,
    known: &impl Fn(VarId) -> Option<&'a BTreeSet<i64>>,
    scratch: &mut [i128],
) -> Option<bool> {
    let mut parts = Vec::new();
    enumerable_parts(c, known, &mut parts);
    decide_part(c, known, scratch, &parts, &mut 0)
}

/// One part of a condition, in pre-order: its variables when they can be
/// enumerated together, and how many parts its subtree has.
struct Part {
    vars: Option<BTreeSet<VarId>>,
    size: usize,
}

/// Appends the [`Part`]s of `c` in pre-order and returns `c`'s variables
/// when they can be enumerated ([`enumerable`]; never with a location
/// test).
fn enumerable_parts<'a>(
    c: &Cond,
    known: &impl Fn(VarId) -> Option<&'a BTreeSet<i64>>,
    parts: &mut Vec<Part>,
) -> Option<BTreeSet<VarId>> {
    let me = parts.len();
    parts.push(Part {
        vars: None,
        size: 1,
    });
    let vars = match c {
        Cond::True | Cond::False => Some(BTreeSet::new()),
        Cond::At(..) => None,
        Cond::Cmp(_, a, b) => {
            let mut vars = vars_of_term(a);
            vars.extend(vars_of_term(b));
            enumerable(vars, known)
        }
        Cond::Not(a) => enumerable_parts(a, known, parts),
        Cond::And(a, b) | Cond::Or(a, b) => {
            let va = enumerable_parts(a, known, parts);
            let vb = enumerable_parts(b, known, parts);
            match (va, vb) {
                (Some(mut va), Some(vb)) => {
                    va.extend(vb);
                    enumerable(va, known)
                }
                _ => None,
            }
        }
    };
    parts[me] = Part {
        vars: vars.clone(),
        size: parts.len() - me,
    };
    vars
}

/// `vars` when every one has a finite set and their combinations are at
/// most [`MAX_COMBINATIONS`] (and they are at most [`MAX_VALUES`], so that
/// the sets carried up stay small).
fn enumerable<'a>(
    vars: BTreeSet<VarId>,
    known: &impl Fn(VarId) -> Option<&'a BTreeSet<i64>>,
) -> Option<BTreeSet<VarId>> {
    if vars.len() > MAX_VALUES {
        return None;
    }
    let mut count = 1usize;
    for &v in &vars {
        count = count.saturating_mul(known(v)?.len());
        if count > MAX_COMBINATIONS {
            return None;
        }
    }
    Some(vars)
}

/// [`decide`] on the part at `*next` of `parts` (which advances past it).
fn decide_part<'a>(
    c: &Cond,
    known: &impl Fn(VarId) -> Option<&'a BTreeSet<i64>>,
    scratch: &mut [i128],
    parts: &[Part],
    next: &mut usize,
) -> Option<bool> {
    let part = &parts[*next];
    if let Some(vars) = &part.vars {
        let (mut seen_true, mut seen_false) = (false, false);
        let complete = for_each_combination(vars, known, scratch, &mut |vals| match eval_cond_at(
            c, vals,
        ) {
            Some(b) => {
                seen_true |= b;
                seen_false |= !b;
                !(seen_true && seen_false)
            }
            None => false,
        });
        let whole = match (complete, seen_true, seen_false) {
            (_, true, true) => Some(None),
            (true, true, false) => Some(Some(true)),
            (true, false, true) => Some(Some(false)),
            // An overflow (or no combination at all): the parts decide.
            _ => None,
        };
        if let Some(whole) = whole {
            *next += part.size;
            return whole;
        }
    }
    *next += 1;
    match c {
        Cond::True => Some(true),
        Cond::False => Some(false),
        Cond::At(..) | Cond::Cmp(..) => None,
        Cond::Not(a) => decide_part(a, known, scratch, parts, next).map(|b| !b),
        Cond::And(a, b) | Cond::Or(a, b) => {
            // `a || b` is `!(!a && !b)`.
            let or = matches!(c, Cond::Or(..));
            let da = decide_part(a, known, scratch, parts, next).map(|x| x != or);
            let db = decide_part(b, known, scratch, parts, next).map(|x| x != or);
            let both = match (da, db) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            };
            both.map(|x| x != or)
        }
    }
}

/// The truth value of a condition without location tests over the values
/// in `vals` (`None` on an overflow).
fn eval_cond_at(c: &Cond, vals: &[i128]) -> Option<bool> {
    Some(match c {
        Cond::True => true,
        Cond::False => false,
        Cond::At(..) => return None,
        Cond::Cmp(op, a, b) => op.holds(eval_term(a, vals).ok()?, eval_term(b, vals).ok()?),
        Cond::Not(a) => !eval_cond_at(a, vals)?,
        Cond::And(a, b) => eval_cond_at(a, vals)? && eval_cond_at(b, vals)?,
        Cond::Or(a, b) => eval_cond_at(a, vals)? || eval_cond_at(b, vals)?,
    })
}

/// The variables of a term, each once.
fn vars_of_term(t: &Term) -> BTreeSet<VarId> {
    let mut vars = BTreeSet::new();
    t.for_each_var(&mut |v| {
        vars.insert(v);
    });
    vars
}

/// Calls `f` with `scratch` holding each combination of the variables'
/// values. Returns `false` (having stopped) when a variable has no finite
/// set, there are more than [`MAX_COMBINATIONS`], or `f` returns `false`.
fn for_each_combination<'a>(
    vars: &BTreeSet<VarId>,
    known: &impl Fn(VarId) -> Option<&'a BTreeSet<i64>>,
    scratch: &mut [i128],
    f: &mut impl FnMut(&[i128]) -> bool,
) -> bool {
    let mut domains: Vec<(VarId, Vec<i64>)> = Vec::with_capacity(vars.len());
    let mut count = 1usize;
    for &v in vars {
        let Some(set) = known(v) else { return false };
        count = count.saturating_mul(set.len());
        if count > MAX_COMBINATIONS {
            return false;
        }
        domains.push((v, set.iter().copied().collect()));
    }
    if count == 0 {
        // A variable with no value at all: nothing to evaluate, and no
        // reachable state either.
        return true;
    }
    let mut index = vec![0usize; domains.len()];
    loop {
        for (i, (v, vals)) in domains.iter().enumerate() {
            scratch[v.index()] = vals[index[i]] as i128;
        }
        if !f(scratch) {
            return false;
        }
        // Next combination (odometer order).
        let mut i = 0;
        loop {
            if i == domains.len() {
                return true;
            }
            index[i] += 1;
            if index[i] < domains[i].1.len() {
                break;
            }
            index[i] = 0;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::LocKind;
    use crate::term::Range;
    use engine::ir::CmpOp;
    use proptest::prelude::*;

    fn var(name: &str, init: Option<i64>) -> VarInfo {
        VarInfo {
            name: name.into(),
            init,
            range: Range::new(-1000, 1000),
            meta: crate::VarMeta {
                c_name: None,
                origin: crate::VarOrigin::Internal,
                int_type: None,
                heap: false,
                float: false,
                tag: false,
                members: Vec::new(),
            },
        }
    }

    fn eq(v: VarId, k: i64) -> Cond {
        Cond::Cmp(CmpOp::Eq, Term::Var(v), Term::Const(k))
    }

    #[test]
    fn a_pointer_stored_by_another_thread_holds_only_stored_addresses() {
        // Thread 0: p := 100. Thread 1: q := p; then splits on q == 100,
        // q == 101 and q == 0: the middle case is removed.
        let (p, q) = (VarId(0), VarId(1));
        let vars = [var("p", Some(0)), var("q", Some(0))];
        let mut writer = Cfg::default();
        let a = writer.loc(LocKind::Normal, None);
        let b = writer.loc(LocKind::Normal, None);
        writer.edge(Edge::new(a, b, Cond::True, vec![(p, Term::Const(100))]));
        let mut reader = Cfg::default();
        let a = reader.loc(LocKind::Normal, None);
        let b = reader.loc(LocKind::Normal, None);
        let c = reader.loc(LocKind::Normal, None);
        reader.edge(Edge::new(a, b, Cond::True, vec![(q, Term::Var(p))]));
        for k in [100, 101, 0] {
            reader.edge(Edge::new(b, c, eq(q, k), vec![]));
        }
        let sets = value_sets(&[&writer, &reader], &vars, &[]);
        assert_eq!(sets[q.index()], Some(BTreeSet::from([0, 100])));
        assert_eq!(remove_infeasible(&mut reader, &sets, None), 1);
        let guards: Vec<_> = reader.live().map(|e| e.guard.clone()).collect();
        assert_eq!(guards, vec![Cond::True, eq(q, 100), eq(q, 0)]);
    }

    #[test]
    fn havocked_and_growing_variables_take_any_value() {
        // x := x + 1 in a loop grows past any bound; h is an input.
        let (x, h, y) = (VarId(0), VarId(1), VarId(2));
        let vars = [var("x", Some(0)), var("h", Some(0)), var("y", Some(0))];
        let mut cfg = Cfg::default();
        let a = cfg.loc(LocKind::Normal, None);
        cfg.edge(Edge::new(
            a,
            a,
            Cond::True,
            vec![(
                x,
                Term::Add(Box::new(Term::Var(x)), Box::new(Term::Const(1))),
            )],
        ));
        let mut input = Edge::new(a, a, Cond::True, vec![(y, Term::Var(h))]);
        input.havoc = vec![h];
        cfg.edge(input);
        cfg.edge(Edge::new(a, a, eq(x, 12345), vec![]));
        cfg.edge(Edge::new(a, a, eq(y, 77), vec![]));
        let sets = value_sets(&[&cfg], &vars, &[]);
        assert_eq!(sets, vec![None, None, None]);
        assert_eq!(remove_infeasible(&mut cfg, &sets, None), 0);
    }

    #[test]
    fn atoms_are_decided_alone_and_combined_in_three_valued_logic() {
        // f in {0, 1}, g in {0, 1}: `f == 2 || g == 3` is false;
        // `f == 1 && g <= 5` is unknown; `!(f <= 1)` is false.
        let (f, g) = (VarId(0), VarId(1));
        let vars = [var("f", Some(0)), var("g", Some(0))];
        let mut cfg = Cfg::default();
        let a = cfg.loc(LocKind::Normal, None);
        cfg.edge(Edge::new(a, a, Cond::True, vec![(f, Term::Const(1))]));
        cfg.edge(Edge::new(a, a, Cond::True, vec![(g, Term::Var(f))]));
        let le = |v: VarId, k: i64| Cond::Cmp(CmpOp::Le, Term::Var(v), Term::Const(k));
        cfg.edge(Edge::new(
            a,
            a,
            Cond::Or(Box::new(eq(f, 2)), Box::new(eq(g, 3))),
            vec![],
        ));
        cfg.edge(Edge::new(
            a,
            a,
            Cond::And(Box::new(eq(f, 1)), Box::new(le(g, 5))),
            vec![],
        ));
        cfg.edge(Edge::new(a, a, Cond::Not(Box::new(le(f, 1))), vec![]));
        let sets = value_sets(&[&cfg], &vars, &[]);
        assert_eq!(remove_infeasible(&mut cfg, &sets, None), 2);
        assert_eq!(cfg.live().count(), 3);
    }

    /// A condition over variables 0..3 (`x0 + x1 <= k`, `x2 == k`, ...).
    fn cond() -> impl Strategy<Value = Cond> {
        let atom = (0..3u32, 0..3u32, -2i64..3, 0..3u8).prop_map(|(a, b, k, op)| {
            let op = [CmpOp::Eq, CmpOp::Le, CmpOp::Lt][op as usize];
            let t = if a == b {
                Term::Var(VarId(a))
            } else {
                Term::Add(Box::new(Term::Var(VarId(a))), Box::new(Term::Var(VarId(b))))
            };
            Cond::Cmp(op, t, Term::Const(k))
        });
        atom.prop_recursive(6, 64, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(|a| Cond::Not(Box::new(a))),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| Cond::And(Box::new(a), Box::new(b))),
                (inner.clone(), inner).prop_map(|(a, b)| Cond::Or(Box::new(a), Box::new(b))),
            ]
        })
    }

    proptest! {
        /// A decision holds for every combination of the values (a
        /// variable without a set ranging over -3..=3).
        #[test]
        fn decisions_hold_for_every_combination(
            c in cond(),
            sets in proptest::collection::vec(
                proptest::option::of(proptest::collection::btree_set(-2i64..3, 1..4)),
                3,
            ),
        ) {
            let known = |v: VarId| sets[v.index()].as_ref();
            let mut scratch = vec![0i128; 3];
            if let Some(b) = decide(&c, &known, &mut scratch) {
                let domain = |v: usize| -> Vec<i64> {
                    sets[v].as_ref().map_or_else(|| (-3..=3).collect(), |s| s.iter().copied().collect())
                };
                for x0 in domain(0) {
                    for x1 in domain(1) {
                        for x2 in domain(2) {
                            let vals = [x0 as i128, x1 as i128, x2 as i128];
                            prop_assert_eq!(eval_cond_at(&c, &vals), Some(b));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_deep_case_split_is_decided_by_its_finite_part() {
        // `(i == 0 && f == 2) || (i == 1 && f == 2) || ...` with `i`
        // unknown and f in {0, 1}: false, whatever the depth.
        let (i, f) = (VarId(0), VarId(1));
        let mut c = Cond::False;
        for k in 0..1000 {
            c = Cond::Or(
                Box::new(Cond::And(Box::new(eq(i, k)), Box::new(eq(f, 2)))),
                Box::new(c),
            );
        }
        let f_set = BTreeSet::from([0, 1]);
        let known = |v: VarId| (v == f).then_some(&f_set);
        assert_eq!(decide(&c, &known, &mut [0, 0]), Some(false));
        // With f == 1 possible for i == 7, nothing is known.
        let c = Cond::Or(
            Box::new(Cond::And(Box::new(eq(i, 7)), Box::new(eq(f, 1)))),
            Box::new(c),
        );
        assert_eq!(decide(&c, &known, &mut [0, 0]), None);
    }
}
