//! Rewrites of preprocessed text for the GNU extensions lang-c does not parse; the
//! crate documentation has the list.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use crate::lex::{tokenize, Kind, Tok};
use crate::source_map::Edit;

/// Identifiers renamed because they contain `$`, which lang-c does not accept.
///
/// Every `$` in such a name is replaced by one identifier character (the
/// [`marker`](Renames::marker)), chosen per translation unit so that the map is
/// injective and no renamed name equals another identifier or a keyword.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renames {
    marker: Option<char>,
    /// Renamed name → original name.
    map: BTreeMap<String, String>,
}

impl Renames {
    /// The original spelling of a name as it appears in the AST, if it was renamed.
    pub fn original(&self, parsed: &str) -> Option<&str> {
        self.map.get(parsed).map(String::as_str)
    }

    /// The name to show a user: the original spelling if `parsed` was renamed,
    /// otherwise `parsed` itself.
    pub fn display<'a>(&'a self, parsed: &'a str) -> &'a str {
        self.original(parsed).unwrap_or(parsed)
    }

    /// The character that replaced `$`, if any name was renamed.
    pub fn marker(&self) -> Option<char> {
        self.marker
    }

    /// `(renamed, original)` pairs, sorted by renamed name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.map.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// How many names were renamed.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no name was renamed.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// What a [`Rewrite`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RewriteKind {
    /// `__thread` became `_Thread_local`.
    ThreadKeyword,
    /// `__const__` became `const`.
    ConstKeyword,
    /// An `__attribute__((…))` lang-c cannot parse in its position was blanked out.
    DroppedAttribute,
    /// A `__label__` declaration was blanked out.
    DroppedLocalLabels,
    /// An `__attribute__((…))` between a function definition's declarator
    /// and its body (Clang accepts it there, lang-c and GCC do not) was
    /// moved to a declaration of the function appended to the text.
    MovedAttribute,
    /// `__auto_type x = e` became `__typeof__(e) x = e` (what GCC's
    /// `<stdatomic.h>` macros expand to).
    AutoType,
    /// `__CPROVER_thread_local` became `_Thread_local`.
    CproverThreadLocal,
}

impl fmt::Display for RewriteKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RewriteKind::ThreadKeyword => "`__thread` read as `_Thread_local`",
            RewriteKind::ConstKeyword => "`__const__` read as `const`",
            RewriteKind::DroppedAttribute => "attribute ignored",
            RewriteKind::DroppedLocalLabels => "local label declaration ignored",
            RewriteKind::MovedAttribute => {
                "attribute of a function definition read as one of its declaration"
            }
            RewriteKind::AutoType => "`__auto_type` read as `__typeof__` of the initializer",
            RewriteKind::CproverThreadLocal => "`__CPROVER_thread_local` read as `_Thread_local`",
        })
    }
}

/// One rewrite of the preprocessed text (renames of `$` identifiers are in
/// [`Renames`] instead).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    /// What was done.
    pub kind: RewriteKind,
    /// Where, as a byte offset in the parsed text.
    pub offset: usize,
    /// The text that was replaced.
    pub original: String,
}

/// Why the text was refused before parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// Offset in the preprocessed text.
    pub offset: usize,
    pub message: String,
}

/// The result of [`rewrite`].
pub(crate) struct Rewritten {
    pub text: String,
    pub edits: Vec<Edit>,
    pub renames: Renames,
    pub rewrites: Vec<Rewrite>,
}

/// The most deeply nested expression lang-c is given: brackets plus chains of prefix
/// operators (`- - !x`), each of which costs parser stack. Clang's default bracket
/// depth limit is 256.
pub(crate) const MAX_NESTING: usize = 1024;

const KEYWORDS: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "asm", "typeof",
];

/// Replaces each `$` of `name` by `marker`.
fn mangle(name: &str, marker: u8) -> String {
    name.replace('$', std::str::from_utf8(&[marker]).unwrap_or("_"))
}

