//! Arrays of thread handles (SOUNDNESS.md, "Arrays of thread handles"):
//! an array `A` that the program uses only as `&A[i]` (or `A + i`), the
//! first argument of `pthread_create`/`thrd_create`, and as `A[i]` (or
//! `*(A + i)`), the first argument of
//! `pthread_join`/`thrd_join` (a syntactic check over the whole file), has
//! no cells, whatever its length. Instead:
//!
//! - each thread instance started through `A` has a *slot*, the index it
//!   was stored at, set by the spawn;
//! - a join of `A[i]` waits for the instance whose slot is `i` to end;
//! - two counters, `A.finished` (incremented by the last step of each
//!   instance started through `A`) and `A.joined` (by each join through
//!   `A`): a join also waits for `finished > joined`, which every
//!   execution without undefined behaviour satisfies there (the instance
//!   joined has ended and was not joined before, and every instance joined
//!   has ended). The counters carry what the counter abstraction needs to
//!   know that the threads joined are distinct, where it forgets the slots
//!   (`crate::Lowered::handle_slots`).
//!
//! The model is exact otherwise: an index outside the array is an
//! out-of-bounds access, a join of an element that holds no thread
//! started here gives up, and so does storing a handle over one of a
//! thread already started through the same element.
//!
//! A pointer `p` of type `pthread_t *` used the same way, and otherwise
//! only tested against null (`!p`, `p == NULL`, `p != NULL`), assigned an
//! allocation (`pthread_t *p = malloc(n *
//! sizeof(pthread_t))`, or `p = calloc(n, sizeof *p)` as a statement) and
//! freed, is such an array too: its length is the allocation's count, and
//! the state of its block (not yet allocated, allocated, freed) is kept,
//! so that a use of the freed block and a double free are the violations
//! they are.

use std::collections::HashSet;

use engine::ir::{CmpOp, Cond, LocId, Term, ThreadId, VarId};
use frontend::lang_c::ast::{
    BinaryOperator, CallExpression, DeclaratorKind, Expression, Identifier, SizeOfVal, Statement,
    UnaryOperator as U,
};
use frontend::lang_c::span::{Node, Span};
use frontend::lang_c::visit::{self, Visit};

use super::buffers::{allocation, sized_allocation};
use super::expr::{Res, Val};
use super::wrappers::Wrappers;
use super::{Binding, Lowerer, Ub, END};
use crate::error::{LowerError, Result};
use crate::term::{add, and, any, cmp, not, Range};
use crate::types::{CType, IntTy};
use crate::Violation;

/// An array of thread handles.
#[derive(Clone, Debug)]
pub(crate) struct HandleArray {
    /// Its length (a constant, or the variable of a variable-length
    /// array).
    length: Term,
    /// The number of instances started through it that have ended.
    finished: VarId,
    /// The number of joins through it.
    joined: VarId,
    /// The instances started through it, with their slots.
    slots: Vec<(usize, VarId)>,
    /// The heap block of a pointer to thread handles.
    block: Option<HandleBlock>,
}

/// The heap block a pointer to thread handles points to.
#[derive(Clone, Copy, Debug)]
struct HandleBlock {
    /// The block's state: [`UNALLOCATED`], [`ALLOCATED`] or [`FREED`].
    state: VarId,
    /// The number of handles it holds (set by the allocation).
    length: VarId,
    /// A global pointer (null before its allocation), not a local
    /// (uninitialised before it).
    global: bool,
}

/// The states of a [`HandleBlock`].
const UNALLOCATED: i64 = 0;
const ALLOCATED: i64 = 1;
const FREED: i64 = 2;

/// The names used only as arrays of thread handles.
pub(crate) struct HandleUses<'w, 'a> {
    wrappers: &'w Wrappers<'a>,
    indexed: HashSet<String>,
    other: HashSet<String>,
}

impl HandleUses<'_, '_> {
    pub(crate) fn names(self) -> HashSet<String> {
        self.indexed.difference(&self.other).cloned().collect()
    }
}

/// `A[e]` or `*(A + e)` (under casts): the array's name and the index.
fn element(e: &Expression) -> Option<(&Identifier, &Node<Expression>)> {
    match e {
        Expression::Cast(c) => element(&c.node.expression.node),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            match &b.node.lhs.node {
                Expression::Identifier(id) => Some((&id.node, &b.node.rhs)),
                _ => None,
            }
        }
        Expression::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            offset(&u.node.operand.node)
        }
        _ => None,
    }
}

