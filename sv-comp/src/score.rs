//! SV-COMP's scoring of a verdict against the expected one.

use serde::{Deserialize, Serialize};

/// How a result compares with the expected verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The verdict is the expected one.
    Correct,
    /// The verdict is the opposite of the expected one.
    Wrong,
    /// No verdict (unknown, timeout, crash), or no expected verdict.
    Unknown,
}

/// The status of `verdict` (`Some(true)`: the property holds) against
/// `expected`.
pub fn status(expected: Option<bool>, verdict: Option<bool>) -> Status {
    match (expected, verdict) {
        (Some(e), Some(v)) if e == v => Status::Correct,
        (Some(_), Some(_)) => Status::Wrong,
        _ => Status::Unknown,
    }
}

/// SV-COMP's points: correct true +2, correct false +1, wrong true −32,
/// wrong false −16, no verdict 0. The same for `unreach-call` and
/// `no-data-race` (a `false` verdict of either is `FALSE(...)`).
pub fn points(expected: Option<bool>, verdict: Option<bool>) -> i64 {
    match (expected, verdict) {
        (Some(true), Some(true)) => 2,
        (Some(false), Some(false)) => 1,
        (Some(false), Some(true)) => -32,
        (Some(true), Some(false)) => -16,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sv_comp_scores() {
        assert_eq!(points(Some(true), Some(true)), 2);
        assert_eq!(points(Some(false), Some(false)), 1);
        assert_eq!(points(Some(false), Some(true)), -32);
        assert_eq!(points(Some(true), Some(false)), -16);
        assert_eq!(points(Some(true), None), 0);
        assert_eq!(points(None, Some(true)), 0);
        assert_eq!(status(Some(true), Some(false)), Status::Wrong);
        assert_eq!(status(Some(false), Some(false)), Status::Correct);
        assert_eq!(status(None, Some(false)), Status::Unknown);
        assert_eq!(status(Some(true), None), Status::Unknown);
    }
}
