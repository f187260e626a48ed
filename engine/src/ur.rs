//! UR: under-approximation refinement (Pasareanu, Pelánek, Visser,
//! "Concrete model checking with abstract matching and refinement", CAV'05;
//! "Predicate abstraction with under-approximation refinement", LMCS 2007).
//! The algorithm ASE was measured against.
//!
//! Breadth-first search over *concrete* states, with abstract matching
//! against a *global* table of visited abstract states: a successor whose
//! abstract state was seen before is not explored. Every explored abstract
//! transition `(a, t, a')` is checked for exactness, `a ⇒ g ∧ a'[e/x]` (all
//! states of `a` take `t` into `a'`); for disabled transitions the check
//! `a ⇒ ¬g` holds by construction, because the guard atoms are predicates.
//! Refinement adds the atoms of the failed checks; when an iteration adds no
//! predicate, every explored abstract state has all its successors among
//! the explored ones, none is an error: safe.
//!
//! As in the paper, UR handles one concrete initial state and no
//! nondeterministic input; on other programs it answers unknown.

use crate::ase::ats::{AbsState, Cube};
use crate::ase::checks::{Post, Posts};
use crate::ase::hash::FxHashSet;
use crate::ase::system::System;
use crate::ase::{start_iteration, Config};
use crate::interp::{self, State};
use crate::ir::{Program, TransId};
use crate::linear::{norm_to_formula, Atom, Formula, Norm};
use crate::smt::{LazyScope, Smt, SmtError, Space};
use crate::verdict::{Limit, Outcome, Proof, ProofStates, Stats, Trace, UnknownKind, Verdict};
use std::collections::VecDeque;

/// Checks a program with UR.
pub fn check(program: &Program, config: &Config) -> Outcome {
    check_with_proof(program, config).0
}

/// Checks a program with UR and, when it is safe, also returns the explored
/// abstract states (closed under all transitions: their union is an
/// inductive invariant).
pub fn check_with_proof(program: &Program, config: &Config) -> (Outcome, Option<ProofStates>) {
    let mut proof = None;
    let outcome = crate::ase::drive(program, config, |sys, smt, _deadline, stats| {
        run(program, sys, smt, config, stats, &mut proof)
    });
    if !matches!(outcome.verdict, Verdict::Safe(_)) {
        proof = None;
    }
    (outcome, proof)
}

/// Why UR cannot handle a program, if it cannot.
pub fn unsupported(program: &Program) -> Option<String> {
    if program.has_arrays() {
        return Some("UR takes no program with arrays".into());
    }
    if let Some(v) = program.vars.iter().find(|v| v.init.is_none()) {
        return Some(format!(
            "UR needs one concrete initial state, but `{}` has no initial value",
            v.name
        ));
    }
    if program.has_inputs() {
        return Some("UR does not handle nondeterministic inputs (`x := *`)".into());
    }
    None
}

fn abstraction(sys: &System, s: &State) -> AbsState {
    let mut cube = Cube::new(sys.preds.len());
    for (i, p) in sys.preds.atoms().iter().enumerate() {
        cube.set(i, p.eval(&|v| s.vals[v as usize]));
    }
    AbsState {
        locs: s.locs.clone().into_boxed_slice(),
        cube,
    }
}

/// One explored concrete state and how it was reached.
struct Node {
    state: State,
    parent: Option<(usize, TransId)>,
}

fn run(
    program: &Program,
    sys: &mut System,
    smt: &mut Smt,
    config: &Config,
    stats: &mut Stats,
    proof: &mut Option<ProofStates>,
) -> Verdict {
    if let Some(why) = unsupported(program) {
        return Verdict::unknown(UnknownKind::Unsupported, why);
    }
    let initial_vals: Vec<i128> = program
        .vars
        .iter()
        .map(|v| i128::from(v.init.expect("checked by `unsupported`")))
        .collect();
    let initial = match interp::initial_state(program, initial_vals) {
        Ok(s) => s,
        // The single candidate violates `init`: there are no initial states.
        Err(interp::RunError::InitViolated) => {
            *proof = Some(ProofStates::default());
            return Verdict::Safe(Proof::ExactAbstraction);
        }
        Err(e) => return Verdict::unknown(UnknownKind::Internal, e.to_string()),
    };
    loop {
        if let Some(v) = start_iteration(config, stats) {
            return v;
        }
        match iteration(program, sys, smt, config, &initial, stats, proof) {
            Ok(Some(v)) => return v,
            Ok(None) => {}
            Err(e) => return Verdict::Unknown(e.into()),
        }
    }
}

