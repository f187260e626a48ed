//! A counterexample of the lowered program seen at the C level.

use engine::ir::{Program, Rhs, ThreadId, TransId, VarId};
use engine::verdict::Trace;
use frontend::lang_c::ast::{DeclaratorKind, ExternalDeclaration};
use frontend::lang_c::span::Span;
use frontend::ParsedUnit;
use lowering::{Lowered, VarOrigin};
use std::path::{Path, PathBuf};

/// A position range in the program file (1-based lines and byte columns;
/// the end is exclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrcLoc {
    /// First line.
    pub line: u32,
    /// Column on the first line.
    pub column: u32,
    /// Last line.
    pub end_line: u32,
    /// Column just past the end on the last line.
    pub end_column: u32,
}

/// Maps spans of the parsed text to positions in the program file: for `.i`
/// files the lines of the file itself (parsed as they are), for `.c` files
/// through the preprocessor's line markers (positions in headers are
/// `None`).
pub struct Locator<'a> {
    unit: &'a ParsedUnit,
    preprocessed: bool,
    main: Option<PathBuf>,
    line_starts: Vec<usize>,
}

impl<'a> Locator<'a> {
    /// The locator of a unit parsed from `file`.
    pub fn new(unit: &'a ParsedUnit, file: &Path) -> Locator<'a> {
        let preprocessed = file.extension().is_some_and(|e| e == "i");
        let mut line_starts = vec![0];
        line_starts.extend(
            unit.text
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Locator {
            unit,
            preprocessed,
            main: unit.origins.files().next().map(Path::to_path_buf),
            line_starts,
        }
    }

    fn point(&self, offset: usize) -> Option<(u32, u32)> {
        if self.preprocessed {
            if offset > self.unit.text.len() {
                return None;
            }
            let line = self.line_starts.partition_point(|&s| s <= offset);
            let col = offset - self.line_starts[line - 1] + 1;
            return Some((line as u32, col as u32));
        }
        let at = self.unit.origins.locate(offset)?;
        (Some(at.file.as_path()) == self.main.as_deref()).then_some((at.line, at.column))
    }

    /// The position of a span in the program file.
    pub fn locate(&self, span: Span) -> Option<SrcLoc> {
        if span.is_none() {
            return None;
        }
        let (line, column) = self.point(span.start)?;
        let (end_line, end_column) = self
            .point(span.end.max(span.start))
            .filter(|&(l, c)| (l, c) >= (line, column))
            .unwrap_or((line, column + 1));
        Some(SrcLoc {
            line,
            column,
            end_line,
            end_column,
        })
    }

    /// The position of an IR span.
    pub fn locate_ir(&self, span: engine::ir::Span) -> Option<SrcLoc> {
        if span == engine::ir::Span::default() {
            return None;
        }
        self.locate(Span::span(span.start as usize, span.end as usize))
    }
}

/// Something a step does that a reader of the C program cares about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `__VERIFIER_nondet_T()` returned `value`.
    Input {
        /// The function called.
        function: String,
        /// The IR variable holding the result.
        var: VarId,
        /// The value chosen.
        value: i128,
        /// The call.
        at: Option<SrcLoc>,
    },
    /// A C variable was assigned.
    Write {
        /// The C expression (`x`, `a[1]`).
        name: String,
        /// Its new value.
        value: i128,
    },
    /// A thread was created.
    Create {
        /// The IR thread created.
        thread: ThreadId,
        /// Its witness thread id (creation order; `main` is 0).
        id: usize,
        /// The `pthread_create` call.
        at: Option<SrcLoc>,
    },
    /// A thread ran its first step.
    Start,
    /// A mutex was acquired.
    Lock {
        /// The mutex (a C expression).
        mutex: String,
    },
    /// A mutex was released.
    Unlock {
        /// The mutex.
        mutex: String,
    },
    /// Control entered a function (inlined in the IR).
    Enter {
        /// The function.
        function: String,
    },
    /// Control returned from a function.
    Return {
        /// The function.
        function: String,
    },
    /// The error (`reach_error()`, a failing assertion) was reached.
    Error,
    /// A memory-safety or overflow property was violated.
    Violation(lowering::Violated),
}

/// One step of the IR trace at the C level.
#[derive(Clone, Debug)]
pub struct Step {
    /// 1-based index of the IR step.
    pub index: usize,
    /// The IR transition.
    pub transition: TransId,
    /// The IR thread that moves.
    pub thread: ThreadId,
    /// Its witness thread id.
    pub thread_id: usize,
    /// The C statement (the transition's span), when in the program file.
    pub at: Option<SrcLoc>,
    /// The C function the statement is in.
    pub function: Option<String>,
    /// The inputs the step reads: `(IR variable, value)`, all of them
    /// (nondet calls, uninitialised locals, internal quotients).
    pub inputs: Vec<(VarId, i128)>,
    /// What happens, in order.
    pub events: Vec<Event>,
    /// Whether the step only chooses inputs (the havoc half of a statement).
    pub havoc_only: bool,
    /// Whether the step chooses a value that no waypoint of a YAML
    /// witness gives and no guard of the thread's next step pins (an
    /// uninitialised variable, what an unmodelled library call wrote), other
    /// than 0.
    pub unnamed_input: bool,
}

/// A thread of the trace.
#[derive(Clone, Debug)]
pub struct ThreadDesc {
    /// IR name (`main`, `worker.2`).
    pub name: String,
    /// Start routine.
    pub function: String,
}

/// A counterexample at the C level.
#[derive(Clone, Debug)]
pub struct SourceTrace {
    /// The threads of the program (indexed like the IR's).
    pub threads: Vec<ThreadDesc>,
    /// The steps, one per IR step.
    pub steps: Vec<Step>,
    /// When the trace ends in a data race: the two accesses that can both
    /// happen next.
    pub race: Option<[RaceSide; 2]>,
    /// When the trace ends in a violation of a memory-safety or overflow
    /// property: which, and why.
    pub violation: Option<lowering::Violated>,
    /// When the trace ends in a deadlock: the threads that wait forever.
    pub deadlock: Option<Vec<Blocked>>,
    /// The deadlock is a partial one: other threads may still run
    /// (SOUNDNESS.md, "Deadlocks").
    pub deadlock_partial: bool,
    /// The initial values the program leaves open (no declared value, no
    /// equation of the initial condition), where the trace's are not 0:
    /// choices of the model, such as the element a large array keeps
    /// exactly.
    pub initial: Vec<(VarId, i128)>,
}

/// A thread waiting forever at the end of a deadlock trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// The IR thread.
    pub thread: ThreadId,
    /// Its witness thread id.
    pub thread_id: usize,
    /// What it waits for, in words ([`lowering::WaitKind::describe`]).
    pub waits_for: String,
    /// The blocking call's source text (`pthread_mutex_lock(&b)`), when the
    /// thread waits in one.
    pub call: Option<String>,
    /// The call.
    pub at: Option<SrcLoc>,
    /// The C function it is in.
    pub function: Option<String>,
    /// For a mutex: the thread holding it, and the statement where it took
    /// it (when the trace shows it).
    pub holder: Option<(ThreadId, Option<SrcLoc>)>,
    /// The holder has ended (it will never release the mutex).
    pub holder_ended: bool,
    /// For a join: the thread joined.
    pub joined: Option<ThreadId>,
}

