//! The `no-deadlock` property (SOUNDNESS.md, "Deadlocks"): a deadlock is a
//! state of the running program in which some thread waits in a blocking
//! call (a lock, a join, a semaphore, a barrier, `pthread_once`, the start
//! of an atomic section) that cannot complete, and every other thread has
//! ended, has not started, or waits likewise.
//!
//! Over the emitted IR this is one condition. A thread waits at a location
//! marked by the lowering ([`crate::Wait`]) when no transition leaving it is
//! enabled: the compression keeps every location that may block
//! ([`crate::cfg::Cfg::compress`]), so a step leaving a waiting location
//! blocks only where the call does, and a waiting thread is always at one.
//! Outside atomic sections every step also needs the atomic flag clear, so
//! while another thread holds it a thread anywhere outside a section waits
//! for that section to end.
//!
//! A *partial* deadlock leaves other threads running: some thread waits in
//! a call that no thread can ever complete. Three shapes are conditions
//! over one state ([`partial`]): a lock wait for a mutex held by a thread
//! that has ended; a cycle of lock waits, each thread waiting for a mutex
//! the next one holds (a relock is a cycle of one); a real wait on a
//! condition variable whose wake-up no other thread can still reach in its
//! control flow.

use std::collections::{BTreeSet, HashMap, HashSet};

use engine::interp::State;
use engine::ir::{CmpOp, Cond, LocId, Program, Rhs, Term, ThreadId, VarId};

use crate::term::{and, any, cmp, not, or};
use crate::{Wait, WaitKind};

/// At most this many lock-wait cycles are written out one by one; beyond,
/// a lock wait for a mutex whose holder waits for a mutex stands for them
/// (an over-approximation, confirmed on the trace's last state:
/// [`stuck`]).
pub(crate) const MAX_CYCLES: usize = 64;

/// Where each thread may wait, and when it has ended or not started.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The locations of blocking calls.
    pub waits: Vec<(ThreadId, LocId, Wait)>,
    /// Per thread: its end location, if it can end.
    pub ends: Vec<Option<LocId>>,
    /// Per thread: whether another thread starts it (its start location
    /// waits for that).
    pub started: Vec<bool>,
    /// The atomic flag, and per thread the locations where a thread does
    /// not wait for it (inside sections, and the sinks).
    pub atomic: Option<(VarId, Vec<Vec<LocId>>)>,
    /// The program is running: no thread has stopped it (an error, a
    /// violation, an exit).
    pub running: Cond,
    /// Per waiting location and start location, the steps that leave it
    /// (target and guard), as emitted ([`Shape::record`]): a later
    /// pass may forget variables in the program's guards, which makes them
    /// weaker, and a wait then looks enabled where it is not.
    pub guards: HashMap<(ThreadId, LocId), Vec<(LocId, Cond)>>,
    /// The variables some step of the emitted program assigns (the others
    /// keep their initial values).
    pub assigned: HashSet<VarId>,
    /// The give-up locations, and whether the modelled code of the thread
    /// stops there while the program goes on (a construct not modelled, a
    /// loop that started more threads than its instances, an error past a
    /// heap array's tail), rather than a check of behaviour that is
    /// undefined or not modelled: a thread there, or able to reach a
    /// location that cuts its code, may still wake a waiting thread.
    pub cut: Vec<(ThreadId, LocId, bool)>,
    /// Per thread: its cancellation-pending flag, when the program can
    /// cancel it (a request ends its condition waits, `lower::cancel`).
    pub cancel: Vec<Option<VarId>>,
}

impl Shape {
    /// Records [`Shape::guards`] and [`Shape::assigned`] from the
    /// emitted program.
    pub(crate) fn record(&mut self, p: &Program) {
        self.assigned = assigned(p);
        let starts = (0..p.threads.len())
            .map(ThreadId::new)
            .map(|t| (t, p.thread(t).initial));
        let waits = self.waits.iter().map(|&(t, l, _)| (t, l));
        self.guards = waits
            .chain(starts)
            .map(|(t, l)| ((t, l), leaving(p, t, l)))
            .collect();
    }

