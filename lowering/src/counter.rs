//! Counter abstraction of threads created in loops (SOUNDNESS.md, "Threads
//! created in loops").
//!
//! A `pthread_create` site inside a loop is lowered with several instances
//! of its thread ([`crate::LoopSite`]); they run the same code on their own
//! copies of the thread's locals. When the local state of the first
//! instance (its location and the values of its locals) ranges over a
//! finite set, every instance is in one of those local states, and the
//! instances can be replaced by one counter per local state: the number of
//! instances in it. The result is a program without the instances — the
//! shape of the parameterized models of the ASE paper — whose `safe`
//! answer holds for any number of threads started at the site:
//!
//! - a spawn increments the counter of the initial local state;
//! - a transition of the template from local state `s` to `s'` becomes
//!   `n_s >= 1 && guard[s] -> n_s := n_s - 1, n_s' := n_s' + 1` with its
//!   shared assignments, taken by one thread of counter transitions;
//! - "the instance is at `L`" becomes "the counters of the local states at
//!   `L` sum to at least 1".
//!
//! Every thread id of an instance is written as the first instance's id.
//! Locals with more than 64 possible values (a ticket number, distinct
//! arguments) are *forgotten*: comparisons reading them become true and
//! values computed from them inputs, an over-approximation. What would
//! break the simulation is refused with a reason (the caller answers
//! `unknown`): instances comparing thread ids, threads created by
//! instances, and a location test of an instance under a negation in a
//! guard.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use engine::ir::{
    Assign, CmpOp, Cond, LocId, Program, Rhs, Term, Thread, ThreadId, TransId, Transition, VarDecl,
    VarId,
};

use crate::term::{and, cmp, not, or, subst_cond, subst_term};
use crate::{GiveUpKind, Lowered};
use engine::certify::Invariant;

mod deadlock;
mod order;
mod races;
mod tickets;

/// At most this many order-only locals per template get canonical values
/// ([`order`]); more would multiply the local states.
const MAX_ORDER_ONLY: usize = 4;

/// At most this many local states per template.
const MAX_LOCAL_STATES: usize = 2000;
/// A local assigned a value read from shared memory or an input is
/// enumerated when its type has at most this many values.
const MAX_SPLIT: i128 = 64;

/// The counter system of a lowered program.
#[derive(Clone, Debug)]
pub struct CounterSystem {
    /// The program: the threads not created in loops, one thread of counter
    /// transitions per loop site, and the counters.
    pub program: Program,
    /// Per loop site: the template's name and its number of local states.
    pub templates: Vec<(String, usize)>,
    /// What the abstraction forgot, per local (it over-approximates there:
    /// comparisons with the local are true, values computed from it are
    /// inputs). A proof still holds; an error trace may be spurious.
    pub forgotten: Vec<String>,
    /// A coarser abstraction, when it differs: the variables only one of
    /// the creating threads uses are forgotten (comparisons with them are
    /// true, values computed from them are inputs). Easier to prove when
    /// the creators' loop counters do not matter; a proof of it is a proof
    /// of [`CounterSystem::program`].
    pub coarse: Option<Program>,
    /// The counter variables (of both programs: the coarse one keeps the
    /// variable ids). Each starts at 0, is only incremented or decremented
    /// by constants, and is only compared, in sums, with constants
    /// (what [`engine::saturate`] needs to cap them).
    pub counters: Vec<VarId>,
    /// The shared variables whose values read into template locals are
    /// speculated ([`counter_system_speculating`]).
    pub speculated: Vec<VarId>,
    /// Per loop site, its tracked instance (a view program, [`view_program`]).
    pub tracked: Vec<Tracked>,
    /// The anonymous steps of a view program, as steps that rely on what
    /// holds of the tracked instance in their local state
    /// ([`engine::infer::Rely`]; none in a counter system).
    pub relies: Vec<engine::infer::Rely>,
}

/// The tracked instance of a loop site in a view program
/// ([`view_program`]).
#[derive(Clone, Debug)]
pub struct Tracked {
    /// Its thread: location 0 before it starts, `j + 1` in local state `j`.
    pub thread: ThreadId,
    /// The template's locals, which the tracked instance keeps exactly.
    pub locals: Vec<VarId>,
    /// Per local, the variable whose value an anonymous step picks for it,
    /// for the locals forgotten in some local state.
    pub picked: Vec<Option<VarId>>,
    /// The pending start: the initial local state + 1, or 0.
    pub start: VarId,
    /// The counter of each local state.
    pub counters: Vec<VarId>,
}

impl Tracked {
    /// The picked variables and the pending start: never part of an
    /// assumption.
    pub fn machinery(&self) -> impl Iterator<Item = VarId> + '_ {
        self.picked.iter().flatten().copied().chain([self.start])
    }

    /// The locals forgotten in some local state.
    pub fn forgotten(&self) -> impl Iterator<Item = VarId> + '_ {
        self.locals
            .iter()
            .zip(&self.picked)
            .filter(|(_, y)| y.is_some())
            .map(|(&v, _)| v)
    }
}

/// What a view program assumes of the instances it does not track
/// ([`view_program`]): per loop site, per local state (by index), a
/// condition over the shared variables, the counters, the other threads'
/// locations and the template's locals (those of the tracked instance).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// Per loop site, per local state, the assumption.
    pub assumptions: Vec<BTreeMap<usize, Cond>>,
}

/// A value of a template local in a local state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Val {
    /// A known value.
    Known(i64),
    /// Forgotten (uninitialised, or one of too many values): comparisons
    /// reading it are true, values computed from it are inputs.
    Any,
    /// A value outside the speculated ones ([`counter_system_speculating`]):
    /// the instance goes to the violation state.
    Outside,
}

/// The location of the violation state of a template: an instance that
/// read a shared value outside the speculated ones.
const VIOLATION: LocId = LocId(u32::MAX);

/// A local state of a template: its location and its locals' values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct LocalState {
    loc: LocId,
    vals: Vec<Val>,
}

/// A spawn transition: its site and the initial local states it may
/// start, each with the condition under which it does.
type Spawn = (TransId, usize, Vec<(Cond, LocalState)>);

/// One loop site being abstracted.
struct Site {
    /// Locals whose values the abstraction forgets (described).
    forgotten: BTreeSet<String>,
    rep: ThreadId,
    dropped: Vec<ThreadId>,
    ids: Vec<i64>,
    spawned: VarId,
    run: VarId,
    /// The template's locals, in order.
    locals: Vec<VarId>,
    states: Vec<LocalState>,
    index: HashMap<LocalState, usize>,
    /// The counter variable of each local state.
    counters: Vec<VarId>,
    /// Locals of large types only compared and copied ([`order`]), the
    /// constants they are compared with, and the values their inputs take.
    order_only: BTreeSet<VarId>,
    /// Their positions in `locals`.
    order_positions: Vec<usize>,
    order_constants: BTreeSet<i64>,
    input_values: Vec<i64>,
}

/// Why the counter abstraction does not apply to a program (threads that
/// create threads, a race check, instances that are not interchangeable,
/// a counter read by a thread, ...).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotApplicable(pub String);

/// Builds the counter system, or says why it cannot.
pub fn counter_system(l: &Lowered) -> Result<CounterSystem, NotApplicable> {
    counter_system_speculating(l, &BTreeMap::new())
}

/// The *view program* of a lowered program (SOUNDNESS.md, "Threads created
/// in loops"): the counter system, where the counters count every
/// instance, plus one *tracked* instance per loop site, which keeps its
/// locals exactly (a spawn may start it instead of an anonymous one). A
/// step of an anonymous instance in local state `s` picks values of its
/// forgotten locals for which `view.assumptions[s]` holds (of the tracked
/// instance's locals) and runs the template's transition on them exactly;
/// the error condition adds "the tracked instance in `s` violates the
/// assumption of `s`". So a proof of the view program shows that every
/// instance meets the assumptions (each one could have been the tracked
/// one), which justifies them, and it holds for any number of instances.
pub fn view_program(l: &Lowered, view: &View) -> Result<CounterSystem, NotApplicable> {
    build(l, &BTreeMap::new(), Some(view)).map_err(NotApplicable)
}

impl CounterSystem {
    /// The scratch variables of a view program
    /// ([`engine::infer::Hints::scratch`]): the values anonymous steps pick
    /// for their locals.
    pub fn scratch(&self) -> Vec<VarId> {
        self.tracked
            .iter()
            .flat_map(|t| t.picked.iter().flatten().copied())
            .collect()
    }

