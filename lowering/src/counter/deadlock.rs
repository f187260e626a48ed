//! The deadlock condition of a counter system (SOUNDNESS.md, "Deadlocks of
//! threads created in loops").
//!
//! The program's condition ([`crate::deadlock`]) speaks of each thread; the
//! counter system knows of the instances of a site only how many are in
//! each local state. So the condition is rebuilt over the counters as an
//! over-approximation: every deadlocked state of the program (with any
//! number of instances) maps to a state of the counter system that
//! satisfies it, and a proof that no such state is reachable is a proof of
//! deadlock-freedom for any number of threads.
//!
//! - *Global*: every kept thread is idle or waits, and so does every
//!   occupied local state (`n_s = 0` or the state has ended or waits);
//!   some thread or occupied state waits.
//! - *A lock wait whose holder has ended*: a waiting thread or occupied
//!   state whose mutex holds the id of a thread that has ended (an
//!   instance's id is its site's first instance's, and "some instance has
//!   ended" stands for the holder).
//! - *A cycle of lock waits*: the cycles of a graph whose nodes are the
//!   kept threads and the local states waiting in a lock. A cycle of
//!   threads maps to a closed walk of nodes, which contains a simple cycle
//!   whose every edge is the image of a wait of the thread cycle.
//! - *An unwoken condition wait*: no other thread at a location from which
//!   a wake-up can be reached (for the instances: no occupied local state
//!   there, but the waiter's own).
//!
//! A thread's "no step is enabled" is rebuilt from the program's guards in
//! negation normal form: comparisons of values the counter system does not
//! keep (the instances' locals, the slots of handle arrays, the sites'
//! counts of started instances) become true, "an instance is at `L`"
//! becomes "some local state at `L` is occupied", "an instance is not at
//! `L`" becomes true. A join that waits for an instance adds "some started
//! instance has not ended": the handle names a started thread.

use std::collections::HashSet;

use engine::ir::{CmpOp, Cond, LocId, Program, Term, ThreadId, VarId};

use super::{fold, Ctx, LocalState, Site, Val, VIOLATION};
use crate::deadlock::{self as dl, Shape};
use crate::term::{and, any, cmp, not, or, subst_cond};
use crate::{GiveUpKind, Lowered, WaitKind};

/// A node of the lock-wait graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    /// A thread not created in a loop.
    Kept(ThreadId),
    /// A local state (site, state) that waits in a lock.
    State(usize, usize),
}

/// A thread that may hold a mutex: a kept thread, or some instance of a
/// site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holder {
    Kept(ThreadId),
    Site(usize),
}

/// What the rebuilt condition is made from.
pub(super) struct Abstraction<'a> {
    /// The program before the slots of handle arrays were forgotten.
    p: &'a Program,
    shape: &'a Shape,
    ctx: &'a Ctx<'a>,
    /// The variables whose values the counter system does not keep.
    droppable: HashSet<VarId>,
    held: Vec<Vec<HashSet<VarId>>>,
    /// The slots of arrays of thread handles.
    slots: HashSet<VarId>,
    /// The give-ups of a handle stored over a started thread's.
    slot_give_ups: HashSet<(ThreadId, LocId)>,
}

impl<'a> Abstraction<'a> {
    pub(super) fn new(
        l: &'a Lowered,
        shape: &'a Shape,
        ctx: &'a Ctx<'a>,
        droppable: HashSet<VarId>,
    ) -> Self {
        let slot_give_ups = l
            .give_ups
            .iter()
            .filter(|(_, _, g)| g.kind == GiveUpKind::HandleSlot)
            .map(|(t, at, _)| (*t, *at))
            .collect();
        Abstraction {
            p: &l.program,
            shape,
            ctx,
            droppable,
            held: dl::may_hold(&l.program),
            slots: l.handle_slots.iter().copied().collect(),
            slot_give_ups,
        }
    }

