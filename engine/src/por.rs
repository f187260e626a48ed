//! Partial-order reduction for the explicit search: persistent sets built
//! from the threads' static footprints, with visibility and a cycle
//! proviso checked by the search ([`crate::explicit`]).
//!
//! In a state `s`, the transitions of thread `i` leaving its location
//! `s.locs[i]` form a **persistent set** when no transition that another
//! thread `j` can still take (any transition reachable in `j`'s control
//! graph from `s.locs[j]`) depends on one of them. Dependence is
//! syntactic: two transitions of different threads depend on each other
//! when one writes a variable the other reads or writes, or when one's
//! guard reads the location of the other's thread (`p@L`). Transitions
//! without a shared footprint cannot enable or disable each other and
//! commute, so every execution from `s` that starts with other threads'
//! steps can be reordered to start with a step of `i` (Godefroid's
//! persistent sets; Clarke, Grumberg and Peled's ample-set condition C1
//! for processes). All of `i`'s transitions at its location count, also
//! the disabled ones: another thread could otherwise enable one of them.
//!
//! A persistent set is used only when its enabled transitions are
//! **invisible**: none writes a variable the error condition reads or
//! moves its thread into or out of a location the error condition tests
//! (C2). The search expands such a set alone unless one of its successors
//! was already visited at or before the state being expanded — then it
//! expands the state fully (C3, the proviso for any exploration order in
//! which node ids grow with expansion order: on every cycle of the reduced
//! graph, the state expanded last has a successor with a smaller id, so it
//! is fully expanded). With C1–C3 every reachable error state has an error
//! state reachable in the reduced graph; SOUNDNESS.md gives the argument.

use crate::ase::hash::FxHashMap;
use crate::explicit::lazy::is_lazy;
use crate::interp::State;
use crate::interval::{self, Interval, Leaves, ANY};
use crate::ir::{Cond, LocId, Program, Term, ThreadId, TransId, VarId};
use crate::ranges::{Flow, ThreadRanges};
use fixedbitset::FixedBitSet;

/// What a set of transitions reads and writes.
#[derive(Clone, Debug)]
struct Footprint {
    /// Variables read by guards and right-hand sides.
    reads: FixedBitSet,
    /// Variables assigned.
    writes: FixedBitSet,
    /// Locations that a guard tests (`p@L`), numbered by [`Places`].
    reads_locs: FixedBitSet,
    /// Locations that a transition enters or leaves (when it moves its
    /// thread to another one): what changes the truth of a test `p@L`.
    moves_locs: FixedBitSet,
    /// Whether the set holds any transition (a thread with none left does
    /// not move).
    moves: bool,
}

/// The sizes of footprints: the variables, and every thread's locations
/// numbered one after the other.
#[derive(Clone, Debug)]
struct Places {
    vars: usize,
    /// The number of the first location of each thread.
    offsets: Vec<usize>,
    /// Locations in all.
    locs: usize,
}

impl Places {
    fn new(program: &Program) -> Self {
        let mut offsets = Vec::with_capacity(program.threads.len());
        let mut locs = 0;
        for t in &program.threads {
            offsets.push(locs);
            locs += t.locs.len();
        }
        Places {
            vars: program.vars.len(),
            offsets,
            locs,
        }
    }

    /// The number of thread `t`'s location `l`, if it has one.
    fn place(&self, program: &Program, t: ThreadId, l: LocId) -> Option<usize> {
        let thread = program.threads.get(t.index())?;
        (l.index() < thread.locs.len()).then(|| self.offsets[t.index()] + l.index())
    }
}

impl Footprint {
    fn empty(places: &Places) -> Self {
        Footprint {
            reads: FixedBitSet::with_capacity(places.vars),
            writes: FixedBitSet::with_capacity(places.vars),
            reads_locs: FixedBitSet::with_capacity(places.locs),
            moves_locs: FixedBitSet::with_capacity(places.locs),
            moves: false,
        }
    }

    fn add_transition(&mut self, program: &Program, places: &Places, t: TransId) {
        let tr = program.transition(t);
        self.moves = true;
        tr.guard.for_each_var(&mut |v| self.reads.insert(v.index()));
        for_each_at(&tr.guard, &mut |thread, l| {
            // A location the thread does not have: the test is false
            // throughout, no step changes it.
            if let Some(k) = places.place(program, thread, l) {
                self.reads_locs.insert(k);
            }
        });
        if tr.from != tr.to {
            for l in [tr.from, tr.to] {
                if let Some(k) = places.place(program, tr.thread, l) {
                    self.moves_locs.insert(k);
                }
            }
        }
        for a in &tr.assigns {
            self.writes.insert(a.var.index());
            if let crate::ir::Rhs::Expr(e) = &a.rhs {
                e.for_each_var(&mut |v| self.reads.insert(v.index()));
            }
        }
    }

    fn union_with(&mut self, other: &Footprint) {
        self.reads.union_with(&other.reads);
        self.writes.union_with(&other.writes);
        self.reads_locs.union_with(&other.reads_locs);
        self.moves_locs.union_with(&other.moves_locs);
        self.moves |= other.moves;
    }

    /// Whether no transition of `self` depends on one of `other` (of
    /// another thread): neither writes what the other reads or writes, and
    /// neither moves its thread into or out of a location the other tests.
    fn independent(&self, other: &Footprint) -> bool {
        if !self.moves || !other.moves {
            return true;
        }
        self.writes.is_disjoint(&other.reads)
            && self.writes.is_disjoint(&other.writes)
            && other.writes.is_disjoint(&self.reads)
            && self.moves_locs.is_disjoint(&other.reads_locs)
            && other.moves_locs.is_disjoint(&self.reads_locs)
    }
}

/// Calls `f` on every location test `p@L` of a condition.
fn for_each_at(c: &Cond, f: &mut impl FnMut(ThreadId, LocId)) {
    match c {
        Cond::True | Cond::False | Cond::Cmp(..) => {}
        Cond::At(t, l) => f(*t, *l),
        Cond::Not(c) => for_each_at(c, f),
        Cond::And(a, b) | Cond::Or(a, b) => {
            for_each_at(a, f);
            for_each_at(b, f);
        }
    }
}

