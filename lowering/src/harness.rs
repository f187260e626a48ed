//! Harness-free checking of library functions (`ase check --concurrent
//! NAME[:K],...`): the C text of a `main` that runs K threads per named
//! function, each calling it a nondeterministic number of times (zero or
//! more) with nondeterministic arguments, after an optional initialisation
//! call. The harness is plain C appended to the file's text (the front end's
//! `parse_file_with_appendix`), so it is lowered, checked and shown (`ase
//! lower`) like any program.
//!
//! Arguments: a parameter of a value type (structs too) gets an
//! uninitialised local of that type, declared anew for every call (any
//! value of the type); a pointer parameter gets the address of the one
//! object of the pointee type that the harness declares (zero-initialised
//! like a global, shared by every call of every thread: the question asked
//! is whether concurrent calls on the same object are safe). A pointer to
//! a pointer gets the address of a shared pointer to that object. A `void
//! *` parameter gets the address of the shared object of the type the
//! callee casts it to (`(T *)p`, or `T *x = p;`), else of a `long`. A
//! function-pointer parameter gets, at each call, any function of the file
//! with the same parameter and return types, or a harness function of that
//! type that does nothing (and returns 0). An initialisation function
//! (`--init`) that returns a `T *` is a constructor: the pointer it returns
//! is what the calls get for their `T *` parameters. `--init` and `--fini`
//! may give the call's arguments as C text (`pool_new(2, 8)`): they are used
//! as written, except `_`, which gets the argument above
//! (`pool_free(_, 0)`: the constructed object, then 0). A finalisation
//! function (`--fini`, a destructor) is called once after every thread
//! has been joined, with the same arguments.

use crate::error::LowerError;
use frontend::lang_c::ast::{
    DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, ExternalDeclaration,
    FunctionDeclarator, FunctionDefinition, StorageClassSpecifier, TypeQualifier, TypeSpecifier,
};
use frontend::lang_c::span::{Node, Span};
use frontend::ParsedUnit;
use std::fmt::Write as _;

/// Threads that call one function (`NAME[:K]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Concurrent {
    /// The function.
    pub function: String,
    /// How many threads call it.
    pub threads: u32,
}

/// The most threads per function.
pub const MAX_THREADS: u32 = 64;

/// Why a `--concurrent` list does not parse: the item at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConcurrentError {
    /// `NAME:K` with `K` not a number of threads.
    #[error("`{0}`: the number of threads must be an integer from 1 to {MAX_THREADS}")]
    Threads(String),
    /// An item that is not a function name.
    #[error("`{0}`: expected a function name, then optionally `:K`")]
    Name(String),
}

impl Concurrent {
    /// Parses `NAME[:K],...` (K defaults to 1).
    pub fn parse_list(s: &str) -> Result<Vec<Concurrent>, ConcurrentError> {
        s.split(',')
            .map(|item| {
                let item = item.trim();
                let (name, k) = match item.split_once(':') {
                    Some((n, k)) => {
                        let k = k
                            .trim()
                            .parse::<u32>()
                            .ok()
                            .filter(|k| (1..=MAX_THREADS).contains(k))
                            .ok_or_else(|| ConcurrentError::Threads(item.to_string()))?;
                        (n.trim(), k)
                    }
                    None => (item, 1),
                };
                let ident = name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !ident {
                    return Err(ConcurrentError::Name(item.to_string()));
                }
                Ok(Concurrent {
                    function: name.to_string(),
                    threads: k,
                })
            })
            .collect()
    }
}

/// Whether the unit defines a function of this name.
pub fn defines(unit: &ParsedUnit, name: &str) -> bool {
    definition(unit, name).is_some()
}

/// The definition of a function of the unit.
fn definition<'a>(unit: &'a ParsedUnit, name: &str) -> Option<&'a Node<FunctionDefinition>> {
    definitions(unit)
        .find(|f| crate::lower::declarator_name(&f.node.declarator.node).as_deref() == Some(name))
}

/// The function definitions of `unit`.
fn definitions(unit: &ParsedUnit) -> impl Iterator<Item = &Node<FunctionDefinition>> {
    unit.unit.0.iter().filter_map(|d| match &d.node {
        ExternalDeclaration::FunctionDefinition(f) => Some(f),
        _ => None,
    })
}

