//! Calls: the SV-COMP and pthread functions the lowering knows, and
//! inlining of functions with a body.

use engine::ir::{CmpOp, Cond, LocId, Term, ThreadId, VarId};
use frontend::lang_c::ast::{CallExpression, Expression, UnaryOperator as U};
use frontend::lang_c::span::{Node, Span};
use frontend::lang_c::visit::Visit;

use super::expr::{has_effects, Res, Target, Val};
use super::{sanitize, Binding, Frame, Lowerer, END, ERROR, EXIT};
use crate::cfg::{EdgeKind, Sync};
use crate::error::{LowerError, Result};
use crate::term::{and, any, cmp, not, within};
use crate::types::{CType, IntTy};

/// The most activations of one function a call chain unrolls
/// ([`Lowerer::recursion_limit`]).
pub(super) const MAX_RECURSION_DEPTH: usize = 8;

/// The most calls a thread's code inlines while their function is already
/// being inlined (tree recursion unrolls exponentially).
pub(super) const MAX_RECURSIVE_INLINES: usize = 256;

/// A thread's code with this many locations unrolls no more recursion
/// (the reduction's analyses grow with the code).
pub(super) const MAX_UNROLLING_LOCATIONS: usize = 2000;

/// Which mutex operation [`Lowerer::mutex_step`] lowers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MutexOp {
    Lock,
    Unlock,
    TryLock,
}

/// Functions with a meaning of their own (not inlined).
pub(crate) fn is_builtin(name: &str) -> bool {
    super::atomics::is_atomic_builtin(name)
        || super::sync::is_sync_builtin(name)
        || super::conventions::is_harness_builtin(name)
        || name.starts_with("__VERIFIER_nondet")
        || name.starts_with("pthread_")
        || matches!(
            name,
            "thrd_create"
                | "thrd_join"
                | "mtx_init"
                | "reach_error"
                | "__VERIFIER_error"
                | "__assert_fail"
                | "__assert_perror_fail"
                | "__assert"
                | "abort"
                | "exit"
                | "_exit"
                | "_Exit"
                | "__VERIFIER_assume"
                | "__VERIFIER_atomic_begin"
                | "__VERIFIER_atomic_end"
                | "__builtin_expect"
                | "printf"
                | "sscanf"
                | "puts"
                | "putchar"
                | "fprintf"
                | "fflush"
                | "sched_yield"
                | "usleep"
                | "sleep"
                | "nanosleep"
        )
}

/// The type of `__VERIFIER_nondet_SUFFIX()`.
fn nondet_type(suffix: &str, long: IntTy) -> Option<IntTy> {
    let i = |bits, signed, rank| Some(IntTy { bits, signed, rank });
    match suffix {
        "int" => i(32, true, 3),
        "uint" | "unsigned_int" | "unsigned" | "u32" => i(32, false, 3),
        "bool" | "_Bool" => Some(IntTy::BOOL),
        "char" => i(8, true, 1),
        "uchar" | "unsigned_char" | "u8" => i(8, false, 1),
        "short" => i(16, true, 2),
        "ushort" | "unsigned_short" | "u16" => i(16, false, 2),
        "long" => Some(long),
        "ulong" | "unsigned_long" | "size_t" => Some(long.with_sign(false)),
        "longlong" | "long_long" => i(64, true, 5),
        "ulonglong" | "unsigned_long_long" | "u64" => i(64, false, 5),
        _ => None,
    }
}

/// At most this many thread instances (with `main`) are created for
/// `pthread_create` sites inside loops.
const MAX_THREADS: usize = 24;

