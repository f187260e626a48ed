//! MAGIC's two-level compositional CEGAR (Chaki, Ouaknine, Yorav, Clarke,
//! "Automated Compositional Abstraction Refinement for Concurrent C
//! Programs: A Two-Level Approach"; `../shared/seeds`), on the IR.
//!
//! The program is split into components ([`components`]): one per thread,
//! over its own variables, and the shared variables, which must take
//! finitely many constant values (flags, locks, a specification's monitor:
//! MAGIC's components communicate by actions only). Then, as in Fig. 1 of
//! the paper:
//!
//! 1. each thread is abstracted on data by predicates into a finite LTS
//!    `P_i` ([`predabs`]), then on events into `A_i`, a partition of the
//!    states of `P_i` with its internal steps folded in ([`actions`]);
//! 2. the composition of the `A_i` with the shared variables is searched
//!    for a state of the error condition ([`compose`]); none: safe;
//! 3. a counterexample is projected on each thread. A projection `P_i`
//!    does not accept refines `A_i` (Fig. 2, splitting blocks along the
//!    trace); one it accepts is checked on the thread's variables
//!    ([`concrete`]); an infeasible one adds predicates to `P_i`
//!    (weakest preconditions along the path) and rebuilds it. When every
//!    projection is feasible the threads' runs, interleaved as the trace
//!    orders their actions, are a counterexample of the program, replayed
//!    by the interpreter.
//!
//! By Theorem 2.1 of the paper, `L(C_i) ⊆ L(P_i) ⊆ L(A_i)` for every
//! thread gives `L(C_1 ‖ … ‖ C_n) ⊆ L(A_1 ‖ … ‖ A_n)`: what the composition
//! does not reach, the program does not. A safe verdict comes with the
//! invariant this gives (per tuple of locations, the predicate states of
//! the reachable composed states), checked by the certificate checker.

mod actions;
mod components;
mod compose;
mod concrete;
mod invariant;
mod predabs;

use crate::certify::build::literal;
use crate::certify::Invariant;
use crate::ir::{Program, TransId, VarId};
use crate::linear::Atom;
use crate::smt::{Smt, SmtError};
use crate::verdict::{Limit, Outcome, Proof, Stats, Trace, Unknown, UnknownKind, Verdict};
use actions::{accepts, Partition};
use components::Components;
use compose::Search;
use concrete::{Check, Run};
use predabs::{Abstraction, Stop, Visible};
use std::time::Instant;

/// The budget of a check.
#[derive(Clone, Copy, Debug, Default)]
pub struct Config {
    /// When to stop with `unknown`.
    pub deadline: Option<Instant>,
}

/// Most abstract states of one thread's predicate abstraction.
const MAX_THREAD_STATES: usize = 20_000;

/// Most states of the composition.
const MAX_GLOBAL_STATES: usize = 2_000_000;

/// Most refinements.
const MAX_ITERATIONS: u32 = 10_000;

/// The answer, and a safe verdict's invariant.
pub struct Found {
    /// The verdict and figures.
    pub outcome: Outcome,
    /// The invariant of a safe verdict (for the certificate).
    pub invariants: Option<Vec<Invariant>>,
}

/// What the projections of a counterexample are on the threads.
enum Projections {
    /// Every one has a run: the runs.
    Feasible(Vec<Run>),
    /// Some have none: per such thread, the new predicates.
    Spurious(Vec<(usize, Vec<Atom>)>),
    /// An inconsistency between the levels (an internal error).
    Broken(&'static str),
}

/// One thread's two abstractions.
struct Level {
    preds: Vec<Atom>,
    abs: Abstraction,
    lts: Visible,
    partition: Partition,
}

/// Whether MAGIC applies to `program` (its threads share only variables
/// of finitely many constant values, ...); `Err`: why not.
pub fn applies(program: &Program) -> Result<(), String> {
    Components::split(program).map(|_| ())
}

/// Checks `program` by MAGIC's two-level CEGAR.
pub fn check(program: &Program, config: &Config) -> Found {
    let start = Instant::now();
    let mut stats = Stats::default();
    let verdict = match Components::split(program) {
        Err(why) => (
            Verdict::unknown(
                UnknownKind::Unsupported,
                format!("MAGIC does not apply: {why}"),
            ),
            None,
        ),
        Ok(comps) => {
            let mut smt = Smt::new(config.deadline);
            let mut run = Magic {
                program,
                comps: &comps,
                smt: &mut smt,
                stats: &mut stats,
                levels: Vec::new(),
            };
            let r = run.cegar();
            stats.prover_queries = smt.queries;
            r
        }
    };
    stats.time = start.elapsed();
    Found {
        outcome: Outcome {
            verdict: verdict.0,
            stats,
        },
        invariants: verdict.1,
    }
}

struct Magic<'a> {
    program: &'a Program,
    comps: &'a Components,
    smt: &'a mut Smt,
    stats: &'a mut Stats,
    levels: Vec<Level>,
}

