//! The benchmark runner: checks every task of a set in its own `ase check`
//! process, so that a crash, a timeout or an exhausted memory limit costs
//! one task (reported as unknown with the reason), never the run.
//!
//! Every task is checked for one property, chosen by its SV-COMP name
//! ([`RunOptions::property`], `unreach-call` unless asked otherwise), as
//! BenchExec does with a run definition's property file: the child gets the
//! task's property file (`--property`), and the expected verdict is that
//! property's. A task that does not list the property is reported as unknown
//! with the reason, without a check.
//!
//! The child writes its outcome as JSON (`--format json`), including its own
//! CPU time and peak memory. While it runs, the runner samples the same
//! figures from `/proc` so that a killed child still gets them.

use crate::property::PropertyError;
use crate::report::Row;
use crate::score;
use crate::task::TaskDef;
use crate::taskset::TaskRef;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How to run the tasks.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The `ase` executable.
    pub executable: PathBuf,
    /// Tasks checked at the same time.
    pub jobs: usize,
    /// Time limit per task in seconds (passed to `ase check --timeout`; the
    /// process is killed when it overruns it by 10% plus 5 s).
    pub timeout: f64,
    /// Address-space limit per task in MB (`ase check --memlimit`).
    pub memlimit_mb: Option<u64>,
    /// SV-COMP's name of the property to check (`unreach-call`,
    /// `no-data-race`).
    pub property: String,
    /// Further arguments of `ase check`.
    pub extra_args: Vec<String>,
}

/// SV-COMP's name of the property checked by default.
pub const DEFAULT_PROPERTY: &str = "unreach-call";

/// How often a running child's resources are sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(20);

/// Linux's clock ticks per second in `/proc/PID/stat` (USER_HZ).
const TICKS_PER_SECOND: f64 = 100.0;

/// CPU seconds and peak resident memory (bytes) of a running process, from
/// `/proc` (Linux); `None` elsewhere or once it has exited.
fn sample(pid: u32) -> Option<(f64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is parenthesised and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line (1-based).
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    Some((ticks / TICKS_PER_SECOND, peak_kib * 1024))
}

/// Reads a pipe to its end on its own thread (a full pipe would block the
/// child).
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// What became of a child process.
struct Finished {
    status: Option<std::process::ExitStatus>,
    killed: bool,
    stdout: String,
    stderr: String,
    wall: f64,
    sampled: (f64, u64),
}

fn supervise(mut child: Child, limit: Duration) -> Finished {
    let start = Instant::now();
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let mut sampled = (0.0, 0);
    let mut killed = false;
    let status = loop {
        if let Some(s) = sample(child.id()) {
            sampled = (s.0, sampled.1.max(s.1));
        }
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                killed = true;
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(SAMPLE_EVERY),
            Err(_) => {
                let _ = child.kill();
                break child.wait().ok();
            }
        }
    };
    let wall = start.elapsed().as_secs_f64();
    let text = |h: std::thread::JoinHandle<Vec<u8>>| {
        String::from_utf8_lossy(&h.join().unwrap_or_default()).into_owned()
    };
    Finished {
        status,
        killed,
        stdout: text(out),
        stderr: text(err),
        wall,
        sampled,
    }
}

/// The last non-empty line of a text, shortened.
fn last_line(text: &str) -> String {
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let mut s: String = line.chars().take(200).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// The verdict (`true`, `false`, `unknown`) of the JSON outcome of
/// `ase check`: BenchExec's result line `verification_result` (`TRUE`,
/// `FALSE(unreach-call)`, `FALSE(no-data-race)`, `UNKNOWN`), where the
/// check wrote one, else its `verdict` (`safe`, `unsafe`, `unknown`). As in
/// BenchExec, a `FALSE(...)` of any property is a `false` verdict.
fn verdict_of(v: &serde_json::Value) -> &'static str {
    match v["verification_result"].as_str() {
        Some("TRUE") => "true",
        Some(r) if r == "FALSE" || (r.starts_with("FALSE(") && r.ends_with(')')) => "false",
        Some(_) => "unknown",
        None => match v["verdict"].as_str() {
            Some("safe") => "true",
            Some("unsafe") => "false",
            _ => "unknown",
        },
    }
}

