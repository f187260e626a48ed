//! The two checks that turn the under-approximation into a proof.
//!
//! Both reason about pairs (abstract state `a`, transition `t`). The pair is
//! *exact* when every concrete state of `a` that takes `t` lands in an
//! abstract state that symbolic execution reached from `a` by `t`:
//! `a ∧ g ⇒ ∨{b[e/x] | (a, t, b) executed}`. For a deterministic
//! transition with a single executed successor this is the paper's
//! exactness `a ⇒ pre(b, t)`; for transitions with inputs it also demands
//! that no input leads outside the executed successors, which is what the
//! soundness argument needs (see ARCHITECTURE.md).
//!
//! * SAFEFRAGMENT: every pair of a state in, or reachable from, `inf` (the
//!   states on cycles of the abstract transition system, where paths were
//!   cut by abstract matching) is exact. Then no execution leaves the
//!   explored abstract states, none of which is an error.
//! * Inductive invariant: for every pair not known exact,
//!   `sp(a, t) ⇒ ∨A` (A: all explored abstract states).

use super::ats::{AbsState, Ats, Cube};
use super::system::{Step, System};
use crate::ir::LocId;
use crate::linear::{norm_to_formula, Formula, Norm, Sym};
use crate::smt::{Smt, SmtError, Space};
use petgraph::graph::NodeIndex;
use std::collections::{HashMap, HashSet};

/// A pair (abstract state, step) that failed the exactness check.
#[derive(Clone, Debug)]
pub struct Inexact {
    /// The abstract state.
    pub node: NodeIndex,
    /// The step (index into [`System::steps`]).
    pub step: usize,
    /// The abstract state of a successor outside the executed ones.
    pub witness: Option<Cube>,
}

/// The outcome of SAFEFRAGMENT.
#[derive(Clone, Debug, Default)]
pub struct Fragment {
    /// Inexact pairs in or reachable from `inf` (empty: the check holds).
    pub inexact: Vec<Inexact>,
    /// Pairs found exact.
    pub exact: HashSet<(NodeIndex, usize)>,
}

/// The predicates after `step`, as literals over the pre-state (inputs are
/// the symbols from `sys.nvars` on).
pub fn post_predicates(sys: &System, step: &Step) -> Vec<Norm> {
    let base = sys.nvars as Sym;
    sys.preds
        .atoms()
        .iter()
        .map(|p| step.substitute(p, base))
        .collect()
}

/// `b[e/x]`: the pre-states whose `step`-successor lies in cube `b`.
fn successor_in(post: &[Norm], b: &Cube) -> Formula<crate::linear::Atom> {
    Formula::and(
        post.iter()
            .enumerate()
            .map(|(i, n)| norm_to_formula(n.clone(), b.get(i))),
    )
}

/// The successor cube of every state of `a`, when the predicates of `a`
/// alone determine it (no prover needed).
pub fn determined_successor(sys: &System, a: &Cube, post: &[Norm]) -> Option<Cube> {
    let mut c = Cube::new(sys.preds.len());
    for (i, n) in post.iter().enumerate() {
        let v = match n {
            Norm::Const(b) => *b,
            Norm::Lit(atom, pos) => {
                if atom.lhs.terms.iter().any(|&(s, _)| s as usize >= sys.nvars) {
                    return None;
                }
                a.get(sys.preds.get(atom)?) == *pos
            }
        };
        c.set(i, v);
    }
    Some(c)
}

fn successor_locs(a: &AbsState, step: &Step) -> Box<[LocId]> {
    let mut l = a.locs.clone();
    l[step.thread] = step.to;
    l
}

