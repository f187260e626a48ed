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
/// returns how many were new. An atom is kept only if the inexact abstract
/// state does not decide it: an atom it decides cannot split it.
pub fn refine(
    sys: &mut System,
    smt: &mut Smt,
    ats: &Ats,
    inexact: &[Inexact],
) -> Result<usize, SmtError> {
    let mut new_atoms: Vec<Atom> = Vec::new();
    let mut kept: HashSet<Atom> = HashSet::new();
    for pair in inexact {
        let candidates = preimage_atoms(sys, smt, ats, pair)?;
        let fresh: Vec<Atom> = candidates
            .into_iter()
            .filter(|a| sys.preds.get(a).is_none() && !kept.contains(a))
            .collect();
        if fresh.is_empty() {
            continue;
        }
        let state = ats.state(pair.node).formula(sys);
        let state = smt.formula(Space::State, &state);
        smt.push();
        smt.assert(&state);
        let mut result = Ok(());
        for a in fresh {
            match undecided(smt, &a) {
                Ok(true) => {
                    kept.insert(a.clone());
                    new_atoms.push(a);
                }
                Ok(false) => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        smt.pop();
        result?;
    }
    let added = new_atoms.len();
    for a in new_atoms {
        sys.preds.intern(a);
    }
    Ok(added)
}

/// Whether both the atom and its negation are consistent with the asserted
/// abstract state.
fn undecided(smt: &mut Smt, a: &Atom) -> Result<bool, SmtError> {
    let b = smt.atom(Space::State, a);
    Ok(smt.is_sat(std::slice::from_ref(&b))? && smt.is_sat(&[b.not()])?)
}

/// The atoms of `pre(b, t)` for the executed successors `b` of the pair
/// (and the witness of its inexactness).
fn preimage_atoms(
    sys: &System,
    smt: &mut Smt,
    ats: &Ats,
    pair: &Inexact,
) -> Result<Vec<Atom>, SmtError> {
    let step = &sys.steps[pair.step];
    let post = post_predicates(sys, step);
    let mut out = Vec::new();
    step.guard
        .for_each_atom(&mut |a: &Atom| out.push(a.clone()));
    if !step.is_nondeterministic() {
        // b[e/x] has the same atoms for every b.
        out.extend(post.into_iter().filter_map(|n| match n {
            Norm::Lit(a, _) => Some(a),
            Norm::Const(_) => None,
        }));
        return Ok(out);
    }
    let mut targets: Vec<Cube> = ats
        .successors(pair.node, step.id)
        .into_iter()
        .map(|b| ats.state(b).cube.clone())
        .collect();
    targets.extend(pair.witness.clone());
    targets.sort();
    targets.dedup();
    let inputs: Vec<Sym> = (0..step.inputs).map(|k| (sys.nvars + k) as Sym).collect();
    for b in targets {
        let body = Formula::and(
            post.iter()
                .enumerate()
                .map(|(i, n)| norm_to_formula(n.clone(), b.get(i))),
        );
        let pre = match smt.eliminate_exists(Space::State, &inputs, &body) {
            Ok(f) => f,
            // Z3 left something outside the linear fragment: skip this
            // preimage (refinement may then stall, which ends in unknown).
            Err(SmtError::Unsupported(_)) => continue,
            Err(e) => return Err(e),
        };
        pre.for_each_atom(&mut |a: &Atom| {
            if a.lhs.terms.iter().all(|&(s, _)| (s as usize) < sys.nvars) {
                out.push(a.clone());
            }
        });
    }
    Ok(out)
}