/// `A + e` or `e + A`: the array's name and the index (pointer arithmetic
/// when `A` is an array or pointer, as a name of handles is). Of two
/// names, `x + y`, the first is taken for the array: read the other way
/// (`i + A`), the name `A` counts as another use, and `A` is an ordinary
/// array.
fn offset(e: &Expression) -> Option<(&Identifier, &Node<Expression>)> {
    let Expression::BinaryOperator(b) = e else {
        return None;
    };
    if b.node.operator.node != BinaryOperator::Plus {
        return None;
    }
    match (&b.node.lhs.node, &b.node.rhs.node) {
        (Expression::Identifier(id), _) => Some((&id.node, &b.node.rhs)),
        (_, Expression::Identifier(id)) => Some((&id.node, &b.node.lhs)),
        _ => None,
    }
}

/// `&A[e]` or `A + e` (under casts).
fn element_address(e: &Expression) -> Option<(&Identifier, &Node<Expression>)> {
    match e {
        Expression::Cast(c) => element_address(&c.node.expression.node),
        Expression::UnaryOperator(u) if u.node.operator.node == U::Address => {
            element(&u.node.operand.node)
        }
        e => offset(e),
    }
}

/// The handle argument of a thread creation or join: the array's name and
/// the index.
fn handle_argument(c: &CallExpression) -> Option<(&Identifier, &Node<Expression>)> {
    let Expression::Identifier(f) = &c.callee.node else {
        return None;
    };
    let first = &c.arguments.first()?.node;
    match f.node.name.as_str() {
        "pthread_create" | "thrd_create" => element_address(first),
        "pthread_join" | "thrd_join" => element(first),
        _ => None,
    }
}

/// `x` (under casts): the identifier.
fn identifier(e: &Expression) -> Option<&Identifier> {
    match e {
        Expression::Cast(c) => identifier(&c.node.expression.node),
        Expression::Identifier(id) => Some(&id.node),
        _ => None,
    }
}

/// `free(x)`: `x`.
fn freed(c: &CallExpression) -> Option<&Identifier> {
    match (&c.callee.node, c.arguments.as_slice()) {
        (Expression::Identifier(f), [arg]) if f.node.name == "free" => identifier(&arg.node),
        _ => None,
    }
}

/// The call `e` is (under casts).
fn call_of(e: &Expression) -> Option<&CallExpression> {
    match e {
        Expression::Cast(c) => call_of(&c.node.expression.node),
        Expression::Call(c) => Some(&c.node),
        _ => None,
    }
}

/// `x = malloc(...)`, `x = calloc(...)` or `x = w(...)` of an allocation
/// wrapper `w`: `x` and the call.
fn allocated<'e>(
    e: &'e Expression,
    wrappers: &Wrappers,
) -> Option<(&'e Identifier, &'e CallExpression)> {
    let Expression::BinaryOperator(b) = e else {
        return None;
    };
    if b.node.operator.node != BinaryOperator::Assign {
        return None;
    }
    let Expression::Identifier(p) = &b.node.lhs.node else {
        return None;
    };
    let rhs = &b.node.rhs.node;
    let call = allocation(rhs).or_else(|| wrappers.expand(rhs).and(call_of(rhs)))?;
    Some((&p.node, call))
}

impl<'ast> Visit<'ast> for HandleUses<'_, '_> {
    // `sizeof *x` and `sizeof x[i]` (the size of a handle) are no use of
    // `x`.
    fn visit_sizeofval(&mut self, s: &'ast SizeOfVal, span: &'ast Span) {
        let element = match &s.0.node {
            Expression::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
                identifier(&u.node.operand.node)
            }
            e => element(e).map(|(a, _)| a),
        };
        if element.is_none() {
            visit::visit_sizeofval(self, s, span);
        }
    }

    // `x = malloc(...);` is no use of `x`.
    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
        if let Statement::Expression(Some(e)) = s {
            if let Some((_, call)) = allocated(&e.node, self.wrappers) {
                return visit::visit_call_expression(self, call, &e.span);
            }
        }
        visit::visit_statement(self, s, span);
    }

    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
        if freed(c).is_some() {
            return;
        }
        if let Some((a, index)) = handle_argument(c) {
            self.indexed.insert(a.name.clone());
            self.visit_expression(&index.node, &index.span);
            for arg in &c.arguments[1..] {
                self.visit_expression(&arg.node, &arg.span);
            }
            return;
        }
        visit::visit_call_expression(self, c, span);
    }

    // A test against null, `!x` or `x == NULL`, is no use of `x` either
    // (`Lowerer::handle_pointer_value`).
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        if super::wrappers::null_test(e).is_none() {
            visit::visit_expression(self, e, span);
        }
    }

    // A declaration is no use.
    fn visit_declarator_kind(&mut self, kind: &'ast DeclaratorKind, span: &'ast Span) {
        if !matches!(kind, DeclaratorKind::Identifier(_)) {
            visit::visit_declarator_kind(self, kind, span);
        }
    }

    fn visit_identifier(&mut self, id: &'ast Identifier, _: &'ast Span) {
        self.other.insert(id.name.clone());
    }
}

