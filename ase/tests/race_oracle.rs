//! Differential test of the race check against an independent oracle.
//!
//! Every program of the generator in `race_oracle/program.rs` (seed = base
//! seed + i) is searched by the oracle (`race_oracle/oracle.rs`: every
//! access its own step, C's evaluation order, no lowering) and checked by
//! `ase check --races`. No program the oracle finds racy may be answered
//! `safe`, and no program it proves race-free may be answered `unsafe`;
//! at least [`MIN_DECIDED`] percent of the programs must be decided by
//! both. On a disagreement the C program is printed and saved under
//! `ase/tests/regressions/`.
//!
//! ```text
//! cargo test --release --test race_oracle -- --nocapture
//! ASE_RACE_ORACLE_N=5000 ASE_RACE_ORACLE_SEED=1000000 cargo test --release \
//!     --test race_oracle -- --ignored --nocapture
//! ```

mod common;

mod race_oracle {
    pub mod oracle;
    pub mod program;
}

use std::path::{Path, PathBuf};

use race_oracle::oracle::{self, Outcome};
use race_oracle::program;

/// Programs of the default test.
const DEFAULT_N: u64 = 400;
/// First seed of the long run.
const LONG_SEED: u64 = 1_000_000;
/// States the oracle may visit per program.
const MAX_STATES: usize = 2_000_000;
/// Programs per `ase check` run.
const BATCH: usize = 200;
/// Percentage of programs both must decide.
const MIN_DECIDED: u64 = 90;

#[derive(Default, Debug)]
struct Counts {
    programs: u64,
    racy: u64,
    race_free: u64,
    oracle_too_big: u64,
    /// Racy and answered `unsafe`.
    agreed_racy: u64,
    /// Race-free and answered `safe`.
    agreed_race_free: u64,
    ase_unknown: u64,
    wrong: Vec<(u64, String)>,
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("race_oracle")
}

fn run(first: u64, n: u64) -> Counts {
    let dir = dir();
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut counts = Counts::default();
    let seeds: Vec<u64> = (first..first + n).collect();
    for chunk in seeds.chunks(BATCH) {
        let mut files = Vec::new();
        let mut outcomes = Vec::new();
        for &seed in chunk {
            let p = program::generate(seed);
            let path = dir.join(format!("seed_{seed}.c"));
            std::fs::write(&path, p.to_c(seed)).expect("write program");
            files.push(path);
            outcomes.push(oracle::search(&p, MAX_STATES));
        }
        let verdicts = common::json_verdicts(&["--races"], &files);
        for ((seed, outcome), verdict) in chunk.iter().zip(outcomes).zip(verdicts) {
            counts.programs += 1;
            match outcome {
                Outcome::Racy => counts.racy += 1,
                Outcome::RaceFree => counts.race_free += 1,
                Outcome::TooBig => counts.oracle_too_big += 1,
            }
            match (&outcome, verdict.as_str()) {
                (Outcome::Racy, "unsafe") => counts.agreed_racy += 1,
                (Outcome::RaceFree, "safe") => counts.agreed_race_free += 1,
                (Outcome::Racy, "safe") | (Outcome::RaceFree, "unsafe") => counts
                    .wrong
                    .push((*seed, format!("oracle {outcome:?}, ase {verdict}"))),
                (_, "unknown") => counts.ase_unknown += 1,
                _ => {}
            }
        }
    }
    counts
}

fn report(counts: &Counts) {
    eprintln!("{counts:#?}");
    if counts.wrong.is_empty() {
        return;
    }
    let regressions = Path::new(env!("CARGO_MANIFEST_DIR")).join("ase/tests/regressions");
    std::fs::create_dir_all(&regressions).expect("regressions dir");
    for (seed, what) in &counts.wrong {
        let text = program::generate(*seed).to_c(*seed);
        eprintln!("seed {seed}: {what}\n{text}");
        let _ = std::fs::write(regressions.join(format!("race_oracle_{seed}.c")), text);
    }
    panic!("{} wrong answers", counts.wrong.len());
}

fn assert_floor(counts: &Counts) {
    let decided = counts.agreed_racy + counts.agreed_race_free;
    assert!(
        decided * 100 >= counts.programs * MIN_DECIDED,
        "only {decided} of {} programs decided by both",
        counts.programs
    );
    assert!(counts.racy > 0 && counts.race_free > 0, "{counts:?}");
}

#[test]
fn race_check_agrees_with_the_oracle() {
    let counts = run(0, DEFAULT_N);
    report(&counts);
    assert_floor(&counts);
}

#[test]
#[ignore = "long: ASE_RACE_ORACLE_N programs (default 5,000)"]
fn race_check_agrees_with_the_oracle_long() {
    let n = std::env::var("ASE_RACE_ORACLE_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000);
    let seed = std::env::var("ASE_RACE_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(LONG_SEED);
    let counts = run(seed, n);
    report(&counts);
    assert_floor(&counts);
}