/// One of the two accesses of a data race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceSide {
    /// The IR thread about to access.
    pub thread: ThreadId,
    /// Its witness thread id.
    pub thread_id: usize,
    /// The C expression accessed (`counter`, `a[1]`).
    pub variable: String,
    /// A write (else a read).
    pub write: bool,
    /// An atomic access.
    pub atomic: bool,
    /// The statement.
    pub at: Option<SrcLoc>,
    /// The C function it is in.
    pub function: Option<String>,
}

impl RaceSide {
    /// `write`, `read`, `atomic write`, `atomic read`.
    pub fn kind(&self) -> &'static str {
        match (self.atomic, self.write) {
            (false, true) => "write",
            (false, false) => "read",
            (true, true) => "atomic write",
            (true, false) => "atomic read",
        }
    }
}

/// A thread waiting at the end of a deadlock trace, in C terms.
#[allow(clippy::too_many_arguments)]
fn blocked(
    lowered: &Lowered,
    unit: &ParsedUnit,
    trace: &Trace,
    loc: &Locator,
    funcs: &[(String, Span)],
    ids: &[Option<usize>],
    t: ThreadId,
    wait: Option<&lowering::Wait>,
) -> Blocked {
    let span = wait.and_then(|w| w.span);
    let last = trace.last_state();
    let holder = match wait.map(|w| &w.kind) {
        Some(lowering::WaitKind::Mutex(cells)) => {
            // The held cell the call's pointer is (the reduction may have
            // folded the pointer's cases into the guards: then the one held).
            let held: Vec<(bool, VarId, i128)> = cells
                .iter()
                .filter_map(|(case, c)| {
                    let owner = *last.vals.get(c.index())?;
                    let here = engine::interp::eval_cond(case, last).unwrap_or(false);
                    (owner > 0).then_some((here, *c, owner))
                })
                .collect();
            match held.iter().find(|h| h.0) {
                Some(&(_, c, owner)) => Some((c, owner)),
                None if held.len() == 1 => Some((held[0].1, held[0].2)),
                None => None,
            }
        }
        .and_then(|(cell, owner)| {
            let holder = ThreadId::new(usize::try_from(owner - 1).ok()?);
            // The holder's one call that locks this mutex, else the last
            // step of the trace that took it.
            let sites: Vec<Span> = lowered
                .lock_sites
                .iter()
                .filter(|(t, c, _)| *t == holder && *c == cell)
                .map(|(_, _, s)| *s)
                .collect();
            let at = match sites.as_slice() {
                [one] => loc.locate(*one),
                _ => trace
                    .steps
                    .iter()
                    .rev()
                    .find(|s| {
                        let tr = lowered.program.transition(s.transition);
                        tr.thread == holder && tr.assigns.iter().any(|a| a.var == cell)
                    })
                    .and_then(|s| loc.locate_ir(lowered.program.transition_span(s.transition)?)),
            };
            Some((holder, at))
        }),
        _ => None,
    };
    let joined = match wait.map(|w| &w.kind) {
        Some(lowering::WaitKind::Join) => {
            lowering::deadlock::awaited(&lowered.program, t, last.locs[t.index()], last)
        }
        _ => None,
    };
    let holder_ended = holder.as_ref().is_some_and(|(h, _)| {
        let end = lowered.deadlock.as_ref().and_then(|d| d.ends[h.index()]);
        end.is_some_and(|e| last.locs.get(h.index()) == Some(&e))
    });
    Blocked {
        thread: t,
        holder_ended,
        thread_id: ids[t.index()].unwrap_or(t.index()),
        waits_for: wait
            .map_or("another thread's atomic section", |w| w.kind.describe())
            .into(),
        joined,
        call: span
            .and_then(|s| unit.text.get(s.start..s.end))
            .map(str::to_string),
        at: span.and_then(|s| loc.locate(s)),
        function: span
            .and_then(|s| function_at(funcs, s.start))
            .map(str::to_string),
        holder,
    }
}

