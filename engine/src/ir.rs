//! The guarded-command intermediate representation.
//!
//! A program is a tuple (V, I, T) as in the ASE paper: integer variables, an
//! initial condition, and threads whose transitions are guarded concurrent
//! assignments. Everything is plain data: entities live in vectors and refer
//! to each other by typed indices; names are stored once, in the declaration
//! tables. Source positions are kept in a side table ([`SourceMap`]) so the
//! checker never has to look at them.

use std::fmt;

macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The position in the owning vector.
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// The id of the element at `index`.
            pub fn new(index: usize) -> Self {
                Self(u32::try_from(index).expect("index fits in u32"))
            }
        }
    };
}

index_type!(
    /// A program variable (index into [`Program::vars`]).
    VarId
);
index_type!(
    /// An array (index into [`Program::arrays`]).
    ArrayId
);
index_type!(
    /// A thread (index into [`Program::threads`]).
    ThreadId
);
index_type!(
    /// A location of one thread (index into [`Thread::locs`]).
    LocId
);
index_type!(
    /// A transition (index into [`Program::transitions`]).
    TransId
);

/// A byte range in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span from `start` to `end` (byte offsets).
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    /// The byte range, for indexing source text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Comparison operators of atomic conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// Every operator.
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];

    /// The operator with its operands swapped: `a op b` iff `b op.flip() a`.
    pub fn flip(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Eq,
            CmpOp::Ne => CmpOp::Ne,
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
        }
    }

    /// Whether `a op b` holds.
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }

    /// The complement: `!(a op b)` iff `a op.negated() b`.
    pub fn negated(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    /// The operator as written in `.gc` (and C).
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// An integer-valued linear term over program variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// An integer literal.
    Const(i64),
    /// The current value of a variable.
    Var(VarId),
    /// `a + b`
    Add(Box<Term>, Box<Term>),
    /// `a - b`
    Sub(Box<Term>, Box<Term>),
    /// `k * a` (one side of every product is a literal: arithmetic is linear)
    Mul(i64, Box<Term>),
    /// `-a`
    Neg(Box<Term>),
    /// `a / k`: the quotient rounded down (`⌊a/k⌋`), `k` a positive literal.
    Div(Box<Term>, i64),
    /// `a % k`: the remainder of [`Term::Div`], in `0..k` (`k` a positive
    /// literal): Euclidean division, not C's (which rounds toward zero).
    Mod(Box<Term>, i64),
    /// A non-linear operation on two terms (written `mul(a, b)` etc.):
    /// computed concretely by the interpreter and the explicit search,
    /// encoded by BMC and the certificate checker, refused by the
    /// abstraction engines.
    Nl(NlOp, Box<Term>, Box<Term>),
    /// `a[i]`: the element of an array at an index (written `a[i]`; any
    /// integer is an index: arrays are total maps from the integers, as in
    /// McCarthy's theory of arrays). Computed by the interpreter and the
    /// explicit search, encoded by bounded model checking (Z3's arrays);
    /// every other engine refuses programs with arrays
    /// ([`Program::has_arrays`]).
    Select(ArrayId, Box<Term>),
}

/// The non-linear operations of [`Term::Nl`]. They are total on the
/// unbounded integers: a division by zero yields 0 and a remainder by zero
/// the dividend (the C front end never evaluates them at zero: it gives up
/// first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NlOp {
    /// `mul(a, b)`: the product.
    Mul,
    /// `cdiv(a, b)`: the quotient rounded toward zero (C's `/`).
    Div,
    /// `crem(a, b)`: `a - b * cdiv(a, b)` (C's `%`: the sign of `a`).
    Rem,
    /// `band(a, b)`: bitwise and of the 64-bit two's-complement
    /// representations (each operand reduced modulo 2^64), read back as a
    /// signed 64-bit value. On operands of C's integer types (at most 64
    /// bits) this is the operation on the unbounded integers.
    And,
    /// `bor(a, b)`: bitwise or (as [`NlOp::And`]).
    Or,
    /// `bxor(a, b)`: bitwise exclusive or (as [`NlOp::And`]).
    Xor,
}

