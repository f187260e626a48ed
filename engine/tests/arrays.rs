//! Arrays in the IR (`var a[]`, `a[i]`, `a[i] := e`): the `.gc` syntax and
//! its printing, the interpreter's semantics (stores evaluated before the
//! step, applied in order), bounded model checking over Z3's arrays
//! (initial contents taken from the model, traces replayed), the engines
//! that refuse them, and a differential test: random programs over short
//! arrays against their scalarised versions (one variable per element,
//! every index case a transition of its own) give the same answers at the
//! same depths.

use engine::bmc::{self, Bounds, Config};
use engine::generate::Rng;
use engine::interp::{self, ArrayValue, RunError};
use engine::ir::{
    ArrayDecl, ArrayId, Assign, CmpOp, Cond, LocId, Program, Rhs, Store, Term, Thread, ThreadId,
    TransId, Transition, VarDecl, VarId,
};
use engine::parse::parse_program;
use engine::print::print_program;
use engine::verdict::{UnknownKind, Verdict};
use std::time::{Duration, Instant};

fn program(src: &str) -> Program {
    parse_program(src).unwrap_or_else(|e| panic!("{e:?}"))
}

fn bmc(p: &Program, max_depth: usize) -> Verdict {
    let config = Config {
        bounds: Bounds { max_depth },
        deadline: Some(Instant::now() + Duration::from_secs(60)),
        ..Config::default()
    };
    bmc::check(p, &config).verdict
}

const FILL: &str = "
    var i = 0, j = 5;
    var a[] = 0;
    thread p at 0 {
      0 -> 0 when i < 5 do a[i] := i + 1, i := i + 1;
      0 -> 1 when i >= 5;
    }
    thread q at 0 {
      0 -> 0 when j < 10 do a[j] := 2 * a[j - 5], j := j + 1;
      0 -> 1 when j >= 10;
    }
    error p@1 && q@1 && a[7] != 6;
";

#[test]
fn arrays_print_and_parse_back() {
    let p = program(FILL);
    assert_eq!(p.arrays.len(), 1);
    assert_eq!(p.arrays[0].init, Some(0));
    assert_eq!(p.transitions[0].stores.len(), 1);
    let text = print_program(&p);
    assert!(text.contains("var i = 0, j = 5, a[] = 0;"), "{text}");
    assert!(text.contains("do i := i + 1, a[i] := i + 1;"), "{text}");
    assert!(text.contains("a[j] := 2 * a[j - 5]"), "{text}");
    let mut again = program(&text);
    again.source_map = p.source_map.clone();
    assert_eq!(again, p);
}

#[test]
fn array_mistakes_are_reported_at_the_source() {
    for (src, message) in [
        (
            "var x; thread p at 0 { 0 -> 1 when x[0] == 1; }",
            "undeclared array `x`",
        ),
        (
            "var a[]; thread p at 0 { 0 -> 1 when a == 1; }",
            "undeclared variable `a`",
        ),
        (
            "var a[]; thread p at 0 { 0 -> 1 do a[0] := *; }",
            "cannot be assigned `*`",
        ),
        (
            "var a[], a; thread p at 0 { 0 -> 1; }",
            "duplicate variable `a`",
        ),
        ("var a[3]; thread p at 0 { 0 -> 1; }", "`]`"),
        ("var a[]; thread p at 0 { 0 -> 1 when a[0 == 1; }", "`]`"),
    ] {
        let errors = parse_program(src).expect_err(src);
        let all: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert!(
            all.iter().any(|m| m.contains(message)),
            "{src}: {all:?} (expected {message})"
        );
    }
}

#[test]
fn stores_read_the_state_before_the_step_and_apply_in_order() {
    let p = program(
        "var a[] = 0;
         thread p at 0 {
           0 -> 1 do a[0] := 1, a[1] := 2;
           1 -> 2 do a[0] := a[1], a[1] := a[0];
           2 -> 3 do a[5] := 7, a[5] := 8;
         }",
    );
    let mut s = interp::initial_state(&p, vec![]).expect("initial");
    for t in 0..3 {
        s = interp::step(&p, &s, TransId::new(t), &[]).expect("steps");
    }
    let a = &s.arrays[0];
    assert_eq!(
        (a.get(0), a.get(1), a.get(5), a.get(-3)),
        (Some(2), Some(1), Some(8), Some(0))
    );
}

