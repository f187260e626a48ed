//! C types as the lowering models them (ILP32 or LP64 integers, pointers,
//! arrays, structs, and the opaque pthread objects), and their layout in
//! cells: every object is flattened into scalar cells, one IR variable each.

use std::collections::{HashMap, HashSet};

use frontend::lang_c::ast::{
    ArraySize, DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, Expression,
    SpecifierQualifier, StructDeclaration, StructKind, StructType, TypeName, TypeQualifier,
    TypeSpecifier,
};
use frontend::lang_c::span::{Node, Span};
use frontend::DataModel;

use crate::error::{LowerError, Result};
use crate::lower::const_expr;

/// An integer type: its width in bits and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntTy {
    /// Width in bits (1 for `_Bool`).
    pub bits: u8,
    /// Whether it is signed.
    pub signed: bool,
    /// The conversion rank (bool 0, char 1, short 2, int 3, long 4, long long 5).
    pub rank: u8,
}

impl IntTy {
    /// `_Bool`.
    pub const BOOL: IntTy = IntTy {
        bits: 1,
        signed: false,
        rank: 0,
    };
    /// `int`.
    pub const INT: IntTy = IntTy {
        bits: 32,
        signed: true,
        rank: 3,
    };
    /// `unsigned int`.
    pub const UINT: IntTy = IntTy {
        bits: 32,
        signed: false,
        rank: 3,
    };
    /// `char` (signed on the targets SV-COMP uses).
    pub const CHAR: IntTy = IntTy {
        bits: 8,
        signed: true,
        rank: 1,
    };
    /// `long long` (the type run-time array lengths are kept in).
    pub const LLONG: IntTy = IntTy {
        bits: 64,
        signed: true,
        rank: 5,
    };

    /// The least value.
    pub fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    /// Whether it is `_Bool` (a bit-field of width 1 is not: it wraps).
    pub fn is_bool(self) -> bool {
        self == IntTy::BOOL
    }
    /// The greatest value.
    pub fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    /// The same type with the other signedness (bool stays bool).
    pub fn with_sign(self, signed: bool) -> IntTy {
        if self.is_bool() {
            self
        } else {
            IntTy { signed, ..self }
        }
    }
}

/// A C type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    /// `void`.
    Void,
    /// An integer type (including `_Bool` and enums).
    Int(IntTy),
    /// A pointer.
    Ptr(Box<CType>),
    /// A constant-size array.
    Array(Box<CType>, u64),
    /// A struct (index into [`Types::structs`]).
    Struct(usize),
    /// A function type (only used as a pointee).
    Func,
    /// `pthread_mutex_t`: 0 when free, else the owner's thread number.
    Mutex,
    /// `pthread_cond_t` (no state: waits may wake up spuriously).
    CondVar,
    /// `pthread_t`: the number of a thread instance.
    ThreadHandle,
    /// An opaque attribute object (`pthread_attr_t`, …): no state.
    Opaque(&'static str),
    /// A floating-point type of this many bytes: a cell whose value is
    /// abstracted (SOUNDNESS.md, "Floating point"): it always holds 0,
    /// and what C observes of it (a comparison, a conversion to an
    /// integer) is any value, chosen where observed.
    Float(u8),
}

impl CType {
    /// Whether values of this type fit one cell.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            CType::Int(_)
                | CType::Ptr(_)
                | CType::Mutex
                | CType::ThreadHandle
                | CType::CondVar
                | CType::Opaque(_)
                | CType::Float(_)
        )
    }
}

/// A struct's or union's fields: name, type, offset in cells.
#[derive(Clone, Debug, Default)]
pub struct StructDef {
    /// Fields in order, with their offset in cells (an anonymous struct
    /// or union member has the name `""`; [`Types::field`] looks into it).
    pub fields: Vec<(String, CType, u64)>,
    /// A union: its members' cells follow each other, and a last cell, the
    /// *tag*, holds which member was stored last (`lower::unions`).
    pub union: bool,
    /// Cells of the whole struct.
    pub cells: u64,
    /// The guarded fields (`guarded_by`, `pt_guarded_by`): field index and
    /// guard ([`crate::annotations`]).
    pub(crate) guards: Vec<(usize, crate::annotations::Guard)>,
    /// Whether the definition was seen.
    pub complete: bool,
    /// Whether a member is `_Atomic` (not modelled).
    pub atomic_members: bool,
    /// Why the definition was refused (the uses of the type are refused
    /// with it).
    pub refused: Option<LowerError>,
}

