//! Candidates from guards ([`candidates`]): what a step's guard says of a
//! variable the step keeps holds where it goes, and chained through the
//! step's tuple's candidates of two variables, of others too; what it says
//! of one or two variables holds where it goes of the variables the step
//! keeps, copies or increments them to, and after the steps that keep or
//! copy those.

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::{Candidate, Form, Stop, Tuples, MAX_CANDIDATES};
use crate::ir::{CmpOp, Cond, Program, Rhs, Term, Transition, VarId};
use crate::linear::{term_to_lin, Lin};

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
/// resets `i` and `joined`; into tuples without samples only). And the
/// relations of two variables of the guards, carried along the steps
/// ([`carried_relations`]: `tmp < n` then `k := tmp` gives `k - n <= -1`
/// past the step and the steps after it that keep `k` and `n`, where a few
/// samples may show only `k <= n`). Only proposed, like the others.
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
    for (j, related) in carried_relations(program, tuples, form_index, stop)?
        .into_iter()
        .enumerate()
    {
        for (f, k) in related {
            if cands[j].len() >= MAX_CANDIDATES {
                break;
            }
            cands[j].insert(Candidate {
                form: form_index[&f],
                bound: k,
            });
        }
    }
    Ok(())
}

/// Per tuple, the relations of two variables (`k - n <= -1`) and bounds
/// of one that a guard states where its step goes ([`relations`], through
/// the step's copies and increments, [`after`]) and that the steps after
/// it keep or copy, as far as they do; only of the forms `form_index` has,
/// at most [`GUARD_BOUNDS`] per tuple.
fn carried_relations(
    program: &Program,
    tuples: &Tuples,
    form_index: &HashMap<Form, usize>,
    stop: &Stop,
) -> Result<Vec<BTreeSet<(Form, i128)>>, String> {
    let mut carried = Carried {
        facts: vec![BTreeSet::new(); tuples.list.len()],
        queue: VecDeque::new(),
        form_index,
    };
    for steps in &tuples.steps {
        stop.check()?;
        for &(id, j) in steps {
            let tr = program.transition(id);
            carried.carry(tr, j, &relations(&tr.guard), true);
        }
    }
    while let Some(i) = carried.queue.pop_front() {
        stop.check()?;
        let facts: Vec<(Form, i128)> = carried.facts[i].iter().cloned().collect();
        for &(id, j) in &tuples.steps[i] {
            carried.carry(program.transition(id), j, &facts, false);
        }
    }
    Ok(carried.facts)
}

/// The state of [`carried_relations`].
struct Carried<'a> {
    facts: Vec<BTreeSet<(Form, i128)>>,
    /// The tuples whose facts grew.
    queue: VecDeque<usize>,
    form_index: &'a HashMap<Form, usize>,
}

impl Carried<'_> {
    /// Of `facts` at the start of `tr`, what the step keeps holds at `j`;
    /// `shifts`: also through increments (only for the step's own guard:
    /// around a loop, a bound carried through the increment would grow
    /// by one each time round).
    fn carry(&mut self, tr: &Transition, j: usize, facts: &[(Form, i128)], shifts: bool) {
        for (form, k) in facts {
            for (f, k) in after(tr, form, *k, shifts) {
                let room = self.facts[j].len() < GUARD_BOUNDS;
                let known = i64::try_from(k).is_ok() && self.form_index.contains_key(&f);
                if room && known && self.facts[j].insert((f, k)) {
                    self.queue.push_back(j);
                }
            }
        }
    }
}

/// The relations `±x ± y <= k` of two variables, and the bounds `±x <= k`
/// of one, that the conjuncts of `c` state (`i < n` gives `i - n <= -1`,
/// `i + 1 < 100` gives `i <= 98`), each form ordered by variable.
fn relations(c: &Cond) -> Vec<(Form, i128)> {
    let mut out = Vec::new();
    for a in c.conjuncts() {
        let Some((op, form, k)) = small_atom(a) else {
            continue;
        };
        // `form + k op 0`.
        let neg: Form = form.iter().map(|&(v, a)| (v, -a)).collect();
        match op {
            CmpOp::Lt => out.push((form, -k - 1)),
            CmpOp::Le => out.push((form, -k)),
            CmpOp::Gt => out.push((neg, k - 1)),
            CmpOp::Ge => out.push((neg, k)),
            CmpOp::Eq => out.extend([(form, -k), (neg, k)]),
            CmpOp::Ne => {}
        }
    }
    out
}

