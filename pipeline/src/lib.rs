//! The verification pipeline of `ase`: a program (C or `.gc`) and options
//! in, a [`Report`] out (the verdict, its evidence, its certification and
//! notes), printing nothing.
//!
//! It owns what happens between the front end and the answer: reading a
//! task ([`task`]), loading C ([`input`]), choosing and running engines
//! ([`engines`]) on the time shares of the [`schedule`], the strategy for C
//! programs ([`check`]: give-ups, the counter abstraction of [`counting`],
//! the replay on the unreduced program) and certificates ([`certify`]);
//! and the papers' models as benchmarks ([`models`], [`paper`]).
//! The `ase` binary parses arguments, renders reports, writes files and
//! chooses exit codes.

mod apart;
pub mod certify;
pub mod check;
pub mod counting;
pub mod engines;
pub mod input;
pub mod models;
pub mod paper;
pub mod report;
pub mod schedule;
pub mod subject;
pub mod task;

pub use check::{check_c, check_gc, Options};
pub use engines::{Engine, EngineOptions};
pub use input::{CInput, LoadError};
pub use report::{CReport, Certified, Report};
pub use task::{Job, JobError};
