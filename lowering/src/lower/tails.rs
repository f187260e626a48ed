//! Heap arrays of run-time length as *tails* (SOUNDNESS.md, "Heap arrays
//! of run-time length").
//!
//! `malloc(n * sizeof(T))` or `calloc(n, sizeof(T))` with `n` known at run
//! time only and `T` an integer or pointer type, or a struct or array of
//! them ([`Lowerer::tail_capable`]), makes a tail: one element kept
//! exactly (its cells, [`Tail::stride`] of them), at an index chosen
//! arbitrarily when the array is allocated, [`Tail::index`] (below the
//! length). Reading another element gives any value of its type; writing
//! one does nothing.
//!
//! Every execution of the program is an execution of the model, for every
//! choice of the index (the arbitrary reads can return what the program
//! read). An error is only counted when the last tail element its thread
//! read (if any) was the tracked one, the thread's `tail_exact` flag: an
//! execution of the program reaching the error is matched by the model
//! whose index is that element's, so a proof covers every execution. The
//! converse does not hold: once a tail is allocated, reaching the error
//! goes to a give-up location instead ([`TAIL_ERROR`]; `ase check` then
//! searches the program lowered without tails for the bug). Before any
//! tail is allocated the model is exact.
//!
//! Each tail has a range of [`TAIL_SPACE`] addresses of its own above every
//! other object, so pointer arithmetic into it is plain integer arithmetic
//! on addresses.

use engine::ir::{ArrayDecl, ArrayId, CmpOp, Cond, Term, VarId};
use frontend::lang_c::span::Span;

use super::expr::Target;
use super::{Lowerer, ObjId, Ub, ERROR};
use crate::error::{LowerError, Result};
use crate::term::{add, and, any, cmp, mul, not, or, sub, Range};
use crate::types::CType;
use crate::Violation;

/// Addresses reserved for each tail (one per cell of an element: a tail
/// holds fewer cells).
pub(crate) const TAIL_SPACE: i64 = 1 << 32;

/// The most cells an element of a tail may have (each access to a tracked
/// element is a case per cell of the accessed type).
const MAX_STRIDE: u64 = 1024;

/// The greatest pointer value (addresses of tail-capable objects included).
pub(crate) const POINTER_MAX: i64 = (1 << 48) - 1;

/// The give-up of an error reached once a tail is allocated.
pub const TAIL_ERROR: &str = "an error is reached in the model of arrays of run-time length \
     (and of arrays too large for a variable per element: static ones, and locals declared once), which keeps one element of \
     each exactly and reads the others as any value: not a counterexample (arrays of at most 8 \
     elements are searched exactly)";

/// The give-up of a use of a tail element other than reading or writing
/// it (a member, `memcpy`, an atomic builtin, a pthread object).
pub(crate) const TAIL_MEMBER: &str =
    "an access into an element of an array of run-time length that is not a read or write of \
     the element";

/// The give-up of an access to a part of an array element of run-time
/// length whose type is not the access's.
pub(crate) const TAIL_PART: &str =
    "an access into an element of an array of run-time length at a part of another type";

/// The assignments of an edge.
type Assigns = Vec<(VarId, Term)>;

/// The tracked element of a tail-capable heap object.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tail {
    /// Its index (chosen when the tail is allocated, below the length).
    pub index: VarId,
    /// Its value (its first cell: the only one of a scalar element).
    pub cell: VarId,
    /// The object's length variable.
    pub length: VarId,
    /// The cells of an element: element `i` spans the addresses
    /// `[base + stride·i, base + stride·(i + 1))`.
    pub stride: u64,
    /// In the exact array model ([`crate::Options::array_values`]): the IR
    /// array of the object's cells, indexed by address minus base.
    pub array: Option<ArrayId>,
}

