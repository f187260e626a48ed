//! What to check: a program file with its data model and SV-COMP property,
//! from a program, a task definition (`.yml`) or a property file.

use crate::input::CInput;
use std::path::{Path, PathBuf};
use sv_comp::property::{Property, PropertyError};
use sv_comp::task::{DataModel, TaskDef};

/// A program and what to check it for.
#[derive(Clone, Debug)]
pub struct Job {
    /// The program file.
    pub program: PathBuf,
    /// How C input is read and lowered, with the task's data model and
    /// the property's checks.
    pub input: CInput,
    /// The SV-COMP property, when one was given.
    pub property: Option<Property>,
}

/// Why there is nothing to check.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A missing or malformed task or property file (exit code 2).
    #[error("{0}")]
    Invalid(String),
    /// A task `ase` cannot check (another property, several input files):
    /// the verdict is unknown.
    #[error("{0}")]
    Unsupported(String),
}

/// Whether a path is an SV-COMP task definition.
pub fn is_task(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

fn property_error(e: PropertyError) -> JobError {
    match e {
        e @ PropertyError::Io { .. } => JobError::Invalid(e.to_string()),
        e => JobError::Unsupported(e.to_string()),
    }
}

/// The property SV-COMP names `p` (`no-overflow`), unless a file of that
/// name exists.
fn named(p: &Path) -> Option<Property> {
    p.to_str().and_then(Property::named).filter(|_| !p.exists())
}

/// Resolves the program, data model and property of a check of `path` (a
/// program or a task) with an optional property: a property file, or
/// SV-COMP's name of one (`no-overflow`; of a task, the one it lists under
/// that name). `input`: the user's options; a task's data model applies
/// unless they name one.
pub fn resolve(path: &Path, property: Option<&Path>, input: &CInput) -> Result<Job, JobError> {
    let read = |p: &Path| match named(p) {
        Some(named) => Ok(named),
        None => sv_comp::property::read(p).map_err(property_error),
    };
    let mut input = input.clone();
    if !is_task(path) {
        let property = property.map(read).transpose()?;
        if let Some(p) = &property {
            check_only(p, &mut input);
        }
        return Ok(Job {
            program: path.to_path_buf(),
            input,
            property,
        });
    }
    let task = TaskDef::read(path).map_err(|e| JobError::Invalid(e.to_string()))?;
    let program = task
        .input_file()
        .map_err(|e| JobError::Unsupported(e.to_string()))?
        .to_path_buf();
    let property = match (property, property.and_then(named)) {
        (_, Some(asked)) => match task.property_named(asked.name()).map_err(property_error)? {
            Some((p, _)) => p,
            None => {
                return Err(JobError::Unsupported(format!(
                    "the task `{}` does not list the property {} (it lists {})",
                    path.display(),
                    asked.name(),
                    task.property_names().join(", ")
                )))
            }
        },
        (Some(p), None) => read(p)?,
        (None, None) => task.checkable_property().map_err(property_error)?.0,
    };
    check_only(&property, &mut input);
    if input.frontend.data_model == frontend::DataModelChoice::Auto {
        if let Some(model) = task.data_model {
            input.frontend.data_model = match model {
                DataModel::Ilp32 => frontend::DataModelChoice::Ilp32,
                DataModel::Lp64 => frontend::DataModelChoice::Lp64,
            };
        }
    }
    Ok(Job {
        program,
        input,
        property: Some(property),
    })
}

/// The properties `ase` checks that the task `path` lists, in its order
/// (none when `path` is not a task or cannot be read: [`resolve`] says
/// why).
pub fn checkable_properties(path: &Path) -> Vec<Property> {
    let Some(task) = is_task(path).then(|| TaskDef::read(path).ok()).flatten() else {
        return Vec::new();
    };
    let mut out: Vec<Property> = Vec::new();
    for entry in &task.properties {
        if let Ok(p) = sv_comp::property::read(&entry.property_file) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// An SV-COMP property is checked alone: `unreach-call` without races,
/// the others without assertions (reaching `reach_error()` aborts).
pub fn check_only(property: &Property, input: &mut CInput) {
    let mut checks = lowering::Checks {
        assertions: false,
        ..lowering::Checks::ASSERTIONS
    };
    match property {
        Property::UnreachCall { .. } => checks.assertions = true,
        Property::NoDataRace => checks.races = true,
        Property::ValidMemsafety => {
            checks.memsafety = true;
            checks.memtrack = true;
        }
        Property::ValidMemcleanup => checks.memcleanup = true,
        Property::NoOverflow => checks.overflow = true,
        Property::NoDeadlock => checks.deadlocks = true,
        Property::ThreadSafety => checks.thread_safety = true,
    }
    input.lowering.checks = checks;
}
