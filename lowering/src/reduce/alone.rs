//! Where `main` runs alone: no other thread has been created, or every
//! thread created so far has been joined.
//!
//! Threads start only when a `pthread_create` edge sets their `run` flag,
//! and a join edge requires the joined thread to be at its end location,
//! which has no outgoing edges. A forward analysis over `main`'s CFG tracks
//! the threads possibly created (union at merges) and the threads surely
//! joined (intersection). Where every possibly created thread is surely
//! joined, no other thread can take a step while `main` is there, so every
//! step of `main` from such a location commutes with every step of every
//! other thread (there are none). When some other thread creates threads
//! itself, a joined thread's children may still run, and only the locations
//! before the first creation count.

use std::collections::BTreeSet;

use engine::ir::{Cond, Term, VarId};

use crate::cfg::Cfg;
use crate::lower::END;

/// Per location of `main`'s CFG: whether `main` runs alone there.
pub(super) fn alone(main: &Cfg, runs: &[Option<VarId>], nested_creation: bool) -> Vec<bool> {
    let n = main.locs.len();
    // (possibly created, surely joined) per location.
    let mut sets: Vec<Option<(BTreeSet<usize>, BTreeSet<usize>)>> = vec![None; n];
    sets[0] = Some((BTreeSet::new(), BTreeSet::new()));
    let mut changed = true;
    while changed {
        changed = false;
        for e in main.live() {
            let Some((mut created, mut joined)) = sets[e.from].clone() else {
                continue;
            };
            for (v, t) in &e.assigns {
                if let Some(k) = runs.iter().position(|r| *r == Some(*v)) {
                    if *t != Term::Const(0) {
                        created.insert(k);
                    }
                }
            }
            joins(&e.guard, &mut joined);
            let slot = &mut sets[e.to];
            let merged = match slot {
                None => (created, joined),
                Some((c, j)) => (
                    c.union(&created).copied().collect(),
                    j.intersection(&joined).copied().collect(),
                ),
            };
            if slot.as_ref() != Some(&merged) {
                *slot = Some(merged);
                changed = true;
            }
        }
    }
    sets.into_iter()
        .map(|s| match s {
            None => false,
            Some((c, _)) if nested_creation => c.is_empty(),
            Some((c, j)) => c.is_subset(&j),
        })
        .collect()
}

/// The threads whose end a condition requires (top-level `t@end` conjuncts).
fn joins(c: &Cond, out: &mut BTreeSet<usize>) {
    match c {
        Cond::And(a, b) => {
            joins(a, out);
            joins(b, out);
        }
        Cond::At(t, l) if l.index() == END => {
            out.insert(t.index());
        }
        _ => {}
    }
}
