//! A concrete interpreter of the IR: the reference semantics against which
//! every counterexample is replayed before it is reported.

use std::collections::BTreeMap;

use crate::ir::{ArrayId, CmpOp, Cond, LocId, Program, Rhs, Term, TransId, VarId};

/// A concrete state: the location of every thread, the value of every
/// variable and the contents of every array.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Location of each thread.
    pub locs: Vec<LocId>,
    /// Value of each variable.
    pub vals: Vec<i128>,
    /// Contents of each array (empty for programs without arrays).
    pub arrays: Vec<ArrayValue>,
}

/// The contents of an array: the elements written (or whose initial value
/// was chosen) and the value of every other element.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArrayValue {
    /// The elements known by index.
    pub cells: BTreeMap<i128, i128>,
    /// The value of every other element: the declared initial value, or
    /// `None` when the initial contents are any values (an element not in
    /// `cells` is then unknown: reading it is [`RunError::UnknownElement`]).
    pub rest: Option<i128>,
}

impl ArrayValue {
    /// The element at `index`.
    pub fn get(&self, index: i128) -> Option<i128> {
        self.cells.get(&index).copied().or(self.rest)
    }
}

/// Why a concrete run failed.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum RunError {
    /// Arithmetic left the range the interpreter can represent.
    #[error("arithmetic overflow while evaluating")]
    Overflow,
    /// A declared initial value was not respected.
    #[error("variable `{0}` must start at its declared value")]
    BadInitialValue(String),
    /// The `init` constraint does not hold.
    #[error("the initial values violate the init constraint")]
    InitViolated,
    /// The thread is not at the transition's source location.
    #[error("transition `{0}` is not at its source location")]
    WrongLocation(String),
    /// The guard is false.
    #[error("the guard of transition `{0}` is false")]
    GuardFalse(String),
    /// An input was missing or given for a variable that reads none.
    #[error("inputs of transition `{0}` do not match its `*` assignments")]
    BadInputs(String),
    /// The final state is not an error state.
    #[error("the final state does not satisfy the error condition")]
    NotAnError,
    /// A recorded value differs from the recomputed one.
    #[error("step {0}: the recorded state differs from the recomputed one")]
    Mismatch(usize),
    /// An element of an array with arbitrary initial contents was read
    /// whose initial value the run was not given.
    #[error("an element of an array is read whose initial value is not given ({0:?}, index {1})")]
    UnknownElement(ArrayId, i128),
    /// The state does not hold the program's arrays (a term read by
    /// [`eval_term`], which knows variables only, or initial contents for
    /// another number of arrays).
    #[error("the state does not hold the program's arrays")]
    NoArrays,
}

/// The value of a term over variables only (a term that reads an array is
/// [`RunError::NoArrays`]: see [`eval_term_in`]).
pub fn eval_term(t: &Term, vals: &[i128]) -> Result<i128, RunError> {
    eval(t, vals, &[])
}

/// The value of a term in a state.
pub fn eval_term_in(t: &Term, s: &State) -> Result<i128, RunError> {
    eval(t, &s.vals, &s.arrays)
}

fn eval(t: &Term, vals: &[i128], arrays: &[ArrayValue]) -> Result<i128, RunError> {
    let r = match t {
        Term::Const(k) => Some(*k as i128),
        Term::Var(v) => Some(vals[v.index()]),
        Term::Add(a, b) => eval(a, vals, arrays)?.checked_add(eval(b, vals, arrays)?),
        Term::Sub(a, b) => eval(a, vals, arrays)?.checked_sub(eval(b, vals, arrays)?),
        Term::Mul(k, a) => eval(a, vals, arrays)?.checked_mul(*k as i128),
        Term::Neg(a) => eval(a, vals, arrays)?.checked_neg(),
        Term::Div(a, k) => Some(eval(a, vals, arrays)?.div_euclid(*k as i128)),
        Term::Mod(a, k) => Some(eval(a, vals, arrays)?.rem_euclid(*k as i128)),
        Term::Nl(op, a, b) => op.apply(eval(a, vals, arrays)?, eval(b, vals, arrays)?),
        Term::Select(x, i) => {
            let i = eval(i, vals, arrays)?;
            let array = arrays.get(x.index()).ok_or(RunError::NoArrays)?;
            return array.get(i).ok_or(RunError::UnknownElement(*x, i));
        }
    };
    r.ok_or(RunError::Overflow)
}

