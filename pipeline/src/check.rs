//! Checking a program: a `.gc` program with one engine, a C program with
//! the whole strategy (the bounded instances, the errors-only search past
//! give-ups, the counter abstraction, the replay on the unreduced program,
//! the certificate).

use crate::counting::{self, Counted};
use crate::engines::{self, Engine, EngineOptions};
use crate::input::{self, LoadError};
use crate::report::{CReport, Certified, Report};
use crate::schedule::SCHEDULE;
use crate::task::Job;
use engine::certify::Evidence;
use engine::ir::Program;
use engine::portfolio::Found;
use engine::verdict::{Limit, Outcome, Unknown, UnknownKind, Verdict};
use lowering::{GiveUpKind, Lowered};
use std::time::{Duration, Instant};

/// What a check is asked to do besides the program.
#[derive(Clone, Debug)]
pub struct Options {
    /// The checking algorithm.
    pub engine: Engine,
    /// What the engines are given besides the budgets.
    pub engines: EngineOptions,
    /// The budgets: the time limit (C: from the start, preprocessing and
    /// lowering included), iterations, states.
    pub budget: engine::ase::Config,
    /// Build and check a certificate of a safe verdict.
    pub certify: bool,
    /// Keep ASE's abstract states of a proof (invariants, witnesses) even
    /// when another engine proved the program first.
    pub want_proof: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: Engine::Auto,
            engines: EngineOptions::default(),
            budget: engine::ase::Config::default(),
            certify: true,
            want_proof: false,
        }
    }
}

/// The evidence of an engine's proof for its certificate.
fn evidence_of<'a>(
    proof: &'a Option<engine::verdict::ProofStates>,
    reachable: &'a Option<engine::explicit::Reachable>,
    invariants: &'a Option<Vec<engine::certify::Invariant>>,
) -> Evidence<'a> {
    match (proof, reachable, invariants) {
        (Some(p), _, _) => Evidence::Abstract(p),
        (None, Some(r), _) => Evidence::Explicit(r),
        (None, None, Some(i)) => Evidence::Invariants(i),
        (None, None, None) => Evidence::None,
    }
}

/// Certifies the safe verdict of `found` on `program` when asked.
fn certified(
    program: &Program,
    name: &str,
    found: &mut Found,
    options: &Options,
    timeout: Option<Duration>,
) -> Option<Certified> {
    if !options.certify {
        return None;
    }
    let Found {
        outcome,
        proof,
        reachable,
        invariants,
        ..
    } = found;
    let evidence = evidence_of(proof, reachable, invariants);
    let certification = crate::certify::certify_safe(program, name, outcome, evidence, timeout);
    certification.map(|certification| Certified {
        certification,
        program: program.clone(),
        counter_system: false,
    })
}

/// Checks a `.gc` program (`name`: its file, for the certificate).
/// `Engine::Auto` is ASE (the `.gc` models are the papers' benchmarks),
/// but for a program with arrays ([`engines::run`]).
pub fn check_gc(program: &Program, name: &str, options: &Options) -> Report {
    let engine = match options.engine {
        Engine::Auto if !program.has_arrays() => Engine::Ase,
        e => e,
    };
    let mut found = engines::run(
        engine,
        program,
        &options.budget,
        &options.engines,
        None,
        false,
        None,
    );
    let certified = certified(program, name, &mut found, options, options.budget.timeout);
    Report {
        proof: found.proof,
        certified,
        ..Report::of(found.outcome)
    }
}

/// Loads and checks a C program. The time limit covers preprocessing and
/// lowering too (from `started`). Deadlocks are checked on a model of
/// their own when other properties are checked too ([`crate::apart`]).
pub fn check_c(job: &Job, options: &Options, started: Instant) -> Result<CReport, LoadError> {
    if crate::apart::applies(&job.input) {
        return crate::apart::check(job, options, started);
    }
    check_one(job, options, started)
}