/// Every property `ase` checks: [`RunOptions::property`] for every
/// (task, property) pair that a task lists, as SV-COMP scores them.
pub const ALL_PROPERTIES: &str = "all";

/// The (task, property) pairs to check: each task with the property
/// asked, or, for [`ALL_PROPERTIES`], with each property it lists that
/// `ase` checks (a task that lists none gets one row saying so).
pub fn pairs(tasks: &[TaskRef], property: &str) -> Vec<(TaskRef, String)> {
    let mut out = Vec::new();
    for t in tasks {
        if property != ALL_PROPERTIES {
            out.push((t.clone(), property.to_string()));
            continue;
        }
        let names: Vec<String> = TaskDef::read(&t.path)
            .map(|d| d.property_names())
            .unwrap_or_default()
            .into_iter()
            .filter(|n| crate::property::NAMES.contains(&n.as_str()))
            .collect();
        if names.is_empty() {
            out.push((t.clone(), DEFAULT_PROPERTY.to_string()));
        }
        out.extend(names.into_iter().map(|n| (t.clone(), n)));
    }
    out
}

/// Checks one task for `opts.property` in its own process.
pub fn run_task(task: &TaskRef, opts: &RunOptions) -> Row {
    let mut row = Row {
        folder: task.folder.clone(),
        task: task.name.clone(),
        property: opts.property.clone(),
        expected: None,
        verdict: "unknown".into(),
        status: score::Status::Unknown,
        score: 0,
        reason: String::new(),
        cpu_seconds: 0.0,
        wall_seconds: 0.0,
        peak_memory_mb: 0.0,
        iterations: None,
        predicates: None,
        certified: None,
        certificate_seconds: None,
        solve_seconds: None,
        certificate_reason: String::new(),
        transitions: None,
        states: None,
    };
    let def = match TaskDef::read(&task.path) {
        Ok(def) => def,
        Err(e) => {
            row.reason = e.to_string();
            return row;
        }
    };
    let (property_file, expected_sub) = match def.property_named(&opts.property) {
        Ok(Some((_, entry))) => {
            row.expected = entry.expected_verdict;
            (entry.property_file.clone(), entry.subproperty.clone())
        }
        Ok(None) => {
            let listed = def.property_names();
            row.reason = format!(
                "the task has no {} property (it lists {})",
                opts.property,
                if listed.is_empty() {
                    "none".to_string()
                } else {
                    listed.join(", ")
                }
            );
            return row;
        }
        Err(e @ PropertyError::Io { .. }) => {
            row.reason = format!("invalid input: {e}");
            return row;
        }
        Err(e @ PropertyError::Unsupported { .. }) => {
            row.reason = e.to_string();
            return row;
        }
    };
    let mut cmd = Command::new(&opts.executable);
    cmd.arg("check")
        .args(["--format", "json", "--timeout"])
        .arg(opts.timeout.to_string());
    if let Some(mb) = opts.memlimit_mb {
        cmd.arg("--memlimit").arg(mb.to_string());
    }
    // The tasks checked at the same time share the cores: each check runs
    // its engines side by side only when there are cores to spare.
    let given = opts
        .extra_args
        .iter()
        .any(|a| a.starts_with("-j") || a.starts_with("--jobs"));
    if !given {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        cmd.arg("--jobs")
            .arg((cores / opts.jobs.max(1)).clamp(1, 2).to_string());
    }
    cmd.arg("--property")
        .arg(&property_file)
        .args(&opts.extra_args)
        .arg(&task.path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            row.reason = format!("cannot run `{}`: {e}", opts.executable.display());
            return row;
        }
    };
    let limit = Duration::from_secs_f64(opts.timeout * 1.1 + 5.0);
    let f = supervise(child, limit);
    row.wall_seconds = f.wall;
    row.cpu_seconds = f.sampled.0;
    row.peak_memory_mb = f.sampled.1 as f64 / 1e6;
    let json: Option<serde_json::Value> = serde_json::from_str(&f.stdout).ok();
    let code = f.status.and_then(|s| s.code());
    match (&json, code) {
        _ if f.killed => {
            row.reason = format!("timeout (killed after {:.0} s)", f.wall);
        }
        (Some(v), Some(0 | 1 | 3)) => {
            row.verdict = verdict_of(v).into();
            row.reason = v["reason"].as_str().unwrap_or("").to_string();
            row.iterations = v["stats"]["iterations"]
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n > 0);
            row.predicates = v["stats"]["predicates"]["count"]
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|_| row.iterations.is_some());
            row.solve_seconds = v["stats"]["time"].as_f64();
            row.transitions = v["model"]["transitions"]
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n > 0);
            row.states = v["stats"]["symbolic_states"].as_u64().filter(|&n| n > 0);
            if row.verdict == "true" {
                row.certified = v["certified"].as_bool();
                row.certificate_seconds = v["certificate_time"].as_f64();
                row.certificate_reason = v["certificate_reason"].as_str().unwrap_or("").to_string();
            }
            if let Some(cpu) = v["resources"]["cpu_seconds"].as_f64() {
                row.cpu_seconds = cpu;
            }
            if let Some(peak) = v["resources"]["peak_memory_bytes"].as_f64() {
                row.peak_memory_mb = row.peak_memory_mb.max(peak / 1e6);
            }
        }
        (_, Some(2)) => {
            row.reason = format!("invalid input: {}", last_line(&f.stderr));
        }
        _ => {
            let how = match (code, f.status) {
                (Some(c), _) => format!("exit code {c}"),
                (None, Some(s)) => format!("{s}"),
                (None, None) => "lost".into(),
            };
            let near_limit = opts
                .memlimit_mb
                .is_some_and(|mb| row.peak_memory_mb >= 0.8 * mb as f64);
            let memory = near_limit
                || f.stderr.contains("out of memory")
                || f.stderr.contains("memory allocation");
            row.reason = if memory {
                format!("out of memory ({how})")
            } else {
                format!("crashed ({how}): {}", last_line(&f.stderr))
            };
        }
    }
    let verdict = row.verdict_bool();
    row.status = score::status(row.expected, verdict);
    row.score = score::points(row.expected, verdict);
    // A `false` naming another sub-property than the expected one
    // (`valid-free` for `valid-deref`) is wrong, as in SV-COMP.
    let answered_sub = json
        .as_ref()
        .and_then(|v| v["verification_result"].as_str())
        .and_then(|r| r.strip_prefix("FALSE(")?.strip_suffix(')'))
        .map(str::to_string);
    if let (Some(false), Some(want), Some(got)) = (verdict, &expected_sub, &answered_sub) {
        if want != got {
            row.status = score::Status::Wrong;
            row.score = score::points(Some(true), Some(false));
            row.reason = format!("false({got}), expected false({want})");
        }
    }
    row
}

