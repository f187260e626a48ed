//! Predicate abstraction of one component (MAGIC's first level): the
//! finite LTS `P` whose states are a location and the truth values of the
//! predicates, with a transition for every step some concrete state of the
//! source can take to some concrete state of the target (existential
//! abstraction: `L(C) ⊆ L(P)`), and the LTS over the actions alone that
//! folds the internal steps in (`Q`: `s -a-> t` when `s -τ*-> s' -a-> t`).

use super::components::{resolve_at, Component, GoalAction, Update, F};
use crate::ir::LocId;
use crate::linear::{Atom, Formula, Lin, Sym};
use crate::smt::{Smt, SmtError, Space};
use std::collections::HashMap;
use z3::ast::Bool;

/// Why an abstraction was not built.
#[derive(Debug)]
pub(super) enum Stop {
    /// The prover failed or the time ran out.
    Smt(SmtError),
    /// Too many abstract states.
    TooBig(usize),
}

impl From<SmtError> for Stop {
    fn from(e: SmtError) -> Stop {
        Stop::Smt(e)
    }
}

/// An abstract state: a location and the predicates' truth values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct AState {
    pub loc: LocId,
    pub bits: Vec<bool>,
}

/// The predicate abstraction of one component.
#[derive(Clone, Debug)]
pub(super) struct Abstraction {
    pub preds: Vec<Atom>,
    pub states: Vec<AState>,
    pub initial: Vec<usize>,
    /// Per state: (step index of the component, target state).
    pub edges: Vec<Vec<(usize, usize)>>,
}

/// The symbol of variable `v` after a step.
fn post(vars: usize, s: Sym) -> Sym {
    s + vars as Sym
}

impl Abstraction {
    /// The conjunction of the predicate literals of `bits`.
    pub fn cube(preds: &[Atom], bits: &[bool]) -> F {
        Formula::and(
            preds
                .iter()
                .zip(bits)
                .map(|(a, &b)| Formula::Lit(a.clone(), b)),
        )
    }

    /// The concrete states of abstract state `s` (its location aside).
    pub fn gamma(&self, s: usize) -> F {
        Self::cube(&self.preds, &self.states[s].bits)
    }