/// Facts `form <= k` that make the comparison `a` false, of one or two
/// variables (coefficients ±1, forms ordered by variable): of `x != 20`,
/// `x <= 20` and `-x <= -20` (together its negation); of `x == 1`,
/// `x <= 0` and `-x <= -2` (each a side of it).
pub(super) fn negations(a: &Cond) -> Vec<(Form, i128)> {
    let Some((op, form, k)) = small_atom(a) else {
        return Vec::new();
    };
    // `form + k op 0` fails.
    let neg: Form = form.iter().map(|&(v, a)| (v, -a)).collect();
    match op {
        CmpOp::Lt => vec![(neg, k)],
        CmpOp::Le => vec![(neg, k - 1)],
        CmpOp::Gt => vec![(form, -k)],
        CmpOp::Ge => vec![(form, -k - 1)],
        CmpOp::Eq => vec![(form, -k - 1), (neg, k - 1)],
        CmpOp::Ne => vec![(form, -k), (neg, k)],
    }
}

/// The comparison `a` as `form + k op 0`, when `form` relates one or two
/// variables with coefficients ±1 (ordered by variable).
fn small_atom(a: &Cond) -> Option<(CmpOp, Form, i128)> {
    let Cond::Cmp(op, l, r) = a else {
        return None;
    };
    let d = Term::Sub(Box::new(l.clone()), Box::new(r.clone()));
    if d.divides() {
        return None;
    }
    let Lin { terms, constant: k } = term_to_lin(&d);
    let form: Form = terms.into_iter().map(|(v, c)| (v as usize, c)).collect();
    if !(1..=2).contains(&form.len()) || form.iter().any(|&(_, a)| a.abs() != 1) {
        return None;
    }
    Some((*op, form, k))
}

