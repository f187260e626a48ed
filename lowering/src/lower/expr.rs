//! Expressions: values as case lists, places (lvalues), conversions with
//! exact wrap-around, and the loads that keep shared accesses apart.

use engine::ir::{ArrayId, CmpOp, Cond, NlOp, Term, VarId};
use frontend::lang_c::ast::{
    BinaryOperator as B, Constant, Expression, Integer, IntegerBase, IntegerSize, MemberOperator,
    UnaryOperator as U,
};
use frontend::lang_c::span::{Node, Span};

use super::capabilities::PlaceUse;
use super::{Binding, Lowerer, ObjId, Ub};
use crate::error::{LowerError, Result};
use crate::term::{add, and, any, cmp, mul, neg, nl, not, range_of, sub, within, Range};
use crate::types::{common_type, promote, CType, IntTy, Types};
use crate::Violation;

/// Most cases one expression may split into.
const MAX_CASES: usize = 2048;

/// Most cases one array access may split into: a cell of any array that
/// has a variable per cell (at most [`crate::types::MAX_CELLS`], `int
/// g[64][64]` indexed by two varying indices among them), and the cases
/// outside it.
const MAX_ACCESS_CASES: usize = 2 * crate::types::MAX_CELLS as usize;

/// The outcome of evaluating an expression in one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Res {
    /// A value.
    Val(Term),
    /// Undefined or unmodelled behaviour: the program gives up here.
    Ub(super::Ub),
}

/// A value: one term per case; the case conditions partition the states.
#[derive(Clone, Debug)]
pub struct Val {
    pub cases: Vec<(Cond, Res)>,
    pub ty: CType,
}

impl Val {
    pub fn term(t: Term, ty: CType) -> Val {
        Val {
            cases: vec![(Cond::True, Res::Val(t))],
            ty,
        }
    }
    pub fn int(k: i64) -> Val {
        Val::term(Term::Const(k), CType::Int(IntTy::INT))
    }
    /// The value's term when it has one case only, without condition.
    pub fn single(&self) -> Option<Term> {
        match self.cases.as_slice() {
            [(Cond::True, Res::Val(t))] => Some(t.clone()),
            _ => None,
        }
    }

    /// The single constant of the value, if it is one.
    pub fn constant(&self) -> Option<i64> {
        match self.cases.as_slice() {
            [(Cond::True, Res::Val(Term::Const(k)))] => Some(*k),
            _ => None,
        }
    }
}

/// Where a place is, in one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The object and the offset of the place's first cell in it.
    Cell(ObjId, u64),
    /// Undefined behaviour (an invalid pointer, an index out of bounds).
    Ub(super::Ub),
    /// An element of the tail of a heap array of run-time length
    /// ([`super::tails`]): the tracked one or another, at address `addr`.
    Tail {
        obj: ObjId,
        addr: Term,
        tracked: bool,
    },
}

/// An lvalue: its target per case, and its type.
#[derive(Clone, Debug)]
pub struct Place {
    pub cases: Vec<(Cond, Target)>,
    pub ty: CType,
}

/// Parses an integer literal: its value and type.
pub(crate) fn parse_integer(i: &Integer, types: &Types, span: Span) -> Result<(i128, IntTy)> {
    let radix = match i.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = i.number.trim_start_matches("0x").trim_start_matches("0X");
    let digits = if radix == 2 {
        digits.trim_start_matches("0b").trim_start_matches("0B")
    } else {
        digits
    };
    let v = i128::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix)
        .map_err(|_| LowerError::unsupported(span, "integer literal out of range"))?;
    let unsigned = i.suffix.unsigned;
    let long = types.long(true);
    let candidates: Vec<IntTy> = match i.suffix.size {
        IntegerSize::Int => vec![
            IntTy::INT,
            long,
            IntTy {
                bits: 64,
                signed: true,
                rank: 5,
            },
        ],
        IntegerSize::Long => vec![
            long,
            IntTy {
                bits: 64,
                signed: true,
                rank: 5,
            },
        ],
        IntegerSize::LongLong => vec![IntTy {
            bits: 64,
            signed: true,
            rank: 5,
        }],
    };
    for c in candidates {
        let (s, u) = (c, c.with_sign(false));
        if !unsigned && v <= s.max() {
            return Ok((v, s));
        }
        if (unsigned || radix != 10) && v <= u.max() {
            return Ok((v, u));
        }
    }
    let ull = IntTy {
        bits: 64,
        signed: false,
        rank: 5,
    };
    if v <= ull.max() {
        return Ok((v, ull));
    }
    Err(LowerError::unsupported(
        span,
        "integer literal out of range",
    ))
}

/// The value of a character constant (`'a'`, `'\n'`, `'\0'`, `'\x41'`).
pub(crate) fn parse_char(s: &str) -> Option<i128> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    let v = match chars.next()? {
        '\\' => match chars.next()? {
            'n' => 10,
            't' => 9,
            'r' => 13,
            '0'..='7' => i128::from_str_radix(&inner[1..], 8).ok()?,
            'x' => i128::from_str_radix(&inner[2..], 16).ok()?,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            c => c as i128,
        },
        c if inner.len() == c.len_utf8() => c as i128,
        _ => return None,
    };
    // `char` is signed: '\xff' is -1.
    Some(super::wrap_const(v, IntTy::CHAR))
}

pub(crate) fn is_compatible(a: &CType, b: &CType) -> bool {
    match (a, b) {
        (CType::Int(x), CType::Int(y)) => x.bits == y.bits,
        (CType::Ptr(_), CType::Ptr(_)) => true,
        (a, b) => a == b,
    }
}

