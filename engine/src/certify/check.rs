//! The certificate checker: independent of the engines.
//!
//! It reads only the IR ([`crate::ir`]) and the certificate, and encodes
//! the semantics of [`crate::interp`] itself, in a Z3 context of its own
//! (`z3::with_z3_config`): variables are mathematical integers; an initial
//! state has every thread at its initial location, every declared initial
//! value, any integer for the other variables, and satisfies `init`; a step
//! of transition `t` of thread `T` needs `T` at `t.from` and the guard,
//! evaluates every right-hand side in the state before the step (`*` is a
//! fresh unconstrained integer), leaves every unassigned variable and every
//! other thread where it was, and moves `T` to `t.to`. Location tests
//! (`p@L`) are decided by the tuple at hand.
//!
//! Obligations, each an unsatisfiability check:
//! - *initiation*: `init ∧ ¬Inv(L0)` for the initial tuple `L0`;
//! - *consecution*, for every tuple `L` of the certificate and every
//!   transition `t` of a thread at its source location in `L`:
//!   `Inv(L) ∧ guard ∧ ¬Inv(L')[x := post]`, where `L'` is `L` with the
//!   thread moved (a tuple not in the certificate has `Inv = false`);
//! - *safety*, for every tuple `L`: `Inv(L) ∧ error`.
//!
//! A tuple whose invariant is a finite set of states (every variable fixed
//! in every disjunct: what the exhaustive search's certificates are) has
//! its safety and consecution obligations decided by evaluating the
//! transitions on each state instead ([`super::points`]), unless a
//! transition has an input or a value leaves `i128`.

use super::points::{self, State};
use super::text::tuple;
use super::{Certificate, Dnf};
use crate::ir::{CmpOp, Cond, LocId, NlOp, Program, Rhs, Term, ThreadId, TransId};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::time::{Duration, Instant};
use z3::ast::{Bool, Int, BV};
use z3::{Params, SatResult, Solver};

/// One proof obligation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Obligation {
    /// The initial states satisfy the invariant of the initial tuple.
    Initiation {
        /// The initial tuple.
        locs: Vec<LocId>,
    },
    /// A transition from a tuple stays within the invariant.
    Consecution {
        /// The tuple before the step.
        locs: Vec<LocId>,
        /// The transition.
        transition: TransId,
        /// The tuple after the step.
        target: Vec<LocId>,
        /// Whether the certificate has an invariant for `target`.
        target_listed: bool,
    },
    /// No state of the invariant of a tuple is an error state.
    Safety {
        /// The tuple.
        locs: Vec<LocId>,
    },
}

impl Obligation {
    /// The obligation in words, with the program's names.
    pub fn describe(&self, program: &Program) -> String {
        match self {
            Obligation::Initiation { locs } => format!(
                "initiation: every initial state satisfies the invariant of {}",
                tuple(program, locs)
            ),
            Obligation::Consecution {
                locs,
                transition,
                target,
                target_listed,
            } => {
                let t = program.transition(*transition);
                format!(
                    "consecution: transition `{}` of thread `{}` ({} -> {}) from {} stays within the invariant of {}{}",
                    t.label,
                    program.thread(t.thread).name,
                    program.loc_name(t.thread, t.from),
                    program.loc_name(t.thread, t.to),
                    tuple(program, locs),
                    tuple(program, target),
                    if *target_listed {
                        ""
                    } else {
                        " (not in the certificate: false)"
                    }
                )
            }
            Obligation::Safety { locs } => format!(
                "safety: no state of the invariant of {} is an error state",
                tuple(program, locs)
            ),
        }
    }
}

/// Why a certificate was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The certificate does not fit the program (a tuple of the wrong
    /// length, a location or variable out of range).
    Malformed(String),
    /// An obligation does not hold; `state` is a state (variable values)
    /// that violates it, from the prover's model.
    Refuted {
        /// The obligation.
        obligation: Obligation,
        /// `name = value` of the variables, in program order.
        state: Vec<(String, String)>,
    },
    /// The prover gave no answer (time limit, or `unknown`).
    Undecided {
        /// The obligation.
        obligation: Obligation,
        /// Why.
        reason: String,
    },
}

impl Failure {
    /// Whether the certificate was shown wrong (rather than undecided).
    pub fn is_refutation(&self) -> bool {
        !matches!(self, Failure::Undecided { .. })
    }