/// The truth value of a condition.
pub fn eval_cond(c: &Cond, s: &State) -> Result<bool, RunError> {
    Ok(match c {
        Cond::True => true,
        Cond::False => false,
        Cond::Cmp(op, a, b) => {
            let (a, b) = (eval_term_in(a, s)?, eval_term_in(b, s)?);
            op.holds(a, b)
        }
        Cond::At(t, l) => s.locs[t.index()] == *l,
        Cond::Not(a) => !eval_cond(a, s)?,
        Cond::And(a, b) => eval_cond(a, s)? && eval_cond(b, s)?,
        Cond::Or(a, b) => eval_cond(a, s)? || eval_cond(b, s)?,
    })
}

/// Per variable, the initial value the program fixes: the declared one, or
/// `t` of an `init` conjunct `v == t` without variables (how the C front end
/// states initial values beyond 64-bit literals); `None`: any value.
pub fn fixed_initial_values(p: &Program) -> Vec<Option<i128>> {
    let mut out: Vec<Option<i128>> = p.vars.iter().map(|d| d.init.map(i128::from)).collect();
    for c in &p.init {
        if let Cond::Cmp(CmpOp::Eq, Term::Var(v), t) | Cond::Cmp(CmpOp::Eq, t, Term::Var(v)) = c {
            let mut closed = true;
            t.for_each_var(&mut |_| closed = false);
            if closed && out[v.index()].is_none() {
                out[v.index()] = eval_term(t, &[]).ok();
            }
        }
    }
    out
}

/// The initial state with the given variable values (arrays as declared),
/// checked against the declarations and the `init` constraints.
pub fn initial_state(p: &Program, vals: Vec<i128>) -> Result<State, RunError> {
    initial_state_with(p, vals, initial_arrays(p))
}

/// The initial state with the given variable values and array contents,
/// checked against the declarations and the `init` constraints.
pub fn initial_state_with(
    p: &Program,
    vals: Vec<i128>,
    arrays: Vec<ArrayValue>,
) -> Result<State, RunError> {
    for (v, d) in vals.iter().zip(&p.vars) {
        if d.init.is_some_and(|i| i as i128 != *v) {
            return Err(RunError::BadInitialValue(d.name.clone()));
        }
    }
    if arrays.len() != p.arrays.len() {
        return Err(RunError::NoArrays);
    }
    for (a, d) in arrays.iter().zip(&p.arrays) {
        let init = d.init.map(i128::from);
        if a.rest != init || init.is_some_and(|k| a.cells.values().any(|v| *v != k)) {
            return Err(RunError::BadInitialValue(d.name.clone()));
        }
    }
    let s = State {
        locs: p.threads.iter().map(|t| t.initial).collect(),
        vals,
        arrays,
    };
    for c in &p.init {
        if !eval_cond(c, &s)? {
            return Err(RunError::InitViolated);
        }
    }
    Ok(s)
}

/// The initial contents of the arrays as declared: an array without an
/// initial value has every element unknown.
pub fn initial_arrays(p: &Program) -> Vec<ArrayValue> {
    p.arrays
        .iter()
        .map(|a| ArrayValue {
            cells: BTreeMap::new(),
            rest: a.init.map(i128::from),
        })
        .collect()
}

/// Takes one transition; `inputs` gives the value of every `*` assignment.
pub fn step(
    p: &Program,
    s: &State,
    t: TransId,
    inputs: &[(VarId, i128)],
) -> Result<State, RunError> {
    let tr = p.transition(t);
    if s.locs[tr.thread.index()] != tr.from {
        return Err(RunError::WrongLocation(tr.label.clone()));
    }
    if !eval_cond(&tr.guard, s)? {
        return Err(RunError::GuardFalse(tr.label.clone()));
    }
    let mut next = s.clone();
    let mut used = 0;
    for a in &tr.assigns {
        next.vals[a.var.index()] = match &a.rhs {
            Rhs::Expr(e) => eval_term_in(e, s)?,
            Rhs::Nondet => {
                used += 1;
                inputs
                    .iter()
                    .find(|(v, _)| *v == a.var)
                    .map(|(_, x)| *x)
                    .ok_or_else(|| RunError::BadInputs(tr.label.clone()))?
            }
        };
    }
    if used != inputs.len() {
        return Err(RunError::BadInputs(tr.label.clone()));
    }
    let mut written = Vec::with_capacity(tr.stores.len());
    for st in &tr.stores {
        written.push((eval_term_in(&st.index, s)?, eval_term_in(&st.value, s)?));
    }
    for (st, (i, v)) in tr.stores.iter().zip(written) {
        next.arrays[st.array.index()].cells.insert(i, v);
    }
    next.locs[tr.thread.index()] = tr.to;
    Ok(next)
}

/// Whether a state satisfies the error condition.
pub fn is_error(p: &Program, s: &State) -> Result<bool, RunError> {
    for c in &p.error {
        if eval_cond(c, s)? {
            return Ok(true);
        }
    }
    Ok(false)
}
