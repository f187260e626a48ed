//! Saturated counters: a finite abstraction of the counters of a counter
//! system (SOUNDNESS.md, "Saturated counters").
//!
//! A counter of the counter abstraction (`lowering::counter`) counts the
//! instances of a template in one local state: it starts at 0, transitions
//! add or subtract constants, and conditions compare sums of counters with
//! constants. When every such comparison has a constant below `K`, two
//! values at or above `K` are indistinguishable: a sum with a summand
//! `>= K` exceeds every constant compared with. The value `K` can then
//! stand for "`K` or more": a guard or error condition evaluated with it is
//! exactly its value for every count it stands for, an increment of `K`
//! stays `K`, and a decrement by `d` of `K` may give `K - d`, …, `K`. With
//! the other variables kept exact, the explicit search over these states
//! visits the abstraction of every reachable state; when no error is among
//! them, the program is safe for every count.
//!
//! [`Saturation::new`] checks the conditions syntactically and refuses a
//! program that breaks one (a counter read in an assignment to another
//! variable, compared with a variable, assigned an input, …).

use crate::ir::{CmpOp, Cond, Program, Rhs, Term, TransId, VarId};

/// How a transition updates a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Update {
    /// `c := c + d` (`d` may be negative).
    Add(i128),
    /// `c := k`.
    Set(i128),
}

/// The counters of a program and their cap.
#[derive(Clone, Debug)]
pub struct Saturation {
    /// Per variable: whether it is a counter.
    is_counter: Vec<bool>,
    /// The cap `K`: a counter's value `K` stands for every count `>= K`.
    cap: i128,
    /// Per transition: the counters it updates and how.
    updates: Vec<Vec<(VarId, Update)>>,
}

/// `Σ a·c` over counters `c` with positive coefficients `a`.
fn counter_sum(t: &Term, is_counter: &[bool]) -> bool {
    match t {
        Term::Var(v) => is_counter[v.index()],
        Term::Add(a, b) => counter_sum(a, is_counter) && counter_sum(b, is_counter),
        Term::Mul(k, a) => *k > 0 && counter_sum(a, is_counter),
        _ => false,
    }
}

fn mentions(t: &Term, is_counter: &[bool]) -> bool {
    let mut hit = false;
    t.for_each_var(&mut |v| hit |= is_counter[v.index()]);
    hit
}

/// Checks that every comparison mentioning a counter compares a sum of
/// counters with a constant; raises `cap` to the least value from which on
/// each such comparison is decided: `s >= k` and `s < k` hold for all
/// `s >= k` or for none, the other operators from `k + 1` on.
fn check_cond(c: &Cond, is_counter: &[bool], cap: &mut i128) -> Result<(), String> {
    match c {
        Cond::True | Cond::False | Cond::At(..) => Ok(()),
        Cond::Not(a) => check_cond(a, is_counter, cap),
        Cond::And(a, b) | Cond::Or(a, b) => {
            check_cond(a, is_counter, cap)?;
            check_cond(b, is_counter, cap)
        }
        Cond::Cmp(op, a, b) => {
            if !mentions(a, is_counter) && !mentions(b, is_counter) {
                return Ok(());
            }
            // As `sum op k`.
            let (op, k) = match (a, b) {
                (s, Term::Const(k)) if counter_sum(s, is_counter) => (*op, *k),
                (Term::Const(k), s) if counter_sum(s, is_counter) => (op.flip(), *k),
                _ => {
                    return Err("a counter is compared with something other than a constant".into())
                }
            };
            let k = i128::from(k);
            let from = match op {
                CmpOp::Ge | CmpOp::Lt => k,
                CmpOp::Gt | CmpOp::Le | CmpOp::Eq | CmpOp::Ne => k + 1,
            };
            *cap = (*cap).max(from);
            Ok(())
        }
    }
}

