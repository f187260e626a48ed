//! Running the system C preprocessor, and finding out which data model it targets.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

use crate::model::{DataModel, DataModelChoice, DataModelReason};
use crate::{FrontendError, Options};

/// The preprocessor's output and the data model it was produced for.
pub(crate) struct Preprocessed {
    pub text: String,
    pub model: DataModel,
    pub reason: DataModelReason,
}

/// What probing a preprocessor found: the model, and the flags that select it.
#[derive(Clone, Debug)]
struct Probe {
    model: DataModel,
    flags: Vec<&'static str>,
    reason: DataModelReason,
}

/// Headers whose 32-bit variants a `-m32` preprocessor must find.
const PROBE_SOURCE: &str = "#include <stdlib.h>\n#include <pthread.h>\n";

/// The program and leading arguments of the preprocessor command.
fn base_command(opts: &Options) -> (String, Vec<String>) {
    let spec = opts.cpp.as_deref().unwrap_or("cc");
    let mut words = spec.split_whitespace().map(str::to_string);
    let program = words.next().unwrap_or_else(|| "cc".to_string());
    let mut args: Vec<String> = words.collect();
    args.extend(opts.cpp_args.iter().cloned());
    (program, args)
}

/// A command line for messages.
fn display_command(program: &str, args: &[OsString]) -> String {
    let mut s = program.to_string();
    for a in args {
        let a = a.to_string_lossy();
        s.push(' ');
        if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"\\$".contains(c)) {
            s.push('\'');
            s.push_str(&a.replace('\'', "'\\''"));
            s.push('\'');
        } else {
            s.push_str(&a);
        }
    }
    s
}

/// Runs `program args` with `stdin`; returns (success, status, stdout, stderr).
fn run(
    program: &str,
    args: &[OsString],
    stdin: Option<&str>,
) -> Result<(bool, Option<i32>, Vec<u8>, String), FrontendError> {
    let command = display_command(program, args);
    let mut child = Command::new(program)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| FrontendError::Spawn {
            command: command.clone(),
            source,
        })?;
    if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
        // A preprocessor that exits early closes the pipe; its status tells.
        let _ = pipe.write_all(input.as_bytes());
    }
    let out = child
        .wait_with_output()
        .map_err(|source| FrontendError::Spawn { command, source })?;
    Ok((
        out.status.success(),
        out.status.code(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// `sizeof(long)` and `sizeof(void *)` from `-dM` output.
fn sizes_from_macros(macros: &str) -> Option<(u32, u32)> {
    let get = |name: &str| {
        macros.lines().find_map(|l| {
            let rest = l.strip_prefix("#define ")?.strip_prefix(name)?;
            rest.strip_prefix(' ')?.trim().parse::<u32>().ok()
        })
    };
    Some((get("__SIZEOF_LONG__")?, get("__SIZEOF_POINTER__")?))
}

/// The first line of a compiler's stderr that says what went wrong.
fn first_error(stderr: &str, status: Option<i32>) -> String {
    stderr
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| stderr.lines().find(|l| !l.trim().is_empty()))
        .map(|l| l.trim().to_string())
        .unwrap_or_else(|| format!("exit status {status:?}"))
}

/// Which model [`DataModelChoice::Auto`] gets with this preprocessor; cached per
/// command line, since it is the same for every file.
fn probe(program: &str, base: &[String]) -> Result<Probe, FrontendError> {
    static CACHE: OnceLock<Mutex<HashMap<Vec<String>, Probe>>> = OnceLock::new();
    let key: Vec<String> = std::iter::once(program.to_string())
        .chain(base.iter().cloned())
        .collect();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(p.clone());
    }
    let args = |extra: &[&str]| -> Vec<OsString> {
        base.iter()
            .map(OsString::from)
            .chain(extra.iter().map(OsString::from))
            .chain(["-E", "-dM", "-x", "c", "-"].map(OsString::from))
            .collect()
    };
    let (ok, status, out, err) = run(program, &args(&["-m32"]), Some(PROBE_SOURCE))?;
    let m32 = String::from_utf8_lossy(&out);
    let reason = match (ok, sizes_from_macros(&m32)) {
        (true, Some((4, 4))) => None,
        (true, sizes) => Some(format!(
            "-m32 gives sizeof(long), sizeof(void *) = {sizes:?}"
        )),
        (false, _) => Some(first_error(&err, status)),
    };
    let probe = match reason {
        None => Probe {
            model: DataModel::Ilp32,
            flags: vec!["-m32"],
            reason: DataModelReason::M32Available,
        },
        Some(reason) => {
            let native = args(&[]);
            let (ok, status, out, err) = run(program, &native, Some(""))?;
            if !ok {
                return Err(FrontendError::Preprocessor {
                    command: display_command(program, &native),
                    status,
                    stderr: err,
                });
            }
            let sizes = sizes_from_macros(&String::from_utf8_lossy(&out));
            let model = sizes
                .and_then(|(long, ptr)| DataModel::from_sizes(long, ptr))
                .ok_or_else(|| FrontendError::Unsupported {
                    location: None,
                    message: format!(
                        "the preprocessor's native data model (sizeof(long), sizeof(void *) = \
                         {sizes:?}) is neither ILP32 nor LP64"
                    ),
                })?;
            Probe {
                model,
                flags: vec![],
                reason: DataModelReason::M32Unavailable { reason },
            }
        }
    };
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, probe.clone());
    Ok(probe)
}

