//! Benchmark results: one [`Row`] per task, written and read as CSV and
//! JSON, summarised per folder with SV-COMP's score, and compared between
//! two runs.

use crate::score::Status;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The result of one task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The task's folder in the set.
    pub folder: String,
    /// The task's name.
    pub task: String,
    /// SV-COMP's name of the property checked (empty in results written
    /// before it was recorded: `unreach-call` unless said otherwise).
    #[serde(default)]
    pub property: String,
    /// The expected verdict of the checked property (none when the task
    /// states none or has no property `ase` checks).
    pub expected: Option<bool>,
    /// `true`, `false` or `unknown`.
    pub verdict: String,
    /// The verdict against the expected one.
    pub status: Status,
    /// SV-COMP's points for the result.
    pub score: i64,
    /// Why the verdict is unknown (timeout, crash, unsupported construct,
    /// ...); empty otherwise.
    pub reason: String,
    /// CPU time of the check's process, in seconds.
    pub cpu_seconds: f64,
    /// Wall-clock time of the check's process, in seconds.
    pub wall_seconds: f64,
    /// Peak resident memory of the check's process, in MB.
    pub peak_memory_mb: f64,
    /// Abstraction-refinement iterations, when the engine reported them.
    pub iterations: Option<u32>,
    /// Predicates of the last iteration, when the engine reported them.
    pub predicates: Option<u32>,
    /// For a `true` verdict: whether its certificate was checked (`None`
    /// when the check said nothing about a certificate).
    #[serde(default)]
    pub certified: Option<bool>,
    /// Seconds spent building and checking the certificate.
    #[serde(default)]
    pub certificate_seconds: Option<f64>,
    /// Seconds the engines took to find the verdict (the check's
    /// `stats.time`, without the certificate).
    #[serde(default)]
    pub solve_seconds: Option<f64>,
    /// Why a `true` verdict is not certified; empty otherwise.
    #[serde(default)]
    pub certificate_reason: String,
    /// Transitions of the checked model (the lowered IR program), when the
    /// program was lowered.
    #[serde(default)]
    pub transitions: Option<u32>,
    /// States the engines explored (symbolic or concrete), when reported.
    #[serde(default)]
    pub states: Option<u64>,
}

impl Row {
    /// Certificate time over solving time, for a certified `true` verdict
    /// (the solving time counted as at least 1 ms).
    pub fn recheck_ratio(&self) -> Option<f64> {
        if self.certified != Some(true) {
            return None;
        }
        Some(self.certificate_seconds? / self.solve_seconds?.max(0.001))
    }

    /// The verdict as a boolean (`None` for unknown).
    pub fn verdict_bool(&self) -> Option<bool> {
        match self.verdict.as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }

    /// `folder/task`, the key that matches rows of two runs.
    pub fn key(&self) -> String {
        match self.property.as_str() {
            "" | crate::runner::DEFAULT_PROPERTY => format!("{}/{}", self.folder, self.task),
            p => format!("{}/{} ({p})", self.folder, self.task),
        }
    }
}

/// Why results cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file cannot be written or read.
    #[error("`{path}`: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A CSV file is malformed.
    #[error("`{path}`: {source}")]
    Csv {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: csv::Error,
    },
    /// JSON output failed.
    #[error("`{path}`: {source}")]
    Json {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: serde_json::Error,
    },
}

