//! Bounded explicit-state search: a test oracle and a quick bug finder,
//! never a verifier.
//!
//! Breadth-first search over concrete states ([`State`]) in which every
//! variable value and every input lies in `[-B, B]`:
//!
//! - the initial states are all combinations of the unconstrained variables
//!   in `[-B, B]` (declared initial values as declared) that satisfy the
//!   `init` constraints; they are enumerated lazily, so a huge product only
//!   costs the states actually visited;
//! - `x := *` ranges over `[-B, B]`;
//! - a successor with a variable outside `[-B, B]` is discarded, and so is a
//!   successor whose computation overflows.
//!
//! The effective bound is `max(B, |v|)` over the declared initial values
//! `v`, so that a program whose declarations lie outside `[-B, B]` is not
//! cut off at its very first step.
//!
//! An error state found is turned into a [`Trace`] by the interpreter
//! ([`Trace::execute`]), so an `unsafe` answer is always real; breadth-first
//! order makes the trace a shortest one within the bound. Without an error
//! the answer is `unknown` (the bound, a state limit or the deadline cut the
//! search): bounded search cannot prove a program safe.

pub(crate) mod arrays;
mod errors;
pub(crate) mod lazy;

use crate::interp::{self, RunError, State};
use crate::ir::{CmpOp, Cond, LocId, Program, Rhs, Term, TransId, VarId};
use crate::por::PersistentSets;
use crate::saturate::Saturation;
use crate::verdict::{Limit, Outcome, Proof, Stats, Trace, Unknown, UnknownKind, Verdict};
use std::time::Instant;

/// The limits of one bounded search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Every variable value and every input lies in `[-bound, bound]`.
    pub bound: i64,
    /// The search stops with `unknown` after visiting this many states.
    pub max_states: u64,
    /// Expand persistent sets instead of every transition where the
    /// partial-order reduction allows it ([`crate::por`]); not with
    /// saturated counters.
    pub partial_order: bool,
}

/// Why an exhaustive search could not prove safety.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    /// An input or unconstrained initial value was only tried in the bound.
    Input,
    /// A successor overflowed the interpreter's arithmetic.
    Overflow,
}

pub use lazy::is_lazy;

/// The value of a variable whose input or initial value was not chosen yet
/// (a *lazy* value, [`lazy`]): a symbol standing for every value of its
/// domain, chosen when a transition needs it. A value nobody reads is
/// never enumerated, and is no cut: the proof holds for every value. This
/// one (symbol 0, any integer) marks a lazy input of a step in a
/// [`Parent`].
pub const UNDEF: i128 = i128::MIN;

/// How often (in visited states) the deadline is checked.
const DEADLINE_EVERY: u64 = 1000;

/// Advances `digits` to the next combination, digit `i` ranging over the
/// `i`-th range `(lo, hi)` (the first digit turning fastest); `false`
/// after the last combination (every digit back at its `lo`).
fn odometer<'d>(
    digits: impl Iterator<Item = &'d mut i128>,
    ranges: impl Iterator<Item = (i128, i128)>,
) -> bool {
    for (x, (lo, hi)) in digits.zip(ranges) {
        if *x < hi {
            *x += 1;
            return true;
        }
        *x = lo;
    }
    false
}

/// The visited states in the order of their discovery: a state's index is
/// its node id (each key is stored once).
type FxIndexSet<K> =
    indexmap::IndexSet<K, std::hash::BuildHasherDefault<crate::ase::hash::FxHasher>>;

/// A visited state as stored: packed into one integer when it fits (one
/// byte per location and per value), else in full.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Packed(u128),
    /// Zigzag varints of the locations and values: small values, as most
    /// are, take one byte.
    Bytes(Box<[u8]>),
}

/// An unsigned LEB128 varint: seven bits per byte, low bits first.
fn put_unsigned(out: &mut Vec<u8>, mut z: u128) {
    loop {
        let byte = (z & 0x7f) as u8;
        z >>= 7;
        if z == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn get_unsigned(bytes: &[u8], at: &mut usize) -> u128 {
    let mut z: u128 = 0;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        z |= u128::from(b & 0x7f) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            break;
        }
    }
    z
}

/// A value as a varint: code 0 and then the lazy value's domain and
/// symbol for a lazy value, else its zigzag code plus one (`i128::MIN`,
/// whose zigzag code is the largest, is lazy).
fn put_value(out: &mut Vec<u8>, v: i128) {
    if is_lazy(v) {
        out.push(0);
        put_unsigned(out, (v - i128::MIN) as u128);
        return;
    }
    put_unsigned(out, ((v << 1) ^ (v >> 127)) as u128 + 1);
}

fn get_value(bytes: &[u8], at: &mut usize) -> i128 {
    let z = get_unsigned(bytes, at);
    if z == 0 {
        return i128::MIN + get_unsigned(bytes, at) as i128;
    }
    let z = z - 1;
    ((z >> 1) as i128) ^ -((z & 1) as i128)
}

fn to_bytes(s: &State) -> Box<[u8]> {
    let mut out = Vec::with_capacity(s.locs.len() + s.vals.len());
    for l in &s.locs {
        put_unsigned(&mut out, u128::from(l.0));
    }
    for v in &s.vals {
        put_value(&mut out, *v);
    }
    out.into_boxed_slice()
}

fn from_bytes(bytes: &[u8], threads: usize, vars: usize) -> State {
    let mut at = 0;
    let locs = (0..threads)
        .map(|_| LocId(get_unsigned(bytes, &mut at) as u32))
        .collect();
    let vals = (0..vars).map(|_| get_value(bytes, &mut at)).collect();
    State {
        locs,
        vals,
        arrays: Vec::new(),
    }
}

/// How states are packed into [`Key::Packed`], if they can be.
#[derive(Clone, Copy)]
struct Packing {
    threads: usize,
    vars: usize,
}

impl Packing {
    /// Packing works when every location id and every value in the bound
    /// fits in a byte, and all of them in 128 bits.
    fn new(program: &Program, bound: i128) -> Option<Packing> {
        let fits = bound <= 126
            && program.threads.len() + program.vars.len() <= 16
            && program.threads.iter().all(|t| t.locs.len() <= 256);
        fits.then_some(Packing {
            threads: program.threads.len(),
            vars: program.vars.len(),
        })
    }

    /// The key of a state within the bound, unless a lazy value other
    /// than symbols 0 and 1 with any value is in it.
    fn pack(self, s: &State) -> Option<u128> {
        let mut key = 0u128;
        for l in &s.locs {
            key = (key << 8) | u128::from(l.0 as u8);
        }
        for v in &s.vals {
            // Values lie in [-126, 126]: -128 and -127 are free for the
            // two lazy values.
            let byte = if is_lazy(*v) {
                if *v - i128::MIN > 1 {
                    return None;
                }
                (i128::from(i8::MIN) + (*v - i128::MIN)) as i8
            } else {
                *v as i8
            };
            key = (key << 8) | u128::from(byte as u8);
        }
        Some(key)
    }

    fn unpack(self, mut key: u128) -> State {
        let mut vals = vec![0i128; self.vars];
        for v in vals.iter_mut().rev() {
            *v = match (key & 0xff) as u8 as i8 {
                b @ (-128 | -127) => i128::MIN + (i128::from(b) + 128),
                b => i128::from(b),
            };
            key >>= 8;
        }
        let mut locs = vec![LocId(0); self.threads];
        for l in locs.iter_mut().rev() {
            *l = LocId(u32::from((key & 0xff) as u8));
            key >>= 8;
        }
        State {
            locs,
            vals,
            arrays: Vec::new(),
        }
    }
}

/// How a state was first reached: the predecessor (its node id, the index
/// of its key in the visited set), the transition taken, its inputs (a
/// lazy value for a lazy one), and what it decided of the lazy values it
/// read.
#[derive(Clone)]
struct Parent {
    from: usize,
    transition: TransId,
    inputs: Vec<(VarId, i128)>,
    chosen: Option<Box<[Choice]>>,
}

/// What a step decided of a lazy value, named by a variable that holds it
/// in the step's source state.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// Its symbol took this value.
    Value(VarId, i128),
    /// Its symbol's domain was narrowed to this one ([`lazy::Table`]).
    Narrowed(VarId, u32),
}

/// Why the search stopped early.
enum Stop {
    /// The state limit ([`Bounds::max_states`]).
    States,
    /// The process reached its memory budget ([`crate::memory`]).
    Memory,
    /// The deadline.
    Time,
}

