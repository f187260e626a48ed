//! The end of automatic storage, for the lost-block check
//! ([`crate::Checks::memtrack`]; `crate::memtrack`).
//!
//! A local's pointer stops pointing when its scope ends: where control
//! leaves a block (falling through its end, `break`, `continue`) or a
//! function (`return`, the end of its body), the pointer cells of the
//! automatic locals of the scopes left are set to 0, so that a heap block
//! only they pointed to is seen as lost. A `goto` out of a block that
//! declares pointers gives up where reached (the scopes its label lies in
//! are not tracked). Static locals keep their storage.

use engine::ir::{Cond, Term, VarId};
use frontend::lang_c::span::Span;

use super::{Binding, Lowerer, ObjId};
use crate::types::CType;

impl Lowerer<'_> {
    /// The cells of object `o` that hold data pointers.
    pub(crate) fn pointer_cells(&self, o: ObjId) -> Vec<VarId> {
        let mut scalars = Vec::new();
        self.types.flatten(&self.objects[o].ty, &mut scalars);
        self.objects[o]
            .cells
            .iter()
            .zip(scalars)
            .filter(|(_, t)| is_data_pointer(t))
            .map(|(c, _)| *c)
            .collect()
    }

    /// The pointer cells of the automatic locals of the current frame's
    /// scopes from `depth` on.
    fn scope_pointer_cells(&self, depth: usize) -> Vec<VarId> {
        let Some(f) = self.t.frames.last() else {
            return Vec::new();
        };
        let mut objects: Vec<ObjId> = f
            .scopes
            .iter()
            .skip(depth)
            .flat_map(|s| s.values())
            .filter_map(|b| match b {
                Binding::Obj(o) if self.objects[*o].owner == Some(self.t.index) => Some(*o),
                _ => None,
            })
            .collect();
        objects.sort_unstable();
        objects.dedup();
        objects
            .into_iter()
            .flat_map(|o| self.pointer_cells(o))
            .collect()
    }

    /// The current frame's scopes from `depth` on end here: their pointer
    /// locals point nowhere any more (with the lost-block check).
    pub(crate) fn end_scopes(&mut self, depth: usize) {
        if !self.checks.memtrack {
            return;
        }
        let Some(cur) = self.t.cur else {
            return;
        };
        let cells = self.scope_pointer_cells(depth);
        if cells.is_empty() {
            return;
        }
        let next = self.new_loc(None);
        let assigns = cells.into_iter().map(|c| (c, Term::Const(0))).collect();
        self.plain_edge(cur, next, Cond::True, assigns, None);
        self.t.cur = Some(next);
    }

    /// The number of scopes of the current frame.
    pub(crate) fn scope_depth(&self) -> usize {
        self.t.frames.last().map_or(0, |f| f.scopes.len())
    }

    /// A `goto` leaves scopes whose depth the lowering does not know: with
    /// the lost-block check, one from a block inside the function body that
    /// declares pointers gives up where reached.
    pub(crate) fn goto_leaves_pointers(&mut self, span: Span) {
        self.unfollowed_scopes(
            2,
            "a `goto` out of a block that declares pointers (the lost-block check of \
             valid-memtrack does not follow it)",
            span,
        );
    }

    /// The end of a statement expression's scope, whose value may be one
    /// of its locals, read after it ends: with the lost-block check, one
    /// that declares pointers gives up where reached.
    pub(crate) fn statement_expression_ends(&mut self, span: Span) {
        self.unfollowed_scopes(
            self.scope_depth().saturating_sub(1),
            "a statement expression `({ ... })` that declares pointers (the lost-block \
             check of valid-memtrack does not follow their end)",
            span,
        );
    }

    /// With the lost-block check: gives up where reached when the scopes
    /// from `depth` on, whose end is not followed, declare pointers.
    fn unfollowed_scopes(&mut self, depth: usize, reason: &str, span: Span) {
        if self.checks.memtrack && !self.scope_pointer_cells(depth).is_empty() {
            self.give_up_where(Cond::True, reason, span);
        }
    }
}

/// Whether a cell of type `t` holds the address of data (not a function).
pub(crate) fn is_data_pointer(t: &CType) -> bool {
    matches!(t, CType::Ptr(to) if **to != CType::Func)
}
