//! `ase check`.

use crate::cfront::DataModelArg;
use crate::cfront::{self, CppArgs};
use crate::{
    diagnostics, render, CheckEngine, Format, Limits, EXIT_INVALID, EXIT_SAFE, EXIT_UNKNOWN,
    EXIT_UNSAFE,
};
use anyhow::Context;
use engine::ir::Program;
use engine::verdict::{Outcome, Verdict};
use std::path::{Path, PathBuf};
use std::time::Duration;
use sv_comp::property::{Property, PropertyError};
use sv_comp::task::TaskDef;

/// The errors-only search's first slice on programs with threads created in
/// loops (at most a sixteenth of the time left).
const ERRORS_FIRST: Duration = Duration::from_secs(2);

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

/// What `ase check` was asked to do.
pub struct CheckArgs<'a> {
    /// The program (`.gc`, `.c`, `.i`) or SV-COMP task (`.yml`).
    pub path: &'a Path,
    /// Output format.
    pub format: Format,
    /// The checking algorithm.
    pub engine: CheckEngine,
    /// The value bound of the explicit search.
    pub bound: i64,
    /// The depth limit of bounded model checking.
    pub depth: Option<usize>,
    /// Engines run at the same time by `--engine auto`.
    pub jobs: usize,
    /// Whether the explicit search is partial-order reduced.
    pub partial_order: bool,
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

