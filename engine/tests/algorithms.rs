//! Unit tests of the tricky parts of ASE on small hand-built inputs:
//! SPLITSTATE, preimages and strongest postconditions, the safe-fragment and
//! inductive-invariant checks on hand-built abstract transition systems.

use engine::ase::ats::{AbsState, Ats, Cube};
use engine::ase::checks::{inductive_invariant, post_predicates, safe_fragment};
use engine::ase::symexec::{split_state, PathCond};
use engine::ase::system::System;
use engine::ir::{LocId, TransId};
use engine::linear::{Atom, Formula, Lin, Norm};
use engine::parse::parse_program;
use engine::smt::{Smt, Space};
use std::collections::HashSet;

fn system(src: &str) -> System {
    System::new(&parse_program(src).expect("test program parses"))
}

fn names(sys: &System) -> Vec<String> {
    let name = |s: u32| ["x", "y", "z"][s as usize].to_string();
    sys.preds
        .atoms()
        .iter()
        .map(|a| a.display(&name).to_string())
        .collect()
}

fn cube(bits: &[bool]) -> Cube {
    let mut c = Cube::new(bits.len());
    for (i, b) in bits.iter().enumerate() {
        c.set(i, *b);
    }
    c
}

#[test]
fn initial_predicates_are_the_guard_and_error_atoms() {
    let sys = system(
        "var x, y;
         thread p at a { a -> b when x < y && x >= 0; b -> a when y != 3; }
         error p@b && x > 5;",
    );
    assert_eq!(
        names(&sys),
        vec!["x - y <= -1", "x <= -1", "y == 3", "x <= 5"]
    );
}

#[test]
fn split_state_enumerates_exactly_the_consistent_minterms() {
    // Predicates x <= 0 and y <= 0; state x = s0, y = s0 + 1.
    let sys = system("var x, y; thread p at a { a -> a when x <= 0 && y <= 0; } error false;");
    let mut smt = Smt::new(None);
    let vals = [Lin::sym(0), Lin::sym(0).add_scaled(1, &Lin::constant(1))];
    let pieces = split_state(&sys, &mut smt, &vals, &PathCond::default()).unwrap();
    let cubes: Vec<(bool, bool)> = pieces.iter().map(|(c, _)| (c.get(0), c.get(1))).collect();
    // x <= 0 && y > 0 needs s0 = 0; both <= 0 needs s0 <= -1; both > 0 needs
    // s0 >= 1; x > 0 && y <= 0 is impossible.
    assert_eq!(cubes.len(), 3, "{cubes:?}");
    for expected in [(true, true), (true, false), (false, false)] {
        assert!(cubes.contains(&expected), "{cubes:?}");
    }
    // Each piece's path condition pins it to its minterm.
    for (c, pc) in &pieces {
        smt.push();
        pc.assert_in(&mut smt);
        let x_le_0 = smt.atom(
            Space::Symbolic,
            &Atom {
                rel: engine::linear::Rel::Le,
                lhs: Lin::sym(0),
                rhs: 0,
            },
        );
        let wrong = if c.get(0) { x_le_0.not() } else { x_le_0 };
        smt.assert(&wrong);
        assert!(!smt.check().unwrap());
        smt.pop();
    }
}

#[test]
fn split_state_of_a_concrete_state_needs_no_prover() {
    let sys =
        system("var x = 0, y = 1; thread p at a { a -> a when x <= 0 && y <= 0; } error false;");
    let mut smt = Smt::new(None);
    let pieces = split_state(
        &sys,
        &mut smt,
        &[Lin::constant(0), Lin::constant(1)],
        &PathCond::default(),
    )
    .unwrap();
    assert_eq!(pieces.len(), 1);
    assert_eq!(pieces[0].0, cube(&[true, false]));
    assert_eq!(smt.queries, 0);
}

#[test]
fn preimage_substitutes_the_update() {
    // pre(x <= 5, x := x + y) is x + y <= 5; pre(y == 3, x := ...) is y == 3.
    let sys = system(
        "var x, y; thread p at a { a -> a when x <= 5 && y == 3 do x := x + y; } error false;",
    );
    let post = post_predicates(&sys, &sys.steps[0]);
    let name = |s: u32| ["x", "y"][s as usize].to_string();
    let shown: Vec<String> = post
        .iter()
        .map(|n| match n {
            Norm::Lit(a, pos) => format!("{}{}", if *pos { "" } else { "!" }, a.display(&name)),
            Norm::Const(b) => b.to_string(),
        })
        .collect();
    assert_eq!(shown, vec!["x + y <= 5", "y == 3"]);
}

#[test]
fn preimage_of_an_input_assignment_eliminates_the_input() {
    // pre(x <= y, x := *) = ∃v. v <= y = true.
    let sys = system("var x, y; thread p at a { a -> a when x <= y do x := *; } error false;");
    let post = post_predicates(&sys, &sys.steps[0]);
    let Norm::Lit(a, pos) = &post[0] else {
        panic!("{post:?}")
    };
    assert!(a.lhs.mentions(2), "the input is symbol nvars = 2: {a:?}");
    let mut smt = Smt::new(None);
    for polarity in [*pos, !*pos] {
        // Both x <= y and x > y can be reached from any state.
        let pre = smt
            .eliminate_exists(Space::State, &[2], &Formula::Lit(a.clone(), polarity))
            .unwrap();
        assert_eq!(pre, Formula::True);
    }
}

