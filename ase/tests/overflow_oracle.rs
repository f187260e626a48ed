//! Differential test of the overflow check (`--property no-overflow`)
//! against the compiler's own run-time check.
//!
//! Each generated program runs its arithmetic in a worker thread that
//! `main` joins: straight-line code and branches over signed and unsigned
//! globals of several widths that start at boundary values (`INT_MAX`,
//! `INT_MIN`, `LLONG_MAX`, ...), with `+ - * / %`, unary `-`, shifts,
//! compound assignments and `++`. It has one execution, so the oracle is
//! that execution: the program compiled by `cc -m32
//! -fsanitize=signed-integer-overflow,shift -fno-sanitize-recover=all`
//! overflows iff the sanitizer stops it. `ase` must answer `unsafe`
//! exactly for those, and `safe` for the others (the check is exact, so
//! `unknown` counts against the floor [`MIN_DECIDED`]). Divisions are by
//! `e % 7 + 8` (never zero), and every operation's result is a local of
//! its own ([`Code`]), so the compiler folds and narrows no overflow away.
//!
//! ```text
//! cargo test --release --test overflow_oracle -- --nocapture
//! ASE_OVERFLOW_ORACLE_N=2000 cargo test --release --test overflow_oracle \
//!     -- --ignored --nocapture
//! ```

mod common;

use common::ASE;
use engine::generate::Rng;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Programs of the default test.
const DEFAULT_N: u64 = 150;
/// First seed of the long run.
const LONG_SEED: u64 = 1_000_000;
/// Percentage of programs `ase` must decide.
const MIN_DECIDED: u64 = 95;

/// The globals: name, C type, and the values they may start with.
const VARS: [(&str, &str, &[&str]); 5] = [
    (
        "a",
        "int",
        &["2147483647", "-2147483647 - 1", "65536", "-3", "1000000"],
    ),
    (
        "b",
        "int",
        &["46341", "-1", "2147483600", "7", "-2147483600"],
    ),
    (
        "d",
        "long long",
        &[
            "9223372036854775807LL",
            "-9223372036854775807LL - 1",
            "4294967296LL",
            "-5LL",
        ],
    ),
    ("s", "short", &["32767", "-32768", "181", "-2"]),
    ("u", "unsigned", &["4294967295u", "0u", "2147483648u", "3u"]),
];

/// The C types of the generated values.
#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Int,
    LongLong,
    Short,
    Unsigned,
}

impl Ty {
    fn c(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::LongLong => "long long",
            Ty::Short => "short",
            Ty::Unsigned => "unsigned",
        }
    }

    /// After the integer promotions.
    fn promoted(self) -> Ty {
        if self == Ty::Short {
            Ty::Int
        } else {
            self
        }
    }

    /// The usual arithmetic conversions of two operands (ILP32).
    fn common(self, other: Ty) -> Ty {
        match (self.promoted(), other.promoted()) {
            (Ty::LongLong, _) | (_, Ty::LongLong) => Ty::LongLong,
            (Ty::Unsigned, _) | (_, Ty::Unsigned) => Ty::Unsigned,
            _ => Ty::Int,
        }
    }
}

/// The type of each global ([`VARS`]).
const TYPES: [Ty; 5] = [Ty::Int, Ty::Int, Ty::LongLong, Ty::Short, Ty::Unsigned];

/// Three-address code: every operation's result is a local of the
/// operation's C type, so the compiler neither folds nor narrows an
/// operation with another one (`d + (b - d)` is folded to `b` and `s =
/// a * b` computed in 16 bits by GCC at `-O0`, hiding their overflows
/// from the sanitizer). The program means the same as the nested
/// expression.
struct Code {
    rng: Rng,
    lines: Vec<String>,
    temps: usize,
}

impl Code {
    /// A local holding `value` of type `ty`.
    fn temp(&mut self, ty: Ty, value: String) -> (String, Ty) {
        self.temps += 1;
        let name = format!("t{}", self.temps);
        self.lines.push(format!("{} {name} = {value};", ty.c()));
        (name, ty)
    }

