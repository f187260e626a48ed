//! `ase check` on C programs that create threads in loops: the instances
//! the lowering models are bounded, so a proof for every number of threads
//! comes from the counter abstraction (`lowering::counter`), checked by
//! ASE and certified as the counter system (SOUNDNESS.md, "Threads created
//! in loops").

use crate::certify::CertifyArgs;
use engine::certify::{Certification, Evidence};
use engine::verdict::{Outcome, Verdict};
use std::path::Path;
use std::time::Duration;

/// Tries to prove the program for any number of instances. `why`: the
/// reason of the bounded check's `unknown`, kept when no proof is found.
/// Returns the outcome and, when it is a proof, its certification (of the
/// counter system).
pub fn prove(
    lowered: &lowering::Lowered,
    config: &engine::ase::Config,
    left: Option<Duration>,
    certify: &CertifyArgs,
    program: &Path,
    why: &str,
) -> (Outcome, Option<Option<Certification>>) {
    let unknown = |reason: String| Outcome {
        verdict: Verdict::Unknown(format!("{why}; {reason}")),
        stats: Default::default(),
    };
    let system = match lowering::counter::counter_system(lowered) {
        Ok(s) => s,
        Err(e) => return (unknown(format!("no counter abstraction: {e}")), None),
    };
    if std::env::var_os("ASE_PRINT_COUNTERS").is_some() {
        eprintln!("{}", engine::print::print_program(&system.program));
    }
    let config = *config;
    let mut spent = Duration::ZERO;
    // The coarse system first, for a third of the time: when the creators'
    // own variables (loop counters) do not matter, it is much easier.
    let mut checked = &system.program;
    let (mut outcome, mut proof) = (None, None);
    if let Some(coarse) = &system.coarse {
        let c = engine::ase::Config {
            timeout: left.map(|t| t / 3),
            ..config
        };
        let (o, p) = engine::ase::check_with_proof(coarse, &c);
        if matches!(o.verdict, Verdict::Safe(_)) {
            checked = coarse;
            (outcome, proof) = (Some(o), p);
        } else {
            spent = o.stats.time;
        }
    }
    let (mut outcome, proof) = match outcome {
        Some(o) => (o, proof),
        None => {
            let c = engine::ase::Config {
                timeout: left.map(|t| t.saturating_sub(spent)),
                ..config
            };
            engine::ase::check_with_proof(&system.program, &c)
        }
    };
    outcome.stats.time += spent;
    let mut templates = system
        .templates
        .iter()
        .map(|(t, n)| format!("{t}: {n} local states"))
        .collect::<Vec<_>>()
        .join(", ");
    if !system.forgotten.is_empty() {
        templates = format!(
            "{templates}; values forgotten: {}",
            system.forgotten.join(", ")
        );
    }
    match &outcome.verdict {
        Verdict::Safe(_) => {
            eprintln!(
                "note: proved for any number of threads started in loops by counter \
                 abstraction ({templates}); the certificate is of the counter system"
            );
            let evidence = match &proof {
                Some(p) => Evidence::Abstract(p),
                None => Evidence::None,
            };
            let name = format!("{} (counter system)", program.display());
            let cert = match crate::certify::after_check(
                certify,
                checked,
                &name,
                &mut outcome,
                evidence,
                left,
            ) {
                Ok(c) => c,
                Err(e) => return (unknown(format!("certificate: {e}")), None),
            };
            (outcome, Some(cert))
        }
        Verdict::Unsafe(_) => {
            let stats = outcome.stats.clone();
            let mut o = unknown(format!(
                "the counter abstraction ({templates}) has an error trace, which is not \
                 replayed on the program"
            ));
            o.stats = stats;
            (o, None)
        }
        Verdict::Unknown(r) => {
            let stats = outcome.stats.clone();
            let mut o = unknown(format!("the counter abstraction ({templates}): {r}"));
            o.stats = stats;
            (o, None)
        }
    }
}
