//! Mapping byte offsets of the parsed text back to positions in the user's files.
//!
//! The parsed text is the preprocessor's output after the GNU rewrites of
//! [`crate::rewrite`]. Two layers undo that:
//! 1. the *edit map* undoes the rewrites that change lengths (`__thread` →
//!    `_Thread_local`), giving an offset in the preprocessor's output;
//! 2. the *line table*, read off the preprocessor's line markers
//!    (`# 12 "file.c" 1 3`, `#line 12 "file.c"`), gives the file and line there.

use std::fmt;
use std::path::{Path, PathBuf};

/// A position in a source file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file, as the preprocessor named it (the path given on its command line,
    /// or an include path such as `/usr/include/pthread.h`).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes. Exact for text the preprocessor copied through;
    /// approximate after macro expansion (the preprocessor collapses spaces).
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// One physical line of the preprocessor's output.
#[derive(Clone, Copy, Debug)]
struct LineEntry {
    /// Offset of the line's first byte in the preprocessor's output.
    start: usize,
    /// Index into `SourceMap::files`.
    file: u32,
    /// Line number in that file (0 for lines the preprocessor invents, like `<built-in>`).
    line: u32,
    /// Whether the preprocessor flagged the text as coming from a system header.
    system: bool,
}

/// A rewrite that changed the text's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edit {
    /// Where the replacement starts in the parsed text.
    pub text_start: usize,
    /// Where the replaced bytes start in the preprocessor's output.
    pub pre_start: usize,
    /// Length of the replaced bytes.
    pub old_len: usize,
    /// Length of the replacement.
    pub new_len: usize,
}

/// Maps byte offsets in [`crate::ParsedUnit::text`] (the offsets that lang-c's
/// [`Span`](lang_c::span::Span)s hold) to [`Location`]s in the original files.
#[derive(Clone, Debug)]
pub struct SourceMap {
    files: Vec<PathBuf>,
    lines: Vec<LineEntry>,
    edits: Vec<Edit>,
    /// Length of the parsed text.
    text_len: usize,
}

impl SourceMap {
    /// Builds the line table of a preprocessor's output. Text before the first line
    /// marker belongs to `initial_file`, starting at line 1.
    pub(crate) fn new(preprocessed: &str, initial_file: &Path) -> SourceMap {
        let mut files = vec![initial_file.to_path_buf()];
        let mut lines = Vec::new();
        let (mut file, mut line, mut system) = (0u32, 1u32, false);
        let mut start = 0;
        for raw in preprocessed.split_inclusive('\n') {
            lines.push(LineEntry {
                start,
                file,
                line,
                system,
            });
            start += raw.len();
            match parse_line_marker(raw) {
                Some(marker) => {
                    if let Some(name) = marker.file {
                        let path = PathBuf::from(name);
                        file = match files.iter().position(|f| *f == path) {
                            Some(i) => i as u32,
                            None => {
                                files.push(path);
                                (files.len() - 1) as u32
                            }
                        };
                    }
                    line = marker.line;
                    system = marker.system;
                }
                None => line = line.saturating_add(1),
            }
        }
        if lines.is_empty() {
            lines.push(LineEntry {
                start: 0,
                file: 0,
                line: 1,
                system: false,
            });
        }
        SourceMap {
            files,
            lines,
            edits: Vec::new(),
            text_len: preprocessed.len(),
        }
    }

    /// Records the length-changing rewrites (sorted by position) that turned the
    /// preprocessor's output into the parsed text.
    pub(crate) fn set_edits(&mut self, edits: Vec<Edit>, text_len: usize) {
        debug_assert!(edits.windows(2).all(|w| w[0].text_start < w[1].text_start));
        self.edits = edits;
        self.text_len = text_len;
    }

    /// The offset in the preprocessor's output of byte `offset` of the parsed text.
    /// An offset inside a replacement maps into the replaced bytes.
    pub(crate) fn preprocessed_offset(&self, offset: usize) -> usize {
        let i = self.edits.partition_point(|e| e.text_start <= offset);
        if i == 0 {
            return offset;
        }
        let e = self.edits[i - 1];
        let into = offset - e.text_start;
        if into < e.new_len {
            e.pre_start + into.min(e.old_len.saturating_sub(1))
        } else {
            e.pre_start + e.old_len + (into - e.new_len)
        }
    }

    fn entry(&self, offset: usize) -> Option<&LineEntry> {
        if offset > self.text_len {
            return None;
        }
        let pre = self.preprocessed_offset(offset);
        let i = self.lines.partition_point(|l| l.start <= pre);
        self.lines.get(i.checked_sub(1)?)
    }

    /// The position in the original source of byte `offset` of the parsed text
    /// (`offset == text.len()` is the end of input). `None` past the end.
    pub fn locate(&self, offset: usize) -> Option<Location> {
        let entry = self.entry(offset)?;
        let pre = self.preprocessed_offset(offset);
        Some(Location {
            file: self.files[entry.file as usize].clone(),
            line: entry.line,
            column: (pre - entry.start + 1) as u32,
        })
    }

