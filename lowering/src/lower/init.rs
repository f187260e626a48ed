//! Initializers (C11 6.7.9): the elements of a list in order, a
//! designator moving the position, nested lists for nested aggregates, a
//! string literal for a `char` array; the subobjects no initializer names
//! are zero. An initializer is walked into its *leaves*, one per scalar
//! cell it sets (a later one for the same cell wins, as in C); a global's
//! or `static`'s leaves must be constants (`const_initializer`), a local's
//! are evaluated in order and stored (`local_initializer`). Also the
//! length of an array declared `T a[] = ...` (`complete_array`), and
//! compound literals (`compound_literal`).

use engine::ir::{Cond, Term};
use frontend::lang_c::ast::{CompoundLiteral, Designator, Expression, Initializer};
use frontend::lang_c::span::{Node, Span};

use super::expr::{Place, Target, Val};
use super::{strings, wrap_const, Lowerer, ObjId};
use crate::error::{LowerError, Result};
use crate::types::CType;

/// What an initializer sets a scalar cell, or a struct's cells, to.
enum Leaf<'e> {
    /// A constant (a character of a string literal).
    Value(i128),
    /// An expression, converted to the cell's type (a struct value:
    /// copied).
    Expr(&'e Node<Expression>),
}

/// The element of an aggregate a list item initialises
/// ([`Lowerer::designated`]).
struct Designated {
    /// Its type and first cell (`None` past the end).
    element: Option<(CType, usize)>,
    /// Its position.
    index: usize,
    /// The designator names a member of it (an anonymous struct or union
    /// member), not it.
    descend: bool,
}

/// A leaf: the offset of its (first) cell in the object, its type, its
/// value.
type Leaves<'e> = Vec<(usize, CType, Leaf<'e>)>;

