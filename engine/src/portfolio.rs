//! The default strategy for programs lowered from C: the exhaustive explicit
//! search (it settles programs with finitely many reachable states and
//! finds shallow bugs), the invariant inference, bounded model checking
//! (bugs that need particular input values, [`crate::bmc`]) and ASE (proofs
//! with unbounded values).
//!
//! With one job they run one after the other, each for its share of the
//! time ([`Shares`]; without a timeout, each runs until it ends: bounded
//! model checking at its depth limit). With more, they run side by side on
//! their own threads and the first conclusive answer wins (bounded model
//! checking is conclusive only with an error trace). When the search or
//! bounded model checking wins, the Z3 engines still running are cancelled
//! (their queries interrupted) and waited for, so that no thread is inside
//! Z3 when the process exits; when ASE wins, the search is abandoned (it
//! uses no prover; its thread ends at its deadline or with the process).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::certify::Invariant;
use crate::explicit::Reachable;
use crate::ir::{Cond, Program};
use crate::schedule::Share;
use crate::verdict::{Limit, Outcome, ProofStates, Unknown, UnknownKind, Verdict};

/// What the portfolio runs with.
#[derive(Clone, Debug)]
pub struct Config {
    /// ASE's budgets; its timeout is the portfolio's.
    pub ase: crate::ase::Config,
    /// Budgets of the exhaustive search.
    pub explicit: crate::explicit::Bounds,
    /// The depth limit of bounded model checking.
    pub bmc: crate::bmc::Bounds,
    /// The error states that are bugs (C: some thread called
    /// `reach_error()`, not a give-up location): bounded model checking
    /// looks only for these ([`crate::bmc::Config::target`]). `None`: every
    /// error state.
    pub target: Option<Cond>,
    /// Engines run at the same time (1: one after the other).
    pub jobs: usize,
    /// Also return ASE's abstract states of a proof (invariants, correctness
    /// witnesses): a program proved safe by the exhaustive search is then
    /// checked by ASE too, within the time left; the exhaustive proof stands
    /// if ASE gives none.
    pub want_proof: bool,
    /// How the time is split.
    pub shares: Shares,
    /// A second model of the program that bounded model checking searches
    /// instead (the exact array model of a C program, whose bugs the
    /// program's model may not vouch for); a trace found there is marked
    /// [`Found::exact`].
    pub exact: Option<Arc<Exact>>,
}

/// The model bounded model checking searches instead of the program.
#[derive(Clone, Debug)]
pub struct Exact {
    /// The model.
    pub program: Program,
    /// Its bug states ([`Config::target`]).
    pub target: Option<Cond>,
}

impl Config {
    /// The program bounded model checking searches, and its target.
    fn bmc_model<'a>(&'a self, program: &'a Program) -> (&'a Program, Option<Cond>) {
        match &self.exact {
            Some(e) => (&e.program, e.target.clone()),
            None => (program, self.target.clone()),
        }
    }
}

/// The shares of the portfolio's time budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shares {
    /// The exhaustive search, one job: of the whole budget.
    pub explicit: Share,
    /// The invariant inference before ASE: of the whole budget (it succeeds
    /// early or not at all).
    pub infer: Share,
    /// Bounded model checking, one job: of the time left after the search
    /// and the inference...
    pub bmc_of_left: Share,
    /// ...and at most this share of the whole (ASE's proofs of programs the
    /// search could not settle should not wait long for it).
    pub bmc_of_whole: Share,
    /// The explicit search of a model with arrays, before bounded model
    /// checking: of the time the bug finders have ([`search_bugs`]).
    pub arrays_explicit: Share,
}

/// What the portfolio found: the outcome, ASE's abstract states when ASE
/// proved the program, the exhaustive search's states when it did (the
/// evidence a certificate is built from).
pub struct Found {
    /// The verdict and statistics.
    pub outcome: Outcome,
    /// ASE's abstract states of a proof.
    pub proof: Option<ProofStates>,
    /// The states of an exhaustive proof.
    pub reachable: Option<Reachable>,
    /// The invariants of an inferred proof ([`crate::infer`]).
    pub invariants: Option<Vec<Invariant>>,
    /// Whether the outcome's trace is one of [`Config::exact`]'s program
    /// (bounded model checking found it there), not of the program run.
    pub exact: bool,
}

impl Found {
    /// An outcome without evidence.
    pub fn of(outcome: Outcome) -> Found {
        Found {
            outcome,
            proof: None,
            reachable: None,
            invariants: None,
            exact: false,
        }
    }
}

