//! Reads a YAML violation witness (`violation_sequence`, formats 2.0 to
//! 2.2) and checks it on the lowered program as a validator would: a search
//! over the program's interleavings that passes the waypoints in their
//! order must reach the error.
//!
//! The check is stricter than the format requires, since it validates this
//! tool's own witnesses, which list every input and thread creation: a
//! step that returns from a `__VERIFIER_nondet_*` call in the program file
//! must be the next waypoint (`function_return`, its value from the
//! constraint `\result == v`), and with thread ids (format 2.2) so must a
//! step that creates a thread (`function_enter` at the `pthread_create`
//! call; the created thread takes the next id, `main` being 0). Other
//! inputs (uninitialised locals, the lowering's temporaries) take 0. The
//! last segment's `target` waypoints are the statement that reaches the
//! error, or the two accesses of a data race.

use crate::replay::{end, Replayed};
use crate::source::Locator;
use engine::interp::{self, State};
use engine::ir::{CmpOp, Cond, Program, Rhs, Term, ThreadId, TransId, VarId};
use frontend::ParsedUnit;
use lowering::{Lowered, TraceEnd, VarOrigin};
use serde_yaml_ng::Value;
use std::collections::{HashSet, VecDeque};
use std::hash::{Hash, Hasher};
use std::path::Path;

/// Search nodes explored at most.
const MAX_NODES: usize = 1_000_000;

/// What a waypoint marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A thread creation (format 2.2).
    FunctionEnter,
    /// The return of an input call, with its value.
    FunctionReturn(i128),
    /// The violation.
    Target,
}

/// A waypoint: what, in which thread (`None`: any), at which line.
#[derive(Clone, Copy, Debug)]
struct Waypoint {
    kind: Kind,
    thread: Option<usize>,
    line: u32,
}

/// A parsed violation sequence.
struct Sequence {
    /// Format 2.2 and later: thread creations are waypoints.
    threads: bool,
    /// The segments before the last, one waypoint each.
    steps: Vec<Waypoint>,
    /// The last segment's targets.
    targets: Vec<Waypoint>,
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("missing `{key}`"))
}

fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| format!("`{key}` is not a string"))
}

/// The value `v` of a constraint `\result == v`.
fn result_value(constraint: &str) -> Option<i128> {
    let rest = constraint.trim().strip_prefix("\\result")?.trim_start();
    let v = rest.strip_prefix("==")?.trim();
    v.trim_start_matches('(').trim_end_matches(')').parse().ok()
}

fn parse_waypoint(w: &Value) -> Result<Waypoint, String> {
    let w = field(w, "waypoint")?;
    if text(w, "action")? != "follow" {
        return Err("only `follow` waypoints are read".into());
    }
    let kind = match text(w, "type")? {
        "function_enter" => Kind::FunctionEnter,
        "target" => Kind::Target,
        "function_return" => {
            let c = text(field(w, "constraint")?, "value")?;
            Kind::FunctionReturn(
                result_value(c).ok_or_else(|| format!("cannot read the constraint `{c}`"))?,
            )
        }
        other => return Err(format!("waypoints of type `{other}` are not read")),
    };
    let thread = match w.get("thread_id") {
        None => None,
        Some(t) => Some(
            t.as_u64()
                .ok_or("`thread_id` is not a number")?
                .try_into()
                .map_err(|_| "`thread_id` is too large")?,
        ),
    };
    let line = field(field(w, "location")?, "line")?
        .as_u64()
        .ok_or("`line` is not a number")?;
    Ok(Waypoint {
        kind,
        thread,
        line: u32::try_from(line).map_err(|_| "`line` is too large")?,
    })
}

