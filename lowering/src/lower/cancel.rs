//! Thread cancellation (SOUNDNESS.md, "Thread cancellation"): deferred
//! cancellation at POSIX's cancellation points.
//!
//! In a program that calls `pthread_cancel`, each thread instance has a
//! *pending* flag, which `pthread_cancel(t)` sets for `t`'s instance, and
//! a *disabled* flag of its own (`pthread_setcancelstate`). A cancellation
//! point acts on a pending request when the state is enabled: the thread
//! runs its clean-up handlers (innermost first, `Lowerer::exit_with`) and
//! ends with the result `PTHREAD_CANCELED` (`(void *)-1`). A point acts
//! before the call starts; a call that waits (`pthread_join`, `sem_wait`,
//! a pipe or message-queue transfer) also acts while it waits (an edge
//! from its waiting location); `pthread_cond_wait` acts while it waits
//! with the mutex re-acquired first, as POSIX has it; a sleep, which the
//! model does not make wait, also acts after it. Asynchronous cancellation
//! (`PTHREAD_CANCEL_ASYNCHRONOUS`) gives up where it is set.

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::Expression;
use frontend::lang_c::span::{Node, Span};

use super::expr::{Place, Res, Val};
use super::Lowerer;
use crate::cfg::Loc;
use crate::error::{LowerError, Result};
use crate::term::{and, any, cmp, not, Range};
use crate::types::{CType, IntTy};

/// POSIX's cancellation points among the functions C programs call (the
/// required ones of XSH 2.9.5.2; `thrd_join` is `pthread_join` in glibc).
const POINTS: &[&str] = &[
    "pthread_join",
    "thrd_join",
    "pthread_testcancel",
    "pthread_cond_wait",
    "pthread_cond_timedwait",
    "sem_wait",
    "sem_timedwait",
    "sleep",
    "usleep",
    "nanosleep",
    "clock_nanosleep",
    "pause",
    "read",
    "write",
    "readv",
    "writev",
    "pread",
    "pwrite",
    "open",
    "openat",
    "creat",
    "close",
    "fsync",
    "fdatasync",
    "mq_send",
    "mq_receive",
    "mq_timedsend",
    "mq_timedreceive",
    "msgrcv",
    "msgsnd",
    "accept",
    "connect",
    "recv",
    "recvfrom",
    "recvmsg",
    "send",
    "sendto",
    "sendmsg",
    "select",
    "pselect",
    "poll",
    "wait",
    "waitid",
    "waitpid",
    "system",
    "sigsuspend",
    "sigwait",
    "sigtimedwait",
    "sigwaitinfo",
    "tcdrain",
];

/// The cancellation points the model does not make wait (they return at
/// once): a request arriving while C's call waits is acted on after it.
const RETURNING: &[&str] = &["sleep", "usleep", "nanosleep", "clock_nanosleep"];

/// `PTHREAD_CANCELED`.
fn canceled() -> Val {
    Val::term(Term::Const(-1), CType::Ptr(Box::new(CType::Void)))
}

