//! Atomic operations under sequential consistency: C11 `_Atomic` objects
//! and their compound operators, the C11 generic functions (as GCC's
//! `<stdatomic.h>` expands them, or called directly), and GCC's `__sync_*`
//! and `__atomic_*` builtins.
//!
//! A read-modify-write (`fetch_add`, `exchange`, compare-and-swap, `x++` on
//! an `_Atomic` object) is lowered as an atomic section around its load,
//! computation and store: the atomic flag keeps every other thread out
//! while it runs, and the compression merges the section into one step.
//! Plain atomic loads and stores touch one cell and are single steps
//! anyway. Memory orders are read as sequentially consistent (weaker orders
//! allow fewer reorderings than nothing; see SOUNDNESS.md), and fences are
//! no-ops. A weak compare-exchange may fail spuriously: its failure branch
//! is also taken, by a nondeterministic choice, when the values are equal.

use engine::ir::{CmpOp, Term};
use frontend::lang_c::ast::{
    BinaryOperator as B, DeclarationSpecifier, Declarator, DerivedDeclarator, Expression,
    PointerQualifier, TypeOf, TypeQualifier, TypeSpecifier, UnaryOperator as U,
};
use frontend::lang_c::span::{Node, Span};

use super::expr::{has_effects, Place, Target, Val};
use super::{Lowerer, ObjId};
use crate::cfg::EdgeKind;
use crate::error::{LowerError, Result};
use crate::term::{and, cmp, or, within};
use crate::types::{promote, CType, IntTy, Types};

/// Whether a declaration with these specifiers and this declarator declares
/// an `_Atomic` object (or typedef): `_Atomic int x`, `_Atomic(int) x`,
/// `atomic_int x`, arrays of those. A pointer to atomic is not itself
/// atomic; an atomic pointer (`int *_Atomic p`) is refused.
pub(crate) fn declares_atomic(
    types: &Types,
    specs: &[Node<DeclarationSpecifier>],
    d: &Declarator,
) -> Result<bool> {
    let mut pointer = false;
    for dd in &d.derived {
        if let DerivedDeclarator::Pointer(q) = &dd.node {
            pointer = true;
            if q.iter().any(|q| {
                matches!(&q.node, PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Atomic)
            }) {
                return Err(LowerError::unsupported(
                    dd.span,
                    "`_Atomic` pointer objects are not supported",
                ));
            }
        }
    }
    let atomic = specs.iter().any(|s| match &s.node {
        DeclarationSpecifier::TypeQualifier(q) => q.node == TypeQualifier::Atomic,
        DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
            TypeSpecifier::Atomic(_) => true,
            TypeSpecifier::TypedefName(n) => types.atomic_typedefs.contains(&n.node.name),
            _ => false,
        },
        _ => false,
    });
    Ok(atomic && !pointer)
}

/// Functions this module lowers (when the program does not define them).
pub(crate) fn is_atomic_builtin(name: &str) -> bool {
    name.starts_with("__sync_")
        || name.starts_with("__atomic_")
        || c11_name(name).is_some()
        || name == "atomic_thread_fence"
        || name == "atomic_signal_fence"
        || name == "atomic_init"
}

/// The C11 generic function a name is, without `_explicit`.
fn c11_name(name: &str) -> Option<&str> {
    let base = name.strip_suffix("_explicit").unwrap_or(name);
    matches!(
        base,
        "atomic_load"
            | "atomic_store"
            | "atomic_exchange"
            | "atomic_fetch_add"
            | "atomic_fetch_sub"
            | "atomic_fetch_and"
            | "atomic_fetch_or"
            | "atomic_fetch_xor"
            | "atomic_compare_exchange_strong"
            | "atomic_compare_exchange_weak"
            | "atomic_flag_test_and_set"
            | "atomic_flag_clear"
    )
    .then_some(base)
}

/// The operator of `fetch_OP` / `OP_fetch` / `fetch_and_OP` / `OP_and_fetch`.
fn rmw_op(op: &str) -> Option<B> {
    Some(match op {
        "add" => B::Plus,
        "sub" => B::Minus,
        "and" => B::BitwiseAnd,
        "or" => B::BitwiseOr,
        "xor" => B::BitwiseXor,
        _ => return None,
    })
}