/// When the invariant inference before ASE stops: its share of the
/// timeout (without one, its cap, else no deadline).
fn infer_deadline(timeout: Option<Duration>, shares: &Shares) -> Option<Instant> {
    shares.infer.of_left(timeout).map(|t| Instant::now() + t)
}

/// Bounded model checking of `program` (`bmc`'s target), after the
/// explicit search for its `share` of the time where the program has
/// arrays: the search finds the bugs that need small values but many
/// steps, BMC those that need particular values in few steps (each
/// reports only traces the interpreter replayed).
pub fn search_bugs(
    program: &Program,
    explicit: &crate::explicit::Bounds,
    bmc: &crate::bmc::Config,
    share: Share,
) -> Outcome {
    if !program.has_arrays() {
        return crate::bmc::check(program, bmc);
    }
    let start = Instant::now();
    let until = share
        .of_left(bmc.deadline.map(|d| d.saturating_duration_since(start)))
        .map(|t| start + t);
    let mut found =
        crate::explicit::check_arrays(program, explicit, until, bmc.target.as_ref(), bmc.cancel);
    if let Verdict::Unknown(why) = &found.verdict {
        let why = why.clone();
        found = crate::bmc::check(program, bmc);
        if let Verdict::Unknown(bmc_why) = &mut found.verdict {
            bmc_why.detail = format!("{}; explicit search: {}", bmc_why.detail, why.detail);
        }
    }
    found.stats.time = start.elapsed();
    found
}

/// Runs the portfolio.
pub fn run(program: &Program, config: &Config) -> Found {
    if config.jobs <= 1 {
        sequential(program, config)
    } else {
        parallel(program, config)
    }
}

fn sequential(program: &Program, config: &Config) -> Found {
    let start = Instant::now();
    let timeout = config.ase.timeout;
    let slice = timeout.map(|t| start + config.shares.explicit.of(t));
    let (first, reachable) = crate::explicit::prove_with_states(program, &config.explicit, slice);
    let exhaustive = |outcome| Found {
        outcome,
        proof: None,
        reachable,
        invariants: None,
        exact: false,
    };
    let why = match &first.verdict {
        Verdict::Unsafe(_) => return Found::of(first),
        Verdict::Safe(_) if !config.want_proof => return exhaustive(first),
        Verdict::Safe(_) => {
            let rest = crate::ase::Config {
                timeout: timeout.map(|t| t.saturating_sub(start.elapsed())),
                ..config.ase
            };
            let (outcome, proof) = crate::ase::check_with_proof(program, &rest);
            return match (&outcome.verdict, proof) {
                (Verdict::Safe(_), Some(proof)) => Found {
                    outcome,
                    proof: Some(proof),
                    reachable: None,
                    invariants: None,
                    exact: false,
                },
                _ => exhaustive(first),
            };
        }
        Verdict::Unknown(why) => why.clone(),
    };
    // Inferred invariants, on a thread of their own (as bounded model
    // checking below).
    let deadline = infer_deadline(timeout, &config.shares);
    let inferred = std::thread::scope(|s| {
        s.spawn(|| crate::infer::prove(program, deadline, None))
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    });
    if let Verdict::Safe(_) = inferred.outcome.verdict {
        let mut outcome = inferred.outcome;
        outcome.stats.time = start.elapsed();
        return Found {
            outcome,
            proof: None,
            reachable: None,
            invariants: inferred.invariants,
            exact: false,
        };
    }
    // Bounded model checking: it finds its bugs early or not at all.
    let shares = &config.shares;
    let (bmc_program, target) = config.bmc_model(program);
    let bmc = crate::bmc::Config {
        bounds: config.bmc,
        deadline: timeout.map(|t| {
            let left = shares.bmc_of_left.of(t.saturating_sub(start.elapsed()));
            Instant::now() + left.min(shares.bmc_of_whole.of(t))
        }),
        cancel: None,
        target,
    };
    // On a thread of its own: Z3's context and the solver pool are per
    // thread, and ASE's models (its predicates, proofs and traces) should
    // not depend on whether bounded model checking ran before it.
    let mut second = std::thread::scope(|s| {
        s.spawn(|| search_bugs(bmc_program, &config.explicit, &bmc, shares.arrays_explicit))
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    });
    let bmc_why = match &second.verdict {
        Verdict::Unknown(why) => why.clone(),
        _ => {
            second.stats.time = start.elapsed();
            return Found {
                exact: config.exact.is_some(),
                ..Found::of(second)
            };
        }
    };
    let rest = crate::ase::Config {
        timeout: timeout.map(|t| t.saturating_sub(start.elapsed())),
        ..config.ase
    };
    let (mut outcome, proof) = crate::ase::check_with_proof(program, &rest);
    outcome.stats.time = start.elapsed();
    annotate(&mut outcome, &why, Some(&bmc_why));
    Found {
        outcome,
        proof,
        reachable: None,
        invariants: None,
        exact: false,
    }
}