impl NlOp {
    /// Every operation.
    pub const ALL: [NlOp; 6] = [
        NlOp::Mul,
        NlOp::Div,
        NlOp::Rem,
        NlOp::And,
        NlOp::Or,
        NlOp::Xor,
    ];

    /// The function name in `.gc`.
    pub fn name(self) -> &'static str {
        match self {
            NlOp::Mul => "mul",
            NlOp::Div => "cdiv",
            NlOp::Rem => "crem",
            NlOp::And => "band",
            NlOp::Or => "bor",
            NlOp::Xor => "bxor",
        }
    }

    /// The operation named `name` in `.gc`.
    pub fn from_name(name: &str) -> Option<NlOp> {
        NlOp::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The operation on concrete values; `None` on overflow of `i128`.
    pub fn apply(self, a: i128, b: i128) -> Option<i128> {
        match self {
            NlOp::Mul => a.checked_mul(b),
            NlOp::Div if b == 0 => Some(0),
            NlOp::Div => a.checked_div(b),
            NlOp::Rem if b == 0 => Some(a),
            NlOp::Rem => a.checked_rem(b),
            // `as i64` keeps the low 64 bits (two's complement).
            NlOp::And => Some(i128::from(a as i64 & b as i64)),
            NlOp::Or => Some(i128::from(a as i64 | b as i64)),
            NlOp::Xor => Some(i128::from(a as i64 ^ b as i64)),
        }
    }
}

/// A Boolean condition over variables and thread locations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// `true`
    True,
    /// `false`
    False,
    /// `a op b`
    Cmp(CmpOp, Term, Term),
    /// `thread@loc`: the thread is at the location.
    At(ThreadId, LocId),
    /// `!c`
    Not(Box<Cond>),
    /// `a && b`
    And(Box<Cond>, Box<Cond>),
    /// `a || b`
    Or(Box<Cond>, Box<Cond>),
}

/// The right-hand side of an assignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rhs {
    /// An expression evaluated in the state before the step.
    Expr(Term),
    /// `*`: any integer (a nondeterministic input).
    Nondet,
}

/// One assignment `var := rhs` of a concurrent assignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Assign {
    /// The assigned variable.
    pub var: VarId,
    /// Its new value.
    pub rhs: Rhs,
}

/// One store `array[index] := value` of a transition: the index and the
/// value are evaluated in the state before the step, like every
/// right-hand side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Store {
    /// The array written.
    pub array: ArrayId,
    /// The element written.
    pub index: Term,
    /// Its new value.
    pub value: Term,
}

/// An array declaration: a map from every integer to an integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayDecl {
    /// The array's name.
    pub name: String,
    /// The initial value of every element; `None`: any values (each
    /// element its own).
    pub init: Option<i64>,
}

/// A variable declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// The variable's name.
    pub name: String,
    /// Its initial value; `None` means any integer.
    pub init: Option<i64>,
}

/// A thread: its locations, the initial one, and its transitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    /// The thread's name.
    pub name: String,
    /// Location names, in order of first appearance.
    pub locs: Vec<String>,
    /// Where the thread starts.
    pub initial: LocId,
    /// The thread's transitions, in source order.
    pub transitions: Vec<TransId>,
}

/// A guarded transition `from -> to when guard do assigns`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// The thread that takes it.
    pub thread: ThreadId,
    /// The name shown in traces (the label, or `THREAD.N`).
    pub label: String,
    /// Whether the label was written in the source (else it was generated).
    pub explicit_label: bool,
    /// Source location.
    pub from: LocId,
    /// Target location.
    pub to: LocId,
    /// Enabling condition (`Cond::True` when absent); may read the
    /// locations of threads (`p@L`).
    pub guard: Cond,
    /// Concurrent assignments; each variable at most once.
    pub assigns: Vec<Assign>,
    /// Stores into arrays, made with the assignments and applied in order
    /// after them (of two stores to one element, the later one counts).
    pub stores: Vec<Store>,
}