/// What a read-modify-write returns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Returns {
    Old,
    New,
}

/// The expected value of a compare-and-swap: a value (`__sync_*`) or a
/// place that receives the current value on failure (`__atomic_*`, C11).
enum Expected {
    Value(Val),
    Place(Place),
}

impl Lowerer<'_> {
    /// The type `typeof` names, when the specifiers are `typeof(...)`.
    pub(super) fn typeof_specifier(
        &mut self,
        specs: &[TypeSpecifier],
        _span: Span,
    ) -> Result<Option<CType>> {
        for s in specs {
            if let TypeSpecifier::TypeOf(t) = s {
                return Ok(Some(match &t.node {
                    TypeOf::Expression(e) => self.static_type(e)?,
                    TypeOf::Type(n) => self.type_name(n)?,
                }));
            }
        }
        Ok(None)
    }

    /// Records object `o` as `_Atomic` when its declaration says so.
    pub(crate) fn mark_atomic(
        &mut self,
        o: ObjId,
        specs: &[Node<DeclarationSpecifier>],
        d: &Declarator,
    ) -> Result<()> {
        if declares_atomic(&self.types, specs, d)? {
            self.atomic_objects.insert(o);
        }
        Ok(())
    }

    /// Whether a place is an `_Atomic` object: every object it may be is
    /// one, or none is (a place that may be either is refused).
    pub(crate) fn atomic_place(&self, p: &Place, span: Span) -> Result<bool> {
        let (mut some, mut all) = (false, true);
        for (_, t) in &p.cases {
            if let Target::Cell(o, _) = t {
                if self.atomic_objects.contains(o) {
                    some = true;
                } else {
                    all = false;
                }
            }
        }
        if some && !all {
            return Err(LowerError::unsupported(
                span,
                "an update through a pointer that may point to `_Atomic` and to plain objects",
            ));
        }
        Ok(some)
    }

    /// `x++` and friends on an `_Atomic` place: one indivisible step.
    pub(crate) fn atomic_inc_dec(&mut self, op: U, p: Place, span: Span) -> Result<Option<Val>> {
        let delta = Val::int(super::expr::inc_dec_step(&op));
        let (old, new) = self.fetch_op(p, Some(B::Plus), delta, true, span)?;
        Ok(Some(super::expr::inc_dec_value(&op, old, new)))
    }

    /// `x op= e` on an `_Atomic` place: `e` is evaluated first, then the
    /// load, operation and store are one indivisible step.
    pub(crate) fn atomic_compound(
        &mut self,
        op: B,
        p: Place,
        rhs: &Node<Expression>,
        span: Span,
    ) -> Result<Option<Val>> {
        let v = self.eval(rhs)?;
        let (_, new) = self.fetch_op(p, Some(super::expr::compound_operator(op)), v, true, span)?;
        Ok(Some(new))
    }

    /// `op(old, v)` in the type of the place, with two's complement
    /// wrap-around for signed `+ - * <<` (atomic arithmetic has no
    /// undefined overflow).
    fn wrapping(&mut self, op: B, old: Val, v: Val, ty: &CType, span: Span) -> Result<Val> {
        match ty {
            CType::Int(t) if matches!(op, B::Plus | B::Minus | B::Multiply | B::ShiftLeft) => {
                let u = CType::Int(promote(*t).with_sign(false));
                let a = self.convert(old, &u, span)?;
                let b = if op == B::ShiftLeft {
                    v
                } else {
                    self.convert(v, &u, span)?
                };
                self.binary(op, a, b, span)
            }
            _ => self.binary(op, old, v, span),
        }
    }

    /// The read-modify-write `*p := op(*p, v)` (`op` `None`: exchange) as
    /// one atomic step; `v` is evaluated before it. `scaled`: pointer
    /// arithmetic counts elements (C's `++`), else it is refused (the
    /// builtins count bytes). Returns the old and the new value.
    fn fetch_op(
        &mut self,
        p: Place,
        op: Option<B>,
        v: Val,
        scaled: bool,
        span: Span,
    ) -> Result<(Val, Val)> {
        let ty = p.ty.clone();
        match (&ty, &op) {
            (CType::Int(_), _) | (CType::Ptr(_), None) => {}
            (CType::Ptr(_), Some(_)) if scaled => {}
            _ => {
                return Err(LowerError::unsupported(
                    span,
                    "atomic arithmetic on a value that is not an integer",
                ))
            }
        }
        let v = self.materialize(v, span)?;
        self.atomic_step(span, |l| {
            let old = l.read(p.clone(), span)?;
            let old = l.materialize(old, span)?;
            let new = match op {
                None => v,
                Some(op) => l.wrapping(op, old.clone(), v, &ty, span)?,
            };
            let new = l.convert(new, &ty, span)?;
            let new = l.materialize(new, span)?;
            l.store(p, new.clone(), span)?;
            Ok((old, new))
        })
    }

    /// An atomic load (`__atomic_load_n`, `atomic_load`): the read is an
    /// atomic access, inside an atomic section of its own (for the race
    /// check; without it the section is one step like a plain load).
    fn atomic_load(&mut self, p: Place, span: Span) -> Result<Val> {
        self.atomic_step(span, |l| {
            let v = l.read(p, span)?;
            l.materialize(v, span)
        })
    }

    /// An atomic store of `v`, computed before (its reads are not atomic).
    fn atomic_store(&mut self, p: Place, v: Val, span: Span) -> Result<()> {
        let v = self.materialize(v, span)?;
        self.atomic_step(span, |l| l.store(p, v, span))
    }

    /// Runs `body` as one indivisible step: inside an atomic section, with
    /// every shared load a step of its own (`split`) so that the section
    /// orders them.
    fn atomic_step<T>(
        &mut self,
        span: Span,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.atomic_edge(EdgeKind::AtomicBegin, span);
        let saved = self.t.split;
        self.t.split = true;
        let result = body(self);
        self.t.split = saved;
        self.atomic_edge(EdgeKind::AtomicEnd, span);
        result
    }

    /// Compare-and-swap as one atomic step: where `*p` equals the expected
    /// value (and a weak exchange does not fail spuriously), `*p :=
    /// desired` and the result is 1; elsewhere the result is 0 and an
    /// expected place receives `*p`. Returns (result, old value).
    fn compare_exchange(
        &mut self,
        p: Place,
        expected: Expected,
        desired: Val,
        weak: bool,
        span: Span,
    ) -> Result<(Val, Val)> {
        let ty = p.ty.clone();
        if !matches!(ty, CType::Int(_) | CType::Ptr(_)) {
            return Err(LowerError::unsupported(
                span,
                "compare-and-swap on a value that is not an integer or pointer",
            ));
        }
        let desired = self.convert(desired, &ty, span)?;
        let desired = self.materialize(desired, span)?;
        let (exp_val, exp_place) = match expected {
            Expected::Value(v) => (v, None),
            Expected::Place(ep) => {
                let v = self.read(ep.clone(), span)?;
                (v, Some(ep))
            }
        };
        let exp_val = self.convert(exp_val, &ty, span)?;
        let exp_val = self.materialize(exp_val, span)?;
        let res = self.temp(&CType::Int(IntTy::BOOL));
        let old = self.atomic_step(span, |l| {
            let old = l.read(p.clone(), span)?;
            let old = l.materialize(old, span)?;
            let eq = l.binary(B::Equals, old.clone(), exp_val, span)?;
            let (mut ok, mut fail, ub) = l.truth(&eq);
            if weak {
                let s = l.temp(&CType::Int(IntTy::BOOL));
                l.t.pending_havoc.push(s);
                l.t.pending_guard.push(within(&Term::Var(s), 0, 1));
                let spurious = cmp(CmpOp::Eq, Term::Var(s), Term::Const(1));
                fail = or(fail, and(ok.clone(), spurious.clone()));
                ok = and(ok, crate::term::not(spurious));
            }
            let (lt, lf, join) = (l.new_loc(None), l.new_loc(None), l.new_loc(None));
            if let Some(cur) = l.t.cur.take() {
                l.plain_edge(cur, lt, ok, vec![], Some(span));
                l.plain_edge(cur, lf, fail, vec![], Some(span));
                for (c, r) in ub {
                    l.give_up_edge(cur, c, &r, span);
                }
            }
            l.flush();
            l.t.cur = Some(lt);
            l.store(p.clone(), desired, span)?;
            l.assign_temp(res, Val::int(1), span)?;
            l.goto(join);
            l.t.cur = Some(lf);
            if let Some(ep) = exp_place {
                l.store(ep, old.clone(), span)?;
            }
            l.assign_temp(res, Val::int(0), span)?;
            l.goto(join);
            l.t.cur = Some(join);
            Ok(old)
        })?;
        Ok((Val::term(Term::Var(res), CType::Int(IntTy::BOOL)), old))
    }

    /// The place a pointer argument designates: `&x` is `x` itself (its
    /// address is not taken: `lower::AddrNames` skips these arguments),
    /// anything else is dereferenced.
    pub(super) fn arg_place(&mut self, e: &Node<Expression>, span: Span) -> Result<Place> {
        match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == U::Address => {
                self.place(&u.node.operand)
            }
            _ => self.pointee(e, span),
        }
    }

    /// The place an atomic builtin's pointer argument designates; an
    /// `atomic_flag` (a struct of one flag) is its first cell.
    fn atomic_target(&mut self, e: &Node<Expression>, span: Span) -> Result<Place> {
        let p = self.arg_place(e, span)?;
        match p.ty {
            CType::Struct(s) => {
                let (fty, foff) = self.types.structs[s]
                    .fields
                    .first()
                    .map(|(_, t, o)| (t.clone(), *o))
                    .ok_or_else(|| {
                        LowerError::unsupported(span, "atomic operation on an empty struct")
                    })?;
                Ok(Place {
                    cases: p
                        .cases
                        .into_iter()
                        .map(|(c, t)| match t {
                            Target::Cell(o, off) => (c, Target::Cell(o, off + foff)),
                            ub => (c, ub),
                        })
                        .collect(),
                    ty: fty,
                })
            }
            _ => Ok(p),
        }
    }

    /// Lowers a call to an atomic builtin; `None` when `name` is not one
    /// (or the program defines it).
    pub(crate) fn atomic_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        if !is_atomic_builtin(name) || self.function_exists(name) {
            return Ok(None);
        }
        let arg = |i: usize| -> Result<&Node<Expression>> {
            args.get(i)
                .ok_or_else(|| LowerError::invalid(span, format!("`{name}` needs more arguments")))
        };
        // Memory orders and the like: evaluated by C, ignored here.
        let quiet = |from: usize| -> Result<()> {
            if args.iter().skip(from).any(has_effects) {
                return Err(LowerError::unsupported(
                    span,
                    format!("memory-order arguments with side effects to `{name}`"),
                ));
            }
            Ok(())
        };
        let void = Val::term(Term::Const(0), CType::Void);
        let c11 = c11_name(name);
        let op_name = name
            .strip_prefix("__atomic_")
            .or_else(|| name.strip_prefix("__sync_"))
            .or(c11.and_then(|n| n.strip_prefix("atomic_")))
            .unwrap_or(name);
        let sync = name.starts_with("__sync_");
        let v = match (sync, c11.is_some(), op_name) {
            (_, _, "thread_fence" | "signal_fence" | "synchronize")
            | (false, false, "atomic_thread_fence" | "atomic_signal_fence") => {
                quiet(0)?;
                void
            }
            (false, false, "always_lock_free" | "is_lock_free") => {
                quiet(0)?;
                Val::int(1)
            }
            (false, _, "load_n" | "load") if c11.is_some() || op_name == "load_n" => {
                quiet(1)?;
                let p = self.atomic_target(arg(0)?, span)?;
                self.atomic_load(p, span)?
            }
            (false, false, "load") => {
                quiet(2)?;
                let p = self.atomic_target(arg(0)?, span)?;
                let v = self.atomic_load(p, span)?;
                let r = self.arg_place(arg(1)?, span)?;
                self.store(r, v, span)?;
                void
            }
            (false, _, "store_n" | "store") if c11.is_some() || op_name == "store_n" => {
                quiet(2)?;
                let p = self.atomic_target(arg(0)?, span)?;
                let v = self.eval(arg(1)?)?;
                self.atomic_store(p, v, span)?;
                void
            }
            (false, false, "store") => {
                quiet(2)?;
                let p = self.atomic_target(arg(0)?, span)?;
                let src = self.arg_place(arg(1)?, span)?;
                let v = self.read(src, span)?;
                self.atomic_store(p, v, span)?;
                void
            }
            (false, false, "atomic_init") => {
                let p = self.atomic_target(arg(0)?, span)?;
                let v = self.eval(arg(1)?)?;
                self.store(p, v, span)?;
                void
            }
            (false, _, "exchange_n" | "exchange") | (true, false, "lock_test_and_set")
                if c11.is_some() || op_name != "exchange" =>
            {
                quiet(2)?;
                let p = self.atomic_target(arg(0)?, span)?;
                let v = self.eval(arg(1)?)?;
                self.fetch_op(p, None, v, false, span)?.0
            }
            (false, false, "exchange") => {
                quiet(3)?;
                let p = self.atomic_target(arg(0)?, span)?;
                let src = self.arg_place(arg(1)?, span)?;
                let v = self.read(src, span)?;
                let (old, _) = self.fetch_op(p, None, v, false, span)?;
                let r = self.arg_place(arg(2)?, span)?;
                self.store(r, old, span)?;
                void
            }
            (true, false, "lock_release")
            | (false, false, "clear")
            | (false, true, "flag_clear") => {
                quiet(1)?;
                let p = self.atomic_target(arg(0)?, span)?;
                self.atomic_store(p, Val::int(0), span)?;
                void
            }
            (false, false, "test_and_set") | (false, true, "flag_test_and_set") => {
                quiet(1)?;
                let p = self.atomic_target(arg(0)?, span)?;
                let (old, _) = self.fetch_op(p, None, Val::int(1), false, span)?;
                self.binary(B::NotEquals, old, Val::int(0), span)?
            }
            (true, false, "bool_compare_and_swap" | "val_compare_and_swap") => {
                let p = self.atomic_target(arg(0)?, span)?;
                let e = self.eval(arg(1)?)?;
                let e = self.materialize(e, span)?;
                let d = self.eval(arg(2)?)?;
                let (res, old) = self.compare_exchange(p, Expected::Value(e), d, false, span)?;
                if op_name.starts_with("bool") {
                    res
                } else {
                    old
                }
            }
            (false, _, "compare_exchange_n" | "compare_exchange")
            | (false, true, "compare_exchange_strong" | "compare_exchange_weak") => {
                let generic = c11.is_none() && op_name == "compare_exchange";
                let p = self.atomic_target(arg(0)?, span)?;
                let ep = self.arg_place(arg(1)?, span)?;
                let d = if generic {
                    let src = self.arg_place(arg(2)?, span)?;
                    self.read(src, span)?
                } else {
                    self.eval(arg(2)?)?
                };
                let weak = match c11 {
                    Some(n) => n.ends_with("weak"),
                    None => {
                        quiet(3)?;
                        // A weak flag that is not a constant 0 may be weak.
                        self.eval(arg(3)?)?.constant() != Some(0)
                    }
                };
                if c11.is_some() {
                    quiet(3)?;
                }
                self.compare_exchange(p, Expected::Place(ep), d, weak, span)?
                    .0
            }
            (_, _, op) => {
                let (kind, ret) = if let Some(o) = op.strip_prefix("fetch_and_") {
                    (o, Returns::Old)
                } else if let Some(o) = op.strip_suffix("_and_fetch") {
                    (o, Returns::New)
                } else if let Some(o) = op.strip_prefix("fetch_") {
                    (o, Returns::Old)
                } else if let Some(o) = op.strip_suffix("_fetch") {
                    (o, Returns::New)
                } else {
                    return Err(LowerError::unsupported(
                        span,
                        format!("`{name}` is not modelled"),
                    ));
                };
                let Some(bop) = rmw_op(kind) else {
                    return Err(LowerError::unsupported(
                        span,
                        format!("`{name}` is not modelled"),
                    ));
                };
                quiet(2)?;
                let p = self.atomic_target(arg(0)?, span)?;
                let v = self.eval(arg(1)?)?;
                let (old, new) = self.fetch_op(p, Some(bop), v, false, span)?;
                match ret {
                    Returns::Old => old,
                    Returns::New => new,
                }
            }
        };
        Ok(Some(v))
    }
}
