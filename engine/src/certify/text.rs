//! The text form of certificates (`docs/certificate.md`):
//!
//! ```text
//! // comment
//! program "examples/lost-update.gc" fingerprint "9f2c...";
//! proof "safe-fragment check";
//! invariant [t1@start, t2@got] { x == 0 && tmp1 <= 3 }
//! invariant [t1@got, t2@got] { x == 0 } and {
//!      tmp1 == 0 && tmp2 == 1
//!   || tmp1 == 1 && tmp2 == 2
//! }
//! ```
//!
//! Each `invariant` names the location of every thread and gives one or
//! more blocks `{ ... }` joined by `and`; a block is a `.gc` condition,
//! read as a flat disjunction of conjunctions (so it may be arbitrarily
//! long). The `program`, `subject` and `proof` lines are optional;
//! `subject "..."` says how the program is made from its source (a counter
//! system of a C program, with its parameters).

use super::{Certificate, Dnf, Invariant, ProgramRef};
use crate::ir::{Cond, LocId, Program, Span, ThreadId};
use crate::parse::{CondParser, ParseError};
use std::collections::HashSet;
use std::fmt::Write;

/// Prints a certificate.
pub fn print(program: &Program, cert: &Certificate) -> String {
    let mut out = String::new();
    out.push_str(
        "// ase certificate: an inductive invariant of the program, per tuple of thread\n\
         // locations; a tuple not listed has the invariant `false` (docs/certificate.md).\n",
    );
    let _ = writeln!(
        out,
        "program {} fingerprint {};",
        quote(&cert.program.name),
        quote(&cert.program.fingerprint)
    );
    if !cert.program.subject.is_empty() {
        let _ = writeln!(out, "subject {};", quote(&cert.program.subject));
    }
    if !cert.proof.is_empty() {
        let _ = writeln!(out, "proof {};", quote(&cert.proof));
    }
    for inv in &cert.invariants {
        let _ = write!(out, "invariant {} ", tuple(program, &inv.locs));
        if inv.blocks.is_empty() {
            out.push_str("{ true }");
        }
        for (i, block) in inv.blocks.iter().enumerate() {
            if i > 0 {
                out.push_str(" and ");
            }
            print_block(program, block, &mut out);
        }
        out.push('\n');
    }
    out
}

/// A tuple of thread locations as written in certificates:
/// `[main@l3, worker.1@end]`.
pub(super) fn tuple(program: &Program, locs: &[LocId]) -> String {
    let parts: Vec<String> = locs
        .iter()
        .enumerate()
        .map(|(t, &l)| {
            let t = ThreadId::new(t);
            format!("{}@{}", program.thread(t).name, program.loc_name(t, l))
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn conjunction(program: &Program, conj: &[Cond]) -> String {
    if conj.is_empty() {
        return "true".into();
    }
    conj.iter()
        .map(|c| match c {
            Cond::Or(..) => format!("({})", program.named(c)),
            c => program.named(c).to_string(),
        })
        .collect::<Vec<_>>()
        .join(" && ")
}

fn print_block(program: &Program, block: &Dnf, out: &mut String) {
    match block.as_slice() {
        [] => out.push_str("{ false }"),
        [one] => {
            let _ = write!(out, "{{ {} }}", conjunction(program, one));
        }
        many => {
            out.push_str("{\n");
            for (i, d) in many.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {} {}",
                    if i == 0 { "  " } else { "||" },
                    conjunction(program, d)
                );
            }
            out.push('}');
        }
    }
}

/// A scanner over the certificate text (the parts outside the blocks).
struct Scanner<'a> {
    src: &'a str,
    pos: usize,
    errors: Vec<ParseError>,
}

fn error(span: Span, message: impl Into<String>) -> ParseError {
    ParseError {
        span,
        message: message.into(),
        labels: Vec::new(),
        notes: Vec::new(),
    }
}

impl<'a> Scanner<'a> {
    fn skip_trivia(&mut self) {
        let bytes = self.src.as_bytes();
        while self.pos < bytes.len() {
            match bytes[self.pos] {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                b'#' => self.skip_line(),
                b'/' if bytes.get(self.pos + 1) == Some(&b'/') => self.skip_line(),
                _ => break,
            }
        }
    }

    fn skip_line(&mut self) {
        let rest = &self.src[self.pos..];
        self.pos += rest.find('\n').unwrap_or(rest.len());
    }

    fn at_end(&mut self) -> bool {
        self.skip_trivia();
        self.pos >= self.src.len()
    }

