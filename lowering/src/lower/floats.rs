//! Floating-point values, abstracted (SOUNDNESS.md, "Floating point").
//!
//! A cell of a floating-point type holds 0 whatever C stores there: the
//! model keeps no floating-point value. Constants, conversions to a
//! floating-point type, arithmetic with a floating-point operand and the
//! results of the math library are that 0 (their operands are still
//! evaluated: their reads count for the race check, their undefined
//! behaviour gives up). What C observes of a floating-point value (a
//! comparison, its truth value, a conversion to an integer type) is any
//! value of the result's type, chosen where it is observed: every
//! execution of the program is one of the model's, so a proof holds for
//! it. A choice also sets the thread's *observation flag*: a
//! counterexample whose last state has a flag set may rest on a value the
//! model does not know, and is no counterexample
//! ([`crate::Lowered::abstraction_observed`]). The flags serve every
//! value the model abstracts this way (also the results of CBMC's
//! uninterpreted functions, `conventions`).

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::{BinaryOperator as B, Expression, Float, FloatFormat};
use frontend::lang_c::span::{Node, Span};

use super::expr::{Res, Val};
use super::Lowerer;
use crate::error::{LowerError, Result};
use crate::term::{cmp, Range};
use crate::types::{CType, IntTy};

/// The value every floating-point cell holds.
pub(crate) const TOKEN: Term = Term::Const(0);

/// The abstract value of the floating-point type `ty`.
pub(crate) fn placeholder(ty: CType) -> Val {
    Val::term(TOKEN, ty)
}

/// `v` with every value replaced by `x`, of type `ty` (its give-up cases
/// kept).
fn replaced(v: &Val, x: &Term, ty: CType) -> Val {
    let cases = v
        .cases
        .iter()
        .map(|(c, r)| match r {
            Res::Val(_) => (c.clone(), Res::Val(x.clone())),
            ub => (c.clone(), ub.clone()),
        })
        .collect();
    Val { cases, ty }.pruned()
}

/// Math functions of `<math.h>` (and their `f`/`l` variants) that return
/// a floating-point value computed from their arguments alone: any value
/// of their type.
const MATH: &[&str] = &[
    "fabs",
    "sqrt",
    "cbrt",
    "pow",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "floor",
    "ceil",
    "round",
    "trunc",
    "rint",
    "nearbyint",
    "fmod",
    "fmin",
    "fmax",
    "fdim",
    "hypot",
    "copysign",
    "ldexp",
    "erf",
    "erfc",
    "tgamma",
    "lgamma",
];

/// Whether `name` is a function of [`MATH`] (or its `f`/`l` variant).
fn is_math_function(name: &str) -> bool {
    MATH.contains(&name)
        || name
            .strip_suffix(['f', 'l'])
            .is_some_and(|base| MATH.contains(&base))
}

impl Lowerer<'_> {
    /// A call of a function of [`MATH`] the program does not define: its
    /// arguments are evaluated, its result is the abstract value of its
    /// type (`double`, `float` for an `f` suffix, `long double` for `l`).
    pub(super) fn math_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        if !is_math_function(name) || self.function_exists(name) {
            return Ok(None);
        }
        self.evaluate_ignored(name, args, span)?;
        let bytes = if MATH.contains(&name) {
            8
        } else if name.ends_with('f') {
            4
        } else {
            self.types.long_double_bytes()
        };
        Ok(Some(placeholder(CType::Float(bytes))))
    }

    /// A floating-point constant: the abstract value, of the type its
    /// suffix names.
    pub(crate) fn float_constant(&self, f: &Float) -> Val {
        let bytes = match &f.suffix.format {
            FloatFormat::Float => 4,
            FloatFormat::Double => 8,
            FloatFormat::LongDouble => self.types.long_double_bytes(),
            FloatFormat::TS18661Format(t) => u8::try_from(t.width / 8).unwrap_or(16),
        };
        placeholder(CType::Float(bytes))
    }

    /// `v` as a value of the floating-point type `to`: the abstract value
    /// where `v` has one, its give-up cases kept.
    pub(crate) fn to_float(v: Val, to: &CType) -> Val {
        replaced(&v, &TOKEN, to.clone())
    }

    /// A floating-point value observed as a value of the integer type
    /// `to` (a conversion, a comparison's result): any value of `to`.
    pub(crate) fn observe_float(&mut self, v: &Val, to: IntTy) -> Val {
        let x = self.abstract_choice(to);
        replaced(v, &x, CType::Int(to))
    }

    /// A binary operator with a floating-point operand: arithmetic gives
    /// the abstract value, a comparison any truth value.
    pub(crate) fn float_binary(&mut self, op: B, a: Val, b: Val, span: Span) -> Result<Val> {
        let bytes = |v: &Val| match v.ty {
            CType::Float(n) => n,
            _ => 0,
        };
        let ty = CType::Float(bytes(&a).max(bytes(&b)));
        let both = self.combine(&a, &b, ty.clone(), span, |_, _, _| {
            Ok(vec![(Cond::True, Res::Val(TOKEN))])
        })?;
        match op {
            B::Plus | B::Minus | B::Multiply | B::Divide => Ok(both),
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals => Ok(Val {
                ty: CType::Int(IntTy::INT),
                ..self.observe_float(&both, IntTy::BOOL)
            }),
            _ => Err(LowerError::invalid(
                span,
                "invalid operands to a binary operator (a floating-point value)",
            )),
        }
    }

    /// A fresh value of `ty`, chosen by the step being built, which also
    /// sets the thread's observation flag: a value the model abstracts
    /// (here, and for CBMC's uninterpreted functions, `conventions`).
    pub(super) fn abstract_choice(&mut self, ty: IntTy) -> Term {
        let tmp = self.havoc_temp(&CType::Int(ty));
        let flag = self.observation_flag();
        if !self.t.pending_havoc.contains(&flag) {
            self.t.pending_havoc.push(flag);
            self.t
                .pending_guard
                .push(cmp(CmpOp::Eq, Term::Var(flag), Term::Const(1)));
        }
        Term::Var(tmp)
    }

    /// The current thread's observation flag (made on first use).
    fn observation_flag(&mut self) -> VarId {
        if let Some(f) = self.t.observation_flag {
            return f;
        }
        let prefix = self.threads[self.t.index].name.clone();
        let name = self.unique(&format!("{prefix}.abstraction_observed"));
        let flag = self.var(name, Some(0), Range::new(0, 1));
        self.t.observation_flag = Some(flag);
        self.observation_flags.push(flag);
        flag
    }
}
