//! The string and memory functions of `<string.h>`: `strcpy`, `strncpy`,
//! `strlen`, `strcmp`, `memset`, `memcpy` and `bzero` (and their
//! `__builtin_` forms), lowered as the cell-by-cell loops they are.
//!
//! A pointer argument is evaluated once (into a temporary) and
//! dereferenced with the existing place machinery, so an invalid pointer
//! or a freed heap object gives up as `*p` does. The *room* of a place is
//! how many elements of the pointee type follow it in one array of its
//! object (1 for a lone object of that type); an access beyond it is
//! undefined behaviour and gives up. Every cell read or written through a
//! pointer is a step of its own (as if the program had written `d[0] =
//! s[0]; d[1] = s[1]; ...`), so the invariant "one shared access per step"
//! holds. Sizes must be constants (`sizeof`, literals); a size that is not
//! gives up at the call. Copies between overlapping regions (undefined
//! behaviour) give up: distinct objects have disjoint address ranges, so
//! two regions overlap exactly when their addresses are closer than their
//! length. SOUNDNESS.md ("String and memory functions") has the argument.

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::{Expression, StringLiteral};
use frontend::lang_c::span::{Node, Span};

use super::expr::{Res, Target, Val};
use super::Lowerer;
use crate::cfg::Loc;
use crate::error::{LowerError, Result};
use crate::term::{add, and, any, cmp, mul, not, or, sub, within};
use crate::types::{CType, IntTy, Types};

/// Most cells one call may copy, set or scan.
const MAX_CELLS: u64 = 1024;

/// `unsigned char`.
const UCHAR: IntTy = IntTy {
    bits: 8,
    signed: false,
    rank: 1,
};

/// The functions this module lowers (when the program does not define them).
pub(crate) fn is_string_builtin(name: &str) -> bool {
    matches!(
        name.strip_prefix("__builtin_").unwrap_or(name),
        "strcpy" | "strncpy" | "strlen" | "strcmp" | "memset" | "memcpy" | "bzero"
    )
}

/// The characters of a string literal (adjacent pieces concatenated) and
/// its terminating 0, as `char` values; `None` for wide and UTF-16/32
/// literals and escapes the parser does not know.
pub(crate) fn literal_chars(s: &StringLiteral) -> Option<Vec<i64>> {
    let mut out = Vec::new();
    for piece in s {
        let inner = piece
            .strip_prefix("u8")
            .unwrap_or(piece)
            .strip_prefix('"')?
            .strip_suffix('"')?;
        let bytes = inner.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            i += 1;
            if b != b'\\' {
                out.push(i64::from(b));
                continue;
            }
            let e = *bytes.get(i)?;
            i += 1;
            let v: u32 = match e {
                b'n' => 10,
                b't' => 9,
                b'r' => 13,
                b'a' => 7,
                b'b' => 8,
                b'f' => 12,
                b'v' => 11,
                b'\\' | b'\'' | b'"' | b'?' => u32::from(e),
                b'0'..=b'7' => {
                    let mut v = u32::from(e - b'0');
                    for _ in 0..2 {
                        match bytes.get(i) {
                            Some(d @ b'0'..=b'7') => {
                                v = v * 8 + u32::from(d - b'0');
                                i += 1;
                            }
                            _ => break,
                        }
                    }
                    v
                }
                b'x' => {
                    let start = i;
                    while bytes.get(i).is_some_and(u8::is_ascii_hexdigit) {
                        i += 1;
                    }
                    u32::from_str_radix(std::str::from_utf8(&bytes[start..i]).ok()?, 16).ok()?
                }
                _ => return None,
            };
            if v > 0xff {
                return None;
            }
            out.push(i64::from(v));
        }
    }
    out.push(0);
    // `char` is signed: bytes above 127 are negative.
    Some(
        out.into_iter()
            .map(|b| if b > 127 { b - 256 } else { b })
            .collect(),
    )
}

/// Whether a cell or element of type `a` may be accessed as type `b`.
fn compatible(a: &CType, b: &CType) -> bool {
    match (a, b) {
        (CType::Int(x), CType::Int(y)) => x.bits == y.bits,
        (CType::Ptr(_), CType::Ptr(_)) => true,
        (a, b) => a == b,
    }
}

/// How many consecutive elements of type `t`, starting at cell `off` of an
/// object of type `ty`, lie in one array of it (or 1 when the part at `off`
/// is a lone `t`); 0 when the part at `off` is not a `t`.
pub(crate) fn room(types: &Types, ty: &CType, off: u64, t: &CType) -> u64 {
    let mut best = u64::from(off == 0 && compatible(ty, t));
    match ty {
        CType::Array(e, m) => {
            let es = types.cells(e);
            if es > 0 && off / es < *m {
                let (j, r) = (off / es, off % es);
                if r == 0 && compatible(e, t) {
                    best = best.max(m - j);
                }
                best = best.max(room(types, e, r, t));
            }
        }
        CType::Struct(s) => {
            for (_, f, o) in &types.structs[*s].fields {
                if off >= *o && off < o + types.cells(f) {
                    best = best.max(room(types, f, off - o, t));
                }
            }
        }
        _ => {}
    }
    best
}