/// The function derivation (parameter list) among a declarator's.
fn function_of(derived: &[Node<DerivedDeclarator>]) -> Option<&Node<FunctionDeclarator>> {
    derived.iter().find_map(|dd| match &dd.node {
        DerivedDeclarator::Function(f) => Some(f),
        _ => None,
    })
}

/// How many pointer derivations a declarator has.
fn pointers(derived: &[Node<DerivedDeclarator>]) -> usize {
    derived
        .iter()
        .filter(|dd| matches!(dd.node, DerivedDeclarator::Pointer(_)))
        .count()
}

/// The type of a function declared with specifiers `ret` and derivations
/// `derived` (its return type's pointers among them), when its parameters
/// are plain ([`param_types`]).
fn fn_type(unit: &ParsedUnit, ret: &str, derived: &[Node<DerivedDeclarator>]) -> Option<FnType> {
    let f = function_of(derived)?;
    Some(FnType {
        ret: format!("{ret}{}", " *".repeat(pointers(derived))),
        params: param_types(unit, &f.node.parameters)?,
    })
}

/// The name the harness's positions carry.
pub const HARNESS_FILE: &str = "<ase --concurrent harness>";

/// What one argument of a call is.
enum Arg {
    /// An uninitialised local of this type.
    Value(String),
    /// The address of the shared object of this type.
    Object(String),
    /// The address of a shared pointer to the shared object of this type.
    PointerTo(String),
    /// A function of this type (return type, parameter types): a no-op
    /// one, or one of the file's functions of that type.
    Function(FnType),
}

/// A function type as text: the return type and the parameter types.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FnType {
    ret: String,
    params: Vec<String>,
}

