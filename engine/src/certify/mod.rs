//! Certificates of `safe` verdicts, and their independent checker.
//!
//! A [`Certificate`] is an inductive invariant of one IR program (the
//! program the engine checked: for C, the lowered program): per tuple of
//! thread locations, a formula over the program's variables. Tuples it does
//! not list have the invariant `false`. It proves the program safe when
//!
//! - every initial state satisfies the invariant of the initial tuple,
//! - every step from a state satisfying the invariant of its tuple `L` ends
//!   in a state satisfying the invariant of the step's tuple `L'`, and
//! - no state satisfying an invariant satisfies the error condition.
//!
//! The module has three parts with different trust:
//!
//! - [`build`] turns an engine's proof into a certificate: ASE's (or UR's)
//!   abstract states, or the states of the exhaustive explicit search. It
//!   uses the engines' data and is *not* trusted: a wrong certificate is
//!   caught by the checker.
//! - [`text`] prints and parses the certificate format
//!   (`docs/certificate.md`); invariants are `.gc` conditions.
//! - [`check`] is the checker. It shares nothing with the engines but the
//!   IR ([`crate::ir`]): it encodes the transition relation itself, straight
//!   from the IR, in a fresh Z3 context, and decides every obligation.

pub mod build;
pub mod check;
mod points;
pub mod text;

use crate::ir::{Cond, LocId, Program};

/// A formula in disjunctive form: a disjunction of conjunctions (an empty
/// disjunction is `false`, an empty conjunction `true`).
pub type Dnf = Vec<Vec<Cond>>;

/// The invariant of one tuple of thread locations: the conjunction of its
/// blocks, each a [`Dnf`]. (Blocks let a common part be written once: the
/// conjuncts true in every disjunct, or the variables constant at the tuple.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    /// The location of every thread, in program order.
    pub locs: Vec<LocId>,
    /// Conjoined blocks (none: `true`).
    pub blocks: Vec<Dnf>,
}

/// Which program a certificate is about.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ProgramRef {
    /// Where the program came from (a file name), for people.
    pub name: String,
    /// [`fingerprint`] of the program.
    pub fingerprint: String,
    /// How the program is made from its source, for a checker that makes
    /// it again (empty: the source's own program). Opaque here: the
    /// pipeline that builds the program writes and reads it.
    pub subject: String,
}

/// An inductive invariant of a program, per tuple of thread locations.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Certificate {
    /// The program it is about.
    pub program: ProgramRef,
    /// The proof it was built from (for people; not checked).
    pub proof: String,
    /// The invariants, at most one per tuple; absent tuples are `false`.
    pub invariants: Vec<Invariant>,
}

impl Certificate {
    /// The number of conjuncts over all blocks and disjuncts (a size
    /// measure).
    pub fn size(&self) -> usize {
        self.invariants
            .iter()
            .flat_map(|i| &i.blocks)
            .flatten()
            .map(|d| d.len().max(1))
            .sum()
    }
}

