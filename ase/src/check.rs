//! `ase check`.

use crate::cfront::{self, CppArgs};
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
    cpp: &CppArgs,
) -> anyhow::Result<u8> {
    let config = limits.config()?;
    if cfront::is_c(path) {
        return run_c(path, format, engine, bound, &config, cpp);
    }
    let (_source, program) = match load(path)? {
        Ok(p) => p,
        Err(rendered) => {
            eprint!("{rendered}");
            return Ok(EXIT_INVALID);
        }
    };
    let outcome: Outcome = engine.check(&program, &config, bound);
    print_outcome(&program, &outcome, format)?;
    Ok(exit_code(&outcome.verdict))
}

/// `ase check` on C input: lower, check, and turn a trace that ends in
/// behaviour the lowering does not model into `unknown`.
fn run_c(
    path: &Path,
    format: Format,
    engine: CheckEngine,
    bound: i64,
    config: &engine::ase::Config,
    cpp: &CppArgs,
) -> anyhow::Result<u8> {
    let (_unit, lowered) = match cfront::load(path, cpp) {
        Ok(x) => x,
        Err(cfront::Failure::Invalid(msg)) => {
            eprint!("{msg}");
            return Ok(EXIT_INVALID);
        }
        Err(cfront::Failure::Unsupported(msg)) => {
            eprint!("{msg}");
            let headline = msg.lines().next().unwrap_or("unsupported C construct");
            let outcome = Outcome {
                verdict: Verdict::Unknown(format!(
                    "the C program uses something not modelled ({headline})"
                )),
                stats: Default::default(),
            };
            print_outcome(&Program::default(), &outcome, format)?;
            return Ok(EXIT_UNKNOWN);
        }
    };
    let mut outcome: Outcome = engine.check(&lowered.program, config, bound);
    if let Verdict::Unsafe(trace) = &outcome.verdict {
        let last = trace.steps.last().map_or(&trace.initial, |s| &s.state);
        if let lowering::TraceEnd::GiveUp(reason) = lowered.trace_end(last) {
            outcome.verdict = Verdict::Unknown(format!(
                "an execution reaches behaviour that is not modelled: {reason}"
            ));
        }
    }
    print_outcome(&lowered.program, &outcome, format)?;
    Ok(exit_code(&outcome.verdict))
}

/// Runs `ase lower`: prints the lowered program as `.gc`.
pub fn lower(path: &Path, cpp: &CppArgs) -> anyhow::Result<u8> {
    match cfront::load(path, cpp) {
        Ok((unit, lowered)) => {
            println!(
                "// lowered from {} ({} data model)",
                path.display(),
                unit.data_model
            );
            print!("{}", engine::print::print_program(&lowered.program));
            Ok(EXIT_SAFE)
        }
        Err(cfront::Failure::Invalid(msg)) => {
            eprint!("{msg}");
            Ok(EXIT_INVALID)
        }
        Err(cfront::Failure::Unsupported(msg)) => {
            eprint!("{msg}");
            Ok(EXIT_UNKNOWN)
        }
    }
}

fn print_outcome(program: &Program, outcome: &Outcome, format: Format) -> anyhow::Result<()> {
    match format {
        Format::Text => print!("{}", render::text(program, outcome)),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&render::json(program, outcome))?
        ),
    }
    Ok(())
}
