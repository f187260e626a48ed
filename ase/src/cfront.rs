//! C input in the command line: the options of preprocessing and lowering
//! (turned into [`pipeline::CInput`]), and the diagnostics of C that does
//! not load.

use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor};
use frontend::{FrontendError, Location, ParsedUnit};
use lowering::{LowerError, Lowered};
use pipeline::{CInput, LoadError};

/// Preprocessor options of C input.
#[derive(clap::Args, Clone, Debug)]
pub struct CppArgs {
    /// The C preprocessor command (default `cc`), run as `CPP [-m32] -E`.
    #[arg(long, value_name = "COMMAND")]
    pub cpp: Option<String>,
    /// Preprocess each file with the include paths, macros and `-std` of
    /// its compile command in this compilation database
    /// (`compile_commands.json`, or the folder that holds it); `-I` and
    /// `-D` given here come on top.
    #[arg(long, value_name = "PATH")]
    pub compile_commands: Option<PathBuf>,
    /// Preprocessor flags read from the compilation database.
    #[arg(skip)]
    pub cpp_args: Vec<String>,
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
    /// Check functions of a file without `main`: K threads (default 1) per
    /// named function, each calling it any number of times with any
    /// arguments (pointer arguments: one shared object per pointee type);
    /// `ase lower` shows the harness. Comma-separated, repeatable.
    #[arg(long, value_name = "NAME[:K],...", value_parser = concurrent_list)]
    pub concurrent: Vec<Vec<lowering::harness::Concurrent>>,
    /// With `--concurrent`: call this function once (with the same kind of
    /// arguments, or with the arguments written after its name:
    /// `'pool_new(2, 8)'`) before the threads start. A function that
    /// returns a `T *` is the constructor of the object the calls share.
    #[arg(long, value_name = "FUNCTION[(ARGS)]", requires = "concurrent")]
    pub init: Option<String>,
    /// With `--concurrent`: call this function once (with the same kind of
    /// arguments, the object `--init` made included, or with the arguments
    /// written after its name, `_` for the harness's: `'pool_free(_, 0)'`)
    /// after every thread has been joined: the library's destructor.
    #[arg(long, value_name = "FUNCTION[(ARGS)]", requires = "concurrent")]
    pub fini: Option<String>,
    /// Heap objects per allocation site (`malloc`, `calloc`, `alloca`):
    /// a site that runs more often gives up.
    #[arg(long, value_name = "N", default_value_t = lowering::DEFAULT_HEAP_BUDGET)]
    pub heap_budget: usize,
    /// `malloc` and `calloc` may return NULL (by default they succeed, as
    /// SV-COMP assumes).
    #[arg(long)]
    pub malloc_may_fail: bool,
    /// Calls of functions the program declares but does not define:
    /// `give-up` where reached (no assumption), `pure` (any value of the
    /// return type, no effect on memory: an assumption) or `havoc` (any
    /// value, and any values in the objects its pointer arguments point
    /// into: an assumption). SOUNDNESS.md, "Functions without a
    /// definition".
    #[arg(long, value_enum, value_name = "MODE", default_value_t = ExternCallsArg::GiveUp)]
    pub extern_calls: ExternCallsArg,
    /// Model heap arrays of run-time length exactly up to 8 elements (a
    /// longer one gives up) instead of by one tracked element
    /// (SOUNDNESS.md, "Heap arrays of run-time length").
    #[arg(long)]
    pub no_heap_tails: bool,
    /// Model those arrays, and the arrays too large for a variable per
    /// element, as array values, every element exact (SOUNDNESS.md, "Heap
    /// arrays of run-time length"): the program is only searched for bugs,
    /// by bounded model checking, and never proved. `ase check` searches
    /// this model by itself where the default one reaches an error it
    /// cannot vouch for.
    #[arg(long, conflicts_with = "no_heap_tails")]
    pub exact_arrays: bool,
    /// Lower arrays used only to hold thread handles like other arrays
    /// (one variable per element, at most 4096), not by the slots of the
    /// threads stored in them (SOUNDNESS.md, "Arrays of thread handles")
    #[arg(long)]
    pub no_handle_arrays: bool,
    /// Check data races only (SV-COMP's no-data-race), not assertions. By
    /// default C programs are checked for both.
    #[arg(long, conflicts_with = "no_races")]
    pub races: bool,
    /// Check assertions only (`reach_error()`, `assert`), not data races.
    #[arg(long)]
    pub no_races: bool,
    /// Do not check memory safety (dereferences of null, freed or
    /// out-of-bounds pointers, invalid frees): reaching one then gives
    /// `unknown`. By default C programs are checked for it.
    #[arg(long)]
    pub no_memsafety: bool,
    /// Also report heap blocks that become unreachable while allocated
    /// (SV-COMP's `valid-memtrack`; `--property valid-memsafety` checks it
    /// too). Off by default: a snippet that ends without freeing what
    /// `main`'s locals point to would be reported.
    #[arg(long, conflicts_with = "no_memsafety")]
    pub memtrack: bool,
    /// Also check for signed integer overflow and shifts out of range
    /// (SV-COMP's no-overflow); unchecked, signed arithmetic wraps around.
    #[arg(long)]
    pub overflow: bool,
    /// Do not check for deadlocks (a state in which every unfinished
    /// thread waits in a blocking call that cannot complete). By default C
    /// programs are checked for them.
    #[arg(long)]
    pub no_deadlocks: bool,
    /// Do not check Clang's thread-safety annotations (`guarded_by`,
    /// `requires_capability`, `acquire_capability`, ...). By default the
    /// annotations a C program carries are checked on every interleaving.
    #[arg(long)]
    pub no_thread_safety: bool,
    /// Also check the order of calls against a specification: a labelled
    /// transition system over function names (README, "Specifications of
    /// call order"). Each call of a function it names is an event.
    #[arg(long, value_name = "FILE", value_parser = read_spec)]
    pub spec: Option<SpecFile>,
}

