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

/// A loop of 10,000 iterations no sampled run leaves, then a second loop
/// whose index is the same variable, reset to 1 with its count of rounds:
/// `done == i` holds in the second loop. No run reaches it; the step past
/// the first loop, applied to the first loop's samples, proposes it.
const REUSED_INDEX: &str = "
var i = 0, done = 0;
thread t at a {
  more: a -> a when i < 10000 do i := i + 1;
  next: a -> b when i >= 10000 do i := 1, done := 1;
  again: b -> b when i < 10000 do i := i + 1, done := done + 1;
  stop: b -> c when i >= 10000;
}
error t@c && done != 10000;
";

/// A worker counts the elements of an input-length array it reads as
/// zero (`c++` on a shared `c` lowered as `t := c` then `c := t + 1`);
/// main joins it and checks the count against the length through copies
/// of both (`r := c, m := n`). The invariant `c <= i` relates two counters
/// of one thread that no single step increments together, and `c <= n`
/// is proposed only because `r` and `m` are copies of `c` and `n`.
const COUNTED_SCAN: &str = "
var n, c = 0, i = 0, t = 0, r = 0, m = 0, v = 0;
init n >= 0;
thread w at a {
  head: a -> b when i < n do v := *;
  hit: b -> d when v == 0 do t := c;
  miss: b -> a when v != 0 do i := i + 1;
  count: d -> a do c := t + 1, i := i + 1, t := 0;
  done: a -> e when i >= n;
}
thread main at s {
  join: s -> k when w@e do r := c, m := n;
  check: k -> err when r > m;
}
error main@err;
";

/// A loop counts `left` down while another step of its thread counts
/// `done` up (a join loop from the last handle to the first): `left +
/// done == 10000` is the invariant. No step changes both, no condition
/// reads both, and eleven other variables that the loop's guard reads
/// vary in the samples, too many for their equalities: only the pair of
/// one thread's up and down counters proposes the sum.
const UP_AND_DOWN: &str = "
var left = 0, done = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0, x6 = 0;
var x7 = 0, x8 = 0, x9 = 0, x10 = 0, x11 = 0;
thread w at a {
  start: a -> b do left := 10000;
  take: b -> c when left > 0 && x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + x10 + x11 != 123456789
    do left := left - 1, x1 := *, x2 := *, x3 := *, x4 := *, x5 := *, x6 := *, x7 := *,
       x8 := *, x9 := *, x10 := *, x11 := *;
  put: c -> b do done := done + 1;
  stop: b -> e when left <= 0;
}
error w@e && done != 10000;
";

/// A maximum over an array of input length in the one-element model (the
/// tracked element `k` holds `ak`; another element reads as any value):
/// the loop needs `i <= k ∨ ak - m <= 0`, whose conclusion takes many
/// values where its guard fails.
const MAXIMUM: &str = "
var n = 0, k = 0, ak = 0, i = 0, m = -1000, v = 0;
thread w at s {
  pick: s -> p do n := *, k := *, ak := *;
  ok: p -> a when 0 <= k && k < n && n <= 50 && -100 <= ak && ak <= 100;
  mine_bigger: a -> a when i < n && i == k && ak > m do m := ak, i := i + 1;
  mine_smaller: a -> a when i < n && i == k && ak <= m do i := i + 1;
  other: a -> o when i < n && i != k do v := *;
  other_bigger: o -> a when -100 <= v && v <= 100 && v > m do m := v, i := i + 1;
  other_smaller: o -> a when -100 <= v && v <= 100 && v <= m do i := i + 1;
  stop: a -> e when i >= n;
  check: e -> bad when m < ak;
}
error w@bad;
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

/// Asserts that the inference proves `src` and the checker accepts it.
fn assert_proved_and_certified(src: &str) {
    let p = program(src);
    let inferred = infer(&p);
    assert!(
        matches!(inferred.outcome.verdict, Verdict::Safe(_)),
        "{:?}",
        inferred.outcome.verdict
    );
    assert_eq!(certified(&p, &inferred), Status::Certified);
}

#[test]
fn proves_with_an_equality_of_the_samples_and_the_checker_accepts() {
    for src in [TWO_COUNTERS, WITHDRAW] {
        assert_proved_and_certified(src);
    }
}

