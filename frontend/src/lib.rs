//! C front end, parsing stage: preprocess a C file with the system preprocessor and
//! parse it (GNU C11, with the GNU extensions found in SV-COMP's pthread tasks) into
//! a [lang-c](lang_c) AST whose spans map back to the user's files.
//!
//! ```no_run
//! use frontend::{parse_file, Options};
//! let parsed = parse_file("tests-c/parse/gnu_extensions.c".as_ref(), &Options::default())?;
//! println!("data model: {} ({})", parsed.data_model, parsed.data_model_reason);
//! for ext in &parsed.unit.0 {
//!     let at = parsed.origins.locate_span(&ext.span).unwrap();
//!     println!("top-level declaration at {at}");
//! }
//! # Ok::<(), frontend::FrontendError>(())
//! ```
//!
//! The pipeline:
//! 1. `.c` files (anything but `.i`) go through the preprocessor (`cc -E`, see
//!    [`Options`]); `.i` files are read as they are. The data model is ILP32
//!    (`-m32`) when the preprocessor can target it, else the native one
//!    ([`DataModelChoice::Auto`]).
//! 2. The GNU extensions lang-c does not accept are rewritten (see [`RewriteKind`]
//!    and [`Renames`]): `$` in identifiers, `__thread`, `__const__`, attributes where
//!    lang-c does not expect them, `__label__`.
//! 3. lang-c parses the text ([`lang_c::driver::parse_preprocessed`], GNU flavour)
//!    on a thread with a large stack; a panic becomes [`FrontendError::Internal`].
//! 4. Positions: [`SourceMap`] follows the preprocessor's line markers (and undoes
//!    the rewrites), so syntax errors and AST spans point into the user's files.
//!
//! ## GNU extensions
//!
//! lang-c's GNU flavour already handles `__attribute__` in most places,
//! `__extension__`, `__asm__` labels and statements, `__restrict`/`__restrict__`,
//! `__inline__`, `__signed__`, `__volatile__`, `__typeof__`, `__alignof__`,
//! statement expressions, case ranges and `__builtin_va_arg`/`__builtin_offsetof`;
//! the other `__builtin_*` functions are ordinary calls. The rest is rewritten
//! before parsing, outside string and character literals, comments and directive
//! lines:
//!
//! | extension | rewrite | length |
//! | --- | --- | --- |
//! | `$` in identifiers (`a$flush_delayed`) | each `$` → one identifier character chosen so that no renamed name collides ([`Renames`]) | same |
//! | `__thread` | `_Thread_local` (so the AST says [`ThreadLocal`](lang_c::ast::StorageClassSpecifier::ThreadLocal)) | +5, in the [`SourceMap`]'s edit map |
//! | `__const__` (as a qualifier) | `const` and spaces | same |
//! | `__attribute__((…))` standing alone before `;` (statement attributes such as `fallthrough`, label attributes, the trailing attribute of `struct __attribute__((a)) S {…} __attribute__((b));`), right after `enum`, `struct` or `union` | blanked | same |
//! | `__attribute__((…))` between a function definition's `)` and its body (Clang's place for thread-safety annotations) | blanked there, and a declaration of the function with it appended to the text | same, plus the declaration after the last line |
//! | `__label__ a, b;` (local label declarations) | blanked | same |
//! | `__CPROVER_thread_local` (CBMC) | `_Thread_local` | -9, in the edit map |
//! | `__auto_type x = e` (what GCC's `<stdatomic.h>` macros expand to) | `__typeof__(e) x = e`, the initializer's tokens copied on one line | longer, in the edit map |
//!
//! Blanking keeps newlines, so the line structure is untouched.
//!
//! Not supported (reported as syntax errors, with a note naming the extension):
//! the conditional with an omitted operand `a ?: b`, `__int128`, `__auto_type`
//! in another shape than `__auto_type x = e`, label addresses `&&label`, and builtins with type arguments
//! (`__builtin_types_compatible_p`, `__builtin_choose_expr`). Text nesting brackets
//! and prefix operators more than 1024 deep is refused
//! ([`FrontendError::Unsupported`]) to keep the parser's recursion bounded.

#![warn(missing_docs)]

pub mod compile_db;
mod cpp;
mod error;
mod lex;
mod model;
mod parse;
mod rewrite;
mod source_map;

use std::path::{Path, PathBuf};

pub use lang_c;
use lang_c::ast::TranslationUnit;
use lang_c::span::Span;

pub use error::FrontendError;
pub use model::{DataModel, DataModelChoice, DataModelReason, TypeSizes};
pub use rewrite::{Renames, Rewrite, RewriteKind};
pub use source_map::{Location, SourceMap};

/// How to preprocess a C file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The preprocessor command; `None` means `cc`. It may carry arguments
    /// (`"gcc -std=gnu99"`): it is split at whitespace. It is run as
    /// `CPP [-m32] CPP_ARGS -E -x c -I… -D… FILE`.
    pub cpp: Option<String>,
    /// Extra arguments for the preprocessor.
    pub cpp_args: Vec<String>,
    /// Include directories (`-I`).
    pub include_dirs: Vec<PathBuf>,
    /// Macro definitions (`-D`): `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Which data model to preprocess for.
    pub data_model: DataModelChoice,
}

