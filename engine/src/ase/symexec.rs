//! SYMBOLICEXEC and SPLITSTATE: depth-first symbolic execution with
//! abstract matching along the current path.
//!
//! A symbolic state maps every variable to a linear term over symbolic
//! constants and carries a path condition. Unconstrained initial values and
//! inputs (`x := *`) are fresh symbolic constants. Every symbolic state is
//! split by predicate abstraction into pieces that each lie inside exactly
//! one abstract state; a piece whose abstract state already occurs on the
//! current DFS path is not expanded (abstract matching). Only satisfiable
//! path conditions are ever kept, so an error state found here is real.

use super::ats::{AbsState, Ats, Cube};
use super::hash::{FxHashSet, FxHasher};
use super::system::{Step, System, Update};
use crate::ir::LocId;
use crate::linear::{Atom, Formula, Lin, Norm, Sym};
use crate::smt::{LazyScope, Smt, SmtError, Space};
use petgraph::graph::NodeIndex;
use std::cell::OnceCell;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::time::Instant;
use z3::ast::Bool;

/// A path condition: a persistent list of constraints over symbolic
/// constants, shared between a state and its descendants.
#[derive(Clone, Default)]
pub struct PathCond(Option<Rc<PcNode>>);

impl PartialEq for PathCond {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (&self.0, &other.0);
        loop {
            match (a, b) {
                (None, None) => return true,
                (Some(x), Some(y)) => {
                    if Rc::ptr_eq(x, y) {
                        return true;
                    }
                    if x.hash != y.hash || x.constraint != y.constraint {
                        return false;
                    }
                    a = &x.rest.0;
                    b = &y.rest.0;
                }
                _ => return false,
            }
        }
    }
}

impl Eq for PathCond {}

impl std::hash::Hash for PathCond {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // The hash of the whole list, computed once when the node was made.
        state.write_u64(self.0.as_ref().map_or(0, |node| node.hash));
    }
}

/// One constraint of a path condition.
pub struct PcNode {
    constraint: Formula<Atom>,
    encoded: OnceCell<Bool>,
    rest: PathCond,
    /// Hash of the constraints from this node on.
    hash: u64,
}

impl PathCond {
    /// The path condition extended by `c` (unchanged when `c` is `true`).
    pub fn and(&self, c: Formula<Atom>) -> PathCond {
        if c.is_true() {
            return self.clone();
        }
        let mut h = FxHasher::default();
        c.hash(&mut h);
        h.write_u64(self.0.as_ref().map_or(0, |node| node.hash));
        PathCond(Some(Rc::new(PcNode {
            hash: h.finish(),
            constraint: c,
            encoded: OnceCell::new(),
            rest: self.clone(),
        })))
    }
    /// Asserts every constraint in the solver's current scope.
    pub fn assert_in(&self, smt: &mut Smt) {
        let mut cur = &self.0;
        while let Some(node) = cur {
            let b = node
                .encoded
                .get_or_init(|| smt.formula(Space::Symbolic, &node.constraint))
                .clone();
            smt.assert(&b);
            cur = &node.rest.0;
        }
    }
    /// Whether there are no constraints.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
    /// The constraints, newest first.
    pub fn constraints(&self) -> Vec<&Formula<Atom>> {
        let mut out = Vec::new();
        let mut cur = &self.0;
        while let Some(node) = cur {
            out.push(&node.constraint);
            cur = &node.rest.0;
        }
        out
    }
}

/// A symbolic state, restricted to one abstract state.
#[derive(Clone)]
pub struct SymState {
    /// Location of each thread.
    pub locs: Box<[LocId]>,
    /// Value of each variable, over symbolic constants.
    pub vals: Rc<[Lin]>,
    /// The path condition.
    pub pc: PathCond,
    /// The next unused symbolic constant.
    pub next_sym: Sym,
    /// The predicates' values in this state.
    pub cube: Cube,
    /// Where this state's path is recorded in the [`PathArena`].
    pub path: usize,
}

/// One step of a recorded path.
#[derive(Clone, Debug)]
pub struct PathNode {
    /// The previous node (`None` for an initial state).
    pub parent: Option<usize>,
    /// The step taken (index into [`System::steps`]).
    pub step: Option<usize>,
    /// The symbolic constant of the step's first input.
    pub input_base: Sym,
}

/// The executed paths, as a tree of steps (for counterexamples).
#[derive(Clone, Debug, Default)]
pub struct PathArena {
    /// The nodes.
    pub nodes: Vec<PathNode>,
}