impl Lowerer<'_> {
    /// The cell values of a constant initializer (zero where absent),
    /// appended to `out`.
    pub(crate) fn const_initializer(
        &mut self,
        ty: &CType,
        init: &Node<Initializer>,
        out: &mut Vec<i128>,
    ) -> Result<()> {
        let start = out.len();
        let cells = self.types.cells(ty) as usize;
        out.resize(start + cells, 0);
        let mut leaves = Vec::new();
        self.leaves(ty, init, 0, cells, &mut leaves)?;
        for (off, t, leaf) in leaves {
            out[start + off] = match (leaf, &t) {
                (Leaf::Value(v), _) => v,
                // A floating-point cell holds the placeholder (`floats`).
                (Leaf::Expr(_), CType::Float(_)) => 0,
                (Leaf::Expr(e), CType::Int(i)) => wrap_const(self.const_value(e)?, *i),
                (Leaf::Expr(e), CType::Struct(_)) => {
                    return Err(LowerError::unsupported(
                        e.span,
                        "a struct value in the initializer of a global",
                    ))
                }
                (Leaf::Expr(e), _) => self.const_value(e)?,
            };
        }
        Ok(())
    }

    /// Initialises the local object `o` of type `ty`: the cells no leaf
    /// sets and the constant leaves in one step, then each other leaf
    /// evaluated and stored, in the initializer's order.
    pub(crate) fn local_initializer(
        &mut self,
        o: ObjId,
        ty: &CType,
        init: &Node<Initializer>,
        span: Span,
    ) -> Result<()> {
        let cells = self.types.cells(ty) as usize;
        let mut leaves = Vec::new();
        self.leaves(ty, init, 0, cells, &mut leaves)?;
        // In C's order each leaf sets its cells, and the last one for a
        // cell wins: zero for the cells no leaf sets and the constant
        // leaves no earlier evaluated leaf overlaps are one step, the
        // evaluated leaves (and the constants after them) follow in order.
        let mut values = vec![Some(0i128); cells];
        let mut later: Vec<(usize, CType, Leaf<'_>)> = Vec::new();
        for (off, t, leaf) in leaves {
            let constant = match &leaf {
                Leaf::Value(v) => Some(*v),
                Leaf::Expr(e) => match t {
                    CType::Int(i) => self.const_value(e).ok().map(|v| wrap_const(v, i)),
                    CType::Ptr(_) => self.const_value(e).ok(),
                    _ => None,
                },
            };
            let overlapped = later
                .iter()
                .any(|(o2, t2, _)| *o2 <= off && off < o2 + self.types.cells(t2) as usize);
            match constant {
                Some(v) if !overlapped => values[off] = Some(v),
                Some(v) => later.push((off, t, Leaf::Value(v))),
                None => later.push((off, t, leaf)),
            }
        }
        let assigns = self.objects[o]
            .cells
            .clone()
            .into_iter()
            .zip(values)
            .filter_map(|(c, v)| Some((c, Term::literal(v?).expect("a C value is a literal"))))
            .collect();
        self.advance(Cond::True, assigns, span);
        for (off, t, leaf) in later {
            let v = match leaf {
                Leaf::Value(v) => {
                    Val::term(Term::literal(v).expect("a C value is a literal"), t.clone())
                }
                Leaf::Expr(e) => {
                    self.set_split(&[e])?;
                    self.eval(e)?
                }
            };
            let place = Place {
                cases: vec![(Cond::True, Target::Cell(o, off as u64))],
                ty: t,
            };
            self.store(place, v, span)?;
        }
        Ok(())
    }

    /// A compound literal `(T){ ... }`: an object of the thread (one per
    /// literal and inlined call, initialised each time the literal is
    /// evaluated, as C's block-scope literal), whose place it is.
    pub(crate) fn compound_literal(
        &mut self,
        cl: &Node<CompoundLiteral>,
        span: Span,
    ) -> Result<Place> {
        let init = Node::new(Initializer::List(cl.node.initializer_list.clone()), span);
        let ty = self.type_name(&cl.node.type_name)?;
        let ty = self.complete_array(ty, Some(&init))?;
        let prefix = self.threads[self.t.index].name.clone();
        let name = self.unique(&format!("{prefix}.literal"));
        let o = self.object(&name, ty.clone(), Some(0), span)?;
        self.objects[o].addr_taken = true;
        self.literals_with_pointers |= !self.pointer_cells(o).is_empty();
        self.ensure_cur(span);
        self.local_initializer(o, &ty, &init, span)?;
        Ok(self.whole(o))
    }

    /// The leaves of `init`, an initializer of a subobject of type `ty`
    /// at cell `base` that has `len` cells, appended to `out`.
    fn leaves<'e>(
        &mut self,
        ty: &CType,
        init: &'e Node<Initializer>,
        base: usize,
        len: usize,
        out: &mut Leaves<'e>,
    ) -> Result<()> {
        match (&init.node, ty) {
            // `PTHREAD_MUTEX_INITIALIZER` and friends: the unlocked state.
            (_, CType::Mutex | CType::CondVar | CType::Opaque(_)) => {}
            // A scalar, or a struct copied from a struct value (`.p = q`,
            // `struct s a = f();`).
            (Initializer::Expression(e), t) if t.is_scalar() || matches!(t, CType::Struct(_)) => {
                out.push((base, t.clone(), Leaf::Expr(e)));
            }
            // `char s[n] = "..."`: the characters, the 0 if it fits, zeros.
            (Initializer::Expression(e), CType::Array(elem, n))
                if matches!(**elem, CType::Int(i) if i.bits == 8)
                    && matches!(e.node, Expression::StringLiteral(_)) =>
            {
                let Expression::StringLiteral(lit) = &e.node else {
                    unreachable!("matched above")
                };
                let chars = strings::literal_chars(&lit.node).ok_or_else(|| {
                    LowerError::unsupported(e.span, "this kind of string literal is not modelled")
                })?;
                if chars.len() as u64 > n + 1 {
                    return Err(LowerError::invalid(
                        e.span,
                        "string literal longer than the array it initialises",
                    ));
                }
                let CType::Int(it) = **elem else {
                    unreachable!("matched above")
                };
                for (i, c) in chars.into_iter().take(*n as usize).enumerate() {
                    out.push((
                        base + i,
                        (**elem).clone(),
                        Leaf::Value(wrap_const(c.into(), it)),
                    ));
                }
            }
            (Initializer::List(items), CType::Array(..) | CType::Struct(_)) => {
                let mut next = 0usize;
                for item in items {
                    let Designated {
                        element,
                        index,
                        descend,
                    } = self.designated(ty, &item.node.designation, next, item.span)?;
                    next = index + 1;
                    let Some((elem, off)) = element else {
                        // Excess elements (gcc warns and drops them).
                        continue;
                    };
                    if self.union_tag(ty).is_some() && index > 0 && item.node.designation.is_empty()
                    {
                        // A union's list initialises one member.
                        continue;
                    }
                    self.tag_leaf(ty, index, base, out);
                    let size = self.types.cells(&elem) as usize;
                    if off + size > len {
                        continue;
                    }
                    let rest = match descend {
                        true => &item.node.designation[..],
                        false => item.node.designation.get(1..).unwrap_or_default(),
                    };
                    self.designated_leaves(
                        &elem,
                        rest,
                        &item.node.initializer,
                        base + off,
                        size,
                        out,
                    )?;
                }
            }
            (Initializer::List(items), t) if t.is_scalar() && !items.is_empty() => {
                self.leaves(t, &items[0].node.initializer, base, len, out)?;
            }
            _ => {
                return Err(LowerError::unsupported(
                    init.span,
                    "unsupported initializer",
                ))
            }
        }
        Ok(())
    }

    /// Follows the designators after the first of a list item (`.a.b`,
    /// `[2].x`) into the sub-object they name, and takes its leaves.
    fn designated_leaves<'e>(
        &mut self,
        ty: &CType,
        designators: &[Node<Designator>],
        init: &'e Node<Initializer>,
        base: usize,
        len: usize,
        out: &mut Leaves<'e>,
    ) -> Result<()> {
        let Some(first) = designators.first() else {
            return self.leaves(ty, init, base, len, out);
        };
        let outside =
            || LowerError::invalid(first.span, "designator outside the object it initialises");
        let Designated {
            element,
            index,
            descend,
        } = self.designated(ty, std::slice::from_ref(first), 0, first.span)?;
        let (elem, off) = element.ok_or_else(outside)?;
        self.tag_leaf(ty, index, base, out);
        let size = self.types.cells(&elem) as usize;
        if off + size > len {
            return Err(outside());
        }
        let rest = if descend {
            designators
        } else {
            &designators[1..]
        };
        self.designated_leaves(&elem, rest, init, base + off, size, out)
    }

    /// An array type of unspecified length (`T a[] = ...`) completed by
    /// its initializer: a list's length (past its last designated index),
    /// or a string literal's characters with the terminating 0.
    pub(crate) fn complete_array(
        &mut self,
        ty: CType,
        init: Option<&Node<Initializer>>,
    ) -> Result<CType> {
        let (CType::Array(elem, 0), Some(init)) = (&ty, init) else {
            return Ok(ty);
        };
        let string_length = |e: &Node<Expression>| match &e.node {
            Expression::StringLiteral(lit) => {
                strings::literal_chars(&lit.node).map(|c| c.len() + 1)
            }
            _ => None,
        };
        let len = match &init.node {
            // `char s[] = {"abc"}`
            Initializer::List(items)
                if items.len() == 1 && items[0].node.designation.is_empty() =>
            {
                match &items[0].node.initializer.node {
                    Initializer::Expression(e) => string_length(e).unwrap_or(1),
                    Initializer::List(_) => 1,
                }
            }
            Initializer::List(items) => {
                let (mut next, mut len) = (0, 0);
                for item in items {
                    if let Some(Designator::Index(x)) =
                        item.node.designation.first().map(|d| &d.node)
                    {
                        next = self.designator_index(x)?;
                    }
                    next += 1;
                    len = len.max(next);
                }
                len
            }
            Initializer::Expression(e) => string_length(e).unwrap_or(0),
        };
        Ok(CType::Array(elem.clone(), len as u64))
    }

    /// The element of an aggregate of type `ty` that a list item
    /// initialises: the one its first designator names, else the one at
    /// position `next`.
    fn designated(
        &mut self,
        ty: &CType,
        designation: &[Node<Designator>],
        next: usize,
        span: Span,
    ) -> Result<Designated> {
        match ty {
            CType::Array(elem, n) => {
                let index = match designation.first().map(|d| &d.node) {
                    None => next,
                    Some(Designator::Index(e)) => self.designator_index(e)?,
                    Some(Designator::Range(r)) => {
                        return Err(LowerError::unsupported(
                            r.span,
                            "range designators (`[a ... b] =`) are not supported",
                        ))
                    }
                    Some(Designator::Member(_)) => {
                        return Err(LowerError::invalid(
                            span,
                            "member designator in the initializer of an array",
                        ))
                    }
                };
                let esz = self.types.cells(elem) as usize;
                let inside = (index as u64) < *n;
                Ok(Designated {
                    element: inside.then(|| ((**elem).clone(), index * esz)),
                    index,
                    descend: false,
                })
            }
            CType::Struct(s) => {
                let fields = self.types.structs[*s].fields.clone();
                let mut descend = false;
                let index = match designation.first().map(|d| &d.node) {
                    None => next,
                    Some(Designator::Member(id)) => {
                        let name = &id.node.name;
                        let direct = fields.iter().position(|(n, _, _)| n == name);
                        // A member of an anonymous member: that member's.
                        let anonymous = || {
                            fields.iter().position(|(n, t, _)| match t {
                                CType::Struct(inner) if n.is_empty() => {
                                    self.types.field(*inner, name).is_some()
                                }
                                _ => false,
                            })
                        };
                        match direct {
                            Some(i) => i,
                            None => {
                                descend = true;
                                anonymous().ok_or_else(|| {
                                    LowerError::invalid(
                                        id.span,
                                        format!("no member `{name}` to initialise"),
                                    )
                                })?
                            }
                        }
                    }
                    Some(_) => {
                        return Err(LowerError::invalid(
                            span,
                            "index designator in the initializer of a struct",
                        ))
                    }
                };
                let field = fields.get(index);
                Ok(Designated {
                    element: field.map(|(_, t, off)| (t.clone(), *off as usize)),
                    index,
                    descend,
                })
            }
            _ => Err(LowerError::invalid(
                span,
                "designator in the initializer of a scalar",
            )),
        }
    }

    /// The offset of the tag of a union type (`None` for another type).
    fn union_tag(&self, ty: &CType) -> Option<usize> {
        match ty {
            CType::Struct(s) if self.types.structs[*s].union => {
                Some(self.types.structs[*s].cells as usize - 1)
            }
            _ => None,
        }
    }

    /// For a union of type `ty` at cell `base` whose member `index` is
    /// initialised: the leaf setting its tag (`unions`).
    fn tag_leaf(&self, ty: &CType, index: usize, base: usize, out: &mut Leaves<'_>) {
        if let Some(tag) = self.union_tag(ty) {
            let code = index as i128 + 1;
            out.push((
                base + tag,
                CType::Int(crate::types::IntTy::INT),
                Leaf::Value(code),
            ));
        }
    }

    fn designator_index(&mut self, e: &Node<Expression>) -> Result<usize> {
        let k = self.const_value(e)?;
        usize::try_from(k)
            .map_err(|_| LowerError::invalid(e.span, "negative index in a designator"))
    }
}