    /// Linear forms worth a candidate fact of a view program: a shared
    /// variable that a tracked instance writes, or a local it forgets,
    /// minus the number of instances in the local states reachable from one
    /// local state (`x - Σ n_σ`: "`x` counts the instances past its
    /// increment"), and its negation. Coefficients by variable.
    pub fn view_forms(&self) -> Vec<Vec<(VarId, i64)>> {
        let p = &self.program;
        let mut out = Vec::new();
        // The variables the guards of the other threads read (what a
        // bound on the number of threads is compared with), when few.
        let tracked: BTreeSet<ThreadId> = self.tracked.iter().map(|t| t.thread).collect();
        let mut read = BTreeSet::new();
        for (i, thread) in p.threads.iter().enumerate() {
            if tracked.contains(&ThreadId::new(i)) {
                continue;
            }
            for &tr in &thread.transitions {
                p.transition(tr).guard.for_each_var(&mut |v| {
                    read.insert(v);
                });
            }
        }
        for t in &self.tracked {
            let thread = p.thread(t.thread);
            let moves: Vec<&Transition> = thread
                .transitions
                .iter()
                .map(|&i| p.transition(i))
                .collect();
            let skip: BTreeSet<VarId> = t
                .locals
                .iter()
                .chain(&self.counters)
                .copied()
                .chain(t.machinery())
                .collect();
            let written: BTreeSet<VarId> = moves
                .iter()
                .flat_map(|tr| tr.assigns.iter().map(|a| a.var))
                .filter(|v| !skip.contains(v))
                .chain(t.forgotten())
                .collect();
            // The local states reachable from each one (locations j + 1).
            let reach: Vec<BTreeSet<usize>> = (0..=t.counters.len())
                .map(|j| {
                    let mut seen = BTreeSet::from([j]);
                    let mut stack = vec![j];
                    while let Some(l) = stack.pop() {
                        for tr in &moves {
                            if tr.from.index() == l && seen.insert(tr.to.index()) {
                                stack.push(tr.to.index());
                            }
                        }
                    }
                    seen
                })
                .collect();
            let sum = |j: usize| -> BTreeSet<VarId> {
                reach[j]
                    .iter()
                    .filter_map(|l| l.checked_sub(1).map(|k| t.counters[k]))
                    .collect()
            };
            let sums: BTreeSet<BTreeSet<VarId>> = (1..=t.counters.len()).map(sum).collect();
            // `x - k·Σ counters`, both signs.
            let mut push = |x: VarId, k: i64, counters: &BTreeSet<VarId>| {
                for sign in [1, -1] {
                    let mut form = vec![(x, sign)];
                    form.extend(counters.iter().map(|&n| (n, -sign * k)));
                    out.push(form);
                }
            };
            for &x in &written {
                for s in &sums {
                    push(x, 1, s);
                }
                // Windows between two writes of `x`: the instances past the
                // first and not past the second; when the first writes a
                // constant `k` (a lock's owner mark), also `k` times their
                // number ("`x == k` while one instance is in the window").
                let after: BTreeSet<usize> = moves
                    .iter()
                    .filter(|tr| tr.assigns.iter().any(|a| a.var == x))
                    .map(|tr| tr.to.index())
                    .collect();
                for &i in &after {
                    for &j in &after {
                        if i != j && reach[i].contains(&j) && !reach[j].contains(&i) {
                            let (plus, minus) = (sum(i), sum(j));
                            let window = plus.difference(&minus).copied().collect();
                            push(x, 1, &window);
                            if let Some(k) = written_constant(&moves, x, i).filter(|k| *k > 1) {
                                push(x, k, &window);
                            }
                        }
                    }
                }
            }
            // Windows between a comparison of a local `x` with a shared `y`
            // and the next write of `y` ("the instances that saw `y == x`
            // and have not changed `y` yet"): their number, and `x - y`
            // minus their number.
            let own: BTreeSet<VarId> = t.locals.iter().copied().collect();
            for tr in &moves {
                let mut atoms = Vec::new();
                cmps(&tr.guard, &mut atoms);
                let mut met: BTreeSet<(VarId, VarId)> = BTreeSet::new();
                for (a, b) in atoms {
                    let mut vars = BTreeSet::new();
                    for side in [a, b] {
                        side.for_each_var(&mut |v| {
                            vars.insert(v);
                        });
                    }
                    for &x in vars.iter().filter(|v| own.contains(v)) {
                        for &y in vars
                            .iter()
                            .filter(|v| !own.contains(v) && !skip.contains(v))
                        {
                            met.insert((x, y));
                        }
                    }
                }
                let i = tr.to.index();
                for (x, y) in met {
                    for w in moves
                        .iter()
                        .filter(|w| w.assigns.iter().any(|a| a.var == y))
                    {
                        let j = w.to.index();
                        if i == j || !reach[i].contains(&j) || reach[j].contains(&i) {
                            continue;
                        }
                        let window: BTreeSet<VarId> = sum(i).difference(&sum(j)).copied().collect();
                        for sign in [1, -1] {
                            out.push(window.iter().map(|&n| (n, sign)).collect());
                            let mut form = vec![(x, sign), (y, -sign)];
                            form.extend(window.iter().map(|&n| (n, -sign)));
                            out.push(form);
                        }
                    }
                }
            }
            out.extend(spawn_forms(p, t, &skip, &read));
        }
        out
    }
}

/// The constant every move into location `to` assigns to `x`, when they
/// all assign the same one.
fn written_constant(moves: &[&Transition], x: VarId, to: usize) -> Option<i64> {
    let mut values = moves.iter().filter(|tr| tr.to.index() == to).map(|tr| {
        match tr.assigns.iter().find(|a| a.var == x) {
            Some(Assign {
                rhs: Rhs::Expr(Term::Const(k)),
                ..
            }) => Some(*k),
            _ => None,
        }
    });
    let first = values.next()??;
    values.all(|v| v == Some(first)).then_some(first)
}

/// At most this many variables read by the guards of other threads than
/// the tracked ones get forms of [`spawn_forms`] (else none of them).
const SPAWN_READ_FORMS: usize = 16;

/// Forms of the variables a spawn of `t`'s site reads or writes (the
/// creating loop's counter and bound) and of those in `read` (when few),
/// minus the number of instances started: `c·y - c·Σ n_σ - start` over
/// all local states, where `c` is the value of the pending start (so the
/// form counts a pending instance as started; without one value,
/// `y - Σ n_σ`), and its negation ("the loop ran `i` times", "at most
/// `n` threads").
fn spawn_forms(
    p: &Program,
    t: &Tracked,
    skip: &BTreeSet<VarId>,
    read: &BTreeSet<VarId>,
) -> Vec<Vec<(VarId, i64)>> {
    // The spawns that start the tracked instance, and the values they give
    // the pending start (a constant other than 0).
    let mut values = BTreeSet::new();
    let mut vars = BTreeSet::new();
    for tr in &p.transitions {
        let Some(start) = tr.assigns.iter().find(|a| a.var == t.start) else {
            continue;
        };
        match start.rhs {
            Rhs::Expr(Term::Const(0)) => continue,
            Rhs::Expr(Term::Const(c)) => values.insert(Some(c)),
            _ => values.insert(None),
        };
        tr.guard.for_each_var(&mut |v| {
            vars.insert(v);
        });
        for a in &tr.assigns {
            vars.insert(a.var);
            if let Rhs::Expr(e) = &a.rhs {
                e.for_each_var(&mut |v| {
                    vars.insert(v);
                });
            }
        }
    }
    let others: Vec<VarId> = read.iter().filter(|v| !skip.contains(v)).copied().collect();
    if others.len() <= SPAWN_READ_FORMS {
        vars.extend(others);
    }
    let c = match values.iter().collect::<Vec<_>>()[..] {
        [&Some(c)] if c > 0 => Some(c),
        _ => None,
    };
    let k = c.unwrap_or(1);
    let mut out = Vec::new();
    for y in vars.into_iter().filter(|v| !skip.contains(v)) {
        for sign in [1, -1] {
            let mut form = vec![(y, sign * k)];
            form.extend(t.counters.iter().map(|&n| (n, -sign * k)));
            if c.is_some() {
                form.push((t.start, -sign));
            }
            out.push(form);
        }
    }
    // The number of instances started alone ("at most `N` threads", `N` a
    // constant: what remains of "the loop ran `i` times" once `i` is dead).
    for sign in [1, -1] {
        let mut form: Vec<(VarId, i64)> = t.counters.iter().map(|&n| (n, sign * k)).collect();
        if c.is_some() {
            form.push((t.start, sign));
        }
        out.push(form);
    }
    out
}

impl View {
    /// The view that states what the relying steps of a proof assumed
    /// ([`CounterSystem::relies`], `invariants` inferred with them): per
    /// site, per local state `s`, the disjunction over the invariants'
    /// tuples with the tracked instance in `s` of "the other threads are at
    /// that tuple's locations and its facts hold" (facts on the machinery
    /// left out); `false` where no tuple has it. The view program built
    /// with it assumes in each anonymous step what the relying step did, so
    /// `invariants` is inductive for it too, and the independent checker
    /// can check it (its error includes "the tracked instance violates an
    /// assumption", which `invariants` excludes).
    pub fn from_rely(system: &CounterSystem, invariants: &[Invariant]) -> View {
        let machinery: BTreeSet<VarId> =
            system.tracked.iter().flat_map(Tracked::machinery).collect();
        let p = &system.program;
        let mut view = View::default();
        for (t, (_, states)) in system.tracked.iter().zip(&system.templates) {
            let mut per: BTreeMap<usize, Cond> = (0..*states).map(|s| (s, Cond::False)).collect();
            for inv in invariants {
                let Some(at) = inv.locs[t.thread.index()].index().checked_sub(1) else {
                    continue;
                };
                let ([block], Some(assumed)) = (&inv.blocks[..], per.get_mut(&at)) else {
                    continue;
                };
                let [facts] = &block[..] else {
                    continue;
                };
                let mut disjunct = Cond::True;
                for (k, &l) in inv.locs.iter().enumerate() {
                    let other = ThreadId::new(k);
                    if other != t.thread && p.thread(other).locs.len() > 1 {
                        disjunct = and(disjunct, Cond::At(other, l));
                    }
                }
                for f in facts {
                    let mut hidden = false;
                    f.for_each_var(&mut |v| hidden |= machinery.contains(&v));
                    if !hidden {
                        disjunct = and(disjunct, f.clone());
                    }
                }
                *assumed = or(std::mem::replace(assumed, Cond::False), disjunct);
            }
            view.assumptions.push(per);
        }
        view
    }

