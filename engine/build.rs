//! Warns, before the linker fails with an obscure message, when the system
//! Z3 that the default build links seems to be missing, and says what to do.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=Z3_LIBRARY_PATH_OVERRIDE");
    println!("cargo:rerun-if-env-changed=LIBRARY_PATH");
    let bundled = ["CARGO_FEATURE_VENDORED_Z3", "CARGO_FEATURE_PREBUILT_Z3"]
        .iter()
        .any(|f| std::env::var_os(f).is_some());
    if bundled || system_z3_found() {
        return;
    }
    println!(
        "cargo:warning=no system Z3 found (libz3): install it (Debian/Ubuntu: \
         apt-get install libz3-dev), or build with `--features prebuilt-z3` \
         (downloads Z3's release) or `--features vendored-z3` (builds Z3 from \
         source; needs cmake and GCC 13 or another C++20 compiler)"
    );
}

/// Whether a Z3 library is in one of the places the linker looks.
fn system_z3_found() -> bool {
    let pkg_config = std::process::Command::new("pkg-config")
        .args(["--exists", "z3"])
        .status()
        .is_ok_and(|s| s.success());
    if pkg_config {
        return true;
    }
    let mut dirs: Vec<PathBuf> = [
        "/usr/lib",
        "/usr/lib64",
        "/usr/local/lib",
        "/opt/homebrew/lib",
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    for var in ["Z3_LIBRARY_PATH_OVERRIDE", "LIBRARY_PATH"] {
        if let Some(v) = std::env::var_os(var) {
            dirs.extend(std::env::split_paths(&v));
        }
    }
    dirs.iter().any(|d| has_libz3(d))
}

fn has_libz3(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("libz3.") || name.starts_with("libz3-")
        })
    })
}
