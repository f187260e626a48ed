//! Witnesses in the YAML format 2.0 of SV-COMP: correctness witnesses
//! (`invariant_set` with location invariants) and violation witnesses
//! (`violation_sequence`) of programs with one thread (format 2.0 has no
//! threads).

use crate::invariant::WitnessInvariants;
use crate::source::{Event, SourceTrace};
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

fn metadata(out: &mut String, meta: &Metadata, kind: &str) {
    let file = meta.program_file.display().to_string();
    let _ = writeln!(out, "- entry_type: {kind}");
    out.push_str("  metadata:\n");
    out.push_str("    format_version: \"2.0\"\n");
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
    metadata(&mut out, meta, "invariant_set");
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

/// A violation witness of a program with one thread: a `function_return`
/// waypoint per `__VERIFIER_nondet_*` call with the value it returned, and
/// the `target` waypoint at the error. `None` for traces with more than one
/// thread (format 2.0 cannot say which thread moves).
pub fn violation(meta: &Metadata, trace: &SourceTrace) -> Option<String> {
    if trace.steps.iter().any(|s| s.thread.index() != 0) {
        return None;
    }
    let mut out = String::new();
    metadata(&mut out, meta, "violation_sequence");
    out.push_str("  content:\n");
    for step in &trace.steps {
        let function = step.function.as_deref().unwrap_or("main");
        for e in &step.events {
            if let Event::Input {
                value,
                at: Some(at),
                ..
            } = e
            {
                out.push_str("    - segment:\n        - waypoint:\n            type: function_return\n            action: follow\n");
                // The location of a return is the call's closing parenthesis.
                let column = if at.end_line == at.line {
                    at.end_column.saturating_sub(1).max(at.column)
                } else {
                    at.column
                };
                location(&mut out, "            ", meta, at.line, column, function);
                let _ = writeln!(
                    out,
                    "            constraint:\n              value: {}\n              format: c_expression",
                    quote(&format!("\\result == {value}"))
                );
            }
        }
    }
    let last = trace.steps.iter().rev().find(|s| s.at.is_some())?;
    let at = last.at.as_ref()?;
    out.push_str(
        "    - segment:\n        - waypoint:\n            type: target\n            action: follow\n",
    );
    location(
        &mut out,
        "            ",
        meta,
        at.line,
        at.column,
        last.function.as_deref().unwrap_or("main"),
    );
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