/// Memory a pointer argument designates: the pointer (a term of a
/// temporary, or a constant), its cases, the room of each, and the
/// pointee type.
struct Region {
    ptr: Val,
    cases: Vec<(Cond, Target)>,
    /// Elements of `elem` available from each case's cell (0 for give-ups).
    rooms: Vec<u64>,
    elem: CType,
}

/// The source of a copy or comparison.
enum Source {
    /// A string literal's `char`s with the terminating 0.
    Literal(Vec<i64>),
    /// Memory through a pointer.
    Memory(Region),
}

impl Lowerer<'_> {
    /// Lowers a call of a string or memory function; `None` when `name` is
    /// not one (or the program defines it).
    pub(crate) fn string_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        if !is_string_builtin(name) || self.function_exists(name) {
            return Ok(None);
        }
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        let arity = match base {
            "strlen" => 1,
            "strcpy" | "strcmp" | "bzero" => 2,
            _ => 3,
        };
        if args.len() != arity {
            return Err(LowerError::invalid(
                span,
                format!("`{name}` takes {arity} arguments"),
            ));
        }
        Ok(Some(match base {
            "memset" | "bzero" => {
                let dst = self.region(&args[0], name, span)?;
                let (c, n) = if base == "bzero" {
                    (Val::int(0), &args[1])
                } else {
                    (self.eval(&args[1])?, &args[2])
                };
                let c = self.materialize(c, span)?;
                if dst
                    .cases
                    .iter()
                    .any(|(_, t)| matches!(t, Target::Tail { .. }))
                {
                    self.memset_tail(&dst, c, n, name, span)?;
                } else if let Some(n) = self.size_arg(n, name, span)? {
                    self.memset(&dst, c, n, name, span)?;
                }
                if base == "bzero" {
                    Val::term(Term::Const(0), CType::Void)
                } else {
                    self.as_void_ptr(dst.ptr)
                }
            }
            "memcpy" => {
                let d = self.pointer_val(&args[0], span)?;
                let s = match literal(&args[1]) {
                    Some(_) => None,
                    None => Some(self.pointer_val(&args[1], span)?),
                };
                let dt = pointee(&d.ty);
                let st = match &s {
                    None => Some(CType::Int(IntTy::CHAR)),
                    Some(v) => pointee(&v.ty),
                };
                let elem = match (dt, st) {
                    (Some(d), Some(s)) if compatible(&d, &s) => d,
                    (Some(_), Some(_)) => {
                        return Err(LowerError::unsupported(
                            span,
                            "`memcpy` between pointers to different types is not modelled",
                        ))
                    }
                    (Some(t), None) | (None, Some(t)) => t,
                    (None, None) => {
                        return Err(LowerError::unsupported(
                            span,
                            "`memcpy` between two `void *` pointers is not modelled (the \
                             type of the cells is unknown)",
                        ))
                    }
                };
                let dst = self.region_of(d, elem.clone(), span)?;
                let src = match s {
                    None => self.source(&args[1], name, span)?,
                    Some(v) => Source::Memory(self.region_of(v, elem, span)?),
                };
                if let Some(n) = self.size_arg(&args[2], name, span)? {
                    self.memcpy(&dst, &src, n, name, span)?;
                }
                self.as_void_ptr(dst.ptr)
            }
            "strcpy" | "strncpy" => {
                let dst = self.region(&args[0], name, span)?;
                self.require_chars(&dst.elem, name, span)?;
                let src = self.source(&args[1], name, span)?;
                if let Source::Memory(r) = &src {
                    self.require_chars(&r.elem, name, span)?;
                }
                if base == "strcpy" {
                    self.strcpy(&dst, &src, None, name, span)?;
                } else if let Some(n) = self.size_arg(&args[2], name, span)? {
                    self.strcpy(&dst, &src, Some(n), name, span)?;
                }
                dst.ptr
            }
            "strlen" => {
                let src = self.source(&args[0], name, span)?;
                if let Source::Memory(r) = &src {
                    self.require_chars(&r.elem, name, span)?;
                }
                self.strlen(&src, name, span)?
            }
            _ => {
                let a = self.source(&args[0], name, span)?;
                let b = self.source(&args[1], name, span)?;
                for s in [&a, &b] {
                    if let Source::Memory(r) = s {
                        self.require_chars(&r.elem, name, span)?;
                    }
                }
                self.strcmp(&a, &b, name, span)?
            }
        }))
    }

    /// Refuses a string function on anything but `char` cells.
    fn require_chars(&self, t: &CType, name: &str, span: Span) -> Result<()> {
        match t {
            CType::Int(i) if i.bits == 8 => Ok(()),
            _ => Err(LowerError::unsupported(
                span,
                format!("`{name}` on memory that is not `char` is not modelled"),
            )),
        }
    }

    fn as_void_ptr(&self, v: Val) -> Val {
        Val {
            cases: v.cases,
            ty: CType::Ptr(Box::new(CType::Void)),
        }
    }

    /// Evaluates a size argument: its constant value, or `None` after a
    /// give-up edge when it is not a constant.
    fn size_arg(&mut self, e: &Node<Expression>, name: &str, span: Span) -> Result<Option<u64>> {
        let v = self.eval(e)?;
        match v.constant() {
            Some(k) if k >= 0 => Ok(Some(k as u64)),
            Some(_) => Err(LowerError::invalid(
                e.span,
                format!("negative size passed to `{name}`"),
            )),
            None => {
                let l = self.give_up(&format!(
                    "`{name}` with a size that is not a constant is not modelled"
                ));
                self.jump_to(l, span);
                Ok(None)
            }
        }
    }

    /// A pointer argument (seen through casts to `void *`), evaluated
    /// once into a temporary.
    fn pointer_val(&mut self, e: &Node<Expression>, span: Span) -> Result<Val> {
        let inner = strip_void_casts(self, e)?;
        let v = self.eval(inner)?;
        self.materialize(v, span)
    }

    /// The memory a pointer argument designates, as its pointee type.
    fn region(&mut self, e: &Node<Expression>, name: &str, span: Span) -> Result<Region> {
        let v = self.pointer_val(e, span)?;
        let Some(t) = pointee(&v.ty) else {
            return Err(LowerError::unsupported(
                span,
                format!("`{name}` through a `void *` pointer is not modelled"),
            ));
        };
        self.region_of(v, t, span)
    }

    /// The memory an evaluated pointer designates, as elements of `elem`.
    fn region_of(&mut self, v: Val, elem: CType, span: Span) -> Result<Region> {
        let place = self.deref(v.clone(), elem.clone(), span)?;
        let rooms = place
            .cases
            .iter()
            .map(|(_, t)| match t {
                Target::Cell(o, off) => room(&self.types, &self.objects[*o].ty, *off, &elem),
                Target::Ub(_) | Target::Tail { .. } => 0,
            })
            .collect();
        Ok(Region {
            ptr: v,
            cases: place.cases,
            rooms,
            elem,
        })
    }

    /// A source argument: a string literal, or `char` memory through a
    /// pointer.
    fn source(&mut self, e: &Node<Expression>, name: &str, span: Span) -> Result<Source> {
        if let Some(s) = literal(e) {
            let chars = literal_chars(s).ok_or_else(|| {
                LowerError::unsupported(e.span, "this kind of string literal is not modelled")
            })?;
            return Ok(Source::Literal(chars));
        }
        let r = self.region(e, name, span)?;
        Ok(Source::Memory(r))
    }

    /// The place of cell `c` (counted from the region's first cell): per
    /// case, the cell, or a give-up when it lies beyond the room.
    fn region_cell(&self, r: &Region, c: u64, reason: &str) -> super::expr::Place {
        let esz = self.types.cells(&r.elem);
        let mut scalars = Vec::new();
        self.types.flatten(&r.elem, &mut scalars);
        let ty = scalars[(c % esz) as usize].clone();
        let mut cases = Vec::new();
        for ((cond, t), &room) in r.cases.iter().zip(&r.rooms) {
            match t {
                // In an array of run-time length: below its length only.
                Target::Cell(o, off) if c < room * esz => {
                    self.within_length(&mut cases, cond.clone(), *o, off + c)
                }
                Target::Cell(..) => cases.push((cond.clone(), Target::Ub(reason.into()))),
                Target::Tail { .. } => {
                    cases.push((cond.clone(), Target::Ub(super::tails::TAIL_MEMBER.into())))
                }
                ub => cases.push((cond.clone(), ub.clone())),
            }
        }
        super::expr::Place { cases, ty }
    }

    /// Reads cell `c` of a source into a value of its own step (a constant
    /// for a literal; a give-up beyond the literal's end).
    fn read_cell(&mut self, s: &Source, c: u64, reason: &str, span: Span) -> Result<Val> {
        match s {
            Source::Literal(chars) => Ok(match chars.get(c as usize) {
                Some(&k) => Val::term(Term::Const(k), CType::Int(IntTy::CHAR)),
                None => Val {
                    cases: vec![(Cond::True, Res::Ub(reason.into()))],
                    ty: CType::Int(IntTy::CHAR),
                },
            }),
            Source::Memory(r) => {
                let p = self.region_cell(r, c, reason);
                let split = std::mem::replace(&mut self.t.split, true);
                let v = self.read(p, span);
                self.t.split = split;
                let v = v?;
                // A local cell is read in the step that uses it; a shared
                // one was loaded into a temporary by `read`.
                self.materialize(v, span)
            }
        }
    }

    /// Gives up (before anything is written) where `d` and `s`, `n` cells
    /// each, overlap: distinct objects have disjoint addresses, so they
    /// overlap exactly when `|d - s| < n`.
    fn overlap_check(&mut self, dst: &Region, src: &Source, n: u64, name: &str, span: Span) {
        let Source::Memory(s) = src else { return };
        let (Some(d), Some(sp)) = (dst.ptr.single(), s.ptr.single()) else {
            return;
        };
        let Some(cur) = self.t.cur else { return };
        let next = self.new_loc(Some(span));
        let n = n as i64;
        let diff = sub(d, sp);
        let overlap = and(
            cmp(CmpOp::Lt, diff.clone(), Term::Const(n)),
            cmp(CmpOp::Gt, diff, Term::Const(-n)),
        );
        self.give_up_edge(
            cur,
            overlap.clone(),
            format!("`{name}` between overlapping objects (undefined behaviour)"),
            span,
        );
        self.plain_edge(cur, next, not(overlap), vec![], Some(span));
        self.flush();
        self.t.cur = Some(next);
    }

    /// `memset(d, c, n)`: `n` bytes of `d` set to `(unsigned char)c`.
    fn memset(&mut self, dst: &Region, c: Val, n: u64, name: &str, span: Span) -> Result<()> {
        let cells = self.byte_cells(&dst.elem, n, name, span)?;
        let reason = format!("`{name}` beyond the end of the object");
        let byte = self.convert(c.clone(), &CType::Int(UCHAR), span)?;
        let byte = self.materialize(byte, span)?;
        for i in 0..cells {
            let p = self.region_cell(dst, i, &reason);
            let v = match &p.ty {
                CType::Int(t) if t.bits == 8 => byte.clone(),
                CType::Int(_) | CType::Ptr(_) if c.constant() == Some(0) => Val::int(0),
                // Any bytes make a floating-point value: the abstract one.
                CType::Float(_) => super::floats::placeholder(p.ty.clone()),
                CType::Int(_) | CType::Ptr(_) => {
                    return Err(LowerError::unsupported(
                        span,
                        format!(
                            "`{name}` of a value other than 0 into cells wider than a byte is \
                             not modelled"
                        ),
                    ))
                }
                _ => {
                    return Err(LowerError::unsupported(
                        span,
                        format!("`{name}` of a pthread object is not modelled"),
                    ))
                }
            };
            self.store(p, v, span)?;
        }
        Ok(())
    }

    /// `memset(d, c, n)` into an array modelled by one tracked element (a
    /// tail: SOUNDNESS.md, "Heap arrays of run-time length"), `n` any
    /// count of bytes, known at run time or not: the tracked element is
    /// set where it lies among the `n` bytes from `d` (they start an
    /// element: `d` is a pointer to one), the others are not kept; past
    /// the array's length is an invalid dereference. Memory that may be
    /// another object as well is not modelled.
    fn memset_tail(
        &mut self,
        dst: &Region,
        c: Val,
        n: &Node<Expression>,
        name: &str,
        span: Span,
    ) -> Result<()> {
        if self.array_values {
            let why = format!("`{name}` into an array of the exact array model (not modelled)");
            self.give_up_where(Cond::True, why, span);
            return Ok(());
        }
        let unsupported = |what: &str| LowerError::unsupported(span, format!("`{name}` {what}"));
        let size = self
            .types
            .size_of(&dst.elem)
            .filter(|&s| s > 0)
            .ok_or_else(|| unsupported("on memory of this type"))?;
        let v = match &dst.elem {
            // An element of several cells: zeros only, cell by cell below.
            CType::Struct(_) | CType::Array(..) if c.constant() == Some(0) => Val::int(0),
            CType::Int(t) if t.bits == 8 => {
                let byte = self.convert(c, &CType::Int(UCHAR), span)?;
                self.materialize(byte, span)?
            }
            CType::Int(_) | CType::Ptr(_) if c.constant() == Some(0) => Val::int(0),
            _ => {
                return Err(unsupported(
                    "of a value other than 0 into an array of run-time length of cells wider \
                     than a byte",
                ))
            }
        };
        let bytes = self.eval(n)?;
        let bytes = self.materialize(bytes, span)?;
        let Some(bytes) = bytes.single() else {
            return Err(unsupported("with this size"));
        };
        let size = size as i64;
        let mut cases = Vec::new();
        let (mut past, mut partial) = (Vec::new(), Vec::new());
        for (cond, t) in &dst.cases {
            let &Target::Tail { obj, ref addr, .. } = t else {
                if matches!(t, Target::Cell(..)) {
                    return Err(unsupported(
                        "into memory that may be an array of run-time length or another object",
                    ));
                }
                cases.push((cond.clone(), t.clone()));
                continue;
            };
            let tail = self.tails[&obj];
            let stride = tail.stride as i64;
            if self.types.cells(&dst.elem) != tail.stride {
                return Err(unsupported(
                    "into an array of run-time length through a pointer to a part of an element",
                ));
            }
            // Counted in cells, times the stride (`first` is `stride`
            // times the element `d` points to).
            let first = sub(addr.clone(), Term::Const(self.objects[obj].base));
            let bytes = mul(stride, bytes.clone());
            let room = mul(
                size,
                sub(mul(stride, Term::Var(tail.length)), first.clone()),
            );
            past.push(and(cond.clone(), cmp(CmpOp::Gt, bytes.clone(), room)));
            // The tracked element's first byte, counted from `d`.
            let at = mul(size, sub(mul(stride, Term::Var(tail.index)), first));
            let from = cmp(CmpOp::Ge, at.clone(), Term::Const(0));
            let whole = cmp(
                CmpOp::Le,
                add(at.clone(), Term::Const(size * stride)),
                bytes.clone(),
            );
            let starts = cmp(CmpOp::Lt, at, bytes.clone());
            partial.push(and(
                cond.clone(),
                and(from.clone(), and(starts, not(whole.clone()))),
            ));
            let hit = and(from, whole);
            for (c, tracked) in [(hit.clone(), true), (not(hit), false)] {
                let (c, addr) = (and(cond.clone(), c), addr.clone());
                cases.push((c, Target::Tail { obj, addr, tracked }));
            }
        }
        self.give_up_where(
            any(partial),
            format!("`{name}` of part of an element of an array of run-time length"),
            span,
        );
        self.give_up_where(
            any(past),
            super::Ub::violates(
                crate::Violation::Deref,
                format!("`{name}` beyond the end of an array of run-time length"),
            ),
            span,
        );
        let mut scalars = Vec::new();
        self.types.flatten(&dst.elem, &mut scalars);
        if scalars.len() == 1 {
            let place = super::expr::Place {
                cases,
                ty: dst.elem.clone(),
            };
            return self.store(place, v, span);
        }
        // Each cell of the element, at its address.
        for (j, ty) in scalars.into_iter().enumerate() {
            let cases = cases
                .iter()
                .map(|(c, t)| match t {
                    Target::Tail { obj, addr, tracked } => (
                        c.clone(),
                        Target::Tail {
                            obj: *obj,
                            addr: add(addr.clone(), Term::Const(j as i64)),
                            tracked: *tracked,
                        },
                    ),
                    other => (c.clone(), other.clone()),
                })
                .collect();
            self.store(super::expr::Place { cases, ty }, v.clone(), span)?;
        }
        Ok(())
    }

    /// The number of cells `n` bytes of elements of type `t` make; a size
    /// that is not a whole number of elements is refused.
    fn byte_cells(&self, t: &CType, n: u64, name: &str, span: Span) -> Result<u64> {
        let size = self.types.size_of(t).filter(|&s| s > 0).ok_or_else(|| {
            LowerError::unsupported(span, format!("`{name}` on memory of this type"))
        })?;
        if !n.is_multiple_of(size) {
            return Err(LowerError::unsupported(
                span,
                format!("`{name}` of {n} bytes, not a whole number of {size}-byte elements"),
            ));
        }
        let cells = n / size * self.types.cells(t);
        if cells > MAX_CELLS {
            return Err(LowerError::unsupported(
                span,
                format!("`{name}` of more than {MAX_CELLS} cells"),
            ));
        }
        Ok(cells)
    }

    /// `memcpy(d, s, n)`: cell by cell, each read and each write a step.
    fn memcpy(&mut self, dst: &Region, src: &Source, n: u64, name: &str, span: Span) -> Result<()> {
        let cells = self.byte_cells(&dst.elem, n, name, span)?;
        self.overlap_check(dst, src, cells, name, span);
        let from = format!("`{name}` reads beyond the end of its source");
        let to = format!("`{name}` writes beyond the end of the object");
        let unions = |r: &Region| super::unions::contains_union(&self.types, &r.elem);
        if unions(dst) || matches!(src, Source::Memory(s) if unions(s)) {
            // Whole elements, with their unions' tags.
            let (Source::Memory(s), elem) = (src, &dst.elem) else {
                return Err(LowerError::unsupported(
                    span,
                    format!("`{name}` of a string literal into a union is not modelled"),
                ));
            };
            if s.elem != *elem {
                return Err(LowerError::unsupported(
                    span,
                    format!("`{name}` between a union and memory of another type is not modelled"),
                ));
            }
            let esz = self.types.cells(elem);
            for j in 0..cells / esz {
                let whole = |p: super::expr::Place| super::expr::Place {
                    ty: elem.clone(),
                    ..p
                };
                let d = whole(self.region_cell(dst, j * esz, &to));
                let from = whole(self.region_cell(s, j * esz, &from));
                self.copy_struct(d, from, span)?;
            }
            return Ok(());
        }
        for i in 0..cells {
            let v = self.read_cell(src, i, &from, span)?;
            let p = self.region_cell(dst, i, &to);
            if !matches!(p.ty, CType::Int(_) | CType::Ptr(_) | CType::Float(_)) {
                return Err(LowerError::unsupported(
                    span,
                    format!("`{name}` of a pthread object is not modelled"),
                ));
            }
            self.store(p, v, span)?;
        }
        Ok(())
    }

    /// The longest scan of a source: its literal's length, or the largest
    /// room of its cases.
    fn scan_limit(&self, s: &Source, name: &str, span: Span) -> Result<u64> {
        let n = match s {
            Source::Literal(chars) => chars.len() as u64,
            Source::Memory(r) => r.rooms.iter().copied().max().unwrap_or(0),
        };
        if n > MAX_CELLS {
            return Err(LowerError::unsupported(
                span,
                format!("`{name}` over more than {MAX_CELLS} characters"),
            ));
        }
        Ok(n)
    }

    /// `strcpy(d, s)` (`limit` none) or `strncpy(d, s, n)`: copies up to
    /// and including the first 0 (at most `n` cells), then (`strncpy`)
    /// pads with zeros up to `n`.
    fn strcpy(
        &mut self,
        dst: &Region,
        src: &Source,
        limit: Option<u64>,
        name: &str,
        span: Span,
    ) -> Result<()> {
        let from = format!("`{name}` reads beyond the end of its source (no terminating 0)");
        let to = format!("`{name}` writes beyond the end of the object");
        let overlap = format!("`{name}` between overlapping objects (undefined behaviour)");
        let n = match limit {
            Some(n) => {
                if n > MAX_CELLS {
                    return Err(LowerError::unsupported(
                        span,
                        format!("`{name}` of more than {MAX_CELLS} characters"),
                    ));
                }
                // The regions `strncpy` touches are at most `n` cells each.
                self.overlap_check(dst, src, n, name, span);
                n
            }
            None => self.scan_limit(src, name, span)? + 1,
        };
        if self.t.cur.is_none() {
            return Ok(());
        }
        let done = self.new_loc(Some(span));
        // Padding with zeros, from cell `j` on (`strncpy` only).
        let mut pads: Vec<Loc> = Vec::new();
        for i in 0..n {
            if limit.is_none() {
                // `|d - s| == i` with `i <= strlen(s)`: the regions overlap
                // (and every overlap is found at its `i`).
                self.overlap_step(dst, src, i, &overlap, span);
            }
            let v = self.read_cell(src, i, &from, span)?;
            let p = self.region_cell(dst, i, &to);
            self.store(p, v.clone(), span)?;
            let on_zero = |l: &mut Self| {
                if limit.is_some() && i + 1 < n {
                    let pad = l.new_loc(Some(span));
                    pads.push(pad);
                    pad
                } else {
                    if limit.is_some() {
                        pads.push(done);
                    }
                    done
                }
            };
            if !self.branch_on_zero(&v, on_zero, vec![], span) {
                break;
            }
        }
        if limit.is_none() {
            // Past the longest room: no terminating 0 was found.
            if let Some(cur) = self.t.cur.take() {
                self.give_up_edge(cur, Cond::True, &from, span);
            }
        } else {
            self.goto(done);
        }
        // The padding chains: after a 0 at cell `i`, cells `i+1 .. n` get 0.
        for (k, &l) in pads.iter().enumerate() {
            if l == done {
                continue;
            }
            self.t.cur = Some(l);
            for j in (k as u64 + 1)..n {
                let p = self.region_cell(dst, j, &to);
                self.store(p, Val::int(0), span)?;
            }
            self.goto(done);
        }
        self.t.cur = Some(done);
        Ok(())
    }

    /// Gives up where `|d - s| == i` (a local step on the two pointers).
    fn overlap_step(&mut self, dst: &Region, src: &Source, i: u64, reason: &str, span: Span) {
        let Source::Memory(s) = src else { return };
        let (Some(d), Some(sp)) = (dst.ptr.single(), s.ptr.single()) else {
            return;
        };
        let Some(cur) = self.t.cur else { return };
        let diff = sub(d, sp);
        let hit = or(
            cmp(CmpOp::Eq, diff.clone(), Term::Const(i as i64)),
            cmp(CmpOp::Eq, diff, Term::Const(-(i as i64))),
        );
        if hit == Cond::False {
            return;
        }
        let next = self.new_loc(Some(span));
        self.give_up_edge(cur, hit.clone(), reason, span);
        self.plain_edge(cur, next, not(hit), vec![], Some(span));
        self.flush();
        self.t.cur = Some(next);
    }

    /// `strlen(s)`: the index of the first 0.
    /// Ends one step of a scan at cell value `v`: from the current
    /// location to `on_zero(self)` (with `assigns`) when `v` is 0, to a
    /// fresh location — the next step's — when it is not, and to give-ups
    /// for its undefined cases. Returns whether the scan goes on (the
    /// non-zero branch is feasible; false without a current location).
    fn branch_on_zero(
        &mut self,
        v: &Val,
        on_zero: impl FnOnce(&mut Self) -> Loc,
        assigns: Vec<(VarId, Term)>,
        span: Span,
    ) -> bool {
        let (nz, z, ub) = self.truth(v);
        let Some(cur) = self.t.cur.take() else {
            return false;
        };
        let next = self.new_loc(Some(span));
        let after_zero = on_zero(self);
        self.plain_edge(cur, after_zero, z, assigns, Some(span));
        let more = nz != Cond::False;
        self.plain_edge(cur, next, nz, vec![], Some(span));
        for (c, r) in ub {
            self.give_up_edge(cur, c, &r, span);
        }
        self.flush();
        self.t.cur = more.then_some(next);
        more
    }

    fn strlen(&mut self, src: &Source, name: &str, span: Span) -> Result<Val> {
        let size_t = CType::Int(self.types.long(false));
        if let Source::Literal(chars) = src {
            let len = chars.iter().position(|&c| c == 0).unwrap_or(0);
            return Ok(Val::term(Term::Const(len as i64), size_t));
        }
        let from = format!("`{name}` reads beyond the end of the object (no terminating 0)");
        let n = self.scan_limit(src, name, span)?;
        let len = self.temp(&size_t);
        if self.t.cur.is_none() {
            return Ok(Val::term(Term::Var(len), size_t));
        }
        let done = self.new_loc(Some(span));
        for i in 0..=n {
            let v = self.read_cell(src, i, &from, span)?;
            let length = vec![(len, Term::Const(i as i64))];
            if !self.branch_on_zero(&v, |_| done, length, span) {
                break;
            }
        }
        if let Some(cur) = self.t.cur.take() {
            self.give_up_edge(cur, Cond::True, &from, span);
        }
        self.t.cur = Some(done);
        Ok(Val::term(Term::Var(len), size_t))
    }

    /// `strcmp(a, b)`: compares as `unsigned char` up to the first
    /// difference or common 0. C fixes only the result's sign, so the
    /// result is any `int` of that sign.
    fn strcmp(&mut self, a: &Source, b: &Source, name: &str, span: Span) -> Result<Val> {
        let from = format!("`{name}` reads beyond the end of the object (no terminating 0)");
        let n = self
            .scan_limit(a, name, span)?
            .min(self.scan_limit(b, name, span)?);
        let int = CType::Int(IntTy::INT);
        let res = self.temp(&int);
        if self.t.cur.is_none() {
            return Ok(Val::term(Term::Var(res), int));
        }
        let done = self.new_loc(Some(span));
        for i in 0..=n {
            let x = self.read_cell(a, i, &from, span)?;
            let x = self.convert(x, &CType::Int(UCHAR), span)?;
            let x = self.materialize(x, span)?;
            let y = self.read_cell(b, i, &from, span)?;
            let y = self.convert(y, &CType::Int(UCHAR), span)?;
            let y = self.materialize(y, span)?;
            let Some(cur) = self.t.cur.take() else { break };
            let next = self.new_loc(Some(span));
            self.compare_step(cur, next, done, res, &x, &y, span);
            self.t.cur = Some(next);
        }
        if let Some(cur) = self.t.cur.take() {
            self.give_up_edge(cur, Cond::True, &from, span);
        }
        self.t.cur = Some(done);
        Ok(Val::term(Term::Var(res), int))
    }

    /// One position of `strcmp`: to `done` with a result of the sign of
    /// `x - y` when they differ, with 0 when both are 0; else to `next`.
    #[allow(clippy::too_many_arguments)]
    fn compare_step(
        &mut self,
        cur: Loc,
        next: Loc,
        done: Loc,
        res: VarId,
        x: &Val,
        y: &Val,
        span: Span,
    ) {
        for (cx, rx) in &x.cases {
            for (cy, ry) in &y.cases {
                let c = and(cx.clone(), cy.clone());
                let (tx, ty) = match (rx, ry) {
                    (Res::Ub(u), _) | (_, Res::Ub(u)) => {
                        self.give_up_edge(cur, c, u, span);
                        continue;
                    }
                    (Res::Val(tx), Res::Val(ty)) => (tx.clone(), ty.clone()),
                };
                let diff = sub(tx.clone(), ty.clone());
                let r = Term::Var(res);
                // The sign's value: a local input, constrained per branch.
                self.t.pending_havoc.push(res);
                let lt = and(c.clone(), cmp(CmpOp::Lt, diff.clone(), Term::Const(0)));
                let gt = and(c.clone(), cmp(CmpOp::Gt, diff.clone(), Term::Const(0)));
                let eq = and(c.clone(), cmp(CmpOp::Eq, diff, Term::Const(0)));
                let zero = cmp(CmpOp::Eq, tx, Term::Const(0));
                let int = IntTy::INT;
                self.plain_edge(
                    cur,
                    done,
                    and(lt, within(&r, int.min(), -1)),
                    vec![],
                    Some(span),
                );
                self.plain_edge(
                    cur,
                    done,
                    and(gt, within(&r, 1, int.max())),
                    vec![],
                    Some(span),
                );
                self.plain_edge(
                    cur,
                    done,
                    and(
                        and(eq.clone(), zero.clone()),
                        cmp(CmpOp::Eq, r, Term::Const(0)),
                    ),
                    vec![],
                    Some(span),
                );
                self.plain_edge(cur, next, and(eq, not(zero)), vec![], Some(span));
                self.flush();
            }
        }
        self.flush();
    }
}

