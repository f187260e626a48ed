//! The partial-order reduced explicit search against the full one, and
//! lazy input values against the interpreter: on thousands of generated
//! programs, the reduced exhaustive search gives the same verdict as the
//! full search (safe, unsafe, or unknown for the same kind of reason; or
//! safe where the full search met an input it could not enumerate in a
//! step the reduced one never takes), every trace either finds replays ([`Trace::replay`]), and bounded model
//! checking (symbolic inputs) finds no bug in a program proved safe.

use engine::explicit::{self, Bounds};
use engine::generate::{random_program, GenConfig};
use engine::parse::parse_program;
use engine::print::print_program;
use engine::verdict::Verdict;

/// The verdict's kind: `unknown` answers compare by their reason's kind
/// (cut inputs, overflow, limits), not their state counts.
fn kind(v: &Verdict) -> &'static str {
    match v {
        Verdict::Safe(_) => "safe",
        Verdict::Unsafe(_) => "unsafe",
        Verdict::Unknown(why) if why.detail.contains("only tried") => "unknown: inputs",
        Verdict::Unknown(why) if why.detail.contains("overflow") => "unknown: overflow",
        Verdict::Unknown(_) => "unknown: limit",
    }
}

fn bounds(partial_order: bool) -> Bounds {
    Bounds {
        bound: 4,
        max_states: 5_000,
        partial_order,
    }
}

#[test]
fn reduced_and_full_searches_agree_on_generated_programs() {
    let seeds: u64 = std::env::var("ASE_POR_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let configs = [
        GenConfig {
            location_guard_percent: 20,
            ..GenConfig::default()
        },
        GenConfig {
            input_percent: 40,
            max_input_transitions: 3,
            unconstrained_percent: 50,
            ..GenConfig::default()
        },
    ];
    let mut reduced_fewer = 0;
    let mut proofs = 0;
    for seed in 0..seeds {
        let gen = &configs[(seed % 2) as usize];
        let p = random_program(seed, gen);
        let (full, _) = explicit::prove_with_states(&p, &bounds(false), None);
        let reduced = explicit::prove(&p, &bounds(true), None);
        let fail = |what: String| format!("seed {seed}: {what}\n{}", print_program(&p));
        for out in [&full, &reduced] {
            if let Verdict::Unknown(why) = &out.verdict {
                assert!(
                    why.kind != engine::verdict::UnknownKind::Internal,
                    "{}",
                    fail(why.to_string())
                );
            }
        }
        let (a, b) = (kind(&full.verdict), kind(&reduced.verdict));
        if a == "unknown: limit" || b == "unknown: limit" {
            continue;
        }
        // The reduced search expands fewer transitions, so it may meet no
        // input it cannot enumerate where the full search does (a thread
        // that can never move, whose disabled step reads one): its proof
        // is then checked like the others below.
        let fewer_inputs = a == "unknown: inputs" && b == "safe";
        if !fewer_inputs {
            assert_eq!(a, b, "{}", fail(format!("full {a}, reduced {b}")));
        }
        for out in [&full, &reduced] {
            if let Verdict::Unsafe(trace) = &out.verdict {
                assert!(
                    trace.replay(&p).is_ok(),
                    "{}",
                    fail("trace does not replay".into())
                );
            }
        }
        if b == "safe" {
            // An independent oracle for the proof (lazy values, inputs
            // fixed by their guards, the reduction): bounded model
            // checking, with every input value symbolic, finds no bug.
            let bmc = engine::bmc::check(
                &p,
                &engine::bmc::Config {
                    bounds: engine::bmc::Bounds { max_depth: 8 },
                    deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(20)),
                    ..Default::default()
                },
            );
            assert!(
                !matches!(bmc.verdict, Verdict::Unsafe(_)),
                "{}",
                fail("proved safe, but bounded model checking finds a bug".into())
            );
            proofs += 1;
            if reduced.stats.symbolic_states < full.stats.symbolic_states {
                reduced_fewer += 1;
            }
        }
    }
    // The comparison is not vacuous: many programs are proved, and the
    // reduction removes states from some of them.
    assert!(proofs > seeds / 20, "only {proofs} proofs");
    assert!(reduced_fewer > 0, "the reduction never removed a state");
}

fn program(src: &str) -> engine::ir::Program {
    parse_program(src).expect("test program parses")
}

#[test]
fn an_input_overwritten_before_it_is_read_is_no_cut() {
    // The value of `x` is assumed in a type's range (as lowered C does)
    // and overwritten: the proof holds for every value, none is enumerated.
    let p = program(
        "var x = 0, y = 0;
         thread p at 0 {
           0 -> 1 do x := *;
           1 -> 2 when -2147483648 <= x && x <= 2147483647;
           2 -> 3 do x := 5;
           3 -> 4 do y := x;
         }
         thread q at 0 { 0 -> 1 do y := 1; }
         error y == 6;",
    );
    let out = explicit::prove(&p, &bounds(true), None);
    assert!(matches!(out.verdict, Verdict::Safe(_)), "{:?}", out.verdict);
    // Read (other than by a copy) before it is overwritten: only sampled,
    // no proof.
    let read = program(
        "var x = 0, y = 0;
         thread p at 0 { 0 -> 1 do x := *; 1 -> 2 do y := x + 1; }
         error y == 100;",
    );
    let out = explicit::prove(&read, &bounds(true), None);
    assert_eq!(kind(&out.verdict), "unknown: inputs", "{:?}", out.verdict);
}

#[test]
fn a_lazy_value_read_later_is_chosen_in_the_trace() {
    // The value of `x` matters only three steps after the input: the trace
    // gives the input the value chosen then, and replays.
    let p = program(
        "var x = 0, y = 0, z = 0;
         thread p at 0 {
           0 -> 1 do x := *;
           1 -> 2 when 0 <= x && x <= 255;
           2 -> 3 do z := 1;
           3 -> 4 when x > 2 do y := x + z;
         }
         error y == 4;",
    );
    let out = explicit::check(&p, &bounds(true), None);
    let Verdict::Unsafe(trace) = &out.verdict else {
        panic!("expected unsafe, got {:?}", out.verdict);
    };
    assert!(trace.replay(&p).is_ok());
    assert_eq!(trace.steps[0].inputs, vec![(engine::ir::VarId(0), 3)]);
}
