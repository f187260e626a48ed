//! The race oracle: an exhaustive search over the interleavings of a
//! [`Program`] in which every access to a global is its own step, written
//! from C's semantics without the lowering. A data race is a reachable
//! state in which two threads each have an access to the same global as
//! their next step, at least one a write and not both inside atomic
//! sections (SOUNDNESS.md, "Data races").
//!
//! Each thread runs a list of [`Op`]s compiled from the tree in C's
//! evaluation order: a read of a global loads it into a register of the
//! thread, `&&`, `||` and `?:` branch, `g++` is a read and a write.
//! `__VERIFIER_atomic_begin` waits until no other thread is inside an
//! atomic section, and while one is, the others do not move; their next
//! accesses still count (a plain access does not wait for another
//! thread's atomic section).

use std::collections::{HashSet, VecDeque};

use super::program::{BinOp, Expr, Program, Stmt, LOCALS};

/// A value computed from the thread's registers.
#[derive(Clone, Debug)]
enum Val {
    Lit(i64),
    Reg(usize),
    Bin(BinOp, Box<Val>, Box<Val>),
}

#[derive(Clone, Debug)]
enum Op {
    /// `atomic`: an atomic builtin's access, a single indivisible step.
    Read {
        global: usize,
        reg: usize,
        atomic: bool,
    },
    Write {
        global: usize,
        val: Val,
        atomic: bool,
    },
    Set {
        reg: usize,
        val: Val,
    },
    /// Jump to `to` when `cond` is zero.
    JumpIfZero {
        cond: Val,
        to: usize,
    },
    Jump(usize),
    Lock(usize),
    Unlock(usize),
    AtomicBegin,
    AtomicEnd,
    /// Start thread `k` (an index into the threads, 0 is `main`).
    Create(usize),
    Join(usize),
    End,
}

struct Compiler {
    ops: Vec<Op>,
    regs: usize,
}

impl Compiler {
    fn reg(&mut self) -> usize {
        self.regs += 1;
        self.regs - 1
    }

    fn patch(&mut self, at: usize, to: usize) {
        match &mut self.ops[at] {
            Op::JumpIfZero { to: t, .. } | Op::Jump(t) => *t = to,
            _ => unreachable!("only jumps are patched"),
        }
    }

    /// `r := (c != 0)` where `c` was computed, else `r := 0`: the shape of
    /// `&&`, `||` and `?:`, with `then` and `other` evaluated only on their
    /// branch.
    fn branch(&mut self, c: Val, then: &Expr, other: &Expr, truth: bool) -> Val {
        let r = self.reg();
        let test = self.ops.len();
        self.ops.push(Op::JumpIfZero { cond: c, to: 0 });
        let a = self.expr(then);
        let a = if truth { truthy(a) } else { a };
        self.ops.push(Op::Set { reg: r, val: a });
        let jump = self.ops.len();
        self.ops.push(Op::Jump(0));
        let else_at = self.ops.len();
        self.patch(test, else_at);
        let b = self.expr(other);
        let b = if truth { truthy(b) } else { b };
        self.ops.push(Op::Set { reg: r, val: b });
        let end = self.ops.len();
        self.patch(jump, end);
        Val::Reg(r)
    }

    fn expr(&mut self, e: &Expr) -> Val {
        match e {
            Expr::Lit(k) => Val::Lit(*k),
            Expr::Local(l) => Val::Reg(*l),
            Expr::Global(g) | Expr::AtomicLoad(g) => {
                let reg = self.reg();
                let atomic = matches!(e, Expr::AtomicLoad(_));
                self.ops.push(Op::Read {
                    global: *g,
                    reg,
                    atomic,
                });
                Val::Reg(reg)
            }
            Expr::Bin(op, a, b) => {
                let a = self.expr(a);
                let b = self.expr(b);
                Val::Bin(*op, Box::new(a), Box::new(b))
            }
            Expr::And(a, b) => {
                let c = self.expr(a);
                self.branch(c, b, &Expr::Lit(0), true)
            }
            Expr::Or(a, b) => {
                let c = self.expr(a);
                self.branch(c, &Expr::Lit(1), b, true)
            }
            Expr::Cond(c, a, b) => {
                let c = self.expr(c);
                self.branch(c, a, b, false)
            }
        }
    }

