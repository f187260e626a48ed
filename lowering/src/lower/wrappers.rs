//! Allocation wrappers (SOUNDNESS.md, "Allocation wrappers"): a function
//! such as
//!
//! ```c
//! void *xmalloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }
//! ```
//!
//! whose body only allocates with `malloc`/`calloc` of its parameters,
//! tests the result for null, and returns it. Without
//! `--malloc-may-fail` the allocation never fails, so the null tests never
//! hold and a call `xmalloc(e)` is the call `malloc(e)`: [`Wrappers::expand`]
//! gives that call, with the arguments in place of the parameters, so that
//! the models that recognise an allocation by its form (arrays of thread
//! handles, arrays of run-time length: `xmalloc(n * sizeof(int))` holds
//! `n` elements) see it through the wrapper; every call of a wrapper is
//! lowered as that allocation (`Lowerer::wrapped_allocation`).
//!
//! The call is the same as the wrapper's when
//!
//! - every parameter occurs exactly once in the allocation's arguments,
//!   outside `sizeof`, and they name nothing else (a global could be
//!   shadowed at the caller);
//! - the arguments of the wrapper's call are pure (no calls, assignments,
//!   increments, accesses through pointers), so evaluating each once, at
//!   another moment, gives the same value and effects;
//! - every parameter's type holds every value in `[0, SIZE_MAX]`
//!   ([`Wrapper::counts`]), so that converting the argument to it changes
//!   no value an allocation that does not give up is made with (its users
//!   give up on a negative count and on a byte count beyond `SIZE_MAX`).

use std::collections::HashMap;

use frontend::lang_c::ast::{
    BinaryOperator as B, BlockItem, CallExpression, Declaration, DerivedDeclarator, Expression,
    FunctionDefinition, Initializer, Statement, UnaryOperator as U,
};
use frontend::lang_c::span::Node;

use super::buffers::allocation;
use crate::types::CType;

/// One allocation wrapper.
#[derive(Clone, Debug)]
pub(crate) struct Wrapper<'a> {
    /// Its parameters' names, in order.
    params: Vec<String>,
    /// The allocation its body makes.
    call: &'a CallExpression,
}

/// The allocation wrappers of a translation unit, by name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Wrappers<'a>(HashMap<String, Wrapper<'a>>);

impl<'a> Wrappers<'a> {
    /// The wrappers among `functions`; `params` gives a definition's
    /// parameters (`None`: unknown).
    pub(crate) fn find(
        functions: &HashMap<String, &'a Node<FunctionDefinition>>,
        mut params: impl FnMut(&'a Node<FunctionDefinition>) -> Option<Vec<(Option<String>, CType)>>,
        size_max: i128,
    ) -> Wrappers<'a> {
        let mut found = HashMap::new();
        for (name, &def) in functions {
            let Some(call) = allocating_body(&def.node) else {
                continue;
            };
            let Some(params) = params(def) else {
                continue;
            };
            let counts =
                |t: &CType| matches!(t, CType::Int(i) if i.min() <= 0 && i.max() >= size_max);
            let names: Option<Vec<String>> = params
                .into_iter()
                .map(|(n, t)| n.filter(|_| counts(&t)))
                .collect();
            let Some(names) = names else {
                continue;
            };
            let once = names.iter().all(|p| {
                call.arguments
                    .iter()
                    .map(|a| occurrences(&a.node, p))
                    .try_fold(0, |acc, k| k.map(|k| acc + k))
                    == Some(1)
            });
            let only_params = call
                .arguments
                .iter()
                .all(|a| pure(&a.node, &mut |id| names.iter().any(|p| p == id)));
            if once && only_params && !names.is_empty() {
                found.insert(
                    name.clone(),
                    Wrapper {
                        params: names,
                        call,
                    },
                );
            }
        }
        Wrappers(found)
    }

    /// `w(args)` (under casts), `w` a wrapper and `args` pure: the
    /// allocation it makes, its parameters replaced by the arguments.
    pub(crate) fn expand(&self, e: &Expression) -> Option<CallExpression> {
        match e {
            Expression::Cast(c) => self.expand(&c.node.expression.node),
            Expression::Call(c) => self.expand_call(&c.node),
            _ => None,
        }
    }

