//! C input: preprocessing and parsing ([`frontend`]), lowering
//! ([`lowering`]), and their diagnostics.

use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor};
use frontend::{FrontendError, Location, ParsedUnit};
use lowering::{LowerError, Lowered};

/// Preprocessor options of C input.
#[derive(clap::Args, Clone, Debug)]
pub struct CppArgs {
    /// The C preprocessor command (default `cc`), run as `CPP [-m32] -E`.
    #[arg(long, value_name = "COMMAND")]
    pub cpp: Option<String>,
    /// Add an include directory.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a macro (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "MACRO")]
    pub define: Vec<String>,
    /// The data model: ILP32 (SV-COMP's default; `-m32`) or LP64 (the
    /// preprocessor's native mode). Default: ILP32 when the preprocessor
    /// supports `-m32`, else native.
    #[arg(long, value_enum, ignore_case = true, value_name = "MODEL")]
    pub data_model: Option<DataModelArg>,
    /// Do not reduce: keep every access to shared memory its own step
    /// (the fine-grained model, for comparison).
    #[arg(long)]
    pub no_reduce: bool,
    /// Heap objects per allocation site (`malloc`, `calloc`, `alloca`):
    /// a site that runs more often gives up.
    #[arg(long, value_name = "N", default_value_t = lowering::DEFAULT_HEAP_BUDGET)]
    pub heap_budget: usize,
    /// `malloc` and `calloc` may return NULL (by default they succeed, as
    /// SV-COMP assumes).
    #[arg(long)]
    pub malloc_may_fail: bool,
}

/// `--data-model`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModelArg {
    /// 32-bit `int`, `long` and pointers.
    #[value(name = "ILP32")]
    Ilp32,
    /// 32-bit `int`, 64-bit `long` and pointers.
    #[value(name = "LP64")]
    Lp64,
}

impl Default for CppArgs {
    fn default() -> Self {
        CppArgs {
            cpp: None,
            include: Vec::new(),
            define: Vec::new(),
            data_model: None,
            no_reduce: false,
            heap_budget: lowering::DEFAULT_HEAP_BUDGET,
            malloc_may_fail: false,
        }
    }
}

impl CppArgs {
    fn options(&self) -> frontend::Options {
        frontend::Options {
            cpp: self.cpp.clone(),
            include_dirs: self.include.clone(),
            defines: self.define.clone(),
            data_model: match self.data_model {
                None => frontend::DataModelChoice::Auto,
                Some(DataModelArg::Ilp32) => frontend::DataModelChoice::Ilp32,
                Some(DataModelArg::Lp64) => frontend::DataModelChoice::Lp64,
            },
            ..frontend::Options::default()
        }
    }
}

/// Whether a path is C input (anything but `.gc`).
pub fn is_c(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("c" | "i" | "h")
    )
}

/// Why C input gave no program.
pub enum Failure {
    /// Invalid input (syntax errors, a missing file): exit code 2.
    Invalid(String),
    /// A construct that is not modelled: the verdict is unknown.
    Unsupported(String),
}

/// Parses and lowers a C file.
pub fn load(path: &Path, cpp: &CppArgs) -> Result<(ParsedUnit, Lowered), Failure> {
    let unit = frontend::parse_file(path, &cpp.options()).map_err(|e| match &e {
        FrontendError::Unsupported { location, message } => {
            Failure::Unsupported(render(location.as_ref(), None, "unsupported", message))
        }
        FrontendError::Syntax {
            file,
            line,
            column,
            message,
            ..
        } => {
            let at = Location {
                file: file.clone(),
                line: *line,
                column: *column,
            };
            Failure::Invalid(render(Some(&at), None, "syntax error", message))
        }
        e => Failure::Invalid(format!("error: {e}\n")),
    })?;
    let options = lowering::Options {
        reduce: !cpp.no_reduce,
        heap_budget: cpp.heap_budget,
        malloc_may_fail: cpp.malloc_may_fail,
    };
    let lowered = lowering::lower_with(&unit, &options).map_err(|e| {
        let at = unit.locate(&e.span());
        let end = (!e.span().is_none())
            .then(|| {
                unit.locate(&frontend::lang_c::span::Span::span(
                    e.span().end,
                    e.span().end,
                ))
            })
            .flatten();
        match &e {
            LowerError::Unsupported { message, .. } => {
                Failure::Unsupported(render(at.as_ref(), end.as_ref(), "unsupported", message))
            }
            LowerError::Invalid { message, .. } => {
                Failure::Invalid(render(at.as_ref(), end.as_ref(), "error", message))
            }
        }
    })?;
    Ok((unit, lowered))
}

/// A codespan diagnostic at a source position (the user's file, read
/// again), or a plain line when the file cannot be read.
fn render(at: Option<&Location>, end: Option<&Location>, kind: &str, message: &str) -> String {
    let headline = format!("{kind}: {message}");
    let Some(at) = at else {
        return format!("{headline}\n");
    };
    let Ok(text) = std::fs::read_to_string(&at.file) else {
        return format!("{headline}\n  --> {at}\n");
    };
    let offset = |l: &Location| -> Option<usize> {
        let mut start = 0;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if i + 1 == l.line as usize {
                return Some(
                    start
                        + (l.column as usize)
                            .saturating_sub(1)
                            .min(line.trim_end_matches('\n').len()),
                );
            }
            start += line.len();
        }
        None
    };
    let Some(s) = offset(at) else {
        return format!("{headline}\n  --> {at}\n");
    };
    let line_end = text[s..].find('\n').map_or(text.len(), |i| s + i);
    let e = end
        .filter(|e| e.file == at.file && e.line == at.line)
        .and_then(offset)
        .filter(|&e| e > s)
        .unwrap_or(line_end.max(s + 1).min(text.len().max(s)));
    let file = SimpleFile::new(at.file.display().to_string(), &text);
    let severity = if kind == "unsupported" {
        Diagnostic::warning()
    } else {
        Diagnostic::error()
    };
    let d = severity
        .with_message(&headline)
        .with_labels(vec![Label::primary((), s..e.max(s))]);
    let mut buf = NoColor::new(Vec::new());
    if term::emit(&mut buf, &term::Config::default(), &file, &d).is_err() {
        return format!("{headline}\n  --> {at}\n");
    }
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}