#[test]
fn unknown_initial_elements_are_an_error_of_the_run_not_a_value() {
    let p = program("var x; var a[]; thread p at 0 { 0 -> 1 do x := a[3]; }");
    let s = interp::initial_state(&p, vec![0]).expect("initial");
    assert_eq!(
        interp::step(&p, &s, TransId::new(0), &[]),
        Err(RunError::UnknownElement(ArrayId::new(0), 3))
    );
    let mut known = ArrayValue::default();
    known.cells.insert(3, 9);
    let s = interp::initial_state_with(&p, vec![0], vec![known]).expect("initial");
    let s = interp::step(&p, &s, TransId::new(0), &[]).expect("steps");
    assert_eq!(s.vals, vec![9]);
    // Given contents must agree with a declared initial value.
    let p = program("var a[] = 0; thread p at 0 { 0 -> 1; }");
    let mut bad = ArrayValue {
        rest: Some(0),
        ..ArrayValue::default()
    };
    bad.cells.insert(1, 4);
    assert!(interp::initial_state_with(&p, vec![], vec![bad]).is_err());
}

#[test]
fn bounded_model_checking_finds_array_bugs_with_replayed_traces() {
    let p = program(FILL);
    let Verdict::Unsafe(trace) = bmc(&p, 40) else {
        panic!("the overwritten element is found")
    };
    trace.replay(&p).expect("replays");
    assert_eq!(trace.steps.len(), 12);
    // The bug needs an element of arbitrary initial contents: the model's
    // value is in the trace's initial state.
    let p = first_at_two(42);
    let Verdict::Unsafe(trace) = bmc(&p, 10) else {
        panic!("the element 42 at index 2 is found")
    };
    assert_first_at_two(&p, &trace, 42);
}

/// A search of an array of arbitrary contents for the first element equal
/// to `v`: the error is that it is at index 2.
fn first_at_two(v: i128) -> Program {
    program(&format!(
        "var n, i = 0; var a[]; init n >= 3;
         thread p at 0 {{
           0 -> 0 when i < n && a[i] != {v} do i := i + 1;
           0 -> 1 when i < n && a[i] == {v};
         }}
         error p@1 && i == 2;"
    ))
}

/// The trace replays, and its initial contents put the first `v` at 2.
fn assert_first_at_two(p: &Program, trace: &engine::verdict::Trace, v: i128) {
    trace.replay(p).expect("replays");
    let initial = &trace.initial.arrays[0];
    assert_eq!(initial.get(2), Some(v));
    assert!(initial.get(0) != Some(v) && initial.get(1) != Some(v));
}

