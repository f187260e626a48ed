//! Gives the `ase` binary the run path of the Z3 library that `ase-engine`'s
//! build script chose, when that library is not a system one (the
//! `z3-solver` wheel unpacked into the build folder), so that the binary
//! finds it however it is started (engine/build.rs).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if let Some(dir) = std::env::var_os("DEP_ASE_Z3_LIB_DIR") {
        let dir = std::path::PathBuf::from(dir);
        println!("cargo:rustc-link-arg-bins=-Wl,-rpath,{}", dir.display());
    }
}
