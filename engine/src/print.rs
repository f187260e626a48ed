//! The printer of the `.gc` text format: the inverse of
//! [`parse_program`](crate::parse::parse_program) up to source positions.
//!
//! Layout: variable declarations, `init` constraints, threads (transitions
//! indented, explicit labels aligned), `error` predicates, separated by blank
//! lines. Expressions are printed by the [`Named`](crate::ir::Named)
//! `Display` impls, which add only the parentheses the parser needs.
//!
//! Reparsing gives back the same program when its names are identifiers
//! that are not keywords (see [`is_identifier`](crate::parse::is_identifier)),
//! each thread's locations are listed in order of first appearance (initial
//! location, then the endpoints of its transitions), the transitions are
//! grouped by thread in thread order, and generated labels are `THREAD.N`.

use std::fmt::Write;

use crate::ir::{Program, Rhs, Thread, ThreadId, Transition};

/// `var` declarations are packed onto lines up to this width.
const LINE_WIDTH: usize = 80;

/// Prints a program as `.gc` text.
pub fn print_program(p: &Program) -> String {
    let mut sections: Vec<String> = Vec::new();
    if !p.vars.is_empty() || !p.arrays.is_empty() {
        sections.push(print_vars(p));
    }
    if !p.init.is_empty() {
        let mut s = String::new();
        for c in &p.init {
            let _ = writeln!(s, "init {};", p.named(c));
        }
        sections.push(s);
    }
    for (i, t) in p.threads.iter().enumerate() {
        sections.push(print_thread(p, ThreadId::new(i), t));
    }
    if !p.error.is_empty() {
        let mut s = String::new();
        for c in &p.error {
            let _ = writeln!(s, "error {};", p.named(c));
        }
        sections.push(s);
    }
    sections.join("\n")
}

fn print_vars(p: &Program) -> String {
    let decl = |name: &str, init: Option<i64>| match init {
        Some(k) => format!("{name} = {k}"),
        None => name.to_string(),
    };
    let items = p.vars.iter().map(|v| decl(&v.name, v.init)).chain(
        p.arrays
            .iter()
            .map(|a| decl(&format!("{}[]", a.name), a.init)),
    );
    let mut out = String::new();
    let mut line = String::new();
    for item in items {
        // "var " + items joined by ", " + ";"
        if !line.is_empty() && line.len() + 2 + item.len() + 1 > LINE_WIDTH {
            let _ = writeln!(out, "{line};");
            line.clear();
        }
        if line.is_empty() {
            line.push_str("var ");
        } else {
            line.push_str(", ");
        }
        line.push_str(&item);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{line};");
    }
    out
}

fn print_thread(p: &Program, id: ThreadId, t: &Thread) -> String {
    let mut s = String::new();
    let initial = t.locs.get(t.initial.index()).map_or("?", String::as_str);
    let _ = writeln!(s, "thread {} at {} {{", t.name, initial);
    let transitions: Vec<&Transition> = t
        .transitions
        .iter()
        .filter_map(|&tr| p.transitions.get(tr.index()))
        .collect();
    // Align the transitions after their labels when there are any.
    let label_width = transitions
        .iter()
        .filter(|tr| tr.explicit_label)
        .map(|tr| tr.label.len() + 2)
        .max()
        .unwrap_or(0);
    for tr in transitions {
        let label = if tr.explicit_label {
            format!("{}:", tr.label)
        } else {
            String::new()
        };
        let _ = write!(
            s,
            "  {label:<label_width$}{} -> {}",
            p.loc_name(id, tr.from),
            p.loc_name(id, tr.to)
        );
        if tr.guard != crate::ir::Cond::True {
            let _ = write!(s, " when {}", p.named(&tr.guard));
        }
        for (i, a) in tr.assigns.iter().enumerate() {
            s.push_str(if i == 0 { " do " } else { ", " });
            let _ = match &a.rhs {
                Rhs::Expr(e) => write!(s, "{} := {}", p.var(a.var).name, p.named(e)),
                Rhs::Nondet => write!(s, "{} := *", p.var(a.var).name),
            };
        }
        for (i, st) in tr.stores.iter().enumerate() {
            s.push_str(if i == 0 && tr.assigns.is_empty() {
                " do "
            } else {
                ", "
            });
            let name = &p.arrays[st.array.index()].name;
            let _ = write!(
                s,
                "{name}[{}] := {}",
                p.named(&st.index),
                p.named(&st.value)
            );
        }
        s.push_str(";\n");
    }
    s.push_str("}\n");
    s
}
