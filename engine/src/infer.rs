//! Inductive invariants inferred from candidates (Houdini): a proof engine
//! for programs whose invariant is a conjunction of linear facts per tuple
//! of thread locations, such as `balance >= 0` or `u + steps == start`,
//! which ASE's refinement may never reach (SOUNDNESS.md, "Inferred
//! invariants").
//!
//! 1. The tuples of thread locations: those reachable from the initial one
//!    when only the location conditions of guards are read.
//! 2. Samples: random runs of the program (small inputs) give concrete
//!    states per tuple.
//! 3. Templates: every variable and its negation, `x - y` and `x + y` (both
//!    signs) for variables that meet in a condition or an assignment, and
//!    the affine equalities that every sample of a tuple satisfies (the
//!    null space of the samples, [`equalities`]).
//! 4. Candidates per tuple: `t <= k` for each template `t`, `k` its
//!    greatest value in the samples of the tuple (of all tuples, where a
//!    tuple has none) and the next two constants of the program above it,
//!    and `t <= 0` where every sample has `t < 0`. A tuple without samples
//!    also gets the greatest values in the tuples nearest to it, together
//!    and each apart. A step's guard proposes its bounds where the step
//!    goes ([`guards`]).
//! 5. Houdini: candidates that an initial state or a successor of a state
//!    satisfying the candidates of its tuple violates are dropped (each
//!    model of a violation drops every candidate it violates), until the
//!    candidates left are inductive: the greatest inductive subset.
//! 6. When no state satisfying a tuple's candidates satisfies the error
//!    condition, the program is safe: the candidates are a certificate
//!    (checked by `certify::check` like every other proof).
//! 7. Otherwise ([`prove`], with `Limits::pairs`), once more with
//!    disjunctive candidates `x - y <= a || z = b` proposed from the
//!    samples ([`pairs`]: an array element that a loop has filled up to
//!    its index; `x - y <= a || u - w <= b`: a maximum of the elements
//!    below the index), the samples drawn harder; they are stated as disjunctive
//!    blocks of the certificate.
//!
//! The samples and constants only choose candidates; the proof is Z3's
//! answers, and then the independent checker's.

mod guards;
mod pairs;

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::time::Instant;

use z3::ast::{Bool, Int};

use crate::bmc::{cond, loc, term, Frame};
use crate::certify::Invariant;
use crate::interp::{self, State};
use crate::ir::{CmpOp, Cond, LocId, Program, Rhs, Term, ThreadId, TransId, Transition, VarId};
use crate::smt::{Smt, Space};
use crate::verdict::{Outcome, Proof, Stats, Verdict};
use pairs::Pair;

/// Most tuples of thread locations the engine considers.
const MAX_TUPLES: usize = 2_000;
/// Most candidates per tuple.
const MAX_CANDIDATES: usize = 2_000;
/// Most prover queries (a budget that does not depend on the machine's
/// speed, so that whether the inference succeeds does not either, short of
/// its deadline).
const MAX_QUERIES: u64 = 1_500;
/// Random runs sampled, and their length; more in the pass with
/// disjunctive candidates (whose samples must show a loop's filled prefix
/// in every interleaving with the other threads).
const RUNS: usize = 400;
const PAIR_RUNS: usize = 4 * RUNS;
const RUN_LENGTH: usize = 120;
/// Most times a run chooses the inputs of a step again when the next
/// step's guard admits none of them (in the pass with disjunctive
/// candidates).
const MAX_RETRIES: usize = 32;
/// Samples kept per tuple.
const SAMPLES_PER_TUPLE: usize = 64;
/// Most variables an equality of the samples relates (the varying
/// variables of a tuple considered at once).
const EQUALITY_VARS: usize = 10;

/// The empty form: with bound -1, the candidate `false`.
const FALSE: usize = 0;

/// A linear form `Σ c·x` over the program's variables (by index).
type Form = Vec<(usize, i128)>;

/// A candidate fact `form <= bound`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Candidate {
    form: usize,
    bound: i128,
}

/// The invariants of a proof, per tuple of thread locations.
pub struct Inferred {
    /// The outcome: safe, or unknown with the reason.
    pub outcome: Outcome,
    /// The invariants (when safe).
    pub invariants: Option<Vec<Invariant>>,
}

/// Infers an inductive invariant that excludes the error states, by
/// `deadline`.
pub fn prove(
    program: &Program,
    deadline: Option<Instant>,
    cancel: Option<&'static std::sync::atomic::AtomicBool>,
) -> Inferred {
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut result = infer(
        program,
        deadline,
        cancel,
        Limits::default(),
        Hints::default(),
        &mut stats,
    );
    // Candidates that do not exclude the error: again with the templates
    // of counters and copies, then with disjunctive candidates (each pass
    // slower, so only then).
    for limits in [
        Limits {
            counters: true,
            ..Limits::default()
        },
        Limits {
            pairs: true,
            ..Limits::default()
        },
    ] {
        if !matches!(&result, Ok((_, Err(_)))) {
            break;
        }
        let mut more = Stats::default();
        let again = infer(
            program,
            deadline,
            cancel,
            limits,
            Hints::default(),
            &mut more,
        );
        if let Ok(found @ (_, Ok(()))) = again {
            result = Ok(found);
        }
        stats.prover_queries += more.prover_queries;
    }
    let result = result.and_then(|(invariants, excluded)| excluded.map(|()| invariants));
    stats.time = start.elapsed();
    match result {
        Ok(invariants) => Inferred {
            outcome: Outcome {
                verdict: Verdict::Safe(Proof::InferredInvariant),
                stats,
            },
            invariants: Some(invariants),
        },
        Err(why) => Inferred {
            outcome: Outcome {
                verdict: Verdict::unknown(crate::verdict::UnknownKind::NoProof, why),
                stats,
            },
            invariants: None,
        },
    }
}

/// What a caller knows of a program beyond its text, for [`inductive`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Hints<'a> {
    /// More templates (linear forms, coefficients by variable).
    pub forms: &'a [Vec<(VarId, i64)>],
    /// Scratch variables: inputs picked afresh before each use, whose
    /// values between uses mean nothing. No template of the inference's
    /// own mentions them (their random samples would make up relations).
    pub scratch: &'a [VarId],
    /// Steps taken under the candidates of another tuple ([`Rely`]).
    pub rely: &'a [Rely],
}

