//! SV-COMP property files (`.prp`).
//!
//! `ase` checks two properties:
//!
//! - `unreach-call`: no execution calls the error function. Its property
//!   file reads `CHECK( init(main()), LTL(G ! call(reach_error())) )` (older
//!   tasks name `__VERIFIER_error`).
//! - `no-data-race`: no reachable state has two threads about to access the
//!   same memory location, at least one of them writing and at least one of
//!   them not atomically. Its property file reads
//!   `CHECK( init(main()), LTL(G ! data-race) )`.
//!
//! - `valid-memsafety`: no invalid dereference (`valid-deref`), no invalid
//!   free (`valid-free`), no allocated block lost (`valid-memtrack`); its
//!   file lists the three `CHECK( init(main()), LTL(G valid-...) )`.
//! - `valid-memcleanup`: no memory allocated when the program ends.
//! - `no-overflow`: no signed integer overflow,
//!   `CHECK( init(main()), LTL(G ! overflow) )`.
//!
//! - `no-deadlock` (`ase`'s own): no reachable deadlock,
//!   `CHECK( init(main()), LTL(G ! deadlock) )`.
//! - `thread-safety` (`ase`'s own): Clang's thread-safety annotations hold,
//!   `CHECK( init(main()), LTL(G ! thread-safety) )`.
//!
//! All are read whitespace-insensitively. Every other property is reported
//! as unsupported, so the caller answers `unknown` with the reason.

use std::path::Path;

/// The error functions whose unreachability `ase` checks; the lowering treats
/// a call to either as the error.
pub const ERROR_FUNCTIONS: [&str; 2] = ["reach_error", "__VERIFIER_error"];

/// SV-COMP's names of the properties `ase` checks ([`Property::name`]).
pub const NAMES: [&str; 7] = [
    "unreach-call",
    "no-data-race",
    "valid-memsafety",
    "valid-memcleanup",
    "no-overflow",
    "no-deadlock",
    "thread-safety",
];

/// A property `ase` can check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Property {
    /// `G ! call(FUNCTION())` from `main`: the error function is never called.
    UnreachCall {
        /// The error function (one of [`ERROR_FUNCTIONS`]).
        function: String,
    },
    /// `G ! data-race` from `main`: no data race.
    NoDataRace,
    /// `G valid-free`, `G valid-deref` and `G valid-memtrack` from `main`.
    ValidMemsafety,
    /// `G valid-memcleanup` from `main`.
    ValidMemcleanup,
    /// `G ! overflow` from `main`: no signed integer overflow.
    NoOverflow,
    /// No reachable deadlock (not an SV-COMP property: `ase`'s own, named
    /// `no-deadlock`, with the formula `CHECK( init(main()), LTL(G !
    /// deadlock) )`).
    NoDeadlock,
    /// Every access to a variable a capability guards, and every call of a
    /// function that requires, excludes, acquires or releases one, keeps
    /// Clang's thread-safety annotations (`ase`'s own, named
    /// `thread-safety`, with the formula `CHECK( init(main()), LTL(G !
    /// thread-safety) )`).
    ThreadSafety,
}

impl Property {
    /// SV-COMP's name of the property (`unreach-call`, `no-data-race`).
    pub fn name(&self) -> &'static str {
        match self {
            Property::UnreachCall { .. } => "unreach-call",
            Property::NoDataRace => "no-data-race",
            Property::ValidMemsafety => "valid-memsafety",
            Property::ValidMemcleanup => "valid-memcleanup",
            Property::NoOverflow => "no-overflow",
            Property::NoDeadlock => "no-deadlock",
            Property::ThreadSafety => "thread-safety",
        }
    }

    /// The property of SV-COMP's name `name` (`unreach-call` is that of
    /// `reach_error`).
    pub fn named(name: &str) -> Option<Property> {
        Some(match name {
            "unreach-call" => Property::UnreachCall {
                function: ERROR_FUNCTIONS[0].into(),
            },
            "no-data-race" => Property::NoDataRace,
            "valid-memsafety" => Property::ValidMemsafety,
            "valid-memcleanup" => Property::ValidMemcleanup,
            "no-overflow" => Property::NoOverflow,
            "no-deadlock" => Property::NoDeadlock,
            "thread-safety" => Property::ThreadSafety,
            _ => return None,
        })
    }
}

/// Why a property file cannot be checked.
#[derive(Debug, thiserror::Error)]
pub enum PropertyError {
    /// The file cannot be read.
    #[error("cannot read property file `{path}`: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A property `ase` does not check (memory safety, termination,
    /// overflows, ...), or text that is not a property.
    #[error(
        "unsupported property {name} (`{text}`): ase checks unreach-call, no-data-race, \
         valid-memsafety, valid-memcleanup, no-overflow, no-deadlock and thread-safety"
    )]
    Unsupported {
        /// The property's name: SV-COMP's for the well-known formulas, else
        /// the file name.
        name: String,
        /// The formula, trimmed.
        text: String,
    },
}

