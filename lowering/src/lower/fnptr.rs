//! Function pointers: every function whose name is used as a value (not
//! only called) gets an address of its own, and a call through a pointer
//! is a case split over those functions with as many parameters as the
//! call has arguments (each inlined in its branch); a pointer that matches
//! none of them (or a function already being inlined: recursion through a
//! pointer) gives up.

use std::collections::{BTreeMap, HashSet};

use engine::ir::{CmpOp, Cond, Term};
use frontend::lang_c::ast::{Expression, UnaryOperator};
use frontend::lang_c::span::{Node, Span};
use frontend::lang_c::visit::{self, Visit};

use super::expr::Val;
use super::Lowerer;
use crate::error::Result;
use crate::term::{any, cmp, not};
use crate::types::CType;

/// Names used as values: identifiers in expressions other than the callee
/// of a direct call.
pub(crate) struct ValueNames<'n>(pub &'n mut HashSet<String>);

impl<'ast> Visit<'ast> for ValueNames<'_> {
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        match e {
            Expression::Identifier(id) => {
                self.0.insert(id.node.name.clone());
            }
            Expression::Call(c) if matches!(c.node.callee.node, Expression::Identifier(_)) => {
                for a in &c.node.arguments {
                    self.visit_expression(&a.node, &a.span);
                }
            }
            _ => visit::visit_expression(self, e, span),
        }
    }
}

impl Lowerer<'_> {
    /// Gives the functions used as values their addresses.
    pub(crate) fn function_addresses(&mut self, used: &HashSet<String>) {
        let mut names: Vec<&String> = used
            .iter()
            .filter(|n| self.functions.contains_key(*n))
            .collect();
        names.sort();
        let mut addrs = BTreeMap::new();
        for n in names {
            addrs.insert(n.clone(), self.next_addr);
            self.next_addr += 2;
        }
        self.fn_addrs = addrs;
    }

    /// The value of a function designator: its address.
    pub(crate) fn function_value(&self, name: &str) -> Val {
        let a = self.fn_addrs.get(name).copied().unwrap_or(0);
        Val::term(Term::Const(a), CType::Func)
    }

    /// A call through a function pointer (`fp(...)`, `(*fp)(...)`).
    pub(crate) fn indirect_call(
        &mut self,
        callee: &Node<Expression>,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Val> {
        let mut callee = callee;
        loop {
            match &callee.node {
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    callee = &u.node.operand;
                }
                _ => break,
            }
        }
        let f = self.eval(callee)?;
        let f = self.materialize(f, span)?;
        let vals = self.eval_args(args)?;
        self.call_pointer(f, vals, span)
    }

    /// A call of the function whose address `f` holds, with evaluated
    /// arguments: a branch per function of the file with that many
    /// parameters whose address is taken, and a give-up for any other
    /// value.
    pub(crate) fn call_pointer(&mut self, f: Val, vals: Vec<Val>, span: Span) -> Result<Val> {
        let v = self.materialize(f, span)?;
        let ptr = match v.cases.as_slice() {
            [(Cond::True, super::expr::Res::Val(t))] => t.clone(),
            _ => unreachable!("a materialized value is one term"),
        };
        let mut cands = Vec::new();
        for (name, &addr) in &self.fn_addrs.clone() {
            let def = self.functions[name];
            // A function being inlined is not called again through a
            // pointer (recursion is unrolled for direct calls only: every
            // start routine would otherwise be a candidate of every
            // pointer call in its thread): its value takes the give-up
            // branch.
            let active = self.t.frames.iter().any(|f| f.func == *name);
            if !active && self.params(def)?.len() == vals.len() {
                cands.push((name.clone(), addr, def));
            }
        }
        let ret_ty = match cands.first() {
            Some((_, _, def)) => self.return_type(def)?,
            None => CType::Void,
        };
        let result = match ret_ty {
            CType::Void => None,
            ref t => Some(self.temp(t)),
        };
        let Some(cur) = self.t.cur else {
            self.flush();
            return Ok(Val::term(Term::Const(0), ret_ty));
        };
        let join = self.new_loc(Some(span));
        let mut hits = Vec::new();
        for (name, addr, def) in cands {
            let at = cmp(CmpOp::Eq, ptr.clone(), Term::Const(addr));
            hits.push(at.clone());
            let entry = self.new_loc(Some(span));
            self.plain_edge(cur, entry, at, vec![], Some(span));
            self.flush();
            self.t.cur = Some(entry);
            let r = self.inline_values(&name, def, vals.clone(), span)?;
            if let Some(tmp) = result {
                let r = self.convert(r, &ret_ty, span)?;
                self.assign_temp(tmp, r, span)?;
            }
            if let Some(c) = self.t.cur {
                self.plain_edge(c, join, Cond::True, vec![], Some(span));
            }
            self.flush();
        }
        self.give_up_edge(
            cur,
            not(any(hits)),
            "call through a function pointer that matches no function of its arity",
            span,
        );
        self.flush();
        self.t.cur = Some(join);
        Ok(match result {
            Some(tmp) => Val::term(Term::Var(tmp), ret_ty),
            None => Val::term(Term::Const(0), CType::Void),
        })
    }
}
