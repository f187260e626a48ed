//! Replays a violation witness on the lowered program with the engine's
//! interpreter: the path it describes must reach the error.

use crate::graphml::Witness;
use crate::source::Locator;
use engine::interp::{self, State};
use engine::ir::{Rhs, ThreadId, TransId, VarId};
use frontend::ParsedUnit;
use lowering::{Lowered, TraceEnd, VarOrigin};
use std::collections::HashMap;
use std::path::Path;

/// What a successful replay found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// Steps taken (one per witness edge).
    pub steps: usize,
    /// Inputs fixed by the standard `assumption` key.
    pub assumptions: usize,
    /// Threads created along the path.
    pub threads_created: usize,
}

fn parse_result_assumption(a: &str) -> Option<i128> {
    let a = a.trim().trim_end_matches(';').trim();
    let rest = a
        .strip_prefix("\\result")?
        .trim_start()
        .strip_prefix("==")?;
    rest.trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .parse()
        .ok()
}

/// Where the replay stands after some edges: the state, the witness thread
/// ids bound so far, the thread of the last edge, the figures.
#[derive(Clone)]
struct Position {
    edge: usize,
    state: State,
    threads: HashMap<String, ThreadId>,
    last_thread: String,
    report: Replayed,
}

/// Replayed positions explored at most; a witness whose edges leave this
/// many choices open is rejected.
const MAX_POSITIONS: usize = 100_000;

/// Replays the witness: maps each edge to a transition of the edge's thread
/// (`threadId`, numbered by `createThread`) that is enabled with the inputs
/// the edge gives (`assumption` `\result == v` for a `__VERIFIER_nondet_*`
/// call, `ase-inputs` for the rest) and whose statement is at the edge's
/// `startline`, runs the interpreter, and requires the last state to be an
/// error state at `reach_error` (not a give-up). When an edge fits several
/// transitions (the IR branches where the C line does not), each is tried,
/// as a validator explores the program and the witness together; the
/// witness replays if one choice reaches the error.
pub fn replay(
    w: &Witness,
    unit: &ParsedUnit,
    file: &Path,
    lowered: &Lowered,
) -> Result<Replayed, String> {
    if w.graph.get("witness-type").map(String::as_str) != Some("violation_witness") {
        return Err("not a violation witness".into());
    }
    let p = &lowered.program;
    let loc = Locator::new(unit, file);
    let path = w.path()?;
    let mut init: Vec<i128> = interp::fixed_initial_values(p)
        .into_iter()
        .map(|v| v.unwrap_or(0))
        .collect();
    if let Some(list) = w.graph.get("ase-initial") {
        for (v, x) in parse_inputs(p, list)? {
            init[v.index()] = x;
        }
    }
    let state: State = interp::initial_state(p, init).map_err(|e| e.to_string())?;
    let mut stack = vec![Position {
        edge: 0,
        state,
        threads: HashMap::from([("0".to_string(), ThreadId(0))]),
        last_thread: "0".to_string(),
        report: Replayed {
            steps: 0,
            assumptions: 0,
            threads_created: 0,
        },
    }];
    // The error of the choice that got furthest: the one to report.
    let mut failure: Option<(usize, String)> = None;
    let mut fail = |edge: usize, msg: String| {
        if failure.as_ref().is_none_or(|(e, _)| edge >= *e) {
            failure = Some((edge, msg));
        }
    };
    let mut explored = 0;
    while let Some(pos) = stack.pop() {
        explored += 1;
        if explored > MAX_POSITIONS {
            return Err(format!(
                "the witness leaves too many choices open ({MAX_POSITIONS} positions tried)"
            ));
        }
        if pos.edge == path.len() {
            match end(p, lowered, &pos.state) {
                Ok(()) => return Ok(pos.report),
                Err(msg) => fail(pos.edge, msg),
            }
            continue;
        }
        match successors(p, lowered, &loc, path[pos.edge], &pos) {
            Ok(next) => stack.extend(next.into_iter().rev()),
            Err(msg) => fail(pos.edge, msg),
        }
    }
    Err(failure.map_or_else(|| "the witness has no path".into(), |(_, msg)| msg))
}

/// The values of `ase-inputs` or `ase-initial`: `name=value;...` of IR
/// variables.
fn parse_inputs(p: &engine::ir::Program, list: &str) -> Result<Vec<(VarId, i128)>, String> {
    list.split(';')
        .filter(|s| !s.is_empty())
        .map(|item| {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("bad item `{item}` of ase-inputs or ase-initial"))?;
            let v = p
                .var_by_name(name)
                .ok_or_else(|| format!("unknown variable `{name}`"))?;
            let x: i128 = value.parse().map_err(|_| format!("bad value `{value}`"))?;
            Ok((v, x))
        })
        .collect()
}

/// The last state must be an error state: at `reach_error`, or two
/// accesses that race (when the lowering checks races).
pub(crate) fn end(p: &engine::ir::Program, lowered: &Lowered, state: &State) -> Result<(), String> {
    if !interp::is_error(p, state).map_err(|e| e.to_string())? {
        return Err("the witness path does not end in an error state".into());
    }
    match lowered.trace_end(state) {
        TraceEnd::Error | TraceEnd::Race(..) | TraceEnd::Violation(_) | TraceEnd::Deadlock(_) => {
            Ok(())
        }
        TraceEnd::GiveUp(why) => Err(format!(
            "the witness path ends in behaviour that is not modelled: {why}"
        )),
    }
}