/// Is `a ∧ g ∧ ¬∨targets[e/x]` unsatisfiable? On failure, returns the
/// abstract successor of a counterexample state.
fn closed(
    sys: &System,
    smt: &mut Smt,
    a: &AbsState,
    step: &Step,
    post: &[Norm],
    targets: &[&Cube],
) -> Result<Option<Cube>, SmtError> {
    let pre = Formula::and([a.formula(sys), step.guard.at_locations(&a.locs)]);
    let escape = crate::linear::negate(&Formula::or(targets.iter().map(|b| successor_in(post, b))));
    let q = smt.formula(Space::State, &Formula::and([pre, escape]));
    smt.push();
    smt.assert(&q);
    let model = smt.check_model();
    let result = match model {
        Ok(None) => Ok(None),
        Ok(Some(m)) => {
            let n = sys.nvars + step.inputs;
            let mut vals = Vec::with_capacity(n);
            for s in 0..n {
                vals.push(smt.value(&m, Space::State, s as Sym)?);
            }
            let post_vals: Vec<i128> = (0..sys.nvars)
                .map(|v| {
                    step.post_value(v, sys.nvars as Sym)
                        .eval(&|s| vals[s as usize])
                })
                .collect();
            let mut c = Cube::new(sys.preds.len());
            for (i, p) in sys.preds.atoms().iter().enumerate() {
                c.set(i, p.eval(&|s| post_vals[s as usize]));
            }
            Ok(Some(c))
        }
        Err(e) => Err(e),
    };
    smt.pop();
    result
}

/// The enabled steps of an abstract state (guards are decided by the
/// predicates, since their atoms are predicates).
fn enabled<'a>(sys: &'a System, a: &'a AbsState) -> impl Iterator<Item = (usize, &'a Step)> + 'a {
    sys.steps
        .iter()
        .enumerate()
        .filter(move |(_, s)| s.from == a.locs[s.thread] && a.cube.eval(&s.guard_preds, &a.locs))
}

/// SAFEFRAGMENT.
pub fn safe_fragment(sys: &System, smt: &mut Smt, ats: &Ats) -> Result<Fragment, SmtError> {
    let mut out = Fragment::default();
    let inf = ats.on_cycles();
    for n in ats.reachable_from(&inf) {
        let a = ats.state(n);
        for (i, step) in enabled(sys, a) {
            let post = post_predicates(sys, step);
            let succ = ats.successors(n, step.id);
            if let Some(c) = determined_successor(sys, &a.cube, &post) {
                if succ.iter().any(|&b| ats.state(b).cube == c) {
                    out.exact.insert((n, i));
                    continue;
                }
            }
            let targets: Vec<&Cube> = succ.iter().map(|&b| &ats.state(b).cube).collect();
            match closed(sys, smt, a, step, &post, &targets)? {
                None => {
                    out.exact.insert((n, i));
                }
                Some(w) => out.inexact.push(Inexact {
                    node: n,
                    step: i,
                    witness: Some(w),
                }),
            }
        }
    }
    Ok(out)
}

/// The inductive-invariant check: the disjunction of all explored abstract
/// states is closed under every transition. Pairs in `exact` are skipped
/// (their successors are explored states by exactness).
pub fn inductive_invariant(
    sys: &System,
    smt: &mut Smt,
    ats: &Ats,
    exact: &HashSet<(NodeIndex, usize)>,
) -> Result<bool, SmtError> {
    let mut by_locs: HashMap<&[LocId], Vec<NodeIndex>> = HashMap::new();
    let mut cubes: HashSet<(&[LocId], &Cube)> = HashSet::new();
    for n in ats.graph.node_indices() {
        let a = ats.state(n);
        by_locs.entry(&a.locs).or_default().push(n);
        cubes.insert((&a.locs, &a.cube));
    }
    for n in ats.graph.node_indices() {
        let a = ats.state(n);
        for (i, step) in enabled(sys, a) {
            if exact.contains(&(n, i)) {
                continue;
            }
            let post = post_predicates(sys, step);
            let locs = successor_locs(a, step);
            if let Some(c) = determined_successor(sys, &a.cube, &post) {
                if cubes.contains(&(&locs[..], &c)) {
                    continue;
                }
            }
            let targets: Vec<&Cube> = by_locs
                .get(&locs[..])
                .map(|v| v.iter().map(|&b| &ats.state(b).cube).collect())
                .unwrap_or_default();
            if closed(sys, smt, a, step, &post, &targets)?.is_some() {
                return Ok(false);
            }
        }
    }
    Ok(true)
}
