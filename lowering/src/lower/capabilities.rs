//! Checking Clang's thread-safety annotations ([`crate::annotations`];
//! SOUNDNESS.md, "Thread-safety annotations") on every interleaving.
//!
//! A capability is an object; a thread holds it
//! - when it is a mutex or spin lock (its first cell is one): the lock's
//!   cell holds the thread's number;
//! - when it is a read-write lock: for writing, its cell holds minus the
//!   thread's number; for reading, also when the thread's count of read
//!   locks of it is positive (kept by the read-write lock calls while
//!   annotations are checked);
//! - otherwise: as the annotated functions say, in a ghost variable of the
//!   thread (0 not held, 1 shared, 2 exclusive) that an `acquire` sets and
//!   a `release` clears when the function returns.
//!
//! The checks are observers: a violation is a branch of the step to a
//! violation location, and the execution also goes on (the annotations do
//! not change what C does). They are recorded while lowering as [`Site`]s
//! (calls of annotated functions, dereferences of `pt_guarded_by`
//! pointers) and found after lowering for `guarded_by` memory, whose every
//! access the race check's access analysis names
//! ([`crate::races::step_accesses`]), also through aliases.

use std::collections::{HashMap, HashSet};

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::{Expression, MemberOperator, UnaryOperator};
use frontend::lang_c::span::{Node, Span};

use super::expr::{Place, Target};
use super::{Lowerer, ObjId};
use crate::annotations::{Annotations, Contract, Effect, Guard, Mode};
use crate::cfg::{Edge, Loc, LocKind};
use crate::error::Result;
use crate::term::{and, any, cmp, not, or, Range};
use crate::types::CType;
use crate::Violation;

/// A capability one case of an expression designates.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cap {
    /// The capability object's first cell.
    Cell(VarId),
    /// Not an object the lowering resolves (why).
    Unresolved(String),
}

/// What a check needs of the capability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    /// The thread holds it (at least in this mode).
    Held(Mode),
    /// The thread does not hold it.
    Free,
}

/// A check recorded while lowering.
#[derive(Clone, Debug)]
struct Site {
    thread: usize,
    loc: Loc,
    /// Only when this holds.
    when: Cond,
    cases: Vec<(Cond, Cap)>,
    need: Need,
    reason: String,
    span: Span,
    /// The step's havoc, when `when` is a step's guard.
    havoc: Vec<VarId>,
}

/// How the place being lowered is used (`pt_guarded_by` needs to know).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum PlaceUse {
    #[default]
    Read,
    Write,
    /// Only its address is taken.
    Address,
}

/// The state of the check.
#[derive(Debug, Default)]
pub(crate) struct CapState {
    ann: Annotations,
    /// Per (capability cell, thread): the ghost hold.
    ghosts: HashMap<(VarId, usize), VarId>,
    /// Per (read-write lock cell, thread): the read locks it holds.
    readers: HashMap<(VarId, usize), VarId>,
    /// Cells used as read-write locks and as spin locks.
    rwlocks: HashSet<VarId>,
    spins: HashSet<VarId>,
    sites: Vec<Site>,
    /// The use of the place being lowered.
    pub(crate) place_use: PlaceUse,
}

/// A guard of a cell: the annotation, its capability per case, the name
/// guarded.
struct Guarded {
    guard: Guard,
    caps: Vec<(Cond, Cap)>,
    name: String,
}

/// A contract of a call, its capabilities evaluated at entry.
pub(super) struct Pending {
    effect: Effect,
    cases: Vec<Vec<(Cond, Cap)>>,
    texts: Vec<String>,
    attribute: String,
}

