//! Disjunctive candidates `f <= a ∨ g <= b`: where the *guard* `f <= a`
//! fails, `g <= b` holds. The invariant of a loop that fills an array
//! needs them: of the element `k` a heap array of run-time length tracks
//! (SOUNDNESS.md, "Heap arrays of run-time length"), `i <= k ∨ a_k >= 1`
//! ("the elements below `i` are set"). Proposed from the samples, like the
//! other candidates: `f` a difference of two variables (`x - y`, either
//! sign) and `a` ∈ {-1, 0} (`x < y`, `x <= y`), or one variable (either
//! sign) and `a` its least sampled value (a flag: `clean <= 0 ∨ t = 20`,
//! of a value `t` read from the tracked element); `g` one variable or a
//! difference of two (not both the guard's) of either sign that takes one
//! value at the samples where the guard fails
//! (and others where it holds), and `b` that value (both signs: `x == b`
//! where the guard fails). A difference that takes several values where
//! the guard fails, and a greater one where it holds, gets its greatest
//! value there, and 0 when that is below 0 (`i <= k ∨ a_k - m <= 0`: a
//! maximum `m` of the elements below `i`). A tuple also gets those of the
//! tuples with a step to it. Houdini
//! keeps those that are inductive, as it does the plain ones; only
//! proposed, they can make no proof wrong.

use std::collections::{BTreeSet, VecDeque};

use super::{guards, Candidate, Form};
use crate::ir::{LocId, Program, TransId};

/// Most disjunctive candidates per tuple of locations.
const MAX_PAIRS: usize = 400;
/// Most of them, on top, whose conclusion is the greatest value of a
/// difference where the guard fails ([`greatest_where_failing`]): room of
/// their own, so that they take none from the others.
const MAX_RANGED: usize = 100;

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
/// that take one value where the guard fails but not everywhere; then,
/// apart, the greatest values where the guard fails of differences that
/// take several ([`greatest_where_failing`]).
pub(super) fn pairs(forms: &[Form], points: &[Vec<i128>]) -> (BTreeSet<Pair>, BTreeSet<Pair>) {
    let (plain, mut ranged) = plain_and_ranged(forms, points);
    // Those that set the most samples apart first.
    ranged.sort_by_key(|r| std::cmp::Reverse(r.0));
    let ranged = ranged.into_iter().take(MAX_RANGED).map(|(_, p)| p);
    (plain, ranged.collect())
}

/// The plain pairs, and the ranged ones with the samples each sets apart.
fn plain_and_ranged(forms: &[Form], points: &[Vec<i128>]) -> (BTreeSet<Pair>, Vec<(usize, Pair)>) {
    let mut out = BTreeSet::new();
    // Bounds of a conclusion that varies where the guard fails: kept
    // apart (there are more of them), with the samples each sets apart.
    let mut ranged = Vec::new();
    // Conclusions: one variable, or a difference (`a_k - k`, an element
    // that holds its index).
    let conclusions: Vec<(usize, &Form)> = forms
        .iter()
        .enumerate()
        .filter(|(_, f)| is_variable(f) || is_difference(f))
        .collect();
    for (d, guard_form, a) in guards(forms, points) {
        let failing: Vec<&Vec<i128>> = points.iter().filter(|p| value(guard_form, p) > a).collect();
        if failing.is_empty() || failing.len() == points.len() {
            continue;
        }
        for &(s, conclusion) in &conclusions {
            // Not a bound of the guard's own variables.
            if conclusion
                .iter()
                .all(|&(v, _)| guard_form.iter().any(|&(w, _)| w == v))
            {
                continue;
            }
            let b = value(conclusion, failing[0]);
            let one_value = failing.iter().all(|p| value(conclusion, p) == b);
            let guard = Candidate { form: d, bound: a };
            let pair = |b| Pair {
                guard: guard.clone(),
                then: Candidate { form: s, bound: b },
            };
            if !one_value {
                if is_difference(conclusion) && is_difference(guard_form) {
                    ranged.extend(
                        greatest_where_failing(conclusion, &failing, points)
                            .into_iter()
                            .map(|(apart, b)| (apart, pair(b))),
                    );
                }
                continue;
            }
            let everywhere = points.iter().all(|p| value(conclusion, p) == b);
            if everywhere || !fits(b) {
                continue;
            }
            out.insert(pair(b));
            if out.len() >= MAX_PAIRS {
                return (out, ranged);
            }
        }
    }
    (out, ranged)
}