/// A step that may be taken only where the candidates of another tuple of
/// locations hold: rely-guarantee reasoning about a thread that stands for
/// many (SOUNDNESS.md, "Threads created in loops", *relying steps*). In a
/// tuple where `transition` may be taken, it relies on the tuple with
/// `thread` at `at` instead: on its candidates with each variable of
/// `renaming` replaced by its term, those that mention a `hidden` variable
/// left out. Where that tuple is not reachable by locations, the step is
/// not taken. The inference then computes the greatest set of candidates
/// that holds initially and is preserved by every step, each relying step
/// assuming the candidates as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rely {
    /// The relying step.
    pub transition: TransId,
    /// The thread whose location differs in the tuple relied on.
    pub thread: ThreadId,
    /// Its location there.
    pub at: LocId,
    /// Variables of the facts relied on, and their values in the step.
    pub renaming: Vec<(VarId, Term)>,
    /// Variables whose facts are not relied on.
    pub hidden: Vec<VarId>,
}

/// The greatest inductive subset of the candidates (an invariant of every
/// reachable state, whether or not it excludes the error), and whether it
/// excludes the error (else why not); by `deadline`.
pub fn inductive(
    program: &Program,
    deadline: Option<Instant>,
    limits: Limits,
    hints: Hints<'_>,
) -> Result<(Vec<Invariant>, Result<(), String>), String> {
    infer(
        program,
        deadline,
        None,
        limits,
        hints,
        &mut Stats::default(),
    )
}

/// Budgets of the inference, independent of the machine's speed.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most prover queries.
    pub max_queries: u64,
    /// Most variables an equality of the samples relates.
    pub equality_vars: usize,
    /// Whether disjunctive candidates are proposed too ([`pairs`]).
    pub pairs: bool,
    /// Whether templates also relate the counters of a thread and the
    /// copies of variables that meet ([`thread_counters`],
    /// [`copy_classes`]): more candidates, so a second pass.
    pub counters: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_queries: MAX_QUERIES,
            equality_vars: EQUALITY_VARS,
            pairs: false,
            counters: false,
        }
    }
}

/// The inductive candidates, and whether they exclude the error.
type Induction = (Vec<Invariant>, Result<(), String>);

