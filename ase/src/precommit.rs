//! `ase pre-commit FILE...`: the command behind the pre-commit hook
//! (`.pre-commit-hooks.yaml`). C files that have a `main` and create threads
//! are checked; files without `main` are checked with the harness of
//! `--concurrent` when it is given and names functions they define; every
//! other file is skipped with a note. Files are preprocessed with the
//! flags of their entry in the project's compilation database
//! (`--compile-commands`, else `compile_commands.json` at the root or in
//! `build/` when there is one). A reachable error (or bad input)
//! fails the hook, which blocks the commit; `unknown` fails it only with
//! `--fail-on-unknown`.

use crate::cfront::{self, CppArgs, HookPlan};
use crate::multi;
use crate::options::{Format, EXIT_INVALID, EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE};
use std::path::PathBuf;

/// Exit code of a blocked commit.
pub const EXIT_BLOCK: u8 = 1;

/// The options of `ase pre-commit`.
pub struct Options<'a> {
    /// The files pre-commit passes (others than `.c` and `.i` are ignored).
    pub files: &'a [PathBuf],
    /// Preprocessor, reduction and harness options.
    pub cpp: &'a CppArgs,
    /// The time limit per file.
    pub timeout: f64,
    /// Files checked at the same time.
    pub jobs: usize,
    /// Whether `unknown` blocks the commit.
    pub fail_on_unknown: bool,
}

/// Where the hook looks for a compilation database when
/// `--compile-commands` is not given: the repository's root (where
/// pre-commit runs hooks) and `build/`.
const DATABASES: [&str; 2] = ["compile_commands.json", "build/compile_commands.json"];

/// Runs the hook; the exit code is 0 (commit) or 1 (block).
pub fn run(opts: &Options) -> anyhow::Result<u8> {
    let found: Option<PathBuf> = match opts.cpp.compile_commands {
        Some(_) => None,
        None => DATABASES.iter().map(PathBuf::from).find(|p| p.is_file()),
    };
    let mut checks: Vec<(PathBuf, Vec<String>)> = Vec::new();
    let mut skipped = Vec::new();
    for file in opts.files {
        if !pipeline::input::is_c(file) || file.extension().is_some_and(|e| e == "h") {
            continue;
        }
        // A database found by itself gives the flags of the files it
        // compiles; the others are checked without.
        let found_db = found.as_ref().and_then(|db| {
            let cpp = CppArgs {
                compile_commands: Some(db.clone()),
                ..opts.cpp.clone()
            };
            let resolved = cpp.for_file(file).ok()?;
            Some((cpp, resolved))
        });
        let (cpp, plan) = match &found_db {
            Some((cpp, resolved)) => (cpp, cfront::hook_plan(file, resolved)),
            None => match opts.cpp.for_file(file) {
                Ok(resolved) => (opts.cpp, cfront::hook_plan(file, &resolved)),
                // `ase check` reports the database's error.
                Err(_) => (opts.cpp, HookPlan::Check),
            },
        };
        match plan {
            HookPlan::Check => checks.push((file.clone(), check_args(opts, cpp, false))),
            HookPlan::CheckHarness => checks.push((file.clone(), check_args(opts, cpp, true))),
            HookPlan::Skip(why) => skipped.push((file, why)),
        }
    }
    let checks: Vec<(PathBuf, &[String])> = checks
        .iter()
        .map(|(f, args)| (f.clone(), args.as_slice()))
        .collect();
    // One file at a time per engine thread: the files side by side.
    let results = multi::run_each(&checks, Format::Text, opts.jobs, 1)?;
    let blocks = |code: u8| match code {
        EXIT_SAFE => false,
        EXIT_UNKNOWN => opts.fail_on_unknown,
        EXIT_UNSAFE | EXIT_INVALID => true,
        _ => true,
    };
    for r in results.iter().filter(|r| blocks(r.code)) {
        r.print();
    }
    println!("ase: {} checked, {} skipped", results.len(), skipped.len());
    for r in &results {
        let mark = if blocks(r.code) { "BLOCKS" } else { "ok" };
        println!("  {mark:6} {}: {}", r.file.display(), r.summary());
    }
    for (file, why) in &skipped {
        println!("  {:6} {}: {why}", "note", file.display());
    }
    Ok(if results.iter().any(|r| blocks(r.code)) {
        EXIT_BLOCK
    } else {
        EXIT_SAFE
    })
}

/// The command line of a child `ase check` (without the file).
fn check_args(opts: &Options, cpp: &CppArgs, harness: bool) -> Vec<String> {
    let mut out = vec![
        "check".to_string(),
        "--timeout".to_string(),
        opts.timeout.to_string(),
    ];
    out.extend(cpp.to_args(harness));
    out
}