/// The static data the choice of persistent sets needs.
pub struct PersistentSets<'a> {
    /// Per thread and location: the footprint of the transitions leaving
    /// the location.
    here: Vec<Vec<Footprint>>,
    /// Per thread and location: the footprint of every transition the
    /// thread can take from the location on.
    future: Vec<Vec<Footprint>>,
    /// Per thread and location: whether a transition leaving it is visible.
    visible: Vec<Vec<bool>>,
    /// Per transition: whether it is visible.
    visible_transition: Vec<bool>,
    /// The program (for the guards of visible transitions).
    program: &'a Program,
    /// The footprints again without the transitions that may be dead
    /// ([`Frozen`]), and those transitions, per thread and location (empty
    /// for a thread without any).
    frozen: Vec<Vec<Frozen>>,
    /// The transitions the lists of `frozen` index.
    dead: Dead,
    /// Per thread and location: the transitions leaving it, each as the
    /// conjuncts of its guard that may keep the thread there
    /// ([`Self::stuck`]).
    gates: Vec<Vec<Vec<Vec<Gate>>>>,
    /// Per thread and location: the transitions leaving it that may be
    /// taken, their targets and footprints, and the conjuncts of their
    /// guards that test the locations of one other thread only, with that
    /// thread ([`Self::future_while`]).
    leaving: Vec<Vec<Vec<Leaving>>>,
    /// [`Self::future_while`] by thread, location, other thread and its
    /// location.
    while_cache: std::cell::RefCell<FxHashMap<[u32; 4], Footprint>>,
    /// Per thread, the analysis of its own variables (`None` for a thread
    /// too large for [`Frozen`]).
    flows: Vec<Option<Flow<'a>>>,
    /// [`Self::future_given`] by thread, location, other thread, its
    /// location, and the values of the thread's own variables.
    given_cache: std::cell::RefCell<FxHashMap<GivenKey, Footprint>>,
    /// Per pair of threads `(j, i)`: how often [`Self::future_given`] was
    /// made for it, and how often it showed independence (it is given up
    /// for a pair after [`GIVEN_TRIES`] attempts without one: an analysis
    /// per state costs more than a search of a large thread gains).
    given_tries: std::cell::RefCell<FxHashMap<(u32, u32), (u32, u32)>>,
    places: Places,
}

/// Attempts of [`PersistentSets::future_given`] for a pair of threads
/// before it is given up unless one showed independence.
const GIVEN_TRIES: u32 = 8;

/// The key of [`PersistentSets::future_given`]: thread, location, other
/// thread, its location, the values of the thread's own variables.
type GivenKey = (u32, u32, u32, u32, Vec<i128>);

/// A transition as [`PersistentSets::future_while`] follows it.
#[derive(Clone, Debug)]
struct Leaving {
    id: TransId,
    to: usize,
    footprint: Footprint,
    /// Conjuncts over the locations of one other thread alone.
    gates: Vec<(usize, Cond)>,
}

impl Leaving {
    /// Whether a conjunct over thread `i`'s location alone is false while
    /// `i` is at `li`.
    fn blocked_while(&self, i: usize, li: usize) -> bool {
        let at = |t: ThreadId, l: LocId| (t.index() == i).then_some(l.index() == li);
        let leaves = Leaves {
            term: &|_| None,
            at: &at,
        };
        self.gates
            .iter()
            .any(|(u, c)| *u == i && interval::cond(c, &leaves) == Some(false))
    }
}

/// A conjunct of a guard and the threads it depends on: those that write
/// a variable it reads, and those whose locations it tests.
#[derive(Clone, Debug)]
struct Gate {
    cond: Cond,
    threads: FixedBitSet,
}

/// The transitions of a thread that a state may show dead: a transition
/// whose guard has a conjunct that reads only variables no other thread
/// writes and that the thread does not write from its location on (they
/// keep their values for the rest of the run), false in the state, is never
/// taken again, by any interleaving. So it is left out of the footprints
/// the choice looks at, which leaves, for example, one branch of a case
/// split over a thread's own index (`res[id] = 1` with `id` set once) and
/// the other threads' branches out of the dependences.
#[derive(Clone, Debug)]
struct Frozen {
    /// The footprint of the transitions leaving the location that are
    /// always live.
    here: Footprint,
    /// The same for the transitions reachable from the location.
    future: Footprint,
    /// Whether a transition leaving the location that is always live is
    /// visible.
    visible: bool,
    /// The transitions leaving the location that may be dead: indices into
    /// [`Dead::transitions`], with the masks of the conjuncts that may
    /// show it ([`Masks`]). While the thread is at its location, its own
    /// variables keep their values: every conjunct is decided by the state.
    here_dead: Vec<(u32, Masks)>,
    /// The same for the transitions reachable from the location.
    future_dead: Vec<(u32, Masks)>,
    /// The variables the transitions within the location's strongly
    /// connected component write.
    inside_writes: std::rc::Rc<FixedBitSet>,
}

/// Which conjuncts of a transition that may be dead a state may show
/// false, as bit masks: `frozen`, those over variables the thread no longer
/// writes (their values in the state are those the transition will see);
/// `bounded`, those that also read variables the thread still writes,
/// whose bounds where the transition leaves ([`ThreadRanges`]) are finite
/// (false for every value in them and the frozen values of the state: the
/// step is never taken).
/// For a transition in the strongly connected component of the location
/// (`inside`), the variables written before it are only those the
/// component's own transitions write: a path that leaves the component
/// does not come back.
#[derive(Clone, Copy, Debug)]
struct Masks {
    frozen: u64,
    bounded: u64,
    inside: bool,
}

/// A transition that may be dead ([`Frozen`]).
#[derive(Clone, Debug)]
struct DeadTransition {
    footprint: Footprint,
    /// The conjuncts of its guard over variables only its thread writes.
    conjuncts: Vec<Cond>,
    visible: bool,
    /// The bounds of the variables of `conjuncts` where it leaves.
    bounds: Vec<(VarId, Interval)>,
}

/// The transitions that may be dead ([`Frozen`]), once each.
#[derive(Clone, Debug, Default)]
struct Dead {
    transitions: Vec<DeadTransition>,
}

/// Most conjuncts of one guard looked at for [`Frozen`] (a mask's bits).
const MAX_CONJUNCTS: usize = 64;