/// A specification file given with `--spec`, read and parsed.
#[derive(Clone, Debug)]
pub struct SpecFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its transition system.
    pub spec: lowering::spec::Spec,
}

fn read_spec(s: &str) -> Result<SpecFile, String> {
    let text = std::fs::read_to_string(s).map_err(|e| format!("cannot read `{s}`: {e}"))?;
    let spec = lowering::spec::Spec::parse(&text).map_err(|e| format!("`{s}`: {e}"))?;
    Ok(SpecFile {
        path: PathBuf::from(s),
        spec,
    })
}

fn concurrent_list(s: &str) -> Result<Vec<lowering::harness::Concurrent>, String> {
    lowering::harness::Concurrent::parse_list(s).map_err(|e| e.to_string())
}

/// `--extern-calls`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternCallsArg {
    /// Give up where a call is reached.
    GiveUp,
    /// Any return value, no effect on memory.
    Pure,
    /// Any return value, any values where the pointer arguments point.
    Havoc,
}

impl From<ExternCallsArg> for lowering::ExternCalls {
    fn from(a: ExternCallsArg) -> Self {
        match a {
            ExternCallsArg::GiveUp => lowering::ExternCalls::GiveUp,
            ExternCallsArg::Pure => lowering::ExternCalls::Pure,
            ExternCallsArg::Havoc => lowering::ExternCalls::Havoc,
        }
    }
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
            compile_commands: None,
            cpp_args: Vec::new(),
            include: Vec::new(),
            define: Vec::new(),
            data_model: None,
            no_reduce: false,
            concurrent: Vec::new(),
            init: None,
            fini: None,
            heap_budget: lowering::DEFAULT_HEAP_BUDGET,
            malloc_may_fail: false,
            extern_calls: ExternCallsArg::GiveUp,
            no_heap_tails: false,
            exact_arrays: false,
            no_handle_arrays: false,
            races: false,
            no_races: false,
            no_memsafety: false,
            memtrack: false,
            overflow: false,
            no_deadlocks: false,
            no_thread_safety: false,
            spec: None,
        }
    }
}

