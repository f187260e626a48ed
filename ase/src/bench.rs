//! `ase bench`: checks every `.gc` model of a folder and prints a markdown
//! table of our verdicts and figures beside those of the papers.
//!
//! A wrong verdict (one that contradicts the model's `// expect:` line), an
//! unsafe verdict whose trace does not replay, and a crash of the engine make
//! the bench fail (exit code 1); everything else is reported in the table.

use crate::Limits;
use anyhow::Context;
use engine::ir::Program;
use engine::verdict::{Outcome, Verdict};
use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Exit code of a bench without failures.
const EXIT_OK: u8 = 0;
/// Exit code of a bench with a wrong verdict, a bad trace or a crash.
const EXIT_FAILED: u8 = 1;

/// Longest explanation (unknown reason, parse error) shown in a cell, in
/// characters.
const REASON_WIDTH: usize = 48;

/// The papers' result tables, read from their markdown transcription.
pub mod paper {
    /// One markdown table: the `## ` heading it stands under, its header
    /// names and its rows (each as long as the header).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Table {
        /// The text of the last `## ` heading before the table ("" if none).
        pub heading: String,
        /// The column names, trimmed.
        pub headers: Vec<String>,
        /// The body rows; each has exactly `headers.len()` cells.
        pub rows: Vec<Vec<String>>,
    }

    /// A body row of a [`Table`], whose cells are looked up by column name.
    #[derive(Clone, Copy, Debug)]
    pub struct Row<'a> {
        /// The table the row belongs to.
        pub table: &'a Table,
        /// The row's cells, in the order of `table.headers`.
        pub cells: &'a [String],
    }

    impl<'a> Row<'a> {
        /// The cell of the column named `header` (exact match after
        /// trimming), if the table has that column.
        pub fn get(&self, header: &str) -> Option<&'a str> {
            let i = self.table.headers.iter().position(|h| h == header)?;
            self.cells.get(i).map(String::as_str)
        }

        /// The cell of the first of `headers` the table has.
        pub fn first_of(&self, headers: &[&str]) -> Option<&'a str> {
            headers.iter().find_map(|h| self.get(h))
        }
    }

    impl Table {
        /// The body rows.
        pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
            self.rows
                .iter()
                .map(move |cells| Row { table: self, cells })
        }
    }

    /// All tables of a markdown document, in document order.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Tables {
        /// The tables.
        pub tables: Vec<Table>,
    }

    impl Tables {
        /// Reads every pipe table of `text`. A table is a header line, a
        /// delimiter line (`| --- | :-: |`) and the `|` lines that follow.
        /// Never fails: anything that is not a table is skipped.
        pub fn parse(text: &str) -> Tables {
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            let mut tables = Vec::new();
            let mut heading = String::new();
            let mut i = 0;
            while i < lines.len() {
                let line = lines[i];
                if let Some(h) = line.strip_prefix("## ") {
                    heading = h.trim().to_string();
                    i += 1;
                    continue;
                }
                let delimiter = lines.get(i + 1).copied().unwrap_or("");
                if !(line.starts_with('|') && is_delimiter(delimiter)) {
                    i += 1;
                    continue;
                }
                let headers = split_row(line);
                let mut rows = Vec::new();
                i += 2;
                while i < lines.len() && lines[i].starts_with('|') {
                    let mut cells = split_row(lines[i]);
                    cells.resize(headers.len(), String::new());
                    rows.push(cells);
                    i += 1;
                }
                tables.push(Table {
                    heading: heading.clone(),
                    headers,
                    rows,
                });
            }
            Tables { tables }
        }

        /// The first row, among the tables whose heading starts with
        /// `heading_prefix`, whose `column` names `key`: the cell's first
        /// word, with `**`/`*` emphasis and `[?]` marks removed, equals `key`.
        pub fn find(&self, heading_prefix: &str, column: &str, key: &str) -> Option<Row<'_>> {
            self.tables
                .iter()
                .filter(|t| t.heading.starts_with(heading_prefix))
                .flat_map(Table::rows)
                .find(|r| {
                    r.get(column)
                        .and_then(|c| plain(c).split_whitespace().next().map(str::to_owned))
                        .is_some_and(|w| w == key)
                })
        }
    }

    /// A cell without its marks: emphasis (`**`, `*`) and `[?]` removed,
    /// spaces trimmed. `"1063 **[?]**"` becomes `"1063"`.
    pub fn plain(cell: &str) -> String {
        let s = cell.replace("[?]", "").replace('*', "");
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Whether `line` is a table's delimiter line (`|---|:---:|`).
    fn is_delimiter(line: &str) -> bool {
        if !line.starts_with('|') {
            return false;
        }
        let cells = split_row(line);
        !cells.is_empty()
            && cells.iter().all(|c| {
                let c = c.strip_prefix(':').unwrap_or(c);
                let c = c.strip_suffix(':').unwrap_or(c);
                !c.is_empty() && c.chars().all(|ch| ch == '-')
            })
    }

    /// The trimmed cells of a `| a | b |` line; `\|` is a literal pipe.
    fn split_row(line: &str) -> Vec<String> {
        let line = line.trim();
        let line = line.strip_prefix('|').unwrap_or(line);
        let mut cells = Vec::new();
        let mut cur = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&'|') => {
                    cur.push('|');
                    chars.next();
                }
                '|' => cells.push(std::mem::take(&mut cur).trim().to_string()),
                _ => cur.push(c),
            }
        }
        // Text after the last pipe is a cell only if the row has no closing
        // pipe.
        if !cur.trim().is_empty() {
            cells.push(cur.trim().to_string());
        }
        cells
    }
}

