//! Which program a certificate of a C program is about, and how to make it
//! again: the lowered program, or a counter system of [`crate::counting`]
//! with the parameters it was built with. Written into the certificate
//! (its `subject` line, as JSON), read by `ase certify`, which then builds
//! the same program without searching for it.

use engine::ir::{Cond, Program, VarId};
use lowering::counter::{CounterSystem, View};
use lowering::Lowered;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A counter system of a lowered C program, by its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Subject {
    /// [`lowering::counter::counter_system`], or its coarse version (the
    /// creators' locals forgotten).
    Counter {
        /// The coarse version.
        coarse: bool,
    },
    /// [`lowering::counter::counter_system_speculating`] of the saturated
    /// search.
    Saturated {
        /// Whether the shared variables set from their own values were
        /// forgotten first ([`lowering::counter::forget`]).
        forgotten: bool,
        /// The speculated values, per variable name.
        speculated: BTreeMap<String, Vec<i64>>,
    },
    /// [`lowering::counter::view_program`] with these assumptions: per loop
    /// site, per local state (its index), a condition in `.gc` syntax.
    View {
        /// The assumptions.
        assumptions: Vec<Vec<(usize, String)>>,
    },
}

/// Why a subject cannot be made again.
#[derive(Debug, thiserror::Error)]
pub enum SubjectError {
    /// The text is not a subject.
    #[error("the certificate's subject is not readable: {0}")]
    Decode(#[from] serde_json::Error),
    /// A speculated variable the program does not have.
    #[error("the certificate's subject names an unknown variable `{0}`")]
    UnknownVariable(String),
    /// An assumption that does not parse over the view program.
    #[error("an assumption of the certificate's subject does not parse: {0}")]
    Assumption(String),
    /// The counter abstraction does not apply to the program.
    #[error("no counter system: {0}")]
    Counter(#[from] lowering::counter::NotApplicable),
}

impl Subject {
    /// The subject of the saturated search's system.
    pub fn saturated(
        program: &Program,
        forgotten: bool,
        speculate: &BTreeMap<VarId, BTreeSet<i64>>,
    ) -> Subject {
        let speculated = speculate
            .iter()
            .map(|(v, values)| {
                (
                    program.var(*v).name.clone(),
                    values.iter().copied().collect(),
                )
            })
            .collect();
        Subject::Saturated {
            forgotten,
            speculated,
        }
    }

    /// The subject of a view program built with `view` (`system`: that
    /// program, whose names the assumptions are printed with).
    pub fn view(system: &CounterSystem, view: &View) -> Subject {
        let assumptions = view
            .assumptions
            .iter()
            .map(|site| {
                site.iter()
                    .map(|(&state, c)| (state, system.program.named(c).to_string()))
                    .collect()
            })
            .collect();
        Subject::View { assumptions }
    }

    /// The subject as the certificate's `subject` text.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).expect("a subject is plain data")
    }

    /// A subject from the certificate's `subject` text.
    pub fn decode(text: &str) -> Result<Subject, SubjectError> {
        Ok(serde_json::from_str(text)?)
    }

    /// Makes the program again from the lowered C program.
    pub fn build(&self, lowered: &Lowered) -> Result<Program, SubjectError> {
        use lowering::counter;
        match self {
            Subject::Counter { coarse } => {
                let system = counter::counter_system(lowered)?;
                match (coarse, system.coarse) {
                    (true, Some(c)) => Ok(c),
                    (true, None) => Err(SubjectError::Counter(counter::NotApplicable(
                        "the counter system has no coarse version".into(),
                    ))),
                    (false, _) => Ok(system.program),
                }
            }
            Subject::Saturated {
                forgotten,
                speculated,
            } => {
                let base = if *forgotten {
                    let growing = counter::self_updated_shared(lowered);
                    Lowered {
                        program: counter::forget(&lowered.program, &growing),
                        ..lowered.clone()
                    }
                } else {
                    lowered.clone()
                };
                let ids: HashMap<&str, VarId> = base
                    .program
                    .vars
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (v.name.as_str(), VarId::new(i)))
                    .collect();
                let mut speculate = BTreeMap::new();
                for (name, values) in speculated {
                    let v = ids
                        .get(name.as_str())
                        .ok_or_else(|| SubjectError::UnknownVariable(name.clone()))?;
                    speculate.insert(*v, values.iter().copied().collect());
                }
                let system = counter::counter_system_speculating(&base, &speculate)?;
                Ok(system.program)
            }
            Subject::View { assumptions } => {
                let plain = counter::view_program(lowered, &View::default())?;
                let mut view = View::default();
                for site in assumptions {
                    let mut parsed = BTreeMap::new();
                    for (state, text) in site {
                        parsed.insert(*state, parse_cond(&plain.program, text)?);
                    }
                    view.assumptions.push(parsed);
                }
                let system = counter::view_program(lowered, &view)?;
                Ok(system.program)
            }
        }
    }
}

/// A condition printed by [`Program::named`], read back over `program`'s
/// names: its disjuncts and conjuncts folded from the left, as the printer
/// leaves them unparenthesised.
fn parse_cond(program: &Program, text: &str) -> Result<Cond, SubjectError> {
    let dnf = engine::parse::CondParser::new(program)
        .dnf(text)
        .map_err(|e| SubjectError::Assumption(format!("`{text}`: {e:?}")))?;
    let conjunction = |c: Vec<Cond>| {
        c.into_iter()
            .reduce(|a, b| Cond::And(Box::new(a), Box::new(b)))
            .unwrap_or(Cond::True)
    };
    Ok(dnf
        .into_iter()
        .map(conjunction)
        .reduce(|a, b| Cond::Or(Box::new(a), Box::new(b)))
        .unwrap_or(Cond::False))
}
