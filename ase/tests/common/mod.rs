//! What the integration tests share: the repository root, running the
//! `ase` binary, resources that CI installs (required there), and Python
//! packages from PyPI.
#![allow(dead_code)] // each test crate uses a part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `ase` binary under test.
pub const ASE: &str = env!("CARGO_BIN_EXE_ase");

/// The repository root (the `ase` package's manifest directory).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Runs `ase ARGS` in the repository root, engines one after the other
/// (`ASE_JOBS=1`: deterministic proofs and traces).
pub fn ase(args: &[&str]) -> Output {
    Command::new(ASE)
        .current_dir(root())
        .env("ASE_JOBS", "1")
        .args(args)
        .output()
        .expect("cannot run the ase binary")
}

/// Whether the tests run under CI (`CI=true`), where every resource a test
/// needs is installed.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// A resource a test needs: `Ok` when it is there. Missing, the test fails
/// under CI and is skipped elsewhere (with a note): returns whether to go
/// on.
pub fn resource<T>(what: &str, found: Result<T, String>) -> Option<T> {
    match found {
        Ok(t) => Some(t),
        Err(why) if in_ci() => panic!("{what} is required under CI: {why}"),
        Err(why) => {
            eprintln!("note: skipping {what}: {why}");
            None
        }
    }
}

/// A folder of `../shared` (beside the repository), when it is there.
pub fn shared(relative: &str) -> Option<PathBuf> {
    let dir = root().join("../shared").join(relative);
    let found = if dir.exists() {
        Ok(dir.clone())
    } else {
        Err(format!("{} is absent", dir.display()))
    };
    resource(&format!("the tests on ../shared/{relative}"), found)
}

/// Runs a Python or pip command without byte-code files or pip's version
/// check.
pub fn run(cmd: &mut Command) -> std::io::Result<Output> {
    cmd.env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .output()
}

/// Standard output and error of a finished command.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The Python of the virtual environment `target/NAME` once `requirement`
/// is installed there from PyPI (made anew unless the Python script
/// `installed` already exits 0 in it), or why there is none: no `python3`,
/// no `venv` module, or no PyPI (offline).
pub fn venv_python(
    target: &Path,
    name: &str,
    installed: &str,
    requirement: &str,
) -> Result<PathBuf, String> {
    let venv = target.join(name);
    let python = venv.join("bin").join("python");
    let ready = |python: &Path| {
        run(Command::new(python).args(["-c", installed])).is_ok_and(|out| out.status.success())
    };
    if ready(&python) {
        return Ok(python);
    }
    match run(Command::new("python3").arg("--version")) {
        Ok(out) if out.status.success() => {}
        Ok(out) => return Err(format!("python3 --version failed: {}", text(&out))),
        Err(e) => return Err(format!("no python3: {e}")),
    }
    // A half-made environment from an interrupted run is made anew.
    let _ = std::fs::remove_dir_all(&venv);
    let out = run(Command::new("python3").args(["-m", "venv"]).arg(&venv))
        .map_err(|e| format!("python3 -m venv: {e}"))?;
    if !out.status.success() {
        return Err(format!("python3 -m venv failed: {}", text(&out)));
    }
    let out = run(Command::new(&python).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--timeout",
        "20",
        "--retries",
        "1",
        requirement,
    ]))
    .map_err(|e| format!("pip: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "pip install {requirement} failed (offline?): {}",
            text(&out)
        ));
    }
    if !ready(&python) {
        return Err(format!("{requirement} is not usable after pip install"));
    }
    Ok(python)
}

/// `ase check ARGS --format json --no-certify --timeout 20 --jobs 2 FILES`
/// (the differential tests' batches): per file, its verdict word.
pub fn json_verdicts(args: &[&str], files: &[PathBuf]) -> Vec<String> {
    let out = Command::new(ASE)
        .arg("check")
        .args(args)
        .args([
            "--format",
            "json",
            "--no-certify",
            "--timeout",
            "20",
            "--jobs",
            "2",
        ])
        .args(files)
        .output()
        .expect("run ase");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "ase's output is not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let list = match json {
        serde_json::Value::Array(list) => list,
        one => vec![one],
    };
    assert_eq!(list.len(), files.len(), "one report per file");
    list.iter()
        .map(|r| r["verdict"].as_str().unwrap_or("missing").to_string())
        .collect()
}

/// Whether gcc builds and runs a C program with the math library here.
pub fn gcc_works(dir: &Path) -> bool {
    let probe = dir.join("probe.c");
    std::fs::write(
        &probe,
        "#include <math.h>\nint main(void) { return (int)sqrt(0.0); }\n",
    )
    .unwrap();
    let exe = dir.join("probe");
    Command::new("gcc")
        .args(["-w", "-o"])
        .arg(&exe)
        .arg(&probe)
        .arg("-lm")
        .status()
        .is_ok_and(|s| s.success())
        && Command::new(&exe).status().is_ok_and(|s| s.success())
}

/// Builds `text` with gcc (`-O0 -pthread -lm`) in `dir`, runs it once and
/// returns what it printed.
pub fn gcc_output(dir: &Path, text: &str) -> String {
    let src = dir.join("run.c");
    std::fs::write(&src, text).unwrap();
    let exe = dir.join("run");
    let built = Command::new("gcc")
        .args(["-w", "-O0", "-pthread", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lm")
        .status()
        .unwrap();
    assert!(built.success(), "gcc failed on\n{text}");
    let out = Command::new(&exe).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// A number from the environment variable `name` (the differential tests'
/// sizes and seeds), else `default`.
pub fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Compares `ase`'s verdicts with the truth of assertions that a run
/// decided (the file, and whether its assertion holds): panics on any
/// contradiction (`safe` for a false one, `unsafe` for a true one), and
/// says per check whether `ase` decided it.
pub fn decided_by_runs(checks: &[(&Path, bool)], verdicts: &[String]) -> Vec<bool> {
    let mut wrong = Vec::new();
    let mut decided = Vec::new();
    for ((file, holds), verdict) in checks.iter().zip(verdicts) {
        let expected = if *holds { "safe" } else { "unsafe" };
        match verdict.as_str() {
            "unknown" => decided.push(false),
            v if v == expected => decided.push(true),
            v => wrong.push(format!(
                "{}: the run says {expected}, ase {v}:\n{}",
                file.display(),
                std::fs::read_to_string(file).unwrap()
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    decided
}
