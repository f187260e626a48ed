//! The one module that talks to Z3.
//!
//! Formulas are built from [`Lin`]/[`Atom`]/[`Formula`] values; symbols live
//! in one of two name spaces ([`Space`]). Every satisfiability check is
//! counted (the "prover queries" of the statistics) and bounded by the
//! analysis deadline, so that a hard query ends the run with `unknown`
//! instead of hanging it.
//!
//! Solvers are reused: a dropped [`Smt`] returns its solver, popped back to
//! its base scope, to a small per-thread pool, because making a Z3 solver
//! ready for incremental use costs more than most whole checks of small
//! programs. A reused solver gives the same sat/unsat answers as a fresh one,
//! but its models (and through them traces and refinement witnesses) may
//! depend on the earlier queries on the same thread, as they already may
//! through the thread's shared Z3 context.

use crate::linear::{Atom, Formula, Lin, Rel, Sym};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use z3::ast::{Ast, Bool, Dynamic, Int};
use z3::{Goal, Model, Params, SatResult, Solver, Tactic};

/// Which symbols a formula is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Program variables (`VarId` indices) and, above them, input slots:
    /// the vocabulary of predicates, preimages and abstract states.
    State,
    /// Symbolic constants of symbolic execution.
    Symbolic,
}

/// Why a prover query gave no answer.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum SmtError {
    /// The analysis deadline passed.
    #[error("time limit reached")]
    Timeout,
    /// Z3 answered `unknown`.
    #[error("the prover answered unknown: {0}")]
    Unknown(String),
    /// Z3 produced a formula outside the linear fragment we model.
    #[error("unsupported prover output: {0}")]
    Unsupported(String),
}

impl From<SmtError> for crate::verdict::Unknown {
    fn from(e: SmtError) -> Self {
        use crate::verdict::{Limit, UnknownKind};
        let kind = match &e {
            SmtError::Timeout => UnknownKind::Budget(Limit::Time),
            SmtError::Unknown(_) => UnknownKind::NoProof,
            SmtError::Unsupported(_) => UnknownKind::Unsupported,
        };
        crate::verdict::Unknown::new(kind, e.to_string())
    }
}

/// A solver scope opened on first use ([`Smt::enter`]), for queries that
/// share a context (an abstract state, a path condition): the context is
/// asserted, and internalised by the prover, once for all of them instead
/// of once per query. Close it with [`Smt::leave`].
#[derive(Debug, Default)]
pub struct LazyScope {
    open: bool,
}

/// A Z3 solver with the constants of both name spaces and a query counter.
pub struct Smt {
    /// The solver (taken out only when dropped).
    pooled: Option<Pooled>,
    deadline: Option<Instant>,
    state_consts: Vec<Int>,
    symbolic_consts: Vec<Int>,
    /// Scopes pushed and not popped.
    depth: u32,
    /// Whether a query failed (the solver is then not reused).
    failed: bool,
    /// Satisfiability checks (and quantifier eliminations) made so far.
    pub queries: u64,
    /// Set from another thread to end the run: every later query fails as
    /// if the deadline had passed.
    pub cancel: Option<&'static AtomicBool>,
}

/// A solver kept for reuse, with the timeout it was last given.
struct Pooled {
    solver: Solver,
    timeout_ms: u32,
}

thread_local! {
    /// Solvers of finished runs on this thread, at their base scope. Making
    /// a solver ready for incremental use (its first `push` builds the SMT
    /// kernel and its theories, about 8 ms) costs far more than a typical
    /// query, and the differential tests run thousands of short checks per
    /// thread.
    static POOL: std::cell::RefCell<Vec<Pooled>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A new solver. (Z3's logic-free solver prepares every theory on its first
/// `push`, which the pool pays once per thread. Declaring `QF_LIA` makes
/// that cheaper but selects arithmetic settings that are about twice as
/// slower on conjunctions of many bounds on one term, e.g. UR's predicates
/// on `rax.gc`.)
fn fresh_solver(timeout_ms: u32) -> Pooled {
    let solver = Solver::new();
    let mut params = Params::new();
    // Fixed seeds: the same input must give the same models (traces).
    params.set_u32("random_seed", 0);
    params.set_u32("timeout", timeout_ms);
    solver.set_params(&params);
    Pooled { solver, timeout_ms }
}

/// The prover's timeout per query for a run ending at `deadline`: the time
/// left, rounded up to whole seconds (so that runs with the same budget
/// share a setting, and a reused solver needs no new parameters).
fn timeout_ms(deadline: Option<Instant>) -> u32 {
    match deadline {
        Some(d) => {
            let ms = d.saturating_duration_since(Instant::now()).as_millis();
            u32::try_from(ms.max(1).div_ceil(1000) * 1000).unwrap_or(u32::MAX)
        }
        None => u32::MAX,
    }
}

/// Runs `f` (which uses this thread's Z3 context) and, while it runs,
/// interrupts the context's queries as soon as `cancel` is set, so that a
/// cancelled run ends within a few milliseconds instead of at the end of
/// its current query.
pub fn interruptible<T>(cancel: &AtomicBool, f: impl FnOnce() -> T) -> T {
    let ctx = z3::Context::thread_local();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let handle = ctx.handle();
        let done = &done;
        s.spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if cancel.load(Ordering::SeqCst) {
                    handle.interrupt();
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
        // Set also when `f` panics: the scope then waits for the
        // interrupting thread, which must end.
        struct Done<'a>(&'a AtomicBool);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _done = Done(done);
        f()
    })
}

