//! The synchronisation library beyond mutexes and condition variables:
//! read-write locks, barriers, spin locks, `pthread_once`, counting
//! semaphores, thread-specific data (`pthread_key_*`), and the result
//! values of threads (`pthread_exit(v)`, `pthread_join(t, &r)`).
//!
//! Every object is one integer cell (`types::Types::typedef` maps
//! `pthread_rwlock_t`, `pthread_barrier_t` and `sem_t` to `int`;
//! `pthread_spinlock_t` and `pthread_once_t` are `int` in glibc):
//!
//! - a read-write lock holds 0 when free, the number of readers when read
//!   locked, and `-me` when thread `me` holds it for writing;
//! - a barrier of count `N` holds `g·N + a`: `a` threads have arrived in
//!   the current round, and `g ∈ {0, 1}` is the round's parity. The last
//!   arrival flips the parity and gets `PTHREAD_BARRIER_SERIAL_THREAD`; the
//!   others wait until the parity differs from the one they saw. A second
//!   cell counts the waiters released by the last flip that have not left;
//!   a round that would complete while it is positive gives up (with at
//!   most `N` users it cannot: the round needs those waiters), so the
//!   parity never flips back under a waiter;
//! - a spin lock is a mutex (same acquire and release steps);
//! - a `pthread_once_t` holds 0 (not run), 1 (running: others wait), 2 (done);
//! - a semaphore holds its value.
//!
//! Thread-specific data: every `pthread_key_create` (or C11 `tss_create`:
//! `tss_get`, `tss_set` and `tss_delete` are the POSIX calls) call site is one key
//! (numbered by its position in the file; running a site twice gives up),
//! and every (thread, key) pair one variable of its thread, `NULL` at
//! first. When a thread finishes, each non-`NULL` value of a live key with
//! a destructor is set to `NULL` and the destructor called with it (one
//! round; a value set again by a destructor gives up, since POSIX would run
//! further rounds).

use std::collections::{HashMap, HashSet};

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::{CallExpression, Expression};
use frontend::lang_c::span::{Node, Span};
use frontend::lang_c::visit::{self, Visit};

use super::expr::{Place, Res, Target, TargetVar, Val};
use super::{Lowerer, ObjId, END};
use crate::error::{LowerError, Result};
use crate::term::{and, any, cmp, not, or, Range};
use crate::types::{CType, IntTy};

/// `EBUSY`.
const EBUSY: i64 = 16;
/// `PTHREAD_BARRIER_SERIAL_THREAD`.
const SERIAL: i64 = -1;

/// Functions this module lowers (their `&x` arguments name `x` itself).
pub(crate) fn is_sync_builtin(name: &str) -> bool {
    name.starts_with("pthread_rwlock_")
        || name.starts_with("pthread_barrier_")
        || name.starts_with("pthread_spin_")
        || name.starts_with("pthread_key_")
        || matches!(
            name,
            "pthread_mutexattr_settype"
                | "pthread_mutexattr_gettype"
                | "pthread_once"
                | "pthread_setspecific"
                | "pthread_getspecific"
                | "sem_init"
                | "sem_wait"
                | "sem_post"
                | "sem_trywait"
                | "sem_destroy"
                | "sem_getvalue"
                | "__ase_wait_once"
        )
        || key_function(name).is_some()
}

/// A barrier's cell, count and released-waiters cell, or why it has none.
type BarrierCell = std::result::Result<(VarId, i64, VarId), super::Ub>;

/// A `pthread_key_create` call site.
#[derive(Clone, Debug)]
struct KeySite {
    /// Where the call starts in the parsed text.
    start: usize,
    /// Its destructor: `Some(None)` none, `Some(Some(f))` the function
    /// `f`, `None` not a known function (the call is refused).
    dtor: Option<Option<String>>,
}

/// What the lowering knows about these objects.
#[derive(Debug, Default)]
pub(crate) struct SyncState {
    /// Barrier cells, their constant counts, and per barrier the number of
    /// threads released from the last round that have not left the wait.
    barriers: HashMap<VarId, (i64, VarId)>,
    /// The key sites (computed on first use), in file order.
    keys: Option<Vec<KeySite>>,
    /// Per key: 0 not created, 1 live, 2 deleted.
    key_flags: HashMap<usize, VarId>,
    /// Per (thread, key): the thread's value.
    tls: HashMap<(usize, usize), VarId>,
    /// Per thread: the object holding its start routine's result.
    results: HashMap<usize, Option<ObjId>>,
    /// Mutex attribute cells and the type `pthread_mutexattr_settype` gave them.
    attr_kinds: HashMap<VarId, i64>,
    /// Attribute cells a `pthread_mutex_init` read without a type.
    attr_default: HashSet<VarId>,
    /// Mutex cells of a recursive or error-checking type, and the
    /// recursive ones' lock count.
    mutex_kinds: HashMap<VarId, TypedMutex>,
    /// Mutex cells some operation was lowered for as a default mutex.
    mutex_default: HashSet<VarId>,
}

/// A mutex of a type other than the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TypedMutex {
    /// `PTHREAD_MUTEX_RECURSIVE`, with its lock count.
    Recursive(VarId),
    /// `PTHREAD_MUTEX_ERRORCHECK`.
    ErrorCheck,
}

/// What is done to a mutex ([`Lowerer::typed_mutex`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MutexUse {
    Lock,
    Unlock,
    TryLock,
    /// `pthread_cond_wait` (refused on typed mutexes).
    Wait,
}

/// glibc's `PTHREAD_MUTEX_RECURSIVE`.
pub(super) const RECURSIVE: i64 = 1;
/// glibc's `PTHREAD_MUTEX_ERRORCHECK`.
const ERRORCHECK: i64 = 2;
/// `EDEADLK`, `EPERM`, `EAGAIN`.
const EDEADLK: i64 = 35;
const EPERM: i64 = 1;
const EAGAIN: i64 = 11;

/// `assigns` and, with a counter of this thread's read locks, one more.
fn counted(counter: Option<VarId>, assigns: Vec<(VarId, Term)>) -> Vec<(VarId, Term)> {
    match counter {
        Some(k) => counted_by(k, 1, assigns),
        None => assigns,
    }
}

