//! Reduction: compact models from C (see SOUNDNESS.md, "Reduction").
//!
//! Before the CFGs are compressed into large blocks, this pass
//! 1. propagates constants of thread-local variables and removes the edges
//!    they show infeasible ([`constprop`]), then does the same with the
//!    flow-insensitive value sets of all variables ([`values`]);
//! 2. finds where `main` runs alone ([`alone`]) and drops the havocs of
//!    indeterminate values `main` overwrites before anyone reads them
//!    ([`havocs`]), finds the mutexes the lowering
//!    fully understands and the locks each thread holds at each location
//!    ([`locks`]), and folds that knowledge into the guards (the give-up
//!    edges of a release of a held mutex disappear);
//! 3. classifies every edge as a Lipton mover: thread-local accesses,
//!    accesses to variables protected by one mutex in every thread,
//!    reads of variables no thread writes while others run, and every step
//!    of `main` while it runs alone are both-movers; acquires and thread
//!    starts are right movers; releases are left movers; every other access
//!    to shared memory is a non-mover.
//!
//! [`crate::cfg::Cfg::compress`] then merges a critical section whose
//! accesses are all movers into one step. Without this pass
//! (`--no-reduce`), only thread-local steps are movers.

mod alone;
mod cleanup;
mod constprop;
mod havocs;
mod locks;
mod values;

use std::collections::{BTreeSet, HashSet};

use engine::ir::{Term, VarId};

use crate::cfg::{Cfg, Edge, Mover, Sync};
use crate::lower::{ThreadInst, VarInfo};
use crate::races::Concurrency;

/// Per variable, the threads whose live edges touch it.
pub(crate) fn thread_users(cfgs: &[&Cfg], nvars: usize) -> Vec<BTreeSet<usize>> {
    let mut users = vec![BTreeSet::new(); nvars];
    for (k, cfg) in cfgs.iter().enumerate() {
        for e in cfg.live() {
            e.for_each_var(&mut |v| {
                users[v.index()].insert(k);
            });
        }
    }
    users
}

/// Variables an edge writes (assigns or havocs).
fn writes(e: &Edge, v: VarId) -> bool {
    e.havoc.contains(&v) || e.assigns.iter().any(|(w, _)| *w == v)
}

