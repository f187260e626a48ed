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

/// Replays the witness: maps each edge to the one enabled transition of the
/// edge's thread (`threadId`, numbered by `createThread`), with the inputs
/// the edge gives (`assumption` `\result == v` for a `__VERIFIER_nondet_*`
/// call, `ase-inputs` for the rest), checks that the transition's statement
/// is at the edge's `startline`, runs the interpreter, and requires the
/// last state to be an error state at `reach_error` (not a give-up).
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
    let init: Vec<i128> = p
        .vars
        .iter()
        .map(|v| v.init.map_or(0, i128::from))
        .collect();
    let mut state: State = interp::initial_state(p, init).map_err(|e| e.to_string())?;
    let mut threads: HashMap<String, ThreadId> = HashMap::from([("0".to_string(), ThreadId(0))]);
    let mut last_thread = "0".to_string();
    let mut report = Replayed {
        steps: 0,
        assumptions: 0,
        threads_created: 0,
    };
    for (i, e) in path.iter().enumerate() {
        let at = |msg: String| format!("edge {} ({} -> {}): {msg}", i + 1, e.source, e.target);
        let tid_name = e
            .data
            .get("threadId")
            .cloned()
            .unwrap_or(last_thread.clone());
        last_thread = tid_name.clone();
        let th = *threads
            .get(&tid_name)
            .ok_or_else(|| at(format!("thread {tid_name} was not created")))?;
        // Inputs named by this tool's key, then the standard assumption.
        let mut given: HashMap<VarId, i128> = HashMap::new();
        if let Some(list) = e.data.get("ase-inputs") {
            for item in list.split(';').filter(|s| !s.is_empty()) {
                let (name, value) = item
                    .split_once('=')
                    .ok_or_else(|| at(format!("bad ase-inputs item `{item}`")))?;
                let v = p
                    .var_by_name(name)
                    .ok_or_else(|| at(format!("unknown variable `{name}`")))?;
                let x: i128 = value
                    .parse()
                    .map_err(|_| at(format!("bad value `{value}`")))?;
                given.insert(v, x);
            }
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
        let mut enabled: Vec<(TransId, Vec<(VarId, i128)>)> = Vec::new();
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
            if interp::step(p, &state, t, &inputs).is_ok() {
                enabled.push((t, inputs));
            }
        }
        let (t, inputs) = match enabled.as_slice() {
            [one] => one.clone(),
            [] => {
                return Err(at(format!(
                    "no transition of thread {tid_name} ({}) is enabled with these inputs at {}",
                    p.thread(th).name,
                    p.loc_name(th, state.locs[th.index()])
                )))
            }
            _ => return Err(at("several transitions are enabled (ambiguous edge)".into())),
        };
        if let Some(line) = startline {
            let actual = p
                .transition_span(t)
                .and_then(|s| loc.locate_ir(s))
                .map(|l| l.line);
            if actual != Some(line) {
                return Err(at(format!(
                    "startline {line}, but the step is at line {}",
                    actual.map_or("?".into(), |l| l.to_string())
                )));
            }
        }
        if assumed.is_some() {
            report.assumptions += 1;
        }
        let next = interp::step(p, &state, t, &inputs).map_err(|e| at(e.to_string()))?;
        if let Some(id) = e.data.get("createThread") {
            let tr = p.transition(t);
            let created: Vec<usize> = lowered
                .threads
                .iter()
                .enumerate()
                .filter(|(_, ti)| {
                    ti.run.is_some_and(|r| {
                        tr.assigns.iter().any(|a| a.var == r) && next.vals[r.index()] == 1
                    })
                })
                .map(|(k, _)| k)
                .collect();
            let [k] = created.as_slice() else {
                return Err(at(format!(
                    "createThread {id}, but the step creates {} threads",
                    created.len()
                )));
            };
            if threads.insert(id.clone(), ThreadId::new(*k)).is_some() {
                return Err(at(format!("thread id {id} is created twice")));
            }
            report.threads_created += 1;
        }
        state = next;
        report.steps += 1;
    }
    if !interp::is_error(p, &state).map_err(|e| e.to_string())? {
        return Err("the witness path does not end in an error state".into());
    }
    match lowered.trace_end(&state) {
        TraceEnd::Error => Ok(report),
        TraceEnd::GiveUp(why) => Err(format!(
            "the witness path ends in behaviour that is not modelled: {why}"
        )),
    }
}