type Answer = (Verdict, Option<Vec<Invariant>>);

fn stopped(e: SmtError) -> Answer {
    let v = match e {
        SmtError::Timeout => Verdict::Unknown(Unknown::time()),
        e => Verdict::unknown(UnknownKind::Internal, format!("prover failure: {e}")),
    };
    (v, None)
}

impl Magic<'_> {
    fn goal_base(&self) -> usize {
        self.comps.actions.len()
    }

    /// Builds thread `i`'s abstractions over `preds`.
    fn level(&mut self, i: usize, preds: Vec<Atom>) -> Result<Level, Answer> {
        let comp = &self.comps.threads[i];
        let abs = Abstraction::build(
            comp,
            self.comps.vars,
            preds.clone(),
            self.smt,
            MAX_THREAD_STATES,
        )
        .map_err(|e| match e {
            Stop::Smt(e) => stopped(e),
            Stop::TooBig(n) => (
                Verdict::unknown(
                    UnknownKind::Budget(Limit::States),
                    format!(
                        "MAGIC: the predicate abstraction of thread {} has more than {n} states",
                        self.program.thread(comp.thread).name
                    ),
                ),
                None,
            ),
        })?;
        let lts = Visible::build(
            &abs,
            comp,
            i,
            &self.comps.goal_actions,
            self.goal_base(),
            self.smt,
        )
        .map_err(stopped)?;
        let partition = Partition::by_enabled(&lts);
        Ok(Level {
            preds,
            abs,
            lts,
            partition,
        })
    }

    fn cegar(&mut self) -> Answer {
        for i in 0..self.comps.threads.len() {
            match self.level(i, Vec::new()) {
                Ok(l) => self.levels.push(l),
                Err(a) => return a,
            }
        }
        loop {
            self.stats.iterations += 1;
            if self.stats.iterations > MAX_ITERATIONS {
                return (
                    Verdict::unknown(
                        UnknownKind::Budget(Limit::Iterations),
                        "MAGIC: too many refinements",
                    ),
                    None,
                );
            }
            let moves: Vec<_> = self
                .levels
                .iter()
                .map(|l| l.partition.moves(&l.lts))
                .collect();
            let initial: Vec<usize> = self.levels.iter().map(|l| l.partition.block[0]).collect();
            self.stats.abstract_states =
                self.levels.iter().map(|l| l.partition.blocks as u64).sum();
            self.stats.symbolic_states =
                self.levels.iter().map(|l| l.abs.states.len() as u64).sum();
            let deadline = self.smt.deadline();
            let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
            let found = compose::search(
                self.comps,
                &moves,
                &initial,
                self.goal_base(),
                MAX_GLOBAL_STATES,
                &out_of_time,
            );
            let (actions, goal) = match found {
                None => return (Verdict::Unknown(Unknown::time()), None),
                Some(Search::TooBig) => {
                    return (
                        Verdict::unknown(
                            UnknownKind::Budget(Limit::States),
                            format!(
                                "MAGIC: the composition has more than {MAX_GLOBAL_STATES} states"
                            ),
                        ),
                        None,
                    )
                }
                Some(Search::Safe(reach)) => {
                    self.note_predicates();
                    return (
                        Verdict::Safe(Proof::Compositional),
                        invariant::invariants(self.comps, &self.levels, &reach),
                    );
                }
                Some(Search::Counterexample { actions, goal }) => (actions, goal),
            };
            match self.refine(&actions, goal) {
                Ok(None) => {}
                Ok(Some(answer)) => {
                    self.note_predicates();
                    return answer;
                }
                Err(e) => return stopped(e),
            }
        }
    }

    fn note_predicates(&mut self) {
        self.stats.predicates = self
            .levels
            .iter()
            .flat_map(|l| &l.preds)
            .filter_map(|a| literal(a, true))
            .map(|c| self.program.named(&c).to_string())
            .collect();
    }

    /// Thread `i`'s projection of a counterexample.
    fn projection(&self, i: usize, actions: &[usize], goal: usize) -> Vec<usize> {
        let mut out = self.own_actions(i, actions);
        out.push(self.goal_base() + goal);
        out
    }

    /// Thread `i`'s actions of a counterexample, in order.
    fn own_actions(&self, i: usize, actions: &[usize]) -> Vec<usize> {
        let mine = actions.iter().copied();
        mine.filter(|&a| self.comps.actions[a].thread == i)
            .collect()
    }

    /// Refines after the abstract counterexample; `Some`: the answer.
    fn refine(&mut self, actions: &[usize], goal: usize) -> Result<Option<Answer>, SmtError> {
        match self.refine_partitions(actions, goal) {
            Ok(true) => return Ok(None),
            Ok(false) => {}
            Err(answer) => return Ok(Some(answer)),
        }
        let new_preds = match self.check_projections(actions, goal)? {
            Projections::Feasible(runs) => return Ok(Some(self.counterexample(actions, &runs))),
            Projections::Spurious(new_preds) => new_preds,
            Projections::Broken(why) => return Ok(Some(internal(why))),
        };
        if new_preds.iter().all(|(_, p)| p.is_empty()) {
            return Ok(Some((
                Verdict::unknown(
                    UnknownKind::NoProof,
                    "MAGIC: a spurious counterexample gave no new predicate",
                ),
                None,
            )));
        }
        for (i, fresh) in new_preds {
            let mut preds = self.levels[i].preds.clone();
            preds.extend(fresh);
            match self.level(i, preds) {
                Ok(l) => self.levels[i] = l,
                Err(answer) => return Ok(Some(answer)),
            }
        }
        Ok(None)
    }

    /// The second level: the partitions of the threads whose predicate
    /// abstraction rejects their projection are split until they reject it
    /// too. Whether any was.
    fn refine_partitions(&mut self, actions: &[usize], goal: usize) -> Result<bool, Answer> {
        let mut refined = false;
        for i in 0..self.levels.len() {
            let trace = self.projection(i, actions, goal);
            let level = &mut self.levels[i];
            if !accepts(&level.lts, &trace) {
                if !level.partition.refine(&level.lts, &trace) {
                    return Err(internal("the action-guided refinement made no progress"));
                }
                refined = true;
            }
        }
        Ok(refined)
    }

    /// The first level: each thread's projection on its variables.
    fn check_projections(
        &mut self,
        actions: &[usize],
        goal: usize,
    ) -> Result<Projections, SmtError> {
        let mut runs = Vec::with_capacity(self.levels.len());
        let mut new_preds = Vec::new();
        for i in 0..self.levels.len() {
            let comp = &self.comps.threads[i];
            let part = self.comps.goal_actions[goal]
                .parts
                .iter()
                .find(|(t, _)| *t == i)
                .map(|(_, p)| p);
            let mine = self.own_actions(i, actions);
            let level = &self.levels[i];
            let Some(path) = concrete::abstract_path(&level.abs, comp, i, &mine, part, self.smt)?
            else {
                return Ok(Projections::Broken(
                    "a projection the abstraction accepts has no abstract path",
                ));
            };
            match concrete::check(comp, self.comps.vars, i, &path, part, self.smt)? {
                Check::Feasible(run) => runs.push(run),
                Check::Infeasible(atoms) => {
                    let fresh = atoms.into_iter().filter(|a| !level.preds.contains(a));
                    new_preds.push((i, fresh.collect()));
                }
            }
        }
        Ok(match new_preds.is_empty() {
            true => Projections::Feasible(runs),
            false => Projections::Spurious(new_preds),
        })
    }

    /// The program's counterexample from the threads' runs, interleaved as
    /// the abstract counterexample orders their actions; replayed.
    fn counterexample(&self, actions: &[usize], runs: &[Run]) -> Answer {
        let p = self.program;
        let mut values: Vec<i128> = p
            .vars
            .iter()
            .map(|d| d.init.map_or(0, i128::from))
            .collect();
        for run in runs {
            for &(v, x) in &run.initial {
                values[v.index()] = x;
            }
        }
        let mut cursor = vec![0usize; runs.len()];
        let mut steps: Vec<(TransId, Vec<(VarId, i128)>)> = Vec::new();
        let take_until_action = |i: usize, steps: &mut Vec<_>, cursor: &mut [usize]| {
            let run = &runs[i];
            while cursor[i] < run.steps.len() {
                let (k, t, ref inputs) = run.steps[cursor[i]];
                cursor[i] += 1;
                steps.push((t, inputs.clone()));
                if self.comps.threads[i].steps[k].action.is_some() {
                    break;
                }
            }
        };
        for &a in actions {
            let i = self.comps.actions[a].thread;
            take_until_action(i, &mut steps, &mut cursor);
        }
        for i in 0..runs.len() {
            while cursor[i] < runs[i].steps.len() {
                take_until_action(i, &mut steps, &mut cursor);
            }
        }
        match Trace::execute(p, values, &steps) {
            Ok(trace) => (Verdict::Unsafe(trace), None),
            Err(e) => internal(&format!(
                "the composed counterexample does not replay ({e:?})"
            )),
        }
    }
}

fn internal(why: &str) -> Answer {
    (
        Verdict::unknown(
            UnknownKind::Internal,
            format!("internal error: MAGIC: {why}"),
        ),
        None,
    )
}
