//! The `.gc` parser and printer: the model files, round trips of random
//! programs, robustness on garbage, and the wording of error messages.

use std::path::PathBuf;
use std::sync::OnceLock;

use engine::ir::*;
use engine::parse::{parse_program, ParseError};
use engine::print::print_program;
use proptest::prelude::*;

// ----- helpers -----------------------------------------------------------

fn models_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/gc-models"
    ))
}

/// The model files as (name, text); empty when the directory is absent.
fn models() -> &'static [(String, String)] {
    static MODELS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    MODELS.get_or_init(|| {
        let Ok(dir) = std::fs::read_dir(models_dir()) else {
            return Vec::new();
        };
        let mut files: Vec<(String, String)> = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "gc"))
            .filter_map(|p| {
                let text = std::fs::read_to_string(&p).ok()?;
                Some((p.file_name()?.to_string_lossy().into_owned(), text))
            })
            .collect();
        files.sort();
        files
    })
}

/// The program from the format description, used when the models are absent.
const SPEC_EXAMPLE: &str = "\
// expect: safe
var x, y;          // no initialiser
var b = 0;

thread p1 at 1 {
  t1: 1 -> 2 do b := b + 1;
  t2: 2 -> 3 when x <= y && b == 2;
  t3: 3 -> 2 do x := *;
}

thread p2 at 1 {
  t4: 1 -> 2 do b := b + 1;
  t5: 2 -> 3 when x > y && b == 2;
  t6: 3 -> 2 do y := *;
}

error p1@3 && p2@3;
";

fn without_source_map(mut p: Program) -> Program {
    p.source_map = SourceMap::default();
    p
}

fn parse_ok(src: &str) -> Program {
    match parse_program(src) {
        Ok(p) => p,
        Err(errs) => panic!("unexpected errors in\n{src}\n{errs:#?}"),
    }
}

fn parse_err(src: &str) -> Vec<ParseError> {
    match parse_program(src) {
        Ok(p) => panic!("expected errors in\n{src}\ngot {p:#?}"),
        Err(errs) => errs,
    }
}

/// The only error of `src`, with the text its span covers.
fn single_error(src: &str) -> (ParseError, &str) {
    let errs = parse_err(src);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    let e = errs.into_iter().next().expect("one error");
    let text = &src[e.span.range()];
    (e, text)
}

/// Checks print → parse gives `p` back (source maps aside).
fn assert_round_trip(p: &Program) {
    let text = print_program(p);
    match parse_program(&text) {
        Ok(q) => assert_eq!(
            without_source_map(q),
            without_source_map(p.clone()),
            "round trip changed the program; printed text:\n{text}"
        ),
        Err(errs) => panic!("printed program does not parse:\n{text}\n{errs:#?}"),
    }
}

/// Spans must be usable for rendering: inside the text, on char boundaries.
fn assert_spans_valid(src: &str, errs: &[ParseError]) {
    assert!(!errs.is_empty());
    let spans = errs
        .iter()
        .flat_map(|e| std::iter::once(e.span).chain(e.labels.iter().map(|l| l.0)));
    for s in spans {
        assert!(
            s.start <= s.end && src.get(s.range()).is_some(),
            "bad span {s:?}"
        );
    }
}

// ----- the model files and hand-written programs -------------------------

#[test]
fn model_files_parse_and_round_trip() {
    if models().is_empty() {
        // CI has ../shared beside the repository: there it is required.
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is absent",
            models_dir().display()
        );
        eprintln!(
            "note: {} is absent; skipping the model files",
            models_dir().display()
        );
        return;
    }
    assert!(models().len() >= 31, "only {} models found", models().len());
    for (name, text) in models() {
        let p = match parse_program(text) {
            Ok(p) => p,
            Err(errs) => panic!("{name} does not parse: {errs:#?}"),
        };
        assert!(!p.threads.is_empty() && !p.error.is_empty(), "{name}");
        assert_eq!(
            p.source_map.transitions.len(),
            p.transitions.len(),
            "{name}"
        );
        assert_round_trip(&p);
        // The printed form is a fixed point of printing.
        let printed = print_program(&p);
        assert_eq!(print_program(&parse_ok(&printed)), printed, "{name}");
    }
}

