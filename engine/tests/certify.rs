//! Certificates: the checker on hand-written programs and certificates,
//! the text format, certificates of every safe `.gc` program (tests-gc,
//! examples, the papers' models when `../shared` exists), and mutations
//! that the checker must reject.

use engine::certify::check::{check, Failure, Obligation};
use engine::certify::{self, text, Certificate, Evidence, Status};
use engine::interp::{eval_cond, State};
use engine::ir::Program;
use engine::parse::parse_program;
use engine::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::time::Duration;

const TIMEOUT: Option<Duration> = Some(Duration::from_secs(60));

fn program(src: &str) -> Program {
    parse_program(src).unwrap_or_else(|e| panic!("{e:?}"))
}

fn cert(p: &Program, src: &str) -> Certificate {
    text::parse(p, src).unwrap_or_else(|e| panic!("{e:?}"))
}

const COUNTER: &str = "
var x = 0;
thread t at a {
  inc: a -> a when x < 10 do x := x + 1;
  done: a -> b when x >= 10;
}
error x > 10;
";

#[test]
fn an_inductive_invariant_is_accepted() {
    let p = program(COUNTER);
    let c = cert(
        &p,
        "invariant [t@a] { x >= 0 && x <= 10 }\ninvariant [t@b] { x == 10 }",
    );
    let r = check(&p, &c, TIMEOUT);
    assert_eq!(r.result, Ok(()));
    // initiation, and per tuple safety plus its transitions
    assert_eq!(r.obligations, 1 + 3 + 1);
}

fn failed(p: &Program, src: &str) -> Failure {
    check(p, &cert(p, src), TIMEOUT)
        .result
        .expect_err("the certificate must be rejected")
}

#[test]
fn a_non_inductive_invariant_is_rejected_at_the_failing_step() {
    let p = program(COUNTER);
    let f = failed(
        &p,
        "invariant [t@a] { x == 0 || x == 1 }\ninvariant [t@b] { x == 10 }",
    );
    let Failure::Refuted { obligation, state } = &f else {
        panic!("{f:?}")
    };
    match obligation {
        Obligation::Consecution {
            transition, target, ..
        } => {
            assert_eq!(p.transition(*transition).label, "inc");
            assert_eq!(p.loc_name(engine::ir::ThreadId(0), target[0]), "a");
        }
        o => panic!("{o:?}"),
    }
    assert_eq!(state, &[("x".to_string(), "1".to_string())]);
    assert!(
        f.describe(&p).contains("transition `inc`"),
        "{}",
        f.describe(&p)
    );
}

#[test]
fn initiation_safety_and_missing_tuples() {
    let p = program(COUNTER);
    // Initiation: x = 0 is not in the invariant.
    let f = failed(
        &p,
        "invariant [t@a] { x >= 1 && x <= 10 }\ninvariant [t@b] { x == 10 }",
    );
    assert!(matches!(
        f,
        Failure::Refuted {
            obligation: Obligation::Initiation { .. },
            ..
        }
    ));
    // Safety: dropping the upper bound admits error states.
    let f = failed(
        &p,
        "invariant [t@a] { x >= 0 }\ninvariant [t@b] { x == 10 }",
    );
    assert!(
        matches!(
            f,
            Failure::Refuted {
                obligation: Obligation::Safety { .. },
                ..
            }
        ),
        "{f:?}"
    );
    // Weakening the bound by one admits the error state x = 11.
    let f = failed(
        &p,
        "invariant [t@a] { x >= 0 && x <= 11 }\ninvariant [t@b] { x == 10 }",
    );
    assert!(matches!(f, Failure::Refuted { .. }), "{f:?}");
    // A missing tuple is `false`: the step into it fails.
    let f = failed(&p, "invariant [t@a] { x >= 0 && x <= 10 }");
    assert!(
        matches!(
            f,
            Failure::Refuted {
                obligation: Obligation::Consecution {
                    target_listed: false,
                    ..
                },
                ..
            }
        ),
        "{f:?}"
    );
}

