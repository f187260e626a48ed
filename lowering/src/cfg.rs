//! The control-flow graph of one thread instance, as the lowering builds it,
//! and its compression into large blocks.
//!
//! An edge is `havoc H; assume guard; assigns` from one location to another:
//! first the variables of `H` (always thread-local temporaries) get arbitrary
//! values, then the guard is evaluated and the concurrent assignment made,
//! all over the state after the havoc. Emission turns an edge with a havoc
//! into two IR transitions (the havoc is a local step, so this is exact).

use std::collections::{BTreeSet, HashMap};

use engine::ir::{ArrayId, CmpOp, Cond, Term, VarId};
use frontend::lang_c::span::Span;

use crate::term::{and, cond_size, subst_cond, subst_term, term_size};

/// A location of a thread's CFG (index into [`Cfg::locs`]).
pub type Loc = usize;

/// What a location is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocKind {
    /// An ordinary program point.
    Normal,
    /// The thread's start routine (or `main`) has returned, or the thread
    /// called `pthread_exit`.
    End,
    /// The program has stopped: `main` returned, or `exit`/`abort` was called.
    Exit,
    /// `reach_error()` or a failing assertion was reached.
    Error,
    /// The program reached something whose behaviour is not modelled
    /// (undefined behaviour, a thread-creation limit): a trace to here gives
    /// `unknown`, with this reason.
    GiveUp(crate::GiveUp),
    /// A checked memory-safety or overflow property is violated.
    Violation(crate::Violated),
}

impl LocKind {
    /// Whether the location is a sink that the compression keeps.
    pub fn is_special(&self) -> bool {
        !matches!(self, LocKind::Normal)
    }
}

/// A location and what is known about it.
#[derive(Clone, Debug)]
pub struct LocInfo {
    /// What it is.
    pub kind: LocKind,
    /// The C source it belongs to (its first statement), if any.
    pub span: Option<Span>,
    /// Whether some outgoing edge may block (a lock, a join, an assumption):
    /// the outgoing guards need not cover every state.
    pub blocking: bool,
    /// Whether the outgoing edges are a blocking call (a lock, a join, a
    /// semaphore wait...), what it waits for: a thread here whose edges are
    /// all disabled is deadlocked when no other thread can move either.
    pub wait: Option<crate::Wait>,
    /// Nesting depth of atomic sections here (set by [`Cfg::atomic_depths`]).
    pub depth: u32,
}

/// How an edge takes part in atomic sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// An ordinary step.
    Plain,
    /// `__VERIFIER_atomic_begin()`.
    AtomicBegin,
    /// `__VERIFIER_atomic_end()`.
    AtomicEnd,
}

/// What an edge does to a mutex, as the lowering of `pthread_mutex_lock`
/// and `pthread_mutex_unlock` marks it (the reduction's lockset analysis
/// reads it; nothing else does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Sync {
    /// Nothing (or something the lockset analysis does not understand).
    #[default]
    None,
    /// Acquires the mutex cell: guard `m == 0`, assigns `m := owner`.
    Acquire(VarId, i64),
    /// Releases the mutex cell: guard `m == owner`, assigns `m := 0`.
    Release(VarId, i64),
}

/// How a step commutes with the steps of other threads (Lipton's movers).
/// A right mover can be delayed until the thread's next step, a left mover
/// taken as soon as the thread reaches it; a both-mover can be either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// Commutes with every step of every other thread.
    Both,
    /// Commutes to the right (an acquire, a thread's start).
    Right,
    /// Commutes to the left (a release).
    Left,
    /// Neither: the step stays its own interleaving point.
    Non,
}

impl Mover {
    /// The class of `a; b` executed as one step.
    pub fn then(self, b: Mover) -> Mover {
        match (self, b) {
            (Mover::Both, x) | (x, Mover::Both) => x,
            (Mover::Right, Mover::Right) => Mover::Right,
            (Mover::Left, Mover::Left) => Mover::Left,
            _ => Mover::Non,
        }
    }
    /// Whether the step may be delayed until the thread's next step.
    pub fn delays(self) -> bool {
        matches!(self, Mover::Both | Mover::Right)
    }
    /// Whether the step may be taken as soon as it is reached.
    pub fn hastens(self) -> bool {
        matches!(self, Mover::Both | Mover::Left)
    }
}

