//! Pipes between threads (`pipe`, `read`, `write`, `close`) as bounded
//! FIFO channels of messages (SOUNDNESS.md, "Pipes").
//!
//! Each `pipe` call, as the lowering meets it, makes one channel: its ends
//! are the file descriptors `3 + 2c` and `4 + 2c`, it holds up to
//! [`CAPACITY`] messages in a ring (`count`, `head`, per slot the value and
//! its size in bytes), and a flag per end says whether it is open. A
//! `write(fd, &x, sizeof x)` of one integer object appends a message; a
//! `read(fd, &y, sizeof y)` waits while the channel is empty and its write
//! end open, returns 0 at the end of the stream, and otherwise takes the
//! first message, which must have the size read. A program that writes
//! more than [`CAPACITY`] messages ahead of its reader, that reads a size
//! other than the one written, that writes to a pipe whose read end is
//! closed (`SIGPIPE`), that uses another file descriptor, or that runs one
//! `pipe` call twice, gives up there: those are outside the model, not
//! blocked (a real pipe holds 64 KiB).

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::{BinaryOperator, Expression};
use frontend::lang_c::span::{Node, Span};

use super::expr::Val;
use super::Lowerer;
use crate::cfg::Loc;
use crate::error::{LowerError, Result};
use crate::term::{add, and, any, cmp, Range};
use crate::types::{CType, IntTy};

/// Finds a call of `pipe`.
/// Messages a channel holds.
pub(crate) const CAPACITY: i64 = 4;

/// One channel: its variables.
#[derive(Clone, Debug)]
pub(crate) struct Pipe {
    made: VarId,
    count: VarId,
    head: VarId,
    slots: Vec<(VarId, VarId)>,
    reader: VarId,
    writer: VarId,
}

impl Pipe {
    fn read_fd(c: usize) -> i64 {
        3 + 2 * c as i64
    }

    fn write_fd(c: usize) -> i64 {
        4 + 2 * c as i64
    }
}

fn var(v: VarId) -> Term {
    Term::Var(v)
}

fn eq(v: VarId, k: i64) -> Cond {
    cmp(CmpOp::Eq, Term::Var(v), Term::Const(k))
}

