//! Propagation of the values of the variables only one thread touches, and
//! the removal of the edges it shows infeasible.
//!
//! A variable that only thread `k`'s edges read or write changes only when
//! `k` moves, so a forward data-flow analysis over `k`'s CFG computes, per
//! location, a finite set of values that contains the variable's value in
//! every reachable state there (at most [`MAX_VALUES`]; a variable with
//! more, or with an input's value, is unknown). Variables that no edge
//! writes keep their initial value everywhere. A variable with one value is
//! replaced by it in the edges leaving the location; a comparison that has
//! the same truth value for every combination of the sets' values is
//! replaced by that truth value. Neither changes a transition on a
//! reachable state; an edge whose guard becomes `false` never fires and is
//! removed. This turns the case splits of the lowering over values the
//! program fixes (a `pthread_join` on the handle a `pthread_create` just
//! stored, a pointer to one of two known objects, a call through a
//! function pointer chosen on two paths) into the cases that can happen.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use engine::ir::{CmpOp, Cond, Term, VarId};

use super::values::{decide, term_values};
use crate::cfg::{Cfg, Edge};
use crate::term::{and, not, or, subst_cond, subst_term};

/// Most values a variable may have at a location before it is unknown.
const MAX_VALUES: usize = 16;

/// The possible values of the known variables at a location.
pub(super) type Env = BTreeMap<VarId, BTreeSet<i64>>;

/// Propagates the values of the variables `tracked` in one thread's CFG,
/// starting from `entry`, and returns the environment of every reached
/// location (`None`: not reached). `nvars`: the program's variables.
pub(super) fn analyse(
    cfg: &Cfg,
    nvars: usize,
    entry: Env,
    tracked: &dyn Fn(VarId) -> bool,
) -> Vec<Option<Env>> {
    let mut envs: Vec<Option<Env>> = vec![None; cfg.locs.len()];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); cfg.locs.len()];
    for (i, e) in cfg.edges.iter().enumerate() {
        if !e.dead {
            out[e.from].push(i);
        }
    }
    let mut scratch = vec![0i128; nvars];
    envs[0] = Some(entry);
    let mut work: VecDeque<usize> = VecDeque::from([0]);
    let mut queued = vec![false; cfg.locs.len()];
    queued[0] = true;
    while let Some(l) = work.pop_front() {
        queued[l] = false;
        let Some(env) = envs[l].clone() else { continue };
        for &i in &out[l] {
            let e = &cfg.edges[i];
            let Some(next) = transfer(e, &env, tracked, &mut scratch) else {
                // The guard never holds here.
                continue;
            };
            let changed = match &mut envs[e.to] {
                slot @ None => {
                    *slot = Some(next);
                    true
                }
                Some(old) => join(old, &next),
            };
            if changed && !queued[e.to] {
                queued[e.to] = true;
                work.push_back(e.to);
            }
        }
    }
    envs
}

/// `old := old ⊔ new`; returns whether `old` changed.
fn join(old: &mut Env, new: &Env) -> bool {
    let mut changed = false;
    old.retain(|v, vals| match new.get(v) {
        Some(more) => {
            let before = vals.len();
            vals.extend(more.iter().copied());
            if vals.len() > MAX_VALUES {
                changed = true;
                false
            } else {
                changed |= vals.len() != before;
                true
            }
        }
        None => {
            changed = true;
            false
        }
    });
    changed
}

