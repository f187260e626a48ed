//! Partial-order reduction for the explicit search: persistent sets built
//! from the threads' static footprints, with visibility and a cycle
//! proviso checked by the search ([`crate::explicit`]).
//!
//! In a state `s`, the transitions of thread `i` leaving its location
//! `s.locs[i]` form a **persistent set** when no transition that another
//! thread `j` can still take (any transition reachable in `j`'s control
//! graph from `s.locs[j]`) depends on one of them. Dependence is
//! syntactic: two transitions of different threads depend on each other
//! when one writes a variable the other reads or writes, or when one's
//! guard reads the location of the other's thread (`p@L`). Transitions
//! without a shared footprint cannot enable or disable each other and
//! commute, so every execution from `s` that starts with other threads'
//! steps can be reordered to start with a step of `i` (Godefroid's
//! persistent sets; Clarke, Grumberg and Peled's ample-set condition C1
//! for processes). All of `i`'s transitions at its location count, also
//! the disabled ones: another thread could otherwise enable one of them.
//!
//! A persistent set is used only when its enabled transitions are
//! **invisible**: none writes a variable the error condition reads or
//! moves its thread into or out of a location the error condition tests
//! (C2). The search expands such a set alone unless one of its successors
//! was already visited at or before the state being expanded — then it
//! expands the state fully (C3, the proviso for any exploration order in
//! which node ids grow with expansion order: on every cycle of the reduced
//! graph, the state expanded last has a successor with a smaller id, so it
//! is fully expanded). With C1–C3 every reachable error state has an error
//! state reachable in the reduced graph; SOUNDNESS.md gives the argument.

use crate::ir::{Cond, LocId, Program, ThreadId, TransId};
use fixedbitset::FixedBitSet;

/// What a set of transitions reads and writes.
#[derive(Clone, Debug)]
struct Footprint {
    /// Variables read by guards and right-hand sides.
    reads: FixedBitSet,
    /// Variables assigned.
    writes: FixedBitSet,
    /// Threads whose location a guard tests.
    reads_locs: FixedBitSet,
    /// Whether the set holds any transition (a thread with none left does
    /// not move).
    moves: bool,
}

impl Footprint {
    fn empty(vars: usize, threads: usize) -> Self {
        Footprint {
            reads: FixedBitSet::with_capacity(vars),
            writes: FixedBitSet::with_capacity(vars),
            reads_locs: FixedBitSet::with_capacity(threads),
            moves: false,
        }
    }

    fn add_transition(&mut self, program: &Program, t: TransId) {
        let tr = program.transition(t);
        self.moves = true;
        tr.guard.for_each_var(&mut |v| self.reads.insert(v.index()));
        for_each_at(&tr.guard, &mut |thread, _| {
            self.reads_locs.insert(thread.index())
        });
        for a in &tr.assigns {
            self.writes.insert(a.var.index());
            if let crate::ir::Rhs::Expr(e) = &a.rhs {
                e.for_each_var(&mut |v| self.reads.insert(v.index()));
            }
        }
    }

    fn union_with(&mut self, other: &Footprint) {
        self.reads.union_with(&other.reads);
        self.writes.union_with(&other.writes);
        self.reads_locs.union_with(&other.reads_locs);
        self.moves |= other.moves;
    }

    /// Whether no transition of `self` (thread `i`) depends on one of
    /// `other` (thread `j`, `i != j`).
    fn independent(&self, i: usize, other: &Footprint, j: usize) -> bool {
        if !self.moves || !other.moves {
            return true;
        }
        self.writes.is_disjoint(&other.reads)
            && self.writes.is_disjoint(&other.writes)
            && other.writes.is_disjoint(&self.reads)
            && !self.reads_locs.contains(j)
            && !other.reads_locs.contains(i)
    }
}

/// Calls `f` on every location test `p@L` of a condition.
fn for_each_at(c: &Cond, f: &mut impl FnMut(ThreadId, LocId)) {
    match c {
        Cond::True | Cond::False | Cond::Cmp(..) => {}
        Cond::At(t, l) => f(*t, *l),
        Cond::Not(c) => for_each_at(c, f),
        Cond::And(a, b) | Cond::Or(a, b) => {
            for_each_at(a, f);
            for_each_at(b, f);
        }
    }
}