    fn write(&mut self, global: usize, val: Val, atomic: bool) {
        self.ops.push(Op::Write {
            global,
            val,
            atomic,
        });
    }

    /// `g += e` (`g++` with `e` = 1): `e`, then a read and a write of `g`,
    /// one indivisible step for `__atomic_fetch_add`.
    fn add_to(&mut self, g: usize, e: &Expr, atomic: bool) {
        let add = self.expr(e);
        if atomic {
            self.ops.push(Op::AtomicBegin);
        }
        let read = if atomic {
            Expr::AtomicLoad(g)
        } else {
            Expr::Global(g)
        };
        let old = self.expr(&read);
        self.write(
            g,
            Val::Bin(BinOp::Add, Box::new(old), Box::new(add)),
            atomic,
        );
        if atomic {
            self.ops.push(Op::AtomicEnd);
        }
    }

    fn stmts(&mut self, ss: &[Stmt]) {
        for s in ss {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::SetGlobal(g, e) => {
                let val = self.expr(e);
                self.write(*g, val, false);
            }
            Stmt::SetLocal(l, e) => {
                let val = self.expr(e);
                self.ops.push(Op::Set { reg: *l, val });
            }
            Stmt::Inc(g) => self.add_to(*g, &Expr::Lit(1), false),
            Stmt::AddTo(g, e) => self.add_to(*g, e, false),
            Stmt::AtomicStore(g, e) => {
                let val = self.expr(e);
                self.write(*g, val, true);
            }
            Stmt::AtomicAdd(g, e) => self.add_to(*g, e, true),
            Stmt::Print(args) => {
                for a in args {
                    self.expr(a);
                }
            }
            Stmt::Discard(e) => {
                self.expr(e);
            }
            Stmt::If(c, t, e) => {
                let c = self.expr(c);
                let test = self.ops.len();
                self.ops.push(Op::JumpIfZero { cond: c, to: 0 });
                self.stmts(t);
                let jump = self.ops.len();
                self.ops.push(Op::Jump(0));
                let else_at = self.ops.len();
                self.patch(test, else_at);
                self.stmts(e);
                let end = self.ops.len();
                self.patch(jump, end);
            }
            Stmt::Locked(m, body) => {
                self.ops.push(Op::Lock(*m));
                self.stmts(body);
                self.ops.push(Op::Unlock(*m));
            }
            Stmt::Atomic(body) => {
                self.ops.push(Op::AtomicBegin);
                self.stmts(body);
                self.ops.push(Op::AtomicEnd);
            }
        }
    }
}

fn truthy(v: Val) -> Val {
    Val::Bin(
        BinOp::Eq,
        Box::new(Val::Bin(BinOp::Eq, Box::new(v), Box::new(Val::Lit(0)))),
        Box::new(Val::Lit(0)),
    )
}

fn compile(body: impl FnOnce(&mut Compiler)) -> (Vec<Op>, usize) {
    let mut c = Compiler {
        ops: Vec::new(),
        regs: LOCALS,
    };
    body(&mut c);
    c.ops.push(Op::End);
    (c.ops, c.regs)
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    pcs: Vec<usize>,
    /// Per thread: started (main always is).
    started: Vec<bool>,
    regs: Vec<Vec<i64>>,
    globals: Vec<i64>,
    /// Per mutex: its holder.
    owner: Vec<Option<usize>>,
    /// The thread inside an atomic section, and how deeply nested.
    atomic: Option<(usize, u32)>,
}

fn eval(v: &Val, regs: &[i64]) -> i64 {
    match v {
        Val::Lit(k) => *k,
        Val::Reg(r) => regs[*r],
        Val::Bin(op, a, b) => op.apply(eval(a, regs), eval(b, regs)),
    }
}

/// What the search found.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Racy,
    RaceFree,
    /// More than the state budget.
    TooBig,
}