fn infer(
    program: &Program,
    deadline: Option<Instant>,
    cancel: Option<&'static std::sync::atomic::AtomicBool>,
    limits: Limits,
    hints: Hints<'_>,
    stats: &mut Stats,
) -> Result<Induction, String> {
    if program.has_arrays() {
        return Err("the invariant inference takes no program with arrays".into());
    }
    let extra = hints
        .forms
        .iter()
        .map(|f| f.iter().map(|&(v, k)| (v.index(), i128::from(k))).collect());
    // Per relying step, its rely and its hidden variables.
    let rely_of: HashMap<TransId, (&Rely, BTreeSet<usize>)> = hints
        .rely
        .iter()
        .map(|r| {
            (
                r.transition,
                (r, r.hidden.iter().map(|v| v.index()).collect()),
            )
        })
        .collect();
    let max_queries = limits.max_queries;
    let stop = Stop { deadline, cancel };
    let tuples = Tuples::new(program)?;
    // Runs do not take the relying steps: their states need not be
    // reachable, and the candidates they violate would be lost.
    // The second pass (with disjunctive candidates) samples harder.
    let retries = if limits.pairs { MAX_RETRIES } else { 0 };
    let taken = |id| !rely_of.contains_key(&id);
    let samples = sample(program, &tuples, &stop, &taken, retries)?;
    // The variables templates mention: not the scratch ones; those whose
    // facts a step relies on.
    let mut relevant = relevant(program);
    for v in hints.scratch {
        relevant[v.index()] = false;
    }
    for r in hints.rely {
        for (v, _) in &r.renaming {
            relevant[v.index()] = true;
        }
    }
    // The empty form first ([`FALSE`]).
    let mut forms: Vec<Form> = vec![Vec::new()];
    let mut form_index: HashMap<Form, usize> = HashMap::from([(Vec::new(), FALSE)]);
    for f in templates(program, &samples, &limits, &relevant)
        .into_iter()
        .chain(extra)
    {
        if !form_index.contains_key(&f) {
            form_index.insert(f.clone(), forms.len());
            forms.push(f);
        }
    }
    // The negated guards of the steps into the error (with the
    // disjunctive candidates), their forms among the templates.
    let goals = match limits.pairs {
        true => pairs::goals(program, &tuples.list, &tuples.steps),
        false => vec![Vec::new(); tuples.list.len()],
    };
    for (f, _) in goals.iter().flatten().flatten() {
        if !form_index.contains_key(f) {
            form_index.insert(f.clone(), forms.len());
            forms.push(f.clone());
        }
    }
    if forms.len() > MAX_CANDIDATES {
        return Err(format!("more than {MAX_CANDIDATES} templates"));
    }
    let constants = constants(program);
    let mut cands: Vec<BTreeSet<Candidate>> = Vec::with_capacity(tuples.list.len());
    let own: Vec<(BTreeSet<Pair>, BTreeSet<Pair>)> = samples
        .iter()
        .map(|points| match limits.pairs {
            true => pairs::pairs(&forms, points),
            false => Default::default(),
        })
        .collect();
    let sampled: Vec<bool> = samples.iter().map(|s| !s.is_empty()).collect();
    let mut pairs = pairs::with_predecessors(own, &sampled, &tuples.steps);
    for (at, goals) in pairs.iter_mut().zip(&goals) {
        let fact = |(f, k): &(Form, i128)| Candidate {
            form: form_index[f],
            bound: *k,
        };
        at.extend(goals.iter().map(|[x, y]| Pair {
            guard: fact(x),
            then: fact(y),
        }));
    }
    // Per tuple, the steps into it from sampled tuples.
    let mut into: Vec<Vec<(usize, TransId)>> = vec![Vec::new(); tuples.list.len()];
    for (j, steps) in tuples.steps.iter().enumerate() {
        if !samples[j].is_empty() {
            for &(id, to) in steps {
                into[to].push((j, id));
            }
        }
    }
    for i in 0..tuples.list.len() {
        stop.check()?;
        let mut c = candidates(&forms, &samples, i, &constants);
        if samples[i].is_empty() {
            nearest_candidates(&forms, &samples, &tuples, i, &mut c);
            pushed_candidates(program, &forms, &samples, &into[i], &mut c);
            // Past a loop no run reached: what the loop's implications
            // conclude may hold outright.
            c.extend(pairs[i].iter().map(|p| p.then.clone()));
        }
        if c.len() > MAX_CANDIDATES {
            return Err(format!(
                "more than {MAX_CANDIDATES} candidate facts at a tuple of locations"
            ));
        }
        cands.push(c);
    }
    guards::candidates(
        program,
        &forms,
        &tuples,
        &form_index,
        &sampled,
        &stop,
        &mut cands,
    )?;
    let mut smt = Smt::new(deadline);
    smt.cancel = cancel;
    let pre: Vec<Int> = (0..program.vars.len())
        .map(|v| smt.constant(Space::State, v as u32))
        .collect();
    // Initial states.
    {
        let init = &tuples.list[0];
        let vals: Vec<Int> = program
            .vars
            .iter()
            .zip(&pre)
            .map(|(d, x)| d.init.map_or_else(|| x.clone(), Int::from_i64))
            .collect();
        let frame = Frame {
            vars: vals.clone(),
            locs: init.iter().map(|&l| loc(l)).collect(),
            arrays: Vec::new(),
        };
        smt.push();
        for c in &program.init {
            smt.assert(&cond(c, &frame));
        }
        let mut current = Current {
            cands: &mut cands[0],
            pairs: &mut pairs[0],
        };
        let mut terms = Terms::new(&forms, &vals);
        drop_violated(&mut smt, &mut terms, &mut current, max_queries, stats)?;
        smt.pop();
    }
    let mut pre_terms = Terms::new(&forms, &pre);
    // Houdini: drop what a step from a tuple's candidates violates.
    // A relying step relies on a tuple (`None`: one not reachable by
    // locations); per tuple, the tuples with steps that rely on it.
    let relied = |i: usize, id: TransId| -> Option<Option<usize>> {
        let (r, _) = rely_of.get(&id)?;
        let mut locs = tuples.list[i].clone();
        locs[r.thread.index()] = r.at;
        Some(tuples.index.get(&locs).copied())
    };
    let mut dependents: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); tuples.list.len()];
    for (i, steps) in tuples.steps.iter().enumerate() {
        for &(id, _) in steps {
            if let Some(Some(k)) = relied(i, id) {
                dependents[k].insert(i);
            }
        }
    }
    let mut queue: VecDeque<usize> = (0..tuples.list.len()).collect();
    let mut queued = vec![true; tuples.list.len()];
    while let Some(i) = queue.pop_front() {
        queued[i] = false;
        // The candidates of `i` are asserted once for its steps (again
        // after a step from `i` to itself drops some).
        let mut asserted = false;
        for &(id, j) in &tuples.steps[i] {
            let tr = program.transition(id);
            let frame = Frame {
                vars: pre.clone(),
                locs: tuples.list[i].iter().map(|&l| loc(l)).collect(),
                arrays: Vec::new(),
            };
            // A relying step assumes the candidates of the tuple it relies
            // on, of the renamed variables.
            let assumed: Option<(BTreeSet<Candidate>, Vec<Int>)> = match relied(i, id) {
                None => None,
                Some(None) => continue,
                Some(Some(k)) => {
                    let (r, hidden) = &rely_of[&id];
                    let mut vals = pre.clone();
                    for (v, t) in &r.renaming {
                        vals[v.index()] = term(t, &frame);
                    }
                    let kept = cands[k]
                        .iter()
                        .filter(|c| forms[c.form].iter().all(|(v, _)| !hidden.contains(v)))
                        .cloned()
                        .collect();
                    Some((kept, vals))
                }
            };
            let mut post = pre.clone();
            let mut fresh = 0u32;
            for a in &tr.assigns {
                post[a.var.index()] = match &a.rhs {
                    Rhs::Expr(e) => term(e, &frame),
                    Rhs::Nondet => {
                        fresh += 1;
                        smt.constant(Space::Symbolic, fresh)
                    }
                };
            }
            if !asserted {
                smt.push();
                pre_terms.assert(&mut smt, &cands[i], &pairs[i]);
                asserted = true;
            }
            smt.push();
            if let Some((kept, vals)) = &assumed {
                Terms::new(&forms, vals).assert(&mut smt, kept, &BTreeSet::new());
            }
            smt.assert(&cond(&tr.guard, &frame));
            let before = cands[j].len() + pairs[j].len();
            let mut current = Current {
                cands: &mut cands[j],
                pairs: &mut pairs[j],
            };
            let mut post_terms = Terms::new(&forms, &post);
            drop_violated(&mut smt, &mut post_terms, &mut current, max_queries, stats)?;
            smt.pop();
            if cands[j].len() + pairs[j].len() != before {
                if j == i {
                    smt.pop();
                    asserted = false;
                }
                for k in std::iter::once(j).chain(dependents[j].iter().copied()) {
                    if !queued[k] {
                        queued[k] = true;
                        queue.push_back(k);
                    }
                }
            }
        }
        if asserted {
            smt.pop();
        }
    }
    stats.abstract_states = tuples.list.len() as u64;
    let invariants = tuples
        .list
        .iter()
        .zip(cands.iter().zip(&pairs))
        .map(|(locs, (cs, ps))| {
            // The least bound of each form: it implies the others.
            let plain = least(cs).map(|c| fact(&forms[c.form], c.bound)).collect();
            let disjunctive = ps.iter().map(|p| {
                let [guard, then] =
                    [&p.guard, &p.then].map(|c| vec![fact(&forms[c.form], c.bound)]);
                vec![guard, then]
            });
            Invariant {
                locs: locs.clone(),
                blocks: std::iter::once(vec![plain]).chain(disjunctive).collect(),
            }
        })
        .collect();
    // Safety: no tuple's candidates meet the error condition.
    for (i, locs) in tuples.list.iter().enumerate() {
        let frame = Frame {
            vars: pre.clone(),
            locs: locs.iter().map(|&l| loc(l)).collect(),
            arrays: Vec::new(),
        };
        if program
            .error
            .iter()
            .all(|c| c.at_locations(locs) == Some(false))
        {
            continue;
        }
        let error = Bool::or(
            &program
                .error
                .iter()
                .map(|c| cond(c, &frame))
                .collect::<Vec<_>>(),
        );
        smt.push();
        pre_terms.assert(&mut smt, &cands[i], &pairs[i]);
        smt.assert(&error);
        let sat = smt.check().map_err(|e| e.to_string());
        smt.pop();
        stats.prover_queries += 1;
        if sat? {
            let why = format!(
                "the inferred candidates do not exclude the error at ({})",
                locs.iter()
                    .zip(&program.threads)
                    .map(|(l, t)| format!("{}@{}", t.name, t.locs[l.index()]))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return Ok((invariants, Err(why)));
        }
    }
    Ok((invariants, Ok(())))
}

/// The candidate with the least bound of each form: it implies the
/// others (candidates are ordered by form, then bound).
fn least(cands: &BTreeSet<Candidate>) -> impl Iterator<Item = &Candidate> {
    let mut last = None;
    cands
        .iter()
        .filter(move |c| last.replace(c.form) != Some(c.form))
}