impl<'a> PersistentSets<'a> {
    /// Computes the footprints of `program`'s threads.
    pub fn new(program: &'a Program) -> Self {
        let threads = program.threads.len();
        // What each error condition observes.
        let observed: Vec<Observed> = program
            .error
            .iter()
            .map(|c| Observed::new(program, c))
            .collect();
        let places = Places::new(program);
        // The bounds of each thread's own variables (not for a thread too
        // large for [`Frozen`]), and the transitions they show are never
        // taken: those are left out of every footprint.
        let writers = program.writers();
        let flows: Vec<Option<Flow<'a>>> = program
            .threads
            .iter()
            .enumerate()
            .map(|(ti, t)| {
                (t.locs.len().saturating_mul(t.transitions.len()) <= MAX_FROZEN_WORK).then(|| {
                    let t = ThreadId::new(ti);
                    let vars = crate::ranges::relevant(program, t, &writers);
                    Flow::new(program, t, &vars, &writers)
                })
            })
            .collect();
        let ranges: Vec<Option<ThreadRanges>> =
            flows.iter().map(|f| f.as_ref().map(Flow::ranges)).collect();
        let taken = |t: TransId| {
            let tr = program.transition(t);
            !ranges[tr.thread.index()]
                .as_ref()
                .is_some_and(|r| r.never_taken(t))
        };
        let mut visible_transition = vec![false; program.transitions.len()];
        let mut here = Vec::with_capacity(threads);
        let mut future = Vec::with_capacity(threads);
        let mut visible = Vec::with_capacity(threads);
        let mut leaving = Vec::with_capacity(threads);
        for (ti, thread) in program.threads.iter().enumerate() {
            let n = thread.locs.len();
            let mut h = vec![Footprint::empty(&places); n];
            let mut vis = vec![false; n];
            let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
            let mut out: Vec<Vec<Leaving>> = vec![Vec::new(); n];
            for &t in &thread.transitions {
                let tr = program.transition(t);
                let (from, to) = (tr.from.index(), tr.to.index());
                if from >= n || to >= n || !taken(t) {
                    continue;
                }
                h[from].add_transition(program, &places, t);
                succs[from].push(to);
                let mut footprint = Footprint::empty(&places);
                footprint.add_transition(program, &places, t);
                out[from].push(Leaving {
                    id: t,
                    to,
                    footprint,
                    gates: location_gates(&tr.guard, ti),
                });
                let seen = observed.iter().any(|o| o.changed_by(tr, ti, from, to));
                visible_transition[t.index()] = seen;
                vis[from] |= seen;
            }
            future.push(reachable_union(&h, &succs));
            here.push(h);
            visible.push(vis);
            leaving.push(out);
        }
        let (frozen, dead) = frozen_footprints(
            program,
            &places,
            &future,
            &visible_transition,
            &ranges,
            &writers,
        );
        PersistentSets {
            here,
            future,
            visible,
            visible_transition,
            program,
            frozen,
            dead,
            gates: gates(program, &writers),
            leaving,
            while_cache: Default::default(),
            flows,
            given_cache: Default::default(),
            given_tries: Default::default(),
            places,
        }
    }

    /// Whether `mine` is independent of [`Self::future_given`] (not tried
    /// once the pair has used up its attempts without success).
    fn independent_given(&self, mine: &Footprint, j: usize, i: usize, state: &State) -> bool {
        let pair = (j as u32, i as u32);
        let (tries, wins) = self
            .given_tries
            .borrow()
            .get(&pair)
            .copied()
            .unwrap_or((0, 0));
        if tries >= GIVEN_TRIES && wins == 0 {
            return false;
        }
        let apart = self
            .future_given(j, i, state)
            .is_some_and(|f| mine.independent(&f));
        self.given_tries
            .borrow_mut()
            .insert(pair, (tries + 1, wins + u32::from(apart)));
        apart
    }

    /// [`Self::future_while`] with the values of thread `j`'s own
    /// variables in `state`: the footprint of the transitions `j` may take
    /// from its location by the bounds of its runs from there
    /// ([`Flow::taken_from`]) while `i` stays where it is (a join loop's
    /// counter that must pass the join of `i` first). `None` for a thread
    /// without the analysis.
    fn future_given(&self, j: usize, i: usize, state: &State) -> Option<Footprint> {
        let flow = self.flows[j].as_ref()?;
        let (lj, li) = (state.locs[j], state.locs[i].index());
        let values: Vec<i128> = flow.vars().iter().map(|v| state.vals[v.index()]).collect();
        let key = (j as u32, lj.0, i as u32, li as u32, values);
        if let Some(fp) = self.given_cache.borrow().get(&key) {
            return Some(fp.clone());
        }
        let entry = key
            .4
            .iter()
            .map(|&x| if is_lazy(x) { ANY } else { Interval::point(x) })
            .collect();
        let all = self.leaving[j].iter().flatten();
        let blocked: Vec<TransId> = all
            .clone()
            .filter(|t| t.blocked_while(i, li))
            .map(|t| t.id)
            .collect();
        let mut taken = flow.taken_from(lj, entry, &|id| !blocked.contains(&id));
        taken.sort_unstable();
        let mut fp = Footprint::empty(&self.places);
        for t in all.filter(|t| taken.binary_search(&t.id).is_ok()) {
            fp.union_with(&t.footprint);
        }
        self.given_cache.borrow_mut().insert(key, fp.clone());
        Some(fp)
    }

    /// The footprint of thread `j`'s transitions from `lj` on in the runs
    /// in which thread `i` stays at `li`: a transition with a conjunct over
    /// `i`'s location alone that is false at `li` is never taken there,
    /// and what only it leads to is not reached (a join loop's end, past
    /// the join of a thread that has not ended).
    fn future_while(&self, j: usize, lj: usize, i: usize, li: usize) -> Footprint {
        let key = [j, lj, i, li].map(|x| x as u32);
        if let Some(fp) = self.while_cache.borrow().get(&key) {
            return fp.clone();
        }
        let mut fp = Footprint::empty(&self.places);
        let mut seen = FixedBitSet::with_capacity(self.here[j].len());
        seen.insert(lj);
        let mut stack = vec![lj];
        while let Some(m) = stack.pop() {
            for t in &self.leaving[j][m] {
                if t.blocked_while(i, li) {
                    continue;
                }
                fp.union_with(&t.footprint);
                if !seen.put(t.to) {
                    stack.push(t.to);
                }
            }
        }
        self.while_cache.borrow_mut().insert(key, fp.clone());
        fp
    }

    /// Whether thread `j` stays at its location in `state` in every run
    /// from `state` in which thread `i` does: each transition leaving it
    /// has a conjunct false in `state` that depends on `i` and `j` alone
    /// (it stays false while neither moves, so `j` cannot move first).
    fn stuck(&self, j: usize, i: usize, state: &State) -> bool {
        let Some(leaving) = self.gates[j].get(state.locs[j].index()) else {
            return false;
        };
        leaving.iter().all(|gates| {
            gates
                .iter()
                .any(|g| g.threads.ones().all(|t| t == i || t == j) && false_in(&g.cond, state))
        })
    }