/// `havoc; assume guard; assigns`.
#[derive(Clone, Debug)]
pub struct Edge {
    /// Source location.
    pub from: Loc,
    /// Target location.
    pub to: Loc,
    /// Variables given arbitrary values first.
    pub havoc: Vec<VarId>,
    /// The condition (over the state after the havoc).
    pub guard: Cond,
    /// Concurrent assignments (over the state after the havoc).
    pub assigns: Vec<(VarId, Term)>,
    /// Stores into IR arrays `(array, index, value)`, made with the
    /// assignments (the exact array model, [`crate::Options::array_values`]).
    /// An edge with stores is not composed with a later one that reads
    /// the arrays it stores into.
    pub stores: Vec<(ArrayId, Term, Term)>,
    /// The C construct it comes from.
    pub span: Option<Span>,
    /// Atomic-section role.
    pub kind: EdgeKind,
    /// What it does to a mutex.
    pub sync: Sync,
    /// How it commutes with other threads' steps (set before compression).
    pub mover: Mover,
    /// Removed by the compression.
    pub dead: bool,
    /// The accesses of this step that may take part in a data race
    /// ([`crate::races`]); such a step is never composed with another, so
    /// that the state before it stays a state of the program.
    pub accesses: Vec<Access>,
    /// Reads of shared cells that C makes at this step, each with the
    /// condition (over the state the guard sees) under which it makes it:
    /// every read of a C object the lowering evaluated, also those whose
    /// value the guard and assignments no longer show (an operand folded
    /// away, an argument of a library call that is not modelled). The race
    /// check reads them ([`crate::races`]).
    pub reads: Vec<(Cond, VarId)>,
}

/// One memory access of a step, as the race check sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The cell accessed.
    pub var: VarId,
    /// Whether the step writes it (else it reads it).
    pub write: bool,
    /// Whether the access is atomic (inside an atomic section, or to an
    /// `_Atomic` object).
    pub atomic: bool,
    /// A read made by the guard alone, which C's `&&` and `||` may skip
    /// ([`crate::races::reads_when`]); writes and reads by right-hand
    /// sides happen whenever the step is taken.
    pub in_guard_only: bool,
    /// For a read by the guard alone: it also happens where this holds
    /// (a read the lowering recorded, [`Edge::reads`]).
    pub also: Cond,
}

/// A thread instance's control-flow graph.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    /// Locations; 0 is the entry.
    pub locs: Vec<LocInfo>,
    /// Edges.
    pub edges: Vec<Edge>,
    /// Whether [`Cfg::compress`] keeps the locations that may block, and
    /// the steps leaving blocking calls free of inputs.
    keep_blocking: bool,
    /// Whether the thread's entry waits for another thread to start it
    /// (its `run` flag).
    pub waits_to_start: bool,
}

/// Most edges a merge may create at one location.
const MAX_PRODUCT: usize = 32;
/// Largest guard or right-hand side (in nodes) a merge may create.
const MAX_SIZE: usize = 400;

impl Cfg {
    /// A new location.
    pub fn loc(&mut self, kind: LocKind, span: Option<Span>) -> Loc {
        self.locs.push(LocInfo {
            kind,
            span,
            blocking: false,
            wait: None,
            depth: 0,
        });
        self.locs.len() - 1
    }

    /// Marks `l` as a blocking call waiting for `wait`.
    pub fn wait(&mut self, l: Loc, wait: crate::Wait) {
        self.locs[l].blocking = true;
        self.locs[l].wait = Some(wait);
    }

    /// Adds an edge.
    /// Adds an edge.
    pub fn edge(&mut self, e: Edge) {
        self.edges.push(e);
    }

