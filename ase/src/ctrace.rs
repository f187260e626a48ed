//! Counterexamples of C programs at the source level: text rendered with
//! codespan-reporting (each step's thread, statement, values written,
//! inputs chosen, thread creation, locks and context switches), and JSON.

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor};
use lowering::Lowered;
use serde_json::{json, Value};
use std::ops::Range;
use std::path::Path;
use witness::source::{Blocked, Event, RaceSide, SourceTrace, SrcLoc, Step};

/// A labelled range of a block: where, what, and the step.
type Item<'s> = (Option<Range<usize>>, Vec<String>, &'s Step);

/// How much of a trace `ase check` shows (`--trace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceMode {
    /// Consecutive steps of one thread in one block; steps that only choose
    /// internal values or start a thread are folded into the next one.
    Compact,
    /// Every step on its own.
    Full,
}

/// The program file's text and line starts, for byte ranges.
struct Source {
    name: String,
    text: String,
    line_starts: Vec<usize>,
}

impl Source {
    fn read(file: &Path) -> Source {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Source {
            name: file.display().to_string(),
            text,
            line_starts,
        }
    }

    fn line_end(&self, start: usize) -> usize {
        self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i)
    }

    /// The byte range of a position, cut at the end of its first line.
    fn range(&self, at: &SrcLoc) -> Option<Range<usize>> {
        let line_start = *self.line_starts.get(at.line as usize - 1)?;
        let line_end = self.line_end(line_start);
        let start = (line_start + at.column as usize - 1).min(line_end);
        let end = if at.end_line == at.line {
            (line_start + at.end_column as usize - 1).min(line_end)
        } else {
            line_end
        };
        // Trim trailing blanks so the underline covers the statement.
        let mut end = end.max(start);
        while end > start && self.text.as_bytes()[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        Some(start..end.max(start + usize::from(start < line_end)))
    }

    fn line_text(&self, line: u32) -> Option<&str> {
        let s = *self.line_starts.get(line as usize - 1)?;
        Some(self.text[s..self.line_end(s)].trim())
    }
}

/// Who moves: `main` or `worker.1 [worker()]`.
fn thread_label(trace: &SourceTrace, thread: engine::ir::ThreadId) -> String {
    let t = &trace.threads[thread.index()];
    if thread.index() == 0 {
        "main".to_string()
    } else {
        format!("{} [{}()]", t.name, t.function)
    }
}

/// What an event says, in words.
fn describe(trace: &SourceTrace, e: &Event) -> Option<String> {
    Some(match e {
        Event::Input {
            function, value, ..
        } => format!("{function}() returns {value}"),
        Event::Write { name, value } => format!("{name} = {value}"),
        Event::Create { thread, id, .. } => format!(
            "creates thread {} (id {id})",
            trace.threads[thread.index()].name
        ),
        Event::Start => "thread starts".to_string(),
        Event::Lock { mutex } => format!("acquires lock {mutex}"),
        Event::Unlock { mutex } => format!("releases lock {mutex}"),
        Event::Enter { function } => format!("enters {function}()"),
        Event::Return { function } => format!("returns from {function}()"),
        Event::Error => "the error is reached".to_string(),
        Event::Violation(v) => format!("{} ({})", v.reason, v.violation.name()),
    })
}

/// Whether a step says nothing a reader needs on its own (folded into the
/// next step of its thread in compact mode).
fn quiet(step: &Step) -> bool {
    step.events
        .iter()
        .all(|e| matches!(e, Event::Start | Event::Enter { .. } | Event::Return { .. }))
        && (step.havoc_only || step.events.iter().any(|e| matches!(e, Event::Start)))
}

