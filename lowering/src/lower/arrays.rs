//! The exact array model ([`crate::Options::array_values`]): every tail is
//! an IR array of its object's cells (`engine::ir::Program::arrays`),
//! indexed by the address minus the object's base, so every element is
//! kept exactly, whatever the length.
//!
//! Tails address their objects as usual ([`super::tails`]): the same
//! bounds and liveness checks, the same give-ups for uses other than
//! reading and writing a cell; only the tracked element is replaced by
//! the whole array. The contents start as the allocation makes them:
//! zeros (`calloc`, a static array) or any values (`malloc`, a local or
//! variable-length array), each read element of the latter within its
//! type (a guard of the reading step: an execution whose arbitrary
//! contents lie outside the type is no execution of the program, and
//! none is lost: every in-range choice is one). Each object is allocated
//! once (an allocation site has one object per execution, a local of
//! this kind is declared once), so the array's declared initial contents
//! are the allocation's.
//!
//! The model has every execution of the program and no other, so its
//! bugs are real; it is only searched for bugs (bounded model checking,
//! the one engine that takes arrays). Races on array elements are not
//! checked in it (no access is noted): it may miss such a bug, never
//! invent one.

use engine::ir::{ArrayId, CmpOp, Cond, Term};

use super::expr::{Res, TargetVar};
use super::{Lowerer, ObjId};
use crate::term::{and, any, cmp, not, or, sub, within};
use crate::types::CType;

impl Lowerer<'_> {
    /// The IR array of object `o`, in the exact array model.
    pub(crate) fn array_of(&self, o: ObjId) -> Option<ArrayId> {
        self.tails.get(&o).and_then(|t| t.array)
    }

    /// The allocation of tail `o` makes its contents zeros (`zero`) or any
    /// values: the array's initial contents (each object is allocated
    /// once).
    pub(crate) fn set_array_contents(&mut self, o: ObjId, zero: bool) {
        if let Some(a) = self.array_of(o) {
            self.arrays[a.index()].init = zero.then_some(0);
        }
    }

    /// The index into `o`'s array of the cell at address `addr`.
    pub(crate) fn array_index(&self, o: ObjId, addr: &Term) -> Term {
        sub(addr.clone(), Term::Const(self.objects[o].base))
    }

    /// The value read from `o`'s array at `addr` (an access of scalar type
    /// `ty`) under `c`: the element, where the cell is a part of type `ty`
    /// of its element, else a give-up ([`Lowerer::array_parts`]). An
    /// element of arbitrary initial contents is within its type: the
    /// reading step's guard says so, under `c`.
    pub(crate) fn array_read(
        &mut self,
        c: &Cond,
        o: ObjId,
        a: ArrayId,
        addr: &Term,
        ty: &CType,
    ) -> Vec<(Cond, Res)> {
        let element = Term::Select(a, Box::new(self.array_index(o, addr)));
        if self.arrays[a.index()].init.is_none() {
            let r = self.scalar_range(ty);
            let inside = within(
                &element,
                r.lo.unwrap_or(i128::MIN),
                r.hi.unwrap_or(i128::MAX),
            );
            // Only where this case is the access (another case's element
            // is not read).
            let here = and(c.clone(), self.array_parts(o, addr, ty));
            self.t.pending_guard.push(or(not(here), inside));
        }
        self.array_cases(c, o, addr, ty, Res::Val(element), |why| Res::Ub(why.into()))
    }

    /// What a store of type `ty` at `addr` of `o` under `c` sets, in the
    /// exact array model: the element, or a give-up where the cell is not a
    /// part of type `ty`. `None` outside the model.
    pub(crate) fn array_store_targets(
        &self,
        c: &Cond,
        o: ObjId,
        addr: &Term,
        ty: &CType,
    ) -> Option<Vec<(Cond, TargetVar)>> {
        let a = self.array_of(o)?;
        let element = TargetVar::Element(a, self.array_index(o, addr));
        Some(self.array_cases(c, o, addr, ty, element, |why| TargetVar::Ub(why.into())))
    }

    /// `ok` where the cell at `addr` of `o` is a part of type `ty` of its
    /// element, `bad` of the give-up elsewhere (both under `c`).
    pub(crate) fn array_cases<T>(
        &self,
        c: &Cond,
        o: ObjId,
        addr: &Term,
        ty: &CType,
        ok: T,
        bad: impl FnOnce(&'static str) -> T,
    ) -> Vec<(Cond, T)> {
        let parts = self.array_parts(o, addr, ty);
        let mut out = vec![(and(c.clone(), parts.clone()), ok)];
        if parts != Cond::True {
            out.push((and(c.clone(), not(parts)), bad(super::tails::TAIL_PART)));
        }
        out
    }

    /// The condition that the cell at `addr` of `o` is a part of a type
    /// compatible with `ty` of its element: always for scalar elements,
    /// else its offset in its element is that of such a part.
    fn array_parts(&self, o: ObjId, addr: &Term, ty: &CType) -> Cond {
        let stride = self.tails[&o].stride;
        if stride == 1 {
            return Cond::True;
        }
        let CType::Array(elem, _) = &self.objects[o].ty else {
            return Cond::False;
        };
        let mut parts = Vec::new();
        super::expr::subobjects(&self.types, elem, 0, &mut parts);
        let offsets: Vec<i64> = parts
            .iter()
            .filter(|(_, part)| part.is_scalar() && super::expr::is_compatible(part, ty))
            .map(|(at, _)| *at as i64)
            .collect();
        let from_start = self.array_index(o, addr);
        // Known when the address is `stride · y + c`.
        if let Some(c) = super::tails::stride_offset(&from_start, stride as i64) {
            let c = c.rem_euclid(stride as i64);
            return if offsets.contains(&c) {
                Cond::True
            } else {
                Cond::False
            };
        }
        let offset = Term::Mod(Box::new(from_start), stride as i64);
        any(offsets
            .into_iter()
            .map(|k| cmp(CmpOp::Eq, offset.clone(), Term::Const(k))))
    }
}
