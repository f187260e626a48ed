//! The reconstruction of CEGPV: whether a counterexample of a slice leads
//! to one of the program. The counterexample's steps are transitions of the
//! program; the program taking exactly those steps, in that order, is one
//! path (the paper's translation into `P1`, with the ordering of its
//! "SMT-based optimisation" and without the valuations of the kept
//! variables): its path formula (initial constraints, each step's guard
//! and assignments, an error state after some prefix of the steps) is
//! decided by Z3, and a model is executed again by the interpreter.

use crate::bmc::{cond, loc, term, Frame};
use crate::ir::{LocId, Program, Rhs, TransId, VarId};
use crate::smt::{Smt, Space};
use crate::verdict::{Trace, Unknown, UnknownKind};
use std::time::Instant;
use z3::ast::{Bool, Int};

/// A run of `p` that takes `steps`, or a prefix of them, in order into an
/// error state, replayed by the interpreter; `Ok(None)` when there is none
/// (the counterexample is spurious); `Err` when Z3 gave no answer in time.
pub fn reconstruct(
    p: &Program,
    steps: &[TransId],
    deadline: Option<Instant>,
) -> Result<Option<Trace>, Unknown> {
    let mut path = Path::new(p, deadline);
    let mut reaches = vec![path.error()];
    for &t in steps {
        if !path.take(t) {
            break;
        }
        reaches.push(path.error());
    }
    path.smt.assert(&Bool::or(&reaches));
    let model = match path.smt.check_model() {
        Ok(Some(m)) => m,
        Ok(None) => return Ok(None),
        Err(e) => return Err(Unknown::from(e)),
    };
    let (initial, moves) = path.run(&model, &reaches).map_err(Unknown::from)?;
    Trace::execute(p, initial, &moves).map(Some).map_err(|e| {
        Unknown::new(
            UnknownKind::Internal,
            format!("a reconstructed counterexample does not replay on the program: {e}"),
        )
    })
}

/// The initial values of a run and its steps with their inputs.
type Run = (Vec<i128>, Vec<(TransId, Vec<(VarId, i128)>)>);

/// The path formula under construction.
struct Path<'a> {
    p: &'a Program,
    smt: Smt,
    /// The state after the steps taken so far.
    frame: Frame,
    /// The threads' locations (fixed along a path).
    locs: Vec<LocId>,
    /// The conjunction of the guards of the steps taken so far.
    taken: Bool,
    /// The error condition.
    error: crate::ir::Cond,
    /// Each step's transition and its inputs' symbols.
    steps: Vec<(TransId, Vec<(VarId, u32)>)>,
    /// Symbols used so far (the initial values are `0..vars`).
    symbols: u32,
}

impl<'a> Path<'a> {
    fn new(p: &'a Program, deadline: Option<Instant>) -> Path<'a> {
        let mut smt = Smt::new(deadline);
        let vars: Vec<Int> = (0..p.vars.len() as u32)
            .map(|s| smt.constant(Space::Symbolic, s))
            .collect();
        for (x, d) in vars.iter().zip(&p.vars) {
            if let Some(k) = d.init {
                smt.assert(&x.eq(Int::from_i64(k)));
            }
        }
        let locs: Vec<LocId> = p.threads.iter().map(|t| t.initial).collect();
        let frame = Frame {
            vars,
            locs: locs.iter().map(|&l| loc(l)).collect(),
            arrays: Vec::new(),
        };
        for c in &p.init {
            smt.assert(&cond(c, &frame));
        }
        Path {
            p,
            smt,
            frame,
            locs,
            taken: Bool::from_bool(true),
            error: p.error_cond(),
            steps: Vec::new(),
            symbols: p.vars.len() as u32,
        }
    }

    /// "The steps so far are taken and end in an error state."
    fn error(&self) -> Bool {
        Bool::and(&[self.taken.clone(), cond(&self.error, &self.frame)])
    }

    /// Takes transition `t`; false when its thread is not at its source.
    fn take(&mut self, t: TransId) -> bool {
        let tr = self.p.transition(t);
        let thread = tr.thread.index();
        if self.locs[thread] != tr.from {
            return false;
        }
        self.taken = Bool::and(&[self.taken.clone(), cond(&tr.guard, &self.frame)]);
        let mut vars = self.frame.vars.clone();
        let mut inputs = Vec::new();
        for a in &tr.assigns {
            vars[a.var.index()] = match &a.rhs {
                Rhs::Expr(e) => term(e, &self.frame),
                Rhs::Nondet => {
                    let s = self.symbols;
                    self.symbols += 1;
                    inputs.push((a.var, s));
                    self.smt.constant(Space::Symbolic, s)
                }
            };
        }
        self.locs[thread] = tr.to;
        self.frame = Frame {
            vars,
            locs: self.locs.iter().map(|&l| loc(l)).collect(),
            arrays: Vec::new(),
        };
        self.steps.push((t, inputs));
        true
    }

    /// The initial values and the steps, up to the first error state, of a
    /// model.
    fn run(&mut self, model: &z3::Model, reaches: &[Bool]) -> Result<Run, crate::smt::SmtError> {
        let mut initial = Vec::with_capacity(self.p.vars.len());
        for s in 0..self.p.vars.len() as u32 {
            initial.push(self.smt.value(model, Space::Symbolic, s)?);
        }
        let mut end = 0;
        for (i, r) in reaches.iter().enumerate() {
            if self.smt.bool_value(model, r)? {
                end = i;
                break;
            }
        }
        let mut moves = Vec::with_capacity(end);
        for (t, inputs) in &self.steps[..end] {
            let mut values = Vec::with_capacity(inputs.len());
            for &(v, s) in inputs {
                values.push((v, self.smt.value(model, Space::Symbolic, s)?));
            }
            moves.push((*t, values));
        }
        Ok((initial, moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program as parse;

    fn ids(p: &Program, labels: &[&str]) -> Vec<TransId> {
        labels
            .iter()
            .map(|l| TransId::new(p.transitions.iter().position(|t| t.label == *l).unwrap()))
            .collect()
    }

    const PROGRAM: &str = "var x = 0, y;
        thread p at 1 { a: 1 -> 2 do x := x + 1; b: 2 -> 3 when x == 2; }
        thread q at 1 { c: 1 -> 2 do x := x + 1; }
        error p@3 && y > 5;";

    #[test]
    fn a_feasible_order_is_reconstructed_with_its_values() {
        let p = parse(PROGRAM).unwrap();
        let trace = reconstruct(&p, &ids(&p, &["a", "c", "b"]), None)
            .unwrap()
            .expect("a run");
        assert_eq!(trace.steps.len(), 3);
        assert!(trace.initial.vals[1] > 5);
        trace.replay(&p).unwrap();
    }

    #[test]
    fn an_infeasible_order_is_spurious() {
        let p = parse(PROGRAM).unwrap();
        assert_eq!(reconstruct(&p, &ids(&p, &["a", "b"]), None), Ok(None));
    }
}