/// Parses the text of a property file. `file_name` names the property in the
/// error when the formula is not a known one.
pub fn parse(text: &str, file_name: &str) -> Result<Property, PropertyError> {
    let formula: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<String>()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    const FORMULAS: [(&str, Property); 6] = [
        ("CHECK(init(main()),LTL(G!data-race))", Property::NoDataRace),
        (
            "CHECK(init(main()),LTL(G!thread-safety))",
            Property::ThreadSafety,
        ),
        ("CHECK(init(main()),LTL(G!deadlock))", Property::NoDeadlock),
        ("CHECK(init(main()),LTL(G!overflow))", Property::NoOverflow),
        (
            "CHECK(init(main()),LTL(Gvalid-memcleanup))",
            Property::ValidMemcleanup,
        ),
        (
            "CHECK(init(main()),LTL(Gvalid-free))CHECK(init(main()),LTL(Gvalid-deref))\
             CHECK(init(main()),LTL(Gvalid-memtrack))",
            Property::ValidMemsafety,
        ),
    ];
    if let Some((_, p)) = FORMULAS.iter().find(|(f, _)| *f == formula) {
        return Ok(p.clone());
    }
    if let Some(function) = formula
        .strip_prefix("CHECK(init(main()),LTL(G!call(")
        .and_then(|rest| rest.strip_suffix("())))"))
    {
        if ERROR_FUNCTIONS.contains(&function) {
            return Ok(Property::UnreachCall {
                function: function.to_string(),
            });
        }
    }
    Err(PropertyError::Unsupported {
        name: known_name(&formula).unwrap_or(file_name).to_string(),
        text: text.trim().to_string(),
    })
}

/// SV-COMP's name of a formula `ase` recognises but does not check.
fn known_name(formula: &str) -> Option<&'static str> {
    const KNOWN: [(&str, &str); 7] = [
        (
            "G!call(",
            "unreach-call (of a function other than reach_error)",
        ),
        ("Fend", "termination"),
        ("Gvalid-free", "valid-memsafety (of another form)"),
        ("Gvalid-memcleanup", "valid-memcleanup (of another form)"),
        ("G!overflow", "no-overflow (of another form)"),
        ("G!data-race", "no-data-race (of another form)"),
        ("Gdefined", "def-behavior"),
    ];
    KNOWN
        .iter()
        .find(|(needle, _)| formula.contains(needle))
        .map(|(_, name)| *name)
}

/// Reads and parses a property file.
pub fn read(path: &Path) -> Result<Property, PropertyError> {
    let text = std::fs::read_to_string(path).map_err(|source| PropertyError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("property");
    parse(&text, stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreach_call() {
        let p = parse("CHECK( init(main()), LTL(G ! call(reach_error())) )\n", "x").unwrap();
        assert_eq!(
            p,
            Property::UnreachCall {
                function: "reach_error".into()
            }
        );
        let p = parse(
            "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )",
            "x",
        )
        .unwrap();
        assert_eq!(p.name(), "unreach-call");
    }

    #[test]
    fn no_data_race() {
        for text in [
            "CHECK( init(main()), LTL(G ! data-race) )\n",
            "CHECK(init(main()),LTL(G!data-race))",
            "// SV-COMP\nCHECK( init( main() ),\n  LTL( G ! data-race ) )  // races\n",
        ] {
            let p = parse(text, "x").unwrap();
            assert_eq!(p, Property::NoDataRace, "{text:?}");
            assert_eq!(p.name(), "no-data-race");
        }
        assert!(NAMES.contains(&Property::NoDataRace.name()));
    }

    #[test]
    fn other_properties_are_unsupported() {
        for (text, name) in [
            ("CHECK( init(main()), LTL(F end) )", "termination"),
            ("CHECK( init(foo()), LTL(G ! data-race) )", "no-data-race (of another form)"),
            ("CHECK( init(main()), LTL(G ! call(foo())) )", "unreach-call (of a function other than reach_error)"),
            ("CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )", "valid-memsafety (of another form)"),
            ("garbage", "file"),
        ] {
            match parse(text, "file") {
                Err(PropertyError::Unsupported { name: n, .. }) => assert_eq!(n, name, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn memory_safety_and_overflow() {
        for (text, p) in [
            ("CHECK( init(main()), LTL(G ! overflow) )\n", Property::NoOverflow),
            ("CHECK( init(main()), LTL(G valid-memcleanup) )", Property::ValidMemcleanup),
            (
                "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n",
                Property::ValidMemsafety,
            ),
        ] {
            assert_eq!(parse(text, "x").unwrap(), p, "{text}");
            assert_eq!(Property::named(p.name()), Some(p.clone()));
            assert!(NAMES.contains(&p.name()));
        }
        assert_eq!(Property::named("termination"), None);
    }
}