impl Lowerer<'_> {
    /// `pipe`, and `read`, `write`, `close` in a program that calls `pipe`;
    /// `None` for other calls.
    pub(super) fn pipe_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        if !self.models(&["pipe", "read", "write", "close"], name) || !self.program_calls("pipe") {
            return Ok(None);
        }
        let arg = |i: usize| {
            args.get(i)
                .ok_or_else(|| LowerError::invalid(span, format!("`{name}` needs more arguments")))
        };
        Ok(Some(match name {
            "pipe" => self.make_pipe(arg(0)?, span)?,
            "close" => self.close_fd(arg(0)?, span)?,
            _ => {
                let (fd, buf, n) = (arg(0)?, arg(1)?, arg(2)?);
                self.transfer(name == "write", fd, buf, n, span)?
            }
        }))
    }

    fn make_pipe(&mut self, fds: &Node<Expression>, span: Span) -> Result<Val> {
        let c = self.pipes.len();
        let int = |lo: i64, hi: i64| Range::new(lo.into(), hi.into());
        let mut slots = Vec::new();
        for i in 0..CAPACITY {
            let v = self.var(
                format!("pipe.{c}.slot.{i}"),
                Some(0),
                Range::new(i64::MIN.into(), i64::MAX.into()),
            );
            let n = self.var(format!("pipe.{c}.size.{i}"), Some(0), int(0, 8));
            slots.push((v, n));
        }
        let p = Pipe {
            made: self.var(format!("pipe.{c}.made"), Some(0), int(0, 1)),
            count: self.var(format!("pipe.{c}.count"), Some(0), int(0, CAPACITY)),
            head: self.var(format!("pipe.{c}.head"), Some(0), int(0, CAPACITY - 1)),
            slots,
            reader: self.var(format!("pipe.{c}.reader"), Some(0), int(0, 1)),
            writer: self.var(format!("pipe.{c}.writer"), Some(0), int(0, 1)),
        };
        self.pipes.push(p.clone());
        // The ends.
        let v = self.eval(fds)?;
        let v = self.materialize(v, span)?;
        let int_ty = CType::Int(IntTy::INT);
        let first = self.deref(v.clone(), int_ty.clone(), span)?;
        let next = self.binary(BinaryOperator::Plus, v, Val::int(1), span)?;
        let second = self.deref(next, int_ty, span)?;
        self.give_up_where(
            eq(p.made, 1),
            "a `pipe` call that runs more than once",
            span,
        );
        let Some(cur) = self.t.cur else {
            return Ok(Val::int(0));
        };
        let after = self.new_loc(Some(span));
        let open = vec![
            (p.made, Term::Const(1)),
            (p.reader, Term::Const(1)),
            (p.writer, Term::Const(1)),
        ];
        self.plain_edge(cur, after, Cond::True, open, Some(span));
        self.flush();
        self.t.cur = Some(after);
        self.store(first, Val::int(Pipe::read_fd(c)), span)?;
        self.store(second, Val::int(Pipe::write_fd(c)), span)?;
        Ok(Val::int(0))
    }

    /// The file descriptor's value as one term.
    fn fd_term(&mut self, fd: &Node<Expression>, span: Span) -> Result<Term> {
        self.one_term(fd, "a file descriptor", span)
    }

    fn close_fd(&mut self, fd: &Node<Expression>, span: Span) -> Result<Val> {
        let fd = self.fd_term(fd, span)?;
        let Some(cur) = self.t.cur else {
            return Ok(Val::int(0));
        };
        let after = self.new_loc(Some(span));
        let mut ends = Vec::new();
        for (c, p) in self.pipes.clone().into_iter().enumerate() {
            for (k, flag) in [(Pipe::read_fd(c), p.reader), (Pipe::write_fd(c), p.writer)] {
                let at = cmp(CmpOp::Eq, fd.clone(), Term::Const(k));
                self.plain_edge(
                    cur,
                    after,
                    at.clone(),
                    vec![(flag, Term::Const(0))],
                    Some(span),
                );
                ends.push(at);
            }
        }
        self.other_fds(
            cur,
            after,
            ends,
            "`close` of a file descriptor that is not a pipe end",
            span,
        );
        Ok(Val::int(0))
    }

    /// `write(fd, buf, n)` or `read(fd, buf, n)` of one integer object.
    fn transfer(
        &mut self,
        write: bool,
        fd: &Node<Expression>,
        buf: &Node<Expression>,
        n: &Node<Expression>,
        span: Span,
    ) -> Result<Val> {
        let what = if write { "write" } else { "read" };
        let elem = match self.static_type(buf)? {
            CType::Ptr(t) if matches!(*t, CType::Int(_)) => *t,
            _ => {
                return Err(LowerError::unsupported(
                    span,
                    format!("a pipe `{what}` of a buffer that is not one integer object"),
                ))
            }
        };
        let size = self.types.size_of(&elem).unwrap_or(0);
        let fd = self.fd_term(fd, span)?;
        let n_val = self.eval(n)?;
        if n_val.constant() != Some(size as i64) {
            return Err(LowerError::unsupported(
                span,
                format!("a pipe `{what}` of other than `sizeof` its one integer object"),
            ));
        }
        let b = self.eval(buf)?;
        let b = self.materialize(b, span)?;
        let place = self.deref(b, elem.clone(), span)?;
        if write {
            let x = self.read(place, span)?;
            let x = self.materialized_term(x, "a pipe message", span)?;
            self.enqueue(&fd, x, size, span);
            Ok(Val::int(size as i64))
        } else {
            let slot = self.temp(&elem);
            let r = self.temp(&CType::Int(self.types.long(true)));
            self.dequeue(&fd, slot, r, size, span);
            let got = cmp(CmpOp::Gt, Term::Var(r), Term::Const(0));
            // The message lands in the buffer (at the end of the stream,
            // the buffer keeps its value).
            self.store_where(place, got, Term::Var(slot), "a pipe buffer", span)?;
            Ok(Val::term(Term::Var(r), CType::Int(self.types.long(true))))
        }
    }

    /// The step's give-up for a descriptor that is no pipe end (none of
    /// `ends`); the thread goes on at `after`.
    fn other_fds(&mut self, cur: Loc, after: Loc, ends: Vec<Cond>, reason: &str, span: Span) {
        self.give_up_edge(cur, crate::term::not(any(ends)), reason, span);
        self.flush();
        self.t.cur = Some(after);
    }

    /// Appends `x` (of `size` bytes) to the channel `fd` writes to.
    fn enqueue(&mut self, fd: &Term, x: Term, size: u64, span: Span) {
        let Some(cur) = self.t.cur else { return };
        let after = self.new_loc(Some(span));
        let mut ends = Vec::new();
        for (c, p) in self.pipes.clone().into_iter().enumerate() {
            let at = cmp(CmpOp::Eq, fd.clone(), Term::Const(Pipe::write_fd(c)));
            ends.push(at.clone());
            let open = and(eq(p.writer, 1), eq(p.reader, 1));
            self.give_up_edge(
                cur,
                and(at.clone(), crate::term::not(open.clone())),
                "a pipe `write` to a closed end, or with the read end closed",
                span,
            );
            let here = and(at, open);
            self.give_up_edge(
                cur,
                and(here.clone(), eq(p.count, CAPACITY)),
                format!("more than {CAPACITY} messages in a pipe"),
                span,
            );
            for h in 0..CAPACITY {
                for k in 0..CAPACITY {
                    let (v, n) = p.slots[((h + k) % CAPACITY) as usize];
                    let g = and(here.clone(), and(eq(p.head, h), eq(p.count, k)));
                    let assigns = vec![
                        (v, x.clone()),
                        (n, Term::Const(size as i64)),
                        (p.count, add(var(p.count), Term::Const(1))),
                    ];
                    self.plain_edge(cur, after, g, assigns, Some(span));
                }
            }
        }
        self.other_fds(
            cur,
            after,
            ends,
            "a `write` to a file descriptor that is not a pipe's write end",
            span,
        );
    }

    /// Takes the first message of the channel `fd` reads from into `slot`,
    /// `r` the number of bytes (0 at the end of the stream); waits while
    /// the channel is empty and its write end open.
    fn dequeue(&mut self, fd: &Term, slot: VarId, r: VarId, size: u64, span: Span) {
        self.inputs_before_wait(span);
        let Some(cur) = self.t.cur else { return };
        let after = self.new_loc(Some(span));
        let mut ends = Vec::new();
        for (c, p) in self.pipes.clone().into_iter().enumerate() {
            let at = cmp(CmpOp::Eq, fd.clone(), Term::Const(Pipe::read_fd(c)));
            ends.push(at.clone());
            self.give_up_edge(
                cur,
                and(at.clone(), eq(p.reader, 0)),
                "a pipe `read` from a closed end",
                span,
            );
            let here = and(at, eq(p.reader, 1));
            let eof = and(here.clone(), and(eq(p.count, 0), eq(p.writer, 0)));
            self.plain_edge(cur, after, eof, vec![(r, Term::Const(0))], Some(span));
            for h in 0..CAPACITY {
                let (v, n) = p.slots[h as usize];
                let first = and(
                    here.clone(),
                    and(eq(p.head, h), cmp(CmpOp::Gt, var(p.count), Term::Const(0))),
                );
                self.give_up_edge(
                    cur,
                    and(first.clone(), crate::term::not(eq(n, size as i64))),
                    "a pipe `read` of another size than the message written",
                    span,
                );
                let assigns = vec![
                    (slot, var(v)),
                    (r, Term::Const(size as i64)),
                    (p.head, Term::Const((h + 1) % CAPACITY)),
                    (p.count, crate::term::sub(var(p.count), Term::Const(1))),
                ];
                self.plain_edge(
                    cur,
                    after,
                    and(first, eq(n, size as i64)),
                    assigns,
                    Some(span),
                );
            }
        }
        self.other_fds(
            cur,
            after,
            ends,
            "a `read` from a file descriptor that is not a pipe's read end",
            span,
        );
        self.mark_wait(cur, crate::WaitKind::Pipe, span);
    }
}
