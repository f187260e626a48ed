//! MAGIC (`engine::magic`) on the random program generator, where it
//! applies (threads that share only variables of constant values; single
//! threads always): a `safe` is certified by the checker, an `unsafe`
//! was replayed by the interpreter, and neither contradicts the bounded
//! explicit search (which finds every bug within its bound) or ASE.

use engine::certify::{self, Evidence};
use engine::explicit;
use engine::generate::{random_program, GenConfig};
use engine::print::print_program;
use engine::verdict::Verdict;
use std::time::{Duration, Instant};

/// Programs generated (`ASE_MAGIC_DIFF_N` overrides).
const PROGRAMS: u64 = 120;

#[test]
fn magic_agrees_with_the_explicit_search_and_ase() {
    let n = std::env::var("ASE_MAGIC_DIFF_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PROGRAMS);
    let mut failures = Vec::new();
    let (mut applies, mut safe, mut unsafe_) = (0, 0, 0);
    for seed in 21_000..21_000 + n {
        let gen = GenConfig {
            max_threads: if seed % 2 == 0 { 1 } else { 2 },
            ..GenConfig::default()
        };
        let p = random_program(seed, &gen);
        if engine::magic::applies(&p).is_err() {
            continue;
        }
        applies += 1;
        let fail = |what: String| format!("seed {seed}: {what}\n{}", print_program(&p));
        let found = engine::magic::check(
            &p,
            &engine::magic::Config {
                deadline: Some(Instant::now() + Duration::from_secs(2)),
            },
        );
        let bounded = explicit::check(
            &p,
            &explicit::Bounds {
                bound: 6,
                max_states: 200_000,
                partial_order: true,
            },
            Some(Instant::now() + Duration::from_secs(2)),
        );
        let ase = engine::ase::check(
            &p,
            &engine::ase::Config {
                timeout: Some(Duration::from_secs(2)),
                ..Default::default()
            },
        );
        let bug = matches!(bounded.verdict, Verdict::Unsafe(_))
            || matches!(ase.verdict, Verdict::Unsafe(_));
        let proved = matches!(ase.verdict, Verdict::Safe(_));
        match &found.outcome.verdict {
            Verdict::Safe(proof) => {
                safe += 1;
                if bug {
                    failures.push(fail("MAGIC says safe, another engine found a bug".into()));
                }
                let Some(invariants) = &found.invariants else {
                    failures.push(fail("a safe verdict without an invariant".into()));
                    continue;
                };
                let c = certify::certify(
                    &p,
                    "generated",
                    *proof,
                    Evidence::Invariants(invariants),
                    Some(Duration::from_secs(10)),
                );
                if !c.certified() {
                    failures.push(fail(format!("certificate not valid: {:?}", c.reason())));
                }
            }
            Verdict::Unsafe(trace) => {
                unsafe_ += 1;
                if proved {
                    failures.push(fail("MAGIC says unsafe, ASE proved safe".into()));
                }
                if let Err(e) = trace.replay(&p) {
                    failures.push(fail(format!("the trace does not replay: {e:?}")));
                }
            }
            Verdict::Unknown(_) => {}
        }
    }
    eprintln!("MAGIC applies to {applies} of {n} programs: {safe} safe, {unsafe_} unsafe");
    assert!(safe > 0 && unsafe_ > 0, "too few decided programs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