impl PathArena {
    /// The steps from an initial state to `node`, in order.
    pub fn path_to(&self, node: usize) -> Vec<&PathNode> {
        let mut out = Vec::new();
        let mut cur = Some(node);
        while let Some(n) = cur {
            let pn = &self.nodes[n];
            if pn.step.is_some() {
                out.push(pn);
            }
            cur = pn.parent;
        }
        out.reverse();
        out
    }
}

/// SPLITSTATE: the pieces `s ∧ a` for every abstract state `a` consistent
/// with the symbolic state (`vals`, `pc`), found by enumerating the minterms
/// of the predicates that the state does not decide (AllSAT with blocking
/// clauses on one incremental solver scope).
pub fn split_state(
    sys: &System,
    smt: &mut Smt,
    vals: &[Lin],
    pc: &PathCond,
) -> Result<Vec<(Cube, PathCond)>, SmtError> {
    let mut scope = LazyScope::default();
    let pieces = split_state_in(sys, smt, &mut scope, vals, pc);
    smt.leave(scope);
    pieces
}

/// [`split_state`], with the path condition asserted in `scope` (opened if
/// the prover is needed), which the successors of one state share.
fn split_state_in(
    sys: &System,
    smt: &mut Smt,
    scope: &mut LazyScope,
    vals: &[Lin],
    pc: &PathCond,
) -> Result<Vec<(Cube, PathCond)>, SmtError> {
    let mut cube = Cube::new(sys.preds.len());
    let mut open: Vec<(usize, Atom, bool)> = Vec::new();
    for (i, p) in sys.preds.atoms().iter().enumerate() {
        match p.substitute(&|v| vals[v as usize].clone()) {
            Norm::Const(b) => cube.set(i, b),
            Norm::Lit(a, pos) => open.push((i, a, pos)),
        }
    }
    if open.is_empty() {
        return Ok(vec![(cube, pc.clone())]);
    }
    let bools: Vec<Bool> = open
        .iter()
        .map(|(_, a, pos)| smt.formula(Space::Symbolic, &Formula::Lit(a.clone(), *pos)))
        .collect();
    smt.enter(scope, |smt| pc.assert_in(smt));
    smt.push();
    let mut pieces = Vec::new();
    let result = loop {
        let model = match smt.check_model() {
            Ok(Some(m)) => m,
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        };
        let mut c = cube.clone();
        let mut lits = Vec::with_capacity(open.len());
        let mut block = Vec::with_capacity(open.len());
        let values: Result<Vec<bool>, SmtError> =
            bools.iter().map(|b| smt.bool_value(&model, b)).collect();
        let values = match values {
            Ok(v) => v,
            Err(e) => break Err(e),
        };
        for (((i, a, pos), b), v) in open.iter().zip(&bools).zip(values) {
            c.set(*i, v);
            lits.push(Formula::Lit(a.clone(), *pos == v));
            block.push(if v { b.clone() } else { b.not() });
        }
        smt.assert(&Bool::and(&block).not());
        pieces.push((c, Formula::and(lits)));
    };
    smt.pop();
    result?;
    pieces.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(pieces
        .into_iter()
        .map(|(c, lits)| (c, pc.and(lits)))
        .collect())
}

/// Limits of one exploration.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExploreLimits {
    /// Stop when this many symbolic states have been explored.
    pub max_states: Option<u64>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop when this becomes true.
    pub cancel: Option<&'static std::sync::atomic::AtomicBool>,
}

/// How an exploration ended.
pub enum ExploreEnd {
    /// Every path was executed to its end or to an abstract match.
    Complete,
    /// A reachable error state.
    Error(Box<SymState>),
    /// A limit stopped the search.
    Limit(crate::verdict::Unknown),
}

/// The result of SYMBOLICEXEC.
pub struct Exploration {
    /// The abstract transition system.
    pub ats: Ats,
    /// Symbolic states explored (pieces after splitting).
    pub symbolic_states: u64,
    /// The executed paths.
    pub paths: PathArena,
    /// The symbolic constant of each unconstrained initial value.
    pub initial_syms: Vec<Option<Sym>>,
    /// How it ended.
    pub end: ExploreEnd,
    /// Every expanded symbolic state with its abstract state (the pieces
    /// not expanded are matched on their path or identical to one of
    /// these): with the abstract states, what a certificate needs.
    pub expanded: Vec<(NodeIndex, SymState)>,
}