/// The type environment: typedefs, struct tags, enum constants.
#[derive(Debug)]
pub struct Types {
    /// Struct definitions.
    pub structs: Vec<StructDef>,
    struct_tags: HashMap<String, usize>,
    /// Typedef names (file scope; block-scope typedefs are rare in tasks).
    pub typedefs: HashMap<String, CType>,
    /// Enum constants and their values.
    pub enum_consts: HashMap<String, i128>,
    /// Typedef names of `_Atomic` types (`atomic_int`).
    pub atomic_typedefs: HashSet<String>,
    /// The data model.
    pub model: DataModel,
    /// While a local is declared: the length expression of its
    /// variable-length array, if it is one (`None`: none is allowed).
    pub vla_sizes: Option<Vec<Node<Expression>>>,
    /// While an array of thread handles is declared (`lower::handles`):
    /// no cap on its length (it has no cells).
    pub uncapped: bool,
    /// Whether some struct field is guarded ([`StructDef::guards`]).
    pub guarded_fields: bool,
}

/// Limits the flattening of huge arrays into cells.
pub const MAX_CELLS: u64 = 4096;

/// Elements of a variable-length array (`T a[n]`, `n` known at run time
/// only): its storage; a declaration whose length is larger gives up.
pub const VLA_CAPACITY: u64 = 8;

impl Types {
    /// An empty environment for a data model.
    pub fn new(model: DataModel) -> Self {
        Types {
            structs: Vec::new(),
            struct_tags: HashMap::new(),
            typedefs: HashMap::new(),
            enum_consts: HashMap::new(),
            atomic_typedefs: HashSet::new(),
            vla_sizes: None,
            uncapped: false,
            guarded_fields: false,
            model,
        }
    }

    /// `sizeof(long double)`: x87's 80 bits, padded to 12 bytes (ILP32)
    /// or 16 (LP64).
    pub fn long_double_bytes(&self) -> u8 {
        match self.model {
            DataModel::Ilp32 => 12,
            DataModel::Lp64 => 16,
        }
    }

    /// `long` and `unsigned long`.
    pub fn long(&self, signed: bool) -> IntTy {
        let bits = match self.model {
            DataModel::Ilp32 => 32,
            DataModel::Lp64 => 64,
        };
        IntTy {
            bits,
            signed,
            rank: 4,
        }
    }

    /// Cells of a type.
    pub fn cells(&self, ty: &CType) -> u64 {
        match ty {
            CType::Array(e, n) => self.cells(e).saturating_mul(*n),
            CType::Struct(s) => self.structs[*s].cells,
            _ => 1,
        }
    }

    /// Takes the struct definitions of `other`, a lowering of the same
    /// program that has seen them all: a definition met later finds its
    /// tag (an untagged struct is a new type each time it is met).
    pub fn adopt_structs(&mut self, other: &Types) {
        if other.structs.len() > self.structs.len() {
            self.structs = other.structs.clone();
            self.struct_tags = other.struct_tags.clone();
        }
    }

    /// Whether a type has `_Atomic` struct members (in a struct, an array
    /// element or a nested struct).
    pub fn atomic_members(&self, ty: &CType) -> bool {
        match ty {
            CType::Array(e, _) => self.atomic_members(e),
            CType::Struct(s) => {
                let d = &self.structs[*s];
                d.atomic_members || d.fields.iter().any(|(_, f, _)| self.atomic_members(f))
            }
            _ => false,
        }
    }

    /// Whether a type has a cell only the pthread API accesses (a mutex, a
    /// condition variable, a thread handle, an attribute object).
    fn holds_pthread_object(&self, ty: &CType) -> bool {
        let mut scalars = Vec::new();
        self.flatten(ty, &mut scalars);
        scalars.iter().any(|t| {
            matches!(
                t,
                CType::Mutex | CType::CondVar | CType::ThreadHandle | CType::Opaque(_)
            )
        })
    }

    /// The scalar types of the cells of a type, in order.
    pub fn flatten(&self, ty: &CType, out: &mut Vec<CType>) {
        match ty {
            CType::Array(e, n) => {
                for _ in 0..*n {
                    self.flatten(e, out);
                }
            }
            CType::Struct(s) => {
                for (_, f, _) in &self.structs[*s].fields {
                    self.flatten(f, out);
                }
                if self.structs[*s].union {
                    out.push(CType::Int(IntTy::INT));
                }
            }
            t => out.push(t.clone()),
        }
    }

