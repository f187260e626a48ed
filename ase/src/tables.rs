//! `ase tables`: checks every `.gc` model of a folder and prints a markdown
//! table of our verdicts and figures beside those of the papers.
//!
//! With `--engine ur` the table is UR's (beside UR's columns of the ASE
//! paper's Fig. 7); with `--compare` both engines run on every model and the
//! table puts their figures side by side, in the shape of Fig. 7.
//!
//! A wrong verdict (one that contradicts the model's `// expect:` line), an
//! unsafe verdict whose trace does not replay, and a crash of the engine make
//! the bench fail (exit code 1); everything else is reported in the table.

use crate::options::{EngineKind, Limits};
use anyhow::Context;
use engine::verdict::{UnknownKind, Verdict};
use pipeline::models::{load, run_loaded, verdict_label, Answer, Class, ModelRun};
use pipeline::paper;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Exit code of a bench without failures.
const EXIT_OK: u8 = 0;
/// Exit code of a bench with a wrong verdict, a bad trace or a crash.
const EXIT_FAILED: u8 = 1;

/// Longest explanation (unknown reason, parse error) shown in a cell, in
/// characters.
const REASON_WIDTH: usize = 48;

/// Tables of the papers' file whose rows are compared with ours (the ASE
/// paper's Fig. 7 and Fig. 8).
const PAPER_HEADING: &str = "ASE ";
/// The ASE paper's figure that compares ASE with UR.
const FIG7_HEADING: &str = "ASE Fig. 7";
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
/// UR's iterations in Fig. 7.
const PAPER_ITER_UR: &str = "Iter. UR";
/// UR's prover queries in Fig. 7.
const PAPER_QUERIES_UR: &str = "Prvr. Qurs. UR";
/// UR's predicates in Fig. 7.
const PAPER_PREDS_UR: &str = "Preds. UR";
/// UR's concrete/abstract states in Fig. 7.
const PAPER_STATES_UR: &str = "Con/Abs UR";

/// Where an engine's figures stand in the papers' file: the tables looked
/// in and, for each paper column of the output, the names tried in order
/// (none: the cell is always `–`).
struct PaperColumns {
    /// Prefix of the headings of the tables looked in.
    heading: &'static str,
    /// Iterations, queries, predicates, states and check.
    columns: [&'static [&'static str]; 5],
}

impl PaperColumns {
    /// The columns of `engine`: ASE's from Fig. 7 and Fig. 8, UR's from
    /// Fig. 7 (UR has no check column; Fig. 8 has no UR figures).
    fn of(engine: EngineKind) -> PaperColumns {
        match engine {
            EngineKind::Ase => PaperColumns {
                heading: PAPER_HEADING,
                columns: [
                    PAPER_ITER,
                    PAPER_QUERIES,
                    PAPER_PREDS,
                    PAPER_STATES,
                    PAPER_CHECK,
                ],
            },
            EngineKind::Ur => PaperColumns {
                heading: FIG7_HEADING,
                columns: [
                    &[PAPER_ITER_UR],
                    &[PAPER_QUERIES_UR],
                    &[PAPER_PREDS_UR],
                    &[PAPER_STATES_UR],
                    &[],
                ],
            },
        }
    }
}

/// The column names of the one-engine table of `engine` (UR explores
/// concrete states, ASE symbolic ones).
fn headers(engine: EngineKind) -> [&'static str; 14] {
    [
        "model",
        "expect",
        "verdict",
        "check",
        "iter",
        "queries",
        "preds",
        match engine {
            EngineKind::Ase => "sym/abs states",
            EngineKind::Ur => "con/abs states",
        },
        "time (s)",
        "paper iter",
        "paper queries",
        "paper preds",
        "paper states",
        "paper check",
    ]
}
/// Which output columns are right-aligned (numbers).
const RIGHT: [bool; 14] = [
    false, false, false, false, true, true, true, true, true, true, true, true, true, false,
];