impl Lowerer<'_> {
    fn range(&self, t: &Term) -> Range {
        range_of(t, &|v: VarId| self.vars[v.index()].range)
    }

    /// The place of a whole object.
    pub(crate) fn whole(&self, o: ObjId) -> Place {
        Place {
            cases: vec![(Cond::True, Target::Cell(o, 0))],
            ty: self.objects[o].ty.clone(),
        }
    }

    /// Whether an object may be accessed by other threads.
    pub(crate) fn maybe_shared(&self, o: ObjId) -> bool {
        self.objects[o].addr_taken || self.objects[o].owner != Some(self.t.index)
    }

    /// Combines two values case by case.
    pub(crate) fn combine(
        &mut self,
        a: &Val,
        b: &Val,
        ty: CType,
        span: Span,
        mut f: impl FnMut(&mut Self, &Term, &Term) -> Result<Vec<(Cond, Res)>>,
    ) -> Result<Val> {
        let mut cases = Vec::new();
        for (ca, ra) in &a.cases {
            for (cb, rb) in &b.cases {
                let c = and(ca.clone(), cb.clone());
                if c == Cond::False {
                    continue;
                }
                match (ra, rb) {
                    (Res::Ub(r), _) | (_, Res::Ub(r)) => cases.push((c, Res::Ub(r.clone()))),
                    (Res::Val(x), Res::Val(y)) => {
                        for (c2, r) in f(self, x, y)? {
                            let c3 = and(c.clone(), c2);
                            if c3 != Cond::False {
                                cases.push((c3, r));
                            }
                        }
                    }
                }
                if cases.len() > MAX_CASES {
                    return Err(LowerError::unsupported(
                        span,
                        "expression splits into too many cases",
                    ));
                }
            }
        }
        Ok(Val { cases, ty })
    }

    fn map(
        &mut self,
        a: &Val,
        ty: CType,
        span: Span,
        mut f: impl FnMut(&mut Self, &Term) -> Result<Vec<(Cond, Res)>>,
    ) -> Result<Val> {
        let one = Val::int(0);
        self.combine(a, &one, ty, span, |me, x, _| f(me, x))
    }

    /// `t` reduced into the range of `ty` modulo 2^bits.
    pub(crate) fn wrap(&mut self, t: Term, ty: IntTy, span: Span) -> Result<Vec<(Cond, Res)>> {
        let r = self.range(&t);
        let (min, max) = (ty.min(), ty.max());
        if ty.is_bool() {
            return Ok(vec![
                (
                    cmp(CmpOp::Ne, t.clone(), Term::Const(0)),
                    Res::Val(Term::Const(1)),
                ),
                (cmp(CmpOp::Eq, t, Term::Const(0)), Res::Val(Term::Const(0))),
            ]);
        }
        if r.lo.is_some_and(|l| l >= min) && r.hi.is_some_and(|h| h <= max) {
            return Ok(vec![(Cond::True, Res::Val(t))]);
        }
        let m = 1i128 << ty.bits;
        // 2^bits as a term (beyond 64 bits for `unsigned long long`).
        let modulus = || Term::literal(m).expect("2^64 is a literal");
        if let (Some(lo), Some(hi)) = (r.lo, r.hi) {
            let kmin = (lo - min).div_euclid(m);
            let kmax = (hi - min).div_euclid(m);
            if kmax - kmin <= 3 {
                let mut out = Vec::new();
                for k in kmin..=kmax {
                    let shift = Term::literal(k * m)
                        .ok_or_else(|| LowerError::unsupported(span, "value out of range"))?;
                    let lo_c = if k == kmin {
                        Cond::True
                    } else {
                        within(&t, min + k * m, i128::MAX)
                    };
                    let hi_c = if k == kmax {
                        Cond::True
                    } else {
                        within(&t, i128::MIN, max + k * m)
                    };
                    out.push((and(lo_c, hi_c), Res::Val(sub(t.clone(), shift))));
                }
                return Ok(out);
            }
        }
        // A non-linear value: its residue, computed exactly by the engines
        // that take non-linear terms (the others refuse the program anyway).
        if t.nonlinear() {
            let shifted = sub(t, Term::Const(min as i64));
            let residue = match i64::try_from(m) {
                Ok(m) => Term::Mod(Box::new(shifted), m),
                // Beyond a 64-bit literal: `crem(crem(t, m) + m, m)`.
                Err(_) => nl(
                    NlOp::Rem,
                    add(nl(NlOp::Rem, shifted, modulus()), modulus()),
                    modulus(),
                ),
            };
            return Ok(vec![(
                Cond::True,
                Res::Val(add(residue, Term::Const(min as i64))),
            )]);
        }
        // Many wraps: a quotient chosen by a local havoc, fixed by a guard.
        let q = self.temp(&CType::Int(IntTy::LLONG));
        self.vars[q.index()].range = Range::ALL;
        self.t.pending_havoc.push(q);
        let rem = match i64::try_from(m) {
            Ok(m) => sub(t, mul(m, Term::Var(q))),
            // `2^64 * q` as `4 * (2^62 * q)`.
            Err(_) => sub(t, mul(4, mul(1 << 62, Term::Var(q)))),
        };
        self.t.pending_guard.push(within(&rem, min, max));
        Ok(vec![(Cond::True, Res::Val(rem))])
    }

    /// Converts a value to a type (C's conversions, exact).
    pub(crate) fn convert(&mut self, v: Val, to: &CType, span: Span) -> Result<Val> {
        match to {
            CType::Void => Ok(Val {
                cases: v.cases,
                ty: CType::Void,
            }),
            CType::Int(t) => {
                let t = *t;
                if matches!(v.ty, CType::Float(_)) {
                    return Ok(self.observe_float(&v, t));
                }
                if v.ty == *to {
                    return Ok(v);
                }
                self.map(&v, to.clone(), span, |me, x| me.wrap(x.clone(), t, span))
            }
            CType::Float(_) if matches!(v.ty, CType::Ptr(_)) => Err(LowerError::invalid(
                span,
                "a pointer converted to a floating-point type",
            )),
            CType::Float(_) => Ok(Self::to_float(v, to)),
            CType::Ptr(_) if matches!(v.ty, CType::Float(_)) => Err(LowerError::invalid(
                span,
                "a floating-point value converted to a pointer",
            )),
            _ => Ok(Val {
                cases: v.cases,
                ty: to.clone(),
            }),
        }
    }

    /// The conditions under which a value is non-zero and zero, and its
    /// give-up cases.
    pub(crate) fn truth(&mut self, v: &Val) -> (Cond, Cond, Vec<(Cond, super::Ub)>) {
        if matches!(v.ty, CType::Float(_)) {
            let observed = self.observe_float(v, IntTy::BOOL);
            return self.truth(&observed);
        }
        let (mut t, mut f, mut ub) = (Cond::False, Cond::False, Vec::new());
        for (c, r) in &v.cases {
            match r {
                Res::Val(x) => {
                    t = crate::term::or(
                        t,
                        and(c.clone(), cmp(CmpOp::Ne, x.clone(), Term::Const(0))),
                    );
                    f = crate::term::or(
                        f,
                        and(c.clone(), cmp(CmpOp::Eq, x.clone(), Term::Const(0))),
                    );
                }
                Res::Ub(r) => ub.push((c.clone(), r.clone())),
            }
        }
        (t, f, ub)
    }

    /// A 0/1 value from a condition.
    fn bool_val(c: Cond) -> Val {
        Val {
            cases: vec![
                (c.clone(), Res::Val(Term::Const(1))),
                (not(c), Res::Val(Term::Const(0))),
            ],
            ty: CType::Int(IntTy::INT),
        }
        .pruned()
    }

    /// Evaluates an expression to a value (may emit edges for side effects
    /// and shared loads).
    pub(crate) fn eval(&mut self, e: &Node<Expression>) -> Result<Val> {
        let span = e.span;
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name)? {
                Some(Binding::Enum(k)) => Ok(Val::int(k as i64)),
                Some(Binding::Const(k, ty)) => Ok(Val::term(Term::Const(k), ty)),
                Some(Binding::Obj(_)) => {
                    let p = self.place(e)?;
                    self.read(p, span)
                }
                Some(Binding::Poison(why)) => Err(LowerError::unsupported(span, why)),
                // Only tested against null ([`handles::handle_names`]).
                Some(Binding::Handles(h)) => Ok(self.handle_pointer_value(h)),
                None if self.function_exists(&id.node.name) => {
                    Ok(self.function_value(&id.node.name))
                }
                None => Err(LowerError::invalid(
                    span,
                    format!(
                        "unknown identifier `{}`",
                        self.unit.display_name(&id.node.name)
                    ),
                )),
            },
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => {
                    let (v, t) = parse_integer(i, &self.types, span)?;
                    let v = Term::literal(v).ok_or_else(|| {
                        LowerError::unsupported(
                            span,
                            "integer literal beyond 2^120 is not modelled",
                        )
                    })?;
                    Ok(Val::term(v, CType::Int(t)))
                }
                Constant::Character(s) => {
                    let v = parse_char(s).ok_or_else(|| {
                        LowerError::unsupported(span, "unsupported character constant")
                    })?;
                    Ok(Val::int(v as i64))
                }
                Constant::Float(f) => Ok(self.float_constant(f)),
            },
            Expression::StringLiteral(lit) => self.string_literal(&lit.node, span),
            Expression::Member(_) | Expression::BinaryOperator(_) if is_place_expr(e) => {
                let p = self.place(e)?;
                self.read(p, span)
            }
            Expression::Call(c) => self.call(c, span),
            Expression::CompoundLiteral(cl) => {
                let p = self.compound_literal(cl, span)?;
                self.read(p, span)
            }
            Expression::SizeOfTy(s) => {
                let t = self.type_name(&s.node.0)?;
                let n = self
                    .types
                    .size_of(&t)
                    .ok_or_else(|| LowerError::unsupported(span, "sizeof of this type"))?;
                Ok(Val::term(
                    Term::Const(n as i64),
                    CType::Int(self.types.long(false)),
                ))
            }
            Expression::SizeOfVal(s) => {
                let t = self.static_type(&s.node.0)?;
                let n = self
                    .types
                    .size_of(&t)
                    .ok_or_else(|| LowerError::unsupported(span, "sizeof of this type"))?;
                Ok(Val::term(
                    Term::Const(n as i64),
                    CType::Int(self.types.long(false)),
                ))
            }
            Expression::Cast(c) => {
                let to = self.type_name(&c.node.type_name)?;
                let v = self.eval(&c.node.expression)?;
                self.convert(v, &to, span)
            }
            Expression::UnaryOperator(u) => {
                self.unary(u.node.operator.node.clone(), &u.node.operand, span)
            }
            Expression::BinaryOperator(b) => {
                let op = b.node.operator.node.clone();
                match op {
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
                    | B::AssignBitwiseXor => Ok(self
                        .assign_expr(op, &b.node.lhs, &b.node.rhs, span, true)?
                        .expect("value wanted")),
                    B::LogicalAnd | B::LogicalOr if self.must_branch(&b.node.rhs)? => {
                        self.eval_by_branching(e)
                    }
                    B::LogicalAnd | B::LogicalOr => {
                        let a = self.eval(&b.node.lhs)?;
                        let (at, af, aub) = self.truth(&a);
                        let evaluated = if op == B::LogicalAnd { &at } else { &af };
                        let c = self.eval_when(evaluated.clone(), &b.node.rhs)?;
                        let (ct, cf, cub) = self.truth(&c);
                        let mut cases: Vec<(Cond, Res)> =
                            aub.into_iter().map(|(c, r)| (c, Res::Ub(r))).collect();
                        let (short, cont, short_val) = if op == B::LogicalAnd {
                            (af, at, 0)
                        } else {
                            (at, af, 1)
                        };
                        cases.push((short, Res::Val(Term::Const(short_val))));
                        cases.push((and(cont.clone(), ct), Res::Val(Term::Const(1))));
                        cases.push((and(cont.clone(), cf), Res::Val(Term::Const(0))));
                        for (c, r) in cub {
                            cases.push((and(cont.clone(), c), Res::Ub(r)));
                        }
                        Ok(Val {
                            cases,
                            ty: CType::Int(IntTy::INT),
                        }
                        .pruned())
                    }
                    _ => {
                        let a = self.eval(&b.node.lhs)?;
                        let a = if has_effects(&b.node.rhs) {
                            self.materialize(a, span)?
                        } else {
                            a
                        };
                        let c = self.eval(&b.node.rhs)?;
                        self.binary(op, a, c, span)
                    }
                }
            }
            Expression::Conditional(c) => {
                if self.must_branch(&c.node.then_expression)?
                    || self.must_branch(&c.node.else_expression)?
                {
                    return self.eval_by_branching(e);
                }
                let cond = self.eval(&c.node.condition)?;
                let (t, f, ub) = self.truth(&cond);
                let a = self.eval_when(t.clone(), &c.node.then_expression)?;
                let b = self.eval_when(f.clone(), &c.node.else_expression)?;
                let ty = match (&a.ty, &b.ty) {
                    (CType::Int(x), CType::Int(y)) => CType::Int(common_type(*x, *y, IntTy::INT)),
                    (CType::Void, _) | (_, CType::Void) => CType::Void,
                    (CType::Ptr(_), _) => a.ty.clone(),
                    _ => b.ty.clone(),
                };
                let a = self.convert(a, &ty, span)?;
                let b = self.convert(b, &ty, span)?;
                let mut cases: Vec<(Cond, Res)> =
                    ub.into_iter().map(|(c, r)| (c, Res::Ub(r))).collect();
                for (c, r) in a.cases {
                    cases.push((and(t.clone(), c), r));
                }
                for (c, r) in b.cases {
                    cases.push((and(f.clone(), c), r));
                }
                if cases.len() > MAX_CASES {
                    return Err(LowerError::unsupported(
                        span,
                        "expression splits into too many cases",
                    ));
                }
                Ok(Val { cases, ty }.pruned())
            }
            Expression::Comma(es) => {
                let mut last = Val::int(0);
                for (i, x) in es.iter().enumerate() {
                    if i + 1 == es.len() {
                        last = self.eval(x)?;
                    } else {
                        self.effect(x)?;
                    }
                }
                Ok(last)
            }
            Expression::Statement(s) => self.statement_expression(s),
            _ => Err(LowerError::unsupported(
                span,
                "this kind of expression is not supported",
            )),
        }
    }

    /// A string literal: the address of its first character in a `char`
    /// array of its own (one per distinct text), initialised with its
    /// characters and the terminating 0.
    pub(crate) fn string_literal(
        &mut self,
        lit: &frontend::lang_c::ast::StringLiteral,
        span: Span,
    ) -> Result<Val> {
        let char_ty = CType::Int(IntTy::CHAR);
        let key = lit.concat();
        let o = match self.literals.get(&key) {
            Some(&o) => o,
            None => {
                let chars = super::strings::literal_chars(lit).ok_or_else(|| {
                    LowerError::unsupported(span, "this kind of string literal is not modelled")
                })?;
                let name = format!("string.{}", self.literals.len());
                let ty = CType::Array(Box::new(char_ty.clone()), chars.len() as u64);
                let o = self.object(&name, ty, Some(0), span)?;
                self.objects[o].owner = None;
                self.objects[o].addr_taken = true;
                self.name_object(o, &name, None, None);
                self.set_initial_values(o, chars.into_iter().map(i128::from).collect());
                self.literals.insert(key, o);
                o
            }
        };
        Ok(Val::term(
            Term::Const(self.objects[o].base),
            CType::Ptr(Box::new(char_ty)),
        ))
    }

    /// Whether a conditionally evaluated operand needs real control flow:
    /// it has side effects, or its shared loads (which become steps of
    /// their own) must not happen when C does not evaluate it.
    pub(crate) fn must_branch(&mut self, e: &Node<Expression>) -> Result<bool> {
        Ok(has_effects(e) || (self.t.split && self.accesses(e)? > 0))
    }

    /// Evaluates `e` (a conditional or logical expression with side
    /// effects) by branching into a temporary.
    fn eval_by_branching(&mut self, e: &Node<Expression>) -> Result<Val> {
        let span = e.span;
        let tmp = self.temp(&CType::Int(IntTy::INT));
        let (cond, then_e, else_e, logical): Branches<'_> = match &e.node {
            Expression::Conditional(c) => (
                &c.node.condition,
                Some(&c.node.then_expression),
                Some(&c.node.else_expression),
                None,
            ),
            Expression::BinaryOperator(b) => (
                &b.node.lhs,
                None,
                Some(&b.node.rhs),
                Some(b.node.operator.node.clone()),
            ),
            _ => unreachable!("only conditionals and logical operators branch"),
        };
        let (lt, lf) = (self.new_loc(Some(span)), self.new_loc(Some(span)));
        let join = self.new_loc(Some(span));
        self.branch(cond, lt, lf)?;
        let mut ty = CType::Int(IntTy::INT);
        match logical {
            Some(op) => {
                // `a && b`: true branch evaluates b; `a || b`: false branch does.
                let (eval_at, short_at, short) = if op == B::LogicalAnd {
                    (lt, lf, 0)
                } else {
                    (lf, lt, 1)
                };
                self.t.cur = Some(short_at);
                self.assign_temp(tmp, Val::int(short), span)?;
                self.goto(join);
                self.t.cur = Some(eval_at);
                let v = self.eval(else_e.expect("rhs"))?;
                let (t, f, ub) = self.truth(&v);
                let mut cases: Vec<(Cond, Res)> =
                    ub.into_iter().map(|(c, r)| (c, Res::Ub(r))).collect();
                cases.push((t, Res::Val(Term::Const(1))));
                cases.push((f, Res::Val(Term::Const(0))));
                self.assign_temp(
                    tmp,
                    Val {
                        cases,
                        ty: ty.clone(),
                    }
                    .pruned(),
                    span,
                )?;
                self.goto(join);
            }
            None => {
                self.t.cur = Some(lt);
                let a = self.eval(then_e.expect("then"))?;
                ty = if a.ty == CType::Void { CType::Void } else { ty };
                if ty != CType::Void {
                    let a = self.convert(a, &ty, span)?;
                    self.assign_temp(tmp, a, span)?;
                }
                self.goto(join);
                self.t.cur = Some(lf);
                let b = self.eval(else_e.expect("else"))?;
                if ty != CType::Void {
                    let b = self.convert(b, &ty, span)?;
                    self.assign_temp(tmp, b, span)?;
                }
                self.goto(join);
            }
        }
        self.t.cur = Some(join);
        Ok(Val::term(Term::Var(tmp), ty))
    }

    /// An unconditional jump from the current location.
    pub(crate) fn goto(&mut self, to: crate::cfg::Loc) {
        if let Some(cur) = self.t.cur.take() {
            self.plain_edge(cur, to, Cond::True, vec![], None);
            self.flush();
        }
    }

    /// Stores a value into a temporary (one edge per case).
    pub(crate) fn assign_temp(&mut self, tmp: VarId, v: Val, span: Span) -> Result<()> {
        if self.probing {
            self.note_untyped_copy(tmp, &v);
        }
        let obj_like = vec![(Cond::True, TargetVar::Var(tmp))];
        self.emit_store(obj_like, v, span)
    }

    /// Evaluates `e` to one term (a call's argument the model reads as a
    /// value: a descriptor, a size); `what` names it in the refusal of a
    /// value with several cases.
    pub(crate) fn one_term(
        &mut self,
        e: &Node<Expression>,
        what: &str,
        span: Span,
    ) -> Result<Term> {
        let v = self.eval(e)?;
        self.materialized_term(v, what, span)
    }

    /// `v` materialized as one term.
    pub(crate) fn materialized_term(&mut self, v: Val, what: &str, span: Span) -> Result<Term> {
        let v = self.materialize(v, span)?;
        match v.cases.as_slice() {
            [(Cond::True, Res::Val(t))] => Ok(t.clone()),
            _ => Err(LowerError::unsupported(
                span,
                format!("{what} with several cases"),
            )),
        }
    }

    /// Stores `value` into `place` where `c` holds, and leaves its value
    /// elsewhere (a call that fills a buffer only when it succeeds).
    pub(crate) fn store_where(
        &mut self,
        place: Place,
        c: Cond,
        value: Term,
        what: &str,
        span: Span,
    ) -> Result<()> {
        let ty = place.ty.clone();
        let old = self.read(place.clone(), span)?;
        let old = self.materialized_term(old, what, span)?;
        let new = Val {
            cases: vec![
                (c.clone(), Res::Val(value)),
                (crate::term::not(c), Res::Val(old)),
            ],
            ty,
        };
        self.store(place, new, span)
    }

    /// Evaluates `v` into a fresh temporary, so later side effects cannot
    /// change it.
    pub(crate) fn materialize(&mut self, v: Val, span: Span) -> Result<Val> {
        if v.constant().is_some() || matches!(v.ty, CType::Void | CType::Func) {
            return Ok(v);
        }
        let ty = v.ty.clone();
        let tmp = self.temp(&ty);
        self.assign_temp(tmp, v, span)?;
        Ok(Val::term(Term::Var(tmp), ty))
    }

    /// Emits the edges of `target := value` per case, then moves on.
    pub(crate) fn emit_store(
        &mut self,
        targets: Vec<(Cond, TargetVar)>,
        v: Val,
        span: Span,
    ) -> Result<()> {
        let Some(cur) = self.t.cur else {
            self.flush();
            return Ok(());
        };
        let next = self.new_loc(Some(span));
        for (pc, target) in &targets {
            for (vc, r) in &v.cases {
                let c = and(pc.clone(), vc.clone());
                match (target, r) {
                    (TargetVar::Ub(reason), _) | (_, Res::Ub(reason)) => {
                        self.give_up_edge(cur, c, reason, span);
                    }
                    (TargetVar::Var(x), Res::Val(t)) => {
                        self.plain_edge(cur, next, c, vec![(*x, t.clone())], Some(span));
                    }
                    (TargetVar::Tagged(x, tags), Res::Val(t)) => {
                        let mut assigns = vec![(*x, t.clone())];
                        assigns.extend(tags.iter().cloned());
                        self.plain_edge(cur, next, c, assigns, Some(span));
                    }
                    (TargetVar::Skip, Res::Val(_)) => {
                        self.plain_edge(cur, next, c, vec![], Some(span));
                    }
                    (TargetVar::Element(a, i), Res::Val(t)) => {
                        let store = (*a, i.clone(), t.clone());
                        self.store_edge(cur, next, c, store, span);
                    }
                }
            }
        }
        self.flush();
        self.t.cur = Some(next);
        Ok(())
    }

    /// Emits a branch on `v`: to `t` where it is non-zero, `f` where zero.
    pub(crate) fn emit_branch(
        &mut self,
        v: &Val,
        t: crate::cfg::Loc,
        f: crate::cfg::Loc,
        span: Span,
    ) {
        let (ct, cf, ub) = self.truth(v);
        if let Some(cur) = self.t.cur.take() {
            self.plain_edge(cur, t, ct, vec![], Some(span));
            self.plain_edge(cur, f, cf, vec![], Some(span));
            for (c, r) in ub {
                self.give_up_edge(cur, c, &r, span);
            }
        }
        self.flush();
    }

    /// The address of a place, as a pointer of type `ty`; pointers may now
    /// point into its object.
    pub(crate) fn address(&mut self, p: Place, ty: CType) -> Val {
        let mut cases = Vec::new();
        for (c, t) in p.cases {
            cases.push(match t {
                Target::Cell(o, off) if self.in_later_member(o, off) => {
                    (c, Res::Ub(super::unions::MEMBER_ADDRESS.into()))
                }
                Target::Cell(o, off) => {
                    self.objects[o].addr_taken = true;
                    (c, Res::Val(Term::Const(self.objects[o].base + off as i64)))
                }
                Target::Tail { addr, .. } => (c, Res::Val(addr)),
                // `&a[n]` accesses nothing: not a violation, but not
                // modelled either (`&p->f` with `p` null is one: `p->f` is
                // `(*p).f`).
                Target::Ub(r) => (c, Res::Ub(r.of_address())),
            });
        }
        Val { cases, ty }
    }

    /// The value of a place (scalars; arrays decay to a pointer).
    pub(crate) fn read(&mut self, p: Place, span: Span) -> Result<Val> {
        match &p.ty {
            CType::Array(elem, _) => {
                let ty = CType::Ptr(elem.clone());
                return Ok(self.address(p, ty));
            }
            // A struct value is the address of the object holding it: a
            // store copies from there (`store_struct`). (Not a C pointer:
            // in a union member, it is no member's address.)
            CType::Struct(_) => {
                let ty = p.ty.clone();
                return Ok(self.struct_value(p, ty));
            }
            _ => {}
        }
        self.read_cells(p, None, span)
    }

    /// The address of the object a struct value is in (see [`Lowerer::read`]).
    fn struct_value(&mut self, p: Place, ty: CType) -> Val {
        let cases = p
            .cases
            .into_iter()
            .map(|(c, t)| match t {
                Target::Cell(o, off) => {
                    self.objects[o].addr_taken = true;
                    (c, Res::Val(Term::Const(self.objects[o].base + off as i64)))
                }
                other => {
                    let place = Place {
                        cases: vec![(c, other)],
                        ty: ty.clone(),
                    };
                    self.address(place, ty.clone()).cases.remove(0)
                }
            })
            .collect();
        Val { cases, ty }
    }

    /// The value of a scalar place. `copy`: the place is cell `i` of a copy
    /// of `n` cells (`(i, n)`), which copies the tags of the unions it
    /// covers: their members are read whatever their tags.
    fn read_cells(&mut self, p: Place, copy: Option<(u64, u64)>, span: Span) -> Result<Val> {
        let shared = p
            .cases
            .iter()
            .any(|(_, t)| matches!(t, Target::Cell(o, _) if self.maybe_shared(*o)));
        let shared = shared
            || p.cases
                .iter()
                .any(|(_, t)| matches!(t, Target::Tail { obj, .. } if self.maybe_shared(*obj)));
        self.note_tail_read(&p.cases);
        let mut cases = Vec::new();
        for (c, t) in &p.cases {
            match t {
                Target::Cell(o, off) => {
                    let cell = self.objects[*o].cells[*off as usize];
                    self.note_read(c, *o, cell);
                    let ok = self.union_readable(*o, *off, &copied(*off, copy));
                    if ok != Cond::True {
                        let punning = super::unions::PUNNING.into();
                        cases.push((and(c.clone(), not(ok.clone())), Res::Ub(punning)));
                    }
                    cases.push((and(c.clone(), ok), Res::Val(Term::Var(cell))));
                }
                Target::Tail { obj, addr, tracked } => {
                    cases.extend(self.tail_read(c, *obj, (addr, *tracked), &p.ty));
                }
                Target::Ub(r) => cases.push((c.clone(), Res::Ub(r.clone()))),
            }
        }
        let v = Val {
            cases,
            ty: p.ty.clone(),
        };
        if let CType::Float(_) = v.ty {
            // The read is noted; the value is the abstract one.
            return Ok(Self::to_float(v, &p.ty));
        }
        if shared && self.t.split {
            return self.materialize(v, span);
        }
        Ok(v)
    }

    /// Stores a value into a place (converted to the place's type).
    pub(crate) fn store(&mut self, p: Place, v: Val, span: Span) -> Result<()> {
        if let CType::Struct(_) = p.ty {
            return self.store_struct(p, v, span);
        }
        if self.probing && !self.untyped_carriers.is_empty() {
            self.note_untyped_store(&p, &v);
        }
        let v = self.convert(v, &p.ty.clone(), span)?;
        let targets = self.store_targets(&p, None);
        self.emit_store(targets, v, span)
    }

    /// The variables a store into a scalar place sets, per case (a cell in
    /// a union also sets the tags). `copy` as for [`Lowerer::read_cells`].
    fn store_targets(&self, p: &Place, copy: Option<(u64, u64)>) -> Vec<(Cond, TargetVar)> {
        let mut targets = Vec::new();
        for (c, t) in &p.cases {
            match t {
                Target::Cell(o, off) => {
                    let cell = self.objects[*o].cells[*off as usize];
                    for (tc, tags) in self.union_store(*o, *off, &copied(*off, copy)) {
                        let target = if tags.is_empty() {
                            TargetVar::Var(cell)
                        } else {
                            TargetVar::Tagged(cell, tags)
                        };
                        targets.push((and(c.clone(), tc), target));
                    }
                }
                Target::Tail {
                    obj,
                    addr,
                    tracked: true,
                } => {
                    if let Some(cases) = self.array_store_targets(c, *obj, addr, &p.ty) {
                        targets.extend(cases);
                        continue;
                    }
                    for (at, cell) in self.tracked_cells(*obj, addr, &p.ty) {
                        let target = match cell {
                            Some(cell) => TargetVar::Var(cell),
                            None => TargetVar::Ub(super::tails::TAIL_PART.into()),
                        };
                        targets.push((and(c.clone(), at), target));
                    }
                }
                Target::Tail { tracked: false, .. } => targets.push((c.clone(), TargetVar::Skip)),
                Target::Ub(r) => targets.push((c.clone(), TargetVar::Ub(r.clone()))),
            }
        }
        targets
    }

    /// Stores a struct value (the address of the object holding it,
    /// [`Lowerer::read`]): a copy, cell by cell.
    fn store_struct(&mut self, p: Place, v: Val, span: Span) -> Result<()> {
        if v.ty != p.ty {
            return Err(LowerError::unsupported(
                span,
                "struct assignment between different types",
            ));
        }
        let src = self.deref(v, p.ty.clone(), span)?;
        self.copy_struct(p, src, span)
    }

    /// The place an lvalue expression designates.
    pub(crate) fn place(&mut self, e: &Node<Expression>) -> Result<Place> {
        let span = e.span;
        // How the place is used, for the thread-safety check: by this
        // place and the places it is part of, not by its operands.
        let how = std::mem::take(&mut self.caps.place_use);
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name)? {
                Some(Binding::Obj(o)) => Ok(self.whole(o)),
                _ => Err(LowerError::invalid(
                    span,
                    format!(
                        "`{}` is not an object",
                        self.unit.display_name(&id.node.name)
                    ),
                )),
            },
            Expression::Member(m) => {
                let base = match m.node.operator.node {
                    MemberOperator::Direct => {
                        self.caps.place_use = how;
                        self.place(&m.node.expression)?
                    }
                    MemberOperator::Indirect => {
                        self.check_pointee(&m.node.expression, how, span);
                        let v = self.eval(&m.node.expression)?;
                        let pointee = match &v.ty {
                            CType::Ptr(t) => (**t).clone(),
                            _ => {
                                return Err(LowerError::unsupported(
                                    span,
                                    "`->` on a value that is not a pointer",
                                ))
                            }
                        };
                        self.deref(v, pointee, span)?
                    }
                };
                let CType::Struct(s) = base.ty else {
                    return Err(LowerError::unsupported(
                        span,
                        "member access on a value that is not a struct",
                    ));
                };
                let (fty, foff) = self
                    .types
                    .field(s, &m.node.identifier.node.name)
                    .ok_or_else(|| {
                        LowerError::invalid(
                            m.node.identifier.span,
                            format!("no field `{}`", m.node.identifier.node.name),
                        )
                    })?;
                Ok(Place {
                    cases: base
                        .cases
                        .into_iter()
                        .map(|(c, t)| match t {
                            Target::Cell(o, off) => (c, Target::Cell(o, off + foff)),
                            // A member of an element of a tail: by its
                            // address ([`Lowerer::tracked_cells`]).
                            Target::Tail { obj, addr, tracked } => (
                                c,
                                Target::Tail {
                                    obj,
                                    addr: add(addr, Term::Const(foff as i64)),
                                    tracked,
                                },
                            ),
                            ub => (c, ub),
                        })
                        .collect(),
                    ty: fty,
                })
            }
            Expression::BinaryOperator(b) if b.node.operator.node == B::Index => {
                let constant = match &b.node.lhs.node {
                    Expression::Identifier(id) => {
                        matches!(self.lookup(&id.node.name)?, Some(Binding::Const(..)))
                    }
                    _ => false,
                };
                let array = self.checking_capabilities()
                    && matches!(self.static_type(&b.node.lhs), Ok(CType::Array(..)));
                if !array {
                    self.check_pointee(&b.node.lhs, how, span);
                }
                let base = if is_place_expr(&b.node.lhs) && !constant {
                    if array {
                        self.caps.place_use = how;
                    }
                    Some(self.place(&b.node.lhs)?)
                } else {
                    None
                };
                match base {
                    Some(Place {
                        cases,
                        ty: CType::Array(elem, n),
                    }) => {
                        let esz = self.types.cells(&elem);
                        let arr = CType::Array(elem.clone(), n);
                        let idx = self.eval(&b.node.rhs)?;
                        let mut out = Vec::new();
                        for (pc, t) in cases {
                            for (ic, r) in &idx.cases {
                                let c = and(pc.clone(), ic.clone());
                                match (&t, r) {
                                    (Target::Ub(u), _) | (_, Res::Ub(u)) => {
                                        out.push((c, Target::Ub(u.clone())))
                                    }
                                    // An array in an element of a tail.
                                    (Target::Tail { obj, addr, tracked }, Res::Val(i)) => {
                                        let inside = crate::term::within(i, 0, i128::from(n) - 1);
                                        let at = add(addr.clone(), mul(esz as i64, i.clone()));
                                        let target = Target::Tail {
                                            obj: *obj,
                                            addr: at,
                                            tracked: *tracked,
                                        };
                                        out.push((and(c.clone(), inside.clone()), target));
                                        let outside = Ub::violates(
                                            Violation::Deref,
                                            "array index out of bounds",
                                        );
                                        out.push((and(c, not(inside)), Target::Ub(outside)));
                                    }
                                    // An array modelled as a tail (a large
                                    // static or local one, a variable-length
                                    // one): by the address of the element.
                                    (Target::Cell(o, off), Res::Val(i))
                                        if self.tails.contains_key(o) =>
                                    {
                                        let start = self.objects[*o].base + *off as i64;
                                        let at =
                                            add(Term::Const(start), mul(esz as i64, i.clone()));
                                        let hit = self.tail_targets(&mut out, &c, &at, &elem);
                                        let outside = Ub::violates(
                                            Violation::Deref,
                                            "array index out of bounds",
                                        );
                                        out.push((and(c, not(hit)), Target::Ub(outside)));
                                    }
                                    (Target::Cell(o, off), Res::Val(Term::Const(k))) => {
                                        if *k >= 0 && (*k as u64) < n {
                                            self.within_length(
                                                &mut out,
                                                c,
                                                *o,
                                                off + *k as u64 * esz,
                                            );
                                        } else {
                                            out.push((c, self.out_of_bounds(*o, *off, &arr)));
                                        }
                                    }
                                    (Target::Cell(o, off), Res::Val(i)) => {
                                        for k in 0..n {
                                            let at =
                                                cmp(CmpOp::Eq, i.clone(), Term::Const(k as i64));
                                            self.within_length(
                                                &mut out,
                                                and(c.clone(), at),
                                                *o,
                                                off + k * esz,
                                            );
                                        }
                                        // The index is none of `0..n`: a
                                        // range, not `n` disjuncts.
                                        let inside = within(i, 0, i128::from(n) - 1);
                                        out.push((
                                            and(c.clone(), not(inside)),
                                            self.out_of_bounds(*o, *off, &arr),
                                        ));
                                    }
                                }
                            }
                        }
                        if out.len() > MAX_ACCESS_CASES {
                            return Err(LowerError::unsupported(
                                span,
                                "array access splits into too many cases",
                            ));
                        }
                        Ok(Place {
                            cases: prune_targets(out),
                            ty: *elem,
                        })
                    }
                    base => {
                        // `p[i]` is `*(p + i)`.
                        let ptr = match base {
                            Some(p) => self.read(p, span)?,
                            None => self.eval(&b.node.lhs)?,
                        };
                        let idx = self.eval(&b.node.rhs)?;
                        let sum = self.binary(B::Plus, ptr, idx, span)?;
                        self.deref_val(sum, span)
                    }
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
                self.check_pointee(&u.node.operand, how, span);
                let v = self.eval(&u.node.operand)?;
                self.deref_val(v, span)
            }
            Expression::CompoundLiteral(cl) => self.compound_literal(cl, span),
            // A call of a function that returns a struct: the object its
            // value is in.
            Expression::Call(c) => {
                let v = self.call(c, span)?;
                match v.ty.clone() {
                    ty @ CType::Struct(_) => self.deref(v, ty, span),
                    _ => Err(LowerError::unsupported(
                        span,
                        "not an lvalue the lowering supports",
                    )),
                }
            }
            _ => Err(LowerError::unsupported(
                span,
                "not an lvalue the lowering supports",
            )),
        }
    }

    fn deref_val(&mut self, v: Val, span: Span) -> Result<Place> {
        let pointee = match &v.ty {
            CType::Ptr(t) => (**t).clone(),
            _ => {
                return Err(LowerError::unsupported(
                    span,
                    "dereference of a value that is not a pointer",
                ))
            }
        };
        self.deref(v, pointee, span)
    }

    /// The places a pointer value may designate: a case per object whose
    /// address is taken and whose part at that address has the pointee's
    /// type, and a give-up case for every other address.
    pub(crate) fn deref(&mut self, v: Val, pointee: CType, span: Span) -> Result<Place> {
        if matches!(pointee, CType::Void | CType::Func) {
            return Err(LowerError::unsupported(
                span,
                "dereference of a `void *` or function pointer",
            ));
        }
        let mut candidates: Vec<(ObjId, u64, i64)> = Vec::new();
        for o in 0..self.objects.len() {
            // A tail's addresses are its elements ([`Lowerer::tail_targets`]).
            if !self.objects[o].addr_taken || self.tails.contains_key(&o) {
                continue;
            }
            let mut subs = Vec::new();
            subobjects(&self.types, &self.objects[o].ty, 0, &mut subs);
            for (off, t) in subs {
                if is_compatible(&t, &pointee) {
                    candidates.push((o, off, self.objects[o].base + off as i64));
                }
            }
        }
        let mut out = Vec::new();
        for (c, r) in v.cases {
            // A constant address of an object's part; any other goes the
            // general way (it may lie in a tail).
            let known = match &r {
                Res::Val(Term::Const(a)) => candidates.iter().find(|x| x.2 == *a).copied(),
                _ => None,
            };
            match (r, known) {
                (_, Some((o, off, _))) => self.heap_target(&mut out, c, o, off),
                (Res::Ub(u), None) => out.push((c, Target::Ub(u))),
                (Res::Val(t), None) => {
                    let mut hit = vec![self.tail_targets(&mut out, &c, &t, &pointee)];
                    for &(o, off, a) in &candidates {
                        let at = cmp(CmpOp::Eq, t.clone(), Term::Const(a));
                        hit.push(at.clone());
                        self.heap_target(&mut out, and(c.clone(), at), o, off);
                    }
                    // A null pointer is invalid whatever the model; another
                    // address may be one the model does not resolve (a part
                    // of an object of another type).
                    let null = cmp(CmpOp::Eq, t.clone(), Term::Const(0));
                    // One past the end of an object: the gap after it, which
                    // pointer arithmetic reaches only from inside it (with
                    // memory safety checked, [`Lowerer::within_object`];
                    // otherwise the case gives up like any other).
                    let past = if self.checks.memsafety {
                        any(self
                            .extents(|_| true)
                            .map(|(_, end)| cmp(CmpOp::Eq, t.clone(), Term::Const(end))))
                    } else {
                        Cond::False
                    };
                    let other = and(c, not(any(hit)));
                    out.push((
                        and(other.clone(), null.clone()),
                        Target::Ub(Ub::violates(
                            Violation::Deref,
                            "dereference of a null pointer",
                        )),
                    ));
                    let other = and(other, not(null));
                    out.push((
                        and(other.clone(), past.clone()),
                        Target::Ub(Ub::violates(
                            Violation::Deref,
                            "access one past the end of an object",
                        )),
                    ));
                    out.push((
                        and(other, not(past)),
                        Target::Ub("invalid pointer dereference".into()),
                    ));
                }
            }
            if out.len() > MAX_CASES {
                return Err(LowerError::unsupported(
                    span,
                    "pointer may point to too many objects",
                ));
            }
        }
        Ok(Place {
            cases: prune_targets(out),
            ty: pointee,
        })
    }

    /// The target `(o, off)` under `c`; in a variable-length array only
    /// below its length (else the access gives up).
    pub(crate) fn within_length(&self, out: &mut Vec<(Cond, Target)>, c: Cond, o: ObjId, off: u64) {
        match self.lengths.get(&o) {
            None => out.push((c, Target::Cell(o, off))),
            Some(&(len, esz)) => {
                let index = Term::Const((off / esz.max(1)) as i64);
                let inside = cmp(CmpOp::Lt, index, Term::Var(len));
                out.push((and(c.clone(), inside.clone()), Target::Cell(o, off)));
                out.push((
                    and(c, not(inside)),
                    Target::Ub(Ub::violates(
                        Violation::Deref,
                        "access past the length of an array of run-time length",
                    )),
                ));
            }
        }
    }

    /// `r`, computed from the pointer `x` to `elem` by pointer arithmetic.
    /// With memory safety checked, `r` must stay in the object `x` points
    /// into (or one past its end), as C requires: an address past it may
    /// be another object's, which a dereference would then resolve to
    /// (SOUNDNESS.md, "Memory safety and overflow"). Leaving it gives up.
    fn within_object(&self, x: &Term, r: Term, elem: &CType) -> Vec<(Cond, Res)> {
        if !self.checks.memsafety || r == *x {
            return vec![(Cond::True, Res::Val(r))];
        }
        let mut spans: Vec<(i64, i64)> = self
            .extents(|ty| {
                let mut subs = Vec::new();
                subobjects(&self.types, ty, 0, &mut subs);
                subs.iter().any(|(_, t)| is_compatible(t, elem))
            })
            .collect();
        // A tail's addresses are a range of their own.
        spans.extend(
            self.tails
                .keys()
                .map(|&o| &self.objects[o])
                .filter(|obj| obj.addr_taken)
                .map(|obj| (obj.base, obj.base + super::tails::TAIL_SPACE)),
        );
        let inside = |t: &Term, (lo, hi): (i64, i64)| within(t, lo.into(), hi.into());
        let stays = match x {
            Term::Const(a) => spans
                .iter()
                .find(|&&(lo, hi)| (lo..=hi).contains(a))
                .map_or(Cond::False, |&s| inside(&r, s)),
            _ => any(spans.iter().map(|&s| and(inside(x, s), inside(&r, s)))),
        };
        vec![
            (stays.clone(), Res::Val(r)),
            (
                not(stays),
                Res::Ub("pointer arithmetic that leaves the object the pointer points into".into()),
            ),
        ]
    }

    /// The addresses of the objects pointers may point into (their address
    /// is taken), tails left out, whose type `accepts`: from the first cell
    /// to one past the last.
    fn extents<'s>(
        &'s self,
        accepts: impl Fn(&CType) -> bool + 's,
    ) -> impl Iterator<Item = (i64, i64)> + 's {
        self.objects
            .iter()
            .enumerate()
            .filter(move |&(o, obj)| {
                obj.addr_taken && !self.tails.contains_key(&o) && accepts(&obj.ty)
            })
            .map(|(_, obj)| (obj.base, obj.base + self.types.cells(&obj.ty) as i64))
    }

    /// An index out of the bounds of the array `arr` at `(o, off)`: a
    /// violation of `valid-deref` when the array is the whole object (the
    /// address is outside it); an index past a member or a row of an
    /// object may still address the object, which the model does not
    /// resolve.
    fn out_of_bounds(&self, o: ObjId, off: u64, arr: &CType) -> Target {
        let reason = "array index out of bounds";
        if off == 0 && self.objects[o].ty == *arr && !self.tails.contains_key(&o) {
            Target::Ub(Ub {
                on_access: true,
                ..Ub::violates(Violation::Deref, reason)
            })
        } else {
            Target::Ub(reason.into())
        }
    }

    /// The target `(o, off)` under `c`; a heap object only while it is
    /// allocated and not freed, a variable-length array only below its
    /// length (else the access gives up).
    fn heap_target(&self, out: &mut Vec<(Cond, Target)>, c: Cond, o: ObjId, off: u64) {
        match self.alive(o) {
            None => self.within_length(out, c, o, off),
            Some(live) => {
                self.within_length(out, and(c.clone(), live.clone()), o, off);
                let what = "access to heap memory that is freed or not allocated";
                let reason = match self.blocks.get(&o) {
                    Some(block) => format!("{what}: {block}"),
                    None => what.to_string(),
                };
                out.push((
                    and(c, not(live)),
                    Target::Ub(Ub::violates(Violation::Deref, reason)),
                ));
            }
        }
    }

    fn unary(&mut self, op: U, operand: &Node<Expression>, span: Span) -> Result<Val> {
        match op {
            U::Address => {
                if let Expression::Identifier(id) = &operand.node {
                    if self.lookup(&id.node.name)?.is_none() && self.function_exists(&id.node.name)
                    {
                        return Ok(self.function_value(&id.node.name));
                    }
                }
                // `&a[i]` is `a + i` (C11 6.5.3.2): with memory safety
                // checked, one past the end is an address like any other
                // ([`Lowerer::within_object`]).
                if let Expression::BinaryOperator(b) = &operand.node {
                    if b.node.operator.node == B::Index
                        && self.checks.memsafety
                        && matches!(
                            self.static_type(&b.node.lhs),
                            Ok(CType::Array(..) | CType::Ptr(_))
                        )
                    {
                        let base = self.eval(&b.node.lhs)?;
                        let index = self.eval(&b.node.rhs)?;
                        return self.binary(B::Plus, base, index, span);
                    }
                }
                self.caps.place_use = PlaceUse::Address;
                let p = self.place(operand)?;
                let ty = CType::Ptr(Box::new(p.ty.clone()));
                Ok(self.address(p, ty))
            }
            U::Indirection => {
                self.check_pointee(operand, PlaceUse::Read, span);
                let v = self.eval(operand)?;
                let p = self.deref_val(v, span)?;
                self.read(p, span)
            }
            U::Plus => {
                let v = self.eval(operand)?;
                if let CType::Float(_) = v.ty {
                    return Ok(v);
                }
                let t = self.int_type(&v, span)?;
                self.convert(v, &CType::Int(promote(t)), span)
            }
            U::Minus | U::Complement => {
                let v = self.eval(operand)?;
                if let (CType::Float(_), U::Minus) = (&v.ty, &op) {
                    // The negation of the abstract value is the abstract value.
                    return Ok(v);
                }
                let t = promote(self.int_type(&v, span)?);
                let v = self.convert(v, &CType::Int(t), span)?;
                self.map(&v, CType::Int(t), span, |me, x| {
                    let r = if op == U::Minus {
                        neg(x.clone())
                    } else {
                        sub(neg(x.clone()), Term::Const(1))
                    };
                    if t.signed {
                        Ok(me.signed_result(r, t))
                    } else {
                        me.wrap(r, t, span)
                    }
                })
            }
            U::Negate => {
                let v = self.eval(operand)?;
                let (t, f, ub) = self.truth(&v);
                let mut cases: Vec<(Cond, Res)> =
                    ub.into_iter().map(|(c, r)| (c, Res::Ub(r))).collect();
                cases.push((t, Res::Val(Term::Const(0))));
                cases.push((f, Res::Val(Term::Const(1))));
                Ok(Val {
                    cases,
                    ty: CType::Int(IntTy::INT),
                }
                .pruned())
            }
            U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement => self
                .inc_dec(op, operand, span, true)
                .map(|v| v.expect("value wanted")),
        }
    }

    /// `x++` and friends; with `want`, returns the expression's value.
    pub(crate) fn inc_dec(
        &mut self,
        op: U,
        operand: &Node<Expression>,
        span: Span,
        want: bool,
    ) -> Result<Option<Val>> {
        self.caps.place_use = PlaceUse::Write;
        let p = self.place(operand)?;
        if self.atomic_place(&p, span)? {
            return self.atomic_inc_dec(op, p, span);
        }
        let old = self.read(p.clone(), span)?;
        let old = if want {
            self.materialize(old, span)?
        } else {
            old
        };
        let new = self.binary(B::Plus, old.clone(), Val::int(inc_dec_step(&op)), span)?;
        let new = self.convert(new, &p.ty.clone(), span)?;
        if !want {
            self.store(p, new, span)?;
            return Ok(None);
        }
        let new = self.materialize(new, span)?;
        self.store(p, new.clone(), span)?;
        Ok(Some(inc_dec_value(&op, old, new)))
    }

    /// `lhs op= rhs`; with `want`, returns the assigned value.
    pub(crate) fn assign_expr(
        &mut self,
        op: B,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        span: Span,
        want: bool,
    ) -> Result<Option<Val>> {
        if op == B::Assign && !want && self.buffer_assign(lhs, rhs, span)? {
            return Ok(None);
        }
        if op == B::Assign && !want && self.handle_assign(lhs, rhs, span)? {
            return Ok(None);
        }
        self.caps.place_use = PlaceUse::Write;
        let p = self.place(lhs)?;
        let v = match op {
            B::Assign => {
                if let CType::Struct(_) = p.ty {
                    let src = self.place(rhs)?;
                    self.copy_struct(p, src, span)?;
                    return Ok(want.then(|| Val::int(0)));
                }
                let v = self.eval(rhs)?;
                if let Some(text) = self.unit.text.get(lhs.span.start..lhs.span.end) {
                    let text = text.to_string();
                    self.name_heap(rhs, &text);
                }
                v
            }
            _ if self.atomic_place(&p, span)? => {
                return self.atomic_compound(op, p, rhs, span);
            }
            _ => {
                let old = self.read(p.clone(), span)?;
                let old = if has_effects(rhs) {
                    self.materialize(old, span)?
                } else {
                    old
                };
                let r = self.eval(rhs)?;
                self.binary(compound_operator(op), old, r, span)?
            }
        };
        let v = self.convert(v, &p.ty.clone(), span)?;
        if want {
            let v = self.materialize(v, span)?;
            self.store(p, v.clone(), span)?;
            Ok(Some(v))
        } else {
            self.store(p, v, span)?;
            Ok(None)
        }
    }

    /// `dst = src` for structs: cell by cell, each read from the cell at
    /// its offset in every object `src` may be and written likewise (an
    /// invalid pointer gives up where the copy runs).
    pub(crate) fn copy_struct(&mut self, dst: Place, src: Place, span: Span) -> Result<()> {
        if dst.ty != src.ty {
            return Err(LowerError::unsupported(
                span,
                "struct assignment between different types",
            ));
        }
        let n = self.types.cells(&dst.ty);
        let tail =
            || LowerError::unsupported(span, "a struct copy in a heap array of run-time length");
        for i in 0..n {
            let cases = src
                .cases
                .iter()
                .map(|(c, t)| match t {
                    Target::Cell(o, off) => Ok((c.clone(), Target::Cell(*o, off + i))),
                    Target::Ub(r) => Ok((c.clone(), Target::Ub(r.clone()))),
                    Target::Tail { .. } => Err(tail()),
                })
                .collect::<Result<_>>()?;
            let ty = CType::Int(IntTy::INT);
            let v = self.read_cells(Place { cases, ty }, Some((i, n)), span)?;
            let cases = dst
                .cases
                .iter()
                .map(|(c, t)| match t {
                    Target::Cell(o, off) => Ok((c.clone(), Target::Cell(*o, off + i))),
                    Target::Ub(r) => Ok((c.clone(), Target::Ub(r.clone()))),
                    Target::Tail { .. } => Err(tail()),
                })
                .collect::<Result<_>>()?;
            let ty = CType::Int(IntTy::INT);
            let targets = self.store_targets(&Place { cases, ty }, Some((i, n)));
            self.emit_store(targets, v, span)?;
        }
        Ok(())
    }

    pub(crate) fn int_type(&self, v: &Val, span: Span) -> Result<IntTy> {
        match &v.ty {
            CType::Int(t) => Ok(*t),
            CType::Ptr(_) | CType::ThreadHandle => Ok(IntTy::UINT),
            CType::Float(_) => Err(LowerError::unsupported(
                span,
                "an integer operation on a floating-point value",
            )),
            _ => Err(LowerError::unsupported(
                span,
                "arithmetic on a value that is not an integer",
            )),
        }
    }

    /// A binary operator on two values.
    pub(crate) fn binary(&mut self, op: B, a: Val, b: Val, span: Span) -> Result<Val> {
        // Pointer arithmetic, in cells.
        if let (CType::Ptr(elem), B::Plus | B::Minus) = (&a.ty, &op) {
            if !matches!(b.ty, CType::Ptr(_)) {
                let esz = self.types.cells(elem) as i64;
                let ty = a.ty.clone();
                let elem = (**elem).clone();
                let minus = op == B::Minus;
                return self.combine(&a, &b, ty, span, |me, x, y| {
                    let d = mul(esz, y.clone());
                    let r = if minus {
                        sub(x.clone(), d)
                    } else {
                        add(x.clone(), d)
                    };
                    Ok(me.within_object(x, r, &elem))
                });
            }
            if op == B::Minus && self.types.cells(elem) == 1 {
                return self.combine(&a, &b, CType::Int(IntTy::INT), span, |_, x, y| {
                    Ok(vec![(Cond::True, Res::Val(sub(x.clone(), y.clone())))])
                });
            }
        }
        if let (CType::Ptr(_), B::Plus) = (&b.ty, &op) {
            return self.binary(op, b, a, span);
        }
        if matches!(a.ty, CType::Float(_)) || matches!(b.ty, CType::Float(_)) {
            return self.float_binary(op, a, b, span);
        }
        let is_cmp = matches!(
            op,
            B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual | B::Equals | B::NotEquals
        );
        let (ta, tb) = (self.int_type(&a, span)?, self.int_type(&b, span)?);
        let ct = match op {
            B::ShiftLeft | B::ShiftRight => promote(ta),
            _ => common_type(ta, tb, IntTy::INT),
        };
        let pointers = matches!(a.ty, CType::Ptr(_)) || matches!(b.ty, CType::Ptr(_));
        let (a, b) = if pointers {
            (a, b)
        } else if matches!(op, B::ShiftLeft | B::ShiftRight) {
            let pb = promote(tb);
            (
                self.convert(a, &CType::Int(ct), span)?,
                self.convert(b, &CType::Int(pb), span)?,
            )
        } else {
            (
                self.convert(a, &CType::Int(ct), span)?,
                self.convert(b, &CType::Int(ct), span)?,
            )
        };
        if is_cmp {
            let cop = match op {
                B::Less => CmpOp::Lt,
                B::Greater => CmpOp::Gt,
                B::LessOrEqual => CmpOp::Le,
                B::GreaterOrEqual => CmpOp::Ge,
                B::Equals => CmpOp::Eq,
                _ => CmpOp::Ne,
            };
            return self.combine(&a, &b, CType::Int(IntTy::INT), span, |_, x, y| {
                Ok(Self::bool_val(cmp(cop, x.clone(), y.clone())).cases)
            });
        }
        let ty = CType::Int(ct);
        let finish = move |me: &mut Self, t: Term| -> Result<Vec<(Cond, Res)>> {
            if ct.signed {
                Ok(me.signed_result(t, ct))
            } else {
                me.wrap(t, ct, span)
            }
        };
        match op {
            B::Plus => self.combine(&a, &b, ty, span, |me, x, y| {
                finish(me, add(x.clone(), y.clone()))
            }),
            B::Minus => self.combine(&a, &b, ty, span, |me, x, y| {
                finish(me, sub(x.clone(), y.clone()))
            }),
            B::Multiply => self.combine(&a, &b, ty, span, |me, x, y| match (x, y) {
                (Term::Const(k), t) | (t, Term::Const(k)) => finish(me, mul(*k, t.clone())),
                _ => finish(me, nl(NlOp::Mul, x.clone(), y.clone())),
            }),
            B::ShiftRight | B::ShiftLeft => {
                // A constant amount, or a case per amount a varying one takes.
                let width = i64::from(ct.bits);
                let left = op == B::ShiftLeft;
                self.combine(&a, &b, ty, span, |me, x, y| match y {
                    Term::Const(k) => me.constant_shift(x, *k, left, ct, span),
                    _ => me.varying_shift(x, y, width, left, ct, span),
                })
            }
            B::Divide | B::Modulo => {
                let rem = op == B::Modulo;
                self.combine(&a, &b, ty, span, |me, x, y| {
                    let Term::Const(k) = y else {
                        // Two varying values: the IR's C division, after
                        // the give-up case of a zero divisor.
                        let nop = if rem { NlOp::Rem } else { NlOp::Div };
                        let zero = cmp(CmpOp::Eq, y.clone(), Term::Const(0));
                        let q = nl(nop, x.clone(), y.clone());
                        let q = if ct.signed {
                            me.signed_result(q, ct)
                        } else {
                            me.wrap(q, ct, span)?
                        };
                        let mut out = vec![(zero.clone(), Res::Ub("division by zero".into()))];
                        for (c, r) in q {
                            out.push((and(not(zero.clone()), c), r));
                        }
                        return Ok(out);
                    };
                    if *k == 0 {
                        return Ok(vec![(Cond::True, Res::Ub("division by zero".into()))]);
                    }
                    if *k == -1 && ct.signed && me.checks.overflow {
                        // `min / -1` (and `min % -1`) is not representable.
                        let min = cmp(
                            CmpOp::Eq,
                            x.clone(),
                            Term::literal(ct.min()).expect("64-bit"),
                        );
                        let mut out = vec![(min.clone(), Res::Ub(overflow()))];
                        for (c, r) in me.divide(x.clone(), *k, rem, false)? {
                            out.push((and(not(min.clone()), c), r));
                        }
                        return Ok(out);
                    }
                    me.divide(x.clone(), *k, rem, false)
                })
            }
            B::BitwiseAnd | B::BitwiseOr | B::BitwiseXor => {
                self.combine(&a, &b, ty, span, |me, x, y| {
                    me.bitwise(op.clone(), x, y, ct, span)
                })
            }
            _ => Err(LowerError::unsupported(span, "unsupported binary operator")),
        }
    }

    /// `x / k` or `x % k` (truncating) or `x >> log2 k` (flooring), with a
    /// quotient chosen by a local havoc and fixed by a guard.
    fn divide(&mut self, x: Term, k: i64, rem: bool, floor: bool) -> Result<Vec<(Cond, Res)>> {
        if let Term::Const(v) = x {
            let (q, r) = if floor {
                (v.div_euclid(k), v.rem_euclid(k))
            } else {
                (v.wrapping_div(k), v.wrapping_rem(k))
            };
            return Ok(vec![(
                Cond::True,
                Res::Val(Term::Const(if rem { r } else { q })),
            )]);
        }
        let q = self.temp(&CType::Int(IntTy::LLONG));
        self.vars[q.index()].range = Range::ALL;
        self.t.pending_havoc.push(q);
        let r = sub(x.clone(), mul(k, Term::Var(q)));
        let ak = i128::from(k).abs();
        let nonneg = self.range(&x).lo.is_some_and(|l| l >= 0);
        let guard = if floor || nonneg {
            within(&r, 0, ak - 1)
        } else {
            crate::term::or(
                and(
                    cmp(CmpOp::Ge, x.clone(), Term::Const(0)),
                    within(&r, 0, ak - 1),
                ),
                and(
                    cmp(CmpOp::Lt, x.clone(), Term::Const(0)),
                    within(&r, 1 - ak, 0),
                ),
            )
        };
        self.t.pending_guard.push(guard);
        Ok(vec![(
            Cond::True,
            Res::Val(if rem { r } else { Term::Var(q) }),
        )])
    }

    fn bitwise(
        &mut self,
        op: B,
        x: &Term,
        y: &Term,
        ct: IntTy,
        span: Span,
    ) -> Result<Vec<(Cond, Res)>> {
        let (rx, ry) = (self.range(x), self.range(y));
        let boolean = |r: Range| r.lo.is_some_and(|l| l >= 0) && r.hi.is_some_and(|h| h <= 1);
        if boolean(rx) && boolean(ry) {
            let (a, b) = (
                cmp(CmpOp::Eq, x.clone(), Term::Const(1)),
                cmp(CmpOp::Eq, y.clone(), Term::Const(1)),
            );
            let c = match op {
                B::BitwiseAnd => and(a, b),
                B::BitwiseOr => crate::term::or(a, b),
                _ => crate::term::or(and(a.clone(), not(b.clone())), and(not(a), b)),
            };
            return Ok(Self::bool_val(c).cases);
        }
        if op == B::BitwiseAnd {
            for (m, v, rv) in [(x, y, ry), (y, x, rx)] {
                if let Term::Const(mask) = m {
                    if *mask == 0 {
                        return Ok(vec![(Cond::True, Res::Val(Term::Const(0)))]);
                    }
                    if *mask > 0 && (mask & (mask + 1)) == 0 && rv.lo.is_some_and(|l| l >= 0) {
                        return self.divide(v.clone(), mask + 1, true, true);
                    }
                }
            }
        }
        let nop = match op {
            B::BitwiseAnd => NlOp::And,
            B::BitwiseOr => NlOp::Or,
            _ => NlOp::Xor,
        };
        // Both operands are values of the (promoted) type, so the result
        // of the two's-complement operation is one too, read back as a
        // signed 64-bit value: an `unsigned long long` result from 2^63 on
        // is negative until wrapped.
        let r = nl(nop, x.clone(), y.clone());
        if ct.bits == 64 && !ct.signed {
            return self.wrap(r, ct, span);
        }
        Ok(vec![(Cond::True, Res::Val(r))])
    }

    /// `x << k` or `x >> k` for a constant `k` (of the promoted type `ct`).
    fn constant_shift(
        &mut self,
        x: &Term,
        k: i64,
        left: bool,
        ct: IntTy,
        span: Span,
    ) -> Result<Vec<(Cond, Res)>> {
        if !(0..62).contains(&k) || k >= i64::from(ct.bits) {
            return Ok(vec![(Cond::True, Res::Ub(shift_out_of_range()))]);
        }
        if left {
            let t = mul(1i64 << k, x.clone());
            if ct.signed {
                // A negative left operand is undefined too.
                let negative = cmp(CmpOp::Lt, x.clone(), Term::Const(0));
                let mut out = Vec::new();
                if self.checks.overflow && self.range(x).lo.is_none_or(|l| l < 0) {
                    out.push((negative.clone(), Res::Ub(overflow())));
                }
                for (c, r) in self.signed_result(t, ct) {
                    let c = if out.is_empty() {
                        c
                    } else {
                        and(not(negative.clone()), c)
                    };
                    out.push((c, r));
                }
                Ok(out)
            } else {
                self.wrap(t, ct, span)
            }
        } else {
            self.divide(x.clone(), 1i64 << k, false, true)
        }
    }

    /// `x << y` or `x >> y` for a varying `y`: a case per amount `y` can
    /// take below the width of `x`'s type, and a give-up case for the rest
    /// (a negative amount or one of at least the width is undefined in C).
    fn varying_shift(
        &mut self,
        x: &Term,
        y: &Term,
        width: i64,
        left: bool,
        ct: IntTy,
        span: Span,
    ) -> Result<Vec<(Cond, Res)>> {
        let r = self.range(y);
        let w = i128::from(width);
        let lo = r.lo.map_or(0, |l| l.clamp(0, w)) as i64;
        let hi = r.hi.map_or(w - 1, |h| h.clamp(-1, w - 1)) as i64;
        let mut out = Vec::new();
        for k in lo..=hi {
            let at = cmp(CmpOp::Eq, y.clone(), Term::Const(k));
            for (c, r) in self.constant_shift(x, k, left, ct, span)? {
                out.push((and(at.clone(), c), r));
            }
        }
        // None of `lo..=hi` (none at all when the range is empty).
        let inside = if lo <= hi {
            within(y, lo.into(), hi.into())
        } else {
            Cond::False
        };
        out.push((not(inside), Res::Ub(shift_out_of_range())));
        Ok(out)
    }

    /// The value `t` of signed type `ct`: as it is (values out of range
    /// wrap when stored, SOUNDNESS.md "Assumed"), or, when overflows are
    /// checked, an overflow where it leaves the type's range.
    pub(crate) fn signed_result(&self, t: Term, ct: IntTy) -> Vec<(Cond, Res)> {
        let r = self.range(&t);
        let inside = r.lo.is_some_and(|l| l >= ct.min()) && r.hi.is_some_and(|h| h <= ct.max());
        if !self.checks.overflow || inside {
            return vec![(Cond::True, Res::Val(t))];
        }
        let fits = within(&t, ct.min(), ct.max());
        vec![
            (fits.clone(), Res::Val(t)),
            (not(fits), Res::Ub(overflow())),
        ]
    }

    /// The type of an expression without evaluating it (for `sizeof`).
    pub(crate) fn static_type(&mut self, e: &Node<Expression>) -> Result<CType> {
        match &e.node {
            Expression::Comma(es) => match es.last() {
                Some(x) => self.static_type(x),
                None => Ok(CType::Void),
            },
            Expression::UnaryOperator(u) if u.node.operator.node == U::Address => {
                Ok(CType::Ptr(Box::new(self.static_type(&u.node.operand)?)))
            }
            Expression::Identifier(id) => match self.lookup(&id.node.name)? {
                Some(Binding::Obj(o)) if self.is_variable_length(o) => Err(
                    LowerError::unsupported(e.span, "`sizeof` of a variable-length array"),
                ),
                Some(Binding::Obj(o)) => Ok(match self.tail_globals.get(&o) {
                    Some(ty) => ty.clone(),
                    None => self.objects[o].ty.clone(),
                }),
                Some(Binding::Const(_, ty)) => Ok(ty),
                Some(Binding::Handles(h)) => self.handle_type(h, e.span),
                _ => Ok(CType::Int(IntTy::INT)),
            },
            Expression::Cast(c) => self.type_name(&c.node.type_name),
            Expression::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
                match self.static_type(&u.node.operand)? {
                    CType::Ptr(t) | CType::Array(t, _) => Ok(*t),
                    _ => Err(LowerError::unsupported(e.span, "sizeof of this expression")),
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == B::Index => {
                match self.static_type(&b.node.lhs)? {
                    CType::Ptr(t) | CType::Array(t, _) => Ok(*t),
                    _ => Err(LowerError::unsupported(e.span, "sizeof of this expression")),
                }
            }
            Expression::Constant(c) => match &c.node {
                Constant::Float(f) => Ok(self.float_constant(f).ty),
                _ => Ok(CType::Int(IntTy::INT)),
            },
            Expression::Conditional(_) => Ok(CType::Int(IntTy::INT)),
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    B::Less
                        | B::Greater
                        | B::LessOrEqual
                        | B::GreaterOrEqual
                        | B::Equals
                        | B::NotEquals
                        | B::LogicalAnd
                        | B::LogicalOr
                ) =>
            {
                Ok(CType::Int(IntTy::INT))
            }
            _ => Err(LowerError::unsupported(e.span, "sizeof of this expression")),
        }
    }
}