/// The static data the choice of persistent sets needs.
#[derive(Clone, Debug)]
pub struct PersistentSets {
    /// Per thread and location: the footprint of the transitions leaving
    /// the location.
    here: Vec<Vec<Footprint>>,
    /// Per thread and location: the footprint of every transition the
    /// thread can take from the location on.
    future: Vec<Vec<Footprint>>,
    /// Per thread and location: whether a transition leaving it is visible.
    visible: Vec<Vec<bool>>,
}

impl PersistentSets {
    /// Computes the footprints of `program`'s threads.
    pub fn new(program: &Program) -> Self {
        let (vars, threads) = (program.vars.len(), program.threads.len());
        // What the error condition observes.
        let mut error_vars = FixedBitSet::with_capacity(vars);
        let mut error_locs: Vec<FixedBitSet> = program
            .threads
            .iter()
            .map(|t| FixedBitSet::with_capacity(t.locs.len()))
            .collect();
        for c in &program.error {
            c.for_each_var(&mut |v| error_vars.insert(v.index()));
            for_each_at(c, &mut |t, l| {
                if let Some(set) = error_locs.get_mut(t.index()) {
                    if l.index() < set.len() {
                        set.insert(l.index());
                    }
                }
            });
        }
        let mut here = Vec::with_capacity(threads);
        let mut future = Vec::with_capacity(threads);
        let mut visible = Vec::with_capacity(threads);
        for (ti, thread) in program.threads.iter().enumerate() {
            let n = thread.locs.len();
            let mut h = vec![Footprint::empty(vars, threads); n];
            let mut vis = vec![false; n];
            let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
            for &t in &thread.transitions {
                let tr = program.transition(t);
                let (from, to) = (tr.from.index(), tr.to.index());
                if from >= n || to >= n {
                    continue;
                }
                h[from].add_transition(program, t);
                succs[from].push(to);
                let writes_error_var = tr
                    .assigns
                    .iter()
                    .any(|a| error_vars.contains(a.var.index()));
                let moves_error_loc =
                    from != to && (error_locs[ti].contains(from) || error_locs[ti].contains(to));
                vis[from] |= writes_error_var || moves_error_loc;
            }
            future.push(reachable_union(&h, &succs));
            here.push(h);
            visible.push(vis);
        }
        PersistentSets {
            here,
            future,
            visible,
        }
    }

    /// A thread whose transitions at its location in `locs` form a
    /// persistent set of invisible transitions with at least one enabled
    /// (`enabled(i)`): its transitions alone may be expanded. `None` when
    /// no thread qualifies (the state is expanded fully). Among the
    /// candidates, the first in thread order.
    pub fn choose(&self, locs: &[LocId], mut enabled: impl FnMut(usize) -> bool) -> Option<usize> {
        let threads = self.here.len();
        (0..threads).find(|&i| {
            let li = locs[i].index();
            let Some(mine) = self.here[i].get(li) else {
                return false;
            };
            mine.moves
                && !self.visible[i][li]
                && (0..threads).all(|j| {
                    j == i
                        || self.future[j]
                            .get(locs[j].index())
                            .is_none_or(|theirs| mine.independent(i, theirs, j))
                })
                && enabled(i)
        })
    }
}

