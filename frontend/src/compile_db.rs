//! A project's compilation database (`compile_commands.json`, as CMake,
//! Meson and Bear write it): the preprocessor flags of one file's compile
//! command, so that a file is preprocessed as its build does.
//!
//! An entry is `{"directory", "file", "arguments" | "command"}`; `file`
//! and relative paths in the flags are relative to `directory` (itself
//! relative to the database's folder when it is not absolute). Of the
//! command, the flags that change what the preprocessor reads are kept:
//! `-I`, `-D`, `-U`, `-isystem`, `-iquote`, `-idirafter`, `-include`,
//! `-imacros` and `-std=`, and `-m32`/`-m64` choose the data model; the
//! rest (`-c`, `-o`, warnings, optimisation,
//! the compiler itself and the source file) is left out.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Why a file's flags could not be read from a compilation database.
#[derive(Debug, thiserror::Error)]
pub enum CompileDbError {
    /// The database cannot be read.
    #[error("cannot read the compilation database {path}: {source}")]
    Read {
        /// The database.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The database is not a JSON array of entries.
    #[error("{path} is not a compilation database (a JSON array of compile commands): {source}")]
    Json {
        /// The database.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// No entry compiles the file.
    #[error("{db} has no compile command for {file}")]
    NoEntry {
        /// The database.
        db: PathBuf,
        /// The file.
        file: PathBuf,
    },
    /// The entry's command cannot be split into arguments.
    #[error(
        "the compile command of {file} in {db} cannot be split into arguments (unbalanced quotes)"
    )]
    Command {
        /// The database.
        db: PathBuf,
        /// The file.
        file: PathBuf,
    },
}

/// One compile command.
#[derive(Debug, Deserialize)]
struct Entry {
    directory: PathBuf,
    file: PathBuf,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
}

/// The preprocessor flags of a file's compile command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// `-I` directories, absolute.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// The other kept flags, each with its value, paths made absolute.
    pub other: Vec<String>,
    /// The data model of `-m32` (ILP32) or `-m64` (LP64), the last one.
    pub data_model: Option<crate::DataModelChoice>,
}

/// The flags of `file`'s compile command in the database `db` (a
/// `compile_commands.json`, or the folder that holds one).
pub fn flags_for(db: &Path, file: &Path) -> Result<Flags, CompileDbError> {
    let db = if db.is_dir() {
        db.join("compile_commands.json")
    } else {
        db.to_path_buf()
    };
    let text = std::fs::read_to_string(&db).map_err(|source| CompileDbError::Read {
        path: db.clone(),
        source,
    })?;
    let entries: Vec<Entry> =
        serde_json::from_str(&text).map_err(|source| CompileDbError::Json {
            path: db.clone(),
            source,
        })?;
    let base = db.parent().unwrap_or(Path::new("."));
    let wanted = canonical(file);
    let no_entry = || CompileDbError::NoEntry {
        db: db.clone(),
        file: file.to_path_buf(),
    };
    let (entry, dir) = entries
        .iter()
        .map(|e| (e, base.join(&e.directory)))
        .find(|(e, dir)| canonical(&dir.join(&e.file)) == wanted)
        .ok_or_else(no_entry)?;
    let args = match (&entry.arguments, &entry.command) {
        (Some(args), _) => args.clone(),
        (None, Some(command)) => shlex::split(command).ok_or_else(|| CompileDbError::Command {
            db: db.clone(),
            file: file.to_path_buf(),
        })?,
        (None, None) => Vec::new(),
    };
    Ok(preprocessor_flags(&args, &dir))
}

/// `path` made absolute and without `.`/`..` where it exists.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The flags of a compiler command line (`args[0]` is the compiler) that
/// change what the preprocessor reads, relative paths resolved in `dir`.
fn preprocessor_flags(args: &[String], dir: &Path) -> Flags {
    const WITH_PATH: [&str; 5] = ["-isystem", "-iquote", "-idirafter", "-include", "-imacros"];
    let mut flags = Flags::default();
    let absolute = |p: &str| dir.join(p).to_string_lossy().into_owned();
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        // A flag's value: glued to it (`-Ifoo`) or the next argument.
        let mut value = |flag: &str| -> Option<String> {
            match arg.strip_prefix(flag) {
                Some("") => rest.next().cloned(),
                Some(glued) => Some(glued.to_string()),
                None => None,
            }
        };
        if let Some(d) = value("-I") {
            flags.include_dirs.push(dir.join(d));
        } else if let Some(d) = value("-D") {
            flags.defines.push(d);
        } else if let Some(u) = value("-U") {
            flags.other.push(format!("-U{u}"));
        } else if arg == "-m32" {
            flags.data_model = Some(crate::DataModelChoice::Ilp32);
        } else if arg == "-m64" {
            flags.data_model = Some(crate::DataModelChoice::Lp64);
        } else if arg.starts_with("-std=") {
            flags.other.push(arg.clone());
        } else if let Some(flag) = WITH_PATH.iter().find(|f| arg == *f) {
            if let Some(p) = rest.next() {
                flags.other.extend([flag.to_string(), absolute(p)]);
            }
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        shlex::split(line).expect("balanced")
    }

    #[test]
    fn keeps_what_the_preprocessor_reads() {
        let line = "gcc -c -O2 -Wall -Iinclude -I /opt/x -DNDEBUG -D 'NAME=\"a b\"' -UOLD \
                    -std=gnu11 -m32 -isystem sys -include config.h -o pool.o src/pool.c";
        let flags = preprocessor_flags(&args(line), Path::new("/proj/build"));
        assert_eq!(
            flags.include_dirs,
            [
                PathBuf::from("/proj/build/include"),
                PathBuf::from("/opt/x")
            ]
        );
        assert_eq!(flags.defines, ["NDEBUG", "NAME=\"a b\""]);
        assert_eq!(flags.data_model, Some(crate::DataModelChoice::Ilp32));
        assert_eq!(
            flags.other,
            [
                "-UOLD",
                "-std=gnu11",
                "-isystem",
                "/proj/build/sys",
                "-include",
                "/proj/build/config.h"
            ]
        );
    }

    #[test]
    fn finds_the_entry_of_a_file() {
        let dir = std::env::temp_dir().join(format!("ase-compile-db-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/a.c"), "int main(void) { return 0; }\n").unwrap();
        let db = dir.join("compile_commands.json");
        let entries = serde_json::json!([
            {"directory": ".", "file": "src/b.c", "command": "cc -DB -c src/b.c"},
            {"directory": ".", "file": "src/a.c", "arguments": ["cc", "-DA=1", "-Iinc", "-c", "src/a.c"]},
        ]);
        std::fs::write(&db, entries.to_string()).unwrap();
        let flags = flags_for(&dir, &dir.join("src/a.c")).expect("an entry");
        assert_eq!(flags.defines, ["A=1"]);
        assert_eq!(flags.include_dirs, [dir.join("./inc")]);
        let missing = flags_for(&db, &dir.join("src/c.c")).unwrap_err();
        assert!(
            matches!(missing, CompileDbError::NoEntry { .. }),
            "{missing}"
        );
        std::fs::write(&db, "{}").unwrap();
        assert!(matches!(
            flags_for(&db, &dir.join("src/a.c")),
            Err(CompileDbError::Json { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