    /// The failure in words.
    pub fn describe(&self, program: &Program) -> String {
        match self {
            Failure::Malformed(why) => format!("malformed certificate: {why}"),
            Failure::Refuted { obligation, state } => {
                let mut out = format!("{} fails", obligation.describe(program));
                if !state.is_empty() {
                    const SHOWN: usize = 24;
                    let vals: Vec<String> = state
                        .iter()
                        .take(SHOWN)
                        .map(|(n, v)| format!("{n} = {v}"))
                        .collect();
                    let _ = write!(
                        out,
                        "; a counterexample state: {}{}",
                        vals.join(", "),
                        if state.len() > SHOWN { ", ..." } else { "" }
                    );
                }
                out
            }
            Failure::Undecided { obligation, reason } => {
                format!("{} undecided: {reason}", obligation.describe(program))
            }
        }
    }
}

/// The result of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Obligations decided.
    pub obligations: u64,
    /// Wall-clock time of the check.
    pub time: Duration,
    /// `Ok` when every obligation holds.
    pub result: Result<(), Failure>,
}

impl Report {
    /// Whether the certificate was accepted.
    pub fn valid(&self) -> bool {
        self.result.is_ok()
    }
}

/// Checks that `cert` is an inductive invariant of `program` that excludes
/// the error, within `timeout` (an undecided obligation past it).
pub fn check(program: &Program, cert: &Certificate, timeout: Option<Duration>) -> Report {
    let start = Instant::now();
    if program.has_arrays() {
        return Report {
            obligations: 0,
            time: start.elapsed(),
            result: Err(Failure::Malformed(
                "the checker takes no program with arrays".into(),
            )),
        };
    }
    let deadline = timeout.map(|t| start + t);
    let cfg = z3::Config::new();
    let (obligations, result) =
        z3::with_z3_config(&cfg, || Checker::new(program, cert, deadline).run());
    Report {
        obligations,
        time: start.elapsed(),
        result,
    }
}

struct Checker<'a> {
    program: &'a Program,
    cert: &'a Certificate,
    deadline: Option<Instant>,
    solver: Solver,
    vars: Vec<Int>,
    inputs: u32,
    obligations: u64,
}

/// Conditions over a tuple: location tests are constants.
fn cond(c: &Cond, locs: &[LocId], env: &[Int]) -> Bool {
    match c {
        Cond::True => Bool::from_bool(true),
        Cond::False => Bool::from_bool(false),
        Cond::Cmp(op, a, b) => {
            let (a, b) = (term(a, env), term(b, env));
            match op {
                CmpOp::Eq => a.eq(&b),
                CmpOp::Ne => a.eq(&b).not(),
                CmpOp::Lt => a.lt(&b),
                CmpOp::Le => a.le(&b),
                CmpOp::Gt => a.gt(&b),
                CmpOp::Ge => a.ge(&b),
            }
        }
        Cond::At(t, l) => Bool::from_bool(locs.get(t.index()) == Some(l)),
        Cond::Not(a) => cond(a, locs, env).not(),
        Cond::And(a, b) => Bool::and(&[cond(a, locs, env), cond(b, locs, env)]),
        Cond::Or(a, b) => Bool::or(&[cond(a, locs, env), cond(b, locs, env)]),
    }
}

fn term(t: &Term, env: &[Int]) -> Int {
    match t {
        Term::Const(k) => Int::from_i64(*k),
        Term::Var(v) => env[v.index()].clone(),
        Term::Add(a, b) => Int::add(&[term(a, env), term(b, env)]),
        Term::Sub(a, b) => Int::sub(&[term(a, env), term(b, env)]),
        Term::Mul(k, a) => Int::mul(&[Int::from_i64(*k), term(a, env)]),
        Term::Neg(a) => term(a, env).unary_minus(),
        // Z3's integer division and remainder are Euclidean, as the IR's
        // (the divisor is positive).
        Term::Div(a, k) => term(a, env).div(Int::from_i64(*k)),
        Term::Mod(a, k) => term(a, env).modulo(Int::from_i64(*k)),
        Term::Nl(op, a, b) => nonlinear(*op, term(a, env), term(b, env)),
        Term::Select(..) => unreachable!("`check` refuses programs with arrays"),
    }
}