#[test]
fn spec_example_structure() {
    let p = parse_ok(SPEC_EXAMPLE);
    let names: Vec<_> = p.vars.iter().map(|v| (v.name.as_str(), v.init)).collect();
    assert_eq!(names, [("x", None), ("y", None), ("b", Some(0))]);
    assert_eq!(p.threads.len(), 2);
    let p1 = &p.threads[0];
    assert_eq!(p1.name, "p1");
    assert_eq!(p1.locs, ["1", "2", "3"]);
    assert_eq!(p1.initial, LocId(0));
    assert_eq!(p1.transitions, [TransId(0), TransId(1), TransId(2)]);
    assert_eq!(
        p.threads[1].transitions,
        [TransId(3), TransId(4), TransId(5)]
    );
    let t2 = &p.transitions[1];
    assert_eq!((t2.label.as_str(), t2.explicit_label), ("t2", true));
    assert_eq!((t2.from, t2.to), (LocId(1), LocId(2)));
    assert_eq!(p.named(&t2.guard).to_string(), "x <= y && b == 2");
    assert!(t2.assigns.is_empty());
    let t3 = &p.transitions[2];
    assert_eq!(t3.guard, Cond::True);
    assert_eq!(
        t3.assigns,
        [Assign {
            var: VarId(0),
            rhs: Rhs::Nondet
        }]
    );
    assert!(p.has_inputs());
    assert_eq!(
        p.error,
        [Cond::And(
            Box::new(Cond::At(ThreadId(0), LocId(2))),
            Box::new(Cond::At(ThreadId(1), LocId(2)))
        )]
    );
    assert_round_trip(&p);
}

#[test]
fn generated_labels_locations_and_forward_references() {
    let src = "
        error q@done || p@c;      # comments with a hash, too
        init x >= -5 && y == x;
        thread p at idle {
          idle -> a when x > 0;
          named: a -> b do x := x - 1, y := *;
          b -> c;
          c -> idle;
        }
        thread q at 0 { 0 -> done; }
        var x = -5, y;
    ";
    let p = parse_ok(src);
    assert_eq!(p.vars[0].init, Some(-5));
    assert_eq!(p.threads[0].locs, ["idle", "a", "b", "c"]);
    assert_eq!(p.threads[1].locs, ["0", "done"]);
    let labels: Vec<_> = p
        .transitions
        .iter()
        .map(|t| (t.label.as_str(), t.explicit_label))
        .collect();
    assert_eq!(
        labels,
        [
            ("p.1", false),
            ("named", true),
            ("p.3", false),
            ("p.4", false),
            ("q.1", false)
        ]
    );
    assert_eq!(p.transitions[4].thread, ThreadId(1));
    assert_eq!(p.init.len(), 1);
    assert_eq!(p.named(&p.error[0]).to_string(), "q@done || p@c");
    assert_round_trip(&p);
}

#[test]
fn source_map_spans() {
    let src =
        "var a = 1, bb;\nthread p at 0 {\n  l: 0 -> 1 when a > 0;\n  1 -> 0;\n}\nerror p@1;\n";
    let p = parse_ok(src);
    let text = |s: Span| &src[s.range()];
    let vars: Vec<_> = p.source_map.vars.iter().map(|&s| text(s)).collect();
    assert_eq!(vars, ["a = 1", "bb"]);
    assert_eq!(text(p.source_map.threads[0]), "thread p at 0");
    let trans: Vec<_> = p.source_map.transitions.iter().map(|&s| text(s)).collect();
    assert_eq!(trans, ["l: 0 -> 1 when a > 0;", "1 -> 0;"]);
}

#[test]
fn literals_and_products() {
    let p = parse_ok(
        "var x; thread p at 0 { 0 -> 0 do x := (-3) * x + x * 2 - -3 * x + -(3) + 2 * 3 * x; }",
    );
    let Rhs::Expr(t) = &p.transitions[0].assigns[0].rhs else {
        panic!("expected an expression");
    };
    let x = || Box::new(Term::Var(VarId(0)));
    let expected = Term::Add(
        Box::new(Term::Add(
            Box::new(Term::Sub(
                Box::new(Term::Add(
                    Box::new(Term::Mul(-3, x())),
                    Box::new(Term::Mul(2, x())),
                )),
                Box::new(Term::Mul(-3, x())),
            )),
            Box::new(Term::Neg(Box::new(Term::Const(3)))),
        )),
        // A constant side is folded: 2 * 3 * x is (2 * 3) * x.
        Box::new(Term::Mul(6, x())),
    );
    assert_eq!(*t, expected);
    assert_eq!(
        p.named(t).to_string(),
        "-3 * x + 2 * x - -3 * x + -(3) + 6 * x"
    );
    assert_round_trip(&p);

    let p = parse_ok(
        "var x = -9223372036854775808, y = 9223372036854775807;
         init x < -9223372036854775808 * y;",
    );
    assert_eq!(p.vars[0].init, Some(i64::MIN));
    assert_eq!(p.vars[1].init, Some(i64::MAX));
    assert_round_trip(&p);
}

