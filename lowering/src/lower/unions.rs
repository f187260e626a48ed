//! Unions (SOUNDNESS.md, "Unions").
//!
//! A union object has the cells of each of its members, one after the
//! other, and a last cell, its *tag*: 0 while every member's cells hold
//! what C's memory holds (all bytes zero: a static object, `calloc`,
//! `memset(&u, 0, sizeof u)`, an object never written, whose bytes are
//! indeterminate), `k + 1` after a store into member `k` (whose cells then
//! hold the memory's value), -1 when no member's cells are known to. A
//! store into a cell of member `k` sets the tag to `k + 1` when it covers
//! the member (a one-cell member) or the tag was 0 or `k + 1` already (the
//! member's other cells are still right), and to -1 otherwise. A read of a
//! cell of member `k` is the cell's value where the tag is 0 or `k + 1`,
//! and gives up elsewhere: reading the bytes of one member as another
//! (type punning) is not modelled. A copy of a whole union (assignment,
//! argument, `memcpy`) copies the tag with the cells.
//!
//! The members' cells have addresses of their own, where C gives every
//! member the union's address: taking the address of a member other than
//! the first gives up ([`Lowerer::address`]).

use std::ops::Range;

use engine::ir::{CmpOp, Cond, Term, VarId};

use super::{Lowerer, ObjId};
use crate::term::{and, cmp, not, or};
use crate::types::{CType, Types};

/// Why a read gives up where the tag names another member.
pub(crate) const PUNNING: &str =
    "a read of a union member other than the one stored last (type punning) is not modelled";

/// Why taking the address of a member other than the first gives up.
pub(crate) const MEMBER_ADDRESS: &str =
    "the address of a union member other than the first is not modelled";

/// A union a cell lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Enclosing {
    /// The offset of the union's tag in the object.
    pub tag: u64,
    /// The member holding the cell, plus one (the tag's value for it).
    pub code: i64,
    /// Whether the member is this one cell (a store covers it).
    pub whole: bool,
}

/// The unions cell `off` of an object of type `ty` lies in, outermost
/// first, leaving out those whose tag lies in `copied` (a copy of whole
/// unions copies their tags with their cells).
pub(crate) fn enclosing(
    types: &Types,
    ty: &CType,
    off: u64,
    copied: &Range<u64>,
) -> Vec<Enclosing> {
    let mut out = Vec::new();
    walk(types, ty, 0, off, &mut out);
    out.retain(|u| !copied.contains(&u.tag));
    out
}

fn walk(types: &Types, ty: &CType, base: u64, off: u64, out: &mut Vec<Enclosing>) {
    match ty {
        CType::Array(e, n) => {
            let esz = types.cells(e);
            let i = (off - base) / esz.max(1);
            if i < *n {
                walk(types, e, base + i * esz, off, out);
            }
        }
        CType::Struct(s) => {
            let def = &types.structs[*s];
            for (k, (_, f, o)) in def.fields.iter().enumerate() {
                let (start, n) = (base + o, types.cells(f));
                if (start..start + n).contains(&off) {
                    if def.union {
                        out.push(Enclosing {
                            tag: base + def.cells - 1,
                            code: k as i64 + 1,
                            whole: n == 1,
                        });
                    }
                    walk(types, f, start, off, out);
                    return;
                }
            }
        }
        _ => {}
    }
}

/// The offsets of the tags of the unions in an object of type `ty`.
pub(crate) fn tags(types: &Types, ty: &CType, base: u64, out: &mut Vec<u64>) {
    match ty {
        CType::Array(e, n) => {
            let esz = types.cells(e);
            if contains_union(types, e) {
                for i in 0..*n {
                    tags(types, e, base + i * esz, out);
                }
            }
        }
        CType::Struct(s) => {
            let def = &types.structs[*s];
            for (_, f, o) in &def.fields {
                tags(types, f, base + o, out);
            }
            if def.union {
                out.push(base + def.cells - 1);
            }
        }
        _ => {}
    }
}

/// Whether a type has a union in it.
pub(crate) fn contains_union(types: &Types, ty: &CType) -> bool {
    match ty {
        CType::Array(e, _) => contains_union(types, e),
        CType::Struct(s) => {
            let def = &types.structs[*s];
            def.union || def.fields.iter().any(|(_, f, _)| contains_union(types, f))
        }
        _ => false,
    }
}

/// Whether the tag `t` lets member `code` be read: 0 or `code`.
fn readable(t: VarId, code: i64) -> Cond {
    or(
        cmp(CmpOp::Eq, Term::Var(t), Term::Const(0)),
        cmp(CmpOp::Eq, Term::Var(t), Term::Const(code)),
    )
}

