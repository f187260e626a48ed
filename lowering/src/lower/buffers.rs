//! Write-only heap buffers: a pointer variable `p` that the program only
//! ever assigns an allocation (`p = malloc(n * sizeof(T))`,
//! `p = calloc(n, sizeof(T))`), stores through by indexing (`p[i] = e`)
//! and frees, and uses in no other way. Nothing reads the buffer's
//! contents, nor `p` itself, so neither needs a model: the length `n`
//! (which may be known at run time only) is kept in a shared variable, and
//! a store evaluates its index and value and checks the index against the
//! length (outside: undefined behaviour, which gives up). SOUNDNESS.md,
//! "Write-only buffers".

use std::collections::HashSet;

use engine::ir::{CmpOp, Term};
use frontend::lang_c::ast::{BinaryOperator as B, CallExpression, Expression, Identifier};
use frontend::lang_c::span::{Node, Span};
use frontend::lang_c::visit::{self, Visit};

use super::expr::{Res, Val};
use super::heap::{is_sizeof, sizeof_times};
use super::{Lowerer, Ub};
use crate::error::{LowerError, Result};
use crate::term::{and, any, cmp};
use crate::types::{CType, IntTy};
use crate::Violation;

/// The callee of a call expression (through casts): `malloc` or `calloc`.
pub(super) fn allocation(e: &Expression) -> Option<&CallExpression> {
    match e {
        Expression::Cast(c) => allocation(&c.node.expression.node),
        Expression::Call(c) => match &c.node.callee.node {
            Expression::Identifier(id) if matches!(id.node.name.as_str(), "malloc" | "calloc") => {
                Some(&c.node)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Finds the write-only buffers of a translation unit: names assigned an
/// allocation, and otherwise only indexed on the left of `=` or freed.
#[derive(Default)]
pub(crate) struct WriteOnly {
    allocated: HashSet<String>,
    other_use: HashSet<String>,
}

impl WriteOnly {
    pub(crate) fn names(self) -> HashSet<String> {
        self.allocated
            .difference(&self.other_use)
            .cloned()
            .collect()
    }
}

impl<'ast> Visit<'ast> for WriteOnly {
    fn visit_binary_operator_expression(
        &mut self,
        e: &'ast frontend::lang_c::ast::BinaryOperatorExpression,
        span: &'ast Span,
    ) {
        if e.operator.node == B::Assign {
            match &e.lhs.node {
                Expression::Identifier(p) if allocation(&e.rhs.node).is_some() => {
                    self.allocated.insert(p.node.name.clone());
                    return self.visit_expression(&e.rhs.node, &e.rhs.span);
                }
                Expression::BinaryOperator(b) if b.node.operator.node == B::Index => {
                    if let Expression::Identifier(_) = &b.node.lhs.node {
                        self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
                        return self.visit_expression(&e.rhs.node, &e.rhs.span);
                    }
                }
                _ => {}
            }
        }
        visit::visit_binary_operator_expression(self, e, span);
    }

    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
        if let (Expression::Identifier(f), [arg]) = (&c.callee.node, c.arguments.as_slice()) {
            if f.node.name == "free" && matches!(arg.node, Expression::Identifier(_)) {
                return;
            }
        }
        visit::visit_call_expression(self, c, span);
    }

    fn visit_identifier(&mut self, id: &'ast Identifier, _: &'ast Span) {
        self.other_use.insert(id.name.clone());
    }
}

impl Lowerer<'_> {
    /// Whether `name` is a write-only buffer that this lowering models as
    /// one: not with `--malloc-may-fail` (the pointer would be tested) nor
    /// when data races are checked (the stores would be accesses).
    fn write_only(&self, name: &str) -> bool {
        !self.malloc_may_fail && !self.checks.races && self.write_only.contains(name)
    }

    /// The shared variable holding the length of buffer `name`.
    fn buffer_length(&mut self, name: &str, span: Span) -> Result<engine::ir::VarId> {
        if let Some(&o) = self.buffer_lengths.get(name) {
            return Ok(self.objects[o].cells[0]);
        }
        let c_name = self.unit.display_name(name).to_string();
        let vname = self.unique(&format!("{}.length", super::sanitize(&c_name)));
        let o = self.object(&vname, CType::Int(IntTy::LLONG), Some(0), span)?;
        self.objects[o].owner = None;
        self.name_object(o, &format!("{c_name}.length"), None, None);
        self.buffer_lengths.insert(name.to_string(), o);
        Ok(self.objects[o].cells[0])
    }

    /// `lhs = rhs` when `lhs` is a write-only buffer or an element of one:
    /// `Ok(true)` when lowered here.
    pub(crate) fn buffer_assign(
        &mut self,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        span: Span,
    ) -> Result<bool> {
        match &lhs.node {
            Expression::Identifier(p) if self.write_only(&p.node.name) => {
                let Some(call) = allocation(&rhs.node) else {
                    return Ok(false);
                };
                let count = self.allocated_count(call, span)?;
                let len = self.buffer_length(&p.node.name, span)?;
                if self.checks.memsafety || self.checks.memcleanup {
                    // `p` is the only pointer to its block (it is never
                    // read): a block it still holds is lost.
                    let held = cmp(CmpOp::Ge, Term::Var(len), Term::Const(1));
                    self.give_up_where(
                        held,
                        Ub::violates(
                            Violation::MemTrack,
                            "the only pointer to an allocated heap block is overwritten",
                        ),
                        span,
                    );
                }
                let n = match &count {
                    Some(e) => self.eval(e)?,
                    None => Val::int(1),
                };
                let n = self.convert(n, &CType::Int(IntTy::LLONG), span)?;
                let target = self.whole(self.buffer_lengths[&p.node.name]);
                self.store(target, n, span)?;
                // malloc(0) and negative counts: nothing to store into.
                let bad = cmp(CmpOp::Lt, Term::Var(len), Term::Const(1));
                self.give_up_where(
                    bad,
                    "an allocation of no element (or a negative count)",
                    span,
                );
                Ok(true)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == B::Index => {
                let Expression::Identifier(p) = &b.node.lhs.node else {
                    return Ok(false);
                };
                if !self.write_only(&p.node.name) {
                    return Ok(false);
                }
                let len = self.buffer_length(&p.node.name, span)?;
                let index = self.eval(&b.node.rhs)?;
                let index = self.materialize(index, span)?;
                // The value is evaluated (its loads and side effects
                // happen), not stored.
                let value = self.eval(rhs)?;
                self.materialize(value, span)?;
                let mut outside = Vec::new();
                for (c, r) in index.cases {
                    outside.push(match r {
                        Res::Ub(_) => c,
                        Res::Val(i) => and(
                            c,
                            any([
                                cmp(CmpOp::Lt, i.clone(), Term::Const(0)),
                                cmp(CmpOp::Ge, i, Term::Var(len)),
                            ]),
                        ),
                    });
                }
                self.give_up_where(
                    any(outside),
                    Ub::violates(
                        Violation::Deref,
                        "a store outside a heap buffer (out of bounds, freed or not allocated)",
                    ),
                    span,
                );
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// `free(p)` of a write-only buffer: `Ok(true)` when lowered here (a
    /// buffer freed or never allocated gives up; later stores give up).
    pub(crate) fn buffer_free(&mut self, arg: &Node<Expression>, span: Span) -> Result<bool> {
        let Expression::Identifier(p) = &arg.node else {
            return Ok(false);
        };
        if !self.write_only(&p.node.name) {
            return Ok(false);
        }
        let len = self.buffer_length(&p.node.name, span)?;
        let freed = cmp(CmpOp::Lt, Term::Var(len), Term::Const(1));
        self.give_up_where(freed, "a heap buffer freed twice or never allocated", span);
        let target = self.whole(self.buffer_lengths[&p.node.name]);
        self.store(target, Val::int(0), span)?;
        Ok(true)
    }

    /// The element count of `malloc(n * sizeof(T))`, `malloc(sizeof(T) *
    /// n)` or `calloc(n, sizeof(T))`; `None` for `malloc(sizeof(T))` (one).
    fn allocated_count(
        &mut self,
        call: &CallExpression,
        span: Span,
    ) -> Result<Option<Node<Expression>>> {
        match sized_allocation(call) {
            Some((_, count)) => Ok(count.cloned()),
            None => Err(LowerError::unsupported(
                span,
                "allocation size is not `sizeof(T)`, `n * sizeof(T)` or `calloc(n, sizeof(T))`",
            )),
        }
    }
}

/// `malloc(n * sizeof(T))`, `malloc(sizeof(T) * n)`, `calloc(n,
/// sizeof(T))` or `malloc(sizeof(T))`: the `sizeof` and the count (`None`
/// for one).
pub(super) fn sized_allocation(
    call: &CallExpression,
) -> Option<(&Node<Expression>, Option<&Node<Expression>>)> {
    let Expression::Identifier(id) = &call.callee.node else {
        return None;
    };
    match (id.node.name.as_str(), call.arguments.as_slice()) {
        ("calloc", [n, size]) if is_sizeof(size) => Some((size, Some(n))),
        ("malloc", [size]) if is_sizeof(size) => Some((size, None)),
        ("malloc", [size]) => sizeof_times(size).map(|(size, n)| (size, Some(n))),
        _ => None,
    }
}

/// The write-only buffers of a unit's function definitions.
pub(crate) fn write_only_buffers<'a>(
    functions: impl Iterator<Item = &'a Node<frontend::lang_c::ast::FunctionDefinition>>,
) -> HashSet<String> {
    let mut w = WriteOnly::default();
    for f in functions {
        w.visit_function_definition(&f.node, &f.span);
    }
    w.names()
}