/// Source positions of program entities: a side table, not part of the
/// semantics. Vectors are indexed like the program's own; they may be empty
/// for programs built in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// Span of each variable's declaration.
    pub vars: Vec<Span>,
    /// Span of each array's declaration.
    pub arrays: Vec<Span>,
    /// Span of each thread's header.
    pub threads: Vec<Span>,
    /// Span of each transition.
    pub transitions: Vec<Span>,
}

/// A guarded-command program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// The variables.
    pub vars: Vec<VarDecl>,
    /// The arrays.
    pub arrays: Vec<ArrayDecl>,
    /// Constraints on the initial values (conjoined).
    pub init: Vec<Cond>,
    /// The threads.
    pub threads: Vec<Thread>,
    /// All transitions of all threads.
    pub transitions: Vec<Transition>,
    /// Error predicates (disjoined); the program is safe when no reachable
    /// state satisfies any of them.
    pub error: Vec<Cond>,
    /// Where each entity was written.
    pub source_map: SourceMap,
}

impl Program {
    /// The transitions that may be taken at a tuple of thread locations when
    /// only the location conditions of guards are read, each with the
    /// tuple it leads to.
    pub fn location_steps<'a>(
        &'a self,
        locs: &'a [LocId],
    ) -> impl Iterator<Item = (TransId, Vec<LocId>)> + 'a {
        self.threads
            .iter()
            .enumerate()
            .flat_map(move |(k, thread)| {
                thread.transitions.iter().filter_map(move |&id| {
                    let tr = self.transition(id);
                    if tr.from != locs[k] || tr.guard.at_locations(locs) == Some(false) {
                        return None;
                    }
                    let mut next = locs.to_vec();
                    next[k] = tr.to;
                    Some((id, next))
                })
            })
    }

    /// Appends a transition, to the program and to its thread's list, and
    /// its source span when given (a program's transitions have spans
    /// either all or none).
    pub fn push_transition(&mut self, tr: Transition, span: Option<Span>) -> TransId {
        let id = TransId::new(self.transitions.len());
        self.threads[tr.thread.index()].transitions.push(id);
        self.transitions.push(tr);
        if let Some(span) = span {
            self.source_map.transitions.push(span);
        }
        id
    }

    /// Per variable, the threads whose transitions assign it.
    pub fn writers(&self) -> Vec<fixedbitset::FixedBitSet> {
        let mut out =
            vec![fixedbitset::FixedBitSet::with_capacity(self.threads.len()); self.vars.len()];
        for tr in &self.transitions {
            for a in &tr.assigns {
                out[a.var.index()].insert(tr.thread.index());
            }
        }
        out
    }

    /// The declaration of a variable.
    pub fn var(&self, v: VarId) -> &VarDecl {
        &self.vars[v.index()]
    }
    /// A thread.
    pub fn thread(&self, t: ThreadId) -> &Thread {
        &self.threads[t.index()]
    }
    /// A transition.
    pub fn transition(&self, t: TransId) -> &Transition {
        &self.transitions[t.index()]
    }
    /// The name of a location of a thread.
    pub fn loc_name(&self, t: ThreadId, l: LocId) -> &str {
        &self.threads[t.index()].locs[l.index()]
    }
    /// The variable with this name, if any.
    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        self.vars
            .iter()
            .position(|v| v.name == name)
            .map(VarId::new)
    }
    /// The thread with this name, if any.
    pub fn thread_by_name(&self, name: &str) -> Option<ThreadId> {
        self.threads
            .iter()
            .position(|t| t.name == name)
            .map(ThreadId::new)
    }
    /// The span of a transition, when the program came from source text.
    pub fn transition_span(&self, t: TransId) -> Option<Span> {
        self.source_map.transitions.get(t.index()).copied()
    }
    /// The error condition as one formula (the disjunction).
    pub fn error_cond(&self) -> Cond {
        disjunction(self.error.iter().cloned())
    }
    /// The initial constraint as one formula (the conjunction).
    pub fn init_cond(&self) -> Cond {
        balanced(self.init.clone(), &|a, b| {
            Cond::And(Box::new(a), Box::new(b))
        })
        .unwrap_or(Cond::True)
    }
    /// Whether the program divides (`/`, `%`), uses a non-linear
    /// operation ([`Term::Nl`]) or has arrays anywhere: engines that need
    /// linear arithmetic do not take such programs.
    pub fn divides(&self) -> bool {
        let rhs = |r: &Rhs| matches!(r, Rhs::Expr(t) if t.divides());
        self.has_arrays()
            || self.init.iter().chain(&self.error).any(Cond::divides)
            || self
                .transitions
                .iter()
                .any(|t| t.guard.divides() || t.assigns.iter().any(|a| rhs(&a.rhs)))
    }

    /// Whether the program has arrays ([`Term::Select`], [`Store`]): only
    /// the interpreter and bounded model checking take such programs.
    pub fn has_arrays(&self) -> bool {
        !self.arrays.is_empty()
    }

    /// Whether the program uses a non-linear operation ([`Term::Nl`]).
    pub fn nonlinear(&self) -> bool {
        let rhs = |r: &Rhs| matches!(r, Rhs::Expr(t) if t.nonlinear());
        self.init.iter().chain(&self.error).any(Cond::nonlinear)
            || self
                .transitions
                .iter()
                .any(|t| t.guard.nonlinear() || t.assigns.iter().any(|a| rhs(&a.rhs)))
    }
    /// Whether some transition reads a nondeterministic input.
    pub fn has_inputs(&self) -> bool {
        self.transitions
            .iter()
            .any(|t| t.assigns.iter().any(|a| a.rhs == Rhs::Nondet))
    }
}