    /// A word of identifier characters (`[A-Za-z0-9_.$]`).
    fn word(&mut self) -> (&'a str, Span) {
        self.skip_trivia();
        let start = self.pos;
        let rest = &self.src[start..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$')))
            .unwrap_or(rest.len());
        self.pos += len;
        (&rest[..len], Span::new(start, start + len))
    }

    fn here(&self) -> Span {
        let end = self.src[self.pos..]
            .chars()
            .next()
            .map_or(self.pos, |c| self.pos + c.len_utf8());
        Span::new(self.pos, end)
    }

    fn found(&self) -> String {
        match self.src[self.pos..].chars().next() {
            None => "the end of the file".into(),
            Some(c) => format!("`{c}`"),
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), ()> {
        self.skip_trivia();
        if self.src[self.pos..].starts_with(c) {
            self.pos += c.len_utf8();
            Ok(())
        } else {
            let e = error(
                self.here(),
                format!("expected {what}, found {}", self.found()),
            );
            self.errors.push(e);
            Err(())
        }
    }

    fn string(&mut self) -> Result<String, ()> {
        self.expect('"', "a string in double quotes")?;
        let start = self.pos - 1;
        let mut out = String::new();
        let mut chars = self.src[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, c)) => out.push(c),
                    None => break,
                },
                '\n' => break,
                c => out.push(c),
            }
        }
        self.errors.push(error(
            Span::new(start, start + 1),
            "unterminated string (strings end at a `\"` on the same line)",
        ));
        Err(())
    }

    /// The text up to (not including) the next `close` outside comments;
    /// the scanner moves past `close`.
    fn until(&mut self, close: char, open_span: Span) -> Result<(usize, &'a str), ()> {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let mut i = start;
        while i < bytes.len() {
            match bytes[i] {
                b'#' => i += self.src[i..].find('\n').unwrap_or(self.src.len() - i),
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    i += self.src[i..].find('\n').unwrap_or(self.src.len() - i)
                }
                b if b == close as u8 => {
                    self.pos = i + 1;
                    return Ok((start, &self.src[start..i]));
                }
                _ => i += 1,
            }
        }
        self.errors
            .push(error(open_span, format!("no matching `{close}`")));
        self.pos = self.src.len();
        Err(())
    }
}

/// Parses a certificate of `program`. Errors carry spans into `src`.
pub fn parse<'a>(program: &'a Program, src: &'a str) -> Result<Certificate, Vec<ParseError>> {
    let mut s = Scanner {
        src,
        pos: 0,
        errors: Vec::new(),
    };
    let mut conds = CondParser::new(program);
    let mut cert = Certificate::default();
    let mut seen: HashSet<Vec<LocId>> = HashSet::new();
    while !s.at_end() && s.errors.len() < 20 {
        let (kw, span) = s.word();
        let ok = match kw {
            "program" => (|| {
                cert.program.name = s.string()?;
                let (kw, span) = s.word();
                if kw == "fingerprint" {
                    cert.program.fingerprint = s.string()?;
                } else if !kw.is_empty() {
                    s.errors
                        .push(error(span, format!("expected `fingerprint`, found `{kw}`")));
                    return Err(());
                }
                s.expect(';', "`;`")
            })(),
            "proof" => (|| {
                cert.proof = s.string()?;
                s.expect(';', "`;`")
            })(),
            "subject" => (|| {
                cert.program.subject = s.string()?;
                s.expect(';', "`;`")
            })(),
            "invariant" => invariant(&mut s, &mut conds, program).and_then(|inv| {
                if !seen.insert(inv.locs.clone()) {
                    s.errors.push(error(
                        span,
                        "a second invariant for the same tuple of locations",
                    ));
                    return Err(());
                }
                cert.invariants.push(inv);
                Ok(())
            }),
            "" => {
                let e = error(
                    s.here(),
                    format!(
                        "expected `program`, `subject`, `proof` or `invariant`, found {}",
                        s.found()
                    ),
                );
                s.errors.push(e);
                Err(())
            }
            other => {
                s.errors.push(error(
                    span,
                    format!(
                        "expected `program`, `subject`, `proof` or `invariant`, found `{other}`"
                    ),
                ));
                Err(())
            }
        };
        if ok.is_err() {
            // Resume at the next item.
            while !s.at_end() {
                let save = s.pos;
                let (w, _) = s.word();
                if matches!(w, "program" | "subject" | "proof" | "invariant") {
                    s.pos = save;
                    break;
                }
                if w.is_empty() {
                    s.pos += s.src[s.pos..].chars().next().map_or(1, char::len_utf8);
                }
            }
        }
    }
    if s.errors.is_empty() {
        Ok(cert)
    } else {
        Err(s.errors)
    }
}

