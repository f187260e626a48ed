//! Replaying a counterexample of the reduced program on the unreduced one
//! (SOUNDNESS.md, "Reduction", and ARCHITECTURE.md).
//!
//! The reduction merges steps of one thread into single transitions; a bug
//! it reports must be a bug of the program without it. The two programs
//! come from the same CFGs (the lowering is deterministic; the reduction
//! only merges edges and drops locations), so their variables are the same
//! (same [`engine::ir::VarId`]s) and their locations are matched by the CFG
//! location they stand for ([`LocOrigin`]). Every step of the reduced trace
//! — thread `T` from location `A` to `B` — is replayed as a run of `T`
//! alone in the unreduced program from `A`'s CFG location to `B`'s: a
//! depth-first search over `T`'s transitions (a run of one thread is
//! deterministic but for its inputs), whose inputs are taken from the
//! reduced trace first (the value the reduced step chose for the same
//! variable, then the value the variable has after it), then from small
//! candidates; when no run so found agrees with the reduced trace, a
//! symbolic search of the thread's runs ([`engine::solo`]) solves the
//! inputs with Z3 (an input the reduction decided away may need a
//! combination of values no candidate order reaches). A havoc step of the reduced trace (to an intermediate
//! location) only records its inputs for the next step of its thread. The
//! unreduced run must end in a bug of the same kind: `reach_error()`, or
//! a race on the same variable. Nothing here is trusted: the result is an
//! ordinary trace of the unreduced program, executed by the interpreter.

use std::collections::{BTreeSet, HashMap, HashSet};

use engine::interp::{self, State};
use engine::ir::{Cond, Program, Term, TransId, VarId};
use engine::verdict::Trace;

use crate::{LocOrigin, Lowered, TraceEnd};

/// Most states the search visits to replay one reduced step.
const STEP_BUDGET: usize = 200_000;
/// States searched past the first run found, for one that agrees with the
/// reduced trace's state.
const PREFERENCE_BUDGET: usize = 2_000;
/// Satisfiability checks of the symbolic search for one reduced step, when
/// the concrete one finds no run that agrees with the reduced trace.
const SOLVER_CHECKS: usize = 5_000;
/// The time the symbolic search has for one reduced step.
const SOLVER_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// Why a reduced counterexample did not replay on the unreduced program.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The two lowerings do not describe the same variables and threads.
    #[error("the reduced and the unreduced program differ in their variables or threads")]
    Mismatch,
    /// No run of the thread in the unreduced program reaches the location
    /// the reduced step reaches.
    #[error("step {step} of the reduced trace (thread `{thread}`) has no run in the unreduced program{why}")]
    Step {
        /// The step (1-based).
        step: usize,
        /// Its thread.
        thread: String,
        /// More detail (with a leading separator), or empty.
        why: String,
    },
    /// The unreduced run does not end in the same kind of bug.
    #[error("the unreduced run does not end in the bug of the reduced trace ({0})")]
    End(String),
}

/// A step of an unreduced run: transition and inputs.
type Move = (TransId, Vec<(VarId, i128)>);

