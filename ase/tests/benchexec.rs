//! The BenchExec integration (`sv-comp/benchexec`): the tool-info module
//! `ase_benchexec.ase`, the benchmark definition `ase.xml` and a real
//! `benchexec` run, checked by `sv-comp/benchexec/test_tool_info.py` with
//! BenchExec itself.
//!
//! BenchExec comes from PyPI into a virtual environment under the target
//! directory (`target/benchexec-venv`, reused once installed). Where there is
//! no `python3`, no `venv` module or no PyPI (offline), the test says why and
//! passes without checking anything.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The BenchExec release the integration is tested with.
const BENCHEXEC_VERSION: &str = "3.35";

fn run(cmd: &mut Command) -> std::io::Result<Output> {
    cmd.env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .output()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The venv's Python with BenchExec installed, or why there is none.
fn benchexec_python(target: &Path) -> Result<PathBuf, String> {
    let venv = target.join("benchexec-venv");
    let python = venv.join("bin").join("python");
    let installed = |python: &Path| {
        run(Command::new(python).args([
            "-c",
            &format!(
                "import benchexec, sys; sys.exit(benchexec.__version__ != '{BENCHEXEC_VERSION}')"
            ),
        ]))
        .is_ok_and(|out| out.status.success())
    };
    if installed(&python) {
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
        &format!("benchexec=={BENCHEXEC_VERSION}"),
    ]))
    .map_err(|e| format!("pip: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "pip install benchexec=={BENCHEXEC_VERSION} failed (offline?): {}",
            text(&out)
        ));
    }
    if !installed(&python) {
        return Err(format!(
            "benchexec {BENCHEXEC_VERSION} is not importable after pip install"
        ));
    }
    Ok(python)
}

#[test]
fn benchexec_integration() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let ase = PathBuf::from(env!("CARGO_BIN_EXE_ase"));
    // target/<profile>/ase
    let target = ase
        .parent()
        .and_then(Path::parent)
        .expect("target directory");
    let python = match benchexec_python(target) {
        Ok(p) => p,
        Err(reason) => {
            eprintln!("skipping the BenchExec test: {reason}");
            return;
        }
    };
    let out = run(Command::new(&python)
        .arg(repo.join("sv-comp/benchexec/test_tool_info.py"))
        .arg("--ase")
        .arg(&ase)
        .args(["--version", env!("CARGO_PKG_VERSION")])
        .current_dir(repo))
    .expect("run test_tool_info.py");
    let report = text(&out);
    println!("{report}");
    assert!(
        out.status.success(),
        "sv-comp/benchexec/test_tool_info.py failed:\n{report}"
    );
}