/// `assigns` and `k := k + by`.
fn counted_by(k: VarId, by: i64, mut assigns: Vec<(VarId, Term)>) -> Vec<(VarId, Term)> {
    assigns.push((k, crate::term::add(Term::Var(k), Term::Const(by))));
    assigns
}

/// The POSIX thread-specific data function that `name` is: itself, or
/// the one a C11 `tss_*` function is (the same arguments; both return 0
/// on success, `thrd_success` in C11).
fn key_function(name: &str) -> Option<&'static str> {
    Some(match name {
        "pthread_key_create" | "tss_create" => "pthread_key_create",
        "pthread_key_delete" | "tss_delete" => "pthread_key_delete",
        "pthread_setspecific" | "tss_set" => "pthread_setspecific",
        "pthread_getspecific" | "tss_get" => "pthread_getspecific",
        _ => return None,
    })
}

/// Collects `pthread_key_create` and `tss_create` calls.
struct KeyCalls(Vec<(usize, Option<Node<Expression>>)>);

impl<'ast> Visit<'ast> for KeyCalls {
    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
        if matches!(&c.callee.node, Expression::Identifier(id) if key_function(&id.node.name) == Some("pthread_key_create"))
        {
            self.0.push((span.start, c.arguments.get(1).cloned()));
        }
        visit::visit_call_expression(self, c, span);
    }
}