/// Tables of the papers' file whose rows are compared with ours (the ASE
/// paper's Fig. 7 and Fig. 8).
const PAPER_HEADING: &str = "ASE ";
/// The column that names a row's `.gc` file (its stem).
const FILE_COLUMN: &str = ".gc file";
/// Column names of the paper's figures, ASE's column first when a table has
/// several algorithms (Fig. 7), then the single-algorithm name (Fig. 8).
const PAPER_ITER: &[&str] = &["Iter. ASE", "Iter."];
/// See [`PAPER_ITER`].
const PAPER_QUERIES: &[&str] = &["Prvr. Qurs. ASE", "Prvr. Qurs."];
/// See [`PAPER_ITER`].
const PAPER_PREDS: &[&str] = &["Preds. ASE", "Preds."];
/// See [`PAPER_ITER`].
const PAPER_STATES: &[&str] = &["Con/Abs ASE", "Symb/Abs States"];
/// See [`PAPER_ITER`].
const PAPER_CHECK: &[&str] = &["Check ASE", "Check"];

/// The column names of the output table.
const HEADERS: [&str; 14] = [
    "model",
    "expect",
    "verdict",
    "check",
    "iter",
    "queries",
    "preds",
    "sym/abs states",
    "time (s)",
    "paper iter",
    "paper queries",
    "paper preds",
    "paper states",
    "paper check",
];
/// Which output columns are right-aligned (numbers).
const RIGHT: [bool; 14] = [
    false, false, false, false, true, true, true, true, true, true, true, true, true, false,
];

/// What the runs of one model produced.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The file could not be read or parsed; the first error.
    Invalid(String),
    /// The engine panicked; the panic message.
    Crashed(String),
    /// The outcome of the last run.
    Checked {
        /// Verdict and figures of the last run.
        outcome: Outcome,
        /// For an unsafe verdict, why its trace does not replay.
        bad_trace: Option<String>,
    },
}

/// One model's line of the bench.
#[derive(Clone, Debug)]
pub struct ModelRun {
    /// The file stem (matched against the papers' `.gc file` column).
    pub name: String,
    /// The `// expect:` value, lower-cased (`None` if the file has none).
    pub expect: Option<String>,
    /// What the runs produced.
    pub result: Answer,
    /// Median wall time of the runs (`None` if the engine never ran).
    pub time: Option<Duration>,
    /// Remarks, e.g. verdicts that differ across runs.
    pub notes: Vec<String>,
}

