//! A seeded generator of small random programs, for differential testing.
//!
//! [`random_program`] builds a well-formed [`Program`] directly in the IR:
//! 1–3 threads, 2–4 variables, a few locations and transitions per thread,
//! guards and updates from a small linear grammar (variables, small
//! constants, `+`, `-`, small multiples, comparisons, `&&`, `||`, `!`),
//! some nondeterministic inputs and unconstrained initial values, sometimes
//! an `init` constraint, and an error predicate over variables and
//! locations. The programs are what the parser would produce from their
//! printed form (locations in order of first appearance, generated labels
//! `THREAD.N`, an empty source map), so a failing program can be saved as a
//! `.gc` file with [`print_program`](crate::print::print_program) and read
//! back unchanged.
//!
//! The same seed and configuration always give the same program (the
//! generator uses its own SplitMix64 stream, independent of platform and
//! library versions).

use crate::interp::{eval_cond, step, State};
use crate::ir::{
    Assign, CmpOp, Cond, LocId, Program, Rhs, Term, Thread, ThreadId, TransId, Transition, VarDecl,
    VarId,
};

/// The shape of generated programs. The defaults keep the state space small
/// enough for a bounded explicit search at bound 10 to be quick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Threads per program: 1 to this many (at most 3).
    pub max_threads: usize,
    /// Fewest variables (at least 1).
    pub min_vars: usize,
    /// Most variables (at most 4).
    pub max_vars: usize,
    /// Fewest locations a thread may use (at least 1).
    pub min_locs: usize,
    /// Most locations a thread may use (at most 10; named `"0"`, `"1"`, ...).
    pub max_locs: usize,
    /// Transitions per thread: 1 to this many.
    pub max_transitions: usize,
    /// Constants lie in `[-max_const, max_const]`.
    pub max_const: i64,
    /// Percentage of assignments that read an input (`x := *`).
    pub input_percent: u32,
    /// Most transitions with inputs in one program.
    pub max_input_transitions: usize,
    /// Percentage of variables without a declared initial value.
    pub unconstrained_percent: u32,
    /// Most variables without a declared initial value.
    pub max_unconstrained: usize,
    /// Percentage of programs with unconstrained variables that get an
    /// `init` constraint.
    pub init_percent: u32,
    /// Percentage of guards that also test another thread's location
    /// (`q@L && ...`); 0 keeps guards over variables only.
    pub location_guard_percent: u32,
    /// Percentage of *closed* programs: every variable initialised and no
    /// inputs (one initial state, deterministic transitions), the fragment
    /// that checkers such as UR handle.
    pub closed_percent: u32,
    /// Error predicates are mostly chosen false in every state this many
    /// steps from the start (with unconstrained values and inputs 0), so
    /// that most bugs lie deeper.
    pub shallow_error_depth: usize,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            max_threads: 3,
            min_vars: 2,
            max_vars: 4,
            min_locs: 2,
            max_locs: 5,
            max_transitions: 5,
            max_const: 3,
            input_percent: 15,
            max_input_transitions: 2,
            unconstrained_percent: 30,
            max_unconstrained: 2,
            init_percent: 40,
            location_guard_percent: 5,
            closed_percent: 30,
            shallow_error_depth: 2,
        }
    }
}

const VAR_NAMES: [&str; 4] = ["x", "y", "z", "w"];
const THREAD_NAMES: [&str; 3] = ["p1", "p2", "p3"];
const MAX_LOCS: usize = 10;

/// SplitMix64: a tiny, well-mixed, seedable generator (also for the
/// test programs of other crates).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next() % n as u64) as usize
    }

    /// A number in `lo..=hi` (`lo` when the range is empty).
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// An integer in `[-k, k]`.
    fn int(&mut self, k: i64) -> i64 {
        let k = k.clamp(0, 1 << 40);
        self.below((2 * k + 1) as usize) as i64 - k
    }

    /// True with the given percentage.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// One of the items (they must not be empty).
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// The generator's state for one program.
struct Gen<'a> {
    rng: Rng,
    config: &'a GenConfig,
    nvars: usize,
}

