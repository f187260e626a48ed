//! The explicit search over programs with arrays: a bug finder, never a
//! verifier.
//!
//! Breadth-first over the interpreter's states ([`State`], arrays as maps
//! keyed by index), every input in `[-b, b]`. An element of an array of
//! arbitrary initial contents is chosen when a step first reads it: until
//! then no step has seen it (a read of an unknown element is the
//! interpreter's [`RunError::UnknownElement`]), so each value in `[-b, b]`
//! is a possible initial value, and the state records it. A trace's initial
//! contents are the elements its steps chose, so the interpreter replays it
//! ([`Trace::execute_from`]) before it is reported: an `unsafe` answer is
//! always real.
//!
//! Values other than inputs are not bounded (addresses of heap objects lie
//! far outside any bound). The bound grows, `1`, then [`MIDDLE_BOUND`],
//! then the one asked for: a bug that needs only small inputs is found in
//! the small state spaces first.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::interp::{self, RunError, State};
use crate::ir::{ArrayId, Cond, Program, Rhs, TransId, VarId};
use crate::verdict::{Limit, Outcome, Stats, Trace, Unknown, UnknownKind, Verdict};

use super::{Bounds, FxIndexSet};

/// The bound tried between 1 and the one asked for.
const MIDDLE_BOUND: i64 = 3;

/// The most combinations of elements one step (or one error check) may
/// choose: at bound `b`, as many elements as keep `(2b + 1)^k` below it.
const MAX_BRANCHES: u64 = 4096;

/// The most input combinations one step tries (a step with many inputs
/// takes them in a smaller range).
const MAX_INPUT_COMBINATIONS: u64 = 1 << 16;

/// How often (in expanded states) the deadline is checked.
const DEADLINE_EVERY: usize = 16;

/// An element chosen when first read: array, index, value.
type Choice = (ArrayId, i128, i128);

/// How a state was first reached: from which node, by which step with
/// which inputs (the initial states have none).
struct Parent {
    from: usize,
    transition: TransId,
    inputs: Vec<(VarId, i128)>,
}

/// Why a search stopped without an answer.
enum Stop {
    Time,
    Cancelled,
    States,
    Memory,
}

/// Searches `program` breadth-first for a state satisfying an error
/// condition (and `target`, when given), inputs in `[-b, b]` for growing
/// `b` up to the bound, at most `limits.max_states` states per bound.
/// `unsafe` with a replayed trace, or `unknown`.
pub(crate) fn check(
    program: &Program,
    limits: &Bounds,
    deadline: Option<Instant>,
    target: Option<&Cond>,
    cancel: Option<&AtomicBool>,
) -> Outcome {
    let (bound, max_states) = (limits.bound.max(1), limits.max_states);
    let start = Instant::now();
    let mut bounds = vec![1, MIDDLE_BOUND.min(bound), bound];
    bounds.dedup();
    let mut visited = 0;
    let mut last = Verdict::Unknown(Unknown::time());
    for (k, &b) in bounds.iter().enumerate() {
        // Each bound but the last gets half of the time left.
        let now = Instant::now();
        let until = match deadline {
            Some(d) if k + 1 < bounds.len() => Some(now + d.saturating_duration_since(now) / 2),
            d => d,
        };
        let mut search = Search::new(program, b, max_states, until, target);
        search.cancel = cancel;
        let result = search.explore();
        visited += search.visited.len() as u64;
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
        last = match result {
            Ok(Some((id, extra))) => match search.trace(id, &extra) {
                Ok(trace) => return outcome(Verdict::Unsafe(trace), visited, start),
                Err(e) => Verdict::unknown(
                    UnknownKind::Internal,
                    format!("internal error: the explicit trace does not replay ({e})"),
                ),
            },
            // The next bound's search has the rest of the time.
            Err(Stop::Time) if !out_of_time => continue,
            Ok(None) => Verdict::unknown(
                UnknownKind::NoProof,
                format!(
                    "no error with inputs and array elements in [-{b}, {b}] ({} states)",
                    search.visited.len()
                ),
            ),
            Err(stop) => stopped(stop, visited, b),
        };
        if out_of_time || cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
            break;
        }
    }
    outcome(last, visited, start)
}

/// The answer of a search cut by `stop` at bound `b`.
fn stopped(stop: Stop, visited: u64, b: i64) -> Verdict {
    match stop {
        Stop::States => Verdict::unknown(
            UnknownKind::Budget(Limit::States),
            format!("state limit reached ({visited} states within bound {b})"),
        ),
        Stop::Memory => Verdict::unknown(
            UnknownKind::Budget(Limit::Memory),
            format!("{} ({visited} states)", crate::memory::REASON),
        ),
        Stop::Time => Verdict::Unknown(Unknown::time()),
        Stop::Cancelled => Verdict::unknown(UnknownKind::Budget(Limit::Cancelled), "cancelled"),
    }
}

