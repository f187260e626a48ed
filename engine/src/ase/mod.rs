//! ASE: Abstract Analysis of Symbolic Executions (Albarghouthi, Gurfinkel,
//! Wei, Chechik, CAV 2010).
//!
//! REFINE: starting from the atoms of the guards and of the error
//! condition, repeat
//! 1. SYMBOLICEXEC ([`symexec`]) builds an under-approximating abstract
//!    transition system ([`ats`]); a reachable error ends with `unsafe`
//!    (after a concrete replay);
//! 2. SAFEFRAGMENT and the inductive-invariant check ([`checks`]) try to
//!    show the under-approximation is also an over-approximation: `safe`;
//! 3. otherwise refinement ([`refine`]) adds the atoms of the preimages of
//!    the inexact transitions.
//!
//! Limits (time, iterations, states) end in `unknown`, never in `safe`.
//! A program whose errors its control flow alone excludes is proved
//! before the loop ([`control`]).

pub mod ats;
pub mod checks;
pub mod control;
pub mod hash;
pub mod refine;
pub mod symexec;
pub mod system;

use crate::ir::{Program, VarId};
use crate::smt::{Smt, SmtError, Space};
use crate::verdict::{Limit, Outcome, Proof, ProofStates, Stats, Trace, UnknownKind, Verdict};
use std::time::{Duration, Instant};
use symexec::{Exploration, ExploreEnd, ExploreLimits, SymState};
use system::{System, Update};

/// Budgets of one check.
#[derive(Clone, Copy, Debug, Default)]
pub struct Config {
    /// Wall-clock limit.
    pub timeout: Option<Duration>,
    /// Maximal number of refinement iterations.
    pub max_iterations: Option<u32>,
    /// Maximal number of symbolic states in one iteration.
    pub max_states: Option<u64>,
    /// Set from another thread to stop the check early (it then ends in
    /// `unknown`, like a timeout): the portfolio abandons ASE this way.
    pub cancel: Option<&'static std::sync::atomic::AtomicBool>,
}

/// Checks a program with ASE.
pub fn check(program: &Program, config: &Config) -> Outcome {
    check_with_proof(program, config).0
}

/// Checks a program with ASE and, when it is safe, also returns the
/// abstract states of the proof (for invariants and correctness witnesses).
pub fn check_with_proof(program: &Program, config: &Config) -> (Outcome, Option<ProofStates>) {
    let start = Instant::now();
    if let Some(states) = control::proof(program) {
        let stats = Stats {
            iterations: 1,
            abstract_states: states.states.len() as u64,
            time: start.elapsed(),
            ..Default::default()
        };
        let outcome = Outcome {
            verdict: Verdict::Safe(Proof::InductiveInvariant),
            stats,
        };
        return (outcome, Some(states));
    }
    let mut proof = None;
    let outcome = drive(program, config, |sys, smt, deadline, stats| {
        run(program, sys, smt, config, deadline, stats, &mut proof)
    });
    if !matches!(outcome.verdict, Verdict::Safe(_)) {
        proof = None;
    }
    (outcome, proof)
}

fn proof_states(sys: &System, ats: &ats::Ats) -> ProofStates {
    let n = sys.preds.len();
    ProofStates {
        predicates: sys.preds.atoms().to_vec(),
        states: ats
            .graph
            .node_weights()
            .map(|a| (a.locs.to_vec(), (0..n).map(|i| a.cube.get(i)).collect()))
            .collect(),
        fragment: None,
    }
}

/// [`proof_states`] of a safe-fragment proof, with the fragment and the
/// expanded symbolic states outside it.
fn fragment_proof_states(sys: &System, exploration: &Exploration) -> ProofStates {
    let ats = &exploration.ats;
    let mut proof = proof_states(sys, ats);
    let mut in_fragment = vec![false; ats.len()];
    for n in ats.reachable_from(&ats.on_cycles()) {
        in_fragment[n.index()] = true;
    }
    let symbolic = exploration
        .expanded
        .iter()
        .filter(|(n, _)| !in_fragment[n.index()])
        .map(|(_, s)| crate::verdict::SymbolicState {
            locs: s.locs.to_vec(),
            vals: s.vals.to_vec(),
            pc: s.pc.constraints().into_iter().cloned().collect(),
        })
        .collect();
    proof.fragment = Some(crate::verdict::FragmentStates {
        in_fragment,
        symbolic,
    });
    proof
}

/// Runs an abstraction-refinement engine: prepares the program and the
/// prover, fills in the statistics, and turns a proof built on overflowed
/// arithmetic into `unknown`.
pub(crate) fn drive(
    program: &Program,
    config: &Config,
    engine: impl FnOnce(&mut System, &mut Smt, Option<Instant>, &mut Stats) -> Verdict,
) -> Outcome {
    let start = Instant::now();
    if program.divides() {
        return Outcome {
            verdict: Verdict::unknown(
                UnknownKind::Unsupported,
                "ASE reasons in linear integer arithmetic and takes no non-linear program: \
                 division (`/`, `%`), or a product, shift or mask of two varying values (the \
                 explicit search and bounded model checking compute them exactly)",
            ),
            stats: Stats::default(),
        };
    }
    let deadline = config.timeout.map(|t| start + t);
    let mut sys = System::new(program);
    let mut smt = Smt::new(deadline);
    smt.cancel = config.cancel;
    let mut stats = Stats::default();
    crate::linear::take_overflow();
    let mut verdict = engine(&mut sys, &mut smt, deadline, &mut stats);
    // A replayed trace is evidence on its own; a proof is not, once the
    // arithmetic it was built on has overflowed.
    // Nor is a proof finished while the run was being cancelled: Z3
    // interrupted mid-call may have answered wrongly somewhere.
    let cancelled = config
        .cancel
        .is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst));
    if cancelled && matches!(verdict, Verdict::Safe(_)) {
        verdict = Verdict::unknown(UnknownKind::Budget(Limit::Cancelled), "cancelled");
    }
    if crate::linear::take_overflow() && matches!(verdict, Verdict::Safe(_)) {
        verdict = Verdict::unknown(
            UnknownKind::NoProof,
            "arithmetic overflow: a coefficient of the symbolic values or predicates exceeds 128 bits",
        );
    }
    stats.prover_queries = smt.queries;
    stats.predicates = predicate_names(program, &sys);
    stats.time = start.elapsed();
    Outcome { verdict, stats }
}

