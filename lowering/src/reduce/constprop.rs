//! Constant propagation over the variables only one thread touches, and the
//! removal of the edges it shows infeasible.
//!
//! A variable that only thread `k`'s edges read or write changes only when
//! `k` moves, so a forward data-flow analysis over `k`'s CFG computes, per
//! location, the variables whose value is the same constant in every
//! reachable state there. Variables that no edge writes keep their initial
//! value everywhere. Substituting those constants into the edges leaving a
//! location changes no transition on a reachable state; an edge whose guard
//! folds to `false` never fires and is removed. This turns the case splits
//! of the lowering over values the program fixes (a `pthread_join` on the
//! handle a `pthread_create` just stored, a pointer to one known object)
//! into single edges.

use std::collections::{BTreeMap, VecDeque};

use engine::ir::{CmpOp, Cond, Term, VarId};

use crate::cfg::{Cfg, Edge};
use crate::term::{subst_cond, subst_term};

/// Known constants at a location.
pub(super) type Env = BTreeMap<VarId, i64>;

/// Propagates constants of the variables `tracked` in one thread's CFG,
/// starting from `entry`, and returns the environment of every reached
/// location (`None`: not reached).
pub(super) fn analyse(cfg: &Cfg, entry: Env, tracked: &dyn Fn(VarId) -> bool) -> Vec<Option<Env>> {
    let mut envs: Vec<Option<Env>> = vec![None; cfg.locs.len()];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); cfg.locs.len()];
    for (i, e) in cfg.edges.iter().enumerate() {
        if !e.dead {
            out[e.from].push(i);
        }
    }
    envs[0] = Some(entry);
    let mut work: VecDeque<usize> = VecDeque::from([0]);
    while let Some(l) = work.pop_front() {
        let Some(env) = envs[l].clone() else { continue };
        for &i in &out[l] {
            let e = &cfg.edges[i];
            let next = transfer(e, &env, tracked);
            let changed = match &mut envs[e.to] {
                slot @ None => {
                    *slot = Some(next);
                    true
                }
                Some(old) => {
                    let before = old.len();
                    old.retain(|v, c| next.get(v) == Some(c));
                    old.len() != before
                }
            };
            if changed && !work.contains(&e.to) {
                work.push_back(e.to);
            }
        }
    }
    envs
}

/// The environment after an edge.
fn transfer(e: &Edge, env: &Env, tracked: &dyn Fn(VarId) -> bool) -> Env {
    let mut env = env.clone();
    for v in &e.havoc {
        env.remove(v);
    }
    // `v == c` conjuncts of the guard fix a havocked (or unknown) variable.
    let mut facts = Vec::new();
    equalities(&e.guard, &mut facts);
    for (v, c) in facts {
        if tracked(v) {
            env.insert(v, c);
        }
    }
    let lookup = |v: VarId| env.get(&v).map(|&c| Term::Const(c));
    let values: Vec<(VarId, Option<i64>)> = e
        .assigns
        .iter()
        .map(|(v, t)| match subst_term(t, &lookup) {
            Term::Const(c) => (*v, Some(c)),
            _ => (*v, None),
        })
        .collect();
    for (v, c) in values {
        match c {
            Some(c) if tracked(v) => {
                env.insert(v, c);
            }
            _ => {
                env.remove(&v);
            }
        }
    }
    env
}

/// The `v == c` conjuncts at the top of a condition.
fn equalities(c: &Cond, out: &mut Vec<(VarId, i64)>) {
    match c {
        Cond::And(a, b) => {
            equalities(a, out);
            equalities(b, out);
        }
        Cond::Cmp(CmpOp::Eq, Term::Var(v), Term::Const(k))
        | Cond::Cmp(CmpOp::Eq, Term::Const(k), Term::Var(v)) => out.push((*v, *k)),
        _ => {}
    }
}

/// Substitutes the constants known before each edge into its guard and
/// right-hand sides (never into a variable the edge havocs), and removes
/// the edges whose guard becomes `false`. Returns whether anything changed.
pub(super) fn simplify(cfg: &mut Cfg, envs: &[Option<Env>]) -> bool {
    let mut changed = false;
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
                env.get(&v).map(|&c| Term::Const(c))
            }
        };
        let guard = subst_cond(&e.guard, &f);
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
        let envs = analyse(&cfg, Env::new(), &|v| v == h);
        assert_eq!(envs[b].as_ref().and_then(|e| e.get(&h)), Some(&2));
        assert!(simplify(&mut cfg, &envs));
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
        let envs = analyse(&cfg, Env::new(), &|v| v == x);
        assert_eq!(envs[b].as_ref().map(|e| e.len()), Some(0));
        assert!(!simplify(&mut cfg, &envs));
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
        let envs = analyse(&cfg, Env::new(), &|v| v == x);
        assert_eq!(envs[b].as_ref().map(|e| e.len()), Some(0));
    }
}
