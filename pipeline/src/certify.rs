//! Certificates of safe verdicts: building and checking one after a check,
//! and finding the program a certificate of a C program is about.

use crate::schedule::SCHEDULE;
use crate::subject::{Subject, SubjectError};
use engine::certify::{self, Certification, Evidence};
use engine::ir::Program;
use engine::verdict::{Outcome, Verdict};
use std::time::Duration;

/// Certifies a safe verdict of `program` (called `name`): builds the
/// certificate from the evidence and checks it, within the time `timeout`
/// leaves after the check (at least [`crate::schedule::Schedule::min_certify`]).
/// A refuted certificate turns the verdict into `unknown`. `None` when the
/// verdict is not safe.
pub fn certify_safe(
    program: &Program,
    name: &str,
    outcome: &mut Outcome,
    evidence: Evidence<'_>,
    timeout: Option<Duration>,
) -> Option<Certification> {
    let Verdict::Safe(proof) = outcome.verdict else {
        return None;
    };
    let left = timeout.map(|t| {
        t.saturating_sub(outcome.stats.time)
            .max(SCHEDULE.min_certify)
    });
    let c = certify::certify(program, name, proof, evidence, left);
    c.apply(&mut outcome.verdict);
    Some(c)
}

/// The program a certificate (its text) of a C program is about: the
/// lowered program, or the counter system its `subject` line describes
/// ([`crate::subject`]), made again from the lowered program.
pub fn subject(lowered: lowering::Lowered, text: &str) -> Result<Program, SubjectError> {
    let header = certify::text::header(text);
    if header.subject.is_empty() {
        return Ok(lowered.program);
    }
    Subject::decode(&header.subject)?.build(&lowered)
}

/// The program a certificate (its text) of the C program `path` is about,
/// lowered with `input` as [`subject`] says. When the check of `input`
/// checks deadlocks on a model of their own ([`crate::apart`]), the
/// certificate of a safe verdict is about the model of the other
/// properties, or of deadlocks when only those are checked: the side whose
/// program has the certificate's fingerprint (the first side when none
/// has).
pub fn c_subject(
    path: &std::path::Path,
    input: &crate::CInput,
    text: &str,
) -> Result<Result<Program, SubjectError>, crate::LoadError> {
    let fingerprint = certify::text::header(text).fingerprint;
    let mut first = None;
    for side in crate::apart::sides(input) {
        let (_, lowered) = crate::input::load(path, &side)?;
        let program = match subject(lowered, text) {
            Ok(p) => p,
            Err(e) => return Ok(Err(e)),
        };
        if certify::fingerprint(&program) == fingerprint {
            return Ok(Ok(program));
        }
        first.get_or_insert(program);
    }
    Ok(Ok(first.expect("at least one side")))
}