#[test]
fn division_and_remainder_are_euclidean_by_positive_constants() {
    let p = parse_ok(
        "var x, y; thread p at 0 { 0 -> 0 do x := 2 * (x - 1) / 4 % 3, y := 3 * (y % 5); }",
    );
    let [Rhs::Expr(a), Rhs::Expr(b)] = [
        &p.transitions[0].assigns[0].rhs,
        &p.transitions[0].assigns[1].rhs,
    ] else {
        panic!("expected expressions");
    };
    assert_eq!(p.named(a).to_string(), "2 * (x - 1) / 4 % 3");
    assert_eq!(p.named(b).to_string(), "3 * (y % 5)");
    assert_round_trip(&p);
    // Rounded down, remainder in 0..k (unlike C, which rounds toward zero).
    let eval = |x: i128| engine::interp::eval_term(a, &[x, 0]).unwrap();
    assert_eq!(eval(-7), (2 * (-8i128)).div_euclid(4).rem_euclid(3)); // -4 % 3 == 2
    assert_eq!(eval(-7), 2);
    assert_eq!(eval(9), 1); // 16 / 4 == 4, 4 % 3 == 1
    for bad in ["x := x / 0", "x := x % -2", "x := x / y"] {
        let errs = parse_err(&format!("var x, y; thread p at 0 {{ 0 -> 0 do {bad}; }}"));
        assert_eq!(errs.len(), 1, "{bad}: {errs:?}");
    }
}

#[test]
fn precedence() {
    let p = parse_ok("var a, b; init !a > 0 || a < b && !(b == 1) && true;");
    let shown = p.named(&p.init[0]).to_string();
    assert_eq!(shown, "!a > 0 || a < b && !b == 1 && true");
    let Cond::Or(l, r) = &p.init[0] else {
        panic!("|| should be outermost")
    };
    assert!(matches!(**l, Cond::Not(_)));
    assert!(matches!(**r, Cond::And(..)));
    assert_round_trip(&p);
}

#[test]
fn printer_layout() {
    let p = parse_ok(
        "var x, y = -1; init x > 0;
         thread p at 1 { long_label: 1 -> 2 when x > 0 do x := *, y := x; s: 2 -> 1; 1 -> 1; }
         error p@2;",
    );
    let expected = "\
var x, y = -1;

init x > 0;

thread p at 1 {
  long_label: 1 -> 2 when x > 0 do x := *, y := x;
  s:          2 -> 1;
              1 -> 1;
}

error p@2;
";
    assert_eq!(print_program(&p), expected);
    assert_eq!(print_program(&Program::default()), "");
    assert_eq!(parse_ok(""), Program::default());
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 100_000;
    let cases = [
        format!("var x; init {}x > 0{};", "(".repeat(n), ")".repeat(n)),
        format!("var x; init {}x > 0;", "!".repeat(n)),
        format!("var x; init {}x > 0;", "- ".repeat(n)),
        format!("var x; init x{} > 0;", " + x".repeat(n)),
        format!("var x; init x > 0{};", " || x > 0".repeat(n)),
    ];
    for src in &cases {
        let errs = parse_err(src);
        assert!(errs[0].message.contains("nested too deeply"), "{errs:?}");
    }
    // Realistic depths are fine, including in later recursive passes.
    parse_ok(&format!(
        "var x; init {}x > 0{};",
        "(".repeat(60),
        ")".repeat(60)
    ));
    let p = parse_ok(&format!(
        "var x; init {}x{} > 0;",
        "-(".repeat(30),
        " + x".repeat(400) + &")".repeat(30)
    ));
    assert_round_trip(&p);
}

// ----- error messages ----------------------------------------------------

