//! The parallel composition of the action-guided abstractions with the
//! shared variables, searched for a goal (a state of the error condition):
//! each thread moves on its own actions, the shared variables' components
//! on the actions that touch them (their values before must match; they
//! take the values after). A goal is reached when its shared part holds of
//! the shared values and every thread's block enables the goal's action.

use super::actions::Moves;
use super::components::{holds_shared, Components};
use crate::linear::Sym;
use std::collections::{HashMap, VecDeque};

/// A state of the composition: every thread's block, the shared values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Global {
    pub blocks: Vec<usize>,
    pub values: Vec<i64>,
}

/// What the search found.
pub(super) enum Search {
    /// An abstract counterexample: the actions taken (each names its
    /// thread) and the goal reached.
    Counterexample { actions: Vec<usize>, goal: usize },
    /// No goal is reachable: the reachable states.
    Safe(Vec<Global>),
    /// More states than the limit.
    TooBig,
}

/// Searches the composition breadth-first (shortest counterexamples).
/// `initial[i]`: thread `i`'s initial block; `goal_base`: the action of
/// goal 0.
pub(super) fn search(
    comps: &Components,
    moves: &[Moves],
    initial: &[usize],
    goal_base: usize,
    max_states: usize,
    out_of_time: &dyn Fn() -> bool,
) -> Option<Search> {
    let start = Global {
        blocks: initial.to_vec(),
        values: comps.shared.iter().map(|s| s.init).collect(),
    };
    let mut parent: HashMap<Global, Option<(usize, usize)>> = HashMap::new();
    let mut states: Vec<Global> = Vec::new();
    let mut queue = VecDeque::new();
    parent.insert(start.clone(), None);
    states.push(start.clone());
    queue.push_back(0);
    while let Some(i) = queue.pop_front() {
        if out_of_time() {
            return None;
        }
        let g = states[i].clone();
        if let Some(goal) = reached(comps, moves, &g, goal_base) {
            return Some(Search::Counterexample {
                actions: path(&parent, &states, i),
                goal,
            });
        }
        for (t, m) in moves.iter().enumerate() {
            for (&a, targets) in m[g.blocks[t]].range(..goal_base) {
                let action = &comps.actions[a];
                if action.before.iter().any(|&(s, k)| g.values[s] != k) {
                    continue;
                }
                let mut values = g.values.clone();
                for &(s, k) in &action.after {
                    values[s] = k;
                }
                for &b in targets {
                    let mut blocks = g.blocks.clone();
                    blocks[t] = b;
                    let next = Global {
                        blocks,
                        values: values.clone(),
                    };
                    if parent.contains_key(&next) {
                        continue;
                    }
                    if states.len() >= max_states {
                        return Some(Search::TooBig);
                    }
                    parent.insert(next.clone(), Some((i, a)));
                    states.push(next);
                    queue.push_back(states.len() - 1);
                }
            }
        }
    }
    Some(Search::Safe(states))
}

/// The first goal reached in `g`, if any.
fn reached(comps: &Components, moves: &[Moves], g: &Global, goal_base: usize) -> Option<usize> {
    let value = |s: Sym| {
        comps
            .shared
            .iter()
            .position(|x| x.var.is_some_and(|v| v.0 == s))
            .map_or(0, |k| i128::from(g.values[k]))
    };
    comps
        .goal_actions
        .iter()
        .enumerate()
        .find_map(|(k, action)| {
            let here = action.values.iter().all(|&(s, x)| g.values[s] == x);
            let all = || {
                moves
                    .iter()
                    .enumerate()
                    .all(|(t, m)| m[g.blocks[t]].contains_key(&(goal_base + k)))
            };
            (here && holds_shared(&comps.goals[action.goal].shared, &value) && all()).then_some(k)
        })
}

/// The actions from the initial state to state `i`.
fn path(
    parent: &HashMap<Global, Option<(usize, usize)>>,
    states: &[Global],
    mut i: usize,
) -> Vec<usize> {
    let mut out = Vec::new();
    while let Some(Some((p, a))) = parent.get(&states[i]) {
        out.push(*a);
        i = *p;
    }
    out.reverse();
    out
}
