//! The non-linear terms (`Term::Nl`): the interpreter's values against
//! the two Z3 encodings (bounded model checking and the certificate
//! checker, written separately) on random operands, the parser and the
//! printer, and the abstraction engines' refusal.

use engine::bmc::{self, Bounds, Config};
use engine::certify::check::check;
use engine::certify::text;
use engine::interp::eval_term;
use engine::ir::{NlOp, Program, Term, VarId};
use engine::parse::parse_program;
use engine::print::print_program;
use engine::verdict::Verdict;
use std::time::{Duration, Instant};

fn program(src: &str) -> Program {
    parse_program(src).unwrap_or_else(|e| panic!("{src}\n{e:?}"))
}

/// A small xorshift generator (deterministic, no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A value that is often small, zero, negative or near a power of two.
    fn value(&mut self, bits: u32) -> i64 {
        let r = self.next();
        let v = match r % 4 {
            0 => (r >> 8) as i64 % 10,
            1 => -((r >> 8) as i64 % 10),
            2 => (1i64 << ((r >> 8) % u64::from(bits))) - ((r >> 16) % 3) as i64,
            _ => ((r >> 2) as i64) >> (64 - bits),
        };
        if (r >> 40).is_multiple_of(2) {
            v
        } else {
            v.wrapping_neg()
        }
    }
}

fn bmc_config() -> Config {
    Config {
        bounds: Bounds { max_depth: 2 },
        deadline: Some(Instant::now() + Duration::from_secs(60)),
        ..Config::default()
    }
}

/// `z := op(x, y)` from `x == a`, `y == b`, with the error `z == c` (when
/// `hit`) or `z != c` after the step.
fn one_step(op: NlOp, a: i64, b: i64, c: i128, eq: bool) -> Program {
    program(&format!(
        "var x = {a}, y = {b}, z = 0;\n\
         thread t at s {{ go: s -> e do z := {}(x, y); }}\n\
         error t@e && z {} {c};",
        op.name(),
        if eq { "==" } else { "!=" },
    ))
}

#[test]
fn interpreter_bmc_and_certificate_checker_agree_on_random_operands() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..24 {
        for op in NlOp::ALL {
            // Products of 31-bit operands fit the literals of `.gc`.
            let bits = if op == NlOp::Mul { 31 } else { 62 };
            let (a, b) = (rng.value(bits), rng.value(bits));
            let b = if round == 0 { 0 } else { b };
            let t = Term::Nl(
                op,
                Box::new(Term::Var(VarId(0))),
                Box::new(Term::Var(VarId(1))),
            );
            let c = eval_term(&t, &[a.into(), b.into()]).expect("no overflow");
            let what = format!("{}({a}, {b}) = {c}", op.name());
            // BMC reaches `z == c` (and the interpreter replays it) ...
            let hit = one_step(op, a, b, c, true);
            match bmc::check(&hit, &bmc_config()).verdict {
                Verdict::Unsafe(tr) => tr.replay(&hit).expect("replays"),
                v => panic!("{what}: BMC did not reach the value: {v:?}"),
            }
            // ... and no other value.
            let miss = one_step(op, a, b, c, false);
            let v = bmc::check(&miss, &bmc_config()).verdict;
            assert!(
                matches!(v, Verdict::Unknown(_)),
                "{what}: BMC found another value: {v:?}"
            );
            // The certificate checker's own encoding accepts `z == c` after
            // the step and rejects `z == c + 1`.
            let good = format!(
                "invariant [t@s] {{ x == {a} && y == {b} && z == 0 }}\n\
                 invariant [t@e] {{ z == {c} }}"
            );
            let cert = text::parse(&miss, &good).unwrap_or_else(|e| panic!("{e:?}"));
            let r = check(&miss, &cert, Some(Duration::from_secs(60)));
            assert_eq!(r.result, Ok(()), "{what}: certificate rejected");
            let bad = good.replace(&format!("z == {c} }}"), &format!("z == {} }}", c + 1));
            let cert = text::parse(&miss, &bad).unwrap_or_else(|e| panic!("{e:?}"));
            let r = check(&miss, &cert, Some(Duration::from_secs(60)));
            assert!(r.result.is_err(), "{what}: wrong certificate accepted");
        }
    }
}

#[test]
fn c_semantics_of_division_remainder_and_bitwise_operations() {
    let ev = |op: NlOp, a: i128, b: i128| op.apply(a, b).unwrap();
    assert_eq!(ev(NlOp::Div, -7, 2), -3);
    assert_eq!(ev(NlOp::Rem, -7, 2), -1);
    assert_eq!(ev(NlOp::Div, 7, -2), -3);
    assert_eq!(ev(NlOp::Rem, 7, -2), 1);
    assert_eq!(ev(NlOp::Div, 7, 0), 0);
    assert_eq!(ev(NlOp::Rem, 7, 0), 7);
    assert_eq!(ev(NlOp::And, -1, 12), 12);
    assert_eq!(ev(NlOp::Or, -8, 3), -5);
    assert_eq!(ev(NlOp::Xor, -1, 5), -6);
    assert_eq!(NlOp::Mul.apply(i128::MAX, 2), None);
}

#[test]
fn printed_and_parsed_back() {
    let src = "var x, y, z;\n\
               thread t at s { go: s -> s when band(x, y + 1) > 0 do z := mul(x, cdiv(y, 3)) + crem(x, y) - bxor(bor(x, 1), y); }\n\
               error z > 5;\n";
    let p = program(src);
    let printed = print_program(&p);
    assert_eq!(program(&printed).transitions, p.transitions, "{printed}");
    assert!(printed.contains("mul(x, cdiv(y, 3))"), "{printed}");
    let e = parse_program("var x; thread t at s { go: s -> s do x := pow(x, 2); } error x > 0;")
        .expect_err("unknown operation");
    assert!(
        format!("{e:?}").contains("unknown operation `pow`"),
        "{e:?}"
    );
}

#[test]
fn the_abstraction_engines_refuse_non_linear_programs() {
    let p = program(
        "var x, y, z = 0;\n\
         thread t at s { go: s -> e do z := mul(x, y); }\n\
         error t@e && z < 0;",
    );
    assert!(p.nonlinear() && p.divides());
    let o = engine::ase::check(&p, &engine::ase::Config::default());
    match o.verdict {
        Verdict::Unknown(why) => assert!(why.detail.contains("non-linear"), "{why}"),
        v => panic!("{v:?}"),
    }
}
