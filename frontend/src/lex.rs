//! A light tokenizer for preprocessed C: just enough to rewrite GNU extensions
//! safely (never inside string or character literals, comments or directives) and
//! to name the token at a syntax error.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `[A-Za-z_$][A-Za-z0-9_$]*` (`$` is a GNU extension).
    Ident,
    /// A preprocessing number.
    Number,
    /// A string literal (without its encoding prefix).
    Str,
    /// A character constant (without its encoding prefix).
    Char,
    /// An operator or punctuator.
    Punct,
    /// A whole directive line (`# 12 "file.c"`, `#pragma ...`), without its newline.
    Directive,
    /// Any other character (stray bytes, non-ASCII).
    Other,
}

/// A token: its kind and byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Tok {
    /// The token's text.
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start..self.end]
    }
}

const PUNCT3: [&str; 3] = ["<<=", ">>=", "..."];
const PUNCT2: [&str; 19] = [
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=",
    "&=", "^=", "|=",
];

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Tokenizes `src`, skipping whitespace and comments.
pub(crate) fn tokenize(src: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut pos = 0;
    while let Some(tok) = next_token(src, &mut pos) {
        toks.push(tok);
    }
    toks
}

/// The token starting at or after `offset` (skipping whitespace and comments).
pub(crate) fn token_at(src: &str, offset: usize) -> Option<Tok> {
    let mut pos = offset;
    // A directive only counts at the start of a line.
    next_token(src, &mut pos)
}

fn at_line_start(bytes: &[u8], pos: usize) -> bool {
    let mut i = pos;
    while i > 0 {
        match bytes[i - 1] {
            b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => i -= 1,
            b'\n' => return true,
            _ => return false,
        }
    }
    true
}

fn next_token(src: &str, pos: &mut usize) -> Option<Tok> {
    let bytes = src.as_bytes();
    let n = bytes.len();
    let mut i = *pos;
    loop {
        while i < n && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i + 1 < n && bytes[i] == b'/' && bytes[i + 1] == b'*' {
            i = src[i + 2..].find("*/").map_or(n, |e| i + 2 + e + 2);
        } else if i + 1 < n && bytes[i] == b'/' && bytes[i + 1] == b'/' {
            i = src[i..].find('\n').map_or(n, |e| i + e);
        } else {
            break;
        }
    }
    if i >= n {
        *pos = n;
        return None;
    }
    let start = i;
    let b = bytes[i];
    let kind = if b == b'#' && at_line_start(bytes, i) {
        i = src[i..].find('\n').map_or(n, |e| i + e);
        Kind::Directive
    } else if is_ident_start(b) {
        while i < n && is_ident_continue(bytes[i]) {
            i += 1;
        }
        Kind::Ident
    } else if b.is_ascii_digit() || (b == b'.' && i + 1 < n && bytes[i + 1].is_ascii_digit()) {
        i += 1;
        while i < n {
            let c = bytes[i];
            let exponent_sign =
                matches!(c, b'+' | b'-') && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P');
            if !(exponent_sign || c.is_ascii_alphanumeric() || c == b'_' || c == b'.') {
                break;
            }
            i += 1;
        }
        Kind::Number
    } else if b == b'"' || b == b'\'' {
        i += 1;
        while i < n && bytes[i] != b && bytes[i] != b'\n' {
            i += if bytes[i] == b'\\' && i + 1 < n && bytes[i + 1] != b'\n' {
                2
            } else {
                1
            };
        }
        if i < n && bytes[i] == b {
            i += 1;
        }
        if b == b'"' {
            Kind::Str
        } else {
            Kind::Char
        }
    } else if b.is_ascii_punctuation() {
        let rest = &src[i..];
        i += if PUNCT3.iter().any(|p| rest.starts_with(p)) {
            3
        } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
            2
        } else {
            1
        };
        Kind::Punct
    } else {
        // Non-ASCII or control: one whole character.
        i += src[i..].chars().next().map_or(1, char::len_utf8);
        Kind::Other
    };
    *pos = i;
    Some(Tok {
        kind,
        start,
        end: i,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Kind, &str)> {
        tokenize(src)
            .into_iter()
            .map(|t| (t.kind, t.text(src)))
            .collect()
    }

    #[test]
    fn tokens() {
        use Kind::*;
        assert_eq!(
            kinds("# 1 \"a$b.c\"\nint a$b = 1e+5; // c$\n char *s = \"$\\\"\", c = '$'; x->y <<= 2 /* $ */"),
            vec![
                (Directive, "# 1 \"a$b.c\""),
                (Ident, "int"),
                (Ident, "a$b"),
                (Punct, "="),
                (Number, "1e+5"),
                (Punct, ";"),
                (Ident, "char"),
                (Punct, "*"),
                (Ident, "s"),
                (Punct, "="),
                (Str, "\"$\\\"\""),
                (Punct, ","),
                (Ident, "c"),
                (Punct, "="),
                (Char, "'$'"),
                (Punct, ";"),
                (Ident, "x"),
                (Punct, "->"),
                (Ident, "y"),
                (Punct, "<<="),
                (Number, "2"),
            ]
        );
        assert_eq!(
            kinds("a # b"),
            vec![(Ident, "a"), (Punct, "#"), (Ident, "b")]
        );
        assert_eq!(kinds("\"open\nx"), vec![(Str, "\"open"), (Ident, "x")]);
        assert_eq!(kinds("é/*"), vec![(Other, "é")]);
    }
}