/// The Z3 terms of the forms at one valuation of the variables, each
/// built when first asked for.
struct Terms<'a> {
    forms: &'a [Form],
    vals: &'a [Int],
    built: Vec<Option<Int>>,
}

impl<'a> Terms<'a> {
    fn new(forms: &'a [Form], vals: &'a [Int]) -> Self {
        Terms {
            forms,
            vals,
            built: vec![None; forms.len()],
        }
    }

    /// `form <= bound` of a candidate.
    fn fact(&mut self, c: &Candidate) -> Bool {
        let (form, vals) = (&self.forms[c.form], self.vals);
        self.built[c.form]
            .get_or_insert_with(|| value(form, vals))
            .le(Int::from_i128(c.bound))
    }

    /// `guard ∨ then` of a disjunctive candidate.
    fn pair(&mut self, p: &Pair) -> Bool {
        Bool::or(&[self.fact(&p.guard), self.fact(&p.then)])
    }

    /// Asserts every candidate (the least bound of each form, [`least`])
    /// and every disjunctive candidate.
    fn assert(&mut self, smt: &mut Smt, cands: &BTreeSet<Candidate>, pairs: &BTreeSet<Pair>) {
        for c in least(cands) {
            smt.assert(&self.fact(c));
        }
        for p in pairs {
            smt.assert(&self.pair(p));
        }
    }
}

/// The candidates of a tuple left, plain and disjunctive.
struct Current<'c> {
    cands: &'c mut BTreeSet<Candidate>,
    pairs: &'c mut BTreeSet<Pair>,
}

/// Drops from `current` every candidate that some state allowed by the
/// asserted constraints violates, its variables valued as in `terms`.
fn drop_violated(
    smt: &mut Smt,
    terms: &mut Terms<'_>,
    current: &mut Current<'_>,
    max_queries: u64,
    stats: &mut Stats,
) -> Result<(), String> {
    let Current { cands, pairs } = current;
    let (forms, vals) = (terms.forms, terms.vals);
    while !cands.is_empty() || !pairs.is_empty() {
        if stats.prover_queries >= max_queries {
            return Err(format!("more than {max_queries} prover queries"));
        }
        let mut all: Vec<Bool> = least(cands).map(|c| terms.fact(c)).collect();
        all.extend(pairs.iter().map(|p| terms.pair(p)));
        smt.push();
        smt.assert(&Bool::and(&all).not());
        stats.prover_queries += 1;
        let model = smt.check_model().map_err(|e| e.to_string());
        let model = match model {
            Ok(m) => m,
            Err(e) => {
                smt.pop();
                return Err(e);
            }
        };
        let Some(model) = model else {
            smt.pop();
            return Ok(());
        };
        let mut model = ModelValues {
            model: &model,
            vals,
            known: HashMap::new(),
        };
        let dropped: Result<(Vec<Candidate>, Vec<Pair>), String> = (|| {
            let mut plain = Vec::new();
            for c in cands.iter() {
                if model.violates(&forms[c.form], c.bound)? {
                    plain.push(c.clone());
                }
            }
            let mut disjunctive = Vec::new();
            for p in pairs.iter() {
                if model.violates(&forms[p.guard.form], p.guard.bound)?
                    && model.violates(&forms[p.then.form], p.then.bound)?
                {
                    disjunctive.push(p.clone());
                }
            }
            Ok((plain, disjunctive))
        })();
        smt.pop();
        let (plain, disjunctive) = dropped?;
        if plain.is_empty() && disjunctive.is_empty() {
            return Err("a model violates no candidate".into());
        }
        for c in plain {
            cands.remove(&c);
        }
        for p in disjunctive {
            pairs.remove(&p);
        }
    }
    Ok(())
}

/// The values of a model's variables, read once each.
struct ModelValues<'m> {
    model: &'m z3::Model,
    vals: &'m [Int],
    known: HashMap<usize, i128>,
}

impl ModelValues<'_> {
    /// Whether the model violates `form <= bound`.
    fn violates(&mut self, form: &Form, bound: i128) -> Result<bool, String> {
        let mut sum: i128 = 0;
        for &(v, k) in form {
            let x = match self.known.get(&v) {
                Some(&x) => x,
                None => {
                    let x = self
                        .model
                        .eval(&self.vals[v], true)
                        .and_then(|x| x.as_i128());
                    let x = x.ok_or("a model value does not fit in 128 bits")?;
                    self.known.insert(v, x);
                    x
                }
            };
            sum = sum.saturating_add(k.saturating_mul(x));
        }
        Ok(sum > bound)
    }
}

/// `Σ c·x` in Z3.
fn value(form: &Form, vals: &[Int]) -> Int {
    let parts: Vec<Int> = form
        .iter()
        .map(|&(v, k)| {
            if k == 1 {
                vals[v].clone()
            } else {
                Int::from_i128(k) * vals[v].clone()
            }
        })
        .collect();
    if parts.is_empty() {
        Int::from_i64(0)
    } else {
        Int::add(&parts)
    }
}

/// `Σ c·x <= bound` as an IR condition (coefficients and bound fit `i64`:
/// [`candidates`] keeps no other).
fn fact(form: &Form, bound: i128) -> Cond {
    debug_assert!(i64::try_from(bound).is_ok(), "a bound beyond i64: {bound}");
    let mut t: Option<Term> = None;
    for &(v, k) in form {
        let x = Term::Var(crate::ir::VarId::new(v));
        let x = if k == 1 {
            x
        } else {
            Term::Mul(k as i64, Box::new(x))
        };
        t = Some(match t {
            None => x,
            Some(s) => Term::Add(Box::new(s), Box::new(x)),
        });
    }
    Cond::Cmp(
        CmpOp::Le,
        t.unwrap_or(Term::Const(0)),
        Term::Const(bound as i64),
    )
}

/// The tuples of thread locations reachable from the initial one when
/// only the location conditions of guards are read, and the steps between
/// them.
struct Tuples {
    /// The tuples; the first is the initial one.
    list: Vec<Vec<LocId>>,
    /// Per tuple: the transitions that may be taken there and the tuple
    /// they lead to.
    steps: Vec<Vec<(TransId, usize)>>,
    index: HashMap<Vec<LocId>, usize>,
}