/// Whether a path is an SV-COMP task definition.
pub fn is_task(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// What to check after reading a task definition or property file.
struct Job {
    /// The program file.
    program: PathBuf,
    /// Preprocessor options, with the task's data model.
    cpp: CppArgs,
    /// The SV-COMP property, when one was given: the output then ends with
    /// BenchExec's result line.
    property: Option<Property>,
}

/// Runs `ase check`.
pub fn run(args: &CheckArgs<'_>) -> anyhow::Result<u8> {
    let started = std::time::Instant::now();
    if let Some(mb) = args.memlimit_mb {
        limit_memory(mb)?;
    }
    let config = args.limits.config()?;
    let job = match job(args) {
        Ok(job) => job,
        Err(JobError::Invalid(message)) => {
            eprintln!("error: {message}");
            return Ok(EXIT_INVALID);
        }
        Err(JobError::Unsupported(reason)) => {
            let outcome = Outcome {
                verdict: Verdict::Unknown(reason),
                stats: Default::default(),
            };
            print_outcome(&Program::default(), &outcome, args.format, Some(""))?;
            return Ok(EXIT_UNKNOWN);
        }
    };
    let sv_comp = job.property.as_ref().map(Property::name);
    if cfront::is_c(&job.program) {
        return run_c(&job, args, &config, started);
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
    let (_source, program) = match load(&job.program)? {
        Ok(p) => p,
        Err(rendered) => {
            eprint!("{rendered}");
            return Ok(EXIT_INVALID);
        }
    };
    // `auto` is ASE on `.gc` models: they are the papers' benchmarks.
    let engine = match args.engine {
        CheckEngine::Auto => CheckEngine::Ase,
        e => e,
    };
    let mut invariants = None;
    let (mut outcome, proof) = match engine {
        CheckEngine::Ase => engine::ase::check_with_proof(&program, &config),
        CheckEngine::Ur => engine::ur::check_with_proof(&program, &config),
        CheckEngine::Infer => {
            let deadline = config.timeout.map(|t| std::time::Instant::now() + t);
            let inferred = engine::infer::prove(&program, deadline, None);
            invariants = inferred.invariants;
            (inferred.outcome, None)
        }
        _ => (
            engine.check(&program, &config, &engine_args(args, None)),
            None,
        ),
    };
    let evidence = match (&proof, &invariants) {
        (Some(p), _) => engine::certify::Evidence::Abstract(p),
        (None, Some(i)) => engine::certify::Evidence::Invariants(i),
        (None, None) => engine::certify::Evidence::None,
    };
    let cert = crate::certify::after_check(
        args.certify,
        &program,
        &job.program.display().to_string(),
        &mut outcome,
        evidence,
        config.timeout,
    )?;
    print_outcome_with(
        &program,
        &outcome,
        args.format,
        sv_comp,
        None,
        cert.as_ref(),
    )?;
    Ok(exit_code(&outcome.verdict))
}

/// Why there is nothing to check.
enum JobError {
    /// A missing or malformed task or property file: exit code 2.
    Invalid(String),
    /// A task `ase` cannot check (another property, several input files):
    /// the verdict is unknown.
    Unsupported(String),
}

/// Resolves the program, data model and property of `ase check`.
fn job(args: &CheckArgs<'_>) -> Result<Job, JobError> {
    let property = |path: &Path| match sv_comp::property::read(path) {
        Ok(p) => Ok(p),
        Err(e @ PropertyError::Io { .. }) => Err(JobError::Invalid(e.to_string())),
        Err(e @ PropertyError::Unsupported { .. }) => Err(JobError::Unsupported(e.to_string())),
    };
    if !is_task(args.path) {
        let property = args.property.map(property).transpose()?;
        let mut cpp = args.cpp.clone();
        if let Some(p) = &property {
            check_only(p, &mut cpp);
        }
        return Ok(Job {
            program: args.path.to_path_buf(),
            cpp,
            property,
        });
    }
    let task = TaskDef::read(args.path).map_err(|e| JobError::Invalid(e.to_string()))?;
    let program = task
        .input_file()
        .map_err(|e| JobError::Unsupported(e.to_string()))?
        .to_path_buf();
    let property = match args.property {
        Some(path) => property(path)?,
        None => match task.checkable_property() {
            Ok((p, _)) => p,
            Err(e @ PropertyError::Io { .. }) => return Err(JobError::Invalid(e.to_string())),
            Err(e) => return Err(JobError::Unsupported(e.to_string())),
        },
    };
    let mut cpp = args.cpp.clone();
    check_only(&property, &mut cpp);
    if cpp.data_model.is_none() {
        cpp.data_model = task.data_model.map(|m| match m {
            sv_comp::task::DataModel::Ilp32 => DataModelArg::Ilp32,
            sv_comp::task::DataModel::Lp64 => DataModelArg::Lp64,
        });
    }
    Ok(Job {
        program,
        cpp,
        property: Some(property),
    })
}

/// An SV-COMP property is checked alone: `unreach-call` without races,
/// `no-data-race` without assertions.
fn check_only(property: &Property, cpp: &mut CppArgs) {
    let races = matches!(property, Property::NoDataRace);
    cpp.races = races;
    cpp.no_races = !races;
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

/// `ase check` on C input: lower, check, and turn a trace that ends in
/// behaviour the lowering does not model into `unknown`.
fn run_c(
    job: &Job,
    args: &CheckArgs<'_>,
    config: &engine::ase::Config,
    started: std::time::Instant,
) -> anyhow::Result<u8> {
    let sv_comp = job.property.as_ref().map(Property::name);
    let (unit, lowered) = match cfront::load(&job.program, &job.cpp) {
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
            print_outcome(&Program::default(), &outcome, args.format, sv_comp)?;
            return Ok(EXIT_UNKNOWN);
        }
    };
    // The time limit covers preprocessing and lowering too: the engines get
    // what is left.
    let spent = started.elapsed();
    let config = &engine::ase::Config {
        timeout: config.timeout.map(|t| t.saturating_sub(spent)),
        ..*config
    };
    if config.timeout.is_some_and(|t| t.is_zero()) {
        let outcome = Outcome {
            verdict: Verdict::Unknown(format!(
                "time limit reached (preprocessing and lowering took {:.1} s)",
                spent.as_secs_f64()
            )),
            stats: Default::default(),
        };
        print_outcome(&lowered.program, &outcome, args.format, sv_comp)?;
        return Ok(EXIT_UNKNOWN);
    }
    // Abstract states for `--invariants`, and for a witness when no
    // certificate will give its invariants.
    let want_proof =
        args.evidence.invariants || (args.evidence.witness.is_some() && args.certify.no_certify);
    let bugs = engine_args(args, Some(lowered.bug_condition()));
    // Heap arrays of run-time length: an error past the allocation of a
    // tail is no counterexample, so bugs are then searched in the program
    // lowered without tails (SOUNDNESS.md, "Heap arrays of run-time
    // length"), lowered when a give-up sends the search there.
    let mut exact: Option<lowering::Lowered> = None;
    let search = |program: &Program,
                  config: &engine::ase::Config,
                  want_proof: bool,
                  bugs: &crate::EngineArgs| match args.engine {
        CheckEngine::Ase => {
            let (o, p) = engine::ase::check_with_proof(program, config);
            (o, p, None, None)
        }
        CheckEngine::Ur => {
            let (o, p) = engine::ur::check_with_proof(program, config);
            (o, p, None, None)
        }
        CheckEngine::Infer => {
            let deadline = config.timeout.map(|t| std::time::Instant::now() + t);
            let inferred = engine::infer::prove(program, deadline, None);
            (inferred.outcome, None, None, inferred.invariants)
        }
        CheckEngine::Auto => {
            let found = crate::auto_with_evidence(program, config, bugs, want_proof);
            (
                found.outcome,
                found.proof,
                found.reachable,
                found.invariants,
            )
        }
        _ => (args.engine.check(program, config, bugs), None, None, None),
    };
    // Threads created in loops: the bounded instances get two thirds of the
    // time, so that the counter abstraction has a third even when they
    // exhaust their budget.
    let bounded = engine::ase::Config {
        timeout: config.timeout.map(|t| {
            if lowered.loop_sites.is_empty() {
                t
            } else {
                t * 2 / 3
            }
        }),
        ..*config
    };
    let (mut outcome, proof, reachable, invariants) =
        search(&lowered.program, &bounded, want_proof, &bugs);
    // Whether the verdict comes from the errors-only search (of `exact`
    // when there is one).
    let mut by_bug_model = false;
    let mut counted: Option<Option<engine::certify::Certification>> = None;
    let mut counting_reason: Option<String> = None;
    if let Verdict::Unsafe(trace) = &outcome.verdict {
        let last = trace.steps.last().map_or(&trace.initial, |s| &s.state);
        if let lowering::TraceEnd::GiveUp(reason) = lowered.trace_end(last) {
            let beyond = |s: &lowering::LoopSite| lowering::LoopSite::beyond(s.instances.len());
            let why = if lowered.loop_sites.iter().any(|s| beyond(s) == reason) {
                format!("no proof for more threads than the instances: {reason}")
            } else if reason == lowering::TAIL_ERROR {
                format!("no proof and no counterexample: {reason}")
            } else {
                format!("an execution reaches behaviour that is not modelled: {reason}")
            };
            // A real error may still be reachable past the give-up states:
            // search again with only `reach_error()` as the target, in the
            // time left (SOUNDNESS.md, "Give-up states").
            let mut left = config.timeout.map(|t| t.saturating_sub(outcome.stats.time));
            if lowered.tail_errors() {
                let options = lowering::Options {
                    tails: false,
                    ..job.cpp.lowering_options()
                };
                exact = lowering::lower_with(&unit, &options).ok();
            }
            let bug_model = exact.as_ref().unwrap_or(&lowered);
            let bug_args = engine_args(args, Some(bug_model.bug_condition()));
            let errors = bug_model.errors_only();
            let search_errors = |timeout: Option<Duration>| {
                let config = engine::ase::Config { timeout, ..*config };
                search(&errors, &config, false, &bug_args).0
            };
            let in_loops = !lowered.loop_sites.is_empty();
            // Threads created in loops: a short errors-only search first, so
            // that a shallow bug is not found only after the counter
            // abstraction has spent its share.
            let mut found = None;
            if in_loops && left.is_none_or(|t| !t.is_zero()) {
                let slice = left.map_or(ERRORS_FIRST, |t| (t / 16).min(ERRORS_FIRST));
                let o = search_errors(Some(slice));
                if matches!(o.verdict, Verdict::Unsafe(_)) {
                    found = Some(o);
                } else {
                    outcome.stats.time += o.stats.time;
                    left = left.map(|t| t.saturating_sub(o.stats.time));
                }
            }
            // Then the counter abstraction, with half of the time left
            // (SOUNDNESS.md, "Threads created in loops").
            if found.is_none() && in_loops && left.is_none_or(|t| !t.is_zero()) {
                let (o, c) = crate::counting::prove(
                    &lowered,
                    config,
                    left.map(|t| t / 2),
                    args.certify,
                    &job.program,
                    &why,
                );
                outcome.stats.time += o.stats.time;
                left = left.map(|t| t.saturating_sub(o.stats.time));
                if matches!(o.verdict, Verdict::Safe(_)) {
                    let time = outcome.stats.time;
                    outcome = o;
                    outcome.stats.time = time;
                    counted = Some(c.flatten());
                } else if let Verdict::Unknown(r) = o.verdict {
                    counting_reason = Some(r);
                }
            }
            let again = found.or_else(|| {
                (counted.is_none() && left.is_none_or(|t| !t.is_zero()))
                    .then(|| search_errors(left))
            });
            if counted.is_none() {
                outcome.verdict = match again {
                    Some(o) if matches!(o.verdict, Verdict::Unsafe(_)) => {
                        by_bug_model = true;
                        let time = outcome.stats.time + o.stats.time;
                        outcome.stats = o.stats;
                        outcome.stats.time = time;
                        o.verdict
                    }
                    _ => Verdict::Unknown(counting_reason.clone().unwrap_or(why)),
                };
            }
        }
    }
    // An `unknown` for another reason (a budget): the counter abstraction
    // may still prove the program.
    if let (Verdict::Unknown(why), None, None) = (&outcome.verdict, &counted, &counting_reason) {
        let left = config.timeout.map(|t| t.saturating_sub(outcome.stats.time));
        if !lowered.loop_sites.is_empty() && left.is_none_or(|t| !t.is_zero()) {
            let (o, c) =
                crate::counting::prove(&lowered, config, left, args.certify, &job.program, why);
            let time = outcome.stats.time + o.stats.time;
            outcome = o;
            outcome.stats.time = time;
            counted = c;
        }
    }
    let lowered = match &exact {
        Some(exact) if by_bug_model => exact,
        _ => &lowered,
    };
    // A bug of the reduced program must be one of the program without the
    // reduction: its trace is replayed there (SOUNDNESS.md, "Reduction").
    let unreduced_steps = unreduced_replay(job, &unit, lowered, &mut outcome);
    let (proof, reachable, invariants) = if counted.is_some() {
        (None, None, None)
    } else {
        (proof, reachable, invariants)
    };
    let cert_evidence = match (&proof, &reachable, &invariants) {
        (Some(p), _, _) => engine::certify::Evidence::Abstract(p),
        (None, Some(r), _) => engine::certify::Evidence::Explicit(r),
        (None, None, Some(i)) => engine::certify::Evidence::Invariants(i),
        (None, None, None) => engine::certify::Evidence::None,
    };
    let by_counting = counted.is_some();
    let cert = match counted {
        Some(c) => c,
        None => crate::certify::after_check(
            args.certify,
            &lowered.program,
            &job.program.display().to_string(),
            &mut outcome,
            cert_evidence,
            config.timeout,
        )?,
    };
    // A certificate of the counter system holds no invariants of the C
    // program's variables and locations: witnesses do not use it.
    let witness_cert = if by_counting { None } else { cert.as_ref() };
    let mut evidence = crate::evidence::CEvidence::new(
        &job.program,
        &unit,
        lowered,
        &outcome,
        proof.as_ref(),
        witness_cert,
        args.evidence,
    );
    evidence.unreduced_steps = unreduced_steps;
    if let Some(note) = evidence.write_witness(&outcome)? {
        eprintln!("{note}");
    }
    print_outcome_with(
        &lowered.program,
        &outcome,
        args.format,
        sv_comp,
        Some(&evidence),
        cert.as_ref(),
    )?;
    Ok(exit_code(&outcome.verdict))
}

/// Replays an unsafe verdict's trace of the reduced program on the program
/// lowered without the reduction ([`lowering::unreduced::replay`]); the
/// length of the unreduced trace, or `None` when there was nothing to
/// replay. A trace that does not replay turns the verdict into `unknown`
/// (an internal error: the reduction is wrong for this program).
fn unreduced_replay(
    job: &Job,
    unit: &frontend::ParsedUnit,
    lowered: &lowering::Lowered,
    outcome: &mut Outcome,
) -> Option<usize> {
    let Verdict::Unsafe(trace) = &outcome.verdict else {
        return None;
    };
    if job.cpp.no_reduce {
        return None;
    }
    let options = lowering::Options {
        reduce: false,
        compress: false,
        tails: lowered.tails,
        ..job.cpp.lowering_options()
    };
    let result = lowering::lower_with(unit, &options)
        .map_err(|e| format!("lowering it: {e}"))
        .and_then(|unreduced| {
            lowering::unreduced::replay(lowered, &unreduced, trace).map_err(|e| e.to_string())
        });
    match result {
        Ok(t) => Some(t.steps.len()),
        Err(why) => {
            outcome.verdict = Verdict::Unknown(format!(
                "internal error: the counterexample of the reduced program does not replay on \
                 the program without the reduction ({why}); `--no-reduce` checks that program"
            ));
            None
        }
    }
}

/// The engines' arguments of a check; `target`: the error states that are
/// bugs.
fn engine_args(args: &CheckArgs<'_>, target: Option<engine::ir::Cond>) -> crate::EngineArgs {
    crate::EngineArgs {
        bound: args.bound,
        depth: args.depth,
        jobs: args.jobs,
        partial_order: args.partial_order,
        target,
    }
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
            if let Ok(Some(harness)) = cfront::harness_text(path, cpp) {
                println!("// with the harness of --concurrent appended:");
                for line in harness.lines() {
                    println!("//   {line}");
                }
            }
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
