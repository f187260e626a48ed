//! Deadlocks checked apart. A deadlock is a condition on every thread at
//! once, and its model keeps every blocking call a step of its own
//! (SOUNDNESS.md, "Deadlocks"), while the race check makes every shared
//! access one: the product of both is a much larger model than either.
//! So when the default check of a C file asks for both, the other
//! properties are checked first on their model, then deadlocks alone on
//! theirs, each as SV-COMP checks one property per run.

use std::time::Instant;

use engine::verdict::{Outcome, Unknown, UnknownKind, Verdict};

use crate::check::{check_one, Options};
use crate::input::{CInput, LoadError};
use crate::report::CReport;
use crate::schedule::SCHEDULE;
use crate::task::Job;

/// Whether `input` checks deadlocks and something else.
pub(crate) fn applies(input: &CInput) -> bool {
    let c = input.lowering.checks;
    c.deadlocks && (c.assertions || c.races || c.memsafety || c.memcleanup || c.overflow)
}

/// The inputs a check of `input` lowers the program with: the other
/// properties' and the deadlocks' when they are checked apart, else
/// `input` alone.
pub(crate) fn sides(input: &CInput) -> Vec<CInput> {
    if applies(input) {
        vec![side_input(input, false), side_input(input, true)]
    } else {
        vec![input.clone()]
    }
}

/// `job` with the checks of one side: deadlocks alone, or everything else.
fn side(job: &Job, deadlocks: bool) -> Job {
    Job {
        input: side_input(&job.input, deadlocks),
        ..job.clone()
    }
}

/// `input` with the checks of one side.
fn side_input(input: &CInput, deadlocks: bool) -> CInput {
    let mut out = input.clone();
    let checks = &mut out.lowering.checks;
    *checks = if deadlocks {
        lowering::Checks::DEADLOCKS
    } else {
        lowering::Checks {
            deadlocks: false,
            ..*checks
        }
    };
    out
}

/// The other properties, then deadlocks. A bug of either is the answer;
/// `safe` needs both proved (and certified, when asked); otherwise the
/// first `unknown`.
pub(crate) fn check(job: &Job, options: &Options, started: Instant) -> Result<CReport, LoadError> {
    let timeout = options.budget.timeout;
    let first_options = Options {
        budget: engine::ase::Config {
            timeout: SCHEDULE.others_first.of_left(timeout),
            ..options.budget
        },
        ..options.clone()
    };
    let others = check_one(&side(job, false), &first_options, started)?;
    if matches!(others.report.outcome.verdict, Verdict::Unsafe(_)) {
        return Ok(others);
    }
    let spent = started.elapsed();
    let left = Options {
        budget: engine::ase::Config {
            timeout: timeout.map(|t| t.saturating_sub(spent)),
            ..options.budget
        },
        ..options.clone()
    };
    match check_one(&side(job, true), &left, Instant::now()) {
        Ok(deadlocks) => Ok(combine(others, deadlocks)),
        // The model of deadlocks lowers condition variables differently.
        Err(e) => Ok(unknown_deadlocks(
            others,
            Unknown {
                kind: UnknownKind::Unsupported,
                detail: format!("the program cannot be lowered for the deadlock check: {e}"),
            },
        )),
    }
}

/// The answer when the other properties gave `others` and the deadlock
/// check `unknown` for reason `why`.
fn unknown_deadlocks(mut others: CReport, why: Unknown) -> CReport {
    if matches!(others.report.outcome.verdict, Verdict::Safe(_)) {
        let why = Unknown {
            detail: format!(
                "no other error is reachable, but whether a deadlock is: {}",
                why.detail
            ),
            ..why
        };
        others.report.outcome = Outcome {
            verdict: Verdict::Unknown(why),
            stats: others.report.outcome.stats.clone(),
        };
        others.report.certified = None;
    }
    others
}

/// The answer of both checks (the first one not `unsafe`).
fn combine(mut others: CReport, deadlocks: CReport) -> CReport {
    let time = others.report.outcome.stats.time + deadlocks.report.outcome.stats.time;
    let mut out = match (
        &others.report.outcome.verdict,
        &deadlocks.report.outcome.verdict,
    ) {
        (_, Verdict::Unsafe(_)) => deadlocks,
        (Verdict::Safe(_), Verdict::Safe(proof)) => {
            others.report.notes.push(format!(
                "no deadlock either: proved by the {}{}",
                proof.describe(),
                match &deadlocks.report.certified {
                    Some(c) if c.certification.certified() => ", certified",
                    Some(_) => ", not certified",
                    None => "",
                }
            ));
            // The answer is certified when both proofs are.
            if let Some(d) = deadlocks.report.certified {
                if !d.certification.certified() {
                    others.report.certified = Some(d);
                }
            }
            others
        }
        (Verdict::Safe(_), Verdict::Unknown(why)) => unknown_deadlocks(others, why.clone()),
        (_, _) => {
            if let Verdict::Safe(proof) = &deadlocks.report.outcome.verdict {
                others
                    .report
                    .notes
                    .push(format!("no deadlock: proved by the {}", proof.describe()));
            }
            others
        }
    };
    out.report.outcome.stats.time = time;
    out
}
