//! Verdicts and traces for people (text) and programs (JSON).

use engine::interp::State;
use engine::ir::{Program, ThreadId};
use engine::verdict::{Outcome, Stats, Trace, Verdict};
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// The variables' values, then the array elements known by index (those
/// written, and those read of arrays with arbitrary initial contents).
fn values(p: &Program, s: &State) -> String {
    let elements = p.arrays.iter().zip(&s.arrays).flat_map(|(d, a)| {
        a.cells
            .iter()
            .map(move |(i, v)| format!("{}[{i}] = {v}", d.name))
    });
    p.vars
        .iter()
        .zip(&s.vals)
        .map(|(d, v)| format!("{} = {v}", d.name))
        .chain(elements)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The stores of a step, `a[i] := v`, evaluated in the state before it.
fn stores(p: &Program, t: &engine::ir::Transition, before: &State) -> Vec<String> {
    let eval = |e| engine::interp::eval_term_in(e, before).map_or("?".into(), |v| v.to_string());
    t.stores
        .iter()
        .map(|st| {
            let name = &p.arrays[st.array.index()].name;
            format!("{name}[{}] := {}", eval(&st.index), eval(&st.value))
        })
        .collect()
}

fn locations(p: &Program, s: &State) -> String {
    p.threads
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}@{}", t.name, p.loc_name(ThreadId::new(i), s.locs[i])))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The trace, one line per step.
pub fn trace_text(p: &Program, trace: &Trace) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  initial state  [{}]", locations(p, &trace.initial));
    let shown = !p.vars.is_empty() || !p.arrays.is_empty();
    if shown {
        let _ = writeln!(out, "      {}", values(p, &trace.initial));
    }
    let mut before = &trace.initial;
    for (i, step) in trace.steps.iter().enumerate() {
        let t = p.transition(step.transition);
        let thread = &p.thread(t.thread).name;
        let _ = write!(
            out,
            "  {:>3}. {thread}: {} ({} -> {})",
            i + 1,
            t.label,
            p.loc_name(t.thread, t.from),
            p.loc_name(t.thread, t.to)
        );
        if !step.inputs.is_empty() {
            let inputs: Vec<String> = step
                .inputs
                .iter()
                .map(|(v, x)| format!("{} = {x}", p.var(*v).name))
                .collect();
            let _ = write!(out, "  input {}", inputs.join(", "));
        }
        let changed: Vec<String> = t
            .assigns
            .iter()
            .map(|a| {
                format!(
                    "{} := {}",
                    p.var(a.var).name,
                    step.state.vals[a.var.index()]
                )
            })
            .chain(stores(p, t, before))
            .collect();
        if !changed.is_empty() {
            let _ = write!(out, "  {}", changed.join(", "));
        }
        out.push('\n');
        if shown {
            let _ = writeln!(out, "      {}", values(p, &step.state));
        }
        before = &step.state;
    }
    out
}

pub(crate) fn stats_text(s: &Stats) -> String {
    let slicing = s.slicing.as_ref().map_or(String::new(), |c| {
        format!(
            ", slices: kept {} of {} variables, {} spurious counterexample{}",
            c.kept,
            c.variables,
            c.spurious,
            if c.spurious == 1 { "" } else { "s" }
        )
    });
    format!(
        "iterations: {}, prover queries: {}, predicates: {}, symbolic states: {}, abstract states: {}{slicing}, time: {:.3} s",
        s.iterations,
        s.prover_queries,
        s.predicates.len(),
        s.symbolic_states,
        s.abstract_states,
        s.time.as_secs_f64()
    )
}

/// The verdict as text.
pub fn text(p: &Program, o: &Outcome) -> String {
    let mut out = String::new();
    match &o.verdict {
        Verdict::Safe(proof) => {
            let _ = writeln!(out, "safe (proved by the {})", proof.describe());
        }
        Verdict::Unsafe(trace) => {
            let n = trace.steps.len();
            let _ = writeln!(
                out,
                "unsafe: an error state is reachable in {n} step{}",
                if n == 1 { "" } else { "s" }
            );
            out.push_str(&trace_text(p, trace));
        }
        Verdict::Unknown(reason) => {
            let _ = writeln!(out, "unknown: {reason}");
        }
    }
    let _ = writeln!(out, "{}", stats_text(&o.stats));
    out
}