    /// A thread whose transitions at its location in `locs` form a
    /// persistent set of invisible transitions with at least one enabled
    /// (`enabled(i)`): its transitions alone may be expanded. `None` when
    /// no thread qualifies (the state is expanded fully). Among the
    /// candidates, the first in thread order.
    pub fn choose(&self, state: &State, mut enabled: impl FnMut(usize) -> bool) -> Option<usize> {
        let locs = &state.locs;
        let threads = self.here.len();
        // The footprints without the transitions dead in `state`, made
        // when the static ones show a dependence.
        let mut live: Vec<Option<Footprint>> = vec![None; threads];
        (0..threads).find(|&i| {
            let li = locs[i].index();
            let Some(mine) = self.here[i].get(li) else {
                return false;
            };
            if !mine.moves {
                return false;
            }
            // Per thread, whether it is stuck while `i` stays (made when
            // its static footprint shows a dependence).
            let mut stuck: Vec<Option<bool>> = vec![None; threads];
            // Whether no step `j` may take before `i` moves depends on
            // `mine`: by `j`'s static future, `j` stuck, `j`'s future
            // while `i` stays; `refined`, also the state's footprint of
            // `j` without its dead transitions, and last (an analysis per
            // state) the bounds of `j`'s runs.
            let mut apart = |mine: &Footprint, j: usize, refined: bool| {
                j == i
                    || self.future[j]
                        .get(locs[j].index())
                        .is_none_or(|theirs| mine.independent(theirs))
                    || *stuck[j].get_or_insert_with(|| self.stuck(j, i, state))
                    || mine.independent(&self.future_while(j, locs[j].index(), i, li))
                    || (refined
                        && (mine.independent(
                            live[j].get_or_insert_with(|| self.live(j, state, false).0),
                        ) || self.independent_given(mine, j, i, state)))
            };
            // C2 speaks of the steps the set lets the search take: a
            // visible transition disabled in the state is none of them.
            let visible = self.visible[i][li] && self.visible_enabled(i, state);
            let statically = !visible && (0..threads).all(|j| apart(mine, j, false));
            // Then `i`'s footprint without its dead transitions.
            let independent = statically || {
                let (mine, live_visible) = self.live(i, state, true);
                !(visible && live_visible) && (0..threads).all(|j| apart(&mine, j, true))
            };
            independent && enabled(i)
        })
    }

    /// Whether a visible transition of thread `i` at its location may be
    /// enabled in `state` (its guard is not false there, lazy values taken
    /// as any value).
    fn visible_enabled(&self, i: usize, state: &State) -> bool {
        let li = state.locs[i].index();
        self.leaving[i].get(li).is_none_or(|out| {
            out.iter().any(|l| {
                self.visible_transition[l.id.index()]
                    && !disabled_in(&self.program.transition(l.id).guard, state)
            })
        })
    }

    /// The footprint of thread `i`'s transitions at its location in
    /// `state` (`here`), or of those it can take from there on, without
    /// the ones dead in `state`; and whether one of them is visible (for
    /// `here`).
    fn live(&self, i: usize, state: &State, here: bool) -> (Footprint, bool) {
        let li = state.locs[i].index();
        let Some(f) = self.frozen[i].get(li) else {
            let all = if here { &self.here[i] } else { &self.future[i] };
            return (all[li].clone(), self.visible[i][li]);
        };
        let (mut out, maybe) = if here {
            (f.here.clone(), &f.here_dead)
        } else {
            (f.future.clone(), &f.future_dead)
        };
        let mut visible = f.visible;
        for &(k, masks) in maybe {
            let d = &self.dead.transitions[k as usize];
            let written = match masks.inside {
                true => &*f.inside_writes,
                false => &self.future[i][li].writes,
            };
            let dead = d.conjuncts.iter().enumerate().any(|(b, c)| {
                (masks.frozen & (1 << b) != 0 && false_in(c, state))
                    || (masks.bounded & (1 << b) != 0 && false_within(c, state, written, &d.bounds))
            });
            if !dead {
                out.union_with(&d.footprint);
                visible |= d.visible;
            }
        }
        (out, visible)
    }
}

/// Whether `c` is false for every value in `bounds` of the variables in
/// `written`, the others at their values in `state` (not lazy).
fn false_within(
    c: &Cond,
    state: &State,
    written: &FixedBitSet,
    bounds: &[(VarId, Interval)],
) -> bool {
    let term = |t: &Term| match t {
        Term::Var(v) if written.contains(v.index()) => {
            Some(bounds.iter().find(|(w, _)| w == v).map_or(ANY, |&(_, b)| b))
        }
        Term::Var(v) => Some(match state.vals[v.index()] {
            x if is_lazy(x) => ANY,
            x => Interval::point(x),
        }),
        _ => None,
    };
    interval::cond(
        c,
        &Leaves {
            term: &term,
            at: &|_, _| None,
        },
    ) == Some(false)
}

/// Whether `c` is false in `state` whatever values its lazy variables
/// take.
fn disabled_in(c: &Cond, state: &State) -> bool {
    let term = |t: &Term| match t {
        Term::Var(v) => Some(match state.vals[v.index()] {
            x if is_lazy(x) => ANY,
            x => Interval::point(x),
        }),
        _ => None,
    };
    let at = |t: ThreadId, l: LocId| state.locs.get(t.index()).map(|&at| at == l);
    interval::cond(
        c,
        &Leaves {
            term: &term,
            at: &at,
        },
    ) == Some(false)
}

/// What one error condition observes: the variables it reads and the
/// locations it tests, per thread.
struct Observed<'c> {
    cond: &'c Cond,
    vars: FixedBitSet,
    locs: Vec<FixedBitSet>,
}

impl<'c> Observed<'c> {
    fn new(program: &Program, cond: &'c Cond) -> Self {
        let mut vars = FixedBitSet::with_capacity(program.vars.len());
        cond.for_each_var(&mut |v| vars.insert(v.index()));
        let mut locs: Vec<FixedBitSet> = program
            .threads
            .iter()
            .map(|t| FixedBitSet::with_capacity(t.locs.len()))
            .collect();
        for_each_at(cond, &mut |t, l| {
            if let Some(set) = locs.get_mut(t.index()) {
                if l.index() < set.len() {
                    set.insert(l.index());
                }
            }
        });
        Observed { cond, vars, locs }
    }

    /// Whether transition `tr` of thread `ti`, from location `from` to
    /// `to`, may change the truth of the condition: it writes a variable
    /// the condition reads or moves the thread into or out of a location
    /// it tests, and the condition may hold while the thread is at `from`
    /// (a condition false whenever the thread is there holds in no state
    /// an execution reaches while the thread stays there, which is all
    /// that visibility is about: SOUNDNESS.md, "Partial-order reduction").
    fn changed_by(&self, tr: &crate::ir::Transition, ti: usize, from: usize, to: usize) -> bool {
        let writes = tr.assigns.iter().any(|a| self.vars.contains(a.var.index()));
        let moves = from != to && (self.locs[ti].contains(from) || self.locs[ti].contains(to));
        (writes || moves) && !self.false_at(ti, from, &pinned(&tr.guard))
    }