/// Writes the rows as CSV with a header line.
pub fn write_csv(path: &Path, rows: &[Row]) -> Result<(), ReportError> {
    let err = |source| ReportError::Csv {
        path: path.display().to_string(),
        source,
    };
    let mut w = csv::Writer::from_path(path).map_err(err)?;
    for r in rows {
        w.serialize(r).map_err(err)?;
    }
    w.flush().map_err(|source| ReportError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Reads rows written by [`write_csv`].
pub fn read_csv(path: &Path) -> Result<Vec<Row>, ReportError> {
    let err = |source| ReportError::Csv {
        path: path.display().to_string(),
        source,
    };
    let mut r = csv::Reader::from_path(path).map_err(err)?;
    r.deserialize()
        .collect::<Result<Vec<Row>, _>>()
        .map_err(err)
}

/// Writes the rows and the per-folder summary as one JSON object.
pub fn write_json(path: &Path, rows: &[Row]) -> Result<(), ReportError> {
    let value = serde_json::json!({
        "summary": summarize(rows),
        "tasks": rows,
    });
    let text = serde_json::to_string_pretty(&value).map_err(|source| ReportError::Json {
        path: path.display().to_string(),
        source,
    })?;
    std::fs::write(path, text + "\n").map_err(|source| ReportError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The figures of one folder (or of all tasks).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// The folder (`total` for all).
    pub folder: String,
    /// Tasks.
    pub tasks: usize,
    /// Correct `true` verdicts.
    pub correct_true: usize,
    /// Correct `false` verdicts.
    pub correct_false: usize,
    /// Wrong `true` verdicts (the property was violated).
    pub wrong_true: usize,
    /// Wrong `false` verdicts (the property held).
    pub wrong_false: usize,
    /// Unknown results.
    pub unknown: usize,
    /// SV-COMP score.
    pub score: i64,
    /// CPU seconds over the correct results.
    pub cpu_correct: f64,
    /// `true` verdicts (correct or not).
    pub safe_answers: usize,
    /// `true` verdicts whose certificate was checked.
    pub certified: usize,
    /// Median of certificate time / solving time over the certified ones.
    pub recheck_ratio_median: Option<f64>,
    /// Maximum of certificate time / solving time over the certified ones.
    pub recheck_ratio_max: Option<f64>,
    /// Median size of the checked models (IR transitions).
    pub transitions_median: Option<f64>,
    /// Median number of explored states.
    pub states_median: Option<f64>,
    #[serde(skip)]
    ratios: Vec<f64>,
    #[serde(skip)]
    transitions: Vec<f64>,
    #[serde(skip)]
    states: Vec<f64>,
}

/// The median of some values (sorted in place).
fn median(v: &mut [f64]) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

impl Summary {
    fn add(&mut self, r: &Row) {
        self.tasks += 1;
        match (r.status, r.verdict_bool()) {
            (Status::Correct, Some(true)) => self.correct_true += 1,
            (Status::Correct, _) => self.correct_false += 1,
            (Status::Wrong, Some(true)) => self.wrong_true += 1,
            (Status::Wrong, _) => self.wrong_false += 1,
            (Status::Unknown, _) => self.unknown += 1,
        }
        if r.status == Status::Correct {
            self.cpu_correct += r.cpu_seconds;
        }
        self.score += r.score;
        self.transitions.extend(r.transitions.map(f64::from));
        self.states.extend(r.states.map(|n| n as f64));
        if r.verdict_bool() == Some(true) {
            self.safe_answers += 1;
            self.certified += usize::from(r.certified == Some(true));
            self.ratios.extend(r.recheck_ratio());
        }
    }

    fn finish(&mut self) {
        self.recheck_ratio_median = median(&mut self.ratios);
        self.recheck_ratio_max = self.ratios.last().copied();
        self.transitions_median = median(&mut self.transitions);
        self.states_median = median(&mut self.states);
    }

    /// The certification column: `certified/safe answers`, then the median
    /// and maximum of certificate time / solving time.
    pub fn certification(&self) -> String {
        let ratio = |r: Option<f64>| r.map_or("—".into(), |r| format!("{r:.2}"));
        if self.safe_answers == 0 {
            return "—".into();
        }
        format!(
            "{}/{} ({} / {})",
            self.certified,
            self.safe_answers,
            ratio(self.recheck_ratio_median),
            ratio(self.recheck_ratio_max)
        )
    }

    /// Correct results.
    pub fn correct(&self) -> usize {
        self.correct_true + self.correct_false
    }

    /// Wrong results.
    pub fn wrong(&self) -> usize {
        self.wrong_true + self.wrong_false
    }
}

/// One summary per folder, in folder order, then the total.
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    let mut by_folder: BTreeMap<&str, Summary> = BTreeMap::new();
    let mut total = Summary {
        folder: "total".into(),
        ..Summary::default()
    };
    for r in rows {
        by_folder
            .entry(&r.folder)
            .or_insert_with(|| Summary {
                folder: r.folder.clone(),
                ..Summary::default()
            })
            .add(r);
        total.add(r);
    }
    let mut out: Vec<Summary> = by_folder.into_values().chain([total]).collect();
    for s in &mut out {
        s.finish();
    }
    out
}

/// A markdown table: header, alignment row (right-aligned where `right`),
/// body.
fn markdown(headers: &[&str], right: &[bool], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "| {} |", headers.join(" | "));
    let align: Vec<&str> = right
        .iter()
        .map(|&r| if r { "---:" } else { "---" })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for row in rows {
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
    out
}

/// The per-folder summary as a markdown table.
pub fn summary_table(rows: &[Row]) -> String {
    let body: Vec<Vec<String>> = summarize(rows)
        .iter()
        .map(|s| {
            let name = if s.folder == "total" {
                "**total**".to_string()
            } else {
                s.folder.clone()
            };
            vec![
                name,
                s.tasks.to_string(),
                s.correct_true.to_string(),
                s.correct_false.to_string(),
                s.wrong_true.to_string(),
                s.wrong_false.to_string(),
                s.unknown.to_string(),
                s.score.to_string(),
                format!("{:.1}", s.cpu_correct),
                s.certification(),
            ]
        })
        .collect();
    markdown(
        &[
            "folder",
            "tasks",
            "correct true",
            "correct false",
            "wrong true",
            "wrong false",
            "unknown",
            "score",
            "CPU s (correct)",
            "certified true (re-check/solve median / max)",
        ],
        &[false, true, true, true, true, true, true, true, true, true],
        &body,
    )
}

fn cell(r: Option<&Row>) -> String {
    match r {
        None => "—".into(),
        Some(r) => format!(
            "{} ({}, {:.1} s)",
            r.verdict,
            status_name(r.status),
            r.cpu_seconds
        ),
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Correct => "correct",
        Status::Wrong => "WRONG",
        Status::Unknown => "unknown",
    }
}

/// Two runs side by side: one line per task (marked `*` where the verdicts
/// differ), then per folder.
pub fn compare(this: &[Row], other: &[Row], this_name: &str, other_name: &str) -> String {
    let mut tasks: BTreeMap<String, (Option<&Row>, Option<&Row>)> = BTreeMap::new();
    for r in this {
        tasks.entry(r.key()).or_default().0 = Some(r);
    }
    for r in other {
        tasks.entry(r.key()).or_default().1 = Some(r);
    }
    let body: Vec<Vec<String>> = tasks
        .iter()
        .map(|(key, (a, b))| {
            let differs = a.map(|r| &r.verdict) != b.map(|r| &r.verdict);
            let expected = a
                .or(*b)
                .and_then(|r| r.expected)
                .map_or("—".to_string(), |e| e.to_string());
            vec![
                if differs { "*".into() } else { String::new() },
                key.clone(),
                expected,
                cell(*a),
                cell(*b),
            ]
        })
        .collect();
    let mut out = markdown(
        &["", "task", "expected", this_name, other_name],
        &[false, false, false, false, false],
        &body,
    );
    out.push('\n');
    let (sa, sb) = (summarize(this), summarize(other));
    let mut folders: Vec<&str> = sa.iter().chain(&sb).map(|s| s.folder.as_str()).collect();
    folders.sort_by_key(|f| (*f == "total", *f));
    folders.dedup();
    let find = |ss: &[Summary], f: &str| ss.iter().find(|s| s.folder == f).cloned();
    let pair = |a: Option<&Summary>, b: Option<&Summary>, get: &dyn Fn(&Summary) -> String| {
        format!(
            "{} / {}",
            a.map_or("—".into(), get),
            b.map_or("—".into(), get)
        )
    };
    let body: Vec<Vec<String>> = folders
        .iter()
        .map(|f| {
            let (a, b) = (find(&sa, f), find(&sb, f));
            vec![
                f.to_string(),
                pair(a.as_ref(), b.as_ref(), &|s| s.tasks.to_string()),
                pair(a.as_ref(), b.as_ref(), &|s| s.correct().to_string()),
                pair(a.as_ref(), b.as_ref(), &|s| s.wrong().to_string()),
                pair(a.as_ref(), b.as_ref(), &|s| s.unknown.to_string()),
                pair(a.as_ref(), b.as_ref(), &|s| s.score.to_string()),
                pair(a.as_ref(), b.as_ref(), &|s| format!("{:.1}", s.cpu_correct)),
                pair(a.as_ref(), b.as_ref(), &|s| opt(s.transitions_median)),
                pair(a.as_ref(), b.as_ref(), &|s| opt(s.states_median)),
            ]
        })
        .collect();
    let _ = writeln!(out, "{this_name} / {other_name} per folder:\n");
    out.push_str(&markdown(
        &[
            "folder",
            "tasks",
            "correct",
            "wrong",
            "unknown",
            "score",
            "CPU s (correct)",
            "model transitions (median)",
            "states explored (median)",
        ],
        &[false, true, true, true, true, true, true, true, true],
        &body,
    ));
    out
}

/// A median for a table cell.
fn opt(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{v:.0}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn row(folder: &str, task: &str, expected: Option<bool>, verdict: &str) -> Row {
        let v = match verdict {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        Row {
            folder: folder.into(),
            task: task.into(),
            property: String::new(),
            expected,
            verdict: verdict.into(),
            status: crate::score::status(expected, v),
            score: crate::score::points(expected, v),
            reason: if v.is_none() {
                "timeout".into()
            } else {
                String::new()
            },
            cpu_seconds: 1.5,
            wall_seconds: 1.6,
            peak_memory_mb: 30.0,
            iterations: v.map(|_| 2),
            predicates: None,
            certified: (v == Some(true)).then_some(true),
            certificate_seconds: (v == Some(true)).then_some(0.5),
            solve_seconds: v.map(|_| 0.25),
            certificate_reason: String::new(),
            transitions: None,
            states: None,
        }
    }

    #[test]
    fn csv_round_trip_and_summary() {
        let rows = vec![
            row("a", "t1", Some(true), "true"),
            row("a", "t2", Some(false), "false"),
            row("a", "t3", Some(false), "true"),
            row("b", "t4", Some(true), "false"),
            row("b", "t5", None, "unknown"),
        ];
        let path = std::env::temp_dir().join(format!("ase-report-{}.csv", std::process::id()));
        write_csv(&path, &rows).unwrap();
        assert_eq!(read_csv(&path).unwrap(), rows);
        std::fs::remove_file(&path).unwrap();
        let s = summarize(&rows);
        assert_eq!(s.len(), 3);
        assert_eq!(
            (s[0].correct(), s[0].wrong_true, s[0].score),
            (2, 1, 2 + 1 - 32)
        );
        assert_eq!((s[1].wrong_false, s[1].unknown, s[1].score), (1, 1, -16));
        assert_eq!(
            (s[2].folder.as_str(), s[2].tasks, s[2].score),
            ("total", 5, -45)
        );
        let table = summary_table(&rows);
        assert!(
            table.contains("| **total** | 5 | 1 | 1 | 1 | 1 | 1 | -45 | 3.0 | 2/2 (2.00 / 2.00) |"),
            "{table}"
        );
    }

    #[test]
    fn model_figures_are_medians_over_the_tasks_that_report_them() {
        let mut rows = vec![
            row("a", "t1", Some(true), "true"),
            row("a", "t2", Some(true), "unknown"),
            row("a", "t3", Some(false), "false"),
        ];
        rows[0].transitions = Some(10);
        rows[1].transitions = Some(30);
        rows[0].states = Some(7);
        let s = &summarize(&rows)[0];
        assert_eq!(s.transitions_median, Some(20.0));
        assert_eq!(s.states_median, Some(7.0));
        let table = compare(&rows, &rows[2..], "this", "other");
        assert!(table.contains("| a | 3 / 1 |"), "{table}");
        assert!(table.contains("| 20 / — | 7 / — |"), "{table}");
    }

    #[test]
    fn certification_figures() {
        let mut rows = vec![
            row("a", "t1", Some(true), "true"),
            row("a", "t2", Some(true), "true"),
            row("a", "t3", Some(true), "true"),
            row("a", "t4", Some(false), "false"),
        ];
        rows[1].certificate_seconds = Some(0.125);
        rows[2].certified = Some(false);
        rows[2].certificate_reason = "no certificate: time limit".into();
        let s = &summarize(&rows)[0];
        assert_eq!((s.safe_answers, s.certified), (3, 2));
        assert_eq!(s.recheck_ratio_median, Some(1.25));
        assert_eq!(s.recheck_ratio_max, Some(2.0));
        assert_eq!(s.certification(), "2/3 (1.25 / 2.00)");
        // Rows of runs before certificates (no such columns) still read.
        let path = std::env::temp_dir().join(format!("ase-report-old-{}.csv", std::process::id()));
        std::fs::write(
            &path,
            "folder,task,expected,verdict,status,score,reason,cpu_seconds,wall_seconds,peak_memory_mb,iterations,predicates\n\
             a,t1,true,true,correct,2,,1.5,1.6,30.0,,\n",
        )
        .unwrap();
        let old = read_csv(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!((old.len(), old[0].certified), (1, None));
        assert_eq!(summarize(&old)[0].certification(), "0/1 (— / —)");
    }

    #[test]
    fn compare_marks_differences() {
        let a = vec![
            row("a", "t1", Some(true), "true"),
            row("a", "t2", Some(false), "unknown"),
        ];
        let b = vec![
            row("a", "t1", Some(true), "true"),
            row("a", "t2", Some(false), "false"),
        ];
        let text = compare(&a, &b, "new", "old");
        assert!(
            text.contains("|  | a/t1 | true | true (correct, 1.5 s) | true (correct, 1.5 s) |"),
            "{text}"
        );
        assert!(
            text.contains(
                "| * | a/t2 | false | unknown (unknown, 1.5 s) | false (correct, 1.5 s) |"
            ),
            "{text}"
        );
        assert!(
            text.contains("| total | 2 / 2 | 1 / 2 | 0 / 0 | 1 / 0 | 2 / 3 |"),
            "{text}"
        );
    }
}