/// The bounds proposed for a difference `g` of two variables that takes
/// several values where the guard fails (at `failing`): its greatest value
/// there, where it is greater elsewhere, and 0 too when that lies below 0
/// (`i <= k ∨ a_k - m <= 0`: `m` is at least every element below `i`, a
/// maximum).
///
/// Each with the number of samples above it (where the guard holds): the
/// more the guard sets apart, the likelier the implication.
fn greatest_where_failing(
    g: &Form,
    failing: &[&Vec<i128>],
    points: &[Vec<i128>],
) -> Vec<(usize, i128)> {
    let greatest = failing.iter().map(|p| value(g, p)).max().unwrap_or(0);
    let above = |b: i128| points.iter().filter(|p| value(g, p) > b).count();
    let apart = above(greatest);
    if apart == 0 || !fits(greatest) {
        return Vec::new();
    }
    let mut out = vec![(apart, greatest)];
    let apart_at_0 = above(0);
    if greatest < 0 && apart_at_0 > 0 {
        out.push((apart_at_0, 0));
    }
    out
}

/// Whether a bound can be stated (certificates write 64-bit bounds).
fn fits(k: i128) -> bool {
    i64::try_from(k).is_ok()
}

/// Whether `form` is one variable of either sign.
fn is_variable(form: &Form) -> bool {
    matches!(form.as_slice(), [(_, 1)] | [(_, -1)])
}

/// Whether `form` is a difference of two variables (`x - y`).
fn is_difference(form: &Form) -> bool {
    matches!(form.as_slice(), [(_, 1), (_, -1)] | [(_, -1), (_, 1)])
}

