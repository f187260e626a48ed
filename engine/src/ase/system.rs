//! The program in the checker's vocabulary: transitions as linear updates,
//! guards and the error condition over predicates, and the predicate set.

use super::hash::FxHashMap;
use crate::ir::{LocId, Program, Rhs, TransId};
use crate::linear::{cond_to_formula, term_to_lin, Atom, Formula, Lin, Norm, Sym};

/// Index of a predicate in [`Predicates`].
pub type PredId = usize;

/// The predicates of the abstraction, in order of discovery. Atoms are
/// normalised, so a predicate is never added twice.
#[derive(Clone, Debug, Default)]
pub struct Predicates {
    atoms: Vec<Atom>,
    index: FxHashMap<Atom, PredId>,
}

impl Predicates {
    /// Adds an atom; returns its id and whether it was new.
    pub fn intern(&mut self, a: Atom) -> (PredId, bool) {
        if let Some(&id) = self.index.get(&a) {
            return (id, false);
        }
        let id = self.atoms.len();
        self.index.insert(a.clone(), id);
        self.atoms.push(a);
        (id, true)
    }
    /// The id of an atom, if it is a predicate.
    pub fn get(&self, a: &Atom) -> Option<PredId> {
        self.index.get(a).copied()
    }
    /// All predicates.
    pub fn atoms(&self) -> &[Atom] {
        &self.atoms
    }
    /// Number of predicates.
    pub fn len(&self) -> usize {
        self.atoms.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.atoms.is_empty()
    }
}

/// How a transition changes one variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Update {
    /// Unchanged.
    Keep,
    /// Set to a linear expression over the variables (pre-state).
    Set(Lin),
    /// Set to the input in the given slot (0-based, per transition).
    Input(usize),
}

/// A transition, prepared for the checker.
#[derive(Clone, Debug)]
pub struct Step {
    /// The program transition.
    pub id: TransId,
    /// Index of the thread.
    pub thread: usize,
    /// Source location.
    pub from: LocId,
    /// Target location.
    pub to: LocId,
    /// The guard over program variables (and thread locations).
    pub guard: Formula<Atom>,
    /// The guard over predicates (all its atoms are predicates).
    pub guard_preds: Formula<PredId>,
    /// One update per variable.
    pub updates: Vec<Update>,
    /// Number of inputs read.
    pub inputs: usize,
}

impl Step {
    /// The value of variable `v` after the step, as a linear expression over
    /// the pre-state variables; input slot `k` is the symbol `input_base + k`.
    pub fn post_value(&self, v: usize, input_base: Sym) -> Lin {
        match &self.updates[v] {
            Update::Keep => Lin::sym(v as Sym),
            Update::Set(l) => l.clone(),
            Update::Input(k) => Lin::sym(input_base + *k as Sym),
        }
    }
    /// `atom[e/x]`: the atom over the pre-state (inputs from `input_base`).
    pub fn substitute(&self, atom: &Atom, input_base: Sym) -> Norm {
        atom.substitute(&|s| self.post_value(s as usize, input_base))
    }
    /// Whether the step reads an input.
    pub fn is_nondeterministic(&self) -> bool {
        self.inputs > 0
    }
}

/// The program as the checker sees it.
#[derive(Clone, Debug)]
pub struct System {
    /// Number of variables.
    pub nvars: usize,
    /// Number of threads.
    pub nthreads: usize,
    /// Initial location of each thread.
    pub initial_locs: Vec<LocId>,
    /// Initial value of each variable (`None`: any integer).
    pub initial_values: Vec<Option<i128>>,
    /// The initial constraint over variables.
    pub init: Formula<Atom>,
    /// All transitions.
    pub steps: Vec<Step>,
    /// Steps of each thread.
    pub steps_of_thread: Vec<Vec<usize>>,
    /// The error condition (with location literals).
    pub error: Formula<Atom>,
    /// The error condition over predicates.
    pub error_preds: Formula<PredId>,
    /// The current predicates.
    pub preds: Predicates,
}

fn lift(f: &Formula<Atom>, preds: &mut Predicates) -> Formula<PredId> {
    f.map_lits(&mut |a, pos| Formula::Lit(preds.intern(a.clone()).0, pos))
}

impl System {
    /// Prepares a program; the initial predicates are the atoms of the
    /// guards and of the error condition (locations are explicit, never
    /// predicates).
    pub fn new(p: &Program) -> System {
        let nvars = p.vars.len();
        let mut preds = Predicates::default();
        let mut steps = Vec::with_capacity(p.transitions.len());
        let mut steps_of_thread = vec![Vec::new(); p.threads.len()];
        for (i, t) in p.transitions.iter().enumerate() {
            let guard = cond_to_formula(&t.guard, true);
            let guard_preds = lift(&guard, &mut preds);
            let mut updates = vec![Update::Keep; nvars];
            let mut inputs = 0;
            for a in &t.assigns {
                updates[a.var.index()] = match &a.rhs {
                    Rhs::Expr(e) => Update::Set(term_to_lin(e)),
                    Rhs::Nondet => {
                        inputs += 1;
                        Update::Input(inputs - 1)
                    }
                };
            }
            steps_of_thread[t.thread.index()].push(i);
            steps.push(Step {
                id: TransId::new(i),
                thread: t.thread.index(),
                from: t.from,
                to: t.to,
                guard,
                guard_preds,
                updates,
                inputs,
            });
        }
        let error = cond_to_formula(&p.error_cond(), true);
        let initial_locs: Vec<LocId> = p.threads.iter().map(|t| t.initial).collect();
        let error_preds = lift(&error, &mut preds);
        System {
            nvars,
            nthreads: p.threads.len(),
            initial_locs: initial_locs.clone(),
            initial_values: p.vars.iter().map(|v| v.init.map(i128::from)).collect(),
            // Location literals of `init` are decided by the initial locations.
            init: cond_to_formula(&p.init_cond(), true).at_locations(&initial_locs),
            steps,
            steps_of_thread,
            error,
            error_preds,
            preds,
        }
    }

    /// The steps a thread can take at a location (ignoring guards).
    pub fn steps_at<'a>(&'a self, locs: &'a [LocId]) -> impl Iterator<Item = &'a Step> + 'a {
        (0..self.nthreads).flat_map(move |th| {
            self.steps_of_thread[th]
                .iter()
                .map(|&i| &self.steps[i])
                .filter(move |s| s.from == locs[th])
        })
    }
}
