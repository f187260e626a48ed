//! Running lang-c (on a thread with a large stack, catching panics), turning its
//! errors into diagnostics, and reading facts off the AST.

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use lang_c::ast::{
    Declaration, DeclarationSpecifier, Declarator, DeclaratorKind, ExternalDeclaration,
    FunctionDefinition, StorageClassSpecifier, TranslationUnit, TypeSpecifier,
};
use lang_c::driver::{Config, Flavor};
use lang_c::span::Span;
use lang_c::visit::{self, Visit};

use crate::lex::{token_at, Kind};
use crate::rewrite::Renames;
use crate::FrontendError;

/// Stack of the parser thread. lang-c is a recursive-descent (PEG) parser; the text
/// is refused beforehand if brackets and prefix operators nest more than
/// [`MAX_NESTING`](crate::rewrite::MAX_NESTING) deep, a few MiB at most, and this
/// leaves room for long `else if`, label and assignment chains. Only the pages
/// used are committed.
const PARSER_STACK: usize = 256 << 20;

/// A thread-local declaration found in the AST (before locations are attached).
pub(crate) struct RawThreadLocal {
    pub name: String,
    pub span: Span,
    pub block_scope: bool,
}

/// What the parser thread hands back on success.
pub(crate) struct Parsed {
    pub unit: TranslationUnit,
    pub text: String,
    pub thread_locals: Vec<RawThreadLocal>,
    /// `Some(true)` if `size_t` is a typedef of a `long` type, `Some(false)` if of
    /// another type, `None` without such a typedef.
    pub size_t_is_long: Option<bool>,
}

/// A syntax error, in the parsed text.
pub(crate) struct RawSyntaxError {
    pub text: String,
    pub offset: usize,
    pub expected: Vec<&'static str>,
}

/// Parses `text` with lang-c's GNU C11 flavour.
pub(crate) fn run_parser(text: String) -> Result<Result<Parsed, RawSyntaxError>, FrontendError> {
    let handle = std::thread::Builder::new()
        .name("lang-c".into())
        .stack_size(PARSER_STACK)
        .spawn(move || catch_unwind(AssertUnwindSafe(move || parse_and_analyse(text))))
        .map_err(|e| FrontendError::Internal {
            message: format!("cannot start the parser thread: {e}"),
        })?;
    match handle.join() {
        Ok(Ok(result)) => Ok(result),
        Ok(Err(payload)) | Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "lang-c panicked".to_string());
            Err(FrontendError::Internal { message })
        }
    }
}

fn parse_and_analyse(text: String) -> Result<Parsed, RawSyntaxError> {
    let config = Config {
        flavor: Flavor::GnuC11,
        ..Config::with_gcc()
    };
    match lang_c::driver::parse_preprocessed(&config, text) {
        Ok(parse) => {
            let mut facts = Facts::default();
            facts.visit_translation_unit(&parse.unit);
            Ok(Parsed {
                unit: parse.unit,
                text: parse.source,
                thread_locals: facts.thread_locals,
                size_t_is_long: facts.size_t_is_long,
            })
        }
        Err(e) => {
            let mut expected: Vec<&'static str> = e.expected.into_iter().collect();
            expected.sort_unstable();
            Err(RawSyntaxError {
                text: e.source,
                offset: e.offset,
                expected,
            })
        }
    }
}

/// Collects thread-local declarations and the `size_t` typedef.
#[derive(Default)]
struct Facts {
    thread_locals: Vec<RawThreadLocal>,
    size_t_is_long: Option<bool>,
    function_depth: usize,
}

fn declarator_name(d: &Declarator) -> Option<(&str, Span)> {
    match &d.kind.node {
        DeclaratorKind::Abstract => None,
        DeclaratorKind::Identifier(id) => Some((&id.node.name, id.span)),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
    }
}

impl<'ast> Visit<'ast> for Facts {
    fn visit_function_definition(&mut self, f: &'ast FunctionDefinition, span: &'ast Span) {
        self.function_depth += 1;
        visit::visit_function_definition(self, f, span);
        self.function_depth -= 1;
    }