/// Replays `trace`, an error trace of `reduced.program` ending in a bug
/// (`reach_error()` or a race), on `unreduced.program`; returns the
/// unreduced trace.
pub fn replay(reduced: &Lowered, unreduced: &Lowered, trace: &Trace) -> Result<Trace, ReplayError> {
    let (rp, up) = (&reduced.program, &unreduced.program);
    let same = rp.vars.len() == up.vars.len()
        && rp.vars.iter().zip(&up.vars).all(|(a, b)| a.name == b.name)
        && rp.arrays == up.arrays
        && rp.threads.len() == up.threads.len()
        && rp
            .threads
            .iter()
            .zip(&up.threads)
            .all(|(a, b)| a.name == b.name);
    if !same {
        return Err(ReplayError::Mismatch);
    }
    let initial_vals: Vec<i128> = trace
        .initial
        .vals
        .iter()
        .zip(&up.vars)
        .map(|(&v, d)| d.init.map_or(v, i128::from))
        .collect();
    // The arrays' initial contents are the reduced trace's (the elements
    // its steps read).
    let initial = interp::initial_state_with(up, initial_vals, trace.initial.arrays.clone())
        .map_err(|e| ReplayError::End(format!("initial state: {e}")))?;
    let mut cur = initial.clone();
    let mut moves: Vec<Move> = Vec::new();
    // Per thread: the literals its guards compare variables with (and
    // their neighbours): candidates for inputs the reduction decided away.
    let literals: Vec<Vec<i128>> = up
        .threads
        .iter()
        .map(|th| {
            let mut out = BTreeSet::new();
            for &id in &th.transitions {
                compared_literals(&up.transition(id).guard, &mut |k| {
                    out.extend([k - 1, k, k + 1]);
                });
            }
            out.into_iter().collect()
        })
        .collect();
    // The variables the reduced program reads: a run of the fine-grained
    // program should agree with the reduced trace on them.
    let read = reads(rp);
    // Per thread: the inputs of its last reduced havoc step.
    let mut pending: Vec<HashMap<VarId, i128>> = vec![HashMap::new(); rp.threads.len()];
    for (i, st) in trace.steps.iter().enumerate() {
        let tr = rp.transition(st.transition);
        let t = tr.thread.index();
        let target = &reduced.loc_origins[t][tr.to.index()];
        if target.havoc.is_some() {
            pending[t].extend(st.inputs.iter().copied());
            continue;
        }
        // Inputs of havoc steps the fine-grained run has not taken yet.
        let deferred: HashSet<VarId> = pending.iter().flat_map(|p| p.keys().copied()).collect();
        let hints = Hints {
            deferred: &deferred,
            chosen: &pending[t],
            after: &st.state.vals,
            ranges: &unreduced.ranges,
            literals: &literals[t],
            read: &read,
        };
        let (run, after) = run_to(up, unreduced, &cur, t, target.cfg, &hints).map_err(|why| {
            ReplayError::Step {
                step: i + 1,
                thread: rp.threads[t].name.clone(),
                why,
            }
        })?;
        moves.extend(run);
        cur = after;
        pending[t].clear();
    }
    // A thread the reduced trace leaves after a havoc step (a race on the
    // step after it): the same havoc step, which the reduction keeps.
    let last = trace.last_state();
    for (t, &l) in last.locs.iter().enumerate() {
        let origin = &reduced.loc_origins[t][l.index()];
        if origin.havoc.is_none() {
            continue;
        }
        // The same havoc set if the fine-grained program has it (the
        // reduction may have decided an input away), else one from the
        // same CFG location.
        let havoc_from = |same: bool| {
            up.threads[t].transitions.iter().copied().find(|&id| {
                let tr = up.transition(id);
                let o = &unreduced.loc_origins[t][tr.to.index()];
                tr.from == cur.locs[t]
                    && o.havoc.is_some()
                    && o.cfg == origin.cfg
                    && (!same || o == origin)
            })
        };
        let step = havoc_from(true).or_else(|| havoc_from(false));
        let Some(id) = step else {
            return Err(ReplayError::End(format!(
                "no havoc step of thread `{}` like the reduced trace's last one",
                up.threads[t].name
            )));
        };
        let inputs: Vec<(VarId, i128)> = up
            .transition(id)
            .assigns
            .iter()
            .map(|a| (a.var, pending[t].get(&a.var).copied().unwrap_or(0)))
            .collect();
        // A havoc step that cannot be taken here (its guard reads state the
        // fine-grained run reached differently) is left out: a bug of
        // another thread does not need it, and the end is compared below.
        if let Ok(next) = interp::step(up, &cur, id, &inputs) {
            cur = next;
            moves.push((id, inputs));
        }
    }
    let want = reduced.trace_end(last);
    let got = unreduced.trace_end(&cur);
    let same_end = match (&want, &got) {
        (TraceEnd::Error, TraceEnd::Error) | (TraceEnd::Deadlock(_), TraceEnd::Deadlock(_)) => true,
        (TraceEnd::Violation(a), TraceEnd::Violation(b)) => a.violation == b.violation,
        (TraceEnd::Race(a, _), TraceEnd::Race(b, _)) => {
            reduced.races[*a].var == unreduced.races[*b].var
        }
        _ => false,
    };
    if !same_end {
        return Err(ReplayError::End(format!(
            "the reduced trace ends in {}, the unreduced run in {}",
            end_name(&want),
            end_name(&got)
        )));
    }
    Trace::execute_from(up, initial, &moves).map_err(|e| ReplayError::End(e.to_string()))
}

