//! What a check returns: the verdict with its evidence, and statistics.

use crate::interp::{self, RunError, State};
use crate::ir::{Program, TransId, VarId};
use std::time::Duration;

/// Which check proved a program safe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Proof {
    /// Every path ends in an exact fragment without error states (SF).
    SafeFragment,
    /// The explored abstract states are closed under all transitions (II).
    InductiveInvariant,
    /// UR: every explored abstract transition passed the exactness checks,
    /// so the explored abstract states are closed (EX).
    ExactAbstraction,
    /// The explicit search visited every reachable state, trying every
    /// value of every input (ES).
    ExhaustiveSearch,
    /// The explicit search of a counter system with saturated counters
    /// visited every reachable abstract state (SC).
    SaturatedSearch,
    /// Candidate facts per tuple of locations that survived Houdini are
    /// inductive and exclude the error (IN, [`crate::infer`]).
    InferredInvariant,
    /// MAGIC's composition of per-thread abstractions (predicate, then
    /// action-guided) reaches no state of the error condition (MG,
    /// [`crate::magic`]).
    Compositional,
}

impl Proof {
    /// The short name used in the paper's tables.
    pub fn short(self) -> &'static str {
        match self {
            Proof::SafeFragment => "SF",
            Proof::InductiveInvariant => "II",
            Proof::ExactAbstraction => "EX",
            Proof::ExhaustiveSearch => "ES",
            Proof::SaturatedSearch => "SC",
            Proof::InferredInvariant => "IN",
            Proof::Compositional => "MG",
        }
    }
    /// A phrase for users.
    pub fn describe(self) -> &'static str {
        match self {
            Proof::SafeFragment => "safe-fragment check",
            Proof::InductiveInvariant => "inductive-invariant check",
            Proof::ExactAbstraction => "exactness checks of under-approximation refinement",
            Proof::ExhaustiveSearch => "exhaustive explicit-state search (finitely many reachable states, every input value tried)",
            Proof::SaturatedSearch => "exhaustive explicit-state search of the counter system, counters capped (finitely many abstract states, every input value tried)",
            Proof::InferredInvariant => "inductive invariant inferred from candidate linear facts (Houdini)",
            Proof::Compositional => "compositional two-level abstraction (MAGIC: per-thread predicate and action-guided abstractions, composed)",
        }
    }
}

/// How many interpreted steps [`Trace::shortened`] may spend.
pub const SHORTEN_BUDGET: usize = 2_000_000;

/// One step of a counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The transition taken (its thread is the one that moves).
    pub transition: TransId,
    /// Values chosen for the `*` assignments.
    pub inputs: Vec<(VarId, i128)>,
    /// The state after the step.
    pub state: State,
}

/// A concrete counterexample: an initial state and the steps to an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The initial state.
    pub initial: State,
    /// The steps.
    pub steps: Vec<TraceStep>,
}

impl Trace {
    /// The state the trace ends in (the initial one when it has no step).
    pub fn last_state(&self) -> &State {
        self.steps.last().map_or(&self.initial, |s| &s.state)
    }

    /// Runs the initial values and inputs through the interpreter, recording
    /// the states, and checks that the run ends in an error state.
    pub fn execute(
        p: &Program,
        initial_values: Vec<i128>,
        steps: &[(TransId, Vec<(VarId, i128)>)],
    ) -> Result<Trace, RunError> {
        Trace::execute_from(p, interp::initial_state(p, initial_values)?, steps)
    }

    /// [`Trace::execute`] from a given initial state (one with initial
    /// array contents, [`interp::initial_state_with`]).
    pub fn execute_from(
        p: &Program,
        initial: State,
        steps: &[(TransId, Vec<(VarId, i128)>)],
    ) -> Result<Trace, RunError> {
        let mut cur = initial.clone();
        let mut out = Vec::with_capacity(steps.len());
        for (t, inputs) in steps {
            cur = interp::step(p, &cur, *t, inputs)?;
            out.push(TraceStep {
                transition: *t,
                inputs: inputs.clone(),
                state: cur.clone(),
            });
        }
        if !interp::is_error(p, &cur)? {
            return Err(RunError::NotAnError);
        }
        Ok(Trace {
            initial,
            steps: out,
        })
    }