#[test]
fn a_loop_no_run_reaches_gets_what_the_step_into_it_sets() {
    assert_proved_and_certified(REUSED_INDEX);
    // The same with one round too few counted: not proved.
    let p = program(&REUSED_INDEX.replace("done := 1;", "done := 0;"));
    assert!(matches!(infer(&p).outcome.verdict, Verdict::Unknown(_)));
}

#[test]
fn counters_of_one_thread_and_copies_meet() {
    assert_proved_and_certified(COUNTED_SCAN);
    // Counting every element twice: `c <= n` fails.
    let p = program(&COUNTED_SCAN.replace("c := t + 1", "c := t + 2"));
    assert!(matches!(infer(&p).outcome.verdict, Verdict::Unknown(_)));
}

#[test]
fn a_thread_counting_up_and_down_gets_their_sum() {
    assert_proved_and_certified(UP_AND_DOWN);
    // One more put than takes: `done` ends at 10001.
    let p = program(&UP_AND_DOWN.replace("start: a -> b do", "start: a -> b do done := 1,"));
    assert!(matches!(infer(&p).outcome.verdict, Verdict::Unknown(_)));
}

#[test]
fn a_maximum_gets_the_bound_of_the_elements_below_the_index() {
    assert_proved_and_certified(MAXIMUM);
    // The last element is skipped: it may be greater than `m`.
    let p = program(&MAXIMUM.replace("when i >= n;", "when i >= n - 1;"));
    assert!(matches!(infer(&p).outcome.verdict, Verdict::Unknown(_)));
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

/// A tracked thread whose local `t` stays 0, and a thread standing for
/// the others, which picks a value `p` of its `t` and sets `g` when it is
/// one. Only relying on what holds of the tracked thread (`t == 0`, so
/// `p == 0`) keeps `g` at 0.
const RELYING: &str = "
var g = 0, t = 0, p = 0;
thread tracked at s0 {
  stay: s0 -> s0 do t := 0;
  never: s1 -> s0;
}
thread others at run {
  pick: run -> run do p := *;
  set: run -> run when p == 1 do g := 1;
}
error g == 1;
";

/// The relying step `set` of [`RELYING`]: on the tracked thread at `at`,
/// its `t` being `p`; `hidden`: leave `t`'s facts out.
fn relying(p: &Program, at: &str, hidden: bool) -> engine::infer::Rely {
    use engine::ir::{LocId, Term, ThreadId, TransId, VarId};
    let var = |n: &str| VarId::new(p.vars.iter().position(|v| v.name == n).expect("var"));
    let thread = ThreadId::new(0);
    let at = p.threads[0].locs.iter().position(|l| l == at).expect("loc");
    let set = p
        .transitions
        .iter()
        .position(|t| t.label == "set")
        .expect("set");
    engine::infer::Rely {
        transition: TransId::new(set),
        thread,
        at: LocId::new(at),
        renaming: vec![(var("t"), Term::Var(var("p")))],
        hidden: if hidden { vec![var("t")] } else { Vec::new() },
    }
}

fn excluded(p: &Program, rely: &[engine::infer::Rely]) -> bool {
    let hints = engine::infer::Hints {
        rely,
        ..Default::default()
    };
    let deadline = Some(Instant::now() + Duration::from_secs(20));
    let (_, excluded) = engine::infer::inductive(p, deadline, Default::default(), hints)
        .unwrap_or_else(|e| panic!("{e}"));
    excluded.is_ok()
}

#[test]
fn relying_steps_assume_the_candidates_of_the_tuple_they_rely_on() {
    let p = program(RELYING);
    // Without relying, `p == 1` may be picked.
    assert!(!excluded(&p, &[]));
    assert!(excluded(&p, &[relying(&p, "s0", false)]));
    // A tuple not reachable by locations: the step is not taken.
    assert!(excluded(&p, &[relying(&p, "s1", false)]));
    // Facts on hidden variables are not relied on.
    assert!(!excluded(&p, &[relying(&p, "s0", true)]));
    // A tracked thread that may set `t` to 1: nothing keeps `p` from 1.
    let twin = program(&RELYING.replace("never: s1 -> s0;", "bump: s0 -> s0 do t := 1;"));
    assert!(!excluded(&twin, &[relying(&twin, "s0", false)]));
}