    /// The position of the start of `span` (a lang-c node's span).
    pub fn locate_span(&self, span: &lang_c::span::Span) -> Option<Location> {
        self.locate(span.start)
    }

    /// Whether byte `offset` of the parsed text comes from a system header (the
    /// preprocessor's line-marker flag 3), e.g. `<pthread.h>`.
    pub fn is_system_header(&self, offset: usize) -> bool {
        self.entry(offset).is_some_and(|e| e.system)
    }

    /// Every file named by the line markers (the main file first).
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(PathBuf::as_path)
    }
}

/// A parsed line marker.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LineMarker {
    /// The line number of the *next* line.
    pub line: u32,
    /// The file name, unescaped, if the marker has one.
    pub file: Option<String>,
    /// Flag 3: system header.
    pub system: bool,
}

/// Parses `# 12 "file.c" 1 3` (GCC's output) or `#line 12 "file.c"` (C's directive).
pub(crate) fn parse_line_marker(line: &str) -> Option<LineMarker> {
    let rest = line.trim_start_matches([' ', '\t']).strip_prefix('#')?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix("line").unwrap_or(rest);
    let rest = rest.trim_start_matches([' ', '\t']);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let number: u32 = rest[..digits].parse().ok()?;
    let rest = rest[digits..].trim_start_matches([' ', '\t']);
    let (file, rest) = match rest.strip_prefix('"') {
        Some(quoted) => {
            let (name, after) = unescape_c_string(quoted)?;
            (Some(name), after)
        }
        None => (None, rest),
    };
    let system = rest.split_ascii_whitespace().any(|flag| flag == "3");
    Some(LineMarker {
        line: number,
        file,
        system,
    })
}

/// Reads a string literal's body up to its closing quote; returns it unescaped and
/// the text after the quote.
fn unescape_c_string(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 1..])),
            '\\' => {
                let (_, e) = chars.next()?;
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    '0'..='7' => {
                        // Octal escape (GCC writes non-printable bytes this way).
                        let mut value = e.to_digit(8)?;
                        let rest = &s[i + 2..];
                        let extra = rest
                            .bytes()
                            .take(2)
                            .take_while(|b| (b'0'..=b'7').contains(b))
                            .count();
                        for b in rest.bytes().take(extra) {
                            value = value * 8 + u32::from(b - b'0');
                        }
                        for _ in 0..extra {
                            chars.next();
                        }
                        out.push(char::from_u32(value).unwrap_or('\u{fffd}'));
                    }
                    other => out.push(other),
                }
            }
            '\n' => return None,
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers() {
        assert_eq!(
            parse_line_marker("# 12 \"a b.c\" 1 3 4\n"),
            Some(LineMarker {
                line: 12,
                file: Some("a b.c".into()),
                system: true
            })
        );
        assert_eq!(
            parse_line_marker("#line 7 \"x\\\\y.c\"")
                .unwrap()
                .file
                .as_deref(),
            Some("x\\y.c")
        );
        assert_eq!(parse_line_marker("# 3").unwrap().line, 3);
        assert_eq!(parse_line_marker("#pragma once"), None);
        assert_eq!(parse_line_marker("# \"x\""), None);
    }

    #[test]
    fn lines_and_edits() {
        let pre = "int a;\n# 10 \"u.c\"\nint b;\n# 1 \"/usr/include/h.h\" 1 3\nint c;\n# 11 \"u.c\" 2\nx y;";
        let mut map = SourceMap::new(pre, Path::new("<stdin>"));
        let loc = |m: &SourceMap, o| m.locate(o).unwrap();
        assert_eq!(loc(&map, 4).to_string(), "<stdin>:1:5");
        let b = pre.find("int b").unwrap();
        assert_eq!(loc(&map, b + 4).to_string(), "u.c:10:5");
        let c = pre.find("int c").unwrap();
        assert_eq!(loc(&map, c).to_string(), "/usr/include/h.h:1:1");
        assert!(map.is_system_header(c));
        let y = pre.find("y;").unwrap();
        assert_eq!(loc(&map, y).to_string(), "u.c:11:3");
        assert!(!map.is_system_header(y));
        assert_eq!(loc(&map, pre.len()).to_string(), "u.c:11:5");
        assert!(map.locate(pre.len() + 1).is_none());
        // Replace "x" (1 byte, at `y - 2`) by 6 bytes.
        map.set_edits(
            vec![Edit {
                text_start: y - 2,
                pre_start: y - 2,
                old_len: 1,
                new_len: 6,
            }],
            pre.len() + 5,
        );
        assert_eq!(loc(&map, y - 2 + 3).to_string(), "u.c:11:1");
        assert_eq!(loc(&map, y + 5).to_string(), "u.c:11:3");
        assert_eq!(loc(&map, b).to_string(), "u.c:10:1");
    }
}