    /// The steps of thread `t` leaving `l`: target and guard
    /// ([`Shape::guards`], else from `p`).
    pub(crate) fn leaving(&self, p: &Program, t: ThreadId, l: LocId) -> Vec<(LocId, Cond)> {
        self.guards
            .get(&(t, l))
            .cloned()
            .unwrap_or_else(|| leaving(p, t, l))
    }

    /// Some step of thread `t` leaves `l` ([`Shape::leaving`]).
    pub(crate) fn can_leave(&self, p: &Program, t: ThreadId, l: LocId) -> Cond {
        any(self.leaving(p, t, l).into_iter().map(|(_, g)| g))
    }

    /// The variables the guards of the waits read, but those of joins
    /// (whose counts of ended and joined threads the counter abstraction
    /// does without).
    pub(crate) fn wait_vars(&self) -> HashSet<VarId> {
        let mut vars = HashSet::new();
        for (t, l, w) in &self.waits {
            if w.kind != WaitKind::Join {
                for (_, g) in self.guards.get(&(*t, *l)).into_iter().flatten() {
                    g.for_each_var(&mut |v| {
                        vars.insert(v);
                    });
                }
            }
        }
        vars
    }
}

/// The variables some step of `p` assigns.
pub(crate) fn assigned(p: &Program) -> HashSet<VarId> {
    p.transitions
        .iter()
        .flat_map(|tr| tr.assigns.iter().map(|a| a.var))
        .collect()
}

/// The transitions of thread `t` leaving `l`: target and guard.
fn leaving(p: &Program, t: ThreadId, l: LocId) -> Vec<(LocId, Cond)> {
    p.thread(t)
        .transitions
        .iter()
        .map(|&id| p.transition(id))
        .filter(|tr| tr.from == l)
        .map(|tr| (tr.to, tr.guard.clone()))
        .collect()
}

/// Thread `t` waits in a call that cannot complete now.
fn blocked(p: &Program, shape: &Shape, t: ThreadId) -> Cond {
    let calls = any(shape
        .waits
        .iter()
        .filter(|(k, _, _)| *k == t)
        .map(|&(_, l, _)| and(Cond::At(t, l), not(shape.can_leave(p, t, l)))));
    or(calls, atomic_wait(shape, t))
}

/// Thread `t` waits for another thread's atomic section to end (it is
/// outside every section while the flag is set).
pub(crate) fn atomic_wait(shape: &Shape, t: ThreadId) -> Cond {
    match &shape.atomic {
        Some((flag, free)) => and(
            cmp(CmpOp::Ne, Term::Var(*flag), Term::Const(0)),
            not(any(free[t.index()].iter().map(|&l| Cond::At(t, l)))),
        ),
        None => Cond::False,
    }
}

/// Thread `t` has ended or has not started.
pub(crate) fn idle(p: &Program, shape: &Shape, t: ThreadId) -> Cond {
    let ended = shape.ends[t.index()].map_or(Cond::False, |l| Cond::At(t, l));
    let unstarted = if shape.started[t.index()] {
        let start = p.thread(t).initial;
        and(Cond::At(t, start), not(shape.can_leave(p, t, start)))
    } else {
        Cond::False
    };
    or(ended, unstarted)
}

/// The deadlock condition of `p` while [`Shape::running`] holds (false
/// when no thread can wait): the global form or a partial one.
pub(crate) fn condition(p: &Program, shape: &Shape) -> Cond {
    and(
        shape.running.clone(),
        or(global(p, shape), partial(p, shape)),
    )
}