/// The C functions defined in the unit: name and span.
pub fn functions(unit: &ParsedUnit) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for d in &unit.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &d.node {
            if let DeclaratorKind::Identifier(id) = &f.node.declarator.node.kind.node {
                out.push((unit.display_name(&id.node.name).to_string(), f.span));
            }
        }
    }
    out
}

/// The innermost defined function containing a parsed-text offset.
pub(crate) fn function_at(funcs: &[(String, Span)], offset: usize) -> Option<&str> {
    funcs
        .iter()
        .filter(|(_, s)| s.start <= offset && offset < s.end)
        .min_by_key(|(_, s)| s.end - s.start)
        .map(|(n, _)| n.as_str())
}

/// Builds the C-level view of a trace of `lowered.program`.
pub fn build(unit: &ParsedUnit, file: &Path, lowered: &Lowered, trace: &Trace) -> SourceTrace {
    let p: &Program = &lowered.program;
    let loc = Locator::new(unit, file);
    let funcs = functions(unit);
    let threads: Vec<ThreadDesc> = lowered
        .threads
        .iter()
        .map(|t| ThreadDesc {
            name: t.name.clone(),
            function: t.function.clone(),
        })
        .collect();
    let mut ids: Vec<Option<usize>> = vec![None; p.threads.len()];
    if !ids.is_empty() {
        ids[0] = Some(0);
    }
    let mut next_id = 1;
    let mut stacks: Vec<Vec<String>> = lowered
        .threads
        .iter()
        .map(|t| vec![t.function.clone()])
        .collect();
    let mut started = vec![false; p.threads.len()];
    let mut steps = Vec::new();
    for (i, ts) in trace.steps.iter().enumerate() {
        let tr = p.transition(ts.transition);
        let th = tr.thread;
        let span = p.transition_span(ts.transition).unwrap_or_default();
        let at = loc.locate_ir(span);
        let mut events = Vec::new();
        let havoc_only = !tr.assigns.is_empty()
            && tr.assigns.iter().all(|a| a.rhs == Rhs::Nondet)
            && !tr.guard.mentions_locations()
            && p.loc_name(th, tr.to).contains(".in");
        // The first step of a created thread (its span is the creation).
        let mut starting = false;
        if !started[th.index()] {
            started[th.index()] = true;
            if th.index() != 0 {
                events.push(Event::Start);
                starting = lowered.threads[th.index()]
                    .created_at
                    .is_some_and(|c| c.start == span.start as usize && c.end == span.end as usize);
            }
        }
        // Function entry and return, from the function the statement is in.
        let function = (span != engine::ir::Span::default() && !starting)
            .then(|| function_at(&funcs, span.start as usize).map(str::to_string))
            .flatten();
        if let Some(f) = &function {
            let stack = &mut stacks[th.index()];
            if stack.last() != Some(f) {
                if let Some(pos) = stack.iter().rposition(|g| g == f) {
                    while stack.len() > pos + 1 {
                        let g = stack.pop().expect("non-empty");
                        events.push(Event::Return { function: g });
                    }
                } else {
                    stack.push(f.clone());
                    events.push(Event::Enter {
                        function: f.clone(),
                    });
                }
            }
        }
        for (v, value) in &ts.inputs {
            if let VarOrigin::Nondet { function, call } = &lowered.vars[v.index()].origin {
                events.push(Event::Input {
                    function: function.clone(),
                    var: *v,
                    value: *value,
                    at: loc.locate(*call),
                });
            }
        }
        for a in &tr.assigns {
            if a.rhs == Rhs::Nondet || lowered.resets.contains(&(ts.transition, a.var)) {
                continue;
            }
            let value = ts.state.vals[a.var.index()];
            if let Some(k) = lowered
                .threads
                .iter()
                .position(|t| t.run == Some(a.var))
                .filter(|_| value == 1)
            {
                let id = *ids[k].get_or_insert_with(|| {
                    next_id += 1;
                    next_id - 1
                });
                events.push(Event::Create {
                    thread: ThreadId::new(k),
                    id,
                    at: lowered.threads[k].created_at.and_then(|s| loc.locate(s)),
                });
                continue;
            }
            let meta = &lowered.vars[a.var.index()];
            let stale = |&(t, code): &(VarId, i64)| {
                let tag = ts.state.vals[t.index()];
                tag != 0 && tag != i128::from(code)
            };
            if meta.float || meta.tag || meta.members.iter().any(stale) {
                // An abstracted floating-point cell: its value means
                // nothing; a union's tag is no C memory, nor a member
                // other than the one stored last.
                continue;
            }
            if let (Some(name), VarOrigin::Object { mutex, thread, .. }) =
                (&meta.c_name, &meta.origin)
            {
                // Another thread's local (a start routine's argument).
                let name = match thread {
                    Some(k) if *k != th.index() => {
                        format!("{name} (of {})", lowered.threads[*k].name)
                    }
                    _ => name.clone(),
                };
                if *mutex {
                    let before = if i == 0 {
                        trace.initial.vals[a.var.index()]
                    } else {
                        trace.steps[i - 1].state.vals[a.var.index()]
                    };
                    if value != 0 && before == 0 {
                        events.push(Event::Lock {
                            mutex: name.clone(),
                        });
                    } else if value == 0 && before != 0 {
                        events.push(Event::Unlock {
                            mutex: name.clone(),
                        });
                    }
                } else {
                    events.push(Event::Write { name, value });
                }
            }
        }
        let before = if i == 0 {
            &trace.initial
        } else {
            &trace.steps[i - 1].state
        };
        for st in &tr.stores {
            let (Ok(index), Ok(value)) = (
                engine::interp::eval_term_in(&st.index, before),
                engine::interp::eval_term_in(&st.value, before),
            ) else {
                continue;
            };
            let (array, stride) = &lowered.array_c[st.array.index()];
            let stride = i128::from(*stride);
            let name = if stride == 1 {
                format!("{array}[{index}]")
            } else {
                format!(
                    "{array}[{}] (cell {})",
                    index.div_euclid(stride),
                    index.rem_euclid(stride)
                )
            };
            events.push(Event::Write { name, value });
        }
        if lowered.errors.contains(&(th, tr.to)) {
            events.push(Event::Error);
        }
        if let Some((_, _, v)) = lowered
            .violations
            .iter()
            .find(|(t, l, _)| *t == th && *l == tr.to)
        {
            events.push(Event::Violation(v.clone()));
        }
        steps.push(Step {
            index: i + 1,
            transition: ts.transition,
            thread: th,
            thread_id: ids[th.index()].unwrap_or(th.index()),
            at,
            function,
            inputs: ts.inputs.clone(),
            events,
            havoc_only,
            unnamed_input: ts.inputs.iter().any(|&(v, x)| {
                let named = matches!(
                    &lowered.vars[v.index()].origin,
                    VarOrigin::Nondet { call, .. } if loc.locate(*call).is_some()
                );
                x != 0 && !named && !crate::yaml_replay::pinned(p, &ts.state, th, v).contains(&x)
            }),
        });
    }
    let last = trace.last_state();
    let end = lowered.trace_end(last);
    let violation = match &end {
        lowering::TraceEnd::Violation(v) => Some(v.clone()),
        _ => None,
    };
    let race = match end {
        lowering::TraceEnd::Race(a, b) => Some([a, b].map(|i| {
            let r = &lowered.races[i];
            let at = r.span.and_then(|s| loc.locate(s));
            RaceSide {
                thread: r.thread,
                thread_id: ids[r.thread.index()].unwrap_or(r.thread.index()),
                variable: lowered
                    .c_name_in(r.var, last)
                    .unwrap_or_else(|| p.var(r.var).name.clone()),
                write: r.write,
                atomic: r.atomic,
                function: r
                    .span
                    .and_then(|s| function_at(&funcs, s.start))
                    .map(str::to_string),
                at,
            }
        })),
        _ => None,
    };
    let deadlock = match end {
        lowering::TraceEnd::Deadlock(waiting) => Some(
            waiting
                .iter()
                .map(|(t, w)| blocked(lowered, unit, trace, &loc, &funcs, &ids, *t, w.as_ref()))
                .collect(),
        ),
        _ => None,
    };
    let deadlock_partial = deadlock.is_some()
        && lowered
            .deadlock
            .as_ref()
            .is_some_and(|d| !lowering::deadlock::is_global(&lowered.program, d, last));
    let initial = engine::interp::fixed_initial_values(p)
        .into_iter()
        .zip(&trace.initial.vals)
        .enumerate()
        .filter(|(_, (fixed, &x))| fixed.is_none() && x != 0)
        .map(|(i, (_, &x))| (VarId::new(i), x))
        .collect();
    SourceTrace {
        threads,
        steps,
        race,
        violation,
        deadlock,
        deadlock_partial,
        initial,
    }
}
