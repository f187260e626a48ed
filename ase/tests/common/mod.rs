//! Shared by the integration tests that need a Python package from PyPI.
#![allow(dead_code)] // each test crate uses a part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