/// Most solvers kept per thread.
const POOL_SIZE: usize = 4;

impl Drop for Smt {
    /// Returns the solver to the pool, back at its base scope, unless a
    /// query failed (a timeout may leave it in any state) or the thread is
    /// panicking.
    fn drop(&mut self) {
        if let Some(pooled) = self.pooled.take() {
            if !self.failed && !std::thread::panicking() {
                pooled.solver.pop(self.depth + 1);
                POOL.with(|p| {
                    let mut pool = p.borrow_mut();
                    if pool.len() < POOL_SIZE {
                        pool.push(pooled);
                    }
                });
            }
        }
    }
}

impl Smt {
    /// A solver (a fresh one, or one a finished run on this thread left at
    /// its base scope); queries fail with [`SmtError::Timeout`] after
    /// `deadline`.
    pub fn new(deadline: Option<Instant>) -> Smt {
        let ms = timeout_ms(deadline);
        let mut pooled = POOL
            .with(|p| p.borrow_mut().pop())
            .unwrap_or_else(|| fresh_solver(ms));
        if pooled.timeout_ms != ms {
            let mut params = Params::new();
            params.set_u32("timeout", ms);
            pooled.solver.set_params(&params);
            pooled.timeout_ms = ms;
        }
        // Everything this `Smt` asserts lives in a scope of its own, popped
        // when it is dropped.
        pooled.solver.push();
        Smt {
            pooled: Some(pooled),
            deadline,
            state_consts: Vec::new(),
            symbolic_consts: Vec::new(),
            depth: 0,
            failed: false,
            queries: 0,
            cancel: None,
        }
    }

    fn solver(&self) -> &Solver {
        &self
            .pooled
            .as_ref()
            .expect("the solver lives as long as `Smt`")
            .solver
    }

