//! Certificates in the command line: `ase check --certificate FILE`,
//! `--no-certify`, the `certified:` line and JSON fields, and
//! `ase certify PROGRAM CERTIFICATE`.

use crate::cfront::{self, CppArgs};
use crate::{diagnostics, EXIT_INVALID, EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE};
use anyhow::Context;
use engine::certify::{self, Certification, Evidence};
use engine::ir::Program;
use engine::verdict::{Outcome, Verdict};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Options of `ase check` about certificates.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CertifyArgs {
    /// Write the certificate of a safe verdict (an inductive invariant of
    /// the checked program, per tuple of thread locations) to FILE.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Do not build and check a certificate of a safe verdict.
    #[arg(long, conflicts_with = "certificate")]
    pub no_certify: bool,
}

/// Least time the certificate check gets, whatever is left of `--timeout`.
const MIN_CERTIFY_TIME: Duration = Duration::from_secs(5);

/// Certifies a safe verdict (unless `--no-certify`): builds the
/// certificate from the evidence, checks it, turns the verdict into
/// `unknown` when the checker refutes it, and writes `--certificate`.
pub fn after_check(
    args: &CertifyArgs,
    program: &Program,
    name: &str,
    outcome: &mut Outcome,
    evidence: Evidence<'_>,
    timeout: Option<Duration>,
) -> anyhow::Result<Option<Certification>> {
    let Verdict::Safe(proof) = outcome.verdict else {
        if args.certificate.is_some() {
            eprintln!("no certificate written: the verdict is not safe");
        }
        return Ok(None);
    };
    if args.no_certify {
        return Ok(None);
    }
    let left = timeout.map(|t| t.saturating_sub(outcome.stats.time).max(MIN_CERTIFY_TIME));
    let c = certify::certify(program, name, proof, evidence, left);
    c.apply(&mut outcome.verdict);
    if let Some(path) = &args.certificate {
        match &c.certificate {
            Some(cert) => std::fs::write(path, certify::text::print(program, cert))
                .with_context(|| format!("cannot write `{}`", path.display()))?,
            None => eprintln!("no certificate written: {}", c.reason().unwrap_or("")),
        }
    }
    Ok(Some(c))
}

/// How long `ase certify` searches for the speculating counter system or
/// the view program a certificate may name.
const SPECULATION_TIME: Duration = Duration::from_secs(60);

/// The program a certificate of a C program is about: the lowered program,
/// or, for a program that creates threads in loops, the counter system (or
/// its coarse version) whose fingerprint the certificate names
/// (`crate::counting`).
fn counter_program(lowered: lowering::Lowered, text: &str) -> Program {
    if lowered.loop_sites.is_empty() {
        return lowered.program;
    }
    let Ok(system) = lowering::counter::counter_system(&lowered) else {
        return lowered.program;
    };
    let names = |p: &Program| {
        certify::text::parse(p, text)
            .is_ok_and(|c| c.program.fingerprint == certify::fingerprint(p))
    };
    match system.coarse {
        Some(c) if names(&c) => c,
        _ if names(&system.program) => system.program,
        // The speculating system of the saturated search, or the view
        // program, found again.
        _ => match crate::counting::viewed(&lowered, Instant::now() + SPECULATION_TIME) {
            Ok((s, _)) if names(&s.program) => s.program,
            _ => match crate::counting::saturated(&lowered, Some(SPECULATION_TIME)).proof {
                Ok((s, ..)) if names(&s.program) => s.program,
                _ => lowered.program,
            },
        },
    }
}

/// The `certified:` line of the text output.
pub fn text_line(c: &Certification) -> String {
    match c.reason() {
        None => format!("certified: yes ({:.3} s)", c.time.as_secs_f64()),
        Some(why) => format!("certified: no ({why})"),
    }
}

/// Adds `certified`, `certificate_time` and `certificate_reason` to a JSON
/// outcome.
pub fn extend_json(c: &Certification, v: &mut Value) {
    let Some(obj) = v.as_object_mut() else { return };
    obj.insert("certified".into(), json!(c.certified()));
    obj.insert("certificate_time".into(), json!(c.time.as_secs_f64()));
    obj.insert("certificate_kind".into(), json!(c.kind));
    if let Some(r) = &c.report {
        obj.insert("certificate_obligations".into(), json!(r.obligations));
    }
    if let Some(why) = c.reason() {
        obj.insert("certificate_reason".into(), json!(why));
    }
}

/// Runs `ase certify PROGRAM CERTIFICATE`: exit 0 when the certificate is
/// valid, 1 when an obligation fails, 3 when one is undecided, 2 on bad
/// input.
pub fn run(
    program_path: &Path,
    cert_path: &Path,
    cpp: &CppArgs,
    timeout: f64,
) -> anyhow::Result<u8> {
    if !(timeout.is_finite() && timeout > 0.0) {
        anyhow::bail!("--timeout must be a positive number of seconds");
    }
    let text = std::fs::read_to_string(cert_path)
        .with_context(|| format!("cannot read `{}`", cert_path.display()))?;
    let program = if cfront::is_c(program_path) {
        match cfront::load(program_path, cpp) {
            Ok((_, lowered)) => counter_program(lowered, &text),
            Err(cfront::Failure::Invalid(msg) | cfront::Failure::Unsupported(msg)) => {
                eprint!("{msg}");
                return Ok(EXIT_INVALID);
            }
        }
    } else {
        match crate::check::load(program_path)? {
            Ok((_, p)) => p,
            Err(rendered) => {
                eprint!("{rendered}");
                return Ok(EXIT_INVALID);
            }
        }
    };
    let cert = match certify::text::parse(&program, &text) {
        Ok(c) => c,
        Err(errors) => {
            eprint!(
                "{}",
                diagnostics::to_string(&cert_path.display().to_string(), &text, &errors)
            );
            return Ok(EXIT_INVALID);
        }
    };
    let fingerprint = certify::fingerprint(&program);
    if !cert.program.fingerprint.is_empty() && cert.program.fingerprint != fingerprint {
        eprintln!(
            "warning: the certificate names another program (`{}`, fingerprint {}; this one is {fingerprint}); checking it against this one",
            cert.program.name, cert.program.fingerprint
        );
    }
    let report = certify::check::check(
        &program,
        &cert,
        Some(Duration::from_secs_f64(timeout.min(1e9))),
    );
    match &report.result {
        Ok(()) => {
            println!(
                "valid: {} obligations hold ({} invariants, {:.3} s)",
                report.obligations,
                cert.invariants.len(),
                report.time.as_secs_f64()
            );
            Ok(EXIT_SAFE)
        }
        Err(f) if f.is_refutation() => {
            println!("invalid: {}", f.describe(&program));
            Ok(EXIT_UNSAFE)
        }
        Err(f) => {
            println!("undecided: {}", f.describe(&program));
            Ok(EXIT_UNKNOWN)
        }
    }
}