    /// The type of a specifier list (`int`, `unsigned long`, `struct s`, a typedef).
    pub fn base_type<'a>(
        &mut self,
        specs: impl Iterator<Item = &'a TypeSpecifier> + Clone,
        span: Span,
    ) -> Result<CType> {
        let mut signed = None;
        // `int` itself adds nothing: it is the default.
        let (mut chars, mut shorts, mut longs) = (0, 0, 0);
        let mut other: Option<CType> = None;
        let (mut floating, mut complex) = (None, false);
        for s in specs {
            match s {
                TypeSpecifier::Void => other = Some(CType::Void),
                TypeSpecifier::Char => chars += 1,
                TypeSpecifier::Short => shorts += 1,
                TypeSpecifier::Int => {}
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Signed => signed = Some(true),
                TypeSpecifier::Unsigned => signed = Some(false),
                TypeSpecifier::Bool => other = Some(CType::Int(IntTy::BOOL)),
                TypeSpecifier::Float => floating = Some(4),
                TypeSpecifier::Double => floating = Some(8),
                TypeSpecifier::TS18661Float(f) => {
                    floating = Some(u8::try_from(f.width / 8).unwrap_or(16))
                }
                TypeSpecifier::Complex => complex = true,
                TypeSpecifier::Struct(st) => other = Some(self.struct_type(&st.node, st.span)?),
                TypeSpecifier::Enum(en) => {
                    let mut next = 0i128;
                    for e in &en.node.enumerators {
                        if let Some(x) = &e.node.expression {
                            next = const_expr(self, x)?;
                        }
                        self.enum_consts
                            .insert(e.node.identifier.node.name.clone(), next);
                        next += 1;
                    }
                    other = Some(CType::Int(IntTy::INT));
                }
                TypeSpecifier::TypedefName(id) => {
                    other = Some(self.typedef(&id.node.name, id.span)?);
                }
                // `_Atomic(T)`: values of `T`; which objects are atomic is
                // recorded by the lowering (`lower::atomics`).
                TypeSpecifier::Atomic(t) => other = Some(self.type_name(t)?),
                TypeSpecifier::TypeOf(_) => {
                    return Err(LowerError::unsupported(
                        span,
                        "`typeof` is only supported in declarations inside functions",
                    ));
                }
            }
        }
        if let Some(t) = other {
            return Ok(t);
        }
        if floating.is_some() || complex {
            // `_Complex T` is two `T`s.
            let bytes = match floating.unwrap_or(8) {
                8 if longs > 0 => self.long_double_bytes(),
                b => b,
            };
            return Ok(CType::Float(if complex { bytes * 2 } else { bytes }));
        }
        let ty = if chars > 0 {
            IntTy {
                bits: 8,
                signed: signed.unwrap_or(true),
                rank: 1,
            }
        } else if shorts > 0 {
            IntTy {
                bits: 16,
                signed: signed.unwrap_or(true),
                rank: 2,
            }
        } else if longs >= 2 {
            IntTy {
                bits: 64,
                signed: signed.unwrap_or(true),
                rank: 5,
            }
        } else if longs == 1 {
            self.long(signed.unwrap_or(true))
        } else {
            IntTy {
                bits: 32,
                signed: signed.unwrap_or(true),
                rank: 3,
            }
        };
        Ok(CType::Int(ty))
    }

    fn typedef(&self, name: &str, span: Span) -> Result<CType> {
        let known = match name {
            // C11's `mtx_t`, `cnd_t` and `thrd_t` are these too (the C11
            // functions are lowered as their POSIX counterparts).
            "pthread_mutex_t" | "mtx_t" => Some(CType::Mutex),
            "pthread_cond_t" | "cnd_t" => Some(CType::CondVar),
            "pthread_t" | "thrd_t" => Some(CType::ThreadHandle),
            "pthread_attr_t" => Some(CType::Opaque("pthread_attr_t")),
            "pthread_mutexattr_t" => Some(CType::Opaque("pthread_mutexattr_t")),
            "pthread_condattr_t" => Some(CType::Opaque("pthread_condattr_t")),
            // The state of these is one integer cell (`lower::sync`).
            "pthread_rwlock_t" | "pthread_barrier_t" | "sem_t" => Some(CType::Int(IntTy::INT)),
            "pthread_rwlockattr_t" => Some(CType::Opaque("pthread_rwlockattr_t")),
            "pthread_barrierattr_t" => Some(CType::Opaque("pthread_barrierattr_t")),
            _ => None,
        };
        if let Some(t) = known {
            return Ok(t);
        }
        self.typedefs
            .get(name)
            .cloned()
            .ok_or_else(|| LowerError::unsupported(span, format!("unknown type name `{name}`")))
    }

    fn struct_type(&mut self, st: &StructType, span: Span) -> Result<CType> {
        let is_union = matches!(st.kind.node, StructKind::Union);
        let tag = st.identifier.as_ref().map(|i| i.node.name.clone());
        let key = tag
            .as_ref()
            .map(|t| format!("{}{t}", if is_union { "union " } else { "struct " }));
        let idx = match key.as_ref().and_then(|k| self.struct_tags.get(k)) {
            Some(&i) => i,
            None => {
                self.structs.push(StructDef::default());
                let i = self.structs.len() - 1;
                if let Some(k) = key {
                    self.struct_tags.insert(k, i);
                }
                i
            }
        };
        let Some(decls) = &st.declarations else {
            // A definition that was refused is refused at each use too (the
            // declaration that defines it may have no declarator, where the
            // error is not reported).
            return match &self.structs[idx].refused {
                Some(e) if !self.structs[idx].complete => Err(e.clone()),
                _ => Ok(CType::Struct(idx)),
            };
        };
        self.define_struct(idx, decls, is_union, span)
            .inspect_err(|e| self.structs[idx].refused = Some(e.clone()))
    }

    /// Lays out the fields of struct or union `idx` from its definition:
    /// its type.
    fn define_struct(
        &mut self,
        idx: usize,
        decls: &[Node<StructDeclaration>],
        is_union: bool,
        span: Span,
    ) -> Result<CType> {
        let mut fields = Vec::new();
        let mut guards = Vec::new();
        let mut offset = 0u64;
        let mut has_atomic = false;
        for d in decls {
            let StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let specs: Vec<TypeSpecifier> = f
                .node
                .specifiers
                .iter()
                .filter_map(|s| match &s.node {
                    SpecifierQualifier::TypeSpecifier(t) => Some(t.node.clone()),
                    _ => None,
                })
                .collect();
            let atomic = f.node.specifiers.iter().any(|s| match &s.node {
                SpecifierQualifier::TypeQualifier(q) => q.node == TypeQualifier::Atomic,
                SpecifierQualifier::TypeSpecifier(t) => match &t.node {
                    TypeSpecifier::Atomic(_) => true,
                    TypeSpecifier::TypedefName(n) => self.atomic_typedefs.contains(&n.node.name),
                    _ => false,
                },
                _ => false,
            });
            // Refused when an object of the struct is created
            // (`Types::atomic_members`): an error here would be lost for a
            // definition without declarators.
            has_atomic |= atomic;
            let base = self.base_type(specs.iter(), f.span)?;
            if f.node.declarators.is_empty() && matches!(base, CType::Struct(_)) {
                // An anonymous struct or union member (C11 6.7.2.1p13).
                let n = self.cells(&base);
                fields.push((String::new(), base, offset));
                offset = offset.saturating_add(n);
                continue;
            }
            for sd in &f.node.declarators {
                let Some(decl) = &sd.node.declarator else {
                    continue;
                };
                let (name, ty) = self.declarator(base.clone(), &decl.node)?;
                let Some(name) = name else { continue };
                let ty = match &sd.node.bit_width {
                    Some(w) => {
                        let width = const_expr(self, w)?;
                        match bit_field(&ty, width) {
                            Some(t) => t,
                            None => {
                                return Err(LowerError::unsupported(
                                    sd.span,
                                    "a bit-field of this type or width",
                                ))
                            }
                        }
                    }
                    None => ty,
                };
                let n = self.cells(&ty);
                let exts = crate::annotations::field_extensions(&f.node.specifiers, &decl.node);
                for g in crate::annotations::guards(exts) {
                    guards.push((fields.len(), g));
                }
                fields.push((name, ty, offset));
                offset = offset.saturating_add(n);
            }
        }
        if is_union {
            if fields.iter().any(|(_, t, _)| self.holds_pthread_object(t)) {
                // Not modelled: the pthread API does not keep the tag.
                return Ok(CType::Opaque("union"));
            }
            // The tag.
            offset = offset.saturating_add(1);
        }
        if offset > MAX_CELLS {
            return Err(LowerError::unsupported(span, "struct too large to flatten"));
        }
        let def = &mut self.structs[idx];
        def.fields = fields;
        def.union = is_union;
        self.guarded_fields |= !guards.is_empty();
        def.guards = guards;
        def.cells = offset.max(1);
        def.complete = true;
        def.atomic_members = has_atomic;
        def.refused = None;
        Ok(CType::Struct(idx))
    }

    /// Applies a declarator to a base type: the declared name and its type.
    pub fn declarator(&mut self, base: CType, d: &Declarator) -> Result<(Option<String>, CType)> {
        // In one declarator the pointers are written before the identifier
        // and the arrays (functions) after it, and the suffixes bind
        // tighter: `int *a[2][3]` has derived [Pointer, Array 2, Array 3]
        // and is an array of 2 arrays of 3 pointers. So the type is built
        // from the base outwards: the pointers first, then the suffixes
        // from the last to the first. (Parenthesised declarators nest.)
        let mut ty = base;
        let (ptrs, suffixes): (Vec<_>, Vec<_>) = d
            .derived
            .iter()
            .partition(|dd| matches!(dd.node, DerivedDeclarator::Pointer(_)));
        let chain: Vec<_> = ptrs.into_iter().chain(suffixes.into_iter().rev()).collect();
        let last = chain.len().saturating_sub(1);
        let named = matches!(d.kind.node, DeclaratorKind::Identifier(_));
        for (i, dd) in chain.into_iter().enumerate() {
            ty = match &dd.node {
                DerivedDeclarator::Pointer(_) => CType::Ptr(Box::new(ty)),
                DerivedDeclarator::Array(a) => {
                    let n = match &a.node.size {
                        ArraySize::VariableExpression(e) => match const_expr(self, e) {
                            Ok(n) => u64::try_from(n).map_err(|_| {
                                LowerError::unsupported(e.span, "negative array size")
                            })?,
                            // A variable-length array: where the caller
                            // takes one (a local's outermost dimension),
                            // its capacity, the length noted.
                            Err(err) => match &mut self.vla_sizes {
                                Some(sizes) if named && i == last && sizes.is_empty() => {
                                    sizes.push((**e).clone());
                                    VLA_CAPACITY
                                }
                                _ => return Err(err),
                            },
                        },
                        ArraySize::StaticExpression(e) => {
                            let n = const_expr(self, e)?;
                            u64::try_from(n).map_err(|_| {
                                LowerError::unsupported(e.span, "negative array size")
                            })?
                        }
                        ArraySize::Unknown => 0,
                        ArraySize::VariableUnknown => {
                            return Err(LowerError::unsupported(
                                a.span,
                                "variable-length arrays are not supported",
                            ))
                        }
                    };
                    if n.saturating_mul(self.cells(&ty)) > MAX_CELLS && !self.uncapped {
                        return Err(LowerError::unsupported(
                            a.span,
                            format!("array of {n} elements is too large to model"),
                        ));
                    }
                    CType::Array(Box::new(ty), n)
                }
                DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => CType::Func,
                DerivedDeclarator::Block(_) => {
                    return Err(LowerError::unsupported(dd.span, "blocks are not supported"))
                }
            };
        }
        match &d.kind.node {
            DeclaratorKind::Identifier(id) => Ok((Some(id.node.name.clone()), ty)),
            DeclaratorKind::Abstract => Ok((None, ty)),
            DeclaratorKind::Declarator(inner) => self.declarator(ty, &inner.node),
        }
    }

    /// The type named by a type name (casts, `sizeof`).
    pub fn type_name(&mut self, t: &Node<TypeName>) -> Result<CType> {
        let specs: Vec<TypeSpecifier> = t
            .node
            .specifiers
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(t.node.clone()),
                _ => None,
            })
            .collect();
        let base = self.base_type(specs.iter(), t.span)?;
        match &t.node.declarator {
            Some(d) => Ok(self.declarator(base, &d.node)?.1),
            None => Ok(base),
        }
    }

    /// The type specifiers of a declaration's specifier list.
    pub fn specifiers(specs: &[Node<DeclarationSpecifier>]) -> Vec<TypeSpecifier> {
        specs
            .iter()
            .filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(t.node.clone()),
                _ => None,
            })
            .collect()
    }

    /// `sizeof` in bytes (for integer arithmetic in `sizeof` expressions).
    pub fn size_of(&self, ty: &CType) -> Option<u64> {
        let ptr = match self.model {
            DataModel::Ilp32 => 4,
            DataModel::Lp64 => 8,
        };
        Some(match ty {
            CType::Int(i) => u64::from(i.bits.max(8) / 8),
            CType::Ptr(_) | CType::ThreadHandle => ptr,
            CType::Float(bytes) => u64::from(*bytes),
            CType::Array(e, n) => self.size_of(e)? * n,
            CType::Struct(s) => {
                let mut total = 0;
                for (_, f, _) in &self.structs[*s].fields {
                    let n = self.size_of(f)?;
                    total = if self.structs[*s].union {
                        total.max(n)
                    } else {
                        total + n
                    };
                }
                total
            }
            _ => return None,
        })
    }

    /// The type of a field and its offset in cells (also a member of an
    /// anonymous struct or union member).
    pub fn field(&self, s: usize, name: &str) -> Option<(CType, u64)> {
        let fields = &self.structs[s].fields;
        if let Some((_, t, o)) = fields.iter().find(|(n, _, _)| n == name) {
            return Some((t.clone(), *o));
        }
        fields.iter().find_map(|(n, t, o)| match t {
            CType::Struct(inner) if n.is_empty() => {
                let (ft, fo) = self.field(*inner, name)?;
                Some((ft, o + fo))
            }
            _ => None,
        })
    }
}

