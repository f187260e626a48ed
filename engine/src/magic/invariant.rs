//! The invariant of a safe verdict, for the certificate: per tuple of
//! thread locations, the disjunction over the reachable composed states of
//! the shared values and of the predicate states in each thread's block
//! (its internal steps included). It is inductive because every
//! abstraction over-approximates (SOUNDNESS.md, "MAGIC"); the checker
//! decides it.

use super::components::Components;
use super::compose::Global;
use super::predabs::tau_closure;
use super::Level;
use crate::certify::build::literal;
use crate::certify::Invariant;
use crate::ir::{CmpOp, Cond, LocId, Term};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Most conjuncts of an invariant.
const MAX_CONJUNCTS: usize = 500_000;

/// Per block of a thread's partition: the location and cube of each of its
/// predicate states.
type Cubes = HashMap<usize, Vec<(LocId, Vec<Cond>)>>;

/// The invariant of the reachable composed states `reach`; `None` when it
/// is too large or a predicate has no condition form.
pub(super) fn invariants(
    comps: &Components,
    levels: &[Level],
    reach: &[Global],
) -> Option<Vec<Invariant>> {
    let per_block: Vec<Cubes> = levels
        .iter()
        .enumerate()
        .map(|(i, level)| block_cubes(comps, i, level))
        .collect::<Option<_>>()?;
    let mut by_tuple: HashMap<Vec<LocId>, Vec<Vec<Cond>>> = HashMap::new();
    let mut size = 0usize;
    for g in reach {
        for (locs, conj) in tuples(comps, &per_block, g)? {
            size += conj.len().max(1);
            if size > MAX_CONJUNCTS {
                return None;
            }
            by_tuple.entry(locs).or_default().push(conj);
        }
    }
    let mut out: Vec<Invariant> = by_tuple
        .into_iter()
        .map(|(locs, dnf)| {
            let mut seen = HashSet::new();
            let dnf = dnf.into_iter().filter(|c| seen.insert(c.clone())).collect();
            Invariant {
                locs,
                blocks: vec![dnf],
            }
        })
        .collect();
    out.sort_by(|a, b| a.locs.cmp(&b.locs));
    Some(out)
}

/// The cubes of thread `i`'s blocks: the predicate states of each block's
/// members and what internal steps reach from them.
fn block_cubes(comps: &Components, i: usize, level: &Level) -> Option<Cubes> {
    let comp = &comps.threads[i];
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for (q, &b) in level.partition.block.iter().enumerate() {
        let start = match q {
            0 => level.abs.initial.clone(),
            _ => vec![q - 1],
        };
        members.entry(b).or_default().extend(start);
    }
    let mut out = HashMap::new();
    for (b, start) in members {
        let states: BTreeSet<usize> = tau_closure(&level.abs, comp, &start).into_iter().collect();
        let mut cubes = Vec::new();
        for s in states {
            let a = &level.abs.states[s];
            let literals = level.preds.iter().zip(&a.bits);
            let cube: Option<Vec<Cond>> = literals.map(|(p, &v)| literal(p, v)).collect();
            cubes.push((a.loc, cube?));
        }
        out.insert(b, cubes);
    }
    Some(out)
}

/// The location tuples and conjunctions of one composed state.
fn tuples(
    comps: &Components,
    per_block: &[Cubes],
    g: &Global,
) -> Option<Vec<(Vec<LocId>, Vec<Cond>)>> {
    let shared: Vec<Cond> = comps
        .shared
        .iter()
        .zip(&g.values)
        .filter_map(|(s, &k)| Some(Cond::Cmp(CmpOp::Eq, Term::Var(s.var?), Term::Const(k))))
        .collect();
    let mut partial: Vec<(Vec<LocId>, Vec<Cond>)> = vec![(Vec::new(), shared)];
    for (i, &b) in g.blocks.iter().enumerate() {
        let options = &per_block[i][&b];
        let mut next = Vec::with_capacity(partial.len() * options.len());
        for (locs, conj) in &partial {
            for (l, cube) in options {
                let mut locs = locs.clone();
                locs.push(*l);
                let mut conj = conj.clone();
                conj.extend(cube.iter().cloned());
                next.push((locs, conj));
            }
        }
        partial = next;
        if partial.len() > MAX_CONJUNCTS {
            return None;
        }
    }
    Some(partial)
}