impl Lowerer<'_> {
    /// Whether allocations of run-time length of `elem` are tails: a
    /// scalar element and tails asked for ([`crate::Options::tails`]). A
    /// race on element `i` is one on the tracked cell in the model whose
    /// index is `i` (both accesses are tracked there).
    /// A struct or array element of integers and pointers only (no union,
    /// no atomic member, no pthread object) is one too, of at most
    /// [`MAX_STRIDE`] cells.
    pub(crate) fn tail_capable(&self, elem: &CType) -> bool {
        self.tails_enabled && self.plain_cells(elem) && self.types.cells(elem) <= MAX_STRIDE
    }

    /// Whether every cell of `ty` is an integer or a pointer, outside
    /// unions and atomic members.
    fn plain_cells(&self, ty: &CType) -> bool {
        match ty {
            CType::Int(_) | CType::Ptr(_) => true,
            CType::Array(e, n) => *n > 0 && self.plain_cells(e),
            CType::Struct(s) => {
                let d = &self.types.structs[*s];
                d.complete
                    && !d.union
                    && !d.atomic_members
                    && d.cells > 0
                    && d.fields.iter().all(|(_, f, _)| self.plain_cells(f))
            }
            _ => false,
        }
    }

    /// The most elements a tail of `elem` may have: its cells fit the
    /// tail's addresses.
    pub(crate) fn tail_max_length(&self, elem: &CType) -> i64 {
        (TAIL_SPACE - 1) / self.types.cells(elem).max(1) as i64
    }

    /// Whether the array object `o` is a variable-length one: of the
    /// capacity model (a length variable), or a tail whose C type is not
    /// kept (only those of constant length have one, [`Lowerer::tail_globals`]).
    pub(crate) fn is_variable_length(&self, o: ObjId) -> bool {
        self.lengths.contains_key(&o)
            || (self.tails.contains_key(&o) && !self.tail_globals.contains_key(&o))
    }

    /// Makes heap object `o` (one element, its tracked one) a tail: its
    /// length and tracked index, and addresses of its own.
    pub(crate) fn make_tail(&mut self, o: ObjId, name: &str, span: Span) -> Result<()> {
        let base = TAIL_SPACE * (self.tails.len() as i64 + 1);
        if base + TAIL_SPACE > POINTER_MAX {
            return Err(LowerError::unsupported(
                span,
                "too many heap objects of run-time length",
            ));
        }
        self.objects[o].base = base;
        let all = Range::new(0, i128::from(TAIL_SPACE));
        let index = self.var(format!("{name}.tracked"), Some(0), all);
        let length = self.var(format!("{name}.length"), Some(0), all);
        // Not a C object witnesses may name (its index varies).
        let cells = self.objects[o].cells.clone();
        if let [cell] = cells[..] {
            self.vars[cell.index()].meta.c_name = Some(format!("{name}[tracked]"));
        }
        for &cell in &cells {
            let meta = &mut self.vars[cell.index()].meta;
            if cells.len() > 1 {
                // `a[0].x` of the object's one element: `a[tracked].x`.
                meta.c_name = meta
                    .c_name
                    .as_ref()
                    .map(|n| n.replacen("[0]", "[tracked]", 1));
            }
            meta.origin = crate::VarOrigin::Internal;
        }
        let array = self.array_values.then(|| {
            self.arrays.push(ArrayDecl {
                name: format!("{name}.cells"),
                // Set by the allocation ([`Lowerer::set_array_contents`]).
                init: None,
            });
            ArrayId::new(self.arrays.len() - 1)
        });
        self.tails.insert(
            o,
            Tail {
                index,
                cell: cells[0],
                length,
                stride: cells.len() as u64,
                array,
            },
        );
        if self.tail_used.is_none() {
            self.tail_used = Some(self.var("heap.tail_used".into(), Some(0), Range::new(0, 1)));
        }
        Ok(())
    }

    /// The guard and assignments that allocate the tail `o` of `n`
    /// elements: the tracked index is `index` (havocked), below `n`.
    pub(crate) fn tail_allocation(
        &self,
        o: ObjId,
        n: &Term,
        index: VarId,
    ) -> (Cond, Vec<(VarId, Term)>) {
        let tail = self.tails[&o];
        // Below `n`; 0 for an allocation of no element (then every access
        // lies past the length, the tracked element included).
        let guard = and(
            cmp(CmpOp::Ge, Term::Var(index), Term::Const(0)),
            or(
                cmp(CmpOp::Lt, Term::Var(index), n.clone()),
                cmp(CmpOp::Eq, Term::Var(index), Term::Const(0)),
            ),
        );
        let mut assigns = vec![(tail.index, Term::Var(index)), (tail.length, n.clone())];
        if let Some(used) = self.tail_used {
            assigns.push((used, Term::Const(1)));
        }
        (guard, assigns)
    }

    /// The targets of a pointer `t` (under `c`) into the tails of objects
    /// whose elements have, or hold, a part of a type compatible with
    /// `pointee`; the condition that `t` points into one of their address
    /// ranges. A target is tracked when `t` lies in the tracked element;
    /// which of its cells it is, the access decides
    /// ([`Lowerer::tracked_cells`]).
    pub(crate) fn tail_targets(
        &self,
        out: &mut Vec<(Cond, Target)>,
        c: &Cond,
        t: &Term,
        pointee: &CType,
    ) -> Cond {
        let mut hit = Vec::new();
        for (&o, tail) in &self.tails {
            let CType::Array(elem, _) = &self.objects[o].ty else {
                continue;
            };
            let mut parts = Vec::new();
            super::expr::subobjects(&self.types, elem, 0, &mut parts);
            if !parts
                .iter()
                .any(|(_, part)| super::expr::is_compatible(part, pointee))
            {
                continue;
            }
            // The cell `t` designates, counted from the object's start.
            let i = minus(t, self.objects[o].base);
            let space = and(
                cmp(CmpOp::Ge, i.clone(), Term::Const(0)),
                cmp(CmpOp::Lt, i.clone(), Term::Const(TAIL_SPACE)),
            );
            hit.push(space.clone());
            let end = mul(tail.stride as i64, Term::Var(tail.length));
            let inside = and(space.clone(), cmp(CmpOp::Lt, i.clone(), end.clone()));
            let at = tail.tracked_at(&i);
            let live = self.alive(o).unwrap_or(Cond::True);
            let here = and(c.clone(), live.clone());
            let target = |tracked| Target::Tail {
                obj: o,
                addr: t.clone(),
                tracked,
            };
            if tail.array.is_some() {
                // The exact array model: every element is kept.
                out.push((and(here.clone(), inside), target(true)));
            } else {
                out.push((
                    and(here.clone(), and(inside.clone(), at.clone())),
                    target(true),
                ));
                out.push((and(here.clone(), and(inside, not(at))), target(false)));
            }
            out.push((
                and(here, and(space.clone(), cmp(CmpOp::Ge, i, end))),
                Target::Ub(Ub::violates(
                    Violation::Deref,
                    "access past the length of an array of run-time length",
                )),
            ));
            out.push((
                and(and(c.clone(), not(live)), space),
                Target::Ub(Ub::violates(
                    Violation::Deref,
                    "access to heap memory that is freed or not allocated",
                )),
            ));
        }
        any(hit)
    }

    /// The cells of the tracked element of tail `o` that an access of the
    /// scalar type `ty` at address `addr` (inside that element) may be,
    /// each under its condition: the one cell of a scalar element, else a
    /// case per cell of a compatible type at its address, and `None` for
    /// any other address of the element (a part of another type: not
    /// modelled).
    pub(crate) fn tracked_cells(
        &self,
        o: ObjId,
        addr: &Term,
        ty: &CType,
    ) -> Vec<(Cond, Option<VarId>)> {
        let tail = self.tails[&o];
        if tail.stride == 1 {
            return vec![(Cond::True, Some(tail.cell))];
        }
        let CType::Array(elem, _) = &self.objects[o].ty else {
            return vec![(Cond::True, None)];
        };
        let mut parts = Vec::new();
        super::expr::subobjects(&self.types, elem, 0, &mut parts);
        let parts = parts
            .into_iter()
            .filter(|(_, part)| part.is_scalar() && super::expr::is_compatible(part, ty));
        let from_start = minus(addr, self.objects[o].base);
        // `stride · y + c`: inside the tracked element, at `c mod stride`.
        if let Some(c) = stride_offset(&from_start, tail.stride as i64) {
            let c = c.rem_euclid(tail.stride as i64) as u64;
            let cell = parts
                .filter(|(off, _)| *off == c)
                .map(|(off, _)| self.objects[o].cells[off as usize])
                .next();
            return vec![(Cond::True, cell)];
        }
        let offset = sub(from_start, mul(tail.stride as i64, Term::Var(tail.index)));
        let mut out: Vec<(Cond, Option<VarId>)> = parts
            .map(|(off, _)| {
                let at = cmp(CmpOp::Eq, offset.clone(), Term::Const(off as i64));
                (at, Some(self.objects[o].cells[off as usize]))
            })
            .collect();
        let other = not(any(out.iter().map(|(c, _)| c.clone())));
        out.push((other, None));
        out
    }

    /// The value read from a tail target under `c`: the tracked cells (a
    /// case each, [`Lowerer::tracked_cells`]), or any value of the element
    /// type (a havocked temporary). A read of a tracked cell is noted for
    /// the race check.
    pub(crate) fn tail_read(
        &mut self,
        c: &Cond,
        o: ObjId,
        (addr, tracked): (&Term, bool),
        ty: &CType,
    ) -> Vec<(Cond, super::expr::Res)> {
        use super::expr::Res;
        if let Some(a) = self.array_of(o) {
            return self.array_read(c, o, a, addr, ty);
        }
        if !tracked {
            return vec![(c.clone(), Res::Val(Term::Var(self.havoc_temp(ty))))];
        }
        let mut out = Vec::new();
        for (at, cell) in self.tracked_cells(o, addr, ty) {
            let here = and(c.clone(), at);
            match cell {
                Some(cell) => {
                    self.note_read(&here, o, cell);
                    out.push((here, Res::Val(Term::Var(cell))));
                }
                None => out.push((here, Res::Ub(TAIL_PART.into()))),
            }
        }
        out
    }

    /// After a read whose cases are `cases`: the thread's exactness flag
    /// says whether the tail element read (if any) is the tracked one. The
    /// first tail read of a group of edges sets it (one read event is all
    /// the argument of the module needs).
    pub(crate) fn note_tail_read(&mut self, cases: &[(Cond, Target)]) {
        // In the exact array model every read is exact.
        if self.array_values || !cases.iter().any(|(_, t)| matches!(t, Target::Tail { .. })) {
            return;
        }
        let flag = self.tail_exact();
        if self.t.pending_havoc.contains(&flag) {
            return;
        }
        // An untracked element read clears the flag; otherwise it may be
        // either (a model whose execution reaches the error with the flag
        // set exists: the one that keeps it set).
        let off = any(cases
            .iter()
            .filter(|(_, t)| matches!(t, Target::Tail { tracked: false, .. }))
            .map(|(c, _)| c.clone()));
        self.t.pending_havoc.push(flag);
        self.t.pending_guard.push(or(
            not(off.clone()),
            cmp(CmpOp::Eq, Term::Var(flag), Term::Const(0)),
        ));
        if off != Cond::False {
            self.tail_clean();
            self.t.pending_clear.push(off);
        }
    }

    /// The current thread's clean flag: 1 while every tail element the
    /// thread read was the tracked one.
    fn tail_clean(&mut self) -> VarId {
        if let Some(v) = self.t.tail_clean {
            return v;
        }
        let v = self.thread_flag("tail_clean");
        self.t.tail_clean = Some(v);
        self.tail_clean.push(v);
        v
    }

    /// A new flag of the current thread, initially set.
    fn thread_flag(&mut self, what: &str) -> VarId {
        let name = self.unique(&format!("{}.{what}", self.threads[self.t.index].name));
        self.var(name, Some(1), Range::new(0, 1))
    }

    /// The cases of an edge with their assignments: where the step reads
    /// an untracked element, each case also clears the thread's clean
    /// flag.
    pub(crate) fn clearing_cases(
        &self,
        cases: Vec<(Cond, super::Loc)>,
        assigns: &[(VarId, Term)],
    ) -> Vec<(Cond, super::Loc, Assigns)> {
        let (Some(flag), false) = (self.t.tail_clean, self.t.pending_clear.is_empty()) else {
            return cases
                .into_iter()
                .map(|(c, to)| (c, to, assigns.to_vec()))
                .collect();
        };
        let off = any(self.t.pending_clear.iter().cloned());
        let mut cleared = assigns.to_vec();
        cleared.push((flag, Term::Const(0)));
        cases
            .into_iter()
            .flat_map(|(c, to)| {
                [
                    (and(c.clone(), off.clone()), to, cleared.clone()),
                    (and(c, not(off.clone())), to, assigns.to_vec()),
                ]
            })
            .collect()
    }

    /// The current thread's exactness flag: 0 when the last tail element
    /// the thread read is not the tracked one (1 when it is, or may be 0
    /// then too; 1 before any tail read).
    fn tail_exact(&mut self) -> VarId {
        if let Some(v) = self.t.tail_exact {
            return v;
        }
        let v = self.thread_flag("tail_exact");
        self.t.tail_exact = Some(v);
        v
    }

    /// An edge to the error location (or a violation's) once tails exist:
    /// to the error while
    /// no tail is allocated; else to a give-up when the thread's last tail
    /// read was exact, and nowhere otherwise (the model whose tracked index
    /// is that read's covers it). `None`: an ordinary edge, and so is an
    /// edge to the error location when assertions are not checked: there
    /// `reach_error()` aborts, behaviour the model keeps whatever the
    /// values read (an arbitrary read both aborts and goes on), so no
    /// split is needed and a give-up would stand for no bug.
    pub(crate) fn error_cases(
        &mut self,
        to: super::Loc,
        guard: &Cond,
    ) -> Option<Vec<(Cond, super::Loc)>> {
        if self.array_values {
            return None;
        }
        let used = self.tail_used?;
        let violation = matches!(self.t.cfg.locs[to].kind, crate::cfg::LocKind::Violation(_));
        let error = to == ERROR && self.checks.assertions;
        if !error && !violation {
            return None;
        }
        let flag = self.tail_exact();
        let is = |v: VarId, k: i64| cmp(CmpOp::Eq, Term::Var(v), Term::Const(k));
        // One give-up location per error location it stands for.
        let reason = match &self.t.cfg.locs[to].kind {
            crate::cfg::LocKind::Violation(v) => {
                format!("{TAIL_ERROR} (a violation of {})", v.violation.name())
            }
            _ => TAIL_ERROR.into(),
        };
        let give_up = self.give_up_of(crate::GiveUp {
            kind: crate::GiveUpKind::TailError,
            reason,
        });
        let redirect = (self.t.index, give_up, to);
        if !self.tail_redirects.contains(&redirect) {
            self.tail_redirects.push(redirect);
        }
        Some(vec![
            (and(guard.clone(), is(used, 0)), to),
            (and(guard.clone(), and(is(used, 1), is(flag, 1))), give_up),
        ])
    }
}