    /// The trace without the steps it does not need. A search with a
    /// partial-order reduction finds a shortest trace of the reduced graph,
    /// which may let threads finish steps the error does not depend on; the
    /// last step of a thread (not the last of the trace) is dropped while
    /// the rest still runs to an error state, until none can be. Each
    /// candidate is run by the interpreter, so the result is a real trace;
    /// the work is bounded by [`SHORTEN_BUDGET`] interpreted steps.
    pub fn shortened(self, p: &Program) -> Trace {
        let mut steps: Vec<_> = self
            .steps
            .iter()
            .map(|s| (s.transition, s.inputs.clone()))
            .collect();
        let initial = self.initial.vals.clone();
        let mut best = self;
        let mut budget = SHORTEN_BUDGET;
        'fewer: loop {
            // The last step of each thread, latest first.
            let mut lasts: Vec<usize> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for (k, (t, _)) in steps.iter().enumerate().rev().skip(1) {
                if seen.insert(p.transition(*t).thread) {
                    lasts.push(k);
                }
            }
            for k in lasts {
                if budget < steps.len() {
                    break 'fewer;
                }
                budget -= steps.len();
                let mut fewer = steps.clone();
                fewer.remove(k);
                if let Ok(t) = Trace::execute(p, initial.clone(), &fewer) {
                    steps = fewer;
                    best = t;
                    continue 'fewer;
                }
            }
            break;
        }
        best
    }

    /// Replays the trace: every recorded state must be what the interpreter
    /// computes, and the last one an error state.
    pub fn replay(&self, p: &Program) -> Result<(), RunError> {
        let steps: Vec<_> = self
            .steps
            .iter()
            .map(|s| (s.transition, s.inputs.clone()))
            .collect();
        let initial =
            interp::initial_state_with(p, self.initial.vals.clone(), self.initial.arrays.clone())?;
        let again = Trace::execute_from(p, initial, &steps)?;
        if let Some(i) = again
            .steps
            .iter()
            .zip(&self.steps)
            .position(|(a, b)| a != b)
        {
            return Err(RunError::Mismatch(i + 1));
        }
        Ok(())
    }
}

/// The answer of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No reachable state is an error state.
    Safe(Proof),
    /// An error state is reachable; the trace shows how (it replays).
    Unsafe(Trace),
    /// No answer, and why.
    Unknown(Unknown),
}

/// Why a check gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    /// What kind of reason it is.
    pub kind: UnknownKind,
    /// The reason, for users.
    pub detail: String,
}

/// The kinds of [`Unknown`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnknownKind {
    /// A budget ran out: which one.
    Budget(Limit),
    /// An execution reaches behaviour the model does not cover (a give-up
    /// location of a lowered C program).
    GiveUp,
    /// The input uses something the check does not handle (a C construct,
    /// a property, inputs for UR).
    Unsupported,
    /// The engine ended without a proof or a counterexample (a bounded
    /// search, a refinement that found nothing new, an abstraction that
    /// does not apply).
    NoProof,
    /// An internal error: a trace that does not replay, a refuted
    /// certificate, a failed prover call.
    Internal,
}

/// The budgets of a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// The time limit.
    Time,
    /// The state limit of a search.
    States,
    /// The iteration limit of abstraction refinement.
    Iterations,
    /// The memory limit.
    Memory,
    /// A run was cancelled (another engine answered first).
    Cancelled,
}

impl Unknown {
    /// A reason of a kind.
    pub fn new(kind: UnknownKind, detail: impl Into<String>) -> Unknown {
        Unknown {
            kind,
            detail: detail.into(),
        }
    }

    /// The time limit was reached.
    pub fn time() -> Unknown {
        Unknown::new(UnknownKind::Budget(Limit::Time), "time limit reached")
    }

    /// The same kind, with the detail rewritten.
    pub fn map(self, f: impl FnOnce(String) -> String) -> Unknown {
        Unknown {
            kind: self.kind,
            detail: f(self.detail),
        }
    }
}

impl std::fmt::Display for Unknown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

impl UnknownKind {
    /// A short name for reports (`time`, `give-up`, ...).
    pub fn name(self) -> &'static str {
        match self {
            UnknownKind::Budget(Limit::Time) => "time",
            UnknownKind::Budget(Limit::States) => "states",
            UnknownKind::Budget(Limit::Iterations) => "iterations",
            UnknownKind::Budget(Limit::Memory) => "memory",
            UnknownKind::Budget(Limit::Cancelled) => "cancelled",
            UnknownKind::GiveUp => "give-up",
            UnknownKind::Unsupported => "unsupported",
            UnknownKind::NoProof => "no-proof",
            UnknownKind::Internal => "internal",
        }
    }
}