/// Loads and checks a C program for the properties of its job together.
pub(crate) fn check_one(
    job: &Job,
    options: &Options,
    started: Instant,
) -> Result<CReport, LoadError> {
    let (unit, lowered) = input::load(&job.program, &job.input)?;
    let spent = started.elapsed();
    let budget = engine::ase::Config {
        timeout: options.budget.timeout.map(|t| t.saturating_sub(spent)),
        ..options.budget
    };
    if budget.timeout.is_some_and(|t| t.is_zero()) {
        let report = Report::of(unknown(
            UnknownKind::Budget(Limit::Time),
            format!(
                "time limit reached (preprocessing and lowering took {:.1} s)",
                spent.as_secs_f64()
            ),
        ));
        return Ok(CReport {
            report,
            unit,
            lowered,
        });
    }
    let options = Options {
        budget,
        ..options.clone()
    };
    let (report, lowered) = CCheck {
        job,
        options: &options,
        unit: &unit,
    }
    .run(lowered);
    let report = abstraction_observed(report, &lowered, &unit);
    let report = union_member_race(report, &lowered);
    Ok(CReport {
        report: memtrack_unchecked(job, report, &lowered),
        unit,
        lowered,
    })
}

/// A counterexample that observes a value the model abstracts (a
/// floating-point comparison or conversion to an integer, an uninterpreted
/// function's result) may rest on a value no execution has (SOUNDNESS.md,
/// "Floating point"). The verdict is `unknown` then.
fn abstraction_observed(report: Report, lowered: &Lowered, unit: &frontend::ParsedUnit) -> Report {
    let Verdict::Unsafe(trace) = &report.outcome.verdict else {
        return report;
    };
    let Some(at) = lowered.abstraction_observed(trace) else {
        return report;
    };
    let line = at
        .and_then(|s| unit.locate(&s))
        .map(|l| format!(" at line {}", l.line))
        .unwrap_or_default();
    turned_unknown(
        report,
        UnknownKind::GiveUp,
        format!(
            "the counterexample observes a value the model abstracts{line} (a floating-point \
             comparison or conversion to an integer, or the result of an uninterpreted \
             function): it may be no execution"
        ),
    )
}

/// A race found on a union's tag alone is between accesses to two
/// different members, which may not overlap (SOUNDNESS.md, "Unions"): the
/// verdict is `unknown` then.
fn union_member_race(report: Report, lowered: &Lowered) -> Report {
    let Verdict::Unsafe(trace) = &report.outcome.verdict else {
        return report;
    };
    let Some(name) = lowered.union_member_race(trace) else {
        return report;
    };
    turned_unknown(
        report,
        UnknownKind::GiveUp,
        format!(
            "two threads are about to access different members of the union `{name}`, one \
             writing: whether the members' bytes overlap (a data race) is not modelled"
        ),
    )
}

/// `report` with its verdict turned `unknown` (its statistics and notes
/// kept).
fn turned_unknown(report: Report, kind: UnknownKind, reason: impl Into<String>) -> Report {
    let mut unknown = Report::of(Outcome {
        verdict: Verdict::unknown(kind, reason),
        stats: report.outcome.stats,
    });
    unknown.notes = report.notes;
    unknown
}

/// `valid-memsafety` includes `valid-memtrack` (no allocated block
/// becomes unreachable): a program that allocates heap memory is not proved
/// safe for it (or for `--memtrack`) when the lowering could not check lost
/// blocks (SOUNDNESS.md, "Memory safety").
fn memtrack_unchecked(job: &Job, report: Report, lowered: &Lowered) -> Report {
    let memsafety = job.property == Some(sv_comp::property::Property::ValidMemsafety);
    let asked = memsafety || lowered.checks.memtrack;
    if !asked || !lowered.allocates || !matches!(report.outcome.verdict, Verdict::Safe(_)) {
        return report;
    }
    let why = match &lowered.memtrack {
        lowering::MemTrack::Checked => return report,
        lowering::MemTrack::Unchecked(why) => why.as_str(),
        lowering::MemTrack::NotAsked => "it was not asked for",
    };
    turned_unknown(
        report,
        UnknownKind::Unsupported,
        format!(
            "no invalid dereference or free is reachable (valid-deref and valid-free hold), but \
             valid-memtrack (no allocated block becomes unreachable) is not checked: {why}"
        ),
    )
}