/// Reads the witness and checks its metadata against the program bytes.
fn parse(text_: &str, program: &[u8]) -> Result<Sequence, String> {
    let doc: Value = serde_yaml_ng::from_str(text_).map_err(|e| format!("not YAML: {e}"))?;
    let entries = doc
        .as_sequence()
        .ok_or("the witness is not a list of entries")?;
    let [entry] = entries.as_slice() else {
        return Err(format!("{} entries, expected one", entries.len()));
    };
    if text(entry, "entry_type")? != "violation_sequence" {
        return Err("not a violation witness".into());
    }
    let meta = field(entry, "metadata")?;
    let version = text(meta, "format_version")?;
    let threads = match version {
        "2.0" | "2.1" => false,
        "2.2" => true,
        v => return Err(format!("format version {v} is not read")),
    };
    let hashes = field(field(meta, "task")?, "input_file_hashes")?
        .as_mapping()
        .ok_or("`input_file_hashes` is not a mapping")?;
    let hash = crate::sha256_hex(program);
    if !hashes.values().any(|h| h.as_str() == Some(hash.as_str())) {
        return Err("no input file hash is the program's".into());
    }
    let content = field(entry, "content")?
        .as_sequence()
        .ok_or("`content` is not a list")?;
    let mut segments = Vec::new();
    for s in content {
        let ws = field(s, "segment")?
            .as_sequence()
            .ok_or("`segment` is not a list")?;
        segments.push(
            ws.iter()
                .map(parse_waypoint)
                .collect::<Result<Vec<_>, _>>()?,
        );
    }
    let targets = segments.pop().ok_or("no segment")?;
    if targets.is_empty() || targets.iter().any(|w| w.kind != Kind::Target) {
        return Err("the last segment is not of targets".into());
    }
    let mut steps = Vec::new();
    for s in segments {
        match s.as_slice() {
            [w] if w.kind != Kind::Target => steps.push(*w),
            _ => return Err("a segment before the last must hold one non-target waypoint".into()),
        }
    }
    Ok(Sequence {
        threads,
        steps,
        targets,
    })
}

/// A node of the search: the state, the waypoints passed, the IR thread of
/// each witness thread id, and the thread and line of the last located
/// step.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Node {
    state: State,
    passed: usize,
    ids: Vec<ThreadId>,
    last: Option<(ThreadId, u32)>,
}

/// What a transition needs of the witness: its inputs from located calls
/// (variable, line of the call) and the threads it creates.
struct Needs {
    calls: Vec<(VarId, u32)>,
    creates: Vec<(usize, u32)>,
}

/// Whether waypoint `w` names thread `th` under the ids bound so far.
fn names(w: &Waypoint, ids: &[ThreadId], th: ThreadId) -> bool {
    w.thread.is_none_or(|i| ids.get(i) == Some(&th))
}

/// The values of `v` that the guards of thread `th`'s next transitions
/// pin in `state`, the other variables as they are: per interval of `v`
/// in which a guard may hold, its least value, else its greatest.
pub(crate) fn pinned(p: &Program, state: &State, th: ThreadId, v: VarId) -> Vec<i128> {
    let mut out = Vec::new();
    for &o in &p.thread(th).transitions {
        let tr = p.transition(o);
        if tr.from != state.locs[th.index()] {
            continue;
        }
        for (lo, hi) in intervals(&tr.guard, state, v) {
            let x = match (lo, hi) {
                (Some(l), Some(h)) if l > h => continue,
                (Some(l), _) => l,
                (None, Some(h)) => h,
                (None, None) => continue,
            };
            if x != 0 && !out.contains(&x) {
                out.push(x);
            }
        }
    }
    out
}

/// An interval of integers, unbounded where `None`.
type Interval = (Option<i128>, Option<i128>);

/// Intervals at most considered per guard.
const MAX_INTERVALS: usize = 16;

/// Intervals of `v` outside which `c` is false in `state` (the other
/// variables as they are): comparisons linear in `v` bound it, those
/// without `v` hold or not, the rest constrain nothing.
fn intervals(c: &Cond, state: &State, v: VarId) -> Vec<Interval> {
    let everything = vec![(None, None)];
    match c {
        Cond::False => Vec::new(),
        Cond::Cmp(op, l, r) => {
            let (mut lo, mut hi) = (None, None);
            match bound(*op, l, r, state, v, &mut lo, &mut hi) {
                Some(false) => Vec::new(),
                _ => vec![(lo, hi)],
            }
        }
        Cond::At(t, l) if state.locs[t.index()] != *l => Vec::new(),
        Cond::And(a, b) => {
            let right = intervals(b, state, v);
            let mut out = Vec::new();
            for (l1, h1) in intervals(a, state, v) {
                for &(l2, h2) in &right {
                    let lo = match (l1, l2) {
                        (Some(x), Some(y)) => Some(x.max(y)),
                        (x, y) => x.or(y),
                    };
                    let hi = match (h1, h2) {
                        (Some(x), Some(y)) => Some(x.min(y)),
                        (x, y) => x.or(y),
                    };
                    if lo.zip(hi).is_none_or(|(l, h)| l <= h) {
                        out.push((lo, hi));
                    }
                }
            }
            out.truncate(MAX_INTERVALS);
            out
        }
        Cond::Or(a, b) => {
            let mut out = intervals(a, state, v);
            out.extend(intervals(b, state, v));
            out.truncate(MAX_INTERVALS);
            out
        }
        _ => everything,
    }
}

