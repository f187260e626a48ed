//! Specifications of the order in which a program may call functions: a
//! labelled transition system over function names (`--spec FILE`, after
//! MAGIC's specification LTSs; SOUNDNESS.md, "Specifications").
//!
//! The text format, one item per line, `#` to the end of a line a comment:
//!
//! ```text
//! actions: lock unlock      # the alphabet: function names
//! initial: free
//! free -lock-> held         # a transition: state -action-> state
//! held -unlock-> free
//! ```
//!
//! A program conforms when every sequence of calls of the alphabet's
//! functions it can make (in the order they happen, across threads) is a
//! trace of the system; calls of other functions are not constrained. A
//! state and action with several successors are allowed: the system is
//! made deterministic by the subset construction, so that a program can
//! follow it with one variable (the lowering's monitor,
//! [`Spec::step`]).

use std::collections::{BTreeSet, HashMap};

/// A parsed specification, made deterministic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The alphabet, in the order of the `actions:` line.
    actions: Vec<String>,
    /// The deterministic states: the names of the states of the text they
    /// stand for (one name unless the text is nondeterministic).
    states: Vec<Vec<String>>,
    /// `next[s][a]`: the successor of state `s` on action `a`, if any.
    next: Vec<Vec<Option<usize>>>,
}

/// A malformed specification: the line (from 1) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("specification, line {line}: {message}")]
pub struct SpecError {
    /// The line, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn error(line: usize, message: impl Into<String>) -> SpecError {
    SpecError {
        line,
        message: message.into(),
    }
}

/// The text's items before the subset construction.
#[derive(Default)]
struct Text {
    actions: Vec<String>,
    initial: Option<String>,
    /// `(from, action, to)`, names as written.
    edges: Vec<(String, String, String)>,
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

impl Text {
    fn parse(text: &str) -> Result<Text, SpecError> {
        let mut out = Text::default();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix("actions:") {
                for a in rest.split_whitespace() {
                    if !is_name(a) {
                        return Err(error(n, format!("`{a}` is not a function name")));
                    }
                    if !out.actions.iter().any(|b| b == a) {
                        out.actions.push(a.to_string());
                    }
                }
            } else if let Some(rest) = line.strip_prefix("initial:") {
                let s = rest.trim();
                if !is_name(s) || out.initial.is_some() {
                    return Err(error(
                        n,
                        "expected one `initial: STATE` line with a state name",
                    ));
                }
                out.initial = Some(s.to_string());
            } else {
                out.edges.push(Self::edge(n, line)?);
            }
        }
        Ok(out)
    }

    /// `from -action-> to`.
    fn edge(n: usize, line: &str) -> Result<(String, String, String), SpecError> {
        let bad = || {
            error(
                n,
                format!("expected `STATE -ACTION-> STATE`, found `{line}`"),
            )
        };
        let (from, rest) = line.split_once(" -").ok_or_else(bad)?;
        let (action, to) = rest.split_once("->").ok_or_else(bad)?;
        let (from, action, to) = (from.trim(), action.trim(), to.trim());
        let action = action.strip_suffix('-').unwrap_or(action).trim();
        if [from, action, to].iter().all(|s| is_name(s)) {
            Ok((from.to_string(), action.to_string(), to.to_string()))
        } else {
            Err(bad())
        }
    }
}