fn run(
    program: &Program,
    sys: &mut System,
    smt: &mut Smt,
    config: &Config,
    deadline: Option<Instant>,
    stats: &mut Stats,
    proof: &mut Option<ProofStates>,
) -> Verdict {
    let limits = ExploreLimits {
        max_states: config.max_states,
        deadline,
        cancel: config.cancel,
    };
    let unknown = |e: SmtError| Verdict::Unknown(e.into());
    loop {
        if let Some(v) = start_iteration(config, stats) {
            return v;
        }
        let exploration = match symexec::explore(sys, smt, limits) {
            Ok(e) => e,
            Err(e) => return unknown(e),
        };
        stats.symbolic_states = exploration.symbolic_states;
        stats.abstract_states = exploration.ats.len() as u64;
        match &exploration.end {
            ExploreEnd::Complete => {}
            ExploreEnd::Limit(why) => return Verdict::Unknown(why.clone()),
            ExploreEnd::Error(state) => {
                return match counterexample(program, sys, smt, &exploration, state) {
                    Ok(Ok(trace)) => Verdict::Unsafe(trace),
                    Ok(Err(why)) => Verdict::unknown(
                        UnknownKind::Internal,
                        format!("internal error: the counterexample does not replay ({why})"),
                    ),
                    Err(e) => unknown(e),
                };
            }
        }
        let fragment = match checks::safe_fragment(sys, smt, &exploration.ats) {
            Ok(f) => f,
            Err(e) => return unknown(e),
        };
        if fragment.inexact.is_empty() {
            *proof = Some(fragment_proof_states(sys, &exploration));
            return Verdict::Safe(Proof::SafeFragment);
        }
        match checks::inductive_invariant(sys, smt, &exploration.ats, &fragment.exact) {
            Ok(true) => {
                *proof = Some(proof_states(sys, &exploration.ats));
                return Verdict::Safe(Proof::InductiveInvariant);
            }
            Ok(false) => {}
            Err(e) => return unknown(e),
        }
        match refine::refine(sys, smt, &exploration.ats, &fragment.inexact) {
            Ok(0) => {
                return Verdict::unknown(
                    UnknownKind::NoProof,
                    "refinement found no new predicate (the preimages are not expressible)",
                )
            }
            Ok(_) => {}
            Err(e) => return unknown(e),
        }
    }
}

/// Counts a new refinement iteration, or ends the run when the iteration
/// budget is spent.
pub(crate) fn start_iteration(config: &Config, stats: &mut Stats) -> Option<Verdict> {
    if config.max_iterations.is_some_and(|m| stats.iterations >= m) {
        return Some(Verdict::unknown(
            UnknownKind::Budget(Limit::Iterations),
            format!(
                "iteration limit reached ({} iteration{})",
                stats.iterations,
                if stats.iterations == 1 { "" } else { "s" }
            ),
        ));
    }
    stats.iterations += 1;
    None
}

/// A concrete trace to the error state `state`: initial values and inputs
/// from a model of its path condition, replayed by the interpreter.
fn counterexample(
    program: &Program,
    sys: &System,
    smt: &mut Smt,
    exploration: &Exploration,
    state: &SymState,
) -> Result<Result<Trace, String>, SmtError> {
    smt.push();
    state.pc.assert_in(smt);
    let model = smt.check_model();
    let result = (|| {
        let Some(model) = model? else {
            return Ok(Err("its path condition is unsatisfiable".to_string()));
        };
        let mut initial = Vec::with_capacity(sys.nvars);
        for (v, sym) in exploration.initial_syms.iter().enumerate() {
            initial.push(match (sys.initial_values[v], sym) {
                (Some(c), _) => c,
                (None, Some(s)) => smt.value(&model, Space::Symbolic, *s)?,
                (None, None) => 0,
            });
        }
        let mut steps = Vec::new();
        for node in exploration.paths.path_to(state.path) {
            let step = &sys.steps[node.step.expect("path nodes past the root have steps")];
            let mut inputs = Vec::new();
            for (v, u) in step.updates.iter().enumerate() {
                if let Update::Input(k) = u {
                    let value = smt.value(&model, Space::Symbolic, node.input_base + *k as u32)?;
                    inputs.push((VarId::new(v), value));
                }
            }
            steps.push((step.id, inputs));
        }
        Ok(Trace::execute(program, initial, &steps).map_err(|e| e.to_string()))
    })();
    smt.pop();
    result
}

pub(crate) fn predicate_names(program: &Program, sys: &System) -> Vec<String> {
    let name = |s: u32| program.vars[s as usize].name.clone();
    sys.preds
        .atoms()
        .iter()
        .map(|a| a.display(&name).to_string())
        .collect()
}
