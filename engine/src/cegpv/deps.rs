//! The dependency graph of CEGPV: which variables the first slice keeps,
//! and which sliced variables a spurious counterexample brings back.

use super::slice::Kept;
use crate::ir::{Cond, Program, Rhs, TransId, VarId};

/// The variables of `c`.
fn vars_of(c: &Cond) -> Vec<VarId> {
    let mut out = Vec::new();
    c.for_each_var(&mut |v| out.push(v));
    out
}

/// Variables a transition reads: its guard and its right-hand sides.
fn reads(p: &Program, t: TransId) -> Vec<VarId> {
    let tr = p.transition(t);
    let mut out = vars_of(&tr.guard);
    for a in &tr.assigns {
        if let Rhs::Expr(e) = &a.rhs {
            e.for_each_var(&mut |v| out.push(v));
        }
    }
    out
}

/// The first slice, as the paper chooses it: the variables the property
/// reads (the error conditions, the target, the guards of the transitions
/// into a location an error condition names) and those their assignments
/// read (one step along the dependency graph).
pub fn initial(p: &Program, target: Option<&Cond>) -> Kept {
    let mut kept = Kept::none(p.vars.len());
    let mut property = Vec::new();
    let mut error_locs = Vec::new();
    for c in p.error.iter().chain(target) {
        property.extend(vars_of(c));
        locations(c, &mut error_locs);
    }
    for tr in &p.transitions {
        if error_locs.contains(&(tr.thread, tr.to)) {
            property.extend(vars_of(&tr.guard));
        }
    }
    for &v in &property {
        kept.add(v);
    }
    for tr in &p.transitions {
        for a in &tr.assigns {
            if property.contains(&a.var) {
                if let Rhs::Expr(e) = &a.rhs {
                    e.for_each_var(&mut |v| {
                        kept.add(v);
                    });
                }
            }
        }
    }
    kept
}

fn locations(c: &Cond, out: &mut Vec<(crate::ir::ThreadId, crate::ir::LocId)>) {
    match c {
        Cond::At(t, l) => out.push((*t, *l)),
        Cond::Not(a) => locations(a, out),
        Cond::And(a, b) | Cond::Or(a, b) => {
            locations(a, out);
            locations(b, out);
        }
        _ => {}
    }
}

/// Widens `kept` after the counterexample `steps` of its slice proved
/// spurious: the sliced variables its transitions read that a kept
/// variable depends on (through an assignment to it or the guard of one),
/// directly or through other such variables;
/// when there are none, every sliced variable the steps read or an initial
/// constraint relates to a kept one; when there are none either, every
/// variable. Returns how many variables were added (at least one unless
/// every variable was kept already).
///
/// A counterexample whose steps read kept variables only is a run of the
/// program (the slice is exact on them), so a spurious one always brings a
/// variable back: the refinement ends after at most as many widenings as
/// there are variables.
pub fn widen(p: &Program, kept: &mut Kept, steps: &[TransId]) -> usize {
    let all_reads = all_reads(p);
    let mut read: Vec<VarId> = steps
        .iter()
        .flat_map(|t| all_reads[t.index()].iter().copied())
        .collect();
    read.retain(|&v| !kept.has(v));
    read.sort();
    read.dedup();
    // Along chains of assignments (the temporaries of lowered C): the
    // read variables that a kept one depends on, then those that one of
    // these depends on, and so on.
    let mut wider = kept.clone();
    let mut chosen = Vec::new();
    loop {
        let next: Vec<VarId> = read
            .iter()
            .copied()
            .filter(|&v| !wider.has(v) && influences_kept(p, &all_reads, &wider, v))
            .collect();
        if next.is_empty() {
            break;
        }
        for &v in &next {
            wider.add(v);
        }
        chosen.extend(next);
    }
    if chosen.is_empty() {
        chosen = read;
        for c in &p.init {
            let vs = vars_of(c);
            if vs.iter().any(|&v| kept.has(v)) {
                chosen.extend(vs.into_iter().filter(|&v| !kept.has(v)));
            }
        }
    }
    if chosen.is_empty() {
        chosen = kept.sliced().collect();
    }
    chosen.into_iter().filter(|&v| kept.add(v)).count()
}

/// Widens `kept` without a counterexample (the back-end gave no answer on
/// the slice): every sliced variable a kept one depends on directly, or
/// every variable when there is none. Returns how many were added.
pub fn widen_blind(p: &Program, kept: &mut Kept) -> usize {
    let all_reads = all_reads(p);
    let mut chosen: Vec<VarId> = kept
        .sliced()
        .filter(|&v| influences_kept(p, &all_reads, kept, v))
        .collect();
    if chosen.is_empty() {
        chosen = kept.sliced().collect();
    }
    chosen.into_iter().filter(|&v| kept.add(v)).count()
}

/// What each transition reads ([`reads`]), by index.
fn all_reads(p: &Program) -> Vec<Vec<VarId>> {
    (0..p.transitions.len())
        .map(|i| reads(p, TransId::new(i)))
        .collect()
}

/// Whether a kept variable depends on `v`: some transition assigns a kept
/// variable and reads `v` in its guard or right-hand sides (`all_reads`).
fn influences_kept(p: &Program, all_reads: &[Vec<VarId>], kept: &Kept, v: VarId) -> bool {
    p.transitions
        .iter()
        .zip(all_reads)
        .any(|(tr, read)| tr.assigns.iter().any(|a| kept.has(a.var)) && read.contains(&v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program as parse;

    #[test]
    fn the_first_slice_keeps_the_property_and_one_step_of_its_dependencies() {
        // The paper's example (Fig. 2): the assertion reads t1 and t2, they
        // are assigned from x; x depends on y and z, which are sliced.
        let p = parse(
            "var x = 0, y = 0, z = 0, t1 = 0, t2 = 0;
             thread p at 1 {
               1 -> 2 when y == 0 do x := z;
               2 -> 3 do y := z + 1;
               3 -> 4 do t1 := x;
               4 -> 5 when t1 + t2 == 1;
             }
             thread q at 1 {
               1 -> 2 do x := y;
               2 -> 3 do z := 1;
               3 -> 4 do t2 := x;
             }
             error p@5;",
        )
        .unwrap();
        let kept = initial(&p, None);
        let names: Vec<_> = (0..p.vars.len())
            .filter(|&i| kept.has(VarId::new(i)))
            .map(|i| p.vars[i].name.as_str())
            .collect();
        assert_eq!(names, ["x", "t1", "t2"]);
    }

    #[test]
    fn widening_brings_back_a_variable_of_the_spurious_steps() {
        let p = parse(
            "var x = 0, y = 0, z = 0;
             thread p at 1 { a: 1 -> 2 when y == 0 do x := 1; b: 2 -> 3; }
             thread q at 1 { c: 1 -> 2 when z == 1 do y := 1; }
             error p@3 && x == 1;",
        )
        .unwrap();
        let mut kept = initial(&p, None);
        assert_eq!(kept.count(), 1);
        let a = p.transitions.iter().position(|t| t.label == "a").unwrap();
        assert_eq!(widen(&p, &mut kept, &[TransId::new(a)]), 1);
        assert!(kept.has(p.var_by_name("y").unwrap()));
        assert!(!kept.has(p.var_by_name("z").unwrap()));
    }
}