impl Tuples {
    fn new(program: &Program) -> Result<Tuples, String> {
        let initial: Vec<LocId> = program.threads.iter().map(|t| t.initial).collect();
        let mut t = Tuples {
            list: vec![initial.clone()],
            steps: vec![Vec::new()],
            index: HashMap::from([(initial, 0)]),
        };
        let mut i = 0;
        while i < t.list.len() {
            let locs = t.list[i].clone();
            for (id, next) in program.location_steps(&locs) {
                let j = match t.index.get(&next) {
                    Some(&j) => j,
                    None => {
                        if t.list.len() >= MAX_TUPLES {
                            return Err(format!(
                                "more than {MAX_TUPLES} tuples of thread locations"
                            ));
                        }
                        t.index.insert(next.clone(), t.list.len());
                        t.list.push(next);
                        t.steps.push(Vec::new());
                        t.list.len() - 1
                    }
                };
                t.steps[i].push((id, j));
            }
            i += 1;
        }
        Ok(t)
    }
}

/// Concrete states per tuple from random runs with small inputs (a
/// deterministic generator: the same program gets the same samples).
/// Runs take only the transitions that `taken` admits. A run stuck after
/// a step that chose inputs goes back and chooses them again, at most
/// `max_retries` times.
fn sample(
    program: &Program,
    tuples: &Tuples,
    stop: &Stop,
    taken: &dyn Fn(TransId) -> bool,
    max_retries: usize,
) -> Result<Vec<Vec<Vec<i128>>>, String> {
    let mut out: Vec<BTreeSet<Vec<i128>>> = vec![BTreeSet::new(); tuples.list.len()];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut literals: Vec<i128> = constants(program)
        .into_iter()
        .filter(|k| k.abs() <= 1 << 40)
        .collect();
    literals.extend(-2..=10);
    let pick = |rng: &mut Rng| literals[rng.below(literals.len())];
    let record = |s: &State, out: &mut Vec<BTreeSet<Vec<i128>>>| {
        if let Some(&i) = tuples.index.get(&s.locs) {
            if out[i].len() < SAMPLES_PER_TUPLE {
                out[i].insert(s.vals.clone());
            }
        }
    };
    let admitted: Vec<Vec<(TransId, usize)>> = tuples
        .steps
        .iter()
        .map(|steps| steps.iter().copied().filter(|&(id, _)| taken(id)).collect())
        .collect();
    let runs = if max_retries > 0 { PAIR_RUNS } else { RUNS };
    'runs: for _ in 0..runs {
        stop.check()?;
        // Initial values: declared, else small; kept when `init` holds.
        let vals: Vec<i128> = program
            .vars
            .iter()
            .map(|d| {
                d.init
                    .map_or_else(|| (rng.below(13) as i128) - 2, i128::from)
            })
            .collect();
        let Ok(mut s) = interp::initial_state(program, vals) else {
            continue;
        };
        if !program
            .init
            .iter()
            .all(|c| interp::eval_cond(c, &s) == Ok(true))
        {
            continue;
        }
        record(&s, &mut out);
        // The state before the last step that chose inputs.
        let mut chosen: Option<State> = None;
        let mut retries = 0;
        for _ in 0..RUN_LENGTH {
            let Some(&i) = tuples.index.get(&s.locs) else {
                continue 'runs;
            };
            let steps = &admitted[i];
            if steps.is_empty() {
                continue 'runs;
            }
            // A few tries for an enabled transition and inputs.
            let mut moved = false;
            for _ in 0..16 {
                let (id, _) = steps[rng.below(steps.len())];
                let inputs: Vec<_> = program
                    .transition(id)
                    .assigns
                    .iter()
                    .filter(|a| a.rhs == Rhs::Nondet)
                    .map(|a| (a.var, pick(&mut rng)))
                    .collect();
                if let Ok(next) = interp::step(program, &s, id, &inputs) {
                    let before = std::mem::replace(&mut s, next);
                    chosen = (!inputs.is_empty()).then_some(before);
                    moved = true;
                    break;
                }
            }
            if !moved {
                // Stuck after inputs no guard admits: the inputs again.
                match chosen.take() {
                    Some(before) if retries < max_retries => {
                        retries += 1;
                        s = before;
                        continue;
                    }
                    _ => continue 'runs,
                }
            }
            record(&s, &mut out);
        }
    }
    Ok(out.into_iter().map(|s| s.into_iter().collect()).collect())
}

/// When the inference stops: its deadline, or a cancellation (checked
/// between the steps that do not query the prover, which honours both).
struct Stop {
    deadline: Option<Instant>,
    cancel: Option<&'static std::sync::atomic::AtomicBool>,
}

impl Stop {
    fn check(&self) -> Result<(), String> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err("time limit reached".into());
        }
        if self
            .cancel
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err("cancelled".into());
        }
        Ok(())
    }
}

/// A xorshift generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The literals of the program's conditions and assignments, each with
/// its neighbours, and 0.
fn constants(program: &Program) -> BTreeSet<i128> {
    let mut out = BTreeSet::from([-1, 0, 1]);
    let mut add = |k: i64| {
        let k = i128::from(k);
        out.extend([k - 1, k, k + 1]);
    };
    for c in program.error.iter().chain(&program.init) {
        cond_literals(c, &mut add);
    }
    for tr in &program.transitions {
        cond_literals(&tr.guard, &mut add);
        for a in &tr.assigns {
            if let Rhs::Expr(e) = &a.rhs {
                term_literals(e, &mut add);
            }
        }
    }
    for d in &program.vars {
        if let Some(k) = d.init {
            add(k);
        }
    }
    out
}

fn cond_literals(c: &Cond, f: &mut impl FnMut(i64)) {
    match c {
        Cond::Cmp(_, a, b) => {
            term_literals(a, f);
            term_literals(b, f);
        }
        Cond::Not(a) => cond_literals(a, f),
        Cond::And(a, b) | Cond::Or(a, b) => {
            cond_literals(a, f);
            cond_literals(b, f);
        }
        Cond::True | Cond::False | Cond::At(..) => {}
    }
}

fn term_literals(t: &Term, f: &mut impl FnMut(i64)) {
    match t {
        Term::Const(k) => f(*k),
        Term::Var(_) => {}
        Term::Add(a, b) | Term::Sub(a, b) | Term::Nl(_, a, b) => {
            term_literals(a, f);
            term_literals(b, f);
        }
        Term::Mul(_, a) | Term::Neg(a) | Term::Div(a, _) | Term::Mod(a, _) | Term::Select(_, a) => {
            term_literals(a, f)
        }
    }
}