#[test]
fn inputs_free_initial_values_init_and_location_guards() {
    let p = program(
        "
var x, y = 0;
init x >= 0;
thread p at a {
  a -> b do y := *;
  b -> c when y >= 0 && y <= 3;
}
thread q at s {
  s -> s when p@c do x := x + y;
}
error x < 0;
",
    );
    let good = "
invariant [p@a, q@s] { x >= 0 && y == 0 }
invariant [p@b, q@s] { x >= 0 }
invariant [p@c, q@s] { x >= 0 && y >= 0 && y <= 3 }
";
    assert_eq!(check(&p, &cert(&p, good), TIMEOUT).result, Ok(()));
    // Without the range of y at p@c, q's step can make x negative.
    let bad = "
invariant [p@a, q@s] { x >= 0 && y == 0 }
invariant [p@b, q@s] { x >= 0 }
invariant [p@c, q@s] { x >= 0 }
";
    let f = failed(&p, bad);
    assert!(matches!(f, Failure::Refuted { .. }), "{f:?}");
    // The input is any integer: `y == 0` at p@b is not inductive.
    let bad = "
invariant [p@a, q@s] { x >= 0 && y == 0 }
invariant [p@b, q@s] { x >= 0 && y == 0 }
invariant [p@c, q@s] { x >= 0 && y == 0 }
";
    let f = failed(&p, bad);
    let Failure::Refuted {
        obligation: Obligation::Consecution { transition, .. },
        ..
    } = f
    else {
        panic!("{f:?}")
    };
    assert_eq!(p.transition(transition).from, engine::ir::LocId(0));
}

#[test]
fn text_round_trip_and_bad_input() {
    let p = program(COUNTER);
    let c = cert(
        &p,
        "// a comment\nprogram \"counter.gc\" fingerprint \"abc\";\n\
         subject \"{\\\"kind\\\": 1}\";\nproof \"by hand\";\n\
         invariant [t@a] { x >= 0 } and { x <= 5 || x > 5 && x <= 10 }\ninvariant [t@b] { x == 10 }",
    );
    assert_eq!(c.program.name, "counter.gc");
    assert_eq!(c.program.subject, "{\"kind\": 1}");
    assert_eq!(c.proof, "by hand");
    assert_eq!(c.invariants[0].blocks.len(), 2);
    assert_eq!(c.invariants[0].blocks[1].len(), 2);
    let printed = text::print(&p, &c);
    assert_eq!(cert(&p, &printed), c, "{printed}");
    assert_eq!(text::header(&printed), c.program, "{printed}");
    assert_eq!(check(&p, &c, TIMEOUT).result, Ok(()));
    for (bad, message) in [
        ("invariant [u@a] { true }", "undeclared thread `u`"),
        ("invariant [t@z] { true }", "has no location `z`"),
        ("invariant [] { true }", "missing: t"),
        ("invariant [t@a] { y == 0 }", "undeclared variable `y`"),
        ("invariant [t@a] { x == }", "expected"),
        (
            "invariant [t@a] { true }\ninvariant [t@a] { true }",
            "second invariant",
        ),
        ("invariant [t@a] { true", "no matching `}`"),
        ("invariant [t@a]", "expected `{`"),
        ("program 3;", "a string"),
        ("lemma", "expected `program`"),
    ] {
        let errors = text::parse(&p, bad).expect_err(bad);
        assert!(
            errors.iter().any(|e| e.message.contains(message)),
            "{bad}: {errors:?}"
        );
        assert!(errors
            .iter()
            .all(|e| (e.span.end as usize) <= bad.len() && e.span.start <= e.span.end));
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}

fn gc_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "gc"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Checks every safe program of `files` with ASE and certifies the proof;
/// returns the certificates (after a round trip through the text form).
fn certify_all(files: &[PathBuf]) -> Vec<(PathBuf, Program, Certificate)> {
    let mut out = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(f).expect("read");
        let Ok(p) = parse_program(&src) else { continue };
        let config = engine::ase::Config {
            timeout: Some(Duration::from_secs(120)),
            ..Default::default()
        };
        let (outcome, proof) = engine::ase::check_with_proof(&p, &config);
        let Verdict::Safe(kind) = outcome.verdict else {
            continue;
        };
        let proof = proof.expect("a safe verdict has proof states");
        let c = certify::certify(
            &p,
            &f.display().to_string(),
            kind,
            Evidence::Abstract(&proof),
            TIMEOUT,
        );
        assert_eq!(c.status, Status::Certified, "{}", f.display());
        let cert = c.certificate.expect("certified");
        let again = cert_text_round_trip(&p, &cert);
        assert_eq!(
            check(&p, &again, TIMEOUT).result,
            Ok(()),
            "{} after printing",
            f.display()
        );
        out.push((f.clone(), p, again));
    }
    out
}