fn explicit(p: &Program, bound: i64) -> Verdict {
    let bounds = engine::explicit::Bounds {
        bound,
        max_states: 200_000,
        partial_order: false,
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    engine::explicit::check(p, &bounds, Some(deadline)).verdict
}

#[test]
fn the_explicit_search_chooses_an_element_where_it_is_first_read() {
    // Index 2 must hold 7: found at bound 10 (after 1 and 3), and the
    // trace's initial contents say so.
    let p = first_at_two(7);
    let Verdict::Unsafe(trace) = explicit(&p, 10) else {
        panic!("the element 7 at index 2 is found")
    };
    assert_eq!(trace.steps.len(), 3);
    assert_first_at_two(&p, &trace, 7);
    // Out of the bound: no trace.
    assert!(matches!(explicit(&p, 6), Verdict::Unknown(_)));
}

#[test]
fn the_explicit_search_writes_before_it_reads() {
    // Elements written first are never chosen: the trace starts from
    // contents nobody read.
    let p = program(
        "var i = 0; var a[];
         thread p at 0 { 0 -> 1 do a[3] := 5; 1 -> 2 when a[3] == 5 && a[4] == -1; }
         error p@2;",
    );
    let Verdict::Unsafe(trace) = explicit(&p, 2) else {
        panic!("found")
    };
    trace.replay(&p).expect("replays");
    let initial = &trace.initial.arrays[0];
    assert_eq!(initial.get(3), None);
    assert_eq!(initial.get(4), Some(-1));
}

#[test]
fn large_indices_and_sparse_contents_cost_nothing() {
    // A million elements apart: arrays are maps, not vectors.
    let p = program(
        "var i = 0; var a[] = 0;
         thread p at 0 { 0 -> 1 do a[1000000] := 5, a[-1000000] := 6; }
         thread q at 0 { 0 -> 1 when a[1000000] + a[-1000000] == 11; }
         error q@1;",
    );
    let Verdict::Unsafe(trace) = bmc(&p, 5) else {
        panic!("found")
    };
    assert_eq!(trace.steps.len(), 2);
}

#[test]
fn the_proof_engines_refuse_arrays() {
    let p = program(FILL);
    let refused =
        |v: &Verdict| matches!(v, Verdict::Unknown(u) if u.kind == UnknownKind::Unsupported);
    let ase = engine::ase::check(&p, &engine::ase::Config::default());
    assert!(refused(&ase.verdict), "{:?}", ase.verdict);
    let bounds = engine::explicit::Bounds {
        bound: 10,
        max_states: 1000,
        partial_order: true,
    };
    // The explicit search only looks for bugs: `FILL`'s (`q` reads `a[2]`
    // before `p` writes it).
    let explicit = engine::explicit::prove(&p, &bounds, None);
    let Verdict::Unsafe(trace) = &explicit.verdict else {
        panic!("{:?}", explicit.verdict)
    };
    trace.replay(&p).expect("replays");
    let inferred = engine::infer::prove(&p, None, None);
    assert!(!matches!(inferred.outcome.verdict, Verdict::Safe(_)));
    assert!(engine::ur::unsupported(&p).is_some());
    // The checker of certificates takes none either.
    let cert = engine::certify::Certificate {
        program: engine::certify::text::program_ref(&p, "p"),
        proof: "none".into(),
        invariants: Vec::new(),
    };
    assert!(!engine::certify::check::check(&p, &cert, None).valid());
}

// ----- the differential test -------------------------------------------------

/// Elements of each array in the generated programs: every index is
/// reduced modulo this.
const N: i64 = 3;

struct Gen {
    rng: Rng,
    vars: usize,
    arrays: usize,
}

impl Gen {
    fn constant(&mut self) -> Term {
        Term::Const(self.rng.below(5) as i64 - 2)
    }

    fn var(&mut self) -> Term {
        Term::Var(VarId::new(self.rng.below(self.vars)))
    }

    /// An index in `0..N`: a constant, or a variable plus a constant
    /// modulo `N`.
    fn index(&mut self) -> Term {
        if self.rng.chance(30) {
            return Term::Const(self.rng.below(N as usize) as i64);
        }
        let offset = self.constant();
        Term::Mod(
            Box::new(Term::Add(Box::new(self.var()), Box::new(offset))),
            N,
        )
    }

    fn select(&mut self) -> Term {
        let x = ArrayId::new(self.rng.below(self.arrays));
        Term::Select(x, Box::new(self.index()))
    }

    fn value(&mut self) -> Term {
        match self.rng.below(5) {
            0 => self.constant(),
            1 => self.var(),
            2 => self.select(),
            3 => Term::Add(Box::new(self.select()), Box::new(self.constant())),
            _ => Term::Add(Box::new(self.var()), Box::new(self.select())),
        }
    }

    fn comparison(&mut self) -> Cond {
        let op = CmpOp::ALL[self.rng.below(6)];
        Cond::Cmp(op, self.value(), self.value())
    }

    fn program(seed: u64) -> Program {
        let mut g = Gen {
            rng: Rng(seed),
            vars: 2,
            arrays: 1,
        };
        g.vars = 1 + g.rng.below(2);
        g.arrays = 1 + g.rng.below(2);
        let vars = (0..g.vars)
            .map(|v| VarDecl {
                name: format!("x{v}"),
                init: (!g.rng.chance(20)).then(|| g.rng.below(3) as i64),
            })
            .collect();
        let arrays = (0..g.arrays)
            .map(|x| ArrayDecl {
                name: format!("a{x}"),
                init: (!g.rng.chance(30)).then(|| g.rng.below(2) as i64),
            })
            .collect();
        let mut p = Program {
            vars,
            arrays,
            ..Program::default()
        };
        for t in 0..2 {
            p.threads.push(Thread {
                name: format!("t{t}"),
                locs: (0..3).map(|l| l.to_string()).collect(),
                initial: LocId::new(0),
                transitions: Vec::new(),
            });
            for n in 0..1 + g.rng.below(3) {
                let guard = if g.rng.chance(60) {
                    g.comparison()
                } else {
                    Cond::True
                };
                let assigns = if g.rng.chance(50) {
                    vec![Assign {
                        var: VarId::new(g.rng.below(g.vars)),
                        rhs: Rhs::Expr(g.value()),
                    }]
                } else {
                    Vec::new()
                };
                let stores = (0..g.rng.below(3))
                    .map(|_| Store {
                        array: ArrayId::new(g.rng.below(g.arrays)),
                        index: g.index(),
                        value: g.value(),
                    })
                    .collect();
                let from = LocId::new(g.rng.below(3));
                let to = LocId::new(g.rng.below(3));
                p.push_transition(
                    Transition {
                        thread: ThreadId::new(t),
                        label: format!("t{t}.{}", n + 1),
                        explicit_label: false,
                        from,
                        to,
                        guard,
                        assigns,
                        stores,
                    },
                    None,
                );
            }
        }
        let at = Cond::At(
            ThreadId::new(g.rng.below(2)),
            LocId::new(1 + g.rng.below(2)),
        );
        p.error
            .push(Cond::And(Box::new(at), Box::new(g.comparison())));
        p
    }
}

/// The variable of element `k` of array `x` in the scalarised program.
fn element(p: &Program, x: ArrayId, k: i64) -> VarId {
    VarId::new(p.vars.len() + x.index() * N as usize + k as usize)
}

/// The index terms of the selects in `t`, each once.
fn indices_of(t: &Term, out: &mut Vec<Term>) {
    match t {
        Term::Select(_, i) => {
            if !out.contains(i) {
                out.push((**i).clone());
            }
        }
        Term::Add(a, b) | Term::Sub(a, b) | Term::Nl(_, a, b) => {
            indices_of(a, out);
            indices_of(b, out);
        }
        Term::Mul(_, a) | Term::Neg(a) | Term::Div(a, _) | Term::Mod(a, _) => indices_of(a, out),
        Term::Const(_) | Term::Var(_) => {}
    }
}

fn cond_indices(c: &Cond, out: &mut Vec<Term>) {
    match c {
        Cond::Cmp(_, a, b) => {
            indices_of(a, out);
            indices_of(b, out);
        }
        Cond::Not(a) => cond_indices(a, out),
        Cond::And(a, b) | Cond::Or(a, b) => {
            cond_indices(a, out);
            cond_indices(b, out);
        }
        Cond::True | Cond::False | Cond::At(..) => {}
    }
}

/// `t` with each select of an index in `cases` replaced by the element's
/// variable (index `cases[j].0` has the value `cases[j].1`).
fn scalar_term(p: &Program, t: &Term, cases: &[(Term, i64)]) -> Term {
    let go = |a: &Term| Box::new(scalar_term(p, a, cases));
    match t {
        Term::Select(x, i) => {
            let k = cases.iter().find(|(e, _)| e == &**i).expect("a case").1;
            Term::Var(element(p, *x, k))
        }
        Term::Add(a, b) => Term::Add(go(a), go(b)),
        Term::Sub(a, b) => Term::Sub(go(a), go(b)),
        Term::Nl(op, a, b) => Term::Nl(*op, go(a), go(b)),
        Term::Mul(k, a) => Term::Mul(*k, go(a)),
        Term::Neg(a) => Term::Neg(go(a)),
        Term::Div(a, k) => Term::Div(go(a), *k),
        Term::Mod(a, k) => Term::Mod(go(a), *k),
        Term::Const(_) | Term::Var(_) => t.clone(),
    }
}

fn scalar_cond(p: &Program, c: &Cond, cases: &[(Term, i64)]) -> Cond {
    let go = |a: &Cond| Box::new(scalar_cond(p, a, cases));
    match c {
        Cond::Cmp(op, a, b) => Cond::Cmp(*op, scalar_term(p, a, cases), scalar_term(p, b, cases)),
        Cond::Not(a) => Cond::Not(go(a)),
        Cond::And(a, b) => Cond::And(go(a), go(b)),
        Cond::Or(a, b) => Cond::Or(go(a), go(b)),
        Cond::True | Cond::False | Cond::At(..) => c.clone(),
    }
}

/// Every assignment of values in `0..N` to the index terms, each with the
/// condition that the terms have them.
fn cases(indices: &[Term]) -> Vec<(Vec<(Term, i64)>, Cond)> {
    let mut out = vec![(Vec::new(), Cond::True)];
    for e in indices {
        out = out
            .into_iter()
            .flat_map(|(case, c)| {
                (0..N).map(move |k| {
                    let mut case = case.clone();
                    case.push((e.clone(), k));
                    let test = Cond::Cmp(CmpOp::Eq, e.clone(), Term::Const(k));
                    (case, Cond::And(Box::new(c.clone()), Box::new(test)))
                })
            })
            .collect();
    }
    out
}

/// The program with one variable per array element and one transition
/// per case of its indices.
fn scalarise(p: &Program) -> Program {
    let mut vars = p.vars.clone();
    for a in &p.arrays {
        for k in 0..N {
            vars.push(VarDecl {
                name: format!("{}_{k}", a.name),
                init: a.init,
            });
        }
    }
    let mut out = Program {
        vars,
        threads: p
            .threads
            .iter()
            .map(|t| Thread {
                transitions: Vec::new(),
                ..t.clone()
            })
            .collect(),
        ..Program::default()
    };
    for tr in &p.transitions {
        let mut indices = Vec::new();
        cond_indices(&tr.guard, &mut indices);
        for a in &tr.assigns {
            if let Rhs::Expr(e) = &a.rhs {
                indices_of(e, &mut indices);
            }
        }
        for st in &tr.stores {
            indices_of(&st.value, &mut indices);
            if !indices.contains(&st.index) {
                indices.push(st.index.clone());
            }
        }
        for (n, (case, test)) in cases(&indices).into_iter().enumerate() {
            let mut assigns: Vec<Assign> = tr
                .assigns
                .iter()
                .map(|a| Assign {
                    var: a.var,
                    rhs: match &a.rhs {
                        Rhs::Expr(e) => Rhs::Expr(scalar_term(p, e, &case)),
                        Rhs::Nondet => Rhs::Nondet,
                    },
                })
                .collect();
            for st in &tr.stores {
                let k = case.iter().find(|(e, _)| e == &st.index).expect("a case").1;
                let var = element(p, st.array, k);
                // Of two stores to one element the later one counts.
                assigns.retain(|a| a.var != var);
                assigns.push(Assign {
                    var,
                    rhs: Rhs::Expr(scalar_term(p, &st.value, &case)),
                });
            }
            let guard = Cond::And(Box::new(scalar_cond(p, &tr.guard, &case)), Box::new(test));
            out.push_transition(
                Transition {
                    label: format!("{}#{n}", tr.label),
                    guard,
                    assigns,
                    stores: Vec::new(),
                    ..tr.clone()
                },
                None,
            );
        }
    }
    for c in &p.error {
        let mut indices = Vec::new();
        cond_indices(c, &mut indices);
        for (case, test) in cases(&indices) {
            let c = scalar_cond(p, c, &case);
            out.error.push(Cond::And(Box::new(test), Box::new(c)));
        }
    }
    out
}

/// The length of the trace a bug finder found (replayed), `None` for
/// `unknown`.
fn found(v: &Verdict, p: &Program) -> Option<usize> {
    match v {
        Verdict::Unsafe(t) => {
            t.replay(p).expect("the trace replays");
            Some(t.steps.len())
        }
        Verdict::Unknown(u) => {
            assert_ne!(u.kind, UnknownKind::Internal, "{}", u.detail);
            None
        }
        Verdict::Safe(_) => panic!("a bug finder proves nothing"),
    }
}

#[test]
fn arrays_agree_with_their_scalarised_programs() {
    const DEPTH: usize = 6;
    let (mut unsafe_, mut total) = (0, 0);
    for seed in 0..300u64 {
        let p = Gen::program(seed);
        let s = scalarise(&p);
        let (a, b) = (found(&bmc(&p, DEPTH), &p), found(&bmc(&s, DEPTH), &s));
        assert_eq!(
            a,
            b,
            "seed {seed}: arrays {a:?}, scalarised {b:?}\n{}",
            print_program(&p)
        );
        unsafe_ += usize::from(a.is_some());
        total += 1;
    }
    assert_both_kinds(unsafe_, total);
}

/// Both kinds of answers are exercised: between a tenth and nine tenths
/// of the generated programs are unsafe.
fn assert_both_kinds(unsafe_: usize, total: usize) {
    assert!(
        unsafe_ > total / 10 && unsafe_ < total * 9 / 10,
        "{unsafe_} of {total}"
    );
}

#[test]
fn the_explicit_search_agrees_with_the_scalarised_programs() {
    // Over short arrays the search of the array program and that of its
    // scalarised version (the elements free variables) explore the same
    // values: each finds a bug where the other does, and a trace of the
    // array program is one of at least the scalarised one's length.
    const BOUND: i64 = 1;
    let (mut unsafe_, mut total) = (0, 0);
    for seed in 0..300u64 {
        let mut p = Gen::program(seed);
        // Free values in the bound in both (the search of the scalarised
        // program would otherwise choose them from every integer).
        for v in 0..p.vars.len() {
            bounded_initially(&mut p, VarId::new(v), BOUND);
        }
        let mut s = scalarise(&p);
        s.init = p.init.clone();
        for v in p.vars.len()..s.vars.len() {
            bounded_initially(&mut s, VarId::new(v), BOUND);
        }
        let (a, b) = (explicit(&p, BOUND), explicit(&s, BOUND));
        let (la, lb) = (found(&a, &p), found(&b, &s));
        match (la, lb) {
            (Some(x), Some(y)) => assert!(x >= y, "seed {seed}: {x} < {y}"),
            (None, None) => {}
            _ => {
                // The scalarised search discards states with values out of
                // the bound; the array search does not, and may need more
                // states: only its trace is checked, at its depth.
                if let Some(x) = la {
                    let depth = found(&bmc(&s, x), &s);
                    assert!(depth.is_some_and(|d| d <= x), "seed {seed}");
                } else {
                    panic!(
                        "seed {seed}: the scalarised search finds a bug in {lb:?} steps, the \
                         array search none ({a:?})\n{}",
                        print_program(&p)
                    );
                }
            }
        }
        unsafe_ += usize::from(la.is_some());
        total += 1;
    }
    assert_both_kinds(unsafe_, total);
}

/// Adds `-b <= v <= b` to the initial condition of `p` when `v` has no
/// initial value.
fn bounded_initially(p: &mut Program, v: VarId, b: i64) {
    if p.vars[v.index()].init.is_none() {
        let x = Term::Var(v);
        p.init
            .push(Cond::Cmp(CmpOp::Ge, x.clone(), Term::Const(-b)));
        p.init.push(Cond::Cmp(CmpOp::Le, x, Term::Const(b)));
    }
}
