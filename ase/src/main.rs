//! `ase`: a verifier for concurrent programs (Abstract Analysis of Symbolic
//! Executions).

mod bench;
mod certify;
mod cfront;
mod check;
mod ctrace;
mod diagnostics;
mod evidence;
mod multi;
mod options;
mod precommit;
mod render;
mod sarif;
mod tables;

use clap::{CommandFactory, Parser, Subcommand};
use options::{CheckEngine, EngineKind, Format, Limits, EXIT_INVALID};
use pipeline::engines::default_jobs;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "ase",
    version,
    about = "Verify concurrent programs with Abstract Analysis of Symbolic Executions"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a program (`.gc`, or C: `.c` preprocessed with `cc -E`, `.i`
    /// as is, or an SV-COMP task `.yml`) and print the verdict: safe, unsafe
    /// (with a trace) or unknown (with the reason).
    #[command(args_override_self = true)]
    Check {
        /// The programs: files, or directories (their `.c`, `.i` and `.gc`
        /// files, recursively). Several are checked side by side (`--jobs`
        /// at a time), with one summary line each; the exit code is the
        /// worst result (bad input, unsafe, unknown, safe).
        #[arg(required = true, num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        cpp: cfront::CppArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The checking algorithm.
        #[arg(long, value_enum, default_value_t = CheckEngine::Auto)]
        engine: CheckEngine,
        /// Check the SV-COMP property of this file, or of this name
        /// (unreach-call, no-data-race, valid-memsafety, valid-memcleanup,
        /// no-overflow), alone; the output then ends with `Verification
        /// result: ...`. A `.yml` task brings its own property (of a task,
        /// a name chooses among those it lists).
        #[arg(long, value_name = "FILE.prp|NAME")]
        property: Option<PathBuf>,
        /// Limit the address space of the check to this many MB.
        #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(16..))]
        memlimit: Option<u64>,
        #[command(flatten)]
        evidence: evidence::EvidenceArgs,
        #[command(flatten)]
        certify: certify::CertifyArgs,
        /// The value bound of `--engine explicit`.
        #[arg(long, value_name = "B", default_value_t = 10, value_parser = clap::value_parser!(i64).range(0..=1_000_000))]
        bound: i64,
        /// The most steps of an error trace `--engine bmc` looks for (also
        /// the limit of bounded model checking in `--engine auto`; default
        /// 1000, in practice the time limit ends the search first).
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
        depth: Option<u32>,
        /// Engines run at the same time by `--engine auto` (default: the
        /// machine's cores, at most 2; 1 runs them one after the other, and
        /// makes the proof and trace reported deterministic).
        #[arg(long, short = 'j', value_name = "N", env = "ASE_JOBS", value_parser = clap::value_parser!(u16).range(1..=64))]
        jobs: Option<u16>,
        /// Explore every interleaving in the explicit search (no
        /// partial-order reduction), for comparison.
        #[arg(long)]
        no_partial_order: bool,
        /// The engine that checks the slices of `--engine cegpv` (any but
        /// cegpv).
        #[arg(long, value_enum, default_value_t = CheckEngine::Auto, value_name = "ENGINE")]
        backend: CheckEngine,
        #[command(flatten)]
        limits: Limits,
    },
    /// Check a certificate of a safe verdict (`ase check --certificate`)
    /// against a program (`.gc`, or C lowered as `ase check` lowers it):
    /// exit 0 when valid, 1 when an obligation fails, 3 when one is
    /// undecided, 2 on bad input.
    Certify {
        /// The program.
        program: PathBuf,
        /// The certificate.
        certificate: PathBuf,
        #[command(flatten)]
        cpp: cfront::CppArgs,
        /// Time limit of the check in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 900.0)]
        timeout: f64,
    },
    /// The pre-commit hook: check the C files given that have a `main` and
    /// create threads (and files without `main` with `--concurrent`); skip
    /// the others with a note. Exit 1 (block the commit) when an error is
    /// reachable or a file is invalid, and with `--fail-on-unknown` when a
    /// verdict is unknown; else 0.
    #[command(name = "pre-commit", args_override_self = true)]
    PreCommit {
        /// The files (pre-commit passes the staged ones).
        #[arg(num_args = 0.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        cpp: cfront::CppArgs,
        /// Time limit per file, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        timeout: f64,
        /// Files checked at the same time (default: the machine's cores,
        /// at most 2).
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
        jobs: Option<u16>,
        /// Block the commit when a verdict is unknown too.
        #[arg(long)]
        fail_on_unknown: bool,
    },
    /// Lower a C program to the guarded-command IR and print it as `.gc`.
    Lower {
        /// The C file (`.c` or `.i`).
        file: PathBuf,
        #[command(flatten)]
        cpp: cfront::CppArgs,
    },
    /// Check a set of SV-COMP tasks, each in its own process, and write the
    /// results (CSV, JSON, a summary per folder with SV-COMP's score, and a
    /// quantile plot).
    Bench {
        /// A folder (every `.yml` task below it), a `.set` file of glob
        /// patterns, one `.yml` task, or the `results.csv` of an earlier run
        /// (reported again, not rerun).
        tasks: PathBuf,
        /// Tasks checked at the same time.
        #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: u16,
        /// Time limit per task, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
        timeout: f64,
        /// Memory limit per task, in MB.
        #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(16..))]
        memlimit: Option<u64>,
        /// Folder of the result files.
        #[arg(long, short = 'o', value_name = "DIR", default_value = "bench-results")]
        output: PathBuf,
        /// The `results.csv` of another run: print both side by side, per
        /// task and per folder, and plot both.
        #[arg(long, value_name = "OTHER.csv")]
        compare: Option<PathBuf>,
        /// The SV-COMP property to check (its name, e.g. `no-data-race`):
        /// each task is checked with its own property file of that name, and
        /// scored against its expected verdict; tasks without it are unknown.
        /// `all`: every (task, property) pair, for each property a task lists
        /// that ase checks, scored as SV-COMP scores them.
        #[arg(long, value_name = "NAME|all", default_value = sv_comp::runner::DEFAULT_PROPERTY,
              value_parser = bench_property)]
        property: String,
        /// Further arguments of `ase check` (after `--`).
        #[arg(last = true, value_name = "CHECK-ARGS")]
        check_args: Vec<String>,
    },
    /// Check every `.gc` model of a folder and print a markdown table beside
    /// the figures of the papers.
    Tables {
        /// Folder of `.gc` files (each with an `// expect:` line).
        dir: PathBuf,
        /// Runs per model and engine (the time column is their median).
        #[arg(long, default_value_t = 3)]
        runs: u32,
        /// The papers' result tables (default: `paper-tables.md` beside DIR).
        #[arg(long)]
        paper: Option<PathBuf>,
        /// Also write the markdown table to FILE.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The checking algorithm of the table.
        #[arg(long, value_enum, default_value_t = EngineKind::Ase)]
        engine: EngineKind,
        /// Run both ASE and UR on every model and print them side by side
        /// (the shape of the ASE paper's Fig. 7).
        #[arg(long, conflicts_with = "engine")]
        compare: bool,
        #[command(flatten)]
        limits: Limits,
    },
}

