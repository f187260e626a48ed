//! Which mutexes the lowering fully understands, and which of them a thread
//! holds at each of its locations.
//!
//! A mutex cell holds 0 when free and its owner's id (`k + 1` for thread
//! `k`) when held. It is *clean* when every edge that touches it is an
//! acquire or release marked by the lowering ([`Sync`]), an edge into a
//! give-up location that only reads it, or a step of `main` while no other
//! thread runs (an initialisation). For a clean mutex `m`, the only steps
//! that can set `m` to `k + 1` are thread `k`'s acquires, and while `m ==
//! k + 1` no other thread can change it (their acquires need `m == 0`,
//! their releases `m == their id`). So the usual must-lockset analysis is
//! exact for clean mutexes: `m` is in `held(L)` when every path of thread
//! `k` to `L` acquires `m` after it last released or wrote it, and then
//! `m == k + 1` in every reachable state where `k` is at `L`.
//!
//! A *flag lock* holds 1 while held, whoever holds it: SV-COMP's
//! `__VERIFIER_atomic_acquire` (`assume(m == 0); m = 1;` in an atomic
//! section) and `__VERIFIER_atomic_release`. Every step that writes it
//! must acquire it (guard `m == 0 && ...`, `m := 1`) or release it
//! (`m := 0`), and every other step that reads it, releases included, must
//! be taken where its thread surely holds it, except a step that stops the
//! program inside an atomic section ([`flag_lock_holds`]). Then `m == 1`
//! exactly when one thread holds it: an acquire needs `m == 0`, so nobody
//! holds it, and only the holder releases it. So the locksets are exact for
//! flag locks too; what they cannot say is that a thread *not* holding `m`
//! sees `m == 0` (another may hold it).

use std::collections::BTreeSet;

use engine::ir::{CmpOp, Cond, Term, VarId};

use crate::cfg::{Cfg, LocKind, Sync};
use crate::term::{cmp, subst_cond};

/// A set of mutex cells.
pub(super) type Locks = BTreeSet<VarId>;

/// Per location of one thread: the clean mutexes held on every path
/// (`must`) and on some path (`may`); `None` where the thread never gets.
#[derive(Clone, Debug, Default)]
pub(super) struct Locksets {
    pub must: Vec<Option<Locks>>,
    pub may: Vec<Option<Locks>>,
}

/// Computes the locksets of one thread over the clean mutexes.
pub(super) fn locksets(cfg: &Cfg, clean: &dyn Fn(VarId) -> bool) -> Locksets {
    Locksets {
        must: flow(cfg, clean, true),
        may: flow(cfg, clean, false),
    }
}

fn flow(cfg: &Cfg, clean: &dyn Fn(VarId) -> bool, must: bool) -> Vec<Option<Locks>> {
    let n = cfg.locs.len();
    let mut sets: Vec<Option<Locks>> = vec![None; n];
    sets[0] = Some(Locks::new());
    let mut changed = true;
    while changed {
        changed = false;
        for e in cfg.live() {
            let Some(before) = sets[e.from].clone() else {
                continue;
            };
            let mut after = before;
            match e.sync {
                Sync::Acquire(m, _) if clean(m) => {
                    after.insert(m);
                }
                Sync::Release(m, _) if clean(m) => {
                    after.remove(&m);
                }
                _ => {
                    // Any other write to a mutex: held afterwards on no
                    // path (`must`), possibly held (`may`).
                    for (v, _) in &e.assigns {
                        if clean(*v) {
                            if must {
                                after.remove(v);
                            } else {
                                after.insert(*v);
                            }
                        }
                    }
                }
            }
            let slot = &mut sets[e.to];
            let merged = match slot {
                None => after,
                Some(old) if must => old.intersection(&after).copied().collect(),
                Some(old) => old.union(&after).copied().collect(),
            };
            if slot.as_ref() != Some(&merged) {
                *slot = Some(merged);
                changed = true;
            }
        }
    }
    sets
}

