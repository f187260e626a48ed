//! Clang's thread-safety annotations, read from the AST (SOUNDNESS.md,
//! "Thread-safety annotations"): which variables and fields a capability
//! guards, and what functions require, exclude, acquire and release.
//! [`crate::lower::capabilities`] checks them on every interleaving.
//!
//! Attributes are matched by name, with or without the `__…__` spelling,
//! under their current and their older names (`guarded_by`;
//! `requires_capability` or `exclusive_locks_required`; …). Attributes
//! that do not name a capability (`guarded_var`, `capability` on types)
//! and `assert_capability` are not read.

use std::collections::{HashMap, HashSet};

use frontend::lang_c::ast::{
    Declaration, DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, Expression,
    Extension, ExternalDeclaration, SpecifierQualifier, TranslationUnit,
};
use frontend::lang_c::span::Node;

/// Whether a capability is held exclusively or shared (for reading).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Exclusive,
    Shared,
}

/// `guarded_by(cap)` (`pointee: false`) or `pt_guarded_by(cap)` on a
/// variable or field.
#[derive(Clone, Debug)]
pub(crate) struct Guard {
    pub cap: Node<Expression>,
    /// The guard is on what the pointer points to (`pt_guarded_by`).
    pub pointee: bool,
}

/// What a function does with its capabilities.
#[derive(Clone, Debug)]
pub(crate) enum Effect {
    /// The caller must hold them (`requires_capability`).
    Requires(Mode),
    /// The caller must not hold them (`locks_excluded`).
    Excludes,
    /// The function acquires them (`acquire_capability`).
    Acquire(Mode),
    /// The function releases them (`release_capability`).
    Release,
    /// The function acquires them when it returns this value
    /// (`try_acquire_capability(value, cap)`).
    TryAcquire(Mode, Node<Expression>),
}

/// One annotation of a function: its effect on its capabilities.
#[derive(Clone, Debug)]
pub(crate) struct Contract {
    pub effect: Effect,
    /// The capability expressions, over the parameters and globals.
    pub caps: Vec<Node<Expression>>,
    /// The attribute's name, for messages.
    pub attribute: String,
}

/// The annotations of a translation unit.
#[derive(Clone, Debug, Default)]
pub(crate) struct Annotations {
    /// Per function, the contracts of all its declarations.
    pub functions: HashMap<String, Vec<Contract>>,
    /// Functions marked `no_thread_safety_analysis`: their bodies are not
    /// checked.
    pub unchecked: HashSet<String>,
    /// Per global variable, its guards.
    pub globals: HashMap<String, Vec<Guard>>,
}

impl Annotations {
    /// Whether the unit has an annotation to check outside struct fields
    /// (those are read with their struct, [`crate::types`]).
    pub fn any(&self) -> bool {
        !self.functions.is_empty() || !self.globals.is_empty()
    }
}

/// The attribute's name without the `__…__` spelling.
fn bare(name: &str) -> &str {
    let n = name.strip_prefix("__").unwrap_or(name);
    n.strip_suffix("__").unwrap_or(n)
}

/// The guards among attributes.
pub(crate) fn guards<'e>(exts: impl IntoIterator<Item = &'e Node<Extension>>) -> Vec<Guard> {
    let mut out = Vec::new();
    for e in exts {
        let Extension::Attribute(a) = &e.node else {
            continue;
        };
        let pointee = match bare(&a.name.node) {
            "guarded_by" => false,
            "pt_guarded_by" => true,
            _ => continue,
        };
        out.extend(a.arguments.iter().map(|cap| Guard {
            cap: cap.clone(),
            pointee,
        }));
    }
    out
}

/// The attributes of a struct field (its specifiers and declarator).
pub(crate) fn field_extensions<'e>(
    specifiers: &'e [Node<SpecifierQualifier>],
    declarator: &'e Declarator,
) -> Vec<&'e Node<Extension>> {
    let mut out: Vec<&Node<Extension>> = specifiers
        .iter()
        .flat_map(|s| match &s.node {
            SpecifierQualifier::Extension(e) => e.as_slice(),
            _ => &[],
        })
        .collect();
    out.extend(&declarator.extensions);
    out
}

/// A function's contracts among attributes, and whether one turns the
/// analysis off.
fn contracts<'e>(exts: impl IntoIterator<Item = &'e Node<Extension>>) -> (Vec<Contract>, bool) {
    use Mode::{Exclusive, Shared};
    let mut out = Vec::new();
    let mut off = false;
    for e in exts {
        let Extension::Attribute(a) = &e.node else {
            continue;
        };
        let args = a.arguments.clone();
        let (effect, caps) = match bare(&a.name.node) {
            "requires_capability" | "exclusive_locks_required" => {
                (Effect::Requires(Exclusive), args)
            }
            "requires_shared_capability" | "shared_locks_required" => {
                (Effect::Requires(Shared), args)
            }
            "locks_excluded" => (Effect::Excludes, args),
            "acquire_capability" | "exclusive_lock_function" => (Effect::Acquire(Exclusive), args),
            "acquire_shared_capability" | "shared_lock_function" => (Effect::Acquire(Shared), args),
            "release_capability"
            | "release_shared_capability"
            | "release_generic_capability"
            | "unlock_function" => (Effect::Release, args),
            n @ ("try_acquire_capability"
            | "exclusive_trylock_function"
            | "try_acquire_shared_capability"
            | "shared_trylock_function") => {
                let mode = if n.contains("shared") {
                    Shared
                } else {
                    Exclusive
                };
                let Some((value, caps)) = args.split_first() else {
                    continue;
                };
                (Effect::TryAcquire(mode, value.clone()), caps.to_vec())
            }
            "no_thread_safety_analysis" => {
                off = true;
                continue;
            }
            _ => continue,
        };
        out.push(Contract {
            effect,
            caps,
            attribute: bare(&a.name.node).to_string(),
        });
    }
    (out, off)
}