    /// Some step of thread `t` leaves `l` in the program the counter
    /// system stands for: a site starts a fresh instance whenever its
    /// creating thread asks (its count of started instances is 0), and a
    /// handle stored over a started thread's is no give-up, but the slot
    /// forgotten ([`super::forget_slots`]).
    fn leave(&self, t: ThreadId, l: LocId) -> Cond {
        let spawned = |v: VarId| {
            self.sites()
                .iter()
                .any(|s| s.spawned == v)
                .then_some(Term::Const(0))
        };
        let slot = |term: &Term| {
            let mut hit = false;
            term.for_each_var(&mut |v| hit |= self.slots.contains(&v));
            hit
        };
        any(self
            .shape
            .leaving(self.p, t, l)
            .into_iter()
            .filter(|(to, _)| !self.slot_give_ups.contains(&(t, *to)))
            .map(|(_, g)| super::drop_atoms(&fold(&subst_cond(&g, &spawned)), true, &slot)))
    }

    /// The deadlock condition of the counter system.
    pub(super) fn condition(&self) -> Result<Cond, String> {
        let running = self.ctx.error(&self.shape.running)?;
        let partial = or(or(self.ended(), self.cycles()), self.unwoken());
        Ok(and(running, or(self.global(), partial)))
    }

    fn sites(&self) -> &[Site] {
        self.ctx.sites
    }

    fn site_of(&self, t: ThreadId) -> Option<usize> {
        self.sites()
            .iter()
            .position(|s| s.rep == t || s.dropped.contains(&t))
    }

    fn kept(&self) -> Vec<ThreadId> {
        (0..self.p.threads.len())
            .map(ThreadId::new)
            .filter(|&t| self.site_of(t).is_none())
            .collect()
    }

    fn at(&self, t: ThreadId, l: LocId) -> Cond {
        Cond::At(self.ctx.map[&t], l)
    }

    fn end(&self, i: usize) -> Option<LocId> {
        self.shape.ends[self.sites()[i].rep.index()]
    }

    /// The sum of the counters of site `i`'s local states that `pick`
    /// selects (`None`: no such state).
    fn count(&self, i: usize, pick: impl Fn(&LocalState) -> bool) -> Option<Term> {
        let site = &self.sites()[i];
        site.states
            .iter()
            .zip(&site.counters)
            .filter(|(st, _)| pick(st))
            .map(|(_, &n)| Term::Var(n))
            .reduce(crate::term::add)
    }

    /// Some local state of site `i` that `pick` selects is occupied.
    fn occupied(&self, i: usize, pick: impl Fn(&LocalState) -> bool) -> Cond {
        self.count(i, pick)
            .map_or(Cond::False, |n| cmp(CmpOp::Ge, n, Term::Const(1)))
    }

    fn state_occupied(&self, i: usize, j: usize) -> Cond {
        let n = self.sites()[i].counters[j];
        cmp(CmpOp::Ge, Term::Var(n), Term::Const(1))
    }

    /// `c` (over the program) over-approximated on the counter system, in
    /// negation normal form under `positive`.
    fn over(&self, c: &Cond, positive: bool) -> Cond {
        let polar = |c: Cond| if positive { c } else { not(c) };
        match c {
            Cond::True | Cond::False => polar(c.clone()),
            Cond::Cmp(..) => {
                let mut dropped = false;
                c.for_each_var(&mut |v| dropped |= self.droppable.contains(&v));
                if dropped {
                    Cond::True
                } else {
                    polar(c.clone())
                }
            }
            Cond::At(t, l) => match self.site_of(*t) {
                Some(i) if positive => self.occupied(i, |st| st.loc == *l),
                Some(_) => Cond::True,
                None => polar(self.at(*t, *l)),
            },
            Cond::Not(a) => self.over(a, !positive),
            Cond::And(a, b) if positive => and(self.over(a, true), self.over(b, true)),
            Cond::Or(a, b) if !positive => and(self.over(a, false), self.over(b, false)),
            Cond::And(a, b) | Cond::Or(a, b) => or(self.over(a, positive), self.over(b, positive)),
        }
    }

    /// `c`, a condition of site `i`'s template, in its local state `j`
    /// (known values substituted), over-approximated.
    fn in_state(&self, i: usize, j: usize, c: &Cond) -> Cond {
        let site = &self.sites()[i];
        let st = &site.states[j];
        let f = |v: VarId| -> Option<Term> {
            if v == site.run {
                return Some(Term::Const(1));
            }
            let k = site.locals.iter().position(|&w| w == v)?;
            match st.vals[k] {
                Val::Known(c) => Some(Term::Const(c)),
                Val::Any | Val::Outside => None,
            }
        };
        self.over(&fold(&subst_cond(c, &f)), true)
    }