impl CppArgs {
    /// The options for `file`: with `--compile-commands`, its compile
    /// command's flags added (include directories given here first, macros
    /// given here last, so that they take precedence; its `-m32`/`-m64`
    /// unless `--data-model` is given).
    pub fn for_file(&self, file: &Path) -> Result<CppArgs, frontend::compile_db::CompileDbError> {
        let Some(db) = &self.compile_commands else {
            return Ok(self.clone());
        };
        let flags = frontend::compile_db::flags_for(db, file)?;
        let mut out = self.clone();
        if out.data_model.is_none() {
            out.data_model = match flags.data_model {
                Some(frontend::DataModelChoice::Ilp32) => Some(DataModelArg::Ilp32),
                Some(frontend::DataModelChoice::Lp64) => Some(DataModelArg::Lp64),
                _ => None,
            };
        }
        out.include.extend(flags.include_dirs);
        out.define = flags
            .defines
            .into_iter()
            .chain(self.define.clone())
            .collect();
        out.cpp_args.extend(flags.other);
        Ok(out)
    }

    /// The options as `ase check` arguments (with `--concurrent` and
    /// `--init` when `harness`).
    pub fn to_args(&self, harness: bool) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(cpp) = &self.cpp {
            out.extend(["--cpp".to_string(), cpp.clone()]);
        }
        if let Some(db) = &self.compile_commands {
            out.extend(["--compile-commands".to_string(), db.display().to_string()]);
        }
        for dir in &self.include {
            out.extend(["-I".to_string(), dir.display().to_string()]);
        }
        for d in &self.define {
            out.extend(["-D".to_string(), d.clone()]);
        }
        if let Some(model) = self.data_model {
            let name = match model {
                DataModelArg::Ilp32 => "ILP32",
                DataModelArg::Lp64 => "LP64",
            };
            out.extend(["--data-model".to_string(), name.to_string()]);
        }
        if self.no_reduce {
            out.push("--no-reduce".into());
        }
        if self.heap_budget != lowering::DEFAULT_HEAP_BUDGET {
            out.extend(["--heap-budget".to_string(), self.heap_budget.to_string()]);
        }
        if self.malloc_may_fail {
            out.push("--malloc-may-fail".into());
        }
        match self.extern_calls {
            ExternCallsArg::GiveUp => {}
            ExternCallsArg::Pure => out.extend(["--extern-calls".into(), "pure".into()]),
            ExternCallsArg::Havoc => out.extend(["--extern-calls".into(), "havoc".into()]),
        }
        if self.no_heap_tails {
            out.push("--no-heap-tails".into());
        }
        if self.exact_arrays {
            out.push("--exact-arrays".into());
        }
        if self.no_handle_arrays {
            out.push("--no-handle-arrays".into());
        }
        if self.races {
            out.push("--races".into());
        }
        if self.no_races {
            out.push("--no-races".into());
        }
        if self.no_memsafety {
            out.push("--no-memsafety".into());
        }
        if self.memtrack {
            out.push("--memtrack".into());
        }
        if self.overflow {
            out.push("--overflow".into());
        }
        if self.no_deadlocks {
            out.push("--no-deadlocks".into());
        }
        if self.no_thread_safety {
            out.push("--no-thread-safety".into());
        }
        if let Some(spec) = &self.spec {
            out.extend(["--spec".to_string(), spec.path.display().to_string()]);
        }
        if harness {
            for c in self.concurrent.iter().flatten() {
                out.extend([
                    "--concurrent".into(),
                    format!("{}:{}", c.function, c.threads),
                ]);
            }
            if let Some(init) = &self.init {
                out.extend(["--init".to_string(), init.clone()]);
            }
            if let Some(fini) = &self.fini {
                out.extend(["--fini".to_string(), fini.clone()]);
            }
        }
        out
    }

    /// The pipeline's input options.
    pub fn input(&self) -> CInput {
        CInput {
            frontend: frontend::Options {
                cpp: self.cpp.clone(),
                cpp_args: self.cpp_args.clone(),
                include_dirs: self.include.clone(),
                defines: self.define.clone(),
                data_model: match self.data_model {
                    None => frontend::DataModelChoice::Auto,
                    Some(DataModelArg::Ilp32) => frontend::DataModelChoice::Ilp32,
                    Some(DataModelArg::Lp64) => frontend::DataModelChoice::Lp64,
                },
            },
            concurrent: self.concurrent.iter().flatten().cloned().collect(),
            init: self.init.clone(),
            fini: self.fini.clone(),
            lowering: lowering::Options {
                reduce: !self.no_reduce,
                heap_budget: self.heap_budget,
                malloc_may_fail: self.malloc_may_fail,
                extern_calls: self.extern_calls.into(),
                // Assertions, races, memory safety and deadlocks by default.
                checks: lowering::Checks {
                    assertions: !self.races,
                    races: !self.no_races,
                    memsafety: !self.races && !self.no_memsafety,
                    memtrack: !self.races && self.memtrack,
                    memcleanup: false,
                    overflow: self.overflow,
                    deadlocks: !self.races && !self.no_deadlocks,
                    thread_safety: !self.races && !self.no_thread_safety,
                    spec: self.spec.is_some(),
                },
                spec: self.spec.as_ref().map(|s| s.spec.clone()),
                tails: !self.no_heap_tails,
                array_values: self.exact_arrays,
                handle_arrays: !self.no_handle_arrays,
                ..lowering::Options::default()
            },
        }
    }
}