/// Tightens `[lo, hi]` by `l op r` when it is linear in `v` (the other
/// variables at their values in `state`); `Some(holds)` when `v` does not
/// occur in it, `None` otherwise.
fn bound(
    op: CmpOp,
    l: &Term,
    r: &Term,
    state: &State,
    v: VarId,
    lo: &mut Option<i128>,
    hi: &mut Option<i128>,
) -> Option<bool> {
    let mut vals = state.vals.clone();
    let mut f = |x: i128| {
        vals[v.index()] = x;
        Some(interp::eval_term(l, &vals).ok()? - interp::eval_term(r, &vals).ok()?)
    };
    let (Some(f0), Some(f1), Some(f2)) = (f(0), f(1), f(2)) else {
        return None;
    };
    let (a, b) = (f1 - f0, f0);
    if f2 != b + 2 * a {
        return None;
    }
    if a == 0 {
        return Some(op.holds(b, 0));
    }
    // a*v + b op 0, as at most two constraints c*v <= d.
    let upper = |c: i128, d: i128, lo: &mut Option<i128>, hi: &mut Option<i128>| {
        if c > 0 {
            let m = d.div_euclid(c);
            *hi = Some(hi.map_or(m, |h| h.min(m)));
        } else {
            let m = -(d.div_euclid(-c));
            *lo = Some(lo.map_or(m, |x| x.max(m)));
        }
    };
    match op {
        CmpOp::Le => upper(a, -b, lo, hi),
        CmpOp::Lt => upper(a, -b - 1, lo, hi),
        CmpOp::Ge => upper(-a, b, lo, hi),
        CmpOp::Gt => upper(-a, b - 1, lo, hi),
        CmpOp::Eq => {
            upper(a, -b, lo, hi);
            upper(-a, b, lo, hi);
        }
        CmpOp::Ne => {}
    }
    None
}

/// Checks a YAML violation witness of `file` on the lowered program.
pub fn replay(
    text_: &str,
    unit: &ParsedUnit,
    file: &Path,
    lowered: &Lowered,
) -> Result<Replayed, String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let seq = parse(text_, &bytes)?;
    let p = &lowered.program;
    let loc = Locator::new(unit, file);
    let init: Vec<i128> = interp::fixed_initial_values(p)
        .into_iter()
        .map(|v| v.unwrap_or(0))
        .collect();
    let state = interp::initial_state(p, init).map_err(|e| e.to_string())?;
    let start = Node {
        state,
        passed: 0,
        ids: vec![ThreadId(0)],
        last: None,
    };
    // Breadth first finds short paths through loops; depth first long
    // paths through many interleavings: the first within a budget, then
    // the second.
    let ctx = Search {
        p,
        lowered,
        loc: &loc,
        seq: &seq,
    };
    match ctx.search(&start, Order::BreadthFirst, MAX_NODES / 4) {
        Err(Failure::Budget(_)) => {}
        done => return done.map_err(|f| ctx.message(f)),
    }
    ctx.search(&start, Order::DepthFirst, MAX_NODES)
        .map_err(|f| ctx.message(f))
}

/// The order in which the search expands nodes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    BreadthFirst,
    DepthFirst,
}

/// Why a search found no path.
enum Failure {
    /// It searched that many nodes.
    Budget(usize),
    /// It searched everything; at most that many waypoints were passed.
    Exhausted(usize),
}

/// What a search reads.
struct Search<'a> {
    p: &'a Program,
    lowered: &'a Lowered,
    loc: &'a Locator<'a>,
    seq: &'a Sequence,
}