#[test]
fn error_unexpected_token() {
    let (e, text) = single_error("var x;\nthread p at 0 {\n  0 -> 1 when x > 0 x := 1;\n}");
    assert_eq!(
        e.message,
        "expected an operator, `do` or `;`, found identifier `x`"
    );
    assert_eq!(text, "x");
    assert_eq!(e.span.start, 43);

    let (e, text) = single_error("var x\nthread p at 0 {}");
    assert_eq!(
        e.message,
        "expected `=`, `,` or `;`, found keyword `thread`"
    );
    assert_eq!(text, "thread");
    assert_eq!(e.labels.len(), 1, "hint at the missing `;`");
    assert_eq!(&"var x\nthread"[e.labels[0].0.range()], "x");

    let (e, _) = single_error("var when;");
    assert_eq!(e.message, "expected a variable name, found keyword `when`");
    assert_eq!(e.notes, ["`when` is a reserved word"]);

    let (e, text) = single_error("var x; init (x > 0;");
    assert_eq!(e.message, "expected an operator or `)`, found `;`");
    assert_eq!(text, ";");
    assert_eq!(e.labels[0].1, "unclosed parenthesis");

    let (e, text) = single_error("var x; init x > ");
    assert_eq!(e.message, "expected an expression, found end of file");
    assert_eq!((text, e.span.start), ("", 16));

    let (e, _) = single_error("var x; init 0 < x < 2;");
    assert_eq!(e.message, "comparison operators cannot be chained");

    let (e, _) = single_error("x = 1;");
    assert_eq!(
        e.message,
        "expected `var`, `init`, `thread` or `error`, found identifier `x`"
    );
}

#[test]
fn syntax_errors_are_recovered_from() {
    let errs = parse_err(
        "var x;\nthread p at 0 {\n  0 -> ;\n  0 -> 1 do x = 1;\n  1 -> 0;\n}\nerror x >;\n",
    );
    let messages: Vec<_> = errs.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "expected a location, found `;`",
            "expected `:=`, found `=`",
            "expected an expression, found `;`",
        ]
    );
}

#[test]
fn error_lexical() {
    let (e, text) = single_error("var x; init x > 0 & x < 1;");
    assert_eq!(e.message, "invalid character `&`");
    assert_eq!(text, "&");
    assert_eq!(e.notes, ["conjunction is written `&&`"]);

    let errs = parse_err("var é = 1 $ 12ab;");
    let messages: Vec<_> = errs.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "invalid character `é`",
            "invalid character `$`",
            "invalid integer literal `12ab`"
        ]
    );
    assert_eq!(errs[0].span, Span::new(4, 6));
}

#[test]
fn error_undeclared_names() {
    let src = "var x;\nthread p at 0 {\n  0 -> 1 when y > 0 do z := x;\n}\nerror q@1 || p@7;\n";
    let errs = parse_err(src);
    let got: Vec<_> = errs
        .iter()
        .map(|e| (e.message.as_str(), &src[e.span.range()]))
        .collect();
    assert_eq!(
        got,
        [
            ("undeclared variable `y`", "y"),
            ("undeclared variable `z`", "z"),
            ("undeclared thread `q`", "q"),
            ("thread `p` has no location `7`", "7"),
        ]
    );
    assert_eq!(errs[2].notes, ["declared threads: p"]);
    assert_eq!(&src[errs[3].labels[0].0.range()], "thread p at 0");
    assert!(
        errs[3].notes[0].ends_with("are: 0, 1"),
        "{:?}",
        errs[3].notes
    );
}

#[test]
fn error_duplicates() {
    let src = "var x, y;\nvar x;\nthread p at 0 { a: 0 -> 0 do y := 1, y := 2; }\n\
               thread p at 0 { a: 0 -> 0; }\n";
    let errs = parse_err(src);
    let got: Vec<_> = errs
        .iter()
        .map(|e| {
            (
                e.message.as_str(),
                e.span.start as usize,
                e.labels[0].0.start as usize,
            )
        })
        .collect();
    let find = |pat: &str| src.find(pat).expect("pattern occurs");
    let rfind = |pat: &str| src.rfind(pat).expect("pattern occurs");
    assert_eq!(
        got,
        [
            ("duplicate variable `x`", find("x;"), find("x,")),
            (
                "variable `y` is assigned twice in one transition",
                find("y := 2"),
                find("y := 1")
            ),
            ("duplicate thread `p`", rfind("p at"), find("thread p")),
            ("duplicate label `a`", rfind("a:"), find("a:")),
        ]
    );
    assert_eq!(&src[errs[2].labels[0].0.range()], "thread p at 0");
}