/// The data model that [`DataModelChoice::Auto`] selects with these options (the
/// preprocessor is probed once per command line), and why.
pub(crate) fn auto_model(opts: &Options) -> Result<(DataModel, DataModelReason), FrontendError> {
    let (program, base) = base_command(opts);
    let p = probe(&program, &base)?;
    Ok((p.model, p.reason))
}

/// Runs the preprocessor on `path`.
pub(crate) fn preprocess(path: &Path, opts: &Options) -> Result<Preprocessed, FrontendError> {
    let (program, base) = base_command(opts);
    let (model, flags, reason) = match opts.data_model {
        DataModelChoice::Auto => {
            let p = probe(&program, &base)?;
            (p.model, p.flags, p.reason)
        }
        DataModelChoice::Ilp32 => (DataModel::Ilp32, vec!["-m32"], DataModelReason::Requested),
        DataModelChoice::Lp64 => (DataModel::Lp64, vec![], DataModelReason::Requested),
    };
    let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
    args.extend(base.iter().map(OsString::from));
    args.extend(["-E", "-x", "c"].map(OsString::from));
    // Programs can tell `ase` apart (`#if defined(__clang__) ||
    // defined(__ASE__)` turns thread-safety annotations on for it).
    args.push(OsString::from("-D__ASE__=1"));
    for dir in &opts.include_dirs {
        let mut a = OsString::from("-I");
        a.push(dir);
        args.push(a);
    }
    for d in &opts.defines {
        args.push(OsString::from(format!("-D{d}")));
    }
    args.push(path.as_os_str().to_owned());
    let (ok, status, out, stderr) = run(&program, &args, None)?;
    if !ok {
        return Err(FrontendError::Preprocessor {
            command: display_command(&program, &args),
            status,
            stderr,
        });
    }
    let text = match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(Preprocessed {
        text,
        model,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros() {
        let m = "#define __SIZEOF_LONG_LONG__ 8\n#define __SIZEOF_LONG__ 4\n#define __SIZEOF_POINTER__ 4\n";
        assert_eq!(sizes_from_macros(m), Some((4, 4)));
        assert_eq!(sizes_from_macros("#define __SIZEOF_LONG__ 8\n"), None);
    }

    #[test]
    fn command_display() {
        let args = ["-E", "a b.c", ""].map(OsString::from);
        assert_eq!(display_command("cc", &args), "cc -E 'a b.c' ''");
    }
}
