//! Counterexamples at the level of the C source, and SV-COMP verification
//! witnesses.
//!
//! - [`source`]: a trace of the lowered program ([`engine::verdict::Trace`])
//!   seen at the C level: per step the thread, the source position, the C
//!   variables written, the `__VERIFIER_nondet_*` inputs chosen, thread
//!   creation, lock operations, function entry and return.
//! - [`graphml`]: violation and correctness witnesses in the GraphML format
//!   1.0 of SV-COMP, and a reader of it ([`graphml::parse`]) with the
//!   well-formedness checks ([`graphml::Witness::check`]).
//! - [`yaml`]: witnesses in the YAML formats 2.x (correctness witnesses;
//!   violation witnesses, with thread ids in format 2.2).
//! - [`replay`]: runs a GraphML violation witness on the lowered program
//!   with the engine's interpreter; the path it describes must reach the
//!   error.
//! - [`yaml_replay`]: checks a YAML violation witness by a search over the
//!   program's interleavings that passes its waypoints in order.
//! - [`invariant`]: per-location invariants from the abstract states of a
//!   proof, in C syntax.

#![warn(missing_docs)]

pub mod certinv;
pub mod graphml;
pub mod invariant;
pub mod replay;
pub mod source;
pub mod yaml;
pub mod yaml_replay;

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// What every witness says about the program and the tool.
#[derive(Clone, Debug)]
pub struct Metadata {
    /// The program file, as given.
    pub program_file: PathBuf,
    /// SHA-256 of the program file's bytes, lowercase hex.
    pub program_hash: String,
    /// `32bit` or `64bit`.
    pub architecture: &'static str,
    /// The producer (`ase 0.1.0`).
    pub producer: String,
    /// The specification (the text of `unreach-call.prp`).
    pub specification: String,
    /// ISO 8601 UTC time of creation.
    pub creation_time: String,
}

/// SV-COMP's reachability property.
pub const UNREACH_CALL: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";

/// SV-COMP's data-race property.
pub const NO_DATA_RACE: &str = "CHECK( init(main()), LTL(G ! data-race) )";

/// `ase`'s deadlock property (written like SV-COMP's).
pub const NO_DEADLOCK: &str = "CHECK( init(main()), LTL(G ! deadlock) )";

/// SV-COMP's formula of a memory-safety or overflow (sub-)property.
pub fn violation_formula(v: lowering::Violation) -> String {
    let f = match v {
        lowering::Violation::Overflow => "! overflow",
        lowering::Violation::ThreadSafety => "! thread-safety",
        lowering::Violation::Spec => "! spec",
        other => other.name(),
    };
    format!("CHECK( init(main()), LTL(G {f}) )")
}

/// The specification a witness of `lowered` speaks about: a violation
/// witness of a race trace is one of `no-data-race`, of a deadlock trace
/// one of `no-deadlock`, of a violation trace one of its sub-property;
/// otherwise the properties checked, one per line
/// (`valid-memtrack` only for a program that does not allocate, where it
/// holds: it is not checked).
pub fn specification(lowered: &lowering::Lowered, trace: Option<&source::SourceTrace>) -> String {
    let checks = lowered.checks;
    if trace.is_some_and(|t| t.race.is_some()) {
        return NO_DATA_RACE.to_string();
    }
    if trace.is_some_and(|t| t.deadlock.is_some()) {
        return NO_DEADLOCK.to_string();
    }
    if let Some(v) = trace.and_then(|t| t.violation.as_ref()) {
        return violation_formula(v.violation);
    }
    let mut lines = Vec::new();
    if checks.assertions {
        lines.push(UNREACH_CALL.to_string());
    }
    if checks.races {
        lines.push(NO_DATA_RACE.to_string());
    }
    if checks.deadlocks {
        lines.push(NO_DEADLOCK.to_string());
    }
    use lowering::Violation::*;
    for v in [
        Free,
        Deref,
        MemTrack,
        MemCleanup,
        Overflow,
        ThreadSafety,
        Spec,
    ] {
        let memtrack_unchecked =
            lowered.allocates && lowered.memtrack != lowering::MemTrack::Checked;
        if checks.covers(v) && !(v == MemTrack && memtrack_unchecked) {
            lines.push(violation_formula(v));
        }
    }
    lines.join("\n")
}

impl Metadata {
    /// The metadata of a witness for `file`, read now.
    pub fn new(file: &Path, data_model: frontend::DataModel) -> std::io::Result<Metadata> {
        let bytes = std::fs::read(file)?;
        Ok(Metadata {
            program_file: file.to_path_buf(),
            program_hash: sha256_hex(&bytes),
            architecture: match data_model {
                frontend::DataModel::Ilp32 => "32bit",
                frontend::DataModel::Lp64 => "64bit",
            },
            producer: format!("ase {}", env!("CARGO_PKG_VERSION")),
            specification: UNREACH_CALL.to_string(),
            creation_time: iso8601_now(),
        })
    }
}

/// SHA-256 of bytes as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn iso8601_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    iso8601(secs)
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn iso8601(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Reads a violation witness back (GraphML, or YAML when it does not
/// start with `<`), checks it against the program file, and replays it on
/// the lowered program.
pub fn check_violation_witness(
    text: &str,
    file: &Path,
    unit: &frontend::ParsedUnit,
    lowered: &lowering::Lowered,
) -> Result<replay::Replayed, String> {
    if !text.trim_start().starts_with('<') {
        return yaml_replay::replay(text, unit, file, lowered);
    }
    let w = graphml::parse(text)?;
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    w.check(Some(&bytes))?;
    if w.graph["witness-type"] != "violation_witness" {
        return Err("not a violation witness".into());
    }
    replay::replay(&w, unit, file, lowered)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates() {
        assert_eq!(super::iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::iso8601(1_709_251_199), "2024-02-29T23:59:59Z");
    }

    #[test]
    fn hash() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
