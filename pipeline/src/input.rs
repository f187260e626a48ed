//! C input: the options of preprocessing and lowering, and loading a file
//! (parsing with the harness of `--concurrent`, lowering).

use frontend::{FrontendError, ParsedUnit};
use lowering::harness::Concurrent;
use lowering::{LowerError, Lowered};
use std::path::Path;

/// How a C file is read and lowered.
#[derive(Clone, Debug)]
pub struct CInput {
    /// Preprocessing: the command, include directories, macros, data model.
    pub frontend: frontend::Options,
    /// Functions of a file without `main` checked by a generated harness
    /// (`--concurrent`), in order.
    pub concurrent: Vec<Concurrent>,
    /// With `concurrent`: the function called once before the threads.
    pub init: Option<String>,
    /// With `concurrent`: the function called once after every thread is
    /// joined (a destructor).
    pub fini: Option<String>,
    /// The lowering's options (reduction, heap, what the error condition
    /// holds).
    pub lowering: lowering::Options,
}

impl Default for CInput {
    /// What `ase check` does by default: the preprocessor's defaults, no
    /// harness, the default lowering, assertions, data races, memory
    /// safety (without `valid-memtrack`) and deadlocks checked.
    fn default() -> Self {
        CInput {
            frontend: frontend::Options::default(),
            concurrent: Vec::new(),
            init: None,
            fini: None,
            lowering: lowering::Options {
                checks: lowering::Checks {
                    races: true,
                    memsafety: true,
                    deadlocks: true,
                    thread_safety: true,
                    ..lowering::Checks::ASSERTIONS
                },
                ..lowering::Options::default()
            },
        }
    }
}

/// Why a C file gave no program.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Preprocessing or parsing failed.
    #[error(transparent)]
    Frontend(#[from] FrontendError),
    /// The lowering (or the harness) refused the parsed program.
    #[error("{error}")]
    Lower {
        /// The parsed program (its text locates the error).
        unit: Box<ParsedUnit>,
        /// The error.
        error: LowerError,
    },
}

impl LoadError {
    /// Whether the input is invalid (exit code 2) rather than a construct
    /// that is not modelled (the verdict is unknown).
    pub fn is_invalid(&self) -> bool {
        match self {
            LoadError::Frontend(FrontendError::Unsupported { .. }) => false,
            LoadError::Frontend(_) => true,
            LoadError::Lower { error, .. } => matches!(error, LowerError::Invalid { .. }),
        }
    }
}

/// Whether a path is C input (`.c`, `.i`, `.h`).
pub fn is_c(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("c" | "i" | "h")
    )
}

impl CInput {
    /// The preprocessor's options: with `--concurrent`, `<pthread.h>` is
    /// included whether or not the file includes it (the harness creates
    /// threads).
    fn frontend_options(&self) -> frontend::Options {
        let mut options = self.frontend.clone();
        if !self.concurrent.is_empty() {
            options
                .cpp_args
                .extend(["-include".into(), "pthread.h".into()]);
        }
        options
    }

    /// The input without the harness of `--concurrent`.
    pub fn without_harness(&self) -> CInput {
        CInput {
            concurrent: Vec::new(),
            init: None,
            fini: None,
            ..self.clone()
        }
    }
}

/// Parses a C file, with the harness of `--concurrent` appended.
pub fn parse(path: &Path, input: &CInput) -> Result<ParsedUnit, LoadError> {
    let options = input.frontend_options();
    let unit = frontend::parse_file(path, &options)?;
    let Some(harness) = harness_of(&unit, input)? else {
        return Ok(unit);
    };
    Ok(frontend::parse_file_with_appendix(
        path,
        &options,
        lowering::harness::HARNESS_FILE,
        &harness,
    )?)
}

/// The harness of `--concurrent` for a parsed file (`None` without it).
fn harness_of(unit: &ParsedUnit, input: &CInput) -> Result<Option<String>, LoadError> {
    if input.concurrent.is_empty() {
        return Ok(None);
    }
    lowering::harness::harness(
        unit,
        &input.concurrent,
        input.init.as_deref(),
        input.fini.as_deref(),
    )
    .map(Some)
    .map_err(|error| LoadError::Lower {
        unit: Box::new(unit.clone()),
        error,
    })
}

/// The harness `--concurrent` appends to a file (`None` without it).
pub fn harness_text(path: &Path, input: &CInput) -> Result<Option<String>, LoadError> {
    if input.concurrent.is_empty() {
        return Ok(None);
    }
    let unit = frontend::parse_file(path, &input.frontend_options())?;
    harness_of(&unit, input)
}

/// Parses and lowers a C file.
pub fn load(path: &Path, input: &CInput) -> Result<(ParsedUnit, Lowered), LoadError> {
    let unit = parse(path, input)?;
    lower(unit, &input.lowering)
}

/// Lowers a parsed file.
pub fn lower(
    unit: ParsedUnit,
    options: &lowering::Options,
) -> Result<(ParsedUnit, Lowered), LoadError> {
    match lowering::lower_with(&unit, options) {
        Ok(lowered) => Ok((unit, lowered)),
        Err(error) => Err(LoadError::Lower {
            unit: Box::new(unit),
            error,
        }),
    }
}