/// The term of a single-case value.
/// The string literal an argument is (through casts).
fn literal(e: &Node<Expression>) -> Option<&StringLiteral> {
    match &e.node {
        Expression::StringLiteral(s) => Some(&s.node),
        Expression::Cast(c) => literal(&c.node.expression),
        _ => None,
    }
}

/// `e` without its casts to `void *` (and `const void *`), which keep the
/// address and hide the pointee type.
fn strip_void_casts<'e>(
    l: &mut Lowerer<'_>,
    e: &'e Node<Expression>,
) -> Result<&'e Node<Expression>> {
    let mut e = e;
    while let Expression::Cast(c) = &e.node {
        match l.type_name(&c.node.type_name)? {
            CType::Ptr(p) if *p == CType::Void => e = &c.node.expression,
            _ => break,
        }
    }
    Ok(e)
}

/// The pointee type of a pointer or array type (`None` for `void *`).
fn pointee(t: &CType) -> Option<CType> {
    match t {
        CType::Ptr(p) | CType::Array(p, _) if !matches!(**p, CType::Void | CType::Func) => {
            Some((**p).clone())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::StructDef;

    fn lit(pieces: &[&str]) -> Option<Vec<i64>> {
        literal_chars(&pieces.iter().map(|p| p.to_string()).collect())
    }

    #[test]
    fn literals_with_escapes_and_pieces() {
        assert_eq!(lit(&["\"ab\""]), Some(vec![97, 98, 0]));
        assert_eq!(lit(&["\"a\"", "\"b\""]), Some(vec![97, 98, 0]));
        assert_eq!(lit(&["\"\\n\\t\\\\\\\"\""]), Some(vec![10, 9, 92, 34, 0]));
        // Octal escapes take at most three digits; hex escapes any number.
        assert_eq!(lit(&["\"\\0\\101\\1012\""]), Some(vec![0, 65, 65, 50, 0]));
        assert_eq!(lit(&["\"\\x41\\xff\""]), Some(vec![65, -1, 0]));
        assert_eq!(lit(&["u8\"a\""]), Some(vec![97, 0]));
        // Wide literals and values beyond a byte are not modelled.
        assert_eq!(lit(&["L\"a\""]), None);
        assert_eq!(lit(&["\"\\x100\""]), None);
        assert_eq!(lit(&["\"\\q\""]), None);
        // UTF-8 text is its bytes, as signed chars.
        assert_eq!(lit(&["\"é\""]), Some(vec![-61, -87, 0]));
    }

    #[test]
    fn room_counts_elements_of_one_array() {
        let mut types = Types::new(frontend::DataModel::Ilp32);
        let char_t = CType::Int(IntTy::CHAR);
        let int_t = CType::Int(IntTy::INT);
        let buf = CType::Array(Box::new(char_t.clone()), 8);
        assert_eq!(room(&types, &buf, 0, &char_t), 8);
        assert_eq!(room(&types, &buf, 5, &char_t), 3);
        assert_eq!(room(&types, &buf, 0, &int_t), 0);
        assert_eq!(room(&types, &buf, 0, &buf), 1);
        // A lone scalar: one element.
        assert_eq!(room(&types, &int_t, 0, &int_t), 1);
        // unsigned and signed char cells are interchangeable.
        let uchar = CType::Int(UCHAR);
        assert_eq!(room(&types, &buf, 2, &uchar), 6);
        // Rows of a two-dimensional array: a row pointer sees the rows, a
        // cell pointer only its own row.
        let rows = CType::Array(Box::new(CType::Array(Box::new(int_t.clone()), 3)), 2);
        assert_eq!(room(&types, &rows, 0, &int_t), 3);
        assert_eq!(room(&types, &rows, 4, &int_t), 2);
        let row = CType::Array(Box::new(int_t.clone()), 3);
        assert_eq!(room(&types, &rows, 3, &row), 1);
        assert_eq!(room(&types, &rows, 0, &row), 2);
        // A struct { int x; char s[4]; int y; }: the array field only.
        types.structs.push(StructDef {
            fields: vec![
                ("x".into(), int_t.clone(), 0),
                ("s".into(), CType::Array(Box::new(char_t.clone()), 4), 1),
                ("y".into(), int_t.clone(), 5),
            ],
            cells: 6,
            ..Default::default()
        });
        let s = CType::Struct(types.structs.len() - 1);
        assert_eq!(room(&types, &s, 0, &s), 1);
        assert_eq!(room(&types, &s, 0, &int_t), 1);
        assert_eq!(room(&types, &s, 2, &char_t), 3);
        assert_eq!(room(&types, &s, 5, &int_t), 1);
        assert_eq!(room(&types, &s, 1, &int_t), 0);
    }
}