impl Lowerer<'_> {
    /// The unions cell `off` of object `o` lies in (see [`enclosing`]).
    fn unions_of(&self, o: ObjId, off: u64, copied: &Range<u64>) -> Vec<(VarId, Enclosing)> {
        let obj = &self.objects[o];
        enclosing(&self.types, &obj.ty, off, copied)
            .into_iter()
            .map(|u| (obj.cells[u.tag as usize], u))
            .collect()
    }

    /// When a read of cell `off` of object `o` sees the memory's value:
    /// every union it lies in (but those in `copied`) has the tag 0 or its
    /// member's.
    pub(crate) fn union_readable(&self, o: ObjId, off: u64, copied: &Range<u64>) -> Cond {
        self.unions_of(o, off, copied)
            .into_iter()
            .fold(Cond::True, |c, (t, u)| and(c, readable(t, u.code)))
    }

    /// The tag updates of a store into cell `off` of object `o`, per case:
    /// the condition (over the state before the store) and the
    /// assignments. One case with no assignment outside unions.
    pub(crate) fn union_store(
        &self,
        o: ObjId,
        off: u64,
        copied: &Range<u64>,
    ) -> Vec<(Cond, Vec<(VarId, Term)>)> {
        let mut cases = vec![(Cond::True, Vec::new())];
        for (t, u) in self.unions_of(o, off, copied) {
            let code = Term::Const(u.code);
            if u.whole {
                for (_, assigns) in &mut cases {
                    assigns.push((t, code.clone()));
                }
                continue;
            }
            let ok = readable(t, u.code);
            cases = cases
                .into_iter()
                .flat_map(|(c, assigns)| {
                    let mut kept = assigns.clone();
                    kept.push((t, code.clone()));
                    let mut lost = assigns;
                    lost.push((t, Term::Const(-1)));
                    [
                        (and(c.clone(), ok.clone()), kept),
                        (and(c, not(ok.clone())), lost),
                    ]
                })
                .collect();
        }
        cases
    }

    /// Whether cell `off` of object `o` lies in a union member.
    pub(crate) fn in_union(&self, o: ObjId, off: u64) -> bool {
        !self.unions_of(o, off, &(0..0)).is_empty()
    }

    /// Whether cell `off` of object `o` lies in a union member other than
    /// the first (its address is not the union's).
    pub(crate) fn in_later_member(&self, o: ObjId, off: u64) -> bool {
        self.unions_of(o, off, &(0..0))
            .iter()
            .any(|(_, u)| u.code != 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{IntTy, StructDef};

    /// `struct { int x; union { char c; struct { int a; int b; } s; } u; }`
    /// and the union's index.
    fn types() -> (Types, CType, usize) {
        let mut t = Types::new(frontend::DataModel::Lp64);
        let int = CType::Int(IntTy::INT);
        t.structs.push(StructDef {
            fields: vec![("a".into(), int.clone(), 0), ("b".into(), int.clone(), 1)],
            cells: 2,
            complete: true,
            ..Default::default()
        });
        t.structs.push(StructDef {
            fields: vec![
                ("c".into(), CType::Int(IntTy::CHAR), 0),
                ("s".into(), CType::Struct(0), 1),
            ],
            cells: 4,
            union: true,
            complete: true,
            ..Default::default()
        });
        t.structs.push(StructDef {
            fields: vec![("x".into(), int, 0), ("u".into(), CType::Struct(1), 1)],
            cells: 5,
            complete: true,
            ..Default::default()
        });
        (t, CType::Struct(2), 1)
    }

    #[test]
    fn cells_know_their_member_and_tag() {
        let (t, ty, _) = types();
        let none = 0..0;
        assert_eq!(enclosing(&t, &ty, 0, &none), vec![]);
        let c = Enclosing {
            tag: 4,
            code: 1,
            whole: true,
        };
        assert_eq!(enclosing(&t, &ty, 1, &none), vec![c]);
        let s = Enclosing {
            tag: 4,
            code: 2,
            whole: false,
        };
        assert_eq!(enclosing(&t, &ty, 2, &none), vec![s]);
        assert_eq!(enclosing(&t, &ty, 3, &none), vec![s]);
        // The tag lies in no member.
        assert_eq!(enclosing(&t, &ty, 4, &none), vec![]);
        // A copy of the whole union copies the tag.
        assert_eq!(enclosing(&t, &ty, 2, &(1..5)), vec![]);
        let mut out = Vec::new();
        tags(&t, &CType::Array(Box::new(ty.clone()), 2), 0, &mut out);
        assert_eq!(out, vec![4, 9]);
        assert!(contains_union(&t, &ty));
        assert!(!contains_union(&t, &CType::Struct(0)));
    }

    #[test]
    fn the_union_is_as_large_as_its_largest_member() {
        let (t, ty, u) = types();
        assert_eq!(t.size_of(&CType::Struct(u)), Some(8));
        assert_eq!(t.size_of(&ty), Some(12));
        let mut scalars = Vec::new();
        t.flatten(&ty, &mut scalars);
        assert_eq!(scalars.len(), 5);
    }
}