    /// A random value over the globals, `depth` operations deep at most.
    fn expr(&mut self, depth: usize) -> (String, Ty) {
        if depth == 0 || self.rng.below(3) == 0 {
            if self.rng.below(6) == 0 {
                return (format!("{}", self.rng.below(21) as i64 - 10), Ty::Int);
            }
            let i = self.rng.below(VARS.len());
            return (VARS[i].0.to_string(), TYPES[i]);
        }
        let (a, ta) = self.expr(depth - 1);
        let (b, tb) = self.expr(depth - 1);
        let common = ta.common(tb);
        match self.rng.below(10) {
            k @ 0..=5 => {
                let op = ["+", "-", "*"][k / 2];
                self.temp(common, format!("{a} {op} {b}"))
            }
            k @ 6..=7 => {
                // A divisor in [2, 14]: never zero.
                let (m, tm) = self.temp(tb.promoted(), format!("{b} % 7"));
                let (n, _) = self.temp(tm, format!("{m} + 8"));
                let op = if k == 6 { "/" } else { "%" };
                self.temp(common, format!("{a} {op} {n}"))
            }
            8 => self.temp(ta.promoted(), format!("-({a})")),
            _ => {
                let amount = match self.rng.below(3) {
                    0 => self.temp(tb.promoted(), format!("{b} & 31")).0,
                    _ => self.rng.below(34).to_string(),
                };
                let op = if self.rng.below(2) == 0 { "<<" } else { ">>" };
                self.temp(ta.promoted(), format!("{a} {op} {amount}"))
            }
        }
    }

    /// A random statement of the worker.
    fn stmt(&mut self, depth: usize) {
        let target = VARS[self.rng.below(VARS.len())].0;
        match self.rng.below(8) {
            0 if depth > 0 => {
                let (c, _) = self.expr(1);
                let k = self.rng.below(11) as i64 - 5;
                let outer = std::mem::take(&mut self.lines);
                self.stmt(depth - 1);
                let then = std::mem::take(&mut self.lines);
                self.stmt(depth - 1);
                let other = std::mem::replace(&mut self.lines, outer);
                self.lines.push(format!("if ({c} > {k}) {{"));
                self.lines
                    .extend(then.into_iter().map(|l| format!("  {l}")));
                self.lines.push("} else {".into());
                self.lines
                    .extend(other.into_iter().map(|l| format!("  {l}")));
                self.lines.push("}".into());
            }
            1 | 2 => {
                let op = ["++", "--"][self.rng.below(2)];
                self.lines.push(format!("{target}{op};"));
            }
            _ => {
                let (v, _) = self.expr(2);
                self.lines.push(format!("{target} = {v};"));
            }
        }
    }
}

/// The program of one seed.
fn program(seed: u64) -> String {
    let mut code = Code {
        rng: Rng(seed ^ 0x0f10_0f10_5eed),
        lines: Vec::new(),
        temps: 0,
    };
    let mut out = format!("// generated by ase/tests/overflow_oracle (seed {seed})\n");
    out.push_str("#include <pthread.h>\n\n");
    for (name, ty, starts) in VARS {
        let start = starts[code.rng.below(starts.len())];
        let _ = writeln!(out, "{ty} {name} = {start};");
    }
    for _ in 0..1 + code.rng.below(5) {
        code.stmt(1);
    }
    out.push_str("\nvoid *worker(void *arg) {\n");
    for line in &code.lines {
        let _ = writeln!(out, "  {line}");
    }
    out.push_str("  return 0;\n}\n\nint main(void) {\n  pthread_t t;\n");
    out.push_str("  pthread_create(&t, 0, worker, 0);\n  pthread_join(t, 0);\n  return 0;\n}\n");
    out
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("overflow_oracle")
}

