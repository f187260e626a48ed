//! C integer arithmetic against the compiler: generated expressions over
//! `unsigned long long` values (wrap-around at 2^64, casts to narrower and
//! signed types, shifts, bitwise operations, division and remainder,
//! comparisons) are compiled by `gcc -m32` (the ILP32 data model `ase`
//! uses) and run; `ase check` of the same expression over inputs assumed
//! equal to the run's values must answer `safe` for `assert(r == value)`
//! and `unsafe` for `assert(r != value)`. Skipped when no `gcc` with 32-bit
//! support is installed.

mod common;

use common::ASE;

use std::path::Path;
use std::process::Command;

use engine::generate::Rng;

/// Programs generated (each checked twice), unless `ASE_GCC_PROGRAMS` says
/// otherwise; `ASE_GCC_SEED` picks other programs.
const PROGRAMS: u64 = 24;

/// An element of `xs`.
fn pick<'a>(rng: &mut Rng, xs: &[&'a str]) -> &'a str {
    xs[rng.below(xs.len())]
}

/// Values near the edges of the C types.
const VALUES: [&str; 12] = [
    "0",
    "1",
    "3",
    "255",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551614",
    "18446744073709551615",
];

/// An expression of type `unsigned long long` over `x`, `y` and `z`,
/// without undefined behaviour (shift amounts below 64, odd divisors).
fn expr(rng: &mut Rng, depth: u32) -> String {
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(4) {
            0 => format!("{}ULL", pick(rng, &VALUES)),
            k => ["x", "y", "z"][k - 1].to_string(),
        };
    }
    let mut sub = || expr(rng, depth - 1);
    let (a, b) = (sub(), sub());
    match rng.below(9) {
        0 => format!(
            "(unsigned long long)({})({a})",
            pick(
                rng,
                &[
                    "unsigned int",
                    "int",
                    "long",
                    "unsigned long",
                    "long long",
                    "unsigned char",
                    "signed char",
                    "unsigned short",
                ]
            )
        ),
        1 => format!("(-({a}))"),
        2 => format!("(({a}) {} {})", pick(rng, &["<<", ">>"]), rng.below(64)),
        3 => format!("(({a}) {} (({b}) | 1ULL))", pick(rng, &["/", "%"])),
        4 => format!(
            "(unsigned long long)(({a}) {} ({b}))",
            pick(rng, &["<", "<=", "==", "!="])
        ),
        _ => format!(
            "(({a}) {} ({b}))",
            pick(rng, &["+", "-", "*", "&", "|", "^"])
        ),
    }
}

fn gcc_works(dir: &Path) -> bool {
    let probe = dir.join("probe.c");
    std::fs::write(
        &probe,
        "int main(void) { return sizeof(long) == 4 ? 0 : 1; }\n",
    )
    .unwrap();
    let exe = dir.join("probe");
    Command::new("gcc")
        .args(["-m32", "-w", "-o"])
        .arg(&exe)
        .arg(&probe)
        .status()
        .is_ok_and(|s| s.success())
        && Command::new(&exe).status().is_ok_and(|s| s.success())
}

/// The value gcc's program computes for `e` at the inputs.
fn gcc_value(dir: &Path, e: &str, inputs: &[&str; 3]) -> String {
    let src = dir.join("value.c");
    let [x, y, z] = inputs;
    std::fs::write(
        &src,
        format!(
            "#include <stdio.h>\nint main(void) {{\n  volatile unsigned long long x = {x}ULL, y = {y}ULL, z = {z}ULL;\n  unsigned long long r = {e};\n  printf(\"%llu\\n\", r);\n  return 0;\n}}\n"
        ),
    )
    .unwrap();
    let exe = dir.join("value");
    let built = Command::new("gcc")
        .args(["-m32", "-w", "-O0", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .unwrap();
    assert!(built.success(), "gcc failed on {e}");
    let out = Command::new(&exe).output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// `ase check`'s verdict word on the program asserting `check` of `r`.
fn ase_verdict(dir: &Path, e: &str, inputs: &[&str; 3], check: &str) -> (String, String) {
    let [x, y, z] = inputs;
    let src = dir.join("check.c");
    std::fs::write(
        &src,
        format!(
            "#include <assert.h>\nextern unsigned long long __VERIFIER_nondet_ulonglong(void);\nextern void __VERIFIER_assume(int);\nint main(void) {{\n  unsigned long long x = __VERIFIER_nondet_ulonglong();\n  unsigned long long y = __VERIFIER_nondet_ulonglong();\n  unsigned long long z = __VERIFIER_nondet_ulonglong();\n  __VERIFIER_assume(x == {x}ULL && y == {y}ULL && z == {z}ULL);\n  unsigned long long r = {e};\n  assert({check});\n  return 0;\n}}\n"
        ),
    )
    .unwrap();
    let out = Command::new(ASE)
        .arg("check")
        .arg(&src)
        .args(["--no-races", "--timeout", "5"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let word = text
        .lines()
        .find_map(|l| {
            ["safe", "unsafe", "unknown"]
                .into_iter()
                .find(|w| l.starts_with(&format!("{w}:")) || l.starts_with(&format!("{w} (")))
        })
        .unwrap_or("none")
        .to_string();
    (word, text)
}

#[test]
fn integer_arithmetic_agrees_with_gcc() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gcc_arithmetic");
    std::fs::create_dir_all(&dir).unwrap();
    let gcc = if gcc_works(&dir) {
        Ok(())
    } else {
        Err("no gcc -m32".to_string())
    };
    if common::resource("the comparison with gcc", gcc).is_none() {
        return;
    }
    let programs = common::env_u64("ASE_GCC_PROGRAMS", PROGRAMS);
    let mut rng = Rng(common::env_u64("ASE_GCC_SEED", 0x9e37_79b9_7f4a_7c15));
    let mut decided = 0;
    for _ in 0..programs {
        let e = expr(&mut rng, 3);
        let inputs = [
            pick(&mut rng, &VALUES),
            pick(&mut rng, &VALUES),
            pick(&mut rng, &VALUES),
        ];
        let value = gcc_value(&dir, &e, &inputs);
        for (check, expected) in [
            (format!("r == {value}ULL"), "safe"),
            (format!("r != {value}ULL"), "unsafe"),
        ] {
            let (verdict, text) = ase_verdict(&dir, &e, &inputs, &check);
            assert!(
                verdict == expected || verdict == "unknown",
                "r = {e} at x, y, z = {inputs:?}: gcc computes {value}; `assert({check})` is {expected}, ase says {verdict}:\n{text}"
            );
            decided += usize::from(verdict == expected);
        }
    }
    // Unknown is allowed (a certificate of non-linear arithmetic may time
    // out), but rare.
    assert!(
        decided as u64 >= programs * 2 * 9 / 10,
        "only {decided} of {} checks decided",
        programs * 2
    );
}