/// The guards `f <= a` proposed: a difference `x - y` with `a` ∈ {-1, 0}
/// (`x < y`, `x <= y`: the filled prefix of an array), and one variable
/// of either sign at its least sampled value (a flag: `clean <= 0`, where
/// a value read from the tracked element is only kept when the flag is
/// set).
fn guards<'a>(
    forms: &'a [Form],
    points: &'a [Vec<i128>],
) -> impl Iterator<Item = (usize, &'a Form, i128)> + 'a {
    forms.iter().enumerate().flat_map(move |(d, f)| {
        let bounds: Vec<i128> = if is_difference(f) {
            vec![-1, 0]
        } else if is_variable(f) {
            points
                .iter()
                .map(|p| value(f, p))
                .min()
                .filter(|&a| fits(a))
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        bounds.into_iter().map(move |a| (d, f, a))
    })
}

/// The disjunctive candidates that exclude the steps into the error, per
/// tuple: of a step from it to a tuple where the error holds by the
/// locations alone, the negations of two conjuncts of the step's guard
/// ([`guards::negations`]): `clean <= 0 ∨ t = 20` excludes the step
/// `t != 20 && clean == 1` (a value read from an array and checked by a
/// later step, where the samples rarely meet the tracked element). Forms
/// as facts `form <= k`, the forms not yet indexed among them.
pub(super) fn goals(
    program: &Program,
    list: &[Vec<LocId>],
    steps: &[Vec<(TransId, usize)>],
) -> Vec<Vec<[(Form, i128); 2]>> {
    let erroneous: Vec<bool> = list
        .iter()
        .map(|locs| {
            program
                .error
                .iter()
                .any(|c| c.at_locations(locs) == Some(true))
        })
        .collect();
    steps
        .iter()
        .map(|steps| {
            let mut out = Vec::new();
            for &(id, j) in steps {
                if !erroneous[j] {
                    continue;
                }
                let sides: Vec<Vec<(Form, i128)>> = program
                    .transition(id)
                    .guard
                    .conjuncts()
                    .into_iter()
                    .map(|c| {
                        let mut n = guards::negations(c);
                        n.retain(|(_, k)| fits(*k));
                        n
                    })
                    .filter(|n| !n.is_empty())
                    .collect();
                for (a, first) in sides.iter().enumerate() {
                    for second in &sides[a + 1..] {
                        for x in first {
                            for y in second {
                                if out.len() < MAX_PAIRS {
                                    out.push([x.clone(), y.clone()]);
                                }
                            }
                        }
                    }
                }
            }
            out
        })
        .collect()
}

/// Per tuple, its own disjunctive candidates and those of the tuples
/// with a step to it; a tuple without samples passes on what it gets
/// (a tuple whose samples all lie past a loop still needs the loop's
/// implication, which its predecessor's samples show). The plain and the
/// ranged pairs ([`pairs`]) are handed on each within its own cap.
pub(super) fn with_predecessors(
    own: Vec<(BTreeSet<Pair>, BTreeSet<Pair>)>,
    sampled: &[bool],
    steps: &[Vec<(TransId, usize)>],
) -> Vec<BTreeSet<Pair>> {
    let (plain, ranged): (Vec<_>, Vec<_>) = own.into_iter().unzip();
    let mut out = handed_on(plain, sampled, steps, MAX_PAIRS);
    for (at, more) in out
        .iter_mut()
        .zip(handed_on(ranged, sampled, steps, MAX_RANGED))
    {
        at.extend(more);
    }
    out
}

/// [`with_predecessors`] of one kind of pairs, at most `cap` per tuple.
fn handed_on(
    own: Vec<BTreeSet<Pair>>,
    sampled: &[bool],
    steps: &[Vec<(TransId, usize)>],
    cap: usize,
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
                if out[i].len() >= cap {
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
        let found = pairs(&forms, &points).0;
        let guard = Candidate { form: 1, bound: 0 };
        assert!(found.contains(&Pair {
            guard: guard.clone(),
            then: Candidate { form: 2, bound: 1 },
        }));
        assert!(found.contains(&Pair {
            guard,
            then: Candidate { form: 3, bound: -1 },
        }));
        // No bound of a guard's variables on themselves.
        assert!(found.iter().all(|p| {
            let guard = &forms[p.guard.form];
            forms[p.then.form]
                .iter()
                .any(|&(v, _)| guard.iter().all(|&(w, _)| w != v))
        }));
    }

    #[test]
    fn a_maximum_of_a_filled_prefix_gives_the_implication() {
        // Variables: 0 = i, 1 = k, 2 = a_k, 3 = m. Where i > k, m is at
        // least a_k (the maximum of the elements below i); where i <= k,
        // m is anything. The difference a_k - m takes several values
        // where the guard fails: its greatest there is proposed.
        let forms: Vec<Form> = vec![vec![], vec![(0, 1), (1, -1)], vec![(2, 1), (3, -1)]];
        let points = vec![
            vec![0, 2, 7, 1],
            vec![1, 2, 7, 3],
            vec![3, 2, 7, 7],
            vec![4, 2, 7, 9],
            vec![3, 2, 5, 8],
        ];
        let found = pairs(&forms, &points).1;
        let guard = Candidate { form: 1, bound: 0 };
        assert!(found.contains(&Pair {
            guard: guard.clone(),
            then: Candidate { form: 2, bound: 0 },
        }));
        // Sampled below 0 where the guard fails: 0 as well.
        let below: Vec<Vec<i128>> = points
            .iter()
            .map(|p| vec![p[0], p[1], p[2], p[3] + i128::from(p[0] > p[1])])
            .collect();
        let found = pairs(&forms, &below).1;
        for bound in [-1, 0] {
            assert!(found.contains(&Pair {
                guard: guard.clone(),
                then: Candidate { form: 2, bound },
            }));
        }
        // Not where the difference is no greater where the guard holds
        // (m = a_k + 10 - i: the guard makes no bound).
        let lower: Vec<Vec<i128>> = points
            .iter()
            .map(|p| vec![p[0], p[1], p[2], p[2] + 10 - p[0]])
            .collect();
        assert!(pairs(&forms, &lower)
            .1
            .iter()
            .all(|p| p.then.form != 2 || p.guard != guard));
    }

    #[test]
    fn a_flag_guards_the_value_read() {
        // Variables: 0 = clean, 1 = t (read from the tracked element, or
        // any value once clean is 0). Where clean is 1, t == 20.
        let forms: Vec<Form> = vec![vec![], vec![(0, 1)], vec![(1, 1)], vec![(1, -1)]];
        let points = vec![vec![1, 20], vec![0, 3], vec![1, 20], vec![0, -8]];
        let found = pairs(&forms, &points).0;
        assert!(found.contains(&Pair {
            guard: Candidate { form: 1, bound: 0 },
            then: Candidate { form: 2, bound: 20 },
        }));
        assert!(found.contains(&Pair {
            guard: Candidate { form: 1, bound: 0 },
            then: Candidate {
                form: 3,
                bound: -20
            },
        }));
    }
}
