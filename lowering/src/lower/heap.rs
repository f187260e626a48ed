//! The heap: `malloc`, `calloc`, `alloca` and `free`.
//!
//! Each allocation site (a call as the lowering meets it: per inlined call
//! and thread instance) owns a budget of [`crate::Options::heap_budget`]
//! objects of the allocated type (one outside loops), made in advance
//! with addresses of their own, and a counter of the objects it has handed out: the `k`-th
//! execution of the site returns object `k` (a fresh address, never
//! reused) and the execution past the budget gives up. Every heap object
//! has a liveness flag: allocation sets it, `free` clears it, and a
//! dereference of a heap object whose flag is clear (freed, or not yet
//! allocated) gives up, as do a double free and the free of a pointer that
//! is not the start of a heap object.

use engine::ir::{CmpOp, Cond, Term, VarId};
use frontend::lang_c::ast::{BinaryOperator as B, Expression};
use frontend::lang_c::span::{Node, Span};

use super::expr::{Place, Res, Target, Val};
use super::{Lowerer, ObjId, Ub};
use crate::error::{LowerError, Result};
use crate::term::{and, any, cmp, not, within, Range};
use crate::types::{CType, IntTy};
use crate::Violation;

/// Whether `e` is `sizeof(T)` or `sizeof e`.
pub(super) fn is_sizeof(e: &Node<Expression>) -> bool {
    matches!(e.node, Expression::SizeOfTy(_) | Expression::SizeOfVal(_))
}

/// `sizeof(T) * n` or `n * sizeof(T)`: the `sizeof` and `n`.
pub(super) fn sizeof_times(
    size: &Node<Expression>,
) -> Option<(&Node<Expression>, &Node<Expression>)> {
    let Expression::BinaryOperator(b) = &size.node else {
        return None;
    };
    if b.node.operator.node != B::Multiply {
        return None;
    }
    if is_sizeof(&b.node.lhs) {
        Some((&b.node.lhs, &b.node.rhs))
    } else if is_sizeof(&b.node.rhs) {
        Some((&b.node.rhs, &b.node.lhs))
    } else {
        None
    }
}

/// What an allocation function does with the new object's contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Contents {
    /// Any value of their types (`malloc`, `alloca`).
    Any,
    /// Zero (`calloc`).
    Zero,
}

