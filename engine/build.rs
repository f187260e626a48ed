//! Chooses the Z3 that `ase` links (README, "Which Z3").
//!
//! - The features `vendored-z3` and `prebuilt-z3` leave it to the z3 crate.
//! - `ASE_Z3=system` links the system library (`libz3-dev`), found by the
//!   linker as usual.
//! - `ASE_Z3=wheel` links `libz3` from PyPI's `z3-solver` wheel: `pip`
//!   downloads it (or `ASE_Z3_WHEEL` names a wheel file already on the
//!   machine), the library is unpacked into this crate's `OUT_DIR`, the linker
//!   searches there first, `cargo run` and `cargo test` put the folder on the
//!   library path, and the `ase` binary carries it as its run path (the root
//!   package's build script reads it from the `DEP_ASE_Z3_LIB_DIR` metadata).
//! - Unset: the wheel, the faster of the two where both are available
//!   (README, "Which Z3"), or the system library when the wheel cannot be had
//!   (no `python3 -m pip`, no access to PyPI) but the system one is there.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `z3-solver` release the wheel build uses.
const WHEEL_VERSION: &str = "5.4.1.0";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in [
        "ASE_Z3",
        "ASE_Z3_WHEEL",
        "Z3_LIBRARY_PATH_OVERRIDE",
        "LIBRARY_PATH",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let bundled = ["CARGO_FEATURE_VENDORED_Z3", "CARGO_FEATURE_PREBUILT_Z3"]
        .iter()
        .any(|f| std::env::var_os(f).is_some());
    if bundled || std::env::var_os("Z3_LIBRARY_PATH_OVERRIDE").is_some() {
        return;
    }
    let choice = std::env::var("ASE_Z3").unwrap_or_default();
    match choice.as_str() {
        "system" => require_system(),
        "wheel" => match wheel_library() {
            Ok(dir) => use_wheel(&dir),
            Err(e) => fail(&format!("ASE_Z3=wheel: {e}")),
        },
        "" => {
            match wheel_library() {
                Ok(dir) => use_wheel(&dir),
                Err(e) if system_z3_found() => {
                    println!("cargo:warning=using the system Z3: the z3-solver wheel is not available ({e})");
                }
                Err(e) => fail(&format!(
                    "no Z3: the z3-solver wheel is not available ({e}) and no system Z3 was found"
                )),
            }
        }
        other => fail(&format!(
            "ASE_Z3={other}: expected `wheel` (Z3 from PyPI's z3-solver) or `system` (libz3-dev)"
        )),
    }
}

fn require_system() {
    if !system_z3_found() {
        fail("ASE_Z3=system, but no system Z3 was found (libz3)");
    }
}

/// Stops the build with `message` and what to do about it.
fn fail(message: &str) -> ! {
    eprintln!(
        "error: {message}.\n\
         Choose one of: the z3-solver wheel (needs `python3 -m pip` and access to PyPI, \
         or ASE_Z3_WHEEL=<path of a downloaded z3_solver-*.whl>); the system library \
         (Debian/Ubuntu: apt-get install libz3-dev; then ASE_Z3=system); \
         `--features prebuilt-z3` (downloads Z3's release from GitHub); \
         `--features vendored-z3` (builds Z3 from source; needs cmake and a C++20 compiler)."
    );
    std::process::exit(1);
}

/// Links the wheel's library in `dir` and passes the folder on.
fn use_wheel(dir: &Path) {
    let dir = dir.display();
    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    println!("cargo:lib_dir={dir}");
}

/// The folder holding the wheel's `libz3`, unpacked into `OUT_DIR`
/// (downloaded first unless `ASE_Z3_WHEEL` names the wheel).
fn wheel_library() -> Result<PathBuf, String> {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?);
    let lib_dir = out.join("z3-wheel");
    if lib_dir.join(library_name()).exists() && std::env::var_os("ASE_Z3_WHEEL").is_none() {
        return Ok(lib_dir);
    }
    let wheel = match std::env::var_os("ASE_Z3_WHEEL") {
        Some(path) => PathBuf::from(path),
        None => download_wheel(&out.join("wheel"))?,
    };
    unpack(&wheel, &lib_dir)?;
    Ok(lib_dir)
}

/// The library's file name in the wheel (`z3/lib/`), which the linker finds.
fn library_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "libz3.dylib"
    } else {
        "libz3.so"
    }
}

fn download_wheel(dest: &Path) -> Result<PathBuf, String> {
    let spec = format!("z3-solver=={WHEEL_VERSION}");
    let output = Command::new("python3")
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--quiet",
        ])
        // Offline, fail soon rather than after pip's default minute of retries.
        .args(["--retries", "1", "--timeout", "15"])
        .arg("--dest")
        .arg(dest)
        .arg(&spec)
        .output()
        .map_err(|e| format!("cannot run python3 -m pip: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!("pip download {spec} failed: {}", last.trim()));
    }
    let prefix = format!("z3_solver-{WHEEL_VERSION}-");
    std::fs::read_dir(dest)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
        })
        .ok_or_else(|| format!("pip download {spec} left no wheel in {}", dest.display()))
}

/// Unpacks `z3/lib/<library>` from `wheel` into `lib_dir`, with a link under
/// its soname so that the loader finds it by the name the binary records.
fn unpack(wheel: &Path, lib_dir: &Path) -> Result<(), String> {
    const SCRIPT: &str = r#"
import os, sys, zipfile
wheel, dest, name = sys.argv[1:4]
os.makedirs(dest, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    data = z.read("z3/lib/" + name)
tmp = os.path.join(dest, name + ".tmp")
with open(tmp, "wb") as f:
    f.write(data)
os.replace(tmp, os.path.join(dest, name))
"#;
    let name = library_name();
    let status = Command::new("python3")
        .args(["-c", SCRIPT])
        .arg(wheel)
        .arg(lib_dir)
        .arg(name)
        .status()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if !status.success() {
        return Err(format!(
            "cannot unpack z3/lib/{name} from {}",
            wheel.display()
        ));
    }
    if let Some(soname) = soname(&lib_dir.join(name)) {
        let link = lib_dir.join(&soname);
        if soname != name && !link.exists() {
            link_as(name, &link).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn link_as(name: &str, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(name, link)
}

#[cfg(not(unix))]
fn link_as(name: &str, link: &Path) -> std::io::Result<()> {
    std::fs::copy(link.with_file_name(name), link).map(|_| ())
}

/// The `SONAME` of an ELF shared library (`libz3.so.5.4`), read with
/// `readelf`; `None` where there is none or no `readelf`.
fn soname(library: &Path) -> Option<String> {
    let output = Command::new("readelf")
        .arg("-d")
        .arg(library)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().find(|l| l.contains("(SONAME)"))?;
    let start = line.find('[')? + 1;
    let end = line.rfind(']')?;
    Some(line[start..end].to_string())
}

/// Whether a Z3 library is in one of the places the linker looks.
fn system_z3_found() -> bool {
    let pkg_config = Command::new("pkg-config")
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
    if let Some(v) = std::env::var_os("LIBRARY_PATH") {
        dirs.extend(std::env::split_paths(&v));
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