#[test]
fn error_semantic_restrictions() {
    let (e, text) = single_error("var x, y; init x * y > 0;");
    assert_eq!(
        e.message,
        "non-linear product: neither side of `*` is an integer literal"
    );
    assert_eq!(text, "x * y");

    let (e, text) = single_error("var x = 9223372036854775808;");
    assert_eq!(e.message, "integer literal out of range");
    assert_eq!(text, "9223372036854775808");
    let (e, text) = single_error("var x; init x > -99999999999999999999999;");
    assert_eq!(e.message, "integer literal out of range");
    assert_eq!(text, "-99999999999999999999999");

    // Location conditions are allowed in guards and `init` (as the grammar
    // says), but must name a known location.
    assert!(parse_program("var x; thread p at 0 { 0 -> 1 when p@0 && x > 0; }").is_ok());
    assert!(parse_program("thread p at 0 { } init p@0;").is_ok());
    let (e, text) = single_error("var x; thread p at 0 { 0 -> 1 when p@7; }");
    assert_eq!(e.message, "thread `p` has no location `7`");
    assert_eq!(text, "7");

    let (e, text) = single_error("var x; error x;");
    assert_eq!(
        e.message,
        "expected a condition, found an integer expression"
    );
    assert_eq!(text, "x");
    let (e, text) = single_error("var x; error (x > 0) + 1 > 0;");
    assert_eq!(
        e.message,
        "expected an integer expression, found a condition"
    );
    assert_eq!(text, "x > 0");
    let (e, _) = single_error("var x; thread p at 0 { 0 -> 0 do x := x > 0; }");
    assert_eq!(
        e.message,
        "expected an integer expression, found a condition"
    );
}

// ----- random programs ---------------------------------------------------

const VAR_NAMES: &[&str] = &["x", "y", "cnt", "_t0"];
const THREAD_NAMES: &[&str] = &["p1", "p2", "worker"];
const LOC_NAMES: &[&str] = &["0", "1", "12", "idle", "cs"];

fn arb_term() -> impl Strategy<Value = Term> {
    let leaf = prop_oneof![
        (-3i64..20).prop_map(Term::Const),
        any::<i64>().prop_map(Term::Const),
        // Variable indices are reduced modulo the number of variables later.
        (0u32..4).prop_map(|v| Term::Var(VarId(v))),
    ];
    leaf.prop_recursive(3, 16, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::Sub(Box::new(a), Box::new(b))),
            (prop_oneof![-5i64..5, any::<i64>()], inner.clone())
                .prop_map(|(k, a)| Term::Mul(k, Box::new(a))),
            (inner.clone(), 1i64..10).prop_map(|(a, k)| Term::Div(Box::new(a), k)),
            (inner.clone(), 1i64..10).prop_map(|(a, k)| Term::Mod(Box::new(a), k)),
            (0..NlOp::ALL.len(), inner.clone(), inner.clone()).prop_map(|(o, a, b)| Term::Nl(
                NlOp::ALL[o],
                Box::new(a),
                Box::new(b)
            )),
            inner.prop_map(|a| Term::Neg(Box::new(a))),
        ]
    })
}

fn arb_cmp_op() -> impl Strategy<Value = CmpOp> {
    prop_oneof![
        Just(CmpOp::Eq),
        Just(CmpOp::Ne),
        Just(CmpOp::Lt),
        Just(CmpOp::Le),
        Just(CmpOp::Gt),
        Just(CmpOp::Ge),
    ]
}

fn arb_cond(with_locations: bool) -> BoxedStrategy<Cond> {
    let cmp = (arb_cmp_op(), arb_term(), arb_term()).prop_map(|(op, a, b)| Cond::Cmp(op, a, b));
    let leaf = if with_locations {
        prop_oneof![
            Just(Cond::True),
            Just(Cond::False),
            cmp,
            // Thread and location indices are reduced later.
            (0u32..3, 0u32..5).prop_map(|(t, l)| Cond::At(ThreadId(t), LocId(l))),
        ]
        .boxed()
    } else {
        prop_oneof![Just(Cond::True), Just(Cond::False), cmp].boxed()
    };
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Cond::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Cond::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Cond::Or(Box::new(a), Box::new(b))),
        ]
    })
    .boxed()
}