/// One breadth-first search; `None` when it added predicates.
fn iteration(
    program: &Program,
    sys: &mut System,
    smt: &mut Smt,
    config: &Config,
    initial: &State,
    stats: &mut Stats,
    proof: &mut Option<ProofStates>,
) -> Result<Option<Verdict>, SmtError> {
    let mut nodes = vec![Node {
        state: initial.clone(),
        parent: None,
    }];
    let mut visited: FxHashSet<AbsState> = FxHashSet::default();
    visited.insert(abstraction(sys, initial));
    // (abstract state, step) pairs whose exactness has been checked.
    let mut checked: FxHashSet<(AbsState, usize)> = FxHashSet::default();
    let mut new_atoms: Vec<Atom> = Vec::new();
    let mut failed = false;
    let mut queue = VecDeque::from([0usize]);
    // The predicates are fixed during an iteration.
    let posts = Posts::new(sys);
    stats.symbolic_states = 0;
    while let Some(i) = queue.pop_front() {
        stats.symbolic_states += 1;
        stats.abstract_states = visited.len() as u64;
        if config.max_states.is_some_and(|m| stats.symbolic_states > m) {
            return Ok(Some(Verdict::unknown(
                UnknownKind::Budget(Limit::States),
                format!(
                    "state limit reached ({} concrete states)",
                    stats.symbolic_states - 1
                ),
            )));
        }
        if smt.out_of_time() {
            return Err(SmtError::Timeout);
        }
        let state = nodes[i].state.clone();
        match interp::is_error(program, &state) {
            Ok(true) => return Ok(Some(counterexample(program, &nodes, i))),
            Ok(false) => {}
            Err(e) => return Ok(Some(Verdict::unknown(UnknownKind::Internal, e.to_string()))),
        }
        let a = abstraction(sys, &state);
        // The exactness queries of `a` share a solver scope asserting `a`.
        let mut scope = LazyScope::default();
        let result = (|| {
            for (k, step) in sys.steps.iter().enumerate() {
                if step.from != state.locs[step.thread] {
                    continue;
                }
                let next = match interp::step(program, &state, step.id, &[]) {
                    Ok(n) => n,
                    Err(interp::RunError::GuardFalse(_)) => continue,
                    Err(e) => {
                        return Ok(Some(Verdict::unknown(UnknownKind::Internal, e.to_string())))
                    }
                };
                let b = abstraction(sys, &next);
                if checked.insert((a.clone(), k)) {
                    let post = posts.get(sys, k);
                    let exact = match post.successor(&a.cube) {
                        Some(c) => c == b.cube,
                        None => exact(sys, smt, &mut scope, &a, k, post, &b.cube)?,
                    };
                    if !exact {
                        failed = true;
                        step.guard
                            .for_each_atom(&mut |x: &Atom| new_atoms.push(x.clone()));
                        for n in &post.norms {
                            if let Norm::Lit(x, _) = n {
                                new_atoms.push(x.clone());
                            }
                        }
                    }
                }
                if visited.insert(b) {
                    nodes.push(Node {
                        state: next,
                        parent: Some((i, step.id)),
                    });
                    queue.push_back(nodes.len() - 1);
                }
            }
            Ok(None)
        })();
        smt.leave(scope);
        if let Some(v) = result? {
            return Ok(Some(v));
        }
    }
    stats.abstract_states = visited.len() as u64;
    let mut added = 0;
    for x in new_atoms {
        if sys.preds.intern(x).1 {
            added += 1;
        }
    }
    Ok(match (failed, added) {
        (false, _) => {
            let n = sys.preds.len();
            let mut states: Vec<_> = visited
                .iter()
                .map(|a| (a.locs.to_vec(), (0..n).map(|i| a.cube.get(i)).collect()))
                .collect();
            states.sort();
            *proof = Some(ProofStates {
                predicates: sys.preds.atoms().to_vec(),
                states,
                fragment: None,
            });
            Some(Verdict::Safe(Proof::ExactAbstraction))
        }
        (true, 0) => Some(Verdict::unknown(
            UnknownKind::NoProof,
            "refinement found no new predicate",
        )),
        (true, _) => None,
    })
}

/// `a ⇒ g ∧ b[e/x]`: every state of `a` takes step `k` into `b`.
///
/// `a` contains the explored concrete state, which takes the step into `b`.
/// So `a` implies the guard (its atoms are predicates, decided by `a`) and
/// every literal of `b[e/x]` that `a` decides: only the other literals go
/// to the prover, as `a ∧ ¬∧(undecided literals)`, an equivalent, smaller
/// query. `a` is asserted in `scope`, shared by the queries of one state.
fn exact(
    sys: &System,
    smt: &mut Smt,
    scope: &mut LazyScope,
    a: &AbsState,
    k: usize,
    post: &Post,
    b: &Cube,
) -> Result<bool, SmtError> {
    if !a.cube.eval(&sys.steps[k].guard_preds, &a.locs) {
        return Ok(false);
    }
    let mut open = Vec::new();
    for (i, n) in post.norms.iter().enumerate() {
        match post.decided(i, &a.cube) {
            Some(v) if v == b.get(i) => {}
            Some(_) => return Ok(false),
            None => open.push(norm_to_formula(n.clone(), b.get(i))),
        }
    }
    if open.is_empty() {
        return Ok(true);
    }
    smt.enter(scope, |smt| {
        let f = smt.formula(Space::State, &a.formula(sys));
        smt.assert(&f);
    });
    let q = crate::linear::negate(&Formula::and(open));
    let q = smt.formula(Space::State, &q);
    Ok(!smt.is_sat(&[q])?)
}

fn counterexample(program: &Program, nodes: &[Node], mut i: usize) -> Verdict {
    let mut steps = Vec::new();
    while let Some((parent, t)) = nodes[i].parent {
        steps.push((t, Vec::new()));
        i = parent;
    }
    steps.reverse();
    match Trace::execute(program, nodes[0].state.vals.clone(), &steps) {
        Ok(trace) => Verdict::Unsafe(trace),
        Err(e) => Verdict::unknown(
            UnknownKind::Internal,
            format!("internal error: the counterexample does not replay ({e})"),
        ),
    }
}
