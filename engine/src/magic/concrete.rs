//! A component's part of an abstract counterexample, checked on the
//! component itself (MAGIC's lowest level): a path of the predicate
//! abstraction that takes the thread's actions in order (internal steps
//! between them) and ends where the goal may hold, then the path's
//! feasibility on the thread's variables. An infeasible path yields new
//! predicates: the atoms of the weakest preconditions of its guards and of
//! the goal, at every point of the path.

use super::components::{resolve_at, Component, Update, F};
use super::predabs::Abstraction;
use crate::ir::{TransId, VarId};
use crate::linear::{Atom, Formula, Lin, Sym};
use crate::smt::{Smt, SmtError, Space};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// Values of variables (initial values, or a step's inputs).
pub(super) type Values = Vec<(VarId, i128)>;

/// One step of a run: the component's step, its transition, its inputs.
pub(super) type RunStep = (usize, TransId, Values);

/// One thread's concrete run: the values of its variables at the start
/// and its steps.
#[derive(Clone, Debug)]
pub(super) struct Run {
    pub initial: Values,
    pub steps: Vec<RunStep>,
}

/// A node of the path search: an abstract state and the actions taken.
type Node = (usize, usize);

/// The verdict on a component's part of a counterexample.
pub(super) enum Check {
    /// The run exists.
    Feasible(Run),
    /// It does not: predicates that rule the abstract path out.
    Infeasible(Vec<Atom>),
}

/// A path of `abs` that takes the component's `actions` in order
/// (internal steps between them) and ends where the thread's `goal` part
/// may hold: the step indices taken. `None`: there is none.
pub(super) fn abstract_path(
    abs: &Abstraction,
    comp: &Component,
    thread: usize,
    actions: &[usize],
    goal: Option<&F>,
    smt: &mut Smt,
) -> Result<Option<Vec<usize>>, SmtError> {
    let steps_in_trace = actions.len();
    let mut parent: HashMap<Node, Option<(Node, usize)>> = HashMap::new();
    let mut queue = VecDeque::new();
    for &s in &abs.initial {
        parent.insert((s, 0), None);
        queue.push_back((s, 0));
    }
    while let Some((s, j)) = queue.pop_front() {
        if j == steps_in_trace {
            let done = match goal {
                Some(part) => abs.may(s, thread, part, smt)?,
                None => true,
            };
            if done {
                let mut out = Vec::new();
                let mut cur = (s, j);
                while let Some(Some((p, k))) = parent.get(&cur) {
                    out.push(*k);
                    cur = *p;
                }
                out.reverse();
                return Ok(Some(out));
            }
        }
        for &(k, t) in &abs.edges[s] {
            let next = match comp.steps[k].action {
                None => (t, j),
                Some(a) if j < steps_in_trace && actions[j] == a => (t, j + 1),
                Some(_) => continue,
            };
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(next) {
                e.insert(Some(((s, j), k)));
                queue.push_back(next);
            }
        }
    }
    Ok(None)
}

/// Checks the steps `path` of `comp`, ending where `goal` holds.
pub(super) fn check(
    comp: &Component,
    vars: usize,
    thread: usize,
    path: &[usize],
    goal: Option<&F>,
    smt: &mut Smt,
) -> Result<Check, SmtError> {
    let end = path.last().map_or(comp.initial, |&k| comp.steps[k].to);
    let goal = goal.map_or(Formula::True, |g| {
        resolve_at(g, &mut |t, l| (t.index() == thread).then_some(l == end))
    });
    // Forward: the path condition over the initial values and inputs.
    let mut frame: HashMap<Sym, Lin> = comp.locals.iter().map(|v| (v.0, Lin::sym(v.0))).collect();
    let mut next_input = 2 * vars as Sym;
    let mut conds = vec![comp.init.clone()];
    let mut inputs: Vec<Vec<(VarId, Sym)>> = Vec::new();
    for &k in path {
        let step = &comp.steps[k];
        conds.push(step.guard.substitute(&|s| lookup(&frame, s)));
        let mut mine = Vec::new();
        let mut updated = Vec::new();
        for (v, u) in &step.updates {
            let e = match u {
                Update::Lin(l) => l.substitute(&|s| lookup(&frame, s)),
                Update::Any => {
                    let x = next_input;
                    next_input += 1;
                    mine.push((*v, x));
                    Lin::sym(x)
                }
            };
            updated.push((v.0, e));
        }
        frame.extend(updated);
        inputs.push(mine);
    }
    conds.push(goal.substitute(&|s| lookup(&frame, s)));
    let f = smt.formula(Space::State, &Formula::and(conds));
    smt.push();
    smt.assert(&f);
    let model = smt.check_model();
    smt.pop();
    let Some(model) = model? else {
        return Ok(Check::Infeasible(weakest_preconditions(comp, path, &goal)));
    };
    let mut run = Run {
        initial: Vec::new(),
        steps: Vec::new(),
    };
    for &v in &comp.locals {
        run.initial.push((v, smt.value(&model, Space::State, v.0)?));
    }
    for (&k, mine) in path.iter().zip(&inputs) {
        let mut values = Vec::new();
        for &(v, x) in mine {
            values.push((v, smt.value(&model, Space::State, x)?));
        }
        run.steps.push((k, comp.steps[k].transition, values));
    }
    Ok(Check::Feasible(run))
}

fn lookup(frame: &HashMap<Sym, Lin>, s: Sym) -> Lin {
    frame.get(&s).cloned().unwrap_or_else(|| Lin::sym(s))
}

/// The atoms of the weakest precondition of the path's guards and `goal`
/// at every point of `path`, over the component's variables (atoms that
/// mention an input are dropped: they speak of later choices).
fn weakest_preconditions(comp: &Component, path: &[usize], goal: &F) -> Vec<Atom> {
    let locals: BTreeSet<Sym> = comp.locals.iter().map(|v| v.0).collect();
    let input = Sym::MAX;
    let mut atoms = BTreeSet::new();
    let mut collect = |f: &F| {
        f.for_each_atom(&mut |a: &Atom| {
            if a.lhs.terms.iter().all(|(s, _)| locals.contains(s)) {
                atoms.insert(a.clone());
            }
        })
    };
    let mut phi = goal.clone();
    collect(&phi);
    for &k in path.iter().rev() {
        let step = &comp.steps[k];
        let map: HashMap<Sym, Lin> = step
            .updates
            .iter()
            .map(|(v, u)| match u {
                Update::Lin(l) => (v.0, l.clone()),
                Update::Any => (v.0, Lin::sym(input)),
            })
            .collect();
        phi = Formula::and([step.guard.clone(), phi.substitute(&|s| lookup(&map, s))]);
        collect(&phi);
    }
    atoms.into_iter().collect()
}