impl Gen<'_> {
    fn var(&mut self) -> VarId {
        VarId::new(self.rng.below(self.nvars))
    }

    fn constant(&mut self) -> Term {
        Term::Const(self.rng.int(self.config.max_const))
    }

    fn leaf(&mut self) -> Term {
        if self.rng.chance(70) {
            Term::Var(self.var())
        } else {
            self.constant()
        }
    }

    /// A small linear term.
    fn term(&mut self, depth: u32) -> Term {
        if depth == 0 || self.rng.chance(50) {
            return self.leaf();
        }
        match self.rng.below(5) {
            0 | 1 => Term::Add(
                Box::new(self.term(depth - 1)),
                Box::new(self.term(depth - 1)),
            ),
            2 => Term::Sub(
                Box::new(self.term(depth - 1)),
                Box::new(self.term(depth - 1)),
            ),
            3 => {
                let k = self.rng.pick(&[2, 2, 3, -1]);
                Term::Mul(k, Box::new(self.leaf()))
            }
            _ => Term::Neg(Box::new(self.leaf())),
        }
    }

    /// The right-hand side of `v := ...`: mostly the shapes programs use
    /// (counters, copies, constants), sometimes any small term.
    fn update(&mut self, v: VarId) -> Term {
        let small = |g: &mut Self| {
            let k = g.config.max_const.clamp(1, 2);
            let c = g.rng.int(k);
            if c == 0 {
                1
            } else {
                c
            }
        };
        match self.rng.below(6) {
            0 | 1 => {
                // `v + 1` or `v - 1`, as written by hand.
                let c = small(self);
                let op = if c < 0 { Term::Sub } else { Term::Add };
                op(Box::new(Term::Var(v)), Box::new(Term::Const(c.abs())))
            }
            2 => Term::Var(self.var()),
            3 => self.constant(),
            4 => Term::Add(Box::new(Term::Var(v)), Box::new(Term::Var(self.var()))),
            _ => self.term(2),
        }
    }

    fn cmp_op(&mut self) -> CmpOp {
        self.rng.pick(&CmpOp::ALL)
    }

    /// A comparison: a variable against a constant or another variable,
    /// or two small terms.
    fn atom(&mut self) -> Cond {
        let op = self.cmp_op();
        match self.rng.below(4) {
            0 | 1 => Cond::Cmp(op, Term::Var(self.var()), self.constant()),
            2 => {
                // Two different variables (`x < x` is too easy).
                let a = self.var();
                let b = VarId::new(
                    (a.index() + 1 + self.rng.below(self.nvars.max(2) - 1)) % self.nvars,
                );
                Cond::Cmp(op, Term::Var(a), Term::Var(b))
            }
            _ => Cond::Cmp(op, self.term(1), self.term(1)),
        }
    }

    /// A condition over variables.
    fn cond(&mut self, depth: u32) -> Cond {
        if depth == 0 || self.rng.chance(55) {
            return self.atom();
        }
        match self.rng.below(5) {
            0 | 1 => Cond::And(
                Box::new(self.cond(depth - 1)),
                Box::new(self.cond(depth - 1)),
            ),
            2 | 3 => Cond::Or(
                Box::new(self.cond(depth - 1)),
                Box::new(self.cond(depth - 1)),
            ),
            _ => Cond::Not(Box::new(self.cond(depth - 1))),
        }
    }

    /// A location condition `t@L` for one of the thread's own locations,
    /// mostly not the initial one (which would make an error predicate
    /// hold at once).
    fn at(&mut self, threads: &[Thread], t: usize) -> Cond {
        let n = threads[t].locs.len();
        let l = if n > 1 && self.rng.chance(85) {
            1 + self.rng.below(n - 1)
        } else {
            self.rng.below(n)
        };
        Cond::At(ThreadId::new(t), LocId::new(l))
    }

    /// One error predicate.
    fn error(&mut self, threads: &[Thread]) -> Cond {
        let t = self.rng.below(threads.len());
        match self.rng.below(20) {
            0..=7 => self.cond(1),
            8..=14 => Cond::And(Box::new(self.at(threads, t)), Box::new(self.cond(1))),
            15..=17 if threads.len() > 1 => {
                let u = (t + 1 + self.rng.below(threads.len() - 1)) % threads.len();
                Cond::And(Box::new(self.at(threads, t)), Box::new(self.at(threads, u)))
            }
            _ => self.at(threads, t),
        }
    }
}

