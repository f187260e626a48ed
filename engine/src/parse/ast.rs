//! The syntax tree: the file as written, names unresolved, before the
//! checks that turn it into IR.

use crate::ir::{CmpOp, Span};

/// A name with where it was written.
#[derive(Clone, Copy, Debug)]
pub(super) struct Name<'a> {
    pub text: &'a str,
    pub span: Span,
}

/// The magnitude of an integer literal; `None` when it does not even fit
/// in `u64` (the range check against `i64` happens during resolution, where
/// a preceding minus sign is known).
pub(super) type Magnitude = Option<u64>;

pub(super) enum Item<'a> {
    Var(Vec<VarItem<'a>>),
    Init(Expr<'a>),
    Thread(ThreadDecl<'a>),
    Error(Expr<'a>),
}

pub(super) struct VarItem<'a> {
    pub name: Name<'a>,
    /// Declared with `[]`: an array (its initial value is every element's).
    pub array: bool,
    /// Initial value: whether negated, the magnitude, and the literal's span.
    pub init: Option<(bool, Magnitude, Span)>,
    pub span: Span,
}

pub(super) struct ThreadDecl<'a> {
    pub name: Name<'a>,
    pub initial: Name<'a>,
    pub header_span: Span,
    pub transitions: Vec<TransDecl<'a>>,
}

pub(super) struct TransDecl<'a> {
    pub label: Option<Name<'a>>,
    pub from: Name<'a>,
    pub to: Name<'a>,
    pub guard: Option<Expr<'a>>,
    pub assigns: Vec<AssignDecl<'a>>,
    pub span: Span,
}

pub(super) struct AssignDecl<'a> {
    pub var: Name<'a>,
    /// `var[index] := ...`: a store into an array.
    pub index: Option<Expr<'a>>,
    /// `None` for `*`.
    pub rhs: Option<Expr<'a>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// Terms and conditions share one tree: a parenthesis does not tell which
/// of the two it encloses, so the distinction is made after parsing.
pub(super) struct Expr<'a> {
    pub kind: ExprKind<'a>,
    pub span: Span,
    /// Height of the tree (a leaf has height 1); bounded by the parser so
    /// that the recursive passes over it cannot overflow the stack.
    pub height: u32,
}

pub(super) enum ExprKind<'a> {
    Int(Magnitude),
    /// A minus sign directly followed by an integer literal.
    NegInt(Magnitude),
    Var(&'a str),
    /// `a[i]`: an element of an array.
    Select(Name<'a>, Box<Expr<'a>>),
    Bool(bool),
    At {
        thread: Name<'a>,
        loc: Name<'a>,
    },
    Neg(Box<Expr<'a>>),
    Arith(ArithOp, Box<Expr<'a>>, Box<Expr<'a>>),
    /// `name(a, b)`: a non-linear operation (`mul`, `cdiv`, ...).
    Call(Name<'a>, Box<Expr<'a>>, Box<Expr<'a>>),
    Cmp(CmpOp, Box<Expr<'a>>, Box<Expr<'a>>),
    Not(Box<Expr<'a>>),
    And(Box<Expr<'a>>, Box<Expr<'a>>),
    Or(Box<Expr<'a>>, Box<Expr<'a>>),
    Paren(Box<Expr<'a>>),
}