/// Every thread has ended, has not started, or waits, and some waits.
fn global(p: &Program, shape: &Shape) -> Cond {
    if shape.waits.is_empty() && shape.atomic.is_none() {
        return Cond::False;
    }
    let threads: Vec<ThreadId> = (0..p.threads.len()).map(ThreadId::new).collect();
    let waiting: Vec<Cond> = threads.iter().map(|&t| blocked(p, shape, t)).collect();
    let some = any(waiting.iter().cloned());
    let all = threads
        .iter()
        .zip(&waiting)
        .map(|(&t, w)| or(idle(p, shape, t), w.clone()))
        .fold(Cond::True, and);
    and(some, all)
}

/// The lock waits of thread `t`: the location and the cells the mutex may
/// be, each where its condition holds.
pub(crate) fn lock_waits(
    shape: &Shape,
    t: ThreadId,
) -> impl Iterator<Item = (LocId, &[(Cond, VarId)])> {
    shape
        .waits
        .iter()
        .filter_map(move |(k, l, w)| match &w.kind {
            WaitKind::Mutex(cells) if *k == t => Some((*l, cells.as_slice())),
            _ => None,
        })
}

/// Per thread and location, the cells the thread may hold there: a step
/// setting a cell to the thread's number (a lock, a trylock, a write lock)
/// takes it, a step setting it to 0 releases it (a forward data flow from
/// the start, where a thread holds nothing).
pub(crate) fn may_hold(p: &Program) -> Vec<Vec<HashSet<VarId>>> {
    (0..p.threads.len())
        .map(|k| {
            let thread = p.thread(ThreadId::new(k));
            let me = Rhs::Expr(Term::Const(k as i64 + 1));
            let free = Rhs::Expr(Term::Const(0));
            let mut held = vec![HashSet::new(); thread.locs.len()];
            let mut changed = true;
            while changed {
                changed = false;
                for tr in thread.transitions.iter().map(|&id| p.transition(id)) {
                    let mut out = held[tr.from.index()].clone();
                    for a in &tr.assigns {
                        if a.rhs == me {
                            out.insert(a.var);
                        } else if a.rhs == free {
                            out.remove(&a.var);
                        }
                    }
                    let to = &mut held[tr.to.index()];
                    let before = to.len();
                    to.extend(out);
                    changed |= to.len() > before;
                }
            }
            held
        })
        .collect()
}

/// Per thread, of the cells it may hold where ([`may_hold`]), those it may
/// hold where it ends (`at_end`), or while it waits in a lock (else).
fn holdable(shape: &Shape, may_hold: &[Vec<HashSet<VarId>>], at_end: bool) -> Vec<HashSet<VarId>> {
    may_hold
        .iter()
        .enumerate()
        .map(|(k, held)| {
            let k = ThreadId::new(k);
            if at_end {
                shape.ends[k.index()].map_or_else(HashSet::new, |e| held[e.index()].clone())
            } else {
                lock_waits(shape, k)
                    .flat_map(|(l, _)| held[l.index()].iter().copied())
                    .collect()
            }
        })
        .collect()
}

/// Thread `t` waits in a lock, blocked, for a mutex that `holder` holds
/// (of the cells `holder` may hold). Blocked: a recursive mutex's relock
/// does not wait.
fn waits_for(
    p: &Program,
    shape: &Shape,
    holdable: &[HashSet<VarId>],
    t: ThreadId,
    holder: ThreadId,
) -> Cond {
    let owner = Term::Const(holder.index() as i64 + 1);
    any(lock_waits(shape, t).map(|(l, cells)| {
        let held = any(cells
            .iter()
            .filter(|(_, m)| holdable[holder.index()].contains(m))
            .map(|(c, m)| and(c.clone(), cmp(CmpOp::Eq, Term::Var(*m), owner.clone()))));
        and(and(Cond::At(t, l), held), not(shape.can_leave(p, t, l)))
    }))
}

