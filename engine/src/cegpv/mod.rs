//! Counter-Example Guided Program Verification (Abdulla, Atig, Diep): a
//! back-end checks a slice of the program that keeps a subset of its
//! variables ([`slice`]); a counterexample of the slice is mapped to the
//! program's transitions and reconstructed on the program ([`follow`]);
//! a spurious one is excluded from the slice ([`observer`]), and after
//! [`EXCLUSIONS_PER_SLICE`] of them the slice keeps more variables
//! ([`deps`]), as it does when the back-end gives no answer on a slice
//! without running out of a budget. A proof of a slice (without
//! exclusions) is a proof of the program: its certificate is checked on
//! the program.

pub mod deps;
pub mod follow;
pub mod observer;
pub mod slice;

use crate::ir::{Cond, Program, TransId};
use crate::portfolio::Found;
use crate::verdict::{Outcome, Unknown, UnknownKind, Verdict};
use std::time::Instant;

/// Spurious counterexamples excluded from one slice before it keeps more
/// variables. The exclusion is the paper's refinement; it may go on
/// without end on programs with loops, and the observer makes every step
/// depend on every other (the exhaustive search's partial-order reduction
/// then saves nothing), so the slice is widened after a few.
pub const EXCLUSIONS_PER_SLICE: usize = 2;

/// What CEGPV runs with.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// When to stop (with `unknown`).
    pub deadline: Option<Instant>,
    /// The error states that are bugs ([`crate::portfolio::Config::target`]).
    pub target: Option<Cond>,
}

/// The figures of the slicing, reported with the outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Slicing {
    /// Back-end runs.
    pub rounds: u32,
    /// Variables the last slice kept.
    pub kept: usize,
    /// Variables of the program.
    pub variables: usize,
    /// Spurious counterexamples.
    pub spurious: u32,
}

/// The back-end: checks a program for the error states of a target within
/// a deadline.
pub type Backend<'a> = dyn FnMut(&Program, Option<Cond>, Option<Instant>) -> Found + 'a;

/// Checks `p` by CEGPV with `backend`.
pub fn check(p: &Program, config: &Config, backend: &mut Backend<'_>) -> Found {
    if p.has_arrays() {
        return bare(crate::verdict::arrays_unsupported("CEGPV"));
    }
    let start = Instant::now();
    let mut state = Refinement {
        p,
        config,
        kept: deps::initial(p, config.target.as_ref()),
        excluded: Vec::new(),
        slicing: Slicing {
            variables: p.vars.len(),
            ..Slicing::default()
        },
        queries: 0,
    };
    let mut found = loop {
        if config.deadline.is_some_and(|d| Instant::now() >= d) {
            break unknown(Unknown::time());
        }
        if let Some(found) = state.round(backend) {
            break found;
        }
    };
    found.outcome.stats.prover_queries = state.queries;
    found.outcome.stats.iterations = state.slicing.rounds;
    found.outcome.stats.time = start.elapsed();
    found.outcome.stats.slicing = Some(state.slicing);
    found
}

/// Where the refinement is: the slice and the excluded step sequences.
struct Refinement<'a> {
    p: &'a Program,
    config: &'a Config,
    kept: slice::Kept,
    excluded: Vec<Vec<TransId>>,
    slicing: Slicing,
    queries: u64,
}

impl Refinement<'_> {
    /// Checks the current slice; the answer, or `None` when the slice was
    /// refined.
    fn round(&mut self, backend: &mut Backend<'_>) -> Option<Found> {
        self.slicing.rounds += 1;
        self.slicing.kept = self.kept.count();
        let sliced = slice::slice(self.p, &self.kept);
        let target = self
            .config
            .target
            .as_ref()
            .map(|t| slice::weaken(t, &self.kept));
        let (refined, origin) = observer::exclude(&sliced, &self.excluded);
        let found = backend(&refined, target.clone(), self.config.deadline);
        self.queries += found.outcome.stats.prover_queries;
        match &found.outcome.verdict {
            Verdict::Safe(_) if self.excluded.is_empty() => Some(found),
            Verdict::Safe(_) => Some(without_exclusions(
                found,
                &sliced,
                target,
                self.config,
                backend,
            )),
            // No answer but no budget spent either (a bounded search, an
            // inference that found no invariant): more variables may help.
            Verdict::Unknown(why) if !matches!(why.kind, UnknownKind::Budget(_)) => {
                if deps::widen_blind(self.p, &mut self.kept) > 0 {
                    self.excluded.clear();
                    return None;
                }
                Some(self.unknown_on_slice(why))
            }
            Verdict::Unknown(why) => Some(self.unknown_on_slice(why)),
            Verdict::Unsafe(trace) => {
                let steps: Vec<TransId> = trace
                    .steps
                    .iter()
                    .map(|s| origin[s.transition.index()])
                    .collect();
                self.reconstruct(steps)
            }
        }
    }

    /// The answer when a counterexample of the slice is one of the
    /// program; else `None`, the counterexample excluded or the slice
    /// widened.
    fn reconstruct(&mut self, steps: Vec<TransId>) -> Option<Found> {
        match follow::reconstruct(self.p, &steps, self.config.deadline) {
            Ok(Some(trace)) => Some(bare(Verdict::Unsafe(trace))),
            // The slice is the program: its counterexample is one.
            Ok(None) if self.kept.all() => Some(unknown(Unknown::new(
                UnknownKind::Internal,
                "a counterexample of the whole program was not reconstructed",
            ))),
            Ok(None) => {
                self.slicing.spurious += 1;
                if self.excluded.len() < EXCLUSIONS_PER_SLICE {
                    self.excluded.push(steps);
                } else {
                    self.excluded.clear();
                    deps::widen(self.p, &mut self.kept, &steps);
                }
                None
            }
            Err(why) => Some(unknown(why)),
        }
    }

    fn unknown_on_slice(&self, why: &Unknown) -> Found {
        unknown(why.clone().map(|d| {
            format!(
                "on a slice keeping {} of {} variables: {d}",
                self.slicing.kept, self.slicing.variables
            )
        }))
    }
}