fn outcome(verdict: Verdict, visited: u64, start: Instant) -> Outcome {
    Outcome {
        verdict,
        stats: Stats {
            iterations: 1,
            symbolic_states: visited,
            time: start.elapsed(),
            ..Stats::default()
        },
    }
}

/// One breadth-first search at one bound.
struct Search<'a> {
    program: &'a Program,
    bound: i128,
    max_states: u64,
    deadline: Option<Instant>,
    target: Option<&'a Cond>,
    /// Set when another engine settled the question.
    cancel: Option<&'a AtomicBool>,
    /// The visited states; a state's index is its node id.
    visited: FxIndexSet<State>,
    /// Per node: how it was first reached.
    parents: Vec<Option<Parent>>,
    /// Per node: the elements chosen on the way into it.
    choices: Vec<Vec<Choice>>,
    /// Transitions of each thread by source location.
    outgoing: Vec<Vec<Vec<TransId>>>,
}

impl<'a> Search<'a> {
    fn new(
        program: &'a Program,
        bound: i64,
        max_states: u64,
        deadline: Option<Instant>,
        target: Option<&'a Cond>,
    ) -> Self {
        let outgoing = program
            .threads
            .iter()
            .map(|th| {
                let mut by_loc = vec![Vec::new(); th.locs.len()];
                for &t in &th.transitions {
                    by_loc[program.transition(t).from.index()].push(t);
                }
                by_loc
            })
            .collect();
        Search {
            program,
            bound: i128::from(bound),
            max_states,
            deadline,
            target,
            cancel: None,
            visited: FxIndexSet::default(),
            parents: Vec::new(),
            choices: Vec::new(),
            outgoing,
        }
    }

    /// Adds a state; its node id and whether it is new.
    fn add(&mut self, s: State, parent: Option<Parent>, chose: Vec<Choice>) -> (usize, bool) {
        let (id, new) = self.visited.insert_full(s);
        if new {
            self.parents.push(parent);
            self.choices.push(chose);
        }
        (id, new)
    }

    /// The error node found (with the elements the error check chose), if
    /// any.
    fn explore(&mut self) -> Result<Option<(usize, Vec<Choice>)>, Stop> {
        for (s, chose) in self.initial_states()? {
            let (id, new) = self.add(s, None, chose);
            if new {
                if let Some(extra) = self.error_in(id) {
                    return Ok(Some((id, extra)));
                }
            }
        }
        let mut next = 0;
        while next < self.visited.len() {
            if next % DEADLINE_EVERY == 0 {
                self.check_limits()?;
            }
            let id = next;
            next += 1;
            for (succ, parent, chose) in self.successors(id) {
                let (sid, new) = self.add(succ, Some(parent), chose);
                if new {
                    if let Some(extra) = self.error_in(sid) {
                        return Ok(Some((sid, extra)));
                    }
                }
            }
        }
        Ok(None)
    }