    /// `w(args)`, `w` a wrapper and `args` pure: the allocation it makes,
    /// its parameters replaced by the arguments.
    pub(crate) fn expand_call(&self, call: &CallExpression) -> Option<CallExpression> {
        let Expression::Identifier(f) = &call.callee.node else {
            return None;
        };
        let w = self.0.get(&f.node.name)?;
        if call.arguments.len() != w.params.len()
            || !call.arguments.iter().all(|a| pure(&a.node, &mut |_| true))
        {
            return None;
        }
        let args: HashMap<&str, &Node<Expression>> = w
            .params
            .iter()
            .map(String::as_str)
            .zip(&call.arguments)
            .collect();
        let mut out = w.call.clone();
        for a in &mut out.arguments {
            substitute(a, &args);
        }
        Some(out)
    }
}

/// The allocation of a body `return ALLOC;` or `T *p = ALLOC; [if (NULL
/// TEST OF p) S;]... return p;` (under casts).
fn allocating_body(def: &FunctionDefinition) -> Option<&CallExpression> {
    let returns_pointer = def
        .declarator
        .node
        .derived
        .iter()
        .any(|d| matches!(d.node, DerivedDeclarator::Pointer(_)));
    let Statement::Compound(items) = &def.statement.node else {
        return None;
    };
    if !returns_pointer || !def.declarations.is_empty() {
        return None;
    }
    match items.as_slice() {
        [only] => allocation(returned(only)?),
        [first, tests @ .., last] => {
            let BlockItem::Declaration(d) = &first.node else {
                return None;
            };
            let (p, call) = allocated_local(&d.node)?;
            let null_tests = tests.iter().all(|t| match &t.node {
                BlockItem::Statement(s) => match &s.node {
                    Statement::If(i) => {
                        i.node.else_statement.is_none() && is_null_test(&i.node.condition.node, p)
                    }
                    _ => false,
                },
                _ => false,
            });
            let returns_p = returned(last).and_then(named) == Some(p);
            (null_tests && returns_p).then_some(call)
        }
        [] => None,
    }
}

/// `return e;`: `e`.
fn returned(item: &Node<BlockItem>) -> Option<&Expression> {
    match &item.node {
        BlockItem::Statement(s) => match &s.node {
            Statement::Return(Some(e)) => Some(&e.node),
            _ => None,
        },
        _ => None,
    }
}

/// `T *p = ALLOC;` (one declarator): `p` and the allocation.
fn allocated_local(d: &Declaration) -> Option<(&str, &CallExpression)> {
    let [one] = d.declarators.as_slice() else {
        return None;
    };
    let Some(Node {
        node: Initializer::Expression(e),
        ..
    }) = &one.node.initializer
    else {
        return None;
    };
    let name = match &one.node.declarator.node.kind.node {
        frontend::lang_c::ast::DeclaratorKind::Identifier(id) => id.node.name.as_str(),
        _ => return None,
    };
    Some((name, allocation(&e.node)?))
}

/// The identifier `e` is (under casts).
fn named(e: &Expression) -> Option<&str> {
    match e {
        Expression::Cast(c) => named(&c.node.expression.node),
        Expression::Identifier(id) => Some(&id.node.name),
        _ => None,
    }
}

/// `!p`, `p == 0`, `0 == p` (`NULL` is `(void *)0`).
fn is_null_test(e: &Expression, p: &str) -> bool {
    null_test(e) == Some((p, true))
}

/// A test of a pointer `p` against null: `!p`, `p == 0` or `0 == p`
/// (`(p, true)`: true when `p` is null), `p != 0` or `0 != p` (`(p,
/// false)`); `NULL` is `(void *)0`, `p` may be cast.
pub(crate) fn null_test(e: &Expression) -> Option<(&str, bool)> {
    let zero = |e: &Expression| match e {
        Expression::Cast(c) => matches!(
            &c.node.expression.node,
            Expression::Constant(k) if is_zero(&k.node)
        ),
        Expression::Constant(k) => is_zero(&k.node),
        _ => false,
    };
    match e {
        Expression::UnaryOperator(u) if u.node.operator.node == U::Negate => {
            Some((named(&u.node.operand.node)?, true))
        }
        Expression::BinaryOperator(b)
            if matches!(b.node.operator.node, B::Equals | B::NotEquals) =>
        {
            let (l, r) = (&b.node.lhs.node, &b.node.rhs.node);
            let p = match (named(l), named(r)) {
                (Some(p), _) if zero(r) => p,
                (_, Some(p)) if zero(l) => p,
                _ => return None,
            };
            Some((p, b.node.operator.node == B::Equals))
        }
        _ => None,
    }
}