    /// Builds the abstraction of `comp` over `preds`.
    pub fn build(
        comp: &Component,
        vars: usize,
        preds: Vec<Atom>,
        smt: &mut Smt,
        max_states: usize,
    ) -> Result<Abstraction, Stop> {
        let pre: Vec<Bool> = preds.iter().map(|a| smt.atom(Space::State, a)).collect();
        let shifted: Vec<Bool> = preds
            .iter()
            .map(|a| {
                let f = Formula::Lit(a.clone(), true).substitute(&|s| Lin::sym(post(vars, s)));
                smt.formula(Space::State, &f)
            })
            .collect();
        let mut out = Abstraction {
            preds,
            states: Vec::new(),
            initial: Vec::new(),
            edges: Vec::new(),
        };
        let mut index: HashMap<AState, usize> = HashMap::new();
        let mut intern = |out: &mut Abstraction, s: AState| -> Result<usize, Stop> {
            if let Some(&i) = index.get(&s) {
                return Ok(i);
            }
            if out.states.len() >= max_states {
                return Err(Stop::TooBig(max_states));
            }
            index.insert(s.clone(), out.states.len());
            out.states.push(s);
            out.edges.push(Vec::new());
            Ok(out.states.len() - 1)
        };
        let init = smt.formula(Space::State, &comp.init);
        for bits in all_sat(smt, &[init], &pre)? {
            let i = intern(
                &mut out,
                AState {
                    loc: comp.initial,
                    bits,
                },
            )?;
            out.initial.push(i);
        }
        let mut next = 0;
        while next < out.states.len() {
            let s = next;
            next += 1;
            let here = smt.formula(Space::State, &out.gamma(s));
            for (k, step) in comp.steps.iter().enumerate() {
                if step.from != out.states[s].loc {
                    continue;
                }
                let mut cs = vec![here.clone(), smt.formula(Space::State, &step.guard)];
                cs.extend(frame(comp, step, vars, smt));
                for bits in all_sat(smt, &cs, &shifted)? {
                    let t = intern(&mut out, AState { loc: step.to, bits })?;
                    if !out.edges[s].contains(&(k, t)) {
                        out.edges[s].push((k, t));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Whether a concrete state of abstract state `s` may satisfy the
    /// thread's part `part` of a goal.
    pub fn may(&self, s: usize, thread: usize, part: &F, smt: &mut Smt) -> Result<bool, SmtError> {
        let loc = self.states[s].loc;
        let f = resolve_at(part, &mut |t, l| (t.index() == thread).then_some(l == loc));
        if f.is_false() {
            return Ok(false);
        }
        let g = smt.formula(Space::State, &Formula::and([self.gamma(s), f]));
        smt.is_sat(&[g])
    }
}

/// The equations of a step's updates between the symbols before and after
/// (variables it does not update keep their values; inputs are free).
fn frame(
    comp: &Component,
    step: &super::components::Step,
    vars: usize,
    smt: &mut Smt,
) -> Vec<Bool> {
    let mut out = Vec::new();
    for &v in &comp.locals {
        let after = smt.constant(Space::State, post(vars, v.0));
        match step.updates.iter().find(|(w, _)| *w == v) {
            Some((_, Update::Any)) => {}
            Some((_, Update::Lin(l))) => {
                let e = smt.lin(Space::State, l);
                out.push(after.eq(&e));
            }
            None => {
                let before = smt.constant(Space::State, v.0);
                out.push(after.eq(&before));
            }
        }
    }
    out
}

/// Every valuation of `preds` in some model of `constraints`.
fn all_sat(
    smt: &mut Smt,
    constraints: &[Bool],
    preds: &[Bool],
) -> Result<Vec<Vec<bool>>, SmtError> {
    smt.push();
    for c in constraints {
        smt.assert(c);
    }
    let mut out = Vec::new();
    let result = loop {
        let model = match smt.check_model() {
            Ok(Some(m)) => m,
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        };
        let bits: Result<Vec<bool>, SmtError> =
            preds.iter().map(|p| smt.bool_value(&model, p)).collect();
        let bits = match bits {
            Ok(b) => b,
            Err(e) => break Err(e),
        };
        let differ: Vec<Bool> = preds
            .iter()
            .zip(&bits)
            .map(|(p, &b)| if b { p.not() } else { p.clone() })
            .collect();
        out.push(bits);
        if differ.is_empty() {
            break Ok(());
        }
        smt.assert(&Bool::or(&differ));
    };
    smt.pop();
    result.map(|()| out)
}

/// The LTS over actions of an abstraction: state 0 is the initial state
/// (before any step), state `k + 1` abstract state `k`. Actions are the
/// component's action indices, and `goal_base + g` for goal `g`, a
/// self-loop on a state from which the thread reaches, by internal steps,
/// a state that may satisfy its part of goal `g`.
#[derive(Clone, Debug)]
pub(super) struct Visible {
    pub edges: Vec<Vec<(usize, usize)>>,
}

impl Visible {
    /// Folds the internal steps of `abs` in.
    pub fn build(
        abs: &Abstraction,
        comp: &Component,
        thread: usize,
        goals: &[GoalAction],
        goal_base: usize,
        smt: &mut Smt,
    ) -> Result<Visible, SmtError> {
        let n = abs.states.len();
        let mut may = vec![Vec::new(); n];
        for (s, m) in may.iter_mut().enumerate() {
            for (g, goal) in goals.iter().enumerate() {
                let hit = match goal.parts.iter().find(|(t, _)| *t == thread) {
                    Some((_, part)) => abs.may(s, thread, part, smt)?,
                    None => true,
                };
                if hit {
                    m.push(g);
                }
            }
        }
        let mut edges = vec![Vec::new(); n + 1];
        for (q, out) in edges.iter_mut().enumerate() {
            if smt.out_of_time() {
                return Err(SmtError::Timeout);
            }
            let start: Vec<usize> = if q == 0 {
                abs.initial.clone()
            } else {
                vec![q - 1]
            };
            for s in tau_closure(abs, comp, &start) {
                for &(k, t) in &abs.edges[s] {
                    if let Some(a) = comp.steps[k].action {
                        push_new(out, (a, t + 1));
                    }
                }
                for &g in &may[s] {
                    push_new(out, (goal_base + g, q));
                }
            }
        }
        Ok(Visible { edges })
    }
}

fn push_new(v: &mut Vec<(usize, usize)>, e: (usize, usize)) {
    if !v.contains(&e) {
        v.push(e);
    }
}

/// The abstract states reachable from `start` by internal steps.
pub(super) fn tau_closure(abs: &Abstraction, comp: &Component, start: &[usize]) -> Vec<usize> {
    let mut seen = vec![false; abs.states.len()];
    let mut stack: Vec<usize> = start.to_vec();
    let mut out = Vec::new();
    while let Some(s) = stack.pop() {
        if std::mem::replace(&mut seen[s], true) {
            continue;
        }
        out.push(s);
        for &(k, t) in &abs.edges[s] {
            if comp.steps[k].action.is_none() && !seen[t] {
                stack.push(t);
            }
        }
    }
    out
}
