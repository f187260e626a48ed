//! The engines a check can run, and running one of them on a program.

use crate::schedule::SCHEDULE;
use engine::ir::{Cond, Program};
use engine::portfolio::Found;
use std::time::Instant;

/// The checking algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// C: the portfolio ([`engine::portfolio`]) with the shares of
    /// [`SCHEDULE`]; `.gc`: ASE.
    Auto,
    /// Abstract Analysis of Symbolic Executions.
    Ase,
    /// Under-approximation refinement.
    Ur,
    /// The bounded explicit search: finds bugs, never proves safety.
    Explicit,
    /// Bounded model checking: finds bugs, never proves safety.
    Bmc,
    /// The invariant inference: proves safety, never finds bugs.
    Infer,
    /// Counter-example guided program verification: slices of the program
    /// checked by the back-end of [`EngineOptions::backend`].
    Cegpv,
    /// MAGIC's two-level compositional abstraction refinement
    /// ([`engine::magic`]).
    Magic,
}

/// What the engines are given besides the budgets.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// The value bound of the explicit search.
    pub bound: i64,
    /// The depth limit of bounded model checking.
    pub depth: Option<usize>,
    /// Engines run at the same time by the portfolio.
    pub jobs: usize,
    /// Whether the explicit search is partial-order reduced.
    pub partial_order: bool,
    /// The back-end of [`Engine::Cegpv`] (any other engine).
    pub backend: Engine,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            bound: 10,
            depth: None,
            jobs: default_jobs(),
            partial_order: true,
            backend: Engine::Auto,
        }
    }
}

/// Engines run at the same time unless asked otherwise: the machine's
/// cores, at most 2 (two engines at a time; the portfolio's third, bounded
/// model checking, shares the cores).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(2))
}

/// States the explicit search explores at most unless the budget says.
const EXPLICIT_DEFAULT_MAX_STATES: u64 = 2_000_000;

/// States the exhaustive search of the portfolio explores at most unless
/// the budget says (about 1 GB for programs of a few hundred variables).
const AUTO_EXPLICIT_MAX_STATES: u64 = 1_000_000;

/// Runs `engine` on `program` within `budget`. `target`: the error states
/// that are bugs (C: `reach_error()` called, not a give-up location;
/// `None`: every error state). `want_proof`: the portfolio also returns
/// ASE's abstract states of a proof (for invariants and witnesses).
/// `exact`: the model bounded model checking searches instead
/// ([`engine::portfolio::Config::exact`]; `Engine::Auto` only).
pub fn run(
    engine: Engine,
    program: &Program,
    budget: &engine::ase::Config,
    options: &EngineOptions,
    target: Option<Cond>,
    want_proof: bool,
    exact: Option<std::sync::Arc<engine::portfolio::Exact>>,
) -> Found {
    let deadline = budget.timeout.map(|t| Instant::now() + t);
    let bmc_bounds = engine::bmc::Bounds {
        max_depth: options.depth.unwrap_or(engine::bmc::DEFAULT_MAX_DEPTH),
    };
    let plain = |outcome| Found {
        outcome,
        proof: None,
        reachable: None,
        invariants: None,
        exact: false,
    };
    let explicit_bounds = engine::explicit::Bounds {
        bound: options.bound,
        max_states: budget.max_states.unwrap_or(EXPLICIT_DEFAULT_MAX_STATES),
        partial_order: options.partial_order,
    };
    let bmc = engine::bmc::Config {
        bounds: bmc_bounds,
        deadline,
        cancel: None,
        target: target.clone(),
    };
    // Only the bug finders take arrays: the explicit search, then bounded
    // model checking.
    if engine == Engine::Auto && program.has_arrays() {
        let share = SCHEDULE.portfolio.arrays_explicit;
        return plain(engine::portfolio::search_bugs(
            program,
            &explicit_bounds,
            &bmc,
            share,
        ));
    }
    match engine {
        Engine::Auto => {
            let config = engine::portfolio::Config {
                ase: *budget,
                explicit: engine::explicit::Bounds {
                    bound: options.bound,
                    max_states: budget.max_states.unwrap_or(AUTO_EXPLICIT_MAX_STATES),
                    partial_order: options.partial_order,
                },
                bmc: bmc_bounds,
                target,
                jobs: options.jobs,
                want_proof,
                shares: SCHEDULE.portfolio,
                exact,
            };
            engine::portfolio::run(program, &config)
        }
        Engine::Ase | Engine::Ur => {
            let (outcome, proof) = if engine == Engine::Ase {
                engine::ase::check_with_proof(program, budget)
            } else {
                engine::ur::check_with_proof(program, budget)
            };
            Found {
                proof,
                ..plain(outcome)
            }
        }
        Engine::Infer => {
            let inferred = engine::infer::prove(program, deadline, None);
            Found {
                invariants: inferred.invariants,
                ..plain(inferred.outcome)
            }
        }
        Engine::Bmc => plain(engine::bmc::check(program, &bmc)),
        Engine::Explicit if program.has_arrays() => plain(engine::explicit::check_arrays(
            program,
            &explicit_bounds,
            deadline,
            target.as_ref(),
            None,
        )),
        Engine::Explicit => plain(engine::explicit::check(program, &explicit_bounds, deadline)),
        Engine::Magic => {
            let found = engine::magic::check(program, &engine::magic::Config { deadline });
            Found {
                invariants: found.invariants,
                ..plain(found.outcome)
            }
        }
        Engine::Cegpv => {
            let config = engine::cegpv::Config { deadline, target };
            // A back-end of CEGPV is not CEGPV again.
            let backend = match options.backend {
                Engine::Cegpv => Engine::Auto,
                e => e,
            };
            engine::cegpv::check(program, &config, &mut |slice, target, deadline| {
                let budget = engine::ase::Config {
                    timeout: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                    ..*budget
                };
                run(backend, slice, &budget, options, target, want_proof, None)
            })
        }
    }
}
