//! The evidence of a C verdict: the counterexample at the source level,
//! the proof summary with invariants, and SV-COMP witness files.

use crate::ctrace::{self, TraceMode};
use engine::verdict::{Outcome, ProofStates, Verdict};
use frontend::ParsedUnit;
use lowering::Lowered;
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use witness::invariant::{conjunction, Invariants, WitnessInvariants};
use witness::source::SourceTrace;

/// Witness file formats (`--witness-format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WitnessFormat {
    /// SV-COMP's GraphML witness format 1.0.
    Graphml,
    /// SV-COMP's YAML witness formats 2.x (2.2 with thread ids for traces
    /// of several threads).
    Yaml,
}

/// Options of `ase check` about evidence.
#[derive(clap::Args, Clone, Debug)]
pub struct EvidenceArgs {
    /// How a C counterexample is shown: consecutive steps of a thread in
    /// one block (compact) or every step on its own (full).
    #[arg(long, value_enum, default_value_t = TraceMode::Compact)]
    pub trace: TraceMode,
    /// For a safe C program: print the predicates and, per thread location,
    /// the invariant the proof gives (in C syntax).
    #[arg(long)]
    pub invariants: bool,
    /// Write an SV-COMP witness: a violation witness for an unsafe program,
    /// a correctness witness for a safe one (C input).
    #[arg(long, value_name = "FILE")]
    pub witness: Option<PathBuf>,
    /// The witness format.
    #[arg(long, value_enum, default_value_t = WitnessFormat::Graphml)]
    pub witness_format: WitnessFormat,
}

/// What a C verdict has beyond the IR outcome.
pub struct CEvidence<'a> {
    /// The program file.
    pub file: &'a Path,
    /// Its parsed text.
    pub unit: &'a ParsedUnit,
    /// The lowered program.
    pub lowered: &'a Lowered,
    /// The counterexample at the source level (unsafe).
    pub trace: Option<SourceTrace>,
    /// The invariants of the proof (safe, ASE).
    pub invariants: Option<Invariants>,
    /// The proof's abstract states.
    pub proof: Option<&'a ProofStates>,
    /// The invariants of a correctness witness (safe, `--witness`): from
    /// the checked certificate, else from the proof's abstract states.
    pub witness_invariants: Option<WitnessInvariants>,
    /// The options.
    pub args: &'a EvidenceArgs,
    /// For an unsafe verdict of the reduced program: the length of its
    /// trace replayed on the program without the reduction.
    pub unreduced_steps: Option<usize>,
}

