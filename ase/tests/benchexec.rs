//! The BenchExec integration (`sv-comp/benchexec`): the tool-info module
//! `ase_benchexec.ase`, the benchmark definition `ase.xml` and a real
//! `benchexec` run, checked by `sv-comp/benchexec/test_tool_info.py` with
//! BenchExec itself.
//!
//! BenchExec comes from PyPI into a virtual environment under the target
//! directory (`target/benchexec-venv`, reused once installed). Where there is
//! no `python3`, no `venv` module or no PyPI (offline), the test says why and
//! passes without checking anything.

mod common;

use common::{run, text};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The BenchExec release the integration is tested with.
const BENCHEXEC_VERSION: &str = "3.35";

/// The venv's Python with BenchExec installed, or why there is none.
fn benchexec_python(target: &Path) -> Result<PathBuf, String> {
    common::venv_python(
        target,
        "benchexec-venv",
        &format!("import benchexec, sys; sys.exit(benchexec.__version__ != '{BENCHEXEC_VERSION}')"),
        &format!("benchexec=={BENCHEXEC_VERSION}"),
    )
}

#[test]
fn benchexec_integration() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ase = PathBuf::from(env!("CARGO_BIN_EXE_ase"));
    // target/<profile>/ase
    let target = ase
        .parent()
        .and_then(Path::parent)
        .expect("target directory");
    let Some(python) = common::resource("the BenchExec test", benchexec_python(target)) else {
        return;
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