fn cert_text_round_trip(p: &Program, c: &Certificate) -> Certificate {
    let printed = text::print(p, c);
    let again = text::parse(p, &printed).unwrap_or_else(|e| panic!("{e:?}\n{printed}"));
    assert_eq!(again.invariants.len(), c.invariants.len());
    again
}

#[test]
fn every_safe_gc_program_is_certified() {
    let mut files = gc_files(&root().join("tests-gc"));
    files.extend(gc_files(&root().join("examples")));
    let certs = certify_all(&files);
    assert!(certs.len() >= 12, "{} safe programs", certs.len());
}

#[test]
fn every_safe_paper_model_is_certified() {
    let dir = root().join("../shared/gc-models");
    if !dir.exists() {
        // CI has ../shared beside the repository: there it is required.
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is absent",
            dir.display()
        );
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    // The engine recurses deeply on the larger models in debug builds.
    let files = gc_files(&dir);
    let count = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || certify_all(&files).len())
        .expect("thread")
        .join()
        .expect("no panic");
    assert!(count >= 15, "{count} safe models");
}

/// Whether a concrete state satisfies the certificate.
fn holds(p: &Program, c: &Certificate, s: &State) -> bool {
    let Some(inv) = c.invariants.iter().find(|i| i.locs == s.locs) else {
        return false;
    };
    let _ = p;
    inv.blocks.iter().all(|b| {
        b.iter()
            .any(|d| d.iter().all(|x| eval_cond(x, s).unwrap_or(false)))
    })
}

/// Mutants of a certificate: each tuple removed, each conjunct dropped,
/// each disjunct dropped, each `<=`/`>=` bound against a literal moved by
/// one.
fn mutants(c: &Certificate) -> Vec<(String, Certificate)> {
    use engine::ir::{CmpOp, Cond, Term};
    let mut out = Vec::new();
    for i in 0..c.invariants.len() {
        let mut m = c.clone();
        m.invariants.remove(i);
        out.push((format!("tuple {i} removed"), m));
        for (b, block) in c.invariants[i].blocks.iter().enumerate() {
            for (d, conj) in block.iter().enumerate() {
                if block.len() > 1 {
                    let mut m = c.clone();
                    m.invariants[i].blocks[b].remove(d);
                    out.push((format!("tuple {i} block {b} disjunct {d} dropped"), m));
                }
                for (k, x) in conj.iter().enumerate() {
                    let mut m = c.clone();
                    m.invariants[i].blocks[b][d].remove(k);
                    out.push((
                        format!("tuple {i} block {b} disjunct {d} conjunct {k} dropped"),
                        m,
                    ));
                    if let Cond::Cmp(op @ (CmpOp::Le | CmpOp::Ge), a, Term::Const(k0)) = x {
                        let delta = if *op == CmpOp::Le { 1 } else { -1 };
                        let mut m = c.clone();
                        m.invariants[i].blocks[b][d][k] =
                            Cond::Cmp(*op, a.clone(), Term::Const(k0 + delta));
                        out.push((format!("tuple {i} bound {k} weakened"), m));
                    }
                }
            }
        }
    }
    out
}

/// Every mutant of a certificate the checker accepts must contain every
/// reachable state (the explicit search's, on finite-state programs); every
/// removed tuple must be rejected (each holds a reachable state).
#[test]
fn mutants_are_rejected_or_still_contain_every_reachable_state() {
    let mut files = vec![
        root().join("examples/mutex.gc"),
        root().join("examples/ticket.gc"),
        root().join("tests-gc/swap.gc"),
    ];
    files.retain(|f| f.exists());
    let mut rejected = 0;
    let mut total = 0;
    for (f, p, c) in certify_all(&files) {
        let bounds = engine::explicit::Bounds {
            bound: 4,
            max_states: 200_000,
            partial_order: false,
        };
        // Reachable states with the free initial values in [-4, 4].
        let reachable = bounded_reachable(&p, &bounds);
        for s in &reachable {
            assert!(holds(&p, &c, s), "{}: {s:?}", f.display());
        }
        for (what, m) in mutants(&c).into_iter().take(400) {
            total += 1;
            match check(&p, &m, TIMEOUT).result {
                Ok(()) => {
                    assert!(
                        !what.contains("removed"),
                        "{}: {what} accepted",
                        f.display()
                    );
                    for s in &reachable {
                        assert!(
                            holds(&p, &m, s),
                            "{}: accepted mutant ({what}) excludes {s:?}",
                            f.display()
                        );
                    }
                }
                Err(e) => {
                    assert!(e.is_refutation(), "{e:?}");
                    rejected += 1;
                }
            }
        }
    }
    assert!(rejected > 0 && total > 0);
    eprintln!("{rejected} of {total} mutants rejected");
}

