//! The papers' `.gc` models as benchmarks (`ase tables`): a model read with
//! its `// expect:` line, checked several times with ASE or UR (each run
//! caught if it panics, each unsafe trace replayed), the median time, and
//! how the answer compares with the expectation.

use engine::ir::Program;
use engine::verdict::{Outcome, UnknownKind, Verdict};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

/// The engines of the papers' tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelEngine {
    /// Abstract Analysis of Symbolic Executions.
    Ase,
    /// Under-approximation refinement.
    Ur,
}

impl ModelEngine {
    /// Runs the engine.
    pub fn check(self, program: &Program, config: &engine::ase::Config) -> Outcome {
        match self {
            ModelEngine::Ase => engine::ase::check(program, config),
            ModelEngine::Ur => engine::ur::check(program, config),
        }
    }
}

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
    /// The engine does not handle this kind of program (UR: several
    /// initial states or nondeterministic inputs).
    Unsupported,
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
                Verdict::Unknown(why) if why.kind == UnknownKind::Unsupported => Class::Unsupported,
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
pub fn verdict_label(v: &Verdict) -> String {
    match v {
        Verdict::Safe(p) => format!("safe ({})", p.short()),
        _ => v.name().to_string(),
    }
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
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

/// A model file, read and parsed.
pub struct Loaded {
    /// The file stem (matched against the papers' `.gc file` column).
    pub name: String,
    /// The `// expect:` value, lower-cased.
    pub expect: Option<String>,
    /// The program, or why there is none (read or parse error).
    pub program: Result<Program, String>,
}

/// Reads and parses the model at `path`.
pub fn load(path: &Path) -> Loaded {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            return Loaded {
                name,
                expect: None,
                program: Err(format!("cannot read: {e}")),
            }
        }
    };
    let expect = expected(&source);
    let program =
        engine::parse::parse_program(&source).map_err(|errors| parse_error(&source, &errors));
    Loaded {
        name,
        expect,
        program,
    }
}

/// Checks a loaded model `runs` times with `engine`.
pub fn run_loaded(
    model: &Loaded,
    kind: ModelEngine,
    runs: u32,
    config: &engine::ase::Config,
) -> ModelRun {
    let (result, time, notes) = match &model.program {
        Err(why) => (Answer::Invalid(why.clone()), None, Vec::new()),
        Ok(program) => check_runs(program, kind, runs, config),
    };
    ModelRun {
        name: model.name.clone(),
        expect: model.expect.clone(),
        result,
        time,
        notes,
    }
}

/// Checks `program` `runs` times (at least once): the last outcome, the
/// median time and notes on runs that disagree.
fn check_runs(
    program: &Program,
    kind: ModelEngine,
    runs: u32,
    config: &engine::ase::Config,
) -> (Answer, Option<Duration>, Vec<String>) {
    let mut times = Vec::new();
    let mut labels = Vec::new();
    let mut figures = Vec::new();
    let mut last = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| kind.check(program, config)));
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
