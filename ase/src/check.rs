//! `ase check`.

use crate::cfront::{self, CppArgs};
use crate::options::{
    CheckEngine, Format, Limits, EXIT_INVALID, EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE,
};
use crate::{diagnostics, render};
use anyhow::Context;
use engine::ir::Program;
use engine::verdict::{Outcome, UnknownKind, Verdict};
use pipeline::JobError;
use std::path::Path;
use sv_comp::property::Property;

/// The exit code of a verdict.
pub fn exit_code(v: &Verdict) -> u8 {
    match v {
        Verdict::Safe(_) => EXIT_SAFE,
        Verdict::Unsafe(_) => EXIT_UNSAFE,
        Verdict::Unknown(_) => EXIT_UNKNOWN,
    }
}

/// What `ase check` was asked to do.
#[derive(Clone)]
pub struct CheckArgs<'a> {
    /// The program (`.gc`, `.c`, `.i`) or SV-COMP task (`.yml`).
    pub path: &'a Path,
    /// Output format.
    pub format: Format,
    /// The checking algorithm.
    pub engine: CheckEngine,
    /// What the engines are given besides the budgets.
    pub engines: pipeline::EngineOptions,
    /// Time and size budgets.
    pub limits: &'a Limits,
    /// Preprocessor options of C input.
    pub cpp: &'a CppArgs,
    /// An SV-COMP property file (`--property`).
    pub property: Option<&'a Path>,
    /// Address-space limit in MB (`--memlimit`).
    pub memlimit_mb: Option<u64>,
    /// Source-level traces, invariants and witnesses (C input).
    pub evidence: &'a crate::evidence::EvidenceArgs,
    /// Certificates of safe verdicts.
    pub certify: &'a crate::certify::CertifyArgs,
}

impl CheckArgs<'_> {
    /// The pipeline's options.
    fn options(&self) -> anyhow::Result<pipeline::Options> {
        if self.engines.backend == pipeline::Engine::Cegpv {
            anyhow::bail!("--backend cegpv: the slices of CEGPV are checked by another engine");
        }
        Ok(pipeline::Options {
            engine: self.engine.into(),
            engines: self.engines.clone(),
            budget: self.limits.config()?,
            certify: !self.certify.no_certify,
            // Abstract states for `--invariants`, and for a witness when no
            // certificate will give its invariants.
            want_proof: self.evidence.invariants
                || (self.evidence.witness.is_some() && self.certify.no_certify),
        })
    }
}