/// How a model's verdict compares with its expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The expected verdict (with a trace that replays, if unsafe).
    Correct,
    /// Safe where unsafe is expected or vice versa, or an unsafe verdict
    /// whose trace does not replay.
    Wrong,
    /// The engine gave no answer.
    Unknown,
    /// A definite verdict for a model without a known expectation.
    Unchecked,
    /// The model could not be read or parsed.
    Invalid,
    /// The engine panicked.
    Crashed,
}

impl Class {
    /// Whether this makes the bench fail.
    pub fn fails(self) -> bool {
        matches!(self, Class::Wrong | Class::Crashed)
    }
}

impl ModelRun {
    /// How the verdict compares with the expectation.
    pub fn class(&self) -> Class {
        match &self.result {
            Answer::Invalid(_) => Class::Invalid,
            Answer::Crashed(_) => Class::Crashed,
            Answer::Checked { outcome, bad_trace } => match &outcome.verdict {
                Verdict::Unknown(_) => Class::Unknown,
                _ if bad_trace.is_some() => Class::Wrong,
                v => match self.expect.as_deref() {
                    Some(e @ ("safe" | "unsafe")) if e == v.name() => Class::Correct,
                    Some("safe" | "unsafe") => Class::Wrong,
                    _ => Class::Unchecked,
                },
            },
        }
    }
}

/// The `// expect:` value of a `.gc` source (lower-cased first word),
/// looked for in the comment lines at the top of the file.
pub fn expected(source: &str) -> Option<String> {
    for line in source.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let comment = line.strip_prefix("//").or_else(|| line.strip_prefix('#'))?;
        if let Some(rest) = comment.trim_start().strip_prefix("expect:") {
            return rest.split_whitespace().next().map(str::to_ascii_lowercase);
        }
    }
    None
}

/// The median of `times` (the mean of the two middle ones for an even
/// count); `None` for no times.
pub fn median(times: &[Duration]) -> Option<Duration> {
    let mut v = times.to_vec();
    v.sort();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2),
    }
}

/// `safe (SF)`, `unsafe` or `unknown`: what must agree across runs.
fn verdict_label(v: &Verdict) -> String {
    match v {
        Verdict::Safe(p) => format!("safe ({})", p.short()),
        _ => v.name().to_string(),
    }
}

/// The text of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// `s` cut to `width` characters (with `…` when cut), on one line.
fn truncate(s: &str, width: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() <= width {
        s
    } else {
        let cut: String = s.chars().take(width.saturating_sub(1)).collect();
        format!("{}…", cut.trim_end())
    }
}

/// The first parse error of `source`, as `line N: message`.
fn parse_error(source: &str, errors: &[engine::parse::ParseError]) -> String {
    let Some(e) = errors.first() else {
        return "parse error".to_string();
    };
    let start = (e.span.start as usize).min(source.len());
    let line = source
        .as_bytes()
        .iter()
        .take(start)
        .filter(|&&b| b == b'\n')
        .count()
        + 1;
    format!("line {line}: {}", e.message)
}

/// Parses the model at `path` and checks it `runs` times.
pub fn run_model(path: &Path, runs: u32, config: &engine::ase::Config) -> ModelRun {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            return ModelRun {
                name,
                expect: None,
                result: Answer::Invalid(format!("cannot read: {e}")),
                time: None,
                notes: Vec::new(),
            }
        }
    };
    let expect = expected(&source);
    let (result, time, notes) = match engine::parse::parse_program(&source) {
        Err(errors) => (
            Answer::Invalid(parse_error(&source, &errors)),
            None,
            Vec::new(),
        ),
        Ok(program) => check_runs(&program, runs, config),
    };
    ModelRun {
        name,
        expect,
        result,
        time,
        notes,
    }
}

