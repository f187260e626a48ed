//! Tokens of the `.gc` format.

use super::ParseError;
use crate::ir::Span;

/// Reserved words: they can name neither variables, threads, locations nor
/// labels, which keeps every position of the grammar unambiguous.
pub(super) const KEYWORDS: &[&str] = &[
    "var", "init", "thread", "at", "when", "do", "error", "true", "false",
];

/// More lexical errors than this are not worth reporting: the input is
/// probably not a `.gc` file at all.
const MAX_LEX_ERRORS: usize = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Keyword {
    Var,
    Init,
    Thread,
    At,
    When,
    Do,
    Error,
    True,
    False,
}

impl Keyword {
    fn from_str(s: &str) -> Option<Keyword> {
        Some(match s {
            "var" => Keyword::Var,
            "init" => Keyword::Init,
            "thread" => Keyword::Thread,
            "at" => Keyword::At,
            "when" => Keyword::When,
            "do" => Keyword::Do,
            "error" => Keyword::Error,
            "true" => Keyword::True,
            "false" => Keyword::False,
            _ => return None,
        })
    }

    pub(super) fn as_str(self) -> &'static str {
        match self {
            Keyword::Var => "var",
            Keyword::Init => "init",
            Keyword::Thread => "thread",
            Keyword::At => "at",
            Keyword::When => "when",
            Keyword::Do => "do",
            Keyword::Error => "error",
            Keyword::True => "true",
            Keyword::False => "false",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TokenKind {
    Ident,
    Int,
    Kw(Keyword),
    Comma,
    Semi,
    Colon,
    /// `:=`
    Assign,
    /// `=` (only in variable initialisers)
    Eq,
    EqEq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Arrow,
    At,
    Bang,
    AndAnd,
    OrOr,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Eof,
}

impl TokenKind {
    /// How the token kind is named in "expected ..." messages.
    pub(super) fn describe(self) -> &'static str {
        match self {
            TokenKind::Ident => "an identifier",
            TokenKind::Int => "an integer",
            TokenKind::Kw(k) => match k {
                Keyword::Var => "`var`",
                Keyword::Init => "`init`",
                Keyword::Thread => "`thread`",
                Keyword::At => "`at`",
                Keyword::When => "`when`",
                Keyword::Do => "`do`",
                Keyword::Error => "`error`",
                Keyword::True => "`true`",
                Keyword::False => "`false`",
            },
            TokenKind::Comma => "`,`",
            TokenKind::Semi => "`;`",
            TokenKind::Colon => "`:`",
            TokenKind::Assign => "`:=`",
            TokenKind::Eq => "`=`",
            TokenKind::EqEq => "`==`",
            TokenKind::Ne => "`!=`",
            TokenKind::Lt => "`<`",
            TokenKind::Le => "`<=`",
            TokenKind::Gt => "`>`",
            TokenKind::Ge => "`>=`",
            TokenKind::Plus => "`+`",
            TokenKind::Minus => "`-`",
            TokenKind::Star => "`*`",
            TokenKind::Slash => "`/`",
            TokenKind::Percent => "`%`",
            TokenKind::Arrow => "`->`",
            TokenKind::At => "`@`",
            TokenKind::Bang => "`!`",
            TokenKind::AndAnd => "`&&`",
            TokenKind::OrOr => "`||`",
            TokenKind::LParen => "`(`",
            TokenKind::RParen => "`)`",
            TokenKind::LBrace => "`{`",
            TokenKind::RBrace => "`}`",
            TokenKind::LBracket => "`[`",
            TokenKind::RBracket => "`]`",
            TokenKind::Eof => "end of file",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

/// Splits `src` into tokens; the last one is always `Eof`. On failure,
/// returns every lexical error found (up to a limit).
pub(super) fn tokenize(src: &str) -> Result<Vec<Token>, Vec<ParseError>> {
    let bytes = src.as_bytes();
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < bytes.len() && errors.len() < MAX_LEX_ERRORS {
        let c = bytes[i];
        let start = i;
        let single = |kind| (kind, 1);
        let (kind, len) = match c {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => {
                i += 1;
                continue;
            }
            b'#' => {
                i = line_end(bytes, i);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = line_end(bytes, i);
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let end = ident_end(bytes, i);
                let kind = match Keyword::from_str(&src[i..end]) {
                    Some(k) => TokenKind::Kw(k),
                    None => TokenKind::Ident,
                };
                (kind, end - i)
            }
            b'0'..=b'9' => {
                let digits_end = i + bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                // `12ab` would otherwise lex as `12` `ab`, giving a confusing
                // "expected ..." message later on.
                let end = ident_end(bytes, digits_end);
                if end > digits_end {
                    errors.push(ParseError::new(
                        Span::new(i, end),
                        format!("invalid integer literal `{}`", &src[i..end]),
                    ));
                    i = end;
                    continue;
                }
                (TokenKind::Int, end - i)
            }
            b',' => single(TokenKind::Comma),
            b';' => single(TokenKind::Semi),
            b':' if bytes.get(i + 1) == Some(&b'=') => (TokenKind::Assign, 2),
            b':' => single(TokenKind::Colon),
            b'=' if bytes.get(i + 1) == Some(&b'=') => (TokenKind::EqEq, 2),
            b'=' => single(TokenKind::Eq),
            b'!' if bytes.get(i + 1) == Some(&b'=') => (TokenKind::Ne, 2),
            b'!' => single(TokenKind::Bang),
            b'<' if bytes.get(i + 1) == Some(&b'=') => (TokenKind::Le, 2),
            b'<' => single(TokenKind::Lt),
            b'>' if bytes.get(i + 1) == Some(&b'=') => (TokenKind::Ge, 2),
            b'>' => single(TokenKind::Gt),
            b'-' if bytes.get(i + 1) == Some(&b'>') => (TokenKind::Arrow, 2),
            b'-' => single(TokenKind::Minus),
            b'+' => single(TokenKind::Plus),
            b'*' => single(TokenKind::Star),
            b'/' => single(TokenKind::Slash),
            b'%' => single(TokenKind::Percent),
            b'@' => single(TokenKind::At),
            b'&' if bytes.get(i + 1) == Some(&b'&') => (TokenKind::AndAnd, 2),
            b'|' if bytes.get(i + 1) == Some(&b'|') => (TokenKind::OrOr, 2),
            b'(' => single(TokenKind::LParen),
            b'[' => single(TokenKind::LBracket),
            b']' => single(TokenKind::RBracket),
            b')' => single(TokenKind::RParen),
            b'{' => single(TokenKind::LBrace),
            b'}' => single(TokenKind::RBrace),
            _ => {
                let ch = src[i..].chars().next().unwrap_or('\u{fffd}');
                let end = i + ch.len_utf8();
                let mut err = ParseError::new(
                    Span::new(i, end),
                    format!("invalid character {}", show_char(ch)),
                );
                let hint = match ch {
                    '&' => Some("conjunction is written `&&`"),
                    '|' => Some("disjunction is written `||`"),
                    _ => None,
                };
                if let Some(hint) = hint {
                    err.notes.push(hint.to_string());
                }
                errors.push(err);
                i = end;
                continue;
            }
        };
        tokens.push(Token {
            kind,
            span: Span::new(start, start + len),
        });
        i += len;
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(src.len(), src.len()),
    });
    Ok(tokens)
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p)
}

fn ident_end(bytes: &[u8], from: usize) -> usize {
    from + bytes[from..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'.')
        .count()
}

fn show_char(ch: char) -> String {
    if ch.is_control() || ch.is_whitespace() {
        format!("U+{:04X}", u32::from(ch))
    } else {
        format!("`{ch}`")
    }
}

/// Whether `s` is a valid identifier of the format (and not a keyword).
/// Besides letters, digits and `_`, identifiers may contain `.` after the
/// first character (an extension of the shared grammar, used by the C
/// lowering for names such as `thr1.2.x`).
pub(super) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !KEYWORDS.contains(&s)
}