/// The column names of the `--compare` table (the shape of Fig. 7).
const COMPARE_HEADERS: [&str; 17] = [
    "model",
    "expect",
    "verdict ASE",
    "verdict UR",
    "iter ASE",
    "iter UR",
    "queries ASE",
    "queries UR",
    "preds ASE",
    "preds UR",
    "time ASE",
    "time UR",
    "states ASE",
    "states UR",
    "check ASE",
    "paper iter ASE/UR",
    "paper preds ASE/UR",
];
/// Which columns of the `--compare` table are right-aligned.
const COMPARE_RIGHT: [bool; 17] = [
    false, false, false, false, true, true, true, true, true, true, true, true, true, true, false,
    true, true,
];

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

/// A cell's text with pipes escaped and line breaks removed.
fn escape(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The verdict cell: loud for failures, with the reason for unknown and
/// invalid models; `unsupported` for programs the engine does not handle.
fn verdict_cell(m: &ModelRun) -> String {
    match (&m.result, m.class()) {
        (Answer::Invalid(why), _) => format!("invalid ({})", truncate(why, REASON_WIDTH)),
        (Answer::Crashed(why), _) => format!("**CRASH: {}**", truncate(why, REASON_WIDTH)),
        (Answer::Checked { .. }, Class::Unsupported) => "unsupported".to_string(),
        (Answer::Checked { outcome, .. }, class) => match &outcome.verdict {
            Verdict::Unknown(why) => format!("unknown ({})", truncate(&why.detail, REASON_WIDTH)),
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

/// A paper cell: the first of `names` the row has, `–` when there is no
/// row, no such column or an empty cell.
fn paper_cell(row: Option<paper::Row<'_>>, names: &[&str]) -> String {
    row.and_then(|r| r.first_of(names))
        .filter(|c| !c.is_empty())
        .unwrap_or("–")
        .to_string()
}

/// The paper's figures for the model's row (`–` where there is none), in
/// the columns of `columns`.
fn paper_cells(row: Option<paper::Row<'_>>, columns: &PaperColumns) -> [String; 5] {
    columns.columns.map(|names| paper_cell(row, names))
}

/// The figures of a run: check (`SF`, `II`, `EX`, `cex`, or empty for
/// unknown), iterations, queries, predicates and states (last iteration).
/// `None` if the engine did not run (invalid, crashed, unsupported).
fn figures(m: &ModelRun) -> Option<[String; 5]> {
    let Answer::Checked { outcome, .. } = &m.result else {
        return None;
    };
    if m.class() == Class::Unsupported {
        return None;
    }
    let s = &outcome.stats;
    Some([
        match &outcome.verdict {
            Verdict::Safe(p) => p.short().to_string(),
            Verdict::Unsafe(_) => "cex".to_string(),
            Verdict::Unknown(_) => String::new(),
        },
        s.iterations.to_string(),
        s.prover_queries.to_string(),
        s.predicates.len().to_string(),
        format!("{}/{}", s.symbolic_states, s.abstract_states),
    ])
}

/// The time cell: the median in seconds, empty if the engine did not run.
fn time_cell(m: &ModelRun) -> String {
    match m.time {
        Some(t) if m.class() != Class::Unsupported => format!("{:.3}", t.as_secs_f64()),
        _ => String::new(),
    }
}

/// The output row of a model checked by `kind`, beside its paper row (if
/// any; see [`paper_row`]).
pub fn format_row(m: &ModelRun, kind: EngineKind, paper: Option<paper::Row<'_>>) -> Vec<String> {
    let mut cells = vec![
        m.name.clone(),
        m.expect.clone().unwrap_or_else(|| "?".to_string()),
        verdict_cell(m),
    ];
    cells.extend(figures(m).unwrap_or_default());
    cells.push(time_cell(m));
    cells.extend(paper_cells(paper, &PaperColumns::of(kind)));
    cells.iter().map(|c| escape(c)).collect()
}

/// The paper row of the model `name` for the one-engine table of `kind`.
fn paper_row<'a>(
    tables: &'a paper::Tables,
    kind: EngineKind,
    name: &str,
) -> Option<paper::Row<'a>> {
    tables.find(PaperColumns::of(kind).heading, FILE_COLUMN, name)
}

/// `a/b` of two paper cells of a Fig. 7 row (each `–` if missing); `–`
/// without a row.
fn paper_pair(row: Option<paper::Row<'_>>, ase: &str, ur: &str) -> String {
    match row {
        None => "–".to_string(),
        Some(_) => format!("{}/{}", paper_cell(row, &[ase]), paper_cell(row, &[ur])),
    }
}

/// The `--compare` row of a model: ASE's and UR's runs side by side, beside
/// the model's row of the paper's Fig. 7 (if any).
pub fn compare_row(ase: &ModelRun, ur: &ModelRun, fig7: Option<paper::Row<'_>>) -> Vec<String> {
    let fa = figures(ase).unwrap_or_default();
    let fu = figures(ur).unwrap_or_default();
    let cells = vec![
        ase.name.clone(),
        ase.expect.clone().unwrap_or_else(|| "?".to_string()),
        verdict_cell(ase),
        verdict_cell(ur),
        fa[1].clone(),
        fu[1].clone(),
        fa[2].clone(),
        fu[2].clone(),
        fa[3].clone(),
        fu[3].clone(),
        time_cell(ase),
        time_cell(ur),
        fa[4].clone(),
        fu[4].clone(),
        fa[0].clone(),
        paper_pair(fig7, PAPER_ITER[0], PAPER_ITER_UR),
        paper_pair(fig7, PAPER_PREDS[0], PAPER_PREDS_UR),
    ];
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

/// `N models: a correct, b wrong, c unknown, ...; total time T s (...).`
/// The unsupported count is shown if nonzero or `always_unsupported`; the
/// crashed, invalid and unchecked counts if nonzero.
fn count_line(models: &[ModelRun], runs: u32, always_unsupported: bool) -> String {
    let count = |c: Class| models.iter().filter(|m| m.class() == c).count();
    let total: Duration = models.iter().filter_map(|m| m.time).sum();
    let mut out = format!(
        "{} models: {} correct, {} wrong, {} unknown",
        models.len(),
        count(Class::Correct),
        count(Class::Wrong),
        count(Class::Unknown)
    );
    if always_unsupported || count(Class::Unsupported) > 0 {
        let _ = write!(out, ", {} unsupported", count(Class::Unsupported));
    }
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
    out
}

/// The `Paper figures:` line (with a blank line before it).
fn paper_line(paper: Option<&Path>) -> String {
    match paper {
        Some(p) => format!("\nPaper figures: `{}`.\n", p.display()),
        None => "\nPaper figures: none.\n".to_string(),
    }
}

/// The notes of the models as list items, `- name (label): note` (without
/// ` (label)` for an empty label).
fn note_items(models: &[ModelRun], label: &str) -> Vec<String> {
    let label = if label.is_empty() {
        String::new()
    } else {
        format!(" ({label})")
    };
    models
        .iter()
        .flat_map(|m| {
            let label = label.clone();
            m.notes
                .iter()
                .map(move |n| format!("- {}{label}: {n}\n", m.name))
        })
        .collect()
}

/// The `Notes:` section (empty without notes).
fn notes_section(notes: Vec<String>) -> String {
    if notes.is_empty() {
        return String::new();
    }
    let mut out = "\nNotes:\n\n".to_string();
    out.extend(notes);
    out
}

/// The summary line and the notes after the table.
pub fn summary(models: &[ModelRun], runs: u32, paper: Option<&Path>) -> String {
    let mut out = count_line(models, runs, false);
    out.push_str(&paper_line(paper));
    out.push_str(&notes_section(note_items(models, "")));
    out
}

/// The summary lines (one per engine) and the notes after the `--compare`
/// table.
pub fn compare_summary(
    ase: &[ModelRun],
    ur: &[ModelRun],
    runs: u32,
    paper: Option<&Path>,
) -> String {
    let mut out = format!(
        "ASE: {}\nUR: {}",
        count_line(ase, runs, true),
        count_line(ur, runs, true)
    );
    out.push_str(
        "\nStates are those of the last iteration: symbolic/abstract for ASE, \
         concrete/abstract for UR. The paper columns are the Fig. 7 row of the \
         model's `.gc file` (ASE/UR; `–` where the paper has none).\n",
    );
    out.push_str(&paper_line(paper));
    let mut notes = note_items(ase, "ASE");
    notes.extend(note_items(ur, "UR"));
    out.push_str(&notes_section(notes));
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
            Verdict::Unknown(why) if why.kind == UnknownKind::Unsupported => {
                format!("unsupported ({})", truncate(&why.detail, REASON_WIDTH))
            }
            Verdict::Unknown(why) => format!("unknown ({})", truncate(&why.detail, REASON_WIDTH)),
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

/// What `ase tables` runs and where it writes.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// Runs per model and engine (the time is their median); at least 1.
    pub runs: u32,
    /// The papers' tables (default: `paper-tables.md` beside the folder).
    pub paper: Option<&'a Path>,
    /// A file to write the markdown report to, besides stdout.
    pub output: Option<&'a Path>,
    /// The engine of the one-engine table.
    pub engine: EngineKind,
    /// Run both engines and print the `--compare` table instead.
    pub compare: bool,
}

/// Runs `ase tables` on the `.gc` models of `dir`: prints the table (and
/// writes it to `opts.output`) and returns the exit code (1 if a verdict is
/// wrong or an engine crashed, else 0).
pub fn run(dir: &Path, opts: &Options<'_>, limits: &Limits) -> anyhow::Result<u8> {
    let config = limits.config()?;
    let runs = opts.runs;
    if runs == 0 {
        anyhow::bail!("--runs must be at least 1");
    }
    let files = models_in(dir)?;
    let tables = load_paper(dir, opts.paper)?;
    let paper_path = tables.as_ref().map(|(p, _)| p.as_path());
    // Fail on an unwritable output before the (long) runs, not after.
    let mut out_file = opts
        .output
        .map(|p| {
            std::fs::File::create(p).with_context(|| format!("cannot write `{}`", p.display()))
        })
        .transpose()?;
    let engines: &[EngineKind] = if opts.compare {
        &[EngineKind::Ase, EngineKind::Ur]
    } else {
        std::slice::from_ref(&opts.engine)
    };
    // `runs_of[e][i]`: model `i` checked by `engines[e]`.
    let mut runs_of: Vec<Vec<ModelRun>> = vec![Vec::with_capacity(files.len()); engines.len()];
    for (i, path) in files.iter().enumerate() {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        eprint!("[{}/{}] {name} ... ", i + 1, files.len());
        let model = load(path);
        let mut reports = Vec::new();
        for (e, kind) in engines.iter().enumerate() {
            let m = run_loaded(&model, (*kind).into(), runs, &config);
            reports.push(if opts.compare {
                format!("{}: {}", engine_name(*kind), progress(&m))
            } else {
                progress(&m)
            });
            runs_of[e].push(m);
        }
        eprintln!("{}", reports.join("; "));
    }
    let report = if opts.compare {
        let (ase, ur) = (&runs_of[0], &runs_of[1]);
        let rows: Vec<Vec<String>> = ase
            .iter()
            .zip(ur)
            .map(|(a, u)| {
                let fig7 = tables
                    .as_ref()
                    .and_then(|(_, t)| t.find(FIG7_HEADING, FILE_COLUMN, &a.name));
                compare_row(a, u, fig7)
            })
            .collect();
        format!(
            "{}\n{}",
            markdown_table(&COMPARE_HEADERS, &COMPARE_RIGHT, &rows),
            compare_summary(ase, ur, runs, paper_path)
        )
    } else {
        let models = &runs_of[0];
        let rows: Vec<Vec<String>> = models
            .iter()
            .map(|m| {
                let row = tables
                    .as_ref()
                    .and_then(|(_, t)| paper_row(t, opts.engine, &m.name));
                format_row(m, opts.engine, row)
            })
            .collect();
        format!(
            "{}\n{}",
            markdown_table(&headers(opts.engine), &RIGHT, &rows),
            summary(models, runs, paper_path)
        )
    };
    print!("{report}");
    if let (Some(f), Some(p)) = (out_file.as_mut(), opts.output) {
        use std::io::Write;
        f.write_all(report.as_bytes())
            .with_context(|| format!("cannot write `{}`", p.display()))?;
    }
    let failed: Vec<&str> = engines
        .iter()
        .zip(&runs_of)
        .filter(|(_, models)| models.iter().any(|m| m.class().fails()))
        .map(|(kind, _)| engine_name(*kind))
        .collect();
    if !failed.is_empty() {
        eprintln!(
            "bench FAILED: a verdict is wrong or the engine crashed ({}; see the table)",
            failed.join(", ")
        );
    }
    Ok(if failed.is_empty() {
        EXIT_OK
    } else {
        EXIT_FAILED
    })
}

/// The engine's name in tables and messages.
fn engine_name(kind: EngineKind) -> &'static str {
    match kind {
        EngineKind::Ase => "ASE",
        EngineKind::Ur => "UR",
    }
}

#[cfg(test)]
mod tests {
    use super::paper::{plain, Tables};
    use super::*;
    use engine::verdict::{Outcome, Proof, Stats};

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
                        slicing: None,
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
            format_row(&m, EngineKind::Ase, None),
            [
                "m", "safe", "safe", "II", "2", "17", "1", "9/4", "1.235", "–", "–", "–", "–", "–"
            ]
        );
        let t = Tables::parse(SAMPLE);
        let row = format_row(&m, EngineKind::Ase, paper_row(&t, EngineKind::Ase, "rax"));
        assert_eq!(row[9..], ["1", "6", "2", "81/44", "SF"]);
        // UR's table takes UR's columns of Fig. 7 (no check column there).
        let row = format_row(&m, EngineKind::Ur, paper_row(&t, EngineKind::Ur, "rax"));
        assert_eq!(row[9..], ["–", "–", "–", "–", "–"]);
        assert!(paper_row(&t, EngineKind::Ur, "ticket2-nd").is_none());

        let wrong = model(Some("unsafe"), safe.clone());
        assert_eq!(wrong.class(), Class::Wrong);
        assert_eq!(
            format_row(&wrong, EngineKind::Ase, None)[2],
            "**WRONG: safe**"
        );
        assert_eq!(model(None, safe).class(), Class::Unchecked);

        let unknown = model(
            Some("safe"),
            Verdict::unknown(UnknownKind::NoProof, "time limit | reached ".repeat(10)),
        );
        assert_eq!(unknown.class(), Class::Unknown);
        let row = format_row(&unknown, EngineKind::Ase, None);
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
            ..model(None, Verdict::unknown(UnknownKind::NoProof, ""))
        };
        assert_eq!(invalid.class(), Class::Invalid);
        let row = format_row(&invalid, EngineKind::Ase, None);
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
            model(
                Some("safe"),
                Verdict::unknown(UnknownKind::NoProof, "timeout"),
            ),
        ];
        let rows: Vec<Vec<String>> = models
            .iter()
            .map(|m| format_row(m, EngineKind::Ase, None))
            .collect();
        let table = markdown_table(&headers(EngineKind::Ase), &RIGHT, &rows);
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

    #[test]
    fn urs_refusals_are_unsupported() {
        let no_init = engine::parse::parse_program(
            "var x;\nthread p at 0 { a: 0 -> 1 when x == 0; }\nerror p@1;\n",
        )
        .expect("parses");
        let input = engine::parse::parse_program(
            "var x = 0;\nthread p at 0 { a: 0 -> 1 do x := *; }\nerror p@1;\n",
        )
        .expect("parses");
        for program in [&no_init, &input] {
            let verdict = engine::ur::check(program, &engine::ase::Config::default()).verdict;
            assert!(
                matches!(&verdict, Verdict::Unknown(why) if why.kind == UnknownKind::Unsupported),
                "{verdict:?}"
            );
            let m = model(Some("safe"), verdict);
            assert_eq!(m.class(), Class::Unsupported);
            assert!(!m.class().fails());
            let row = format_row(&m, EngineKind::Ur, None);
            assert_eq!(row[2..9], ["unsupported", "", "", "", "", "", ""]);
        }
        let timeout = model(
            Some("safe"),
            Verdict::Unknown(engine::verdict::Unknown::time()),
        );
        assert_eq!(timeout.class(), Class::Unknown);
        assert_eq!(
            format_row(&timeout, EngineKind::Ur, None)[2..5],
            ["unknown (time limit reached)", "", "2"]
        );
    }

    #[test]
    fn compare_rows_and_summary() {
        let t = Tables::parse(SAMPLE);
        let ase = model(Some("safe"), Verdict::Safe(Proof::SafeFragment));
        let mut ur = model(Some("safe"), Verdict::Safe(Proof::ExactAbstraction));
        if let Answer::Checked { outcome, .. } = &mut ur.result {
            outcome.stats.iterations = 5;
            outcome.stats.symbolic_states = 30;
        }
        ur.time = Some(Duration::from_millis(500));
        let row = compare_row(&ase, &ur, t.find(FIG7_HEADING, FILE_COLUMN, "rax"));
        assert_eq!(row.len(), COMPARE_HEADERS.len());
        assert_eq!(
            row,
            [
                "m", "safe", "safe", "safe", "2", "5", "17", "17", "1", "1", "1.235", "0.500",
                "9/4", "30/4", "SF", "1/–", "2/–"
            ]
        );
        // Fig. 8 rows are not Fig. 7 rows.
        assert!(t.find(FIG7_HEADING, FILE_COLUMN, "ticket2-nd").is_none());
        let refused = model(
            Some("safe"),
            Verdict::unknown(
                UnknownKind::Unsupported,
                "UR does not handle nondeterministic inputs (`x := *`)",
            ),
        );
        let row = compare_row(&ase, &refused, None);
        assert_eq!(row[3], "unsupported");
        assert_eq!(
            [&row[5], &row[7], &row[9], &row[11], &row[13]],
            ["", "", "", "", ""]
        );
        assert_eq!(row[15..], ["–", "–"]);
        let wrong = model(Some("unsafe"), Verdict::Safe(Proof::ExactAbstraction));
        assert_eq!(compare_row(&ase, &wrong, None)[3], "**WRONG: safe**");
        assert!(wrong.class().fails());

        let s = compare_summary(&[ase.clone(), ase.clone()], &[refused, ur], 3, None);
        assert!(
            s.starts_with(
                "ASE: 2 models: 2 correct, 0 wrong, 0 unknown, 0 unsupported; total time 2.469 s"
            ),
            "{s}"
        );
        assert!(
            s.contains(
                "UR: 2 models: 1 correct, 0 wrong, 0 unknown, 1 unsupported; total time 1.735 s"
            ),
            "{s}"
        );
        let table = markdown_table(&COMPARE_HEADERS, &COMPARE_RIGHT, &[row]);
        let header: Vec<&str> = table
            .lines()
            .next()
            .unwrap()
            .split('|')
            .map(str::trim)
            .collect();
        assert_eq!(
            header[1..6],
            ["model", "expect", "verdict ASE", "verdict UR", "iter ASE"]
        );
        assert_eq!(header[16..18], ["paper iter ASE/UR", "paper preds ASE/UR"]);
    }
}
