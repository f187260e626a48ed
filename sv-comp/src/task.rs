//! SV-COMP task-definition files (`.yml`, format 1.0 and 2.0).
//!
//! A task names its input files, the properties to check with their expected
//! verdicts, and (format 2.0) the language and data model. Paths in the file
//! are relative to the file's folder; [`TaskDef::read`] resolves them.

use crate::property::{self, Property, PropertyError};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The data model a task asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModel {
    /// 32-bit `int`, `long` and pointers.
    Ilp32,
    /// 32-bit `int`, 64-bit `long` and pointers.
    Lp64,
}

impl DataModel {
    /// SV-COMP's spelling (`ILP32`, `LP64`).
    pub fn name(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }
}

/// One entry of a task's `properties` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyEntry {
    /// The property file, resolved against the task's folder.
    pub property_file: PathBuf,
    /// The expected verdict, when the task states one.
    pub expected_verdict: Option<bool>,
    /// The violated sub-property of a `false` verdict (memory safety).
    pub subproperty: Option<String>,
}

/// A task-definition file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskDef {
    /// The `.yml` file.
    pub path: PathBuf,
    /// `format_version` (`1.0` or `2.0`).
    pub format_version: String,
    /// The input files, resolved against the task's folder.
    pub input_files: Vec<PathBuf>,
    /// The properties with their expected verdicts.
    pub properties: Vec<PropertyEntry>,
    /// `options.data_model`, if given (format 2.0).
    pub data_model: Option<DataModel>,
    /// `options.language`, if given (format 2.0).
    pub language: Option<String>,
}

/// Why a task definition cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    /// The file cannot be read.
    #[error("cannot read task `{path}`: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a task definition.
    #[error("`{path}` is not a valid task definition: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProperty {
    property_file: String,
    expected_verdict: Option<bool>,
    subproperty: Option<String>,
}

#[derive(Deserialize, Default)]
struct RawOptions {
    language: Option<String>,
    data_model: Option<String>,
}

#[derive(Deserialize)]
struct RawTask {
    format_version: serde_yaml_ng::Value,
    input_files: OneOrMany,
    #[serde(default)]
    properties: Vec<RawProperty>,
    #[serde(default)]
    options: Option<RawOptions>,
}

impl TaskDef {
    /// Parses the text of a task definition stored at `path` (which resolves
    /// its relative paths).
    pub fn parse(text: &str, path: &Path) -> Result<TaskDef, TaskError> {
        let invalid = |message: String| TaskError::Invalid {
            path: path.display().to_string(),
            message,
        };
        let raw: RawTask = serde_yaml_ng::from_str(text).map_err(|e| invalid(e.to_string()))?;
        let format_version = match &raw.format_version {
            serde_yaml_ng::Value::String(s) => s.clone(),
            serde_yaml_ng::Value::Number(n) => n.to_string(),
            _ => return Err(invalid("`format_version` is not a version".into())),
        };
        if !matches!(format_version.as_str(), "1.0" | "2.0") {
            return Err(invalid(format!(
                "format_version {format_version} (ase reads 1.0 and 2.0)"
            )));
        }
        let dir = path.parent().unwrap_or(Path::new(""));
        let input_files: Vec<PathBuf> = match raw.input_files {
            OneOrMany::One(f) => vec![dir.join(f)],
            OneOrMany::Many(fs) => fs.into_iter().map(|f| dir.join(f)).collect(),
        };
        if input_files.is_empty() {
            return Err(invalid("`input_files` is empty".into()));
        }
        let options = raw.options.unwrap_or_default();
        let data_model = match options.data_model.as_deref() {
            None => None,
            Some("ILP32") => Some(DataModel::Ilp32),
            Some("LP64") => Some(DataModel::Lp64),
            Some(other) => return Err(invalid(format!("unknown data_model `{other}`"))),
        };
        Ok(TaskDef {
            path: path.to_path_buf(),
            format_version,
            input_files,
            properties: raw
                .properties
                .into_iter()
                .map(|p| PropertyEntry {
                    property_file: dir.join(p.property_file),
                    expected_verdict: p.expected_verdict,
                    subproperty: p.subproperty,
                })
                .collect(),
            data_model,
            language: options.language,
        })
    }

