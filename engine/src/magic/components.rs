//! A program as MAGIC's parallel composition: one component per thread,
//! over the thread's own variables, and the shared variables, each of
//! finitely many constant values, as exact components of their own.
//!
//! A step of a thread that touches no shared variable is internal (`τ`).
//! One that reads or writes shared variables is an action, one per
//! valuation of the shared variables it touches before the step: the
//! thread synchronises with the shared variables' components on it (the
//! action fixes their values before and after). The error condition, in
//! disjunctive form, is a list of goals: each a condition on the shared
//! variables and, per thread, a condition on its location and variables.

use crate::ir::{CmpOp, LocId, Program, Rhs, Term, ThreadId, TransId, VarId};
use crate::linear::{cond_to_formula, term_to_lin, Atom, Formula, Lin, Sym};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A formula over program variables (symbols are `VarId` indices).
pub(super) type F = Formula<Atom>;

/// Most cubes of the error condition's disjunctive form.
const MAX_GOALS: usize = 256;

/// Most valuations of the shared variables one step touches.
const MAX_VALUATIONS: usize = 4096;

/// A shared variable and its initial value. A thread's location that
/// other threads test (`t@l` in their guards: joins) is shared too, as a
/// variable of its own (`var: None`) holding the index of the tested
/// location the thread is at, or -1.
#[derive(Clone, Debug)]
pub(super) struct Shared {
    pub var: Option<VarId>,
    pub init: i64,
    /// The values it can take.
    pub domain: Vec<i64>,
    /// For a location: the thread and its tested locations.
    pub locations: Option<(usize, Vec<LocId>)>,
}

impl Shared {
    /// The value of a location variable when its thread is at `l`.
    fn code(&self, l: LocId) -> i64 {
        let (_, locs) = self.locations.as_ref().expect("a location variable");
        locs.iter().position(|&m| m == l).map_or(-1, |k| k as i64)
    }
}

/// An action: one step of one thread at one valuation of the shared
/// variables it touches (shared indices and values, before and after).
#[derive(Clone, Debug)]
pub(super) struct Action {
    pub thread: usize,
    pub before: Vec<(usize, i64)>,
    pub after: Vec<(usize, i64)>,
}

/// A new value of a thread variable.
#[derive(Clone, Debug)]
pub(super) enum Update {
    /// A linear expression over the values before the step.
    Lin(Lin),
    /// Any value (an input).
    Any,
}

/// A step of a component: a transition of its thread at one valuation of
/// the shared variables (their values substituted).
#[derive(Clone, Debug)]
pub(super) struct Step {
    pub transition: TransId,
    pub from: LocId,
    pub to: LocId,
    /// Over the thread's variables.
    pub guard: F,
    /// Updated thread variables (others keep their values).
    pub updates: Vec<(VarId, Update)>,
    /// The action (index into [`Components::actions`]); `None`: internal.
    pub action: Option<usize>,
}

/// One thread as a component.
#[derive(Clone, Debug)]
pub(super) struct Component {
    pub thread: ThreadId,
    pub initial: LocId,
    /// The thread's own variables.
    pub locals: Vec<VarId>,
    /// The initial states, over its variables.
    pub init: F,
    pub steps: Vec<Step>,
}

/// A cube of the error condition, over units about one thread each: its
/// part about shared variables alone.
#[derive(Clone, Debug)]
pub(super) struct Goal {
    pub shared: F,
}

/// A goal at one valuation of the shared variables its thread parts read:
/// per thread, its part (location, its variables) with those values
/// substituted. Reached where the shared values are these, the goal's
/// shared part holds, and every thread may be in its part.
#[derive(Clone, Debug)]
pub(super) struct GoalAction {
    pub goal: usize,
    pub values: Vec<(usize, i64)>,
    pub parts: Vec<(usize, F)>,
}

/// The program as components.
#[derive(Clone, Debug)]
pub(super) struct Components {
    pub threads: Vec<Component>,
    pub shared: Vec<Shared>,
    pub actions: Vec<Action>,
    pub goals: Vec<Goal>,
    pub goal_actions: Vec<GoalAction>,
    /// Number of program variables (symbols above are post-state copies).
    pub vars: usize,
}

/// Who reads or writes a variable.
enum Owner {
    Nobody,
    Thread(usize),
    Shared,
}