/// The states reachable with every free initial value and input in
/// `[-B, B]` (breadth-first, through the interpreter).
fn bounded_reachable(p: &Program, b: &engine::explicit::Bounds) -> Vec<State> {
    use engine::interp;
    use engine::ir::{Rhs, TransId};
    let free: Vec<usize> = (0..p.vars.len())
        .filter(|&v| p.vars[v].init.is_none())
        .collect();
    let bound = i128::from(b.bound);
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::new();
    let mut vals: Vec<i128> = p
        .vars
        .iter()
        .map(|v| v.init.map_or(-bound, i128::from))
        .collect();
    loop {
        if let Ok(s) = interp::initial_state(p, vals.clone()) {
            if seen.insert(s.clone()) {
                queue.push_back(s);
            }
        }
        let mut carry = true;
        for &v in &free {
            if vals[v] < bound {
                vals[v] += 1;
                carry = false;
                break;
            }
            vals[v] = -bound;
        }
        if carry {
            break;
        }
    }
    while let Some(s) = queue.pop_front() {
        if seen.len() > b.max_states as usize {
            break;
        }
        for (i, t) in p.transitions.iter().enumerate() {
            let inputs: Vec<_> = t
                .assigns
                .iter()
                .filter(|a| a.rhs == Rhs::Nondet)
                .map(|a| a.var)
                .collect();
            let choices: Vec<Vec<(engine::ir::VarId, i128)>> = if inputs.is_empty() {
                vec![vec![]]
            } else {
                (-bound..=bound)
                    .map(|x| inputs.iter().map(|&v| (v, x)).collect())
                    .collect()
            };
            for ins in choices {
                if let Ok(n) = interp::step(p, &s, TransId::new(i), &ins) {
                    if seen.insert(n.clone()) {
                        queue.push_back(n);
                    }
                }
            }
        }
    }
    seen.into_iter().collect()
}

#[test]
fn explicit_search_certificates_relax_ranged_inputs() {
    // `v := *` with the guards of its target allowing [0, 2]: the search
    // tries 0..=2 only; the certificate also allows values outside, at the
    // target location (the owner is blocked there for good).
    let p = program(
        "
var v = 0, x = 0;
thread p at a {
  a -> b do v := *;
  b -> c when v >= 0 && v <= 2 do x := v;
}
thread q at s {
  s -> s when x < 5 do x := x + 1;
}
error x > 5;
",
    );
    let bounds = engine::explicit::Bounds {
        bound: 3,
        max_states: 10_000,
        partial_order: false,
    };
    let (outcome, reachable) = engine::explicit::prove_with_states(&p, &bounds, None);
    assert!(
        matches!(outcome.verdict, Verdict::Safe(_)),
        "{:?}",
        outcome.verdict
    );
    let reachable = reachable.expect("states of a safe search");
    let c = certify::certify(
        &p,
        "relax.gc",
        engine::verdict::Proof::ExhaustiveSearch,
        Evidence::Explicit(&reachable),
        TIMEOUT,
    );
    assert_eq!(c.status, Status::Certified, "{:?}", c.status);
    assert_eq!(c.kind, "explicit states");
    let printed = text::print(&p, c.certificate.as_ref().expect("built"));
    assert!(printed.contains("v < 0 || v > 2"), "{printed}");
    let again = cert_text_round_trip(&p, c.certificate.as_ref().expect("built"));
    assert_eq!(check(&p, &again, TIMEOUT).result, Ok(()));
    // Without the relaxation the input step leaves the invariant.
    let mut strict = again.clone();
    for inv in &mut strict.invariants {
        for b in &mut inv.blocks {
            b.retain(|d| !d.iter().any(|x| matches!(x, engine::ir::Cond::Or(..))));
        }
    }
    let f = check(&p, &strict, TIMEOUT)
        .result
        .expect_err("not inductive");
    assert!(f.is_refutation());
}

