//! Statements and local declarations.

use std::collections::HashMap;

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::{
    BinaryOperator as B, BlockItem, Declaration, DeclarationSpecifier, Expression, ForInitializer,
    InitDeclarator, Initializer, Label, Statement, StorageClassSpecifier, UnaryOperator as U,
};
use frontend::lang_c::span::{Node, Span};

use super::expr::{has_effects, is_place_expr, Res, Val};
use super::{sanitize, Binding, Lowerer, ObjId};
use crate::cfg::Loc;
use crate::error::{LowerError, Result};
use crate::term::{any, cmp, not, within, Range};
use crate::types::{CType, Types};

impl Lowerer<'_> {
    /// Makes sure there is a current location (code after a jump is
    /// unreachable unless a label makes it reachable).
    pub(super) fn ensure_cur(&mut self, span: Span) -> Loc {
        match self.t.cur {
            Some(l) => l,
            None => {
                let l = self.new_loc(Some(span));
                self.t.cur = Some(l);
                l
            }
        }
    }

    /// Decides whether the shared reads of an expression go through
    /// temporaries: when it may access shared memory more than once, so
    /// that every transition performs at most one shared access.
    pub(super) fn set_split(&mut self, exprs: &[&Node<Expression>]) -> Result<()> {
        let mut n = 0;
        for e in exprs {
            n += self.accesses(e)?;
        }
        self.t.split = n > 1;
        Ok(())
    }

    /// An over-approximation of the shared accesses of an expression.
    pub(crate) fn accesses(&mut self, e: &Node<Expression>) -> Result<usize> {
        Ok(match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name)? {
                Some(Binding::Obj(o)) if self.maybe_shared(o) => 1,
                _ => 0,
            },
            Expression::Constant(_)
            | Expression::StringLiteral(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_) => 0,
            Expression::Member(m) => {
                let base = self.accesses(&m.node.expression)?;
                base + usize::from(
                    m.node.operator.node == frontend::lang_c::ast::MemberOperator::Indirect,
                )
            }
            Expression::Call(c) => {
                let mut n = 0;
                for a in &c.node.arguments {
                    n += self.accesses(a)?;
                }
                let builtin = matches!(&c.node.callee.node, Expression::Identifier(id) if super::call::is_builtin(&id.node.name));
                n + if builtin { 1 } else { 2 }
            }
            Expression::Cast(c) => self.accesses(&c.node.expression)?,
            Expression::UnaryOperator(u) => {
                let inner = match (&u.node.operator.node, &u.node.operand.node) {
                    // `&x` does not access x.
                    (U::Address, Expression::Identifier(_)) => 0,
                    _ => self.accesses(&u.node.operand)?,
                };
                inner
                    + match u.node.operator.node {
                        U::Indirection => 1,
                        U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement => {
                            inner
                        }
                        _ => 0,
                    }
            }
            Expression::BinaryOperator(b) => {
                let l = self.accesses(&b.node.lhs)?;
                let r = self.accesses(&b.node.rhs)?;
                l + r
                    + match b.node.operator.node {
                        B::Index => 1,
                        B::Assign => 0,
                        B::AssignPlus
                        | B::AssignMinus
                        | B::AssignMultiply
                        | B::AssignDivide
                        | B::AssignModulo
                        | B::AssignShiftLeft
                        | B::AssignShiftRight
                        | B::AssignBitwiseAnd
                        | B::AssignBitwiseOr
                        | B::AssignBitwiseXor => l,
                        _ => 0,
                    }
            }
            Expression::Conditional(c) => {
                self.accesses(&c.node.condition)?
                    + self.accesses(&c.node.then_expression)?
                    + self.accesses(&c.node.else_expression)?
            }
            Expression::Comma(es) => {
                let mut n = 0;
                for x in es.iter() {
                    n += self.accesses(x)?;
                }
                n
            }
            _ => 2,
        })
    }

    /// Lowers a statement; one that uses a construct that is not modelled
    /// gives up where it starts ([`super::guard`]).
    pub(crate) fn stmt(&mut self, s: &Node<Statement>) -> Result<()> {
        let guardable = !super::guard::has_labels(s);
        self.guarded(s.span, guardable, |me| me.stmt_unguarded(s))
            .map(|_| ())
    }

    /// A local declaration; one that is not modelled gives up where it
    /// starts, and its names are poisoned (a use of one is not modelled).
    fn guarded_declaration(&mut self, d: &Node<Declaration>) -> Result<()> {
        if let Some(why) = self.guarded(d.span, true, |me| me.local_declaration(d))? {
            for id in &d.node.declarators {
                if let Some(name) = super::declarator_name(&id.node.declarator.node) {
                    self.bind(name, Binding::Poison(why.clone()));
                }
            }
        }
        Ok(())
    }

    fn stmt_unguarded(&mut self, s: &Node<Statement>) -> Result<()> {
        let span = s.span;
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.guarded_declaration(d)?,
                        BlockItem::Statement(st) => self.stmt(st)?,
                        BlockItem::StaticAssert(_) => {}
                    }
                }
                self.pop_scope();
            }
            Statement::Expression(None) => {}
            Statement::Expression(Some(e)) => {
                self.ensure_cur(span);
                self.set_split(&[e])?;
                self.effect(e)?;
                self.settle_reads(span);
            }
            Statement::If(i) => {
                self.ensure_cur(span);
                let (lt, lf, join) = (
                    self.new_loc(Some(i.node.then_statement.span)),
                    self.new_loc(None),
                    self.new_loc(None),
                );
                self.set_split(&[&i.node.condition])?;
                self.branch(&i.node.condition, lt, lf)?;
                self.t.cur = Some(lt);
                self.stmt(&i.node.then_statement)?;
                self.goto(join);
                self.t.cur = Some(lf);
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e)?;
                }
                self.goto(join);
                self.t.cur = Some(join);
            }
            Statement::While(w) => {
                let head = self.new_loc(Some(w.node.expression.span));
                self.goto(head);
                let (body, exit) = (
                    self.new_loc(Some(w.node.statement.span)),
                    self.new_loc(None),
                );
                self.t.cur = Some(head);
                self.set_split(&[&w.node.expression])?;
                self.branch(&w.node.expression, body, exit)?;
                self.t.jumps.push((exit, Some(head), self.scope_depth()));
                self.t.cur = Some(body);
                self.t.loops += 1;
                self.stmt(&w.node.statement)?;
                self.t.loops -= 1;
                self.goto(head);
                self.t.jumps.pop();
                self.t.cur = Some(exit);
            }
            Statement::DoWhile(d) => {
                let body = self.new_loc(Some(d.node.statement.span));
                self.goto(body);
                let (test, exit) = (
                    self.new_loc(Some(d.node.expression.span)),
                    self.new_loc(None),
                );
                self.t.jumps.push((exit, Some(test), self.scope_depth()));
                self.t.cur = Some(body);
                self.t.loops += 1;
                self.stmt(&d.node.statement)?;
                self.t.loops -= 1;
                self.goto(test);
                self.t.jumps.pop();
                self.t.cur = Some(test);
                self.set_split(&[&d.node.expression])?;
                self.branch(&d.node.expression, body, exit)?;
                self.t.cur = Some(exit);
            }
            Statement::For(f) => {
                self.push_scope();
                self.ensure_cur(span);
                match &f.node.initializer.node {
                    ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                    ForInitializer::Expression(e) => {
                        self.set_split(&[e])?;
                        self.effect(e)?;
                    }
                    ForInitializer::Declaration(d) => self.local_declaration(d)?,
                }
                if let Some(n) = self.unroll_count(f)? {
                    self.unrolled_for(f, n)?;
                } else {
                    let head = self.new_loc(Some(span));
                    self.goto(head);
                    let (body, step, exit) = (
                        self.new_loc(Some(f.node.statement.span)),
                        self.new_loc(None),
                        self.new_loc(None),
                    );
                    self.t.cur = Some(head);
                    match &f.node.condition {
                        Some(c) => {
                            self.set_split(&[c])?;
                            self.branch(c, body, exit)?;
                        }
                        None => self.goto(body),
                    }
                    self.t.jumps.push((exit, Some(step), self.scope_depth()));
                    self.t.cur = Some(body);
                    self.t.loops += 1;
                    self.stmt(&f.node.statement)?;
                    self.t.loops -= 1;
                    self.goto(step);
                    self.t.jumps.pop();
                    self.t.cur = Some(step);
                    if let Some(e) = &f.node.step {
                        self.set_split(&[e])?;
                        self.effect(e)?;
                    }
                    self.goto(head);
                    self.t.cur = Some(exit);
                }
                self.pop_scope();
            }
            Statement::Break => {
                let Some(&(target, _, depth)) = self.t.jumps.last() else {
                    return Err(LowerError::invalid(
                        span,
                        "`break` outside a loop or switch",
                    ));
                };
                self.end_scopes(depth);
                self.goto(target);
                self.t.cur = None;
            }
            Statement::Continue => {
                let Some((target, depth)) =
                    self.t.jumps.iter().rev().find_map(|j| Some((j.1?, j.2)))
                else {
                    return Err(LowerError::invalid(span, "`continue` outside a loop"));
                };
                self.end_scopes(depth);
                self.goto(target);
                self.t.cur = None;
            }
            Statement::Return(e) => {
                self.ensure_cur(span);
                let frame = self.t.frames.last().cloned().expect("a frame");
                if let Some(e) = e {
                    self.set_split(&[e])?;
                    let v = self.eval(e)?;
                    match frame.ret {
                        Some(o) => {
                            let p = self.whole(o);
                            self.store(p, v, e.span)?;
                        }
                        None => {
                            // `return f();` in a void function: evaluated for its effects.
                            let _ = v;
                        }
                    }
                }
                self.end_scopes(0);
                self.goto(frame.exit);
                self.t.cur = None;
            }
            Statement::Goto(label) => {
                self.goto_leaves_pointers(span);
                let target = self.label(&label.node.name);
                self.goto(target);
                self.t.cur = None;
            }
            Statement::Labeled(l) => {
                if let Label::Identifier(id) = &l.node.label.node {
                    if id.node.name.starts_with(super::conventions::ASYNC_PREFIX) {
                        self.ensure_cur(span);
                        return self.async_spawn(&l.node.statement, span);
                    }
                }
                match &l.node.label.node {
                    Label::Identifier(id) => {
                        let target = self.label(&id.node.name);
                        self.goto(target);
                        self.t.cur = Some(target);
                    }
                    Label::Case(_) | Label::Default | Label::CaseRange(_) => {
                        let key = l.node.label.span.start;
                        let target = self
                            .t
                            .cases
                            .last()
                            .and_then(|m| m.get(&key).copied())
                            .ok_or_else(|| {
                                LowerError::invalid(l.node.label.span, "`case` outside a switch")
                            })?;
                        self.goto(target);
                        self.t.cur = Some(target);
                    }
                }
                self.stmt(&l.node.statement)?;
            }
            Statement::Switch(sw) => self.switch(sw, span)?,
            Statement::Asm(a) => {
                if let Some(text) = non_barrier_asm(&a.node) {
                    self.ensure_cur(span);
                    let reason = format!("inline assembly `{text}` is not modelled");
                    self.give_up_where(Cond::True, &reason, span);
                }
            }
        }
        Ok(())
    }

    fn label(&mut self, name: &str) -> Loc {
        if let Some(&l) = self.t.frames.last().and_then(|f| f.labels.get(name)) {
            return l;
        }
        let l = self.new_loc(None);
        if let Some(f) = self.t.frames.last_mut() {
            f.labels.insert(name.to_string(), l);
        }
        l
    }

    fn push_scope(&mut self) {
        if let Some(f) = self.t.frames.last_mut() {
            f.scopes.push(HashMap::new());
        }
    }

    /// Ends the innermost scope: where control falls through its end, its
    /// pointer locals point nowhere any more (`scopes`).
    fn pop_scope(&mut self) {
        self.end_scopes(self.scope_depth().saturating_sub(1));
        if let Some(f) = self.t.frames.last_mut() {
            f.scopes.pop();
        }
    }

    /// Evaluates an expression for its side effects only.
    pub(crate) fn effect(&mut self, e: &Node<Expression>) -> Result<()> {
        let span = e.span;
        match &e.node {
            Expression::BinaryOperator(b) => match b.node.operator.node {
                B::Assign
                | B::AssignPlus
                | B::AssignMinus
                | B::AssignMultiply
                | B::AssignDivide
                | B::AssignModulo
                | B::AssignShiftLeft
                | B::AssignShiftRight
                | B::AssignBitwiseAnd
                | B::AssignBitwiseOr
                | B::AssignBitwiseXor => {
                    self.assign_expr(
                        b.node.operator.node.clone(),
                        &b.node.lhs,
                        &b.node.rhs,
                        span,
                        false,
                    )?;
                    return Ok(());
                }
                B::LogicalAnd | B::LogicalOr if has_effects(&b.node.rhs) => {
                    let (lt, lf, join) =
                        (self.new_loc(None), self.new_loc(None), self.new_loc(None));
                    self.branch(&b.node.lhs, lt, lf)?;
                    let (run, skip) = if b.node.operator.node == B::LogicalAnd {
                        (lt, lf)
                    } else {
                        (lf, lt)
                    };
                    self.t.cur = Some(run);
                    self.effect(&b.node.rhs)?;
                    self.goto(join);
                    self.t.cur = Some(skip);
                    self.goto(join);
                    self.t.cur = Some(join);
                    return Ok(());
                }
                _ => {}
            },
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement
                ) =>
            {
                self.inc_dec(u.node.operator.node.clone(), &u.node.operand, span, false)?;
                return Ok(());
            }
            Expression::Call(c) => {
                self.call(c, span)?;
                return Ok(());
            }
            Expression::Cast(c) => return self.effect(&c.node.expression),
            Expression::Comma(es) => {
                for x in es.iter() {
                    self.effect(x)?;
                }
                return Ok(());
            }
            Expression::Conditional(c)
                if has_effects(&c.node.then_expression) || has_effects(&c.node.else_expression) =>
            {
                let (lt, lf, join) = (self.new_loc(None), self.new_loc(None), self.new_loc(None));
                self.branch(&c.node.condition, lt, lf)?;
                self.t.cur = Some(lt);
                self.effect(&c.node.then_expression)?;
                self.goto(join);
                self.t.cur = Some(lf);
                self.effect(&c.node.else_expression)?;
                self.goto(join);
                self.t.cur = Some(join);
                return Ok(());
            }
            Expression::SizeOfVal(_)
            | Expression::SizeOfTy(_)
            | Expression::Constant(_)
            | Expression::StringLiteral(_) => return Ok(()),
            Expression::Statement(st) => {
                self.statement_expression(st)?;
                return Ok(());
            }
            _ => {}
        }
        if has_effects(e) {
            let v = self.eval(e)?;
            let _ = v;
            return Ok(());
        }
        self.discard(e)
    }

    /// Evaluates an expression without side effects whose value is not
    /// used: its reads (for the race check, C's lvalue conversion reads)
    /// and its undefined behaviour matter. A value the lowering cannot
    /// form (a struct, a floating-point value) still reads its cells.
    pub(crate) fn discard(&mut self, e: &Node<Expression>) -> Result<()> {
        let span = e.span;
        let v = match self.eval(e) {
            Ok(v) => v,
            Err(err) => return self.touch_places(e, &err),
        };
        if let (CType::Struct(_), true) = (&v.ty, is_place_expr(e)) {
            // A struct value is its object's address: C reads its cells.
            return self.touch_place(e);
        }
        let ubs: Vec<(Cond, super::Ub)> = v
            .cases
            .iter()
            .filter_map(|(c, r)| match r {
                Res::Ub(u) => Some((c.clone(), u.clone())),
                Res::Val(_) => None,
            })
            .collect();
        if let Some(cur) = self.t.cur {
            if ubs.is_empty() && self.t.pending_havoc.is_empty() {
                return Ok(());
            }
            let next = self.new_loc(None);
            let ok = not(any(ubs.iter().map(|(c, _)| c.clone())));
            self.plain_edge(cur, next, ok, vec![], Some(span));
            for (c, r) in ubs {
                self.give_up_edge(cur, c, &r, span);
            }
            self.flush();
            self.t.cur = Some(next);
        }
        Ok(())
    }

    /// Records the reads of the objects an expression names, for an
    /// expression whose value cannot be formed (`err`): every cell of each
    /// place it reads. An expression that evaluates operands only
    /// conditionally (`&&`, `||`, `?:`) or calls a function fails with
    /// `err`: which of its reads happen is not known.
    fn touch_places(&mut self, e: &Node<Expression>, err: &LowerError) -> Result<()> {
        match &e.node {
            Expression::Constant(_)
            | Expression::StringLiteral(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_) => Ok(()),
            Expression::Identifier(id) => match self.lookup(&id.node.name)? {
                Some(Binding::Obj(_)) => self.touch_place(e),
                _ => Ok(()),
            },
            Expression::Member(_) | Expression::BinaryOperator(_) if is_place_expr(e) => {
                self.touch_place(e)
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                U::Indirection => self.touch_place(e),
                U::Address => Ok(()),
                U::Plus | U::Minus | U::Complement | U::Negate => {
                    self.touch_places(&u.node.operand, err)
                }
                _ => Err(err.clone()),
            },
            Expression::Cast(c) => self.touch_places(&c.node.expression, err),
            Expression::BinaryOperator(b)
                if !matches!(b.node.operator.node, B::LogicalAnd | B::LogicalOr)
                    && !has_effects(e) =>
            {
                self.touch_places(&b.node.lhs, err)?;
                self.touch_places(&b.node.rhs, err)
            }
            _ => Err(err.clone()),
        }
    }

    /// Records reads of every cell of the place `e` denotes (none for an
    /// array, which decays to its address).
    fn touch_place(&mut self, e: &Node<Expression>) -> Result<()> {
        let p = self.place(e)?;
        if matches!(p.ty, CType::Array(..)) {
            return Ok(());
        }
        let n = self.types.cells(&p.ty);
        for (c, t) in &p.cases {
            if let super::expr::Target::Cell(o, off) = t {
                for i in 0..n {
                    if let Some(&cell) = self.objects[*o].cells.get((*off + i) as usize) {
                        self.note_read(c, *o, cell);
                    }
                }
            }
        }
        Ok(())
    }

    /// `({ ... })`: the value of its last expression statement.
    pub(crate) fn statement_expression(&mut self, s: &Node<Statement>) -> Result<Val> {
        let Statement::Compound(items) = &s.node else {
            return Err(LowerError::unsupported(
                s.span,
                "unsupported statement expression",
            ));
        };
        self.push_scope();
        let mut value = Val::term(Term::Const(0), CType::Void);
        for (i, item) in items.iter().enumerate() {
            match &item.node {
                BlockItem::Statement(Node {
                    node: Statement::Expression(Some(e)),
                    ..
                }) if i + 1 == items.len() => {
                    self.ensure_cur(e.span);
                    self.set_split(&[e])?;
                    value = self.eval(e)?;
                }
                BlockItem::Statement(st) => self.stmt(st)?,
                BlockItem::Declaration(d) => self.local_declaration(d)?,
                BlockItem::StaticAssert(_) => {}
            }
        }
        // The value may be a local of the scope: it is read after the
        // scope ends, so its pointers are not cleared.
        self.statement_expression_ends(s.span);
        if let Some(f) = self.t.frames.last_mut() {
            f.scopes.pop();
        }
        Ok(value)
    }

    /// Branches on a condition to `t` or `f`; no current location after.
    pub(crate) fn branch(&mut self, c: &Node<Expression>, t: Loc, f: Loc) -> Result<()> {
        self.ensure_cur(c.span);
        if let Expression::BinaryOperator(b) = &c.node {
            let op = b.node.operator.node.clone();
            if matches!(op, B::LogicalAnd | B::LogicalOr) && self.must_branch(&b.node.rhs)? {
                let mid = self.new_loc(Some(b.node.rhs.span));
                if op == B::LogicalAnd {
                    self.branch(&b.node.lhs, mid, f)?;
                } else {
                    self.branch(&b.node.lhs, t, mid)?;
                }
                self.t.cur = Some(mid);
                return self.branch(&b.node.rhs, t, f);
            }
        }
        let v = self.eval(c)?;
        self.emit_branch(&v, t, f, c.span);
        Ok(())
    }

    /// `int x = e;` and friends inside a function.
    /// The length of a variable-length array named `name`: `length`
    /// evaluated into a variable of its own (when the declaration runs).
    fn run_time_length(
        &mut self,
        name: &str,
        length: &Node<Expression>,
        span: Span,
    ) -> Result<VarId> {
        let cur = self.ensure_cur(span);
        self.t.cur = Some(cur);
        self.set_split(&[length])?;
        let v = self.eval(length)?;
        let len_ty = match &v.ty {
            t @ CType::Int(_) => t.clone(),
            _ => {
                return Err(LowerError::unsupported(
                    length.span,
                    "an array length that is not an integer",
                ))
            }
        };
        let len_name = self.unique(&format!("{name}.length"));
        let len_obj = self.object(&len_name, len_ty, Some(0), span)?;
        let p = self.whole(len_obj);
        self.store(p, v, span)?;
        Ok(self.objects[len_obj].cells[0])
    }

    /// The length of the variable-length array `o`: `length` evaluated
    /// into a variable of its own; a length below 1 or above the capacity
    /// gives up.
    fn vla_length(
        &mut self,
        o: ObjId,
        name: &str,
        length: &Node<Expression>,
        span: Span,
    ) -> Result<()> {
        let CType::Array(elem, _) = self.objects[o].ty.clone() else {
            return Err(LowerError::unsupported(span, "a variable-length array"));
        };
        let len = self.run_time_length(name, length, span)?;
        let capacity = crate::types::VLA_CAPACITY;
        let bad = any([
            cmp(CmpOp::Lt, Term::Var(len), Term::Const(1)),
            cmp(CmpOp::Gt, Term::Var(len), Term::Const(capacity as i64)),
        ]);
        let reason = format!(
            "a variable-length array of no element or of more than {capacity} (its capacity)"
        );
        self.give_up_where(bad, &reason, span);
        let esz = self.types.cells(&elem);
        self.lengths.insert(o, (len, esz));
        Ok(())
    }

    pub(crate) fn local_declaration(&mut self, d: &Node<Declaration>) -> Result<()> {
        let is = |c: StorageClassSpecifier| {
            d.node
                .specifiers
                .iter()
                .any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(x) if x.node == c))
        };
        let specs = Types::specifiers(&d.node.specifiers);
        if is(StorageClassSpecifier::Typedef) {
            let base = self.base_type(&specs, d.span)?;
            for id in &d.node.declarators {
                if let (Some(name), ty) =
                    self.declarator_type(base.clone(), &id.node.declarator.node)?
                {
                    if super::atomics::declares_atomic(
                        &self.types,
                        &d.node.specifiers,
                        &id.node.declarator.node,
                    )? {
                        self.types.atomic_typedefs.insert(name.clone());
                    }
                    self.types.typedefs.insert(name, ty);
                }
            }
            return Ok(());
        }
        if is(StorageClassSpecifier::Static) {
            return self.static_local(d, &specs);
        }
        if is(StorageClassSpecifier::Extern) {
            return Ok(());
        }
        let base = self.base_type(&specs, d.span)?;
        for id in &d.node.declarators {
            if self.large_local_array(&base, id)? {
                continue;
            }
            // A variable-length array takes its capacity; its length is
            // checked when the declaration runs.
            self.types.vla_sizes = Some(Vec::new());
            let declared = self.declarator_type(base.clone(), &id.node.declarator.node);
            let vla = self.types.vla_sizes.take().unwrap_or_default();
            let (name, ty) = declared?;
            let Some(name) = name else { continue };
            if ty == CType::Func {
                continue;
            }
            let ty = self.complete_array(ty, id.node.initializer.as_ref())?;
            let frame = self.t.frames.last().expect("frame");
            let base_name = format!(
                "{}.{}",
                frame.prefix,
                sanitize(self.unit.display_name(&name))
            );
            let vname = self.unique(&base_name);
            if let ([length], CType::Array(elem, _), None) =
                (vla.as_slice(), &ty, &id.node.initializer)
            {
                if self.tail_capable(elem) && !self.is_handle_name(&name) {
                    self.vla_tail(&name, &vname, (**elem).clone(), length, id.span)?;
                    continue;
                }
            }
            if let (true, CType::Array(_, n)) = (self.is_handle_name(&name), &ty) {
                let length = match vla.first() {
                    Some(length) => Term::Var(self.run_time_length(&vname, length, id.span)?),
                    None => Term::Const(*n as i64),
                };
                let h = self.handle_array(&vname, length);
                self.bind(name, Binding::Handles(h));
                continue;
            }
            if self.is_handle_pointer(&name, &ty) {
                let expanded;
                let init = match &id.node.initializer {
                    None => Some(None),
                    Some(Node {
                        node: Initializer::Expression(e),
                        ..
                    }) => {
                        expanded = self.wrappers.expand(&e.node);
                        super::buffers::allocation(&e.node)
                            .or(expanded.as_ref())
                            .map(Some)
                    }
                    Some(_) => None,
                };
                // Else an ordinary pointer.
                if let Some(call) = init {
                    let h = self.handle_pointer(&vname, false);
                    self.bind(name, Binding::Handles(h));
                    if let Some(call) = call {
                        self.ensure_cur(id.span);
                        self.handle_allocate(h, call, id.span)?;
                    }
                    continue;
                }
            }
            let o = self.object(&vname, ty.clone(), Some(0), id.span)?;
            let c_name = self.unit.display_name(&name).to_string();
            let func = self.t.frames.last().map(|f| f.func.clone());
            self.name_object(o, &c_name, Some(self.t.index), func);
            self.note_address_taken(o, &name);
            self.mark_atomic(o, &d.node.specifiers, &id.node.declarator.node)?;
            self.bind(name.clone(), Binding::Obj(o));
            if let Some(length) = vla.first() {
                self.vla_length(o, &vname, length, id.span)?;
            }
            let cur = self.ensure_cur(id.span);
            match &id.node.initializer {
                Some(Node {
                    node: Initializer::Expression(e),
                    ..
                }) if ty.is_scalar() => {
                    self.t.cur = Some(cur);
                    self.set_split(&[e])?;
                    let v = self.eval(e)?;
                    self.name_heap(e, &c_name);
                    let p = self.whole(o);
                    self.store(p, v, id.span)?;
                }
                Some(init) => {
                    self.t.cur = Some(cur);
                    self.local_initializer(o, &ty, init, id.span)?;
                }
                None => {
                    // An uninitialised local holds an arbitrary value of its type.
                    self.havoc_object(o, id.span);
                }
            }
        }
        Ok(())
    }

    /// A local array of integers or pointers too large for a variable per
    /// element, without an initializer or with zeros only (`= {0}`): a
    /// tail whose one object serves the one execution of the declaration
    /// the model covers (its elements any values, as an uninitialised
    /// local's, or zero); executing the declaration
    /// again (a loop, a second call) gives up there. `false`: not such an
    /// array (nothing lowered).
    fn large_local_array(&mut self, base: &CType, id: &Node<InitDeclarator>) -> Result<bool> {
        let zeroed = match &id.node.initializer {
            None => false,
            Some(init) if self.zero_initializer(init) => true,
            Some(_) => return Ok(false),
        };
        self.uncap = true;
        let declared = self.declarator_type(base.clone(), &id.node.declarator.node);
        self.uncap = false;
        let Ok((Some(name), ty)) = declared else {
            return Ok(false);
        };
        let capped = matches!(&ty, CType::Array(_, n) if *n <= crate::types::MAX_CELLS);
        if capped || self.is_handle_name(&name) {
            return Ok(false);
        }
        let Some((elem, n)) = self.big_static_array(&ty, None) else {
            return Ok(false);
        };
        let frame = self.t.frames.last().expect("frame");
        let vname = format!(
            "{}.{}",
            frame.prefix,
            sanitize(self.unit.display_name(&name))
        );
        let vname = self.unique(&vname);
        let func = self.t.frames.last().map(|f| f.func.clone());
        let thread = Some(self.t.index);
        let o = self.create_tail_array(&name, &vname, thread, func, id.span, elem, n)?;
        self.bind(name, Binding::Obj(o));
        let declared = self.declared_once(&vname, "too large for a variable per element", id.span);
        let cur = self.ensure_cur(id.span);
        let next = self.new_loc(Some(id.span));
        let mut set = vec![(declared, Term::Const(1))];
        if zeroed {
            // `= {0}`: every element zero, the tracked one included.
            set.extend(self.objects[o].cells.iter().map(|&c| (c, Term::Const(0))));
        }
        self.plain_edge(cur, next, Cond::True, set, Some(id.span));
        self.t.cur = Some(next);
        self.set_array_contents(o, zeroed);
        if !zeroed {
            self.havoc_object(o, id.span);
        }
        Ok(true)
    }

    /// The flag of a local array whose one object serves one execution of
    /// its declaration (`what` it is, for the reason): a second execution
    /// (a loop, another call) gives up here. The caller sets the flag in
    /// the declaration's step.
    fn declared_once(&mut self, vname: &str, what: &str, span: Span) -> VarId {
        let declared = self.var(
            format!("{vname}.declared"),
            Some(0),
            Range::new(0.into(), 1.into()),
        );
        self.ensure_cur(span);
        let again = cmp(CmpOp::Ne, Term::Var(declared), Term::Const(0));
        self.give_up_where(
            again,
            format!(
                "a local array {what} declared a second time (in a loop or another call): one \
                 execution of its declaration is modelled"
            ),
            span,
        );
        declared
    }

    /// A variable-length array `T name[length]` of integers or pointers as
    /// a tail (SOUNDNESS.md, "Heap arrays of run-time length"): one tracked
    /// element, chosen when the declaration runs, below the length (which
    /// is evaluated then; below 1 or of [`super::tails::TAIL_SPACE`] and
    /// more elements gives up); its elements any values, as an
    /// uninitialised local's. Like a large local array, one execution of
    /// the declaration is modelled.
    fn vla_tail(
        &mut self,
        name: &str,
        vname: &str,
        elem: CType,
        length: &Node<Expression>,
        span: Span,
    ) -> Result<()> {
        let len = self.run_time_length(vname, length, span)?;
        let most = self.tail_max_length(&elem);
        let bad = any([
            cmp(CmpOp::Lt, Term::Var(len), Term::Const(1)),
            cmp(CmpOp::Gt, Term::Var(len), Term::Const(most)),
        ]);
        self.give_up_where(
            bad,
            format!("a variable-length array of no element or of more than {most}"),
            span,
        );
        let o = self.object(vname, CType::Array(Box::new(elem), 1), Some(0), span)?;
        let c_name = self.unit.display_name(name).to_string();
        let func = self.t.frames.last().map(|f| f.func.clone());
        self.name_object(o, &c_name, Some(self.t.index), func);
        self.note_address_taken(o, name);
        self.make_tail(o, vname, span)?;
        self.bind(name.to_string(), Binding::Obj(o));
        let declared = self.declared_once(vname, "of run-time length", span);
        let index = self.temp(&CType::Int(crate::types::IntTy::LLONG));
        self.t.pending_havoc.push(index);
        let (guard, mut set) = self.tail_allocation(o, &Term::Var(len), index);
        set.push((declared, Term::Const(1)));
        let cur = self.ensure_cur(span);
        let next = self.new_loc(Some(span));
        self.plain_edge(cur, next, guard, set, Some(span));
        self.t.cur = Some(next);
        self.set_array_contents(o, false);
        self.havoc_object(o, span);
        Ok(())
    }

    /// A `static` local: one object for the whole program (shared by every
    /// call and thread), initialised once like a global.
    fn static_local(
        &mut self,
        d: &Node<Declaration>,
        specs: &[frontend::lang_c::ast::TypeSpecifier],
    ) -> Result<()> {
        let base = self.base_type(specs, d.span)?;
        for id in &d.node.declarators {
            // Too large for a variable per element: a tail, if it can be.
            self.uncap = true;
            let uncapped = self.declarator_type(base.clone(), &id.node.declarator.node);
            self.uncap = false;
            let tail = match &uncapped {
                Ok((Some(_), ty)) => self.big_static_array(ty, id.node.initializer.as_ref()),
                _ => None,
            };
            let declared = match tail {
                Some(_) => uncapped?,
                None => self.declarator_type(base.clone(), &id.node.declarator.node)?,
            };
            let (Some(name), ty) = declared else {
                continue;
            };
            let key = format!("static#{}#{}", id.span.start, name);
            let o = match self.statics.get(&key) {
                Some(&o) => o,
                None => {
                    let func = self
                        .t
                        .frames
                        .last()
                        .map(|f| f.func.clone())
                        .unwrap_or_default();
                    let vname = format!(
                        "{}.{}",
                        sanitize(&func),
                        sanitize(self.unit.display_name(&name))
                    );
                    if let Some((elem, n)) = tail {
                        let o =
                            self.create_tail_static(&name, &vname, Some(func), id.span, elem, n)?;
                        self.statics.insert(key, o);
                        self.bind(name, Binding::Obj(o));
                        continue;
                    }
                    let o = self.object(&vname, ty.clone(), Some(0), id.span)?;
                    self.objects[o].owner = None;
                    let c_name = self.unit.display_name(&name).to_string();
                    self.name_object(o, &c_name, None, Some(func.clone()));
                    self.note_address_taken(o, &name);
                    self.mark_atomic(o, &d.node.specifiers, &id.node.declarator.node)?;
                    if let Some(init) = &id.node.initializer {
                        let mut values = Vec::new();
                        self.const_initializer(&ty, init, &mut values)?;
                        self.set_initial_values(o, values);
                    }
                    self.statics.insert(key, o);
                    o
                }
            };
            self.bind(name, Binding::Obj(o));
        }
        Ok(())
    }

    fn switch(
        &mut self,
        sw: &Node<frontend::lang_c::ast::SwitchStatement>,
        span: Span,
    ) -> Result<()> {
        self.ensure_cur(span);
        self.set_split(&[&sw.node.expression])?;
        let v = self.eval(&sw.node.expression)?;
        let t = self.int_type(&v, span)?;
        let t = crate::types::promote(t);
        let v = self.convert(v, &CType::Int(t), span)?;
        let v = self.materialize(v, span)?;
        let Some((_, Res::Val(x))) = v.cases.first().cloned() else {
            return Err(LowerError::unsupported(span, "switch on this value"));
        };
        let mut labels = Vec::new();
        collect_cases(&sw.node.statement, &mut labels);
        let exit = self.new_loc(None);
        let mut map = HashMap::new();
        let mut matched = Vec::new();
        let mut default = None;
        let cur = self.ensure_cur(span);
        for (key, label) in &labels {
            let l = self.new_loc(None);
            map.insert(*key, l);
            match label {
                Label::Case(e) => {
                    let k = self.const_value(e)?;
                    let c = cmp(CmpOp::Eq, x.clone(), Term::Const(k as i64));
                    matched.push(c.clone());
                    self.plain_edge(cur, l, c, vec![], Some(e.span));
                }
                Label::CaseRange(r) => {
                    let lo = self.const_value(&r.node.low)?;
                    let hi = self.const_value(&r.node.high)?;
                    let c = within(&x, lo, hi);
                    matched.push(c.clone());
                    self.plain_edge(cur, l, c, vec![], Some(r.span));
                }
                Label::Default => default = Some(l),
                Label::Identifier(_) => {}
            }
        }
        let none = not(any(matched));
        self.plain_edge(cur, default.unwrap_or(exit), none, vec![], Some(span));
        self.flush();
        self.t.cur = None;
        self.t.cases.push(map);
        self.t.jumps.push((exit, None, self.scope_depth()));
        self.stmt(&sw.node.statement)?;
        self.goto(exit);
        self.t.jumps.pop();
        self.t.cases.pop();
        self.t.cur = Some(exit);
        Ok(())
    }

    /// The trip count of a `for` loop that creates threads, when it is a
    /// constant: `for (i = a; i < b; i++)` with `i` a local not assigned in
    /// the body. Such loops are unrolled so each iteration creates its own
    /// thread instances.
    fn unroll_count(
        &mut self,
        f: &Node<frontend::lang_c::ast::ForStatement>,
    ) -> Result<Option<u64>> {
        if !creates_threads(&f.node.statement) {
            return Ok(None);
        }
        let var_and_start = match &f.node.initializer.node {
            ForInitializer::Expression(e) => match &e.node {
                Expression::BinaryOperator(b) if b.node.operator.node == B::Assign => {
                    match (&b.node.lhs.node, self.const_value(&b.node.rhs)) {
                        (Expression::Identifier(id), Ok(v)) => Some((id.node.name.clone(), v)),
                        _ => None,
                    }
                }
                _ => None,
            },
            ForInitializer::Declaration(d) => match d.node.declarators.as_slice() {
                [id] => match (
                    &super::declarator_name(&id.node.declarator.node),
                    &id.node.initializer,
                ) {
                    (
                        Some(n),
                        Some(Node {
                            node: Initializer::Expression(e),
                            ..
                        }),
                    ) => self.const_value(e).ok().map(|v| (n.clone(), v)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some((var, start)) = var_and_start else {
            return Ok(None);
        };
        let Some(cond) = &f.node.condition else {
            return Ok(None);
        };
        let Expression::BinaryOperator(c) = &cond.node else {
            return Ok(None);
        };
        let (Expression::Identifier(cv), Ok(bound)) =
            (&c.node.lhs.node, self.const_value(&c.node.rhs))
        else {
            return Ok(None);
        };
        if cv.node.name != var {
            return Ok(None);
        }
        let step_ok = match f.node.step.as_deref().map(|s| &s.node) {
            Some(Expression::UnaryOperator(u)) => {
                matches!(u.node.operator.node, U::PostIncrement | U::PreIncrement)
                    && matches!(&u.node.operand.node, Expression::Identifier(id) if id.node.name == var)
            }
            Some(Expression::BinaryOperator(b)) => {
                b.node.operator.node == B::AssignPlus
                    && matches!(&b.node.lhs.node, Expression::Identifier(id) if id.node.name == var)
                    && self.const_value(&b.node.rhs).ok() == Some(1)
            }
            _ => false,
        };
        if !step_ok {
            return Ok(None);
        }
        let n = match c.node.operator.node {
            B::Less => bound - start,
            B::LessOrEqual => bound - start + 1,
            B::NotEquals if bound >= start => bound - start,
            _ => return Ok(None),
        };
        Ok((0..=64).contains(&n).then_some(n.max(0) as u64))
    }

    /// The loop unrolled `n` times. The condition is still tested before
    /// each iteration; if it holds after the `n`th, the program gives up
    /// (the body changed the counter), so the unrolling is exact.
    fn unrolled_for(
        &mut self,
        f: &Node<frontend::lang_c::ast::ForStatement>,
        n: u64,
    ) -> Result<()> {
        let exit = self.new_loc(None);
        let cond = f
            .node
            .condition
            .as_ref()
            .expect("unrolled loops have a condition");
        for _ in 0..n {
            let body = self.new_loc(Some(f.node.statement.span));
            self.set_split(&[cond])?;
            self.branch(cond, body, exit)?;
            self.t.cur = Some(body);
            let step = self.new_loc(None);
            self.t.jumps.push((exit, Some(step), self.scope_depth()));
            self.stmt(&f.node.statement)?;
            self.goto(step);
            self.t.jumps.pop();
            self.t.cur = Some(step);
            if let Some(e) = &f.node.step {
                self.set_split(&[e])?;
                self.effect(e)?;
                self.settle_reads(e.span);
            }
        }
        let more = self.give_up("a loop creating threads ran more iterations than its bounds say");
        self.set_split(&[cond])?;
        self.branch(cond, more, exit)?;
        self.t.cur = Some(exit);
        Ok(())
    }
}

/// Case labels of a switch body (not of nested switches), by span start.
fn collect_cases<'a>(s: &'a Node<Statement>, out: &mut Vec<(usize, &'a Label)>) {
    match &s.node {
        Statement::Labeled(l) => {
            if !matches!(l.node.label.node, Label::Identifier(_)) {
                out.push((l.node.label.span.start, &l.node.label.node));
            }
            collect_cases(&l.node.statement, out);
        }
        Statement::Compound(items) => {
            for i in items {
                if let BlockItem::Statement(st) = &i.node {
                    collect_cases(st, out);
                }
            }
        }
        Statement::If(i) => {
            collect_cases(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(e, out);
            }
        }
        Statement::While(w) => collect_cases(&w.node.statement, out),
        Statement::DoWhile(d) => collect_cases(&d.node.statement, out),
        Statement::For(f) => collect_cases(&f.node.statement, out),
        _ => {}
    }
}

/// Finds a mention of a thread creation: `pthread_create` or
/// `thrd_create` (called, or taken as a function pointer), or an
/// `__CPROVER_ASYNC_` label.
#[derive(Default)]
struct MentionsThreads(bool);

impl<'ast> frontend::lang_c::visit::Visit<'ast> for MentionsThreads {
    // A declaration (`pthread.h`'s prototype) is no mention.
    fn visit_declarator_kind(
        &mut self,
        kind: &'ast frontend::lang_c::ast::DeclaratorKind,
        span: &'ast Span,
    ) {
        if !matches!(kind, frontend::lang_c::ast::DeclaratorKind::Identifier(_)) {
            frontend::lang_c::visit::visit_declarator_kind(self, kind, span);
        }
    }

    fn visit_identifier(&mut self, id: &'ast frontend::lang_c::ast::Identifier, _: &'ast Span) {
        if id.name == "pthread_create" || id.name == "thrd_create" {
            self.0 = true;
        }
    }

    fn visit_label(&mut self, l: &'ast Label, span: &'ast Span) {
        if matches!(l, Label::Identifier(id) if id.node.name.starts_with(super::conventions::ASYNC_PREFIX))
        {
            self.0 = true;
        }
        frontend::lang_c::visit::visit_label(self, l, span);
    }
}

fn creates_threads(s: &Node<Statement>) -> bool {
    let mut v = MentionsThreads::default();
    frontend::lang_c::visit::Visit::visit_statement(&mut v, &s.node, &s.span);
    v.0
}

/// Instructions that only order memory or hint the CPU: under the
/// sequential consistency the checker assumes they do nothing.
const BARRIERS: [&str; 12] = [
    "", "mfence", "lfence", "sfence", "pause", "rep", "rep nop", "nop", "yield", "dmb ish",
    "dmb sy", "isb",
];

/// The text of an `asm` statement that does more than a compiler or CPU
/// barrier (`asm volatile("" ::: "memory")`, `mfence`, `pause`, ...), or
/// `None` for a barrier: an empty or barrier template without outputs.
fn non_barrier_asm(a: &frontend::lang_c::ast::AsmStatement) -> Option<String> {
    use frontend::lang_c::ast::AsmStatement;
    let (template, outputs) = match a {
        AsmStatement::GnuBasic(t) => (&t.node, 0),
        AsmStatement::GnuExtended(x) => (&x.template.node, x.outputs.len()),
    };
    let text: String = template
        .iter()
        .map(|piece| piece.trim_matches('"'))
        .collect();
    let instr = text.replace("\\n", ";").replace("\\t", " ");
    let barrier = instr
        .split(';')
        .map(str::trim)
        .all(|i| BARRIERS.contains(&i.to_ascii_lowercase().as_str()));
    (outputs > 0 || !barrier).then_some(text)
}