    /// The live edges.
    pub fn live(&self) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(|e| !e.dead)
    }

    /// Locations reachable from the entry.
    pub fn reachable(&self) -> Vec<bool> {
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); self.locs.len()];
        for e in self.live() {
            out[e.from].push(e.to);
        }
        let mut seen = vec![false; self.locs.len()];
        let mut stack = vec![0];
        while let Some(l) = stack.pop() {
            if l < seen.len() && !seen[l] {
                seen[l] = true;
                stack.extend(out[l].iter().copied());
            }
        }
        seen
    }

    /// Marks the edges leaving locations unreachable from the entry as dead.
    pub fn drop_unreachable(&mut self) {
        let reach = self.reachable();
        for e in &mut self.edges {
            if !reach[e.from] {
                e.dead = true;
            }
        }
    }

    /// Computes the atomic-section depth of every reachable location and
    /// resolves the begin/end edges: the outermost begin sets `flag` to 1 and
    /// the outermost end sets it to 0; nested ones do nothing. Returns the
    /// span of an edge where the depths disagree (an atomic section entered
    /// on one path but not another), if any.
    pub fn atomic_depths(&mut self, flag: VarId) -> Result<(), Option<Span>> {
        let mut depth: Vec<Option<u32>> = vec![None; self.locs.len()];
        depth[0] = Some(0);
        let mut changed = true;
        // A worklist would be faster; CFGs are small and this converges in
        // a few sweeps because depths never change once set.
        while changed {
            changed = false;
            for e in self.edges.iter().filter(|e| !e.dead) {
                let Some(d) = depth[e.from] else { continue };
                let next = match e.kind {
                    EdgeKind::Plain => d,
                    EdgeKind::AtomicBegin => d + 1,
                    EdgeKind::AtomicEnd => match d.checked_sub(1) {
                        Some(n) => n,
                        None => return Err(e.span),
                    },
                };
                match depth[e.to] {
                    None => {
                        depth[e.to] = Some(next);
                        changed = true;
                    }
                    Some(old) if old != next && !self.locs[e.to].kind.is_special() => {
                        return Err(e.span)
                    }
                    Some(_) => {}
                }
            }
        }
        for (l, d) in depth.iter().enumerate() {
            self.locs[l].depth = d.unwrap_or(0);
        }
        for e in &mut self.edges {
            let d = self.locs[e.from].depth;
            match e.kind {
                EdgeKind::AtomicBegin if d == 0 => e.assigns.push((flag, Term::Const(1))),
                EdgeKind::AtomicEnd if d == 1 => e.assigns.push((flag, Term::Const(0))),
                _ => {}
            }
            if e.kind == EdgeKind::AtomicBegin && d == 0 {
                self.locs[e.from].blocking = true;
                self.locs[e.from].wait = Some(crate::Wait {
                    kind: crate::WaitKind::Atomic,
                    span: e.span,
                });
            }
            e.kind = EdgeKind::Plain;
        }
        Ok(())
    }

    /// Merges chains of steps into large blocks (see ARCHITECTURE.md, "Large
    /// blocks" and "Reduction"). A location `L` is removed, each incoming
    /// edge composed with each outgoing one, when
    /// (a) every incoming edge is a right mover (delaying it until the next
    ///     step keeps reachability), or
    /// (b) every outgoing edge is a left mover and `L` cannot block (taking
    ///     it at once keeps reachability), or
    /// (c) `L` is inside an atomic section and cannot block (no other thread
    ///     runs there).
    /// Every edge's [`Mover`] class must be set; a composed edge gets the
    /// class of the sequence.
    ///
    /// With `keep_blocking` (deadlocks are checked), no blocking call's
    /// location is removed (a waiting thread stays there), and no step
    /// leaving one is merged with a later step that may block: a step
    /// leaving a blocking call then blocks only where the call does
    /// (SOUNDNESS.md, "Deadlocks").
    pub fn compress(&mut self, keep_blocking: bool) {
        self.keep_blocking = keep_blocking;
        self.eliminate_while(
            &|info| !(info.kind.is_special() || keep_blocking && info.wait.is_some()),
            true,
        );
    }

    /// Removes the locations `pick` accepts while [`Cfg::try_eliminate`]
    /// can, then drops the dead edges.
    fn eliminate_while(&mut self, pick: &dyn Fn(&LocInfo) -> bool, inputs_late: bool) {
        loop {
            let mut merged_any = false;
            for l in 1..self.locs.len() {
                if pick(&self.locs[l]) && self.try_eliminate(l, inputs_late) {
                    merged_any = true;
                }
            }
            if !merged_any {
                break;
            }
        }
        self.edges.retain(|e| !e.dead);
    }

    /// Merges the inside of atomic sections before the reduction classifies
    /// the steps: rule (c) of [`Cfg::compress`] alone, for every location
    /// inside a section that cannot block. A section without a blocking
    /// step or a loop becomes one step per path through it. Such a step
    /// from outside to outside every section no longer writes the atomic
    /// flag: it sets it to 1 and back to 0, under the guard `flag == 0`
    /// that emission adds to every step leaving a location outside the
    /// sections, so it is an ordinary atomic step (SOUNDNESS.md,
    /// "Reduction": flag locks).
    pub fn collapse_atomic_sections(&mut self, flag: VarId) {
        self.eliminate_while(
            &|info| info.depth > 0 && !info.blocking && !info.kind.is_special(),
            false,
        );
        for e in &mut self.edges {
            let (from, to) = (&self.locs[e.from], &self.locs[e.to]);
            if from.depth == 0 && to.depth == 0 && !to.kind.is_special() {
                e.assigns
                    .retain(|(v, t)| !(*v == flag && *t == Term::Const(0)));
            }
        }
    }

    /// Classifies the edges without any knowledge of locks: an edge that
    /// touches only the thread's own variables, reads no location and
    /// enters no special location is a both-mover, every other edge a
    /// non-mover (the classic large blocks; `--no-reduce`).
    pub fn classify_invisible(&mut self, shared: &dyn Fn(VarId) -> bool) {
        for i in 0..self.edges.len() {
            let vis = self.visible(&self.edges[i], shared);
            self.edges[i].mover = if vis { Mover::Non } else { Mover::Both };
        }
    }

    /// Whether an edge reads or writes a shared variable, reads a location,
    /// or enters a special location.
    pub fn visible(&self, e: &Edge, shared: &dyn Fn(VarId) -> bool) -> bool {
        if self.locs[e.to].kind.is_special() || e.guard.mentions_locations() || e.touches_arrays() {
            return true;
        }
        let mut vis = false;
        e.for_each_var(&mut |v| vis |= shared(v));
        vis
    }

    /// Removes location `l` when a rule of [`Cfg::compress`] allows it.
    ///
    /// With `inputs_late`, a step that havocs is not merged after a step
    /// that is not a both-mover: a thread does not choose its inputs before
    /// it waits for a lock (the choice is local, so this is only about the
    /// size of the model: a waiting thread holding an input is a state per
    /// value).
    fn try_eliminate(&mut self, l: Loc, inputs_late: bool) -> bool {
        let ins: Vec<usize> = (0..self.edges.len())
            .filter(|&i| !self.edges[i].dead && self.edges[i].to == l)
            .collect();
        let outs: Vec<usize> = (0..self.edges.len())
            .filter(|&i| !self.edges[i].dead && self.edges[i].from == l)
            .collect();
        if ins.is_empty() || outs.is_empty() || ins.len() * outs.len() > MAX_PRODUCT {
            return false;
        }
        if outs.iter().any(|&o| self.edges[o].to == l) {
            return false;
        }
        let info = &self.locs[l];
        let ins_invisible = ins.iter().all(|&i| self.edges[i].mover.delays());
        let outs_invisible = outs.iter().all(|&o| self.edges[o].mover.hastens());
        let ok = ins_invisible
            || (outs_invisible && !info.blocking)
            || (info.depth > 0 && !info.blocking);
        if !ok {
            return false;
        }
        // A step leaving a blocking call, or the start of a created thread
        // (its entry waits for the `run` flag), chooses no input and passes
        // no other blocking location: the call's guard must be that of the
        // first IR step, and the only reason it blocks.
        let after_wait = |i: usize| {
            let from = self.edges[i].from;
            self.keep_blocking
                && (self.locs[from].wait.is_some() || (from == 0 && self.waits_to_start))
        };
        if info.blocking && ins.iter().any(|&i| after_wait(i)) {
            return false;
        }
        if inputs_late
            && ins
                .iter()
                .any(|&i| self.edges[i].mover != Mover::Both || after_wait(i))
            && outs.iter().any(|&o| !self.edges[o].havoc.is_empty())
        {
            return false;
        }
        let mut composed = Vec::new();
        for &i in &ins {
            for &o in &outs {
                match compose(&self.edges[i], &self.edges[o]) {
                    Some(mut e) => {
                        // The merged step shows the source of its visible
                        // part (a guard alone, like a thread's start, is not).
                        let first = &self.edges[i];
                        if !ins_invisible
                            && outs_invisible
                            && first.span.is_some()
                            && !first.assigns.is_empty()
                        {
                            e.span = self.edges[i].span;
                        }
                        composed.push(e)
                    }
                    None => return false,
                }
            }
        }
        let blocking = self.locs[l].blocking;
        for &i in &ins {
            let from = self.edges[i].from;
            self.locs[from].blocking |= blocking;
            self.edges[i].dead = true;
        }
        for &o in &outs {
            self.edges[o].dead = true;
        }
        self.edges.extend(composed);
        true
    }
}