    /// What `invariants` of a view program say of its tracked instances, per
    /// local state: the facts on the tracked instance's locals that hold at
    /// every tuple of locations where it is in that state.
    pub fn from_invariants(system: &CounterSystem, invariants: &[Invariant]) -> View {
        let machinery: BTreeSet<VarId> =
            system.tracked.iter().flat_map(Tracked::machinery).collect();
        let mut view = View::default();
        for t in &system.tracked {
            let own: BTreeSet<VarId> = t.locals.iter().copied().collect();
            // Per local state, the facts `form <= bound` of every tuple
            // where the tracked instance is there (the weakest bound).
            let mut common: BTreeMap<usize, Vec<(Term, i64)>> = BTreeMap::new();
            for inv in invariants {
                let at = inv.locs[t.thread.index()].index();
                let ([block], Some(at)) = (&inv.blocks[..], at.checked_sub(1)) else {
                    continue;
                };
                let [facts] = &block[..] else {
                    continue;
                };
                // A tuple that the invariant excludes (a fact `false`).
                if facts.iter().any(|f| fold(f) == Cond::False) {
                    continue;
                }
                let mut tight: Vec<(Term, i64)> = Vec::new();
                for f in facts {
                    let Cond::Cmp(CmpOp::Le, form, Term::Const(bound)) = f else {
                        continue;
                    };
                    let (mut mine, mut other) = (false, false);
                    form.for_each_var(&mut |v| {
                        mine |= own.contains(&v);
                        other |= machinery.contains(&v);
                    });
                    if !mine || other {
                        continue;
                    }
                    match tight.iter_mut().find(|(g, _)| g == form) {
                        Some((_, b)) => *b = (*b).min(*bound),
                        None => tight.push((form.clone(), *bound)),
                    }
                }
                match common.get_mut(&at) {
                    None => {
                        common.insert(at, tight);
                    }
                    Some(facts) => {
                        facts.retain_mut(|(form, b)| match tight.iter().find(|(g, _)| g == form) {
                            Some((_, c)) => {
                                *b = (*b).max(*c);
                                true
                            }
                            None => false,
                        })
                    }
                }
            }
            let assumptions = common
                .into_iter()
                .filter(|(_, facts)| !facts.is_empty())
                .map(|(at, facts)| {
                    let c = facts
                        .into_iter()
                        .map(|(form, b)| cmp(CmpOp::Le, form, Term::Const(b)))
                        .fold(Cond::True, and);
                    (at, c)
                })
                .collect();
            view.assumptions.push(assumptions);
        }
        view
    }
}

/// [`counter_system`], where a template local assigned a value read from a
/// shared variable `x` of `speculate` (a value of a large type, which it
/// would forget) takes each value of `x` in `speculate[x]` exactly, and an
/// instance reading any other value goes to a *violation state* whose
/// counter the error condition tests (`n >= 1`). So a proof of the system
/// shows that every read value was speculated, and the abstraction of those
/// reads was exact; an error trace to the violation state says which
/// values to add ([`CounterSystem::speculated`]).
pub fn counter_system_speculating(
    l: &Lowered,
    speculate: &BTreeMap<VarId, BTreeSet<i64>>,
) -> Result<CounterSystem, NotApplicable> {
    build(l, speculate, None).map_err(NotApplicable)
}

fn build(
    l: &Lowered,
    speculate: &BTreeMap<VarId, BTreeSet<i64>>,
    view: Option<&View>,
) -> Result<CounterSystem, String> {
    if l.program.has_arrays() {
        return Err("the counter abstraction takes no program with arrays".into());
    }
    let without_slots;
    let original = l;
    let l = if l.handle_slots.is_empty() {
        l
    } else {
        without_slots = forget_slots(l);
        &without_slots
    };
    let p = &l.program;
    let (runs, in_site) = applicable(l)?;
    let mut sites = make_sites(l, &runs, view)?;
    let mut out = Program {
        vars: p.vars.clone(),
        init: p.init.clone(),
        ..Program::default()
    };
    let mut names: HashSet<String> = p.vars.iter().map(|v| v.name.clone()).collect();
    let spawns = spawn_states(l, &mut sites);
    // Explore the local states of each template.
    let mut counter_moves: Vec<Vec<Move>> = Vec::new();
    let mut speculated = BTreeSet::new();
    for site in sites.iter_mut() {
        counter_moves.push(explore(l, site, speculate, &mut speculated)?);
    }
    add_counters(p, &mut sites, &mut out, &mut names);
    let (map, counter_thread) = copy_threads(p, &in_site, &sites, &mut out);
    // A view program: per site, the tracked instance.
    let tracked = match view {
        Some(_) => add_tracked(p, &sites, &counter_thread, &mut out, &mut names),
        None => Vec::new(),
    };
    let ctx = Ctx {
        sites: &sites,
        map: &map,
    };
    other_transitions(l, &ctx, &spawns, &tracked, &mut out)?;
    tracked_starts(&sites, &spawns, &tracked, &mut out);
    let tickets = ticket_locals(p, &sites, &spawns, &counter_moves);
    let moves = Moves {
        ctx: &ctx,
        view,
        tracked: &tracked,
        tickets: &tickets,
        counter_thread: &counter_thread,
    };
    let relies = moves.add(counter_moves, &mut out)?;
    let deadlock = match (&original.deadlock, original.deadlock_index()) {
        (Some(shape), Some(at)) => {
            let droppable = not_kept(original, &sites, &shape.assigned, &out);
            let abstraction = deadlock::Abstraction::new(original, shape, &ctx, droppable);
            Some((at, abstraction.condition()?))
        }
        _ => None,
    };
    let stale = not_kept(l, &sites, &crate::deadlock::assigned(p), &out);
    let races = (l.race_range(), races::condition(l, &ctx, &stale)?);
    add_errors(p, &ctx, view, &tracked, deadlock, races, &mut out)?;
    let creators: HashSet<ThreadId> = spawns
        .iter()
        .map(|(t, _, _)| map[&p.transition(*t).thread])
        .collect();
    let coarse = match view {
        None => forget_creator_locals(&out, &creators),
        Some(_) => None,
    };
    Ok(CounterSystem {
        coarse,
        counters: sites
            .iter()
            .flat_map(|s| s.counters.iter().copied())
            .collect(),
        speculated: speculated.into_iter().collect(),
        forgotten: sites
            .iter()
            .flat_map(|s| s.forgotten.iter().cloned())
            .collect(),
        templates: sites
            .iter()
            .map(|s| (p.thread(s.rep).name.clone(), s.states.len()))
            .collect(),
        program: out,
        tracked,
        relies,
    })
}

/// The program with the slots of arrays of thread handles forgotten (a
/// join waits for some ended instance; the array's counters keep the
/// joins distinct; the slots are assigned by spawns and compared by joins
/// only) and without the give-ups of the slots ([`GiveUpKind::HandleSlot`]:
/// a handle stored over a started thread's is covered once slots are
/// forgotten; a join of an element holding no joinable thread is
/// undefined behaviour, assumed away here).
fn forget_slots(l: &Lowered) -> Lowered {
    let slots = l.handle_slots.iter().copied().collect();
    let mut program = forget(&l.program, &slots);
    let give_ups: HashSet<(ThreadId, LocId)> = l
        .give_ups
        .iter()
        .filter(|(_, _, g)| g.kind == GiveUpKind::HandleSlot)
        .map(|(t, at, _)| (*t, *at))
        .collect();
    for tr in &mut program.transitions {
        if give_ups.contains(&(tr.thread, tr.to)) {
            tr.guard = Cond::False;
        }
    }
    Lowered {
        program,
        ..l.clone()
    }
}

/// Whether the counter abstraction applies: threads created in loops, each
/// site with several instances that create no threads themselves. The threads' run flags and the site of each instance.
#[allow(clippy::type_complexity)]
fn applicable(l: &Lowered) -> Result<(HashMap<VarId, ThreadId>, HashMap<ThreadId, usize>), String> {
    let p = &l.program;
    if l.loop_sites.is_empty() {
        return Err("no thread is created in a loop".into());
    }
    let runs: HashMap<VarId, ThreadId> = l
        .threads
        .iter()
        .enumerate()
        .filter_map(|(k, t)| t.run.map(|r| (r, ThreadId::new(k))))
        .collect();
    let name = |t: ThreadId| p.thread(t).name.clone();
    let mut in_site: HashMap<ThreadId, usize> = HashMap::new();
    for (i, s) in l.loop_sites.iter().enumerate() {
        if s.instances.len() < 2 {
            return Err(format!(
                "thread {} is created in a loop but has one instance",
                name(s.instances[0])
            ));
        }
        for &t in &s.instances {
            in_site.insert(t, i);
        }
    }
    // Threads started by instances would be started once per instance.
    for (&t, _) in in_site.iter() {
        for &tr in &p.thread(t).transitions {
            if p.transition(tr)
                .assigns
                .iter()
                .any(|a| runs.contains_key(&a.var))
            {
                return Err(format!(
                    "thread {} is created in a loop and creates threads itself",
                    name(t)
                ));
            }
        }
    }
    Ok((runs, in_site))
}

/// The sites of the threads created in loops, each with its template (the
/// first instance), locals, and what of them is kept only in order.
fn make_sites(
    l: &Lowered,
    runs: &HashMap<VarId, ThreadId>,
    view: Option<&View>,
) -> Result<Vec<Site>, String> {
    let p = &l.program;
    let mut sites = Vec::new();
    for s in &l.loop_sites {
        let rep = s.instances[0];
        for &d in &s.instances[1..] {
            same_shape(p, rep, d)?;
        }
        let locals = template_locals(l, rep, runs);
        let run = l.threads[rep.index()]
            .run
            .expect("instances have a run flag");
        let starts: Vec<TransId> = (0..p.transitions.len())
            .map(TransId::new)
            .filter(|&t| p.transition(t).assigns.iter().any(|a| a.var == run))
            .collect();
        let code: Vec<&Transition> = p
            .thread(rep)
            .transitions
            .iter()
            .chain(&starts)
            .map(|&t| p.transition(t))
            .collect();
        let compared = order::order_only(&code, &locals);
        // The locals that only hold constants are compared with the others
        // as constants: theirs count in (renaming keeps them).
        let order_constants = order::constants(p, &code, &compared);
        let mut order_only = order::input_fed(&code, &compared);
        // A view program keeps the tracked instance's values exactly.
        if order_only.len() > MAX_ORDER_ONLY || view.is_some() {
            order_only.clear();
        }
        let input_values = order::input_values(&order_constants, order_only.len());
        let order_positions = (0..locals.len())
            .filter(|&i| order_only.contains(&locals[i]))
            .collect();
        sites.push(Site {
            order_only,
            order_positions,
            order_constants,
            input_values,
            forgotten: Default::default(),
            rep,
            dropped: s.instances[1..].to_vec(),
            ids: s.instances.iter().map(|t| t.index() as i64 + 1).collect(),
            spawned: s.spawned,
            run: l.threads[rep.index()]
                .run
                .expect("instances have a run flag"),
            locals,
            states: Vec::new(),
            index: HashMap::new(),
            counters: Vec::new(),
        });
    }
    check_ids(l, &sites)?;
    Ok(sites)
}