/// The templates: each variable and its negation, sums and differences of
/// variables that meet in a condition or an assignment, and the affine
/// equalities of each tuple's samples (both signs); of the `relevant`
/// variables only.
fn templates(
    program: &Program,
    samples: &[Vec<Vec<i128>>],
    limits: &Limits,
    relevant: &[bool],
) -> Vec<Form> {
    let mut out: Vec<Form> = Vec::new();
    for v in (0..program.vars.len()).filter(|&v| relevant[v]) {
        out.push(vec![(v, 1)]);
        out.push(vec![(v, -1)]);
    }
    let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut meet = |vars: &BTreeSet<usize>| meet(&mut pairs, vars, relevant);
    for c in program.error.iter().chain(&program.init) {
        for atom in atoms(c) {
            meet(&atom);
        }
    }
    for tr in &program.transitions {
        // Variables that meet in the guard, and the variables the step
        // copies them to (`k := tmp` and `n := len` after `tmp < len`).
        let mut copies: HashMap<usize, BTreeSet<usize>> = HashMap::new();
        for a in &tr.assigns {
            if let Rhs::Expr(Term::Var(u)) = &a.rhs {
                copies.entry(u.index()).or_default().insert(a.var.index());
            }
        }
        for atom in atoms(&tr.guard) {
            let copied: BTreeSet<usize> = atom
                .iter()
                .flat_map(|v| copies.get(v).into_iter().flatten())
                .copied()
                .collect();
            meet(&atom);
            if !copied.is_empty() {
                meet(&atom.union(&copied).copied().collect());
            }
        }
        // Counters that move together (`i := i + 1, n := n + 1`; not the
        // counters of a counter system, one up and one down).
        for up in [true, false] {
            meet(&increments(tr, up));
        }
        for a in &tr.assigns {
            if let Rhs::Expr(e) = &a.rhs {
                let mut vars = BTreeSet::from([a.var.index()]);
                e.for_each_var(&mut |v| {
                    vars.insert(v.index());
                });
                meet(&vars);
            }
        }
    }
    if limits.counters {
        related_counters_and_copies(program, relevant, &mut pairs);
    }
    for (a, b) in pairs {
        for (x, y) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            out.push(vec![(a, x), (b, y)]);
        }
    }
    for tuple_samples in samples {
        let points: Vec<Vec<i128>> = tuple_samples
            .iter()
            .map(|p| {
                p.iter()
                    .enumerate()
                    .map(|(v, &x)| if relevant[v] { x } else { 0 })
                    .collect()
            })
            .collect();
        for e in equalities(&points, limits.equality_vars) {
            let neg: Form = e.iter().map(|&(v, k)| (v, -k)).collect();
            out.push(e);
            out.push(neg);
        }
    }
    out.retain(|f| f.iter().all(|&(_, k)| i64::try_from(k).is_ok()));
    out
}

/// Adds to `pairs` every two relevant variables of `vars`.
fn meet(pairs: &mut BTreeSet<(usize, usize)>, vars: &BTreeSet<usize>, relevant: &[bool]) {
    for &a in vars {
        for &b in vars {
            if a < b && relevant[a] && relevant[b] {
                pairs.insert((a, b));
            }
        }
    }
}

/// The variables a transition increments (`up`) or decrements by a
/// constant.
fn increments(tr: &crate::ir::Transition, up: bool) -> BTreeSet<usize> {
    tr.assigns
        .iter()
        .filter(|a| counted(a, up) == Some(a.var))
        .map(|a| a.var.index())
        .collect()
}

/// The variable `a` adds a constant to (`up`) or subtracts one from:
/// `x` of `v := x + k`, `k > 0` (`up`) or `k < 0`.
fn counted(a: &crate::ir::Assign, up: bool) -> Option<VarId> {
    let (x, step) = match &a.rhs {
        Rhs::Expr(Term::Add(x, k)) => (x, constant(k)?),
        Rhs::Expr(Term::Sub(x, k)) => (x, constant(k)?.checked_neg()?),
        _ => return None,
    };
    match **x {
        Term::Var(x) if step != 0 && (step > 0) == up => Some(x),
        _ => None,
    }
}

/// Adds to `pairs` the counters of each thread ([`thread_counters`]) and
/// the copies of the variables of each pair ([`copy_classes`]: `t := c`
/// read before the check `t > n`, `c <= n` where `c` is written).
fn related_counters_and_copies(
    program: &Program,
    relevant: &[bool],
    pairs: &mut BTreeSet<(usize, usize)>,
) {
    let (ups, downs) = (
        thread_counters(program, true),
        thread_counters(program, false),
    );
    // Counters of one direction, and, where a thread has both, a loop
    // counting down beside a count going up (a join loop from the last
    // handle to the first: `joined + i` is constant).
    for (up, down) in ups.iter().zip(&downs) {
        let both: BTreeSet<usize> = up.iter().chain(down).flatten().copied().collect();
        meet(pairs, &both, relevant);
    }
    let classes = copy_classes(program);
    let copied: Vec<(usize, usize)> = pairs
        .iter()
        .flat_map(|&(a, b)| {
            let of = |v: usize| classes.get(&v).into_iter().flatten().copied();
            let a_side = std::iter::once(a).chain(of(a));
            a_side.flat_map(move |x| std::iter::once(b).chain(of(b)).map(move |y| (x, y)))
        })
        .filter(|&(u, v)| u != v && relevant[u] && relevant[v])
        .collect();
    pairs.extend(copied.into_iter().map(|(u, v)| (u.min(v), u.max(v))));
}

/// Most variables of one class of copies [`copy_classes`].
const COPY_CLASS: usize = 8;

/// Per variable, the others it is copied to or from through chains of
/// copies `x := y` (classes of at most [`COPY_CLASS`] variables; a value
/// copied wider, a pointer say, gets none).
fn copy_classes(program: &Program) -> HashMap<usize, Vec<usize>> {
    let mut parent: Vec<usize> = (0..program.vars.len()).collect();
    fn root(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        v
    }
    for tr in &program.transitions {
        for a in &tr.assigns {
            if let Rhs::Expr(Term::Var(u)) = &a.rhs {
                let (x, y) = (
                    root(&mut parent, a.var.index()),
                    root(&mut parent, u.index()),
                );
                parent[x] = y;
            }
        }
    }
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for v in 0..parent.len() {
        let r = root(&mut parent, v);
        members.entry(r).or_default().push(v);
    }
    let mut out = HashMap::new();
    for class in members.into_values() {
        if class.len() < 2 || class.len() > COPY_CLASS {
            continue;
        }
        for &v in &class {
            out.insert(v, class.iter().copied().filter(|&u| u != v).collect());
        }
    }
    out
}

/// Most counters of one thread [`thread_counters`] relates pairwise.
const THREAD_COUNTERS: usize = 6;