/// Whether every live edge touching `m` in every thread is a marked
/// acquire or release of `m`, an edge into a give-up or violation location
/// that does not write `m` (the thread-safety checks read locks there), or
/// an edge of `main` from a location where it runs alone.
pub(super) fn is_clean(m: VarId, cfgs: &[&Cfg], alone: &[bool]) -> bool {
    let mut marked = false;
    for (k, cfg) in cfgs.iter().enumerate() {
        for e in cfg.live() {
            let mut touches = false;
            e.for_each_var(&mut |v| touches |= v == m);
            if !touches {
                continue;
            }
            let ok = match e.sync {
                Sync::Acquire(x, owner) | Sync::Release(x, owner) if x == m => {
                    marked = true;
                    owner == k as i64 + 1
                }
                _ => {
                    (matches!(
                        cfg.locs[e.to].kind,
                        LocKind::GiveUp(_) | LocKind::Violation(_)
                    ) && !e.assigns.iter().any(|(v, _)| *v == m)
                        && !e.havoc.contains(&m))
                        || (k == 0 && alone.get(e.from).copied().unwrap_or(false))
                }
            };
            if !ok {
                return false;
            }
        }
    }
    marked
}

/// Folds what the locksets say about `m == me` into the guards of thread
/// `me - 1`: where `m` is surely held the guard reads `m` as `me` (as 1 for
/// a flag lock), where it is surely not held `m == me` is false (for the
/// mutexes that hold their owner's id). Removes edges that become
/// infeasible; returns whether anything changed.
pub(super) fn fold_guards(
    cfg: &mut Cfg,
    sets: &Locksets,
    me: i64,
    clean: &dyn Fn(VarId) -> bool,
    flag_lock: &dyn Fn(VarId) -> bool,
) -> bool {
    let mut changed = false;
    let owned = |v: VarId| clean(v) && !flag_lock(v);
    for e in cfg.edges.iter_mut().filter(|e| !e.dead) {
        let (Some(must), Some(may)) = (&sets.must[e.from], &sets.may[e.from]) else {
            continue;
        };
        let held = |v: VarId| {
            must.contains(&v)
                .then_some(Term::Const(if flag_lock(v) { 1 } else { me }))
        };
        let mut g = subst_cond(&e.guard, &held);
        g = not_mine(&g, may, me, &owned);
        if g != e.guard {
            changed = true;
            if g == Cond::False {
                e.dead = true;
            }
            e.guard = g;
        }
    }
    changed
}

/// Rewrites `m == me` to false and `m != me` to true for clean mutexes `m`
/// that may not be held.
fn not_mine(c: &Cond, may: &Locks, me: i64, clean: &dyn Fn(VarId) -> bool) -> Cond {
    use crate::term::{and, not, or};
    match c {
        Cond::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) => {
            let m = match (a, b) {
                (Term::Var(m), Term::Const(k)) | (Term::Const(k), Term::Var(m)) if *k == me => {
                    Some(*m)
                }
                _ => None,
            };
            match m {
                Some(m) if clean(m) && !may.contains(&m) => {
                    if *op == CmpOp::Eq {
                        Cond::False
                    } else {
                        Cond::True
                    }
                }
                _ => cmp(*op, a.clone(), b.clone()),
            }
        }
        Cond::Not(a) => not(not_mine(a, may, me, clean)),
        Cond::And(a, b) => and(not_mine(a, may, me, clean), not_mine(b, may, me, clean)),
        Cond::Or(a, b) => or(not_mine(a, may, me, clean), not_mine(b, may, me, clean)),
        c => c.clone(),
    }
}

