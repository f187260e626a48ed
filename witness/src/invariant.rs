//! Invariants from the abstract states of a safety proof, in C syntax.
//!
//! The union of the proof's abstract states contains every reachable state,
//! so at a location `L` of a thread, every predicate literal that holds in
//! all abstract states with the thread at `L` is an invariant of `L` (the
//! conjunction of those literals is the strongest conjunctive invariant
//! the proof gives). Literals are printed over the C variables; literals
//! over variables with no C name (temporaries, thread flags, mutexes) or
//! over `%` are left out, which only weakens the invariant.

use crate::source::{function_at, functions, Locator, SrcLoc};
use engine::ir::{LocId, ThreadId};
use engine::linear::{Atom, Rel};
use engine::verdict::ProofStates;
use frontend::ParsedUnit;
use lowering::{Lowered, VarOrigin};
use std::path::Path;

/// The invariant of one IR location.
#[derive(Clone, Debug)]
pub struct LocationInvariant {
    /// The thread.
    pub thread: ThreadId,
    /// The IR location.
    pub loc: LocId,
    /// The C statement the location is before, in the program file.
    pub at: Option<SrcLoc>,
    /// The C function of that statement.
    pub function: Option<String>,
    /// Conjuncts over global variables only (valid C anywhere).
    pub global_conjuncts: Vec<String>,
    /// Conjuncts that also mention the thread's local variables.
    pub local_conjuncts: Vec<String>,
}

/// All invariants of a proof.
#[derive(Clone, Debug, Default)]
pub struct Invariants {
    /// Conjuncts over globals that hold in every reachable state.
    pub global: Vec<String>,
    /// Per reachable IR location.
    pub locations: Vec<LocationInvariant>,
    /// The program has atomic sections: the steps inside one are merged,
    /// so `global` holds at every C point outside them only.
    pub atomic_sections: bool,
}

/// How an IR variable may be written in C at a location of `thread` in
/// `function`: `Some(name)` for a global or a unique local of that thread
/// and function.
fn c_var(
    lowered: &Lowered,
    v: usize,
    thread: usize,
    function: Option<&str>,
    globals_only: bool,
) -> Option<String> {
    let meta = lowered
        .vars
        .get(v)
        .filter(|m| !m.heap && !m.float && !m.tag && m.members.is_empty())?;
    let name = meta.c_name.as_ref()?;
    match &meta.origin {
        VarOrigin::Object {
            thread: None,
            function: None,
            mutex: false,
        } => Some(name.clone()),
        VarOrigin::Object {
            thread: Some(t),
            function: Some(f),
            mutex: false,
        } if !globals_only && *t == thread && Some(f.as_str()) == function => {
            let unique = lowered
                .vars
                .iter()
                .filter(|m| m.c_name.as_ref() == Some(name))
                .filter(|m| {
                    matches!(&m.origin, VarOrigin::Object { thread: Some(t2), function: Some(f2), .. }
                        if *t2 == thread && f2 == f)
                })
                .count()
                == 1;
            unique.then(|| name.clone())
        }
        _ => None,
    }
}

/// A predicate literal in C, when every variable has a C name.
/// `Σ k·x` in C syntax (`x - 2 * y`), from (name, coefficient) pairs.
pub(crate) fn linear_sum(terms: &[(String, i128)]) -> String {
    let mut s = String::new();
    for (i, (n, k)) in terms.iter().enumerate() {
        match (i, *k) {
            (0, 1) => s.push_str(n),
            (0, -1) => s.push_str(&format!("-{n}")),
            (0, k) => s.push_str(&format!("{k} * {n}")),
            (_, 1) => s.push_str(&format!(" + {n}")),
            (_, -1) => s.push_str(&format!(" - {n}")),
            (_, k) if k < 0 => s.push_str(&format!(" - {} * {n}", -k)),
            (_, k) => s.push_str(&format!(" + {k} * {n}")),
        }
    }
    s
}

fn literal(a: &Atom, value: bool, name: &dyn Fn(usize) -> Option<String>) -> Option<String> {
    if matches!(a.rel, Rel::Mod(_)) {
        return None;
    }
    let terms: Option<Vec<(String, i128)>> = a
        .lhs
        .terms
        .iter()
        .map(|&(s, c)| Some((name(s as usize)?, c)))
        .collect();
    let lhs = linear_sum(&terms?);
    if lhs.is_empty() {
        return None;
    }
    let op = match (a.rel, value) {
        (Rel::Le, true) => "<=",
        (Rel::Le, false) => ">",
        (Rel::Eq, true) => "==",
        (Rel::Eq, false) => "!=",
        (Rel::Mod(_), _) => return None,
    };
    Some(format!("{lhs} {op} {}", a.rhs))
}

