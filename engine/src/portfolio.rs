//! The default strategy for programs lowered from C: the exhaustive explicit
//! search (it settles programs with finitely many reachable states and
//! finds shallow bugs) and ASE (proofs with unbounded values).
//!
//! With one job they run one after the other: the search for at most half of
//! the time, then ASE for the rest. With more, they run side by side on
//! their own threads and the first conclusive answer wins. When the search
//! wins, ASE is cancelled (its Z3 queries interrupted) and waited for, so
//! that no thread is inside Z3 when the process exits; when ASE wins, the
//! search is abandoned (it uses no prover; its thread ends at its deadline
//! or with the process).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::explicit::Reachable;
use crate::ir::Program;
use crate::verdict::{Outcome, ProofStates, Verdict};

/// What the portfolio runs with.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// ASE's budgets; its timeout is the portfolio's.
    pub ase: crate::ase::Config,
    /// Budgets of the exhaustive search.
    pub explicit: crate::explicit::Bounds,
    /// Engines run at the same time (1: one after the other).
    pub jobs: usize,
    /// Also return ASE's abstract states of a proof (invariants, correctness
    /// witnesses): a program proved safe by the exhaustive search is then
    /// checked by ASE too, within the time left; the exhaustive proof stands
    /// if ASE gives none.
    pub want_proof: bool,
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
}

impl Found {
    fn of(outcome: Outcome) -> Found {
        Found {
            outcome,
            proof: None,
            reachable: None,
        }
    }
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
    let slice = timeout.map(|t| start + t / 2);
    let (first, reachable) = crate::explicit::prove_with_states(program, &config.explicit, slice);
    let rest = crate::ase::Config {
        timeout: timeout.map(|t| t.saturating_sub(start.elapsed())),
        ..config.ase
    };
    let exhaustive = |outcome| Found {
        outcome,
        proof: None,
        reachable,
    };
    let why = match &first.verdict {
        Verdict::Unsafe(_) => return Found::of(first),
        Verdict::Safe(_) if !config.want_proof => return exhaustive(first),
        Verdict::Safe(_) => {
            let (outcome, proof) = crate::ase::check_with_proof(program, &rest);
            return match (&outcome.verdict, proof) {
                (Verdict::Safe(_), Some(proof)) => Found {
                    outcome,
                    proof: Some(proof),
                    reachable: None,
                },
                _ => exhaustive(first),
            };
        }
        Verdict::Unknown(why) => why.clone(),
    };
    let (mut outcome, proof) = crate::ase::check_with_proof(program, &rest);
    outcome.stats.time = start.elapsed();
    annotate(&mut outcome, &why);
    Found {
        outcome,
        proof,
        reachable: None,
    }
}

/// Which engine a result comes from.
enum Finished {
    Explicit(Outcome, Option<Reachable>),
    Ase(Outcome, Option<ProofStates>),
}

fn parallel(program: &Program, config: &Config) -> Found {
    let start = Instant::now();
    let deadline = config.ase.timeout.map(|t| start + t);
    let program = Arc::new(program.clone());
    let (tx, rx) = mpsc::channel();
    {
        let (tx, program, bounds) = (tx.clone(), Arc::clone(&program), config.explicit);
        std::thread::spawn(move || {
            let (outcome, reachable) =
                crate::explicit::prove_with_states(&program, &bounds, deadline);
            let _ = tx.send(Finished::Explicit(outcome, reachable));
        });
    }
    // One flag per run, alive as long as the threads that read it.
    let cancel: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    {
        let (tx, program) = (tx, Arc::clone(&program));
        let ase = crate::ase::Config {
            cancel: Some(cancel),
            ..config.ase
        };
        std::thread::spawn(move || {
            let (outcome, proof) =
                crate::smt::interruptible(cancel, || crate::ase::check_with_proof(&program, &ase));
            let _ = tx.send(Finished::Ase(outcome, proof));
        });
    }
    let mut explicit: Option<(Outcome, Option<Reachable>)> = None;
    let mut ase: Option<(Outcome, Option<ProofStates>)> = None;
    // Both threads end by their deadlines; without one, they end when done.
    while explicit.is_none() || ase.is_none() {
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
            Ok(Finished::Ase(o, p)) => {
                let conclusive = !matches!(o.verdict, Verdict::Unknown(_));
                ase = Some((o, p));
                if conclusive {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    let elapsed = start.elapsed();
    if ase.is_none() {
        // Stop ASE and wait for it: a thread inside Z3 while the process
        // exits can crash it. A proof from a cancelled run is not used (an
        // interrupted prover is no evidence; ASE itself turns it into
        // unknown); an error trace is, the interpreter replayed it.
        cancel.store(true, Ordering::SeqCst);
        if let Ok(Finished::Ase(o, p)) = rx.recv() {
            if !matches!(o.verdict, Verdict::Safe(_)) {
                ase = Some((o, p));
            }
        }
    }
    let conclusive = |o: &Outcome| !matches!(o.verdict, Verdict::Unknown(_));
    let mut found = match (explicit, ase) {
        (_, Some((outcome, proof))) if conclusive(&outcome) => Found {
            outcome,
            proof,
            reachable: None,
        },
        (Some((outcome, reachable)), _) if conclusive(&outcome) => Found {
            outcome,
            proof: None,
            reachable,
        },
        (Some((e, _)), Some((mut outcome, proof))) => {
            if let Verdict::Unknown(why) = &e.verdict {
                annotate(&mut outcome, why);
            }
            Found {
                outcome,
                proof,
                reachable: None,
            }
        }
        (None, Some((outcome, proof))) => Found {
            outcome,
            proof,
            reachable: None,
        },
        (Some((outcome, reachable)), None) => Found {
            outcome,
            proof: None,
            reachable,
        },
        (None, None) => Found::of(Outcome {
            verdict: Verdict::Unknown("time limit reached".into()),
            stats: Default::default(),
        }),
    };
    found.outcome.stats.time = elapsed;
    found
}

/// How long after the deadline the portfolio still waits for an engine
/// (each stops at the deadline on its own; this covers its last query).
const GRACE: Duration = Duration::from_millis(500);

fn annotate(outcome: &mut Outcome, why: &str) {
    if let Verdict::Unknown(reason) = &mut outcome.verdict {
        *reason = format!("{reason} (explicit search: {why})");
    }
}