impl Lowerer<'_> {
    /// The key sites of the program, in file order.
    fn key_sites(&mut self) -> Vec<KeySite> {
        if let Some(k) = &self.sync.keys {
            return k.clone();
        }
        let mut calls = KeyCalls(Vec::new());
        let defs: Vec<_> = self.functions.values().copied().collect();
        for f in defs {
            calls.visit_function_definition(&f.node, &f.span);
        }
        calls.0.sort_by_key(|(s, _)| *s);
        calls.0.dedup_by_key(|(s, _)| *s);
        let sites: Vec<KeySite> = calls
            .0
            .into_iter()
            .map(|(start, d)| {
                let dtor = match d {
                    None => None,
                    Some(e) => match super::const_expr(&mut self.types, &e) {
                        Ok(0) => Some(None),
                        Ok(_) => None,
                        Err(_) => self.function_name(&e).map(Some),
                    },
                };
                KeySite { start, dtor }
            })
            .collect();
        self.sync.keys = Some(sites.clone());
        sites
    }

    fn key_flag(&mut self, id: usize) -> VarId {
        if let Some(&v) = self.sync.key_flags.get(&id) {
            return v;
        }
        let v = self.var(format!("pthread_key.{id}"), Some(0), Range::new(0, 2));
        self.sync.key_flags.insert(id, v);
        v
    }

    fn tls_var(&mut self, thread: usize, id: usize) -> VarId {
        if let Some(&v) = self.sync.tls.get(&(thread, id)) {
            return v;
        }
        let name = format!("{}.specific.{id}", self.threads[thread].name);
        let v = self.var(
            name,
            Some(0),
            Range::new(0, super::tails::POINTER_MAX.into()),
        );
        self.sync.tls.insert((thread, id), v);
        v
    }

    /// The object holding thread `k`'s result (`None`: its start routine
    /// returns `void`), created on first use (by the thread or a join).
    /// The objects holding the threads' results (a thread's result outlives
    /// it until it is joined).
    pub(crate) fn result_objects(&self) -> Vec<ObjId> {
        self.sync.results.values().flatten().copied().collect()
    }

    pub(super) fn thread_result(&mut self, k: usize, span: Span) -> Result<Option<ObjId>> {
        if let Some(&r) = self.sync.results.get(&k) {
            return Ok(r);
        }
        let def = self.functions[&self.threads[k].func];
        let r = match self.return_type(def)? {
            CType::Void => None,
            t => {
                let name = format!("{}.ret", self.threads[k].name);
                let o = self.object(&name, t, Some(0), span)?;
                self.objects[o].owner = Some(k);
                Some(o)
            }
        };
        self.sync.results.insert(k, r);
        Ok(r)
    }

    /// Notes the cells of a read-write lock or spin lock place (the
    /// thread-safety check tells locks apart by them).
    fn note_lock_cells(&mut self, p: &Place, rwlock: bool) {
        for (_, t) in &p.cases {
            if let Target::Cell(o, off) = t {
                let cell = self.objects[*o].cells[*off as usize];
                self.note_lock_cell(cell, rwlock);
            }
        }
    }

    /// One step on the cell(s) a place may be: `cases(m)` gives the edges
    /// (condition, give-up reason or `None` to continue, assignments).
    fn cell_step(
        &mut self,
        p: &Place,
        span: Span,
        wait: Option<crate::WaitKind>,
        mut cases: impl FnMut(&mut Self, VarId) -> Vec<(Cond, Option<String>, Vec<(VarId, Term)>)>,
    ) {
        if wait.is_some() {
            self.inputs_before_wait(span);
        }
        let Some(cur) = self.t.cur else { return };
        let next = self.new_loc(None);
        for (c, t) in p.cases.clone() {
            match t {
                Target::Cell(o, off) => {
                    let m = self.objects[o].cells[off as usize];
                    for (g, give_up, assigns) in cases(self, m) {
                        let to = match &give_up {
                            Some(r) => self.give_up(r),
                            None => next,
                        };
                        self.plain_edge(cur, to, and(c.clone(), g), assigns, Some(span));
                    }
                }
                Target::Ub(r) => self.give_up_edge(cur, c, &r, span),
                Target::Tail { .. } => self.give_up_edge(cur, c, super::tails::TAIL_MEMBER, span),
            }
        }
        if let Some(kind) = wait {
            self.mark_wait(cur, kind, span);
        }
        self.flush();
        self.t.cur = Some(next);
    }

    fn int_result(&mut self) -> VarId {
        self.temp(&CType::Int(IntTy::INT))
    }

    /// The place of a pthread object argument (`&lock`). Its cells are
    /// touched only through the pthread API, whose steps synchronise: the
    /// race check leaves them out (SOUNDNESS.md, "Data races").
    fn sync_object(&mut self, e: &Node<Expression>, span: Span) -> Result<Place> {
        let p = self.arg_place(e, span)?;
        let mut scalars = Vec::new();
        self.types.flatten(&p.ty, &mut scalars);
        for (_, t) in &p.cases {
            if let Target::Cell(o, off) = t {
                if self.in_union(*o, *off) {
                    // Its operations would not keep the union's tag.
                    return Err(LowerError::unsupported(
                        span,
                        "a pthread object that is a union member",
                    ));
                }
                let cells = &self.objects[*o].cells;
                let from = (*off as usize).min(cells.len());
                let to = (from + scalars.len()).min(cells.len());
                self.sync_cells.extend(cells[from..to].iter().copied());
            }
        }
        Ok(p)
    }

    /// The single cell a place must be.
    fn single_cell(&self, p: &Place, what: &str, span: Span) -> Result<VarId> {
        match p.cases.as_slice() {
            [(Cond::True, Target::Cell(o, off))] => Ok(self.objects[*o].cells[*off as usize]),
            _ => Err(LowerError::unsupported(
                span,
                format!("{what} through a pointer that may point to several objects"),
            )),
        }
    }

    /// `pthread_mutex_init(m, attr)`: records the mutex's type, when the
    /// attribute has one (a constant given by `pthread_mutexattr_settype`).
    pub(super) fn mutex_init_kind(
        &mut self,
        m: &Place,
        attr: Option<&Node<Expression>>,
        span: Span,
    ) -> Result<()> {
        let Some(attr) = attr else { return Ok(()) };
        if super::const_expr(&mut self.types, attr).is_ok_and(|v| v == 0) {
            return Ok(());
        }
        let a = self.arg_place(attr, span)?;
        let a = self.single_cell(&a, "a mutex attribute", span)?;
        let kind = match self.sync.attr_kinds.get(&a) {
            None | Some(0) => {
                self.sync.attr_default.insert(a);
                return Ok(());
            }
            Some(&k) => k,
        };
        self.set_mutex_kind(m, kind, span)
    }

    /// Records that the mutex at `m` has the type `kind` (glibc's
    /// `PTHREAD_MUTEX_*`, not the default).
    pub(super) fn set_mutex_kind(&mut self, m: &Place, kind: i64, span: Span) -> Result<()> {
        let cell = self.single_cell(m, "`pthread_mutex_init` of a typed mutex", span)?;
        if self.sync.mutex_default.contains(&cell) {
            return Err(LowerError::unsupported(
                span,
                "a mutex used as a default mutex before its typed initialisation",
            ));
        }
        let typed = match kind {
            RECURSIVE => {
                let name = format!("{}.count", self.vars[cell.index()].name);
                let c = match self.sync.mutex_kinds.get(&cell) {
                    Some(TypedMutex::Recursive(c)) => *c,
                    _ => self.var(name, Some(0), Range::new(0, i32::MAX.into())),
                };
                TypedMutex::Recursive(c)
            }
            ERRORCHECK => TypedMutex::ErrorCheck,
            _ => {
                return Err(LowerError::unsupported(
                    span,
                    "a mutex type other than normal, recursive and error-checking",
                ))
            }
        };
        if self
            .sync
            .mutex_kinds
            .insert(cell, typed)
            .is_some_and(|old| old != typed)
        {
            return Err(LowerError::unsupported(
                span,
                "a mutex initialised with different types",
            ));
        }
        Ok(())
    }

    /// A mutex operation on a recursive or error-checking mutex: its
    /// result; `None` when the mutex has the default type.
    pub(crate) fn typed_mutex(
        &mut self,
        op: MutexUse,
        p: &Place,
        span: Span,
    ) -> Result<Option<Val>> {
        let mut kinds = Vec::new();
        for (_, t) in &p.cases {
            if let Target::Cell(o, off) = t {
                let m = self.objects[*o].cells[*off as usize];
                kinds.push((m, self.sync.mutex_kinds.get(&m).copied()));
            }
        }
        if kinds.iter().all(|(_, k)| k.is_none()) {
            self.sync
                .mutex_default
                .extend(kinds.iter().map(|(m, _)| *m));
            return Ok(None);
        }
        if op == MutexUse::Wait {
            return Err(LowerError::unsupported(
                span,
                "`pthread_cond_wait` with a recursive or error-checking mutex",
            ));
        }
        let cell = self.single_cell(p, "an operation on a typed mutex", span)?;
        let kind = self.sync.mutex_kinds[&cell];
        let r = self.int_result();
        let me = self.me();
        let max = i64::from(i32::MAX);
        let at = |x: i64| cmp(CmpOp::Eq, Term::Var(cell), Term::Const(x));
        let ret = |x: i64| (r, Term::Const(x));
        let mut edges: Vec<(Cond, Vec<(VarId, Term)>)> = Vec::new();
        let mine = at(me);
        let other = and(not(at(0)), not(mine.clone()));
        match (kind, op) {
            (TypedMutex::ErrorCheck, MutexUse::Lock | MutexUse::TryLock) => {
                edges.push((at(0), vec![(cell, Term::Const(me)), ret(0)]));
                let relock = if op == MutexUse::Lock { EDEADLK } else { EBUSY };
                edges.push((mine, vec![ret(relock)]));
                if op == MutexUse::TryLock {
                    edges.push((other, vec![ret(EBUSY)]));
                }
            }
            (TypedMutex::ErrorCheck, _) => {
                edges.push((mine.clone(), vec![(cell, Term::Const(0)), ret(0)]));
                edges.push((not(mine), vec![ret(EPERM)]));
            }
            (TypedMutex::Recursive(c), MutexUse::Lock | MutexUse::TryLock) => {
                let below = cmp(CmpOp::Lt, Term::Var(c), Term::Const(max));
                edges.push((
                    at(0),
                    vec![(cell, Term::Const(me)), (c, Term::Const(1)), ret(0)],
                ));
                edges.push((
                    and(mine.clone(), below.clone()),
                    vec![(c, crate::term::add(Term::Var(c), Term::Const(1))), ret(0)],
                ));
                edges.push((and(mine, not(below)), vec![ret(EAGAIN)]));
                if op == MutexUse::TryLock {
                    edges.push((other, vec![ret(EBUSY)]));
                }
            }
            (TypedMutex::Recursive(c), _) => {
                let last = cmp(CmpOp::Le, Term::Var(c), Term::Const(1));
                edges.push((
                    and(mine.clone(), last.clone()),
                    vec![(cell, Term::Const(0)), (c, Term::Const(0)), ret(0)],
                ));
                edges.push((
                    and(mine.clone(), not(last)),
                    vec![(c, crate::term::sub(Term::Var(c), Term::Const(1))), ret(0)],
                ));
                edges.push((not(mine), vec![ret(EPERM)]));
            }
        }
        if op == MutexUse::Lock {
            self.inputs_before_wait(span);
        }
        if let Some(cur) = self.t.cur {
            let next = self.new_loc(None);
            for (g, a) in edges {
                self.plain_edge(cur, next, g, a, Some(span));
            }
            // A lock waits while another thread holds the mutex.
            if op == MutexUse::Lock {
                self.lock_sites.push((self.t.index, cell, span));
                self.mark_wait(cur, crate::WaitKind::Mutex(vec![(Cond::True, cell)]), span);
            }
            self.flush();
            self.t.cur = Some(next);
        }
        Ok(Some(Val::term(Term::Var(r), CType::Int(IntTy::INT))))
    }

    /// Lowers a call to a synchronisation function of this module; `None`
    /// when `name` is not one.
    pub(crate) fn sync_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        if !is_sync_builtin(name) || self.function_exists(name) {
            return Ok(None);
        }
        let call = SyncCall { name, args, span };
        let arg = |i: usize| call.arg(i);
        let ok = Val::int(0);
        let v = match name {
            "pthread_rwlock_init" | "pthread_spin_init" | "pthread_barrier_destroy" => {
                let p = self.sync_object(arg(0)?, span)?;
                if name == "pthread_barrier_destroy" {
                    return Ok(Some(ok));
                }
                self.store(p, Val::int(0), span)?;
                ok
            }
            "pthread_mutexattr_settype" => {
                let a = self.sync_object(arg(0)?, span)?;
                let a = self.single_cell(&a, "a mutex attribute", span)?;
                let k = self.eval(arg(1)?)?.constant().ok_or_else(|| {
                    LowerError::unsupported(span, "a mutex type that is not a constant")
                })?;
                if self.sync.attr_default.contains(&a)
                    || self
                        .sync
                        .attr_kinds
                        .insert(a, k)
                        .is_some_and(|old| old != k)
                {
                    return Err(LowerError::unsupported(
                        span,
                        "a mutex attribute whose type changes (one type per attribute is modelled)",
                    ));
                }
                ok
            }
            // The type `pthread_mutexattr_settype` gave, else the default
            // (which the attribute then keeps).
            "pthread_mutexattr_gettype" => {
                let a = self.sync_object(arg(0)?, span)?;
                let a = self.single_cell(&a, "a mutex attribute", span)?;
                let k = match self.sync.attr_kinds.get(&a) {
                    Some(&k) => k,
                    None => {
                        self.sync.attr_default.insert(a);
                        0
                    }
                };
                let out = self.arg_place(arg(1)?, span)?;
                self.store(out, Val::int(k), span)?;
                ok
            }
            "pthread_rwlock_destroy"
            | "pthread_spin_destroy"
            | "pthread_rwlockattr_init"
            | "pthread_rwlockattr_destroy"
            | "pthread_barrierattr_init"
            | "pthread_barrierattr_destroy"
            | "sem_destroy" => ok,
            "pthread_rwlock_rdlock"
            | "pthread_rwlock_wrlock"
            | "pthread_rwlock_tryrdlock"
            | "pthread_rwlock_trywrlock"
            | "pthread_rwlock_unlock" => self.rwlock_call(&call)?,
            "pthread_spin_lock" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.note_lock_cells(&p, false);
                self.lock(p, span);
                ok
            }
            "pthread_spin_unlock" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.note_lock_cells(&p, false);
                self.unlock(p, span);
                ok
            }
            "pthread_spin_trylock" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.note_lock_cells(&p, false);
                self.trylock(p, span)?
            }
            "pthread_barrier_init" => {
                self.barrier_init(&call)?;
                ok
            }
            "pthread_barrier_wait" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.barrier_wait(p, span)?
            }
            "pthread_once" => {
                let p = self.sync_object(arg(0)?, span)?;
                let f = self.function_name(arg(1)?).ok_or_else(|| {
                    LowerError::unsupported(span, "`pthread_once` of a function that is not known")
                })?;
                self.once(p, &f, span)?;
                ok
            }
            "sem_init" | "sem_wait" | "sem_trywait" | "sem_post" | "sem_getvalue" => {
                self.semaphore_call(&call)?
            }
            // C11's `call_once` (`frontend/src/c11/threads.c`): wait until
            // the first caller has run the function.
            "__ase_wait_once" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.cell_step(&p, span, Some(crate::WaitKind::Once), |_, m| {
                    vec![(c(CmpOp::Eq, m, 2), None, vec![])]
                });
                ok
            }
            _ if key_function(name).is_some() => self.key_call(&call)?,
            _ => {
                return Err(LowerError::unsupported(
                    span,
                    format!("`{name}` is not modelled"),
                ))
            }
        };
        Ok(Some(v))
    }

    /// `pthread_rwlock_{rd,wr,tryrd,trywr}lock` and `pthread_rwlock_unlock`: the
    /// cell counts the readers, or holds `-id` of the writer.
    fn rwlock_call(&mut self, call: &SyncCall<'_>) -> Result<Val> {
        let SyncCall { name, span, .. } = *call;
        let arg = |i: usize| call.arg(i);
        let ok = Val::int(0);
        let me = self.me();
        let max = i64::from(i32::MAX);
        let v = match name {
            "pthread_rwlock_rdlock" | "pthread_rwlock_wrlock" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.note_lock_cells(&p, true);
                let read = name.ends_with("rdlock");
                self.cell_step(&p, span, Some(crate::WaitKind::RwLock), |this, m| {
                    let mine = if read { this.reader_count(m) } else { None };
                    let relock = (
                        c(CmpOp::Eq, m, -me),
                        Some("locking a read-write lock the thread holds for writing".to_string()),
                        vec![],
                    );
                    if read {
                        vec![
                            (
                                and(c(CmpOp::Ge, m, 0), c(CmpOp::Lt, m, max)),
                                None,
                                counted(mine, vec![(m, crate::term::add(var(m), Term::Const(1)))]),
                            ),
                            (
                                c(CmpOp::Eq, m, max),
                                Some("too many read locks".to_string()),
                                vec![],
                            ),
                            relock,
                        ]
                    } else {
                        vec![
                            (c(CmpOp::Eq, m, 0), None, vec![(m, Term::Const(-me))]),
                            relock,
                        ]
                    }
                });
                ok
            }
            "pthread_rwlock_tryrdlock" | "pthread_rwlock_trywrlock" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.note_lock_cells(&p, true);
                let r = self.int_result();
                let read = name.ends_with("rdlock");
                self.cell_step(&p, span, None, |this, m| {
                    if read {
                        let mine = this.reader_count(m);
                        vec![
                            (
                                and(c(CmpOp::Ge, m, 0), c(CmpOp::Lt, m, max)),
                                None,
                                counted(
                                    mine,
                                    vec![
                                        (m, crate::term::add(var(m), Term::Const(1))),
                                        (r, Term::Const(0)),
                                    ],
                                ),
                            ),
                            (c(CmpOp::Lt, m, 0), None, vec![(r, Term::Const(EBUSY))]),
                            (
                                c(CmpOp::Eq, m, max),
                                Some("too many read locks".to_string()),
                                vec![],
                            ),
                        ]
                    } else {
                        vec![
                            (
                                c(CmpOp::Eq, m, 0),
                                None,
                                vec![(m, Term::Const(-me)), (r, Term::Const(0))],
                            ),
                            (c(CmpOp::Ne, m, 0), None, vec![(r, Term::Const(EBUSY))]),
                        ]
                    }
                });
                Val::term(Term::Var(r), CType::Int(IntTy::INT))
            }
            "pthread_rwlock_unlock" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.note_lock_cells(&p, true);
                self.cell_step(&p, span, None, |this, m| {
                    let mine = c(CmpOp::Eq, m, -me);
                    let readers = c(CmpOp::Gt, m, 0);
                    let release = vec![(m, crate::term::sub(var(m), Term::Const(1)))];
                    // A read lock this thread holds is released first.
                    let reading = match this.reader_count(m) {
                        Some(k) => vec![
                            (
                                and(readers.clone(), c(CmpOp::Gt, k, 0)),
                                None,
                                counted_by(k, -1, release.clone()),
                            ),
                            (and(readers.clone(), c(CmpOp::Eq, k, 0)), None, release),
                        ],
                        None => vec![(readers.clone(), None, release)],
                    };
                    let mut edges = vec![(mine.clone(), None, vec![(m, Term::Const(0))])];
                    edges.extend(reading);
                    edges.extend([(
                        not(or(mine, readers)),
                        Some("unlocking a read-write lock the thread does not hold".to_string()),
                        vec![],
                    )]);
                    edges
                });
                ok
            }
            _ => unreachable!("dispatched by `sync_call`"),
        };
        Ok(v)
    }

    /// `sem_init`, `sem_wait`, `sem_trywait`, `sem_post`, `sem_getvalue`: the
    /// cell holds the semaphore's value.
    fn semaphore_call(&mut self, call: &SyncCall<'_>) -> Result<Val> {
        let SyncCall { name, span, .. } = *call;
        let arg = |i: usize| call.arg(i);
        let ok = Val::int(0);
        let max = i64::from(i32::MAX);
        let v = match name {
            "sem_init" => {
                let p = self.sync_object(arg(0)?, span)?;
                let v = self.eval(arg(2)?)?;
                self.store(p, v, span)?;
                ok
            }
            "sem_wait" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.cell_step(&p, span, Some(crate::WaitKind::Semaphore), |_, m| {
                    vec![(
                        c(CmpOp::Gt, m, 0),
                        None,
                        vec![(m, crate::term::sub(var(m), Term::Const(1)))],
                    )]
                });
                ok
            }
            "sem_trywait" => {
                let p = self.sync_object(arg(0)?, span)?;
                let r = self.int_result();
                self.cell_step(&p, span, None, |_, m| {
                    vec![
                        (
                            c(CmpOp::Gt, m, 0),
                            None,
                            vec![
                                (m, crate::term::sub(var(m), Term::Const(1))),
                                (r, Term::Const(0)),
                            ],
                        ),
                        (c(CmpOp::Le, m, 0), None, vec![(r, Term::Const(-1))]),
                    ]
                });
                Val::term(Term::Var(r), CType::Int(IntTy::INT))
            }
            "sem_post" => {
                let p = self.sync_object(arg(0)?, span)?;
                self.cell_step(&p, span, None, |_, m| {
                    vec![
                        (
                            c(CmpOp::Lt, m, max),
                            None,
                            vec![(m, crate::term::add(var(m), Term::Const(1)))],
                        ),
                        (
                            c(CmpOp::Ge, m, max),
                            Some("semaphore value overflow".to_string()),
                            vec![],
                        ),
                    ]
                });
                ok
            }
            "sem_getvalue" => {
                let p = self.sync_object(arg(0)?, span)?;
                let v = self.read(p, span)?;
                let v = self.materialize(v, span)?;
                let out = self.arg_place(arg(1)?, span)?;
                self.store(out, v, span)?;
                ok
            }
            _ => unreachable!("dispatched by `sync_call`"),
        };
        Ok(v)
    }

    /// `pthread_key_create`, `pthread_key_delete`, `pthread_setspecific`,
    /// `pthread_getspecific`.
    fn key_call(&mut self, call: &SyncCall<'_>) -> Result<Val> {
        let SyncCall { name, span, .. } = *call;
        let arg = |i: usize| call.arg(i);
        let ok = Val::int(0);
        let v = match key_function(name) {
            Some("pthread_key_create") => {
                self.key_create(arg(0)?, span)?;
                ok
            }
            Some("pthread_key_delete") => {
                let key = self.eval(arg(0)?)?;
                let targets = self.key_cases(&key, |me, id| me.key_flag(id));
                self.emit_store(targets, Val::int(2), span)?;
                ok
            }
            Some("pthread_setspecific") => {
                let key = self.eval(arg(0)?)?;
                let key = self.materialize(key, span)?;
                let v = self.eval(arg(1)?)?;
                let v = self.convert(v, &CType::Ptr(Box::new(CType::Void)), span)?;
                let t = self.t.index;
                let targets = self.key_cases(&key, |me, id| me.tls_var(t, id));
                self.emit_store(targets, v, span)?;
                ok
            }
            Some("pthread_getspecific") => {
                let key = self.eval(arg(0)?)?;
                let t = self.t.index;
                let targets = self.key_cases(&key, |me, id| me.tls_var(t, id));
                Val {
                    cases: targets
                        .into_iter()
                        .map(|(c, t)| match t {
                            TargetVar::Var(v) | TargetVar::Tagged(v, _) => {
                                (c, Res::Val(Term::Var(v)))
                            }
                            TargetVar::Ub(r) => (c, Res::Ub(r)),
                            TargetVar::Skip | TargetVar::Element(..) => {
                                (c, Res::Ub(super::tails::TAIL_MEMBER.into()))
                            }
                        })
                        .collect(),
                    ty: CType::Ptr(Box::new(CType::Void)),
                }
                .pruned()
            }
            _ => unreachable!("dispatched by `sync_call`"),
        };
        Ok(v)
    }

    /// `pthread_barrier_init`: the count must be a positive constant, the
    /// same at every initialisation of a barrier.
    fn barrier_init(&mut self, call: &SyncCall<'_>) -> Result<()> {
        let span = call.span;
        let arg = |i: usize| call.arg(i);
        let p = self.sync_object(arg(0)?, span)?;
        let n = self
            .eval(arg(2)?)?
            .constant()
            .filter(|&n| n >= 1)
            .ok_or_else(|| {
                LowerError::unsupported(
                    arg(2).map_or(span, |a| a.span),
                    "a barrier count that is not a positive constant",
                )
            })?;
        for (_, t) in &p.cases {
            if let Target::Cell(o, off) = t {
                let m = self.objects[*o].cells[*off as usize];
                match self.sync.barriers.get(&m) {
                    Some(&(old, _)) if old != n => {
                        return Err(LowerError::unsupported(
                            span,
                            "a barrier initialised with different counts",
                        ));
                    }
                    Some(_) => {}
                    None => {
                        let name = format!("{}.released", self.vars[m.index()].name);
                        let pending = self.var(name, Some(0), Range::new(0, n.into()));
                        self.sync.barriers.insert(m, (n, pending));
                    }
                }
            }
        }
        self.store(p, Val::int(0), span)?;
        Ok(())
    }

    /// Per case of a key value and per key: the variable `var(id)` where
    /// the key is `id`, a give-up where it is no key.
    fn key_cases(
        &mut self,
        key: &Val,
        mut var: impl FnMut(&mut Self, usize) -> VarId,
    ) -> Vec<(Cond, TargetVar)> {
        let n = self.key_sites().len();
        let mut out = Vec::new();
        for (c, r) in &key.cases {
            match r {
                Res::Ub(u) => out.push((c.clone(), TargetVar::Ub(u.clone()))),
                Res::Val(k) => {
                    let mut hit = Vec::new();
                    for id in 1..=n {
                        let is = cmp(CmpOp::Eq, k.clone(), Term::Const(id as i64));
                        hit.push(is.clone());
                        let v = var(self, id);
                        out.push((and(c.clone(), is), TargetVar::Var(v)));
                    }
                    out.push((
                        and(c.clone(), not(any(hit))),
                        TargetVar::Ub("a thread-specific data key that was not created".into()),
                    ));
                }
            }
        }
        out.retain(|(c, _)| *c != Cond::False);
        out
    }

    fn key_create(&mut self, keyp: &Node<Expression>, span: Span) -> Result<()> {
        let sites = self.key_sites();
        let Some(id) = sites.iter().position(|s| s.start == span.start) else {
            return Err(LowerError::unsupported(span, "`pthread_key_create` here"));
        };
        if sites[id].dtor.is_none() {
            return Err(LowerError::unsupported(
                span,
                "a thread-specific data destructor that is not a known function",
            ));
        }
        let id = id + 1;
        let place = self.sync_object(keyp, span)?;
        let flag = self.key_flag(id);
        if let Some(cur) = self.t.cur {
            let next = self.new_loc(None);
            let fresh = cmp(CmpOp::Eq, Term::Var(flag), Term::Const(0));
            self.plain_edge(
                cur,
                next,
                fresh.clone(),
                vec![(flag, Term::Const(1))],
                Some(span),
            );
            self.give_up_edge(
                cur,
                not(fresh),
                "a pthread_key_create call ran more than once (one key per call site is modelled)",
                span,
            );
            self.flush();
            self.t.cur = Some(next);
        }
        self.store(place, Val::int(id as i64), span)
    }

    fn barrier_wait(&mut self, p: Place, span: Span) -> Result<Val> {
        let r = self.int_result();
        // Which case of the place was taken, and the parity seen (2: last).
        let sel = self.temp(&CType::Int(IntTy::INT));
        let seen = self.temp(&CType::Int(IntTy::INT));
        let cells: Vec<(usize, Cond, BarrierCell)> = p
            .cases
            .iter()
            .enumerate()
            .map(|(i, (c, t))| {
                (
                    i,
                    c.clone(),
                    match t {
                        Target::Cell(o, off) => {
                            let m = self.objects[*o].cells[*off as usize];
                            self.sync
                                .barriers
                                .get(&m)
                                .map(|&(n, p)| (m, n, p))
                                .ok_or_else(|| {
                                    "pthread_barrier_wait on a barrier without a known count".into()
                                })
                        }
                        Target::Ub(u) => Err(u.clone()),
                        Target::Tail { .. } => Err(super::tails::TAIL_MEMBER.into()),
                    },
                )
            })
            .collect();
        let Some(cur) = self.t.cur else {
            return Ok(Val::int(0));
        };
        let wait = self.new_loc(None);
        let k = |x: i64| Term::Const(x);
        for (i, c, cell) in &cells {
            let (m, n, pending) = match cell {
                Ok(x) => *x,
                Err(u) => {
                    self.give_up_edge(cur, c.clone(), u, span);
                    continue;
                }
            };
            let at = |op, x| cmp(op, Term::Var(m), k(x));
            let common = |g: i64, res: i64| vec![(sel, k(*i as i64)), (seen, k(g)), (r, k(res))];
            // A round completes only when every waiter released by the
            // previous one has left (always so with at most N users);
            // otherwise a waiter could see the parity flip back.
            let none_left = cmp(CmpOp::Eq, Term::Var(pending), k(0));
            self.give_up_edge(
                cur,
                and(
                    c.clone(),
                    and(
                        or(at(CmpOp::Eq, n - 1), at(CmpOp::Eq, 2 * n - 1)),
                        not(none_left.clone()),
                    ),
                ),
                "a barrier round completed before every waiter of the previous round left",
                span,
            );
            // Round 0, last arrival: flip to round 1.
            let mut a = common(2, SERIAL);
            a.push((m, k(n)));
            a.push((pending, k(n - 1)));
            self.plain_edge(
                cur,
                wait,
                and(c.clone(), and(at(CmpOp::Eq, n - 1), none_left.clone())),
                a,
                Some(span),
            );
            let mut a = common(0, 0);
            a.push((m, crate::term::add(Term::Var(m), k(1))));
            self.plain_edge(
                cur,
                wait,
                and(c.clone(), and(at(CmpOp::Ge, 0), at(CmpOp::Lt, n - 1))),
                a,
                Some(span),
            );
            // Round 1.
            let mut a = common(2, SERIAL);
            a.push((m, k(0)));
            a.push((pending, k(n - 1)));
            self.plain_edge(
                cur,
                wait,
                and(c.clone(), and(at(CmpOp::Eq, 2 * n - 1), none_left)),
                a,
                Some(span),
            );
            let mut a = common(1, 0);
            a.push((m, crate::term::add(Term::Var(m), k(1))));
            self.plain_edge(
                cur,
                wait,
                and(c.clone(), and(at(CmpOp::Ge, n), at(CmpOp::Lt, 2 * n - 1))),
                a,
                Some(span),
            );
            self.give_up_edge(
                cur,
                and(c.clone(), or(at(CmpOp::Lt, 0), at(CmpOp::Ge, 2 * n))),
                "pthread_barrier_wait on a barrier that was not initialised",
                span,
            );
        }
        self.flush();
        self.t.cur = Some(wait);
        // Wait until the parity differs from the one seen.
        let next = self.new_loc(None);
        let s = |x: i64| cmp(CmpOp::Eq, Term::Var(seen), k(x));
        self.plain_edge(wait, next, s(2), vec![], Some(span));
        for (i, _, cell) in &cells {
            let Ok((m, n, pending)) = cell else { continue };
            let here = cmp(CmpOp::Eq, Term::Var(sel), k(*i as i64));
            let flipped = or(
                and(s(0), cmp(CmpOp::Ge, Term::Var(*m), k(*n))),
                and(s(1), cmp(CmpOp::Lt, Term::Var(*m), k(*n))),
            );
            let counted = cmp(CmpOp::Ge, Term::Var(*pending), k(1));
            self.plain_edge(
                wait,
                next,
                and(here.clone(), and(flipped.clone(), counted.clone())),
                vec![(*pending, crate::term::sub(Term::Var(*pending), k(1)))],
                Some(span),
            );
            // Cannot happen: the last arrival counted every waiter it released.
            self.give_up_edge(
                wait,
                and(here, and(flipped, not(counted))),
                "a barrier waiter that was not counted (internal)",
                span,
            );
        }
        self.mark_wait(wait, crate::WaitKind::Barrier, span);
        self.t.cur = Some(next);
        Ok(Val::term(Term::Var(r), CType::Int(IntTy::INT)))
    }

    fn once(&mut self, p: Place, f: &str, span: Span) -> Result<()> {
        let [(Cond::True, Target::Cell(o, off))] = p.cases.as_slice() else {
            return Err(LowerError::unsupported(
                span,
                "`pthread_once` through a pointer that may point to several objects",
            ));
        };
        let m = self.objects[*o].cells[*off as usize];
        self.inputs_before_wait(span);
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let (run, done) = (self.new_loc(None), self.new_loc(None));
        let at = |x| cmp(CmpOp::Eq, Term::Var(m), Term::Const(x));
        self.plain_edge(cur, run, at(0), vec![(m, Term::Const(1))], Some(span));
        self.plain_edge(cur, done, at(2), vec![], Some(span));
        self.give_up_edge(
            cur,
            not(or(at(0), or(at(1), at(2)))),
            "pthread_once on a control that was not initialised",
            span,
        );
        self.mark_wait(cur, crate::WaitKind::Once, span);
        self.flush();
        self.t.cur = Some(run);
        let def = self.functions[f];
        self.inline_values(f, def, Vec::new(), span)?;
        self.advance(Cond::True, vec![(m, Term::Const(2))], span);
        self.goto(done);
        self.t.cur = Some(done);
        Ok(())
    }

    /// `pthread_exit(v)`: the thread's result is `v`, and it finishes.
    pub(crate) fn thread_exit(&mut self, args: &[Node<Expression>], span: Span) -> Result<Val> {
        // The value is the argument's; the clean-up handlers run after the
        // call starts.
        let v = match args.first() {
            Some(a) => {
                let v = self.eval(a)?;
                if self.t.cleanups.is_empty() {
                    Some(v)
                } else {
                    Some(self.materialize(v, span)?)
                }
            }
            None => None,
        };
        self.exit_with(v, span)?;
        Ok(Val::term(Term::Const(0), CType::Void))
    }

    /// The thread ends with result `v` (`pthread_exit(v)`, a cancellation):
    /// its clean-up handlers run, then it goes to its finish.
    pub(super) fn exit_with(&mut self, v: Option<Val>, span: Span) -> Result<()> {
        let k = self.t.index;
        self.run_cleanups(span)?;
        if let Some(v) = v {
            if let Some(o) = self.thread_result(k, span)? {
                let p = self.whole(o);
                self.store(p, v, span)?;
            }
        }
        let to = self.t.finish.unwrap_or(END);
        if let Some(cur) = self.t.cur.take() {
            self.plain_edge(cur, to, Cond::True, vec![], Some(span));
        }
        self.flush();
        Ok(())
    }

    /// The place `pthread_join`'s result pointer `e` (with value `v`)
    /// designates: `&x` (under casts: `(void **)&x`) is `x`.
    pub(super) fn result_place(
        &mut self,
        e: &Node<Expression>,
        v: Val,
        span: Span,
    ) -> Result<Place> {
        let mut x = e;
        while let Expression::Cast(c) = &x.node {
            x = &c.node.expression;
        }
        if let Expression::UnaryOperator(u) = &x.node {
            if u.node.operator.node == frontend::lang_c::ast::UnaryOperator::Address {
                return self.place(&u.node.operand);
            }
        }
        let pointee = match &v.ty {
            CType::Ptr(t) => (**t).clone(),
            _ => CType::Ptr(Box::new(CType::Void)),
        };
        self.deref(v, pointee, span)
    }

    /// `*res := result of the thread t denotes`, after a join.
    pub(crate) fn join_result(&mut self, t: &Val, res: Place, span: Span) -> Result<()> {
        let mut cases = Vec::new();
        for (c, r) in &t.cases {
            match r {
                Res::Ub(u) => cases.push((c.clone(), Res::Ub(u.clone()))),
                Res::Val(x) => {
                    let mut known = Vec::new();
                    for k in 1..self.threads.len() {
                        let is_k = cmp(CmpOp::Eq, x.clone(), Term::Const(k as i64 + 1));
                        known.push(is_k.clone());
                        let v = match self.thread_result(k, span)? {
                            Some(o) => Res::Val(Term::Var(self.objects[o].cells[0])),
                            None => Res::Val(Term::Const(0)),
                        };
                        cases.push((and(c.clone(), is_k), v));
                    }
                    cases.push((
                        and(c.clone(), not(any(known))),
                        Res::Ub("pthread_join on a thread that was not created here".into()),
                    ));
                }
            }
        }
        let v = Val {
            cases,
            ty: CType::Ptr(Box::new(CType::Void)),
        }
        .pruned();
        self.store(res, v, span)
    }

    /// With the lost-block check: the result of the thread `t` denotes is
    /// consumed by its join (the runtime keeps it only until then), so its
    /// pointer points nowhere any more (`crate::memtrack`).
    pub(crate) fn consume_result(&mut self, t: &Val, span: Span) -> Result<()> {
        if !self.checks.memtrack {
            return Ok(());
        }
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let next = self.new_loc(Some(span));
        let mut known = Vec::new();
        for (c, r) in &t.cases {
            let Res::Val(x) = r else { continue };
            for k in 1..self.threads.len() {
                let Some(o) = self.thread_result(k, span)? else {
                    continue;
                };
                let joined = and(
                    c.clone(),
                    cmp(CmpOp::Eq, x.clone(), Term::Const(k as i64 + 1)),
                );
                known.push(joined.clone());
                let cells = self.pointer_cells(o);
                let assigns = cells.into_iter().map(|v| (v, Term::Const(0))).collect();
                self.plain_edge(cur, next, joined, assigns, Some(span));
            }
        }
        self.plain_edge(cur, next, not(any(known)), vec![], Some(span));
        self.flush();
        self.t.cur = Some(next);
        Ok(())
    }

    /// The end of a thread (at `self.t.finish`): the destructors of its
    /// thread-specific data, then the end location.
    pub(super) fn thread_finish(&mut self, span: Span) -> Result<()> {
        let me = self.t.index;
        let sites = self.key_sites();
        let with_dtor = |this: &Self| -> Vec<(usize, VarId, String)> {
            let mut v: Vec<(usize, VarId, String)> = this
                .sync
                .tls
                .iter()
                .filter(|((t, _), _)| *t == me)
                .filter_map(|((_, id), var)| {
                    let d = sites.get(id - 1)?.dtor.clone()??;
                    Some((*id, *var, d))
                })
                .collect();
            v.sort();
            v
        };
        for (id, var, dtor) in with_dtor(self) {
            let flag = self.key_flag(id);
            let Some(cur) = self.t.cur else { break };
            let (call, skip) = (self.new_loc(None), self.new_loc(None));
            let arg = self.temp(&CType::Ptr(Box::new(CType::Void)));
            let live = and(
                cmp(CmpOp::Ne, Term::Var(var), Term::Const(0)),
                cmp(CmpOp::Eq, Term::Var(flag), Term::Const(1)),
            );
            self.plain_edge(
                cur,
                call,
                live.clone(),
                vec![(arg, Term::Var(var)), (var, Term::Const(0))],
                Some(span),
            );
            self.plain_edge(cur, skip, not(live), vec![], Some(span));
            self.flush();
            self.t.cur = Some(call);
            let def = *self.functions.get(&dtor).ok_or_else(|| {
                LowerError::unsupported(span, format!("destructor `{dtor}` has no definition"))
            })?;
            let ty = self
                .params(def)?
                .first()
                .map(|(_, t)| t.clone())
                .unwrap_or(CType::Ptr(Box::new(CType::Void)));
            let v = Val::term(Term::Var(arg), CType::Ptr(Box::new(CType::Void)));
            let v = self.convert(v, &ty, span)?;
            self.inline_values(&dtor, def, vec![v], span)?;
            self.goto(skip);
            self.t.cur = Some(skip);
        }
        if let Some(cur) = self.t.cur.take() {
            let mut again = Vec::new();
            for (id, var, _) in with_dtor(self) {
                let flag = self.key_flag(id);
                again.push(and(
                    cmp(CmpOp::Ne, Term::Var(var), Term::Const(0)),
                    cmp(CmpOp::Eq, Term::Var(flag), Term::Const(1)),
                ));
            }
            let again = any(again);
            let finished = self.handle_finished(me).into_iter().collect();
            self.plain_edge(cur, END, not(again.clone()), finished, None);
            self.give_up_edge(
                cur,
                again,
                "thread-specific data set again by a destructor (further destructor rounds are not modelled)",
                span,
            );
            self.flush();
        }
        Ok(())
    }
}

/// A call of a synchronisation function: its name, arguments and span.
#[derive(Clone, Copy)]
pub(crate) struct SyncCall<'a> {
    name: &'a str,
    args: &'a [Node<Expression>],
    span: Span,
}

impl<'a> SyncCall<'a> {
    /// The `i`-th argument.
    fn arg(&self, i: usize) -> Result<&'a Node<Expression>> {
        self.args.get(i).ok_or_else(|| {
            LowerError::invalid(self.span, format!("`{}` needs more arguments", self.name))
        })
    }
}

/// `v op k`.
fn c(op: CmpOp, v: VarId, k: i64) -> Cond {
    cmp(op, Term::Var(v), Term::Const(k))
}

/// The term of a variable.
fn var(v: VarId) -> Term {
    Term::Var(v)
}
