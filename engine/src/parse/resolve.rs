//! From the syntax tree to the IR: name resolution and the static checks
//! that the grammar alone does not express.
//!
//! Declarations are collected before anything is resolved, so a name may be
//! used before (above) its declaration. Every error is collected.

use std::collections::HashMap;

use super::ast::*;
use super::ParseError;
use crate::ir::*;

/// Where a condition occurs (location conditions are allowed everywhere:
/// in a guard `p@L` reads another thread's location, in `init` it is
/// evaluated at the initial locations).
#[derive(Clone, Copy, PartialEq, Eq)]
enum CondCtx {
    Guard,
    Init,
    Error,
}

struct ThreadInfo<'a> {
    span: Span,
    locs: HashMap<&'a str, LocId>,
}

pub(super) struct Resolver<'a> {
    program: Program,
    errors: Vec<ParseError>,
    vars: HashMap<&'a str, (VarId, Span)>,
    arrays: HashMap<&'a str, (ArrayId, Span)>,
    threads: HashMap<&'a str, ThreadId>,
    thread_info: Vec<ThreadInfo<'a>>,
}

pub(super) fn resolve(items: &[Item<'_>]) -> Result<Program, Vec<ParseError>> {
    let mut r = Resolver {
        program: Program::default(),
        errors: Vec::new(),
        vars: HashMap::new(),
        arrays: HashMap::new(),
        threads: HashMap::new(),
        thread_info: Vec::new(),
    };
    for item in items {
        match item {
            Item::Var(vars) => vars.iter().for_each(|v| r.declare_var(v)),
            Item::Thread(t) => r.declare_thread(t),
            Item::Init(_) | Item::Error(_) => {}
        }
    }
    let mut labels: HashMap<&str, Span> = HashMap::new();
    let mut thread_index = 0;
    for item in items {
        match item {
            Item::Thread(t) => {
                r.transitions(ThreadId::new(thread_index), t, &mut labels);
                thread_index += 1;
            }
            Item::Init(e) => {
                if let Some(c) = r.cond(e, CondCtx::Init) {
                    r.program.init.push(c);
                }
            }
            Item::Error(e) => {
                if let Some(c) = r.cond(e, CondCtx::Error) {
                    r.program.error.push(c);
                }
            }
            Item::Var(_) => {}
        }
    }
    if r.errors.is_empty() {
        Ok(r.program)
    } else {
        r.errors.sort_by_key(|e| e.span.start);
        Err(r.errors)
    }
}

impl<'a> Resolver<'a> {
    /// A resolver of conditions over the names of an existing program (for
    /// certificates): its variables, threads and locations.
    pub(super) fn for_program(program: &'a Program) -> Self {
        let vars = program
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| (v.name.as_str(), (VarId::new(i), Span::default())))
            .collect();
        let arrays = program
            .arrays
            .iter()
            .enumerate()
            .map(|(i, a)| (a.name.as_str(), (ArrayId::new(i), Span::default())))
            .collect();
        let threads = program
            .threads
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.as_str(), ThreadId::new(i)))
            .collect();
        let thread_info = program
            .threads
            .iter()
            .enumerate()
            .map(|(i, t)| ThreadInfo {
                span: program
                    .source_map
                    .threads
                    .get(i)
                    .copied()
                    .unwrap_or_default(),
                locs: t
                    .locs
                    .iter()
                    .enumerate()
                    .map(|(l, name)| (name.as_str(), LocId::new(l)))
                    .collect(),
            })
            .collect();
        Resolver {
            program: Program {
                threads: program.threads.clone(),
                ..Program::default()
            },
            errors: Vec::new(),
            vars,
            arrays,
            threads,
            thread_info,
        }
    }

    /// Resolves a condition (locations allowed), or records why not.
    pub(super) fn condition(&mut self, e: &Expr<'a>) -> Option<Cond> {
        self.cond(e, CondCtx::Error)
    }

    /// The errors recorded so far, removed.
    pub(super) fn take_errors(&mut self) -> Vec<ParseError> {
        std::mem::take(&mut self.errors)
    }

    fn declare_var(&mut self, v: &VarItem<'a>) {
        let first = self.vars.get(v.name.text).map(|d| d.1);
        if let Some(first) = first.or_else(|| self.arrays.get(v.name.text).map(|d| d.1)) {
            self.errors.push(
                ParseError::new(v.name.span, format!("duplicate variable `{}`", v.name.text))
                    .with_label(first, "first declared here"),
            );
            return;
        }
        let init = v
            .init
            .and_then(|(negative, m, span)| self.literal(negative, m, span));
        if v.array {
            let id = ArrayId::new(self.program.arrays.len());
            self.arrays.insert(v.name.text, (id, v.name.span));
            self.program.arrays.push(ArrayDecl {
                name: v.name.text.to_string(),
                init,
            });
            self.program.source_map.arrays.push(v.span);
            return;
        }
        let id = VarId::new(self.program.vars.len());
        self.vars.insert(v.name.text, (id, v.name.span));
        self.program.vars.push(VarDecl {
            name: v.name.text.to_string(),
            init,
        });
        self.program.source_map.vars.push(v.span);
    }

    fn declare_thread(&mut self, t: &ThreadDecl<'a>) {
        let id = ThreadId::new(self.program.threads.len());
        if let Some(&first) = self.threads.get(t.name.text) {
            let first_span = self.thread_info[first.index()].span;
            self.errors.push(
                ParseError::new(t.name.span, format!("duplicate thread `{}`", t.name.text))
                    .with_label(first_span, "first declared here"),
            );
        } else {
            self.threads.insert(t.name.text, id);
        }
        // A duplicate thread is still built, so that its body is checked.
        let mut locs = HashMap::new();
        let mut names = Vec::new();
        let endpoints = t.transitions.iter().flat_map(|tr| [tr.from, tr.to]);
        for loc in std::iter::once(t.initial).chain(endpoints) {
            locs.entry(loc.text).or_insert_with(|| {
                names.push(loc.text.to_string());
                LocId::new(names.len() - 1)
            });
        }
        self.program.threads.push(Thread {
            name: t.name.text.to_string(),
            locs: names,
            initial: LocId::new(0),
            transitions: Vec::new(),
        });
        self.program.source_map.threads.push(t.header_span);
        self.thread_info.push(ThreadInfo {
            span: t.header_span,
            locs,
        });
    }

    fn transitions(
        &mut self,
        thread: ThreadId,
        t: &ThreadDecl<'a>,
        labels: &mut HashMap<&'a str, Span>,
    ) {
        for (n, tr) in t.transitions.iter().enumerate() {
            let label = match tr.label {
                Some(l) => {
                    if let Some(&first) = labels.get(l.text) {
                        self.errors.push(
                            ParseError::new(l.span, format!("duplicate label `{}`", l.text))
                                .with_label(first, "first used here")
                                .with_note("labels name transitions in traces and must be unique"),
                        );
                    } else {
                        labels.insert(l.text, l.span);
                    }
                    l.text.to_string()
                }
                None => format!("{}.{}", t.name.text, n + 1),
            };
            let guard = match &tr.guard {
                Some(g) => self.cond(g, CondCtx::Guard),
                None => Some(Cond::True),
            };
            let mut assigns = Vec::new();
            let mut stores = Vec::new();
            let mut assigned: HashMap<VarId, Span> = HashMap::new();
            for a in &tr.assigns {
                if let Some(index) = &a.index {
                    if let Some(store) = self.store(a.var, index, a.rhs.as_ref()) {
                        stores.push(store);
                    }
                    continue;
                }
                let var = self.var(a.var);
                let rhs = match &a.rhs {
                    Some(e) => self.term(e).map(Rhs::Expr),
                    None => Some(Rhs::Nondet),
                };
                let Some(var) = var else { continue };
                if let Some(&first) = assigned.get(&var) {
                    self.errors.push(
                        ParseError::new(
                            a.var.span,
                            format!(
                                "variable `{}` is assigned twice in one transition",
                                a.var.text
                            ),
                        )
                        .with_label(first, "first assigned here")
                        .with_note(
                            "assignments are simultaneous: a transition assigns \
                             each variable at most once",
                        ),
                    );
                    continue;
                }
                assigned.insert(var, a.var.span);
                if let Some(rhs) = rhs {
                    assigns.push(Assign { var, rhs });
                }
            }
            let info = &self.thread_info[thread.index()];
            let (Some(&from), Some(&to)) = (info.locs.get(tr.from.text), info.locs.get(tr.to.text))
            else {
                // Unreachable: every endpoint was registered as a location.
                continue;
            };
            self.program.push_transition(
                Transition {
                    thread,
                    label,
                    explicit_label: tr.label.is_some(),
                    from,
                    to,
                    guard: guard.unwrap_or(Cond::True),
                    assigns,
                    stores,
                },
                Some(tr.span),
            );
        }
    }

    /// `name[index] := rhs`.
    fn store(&mut self, name: Name<'a>, index: &Expr<'a>, rhs: Option<&Expr<'a>>) -> Option<Store> {
        let array = self.array(name);
        let index = self.term(index);
        let value = match rhs {
            Some(e) => self.term(e),
            None => {
                self.errors.push(
                    ParseError::new(
                        name.span,
                        "an array element cannot be assigned `*`".to_string(),
                    )
                    .with_note("assign `*` to a variable, and store the variable"),
                );
                None
            }
        };
        Some(Store {
            array: array?,
            index: index?,
            value: value?,
        })
    }

    fn array(&mut self, name: Name<'a>) -> Option<ArrayId> {
        if let Some(&(id, _)) = self.arrays.get(name.text) {
            return Some(id);
        }
        let mut err = ParseError::new(name.span, format!("undeclared array `{}`", name.text));
        if self.vars.contains_key(name.text) {
            err.notes
                .push(format!("`{}` is a variable, not an array", name.text));
        } else {
            err.notes
                .push(format!("declare it with `var {}[];`", name.text));
        }
        self.errors.push(err);
        None
    }

    fn var(&mut self, name: Name<'a>) -> Option<VarId> {
        if let Some(&(id, _)) = self.vars.get(name.text) {
            return Some(id);
        }
        let mut err = ParseError::new(name.span, format!("undeclared variable `{}`", name.text));
        if self.arrays.contains_key(name.text) {
            err.notes.push(format!(
                "`{0}` is an array; its elements are `{0}[i]`",
                name.text
            ));
        } else if self.threads.contains_key(name.text) {
            err.notes.push(format!(
                "`{0}` is a thread; `{0}@LOC` tests whether it is at location LOC",
                name.text
            ));
        } else {
            err.notes
                .push(format!("declare it with `var {};`", name.text));
        }
        self.errors.push(err);
        None
    }

    /// A literal's value, reporting it when it is out of range.
    fn literal(&mut self, negative: bool, m: Magnitude, span: Span) -> Option<i64> {
        let value = m.and_then(|m| {
            let m = i128::from(m);
            i64::try_from(if negative { -m } else { m }).ok()
        });
        if value.is_none() {
            self.errors.push(
                ParseError::new(span, "integer literal out of range".to_string()).with_note(
                    "integer literals must lie between -9223372036854775808 and \
                     9223372036854775807 (64-bit)",
                ),
            );
        }
        value
    }

    fn term(&mut self, e: &Expr<'a>) -> Option<Term> {
        match &e.kind {
            ExprKind::Int(m) => self.literal(false, *m, e.span).map(Term::Const),
            ExprKind::NegInt(m) => self.literal(true, *m, e.span).map(Term::Const),
            ExprKind::Var(name) => self
                .var(Name {
                    text: name,
                    span: e.span,
                })
                .map(Term::Var),
            ExprKind::Select(name, i) => {
                let (array, i) = (self.array(*name), self.term(i));
                Some(Term::Select(array?, Box::new(i?)))
            }
            ExprKind::Neg(a) => Some(Term::Neg(Box::new(self.term(a)?))),
            ExprKind::Arith(op, a, b) => {
                let (a_term, b_term) = (self.term(a), self.term(b));
                let (a_term, b_term) = (a_term?, b_term?);
                match op {
                    ArithOp::Add => Some(Term::Add(Box::new(a_term), Box::new(b_term))),
                    ArithOp::Sub => Some(Term::Sub(Box::new(a_term), Box::new(b_term))),
                    ArithOp::Mul => self.product(e.span, a_term, b_term),
                    ArithOp::Div => self.division(e.span, b.span, a_term, b_term, Term::Div),
                    ArithOp::Mod => self.division(e.span, b.span, a_term, b_term, Term::Mod),
                }
            }
            ExprKind::Paren(a) => self.term(a),
            ExprKind::Call(name, a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                let Some(op) = NlOp::from_name(name.text) else {
                    let names: Vec<&str> = NlOp::ALL.iter().map(|o| o.name()).collect();
                    self.errors.push(
                        ParseError::new(name.span, format!("unknown operation `{}`", name.text))
                            .with_note(format!("the operations are {}", names.join(", "))),
                    );
                    return None;
                };
                Some(Term::Nl(op, Box::new(a?), Box::new(b?)))
            }
            ExprKind::Bool(_)
            | ExprKind::At { .. }
            | ExprKind::Cmp(..)
            | ExprKind::Not(_)
            | ExprKind::And(..)
            | ExprKind::Or(..) => {
                self.errors.push(ParseError::new(
                    e.span,
                    "expected an integer expression, found a condition".to_string(),
                ));
                None
            }
        }
    }

    /// `a * b` where one side must be constant; the constant side (the
    /// left one when both are) becomes the coefficient.
    fn product(&mut self, span: Span, a: Term, b: Term) -> Option<Term> {
        for (k, other) in [(&a, &b), (&b, &a)] {
            if is_constant(k) {
                let Some(k) = eval_constant(k) else {
                    self.errors.push(ParseError::new(
                        span,
                        "integer overflow in constant expression".to_string(),
                    ));
                    return None;
                };
                return Some(Term::Mul(k, Box::new(other.clone())));
            }
        }
        self.errors.push(
            ParseError::new(
                span,
                "non-linear product: neither side of `*` is an integer literal".to_string(),
            )
            .with_note("arithmetic is linear: one side of every `*` must be a constant"),
        );
        None
    }

    /// `a / k` or `a % k`: the divisor must be a positive constant.
    fn division(
        &mut self,
        span: Span,
        divisor_span: Span,
        a: Term,
        b: Term,
        make: fn(Box<Term>, i64) -> Term,
    ) -> Option<Term> {
        let k = if is_constant(&b) {
            eval_constant(&b)
        } else {
            None
        };
        match k {
            Some(k) if k > 0 => Some(make(Box::new(a), k)),
            Some(_) => {
                self.errors.push(
                    ParseError::new(divisor_span, "the divisor must be positive".to_string())
                        .with_note("`/` and `%` divide by a positive constant (Euclidean division: the remainder is in 0..k)"),
                );
                None
            }
            None => {
                self.errors.push(
                    ParseError::new(
                        span,
                        "non-linear division: the divisor is not a constant".to_string(),
                    )
                    .with_note("`/` and `%` divide by a positive integer literal"),
                );
                None
            }
        }
    }

    fn cond(&mut self, e: &Expr<'a>, ctx: CondCtx) -> Option<Cond> {
        match &e.kind {
            ExprKind::Bool(true) => Some(Cond::True),
            ExprKind::Bool(false) => Some(Cond::False),
            ExprKind::At { thread, loc } => self.at(e.span, *thread, *loc, ctx),
            ExprKind::Cmp(op, a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                Some(Cond::Cmp(*op, a?, b?))
            }
            ExprKind::Not(a) => Some(Cond::Not(Box::new(self.cond(a, ctx)?))),
            ExprKind::And(a, b) => {
                let (a, b) = (self.cond(a, ctx), self.cond(b, ctx));
                Some(Cond::And(Box::new(a?), Box::new(b?)))
            }
            ExprKind::Or(a, b) => {
                let (a, b) = (self.cond(a, ctx), self.cond(b, ctx));
                Some(Cond::Or(Box::new(a?), Box::new(b?)))
            }
            ExprKind::Paren(a) => self.cond(a, ctx),
            ExprKind::Int(_)
            | ExprKind::NegInt(_)
            | ExprKind::Var(_)
            | ExprKind::Select(..)
            | ExprKind::Neg(_)
            | ExprKind::Arith(..)
            | ExprKind::Call(..) => {
                let mut err = ParseError::new(
                    e.span,
                    "expected a condition, found an integer expression".to_string(),
                );
                if let ExprKind::Var(name) = e.kind {
                    err.notes.push(format!(
                        "compare it to get a condition, as in `{name} != 0`"
                    ));
                }
                self.errors.push(err);
                None
            }
        }
    }

    fn at(&mut self, _span: Span, thread: Name<'a>, loc: Name<'a>, _ctx: CondCtx) -> Option<Cond> {
        let Some(&tid) = self.threads.get(thread.text) else {
            let mut names: Vec<&str> = Vec::new();
            for t in &self.program.threads {
                if !names.contains(&t.name.as_str()) {
                    names.push(&t.name);
                }
            }
            let note = if names.is_empty() {
                "the program declares no threads".to_string()
            } else {
                format!("declared threads: {}", names.join(", "))
            };
            self.errors.push(
                ParseError::new(thread.span, format!("undeclared thread `{}`", thread.text))
                    .with_note(note),
            );
            return None;
        };
        let info = &self.thread_info[tid.index()];
        if let Some(&l) = info.locs.get(loc.text) {
            return Some(Cond::At(tid, l));
        }
        let header = info.span;
        let locs = &self.program.threads[tid.index()].locs;
        const SHOWN: usize = 20;
        let mut list = locs
            .iter()
            .take(SHOWN)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        if locs.len() > SHOWN {
            list.push_str(", ...");
        }
        self.errors.push(
            ParseError::new(
                loc.span,
                format!("thread `{}` has no location `{}`", thread.text, loc.text),
            )
            .with_label(header, "thread declared here")
            .with_note(format!(
                "the locations of `{}` (those its header and transitions mention) are: {list}",
                thread.text
            )),
        );
        None
    }
}

fn is_constant(t: &Term) -> bool {
    let mut has_var = false;
    t.for_each_var(&mut |_| has_var = true);
    t.for_each_array(&mut |_| has_var = true);
    !has_var
}

/// The value of a variable-free term; `None` on overflow.
fn eval_constant(t: &Term) -> Option<i64> {
    match t {
        Term::Const(k) => Some(*k),
        Term::Var(_) | Term::Select(..) => None,
        Term::Add(a, b) => eval_constant(a)?.checked_add(eval_constant(b)?),
        Term::Sub(a, b) => eval_constant(a)?.checked_sub(eval_constant(b)?),
        Term::Mul(k, a) => k.checked_mul(eval_constant(a)?),
        Term::Neg(a) => eval_constant(a)?.checked_neg(),
        Term::Div(a, k) => Some(eval_constant(a)?.div_euclid(*k)),
        Term::Mod(a, k) => Some(eval_constant(a)?.rem_euclid(*k)),
        Term::Nl(op, a, b) => {
            let v = op.apply(eval_constant(a)?.into(), eval_constant(b)?.into())?;
            i64::try_from(v).ok()
        }
    }
}