    fn check_limits(&self) -> Result<(), Stop> {
        if self.cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
            return Err(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Time);
        }
        if self.visited.len() as u64 >= self.max_states {
            return Err(Stop::States);
        }
        if crate::memory::exceeded() {
            return Err(Stop::Memory);
        }
        Ok(())
    }

    /// The initial states: every free variable in `[-b, b]`, the `init`
    /// constraints holding.
    fn initial_states(&self) -> Result<Vec<(State, Vec<Choice>)>, Stop> {
        let p = self.program;
        let fixed = interp::fixed_initial_values(p);
        let free: Vec<usize> = (0..fixed.len()).filter(|&v| fixed[v].is_none()).collect();
        let mut vals: Vec<i128> = fixed.iter().map(|v| v.unwrap_or(-self.bound)).collect();
        let mut out = Vec::new();
        loop {
            if let Ok(s) = interp::initial_state_with(p, vals.clone(), interp::initial_arrays(p)) {
                let holds = |st: &State| -> Result<bool, RunError> {
                    for c in &p.init {
                        if !interp::eval_cond(c, st)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                };
                for (st, chose, ok) in lazily(&s, self.bound, &mut |st| holds(st)) {
                    if ok {
                        out.push((st, chose));
                    }
                }
            }
            if out.len() as u64 >= self.max_states {
                return Err(Stop::States);
            }
            if !advance(&mut vals, free.iter().copied(), self.bound) {
                return Ok(out);
            }
        }
    }

    /// The successors of node `id`, each with how it was reached.
    fn successors(&self, id: usize) -> Vec<(State, Parent, Vec<Choice>)> {
        let p = self.program;
        let s = &self.visited[id];
        let mut out = Vec::new();
        for (k, by_loc) in self.outgoing.iter().enumerate() {
            for &t in &by_loc[s.locs[k].index()] {
                let tr = p.transition(t);
                let inputs: Vec<VarId> = tr
                    .assigns
                    .iter()
                    .filter(|a| matches!(a.rhs, Rhs::Nondet))
                    .map(|a| a.var)
                    .collect();
                for (g, chose, enabled) in
                    lazily(s, self.bound, &mut |st| interp::eval_cond(&tr.guard, st))
                {
                    if !enabled {
                        continue;
                    }
                    self.fire(&g, t, &inputs, &chose, id, &mut out);
                }
            }
        }
        out
    }

    /// The successors of `s` by transition `t` (its guard holds), one per
    /// combination of inputs in `[-b, b]` and of elements it chooses.
    fn fire(
        &self,
        s: &State,
        t: TransId,
        inputs: &[VarId],
        chose: &[Choice],
        from: usize,
        out: &mut Vec<(State, Parent, Vec<Choice>)>,
    ) {
        // Many inputs get a smaller bound (0 is always tried).
        let mut b = self.bound;
        while b > 0
            && ((2 * b + 1) as u64).saturating_pow(inputs.len() as u32) > MAX_INPUT_COMBINATIONS
        {
            b -= 1;
        }
        let mut vals = vec![-b; inputs.len()];
        loop {
            let given: Vec<(VarId, i128)> = inputs.iter().copied().zip(vals.clone()).collect();
            // The successor holds the elements chosen for the step (the
            // interpreter steps from the state with them).
            let steps = lazily(s, self.bound, &mut |st| {
                interp::step(self.program, st, t, &given)
            });
            for (_, more, next) in steps {
                let mut all = chose.to_vec();
                all.extend(more);
                let parent = Parent {
                    from,
                    transition: t,
                    inputs: given.clone(),
                };
                out.push((next, parent, all));
            }
            if !advance(&mut vals, 0..inputs.len(), b) {
                break;
            }
        }
    }

    /// Whether node `id` satisfies an error condition and the target, and
    /// the elements that decides (`None`: it does not).
    fn error_in(&self, id: usize) -> Option<Vec<Choice>> {
        let p = self.program;
        let s = &self.visited[id];
        lazily(s, self.bound, &mut |st| {
            let error = interp::is_error(p, st)?;
            Ok(error && self.target.map_or(Ok(true), |c| interp::eval_cond(c, st))?)
        })
        .into_iter()
        .find(|(_, _, hit)| *hit)
        .map(|(_, chose, _)| chose)
    }

    /// The trace to node `id` (with the elements `extra` the error check
    /// chose), replayed by the interpreter.
    fn trace(&self, id: usize, extra: &[Choice]) -> Result<Trace, RunError> {
        let mut steps = Vec::new();
        let mut chosen: Vec<Choice> = extra.to_vec();
        let mut cur = id;
        loop {
            chosen.extend(self.choices[cur].iter().copied());
            match &self.parents[cur] {
                Some(parent) => {
                    steps.push((parent.transition, parent.inputs.clone()));
                    cur = parent.from;
                }
                None => break,
            }
        }
        steps.reverse();
        let root = &self.visited[cur];
        let mut arrays = interp::initial_arrays(self.program);
        for (a, i, v) in chosen {
            arrays[a.index()].cells.insert(i, v);
        }
        let initial = interp::initial_state_with(self.program, root.vals.clone(), arrays)?;
        let trace = Trace::execute_from(self.program, initial, &steps)?;
        if let Some(c) = self.target {
            if !interp::eval_cond(c, trace.last_state())? {
                return Err(RunError::NotAnError);
            }
        }
        Ok(trace)
    }
}

/// Runs `f` on `s`, choosing each unknown element it reads: every value in
/// `[-b, b]`, at most [`MAX_BRANCHES`] combinations. Each result comes with the
/// state holding its choices and the choices; a run that fails otherwise
/// (an overflow) has none.
fn lazily<T>(
    s: &State,
    bound: i128,
    f: &mut dyn FnMut(&State) -> Result<T, RunError>,
) -> Vec<(State, Vec<Choice>, T)> {
    let width = (2 * bound + 1) as u64;
    let can_choose = |k: usize| width.saturating_pow(k as u32 + 1) <= MAX_BRANCHES;
    let mut out = Vec::new();
    let mut work: Vec<(State, Vec<Choice>)> = vec![(s.clone(), Vec::new())];
    while let Some((st, chose)) = work.pop() {
        match f(&st) {
            Ok(r) => out.push((st, chose, r)),
            Err(RunError::UnknownElement(a, i)) if can_choose(chose.len()) => {
                for v in -bound..=bound {
                    let mut next = st.clone();
                    next.arrays[a.index()].cells.insert(i, v);
                    let mut c = chose.clone();
                    c.push((a, i, v));
                    work.push((next, c));
                }
            }
            Err(_) => {}
        }
    }
    out
}

/// Advances the digits of `vals` at `digits` to the next combination in
/// `[-b, b]`; `false` after the last.
fn advance(vals: &mut [i128], digits: impl Iterator<Item = usize>, b: i128) -> bool {
    for d in digits {
        if vals[d] < b {
            vals[d] += 1;
            return true;
        }
        vals[d] = -b;
    }
    false
}