/// Simplifies the threads' CFGs and sets every edge's mover class.
/// `atomic_flag` is the flag of atomic sections, if the program has one.
/// Returns where `main` runs alone and the locks each thread surely holds
/// (for the race check).
pub(crate) fn reduce(
    threads: &mut [ThreadInst],
    vars: &[VarInfo],
    atomic_flag: Option<VarId>,
    read_by_checks: &HashSet<VarId>,
) -> Concurrency {
    let runs: Vec<Option<VarId>> = threads.iter().map(|t| t.run).collect();
    let is_run = |v: VarId| runs.contains(&Some(v));
    // 1. Values of thread-local variables and of variables no edge writes.
    let users = thread_users(
        &threads.iter().map(|t| &t.cfg).collect::<Vec<_>>(),
        vars.len(),
    );
    let mut written = vec![false; vars.len()];
    for t in threads.iter() {
        for e in t.cfg.live() {
            for v in &e.havoc {
                written[v.index()] = true;
            }
            for (v, _) in &e.assigns {
                written[v.index()] = true;
            }
        }
    }
    let mut local = Vec::with_capacity(threads.len());
    for (k, t) in threads.iter_mut().enumerate() {
        let tracked = |v: VarId| {
            let u = &users[v.index()];
            ((u.len() == 1 && u.contains(&k) && Some(v) != atomic_flag && !is_run(v))
                || (!written[v.index()] && vars[v.index()].init.is_some()))
                && !read_by_checks.contains(&v)
        };
        let entry = (0..vars.len())
            .map(VarId::new)
            .filter(|&v| tracked(v))
            .filter_map(|v| vars[v.index()].init.map(|c| (v, BTreeSet::from([c]))))
            .collect();
        let envs = constprop::analyse(&t.cfg, vars.len(), entry, &tracked);
        constprop::simplify(&mut t.cfg, vars.len(), &envs);
        t.cfg.drop_unreachable();
        local.push(envs);
    }
    // Values of shared variables too, flow-insensitively: removes the
    // cases of a pointer another thread stored that it cannot hold.
    let sets = values::value_sets(
        &threads.iter().map(|t| &t.cfg).collect::<Vec<_>>(),
        vars,
        &local,
    );
    for (t, envs) in threads.iter_mut().zip(&local) {
        if values::remove_infeasible(&mut t.cfg, &sets, Some(envs)) > 0 {
            t.cfg.drop_unreachable();
        }
    }

    // 2. Where main runs alone; clean mutexes; locksets.
    let nested_creation = threads.iter().skip(1).any(|t| {
        t.cfg
            .live()
            .any(|e| e.assigns.iter().any(|(v, _)| is_run(*v)))
    });
    let alone = alone::alone(&threads[0].cfg, &runs, nested_creation);
    havocs::drop_unread(&mut threads[0].cfg, &alone);
    let cfgs: Vec<&Cfg> = threads.iter().map(|t| &t.cfg).collect();
    let mut candidates = BTreeSet::new();
    for cfg in &cfgs {
        for e in cfg.live() {
            if let Sync::Acquire(m, _) | Sync::Release(m, _) = e.sync {
                candidates.insert(m);
            }
        }
    }
    let mut clean: HashSet<VarId> = candidates
        .iter()
        .copied()
        .filter(|&m| vars[m.index()].init == Some(0) && locks::is_clean(m, &cfgs, &alone))
        .collect();
    // Flag locks: cells that hold 1 while held (`__VERIFIER_atomic_acquire`).
    let eligible = |v: VarId| {
        vars[v.index()].init == Some(0)
            && Some(v) != atomic_flag
            && !is_run(v)
            && !candidates.contains(&v)
    };
    let mut flags = {
        let mut cfgs: Vec<&mut Cfg> = threads.iter_mut().map(|t| &mut t.cfg).collect();
        locks::mark_flag_locks(&mut cfgs, &eligible)
    };
    // Until every flag lock left is shown to be one: a failed one is an
    // ordinary variable, and the locksets change.
    let sets = loop {
        let is_clean = |v: VarId| clean.contains(&v) || flags.contains(&v);
        let sets: Vec<locks::Locksets> = threads
            .iter()
            .map(|t| locks::locksets(&t.cfg, &is_clean))
            .collect();
        let cfgs: Vec<&Cfg> = threads.iter().map(|t| &t.cfg).collect();
        let failed: Vec<VarId> = flags
            .iter()
            .copied()
            .filter(|&m| !locks::flag_lock_holds(m, &cfgs, &sets, atomic_flag))
            .collect();
        if failed.is_empty() {
            break sets;
        }
        for m in failed {
            flags.remove(&m);
            for e in threads.iter_mut().flat_map(|t| t.cfg.edges.iter_mut()) {
                if matches!(e.sync, Sync::Acquire(x, _) | Sync::Release(x, _) if x == m) {
                    e.sync = Sync::None;
                }
            }
        }
    };
    clean.extend(flags.iter().copied());
    let is_clean = |v: VarId| clean.contains(&v);
    let is_flag = |v: VarId| flags.contains(&v);
    for (k, t) in threads.iter_mut().enumerate() {
        locks::fold_guards(&mut t.cfg, &sets[k], k as i64 + 1, &is_clean, &is_flag);
        t.cfg.drop_unreachable();
    }

    // 3. Protection of shared variables, then mover classes.
    let cfgs: Vec<&Cfg> = threads.iter().map(|t| &t.cfg).collect();
    let users = thread_users(&cfgs, vars.len());
    let concurrent = |k: usize, e: &Edge| !(k == 0 && alone[e.from]);
    let mut protection: Vec<Option<BTreeSet<VarId>>> = vec![None; vars.len()];
    let mut written_concurrently = vec![false; vars.len()];
    for (k, cfg) in cfgs.iter().enumerate() {
        for e in cfg.live().filter(|e| concurrent(k, e)) {
            let held = sets[k].must[e.from].clone().unwrap_or_default();
            e.for_each_var(&mut |v| {
                let p = &mut protection[v.index()];
                *p = Some(match p.take() {
                    None => held.clone(),
                    Some(old) => old.intersection(&held).copied().collect(),
                });
                written_concurrently[v.index()] |= writes(e, v);
            });
        }
    }
    let arrays = ArrayUse::of(&cfgs, &sets, &concurrent);
    let class_of_var = |k: usize, e: &Edge, v: VarId| -> Mover {
        let u = &users[v.index()];
        if Some(v) == atomic_flag {
            return Mover::Non;
        }
        if is_run(v) {
            // A thread's start reads its run flag, which only ever goes
            // from 0 to 1: a right mover. Writing it creates a thread.
            return if writes(e, v) {
                Mover::Non
            } else {
                Mover::Right
            };
        }
        if u.len() <= 1 && u.contains(&k) {
            return Mover::Both;
        }
        if is_clean(v) {
            return match e.sync {
                Sync::Acquire(m, _) if m == v => Mover::Right,
                Sync::Release(m, _) if m == v => Mover::Left,
                _ => Mover::Non,
            };
        }
        if protection[v.index()]
            .as_ref()
            .is_some_and(|p| !p.is_empty())
        {
            return Mover::Both;
        }
        if !written_concurrently[v.index()] {
            return Mover::Both;
        }
        Mover::Non
    };
    let specials: Vec<Vec<bool>> = threads
        .iter()
        .map(|t| t.cfg.locs.iter().map(|l| l.kind.is_special()).collect())
        .collect();
    for (k, t) in threads.iter_mut().enumerate() {
        for i in 0..t.cfg.edges.len() {
            let e = &t.cfg.edges[i];
            if e.dead {
                continue;
            }
            let mover = if specials[k][e.to] || e.guard.mentions_locations() {
                Mover::Non
            } else if k == 0 && alone[e.from] {
                // Nothing else runs; only a thread creation changes that.
                let creates = e
                    .assigns
                    .iter()
                    .any(|(v, t)| is_run(*v) && *t != Term::Const(0));
                if creates || e.assigns.iter().any(|(v, _)| Some(*v) == atomic_flag) {
                    Mover::Non
                } else {
                    Mover::Both
                }
            } else {
                let mut vars_of = BTreeSet::new();
                e.for_each_var(&mut |v| {
                    vars_of.insert(v);
                });
                let mut arrays_of = BTreeSet::new();
                e.for_each_array_access(&mut |a, _| {
                    arrays_of.insert(a);
                });
                vars_of
                    .into_iter()
                    .map(|v| class_of_var(k, e, v))
                    .chain(arrays_of.into_iter().map(|a| arrays.class(k, a)))
                    .fold(Mover::Both, Mover::then)
            };
            t.cfg.edges[i].mover = mover;
        }
    }
    Concurrency {
        alone,
        held: sets.into_iter().map(|s| s.must).collect(),
    }
}

