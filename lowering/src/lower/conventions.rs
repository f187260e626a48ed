//! Other verifiers' harness conventions: CBMC's `__CPROVER_assert`,
//! `__CPROVER_assume`, `__CPROVER_atomic_begin/end` and
//! `__CPROVER_ASYNC_n: f(a);` thread spawns, ESBMC's `__ESBMC_assume`,
//! `__ESBMC_assert` and `__ESBMC_atomic_begin/end`, CBMC's
//! `__CPROVER_fence` and ESBMC's `__ESBMC_yield` (no-ops under sequential
//! consistency), `assert(c)` called
//! without `<assert.h>`, `nondet_*()` functions without a body (any
//! value of their declared return type; `int` when undeclared), and
//! CBMC's `__CPROVER_uninterpreted_*` functions (any value of their
//! integer return type per call, an abstracted value: SOUNDNESS.md,
//! "Uninterpreted functions").

use engine::ir::{CmpOp, Term};
use frontend::lang_c::ast::{DerivedDeclarator, Expression, Statement};
use frontend::lang_c::span::{Node, Span};

use super::expr::{Res, Val};
use super::{Lowerer, ObjId, ERROR};
use crate::cfg::EdgeKind;
use crate::error::{LowerError, Result};
use crate::term::{and, cmp, not, within};
use crate::types::{CType, IntTy, Types};

/// The label prefix of CBMC's thread spawns.
pub(crate) const ASYNC_PREFIX: &str = "__CPROVER_ASYNC_";

/// The name prefix of CBMC's uninterpreted functions.
const UNINTERPRETED_PREFIX: &str = "__CPROVER_uninterpreted_";

/// Functions this module lowers (when the program does not define them).
pub(crate) fn is_harness_builtin(name: &str) -> bool {
    name.starts_with("nondet_")
        || name.starts_with(UNINTERPRETED_PREFIX)
        || matches!(
            name,
            "__CPROVER_assert"
                | "__CPROVER_assume"
                | "__CPROVER_atomic_begin"
                | "__CPROVER_atomic_end"
                | "__ESBMC_assert"
                | "__ESBMC_assume"
                | "__ESBMC_atomic_begin"
                | "__ESBMC_atomic_end"
                | "__CPROVER_fence"
                | "__ESBMC_yield"
                | "assert"
        )
}