/// The environment after an edge, or `None` when its guard is false for
/// every value the environment allows.
fn transfer(
    e: &Edge,
    env: &Env,
    tracked: &dyn Fn(VarId) -> bool,
    scratch: &mut [i128],
) -> Option<Env> {
    let mut env = env.clone();
    for v in &e.havoc {
        env.remove(v);
    }
    // The guard's top-level conjuncts over one variable narrow its set;
    // `v == c` also fixes a havocked (or unknown) variable.
    for c in e.guard.conjuncts() {
        if let Cond::Cmp(CmpOp::Eq, Term::Var(v), Term::Const(k))
        | Cond::Cmp(CmpOp::Eq, Term::Const(k), Term::Var(v)) = c
        {
            if tracked(*v) && env.get(v).is_none_or(|s| s.contains(k)) {
                env.insert(*v, BTreeSet::from([*k]));
            }
        }
        let mut vars = BTreeSet::new();
        c.for_each_var(&mut |v| {
            vars.insert(v);
        });
        if let [v] = vars.into_iter().collect::<Vec<_>>()[..] {
            if let Some(vals) = env.get(&v) {
                let kept: BTreeSet<i64> = vals
                    .iter()
                    .copied()
                    .filter(|&x| {
                        let one = BTreeSet::from([x]);
                        let known = |w: VarId| (w == v).then_some(&one);
                        decide(c, &known, scratch) != Some(false)
                    })
                    .collect();
                if kept.is_empty() {
                    return None;
                }
                env.insert(v, kept);
            }
        }
    }
    let known = |v: VarId| env.get(&v);
    if decide(&e.guard, &known, scratch) == Some(false) {
        return None;
    }
    let values: Vec<(VarId, Option<BTreeSet<i64>>)> = e
        .assigns
        .iter()
        .map(|(v, t)| {
            let vals = if tracked(*v) {
                term_values(t, &known, scratch).filter(|s| s.len() <= MAX_VALUES)
            } else {
                None
            };
            (*v, vals)
        })
        .collect();
    for (v, vals) in values {
        match vals {
            Some(vals) => {
                env.insert(v, vals);
            }
            None => {
                env.remove(&v);
            }
        }
    }
    Some(env)
}

/// Replaces the parts of a condition the sets decide by their truth value.
fn fold_decided<'a>(
    c: &Cond,
    known: &impl Fn(VarId) -> Option<&'a BTreeSet<i64>>,
    scratch: &mut [i128],
) -> Cond {
    match decide(c, known, scratch) {
        Some(true) => return Cond::True,
        Some(false) => return Cond::False,
        None => {}
    }
    match c {
        Cond::Not(a) => not(fold_decided(a, known, scratch)),
        Cond::And(a, b) => and(
            fold_decided(a, known, scratch),
            fold_decided(b, known, scratch),
        ),
        Cond::Or(a, b) => or(
            fold_decided(a, known, scratch),
            fold_decided(b, known, scratch),
        ),
        Cond::True | Cond::False | Cond::At(..) | Cond::Cmp(..) => c.clone(),
    }
}