impl Drop for Exploration {
    /// Drops the kept states newest first: a state's path condition is
    /// then never the last owner of a long chain of constraints (dropping
    /// one recursively could overflow the stack).
    fn drop(&mut self) {
        while self.expanded.pop().is_some() {}
    }
}

#[derive(PartialEq, Eq, Hash)]
struct ExpandedKey {
    locs: Box<[LocId]>,
    vals: Rc<[Lin]>,
    pc: PathCond,
}

/// The initial symbolic state: declared values, fresh constants for the
/// others, and the `init` constraint as path condition.
fn initial_state(sys: &System) -> (Vec<Lin>, Vec<Option<Sym>>, PathCond, Sym) {
    let mut next = 0;
    let mut syms = Vec::with_capacity(sys.nvars);
    let vals: Vec<Lin> = sys
        .initial_values
        .iter()
        .map(|v| match v {
            Some(c) => {
                syms.push(None);
                Lin::constant(*c)
            }
            None => {
                syms.push(Some(next));
                next += 1;
                Lin::sym(next - 1)
            }
        })
        .collect();
    let init = sys.init.substitute(&|v| vals[v as usize].clone());
    (vals, syms, PathCond::default().and(init), next)
}

/// The symbolic successor of `s` by `step` (its guard is known to hold).
fn post(s: &SymState, step: &Step) -> (Box<[LocId]>, Vec<Lin>, Sym) {
    let mut locs = s.locs.clone();
    locs[step.thread] = step.to;
    let vals: Vec<Lin> = step
        .updates
        .iter()
        .enumerate()
        .map(|(v, u)| match u {
            Update::Keep => s.vals[v].clone(),
            Update::Set(e) => e.substitute(&|x| s.vals[x as usize].clone()),
            Update::Input(k) => Lin::sym(s.next_sym + *k as Sym),
        })
        .collect();
    (locs, vals, s.next_sym + step.inputs as Sym)
}

/// A frame entry: a symbolic state and the abstract state and step it came
/// from (`None` for initial states).
type Pending = (SymState, Option<(NodeIndex, usize)>);

/// The pieces of the successors of `s` by every enabled step, in program
/// order; records each step in the path arena.
fn successors(
    sys: &System,
    smt: &mut Smt,
    paths: &mut PathArena,
    s: &SymState,
    node: NodeIndex,
) -> Result<Vec<Pending>, SmtError> {
    let mut children = Vec::new();
    let mut scope = LazyScope::default();
    let result = successors_in(sys, smt, &mut scope, paths, s, node, &mut children);
    smt.leave(scope);
    result?;
    Ok(children)
}

fn successors_in(
    sys: &System,
    smt: &mut Smt,
    scope: &mut LazyScope,
    paths: &mut PathArena,
    s: &SymState,
    node: NodeIndex,
    children: &mut Vec<Pending>,
) -> Result<(), SmtError> {
    for (i, step) in sys.steps.iter().enumerate() {
        // Guard atoms are predicates: the cube decides the guard for every
        // state of the piece.
        if step.from != s.locs[step.thread] || !s.cube.eval(&step.guard_preds, &s.locs) {
            continue;
        }
        let (locs, vals, next_sym) = post(s, step);
        paths.nodes.push(PathNode {
            parent: Some(s.path),
            step: Some(i),
            input_base: s.next_sym,
        });
        let path_id = paths.nodes.len() - 1;
        let vals: Rc<[Lin]> = vals.into();
        for (cube, pc) in split_state_in(sys, smt, scope, &vals, &s.pc)? {
            let child = SymState {
                locs: locs.clone(),
                vals: vals.clone(),
                pc,
                next_sym,
                cube,
                path: path_id,
            };
            children.push((child, Some((node, i))));
        }
    }
    Ok(())
}