impl Lowerer<'_> {
    /// Lowers a call of a heap function; `None` when `name` is not one.
    pub(crate) fn heap_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        let arg = |i: usize| -> Result<&Node<Expression>> {
            args.get(i)
                .ok_or_else(|| LowerError::invalid(span, format!("`{name}` needs more arguments")))
        };
        Ok(Some(match name {
            "malloc" => self.allocate_size(name, arg(0)?, Contents::Any, span)?,
            // CBMC's allocation primitive: `zero` says whether the block
            // is zeroed.
            "__CPROVER_allocate" => {
                let contents = match self.const_value(arg(1)?) {
                    Ok(0) => Contents::Any,
                    Ok(_) => Contents::Zero,
                    Err(_) => {
                        return Err(LowerError::unsupported(
                            span,
                            "`__CPROVER_allocate` whose `zero` argument is not a constant",
                        ))
                    }
                };
                self.allocate_size(name, arg(0)?, contents, span)?
            }
            "alloca" | "__builtin_alloca" => {
                let ty = self.allocated_type(arg(0)?, None)?;
                self.allocate(name, ty, Contents::Any, None, span)?
            }
            "calloc" => match self.const_value(arg(0)?) {
                Ok(n) => match self.allocated_type(arg(1)?, Some(n)) {
                    Ok(ty) => self.allocate(name, ty, Contents::Zero, None, span)?,
                    Err(refused) => {
                        let bytes = self.calloc_bytes(arg(0)?, arg(1)?, span)?;
                        self.allocate_untyped(name, bytes, Contents::Zero, span, refused)?
                    }
                },
                // A count known at run time only: as `malloc`'s.
                Err(_) => {
                    let refused = LowerError::unsupported(
                        span,
                        "`calloc` with a count that is not a constant and a size that is not \
                         `sizeof(T)` is not modelled",
                    );
                    if !is_sizeof(arg(1)?) {
                        // No `sizeof`: `count * size` bytes, typed by the
                        // store of the result (as `malloc`'s).
                        let bytes = self.calloc_bytes(arg(0)?, arg(1)?, span)?;
                        return Ok(Some(self.allocate_untyped(
                            name,
                            bytes,
                            Contents::Zero,
                            span,
                            refused,
                        )?));
                    }
                    let elem = self.sizeof_type(arg(1)?)?;
                    let Some(n) = self.runtime_length(arg(0)?, span)? else {
                        return Err(refused);
                    };
                    let ty = self.runtime_array(elem);
                    self.allocate(name, ty, Contents::Zero, Some(n), span)?
                }
            },
            "realloc" => self.realloc(arg(0)?, arg(1)?, span)?,
            "free" if self.buffer_free(arg(0)?, span)? => Val::term(Term::Const(0), CType::Void),
            "free" if self.handle_free(arg(0)?, span)? => Val::term(Term::Const(0), CType::Void),
            "free" => {
                let v = self.eval(arg(0)?)?;
                self.free(v, span)?;
                Val::term(Term::Const(0), CType::Void)
            }
            _ => return Ok(None),
        }))
    }

    /// `realloc(p, size)`: where `p` is null, `malloc(size)`; else a new
    /// block of `size` bytes (as `malloc`'s, which may fail: then `p`
    /// stays allocated), the elements both blocks have copied from `p`'s
    /// block, and `p`'s block freed. A size of 0 (whose result C leaves to
    /// the implementation) and blocks of types without a common part give
    /// up; a pointer that is not the start of a heap block is an invalid
    /// free.
    fn realloc(
        &mut self,
        old: &Node<Expression>,
        size: &Node<Expression>,
        span: Span,
    ) -> Result<Val> {
        if self.const_value(size).ok() == Some(0) {
            return Err(LowerError::unsupported(span, "`realloc` to 0 bytes"));
        }
        if self.const_value(old).ok() == Some(0) {
            return self.allocate_size("realloc", size, Contents::Any, span);
        }
        let p = self.eval(old)?;
        let p = self.materialize(p, span)?;
        let new = self.allocate_size("realloc", size, Contents::Any, span)?;
        // The first lowering only follows a new block of unknown type to
        // the place that gives it its type (`allocate_untyped`).
        if self.probing && self.untyped_site_of(&new).is_some() {
            return Ok(new);
        }
        let new = self.materialize(new, span)?;
        let (Some(pt), Some(nt), CType::Ptr(elem)) = (p.single(), new.single(), &p.ty) else {
            return Err(LowerError::unsupported(span, "`realloc` of this pointer"));
        };
        let elem = match &**elem {
            CType::Void => CType::Int(IntTy::CHAR),
            t => t.clone(),
        };
        let src = self.deref(p.clone(), elem.clone(), span)?;
        let dst = self.deref(new.clone(), elem, span)?;
        let blocks = self
            .alloc_calls
            .get(&span.start)
            .cloned()
            .unwrap_or_default();
        let Some(new_ty) = blocks.first().map(|&o| self.objects[o].ty.clone()) else {
            return Err(LowerError::unsupported(span, "`realloc` to this size"));
        };
        // The old block's candidates, by the part they share with the new.
        let mut groups: Vec<(CType, Vec<Cond>)> = Vec::new();
        let mut others = Vec::new();
        // A block of run-time length (a tail) is not copied: not modelled.
        let mut tails = Vec::new();
        for (c, t) in &src.cases {
            if matches!(t, Target::Tail { .. }) {
                tails.push(c.clone());
                continue;
            }
            let common = match t {
                Target::Cell(o, 0) if self.heap.contains_key(o) => {
                    common_part(&self.objects[*o].ty, &new_ty)
                }
                _ => None,
            };
            let Some(ty) = common else {
                others.push(c.clone());
                continue;
            };
            match groups.iter_mut().find(|g| g.0 == ty) {
                Some(g) => g.1.push(c.clone()),
                None => groups.push((ty, vec![c.clone()])),
            }
        }
        let moving = and(
            cmp(CmpOp::Ne, pt, Term::Const(0)),
            cmp(CmpOp::Ne, nt, Term::Const(0)),
        );
        let (freeing, done) = (self.new_loc(Some(span)), self.new_loc(Some(span)));
        let Some(cur) = self.t.cur.take() else {
            self.flush();
            return Ok(new);
        };
        self.plain_edge(cur, done, not(moving.clone()), vec![], Some(span));
        self.give_up_edge(
            cur,
            and(moving.clone(), any(tails)),
            "`realloc` of an array of run-time length",
            span,
        );
        self.give_up_edge(
            cur,
            and(moving.clone(), any(others)),
            Ub::violates(
                Violation::Free,
                "`realloc` of a pointer that is not the start of a heap block, or of a block \
                 of another type",
            ),
            span,
        );
        for (ty, conds) in groups {
            let copy = self.new_loc(Some(span));
            self.plain_edge(
                cur,
                copy,
                and(moving.clone(), any(conds.clone())),
                vec![],
                Some(span),
            );
            self.flush();
            self.t.cur = Some(copy);
            let from = Place {
                cases: src
                    .cases
                    .iter()
                    .filter(|(c, _)| conds.contains(c))
                    .cloned()
                    .collect(),
                ty: ty.clone(),
            };
            let to = Place {
                cases: blocks_of(&dst, &blocks),
                ty,
            };
            self.copy_struct(to, from, span)?;
            if let Some(end) = self.t.cur.take() {
                self.plain_edge(end, freeing, Cond::True, vec![], Some(span));
            }
        }
        self.flush();
        self.t.cur = Some(freeing);
        self.free(p, span)?;
        if let Some(end) = self.t.cur.take() {
            self.plain_edge(end, done, Cond::True, vec![], Some(span));
        }
        self.flush();
        self.t.cur = Some(done);
        Ok(new)
    }

    /// A block of `size` bytes (`malloc`'s argument) with `contents`.
    fn allocate_size(
        &mut self,
        name: &str,
        size: &Node<Expression>,
        contents: Contents,
        span: Span,
    ) -> Result<Val> {
        match self.allocated_type(size, None) {
            Ok(ty) => self.allocate(name, ty, contents, None, span),
            // `n * sizeof(T)` with `n` known at run time only: an array of
            // the capacity, with its length.
            Err(refused) => match self.runtime_count(size)? {
                Some((elem, n)) => {
                    let Some(n) = self.runtime_length(n, span)? else {
                        return Err(refused);
                    };
                    let ty = self.runtime_array(elem);
                    self.allocate(name, ty, contents, Some(n), span)
                }
                None => {
                    let bytes = self.runtime_length(size, span)?;
                    self.allocate_untyped(name, bytes, contents, span, refused)
                }
            },
        }
    }

    /// An allocation whose size (in bytes) has no `sizeof` in sight: its
    /// element type is the type its result is first stored as (a `T *`),
    /// which the first lowering finds ([`Lowerer::note_untyped_store`]),
    /// and it holds `size / sizeof(T)` elements (the whole ones). The
    /// first lowering allocates bytes; without a type found the second
    /// gives up where reached.
    fn allocate_untyped(
        &mut self,
        name: &str,
        bytes: Option<Term>,
        contents: Contents,
        span: Span,
        refused: LowerError,
    ) -> Result<Val> {
        let site = self.sites_met;
        let elem = match self.untyped_types.get(&site) {
            Some(t) => t.clone(),
            None if self.probing => CType::Int(IntTy::CHAR),
            None => {
                // Keep the sites of both lowerings in step.
                self.sites_met += 1;
                return Err(refused);
            }
        };
        let esz = self
            .types
            .size_of(&elem)
            .filter(|&b| b > 0)
            .ok_or_else(|| {
                LowerError::unsupported(span, "an allocation of elements of unknown size")
            })?;
        let Some(bytes) = bytes else {
            self.sites_met += 1;
            return Err(refused);
        };
        // n = bytes / esz as a linear constraint on a fresh value (no
        // division for the engines that reason linearly).
        let n = self.havoc_temp(&CType::Int(IntTy::LLONG));
        let esz = esz as i64;
        let scaled = Term::Mul(esz, Box::new(Term::Var(n)));
        self.t.pending_guard.push(and(
            cmp(CmpOp::Le, scaled.clone(), bytes.clone()),
            cmp(
                CmpOp::Lt,
                bytes,
                Term::Add(Box::new(scaled), Box::new(Term::Const(esz))),
            ),
        ));
        let n = Term::Var(n);
        let ty = self.runtime_array(elem);
        let v = self.allocate(name, ty, contents, Some(n), span)?;
        if self.probing {
            if let [(_, Res::Val(Term::Var(r)))] = v.cases.as_slice() {
                self.untyped_carriers.insert(*r, site);
            }
        }
        Ok(v)
    }

    /// `count * size` of a `calloc`, as one term (`None`: an operand has
    /// several cases).
    fn calloc_bytes(
        &mut self,
        count: &Node<Expression>,
        size: &Node<Expression>,
        span: Span,
    ) -> Result<Option<Term>> {
        let (Some(n), Some(s)) = (
            self.runtime_length(count, span)?,
            self.runtime_length(size, span)?,
        ) else {
            return Ok(None);
        };
        Ok(Some(match (&n, &s) {
            (Term::Const(k), t) | (t, Term::Const(k)) => Term::Mul(*k, Box::new(t.clone())),
            _ => Term::Nl(engine::ir::NlOp::Mul, Box::new(n), Box::new(s)),
        }))
    }

    /// In the first lowering, a store of a value that carries the result
    /// of an allocation of unknown type: the place carries it too, and a
    /// place of type `T *` (not `void *`) gives the allocation its type.
    pub(crate) fn note_untyped_store(&mut self, place: &Place, v: &Val) {
        let Some(site) = self.untyped_site_of(v) else {
            return;
        };
        for (_, t) in &place.cases {
            if let Target::Cell(o, off) = t {
                let cell = self.objects[*o].cells[*off as usize];
                self.untyped_carriers.insert(cell, site);
            }
        }
        if let CType::Ptr(t) = &place.ty {
            if !matches!(**t, CType::Void | CType::Func) {
                self.untyped_types
                    .entry(site)
                    .or_insert_with(|| (**t).clone());
            }
        }
    }

    /// In the first lowering, a copy into a temporary of a value that
    /// carries the result of an allocation of unknown type.
    pub(crate) fn note_untyped_copy(&mut self, tmp: VarId, v: &Val) {
        if let Some(site) = self.untyped_site_of(v) {
            self.untyped_carriers.insert(tmp, site);
        }
    }

    /// The allocation site of unknown type whose result `v` carries.
    fn untyped_site_of(&self, v: &Val) -> Option<usize> {
        v.cases.iter().find_map(|(_, r)| match r {
            Res::Val(Term::Var(x)) => self.untyped_carriers.get(x).copied(),
            _ => None,
        })
    }

    /// After the first lowering: the allocation sites of unknown type get
    /// the type found for them (the second lowering makes their objects).
    pub(crate) fn settle_untyped(&mut self) {
        let found: Vec<(usize, CType)> = self
            .untyped_types
            .iter()
            .map(|(&site, t)| (site, self.runtime_array(t.clone())))
            .collect();
        for (site, ty) in found {
            if let Some(entry) = self.heap_sites.get_mut(site) {
                entry.1 = ty;
            }
        }
    }

    /// The type of the object `sizeof(T)`, `n * sizeof(T)` or
    /// `sizeof(T) * n` (a constant `n`) allocates, times `count`.
    fn allocated_type(&mut self, size: &Node<Expression>, count: Option<i128>) -> Result<CType> {
        let unsupported = || {
            LowerError::unsupported(
                size.span,
                "allocation size is not `sizeof(T)` or `n * sizeof(T)` with a constant `n`",
            )
        };
        let (elem, n) = match &size.node {
            Expression::SizeOfTy(s) => (self.type_name(&s.node.0)?, 1),
            Expression::SizeOfVal(_) => (self.sizeof_type(size)?, 1),
            _ if sizeof_times(size).is_some() => {
                let (t, k) = sizeof_times(size).ok_or_else(unsupported)?;
                let n = self.const_value(k).map_err(|_| unsupported())?;
                (self.sizeof_type(t)?, n)
            }
            _ => return Err(unsupported()),
        };
        let n = n * count.unwrap_or(1);
        if n <= 0 {
            return Err(LowerError::unsupported(
                size.span,
                "allocation of zero or a negative number of objects",
            ));
        }
        Ok(if n == 1 {
            elem
        } else {
            CType::Array(Box::new(elem), n as u64)
        })
    }

    /// `n * sizeof(T)` or `sizeof(T) * n` with `n` not a constant: `T`
    /// and `n`.
    fn runtime_count<'e>(
        &mut self,
        size: &'e Node<Expression>,
    ) -> Result<Option<(CType, &'e Node<Expression>)>> {
        let Some((t, n)) = sizeof_times(size) else {
            return Ok(None);
        };
        if self.const_value(n).is_ok() {
            return Ok(None);
        }
        Ok(Some((self.sizeof_type(t)?, n)))
    }

    /// The object type of an array of run-time length: a tail is one
    /// tracked element (`tails`), other arrays have the capacity.
    fn runtime_array(&self, elem: CType) -> CType {
        let cells = if self.tail_capable(&elem) {
            1
        } else {
            crate::types::VLA_CAPACITY
        };
        CType::Array(Box::new(elem), cells)
    }

    /// The value of a run-time element count, as one term (`None`: it has
    /// several cases).
    pub(super) fn runtime_length(
        &mut self,
        n: &Node<Expression>,
        span: Span,
    ) -> Result<Option<Term>> {
        let n = self.eval(n)?;
        let n = self.convert(n, &CType::Int(IntTy::LLONG), span)?;
        let n = self.materialize(n, span)?;
        Ok(match n.cases.as_slice() {
            [(Cond::True, Res::Val(n))] => Some(n.clone()),
            _ => None,
        })
    }

    /// The `T` of `sizeof(T)` or `sizeof e`.
    pub(super) fn sizeof_type(&mut self, e: &Node<Expression>) -> Result<CType> {
        match &e.node {
            Expression::SizeOfTy(s) => self.type_name(&s.node.0),
            Expression::SizeOfVal(s) => self.static_type(&s.node.0),
            _ => Err(LowerError::unsupported(e.span, "not a `sizeof`")),
        }
    }

    /// One allocation site: its objects, counter and liveness flags, and
    /// the edges that hand out the next object.
    fn allocate(
        &mut self,
        func: &str,
        ty: CType,
        contents: Contents,
        length: Option<Term>,
        span: Span,
    ) -> Result<Val> {
        // A site outside loops runs once (past that: the give-up below, as
        // for a site in a loop built with `goto`).
        let budget = if self.t.loops > 0 {
            self.heap_budget
        } else {
            1
        };
        let thread = self.threads[self.t.index].name.clone();
        let site = self.unique(&format!("{thread}.{func}"));
        if length.is_some() {
            self.heap_lengths.insert(site.clone());
        }
        let objs = match self.heap_sites.get(self.sites_met) {
            Some((name, t, objs)) if *name == site && *t == ty => objs.clone(),
            Some(_) => {
                return Err(LowerError::unsupported(
                    span,
                    "internal: the allocation sites differ between the two lowerings",
                ))
            }
            None => {
                let objs = self.site_objects(&site, &ty, budget, span)?;
                self.heap_sites
                    .push((site.clone(), ty.clone(), objs.clone()));
                objs
            }
        };
        self.sites_met += 1;
        self.alloc_calls.insert(span.start, objs.clone());
        let at = match self.unit.origins.locate(span.start) {
            // The file's name alone, as users say it (`pool.c:87`).
            Some(l) => {
                let file = l.file.file_name().map_or(l.file.as_os_str(), |f| f);
                format!(" at {}:{}", file.to_string_lossy(), l.line)
            }
            None => String::new(),
        };
        for (i, &o) in objs.iter().enumerate() {
            let nth = if objs.len() > 1 {
                format!(" (block {})", i + 1)
            } else {
                String::new()
            };
            self.blocks
                .entry(o)
                .or_insert_with(|| format!("the block `{func}`'d{at}{nth}"));
        }
        let count = self.var(
            format!("{site}.count"),
            Some(0),
            Range::new(0, budget as i128),
        );
        let ptr = CType::Ptr(Box::new(ty.clone()));
        let result = self.temp(&ptr);
        // The contents of `malloc`: one havocked temporary per cell, copied
        // into the object handed out.
        let ncells = self.types.cells(&ty) as usize;
        let mut fill: Vec<Term> = vec![Term::Const(0); ncells];
        if contents == Contents::Any {
            let mut scalars = Vec::new();
            self.types.flatten(&ty, &mut scalars);
            for (j, s) in scalars.iter().enumerate() {
                fill[j] = Term::Var(self.havoc_temp(s));
            }
            // Unions' tags: 0, every member as indeterminate as the bytes.
            let mut tags = Vec::new();
            super::unions::tags(&self.types, &ty, 0, &mut tags);
            for t in tags {
                fill[t as usize] = Term::Const(0);
            }
        }
        // `--malloc-may-fail`: a havocked bit chooses failure (NULL).
        let fails = if self.malloc_may_fail && func != "alloca" && func != "__builtin_alloca" {
            let b = self.temp(&CType::Int(crate::types::IntTy::BOOL));
            self.t.pending_havoc.push(b);
            self.t.pending_guard.push(within(&Term::Var(b), 0, 1));
            Some(b)
        } else {
            None
        };
        // A tail: its tracked index, havocked.
        let tracked = match objs.first() {
            Some(o) if self.tails.contains_key(o) => {
                let index = self.temp(&CType::Int(IntTy::LLONG));
                self.t.pending_havoc.push(index);
                Some(index)
            }
            _ => None,
        };
        let Some(cur) = self.t.cur else {
            self.flush();
            return Ok(Val::term(Term::Var(result), ptr));
        };
        let next = self.new_loc(Some(span));
        let mut ok = fails.map_or(Cond::True, |b| cmp(CmpOp::Eq, Term::Var(b), Term::Const(0)));
        // A run-time length: within [0, capacity] (a tail: [0, tail
        // space)), else give up. An allocation of no element hands out a
        // block that every access lies past (glibc's `malloc(0)`).
        if let Some(n) = &length {
            let (most, reason) = match (&tracked, &ty) {
                (Some(_), CType::Array(e, _)) => {
                    let most = self.tail_max_length(e);
                    (
                        most,
                        format!(
                            "an allocation of a negative count or of more than {most} elements \
                             (the most an allocation of run-time size may hold)"
                        ),
                    )
                }
                _ => {
                    let capacity = crate::types::VLA_CAPACITY as i64;
                    let why = if self.tails_enabled {
                        "of elements other than integers, pointers, and structs or arrays of them"
                    } else {
                        "with `--no-heap-tails`"
                    };
                    (
                    capacity,
                    format!(
                        "an allocation of a negative count or of more than {capacity} elements (the \
                         capacity of an allocation of run-time size {why})"
                    ),
                )
                }
            };
            let fits = within(n, 0, i128::from(most));
            self.give_up_edge(cur, and(ok.clone(), not(fits.clone())), &reason, span);
            ok = and(ok, fits);
        }
        if let Some(b) = fails {
            let failed = cmp(CmpOp::Eq, Term::Var(b), Term::Const(1));
            self.plain_edge(
                cur,
                next,
                failed,
                vec![(result, Term::Const(0))],
                Some(span),
            );
        }
        for (i, &o) in objs.iter().enumerate() {
            self.set_array_contents(o, contents != Contents::Any);
            let mut assigns: Vec<(VarId, Term)> = vec![
                (count, Term::Const(i as i64 + 1)),
                (self.heap[&o], Term::Const(1)),
                (result, Term::Const(self.objects[o].base)),
            ];
            for (j, c) in self.objects[o].cells.clone().into_iter().enumerate() {
                assigns.push((c, fill[j].clone()));
            }
            if let (Some(n), Some(&(len, _))) = (&length, self.lengths.get(&o)) {
                assigns.push((len, n.clone()));
            }
            let mut g = and(
                ok.clone(),
                cmp(CmpOp::Eq, Term::Var(count), Term::Const(i as i64)),
            );
            if let (Some(index), Some(n)) = (tracked, &length) {
                let (within_tail, more) = self.tail_allocation(o, n, index);
                g = and(g, within_tail);
                assigns.extend(more);
            }
            self.plain_edge(cur, next, g, assigns, Some(span));
        }
        let over = and(
            ok,
            cmp(CmpOp::Eq, Term::Var(count), Term::Const(budget as i64)),
        );
        let reason = if budget == 1 && self.t.loops == 0 {
            format!("allocation site `{func}` outside loops ran twice (a loop made with `goto`)")
        } else {
            format!(
                "allocation site `{func}` ran more than {budget} times (the heap budget per \
                 site; raise it with --heap-budget)"
            )
        };
        self.give_up_edge(cur, over, &reason, span);
        self.flush();
        self.t.cur = Some(next);
        Ok(Val::term(Term::Var(result), ptr))
    }

    /// The objects of an allocation site, with their liveness flags.
    fn site_objects(
        &mut self,
        site: &str,
        ty: &CType,
        budget: usize,
        span: Span,
    ) -> Result<Vec<ObjId>> {
        let mut objs = Vec::new();
        for i in 0..budget {
            let name = format!("{site}.{i}");
            let o = self.object(&name, ty.clone(), Some(0), span)?;
            self.objects[o].owner = None;
            self.objects[o].addr_taken = true;
            let alive = self.var(format!("{name}.alive"), Some(0), Range::new(0, 1));
            self.heap.insert(o, alive);
            self.name_object(o, &format!("*{name}"), None, None);
            if self.heap_lengths.contains(site) {
                let CType::Array(elem, _) = ty else {
                    return Err(LowerError::unsupported(
                        span,
                        "internal: a run-time length without an array",
                    ));
                };
                if self.tail_capable(elem) {
                    self.make_tail(o, &name, span)?;
                } else {
                    let len = self.var(
                        format!("{name}.length"),
                        Some(0),
                        Range::new(0, i128::from(crate::types::VLA_CAPACITY as i64)),
                    );
                    let esz = self.types.cells(elem);
                    self.lengths.insert(o, (len, esz));
                }
            }
            objs.push(o);
        }
        Ok(objs)
    }

    /// Makes the objects of the allocation sites a first lowering found.
    pub(crate) fn preallocate(&mut self, sites: &[(String, CType, Vec<ObjId>)]) -> Result<()> {
        for (site, ty, objs) in sites {
            let objs = self.site_objects(site, ty, objs.len(), Span::none())?;
            self.heap_sites.push((site.clone(), ty.clone(), objs));
        }
        Ok(())
    }

    /// `free(p)`: clears the liveness flag of the heap object `p` points
    /// to; `free(NULL)` does nothing; anything else gives up.
    fn free(&mut self, v: Val, span: Span) -> Result<()> {
        let heap: Vec<(i64, VarId)> = self
            .heap
            .iter()
            .map(|(&o, &f)| (self.objects[o].base, f))
            .collect();
        let Some(cur) = self.t.cur else {
            self.flush();
            return Ok(());
        };
        let next = self.new_loc(Some(span));
        for (c, r) in v.cases {
            let t = match r {
                Res::Ub(u) => {
                    self.give_up_edge(cur, c, &u, span);
                    continue;
                }
                Res::Val(t) => t,
            };
            let null = cmp(CmpOp::Eq, t.clone(), Term::Const(0));
            self.plain_edge(cur, next, and(c.clone(), null.clone()), vec![], Some(span));
            let mut hit = vec![null];
            for &(base, flag) in &heap {
                let at = cmp(CmpOp::Eq, t.clone(), Term::Const(base));
                hit.push(at.clone());
                let live = cmp(CmpOp::Eq, Term::Var(flag), Term::Const(1));
                self.plain_edge(
                    cur,
                    next,
                    and(c.clone(), and(at.clone(), live.clone())),
                    vec![(flag, Term::Const(0))],
                    Some(span),
                );
                self.give_up_edge(
                    cur,
                    and(c.clone(), and(at, not(live))),
                    Ub::violates(
                        Violation::Free,
                        "double free (or free of heap memory not yet allocated)",
                    ),
                    span,
                );
            }
            self.give_up_edge(
                cur,
                and(c, not(any(hit))),
                Ub::violates(
                    Violation::Free,
                    "free of a pointer that is not the start of a heap object",
                ),
                span,
            );
        }
        self.flush();
        self.t.cur = Some(next);
        Ok(())
    }

    /// A heap object's name for users: its allocation call, else the
    /// name of its liveness flag without the suffix.
    pub(crate) fn block_name(&self, o: ObjId) -> String {
        if let Some(name) = self.blocks.get(&o) {
            return name.clone();
        }
        let flag = self
            .heap
            .get(&o)
            .map_or("", |v| self.vars[v.index()].name.as_str());
        format!("the heap block `{}`", flag.trim_end_matches(".alive"))
    }

    /// The liveness condition of a heap object (`None` for other objects).
    pub(crate) fn alive(&self, o: ObjId) -> Option<Cond> {
        self.heap
            .get(&o)
            .map(|f| cmp(CmpOp::Eq, Term::Var(*f), Term::Const(1)))
    }
}

/// The type of the part two blocks of types `x` and `y` have in common:
/// the whole when the types are equal, the shorter of two arrays of one
/// element type (or one element and an array of it); `None` otherwise.
fn common_part(x: &CType, y: &CType) -> Option<CType> {
    if x == y {
        return Some(x.clone());
    }
    let elements = |t: &CType| match t {
        CType::Array(e, n) => ((**e).clone(), *n),
        t => (t.clone(), 1),
    };
    let ((ex, nx), (ey, ny)) = (elements(x), elements(y));
    (ex == ey).then(|| match nx.min(ny) {
        1 => ex,
        n => CType::Array(Box::new(ex), n),
    })
}

/// The cases of a place (a fresh allocation's pointer dereferenced) that
/// start one of its `blocks`; the others, whose address conditions that
/// pointer never meets, give up.
fn blocks_of(p: &Place, blocks: &[ObjId]) -> Vec<(Cond, Target)> {
    p.cases
        .iter()
        .map(|(c, t)| match t {
            Target::Cell(o, 0) if blocks.contains(o) => (c.clone(), t.clone()),
            _ => (
                c.clone(),
                Target::Ub("`realloc` into another object".into()),
            ),
        })
        .collect()
}
