//! Calls of the functions a specification orders (`--spec`; SOUNDNESS.md,
//! "Specifications"): each call is an event that moves the specification's
//! monitor, one shared variable holding its (deterministic) state, or goes
//! to a violation location when the state does not allow it. The event
//! happens when the call starts, before the function's body (if it has one)
//! runs and before any modelled effect of a library function of that name.

use engine::ir::{CmpOp, Term};
use frontend::lang_c::ast::Expression;
use frontend::lang_c::span::{Node, Span};

use super::expr::Val;
use super::ub::Ub;
use super::Lowerer;
use crate::error::Result;
use crate::term::{cmp, Range};
use crate::Violation;

impl Lowerer<'_> {
    /// Whether `name` is an action of the specification.
    pub(super) fn is_event(&self, name: &str) -> bool {
        self.spec.as_ref().is_some_and(|s| s.action(name).is_some())
    }

    /// The event of a call of `name`, when it is one; the call itself is
    /// lowered on (`None`).
    pub(super) fn event_call(
        &mut self,
        name: &str,
        _args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        let Some(spec) = self.spec.clone() else {
            return Ok(None);
        };
        let Some(action) = spec.action(name) else {
            return Ok(None);
        };
        let Some(cur) = self.t.cur else {
            return Ok(None);
        };
        let states = spec.state_count();
        let monitor = match self.monitor {
            Some(m) => m,
            None => {
                let range = Range::new(0.into(), (states as i64 - 1).into());
                let m = self.var("spec.state".to_string(), Some(0), range);
                self.monitor = Some(m);
                m
            }
        };
        let next = self.new_loc(Some(span));
        let at = |s: usize| cmp(CmpOp::Eq, Term::Var(monitor), Term::Const(s as i64));
        let mut refused = Vec::new();
        for s in 0..states {
            match spec.step(s, action) {
                Some(to) => {
                    let assign = vec![(monitor, Term::Const(to as i64))];
                    self.plain_edge(cur, next, at(s), assign, Some(span));
                }
                None => refused.push(s),
            }
        }
        for s in refused {
            let allowed = spec.allowed(s);
            let reason = format!(
                "call of `{name}` in state `{}` of the specification (it allows {})",
                spec.state_name(s),
                if allowed.is_empty() {
                    "no further call".to_string()
                } else {
                    allowed
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            );
            self.give_up_edge(cur, at(s), Ub::violates(Violation::Spec, reason), span);
        }
        self.flush();
        self.t.cur = Some(next);
        Ok(None)
    }
}
