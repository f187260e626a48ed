//! Small pthread programs for the race oracle: a syntax tree that prints as
//! C and that the oracle ([`super::oracle`]) runs with its own semantics,
//! and a seeded generator of such programs.
//!
//! A program has 2–3 global ints, 1–2 mutexes, 1–2 worker routines started
//! by `main` (1–2 threads, joined before `main` ends) and statements made
//! of what the race check must see: writes and increments of globals,
//! reads through locals, reads only as arguments of `printf`, reads in
//! expressions whose value does not depend on them (`g * 0`, `g - g`,
//! `c || 1`), reads skipped by `&&`, `||` and `?:` (`1 || g`, `0 && g`,
//! `l ? g : 1`), values discarded (`(void)g;`), GCC's atomic builtins
//! (load, store, fetch-and-add), critical sections under a mutex, and
//! atomic sections. No loops: every program has finitely many
//! states.

use std::fmt::Write as _;

use engine::generate::Rng;

/// Binary operators of expressions.
#[derive(Clone, Copy, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Eq,
    Lt,
}

impl BinOp {
    fn c(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Eq => "==",
            BinOp::Lt => "<",
        }
    }

    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Eq => i64::from(a == b),
            BinOp::Lt => i64::from(a < b),
        }
    }
}

/// Expressions (C's evaluation: `&&`, `||` and `?:` evaluate operands
/// only as needed).
#[derive(Clone, Debug)]
pub enum Expr {
    Lit(i64),
    Global(usize),
    Local(usize),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `__atomic_load_n(&g, __ATOMIC_SEQ_CST)`
    AtomicLoad(usize),
}

/// Statements.
#[derive(Clone, Debug)]
pub enum Stmt {
    SetGlobal(usize, Expr),
    SetLocal(usize, Expr),
    /// `g++;`
    Inc(usize),
    /// `g += e;`
    AddTo(usize, Expr),
    /// `__atomic_store_n(&g, e, __ATOMIC_SEQ_CST);`
    AtomicStore(usize, Expr),
    /// `__atomic_fetch_add(&g, e, __ATOMIC_SEQ_CST);`
    AtomicAdd(usize, Expr),
    /// `printf` with these arguments.
    Print(Vec<Expr>),
    /// `(void)(e);`
    Discard(Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Locked(usize, Vec<Stmt>),
    Atomic(Vec<Stmt>),
}

/// A program: `main` runs `before`, creates one thread per entry of
/// `threads` (the index of its routine), runs `during`, joins them all and
/// runs `after`.
#[derive(Clone, Debug)]
pub struct Program {
    pub globals: Vec<i64>,
    pub mutexes: usize,
    pub routines: Vec<Vec<Stmt>>,
    pub threads: Vec<usize>,
    pub before: Vec<Stmt>,
    pub during: Vec<Stmt>,
    pub after: Vec<Stmt>,
}

/// Locals of every function.
pub const LOCALS: usize = 2;

struct Gen {
    rng: Rng,
    globals: usize,
    mutexes: usize,
    budget: usize,
}

impl Gen {
    fn global(&mut self) -> Expr {
        Expr::Global(self.rng.below(self.globals))
    }

    fn leaf(&mut self) -> Expr {
        match self.rng.below(11) {
            0..=4 => self.global(),
            10 => Expr::AtomicLoad(self.rng.below(self.globals)),
            5..=7 => Expr::Local(self.rng.below(LOCALS)),
            _ => Expr::Lit(self.rng.below(3) as i64),
        }
    }

    /// An expression; `depth` bounds its nesting.
    fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 {
            return self.leaf();
        }
        let b = |x: Expr| Box::new(x);
        match self.rng.below(14) {
            0..=3 => self.leaf(),
            4 => {
                let op = [BinOp::Add, BinOp::Sub, BinOp::Eq, BinOp::Lt][self.rng.below(4)];
                Expr::Bin(op, b(self.expr(depth - 1)), b(self.expr(depth - 1)))
            }
            // Values that do not depend on a read.
            5 => Expr::Bin(BinOp::Mul, b(self.global()), b(Expr::Lit(0))),
            6 => {
                let g = self.global();
                Expr::Bin(BinOp::Sub, b(g.clone()), b(g))
            }
            7 => Expr::Or(b(self.expr(depth - 1)), b(Expr::Lit(1))),
            8 => Expr::And(b(self.expr(depth - 1)), b(Expr::Lit(0))),
            // Reads that C skips, or makes only sometimes.
            9 => Expr::Or(b(Expr::Lit(1)), b(self.expr(depth - 1))),
            10 => Expr::And(b(Expr::Lit(0)), b(self.expr(depth - 1))),
            11 => Expr::And(b(self.expr(depth - 1)), b(self.expr(depth - 1))),
            12 => Expr::Or(b(self.expr(depth - 1)), b(self.expr(depth - 1))),
            _ => Expr::Cond(
                b(self.expr(depth - 1)),
                b(self.expr(depth - 1)),
                b(self.expr(depth - 1)),
            ),
        }
    }