/// Picks the character that replaces `$`: one that occurs in no `$` identifier (so the
/// renaming is injective) and makes no renamed name collide with another identifier or
/// a keyword.
fn choose_marker(plain: &HashSet<&str>, dollar: &HashSet<&str>) -> Option<u8> {
    let leading_dollar = dollar.iter().any(|d| d.starts_with('$'));
    let candidates = b"_SDZXQJKVWY"
        .iter()
        .chain(b"ABCEFGHILMNOPRTUabcdefghijklmnopqrstuvwxyz0123456789")
        .copied();
    candidates.into_iter().find(|&c| {
        if c.is_ascii_digit() && leading_dollar {
            return false;
        }
        dollar.iter().all(|d| {
            if d.as_bytes().contains(&c) {
                return false;
            }
            let image = mangle(d, c);
            !plain.contains(image.as_str()) && !KEYWORDS.contains(&image.as_str())
        })
    })
}

/// Checks that the parser's recursion stays bounded: bracket depth plus the prefix
/// operators chained at each level.
fn check_nesting(src: &str, toks: &[Tok]) -> Result<(), Refusal> {
    let mut enclosing: Vec<usize> = Vec::new();
    let (mut sum, mut run) = (0usize, 0usize);
    for t in toks {
        let text = t.text(src);
        match (t.kind, text) {
            (Kind::Directive, _) => {}
            (Kind::Punct, "(" | "[" | "{") => {
                enclosing.push(run + 1);
                sum += run + 1;
                run = 0;
            }
            (Kind::Punct, ")" | "]" | "}") => {
                sum -= enclosing.pop().unwrap_or(0);
                run = 0;
            }
            (Kind::Punct, ";" | ",") => run = 0,
            (Kind::Punct, _) => run += 1,
            _ => run = 0,
        }
        if sum + run > MAX_NESTING {
            return Err(Refusal {
                offset: t.start,
                message: format!(
                    "expression or block nested too deeply (more than {MAX_NESTING} levels)"
                ),
            });
        }
    }
    Ok(())
}