impl Lowerer<'_> {
    /// Whether the program can cancel a thread.
    pub(super) fn cancels(&mut self) -> bool {
        self.program_calls("pthread_cancel")
    }

    /// Whether a call of `name` is a cancellation point the program can
    /// reach with a request pending.
    pub(super) fn is_cancellation_point(&mut self, name: &str) -> bool {
        POINTS.contains(&name) && !self.function_exists(name) && self.cancels()
    }

    /// Lowers a call that is a cancellation point (`lower` lowers the
    /// call itself): acts on a request before it, while it waits, and
    /// after it where the model does not wait.
    pub(super) fn cancellation_point_call(
        &mut self,
        name: &str,
        span: Span,
        lower: impl FnOnce(&mut Self) -> Result<Val>,
    ) -> Result<Val> {
        self.cancellation_point(None, span)?;
        let mark = self.t.cancel_waits.len();
        let v = lower(self)?;
        for at in self.t.cancel_waits.split_off(mark) {
            self.cancel_exit_from(at, None, span)?;
        }
        if RETURNING.contains(&name) {
            self.cancellation_point(None, span)?;
        }
        Ok(v)
    }

    /// Thread `k`'s pending and disabled flags (made on first use).
    fn cancel_flag_pair(&mut self, k: usize) -> (VarId, VarId) {
        if let Some(&v) = self.cancel_flags.get(&k) {
            return v;
        }
        let name = self.threads[k].name.clone();
        let bit = Range::new(0, 1);
        let flags = (
            self.var(format!("{name}.cancel_pending"), Some(0), bit),
            self.var(format!("{name}.cancel_disabled"), Some(0), bit),
        );
        self.cancel_flags.insert(k, flags);
        flags
    }

    /// When the current thread acts on a cancellation request.
    fn acts_on_cancel(&mut self) -> Cond {
        let (pending, disabled) = self.cancel_flag_pair(self.t.index);
        and(
            cmp(CmpOp::Eq, Term::Var(pending), Term::Const(1)),
            cmp(CmpOp::Eq, Term::Var(disabled), Term::Const(0)),
        )
    }

    /// A cancellation point here: where a request is to be acted on, the
    /// thread re-acquires `relock` (a condition wait's mutex), runs its
    /// clean-up handlers and ends; elsewhere it goes on.
    pub(super) fn cancellation_point(&mut self, relock: Option<&Place>, span: Span) -> Result<()> {
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let acts = self.acts_on_cancel();
        let (go, stay) = (self.new_loc(Some(span)), self.new_loc(Some(span)));
        // One group: both edges carry the step's pending reads and choices.
        self.plain_edge(cur, stay, not(acts.clone()), vec![], Some(span));
        self.plain_edge(cur, go, acts, vec![], Some(span));
        self.flush();
        self.t.cur = Some(go);
        self.act_on_cancel(relock, span)?;
        self.t.cur = Some(stay);
        Ok(())
    }

    /// From the waiting location `at`: where a request is to be acted on,
    /// the thread leaves the wait and ends (as [`Self::cancellation_point`]).
    pub(super) fn cancel_exit_from(
        &mut self,
        at: Loc,
        relock: Option<&Place>,
        span: Span,
    ) -> Result<()> {
        let saved = self.t.cur.take();
        let acts = self.acts_on_cancel();
        let go = self.new_loc(Some(span));
        self.plain_edge(at, go, acts, vec![], Some(span));
        self.flush();
        self.t.cur = Some(go);
        self.act_on_cancel(relock, span)?;
        self.t.cur = saved;
        Ok(())
    }

    fn act_on_cancel(&mut self, relock: Option<&Place>, span: Span) -> Result<()> {
        if let Some(m) = relock {
            self.lock(m.clone(), span);
        }
        self.exit_with(Some(canceled()), span)
    }

    /// `pthread_cancel` and the cancellation state calls; `None` for other
    /// functions.
    pub(super) fn cancel_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        const MODELLED: &[&str] = &[
            "pthread_cancel",
            "pthread_setcancelstate",
            "pthread_setcanceltype",
            "pthread_testcancel",
        ];
        if !self.models(MODELLED, name) {
            return Ok(None);
        }
        let arg = |i: usize| {
            args.get(i)
                .ok_or_else(|| LowerError::invalid(span, format!("`{name}` needs more arguments")))
        };
        match name {
            "pthread_cancel" => self.cancel(arg(0)?, span)?,
            "pthread_setcancelstate" => self.set_cancel_state(arg(0)?, arg(1)?, span)?,
            "pthread_setcanceltype" => {
                // Deferred (0) is the only type modelled, and the default.
                let ty = self.eval(arg(0)?)?;
                if ty.constant() != Some(0) {
                    self.give_up_where(
                        Cond::True,
                        "asynchronous thread cancellation is not modelled",
                        span,
                    );
                }
                self.store_old_state(arg(1)?, Val::int(0), span)?;
            }
            // The call is a cancellation point (`Lowerer::call`): nothing more.
            _ => {}
        }
        Ok(Some(Val::int(0)))
    }

    /// `pthread_cancel(t)`: `t`'s instance has a request pending.
    fn cancel(&mut self, t: &Node<Expression>, span: Span) -> Result<()> {
        let t = self.eval(t)?;
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let next = self.new_loc(Some(span));
        let mut known = Vec::new();
        for (c, r) in &t.cases {
            match r {
                Res::Ub(u) => self.give_up_edge(cur, c.clone(), u, span),
                Res::Val(x) => {
                    for k in 0..self.threads.len() {
                        let is_k = and(
                            c.clone(),
                            cmp(CmpOp::Eq, x.clone(), Term::Const(k as i64 + 1)),
                        );
                        known.push(is_k.clone());
                        let pending = self.cancel_flag_pair(k).0;
                        self.plain_edge(
                            cur,
                            next,
                            is_k,
                            vec![(pending, Term::Const(1))],
                            Some(span),
                        );
                    }
                }
            }
        }
        let valid: Vec<Cond> = t
            .cases
            .iter()
            .filter(|(_, r)| matches!(r, Res::Val(_)))
            .map(|(c, _)| c.clone())
            .collect();
        self.give_up_edge(
            cur,
            and(any(valid), not(any(known))),
            "pthread_cancel of a thread that was not created here",
            span,
        );
        self.flush();
        self.t.cur = Some(next);
        Ok(())
    }

    /// `pthread_setcancelstate(state, old)`: PTHREAD_CANCEL_ENABLE (0) or
    /// PTHREAD_CANCEL_DISABLE (1); the old state stored through `old`.
    fn set_cancel_state(
        &mut self,
        state: &Node<Expression>,
        old: &Node<Expression>,
        span: Span,
    ) -> Result<()> {
        let state = self.eval(state)?;
        if !self.cancels() {
            // No request is ever pending: the state does not matter.
            return self.store_old_state(old, Val::int(0), span);
        }
        let (_, disabled) = self.cancel_flag_pair(self.t.index);
        let before =
            self.materialize(Val::term(Term::Var(disabled), CType::Int(IntTy::INT)), span)?;
        let (on, off, ub) = self.truth(&state);
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let next = self.new_loc(Some(span));
        self.plain_edge(cur, next, on, vec![(disabled, Term::Const(1))], Some(span));
        self.plain_edge(cur, next, off, vec![(disabled, Term::Const(0))], Some(span));
        for (c, u) in ub {
            self.give_up_edge(cur, c, &u, span);
        }
        self.flush();
        self.t.cur = Some(next);
        self.store_old_state(old, before, span)
    }

    /// Stores a cancellation state or type through the `old` argument
    /// (unless it is a null pointer).
    fn store_old_state(&mut self, old: &Node<Expression>, v: Val, span: Span) -> Result<()> {
        let is_null = super::const_expr(&mut self.types, old).is_ok_and(|v| v == 0);
        if !is_null {
            let p = self.pointee_as(old, Some(CType::Int(IntTy::INT)), span)?;
            self.store(p, v, span)?;
        }
        Ok(())
    }
}