/// The initial local states of each site, from its spawn transitions:
/// per spawn transition, its site and the initial states with their extra
/// guards.
fn spawn_states(l: &Lowered, sites: &mut [Site]) -> Vec<Spawn> {
    let p = &l.program;
    let name = |t: ThreadId| p.thread(t).name.clone();
    let mut spawns: Vec<Spawn> = Vec::new();
    for (i, site) in sites.iter_mut().enumerate() {
        for (k, tr) in p.transitions.iter().enumerate() {
            if !tr.assigns.iter().any(|a| a.var == site.run) {
                continue;
            }
            let mut vals: Vec<Vec<(Cond, Val)>> = Vec::new();
            for &v in &site.locals {
                let init = match p.var(v).init {
                    Some(c) => Val::Known(c),
                    None => Val::Any,
                };
                let choices = match tr.assigns.iter().find(|a| a.var == v) {
                    None => vec![(Cond::True, init)],
                    Some(a) => match &a.rhs {
                        Rhs::Expr(Term::Const(c)) => vec![(Cond::True, Val::Known(*c))],
                        Rhs::Expr(t) => split(l, v, t).unwrap_or_else(|| {
                            site.forgotten.insert(format!(
                                "the argument `{}` of {} (the instances get distinct \
                                 arguments: not interchangeable)",
                                p.named(t),
                                name(site.rep)
                            ));
                            vec![(Cond::True, Val::Any)]
                        }),
                        Rhs::Nondet => vec![(Cond::True, Val::Any)],
                    },
                };
                vals.push(choices);
            }
            let start = p.thread(site.rep).initial;
            let mut inits = Vec::new();
            for (g, vs) in product(&vals) {
                let st = LocalState {
                    loc: start,
                    vals: vs,
                };
                intern(site, st.clone());
                inits.push((g, st));
            }
            spawns.push((TransId::new(k), i, inits));
        }
    }
    spawns
}

/// A counter per local state of each site, initially 0.
fn add_counters(p: &Program, sites: &mut [Site], out: &mut Program, names: &mut HashSet<String>) {
    for site in sites.iter_mut() {
        let tname = sanitize(&p.thread(site.rep).name);
        for (j, st) in site.states.iter().enumerate() {
            let loc = if st.loc == VIOLATION {
                "violation"
            } else {
                p.loc_name(site.rep, st.loc)
            };
            let n = fresh(out, names, format!("n_{tname}_{}_{j}", sanitize(loc)));
            out.vars[n.index()].init = Some(0);
            site.counters.push(n);
        }
    }
}

/// The threads: every thread not created in a loop, then one counter
/// thread per site (in place of its first instance). The map of the kept
/// threads, and the counter thread of each site.
fn copy_threads(
    p: &Program,
    in_site: &HashMap<ThreadId, usize>,
    sites: &[Site],
    out: &mut Program,
) -> (HashMap<ThreadId, ThreadId>, Vec<ThreadId>) {
    let mut map: HashMap<ThreadId, ThreadId> = HashMap::new();
    for (k, t) in p.threads.iter().enumerate() {
        let tid = ThreadId::new(k);
        if in_site.contains_key(&tid) {
            continue;
        }
        map.insert(tid, ThreadId::new(out.threads.len()));
        out.threads.push(Thread {
            name: t.name.clone(),
            locs: t.locs.clone(),
            initial: t.initial,
            transitions: Vec::new(),
        });
    }
    let mut counter_thread = Vec::new();
    for site in sites {
        counter_thread.push(ThreadId::new(out.threads.len()));
        out.threads.push(Thread {
            name: format!("{}_counters", sanitize(&p.thread(site.rep).name)),
            locs: vec!["run".into()],
            initial: LocId::new(0),
            transitions: Vec::new(),
        });
    }
    (map, counter_thread)
}

/// Per site of a view program, the tracked instance: its thread (idle,
/// then a location per local state), the picked values of the locals other
/// instances forget, and its start flag.
fn add_tracked(
    p: &Program,
    sites: &[Site],
    counter_thread: &[ThreadId],
    out: &mut Program,
    names: &mut HashSet<String>,
) -> Vec<Tracked> {
    let mut tracked = Vec::new();
    for (i, site) in sites.iter().enumerate() {
        let tname = sanitize(&p.thread(site.rep).name);
        let forgotten = |k: usize| {
            site.states
                .iter()
                .any(|st| !matches!(st.vals[k], Val::Known(_)))
        };
        let ys: Vec<Option<VarId>> = (0..site.locals.len())
            .map(|k| {
                forgotten(k).then(|| {
                    let v = site.locals[k];
                    fresh(
                        out,
                        names,
                        format!("{tname}_other_{}", sanitize(&p.var(v).name)),
                    )
                })
            })
            .collect();
        let start = fresh(out, names, format!("{tname}_tracked_start"));
        out.vars[start.index()].init = Some(0);
        let thread = ThreadId::new(out.threads.len());
        let mut locs = vec!["idle".to_string()];
        locs.extend(
            site.states
                .iter()
                .enumerate()
                .map(|(j, st)| format!("s{j}_{}", sanitize(p.loc_name(site.rep, st.loc)))),
        );
        out.threads.push(Thread {
            name: format!("{tname}_tracked"),
            locs,
            initial: LocId::new(0),
            transitions: Vec::new(),
        });
        let havoc: Vec<Assign> = ys
            .iter()
            .flatten()
            .map(|&var| Assign {
                var,
                rhs: Rhs::Nondet,
            })
            .collect();
        if !havoc.is_empty() {
            let label = format!("{tname}_pick");
            push(
                out,
                counter_thread[i],
                LocId::new(0),
                LocId::new(0),
                Cond::True,
                havoc,
                label,
            );
        }
        tracked.push(Tracked {
            thread,
            locals: site.locals.clone(),
            picked: ys,
            start,
            counters: site.counters.clone(),
        });
    }
    tracked
}

/// The transitions of the threads not created in loops; a spawn
/// increments the counter of the started instance's local state (or starts
/// the tracked instance of a view program).
fn other_transitions(
    l: &Lowered,
    ctx: &Ctx<'_>,
    spawns: &[Spawn],
    tracked: &[Tracked],
    out: &mut Program,
) -> Result<(), String> {
    let p = &l.program;
    let (sites, map) = (ctx.sites, ctx.map);
    for (k, tr) in p.transitions.iter().enumerate() {
        let Some(&nt) = map.get(&tr.thread) else {
            continue;
        };
        if sites
            .iter()
            .any(|s| tr.assigns.iter().any(|a| s.dropped_run(l, a.var)))
        {
            continue; // starts a dropped instance: the first one stands for it
        }
        let spawn = spawns.iter().find(|(t, _, _)| t.index() == k);
        let reads_spawned = sites.iter().any(|s| reads(tr, s.spawned));
        if reads_spawned && spawn.is_none() {
            if !l
                .give_ups
                .iter()
                .any(|(t, g, _)| *t == tr.thread && *g == tr.to)
            {
                return Err(format!(
                    "thread {} reads the counter of a thread-creation site",
                    p.thread(tr.thread).name
                ));
            }
            continue; // the site started all its instances: no longer a limit
        }
        let guard = ctx.guard(&tr.guard, true)?;
        let guard = subst_cond(&guard, &|v| {
            sites
                .iter()
                .any(|s| s.spawned == v)
                .then_some(Term::Const(0))
        });
        let assigns: Vec<Assign> = tr
            .assigns
            .iter()
            .filter(|a| {
                !sites
                    .iter()
                    .any(|s| a.var == s.spawned || a.var == s.run || s.locals.contains(&a.var))
            })
            .cloned()
            .collect();
        let label = tr.label.clone();
        match spawn {
            None => {
                if guard == Cond::False {
                    continue;
                }
                push(out, nt, tr.from, tr.to, guard, assigns, label);
            }
            Some((_, i, inits)) => {
                let site = &sites[*i];
                // A spawn's version: its guard and assignments, its label.
                let mut spawn = |g: Cond, a: Vec<Assign>, label: String| {
                    if g != Cond::False {
                        push(out, nt, tr.from, tr.to, g, a, label);
                    }
                };
                for (j, (g, st)) in inits.iter().enumerate() {
                    let c = site.counters[site.index[st]];
                    let g = and(guard.clone(), g.clone());
                    if let Some(t) = tracked.get(*i) {
                        // Or start the tracked instance, with its locals.
                        let mut a = assigns.clone();
                        a.extend(
                            tr.assigns
                                .iter()
                                .filter(|a| site.locals.contains(&a.var))
                                .cloned(),
                        );
                        a.push(Assign {
                            var: t.start,
                            rhs: Rhs::Expr(Term::Const(site.index[st] as i64 + 1)),
                        });
                        let idle = and(
                            Cond::At(t.thread, LocId::new(0)),
                            cmp(CmpOp::Eq, Term::Var(t.start), Term::Const(0)),
                        );
                        spawn(
                            and(g.clone(), idle),
                            a,
                            format!("{label}.{}.tracked", j + 1),
                        );
                    }
                    let mut a = assigns.clone();
                    a.push(increment(c, 1));
                    spawn(g, a, format!("{label}.{}", j + 1));
                }
            }
        }
    }
    Ok(())
}

