//! The front end's errors.

use std::io;
use std::path::PathBuf;

use crate::source_map::Location;

/// Why a C file could not be turned into a [`ParsedUnit`](crate::ParsedUnit).
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// The preprocessor could not be started.
    #[error("cannot run the C preprocessor `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// The preprocessor failed (for instance on a missing header).
    #[error("the C preprocessor failed ({}): `{command}`\n{stderr}", status.map_or("killed by a signal".to_string(), |s| format!("exit status {s}")))]
    Preprocessor {
        /// The command line.
        command: String,
        /// Its exit status (`None` when killed by a signal).
        status: Option<i32>,
        /// What it printed on standard error.
        stderr: String,
    },
    /// The C text does not parse.
    #[error("{}:{line}:{column}: syntax error: {message}", file.display())]
    Syntax {
        /// The user's file (or header) holding the error, per the line markers.
        file: PathBuf,
        /// 1-based line in `file`.
        line: u32,
        /// 1-based byte column (approximate after macro expansion).
        column: u32,
        /// What was found and what was expected.
        message: String,
        /// The text of that line of `file`, when the file is readable (otherwise the
        /// preprocessed line).
        source_line: Option<String>,
    },
    /// The input is refused before parsing (nesting deeper than the parser's stack
    /// allows, identifiers that cannot be renamed).
    #[error("{}: {message}", location.as_ref().map_or("<input>".to_string(), |l| l.to_string()))]
    Unsupported {
        /// Where.
        location: Option<Location>,
        /// Why.
        message: String,
    },
    /// A bug: the parser panicked or its thread could not be run.
    #[error("internal error in the C parser: {message}")]
    Internal {
        /// The panic message.
        message: String,
    },
}

impl FrontendError {
    /// The source position the error points at, if it has one.
    pub fn location(&self) -> Option<Location> {
        match self {
            FrontendError::Syntax {
                file, line, column, ..
            } => Some(Location {
                file: file.clone(),
                line: *line,
                column: *column,
            }),
            FrontendError::Unsupported { location, .. } => location.clone(),
            _ => None,
        }
    }
}