/// Per thread, the variables its steps count up (`up`) or down by a
/// constant from any variable (`i := i + 1`, and `c := t + 1` where an
/// earlier step read `t := c`, as `c++` on a shared `c` is lowered), when
/// there are some and at most [`THREAD_COUNTERS`] of them (else `None`):
/// a loop's index and what its body counts move together across steps
/// (`c <= i`).
fn thread_counters(program: &Program, up: bool) -> Vec<Option<BTreeSet<usize>>> {
    let mut per_thread: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); program.threads.len()];
    for tr in &program.transitions {
        for a in tr.assigns.iter().filter(|a| counted(a, up).is_some()) {
            per_thread[tr.thread.index()].insert(a.var.index());
        }
    }
    per_thread
        .into_iter()
        .map(|c| (!c.is_empty() && c.len() <= THREAD_COUNTERS).then_some(c))
        .collect()
}

/// Per variable: whether a condition reads it, or an assignment to such a
/// variable (transitively): the others cannot matter to the error.
fn relevant(program: &Program) -> Vec<bool> {
    let mut out = vec![false; program.vars.len()];
    let mut mark = |v: crate::ir::VarId| out[v.index()] = true;
    for c in program.error.iter().chain(&program.init) {
        c.for_each_var(&mut mark);
    }
    for tr in &program.transitions {
        tr.guard.for_each_var(&mut mark);
    }
    loop {
        let mut changed = false;
        for tr in &program.transitions {
            for a in &tr.assigns {
                if let (Rhs::Expr(e), true) = (&a.rhs, out[a.var.index()]) {
                    e.for_each_var(&mut |v| {
                        changed |= !out[v.index()];
                        out[v.index()] = true;
                    });
                }
            }
        }
        if !changed {
            return out;
        }
    }
}

/// The variables of each comparison of `c`.
fn atoms(c: &Cond) -> Vec<BTreeSet<usize>> {
    match c {
        Cond::Cmp(_, a, b) => {
            let mut vars = BTreeSet::new();
            a.for_each_var(&mut |v| {
                vars.insert(v.index());
            });
            b.for_each_var(&mut |v| {
                vars.insert(v.index());
            });
            vec![vars]
        }
        Cond::Not(a) => atoms(a),
        Cond::And(a, b) | Cond::Or(a, b) => {
            let mut out = atoms(a);
            out.extend(atoms(b));
            out
        }
        Cond::True | Cond::False | Cond::At(..) => Vec::new(),
    }
}

/// Affine equalities `Σ c·x = k` that all `points` satisfy, over the
/// variables that vary among them (at most `max_vars` of them, else
/// none), as forms `Σ c·x` (the constant is found as the form's bound):
/// the null space of the points (with a column of ones), by fraction-free
/// elimination; none when an entry overflows.
fn equalities(points: &[Vec<i128>], max_vars: usize) -> Vec<Form> {
    let Some(first) = points.first() else {
        return Vec::new();
    };
    let varying: Vec<usize> = (0..first.len())
        .filter(|&v| points.iter().any(|p| p[v] != first[v]))
        .collect();
    if varying.len() < 2 || varying.len() > max_vars {
        return Vec::new();
    }
    // Rows: the points' varying coordinates and 1.
    let cols = varying.len() + 1;
    let mut rows: Vec<Vec<i128>> = points
        .iter()
        .map(|p| varying.iter().map(|&v| p[v]).chain([1]).collect())
        .collect();
    let mut pivots: Vec<usize> = Vec::new();
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..rows.len()).find(|&i| rows[i][c] != 0) else {
            continue;
        };
        rows.swap(r, p);
        for i in 0..rows.len() {
            if i == r || rows[i][c] == 0 {
                continue;
            }
            let (a, b) = (rows[r][c], rows[i][c]);
            let row: Option<Vec<i128>> = rows[i]
                .iter()
                .zip(&rows[r])
                .map(|(&x, &y)| x.checked_mul(a)?.checked_sub(y.checked_mul(b)?))
                .collect();
            let Some(mut row) = row else {
                return Vec::new();
            };
            normalize(&mut row);
            rows[i] = row;
        }
        pivots.push(c);
        r += 1;
        if r == rows.len() {
            break;
        }
    }
    // A free column `f` gives the relation `w · (x, 1) = 0` with `w_f = L`
    // and `w_{p_i} = -L · rows[i][f] / rows[i][p_i]` for the pivot `p_i` of
    // each row (`L` the least common multiple of those pivots' entries):
    // its variables' part is the form.
    let mut out = Vec::new();
    for f in 0..cols {
        if pivots.contains(&f) {
            continue;
        }
        let lcm = pivots
            .iter()
            .enumerate()
            .filter(|&(i, _)| rows[i][f] != 0)
            .try_fold(1i128, |acc, (i, &p)| {
                let d = rows[i][p].abs();
                acc.checked_mul(d / gcd(acc, d))
            });
        let Some(lcm) = lcm else {
            continue;
        };
        let mut form: Form = Vec::new();
        if f < varying.len() {
            form.push((varying[f], lcm));
        }
        let mut ok = true;
        for (i, &p) in pivots.iter().enumerate() {
            if rows[i][f] == 0 || p == varying.len() {
                continue;
            }
            match (lcm / rows[i][p]).checked_mul(-rows[i][f]) {
                Some(k) => form.push((varying[p], k)),
                None => ok = false,
            }
        }
        if ok && form.len() >= 2 {
            let g = form.iter().fold(0, |g, &(_, k)| gcd(g, k.abs()));
            let sign = if form.iter().min().map(|&(_, k)| k < 0).unwrap_or(false) {
                -1
            } else {
                1
            };
            let mut form: Form = form
                .into_iter()
                .map(|(v, k)| (v, sign * k / g.max(1)))
                .collect();
            form.sort();
            out.push(form);
        }
    }
    out
}