/// A raw transition of one thread, before location ids are assigned.
struct RawTransition {
    from: usize,
    to: usize,
    guard: Cond,
    /// A location test on another thread, added once all locations are known.
    location_guard: Option<usize>,
    assigns: Vec<Assign>,
}

/// Builds a random program from the seed. Deterministic: the same seed and
/// configuration give the same program.
pub fn random_program(seed: u64, config: &GenConfig) -> Program {
    let mut g = Gen {
        rng: Rng(seed ^ 0x2545_f491_4f6c_dd1d),
        config,
        nvars: 0,
    };
    let max_vars = config.max_vars.clamp(1, VAR_NAMES.len());
    g.nvars = g.rng.range(config.min_vars.clamp(1, max_vars), max_vars);
    let nthreads = g
        .rng
        .range(1, config.max_threads.clamp(1, THREAD_NAMES.len()));
    let closed = g.rng.chance(config.closed_percent);
    let (max_unconstrained, max_input_transitions) = if closed {
        (0, 0)
    } else {
        (config.max_unconstrained, config.max_input_transitions)
    };

    // Variables: most start at a small declared value.
    let mut unconstrained = 0;
    let mut vars = Vec::with_capacity(g.nvars);
    for name in VAR_NAMES.iter().take(g.nvars) {
        let init =
            if unconstrained < max_unconstrained && g.rng.chance(config.unconstrained_percent) {
                unconstrained += 1;
                None
            } else if g.rng.chance(60) {
                Some(0)
            } else {
                Some(g.rng.int(config.max_const.clamp(0, 2)))
            };
        vars.push(VarDecl {
            name: (*name).to_string(),
            init,
        });
    }
    let mut init = Vec::new();
    if unconstrained > 0 && g.rng.chance(config.init_percent) {
        init.push(g.cond(1));
    }

    // Threads: transitions leave locations already reached by the thread's
    // earlier transitions (so most of them can fire) and go anywhere.
    let max_locs = config.max_locs.clamp(1, MAX_LOCS);
    let mut input_transitions = 0;
    let mut raw_threads: Vec<Vec<RawTransition>> = Vec::with_capacity(nthreads);
    for t in 0..nthreads {
        let nlocs = g.rng.range(config.min_locs.clamp(1, max_locs), max_locs);
        let ntrans = g.rng.range(1, config.max_transitions.max(1));
        let mut seen = vec![0usize];
        let mut raw = Vec::with_capacity(ntrans);
        for _ in 0..ntrans {
            let from = g.rng.pick(&seen);
            let to = g.rng.below(nlocs);
            if !seen.contains(&to) {
                seen.push(to);
            }
            let guard = if g.rng.chance(35) {
                Cond::True
            } else {
                g.cond(2)
            };
            let location_guard = (nthreads > 1 && g.rng.chance(config.location_guard_percent))
                .then(|| (t + 1 + g.rng.below(nthreads - 1)) % nthreads);
            let nassigns = g.rng.pick(&[0, 1, 1, 2]).min(g.nvars);
            let mut assigns: Vec<Assign> = Vec::with_capacity(nassigns);
            let mut has_input = false;
            while assigns.len() < nassigns {
                let var = g.var();
                if assigns.iter().any(|a| a.var == var) {
                    continue;
                }
                let rhs = if (has_input || input_transitions < max_input_transitions)
                    && g.rng.chance(config.input_percent)
                {
                    if !has_input {
                        has_input = true;
                        input_transitions += 1;
                    }
                    Rhs::Nondet
                } else {
                    Rhs::Expr(g.update(var))
                };
                assigns.push(Assign { var, rhs });
            }
            raw.push(RawTransition {
                from,
                to,
                guard,
                location_guard,
                assigns,
            });
        }
        raw_threads.push(raw);
    }

    // Location ids in order of first appearance (the initial location "0"
    // first, then the endpoints of the transitions), as the parser numbers
    // them.
    let mut threads = Vec::with_capacity(nthreads);
    let mut loc_ids: Vec<Vec<Option<LocId>>> = Vec::with_capacity(nthreads);
    for (t, raw) in raw_threads.iter().enumerate() {
        let mut ids = vec![None; max_locs];
        let mut locs = Vec::new();
        for l in std::iter::once(0).chain(raw.iter().flat_map(|r| [r.from, r.to])) {
            if ids[l].is_none() {
                ids[l] = Some(LocId::new(locs.len()));
                locs.push(l.to_string());
            }
        }
        threads.push(Thread {
            name: THREAD_NAMES[t].to_string(),
            locs,
            initial: LocId::new(0),
            transitions: Vec::new(),
        });
        loc_ids.push(ids);
    }

    let mut transitions = Vec::new();
    for (t, raw) in raw_threads.into_iter().enumerate() {
        for (n, r) in raw.into_iter().enumerate() {
            let id = TransId::new(transitions.len());
            let mut guard = r.guard;
            if let Some(u) = r.location_guard {
                let at = g.at(&threads, u);
                guard = match guard {
                    Cond::True => at,
                    other => Cond::And(Box::new(at), Box::new(other)),
                };
            }
            transitions.push(Transition {
                thread: ThreadId::new(t),
                label: format!("{}.{}", THREAD_NAMES[t], n + 1),
                explicit_label: false,
                from: loc_ids[t][r.from].unwrap_or(LocId::new(0)),
                to: loc_ids[t][r.to].unwrap_or(LocId::new(0)),
                guard,
                assigns: r.assigns,
                stores: Vec::new(),
            });
            threads[t].transitions.push(id);
        }
    }

    let mut program = Program {
        vars,
        arrays: Vec::new(),
        init,
        threads,
        transitions,
        error: Vec::new(),
        source_map: Default::default(),
    };

    // Error predicates, mostly false in the states a few steps from the
    // start (unconstrained variables and inputs taken as 0): a bug every
    // checker finds at once tests little.
    let shallow = shallow_states(&program, config.shallow_error_depth);
    let nerrors = if g.rng.chance(80) { 1 } else { 2 };
    for _ in 0..nerrors {
        let mut c = g.error(&program.threads);
        for _ in 0..8 {
            let hit = shallow.iter().any(|s| eval_cond(&c, s) != Ok(false));
            if !hit || g.rng.chance(10) {
                break;
            }
            c = g.error(&program.threads);
        }
        program.error.push(c);
    }
    program
}