/// `e1; e2` as one edge, or `None` when the result would be too large,
/// `e2` havocs a variable `e1` reads, or either step may race.
fn compose(e1: &Edge, e2: &Edge) -> Option<Edge> {
    // A step that may race stays its own step (see `Edge::accesses`). A
    // store into an array is not merged with a later step that reads the
    // array (that read would need the store's value: terms have no
    // conditional).
    if !e1.accesses.is_empty() || !e2.accesses.is_empty() {
        return None;
    }
    let mut stored = BTreeSet::new();
    for (a, _, _) in &e1.stores {
        stored.insert(*a);
    }
    let mut reads_stored = false;
    e2.for_each_array_access(&mut |a, write| reads_stored |= !write && stored.contains(&a));
    if reads_stored {
        return None;
    }
    let h2: BTreeSet<VarId> = e2.havoc.iter().copied().collect();
    let mut reads1: BTreeSet<VarId> = e1.assigns.iter().map(|(v, _)| *v).collect();
    e1.for_each_read(&mut |v| {
        reads1.insert(v);
    });
    for (c, v) in &e1.reads {
        reads1.insert(*v);
        c.for_each_var(&mut |v| {
            reads1.insert(v);
        });
    }
    if h2
        .iter()
        .any(|v| reads1.contains(v) || e1.havoc.contains(v))
    {
        return None;
    }
    let sigma: HashMap<VarId, Term> = e1
        .assigns
        .iter()
        .filter(|(v, _)| !h2.contains(v))
        .cloned()
        .collect();
    let f = |v: VarId| sigma.get(&v).cloned();
    let guard = and(e1.guard.clone(), subst_cond(&e2.guard, &f));
    if cond_size(&guard) > MAX_SIZE {
        return None;
    }
    let mut assigns: Vec<(VarId, Term)> = Vec::new();
    for (v, t) in &e2.assigns {
        let t = subst_term(t, &f);
        if term_size(&t) > MAX_SIZE {
            return None;
        }
        assigns.push((*v, t));
    }
    for (v, t) in &e1.assigns {
        if !h2.contains(v) && !e2.assigns.iter().any(|(w, _)| w == v) {
            assigns.push((*v, t.clone()));
        }
    }
    // Stores apply in order: `e1`'s, then `e2`'s over the state after `e1`.
    let mut stores = e1.stores.clone();
    for (a, i, t) in &e2.stores {
        let (i, t) = (subst_term(i, &f), subst_term(t, &f));
        if term_size(&i) > MAX_SIZE || term_size(&t) > MAX_SIZE {
            return None;
        }
        stores.push((*a, i, t));
    }
    let mut havoc = e1.havoc.clone();
    havoc.extend(e2.havoc.iter().copied());
    let mut reads = e1.reads.clone();
    for (c, v) in &e2.reads {
        reads.push((subst_cond(c, &f), *v));
    }
    Some(Edge {
        from: e1.from,
        to: e2.to,
        havoc,
        guard,
        assigns,
        stores,
        span: e2.span.or(e1.span),
        kind: EdgeKind::Plain,
        sync: Sync::None,
        mover: e1.mover.then(e2.mover),
        dead: false,
        accesses: Vec::new(),
        reads,
    })
}