/// Checks all tasks, `opts.jobs` at a time, with a progress bar (on stderr)
/// that shows the running score; returns the rows in the order of `tasks`.
pub fn run_all(
    tasks: &[TaskRef],
    opts: &RunOptions,
) -> Result<Vec<Row>, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build()?;
    let pairs = pairs(tasks, &opts.property);
    let bar = ProgressBar::new(pairs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let score = AtomicI64::new(0);
    let (correct, wrong) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let rows = pool.install(|| {
        pairs
            .par_iter()
            // One task per split: a worker that runs out of tasks steals
            // single tasks, so the last slow ones run side by side.
            .with_max_len(1)
            .map(|(t, property)| {
                let opts = RunOptions {
                    property: property.clone(),
                    ..opts.clone()
                };
                let row = run_task(t, &opts);
                score.fetch_add(row.score, Ordering::Relaxed);
                match row.status {
                    score::Status::Correct => correct.fetch_add(1, Ordering::Relaxed),
                    score::Status::Wrong => wrong.fetch_add(1, Ordering::Relaxed),
                    score::Status::Unknown => 0,
                };
                let line = format!(
                    "{}: {} ({:?}, {:.1} s){}",
                    row.key(),
                    row.verdict,
                    row.status,
                    row.cpu_seconds,
                    if row.reason.is_empty() {
                        String::new()
                    } else {
                        format!(" — {}", row.reason)
                    }
                );
                // A hidden bar (no terminal) drops its lines: logs get them
                // on stderr.
                if bar.is_hidden() {
                    eprintln!("{line}");
                } else {
                    bar.println(line);
                }
                bar.set_message(format!(
                    "score {} · {} correct · {} wrong",
                    score.load(Ordering::Relaxed),
                    correct.load(Ordering::Relaxed),
                    wrong.load(Ordering::Relaxed)
                ));
                bar.inc(1);
                row
            })
            .collect()
    });
    bar.finish_and_clear();
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const UNREACH: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";
    const RACE: &str = "CHECK( init(main()), LTL(G ! data-race) )\n";

    /// A task whose "checker" is a shell script: the runner must survive
    /// what the script does.
    fn run_with(name: &str, script: &str, timeout: f64) -> Row {
        run_for(name, script, timeout, &[(UNREACH, true)], DEFAULT_PROPERTY).0
    }

    /// [`run_with`] for a task of the given properties (property file text,
    /// expected verdict), checked for `property`; also the arguments the
    /// script got (empty when it was not run).
    fn run_for(
        name: &str,
        script: &str,
        timeout: f64,
        properties: &[(&str, bool)],
        property: &str,
    ) -> (Row, String) {
        let dir = std::env::temp_dir().join(format!("ase-runner-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("fake-ase");
        std::fs::write(
            &exe,
            format!("#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/args\"\n{script}\n"),
        )
        .unwrap();
        let status = Command::new("chmod").arg("+x").arg(&exe).status().unwrap();
        assert!(status.success());
        let task = dir.join("t.yml");
        let mut yml = "format_version: '1.0'\ninput_files: t.c\nproperties:\n".to_string();
        for (i, (text, expected)) in properties.iter().enumerate() {
            std::fs::write(dir.join(format!("p{i}.prp")), text).unwrap();
            yml += &format!("  - property_file: p{i}.prp\n    expected_verdict: {expected}\n");
        }
        std::fs::write(&task, yml).unwrap();
        let row = run_task(
            &TaskRef {
                folder: "f".into(),
                name: "t".into(),
                path: task,
            },
            &RunOptions {
                executable: exe,
                jobs: 1,
                timeout,
                memlimit_mb: None,
                property: property.into(),
                extra_args: vec![],
            },
        );
        let args = std::fs::read_to_string(dir.join("args")).unwrap_or_default();
        std::fs::remove_dir_all(Path::new(&dir)).unwrap();
        (row, args.replace(&format!("{}/", dir.display()), ""))
    }

    #[test]
    fn the_property_is_chosen_by_name() {
        let both = [(UNREACH, true), (RACE, false)];
        let race =
            r#"echo '{"verdict": "unsafe", "verification_result": "FALSE(no-data-race)"}'; exit 1"#;
        let (row, args) = run_for("race", race, 10.0, &both, "no-data-race");
        assert_eq!(
            (row.expected, row.verdict.as_str(), row.status, row.score),
            (Some(false), "false", score::Status::Correct, 1)
        );
        assert!(args.contains("--property p1.prp "), "{args}");
        // The same output for unreach-call, which holds: a wrong false.
        let (row, args) = run_for("reach", race, 10.0, &both, "unreach-call");
        assert_eq!(
            (row.expected, row.status, row.score),
            (Some(true), score::Status::Wrong, -16)
        );
        assert!(args.contains("--property p0.prp "), "{args}");
        // A task without the property: unknown, not run.
        let (row, args) = run_for("none", race, 10.0, &[(RACE, false)], "unreach-call");
        assert_eq!((row.verdict.as_str(), row.expected), ("unknown", None));
        assert_eq!(
            row.reason,
            "the task has no unreach-call property (it lists no-data-race)"
        );
        assert_eq!(args, "");
        // A race-free verdict: +2.
        let safe = r#"echo '{"verdict": "safe", "verification_result": "TRUE"}'"#;
        let (row, _) = run_for("free", safe, 10.0, &[(RACE, true)], "no-data-race");
        assert_eq!((row.verdict.as_str(), row.score), ("true", 2));
    }

    #[test]
    fn all_properties_make_a_pair_each() {
        let dir = std::env::temp_dir().join(format!("ase-pairs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let task = |name: &str, props: &[&str]| {
            let mut yml = "format_version: '2.0'\ninput_files: t.c\nproperties:\n".to_string();
            for (i, text) in props.iter().enumerate() {
                let prp = format!("{name}{i}.prp");
                std::fs::write(dir.join(&prp), text).unwrap();
                yml += &format!("  - property_file: {prp}\n    expected_verdict: true\n");
            }
            let path = dir.join(format!("{name}.yml"));
            std::fs::write(&path, yml).unwrap();
            TaskRef {
                folder: "f".into(),
                name: name.into(),
                path,
            }
        };
        let tasks = [
            task("both", &[UNREACH, RACE]),
            task("other", &["CHECK( init(main()), LTL(F end) )\n"]),
        ];
        let names = |property: &str| -> Vec<(String, String)> {
            pairs(&tasks, property)
                .into_iter()
                .map(|(t, p)| (t.name, p))
                .collect()
        };
        let s = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            names(ALL_PROPERTIES),
            [
                s("both", "unreach-call"),
                s("both", "no-data-race"),
                s("other", "unreach-call")
            ]
        );
        assert_eq!(
            names("no-data-race"),
            [s("both", "no-data-race"), s("other", "no-data-race")]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn verdicts_are_read_from_the_result_line() {
        let v = |text: &str| verdict_of(&serde_json::from_str(text).unwrap());
        assert_eq!(
            v(r#"{"verification_result": "FALSE(no-data-race)"}"#),
            "false"
        );
        assert_eq!(
            v(r#"{"verification_result": "FALSE(unreach-call)"}"#),
            "false"
        );
        assert_eq!(
            v(r#"{"verification_result": "TRUE", "verdict": "safe"}"#),
            "true"
        );
        assert_eq!(v(r#"{"verification_result": "UNKNOWN"}"#), "unknown");
        assert_eq!(
            v(r#"{"verification_result": "FALSE(no-data-race"}"#),
            "unknown"
        );
        assert_eq!(v(r#"{"verdict": "unsafe"}"#), "false");
        assert_eq!(v(r#"{"verdict": "safe"}"#), "true");
        assert_eq!(v(r#"{}"#), "unknown");
    }

    #[test]
    fn a_crash_is_unknown_with_the_reason() {
        let row = run_with("crash", "echo 'thread panicked: boom' >&2; exit 101", 10.0);
        assert_eq!(row.verdict, "unknown");
        assert_eq!(row.status, score::Status::Unknown);
        assert_eq!(row.expected, Some(true));
        assert_eq!(row.reason, "crashed (exit code 101): thread panicked: boom");
        let row = run_with("signal", "kill -SEGV $$", 10.0);
        assert!(
            row.reason.starts_with("crashed (signal: 11"),
            "{}",
            row.reason
        );
    }

    #[test]
    fn a_hung_checker_is_killed() {
        // The runner allows 10% plus 5 s beyond the time limit.
        let row = run_with("hang", "exec sleep 60", 0.1);
        assert_eq!(row.verdict, "unknown");
        assert!(
            row.reason.starts_with("timeout (killed after 5"),
            "{}",
            row.reason
        );
        assert!(row.wall_seconds < 10.0);
    }

    #[test]
    fn a_result_is_read_from_the_json() {
        let row = run_with(
            "json",
            r#"echo '{"verdict": "safe", "stats": {"iterations": 3, "predicates": {"count": 7}}, "resources": {"cpu_seconds": 1.25, "peak_memory_bytes": 5000000}}'; exit 0"#,
            10.0,
        );
        assert_eq!(
            (row.verdict.as_str(), row.status, row.score),
            ("true", score::Status::Correct, 2)
        );
        assert_eq!(
            (row.iterations, row.predicates, row.cpu_seconds),
            (Some(3), Some(7), 1.25)
        );
        assert!(row.peak_memory_mb >= 5.0);
    }
}