/// The states reachable in at most `depth` steps from the initial state in
/// which every unconstrained variable is 0, with every input 0 (at most a
/// few hundred).
fn shallow_states(p: &Program, depth: usize) -> Vec<State> {
    const MAX: usize = 500;
    let mut states = vec![State {
        locs: p.threads.iter().map(|t| t.initial).collect(),
        vals: p
            .vars
            .iter()
            .map(|v| v.init.map_or(0, i128::from))
            .collect(),
        arrays: Vec::new(),
    }];
    let mut frontier = 0..1;
    for _ in 0..depth {
        let end = states.len();
        for i in frontier {
            for (t, tr) in p.transitions.iter().enumerate() {
                let inputs: Vec<(VarId, i128)> = tr
                    .assigns
                    .iter()
                    .filter(|a| a.rhs == Rhs::Nondet)
                    .map(|a| (a.var, 0))
                    .collect();
                if let Ok(next) = step(p, &states[i], TransId::new(t), &inputs) {
                    if states.len() < MAX && !states.contains(&next) {
                        states.push(next);
                    }
                }
            }
        }
        frontier = end..states.len();
    }
    states
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::SourceMap;
    use crate::parse::parse_program;
    use crate::print::print_program;

    #[test]
    fn round_trips_through_text() {
        let configs = [
            GenConfig::default(),
            GenConfig {
                max_const: 6,
                max_locs: 10,
                max_transitions: 8,
                input_percent: 40,
                max_input_transitions: 3,
                location_guard_percent: 50,
                shallow_error_depth: 4,
                ..GenConfig::default()
            },
        ];
        for (config, seed) in configs.iter().flat_map(|c| (0..1000).map(move |s| (c, s))) {
            let p = random_program(seed, config);
            let text = print_program(&p);
            let mut q = match parse_program(&text) {
                Ok(q) => q,
                Err(errs) => panic!("seed {seed}: does not parse:\n{text}\n{errs:#?}"),
            };
            q.source_map = SourceMap::default();
            assert_eq!(q, p, "seed {seed}: round trip changed\n{text}");
        }
    }

    #[test]
    fn deterministic_and_varied() {
        let config = GenConfig::default();
        assert_eq!(random_program(7, &config), random_program(7, &config));
        let texts: std::collections::HashSet<String> = (0..200)
            .map(|s| print_program(&random_program(s, &config)))
            .collect();
        assert!(texts.len() > 190);
    }

    #[test]
    fn respects_the_shape() {
        let config = GenConfig::default();
        let (mut inputs, mut unconstrained, mut init, mut loc_guards) = (0, 0, 0, 0);
        for seed in 0..2000 {
            let p = random_program(seed, &config);
            assert!((1..=3).contains(&p.threads.len()));
            assert!((2..=4).contains(&p.vars.len()));
            assert!(!p.error.is_empty());
            let free = p.vars.iter().filter(|v| v.init.is_none()).count();
            assert!(free <= config.max_unconstrained);
            unconstrained += free;
            init += p.init.len();
            let with_inputs = p
                .transitions
                .iter()
                .filter(|t| t.assigns.iter().any(|a| a.rhs == Rhs::Nondet))
                .count();
            assert!(with_inputs <= config.max_input_transitions);
            inputs += with_inputs;
            for t in &p.threads {
                assert!((1..=5).contains(&t.transitions.len()));
                assert!(t.locs.len() <= 5);
                assert_eq!(t.locs[0], "0");
            }
            for t in &p.transitions {
                let mut vars: Vec<_> = t.assigns.iter().map(|a| a.var).collect();
                vars.sort();
                vars.dedup();
                assert_eq!(vars.len(), t.assigns.len());
                assert!(t.assigns.len() <= 2);
                if t.guard.mentions_locations() {
                    loc_guards += 1;
                }
            }
        }
        assert!(inputs > 200, "{inputs}");
        assert!(unconstrained > 200, "{unconstrained}");
        assert!(init > 100, "{init}");
        assert!(loc_guards > 20, "{loc_guards}");
    }

    #[test]
    fn options_are_honoured() {
        let config = GenConfig {
            max_threads: 1,
            min_vars: 1,
            max_vars: 1,
            input_percent: 0,
            unconstrained_percent: 0,
            location_guard_percent: 0,
            ..GenConfig::default()
        };
        for seed in 0..300 {
            let p = random_program(seed, &config);
            assert_eq!(p.threads.len(), 1);
            assert_eq!(p.vars.len(), 1);
            assert!(!p.has_inputs());
            assert!(p.vars[0].init.is_some());
            assert!(p.init.is_empty());
        }
    }
}