    /// Whether the condition is false whenever thread `ti` is at `l` and
    /// the variables of `known` have their values: those a transition from
    /// there needs to be enabled. (An execution that reaches an error
    /// while `ti` stays at `l` with that transition enabled throughout,
    /// the case visibility is about, ends in such a state: a deadlock
    /// condition, which needs every thread blocked, is false there.)
    fn false_at(&self, ti: usize, l: usize, known: &[(VarId, i128)]) -> bool {
        let at = |t: ThreadId, at: LocId| (t.index() == ti).then_some(at.index() == l);
        let term = |t: &Term| match t {
            Term::Var(v) => known
                .iter()
                .find(|(w, _)| w == v)
                .map(|&(_, x)| Interval::point(x)),
            _ => None,
        };
        let leaves = Leaves {
            term: &term,
            at: &at,
        };
        interval::cond(self.cond, &leaves) == Some(false)
    }
}

/// The variables a guard's conjuncts `v == k` pin, with their values.
fn pinned(guard: &Cond) -> Vec<(VarId, i128)> {
    let mut out = Vec::new();
    let mut stack = vec![guard];
    while let Some(c) = stack.pop() {
        match c {
            Cond::And(a, b) => stack.extend([&**a, &**b]),
            Cond::Cmp(crate::ir::CmpOp::Eq, Term::Var(v), Term::Const(k))
            | Cond::Cmp(crate::ir::CmpOp::Eq, Term::Const(k), Term::Var(v)) => {
                out.push((*v, i128::from(*k)))
            }
            _ => {}
        }
    }
    out
}

/// Whether `c` is false in `state`, whatever the values of its lazy
/// variables (it has none: a lazy value is not decided).
fn false_in(c: &Cond, state: &State) -> bool {
    let mut lazy = false;
    c.for_each_var(&mut |v| lazy |= is_lazy(state.vals[v.index()]));
    !lazy && crate::interp::eval_cond(c, state) == Ok(false)
}

/// The conjuncts of `guard` (of a transition of thread `ti`) that test
/// the locations of one other thread and nothing else, with that thread.
fn location_gates(guard: &Cond, ti: usize) -> Vec<(usize, Cond)> {
    guard
        .conjuncts()
        .into_iter()
        .take(MAX_CONJUNCTS)
        .filter_map(|c| {
            let mut vars = false;
            c.for_each_var(&mut |_| vars = true);
            let mut threads: Vec<usize> = Vec::new();
            for_each_at(c, &mut |t, _| threads.push(t.index()));
            threads.dedup();
            match threads.as_slice() {
                [t] if !vars && *t != ti => Some((*t, c.clone())),
                _ => None,
            }
        })
        .collect()
}

/// Per thread and location, the [`Gate`]s of each transition leaving it
/// (at most [`MAX_CONJUNCTS`] conjuncts of a guard).
fn gates(program: &Program, writers: &[FixedBitSet]) -> Vec<Vec<Vec<Vec<Gate>>>> {
    let threads = program.threads.len();
    let mut out: Vec<Vec<Vec<Vec<Gate>>>> = program
        .threads
        .iter()
        .map(|t| vec![Vec::new(); t.locs.len()])
        .collect();
    for tr in &program.transitions {
        let gates = tr
            .guard
            .conjuncts()
            .into_iter()
            .take(MAX_CONJUNCTS)
            .map(|c| {
                let mut on = FixedBitSet::with_capacity(threads);
                c.for_each_var(&mut |v| on.union_with(&writers[v.index()]));
                for_each_at(c, &mut |t, _| on.insert(t.index()));
                Gate {
                    cond: c.clone(),
                    threads: on,
                }
            })
            .collect();
        if let Some(list) = out[tr.thread.index()].get_mut(tr.from.index()) {
            list.push(gates);
        }
    }
    out
}

/// The footprints of [`Frozen`], per thread and location, and the
/// transitions they leave out. `future`: the static future footprints;
/// `visible`: per transition, whether it is visible.
fn frozen_footprints(
    program: &Program,
    places: &Places,
    future: &[Vec<Footprint>],
    visible: &[bool],
    ranges: &[Option<ThreadRanges>],
    writers: &[FixedBitSet],
) -> (Vec<Vec<Frozen>>, Dead) {
    let threads = program.threads.len();
    let mut dead = Dead::default();
    let mut out = Vec::with_capacity(threads);
    for (ti, thread) in program.threads.iter().enumerate() {
        let n = thread.locs.len();
        let Some(ranges) = &ranges[ti] else {
            out.push(Vec::new());
            continue;
        };
        let graph = ThreadGraph::new(program, places, ti, writers, visible, ranges, &mut dead);
        if graph.index.is_empty() {
            out.push(Vec::new());
            continue;
        }
        let per_loc = future[ti]
            .iter()
            .take(n)
            .enumerate()
            .map(|(l, from_here)| graph.frozen_at(l, &from_here.writes, &dead, places))
            .collect();
        out.push(per_loc);
    }
    (out, dead)
}

/// Most locations times transitions of a thread for [`Frozen`] (its
/// footprints are made per location from the transitions reachable from
/// it); a larger thread keeps its static footprints.
const MAX_FROZEN_WORK: usize = 1 << 18;

/// One thread's control graph, for [`frozen_footprints`].
struct ThreadGraph<'a> {
    /// Per location, the transitions leaving it and their targets.
    leaving: Vec<Vec<(TransId, usize)>>,
    /// The index in [`Dead::transitions`] of each transition of the
    /// thread that may be dead.
    index: FxHashMap<TransId, u32>,
    /// The footprint of each transition of the thread.
    footprint: FxHashMap<TransId, Footprint>,
    /// Per transition of the program: whether it is visible.
    visible: &'a [bool],
    /// Per location, its strongly connected component.
    component: Vec<usize>,
    /// Per component, the variables its internal transitions write.
    component_writes: Vec<std::rc::Rc<FixedBitSet>>,
}

impl<'a> ThreadGraph<'a> {
    /// The graph of thread `ti`; its transitions that may be dead are added
    /// to `dead`.
    fn new(
        program: &Program,
        places: &Places,
        ti: usize,
        writers: &[FixedBitSet],
        visible: &'a [bool],
        ranges: &ThreadRanges,
        dead: &mut Dead,
    ) -> Self {
        let thread = &program.threads[ti];
        let n = thread.locs.len();
        let mut g = ThreadGraph {
            leaving: vec![Vec::new(); n],
            index: FxHashMap::default(),
            footprint: FxHashMap::default(),
            visible,
            component: Vec::new(),
            component_writes: Vec::new(),
        };
        let own: Vec<Vec<Cond>> = thread
            .transitions
            .iter()
            .map(|&t| owned_conjuncts(&program.transition(t).guard, writers, ti))
            .collect();
        for (&t, own) in thread.transitions.iter().zip(own) {
            let tr = program.transition(t);
            let (from, to) = (tr.from.index(), tr.to.index());
            if from >= n || to >= n || ranges.never_taken(t) {
                continue;
            }
            g.leaving[from].push((t, to));
            let mut fp = Footprint::empty(places);
            fp.add_transition(program, places, t);
            if !own.is_empty() {
                let mut bounds: Vec<(VarId, Interval)> = Vec::new();
                for c in &own {
                    c.for_each_var(&mut |v| {
                        if bounds.iter().all(|(w, _)| *w != v) {
                            bounds.push((v, ranges.bounds(tr.from, v).unwrap_or(ANY)));
                        }
                    });
                }
                g.index.insert(t, dead.transitions.len() as u32);
                dead.transitions.push(DeadTransition {
                    footprint: fp.clone(),
                    conjuncts: own,
                    visible: visible[t.index()],
                    bounds,
                });
            }
            g.footprint.insert(t, fp);
        }
        g.components(program, places.vars);
        g
    }