/// The update of counter `c` by `rhs`, if it is one of the allowed forms.
fn update(c: VarId, rhs: &Rhs) -> Option<Update> {
    let Rhs::Expr(e) = rhs else { return None };
    match e {
        Term::Const(k) if *k >= 0 => Some(Update::Set(i128::from(*k))),
        Term::Var(v) if *v == c => Some(Update::Add(0)),
        Term::Add(a, b) => match (a.as_ref(), b.as_ref()) {
            (Term::Var(v), Term::Const(d)) | (Term::Const(d), Term::Var(v)) if *v == c => {
                Some(Update::Add(i128::from(*d)))
            }
            _ => None,
        },
        Term::Sub(a, b) => match (a.as_ref(), b.as_ref()) {
            (Term::Var(v), Term::Const(d)) if *v == c => Some(Update::Add(-i128::from(*d))),
            _ => None,
        },
        _ => None,
    }
}

/// Why counters cannot be saturated: which condition of the module
/// documentation a program breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotSaturable(pub String);

impl Saturation {
    /// The saturation of `counters` in `program` with a cap of at least
    /// `min_cap`, or why the conditions (module documentation) do not hold.
    /// (A larger cap than the comparisons need is more precise: with cap 1,
    /// "one thread in the critical section" and "several" are one value.)
    pub fn new(
        program: &Program,
        counters: &[VarId],
        min_cap: i128,
    ) -> Result<Saturation, NotSaturable> {
        Saturation::checked(program, counters, min_cap).map_err(NotSaturable)
    }

    fn checked(program: &Program, counters: &[VarId], min_cap: i128) -> Result<Saturation, String> {
        if counters.is_empty() {
            return Err("no counters".into());
        }
        let mut is_counter = vec![false; program.vars.len()];
        for &c in counters {
            let Some(slot) = is_counter.get_mut(c.index()) else {
                return Err("a counter is not a variable of the program".into());
            };
            *slot = true;
            if program.vars[c.index()].init.is_none_or(|v| v < 0) {
                return Err(format!(
                    "counter `{}` has no non-negative initial value",
                    program.vars[c.index()].name
                ));
            }
        }
        let mut cap = min_cap.max(1);
        for c in program.error.iter().chain(&program.init) {
            check_cond(c, &is_counter, &mut cap)?;
        }
        let mut updates = Vec::with_capacity(program.transitions.len());
        for t in &program.transitions {
            check_cond(&t.guard, &is_counter, &mut cap)?;
            let mut ups = Vec::new();
            for a in &t.assigns {
                if is_counter[a.var.index()] {
                    let u = update(a.var, &a.rhs).ok_or_else(|| {
                        format!(
                            "counter `{}` is assigned something other than itself plus a constant",
                            program.vars[a.var.index()].name
                        )
                    })?;
                    ups.push((a.var, u));
                } else if matches!(&a.rhs, Rhs::Expr(e) if mentions(e, &is_counter)) {
                    return Err(format!(
                        "`{}` is computed from a counter",
                        program.vars[a.var.index()].name
                    ));
                }
            }
            updates.push(ups);
        }
        Ok(Saturation {
            is_counter,
            cap,
            updates,
        })
    }

    /// The cap `K`: a counter at `K` stands for every count `>= K`.
    pub fn cap(&self) -> i128 {
        self.cap
    }

    /// Whether `v` is a counter.
    pub fn is_counter(&self, v: VarId) -> bool {
        self.is_counter.get(v.index()).copied().unwrap_or(false)
    }

    /// Caps the counters of initial values.
    pub fn clamp(&self, vals: &mut [i128]) {
        for (v, x) in vals.iter_mut().enumerate() {
            if self.is_counter[v] {
                *x = (*x).min(self.cap);
            }
        }
    }

