//! Dead-variable reset: a program transformation that keeps reachability
//! of the error and shrinks the state space.
//!
//! A variable that only one thread reads or writes (its *owner*), that the
//! error and initial conditions do not mention, and that has a declared
//! initial value, is *dead* at a location of its owner when no path of the
//! owner from there reads it before writing it. Lowered C has many such
//! variables (temporaries, locals after their last use); their stale values
//! make otherwise equal states differ, for the explicit search and for the
//! symbolic states of ASE alike.
//!
//! The pass adds `v := init(v)` to every transition after which `v` is dead
//! and whose source state may hold another value (it writes `v`, or `v` is
//! live before it). This keeps the invariant "a dead owned variable holds
//! its initial value" at every location. It preserves reachability: no
//! thread but the owner reads `v`, the owner writes `v` before reading it
//! again, and the error condition does not mention `v`; so a state and its
//! reset version have the same futures up to `v`'s value.

use crate::ir::{Assign, Program, Rhs, Term, ThreadId, TransId, VarId};

/// Whether a variable can be reset, and by whom it is used.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    /// No transition uses it.
    Unused,
    /// Only this thread uses it.
    Owned(ThreadId),
    /// Several threads, the error or initial condition, or no declared
    /// initial value: never reset.
    Fixed,
}

/// A set of a thread's owned variables, as a bit vector.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
}

/// The thread that alone uses each variable (none for variables used by
/// several threads, by no transition, or by the error or initial
/// condition).
pub fn owners(p: &Program) -> Vec<Option<ThreadId>> {
    uses(p)
        .into_iter()
        .map(|u| match u {
            Use::Owned(t) => Some(t),
            Use::Unused | Use::Fixed => None,
        })
        .collect()
}

fn uses(p: &Program) -> Vec<Use> {
    uses_with(p, &[])
}

/// [`uses`], the error condition's mentions of the variables in `weak`
/// not counting.
fn uses_with(p: &Program, weak: &[VarId]) -> Vec<Use> {
    let mut uses = vec![Use::Unused; p.vars.len()];
    let mut is_weak = vec![false; p.vars.len()];
    for v in weak {
        is_weak[v.index()] = true;
    }
    for c in &p.error {
        c.for_each_var(&mut |v: VarId| {
            if !is_weak[v.index()] {
                uses[v.index()] = Use::Fixed;
            }
        });
    }
    let mut fix = |v: VarId| uses[v.index()] = Use::Fixed;
    for c in &p.init {
        c.for_each_var(&mut fix);
    }
    for t in &p.transitions {
        let mut note = |v: VarId| {
            let u = &mut uses[v.index()];
            *u = match *u {
                Use::Unused => Use::Owned(t.thread),
                Use::Owned(o) if o == t.thread => Use::Owned(o),
                _ => Use::Fixed,
            };
        };
        t.guard.for_each_var(&mut note);
        for a in &t.assigns {
            note(a.var);
            if let Rhs::Expr(e) = &a.rhs {
                e.for_each_var(&mut note);
            }
        }
        for st in &t.stores {
            st.index.for_each_var(&mut note);
            st.value.for_each_var(&mut note);
        }
    }
    uses
}

/// Adds the resets of dead owned variables to the transitions; returns the
/// assignments added or turned into resets (a trace should not show them as
/// the program's writes).
pub fn reset_dead_locals(p: &mut Program) -> Vec<(TransId, VarId)> {
    reset_dead_locals_weak(p, &[])
}