impl Edge {
    /// A plain edge without havoc, span or mutex operation, not yet
    /// classified (a non-mover).
    pub fn new(from: Loc, to: Loc, guard: Cond, assigns: Vec<(VarId, Term)>) -> Edge {
        Edge {
            from,
            to,
            havoc: vec![],
            guard,
            assigns,
            stores: Vec::new(),
            span: None,
            kind: EdgeKind::Plain,
            sync: Sync::None,
            mover: Mover::Non,
            dead: false,
            accesses: Vec::new(),
            reads: Vec::new(),
        }
    }

    /// `havoc v; assume v == k ∧ g; a` is `assume g[k/v]; a[k/v], v := k`
    /// (`v := k` unless `a` assigns `v`): for every havocked variable of
    /// `only` whose guard fixes it to a literal, the same steps without the
    /// choice (a plain assignment, which no search has to enumerate).
    pub fn fix_havocs(&mut self, only: &dyn Fn(VarId) -> bool) {
        if self.havoc.is_empty() {
            return;
        }
        let mut conjuncts = Vec::new();
        conjuncts_of(&self.guard, &mut conjuncts);
        let fixed: Vec<(VarId, Term)> = self
            .havoc
            .iter()
            .filter(|&&v| only(v))
            .filter_map(|&v| {
                conjuncts.iter().find_map(|c| match c {
                    Cond::Cmp(CmpOp::Eq, Term::Var(w), k @ Term::Const(_))
                    | Cond::Cmp(CmpOp::Eq, k @ Term::Const(_), Term::Var(w))
                        if *w == v =>
                    {
                        Some((v, k.clone()))
                    }
                    _ => None,
                })
            })
            .collect();
        if fixed.is_empty() {
            return;
        }
        let value = |v: VarId| fixed.iter().find(|(w, _)| *w == v).map(|(_, k)| k.clone());
        self.havoc.retain(|&v| value(v).is_none());
        self.guard = subst_cond(&self.guard, &value);
        for (_, t) in &mut self.assigns {
            *t = subst_term(t, &value);
        }
        for (_, i, t) in &mut self.stores {
            *i = subst_term(i, &value);
            *t = subst_term(t, &value);
        }
        for (c, _) in &mut self.reads {
            *c = subst_cond(c, &value);
        }
        for (v, k) in fixed {
            if !self.assigns.iter().any(|(w, _)| *w == v) {
                self.assigns.push((v, k));
            }
        }
    }