/// The exhaustive search's certificate of a finite program is a set of
/// points per tuple, checked by evaluation: accepted as built, and every
/// mutant that drops a state (each one reachable) or changes a value is
/// rejected with a refutation.
#[test]
fn point_set_certificates_are_checked_by_evaluation() {
    let p = program(
        "
var x = 0, y = 0;
thread p at a {
  a -> a when x < 6 do x := x + 1;
}
thread q at s {
  s -> s when y < x do y := y + 2;
}
error y > 7;
",
    );
    let bounds = engine::explicit::Bounds {
        bound: 3,
        max_states: 10_000,
        partial_order: false,
    };
    let (outcome, reachable) = engine::explicit::prove_with_states(&p, &bounds, None);
    assert!(matches!(outcome.verdict, Verdict::Safe(_)), "{outcome:?}");
    let reachable = reachable.expect("states of a safe search");
    let c = certify::certify(
        &p,
        "points.gc",
        engine::verdict::Proof::ExhaustiveSearch,
        Evidence::Explicit(&reachable),
        TIMEOUT,
    );
    assert_eq!(c.status, Status::Certified, "{:?}", c.status);
    let cert = c.certificate.expect("built");
    let points: usize = cert.invariants[0]
        .blocks
        .iter()
        .map(Vec::len)
        .max()
        .unwrap();
    assert!(points > 5, "a tuple with several states: {cert:?}");
    let mut mutants = 0;
    for (b, block) in cert.invariants[0].blocks.iter().enumerate() {
        for d in 0..block.len() {
            if block.len() > 1 {
                let mut m = cert.clone();
                m.invariants[0].blocks[b].remove(d);
                let r = check(&p, &m, TIMEOUT).result;
                assert!(r.as_ref().is_err_and(|e| e.is_refutation()), "{r:?}");
                mutants += 1;
            }
            // A value changed: y's literal moved by one.
            let mut m = cert.clone();
            let conj = &mut m.invariants[0].blocks[b][d];
            for x in conj.iter_mut() {
                if let engine::ir::Cond::Cmp(engine::ir::CmpOp::Eq, _, engine::ir::Term::Const(k)) =
                    x
                {
                    *k += 1;
                }
            }
            if m != cert {
                let r = check(&p, &m, TIMEOUT).result;
                assert!(r.as_ref().is_err_and(|e| e.is_refutation()), "{r:?}");
                mutants += 1;
            }
        }
    }
    assert!(mutants > 5, "{mutants} mutants");
}

/// ASE may prove a program by the safe-fragment check with a union of
/// abstract states that is not inductive: the certificate is then built
/// from the fragment and the tree's symbolic states, for ASE's own proofs
/// and when ASE runs only for the certificate (the proof left no states,
/// or too many explicit ones: this once ended in a refuted certificate;
/// the inferred invariants, tried first there, may prove it instead).
#[test]
fn ase_run_for_a_certificate_falls_back_to_the_safe_fragment() {
    let path = root().join("engine/tests/data/fragment_union_not_inductive.gc");
    let p = program(&std::fs::read_to_string(&path).expect("read"));
    let config = engine::ase::Config {
        timeout: Some(Duration::from_secs(120)),
        ..Default::default()
    };
    let (outcome, proof) = engine::ase::check_with_proof(&p, &config);
    let Verdict::Safe(kind) = outcome.verdict else {
        panic!("{:?}", outcome.verdict)
    };
    let proof = proof.expect("a safe verdict has proof states");
    assert!(proof.fragment.is_some(), "proved by the safe fragment");
    let name = "fragment_union_not_inductive.gc";
    let own = certify::certify(&p, name, kind, Evidence::Abstract(&proof), TIMEOUT);
    assert_eq!(own.status, Status::Certified, "{:?}", own.status);
    assert_eq!(own.kind, "safe fragment and symbolic states");
    let c = certify::certify(
        &p,
        name,
        engine::verdict::Proof::ExhaustiveSearch,
        Evidence::None,
        TIMEOUT,
    );
    assert_eq!(c.status, Status::Certified, "{:?}", c.status);
    assert!(
        ["inferred invariants", "safe fragment and symbolic states"].contains(&c.kind),
        "{}",
        c.kind
    );
}