    fn visit_declaration(&mut self, d: &'ast Declaration, span: &'ast Span) {
        let storage = |class: StorageClassSpecifier| {
            d.specifiers.iter().any(
                |s| matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == class),
            )
        };
        if storage(StorageClassSpecifier::ThreadLocal) {
            for init in &d.declarators {
                if let Some((name, span)) = declarator_name(&init.node.declarator.node) {
                    self.thread_locals.push(RawThreadLocal {
                        name: name.to_string(),
                        span,
                        block_scope: self.function_depth > 0,
                    });
                }
            }
        }
        if self.function_depth == 0 && storage(StorageClassSpecifier::Typedef) {
            let names_size_t = d.declarators.iter().any(|init| {
                let decl = &init.node.declarator.node;
                decl.derived.is_empty() && declarator_name(decl).is_some_and(|(n, _)| n == "size_t")
            });
            if names_size_t {
                let long = d.specifiers.iter().any(|s| {
                    matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Long)
                });
                self.size_t_is_long = Some(long);
            }
        }
        visit::visit_declaration(self, d, span);
    }

    fn visit_external_declaration(&mut self, e: &'ast ExternalDeclaration, span: &'ast Span) {
        visit::visit_external_declaration(self, e, span);
    }
}

/// A readable "unexpected X; expected one of …" message for a syntax error at
/// `offset` of `text`, with a hint for known unsupported GNU extensions.
pub(crate) fn syntax_message(
    text: &str,
    offset: usize,
    expected: &[&'static str],
    renames: &Renames,
) -> String {
    let found = match token_at(text, offset) {
        None => "end of input".to_string(),
        Some(t) => {
            let s = t.text(text);
            let s = if t.kind == Kind::Ident {
                renames.display(s)
            } else {
                s
            };
            let mut shown: String = s.chars().take(40).collect();
            if shown.len() < s.len() {
                shown.push('…');
            }
            format!("`{shown}`")
        }
    };
    // lang-c lists the first characters of every alternative; group them.
    let expression_start = expected.contains(&"\"");
    let after_operand = expected.contains(&"==");
    let is_operator = |e: &str| {
        e == "->" || (!e.is_empty() && e.chars().all(|c| "=!<>+-*/%&|^?.~[(".contains(c)))
    };
    let mut seen = HashSet::new();
    let mut items: Vec<String> = Vec::new();
    for &e in expected {
        let item = match e {
            "" => continue,
            _ if expression_start
                && matches!(
                    e,
                    "!" | "&"
                        | "("
                        | "*"
                        | "+"
                        | "++"
                        | "-"
                        | "--"
                        | "~"
                        | "\""
                        | "u8"
                        | "[uUL]"
                        | "[_a-zA-Z]"
                        | "[0-9]"
                        | "'"
                ) =>
            {
                "expression".to_string()
            }
            _ if after_operand && is_operator(e) => "operator".to_string(),
            "[_a-zA-Z]" | "identifier" => "identifier".to_string(),
            "[0-9]" => "number".to_string(),
            "<typedef_name>" => "type name".to_string(),
            s if s.starts_with('[') => continue,
            s => format!("`{s}`"),
        };
        if seen.insert(item.clone()) {
            items.push(item);
        }
    }
    // The likeliest fixes first.
    const FIRST: [&str; 13] = [
        "`;`",
        "`)`",
        "`]`",
        "`}`",
        "`,`",
        "`{`",
        "`=`",
        "`:`",
        "expression",
        "identifier",
        "type name",
        "number",
        "operator",
    ];
    items.sort_by_key(|i| {
        (
            FIRST.iter().position(|f| f == i).unwrap_or(FIRST.len()),
            i.clone(),
        )
    });
    const SHOWN: usize = 12;
    let mut message = format!("unexpected {found}");
    if !items.is_empty() {
        let more = items.len().saturating_sub(SHOWN);
        items.truncate(SHOWN);
        message.push_str("; expected ");
        if items.len() > 1 || more > 0 {
            message.push_str("one of ");
        }
        message.push_str(&items.join(", "));
        if more > 0 {
            message.push_str(&format!(" (and {more} more)"));
        }
    }
    if let Some(hint) = hint(text, offset) {
        message.push_str(" (");
        message.push_str(hint);
        message.push(')');
    }
    message
}

/// Names GNU extensions lang-c does not support, when the error is at one.
fn hint(text: &str, offset: usize) -> Option<&'static str> {
    let tok = token_at(text, offset)?;
    let s = tok.text(text);
    let before = text[..tok.start].trim_end();
    // The few tokens before the error.
    let mut from = tok.start.saturating_sub(64);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let window = &text[from..tok.start];
    let at = |name: &str| s == name || window.contains(name);
    if at("__int128") || at("__int128_t") || at("__uint128_t") {
        Some("the GNU extension `__int128` is not supported")
    } else if at("__auto_type") {
        Some("the GNU extension `__auto_type` is not supported")
    } else if at("__builtin_types_compatible_p") || at("__builtin_choose_expr") {
        Some("GNU builtins with type arguments are not supported")
    } else if s == ":" && before.ends_with('?') {
        Some("the GNU conditional with an omitted operand `a ?: b` is not supported")
    } else if s == "&&" {
        Some("label addresses (`&&label`) are not supported")
    } else {
        None
    }
}
