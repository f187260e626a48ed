//! Tickets: template locals that hold values drawn from a shared counter
//! that only grows (SOUNDNESS.md, "Threads created in loops", *tickets*).
//!
//! A shared variable `c` is *increasing* when every assignment to it, in
//! every thread of the lowered program, is `c := c + k` with a constant
//! `k >= 1` (integers are unbounded: SOUNDNESS.md, "Assumed"). A *ticket
//! step* of a template local `x` assigns `x := c + d` (a constant `d`) and
//! `c := c + k` in one step; assignments are concurrent, so `x` gets the
//! value `c` had before. Two ticket steps, by any instances, happen at
//! different times, and `c` grew in between: they give `x` different
//! values. A local state *holds a ticket* in `x` when every path of the
//! template into it assigns `x` last by a ticket step. So two instances in
//! local states that hold tickets in `x` have different values of `x`:
//! the fact a view program with one tracked instance cannot infer (it
//! forgets the other instances' locals), which it then assumes of each
//! anonymous step.

use std::collections::BTreeSet;

use engine::ir::{Assign, Program, Rhs, Term, VarId};

/// A template local that holds tickets, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Ticket {
    /// Its position among the template's locals.
    pub position: usize,
    /// The local states (by index) that hold a ticket in it.
    pub holding: BTreeSet<usize>,
}

/// A step of the template between local states (by index), with its
/// assignments (to shared variables and to the template's locals).
pub(super) struct Step<'a> {
    pub from: usize,
    pub to: usize,
    pub assigns: &'a [Assign],
}

/// The ticket locals of a template: `locals` its locals, `states` its
/// number of local states, `initial` those instances start in, `steps` its
/// steps; `p` the lowered program (every thread's assignments decide which
/// shared variables are increasing).
pub(super) fn tickets(
    p: &Program,
    locals: &[VarId],
    states: usize,
    initial: &BTreeSet<usize>,
    steps: &[Step<'_>],
) -> Vec<Ticket> {
    let increasing = increasing(p, locals);
    if increasing.is_empty() {
        return Vec::new();
    }
    // Whether a step increases `c`.
    let grows = |s: &Step<'_>, c: VarId| {
        s.assigns.iter().any(|b| {
            b.var == c
                && matches!(&b.rhs, Rhs::Expr(f) if offset(f)
                    .is_some_and(|(v, k)| v == c && k >= 1))
        })
    };
    let mut out = Vec::new();
    for (position, &x) in locals.iter().enumerate() {
        let ticket_step = |s: &Step<'_>| {
            s.assigns.iter().any(|a| {
                a.var == x
                    && matches!(&a.rhs, Rhs::Expr(e) if offset(e)
                        .is_some_and(|(c, _)| increasing.contains(&c) && grows(s, c)))
            })
        };
        if !steps.iter().any(ticket_step) {
            continue;
        }
        // The local states where `x` may hold something else: the initial
        // ones, and whatever a step reaches from them without a ticket
        // step, or by another assignment of `x`.
        let mut other: BTreeSet<usize> = initial.clone();
        loop {
            let before = other.len();
            for s in steps {
                let assigns_x = s.assigns.iter().any(|a| a.var == x);
                let spoils = if assigns_x {
                    !ticket_step(s)
                } else {
                    other.contains(&s.from)
                };
                if spoils {
                    other.insert(s.to);
                }
            }
            if other.len() == before {
                break;
            }
        }
        let holding: BTreeSet<usize> = (0..states).filter(|j| !other.contains(j)).collect();
        if !holding.is_empty() {
            out.push(Ticket { position, holding });
        }
    }
    out
}

/// The variables (not among `locals`) that every assignment of `p`
/// increases by a positive constant, and that some assignment does.
fn increasing(p: &Program, locals: &[VarId]) -> BTreeSet<VarId> {
    let mut assigned: BTreeSet<VarId> = BTreeSet::new();
    let mut other: BTreeSet<VarId> = locals.iter().copied().collect();
    for tr in &p.transitions {
        for a in &tr.assigns {
            let grows = match &a.rhs {
                Rhs::Expr(e) => offset(e).is_some_and(|(v, k)| v == a.var && k >= 1),
                Rhs::Nondet => false,
            };
            if grows {
                assigned.insert(a.var);
            } else {
                other.insert(a.var);
            }
        }
    }
    assigned.difference(&other).copied().collect()
}

/// `v + k` as `(v, k)`, for a term that is a variable plus a constant.
fn offset(t: &Term) -> Option<(VarId, i64)> {
    match t {
        Term::Var(v) => Some((*v, 0)),
        Term::Add(a, b) => match (&**a, &**b) {
            (Term::Var(v), Term::Const(k)) | (Term::Const(k), Term::Var(v)) => Some((*v, *k)),
            _ => None,
        },
        Term::Sub(a, b) => match (&**a, &**b) {
            (Term::Var(v), Term::Const(k)) => Some((*v, k.checked_neg()?)),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{tickets, Step, Ticket};
    use engine::ir::{Program, ThreadId, VarId};
    use std::collections::BTreeSet;

    /// A template `w` (its locations are its local states) with locals `x`
    /// and `y`, and a thread `m` that also writes `c`.
    const PROGRAM: &str = "
var c = 0, x = 0, y = 0;
thread w at a {
  take: a -> b do x := c, c := c + 1;
  use: b -> d when x >= 0;
  kill: d -> e do x := 0;
  again: e -> b do x := c + 2, c := c + 3;
  copy: a -> f do y := c;
}
thread m at s {
  bump: s -> s do c := c + 1;
}
";

    fn tickets_of(src: &str) -> Vec<Ticket> {
        let p: Program = engine::parse::parse_program(src).unwrap_or_else(|e| panic!("{e:?}"));
        let w = p.thread(ThreadId::new(0));
        let steps: Vec<Step<'_>> = w
            .transitions
            .iter()
            .map(|&id| {
                let tr = p.transition(id);
                Step {
                    from: tr.from.index(),
                    to: tr.to.index(),
                    assigns: &tr.assigns,
                }
            })
            .collect();
        let var = |n: &str| VarId::new(p.vars.iter().position(|v| v.name == n).expect("var"));
        let locals = [var("x"), var("y")];
        tickets(&p, &locals, w.locs.len(), &BTreeSet::from([0]), &steps)
    }

    #[test]
    fn locals_drawn_from_a_growing_counter_hold_tickets_until_reassigned() {
        // Locations a, b, d, e, f: `x` holds a ticket at b and d (killed at
        // e, drawn again into b); `y` copies `c` without increasing it.
        assert_eq!(
            tickets_of(PROGRAM),
            vec![Ticket {
                position: 0,
                holding: BTreeSet::from([1, 2]),
            }]
        );
        // A thread that resets the counter: it does not only grow.
        let reset = PROGRAM.replace("c := c + 1;\n}", "c := 0;\n}");
        assert_eq!(tickets_of(&reset), Vec::new());
        // A counter that a step does not increase (k = 0).
        let still = PROGRAM.replace("x := c + 2, c := c + 3", "x := c + 2, c := c + 0");
        assert_eq!(tickets_of(&still), Vec::new());
        // A path into b that does not draw: b no longer holds one.
        let skip = PROGRAM.replace(
            "copy: a -> f do y := c;",
            "copy: a -> f do y := c;\n  jump: f -> b;",
        );
        assert_eq!(tickets_of(&skip), Vec::new());
    }
}
