//! The string and memory functions (`lower/strings.rs`) on one-thread
//! programs, decided by the exhaustive search: which of the real errors
//! and the give-up locations are reachable. The give-ups are where the
//! lowering must stop (overlap, no terminator, beyond the object, a size
//! that is not a constant) and nowhere else.

mod common;

use std::time::{Duration, Instant};

use engine::explicit::{self, Bounds};
use engine::verdict::Verdict;
use lowering::{Checks, Lowered, Options};

fn lower(name: &str, body: &str) -> Lowered {
    let text = format!(
        "#include <string.h>\nextern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
         int main(void) {{\n{body}\n  return 0;\n}}\n"
    );
    let options = Options {
        checks: Checks::ASSERTIONS,
        ..Options::default()
    };
    common::lower_text("strings", name, &text, &options)
}

/// Whether (a real error, a give-up) is reachable.
fn reach(name: &str, body: &str) -> (bool, bool) {
    let l = lower(name, body);
    let bugs = l.errors_only();
    let mut giveups = l.program.clone();
    giveups.error.drain(..bugs.error.len());
    let search = |p: &engine::ir::Program| {
        let bounds = Bounds {
            bound: 3,
            max_states: 100_000,
            partial_order: false,
        };
        match explicit::prove(p, &bounds, Some(Instant::now() + Duration::from_secs(20))).verdict {
            Verdict::Safe(_) => false,
            Verdict::Unsafe(_) => true,
            Verdict::Unknown(why) => panic!("{name}: the search did not finish: {why}"),
        }
    };
    (search(&bugs), search(&giveups))
}

#[test]
fn strcpy_within_one_array_gives_up_exactly_when_the_strings_overlap() {
    // "ab" copied 3 cells up: cells 0..2 read, 3..5 written: disjoint.
    let apart = "  char b[8] = \"ab\";\n  strcpy(b + 3, b);\n  if (b[3] == 'a' && b[4] == 'b' && b[5] == 0) reach_error();";
    assert_eq!(reach("apart", apart), (true, false));
    // 2 cells up: the 0 at b[2] is read and overwritten: undefined.
    let touching = "  char b[8] = \"ab\";\n  strcpy(b + 2, b);\n  reach_error();";
    assert_eq!(reach("touching", touching), (false, true));
    let down = "  char b[8] = \"abc\";\n  strcpy(b, b + 1);\n  reach_error();";
    assert_eq!(reach("down", down), (false, true));
}

#[test]
fn reads_and_writes_beyond_the_object_give_up() {
    let unterminated = "  char b[3] = {'a', 'b', 'c'};\n  if (strlen(b) < 100) reach_error();";
    assert_eq!(reach("unterminated", unterminated), (false, true));
    let terminated = "  char b[4] = {'a', 'b', 'c'};\n  if (strlen(b) == 3) reach_error();";
    assert_eq!(reach("terminated", terminated), (true, false));
    let fits = "  char b[4];\n  strcpy(b, \"abc\");\n  if (b[2] == 'c') reach_error();";
    assert_eq!(reach("fits", fits), (true, false));
    let too_long = "  char b[3];\n  strcpy(b, \"abc\");\n  reach_error();";
    assert_eq!(reach("too_long", too_long), (false, true));
    let memset_past = "  int a[3];\n  memset(a + 1, 0, 3 * sizeof(int));\n  reach_error();";
    assert_eq!(reach("memset_past", memset_past), (false, true));
}

#[test]
fn sizes_that_are_not_constants_give_up_and_strncpy_pads() {
    let varying =
        "  char b[4];\n  int n = __VERIFIER_nondet_int();\n  memset(b, 0, n);\n  reach_error();";
    assert_eq!(reach("varying", varying), (false, true));
    let pad = "  char b[5] = \"wxyz\";\n  strncpy(b, \"a\", 4);\n  if (b[0] == 'a' && b[1] == 0 && b[3] == 0 && b[4] == 0) reach_error();";
    assert_eq!(reach("pad", pad), (true, false));
    let cmp = "  char b[4] = \"ab\";\n  if (strcmp(b, \"ab\") == 0 && strcmp(b, \"a\") > 0 && strcmp(\"\", b) < 0) reach_error();";
    assert_eq!(reach("cmp", cmp), (true, false));
}
