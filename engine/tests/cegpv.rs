//! CEGPV (`engine::cegpv`) against its back-end on the random program
//! generator: the slices never change an answer. A `safe` of CEGPV is
//! certified on the program itself (not the slice), an `unsafe` replays on
//! the program, and neither contradicts ASE on the whole program or the
//! bounded explicit search.

use engine::certify::{self, Evidence};
use engine::explicit;
use engine::generate::{random_program, GenConfig};
use engine::ir::Program;
use engine::portfolio::Found;
use engine::print::print_program;
use engine::verdict::Verdict;
use std::time::{Duration, Instant};

/// Programs checked (`ASE_CEGPV_DIFF_N` overrides).
const PROGRAMS: u64 = 100;

fn ase(p: &Program, deadline: Option<Instant>) -> Found {
    let config = engine::ase::Config {
        timeout: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        ..Default::default()
    };
    let (outcome, proof) = engine::ase::check_with_proof(p, &config);
    Found {
        proof,
        ..Found::of(outcome)
    }
}

fn cegpv(p: &Program) -> Found {
    let config = engine::cegpv::Config {
        deadline: Some(Instant::now() + Duration::from_secs(5)),
        target: None,
    };
    engine::cegpv::check(p, &config, &mut |slice, _, deadline| ase(slice, deadline))
}

#[test]
fn cegpv_agrees_with_ase_and_the_explicit_search() {
    let n = std::env::var("ASE_CEGPV_DIFF_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PROGRAMS);
    let mut failures = Vec::new();
    let (mut safe, mut unsafe_, mut sliced) = (0, 0, 0);
    for seed in 11_000..11_000 + n {
        let gen = GenConfig {
            max_vars: 4,
            min_vars: 3,
            ..GenConfig::default()
        };
        let p = random_program(seed, &gen);
        let fail = |what: String| format!("seed {seed}: {what}\n{}", print_program(&p));
        let found = cegpv(&p);
        let whole = ase(&p, Some(Instant::now() + Duration::from_secs(5)));
        let bounded = explicit::check(
            &p,
            &explicit::Bounds {
                bound: 6,
                max_states: 50_000,
                partial_order: false,
            },
            Some(Instant::now() + Duration::from_secs(5)),
        );
        let slicing = found.outcome.stats.slicing.clone().expect("figures");
        if slicing.kept < slicing.variables {
            sliced += 1;
        }
        match &found.outcome.verdict {
            Verdict::Safe(proof) => {
                safe += 1;
                let found_bug = [&whole.outcome.verdict, &bounded.verdict]
                    .into_iter()
                    .any(|v| matches!(v, Verdict::Unsafe(_)));
                if found_bug {
                    failures.push(fail("CEGPV answered safe, the program has a bug".into()));
                }
                let evidence = found
                    .proof
                    .as_ref()
                    .map_or(Evidence::None, Evidence::Abstract);
                let c = certify::certify(&p, "generated", *proof, evidence, None);
                if !c.certified() {
                    failures.push(fail(format!("not certified: {:?}", c.reason())));
                }
            }
            Verdict::Unsafe(t) => {
                unsafe_ += 1;
                if let Err(e) = t.replay(&p) {
                    failures.push(fail(format!("the trace does not replay: {e}")));
                }
                if matches!(whole.outcome.verdict, Verdict::Safe(_)) {
                    failures.push(fail("CEGPV answered unsafe, ASE safe".into()));
                }
            }
            Verdict::Unknown(_) => {}
        }
    }
    eprintln!(
        "{n} programs: {safe} safe, {unsafe_} unsafe by CEGPV; {sliced} with a variable sliced away to the end"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(safe > 0 && unsafe_ > 0 && sliced > 0);
}