/// [`reset_dead_locals`], where the error condition's mentions of the
/// variables in `weak` do not keep them from being reset: the condition
/// asks whether they hold a value still to be used (a pointer in flight,
/// the lost-block check of the C lowering), and a dead one holds its
/// initial value. The reset is then part of what the condition means,
/// not a transformation that preserves it.
pub fn reset_dead_locals_weak(p: &mut Program, weak: &[VarId]) -> Vec<(TransId, VarId)> {
    if p.has_arrays() {
        // The uses below do not see the reads of stores.
        return Vec::new();
    }
    let mut uses = uses_with(p, weak);
    for (v, d) in p.vars.iter().enumerate() {
        if d.init.is_none() {
            uses[v] = Use::Fixed;
        }
    }
    let mut added = Vec::new();
    for th in 0..p.threads.len() {
        let thread = ThreadId::new(th);
        // Dense indices of the thread's owned variables.
        let owned: Vec<VarId> = (0..p.vars.len())
            .filter(|&v| uses[v] == Use::Owned(thread))
            .map(VarId::new)
            .collect();
        if owned.is_empty() {
            continue;
        }
        let mut index = vec![usize::MAX; p.vars.len()];
        for (i, v) in owned.iter().enumerate() {
            index[v.index()] = i;
        }
        let trans = p.threads[th].transitions.clone();
        // Reads and writes of each transition, over the owned variables.
        let gen_kill: Vec<(Bits, Bits)> = trans
            .iter()
            .map(|&id| {
                let t = p.transition(id);
                let (mut gen, mut kill) = (Bits::new(owned.len()), Bits::new(owned.len()));
                let mut read = |v: VarId| {
                    if index[v.index()] != usize::MAX {
                        gen.set(index[v.index()]);
                    }
                };
                t.guard.for_each_var(&mut read);
                for a in &t.assigns {
                    if let Rhs::Expr(e) = &a.rhs {
                        e.for_each_var(&mut read);
                    }
                }
                for a in &t.assigns {
                    if index[a.var.index()] != usize::MAX {
                        kill.set(index[a.var.index()]);
                    }
                }
                (gen, kill)
            })
            .collect();
        // Backward liveness to a fixpoint.
        let mut live = vec![Bits::new(owned.len()); p.threads[th].locs.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for (k, &id) in trans.iter().enumerate().rev() {
                let t = p.transition(id);
                let (gen, kill) = &gen_kill[k];
                let to = &live[t.to.index()];
                let new: Vec<u64> = (0..to.0.len())
                    .map(|w| gen.0[w] | (to.0[w] & !kill.0[w]))
                    .collect();
                let from = &mut live[t.from.index()];
                for (w, bits) in new.into_iter().enumerate() {
                    if from.0[w] | bits != from.0[w] {
                        from.0[w] |= bits;
                        changed = true;
                    }
                }
            }
        }
        for (k, &id) in trans.iter().enumerate() {
            let (from, to) = {
                let t = p.transition(id);
                (t.from.index(), t.to.index())
            };
            let kill = &gen_kill[k].1;
            for (i, &v) in owned.iter().enumerate() {
                let may_differ = kill.get(i) || live[from].get(i);
                if live[to].get(i) || !may_differ {
                    continue;
                }
                let init = Term::Const(p.vars[v.index()].init.unwrap_or(0));
                let t = &mut p.transitions[id.index()];
                match t.assigns.iter_mut().find(|a| a.var == v) {
                    Some(a) if a.rhs == Rhs::Expr(init.clone()) => continue,
                    Some(a) => a.rhs = Rhs::Expr(init),
                    None => t.assigns.push(Assign {
                        var: v,
                        rhs: Rhs::Expr(init),
                    }),
                }
                added.push((id, v));
            }
        }
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program;
    use crate::print::print_program;

    fn reset(src: &str) -> (String, usize) {
        let mut p = parse_program(src).expect("test program parses");
        let n = reset_dead_locals(&mut p).len();
        (print_program(&p), n)
    }

    #[test]
    fn temporaries_are_reset_after_their_last_read() {
        let (out, n) = reset(
            "var g = 0, t = 0, u = 5;
             thread p at a {
               a -> b do t := g + 1;
               b -> c do g := t, u := 7;
               c -> a when u > 6;
             }
             thread q at a { a -> a do g := g + 1; }
             error g == 3;",
        );
        // t dies after b -> c; u after c -> a; g is shared.
        assert!(out.contains("b -> c do g := t, u := 7, t := 0;"), "{out}");
        assert!(out.contains("c -> a when u > 6 do u := 5;"), "{out}");
        assert_eq!(n, 2);
    }

    #[test]
    fn shared_error_and_undeclared_variables_are_kept() {
        let (out, n) = reset(
            "var s = 0, e = 0, free;
             thread p at a { a -> b do s := 1, e := 1, free := 2; b -> c; }
             thread q at a { a -> b when s == 1; }
             error e == 1;",
        );
        assert_eq!(n, 0, "{out}");
    }

    #[test]
    fn a_dead_write_becomes_the_reset() {
        let (out, n) = reset(
            "var x = 0, y = 0;
             thread p at a { a -> b do x := *, y := 1; b -> a when y == 1 do y := 0; }
             error p@b && y == 2;",
        );
        // x is never read: its input is dropped.
        assert!(out.contains("a -> b do x := 0, y := 1;"), "{out}");
        assert_eq!(n, 1);
    }

    #[test]
    fn loops_keep_variables_live() {
        let (out, n) = reset(
            "var i = 0, g = 0;
             thread p at a {
               a -> a when i < 3 do i := i + 1;
               a -> b when i >= 3;
               b -> c do g := 1;
             }
             thread q at a { a -> a when g == 1; }
             error g == 2;",
        );
        assert!(out.contains("a -> b when i >= 3 do i := 0;"), "{out}");
        assert_eq!(n, 1);
    }
}
