//! The race condition of a counter system (SOUNDNESS.md, "Data races",
//! *Threads created in loops*): a state of the program where two threads
//! can each take a conflicting access to one cell next is, over the
//! counters, a state where the local states of the instances involved are
//! occupied (two instances in one local state: its counter is at least 2)
//! and each access's guard holds of its instance's local values. The
//! guards' comparisons of forgotten locals are true, so the condition
//! over-approximates the races: a proof of the counter system leaves none
//! in the program, for any number of instances.

use super::{drop_atoms, fold, Ctx, Site, Val};
use crate::races::{kinds_conflict, RaceAccess};
use crate::term::{and, cmp, subst_cond};
use crate::Lowered;
use engine::ir::{CmpOp, Cond, Term, ThreadId, VarId};
use std::collections::{BTreeMap, HashSet};

/// Most disjuncts of the condition (pairs of local states of two accesses
/// of one template, summed over the pairs of accesses).
const MAX_DISJUNCTS: usize = 20_000;

/// Who takes an access in the counter system.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Taker {
    /// A thread that is not an instance of a loop site.
    Thread(ThreadId),
    /// The instances of a loop site (by index).
    Site(usize),
}

/// The race condition of the counter system built with `ctx` from `l`
/// (`Cond::False` when `l` checks no race). Comparisons that read a
/// variable of `stale` (one the counter system does not keep:
/// `super::not_kept`) are true.
pub(super) fn condition(
    l: &Lowered,
    ctx: &Ctx<'_>,
    stale: &HashSet<VarId>,
) -> Result<Cond, String> {
    if l.race_conditions == 0 {
        return Ok(Cond::False);
    }
    let guards = Guards { ctx, stale };
    let taker = |t: ThreadId| -> Option<Taker> {
        match ctx.sites.iter().position(|s| s.rep == t) {
            Some(i) => Some(Taker::Site(i)),
            // The other instances' accesses are the first one's.
            None if ctx.sites.iter().any(|s| s.dropped.contains(&t)) => None,
            None => Some(Taker::Thread(t)),
        }
    };
    let mut by_var: BTreeMap<VarId, Vec<(Taker, &RaceAccess)>> = BTreeMap::new();
    for a in &l.races {
        if let Some(t) = taker(a.thread) {
            by_var.entry(a.var).or_default().push((t, a));
        }
    }
    let mut budget = MAX_DISJUNCTS;
    let mut out = Vec::new();
    for accesses in by_var.values() {
        for (i, &(ta, a)) in accesses.iter().enumerate() {
            for &(tb, b) in &accesses[i..] {
                if !kinds_conflict((a.write, a.atomic), (b.write, b.atomic)) {
                    continue;
                }
                let pair = match (ta, tb) {
                    (Taker::Thread(t), Taker::Thread(u)) if t == u => continue,
                    (Taker::Thread(_), Taker::Thread(_)) => and(guards.at(a)?, guards.at(b)?),
                    (Taker::Site(s), Taker::Site(r)) if s == r => {
                        guards.two_instances(&ctx.sites[s], a, b, &mut budget)?
                    }
                    (Taker::Site(s), other) | (other, Taker::Site(s)) => {
                        let (own, theirs) = if ta == Taker::Site(s) { (a, b) } else { (b, a) };
                        let them = match other {
                            Taker::Site(r) => {
                                guards.instance(&ctx.sites[r], theirs, &mut budget)?
                            }
                            Taker::Thread(_) => guards.at(theirs)?,
                        };
                        and(guards.instance(&ctx.sites[s], own, &mut budget)?, them)
                    }
                };
                out.push(pair);
            }
        }
    }
    Ok(and(any(out), ctx.error(&l.race_running)?))
}

/// Accesses' guards over the counter system's variables.
struct Guards<'a> {
    ctx: &'a Ctx<'a>,
    stale: &'a HashSet<VarId>,
}

impl Guards<'_> {
    /// `c` with comparisons of stale variables true, then its location
    /// tests over the counters.
    fn translate(&self, c: &Cond) -> Result<Cond, String> {
        let stale = |t: &Term| {
            let mut hit = false;
            t.for_each_var(&mut |v| hit |= self.stale.contains(&v));
            hit
        };
        self.ctx.error(&fold(&drop_atoms(c, true, &stale)))
    }

    /// A thread that is not an instance is at the access's location and
    /// its guard holds.
    fn at(&self, a: &RaceAccess) -> Result<Cond, String> {
        self.translate(&and(Cond::At(a.thread, a.loc), a.guard.clone()))
    }

    /// Some instance of `site` can take access `a` next: per local state
    /// at its location, the state is occupied and the guard holds of its
    /// values.
    fn instance(&self, site: &Site, a: &RaceAccess, budget: &mut usize) -> Result<Cond, String> {
        let mut out = Vec::new();
        for j in at_location(site, a) {
            spend(budget, 1)?;
            let occupied = cmp(CmpOp::Ge, Term::Var(site.counters[j]), Term::Const(1));
            out.push(and(occupied, self.guard_in(site, a, j)?));
        }
        Ok(any(out))
    }

    /// Two distinct instances of `site` can take `a` and `b` next.
    fn two_instances(
        &self,
        site: &Site,
        a: &RaceAccess,
        b: &RaceAccess,
        budget: &mut usize,
    ) -> Result<Cond, String> {
        let mut out = Vec::new();
        for j in at_location(site, a) {
            let ga = self.guard_in(site, a, j)?;
            if ga == Cond::False {
                continue;
            }
            for k in at_location(site, b) {
                spend(budget, 1)?;
                let n = |s: usize| Term::Var(site.counters[s]);
                let occupied = if j == k {
                    cmp(CmpOp::Ge, n(j), Term::Const(2))
                } else {
                    and(
                        cmp(CmpOp::Ge, n(j), Term::Const(1)),
                        cmp(CmpOp::Ge, n(k), Term::Const(1)),
                    )
                };
                let both = and(ga.clone(), self.guard_in(site, b, k)?);
                out.push(and(occupied, both));
            }
        }
        Ok(any(out))
    }

    /// The guard of `a` in local state `j` of `site`: the instance's known
    /// locals replaced by their values, its run flag by 1, comparisons of
    /// its forgotten locals (and of stale variables) true.
    fn guard_in(&self, site: &Site, a: &RaceAccess, j: usize) -> Result<Cond, String> {
        let state = &site.states[j];
        let value = |v: VarId| -> Option<Term> {
            if v == site.run {
                return Some(Term::Const(1));
            }
            let k = site.locals.iter().position(|&w| w == v)?;
            match state.vals[k] {
                Val::Known(c) => Some(Term::Const(c)),
                Val::Any | Val::Outside => None,
            }
        };
        self.translate(&fold(&subst_cond(&a.guard, &value)))
    }
}

/// The local states (their indices) at the access's location.
fn at_location<'s>(site: &'s Site, a: &'s RaceAccess) -> impl Iterator<Item = usize> + 's {
    (0..site.states.len()).filter(move |&j| site.states[j].loc == a.loc)
}

/// The disjunction of `conds` (those not false), a balanced tree: there
/// may be thousands.
fn any(conds: Vec<Cond>) -> Cond {
    engine::ir::disjunction(conds.into_iter().filter(|c| *c != Cond::False))
}

/// Takes `k` from the budget of disjuncts, or says that it ran out.
fn spend(budget: &mut usize, k: usize) -> Result<(), String> {
    *budget = budget.checked_sub(k).ok_or_else(|| {
        format!(
            "the race condition of the counter system would have more than {MAX_DISJUNCTS} \
             disjuncts"
        )
    })?;
    Ok(())
}