/// The starts of the tracked instances of a view program.
fn tracked_starts(sites: &[Site], spawns: &[Spawn], tracked: &[Tracked], out: &mut Program) {
    for (i, t) in tracked.iter().enumerate() {
        let site = &sites[i];
        let starts: BTreeSet<usize> = spawns
            .iter()
            .filter(|(_, k, _)| *k == i)
            .flat_map(|(_, _, inits)| inits.iter().map(|(_, st)| site.index[st]))
            .collect();
        for j in starts {
            let guard = cmp(CmpOp::Eq, Term::Var(t.start), Term::Const(j as i64 + 1));
            let assigns = vec![
                Assign {
                    var: t.start,
                    rhs: Rhs::Expr(Term::Const(0)),
                },
                increment(site.counters[j], 1),
            ];
            let label = format!("start{j}");
            push(
                out,
                t.thread,
                LocId::new(0),
                LocId::new(j + 1),
                guard,
                assigns,
                label,
            );
        }
    }
}

/// Per site, its ticket locals (facts of every execution).
fn ticket_locals(
    p: &Program,
    sites: &[Site],
    spawns: &[Spawn],
    counter_moves: &[Vec<Move>],
) -> Vec<Vec<tickets::Ticket>> {
    sites
        .iter()
        .enumerate()
        .map(|(i, site)| {
            let initial: BTreeSet<usize> = spawns
                .iter()
                .filter(|(_, k, _)| *k == i)
                .flat_map(|(_, _, inits)| inits.iter().map(|(_, st)| site.index[st]))
                .collect();
            let steps: Vec<tickets::Step<'_>> = counter_moves[i]
                .iter()
                .map(|m| tickets::Step {
                    from: m.from,
                    to: m.to,
                    assigns: &m.exact_assigns,
                })
                .collect();
            tickets::tickets(p, &site.locals, site.states.len(), &initial, &steps)
        })
        .collect()
}

/// What the counter transitions are built from.
struct Moves<'a> {
    ctx: &'a Ctx<'a>,
    view: Option<&'a View>,
    tracked: &'a [Tracked],
    tickets: &'a [Vec<tickets::Ticket>],
    counter_thread: &'a [ThreadId],
}

impl Moves<'_> {
    /// The counter transitions of every site (and the tracked instances'
    /// moves of a view program); the relying steps of a view program.
    fn add(
        &self,
        counter_moves: Vec<Vec<Move>>,
        out: &mut Program,
    ) -> Result<Vec<engine::infer::Rely>, String> {
        let (ctx, view, tracked, tickets) = (self.ctx, self.view, self.tracked, self.tickets);
        let sites = ctx.sites;
        let counter_thread = self.counter_thread;
        let machinery: Vec<VarId> = tracked.iter().flat_map(Tracked::machinery).collect();
        let mut relies = Vec::new();
        for (i, moves) in counter_moves.into_iter().enumerate() {
            let site = &sites[i];
            for m in moves {
                let (a, b) = (site.counters[m.from], site.counters[m.to]);
                let mut counting = Vec::new();
                if a != b {
                    counting.push(increment(a, -1));
                    counting.push(increment(b, 1));
                }
                let th = counter_thread[i];
                let mut rely = None;
                let (guard, mut assigns) = match view {
                    None => (
                        and(
                            cmp(CmpOp::Ge, Term::Var(a), Term::Const(1)),
                            ctx.guard(&m.guard, true)?,
                        ),
                        m.assigns,
                    ),
                    Some(view) => {
                        // The tracked instance's move, exactly.
                        let t = &tracked[i];
                        let mut assigns = m.exact_assigns.clone();
                        assigns.extend(counting.iter().cloned());
                        let from = LocId::new(m.from + 1);
                        let exact = ctx.guard(&m.exact_guard, true)?;
                        let label = format!("{}.tracked", m.label);
                        push(
                            out,
                            t.thread,
                            from,
                            LocId::new(m.to + 1),
                            exact.clone(),
                            assigns,
                            label,
                        );
                        // An anonymous instance's: one that is not the tracked one,
                        // with values of its forgotten locals that meet the assumption.
                        let own = site_values(site, &t.picked, m.from);
                        let anonymous = and(
                            cmp(CmpOp::Ge, Term::Var(a), Term::Const(1)),
                            or(
                                not(Cond::At(t.thread, from)),
                                cmp(CmpOp::Ge, Term::Var(a), Term::Const(2)),
                            ),
                        );
                        let assumed = view.assumptions.get(i).and_then(|s| s.get(&m.from));
                        let mut assumed = assumed.map_or(Cond::True, |c| subst_cond(c, &own));
                        // Its tickets differ from the tracked instance's.
                        for ticket in tickets[i].iter().filter(|k| k.holding.contains(&m.from)) {
                            let Some(x) = own(site.locals[ticket.position]) else {
                                continue;
                            };
                            let holds = ticket
                                .holding
                                .iter()
                                .map(|&at| Cond::At(t.thread, LocId::new(at + 1)))
                                .fold(Cond::False, or);
                            let differ = cmp(CmpOp::Ne, x, Term::Var(t.locals[ticket.position]));
                            assumed = and(assumed, or(not(holds), differ));
                        }
                        // What the step relies on: the tracked instance's facts
                        // in its local state, of its locals' values.
                        let mut renaming = Vec::new();
                        let mut hidden = machinery.clone();
                        for &x in &t.locals {
                            match own(x) {
                                Some(e) => renaming.push((x, e)),
                                None => hidden.push(x),
                            }
                        }
                        rely = Some(engine::infer::Rely {
                            transition: TransId::new(out.transitions.len()),
                            thread: t.thread,
                            at: from,
                            renaming,
                            hidden,
                        });
                        let guard = and(and(anonymous, assumed), subst_cond(&exact, &own));
                        let assigns: Vec<Assign> = m
                            .exact_assigns
                            .iter()
                            .filter(|a| !site.locals.contains(&a.var))
                            .map(|a| Assign {
                                var: a.var,
                                rhs: match &a.rhs {
                                    Rhs::Expr(e) => Rhs::Expr(subst_term(e, &own)),
                                    Rhs::Nondet => Rhs::Nondet,
                                },
                            })
                            .collect();
                        (guard, assigns)
                    }
                };
                assigns.extend(counting);
                relies.extend(rely);
                push(
                    out,
                    th,
                    LocId::new(0),
                    LocId::new(0),
                    guard,
                    assigns,
                    m.label,
                );
            }
        }
        Ok(relies)
    }
}

/// The error conditions: the program's, over the counters (the race
/// conditions as [`races::condition`] says); a view
/// program's tracked instance violating an assumption; an instance in a
/// violation state of the speculation.
fn add_errors(
    p: &Program,
    ctx: &Ctx<'_>,
    view: Option<&View>,
    tracked: &[Tracked],
    deadlock: Option<(usize, Cond)>,
    (race_range, race): (std::ops::Range<usize>, Cond),
    out: &mut Program,
) -> Result<(), String> {
    for (i, e) in p.error.iter().enumerate() {
        match &deadlock {
            Some((at, c)) if *at == i => out.error.push(c.clone()),
            // The race conditions, all in the first one (when there are
            // any: an empty range starts at the next condition).
            _ if i == race_range.start && !race_range.is_empty() => out.error.push(race.clone()),
            _ if race_range.contains(&i) => out.error.push(Cond::False),
            _ => out.error.push(ctx.error(e)?),
        }
    }
    if let Some(view) = view {
        // The tracked instance violates an assumption.
        for (i, t) in tracked.iter().enumerate() {
            for (&j, c) in view.assumptions.get(i).into_iter().flatten() {
                out.error
                    .push(and(Cond::At(t.thread, LocId::new(j + 1)), not(c.clone())));
            }
        }
    }
    for site in ctx.sites {
        for (j, st) in site.states.iter().enumerate() {
            if st.loc == VIOLATION {
                out.error
                    .push(cmp(CmpOp::Ge, Term::Var(site.counters[j]), Term::Const(1)));
            }
        }
    }
    Ok(())
}

/// The variables whose values the counter system `out` may not keep:
/// those the emitted program assigns (`assigned`) and `out` does not (the
/// other instances' locals, the slots of handle arrays, the sites' counts
/// of started instances, forgotten variables), the templates' locals and
/// the instances' run flags.
fn not_kept(
    l: &Lowered,
    sites: &[Site],
    assigned: &HashSet<VarId>,
    out: &Program,
) -> HashSet<VarId> {
    let kept = crate::deadlock::assigned(out);
    let mut vars: HashSet<VarId> = assigned.difference(&kept).copied().collect();
    vars.extend(l.handle_slots.iter().copied());
    for s in sites {
        vars.extend(s.locals.iter().copied());
        vars.insert(s.spawned);
        let instances = std::iter::once(&s.rep).chain(&s.dropped);
        vars.extend(instances.filter_map(|t| l.threads[t.index()].run));
    }
    vars
}

/// A fresh variable named `base` (or `base_2`, ...), without initial value.
fn fresh(out: &mut Program, names: &mut HashSet<String>, base: String) -> VarId {
    let mut n = base.clone();
    let mut c = 1;
    while !names.insert(n.clone()) {
        c += 1;
        n = format!("{base}_{c}");
    }
    out.vars.push(VarDecl {
        name: n,
        init: None,
    });
    VarId::new(out.vars.len() - 1)
}

/// `v := v + k`.
fn increment(v: VarId, k: i64) -> Assign {
    let rhs = if k < 0 {
        crate::term::sub(Term::Var(v), Term::Const(-k))
    } else {
        crate::term::add(Term::Var(v), Term::Const(k))
    };
    Assign {
        var: v,
        rhs: Rhs::Expr(rhs),
    }
}