/// The disjunction of conditions (`false` when empty).
pub fn disjunction(conds: impl IntoIterator<Item = Cond>) -> Cond {
    balanced(conds.into_iter().collect(), &|a, b| {
        Cond::Or(Box::new(a), Box::new(b))
    })
    .unwrap_or(Cond::False)
}

/// The conditions joined by `join` as a balanced tree: its depth grows
/// with the logarithm of their number (thousands of race conditions would
/// otherwise make a chain that recursive walks cannot descend).
fn balanced(mut conds: Vec<Cond>, join: &impl Fn(Cond, Cond) -> Cond) -> Option<Cond> {
    while conds.len() > 1 {
        let mut next = Vec::with_capacity(conds.len().div_ceil(2));
        let mut items = conds.into_iter();
        while let Some(a) = items.next() {
            next.push(match items.next() {
                Some(b) => join(a, b),
                None => a,
            });
        }
        conds = next;
    }
    conds.pop()
}

impl Term {
    /// The literal `v`. Literals are 64-bit, terms unbounded: a value beyond
    /// 64 bits (2^64, the modulus of `unsigned long long`, or its greatest
    /// value) is `hi * 2^62 + lo`. `None` beyond ±2^120.
    pub fn literal(v: i128) -> Option<Term> {
        const LIMB: i128 = 1 << 62;
        if let Ok(k) = i64::try_from(v) {
            return Some(Term::Const(k));
        }
        if v.unsigned_abs() > 1u128 << 120 {
            return None;
        }
        let (hi, lo) = (v.div_euclid(LIMB), v.rem_euclid(LIMB));
        let high = Term::Mul(hi as i64, Box::new(Term::Const(LIMB as i64)));
        Some(if lo == 0 {
            high
        } else {
            Term::Add(Box::new(high), Box::new(Term::Const(lo as i64)))
        })
    }