/// The counterexample as text.
pub fn text(trace: &SourceTrace, file: &Path, mode: TraceMode) -> String {
    let src = Source::read(file);
    let files = SimpleFile::new(src.name.clone(), src.text.as_str());
    let config = term::Config::default();
    let mut out = NoColor::new(Vec::new());
    // Groups of consecutive steps of one thread (one step each in full mode).
    let mut groups: Vec<Vec<&Step>> = Vec::new();
    for step in &trace.steps {
        match groups.last_mut() {
            Some(g) if mode == TraceMode::Compact && g[0].thread == step.thread => g.push(step),
            _ => groups.push(vec![step]),
        }
    }
    let n = groups.len();
    let mut prev_thread = None;
    for (gi, group) in groups.iter().enumerate() {
        let first = group[0];
        let last = group[group.len() - 1];
        let who = thread_label(trace, first.thread);
        let steps = if group.len() == 1 {
            format!("step {}", first.index)
        } else {
            format!("steps {}-{}", first.index, last.index)
        };
        let switch = match prev_thread {
            Some(t) if t != first.thread => " (context switch)",
            _ => "",
        };
        prev_thread = Some(first.thread);
        let is_error = gi + 1 == n && trace.race.is_none() && trace.deadlock.is_none();
        let headline = format!("{steps}: thread {who}{switch}");
        let mut labels = Vec::new();
        let mut notes = Vec::new();
        // Merge steps at the same range (and quiet steps into the next).
        let mut pending: Vec<String> = Vec::new();
        let mut items: Vec<Item<'_>> = Vec::new();
        for (si, step) in group.iter().enumerate() {
            let mut words: Vec<String> = std::mem::take(&mut pending);
            for e in &step.events {
                if let (
                    Event::Input {
                        at: Some(at),
                        function,
                        value,
                        ..
                    },
                    Some(own),
                ) = (e, &step.at)
                {
                    if at.line != own.line {
                        if let Some(r) = src.range(at) {
                            labels.push(
                                Label::secondary((), r)
                                    .with_message(format!("{function}() returns {value}")),
                            );
                            continue;
                        }
                    }
                }
                if let Event::Create { at: Some(at), .. } = e {
                    if step.at.as_ref().is_none_or(|own| at.line != own.line) {
                        if let (Some(r), Some(w)) = (src.range(at), describe(trace, e)) {
                            labels.push(Label::secondary((), r).with_message(w));
                            continue;
                        }
                    }
                }
                if let Some(w) = describe(trace, e) {
                    words.push(w);
                }
            }
            if mode == TraceMode::Compact && quiet(step) && si + 1 < group.len() {
                pending = words;
                continue;
            }
            let range = step.at.as_ref().and_then(|a| src.range(a));
            match items.last_mut() {
                Some((r, w, _)) if mode == TraceMode::Compact && *r == range && range.is_some() => {
                    w.extend(words)
                }
                _ => items.push((range, words, step)),
            }
        }
        for (range, words, step) in items {
            let message = if words.is_empty() {
                String::new()
            } else {
                words.join(", ")
            };
            match range {
                Some(r) => {
                    let label = if is_error && std::ptr::eq(step, last) {
                        Label::primary((), r)
                    } else {
                        Label::secondary((), r)
                    };
                    labels.push(label.with_message(message));
                }
                None if !message.is_empty() => {
                    notes.push(format!("step {}: {message}", step.index));
                }
                None => {}
            }
        }
        if labels.is_empty() && notes.is_empty() {
            notes.push("internal steps".to_string());
        }
        let d = if is_error {
            Diagnostic::error()
        } else {
            Diagnostic::note()
        };
        let d = d
            .with_message(headline)
            .with_labels(labels)
            .with_notes(notes);
        let _ = term::emit(&mut out, &config, &files, &d);
    }
    if let Some(race) = &trace.race {
        let _ = term::emit(
            &mut out,
            &config,
            &files,
            &race_diagnostic(trace, race, &src),
        );
    }
    if let Some(blocked) = &trace.deadlock {
        let _ = term::emit(
            &mut out,
            &config,
            &files,
            &deadlock_diagnostic(trace, blocked, &src),
        );
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

/// One line saying what races: "write of `x` by worker.1 [worker()],
/// read by main".
pub fn race_summary(trace: &SourceTrace, race: &[RaceSide; 2]) -> String {
    let [a, b] = race;
    let at = |s: &RaceSide| {
        s.at.as_ref()
            .map_or(String::new(), |l| format!(" at line {}", l.line))
    };
    format!(
        "{} of `{}` by {}{}, {} by {}{}",
        a.kind(),
        a.variable,
        thread_label(trace, a.thread),
        at(a),
        b.kind(),
        thread_label(trace, b.thread),
        at(b)
    )
}

/// The end of a race trace: both accesses underlined.
fn race_diagnostic(trace: &SourceTrace, race: &[RaceSide; 2], src: &Source) -> Diagnostic<()> {
    let mut labels = Vec::new();
    let mut notes = Vec::new();
    for (i, side) in race.iter().enumerate() {
        let what = format!(
            "{} of `{}` by {}{}",
            side.kind(),
            side.variable,
            thread_label(trace, side.thread),
            if i == 0 {
                " here"
            } else {
                ", not ordered with it"
            }
        );
        match side.at.as_ref().and_then(|a| src.range(a)) {
            Some(r) => labels.push(Label::primary((), r).with_message(what)),
            None => notes.push(what),
        }
    }
    notes.push(
        "both accesses can happen next in this state: nothing orders them (a data race)"
            .to_string(),
    );
    Diagnostic::error()
        .with_message(format!("data race on `{}`", race[0].variable))
        .with_labels(labels)
        .with_notes(notes)
}

/// What one waiting thread of a deadlock waits for: "waits in
/// `pthread_mutex_lock(&b)` at line 7 for a mutex held by t2.1 (taken at
/// line 14)".
fn waits_for(trace: &SourceTrace, b: &Blocked) -> String {
    let call = match (&b.call, &b.at) {
        (Some(c), Some(at)) => format!(" in `{c}` at line {}", at.line),
        (Some(c), None) => format!(" in `{c}`"),
        _ => String::new(),
    };
    let what = match (&b.holder, b.joined) {
        (Some((h, took)), _) => format!(
            "a mutex held by {}{}{}",
            if *h == b.thread {
                "itself".to_string()
            } else {
                thread_label(trace, *h)
            },
            took.as_ref()
                .map_or(String::new(), |t| format!(" (taken at line {})", t.line)),
            if b.holder_ended && *h != b.thread {
                ", which has ended"
            } else {
                ""
            }
        ),
        (None, Some(j)) => format!("{} to end", thread_label(trace, j)),
        (None, None) => b.waits_for.clone(),
    };
    format!("waits{call} for {what}")
}

/// One line saying who waits for what in a deadlock.
pub fn deadlock_summary(trace: &SourceTrace, blocked: &[Blocked]) -> String {
    blocked
        .iter()
        .map(|b| format!("{} {}", thread_label(trace, b.thread), waits_for(trace, b)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The end of a deadlock trace: every waiting call underlined, and where
/// the mutexes waited for were taken.
fn deadlock_diagnostic(trace: &SourceTrace, blocked: &[Blocked], src: &Source) -> Diagnostic<()> {
    let mut labels = Vec::new();
    let mut notes = Vec::new();
    for b in blocked {
        let what = format!("{} {}", thread_label(trace, b.thread), waits_for(trace, b));
        match b.at.as_ref().and_then(|a| src.range(a)) {
            Some(r) => labels.push(Label::primary((), r).with_message(what)),
            None => notes.push(what),
        }
        if let Some((h, Some(took))) = &b.holder {
            if let Some(r) = src.range(took) {
                labels.push(
                    Label::secondary((), r)
                        .with_message(format!("{} took the mutex here", thread_label(trace, *h))),
                );
            }
        }
    }
    notes.push(if trace.deadlock_partial {
        "these threads wait forever: no thread can complete the calls they wait in, while \
         other threads may still run (a partial deadlock)"
            .to_string()
    } else {
        "no thread can move: every thread that has not ended waits in a call that cannot \
         complete (a deadlock)"
            .to_string()
    });
    Diagnostic::error()
        .with_message("deadlock")
        .with_labels(labels)
        .with_notes(notes)
}

/// The deadlock at the end of a trace as JSON.
pub fn deadlock_json(trace: &SourceTrace, blocked: &[Blocked]) -> Value {
    let thread = |b: &Blocked| {
        json!({
            "thread": trace.threads[b.thread.index()].name,
            "thread_id": b.thread_id,
            "waits_for": b.waits_for,
            "call": b.call,
            "function": b.function,
            "line": b.at.as_ref().map(|a| a.line),
            "column": b.at.as_ref().map(|a| a.column),
            "joined": b.joined.map(|j| trace.threads[j.index()].name.clone()),
            "holder": b.holder.as_ref().map(|(h, took)| json!({
                "thread": trace.threads[h.index()].name,
                "ended": b.holder_ended,
                "line": took.as_ref().map(|a| a.line),
                "column": took.as_ref().map(|a| a.column),
            })),
            "message": format!("{} {}", thread_label(trace, b.thread), waits_for(trace, b)),
        })
    };
    json!({
        "kind": "deadlock",
        "partial": trace.deadlock_partial,
        "threads": blocked.iter().map(thread).collect::<Vec<_>>(),
    })
}

/// The race at the end of a trace as JSON.
pub fn race_json(trace: &SourceTrace, race: &[RaceSide; 2]) -> Value {
    let side = |s: &RaceSide| {
        json!({
            "thread": trace.threads[s.thread.index()].name,
            "thread_id": s.thread_id,
            "variable": s.variable,
            "access": if s.write { "write" } else { "read" },
            "atomic": s.atomic,
            "function": s.function,
            "line": s.at.as_ref().map(|a| a.line),
            "column": s.at.as_ref().map(|a| a.column),
        })
    };
    json!({"kind": "data-race", "variable": race[0].variable, "accesses": [side(&race[0]), side(&race[1])]})
}

/// One event as JSON.
fn event_json(trace: &SourceTrace, e: &Event) -> Value {
    let pos = |at: &Option<SrcLoc>| match at {
        Some(a) => json!({"line": a.line, "column": a.column}),
        None => Value::Null,
    };
    match e {
        Event::Input {
            function,
            value,
            at,
            ..
        } => {
            json!({"kind": "input", "function": function, "value": crate::render::int_json(*value), "at": pos(at)})
        }
        Event::Write { name, value } => {
            json!({"kind": "write", "variable": name, "value": crate::render::int_json(*value)})
        }
        Event::Create { thread, id, at } => json!({
            "kind": "create_thread", "thread": trace.threads[thread.index()].name,
            "thread_id": id, "at": pos(at)
        }),
        Event::Start => json!({"kind": "thread_start"}),
        Event::Lock { mutex } => json!({"kind": "lock", "mutex": mutex}),
        Event::Unlock { mutex } => json!({"kind": "unlock", "mutex": mutex}),
        Event::Enter { function } => json!({"kind": "enter_function", "function": function}),
        Event::Return { function } => json!({"kind": "return_from", "function": function}),
        Event::Error => json!({"kind": "error"}),
        Event::Violation(v) => json!({
            "kind": "violation",
            "property": v.violation.name(),
            "reason": v.reason,
        }),
    }
}

/// The counterexample as JSON: the same steps with file, line and column.
pub fn json(trace: &SourceTrace, file: &Path, lowered: &Lowered) -> Value {
    let src = Source::read(file);
    let threads: Vec<Value> = trace
        .threads
        .iter()
        .map(|t| json!({"name": t.name, "function": t.function}))
        .collect();
    let steps: Vec<Value> = trace
        .steps
        .iter()
        .map(|s| {
            let mut v = json!({
                "step": s.index,
                "thread": trace.threads[s.thread.index()].name,
                "thread_id": s.thread_id,
                "transition": lowered.program.transition(s.transition).label,
                "file": file.display().to_string(),
                "function": s.function,
                "events": s.events.iter().map(|e| event_json(trace, e)).collect::<Vec<_>>(),
            });
            let obj = v.as_object_mut().expect("object");
            match &s.at {
                Some(a) => {
                    obj.insert("line".into(), json!(a.line));
                    obj.insert("column".into(), json!(a.column));
                    obj.insert("end_line".into(), json!(a.end_line));
                    obj.insert("end_column".into(), json!(a.end_column));
                    obj.insert("source".into(), json!(src.line_text(a.line)));
                }
                None => {
                    obj.insert("line".into(), Value::Null);
                    obj.insert("column".into(), Value::Null);
                }
            }
            v
        })
        .collect();
    let violation = match (&trace.race, &trace.violation, &trace.deadlock) {
        (Some(race), _, _) => race_json(trace, race),
        (None, Some(v), _) => json!({"kind": v.violation.name(), "reason": v.reason}),
        (None, None, Some(blocked)) => deadlock_json(trace, blocked),
        (None, None, None) => json!({"kind": "error"}),
    };
    json!({"file": file.display().to_string(), "threads": threads, "steps": steps, "violation": violation})
}