/// The values of an anonymous instance's locals in local state `j`: the
/// known ones, else the picked ones.
fn site_values<'a>(
    site: &'a Site,
    picked: &'a [Option<VarId>],
    j: usize,
) -> impl Fn(VarId) -> Option<Term> + 'a {
    move |v| {
        let k = site.locals.iter().position(|&w| w == v)?;
        match site.states[j].vals[k] {
            Val::Known(c) => Some(Term::Const(c)),
            _ => picked[k].map(Term::Var),
        }
    }
}

impl Site {
    /// Renames the values of the order-only locals to their canonical
    /// form ([`order::canonical`]).
    fn canonical(&self, vals: &mut [Val]) {
        let positions = &self.order_positions;
        if positions.is_empty() {
            return;
        }
        let mut known: Vec<Option<i64>> = vals
            .iter()
            .map(|v| match v {
                Val::Known(c) => Some(*c),
                _ => None,
            })
            .collect();
        order::canonical(
            &mut known,
            positions,
            &self.order_constants,
            positions.len(),
        );
        for &i in positions {
            if let Some(c) = known[i] {
                vals[i] = Val::Known(c);
            }
        }
    }

    fn dropped_run(&self, l: &Lowered, v: VarId) -> bool {
        self.dropped
            .iter()
            .any(|d| l.threads[d.index()].run == Some(v))
    }
}

struct Ctx<'a> {
    sites: &'a [Site],
    map: &'a HashMap<ThreadId, ThreadId>,
}

impl Ctx<'_> {
    /// A condition of the counter system: location tests of instances
    /// become counter sums (the first instance stands for all; tests of the
    /// other instances are false), other threads are renumbered. A test of
    /// an instance under a negation is refused in guards (`positive` tracks
    /// the polarity), except in the error condition where "no instance is
    /// at `L`" is exactly "the counters at `L` sum to 0".
    fn guard(&self, c: &Cond, positive: bool) -> Result<Cond, String> {
        self.cond(c, positive, false)
    }

    /// [`Ctx::guard`] for the error condition.
    fn error(&self, c: &Cond) -> Result<Cond, String> {
        self.cond(c, true, true)
    }

    fn cond(&self, c: &Cond, positive: bool, error: bool) -> Result<Cond, String> {
        if let Cond::At(t, _) = c {
            let instance = self
                .sites
                .iter()
                .any(|s| s.rep == *t || s.dropped.contains(t));
            if instance && !positive && !error {
                return Err(
                    "a guard tests that an instance of a thread created in a loop is not at a \
                     location"
                        .into(),
                );
            }
        }
        Ok(match c {
            Cond::True | Cond::False | Cond::Cmp(..) => c.clone(),
            Cond::At(t, l) => {
                if let Some(s) = self.sites.iter().find(|s| s.rep == *t) {
                    let sum = s
                        .states
                        .iter()
                        .enumerate()
                        .filter(|(_, st)| st.loc == *l)
                        .map(|(j, _)| Term::Var(s.counters[j]))
                        .reduce(crate::term::add);
                    match sum {
                        Some(sum) => cmp(CmpOp::Ge, sum, Term::Const(1)),
                        None => Cond::False,
                    }
                } else if self.sites.iter().any(|s| s.dropped.contains(t)) {
                    // The first instance's counters stand for this one: its
                    // tests are false, under a negation too (so "no
                    // instance is at `L`" is the first instance's "the
                    // counters at `L` sum to 0"). Guards only test it
                    // positively (refused above), where an instance id
                    // never names it: every id is the first instance's.
                    Cond::False
                } else {
                    Cond::At(self.map[t], *l)
                }
            }
            Cond::Not(a) => not(self.cond(a, !positive, error)?),
            Cond::And(a, b) => and(
                self.cond(a, positive, error)?,
                self.cond(b, positive, error)?,
            ),
            Cond::Or(a, b) => or(
                self.cond(a, positive, error)?,
                self.cond(b, positive, error)?,
            ),
        })
    }
}

fn push(
    out: &mut Program,
    t: ThreadId,
    from: LocId,
    to: LocId,
    guard: Cond,
    assigns: Vec<Assign>,
    label: String,
) {
    out.push_transition(
        Transition {
            thread: t,
            label,
            explicit_label: false,
            from,
            to,
            guard,
            assigns,
            stores: Vec::new(),
        },
        None,
    );
}

fn reads(tr: &Transition, v: VarId) -> bool {
    let mut found = false;
    tr.guard.for_each_var(&mut |w| found |= w == v);
    for a in &tr.assigns {
        if let Rhs::Expr(t) = &a.rhs {
            t.for_each_var(&mut |w| found |= w == v);
        }
    }
    found
}

fn touches(tr: &Transition, v: VarId) -> bool {
    reads(tr, v) || tr.assigns.iter().any(|a| a.var == v)
}

/// The variables only the template touches (its locals, its parameter
/// written by the spawns), not its run flag, not in the error or initial
/// condition.
fn template_locals(l: &Lowered, rep: ThreadId, runs: &HashMap<VarId, ThreadId>) -> Vec<VarId> {
    let p = &l.program;
    let run = l.threads[rep.index()].run;
    // The deadlock condition is rebuilt over the counters
    // ([`deadlock::Abstraction`]): it keeps no local.
    let in_conds = condition_vars(p, l.deadlock_index());
    let mut candidates: BTreeMap<VarId, bool> = BTreeMap::new();
    for &t in &p.thread(rep).transitions {
        let tr = p.transition(t);
        tr.guard.for_each_var(&mut |v| {
            candidates.insert(v, true);
        });
        for a in &tr.assigns {
            candidates.insert(a.var, true);
            if let Rhs::Expr(t) = &a.rhs {
                t.for_each_var(&mut |v| {
                    candidates.insert(v, true);
                });
            }
        }
    }
    candidates
        .into_keys()
        .filter(|&v| Some(v) != run && !in_conds.contains(&v) && !runs.contains_key(&v))
        .filter(|&v| {
            p.transitions.iter().all(|tr| {
                tr.thread == rep
                    || !touches(tr, v)
                    || (tr.assigns.iter().any(|a| Some(a.var) == run)
                        && !reads(tr, v)
                        && tr.assigns.iter().any(|a| a.var == v))
            })
        })
        .collect()
}

/// The comparisons `(a, b)` of `a op b` in `c`, in any polarity.
fn cmps<'a>(c: &'a Cond, out: &mut Vec<(&'a Term, &'a Term)>) {
    match c {
        Cond::Cmp(_, a, b) => out.push((a, b)),
        Cond::Not(a) => cmps(a, out),
        Cond::And(a, b) | Cond::Or(a, b) => {
            cmps(a, out);
            cmps(b, out);
        }
        _ => {}
    }
}

/// Instances must be lowered alike: the same locations and transitions
/// (a cheap check that no analysis treated one instance differently).
fn same_shape(p: &Program, a: ThreadId, b: ThreadId) -> Result<(), String> {
    let (ta, tb) = (p.thread(a), p.thread(b));
    let shape = |t: &Thread| {
        t.transitions
            .iter()
            .map(|&i| {
                let tr = p.transition(i);
                (tr.from, tr.to, tr.assigns.len())
            })
            .collect::<Vec<_>>()
    };
    if ta.locs != tb.locs || shape(ta) != shape(tb) {
        return Err(format!(
            "the instances {} and {} were lowered differently",
            ta.name, tb.name
        ));
    }
    Ok(())
}

/// Thread ids of instances are all written as the first instance's id.
/// That is exact for the comparisons the lowering makes of ids held in
/// variables with the ids of other threads (joins, mutex owners), but not
/// for an instance comparing ids (its own, as a mutex owner, or two held in
/// variables): refused.
///
/// In an instance's own code, a constant is its id only where the
/// instances' code differs: [`same_shape`] aligns their transitions, and a
/// literal that happens to equal some instance's id is the same in all of
/// them. Elsewhere every constant equal to an id is taken for one.
fn check_ids(l: &Lowered, sites: &[Site]) -> Result<(), String> {
    let p = &l.program;
    let ids: HashSet<i64> = sites.iter().flat_map(|s| s.ids.iter().copied()).collect();
    // Each instance's transition and the one at its place in another
    // instance of its template.
    let mut sibling: HashMap<usize, &Transition> = HashMap::new();
    for s in sites {
        let Some(&other) = s.dropped.first() else {
            continue;
        };
        for &t in std::iter::once(&s.rep).chain(&s.dropped) {
            let sib = if t == s.rep { other } else { s.rep };
            for (&a, &b) in p
                .thread(t)
                .transitions
                .iter()
                .zip(&p.thread(sib).transitions)
            {
                sibling.insert(a.index(), p.transition(b));
            }
        }
    }
    // Whether `t` (at the place of `twin` in a sibling, if any) holds an id.
    let has_id = |t: &Term, twin: Option<&Term>| match twin {
        Some(u) => constants_of(t) != constants_of(u),
        None => has_const(t, &ids),
    };
    // Variables that may hold an instance's id (not the sites' own
    // counters and run flags, whose small values are no ids).
    let machinery: HashSet<VarId> = sites
        .iter()
        .map(|s| s.spawned)
        .chain(l.threads.iter().filter_map(|t| t.run))
        .collect();
    let mut idvars: HashSet<VarId> = HashSet::new();
    loop {
        let before = idvars.len();
        for (k, tr) in p.transitions.iter().enumerate() {
            let sib = sibling.get(&k);
            for (i, a) in tr.assigns.iter().enumerate() {
                if let Rhs::Expr(t) = &a.rhs {
                    let twin = sib.map(|s| match &s.assigns[i].rhs {
                        Rhs::Expr(u) => u,
                        Rhs::Nondet => t,
                    });
                    let mut hit = matches!(t, Term::Const(_)) && has_id(t, twin);
                    t.for_each_var(&mut |v| hit |= idvars.contains(&v));
                    if hit && !machinery.contains(&a.var) {
                        idvars.insert(a.var);
                    }
                }
            }
        }
        if idvars.len() == before {
            break;
        }
    }
    let mentions = |t: &Term| {
        let mut hit = false;
        t.for_each_var(&mut |v| hit |= idvars.contains(&v));
        hit
    };
    let template = |t: ThreadId| sites.iter().any(|s| s.rep == t || s.dropped.contains(&t));
    for (k, tr) in p.transitions.iter().enumerate() {
        let mut cs = Vec::new();
        cmps(&tr.guard, &mut cs);
        let mut twins = Vec::new();
        if let Some(s) = sibling.get(&k) {
            cmps(&s.guard, &mut twins);
        }
        for (j, &(a, b)) in cs.iter().enumerate() {
            if mentions(a) && mentions(b) {
                return Err(format!(
                    "thread {} compares two thread ids (or mutex owners) while instances of a \
                     thread created in a loop are counted",
                    p.thread(tr.thread).name
                ));
            }
            let (ta, tb) = match twins.get(j) {
                Some(&(u, w)) if twins.len() == cs.len() => (Some(u), Some(w)),
                _ => (None, None),
            };
            let id_test = (has_id(a, ta) || has_id(b, tb)) && (mentions(a) || mentions(b));
            // Elsewhere, only joins compare a handle with an instance's id:
            // positively together with the instance's end, or negated in
            // the edge to "not created here", over all ids.
            let join = {
                let mut at = false;
                at_threads(&tr.guard, &mut |t| at |= template(t));
                at || l
                    .give_ups
                    .iter()
                    .any(|(t, g, _)| *t == tr.thread && *g == tr.to)
            };
            if id_test && !template(tr.thread) && !join {
                return Err(format!(
                    "thread {} compares a thread id with the id of an instance of a thread \
                     created in a loop outside a join",
                    p.thread(tr.thread).name
                ));
            }
            if template(tr.thread) && id_test {
                return Err(format!(
                    "thread {} is created in a loop and compares its thread id (as a mutex owner \
                     or pthread_self): its instances are not interchangeable",
                    p.thread(tr.thread).name
                ));
            }
        }
    }
    Ok(())
}

