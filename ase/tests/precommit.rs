//! The pre-commit hook end to end: the real `pre-commit` from PyPI builds
//! this repository's hook (`language: rust`, `cargo install`) and runs it
//! in a temporary git repository (`pre-commit try-repo`) on staged C files:
//! a buggy file blocks the commit with its trace, a correct one passes.
//! Skipped (with a note) without python3, git, cargo or PyPI.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::root;

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=ase", "-c", "user.email=ase@example.com"])
        .args(args)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", common::text(&out));
}

#[test]
fn the_hook_blocks_a_buggy_commit_and_passes_a_correct_one() {
    let ase = PathBuf::from(env!("CARGO_BIN_EXE_ase"));
    let target = ase
        .parent()
        .and_then(Path::parent)
        .expect("target directory")
        .to_path_buf();
    for tool in ["git", "cargo"] {
        let found = Command::new(tool)
            .arg("--version")
            .output()
            .map(|_| ())
            .map_err(|e| format!("no {tool}: {e}"));
        if common::resource("the pre-commit test", found).is_none() {
            return;
        }
    }
    let venv = common::venv_python(
        &target,
        "pre-commit-venv",
        "import pre_commit",
        "pre-commit",
    );
    let Some(python) = common::resource("the pre-commit test", venv) else {
        return;
    };
    let repo = std::env::temp_dir().join(format!("ase-pre-commit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&repo);
    std::fs::create_dir_all(&repo).expect("temp repo");
    git(&repo, &["init", "-q"]);
    let programs = root().join("tests-c/programs");
    let copy = |name: &str, to: &str| {
        std::fs::copy(programs.join(name), repo.join(to)).expect("copy a program");
    };
    copy("atomic_section_missing_unsafe.c", "racy.c");
    copy("atomic_section_safe.c", "guarded.c");
    copy("lib_counter_safe.c", "library.c");
    std::fs::write(repo.join("notes.txt"), "not C\n").expect("write");

    // `pre-commit try-repo ROOT ase` runs the hook of this checkout (with
    // its uncommitted changes) on the staged files, as a commit would.
    let hook = |staged: &[&str]| {
        git(&repo, &["reset", "-q"]);
        let mut add = vec!["add"];
        add.extend_from_slice(staged);
        git(&repo, &add);
        let out = common::run(
            Command::new(&python)
                .current_dir(&repo)
                .args(["-m", "pre_commit", "try-repo"])
                .arg(root())
                .args(["ase", "--verbose"])
                // The hook's build is cached between runs, and unoptimised
                // (the real `cargo install` of the hook, only quicker to
                // compile: the programs checked are tiny).
                .env("PRE_COMMIT_HOME", target.join("pre-commit-home"))
                .env("CARGO_TARGET_DIR", target.join("pre-commit-build"))
                .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
                .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
                .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256")
                .env("CARGO_PROFILE_RELEASE_INCREMENTAL", "true"),
        )
        .expect("run pre-commit");
        (out.status.code(), common::text(&out))
    };

    let (code, text) = hook(&["racy.c", "notes.txt"]);
    assert_eq!(code, Some(1), "a buggy file must block the commit:\n{text}");
    assert!(text.contains("BLOCKS racy.c: unsafe"), "{text}");
    // The hook checks races too: the unprotected update is a data race,
    // shown with both accesses.
    assert!(
        text.contains("error: data race on `x`"),
        "no trace:\n{text}"
    );

    let (code, text) = hook(&["guarded.c", "library.c", "notes.txt"]);
    assert_eq!(code, Some(0), "a correct file must pass:\n{text}");
    assert!(text.contains("ok     guarded.c: safe"), "{text}");
    assert!(
        text.contains("note   library.c: no `main`: skipped"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&repo);
}