impl Verdict {
    /// An unknown verdict.
    pub fn unknown(kind: UnknownKind, detail: impl Into<String>) -> Verdict {
        Verdict::Unknown(Unknown::new(kind, detail))
    }
}

impl Verdict {
    /// `safe`, `unsafe` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Safe(_) => "safe",
            Verdict::Unsafe(_) => "unsafe",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// Figures of one run (iteration-dependent ones are of the last iteration).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Abstraction-refinement iterations.
    pub iterations: u32,
    /// Prover queries (satisfiability checks and quantifier eliminations).
    pub prover_queries: u64,
    /// The predicates, printed over the program's variables.
    pub predicates: Vec<String>,
    /// Symbolic states explored in the last iteration.
    pub symbolic_states: u64,
    /// Abstract states in the last iteration.
    pub abstract_states: u64,
    /// Wall-clock time.
    #[serde(serialize_with = "ser_duration_secs")]
    pub time: Duration,
    /// CEGPV's slicing, when the check was by CEGPV.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slicing: Option<crate::cegpv::Slicing>,
}

fn ser_duration_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// The abstract states a safety proof rests on: their union contains every
/// reachable state (SF: every execution stays in explored abstract states;
/// II: the union is an inductive invariant).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProofStates {
    /// The predicates (atoms over the program's variables, by index).
    pub predicates: Vec<crate::linear::Atom>,
    /// Each abstract state: the location of every thread and the value of
    /// every predicate.
    pub states: Vec<(Vec<crate::ir::LocId>, Vec<bool>)>,
    /// For a proof by the safe-fragment check: the union of the abstract
    /// states need not be inductive (states on tree paths may have
    /// successors outside it, which no execution reaches). An inductive
    /// invariant is the union of the abstract states in or reachable from
    /// `inf` with the expanded symbolic states of the others.
    pub fragment: Option<FragmentStates>,
}

/// The parts of a safe-fragment proof an inductive invariant is made of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FragmentStates {
    /// Whether each abstract state (of [`ProofStates::states`]) is in or
    /// reachable from `inf`.
    pub in_fragment: Vec<bool>,
    /// The expanded symbolic states of the abstract states outside the
    /// fragment: locations, the value of every variable as a linear term
    /// over symbolic constants, and the path condition over them.
    pub symbolic: Vec<SymbolicState>,
}

/// A set of concrete states: `∃k. pc(k) ∧ x = vals(k)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolicState {
    /// The location of every thread.
    pub locs: Vec<crate::ir::LocId>,
    /// The value of every variable.
    pub vals: Vec<crate::linear::Lin>,
    /// The path condition (conjoined).
    pub pc: Vec<crate::linear::Formula<crate::linear::Atom>>,
}

/// The answer of an engine that takes no program with arrays
/// ([`crate::ir::Program::has_arrays`]).
pub(crate) fn arrays_unsupported(engine: &str) -> Verdict {
    Verdict::unknown(
        UnknownKind::Unsupported,
        format!(
            "{engine} takes no program with arrays (the explicit search and bounded model \
             checking search them for errors)"
        ),
    )
}

/// A verdict with the figures of the run that produced it.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The answer.
    pub verdict: Verdict,
    /// The figures.
    pub stats: Stats,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program;

    /// A trace with steps the error does not need: `q`'s last step after
    /// its write of `x`, and all of `r`. They go; `q`'s write stays.
    #[test]
    fn shortened_drops_the_steps_the_error_does_not_need() {
        let p = parse_program(
            "var x = 0, y = 0, z = 0;
             thread p at a { a -> b when x == 1; }
             thread q at a { a -> b do x := 1; b -> c do y := 1; }
             thread r at a { a -> b do z := 1; }
             error p@b;",
        )
        .expect("parses");
        let t = |name: &str| {
            (0..p.transitions.len())
                .map(TransId::new)
                .find(|&t| p.transition(t).label == name)
                .expect("a transition")
        };
        let steps = vec![
            (t("r.1"), vec![]),
            (t("q.1"), vec![]),
            (t("q.2"), vec![]),
            (t("p.1"), vec![]),
        ];
        let full = Trace::execute(&p, vec![0, 0, 0], &steps).expect("an error trace");
        let short = full.shortened(&p);
        assert!(short.replay(&p).is_ok());
        let taken: Vec<_> = short.steps.iter().map(|s| s.transition).collect();
        assert_eq!(taken, vec![t("q.1"), t("p.1")]);
    }
}