/// Some thread waits in a call that no thread can ever complete, whatever
/// the others do (the three shapes of the module's documentation).
fn partial(p: &Program, shape: &Shape) -> Cond {
    let threads: Vec<ThreadId> = (0..p.threads.len()).map(ThreadId::new).collect();
    let held = may_hold(p);
    let at_end = holdable(shape, &held, true);
    let ended = any(threads
        .iter()
        .flat_map(|&t| {
            threads.iter().filter_map(move |&k| {
                let end = shape.ends[k.index()]?;
                (k != t).then_some((t, k, end))
            })
        })
        .map(|(t, k, end)| and(waits_for(p, shape, &at_end, t, k), Cond::At(k, end))));
    let waiting = holdable(shape, &held, false);
    let unwoken = any(threads.iter().map(|&t| unwoken(p, shape, t)));
    or(ended, or(cycles(p, shape, &waiting, &threads), unwoken))
}

/// The cycles of lock waits: each thread of a cycle waits for a mutex the
/// next one holds. Written out one by one up to [`MAX_CYCLES`]; beyond, a
/// lock wait for a mutex held by a thread waiting in a lock.
fn cycles(p: &Program, shape: &Shape, holdable: &[HashSet<VarId>], threads: &[ThreadId]) -> Cond {
    let edge = |t: ThreadId, k: ThreadId| {
        lock_waits(shape, t)
            .any(|(_, cells)| cells.iter().any(|(_, m)| holdable[k.index()].contains(m)))
    };
    let graph: Vec<Vec<usize>> = threads
        .iter()
        .map(|&t| {
            threads
                .iter()
                .filter(|&&k| edge(t, k))
                .map(|k| k.index())
                .collect()
        })
        .collect();
    let id = ThreadId::new;
    match simple_cycles(&graph, MAX_CYCLES) {
        Some(found) => any(found.iter().map(|cycle| {
            cycle
                .iter()
                .zip(cycle.iter().cycle().skip(1))
                .map(|(&t, &k)| waits_for(p, shape, holdable, id(t), id(k)))
                .fold(Cond::True, and)
        })),
        None => any(threads.iter().flat_map(|&t| {
            graph[t.index()].iter().map(move |&k| {
                let k = id(k);
                let k_waits = any(lock_waits(shape, k).map(|(l, _)| Cond::At(k, l)));
                and(waits_for(p, shape, holdable, t, k), k_waits)
            })
        })),
    }
}

/// The simple cycles of a directed graph over node indices (each from its
/// smallest member), or `None` when there are more than `cap`.
pub(crate) fn simple_cycles(graph: &[Vec<usize>], cap: usize) -> Option<Vec<Vec<usize>>> {
    fn extend(
        graph: &[Vec<usize>],
        path: &mut Vec<usize>,
        found: &mut Vec<Vec<usize>>,
        cap: usize,
    ) -> bool {
        let (start, last) = (path[0], path[path.len() - 1]);
        for &k in &graph[last] {
            if k == start {
                found.push(path.clone());
                if found.len() > cap {
                    return false;
                }
            } else if k > start && !path.contains(&k) {
                path.push(k);
                let ok = extend(graph, path, found, cap);
                path.pop();
                if !ok {
                    return false;
                }
            }
        }
        true
    }
    let mut found = Vec::new();
    for start in 0..graph.len() {
        if !extend(graph, &mut vec![start], &mut found, cap) {
            return None;
        }
    }
    Some(found)
}

/// A real wait of thread `t` on a condition variable (its `woken` flag
/// clear) while no other thread can still reach a step that sets the flag,
/// nor (in a program that cancels) `t`'s cancellation-pending flag, which
/// is clear.
fn unwoken(p: &Program, shape: &Shape, t: ThreadId) -> Cond {
    let nobody_sets = |var: VarId| {
        (0..p.threads.len())
            .map(ThreadId::new)
            .filter(|&j| j != t)
            .map(|j| {
                not(any(reaching_write(p, shape, j, var)
                    .into_iter()
                    .map(|at| Cond::At(j, at))))
            })
            .fold(Cond::True, and)
    };
    let uncancelled = match shape.cancel.get(t.index()).copied().flatten() {
        Some(pending) => and(
            cmp(CmpOp::Eq, Term::Var(pending), Term::Const(0)),
            nobody_sets(pending),
        ),
        None => Cond::True,
    };
    any(shape.waits.iter().filter_map(|(k, l, w)| {
        let WaitKind::Condition(woken) = w.kind else {
            return None;
        };
        if *k != t {
            return None;
        }
        let waiting = and(
            Cond::At(t, *l),
            cmp(CmpOp::Eq, Term::Var(woken), Term::Const(0)),
        );
        Some(and(and(waiting, nobody_sets(woken)), uncancelled.clone()))
    }))
}