/// Substitutes the single values known before each edge into its guard and
/// right-hand sides and the comparisons the sets decide into its guard
/// (never a variable the edge havocs), and removes the edges whose guard
/// becomes `false`. Returns whether anything changed.
pub(super) fn simplify(cfg: &mut Cfg, nvars: usize, envs: &[Option<Env>]) -> bool {
    let mut changed = false;
    let mut scratch = vec![0i128; nvars];
    for e in cfg.edges.iter_mut().filter(|e| !e.dead) {
        let Some(env) = &envs[e.from] else {
            // Unreachable from the entry: never fires.
            e.dead = true;
            changed = true;
            continue;
        };
        let havoc = e.havoc.clone();
        let f = |v: VarId| {
            if havoc.contains(&v) {
                None
            } else {
                match env.get(&v) {
                    Some(vals) if vals.len() == 1 => vals.first().map(|&c| Term::Const(c)),
                    _ => None,
                }
            }
        };
        let known = |v: VarId| {
            if havoc.contains(&v) {
                None
            } else {
                env.get(&v)
            }
        };
        let guard = fold_decided(&subst_cond(&e.guard, &f), &known, &mut scratch);
        let assigns: Vec<(VarId, Term)> = e
            .assigns
            .iter()
            .map(|(v, t)| (*v, subst_term(t, &f)))
            .collect();
        if guard != e.guard || assigns != e.assigns {
            changed = true;
        }
        if guard == Cond::False {
            e.dead = true;
        }
        e.guard = guard;
        e.assigns = assigns;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::LocKind;

    #[test]
    fn join_case_split_on_a_known_handle_collapses() {
        // h := 2; then the join splits on h == 2 / h == 3: one edge stays.
        let h = VarId(0);
        let mut cfg = Cfg::default();
        let a = cfg.loc(LocKind::Normal, None);
        let b = cfg.loc(LocKind::Normal, None);
        let c = cfg.loc(LocKind::Normal, None);
        cfg.edge(Edge::new(a, b, Cond::True, vec![(h, Term::Const(2))]));
        for k in [2, 3] {
            cfg.edge(Edge::new(
                b,
                c,
                Cond::Cmp(CmpOp::Eq, Term::Var(h), Term::Const(k)),
                vec![],
            ));
        }
        let envs = analyse(&cfg, 1, Env::new(), &|v| v == h);
        assert_eq!(
            envs[b].as_ref().and_then(|e| e.get(&h)),
            Some(&BTreeSet::from([2]))
        );
        assert!(simplify(&mut cfg, 1, &envs));
        let live: Vec<_> = cfg.live().collect();
        assert_eq!(live.len(), 2);
        assert_eq!(live[1].guard, Cond::True);
    }

    #[test]
    fn values_that_differ_on_two_paths_are_not_constant() {
        let x = VarId(0);
        let mut cfg = Cfg::default();
        let a = cfg.loc(LocKind::Normal, None);
        let b = cfg.loc(LocKind::Normal, None);
        let c = cfg.loc(LocKind::Normal, None);
        cfg.edge(Edge::new(a, b, Cond::True, vec![(x, Term::Const(1))]));
        cfg.edge(Edge::new(a, b, Cond::True, vec![(x, Term::Const(2))]));
        cfg.edge(Edge::new(
            b,
            c,
            Cond::Cmp(CmpOp::Eq, Term::Var(x), Term::Const(1)),
            vec![],
        ));
        let envs = analyse(&cfg, 1, Env::new(), &|v| v == x);
        assert_eq!(
            envs[b].as_ref().and_then(|e| e.get(&x)),
            Some(&BTreeSet::from([1, 2]))
        );
        // `x == 1` is still undecided.
        assert!(!simplify(&mut cfg, 1, &envs));
    }

    #[test]
    fn a_value_chosen_on_two_paths_decides_the_give_up_of_its_case_split() {
        // f := 1000 or f := 1002 (a function pointer set on two paths);
        // then f == 1000, f == 1002, and the give-up case
        // !(f == 1000 || f == 1002), which never holds.
        let f = VarId(0);
        let mut cfg = Cfg::default();
        let a = cfg.loc(LocKind::Normal, None);
        let b = cfg.loc(LocKind::Normal, None);
        let c = cfg.loc(LocKind::Normal, None);
        let eq = |k: i64| Cond::Cmp(CmpOp::Eq, Term::Var(f), Term::Const(k));
        for k in [1000, 1002] {
            cfg.edge(Edge::new(a, b, Cond::True, vec![(f, Term::Const(k))]));
            cfg.edge(Edge::new(b, c, eq(k), vec![]));
        }
        cfg.edge(Edge::new(
            b,
            c,
            Cond::Not(Box::new(Cond::Or(Box::new(eq(1000)), Box::new(eq(1002))))),
            vec![],
        ));
        let envs = analyse(&cfg, 1, Env::new(), &|v| v == f);
        assert!(simplify(&mut cfg, 1, &envs));
        let guards: Vec<_> = cfg.live().map(|e| e.guard.clone()).collect();
        assert_eq!(guards, vec![Cond::True, eq(1000), Cond::True, eq(1002)]);
    }

    #[test]
    fn a_loop_that_changes_a_variable_is_not_constant() {
        // x := 0; loop: x := x + 1.
        let x = VarId(0);
        let mut cfg = Cfg::default();
        let a = cfg.loc(LocKind::Normal, None);
        let b = cfg.loc(LocKind::Normal, None);
        cfg.edge(Edge::new(a, b, Cond::True, vec![(x, Term::Const(0))]));
        cfg.edge(Edge::new(
            b,
            b,
            Cond::True,
            vec![(
                x,
                Term::Add(Box::new(Term::Var(x)), Box::new(Term::Const(1))),
            )],
        ));
        let envs = analyse(&cfg, 1, Env::new(), &|v| v == x);
        assert_eq!(envs[b].as_ref().map(|e| e.len()), Some(0));
    }
}
