//! Action-guided abstraction (MAGIC's second level, Section 4 and Fig. 2
//! of Chaki, Ouaknine, Yorav, Clarke): a partition of the states of an LTS
//! over actions, whose blocks are the abstract states and whose
//! transitions are existential (`u -a-> v` when some state of `u` has an
//! `a`-successor in `v`), so `L(P) ⊆ L(A)`. The first partition groups the
//! states by the actions they enable; refinement splits a block by the
//! blocks its states' successors on one action fall in, along the abstract
//! paths of a spurious trace, until the trace is no longer accepted.

use super::predabs::Visible;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A partition of the states of a [`Visible`] LTS.
#[derive(Clone, Debug)]
pub(super) struct Partition {
    /// The block of every state.
    pub block: Vec<usize>,
    /// Number of blocks.
    pub blocks: usize,
}

/// The abstract transitions: per block, per action, the target blocks.
pub(super) type Moves = Vec<BTreeMap<usize, BTreeSet<usize>>>;

impl Partition {
    /// States grouped by the set of actions they enable.
    pub fn by_enabled(lts: &Visible) -> Partition {
        let keys = lts
            .edges
            .iter()
            .map(|es| es.iter().map(|&(a, _)| a).collect::<BTreeSet<usize>>());
        Self::by_key(keys)
    }

    fn by_key<K: std::hash::Hash + Eq>(keys: impl Iterator<Item = K>) -> Partition {
        let mut ids: HashMap<K, usize> = HashMap::new();
        let block: Vec<usize> = keys
            .map(|k| {
                let n = ids.len();
                *ids.entry(k).or_insert(n)
            })
            .collect();
        Partition {
            blocks: ids.len(),
            block,
        }
    }

    /// The abstract transitions.
    pub fn moves(&self, lts: &Visible) -> Moves {
        let mut out: Moves = vec![BTreeMap::new(); self.blocks];
        for (s, es) in lts.edges.iter().enumerate() {
            for &(a, t) in es {
                out[self.block[s]]
                    .entry(a)
                    .or_default()
                    .insert(self.block[t]);
            }
        }
        out
    }

    /// `Split(S, u, a)`: the states of block `u` regrouped by the blocks
    /// of their `a`-successors; other blocks stay. Whether `u` was split.
    fn split(&mut self, lts: &Visible, u: usize, a: usize) -> bool {
        let members: Vec<usize> = (0..self.block.len())
            .filter(|&s| self.block[s] == u)
            .collect();
        let mut ids: HashMap<BTreeSet<usize>, usize> = HashMap::new();
        let mut new_block = Vec::with_capacity(members.len());
        for &s in &members {
            let succ: BTreeSet<usize> = lts.edges[s]
                .iter()
                .filter(|&&(b, _)| b == a)
                .map(|&(_, t)| self.block[t])
                .collect();
            let n = ids.len();
            new_block.push(*ids.entry(succ).or_insert(n));
        }
        if ids.len() <= 1 {
            return false;
        }
        for (&s, &k) in members.iter().zip(&new_block) {
            if k > 0 {
                self.block[s] = self.blocks + k - 1;
            }
        }
        self.blocks += ids.len() - 1;
        true
    }

    /// Fig. 2: splits blocks until the abstraction no longer accepts
    /// `trace`, which the LTS does not accept. `false` when a split made no
    /// progress (the trace is accepted by the LTS itself: a caller's
    /// error).
    pub fn refine(&mut self, lts: &Visible, trace: &[usize]) -> bool {
        while let Some(path) = self.abstract_path(lts, trace) {
            // Follow the concrete states along the abstract path until none
            // is left; split the block before that step.
            let mut reach: BTreeSet<usize> = BTreeSet::from([0]);
            let mut j = 0;
            while !reach.is_empty() {
                if j == trace.len() {
                    return false;
                }
                let a = trace[j];
                reach = reach
                    .iter()
                    .flat_map(|&s| lts.edges[s].iter())
                    .filter(|&&(b, t)| b == a && self.block[t] == path[j + 1])
                    .map(|&(_, t)| t)
                    .collect();
                j += 1;
            }
            if !self.split(lts, path[j - 1], trace[j - 1]) {
                return false;
            }
        }
        true
    }

    /// An abstract path from the initial block accepting `trace`: its
    /// blocks, `trace.len() + 1` of them.
    fn abstract_path(&self, lts: &Visible, trace: &[usize]) -> Option<Vec<usize>> {
        let moves = self.moves(lts);
        let mut layers: Vec<BTreeMap<usize, usize>> = vec![BTreeMap::from([(self.block[0], 0)])];
        for &a in trace {
            let mut next = BTreeMap::new();
            for &u in layers.last()?.keys() {
                for &v in moves[u].get(&a).into_iter().flatten() {
                    next.entry(v).or_insert(u);
                }
            }
            if next.is_empty() {
                return None;
            }
            layers.push(next);
        }
        let mut u = *layers.last()?.keys().next()?;
        let mut path = vec![u];
        for layer in layers.iter().skip(1).rev() {
            u = layer[&u];
            path.push(u);
        }
        path.reverse();
        Some(path)
    }
}

/// Whether the LTS accepts `trace` from its initial state.
pub(super) fn accepts(lts: &Visible, trace: &[usize]) -> bool {
    let mut reach: BTreeSet<usize> = BTreeSet::from([0]);
    for &a in trace {
        reach = reach
            .iter()
            .flat_map(|&s| lts.edges[s].iter())
            .filter(|&&(b, _)| b == a)
            .map(|&(_, t)| t)
            .collect();
        if reach.is_empty() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `0 -a-> 1 -b-> 2` and `0 -a-> 3 -c-> 4`: the traces `a b` and
    /// `a c`, not `a b c`.
    fn lts() -> Visible {
        Visible {
            edges: vec![
                vec![(0, 1), (0, 3)],
                vec![(1, 2)],
                vec![],
                vec![(2, 4)],
                vec![],
            ],
        }
    }

    #[test]
    fn first_partition_groups_by_enabled_actions() {
        let p = Partition::by_enabled(&lts());
        assert_eq!(p.blocks, 4);
        assert_eq!(p.block[2], p.block[4]);
    }

    #[test]
    fn refinement_removes_a_spurious_trace_and_keeps_the_language() {
        let l = lts();
        // Merge everything but the initial state: `a b c` is accepted.
        let mut p = Partition {
            block: vec![0, 1, 1, 1, 1],
            blocks: 2,
        };
        let spurious = [0, 1, 2];
        assert!(!accepts(&l, &spurious));
        assert!(p.abstract_path(&l, &spurious).is_some());
        assert!(p.refine(&l, &spurious));
        assert!(p.abstract_path(&l, &spurious).is_none());
        for real in [&[0, 1][..], &[0, 2][..]] {
            assert!(p.abstract_path(&l, real).is_some());
        }
    }
}
