//! Checks of C programs that create threads in loops: the instances the
//! lowering models are bounded, so a proof for every number of threads
//! comes from the counter abstraction (`lowering::counter`), checked by
//! ASE and certified as the counter system (SOUNDNESS.md, "Threads created
//! in loops").

use crate::report::Certified;
use crate::schedule::SCHEDULE;
use crate::subject::Subject;
use engine::certify::Evidence;
use engine::certify::Invariant;
use engine::explicit::Reachable;
use engine::ir::VarId;
use engine::saturate::Saturation;
use engine::verdict::{Outcome, Unknown, UnknownKind, Verdict};
use lowering::counter::{CounterSystem, View};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// The result of [`prove`].
pub struct Counted {
    /// Safe (a proof for any number of instances), else unknown.
    pub outcome: Outcome,
    /// The certification of a proof (of the counter system), when asked.
    pub certified: Option<Certified>,
    /// How the proof was found.
    pub note: Option<String>,
}

/// Tries to prove the program for any number of instances, with `left` of
/// the time. `why`: the reason of the bounded check's `unknown`, kept when
/// no proof is found. `certify`: certify a proof; `name`: the program's
/// name for its certificate.
pub fn prove(
    lowered: &lowering::Lowered,
    config: &engine::ase::Config,
    left: Option<Duration>,
    certify: bool,
    name: &str,
    why: &Unknown,
) -> Counted {
    let shares = SCHEDULE.counter;
    let unknown = |reason: String| Counted {
        outcome: Outcome {
            verdict: Verdict::Unknown(why.clone().map(|why| format!("{why}; {reason}"))),
            stats: Default::default(),
        },
        certified: None,
        note: None,
    };
    let system = match lowering::counter::counter_system(lowered) {
        Ok(s) => s,
        Err(e) => return unknown(format!("no counter abstraction: {e}")),
    };
    print_if_asked(&system);
    // A proof of the counter system `checked`: its note and certification.
    let finish = |checked: &engine::ir::Program,
                  outcome: &mut Outcome,
                  evidence: Evidence<'_>,
                  templates: &str,
                  subject: Subject| {
        let note = format!(
            "proved for any number of threads started in loops by counter abstraction \
             ({templates}); the certificate is of the counter system"
        );
        let name = format!("{name} (counter system)");
        let certified = certify
            .then(|| crate::certify::certify_safe(checked, &name, outcome, evidence, left))
            .flatten()
            .map(|mut certification| {
                if let Some(c) = &mut certification.certificate {
                    c.program.subject = subject.encode();
                }
                certification
            })
            .map(|certification| Certified {
                certification,
                program: checked.clone(),
                counter_system: true,
            });
        Counted {
            outcome: outcome.clone(),
            certified,
            note: Some(note),
        }
    };
    // A proof of the saturated search, its states the evidence.
    let finish_saturated = |mut proof: SaturatedProof| {
        let what = format!(
            "{}; counters capped at {}",
            describe(&proof.system),
            proof.cap
        );
        finish(
            &proof.system.program,
            &mut proof.outcome,
            Evidence::Explicit(&proof.reachable),
            &what,
            proof.subject,
        )
    };
    let config = *config;
    let mut spent = Duration::ZERO;
    // The explicit search with saturated counters first, for a short
    // time: it ends when the other variables take finitely many values
    // (soon, or not at all), and for a proof small enough to certify at
    // once. When it ran out of time or states, the rest of its share is
    // kept for it after the view programs.
    let share = shares.saturated.of_left(left);
    let first_budget = shares.saturated_first.of_left(left);
    let first = saturated(lowered, first_budget, CERTIFIABLE_STATES as u64);
    spent += first.spent;
    let again = first.proof.is_err() && first.cut;
    let reserved = match (again, share) {
        (true, Some(share)) => share.saturating_sub(first.spent),
        _ => Duration::ZERO,
    };
    // What is left for the other methods, the reserve kept.
    let rest = |spent: Duration| left.map(|t| t.saturating_sub(spent + reserved));
    // A proof by too many states for a certificate waits until ASE has
    // tried to find one that can be certified.
    let mut pending = None;
    let mut capped_why = String::new();
    if let Some(proof) = settle(first.proof, &mut capped_why, &mut pending) {
        return finish_saturated(proof);
    }
    // Inferred invariants (the coarse system first).
    let versions = system.coarse.iter().map(|c| (c, true));
    for (checked, coarse) in versions.chain([(&system.program, false)]) {
        let budget = shares.infer.of_left(rest(spent));
        let inferred = engine::infer::prove(checked, budget.map(|b| Instant::now() + b), None);
        spent += inferred.outcome.stats.time;
        if let (Verdict::Safe(_), Some(invariants)) =
            (&inferred.outcome.verdict, &inferred.invariants)
        {
            let mut outcome = inferred.outcome.clone();
            outcome.stats.time = spent;
            return finish(
                checked,
                &mut outcome,
                Evidence::Invariants(invariants),
                &describe(&system),
                Subject::Counter { coarse },
            );
        }
    }
    // View programs with assumptions on the instances.
    let budget = shares
        .views
        .of_left(rest(spent))
        .unwrap_or(Duration::from_secs(3600));
    let started = Instant::now();
    let viewed = viewed(lowered, started + budget);
    spent += started.elapsed();
    let view_why = match viewed {
        Ok((system, view, invariants)) => {
            let mut outcome = Outcome {
                verdict: Verdict::Safe(engine::verdict::Proof::InferredInvariant),
                stats: Default::default(),
            };
            outcome.stats.time = spent;
            outcome.stats.abstract_states = invariants.len() as u64;
            let what = format!("{}; one instance per site tracked", describe(&system));
            return finish(
                &system.program,
                &mut outcome,
                Evidence::Invariants(&invariants),
                &what,
                Subject::view(&system, &view),
            );
        }
        Err(why) => why,
    };
    if again {
        // The reserve, or less when the methods before overran theirs;
        // no limit when the check has none.
        let budget = left.map(|t| reserved.min(t.saturating_sub(spent)));
        let second = saturated(lowered, budget, SATURATED_BOUNDS.max_states);
        spent += second.spent;
        if let Some(mut proof) = settle(second.proof, &mut capped_why, &mut pending) {
            proof.outcome.stats.time = spent;
            return finish_saturated(proof);
        }
    }
    // ASE on the coarse system first: when the creators' own variables
    // (loop counters) do not matter, it is much easier.
    let (mut checked, mut coarse_proof) = (&system.program, false);
    let (mut outcome, mut proof) = (None, None);
    if let Some(coarse) = &system.coarse {
        let c = engine::ase::Config {
            timeout: shares.coarse.of_left(left.map(|t| t.saturating_sub(spent))),
            ..config
        };
        let (o, p) = engine::ase::check_with_proof(coarse, &c);
        if matches!(o.verdict, Verdict::Safe(_)) {
            (checked, coarse_proof) = (coarse, true);
            (outcome, proof) = (Some(o), p);
        } else {
            spent += o.stats.time;
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
    let proved = matches!(outcome.verdict, Verdict::Safe(_));
    if let Some(mut proof) = pending.filter(|_| !proved) {
        proof.outcome.stats.time = outcome.stats.time;
        return finish_saturated(proof);
    }
    let templates = describe(&system);
    match &outcome.verdict {
        Verdict::Safe(_) => {
            let evidence = match &proof {
                Some(p) => Evidence::Abstract(p),
                None => Evidence::None,
            };
            let subject = Subject::Counter {
                coarse: coarse_proof,
            };
            finish(checked, &mut outcome, evidence, &templates, subject)
        }
        verdict => {
            let found = match verdict {
                Verdict::Unknown(r) => format!(": {r}"),
                _ => " has an error trace, which is not replayed on the program".into(),
            };
            let mut o = unknown(format!(
                "the counter abstraction ({templates}){found}; with capped counters: \
                 {capped_why}; with a tracked instance: {view_why}"
            ));
            o.outcome.stats = outcome.stats.clone();
            o
        }
    }
}

/// What a saturated search's result is for: a proof small enough to
/// certify (returned), a larger one (`pending`, certified only if ASE
/// finds none), or why there is none (`why`).
fn settle(
    proof: Result<SaturatedProof, String>,
    why: &mut String,
    pending: &mut Option<SaturatedProof>,
) -> Option<SaturatedProof> {
    match proof {
        Err(e) => *why = e,
        Ok(proof) if proof.reachable.len() <= CERTIFIABLE_STATES => return Some(proof),
        Ok(proof) => *pending = Some(proof),
    }
    None
}

/// The outcome of [`saturated`].
pub struct Saturated {
    /// The proof, else why there is none.
    pub proof: Result<SaturatedProof, String>,
    /// The time spent.
    spent: Duration,
    /// Whether a search was cut short (out of time or of states): without
    /// a proof, a longer run may still end.
    cut: bool,
}

/// A proof by the saturated search.
pub struct SaturatedProof {
    /// The counter system searched.
    pub system: CounterSystem,
    /// The outcome.
    pub outcome: Outcome,
    /// The states visited.
    pub reachable: Reachable,
    /// The cap of the counters.
    pub cap: i128,
    /// How the system is made again.
    pub subject: Subject,
}

/// A proof of the saturated search by more states than this is certified
/// only if ASE finds no proof (its certificate would be too large to check
/// in reasonable time).
const CERTIFIABLE_STATES: usize = 50_000;

/// The least cap of the saturated counters: 2 tells "one thread in the
/// critical section" from "several".
const MIN_CAP: i128 = 2;

/// At most this many speculated values per variable.
const MAX_SPECULATED: usize = 256;

/// The explicit search of the counter system with saturated counters
/// (`engine::saturate`), within `budget` and `max_states` states in all.
/// Shared variables that steps set from their own value (reference counts,
/// allocation indices) grow without bound; when the program has some, it
/// is first searched with them forgotten (`lowering::counter::forget`), for
/// half of the budget: that proof holds for the program, and it ends where
/// they do not matter. Then the program itself, with [`speculating`].
pub fn saturated(
    lowered: &lowering::Lowered,
    budget: Option<Duration>,
    max_states: u64,
) -> Saturated {
    let start = Instant::now();
    let mut left = Allowance {
        deadline: None,
        states: max_states,
        cut: false,
    };
    let growing = lowering::counter::self_updated_shared(lowered);
    if !growing.is_empty() {
        let forgotten = lowering::Lowered {
            program: lowering::counter::forget(&lowered.program, &growing),
            ..lowered.clone()
        };
        left.deadline = budget.map(|t| start + t / 2);
        let mut proof = speculating(&forgotten, true, &mut left);
        if let Ok(SaturatedProof { system, .. }) = &mut proof {
            let mut names: Vec<String> = growing
                .iter()
                .map(|v| {
                    format!(
                        "`{}` (shared, set from its own value)",
                        lowered.program.var(*v).name
                    )
                })
                .collect();
            names.sort();
            system.forgotten.extend(names);
            return Saturated {
                proof,
                spent: start.elapsed(),
                cut: false,
            };
        }
    }
    left.deadline = budget.map(|t| start + t);
    let proof = speculating(lowered, false, &mut left);
    Saturated {
        proof,
        spent: start.elapsed(),
        cut: left.cut,
    }
}

/// What the saturated searches of one [`saturated`] run may still use.
struct Allowance {
    /// The time.
    deadline: Option<Instant>,
    /// The states, over all searches.
    states: u64,
    /// Whether a search ran out of either.
    cut: bool,
}

/// The saturated search of the counter system, within `left`. Values of
/// shared variables that templates read into locals of large types are
/// speculated (`lowering::counter::counter_system_speculating`): first the
/// initial values; while the search reaches a violation state, the values
/// the speculated variables took in the visited states are added and the
/// search runs again. `forgotten`: whether `lowered` is the program with
/// the self-updated shared variables forgotten (for the subject).
fn speculating(
    lowered: &lowering::Lowered,
    forgotten: bool,
    left: &mut Allowance,
) -> Result<SaturatedProof, String> {
    let mut speculate: BTreeMap<VarId, BTreeSet<i64>> = lowered
        .program
        .vars
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.init.map(|c| (VarId::new(i), BTreeSet::from([c]))))
        .collect();
    while left.states > 0 {
        let system = match lowering::counter::counter_system_speculating(lowered, &speculate) {
            Ok(s) => s,
            Err(e) => return Err(e.0),
        };
        let saturation = match Saturation::new(&system.program, &system.counters, MIN_CAP) {
            Ok(s) => s,
            Err(e) => return Err(format!("the counters cannot be capped: {e}")),
        };
        let bounds = engine::explicit::Bounds {
            max_states: left.states,
            ..SATURATED_BOUNDS
        };
        let (outcome, reachable) =
            engine::explicit::prove_saturated(&system.program, &saturation, &bounds, left.deadline);
        let why = match &outcome.verdict {
            Verdict::Unknown(r) => {
                left.cut |= matches!(r.kind, UnknownKind::Budget(_));
                r.detail.clone()
            }
            _ => String::new(),
        };
        let Some(reachable) = reachable else {
            return Err(why);
        };
        left.states = left.states.saturating_sub(reachable.len() as u64);
        if matches!(outcome.verdict, Verdict::Safe(_)) {
            let subject = Subject::saturated(&lowered.program, forgotten, &speculate);
            return Ok(SaturatedProof {
                system,
                outcome,
                reachable,
                cap: saturation.cap(),
                subject,
            });
        }
        // New values of the speculated variables?
        let mut grew = false;
        for state in reachable.states() {
            for &x in &system.speculated {
                let Ok(v) = i64::try_from(state.vals[x.index()]) else {
                    continue;
                };
                grew |= speculate.entry(x).or_default().insert(v);
            }
        }
        let too_many = speculate.values().any(|s| s.len() > MAX_SPECULATED);
        let late = left.deadline.is_some_and(|d| Instant::now() >= d);
        left.cut |= late || left.states == 0;
        if !grew || too_many || left.cut {
            return Err(why);
        }
    }
    left.cut = true;
    Err("state limit reached".into())
}

/// The bounds of the saturated search: values are unbounded (only inputs
/// without a known range are sampled, which makes it give up).
const SATURATED_BOUNDS: engine::explicit::Bounds = engine::explicit::Bounds {
    bound: 8,
    max_states: 5_000_000,
    partial_order: false,
};

/// The templates and their local states, and what was forgotten.
fn describe(system: &CounterSystem) -> String {
    let templates = system
        .templates
        .iter()
        .map(|(t, n)| format!("{t}: {n} local states"))
        .collect::<Vec<_>>()
        .join(", ");
    if system.forgotten.is_empty() {
        templates
    } else {
        format!(
            "{templates}; values forgotten: {}",
            system.forgotten.join(", ")
        )
    }
}

/// A proof by a view program: the program, the view it was built with, and
/// its inferred invariant.
type ViewProof = (CounterSystem, View, Vec<Invariant>);

/// Rounds of view programs (`lowering::counter::view_program`).
const VIEW_ROUNDS: usize = 4;
/// The budgets of the inference on one view program: more than on other
/// programs, as the counters of the local states are many variables.
const VIEW_LIMITS: engine::infer::Limits = engine::infer::Limits {
    max_queries: 6_000,
    equality_vars: 24,
    pairs: false,
    counters: false,
};

/// A proof by a view program and its inferred invariant, by `deadline`
/// (SOUNDNESS.md, "Threads created in loops"). First one inference where
/// each anonymous step relies on what the candidates say of the tracked
/// instance in its local state (the greatest such fixpoint; the proof is
/// then stated as a view program with those assumptions, which the
/// certificate checks). Then rounds: the first view program assumes
/// nothing of the anonymous instances; each next one assumes what the
/// inductive invariant of the last says of its tracked instance (true of
/// every instance, as the last view program over-approximates each
/// instance's view), until the invariant excludes the error, which
/// includes a violation of the assumptions by the tracked instance.
pub fn viewed(lowered: &lowering::Lowered, deadline: Instant) -> Result<ViewProof, String> {
    let mut why = String::new();
    for pass in [Pass::Rely, Pass::Plain, Pass::Counting] {
        let proof = match pass {
            Pass::Rely => relied(lowered, deadline),
            _ => view_rounds(lowered, deadline, pass == Pass::Counting),
        };
        match proof {
            Ok(proof) => return Ok(proof),
            Err(e) => {
                print_failure_if_asked(&e);
                why = e
            }
        }
        if Instant::now() >= deadline {
            break;
        }
    }
    Err(why)
}

/// A pass of [`viewed`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Relying anonymous steps, with `CounterSystem::view_forms`.
    Rely,
    /// Rounds with the inference's own candidates.
    Plain,
    /// Rounds, also with facts that relate variables to numbers of
    /// instances (more candidates: slower).
    Counting,
}

