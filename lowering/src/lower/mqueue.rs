//! POSIX message queues between threads (`mq_open`, `mq_send`,
//! `mq_receive`, `mq_close`, `mq_unlink`) as bounded FIFO channels of
//! messages (SOUNDNESS.md, "Message queues").
//!
//! A queue is named by the string literal of its `mq_open` calls: each name
//! is one channel, with a flag saying whether it exists, its capacity and
//! message size (from the `struct mq_attr` of the creating call, else
//! Linux's defaults, 10 messages of 8192 bytes), the messages waiting (a
//! shift register of [`SLOTS`] values with their sizes; the first is the
//! oldest) and the priority they share. Each `mq_open` call as lowered
//! (per thread instance) has a descriptor of its own, `BASE` + its index,
//! open or not: a call on a closed one, a send through a read-only one or
//! a receive through a write-only one fails with -1, as on Linux
//! (`EBADF`); a value that is no descriptor lowered before the call gives
//! up there. A send of one integer
//! object (`(char *)&x, sizeof x`) appends it, waiting while the queue is
//! full (`-1`, `EAGAIN`, when nonblocking); a receive into one integer
//! object waits while the queue is empty and takes the oldest message. A
//! message longer than the queue's message size, or a receive buffer
//! shorter than it, fails with -1 (`EMSGSIZE`). What the model does not
//! cover gives up where it happens: a capacity above [`SLOTS`], messages of
//! two priorities waiting together (the order would be by priority), a
//! message received into an object of another size, a queue created again
//! after `mq_unlink`.

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::{Expression, Identifier, MemberExpression, MemberOperator};
use frontend::lang_c::span::{Node, Span};

use super::expr::Val;
use super::Lowerer;
use crate::cfg::Loc;
use crate::error::{LowerError, Result};
use crate::term::{and, any, cmp, not, sub, Range};
use crate::types::{CType, IntTy};

/// Messages a queue can hold in the model (Linux's default capacity).
pub(crate) const SLOTS: i64 = 10;

/// The first descriptor value.
const BASE: i64 = 1 << 20;

/// Linux's `O_CREAT`, `O_EXCL`, `O_NONBLOCK`, and the access modes.
const O_CREAT: i64 = 0o100;
const O_EXCL: i64 = 0o200;
const O_NONBLOCK: i64 = 0o4000;
const O_ACCMODE: i64 = 3;
const O_RDONLY: i64 = 0;
const O_WRONLY: i64 = 1;

/// Linux's default message size (`/proc/sys/fs/mqueue/msgsize_default`).
const DEFAULT_MSGSIZE: i64 = 8192;

/// One queue: its name and variables.
#[derive(Clone, Debug)]
pub(crate) struct Queue {
    name: String,
    exists: VarId,
    unlinked: VarId,
    capacity: VarId,
    msgsize: VarId,
    count: VarId,
    priority: VarId,
    slots: Vec<(VarId, VarId)>,
}

/// The queues named so far and the `mq_open` calls lowered so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct Queues {
    queues: Vec<Queue>,
    sites: Vec<Descriptor>,
}

/// The descriptor of one `mq_open` call as lowered (per thread instance):
/// its queue, whether nonblocking, its access mode, and whether it is open.
/// Its value is `BASE` + its index.
#[derive(Clone, Copy, Debug)]
struct Descriptor {
    queue: usize,
    nonblocking: bool,
    mode: i64,
    open: VarId,
}

fn var(v: VarId) -> Term {
    Term::Var(v)
}

fn eq(v: VarId, k: i64) -> Cond {
    cmp(CmpOp::Eq, Term::Var(v), Term::Const(k))
}

/// `e` without its casts.
fn uncast(e: &Node<Expression>) -> &Node<Expression> {
    match &e.node {
        Expression::Cast(c) => uncast(&c.node.expression),
        _ => e,
    }
}

