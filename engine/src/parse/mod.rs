//! The parser of the `.gc` text format (see `gc-format.md`).
//!
//! Parsing runs in three phases, each of which reports all of its errors
//! and stops the pipeline when there are any: lexing, syntax (with recovery
//! at item and transition boundaries), and resolution (names, linearity,
//! uniqueness, where location conditions may appear).

mod ast;
mod lexer;
mod parser;
mod resolve;

use crate::ir::{Program, Span};

/// A diagnostic about a `.gc` file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// The primary range to underline.
    pub span: Span,
    /// What is wrong, in one line.
    pub message: String,
    /// Secondary ranges with their captions (e.g. "first declared here").
    pub labels: Vec<(Span, String)>,
    /// Extra explanations or hints, shown below the source excerpt.
    pub notes: Vec<String>,
}

impl ParseError {
    fn new(span: Span, message: String) -> Self {
        ParseError {
            span,
            message,
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn with_label(mut self, span: Span, caption: &str) -> Self {
        self.labels.push((span, caption.to_string()));
        self
    }

    fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
}

/// Parses a `.gc` program.
///
/// On failure, returns the errors sorted by position: all lexical errors if
/// there are any, else the syntax errors, else all semantic errors
/// (undeclared or duplicate names, unknown locations, non-linear products,
/// out-of-range literals, ...).
pub fn parse_program(src: &str) -> Result<Program, Vec<ParseError>> {
    let tokens = lexer::tokenize(src)?;
    let mut parser = parser::Parser::new(src, tokens);
    let items = parser.program();
    if !parser.errors.is_empty() {
        return Err(parser.errors);
    }
    resolve::resolve(&items)
}

/// Parses conditions over the names of an existing program: the invariants
/// of certificates (`crate::certify`).
pub struct CondParser<'a> {
    resolver: resolve::Resolver<'a>,
}

impl<'a> CondParser<'a> {
    /// A parser of conditions over `program`'s variables, threads and
    /// locations.
    pub fn new(program: &'a Program) -> Self {
        CondParser {
            resolver: resolve::Resolver::for_program(program),
        }
    }

    /// Parses `src` as a condition in disjunctive form, as flat lists:
    /// disjuncts separated by `||`, each a list of conjuncts separated by
    /// `&&` (deeper structure in parentheses). Spans are relative to `src`.
    pub fn dnf(&mut self, src: &'a str) -> Result<Vec<Vec<crate::ir::Cond>>, Vec<ParseError>> {
        let tokens = lexer::tokenize(src)?;
        let mut parser = parser::Parser::new(src, tokens);
        let exprs = parser.dnf();
        if !parser.errors.is_empty() {
            return Err(parser.errors);
        }
        let mut out = Vec::with_capacity(exprs.len());
        for conj in &exprs {
            let mut c = Vec::with_capacity(conj.len());
            for e in conj {
                if let Some(cond) = self.resolver.condition(e) {
                    c.push(cond);
                }
            }
            out.push(c);
        }
        let errors = self.resolver.take_errors();
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }
}

/// The reserved words of the format; they cannot be used as names.
pub const KEYWORDS: &[&str] = lexer::KEYWORDS;

/// Whether `name` can be written as a variable, thread, label or location
/// name in a `.gc` file: an ASCII identifier that is not a keyword.
/// (Locations may also be unsigned integers.)
pub fn is_identifier(name: &str) -> bool {
    lexer::is_identifier(name)
}
