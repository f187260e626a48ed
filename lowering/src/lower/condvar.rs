//! Condition variables when deadlocks are checked (SOUNDNESS.md,
//! "Deadlocks").
//!
//! Without the deadlock check, `pthread_cond_wait(c, m)` releases `m` and
//! re-acquires it later (POSIX allows spurious wake-ups, so every wake-up
//! is one) and signals do nothing. A deadlock does not count on spurious
//! wake-ups: a thread waiting on a condition variable nobody signals waits
//! forever. So each wait chooses: it wakes spuriously (the model above), or
//! it really waits. A real wait registers the thread on `c` in the step
//! that releases `m` (the thread's `waiting` flag for `c`), and blocks until
//! its `woken` flag is set. `pthread_cond_signal(c)` sets the `woken` flag of
//! one registered thread not woken yet (any of them), or does nothing when
//! there is none; `pthread_cond_broadcast(c)` wakes every registered
//! thread (`woken := waiting`). Leaving the wait clears both flags and
//! re-acquires `m`.

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::span::Span;

use super::expr::Place;
use super::Lowerer;
use crate::error::Result;
use crate::term::{and, any, cmp, not};

impl Lowerer<'_> {
    /// `f` on the cell of a condition variable; when the place may be
    /// several objects, on each in a branch of its own (the place's
    /// condition), and a give-up where it is none.
    fn each_cond_cell(&mut self, c: &Place, span: Span, mut f: impl FnMut(&mut Self, VarId)) {
        let cases = self.cells_of(c);
        if let [(Cond::True, Ok(cell))] = cases.as_slice() {
            f(self, *cell);
            return;
        }
        let Some(cur) = self.t.cur else { return };
        let after = self.new_loc(None);
        for (g, cell) in cases {
            match cell {
                Ok(cell) => {
                    let here = self.new_loc(None);
                    self.plain_edge(cur, here, g, vec![], Some(span));
                    self.flush();
                    self.t.cur = Some(here);
                    f(self, cell);
                    self.goto(after);
                }
                Err(r) => self.give_up_edge(cur, g, &r, span),
            }
        }
        self.t.cur = Some(after);
    }

    /// Thread `k`'s `waiting` and `woken` flags for the condition variable
    /// `cell`.
    fn cond_flags(&mut self, k: usize, cell: VarId) -> (VarId, VarId) {
        if let Some(&flags) = self.cond_waits.get(&(k, cell)) {
            return flags;
        }
        let base = format!("{}.{}", self.threads[k].name, self.vars[cell.index()].name);
        let bit = crate::term::Range::new(0, 1);
        let flags = (
            self.var(format!("{base}.waiting"), Some(0), bit),
            self.var(format!("{base}.woken"), Some(0), bit),
        );
        self.cond_waits.insert((k, cell), flags);
        flags
    }

    /// `pthread_cond_wait(c, m)` with deadlocks checked.
    pub(super) fn cond_wait(&mut self, c: Place, m: Place, span: Span) -> Result<()> {
        let mut done = Ok(());
        self.each_cond_cell(&c, span, |l, cell| {
            if done.is_ok() {
                done = l.cond_wait_on(cell, &m, span);
            }
        });
        done
    }

    /// While a condition wait has released `m` (at `wait`, a waiting
    /// location; `None`: where the thread is): a cancellation point, which
    /// re-acquires `m` before the thread ends (`cancel`).
    pub(super) fn waiting_for_signal(
        &mut self,
        m: &Place,
        wait: Option<crate::cfg::Loc>,
        span: Span,
    ) -> Result<()> {
        if !self.cancels() {
            return Ok(());
        }
        match wait {
            Some(at) => self.cancel_exit_from(at, Some(m), span),
            None => self.cancellation_point(Some(m), span),
        }
    }

    /// `pthread_cond_wait` on the condition variable `cell`.
    fn cond_wait_on(&mut self, cell: VarId, m: &Place, span: Span) -> Result<()> {
        let (waiting, woken) = self.cond_flags(self.t.index, cell);
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let (spurious, real, after) = (self.new_loc(None), self.new_loc(None), self.new_loc(None));
        self.plain_edge(cur, spurious, Cond::True, vec![], Some(span));
        self.plain_edge(cur, real, Cond::True, vec![], Some(span));
        self.flush();
        // A spurious wake-up: release and re-acquire.
        self.t.cur = Some(spurious);
        self.unlock(m.clone(), span);
        self.waiting_for_signal(m, None, span)?;
        self.lock(m.clone(), span);
        self.goto(after);
        // A real wait: release and register, wait to be woken, re-acquire.
        self.t.cur = Some(real);
        let register = vec![(waiting, Term::Const(1)), (woken, Term::Const(0))];
        self.unlock_with(m.clone(), register, span);
        if let Some(wait) = self.t.cur {
            let next = self.new_loc(None);
            let leave = vec![(waiting, Term::Const(0)), (woken, Term::Const(0))];
            let signalled = cmp(CmpOp::Eq, Term::Var(woken), Term::Const(1));
            self.plain_edge(wait, next, signalled, leave, Some(span));
            self.mark_wait(wait, crate::WaitKind::Condition(woken), span);
            self.flush();
            self.t.cur = Some(next);
            self.waiting_for_signal(m, Some(wait), span)?;
        }
        self.lock(m.clone(), span);
        self.goto(after);
        self.t.cur = Some(after);
        Ok(())
    }

    /// `pthread_cond_signal(c)` (`broadcast`: `pthread_cond_broadcast(c)`)
    /// with deadlocks checked.
    pub(super) fn cond_signal(&mut self, c: Place, broadcast: bool, span: Span) {
        self.each_cond_cell(&c, span, |l, cell| l.cond_signal_on(cell, broadcast, span));
    }

    /// `pthread_cond_signal` or `_broadcast` on the condition variable
    /// `cell`.
    fn cond_signal_on(&mut self, cell: VarId, broadcast: bool, span: Span) {
        let me = self.t.index;
        let others: Vec<(VarId, VarId)> = (0..self.threads.len())
            .filter(|&k| k != me)
            .map(|k| self.cond_flags(k, cell))
            .collect();
        let Some(cur) = self.t.cur else { return };
        let next = self.new_loc(None);
        if broadcast {
            let wake = others.iter().map(|&(w, o)| (o, Term::Var(w))).collect();
            self.plain_edge(cur, next, Cond::True, wake, Some(span));
        } else {
            let asleep = |&(w, o): &(VarId, VarId)| {
                and(
                    cmp(CmpOp::Eq, Term::Var(w), Term::Const(1)),
                    cmp(CmpOp::Eq, Term::Var(o), Term::Const(0)),
                )
            };
            for flags in &others {
                let wake = vec![(flags.1, Term::Const(1))];
                self.plain_edge(cur, next, asleep(flags), wake, Some(span));
            }
            let nobody = not(any(others.iter().map(asleep)));
            self.plain_edge(cur, next, nobody, vec![], Some(span));
        }
        self.flush();
        self.t.cur = Some(next);
    }
}
