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
/// acquire or release of `m`, an edge into a give-up location that does not
/// write `m`, or an edge of `main` from a location where it runs alone.
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
                    (matches!(cfg.locs[e.to].kind, LocKind::GiveUp(_))
                        && !e.assigns.iter().any(|(v, _)| *v == m)
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
/// `me - 1`: where `m` is surely held the guard reads `m` as `me`, where it
/// is surely not held `m == me` is false. Removes edges that become
/// infeasible; returns whether anything changed.
pub(super) fn fold_guards(
    cfg: &mut Cfg,
    sets: &Locksets,
    me: i64,
    clean: &dyn Fn(VarId) -> bool,
) -> bool {
    let mut changed = false;
    for e in cfg.edges.iter_mut().filter(|e| !e.dead) {
        let (Some(must), Some(may)) = (&sets.must[e.from], &sets.may[e.from]) else {
            continue;
        };
        let held = |v: VarId| must.contains(&v).then_some(Term::Const(me));
        let mut g = subst_cond(&e.guard, &held);
        g = not_mine(&g, may, me, clean);
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