/// Rewrites the GNU extensions lang-c cannot parse (see the module documentation).
pub(crate) fn rewrite(pre: &str) -> Result<Rewritten, Refusal> {
    // Comments (kept by `cc -E -C`, and in `.i` files written by hand or
    // by other tools, such as SV-COMP's license headers) are not C to the
    // parser: blanked, newlines kept, so every offset stays.
    let uncommented;
    let pre = if pre.contains("//") || pre.contains("/*") {
        uncommented = blank_comments(pre);
        uncommented.as_str()
    } else {
        pre
    };
    let toks: Vec<Tok> = tokenize(pre)
        .into_iter()
        .filter(|t| t.kind != Kind::Directive)
        .collect();
    check_nesting(pre, &toks)?;
    let text = |i: usize| toks.get(i).map(|t: &Tok| t.text(pre));

    // `$` identifiers.
    let mut plain = HashSet::new();
    let mut dollar = HashSet::new();
    for t in toks.iter().filter(|t| t.kind == Kind::Ident) {
        let s = t.text(pre);
        if s.contains('$') {
            dollar.insert(s);
        } else {
            plain.insert(s);
        }
    }
    let marker = if dollar.is_empty() {
        None
    } else {
        match choose_marker(&plain, &dollar) {
            Some(m) => Some(m),
            None => {
                let first = toks.iter().find(|t| t.text(pre).contains('$'));
                return Err(Refusal {
                    offset: first.map_or(0, |t| t.start),
                    message: "cannot rename the identifiers containing `$` without a collision"
                        .into(),
                });
            }
        }
    };

    // Attribute groups: `__attribute__((…))` sequences, and which ones to blank.
    let depth = brace_depths(pre, &toks);
    let mut moved: Vec<String> = Vec::new();
    let mut in_attr = vec![false; toks.len()];
    let mut blank = vec![None::<RewriteKind>; toks.len()];
    let is_attr = |i: usize| matches!(text(i), Some("__attribute__" | "__attribute"));
    let mut i = 0;
    while i < toks.len() {
        if !is_attr(i) {
            i += 1;
            continue;
        }
        let first = i;
        let mut last = None;
        let mut j = i;
        while is_attr(j) && text(j + 1) == Some("(") {
            let Some(close) = matching_paren(pre, &toks, j + 1) else {
                break;
            };
            last = Some(close);
            j = close + 1;
        }
        let Some(last) = last else {
            i += 1;
            continue;
        };
        for flag in &mut in_attr[first..=last] {
            *flag = true;
        }
        let prev = first.checked_sub(1).and_then(text);
        let next = text(last + 1);
        let standalone = matches!(prev, None | Some(";" | "{" | "}" | ":")) && next == Some(";");
        // `struct __attribute__((a)) S {…}`: lang-c fails on it in a
        // typedef, or without a tag, and loses the fields otherwise (the
        // lowering models no attribute of a struct type).
        let tagged = matches!(prev, Some("struct" | "union"));
        if standalone || prev == Some("enum") || tagged {
            for b in &mut blank[first..=last] {
                *b = Some(RewriteKind::DroppedAttribute);
            }
        } else if prev == Some(")") && next == Some("{") && depth[first] == 0 {
            // `void f(void) __attribute__((a)) {`: the definition keeps its
            // place; `void f(void) __attribute__((a));` follows the text.
            let start = (0..first)
                .rev()
                .find(|&j| {
                    (text(j) == Some(";") && depth[j] == 0)
                        || (text(j) == Some("}") && depth[j] == 1)
                })
                .map_or(0, |j| j + 1);
            // The declaration's text on one line, without line markers
            // (lang-c reads `__attribute__((` as one token: no respacing).
            let decl: Vec<&str> = pre[toks[start].start..toks[last].end]
                .lines()
                .filter(|l| !l.trim_start().starts_with('#'))
                .collect();
            let decl = decl.join(" ");
            match marker.filter(|_| decl.contains('$')) {
                Some(m) => moved.push(format!("{};", mangle(&decl, m))),
                None => moved.push(format!("{decl};")),
            }
            for b in &mut blank[first..=last] {
                *b = Some(RewriteKind::MovedAttribute);
            }
        }
        i = last + 1;
    }

    // `__label__ a, b;`
    for i in 0..toks.len() {
        if text(i) == Some("__label__") && !in_attr[i] && blank[i].is_none() {
            let end = (i..toks.len()).find(|&j| text(j) == Some(";"));
            for b in &mut blank[i..=end.unwrap_or(i)] {
                *b = Some(RewriteKind::DroppedLocalLabels);
            }
        }
    }

    // Collect the edits, in order: (range in `pre`, replacement, kind to log).
    let mut edits: Vec<(usize, usize, String, Option<RewriteKind>)> = Vec::new();
    let mut renames = Renames {
        marker: marker.map(char::from),
        map: BTreeMap::new(),
    };
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        if let Some(kind) = blank[i] {
            // Blank this run of tokens, keeping newlines (and directive lines).
            let mut j = i;
            while j + 1 < toks.len() && blank[j + 1] == Some(kind) {
                j += 1;
            }
            let (start, end) = (t.start, toks[j].end);
            let blanked = blank_out(&pre[start..end]);
            // Keep directive lines inside the blanked range intact.
            let blanked = keep_directives(&pre[start..end], blanked);
            edits.push((start, end, blanked, Some(kind)));
            i = j + 1;
            continue;
        }
        let s = t.text(pre);
        if t.kind == Kind::Ident {
            if let Some(m) = marker.filter(|_| s.contains('$')) {
                let renamed = mangle(s, m);
                renames.map.insert(renamed.clone(), s.to_string());
                edits.push((t.start, t.end, renamed, None));
            } else if !in_attr[i] {
                match s {
                    "__thread" => edits.push((
                        t.start,
                        t.end,
                        "_Thread_local".into(),
                        Some(RewriteKind::ThreadKeyword),
                    )),
                    "__const__" => edits.push((
                        t.start,
                        t.end,
                        "const    ".into(),
                        Some(RewriteKind::ConstKeyword),
                    )),
                    "__CPROVER_thread_local" => edits.push((
                        t.start,
                        t.end,
                        "_Thread_local".into(),
                        Some(RewriteKind::CproverThreadLocal),
                    )),
                    "__auto_type" => {
                        if let Some(init) = auto_type_initializer(pre, &toks, i) {
                            edits.push((
                                t.start,
                                t.end,
                                format!("__typeof__({init})"),
                                Some(RewriteKind::AutoType),
                            ));
                        }
                    }
                    _ => {}
                }
            }
        }
        i += 1;
    }

    if !moved.is_empty() {
        let end = pre.len();
        edits.push((end, end, format!("\n{}\n", moved.join("\n")), None));
    }

    // Apply them.
    let mut out = String::with_capacity(pre.len() + 16);
    let mut map_edits = Vec::new();
    let mut rewrites = Vec::new();
    let mut copied = 0;
    for (start, end, replacement, kind) in edits {
        out.push_str(&pre[copied..start]);
        let text_start = out.len();
        if replacement.len() != end - start {
            map_edits.push(Edit {
                text_start,
                pre_start: start,
                old_len: end - start,
                new_len: replacement.len(),
            });
        }
        if let Some(kind) = kind {
            rewrites.push(Rewrite {
                kind,
                offset: text_start,
                original: pre[start..end].to_string(),
            });
        }
        out.push_str(&replacement);
        copied = end;
    }
    out.push_str(&pre[copied..]);
    Ok(Rewritten {
        text: out,
        edits: map_edits,
        renames,
        rewrites,
    })
}

