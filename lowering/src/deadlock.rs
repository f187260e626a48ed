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

use engine::interp::State;
use engine::ir::{CmpOp, Cond, LocId, Program, Term, ThreadId, VarId};

use crate::term::{and, any, cmp, not, or};
use crate::Wait;

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
}

/// Some transition of thread `t` leaving `l` is enabled.
fn enabled(p: &Program, t: ThreadId, l: LocId) -> Cond {
    any(p
        .thread(t)
        .transitions
        .iter()
        .map(|&id| p.transition(id))
        .filter(|tr| tr.from == l)
        .map(|tr| tr.guard.clone()))
}

/// Thread `t` waits in a call that cannot complete now.
fn blocked(p: &Program, shape: &Shape, t: ThreadId) -> Cond {
    let calls = any(shape
        .waits
        .iter()
        .filter(|(k, _, _)| *k == t)
        .map(|&(_, l, _)| and(Cond::At(t, l), not(enabled(p, t, l)))));
    let atomic = match &shape.atomic {
        Some((flag, free)) => and(
            cmp(CmpOp::Ne, Term::Var(*flag), Term::Const(0)),
            not(any(free[t.index()].iter().map(|&l| Cond::At(t, l)))),
        ),
        None => Cond::False,
    };
    or(calls, atomic)
}

/// Thread `t` has ended or has not started.
fn idle(p: &Program, shape: &Shape, t: ThreadId) -> Cond {
    let ended = shape.ends[t.index()].map_or(Cond::False, |l| Cond::At(t, l));
    let unstarted = if shape.started[t.index()] {
        let start = p.thread(t).initial;
        and(Cond::At(t, start), not(enabled(p, t, start)))
    } else {
        Cond::False
    };
    or(ended, unstarted)
}

/// The deadlock condition of `p` while `running` holds (false when no
/// thread can wait).
pub(crate) fn condition(p: &Program, shape: &Shape, running: &Cond) -> Cond {
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
    and(running.clone(), and(some, all))
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
fn at_atoms(c: &Cond, out: &mut Vec<(ThreadId, LocId)>) {
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