    /// Whether the term divides (`/`, `%`), is non-linear or reads an
    /// array: whether it has no linear form.
    pub fn divides(&self) -> bool {
        match self {
            Term::Const(_) | Term::Var(_) => false,
            Term::Div(..) | Term::Mod(..) | Term::Nl(..) | Term::Select(..) => true,
            Term::Add(a, b) | Term::Sub(a, b) => a.divides() || b.divides(),
            Term::Mul(_, a) | Term::Neg(a) => a.divides(),
        }
    }

    /// Whether the term uses a non-linear operation ([`Term::Nl`]).
    pub fn nonlinear(&self) -> bool {
        match self {
            Term::Const(_) | Term::Var(_) => false,
            Term::Nl(..) => true,
            Term::Add(a, b) | Term::Sub(a, b) => a.nonlinear() || b.nonlinear(),
            Term::Mul(_, a)
            | Term::Neg(a)
            | Term::Div(a, _)
            | Term::Mod(a, _)
            | Term::Select(_, a) => a.nonlinear(),
        }
    }

    /// Calls `f` on every variable the term reads (in the indices of
    /// array elements too).
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Term::Const(_) => {}
            Term::Var(v) => f(*v),
            Term::Add(a, b) | Term::Sub(a, b) | Term::Nl(_, a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
            Term::Mul(_, a)
            | Term::Neg(a)
            | Term::Div(a, _)
            | Term::Mod(a, _)
            | Term::Select(_, a) => a.for_each_var(f),
        }
    }

    /// Calls `f` on every array the term reads.
    pub fn for_each_array(&self, f: &mut impl FnMut(ArrayId)) {
        match self {
            Term::Const(_) | Term::Var(_) => {}
            Term::Add(a, b) | Term::Sub(a, b) | Term::Nl(_, a, b) => {
                a.for_each_array(f);
                b.for_each_array(f);
            }
            Term::Mul(_, a) | Term::Neg(a) | Term::Div(a, _) | Term::Mod(a, _) => {
                a.for_each_array(f)
            }
            Term::Select(x, a) => {
                f(*x);
                a.for_each_array(f);
            }
        }
    }
}