/// The harness of `funcs` (with the initialisation call `init` first and
/// the finalisation call `fini` last) for the functions defined in `unit`.
pub fn harness(
    unit: &ParsedUnit,
    funcs: &[Concurrent],
    init: Option<&str>,
    fini: Option<&str>,
) -> Result<String, LowerError> {
    let find = |name: &str| definition(unit, name);
    if let Some(main) = find("main") {
        return Err(LowerError::invalid(
            main.span,
            "the file defines `main`; --concurrent builds its own (check the file without --concurrent)",
        ));
    }
    let whole = Span::span(0, 0);
    let mut objects: Vec<String> = Vec::new();
    let mut signature = |name: &str| -> Result<Vec<Arg>, LowerError> {
        let def = find(name).ok_or_else(|| {
            LowerError::invalid(
                whole,
                format!("--concurrent: no function `{name}` is defined in the file"),
            )
        })?;
        let args = arguments(unit, def)?;
        for a in &args {
            if let Arg::Object(ty) | Arg::PointerTo(ty) = a {
                if !objects.contains(ty) {
                    objects.push(ty.clone());
                }
            }
        }
        Ok(args)
    };
    let mut calls = Vec::new();
    for c in funcs {
        calls.push((c, signature(&c.function)?));
    }
    let (init, init_args) = match init.map(split_call) {
        Some((name, literal)) => (Some((name, signature(name)?)), literal),
        None => (None, None),
    };
    let (fini, fini_args) = match fini.map(split_call) {
        Some((name, literal)) => (Some((name, signature(name)?)), literal),
        None => (None, None),
    };

    let object = |ty: &str| objects.iter().position(|o| o == ty).expect("collected");
    // The function types of function-pointer parameters, each with the
    // file's functions of that type.
    let mut fn_types: Vec<FnType> = Vec::new();
    let all_args = calls
        .iter()
        .map(|(_, a)| a)
        .chain(init.iter().chain(&fini).map(|(_, a)| a));
    for args in all_args {
        for a in args {
            if let Arg::Function(t) = a {
                if !fn_types.contains(t) {
                    fn_types.push(t.clone());
                }
            }
        }
    }
    let fn_type = |t: &FnType| fn_types.iter().position(|f| f == t).expect("collected");
    // An initialisation function that returns a pointer makes the object
    // the calls get for that type (a constructor).
    let made = init
        .as_ref()
        .and_then(|(name, _)| constructed_type(unit, find(name)?));
    let call = |out: &mut String,
                indent: &str,
                name: &str,
                args: &[Arg],
                result: &str,
                literal: Option<&str>| {
        let written = literal.map(split_args).unwrap_or_default();
        let mut actual = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if let Some(text) = written.get(i).filter(|t| **t != "_") {
                actual.push(text.to_string());
                continue;
            }
            match a {
                Arg::Value(ty) => {
                    let _ = writeln!(out, "{indent}{ty} __ase_arg{i};");
                    actual.push(format!("__ase_arg{i}"));
                }
                Arg::Object(ty) if result.is_empty() && made.as_ref() == Some(ty) => {
                    actual.push("__ase_made".to_string())
                }
                Arg::Object(ty) => actual.push(format!("&__ase_object{}", object(ty))),
                Arg::PointerTo(ty) if result.is_empty() && made.as_ref() == Some(ty) => {
                    actual.push("&__ase_made".to_string())
                }
                Arg::PointerTo(ty) => actual.push(format!("&__ase_pointer{}", object(ty))),
                Arg::Function(t) => actual.push(format!("__ase_function{}()", fn_type(t))),
            }
        }
        let _ = writeln!(out, "{indent}{result}{name}({});", actual.join(", "));
    };

    // No comments: the text is parsed after preprocessing.
    let mut out = String::new();
    let _ = writeln!(out, "extern _Bool __VERIFIER_nondet_bool(void);");
    let pointed = |ty: &String| {
        let mut args = calls
            .iter()
            .map(|(_, a)| a)
            .chain(init.iter().chain(&fini).map(|(_, a)| a));
        args.any(|a| a.iter().any(|a| matches!(a, Arg::PointerTo(t) if t == ty)))
    };
    for (i, ty) in objects.iter().enumerate() {
        let _ = writeln!(out, "static {ty} __ase_object{i};");
        if pointed(ty) {
            let _ = writeln!(out, "static {ty} *__ase_pointer{i} = &__ase_object{i};");
        }
    }
    if let Some(ty) = &made {
        let _ = writeln!(out, "static {ty} *__ase_made;");
    }
    for (i, t) in fn_types.iter().enumerate() {
        write_functions(&mut out, unit, i, t);
    }
    for (c, args) in &calls {
        let _ = writeln!(
            out,
            "static void *__ase_calls_{}(void *__ase_unused) {{",
            c.function
        );
        let _ = writeln!(out, "  while (__VERIFIER_nondet_bool()) {{");
        call(&mut out, "    ", &c.function, args, "", None);
        let _ = writeln!(out, "  }}\n  return 0;\n}}");
    }
    let total: u32 = funcs.iter().map(|c| c.threads).sum();
    let _ = writeln!(out, "int main(void) {{");
    let _ = writeln!(out, "  pthread_t __ase_thread[{}];", total.max(1));
    if let Some((name, args)) = &init {
        let result = if made.is_some() { "__ase_made = " } else { "" };
        call(&mut out, "  ", name, args, result, init_args);
    }
    let mut k = 0;
    for c in funcs {
        for _ in 0..c.threads {
            let _ = writeln!(
                out,
                "  pthread_create(&__ase_thread[{k}], 0, __ase_calls_{}, 0);",
                c.function
            );
            k += 1;
        }
    }
    for i in 0..k {
        let _ = writeln!(out, "  pthread_join(__ase_thread[{i}], 0);");
    }
    if let Some((name, args)) = &fini {
        call(&mut out, "  ", name, args, "", fini_args);
    }
    let _ = writeln!(out, "  return 0;\n}}");
    Ok(out)
}

/// The arguments of a call's text, split at the commas outside brackets,
/// trimmed.
fn split_args(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text.trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
}

/// `NAME(ARGS)` as the name and the arguments' text; `NAME` alone as the
/// name.
pub fn split_call(spec: &str) -> (&str, Option<&str>) {
    let spec = spec.trim();
    match spec.split_once('(') {
        Some((name, rest)) if rest.ends_with(')') => (name.trim(), Some(&rest[..rest.len() - 1])),
        _ => (spec, None),
    }
}