impl Lowerer<'_> {
    /// Reads the unit's annotations (once, when they are checked).
    pub(super) fn read_annotations(&mut self) {
        if self.checks.thread_safety {
            self.caps.ann = crate::annotations::collect(&self.unit.unit);
        }
    }

    /// Whether annotations are checked and the unit has some.
    pub(super) fn checking_capabilities(&self) -> bool {
        self.checks.thread_safety && (self.caps.ann.any() || self.types.guarded_fields)
    }

    /// The number of sites recorded (the statement guard undoes them).
    pub(super) fn cap_sites(&self) -> usize {
        self.caps.sites.len()
    }

    pub(super) fn truncate_cap_sites(&mut self, n: usize) {
        self.caps.sites.truncate(n);
    }

    /// Notes a read-write lock or spin lock cell.
    pub(super) fn note_lock_cell(&mut self, cell: VarId, rwlock: bool) {
        if rwlock {
            self.caps.rwlocks.insert(cell);
        } else {
            self.caps.spins.insert(cell);
        }
    }

    /// The counter of read locks thread `me` holds of `cell`, when
    /// annotations are checked.
    pub(super) fn reader_count(&mut self, cell: VarId) -> Option<VarId> {
        if !self.checking_capabilities() {
            return None;
        }
        let k = self.t.index;
        if let Some(&v) = self.caps.readers.get(&(cell, k)) {
            return Some(v);
        }
        let name = format!(
            "{}.reads.{}",
            self.threads[k].name,
            self.vars[cell.index()].name
        );
        let v = self.var(name, Some(0), Range::new(0, i32::MAX.into()));
        self.caps.readers.insert((cell, k), v);
        Some(v)
    }

    fn ghost(&mut self, cell: VarId) -> VarId {
        let k = self.t.index;
        if let Some(&v) = self.caps.ghosts.get(&(cell, k)) {
            return v;
        }
        let name = format!(
            "{}.holds.{}",
            self.threads[k].name,
            self.vars[cell.index()].name
        );
        let v = self.var(name, Some(0), Range::new(0, 2));
        self.caps.ghosts.insert((cell, k), v);
        v
    }

    /// The source text of an expression.
    fn text_of(&self, e: &Node<Expression>) -> String {
        self.unit
            .text
            .get(e.span.start..e.span.end)
            .unwrap_or("?")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The capabilities a place designates, per case.
    fn caps_of(&self, p: &Place) -> Vec<(Cond, Cap)> {
        p.cases
            .iter()
            .map(|(c, t)| {
                let cap = match t {
                    Target::Cell(o, off) => match self.objects[*o].cells.get(*off as usize) {
                        Some(&cell) => Cap::Cell(cell),
                        None => Cap::Unresolved("an empty object".into()),
                    },
                    Target::Ub(u) => Cap::Unresolved(u.reason.clone()),
                    Target::Tail { .. } => Cap::Unresolved(super::tails::TAIL_MEMBER.into()),
                };
                (c.clone(), cap)
            })
            .collect()
    }

    /// The capabilities an annotation's expression designates in the
    /// current scope (a pointer designates what it points to). Its reads
    /// are not C's: they are not recorded for the race check.
    fn capability(&mut self, e: &Node<Expression>) -> Vec<(Cond, Cap)> {
        let reads = self.t.pending_reads.len();
        let place = (|| -> Result<Place> {
            if let Expression::UnaryOperator(u) = &e.node {
                if u.node.operator.node == UnaryOperator::Address {
                    return self.place(&u.node.operand);
                }
            }
            let v = match super::expr::is_place_expr(e).then(|| self.place(e)) {
                Some(Ok(p)) if !matches!(p.ty, CType::Ptr(_)) => return Ok(p),
                Some(Ok(p)) => self.read(p, e.span)?,
                _ => self.eval(e)?,
            };
            match v.ty.clone() {
                CType::Ptr(to) => self.deref(v, *to, e.span),
                _ => Err(crate::error::LowerError::unsupported(
                    e.span,
                    "a capability that is not an object",
                )),
            }
        })();
        self.t.pending_reads.truncate(reads);
        match place {
            Ok(p) => self.caps_of(&p),
            Err(err) => vec![(Cond::True, Cap::Unresolved(err.to_string()))],
        }
    }

    /// The place of a capability named in a global annotation (of a global
    /// variable or a struct field): globals and their members.
    fn global_capability(&mut self, e: &Node<Expression>) -> Option<Place> {
        match &e.node {
            Expression::Identifier(id) => {
                let o = self.global(&id.node.name).ok()??;
                Some(self.whole(o))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                self.global_capability(&u.node.operand)
            }
            Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
                let base = self.global_capability(&m.node.expression)?;
                self.member_place(base, &m.node.identifier.node.name)
            }
            _ => None,
        }
    }

    /// `base.field`.
    fn member_place(&self, base: Place, field: &str) -> Option<Place> {
        let CType::Struct(s) = base.ty else {
            return None;
        };
        let (ty, off) = self.types.field(s, field)?;
        let cases = base
            .cases
            .into_iter()
            .map(|(c, t)| match t {
                Target::Cell(o, x) => (c, Target::Cell(o, x + off)),
                other => (c, other),
            })
            .collect();
        Some(Place { cases, ty })
    }

    /// The guards of the cell at `off` in object `o`: of the variable, and
    /// of every field that contains the cell, with the capability of each
    /// (a field's guard names a sibling field of the same struct, or a
    /// global) and the guarded name.
    fn guards_at(&mut self, o: ObjId, off: u64) -> Vec<Guarded> {
        let mut out = Vec::new();
        // Only annotated globals have guards of their own (`global_name`
        // scans every global: not for each cell when none is annotated).
        let named = if self.caps.ann.globals.is_empty() {
            None
        } else {
            self.global_name(o)
        };
        if let Some(name) = named {
            for g in self
                .caps
                .ann
                .globals
                .get(&name)
                .cloned()
                .unwrap_or_default()
            {
                let caps = self.resolve_global(&g.cap);
                let name = self.unit.display_name(&name).to_string();
                out.push(Guarded {
                    guard: g,
                    caps,
                    name,
                });
            }
        }
        let mut ty = self.objects[o].ty.clone();
        let mut base = 0u64;
        loop {
            match ty {
                CType::Array(elem, _) => {
                    let n = self.types.cells(&elem).max(1);
                    base += (off - base) / n * n;
                    ty = *elem;
                }
                CType::Struct(s) => {
                    let def = self.types.structs[s].clone();
                    let Some(i) = def.fields.iter().rposition(|(_, _, fo)| base + fo <= off) else {
                        break;
                    };
                    for (_, g) in def.guards.iter().filter(|(f, _)| *f == i) {
                        let caps = match &g.cap.node {
                            Expression::Identifier(id) => {
                                match def.fields.iter().find(|(n, _, _)| *n == id.node.name) {
                                    Some((_, _, fo)) => {
                                        vec![(
                                            Cond::True,
                                            Cap::Cell(self.objects[o].cells[(base + fo) as usize]),
                                        )]
                                    }
                                    None => self.resolve_global(&g.cap),
                                }
                            }
                            _ => self.resolve_global(&g.cap),
                        };
                        out.push(Guarded {
                            guard: g.clone(),
                            caps,
                            name: def.fields[i].0.clone(),
                        });
                    }
                    base += def.fields[i].2;
                    ty = def.fields[i].1.clone();
                }
                _ => break,
            }
        }
        out
    }

    fn resolve_global(&mut self, e: &Node<Expression>) -> Vec<(Cond, Cap)> {
        match self.global_capability(e) {
            Some(p) => self.caps_of(&p),
            None => vec![(
                Cond::True,
                Cap::Unresolved(format!(
                    "the capability `{}` of a guard (only globals, their members and sibling fields are modelled)",
                    self.text_of(e)
                )),
            )],
        }
    }

    /// The name of a (not thread-local) global object.
    fn global_name(&self, o: ObjId) -> Option<String> {
        self.globals
            .iter()
            .find(|(n, &g)| g == o && !n.contains('#'))
            .map(|(n, _)| n.clone())
    }

    /// Records a check at the current location.
    fn site(
        &mut self,
        when: Cond,
        cases: Vec<(Cond, Cap)>,
        need: Need,
        reason: String,
        span: Span,
    ) {
        let Some(loc) = self.t.cur else { return };
        // In the middle of a step: its inputs are chosen first, as for the
        // step's own edges.
        let pending = self.t.pending_guard.iter().cloned().fold(when, and);
        self.caps.sites.push(Site {
            thread: self.t.index,
            loc,
            when: pending,
            cases,
            need,
            reason,
            span,
            havoc: self.t.pending_havoc.clone(),
        });
    }

    /// Checks a dereference of the pointer `e` designates (`*e`, `e->f`,
    /// `e[i]`) against its `pt_guarded_by` annotations.
    pub(super) fn check_pointee(&mut self, e: &Node<Expression>, how: PlaceUse, span: Span) {
        if !self.checking_capabilities() || how == PlaceUse::Address {
            return;
        }
        if !super::expr::is_place_expr(e) || super::expr::has_effects(e) {
            return;
        }
        let reads = self.t.pending_reads.len();
        let place = self.place(e);
        self.t.pending_reads.truncate(reads);
        let Ok(place) = place else { return };
        let mode = match how {
            PlaceUse::Write => Mode::Exclusive,
            _ => Mode::Shared,
        };
        for (c, t) in place.cases {
            let Target::Cell(o, off) = t else { continue };
            for Guarded { guard, caps, name } in self.guards_at(o, off) {
                if !guard.pointee {
                    continue;
                }
                let caps = caps
                    .into_iter()
                    .map(|(d, cap)| (and(c.clone(), d), cap))
                    .collect();
                let reason = format!(
                    "`*{name}` {} without holding `{}` (pt_guarded_by)",
                    if mode == Mode::Exclusive {
                        "written"
                    } else {
                        "read"
                    },
                    self.text_of(&guard.cap)
                );
                self.site(Cond::True, caps, Need::Held(mode), reason, span);
            }
        }
    }

    /// At the entry of an inlined call of `name` (its parameters bound):
    /// the checks of its contracts, and the contracts to apply when it
    /// returns.
    pub(super) fn enter_contracts(&mut self, name: &str, span: Span) -> Vec<Pending> {
        if !self.checking_capabilities() {
            return Vec::new();
        }
        let Some(contracts) = self.caps.ann.functions.get(name).cloned() else {
            return Vec::new();
        };
        let caller = self.t.frames.iter().rev().nth(1).map(|f| f.func.clone());
        let checked = !caller.is_some_and(|c| self.caps.ann.unchecked.contains(&c));
        let mut out = Vec::new();
        for Contract {
            effect,
            caps,
            attribute,
        } in contracts
        {
            let texts: Vec<String> = caps.iter().map(|e| self.text_of(e)).collect();
            let cases: Vec<_> = caps.iter().map(|e| self.capability(e)).collect();
            let need = match effect {
                Effect::Requires(m) => Some((Need::Held(m), "without holding")),
                Effect::Excludes => Some((Need::Free, "while holding")),
                Effect::Acquire(_) | Effect::TryAcquire(..) => {
                    Some((Need::Free, "while already holding"))
                }
                Effect::Release => Some((Need::Held(Mode::Shared), "without holding")),
            };
            if let (Some((need, how)), true) = (need, checked) {
                for (cs, text) in cases.iter().zip(&texts) {
                    let reason = format!(
                        "call of `{}` {how} `{text}` ({attribute})",
                        self.unit.display_name(name)
                    );
                    self.site(Cond::True, cs.clone(), need, reason, span);
                }
            }
            out.push(Pending {
                effect,
                cases,
                texts,
                attribute,
            });
        }
        out
    }

    /// When an inlined call of `name` returns (`ret` its result): the
    /// ghost holds its contracts set, and the checks that it kept them
    /// (for locks, whose holder the program itself says).
    pub(super) fn leave_contracts(
        &mut self,
        name: &str,
        pending: Vec<Pending>,
        ret: Option<Term>,
        span: Span,
    ) {
        let checked = !self.caps.ann.unchecked.contains(name);
        for p in pending {
            let (mode, when) = match &p.effect {
                Effect::Acquire(m) => (Some(*m), Cond::True),
                Effect::Release => (None, Cond::True),
                Effect::TryAcquire(m, value) => {
                    let Ok(v) = super::const_expr(&mut self.types, value) else {
                        continue;
                    };
                    let Some(r) = ret.clone() else { continue };
                    let v = i64::try_from(v).unwrap_or(i64::MAX);
                    let when = if v == 0 {
                        cmp(CmpOp::Eq, r, Term::Const(0))
                    } else {
                        cmp(CmpOp::Ne, r, Term::Const(0))
                    };
                    (Some(*m), when)
                }
                Effect::Requires(_) | Effect::Excludes => continue,
            };
            let value = match mode {
                None => 0,
                Some(Mode::Shared) => 1,
                Some(Mode::Exclusive) => 2,
            };
            for cs in &p.cases {
                self.set_ghosts(&when, cs, value, span);
            }
            if !checked {
                continue;
            }
            let (need, how) = match mode {
                Some(m) => (Need::Held(m), "without holding"),
                None => (Need::Free, "still holding"),
            };
            for (cs, text) in p.cases.into_iter().zip(&p.texts) {
                let reason = format!(
                    "`{}` returns {how} `{text}` ({})",
                    self.unit.display_name(name),
                    p.attribute
                );
                self.site(when.clone(), cs, need, reason, span);
            }
        }
    }

    /// One step: the ghost hold of each case's capability becomes `value`
    /// where `when` holds.
    fn set_ghosts(&mut self, when: &Cond, cases: &[(Cond, Cap)], value: i64, span: Span) {
        let Some(cur) = self.t.cur else { return };
        let next = self.new_loc(Some(span));
        let mut set = Vec::new();
        for (c, cap) in cases {
            let Cap::Cell(cell) = cap else { continue };
            let g = self.ghost(*cell);
            let c = and(when.clone(), c.clone());
            self.plain_edge(
                cur,
                next,
                c.clone(),
                vec![(g, Term::Const(value))],
                Some(span),
            );
            set.push(c);
        }
        self.plain_edge(cur, next, not(any(set)), vec![], Some(span));
        self.t.cur = Some(next);
    }

    /// Whether thread `k` holds the capability `cell` in `mode`.
    fn held(&self, cell: VarId, k: usize, mode: Mode, mutexes: &HashSet<VarId>) -> Cond {
        let me = k as i64 + 1;
        let at = |v: i64| cmp(CmpOp::Eq, Term::Var(cell), Term::Const(v));
        if mutexes.contains(&cell) || self.caps.spins.contains(&cell) {
            return at(me);
        }
        if self.caps.rwlocks.contains(&cell) {
            let reading = match (mode, self.caps.readers.get(&(cell, k))) {
                (Mode::Shared, Some(&r)) => cmp(CmpOp::Gt, Term::Var(r), Term::Const(0)),
                _ => Cond::False,
            };
            return or(at(-me), reading);
        }
        match self.caps.ghosts.get(&(cell, k)) {
            None => Cond::False,
            Some(&g) => {
                let least = if mode == Mode::Exclusive { 2 } else { 1 };
                cmp(CmpOp::Ge, Term::Var(g), Term::Const(least))
            }
        }
    }

    /// The condition under which a check fails, and the give-ups of its
    /// unresolved capabilities.
    fn failing(
        &self,
        k: usize,
        cases: &[(Cond, Cap)],
        need: Need,
        mutexes: &HashSet<VarId>,
    ) -> (Cond, Vec<(Cond, String)>) {
        let mut bad = Vec::new();
        let mut unresolved = Vec::new();
        for (c, cap) in cases {
            match cap {
                Cap::Cell(cell) => {
                    let fails = match need {
                        Need::Held(m) => not(self.held(*cell, k, m, mutexes)),
                        Need::Free => self.held(*cell, k, Mode::Shared, mutexes),
                    };
                    bad.push(and(c.clone(), fails));
                }
                Cap::Unresolved(why) => unresolved.push((c.clone(), why.clone())),
            }
        }
        (any(bad), unresolved)
    }

    /// The cells of mutexes (objects whose scalar there is a mutex).
    fn mutex_cells(&self) -> HashSet<VarId> {
        let mut out = HashSet::new();
        for o in &self.objects {
            let mut scalars = Vec::new();
            self.types.flatten(&o.ty, &mut scalars);
            for (s, &cell) in scalars.iter().zip(&o.cells) {
                if *s == CType::Mutex {
                    out.insert(cell);
                }
            }
        }
        out
    }

    /// After lowering: the checks of `guarded_by` memory, and the recorded
    /// sites, as branches to violation locations.
    pub(crate) fn instrument_capabilities(&mut self) {
        if !self.checking_capabilities() {
            // Nothing to check: the program's checks do not include it.
            self.checks.thread_safety = false;
            return;
        }
        let mut checks = std::mem::take(&mut self.caps.sites);
        checks.extend(self.access_sites());
        let mutexes = self.mutex_cells();
        let mut targets: Vec<(usize, LocKind, Loc)> = Vec::new();
        for s in checks {
            let (bad, unresolved) = self.failing(s.thread, &s.cases, s.need, &mutexes);
            let violated = LocKind::Violation(crate::Violated {
                violation: Violation::ThreadSafety,
                reason: s.reason.clone(),
            });
            let mut branches = vec![(violated, and(s.when.clone(), bad))];
            for (c, why) in unresolved {
                let give_up = crate::GiveUp::not_modelled(format!("thread-safety check: {why}"));
                branches.push((LocKind::GiveUp(give_up), and(s.when.clone(), c)));
            }
            let cfg = &mut self.threads[s.thread].cfg;
            for (kind, guard) in branches.into_iter().filter(|(_, g)| *g != Cond::False) {
                let known = targets
                    .iter()
                    .find(|(k, l, _)| *k == s.thread && *l == kind);
                let to = match known {
                    Some(&(_, _, to)) => to,
                    None => {
                        let to = cfg.loc(kind.clone(), None);
                        targets.push((s.thread, kind, to));
                        to
                    }
                };
                let mut e = Edge::new(s.loc, to, guard, vec![]);
                e.span = Some(s.span);
                e.havoc = s.havoc.clone();
                e.fix_havocs(&|v| self.observation_flags.contains(&v));
                cfg.edge(e);
            }
        }
    }

    /// The cells `guarded_by` guards, with their guards.
    fn guarded_memory(&mut self) -> HashMap<VarId, Vec<Guarded>> {
        let mut out: HashMap<VarId, Vec<Guarded>> = HashMap::new();
        for o in 0..self.objects.len() {
            for off in 0..self.objects[o].cells.len() as u64 {
                let cell = self.objects[o].cells[off as usize];
                for g in self.guards_at(o, off) {
                    if !g.guard.pointee {
                        out.entry(cell).or_default().push(g);
                    }
                }
            }
        }
        out
    }

    /// A check of every access to guarded memory (outside the functions
    /// whose analysis is off): the step's source location, its guard for
    /// the access, its havoc.
    fn access_sites(&mut self) -> Vec<Site> {
        let guarded = self.guarded_memory();
        let unchecked: Vec<Span> = self
            .caps
            .ann
            .unchecked
            .iter()
            .filter_map(|f| self.functions.get(f).map(|d| d.span))
            .collect();
        let inside = |s: Span| {
            unchecked
                .iter()
                .any(|u| u.start <= s.start && s.end <= u.end)
        };
        let mut out = Vec::new();
        for (k, t) in self.threads.iter().enumerate() {
            for e in t.cfg.live() {
                if e.span.is_some_and(inside) {
                    continue;
                }
                let relevant = |v: VarId| guarded.contains_key(&v);
                for a in crate::races::step_accesses(e, false, &relevant, &|_| false) {
                    let (mode, how) = if a.write {
                        (Mode::Exclusive, "written")
                    } else {
                        (Mode::Shared, "read")
                    };
                    for g in &guarded[&a.var] {
                        out.push(Site {
                            thread: k,
                            loc: e.from,
                            when: crate::races::access_guard(&e.guard, &a),
                            cases: g.caps.clone(),
                            need: Need::Held(mode),
                            reason: format!(
                                "`{}` {how} without holding `{}` (guarded_by)",
                                g.name,
                                self.text_of(&g.guard.cap)
                            ),
                            span: e.span.unwrap_or_else(Span::none),
                            havoc: e.havoc.clone(),
                        });
                    }
                }
            }
        }
        out
    }
}