/// The locations of thread `k` from which a step writing `var`, or a
/// give-up location that cuts its code, can be reached along its
/// transitions (guards ignored), and its give-up locations
/// ([`Shape::cut`]).
pub(crate) fn reaching_write(
    p: &Program,
    shape: &Shape,
    k: ThreadId,
    var: VarId,
) -> BTreeSet<LocId> {
    let steps: Vec<_> = p
        .thread(k)
        .transitions
        .iter()
        .map(|&id| p.transition(id))
        .collect();
    let mut reach: BTreeSet<LocId> = steps
        .iter()
        .filter(|tr| tr.assigns.iter().any(|a| a.var == var))
        .map(|tr| tr.from)
        .chain(
            shape
                .cut
                .iter()
                .filter(|(t, _, cuts)| *t == k && *cuts)
                .map(|(_, l, _)| *l),
        )
        .collect();
    loop {
        let before = reach.len();
        for tr in &steps {
            if reach.contains(&tr.to) {
                reach.insert(tr.from);
            }
        }
        if reach.len() == before {
            let at = shape.cut.iter().filter(|(t, _, _)| *t == k);
            reach.extend(at.map(|(_, l, _)| *l));
            return reach;
        }
    }
}

/// The threads of `state` that wait in a call no thread can ever complete
/// (the partial shapes), computed on the state itself: a lock wait whose
/// chain of holders ends at an ended thread or runs into a cycle, or an
/// unwoken condition wait. Confirms what [`cycles`] over-approximates.
fn stuck(p: &Program, shape: &Shape, state: &State) -> Vec<ThreadId> {
    let holds = |c: &Cond| engine::interp::eval_cond(c, state).unwrap_or(false);
    let n = p.threads.len();
    let at = |t: ThreadId, l: LocId| state.locs.get(t.index()) == Some(&l);
    let ended = |k: ThreadId| shape.ends[k.index()].is_some_and(|e| at(k, e));
    // The holder each thread waits for in a lock, if it does.
    let holder: Vec<Option<ThreadId>> = (0..n)
        .map(ThreadId::new)
        .map(|t| {
            lock_waits(shape, t)
                .filter(|&(l, _)| at(t, l) && !holds(&shape.can_leave(p, t, l)))
                .flat_map(|(_, cells)| cells)
                .filter(|(c, _)| holds(c))
                .find_map(|(_, m)| {
                    let owner = usize::try_from(*state.vals.get(m.index())? - 1).ok()?;
                    (owner < n).then(|| ThreadId::new(owner))
                })
        })
        .collect();
    let forever = |t: ThreadId| {
        let mut seen = vec![t];
        let mut k = t;
        while let Some(h) = holder[k.index()] {
            if ended(h) || seen.contains(&h) {
                return true;
            }
            seen.push(h);
            k = h;
        }
        false
    };
    (0..n)
        .map(ThreadId::new)
        .filter(|&t| forever(t) || holds(&unwoken(p, shape, t)))
        .collect()
}

/// Whether `state` is a global deadlock (every thread that has not ended
/// or not started waits).
pub fn is_global(p: &Program, shape: &Shape, state: &State) -> bool {
    engine::interp::eval_cond(&global(p, shape), state).unwrap_or(false)
}