/// `p->field`.
fn member(p: &Node<Expression>, field: &str) -> Node<Expression> {
    let span = p.span;
    Node::new(
        Expression::Member(Box::new(Node::new(
            MemberExpression {
                operator: Node::new(MemberOperator::Indirect, span),
                expression: Box::new(p.clone()),
                identifier: Node::new(Identifier { name: field.into() }, span),
            },
            span,
        ))),
        span,
    )
}

impl Lowerer<'_> {
    /// The message-queue calls; `None` for other calls.
    pub(super) fn mq_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        const CALLS: [&str; 5] = ["mq_open", "mq_send", "mq_receive", "mq_close", "mq_unlink"];
        if !self.models(&CALLS, name) {
            return Ok(None);
        }
        let arg = |i: usize| {
            args.get(i)
                .ok_or_else(|| LowerError::invalid(span, format!("`{name}` needs more arguments")))
        };
        let ret = self.temp(&CType::Int(IntTy::INT));
        match name {
            "mq_open" => self.mq_open(arg(0)?, arg(1)?, args.get(3), ret, span)?,
            "mq_unlink" => self.mq_unlink(arg(0)?, ret, span)?,
            "mq_close" => {
                let d = self.mq_descriptor(arg(0)?, span)?;
                self.mq_step(&d, ret, span, |_, desc, open| {
                    vec![(open, vec![(desc.open, Term::Const(0))], Term::Const(0))]
                });
            }
            "mq_send" => self.mq_send([arg(0)?, arg(1)?, arg(2)?, arg(3)?], ret, span)?,
            _ => self.mq_receive([arg(0)?, arg(1)?, arg(2)?], args.get(3), ret, span)?,
        }
        Ok(Some(Val::term(Term::Var(ret), CType::Int(IntTy::INT))))
    }

    /// The queue named by a string literal, made on first use.
    fn mq_queue(&mut self, name: &Node<Expression>, span: Span) -> Result<usize> {
        let Expression::StringLiteral(lit) = &uncast(name).node else {
            return Err(LowerError::unsupported(
                span,
                "a message queue whose name is not a string literal",
            ));
        };
        let name = lit.node.concat();
        if let Some(q) = self.queues.queues.iter().position(|q| q.name == name) {
            return Ok(q);
        }
        let q = self.queues.queues.len();
        let int = |lo: i64, hi: i64| Range::new(lo.into(), hi.into());
        let any_int = Range::new(i64::MIN.into(), i64::MAX.into());
        let slots = (0..SLOTS)
            .map(|i| {
                let v = self.var(format!("mq.{q}.slot.{i}"), Some(0), any_int);
                let n = self.var(format!("mq.{q}.size.{i}"), Some(0), int(0, 8));
                (v, n)
            })
            .collect();
        let queue = Queue {
            name,
            exists: self.var(format!("mq.{q}.exists"), Some(0), int(0, 1)),
            unlinked: self.var(format!("mq.{q}.unlinked"), Some(0), int(0, 1)),
            capacity: self.var(format!("mq.{q}.capacity"), Some(0), int(0, SLOTS)),
            msgsize: self.var(format!("mq.{q}.msgsize"), Some(0), any_int),
            count: self.var(format!("mq.{q}.count"), Some(0), int(0, SLOTS)),
            priority: self.var(format!("mq.{q}.priority"), Some(0), any_int),
            slots,
        };
        self.queues.queues.push(queue);
        Ok(q)
    }

    /// `mq_open(name, flags)` or `mq_open(name, flags, mode, attr)`.
    fn mq_open(
        &mut self,
        name: &Node<Expression>,
        flags: &Node<Expression>,
        attr: Option<&Node<Expression>>,
        ret: VarId,
        span: Span,
    ) -> Result<()> {
        let q = self.mq_queue(name, span)?;
        let Some(flags) = self.eval(flags)?.constant() else {
            return Err(LowerError::unsupported(
                span,
                "`mq_open` flags that are not a constant",
            ));
        };
        let Queue {
            exists: exists_var,
            unlinked,
            capacity,
            msgsize,
            ..
        } = self.queues.queues[q];
        let (cap, size) = match attr {
            Some(a) if flags & O_CREAT != 0 && self.eval(a)?.constant() != Some(0) => (
                self.one_term(&member(a, "mq_maxmsg"), "a queue capacity", span)?,
                self.one_term(&member(a, "mq_msgsize"), "a message size", span)?,
            ),
            _ => (Term::Const(SLOTS), Term::Const(DEFAULT_MSGSIZE)),
        };
        let site = self.queues.sites.len();
        let open = self.var(
            format!("mq.descriptor.{site}.open"),
            Some(0),
            Range::new(0.into(), 1.into()),
        );
        self.queues.sites.push(Descriptor {
            queue: q,
            nonblocking: flags & O_NONBLOCK != 0,
            mode: flags & O_ACCMODE,
            open,
        });
        let d = BASE + site as i64;
        self.give_up_where(
            eq(open, 1),
            "an `mq_open` call that runs again while its descriptor is open",
            span,
        );
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let after = self.new_loc(Some(span));
        let opened = |k: i64| {
            let mut a = vec![(ret, Term::Const(k))];
            if k == d {
                a.push((open, Term::Const(1)));
            }
            a
        };
        let exists = eq(exists_var, 1);
        if flags & O_CREAT == 0 {
            self.plain_edge(cur, after, exists.clone(), opened(d), Some(span));
            self.plain_edge(cur, after, not(exists), opened(-1), Some(span));
        } else {
            let fits = and(
                and(
                    cmp(CmpOp::Ge, cap.clone(), Term::Const(1)),
                    cmp(CmpOp::Le, cap.clone(), Term::Const(SLOTS)),
                ),
                cmp(CmpOp::Ge, size.clone(), Term::Const(1)),
            );
            let fresh = and(not(exists.clone()), eq(unlinked, 0));
            let mut create = opened(d);
            create.extend([
                (exists_var, Term::Const(1)),
                (capacity, cap),
                (msgsize, size),
            ]);
            self.plain_edge(
                cur,
                after,
                and(fresh.clone(), fits.clone()),
                create,
                Some(span),
            );
            self.give_up_edge(
                cur,
                and(fresh, not(fits)),
                format!("a message queue of more than {SLOTS} messages (or of none)"),
                span,
            );
            self.give_up_edge(
                cur,
                and(not(exists.clone()), eq(unlinked, 1)),
                "a message queue created again after `mq_unlink`",
                span,
            );
            let again = if flags & O_EXCL != 0 { -1 } else { d };
            self.plain_edge(cur, after, exists, opened(again), Some(span));
        }
        self.flush();
        self.t.cur = Some(after);
        Ok(())
    }

    /// `mq_unlink(name)`: the name is removed (the queue lives on for the
    /// descriptors open on it).
    fn mq_unlink(&mut self, name: &Node<Expression>, ret: VarId, span: Span) -> Result<()> {
        let q = self.mq_queue(name, span)?;
        let queue = self.queues.queues[q].clone();
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let after = self.new_loc(Some(span));
        let removed = vec![
            (ret, Term::Const(0)),
            (queue.exists, Term::Const(0)),
            (queue.unlinked, Term::Const(1)),
        ];
        self.plain_edge(cur, after, eq(queue.exists, 1), removed, Some(span));
        let missing = vec![(ret, Term::Const(-1))];
        self.plain_edge(cur, after, eq(queue.exists, 0), missing, Some(span));
        self.flush();
        self.t.cur = Some(after);
        Ok(())
    }

    fn mq_descriptor(&mut self, d: &Node<Expression>, span: Span) -> Result<Term> {
        self.one_term(d, "a message-queue descriptor", span)
    }

    /// One step of a call on descriptor `d`: per open descriptor, the
    /// edges `edges` gives (a guard, assignments and the return value)
    /// under "`d` is that descriptor"; a closed one returns -1; any other
    /// value gives up.
    fn mq_step(
        &mut self,
        d: &Term,
        ret: VarId,
        span: Span,
        mut edges: impl FnMut(&Queue, Descriptor, Cond) -> Vec<(Cond, Vec<(VarId, Term)>, Term)>,
    ) -> Option<(Loc, Loc)> {
        let cur = self.t.cur?;
        let after = self.new_loc(Some(span));
        let mut known = Vec::new();
        let queues = self.queues.clone();
        for (site, desc) in queues.sites.iter().enumerate() {
            let at = cmp(CmpOp::Eq, d.clone(), Term::Const(BASE + site as i64));
            known.push(at.clone());
            let closed = vec![(ret, Term::Const(-1))];
            self.plain_edge(
                cur,
                after,
                and(at.clone(), eq(desc.open, 0)),
                closed,
                Some(span),
            );
            let open = and(at, eq(desc.open, 1));
            for (guard, mut assigns, value) in edges(&queues.queues[desc.queue], *desc, open) {
                assigns.push((ret, value));
                self.plain_edge(cur, after, guard, assigns, Some(span));
            }
        }
        self.give_up_edge(
            cur,
            not(any(known)),
            "a message-queue call on a value that is no descriptor opened before it",
            span,
        );
        self.flush();
        self.t.cur = Some(after);
        Some((cur, after))
    }

    /// The integer object a message buffer points to (through casts), and
    /// its size.
    fn mq_object(
        &mut self,
        buf: &Node<Expression>,
        what: &str,
        span: Span,
    ) -> Result<(super::expr::Place, CType, i64)> {
        let buf = uncast(buf);
        let elem = match self.static_type(buf)? {
            CType::Ptr(t) if matches!(*t, CType::Int(_)) => *t,
            _ => {
                return Err(LowerError::unsupported(
                    span,
                    format!("an `{what}` of a buffer that is not one integer object"),
                ))
            }
        };
        let size = self.types.size_of(&elem).unwrap_or(0) as i64;
        let b = self.eval(buf)?;
        let b = self.materialize(b, span)?;
        let place = self.deref(b, elem.clone(), span)?;
        Ok((place, elem, size))
    }

    /// `mq_send(d, (char *)&x, sizeof x, priority)`.
    fn mq_send(&mut self, args: [&Node<Expression>; 4], ret: VarId, span: Span) -> Result<()> {
        let [d, buf, len, prio] = args;
        let (place, _, size) = self.mq_object(buf, "mq_send", span)?;
        if self.eval(len)?.constant() != Some(size) {
            return Err(LowerError::unsupported(
                span,
                "an `mq_send` of other than `sizeof` its one integer object",
            ));
        }
        let x = self.read(place, span)?;
        let x = self.materialized_term(x, "a message", span)?;
        let d = self.mq_descriptor(d, span)?;
        let prio = self.one_term(prio, "a message priority", span)?;
        self.inputs_before_wait(span);
        let mut mixed = Vec::new();
        let steps = self.mq_step(&d, ret, span, |q, desc, at| {
            if desc.mode == O_RDONLY {
                return vec![(at, vec![], Term::Const(-1))];
            }
            let too_long = cmp(CmpOp::Lt, var(q.msgsize), Term::Const(size));
            let ok = and(at.clone(), not(too_long.clone()));
            let same = cmp(CmpOp::Eq, var(q.priority), prio.clone());
            let full = cmp(CmpOp::Ge, var(q.count), var(q.capacity));
            let mut out = vec![(and(at, too_long), vec![], Term::Const(-1))];
            if desc.nonblocking {
                out.push((and(ok.clone(), full.clone()), vec![], Term::Const(-1)));
            }
            let room = and(ok.clone(), not(full));
            for k in 0..SLOTS {
                let (v, n) = q.slots[k as usize];
                let mut g = and(room.clone(), eq(q.count, k));
                if k > 0 {
                    g = and(g, same.clone());
                }
                let assigns = vec![
                    (v, x.clone()),
                    (n, Term::Const(size)),
                    (q.count, Term::Const(k + 1)),
                    (q.priority, prio.clone()),
                ];
                out.push((g, assigns, Term::Const(0)));
            }
            let waiting = cmp(CmpOp::Gt, var(q.count), Term::Const(0));
            mixed.push(and(and(room, waiting), not(same)));
            out
        });
        if let Some((cur, _)) = steps {
            for bad in mixed {
                self.give_up_edge(
                    cur,
                    bad,
                    "messages of different priorities waiting in one message queue",
                    span,
                );
            }
            self.mark_wait(cur, crate::WaitKind::MessageQueue, span);
        }
        Ok(())
    }

    /// `mq_receive(d, (char *)&y, len, priority)`.
    fn mq_receive(
        &mut self,
        args: [&Node<Expression>; 3],
        prio: Option<&Node<Expression>>,
        ret: VarId,
        span: Span,
    ) -> Result<()> {
        let [d, buf, len] = args;
        let (place, elem, size) = self.mq_object(buf, "mq_receive", span)?;
        let len = self.one_term(len, "a buffer length", span)?;
        let d = self.mq_descriptor(d, span)?;
        let prio_place = match prio {
            Some(p) if self.eval(p)?.constant() != Some(0) => {
                let v = self.eval(p)?;
                let v = self.materialize(v, span)?;
                Some(self.deref(v, CType::Int(IntTy::UINT), span)?)
            }
            _ => None,
        };
        self.inputs_before_wait(span);
        let got = self.temp(&elem);
        let got_prio = self.temp(&CType::Int(IntTy::UINT));
        let mut other_size = Vec::new();
        let steps = self.mq_step(&d, ret, span, |q, desc, at| {
            if desc.mode == O_WRONLY {
                return vec![(at, vec![], Term::Const(-1))];
            }
            let too_short = cmp(CmpOp::Lt, len.clone(), var(q.msgsize));
            let ok = and(at.clone(), not(too_short.clone()));
            let empty = eq(q.count, 0);
            let mut out = vec![(and(at, too_short), vec![], Term::Const(-1))];
            if desc.nonblocking {
                out.push((and(ok.clone(), empty.clone()), vec![], Term::Const(-1)));
            }
            let (first, first_size) = q.slots[0];
            let waiting = and(ok, not(empty));
            other_size.push(and(waiting.clone(), not(eq(first_size, size))));
            let mut assigns = vec![
                (got, var(first)),
                (got_prio, var(q.priority)),
                (q.count, sub(var(q.count), Term::Const(1))),
            ];
            for i in 0..SLOTS as usize - 1 {
                assigns.push((q.slots[i].0, var(q.slots[i + 1].0)));
                assigns.push((q.slots[i].1, var(q.slots[i + 1].1)));
            }
            out.push((
                and(waiting, eq(first_size, size)),
                assigns,
                Term::Const(size),
            ));
            out
        });
        let Some((cur, _)) = steps else {
            return Ok(());
        };
        for bad in other_size {
            self.give_up_edge(
                cur,
                bad,
                "a message received into an object of another size than it",
                span,
            );
        }
        self.mark_wait(cur, crate::WaitKind::MessageQueue, span);
        // The message lands in the buffer (a failed call leaves it).
        let received = cmp(CmpOp::Gt, Term::Var(ret), Term::Const(0));
        self.store_where(
            place,
            received.clone(),
            Term::Var(got),
            "a message buffer",
            span,
        )?;
        if let Some(p) = prio_place {
            let prio = Term::Var(got_prio);
            self.store_where(p, received, prio, "a message priority", span)?;
        }
        Ok(())
    }
}
