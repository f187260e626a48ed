//! `ase check` on several files (and directories): each file is checked by
//! a child `ase check` of its own (a crash, a memory limit or a time-out
//! stays with its file), several at a time, and the results are printed
//! together: each file's output and a summary line per file (text), one
//! JSON array, or one SARIF log. The exit code is the worst result.

use crate::options::{Format, EXIT_INVALID, EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE};
use anyhow::Context;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The files to check: the files given, and in every directory given the
/// programs below it (`.c`, `.i`, `.gc`, recursively, sorted).
pub fn expand(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            collect(p, &mut found)
                .with_context(|| format!("cannot read the directory `{}`", p.display()))?;
            if found.is_empty() {
                anyhow::bail!(
                    "no programs (.c, .i, .gc) in the directory `{}`",
                    p.display()
                );
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "c" | "i" | "gc"))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The command line of a child check: the arguments of `ase check` (the
/// subcommand included) without the file operands, told apart with the
/// options `command` declares (which of them take a value).
pub fn options_of(command: &clap::Command, args: impl IntoIterator<Item = String>) -> Vec<String> {
    let takes_value = |a: &clap::Arg| a.get_action().takes_values();
    let long = |name: &str| {
        command
            .get_arguments()
            .find(|a| a.get_long() == Some(name))
            .is_some_and(takes_value)
    };
    let short = |c: char| {
        command
            .get_arguments()
            .find(|a| a.get_short() == Some(c))
            .is_some_and(takes_value)
    };
    let mut out = Vec::new();
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        if a == "--" {
            break; // the rest are operands
        }
        let value_follows = if let Some(name) = a.strip_prefix("--") {
            !name.contains('=') && long(name)
        } else if let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) {
            // `-j 2` takes the next argument, `-j2` does not.
            let mut chars = flags.chars();
            chars.next().is_some_and(short) && chars.as_str().is_empty()
        } else {
            // An operand (or the subcommand's name, which is kept).
            if a == command.get_name() && out.is_empty() {
                out.push(a);
            }
            continue;
        };
        out.push(a);
        if value_follows {
            out.extend(args.next());
        }
    }
    out
}