/// How the threads use each IR array (the exact array model,
/// [`crate::Options::array_values`]): an array is classified like a shared
/// variable, every access to any of its elements an access to it.
struct ArrayUse {
    /// Per array, the threads whose live edges touch it.
    users: Vec<BTreeSet<usize>>,
    /// Per array, the mutexes held at every access while other threads
    /// run (`None`: no such access).
    protection: Vec<Option<BTreeSet<VarId>>>,
    /// Per array, whether it is written while other threads run.
    written_concurrently: Vec<bool>,
}

impl ArrayUse {
    fn of(
        cfgs: &[&Cfg],
        sets: &[locks::Locksets],
        concurrent: &dyn Fn(usize, &Edge) -> bool,
    ) -> ArrayUse {
        let mut n = 0;
        for e in cfgs.iter().flat_map(|c| c.live()) {
            e.for_each_array_access(&mut |a, _| n = n.max(a.index() + 1));
        }
        let mut out = ArrayUse {
            users: vec![BTreeSet::new(); n],
            protection: vec![None; n],
            written_concurrently: vec![false; n],
        };
        for (k, cfg) in cfgs.iter().enumerate() {
            for e in cfg.live() {
                let here = concurrent(k, e);
                let held = sets[k].must[e.from].clone().unwrap_or_default();
                e.for_each_array_access(&mut |a, write| {
                    out.users[a.index()].insert(k);
                    if !here {
                        return;
                    }
                    let p = &mut out.protection[a.index()];
                    *p = Some(match p.take() {
                        None => held.clone(),
                        Some(old) => old.intersection(&held).copied().collect(),
                    });
                    out.written_concurrently[a.index()] |= write;
                });
            }
        }
        out
    }

    /// The mover class of thread `k`'s access to array `a`: as of a
    /// variable ([`reduce`]), without mutexes and run flags.
    fn class(&self, k: usize, a: engine::ir::ArrayId) -> Mover {
        let u = &self.users[a.index()];
        let protected = self.protection[a.index()]
            .as_ref()
            .is_some_and(|p| !p.is_empty());
        if (u.len() <= 1 && u.contains(&k)) || protected || !self.written_concurrently[a.index()] {
            Mover::Both
        } else {
            Mover::Non
        }
    }
}

/// Simplifications once the CFGs are compressed: variables that every step
/// keeps constant, dead inputs that only decide a branch, and edges whose
/// guard is `false`. The atomic flag is read by the guards emission adds,
/// so it stays; so do the cells of racing accesses ([`crate::races`]) and
/// the variables of the conditions of their recorded reads: which of a
/// step's reads happen is decided on its final guard and those. The
/// variables in `read_by_checks` are read by no step, only by conditions
/// over states (the observation flags of floating-point values, checked in
/// a trace's last state; the heap and pointers of the lost-block check):
/// they stay too.
pub(crate) fn after_compression(
    threads: &mut [ThreadInst],
    vars: &[VarInfo],
    atomic_flag: Option<VarId>,
    read_by_checks: &HashSet<VarId>,
) {
    let mut raced: HashSet<VarId> = HashSet::new();
    for a in threads
        .iter()
        .flat_map(|t| t.cfg.live().flat_map(|e| &e.accesses))
    {
        raced.insert(a.var);
        // A recorded read's condition is part of the race condition.
        a.also.for_each_var(&mut |v| {
            raced.insert(v);
        });
    }
    let keep =
        |v: VarId| Some(v) == atomic_flag || raced.contains(&v) || read_by_checks.contains(&v);
    cleanup::invariant_constants(threads, vars, &keep);
    cleanup::unread_variables(threads, vars.len(), &keep);
    let users = thread_users(
        &threads.iter().map(|t| &t.cfg).collect::<Vec<_>>(),
        vars.len(),
    );
    for (k, t) in threads.iter_mut().enumerate() {
        let local = |v: VarId| {
            let u = &users[v.index()];
            u.len() == 1 && u.contains(&k) && !keep(v)
        };
        cleanup::dead_inputs(&mut t.cfg, &local);
        t.cfg
            .edges
            .retain(|e| !e.dead && e.guard != engine::ir::Cond::False);
    }
}
