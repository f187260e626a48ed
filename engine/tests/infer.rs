//! Inferred invariants (`engine::infer`): end to end on `.gc` programs
//! (a proof that needs an equality of the samples, certified by the
//! independent checker; a buggy twin that must stay unproved), and on
//! generated programs: every `safe` is certified, and the explicit search
//! finds no bug in it.

use engine::certify::{self, Evidence, Status};
use engine::explicit::{self, Bounds};
use engine::generate::{random_program, GenConfig};
use engine::ir::Program;
use engine::parse::parse_program;
use engine::verdict::Verdict;
use std::time::{Duration, Instant};

fn program(src: &str) -> Program {
    parse_program(src).unwrap_or_else(|e| panic!("{e:?}"))
}

fn infer(p: &Program) -> engine::infer::Inferred {
    engine::infer::prove(p, Some(Instant::now() + Duration::from_secs(20)), None)
}

/// Two counters in lockstep up to an unknown bound: `j == 2 * i` is the
/// invariant, found as an equality of the sampled states.
const TWO_COUNTERS: &str = "
var n, i = 0, j = 0;
thread t at a {
  step: a -> a when i < n do i := i + 1, j := j + 2;
  stop: a -> b when i >= n;
}
error t@b && j != 2 * i;
";

/// A withdrawal loop of two threads: the balance never drops below 0, as
/// each withdrawal is checked against it in the same step.
const WITHDRAW: &str = "
var balance = 15, a1, a2;
thread w1 at l {
  pick: l -> c do a1 := *;
  take: c -> l when a1 >= 1 && a1 <= balance do balance := balance - a1;
  skip: c -> l when a1 < 1 || a1 > balance;
}
thread w2 at l {
  pick2: l -> c do a2 := *;
  take2: c -> l when a2 >= 1 && a2 <= balance do balance := balance - a2;
  skip2: c -> l when a2 < 1 || a2 > balance;
}
error balance < 0;
";

fn certified(p: &Program, inferred: &engine::infer::Inferred) -> Status {
    let invariants = inferred
        .invariants
        .as_ref()
        .expect("a proof has invariants");
    let c = certify::certify(
        p,
        "test",
        engine::verdict::Proof::InferredInvariant,
        Evidence::Invariants(invariants),
        Some(Duration::from_secs(60)),
    );
    c.status
}

#[test]
fn proves_with_an_equality_of_the_samples_and_the_checker_accepts() {
    for src in [TWO_COUNTERS, WITHDRAW] {
        let p = program(src);
        let inferred = infer(&p);
        assert!(
            matches!(inferred.outcome.verdict, Verdict::Safe(_)),
            "{:?}",
            inferred.outcome.verdict
        );
        assert_eq!(certified(&p, &inferred), Status::Certified);
    }
}

#[test]
fn buggy_twins_are_not_proved() {
    // One step of the loop adds 3: j == 2 * i fails after it.
    let two = TWO_COUNTERS.replace(
        "stop:",
        "odd: a -> a when i < n && i == 4 do i := i + 1, j := j + 3;\n  stop:",
    );
    // The second thread does not check the balance.
    let withdraw = WITHDRAW.replace(
        "take2: c -> l when a2 >= 1 && a2 <= balance",
        "take2: c -> l when a2 >= 1 && a2 <= 10",
    );
    for src in [two, withdraw] {
        let p = program(&src);
        let inferred = infer(&p);
        assert!(
            matches!(inferred.outcome.verdict, Verdict::Unknown(_)),
            "{src}: {:?}",
            inferred.outcome.verdict
        );
        let bug = explicit::check(
            &p,
            &Bounds {
                bound: 20,
                max_states: 1_000_000,
                partial_order: false,
            },
            None,
        );
        assert!(matches!(bug.verdict, Verdict::Unsafe(_)), "{src}");
    }
}

/// Generated programs: a `safe` is certified and has no bug the explicit
/// search finds.
#[test]
fn generated_programs_are_never_wrongly_proved() {
    let mut proved = 0;
    for seed in 0..400 {
        let p = random_program(seed, &GenConfig::default());
        let inferred =
            engine::infer::prove(&p, Some(Instant::now() + Duration::from_secs(5)), None);
        if !matches!(inferred.outcome.verdict, Verdict::Safe(_)) {
            continue;
        }
        proved += 1;
        let bug = explicit::check(
            &p,
            &Bounds {
                bound: 10,
                max_states: 200_000,
                partial_order: false,
            },
            Some(Instant::now() + Duration::from_secs(10)),
        );
        assert!(
            !matches!(bug.verdict, Verdict::Unsafe(_)),
            "seed {seed}: inferred safe, but the explicit search finds a bug\n{}",
            engine::print::print_program(&p)
        );
        assert_eq!(certified(&p, &inferred), Status::Certified, "seed {seed}");
    }
    assert!(proved > 0, "no generated program was proved");
}