/// The search state shared by the initial-state enumeration and the
/// breadth-first exploration.
struct Search<'a> {
    program: &'a Program,
    bound: i128,
    packing: Option<Packing>,
    max_states: u64,
    deadline: Option<Instant>,
    /// The visited states; a state's index is its node id.
    visited: FxIndexSet<Key>,
    /// Per node: the predecessor (node id), the transition taken and its
    /// inputs; `None` for initial states.
    parents: Vec<Option<Parent>>,
    /// Transitions of each thread by source location.
    outgoing: Vec<Vec<Vec<TransId>>>,
    /// Exhaustive mode: values are unbounded, and each input whose range is
    /// known exactly ([`input_ranges`]) takes all values of that range.
    exhaustive: bool,
    /// The exact ranges of inputs, by transition and variable.
    ranges: crate::ase::hash::FxHashMap<(TransId, VarId), (i128, i128)>,
    /// The first reason the exhaustive search missed states, if any.
    cut: Option<Cut>,
    /// Whether a step was taken for the sampled values of a guard only
    /// ([`lazy::Guard::Sampled`]): its successor also stands for values
    /// for which the guard is false, so an error state past it may be
    /// reached by no execution.
    sampled_guard: bool,
    /// Exhaustive mode over saturated counters ([`crate::saturate`]): a
    /// state stands for many, and an error state is only abstract.
    saturation: Option<&'a Saturation>,
    /// The persistent sets, when the search is partial-order reduced.
    por: Option<PersistentSets<'a>>,
    /// The node being expanded.
    expanding: usize,
    /// Whether a successor of the node being expanded was already visited
    /// at or before it (the proviso: the node is then expanded fully).
    back_edge: bool,
    /// Whether a transition expanded from the node being expanded had a
    /// successor within the bound (a persistent set without one is no
    /// reduction: the node is then expanded fully).
    fired: bool,
    /// Per variable: its sampled inputs and free initial value may be lazy
    /// ([`lazy`]), and so may values copied into it: the initial condition
    /// does not read it, and counters are not saturated.
    lazy: Vec<bool>,
    /// The domains of the lazy values.
    domains: lazy::Table,
    /// Per transition: the variables its guard and right-hand sides read.
    reads: Vec<Vec<VarId>>,
    /// Combinations of input values tried: the deadline is also checked
    /// while they yield no new state.
    tries: u64,
    /// The error state found, and what it decided of its lazy values.
    error: Option<(usize, Vec<Choice>)>,
    /// The program's error conditions, prepared for [`Self::error_in`].
    errors: Vec<errors::ErrorCondition<'a>>,
}

impl<'a> Search<'a> {
    fn new(
        program: &'a Program,
        bounds: &Bounds,
        deadline: Option<Instant>,
        exhaustive: bool,
        saturation: Option<&'a Saturation>,
    ) -> Self {
        let declared = program
            .vars
            .iter()
            .filter_map(|v| v.init)
            .map(|v| i128::from(v).abs())
            .max()
            .unwrap_or(0);
        let bound = i128::from(bounds.bound).abs().max(declared);
        let outgoing = program
            .threads
            .iter()
            .map(|t| {
                let mut by_loc: Vec<Vec<TransId>> = vec![Vec::new(); t.locs.len()];
                for &id in &t.transitions {
                    if let Some(list) = by_loc.get_mut(program.transition(id).from.index()) {
                        list.push(id);
                    }
                }
                by_loc
            })
            .collect();
        Search {
            program,
            bound,
            packing: if exhaustive {
                None
            } else {
                Packing::new(program, bound)
            },
            max_states: bounds.max_states,
            deadline,
            visited: FxIndexSet::default(),
            parents: Vec::new(),
            outgoing,
            exhaustive,
            ranges: if exhaustive {
                input_ranges(program)
            } else {
                Default::default()
            },
            cut: None,
            sampled_guard: false,
            saturation,
            por: (bounds.partial_order && saturation.is_none() && program.threads.len() > 1)
                .then(|| PersistentSets::new(program)),
            expanding: 0,
            back_edge: false,
            fired: false,
            tries: 0,
            error: None,
            errors: program
                .error
                .iter()
                .map(errors::ErrorCondition::new)
                .collect(),
            lazy: lazy_variables(program, saturation.is_some()),
            domains: lazy::Table::new(),
            reads: program
                .transitions
                .iter()
                .map(|tr| {
                    let mut r = Vec::new();
                    let mut add = |v: VarId| {
                        if !r.contains(&v) {
                            r.push(v);
                        }
                    };
                    tr.guard.for_each_var(&mut add);
                    for a in &tr.assigns {
                        if let Rhs::Expr(e) = &a.rhs {
                            e.for_each_var(&mut add);
                        }
                    }
                    r
                })
                .collect(),
        }
    }

    fn in_bound(&self, s: &State) -> bool {
        self.exhaustive || s.vals.iter().all(|&v| is_lazy(v) || v.abs() <= self.bound)
    }

    fn note_cut(&mut self, why: Cut) {
        self.cut.get_or_insert(why);
    }

    fn key(&self, s: &State) -> Key {
        match self.packing.and_then(|p| p.pack(s)) {
            Some(k) => Key::Packed(k),
            None => Key::Bytes(to_bytes(s)),
        }
    }

    fn state(&self, id: usize) -> State {
        match (&self.visited[id], self.packing) {
            (Key::Packed(k), Some(p)) => p.unpack(*k),
            (Key::Bytes(b), _) => {
                from_bytes(b, self.program.threads.len(), self.program.vars.len())
            }
            // Keys are packed only when there is a packing.
            (Key::Packed(_), None) => State {
                locs: Vec::new(),
                vals: Vec::new(),
                arrays: Vec::new(),
            },
        }
    }

