//! Certificates in the command line: `ase check --certificate FILE`,
//! `--no-certify`, the `certified:` line and JSON fields, and
//! `ase certify PROGRAM CERTIFICATE`.

use crate::cfront::{self, CppArgs};
use crate::diagnostics;
use crate::options::{EXIT_INVALID, EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE};
use anyhow::Context;
use engine::certify::{self, Certification};
use engine::verdict::Verdict;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// Writes the certificate of a safe verdict to `--certificate`, or says
/// why there is none.
pub fn write_certificate(args: &CertifyArgs, report: &pipeline::Report) -> anyhow::Result<()> {
    let Some(path) = &args.certificate else {
        return Ok(());
    };
    let Some(certified) = &report.certified else {
        if !matches!(report.outcome.verdict, Verdict::Safe(_)) {
            eprintln!("no certificate written: the verdict is not safe");
        }
        return Ok(());
    };
    match &certified.certification.certificate {
        Some(cert) => std::fs::write(path, certify::text::print(&certified.program, cert))
            .with_context(|| format!("cannot write `{}`", path.display())),
        None => {
            let why = certified.certification.reason().unwrap_or("");
            eprintln!("no certificate written: {why}");
            Ok(())
        }
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
    let program = if pipeline::input::is_c(program_path) {
        let cpp = match cpp.for_file(program_path) {
            Ok(cpp) => cpp,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(EXIT_INVALID);
            }
        };
        match pipeline::certify::c_subject(program_path, &cpp.input(), &text) {
            Ok(Ok(program)) => program,
            Ok(Err(e)) => {
                eprintln!("error: `{}`: {e}", cert_path.display());
                return Ok(EXIT_INVALID);
            }
            Err(e) => match cfront::failure(&e) {
                cfront::Failure::Invalid(msg) | cfront::Failure::Unsupported(msg) => {
                    eprint!("{msg}");
                    return Ok(EXIT_INVALID);
                }
            },
        }
    } else {
        match diagnostics::load_gc(program_path)? {
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