#[derive(Debug, Clone)]
struct RawTransition {
    labelled: bool,
    from: usize,
    to: usize,
    guard: Cond,
    /// Variable index (reduced later) and right-hand side (`None`: `*`).
    assigns: Vec<(u32, Option<Term>)>,
}

#[derive(Debug, Clone)]
struct RawThread {
    initial: usize,
    transitions: Vec<RawTransition>,
}

fn arb_thread() -> impl Strategy<Value = RawThread> {
    let transition = (
        any::<bool>(),
        0..LOC_NAMES.len(),
        0..LOC_NAMES.len(),
        arb_cond(false),
        prop::collection::vec((0u32..4, prop::option::weighted(0.8, arb_term())), 0..=3),
    )
        .prop_map(|(labelled, from, to, guard, assigns)| RawTransition {
            labelled,
            from,
            to,
            guard,
            assigns,
        });
    (0..LOC_NAMES.len(), prop::collection::vec(transition, 0..=4)).prop_map(
        |(initial, transitions)| RawThread {
            initial,
            transitions,
        },
    )
}

fn fix_term(t: &mut Term, nvars: u32) {
    match t {
        Term::Const(_) => {}
        Term::Var(v) => v.0 %= nvars,
        Term::Add(a, b) | Term::Sub(a, b) | Term::Nl(_, a, b) => {
            fix_term(a, nvars);
            fix_term(b, nvars);
        }
        Term::Mul(_, a) | Term::Neg(a) | Term::Div(a, _) | Term::Mod(a, _) | Term::Select(_, a) => {
            fix_term(a, nvars)
        }
    }
}

fn fix_cond(c: &mut Cond, nvars: u32, threads: &[Thread]) {
    match c {
        Cond::True | Cond::False => {}
        Cond::Cmp(_, a, b) => {
            fix_term(a, nvars);
            fix_term(b, nvars);
        }
        Cond::At(t, l) => {
            t.0 %= threads.len() as u32;
            l.0 %= threads[t.index()].locs.len() as u32;
        }
        Cond::Not(a) => fix_cond(a, nvars, threads),
        Cond::And(a, b) | Cond::Or(a, b) => {
            fix_cond(a, nvars, threads);
            fix_cond(b, nvars, threads);
        }
    }
}

/// Assembles a well-formed program: locations in order of first appearance,
/// generated labels `THREAD.N`, indices in range, one assignment per variable.
fn build_program(
    var_inits: Vec<Option<i64>>,
    mut init: Vec<Cond>,
    raw_threads: Vec<RawThread>,
    mut error: Vec<Cond>,
) -> Program {
    let nvars = var_inits.len() as u32;
    let mut p = Program {
        vars: var_inits
            .into_iter()
            .enumerate()
            .map(|(i, init)| VarDecl {
                name: VAR_NAMES[i].to_string(),
                init,
            })
            .collect(),
        ..Program::default()
    };
    for (ti, raw) in raw_threads.into_iter().enumerate() {
        let tid = ThreadId::new(ti);
        let name = THREAD_NAMES[ti].to_string();
        let mut locs: Vec<String> = Vec::new();
        let mut loc = |i: usize| {
            let n = LOC_NAMES[i];
            let pos = locs.iter().position(|l| l == n).unwrap_or_else(|| {
                locs.push(n.to_string());
                locs.len() - 1
            });
            LocId::new(pos)
        };
        let initial = loc(raw.initial);
        let mut ids = Vec::new();
        for (n, rt) in raw.transitions.into_iter().enumerate() {
            let (from, to) = (loc(rt.from), loc(rt.to));
            let id = TransId::new(p.transitions.len());
            let label = if rt.labelled {
                format!("t{}", id.0)
            } else {
                format!("{name}.{}", n + 1)
            };
            let mut guard = rt.guard;
            fix_cond(&mut guard, nvars, &[]);
            let mut assigns: Vec<Assign> = Vec::new();
            for (v, rhs) in rt.assigns {
                let var = VarId(v % nvars);
                if assigns.iter().any(|a| a.var == var) {
                    continue;
                }
                let rhs = match rhs {
                    Some(mut t) => {
                        fix_term(&mut t, nvars);
                        Rhs::Expr(t)
                    }
                    None => Rhs::Nondet,
                };
                assigns.push(Assign { var, rhs });
            }
            p.transitions.push(Transition {
                thread: tid,
                label,
                explicit_label: rt.labelled,
                from,
                to,
                guard,
                assigns,
                stores: Vec::new(),
            });
            ids.push(id);
        }
        p.threads.push(Thread {
            name,
            locs,
            initial,
            transitions: ids,
        });
    }
    for c in &mut init {
        fix_cond(c, nvars, &[]);
    }
    for c in &mut error {
        fix_cond(c, nvars, &p.threads);
    }
    p.init = init;
    p.error = error;
    p
}