fn invariant<'a>(
    s: &mut Scanner<'a>,
    conds: &mut CondParser<'a>,
    program: &Program,
) -> Result<Invariant, ()> {
    s.skip_trivia();
    let open = s.here();
    s.expect('[', "`[` and the location of every thread")?;
    let (start, tuple) = s.until(']', open)?;
    let n = program.threads.len();
    let mut locs: Vec<Option<LocId>> = vec![None; n];
    let mut offset = start;
    let mut ok = true;
    for entry in tuple.split(',') {
        let lead = entry.len() - entry.trim_start().len();
        let text = entry.trim();
        let span = Span::new(offset + lead, offset + lead + text.len());
        offset += entry.len() + 1;
        if text.is_empty() {
            continue;
        }
        let Some((thread, loc)) = text.split_once('@') else {
            s.errors.push(error(
                span,
                format!("expected `THREAD@LOCATION`, found `{text}`"),
            ));
            ok = false;
            continue;
        };
        let (thread, loc) = (thread.trim(), loc.trim());
        let Some(t) = program.thread_by_name(thread) else {
            let names: Vec<&str> = program.threads.iter().map(|t| t.name.as_str()).collect();
            let mut e = error(span, format!("undeclared thread `{thread}`"));
            e.notes
                .push(format!("the program's threads: {}", names.join(", ")));
            s.errors.push(e);
            ok = false;
            continue;
        };
        let Some(l) = program.thread(t).locs.iter().position(|x| x == loc) else {
            s.errors.push(error(
                span,
                format!("thread `{thread}` has no location `{loc}`"),
            ));
            ok = false;
            continue;
        };
        if locs[t.index()].replace(LocId::new(l)).is_some() {
            s.errors.push(error(
                span,
                format!("thread `{thread}` appears twice in the tuple"),
            ));
            ok = false;
        }
    }
    let missing: Vec<&str> = locs
        .iter()
        .enumerate()
        .filter(|(_, l)| l.is_none())
        .map(|(t, _)| program.threads[t].name.as_str())
        .collect();
    if ok && !missing.is_empty() {
        s.errors.push(error(
            Span::new(start, start + tuple.len()),
            format!(
                "the tuple must give the location of every thread; missing: {}",
                missing.join(", ")
            ),
        ));
        ok = false;
    }
    let mut blocks = Vec::new();
    loop {
        s.skip_trivia();
        let open = s.here();
        s.expect('{', "`{` and a condition")?;
        let (start, body) = s.until('}', open)?;
        match conds.dnf(body) {
            Ok(dnf) => blocks.push(dnf),
            Err(errors) => {
                for mut e in errors {
                    e.span = Span::new(e.span.start as usize + start, e.span.end as usize + start);
                    // Secondary labels point into the program's text.
                    e.labels.clear();
                    s.errors.push(e);
                }
                ok = false;
            }
        }
        let save = s.pos;
        let (w, _) = s.word();
        if w != "and" {
            s.pos = save;
            break;
        }
    }
    if !ok {
        return Err(());
    }
    Ok(Invariant {
        locs: locs.into_iter().map(|l| l.unwrap_or(LocId(0))).collect(),
        blocks,
    })
}

/// The certificate's program reference for a program called `name`.
pub fn program_ref(program: &Program, name: &str) -> ProgramRef {
    ProgramRef {
        name: name.to_string(),
        fingerprint: super::fingerprint(program),
        subject: String::new(),
    }
}

/// The program a certificate names (its `program` and `subject` lines),
/// read without the program: what is before the first invariant. Lines it
/// cannot read are left out (the full [`parse`] reports them).
pub fn header(src: &str) -> ProgramRef {
    let mut s = Scanner {
        src,
        pos: 0,
        errors: Vec::new(),
    };
    let mut out = ProgramRef::default();
    while !s.at_end() && s.errors.is_empty() {
        let (kw, _) = s.word();
        let read = match kw {
            "program" => s.string().map(|name| {
                out.name = name;
                if s.word().0 == "fingerprint" {
                    out.fingerprint = s.string().unwrap_or_default();
                }
            }),
            "subject" => s.string().map(|subject| out.subject = subject),
            "proof" => s.string().map(drop),
            _ => break,
        };
        if read.is_err() || s.expect(';', "`;`").is_err() {
            break;
        }
    }
    out
}
