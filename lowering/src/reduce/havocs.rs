//! Indeterminate values nobody reads: a local of `main` declared without
//! an initialiser gets any value (a havoc), but when `main` writes it
//! before reading it, and before another thread can run, that value is
//! never observed. The explicit search would still branch over it (every
//! uninitialised field of a local struct multiplies the initial states),
//! so such havocs are dropped.
//!
//! A backward liveness analysis over `main`'s CFG, restricted to the
//! variables `main` havocs while it runs alone ([`super::alone`]): an edge
//! reads the variables of its guard and right-hand sides and kills those it
//! assigns or havocs (its guard and right-hand sides read the values after
//! its havoc, so a havoc they read is never dropped); an edge from or to a location where `main` does not
//! run alone counts as reading every candidate (another thread may read it
//! from then on). The error conditions of lowered C test locations only,
//! so nothing is live where `main` stops. A havoc
//! of `v` on an edge of the alone region is dropped when `v` is dead at the
//! edge's target: on every path from there `main` writes `v` before anyone
//! can read it, so the value `v` holds until then is never observed, and
//! keeping the old value instead of any value changes no reachable
//! observation (SOUNDNESS.md, "Reduction").

use engine::ir::VarId;

use crate::cfg::Cfg;

/// Drops the havocs of `main`'s edges in the alone region whose value is
/// never read (see the module documentation); `alone[l]`: `main` runs
/// alone at location `l`. Returns how many havocs were dropped.
pub(super) fn drop_unread(main: &mut Cfg, alone: &[bool]) -> usize {
    let mut candidates: Vec<VarId> = Vec::new();
    for e in main.live() {
        if alone.get(e.from).copied().unwrap_or(false) {
            for v in &e.havoc {
                if !candidates.contains(v) {
                    candidates.push(*v);
                }
            }
        }
    }
    if candidates.is_empty() {
        return 0;
    }
    candidates.sort();
    let index = |v: VarId| candidates.binary_search(&v).ok();
    let n = main.locs.len();
    let in_region = |l: usize| alone.get(l).copied().unwrap_or(false);
    // live[l][i]: candidate i may be read before written from location l.
    let mut live = vec![vec![false; candidates.len()]; n];
    let mut changed = true;
    while changed {
        changed = false;
        for e in main.live() {
            let mut through: Vec<bool> = if in_region(e.from) && in_region(e.to) {
                let mut after = live[e.to].clone();
                for v in e.havoc.iter().chain(e.assigns.iter().map(|(v, _)| v)) {
                    if let Some(i) = index(*v) {
                        after[i] = false;
                    }
                }
                let mut reads = |v: VarId| {
                    if let Some(i) = index(v) {
                        after[i] = true;
                    }
                };
                e.for_each_read(&mut reads);
                after
            } else {
                vec![true; candidates.len()]
            };
            let slot = &mut live[e.from];
            for (s, t) in slot.iter_mut().zip(through.drain(..)) {
                if t && !*s {
                    *s = true;
                    changed = true;
                }
            }
        }
    }
    let mut dropped = 0;
    for e in main.edges.iter_mut().filter(|e| !e.dead) {
        if !(in_region(e.from) && in_region(e.to)) {
            continue;
        }
        let before = e.havoc.len();
        // The edge's own guard and right-hand sides read the havocked
        // value: such a havoc stays, as does one the edge overwrites.
        let mut used: Vec<VarId> = e.assigns.iter().map(|(v, _)| *v).collect();
        e.for_each_read(&mut |v| used.push(v));
        e.havoc
            .retain(|v| used.contains(v) || index(*v).is_none_or(|i| live[e.to][i]));
        dropped += before - e.havoc.len();
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{Edge, LocKind};
    use engine::ir::{CmpOp, Cond, Term};

    fn havoc_edge(from: usize, to: usize, v: VarId, guard: Cond) -> Edge {
        let mut e = Edge::new(from, to, guard, vec![]);
        e.havoc.push(v);
        e
    }

    #[test]
    fn a_havoc_overwritten_before_it_is_read_is_dropped() {
        // a: x := *; b: x := 5; c: y := x; all while main runs alone.
        let (x, y) = (VarId(0), VarId(1));
        let mut cfg = Cfg::default();
        let l: Vec<_> = (0..4).map(|_| cfg.loc(LocKind::Normal, None)).collect();
        cfg.edge(havoc_edge(l[0], l[1], x, Cond::True));
        cfg.edge(Edge::new(l[1], l[2], Cond::True, vec![(x, Term::Const(5))]));
        cfg.edge(Edge::new(l[2], l[3], Cond::True, vec![(y, Term::Var(x))]));
        assert_eq!(drop_unread(&mut cfg, &[true; 4]), 1);
        assert!(cfg.live().all(|e| e.havoc.is_empty()));
    }

    #[test]
    fn a_havoc_read_first_or_seen_by_other_threads_stays() {
        let x = VarId(0);
        let in_range = Cond::Cmp(CmpOp::Le, Term::Var(x), Term::Const(7));
        // Read on its own edge (the guard reads the new value), then
        // overwritten: stays.
        let mut cfg = Cfg::default();
        let l: Vec<_> = (0..3).map(|_| cfg.loc(LocKind::Normal, None)).collect();
        cfg.edge(havoc_edge(l[0], l[1], x, in_range.clone()));
        cfg.edge(Edge::new(l[1], l[2], Cond::True, vec![(x, Term::Const(5))]));
        assert_eq!(drop_unread(&mut cfg, &[true; 3]), 0);
        // Read on one path of two: stays.
        let mut cfg = Cfg::default();
        let l: Vec<_> = (0..3).map(|_| cfg.loc(LocKind::Normal, None)).collect();
        cfg.edge(havoc_edge(l[0], l[1], x, Cond::True));
        cfg.edge(Edge::new(l[1], l[2], Cond::True, vec![(x, Term::Const(5))]));
        cfg.edge(Edge::new(l[1], l[2], in_range, vec![]));
        assert_eq!(drop_unread(&mut cfg, &[true; 3]), 0);
        // Another thread runs from the havoc's target on: stays.
        let mut cfg = Cfg::default();
        let l: Vec<_> = (0..3).map(|_| cfg.loc(LocKind::Normal, None)).collect();
        cfg.edge(havoc_edge(l[0], l[1], x, Cond::True));
        cfg.edge(Edge::new(l[1], l[2], Cond::True, vec![(x, Term::Const(5))]));
        assert_eq!(drop_unread(&mut cfg, &[true, true, false]), 0);
    }
}
