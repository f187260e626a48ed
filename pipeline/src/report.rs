//! What a check returns: the verdict with its statistics, the evidence
//! behind it, its certification, and notes. Printing nothing.

use engine::certify::Certification;
use engine::ir::Program;
use engine::verdict::{Outcome, ProofStates};
use frontend::ParsedUnit;
use lowering::Lowered;

/// The result of checking one program for one property.
#[derive(Debug)]
pub struct Report {
    /// The verdict and the engines' statistics.
    pub outcome: Outcome,
    /// ASE's abstract states of a proof (invariants, correctness
    /// witnesses), when ASE proved the program.
    pub proof: Option<ProofStates>,
    /// The certification of a safe verdict (`None`: not safe, or not
    /// asked for).
    pub certified: Option<Certified>,
    /// For an unsafe verdict of the reduced C program: the length of its
    /// trace replayed on the program without the reduction.
    pub unreduced_steps: Option<usize>,
    /// Notes for the user (how the verdict was reached).
    pub notes: Vec<String>,
}

impl Report {
    /// A report of an outcome alone.
    pub fn of(outcome: Outcome) -> Report {
        Report {
            outcome,
            proof: None,
            certified: None,
            unreduced_steps: None,
            notes: Vec::new(),
        }
    }
}

/// A certification and the program it is about.
#[derive(Debug)]
pub struct Certified {
    /// The certificate (when one was built) and the checker's answer.
    pub certification: Certification,
    /// The program the certificate is an invariant of: the checked
    /// program, or the counter system of a C program that creates threads
    /// in loops.
    pub program: Program,
    /// Whether `program` is a counter system (its certificate then says
    /// nothing of the C program's own variables and locations).
    pub counter_system: bool,
}

/// The result of checking a C program.
#[derive(Debug)]
pub struct CReport {
    /// The verdict and its evidence.
    pub report: Report,
    /// The parsed program.
    pub unit: ParsedUnit,
    /// The lowered program the verdict is about.
    pub lowered: Lowered,
}
