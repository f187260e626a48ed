//! `ase check`.

use crate::{
    diagnostics, render, CheckEngine, Format, Limits, EXIT_INVALID, EXIT_SAFE, EXIT_UNKNOWN,
    EXIT_UNSAFE,
};
use anyhow::Context;
use engine::ir::Program;
use engine::verdict::{Outcome, Verdict};
use std::path::Path;

/// Reads and parses a `.gc` file; parse errors are rendered to stderr.
pub fn load(path: &Path) -> anyhow::Result<Result<(String, Program), String>> {
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
        Err(errors) => Ok(Err(diagnostics::to_string(
            &path.display().to_string(),
            &source,
            &errors,
        ))),
    }
}

/// The exit code of a verdict.
pub fn exit_code(v: &Verdict) -> u8 {
    match v {
        Verdict::Safe(_) => EXIT_SAFE,
        Verdict::Unsafe(_) => EXIT_UNSAFE,
        Verdict::Unknown(_) => EXIT_UNKNOWN,
    }
}

/// Runs `ase check`.
pub fn run(
    path: &Path,
    format: Format,
    engine: CheckEngine,
    bound: i64,
    limits: &Limits,
) -> anyhow::Result<u8> {
    let config = limits.config()?;
    let (_source, program) = match load(path)? {
        Ok(p) => p,
        Err(rendered) => {
            eprint!("{rendered}");
            return Ok(EXIT_INVALID);
        }
    };
    let outcome: Outcome = engine.check(&program, &config, bound);
    match format {
        Format::Text => print!("{}", render::text(&program, &outcome)),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&render::json(&program, &outcome))?
        ),
    }
    Ok(exit_code(&outcome.verdict))
}