    /// Reads a task-definition file.
    pub fn read(path: &Path) -> Result<TaskDef, TaskError> {
        let text = std::fs::read_to_string(path).map_err(|source| TaskError::Io {
            path: path.display().to_string(),
            source,
        })?;
        TaskDef::parse(&text, path)
    }

    /// The task's single input file; `ase` checks one translation unit.
    pub fn input_file(&self) -> Result<&Path, TaskError> {
        match self.input_files.as_slice() {
            [one] => Ok(one),
            many => Err(TaskError::Invalid {
                path: self.path.display().to_string(),
                message: format!("{} input files (ase checks tasks of one file)", many.len()),
            }),
        }
    }

    /// The first property `ase` can check, in the order the task lists
    /// them, with its entry; otherwise the reason, naming the properties the
    /// task has. [`TaskDef::property_named`] chooses one by name.
    pub fn checkable_property(&self) -> Result<(Property, &PropertyEntry), PropertyError> {
        let mut first_error = None;
        for entry in &self.properties {
            match property::read(&entry.property_file) {
                Ok(p) => return Ok((p, entry)),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| PropertyError::Unsupported {
            name: "none".into(),
            text: format!("the task `{}` lists no property", self.path.display()),
        }))
    }

    /// The property named `name` (SV-COMP's name: `unreach-call`,
    /// `no-data-race`) with its entry; `Ok(None)` when the task does not list
    /// it. An error when the task lists it in a form `ase` does not check
    /// (`unreach-call` of another function), or when it is not found and a
    /// property file of the task cannot be read (it may be the one asked for).
    pub fn property_named(
        &self,
        name: &str,
    ) -> Result<Option<(Property, &PropertyEntry)>, PropertyError> {
        let mut unsupported = None;
        let mut unreadable = None;
        for entry in &self.properties {
            match property::read(&entry.property_file) {
                Ok(p) if p.name() == name => return Ok(Some((p, entry))),
                Ok(_) => {}
                Err(e @ PropertyError::Io { .. }) => {
                    unreadable.get_or_insert(e);
                }
                Err(e @ PropertyError::Unsupported { .. }) => {
                    // A form of the property ase does not check is named
                    // `NAME (...)`, e.g. `unreach-call (of a function other
                    // than reach_error)`.
                    let form_of = matches!(&e, PropertyError::Unsupported { name: n, .. }
                        if n.strip_prefix(name).is_some_and(|rest| rest.starts_with(" (")));
                    if form_of {
                        unsupported.get_or_insert(e);
                    }
                }
            }
        }
        match unsupported.or(unreadable) {
            Some(e) => Err(e),
            None => Ok(None),
        }
    }