/// Whether the declarator declares a function: the type constructor
/// nearest the name is a function's parameter list (in one declarator the
/// suffixes bind tighter than the pointers; an inner declarator binds
/// tighter than its outer one: `(*fp)(void)` is a pointer).
pub(crate) fn is_function(d: &Declarator) -> bool {
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        if derives(&inner.node) {
            return is_function(&inner.node);
        }
    }
    d.derived
        .iter()
        .find_map(|x| match x.node {
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => Some(true),
            DerivedDeclarator::Array(_) => Some(false),
            _ => None,
        })
        .unwrap_or(false)
}

/// Whether a declarator (or one inside it) derives a type.
fn derives(d: &Declarator) -> bool {
    !d.derived.is_empty()
        || matches!(&d.kind.node, DeclaratorKind::Declarator(inner) if derives(&inner.node))
}

/// The attributes among declaration specifiers.
fn spec_extensions(specs: &[Node<DeclarationSpecifier>]) -> impl Iterator<Item = &Node<Extension>> {
    specs.iter().flat_map(|s| match &s.node {
        DeclarationSpecifier::Extension(e) => e.as_slice(),
        _ => &[],
    })
}

impl Annotations {
    /// Records the annotations of a function or variable `d` declared with
    /// `specs`.
    fn declare(&mut self, specs: &[Node<DeclarationSpecifier>], d: &Declarator) {
        let Some(name) = crate::lower::declarator_name(d) else {
            return;
        };
        let name = name.as_str();
        let exts: Vec<&Node<Extension>> = spec_extensions(specs).chain(&d.extensions).collect();
        if is_function(d) {
            let (cs, off) = contracts(exts.iter().copied());
            if off {
                self.unchecked.insert(name.to_string());
            }
            if !cs.is_empty() {
                self.functions
                    .entry(name.to_string())
                    .or_default()
                    .extend(cs);
            }
        } else {
            let gs = guards(exts.iter().copied());
            if !gs.is_empty() {
                self.globals.entry(name.to_string()).or_default().extend(gs);
            }
        }
    }

    fn declaration(&mut self, decl: &Declaration) {
        for d in &decl.declarators {
            self.declare(&decl.specifiers, &d.node.declarator.node);
        }
    }
}

/// The annotations of a translation unit outside struct fields.
pub(crate) fn collect(unit: &TranslationUnit) -> Annotations {
    let mut a = Annotations::default();
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => a.declaration(&d.node),
            ExternalDeclaration::FunctionDefinition(f) => {
                a.declare(&f.node.specifiers, &f.node.declarator.node)
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> TranslationUnit {
        let cfg = frontend::lang_c::driver::Config::with_gcc();
        frontend::lang_c::driver::parse_preprocessed(&cfg, src.to_string())
            .expect("parses")
            .unit
    }

    #[test]
    fn reads_variables_and_functions() {
        let unit = parse(
            "int mu; int count __attribute__((guarded_by(mu)));\n\
             int *p __attribute__((__pt_guarded_by__(mu)));\n\
             void lock(int *m) __attribute__((acquire_capability(m)));\n\
             int try(int *m) __attribute__((try_acquire_capability(1, m)));\n\
             void inc(void) __attribute__((requires_capability(mu))) __attribute__((locks_excluded(p)));\n\
             __attribute__((no_thread_safety_analysis)) void raw(void) {}\n\
             int (*fp)(void) __attribute__((guarded_by(mu)));\n",
        );
        let a = collect(&unit);
        assert!(a.any());
        assert_eq!(a.globals["count"].len(), 1);
        assert!(!a.globals["count"][0].pointee);
        assert!(a.globals["p"][0].pointee);
        assert!(
            a.globals.contains_key("fp"),
            "a function pointer is a variable"
        );
        assert!(matches!(
            a.functions["lock"][0].effect,
            Effect::Acquire(Mode::Exclusive)
        ));
        let t = &a.functions["try"][0];
        assert!(matches!(t.effect, Effect::TryAcquire(Mode::Exclusive, _)));
        assert_eq!(t.caps.len(), 1);
        let kinds: Vec<&str> = a.functions["inc"]
            .iter()
            .map(|c| c.attribute.as_str())
            .collect();
        assert_eq!(kinds, ["requires_capability", "locks_excluded"]);
        assert!(a.unchecked.contains("raw"));
    }

    #[test]
    fn nothing_to_check_without_annotations() {
        let unit =
            parse("int x __attribute__((aligned(4))); void f(void) __attribute__((noreturn));");
        assert!(!collect(&unit).any());
    }
}