impl Components {
    /// Splits `program`; `Err`: why MAGIC does not apply.
    pub fn split(program: &Program) -> Result<Components, String> {
        if program.divides() || program.nonlinear() {
            return Err("the program divides or multiplies variables (predicate abstraction here is linear)".into());
        }
        let owners = owners(program)?;
        let mut shared_index = HashMap::new();
        let mut shared = Vec::new();
        for (v, o) in owners.iter().enumerate() {
            if let Owner::Shared = o {
                let var = VarId::new(v);
                let init = shared_init(program, var)?;
                shared_index.insert(var, shared.len());
                shared.push(Shared {
                    var: Some(var),
                    init,
                    domain: constant_values(program, var, init),
                    locations: None,
                });
            }
        }
        let mut location_index = HashMap::new();
        for (j, locs) in tested_locations(program).into_iter().enumerate() {
            if !locs.is_empty() {
                let mut s = Shared {
                    var: None,
                    init: 0,
                    domain: (-1..locs.len() as i64).collect(),
                    locations: Some((j, locs)),
                };
                s.init = s.code(program.threads[j].initial);
                location_index.insert(j, shared.len());
                shared.push(s);
            }
        }
        let mut out = Components {
            threads: Vec::new(),
            shared,
            actions: Vec::new(),
            goals: Vec::new(),
            goal_actions: Vec::new(),
            vars: program.vars.len(),
        };
        let init_parts = init_parts(program, &owners)?;
        for (i, th) in program.threads.iter().enumerate() {
            let locals: Vec<VarId> = owners
                .iter()
                .enumerate()
                .filter(|(_, o)| {
                    matches!(o, Owner::Thread(t) if *t == i)
                        || (i == 0 && matches!(o, Owner::Nobody))
                })
                .map(|(v, _)| VarId::new(v))
                .collect();
            let mut init = vec![init_parts[i].clone()];
            for &v in &locals {
                if let Some(k) = program.var(v).init {
                    init.push(eq_const(v, k));
                }
            }
            let mut comp = Component {
                thread: ThreadId::new(i),
                initial: th.initial,
                locals,
                init: Formula::and(init),
                steps: Vec::new(),
            };
            for &t in &th.transitions {
                out.instantiate(program, &shared_index, &location_index, i, t, &mut comp)?;
            }
            out.threads.push(comp);
        }
        out.goals(program, &owners, &shared_index)?;
        Ok(out)
    }