/// Prints a counter system or view program when `ASE_PRINT_COUNTERS` is
/// set (for debugging the abstraction).
fn print_if_asked(system: &CounterSystem) {
    if std::env::var_os("ASE_PRINT_COUNTERS").is_some() {
        eprintln!("{}", engine::print::print_program(&system.program));
    }
}

/// Prints why a pass of [`viewed`] failed when `ASE_PRINT_COUNTERS` is set
/// (only the last pass's reason reaches the verdict).
fn print_failure_if_asked(why: &str) {
    if std::env::var_os("ASE_PRINT_COUNTERS").is_some() {
        eprintln!("// no proof of the view program: {why}");
    }
}

/// Prints the inductive invariant inferred for a view program, as a
/// certificate, when `ASE_PRINT_COUNTERS` is set.
fn print_invariants_if_asked(system: &CounterSystem, invariants: &[engine::certify::Invariant]) {
    if std::env::var_os("ASE_PRINT_COUNTERS").is_some() {
        let cert = engine::certify::Certificate {
            invariants: invariants.to_vec(),
            ..Default::default()
        };
        eprintln!("{}", engine::certify::text::print(&system.program, &cert));
    }
}

/// The relying pass of [`viewed`].
fn relied(lowered: &lowering::Lowered, deadline: Instant) -> Result<ViewProof, String> {
    let system = lowering::counter::view_program(lowered, &View::default()).map_err(|e| e.0)?;
    print_if_asked(&system);
    let forms = system.view_forms();
    let hints = engine::infer::Hints {
        forms: &forms,
        scratch: &system.scratch(),
        rely: &system.relies,
    };
    let (invariants, excluded) =
        engine::infer::inductive(&system.program, Some(deadline), VIEW_LIMITS, hints)?;
    print_invariants_if_asked(&system, &invariants);
    excluded?;
    // The same invariants, of the view program that states the assumptions.
    let stated = View::from_rely(&system, &invariants);
    let system = lowering::counter::view_program(lowered, &stated).map_err(|e| e.0)?;
    Ok((system, stated, invariants))
}

/// The rounds of [`viewed`]; `counting`: with `CounterSystem::view_forms`.
fn view_rounds(
    lowered: &lowering::Lowered,
    deadline: Instant,
    counting: bool,
) -> Result<ViewProof, String> {
    let mut view = View::default();
    let mut why = String::new();
    for _ in 0..VIEW_ROUNDS {
        if Instant::now() >= deadline {
            return Err("time limit reached".into());
        }
        let system = lowering::counter::view_program(lowered, &view).map_err(|e| e.0)?;
        print_if_asked(&system);
        let forms = if counting {
            system.view_forms()
        } else {
            Vec::new()
        };
        let hints = engine::infer::Hints {
            forms: &forms,
            scratch: &system.scratch(),
            ..Default::default()
        };
        let (invariants, excluded) =
            engine::infer::inductive(&system.program, Some(deadline), VIEW_LIMITS, hints)?;
        print_invariants_if_asked(&system, &invariants);
        match excluded {
            Ok(()) => return Ok((system, view, invariants)),
            Err(e) => why = e,
        }
        let next = View::from_invariants(&system, &invariants);
        if next == view {
            break;
        }
        view = next;
    }
    Err(why)
}