/// Searches the program's interleavings for a data race.
pub fn search(p: &Program, max_states: usize) -> Outcome {
    let mut threads: Vec<(Vec<Op>, usize)> = vec![compile(|c| {
        c.stmts(&p.before);
        for k in 0..p.threads.len() {
            c.ops.push(Op::Create(k + 1));
        }
        c.stmts(&p.during);
        for k in 0..p.threads.len() {
            c.ops.push(Op::Join(k + 1));
        }
        c.stmts(&p.after);
    })];
    for &r in &p.threads {
        threads.push(compile(|c| c.stmts(&p.routines[r])));
    }
    let n = threads.len();
    let init = State {
        pcs: vec![0; n],
        started: (0..n).map(|k| k == 0).collect(),
        regs: threads.iter().map(|(_, r)| vec![0; *r]).collect(),
        globals: p.globals.clone(),
        owner: vec![None; p.mutexes],
        atomic: None,
    };
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(init.clone());
    queue.push_back(init);
    while let Some(s) = queue.pop_front() {
        if races(&threads, &s) {
            return Outcome::Racy;
        }
        for k in 0..n {
            if let Some(next) = step(&threads, &s, k) {
                if seen.insert(next.clone()) {
                    if seen.len() > max_states {
                        return Outcome::TooBig;
                    }
                    queue.push_back(next);
                }
            }
        }
    }
    Outcome::RaceFree
}

/// The access thread `k` makes next: (global, write, atomic).
fn next_access(threads: &[(Vec<Op>, usize)], s: &State, k: usize) -> Option<(usize, bool, bool)> {
    if !s.started[k] {
        return None;
    }
    let section = s.atomic.is_some_and(|(a, _)| a == k);
    match &threads[k].0[s.pcs[k]] {
        Op::Read { global, atomic, .. } => Some((*global, false, section || *atomic)),
        Op::Write { global, atomic, .. } => Some((*global, true, section || *atomic)),
        _ => None,
    }
}

fn races(threads: &[(Vec<Op>, usize)], s: &State) -> bool {
    let next: Vec<_> = (0..threads.len())
        .filter_map(|k| next_access(threads, s, k))
        .collect();
    next.iter().enumerate().any(|(i, a)| {
        next[i + 1..]
            .iter()
            .any(|b| a.0 == b.0 && (a.1 || b.1) && !(a.2 && b.2))
    })
}

/// The state after thread `k`'s next step, if it can take one.
fn step(threads: &[(Vec<Op>, usize)], s: &State, k: usize) -> Option<State> {
    if !s.started[k] || s.atomic.is_some_and(|(a, _)| a != k) {
        return None;
    }
    let ops = &threads[k].0;
    let pc = s.pcs[k];
    let mut t = s.clone();
    t.pcs[k] = pc + 1;
    match &ops[pc] {
        Op::Read { global, reg, .. } => t.regs[k][*reg] = s.globals[*global],
        Op::Write { global, val, .. } => t.globals[*global] = eval(val, &s.regs[k]),
        Op::Set { reg, val } => t.regs[k][*reg] = eval(val, &s.regs[k]),
        Op::JumpIfZero { cond, to } => {
            if eval(cond, &s.regs[k]) == 0 {
                t.pcs[k] = *to;
            }
        }
        Op::Jump(to) => t.pcs[k] = *to,
        Op::Lock(m) => {
            if s.owner[*m].is_some() {
                return None;
            }
            t.owner[*m] = Some(k);
        }
        Op::Unlock(m) => t.owner[*m] = None,
        Op::AtomicBegin => t.atomic = Some((k, s.atomic.map_or(1, |(_, d)| d + 1))),
        Op::AtomicEnd => {
            t.atomic = s.atomic.and_then(|(a, d)| (d > 1).then_some((a, d - 1)));
        }
        Op::Create(j) => t.started[*j] = true,
        Op::Join(j) => {
            if !s.started[*j] || !matches!(threads[*j].0[s.pcs[*j]], Op::End) {
                return None;
            }
        }
        Op::End => return None,
    }
    Some(t)
}