    /// The steps of transition `t` of thread `i`, one per valuation of the
    /// shared variables it touches.
    fn instantiate(
        &mut self,
        program: &Program,
        shared_index: &HashMap<VarId, usize>,
        location_index: &HashMap<usize, usize>,
        i: usize,
        t: TransId,
        comp: &mut Component,
    ) -> Result<(), String> {
        let tr = program.transition(t);
        let mut touched = BTreeSet::new();
        let mut note = |v: VarId| {
            if let Some(&s) = shared_index.get(&v) {
                touched.insert(s);
            }
        };
        tr.guard.for_each_var(&mut note);
        for a in &tr.assigns {
            note(a.var);
            if let Rhs::Expr(e) = &a.rhs {
                e.for_each_var(&mut note);
            }
        }
        let guard = own_locations(&cond_to_formula(&tr.guard, true), i, tr.from);
        let mut tested = Vec::new();
        guard.for_each_at(&mut |t, _| tested.push(t.index()));
        touched.extend(tested.iter().filter_map(|j| location_index.get(j)));
        // The thread's own location variable, when it moves to or from a
        // tested location.
        let own = location_index
            .get(&i)
            .copied()
            .filter(|&s| self.shared[s].code(tr.from) >= 0 || self.shared[s].code(tr.to) >= 0);
        touched.extend(own);
        let touched: Vec<usize> = touched.into_iter().collect();
        let domains: Vec<Vec<i64>> = touched
            .iter()
            .map(|&s| match own == Some(s) {
                true => vec![self.shared[s].code(tr.from)],
                false => self.shared[s].domain.clone(),
            })
            .collect();
        let count = domains
            .iter()
            .try_fold(1usize, |n, d| n.checked_mul(d.len()));
        if count.is_none_or(|n| n > MAX_VALUATIONS) {
            return Err(format!(
                "a step of thread {} touches shared variables of too many values together",
                program.thread(ThreadId::new(i)).name
            ));
        }
        for before in valuations(&touched, &domains) {
            let value = |v: VarId| {
                shared_index
                    .get(&v)
                    .and_then(|s| before.iter().find(|(b, _)| b == s))
                    .map(|&(_, k)| k)
            };
            let subst = |s: Sym| match value(VarId(s)) {
                Some(k) => Lin::constant(k.into()),
                None => Lin::sym(s),
            };
            let located = resolve_at(&guard, &mut |t, l| {
                let s = location_index[&t.index()];
                let k = before.iter().find(|(b, _)| *b == s)?.1;
                Some(self.shared[s].code(l) == k)
            });
            let g = located.substitute(&subst);
            if g.is_false() {
                continue;
            }
            let mut after = before.clone();
            if let Some(s) = own {
                if let Some(slot) = after.iter_mut().find(|(b, _)| *b == s) {
                    slot.1 = self.shared[s].code(tr.to);
                }
            }
            let mut updates = Vec::new();
            for a in &tr.assigns {
                match (shared_index.get(&a.var), &a.rhs) {
                    (Some(&s), Rhs::Expr(Term::Const(k))) => {
                        if let Some(slot) = after.iter_mut().find(|(b, _)| *b == s) {
                            slot.1 = *k;
                        }
                    }
                    (Some(_), _) => unreachable!("shared variables are assigned constants"),
                    (None, Rhs::Expr(e)) => {
                        updates.push((a.var, Update::Lin(term_to_lin(e).substitute(&subst))))
                    }
                    (None, Rhs::Nondet) => updates.push((a.var, Update::Any)),
                }
            }
            // Steps with the same effect on the shared variables are one
            // action: the composition cannot tell them apart.
            let action = (!touched.is_empty()).then(|| {
                let same = |a: &Action| a.thread == i && a.before == before && a.after == after;
                match self.actions.iter().position(same) {
                    Some(a) => a,
                    None => {
                        self.actions.push(Action {
                            thread: i,
                            before: before.clone(),
                            after: after.clone(),
                        });
                        self.actions.len() - 1
                    }
                }
            });
            comp.steps.push(Step {
                transition: t,
                from: tr.from,
                to: tr.to,
                guard: g,
                updates,
                action,
            });
        }
        Ok(())
    }
}

/// The values variable `var` can take: its initial value and the
/// constants assigned to it (every assignment to it is a constant).
fn constant_values(program: &Program, var: VarId, init: i64) -> Vec<i64> {
    let mut out = BTreeSet::from([init]);
    for tr in &program.transitions {
        for a in tr.assigns.iter().filter(|a| a.var == var) {
            if let Rhs::Expr(Term::Const(k)) = a.rhs {
                out.insert(k);
            }
        }
    }
    out.into_iter().collect()
}

/// Every valuation of `vars` over `domains`.
fn valuations(vars: &[usize], domains: &[Vec<i64>]) -> Vec<Vec<(usize, i64)>> {
    let mut out = vec![Vec::new()];
    for (&s, d) in vars.iter().zip(domains) {
        out = out
            .into_iter()
            .flat_map(|v: Vec<(usize, i64)>| {
                d.iter().map(move |&k| {
                    let mut w = v.clone();
                    w.push((s, k));
                    w
                })
            })
            .collect();
    }
    out
}

fn eq_const(v: VarId, k: i64) -> F {
    crate::linear::compare(CmpOp::Eq, &Lin::sym(v.0), &Lin::constant(k.into()))
}

/// Which threads read or write each variable; shared ones must be
/// assigned constants only.
fn owners(program: &Program) -> Result<Vec<Owner>, String> {
    let mut owners: Vec<Owner> = (0..program.vars.len()).map(|_| Owner::Nobody).collect();
    for tr in &program.transitions {
        let i = tr.thread.index();
        let mut mark = |v: VarId| {
            let o = &mut owners[v.index()];
            *o = match o {
                Owner::Nobody => Owner::Thread(i),
                Owner::Thread(t) if *t == i => Owner::Thread(i),
                _ => Owner::Shared,
            };
        };
        tr.guard.for_each_var(&mut mark);
        for a in &tr.assigns {
            mark(a.var);
            if let Rhs::Expr(e) = &a.rhs {
                e.for_each_var(&mut mark);
            }
        }
    }
    for tr in &program.transitions {
        for a in &tr.assigns {
            if matches!(owners[a.var.index()], Owner::Shared)
                && !matches!(a.rhs, Rhs::Expr(Term::Const(_)))
            {
                return Err(format!(
                    "threads share `{}`, which is assigned a computed value (MAGIC's components \
                     share only variables of finitely many constant values: flags, locks, the \
                     specification's state)",
                    program.var(a.var).name
                ));
            }
        }
    }
    Ok(owners)
}