/// What a step does to a candidate flag lock `m` it writes: `Some(true)`
/// for an acquire (a conjunct `m == 0` of its guard, `m := 1`),
/// `Some(false)` for a release (`m := 0`), `None` for anything else.
fn flag_op(e: &crate::cfg::Edge, m: VarId) -> Option<bool> {
    if e.havoc.contains(&m) {
        return None;
    }
    let (_, t) = e.assigns.iter().find(|(v, _)| *v == m)?;
    match t {
        Term::Const(1) if e.guard.conjuncts().into_iter().any(|c| is_zero_test(c, m)) => Some(true),
        Term::Const(0) => Some(false),
        _ => None,
    }
}

fn is_zero_test(c: &Cond, m: VarId) -> bool {
    match c {
        Cond::Cmp(CmpOp::Eq, Term::Var(v), Term::Const(0))
        | Cond::Cmp(CmpOp::Eq, Term::Const(0), Term::Var(v)) => *v == m,
        _ => false,
    }
}

/// The candidate flag locks (cells `eligible` accepts that some step
/// acquires) that some step releases, and whose every write, in every
/// thread, is a step that acquires or releases it and nothing else the
/// lowering marked ([`Sync`]); marks those steps (owner 1). A step writing
/// two candidates disqualifies both.
pub(super) fn mark_flag_locks(cfgs: &mut [&mut Cfg], eligible: &dyn Fn(VarId) -> bool) -> Locks {
    let candidates: Locks = cfgs
        .iter()
        .flat_map(|cfg| cfg.live())
        .flat_map(|e| e.assigns.iter().map(move |(v, _)| (e, *v)))
        .filter(|&(e, v)| eligible(v) && flag_op(e, v) == Some(true))
        .map(|(_, v)| v)
        .collect();
    let (mut acquired, mut released, mut other) = (Locks::new(), Locks::new(), Locks::new());
    for e in cfgs.iter().flat_map(|cfg| cfg.live()) {
        let written: Locks = e
            .assigns
            .iter()
            .map(|(v, _)| *v)
            .chain(e.havoc.iter().copied())
            .filter(|v| candidates.contains(v))
            .collect();
        let alone = written.len() == 1 && e.sync == Sync::None;
        for &m in &written {
            match flag_op(e, m) {
                Some(true) if alone => acquired.insert(m),
                Some(false) if alone => released.insert(m),
                _ => other.insert(m),
            };
        }
    }
    let flags: Locks = acquired
        .intersection(&released)
        .filter(|m| !other.contains(m))
        .copied()
        .collect();
    for cfg in cfgs.iter_mut() {
        for e in cfg.edges.iter_mut().filter(|e| !e.dead) {
            for &m in &flags {
                match flag_op(e, m) {
                    Some(true) => e.sync = Sync::Acquire(m, 1),
                    Some(false) => e.sync = Sync::Release(m, 1),
                    None => {}
                }
            }
        }
    }
    flags
}

/// Whether every step touching the flag lock `m` other than its acquires is
/// taken where its thread surely holds `m` (`sets`, per thread), or stops
/// the program inside an atomic section (enters an exit location setting
/// the atomic flag, without writing `m`): then `m == 1` exactly when one
/// thread holds it (see the module's documentation).
pub(super) fn flag_lock_holds(
    m: VarId,
    cfgs: &[&Cfg],
    sets: &[Locksets],
    atomic_flag: Option<VarId>,
) -> bool {
    for (k, cfg) in cfgs.iter().enumerate() {
        for e in cfg.live() {
            let mut touches = false;
            e.for_each_var(&mut |v| touches |= v == m);
            if !touches || matches!(e.sync, Sync::Acquire(x, _) if x == m) {
                continue;
            }
            let held = sets[k].must[e.from]
                .as_ref()
                .is_some_and(|s| s.contains(&m));
            let stops = cfg.locs[e.to].kind == LocKind::Exit
                && !e.havoc.contains(&m)
                && !e.assigns.iter().any(|(v, _)| *v == m)
                && e.assigns
                    .iter()
                    .any(|(v, t)| Some(*v) == atomic_flag && *t == Term::Const(1));
            if !held && !stops {
                return false;
            }
        }
    }
    true
}