impl Lowerer<'_> {
    /// Every thread read tracked elements only: the condition that makes
    /// an error reached past a tail's allocation a counterexample.
    pub(crate) fn all_clean(&self) -> Cond {
        crate::term::all_set(&self.tail_clean)
    }

    /// Sends each edge to a tail's give-up location also to the error or
    /// violation it stands for, where every thread read tracked elements
    /// only (then the execution is one of the program: no value read is
    /// arbitrary, and the dropped writes were never read). An edge that
    /// clears a clean flag itself stays a give-up. Run on the final CFGs
    /// (after the reduction: the choice between the two sinks does not
    /// change which states reach one of them).
    pub(crate) fn redirect_clean_errors(&mut self) {
        if self.tail_redirects.is_empty() {
            return;
        }
        let clean = self.all_clean();
        for &(k, give_up, to) in &self.tail_redirects {
            let cfg = &mut self.threads[k].cfg;
            let mut copies = Vec::new();
            for e in cfg.edges.iter_mut().filter(|e| !e.dead && e.to == give_up) {
                if e.assigns.iter().any(|(v, _)| self.tail_clean.contains(v)) {
                    continue;
                }
                let mut copy = e.clone();
                copy.to = to;
                copy.guard = and(copy.guard, clean.clone());
                e.guard = and(e.guard.clone(), not(clean.clone()));
                copies.push(copy);
            }
            cfg.edges.extend(copies);
        }
    }
}

