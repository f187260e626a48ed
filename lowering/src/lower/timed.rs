//! Waits with a time limit (SOUNDNESS.md, "Timed waits"): the limit may or
//! may not have passed when a wait would block, so a timed acquisition
//! (`pthread_mutex_timedlock`, `pthread_rwlock_timedrdlock`/`wrlock`,
//! `sem_timedwait`) tries, and while the object is busy either tries again
//! or times out; `pthread_cond_timedwait` releases the mutex, re-acquires
//! it and reports a time-out or not, as a spurious wake-up may. None of
//! them waits forever (the deadlock check does not count them). The time
//! argument is evaluated (its reads count) and otherwise ignored.

use engine::ir::{CmpOp, Term};
use frontend::lang_c::ast::Expression;
use frontend::lang_c::span::{Node, Span};

use super::expr::{has_effects, Val};
use super::Lowerer;
use crate::error::{LowerError, Result};
use crate::term::{cmp, not};
use crate::types::{CType, IntTy};

/// glibc's `EBUSY` and `ETIMEDOUT`.
const EBUSY: i64 = 16;
const ETIMEDOUT: i64 = 110;

impl Lowerer<'_> {
    /// The timed waits; `None` for other functions.
    pub(super) fn timed_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        const MODELLED: &[&str] = &[
            "pthread_mutex_timedlock",
            "pthread_rwlock_timedrdlock",
            "pthread_rwlock_timedwrlock",
            "sem_timedwait",
            "pthread_cond_timedwait",
        ];
        if !self.models(MODELLED, name) {
            return Ok(None);
        }
        let (object, time) = match args {
            [o, t] => (o, t),
            [_, o, t] if name == "pthread_cond_timedwait" => (o, t),
            _ => {
                return Err(LowerError::invalid(
                    span,
                    format!(
                        "`{name}` takes {} arguments",
                        if name.contains("cond") { 3 } else { 2 }
                    ),
                ))
            }
        };
        if has_effects(object) {
            return Err(LowerError::unsupported(
                span,
                format!("`{name}` of an argument with side effects"),
            ));
        }
        let v = match name {
            "pthread_cond_timedwait" => self.cond_timedwait(object, time, span)?,
            "pthread_mutex_timedlock" => {
                let m = self.pointee_as(object, Some(CType::Mutex), span)?;
                self.evaluate_ignored(name, std::slice::from_ref(time), span)?;
                self.timed_acquire(EBUSY, ETIMEDOUT, false, span, |l| {
                    l.mutex_trylock(m.clone(), span)
                })?
            }
            _ => {
                self.evaluate_ignored(name, std::slice::from_ref(time), span)?;
                let (attempt, busy, timeout) = match name {
                    "pthread_rwlock_timedrdlock" => ("pthread_rwlock_tryrdlock", EBUSY, ETIMEDOUT),
                    "pthread_rwlock_timedwrlock" => ("pthread_rwlock_trywrlock", EBUSY, ETIMEDOUT),
                    // -1, `errno` ETIMEDOUT (not modelled).
                    _ => ("sem_trywait", -1, -1),
                };
                let point = name == "sem_timedwait";
                let arg = std::slice::from_ref(object);
                self.timed_acquire(busy, timeout, point, span, |l| {
                    l.sync_call(attempt, arg, span)?
                        .ok_or_else(|| LowerError::unsupported(span, format!("`{attempt}`")))
                })?
            }
        };
        Ok(Some(v))
    }

    /// `pthread_cond_timedwait(c, m, t)`: `m` released and re-acquired (a
    /// cancellation point while released); 0 or `ETIMEDOUT`.
    fn cond_timedwait(
        &mut self,
        m: &Node<Expression>,
        time: &Node<Expression>,
        span: Span,
    ) -> Result<Val> {
        let m = self.pointee_as(m, Some(CType::Mutex), span)?;
        self.typed_mutex(super::sync::MutexUse::Wait, &m, span)?;
        self.evaluate_ignored("pthread_cond_timedwait", std::slice::from_ref(time), span)?;
        self.unlock(m.clone(), span);
        self.waiting_for_signal(&m, None, span)?;
        self.lock(m, span);
        let timed_out = self.havoc_temp(&CType::Int(IntTy::BOOL));
        let r = self.temp(&CType::Int(IntTy::INT));
        let is = |k: i64| cmp(CmpOp::Eq, Term::Var(timed_out), Term::Const(k));
        self.ensure_cur(span);
        let cur = self.t.cur.take().expect("a current location");
        let next = self.new_loc(Some(span));
        self.plain_edge(
            cur,
            next,
            is(1),
            vec![(r, Term::Const(ETIMEDOUT))],
            Some(span),
        );
        self.plain_edge(cur, next, is(0), vec![(r, Term::Const(0))], Some(span));
        self.flush();
        self.t.cur = Some(next);
        Ok(Val::term(Term::Var(r), CType::Int(IntTy::INT)))
    }

    /// A timed acquisition: `attempt` (a try-lock returning `busy` when
    /// the object is taken), repeated while busy until it succeeds or
    /// times out (`timeout`). `point`: a cancellation point, which acts on
    /// a request while busy (`cancel`).
    fn timed_acquire(
        &mut self,
        busy: i64,
        timeout: i64,
        point: bool,
        span: Span,
        mut attempt: impl FnMut(&mut Self) -> Result<Val>,
    ) -> Result<Val> {
        self.ensure_cur(span);
        let top = self.new_loc(Some(span));
        self.jump_to(top, span);
        self.t.cur = Some(top);
        let v = attempt(self)?;
        let v = self.materialize(v, span)?;
        let Some(t) = v.single() else {
            return Err(LowerError::unsupported(span, "a timed wait on this object"));
        };
        let r = self.temp(&CType::Int(IntTy::INT));
        let (waiting, done) = (self.new_loc(Some(span)), self.new_loc(Some(span)));
        let is_busy = cmp(CmpOp::Eq, t.clone(), Term::Const(busy));
        if let Some(cur) = self.t.cur.take() {
            self.plain_edge(cur, done, not(is_busy.clone()), vec![(r, t)], Some(span));
            self.plain_edge(cur, waiting, is_busy, vec![], Some(span));
        }
        self.flush();
        // Busy: try again, or the limit has passed.
        self.t.cur = Some(waiting);
        let again = self.havoc_temp(&CType::Int(IntTy::BOOL));
        let is = |k: i64| cmp(CmpOp::Eq, Term::Var(again), Term::Const(k));
        self.plain_edge(waiting, top, is(1), vec![], Some(span));
        let timed_out = vec![(r, Term::Const(timeout))];
        self.plain_edge(waiting, done, is(0), timed_out, Some(span));
        self.flush();
        if point && self.cancels() {
            self.t.cancel_waits.push(waiting);
        }
        self.t.cur = Some(done);
        Ok(Val::term(Term::Var(r), CType::Int(IntTy::INT)))
    }
}