/// Per token, the number of braces open before it.
fn brace_depths(src: &str, toks: &[Tok]) -> Vec<usize> {
    let mut depth = 0usize;
    toks.iter()
        .map(|t| {
            let here = depth;
            match t.text(src) {
                "{" => depth += 1,
                "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
            here
        })
        .collect()
}

/// The initializer of `__auto_type x = e;` (the `__auto_type` token at
/// `at`), as its tokens joined by spaces (no line breaks, so no line marker
/// is copied), or `None` when the declaration has another shape.
fn auto_type_initializer(src: &str, toks: &[Tok], at: usize) -> Option<String> {
    let text = |i: usize| toks.get(i).map(|t: &Tok| t.text(src));
    if toks.get(at + 1)?.kind != Kind::Ident || text(at + 2)? != "=" {
        return None;
    }
    let mut depth = 0usize;
    let mut parts = Vec::new();
    for i in at + 3..toks.len() {
        let s = text(i)?;
        match s {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.checked_sub(1)?,
            ";" | "," if depth == 0 => {
                return (!parts.is_empty()).then(|| parts.join(" "));
            }
            _ => {}
        }
        parts.push(s);
    }
    None
}

/// `src` with its comments blanked: the text between tokens (whitespace
/// and comments only, as the tokenizer skips them) is blanked.
fn blank_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut copied = 0;
    for t in tokenize(src) {
        let gap = &src[copied..t.start];
        if gap.contains('/') {
            out.push_str(&blank_out(gap));
        } else {
            out.push_str(gap);
        }
        out.push_str(t.text(src));
        copied = t.end;
    }
    out.push_str(&blank_out(&src[copied..]));
    out
}

/// `s` with every character but newlines replaced by spaces, byte for byte.
fn blank_out(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            out.push_str(&" ".repeat(c.len_utf8()));
        }
    }
    out
}

/// `blanked` with the directive lines of `original` restored (same length).
fn keep_directives(original: &str, blanked: String) -> String {
    if !original.contains('#') {
        return blanked;
    }
    let mut out = String::with_capacity(blanked.len());
    for (orig, blank) in original
        .split_inclusive('\n')
        .zip(blanked.split_inclusive('\n'))
    {
        if orig.trim_start().starts_with('#') {
            out.push_str(orig);
        } else {
            out.push_str(blank);
        }
    }
    out
}