impl Spec {
    /// Parses and determinises a specification.
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let text = Text::parse(text)?;
        if text.actions.is_empty() {
            return Err(error(
                0,
                "no `actions:` line (the functions the specification orders)",
            ));
        }
        let initial = text
            .initial
            .clone()
            .ok_or_else(|| error(0, "no `initial: STATE` line"))?;
        for (from, action, _) in &text.edges {
            if !text.actions.contains(action) {
                return Err(error(
                    0,
                    format!("the transition `{from} -{action}->` uses an action not in `actions:`"),
                ));
            }
        }
        Ok(Self::determinise(&text, initial))
    }

    /// The subset construction from the initial state.
    fn determinise(text: &Text, initial: String) -> Spec {
        let mut index: HashMap<BTreeSet<String>, usize> = HashMap::new();
        let mut sets: Vec<BTreeSet<String>> = vec![BTreeSet::from([initial])];
        index.insert(sets[0].clone(), 0);
        let mut next: Vec<Vec<Option<usize>>> = Vec::new();
        let mut i = 0;
        while i < sets.len() {
            let mut row = Vec::with_capacity(text.actions.len());
            for a in &text.actions {
                let succ: BTreeSet<String> = text
                    .edges
                    .iter()
                    .filter(|(f, b, _)| b == a && sets[i].contains(f))
                    .map(|(_, _, t)| t.clone())
                    .collect();
                if succ.is_empty() {
                    row.push(None);
                    continue;
                }
                let id = *index.entry(succ.clone()).or_insert_with(|| {
                    sets.push(succ);
                    sets.len() - 1
                });
                row.push(Some(id));
            }
            next.push(row);
            i += 1;
        }
        Spec {
            actions: text.actions.clone(),
            states: sets.into_iter().map(|s| s.into_iter().collect()).collect(),
            next,
        }
    }

    /// The index of the action `name`, if it is in the alphabet.
    pub fn action(&self, name: &str) -> Option<usize> {
        self.actions.iter().position(|a| a == name)
    }

    /// The alphabet.
    pub fn actions(&self) -> &[String] {
        &self.actions
    }

    /// The number of (deterministic) states; the initial one is 0.
    pub fn state_count(&self) -> usize {
        self.states.len()
    }

    /// The successor of state `s` on action `a`; `None`: `a` is not
    /// allowed in `s`.
    pub fn step(&self, s: usize, a: usize) -> Option<usize> {
        self.next[s][a]
    }

    /// The state's name for users (`held`, or `{a, b}` for a state of the
    /// subset construction).
    pub fn state_name(&self, s: usize) -> String {
        match self.states[s].as_slice() {
            [one] => one.clone(),
            many => format!("{{{}}}", many.join(", ")),
        }
    }

    /// The actions allowed in state `s`.
    pub fn allowed(&self, s: usize) -> Vec<&str> {
        self.actions
            .iter()
            .enumerate()
            .filter(|&(a, _)| self.next[s][a].is_some())
            .map(|(_, name)| name.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_steps() {
        let s = Spec::parse(
            "# a lock\nactions: lock unlock\ninitial: free\nfree -lock-> held\nheld -unlock-> free\n",
        )
        .unwrap();
        let (lock, unlock) = (s.action("lock").unwrap(), s.action("unlock").unwrap());
        assert_eq!(s.state_count(), 2);
        let held = s.step(0, lock).unwrap();
        assert_eq!(s.state_name(held), "held");
        assert_eq!(s.step(held, lock), None);
        assert_eq!(s.step(held, unlock), Some(0));
        assert_eq!(s.allowed(held), vec!["unlock"]);
        assert_eq!(s.action("other"), None);
    }

    #[test]
    fn determinises_choices() {
        // After `a`, either `b` or `c` may follow, then nothing.
        let s = Spec::parse("actions: a b c\ninitial: s\ns -a-> x\ns -a-> y\nx -b-> z\ny -c-> z\n")
            .unwrap();
        let (a, b, c) = (
            s.action("a").unwrap(),
            s.action("b").unwrap(),
            s.action("c").unwrap(),
        );
        let xy = s.step(0, a).unwrap();
        assert_eq!(s.state_name(xy), "{x, y}");
        let z1 = s.step(xy, b).unwrap();
        assert_eq!(s.step(xy, c), Some(z1));
        assert!(s.allowed(z1).is_empty());
    }

    #[test]
    fn reports_bad_lines() {
        let e = Spec::parse("actions: a\ninitial: s\ns a t\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = Spec::parse("actions: a\ninitial: s\ns -b-> t\n").unwrap_err();
        assert!(e.message.contains("not in `actions:`"), "{e}");
        assert!(Spec::parse("initial: s\n").is_err());
        assert!(Spec::parse("actions: 1x\ninitial: s\n").is_err());
    }
}