/// x counts up from 0 forever; the only predicate is x <= 0 (from the guard;
/// the error mentions only a location that is never reached).
const COUNTER: &str =
    "var x = 0; thread p at a { a -> a when x <= 0 || x > 0 do x := x + 1; b -> b; } error p@b;";

fn counter_ats(sys: &System) -> (Ats, Vec<petgraph::graph::NodeIndex>) {
    // Predicate 0: x <= 0.
    let mut ats = Ats::default();
    let at = |c: Cube| AbsState {
        locs: vec![LocId(0)].into_boxed_slice(),
        cube: c,
    };
    let zero = ats.node(&at(cube(&[true])));
    let pos = ats.node(&at(cube(&[false])));
    ats.initial.push(zero);
    let t = sys.steps[0].id;
    ats.edge(zero, t, pos);
    ats.edge(pos, t, pos);
    (ats, vec![zero, pos])
}

#[test]
fn safe_fragment_accepts_an_exact_loop() {
    let sys = system(COUNTER);
    let (ats, n) = counter_ats(&sys);
    let mut smt = Smt::new(None);
    let f = safe_fragment(&sys, &mut smt, &ats).unwrap();
    // inf = {pos} (self-loop); x > 0 implies x + 1 > 0: exact.
    assert!(f.inexact.is_empty(), "{:?}", f.inexact);
    assert!(f.exact.contains(&(n[1], 0)));
    // The state outside inf and not reachable from it is not checked.
    assert!(!f.exact.contains(&(n[0], 0)));
}

#[test]
fn safe_fragment_rejects_an_inexact_loop_and_names_a_witness() {
    // Same states, but the loop is on the x <= 0 state: x = 0 goes to x = 1.
    let sys = system(COUNTER);
    let mut ats = Ats::default();
    let a = ats.node(&AbsState {
        locs: vec![LocId(0)].into_boxed_slice(),
        cube: cube(&[true]),
    });
    ats.edge(a, TransId(0), a);
    let mut smt = Smt::new(None);
    let f = safe_fragment(&sys, &mut smt, &ats).unwrap();
    assert_eq!(f.inexact.len(), 1);
    // The escaping successor has x > 0 and x != -1.
    assert_eq!(f.inexact[0].witness, Some(cube(&[false])));
}

#[test]
fn inductive_invariant_closes_over_all_states() {
    let sys = system(COUNTER);
    let (ats, _) = counter_ats(&sys);
    let mut smt = Smt::new(None);
    // sp(x <= 0, t) = x <= 1: covered by {x <= 0} ∪ {x > 0}.
    assert!(inductive_invariant(&sys, &mut smt, &ats, &HashSet::new()).unwrap());
    // Without the x > 0 state the invariant is not closed.
    let mut small = Ats::default();
    let a = small.node(&AbsState {
        locs: vec![LocId(0)].into_boxed_slice(),
        cube: cube(&[true]),
    });
    small.edge(a, TransId(0), a);
    assert!(!inductive_invariant(&sys, &mut smt, &small, &HashSet::new()).unwrap());
}

#[test]
fn input_transitions_must_not_escape_the_executed_successors() {
    // Predicates y >= 0 (as !(y <= -1)), x - y >= 0, x - 2y >= 0 ... here:
    // a state whose executed input-successors miss one reachable from other
    // states of the same abstract state must be inexact.
    let sys = system(
        "var x, y; thread p at a { a -> a when y >= 0 || y < 0 do x := *; }
         error x >= y && x < 2 * y;",
    );
    // Predicates: 0: y <= -1, 1: x - y <= -1, 2: x - 2y <= -1.
    let mut ats = Ats::default();
    let st = |bits: &[bool]| AbsState {
        locs: vec![LocId(0)].into_boxed_slice(),
        cube: cube(bits),
    };
    // y >= 0, x >= 2y: executed (from y = 0) to (x >= 2y) and (x < y) only.
    let a = ats.node(&st(&[false, false, false]));
    let b = ats.node(&st(&[false, true, true]));
    ats.edge(a, TransId(0), a);
    ats.edge(a, TransId(0), b);
    ats.edge(b, TransId(0), a);
    ats.edge(b, TransId(0), b);
    let mut smt = Smt::new(None);
    let f = safe_fragment(&sys, &mut smt, &ats).unwrap();
    // With y = 1, x := 1 reaches y <= x < 2y, an abstract state never executed.
    assert_eq!(f.inexact.len(), 2, "{:?}", f.inexact);
    assert!(f
        .inexact
        .iter()
        .all(|i| i.witness == Some(cube(&[false, false, true]))));
}

#[test]
fn a_cancelled_run_never_answers_safe() {
    use engine::ase::Config;
    use engine::verdict::Verdict;
    use std::sync::atomic::AtomicBool;
    // Safe with no prover query at all (the error location is unreachable),
    // so only the cancellation can make the answer unknown.
    let program =
        parse_program("var x = 0; thread p at a { a -> b do x := 1; } error x == 2;").unwrap();
    static CANCEL: AtomicBool = AtomicBool::new(true);
    let config = Config {
        timeout: None,
        max_iterations: None,
        max_states: None,
        cancel: Some(&CANCEL),
    };
    let out = engine::ase::check(&program, &config);
    assert!(
        matches!(&out.verdict, Verdict::Unknown(why) if why.kind == engine::verdict::UnknownKind::Budget(engine::verdict::Limit::Cancelled)),
        "{:?}",
        out.verdict
    );
    let free = Config {
        cancel: None,
        ..config
    };
    assert!(matches!(
        engine::ase::check(&program, &free).verdict,
        Verdict::Safe(_)
    ));
}
