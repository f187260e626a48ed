//! Task sets: the tasks of a benchmark run.
//!
//! A set is a folder (every `.yml` below it, recursively), an SV-COMP `.set`
//! file (one glob pattern per line, relative to the file's folder; `#`
//! starts a comment), or a single `.yml` task.

use std::path::{Path, PathBuf};

/// One task of a set.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TaskRef {
    /// The folder the task is reported under (its directory relative to the
    /// set's root, e.g. `pthread-wmm`).
    pub folder: String,
    /// The task's name (its file name without `.yml`).
    pub name: String,
    /// The task-definition file.
    pub path: PathBuf,
}

/// Why a task set cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TaskSetError {
    /// The folder or file cannot be read.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The path.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A pattern of a `.set` file is not a glob pattern.
    #[error("`{path}` line {line}: bad pattern `{pattern}`: {message}")]
    Pattern {
        /// The `.set` file.
        path: String,
        /// The 1-based line.
        line: usize,
        /// The pattern.
        pattern: String,
        /// What is wrong.
        message: String,
    },
    /// The set holds no task.
    #[error("`{0}` holds no task (`.yml` file)")]
    Empty(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TaskSetError + '_ {
    move |source| TaskSetError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn is_task(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// The task at `path`, reported under its folder relative to `root`.
fn task_ref(root: &Path, path: &Path) -> TaskRef {
    let parent = path.parent().unwrap_or(Path::new(""));
    let folder = match parent.strip_prefix(root) {
        Ok(rel)
            if !rel.as_os_str().is_empty()
                && !rel
                    .components()
                    .any(|c| c == std::path::Component::ParentDir) =>
        {
            rel.to_string_lossy().into_owned()
        }
        // Tasks directly in the root, or outside it (a `.set` pattern
        // starting with `..`): the folder's own name.
        _ => parent
            .file_name()
            .map_or_else(|| ".".into(), |n| n.to_string_lossy().into_owned()),
    };
    TaskRef {
        folder,
        name: path
            .file_stem()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        path: path.to_path_buf(),
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), TaskSetError> {
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if is_task(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// The tasks of a folder, `.set` file or `.yml` file, sorted by folder and
/// name, without duplicates.
pub fn collect(input: &Path) -> Result<Vec<TaskRef>, TaskSetError> {
    let meta = std::fs::metadata(input).map_err(io(input))?;
    let (root, paths) = if meta.is_dir() {
        let mut paths = Vec::new();
        walk(input, &mut paths)?;
        (input.to_path_buf(), paths)
    } else if input.extension().is_some_and(|e| e == "set") {
        let root = input.parent().unwrap_or(Path::new("")).to_path_buf();
        let text = std::fs::read_to_string(input).map_err(io(input))?;
        let mut paths = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let pattern = line.split('#').next().unwrap_or("").trim();
            if pattern.is_empty() {
                continue;
            }
            let full = root.join(pattern);
            let bad = |message: String| TaskSetError::Pattern {
                path: input.display().to_string(),
                line: i + 1,
                pattern: pattern.to_string(),
                message,
            };
            let matches = glob::glob(&full.to_string_lossy()).map_err(|e| bad(e.to_string()))?;
            for m in matches {
                let path = m.map_err(|e| bad(e.to_string()))?;
                if is_task(&path) {
                    paths.push(path);
                }
            }
        }
        (root, paths)
    } else {
        let root = input.parent().unwrap_or(Path::new("")).to_path_buf();
        (root, vec![input.to_path_buf()])
    };
    let mut tasks: Vec<TaskRef> = paths.iter().map(|p| task_ref(&root, p)).collect();
    tasks.sort();
    tasks.dedup();
    if tasks.is_empty() {
        return Err(TaskSetError::Empty(input.display().to_string()));
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ase-taskset-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a/deep")).unwrap();
        std::fs::create_dir_all(dir.join("b")).unwrap();
        for f in ["a/t1.yml", "a/t1.c", "a/deep/t2.yml", "b/t3.yml", "top.yml"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        dir
    }

    #[test]
    fn folders_sets_and_single_tasks() {
        let dir = scratch("all");
        let names = |ts: Vec<TaskRef>| -> Vec<String> {
            ts.into_iter()
                .map(|t| format!("{}/{}", t.folder, t.name))
                .collect()
        };
        let root_name = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(
            names(collect(&dir).unwrap()),
            vec![
                "a/t1".to_string(),
                "a/deep/t2".into(),
                format!("{root_name}/top"),
                "b/t3".into()
            ]
        );
        std::fs::write(
            dir.join("x.set"),
            "# comment\na/*.yml\n\nb/*.yml # trailing\na/t1.yml\n",
        )
        .unwrap();
        assert_eq!(
            names(collect(&dir.join("x.set")).unwrap()),
            vec!["a/t1".to_string(), "b/t3".into()]
        );
        assert_eq!(names(collect(&dir.join("b/t3.yml")).unwrap()), vec!["b/t3"]);
        // A set beside the tasks' folders: they keep their own names.
        std::fs::write(
            dir.join("a/up.set"),
            "../b/*.yml
",
        )
        .unwrap();
        assert_eq!(names(collect(&dir.join("a/up.set")).unwrap()), vec!["b/t3"]);
        std::fs::write(dir.join("bad.set"), "a/[.yml\n").unwrap();
        assert!(matches!(
            collect(&dir.join("bad.set")),
            Err(TaskSetError::Pattern { line: 1, .. })
        ));
        std::fs::write(dir.join("none.set"), "c/*.yml\n").unwrap();
        assert!(matches!(
            collect(&dir.join("none.set")),
            Err(TaskSetError::Empty(_))
        ));
        assert!(matches!(
            collect(&dir.join("missing")),
            Err(TaskSetError::Io { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