    /// Checks the limits before a new state is visited.
    fn limit(&self) -> Option<Stop> {
        let n = self.visited.len() as u64;
        if n >= self.max_states {
            return Some(Stop::States);
        }
        if n.wrapping_rem(DEADLINE_EVERY) == 0 {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Some(Stop::Time);
            }
            if crate::memory::exceeded() {
                return Some(Stop::Memory);
            }
        }
        None
    }

    /// Counts one combination of input values; checks the deadline and
    /// the memory budget now and then.
    fn tick(&mut self) -> Result<(), Stop> {
        self.tries = self.tries.wrapping_add(1);
        if self.tries.is_multiple_of(DEADLINE_EVERY * 16) {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Stop::Time);
            }
            if crate::memory::exceeded() {
                return Err(Stop::Memory);
            }
        }
        Ok(())
    }

    /// Visits a state unless it is out of the bound or already visited;
    /// `Ok(Some(i))` when it is new, node `i`, and an error state.
    fn visit(&mut self, state: &State, parent: Option<Parent>) -> Result<Option<usize>, Stop> {
        if !self.in_bound(state) {
            return Ok(None);
        }
        self.fired = true;
        let key = self.key(&canonical(state));
        if let Some(old) = self.visited.get_index_of(&key) {
            self.back_edge |= old <= self.expanding;
            return Ok(None);
        }
        if let Some(stop) = self.limit() {
            return Err(stop);
        }
        let (id, _) = self.visited.insert_full(key);
        self.parents.push(parent);
        // An error condition that overflows is not reported as reached.
        match self.error_in(state)? {
            Some(choices) => {
                self.error = Some((id, choices));
                Ok(Some(id))
            }
            None => Ok(None),
        }
    }

    /// Whether some error condition holds in `state` for some value of the
    /// lazy values it reads: `Some(choices)`, what that needs of them (the
    /// trace to the state takes it). A condition is decided over their
    /// domains when it can be; else a symbol on which alone it depends is
    /// narrowed to the values for which it holds; else one takes the few
    /// values the condition allows, or samples (no proof). A condition
    /// that overflows is not reported as reached.
    fn error_in(&mut self, state: &State) -> Result<Option<Vec<Choice>>, Stop> {
        for e in 0..self.errors.len() {
            if !self.errors[e].possible(state) {
                continue;
            }
            if let Some(choices) = self.holds_for_some(e, state, Vec::new())? {
                return Ok(Some(choices));
            }
        }
        Ok(None)
    }

    /// [`Self::error_in`] for error condition `e`, `chosen` already
    /// decided.
    fn holds_for_some(
        &mut self,
        e: usize,
        state: &State,
        mut chosen: Vec<Choice>,
    ) -> Result<Option<Vec<Choice>>, Stop> {
        let c = self.errors[e].cond;
        let mut symbols: Vec<(u32, VarId)> = Vec::new();
        for &v in &self.errors[e].vars {
            let x = state.vals[v.index()];
            if is_lazy(x) && !symbols.iter().any(|&(s, _)| s == lazy::symbol(x)) {
                symbols.push((lazy::symbol(x), v));
            }
        }
        let Some(&(sym, var)) = symbols.first() else {
            return Ok(match interp::eval_cond(c, state) {
                Ok(holds) => holds.then_some(chosen),
                Err(_) => {
                    self.note_cut(Cut::Overflow);
                    None
                }
            });
        };
        match lazy::guard(c, state, &self.domains, self.bound) {
            lazy::Guard::Never => return Ok(None),
            lazy::Guard::Always => return Ok(Some(chosen)),
            lazy::Guard::Sampled | lazy::Guard::Depends => {}
        }
        let dom = self.domains.get(lazy::domain(state.vals[var.index()]));
        if symbols.len() == 1 {
            if let Some(set) = lazy::exact(c, state, sym, dom) {
                if set.is_empty() {
                    return Ok(None);
                }
                chosen.push(Choice::Narrowed(var, self.domains.intern(set)));
                return Ok(Some(chosen));
            }
        }
        let values = match lazy::solve(c, state, sym, dom, MAX_SOLVED) {
            Some(values) => values,
            None => self.sample(state.vals[var.index()]),
        };
        for x in values {
            self.tick()?;
            let mut now = chosen.clone();
            now.push(Choice::Value(var, x));
            if let Some(found) = self.holds_for_some(e, &substitute(state, sym, x), now)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// Enumerates the initial states; `Ok(Some(i))` when node `i` is an
    /// error state.
    fn initial_states(&mut self) -> Result<Option<usize>, Stop> {
        // Variables the initial condition fixes (`v == literal`: the C
        // front end's initial values beyond 64-bit literals) take that
        // value.
        let fixed = interp::fixed_initial_values(self.program);
        // Free variables nobody reads before writing are lazy.
        let free: Vec<usize> = (0..self.program.vars.len())
            .filter(|&v| fixed[v].is_none() && !self.lazy[v])
            .collect();
        if !free.is_empty() {
            self.note_cut(Cut::Input);
        }
        // Each lazy variable its own symbol.
        let mut symbols = 0..;
        let mut vals: Vec<i128> = fixed
            .iter()
            .zip(&self.lazy)
            .map(|(&fixed, &lazy)| match fixed {
                Some(k) => k,
                None if lazy => lazy::value(lazy::ANYTHING, symbols.next().unwrap_or(0)),
                None => -self.bound,
            })
            .collect();
        loop {
            // Combinations that violate `init` (or overflow in it) are not
            // initial states.
            if let Ok(mut s) = interp::initial_state(self.program, vals.clone()) {
                if let Some(sat) = self.saturation {
                    sat.clamp(&mut s.vals);
                }
                if let Some(id) = self.visit(&s, None)? {
                    return Ok(Some(id));
                }
            }
            // The next combination of the free variables.
            let digits = free.iter().map(|_| (-self.bound, self.bound));
            let free_vals = vals
                .iter_mut()
                .enumerate()
                .filter(|(v, _)| free.binary_search(v).is_ok())
                .map(|(_, x)| x);
            if !odometer(free_vals, digits) {
                return Ok(None);
            }
        }
    }

    /// Breadth-first exploration from the initial states.
    fn explore(&mut self) -> Result<Option<usize>, Stop> {
        if let Some(id) = self.initial_states()? {
            return Ok(Some(id));
        }
        let mut next = 0;
        while next < self.visited.len() {
            // With saturated counters only a proof is of use: stop at the
            // first missed state.
            if self.saturation.is_some() && self.cut.is_some() {
                return Ok(None);
            }
            let cur = next;
            next += 1;
            let state = self.state(cur);
            self.expanding = cur;
            self.back_edge = false;
            self.fired = false;
            let ample = self
                .por
                .as_ref()
                .and_then(|por| por.choose(&state, |i| self.enabled(i, &state)));
            if let Some(i) = ample {
                if let Some(id) = self.expand_thread(cur, &state, i)? {
                    return Ok(Some(id));
                }
            }
            // Without a persistent set, when none of its transitions could
            // be taken, or when one of its successors was visited before
            // (the proviso): every thread.
            if ample.is_none() || !self.fired || self.back_edge {
                for thread in (0..self.program.threads.len()).filter(|&t| Some(t) != ample) {
                    if let Some(id) = self.expand_thread(cur, &state, thread)? {
                        return Ok(Some(id));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Adds the successors of node `cur` by the transitions of `thread`.
    fn expand_thread(
        &mut self,
        cur: usize,
        state: &State,
        thread: usize,
    ) -> Result<Option<usize>, Stop> {
        let loc: LocId = state.locs[thread];
        let count = self.outgoing[thread].get(loc.index()).map_or(0, Vec::len);
        for k in 0..count {
            let t = self.outgoing[thread][loc.index()][k];
            if let Some(id) = self.successors(cur, state, t)? {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Whether a transition of `thread` is enabled in `state` (or its
    /// guard overflows: the expansion notes that).
    fn enabled(&self, thread: usize, state: &State) -> bool {
        let loc = state.locs[thread].index();
        self.outgoing[thread].get(loc).is_some_and(|ts| {
            ts.iter().any(|&t| {
                let guard = &self.program.transition(t).guard;
                if self.reads[t.index()]
                    .iter()
                    .any(|v| is_lazy(state.vals[v.index()]))
                {
                    lazy::guard(guard, state, &self.domains, self.bound) != lazy::Guard::Never
                } else {
                    interp::eval_cond(guard, state) != Ok(false)
                }
            })
        })
    }

    /// Adds the successors of node `cur` by transition `t`.
    fn successors(&mut self, cur: usize, state: &State, t: TransId) -> Result<Option<usize>, Stop> {
        self.successors_choosing(cur, state, t, &[], false)
    }

    /// [`Self::successors`], `state` being node `cur`'s state with what
    /// `chosen` lists decided of its lazy values; `guard_holds`: for every
    /// value of them.
    ///
    /// The guard is decided over the domains when it can be (disabled, or
    /// taken with the values lazy); else a lazy value on which alone it
    /// depends has its domain narrowed to the values for which it holds;
    /// else one that the guard allows for a few values only takes exactly
    /// those; else one is sampled (no proof). Then the lazy values the
    /// right-hand sides read other than as copies take every value of
    /// their domains, or samples of them.
    fn successors_choosing(
        &mut self,
        cur: usize,
        state: &State,
        t: TransId,
        chosen: &[Choice],
        guard_holds: bool,
    ) -> Result<Option<usize>, Stop> {
        let tr = self.program.transition(t);
        // The symbols the guard and the right-hand sides read, each with a
        // variable that holds it; a copy into a variable that may be lazy
        // reads none.
        let mut in_guard: Vec<(u32, VarId)> = Vec::new();
        let mut in_rhs: Vec<(u32, VarId)> = Vec::new();
        let add = |list: &mut Vec<(u32, VarId)>, v: VarId| {
            let x = state.vals[v.index()];
            if is_lazy(x) && !list.iter().any(|&(s, _)| s == lazy::symbol(x)) {
                list.push((lazy::symbol(x), v));
            }
        };
        tr.guard.for_each_var(&mut |v| add(&mut in_guard, v));
        for a in &tr.assigns {
            match &a.rhs {
                Rhs::Expr(Term::Var(_)) if self.lazy[a.var.index()] => {}
                Rhs::Expr(e) => e.for_each_var(&mut |v| add(&mut in_rhs, v)),
                Rhs::Nondet => {}
            }
        }
        let with = |more: Option<Choice>| -> Option<Box<[Choice]>> {
            let all: Vec<Choice> = chosen.iter().copied().chain(more).collect();
            (!all.is_empty()).then(|| all.into_boxed_slice())
        };
        if in_guard.is_empty() && in_rhs.is_empty() {
            return self.successors_from(cur, state, t, with(None), guard_holds);
        }
        // Whether the guard is known to hold (else it reads no lazy value
        // and is evaluated on the step).
        let mut holds = guard_holds;
        if !in_guard.is_empty() && !guard_holds {
            holds = true;
            let decided = lazy::guard(&tr.guard, state, &self.domains, self.bound);
            match decided {
                lazy::Guard::Never => return Ok(None),
                lazy::Guard::Always => {}
                lazy::Guard::Sampled | lazy::Guard::Depends => {
                    // A symbol on which alone the guard depends: narrowed
                    // to the values for which it holds, it holds. Else each
                    // symbol narrowed to the values for which the guard
                    // may hold (for the others it is false whatever the
                    // other lazy values are), and the guard decided again.
                    let mut narrowed = state.clone();
                    let mut now = chosen.to_vec();
                    for &(sym, v) in &in_guard {
                        let dom = self.domains.get(lazy::domain(narrowed.vals[v.index()]));
                        let exact = lazy::exact(&tr.guard, &narrowed, sym, dom);
                        let set = match &exact {
                            Some(set) => set.clone(),
                            None => lazy::may(&tr.guard, &narrowed, sym, dom),
                        };
                        if set.is_empty() {
                            return Ok(None);
                        }
                        if set != *dom {
                            let d = self.domains.intern(set);
                            narrowed = substitute(&narrowed, sym, lazy::value(d, sym));
                            now.push(Choice::Narrowed(v, d));
                        }
                        if exact.is_some() {
                            return self.successors_choosing(cur, &narrowed, t, &now, true);
                        }
                    }
                    if now.len() > chosen.len() {
                        return self.successors_choosing(cur, &narrowed, t, &now, false);
                    }
                    // True for the values the search would sample, and
                    // nothing else reads them: taken, the values lazy (an
                    // over-approximation).
                    if decided == lazy::Guard::Sampled && in_rhs.is_empty() {
                        self.sampled_guard = true;
                        return self.successors_from(cur, state, t, with(None), true);
                    }
                    // A symbol the guard allows for a few values only
                    // (whatever the other lazy values): exactly those
                    // (every execution through `t` takes one of them).
                    for &(sym, v) in &in_guard {
                        let dom = self.domains.get(lazy::domain(state.vals[v.index()]));
                        if let Some(values) = lazy::solve(&tr.guard, state, sym, dom, MAX_SOLVED) {
                            return self.choose(cur, state, t, chosen, (sym, v), values, false);
                        }
                    }
                    let values = self.sample(state.vals[in_guard[0].1.index()]);
                    return self.choose(cur, state, t, chosen, in_guard[0], values, false);
                }
            }
        }
        // The guard holds for every value of the lazy values it reads.
        if let Some(&first) = in_rhs.first() {
            let values = self.sample(state.vals[first.1.index()]);
            return self.choose(cur, state, t, chosen, first, values, holds);
        }
        self.successors_from(cur, state, t, with(None), holds)
    }

    /// [`Self::successors_choosing`] with the symbol `sym` (held by `var`)
    /// taking each of `values`.
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        cur: usize,
        state: &State,
        t: TransId,
        chosen: &[Choice],
        (sym, var): (u32, VarId),
        values: Vec<i128>,
        guard_holds: bool,
    ) -> Result<Option<usize>, Stop> {
        let mut now = chosen.to_vec();
        now.push(Choice::Value(var, 0));
        for x in values {
            self.tick()?;
            *now.last_mut().expect("pushed") = Choice::Value(var, x);
            let concrete = substitute(state, sym, x);
            if let Some(id) = self.successors_choosing(cur, &concrete, t, &now, guard_holds)? {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// The values a lazy value takes when it must be chosen: all of its
    /// domain when that has at most [`MAX_SOLVED`] values (in the
    /// exhaustive mode), else those in `[-B, B]` (a cut), `B` the bound but
    /// at most half of [`MAX_SOLVED`] (a large bound would make one state
    /// per value of a wide input).
    fn sample(&mut self, x: i128) -> Vec<i128> {
        let dom = self.domains.get(lazy::domain(x));
        // Outside the exhaustive mode only values in the bound make states.
        if let Some(all) = lazy::elements(dom, MAX_SOLVED).filter(|_| self.exhaustive) {
            return all;
        }
        let b = self.bound.min(MAX_SOLVED / 2);
        let sampled = lazy::intersect(dom, &vec![(-b, b)]);
        self.note_cut(Cut::Input);
        lazy::elements(&sampled, i128::MAX).unwrap_or_default()
    }

    /// [`Self::successors`] from `state`, in which `t` reads no lazy value
    /// but in copies (or the guard, when `guard_holds`: it holds for all
    /// of them); `chosen`: what was decided of the lazy values of the node.
    fn successors_from(
        &mut self,
        cur: usize,
        state: &State,
        t: TransId,
        chosen: Option<Box<[Choice]>>,
        guard_holds: bool,
    ) -> Result<Option<usize>, Stop> {
        let tr = self.program.transition(t);
        if !guard_holds {
            match interp::eval_cond(&tr.guard, state) {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(_) => {
                    self.note_cut(Cut::Overflow);
                    return Ok(None);
                }
            }
        }
        let inputs: Vec<VarId> = tr
            .assigns
            .iter()
            .filter(|a| a.rhs == Rhs::Nondet)
            .map(|a| a.var)
            .collect();
        // Lazy inputs get fresh symbols.
        let mut fresh = state
            .vals
            .iter()
            .filter(|x| is_lazy(**x))
            .map(|&x| lazy::symbol(x) + 1)
            .max()
            .unwrap_or(0)..;
        let mut sampled = false;
        let ranges: Vec<(i128, i128)> = inputs
            .iter()
            .map(|&v| {
                self.ranges.get(&(t, v)).copied().unwrap_or_else(|| {
                    if self.lazy[v.index()] {
                        let x = lazy::value(lazy::ANYTHING, fresh.next().unwrap_or(0));
                        return (x, x);
                    }
                    sampled = true;
                    (-self.bound, self.bound)
                })
            })
            .collect();
        if sampled {
            self.note_cut(Cut::Input);
        }
        let mut values: Vec<(VarId, i128)> = inputs
            .iter()
            .zip(&ranges)
            .map(|(&v, &(lo, _))| (v, lo))
            .collect();
        loop {
            self.tick()?;
            match apply(tr, state, &values) {
                Ok(s) => {
                    let parent = Parent {
                        from: cur,
                        transition: t,
                        inputs: values.clone(),
                        chosen: chosen.clone(),
                    };
                    if let Some(id) = self.visit_saturated(state, s, parent)? {
                        return Ok(Some(id));
                    }
                }
                // Overflow gives no successor (values are bounded anyway
                // outside the exhaustive mode).
                Err(_) => self.note_cut(Cut::Overflow),
            }
            if !odometer(values.iter_mut().map(|(_, x)| x), ranges.iter().copied()) {
                return Ok(None);
            }
        }
    }

    /// Visits the successor `next` of `state` reached as `parent` says —
    /// with saturated counters, each of its abstract versions.
    fn visit_saturated(
        &mut self,
        state: &State,
        mut next: State,
        parent: Parent,
    ) -> Result<Option<usize>, Stop> {
        let Some(sat) = self.saturation else {
            return self.visit(&next, Some(parent));
        };
        let choices = sat.choices(parent.transition, &state.vals);
        // Indices into each counter's choices.
        let mut pick = vec![0i128; choices.len()];
        loop {
            for ((c, vals), &i) in choices.iter().zip(&pick) {
                next.vals[c.index()] = vals[i as usize];
            }
            if let Some(id) = self.visit(&next, Some(parent.clone()))? {
                return Ok(Some(id));
            }
            let digits = choices.iter().map(|(_, vals)| (0, vals.len() as i128 - 1));
            if !odometer(pick.iter_mut(), digits) {
                return Ok(None);
            }
        }
    }

    /// The trace to node `id`, replayed by the interpreter. Each lazy
    /// value is followed from where it came from (the initial state or a
    /// step's input) through copies to the step that chose it, or to the
    /// last state it was in: there it takes the value chosen, or the value
    /// of its last domain closest to 0 (every guard taken with it lazy
    /// holds for the values of that domain).
    fn trace(&self, id: usize) -> Result<Trace, RunError> {
        let mut path = Vec::new();
        let mut nodes = vec![id];
        let mut cur = id;
        while let Some(parent) = &self.parents[cur] {
            path.push(parent);
            cur = parent.from;
            nodes.push(cur);
        }
        path.reverse();
        nodes.reverse();
        /// Where a lazy value came from, and what is known of it.
        struct Origin {
            /// The step whose input it was (`None`: the initial state).
            step: Option<usize>,
            var: VarId,
            value: Option<i128>,
            domain: u32,
        }
        let mut origins: Vec<Origin> = Vec::new();
        let first = self.state(nodes[0]);
        let mut initial = first.vals.clone();
        // The origin of each symbol of the current state.
        let mut of_symbol: crate::ase::hash::FxHashMap<u32, usize> = Default::default();
        for (v, &x) in first.vals.iter().enumerate().filter(|(_, x)| is_lazy(**x)) {
            of_symbol.entry(lazy::symbol(x)).or_insert_with(|| {
                origins.push(Origin {
                    step: None,
                    var: VarId::new(v),
                    value: None,
                    domain: lazy::domain(x),
                });
                origins.len() - 1
            });
        }
        let mut steps: Vec<(TransId, Vec<(VarId, i128)>)> = Vec::with_capacity(path.len());
        for (k, parent) in path.iter().enumerate() {
            let pre = self.state(nodes[k]);
            let post = self.state(nodes[k + 1]);
            let origin_of = |v: VarId| {
                let x = pre.vals[v.index()];
                is_lazy(x)
                    .then(|| of_symbol.get(&lazy::symbol(x)).copied())
                    .flatten()
            };
            for choice in parent.chosen.iter().flat_map(|c| c.iter()) {
                match *choice {
                    Choice::Value(v, x) => {
                        if let Some(o) = origin_of(v) {
                            origins[o].value = Some(x);
                        }
                    }
                    Choice::Narrowed(v, d) => {
                        if let Some(o) = origin_of(v) {
                            origins[o].domain = d;
                        }
                    }
                }
            }
            let tr = self.program.transition(parent.transition);
            let mut next: crate::ase::hash::FxHashMap<u32, usize> = Default::default();
            for (w, &x) in post.vals.iter().enumerate().filter(|(_, x)| is_lazy(**x)) {
                let w = VarId::new(w);
                let origin = match tr.assigns.iter().find(|a| a.var == w).map(|a| &a.rhs) {
                    Some(Rhs::Expr(Term::Var(y))) => origin_of(*y),
                    Some(Rhs::Nondet) => Some(*next.entry(lazy::symbol(x)).or_insert_with(|| {
                        origins.push(Origin {
                            step: Some(k),
                            var: w,
                            value: None,
                            domain: lazy::domain(x),
                        });
                        origins.len() - 1
                    })),
                    Some(Rhs::Expr(_)) => None,
                    None => origin_of(w),
                };
                if let Some(o) = origin {
                    origins[o].domain = lazy::domain(x);
                    next.insert(lazy::symbol(x), o);
                }
            }
            of_symbol = next;
            steps.push((parent.transition, parent.inputs.clone()));
        }
        // What the error condition needs of the last state's lazy values.
        let last = self.state(id);
        let at_error = self.error.as_ref().filter(|(node, _)| *node == id);
        for choice in at_error.iter().flat_map(|(_, c)| c) {
            let (Choice::Value(v, _) | Choice::Narrowed(v, _)) = *choice;
            let x = last.vals[v.index()];
            let Some(&o) = is_lazy(x)
                .then(|| of_symbol.get(&lazy::symbol(x)))
                .flatten()
            else {
                continue;
            };
            match *choice {
                Choice::Value(_, x) => origins[o].value = Some(x),
                Choice::Narrowed(_, d) => origins[o].domain = d,
            }
        }
        for o in &origins {
            let x = o
                .value
                .or_else(|| lazy::closest_to_zero(self.domains.get(o.domain)))
                .unwrap_or(0);
            match o.step {
                None => initial[o.var.index()] = x,
                Some(k) => {
                    if let Some(input) = steps[k].1.iter_mut().find(|(w, _)| *w == o.var) {
                        input.1 = x;
                    }
                }
            }
        }
        for x in initial.iter_mut().filter(|x| is_lazy(**x)) {
            *x = 0;
        }
        for (_, inputs) in &mut steps {
            for input in inputs.iter_mut().filter(|(_, x)| is_lazy(*x)) {
                input.1 = 0;
            }
        }
        Trace::execute(self.program, initial, &steps).map(|t| t.shortened(self.program))
    }
}

/// The successor of `state` by `tr` with the given inputs, its guard
/// assumed to hold (it may read lazy values); copies carry lazy values.
/// A value computed in the range of the lazy values overflows.
fn apply(
    tr: &crate::ir::Transition,
    state: &State,
    inputs: &[(VarId, i128)],
) -> Result<State, RunError> {
    let mut next = state.clone();
    for a in &tr.assigns {
        next.vals[a.var.index()] = match &a.rhs {
            Rhs::Expr(e @ Term::Var(_)) => interp::eval_term(e, &state.vals)?,
            Rhs::Expr(e) => match interp::eval_term(e, &state.vals)? {
                x if is_lazy(x) => return Err(RunError::Overflow),
                x => x,
            },
            Rhs::Nondet => inputs
                .iter()
                .find(|(v, _)| *v == a.var)
                .map(|(_, x)| *x)
                .ok_or_else(|| RunError::BadInputs(tr.label.clone()))?,
        };
    }
    next.locs[tr.thread.index()] = tr.to;
    Ok(next)
}

/// `state` with every occurrence of the symbol `sym` replaced by `x`.
fn substitute(state: &State, sym: u32, x: i128) -> State {
    let mut next = state.clone();
    for v in next.vals.iter_mut() {
        if is_lazy(*v) && lazy::symbol(*v) == sym {
            *v = x;
        }
    }
    next
}

/// `state` with its symbols renumbered in the order of their first
/// occurrence: states that differ only in the names of their symbols get
/// the same key.
fn canonical(state: &State) -> std::borrow::Cow<'_, State> {
    if !state.vals.iter().any(|&x| is_lazy(x)) {
        return std::borrow::Cow::Borrowed(state);
    }
    let mut renamed: crate::ase::hash::FxHashMap<u32, u32> = Default::default();
    let mut next = state.clone();
    for v in next.vals.iter_mut().filter(|v| is_lazy(**v)) {
        let n = renamed.len() as u32;
        let sym = *renamed.entry(lazy::symbol(*v)).or_insert(n);
        *v = lazy::value(lazy::domain(*v), sym);
    }
    std::borrow::Cow::Owned(next)
}

/// Searches the states of `program` with values in `[-B, B]` breadth-first
/// for an error state. Answers `unsafe` (with a shortest trace within the
/// bound) or `unknown`; never `safe`.
pub fn check(program: &Program, bounds: &Bounds, deadline: Option<Instant>) -> Outcome {
    search_keeping(program, bounds, deadline, false, None, None)
}

/// [`check`] for a state that also satisfies `target` (the bug states of a
/// model whose other error states are not bugs), on a program with arrays
/// ([`arrays`]): their elements are chosen when first read.
pub fn check_arrays(
    program: &Program,
    bounds: &Bounds,
    deadline: Option<Instant>,
    target: Option<&Cond>,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> Outcome {
    arrays::check(program, bounds, deadline, target, cancel)
}

/// Exhaustive explicit-state search: like [`check`], but values are
/// unbounded and every input whose range [`input_ranges`] knows exactly
/// takes every value of that range. When the search completes without an
/// error, without overflow, and without an input or initial value it could
/// only sample in `[-B, B]`, it has visited every reachable state: the
/// answer is `safe` ([`Proof::ExhaustiveSearch`]). Programs with finitely
/// many reachable states and small-ranged inputs (loop-free or bounded
/// concurrent C) are proved this way.
pub fn prove(program: &Program, bounds: &Bounds, deadline: Option<Instant>) -> Outcome {
    search_keeping(program, bounds, deadline, true, None, None)
}

/// The states an exhaustive search visited: when it proved the program
/// safe, every reachable state in which no input took a value outside its
/// range ([`input_ranges`]).
pub struct Reachable {
    keys: Vec<Key>,
    threads: usize,
    vars: usize,
    /// With saturated counters: the counters and their cap (a counter at
    /// the cap stands for every count at or above it).
    saturated: Option<(Vec<VarId>, i128)>,
    /// The domains of the lazy values ([`lazy::Table`]).
    domains: lazy::Table,
}

impl Reachable {
    /// The number of states.
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    /// With saturated counters: the counters and their cap `K` (a state
    /// with a counter at `K` stands for every count `>= K`).
    pub fn saturated(&self) -> Option<(&[VarId], i128)> {
        self.saturated.as_ref().map(|(v, k)| (v.as_slice(), *k))
    }
    /// What a lazy value of a state stands for; `None` for any other
    /// value.
    pub fn lazy(&self, x: i128) -> Option<LazyValue<'_>> {
        is_lazy(x).then(|| LazyValue {
            symbol: lazy::symbol(x),
            domain: self.domains.get(lazy::domain(x)),
        })
    }
    /// The states, in the order of the search.
    pub fn states(&self) -> impl Iterator<Item = State> + '_ {
        self.keys.iter().map(|k| match k {
            Key::Bytes(b) => from_bytes(b, self.threads, self.vars),
            // The exhaustive search never packs.
            Key::Packed(_) => State {
                locs: Vec::new(),
                vals: Vec::new(),
                arrays: Vec::new(),
            },
        })
    }
}

/// A lazy value of a [`Reachable`] state: variables with the same symbol
/// hold the same value, some value of the domain (sorted disjoint
/// intervals, `i128::MIN`/`i128::MAX` for no bound).
pub struct LazyValue<'a> {
    /// Its symbol, unique within the state.
    pub symbol: u32,
    /// The values it stands for.
    pub domain: &'a [(i128, i128)],
}

/// [`prove`], also returning the visited states when it proves the program
/// safe (for a certificate). With [`Bounds::partial_order`], the reduced
/// search runs first; when it proves the program, the full search follows
/// for the states of the certificate, for at most a few times as long; when
/// that does not end, the reduced proof is returned without states.
pub fn prove_with_states(
    program: &Program,
    bounds: &Bounds,
    deadline: Option<Instant>,
) -> (Outcome, Option<Reachable>) {
    let mut keys = None;
    if !bounds.partial_order {
        let outcome = search_keeping(program, bounds, deadline, true, None, Some(&mut keys));
        return (outcome, keys);
    }
    let start = Instant::now();
    let reduced = search_keeping(program, bounds, deadline, true, None, None);
    if !matches!(reduced.verdict, Verdict::Safe(_)) {
        return (reduced, None);
    }
    // The reduced search's states are not closed under every transition,
    // so they are no certificate: the full search gives one if it ends in
    // a few times the reduced search's time.
    let spent = start.elapsed();
    let budget = Instant::now() + (spent * FULL_SEARCH_FACTOR).max(FULL_SEARCH_MIN);
    let full_deadline = Some(deadline.map_or(budget, |d| d.min(budget)));
    let full_bounds = Bounds {
        partial_order: false,
        ..*bounds
    };
    let mut full = search_keeping(
        program,
        &full_bounds,
        full_deadline,
        true,
        None,
        Some(&mut keys),
    );
    full.stats.time = start.elapsed();
    match full.verdict {
        Verdict::Safe(_) | Verdict::Unsafe(_) => (full, keys),
        Verdict::Unknown(_) => (reduced, None),
    }
}

/// The full search after a partial-order reduced proof (for a certificate)
/// gets this many times the reduced search's time ...
const FULL_SEARCH_FACTOR: u32 = 4;
/// ... and at least this long.
const FULL_SEARCH_MIN: std::time::Duration = std::time::Duration::from_secs(1);

/// The exhaustive search of a counter system with its counters saturated
/// ([`crate::saturate`]): `safe` ([`Proof::SaturatedSearch`]) when no error
/// is among the visited abstract states, every input tried and nothing
/// overflowed; `unknown` otherwise. The visited states are returned in
/// both cases. An error state found is
/// only abstract (a saturated counter stands for many counts), so it is
/// reported as `unknown`, never `unsafe`.
pub fn prove_saturated(
    program: &Program,
    saturation: &Saturation,
    bounds: &Bounds,
    deadline: Option<Instant>,
) -> (Outcome, Option<Reachable>) {
    let mut keys = None;
    let outcome = search_keeping(
        program,
        bounds,
        deadline,
        true,
        Some(saturation),
        Some(&mut keys),
    );
    (outcome, keys)
}

fn search_keeping(
    program: &Program,
    bounds: &Bounds,
    deadline: Option<Instant>,
    exhaustive: bool,
    saturation: Option<&Saturation>,
    keep: Option<&mut Option<Reachable>>,
) -> Outcome {
    if program.has_arrays() {
        // A bug finder only: no proof, no states kept.
        return arrays::check(program, bounds, deadline, None, None);
    }
    let start = Instant::now();
    let mut search = Search::new(program, bounds, deadline, exhaustive, saturation);
    let result = search.explore();
    let visited = search.visited.len() as u64;
    let bound = search.bound;
    let verdict = match result {
        Ok(Some(_)) if saturation.is_some() => Verdict::unknown(
            UnknownKind::NoProof,
            format!(
                "the search with counters capped at {} reaches an error state ({visited} states), \
                 which may stand for no real one",
                saturation.map_or(0, Saturation::cap)
            ),
        ),
        Ok(Some(id)) => match search.trace(id) {
            Ok(trace) => Verdict::Unsafe(trace),
            Err(_) if search.sampled_guard => Verdict::unknown(
                UnknownKind::NoProof,
                "the search reaches an error state through a step taken for sampled input \
                 values only (an over-approximation), and no execution follows its path"
                    .to_string(),
            ),
            Err(e) => Verdict::unknown(
                UnknownKind::Internal,
                format!("internal error: the explicit trace does not replay ({e})"),
            ),
        },
        Ok(None) if exhaustive => match search.cut {
            None if saturation.is_some() => Verdict::Safe(Proof::SaturatedSearch),
            None => Verdict::Safe(Proof::ExhaustiveSearch),
            Some(Cut::Input) => Verdict::unknown(
                UnknownKind::NoProof,
                format!(
                    "no error in {visited} states, but some inputs were only tried in [-{bound}, {bound}]"
                ),
            ),
            Some(Cut::Overflow) => Verdict::unknown(
                UnknownKind::NoProof,
                format!("no error in {visited} states, but some steps overflowed"),
            ),
        },
        Ok(None) => Verdict::unknown(
            UnknownKind::NoProof,
            format!("no error within bound {bound} ({visited} states)"),
        ),
        Err(Stop::States) => Verdict::unknown(
            UnknownKind::Budget(Limit::States),
            if exhaustive {
                format!("state limit reached ({visited} states)")
            } else {
                format!("state limit reached ({visited} states within bound {bound})")
            },
        ),
        Err(Stop::Memory) => Verdict::unknown(
            UnknownKind::Budget(Limit::Memory),
            format!("{} ({visited} states)", crate::memory::REASON),
        ),
        Err(Stop::Time) => Verdict::Unknown(Unknown::time()),
    };
    // With saturated counters, the states also when there is no proof:
    // they show the values the variables reached.
    let keep = keep.filter(|_| matches!(verdict, Verdict::Safe(_)) || saturation.is_some());
    if let Some(keep) = keep {
        *keep = Some(Reachable {
            keys: std::mem::take(&mut search.visited).into_iter().collect(),
            threads: program.threads.len(),
            vars: program.vars.len(),
            saturated: saturation.map(|s| {
                let counters = (0..program.vars.len())
                    .map(VarId::new)
                    .filter(|&v| s.is_counter(v))
                    .collect();
                (counters, s.cap())
            }),
            domains: std::mem::replace(&mut search.domains, lazy::Table::new()),
        });
    }
    Outcome {
        verdict,
        stats: Stats {
            iterations: 1,
            prover_queries: 0,
            predicates: Vec::new(),
            symbolic_states: visited,
            abstract_states: 0,
            time: start.elapsed(),
            slicing: None,
        },
    }
}

/// The variables whose sampled inputs and free initial values the search
/// keeps lazy ([`UNDEF`]): those the initial condition does not read (the
/// error conditions are decided over the domains, [`Search::error_in`]);
/// none with saturated counters (their abstract states are certificates as
/// they are).
fn lazy_variables(program: &Program, saturated: bool) -> Vec<bool> {
    let mut lazy = vec![!saturated; program.vars.len()];
    for c in &program.init {
        c.for_each_var(&mut |v| lazy[v.index()] = false);
    }
    lazy
}

/// Largest input range enumerated exactly.
const MAX_RANGE: i128 = 1 << 10;

/// Most values of a lazy value that a guard allows which the search
/// enumerates exactly ([`lazy::solve`]); more are sampled (no proof).
const MAX_SOLVED: i128 = 1 << 12;

/// Bounds `lo <= v <= hi` that a condition's top-level conjunction puts on
/// `v`.
fn conjunct_bounds(c: &Cond, v: VarId, lo: &mut Option<i128>, hi: &mut Option<i128>) {
    let tighten_lo = |lo: &mut Option<i128>, k: i128| *lo = Some(lo.map_or(k, |l| l.max(k)));
    let tighten_hi = |hi: &mut Option<i128>, k: i128| *hi = Some(hi.map_or(k, |h| h.min(k)));
    match c {
        Cond::And(a, b) => {
            conjunct_bounds(a, v, lo, hi);
            conjunct_bounds(b, v, lo, hi);
        }
        Cond::Cmp(op, a, b) => {
            // Normalise to `v op k`.
            let (op, k) = match (a, b) {
                (Term::Var(x), Term::Const(k)) if *x == v => (*op, i128::from(*k)),
                (Term::Const(k), Term::Var(x)) if *x == v => (op.flip(), i128::from(*k)),
                _ => return,
            };
            match op {
                CmpOp::Eq => {
                    tighten_lo(lo, k);
                    tighten_hi(hi, k);
                }
                CmpOp::Le => tighten_hi(hi, k),
                CmpOp::Lt => tighten_hi(hi, k - 1),
                CmpOp::Ge => tighten_lo(lo, k),
                CmpOp::Gt => tighten_lo(lo, k + 1),
                CmpOp::Ne => {}
            }
        }
        _ => {}
    }
}

/// The inputs whose values outside a small range `[lo, hi]` cannot matter:
/// `v := *` on a transition into location `L` of thread `T`, where only `T`
/// uses `v`, the error and initial conditions do not mention it, and every
/// transition of `T` out of `L` requires `lo <= v <= hi` in its guard. A
/// value outside the range leaves `T` blocked at `L` for good, and since no
/// other thread and no error condition reads `v`, every error reachable from
/// such a state is reachable from the same state with `v = lo`. (A location
/// without outgoing transitions blocks `T` for any value: `[0, 0]`.)
pub fn input_ranges(
    program: &Program,
) -> crate::ase::hash::FxHashMap<(TransId, VarId), (i128, i128)> {
    let owners = crate::liveness::owners(program);
    let mut out = crate::ase::hash::FxHashMap::default();
    for (i, t) in program.transitions.iter().enumerate() {
        let id = TransId::new(i);
        for a in t.assigns.iter().filter(|a| a.rhs == Rhs::Nondet) {
            let v = a.var;
            if owners[v.index()] != Some(t.thread) {
                continue;
            }
            let mut range: Option<(i128, i128)> = None;
            let mut exact = true;
            for &o in &program.thread(t.thread).transitions {
                let out_t = program.transition(o);
                if out_t.from != t.to {
                    continue;
                }
                let (mut lo, mut hi) = (None, None);
                conjunct_bounds(&out_t.guard, v, &mut lo, &mut hi);
                match (lo, hi) {
                    (Some(lo), Some(hi)) => {
                        range = Some(range.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
                    }
                    _ => exact = false,
                }
            }
            let range = range.unwrap_or((0, 0));
            if exact && range.1 - range.0 < MAX_RANGE {
                // An empty range (lo > hi) blocks every value: keep one.
                out.insert((id, v), (range.0, range.1.max(range.0)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program;

    fn program(src: &str) -> Program {
        parse_program(src).expect("test program parses")
    }

    fn bounds(bound: i64) -> Bounds {
        Bounds {
            bound,
            max_states: 100_000,
            partial_order: false,
        }
    }

    #[test]
    fn an_error_past_a_sampled_guard_that_does_not_replay_is_no_internal_error() {
        // `x + n < 100` holds for every sampled pair, so the step is taken
        // with both values lazy; the later guards narrow them past 50
        // each, where it is false: the error state stands for no
        // execution.
        let p = program(
            "var x = 0, n = 0;
             thread main at start {
               start -> a do x := *, n := *;
               a -> b when x + n < 100;
               b -> c when x > 50;
               c -> d when n > 50;
               d -> ERROR;
             }
             error main@ERROR;",
        );
        let out = prove(&p, &bounds(10), None);
        let Verdict::Unknown(why) = &out.verdict else {
            panic!("expected unknown, got {:?}", out.verdict);
        };
        assert_eq!(why.kind, UnknownKind::NoProof, "{}", why.detail);
        assert!(why.detail.contains("over-approximation"), "{}", why.detail);
    }

    #[test]
    fn finds_a_bug_at_depth_three() {
        let p = program(
            "var x = 0, y = 0;
             thread p at 0 {
               0 -> 1 do x := x + 1;
               1 -> 2 do y := x + 1;
               2 -> 0 when y < 0;
             }
             thread q at 0 { 0 -> 0 when x > 5 do x := 0; }
             error y == 2;",
        );
        let out = check(&p, &bounds(3), None);
        let Verdict::Unsafe(trace) = &out.verdict else {
            panic!("expected unsafe, got {:?}", out.verdict);
        };
        assert_eq!(trace.steps.len(), 2);
        assert!(trace.replay(&p).is_ok());
        assert_eq!(out.stats.iterations, 1);
        assert_eq!(out.stats.abstract_states, 0);
    }

    #[test]
    fn shortest_trace_has_three_steps() {
        let p = program(
            "var x = 0;
             thread p at a {
               a -> b do x := x + 1;
               b -> c do x := x + 1;
               c -> d do x := x + 1;
               d -> a;
             }
             error x == 3;",
        );
        let out = check(&p, &bounds(10), None);
        let Verdict::Unsafe(trace) = &out.verdict else {
            panic!("expected unsafe, got {:?}", out.verdict);
        };
        assert_eq!(trace.steps.len(), 3);
        assert_eq!(trace.steps[2].state.vals, vec![3]);
    }

    #[test]
    fn bug_that_needs_value_five() {
        let p = program(
            "var x = 0, y;
             thread p at 0 { 0 -> 1 do x := *; 1 -> 2 when x == y; }
             init y >= 0;
             error p@2 && x >= 5;",
        );
        let out = check(&p, &bounds(3), None);
        match &out.verdict {
            Verdict::Unknown(why) => {
                assert!(why.detail.starts_with("no error within bound 3"), "{why}")
            }
            v => panic!("expected unknown at bound 3, got {v:?}"),
        }
        let out = check(&p, &bounds(5), None);
        let Verdict::Unsafe(trace) = &out.verdict else {
            panic!("expected unsafe at bound 5, got {:?}", out.verdict);
        };
        assert!(trace.replay(&p).is_ok());
        assert_eq!(trace.initial.vals, vec![0, 5]);
        assert_eq!(trace.steps[0].inputs, vec![(VarId(0), 5)]);
    }

    #[test]
    fn never_answers_safe() {
        let p = program("var x = 0; thread p at 0 { 0 -> 0 do x := x + 1; } error x < 0;");
        let out = check(&p, &bounds(4), None);
        match &out.verdict {
            Verdict::Unknown(why) => {
                assert_eq!(why.detail, "no error within bound 4 (5 states)");
            }
            v => panic!("expected unknown, got {v:?}"),
        }
        assert_eq!(out.stats.symbolic_states, 5);
    }

    #[test]
    fn state_limit_and_lazy_initial_states() {
        // 21^4 initial combinations at bound 10 (the initial condition
        // reads the variables, so they are not lazy): the limit stops the
        // enumeration long before the product.
        let p = program(
            "var a, b, c, d; init a + b + c + d < 1000;
             thread p at 0 { 0 -> 0; } error a + b + c + d > 100;",
        );
        let out = check(
            &p,
            &Bounds {
                bound: 10,
                max_states: 50,
                partial_order: false,
            },
            None,
        );
        match &out.verdict {
            Verdict::Unknown(why) => {
                assert!(why.kind == UnknownKind::Budget(Limit::States), "{why}")
            }
            v => panic!("expected unknown, got {v:?}"),
        }
        assert_eq!(out.stats.symbolic_states, 50);
    }

    #[test]
    fn large_bounds_store_states_in_full() {
        // Bound 200 does not fit the packed keys; the search is the same.
        let p = program(
            "var x = 0, y = -150;
             thread p at 0 { 0 -> 0 when x < 160 do x := x + 40, y := y - 1; }
             error x == 160 && y == -154;",
        );
        for bound in [200, 100] {
            let out = check(&p, &bounds(bound), None);
            if bound == 200 {
                let Verdict::Unsafe(trace) = &out.verdict else {
                    panic!("expected unsafe, got {:?}", out.verdict);
                };
                assert_eq!(trace.steps.len(), 4);
            } else {
                // The bound is widened to the declared -150; `y` leaves it at once.
                assert_eq!(
                    out.verdict,
                    Verdict::unknown(UnknownKind::NoProof, "no error within bound 150 (1 states)")
                );
            }
        }
    }

    #[test]
    fn packing_round_trips() {
        let p = program("var a, b, c; thread p at 0 { 0 -> 1; 1 -> 2; } thread q at 0 { 0 -> 0; }");
        let packing = Packing::new(&p, 126).expect("fits");
        for vals in [[-126, 0, 126], [1, -1, 5], [0, UNDEF, lazy::value(0, 1)]] {
            let s = State {
                locs: vec![LocId(2), LocId(0)],
                vals: vals.to_vec(),
                arrays: Vec::new(),
            };
            assert_eq!(packing.unpack(packing.pack(&s).expect("packs")), s);
        }
        // Other lazy values are stored in full.
        let s = State {
            locs: vec![LocId(2), LocId(0)],
            vals: vec![0, lazy::value(1, 0), 0],
            arrays: Vec::new(),
        };
        assert_eq!(packing.pack(&s), None);
        assert!(Packing::new(&p, 127).is_none());
    }

    #[test]
    fn time_limit() {
        let p = program("var a, b, c; thread p at 0 { 0 -> 0; } error a > 100;");
        let out = check(
            &p,
            &Bounds {
                bound: 50,
                max_states: u64::MAX,
                partial_order: false,
            },
            Some(Instant::now()),
        );
        assert_eq!(out.verdict, Verdict::Unknown(Unknown::time()));
    }

    #[test]
    fn overflow_is_skipped() {
        // 3 * (2^63 - 1)^2 overflows the interpreter's 128-bit arithmetic,
        // in an assignment and in a guard.
        let p = program(
            "var x = 0, y = 3;
             thread p at 0 {
               0 -> 1 do x := 9223372036854775807 * (9223372036854775807 * y);
               0 -> 1 when 9223372036854775807 * (9223372036854775807 * y) > 0;
               0 -> 2 do x := 1;
             }
             error x == 1;",
        );
        let out = check(&p, &bounds(3), None);
        let Verdict::Unsafe(trace) = &out.verdict else {
            panic!("expected unsafe, got {:?}", out.verdict);
        };
        assert_eq!(trace.steps.len(), 1);
        assert_eq!(out.stats.symbolic_states, 2);
    }

    #[test]
    fn init_constraints_filter_initial_states() {
        let p = program(
            "var x, y;
             init x + y == 4 && x >= 3;
             thread p at 0 { 0 -> 0; }
             error y == 0;",
        );
        let out = check(&p, &bounds(5), None);
        let Verdict::Unsafe(trace) = &out.verdict else {
            panic!("expected unsafe, got {:?}", out.verdict);
        };
        assert_eq!(trace.initial.vals, vec![4, 0]);
        assert!(trace.steps.is_empty());
        let out = check(&p, &bounds(3), None);
        match &out.verdict {
            Verdict::Unknown(why) => assert_eq!(why.detail, "no error within bound 3 (1 states)"),
            v => panic!("expected unknown, got {v:?}"),
        }
    }

    #[test]
    fn varint_keys_round_trip() {
        let s = State {
            locs: vec![LocId(0), LocId(300)],
            vals: vec![
                0,
                -1,
                1,
                63,
                -64,
                64,
                i128::from(i64::MAX),
                i128::from(i64::MIN),
                UNDEF,
                lazy::value(0, 1),
                lazy::value(7, 300),
                i128::MAX,
                i128::MIN + 2,
            ],
            arrays: Vec::new(),
        };
        assert_eq!(from_bytes(&to_bytes(&s), 2, 13), s);
    }

    #[test]
    fn input_ranges_need_an_owner_and_bounding_guards() {
        let p = program(
            "var b = 0, n = 0, g = 0, s = 0;
             thread p at a {
               a -> i do b := *, n := *, s := *;
               i -> c when 0 <= b && b <= 1 && n >= 0 && s == 0 do g := b + n;
               i -> c when b == 3 && n < 5 && s == 1;
             }
             thread q at a { a -> a when s == 2; }
             error g == 9;",
        );
        let r = input_ranges(&p);
        let (b, n, s) = (VarId::new(0), VarId::new(1), VarId::new(2));
        let t = TransId::new(0);
        assert_eq!(r.get(&(t, b)), Some(&(0, 3)));
        assert_eq!(
            r.get(&(t, n)),
            None,
            "n has no upper bound on the first edge"
        );
        assert_eq!(r.get(&(t, s)), None, "s is read by another thread");
    }

    #[test]
    fn error_conditions_are_decided_over_lazy_domains() {
        // The race check's condition reads the quotient `t` of a wrapped
        // conversion at the location after its choice; the guard bounds it
        // to one value, which the error condition excludes (`t == 1`) or
        // needs (`t == 0`): a proof, and a trace that replays.
        let src = |needed: i64| {
            format!(
                "var a = 7, t = 0, y = 0;
                 thread p at s {{
                   s -> i do t := *;
                   i -> e when 0 <= a - 16 * t && a - 16 * t <= 15 do y := a - 16 * t;
                 }}
                 error p@i && 0 <= a - 16 * t && a - 16 * t <= 15 && t == {needed};"
            )
        };
        let safe = program(&src(1));
        let out = prove(&safe, &bounds(5), None);
        assert!(
            matches!(out.verdict, Verdict::Safe(Proof::ExhaustiveSearch)),
            "{:?}",
            out.verdict
        );
        let unsafe_ = program(&src(0));
        let out = prove(&unsafe_, &bounds(5), None);
        let Verdict::Unsafe(trace) = &out.verdict else {
            panic!("expected unsafe, got {:?}", out.verdict);
        };
        assert!(trace.replay(&unsafe_).is_ok());
    }

    #[test]
    fn exhaustive_search_proves_finite_programs() {
        let safe = program(
            "var x = 0, c = 0, d = 0;
             thread p at a {
               a -> i do c := *;
               i -> b when 0 <= c && c <= 1 do x := x + c;
             }
             thread q at a {
               a -> i do d := *;
               i -> b when 0 <= d && d <= 1 do x := x + 2 * d;
             }
             error x > 3;",
        );
        let out = prove(&safe, &bounds(1), None);
        assert!(
            matches!(out.verdict, Verdict::Safe(Proof::ExhaustiveSearch)),
            "{:?}",
            out.verdict
        );
        // The same program with a bug beyond the bound of inputs (x = 3 needs c = 1, d = 1,
        // both within their ranges) and values beyond the bound (x = 3 > B = 1).
        let unsafe_ = program(
            "var x = 0, c = 0, d = 0;
             thread p at a {
               a -> i do c := *;
               i -> b when 0 <= c && c <= 1 do x := x + c;
             }
             thread q at a {
               a -> i do d := *;
               i -> b when 0 <= d && d <= 1 do x := x + 2 * d;
             }
             error x == 3;",
        );
        let out = prove(&unsafe_, &bounds(1), None);
        let Verdict::Unsafe(trace) = &out.verdict else {
            panic!("expected unsafe, got {:?}", out.verdict);
        };
        assert!(trace.replay(&unsafe_).is_ok());
        assert!(matches!(
            check(&unsafe_, &bounds(1), None).verdict,
            Verdict::Unknown(_)
        ));
        // An error condition is decided over the domain of an input it
        // reads: x = 100 is found beyond the bound.
        let wide = program(
            "var x = 0;
             thread p at a { a -> b do x := *; }
             error x == 100;",
        );
        let out = prove(&wide, &bounds(5), None);
        let Verdict::Unsafe(trace) = &out.verdict else {
            panic!("expected unsafe, got {:?}", out.verdict);
        };
        assert!(trace.replay(&wide).is_ok());
        // An input that the guards do not decide is only sampled: no proof.
        let open = program(
            "var x = 0, y = 0, z = 0;
             thread p at a { a -> b do x := *, z := *; b -> c when x + z == 100 do y := 1; }
             error y == 1 && x > 10;",
        );
        let out = prove(&open, &bounds(5), None);
        let Verdict::Unknown(why) = &out.verdict else {
            panic!("expected unknown, got {:?}", out.verdict);
        };
        assert!(why.detail.contains("only tried in [-5, 5]"), "{why}");
        // An infinite state space hits the state limit.
        let counter = program(
            "var x = 0;
             thread p at a { a -> a do x := x + 1; }
             error x < 0;",
        );
        let out = prove(&counter, &bounds(5), None);
        assert!(
            matches!(&out.verdict, Verdict::Unknown(w) if w.kind == UnknownKind::Budget(Limit::States)),
            "{:?}",
            out.verdict
        );
    }
}
