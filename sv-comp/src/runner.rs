//! The benchmark runner: checks every task of a set in its own `ase check`
//! process, so that a crash, a timeout or an exhausted memory limit costs
//! one task (reported as unknown with the reason), never the run.
//!
//! The child writes its outcome as JSON (`--format json`), including its own
//! CPU time and peak memory. While it runs, the runner samples the same
//! figures from `/proc` so that a killed child still gets them.

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
    /// Further arguments of `ase check`.
    pub extra_args: Vec<String>,
}

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

/// Checks one task in its own process.
pub fn run_task(task: &TaskRef, opts: &RunOptions) -> Row {
    let mut row = Row {
        folder: task.folder.clone(),
        task: task.name.clone(),
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
    };
    match TaskDef::read(&task.path) {
        Ok(def) => {
            row.expected = def
                .checkable_property()
                .ok()
                .and_then(|(_, e)| e.expected_verdict);
        }
        Err(e) => {
            row.reason = e.to_string();
            return row;
        }
    }
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
    cmd.args(&opts.extra_args)
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
            row.verdict = match v["verdict"].as_str() {
                Some("safe") => "true",
                Some("unsafe") => "false",
                _ => "unknown",
            }
            .into();
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
    let bar = ProgressBar::new(tasks.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let score = AtomicI64::new(0);
    let (correct, wrong) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let rows = pool.install(|| {
        tasks
            .par_iter()
            // One task per split: a worker that runs out of tasks steals
            // single tasks, so the last slow ones run side by side.
            .with_max_len(1)
            .map(|t| {
                let row = run_task(t, opts);
                score.fetch_add(row.score, Ordering::Relaxed);
                match row.status {
                    score::Status::Correct => correct.fetch_add(1, Ordering::Relaxed),
                    score::Status::Wrong => wrong.fetch_add(1, Ordering::Relaxed),
                    score::Status::Unknown => 0,
                };
                let line = format!(
                    "{}/{}: {} ({:?}, {:.1} s){}",
                    row.folder,
                    row.task,
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

    /// A task whose "checker" is a shell script: the runner must survive
    /// what the script does.
    fn run_with(name: &str, script: &str, timeout: f64) -> Row {
        let dir = std::env::temp_dir().join(format!("ase-runner-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("fake-ase");
        std::fs::write(&exe, format!("#!/bin/sh\n{script}\n")).unwrap();
        let status = Command::new("chmod").arg("+x").arg(&exe).status().unwrap();
        assert!(status.success());
        let task = dir.join("t.yml");
        std::fs::write(
            &task,
            "format_version: '1.0'\ninput_files: t.c\nproperties:\n  - property_file: p.prp\n    expected_verdict: true\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("p.prp"),
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        )
        .unwrap();
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
                extra_args: vec![],
            },
        );
        std::fs::remove_dir_all(Path::new(&dir)).unwrap();
        row
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