/// The arguments a definition's parameters get.
fn arguments(unit: &ParsedUnit, def: &Node<FunctionDefinition>) -> Result<Vec<Arg>, LowerError> {
    let name = crate::lower::declarator_name(&def.node.declarator.node).unwrap_or_default();
    let Some(f) = function_of(&def.node.declarator.node.derived) else {
        return Ok(Vec::new()); // `f()`
    };
    let mut out = Vec::new();
    for p in &f.node.parameters {
        let ty = specifiers(unit, &p.node.specifiers);
        let shape = p.node.declarator.as_ref().map(|d| shape(&d.node));
        let refuse = |what: &str| {
            LowerError::unsupported(
                p.span,
                format!("--concurrent cannot build an argument of {what} for `{name}`; write a harness with a `main`"),
            )
        };
        match shape {
            None | Some(Some(0)) if ty == "void" => {}
            None | Some(Some(0)) => out.push(Arg::Value(ty)),
            Some(Some(1)) if ty == "void" => {
                let param = p
                    .node
                    .declarator
                    .as_ref()
                    .and_then(|d| crate::lower::declarator_name(&d.node));
                let cast = param.and_then(|v| cast_type(unit, def, &v));
                out.push(Arg::Object(cast.unwrap_or_else(|| "long".to_string())));
            }
            Some(Some(1)) => out.push(Arg::Object(ty)),
            Some(Some(2)) if ty != "void" => out.push(Arg::PointerTo(ty)),
            Some(None) => match p
                .node
                .declarator
                .as_ref()
                .and_then(|d| fn_pointer(unit, &ty, &d.node))
            {
                Some(t) => out.push(Arg::Function(t)),
                None => return Err(refuse("this type (a function pointer of an unusual shape)")),
            },
            _ => return Err(refuse("this type (a pointer to `void *` or more levels)")),
        }
    }
    if f.node.ellipsis == frontend::lang_c::ast::Ellipsis::Some {
        return Err(LowerError::unsupported(
            def.span,
            format!("--concurrent cannot call `{name}`, which takes a variable argument list; write a harness with a `main`"),
        ));
    }
    Ok(out)
}

/// The type `T` of a function returning `T *` (not `void *`).
fn constructed_type(unit: &ParsedUnit, def: &Node<FunctionDefinition>) -> Option<String> {
    let ty = specifiers(unit, &def.node.specifiers);
    (pointers(&def.node.declarator.node.derived) == 1 && ty != "void").then_some(ty)
}

/// The type `T` a function casts its parameter `param` to: `(T *)param`
/// or `T *x = param` in its body (text of the parsed unit), the first one.
fn cast_type(unit: &ParsedUnit, def: &Node<FunctionDefinition>, param: &str) -> Option<String> {
    let body = unit.snippet(&def.node.statement.span);
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut at = 0;
    while let Some(k) = body[at..].find(param) {
        let start = at + k;
        let end = start + param.len();
        at = end;
        let whole = !body[..start].ends_with(is_ident) && !body[end..].starts_with(is_ident);
        if !whole {
            continue;
        }
        let before = body[..start].trim_end();
        // `(T *)param`
        if let Some(cast) = before.strip_suffix(')') {
            if let Some(open) = cast.rfind('(') {
                let inner = cast[open + 1..].trim();
                if let Some(t) = inner.strip_suffix('*') {
                    let t = words(t);
                    if !t.is_empty() && !t.contains(['*', '(']) && t != "void" {
                        return Some(t);
                    }
                }
            }
        }
        // `T *x = param;`
        if let Some(decl) = before.strip_suffix('=') {
            let decl = decl.trim_end();
            let name_start = decl.trim_end_matches(is_ident).len();
            let head = decl[..name_start].trim_end();
            if let Some(t) = head.strip_suffix('*') {
                let stmt_start = t.rfind([';', '{', '}']).map_or(0, |i| i + 1);
                let t = words(&t[stmt_start..]);
                if !t.is_empty() && !t.contains(['*', '(', ')', '=']) && t != "void" {
                    return Some(t);
                }
            }
        }
    }
    None
}

/// The function type of a function-pointer parameter `RET (*name)(PARAMS)`
/// (`ret`: its specifiers), when its parameters are plain (value types and
/// pointers, no further function pointers).
fn fn_pointer(unit: &ParsedUnit, ret: &str, d: &Declarator) -> Option<FnType> {
    let DeclaratorKind::Declarator(inner) = &d.kind.node else {
        return None;
    };
    let inner = &inner.node.derived;
    if inner.len() != 1 || pointers(inner) != 1 {
        return None;
    }
    fn_type(unit, ret, &d.derived)
}

