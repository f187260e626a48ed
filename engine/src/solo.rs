//! A run of one thread alone, found by symbolic execution: the inputs of
//! its havoc steps are Z3 constants, each step's guard is checked for
//! satisfiability, and the end state must have given values.
//!
//! Replaying a counterexample of the reduced program on the unreduced one
//! (`lowering::unreduced`) replays each reduced step as a run of its thread
//! in the fine-grained program. Trying candidate input values concretely
//! finds most runs; an input the reduction decided away (`argc == 3`, then
//! the counts of two `sscanf` calls, before the values the reduced trace
//! read) may need a combination no candidate ordering reaches in time.
//! Nothing found here is trusted: the caller executes the run concretely.

use crate::bmc::{cond, loc, term, Frame};
use crate::interp::State;
use crate::ir::{LocId, Program, Rhs, ThreadId, TransId, VarId};
use crate::smt::{Smt, Space};
use std::collections::HashMap;
use std::time::Instant;
use z3::ast::{Bool, Int};

/// A step of a run: transition and the values of its inputs.
pub type Move = (TransId, Vec<(VarId, i128)>);

/// What the run must reach.
pub struct Goal<'a> {
    /// Whether the run may end at this location of the thread (at least one
    /// step is taken; a run reaching such a location ends there).
    pub arrived: &'a dyn Fn(LocId) -> bool,
    /// Values the end state must give these variables.
    pub agree: &'a [(VarId, i128)],
}

/// Limits of the search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Satisfiability checks.
    pub checks: usize,
    /// Steps of a run.
    pub depth: usize,
    /// Visits of one location on a run.
    pub visits: u32,
    /// Give up at this time.
    pub deadline: Instant,
}

/// A run of thread `t` alone from `s` to a location `goal` accepts, in
/// which the end state agrees with `goal`; depth-first over the thread's
/// transitions in program order. `None` when the limits end the search
/// first or there is no such run within them.
pub fn run(
    program: &Program,
    s: &State,
    t: ThreadId,
    goal: &Goal<'_>,
    limits: Limits,
) -> Option<Vec<Move>> {
    if program.has_arrays() {
        return None;
    }
    let mut search = Search {
        program,
        t,
        smt: Smt::new(Some(limits.deadline)),
        locs: s.locs.iter().map(|&l| loc(l)).collect(),
        goal,
        limits,
        checks: 0,
        next_sym: 0,
        path: Vec::new(),
        visits: HashMap::new(),
    };
    let vals: Vec<Int> = s.vals.iter().map(|&v| Int::from_i128(v)).collect();
    search.from(&vals, s.locs[t.index()])
}

struct Search<'a> {
    program: &'a Program,
    t: ThreadId,
    smt: Smt,
    /// Every thread's location (the searched thread's is set per step).
    locs: Vec<Int>,
    goal: &'a Goal<'a>,
    limits: Limits,
    checks: usize,
    next_sym: u32,
    /// The steps taken, with the symbols of their inputs.
    path: Vec<(TransId, Vec<(VarId, u32)>)>,
    /// Visits per location on the current path.
    visits: HashMap<LocId, u32>,
}

impl Search<'_> {
    /// Whether the constraints asserted are satisfiable, within the limits
    /// (`None` ends the search).
    fn check(&mut self) -> Option<bool> {
        self.checks += 1;
        if self.checks > self.limits.checks {
            return None;
        }
        self.smt.check().ok()
    }

    fn from(&mut self, vals: &[Int], at: LocId) -> Option<Vec<Move>> {
        if !self.path.is_empty() && (self.goal.arrived)(at) {
            return self.end(vals);
        }
        if self.path.len() >= self.limits.depth {
            return None;
        }
        let visits = self.visits.entry(at).or_insert(0);
        if *visits >= self.limits.visits {
            return None;
        }
        *visits += 1;
        let found = self.steps(vals, at);
        if let Some(v) = self.visits.get_mut(&at) {
            *v -= 1;
        }
        found
    }

    /// The runs through each transition from `at`.
    fn steps(&mut self, vals: &[Int], at: LocId) -> Option<Vec<Move>> {
        let program = self.program;
        let mut locs = self.locs.clone();
        locs[self.t.index()] = loc(at);
        let frame = Frame {
            vars: vals.to_vec(),
            locs,
            arrays: Vec::new(),
        };
        for &id in &program.threads[self.t.index()].transitions {
            let tr = program.transition(id);
            if tr.from != at {
                continue;
            }
            let mut next = vals.to_vec();
            let mut inputs = Vec::new();
            for a in &tr.assigns {
                next[a.var.index()] = match &a.rhs {
                    Rhs::Expr(e) => term(e, &frame),
                    Rhs::Nondet => {
                        let sym = self.next_sym;
                        self.next_sym += 1;
                        inputs.push((a.var, sym));
                        self.smt.constant(Space::Symbolic, sym)
                    }
                };
            }
            self.smt.push();
            self.smt.assert(&cond(&tr.guard, &frame));
            let feasible = self.check();
            let found = match feasible {
                None => {
                    self.smt.pop();
                    return None;
                }
                Some(false) => None,
                Some(true) => {
                    self.path.push((id, inputs));
                    let found = self.from(&next, tr.to);
                    self.path.pop();
                    found
                }
            };
            self.smt.pop();
            if found.is_some() || self.checks > self.limits.checks {
                return found;
            }
        }
        None
    }

    /// The run of the current path, if its end can agree with the goal.
    fn end(&mut self, vals: &[Int]) -> Option<Vec<Move>> {
        let agree: Vec<Bool> = self
            .goal
            .agree
            .iter()
            .map(|&(v, x)| vals[v.index()].eq(Int::from_i128(x)))
            .collect();
        self.smt.push();
        self.smt.assert(&Bool::and(&agree));
        let model = if self.check() == Some(true) {
            self.smt.check_model().ok().flatten()
        } else {
            None
        };
        let run = model.and_then(|m| {
            self.path
                .iter()
                .map(|(id, inputs)| {
                    let values = inputs
                        .iter()
                        .map(|&(v, sym)| Some((v, self.smt.value(&m, Space::Symbolic, sym).ok()?)))
                        .collect::<Option<Vec<_>>>()?;
                    Some((*id, values))
                })
                .collect::<Option<Vec<Move>>>()
        });
        self.smt.pop();
        run
    }
}
