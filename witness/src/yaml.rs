//! Witnesses in the YAML formats 2.x of SV-COMP: correctness witnesses
//! (`invariant_set` with location invariants, format 2.0) and violation
//! witnesses (`violation_sequence`): format 2.0 when one thread moves,
//! format 2.2 with its concurrency extension otherwise (every waypoint
//! names its thread by `thread_id`; `main` is 0, and a thread's id is the
//! number of the `function_enter` waypoint at the `pthread_create` call
//! that starts it; the segments' order is the order of the steps across
//! threads; a data race ends in one segment holding both accesses as
//! `target` waypoints).

use crate::invariant::WitnessInvariants;
use crate::source::{Event, SourceTrace, SrcLoc};
use crate::Metadata;
use std::fmt::Write;

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn uuid(meta: &Metadata, kind: &str) -> String {
    let h =
        crate::sha256_hex(format!("{}{}{kind}", meta.program_hash, meta.creation_time).as_bytes());
    // Version-4 layout (random-looking bits from the hash).
    format!(
        "{}-{}-4{}-a{}-{}",
        &h[0..8],
        &h[8..12],
        &h[13..16],
        &h[17..20],
        &h[20..32]
    )
}

/// The LTL formulas of a specification's `CHECK( init(main()), LTL(f) )`
/// lines, joined by `&&` (`G ! call(reach_error())`, `G valid-deref`).
fn ltl(specification: &str) -> String {
    let formulas: Vec<&str> = specification
        .lines()
        .filter_map(|l| {
            let from = l.find("LTL(")? + 4;
            let to = l.rfind(')')?;
            let inner = l.get(from..to)?.trim();
            Some(inner.strip_suffix(')').unwrap_or(inner).trim())
        })
        .collect();
    if formulas.is_empty() {
        return "G ! call(reach_error())".to_string();
    }
    formulas.join(" && ")
}

fn metadata(out: &mut String, meta: &Metadata, kind: &str, version: &str) {
    let file = meta.program_file.display().to_string();
    let _ = writeln!(out, "- entry_type: {kind}");
    out.push_str("  metadata:\n");
    let _ = writeln!(out, "    format_version: {}", quote(version));
    let _ = writeln!(out, "    uuid: {}", quote(&uuid(meta, kind)));
    let _ = writeln!(out, "    creation_time: {}", quote(&meta.creation_time));
    out.push_str("    producer:\n");
    let (name, version) = meta
        .producer
        .split_once(' ')
        .unwrap_or((&meta.producer, ""));
    let _ = writeln!(out, "      name: {}", quote(name));
    let _ = writeln!(out, "      version: {}", quote(version));
    out.push_str("    task:\n");
    let _ = writeln!(out, "      input_files:\n        - {}", quote(&file));
    let _ = writeln!(
        out,
        "      input_file_hashes:\n        {}: {}",
        quote(&file),
        quote(&meta.program_hash)
    );
    let _ = writeln!(
        out,
        "      specification: {}",
        quote(&ltl(&meta.specification))
    );
    let _ = writeln!(
        out,
        "      data_model: {}",
        if meta.architecture == "32bit" {
            "ILP32"
        } else {
            "LP64"
        }
    );
    out.push_str("      language: C\n");
}

fn location(
    out: &mut String,
    indent: &str,
    meta: &Metadata,
    line: u32,
    column: u32,
    function: &str,
) {
    let _ = writeln!(out, "{indent}location:");
    let _ = writeln!(
        out,
        "{indent}  file_name: {}",
        quote(&meta.program_file.display().to_string())
    );
    let _ = writeln!(out, "{indent}  line: {line}");
    let _ = writeln!(out, "{indent}  column: {column}");
    let _ = writeln!(out, "{indent}  function: {}", quote(function));
}

/// A correctness witness: one location invariant per C position where the
/// proof gives one over the global variables.
pub fn correctness(meta: &Metadata, inv: &WitnessInvariants) -> String {
    let mut out = String::new();
    if !inv.source.is_empty() {
        let _ = writeln!(out, "# location invariants from {}", inv.source);
    }
    metadata(&mut out, meta, "invariant_set", "2.0");
    let positions = &inv.positions;
    if positions.is_empty() {
        out.push_str("  content: []\n");
        return out;
    }
    out.push_str("  content:\n");
    for (at, function, value) in positions {
        out.push_str("    - invariant:\n        type: location_invariant\n");
        location(
            &mut out,
            "        ",
            meta,
            at.line,
            at.column,
            function.as_deref().unwrap_or("main"),
        );
        let _ = writeln!(out, "        value: {}", quote(value));
        out.push_str("        format: c_expression\n");
    }
    out
}

/// One waypoint of a violation sequence.
struct Waypoint<'a> {
    kind: &'static str,
    /// The thread (format 2.2), `None` in format 2.0.
    thread: Option<usize>,
    line: u32,
    column: u32,
    function: &'a str,
    /// A `c_expression` constraint.
    constraint: Option<String>,
}

fn waypoint(out: &mut String, meta: &Metadata, w: &Waypoint<'_>) {
    let _ = writeln!(
        out,
        "        - waypoint:\n            type: {}\n            action: follow",
        w.kind
    );
    if let Some(t) = w.thread {
        let _ = writeln!(out, "            thread_id: {t}");
    }
    if let Some(c) = &w.constraint {
        let _ = writeln!(
            out,
            "            constraint:\n              value: {}\n              format: c_expression",
            quote(c)
        );
    }
    location(out, "            ", meta, w.line, w.column, w.function);
}

