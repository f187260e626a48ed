//! The verification engine of `ase`: the guarded-command IR, its text form
//! (`.gc`), a concrete interpreter, and the ASE checker.
#![warn(missing_docs)]

pub mod ase;
pub mod bmc;
pub mod cegpv;
pub mod certify;
pub mod explicit;
pub mod generate;
pub mod infer;
pub mod interp;
pub mod interval;
pub mod ir;
pub mod linear;
pub mod liveness;
pub mod magic;
pub mod memory;
pub mod parse;
pub mod por;
pub mod portfolio;
pub mod print;
pub mod ranges;
pub mod saturate;
pub mod schedule;
pub mod smt;
pub mod solo;
pub mod ur;
pub mod verdict;