impl Lowerer<'_> {
    /// Lowers arrays of thread handles like other arrays.
    pub(crate) fn no_handle_arrays(&mut self) {
        self.handle_names.clear();
    }

    /// Whether `name` may be declared as an array of thread handles.
    pub(crate) fn is_handle_name(&self, name: &str) -> bool {
        self.handle_names.contains(name)
    }

    /// A new array of thread handles of `length` elements.
    pub(crate) fn handle_array(&mut self, name: &str, length: Term) -> usize {
        let all = Range::new(0, i128::from(i32::MAX));
        let finished = self.var(format!("{name}.finished"), Some(0), all);
        let joined = self.var(format!("{name}.joined"), Some(0), all);
        self.handle_arrays.push(HandleArray {
            length,
            finished,
            joined,
            slots: Vec::new(),
            block: None,
        });
        self.handle_arrays.len() - 1
    }

    /// The value of `x`, the array of (or pointer to) thread handles `h`,
    /// where the program only tests it against null ([`handle_names`]):
    /// an array is not null, nor is the pointer once its block is
    /// allocated (`malloc` does not fail here: [`Lowerer::is_handle_pointer`]);
    /// before, a global pointer is null and a local one uninitialised.
    /// The non-null value is 1: no address is compared.
    pub(crate) fn handle_pointer_value(&self, h: usize) -> Val {
        let ty = CType::Ptr(Box::new(CType::ThreadHandle));
        let Some(block) = self.handle_arrays[h].block else {
            return Val::term(Term::Const(1), ty);
        };
        let before = cmp(CmpOp::Eq, Term::Var(block.state), Term::Const(UNALLOCATED));
        let unassigned = if block.global {
            Res::Val(Term::Const(0))
        } else {
            Res::Ub(Ub::from(
                "a pointer to thread handles used before it is assigned",
            ))
        };
        Val {
            cases: vec![
                (before.clone(), unassigned),
                (not(before), Res::Val(Term::Const(1))),
            ],
            ty,
        }
    }

    /// The type of array (or pointer) of thread handles `h` (`sizeof` of
    /// a variable-length array is refused).
    pub(crate) fn handle_type(&self, h: usize, span: Span) -> Result<CType> {
        let a = &self.handle_arrays[h];
        let elem = Box::new(CType::ThreadHandle);
        match (&a.block, &a.length) {
            (Some(_), _) => Ok(CType::Ptr(elem)),
            (None, Term::Const(n)) => Ok(CType::Array(elem, *n as u64)),
            _ => Err(LowerError::unsupported(
                span,
                "`sizeof` of a variable-length array",
            )),
        }
    }

    /// Whether `name`, declared of type `ty`, is a pointer to an allocated
    /// array of thread handles: not with `--malloc-may-fail` (the pointer
    /// would be tested for null), nor when lost and unfreed blocks are
    /// checked (its block is no heap object).
    pub(crate) fn is_handle_pointer(&self, name: &str, ty: &CType) -> bool {
        matches!(ty, CType::Ptr(t) if **t == CType::ThreadHandle)
            && self.is_handle_name(name)
            && !self.malloc_may_fail
            && !self.checks.memtrack
            && !self.checks.memcleanup
    }

    /// A new pointer to an array of thread handles, its block not yet
    /// allocated (`global`: the pointer is null, else uninitialised).
    pub(crate) fn handle_pointer(&mut self, name: &str, global: bool) -> usize {
        let length = self.var(
            format!("{name}.length"),
            Some(0),
            Range::new(0, i128::from(i64::MAX)),
        );
        let state = self.var(
            format!("{name}.block"),
            Some(UNALLOCATED),
            Range::new(i128::from(UNALLOCATED), i128::from(FREED)),
        );
        let h = self.handle_array(name, Term::Var(length));
        self.handle_arrays[h].block = Some(HandleBlock {
            state,
            length,
            global,
        });
        h
    }

    /// `p = rhs` as a statement where `p` points to thread handles and
    /// `rhs` allocates: `Ok(true)` when lowered here.
    pub(crate) fn handle_assign(
        &mut self,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        span: Span,
    ) -> Result<bool> {
        let expanded = self.wrappers.expand(&rhs.node);
        let call = allocation(&rhs.node).or(expanded.as_ref());
        let (Expression::Identifier(p), Some(call)) = (&lhs.node, call) else {
            return Ok(false);
        };
        match self.lookup(&p.node.name)? {
            Some(Binding::Handles(h)) if self.handle_arrays[h].block.is_some() => {
                self.handle_allocate(h, call, span)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The allocation of the block of pointer `h`: its length is the
    /// count of handles allocated. A second allocation (the slots of the
    /// first block's threads would be confused with the second's) and a
    /// negative count give up.
    pub(crate) fn handle_allocate(
        &mut self,
        h: usize,
        call: &CallExpression,
        span: Span,
    ) -> Result<()> {
        let block = self.handle_arrays[h]
            .block
            .expect("a pointer to thread handles");
        let count = self.handle_count(call, span)?;
        let Some(cur) = self.t.cur else {
            self.flush();
            return Ok(());
        };
        let next = self.new_loc(Some(span));
        let fresh = cmp(CmpOp::Eq, Term::Var(block.state), Term::Const(UNALLOCATED));
        // C computes the byte count in `size_t`: beyond `SIZE_MAX` bytes
        // it wraps (or `calloc` fails), and the block holds fewer handles.
        let esz = self.types.size_of(&CType::ThreadHandle).unwrap_or(1).max(1);
        let most = self.types.long(false).max() / i128::from(esz);
        let counted = crate::term::within(&count, 0, most);
        self.give_up_edge(
            cur,
            not(fresh.clone()),
            "a second allocation of an array of thread handles",
            span,
        );
        self.give_up_edge(
            cur,
            and(fresh.clone(), not(counted.clone())),
            "an allocation of a negative count of thread handles, or of more bytes than \
             `size_t` holds (the byte count would wrap around)",
            span,
        );
        let assigns = vec![(block.length, count), (block.state, Term::Const(ALLOCATED))];
        self.plain_edge(cur, next, and(fresh, counted), assigns, Some(span));
        self.flush();
        self.t.cur = Some(next);
        Ok(())
    }

    /// The number of handles `malloc(n * sizeof(pthread_t))`,
    /// `malloc(sizeof(pthread_t))` or `calloc(n, sizeof(pthread_t))`
    /// allocates (`sizeof *p` or `sizeof p[0]` alike).
    fn handle_count(&mut self, call: &CallExpression, span: Span) -> Result<Term> {
        let (size, count) = sized_allocation(call).ok_or_else(|| handle_size_unsupported(span))?;
        let elem = self.sizeof_type(size)?;
        if self.types.size_of(&elem) != self.types.size_of(&CType::ThreadHandle) {
            return Err(handle_size_unsupported(span));
        }
        let Some(n) = count else {
            return Ok(Term::Const(1));
        };
        self.runtime_length(n, span)?.ok_or_else(|| {
            LowerError::unsupported(
                span,
                "a count of thread handles allocated whose evaluation may be undefined",
            )
        })
    }

    /// `free(p)`: `Ok(true)` when `p` is an array of thread handles (a
    /// pointer to one frees its block; an array is not on the heap).
    pub(crate) fn handle_free(&mut self, arg: &Node<Expression>, span: Span) -> Result<bool> {
        let Some(p) = identifier(&arg.node) else {
            return Ok(false);
        };
        let Some(Binding::Handles(h)) = self.lookup(&p.name)? else {
            return Ok(false);
        };
        let Some(block) = self.handle_arrays[h].block else {
            let ub = Ub::violates(Violation::Free, "free of an array that is not on the heap");
            self.give_up_where(Cond::True, ub, span);
            return Ok(true);
        };
        let Some(cur) = self.t.cur else {
            return Ok(true);
        };
        let next = self.new_loc(Some(span));
        let state = |s| cmp(CmpOp::Eq, Term::Var(block.state), Term::Const(s));
        let freeing = vec![(block.state, Term::Const(FREED))];
        self.plain_edge(cur, next, state(ALLOCATED), freeing, Some(span));
        let double = Ub::violates(Violation::Free, "double free of an array of thread handles");
        self.give_up_edge(cur, state(FREED), double, span);
        if block.global {
            // `free(NULL)` does nothing.
            self.plain_edge(cur, next, state(UNALLOCATED), vec![], Some(span));
        } else {
            let ub = "free of a pointer to thread handles before it is assigned";
            self.give_up_edge(cur, state(UNALLOCATED), ub, span);
        }
        self.flush();
        self.t.cur = Some(next);
        Ok(true)
    }

    /// The array of thread handles and index a creation's or join's handle
    /// argument designates, if it is one.
    pub(crate) fn handle_element<'e>(
        &mut self,
        arg: &'e Node<Expression>,
        address: bool,
    ) -> Result<Option<(usize, &'e Node<Expression>)>> {
        let found = if address {
            element_address(&arg.node)
        } else {
            element(&arg.node)
        };
        let Some((a, index)) = found else {
            return Ok(None);
        };
        Ok(match self.lookup(&a.name)? {
            Some(super::Binding::Handles(h)) => Some((h, index)),
            _ => None,
        })
    }

    /// The index of an element, as cases of terms; the out-of-bounds cases
    /// are undefined behaviour.
    pub(crate) fn handle_index(
        &mut self,
        h: usize,
        index: &Node<Expression>,
        span: Span,
    ) -> Result<Val> {
        let v = self.eval(index)?;
        let v = self.convert(v, &CType::Int(IntTy::LLONG), span)?;
        let length = self.handle_arrays[h].length.clone();
        let block = self.handle_arrays[h].block;
        let mut cases = Vec::new();
        for (c, r) in v.cases {
            match r {
                Res::Val(i) => {
                    let c = match block {
                        Some(block) => self.handle_block_cases(block, c, &mut cases),
                        None => c,
                    };
                    let inside = and(
                        cmp(CmpOp::Ge, i.clone(), Term::Const(0)),
                        cmp(CmpOp::Lt, i.clone(), length.clone()),
                    );
                    cases.push((and(c.clone(), inside.clone()), Res::Val(i)));
                    cases.push((
                        and(c, not(inside)),
                        Res::Ub(Ub::violates(Violation::Deref, "array index out of bounds")),
                    ));
                }
                ub => cases.push((c, ub)),
            }
        }
        Ok(Val { cases, ty: v.ty }.pruned())
    }

    /// The cases of an access through a pointer to thread handles under
    /// `c` where its block is not allocated (pushed to `cases`); the
    /// condition of the access to an allocated block.
    fn handle_block_cases(
        &self,
        block: HandleBlock,
        c: Cond,
        cases: &mut Vec<(Cond, Res)>,
    ) -> Cond {
        let state = |s| cmp(CmpOp::Eq, Term::Var(block.state), Term::Const(s));
        let freed = Ub::violates(Violation::Deref, "a use of a freed array of thread handles");
        cases.push((and(c.clone(), state(FREED)), Res::Ub(freed)));
        let unallocated = if block.global {
            Ub::violates(Violation::Deref, "a null pointer to thread handles used")
        } else {
            Ub::from("a pointer to thread handles used before it is assigned")
        };
        cases.push((and(c.clone(), state(UNALLOCATED)), Res::Ub(unallocated)));
        and(c, state(ALLOCATED))
    }

    /// The spawns of a thread creation at `cur` through an array of thread
    /// handles, at index `i` ([`Lowerer::handle_index`]): per case of the
    /// index, the guard (the slot assignments of the instances `ks`, which
    /// are registered with the array, are the caller's); the cases of
    /// undefined behaviour and of a handle stored over a started thread's
    /// go to their give-ups.
    pub(crate) fn handle_store(
        &mut self,
        h: usize,
        i: Val,
        ks: &[usize],
        cur: super::Loc,
        span: Span,
    ) -> Vec<(Cond, Term)> {
        for &k in ks {
            let name = format!("{}.slot", self.threads[k].name);
            let slot = self.var(name, Some(-1), Range::new(-1, i128::from(i64::MAX)));
            self.handle_arrays[h].slots.push((k, slot));
            self.threads[k].handles = Some(h);
        }
        let mut ok = Vec::new();
        for (c, r) in i.cases {
            match r {
                Res::Ub(u) => self.give_up_edge(cur, c, u, span),
                Res::Val(i) => {
                    let taken = self.handle_taken(h, &i);
                    let to = self.give_up_of(slot_give_up(
                        "a thread handle stored in an array element that holds the handle of a \
                         thread already started",
                    ));
                    self.plain_edge(cur, to, and(c.clone(), taken.clone()), vec![], Some(span));
                    ok.push((and(c, not(taken)), i));
                }
            }
        }
        ok
    }

    /// The slot variable of instance `k` in array `h`.
    pub(crate) fn handle_slot(&self, h: usize, k: usize) -> Option<VarId> {
        self.handle_arrays[h]
            .slots
            .iter()
            .find(|(t, _)| *t == k)
            .map(|(_, s)| *s)
    }

    /// Some instance started through `h` holds slot `i`.
    fn handle_taken(&self, h: usize, i: &Term) -> Cond {
        any(self.handle_arrays[h].slots.iter().map(|&(k, slot)| {
            let run = self.threads[k]
                .run
                .expect("created threads have a run flag");
            and(
                cmp(CmpOp::Eq, Term::Var(run), Term::Const(1)),
                cmp(CmpOp::Eq, Term::Var(slot), i.clone()),
            )
        }))
    }

    /// `pthread_join(A[i], res)`: waits for the instance in slot `i` to end
    /// (and for `finished > joined`), counting the join.
    pub(crate) fn handle_join(
        &mut self,
        h: usize,
        index: &Node<Expression>,
        res: &Node<Expression>,
        span: Span,
    ) -> Result<Val> {
        let res = self.eval(res)?;
        if res.constant() != Some(0) {
            return Err(LowerError::unsupported(
                span,
                "the result of a thread joined through an array of thread handles",
            ));
        }
        let i = self.handle_index(h, index, span)?;
        self.inputs_before_wait(span);
        let Some(cur) = self.t.cur else {
            return Ok(Val::int(0));
        };
        let next = self.new_loc(None);
        let a = self.handle_arrays[h].clone();
        let fresh = cmp(CmpOp::Gt, Term::Var(a.finished), Term::Var(a.joined));
        let count = vec![(a.joined, add(Term::Var(a.joined), Term::Const(1)))];
        for (c, r) in i.cases {
            match r {
                Res::Ub(u) => self.give_up_edge(cur, c, u, span),
                Res::Val(i) => {
                    for &(k, slot) in &a.slots {
                        let ended = and(
                            Cond::At(ThreadId::new(k), LocId::new(END)),
                            cmp(CmpOp::Eq, Term::Var(slot), i.clone()),
                        );
                        let g = and(c.clone(), and(ended, fresh.clone()));
                        self.plain_edge(cur, next, g, count.clone(), Some(span));
                    }
                    let none = and(c, not(self.handle_taken(h, &i)));
                    let to = self.give_up_of(slot_give_up(
                        "pthread_join on an array element that holds no thread started here",
                    ));
                    self.plain_edge(cur, to, none, vec![], Some(span));
                }
            }
        }
        self.mark_wait(cur, crate::WaitKind::Join, span);
        self.flush();
        self.t.cur = Some(next);
        Ok(Val::int(0))
    }

    /// The assignment of the last step of instance `k`: one more ended
    /// instance of its array of thread handles, if it has one.
    pub(crate) fn handle_finished(&self, k: usize) -> Option<(VarId, Term)> {
        let h = self.threads[k].handles?;
        let f = self.handle_arrays[h].finished;
        Some((f, add(Term::Var(f), Term::Const(1))))
    }

    /// The slot variables of every array of thread handles.
    pub(crate) fn handle_slots(&self) -> Vec<VarId> {
        self.handle_arrays
            .iter()
            .flat_map(|a| a.slots.iter().map(|&(_, s)| s))
            .collect()
    }
}

/// An allocation of thread handles not of their size.
fn handle_size_unsupported(span: Span) -> LowerError {
    LowerError::unsupported(
        span,
        "an allocation of thread handles whose size is not `n * sizeof(pthread_t)`",
    )
}

/// A give-up of the slots.
fn slot_give_up(reason: &str) -> crate::GiveUp {
    crate::GiveUp {
        kind: crate::GiveUpKind::HandleSlot,
        reason: reason.into(),
    }
}

/// The names of a unit used only as arrays of thread handles.
pub(crate) fn handle_names(
    unit: &frontend::lang_c::ast::TranslationUnit,
    wrappers: &Wrappers,
) -> HashSet<String> {
    let mut u = HandleUses {
        wrappers,
        indexed: HashSet::new(),
        other: HashSet::new(),
    };
    u.visit_translation_unit(unit);
    u.names()
}
