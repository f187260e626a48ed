//! SV-COMP support of `ase`: task-definition files ([`task`]), property files
//! ([`property`]), task sets ([`taskset`]), scores ([`score`]), benchmark
//! results and reports ([`report`], [`plot`]) and the benchmark runner
//! ([`runner`]), which checks every task in its own `ase check` process.

pub mod plot;
pub mod property;
pub mod report;
pub mod runner;
pub mod score;
pub mod task;
pub mod taskset;
