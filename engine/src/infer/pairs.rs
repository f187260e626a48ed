//! Disjunctive candidates `f <= a ∨ g <= b`: where the *guard* `f <= a`
//! fails, `g <= b` holds. The invariant of a loop that fills an array
//! needs them: of the element `k` a heap array of run-time length tracks
//! (SOUNDNESS.md, "Heap arrays of run-time length"), `i <= k ∨ a_k >= 1`
//! ("the elements below `i` are set"). Proposed from the samples, like the
//! other candidates: `f` a difference of two variables (`x - y`, either
//! sign) and `a` ∈ {-1, 0} (`x < y`, `x <= y`); `g` one variable or a
//! difference of two (not both the guard's) of either sign that takes one
//! value at the samples where the guard fails
//! (and others where it holds), and `b` that value (both signs: `x == b`
//! where the guard fails); a tuple also gets those of the tuples with a
//! step to it. Houdini
//! keeps those that are inductive, as it does the plain ones; only
//! proposed, they can make no proof wrong.

use std::collections::{BTreeSet, VecDeque};

use super::{Candidate, Form};

/// Most disjunctive candidates per tuple of locations.
const MAX_PAIRS: usize = 400;

/// The candidate `guard ∨ then`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Pair {
    pub guard: Candidate,
    pub then: Candidate,
}

/// The value of `form` at `point`.
fn value(form: &Form, point: &[i128]) -> i128 {
    form.iter().map(|&(v, k)| k * point[v]).sum()
}

/// The disjunctive candidates the samples `points` of a tuple suggest:
/// guards that hold at some samples and fail at others, and variables
/// that take one value where the guard fails but not everywhere.
pub(super) fn pairs(forms: &[Form], points: &[Vec<i128>]) -> BTreeSet<Pair> {
    let mut out = BTreeSet::new();
    let differences = forms
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.as_slice(), [(_, 1), (_, -1)] | [(_, -1), (_, 1)]));
    // Conclusions: one variable, or a difference (`a_k - k`, an element
    // that holds its index).
    let conclusions: Vec<(usize, &Form)> = forms
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            matches!(
                f.as_slice(),
                [(_, 1)] | [(_, -1)] | [(_, 1), (_, -1)] | [(_, -1), (_, 1)]
            )
        })
        .collect();
    for (d, difference) in differences {
        for a in [-1, 0] {
            let failing: Vec<&Vec<i128>> =
                points.iter().filter(|p| value(difference, p) > a).collect();
            if failing.is_empty() || failing.len() == points.len() {
                continue;
            }
            for &(s, conclusion) in &conclusions {
                // Not a bound of the guard's own variables.
                if conclusion
                    .iter()
                    .all(|&(v, _)| difference.iter().any(|&(w, _)| w == v))
                {
                    continue;
                }
                let b = value(conclusion, failing[0]);
                let one_value = failing.iter().all(|p| value(conclusion, p) == b);
                let everywhere = points.iter().all(|p| value(conclusion, p) == b);
                if !one_value || everywhere || i64::try_from(b).is_err() {
                    continue;
                }
                out.insert(Pair {
                    guard: Candidate { form: d, bound: a },
                    then: Candidate { form: s, bound: b },
                });
                if out.len() >= MAX_PAIRS {
                    return out;
                }
            }
        }
    }
    out
}

/// Per tuple, its own disjunctive candidates and those of the tuples
/// with a step to it; a tuple without samples passes on what it gets
/// (a tuple whose samples all lie past a loop still needs the loop's
/// implication, which its predecessor's samples show).
pub(super) fn with_predecessors(
    own: Vec<BTreeSet<Pair>>,
    sampled: &[bool],
    steps: &[Vec<(crate::ir::TransId, usize)>],
) -> Vec<BTreeSet<Pair>> {
    let mut out = own.clone();
    let mut queue: VecDeque<usize> = (0..own.len()).filter(|&k| !own[k].is_empty()).collect();
    while let Some(k) = queue.pop_front() {
        let passed: Vec<Pair> = match sampled[k] {
            true => own[k].iter().cloned().collect(),
            false => out[k].iter().cloned().collect(),
        };
        for &(_, i) in &steps[k] {
            let before = out[i].len();
            for p in &passed {
                if out[i].len() >= MAX_PAIRS {
                    break;
                }
                out[i].insert(p.clone());
            }
            if out[i].len() != before && !sampled[i] {
                queue.push_back(i);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filled_prefix_gives_the_implication() {
        // Variables: 0 = i, 1 = k, 2 = a_k. Where i > k, a_k == 1; where
        // i <= k, a_k is anything.
        let forms: Vec<Form> = vec![vec![], vec![(0, 1), (1, -1)], vec![(2, 1)], vec![(2, -1)]];
        let points = vec![
            vec![0, 2, 7],
            vec![1, 2, -3],
            vec![2, 2, 5],
            vec![3, 2, 1],
            vec![4, 2, 1],
        ];
        let found = pairs(&forms, &points);
        let guard = Candidate { form: 1, bound: 0 };
        assert!(found.contains(&Pair {
            guard: guard.clone(),
            then: Candidate { form: 2, bound: 1 },
        }));
        assert!(found.contains(&Pair {
            guard,
            then: Candidate { form: 3, bound: -1 },
        }));
        // No guard of a variable on itself.
        assert!(found.iter().all(|p| p.guard.form == 1));
    }
}