/// Whether the program overflows when run (`None`: it does not build or
/// run as expected).
fn overflows(c: &Path) -> Result<bool, String> {
    let exe = c.with_extension("bin");
    let built = Command::new("cc")
        .args(["-m32", "-O0", "-w", "-pthread"])
        .args([
            "-fsanitize=signed-integer-overflow,shift",
            "-fno-sanitize-recover=all",
        ])
        .arg(c)
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("cannot run cc: {e}"))?;
    if !built.status.success() {
        return Err(format!(
            "cc -m32 -fsanitize=... failed: {}",
            String::from_utf8_lossy(&built.stderr)
        ));
    }
    let ran = Command::new(&exe)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let report = String::from_utf8_lossy(&ran.stderr);
    match (ran.status.success(), report.contains("runtime error")) {
        (true, false) => Ok(false),
        (false, true) => Ok(true),
        _ => Err(format!("unexpected run: {:?} {report}", ran.status)),
    }
}

/// `ase check --property no-overflow` on the files: per file, its verdict.
fn ase_verdicts(files: &[PathBuf]) -> Vec<String> {
    let out = Command::new(ASE)
        .args(["check", "--property", "no-overflow", "--format", "json"])
        .args(["--no-certify", "--timeout", "20", "--jobs", "2"])
        .args(files)
        .output()
        .expect("run ase");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("ase's output is not JSON ({e})"));
    let list = match json {
        serde_json::Value::Array(list) => list,
        one => vec![one],
    };
    list.iter()
        .map(|r| r["verdict"].as_str().unwrap_or("missing").to_string())
        .collect()
}

#[derive(Debug, Default)]
struct Counts {
    programs: u64,
    overflowing: u64,
    agreed: u64,
    ase_unknown: u64,
    wrong: Vec<(u64, String)>,
}

/// The programs of seeds `first..first + n`; `None` when the compiler's
/// sanitizer is not there.
fn run(first: u64, n: u64) -> Option<Counts> {
    let dir = dir();
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut counts = Counts::default();
    let mut files = Vec::new();
    let mut oracle = Vec::new();
    for seed in first..first + n {
        let path = dir.join(format!("seed_{seed}.c"));
        std::fs::write(&path, program(seed)).expect("write program");
        let found = overflows(&path);
        if seed == first {
            if let Err(why) = &found {
                common::resource(
                    "cc -m32 with the undefined-behaviour sanitizer",
                    Err::<(), _>(why.clone()),
                )?;
            }
        }
        match found {
            Ok(o) => {
                files.push(path);
                oracle.push((seed, o));
            }
            Err(why) => panic!("seed {seed}: {why}"),
        }
    }
    let verdicts = ase_verdicts(&files);
    for ((seed, overflow), verdict) in oracle.into_iter().zip(verdicts) {
        counts.programs += 1;
        counts.overflowing += u64::from(overflow);
        match (overflow, verdict.as_str()) {
            (true, "unsafe") | (false, "safe") => counts.agreed += 1,
            (_, "unknown") => counts.ase_unknown += 1,
            _ => counts.wrong.push((
                seed,
                format!("the sanitizer says overflow: {overflow}; ase: {verdict}"),
            )),
        }
    }
    Some(counts)
}

fn check(counts: &Counts) {
    eprintln!("{counts:#?}");
    for (seed, what) in &counts.wrong {
        eprintln!("seed {seed}: {what}\n{}", program(*seed));
    }
    assert!(
        counts.wrong.is_empty(),
        "{} wrong answers",
        counts.wrong.len()
    );
    assert!(
        counts.agreed * 100 >= counts.programs * MIN_DECIDED,
        "only {} of {} programs decided",
        counts.agreed,
        counts.programs
    );
    assert!(
        counts.overflowing > 0 && counts.overflowing < counts.programs,
        "{counts:?}"
    );
}

#[test]
fn overflow_check_agrees_with_the_sanitizer() {
    if let Some(counts) = run(0, DEFAULT_N) {
        check(&counts);
    }
}

#[test]
#[ignore = "long: ASE_OVERFLOW_ORACLE_N programs (default 2,000)"]
fn overflow_check_agrees_with_the_sanitizer_long() {
    let n = std::env::var("ASE_OVERFLOW_ORACLE_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000);
    if let Some(counts) = run(LONG_SEED, n) {
        check(&counts);
    }
}