/// A declaration with thread storage duration (`__thread` or `_Thread_local`).
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadLocal {
    /// The declared name as it appears in the AST (see [`ParsedUnit::renames`] for
    /// names that contained `$`).
    pub name: String,
    /// The span of the declarator's identifier in [`ParsedUnit::text`].
    pub span: Span,
    /// Where it is declared in the source.
    pub location: Option<Location>,
    /// Declared inside a function (`static __thread int x;`), not at file scope.
    pub block_scope: bool,
}

/// A parsed translation unit: what the lowering consumes.
#[derive(Clone, Debug)]
pub struct ParsedUnit {
    /// The AST. Its spans are byte ranges of [`text`](Self::text); map them with
    /// [`origins`](Self::origins). Thread-local declarations carry
    /// [`StorageClassSpecifier::ThreadLocal`](lang_c::ast::StorageClassSpecifier::ThreadLocal)
    /// whether they were written `__thread` or `_Thread_local`.
    pub unit: TranslationUnit,
    /// The text that was parsed: the preprocessor's output after the rewrites.
    pub text: String,
    /// Byte offsets of `text` → positions in the original files.
    pub origins: SourceMap,
    /// The data model the text was preprocessed for.
    pub data_model: DataModel,
    /// Why that data model.
    pub data_model_reason: DataModelReason,
    /// Thread-local declarations, in text order.
    pub thread_locals: Vec<ThreadLocal>,
    /// Identifiers renamed because they contained `$`.
    pub renames: Renames,
    /// The other rewrites made before parsing, in text order.
    pub rewrites: Vec<Rewrite>,
}

impl ParsedUnit {
    /// The source position of the start of `span`.
    pub fn locate(&self, span: &Span) -> Option<Location> {
        self.origins.locate_span(span)
    }

    /// The parsed text covered by `span` (empty if out of range).
    pub fn snippet(&self, span: &Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// The name to show a user for an identifier of the AST (undoing `$` renames).
    pub fn display_name<'a>(&'a self, name: &'a str) -> &'a str {
        self.renames.display(name)
    }

    /// Whether a file-scope or block-scope variable of this (AST) name is thread-local.
    pub fn is_thread_local(&self, name: &str) -> bool {
        self.thread_locals.iter().any(|t| t.name == name)
    }
}

/// Preprocesses (unless it is a `.i` file) and parses a C file.
pub fn parse_file(path: &Path, opts: &Options) -> Result<ParsedUnit, FrontendError> {
    let (text, model) = source_text(path, opts)?;
    parse_text(text, path, model)
}

/// Like [`parse_file`], with `appendix` (C without directives, e.g. a
/// generated harness) parsed after the file's text, its positions named
/// `appendix_name` (they are not positions of the file).
pub fn parse_file_with_appendix(
    path: &Path,
    opts: &Options,
    appendix_name: &str,
    appendix: &str,
) -> Result<ParsedUnit, FrontendError> {
    let (mut text, model) = source_text(path, opts)?;
    let name = appendix_name.replace(['\\', '"'], "_");
    text.push_str(&format!("\n# 1 \"{name}\"\n{appendix}\n"));
    parse_text(text, path, model)
}

/// The preprocessed text of a file (a `.i` file as it is) and its data
/// model when known.
fn source_text(
    path: &Path,
    opts: &Options,
) -> Result<(String, Option<(DataModel, DataModelReason)>), FrontendError> {
    let io = |source| FrontendError::Io {
        path: path.to_path_buf(),
        source,
    };
    let is_preprocessed = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("i"));
    if is_preprocessed {
        let bytes = std::fs::read(path).map_err(io)?;
        let text = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        return Ok((text, requested_model(opts)));
    }
    std::fs::metadata(path).map_err(io)?;
    let pre = cpp::preprocess(path, opts)?;
    Ok((pre.text, Some((pre.model, pre.reason))))
}

/// The data model the options ask for (`None`: read it off the text).
fn requested_model(opts: &Options) -> Option<(DataModel, DataModelReason)> {
    match opts.data_model {
        DataModelChoice::Auto => None,
        DataModelChoice::Ilp32 => Some((DataModel::Ilp32, DataModelReason::Requested)),
        DataModelChoice::Lp64 => Some((DataModel::Lp64, DataModelReason::Requested)),
    }
}

/// Parses text that is already preprocessed (a `.i` file's contents, or C without
/// directives). `file_name` names the text in positions before its first line
/// marker. The data model is not probed: [`DataModelChoice::Auto`] reads it off the
/// `size_t` typedef, defaulting to ILP32.
pub fn parse_preprocessed(
    text: String,
    file_name: impl AsRef<Path>,
    opts: &Options,
) -> Result<ParsedUnit, FrontendError> {
    parse_text(text, file_name.as_ref(), requested_model(opts))
}