/// Checks `program` `runs` times (at least once): the last outcome, the
/// median time and notes on runs that disagree.
fn check_runs(
    program: &Program,
    runs: u32,
    config: &engine::ase::Config,
) -> (Answer, Option<Duration>, Vec<String>) {
    let mut times = Vec::new();
    let mut labels = Vec::new();
    let mut figures = Vec::new();
    let mut last = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| engine::ase::check(program, config)));
        times.push(start.elapsed());
        match outcome {
            Ok(o) => {
                labels.push(verdict_label(&o.verdict));
                let s = &o.stats;
                figures.push((
                    s.iterations,
                    s.prover_queries,
                    s.predicates.len(),
                    s.symbolic_states,
                    s.abstract_states,
                ));
                last = Some(o);
            }
            Err(payload) => {
                return (
                    Answer::Crashed(panic_message(payload.as_ref())),
                    median(&times),
                    Vec::new(),
                )
            }
        }
    }
    let mut notes = Vec::new();
    if labels.iter().any(|l| *l != labels[0]) {
        notes.push(format!(
            "verdicts differ across runs: {}",
            labels.join(", ")
        ));
    } else if figures.iter().any(|f| *f != figures[0]) {
        notes.push("figures (iterations, queries, predicates, states) differ across runs; the last run's are shown".to_string());
    }
    let Some(outcome) = last else {
        return (Answer::Invalid("no run".to_string()), None, notes);
    };
    let bad_trace = match &outcome.verdict {
        Verdict::Unsafe(trace) => {
            match panic::catch_unwind(AssertUnwindSafe(|| trace.replay(program))) {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(e.to_string()),
                Err(payload) => Some(format!(
                    "replay panicked: {}",
                    panic_message(payload.as_ref())
                )),
            }
        }
        _ => None,
    };
    if let Some(why) = &bad_trace {
        notes.push(format!("the counterexample does not replay: {why}"));
    }
    (
        Answer::Checked { outcome, bad_trace },
        median(&times),
        notes,
    )
}

/// A cell's text with pipes escaped and line breaks removed.
fn escape(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The verdict cell: loud for failures, with the reason for unknown and
/// invalid models.
fn verdict_cell(m: &ModelRun) -> String {
    match (&m.result, m.class()) {
        (Answer::Invalid(why), _) => format!("invalid ({})", truncate(why, REASON_WIDTH)),
        (Answer::Crashed(why), _) => format!("**CRASH: {}**", truncate(why, REASON_WIDTH)),
        (Answer::Checked { outcome, .. }, class) => match &outcome.verdict {
            Verdict::Unknown(why) => format!("unknown ({})", truncate(why, REASON_WIDTH)),
            Verdict::Unsafe(_)
                if class == Class::Wrong && m.expect.as_deref() == Some("unsafe") =>
            {
                "**BAD TRACE: unsafe**".to_string()
            }
            v if class == Class::Wrong => format!("**WRONG: {}**", v.name()),
            v => v.name().to_string(),
        },
    }
}

/// The paper's figures for the model's row (`–` where there is none).
fn paper_cells(row: Option<paper::Row<'_>>) -> [String; 5] {
    let cell = |names: &[&str]| {
        row.and_then(|r| r.first_of(names))
            .filter(|c| !c.is_empty())
            .unwrap_or("–")
            .to_string()
    };
    [
        cell(PAPER_ITER),
        cell(PAPER_QUERIES),
        cell(PAPER_PREDS),
        cell(PAPER_STATES),
        cell(PAPER_CHECK),
    ]
}

/// The output row of a model, beside its paper row (if any).
pub fn format_row(m: &ModelRun, paper: Option<paper::Row<'_>>) -> Vec<String> {
    let mut cells = vec![
        m.name.clone(),
        m.expect.clone().unwrap_or_else(|| "?".to_string()),
        verdict_cell(m),
    ];
    match &m.result {
        Answer::Checked { outcome, .. } => {
            let s = &outcome.stats;
            cells.push(match &outcome.verdict {
                Verdict::Safe(p) => p.short().to_string(),
                Verdict::Unsafe(_) => "cex".to_string(),
                Verdict::Unknown(_) => String::new(),
            });
            cells.push(s.iterations.to_string());
            cells.push(s.prover_queries.to_string());
            cells.push(s.predicates.len().to_string());
            cells.push(format!("{}/{}", s.symbolic_states, s.abstract_states));
        }
        _ => cells.extend(vec![String::new(); 5]),
    }
    cells.push(
        m.time
            .map(|t| format!("{:.3}", t.as_secs_f64()))
            .unwrap_or_default(),
    );
    cells.extend(paper_cells(paper));
    cells.iter().map(|c| escape(c)).collect()
}

/// A markdown table with padded columns; `right` marks right-aligned ones.
pub fn markdown_table(headers: &[&str], right: &[bool], rows: &[Vec<String>]) -> String {
    let width = |i: usize| {
        rows.iter()
            .filter_map(|r| r.get(i))
            .chain(std::iter::once(&headers[i].to_string()))
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0)
            .max(3)
    };
    let widths: Vec<usize> = (0..headers.len()).map(width).collect();
    let is_right = |i: usize| right.get(i).copied().unwrap_or(false);
    let line = |cells: &mut dyn Iterator<Item = String>| {
        let parts: Vec<String> = cells
            .enumerate()
            .map(|(i, c)| {
                let pad = " ".repeat(widths[i].saturating_sub(c.chars().count()));
                if is_right(i) {
                    format!("{pad}{c}")
                } else {
                    format!("{c}{pad}")
                }
            })
            .collect();
        format!("| {} |\n", parts.join(" | "))
    };
    let mut out = line(&mut headers.iter().map(|h| h.to_string()));
    let delims: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if is_right(i) {
                format!("{}:", "-".repeat(w - 1))
            } else {
                "-".repeat(*w)
            }
        })
        .collect();
    out.push_str(&format!("| {} |\n", delims.join(" | ")));
    for r in rows {
        out.push_str(&line(
            &mut (0..headers.len()).map(|i| r.get(i).cloned().unwrap_or_default()),
        ));
    }
    out
}

