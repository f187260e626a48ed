//! Accesses into large arrays split into a case per element: the
//! conditions the lowering builds from thousands of cases must stay
//! shallow, since every engine walks conditions recursively (a chain of
//! 4,000 disjuncts overflowed the stack of a portfolio thread).

mod common;

use engine::ir::Cond;
use lowering::{Checks, Options};

fn depth(c: &Cond) -> usize {
    match c {
        Cond::Not(a) => 1 + depth(a),
        Cond::And(a, b) | Cond::Or(a, b) => 1 + depth(a).max(depth(b)),
        _ => 1,
    }
}

/// The deepest guard or error condition of the lowered `text`.
fn deepest(name: &str, text: &str) -> usize {
    let options = Options {
        checks: Checks::ASSERTIONS,
        ..Options::default()
    };
    let l = common::lower_text("deep_conditions", name, text, &options);
    let guards = l.program.transitions.iter().map(|t| depth(&t.guard));
    let errors = l.program.error.iter().map(depth);
    guards.chain(errors).max().unwrap_or(0)
}

#[test]
fn an_access_by_a_varying_index_into_4000_cells_is_shallow() {
    let text = "extern void reach_error(void);\n\
        extern int __VERIFIER_nondet_int(void);\n\
        int a[4000];\n\
        int main(void) {\n\
          int t = __VERIFIER_nondet_int();\n\
          int i = __VERIFIER_nondet_int();\n\
          a[1000 * t + i] = 1;\n\
          if (a[1000 * t + i] != 1)\n\
            reach_error();\n\
          return 0;\n\
        }\n";
    let d = deepest("index", text);
    assert!(d <= 64, "a condition {d} levels deep");
}