    /// The deadline this solver honours.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the deadline has passed.
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancel.is_some_and(|c| c.load(Ordering::SeqCst))
    }

    /// The Z3 constant of a symbol.
    pub fn constant(&mut self, space: Space, s: Sym) -> Int {
        let (table, prefix) = match space {
            Space::State => (&mut self.state_consts, "x"),
            Space::Symbolic => (&mut self.symbolic_consts, "s"),
        };
        while table.len() <= s as usize {
            table.push(Int::new_const(format!("{prefix}{}", table.len())));
        }
        table[s as usize].clone()
    }

    /// A linear expression.
    pub fn lin(&mut self, space: Space, l: &Lin) -> Int {
        let mut parts: Vec<Int> = Vec::with_capacity(l.terms.len() + 1);
        for &(s, c) in &l.terms {
            let x = self.constant(space, s);
            parts.push(if c == 1 { x } else { Int::from_i128(c) * x });
        }
        if l.constant != 0 || parts.is_empty() {
            parts.push(Int::from_i128(l.constant));
        }
        if parts.len() == 1 {
            parts.pop().expect("one part")
        } else {
            Int::add(&parts)
        }
    }

    /// An atom.
    pub fn atom(&mut self, space: Space, a: &Atom) -> Bool {
        let l = self.lin(space, &a.lhs);
        let r = Int::from_i128(a.rhs);
        match a.rel {
            Rel::Le => l.le(&r),
            Rel::Eq => l.eq(&r),
            Rel::Mod(k) => l.modulo(Int::from_i128(k)).eq(&r),
        }
    }

    /// A formula; location literals must have been resolved before.
    pub fn formula(&mut self, space: Space, f: &Formula<Atom>) -> Bool {
        match f {
            Formula::True => Bool::from_bool(true),
            Formula::False => Bool::from_bool(false),
            Formula::Lit(a, pos) => {
                let b = self.atom(space, a);
                if *pos {
                    b
                } else {
                    b.not()
                }
            }
            Formula::At(..) => panic!("location literal reached the prover"),
            Formula::And(v) => {
                let parts: Vec<Bool> = v.iter().map(|x| self.formula(space, x)).collect();
                Bool::and(&parts)
            }
            Formula::Or(v) => {
                let parts: Vec<Bool> = v.iter().map(|x| self.formula(space, x)).collect();
                Bool::or(&parts)
            }
        }
    }

    /// Lowers the prover's timeout to the time left when that is less: a
    /// query made late in a run would otherwise have the whole budget the
    /// solver was made with, and run past the deadline (a `--engine bmc`
    /// run of `--timeout 30` took 60 s). The time left is in whole seconds,
    /// so the setting changes at most once a second.
    fn tighten_timeout(&mut self) {
        let ms = timeout_ms(self.deadline);
        let pooled = self
            .pooled
            .as_mut()
            .expect("the solver lives as long as `Smt`");
        if ms < pooled.timeout_ms {
            let mut params = Params::new();
            params.set_u32("timeout", ms);
            pooled.solver.set_params(&params);
            pooled.timeout_ms = ms;
        }
    }

    fn guard_time(&self) -> Result<(), SmtError> {
        if self.out_of_time() {
            Err(SmtError::Timeout)
        } else {
            Ok(())
        }
    }

    fn interpret(&self, r: SatResult) -> Result<bool, SmtError> {
        match r {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => {
                if self.out_of_time() {
                    Err(SmtError::Timeout)
                } else {
                    let why = self
                        .solver()
                        .get_reason_unknown()
                        .unwrap_or_else(|| "no reason given".into());
                    Err(SmtError::Unknown(why))
                }
            }
        }
    }

    /// Opens a scope for [`Smt::assert`].
    pub fn push(&mut self) {
        self.depth += 1;
        self.solver().push();
    }

    /// Closes the innermost scope.
    pub fn pop(&mut self) {
        self.depth -= 1;
        self.solver().pop(1);
    }

    /// Opens `scope` if it is not open yet: pushes a scope and lets
    /// `context` assert into it.
    pub fn enter(&mut self, scope: &mut LazyScope, context: impl FnOnce(&mut Smt)) {
        if !scope.open {
            self.push();
            context(self);
            scope.open = true;
        }
    }

    /// Closes `scope` if it was opened.
    pub fn leave(&mut self, scope: LazyScope) {
        if scope.open {
            self.pop();
        }
    }

    /// Adds a constraint in the current scope.
    pub fn assert(&mut self, b: &Bool) {
        self.solver().assert(b);
    }

    /// Whether the asserted constraints are satisfiable.
    pub fn check(&mut self) -> Result<bool, SmtError> {
        self.guard_time()?;
        self.tighten_timeout();
        self.queries += 1;
        let r = self.solver().check();
        let r = self.interpret(r);
        if r.is_err() {
            self.failed = true;
        }
        r
    }

    /// Whether `constraints` are satisfiable (in a scope of their own).
    pub fn is_sat(&mut self, constraints: &[Bool]) -> Result<bool, SmtError> {
        self.push();
        for c in constraints {
            self.assert(c);
        }
        let r = self.check();
        self.pop();
        r
    }

    /// A model of the asserted constraints, if they are satisfiable.
    ///
    /// A satisfiable query whose model Z3 does not give (an interrupted
    /// context gives none) is an error, never "unsatisfiable": callers
    /// enumerate models until there are none, and stopping early would drop
    /// reachable states.
    pub fn check_model(&mut self) -> Result<Option<Model>, SmtError> {
        if !self.check()? {
            return Ok(None);
        }
        match self.solver().get_model() {
            Some(m) => Ok(Some(m)),
            None => Err(self.lost("no model of a satisfiable query")),
        }
    }

    /// The truth value of `b` in `model`; an error when Z3 cannot evaluate
    /// it (never a default value).
    pub fn bool_value(&mut self, model: &Model, b: &Bool) -> Result<bool, SmtError> {
        match model.eval(b, true).and_then(|v| v.as_bool()) {
            Some(v) => Ok(v),
            None => Err(self.lost("no model value of a predicate")),
        }
    }

    /// The error for an answer Z3 did not give: the deadline or a
    /// cancellation when either has come (Z3 was interrupted), else `what`.
    fn lost(&mut self, what: &str) -> SmtError {
        self.failed = true;
        if self.out_of_time() {
            SmtError::Timeout
        } else {
            SmtError::Unknown(what.into())
        }
    }

    /// The value of a symbol in a model (0 when the model leaves it free).
    pub fn value(&mut self, model: &Model, space: Space, s: Sym) -> Result<i128, SmtError> {
        let c = self.constant(space, s);
        self.int_value(model, &c)
    }

    /// The value of an integer term in a model (free constants taken as 0).
    pub fn int_value(&mut self, model: &Model, t: &Int) -> Result<i128, SmtError> {
        if self.out_of_time() {
            return Err(SmtError::Timeout);
        }
        let v = model.eval(t, true);
        v.as_ref().and_then(|v| v.as_i128()).ok_or_else(|| {
            SmtError::Unsupported(format!(
                "a model value does not fit in 128 bits ({})",
                v.map(|v| v.to_string()).unwrap_or_default()
            ))
        })
    }

    /// Eliminates the existentially quantified symbols `bound` from `f`
    /// (Z3's `qe` tactic) and translates the result back to a formula.
    pub fn eliminate_exists(
        &mut self,
        space: Space,
        bound: &[Sym],
        f: &Formula<Atom>,
    ) -> Result<Formula<Atom>, SmtError> {
        self.guard_time()?;
        let body = self.formula(space, f);
        let consts: Vec<Int> = bound.iter().map(|&s| self.constant(space, s)).collect();
        let dyn_bound: Vec<&dyn Ast> = consts.iter().map(|c| c as &dyn Ast).collect();
        let q = if bound.is_empty() {
            body
        } else {
            z3::ast::exists_const(&dyn_bound, &[], &body)
        };
        self.queries += 1;
        let goal = Goal::new(false, false, false);
        goal.assert(&q);
        let tactic = Tactic::new("qe").and_then(&Tactic::new("simplify"));
        let result = tactic.apply(&goal, None).map_err(SmtError::Unknown)?;
        let mut disjuncts = Vec::new();
        for sub in result.list_subgoals() {
            let mut conj = Vec::new();
            for g in sub.get_formulas() {
                conj.push(self.decode_bool(space, &Dynamic::from_ast(&g))?);
            }
            disjuncts.push(Formula::and(conj));
        }
        Ok(Formula::or(disjuncts))
    }

    fn decode_bool(&mut self, space: Space, e: &Dynamic) -> Result<Formula<Atom>, SmtError> {
        let unsupported = || SmtError::Unsupported(e.to_string());
        if let Some(b) = e.as_bool().and_then(|b| b.as_bool()) {
            return Ok(if b { Formula::True } else { Formula::False });
        }
        if !e.is_app() {
            return Err(unsupported());
        }
        let name = e.decl().name();
        let args = e.children();
        let lin_args = |me: &mut Self| -> Result<Vec<Lin>, SmtError> {
            args.iter().map(|a| me.decode_int(space, a)).collect()
        };
        let cmp = |me: &mut Self, f: fn(&Lin, &Lin) -> Formula<Atom>| -> Result<_, SmtError> {
            let l = lin_args(me)?;
            if l.len() != 2 {
                return Err(unsupported());
            }
            Ok(f(&l[0], &l[1]))
        };
        match name.as_str() {
            "and" => Ok(Formula::and(
                args.iter()
                    .map(|a| self.decode_bool(space, a))
                    .collect::<Result<Vec<_>, _>>()?,
            )),
            "or" => Ok(Formula::or(
                args.iter()
                    .map(|a| self.decode_bool(space, a))
                    .collect::<Result<Vec<_>, _>>()?,
            )),
            "not" if args.len() == 1 => {
                Ok(crate::linear::negate(&self.decode_bool(space, &args[0])?))
            }
            "=>" if args.len() == 2 => {
                let a = self.decode_bool(space, &args[0])?;
                let b = self.decode_bool(space, &args[1])?;
                Ok(Formula::or([crate::linear::negate(&a), b]))
            }
            "<=" => cmp(self, |a, b| {
                crate::linear::compare(crate::ir::CmpOp::Le, a, b)
            }),
            ">=" => cmp(self, |a, b| {
                crate::linear::compare(crate::ir::CmpOp::Ge, a, b)
            }),
            "<" => cmp(self, |a, b| {
                crate::linear::compare(crate::ir::CmpOp::Lt, a, b)
            }),
            ">" => cmp(self, |a, b| {
                crate::linear::compare(crate::ir::CmpOp::Gt, a, b)
            }),
            "=" if args.len() == 2 && args[0].as_int().is_some() => {
                // `(= (mod e k) r)` is a divisibility constraint.
                for (m, other) in [(&args[0], &args[1]), (&args[1], &args[0])] {
                    if m.is_app() && m.decl().name() == "mod" {
                        let inner = m.children();
                        let k = inner
                            .get(1)
                            .and_then(|k| k.as_int())
                            .and_then(|k| k.as_i64())
                            .ok_or_else(unsupported)?;
                        let r = other
                            .as_int()
                            .and_then(|r| r.as_i64())
                            .ok_or_else(unsupported)?;
                        let e = self.decode_int(space, &inner[0])?;
                        if k == 0 {
                            return Err(unsupported());
                        }
                        let n =
                            Atom::mod_zero(&e.add_scaled(-1, &Lin::constant(r as i128)), k as i128);
                        return Ok(crate::linear::norm_to_formula(n, true));
                    }
                }
                cmp(self, |a, b| {
                    crate::linear::compare(crate::ir::CmpOp::Eq, a, b)
                })
            }
            _ => Err(unsupported()),
        }
    }

    fn decode_int(&mut self, space: Space, e: &Dynamic) -> Result<Lin, SmtError> {
        let unsupported = || SmtError::Unsupported(e.to_string());
        let i = e.as_int().ok_or_else(unsupported)?;
        if let Some(v) = i.as_i128() {
            return Ok(Lin::constant(v));
        }
        if !e.is_app() {
            return Err(unsupported());
        }
        let name = e.decl().name();
        let args = e.children();
        if args.is_empty() {
            let prefix = match space {
                Space::State => 'x',
                Space::Symbolic => 's',
            };
            let s = name
                .strip_prefix(prefix)
                .and_then(|n| n.parse::<Sym>().ok())
                .ok_or_else(unsupported)?;
            return Ok(Lin::sym(s));
        }
        let lins: Vec<Lin> = args
            .iter()
            .map(|a| self.decode_int(space, a))
            .collect::<Result<_, _>>()?;
        match name.as_str() {
            "+" => Ok(lins
                .iter()
                .fold(Lin::constant(0), |acc, l| acc.add_scaled(1, l))),
            "-" if lins.len() == 1 => Ok(lins[0].scale(-1)),
            "-" => Ok(lins[1..]
                .iter()
                .fold(lins[0].clone(), |acc, l| acc.add_scaled(-1, l))),
            "*" => {
                let mut acc = Lin::constant(1);
                for l in &lins {
                    acc = match (acc.as_constant(), l.as_constant()) {
                        (Some(k), _) => l.scale(k),
                        (_, Some(k)) => acc.scale(k),
                        _ => return Err(unsupported()),
                    };
                }
                Ok(acc)
            }
            _ => Err(unsupported()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::CmpOp;
    use crate::linear::compare;

    #[test]
    fn a_query_made_late_is_given_the_time_left_only() {
        let mut smt = Smt::new(Some(Instant::now() + std::time::Duration::from_secs(100)));
        let timeout = |smt: &Smt| smt.pooled.as_ref().map(|p| p.timeout_ms);
        assert_eq!(timeout(&smt), Some(100_000));
        // Later in the run: two seconds are left.
        smt.deadline = Some(Instant::now() + std::time::Duration::from_millis(1_500));
        assert_eq!(smt.check(), Ok(true));
        assert_eq!(timeout(&smt), Some(2_000));
    }

    #[test]
    fn quantifier_elimination_gives_linear_atoms() {
        let mut smt = Smt::new(None);
        // ∃v. v <= y && x <= v  ==  x <= y
        let v = Lin::sym(2);
        let f = Formula::and([
            compare(CmpOp::Le, &v, &Lin::sym(1)),
            compare(CmpOp::Le, &Lin::sym(0), &v),
        ]);
        let g = smt.eliminate_exists(Space::State, &[2], &f).unwrap();
        let expect = compare(CmpOp::Le, &Lin::sym(0), &Lin::sym(1));
        // Same meaning: check equivalence with the prover.
        let a = smt.formula(Space::State, &g);
        let b = smt.formula(Space::State, &expect);
        assert!(!smt.is_sat(&[a.eq(&b).not()]).unwrap());
    }

    #[test]
    fn quantifier_elimination_keeps_divisibility() {
        let mut smt = Smt::new(None);
        // ∃v. 2v == x  ==  x ≡ 0 (mod 2)
        let f = compare(CmpOp::Eq, &Lin::sym(1).scale(2), &Lin::sym(0));
        let g = smt.eliminate_exists(Space::State, &[1], &f).unwrap();
        let mut atoms = Vec::new();
        g.for_each_atom(&mut |a: &Atom| atoms.push(a.clone()));
        assert!(atoms.iter().any(|a| matches!(a.rel, Rel::Mod(2))), "{g:?}");
    }
}