fn is_zero(k: &frontend::lang_c::ast::Constant) -> bool {
    matches!(k, frontend::lang_c::ast::Constant::Integer(i) if i.number.trim_start_matches('0').is_empty())
}

/// Whether `e` is pure: identifiers (each accepted by `name`, as the
/// names under `sizeof` are), constants, `sizeof`, casts and arithmetic,
/// comparison and logical operators.
fn pure(e: &Expression, name: &mut dyn FnMut(&str) -> bool) -> bool {
    match e {
        Expression::Identifier(id) => name(&id.node.name),
        Expression::Constant(_) => true,
        // The operand of `sizeof` is not evaluated, but its names (of
        // objects, types and tags) give its type.
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => {
            identifiers(e).iter().all(|id| name(id))
        }
        Expression::Cast(c) => pure(&c.node.expression.node, name),
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                U::Plus | U::Minus | U::Complement | U::Negate
            ) && pure(&u.node.operand.node, name)
        }
        Expression::BinaryOperator(b) => {
            use B::*;
            matches!(
                b.node.operator.node,
                Multiply
                    | Divide
                    | Modulo
                    | Plus
                    | Minus
                    | ShiftLeft
                    | ShiftRight
                    | Less
                    | Greater
                    | LessOrEqual
                    | GreaterOrEqual
                    | Equals
                    | NotEquals
                    | BitwiseAnd
                    | BitwiseXor
                    | BitwiseOr
                    | LogicalAnd
                    | LogicalOr
            ) && pure(&b.node.lhs.node, name)
                && pure(&b.node.rhs.node, name)
        }
        Expression::Conditional(c) => {
            pure(&c.node.condition.node, name)
                && pure(&c.node.then_expression.node, name)
                && pure(&c.node.else_expression.node, name)
        }
        _ => false,
    }
}

/// How often `p` occurs in the pure expression `e` (`None`: inside a
/// `sizeof`, where the argument's type would replace the parameter's).
fn occurrences(e: &Expression, p: &str) -> Option<usize> {
    let both = |a: &Expression, b: &Expression| Some(occurrences(a, p)? + occurrences(b, p)?);
    match e {
        Expression::Identifier(id) => Some(usize::from(id.node.name == p)),
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => {
            (!identifiers(e).iter().any(|id| id == p)).then_some(0)
        }
        Expression::Cast(c) => occurrences(&c.node.expression.node, p),
        Expression::UnaryOperator(u) => occurrences(&u.node.operand.node, p),
        Expression::BinaryOperator(b) => both(&b.node.lhs.node, &b.node.rhs.node),
        Expression::Conditional(c) => Some(
            occurrences(&c.node.condition.node, p)?
                + both(&c.node.then_expression.node, &c.node.else_expression.node)?,
        ),
        _ => Some(0),
    }
}

/// The identifiers in `e`.
fn identifiers(e: &Expression) -> Vec<String> {
    use frontend::lang_c::visit::Visit;
    struct Names(Vec<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_identifier(
            &mut self,
            id: &'ast frontend::lang_c::ast::Identifier,
            _: &'ast frontend::lang_c::span::Span,
        ) {
            self.0.push(id.name.clone());
        }
    }
    let mut names = Names(Vec::new());
    names.visit_expression(e, &frontend::lang_c::span::Span::none());
    names.0
}

