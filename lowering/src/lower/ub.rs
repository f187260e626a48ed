//! Behaviour an expression may have that the lowered program does not
//! carry on from: undefined behaviour, or a construct not modelled. Where
//! it is a violation of a checked property ([`crate::Checks::covers`]) it
//! is an error; otherwise the execution gives up there.

use crate::Violation;

/// Why an execution cannot go on: the reason, and the property it
/// violates when it is one (a null dereference is `valid-deref`; an access
/// the model cannot resolve is none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ub {
    /// What happens, for users.
    pub reason: String,
    /// The violated sub-property, when the behaviour is a violation of one
    /// whatever the model.
    pub violation: Option<Violation>,
    /// A violation only when the place is accessed, not when its address
    /// is taken (an index out of bounds: `&a[n]` accesses nothing).
    pub on_access: bool,
}

impl Ub {
    /// A violation of `violation`.
    pub fn violates(violation: Violation, reason: impl Into<String>) -> Ub {
        Ub {
            reason: reason.into(),
            violation: Some(violation),
            on_access: false,
        }
    }

    /// The behaviour of taking the address of the place: without the
    /// violation when it is one only on access.
    pub fn of_address(self) -> Ub {
        Ub {
            violation: self.violation.filter(|_| !self.on_access),
            ..self
        }
    }
}

impl From<&str> for Ub {
    fn from(reason: &str) -> Ub {
        Ub {
            reason: reason.into(),
            violation: None,
            on_access: false,
        }
    }
}

impl From<String> for Ub {
    fn from(reason: String) -> Ub {
        Ub {
            reason,
            violation: None,
            on_access: false,
        }
    }
}

impl From<&String> for Ub {
    fn from(reason: &String) -> Ub {
        Ub::from(reason.as_str())
    }
}

impl From<&Ub> for Ub {
    fn from(ub: &Ub) -> Ub {
        ub.clone()
    }
}

impl std::fmt::Display for Ub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}