impl Lowerer<'_> {
    /// Whether a call of `name` is one of the library functions `modelled`
    /// (and not a function the program defines itself).
    pub(super) fn models(&self, modelled: &[&str], name: &str) -> bool {
        modelled.contains(&name) && !self.function_exists(name)
    }

    /// Whether a function the program defines calls `name` by name
    /// (computed once per name).
    pub(super) fn program_calls(&mut self, name: &'static str) -> bool {
        if let Some(&b) = self.program_calls.get(name) {
            return b;
        }
        let mut calls = Calls { name, found: false };
        if self.unit.text.contains(name) {
            for f in self.functions.values() {
                calls.visit_function_definition(&f.node, &f.span);
            }
        }
        self.program_calls.insert(name, calls.found);
        calls.found
    }

    pub(crate) fn function_exists(&self, name: &str) -> bool {
        self.functions.contains_key(name)
    }

    pub(super) fn me(&self) -> i64 {
        self.t.index as i64 + 1
    }

    /// A jump to a fixed location of this thread; no current location after.
    pub(super) fn jump_to(&mut self, to: crate::cfg::Loc, span: Span) {
        if let Some(cur) = self.t.cur.take() {
            self.plain_edge(cur, to, Cond::True, vec![], Some(span));
        }
        self.flush();
    }

    /// The arguments of a library call whose effect the model ignores
    /// (output, sleeping): evaluated for their reads and side effects. An
    /// argument whose value cannot be formed gives up where it is reached.
    pub(super) fn evaluate_ignored(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<()> {
        for a in args {
            if matches!(a.node, Expression::StringLiteral(_)) {
                // Constant text: no other thread writes it.
                continue;
            }
            let done = if has_effects(a) {
                self.eval(a).map(|_| ())
            } else {
                self.discard(a)
            };
            if let Err(err) = done {
                let reason = format!("argument of `{name}`: {}", err.message());
                self.give_up_where(Cond::True, &reason, a.span);
            }
        }
        self.settle_reads(span);
        Ok(())
    }

    /// Lowers a call (a cancellation point acts on a pending request,
    /// `cancel`).
    pub(crate) fn call(&mut self, c: &Node<CallExpression>, span: Span) -> Result<Val> {
        if let Expression::Identifier(id) = &c.node.callee.node {
            let name = &id.node.name;
            if self.lookup_local(name).is_none() && self.is_cancellation_point(name) {
                return self.cancellation_point_call(name, span, |l| l.call_here(c, span));
            }
        }
        self.call_here(c, span)
    }

    /// A call of an allocation wrapper ([`super::wrappers`]) as the
    /// allocation it makes: its size is then seen as written at the call
    /// (`xmalloc(n * sizeof(int))` an array of `n` elements). Not where
    /// the allocation may fail (the wrapper's null tests would matter).
    fn wrapped_allocation(&mut self, c: &CallExpression, span: Span) -> Result<Option<Val>> {
        if self.malloc_may_fail {
            return Ok(None);
        }
        let Some(alloc) = self.wrappers.expand_call(c) else {
            return Ok(None);
        };
        let Expression::Identifier(f) = &alloc.callee.node else {
            return Ok(None);
        };
        if self.function_exists(&f.node.name) {
            return Ok(None);
        }
        self.heap_call(&f.node.name, &alloc.arguments, span)
    }

    fn call_here(&mut self, c: &Node<CallExpression>, span: Span) -> Result<Val> {
        let void = Val::term(Term::Const(0), CType::Void);
        let name = match &c.node.callee.node {
            Expression::Identifier(id) => id.node.name.clone(),
            _ => return self.indirect_call(&c.node.callee, &c.node.arguments, span),
        };
        if let Some(Binding::Obj(_)) = self.lookup_local(&name) {
            return self.indirect_call(&c.node.callee, &c.node.arguments, span);
        }
        if !self.function_exists(&name) && !is_builtin(&name) {
            // A global function pointer (not a function declared in a header).
            if let Ok(Some(Binding::Obj(o))) = self.lookup(&name) {
                if let CType::Ptr(t) = &self.objects[o].ty {
                    if **t == CType::Func {
                        return self.indirect_call(&c.node.callee, &c.node.arguments, span);
                    }
                }
            }
        }
        let args = &c.node.arguments;
        for hook in [
            Self::event_call,
            Self::harness_call,
            Self::cleanup_call,
            Self::cancel_call,
            Self::timed_call,
            Self::libc_call,
            Self::math_call,
            Self::pipe_call,
            Self::mq_call,
            Self::sync_call,
            Self::atomic_call,
            Self::string_call,
        ] {
            if let Some(v) = hook(self, &name, args, span)? {
                return Ok(v);
            }
        }
        let arg = |i: usize| -> Result<&Node<Expression>> {
            args.get(i)
                .ok_or_else(|| LowerError::invalid(span, format!("`{name}` needs more arguments")))
        };
        if !self.function_exists(&name) {
            if let Some(v) = self.heap_call(&name, args, span)? {
                return Ok(v);
            }
        }
        if let Some(v) = self.wrapped_allocation(&c.node, span)? {
            return Ok(v);
        }
        match name.as_str() {
            "reach_error"
            | "__VERIFIER_error"
            | "__assert_fail"
            | "__assert_perror_fail"
            | "__assert" => {
                self.jump_to(ERROR, span);
                return Ok(void);
            }
            "abort" | "exit" | "_exit" | "_Exit" => {
                if name == "abort" && self.checks.memcleanup {
                    // Whether memory left at an abnormal end violates
                    // `valid-memcleanup` is not settled: not decided.
                    let allocated = any(self.heap.keys().filter_map(|&o| self.alive(o)));
                    self.give_up_where(
                        allocated,
                        "abort() while heap memory is allocated (valid-memcleanup is checked at \
                         normal ends)",
                        span,
                    );
                }
                self.jump_to(EXIT, span);
                return Ok(void);
            }
            "__VERIFIER_assert" if !self.function_exists(&name) => {
                let v = self.eval(arg(0)?)?;
                let (t, f, ub) = self.truth(&v);
                self.guarded_continue(t, vec![(f, ERROR)], ub, span, false);
                return Ok(void);
            }
            "__VERIFIER_assume" => {
                let v = self.eval(arg(0)?)?;
                let (t, _, ub) = self.truth(&v);
                self.guarded_continue(t, vec![], ub, span, true);
                return Ok(void);
            }
            "__VERIFIER_atomic_begin" | "__VERIFIER_atomic_end" => {
                let kind = if name.ends_with("begin") {
                    EdgeKind::AtomicBegin
                } else {
                    EdgeKind::AtomicEnd
                };
                self.atomic_edge(kind, span);
                return Ok(void);
            }
            "__builtin_expect" => return self.eval(arg(0)?),
            "sscanf" => return self.sscanf(args, span),
            "printf" | "puts" | "putchar" | "fprintf" | "fflush" | "sched_yield" | "usleep"
            | "sleep" | "nanosleep" => {
                self.evaluate_ignored(&name, args, span)?;
                return Ok(Val::int(0));
            }
            "pthread_cond_signal" | "pthread_cond_broadcast" if self.checks.deadlocks => {
                let c = self.pointee_as(arg(0)?, Some(CType::CondVar), span)?;
                self.cond_signal(c, name == "pthread_cond_broadcast", span);
                return Ok(Val::int(0));
            }
            "pthread_attr_init"
            | "pthread_attr_destroy"
            | "pthread_attr_setdetachstate"
            | "pthread_mutexattr_init"
            | "pthread_mutexattr_destroy"
            | "pthread_mutexattr_settype"
            | "pthread_detach"
            | "pthread_yield"
            | "pthread_cond_init"
            | "pthread_cond_destroy"
            | "pthread_cond_signal"
            | "pthread_cond_broadcast"
            | "pthread_mutex_destroy"
            | "pthread_condattr_init"
            | "pthread_condattr_destroy"
            // Scheduling, stacks and names: no effect under the model's
            // scheduler (any interleaving) and unbounded memory.
            | "pthread_attr_setstacksize"
            | "pthread_attr_setstack"
            | "pthread_attr_setguardsize"
            | "pthread_attr_setscope"
            | "pthread_attr_setschedpolicy"
            | "pthread_attr_setschedparam"
            | "pthread_attr_setinheritsched"
            | "pthread_attr_setaffinity_np"
            | "pthread_setschedparam"
            | "pthread_setschedprio"
            | "pthread_setconcurrency"
            | "pthread_setaffinity_np"
            | "pthread_setname_np" => {
                if args.iter().any(has_effects) {
                    return Err(LowerError::unsupported(
                        span,
                        format!("arguments with side effects to `{name}`"),
                    ));
                }
                return Ok(Val::int(0));
            }
            "pthread_equal" => {
                let a = self.eval(arg(0)?)?;
                let b = self.eval(arg(1)?)?;
                let (a, b) = (
                    Val {
                        ty: CType::Int(IntTy::INT),
                        ..a
                    },
                    Val {
                        ty: CType::Int(IntTy::INT),
                        ..b
                    },
                );
                return self.binary(frontend::lang_c::ast::BinaryOperator::Equals, a, b, span);
            }
            "pthread_self" => return Ok(Val::term(Term::Const(self.me()), CType::ThreadHandle)),
            "pthread_exit" => return self.thread_exit(args, span),
            // C11 (`lower` of <threads.h>'s other functions is the
            // frontend's): `mtx_plain` (0), `| mtx_recursive` (1), `|
            // mtx_timed` (2, no effect here: every mutex can be waited
            // for with a time limit).
            "mtx_init" => {
                let p = self.pointee_as(arg(0)?, Some(CType::Mutex), span)?;
                let ty = self.const_value(arg(1)?).map_err(|_| {
                    LowerError::unsupported(span, "`mtx_init` of a type that is not a constant")
                })?;
                if ty & 1 != 0 {
                    self.set_mutex_kind(&p, super::sync::RECURSIVE, span)?;
                }
                self.store(p, Val::int(0), span)?;
                return Ok(Val::int(0));
            }
            "pthread_mutex_init" => {
                let p = self.pointee_as(arg(0)?, Some(CType::Mutex), span)?;
                self.mutex_init_kind(&p, args.get(1), span)?;
                self.store(p, Val::int(0), span)?;
                return Ok(Val::int(0));
            }
            "pthread_mutex_lock" => {
                let p = self.pointee_as(arg(0)?, Some(CType::Mutex), span)?;
                if let Some(v) = self.typed_mutex(super::sync::MutexUse::Lock, &p, span)? {
                    return Ok(v);
                }
                self.lock(p, span);
                return Ok(Val::int(0));
            }
            "pthread_mutex_unlock" => {
                let p = self.pointee_as(arg(0)?, Some(CType::Mutex), span)?;
                if let Some(v) = self.typed_mutex(super::sync::MutexUse::Unlock, &p, span)? {
                    return Ok(v);
                }
                self.unlock(p, span);
                return Ok(Val::int(0));
            }
            "pthread_mutex_trylock" => {
                let p = self.pointee_as(arg(0)?, Some(CType::Mutex), span)?;
                return self.mutex_trylock(p, span);
            }
            "pthread_cond_wait" => {
                // A wait releases the mutex and re-acquires it later; POSIX
                // allows spurious wake-ups, so no signal is needed, except
                // for deadlocks, which do not count on them.
                let m = self.pointee_as(arg(1)?, Some(CType::Mutex), span)?;
                self.typed_mutex(super::sync::MutexUse::Wait, &m, span)?;
                if self.checks.deadlocks {
                    let c = self.pointee_as(arg(0)?, Some(CType::CondVar), span)?;
                    self.cond_wait(c, m, span)?;
                    return Ok(Val::int(0));
                }
                self.unlock(m.clone(), span);
                self.waiting_for_signal(&m, None, span)?;
                self.lock(m, span);
                return Ok(Val::int(0));
            }
            "pthread_create" => return self.create(args, span),
            // C11: `thrd_create(&t, f, arg)` (no attributes; `thrd_success`
            // is 0) and `thrd_join(t, &res)` (an `int` result).
            "thrd_create" => {
                let [t, f, a] = args.as_slice() else {
                    return Err(LowerError::invalid(
                        span,
                        "`thrd_create` takes three arguments",
                    ));
                };
                return self.create(&[t.clone(), t.clone(), f.clone(), a.clone()], span);
            }
            "thrd_join" => return self.join(args, span),
            "pthread_join" => return self.join(args, span),
            _ => {}
        }
        if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_") {
            if let Some(bytes) = match suffix {
                "float" => Some(4),
                "double" => Some(8),
                _ => None,
            } {
                // Any floating-point value: the abstract one (`floats`).
                return Ok(super::floats::placeholder(CType::Float(bytes)));
            }
            let known = nondet_type(suffix, self.types.long(true));
            if known.is_none() && self.declared_function(&name) {
                // `__VERIFIER_nondet_pointer`, `__VERIFIER_nondet_loff_t`, …:
                // any value of the declared return type.
                return self.nondet_call(&name, span);
            }
            let ty = known.ok_or_else(|| {
                LowerError::unsupported(
                    span,
                    format!("`{name}` (nondeterministic values of this type are not modelled)"),
                )
            })?;
            let tmp = self.temp(&CType::Int(ty));
            self.vars[tmp.index()].meta.origin = crate::VarOrigin::Nondet {
                function: name.clone(),
                call: span,
            };
            self.t.pending_havoc.push(tmp);
            self.t
                .pending_guard
                .push(within(&Term::Var(tmp), ty.min(), ty.max()));
            return Ok(Val::term(Term::Var(tmp), CType::Int(ty)));
        }
        if name.starts_with("pthread_") {
            return Err(LowerError::unsupported(
                span,
                format!("`{name}` is not modelled"),
            ));
        }
        let Some(def) = self.functions.get(&name).copied() else {
            return self.undefined_call(&name, args, span);
        };
        self.inline(&name, def, args, span)
    }

    /// Continues where `ok` holds; jumps elsewhere per case; gives up on
    /// undefined behaviour. `blocking`: nothing happens where none holds.
    pub(super) fn guarded_continue(
        &mut self,
        ok: Cond,
        others: Vec<(Cond, crate::cfg::Loc)>,
        ub: Vec<(Cond, super::Ub)>,
        span: Span,
        blocking: bool,
    ) {
        let Some(cur) = self.t.cur else {
            self.flush();
            return;
        };
        let next = self.new_loc(None);
        self.plain_edge(cur, next, ok, vec![], Some(span));
        for (c, l) in others {
            self.plain_edge(cur, l, c, vec![], Some(span));
        }
        for (c, r) in ub {
            self.give_up_edge(cur, c, r, span);
        }
        if blocking {
            self.t.cfg.locs[cur].blocking = true;
        }
        self.flush();
        self.t.cur = Some(next);
    }

    pub(super) fn atomic_edge(&mut self, kind: EdgeKind, span: Span) {
        let Some(cur) = self.t.cur else { return };
        let next = self.new_loc(None);
        self.edge_kind(cur, next, Cond::True, vec![], Some(span), kind);
        self.flush();
        self.t.cur = Some(next);
    }

    /// The place a pointer argument points to.
    pub(super) fn pointee(
        &mut self,
        e: &Node<Expression>,
        span: Span,
    ) -> Result<super::expr::Place> {
        self.pointee_as(e, None, span)
    }

    /// The place a pointer argument of a parameter of type `param *`
    /// points to: a `void *` converts to it, as C converts arguments.
    pub(super) fn pointee_as(
        &mut self,
        e: &Node<Expression>,
        param: Option<CType>,
        span: Span,
    ) -> Result<super::expr::Place> {
        let v = self.eval(e)?;
        let ty = match (&v.ty, param) {
            (CType::Ptr(t), Some(p)) if **t == CType::Void => p,
            (CType::Ptr(t), _) => (**t).clone(),
            _ => return Err(LowerError::unsupported(span, "expected a pointer argument")),
        };
        self.deref(v, ty, span)
    }

    pub(super) fn cells_of(
        &self,
        p: &super::expr::Place,
    ) -> Vec<(Cond, std::result::Result<engine::ir::VarId, super::Ub>)> {
        p.cases
            .iter()
            .map(|(c, t)| match t {
                Target::Cell(o, off) => (c.clone(), Ok(self.objects[*o].cells[*off as usize])),
                Target::Ub(r) => (c.clone(), Err(r.clone())),
                Target::Tail { .. } => (c.clone(), Err(super::tails::TAIL_MEMBER.into())),
            })
            .collect()
    }

    /// One step on a mutex: for each cell the place may be, `cases(m)`
    /// gives the edges from the current location as (condition, give-up
    /// reason or `None` to continue, assignments); an invalid place gives up.
    /// The continuing edge of a lock or unlock is marked with its [`Sync`]
    /// operation for the reduction.
    fn mutex_step(
        &mut self,
        p: &super::expr::Place,
        span: Span,
        op: MutexOp,
        cases: impl Fn(VarId) -> Vec<(Cond, Option<&'static str>, Vec<(VarId, Term)>)>,
    ) {
        if op == MutexOp::Lock {
            self.inputs_before_wait(span);
        }
        let Some(cur) = self.t.cur else { return };
        let next = self.new_loc(None);
        let me = self.me();
        for (c, cell) in self.cells_of(p) {
            match cell {
                Ok(m) => {
                    for (g, give_up, assigns) in cases(m) {
                        let to = give_up.map_or(next, |r| self.give_up(r));
                        let before = self.t.cfg.edges.len();
                        self.plain_edge(cur, to, and(c.clone(), g), assigns, Some(span));
                        let sync = match op {
                            MutexOp::Lock => Sync::Acquire(m, me),
                            MutexOp::Unlock => Sync::Release(m, me),
                            MutexOp::TryLock => Sync::None,
                        };
                        if give_up.is_none() && self.t.cfg.edges.len() > before {
                            if let Some(e) = self.t.cfg.edges.last_mut() {
                                e.sync = sync;
                            }
                        }
                    }
                }
                Err(r) => {
                    self.give_up_edge(cur, c, &r, span);
                }
            }
        }
        if op == MutexOp::Lock {
            let cells: Vec<(Cond, VarId)> = self
                .cells_of(p)
                .into_iter()
                .filter_map(|(c, cell)| Some((c, cell.ok()?)))
                .collect();
            for (_, cell) in &cells {
                self.lock_sites.push((self.t.index, *cell, span));
            }
            self.mark_wait(cur, crate::WaitKind::Mutex(cells), span);
        }
        self.flush();
        self.t.cur = Some(next);
    }

    /// `pthread_mutex_lock`. A relock by the owner is undefined for a
    /// default mutex (a give-up), except for deadlocks: glibc's default
    /// mutex is a normal one, whose relock waits forever (SOUNDNESS.md,
    /// "Deadlocks").
    pub(super) fn lock(&mut self, p: super::expr::Place, span: Span) {
        let me = self.me();
        let relock_waits = self.checks.deadlocks;
        self.mutex_step(&p, span, MutexOp::Lock, |m| {
            let mut cases = vec![(
                cmp(CmpOp::Eq, Term::Var(m), Term::Const(0)),
                None,
                vec![(m, Term::Const(me))],
            )];
            if !relock_waits {
                cases.push((
                    cmp(CmpOp::Eq, Term::Var(m), Term::Const(me)),
                    Some(
                        "locking a mutex the thread already holds (undefined for default mutexes)",
                    ),
                    vec![],
                ));
            }
            cases
        });
    }

    pub(super) fn unlock(&mut self, p: super::expr::Place, span: Span) {
        self.unlock_with(p, vec![], span);
    }

    /// An unlock that also makes the assignments `also` when it succeeds.
    pub(super) fn unlock_with(
        &mut self,
        p: super::expr::Place,
        also: Vec<(VarId, Term)>,
        span: Span,
    ) {
        let me = self.me();
        self.mutex_step(&p, span, MutexOp::Unlock, |m| {
            let mine = cmp(CmpOp::Eq, Term::Var(m), Term::Const(me));
            let mut release = vec![(m, Term::Const(0))];
            release.extend(also.iter().cloned());
            vec![
                (mine.clone(), None, release),
                (
                    not(mine),
                    Some("unlocking a mutex the thread does not hold (undefined for default mutexes)"),
                    vec![],
                ),
            ]
        });
    }

    /// `pthread_mutex_trylock` of the mutex at `p` (any type).
    pub(super) fn mutex_trylock(&mut self, p: super::expr::Place, span: Span) -> Result<Val> {
        if let Some(v) = self.typed_mutex(super::sync::MutexUse::TryLock, &p, span)? {
            return Ok(v);
        }
        self.trylock(p, span)
    }

    pub(super) fn trylock(&mut self, p: super::expr::Place, span: Span) -> Result<Val> {
        let tmp = self.temp(&CType::Int(IntTy::INT));
        let me = self.me();
        self.mutex_step(&p, span, MutexOp::TryLock, |m| {
            let free = cmp(CmpOp::Eq, Term::Var(m), Term::Const(0));
            vec![
                (
                    free.clone(),
                    None,
                    vec![(m, Term::Const(me)), (tmp, Term::Const(0))],
                ),
                // EBUSY
                (not(free), None, vec![(tmp, Term::Const(16))]),
            ]
        });
        Ok(Val::term(Term::Var(tmp), CType::Int(IntTy::INT)))
    }

    /// The function an expression names (`f`, `&f`, `(void *(*)(void *)) f`).
    pub(super) fn function_name(&self, e: &Node<Expression>) -> Option<String> {
        match &e.node {
            Expression::Identifier(id) if self.function_exists(&id.node.name) => {
                Some(id.node.name.clone())
            }
            Expression::UnaryOperator(u) if u.node.operator.node == U::Address => {
                self.function_name(&u.node.operand)
            }
            Expression::Cast(c) => self.function_name(&c.node.expression),
            _ => None,
        }
    }

    fn create(&mut self, args: &[Node<Expression>], span: Span) -> Result<Val> {
        if args.len() != 4 {
            return Err(LowerError::invalid(
                span,
                "`pthread_create` takes four arguments",
            ));
        }
        let func = self.function_name(&args[2]).ok_or_else(|| {
            LowerError::unsupported(args[2].span, "thread start routine is not a known function")
        })?;
        // The handle's place, or the array of thread handles and the index.
        let handle = match self.handle_element(&args[0], true)? {
            Some((h, index)) => Handle::Element(h, self.handle_index(h, index, span)?),
            None => Handle::Place(self.pointee(&args[0], span)?),
        };
        let argv = self.eval(&args[3])?;
        // A site inside a loop may run any number of times: it gets several
        // instances (started lowest first), within a cap on all threads.
        let count = if self.t.loops > 0 {
            self.instances
                .min(MAX_THREADS.saturating_sub(self.threads.len()))
                .max(1)
        } else {
            1
        };
        let ks = (0..count)
            .map(|_| self.new_thread(&func, span))
            .collect::<Result<Vec<usize>>>()?;
        let param = self.threads[ks[0]].param;
        let argv = match param {
            Some(o) => {
                let ty = self.objects[o].ty.clone();
                self.convert(argv, &ty, span)?
            }
            None => Val::int(0),
        };
        let Some(cur) = self.t.cur else {
            return Ok(Val::int(0));
        };
        let next = self.new_loc(None);
        // Instance `i` is started when the site has run `i` times: by the
        // run flag with one instance, by a counter of the site with more.
        let counter = (count > 1).then(|| {
            let name = format!("{}.spawned", self.threads[ks[0]].name);
            self.var(name, Some(0), crate::term::Range::new(0, count as i128))
        });
        if let Some(n) = counter {
            self.loop_sites.push(crate::LoopSite {
                instances: ks.iter().map(|&k| engine::ir::ThreadId::new(k)).collect(),
                spawned: n,
            });
        }
        let run = |l: &Self, i: usize| {
            l.threads[ks[i]]
                .run
                .expect("created threads have a run flag")
        };
        let started = |l: &Self, i: usize| match counter {
            Some(n) => cmp(CmpOp::Eq, Term::Var(n), Term::Const(i as i64)),
            None => cmp(CmpOp::Eq, Term::Var(run(l, i)), Term::Const(0)),
        };
        let again = if count > 1 {
            self.give_up_of(crate::LoopSite::beyond(count))
        } else {
            self.give_up(
                "a pthread_create call ran more than once (unbounded thread creation is not modelled)",
            )
        };
        // Where the handle goes, per case: a cell, or the slots of the
        // instances in an array of thread handles.
        let stores: Vec<(Cond, std::result::Result<Store, super::Ub>)> = match handle {
            Handle::Place(tid) => self
                .cells_of(&tid)
                .into_iter()
                .map(|(c, r)| (c, r.map(Store::Cell)))
                .collect(),
            Handle::Element(h, index) => self
                .handle_store(h, index, &ks, cur, span)
                .into_iter()
                .map(|(c, i)| (c, Ok(Store::Slot(h, i))))
                .collect(),
        };
        for (tc, cell) in stores {
            for (ac, r) in &argv.cases {
                let c = and(tc.clone(), ac.clone());
                match (&cell, r) {
                    (Err(u), _) | (_, Res::Ub(u)) => {
                        self.give_up_edge(cur, c, u, span);
                    }
                    (Ok(store), Res::Val(a)) => {
                        for (i, &k) in ks.iter().enumerate() {
                            let mut assigns = vec![(run(self, i), Term::Const(1))];
                            match store {
                                Store::Cell(t) => assigns.push((*t, Term::Const(k as i64 + 1))),
                                Store::Slot(h, index) => assigns.push((
                                    self.handle_slot(*h, k).expect("registered with its array"),
                                    index.clone(),
                                )),
                            }
                            if let Some(n) = counter {
                                assigns.push((n, Term::Const(i as i64 + 1)));
                            }
                            if let Some(o) = self.threads[k].param {
                                assigns.push((self.objects[o].cells[0], a.clone()));
                            }
                            let g = and(c.clone(), started(self, i));
                            self.plain_edge(cur, next, g, assigns, Some(span));
                        }
                    }
                }
            }
        }
        let full = match counter {
            Some(n) => cmp(CmpOp::Eq, Term::Var(n), Term::Const(count as i64)),
            None => crate::term::not(started(self, 0)),
        };
        self.plain_edge(cur, again, full, vec![], Some(span));
        self.flush();
        self.t.cur = Some(next);
        Ok(Val::int(0))
    }

    fn join(&mut self, args: &[Node<Expression>], span: Span) -> Result<Val> {
        if args.len() != 2 {
            return Err(LowerError::invalid(
                span,
                "`pthread_join` takes two arguments",
            ));
        }
        if let Some((h, index)) = self.handle_element(&args[0], false)? {
            return self.handle_join(h, index, &args[1], span);
        }
        let res = self.eval(&args[1])?;
        let res = match res.constant() {
            Some(0) => None,
            _ => Some(self.result_place(&args[1], res, span)?),
        };
        let t = self.eval(&args[0])?;
        // The result is stored in a later step: the handle must not change.
        let t = if res.is_some() {
            self.materialize(t, span)?
        } else {
            t
        };
        self.inputs_before_wait(span);
        let Some(cur) = self.t.cur else {
            return Ok(Val::int(0));
        };
        let next = self.new_loc(None);
        let mut known = Vec::new();
        for (c, r) in &t.cases {
            match r {
                Res::Ub(u) => {
                    self.give_up_edge(cur, c.clone(), u, span);
                }
                Res::Val(x) => {
                    for k in 1..self.threads.len() {
                        let is_k = cmp(CmpOp::Eq, x.clone(), Term::Const(k as i64 + 1));
                        known.push(and(c.clone(), is_k.clone()));
                        if k == self.t.index {
                            // POSIX leaves it undefined; glibc returns EDEADLK.
                            self.give_up_edge(
                                cur,
                                and(c.clone(), is_k),
                                "pthread_join of the calling thread",
                                span,
                            );
                            continue;
                        }
                        let done = Cond::At(ThreadId::new(k), LocId::new(END));
                        self.plain_edge(
                            cur,
                            next,
                            and(c.clone(), and(is_k, done)),
                            vec![],
                            Some(span),
                        );
                    }
                }
            }
        }
        let g = self.give_up("pthread_join on a thread that was not created here");
        let ok_cases: Vec<Cond> = t
            .cases
            .iter()
            .filter(|(_, r)| matches!(r, Res::Val(_)))
            .map(|(c, _)| c.clone())
            .collect();
        self.plain_edge(
            cur,
            g,
            and(any(ok_cases), not(any(known))),
            vec![],
            Some(span),
        );
        self.mark_wait(cur, crate::WaitKind::Join, span);
        self.flush();
        self.t.cur = Some(next);
        if let Some(res) = res {
            self.join_result(&t, res, span)?;
        }
        self.consume_result(&t, span)?;
        Ok(Val::int(0))
    }

    pub(crate) fn inline(
        &mut self,
        name: &str,
        def: &Node<frontend::lang_c::ast::FunctionDefinition>,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Val> {
        // Recursion and the number of arguments are checked by
        // `inline_values`.
        let vals = self.eval_args(args)?;
        self.inline_values(name, def, vals, span)
    }

    /// The values of a call's arguments, in order (a value is kept in a
    /// temporary when a later argument has effects).
    pub(super) fn eval_args(&mut self, args: &[Node<Expression>]) -> Result<Vec<Val>> {
        let mut vals = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let v = self.eval(a)?;
            let later_effects = args[i + 1..].iter().any(has_effects);
            vals.push(if later_effects {
                self.materialize(v, a.span)?
            } else {
                v
            });
        }
        Ok(vals)
    }

    /// Why a call of `name` cannot be inlined here: `name` is already
    /// being inlined [`MAX_RECURSION_DEPTH`] times, or the thread has used
    /// up its [`MAX_RECURSIVE_INLINES`] or [`MAX_UNROLLING_LOCATIONS`].
    /// Recursion is unrolled up to these bounds; a deeper call gives up
    /// where an execution reaches it.
    fn recursion_limit(&self, name: &str) -> Option<String> {
        let depth = self.t.frames.iter().filter(|f| f.func == name).count();
        if depth >= MAX_RECURSION_DEPTH {
            return Some(format!(
                "recursion deeper than {MAX_RECURSION_DEPTH} calls of `{name}`"
            ));
        }
        let unrolled = self.t.recursive_inlines >= MAX_RECURSIVE_INLINES
            || self.t.cfg.locs.len() >= MAX_UNROLLING_LOCATIONS;
        (depth > 0 && unrolled).then(|| {
            format!(
                "recursive call to `{name}` beyond what a thread's code unrolls ({MAX_RECURSIVE_INLINES} recursive calls, {MAX_UNROLLING_LOCATIONS} locations)"
            )
        })
    }

    /// Inlines a call of `name` with evaluated arguments.
    pub(super) fn inline_values(
        &mut self,
        name: &str,
        def: &Node<frontend::lang_c::ast::FunctionDefinition>,
        vals: Vec<Val>,
        span: Span,
    ) -> Result<Val> {
        if let Some(why) = self.recursion_limit(name) {
            return Err(LowerError::unsupported(span, why));
        }
        if self.t.frames.iter().any(|f| f.func == name) {
            self.t.recursive_inlines += 1;
        }
        let params = self.params(def)?;
        if params.len() != vals.len() {
            return Err(LowerError::unsupported(
                span,
                format!(
                    "`{name}` called with {} arguments, declared with {}",
                    vals.len(),
                    params.len()
                ),
            ));
        }
        let n = self.t.inline_counts.entry(name.to_string()).or_insert(0);
        *n += 1;
        let tname = self.threads[self.t.index].name.clone();
        let prefix = if *n == 1 {
            format!("{tname}.{}", sanitize(name))
        } else {
            format!("{tname}.{}.{n}", sanitize(name))
        };
        let mut scope = std::collections::HashMap::new();
        for ((pname, ty), v) in params.into_iter().zip(vals) {
            // A data pointer the function never assigns nor takes the
            // address of, passed a constant address: that address (its
            // dereferences then need no case split over the objects).
            if let (Some(pn), CType::Ptr(to), [(Cond::True, Res::Val(Term::Const(k)))]) =
                (&pname, &ty, v.cases.as_slice())
            {
                if **to != CType::Func
                    && !self.addr_names.contains(pn)
                    && !self.assigned_names.contains(pn)
                {
                    scope.insert(pn.clone(), Binding::Const(*k, ty.clone()));
                    continue;
                }
            }
            let pn = pname.clone().unwrap_or_else(|| "arg".into());
            let vname = self.unique(&format!(
                "{prefix}.{}",
                sanitize(self.unit.display_name(&pn))
            ));
            let o = self.object(&vname, ty.clone(), Some(0), span)?;
            let c_name = self.unit.display_name(&pn).to_string();
            self.name_object(o, &c_name, Some(self.t.index), Some(name.to_string()));
            self.note_address_taken(o, &pn);
            let p = self.whole(o);
            self.store(p, v, span)?;
            if let Some(pname) = pname {
                scope.insert(pname, Binding::Obj(o));
            }
        }
        let ret_ty = self.return_type(def)?;
        let ret = match ret_ty {
            CType::Void => None,
            ref t => {
                let vname = self.unique(&format!("{prefix}.ret"));
                let o = self.object(&vname, t.clone(), Some(0), span)?;
                // A returned pointer is in flight until the caller uses it.
                for c in self.pointer_cells(o) {
                    self.pointer_temps.push((c, self.t.index));
                }
                Some(o)
            }
        };
        let exit = self.new_loc(None);
        let atomic = name.starts_with("__VERIFIER_atomic_");
        if atomic {
            self.atomic_edge(EdgeKind::AtomicBegin, span);
        }
        let saved_split = self.t.split;
        let saved_jumps = std::mem::take(&mut self.t.jumps);
        let saved_cases = std::mem::take(&mut self.t.cases);
        self.t.frames.push(Frame {
            func: name.to_string(),
            prefix,
            ret,
            exit,
            labels: std::collections::HashMap::new(),
            scopes: vec![scope],
        });
        let contracts = self.enter_contracts(name, span);
        self.stmt(&def.node.statement)?;
        self.end_scopes(0);
        self.goto(exit);
        self.t.frames.pop();
        self.t.jumps = saved_jumps;
        self.t.cases = saved_cases;
        self.t.split = saved_split;
        self.t.cur = Some(exit);
        let result = ret.map(|o| Term::Var(self.objects[o].cells[0]));
        self.leave_contracts(name, contracts, result, span);
        if atomic {
            self.atomic_edge(EdgeKind::AtomicEnd, span);
        }
        Ok(match ret {
            // A struct value is the address of its object (`Lowerer::read`).
            Some(o) if matches!(ret_ty, CType::Struct(_)) => {
                let p = self.whole(o);
                self.address(p, ret_ty)
            }
            Some(o) => Val::term(Term::Var(self.objects[o].cells[0]), ret_ty),
            None => Val::term(Term::Const(0), CType::Void),
        })
    }
}

/// The handle argument of `pthread_create`.
enum Handle {
    /// The place it points to.
    Place(super::expr::Place),
    /// An element of an array of thread handles: the array and the index.
    Element(usize, Val),
}

/// Where `pthread_create` stores the new thread's handle.
enum Store {
    /// A cell (it gets the thread's id).
    Cell(engine::ir::VarId),
    /// The slot of the instance in an array of thread handles (it gets the
    /// index).
    Slot(usize, Term),
}

/// Finds a call of `name` (by name).
struct Calls {
    name: &'static str,
    found: bool,
}

impl<'ast> Visit<'ast> for Calls {
    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
        if matches!(&c.callee.node, Expression::Identifier(id) if id.node.name == self.name) {
            self.found = true;
        }
        frontend::lang_c::visit::visit_call_expression(self, c, span);
    }
}
