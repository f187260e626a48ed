//! Candidates from guards ([`candidates`]): what a step's guard says of a
//! variable the step keeps holds where it goes, and chained through the
//! step's tuple's candidates of two variables, of others too.

use std::collections::{BTreeSet, HashMap};

use super::{Candidate, Form, Stop, Tuples, MAX_CANDIDATES};
use crate::ir::{CmpOp, Cond, Program, Term, VarId};

/// How many candidates of two variables a guard's bound is chained
/// through ([`candidates`]), and most bounds derived per step.
const GUARD_CHAIN: usize = 3;
const GUARD_BOUNDS: usize = 256;

/// More candidates: a bound `x op k` that a step's guard states (a
/// conjunct) of a variable the step does not assign holds where the step
/// goes (`i < n` of a loop's test, at the loop's head, where the runs
/// never came with large values); and with a candidate `±x + b·y <= c` of
/// the step's tuple that cancels `x`, the bound `b·y <= k + c`, and so on
/// (past a join loop that ran 10,000 times, `i >= 10000`, `i - joined <=
/// 0` and `joined - finished <= 0` give `finished >= 10000` where the step
/// resets `i` and `joined`; into tuples without samples only). Only
/// proposed, like the others.
pub(super) fn candidates(
    program: &Program,
    forms: &[Form],
    tuples: &Tuples,
    form_index: &HashMap<Form, usize>,
    sampled: &[bool],
    stop: &Stop,
    cands: &mut [BTreeSet<Candidate>],
) -> Result<(), String> {
    for (i, steps) in tuples.steps.iter().enumerate() {
        stop.check()?;
        // Per term `a·x`, the tuple's candidates `a·x + b·y <= c` (built
        // when a step goes to a tuple no run reached).
        let mut pairs: Option<TwoVariable> = None;
        for &(id, j) in steps {
            let tr = program.transition(id);
            let kept = |v: usize| tr.assigns.iter().all(|a| a.var.index() != v);
            let mut bounds = Vec::new();
            guard_bounds(&tr.guard, &mut bounds);
            if bounds.is_empty() {
                continue;
            }
            // The guard's bounds, and what they give with the tuple's
            // candidates of two variables, a few steps deep: only into
            // tuples no run reached (elsewhere the samples propose such
            // bounds, and more candidates cost time).
            let mut known: BTreeSet<(usize, i128, i128)> = bounds
                .iter()
                .map(|&(x, sign, k)| (x.index(), sign, k))
                .collect();
            if !sampled[j] {
                let pairs = pairs.get_or_insert_with(|| two_variable(forms, &cands[i]));
                let mut frontier: Vec<(usize, i128, i128)> = known.iter().copied().collect();
                for _ in 0..GUARD_CHAIN {
                    let mut next = Vec::new();
                    for &(x, sign, k) in &frontier {
                        for &(w, b, c) in pairs.get(&(x, -sign)).into_iter().flatten() {
                            let derived = (w, b, k + c);
                            if known.len() < GUARD_BOUNDS && known.insert(derived) {
                                next.push(derived);
                            }
                        }
                    }
                    frontier = next;
                }
            }
            let fits = |k: i128| i64::try_from(k).is_ok();
            for (x, sign, k) in known.into_iter().filter(|&(x, _, k)| kept(x) && fits(k)) {
                if cands[j].len() >= MAX_CANDIDATES {
                    break;
                }
                if let Some(&form) = form_index.get(&vec![(x, sign)]) {
                    cands[j].insert(Candidate { form, bound: k });
                }
            }
        }
    }
    Ok(())
}

/// Candidates of two variables by term: `(x, a) -> [(y, b, c)]` for
/// `a·x + b·y <= c`.
type TwoVariable = HashMap<(usize, i128), Vec<(usize, i128, i128)>>;

/// The candidates of two variables, `a·x + b·y <= c`, by each of their
/// terms: `(x, a) -> (y, b, c)` and `(y, b) -> (x, a, c)`. All of them, not
/// only the least bound of each form: the candidates are not checked yet,
/// and the least may be dropped where a weaker one holds.
fn two_variable(forms: &[Form], cands: &BTreeSet<Candidate>) -> TwoVariable {
    let mut out = TwoVariable::new();
    for c in cands {
        if let &[(x, a), (y, b)] = &forms[c.form][..] {
            out.entry((x, a)).or_default().push((y, b, c.bound));
            out.entry((y, b)).or_default().push((x, a, c.bound));
        }
    }
    out
}

/// The bounds `sign·x <= k` that the conjuncts of `c` state, each a
/// comparison of a variable with a literal.
fn guard_bounds(c: &Cond, out: &mut Vec<(VarId, i128, i128)>) {
    match c {
        Cond::And(a, b) => {
            guard_bounds(a, out);
            guard_bounds(b, out);
        }
        Cond::Cmp(op, a, b) => {
            let (x, k, op) = match (a, b) {
                (Term::Var(x), Term::Const(k)) => (*x, i128::from(*k), *op),
                (Term::Const(k), Term::Var(x)) => (*x, i128::from(*k), op.flip()),
                _ => return,
            };
            match op {
                CmpOp::Lt => out.push((x, 1, k - 1)),
                CmpOp::Le => out.push((x, 1, k)),
                CmpOp::Gt => out.push((x, -1, -k - 1)),
                CmpOp::Ge => out.push((x, -1, -k)),
                CmpOp::Eq => out.extend([(x, 1, k), (x, -1, -k)]),
                CmpOp::Ne => {}
            }
        }
        _ => {}
    }
}
