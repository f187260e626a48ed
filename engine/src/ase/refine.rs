//! Preimage-based refinement: new predicates from the preimages
//! `pre(b, t)` of the inexact pairs in or reachable from `inf`.
//!
//! For a deterministic transition `pre(b, t) = g ∧ b[e/x]`, whose atoms are
//! the guard's and `p[e/x]` for every predicate `p` (the same for every
//! target `b`). For a transition with inputs `pre(b, t) = g ∧ ∃in. b[e/x]`;
//! the quantifier is eliminated with Z3 so that its atoms are over program
//! variables only. Refinement always makes progress on an inexact pair: if
//! all these atoms were predicates already, the abstract state would decide
//! the preimage of every successor, and the pair would be exact.

use super::ats::{Ats, Cube};
use super::checks::{post_predicates, Inexact};
use super::system::System;
use crate::linear::{norm_to_formula, Atom, Formula, Norm, Sym};
use crate::smt::{Smt, SmtError, Space};
use std::collections::HashSet;

/// Adds the atoms of the preimages of the inexact pairs to the predicates;
/// returns how many were new.
pub fn refine(
    sys: &mut System,
    smt: &mut Smt,
    ats: &Ats,
    inexact: &[Inexact],
) -> Result<usize, SmtError> {
    let mut new_atoms: Vec<Atom> = Vec::new();
    let mut seen: HashSet<Atom> = HashSet::new();
    let mut done_deterministic: HashSet<usize> = HashSet::new();
    let mut done_targets: HashSet<(usize, Cube)> = HashSet::new();
    let mut keep = |a: &Atom, new_atoms: &mut Vec<Atom>| {
        if sys_lacks(a, &sys.preds) && seen.insert(a.clone()) {
            new_atoms.push(a.clone());
        }
    };
    for pair in inexact {
        let step = &sys.steps[pair.step];
        let post = post_predicates(sys, step);
        if !step.is_nondeterministic() {
            if !done_deterministic.insert(pair.step) {
                continue;
            }
            for n in &post {
                if let Norm::Lit(a, _) = n {
                    keep(a, &mut new_atoms);
                }
            }
            continue;
        }
        let mut targets: Vec<Cube> = ats
            .successors(pair.node, step.id)
            .into_iter()
            .map(|b| ats.state(b).cube.clone())
            .collect();
        targets.extend(pair.witness.clone());
        let inputs: Vec<Sym> = (0..step.inputs).map(|k| (sys.nvars + k) as Sym).collect();
        for b in targets {
            if !done_targets.insert((pair.step, b.clone())) {
                continue;
            }
            let body = Formula::and(
                post.iter()
                    .enumerate()
                    .map(|(i, n)| norm_to_formula(n.clone(), b.get(i))),
            );
            let pre = match smt.eliminate_exists(Space::State, &inputs, &body) {
                Ok(f) => f,
                Err(SmtError::Unsupported(_)) => continue,
                Err(e) => return Err(e),
            };
            pre.for_each_atom(&mut |a: &Atom| {
                if a.lhs.terms.iter().all(|&(s, _)| (s as usize) < sys.nvars) {
                    keep(a, &mut new_atoms);
                }
            });
        }
    }
    let added = new_atoms.len();
    for a in new_atoms {
        sys.preds.intern(a);
    }
    Ok(added)
}

fn sys_lacks(a: &Atom, preds: &super::system::Predicates) -> bool {
    preds.get(a).is_none()
}