/// The summary line and the notes after the table.
pub fn summary(models: &[ModelRun], runs: u32, paper: Option<&Path>) -> String {
    let count = |c: Class| models.iter().filter(|m| m.class() == c).count();
    let total: Duration = models.iter().filter_map(|m| m.time).sum();
    let mut out = format!(
        "{} models: {} correct, {} wrong, {} unknown",
        models.len(),
        count(Class::Correct),
        count(Class::Wrong),
        count(Class::Unknown)
    );
    for (class, what) in [
        (Class::Crashed, "crashed"),
        (Class::Invalid, "invalid"),
        (Class::Unchecked, "without expectation"),
    ] {
        if count(class) > 0 {
            let _ = write!(out, ", {} {what}", count(class));
        }
    }
    let _ = writeln!(
        out,
        "; total time {:.3} s (sum of the medians of {} run{} each).",
        total.as_secs_f64(),
        runs,
        if runs == 1 { "" } else { "s" }
    );
    match paper {
        Some(p) => {
            let _ = writeln!(out, "\nPaper figures: `{}`.", p.display());
        }
        None => out.push_str("\nPaper figures: none.\n"),
    }
    let notes: Vec<String> = models
        .iter()
        .flat_map(|m| m.notes.iter().map(move |n| format!("- {}: {n}\n", m.name)))
        .collect();
    if !notes.is_empty() {
        out.push_str("\nNotes:\n\n");
        out.extend(notes);
    }
    out
}

/// The `.gc` files of `dir`, sorted by name.
fn models_in(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read folder `{}`", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .with_context(|| format!("cannot read folder `{}`", dir.display()))?
            .path();
        if path.extension().is_some_and(|e| e == "gc") && path.is_file() {
            files.push(path);
        }
    }
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    if files.is_empty() {
        anyhow::bail!("no `.gc` files in `{}`", dir.display());
    }
    Ok(files)
}

/// The papers' tables: from `paper` if given (it must be readable), else
/// from `paper-tables.md` beside `dir` if that exists.
fn load_paper(
    dir: &Path,
    paper: Option<&Path>,
) -> anyhow::Result<Option<(PathBuf, paper::Tables)>> {
    let path = match paper {
        Some(p) => p.to_path_buf(),
        None => {
            let p = dir.join("..").join("paper-tables.md");
            if !p.is_file() {
                return Ok(None);
            }
            p
        }
    };
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read the paper tables `{}`", path.display()))?;
    Ok(Some((path, paper::Tables::parse(&text))))
}