/// The threads of a deadlock in `state`, each with the call it waits in:
/// every waiting thread of a global deadlock, else the threads that wait
/// forever ([`stuck`]); `None` when `state` is neither.
pub fn deadlocked<'a>(
    p: &Program,
    shape: &'a Shape,
    state: &State,
) -> Option<Vec<(ThreadId, Option<&'a Wait>)>> {
    let holds = |c: &Cond| engine::interp::eval_cond(c, state).unwrap_or(false);
    if is_global(p, shape, state) {
        return Some(waiting(p, shape, &holds));
    }
    let stuck = stuck(p, shape, state);
    let waiting: Vec<_> = waiting(p, shape, &holds)
        .into_iter()
        .filter(|(t, _)| stuck.contains(t))
        .collect();
    (!waiting.is_empty()).then_some(waiting)
}

/// The thread that a join waiting at `l` of thread `t` waits for in
/// `state`: the `k@L` atom of a guard leaving `l` that would enable it if
/// it held, and with it the comparisons of variables `k` writes (the
/// counters its end updates). The handle's cases cannot say: the reduction
/// may have folded the handle into the guards.
pub fn awaited(p: &Program, t: ThreadId, l: LocId, state: &State) -> Option<ThreadId> {
    let holds = |c: &Cond| engine::interp::eval_cond(c, state).unwrap_or(false);
    p.thread(t)
        .transitions
        .iter()
        .map(|&id| p.transition(id))
        .filter(|tr| tr.from == l)
        .find_map(|tr| {
            let mut atoms = Vec::new();
            at_atoms(&tr.guard, &mut atoms);
            atoms
                .into_iter()
                .find(|&(k, at)| {
                    let writes: Vec<VarId> = p
                        .thread(k)
                        .transitions
                        .iter()
                        .flat_map(|&id| p.transition(id).assigns.iter().map(|a| a.var))
                        .collect();
                    k != t && holds(&assume_at(&tr.guard, k, at, &writes))
                })
                .map(|(k, _)| k)
        })
}

/// The `k@L` atoms of a condition.
pub(crate) fn at_atoms(c: &Cond, out: &mut Vec<(ThreadId, LocId)>) {
    match c {
        Cond::At(k, l) => out.push((*k, *l)),
        Cond::Not(a) => at_atoms(a, out),
        Cond::And(a, b) | Cond::Or(a, b) => {
            at_atoms(a, out);
            at_atoms(b, out);
        }
        _ => {}
    }
}

/// `c` with the atom `k@at` true, and the comparisons of `writes` too.
fn assume_at(c: &Cond, k: ThreadId, at: LocId, writes: &[VarId]) -> Cond {
    let rec = |a: &Cond| Box::new(assume_at(a, k, at, writes));
    match c {
        Cond::At(j, l) if *j == k && *l == at => Cond::True,
        Cond::Cmp(..) => {
            let mut written = false;
            c.for_each_var(&mut |v| written |= writes.contains(&v));
            if written {
                Cond::True
            } else {
                c.clone()
            }
        }
        Cond::Not(a) => Cond::Not(rec(a)),
        Cond::And(a, b) => Cond::And(rec(a), rec(b)),
        Cond::Or(a, b) => Cond::Or(rec(a), rec(b)),
        c => c.clone(),
    }
}

/// The threads waiting in the final state of a deadlock, each with the
/// call it waits in (none: it waits for another thread's atomic section
/// outside any call).
pub fn waiting<'a>(
    p: &Program,
    shape: &'a Shape,
    holds: &dyn Fn(&Cond) -> bool,
) -> Vec<(ThreadId, Option<&'a Wait>)> {
    (0..p.threads.len())
        .map(ThreadId::new)
        .filter(|&t| holds(&blocked(p, shape, t)))
        .map(|t| {
            let call = shape
                .waits
                .iter()
                .find(|(k, l, _)| *k == t && holds(&Cond::At(t, *l)))
                .map(|(_, _, w)| w);
            (t, call)
        })
        .collect()
}