    /// Kept thread `t` waits in a call at `l` that cannot complete now.
    fn kept_waits_at(&self, t: ThreadId, l: LocId, kind: &WaitKind) -> Cond {
        let stuck = self.over(&and(Cond::At(t, l), not(self.leave(t, l))), true);
        if *kind != WaitKind::Join {
            return stuck;
        }
        // The awaited thread has not ended; a join's handle names a
        // started thread, so an instance is counted.
        let mut atoms = Vec::new();
        dl::at_atoms(&self.leave(t, l), &mut atoms);
        let mut awaited: Vec<ThreadId> = atoms
            .into_iter()
            .map(|(k, _)| k)
            .filter(|&k| k != t)
            .collect();
        awaited.sort();
        awaited.dedup();
        if awaited.is_empty() {
            return stuck;
        }
        let running = any(awaited.iter().map(|&k| match self.site_of(k) {
            Some(i) => {
                let end = self.end(i);
                self.occupied(i, |st| Some(st.loc) != end)
            }
            None => self.shape.ends[k.index()].map_or(Cond::True, |e| not(self.at(k, e))),
        }));
        and(stuck, running)
    }

    /// Kept thread `t` waits.
    fn kept_blocked(&self, t: ThreadId) -> Cond {
        let calls = any(self
            .shape
            .waits
            .iter()
            .filter(|(k, _, _)| *k == t)
            .map(|(_, l, w)| self.kept_waits_at(t, *l, &w.kind)));
        or(calls, self.over(&dl::atomic_wait(self.shape, t), true))
    }

    /// Every instance in local state `j` of site `i` waits.
    fn state_blocked(&self, i: usize, j: usize) -> Cond {
        let site = &self.sites()[i];
        let loc = site.states[j].loc;
        if loc == VIOLATION {
            return Cond::True;
        }
        let calls = any(self
            .shape
            .waits
            .iter()
            .filter(|(k, l, _)| *k == site.rep && *l == loc)
            .map(|(_, l, _)| self.in_state(i, j, &not(self.leave(site.rep, *l)))));
        let atomic = match &self.shape.atomic {
            Some((flag, free)) if !free[site.rep.index()].contains(&loc) => {
                cmp(CmpOp::Ne, Term::Var(*flag), Term::Const(0))
            }
            _ => Cond::False,
        };
        or(calls, atomic)
    }

    /// Every instance in local state `j` of site `i` has ended.
    fn state_ended(&self, i: usize, j: usize) -> bool {
        let loc = self.sites()[i].states[j].loc;
        loc == VIOLATION || Some(loc) == self.end(i)
    }

    /// The local states of every site, as (site, state) pairs.
    fn states(&self) -> Vec<(usize, usize)> {
        self.sites()
            .iter()
            .enumerate()
            .flat_map(|(i, s)| (0..s.states.len()).map(move |j| (i, j)))
            .collect()
    }

    /// Every thread has ended, has not started, or waits, and some waits.
    fn global(&self) -> Cond {
        if self.shape.waits.is_empty() && self.shape.atomic.is_none() {
            return Cond::False;
        }
        let kept = self.kept();
        let waiting: Vec<Cond> = kept.iter().map(|&t| self.kept_blocked(t)).collect();
        let states = self.states();
        let state_waiting: Vec<Cond> = states
            .iter()
            .map(|&(i, j)| self.state_blocked(i, j))
            .collect();
        let some = or(
            any(waiting.iter().cloned()),
            any(states
                .iter()
                .zip(&state_waiting)
                .map(|(&(i, j), w)| and(self.state_occupied(i, j), w.clone()))),
        );
        let kept_all = kept
            .iter()
            .zip(&waiting)
            .map(|(&t, w)| or(self.over(&dl::idle(self.p, self.shape, t), true), w.clone()));
        let states_all = states.iter().zip(&state_waiting).map(|(&(i, j), w)| {
            if self.state_ended(i, j) {
                return Cond::True;
            }
            let n = self.sites()[i].counters[j];
            or(cmp(CmpOp::Eq, Term::Var(n), Term::Const(0)), w.clone())
        });
        and(some, kept_all.chain(states_all).fold(Cond::True, and))
    }