/// The one-line progress report of a finished model.
fn progress(m: &ModelRun) -> String {
    let time = m
        .time
        .map(|t| format!(", {:.3} s", t.as_secs_f64()))
        .unwrap_or_default();
    let what = match &m.result {
        Answer::Invalid(why) => format!("invalid ({})", truncate(why, REASON_WIDTH)),
        Answer::Crashed(why) => format!("CRASHED ({})", truncate(why, REASON_WIDTH)),
        Answer::Checked { outcome, .. } => match &outcome.verdict {
            Verdict::Unknown(why) => format!("unknown ({})", truncate(why, REASON_WIDTH)),
            v => verdict_label(v),
        },
    };
    let mark = match m.class() {
        Class::Wrong => "  <-- WRONG",
        Class::Crashed => "  <-- CRASH",
        _ => "",
    };
    format!("{what}{time}{mark}")
}

/// Runs `ase bench`: prints the table to stdout and returns the exit code
/// (1 if a verdict is wrong or the engine crashed, else 0).
pub fn run(dir: &Path, runs: u32, paper: Option<&Path>, limits: &Limits) -> anyhow::Result<u8> {
    run_to(dir, runs, paper, limits, None)
}

/// Like [`run`], and also writes the markdown to `output` if given.
pub fn run_to(
    dir: &Path,
    runs: u32,
    paper: Option<&Path>,
    limits: &Limits,
    output: Option<&Path>,
) -> anyhow::Result<u8> {
    let config = limits.config()?;
    if runs == 0 {
        anyhow::bail!("--runs must be at least 1");
    }
    let files = models_in(dir)?;
    let tables = load_paper(dir, paper)?;
    // Fail on an unwritable output before the (long) runs, not after.
    let mut out_file = output
        .map(|p| {
            std::fs::File::create(p).with_context(|| format!("cannot write `{}`", p.display()))
        })
        .transpose()?;
    let mut models = Vec::with_capacity(files.len());
    for (i, path) in files.iter().enumerate() {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        eprint!("[{}/{}] {name} ... ", i + 1, files.len());
        let m = run_model(path, runs, &config);
        eprintln!("{}", progress(&m));
        models.push(m);
    }
    let rows: Vec<Vec<String>> = models
        .iter()
        .map(|m| {
            let row = tables
                .as_ref()
                .and_then(|(_, t)| t.find(PAPER_HEADING, FILE_COLUMN, &m.name));
            format_row(m, row)
        })
        .collect();
    let report = format!(
        "{}\n{}",
        markdown_table(&HEADERS, &RIGHT, &rows),
        summary(&models, runs, tables.as_ref().map(|(p, _)| p.as_path()))
    );
    print!("{report}");
    if let (Some(f), Some(p)) = (out_file.as_mut(), output) {
        use std::io::Write;
        f.write_all(report.as_bytes())
            .with_context(|| format!("cannot write `{}`", p.display()))?;
    }
    let failed = models.iter().any(|m| m.class().fails());
    if failed {
        eprintln!("bench FAILED: a verdict is wrong or the engine crashed (see the table)");
    }
    Ok(if failed { EXIT_FAILED } else { EXIT_OK })
}

#[cfg(test)]
mod tests {
    use super::paper::{plain, Tables};
    use super::*;
    use engine::verdict::{Proof, Stats};