/// A proof of a slice with exclusions is about the observer's product, not
/// the program: the slice alone is checked again for evidence a
/// certificate of the program can be built from. When that gives no proof,
/// the verdict stands without evidence (it is sound: SOUNDNESS.md,
/// "CEGPV").
fn without_exclusions(
    found: Found,
    sliced: &Program,
    target: Option<Cond>,
    config: &Config,
    backend: &mut Backend<'_>,
) -> Found {
    let again = backend(sliced, target, config.deadline);
    if matches!(again.outcome.verdict, Verdict::Safe(_)) {
        return again;
    }
    Found {
        proof: None,
        reachable: None,
        invariants: None,
        ..found
    }
}

/// A verdict without evidence (its figures are set at the end).
fn bare(verdict: Verdict) -> Found {
    Found::of(Outcome {
        verdict,
        stats: Default::default(),
    })
}

fn unknown(why: Unknown) -> Found {
    bare(Verdict::Unknown(why))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certify::{self, Evidence};
    use crate::parse::parse_program as parse;

    /// CEGPV with ASE as the back-end, counting the back-end's runs.
    fn run(p: &Program) -> (Found, usize) {
        let mut runs = 0;
        let found = check(p, &Config::default(), &mut |slice, _, _| {
            runs += 1;
            let (outcome, proof) = crate::ase::check_with_proof(slice, &Default::default());
            Found {
                proof,
                ..Found::of(outcome)
            }
        });
        (found, runs)
    }

    #[test]
    fn a_spurious_counterexample_is_excluded_and_a_real_one_found() {
        // The first slice keeps x and y: `p` may then copy y without
        // waiting for z, which the program does not allow.
        let p = parse(
            "var x = 0, y = 0, z = 0;
             thread p at 1 { 1 -> 2 when z == 1 do x := y; }
             thread q at 1 { 1 -> 2 do y := 1; 2 -> 3 do z := 1; }
             error x == 1;",
        )
        .unwrap();
        let (found, _) = run(&p);
        let Verdict::Unsafe(trace) = &found.outcome.verdict else {
            panic!("{:?}", found.outcome.verdict);
        };
        trace.replay(&p).unwrap();
        assert_eq!(trace.steps.len(), 3);
        let slicing = found.outcome.stats.slicing.as_ref().unwrap();
        assert!(slicing.spurious >= 1, "{slicing:?}");
        assert_eq!(slicing.kept, 2);
    }

    #[test]
    fn widening_after_exclusions_proves_the_program_with_a_certificate() {
        // z decides whether p copies y; once z is kept, the slice is exact.
        let p = parse(
            "var x = 0, y = 0, z = 0, a = 0;
             thread p at 1 { 1 -> 2 when z == 1 do x := y; }
             thread q at 1 { 1 -> 2 do y := 1; 2 -> 3 do y := 0; 3 -> 4 do z := 1; }
             thread r at 1 { 1 -> 1 do a := a + 1; }
             error x == 1;",
        )
        .unwrap();
        let (found, runs) = run(&p);
        let Verdict::Safe(proof) = found.outcome.verdict else {
            panic!("{:?}", found.outcome.verdict);
        };
        let slicing = found.outcome.stats.slicing.as_ref().unwrap();
        assert_eq!(slicing.kept, 3, "a is never kept: {slicing:?}");
        assert!(
            slicing.spurious > EXCLUSIONS_PER_SLICE as u32,
            "{slicing:?}"
        );
        assert_eq!(runs as u32, slicing.rounds);
        let evidence = Evidence::Abstract(found.proof.as_ref().expect("ASE's states"));
        let c = certify::certify(&p, "widening", proof, evidence, None);
        assert!(c.certified(), "{:?}", c.reason());
    }
}