fn has_const(t: &Term, ids: &HashSet<i64>) -> bool {
    constants_of(t).iter().any(|c| ids.contains(c))
}

/// The literals of `t`, in order.
fn constants_of(t: &Term) -> Vec<i64> {
    fn walk(t: &Term, out: &mut Vec<i64>) {
        match t {
            Term::Const(c) => out.push(*c),
            Term::Var(_) => {}
            Term::Add(a, b) | Term::Sub(a, b) | Term::Nl(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            Term::Mul(_, a)
            | Term::Neg(a)
            | Term::Div(a, _)
            | Term::Mod(a, _)
            | Term::Select(_, a) => walk(a, out),
        }
    }
    let mut out = Vec::new();
    walk(t, &mut out);
    out
}

fn intern(site: &mut Site, st: LocalState) -> (usize, bool) {
    if let Some(&i) = site.index.get(&st) {
        return (i, false);
    }
    site.states.push(st.clone());
    site.index.insert(st, site.states.len() - 1);
    (site.states.len() - 1, true)
}

/// The values a local of a small type can take, each with the condition
/// that `t` has it; `None` when the type has too many values.
fn split(l: &Lowered, v: VarId, t: &Term) -> Option<Vec<(Cond, Val)>> {
    let (lo, hi) = l.ranges.get(v.index()).copied()?;
    let (lo, hi) = (lo?, hi?);
    if hi - lo + 1 > MAX_SPLIT {
        return None;
    }
    Some(
        (lo..=hi)
            .map(|c| {
                let c = c as i64;
                (cmp(CmpOp::Eq, t.clone(), Term::Const(c)), Val::Known(c))
            })
            .collect(),
    )
}

/// The speculated values of a term over one shared variable `x` of
/// `speculate`: `x == c → e[c]` per speculated `c`, and `x` outside them →
/// [`Val::Outside`].
fn speculation(
    e: &Term,
    speculate: &BTreeMap<VarId, BTreeSet<i64>>,
) -> Option<(VarId, Vec<(Cond, Val)>)> {
    let mut vars = BTreeSet::new();
    e.for_each_var(&mut |v| {
        vars.insert(v);
    });
    let x = match vars.into_iter().collect::<Vec<_>>()[..] {
        [x] => x,
        _ => return None,
    };
    let values = speculate.get(&x)?;
    let mut out = Vec::with_capacity(values.len() + 1);
    let mut outside = Cond::True;
    for &c in values {
        let at = cmp(CmpOp::Eq, Term::Var(x), Term::Const(c));
        let v = eval(&subst_term(e, &|w| (w == x).then_some(Term::Const(c))))?;
        out.push((at, Val::Known(v)));
        outside = and(outside, cmp(CmpOp::Ne, Term::Var(x), Term::Const(c)));
    }
    out.push((outside, Val::Outside));
    Some((x, out))
}

/// Every combination of choices, with the conjunction of their conditions.
fn product(choices: &[Vec<(Cond, Val)>]) -> Vec<(Cond, Vec<Val>)> {
    let mut out = vec![(Cond::True, Vec::new())];
    for cs in choices {
        let mut next = Vec::new();
        for (g, vs) in &out {
            for (c, v) in cs {
                let g = and(g.clone(), c.clone());
                if g == Cond::False {
                    continue;
                }
                let mut vs = vs.clone();
                vs.push(*v);
                next.push((g, vs));
            }
        }
        out = next;
    }
    out
}

/// Evaluates a variable-free term.
fn eval(t: &Term) -> Option<i64> {
    Some(match t {
        Term::Const(c) => *c,
        Term::Var(_) | Term::Select(..) => return None,
        Term::Add(a, b) => eval(a)?.checked_add(eval(b)?)?,
        Term::Sub(a, b) => eval(a)?.checked_sub(eval(b)?)?,
        Term::Mul(k, a) => eval(a)?.checked_mul(*k)?,
        Term::Neg(a) => eval(a)?.checked_neg()?,
        Term::Div(a, k) => eval(a)?.div_euclid(*k),
        Term::Mod(a, k) => eval(a)?.rem_euclid(*k),
        Term::Nl(op, a, b) => {
            i64::try_from(op.apply(i128::from(eval(a)?), i128::from(eval(b)?))?).ok()?
        }
    })
}

/// Folds variable-free comparisons (after substitution).
fn fold(c: &Cond) -> Cond {
    match c {
        Cond::Cmp(op, a, b) => match (eval(a), eval(b)) {
            (Some(x), Some(y)) => cmp(*op, Term::Const(x), Term::Const(y)),
            _ => c.clone(),
        },
        Cond::Not(a) => not(fold(a)),
        Cond::And(a, b) => and(fold(a), fold(b)),
        Cond::Or(a, b) => or(fold(a), fold(b)),
        _ => c.clone(),
    }
}

/// The local states of a template reachable from its initial ones, and
/// one move per (local state, template transition, choice of the values
/// of locals it assigns), with the local states' indices as its `from` and
/// `to` (the caller numbers the counters in the order of `site.states`).
fn explore(
    l: &Lowered,
    site: &mut Site,
    speculate: &BTreeMap<VarId, BTreeSet<i64>>,
    speculated: &mut BTreeSet<VarId>,
) -> Result<Vec<Move>, String> {
    let p = &l.program;
    let tname = p.thread(site.rep).name.clone();
    let pos: HashMap<VarId, usize> = site
        .locals
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i))
        .collect();
    let mut moves: Vec<Move> = Vec::new();
    let mut next = 0;
    while next < site.states.len() {
        if site.states.len() > MAX_LOCAL_STATES {
            return Err(format!(
                "thread {tname} is created in a loop and has more than {MAX_LOCAL_STATES} local \
                 states"
            ));
        }
        let s = site.states[next].clone();
        let si = next;
        next += 1;
        for &t in &p.thread(site.rep).transitions {
            let tr = p.transition(t);
            if tr.from != s.loc {
                continue;
            }
            let f = |v: VarId| -> Option<Term> {
                if v == site.run {
                    return Some(Term::Const(1));
                }
                match pos.get(&v).map(|&i| s.vals[i]) {
                    Some(Val::Known(c)) => Some(Term::Const(c)),
                    // A forgotten value: the local stays, and is dropped below.
                    Some(Val::Any | Val::Outside) | None => None,
                }
            };
            let is_local = |t: &Term| {
                let mut hit = false;
                t.for_each_var(&mut |v| hit |= pos.contains_key(&v));
                hit
            };
            let local_name = |v: VarId| {
                l.vars[v.index()]
                    .c_name
                    .clone()
                    .unwrap_or_else(|| p.var(v).name.clone())
            };
            let exact_guard = fold(&subst_cond(&tr.guard, &f));
            // Comparisons with forgotten locals are true (an
            // over-approximation).
            let guard = fold(&drop_atoms(&exact_guard, true, &is_local));
            if guard == Cond::False {
                continue;
            }
            if guard.mentions_locations() {
                let mut own = false;
                at_threads(&guard, &mut |th| {
                    own |= th == site.rep || site.dropped.contains(&th)
                });
                if own {
                    return Err(format!(
                        "thread {tname} is created in a loop and tests the location of an \
                         instance"
                    ));
                }
            }
            let mut shared = Vec::new();
            let mut exact_shared = Vec::new();
            let mut choices: Vec<Vec<(Cond, Val)>> = Vec::new();
            let mut assigned: Vec<usize> = Vec::new();
            let mut exact_locals = Vec::new();
            for a in &tr.assigns {
                match (pos.get(&a.var), &a.rhs) {
                    (None, Rhs::Expr(e)) => {
                        let e = subst_term(e, &f);
                        exact_shared.push(Assign {
                            var: a.var,
                            rhs: Rhs::Expr(e.clone()),
                        });
                        shared.push(Assign {
                            var: a.var,
                            rhs: if is_local(&e) {
                                Rhs::Nondet
                            } else {
                                Rhs::Expr(e)
                            },
                        })
                    }
                    (None, Rhs::Nondet) => {
                        shared.push(a.clone());
                        exact_shared.push(a.clone());
                    }
                    (Some(&i), Rhs::Nondet) => {
                        assigned.push(i);
                        exact_locals.push(a.clone());
                        choices.push(match split(l, a.var, &Term::Const(0)) {
                            Some(cs) => cs.into_iter().map(|(_, v)| (Cond::True, v)).collect(),
                            // Only its order matters: representatives.
                            None if site.order_only.contains(&a.var) => site
                                .input_values
                                .iter()
                                .map(|&c| (Cond::True, Val::Known(c)))
                                .collect(),
                            None => {
                                site.forgotten.insert(format!(
                                    "`{}` of {tname} (an input of a large type)",
                                    local_name(a.var)
                                ));
                                vec![(Cond::True, Val::Any)]
                            }
                        });
                    }
                    (Some(&i), Rhs::Expr(e)) => {
                        assigned.push(i);
                        let e = subst_term(e, &f);
                        exact_locals.push(Assign {
                            var: a.var,
                            rhs: Rhs::Expr(e.clone()),
                        });
                        let split = (!is_local(&e)).then(|| split(l, a.var, &e)).flatten();
                        let guessed = (!is_local(&e))
                            .then(|| speculation(&e, speculate))
                            .flatten();
                        choices.push(match (eval(&e), split, guessed) {
                            (Some(c), _, _) => vec![(Cond::True, Val::Known(c))],
                            (None, Some(cs), _) => cs,
                            (None, None, Some((x, cs))) => {
                                speculated.insert(x);
                                cs
                            }
                            (None, None, None) => {
                                if !is_local(&e) {
                                    site.forgotten.insert(format!(
                                        "`{}` of {tname} (unboundedly many values: `{}`)",
                                        local_name(a.var),
                                        p.named(&e)
                                    ));
                                }
                                vec![(Cond::True, Val::Any)]
                            }
                        });
                    }
                }
            }
            for (g, vs) in product(&choices) {
                let exact_guard = fold(&and(exact_guard.clone(), g.clone()));
                let g = fold(&and(guard.clone(), g));
                if g == Cond::False || exact_guard == Cond::False {
                    continue;
                }
                let state = if vs.contains(&Val::Outside) {
                    LocalState {
                        loc: VIOLATION,
                        vals: vec![Val::Any; s.vals.len()],
                    }
                } else {
                    let mut vals = s.vals.clone();
                    for (&i, v) in assigned.iter().zip(vs) {
                        vals[i] = v;
                    }
                    site.canonical(&mut vals);
                    LocalState { loc: tr.to, vals }
                };
                let (ti, _) = intern(site, state);
                // The tracked instance's locals: the new state's known
                // values, else the assigned value.
                let mut exact = exact_shared.clone();
                for (k, &i) in assigned.iter().enumerate() {
                    let var = site.locals[i];
                    exact.push(match site.states[ti].vals.get(i) {
                        Some(Val::Known(c)) => Assign {
                            var,
                            rhs: Rhs::Expr(Term::Const(*c)),
                        },
                        _ => exact_locals[k].clone(),
                    });
                }
                moves.push(Move {
                    from: si,
                    to: ti,
                    guard: g,
                    assigns: shared.clone(),
                    exact_guard,
                    exact_assigns: exact,
                    label: format!("{}@{si}", tr.label),
                });
            }
        }
    }
    Ok(moves)
}