impl Cond {
    /// The conjuncts at the top of the condition (itself when it is no
    /// conjunction), left to right.
    pub fn conjuncts(&self) -> Vec<&Cond> {
        fn go<'a>(c: &'a Cond, out: &mut Vec<&'a Cond>) {
            match c {
                Cond::And(a, b) => {
                    go(a, out);
                    go(b, out);
                }
                c => out.push(c),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    /// The truth value at a tuple of thread locations, when the location
    /// tests and literals decide it (`None`: it depends on variables).
    pub fn at_locations(&self, locs: &[LocId]) -> Option<bool> {
        match self {
            Cond::True => Some(true),
            Cond::False => Some(false),
            Cond::Cmp(..) => None,
            Cond::At(t, l) => locs.get(t.index()).map(|at| at == l),
            Cond::Not(a) => a.at_locations(locs).map(|b| !b),
            Cond::And(a, b) => match (a.at_locations(locs), b.at_locations(locs)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            Cond::Or(a, b) => match (a.at_locations(locs), b.at_locations(locs)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
        }
    }

    /// Calls `f` on every variable the condition reads.
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Cond::True | Cond::False | Cond::At(..) => {}
            Cond::Cmp(_, a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
            Cond::Not(c) => c.for_each_var(f),
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
        }
    }

    /// Calls `f` on every array the condition reads.
    pub fn for_each_array(&self, f: &mut impl FnMut(ArrayId)) {
        match self {
            Cond::True | Cond::False | Cond::At(..) => {}
            Cond::Cmp(_, a, b) => {
                a.for_each_array(f);
                b.for_each_array(f);
            }
            Cond::Not(c) => c.for_each_array(f),
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.for_each_array(f);
                b.for_each_array(f);
            }
        }
    }

    /// Whether the condition divides (`/`, `%`) or is non-linear.
    pub fn divides(&self) -> bool {
        match self {
            Cond::True | Cond::False | Cond::At(..) => false,
            Cond::Cmp(_, a, b) => a.divides() || b.divides(),
            Cond::Not(c) => c.divides(),
            Cond::And(a, b) | Cond::Or(a, b) => a.divides() || b.divides(),
        }
    }

    /// Whether the condition uses a non-linear operation ([`Term::Nl`]).
    pub fn nonlinear(&self) -> bool {
        match self {
            Cond::True | Cond::False | Cond::At(..) => false,
            Cond::Cmp(_, a, b) => a.nonlinear() || b.nonlinear(),
            Cond::Not(c) => c.nonlinear(),
            Cond::And(a, b) | Cond::Or(a, b) => a.nonlinear() || b.nonlinear(),
        }
    }

    /// Whether the condition mentions a thread location.
    pub fn mentions_locations(&self) -> bool {
        match self {
            Cond::True | Cond::False | Cond::Cmp(..) => false,
            Cond::At(..) => true,
            Cond::Not(c) => c.mentions_locations(),
            Cond::And(a, b) | Cond::Or(a, b) => a.mentions_locations() || b.mentions_locations(),
        }
    }
}

/// Displays an IR fragment with the program's names (used by the printer,
/// traces and error messages).
pub struct Named<'a, T: ?Sized> {
    /// The program that owns the names.
    pub program: &'a Program,
    /// The fragment.
    pub item: &'a T,
}

impl Program {
    /// Wraps a fragment for display with this program's names.
    pub fn named<'a, T: ?Sized>(&'a self, item: &'a T) -> Named<'a, T> {
        Named {
            program: self,
            item,
        }
    }
}

fn term_prec(t: &Term) -> u8 {
    match t {
        Term::Add(..) | Term::Sub(..) => 1,
        Term::Mul(..) | Term::Div(..) | Term::Mod(..) => 2,
        Term::Neg(..) => 3,
        Term::Const(k) if *k < 0 => 3,
        Term::Const(_) | Term::Var(_) | Term::Nl(..) | Term::Select(..) => 4,
    }
}

fn fmt_term(p: &Program, t: &Term, min_prec: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let prec = term_prec(t);
    let paren = prec < min_prec;
    if paren {
        f.write_str("(")?;
    }
    match t {
        Term::Const(k) => write!(f, "{k}")?,
        Term::Var(v) => f.write_str(&p.var(*v).name)?,
        Term::Add(a, b) => {
            fmt_term(p, a, 1, f)?;
            f.write_str(" + ")?;
            fmt_term(p, b, 2, f)?;
        }
        Term::Sub(a, b) => {
            fmt_term(p, a, 1, f)?;
            f.write_str(" - ")?;
            fmt_term(p, b, 2, f)?;
        }
        Term::Mul(k, a) => {
            write!(f, "{k} * ")?;
            fmt_term(p, a, 3, f)?;
        }
        Term::Div(a, k) => {
            fmt_term(p, a, 2, f)?;
            write!(f, " / {k}")?;
        }
        Term::Mod(a, k) => {
            fmt_term(p, a, 2, f)?;
            write!(f, " % {k}")?;
        }
        Term::Select(x, i) => {
            write!(f, "{}[", p.arrays[x.index()].name)?;
            fmt_term(p, i, 0, f)?;
            f.write_str("]")?;
        }
        Term::Nl(op, a, b) => {
            write!(f, "{}(", op.name())?;
            fmt_term(p, a, 0, f)?;
            f.write_str(", ")?;
            fmt_term(p, b, 0, f)?;
            f.write_str(")")?;
        }
        // `-3` reads back as the literal `Const(-3)`, so the negation of a
        // non-negative literal needs parentheses: `-(3)`.
        Term::Neg(a) if matches!(**a, Term::Const(k) if k >= 0) => {
            f.write_str("-(")?;
            fmt_term(p, a, 0, f)?;
            f.write_str(")")?;
        }
        Term::Neg(a) => {
            f.write_str("-")?;
            fmt_term(p, a, 4, f)?;
        }
    }
    if paren {
        f.write_str(")")?;
    }
    Ok(())
}

fn cond_prec(c: &Cond) -> u8 {
    match c {
        Cond::Or(..) => 1,
        Cond::And(..) => 2,
        Cond::Not(..) => 3,
        _ => 4,
    }
}

fn fmt_cond(p: &Program, c: &Cond, min_prec: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let prec = cond_prec(c);
    let paren = prec < min_prec;
    if paren {
        f.write_str("(")?;
    }
    match c {
        Cond::True => f.write_str("true")?,
        Cond::False => f.write_str("false")?,
        Cond::Cmp(op, a, b) => {
            fmt_term(p, a, 1, f)?;
            write!(f, " {} ", op.symbol())?;
            fmt_term(p, b, 1, f)?;
        }
        Cond::At(t, l) => write!(f, "{}@{}", p.thread(*t).name, p.loc_name(*t, *l))?,
        Cond::Not(a) => {
            f.write_str("!")?;
            fmt_cond(p, a, 4, f)?;
        }
        Cond::And(a, b) => {
            fmt_cond(p, a, 2, f)?;
            f.write_str(" && ")?;
            fmt_cond(p, b, 3, f)?;
        }
        Cond::Or(a, b) => {
            fmt_cond(p, a, 1, f)?;
            f.write_str(" || ")?;
            fmt_cond(p, b, 2, f)?;
        }
    }
    if paren {
        f.write_str(")")?;
    }
    Ok(())
}

impl fmt::Display for Named<'_, Term> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_term(self.program, self.item, 0, f)
    }
}