fn normalize(row: &mut [i128]) {
    let g = row.iter().fold(0, |g, &x| gcd(g, x.abs()));
    if g > 1 {
        for x in row.iter_mut() {
            *x /= g;
        }
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The candidates of tuple `i`: per template, its greatest value in the
/// tuple's samples (in all samples, when the tuple has none) and the next
/// two constants of the program above it; bounds that do not fit `i64`
/// are left out.
fn candidates(
    forms: &[Form],
    samples: &[Vec<Vec<i128>>],
    i: usize,
    constants: &BTreeSet<i128>,
) -> BTreeSet<Candidate> {
    let points: Vec<&Vec<i128>> = if samples[i].is_empty() {
        samples.iter().flatten().collect()
    } else {
        samples[i].iter().collect()
    };
    let mut out = BTreeSet::new();
    for (f, form) in forms.iter().enumerate().skip(1) {
        let Some(max) = greatest(form, &points) else {
            // No samples anywhere: the constants themselves.
            out.extend(constants.iter().map(|&bound| Candidate { form: f, bound }));
            continue;
        };
        out.insert(Candidate {
            form: f,
            bound: max,
        });
        out.extend(
            constants
                .range(max + 1..)
                .take(2)
                .map(|&bound| Candidate { form: f, bound }),
        );
        // The sign of a form negative in every sample (`n >= 0` of a
        // count that the runs saw only large).
        if max < 0 {
            out.insert(Candidate { form: f, bound: 0 });
        }
    }
    out.retain(|c| i64::try_from(c.bound).is_ok());
    if samples[i].is_empty() {
        // `0 <= -1`: the tuple may be unreachable.
        out.insert(Candidate {
            form: FALSE,
            bound: -1,
        });
    }
    out
}

/// More candidates for a tuple that has no samples: per template, its
/// greatest value in the states the steps `into` it (from sampled tuples
/// `j`) make of the samples of `j`, their guards not evaluated, as long as
/// the tuple has fewer than [`MAX_CANDIDATES`]. Where no run left a loop
/// (a create loop of 10,000 iterations), the step past it still shows what
/// it sets (a join loop's index and its count of joins both 1): candidates
/// are only proposed, so the unreachable states these points may be cost
/// time, never a wrong proof.
fn pushed_candidates(
    program: &Program,
    forms: &[Form],
    samples: &[Vec<Vec<i128>>],
    into: &[(usize, TransId)],
    out: &mut BTreeSet<Candidate>,
) {
    let points: Vec<Vec<i128>> = into
        .iter()
        .flat_map(|&(j, id)| {
            let t = program.transition(id);
            samples[j].iter().filter_map(|p| assigned(t, p))
        })
        .collect();
    propose_greatest(forms, &[points.iter().collect()], out);
}

/// Per template, its greatest value over each set of points, as a
/// candidate bound (one that fits 64 bits), while `out` has fewer than
/// [`MAX_CANDIDATES`].
fn propose_greatest(forms: &[Form], sets: &[Vec<&Vec<i128>>], out: &mut BTreeSet<Candidate>) {
    for (f, form) in forms.iter().enumerate().skip(1) {
        let bounds = sets.iter().filter_map(|points| greatest(form, points));
        for bound in bounds.filter(|m| i64::try_from(*m).is_ok()) {
            if out.len() >= MAX_CANDIDATES {
                return;
            }
            out.insert(Candidate { form: f, bound });
        }
    }
}

/// The values `t`'s assignments give the variables at `p` (an input keeps
/// its old value), its guard not evaluated; `None` where an assignment
/// cannot be evaluated.
fn assigned(t: &Transition, p: &[i128]) -> Option<Vec<i128>> {
    let mut q = p.to_vec();
    for a in &t.assigns {
        if let Rhs::Expr(e) = &a.rhs {
            q[a.var.index()] = interp::eval_term(e, p).ok()?;
        }
    }
    Some(q)
}

/// The value of a literal.
fn constant(t: &Term) -> Option<i64> {
    match t {
        Term::Const(c) => Some(*c),
        _ => None,
    }
}

/// More candidates for tuple `i`, which has no samples: per template, its
/// greatest value in the samples of the sampled tuples nearest to it (that
/// differ from it in the fewest thread locations), as long as the tuple has
/// fewer than
/// [`MAX_CANDIDATES`]. Tighter than the bounds of all samples where the
/// nearest tuples are alike (the thread standing for many instances at the
/// same place): candidates are only proposed, so a proof can only gain
/// (but each costs time).
fn nearest_candidates(
    forms: &[Form],
    samples: &[Vec<Vec<i128>>],
    tuples: &Tuples,
    i: usize,
    out: &mut BTreeSet<Candidate>,
) {
    let here = &tuples.list[i];
    // The sampled tuples and their distances to tuple `i`.
    let sampled: Vec<(usize, usize)> = (0..tuples.list.len())
        .filter(|&j| !samples[j].is_empty())
        .map(|j| {
            let distance = tuples.list[j].iter().zip(here).filter(|(a, b)| a != b);
            (j, distance.count())
        })
        .collect();
    let Some(least) = sampled.iter().map(|&(_, d)| d).min() else {
        return;
    };
    let nearest: Vec<usize> = sampled
        .iter()
        .filter(|&&(_, d)| d == least)
        .map(|&(j, _)| j)
        .collect();
    // Of all of them, and of each: a fact of one neighbour (the thread
    // whose location differs never took the step there) may hold here.
    let all: Vec<&Vec<i128>> = nearest.iter().flat_map(|&j| &samples[j]).collect();
    let sets: Vec<Vec<&Vec<i128>>> = std::iter::once(all)
        .chain(nearest.iter().map(|&j| samples[j].iter().collect()))
        .collect();
    propose_greatest(forms, &sets, out);
}

/// The greatest value of `Σ c·x` at the points (`None`: no point).
fn greatest(form: &Form, points: &[&Vec<i128>]) -> Option<i128> {
    points
        .iter()
        .map(|p| form.iter().map(|&(v, k)| k * p[v]).sum::<i128>())
        .max()
}

#[cfg(test)]
mod tests {
    use super::{equalities, EQUALITY_VARS};

    #[test]
    fn equalities_are_the_null_space_of_the_samples() {
        // u + steps == start, with a constant variable and an unrelated one.
        let points: Vec<Vec<i128>> = [
            (3, 0, 3, 9, 1),
            (2, 1, 3, 9, 5),
            (0, 7, 7, 9, 2),
            (4, 1, 5, 9, 8),
        ]
        .iter()
        .map(|&(u, s, st, c, r)| vec![u, s, st, c, r])
        .collect();
        let eqs = equalities(&points, EQUALITY_VARS);
        assert_eq!(eqs.len(), 1, "{eqs:?}");
        let e = &eqs[0];
        for p in &points {
            let v: i128 = e.iter().map(|&(x, k)| k * p[x]).sum();
            let first: i128 = e.iter().map(|&(x, k)| k * points[0][x]).sum();
            assert_eq!(v, first);
        }
        let vars: Vec<usize> = e.iter().map(|&(x, _)| x).collect();
        assert_eq!(vars, vec![0, 1, 2]);
        // j == 2 * i + 1.
        let points: Vec<Vec<i128>> = (0..5).map(|i| vec![i, 2 * i + 1]).collect();
        let eqs = equalities(&points, EQUALITY_VARS);
        assert_eq!(eqs, vec![vec![(0, 2), (1, -1)]]);
        // No relation among independent points.
        let points = vec![vec![0, 0], vec![1, 0], vec![0, 1]];
        assert!(equalities(&points, EQUALITY_VARS).is_empty());
    }
}