/// Which engine a result comes from.
enum Finished {
    Explicit(Outcome, Option<Reachable>),
    /// The invariant inference, then ASE (on one thread).
    Ase(Outcome, Option<ProofStates>, Option<Vec<Invariant>>),
    Bmc(Outcome),
}

fn parallel(program: &Program, config: &Config) -> Found {
    let start = Instant::now();
    let deadline = config.ase.timeout.map(|t| start + t);
    let program = Arc::new(program.clone());
    let (tx, rx) = mpsc::channel();
    // One flag per run, alive as long as the threads that read it.
    let cancel: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let (bmc_program, target) = config.bmc_model(&program);
    let bmc_program = Arc::new(bmc_program.clone());
    let bmc_config = crate::bmc::Config {
        bounds: config.bmc,
        deadline,
        cancel: Some(cancel),
        target,
    };
    // With two cores, bounded model checking runs after the search, on its
    // thread (a third busy thread slows the other two); with more, or on a
    // model of its own (the search may not end on the program's), on its
    // own thread.
    let shared = config.jobs <= 2 && config.exact.is_none();
    let bmc_started: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(!shared)));
    {
        let (tx, program, bounds) = (tx.clone(), Arc::clone(&program), config.explicit);
        let (bmc, bmc_program) = (bmc_config.clone(), Arc::clone(&bmc_program));
        std::thread::spawn(move || {
            let (outcome, reachable) =
                crate::explicit::prove_with_states(&program, &bounds, deadline);
            let settled = !matches!(outcome.verdict, Verdict::Unknown(_));
            let _ = tx.send(Finished::Explicit(outcome, reachable));
            if !shared {
                return;
            }
            // Announce the start before looking at the flag, and the
            // portfolio sets the flag before looking at the announcement:
            // either BMC does not start, or the portfolio waits for it.
            bmc_started.store(true, Ordering::SeqCst);
            let outcome = if settled || cancel.load(Ordering::SeqCst) {
                Outcome {
                    verdict: Verdict::unknown(UnknownKind::Budget(Limit::Cancelled), "not run"),
                    stats: Default::default(),
                }
            } else {
                crate::smt::interruptible(cancel, || crate::bmc::check(&bmc_program, &bmc))
            };
            let _ = tx.send(Finished::Bmc(outcome));
        });
    }
    if !shared {
        let (tx, explicit_bounds) = (tx.clone(), config.explicit);
        let share = config.shares.arrays_explicit;
        std::thread::spawn(move || {
            let outcome = crate::smt::interruptible(cancel, || {
                search_bugs(&bmc_program, &explicit_bounds, &bmc_config, share)
            });
            let _ = tx.send(Finished::Bmc(outcome));
        });
    }
    {
        let (tx, program) = (tx, Arc::clone(&program));
        let ase = crate::ase::Config {
            cancel: Some(cancel),
            ..config.ase
        };
        let shares = config.shares;
        std::thread::spawn(move || {
            let until = infer_deadline(ase.timeout, &shares);
            let inferred = crate::smt::interruptible(cancel, || {
                crate::infer::prove(&program, until, Some(cancel))
            });
            if let Verdict::Safe(_) = inferred.outcome.verdict {
                let _ = tx.send(Finished::Ase(inferred.outcome, None, inferred.invariants));
                return;
            }
            let ase = crate::ase::Config {
                timeout: ase.timeout.map(|t| t.saturating_sub(start.elapsed())),
                ..ase
            };
            let (outcome, proof) =
                crate::smt::interruptible(cancel, || crate::ase::check_with_proof(&program, &ase));
            let _ = tx.send(Finished::Ase(outcome, proof, None));
        });
    }
    let mut explicit: Option<(Outcome, Option<Reachable>)> = None;
    let mut ase: Option<(Outcome, Option<ProofStates>, Option<Vec<Invariant>>)> = None;
    let mut bmc: Option<Outcome> = None;
    // The threads end by their deadlines; without one, they end when done.
    while explicit.is_none() || ase.is_none() || bmc.is_none() {
        let got = match deadline {
            Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now()) + GRACE),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(Finished::Explicit(o, r)) => {
                let conclusive = !matches!(o.verdict, Verdict::Unknown(_));
                let safe = matches!(o.verdict, Verdict::Safe(_));
                explicit = Some((o, r));
                // A proof for invariants may still come from ASE.
                if conclusive && !(safe && config.want_proof) {
                    break;
                }
            }
            Ok(Finished::Ase(o, p, i)) => {
                let conclusive = !matches!(o.verdict, Verdict::Unknown(_));
                ase = Some((o, p, i));
                if conclusive {
                    break;
                }
            }
            Ok(Finished::Bmc(o)) => {
                let conclusive = matches!(o.verdict, Verdict::Unsafe(_));
                bmc = Some(o);
                // An error trace settles the question (also when the
                // exhaustive search proved safety for `want_proof`, which
                // cannot happen: the trace replays).
                if conclusive {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    let elapsed = start.elapsed();
    // Stop the Z3 engines and wait for them: a thread inside Z3 while the
    // process exits can crash it. A proof from a cancelled run is not used
    // (an interrupted prover is no evidence; ASE itself turns it into
    // unknown); an error trace is, the interpreter replayed it.
    if ase.is_none() || bmc.is_none() {
        cancel.store(true, Ordering::SeqCst);
        let wait_bmc = bmc_started.load(Ordering::SeqCst);
        while ase.is_none() || (wait_bmc && bmc.is_none()) {
            match rx.recv() {
                Ok(Finished::Ase(o, p, i)) => {
                    ase = Some(match o.verdict {
                        Verdict::Safe(_) => (
                            Outcome {
                                verdict: Verdict::unknown(
                                    UnknownKind::Budget(Limit::Cancelled),
                                    "cancelled",
                                ),
                                stats: o.stats,
                            },
                            None,
                            None,
                        ),
                        _ => (o, p, i),
                    })
                }
                Ok(Finished::Bmc(o)) => bmc = Some(o),
                // A late result of the search is not waited for.
                Ok(Finished::Explicit(..)) => {}
                Err(_) => break,
            }
        }
    }
    let conclusive = |o: &Outcome| !matches!(o.verdict, Verdict::Unknown(_));
    let bmc_found = bmc
        .as_ref()
        .is_some_and(|o| matches!(o.verdict, Verdict::Unsafe(_)));
    let mut found = match (explicit, ase, bmc) {
        (_, Some((outcome, proof, invariants)), _) if conclusive(&outcome) => Found {
            outcome,
            proof,
            reachable: None,
            invariants,
            exact: false,
        },
        (Some((outcome, reachable)), _, _) if conclusive(&outcome) => Found {
            outcome,
            proof: None,
            reachable,
            invariants: None,
            exact: false,
        },
        (_, _, Some(outcome)) if bmc_found => Found {
            exact: config.exact.is_some(),
            ..Found::of(outcome)
        },
        (e, Some((mut outcome, proof, invariants)), b) => {
            if let Some((
                Outcome {
                    verdict: Verdict::Unknown(why),
                    ..
                },
                _,
            )) = &e
            {
                let bmc_why = match &b {
                    Some(Outcome {
                        verdict: Verdict::Unknown(why),
                        ..
                    }) => Some(why),
                    _ => None,
                };
                annotate(&mut outcome, why, bmc_why);
            }
            Found {
                outcome,
                proof,
                reachable: None,
                invariants,
                exact: false,
            }
        }
        (Some((outcome, reachable)), None, _) => Found {
            outcome,
            proof: None,
            reachable,
            invariants: None,
            exact: false,
        },
        (None, None, _) => Found::of(Outcome {
            verdict: Verdict::Unknown(Unknown::time()),
            stats: Default::default(),
        }),
    };
    found.outcome.stats.time = elapsed;
    found
}

/// How long after the deadline the portfolio still waits for an engine
/// (each stops at the deadline on its own; this covers its last query).
const GRACE: Duration = Duration::from_millis(500);

fn annotate(outcome: &mut Outcome, why: &Unknown, bmc: Option<&Unknown>) {
    if let Verdict::Unknown(Unknown { detail: reason, .. }) = &mut outcome.verdict {
        *reason = match bmc {
            Some(b) => format!("{reason} (explicit search: {why}; bounded model checking: {b})"),
            None => format!("{reason} (explicit search: {why})"),
        };
    }
}
