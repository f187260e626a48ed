//! The error conditions of a program, prepared once for the search, which
//! asks at every state whether one holds: each condition's variables (the
//! lazy values it may read are looked up there, not by walking the whole
//! condition), and the locations it needs of some threads (at a state
//! elsewhere it is false, and is not evaluated). A race check's conditions
//! are large disjunctions over pairs of access locations: most states are
//! at none of them.

use crate::interp::State;
use crate::ir::{Cond, LocId, ThreadId, VarId};

/// One error condition and what the search reads of it first.
pub(super) struct ErrorCondition<'a> {
    pub cond: &'a Cond,
    /// The variables it reads, each once.
    pub vars: Vec<VarId>,
    /// Necessary for it to hold: each thread listed is at one of its
    /// locations (sorted).
    needs: Vec<(ThreadId, Vec<LocId>)>,
}

impl<'a> ErrorCondition<'a> {
    pub fn new(cond: &'a Cond) -> Self {
        let mut vars = Vec::new();
        cond.for_each_var(&mut |v| {
            if !vars.contains(&v) {
                vars.push(v);
            }
        });
        ErrorCondition {
            cond,
            vars,
            needs: needs(cond),
        }
    }

    /// Whether the condition may hold in `state` (false: it does not).
    pub fn possible(&self, state: &State) -> bool {
        self.needs
            .iter()
            .all(|(t, locs)| locs.binary_search(&state.locs[t.index()]).is_ok())
    }
}

/// Location sets that every state satisfying `c` meets: per thread listed,
/// its location is in the set. Sound by induction on `c`: a location test
/// needs its location; a conjunction what either side needs (both hold;
/// a thread both constrain is in both sets, so in their intersection); a
/// disjunction, for a thread both sides constrain, the union of their sets
/// (one side holds, so its set has the thread's location); anything else
/// needs nothing.
fn needs(c: &Cond) -> Vec<(ThreadId, Vec<LocId>)> {
    match c {
        Cond::At(t, l) => vec![(*t, vec![*l])],
        Cond::And(a, b) => {
            let mut out = needs(a);
            for (t, locs) in needs(b) {
                match out.iter_mut().find(|(u, _)| *u == t) {
                    Some((_, mine)) => mine.retain(|l| locs.binary_search(l).is_ok()),
                    None => out.push((t, locs)),
                }
            }
            out
        }
        Cond::Or(a, b) => {
            let right = needs(b);
            needs(a)
                .into_iter()
                .filter_map(|(t, mut locs)| {
                    let (_, theirs) = right.iter().find(|(u, _)| *u == t)?;
                    locs.extend(theirs);
                    locs.sort_unstable();
                    locs.dedup();
                    Some((t, locs))
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{CmpOp, Term};

    fn at(t: usize, l: usize) -> Cond {
        Cond::At(ThreadId::new(t), LocId::new(l))
    }

    fn and(a: Cond, b: Cond) -> Cond {
        Cond::And(Box::new(a), Box::new(b))
    }

    fn or(a: Cond, b: Cond) -> Cond {
        Cond::Or(Box::new(a), Box::new(b))
    }

    fn state(locs: &[usize]) -> State {
        State {
            locs: locs.iter().map(|&l| LocId::new(l)).collect(),
            vals: vec![0],
            arrays: Vec::new(),
        }
    }

    #[test]
    fn a_race_condition_needs_both_access_locations() {
        // (t0@1 || t0@2) && t1@3 && x == 0
        let x = Cond::Cmp(CmpOp::Eq, Term::Var(VarId::new(0)), Term::Const(0));
        let c = and(and(or(at(0, 1), at(0, 2)), at(1, 3)), x);
        let e = ErrorCondition::new(&c);
        assert_eq!(e.vars, vec![VarId::new(0)]);
        assert!(e.possible(&state(&[1, 3])));
        assert!(e.possible(&state(&[2, 3])));
        assert!(!e.possible(&state(&[0, 3])));
        assert!(!e.possible(&state(&[1, 4])));
    }

    #[test]
    fn a_disjunct_without_the_thread_needs_nothing_of_it() {
        // t0@1 || t1@2: either thread may be anywhere.
        let c = or(at(0, 1), at(1, 2));
        let e = ErrorCondition::new(&c);
        assert!(e.possible(&state(&[0, 0])));
        // !t0@1 needs nothing; t0@1 && t0@2 nothing possible.
        let not = Cond::Not(Box::new(at(0, 1)));
        assert!(ErrorCondition::new(&not).possible(&state(&[1, 0])));
        let contradiction = and(at(0, 1), at(0, 2));
        let both = ErrorCondition::new(&contradiction);
        assert!(!both.possible(&state(&[1, 0])));
        assert!(!both.possible(&state(&[2, 0])));
    }
}