    const SAMPLE: &str = "\
# Title

| not | under a heading |
| --- | --- |
| x | y |

## ASE Fig. 7: two algorithms

Some prose | with a pipe.

| Program | Iter. ASE | Iter. UR | Prvr. Qurs. ASE | Preds. ASE | Con/Abs ASE | Check | .gc file |
| --- | ---: | :---: | --- | --- | --- | --- | --- |
| RAX | 1 | – | 6 | 2 | 81/44 | SF | rax |
| RAX-15 | 15 | 15 | 296 **[?]** | 22 | 130/129 | – | (not written) |
| short | 3 |
Notes after the table.

## ASE Fig. 8: one algorithm

| Program | Iter. | Prvr. Qurs. | Preds. | Symb/Abs States | Time(s) | Check | .gc file |
|---|---|---|---|---|---|---|---|
| ticket2 | 4 | 523 | 12 | 5516/62 | 281.134 | II | ticket2-nd |
| peterson2 | 1 | 24 | 4 | 700/38 | 424 **[?]** | II | **peterson2** [?] |

## UR Table 1

| Example | Iterations | .gc file |
| --- | --- | --- |
| RAX | – | rax \\| the repair |
";

    #[test]
    fn reads_tables_under_headings() {
        let t = Tables::parse(SAMPLE);
        let headings: Vec<&str> = t.tables.iter().map(|t| t.heading.as_str()).collect();
        assert_eq!(
            headings,
            [
                "",
                "ASE Fig. 7: two algorithms",
                "ASE Fig. 8: one algorithm",
                "UR Table 1"
            ]
        );
        let fig7 = &t.tables[1];
        assert_eq!(fig7.headers.len(), 8);
        assert_eq!(
            fig7.rows.len(),
            3,
            "the table ends at the first non-pipe line"
        );
        assert_eq!(fig7.rows[2], ["short", "3", "", "", "", "", "", ""]);
        assert_eq!(t.tables[3].rows[0][2], "rax | the repair", "escaped pipe");
    }

    #[test]
    fn selects_cells_by_header_name() {
        let t = Tables::parse(SAMPLE);
        let rax = t.find("ASE ", ".gc file", "rax").expect("rax row");
        assert_eq!(rax.get("Program"), Some("RAX"));
        assert_eq!(rax.first_of(PAPER_ITER), Some("1"));
        assert_eq!(rax.first_of(PAPER_STATES), Some("81/44"));
        assert_eq!(rax.get("Iter."), None);
        let t2 = t
            .find("ASE ", ".gc file", "ticket2-nd")
            .expect("ticket2-nd row");
        assert_eq!(t2.first_of(PAPER_ITER), Some("4"));
        assert_eq!(t2.first_of(PAPER_QUERIES), Some("523"));
        assert_eq!(t2.first_of(PAPER_STATES), Some("5516/62"));
        assert_eq!(t2.first_of(PAPER_CHECK), Some("II"));
        // Marks are kept in cells, and ignored when matching file names.
        let p = t
            .find("ASE ", ".gc file", "peterson2")
            .expect("peterson2 row");
        assert_eq!(p.get("Time(s)"), Some("424 **[?]**"));
        assert_eq!(plain("296 **[?]**"), "296");
        assert!(t.find("ASE ", ".gc file", "ticket2").is_none());
        assert!(t.find("ASE ", ".gc file", "not").is_none());
        assert!(t.find("ASE ", ".gc file", "written").is_none());
        // The UR table is not an ASE figure.
        assert_eq!(
            t.find("UR ", ".gc file", "rax").unwrap().get("Iterations"),
            Some("–")
        );
    }

    #[test]
    fn bad_markdown_gives_no_tables() {
        for text in [
            "",
            "|",
            "| a |\n",
            "| a |\n| b |\n",
            "|---|\n|---|\n",
            "## \n| a\n| - |",
        ] {
            let t = Tables::parse(text);
            assert!(t
                .tables
                .iter()
                .all(|t| t.rows.iter().all(|r| r.len() == t.headers.len())));
        }
        assert!(Tables::parse("| a |\n| b |\n").tables.is_empty());
    }