/// The types of a parameter list as text (`void` alone is no parameter),
/// or `None` for a parameter that is itself a function or an array of
/// arrays.
fn param_types(
    unit: &ParsedUnit,
    params: &[Node<frontend::lang_c::ast::ParameterDeclaration>],
) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for p in params {
        let ty = specifiers(unit, &p.node.specifiers);
        let stars = match p.node.declarator.as_ref().map(|d| shape(&d.node)) {
            None => 0,
            Some(Some(n)) => n,
            Some(None) => return None,
        };
        if ty == "void" && stars == 0 {
            continue;
        }
        out.push(format!("{ty}{}", " *".repeat(stars)));
    }
    Some(out)
}

/// The harness functions of function type `t` (index `i`): a no-op one,
/// and `__ase_function{i}()`, which returns the no-op one or any function
/// of the file of type `t`.
fn write_functions(out: &mut String, unit: &ParsedUnit, i: usize, t: &FnType) {
    let params: Vec<String> = t
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| format!("{p} __ase_p{k}"))
        .collect();
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    let body = if t.ret == "void" { "" } else { " return 0;" };
    let _ = writeln!(out, "static {} __ase_noop{i}({params}) {{{body} }}", t.ret);
    let types = if t.params.is_empty() {
        "void".to_string()
    } else {
        t.params.join(", ")
    };
    let _ = writeln!(out, "typedef {} (*__ase_fn{i})({types});", t.ret);
    let _ = writeln!(out, "static __ase_fn{i} __ase_function{i}(void) {{");
    for f in functions_of_type(unit, t) {
        let _ = writeln!(out, "  if (__VERIFIER_nondet_bool()) return {f};");
    }
    let _ = writeln!(out, "  return __ase_noop{i};\n}}");
}

/// The functions the file defines with type `t`.
fn functions_of_type(unit: &ParsedUnit, t: &FnType) -> Vec<String> {
    definitions(unit)
        .filter_map(|f| {
            let name = crate::lower::declarator_name(&f.node.declarator.node)?;
            let ret = specifiers(unit, &f.node.specifiers);
            let ty = fn_type(unit, &ret, &f.node.declarator.node.derived)?;
            (ty == *t && name != "main").then_some(name)
        })
        .collect()
}

/// How many pointer levels a parameter declarator adds (an array parameter
/// is a pointer), or `None` for other shapes (function pointers).
fn shape(d: &Declarator) -> Option<usize> {
    if matches!(d.kind.node, DeclaratorKind::Declarator(_)) {
        return None;
    }
    d.derived
        .iter()
        .map(|dd| match dd.node {
            DerivedDeclarator::Pointer(_) | DerivedDeclarator::Array(_) => Some(1),
            _ => None,
        })
        .sum()
}

/// The type named by declaration specifiers, as text of the parsed unit
/// (without storage classes and qualifiers).
fn specifiers(unit: &ParsedUnit, specs: &[Node<DeclarationSpecifier>]) -> String {
    let mut words = Vec::new();
    for s in specs {
        match &s.node {
            DeclarationSpecifier::StorageClass(c)
                if matches!(c.node, StorageClassSpecifier::Register) => {}
            DeclarationSpecifier::TypeQualifier(q)
                if matches!(q.node, TypeQualifier::Const | TypeQualifier::Volatile) => {}
            DeclarationSpecifier::TypeSpecifier(t) if matches!(t.node, TypeSpecifier::Void) => {
                words.push("void".to_string())
            }
            _ => words.push(
                unit.snippet(&s.span)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_calls_split() {
        assert_eq!(split_call("pool_new"), ("pool_new", None));
        assert_eq!(
            split_call(" pool_new(2, f(1, 2)) "),
            ("pool_new", Some("2, f(1, 2)"))
        );
        assert_eq!(split_args("_, f(1, 2), (3)"), ["_", "f(1, 2)", "(3)"]);
        assert!(split_args(" ").is_empty());
    }

    #[test]
    fn function_lists_parse() {
        assert_eq!(
            Concurrent::parse_list("pop:2, push").unwrap(),
            vec![
                Concurrent {
                    function: "pop".into(),
                    threads: 2
                },
                Concurrent {
                    function: "push".into(),
                    threads: 1
                },
            ]
        );
        assert!(Concurrent::parse_list("pop:0").is_err());
        assert!(Concurrent::parse_list("pop:x").is_err());
        assert!(Concurrent::parse_list("2pop").is_err());
        assert!(Concurrent::parse_list("").is_err());
    }
}