fn shared_init(program: &Program, v: VarId) -> Result<i64, String> {
    program.var(v).init.ok_or_else(|| {
        format!(
            "threads share `{}`, whose initial value is any value",
            program.var(v).name
        )
    })
}

/// The owner of every symbol of a formula: one thread, the shared
/// variables, or several (`Err`).
fn formula_owner(f: &F, owners: &[Owner]) -> Result<Option<Owner>, ()> {
    let mut out: Option<Owner> = None;
    let mut bad = false;
    f.for_each_atom(&mut |a: &Atom| {
        for &(s, _) in &a.lhs.terms {
            let o = match owners[s as usize] {
                Owner::Nobody => Owner::Thread(0),
                Owner::Thread(t) => Owner::Thread(t),
                Owner::Shared => Owner::Shared,
            };
            out = match (&out, o) {
                (None, o) => Some(o),
                (Some(Owner::Thread(a)), Owner::Thread(b)) if *a == b => out.take(),
                (Some(Owner::Shared), Owner::Shared) => out.take(),
                _ => {
                    bad = true;
                    out.take()
                }
            };
        }
    });
    if bad {
        Err(())
    } else {
        Ok(out)
    }
}

/// The initial condition split per thread.
fn init_parts(program: &Program, owners: &[Owner]) -> Result<Vec<F>, String> {
    let mut parts: Vec<Vec<F>> = vec![Vec::new(); program.threads.len()];
    for c in &program.init {
        let f = cond_to_formula(c, true);
        match formula_owner(&f, owners) {
            Ok(None) if f.is_true() => {}
            Ok(Some(Owner::Thread(t))) => parts[t].push(f),
            _ => {
                return Err(format!(
                    "an initial condition relates variables of several threads or shared ones ({})",
                    program.named(c)
                ))
            }
        }
    }
    Ok(parts.into_iter().map(Formula::and).collect())
}

/// Location literals of thread `i` resolved (it is at `from`).
fn own_locations(f: &F, i: usize, from: LocId) -> F {
    resolve_at(f, &mut |t, l| (t.index() == i).then_some(l == from))
}

/// Per thread, the locations other threads' steps test.
fn tested_locations(program: &Program) -> Vec<Vec<LocId>> {
    let mut out: Vec<BTreeSet<LocId>> = vec![BTreeSet::new(); program.threads.len()];
    for tr in &program.transitions {
        cond_to_formula(&tr.guard, true).for_each_at(&mut |t, l| {
            if t != tr.thread {
                out[t.index()].insert(l);
            }
        });
    }
    out.into_iter().map(|s| s.into_iter().collect()).collect()
}

/// `f` with the location literals `at(t, l)` decides replaced.
pub(super) fn resolve_at(f: &F, at: &mut impl FnMut(ThreadId, LocId) -> Option<bool>) -> F {
    match f {
        Formula::At(t, l, pos) => match at(*t, *l) {
            Some(b) if b == *pos => Formula::True,
            Some(_) => Formula::False,
            None => f.clone(),
        },
        Formula::And(v) => Formula::and(v.iter().map(|x| resolve_at(x, at))),
        Formula::Or(v) => Formula::or(v.iter().map(|x| resolve_at(x, at))),
        other => other.clone(),
    }
}

/// The threads whose locations or variables a formula mentions (shared
/// variables belong to none); `Err`: an atom relates two threads'
/// variables, or a thread's and a shared one.
fn threads_of(f: &F, owners: &[Owner]) -> Result<BTreeSet<usize>, ()> {
    let mut out = BTreeSet::new();
    f.for_each_at(&mut |t, _| {
        out.insert(t.index());
    });
    let mut bad = false;
    f.for_each_atom(
        &mut |a: &Atom| match formula_owner(&Formula::Lit(a.clone(), true), owners) {
            Ok(Some(Owner::Thread(t))) => {
                out.insert(t);
            }
            Ok(_) => {}
            Err(()) => bad = true,
        },
    );
    if bad {
        Err(())
    } else {
        Ok(out)
    }
}