/// The parts of a conditional or logical expression: condition, then,
/// else, and the logical operator.
type Branches<'e> = (
    &'e Node<Expression>,
    Option<&'e Node<Expression>>,
    Option<&'e Node<Expression>>,
    Option<B>,
);

/// A store target: a variable, or a give-up.
#[derive(Clone, Debug)]
pub enum TargetVar {
    Var(VarId),
    /// A cell in a union: the store also sets the tags
    /// ([`super::unions`]).
    Tagged(VarId, Vec<(VarId, Term)>),
    /// A tail element that is not tracked: the store does nothing.
    Skip,
    /// An element of an IR array (the exact array model): the array and
    /// the index.
    Element(ArrayId, Term),
    Ub(super::Ub),
}

impl Val {
    /// Drops cases whose condition is `false`.
    pub fn pruned(mut self) -> Val {
        self.cases.retain(|(c, _)| *c != Cond::False);
        self
    }
}

/// The cells of the copy a cell at `off` is part of (`copy`: its index in
/// the copy and the copy's length); none outside a copy.
fn copied(off: u64, copy: Option<(u64, u64)>) -> std::ops::Range<u64> {
    match copy {
        Some((i, n)) => off - i..off - i + n,
        None => off..off,
    }
}

fn prune_targets(v: Vec<(Cond, Target)>) -> Vec<(Cond, Target)> {
    v.into_iter().filter(|(c, _)| *c != Cond::False).collect()
}