/// For each location, the union of `here` over the locations reachable
/// from it (itself included) along `succs`.
fn reachable_union(here: &[Footprint], succs: &[Vec<usize>]) -> Vec<Footprint> {
    let graph = petgraph::graph::DiGraph::<(), ()>::from_edges(
        succs
            .iter()
            .enumerate()
            .flat_map(|(from, tos)| tos.iter().map(move |&to| (from as u32, to as u32))),
    );
    // Strongly connected components in reverse topological order: every
    // component's successors come before it.
    let sccs = petgraph::algo::tarjan_scc(&graph);
    let mut out: Vec<Option<Footprint>> = vec![None; here.len()];
    for scc in &sccs {
        let mut fp = here[scc[0].index()].clone();
        for n in scc {
            fp.union_with(&here[n.index()]);
            for &s in &succs[n.index()] {
                if let Some(after) = &out[s] {
                    fp.union_with(after);
                }
            }
        }
        for n in scc {
            out[n.index()] = Some(fp.clone());
        }
    }
    // Locations without any edge are not in the graph.
    out.into_iter()
        .zip(here)
        .map(|(f, h)| f.unwrap_or_else(|| h.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        crate::parse::parse_program(src).expect("test program parses")
    }

    fn loc(p: &Program, thread: usize, name: &str) -> LocId {
        LocId::new(
            p.threads[thread]
                .locs
                .iter()
                .position(|l| l == name)
                .expect("location exists"),
        )
    }

    const TWO: &str = "
        var x = 0, a = 0, b = 0;
        thread p at L0 { L0 -> L1 do a := a + 1; L1 -> L2 do x := x + 1; }
        thread q at M0 { M0 -> M1 do b := b + 1; M1 -> M2 do x := x + 2; }
        error x == 5;
    ";

    #[test]
    fn local_steps_are_persistent() {
        let p = program(TWO);
        let sets = PersistentSets::new(&p);
        let at = |lp: &str, lq: &str| vec![loc(&p, 0, lp), loc(&p, 1, lq)];
        // p's local step at L0: q may still write x, but p's step does
        // not touch it.
        assert_eq!(sets.choose(&at("L0", "M0"), |_| true), Some(0));
        // p at L1 writes x (visible, and q will write x too); q's local
        // step at M0 is persistent.
        assert_eq!(sets.choose(&at("L1", "M0"), |_| true), Some(1));
        // Both about to write x: no reduction.
        assert_eq!(sets.choose(&at("L1", "M1"), |_| true), None);
        // A thread with nothing enabled is not chosen.
        assert_eq!(sets.choose(&at("L0", "M0"), |i| i == 1), Some(1));
    }

    #[test]
    fn a_finished_thread_does_not_interfere() {
        let p = program(
            "var x = 0;
             thread p at L0 { L0 -> L1 do x := 1; }
             thread q at M0 { M0 -> M1 do x := 2; }
             error p@L1 && q@M1 && x == 3;",
        );
        let sets = PersistentSets::new(&p);
        let (l1, m0) = (loc(&p, 0, "L1"), loc(&p, 1, "M0"));
        // p is done; q's step writes x, which the error reads: visible.
        assert_eq!(sets.choose(&[l1, m0], |_| true), None);
        let p = program(
            "var x = 0, y = 0;
             thread p at L0 { L0 -> L1 do x := 1; }
             thread q at M0 { M0 -> M1 do x := 2; M1 -> M2 do y := 1; }
             error y == 3;",
        );
        let sets = PersistentSets::new(&p);
        let (l1, m0) = (loc(&p, 0, "L1"), loc(&p, 1, "M0"));
        assert_eq!(sets.choose(&[l1, m0], |_| true), Some(1));
    }

    #[test]
    fn location_tests_are_dependences() {
        // q waits for p to finish: p's steps are not independent of q's.
        let p = program(
            "var a = 0, b = 0;
             thread p at L0 { L0 -> L1 do a := 1; }
             thread q at M0 { M0 -> M1 when p@L1 do b := 1; }
             error b == 2;",
        );
        let sets = PersistentSets::new(&p);
        let at = vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")];
        assert_eq!(sets.choose(&at, |_| true), None);
    }

    #[test]
    fn future_footprints_follow_loops() {
        // q writes x only after a loop; p's write of x at L0 is dependent
        // on q's future.
        let p = program(
            "var x = 0, c = 0, e = 0;
             thread p at L0 { L0 -> L1 do x := 1; }
             thread q at M0 { M0 -> M1 do c := c + 1; M1 -> M0 do c := c - 1; M1 -> M2 do x := 2; }
             error e == 1;",
        );
        let sets = PersistentSets::new(&p);
        let at = vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")];
        // q's loop step is local: q is chosen, not p.
        assert_eq!(sets.choose(&at, |_| true), Some(1));
        let at = vec![loc(&p, 0, "L0"), loc(&p, 1, "M2")];
        assert_eq!(sets.choose(&at, |_| true), Some(0));
    }
}