/// Runs `ase check`.
pub fn run(args: &CheckArgs<'_>) -> anyhow::Result<u8> {
    let started = std::time::Instant::now();
    if let Some(mb) = args.memlimit_mb {
        limit_memory(mb)?;
    }
    let options = args.options()?;
    let cpp = match args.cpp.for_file(args.path) {
        Ok(cpp) => cpp,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    let args = &CheckArgs {
        cpp: &cpp,
        ..args.clone()
    };
    let job = match pipeline::task::resolve(args.path, args.property, &args.cpp.input()) {
        Ok(job) => job,
        Err(JobError::Invalid(message)) => {
            eprintln!("error: {message}");
            return Ok(EXIT_INVALID);
        }
        Err(JobError::Unsupported(reason)) => {
            let outcome = Outcome {
                verdict: Verdict::unknown(UnknownKind::Unsupported, reason),
                stats: Default::default(),
            };
            print_outcome(&Program::default(), &outcome, args.format, Some(""))?;
            return Ok(EXIT_UNKNOWN);
        }
    };
    let sv_comp = job.property.as_ref().map(Property::name);
    if pipeline::input::is_c(&job.program) {
        return match pipeline::check_c(&job, &options, started) {
            Ok(report) => print_c(&job, &report, args, sv_comp),
            Err(e) => load_failure(&e, args.format, sv_comp),
        };
    }
    if args.evidence.witness.is_some() || args.evidence.invariants {
        eprintln!("error: --witness and --invariants need C input");
        return Ok(EXIT_INVALID);
    }
    if args.cpp.races || args.cpp.no_races {
        eprintln!(
            "error: --races and --no-races need C input (a `.gc` program's error condition says what is checked)"
        );
        return Ok(EXIT_INVALID);
    }
    let (_source, program) = match diagnostics::load_gc(&job.program)? {
        Ok(p) => p,
        Err(rendered) => {
            eprint!("{rendered}");
            return Ok(EXIT_INVALID);
        }
    };
    let report = pipeline::check_gc(&program, &job.program.display().to_string(), &options);
    crate::certify::write_certificate(args.certify, &report)?;
    print_outcome_with(
        &program,
        &report.outcome,
        args.format,
        sv_comp,
        None,
        report.certified.as_ref().map(|c| &c.certification),
    )?;
    Ok(exit_code(&report.outcome.verdict))
}

/// C that does not load: invalid input (exit code 2), or a construct that
/// is not modelled (the verdict is unknown).
fn load_failure(
    e: &pipeline::LoadError,
    format: Format,
    sv_comp: Option<&str>,
) -> anyhow::Result<u8> {
    match cfront::failure(e) {
        cfront::Failure::Invalid(msg) => {
            eprint!("{msg}");
            Ok(EXIT_INVALID)
        }
        cfront::Failure::Unsupported(msg) => {
            eprint!("{msg}");
            let headline = msg.lines().next().unwrap_or("unsupported C construct");
            let outcome = Outcome {
                verdict: Verdict::unknown(
                    UnknownKind::Unsupported,
                    format!("the C program uses something not modelled ({headline})"),
                ),
                stats: Default::default(),
            };
            print_outcome(&Program::default(), &outcome, format, sv_comp)?;
            Ok(EXIT_UNKNOWN)
        }
    }
}

/// Prints the report of a C program with its source-level evidence, and
/// writes the certificate and witness files.
fn print_c(
    job: &pipeline::Job,
    c: &pipeline::CReport,
    args: &CheckArgs<'_>,
    sv_comp: Option<&str>,
) -> anyhow::Result<u8> {
    let report = &c.report;
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    crate::certify::write_certificate(args.certify, report)?;
    let cert = report.certified.as_ref();
    // A certificate of the counter system holds no invariants of the C
    // program's variables and locations: witnesses do not use it.
    let witness_cert = cert.filter(|c| !c.counter_system).map(|c| &c.certification);
    let mut evidence = crate::evidence::CEvidence::new(
        &job.program,
        &c.unit,
        &c.lowered,
        &report.outcome,
        report.proof.as_ref(),
        witness_cert,
        args.evidence,
    );
    evidence.unreduced_steps = report.unreduced_steps;
    if let Some(note) = evidence.write_witness(&report.outcome)? {
        eprintln!("{note}");
    }
    print_outcome_with(
        &c.lowered.program,
        &report.outcome,
        args.format,
        sv_comp,
        Some(&evidence),
        cert.map(|c| &c.certification),
    )?;
    Ok(exit_code(&report.outcome.verdict))
}

/// Caps the address space of this process (`--memlimit`): an allocation
/// beyond it fails, and the process stops instead of swapping the machine.
fn limit_memory(mb: u64) -> anyhow::Result<()> {
    use nix::sys::resource::{setrlimit, Resource};
    let bytes = mb.saturating_mul(1 << 20);
    // The engines stop at a share of it with `unknown`, not an abort.
    engine::memory::set_limit(Some(bytes));
    setrlimit(Resource::RLIMIT_AS, bytes, bytes)
        .with_context(|| format!("cannot limit memory to {mb} MB"))
}

/// CPU seconds and peak resident memory (bytes) of this process so far.
fn resources() -> Option<(f64, u64)> {
    use nix::sys::resource::{getrusage, UsageWho};
    let u = getrusage(UsageWho::RUSAGE_SELF).ok()?;
    let secs = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 / 1e6;
    // Linux reports the peak resident set in KiB.
    let peak = u64::try_from(u.max_rss()).unwrap_or(0).saturating_mul(1024);
    Some((secs(u.user_time()) + secs(u.system_time()), peak))
}

/// Runs `ase lower`: prints the lowered program as `.gc`.
pub fn lower(path: &Path, cpp: &CppArgs) -> anyhow::Result<u8> {
    let cpp = &match cpp.for_file(path) {
        Ok(cpp) => cpp,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    match cfront::load(path, cpp) {
        Ok((unit, lowered)) => {
            println!(
                "// lowered from {} ({} data model)",
                path.display(),
                unit.data_model
            );
            if let Ok(Some(harness)) = cfront::harness_text(path, cpp) {
                println!("// with the harness of --concurrent appended:");
                for line in harness.lines() {
                    println!("//   {line}");
                }
            }
            print!("{}", engine::print::print_program(&lowered.program));
            // Constructs that are not modelled, once each: an execution that
            // reaches one is answered `unknown` (the model's own limits,
            // such as a thread-creation site that runs twice, are not
            // listed).
            let mut reasons: Vec<&str> = lowered
                .give_ups
                .iter()
                .filter(|(_, _, g)| g.kind == lowering::GiveUpKind::Construct)
                .map(|(_, _, g)| g.reason.as_str())
                .collect();
            reasons.sort_unstable();
            reasons.dedup();
            for reason in reasons {
                eprintln!("warning: gives up where reached: {reason}");
            }
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

/// BenchExec's result line of a verdict on a property (the last line of
/// SV-COMP mode).
pub fn verification_result(v: &Verdict, property: &str) -> String {
    match v {
        Verdict::Safe(_) => "TRUE".into(),
        Verdict::Unsafe(_) => format!("FALSE({property})"),
        Verdict::Unknown(_) => "UNKNOWN".into(),
    }
}

/// Prints the outcome; in SV-COMP mode (`sv_comp`: the property's name,
/// for `FALSE(name)`) the text ends with
/// `Verification result: ...` and the JSON carries `verification_result`.
/// The JSON also reports this process's CPU time and peak memory.
fn print_outcome(
    program: &Program,
    outcome: &Outcome,
    format: Format,
    sv_comp: Option<&str>,
) -> anyhow::Result<()> {
    print_outcome_with(program, outcome, format, sv_comp, None, None)
}

/// [`print_outcome`] with the source-level evidence of a C program.
fn print_outcome_with(
    program: &Program,
    outcome: &Outcome,
    format: Format,
    sv_comp: Option<&str>,
    c: Option<&crate::evidence::CEvidence<'_>>,
    cert: Option<&engine::certify::Certification>,
) -> anyhow::Result<()> {
    // A violated memory-safety property is named by its sub-property
    // (`FALSE(valid-deref)`).
    let violated = c
        .and_then(|c| c.trace.as_ref())
        .and_then(|t| t.violation.as_ref())
        .map(|v| v.violation.name());
    let sv_comp = sv_comp.map(|p| violated.unwrap_or(p));
    match format {
        Format::Text => {
            match c.and_then(|c| c.text(outcome)) {
                Some(text) => print!("{text}"),
                None => print!("{}", render::text(program, outcome)),
            }
            if let Some(cert) = cert {
                println!("{}", crate::certify::text_line(cert));
            }
            if let Some(property) = sv_comp {
                println!(
                    "Verification result: {}",
                    verification_result(&outcome.verdict, property)
                );
            }
        }
        // A SARIF log is built from this JSON by `multi` (several files).
        Format::Json | Format::Sarif => {
            let mut v = render::json(program, outcome);
            if let Some(c) = c {
                c.extend_json(&mut v);
            }
            if let Some(cert) = cert {
                crate::certify::extend_json(cert, &mut v);
            }
            if let Some(obj) = v.as_object_mut() {
                if let Some(property) = sv_comp {
                    obj.insert(
                        "verification_result".into(),
                        verification_result(&outcome.verdict, property).into(),
                    );
                }
                if let Some((cpu, peak)) = resources() {
                    obj.insert(
                        "resources".into(),
                        serde_json::json!({ "cpu_seconds": cpu, "peak_memory_bytes": peak }),
                    );
                }
            }
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
    }
    Ok(())
}