/// Every part of an object of type `ty` at `off`: (offset, type).
pub(crate) fn subobjects(types: &Types, ty: &CType, off: u64, out: &mut Vec<(u64, CType)>) {
    out.push((off, ty.clone()));
    match ty {
        CType::Array(e, n) => {
            let esz = types.cells(e);
            for i in 0..*n {
                subobjects(types, e, off + i * esz, out);
            }
        }
        CType::Struct(s) => {
            for (_, f, o) in types.structs[*s].fields.clone() {
                subobjects(types, &f, off + o, out);
            }
        }
        _ => {}
    }
}

/// Whether an expression is syntactically an lvalue path.
pub(crate) fn is_place_expr(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Identifier(_) | Expression::Member(_) => true,
        Expression::BinaryOperator(b) => b.node.operator.node == B::Index,
        Expression::UnaryOperator(u) => u.node.operator.node == U::Indirection,
        _ => false,
    }
}

/// Whether evaluating an expression may have side effects (assignments,
/// increments, calls other than nondet and pure builtins).
pub(crate) fn has_effects(e: &Node<Expression>) -> bool {
    struct Effects(bool);
    impl<'ast> frontend::lang_c::visit::Visit<'ast> for Effects {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            match e {
                Expression::Call(c) => {
                    let pure = matches!(&c.node.callee.node, Expression::Identifier(id)
                        if id.node.name.starts_with("__VERIFIER_nondet") || id.node.name == "__builtin_expect");
                    if !pure {
                        self.0 = true;
                    }
                }
                Expression::BinaryOperator(b)
                    if !matches!(
                        b.node.operator.node,
                        B::Index
                            | B::Multiply
                            | B::Divide
                            | B::Modulo
                            | B::Plus
                            | B::Minus
                            | B::ShiftLeft
                            | B::ShiftRight
                            | B::Less
                            | B::Greater
                            | B::LessOrEqual
                            | B::GreaterOrEqual
                            | B::Equals
                            | B::NotEquals
                            | B::BitwiseAnd
                            | B::BitwiseXor
                            | B::BitwiseOr
                            | B::LogicalAnd
                            | B::LogicalOr
                    ) =>
                {
                    self.0 = true
                }
                Expression::UnaryOperator(u)
                    if matches!(
                        u.node.operator.node,
                        U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement
                    ) =>
                {
                    self.0 = true
                }
                Expression::Statement(_) => self.0 = true,
                _ => {}
            }
            frontend::lang_c::visit::visit_expression(self, e, span);
        }
    }
    let mut v = Effects(false);
    frontend::lang_c::visit::Visit::visit_expression(&mut v, &e.node, &e.span);
    v.0
}