/// SYMBOLICEXEC: explores the program depth-first from its initial states.
pub fn explore(
    sys: &System,
    smt: &mut Smt,
    limits: ExploreLimits,
) -> Result<Exploration, SmtError> {
    let mut ats = Ats::default();
    let mut paths = PathArena::default();
    let (vals, initial_syms, pc, next_sym) = initial_state(sys);
    let out = |ats, paths, symbolic_states, end| Exploration {
        ats,
        symbolic_states,
        paths,
        initial_syms: initial_syms.clone(),
        end,
        expanded: Vec::new(),
    };
    if !pc.is_empty() {
        smt.push();
        pc.assert_in(smt);
        let r = smt.check();
        smt.pop();
        if !r? {
            // The initial constraint is unsatisfiable: no initial states.
            return Ok(out(ats, paths, 0, ExploreEnd::Complete));
        }
    }
    let locs: Box<[LocId]> = sys.initial_locs.clone().into_boxed_slice();
    let vals: Rc<[Lin]> = vals.into();
    paths.nodes.push(PathNode {
        parent: None,
        step: None,
        input_base: next_sym,
    });
    let initial: Vec<Pending> = split_state(sys, smt, &vals, &pc)?
        .into_iter()
        .rev()
        .map(|(cube, pc)| {
            let s = SymState {
                locs: locs.clone(),
                vals: vals.clone(),
                pc,
                next_sym,
                cube,
                path: 0,
            };
            (s, None)
        })
        .collect();

    // Symbolic states already expanded. A state identical to one of them
    // (same locations, values and path condition: the same set of concrete
    // states) is not expanded again: its subtree would repeat the explored
    // one, whose paths end at the same abstract matches. With constant
    // values the path condition is irrelevant (the state is one concrete
    // state, and every kept path condition is satisfiable).
    // The key's only interior mutability is the cache of Z3 terms in the
    // path condition, which takes no part in equality or hashing.
    #[allow(clippy::mutable_key_type)]
    let mut expanded: FxHashSet<ExpandedKey> = FxHashSet::default();
    let mut frames = vec![initial];
    let mut path: Vec<NodeIndex> = Vec::new();
    let mut on_path: Vec<bool> = Vec::new();
    let mut count: u64 = 0;
    let mut created: u64 = 0;
    let mut kept: Vec<(NodeIndex, SymState)> = Vec::new();
    while let Some(frame) = frames.last_mut() {
        let Some((s, parent)) = frame.pop() else {
            frames.pop();
            if let Some(n) = path.pop() {
                on_path[n.index()] = false;
            }
            continue;
        };
        count += 1;
        if limits.max_states.is_some_and(|m| count > m) {
            let end = ExploreEnd::Limit(crate::verdict::Unknown::new(
                crate::verdict::UnknownKind::Budget(crate::verdict::Limit::States),
                format!("state limit reached ({} symbolic states)", count - 1),
            ));
            return Ok(out(ats, paths, count - 1, end));
        }
        if count.is_multiple_of(256)
            && (limits.deadline.is_some_and(|d| Instant::now() >= d)
                || limits
                    .cancel
                    .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)))
        {
            let end = ExploreEnd::Limit(SmtError::Timeout.into());
            return Ok(out(ats, paths, count, end));
        }
        let node = ats.node(&AbsState {
            locs: s.locs.clone(),
            cube: s.cube.clone(),
        });
        if on_path.len() < ats.len() {
            on_path.resize(ats.len(), false);
        }
        match parent {
            Some((p, step)) => ats.edge(p, sys.steps[step].id, node),
            None => ats.initial.push(node),
        }
        if s.cube.eval(&sys.error_preds, &s.locs) {
            return Ok(out(ats, paths, count, ExploreEnd::Error(Box::new(s))));
        }
        if on_path[node.index()] {
            continue; // abstract match on the current path
        }
        let concrete = s.vals.iter().all(|v| v.as_constant().is_some());
        let key = ExpandedKey {
            locs: s.locs.clone(),
            vals: s.vals.clone(),
            pc: if concrete {
                PathCond::default()
            } else {
                s.pc.clone()
            },
        };
        if !expanded.insert(key) {
            continue; // identical to an expanded state
        }
        kept.push((node, s.clone()));
        let mut children = successors(sys, smt, &mut paths, &s, node)?;
        // The memory budget, per 256 states created (not expanded: with
        // many variables a state is large, and one may have many
        // successors).
        let before = created;
        created += children.len() as u64;
        if created / 256 != before / 256 && crate::memory::exceeded() {
            let end = ExploreEnd::Limit(crate::verdict::Unknown::new(
                crate::verdict::UnknownKind::Budget(crate::verdict::Limit::Memory),
                format!("{} ({count} symbolic states)", crate::memory::REASON),
            ));
            return Ok(out(ats, paths, count, end));
        }
        children.reverse(); // pop() takes them in program order
        path.push(node);
        on_path[node.index()] = true;
        frames.push(children);
    }
    let mut done = out(ats, paths, count, ExploreEnd::Complete);
    done.expanded = kept;
    Ok(done)
}