/// What one child check gave.
pub struct Checked {
    /// The file checked.
    pub file: PathBuf,
    /// The child's exit code.
    pub code: u8,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// Checks `files` with children that get `args` (the command line without
/// the file operands) and `--format json` or the user's format; `parallel`
/// children at a time, each with `jobs` engine threads. Prints the results
/// and returns the worst exit code.
pub fn run(
    files: &[PathBuf],
    args: &[String],
    format: Format,
    parallel: usize,
    jobs: usize,
) -> anyhow::Result<u8> {
    let checks: Vec<(PathBuf, &[String])> = files.iter().map(|f| (f.clone(), args)).collect();
    let results = run_each(&checks, format, parallel, jobs)?;
    match format {
        Format::Text => print_text(&results),
        Format::Json => {
            let all: Vec<Value> = results.iter().map(json_of).collect();
            println!("{}", serde_json::to_string_pretty(&all)?);
        }
        Format::Sarif => {
            let all: Vec<(PathBuf, Value)> = results
                .iter()
                .map(|r| (r.file.clone(), json_of(r)))
                .collect();
            println!("{}", crate::sarif::log(&all)?);
        }
    }
    Ok(worst(results.iter().map(|r| r.code)))
}

/// Checks the task `task` for each of its `properties` (SV-COMP names),
/// one after the other, each by a child that gets `args` (the command line
/// without the file operand) with `--property NAME`; prints the results
/// like those of several files, each named by its property, and returns
/// the worst exit code.
pub fn run_properties(
    task: &Path,
    properties: &[&str],
    args: &[String],
    format: Format,
    jobs: usize,
) -> anyhow::Result<u8> {
    let with: Vec<Vec<String>> = properties
        .iter()
        .map(|p| {
            let mut a = args.to_vec();
            a.extend(["--property".to_string(), p.to_string()]);
            a
        })
        .collect();
    let checks: Vec<(PathBuf, &[String])> = with
        .iter()
        .map(|a| (task.to_path_buf(), a.as_slice()))
        .collect();
    let results = run_each(&checks, format, 1, jobs)?;
    let named = || results.iter().zip(properties);
    match format {
        Format::Text => {
            for (r, p) in named() {
                println!("== {} ({p}) ==", r.file.display());
                r.print_output();
            }
            println!("summary:");
            for (r, p) in named() {
                println!("  {p}: {}", r.summary());
            }
        }
        Format::Json | Format::Sarif => {
            let all: Vec<(PathBuf, Value)> = named()
                .map(|(r, p)| {
                    let mut v = json_of(r);
                    if let Some(obj) = v.as_object_mut() {
                        obj.insert("property".into(), p.to_string().into());
                    }
                    (r.file.clone(), v)
                })
                .collect();
            if format == Format::Json {
                let values: Vec<&Value> = all.iter().map(|(_, v)| v).collect();
                println!("{}", serde_json::to_string_pretty(&values)?);
            } else {
                println!("{}", crate::sarif::log(&all)?);
            }
        }
    }
    Ok(worst(results.iter().map(|r| r.code)))
}

/// Checks each file with a child that gets its arguments (the command line
/// of `ase check` without file operands, format and jobs), `parallel`
/// children at a time; the results in the order of `checks`.
pub fn run_each(
    checks: &[(PathBuf, &[String])],
    format: Format,
    parallel: usize,
    jobs: usize,
) -> anyhow::Result<Vec<Checked>> {
    let exe = std::env::current_exe().context("cannot find the ase executable")?;
    let child_format = match format {
        Format::Text => "text",
        Format::Json | Format::Sarif => "json",
    };
    let results: Mutex<Vec<Option<Checked>>> =
        Mutex::new(checks.iter().map(|_| None).collect::<Vec<_>>());
    let next = Mutex::new(0usize);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..parallel.clamp(1, checks.len().max(1)) {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().expect("lock");
                    *n += 1;
                    *n - 1
                };
                let Some((file, args)) = checks.get(i) else {
                    break;
                };
                let out = Command::new(&exe)
                    .args(args.iter())
                    .args(["--format", child_format, "--jobs", &jobs.to_string()])
                    .arg(file)
                    .output();
                match out {
                    Ok(out) => {
                        let code = out
                            .status
                            .code()
                            .and_then(|c| u8::try_from(c).ok())
                            .unwrap_or(EXIT_INVALID);
                        results.lock().expect("lock")[i] = Some(Checked {
                            file: file.clone(),
                            code,
                            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                        });
                    }
                    Err(e) => {
                        *failure.lock().expect("lock") =
                            Some(anyhow::Error::new(e).context("cannot run a child ase check"));
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("lock") {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .expect("lock")
        .into_iter()
        .flatten()
        .collect())
}

/// A child's JSON object with its `file` (an object with `error` when the
/// child printed none: bad input).
fn json_of(r: &Checked) -> Value {
    let mut v = serde_json::from_str::<Value>(&r.stdout).unwrap_or_else(|_| {
        serde_json::json!({
            "verdict": "error",
            "error": r.stderr.trim_end(),
        })
    });
    if let Some(obj) = v.as_object_mut() {
        obj.insert("file".into(), r.file.display().to_string().into());
        obj.insert("exit_code".into(), r.code.into());
    }
    v
}

fn print_text(results: &[Checked]) {
    for r in results {
        r.print();
    }
    println!("summary:");
    for r in results {
        println!("  {}: {}", r.file.display(), r.summary());
    }
}

impl Checked {
    /// Prints the child's output under a header naming the file.
    pub fn print(&self) {
        println!("== {} ==", self.file.display());
        self.print_output();
    }

    /// Prints the child's output and a blank line.
    fn print_output(&self) {
        print!("{}", self.stdout);
        if !self.stderr.is_empty() {
            print!("{}", self.stderr);
        }
        println!();
    }

    /// The verdict line (or the first line of the error).
    pub fn summary(&self) -> String {
        match self.code {
            EXIT_INVALID => format!(
                "error: {}",
                self.stderr
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("bad input")
                    .trim_start_matches("error: ")
            ),
            _ => self.stdout.lines().next().unwrap_or("").to_string(),
        }
    }
}

/// The worst of the exit codes: bad input, then unsafe, then unknown, then
/// safe.
pub fn worst(codes: impl IntoIterator<Item = u8>) -> u8 {
    let rank = |c: u8| match c {
        EXIT_SAFE => 0,
        EXIT_UNKNOWN => 1,
        EXIT_UNSAFE => 2,
        _ => 3,
    };
    codes
        .into_iter()
        .max_by_key(|&c| rank(c))
        .unwrap_or(EXIT_SAFE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_operands_are_told_from_option_values() {
        let command = clap::Command::new("check")
            .arg(clap::Arg::new("files").num_args(1..))
            .arg(clap::Arg::new("timeout").long("timeout"))
            .arg(clap::Arg::new("jobs").short('j').long("jobs"))
            .arg(
                clap::Arg::new("no-reduce")
                    .long("no-reduce")
                    .action(clap::ArgAction::SetTrue),
            );
        let args = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            options_of(
                &command,
                args("check a.c --timeout a.c -j 2 b.c --no-reduce -j3 --jobs=2 c.c -- d.c")
            ),
            args("check --timeout a.c -j 2 --no-reduce -j3 --jobs=2")
        );
    }

    #[test]
    fn the_worst_result_wins() {
        assert_eq!(worst([]), EXIT_SAFE);
        assert_eq!(worst([EXIT_SAFE, EXIT_UNKNOWN]), EXIT_UNKNOWN);
        assert_eq!(worst([EXIT_UNKNOWN, EXIT_UNSAFE, EXIT_SAFE]), EXIT_UNSAFE);
        assert_eq!(worst([EXIT_UNSAFE, EXIT_INVALID]), EXIT_INVALID);
    }
}