    /// The abstract values of the counters transition `t` updates, from the
    /// values `before` (in the state the transition is taken from) — for
    /// each updated counter, every value it may take. The caller combines
    /// them with the exact values of the other variables.
    pub fn choices(&self, t: TransId, before: &[i128]) -> Vec<(VarId, Vec<i128>)> {
        let k = self.cap;
        self.updates[t.index()]
            .iter()
            .map(|&(c, u)| {
                let old = before[c.index()];
                let vals = match u {
                    Update::Set(x) => vec![x.min(k)],
                    Update::Add(d) if old < k => vec![(old + d).min(k)],
                    Update::Add(d) if d >= 0 => vec![k],
                    // `old` stands for every count >= k: minus d, every
                    // count >= k - d.
                    Update::Add(d) => ((k + d)..=k).collect(),
                };
                (c, vals)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    fn program(src: &str) -> Program {
        crate::parse::parse_program(src).expect("parses")
    }

    fn var(p: &Program, name: &str) -> VarId {
        VarId::new(p.vars.iter().position(|v| v.name == name).expect("var"))
    }

    const SYSTEM: &str = "
        var n_a = 0, n_b = 0, g = 0;
        thread spawner at s { s -> s do n_a := n_a + 1; }
        thread counters at r {
          r -> r when n_a >= 1 && g == 0 do n_a := n_a - 1, n_b := n_b + 1, g := 1;
          r -> r when n_b >= 1 do n_b := n_b - 1, n_a := n_a + 1, g := 0;
        }
        error n_b + 2 * n_a >= 3 && g == 1;
    ";

    #[test]
    fn cap_exceeds_every_constant_compared_with() {
        let p = program(SYSTEM);
        let s = Saturation::new(&p, &[var(&p, "n_a"), var(&p, "n_b")], 1).expect("saturates");
        // `n_b + 2 * n_a >= 3` is decided from 3 on.
        assert_eq!(s.cap(), 3);
        assert!(s.is_counter(var(&p, "n_a")));
        assert!(!s.is_counter(var(&p, "g")));
    }

    #[test]
    fn a_decrement_of_the_cap_may_stay_or_leave_it() {
        let p = program(SYSTEM);
        let (a, b) = (var(&p, "n_a"), var(&p, "n_b"));
        let s = Saturation::new(&p, &[a, b], 1).expect("saturates");
        let t = p.thread(crate::ir::ThreadId::new(1)).transitions[0];
        let mut before = vec![0; p.vars.len()];
        before[a.index()] = 3;
        before[b.index()] = 3;
        assert_eq!(s.choices(t, &before), vec![(a, vec![2, 3]), (b, vec![3])]);
        before[a.index()] = 2;
        before[b.index()] = 2;
        assert_eq!(s.choices(t, &before), vec![(a, vec![1]), (b, vec![3])]);
    }

    #[test]
    fn equality_needs_one_more_than_its_constant() {
        let p = program(
            "var n = 0; thread t at a { a -> a do n := n + 1; a -> a when 1 == n do n := n - 1; }
             error n < 1;",
        );
        assert_eq!(
            Saturation::new(&p, &[var(&p, "n")], 1)
                .expect("saturates")
                .cap(),
            2
        );
        let p = program("var n = 0; thread t at a { a -> a do n := n + 1; } error n < 1;");
        assert_eq!(
            Saturation::new(&p, &[var(&p, "n")], 1)
                .expect("saturates")
                .cap(),
            1
        );
    }

    /// A random counter system: a spawner adding to `n0`, a thread of
    /// moves between 2–4 counters guarded by counter tests and a global
    /// `g`, an error over counters and `g`.
    fn random_system(seed: u64) -> String {
        let mut r = crate::generate::Rng(seed);
        let k = 2 + r.below(3);
        let mut src = String::from("var g = 0");
        for i in 0..k {
            src += &format!(", n{i} = 0");
        }
        src += ";\nthread spawner at s { s -> s do n0 := n0 + 1; }\nthread counters at r {\n";
        let ops = [">=", "==", "<", ">", "<=", "!="];
        for _ in 0..2 + r.below(5) {
            let (from, to) = (r.below(k), r.below(k));
            let mut guard = format!("n{from} >= 1");
            if r.below(2) == 0 {
                guard += &format!(" && g == {}", r.below(3));
            }
            if r.below(3) == 0 {
                let op = ops[r.below(ops.len())];
                guard += &format!(" && n{} {op} {}", r.below(k), r.below(3));
            }
            let mut assigns = if from == to {
                Vec::new()
            } else {
                vec![
                    format!("n{from} := n{from} - 1"),
                    format!("n{to} := n{to} + 1"),
                ]
            };
            if r.below(2) == 0 {
                assigns.push(format!("g := {}", r.below(3)));
            }
            if assigns.is_empty() {
                assigns.push("g := g".into());
            }
            src += &format!("  r -> r when {guard} do {};\n", assigns.join(", "));
        }
        let op = ops[r.below(ops.len())];
        src += &format!(
            "}}\nerror n{} + n{} {op} {} && g == {};\n",
            r.below(k),
            r.below(k),
            1 + r.below(3),
            r.below(3)
        );
        src
    }

    /// Differential test against the concrete semantics: when the
    /// saturated search proves a random counter system safe, the bounded
    /// concrete search (counters up to 7) finds no error, and the
    /// certificate of the proof (counters at the cap written `n >= K`) is
    /// accepted by the independent checker.
    #[test]
    fn saturated_proofs_agree_with_the_concrete_search() {
        let (mut proved, mut unsafe_) = (0, 0);
        for seed in 0..150 {
            let src = random_system(seed);
            let p = program(&src);
            let counters: Vec<VarId> = (0..p.vars.len())
                .map(VarId::new)
                .filter(|v| p.vars[v.index()].name.starts_with('n'))
                .collect();
            let sat = Saturation::new(&p, &counters, 1).expect("saturates");
            let bounds = crate::explicit::Bounds {
                bound: 7,
                max_states: 200_000,
                partial_order: false,
            };
            let (out, reach) = crate::explicit::prove_saturated(&p, &sat, &bounds, None);
            let concrete = crate::explicit::check(&p, &bounds, None);
            if matches!(concrete.verdict, Verdict::Unsafe(_)) {
                unsafe_ += 1;
            }
            let Verdict::Safe(proof) = out.verdict else {
                continue;
            };
            assert!(
                !matches!(concrete.verdict, Verdict::Unsafe(_)),
                "seed {seed}: saturated search proves an unsafe system\n{src}"
            );
            let reach = reach.expect("states of a proof");
            let cert = crate::certify::certify(
                &p,
                "random",
                proof,
                crate::certify::Evidence::Explicit(&reach),
                None,
            );
            assert!(cert.certified(), "seed {seed}: {:?}\n{src}", cert.reason());
            proved += 1;
        }
        // The generator is not trivial: both answers occur.
        assert!(proved > 20, "only {proved} of 150 proved");
        assert!(unsafe_ > 20, "only {unsafe_} of 150 unsafe");
    }

    #[test]
    fn refuses_what_breaks_the_abstraction() {
        for (src, why) in [
            (
                "var n = 0, x = 0; thread t at a { a -> a do x := n; } error x == 1;",
                "computed from a counter",
            ),
            (
                "var n = 0, x = 0; thread t at a { a -> a when n >= x do n := n + 1; } error x == 1;",
                "compared with something other than a constant",
            ),
            (
                "var n = 0; thread t at a { a -> a do n := *; } error n == 1;",
                "assigned something other",
            ),
            (
                "var n = 0; thread t at a { a -> a when 0 - n >= 1 do n := n + 1; } error n == 1;",
                "compared with something other than a constant",
            ),
        ] {
            let p = program(src);
            let err = Saturation::new(&p, &[var(&p, "n")], 1).expect_err(src);
            assert!(err.0.contains(why), "{src}: {err}");
        }
    }
}