    #[test]
    fn median_of_odd_even_and_no_times() {
        let ms = Duration::from_millis;
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[ms(7)]), Some(ms(7)));
        assert_eq!(median(&[ms(30), ms(10), ms(20)]), Some(ms(20)));
        assert_eq!(median(&[ms(40), ms(10), ms(30), ms(20)]), Some(ms(25)));
        assert_eq!(median(&[ms(5), ms(1000), ms(6)]), Some(ms(6)));
    }

    #[test]
    fn reads_the_expectation_from_the_header() {
        assert_eq!(expected("// expect: safe\nvar x;").as_deref(), Some("safe"));
        assert_eq!(
            expected("\n// source: x\n//   expect:  Unsafe (X reachable)\n").as_deref(),
            Some("unsafe")
        );
        assert_eq!(expected("# expect: unsafe").as_deref(), Some("unsafe"));
        assert_eq!(expected("var x; // expect: safe"), None);
        assert_eq!(expected("// expect:"), None);
        assert_eq!(expected(""), None);
    }

    fn model(expect: Option<&str>, verdict: Verdict) -> ModelRun {
        ModelRun {
            name: "m".to_string(),
            expect: expect.map(str::to_string),
            result: Answer::Checked {
                outcome: Outcome {
                    verdict,
                    stats: Stats {
                        iterations: 2,
                        prover_queries: 17,
                        predicates: vec!["x <= y".to_string()],
                        symbolic_states: 9,
                        abstract_states: 4,
                        time: Duration::ZERO,
                    },
                },
                bad_trace: None,
            },
            time: Some(Duration::from_micros(1_234_567)),
            notes: Vec::new(),
        }
    }

    #[test]
    fn formats_rows() {
        let safe = Verdict::Safe(Proof::InductiveInvariant);
        let m = model(Some("safe"), safe.clone());
        assert_eq!(m.class(), Class::Correct);
        assert_eq!(
            format_row(&m, None),
            [
                "m", "safe", "safe", "II", "2", "17", "1", "9/4", "1.235", "–", "–", "–", "–", "–"
            ]
        );
        let t = Tables::parse(SAMPLE);
        let row = format_row(&m, t.find("ASE ", ".gc file", "rax"));
        assert_eq!(row[9..], ["1", "6", "2", "81/44", "SF"]);

        let wrong = model(Some("unsafe"), safe.clone());
        assert_eq!(wrong.class(), Class::Wrong);
        assert_eq!(format_row(&wrong, None)[2], "**WRONG: safe**");
        assert_eq!(model(None, safe).class(), Class::Unchecked);

        let unknown = model(
            Some("safe"),
            Verdict::Unknown("time limit | reached ".repeat(10)),
        );
        assert_eq!(unknown.class(), Class::Unknown);
        let row = format_row(&unknown, None);
        assert!(
            row[2].starts_with("unknown (time limit \\| reached"),
            "{}",
            row[2]
        );
        assert!(row[2].ends_with("…)"), "{}", row[2]);
        assert_eq!(row[3], "");

        let invalid = ModelRun {
            result: Answer::Invalid("line 3: expected `;`".to_string()),
            time: None,
            ..model(None, Verdict::Unknown(String::new()))
        };
        assert_eq!(invalid.class(), Class::Invalid);
        let row = format_row(&invalid, None);
        assert_eq!(
            row[1..9],
            [
                "?",
                "invalid (line 3: expected `;`)",
                "",
                "",
                "",
                "",
                "",
                ""
            ]
        );
    }

    #[test]
    fn table_and_summary() {
        let models = [
            model(Some("safe"), Verdict::Safe(Proof::SafeFragment)),
            model(Some("unsafe"), Verdict::Safe(Proof::SafeFragment)),
            model(Some("safe"), Verdict::Unknown("timeout".to_string())),
        ];
        let rows: Vec<Vec<String>> = models.iter().map(|m| format_row(m, None)).collect();
        let table = markdown_table(&HEADERS, &RIGHT, &rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(lines[0].starts_with("| model | expect | verdict "));
        assert!(lines[1].starts_with("| ----- | ------ | -------"));
        let widths: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
        assert!(widths.iter().all(|w| *w == widths[0]), "{table}");
        let s = summary(&models, 3, None);
        assert!(
            s.starts_with("3 models: 1 correct, 1 wrong, 1 unknown; total time 3.704 s"),
            "{s}"
        );
        assert!(models.iter().any(|m| m.class().fails()));
    }
}