    fn block(&mut self, n: usize, depth: usize, in_section: bool) -> Vec<Stmt> {
        let mut out = Vec::new();
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            out.push(self.stmt(depth, in_section));
        }
        out
    }

    fn stmt(&mut self, depth: usize, in_section: bool) -> Stmt {
        let g = self.rng.below(self.globals);
        match self.rng.below(14) {
            0 | 1 => Stmt::SetGlobal(g, self.expr(2)),
            12 => Stmt::AtomicStore(g, self.expr(1)),
            13 => Stmt::AtomicAdd(g, self.expr(1)),
            2 => Stmt::SetLocal(self.rng.below(LOCALS), self.expr(2)),
            3 => Stmt::Inc(g),
            4 => Stmt::AddTo(g, self.expr(1)),
            5 | 6 => {
                let n = 1 + self.rng.below(2);
                Stmt::Print((0..n).map(|_| self.expr(2)).collect())
            }
            7 => Stmt::Discard(self.expr(2)),
            8 if depth < 2 => {
                let c = self.expr(2);
                let n = 1 + self.rng.below(2);
                let t = self.block(n, depth + 1, in_section);
                let e = if self.rng.chance(40) {
                    self.block(1, depth + 1, in_section)
                } else {
                    vec![]
                };
                Stmt::If(c, t, e)
            }
            9 | 10 if depth < 2 && !in_section => {
                let n = 1 + self.rng.below(3);
                let body = self.block(n, depth + 1, true);
                Stmt::Locked(self.rng.below(self.mutexes), body)
            }
            11 if depth < 2 && !in_section => {
                let n = 1 + self.rng.below(2);
                Stmt::Atomic(self.block(n, depth + 1, true))
            }
            _ => Stmt::SetGlobal(g, self.expr(1)),
        }
    }
}

/// The program of one seed.
pub fn generate(seed: u64) -> Program {
    let mut rng = Rng(seed ^ 0x0a5e_ace5_0c1e);
    let globals = 2 + rng.below(2);
    let mutexes = 1 + rng.below(2);
    let routines = 1 + rng.below(2);
    let threads: Vec<usize> = (0..1 + rng.below(2)).map(|_| rng.below(routines)).collect();
    let init = (0..globals).map(|_| rng.below(3) as i64).collect();
    let mut g = Gen {
        rng,
        globals,
        mutexes,
        budget: 0,
    };
    let per_routine = if threads.len() == 1 { 5 } else { 4 };
    let routines = (0..routines)
        .map(|_| {
            g.budget = 1 + g.rng.below(per_routine);
            g.block(per_routine, 0, false)
        })
        .collect();
    let part = |g: &mut Gen, most: usize| {
        g.budget = g.rng.below(most + 1);
        g.block(most, 0, false)
    };
    let before = part(&mut g, 1);
    let during = part(&mut g, 3);
    let after = part(&mut g, 1);
    Program {
        globals: init,
        mutexes,
        routines,
        threads,
        before,
        during,
        after,
    }
}

fn expr_c(e: &Expr) -> String {
    match e {
        Expr::Lit(k) => k.to_string(),
        Expr::Global(g) => format!("g{g}"),
        Expr::Local(l) => format!("l{l}"),
        Expr::Bin(op, a, b) => format!("({} {} {})", expr_c(a), op.c(), expr_c(b)),
        Expr::And(a, b) => format!("({} && {})", expr_c(a), expr_c(b)),
        Expr::Or(a, b) => format!("({} || {})", expr_c(a), expr_c(b)),
        Expr::Cond(c, a, b) => format!("({} ? {} : {})", expr_c(c), expr_c(a), expr_c(b)),
        Expr::AtomicLoad(g) => format!("__atomic_load_n(&g{g}, __ATOMIC_SEQ_CST)"),
    }
}

