//! The options shared by the subcommands, and the exit codes.

use clap::ValueEnum;

/// Exit code of a safe verdict.
pub const EXIT_SAFE: u8 = 0;
/// Exit code of an unsafe verdict.
pub const EXIT_UNSAFE: u8 = 1;
/// Exit code of a bad invocation or invalid input.
pub const EXIT_INVALID: u8 = 2;
/// Exit code of an unknown verdict.
pub const EXIT_UNKNOWN: u8 = 3;

/// Output format of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// One JSON object (several files: an array of them).
    Json,
    /// A SARIF 2.1.0 log, for code-scanning tools: a result per file that
    /// is not safe, error traces as code flows.
    Sarif,
}

/// Budgets shared by the subcommands.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Limits {
    /// Wall-clock limit in seconds, from the start (C input: preprocessing and
    /// lowering included); the verdict is `unknown` when it runs out.
    #[arg(long, value_name = "SECONDS", default_value_t = 900.0)]
    pub timeout: f64,
    /// Maximal number of abstraction-refinement iterations.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_iterations: Option<u32>,
    /// Maximal number of symbolic states in one iteration.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_states: Option<u64>,
}

/// The checking algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineKind {
    /// Abstract Analysis of Symbolic Executions (the verifier).
    Ase,
    /// Under-approximation refinement (Pasareanu, Pelánek, Visser): one
    /// concrete initial state, no inputs.
    Ur,
}

impl From<EngineKind> for pipeline::models::ModelEngine {
    fn from(e: EngineKind) -> Self {
        match e {
            EngineKind::Ase => pipeline::models::ModelEngine::Ase,
            EngineKind::Ur => pipeline::models::ModelEngine::Ur,
        }
    }
}

/// The algorithm of `ase check`: a verifier, or the bounded explicit search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckEngine {
    /// For C: the exhaustive explicit search (it settles programs with
    /// finitely many reachable states and finds shallow bugs), the
    /// invariant inference, bounded model checking (bugs that need
    /// particular input values) and ASE, side by side with `--jobs 2`, else
    /// one after the other (ARCHITECTURE.md, "The schedule"). For `.gc`:
    /// ASE.
    Auto,
    /// Abstract Analysis of Symbolic Executions (the verifier).
    Ase,
    /// Under-approximation refinement (one concrete initial state, no
    /// inputs).
    Ur,
    /// Breadth-first search over concrete states with every value and input
    /// in `[-B, B]` (`--bound`): finds bugs, never proves safety.
    Explicit,
    /// Bounded model checking with Z3: error traces of at most `--depth`
    /// steps, inputs symbolic; finds bugs, never proves safety.
    Bmc,
    /// Houdini over candidate linear facts per tuple of thread locations
    /// (bounds, sums and differences, equalities of sampled states): proves
    /// safety, never finds bugs.
    Infer,
    /// Counter-example guided program verification (Abdulla, Atig, Diep):
    /// slices of the program that keep a subset of its variables, checked
    /// by the engine of `--backend`, refined with the spurious
    /// counterexamples.
    Cegpv,
    /// MAGIC's two-level compositional abstraction refinement (Chaki,
    /// Ouaknine, Yorav, Clarke): each thread abstracted by predicates, then
    /// on its actions, the abstractions composed; for threads that share
    /// only variables of finitely many constant values (flags, locks, the
    /// state of a `--spec`).
    Magic,
}

impl From<CheckEngine> for pipeline::Engine {
    fn from(e: CheckEngine) -> Self {
        match e {
            CheckEngine::Auto => pipeline::Engine::Auto,
            CheckEngine::Ase => pipeline::Engine::Ase,
            CheckEngine::Ur => pipeline::Engine::Ur,
            CheckEngine::Explicit => pipeline::Engine::Explicit,
            CheckEngine::Bmc => pipeline::Engine::Bmc,
            CheckEngine::Infer => pipeline::Engine::Infer,
            CheckEngine::Cegpv => pipeline::Engine::Cegpv,
            CheckEngine::Magic => pipeline::Engine::Magic,
        }
    }
}

impl Limits {
    /// The engine configuration.
    pub fn config(&self) -> anyhow::Result<engine::ase::Config> {
        // A year is "no limit" for practical purposes, and keeps deadline
        // arithmetic far from overflow.
        const MAX_TIMEOUT: f64 = 365.0 * 24.0 * 3600.0;
        if !(self.timeout.is_finite() && self.timeout > 0.0 && self.timeout <= MAX_TIMEOUT) {
            anyhow::bail!("--timeout must be a number of seconds in (0, {MAX_TIMEOUT}]");
        }
        Ok(engine::ase::Config {
            timeout: Some(std::time::Duration::from_secs_f64(self.timeout)),
            max_iterations: self.max_iterations,
            max_states: self.max_states,
            cancel: None,
        })
    }
}