/// The column of the `(` that opens the call starting at `at` (where
/// format 2.x places a `function_enter` waypoint), from the program text.
fn open_paren(lines: &[&str], at: &SrcLoc) -> u32 {
    lines
        .get(at.line as usize - 1)
        .and_then(|l| l.get(at.column.saturating_sub(1) as usize..))
        .and_then(|rest| rest.find('('))
        .map_or(at.column, |k| at.column + k as u32)
}

/// The waypoints of the steps: a `function_return` per input of a located
/// `__VERIFIER_nondet_*` call (its value as `\result == v`) and, with
/// threads, a `function_enter` per thread creation. `None` when a thread
/// is created at no position of the program file (it could not be named).
fn step_waypoints<'a>(trace: &'a SourceTrace, lines: Option<&[&str]>) -> Option<Vec<Waypoint<'a>>> {
    let mut out = Vec::new();
    for step in &trace.steps {
        let function = step.function.as_deref().unwrap_or("main");
        let thread = lines.is_some().then_some(step.thread_id);
        for e in &step.events {
            match e {
                Event::Input {
                    value,
                    at: Some(at),
                    ..
                } => {
                    // The location of a return is the call's closing
                    // parenthesis.
                    let column = if at.end_line == at.line {
                        at.end_column.saturating_sub(1).max(at.column)
                    } else {
                        at.column
                    };
                    out.push(Waypoint {
                        kind: "function_return",
                        thread,
                        line: at.line,
                        column,
                        function,
                        constraint: Some(format!("\\result == {value}")),
                    });
                }
                Event::Create { at, .. } => {
                    let Some(lines) = lines else { continue };
                    let at = at.as_ref()?;
                    out.push(Waypoint {
                        kind: "function_enter",
                        thread,
                        line: at.line,
                        column: open_paren(lines, at),
                        function,
                        constraint: None,
                    });
                }
                _ => {}
            }
        }
    }
    Some(out)
}

/// The `target` waypoints: the two accesses of a data race, else the last
/// located step.
fn targets<'a>(trace: &'a SourceTrace, threads: bool) -> Option<Vec<Waypoint<'a>>> {
    if let Some(race) = &trace.race {
        return race
            .iter()
            .map(|side| {
                let at = side.at.as_ref()?;
                Some(Waypoint {
                    kind: "target",
                    thread: Some(side.thread_id),
                    line: at.line,
                    column: at.column,
                    function: side.function.as_deref().unwrap_or("main"),
                    constraint: None,
                })
            })
            .collect();
    }
    let last = trace.steps.iter().rev().find(|s| s.at.is_some())?;
    let at = last.at.as_ref()?;
    Some(vec![Waypoint {
        kind: "target",
        thread: threads.then_some(last.thread_id),
        line: at.line,
        column: at.column,
        function: last.function.as_deref().unwrap_or("main"),
        constraint: None,
    }])
}

/// A violation witness: one segment per waypoint, in the order of the
/// trace, then the segment of the target(s). Format 2.0 when only `main`
/// moves, else 2.2 with thread ids. `None` when a waypoint cannot be
/// placed in the program file, or the trace needs a value no waypoint
/// gives ([`crate::source::Step::unnamed_input`]).
pub fn violation(meta: &Metadata, trace: &SourceTrace) -> Option<String> {
    // Inputs no waypoint can name, and choices of the model (the element
    // a large array keeps exactly: its index is part of the initial state).
    if trace.steps.iter().any(|s| s.unnamed_input) || !trace.initial.is_empty() {
        return None;
    }
    let threads = trace.race.is_some() || trace.steps.iter().any(|s| s.thread.index() != 0);
    let text = if threads {
        Some(std::fs::read_to_string(&meta.program_file).ok()?)
    } else {
        None
    };
    let lines: Option<Vec<&str>> = text.as_deref().map(|t| t.lines().collect());
    let steps = step_waypoints(trace, lines.as_deref())?;
    let targets = targets(trace, threads)?;
    let mut out = String::new();
    metadata(
        &mut out,
        meta,
        "violation_sequence",
        if threads { "2.2" } else { "2.0" },
    );
    out.push_str("  content:\n");
    for w in &steps {
        out.push_str("    - segment:\n");
        waypoint(&mut out, meta, w);
    }
    out.push_str("    - segment:\n");
    for w in &targets {
        waypoint(&mut out, meta, w);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::ltl;

    #[test]
    fn specifications_are_their_ltl_formulas() {
        assert_eq!(ltl(crate::UNREACH_CALL), "G ! call(reach_error())");
        assert_eq!(
            ltl(&crate::violation_formula(lowering::Violation::Deref)),
            "G valid-deref"
        );
        assert_eq!(
            ltl(&crate::violation_formula(lowering::Violation::Overflow)),
            "G ! overflow"
        );
        let both = format!("{}\n{}", crate::UNREACH_CALL, crate::NO_DATA_RACE);
        assert_eq!(ltl(&both), "G ! call(reach_error()) && G ! data-race");
    }
}