/// Replaces the parameters in the pure expression `e` by the arguments.
fn substitute(e: &mut Node<Expression>, args: &HashMap<&str, &Node<Expression>>) {
    match &mut e.node {
        Expression::Identifier(id) => {
            if let Some(a) = args.get(id.node.name.as_str()) {
                *e = (*a).clone();
            }
        }
        Expression::Cast(c) => substitute(&mut c.node.expression, args),
        Expression::UnaryOperator(u) => substitute(&mut u.node.operand, args),
        Expression::BinaryOperator(b) => {
            substitute(&mut b.node.lhs, args);
            substitute(&mut b.node.rhs, args);
        }
        Expression::Conditional(c) => {
            substitute(&mut c.node.condition, args);
            substitute(&mut c.node.then_expression, args);
            substitute(&mut c.node.else_expression, args);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use frontend::lang_c::ast::{DeclaratorKind, ExternalDeclaration, TranslationUnit};

    fn unit(src: &str) -> TranslationUnit {
        let config = frontend::lang_c::driver::Config::default();
        frontend::lang_c::driver::parse_preprocessed(&config, src.to_string())
            .expect("parses")
            .unit
    }

    fn functions(unit: &TranslationUnit) -> HashMap<String, &Node<FunctionDefinition>> {
        let mut out = HashMap::new();
        for ext in &unit.0 {
            if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
                if let DeclaratorKind::Identifier(id) = &f.node.declarator.node.kind.node {
                    out.insert(id.node.name.clone(), f);
                }
            }
        }
        out
    }

    /// The parameters of a definition, all taken to be `size_t`s.
    fn counts(def: &Node<FunctionDefinition>) -> Option<Vec<(Option<String>, CType)>> {
        let params = def
            .node
            .declarator
            .node
            .derived
            .iter()
            .find_map(|d| match &d.node {
                DerivedDeclarator::Function(f) => Some(&f.node.parameters),
                _ => None,
            })?;
        let name = |p: &Node<frontend::lang_c::ast::ParameterDeclaration>| match &p
            .node
            .declarator
            .as_ref()?
            .node
            .kind
            .node
        {
            DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
            _ => None,
        };
        let size_t = CType::Int(crate::types::IntTy::LLONG.with_sign(false));
        Some(params.iter().map(|p| (name(p), size_t.clone())).collect())
    }

    fn find<'a>(functions: &HashMap<String, &'a Node<FunctionDefinition>>) -> Wrappers<'a> {
        Wrappers::find(functions, counts, i128::from(u64::MAX))
    }

    #[test]
    fn wrappers_are_allocations_of_their_parameters() {
        let u = unit(
            "void *malloc(unsigned long);
             void *calloc(unsigned long, unsigned long);
             void abort(void);
             unsigned long g;
             void *a(unsigned long n) { void *p = malloc(n); if (!p) abort(); return p; }
             void *b(unsigned long n) { return malloc(n * 4); }
             void *c(unsigned long n, unsigned long s) {
               void *p = calloc(n, s); if (p == 0) { abort(); } return p;
             }
             void *twice(unsigned long n) { return calloc(n, n); }
             void *unused(unsigned long n, unsigned long m) { return malloc(n); }
             void *global(unsigned long n) { return malloc(n * g); }
             void *more(unsigned long n) { void *p = malloc(n); g = 1; return p; }
             void *other(unsigned long n) { void *p = malloc(n); void *q = p; return q; }
             void *sized(unsigned long n) { return malloc(sizeof n); }
             void *typed(unsigned long n) { return malloc(n * sizeof g); }
             typedef int T;
             void *named(unsigned long n) { return malloc(n * sizeof(T)); }
             void *builtin(unsigned long n) { return malloc(n * sizeof(int)); }",
        );
        let w = find(&functions(&u));
        let mut names: Vec<&String> = w.0.keys().collect();
        names.sort();
        assert_eq!(names, ["a", "b", "builtin", "c"]);
    }

    #[test]
    fn expansion_substitutes_pure_arguments_only() {
        let u = unit(
            "void *malloc(unsigned long);
             unsigned long f(void);
             void *a(unsigned long n) { return malloc(n * 4); }
             void use(unsigned long k) { a(k + 1); a(f()); a(k++); }",
        );
        let functions = functions(&u);
        let w = find(&functions);
        let Statement::Compound(items) = &functions["use"].node.statement.node else {
            panic!("a body");
        };
        let calls: Vec<&Expression> = items
            .iter()
            .filter_map(|i| match &i.node {
                BlockItem::Statement(s) => match &s.node {
                    Statement::Expression(Some(e)) => Some(&e.node),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let expanded = w.expand(calls[0]).expect("a pure argument");
        let Expression::BinaryOperator(b) = &expanded.arguments[0].node else {
            panic!("n * 4");
        };
        assert!(
            matches!(b.node.lhs.node, Expression::BinaryOperator(_)),
            "k + 1 in place of n"
        );
        assert!(w.expand(calls[1]).is_none());
        assert!(w.expand(calls[2]).is_none());
    }
}