/// A non-linear operation with the IR's total semantics, encoded here on
/// its own (not shared with BMC): C's quotient as Z3's quotient of the
/// non-negative dividend (which rounds toward zero there), the remainder
/// from the quotient, bitwise operations on 64-bit two's complement.
fn nonlinear(op: NlOp, a: Int, b: Int) -> Int {
    let zero = Int::from_i64(0);
    let quotient = || {
        let q = a
            .ge(&zero)
            .ite(&a.div(&b), &a.unary_minus().div(&b).unary_minus());
        b.eq(&zero).ite(&zero, &q)
    };
    match op {
        NlOp::Mul => Int::mul(&[a.clone(), b.clone()]),
        NlOp::Div => quotient(),
        NlOp::Rem => Int::sub(&[a.clone(), Int::mul(&[b.clone(), quotient()])]),
        NlOp::And | NlOp::Or | NlOp::Xor => {
            let (x, y) = (BV::from_int(&a, 64), BV::from_int(&b, 64));
            let r = match op {
                NlOp::And => x.bvand(&y),
                NlOp::Or => x.bvor(&y),
                _ => x.bvxor(&y),
            };
            Int::from_bv(&r, true)
        }
    }
}

fn dnf(d: &Dnf, locs: &[LocId], env: &[Int]) -> Bool {
    let disjuncts: Vec<Bool> = d
        .iter()
        .map(|conj| {
            let parts: Vec<Bool> = conj.iter().map(|c| cond(c, locs, env)).collect();
            Bool::and(&parts)
        })
        .collect();
    Bool::or(&disjuncts)
}

impl<'a> Checker<'a> {
    fn new(program: &'a Program, cert: &'a Certificate, deadline: Option<Instant>) -> Self {
        let vars = (0..program.vars.len())
            .map(|i| Int::new_const(format!("v{i}")))
            .collect();
        Checker {
            program,
            cert,
            deadline,
            solver: Solver::new(),
            vars,
            inputs: 0,
            obligations: 0,
        }
    }

    /// Checks the shape of the certificate against the program: every
    /// tuple names a location of every thread, every variable exists.
    fn well_formed(&self) -> Result<(), Failure> {
        let p = self.program;
        for inv in &self.cert.invariants {
            if inv.locs.len() != p.threads.len() {
                return Err(Failure::Malformed(format!(
                    "a tuple has {} locations, the program {} threads",
                    inv.locs.len(),
                    p.threads.len()
                )));
            }
            if let Some((t, l)) = inv
                .locs
                .iter()
                .enumerate()
                .find(|(t, l)| l.index() >= p.threads[*t].locs.len())
            {
                return Err(Failure::Malformed(format!(
                    "thread `{}` has no location number {}",
                    p.threads[t].name,
                    l.index()
                )));
            }
            let mut bad = None;
            for c in inv.blocks.iter().flatten().flatten() {
                c.for_each_var(&mut |v| {
                    if v.index() >= p.vars.len() {
                        bad = Some(v);
                    }
                });
                if !locations_in_range(p, c) {
                    return Err(Failure::Malformed(
                        "a location test names a thread or location the program does not have"
                            .into(),
                    ));
                }
            }
            if let Some(v) = bad {
                return Err(Failure::Malformed(format!(
                    "variable number {} does not exist",
                    v.index()
                )));
            }
        }
        Ok(())
    }

    fn invariant(&self, index: &HashMap<&[LocId], usize>, locs: &[LocId], env: &[Int]) -> Bool {
        match index.get(locs) {
            None => Bool::from_bool(false),
            Some(&i) => {
                let blocks: Vec<Bool> = self.cert.invariants[i]
                    .blocks
                    .iter()
                    .map(|b| dnf(b, locs, env))
                    .collect();
                Bool::and(&blocks)
            }
        }
    }

