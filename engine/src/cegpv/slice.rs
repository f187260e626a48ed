//! The abstraction of CEGPV: a program with a subset of its variables
//! sliced away. Reads of a sliced variable become nondeterministic, writes
//! to it disappear; every run of the program, projected on the kept
//! variables, is a run of the slice (SOUNDNESS.md, "CEGPV").

use crate::ir::{Assign, Cond, Program, Rhs, Term, VarId};

/// The variables a slice keeps, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept(Vec<bool>);

impl Kept {
    /// No variable of a program of `n` variables.
    pub fn none(n: usize) -> Kept {
        Kept(vec![false; n])
    }
    /// Whether `v` is kept.
    pub fn has(&self, v: VarId) -> bool {
        self.0[v.index()]
    }
    /// Keeps `v`; whether it was sliced before.
    pub fn add(&mut self, v: VarId) -> bool {
        !std::mem::replace(&mut self.0[v.index()], true)
    }
    /// How many variables are kept.
    pub fn count(&self) -> usize {
        self.0.iter().filter(|&&k| k).count()
    }
    /// Whether every variable is kept (the slice is the program).
    pub fn all(&self) -> bool {
        self.0.iter().all(|&k| k)
    }
    /// The sliced variables.
    pub fn sliced(&self) -> impl Iterator<Item = VarId> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, &k)| !k)
            .map(|(i, _)| VarId::new(i))
    }
    fn reads_sliced_term(&self, t: &Term) -> bool {
        let mut sliced = false;
        t.for_each_var(&mut |v| sliced |= !self.has(v));
        sliced
    }
    fn reads_sliced(&self, c: &Cond) -> bool {
        let mut sliced = false;
        c.for_each_var(&mut |v| sliced |= !self.has(v));
        sliced
    }
}

/// The slice of `p` keeping `kept`: the same variables, threads,
/// locations and transitions (by index), so that its traces are sequences
/// of the program's transitions. A sliced variable starts with any value
/// and is never written or read; an assignment whose right-hand side reads
/// one assigns any value; a guard, an initial constraint or an error
/// condition is weakened (each comparison that reads a sliced variable
/// becomes the truth value that makes the condition weaker).
pub fn slice(p: &Program, kept: &Kept) -> Program {
    let mut s = p.clone();
    for v in kept.sliced() {
        s.vars[v.index()].init = None;
    }
    s.init = p.init.iter().map(|c| weaken(c, kept)).collect();
    s.error = p.error.iter().map(|c| weaken(c, kept)).collect();
    for tr in &mut s.transitions {
        tr.guard = weaken(&tr.guard, kept);
        tr.assigns = tr
            .assigns
            .iter()
            .filter(|a| kept.has(a.var))
            .map(|a| Assign {
                var: a.var,
                rhs: match &a.rhs {
                    Rhs::Expr(t) if kept.reads_sliced_term(t) => Rhs::Nondet,
                    rhs => rhs.clone(),
                },
            })
            .collect();
    }
    s
}

/// A condition implied by `c` that reads no sliced variable.
pub fn weaken(c: &Cond, kept: &Kept) -> Cond {
    if kept.reads_sliced(c) {
        relax(c, kept, true)
    } else {
        c.clone()
    }
}

/// With `weaker`, a condition implied by `c`; else one that implies `c`;
/// neither reads a sliced variable.
fn relax(c: &Cond, kept: &Kept, weaker: bool) -> Cond {
    match c {
        Cond::Cmp(..) if kept.reads_sliced(c) => {
            if weaker {
                Cond::True
            } else {
                Cond::False
            }
        }
        Cond::Not(a) => match relax(a, kept, !weaker) {
            Cond::True => Cond::False,
            Cond::False => Cond::True,
            a => Cond::Not(Box::new(a)),
        },
        Cond::And(a, b) => match (relax(a, kept, weaker), relax(b, kept, weaker)) {
            (Cond::False, _) | (_, Cond::False) => Cond::False,
            (Cond::True, x) | (x, Cond::True) => x,
            (a, b) => Cond::And(Box::new(a), Box::new(b)),
        },
        Cond::Or(a, b) => match (relax(a, kept, weaker), relax(b, kept, weaker)) {
            (Cond::True, _) | (_, Cond::True) => Cond::True,
            (Cond::False, x) | (x, Cond::False) => x,
            (a, b) => Cond::Or(Box::new(a), Box::new(b)),
        },
        c => c.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program as parse;

    const PROGRAM: &str = "var x = 0, y = 0, t = 0;
        thread p at 1 { a: 1 -> 2 do x := y + 1; b: 2 -> 3 when !(y > 0 && x == 1) do t := x; }
        init x >= 0 && y >= x;
        error t == 5 && y == 7;";

    #[test]
    fn slicing_replaces_reads_by_any_value_and_drops_writes() {
        let p = parse(PROGRAM).unwrap();
        let mut kept = Kept::none(p.vars.len());
        kept.add(p.var_by_name("x").unwrap());
        kept.add(p.var_by_name("t").unwrap());
        let s = slice(&p, &kept);
        let shown = crate::print::print_program(&s);
        assert!(shown.contains("x := *"), "{shown}");
        // Under the negation the comparison of `y` is strengthened to
        // `false`: the guard becomes `true`.
        assert!(!shown.contains("y >"), "{shown}");
        assert!(shown.contains("t == 5"), "{shown}");
        assert!(!shown.contains("y == 7"), "{shown}");
        assert!(s.var(p.var_by_name("y").unwrap()).init.is_none());
        assert_eq!(s.transitions.len(), p.transitions.len());
    }

    #[test]
    fn keeping_every_variable_keeps_the_program() {
        let p = parse(PROGRAM).unwrap();
        let mut kept = Kept::none(p.vars.len());
        for v in 0..p.vars.len() {
            kept.add(VarId::new(v));
        }
        assert!(kept.all());
        assert_eq!(slice(&p, &kept), p);
    }
}