    /// The lock waits of a node: location and the mutex's cells.
    fn node_locks(&self, node: Node) -> Vec<(LocId, &'a [(Cond, VarId)])> {
        match node {
            Node::Kept(t) => dl::lock_waits(self.shape, t).collect(),
            Node::State(i, j) => {
                let site = &self.sites()[i];
                let loc = site.states[j].loc;
                dl::lock_waits(self.shape, site.rep)
                    .filter(|&(l, _)| l == loc)
                    .collect()
            }
        }
    }

    /// The node waits, blocked, in a lock for a mutex whose cell holds
    /// `id` (of the cells in `holdable`).
    fn waits_in_lock(&self, node: Node, id: i64, holdable: &HashSet<VarId>) -> Cond {
        let owner = |m: VarId| cmp(CmpOp::Eq, Term::Var(m), Term::Const(id));
        any(self.node_locks(node).into_iter().map(|(l, cells)| {
            let cells = cells.iter().filter(|(_, m)| holdable.contains(m));
            match node {
                Node::Kept(t) => {
                    let held = any(cells.map(|(c, m)| and(self.over(c, true), owner(*m))));
                    let stuck = self.over(&not(self.leave(t, l)), true);
                    and(and(self.at(t, l), stuck), held)
                }
                Node::State(i, j) => {
                    let held = any(cells.map(|(c, m)| and(self.in_state(i, j, c), owner(*m))));
                    let rep = self.sites()[i].rep;
                    let stuck = self.in_state(i, j, &not(self.leave(rep, l)));
                    and(and(self.state_occupied(i, j), stuck), held)
                }
            }
        }))
    }

    /// The node is at a lock.
    fn in_lock(&self, node: Node) -> Cond {
        match node {
            Node::Kept(t) => any(self.node_locks(node).iter().map(|&(l, _)| self.at(t, l))),
            Node::State(i, j) => self.state_occupied(i, j),
        }
    }

    /// The nodes: the kept threads, and the local states waiting in a lock.
    fn nodes(&self) -> Vec<Node> {
        let kept = self.kept().into_iter().map(Node::Kept);
        let states = self
            .states()
            .into_iter()
            .map(|(i, j)| Node::State(i, j))
            .filter(|&n| !self.node_locks(n).is_empty());
        kept.chain(states).collect()
    }

    /// The id a mutex cell holds when the holder holds it.
    fn id(&self, h: Holder) -> i64 {
        let t = match h {
            Holder::Kept(t) => t,
            Holder::Site(i) => self.sites()[i].rep,
        };
        t.index() as i64 + 1
    }

    fn holder(node: Node) -> Holder {
        match node {
            Node::Kept(t) => Holder::Kept(t),
            Node::State(i, _) => Holder::Site(i),
        }
    }

    /// The cells a node may hold while it waits in a lock.
    fn holdable(&self, node: Node) -> HashSet<VarId> {
        let locs: Vec<LocId> = self.node_locks(node).iter().map(|(l, _)| *l).collect();
        let t = match node {
            Node::Kept(t) => t,
            Node::State(i, _) => self.sites()[i].rep,
        };
        locs.iter()
            .flat_map(|l| self.held[t.index()][l.index()].iter().copied())
            .collect()
    }

    /// A lock wait for a mutex whose holder has ended.
    fn ended(&self) -> Cond {
        let holders: Vec<Holder> = self
            .kept()
            .into_iter()
            .map(Holder::Kept)
            .chain((0..self.sites().len()).map(Holder::Site))
            .collect();
        let waiters = self.nodes();
        any(holders.iter().flat_map(|&h| {
            let (rep, end, ended) = match h {
                Holder::Kept(t) => {
                    let end = self.shape.ends[t.index()];
                    (t, end, end.map_or(Cond::False, |e| self.at(t, e)))
                }
                Holder::Site(i) => {
                    let end = self.end(i);
                    let ended = self.occupied(i, |st| Some(st.loc) == end);
                    (self.sites()[i].rep, end, ended)
                }
            };
            let at_end: HashSet<VarId> =
                end.map_or_else(HashSet::new, |e| self.held[rep.index()][e.index()].clone());
            waiters
                .iter()
                .filter(move |&&w| w != Node::Kept(rep))
                .map(move |&w| and(self.waits_in_lock(w, self.id(h), &at_end), ended.clone()))
                .collect::<Vec<_>>()
        }))
    }