/// Output into a closed pipe (`ase check prog.c | head -1`) ends the
/// process quietly, as for other command-line tools, instead of a panic in
/// `println!`.
/// (Rust ignores SIGPIPE, so the write fails and `println!` panics; the
/// hook turns that panic into the exit status of a process ended by
/// SIGPIPE, 128 + 13.)
fn quiet_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

/// Whether `ase check` writes a file about one verdict (a witness, a
/// certificate) or prints a proof's invariants.
fn single_output(evidence: &evidence::EvidenceArgs, certify: &certify::CertifyArgs) -> bool {
    evidence.witness.is_some() || evidence.invariants || certify.certificate.is_some()
}

/// This process's `ase check` arguments without the file operands, for
/// child checks.
fn check_arguments() -> Vec<String> {
    let cli = Cli::command();
    let check = cli.find_subcommand("check").expect("the check command");
    multi::options_of(check, std::env::args().skip(1))
}

fn main() -> ExitCode {
    quiet_broken_pipe();
    let cli = Cli::parse();
    // A task that lists several properties `ase` checks, without
    // `--property`: each is checked on its own.
    let properties: Vec<&str> = match &cli.command {
        Command::Check {
            files,
            property: None,
            ..
        } if files.len() == 1 => pipeline::task::checkable_properties(&files[0])
            .iter()
            .map(sv_comp::property::Property::name)
            .collect(),
        _ => Vec::new(),
    };
    let result = match cli.command {
        Command::Check {
            files,
            format,
            evidence,
            jobs,
            certify,
            ..
        } if properties.len() > 1 => {
            if single_output(&evidence, &certify) {
                eprintln!(
                    "error: the task lists several properties ({}): --witness, --invariants and \
                     --certificate need one (--property NAME)",
                    properties.join(", ")
                );
                Ok(EXIT_INVALID)
            } else {
                let jobs = jobs.map_or_else(default_jobs, usize::from);
                multi::run_properties(&files[0], &properties, &check_arguments(), format, jobs)
            }
        }
        Command::Check {
            files,
            format,
            evidence,
            jobs,
            certify,
            ..
        } if files.len() > 1 || files[0].is_dir() || format == Format::Sarif => {
            if single_output(&evidence, &certify) && files.len() > 1 {
                eprintln!("error: --witness, --invariants and --certificate need a single file");
                Ok(EXIT_INVALID)
            } else {
                let jobs = jobs.map_or_else(default_jobs, usize::from);
                multi::expand(&files).and_then(|files| {
                    // Files side by side, the engines of each one after
                    // the other.
                    multi::run(&files, &check_arguments(), format, jobs, 1)
                })
            }
        }
        Command::Check {
            files,
            format,
            engine,
            bound,
            depth,
            limits,
            cpp,
            property,
            memlimit,
            evidence,
            jobs,
            no_partial_order,
            backend,
            certify,
        } => check::run(&check::CheckArgs {
            path: &files[0],
            format,
            engine,
            engines: pipeline::EngineOptions {
                bound,
                depth: depth.map(|d| d as usize),
                jobs: jobs.map_or_else(default_jobs, usize::from),
                partial_order: !no_partial_order,
                backend: backend.into(),
            },
            limits: &limits,
            cpp: &cpp,
            property: property.as_deref(),
            memlimit_mb: memlimit,
            evidence: &evidence,
            certify: &certify,
        }),
        Command::Certify {
            program,
            certificate,
            cpp,
            timeout,
        } => certify::run(&program, &certificate, &cpp, timeout),
        Command::Lower { file, cpp } => check::lower(&file, &cpp),
        Command::PreCommit {
            files,
            cpp,
            timeout,
            jobs,
            fail_on_unknown,
        } => precommit::run(&precommit::Options {
            files: &files,
            cpp: &cpp,
            timeout,
            jobs: jobs.map_or_else(default_jobs, usize::from),
            fail_on_unknown,
        }),
        Command::Bench {
            tasks,
            jobs,
            timeout,
            memlimit,
            output,
            compare,
            property,
            check_args,
        } => bench::run(&bench::Options {
            tasks: &tasks,
            jobs: usize::from(jobs),
            timeout,
            memlimit_mb: memlimit,
            output: &output,
            compare: compare.as_deref(),
            property: &property,
            check_args: &check_args,
        }),
        Command::Tables {
            dir,
            runs,
            paper,
            output,
            engine,
            compare,
            limits,
        } => tables::run(
            &dir,
            &tables::Options {
                runs,
                paper: paper.as_deref(),
                output: output.as_deref(),
                engine,
                compare,
            },
            &limits,
        ),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_INVALID)
        }
    }
}

/// `ase bench --property`: a property's name or `all`.
fn bench_property(s: &str) -> Result<String, String> {
    if s == sv_comp::runner::ALL_PROPERTIES || sv_comp::property::NAMES.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "expected `all` or one of {}",
            sv_comp::property::NAMES.join(", ")
        ))
    }
}