    /// The strongly connected components and what their internal
    /// transitions write.
    fn components(&mut self, program: &Program, vars: usize) {
        let n = self.leaving.len();
        let graph = petgraph::graph::DiGraph::<(), ()>::from_edges(
            self.leaving
                .iter()
                .enumerate()
                .flat_map(|(from, out)| out.iter().map(move |&(_, to)| (from as u32, to as u32))),
        );
        self.component = (0..n).collect();
        let mut next = n;
        for scc in petgraph::algo::tarjan_scc(&graph) {
            for node in &scc {
                self.component[node.index()] = next;
            }
            next += 1;
        }
        let mut writes = vec![FixedBitSet::with_capacity(vars); next];
        for (from, out) in self.leaving.iter().enumerate() {
            for &(t, to) in out {
                if self.component[from] == self.component[to] {
                    for a in &program.transition(t).assigns {
                        writes[self.component[from]].insert(a.var.index());
                    }
                }
            }
        }
        self.component_writes = writes.into_iter().map(std::rc::Rc::new).collect();
    }

    /// The footprints at location `l`, from which the thread writes
    /// `written`.
    fn frozen_at(&self, l: usize, written: &FixedBitSet, dead: &Dead, places: &Places) -> Frozen {
        // The conjuncts of transition `k` of `dead` over variables that
        // keep their values from `l` on.
        let inside_writes = &self.component_writes[self.component[l]];
        let masks_at = |k: u32, m: usize| -> Masks {
            let d = &dead.transitions[k as usize];
            let inside = self.component[m] == self.component[l];
            let written = if inside { &**inside_writes } else { written };
            let mut masks = Masks {
                frozen: 0,
                bounded: 0,
                inside,
            };
            for (b, c) in d.conjuncts.iter().enumerate() {
                let (mut frozen, mut moving, mut bounded) = (false, false, true);
                c.for_each_var(&mut |v| {
                    if written.contains(v.index()) {
                        moving = true;
                        bounded &= d.bounds.iter().any(|(w, i)| *w == v && !i.unbounded());
                    } else {
                        frozen = true;
                    }
                });
                if !moving {
                    masks.frozen |= 1 << b;
                } else if frozen && bounded {
                    masks.bounded |= 1 << b;
                }
            }
            masks
        };
        let all = |k: u32| -> Masks {
            let n = dead.transitions[k as usize].conjuncts.len();
            Masks {
                frozen: if n >= 64 { u64::MAX } else { (1 << n) - 1 },
                bounded: 0,
                inside: true,
            }
        };
        let mut frozen = Frozen {
            here: Footprint::empty(places),
            future: Footprint::empty(places),
            visible: false,
            here_dead: Vec::new(),
            future_dead: Vec::new(),
            inside_writes: inside_writes.clone(),
        };
        let mut seen = FixedBitSet::with_capacity(self.leaving.len());
        seen.insert(l);
        let mut stack = vec![l];
        while let Some(m) = stack.pop() {
            for &(t, to) in &self.leaving[m] {
                let k = self.index.get(&t).copied();
                match k.map(|k| (k, masks_at(k, m))) {
                    Some((k, masks)) if masks.frozen | masks.bounded != 0 => {
                        frozen.future_dead.push((k, masks))
                    }
                    _ => frozen.future.union_with(&self.footprint[&t]),
                }
                if m == l {
                    match k {
                        Some(k) => frozen.here_dead.push((k, all(k))),
                        None => {
                            frozen.here.union_with(&self.footprint[&t]);
                            frozen.visible |= self.visible[t.index()];
                        }
                    }
                }
                if !seen.put(to) {
                    stack.push(to);
                }
            }
        }
        frozen
    }
}

/// The conjuncts of `guard` (of a transition of thread `ti`) that test no
/// location and read only variables no other thread writes (at most
/// [`MAX_CONJUNCTS`]).
fn owned_conjuncts(guard: &Cond, writers: &[FixedBitSet], ti: usize) -> Vec<Cond> {
    guard
        .conjuncts()
        .into_iter()
        .filter(|c| {
            let mut at = false;
            for_each_at(c, &mut |_, _| at = true);
            let mut owned = true;
            c.for_each_var(&mut |v| {
                let w = &writers[v.index()];
                owned &= w.ones().all(|t| t == ti);
            });
            !at && owned
        })
        .take(MAX_CONJUNCTS)
        .cloned()
        .collect()
}