    /// Decides whether the asserted constraints are unsatisfiable.
    fn unsat(&mut self, obligation: impl FnOnce() -> Obligation) -> Result<(), Failure> {
        self.obligations += 1;
        let mut params = Params::new();
        params.set_u32("random_seed", 0);
        if let Some(d) = self.deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Failure::Undecided {
                    obligation: obligation(),
                    reason: "time limit reached".into(),
                });
            }
            let ms = u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1);
            params.set_u32("timeout", ms);
        }
        self.solver.set_params(&params);
        match self.solver.check() {
            SatResult::Unsat => Ok(()),
            SatResult::Sat => {
                let state = match self.solver.get_model() {
                    Some(m) => self
                        .program
                        .vars
                        .iter()
                        .zip(&self.vars)
                        .map(|(d, x)| {
                            let v = m
                                .eval(x, true)
                                .map_or_else(|| "?".to_string(), |v| v.to_string());
                            (d.name.clone(), v)
                        })
                        .collect(),
                    None => Vec::new(),
                };
                Err(Failure::Refuted {
                    obligation: obligation(),
                    state,
                })
            }
            SatResult::Unknown => {
                let reason = self
                    .solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "the prover answered unknown".into());
                // Z3 says "canceled" or "timeout" when its timer fires; with
                // a deadline set, that is this check's time limit.
                let timer = matches!(reason.as_str(), "canceled" | "timeout");
                let past = self.deadline.is_some_and(|d| Instant::now() >= d);
                Err(Failure::Undecided {
                    obligation: obligation(),
                    reason: if past || (timer && self.deadline.is_some()) {
                        "time limit reached".into()
                    } else {
                        reason
                    },
                })
            }
        }
    }

    fn run(mut self) -> (u64, Result<(), Failure>) {
        let r = self.run_inner();
        (self.obligations, r)
    }

    fn run_inner(&mut self) -> Result<(), Failure> {
        self.well_formed()?;
        let p = self.program;
        let index: HashMap<&[LocId], usize> = self
            .cert
            .invariants
            .iter()
            .enumerate()
            .map(|(i, inv)| (inv.locs.as_slice(), i))
            .collect();
        // Initiation.
        let initial: Vec<LocId> = p.threads.iter().map(|t| t.initial).collect();
        self.solver.push();
        for (d, x) in p.vars.iter().zip(&self.vars) {
            if let Some(v) = d.init {
                self.solver.assert(x.eq(Int::from_i64(v)));
            }
        }
        for c in &p.init {
            self.solver.assert(cond(c, &initial, &self.vars));
        }
        self.solver
            .assert(self.invariant(&index, &initial, &self.vars).not());
        let r = self.unsat(|| Obligation::Initiation {
            locs: initial.clone(),
        });
        self.solver.pop(1);
        r?;
        // Transitions by thread and source location.
        let mut outgoing: HashMap<(ThreadId, LocId), Vec<TransId>> = HashMap::new();
        for (i, t) in p.transitions.iter().enumerate() {
            outgoing
                .entry((t.thread, t.from))
                .or_default()
                .push(TransId::new(i));
        }
        let error = p.error_cond();
        // Tuples whose invariant is a finite set of states are checked by
        // evaluation (`points`); the others, and any tuple where
        // evaluation cannot decide, by the prover.
        let sets: Vec<Option<Vec<State>>> = self
            .cert
            .invariants
            .iter()
            .map(|inv| points::points(inv, p.vars.len(), &inv.locs, POINT_LIMIT))
            .collect();
        let lookup: Vec<Option<HashSet<&[i128]>>> = sets
            .iter()
            .map(|s| s.as_ref().map(|s| s.iter().map(Vec::as_slice).collect()))
            .collect();
        let by_points = PointCheck {
            program: p,
            cert: self.cert,
            index: &index,
            lookup: &lookup,
            outgoing: &outgoing,
            error: &error,
        };
        for (i, inv) in self.cert.invariants.iter().enumerate() {
            let locs = inv.locs.as_slice();
            if let Some(states) = &sets[i] {
                match by_points.check(locs, states, &mut self.obligations) {
                    Some(Ok(())) => continue,
                    Some(Err(e)) => return Err(e),
                    None => {} // not decidable by evaluation: the prover
                }
            }
            self.solver.push();
            self.solver.assert(self.invariant(&index, locs, &self.vars));
            // Safety.
            self.solver.push();
            self.solver.assert(cond(&error, locs, &self.vars));
            let r = self.unsat(|| Obligation::Safety {
                locs: locs.to_vec(),
            });
            self.solver.pop(1);
            if let Err(e) = r {
                self.solver.pop(1);
                return Err(e);
            }
            // Consecution.
            for (thread, &loc) in locs.iter().enumerate() {
                let thread = ThreadId::new(thread);
                let Some(ts) = outgoing.get(&(thread, loc)) else {
                    continue;
                };
                for &id in ts {
                    let t = p.transition(id);
                    let mut target = locs.to_vec();
                    target[thread.index()] = t.to;
                    let mut post = self.vars.clone();
                    for a in &t.assigns {
                        post[a.var.index()] = match &a.rhs {
                            Rhs::Expr(e) => term(e, &self.vars),
                            Rhs::Nondet => {
                                self.inputs += 1;
                                Int::new_const(format!("in{}", self.inputs))
                            }
                        };
                    }
                    self.solver.push();
                    self.solver.assert(cond(&t.guard, locs, &self.vars));
                    self.solver
                        .assert(self.invariant(&index, &target, &post).not());
                    let listed = index.contains_key(target.as_slice());
                    let r = self.unsat(|| Obligation::Consecution {
                        locs: locs.to_vec(),
                        transition: id,
                        target: target.clone(),
                        target_listed: listed,
                    });
                    self.solver.pop(1);
                    if let Err(e) = r {
                        self.solver.pop(1);
                        return Err(e);
                    }
                }
            }
            self.solver.pop(1);
        }
        Ok(())
    }
}