impl fmt::Display for Named<'_, Cond> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_cond(self.program, self.item, 0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::{disjunction, CmpOp, Cond, Term, VarId};
    use crate::interp::eval_term;

    fn depth(c: &Cond) -> usize {
        match c {
            Cond::Not(a) => 1 + depth(a),
            Cond::And(a, b) | Cond::Or(a, b) => 1 + depth(a).max(depth(b)),
            _ => 1,
        }
    }

    #[test]
    fn many_error_conditions_make_a_shallow_disjunction() {
        // Thousands of race conditions: a chain this long overflowed the
        // stack of every recursive walk (`linear::cond_to_formula` first).
        let n = 100_000;
        let conds = (0..n).map(|k| Cond::Cmp(CmpOp::Eq, Term::Var(VarId::new(0)), Term::Const(k)));
        let d = disjunction(conds);
        assert_eq!(depth(&d), 18);
        let f = crate::linear::cond_to_formula(&d, true);
        assert!(matches!(f, crate::linear::Formula::Or(_)));
        assert_eq!(disjunction([]), Cond::False);
    }

    #[test]
    fn literals_beyond_64_bits_evaluate_to_their_value() {
        let two = |k: u32| 1i128 << k;
        for v in [
            0,
            -1,
            i128::from(i64::MAX),
            i128::from(i64::MIN),
            i128::from(i64::MAX) + 1,
            i128::from(i64::MIN) - 1,
            two(64),
            two(64) - 1,
            -two(64),
            -two(64) + 5,
            two(100) + 12345,
            two(120),
            -two(120),
        ] {
            let t = Term::literal(v).expect("within 2^120");
            assert_eq!(eval_term(&t, &[]).unwrap(), v, "{t:?}");
            assert_eq!(matches!(t, Term::Const(_)), i64::try_from(v).is_ok());
        }
        assert_eq!(Term::literal(two(120) + 1), None);
        assert_eq!(Term::literal(i128::MIN), None);
    }
}