/// `+1` for `++`, `-1` for `--`.
pub(crate) fn inc_dec_step(op: &U) -> i64 {
    if matches!(op, U::PreIncrement | U::PostIncrement) {
        1
    } else {
        -1
    }
}

/// The value of `x++` and friends: the new value for the prefix forms,
/// the old one for the postfix forms.
pub(crate) fn inc_dec_value(op: &U, old: Val, new: Val) -> Val {
    if matches!(op, U::PreIncrement | U::PreDecrement) {
        new
    } else {
        old
    }
}

/// The operator of a compound assignment (`+=` → `+`).
pub(crate) fn compound_operator(op: B) -> B {
    match op {
        B::AssignPlus => B::Plus,
        B::AssignMinus => B::Minus,
        B::AssignMultiply => B::Multiply,
        B::AssignDivide => B::Divide,
        B::AssignModulo => B::Modulo,
        B::AssignShiftLeft => B::ShiftLeft,
        B::AssignShiftRight => B::ShiftRight,
        B::AssignBitwiseAnd => B::BitwiseAnd,
        B::AssignBitwiseOr => B::BitwiseOr,
        _ => B::BitwiseXor,
    }
}

/// A signed integer overflow (`no-overflow`).
fn overflow() -> Ub {
    Ub::violates(Violation::Overflow, "signed integer overflow")
}

/// A shift by a negative amount or one of at least the width (`no-overflow`).
fn shift_out_of_range() -> Ub {
    Ub::violates(Violation::Overflow, "shift amount out of range")
}