/// The data model that [`DataModelChoice::Auto`] selects for `.c` files with these
/// options (probing the preprocessor once per command line), and why.
pub fn auto_data_model(opts: &Options) -> Result<(DataModel, DataModelReason), FrontendError> {
    cpp::auto_model(opts)
}

/// C11 `<threads.h>` in terms of POSIX threads ([`with_c11_threads`]).
const C11_THREADS: &str = include_str!("c11/threads.c");

/// The text with the definitions of C11's thread functions appended when
/// it declares them (it includes `<threads.h>`) and defines none of them.
fn with_c11_threads(mut pre: String) -> String {
    let declares = pre.contains("thrd_create (") || pre.contains("thrd_create(");
    if !declares || !pre.contains("thrd_start_t") {
        return pre;
    }
    let defines = C11_THREADS
        .lines()
        .filter_map(|l| l.strip_prefix("int ").or_else(|| l.strip_prefix("void ")))
        .filter_map(|l| l.split('(').next())
        .any(|name| defined(&pre, name));
    if !defines {
        pre.push_str("\n# 1 \"<ase C11 threads>\"\n");
        pre.push_str(C11_THREADS);
    }
    pre
}

/// Whether the text defines function `name` (its name followed by a
/// parameter list and a body).
fn defined(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let rest = &text[i + name.len()..];
        let Some(params) = rest.trim_start().strip_prefix('(') else {
            return false;
        };
        let Some(close) = params.find(')') else {
            return false;
        };
        params[close + 1..].trim_start().starts_with('{')
    })
}

fn parse_text(
    pre: String,
    file: &Path,
    model: Option<(DataModel, DataModelReason)>,
) -> Result<ParsedUnit, FrontendError> {
    let pre = with_c11_threads(pre);
    let mut origins = SourceMap::new(&pre, file);
    let rewritten = rewrite::rewrite(&pre).map_err(|r| FrontendError::Unsupported {
        location: origins.locate(r.offset),
        message: r.message,
    })?;
    drop(pre);
    origins.set_edits(rewritten.edits, rewritten.text.len());
    let renames = rewritten.renames;
    let parsed = match parse::run_parser(rewritten.text)? {
        Ok(parsed) => parsed,
        Err(err) => return Err(syntax_error(&err, &origins, &renames)),
    };
    let (data_model, data_model_reason) = model.unwrap_or(match parsed.size_t_is_long {
        Some(true) => (DataModel::Lp64, DataModelReason::InferredFromSizeT),
        Some(false) => (DataModel::Ilp32, DataModelReason::InferredFromSizeT),
        None => (DataModel::Ilp32, DataModelReason::Assumed),
    });
    let thread_locals = parsed
        .thread_locals
        .into_iter()
        .map(|t| ThreadLocal {
            location: origins.locate(t.span.start),
            name: t.name,
            span: t.span,
            block_scope: t.block_scope,
        })
        .collect();
    Ok(ParsedUnit {
        unit: parsed.unit,
        text: parsed.text,
        origins,
        data_model,
        data_model_reason,
        thread_locals,
        renames,
        rewrites: rewritten.rewrites,
    })
}

fn syntax_error(
    err: &parse::RawSyntaxError,
    origins: &SourceMap,
    renames: &Renames,
) -> FrontendError {
    let message = parse::syntax_message(&err.text, err.offset, &err.expected, renames);
    let Some(loc) = origins.locate(err.offset) else {
        return FrontendError::Internal {
            message: format!(
                "syntax error at offset {} past the end: {message}",
                err.offset
            ),
        };
    };
    let from_file = std::fs::read(&loc.file).ok().and_then(|bytes| {
        let text = String::from_utf8_lossy(&bytes);
        let n = loc.line.checked_sub(1)? as usize;
        text.lines().nth(n).map(str::to_string)
    });
    let source_line = from_file.or_else(|| {
        let offset = err.offset.min(err.text.len());
        let start = err.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = err.text[offset..]
            .find('\n')
            .map_or(err.text.len(), |i| offset + i);
        Some(err.text[start..end].to_string())
    });
    FrontendError::Syntax {
        file: loc.file,
        line: loc.line,
        column: loc.column,
        message,
        source_line,
    }
}

#[cfg(test)]
mod tests {
    use super::with_c11_threads;

    const HEADER: &str = "typedef int (*thrd_start_t) (void*);\nextern int thrd_create (thrd_t *__thr, thrd_start_t __func, void *__arg);\nextern int mtx_lock (mtx_t *__mutex);\n";

    #[test]
    fn c11_threads_are_defined_for_programs_that_include_them() {
        let with = with_c11_threads(format!("{HEADER}int main(void) {{ return 0; }}\n"));
        assert!(with.contains("# 1 \"<ase C11 threads>\""), "{with}");
        assert!(with.contains("int mtx_lock(mtx_t *__ase_m) {"), "{with}");
        // Not without the header, nor when the program defines one itself.
        let plain = "int main(void) { return 0; }\n".to_string();
        assert_eq!(with_c11_threads(plain.clone()), plain);
        let own = format!("{HEADER}int mtx_lock (mtx_t *m) {{ return 0; }}\n");
        assert_eq!(with_c11_threads(own.clone()), own);
    }
}