/// The SHA-256 of the program as printed in `.gc` (names, declarations,
/// transitions and the error condition: everything the semantics depends
/// on), in lowercase hex.
pub fn fingerprint(program: &Program) -> String {
    use sha2::{Digest, Sha256};
    let text = crate::print::print_program(program);
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The most time the invariant inference has for a certificate.
pub const INFER_CERTIFICATE_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// Largest certificate built from explicit states (in conjuncts); beyond
/// it a certificate is built from an ASE proof instead.
pub const MAX_EXPLICIT_CONJUNCTS: usize = 400_000;

/// What a proof left for its certificate.
#[derive(Clone, Copy)]
pub enum Evidence<'a> {
    /// The abstract states of an ASE or UR proof.
    Abstract(&'a crate::verdict::ProofStates),
    /// The states of the exhaustive explicit search.
    Explicit(&'a crate::explicit::Reachable),
    /// The invariants of an inferred proof ([`crate::infer`]): the
    /// certificate itself.
    Invariants(&'a [Invariant]),
    /// Nothing.
    None,
}

/// The outcome of certifying a `safe` verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The certificate was checked: every obligation holds.
    Certified,
    /// No certificate could be checked (none was built, or the prover gave
    /// no answer); the verdict stands, uncertified.
    NotCertified(String),
    /// The checker refuted the certificate: an internal error of the proof
    /// (or of the certificate's construction).
    Refuted(String),
}

/// The certificate of a `safe` verdict and its check.
#[derive(Clone, Debug)]
pub struct Certification {
    /// The certificate, when one was built.
    pub certificate: Option<Certificate>,
    /// The checker's report, when it ran.
    pub report: Option<check::Report>,
    /// The conclusion.
    pub status: Status,
    /// Building and checking time.
    pub time: std::time::Duration,
    /// What the checked certificate was built from.
    pub kind: &'static str,
}

impl Certification {
    /// Whether every obligation was checked and holds.
    pub fn certified(&self) -> bool {
        self.status == Status::Certified
    }
    /// Why not, when not certified.
    pub fn reason(&self) -> Option<&str> {
        match &self.status {
            Status::Certified => None,
            Status::NotCertified(r) | Status::Refuted(r) => Some(r),
        }
    }
    /// Applies the result to the verdict: a refuted certificate turns
    /// `safe` into `unknown` (an internal error).
    pub fn apply(&self, verdict: &mut crate::verdict::Verdict) {
        if let (Status::Refuted(why), crate::verdict::Verdict::Safe(_)) = (&self.status, &*verdict)
        {
            *verdict = crate::verdict::Verdict::unknown(
                crate::verdict::UnknownKind::Internal,
                format!("internal error: certificate of the safe verdict failed: {why}"),
            );
        }
    }
}

/// Builds the certificate of a `safe` verdict of `program` (called `name`)
/// from the proof's evidence and checks it, within `timeout`. When the
/// evidence is missing or too large (explicit states), ASE is run for
/// abstract states instead, for at most [`ASE_CERTIFICATE_TIME`] of it.
pub fn certify(
    program: &Program,
    name: &str,
    proof: crate::verdict::Proof,
    evidence: Evidence<'_>,
    timeout: Option<std::time::Duration>,
) -> Certification {
    let start = std::time::Instant::now();
    let pref = || text::program_ref(program, name);
    let left = || timeout.map(|t| t.saturating_sub(start.elapsed()));
    // ASE run for abstract states (its proof's name, the states).
    let from_ase = |why: String| -> Result<(String, crate::verdict::ProofStates), String> {
        let budget = left().map_or(ASE_CERTIFICATE_TIME, |t| t.min(ASE_CERTIFICATE_TIME));
        let config = crate::ase::Config {
            timeout: Some(budget),
            ..Default::default()
        };
        match crate::ase::check_with_proof(program, &config) {
            (o, Some(states)) => {
                let by = match &o.verdict {
                    crate::verdict::Verdict::Safe(p) => p.describe(),
                    _ => "ASE",
                };
                Ok((format!("{by} (ASE, run for the certificate)"), states))
            }
            (o, None) => Err(format!(
                "{why}; ASE gave no proof for a certificate ({})",
                match &o.verdict {
                    crate::verdict::Verdict::Unknown(r) => r.detail.as_str(),
                    v => v.name(),
                }
            )),
        }
    };
    // Abstract states: the proof's own, or those of ASE run for the
    // certificate (when the explicit states are too many, or none).
    if let Evidence::Invariants(invariants) = evidence {
        let c = Certificate {
            program: pref(),
            proof: proof.describe().into(),
            invariants: invariants.to_vec(),
        };
        let report = check::check(program, &c, left());
        return finish(c, report, start, "inferred invariants", program);
    }
    let ran;
    let (proof_name, states, kind) = if let Evidence::Abstract(states) = evidence {
        (proof.describe().to_string(), states, "abstract states")
    } else {
        let why = match evidence {
            Evidence::Explicit(reachable) => match build::from_states(
                pref(),
                proof.describe(),
                program,
                || reachable.states(),
                &|x| reachable.lazy(x),
                reachable.saturated(),
                MAX_EXPLICIT_CONJUNCTS,
            ) {
                Ok(c) => {
                    let report = check::check(program, &c, left());
                    return finish(c, report, start, "explicit states", program);
                }
                Err(e) => format!("explicit states: {e}"),
            },
            _ => "the proof left no states".into(),
        };
        // Inferred invariants, when they prove the program: they are a
        // certificate as they are.
        let budget = left().map_or(INFER_CERTIFICATE_TIME, |t| {
            t.min(INFER_CERTIFICATE_TIME) / 2
        });
        let inferred = crate::infer::prove(program, Some(std::time::Instant::now() + budget), None);
        if let Some(invariants) = inferred.invariants {
            let c = Certificate {
                program: pref(),
                proof: format!(
                    "{} (inferred invariants, for the certificate)",
                    proof.describe()
                ),
                invariants,
            };
            let report = check::check(program, &c, left());
            if report.result.is_ok() {
                return finish(c, report, start, "inferred invariants", program);
            }
        }
        match from_ase(why) {
            Ok((name, states)) => {
                ran = states;
                (name, &ran, "abstract states (ASE, run for the certificate)")
            }
            Err(why) => {
                return Certification {
                    certificate: None,
                    report: None,
                    status: Status::NotCertified(format!("no certificate: {why}")),
                    time: start.elapsed(),
                    kind: "none",
                }
            }
        }
    };
    let certificate = build::from_proof_states(pref(), &proof_name, states);
    let report = check::check(program, &certificate, left());
    // The union of the abstract states of a safe-fragment proof need not
    // be inductive; the fragment with the tree's symbolic states is.
    match &report.result {
        Err(f) if f.is_refutation() && states.fragment.is_some() => {
            let deadline = left().map(|t| std::time::Instant::now() + t);
            let proof_name = format!(
                "{proof_name} (the fragment's abstract states and the tree's symbolic states)"
            );
            match build::from_fragment(pref(), &proof_name, program, states, deadline) {
                Ok(c) => {
                    let report = check::check(program, &c, left());
                    finish(c, report, start, "safe fragment and symbolic states", program)
                }
                Err(e) => Certification {
                    certificate: Some(certificate),
                    report: Some(report),
                    status: Status::NotCertified(format!(
                        "the union of the abstract states is not inductive, and no certificate could be built from the safe fragment: {e}"
                    )),
                    time: start.elapsed(),
                    kind,
                },
            }
        }
        _ => finish(certificate, report, start, kind, program),
    }
}

/// Most time ASE gets when it runs for a certificate's abstract states (the
/// verdict stands uncertified when it does not prove the program in time;
/// on the SV-COMP tasks such runs either succeed within 4 s or not at all
/// within the minute).
const ASE_CERTIFICATE_TIME: std::time::Duration = std::time::Duration::from_secs(20);

/// The certification of a checked certificate.
fn finish(
    certificate: Certificate,
    report: check::Report,
    start: std::time::Instant,
    kind: &'static str,
    program: &Program,
) -> Certification {
    let status = match &report.result {
        Ok(()) => Status::Certified,
        Err(f) if f.is_refutation() => Status::Refuted(f.describe(program)),
        Err(f) => Status::NotCertified(f.describe(program)),
    };
    Certification {
        certificate: Some(certificate),
        report: Some(report),
        status,
        time: start.elapsed(),
        kind,
    }
}
