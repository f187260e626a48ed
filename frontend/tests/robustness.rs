//! `parse_preprocessed` never panics: random bytes, token soup and mutated C give a
//! parse or an error, and every position they report is inside the input.

use frontend::{parse_preprocessed, FrontendError, Options};
use proptest::prelude::*;

const SEED_PROGRAM: &str = r#"# 1 "seed.c"
typedef unsigned int size_t;
__thread int owner;
int a$w_buff0 = 0, a$w_buff1;
struct __attribute__((packed)) s { int x; char c; } __attribute__((aligned(4)));
extern int ext(int) __asm__("real_ext");
__extension__ typedef long long i64;
static inline int sum(int *__restrict a, int *__restrict b) { return *a + *b; }
void *thr(void *arg)
{
  __label__ done;
  static __thread int calls;
  if (__builtin_expect(arg != 0, 0)) goto done;
  switch (calls++) { case 1 ... 2: owner = ({ int t = 3; t; }); break; default: ; }
  a$w_buff0 = owner ? a$w_buff1 : (int)sizeof(struct s);
done: __attribute__((unused));
  return (void *)"str$ing";
}
"#;

const TOKENS: &[&str] = &[
    "int",
    "char",
    "void",
    "struct",
    "s",
    "x",
    "a$b",
    "__thread",
    "__attribute__",
    "((",
    "))",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "=",
    "+",
    "-",
    "*",
    "&",
    "?",
    ":",
    "1",
    "0x1f",
    "\"s\"",
    "'c'",
    "\n# 3 \"f.c\"\n",
    "\n",
    " ",
    "if",
    "else",
    "while",
    "return",
    "typedef",
    "__extension__",
    "__asm__",
    "__label__",
    "__const__",
    "enum",
    "...",
    "->",
    "$",
    "#",
    "/*",
    "*/",
    "//",
    "\\",
    "\u{e9}",
    "\0",
];

/// Parses and checks that whatever comes back is consistent.
fn check(text: String) {
    let len = text.len();
    match parse_preprocessed(text, "fuzz.c", &Options::default()) {
        Ok(p) => {
            assert!(p.text.len() >= len);
            for ext in &p.unit.0 {
                assert!(ext.span.end <= p.text.len());
                assert!(p.locate(&ext.span).is_some());
            }
            for t in &p.thread_locals {
                assert!(t.location.is_some());
            }
        }
        Err(FrontendError::Syntax { line, column, .. }) => {
            assert!(column >= 1);
            let _ = line;
        }
        Err(FrontendError::Unsupported { .. }) => {}
        Err(FrontendError::Internal { message }) => {
            // lang-c panicked; the panic was caught. Not expected on these inputs.
            panic!("lang-c panicked: {message}");
        }
        Err(e) => panic!("unexpected error kind: {e}"),
    }
}

proptest! {
    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check(String::from_utf8_lossy(&bytes).into_owned());
    }

    #[test]
    fn token_soup(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..80)) {
        check(tokens.join(" "));
    }

    #[test]
    fn mutated_program(
        edits in proptest::collection::vec(
            (any::<prop::sample::Index>(), 0usize..8, proptest::sample::select(TOKENS)),
            1..6,
        )
    ) {
        let mut text = SEED_PROGRAM.to_string();
        for (at, delete, insert) in edits {
            let mut start = at.index(text.len() + 1);
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + delete).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            text.replace_range(start..end, insert);
        }
        check(text);
    }
}

#[test]
fn seed_program_parses() {
    let p = parse_preprocessed(SEED_PROGRAM.into(), "seed.c", &Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.thread_locals.len(), 2);
    assert_eq!(p.renames.len(), 2);
}

#[test]
fn deep_nesting_is_refused_not_crashed() {
    for depth in [5_000, 100_000] {
        let text = format!("int x = {}1{};", "(".repeat(depth), ")".repeat(depth));
        match parse_preprocessed(text, "deep.c", &Options::default()) {
            Err(FrontendError::Unsupported { location, message }) => {
                assert!(message.contains("nested too deeply"));
                assert_eq!(location.unwrap().file.to_str(), Some("deep.c"));
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        let unary = format!("int x = {}1;", "- ".repeat(depth));
        assert!(matches!(
            parse_preprocessed(unary, "deep.c", &Options::default()),
            Err(FrontendError::Unsupported { .. })
        ));
    }
    // Long chains that are not nesting in the text still parse.
    let chain = format!(
        "int x; void f(void) {{ if (x) x = 0; {} }}",
        "else if (x) x = 1; ".repeat(3_000)
    );
    assert!(parse_preprocessed(chain, "chain.c", &Options::default()).is_ok());
}