fn arb_program() -> impl Strategy<Value = Program> {
    (
        prop::collection::vec(
            prop::option::of(prop_oneof![-10i64..10, any::<i64>()]),
            1..=VAR_NAMES.len(),
        ),
        prop::collection::vec(arb_cond(false), 0..=2),
        prop::collection::vec(arb_thread(), 1..=THREAD_NAMES.len()),
        prop::collection::vec(arb_cond(true), 0..=3),
    )
        .prop_map(|(vars, init, threads, error)| build_program(vars, init, threads, error))
}

// ----- garbage input -----------------------------------------------------

/// Fragments that make random edits likely to reach deep into the parser.
const FRAGMENTS: &[&str] = &[
    "var",
    "init",
    "thread",
    "at",
    "when",
    "do",
    "error",
    "true",
    "false",
    "x",
    "p1",
    "1",
    "-",
    "->",
    ":=",
    ":",
    ";",
    ",",
    "(",
    ")",
    "{",
    "}",
    "@",
    "*",
    "+",
    "!",
    "&&",
    "||",
    "==",
    "<=",
    "=",
    "//",
    "#",
    "\n",
    " ",
    "99999999999999999999",
    "é",
    "&",
    "0x1",
];

fn arb_token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..60).prop_map(|v| v.join(" "))
}

#[derive(Debug, Clone)]
enum Edit {
    Delete(prop::sample::Index, usize),
    Insert(prop::sample::Index, &'static str),
    Duplicate(prop::sample::Index, usize),
}

fn arb_edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<prop::sample::Index>(), 1usize..12).prop_map(|(i, n)| Edit::Delete(i, n)),
        (
            any::<prop::sample::Index>(),
            prop::sample::select(FRAGMENTS)
        )
            .prop_map(|(i, f)| Edit::Insert(i, f)),
        (any::<prop::sample::Index>(), 1usize..40).prop_map(|(i, n)| Edit::Duplicate(i, n)),
    ]
}

fn char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply_edit(s: &mut String, edit: &Edit) {
    let at = |i: &prop::sample::Index, s: &String| char_boundary(s, i.index(s.len() + 1));
    match edit {
        Edit::Delete(i, n) => {
            let start = at(i, s);
            let end = char_boundary(s, start + n);
            s.replace_range(start..end, "");
        }
        Edit::Insert(i, f) => {
            let pos = at(i, s);
            s.insert_str(pos, f);
        }
        Edit::Duplicate(i, n) => {
            let start = at(i, s);
            let end = char_boundary(s, start + n);
            let piece = s[start..end].to_string();
            s.insert_str(end, &piece);
        }
    }
}

/// Parsing never panics; errors have renderable spans; whatever parses
/// round-trips.
fn check_robust(src: &str) {
    match parse_program(src) {
        Ok(p) => assert_round_trip(&p),
        Err(errs) => assert_spans_valid(src, &errs),
    }
}

proptest! {
    // 256 cases each by default; set PROPTEST_CASES for a longer run.
    #[test]
    fn random_programs_round_trip(p in arb_program()) {
        assert_round_trip(&p);
    }

    #[test]
    fn random_strings_do_not_panic(s in ".{0,200}") {
        check_robust(&s);
    }

    #[test]
    fn token_soup_does_not_panic(s in arb_token_soup()) {
        check_robust(&s);
    }

    #[test]
    fn edited_models_do_not_panic(
        file in any::<prop::sample::Index>(),
        edits in prop::collection::vec(arb_edit(), 1..6),
    ) {
        let mut src = if models().is_empty() {
            SPEC_EXAMPLE.to_string()
        } else {
            models()[file.index(models().len())].1.clone()
        };
        for e in &edits {
            apply_edit(&mut src, e);
        }
        check_robust(&src);
    }
}
