//! Shares of a time budget: how a strategy splits its time between the
//! engines it runs. The strategies take their shares as data (the portfolio
//! in [`crate::portfolio::Shares`], the C pipeline in its own schedule), so
//! that one table says how the time is spent.

use std::time::Duration;

/// A share of a time budget: `num / den` of it, at most `cap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// The numerator of the fraction.
    pub num: u32,
    /// The denominator of the fraction (not zero).
    pub den: u32,
    /// The most the share is, whatever the budget; also the share of an
    /// unlimited budget.
    pub cap: Option<Duration>,
}

impl Share {
    /// `num / den` of the budget, without a cap.
    pub const fn fraction(num: u32, den: u32) -> Share {
        Share {
            num,
            den,
            cap: None,
        }
    }

    /// The same share, at most `cap`.
    pub const fn at_most(self, cap: Duration) -> Share {
        Share {
            cap: Some(cap),
            ..self
        }
    }

    /// The share of a limited budget.
    pub fn of(self, budget: Duration) -> Duration {
        let part = budget * self.num / self.den.max(1);
        match self.cap {
            Some(cap) => part.min(cap),
            None => part,
        }
    }

    /// The share of a budget that may be unlimited (`None`): of an
    /// unlimited one, the cap (`None` when there is none).
    pub fn of_left(self, budget: Option<Duration>) -> Option<Duration> {
        match budget {
            Some(b) => Some(self.of(b)),
            None => self.cap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_fractions_under_their_cap() {
        let third = Share::fraction(1, 3);
        assert_eq!(third.of(Duration::from_secs(30)), Duration::from_secs(10));
        assert_eq!(third.of_left(None), None);
        let capped = Share::fraction(1, 5).at_most(Duration::from_secs(10));
        assert_eq!(capped.of(Duration::from_secs(20)), Duration::from_secs(4));
        assert_eq!(capped.of(Duration::from_secs(100)), Duration::from_secs(10));
        assert_eq!(capped.of_left(None), Some(Duration::from_secs(10)));
        assert_eq!(
            Share::fraction(2, 3).of(Duration::from_secs(9)),
            Duration::from_secs(6)
        );
    }
}
