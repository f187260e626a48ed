//! Reading `.gc` files, and rendering of input errors with
//! codespan-reporting.

use anyhow::Context;
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::WriteColor};
use engine::ir::Program;
use engine::parse::ParseError;
use std::path::Path;

/// Renders parse errors of `source` (named `name`) to `out`.
pub fn emit(
    out: &mut dyn WriteColor,
    name: &str,
    source: &str,
    errors: &[ParseError],
) -> std::io::Result<()> {
    let file = SimpleFile::new(name, source);
    let config = term::Config::default();
    for e in errors {
        let mut labels = vec![Label::primary((), clamp(e.span.range(), source.len()))];
        for (span, caption) in &e.labels {
            labels.push(
                Label::secondary((), clamp(span.range(), source.len())).with_message(caption),
            );
        }
        let d = Diagnostic::error()
            .with_message(&e.message)
            .with_labels(labels)
            .with_notes(e.notes.clone());
        term::emit(out, &config, &file, &d).map_err(std::io::Error::other)?;
    }
    Ok(())
}

fn clamp(r: std::ops::Range<usize>, len: usize) -> std::ops::Range<usize> {
    r.start.min(len)..r.end.min(len).max(r.start.min(len))
}

/// Renders parse errors without colours (for tests and logs).
pub fn to_string(name: &str, source: &str, errors: &[ParseError]) -> String {
    let mut buf = term::termcolor::NoColor::new(Vec::new());
    emit(&mut buf, name, source, errors).expect("writing to memory");
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}

/// Reads and parses a `.gc` file; parse errors are rendered to stderr.
pub fn load_gc(path: &Path) -> anyhow::Result<Result<(String, Program), String>> {
    let source = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("gc") => {}
        Some(ext) => anyhow::bail!(
            "`{}`: unsupported input `.{ext}` (this version checks `.gc` programs)",
            path.display()
        ),
        None => anyhow::bail!("`{}`: the input needs a `.gc` extension", path.display()),
    }
    match engine::parse::parse_program(&source) {
        Ok(p) => Ok(Ok((source, p))),
        Err(errors) => Ok(Err(to_string(
            &path.display().to_string(),
            &source,
            &errors,
        ))),
    }
}