impl Lowerer<'_> {
    /// Lowers a call of a harness convention; `None` when `name` is not one
    /// (or the program defines it).
    pub(crate) fn harness_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        if !is_harness_builtin(name) || self.function_exists(name) {
            return Ok(None);
        }
        if name.starts_with(UNINTERPRETED_PREFIX) {
            return self.uninterpreted_call(name, args, span).map(Some);
        }
        let void = Val::term(Term::Const(0), CType::Void);
        let arg0 = || {
            args.first()
                .ok_or_else(|| LowerError::invalid(span, format!("`{name}` needs an argument")))
        };
        Ok(Some(match name {
            "__CPROVER_assert" | "__ESBMC_assert" | "assert" => {
                // The message (a string) is not evaluated.
                let v = self.eval(arg0()?)?;
                let (t, f, ub) = self.truth(&v);
                self.guarded_continue(t, vec![(f, ERROR)], ub, span, false);
                void
            }
            "__CPROVER_assume" | "__ESBMC_assume" => {
                let v = self.eval(arg0()?)?;
                let (t, _, ub) = self.truth(&v);
                self.guarded_continue(t, vec![], ub, span, true);
                void
            }
            "__CPROVER_atomic_begin" | "__ESBMC_atomic_begin" => {
                self.atomic_edge(EdgeKind::AtomicBegin, span);
                void
            }
            "__CPROVER_atomic_end" | "__ESBMC_atomic_end" => {
                self.atomic_edge(EdgeKind::AtomicEnd, span);
                void
            }
            // A memory fence, a scheduling hint: nothing under sequential
            // consistency (the fence's arguments name kinds of accesses).
            "__CPROVER_fence" | "__ESBMC_yield" => void,
            _ => self.nondet_call(name, span)?,
        }))
    }

    /// The declared return type of a function without a body (`int` when
    /// it is not declared: C89's implicit declaration).
    fn declared_return_type(&mut self, name: &str, span: Span) -> Result<CType> {
        let Some(g) = self.fn_decls.get(name).cloned() else {
            return Ok(CType::Int(IntTy::INT));
        };
        let specs = Types::specifiers(g.specs);
        let base = self.base_type(&specs, span)?;
        let mut d = g.decl.node.declarator.node.clone();
        if let Some(pos) = d.derived.iter().position(|dd| {
            matches!(
                dd.node,
                DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
            )
        }) {
            d.derived.remove(pos);
        }
        Ok(self.declarator_type(base, &d)?.1)
    }

    /// `__CPROVER_uninterpreted_f(a, ...)`: CBMC's fixed unknown function
    /// of its arguments. The arguments are evaluated; the result is any
    /// value of the integer return type, an abstracted value (the model
    /// does not make two calls with equal arguments agree, so a
    /// counterexample that observes one is `unknown`); a floating-point
    /// result is the placeholder of `floats`.
    fn uninterpreted_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Val> {
        self.evaluate_ignored(name, args, span)?;
        match self.declared_return_type(name, span)? {
            CType::Int(t) => Ok(Val::term(self.abstract_choice(t), CType::Int(t))),
            ty @ CType::Float(_) => Ok(super::floats::placeholder(ty)),
            CType::Void => Ok(Val::term(Term::Const(0), CType::Void)),
            _ => Err(LowerError::unsupported(
                span,
                format!("`{name}` returns a type uninterpreted functions are not modelled for"),
            )),
        }
    }

    /// Whether a function is declared (with or without a body).
    pub(super) fn declared_function(&self, name: &str) -> bool {
        self.fn_decls.contains_key(name) || self.function_exists(name)
    }

    /// `nondet_T()` without a body: any value of its return type.
    pub(super) fn nondet_call(&mut self, name: &str, span: Span) -> Result<Val> {
        let ty = self.declared_return_type(name, span)?;
        let (lo, hi) = match &ty {
            CType::Int(i) => (i.min(), i.max()),
            CType::Ptr(_) => (0, super::tails::POINTER_MAX.into()),
            CType::Void => return Ok(Val::term(Term::Const(0), CType::Void)),
            // Any floating-point value: the abstract one (`floats`).
            CType::Float(_) => return Ok(super::floats::placeholder(ty)),
            _ => {
                return Err(LowerError::unsupported(
                    span,
                    format!(
                        "`{name}` returns a type whose nondeterministic values are not modelled"
                    ),
                ))
            }
        };
        let tmp = self.temp(&ty);
        self.vars[tmp.index()].meta.origin = crate::VarOrigin::Nondet {
            function: name.to_string(),
            call: span,
        };
        self.t.pending_havoc.push(tmp);
        self.t.pending_guard.push(within(&Term::Var(tmp), lo, hi));
        Ok(Val::term(Term::Var(tmp), ty))
    }

    /// `__CPROVER_ASYNC_n: f(a);`: starts a thread running `f(a)` (one
    /// thread instance per site, like `pthread_create`); on another
    /// statement (a block, an assignment, a call of a function the file
    /// does not define), a thread running that statement with the locals
    /// in scope ([`Lowerer::new_async_thread`]).
    pub(crate) fn async_spawn(&mut self, s: &Node<Statement>, span: Span) -> Result<()> {
        let call = match &s.node {
            Statement::Expression(Some(e)) => match &e.node {
                Expression::Call(call) => self
                    .function_name(&call.node.callee)
                    .filter(|f| self.function_exists(f) && call.node.arguments.len() <= 1)
                    .map(|f| (f, call)),
                _ => None,
            },
            _ => None,
        };
        let Some((func, call)) = call else {
            let k = self.new_async_thread(s, span);
            return self.start_async(k, None, Val::int(0), span);
        };
        let argv = match call.node.arguments.first() {
            Some(a) => Some(self.eval(a)?),
            None => None,
        };
        let k = self.new_thread(&func, span)?;
        let param = self.threads[k].param;
        let argv = match (param, argv) {
            (Some(o), Some(a)) => {
                let ty = self.objects[o].ty.clone();
                self.convert(a, &ty, span)?
            }
            (Some(_), None) => {
                return Err(LowerError::unsupported(
                    span,
                    format!("`{func}` called without its argument"),
                ))
            }
            (None, _) => Val::int(0),
        };
        self.start_async(k, param, argv, span)
    }

    /// The step that starts thread instance `k` (its `run` flag, and its
    /// parameter `param` set to `argv`), once: a second run of the spawn
    /// gives up.
    fn start_async(&mut self, k: usize, param: Option<ObjId>, argv: Val, span: Span) -> Result<()> {
        let run = self.threads[k]
            .run
            .expect("created threads have a run flag");
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let next = self.new_loc(None);
        let not_yet = cmp(CmpOp::Eq, Term::Var(run), Term::Const(0));
        for (c, r) in &argv.cases {
            match r {
                Res::Ub(u) => self.give_up_edge(cur, c.clone(), u, span),
                Res::Val(a) => {
                    let mut assigns = vec![(run, Term::Const(1))];
                    if let Some(o) = param {
                        assigns.push((self.objects[o].cells[0], a.clone()));
                    }
                    self.plain_edge(
                        cur,
                        next,
                        and(c.clone(), not_yet.clone()),
                        assigns,
                        Some(span),
                    );
                }
            }
        }
        self.give_up_edge(
            cur,
            not(not_yet),
            "a thread spawn ran more than once (unbounded thread creation is not modelled)",
            span,
        );
        self.flush();
        self.t.cur = Some(next);
        Ok(())
    }
}