/// An integer as a JSON number, or as a string when it does not fit in 64
/// bits (JSON readers commonly lose precision beyond that).
pub(crate) fn int_json(v: i128) -> Value {
    match i64::try_from(v) {
        Ok(v) => json!(v),
        Err(_) => json!(v.to_string()),
    }
}

fn state_json(p: &Program, s: &State) -> Value {
    let mut locs = Map::new();
    for (i, t) in p.threads.iter().enumerate() {
        locs.insert(
            t.name.clone(),
            json!(p.loc_name(ThreadId::new(i), s.locs[i])),
        );
    }
    let mut vals = Map::new();
    for (d, v) in p.vars.iter().zip(&s.vals) {
        vals.insert(d.name.clone(), int_json(*v));
    }
    if p.arrays.is_empty() {
        return json!({ "locations": locs, "values": vals });
    }
    let mut arrays = Map::new();
    for (d, a) in p.arrays.iter().zip(&s.arrays) {
        let known: Vec<Value> = a
            .cells
            .iter()
            .map(|(i, v)| json!({ "index": int_json(*i), "value": int_json(*v) }))
            .collect();
        arrays.insert(d.name.clone(), json!(known));
    }
    json!({ "locations": locs, "values": vals, "arrays": arrays })
}

/// The trace as JSON.
pub fn trace_json(p: &Program, trace: &Trace) -> Value {
    let steps: Vec<Value> = trace
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let t = p.transition(step.transition);
            let mut inputs = Map::new();
            for (v, x) in &step.inputs {
                inputs.insert(p.var(*v).name.clone(), int_json(*x));
            }
            let mut s = state_json(p, &step.state);
            let obj = s.as_object_mut().expect("state is an object");
            obj.insert("step".into(), json!(i + 1));
            obj.insert("thread".into(), json!(p.thread(t.thread).name));
            obj.insert("transition".into(), json!(t.label));
            obj.insert("from".into(), json!(p.loc_name(t.thread, t.from)));
            obj.insert("to".into(), json!(p.loc_name(t.thread, t.to)));
            obj.insert("inputs".into(), Value::Object(inputs));
            s
        })
        .collect();
    json!({ "initial": state_json(p, &trace.initial), "steps": steps })
}

/// The outcome as one JSON object.
pub fn json(p: &Program, o: &Outcome) -> Value {
    let mut v = json!({
        "verdict": o.verdict.name(),
        "stats": {
            "iterations": o.stats.iterations,
            "prover_queries": o.stats.prover_queries,
            "predicates": { "count": o.stats.predicates.len(), "list": o.stats.predicates },
            "symbolic_states": o.stats.symbolic_states,
            "abstract_states": o.stats.abstract_states,
            "time": o.stats.time.as_secs_f64(),
        },
        "model": {
            "threads": p.threads.len(),
            "locations": p.threads.iter().map(|t| t.locs.len()).sum::<usize>(),
            "transitions": p.transitions.len(),
            "variables": p.vars.len(),
            "arrays": p.arrays.len(),
        }
    });
    let obj = v.as_object_mut().expect("object");
    if let Some(slicing) = &o.stats.slicing {
        obj["stats"]["slicing"] = json!(slicing);
    }
    match &o.verdict {
        Verdict::Safe(proof) => {
            obj.insert("check".into(), json!(proof.short()));
            obj.insert("proof".into(), json!(proof.describe()));
        }
        Verdict::Unsafe(trace) => {
            obj.insert("trace".into(), trace_json(p, trace));
        }
        Verdict::Unknown(reason) => {
            obj.insert("reason".into(), json!(reason.detail));
            obj.insert("unknown_kind".into(), json!(reason.kind.name()));
        }
    }
    v
}
