//! Kani's rule for constructs the lowering does not model: such a
//! construct in a statement (or local declaration) makes the statement a
//! give-up where it starts, so the answer is `unknown` only when an
//! execution reaches it; the rest of the program is lowered as usual
//! (SOUNDNESS.md, "Give-up states").
//!
//! The statement's partial lowering is undone first: its edges (every
//! edge appended since it started: a statement only appends to its own
//! thread's CFG) and the stacks it pushed. A statement that holds a `goto`
//! label or a `case` of a `switch` outside it is not guarded: a location
//! inside it may be entered from elsewhere, and a give-up at the start
//! would not cover that entry; its error goes on to the enclosing
//! statement, or refuses the program.

use frontend::lang_c::ast::{Label, Statement};
use frontend::lang_c::span::{Node, Span};
use frontend::lang_c::visit::{self, Visit};

use super::Lowerer;
use crate::cfg::Loc;
use crate::error::{LowerError, Result};

/// What the lowering of a statement may change, to undo it.
struct Mark {
    edges: usize,
    cur: Option<Loc>,
    frames: usize,
    scopes: usize,
    jumps: usize,
    cases: usize,
    loops: usize,
    evaluated_when: usize,
    split: bool,
    cap_sites: usize,
    cleanups: Vec<(super::ObjId, super::ObjId)>,
}

/// Whether control may enter a statement past its start: it holds a
/// `goto` label, or a `case` or `default` label of a `switch` outside it.
pub(super) fn has_labels(s: &Node<Statement>) -> bool {
    struct Finder {
        found: bool,
        switches: usize,
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
            let switch = matches!(s, Statement::Switch(_));
            self.switches += usize::from(switch);
            visit::visit_statement(self, s, span);
            self.switches -= usize::from(switch);
        }
        fn visit_label(&mut self, label: &'ast Label, span: &'ast Span) {
            self.found |= matches!(label, Label::Identifier(_)) || self.switches == 0;
            visit::visit_label(self, label, span);
        }
    }
    let mut f = Finder {
        found: false,
        switches: 0,
    };
    f.visit_statement(&s.node, &s.span);
    f.found
}

impl Lowerer<'_> {
    fn mark(&self) -> Mark {
        Mark {
            edges: self.t.cfg.edges.len(),
            cur: self.t.cur,
            frames: self.t.frames.len(),
            scopes: self.t.frames.last().map_or(0, |f| f.scopes.len()),
            jumps: self.t.jumps.len(),
            cases: self.t.cases.len(),
            loops: self.t.loops,
            evaluated_when: self.t.evaluated_when.len(),
            split: self.t.split,
            cap_sites: self.cap_sites(),
            cleanups: self.t.cleanups.clone(),
        }
    }

    fn undo(&mut self, m: &Mark) {
        self.t.cfg.edges.truncate(m.edges);
        self.t.frames.truncate(m.frames);
        if let Some(f) = self.t.frames.last_mut() {
            f.scopes.truncate(m.scopes);
        }
        self.t.jumps.truncate(m.jumps);
        self.t.cases.truncate(m.cases);
        self.t.loops = m.loops;
        self.t.evaluated_when.truncate(m.evaluated_when);
        self.t.split = m.split;
        self.truncate_cap_sites(m.cap_sites);
        self.t.cleanups.clone_from(&m.cleanups);
        self.flush();
        self.t.cur = m.cur;
    }

    /// Runs `lower` (the lowering of the statement or declaration at
    /// `span`); when it meets a construct that is not modelled and
    /// `guardable`, undoes it and gives up where the statement starts.
    /// `Ok(Some(reason))` then, `Ok(None)` when it was lowered.
    pub(super) fn guarded(
        &mut self,
        span: Span,
        guardable: bool,
        lower: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<Option<String>> {
        let m = self.mark();
        match lower(self) {
            Ok(()) => Ok(None),
            Err(LowerError::Unsupported { span: at, message }) if guardable => {
                self.undo(&m);
                let at = if at.is_none() { span } else { at };
                let line = self.unit.locate(&at).map(|l| l.line);
                let reason = match line {
                    Some(line) => format!("{message} (line {line})"),
                    None => message,
                };
                if let Some(cur) = self.t.cur {
                    let to = self.give_up_of(crate::GiveUp {
                        kind: crate::GiveUpKind::Construct,
                        reason: reason.clone(),
                    });
                    self.plain_edge(cur, to, engine::ir::Cond::True, vec![], Some(at));
                    self.t.cur = None;
                }
                Ok(Some(reason))
            }
            Err(e) => Err(e),
        }
    }
}