/// The type of a bit-field of `width` bits declared with type `ty`: an
/// integer type of that width and `ty`'s signedness (gcc's: a plain `int`
/// bit-field is signed), whose values promote to `int` when narrower than
/// it (rank below `int`'s; a width-1 field is no `_Bool` and wraps). Its
/// cell holds the value, so every store wraps into the width, as C's
/// conversion to the field's type does (gcc: modulo 2^width). `None` for
/// a non-integer type, a width of 0 or above the type's, and fields wider
/// than `int` but narrower than their type (their arithmetic is not that
/// of a C type).
fn bit_field(ty: &CType, width: i128) -> Option<CType> {
    let CType::Int(t) = ty else { return None };
    let bits = u8::try_from(width).ok().filter(|&b| b > 0 && b <= t.bits)?;
    if t.is_bool() || bits == t.bits {
        return Some(ty.clone());
    }
    (bits < IntTy::INT.bits).then_some(CType::Int(IntTy {
        bits,
        signed: t.signed,
        rank: 1,
    }))
}

/// The usual arithmetic conversions of two integer types.
pub fn common_type(a: IntTy, b: IntTy, int: IntTy) -> IntTy {
    let promote = |t: IntTy| if t.rank < int.rank { int } else { t };
    let (a, b) = (promote(a), promote(b));
    if a.signed == b.signed {
        return if a.rank >= b.rank { a } else { b };
    }
    let (s, u) = if a.signed { (a, b) } else { (b, a) };
    if u.rank >= s.rank {
        u
    } else if s.bits > u.bits {
        s
    } else {
        s.with_sign(false)
    }
}