/// The positions after the edge `e` from `pos`, one per transition that
/// fits it.
fn successors(
    p: &engine::ir::Program,
    lowered: &Lowered,
    loc: &Locator<'_>,
    e: &crate::graphml::Edge,
    pos: &Position,
) -> Result<Vec<Position>, String> {
    let i = pos.edge;
    let state = &pos.state;
    let at = |msg: String| format!("edge {} ({} -> {}): {msg}", i + 1, e.source, e.target);
    let tid_name = e
        .data
        .get("threadId")
        .cloned()
        .unwrap_or(pos.last_thread.clone());
    let th = *pos
        .threads
        .get(&tid_name)
        .ok_or_else(|| at(format!("thread {tid_name} was not created")))?;
    // Inputs named by this tool's key, then the standard assumption.
    let mut given: HashMap<VarId, i128> = HashMap::new();
    if let Some(list) = e.data.get("ase-inputs") {
        given.extend(parse_inputs(p, list).map_err(at)?);
    }
    let assumed = match (
        e.data.get("assumption"),
        e.data.get("assumption.resultfunction"),
    ) {
        (Some(a), Some(f)) => Some((
            f.clone(),
            parse_result_assumption(a)
                .ok_or_else(|| at(format!("cannot read the assumption `{a}`")))?,
        )),
        _ => None,
    };
    let startline: Option<u32> = e.data.get("startline").and_then(|s| s.parse().ok());
    let mut enabled: Vec<(TransId, State)> = Vec::new();
    for &t in &p.thread(th).transitions {
        let tr = p.transition(t);
        if tr.from != state.locs[th.index()] {
            continue;
        }
        let mut inputs = Vec::new();
        let mut used_assumption = false;
        let mut complete = true;
        for a in tr.assigns.iter().filter(|a| a.rhs == Rhs::Nondet) {
            let from_assumption = match (&assumed, &lowered.vars[a.var.index()].origin) {
                (Some((f, x)), VarOrigin::Nondet { function, .. }) if f == function => {
                    used_assumption = true;
                    Some(*x)
                }
                _ => None,
            };
            match from_assumption.or_else(|| given.get(&a.var).copied()) {
                Some(x) => {
                    if given.get(&a.var).is_some_and(|&g| g != x) {
                        return Err(at(format!(
                            "the assumption and ase-inputs disagree on `{}`",
                            p.var(a.var).name
                        )));
                    }
                    inputs.push((a.var, x));
                }
                None => complete = false,
            }
        }
        // Every named input must belong to this transition.
        if !complete || given.keys().any(|v| !inputs.iter().any(|(w, _)| w == v)) {
            continue;
        }
        if assumed.is_some() && !used_assumption {
            continue;
        }
        if let Ok(next) = interp::step(p, state, t, &inputs) {
            enabled.push((t, next));
        }
    }
    if enabled.is_empty() {
        return Err(at(format!(
            "no transition of thread {tid_name} ({}) is enabled with these inputs at {}",
            p.thread(th).name,
            p.loc_name(th, state.locs[th.index()])
        )));
    }
    let line_of = |t: TransId| {
        p.transition_span(t)
            .and_then(|s| loc.locate_ir(s))
            .map(|l| l.line)
    };
    if let Some(line) = startline {
        let actual = line_of(enabled[0].0);
        enabled.retain(|(t, _)| line_of(*t) == Some(line));
        if enabled.is_empty() {
            return Err(at(format!(
                "startline {line}, but the step is at line {}",
                actual.map_or("?".into(), |l| l.to_string())
            )));
        }
    }
    let mut out = Vec::new();
    let mut error = None;
    for (t, next) in enabled {
        match take(p, lowered, e, pos, &tid_name, t, next, assumed.is_some()) {
            Ok(next) => out.push(next),
            Err(msg) => error = Some(at(msg)),
        }
    }
    match (out.is_empty(), error) {
        (true, Some(msg)) => Err(msg),
        _ => Ok(out),
    }
}

/// The position after transition `t`, which leads to `next`, for the edge
/// `e`: thread creation is bound to the witness's thread id.
#[allow(clippy::too_many_arguments)]
fn take(
    p: &engine::ir::Program,
    lowered: &Lowered,
    e: &crate::graphml::Edge,
    pos: &Position,
    tid_name: &str,
    t: TransId,
    next: State,
    assumed: bool,
) -> Result<Position, String> {
    let mut new = Position {
        edge: pos.edge + 1,
        state: next,
        threads: pos.threads.clone(),
        last_thread: tid_name.to_string(),
        report: pos.report.clone(),
    };
    if assumed {
        new.report.assumptions += 1;
    }
    if let Some(id) = e.data.get("createThread") {
        let tr = p.transition(t);
        let created: Vec<usize> = lowered
            .threads
            .iter()
            .enumerate()
            .filter(|(_, ti)| {
                ti.run.is_some_and(|r| {
                    tr.assigns.iter().any(|a| a.var == r) && new.state.vals[r.index()] == 1
                })
            })
            .map(|(k, _)| k)
            .collect();
        let [k] = created.as_slice() else {
            return Err(format!(
                "createThread {id}, but the step creates {} threads",
                created.len()
            ));
        };
        if new.threads.insert(id.clone(), ThreadId::new(*k)).is_some() {
            return Err(format!("thread id {id} is created twice"));
        }
        new.report.threads_created += 1;
    }
    new.report.steps += 1;
    Ok(new)
}
