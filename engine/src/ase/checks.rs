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
use super::hash::{FxHashMap, FxHashSet};
use super::system::{PredId, Step, System};
use crate::ir::LocId;
use crate::linear::{norm_to_formula, Formula, Norm, Sym};
use crate::smt::{LazyScope, Smt, SmtError, Space};
use petgraph::graph::NodeIndex;
use std::cell::OnceCell;
use std::collections::HashSet;

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

/// [`post_predicates`] of a step, with the id of every literal's atom that
/// is a predicate over program variables: what an abstract state decides
/// about its successors, looked up without substituting or hashing again.
pub struct Post {
    /// `p[e/x]` for every predicate `p`.
    pub norms: Vec<Norm>,
    ids: Vec<Option<PredId>>,
}

impl Post {
    /// The predicates after `step`.
    pub fn new(sys: &System, step: &Step) -> Post {
        let norms = post_predicates(sys, step);
        let ids = norms
            .iter()
            .map(|n| match n {
                Norm::Lit(atom, _)
                    if atom
                        .lhs
                        .terms
                        .iter()
                        .all(|&(s, _)| (s as usize) < sys.nvars) =>
                {
                    sys.preds.get(atom)
                }
                _ => None,
            })
            .collect();
        Post { norms, ids }
    }

    /// The value of literal `i` in every state of `a`, when `a` decides it:
    /// a constant, or an atom over program variables that is a predicate.
    pub fn decided(&self, i: usize, a: &Cube) -> Option<bool> {
        match &self.norms[i] {
            Norm::Const(b) => Some(*b),
            Norm::Lit(_, pos) => self.ids[i].map(|p| a.get(p) == *pos),
        }
    }

    /// The successor cube of every state of `a`, when the predicates of `a`
    /// alone determine it (no prover needed).
    pub fn successor(&self, a: &Cube) -> Option<Cube> {
        let mut c = Cube::new(self.norms.len());
        for i in 0..self.norms.len() {
            c.set(i, self.decided(i, a)?);
        }
        Some(c)
    }
}

/// The [`Post`] of every step, computed on first use; valid while the
/// predicates do not change.
pub struct Posts(Vec<OnceCell<Post>>);

impl Posts {
    /// An empty cache for the steps of `sys`.
    pub fn new(sys: &System) -> Posts {
        Posts((0..sys.steps.len()).map(|_| OnceCell::new()).collect())
    }

    /// The [`Post`] of step `k`.
    pub fn get(&self, sys: &System, k: usize) -> &Post {
        self.0[k].get_or_init(|| Post::new(sys, &sys.steps[k]))
    }
}

fn successor_locs(a: &AbsState, step: &Step) -> Box<[LocId]> {
    let mut l = a.locs.clone();
    l[step.thread] = step.to;
    l
}

/// Is `a ∧ g ∧ ¬∨targets[e/x]` unsatisfiable? On failure, returns the
/// abstract successor of a counterexample state.
///
/// The literals of `b[e/x]` that `a` decides are left out of the query: a
/// target with one decided false is dropped, and a target with all
/// decided true closes the pair without a query. `a` itself is asserted in
/// `scope`, shared by the queries of one abstract state.
fn closed(
    sys: &System,
    smt: &mut Smt,
    scope: &mut LazyScope,
    a: &AbsState,
    step: &Step,
    post: &Post,
    targets: &[&Cube],
) -> Result<Option<Cube>, SmtError> {
    let mut reachable = Vec::with_capacity(targets.len());
    'targets: for b in targets {
        let mut lits = Vec::new();
        for (i, n) in post.norms.iter().enumerate() {
            match post.decided(i, &a.cube) {
                Some(v) if v == b.get(i) => {}
                Some(_) => continue 'targets,
                None => lits.push(norm_to_formula(n.clone(), b.get(i))),
            }
        }
        if lits.is_empty() {
            return Ok(None);
        }
        reachable.push(Formula::and(lits));
    }
    let escape = crate::linear::negate(&Formula::or(reachable));
    let q = Formula::and([step.guard.at_locations(&a.locs), escape]);
    smt.enter(scope, |smt| {
        let f = smt.formula(Space::State, &a.formula(sys));
        smt.assert(&f);
    });
    let q = smt.formula(Space::State, &q);
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
    let posts = Posts::new(sys);
    for n in ats.reachable_from(&inf) {
        let a = ats.state(n);
        let mut scope = LazyScope::default();
        let result = (|| {
            for (i, step) in enabled(sys, a) {
                let post = posts.get(sys, i);
                let succ = ats.successors(n, step.id);
                if let Some(c) = post.successor(&a.cube) {
                    if succ.iter().any(|&b| ats.state(b).cube == c) {
                        out.exact.insert((n, i));
                        continue;
                    }
                }
                let targets: Vec<&Cube> = succ.iter().map(|&b| &ats.state(b).cube).collect();
                match closed(sys, smt, &mut scope, a, step, post, &targets)? {
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
            Ok(())
        })();
        smt.leave(scope);
        result?;
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
    let mut by_locs: FxHashMap<&[LocId], Vec<NodeIndex>> = FxHashMap::default();
    let mut cubes: FxHashSet<(&[LocId], &Cube)> = FxHashSet::default();
    for n in ats.graph.node_indices() {
        let a = ats.state(n);
        by_locs.entry(&a.locs).or_default().push(n);
        cubes.insert((&a.locs, &a.cube));
    }
    let posts = Posts::new(sys);
    for n in ats.graph.node_indices() {
        let a = ats.state(n);
        let mut scope = LazyScope::default();
        let result = (|| {
            for (i, step) in enabled(sys, a) {
                if exact.contains(&(n, i)) {
                    continue;
                }
                let post = posts.get(sys, i);
                let locs = successor_locs(a, step);
                if let Some(c) = post.successor(&a.cube) {
                    if cubes.contains(&(&locs[..], &c)) {
                        continue;
                    }
                }
                let targets: Vec<&Cube> = by_locs
                    .get(&locs[..])
                    .map(|v| v.iter().map(|&b| &ats.state(b).cube).collect())
                    .unwrap_or_default();
                if closed(sys, smt, &mut scope, a, step, post, &targets)?.is_some() {
                    return Ok(false);
                }
            }
            Ok(true)
        })();
        smt.leave(scope);
        if !result? {
            return Ok(false);
        }
    }
    Ok(true)
}