impl Tail {
    /// The condition that the cell `i` (counted from the object's start)
    /// lies in the tracked element.
    fn tracked_at(&self, i: &Term) -> Cond {
        let start = mul(self.stride as i64, Term::Var(self.index));
        if self.stride == 1 {
            return cmp(CmpOp::Eq, i.clone(), start);
        }
        and(
            cmp(CmpOp::Ge, i.clone(), start.clone()),
            cmp(
                CmpOp::Lt,
                i.clone(),
                add(start, Term::Const(self.stride as i64)),
            ),
        )
    }
}

/// `c` when `t` is `s · y + c` for a term `y` (every summand but the
/// constant ones scaled by a multiple of `s`); `None` when not seen.
pub(crate) fn stride_offset(t: &Term, s: i64) -> Option<i64> {
    match t {
        Term::Const(c) => Some(*c),
        Term::Mul(k, _) if k % s == 0 => Some(0),
        Term::Add(a, b) => stride_offset(a, s)?.checked_add(stride_offset(b, s)?),
        Term::Sub(a, b) => stride_offset(a, s)?.checked_sub(stride_offset(b, s)?),
        Term::Neg(a) => stride_offset(a, s)?.checked_neg(),
        _ => None,
    }
}

/// `t − k`, folding `k` into a constant summand of `t` (addresses are
/// `base + index`: conditions on the index stay small).
fn minus(t: &Term, k: i64) -> Term {
    let shifted = |c: i64, x: &Term| add(x.clone(), Term::Const(c - k));
    match t {
        Term::Const(c) => Term::Const(c - k),
        Term::Add(a, b) => match (&**a, &**b) {
            (Term::Const(c), x) | (x, Term::Const(c)) => shifted(*c, x),
            _ => sub(t.clone(), Term::Const(k)),
        },
        Term::Sub(x, b) => match &**b {
            Term::Const(c) => shifted(-c, x),
            _ => sub(t.clone(), Term::Const(k)),
        },
        _ => sub(t.clone(), Term::Const(k)),
    }
}