impl<'a> CEvidence<'a> {
    /// Collects the evidence of an outcome.
    pub fn new(
        file: &'a Path,
        unit: &'a ParsedUnit,
        lowered: &'a Lowered,
        outcome: &Outcome,
        proof: Option<&'a ProofStates>,
        cert: Option<&engine::certify::Certification>,
        args: &'a EvidenceArgs,
    ) -> CEvidence<'a> {
        let trace = match &outcome.verdict {
            Verdict::Unsafe(t) => Some(witness::source::build(unit, file, lowered, t)),
            _ => None,
        };
        let invariants = match (&outcome.verdict, proof) {
            (Verdict::Safe(_), Some(p)) if args.invariants || args.witness.is_some() => {
                Some(witness::invariant::invariants(unit, file, lowered, p))
            }
            _ => None,
        };
        let certificate = cert
            .filter(|c| c.certified())
            .and_then(|c| c.certificate.as_ref());
        let witness_invariants = match (&outcome.verdict, certificate, &invariants) {
            (Verdict::Safe(_), _, _) if args.witness.is_none() => None,
            (Verdict::Safe(_), Some(c), _) => {
                Some(witness::certinv::from_certificate(unit, file, lowered, c))
            }
            (Verdict::Safe(_), None, Some(i)) => Some(i.witness()),
            (Verdict::Safe(_), None, None) => Some(WitnessInvariants::default()),
            _ => None,
        };
        CEvidence {
            file,
            unit,
            lowered,
            trace,
            invariants,
            proof,
            witness_invariants,
            args,
            unreduced_steps: None,
        }
    }

    /// The verdict's text with the source-level trace (unsafe) or the
    /// proof summary (safe, `--invariants`); `None` keeps the IR text.
    pub fn text(&self, outcome: &Outcome) -> Option<String> {
        let mut out = String::new();
        match (&outcome.verdict, &self.trace) {
            (Verdict::Unsafe(t), Some(st)) => {
                let n = t.steps.len();
                let steps = format!("{n} step{}", if n == 1 { "" } else { "s" });
                match (&st.race, &st.violation) {
                    (None, None) if st.deadlock.is_some() => {
                        let blocked = st.deadlock.as_deref().unwrap_or_default();
                        let _ = writeln!(
                            out,
                            "unsafe: a deadlock is reachable in {steps}: {}",
                            ctrace::deadlock_summary(st, blocked)
                        );
                    }
                    (Some(race), _) => {
                        let _ = writeln!(
                            out,
                            "unsafe: a data race is reachable in {steps}: {}",
                            ctrace::race_summary(st, race)
                        );
                    }
                    (None, Some(v)) => {
                        let _ = writeln!(
                            out,
                            "unsafe: {} is violated in {steps}: {}",
                            v.violation.name(),
                            v.reason
                        );
                    }
                    (None, None) => {
                        let _ = writeln!(out, "unsafe: an error state is reachable in {steps}");
                    }
                }
                out.push_str(&ctrace::text(st, self.file, self.args.trace));
            }
            (Verdict::Safe(proof), _) if self.args.invariants => {
                let _ = writeln!(out, "safe (proved by the {})", proof.describe());
                out.push_str(&self.proof_text(outcome));
            }
            _ => return None,
        }
        let _ = writeln!(out, "{}", crate::render::stats_text(&outcome.stats));
        Some(out)
    }

    fn proof_text(&self, outcome: &Outcome) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "predicates ({}):", outcome.stats.predicates.len());
        for p in &outcome.stats.predicates {
            let _ = writeln!(out, "  {p}");
        }
        let (Some(inv), Some(proof)) = (&self.invariants, self.proof) else {
            let _ = writeln!(out, "invariants: not available for this engine");
            return out;
        };
        let _ = writeln!(
            out,
            "invariants (from {} abstract states; C syntax, conjuncts over variables without a C name left out):",
            proof.states.len()
        );
        let _ = writeln!(
            out,
            "  everywhere{}: {}",
            if inv.atomic_sections {
                " outside atomic sections"
            } else {
                ""
            },
            conjunction(&inv.global)
        );
        let p = &self.lowered.program;
        for li in &inv.locations {
            let mut all = li.global_conjuncts.clone();
            all.extend(li.local_conjuncts.iter().cloned());
            let all: Vec<String> = all
                .into_iter()
                .filter(|c| !inv.global.contains(c))
                .collect();
            let at = match &li.at {
                Some(a) => format!(
                    "line {}{}",
                    a.line,
                    li.function
                        .as_ref()
                        .map_or(String::new(), |f| format!(" ({f})"))
                ),
                None => "no source line".to_string(),
            };
            let _ = writeln!(
                out,
                "  {}@{} [{at}]: {}",
                p.thread(li.thread).name,
                p.loc_name(li.thread, li.loc),
                if all.is_empty() {
                    "(nothing beyond everywhere)".to_string()
                } else {
                    conjunction(&all)
                }
            );
        }
        out
    }

    /// Adds the source-level trace and invariants to the JSON outcome.
    pub fn extend_json(&self, v: &mut Value) {
        let Some(obj) = v.as_object_mut() else { return };
        if let Some(n) = self.unreduced_steps {
            obj.insert("unreduced_replay".into(), json!({ "steps": n }));
        }
        if let Some(st) = &self.trace {
            obj.insert(
                "source_trace".into(),
                ctrace::json(st, self.file, self.lowered),
            );
        }
        if let Some(inv) = &self.invariants {
            let p = &self.lowered.program;
            let locs: Vec<Value> = inv
                .locations
                .iter()
                .map(|li| {
                    json!({
                        "thread": p.thread(li.thread).name,
                        "location": p.loc_name(li.thread, li.loc),
                        "line": li.at.as_ref().map(|a| a.line),
                        "column": li.at.as_ref().map(|a| a.column),
                        "function": li.function,
                        "invariant": conjunction(
                            &li.global_conjuncts.iter().chain(&li.local_conjuncts).cloned().collect::<Vec<_>>()
                        ),
                    })
                })
                .collect();
            obj.insert(
                "invariants".into(),
                json!({"everywhere": conjunction(&inv.global), "locations": locs}),
            );
        }
    }

    /// Writes the witness file (`--witness`), if asked. Returns a message
    /// for stderr when no witness could be written.
    pub fn write_witness(&self, outcome: &Outcome) -> anyhow::Result<Option<String>> {
        let Some(path) = &self.args.witness else {
            return Ok(None);
        };
        let mut meta = witness::Metadata::new(self.file, self.unit.data_model)?;
        meta.specification = witness::specification(self.lowered, self.trace.as_ref());
        let text = match (&outcome.verdict, self.args.witness_format) {
            (Verdict::Unsafe(_), WitnessFormat::Graphml) => {
                let st = self.trace.as_ref().expect("unsafe has a trace");
                witness::graphml::violation(&meta, st, self.lowered)
            }
            (Verdict::Unsafe(_), WitnessFormat::Yaml) => {
                let st = self.trace.as_ref().expect("unsafe has a trace");
                match witness::yaml::violation(&meta, st) {
                    Some(t) => t,
                    None => {
                        return Ok(Some(
                            "no witness written: the YAML witness cannot give the trace's value of an uninitialised variable or of `argc`, nor the element of a large array the model keeps exactly, or a waypoint (a thread creation, a race's access, the error) is at no position of the program file (use --witness-format graphml)".into(),
                        ))
                    }
                }
            }
            (Verdict::Safe(_), format) => {
                let empty = WitnessInvariants::default();
                let inv = self.witness_invariants.as_ref().unwrap_or(&empty);
                match format {
                    WitnessFormat::Graphml => {
                        witness::graphml::correctness(&meta, inv.global.as_deref())
                    }
                    WitnessFormat::Yaml => witness::yaml::correctness(&meta, inv),
                }
            }
            (Verdict::Unknown(_), _) => {
                return Ok(Some("no witness written: the verdict is unknown".into()))
            }
        };
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display()))?;
        Ok(None)
    }
}