/// The integer promotion of a type.
pub fn promote(a: IntTy) -> IntTy {
    if a.rank < IntTy::INT.rank {
        IntTy::INT
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_fields_take_their_width_and_promote_to_int() {
        let uint = CType::Int(IntTy::UINT);
        let int = CType::Int(IntTy::INT);
        let CType::Int(u3) = bit_field(&uint, 3).expect("unsigned : 3") else {
            panic!("not an integer type")
        };
        assert_eq!((u3.bits, u3.signed, u3.min(), u3.max()), (3, false, 0, 7));
        assert_eq!(promote(u3), IntTy::INT);
        let CType::Int(s4) = bit_field(&int, 4).expect("int : 4") else {
            panic!("not an integer type")
        };
        assert_eq!((s4.min(), s4.max()), (-8, 7));
        // Width 1 wraps: it is no `_Bool`.
        let CType::Int(u1) = bit_field(&uint, 1).expect("unsigned : 1") else {
            panic!("not an integer type")
        };
        assert!(!u1.is_bool());
        assert_eq!(crate::lower::wrap_const(2, u1), 0);
        assert_eq!(crate::lower::wrap_const(13, s4), -3);
        // The full width is the type itself; zero, too wide and
        // non-integer fields are not modelled.
        assert_eq!(bit_field(&uint, 32), Some(uint.clone()));
        assert_eq!(bit_field(&uint, 0), None);
        assert_eq!(bit_field(&uint, 33), None);
        assert_eq!(bit_field(&CType::Float(8), 3), None);
        assert_eq!(
            bit_field(&CType::Int(IntTy::LLONG), 40),
            None,
            "wider than int, narrower than long long"
        );
    }
}
