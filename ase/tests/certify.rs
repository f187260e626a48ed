//! `ase check --certificate`, `--no-certify`, the JSON fields, and
//! `ase certify` with its exit codes. (Every safe C program of `tests-c`
//! is certified and re-checked in `c_programs.rs`; the in-process checks of
//! the `.gc` programs and models are in `engine/tests/certify.rs`.)

mod common;

use common::ase;

use serde_json::Value;
use std::process::Output;

fn tmp(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("ase-certify-{}-{name}", std::process::id()))
        .display()
        .to_string()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn check_writes_a_certificate_that_certify_accepts() {
    for (file, name) in [
        ("examples/mutex.gc", "mutex.cert"),
        ("tests-gc/unbounded-loop-safe.gc", "loop.cert"),
        (
            "tests-c/programs/mutex_counter_safe.c",
            "mutex_counter.cert",
        ),
        ("tests-c/programs/local_array_safe.c", "local_array.cert"),
    ] {
        let cert = tmp(name);
        let out = ase(&["check", file, "--certificate", &cert]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", text(&out));
        assert!(text(&out).contains("\ncertified: yes ("), "{}", text(&out));
        let written = std::fs::read_to_string(&cert).expect("certificate written");
        assert!(written.contains("invariant ["), "{written}");
        assert!(
            written.contains(&format!("program \"{file}\"")),
            "{written}"
        );
        let out = ase(&["certify", file, &cert]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", text(&out));
        assert!(text(&out).starts_with("valid: "), "{}", text(&out));
        let _ = std::fs::remove_file(&cert);
    }
}

#[test]
fn json_reports_the_certificate() {
    let out = ase(&["check", "examples/ticket.gc", "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["verdict"], "safe");
    assert_eq!(v["certified"], true);
    assert!(v["certificate_time"].as_f64().is_some_and(|t| t >= 0.0));
    assert!(v.get("certificate_reason").is_none());
    // Not certified: no fields, no line.
    let out = ase(&[
        "check",
        "examples/ticket.gc",
        "--format",
        "json",
        "--no-certify",
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v.get("certified").is_none());
    let out = ase(&["check", "examples/ticket.gc", "--no-certify"]);
    assert!(!text(&out).contains("certified"), "{}", text(&out));
    // Unsafe: nothing to certify.
    let out = ase(&["check", "examples/lost-update.gc", "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v.get("certified").is_none());
}

#[test]
fn certify_rejects_a_broken_certificate_with_the_obligation() {
    let cert = tmp("broken.cert");
    std::fs::write(
        &cert,
        "invariant [p1@1, p2@1] { b == 0 }\ninvariant [p1@2, p2@1] { b == 1 }\n",
    )
    .expect("write");
    let out = ase(&["certify", "examples/mutex.gc", &cert]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(t.starts_with("invalid: consecution: transition"), "{t}");
    assert!(t.contains("a counterexample state"), "{t}");
    let _ = std::fs::remove_file(&cert);
}

#[test]
fn certify_reports_bad_input() {
    let cert = tmp("bad.cert");
    std::fs::write(&cert, "invariant [p1@1, p2@9] { b == 0 }\n").expect("write");
    let out = ase(&["certify", "examples/mutex.gc", &cert]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("thread `p2` has no location `9`"),
        "{}",
        text(&out)
    );
    std::fs::write(&cert, "invariant [p1@1, p2@1] { c == 0 }\n").expect("write");
    let out = ase(&["certify", "examples/mutex.gc", &cert]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("undeclared variable `c`"),
        "{}",
        text(&out)
    );
    let out = ase(&["certify", "examples/mutex.gc", "/nonexistent/x.cert"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = ase(&["certify", "examples/nonexistent.gc", &cert]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // A certificate of another program: a warning, then checked anyway.
    let other = tmp("other.cert");
    let out = ase(&["check", "examples/ticket.gc", "--certificate", &other]);
    assert_eq!(out.status.code(), Some(0));
    let out = ase(&["certify", "examples/mutex.gc", &other]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let _ = std::fs::remove_file(&cert);
    let _ = std::fs::remove_file(&other);
}