/// Why C input gave no program, rendered.
pub enum Failure {
    /// Invalid input (syntax errors, a missing file): exit code 2.
    Invalid(String),
    /// A construct that is not modelled: the verdict is unknown.
    Unsupported(String),
}

/// Renders a load error as a compiler-style diagnostic.
pub fn failure(e: &LoadError) -> Failure {
    match e {
        LoadError::Frontend(e) => parse_failure(e),
        LoadError::Lower { unit, error } => lower_failure(unit, error),
    }
}

/// Parses and lowers a C file.
pub fn load(path: &Path, cpp: &CppArgs) -> Result<(ParsedUnit, Lowered), Failure> {
    pipeline::input::load(path, &cpp.input()).map_err(|e| failure(&e))
}

/// What `ase pre-commit` does with a C file.
pub enum HookPlan {
    /// Check it as it is (it has `main` and creates threads, or it does not
    /// parse or lower: the check says why).
    Check,
    /// Check it with the harness of `--concurrent` (no `main`).
    CheckHarness,
    /// Skip it, with the reason.
    Skip(String),
}

/// Whether a C file is checked by the pre-commit hook, and how.
pub fn hook_plan(path: &Path, cpp: &CppArgs) -> HookPlan {
    let input = cpp.input();
    let Ok(unit) = pipeline::input::parse(path, &input.without_harness()) else {
        return HookPlan::Check;
    };
    if !lowering::harness::defines(&unit, "main") {
        let funcs = &input.concurrent;
        if funcs.is_empty() {
            return HookPlan::Skip(
                "no `main`: skipped (--concurrent NAME[:K],... checks its functions)".into(),
            );
        }
        let missing: Vec<&str> = funcs
            .iter()
            .map(|c| c.function.as_str())
            .chain(
                cpp.init
                    .as_deref()
                    .map(|i| lowering::harness::split_call(i).0),
            )
            .chain(
                cpp.fini
                    .as_deref()
                    .map(|f| lowering::harness::split_call(f).0),
            )
            .filter(|f| !lowering::harness::defines(&unit, f))
            .collect();
        if !missing.is_empty() {
            return HookPlan::Skip(format!(
                "no `main`, and no definition of {}: skipped",
                missing
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        return HookPlan::CheckHarness;
    }
    match lowering::lower_with(&unit, &input.lowering) {
        Ok(lowered) if lowered.threads.len() <= 1 => {
            HookPlan::Skip("no threads are created: skipped".into())
        }
        _ => HookPlan::Check,
    }
}

/// The harness `--concurrent` appends to a file (`None` without it).
pub fn harness_text(path: &Path, cpp: &CppArgs) -> Result<Option<String>, Failure> {
    pipeline::input::harness_text(path, &cpp.input()).map_err(|e| failure(&e))
}

fn parse_failure(e: &FrontendError) -> Failure {
    match e {
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
    }
}

fn lower_failure(unit: &ParsedUnit, e: &LowerError) -> Failure {
    {
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
    }
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
    // The severity already says "error:".
    let title = if kind == "error" { message } else { &headline };
    let d = severity
        .with_message(title)
        .with_labels(vec![Label::primary((), s..e.max(s))]);
    let mut buf = NoColor::new(Vec::new());
    if term::emit(&mut buf, &term::Config::default(), &file, &d).is_err() {
        return format!("{headline}\n  --> {at}\n");
    }
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}