    /// Calls `f` on every variable the edge havocs, reads or writes.
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId)) {
        for v in &self.havoc {
            f(*v);
        }
        self.guard.for_each_var(f);
        for (v, t) in &self.assigns {
            f(*v);
            t.for_each_var(f);
        }
        for (_, i, t) in &self.stores {
            i.for_each_var(f);
            t.for_each_var(f);
        }
        for (c, v) in &self.reads {
            c.for_each_var(f);
            f(*v);
        }
    }

    /// Calls `f` on every variable the edge reads: its guard, right-hand
    /// sides and stores (indices and values), not its recorded reads.
    pub fn for_each_read(&self, f: &mut impl FnMut(VarId)) {
        self.guard.for_each_var(f);
        self.for_each_rhs_read(f);
    }

    /// Calls `f` on every variable the edge's right-hand sides and stores
    /// (indices and values) read.
    pub fn for_each_rhs_read(&self, f: &mut impl FnMut(VarId)) {
        for (_, t) in &self.assigns {
            t.for_each_var(f);
        }
        for (_, i, t) in &self.stores {
            i.for_each_var(f);
            t.for_each_var(f);
        }
    }

    /// Calls `f` on every IR array the edge reads (`false`) or writes
    /// (`true`).
    pub fn for_each_array_access(&self, f: &mut impl FnMut(ArrayId, bool)) {
        self.guard.for_each_array(&mut |a| f(a, false));
        for (_, t) in &self.assigns {
            t.for_each_array(&mut |a| f(a, false));
        }
        for (a, i, t) in &self.stores {
            i.for_each_array(&mut |b| f(b, false));
            t.for_each_array(&mut |b| f(b, false));
            f(*a, true);
        }
    }

    /// Whether the edge reads or writes an IR array.
    pub fn touches_arrays(&self) -> bool {
        let mut any = !self.stores.is_empty();
        self.guard.for_each_array(&mut |_| any = true);
        for (_, t) in &self.assigns {
            t.for_each_array(&mut |_| any = true);
        }
        any
    }
}