/// A move of an instance from one local state to another (by index).
#[derive(Clone, Debug)]
struct Move {
    from: usize,
    to: usize,
    /// The guard with comparisons of forgotten locals dropped (true).
    guard: Cond,
    /// The shared assignments; values computed from forgotten locals are
    /// inputs.
    assigns: Vec<Assign>,
    /// The guard on the locals' values ([`View`]): known values
    /// substituted, forgotten locals kept as the template's variables.
    exact_guard: Cond,
    /// The shared assignments and the assignments of the locals, exactly.
    exact_assigns: Vec<Assign>,
    label: String,
}

fn at_threads(c: &Cond, f: &mut impl FnMut(ThreadId)) {
    match c {
        Cond::At(t, _) => f(*t),
        Cond::Not(a) => at_threads(a, f),
        Cond::And(a, b) | Cond::Or(a, b) => {
            at_threads(a, f);
            at_threads(b, f);
        }
        _ => {}
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The program with the variables that only one creating thread uses (and
/// the error and initial conditions do not mention) forgotten ([`forget`]).
fn forget_creator_locals(p: &Program, creators: &HashSet<ThreadId>) -> Option<Program> {
    let owners = engine::liveness::owners(p);
    let in_conds = condition_vars(p, None);
    let vars: HashSet<VarId> = owners
        .iter()
        .enumerate()
        .filter(|(i, o)| {
            o.is_some_and(|t| creators.contains(&t)) && !in_conds.contains(&VarId::new(*i))
        })
        .map(|(i, _)| VarId::new(i))
        .collect();
    (!vars.is_empty()).then(|| forget(p, &vars))
}

/// The variables the error and initial conditions mention, but the
/// condition at `skip`.
fn condition_vars(p: &Program, skip: Option<usize>) -> HashSet<VarId> {
    let mut vars = HashSet::new();
    let errors = p
        .error
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != skip)
        .map(|(_, c)| c);
    for c in errors.chain(&p.init) {
        c.for_each_var(&mut |v| {
            vars.insert(v);
        });
    }
    vars
}

/// Shared variables of large types whose new values steps compute from
/// their old ones, possibly through locals (reference counts, allocation
/// indices, tickets: `tmp = x; x = tmp + 1`), and that the error and
/// initial conditions do not mention. Their values grow without bound, so
/// the saturated search of a counter system that keeps them does not end;
/// where they do not matter, [`forget`]ting them keeps it finite.
pub fn self_updated_shared(l: &Lowered) -> HashSet<VarId> {
    let p = &l.program;
    // The deadlock condition is rebuilt from the waits' guards as emitted
    // ([`deadlock::Abstraction`]), where forgotten variables cost
    // precision: only those of joins may be forgotten. The variables it
    // mentions are no more shared than elsewhere.
    let owners = match l.deadlock_index() {
        Some(i) => {
            let mut without = p.clone();
            without.error.remove(i);
            engine::liveness::owners(&without)
        }
        None => engine::liveness::owners(p),
    };
    let mut in_conds = condition_vars(p, l.deadlock_index());
    in_conds.extend(l.deadlock.iter().flat_map(|shape| shape.wait_vars()));
    let large = |v: VarId| match l.ranges.get(v.index()) {
        Some(&(Some(lo), Some(hi))) => hi - lo + 1 > MAX_SPLIT,
        _ => true,
    };
    // Which variables each variable's assignments read.
    let mut from: HashMap<VarId, HashSet<VarId>> = HashMap::new();
    for tr in &p.transitions {
        for a in &tr.assigns {
            if let Rhs::Expr(t) = &a.rhs {
                t.for_each_var(&mut |v| {
                    from.entry(a.var).or_default().insert(v);
                });
            }
        }
    }
    let feeds_itself = |x: VarId| {
        let mut seen = HashSet::new();
        let mut todo: Vec<VarId> = from.get(&x).into_iter().flatten().copied().collect();
        while let Some(v) = todo.pop() {
            if v == x {
                return true;
            }
            if seen.insert(v) {
                todo.extend(from.get(&v).into_iter().flatten().copied());
            }
        }
        false
    };
    (0..p.vars.len())
        .map(VarId::new)
        .filter(|&v| {
            owners[v.index()].is_none()
                && from.contains_key(&v)
                && !in_conds.contains(&v)
                && large(v)
                && feeds_itself(v)
        })
        .collect()
}

/// `p` with `vars` forgotten: atoms over them become true in the negation
/// normal form of every guard, their assignments are dropped, and
/// assignments reading them become inputs. Every execution of `p` is one
/// of the result (with the forgotten variables' values ignored), so when
/// the error conditions do not mention them, a proof of the result is one
/// of `p`.
pub fn forget(p: &Program, vars: &HashSet<VarId>) -> Program {
    let mentions = |t: &Term| {
        let mut hit = false;
        t.for_each_var(&mut |v| hit |= vars.contains(&v));
        hit
    };
    let mut q = p.clone();
    for tr in &mut q.transitions {
        tr.guard = drop_atoms(&tr.guard, true, &mentions);
        tr.assigns.retain(|a| !vars.contains(&a.var));
        for a in &mut tr.assigns {
            if matches!(&a.rhs, Rhs::Expr(t) if mentions(t)) {
                a.rhs = Rhs::Nondet;
            }
        }
    }
    q
}

/// The negation normal form of `c` (under `positive`) with every
/// comparison whose side `drop` selects replaced by true: implied by `c`.
fn drop_atoms(c: &Cond, positive: bool, drop: &impl Fn(&Term) -> bool) -> Cond {
    match c {
        Cond::True | Cond::False => {
            if (*c == Cond::True) == positive {
                Cond::True
            } else {
                Cond::False
            }
        }
        Cond::Cmp(op, a, b) => {
            if drop(a) || drop(b) {
                Cond::True
            } else if positive {
                c.clone()
            } else {
                Cond::Cmp(op.negated(), a.clone(), b.clone())
            }
        }
        Cond::At(..) => {
            if positive {
                c.clone()
            } else {
                Cond::Not(Box::new(c.clone()))
            }
        }
        Cond::Not(a) => drop_atoms(a, !positive, drop),
        Cond::And(a, b) if positive => and(drop_atoms(a, true, drop), drop_atoms(b, true, drop)),
        Cond::Or(a, b) if !positive => and(drop_atoms(a, false, drop), drop_atoms(b, false, drop)),
        Cond::And(a, b) | Cond::Or(a, b) => {
            or(drop_atoms(a, positive, drop), drop_atoms(b, positive, drop))
        }
    }
}