/// An unknown outcome.
fn unknown(kind: UnknownKind, reason: String) -> Outcome {
    Outcome {
        verdict: Verdict::unknown(kind, reason),
        stats: Default::default(),
    }
}

/// A check of one lowered C program.
struct CCheck<'a> {
    job: &'a Job,
    options: &'a Options,
    unit: &'a frontend::ParsedUnit,
}

/// What the search past a give-up found.
enum PastGiveUp {
    /// A counterexample of the errors-only program (of the program
    /// without tails, when that one was lowered).
    Bug(Outcome, Option<Box<Lowered>>),
    /// A proof by the counter abstraction.
    Counted(Box<Counted>),
    /// Neither: why the verdict is unknown, and the time spent.
    Unknown(Unknown, Duration),
}

impl CCheck<'_> {
    fn name(&self) -> String {
        self.job.program.display().to_string()
    }

    /// Runs the engine of the options on `program`.
    fn search(
        &self,
        program: &Program,
        timeout: Option<Duration>,
        target: Option<engine::ir::Cond>,
        want_proof: bool,
        exact: Option<&Lowered>,
    ) -> Found {
        let budget = engine::ase::Config {
            timeout,
            ..self.options.budget
        };
        let exact = exact.map(|m| {
            std::sync::Arc::new(engine::portfolio::Exact {
                program: m.program.clone(),
                target: Some(m.bug_condition()),
            })
        });
        engines::run(
            self.options.engine,
            program,
            &budget,
            &self.options.engines,
            target,
            want_proof,
            exact,
        )
    }

    /// The exact array model of a program with tails whose errors the
    /// tails cannot vouch for (`lower::arrays`): every element of every
    /// tail kept, in an IR array. `None` without tails, or when the program
    /// is that model already or does not lower so.
    fn array_model(&self, lowered: &Lowered) -> Option<Box<Lowered>> {
        if !lowered.tail_errors() || lowered.array_values {
            return None;
        }
        let options = lowering::Options {
            array_values: true,
            ..self.job.input.lowering.clone()
        };
        lowering::lower_with(self.unit, &options).ok().map(Box::new)
    }

    /// The report, and the lowered program it is about (the program
    /// without tails when the bug was found there).
    fn run(&self, lowered: Lowered) -> (Report, Lowered) {
        let timeout = self.options.budget.timeout;
        let in_loops = !lowered.loop_sites.is_empty();
        // Threads created in loops: the bounded instances get their share,
        // so that the counter abstraction has the rest.
        let bounded = if in_loops {
            SCHEDULE.bounded_instances.of_left(timeout)
        } else {
            timeout
        };
        // Bounded model checking searches the exact array model: the
        // tails vouch for few of the bugs in their arrays.
        let mut arrays = self.array_model(&lowered);
        let mut found = self.search(
            &lowered.program,
            bounded,
            Some(lowered.bug_condition()),
            self.options.want_proof,
            arrays.as_deref(),
        );
        let mut lowered = lowered;
        if found.exact {
            if let Some(model) = arrays.take() {
                lowered = *model;
            }
        }
        let mut counted = None;
        let first = found.outcome.stats.time;
        match self.past_give_up(&lowered, arrays, &found.outcome) {
            Some(PastGiveUp::Bug(outcome, exact)) => {
                found = Found {
                    outcome,
                    proof: None,
                    reachable: None,
                    invariants: None,
                    exact: false,
                };
                found.outcome.stats.time += first;
                if let Some(exact) = exact {
                    lowered = *exact;
                }
            }
            Some(PastGiveUp::Counted(c)) => {
                let Counted {
                    outcome,
                    certified,
                    note,
                } = *c;
                found.outcome = outcome;
                found.outcome.stats.time += first;
                counted = Some((certified, note));
            }
            Some(PastGiveUp::Unknown(why, spent)) => {
                found.outcome.verdict = Verdict::Unknown(why);
                found.outcome.stats.time += spent;
            }
            // An `unknown` for another reason (a budget): the counter
            // abstraction may still prove the program.
            None => {
                let left = timeout.map(|t| t.saturating_sub(first));
                if let Verdict::Unknown(why) = &found.outcome.verdict {
                    if in_loops && left.is_none_or(|t| !t.is_zero()) {
                        let c = counting::prove(
                            &lowered,
                            &self.options.budget,
                            left,
                            self.options.certify,
                            &self.name(),
                            why,
                        );
                        found.outcome = c.outcome;
                        found.outcome.stats.time += first;
                        counted = Some((c.certified, c.note));
                    }
                }
            }
        }
        // A bug of the reduced program must be one of the program without
        // the reduction: its trace is replayed there (SOUNDNESS.md,
        // "Reduction").
        let unreduced_steps = self.unreduced_replay(&lowered, &mut found.outcome);
        let report = match counted {
            Some((certified, note)) => Report {
                certified,
                unreduced_steps,
                notes: note.into_iter().collect(),
                ..Report::of(found.outcome)
            },
            None => {
                let certified = certified(
                    &lowered.program,
                    &self.name(),
                    &mut found,
                    self.options,
                    timeout,
                );
                Report {
                    proof: found.proof,
                    certified,
                    unreduced_steps,
                    ..Report::of(found.outcome)
                }
            }
        };
        (report, lowered)
    }

    /// An unsafe verdict that ends at a give-up location is no
    /// counterexample. A real error may still be reachable past the
    /// give-up states: searched for with only the bugs as the target
    /// (SOUNDNESS.md, "Give-up states"), in the program without tails when
    /// the give-up is an error in a tail ("Heap arrays of run-time
    /// length"); with threads created in loops, a short errors-only search
    /// first and then the counter abstraction ("Threads created in
    /// loops"). `None` when the verdict is not such a trace.
    fn past_give_up(
        &self,
        lowered: &Lowered,
        arrays: Option<Box<Lowered>>,
        outcome: &Outcome,
    ) -> Option<PastGiveUp> {
        let Verdict::Unsafe(trace) = &outcome.verdict else {
            return None;
        };
        let last = trace.last_state();
        let lowering::TraceEnd::GiveUp(give_up) = lowered.trace_end(last) else {
            return None;
        };
        let why = Unknown::new(
            UnknownKind::GiveUp,
            match give_up.kind {
                GiveUpKind::BeyondInstances => {
                    format!("no proof for more threads than the instances: {give_up}")
                }
                GiveUpKind::TailError => format!("no proof and no counterexample: {give_up}"),
                GiveUpKind::NotModelled | GiveUpKind::Construct | GiveUpKind::HandleSlot => {
                    format!("an execution reaches behaviour that is not modelled: {give_up}")
                }
            },
        );
        let timeout = self.options.budget.timeout;
        let mut left = timeout.map(|t| t.saturating_sub(outcome.stats.time));
        let exact = lowered
            .tail_errors()
            .then(|| {
                let options = lowering::Options {
                    tails: false,
                    ..self.job.input.lowering.clone()
                };
                lowering::lower_with(self.unit, &options).ok()
            })
            .flatten()
            .map(Box::new);
        let bug_model = exact.as_deref().unwrap_or(lowered);
        let errors = bug_model.errors_only();
        let target = bug_model.bug_condition();
        let search_errors = |timeout| {
            self.search(&errors, timeout, Some(target.clone()), false, None)
                .outcome
        };
        let has_time = |left: Option<Duration>| left.is_none_or(|t| !t.is_zero());
        let in_loops = !lowered.loop_sites.is_empty();
        let mut spent = Duration::ZERO;
        let mut spend = |o: &Outcome, left: &mut Option<Duration>| {
            spent += o.stats.time;
            *left = left.map(|t| t.saturating_sub(o.stats.time));
            spent
        };
        if in_loops && has_time(left) {
            let o = search_errors(SCHEDULE.errors_first.of_left(left));
            if matches!(o.verdict, Verdict::Unsafe(_)) {
                return Some(PastGiveUp::Bug(o, exact));
            }
            spend(&o, &mut left);
        }
        let mut counting_why = None;
        if in_loops && has_time(left) {
            let mut c = counting::prove(
                lowered,
                &self.options.budget,
                SCHEDULE.counting.of_left(left),
                self.options.certify,
                &self.name(),
                &why,
            );
            let spent = spend(&c.outcome, &mut left);
            match &c.outcome.verdict {
                Verdict::Safe(_) => {
                    c.outcome.stats.time = spent;
                    return Some(PastGiveUp::Counted(Box::new(c)));
                }
                Verdict::Unknown(r) => counting_why = Some(r.clone()),
                Verdict::Unsafe(_) => {}
            }
        }
        // A bug of the model with tails whose trace reads tracked elements
        // only is one of the program (SOUNDNESS.md, "Heap arrays of
        // run-time length"): searched first, for half of the time left
        // (the exact model may not hold the array at all).
        if exact.is_some() && left.is_some_and(|t| !t.is_zero()) {
            let share = left.map(|t| t / 2);
            let mut o = self
                .search(
                    &lowered.errors_only(),
                    share,
                    Some(lowered.bug_condition()),
                    false,
                    None,
                )
                .outcome;
            let spent = spend(&o, &mut left);
            let bug = matches!(&o.verdict, Verdict::Unsafe(trace)
                if !matches!(lowered.trace_end(trace.last_state()), lowering::TraceEnd::GiveUp(_)));
            if bug {
                o.stats.time = spent;
                return Some(PastGiveUp::Bug(o, None));
            }
        }
        // Arrays of any length, exactly (bounded model checking): half of
        // what is left, the rest for the capacity model.
        if let Some(model) = arrays.filter(|_| has_time(left)) {
            let share = left.map(|t| t / 2);
            let target = Some(model.bug_condition());
            let mut o = self
                .search(&model.errors_only(), share, target, false, None)
                .outcome;
            let spent = spend(&o, &mut left);
            if matches!(o.verdict, Verdict::Unsafe(_)) {
                o.stats.time = spent;
                return Some(PastGiveUp::Bug(o, Some(model)));
            }
        }
        if has_time(left) {
            let mut o = search_errors(left);
            let spent = spend(&o, &mut left);
            if matches!(o.verdict, Verdict::Unsafe(_)) {
                o.stats.time = spent;
                return Some(PastGiveUp::Bug(o, exact));
            }
        }
        Some(PastGiveUp::Unknown(counting_why.unwrap_or(why), spent))
    }

    /// Replays an unsafe verdict's trace of the reduced program on the
    /// program lowered without the reduction
    /// ([`lowering::unreduced::replay`]); the length of the unreduced
    /// trace, or `None` when there was nothing to replay. A trace that does
    /// not replay turns the verdict into `unknown` (an internal error: the
    /// reduction is wrong for this program).
    fn unreduced_replay(&self, lowered: &Lowered, outcome: &mut Outcome) -> Option<usize> {
        let Verdict::Unsafe(trace) = &outcome.verdict else {
            return None;
        };
        if !self.job.input.lowering.reduce {
            return None;
        }
        let options = lowering::Options {
            reduce: false,
            compress: false,
            tails: lowered.tails,
            array_values: lowered.array_values,
            ..self.job.input.lowering.clone()
        };
        let result = lowering::lower_with(self.unit, &options)
            .map_err(|e| format!("lowering it: {e}"))
            .and_then(|unreduced| {
                lowering::unreduced::replay(lowered, &unreduced, trace).map_err(|e| e.to_string())
            });
        match result {
            Ok(t) => Some(t.steps.len()),
            Err(why) => {
                outcome.verdict = Verdict::unknown(
                    UnknownKind::Internal,
                    format!(
                        "internal error: the counterexample of the reduced program does not \
                         replay on the program without the reduction ({why}); `--no-reduce` \
                         checks that program"
                    ),
                );
                None
            }
        }
    }
}
