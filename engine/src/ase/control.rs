//! The control-flow proof: a program none of whose error conditions can
//! hold at any tuple of thread locations reachable in its control flow.
//!
//! The tuples are explored from the initial one by every transition whose
//! guard is not false at the tuple, where only location tests and literals
//! are evaluated (comparisons of variables may be either way: three-valued
//! logic). That over-approximates the reachable tuples, so when every error
//! condition is false at each of them in the same logic, no reachable state
//! is an error. The tuples, each with the invariant `true`, are an
//! inductive invariant: [`proof`] gives them as abstract states without
//! predicates, and the certificate checker re-checks them like any other.
//!
//! This decides programs whose errors the lowering's value analysis has
//! already removed (a counter system with `error false`), on which the
//! refinement loop would search for an invariant it does not need.

use indexmap::IndexSet;

use crate::ir::{LocId, Program};
use crate::verdict::ProofStates;

/// Most tuples explored before giving up (the proof is then left to the
/// refinement loop).
const MAX_TUPLES: usize = 100_000;

/// The control-flow proof of `program`, when there is one: the reachable
/// tuples as abstract states without predicates.
pub fn proof(program: &Program) -> Option<ProofStates> {
    let initial: Vec<LocId> = program.threads.iter().map(|t| t.initial).collect();
    // Breadth first: the set's order is the queue.
    let mut seen: IndexSet<Vec<LocId>> = IndexSet::from([initial]);
    let mut next_index = 0;
    while let Some(locs) = seen.get_index(next_index).cloned() {
        next_index += 1;
        if program
            .error
            .iter()
            .any(|e| e.at_locations(&locs) != Some(false))
        {
            return None;
        }
        for (_, next) in program.location_steps(&locs) {
            seen.insert(next);
            if seen.len() > MAX_TUPLES {
                return None;
            }
        }
    }
    Some(ProofStates {
        predicates: Vec::new(),
        states: seen.into_iter().map(|locs| (locs, Vec::new())).collect(),
        fragment: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program as parse;

    #[test]
    fn an_error_location_without_a_path_is_proved_by_control_flow() {
        let p = parse(
            "var x = 0;\n\
             thread a at s { s -> t when x > 0 do x := x + 1; t -> s; }\n\
             thread b at s { s -> s do x := x - 1; u -> e; }\n\
             error b@e;\n",
        )
        .unwrap();
        let proof = proof(&p).expect("no path reaches b@e");
        assert_eq!(proof.states.len(), 2);
        assert!(proof.predicates.is_empty());
    }

    #[test]
    fn a_data_condition_or_a_reachable_error_location_is_left_to_the_engines() {
        let reachable = parse(
            "var x = 0;\n\
             thread a at s { s -> e when x > 5; }\n\
             error a@e;\n",
        )
        .unwrap();
        assert!(proof(&reachable).is_none());
        let data = parse(
            "var x = 0;\n\
             thread a at s { s -> s do x := x + 1; }\n\
             error x > 3;\n",
        )
        .unwrap();
        assert!(proof(&data).is_none());
    }

    #[test]
    fn location_tests_in_guards_cut_the_control_flow() {
        // b only moves to e when a is at t, which a never reaches.
        let p = parse(
            "var x = 0;\n\
             thread a at s { s -> s do x := 1; t -> s; }\n\
             thread b at s { s -> e when a@t && x == 1; }\n\
             error b@e;\n",
        )
        .unwrap();
        assert!(proof(&p).is_some());
    }
}