fn stmts_c(out: &mut String, ss: &[Stmt], depth: usize) {
    let pad = "  ".repeat(depth + 1);
    for s in ss {
        match s {
            Stmt::SetGlobal(g, e) => {
                let _ = writeln!(out, "{pad}g{g} = {};", expr_c(e));
            }
            Stmt::SetLocal(l, e) => {
                let _ = writeln!(out, "{pad}l{l} = {};", expr_c(e));
            }
            Stmt::Inc(g) => {
                let _ = writeln!(out, "{pad}g{g}++;");
            }
            Stmt::AddTo(g, e) => {
                let _ = writeln!(out, "{pad}g{g} += {};", expr_c(e));
            }
            Stmt::AtomicStore(g, e) => {
                let _ = writeln!(
                    out,
                    "{pad}__atomic_store_n(&g{g}, {}, __ATOMIC_SEQ_CST);",
                    expr_c(e)
                );
            }
            Stmt::AtomicAdd(g, e) => {
                let _ = writeln!(
                    out,
                    "{pad}__atomic_fetch_add(&g{g}, {}, __ATOMIC_SEQ_CST);",
                    expr_c(e)
                );
            }
            Stmt::Print(args) => {
                let fmt = vec!["%d"; args.len()].join(" ");
                let args: Vec<String> = args.iter().map(expr_c).collect();
                let _ = writeln!(out, "{pad}printf(\"{fmt}\\n\", {});", args.join(", "));
            }
            Stmt::Discard(e) => {
                let _ = writeln!(out, "{pad}(void){};", expr_c(e));
            }
            Stmt::If(c, t, e) => {
                let _ = writeln!(out, "{pad}if {} {{", paren(&expr_c(c)));
                stmts_c(out, t, depth + 1);
                if !e.is_empty() {
                    let _ = writeln!(out, "{pad}}} else {{");
                    stmts_c(out, e, depth + 1);
                }
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::Locked(m, body) => {
                let _ = writeln!(out, "{pad}pthread_mutex_lock(&m{m});");
                stmts_c(out, body, depth);
                let _ = writeln!(out, "{pad}pthread_mutex_unlock(&m{m});");
            }
            Stmt::Atomic(body) => {
                let _ = writeln!(out, "{pad}__VERIFIER_atomic_begin();");
                stmts_c(out, body, depth);
                let _ = writeln!(out, "{pad}__VERIFIER_atomic_end();");
            }
        }
    }
}

fn paren(s: &str) -> String {
    if s.starts_with('(') && s.ends_with(')') {
        s.to_string()
    } else {
        format!("({s})")
    }
}

impl Program {
    /// The program as C.
    pub fn to_c(&self, seed: u64) -> String {
        let mut out = format!("// generated by ase/tests/race_oracle (seed {seed})\n");
        out.push_str(
            "#include <pthread.h>\n#include <stdio.h>\n\
             extern void __VERIFIER_atomic_begin(void);\n\
             extern void __VERIFIER_atomic_end(void);\n\n",
        );
        for (k, v) in self.globals.iter().enumerate() {
            let _ = writeln!(out, "int g{k} = {v};");
        }
        for m in 0..self.mutexes {
            let _ = writeln!(out, "pthread_mutex_t m{m} = PTHREAD_MUTEX_INITIALIZER;");
        }
        let handles: Vec<String> = (0..self.threads.len()).map(|t| format!("t{t}")).collect();
        let _ = writeln!(out, "pthread_t {};\n", handles.join(", "));
        let locals = "  int l0 = 0, l1 = 0;\n";
        for (r, body) in self.routines.iter().enumerate() {
            let _ = writeln!(out, "void *worker{r}(void *arg) {{");
            out.push_str(locals);
            stmts_c(&mut out, body, 0);
            out.push_str("  return 0;\n}\n\n");
        }
        out.push_str("int main(void) {\n");
        out.push_str(locals);
        stmts_c(&mut out, &self.before, 0);
        for (t, r) in self.threads.iter().enumerate() {
            let _ = writeln!(out, "  pthread_create(&t{t}, 0, worker{r}, 0);");
        }
        stmts_c(&mut out, &self.during, 0);
        for t in 0..self.threads.len() {
            let _ = writeln!(out, "  pthread_join(t{t}, 0);");
        }
        stmts_c(&mut out, &self.after, 0);
        out.push_str("  return 0;\n}\n");
        out
    }
}