fn end_name(e: &TraceEnd) -> String {
    match e {
        TraceEnd::Error => "a call of reach_error()".into(),
        TraceEnd::Race(..) => "a data race".into(),
        TraceEnd::Deadlock(_) => "a deadlock".into(),
        TraceEnd::Violation(v) => format!("a violation of {} ({})", v.violation.name(), v.reason),
        TraceEnd::GiveUp(r) => format!("a give-up ({r})"),
    }
}

/// Where a thread's inputs come from.
struct Hints<'a> {
    /// The inputs the reduced trace chose for the thread's step.
    chosen: &'a HashMap<VarId, i128>,
    /// The reduced state after the step.
    after: &'a [i128],
    /// The variables' ranges.
    ranges: &'a [(Option<i128>, Option<i128>)],
    /// Literals of the thread's guards.
    literals: &'a [i128],
    /// Per variable: whether the reduced program reads it.
    read: &'a [bool],
    /// Variables set by reduced havoc steps not replayed yet.
    deferred: &'a HashSet<VarId>,
}

impl Hints<'_> {
    /// Candidate values of an input to `v` within its range, best first,
    /// without repeats: the reduced trace's, then small ones, the range's
    /// ends, and the literals of the thread's guards (for an input the
    /// reduction decided away).
    fn candidates(&self, v: VarId, current: i128) -> Vec<i128> {
        let (lo, hi) = self.ranges.get(v.index()).copied().unwrap_or((None, None));
        let in_range = |c: &i128| lo.is_none_or(|l| *c >= l) && hi.is_none_or(|h| *c <= h);
        let mut out: Vec<i128> = Vec::new();
        for c in [
            self.chosen.get(&v).copied(),
            self.after.get(v.index()).copied(),
            Some(current),
            Some(0),
            Some(1),
            lo,
            hi,
        ]
        .into_iter()
        .flatten()
        {
            if in_range(&c) && !out.contains(&c) {
                out.push(c);
            }
        }
        // The literals have no repeats among themselves.
        let head = out.len();
        for &c in self.literals {
            if in_range(&c) && !out[..head].contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// Whether a state of the fine-grained run agrees with the reduced
    /// trace's state after the step on what the reduced program reads.
    fn agrees(&self, s: &State) -> bool {
        s.vals
            .iter()
            .zip(self.after)
            .zip(self.read)
            .enumerate()
            .all(|(v, ((a, b), &r))| !r || a == b || self.deferred.contains(&VarId::new(v)))
    }
}

/// Per variable: whether some guard, right-hand side or error condition of
/// `p` reads it.
fn reads(p: &Program) -> Vec<bool> {
    let mut out = vec![false; p.vars.len()];
    let mut mark = |v: VarId| out[v.index()] = true;
    for c in p.error.iter().chain(&p.init) {
        c.for_each_var(&mut mark);
    }
    for tr in &p.transitions {
        tr.guard.for_each_var(&mut mark);
        for a in &tr.assigns {
            if let engine::ir::Rhs::Expr(e) = &a.rhs {
                e.for_each_var(&mut mark);
            }
        }
    }
    out
}

/// Calls `f` on every literal `k` of a comparison `x op k` (or `k op x`)
/// with a variable `x`.
fn compared_literals(c: &Cond, f: &mut impl FnMut(i128)) {
    match c {
        Cond::Cmp(_, a, b) => {
            if let (Term::Var(_), Term::Const(k)) | (Term::Const(k), Term::Var(_)) = (a, b) {
                f(i128::from(*k));
            }
        }
        Cond::Not(a) => compared_literals(a, f),
        Cond::And(a, b) | Cond::Or(a, b) => {
            compared_literals(a, f);
            compared_literals(b, f);
        }
        Cond::True | Cond::False | Cond::At(..) => {}
    }
}

/// A run of thread `t` alone from `s` to a location standing for CFG
/// location `cfg` (at least one step), and the state it ends in:
/// depth-first, inputs from `hints`.
fn run_to(
    p: &Program,
    l: &Lowered,
    s: &State,
    t: usize,
    cfg: usize,
    hints: &Hints<'_>,
) -> Result<(Vec<Move>, State), String> {
    let origin = |loc: engine::ir::LocId| &l.loc_origins[t][loc.index()];
    let arrived = |o: &LocOrigin| o.cfg == cfg && o.havoc.is_none();
    let arrived_at = |loc: engine::ir::LocId| arrived(origin(loc));
    let mut seen: HashSet<State> = HashSet::new();
    // A state to expand and the path to it.
    let mut stack: Vec<(State, Vec<Move>)> = vec![(s.clone(), Vec::new())];
    let mut visited = 0usize;
    // The first run found, its end, and how many states were visited
    // then: a run that also agrees with the reduced state is preferred,
    // for a while.
    let mut first: Option<(Vec<Move>, State, usize)> = None;
    let mut exceeded = false;
    while let Some((state, path)) = stack.pop() {
        if !path.is_empty() && arrived(origin(state.locs[t])) {
            if hints.agrees(&state) {
                return Ok((path, state));
            }
            if first.is_none() {
                first = Some((path, state, visited));
            }
            continue;
        }
        if !seen.insert(state.clone()) {
            continue;
        }
        visited += 1;
        if let Some((_, _, at)) = &first {
            if visited > at + PREFERENCE_BUDGET {
                break;
            }
        }
        if visited > STEP_BUDGET {
            exceeded = true;
            break;
        }
        let mut next: Vec<(State, Vec<Move>)> = Vec::new();
        for &id in &p.threads[t].transitions {
            let tr = p.transition(id);
            if tr.from != state.locs[t] {
                continue;
            }
            let nondet: Vec<VarId> = tr
                .assigns
                .iter()
                .filter(|a| a.rhs == engine::ir::Rhs::Nondet)
                .map(|a| a.var)
                .collect();
            for inputs in input_choices(&nondet, &state, hints) {
                match interp::step(p, &state, id, &inputs) {
                    Ok(after) => {
                        let mut path = path.clone();
                        path.push((id, inputs));
                        next.push((after, path));
                    }
                    Err(interp::RunError::GuardFalse(_)) => {}
                    Err(e) => return Err(format!(": {e}")),
                }
            }
        }
        // Depth-first, the program's first transition and the best
        // candidate first.
        stack.extend(next.into_iter().rev());
    }
    if let Some(found) = symbolic_run(p, s, t, &arrived_at, hints) {
        return Ok(found);
    }
    match first {
        Some((path, state, _)) => Ok((path, state)),
        None if exceeded => Err(format!(": more than {STEP_BUDGET} states searched")),
        None => Err(String::new()),
    }
}

/// A run of thread `t` alone from `s` to a location `arrived` accepts
/// that agrees with the reduced trace ([`Hints::agrees`]), its inputs
/// solved by Z3 ([`engine::solo`]), executed concretely.
fn symbolic_run(
    p: &Program,
    s: &State,
    t: usize,
    arrived: &dyn Fn(engine::ir::LocId) -> bool,
    hints: &Hints<'_>,
) -> Option<(Vec<Move>, State)> {
    let agree: Vec<(VarId, i128)> = (0..p.vars.len())
        .map(VarId::new)
        .filter(|v| hints.read[v.index()] && !hints.deferred.contains(v))
        .map(|v| (v, hints.after[v.index()]))
        .collect();
    let goal = engine::solo::Goal {
        arrived,
        agree: &agree,
    };
    let limits = engine::solo::Limits {
        checks: SOLVER_CHECKS,
        depth: 512,
        visits: 16,
        deadline: std::time::Instant::now() + SOLVER_TIME,
    };
    let run = engine::solo::run(p, s, engine::ir::ThreadId::new(t), &goal, limits)?;
    let mut state = s.clone();
    for (id, inputs) in &run {
        state = interp::step(p, &state, *id, inputs).ok()?;
    }
    (arrived(state.locs[t]) && hints.agrees(&state)).then_some((run, state))
}

/// The input vectors to try for a step havocking `vars`: the i-th
/// candidate of every variable, for each i.
fn input_choices(vars: &[VarId], s: &State, hints: &Hints<'_>) -> Vec<Vec<(VarId, i128)>> {
    if vars.is_empty() {
        return vec![Vec::new()];
    }
    let cands: Vec<Vec<i128>> = vars
        .iter()
        .map(|&v| hints.candidates(v, s.vals[v.index()]))
        .collect();
    let width = cands.iter().map(Vec::len).max().unwrap_or(0);
    // A candidate list is empty only for a variable with an empty range.
    if cands.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    let mut out: Vec<Vec<(VarId, i128)>> = Vec::new();
    for i in 0..width {
        let choice: Vec<(VarId, i128)> = vars
            .iter()
            .zip(&cands)
            .map(|(&v, c)| (v, c[i.min(c.len() - 1)]))
            .collect();
        if !out.contains(&choice) {
            out.push(choice);
        }
    }
    out
}