impl Search<'_> {
    /// What transition `t` needs of the witness.
    fn needs(&self, t: TransId) -> Needs {
        let (p, lowered, loc) = (self.p, self.lowered, self.loc);
        let threads = self.seq.threads;
        let tr = p.transition(t);
        let calls = tr
            .assigns
            .iter()
            .filter(|a| a.rhs == Rhs::Nondet)
            .filter_map(|a| match &lowered.vars[a.var.index()].origin {
                VarOrigin::Nondet { call, .. } => Some((a.var, loc.locate(*call)?.line)),
                _ => None,
            })
            .collect();
        let creates = if threads {
            lowered
                .threads
                .iter()
                .enumerate()
                .filter_map(|(k, ti)| {
                    let run = ti.run?;
                    tr.assigns.iter().any(|a| a.var == run).then(|| {
                        let line = ti
                            .created_at
                            .and_then(|s| loc.locate(s))
                            .map_or(0, |l| l.line);
                        (k, line)
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        Needs { calls, creates }
    }

    /// The nodes after transition `t` from `node`, passing the waypoints it
    /// needs; none when the witness does not allow the step. An input no
    /// waypoint names takes 0 or a value a guard of the next step pins
    /// ([`pinned`]): the lowering's temporaries (quotients, conversions) are
    /// fixed by the guard that follows their choice.
    fn advance(&self, node: &Node, t: TransId) -> Vec<Node> {
        let (p, seq) = (self.p, self.seq);
        let tr = p.transition(t);
        let th = tr.thread;
        let need = self.needs(t);
        let mut passed = node.passed;
        let mut inputs: Vec<(VarId, i128)> = Vec::new();
        let mut free = Vec::new();
        for a in tr.assigns.iter().filter(|a| a.rhs == Rhs::Nondet) {
            let value = match need.calls.iter().find(|(v, _)| *v == a.var) {
                Some(&(_, line)) => {
                    let Some(w) = seq.steps.get(passed) else {
                        return Vec::new();
                    };
                    match w.kind {
                        Kind::FunctionReturn(x) if w.line == line && names(w, &node.ids, th) => {
                            passed += 1;
                            x
                        }
                        _ => return Vec::new(),
                    }
                }
                None => {
                    free.push(inputs.len());
                    0
                }
            };
            inputs.push((a.var, value));
        }
        let Ok(first) = interp::step(p, &node.state, t, &inputs) else {
            return Vec::new();
        };
        let mut choices = vec![inputs.clone()];
        for &k in &free {
            for x in pinned(p, &first, th, inputs[k].0) {
                let mut other = inputs.clone();
                other[k].1 = x;
                choices.push(other);
            }
        }
        choices
            .iter()
            .filter_map(|inputs| {
                let state = interp::step(p, &node.state, t, inputs).ok()?;
                self.created(node, t, &need, passed, state)
            })
            .collect()
    }

    /// The node reached in `state` by transition `t`, which passed the
    /// waypoints before `passed`: the threads it creates must be the next
    /// waypoints (format 2.2) and take the next ids.
    fn created(
        &self,
        node: &Node,
        t: TransId,
        need: &Needs,
        mut passed: usize,
        state: State,
    ) -> Option<Node> {
        let (p, lowered, loc, seq) = (self.p, self.lowered, self.loc, self.seq);
        let th = p.transition(t).thread;
        let mut ids = node.ids.clone();
        for &(k, line) in &need.creates {
            if state.vals[lowered.threads[k].run?.index()] != 1 {
                continue;
            }
            let w = seq.steps.get(passed)?;
            if w.kind != Kind::FunctionEnter || w.line != line || !names(w, &ids, th) {
                return None;
            }
            passed += 1;
            ids.push(ThreadId::new(k));
        }
        let line = p
            .transition_span(t)
            .and_then(|s| loc.locate_ir(s))
            .map(|l| l.line);
        Some(Node {
            state,
            passed,
            ids,
            last: line.map(|l| (th, l)).or(node.last),
        })
    }

    /// Whether the node, all steps' waypoints passed, is the error the targets
    /// describe.
    fn at_targets(&self, node: &Node) -> bool {
        let (lowered, loc, seq) = (self.lowered, self.loc, self.seq);
        if node.passed != seq.steps.len() || end(&lowered.program, lowered, &node.state).is_err() {
            return false;
        }
        match lowered.trace_end(&node.state) {
            TraceEnd::Race(a, b) => {
                let side = |i: usize| {
                    let r = &lowered.races[i];
                    (r.thread, r.span.and_then(|s| loc.locate(s)).map(|l| l.line))
                };
                let sides = [side(a), side(b)];
                seq.targets.len() == 2
                    && sides.iter().all(|&(th, line)| {
                        seq.targets
                            .iter()
                            .any(|w| Some(w.line) == line && names(w, &node.ids, th))
                    })
            }
            _ => match (node.last, seq.targets.as_slice()) {
                (Some((th, line)), [w]) => w.line == line && names(w, &node.ids, th),
                _ => false,
            },
        }
    }

    fn message(&self, f: Failure) -> String {
        match f {
            Failure::Budget(n) => {
                format!("the witness leaves too many choices open ({n} states searched)")
            }
            Failure::Exhausted(furthest) => format!(
                "no execution passes the waypoints to the target (at most {furthest} of {} \
                 waypoints passed)",
                self.seq.steps.len()
            ),
        }
    }

    /// Searches from `start` for a node at the targets, remembering the
    /// nodes seen by their hashes (a collision can only hide a path).
    fn search(&self, start: &Node, order: Order, budget: usize) -> Result<Replayed, Failure> {
        let key = |n: &Node| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            n.hash(&mut h);
            h.finish()
        };
        let mut seen: HashSet<u64> = HashSet::from([key(start)]);
        let mut work = VecDeque::from([start.clone()]);
        let mut furthest = 0;
        while let Some(node) = match order {
            Order::BreadthFirst => work.pop_front(),
            Order::DepthFirst => work.pop_back(),
        } {
            if seen.len() > budget {
                return Err(Failure::Budget(budget));
            }
            furthest = furthest.max(node.passed);
            for (k, &at) in node.state.locs.iter().enumerate() {
                let th = ThreadId::new(k);
                for &t in &self.p.thread(th).transitions {
                    if self.p.transition(t).from != at {
                        continue;
                    }
                    for next in self.advance(&node, t) {
                        if self.at_targets(&next) {
                            return Ok(self.replayed(&next));
                        }
                        if seen.insert(key(&next)) {
                            work.push_back(next);
                        }
                    }
                }
            }
        }
        Err(Failure::Exhausted(furthest))
    }

    fn replayed(&self, end: &Node) -> Replayed {
        Replayed {
            steps: self.seq.steps.len() + 1,
            assumptions: self
                .seq
                .steps
                .iter()
                .filter(|w| matches!(w.kind, Kind::FunctionReturn(_)))
                .count(),
            threads_created: end.ids.len() - 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::result_value;

    /// `x op k` for every operator and a few constants: the bound is the
    /// least (else greatest) integer that satisfies it.
    #[test]
    fn bounds_of_linear_comparisons() {
        use super::bound;
        use engine::interp::State;
        use engine::ir::{CmpOp, Term, VarId};
        let state = State {
            locs: vec![],
            vals: vec![0, 7],
            arrays: Vec::new(),
        };
        let x = Term::Var(VarId::new(0));
        for k in -5i64..=5 {
            for c in [1i64, 2, -2, 3] {
                // c*x + y op k, y = 7
                let l = Term::Add(
                    Box::new(Term::Mul(c, Box::new(x.clone()))),
                    Box::new(Term::Var(VarId::new(1))),
                );
                for op in CmpOp::ALL {
                    let (mut lo, mut hi) = (None, None);
                    bound(
                        op,
                        &l,
                        &Term::Const(k),
                        &state,
                        VarId::new(0),
                        &mut lo,
                        &mut hi,
                    );
                    let holds = |v: i128| op.holds(i128::from(c) * v + 7, i128::from(k));
                    let expect: Vec<i128> = (-50..=50).filter(|&v| holds(v)).collect();
                    let within = |v: i128| lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h);
                    if op != CmpOp::Ne {
                        assert!(
                            (-50..=50).all(|v| within(v) == holds(v)),
                            "{c}*x + 7 {op:?} {k}: [{lo:?}, {hi:?}], {expect:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn result_constraints() {
        assert_eq!(result_value("\\result == 5"), Some(5));
        assert_eq!(result_value("\\result == (-3)"), Some(-3));
        assert_eq!(result_value("x == 5"), None);
    }
}
