//! The refinement of CEGPV: a slice without the runs of spurious
//! counterexamples. An observer variable follows the steps taken along a
//! tree of the spurious step sequences; an error state reached exactly at
//! the end of one of them is no longer an error (the paper's observer and
//! controllers, as a product with the program).

use crate::ir::{Assign, CmpOp, Cond, Program, Rhs, Span, Term, TransId, VarDecl, VarId};
use std::collections::HashMap;

/// The tree of the excluded step sequences.
struct Prefixes {
    /// The children of each node, by transition (node 0: the root).
    children: Vec<HashMap<TransId, usize>>,
    /// Whether a node ends an excluded sequence.
    ends: Vec<bool>,
}

impl Prefixes {
    fn of(excluded: &[Vec<TransId>]) -> Prefixes {
        let mut tree = Prefixes {
            children: vec![HashMap::new()],
            ends: vec![false],
        };
        for steps in excluded {
            let mut node = 0;
            for &t in steps {
                let fresh = tree.children.len();
                node = *tree.children[node].entry(t).or_insert(fresh);
                if node == fresh {
                    tree.children.push(HashMap::new());
                    tree.ends.push(false);
                }
            }
            tree.ends[node] = true;
        }
        tree
    }
}

/// `s` without the runs that take exactly one of the `excluded` step
/// sequences into an error state, and for each of its transitions the
/// transition of `s` it copies. The first transitions are those of `s`, by
/// index (taken off the tree of sequences); the copies that follow it come
/// after. With nothing excluded, `s` itself.
pub fn exclude(s: &Program, excluded: &[Vec<TransId>]) -> (Program, Vec<TransId>) {
    let mut origin: Vec<TransId> = (0..s.transitions.len()).map(TransId::new).collect();
    if excluded.is_empty() {
        return (s.clone(), origin);
    }
    let tree = Prefixes::of(excluded);
    let mut p = s.clone();
    let observer = VarId::new(p.vars.len());
    p.vars.push(VarDecl {
        name: "$observer".into(),
        init: Some(0),
    });
    if !p.source_map.vars.is_empty() {
        p.source_map.vars.push(Span::default());
    }
    let is = |node: usize| Cond::Cmp(CmpOp::Eq, Term::Var(observer), Term::Const(node as i64));
    let set = |value: i64| Assign {
        var: observer,
        rhs: Rhs::Expr(Term::Const(value)),
    };
    for (i, original) in s.transitions.iter().enumerate() {
        let id = TransId::new(i);
        let edges: Vec<(usize, usize)> = tree
            .children
            .iter()
            .enumerate()
            .filter_map(|(node, c)| c.get(&id).map(|&child| (node, child)))
            .collect();
        let off = edges.iter().fold(original.guard.clone(), |g, &(node, _)| {
            Cond::And(Box::new(g), Box::new(Cond::Not(Box::new(is(node)))))
        });
        p.transitions[i].guard = off;
        p.transitions[i].assigns.push(set(-1));
        for (node, child) in edges {
            let mut copy = original.clone();
            copy.guard = Cond::And(Box::new(copy.guard), Box::new(is(node)));
            copy.assigns.push(set(child as i64));
            p.push_transition(copy, s.transition_span(id));
            origin.push(id);
        }
    }
    let not_ended = tree
        .ends
        .iter()
        .enumerate()
        .filter(|(_, &e)| e)
        .fold(Cond::True, |c, (node, _)| {
            Cond::And(Box::new(c), Box::new(Cond::Not(Box::new(is(node)))))
        });
    p.error = s
        .error
        .iter()
        .map(|e| Cond::And(Box::new(e.clone()), Box::new(not_ended.clone())))
        .collect();
    (p, origin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program as parse;

    #[test]
    fn an_excluded_sequence_no_longer_reaches_the_error() {
        let s = parse(
            "var x = 0;
             thread p at 1 { a: 1 -> 2 do x := x + 1; }
             thread q at 1 { b: 1 -> 2 do x := x + 2; }
             error x >= 1;",
        )
        .unwrap();
        let a = TransId::new(0);
        let b = TransId::new(1);
        let bounds = crate::explicit::Bounds {
            bound: 5,
            max_states: 1000,
            partial_order: false,
        };
        // With the one-step sequences excluded, an error is two steps
        // away; with the two-step ones excluded too, none is reachable.
        let (p, origin) = exclude(&s, &[vec![a], vec![b]]);
        let found = crate::explicit::check(&p, &bounds, None);
        match found.verdict {
            crate::verdict::Verdict::Unsafe(t) => {
                let steps: Vec<_> = t
                    .steps
                    .iter()
                    .map(|s| origin[s.transition.index()])
                    .collect();
                assert_eq!(steps.len(), 2, "{steps:?}");
            }
            v => panic!("{v:?}"),
        }
        let (p, _) = exclude(&s, &[vec![a], vec![b], vec![a, b], vec![b, a]]);
        let v = crate::explicit::check(&p, &bounds, None).verdict;
        // (every value is within the bound: the search is complete)
        assert!(!matches!(v, crate::verdict::Verdict::Unsafe(_)), "{v:?}");
    }
}