    /// SV-COMP's names of the properties the task lists (a file that cannot
    /// be read is named by its file name).
    pub fn property_names(&self) -> Vec<String> {
        self.properties
            .iter()
            .map(|entry| match property::read(&entry.property_file) {
                Ok(p) => p.name().to_string(),
                Err(PropertyError::Unsupported { name, .. }) => name,
                Err(PropertyError::Io { .. }) => entry
                    .property_file
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_1_with_one_input() {
        let t = TaskDef::parse(
            "format_version: '1.0'\n# c\ninput_files: 'a.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n",
            Path::new("dir/t.yml"),
        )
        .unwrap();
        assert_eq!(t.input_files, vec![PathBuf::from("dir/a.c")]);
        assert_eq!(
            t.properties[0].property_file,
            PathBuf::from("dir/../properties/unreach-call.prp")
        );
        assert_eq!(t.properties[0].expected_verdict, Some(false));
        assert_eq!(t.data_model, None);
        assert_eq!(t.input_file().unwrap(), Path::new("dir/a.c"));
    }

    #[test]
    fn format_2_with_options() {
        let t = TaskDef::parse(
            "format_version: '2.0'\ninput_files: ['a.c', 'b.c']\nproperties:\n  - property_file: p.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: LP64\n",
            Path::new("t.yml"),
        )
        .unwrap();
        assert_eq!(t.data_model, Some(DataModel::Lp64));
        assert_eq!(t.language.as_deref(), Some("C"));
        assert_eq!(t.input_files.len(), 2);
        assert!(t.input_file().is_err());
    }

    #[test]
    fn a_property_is_chosen_by_name() {
        let dir = std::env::temp_dir().join(format!("ase-task-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in [
            (
                "unreach-call.prp",
                "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
            ),
            (
                "no-data-race.prp",
                "CHECK( init(main()), LTL(G ! data-race) )\n",
            ),
            (
                "memsafety.prp",
                "CHECK( init(main()), LTL(G valid-free) )\n",
            ),
            ("foo.prp", "CHECK( init(main()), LTL(G ! call(foo())) )\n"),
        ] {
            std::fs::write(dir.join(file), text).unwrap();
        }
        let task = |props: &[(&str, bool)]| {
            let mut text = "format_version: '2.0'\ninput_files: a.c\nproperties:\n".to_string();
            for (file, verdict) in props {
                text += &format!("  - property_file: {file}\n    expected_verdict: {verdict}\n");
            }
            TaskDef::parse(&text, &dir.join("t.yml")).unwrap()
        };

        let t = task(&[("no-data-race.prp", false), ("unreach-call.prp", true)]);
        let (p, e) = t.property_named("unreach-call").unwrap().unwrap();
        assert_eq!((p.name(), e.expected_verdict), ("unreach-call", Some(true)));
        let (p, e) = t.property_named("no-data-race").unwrap().unwrap();
        assert_eq!((p, e.expected_verdict), (Property::NoDataRace, Some(false)));
        assert!(t.property_named("termination").unwrap().is_none());
        assert_eq!(t.checkable_property().unwrap().0, Property::NoDataRace);
        assert_eq!(t.property_names(), ["no-data-race", "unreach-call"]);

        // A valid-memsafety file without its three checks.
        let t = task(&[("memsafety.prp", true)]);
        assert!(t.property_named("unreach-call").unwrap().is_none());
        assert!(matches!(
            t.property_named("valid-memsafety"),
            Err(PropertyError::Unsupported { .. })
        ));
        assert_eq!(t.property_names(), ["valid-memsafety (of another form)"]);

        // unreach-call of another function: listed, but not checkable.
        let t = task(&[("foo.prp", true)]);
        assert!(matches!(
            t.property_named("unreach-call"),
            Err(PropertyError::Unsupported { .. })
        ));
        assert!(t.property_named("no-data-race").unwrap().is_none());

        // A missing file may be the one asked for, unless it is found.
        let t = task(&[("missing.prp", true)]);
        assert!(matches!(
            t.property_named("no-data-race"),
            Err(PropertyError::Io { .. })
        ));
        assert_eq!(t.property_names(), ["missing"]);
        let t = task(&[("missing.prp", true), ("no-data-race.prp", true)]);
        assert!(t.property_named("no-data-race").unwrap().is_some());

        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn invalid_tasks_are_errors() {
        for text in [
            "",
            "format_version: '3.0'\ninput_files: a.c\n",
            "format_version: '1.0'\n",
            "format_version: '2.0'\ninput_files: a.c\noptions:\n  data_model: ILP16\n",
            "format_version: '1.0'\ninput_files: []\n",
            "[1, 2",
        ] {
            assert!(
                matches!(
                    TaskDef::parse(text, Path::new("t.yml")),
                    Err(TaskError::Invalid { .. })
                ),
                "{text:?}"
            );
        }
    }
}