/// The literals common to a set of abstract states.
fn common(proof: &ProofStates, states: &[&(Vec<LocId>, Vec<bool>)]) -> Vec<(usize, bool)> {
    let Some(first) = states.first() else {
        return Vec::new();
    };
    (0..proof.predicates.len())
        .filter(|&i| states.iter().all(|s| s.1[i] == first.1[i]))
        .map(|i| (i, first.1[i]))
        .collect()
}

/// The invariants a proof gives.
pub fn invariants(
    unit: &ParsedUnit,
    file: &Path,
    lowered: &Lowered,
    proof: &ProofStates,
) -> Invariants {
    let p = &lowered.program;
    let loc = Locator::new(unit, file);
    let funcs = functions(unit);
    let all: Vec<&(Vec<LocId>, Vec<bool>)> = proof.states.iter().collect();
    let global = common(proof, &all)
        .into_iter()
        .filter_map(|(i, v)| {
            literal(&proof.predicates[i], v, &|s| {
                c_var(lowered, s, 0, None, true)
            })
        })
        .collect();
    let mut locations = Vec::new();
    for (t, th) in p.threads.iter().enumerate() {
        for l in 0..th.locs.len() {
            let here: Vec<&(Vec<LocId>, Vec<bool>)> = proof
                .states
                .iter()
                .filter(|s| s.0[t] == LocId::new(l))
                .collect();
            if here.is_empty() {
                continue;
            }
            let span = lowered.loc_span(t, l);
            let at = span.and_then(|s| loc.locate(s));
            let function = span.and_then(|s| function_at(&funcs, s.start).map(str::to_string));
            let lits = common(proof, &here);
            let mut global_conjuncts = Vec::new();
            let mut local_conjuncts = Vec::new();
            for (i, v) in lits {
                let a = &proof.predicates[i];
                if let Some(c) = literal(a, v, &|s| c_var(lowered, s, t, None, true)) {
                    global_conjuncts.push(c);
                } else if l == th.initial.index() {
                    // Locals are not initialised yet at a thread's start.
                } else if let Some(c) =
                    literal(a, v, &|s| c_var(lowered, s, t, function.as_deref(), false))
                {
                    local_conjuncts.push(c);
                }
            }
            locations.push(LocationInvariant {
                thread: ThreadId::new(t),
                loc: LocId::new(l),
                at,
                function,
                global_conjuncts,
                local_conjuncts,
            });
        }
    }
    Invariants {
        global,
        locations,
        atomic_sections: p.var_by_name("__atomic").is_some(),
    }
}

/// The conjunction of C conditions (`1` when empty).
pub fn conjunction(conjuncts: &[String]) -> String {
    if conjuncts.is_empty() {
        return "1".into();
    }
    conjuncts
        .iter()
        .map(|c| format!("({c})"))
        .collect::<Vec<_>>()
        .join(" && ")
}

impl Invariants {
    /// Per C position (line, column) in the program file: the function and
    /// the conjuncts over globals common to every IR location there.
    pub fn by_position(&self) -> Vec<(SrcLoc, Option<String>, Vec<String>)> {
        let mut out: Vec<(SrcLoc, Option<String>, Vec<String>)> = Vec::new();
        for li in &self.locations {
            let Some(at) = &li.at else { continue };
            match out
                .iter_mut()
                .find(|(a, _, _)| a.line == at.line && a.column == at.column)
            {
                Some((_, _, cs)) => cs.retain(|c| li.global_conjuncts.contains(c)),
                None => out.push((at.clone(), li.function.clone(), li.global_conjuncts.clone())),
            }
        }
        out.retain(|(_, _, cs)| !cs.is_empty());
        out.sort_by_key(|(a, _, _)| (a.line, a.column));
        out
    }
}

/// The invariants a correctness witness carries.
#[derive(Clone, Debug, Default)]
pub struct WitnessInvariants {
    /// An invariant over globals of every reachable state (the GraphML
    /// entry node's), when there is one.
    pub global: Option<String>,
    /// Per C position (sorted): the function and the invariant in C.
    pub positions: Vec<(SrcLoc, Option<String>, String)>,
    /// Where they come from (for people).
    pub source: String,
}

impl Invariants {
    /// The witness invariants of a proof's abstract states: per position
    /// the conjuncts over globals common to its IR locations; the global
    /// invariant unless the program has atomic sections.
    pub fn witness(&self) -> WitnessInvariants {
        WitnessInvariants {
            global: (!self.global.is_empty() && !self.atomic_sections)
                .then(|| conjunction(&self.global)),
            positions: self
                .by_position()
                .into_iter()
                .map(|(at, f, cs)| (at, f, conjunction(&cs)))
                .collect(),
            source: "the proof's abstract states".into(),
        }
    }
}