/// For each location, the union of `here` over the locations reachable
/// from it (itself included) along `succs`.
fn reachable_union(here: &[Footprint], succs: &[Vec<usize>]) -> Vec<Footprint> {
    let graph = petgraph::graph::DiGraph::<(), ()>::from_edges(
        succs
            .iter()
            .enumerate()
            .flat_map(|(from, tos)| tos.iter().map(move |&to| (from as u32, to as u32))),
    );
    // Strongly connected components in reverse topological order: every
    // component's successors come before it.
    let sccs = petgraph::algo::tarjan_scc(&graph);
    let mut out: Vec<Option<Footprint>> = vec![None; here.len()];
    for scc in &sccs {
        let mut fp = here[scc[0].index()].clone();
        for n in scc {
            fp.union_with(&here[n.index()]);
            for &s in &succs[n.index()] {
                if let Some(after) = &out[s] {
                    fp.union_with(after);
                }
            }
        }
        for n in scc {
            out[n.index()] = Some(fp.clone());
        }
    }
    // Locations without any edge are not in the graph.
    out.into_iter()
        .zip(here)
        .map(|(f, h)| f.unwrap_or_else(|| h.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        crate::parse::parse_program(src).expect("test program parses")
    }

    /// The state with the threads at `locs` and the initial values.
    fn at(p: &Program, locs: Vec<LocId>) -> State {
        State {
            locs,
            vals: p
                .vars
                .iter()
                .map(|v| i128::from(v.init.unwrap_or(0)))
                .collect(),
            arrays: Vec::new(),
        }
    }

    fn loc(p: &Program, thread: usize, name: &str) -> LocId {
        LocId::new(
            p.threads[thread]
                .locs
                .iter()
                .position(|l| l == name)
                .expect("location exists"),
        )
    }

    const TWO: &str = "
        var x = 0, a = 0, b = 0;
        thread p at L0 { L0 -> L1 do a := a + 1; L1 -> L2 do x := x + 1; }
        thread q at M0 { M0 -> M1 do b := b + 1; M1 -> M2 do x := x + 2; }
        error x == 5;
    ";

    /// A step that writes what an error condition reads is no visible
    /// one when the condition cannot hold while its thread is where the
    /// step leaves from: a deadlock condition that needs `p` blocked at a
    /// join does not make `p`'s thread creations visible.
    #[test]
    fn a_condition_false_at_the_location_sees_no_step_from_it() {
        let p = program(
            "var x = 0, y = 0;
             thread p at A { A -> B do x := 1; B -> C; }
             thread q at A { A -> B do y := 1; }
             error p@C && x == 1;",
        );
        let sets = PersistentSets::new(&p);
        let at = |lp: &str, lq: &str| at(&p, vec![loc(&p, 0, lp), loc(&p, 1, lq)]);
        // p's write of x at A: the condition needs p at C, so p alone;
        // and p's step into C too (an error state reached through it is
        // reached with it first).
        assert_eq!(sets.choose(&at("A", "A"), |_| true), Some(0));
        assert_eq!(sets.choose(&at("B", "A"), |_| true), Some(0));
        // A condition on q's location: p's write is visible, q's step
        // into B is not.
        let p = program(
            "var x = 0, y = 0;
             thread p at A { A -> B do x := 1; B -> C; }
             thread q at A { A -> B do y := 1; }
             error q@B && x == 1;",
        );
        let sets = PersistentSets::new(&p);
        let s = super::tests::at(&p, vec![loc(&p, 0, "A"), loc(&p, 1, "A")]);
        assert_eq!(sets.choose(&s, |_| true), Some(1));
        // Like a deadlock condition: false while p is at A with its step
        // enabled (`r == 1`), so that step is not visible.
        let p = program(
            "var r = 1, y = 0;
             thread p at A { A -> B when r == 1; }
             thread q at A { A -> B do y := 1; }
             error q@B && !(p@A && r == 1);",
        );
        let sets = PersistentSets::new(&p);
        let s = super::tests::at(&p, vec![loc(&p, 0, "A"), loc(&p, 1, "A")]);
        assert_eq!(sets.choose(&s, |_| true), Some(0));
    }

    #[test]
    fn local_steps_are_persistent() {
        let p = program(TWO);
        let sets = PersistentSets::new(&p);
        let at = |lp: &str, lq: &str| at(&p, vec![loc(&p, 0, lp), loc(&p, 1, lq)]);
        // p's local step at L0: q may still write x, but p's step does
        // not touch it.
        assert_eq!(sets.choose(&at("L0", "M0"), |_| true), Some(0));
        // p at L1 writes x (visible, and q will write x too); q's local
        // step at M0 is persistent.
        assert_eq!(sets.choose(&at("L1", "M0"), |_| true), Some(1));
        // Both about to write x: no reduction.
        assert_eq!(sets.choose(&at("L1", "M1"), |_| true), None);
        // A thread with nothing enabled is not chosen.
        assert_eq!(sets.choose(&at("L0", "M0"), |i| i == 1), Some(1));
    }

    #[test]
    fn a_finished_thread_does_not_interfere() {
        let p = program(
            "var x = 0;
             thread p at L0 { L0 -> L1 do x := 1; }
             thread q at M0 { M0 -> M1 do x := 2; }
             error p@L1 && x == 3;",
        );
        let sets = PersistentSets::new(&p);
        let (l1, m0) = (loc(&p, 0, "L1"), loc(&p, 1, "M0"));
        // p is done; q's step writes x, which the error reads while q is
        // at M0: visible.
        assert_eq!(sets.choose(&at(&p, vec![l1, m0]), |_| true), None);
        let p = program(
            "var x = 0, y = 0;
             thread p at L0 { L0 -> L1 do x := 1; }
             thread q at M0 { M0 -> M1 do x := 2; M1 -> M2 do y := 1; }
             error y == 3;",
        );
        let sets = PersistentSets::new(&p);
        let (l1, m0) = (loc(&p, 0, "L1"), loc(&p, 1, "M0"));
        assert_eq!(sets.choose(&at(&p, vec![l1, m0]), |_| true), Some(1));
    }

    #[test]
    fn location_tests_are_dependences() {
        // q may step while p is at L0: p's step, which leaves L0, is not
        // independent of q's.
        let p = program(
            "var a = 0, b = 0;
             thread p at L0 { L0 -> L1 do a := 1; }
             thread q at M0 { M0 -> M1 when p@L0 do b := 1; }
             error b == 2;",
        );
        let sets = PersistentSets::new(&p);
        let at = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")]);
        assert_eq!(sets.choose(&at, |_| true), None);
    }

    #[test]
    fn future_footprints_follow_loops() {
        // q writes x only after a loop; p's write of x at L0 is dependent
        // on q's future.
        let p = program(
            "var x = 0, c = 0, e = 0;
             thread p at L0 { L0 -> L1 do x := 1; }
             thread q at M0 { M0 -> M1 do c := c + 1; M1 -> M0 do c := c - 1; M1 -> M2 do x := 2; }
             error e == 1;",
        );
        let sets = PersistentSets::new(&p);
        let s = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")]);
        // q's loop step is local: q is chosen, not p.
        assert_eq!(sets.choose(&s, |_| true), Some(1));
        let s = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M2")]);
        assert_eq!(sets.choose(&s, |_| true), Some(0));
    }

    #[test]
    fn a_location_test_depends_only_on_steps_into_or_out_of_it() {
        // q may step until p reaches L2: p's first step (L0 to L1) does
        // not change `p@L2`, its second does.
        let p = program(
            "var a = 0, b = 0;
             thread p at L0 { L0 -> L1 do a := 1; L1 -> L2 do a := 2; }
             thread q at M0 { M0 -> M1 when !p@L2 do b := 1; }
             error b == 2;",
        );
        let sets = PersistentSets::new(&p);
        let s = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")]);
        assert_eq!(sets.choose(&s, |_| true), Some(0));
        let s = at(&p, vec![loc(&p, 0, "L1"), loc(&p, 1, "M0")]);
        assert_eq!(sets.choose(&s, |i| i == 0), None);
    }

    #[test]
    fn branches_a_thread_can_no_longer_take_are_no_dependences() {
        // p writes x or y by its own `id`, set once; q reads x. With
        // `id == 1` p's write of x is dead, so p's step is persistent.
        let src = "var id = 0, x = 0, y = 0, c = 0;
             thread p at L0 { L0 -> L1 do id := *; L1 -> L2 when id == 0 do x := 1; L1 -> L2 when id == 1 do y := 1; }
             thread q at M0 { M0 -> M1 do c := x; }
             error c == 5;";
        let p = program(src);
        let sets = PersistentSets::new(&p);
        let mut s = at(&p, vec![loc(&p, 0, "L1"), loc(&p, 1, "M0")]);
        s.vals[0] = 1;
        assert_eq!(sets.choose(&s, |i| i == 0), Some(0));
        // With `id == 0` the write of x is live: dependent on q's read.
        s.vals[0] = 0;
        assert_eq!(sets.choose(&s, |i| i == 0), None);
        // Before `id` is set (p writes it from L0 on), nothing is dead:
        // q's read is not persistent while p may still write x.
        let s = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")]);
        assert_eq!(sets.choose(&s, |i| i == 1), None);
        // A variable another thread writes is not frozen.
        let p = program(
            "var id = 1, x = 0, c = 0;
             thread p at L1 { L1 -> L2 when id == 0 do x := 1; }
             thread q at M0 { M0 -> M1 do c := x; M1 -> M2 do id := 0; }
             error c == 5;",
        );
        let sets = PersistentSets::new(&p);
        let s = at(&p, vec![loc(&p, 0, "L1"), loc(&p, 1, "M0")]);
        assert_eq!(sets.choose(&s, |i| i == 1), None);
    }

    #[test]
    fn a_dead_step_into_an_error_location_is_not_visible() {
        let p = program(
            "var id, y = 0, x = 0, z = 0;
             thread p at L0 { L0 -> BAD when id == 0; L0 -> L1 when id == 1 do y := 1; }
             thread q at M0 { M0 -> M1 do x := 2; }
             error p@BAD || z == 5;",
        );
        let sets = PersistentSets::new(&p);
        let mut s = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")]);
        s.vals[0] = 1;
        // p's step into BAD is dead: p's other step is invisible.
        assert_eq!(sets.choose(&s, |_| true), Some(0));
        // With `id == 0` it is live and visible: q is chosen.
        s.vals[0] = 0;
        assert_eq!(sets.choose(&s, |_| true), Some(1));
    }

    #[test]
    fn a_slice_index_bounded_by_its_loop_is_no_dependence() {
        // Two threads fill their own halves of `a` in loops: `4·t + i`
        // with `t` fixed while the loop runs and `i` in [0, 3]. p's write
        // of a.1 does not meet q's future writes of a.4 and a.5.
        let src = "var a.0 = 0, a.1 = 0, a.4 = 0, a.5 = 0, tp, ip = 0, tq, iq = 0, c = 0;
             thread p at L {
               L -> L when 4 * tp + ip == 0 && ip < 3 do a.0 := 1, ip := ip + 1;
               L -> L when 4 * tp + ip == 1 && ip < 3 do a.1 := 1, ip := ip + 1;
               L -> L when 4 * tp + ip == 4 && ip < 3 do a.4 := 1, ip := ip + 1;
               L -> L when 4 * tp + ip == 5 && ip < 3 do a.5 := 1, ip := ip + 1;
               L -> E when ip >= 3 do tp := 0;
             }
             thread q at M {
               M -> M when 4 * tq + iq == 0 && iq < 3 do a.0 := 2, iq := iq + 1;
               M -> M when 4 * tq + iq == 1 && iq < 3 do a.1 := 2, iq := iq + 1;
               M -> M when 4 * tq + iq == 4 && iq < 3 do a.4 := 2, iq := iq + 1;
               M -> M when 4 * tq + iq == 5 && iq < 3 do a.5 := 2, iq := iq + 1;
               M -> F when iq >= 3 do tq := 0;
             }
             error c == 5;";
        let p = program(src);
        let sets = PersistentSets::new(&p);
        let mut s = at(&p, vec![loc(&p, 0, "L"), loc(&p, 1, "M")]);
        s.vals[5] = 1; // ip
        s.vals[6] = 1; // tq
        assert_eq!(sets.choose(&s, |_| true), Some(0));
        // With q's own index 0 its slice is p's: both are about to write
        // a.0, no reduction.
        s.vals[5] = 0; // ip
        s.vals[6] = 0; // tq
        assert_eq!(sets.choose(&s, |_| true), None);
        // Once p is past a.0 (its counter only grows from 1), q's write of
        // a.0 is no dependence of p's future.
        s.vals[5] = 1;
        assert_eq!(sets.choose(&s, |i| i == 1), Some(1));
    }

    #[test]
    fn a_thread_waiting_for_another_is_no_dependence() {
        // q waits for p to end before it reads x; p's write of x is
        // persistent while q waits (q cannot move before p does).
        let src = "var x = 0, c = 0, go = 0;
             thread p at L0 { L0 -> L1 do x := 1; L1 -> L2 do go := 1; }
             thread q at M0 { M0 -> M1 when p@L2 do c := x; M0 -> M1 when go == 2 do c := x; }
             error c == 5;";
        let p = program(src);
        let sets = PersistentSets::new(&p);
        let s = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")]);
        assert_eq!(sets.choose(&s, |i| i == 0), Some(0));
        // Once q may move on its own (`go` is 2), its read of x depends.
        let mut s = s;
        s.vals[2] = 2;
        assert_eq!(sets.choose(&s, |i| i == 0), None);
    }

    #[test]
    fn what_follows_a_join_is_not_in_the_future_before_it() {
        // q joins p (a loop of joins it cannot leave before p ends),
        // then reads x: q's future while p is at L0 reads nothing p
        // writes.
        let src = "var x = 0, c = 0, n = 0;
             thread p at L0 { L0 -> L1 do x := 1; }
             thread q at M0 { M0 -> M0 when n < 3 do n := n + 1; M0 -> M1 when p@L1 do c := x; }
             error n == 5;";
        let p = program(src);
        let sets = PersistentSets::new(&p);
        let s = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")]);
        assert_eq!(sets.choose(&s, |i| i == 0), Some(0));
    }

    #[test]
    fn a_step_the_bounds_rule_out_is_in_no_footprint() {
        // q's write of x needs `n == 5`, which its loop never reaches.
        let src = "var x = 0, c = 0, n = 0;
             thread p at L0 { L0 -> L1 do n := x; }
             thread q at M0 { M0 -> M0 when c < 3 do c := c + 1; M0 -> M1 when c == 5 do x := 1; }
             error c == 5;";
        let p = program(src);
        let sets = PersistentSets::new(&p);
        let s = at(&p, vec![loc(&p, 0, "L0"), loc(&p, 1, "M0")]);
        assert_eq!(sets.choose(&s, |i| i == 0), Some(0));
    }
}