    /// A cycle of lock waits.
    fn cycles(&self) -> Cond {
        let nodes = self.nodes();
        let holdable: Vec<HashSet<VarId>> = nodes.iter().map(|&n| self.holdable(n)).collect();
        let graph: Vec<Vec<usize>> = nodes
            .iter()
            .map(|&u| {
                let cells: Vec<VarId> = self
                    .node_locks(u)
                    .iter()
                    .flat_map(|(_, cells)| cells.iter().map(|(_, m)| *m))
                    .collect();
                (0..nodes.len())
                    .filter(|&v| cells.iter().any(|m| holdable[v].contains(m)))
                    .collect()
            })
            .collect();
        let edge = |u: usize, v: usize| {
            let id = self.id(Self::holder(nodes[v]));
            self.waits_in_lock(nodes[u], id, &holdable[v])
        };
        match dl::simple_cycles(&graph, dl::MAX_CYCLES) {
            Some(found) => any(found.iter().map(|cycle| {
                cycle
                    .iter()
                    .zip(cycle.iter().cycle().skip(1))
                    .map(|(&u, &v)| edge(u, v))
                    .fold(Cond::True, and)
            })),
            // Beyond the cap: a lock wait for a mutex whose holder waits
            // in a lock.
            None => {
                let nodes = &nodes;
                let edge = &edge;
                any(graph.iter().enumerate().flat_map(|(u, next)| {
                    next.iter()
                        .map(move |&v| and(edge(u, v), self.in_lock(nodes[v])))
                }))
            }
        }
    }

    /// A real condition wait that no other thread can still wake.
    fn unwoken(&self) -> Cond {
        let kept_waits = self
            .shape
            .waits
            .iter()
            .filter_map(|(t, l, w)| match w.kind {
                WaitKind::Condition(woken) if self.site_of(*t).is_none() => {
                    let clear = cmp(CmpOp::Eq, Term::Var(woken), Term::Const(0));
                    let waiting = and(self.at(*t, *l), self.over(&clear, true));
                    Some(and(waiting, self.away(&[woken], Some(*t), None)))
                }
                _ => None,
            });
        // An instance's flag is not kept: every instance waiting is taken
        // as not woken. The locations that reach a wake-up of every
        // instance's flag stand for its own flag's.
        let state_waits = self.states().into_iter().filter_map(|(i, j)| {
            let loc = self.sites()[i].states[j].loc;
            let flags: Vec<VarId> = self
                .shape
                .waits
                .iter()
                .filter(|(t, l, _)| *l == loc && self.site_of(*t) == Some(i))
                .filter_map(|(_, _, w)| match w.kind {
                    WaitKind::Condition(woken) => Some(woken),
                    _ => None,
                })
                .collect();
            (!flags.is_empty()).then(|| {
                and(
                    self.state_occupied(i, j),
                    self.away(&flags, None, Some((i, j))),
                )
            })
        });
        any(kept_waits.chain(state_waits))
    }

    /// No thread but the waiter (kept thread `me`, or an instance in local
    /// state `mine`) is at a location from which a step writing each of
    /// `flags` can be reached.
    fn away(&self, flags: &[VarId], me: Option<ThreadId>, mine: Option<(usize, usize)>) -> Cond {
        let reach = |t: ThreadId| -> Vec<LocId> {
            let mut sets = flags
                .iter()
                .map(|&f| dl::reaching_write(self.p, self.shape, t, f));
            let first = sets.next().unwrap_or_default();
            sets.fold(first, |a, b| a.intersection(&b).copied().collect())
                .into_iter()
                .collect()
        };
        let kept = self
            .kept()
            .into_iter()
            .filter(|&j| Some(j) != me)
            .map(|j| not(any(reach(j).into_iter().map(|at| self.at(j, at)))));
        let sites = (0..self.sites().len()).map(|i| {
            let r = reach(self.sites()[i].rep);
            let own = match mine {
                Some((k, j)) if k == i && r.contains(&self.sites()[i].states[j].loc) => 1,
                _ => 0,
            };
            self.count(i, |st| r.contains(&st.loc))
                .map_or(Cond::True, |n| cmp(CmpOp::Le, n, Term::Const(own)))
        });
        kept.chain(sites).fold(Cond::True, and)
    }
}
