//! The pipeline's reports on small programs: the verdict, its typed
//! reason, its certification and the evidence, in process.

use engine::verdict::{Limit, UnknownKind, Verdict};
use pipeline::{CInput, Engine, Options};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests-c/programs")
        .join(name)
}

fn check(name: &str, input: &CInput, options: &Options) -> pipeline::CReport {
    let job = pipeline::task::resolve(&program(name), None, input).expect("a job");
    pipeline::check_c(&job, options, Instant::now()).expect("loads")
}

fn assertions_only() -> CInput {
    let mut input = CInput::default();
    input.lowering.checks.races = false;
    input
}

fn quick() -> Options {
    let mut options = Options::default();
    options.budget.timeout = Some(Duration::from_secs(30));
    options.engines.jobs = 1;
    options
}

#[test]
fn a_safe_verdict_is_certified_on_the_lowered_program() {
    let c = check("mutex_counter_safe.c", &assertions_only(), &quick());
    assert!(matches!(c.report.outcome.verdict, Verdict::Safe(_)));
    let certified = c.report.certified.expect("certified");
    assert!(certified.certification.certified());
    assert!(!certified.counter_system);
    assert_eq!(
        engine::certify::fingerprint(&certified.program),
        engine::certify::fingerprint(&c.lowered.program)
    );
}

#[test]
fn an_unsafe_verdict_replays_without_the_reduction() {
    let c = check("mutex_tally_loop_unsafe.c", &assertions_only(), &quick());
    let Verdict::Unsafe(trace) = &c.report.outcome.verdict else {
        panic!("{:?}", c.report.outcome.verdict);
    };
    assert!(c
        .report
        .unreduced_steps
        .is_some_and(|n| n >= trace.steps.len()));
    assert!(c.report.certified.is_none());
}

#[test]
fn a_trace_into_behaviour_not_modelled_is_a_give_up() {
    let c = check(
        "asm_unknown_instruction_unknown.c",
        &assertions_only(),
        &quick(),
    );
    match &c.report.outcome.verdict {
        Verdict::Unknown(why) => {
            assert_eq!(why.kind, UnknownKind::GiveUp, "{why}");
            assert!(why.detail.contains("inline assembly"), "{why}");
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn a_spent_budget_says_which() {
    let mut options = quick();
    options.engine = Engine::Ase;
    options.budget.max_iterations = Some(1);
    let c = check("handshake_loop_safe.c", &assertions_only(), &options);
    match &c.report.outcome.verdict {
        Verdict::Unknown(why) => {
            assert_eq!(why.kind, UnknownKind::Budget(Limit::Iterations), "{why}");
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn a_construct_not_modelled_is_a_typed_load_error() {
    // A statement that a `goto` may enter past its start is not guarded,
    // so a range designator (GNU C, not modelled) in the condition of a
    // loop whose body holds the label refuses the program.
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("goto_into_range_loop.c");
    std::fs::write(
        &file,
        "int v;\nint main(void) {\n  int i = 0;\n  goto inside;\n  while (((int[2]){[0 ... 1] = v})[1]) {\n  inside:\n    i++;\n    if (i > 3)\n      return 0;\n  }\n  return 1;\n}\n",
    )
    .expect("write");
    let job = pipeline::task::resolve(&file, None, &assertions_only()).expect("a job");
    let e = pipeline::check_c(&job, &quick(), Instant::now()).expect_err("refused");
    assert!(!e.is_invalid(), "{e}");
    assert!(matches!(e, pipeline::LoadError::Lower { .. }), "{e}");
    // Outside such a statement, the construct gives up where reached.
    let report = check("float_unknown.c", &assertions_only(), &quick());
    let Verdict::Unknown(why) = &report.report.outcome.verdict else {
        panic!("{:?}", report.report.outcome.verdict);
    };
    assert_eq!(why.kind, UnknownKind::GiveUp, "{why:?}");
    assert!(why.detail.contains("floating-point"), "{why:?}");
}

#[test]
fn a_gc_program_is_checked_by_ase() {
    let text = "var x = 0;\nthread p at 0 { a: 0 -> 1 do x := x + 1; }\nerror x > 1;\n";
    let program = engine::parse::parse_program(text).expect("parses");
    let report = pipeline::check_gc(&program, "inline.gc", &quick());
    assert!(matches!(report.outcome.verdict, Verdict::Safe(_)));
    assert!(report.proof.is_some());
    assert!(report
        .certified
        .is_some_and(|c| c.certification.certified()));
}
