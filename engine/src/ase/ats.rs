//! The abstract transition system built by symbolic execution: abstract
//! states (thread locations + a cube over the predicates) and the abstract
//! transitions that were actually executed. It under-approximates the
//! abstraction of the program.

use super::hash::{FxHashMap, FxHashSet};
use super::system::{PredId, System};
use crate::ir::{LocId, TransId};
use crate::linear::{Atom, Formula};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

/// A truth assignment to the predicates (bit `i` = predicate `i`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cube(Box<[u64]>);

impl Cube {
    /// All predicates false.
    pub fn new(npreds: usize) -> Cube {
        Cube(vec![0; npreds.div_ceil(64)].into_boxed_slice())
    }
    /// The value of predicate `i`.
    pub fn get(&self, i: PredId) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    /// Sets the value of predicate `i`.
    pub fn set(&mut self, i: PredId, v: bool) {
        if v {
            self.0[i / 64] |= 1 << (i % 64);
        } else {
            self.0[i / 64] &= !(1 << (i % 64));
        }
    }
    /// The cube as a formula over the state variables.
    pub fn formula(&self, preds: &[Atom]) -> Formula<Atom> {
        Formula::and(
            preds
                .iter()
                .enumerate()
                .map(|(i, a)| Formula::Lit(a.clone(), self.get(i))),
        )
    }
    /// Evaluates a formula over predicates.
    pub fn eval(&self, f: &Formula<PredId>, locs: &[LocId]) -> bool {
        f.eval(&|&p| self.get(p), locs)
    }
}

/// An abstract state: where every thread is, and which predicates hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsState {
    /// Location of each thread.
    pub locs: Box<[LocId]>,
    /// The predicates' values.
    pub cube: Cube,
}

impl AbsState {
    /// The data part as a formula over the state variables.
    pub fn formula(&self, sys: &System) -> Formula<Atom> {
        self.cube.formula(sys.preds.atoms())
    }
}

/// The abstract transition system of one iteration.
#[derive(Default)]
pub struct Ats {
    /// States and executed transitions (edge weight: the program transition).
    pub graph: DiGraph<AbsState, TransId>,
    index: FxHashMap<AbsState, NodeIndex>,
    edges: FxHashSet<(NodeIndex, TransId, NodeIndex)>,
    /// Abstract states of initial symbolic states.
    pub initial: Vec<NodeIndex>,
}

impl Ats {
    /// The node of an abstract state, added if new.
    pub fn node(&mut self, a: &AbsState) -> NodeIndex {
        if let Some(&n) = self.index.get(a) {
            return n;
        }
        let n = self.graph.add_node(a.clone());
        self.index.insert(a.clone(), n);
        n
    }
    /// Records an executed abstract transition.
    pub fn edge(&mut self, from: NodeIndex, t: TransId, to: NodeIndex) {
        if self.edges.insert((from, t, to)) {
            self.graph.add_edge(from, to, t);
        }
    }
    /// The state of a node.
    pub fn state(&self, n: NodeIndex) -> &AbsState {
        &self.graph[n]
    }
    /// Number of abstract states.
    pub fn len(&self) -> usize {
        self.graph.node_count()
    }
    /// Whether there are no abstract states.
    pub fn is_empty(&self) -> bool {
        self.graph.node_count() == 0
    }
    /// The successors of `n` by program transition `t`, in a fixed order.
    pub fn successors(&self, n: NodeIndex, t: TransId) -> Vec<NodeIndex> {
        let mut v: Vec<NodeIndex> = self
            .graph
            .edges(n)
            .filter(|e| *e.weight() == t)
            .map(|e| e.target())
            .collect();
        v.sort();
        v
    }

    /// `inf`: the states on a cycle (in a strongly connected component with
    /// more than one state, or with a self-loop). Every state at which a
    /// path was cut by abstract matching is one of them.
    pub fn on_cycles(&self) -> Vec<NodeIndex> {
        let mut out = Vec::new();
        for scc in petgraph::algo::tarjan_scc(&self.graph) {
            if scc.len() > 1 || self.graph.contains_edge(scc[0], scc[0]) {
                out.extend(scc);
            }
        }
        out.sort();
        out
    }

    /// The states reachable from `roots` (including them), sorted.
    pub fn reachable_from(&self, roots: &[NodeIndex]) -> Vec<NodeIndex> {
        let mut seen = vec![false; self.graph.node_count()];
        let mut stack: Vec<NodeIndex> = roots.to_vec();
        for r in roots {
            seen[r.index()] = true;
        }
        while let Some(n) = stack.pop() {
            for m in self.graph.neighbors(n) {
                if !seen[m.index()] {
                    seen[m.index()] = true;
                    stack.push(m);
                }
            }
        }
        (0..seen.len())
            .filter(|&i| seen[i])
            .map(NodeIndex::new)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(loc: u32) -> AbsState {
        AbsState {
            locs: vec![LocId(loc)].into_boxed_slice(),
            cube: Cube::new(1),
        }
    }

    #[test]
    fn cycles_and_reachability() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3, 0 -> 4, 5 -> 5
        let mut ats = Ats::default();
        let n: Vec<_> = (0..6).map(|i| ats.node(&state(i))).collect();
        for (a, b) in [(0, 1), (1, 2), (2, 1), (2, 3), (0, 4), (5, 5)] {
            ats.edge(n[a], TransId(0), n[b]);
        }
        assert_eq!(ats.on_cycles(), vec![n[1], n[2], n[5]]);
        assert_eq!(
            ats.reachable_from(&ats.on_cycles()),
            vec![n[1], n[2], n[3], n[5]]
        );
        // Interning: the same abstract state is the same node, edges are sets.
        assert_eq!(ats.node(&state(3)), n[3]);
        ats.edge(n[0], TransId(0), n[1]);
        assert_eq!(ats.graph.edge_count(), 6);
    }

    #[test]
    fn cube_bits() {
        let mut c = Cube::new(130);
        c.set(0, true);
        c.set(129, true);
        assert!(c.get(0) && c.get(129) && !c.get(64));
        c.set(0, false);
        assert!(!c.get(0));
    }
}
