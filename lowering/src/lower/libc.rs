//! C library functions without threads or memory of their own that
//! concurrent programs call, when the program does not define them:
//! `abs`, `labs`, `llabs` (C's result; `abs(INT_MIN)` overflows, as the
//! negation it is), `rand` and `random` (any value in `[0, RAND_MAX]`),
//! `srand` and `srandom` (nothing: every later `rand` is any value
//! anyway), `time` (any non-negative value, also stored through a
//! non-null argument).

use engine::ir::{CmpOp, Cond, Term};
use frontend::lang_c::ast::{BinaryOperator, Expression};
use frontend::lang_c::span::{Node, Span};

use super::expr::{Res, Val};
use super::Lowerer;
use crate::error::{LowerError, Result};
use crate::term::{and, cmp};
use crate::types::{CType, IntTy};

/// glibc's `RAND_MAX`.
const RAND_MAX: i64 = 2_147_483_647;

impl Lowerer<'_> {
    /// The functions above; `None` for others and for functions the
    /// program defines.
    pub(super) fn libc_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        const MODELLED: &[&str] = &[
            "abs", "labs", "llabs", "rand", "random", "srand", "srandom", "time",
        ];
        if !self.models(MODELLED, name) {
            return Ok(None);
        }
        let arg = |i: usize| {
            args.get(i)
                .ok_or_else(|| LowerError::invalid(span, format!("`{name}` needs an argument")))
        };
        Ok(Some(match name {
            "abs" | "labs" | "llabs" => {
                let ty = match name {
                    "abs" => IntTy::INT,
                    "labs" => self.types.long(true),
                    _ => IntTy::LLONG,
                };
                let x = self.eval(arg(0)?)?;
                let x = self.convert(x, &CType::Int(ty), span)?;
                self.absolute(x, ty, span)?
            }
            "rand" | "random" => {
                let ty = if name == "rand" {
                    IntTy::INT
                } else {
                    self.types.long(true)
                };
                let r = self.havoc_temp(&CType::Int(ty));
                self.t
                    .pending_guard
                    .push(crate::term::within(&Term::Var(r), 0, RAND_MAX.into()));
                Val::term(Term::Var(r), CType::Int(ty))
            }
            "srand" | "srandom" => {
                self.eval(arg(0)?)?;
                Val::term(Term::Const(0), CType::Void)
            }
            _ => {
                let ty = self.types.long(true);
                let t = self.havoc_temp(&CType::Int(ty));
                self.t
                    .pending_guard
                    .push(cmp(CmpOp::Ge, Term::Var(t), Term::Const(0)));
                let now = Val::term(Term::Var(t), CType::Int(ty));
                let out = arg(0)?;
                if !super::const_expr(&mut self.types, out).is_ok_and(|v| v == 0) {
                    let p = self.pointee_as(out, Some(CType::Int(ty)), span)?;
                    self.store(p, now.clone(), span)?;
                }
                now
            }
        }))
    }

    /// `x < 0 ? -x : x` of a value of type `ty` (the negation checked for
    /// overflow like C's).
    fn absolute(&mut self, x: Val, ty: IntTy, span: Span) -> Result<Val> {
        let x = self.materialize(x, span)?;
        let [(Cond::True, Res::Val(t))] = x.cases.as_slice() else {
            return Err(LowerError::unsupported(
                span,
                "an argument of `abs` with several cases",
            ));
        };
        let t = t.clone();
        let zero = Val::term(Term::Const(0), CType::Int(ty));
        let neg = self.binary(BinaryOperator::Minus, zero, x.clone(), span)?;
        let negative = cmp(CmpOp::Lt, t.clone(), Term::Const(0));
        let mut cases = vec![(crate::term::not(negative.clone()), Res::Val(t))];
        for (c, r) in neg.cases {
            cases.push((and(negative.clone(), c), r));
        }
        Ok(Val {
            cases,
            ty: CType::Int(ty),
        })
    }
}