/// A formula in disjunctive form over *units*: subformulas about one
/// thread at most (its location, its variables and shared ones), kept
/// whole. `Ok(None)`: too many cubes.
fn unit_dnf(f: &F, owners: &[Owner]) -> Result<Option<Vec<Vec<F>>>, ()> {
    if threads_of(f, owners)?.len() <= 1 {
        return Ok(Some(match f {
            Formula::True => vec![Vec::new()],
            Formula::False => Vec::new(),
            _ => vec![vec![f.clone()]],
        }));
    }
    let (Formula::And(v) | Formula::Or(v)) = f else {
        unreachable!("a literal is about one thread");
    };
    let disjunction = matches!(f, Formula::Or(_));
    let mut out = if disjunction {
        Vec::new()
    } else {
        vec![Vec::new()]
    };
    for x in v {
        let Some(d) = unit_dnf(x, owners)? else {
            return Ok(None);
        };
        if disjunction {
            out.extend(d);
        } else {
            out = out
                .iter()
                .flat_map(|c: &Vec<F>| {
                    d.iter().map(move |e| {
                        let mut c = c.clone();
                        c.extend(e.iter().cloned());
                        c
                    })
                })
                .collect();
        }
        if out.len() > MAX_GOALS {
            return Ok(None);
        }
    }
    Ok(Some(out))
}

impl Components {
    /// The error condition as goals, and their actions: one per valuation
    /// of the shared variables the goal's thread parts read.
    fn goals(
        &mut self,
        program: &Program,
        owners: &[Owner],
        shared_index: &HashMap<VarId, usize>,
    ) -> Result<(), String> {
        let several = || "the error condition relates variables of several threads".to_string();
        let f = cond_to_formula(&program.error_cond(), true);
        let cubes = unit_dnf(&f, owners)
            .map_err(|()| several())?
            .ok_or("the error condition has too many cases")?;
        for cube in cubes {
            let mut shared = Vec::new();
            let mut parts: BTreeMap<usize, Vec<F>> = BTreeMap::new();
            for unit in cube {
                match threads_of(&unit, owners).map_err(|()| several())?.first() {
                    Some(&t) => parts.entry(t).or_default().push(unit),
                    None => shared.push(unit),
                }
            }
            let goal = self.goals.len();
            let parts: Vec<(usize, F)> = parts
                .into_iter()
                .map(|(t, v)| (t, Formula::and(v)))
                .collect();
            // The shared variables the parts read, and their valuations.
            let mut read = BTreeSet::new();
            for (_, part) in &parts {
                part.for_each_atom(&mut |a: &Atom| {
                    for &(s, _) in &a.lhs.terms {
                        if let Some(&k) = shared_index.get(&VarId(s)) {
                            read.insert(k);
                        }
                    }
                });
            }
            let read: Vec<usize> = read.into_iter().collect();
            let domains: Vec<Vec<i64>> = read
                .iter()
                .map(|&k| self.shared[k].domain.clone())
                .collect();
            if domains.iter().map(Vec::len).product::<usize>() > MAX_VALUATIONS {
                return Err("the error condition reads shared variables of too many values".into());
            }
            for values in valuations(&read, &domains) {
                let subst = |s: Sym| {
                    let known = shared_index
                        .get(&VarId(s))
                        .and_then(|k| values.iter().find(|(b, _)| b == k));
                    known.map_or_else(|| Lin::sym(s), |&(_, x)| Lin::constant(x.into()))
                };
                let parts: Vec<(usize, F)> = parts
                    .iter()
                    .map(|(t, f)| (*t, f.substitute(&subst)))
                    .collect();
                if parts.iter().any(|(_, f)| f.is_false()) {
                    continue;
                }
                self.goal_actions.push(GoalAction {
                    goal,
                    values,
                    parts,
                });
            }
            self.goals.push(Goal {
                shared: Formula::and(shared),
            });
        }
        Ok(())
    }
}

/// Whether `f` (over shared variables) holds of the values `value`.
pub(super) fn holds_shared(f: &F, value: &impl Fn(Sym) -> i128) -> bool {
    f.eval(&|a: &Atom| a.eval(value), &[])
}
