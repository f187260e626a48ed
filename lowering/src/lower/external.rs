//! Calls of functions the program declares but does not define, and the
//! lowering does not model (SOUNDNESS.md, "Functions without a
//! definition"). Their arguments are evaluated (reads count for the race
//! check, undefined behaviour gives up); then, by [`crate::ExternCalls`],
//! the execution gives up there (the default: nothing is assumed), or the
//! call returns any value of its declared type, with no effect on memory
//! (`Pure`) or with any values in the objects its pointer arguments point
//! into (`Havoc`); both are assumptions about the function, which the
//! user chooses.

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::Expression;
use frontend::lang_c::span::{Node, Span};

use super::expr::Val;
use super::{Lowerer, ObjId};
use crate::term::{and, any, cmp, not};
use crate::types::CType;
use crate::ExternCalls;

impl Lowerer<'_> {
    /// A call of a function without a definition; its value (any value of
    /// the declared return type) where the execution goes on.
    pub(super) fn undefined_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> super::Result<Val> {
        // An event of the specification without a definition is a library
        // routine that only marks the event (MAGIC's actions): pure.
        let extern_calls = match self.is_event(name) {
            true => ExternCalls::Pure,
            false => self.extern_calls,
        };
        match extern_calls {
            ExternCalls::GiveUp => {
                self.evaluate_ignored(name, args, span)?;
                let reason = format!(
                    "call to `{}`, which has no definition",
                    self.unit.display_name(name)
                );
                self.give_up_where(Cond::True, &reason, span);
            }
            ExternCalls::Pure => self.evaluate_ignored(name, args, span)?,
            ExternCalls::Havoc => {
                let vals = self.eval_args(args)?;
                for v in vals {
                    if let CType::Ptr(_) = v.ty {
                        self.havoc_pointee(name, v, span)?;
                    }
                }
            }
        }
        self.nondet_call(name, span)
    }

    /// One step in which the object a pointer argument points into gets
    /// any values in its data cells (its pthread objects keep theirs, its
    /// floating-point cells the placeholder, its unions' tags say that no
    /// member is known: any bytes); a null pointer changes nothing, and a
    /// pointer into no object the model can change gives up.
    fn havoc_pointee(&mut self, name: &str, v: Val, span: Span) -> super::Result<()> {
        let v = self.materialize(v, span)?;
        let Some(p) = v.single() else {
            self.give_up_where(
                Cond::True,
                format!("a pointer argument of `{name}` with several values"),
                span,
            );
            return Ok(());
        };
        let Some(cur) = self.t.cur else {
            return Ok(());
        };
        let next = self.new_loc(Some(span));
        let mut hit = vec![cmp(CmpOp::Eq, p.clone(), Term::Const(0))];
        self.plain_edge(cur, next, hit[0].clone(), vec![], Some(span));
        let objects: Vec<ObjId> = (0..self.objects.len())
            .filter(|&o| self.objects[o].addr_taken && !self.tails.contains_key(&o))
            .collect();
        for o in objects {
            let (base, len) = (self.objects[o].base, self.objects[o].cells.len() as i64);
            let inside = and(
                cmp(CmpOp::Ge, p.clone(), Term::Const(base)),
                cmp(CmpOp::Lt, p.clone(), Term::Const(base + len)),
            );
            hit.push(inside.clone());
            let (cells, tags) = self.data_cells(o);
            let guard = and(inside, self.havoc_cells(cells));
            let assigns = tags.into_iter().map(|t| (t, Term::Const(-1))).collect();
            self.plain_edge(cur, next, guard, assigns, Some(span));
            self.flush();
        }
        let reason = format!("a pointer argument of `{name}` into memory the model cannot change");
        self.give_up_edge(cur, not(any(hit)), reason, span);
        self.flush();
        self.t.cur = Some(next);
        Ok(())
    }

    /// An object's cells that hold C data (integers and pointers, not
    /// pthread objects or floating-point placeholders), and its unions'
    /// tags.
    fn data_cells(&self, o: ObjId) -> (Vec<VarId>, Vec<VarId>) {
        let obj = &self.objects[o];
        let mut scalars = Vec::new();
        self.types.flatten(&obj.ty, &mut scalars);
        let mut tags = Vec::new();
        super::unions::tags(&self.types, &obj.ty, 0, &mut tags);
        let tags: Vec<VarId> = tags.iter().map(|&t| obj.cells[t as usize]).collect();
        let cells = obj
            .cells
            .iter()
            .zip(&scalars)
            .filter(|(c, t)| {
                matches!(t, CType::Int(_) | CType::Ptr(_))
                    && !self.sync_cells.contains(c)
                    && !tags.contains(c)
            })
            .map(|(c, _)| *c)
            .collect();
        (cells, tags)
    }
}