/// Most states of one tuple checked by evaluation.
const POINT_LIMIT: usize = 200_000;

/// The obligations of a tuple whose invariant is a finite set of states,
/// decided by evaluation.
struct PointCheck<'c> {
    program: &'c Program,
    cert: &'c Certificate,
    index: &'c HashMap<&'c [LocId], usize>,
    lookup: &'c [Option<HashSet<&'c [i128]>>],
    outgoing: &'c HashMap<(ThreadId, LocId), Vec<TransId>>,
    error: &'c Cond,
}

impl PointCheck<'_> {
    /// Safety and consecution of tuple `locs` with states `states`; `None`
    /// when evaluation cannot decide (an input, an overflow): the prover
    /// checks the tuple then.
    fn check(
        &self,
        locs: &[LocId],
        states: &[State],
        obligations: &mut u64,
    ) -> Option<Result<(), Failure>> {
        let p = self.program;
        let named = |s: &[i128]| -> Vec<(String, String)> {
            p.vars
                .iter()
                .zip(s)
                .map(|(d, v)| (d.name.clone(), v.to_string()))
                .collect()
        };
        *obligations += 1;
        for s in states {
            if points::cond(self.error, locs, s)? {
                return Some(Err(Failure::Refuted {
                    obligation: Obligation::Safety {
                        locs: locs.to_vec(),
                    },
                    state: named(s),
                }));
            }
        }
        for (thread, &loc) in locs.iter().enumerate() {
            let Some(ts) = self.outgoing.get(&(ThreadId::new(thread), loc)) else {
                continue;
            };
            for &id in ts {
                let t = p.transition(id);
                let mut target = locs.to_vec();
                target[thread] = t.to;
                let listed = self.index.get(target.as_slice()).copied();
                let obligation = || Obligation::Consecution {
                    locs: locs.to_vec(),
                    transition: id,
                    target: target.clone(),
                    target_listed: listed.is_some(),
                };
                *obligations += 1;
                for s in states {
                    if !points::cond(&t.guard, locs, s)? {
                        continue;
                    }
                    let mut post = s.clone();
                    for a in &t.assigns {
                        post[a.var.index()] = match &a.rhs {
                            Rhs::Expr(e) => points::term(e, s)?,
                            Rhs::Nondet => return None,
                        };
                    }
                    let inside = match listed {
                        None => false,
                        Some(j) => match &self.lookup[j] {
                            Some(set) => set.contains(post.as_slice()),
                            None => points::holds(&self.cert.invariants[j], &target, &post)?,
                        },
                    };
                    if !inside {
                        return Some(Err(Failure::Refuted {
                            obligation: obligation(),
                            state: named(s),
                        }));
                    }
                }
            }
        }
        Some(Ok(()))
    }
}

fn locations_in_range(p: &Program, c: &Cond) -> bool {
    match c {
        Cond::At(t, l) => p
            .threads
            .get(t.index())
            .is_some_and(|th| l.index() < th.locs.len()),
        Cond::Not(a) => locations_in_range(p, a),
        Cond::And(a, b) | Cond::Or(a, b) => locations_in_range(p, a) && locations_in_range(p, b),
        _ => true,
    }
}