/// Index of the `)` matching the `(` at `open`.
fn matching_paren(src: &str, toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match t.text(src) {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_blanked_in_place() {
        let src = "// header\n/* a\n b */ int x; char *s = \"// not /* a comment\";\n# 1 \"f.c\" // kept\nint y; // tail";
        let r = rewrite(src).unwrap();
        assert_eq!(r.text.len(), src.len());
        assert_eq!(r.text.lines().count(), src.lines().count());
        assert!(!r.text.contains("header") && !r.text.contains(" b */"));
        assert!(r.text.contains("\"// not /* a comment\""));
        assert!(r.text.contains("# 1 \"f.c\" // kept"));
        assert!(r.text.contains("int y;") && !r.text.contains("tail"));
    }

    #[test]
    fn dollar_renames_avoid_collisions() {
        let src = "int a_b; int a$b; int aSb; char *s = \"a$b\"; int $x = a$b;";
        let r = rewrite(src).unwrap();
        assert_eq!(r.text.len(), src.len());
        let m = r.renames.marker().unwrap();
        assert!(m != '_' && m != 'S');
        let renamed = format!("a{m}b");
        assert_eq!(r.renames.original(&renamed), Some("a$b"));
        assert_eq!(r.renames.display(&format!("{m}x")), "$x");
        assert!(r.text.contains("\"a$b\""));
        assert_eq!(r.text.matches(&renamed).count(), 2);
        assert!(r.edits.is_empty());
    }

    #[test]
    fn thread_keyword_changes_length() {
        let src = "__thread int x; int __attribute__((__thread)) y;";
        let r = rewrite(src).unwrap();
        assert!(r.text.starts_with("_Thread_local int x;"));
        assert!(r.text.contains("((__thread))"));
        assert_eq!(r.edits.len(), 1);
        assert_eq!(r.rewrites[0].kind, RewriteKind::ThreadKeyword);
    }

    #[test]
    fn auto_type_becomes_typeof_of_its_initializer() {
        let src = "void f(void) { __auto_type p = (\n &c[f(1, 2)]\n ); __auto_type q; }";
        let r = rewrite(src).unwrap();
        assert!(
            r.text
                .contains("__typeof__(( & c [ f ( 1 , 2 ) ] )) p = (\n &c[f(1, 2)]\n );"),
            "{}",
            r.text
        );
        // Without an initializer it stays (and lang-c reports it).
        assert!(r.text.contains("__auto_type q;"));
        assert_eq!(r.rewrites.len(), 1);
        assert_eq!(r.rewrites[0].kind, RewriteKind::AutoType);
    }

    #[test]
    fn cprover_thread_local_is_thread_local() {
        let r = rewrite("__CPROVER_thread_local int x = 3;").unwrap();
        assert_eq!(r.text, "_Thread_local int x = 3;");
        assert_eq!(r.rewrites[0].kind, RewriteKind::CproverThreadLocal);
    }

    #[test]
    fn attributes_of_definitions_move_to_a_declaration() {
        let src =
            "int g;\nstatic void f(int *m) __attribute__((acquire_capability(m))) { g = *m; }\n\
                   typedef struct __attribute__((capability(\"mutex\"))) { int x; } mu_t;\n\
                   typedef struct __attribute__((capability(\"mutex\"))) m { int x; } m_t;\n";
        let r = rewrite(src).unwrap();
        assert!(
            r.text.starts_with("int g;\nstatic void f(int *m)"),
            "{}",
            r.text
        );
        assert!(
            r.text
                .ends_with("\nstatic void f(int *m) __attribute__((acquire_capability(m)));\n"),
            "{}",
            r.text
        );
        assert_eq!(r.text.matches("__attribute__").count(), 1, "{}", r.text);
        let kinds: Vec<_> = r.rewrites.iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            [
                RewriteKind::MovedAttribute,
                RewriteKind::DroppedAttribute,
                RewriteKind::DroppedAttribute
            ]
        );
    }

    #[test]
    fn standalone_attributes_blanked() {
        let src = "struct __attribute__((packed)) S { int a; } __attribute__((aligned(8)));\n\
                   void f(int x) { switch (x) { case 1: x++; __attribute__((fallthrough)); case 2: L: __attribute__((unused)); } }\n\
                   enum __attribute__((packed)) E { A };\n\
                   void g(void) __attribute__((noreturn));";
        let r = rewrite(src).unwrap();
        assert_eq!(r.text.len(), src.len());
        assert_eq!(r.text.matches("__attribute__").count(), 1, "{}", r.text);
        assert!(r.text.contains("__attribute__((noreturn))"));
        assert_eq!(
            r.rewrites
                .iter()
                .filter(|w| w.kind == RewriteKind::DroppedAttribute)
                .count(),
            5
        );
    }

    #[test]
    fn nesting_refused() {
        let deep = format!("int x = {}1{};", "(".repeat(2000), ")".repeat(2000));
        assert!(rewrite(&deep).is_err());
        let minus = format!("int x = {}1;", "- ".repeat(2000));
        assert!(rewrite(&minus).is_err());
        let fine = format!("int x = {}1{};", "(".repeat(100), ")".repeat(100));
        assert!(rewrite(&fine).is_ok());
    }
}