/// The facts over the variables after `tr` that `form <= k` of the
/// variables before it gives, each variable of `form` kept by the step,
/// copied by it (`k := tmp`) or copied with an increment (`i := i + 1`
/// gives `i_after - 1` for `i`, when `shifts`): a relation of the guard
/// holds of them where the step goes. Forms ordered by variable.
fn after(tr: &Transition, form: &Form, k: i128, shifts: bool) -> Vec<(Form, i128)> {
    // Per variable of `form`, the variables after the step that equal it
    // plus a shift, `w = v + shift`.
    let options: Vec<Vec<(usize, i128)>> = form
        .iter()
        .map(|&(v, _)| {
            let mut to: Vec<(usize, i128)> = tr
                .assigns
                .iter()
                .filter_map(|a| {
                    let Rhs::Expr(e) = &a.rhs else { return None };
                    if e.divides() {
                        return None;
                    }
                    let Lin { terms, constant: c } = term_to_lin(e);
                    let copy = terms == [(v as u32, 1)];
                    (copy && (shifts || c == 0)).then_some((a.var.index(), c))
                })
                .collect();
            if tr.assigns.iter().all(|a| a.var.index() != v) {
                to.push((v, 0));
            }
            to
        })
        .collect();
    let mut out: Vec<(Form, i128)> = vec![(Vec::new(), k)];
    for (&(_, a), to) in form.iter().zip(&options) {
        let mut next = Vec::new();
        for (f, k) in &out {
            for &(w, shift) in to {
                if f.iter().all(|&(x, _)| x != w) {
                    let mut f = f.clone();
                    f.push((w, a));
                    // `a·v = a·w - a·shift`.
                    next.push((f, k + a * shift));
                }
            }
        }
        out = next;
    }
    for (f, _) in &mut out {
        f.sort_unstable();
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Assign, LocId, ThreadId};

    fn var(i: usize) -> Term {
        Term::Var(VarId::new(i))
    }

    #[test]
    fn a_guard_relates_two_variables() {
        // Variables: 0 = tmp, 1 = n, 2 = m. `0 <= tmp && tmp < n && n + 1 >= m`.
        let guard = Cond::And(
            Box::new(Cond::Cmp(CmpOp::Le, Term::Const(0), var(0))),
            Box::new(Cond::And(
                Box::new(Cond::Cmp(CmpOp::Lt, var(0), var(1))),
                Box::new(Cond::Cmp(
                    CmpOp::Ge,
                    Term::Add(Box::new(var(1)), Box::new(Term::Const(1))),
                    var(2),
                )),
            )),
        );
        let found = relations(&guard);
        assert_eq!(
            found,
            vec![
                // `0 - tmp <= 0`.
                (vec![(0, -1)], 0),
                (vec![(0, 1), (1, -1)], -1),
                // `n + 1 - m >= 0`: `-n + m <= 1`.
                (vec![(1, -1), (2, 1)], 1),
            ]
        );
    }

    #[test]
    fn a_relation_follows_the_copies_of_its_variables() {
        // `k := tmp, tmp := 0` keeps `n` and copies `tmp` to `k` (index 2).
        let copy = Transition {
            thread: ThreadId::new(0),
            label: "t".into(),
            explicit_label: false,
            from: LocId::new(0),
            to: LocId::new(1),
            guard: Cond::True,
            assigns: vec![
                Assign {
                    var: VarId::new(2),
                    rhs: Rhs::Expr(var(0)),
                },
                Assign {
                    var: VarId::new(0),
                    rhs: Rhs::Expr(Term::Const(0)),
                },
            ],
            stores: Vec::new(),
        };
        // `tmp - n <= -1` before: `-n + k <= -1` after (by variable).
        assert_eq!(
            after(&copy, &vec![(0, 1), (1, -1)], -1, true),
            vec![(vec![(1, -1), (2, 1)], -1)]
        );
        // `n - m <= 5`, `m` (index 3) kept: itself.
        assert_eq!(
            after(&copy, &vec![(1, 1), (3, -1)], 5, true),
            vec![(vec![(1, 1), (3, -1)], 5)]
        );
        // `tmp + m`: `k + m`.
        assert_eq!(
            after(&copy, &vec![(0, 1), (3, 1)], 0, true),
            vec![(vec![(2, 1), (3, 1)], 0)]
        );
        // `k` is assigned, from something else than a variable: nothing.
        assert!(after(&copy, &vec![(2, 1), (3, 1)], 0, true).is_empty());
    }

    #[test]
    fn a_bound_follows_an_increment() {
        // `i := i + 1` under `i + 1 < 10000`: `i <= 9998` before, `i <= 9999`
        // after; `n - i <= 0` before, `n - i <= -1` after.
        let step = Transition {
            thread: ThreadId::new(0),
            label: "t".into(),
            explicit_label: false,
            from: LocId::new(0),
            to: LocId::new(0),
            guard: Cond::True,
            assigns: vec![Assign {
                var: VarId::new(0),
                rhs: Rhs::Expr(Term::Add(Box::new(var(0)), Box::new(Term::Const(1)))),
            }],
            stores: Vec::new(),
        };
        let guard = Cond::Cmp(
            CmpOp::Lt,
            Term::Add(Box::new(var(0)), Box::new(Term::Const(1))),
            Term::Const(10000),
        );
        assert_eq!(relations(&guard), vec![(vec![(0, 1)], 9998)]);
        assert_eq!(
            after(&step, &vec![(0, 1)], 9998, true),
            vec![(vec![(0, 1)], 9999)]
        );
        assert_eq!(
            after(&step, &vec![(0, -1), (1, 1)], 0, true),
            vec![(vec![(0, -1), (1, 1)], -1)]
        );
    }

    #[test]
    fn negations_make_a_comparison_false() {
        // `x != 20` fails exactly where `x <= 20 && -x <= -20`.
        let ne = Cond::Cmp(CmpOp::Ne, var(0), Term::Const(20));
        assert_eq!(
            negations(&ne),
            vec![(vec![(0, 1)], 20), (vec![(0, -1)], -20)]
        );
        // `x == 1` fails on either side: `x <= 0` or `-x <= -2`.
        let eq = Cond::Cmp(CmpOp::Eq, var(0), Term::Const(1));
        assert_eq!(negations(&eq), vec![(vec![(0, 1)], 0), (vec![(0, -1)], -2)]);
        // `x - y < 0` fails where `y - x <= 0`.
        let lt = Cond::Cmp(CmpOp::Lt, var(0), var(1));
        assert_eq!(negations(&lt), vec![(vec![(0, -1), (1, 1)], 0)]);
        // Three variables: no candidate of that shape.
        let wide = Cond::Cmp(
            CmpOp::Le,
            Term::Add(Box::new(var(0)), Box::new(var(1))),
            var(2),
        );
        assert!(negations(&wide).is_empty());
    }
}