/// The conjuncts of a condition.
pub(crate) fn conjuncts_of(c: &Cond, out: &mut Vec<Cond>) {
    match c {
        Cond::And(a, b) => {
            conjuncts_of(a, out);
            conjuncts_of(b, out);
        }
        Cond::True => {}
        c => out.push(c.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::cmp;

    #[test]
    fn a_havoc_the_guard_fixes_becomes_an_assignment() {
        // havoc f, t; assume f == 1 && t <= 1 && x == f; y := f + t
        // is havoc t; assume t <= 1 && x == 1; y := 1 + t, f := 1.
        let (f, t, x, y) = (VarId(0), VarId(1), VarId(2), VarId(3));
        let var = Term::Var;
        let mut e = Edge::new(
            0,
            1,
            and(
                and(
                    cmp(CmpOp::Eq, var(f), Term::Const(1)),
                    cmp(CmpOp::Le, var(t), Term::Const(1)),
                ),
                cmp(CmpOp::Eq, var(x), var(f)),
            ),
            vec![(y, crate::term::add(var(f), var(t)))],
        );
        e.havoc = vec![f, t];
        e.fix_havocs(&|v| v == f);
        assert_eq!(e.havoc, vec![t]);
        assert_eq!(
            e.guard,
            and(
                cmp(CmpOp::Le, var(t), Term::Const(1)),
                cmp(CmpOp::Eq, var(x), Term::Const(1))
            )
        );
        assert_eq!(
            e.assigns,
            vec![
                (y, crate::term::add(Term::Const(1), var(t))),
                (f, Term::Const(1))
            ]
        );
        // A variable outside `only` stays a choice.
        let mut g = Edge::new(0, 1, cmp(CmpOp::Eq, var(t), Term::Const(2)), vec![]);
        g.havoc = vec![t];
        g.fix_havocs(&|v| v == f);
        assert_eq!(g.havoc, vec![t]);
    }

    #[test]
    fn local_prefix_merges_into_shared_step() {
        // l := 1; g := l + 1  (l local, g shared) becomes g := 2 with l := 1.
        let (l, g) = (VarId(0), VarId(1));
        let mut cfg = Cfg::default();
        let a = cfg.loc(LocKind::Normal, None);
        let b = cfg.loc(LocKind::Normal, None);
        let c = cfg.loc(LocKind::Normal, None);
        cfg.edge(Edge::new(a, b, Cond::True, vec![(l, Term::Const(1))]));
        cfg.edge(Edge::new(
            b,
            c,
            Cond::True,
            vec![(
                g,
                Term::Add(Box::new(Term::Var(l)), Box::new(Term::Const(1))),
            )],
        ));
        cfg.classify_invisible(&|v| v == g);
        cfg.compress(false);
        assert_eq!(cfg.edges.len(), 1);
        let e = &cfg.edges[0];
        assert_eq!((e.from, e.to), (a, c));
        assert!(e.assigns.contains(&(g, Term::Const(2))));
    }

    #[test]
    fn two_shared_steps_stay_apart_and_blocking_suffix_is_kept() {
        // g := 1; assume(l > 0) must not become one step: the thread could
        // block after writing g.
        let (l, g) = (VarId(0), VarId(1));
        let mut cfg = Cfg::default();
        let a = cfg.loc(LocKind::Normal, None);
        let b = cfg.loc(LocKind::Normal, None);
        let c = cfg.loc(LocKind::Normal, None);
        let d = cfg.loc(LocKind::Normal, None);
        cfg.edge(Edge::new(a, b, Cond::True, vec![(g, Term::Const(1))]));
        cfg.locs[b].blocking = true;
        cfg.edge(Edge::new(
            b,
            c,
            Cond::Cmp(CmpOp::Gt, Term::Var(l), Term::Const(0)),
            vec![],
        ));
        cfg.edge(Edge::new(c, d, Cond::True, vec![(g, Term::Const(2))]));
        cfg.classify_invisible(&|v| v == g);
        cfg.compress(false);
        // b -> c (local, blocking) merges forward into c -> d, not back.
        assert_eq!(cfg.edges.len(), 2);
        assert!(cfg.edges.iter().any(|e| e.from == a && e.to == b));
    }
}
