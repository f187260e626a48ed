//! The schedule: which engines a check runs, in which order, with which
//! share of the time. Written once, here, as data; ARCHITECTURE.md
//! ("The schedule") explains it.

use engine::portfolio::Shares;
use engine::schedule::Share;
use std::time::Duration;

/// The shares of a check's time budget.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// The portfolio of `--engine auto` (the exhaustive search, the
    /// inference, bounded model checking, ASE).
    pub portfolio: Shares,
    /// The bounded instances of a program that creates threads in loops,
    /// so that the counter abstraction has the rest even when they exhaust
    /// their budget.
    pub bounded_instances: Share,
    /// The errors-only search first, on programs with threads created in
    /// loops, of the time left (a shallow bug is not found only after the
    /// counter abstraction has spent its share).
    pub errors_first: Share,
    /// The counter abstraction after a give-up, of the time left (the
    /// errors-only search has the rest).
    pub counting: Share,
    /// The steps of the counter abstraction.
    pub counter: CounterShares,
    /// The least time the certificate check gets, whatever is left.
    pub min_certify: Duration,
    /// When deadlocks are checked apart from the other properties
    /// ([`crate::apart`]): the other properties first (the deadlock check
    /// has the rest).
    pub others_first: Share,
}

/// The shares of the counter abstraction's time
/// ([`crate::counting::prove`]), each of what is left when it starts.
#[derive(Clone, Copy, Debug)]
pub struct CounterShares {
    /// The explicit search with saturated counters, first (at most 1 s,
    /// and at most as many states over its searches as a proof that is
    /// certified at once may have: it ends soon or not at all; a loop of
    /// 10,000 creations keeps it from ending, and the other methods are
    /// tried next). Within [`CounterShares::saturated`].
    pub saturated_first: Share,
    /// The explicit search with saturated counters in all (at most 10 s:
    /// without a limit, a loop of 10,000 creations would keep it from the
    /// other methods for minutes): when the first run ran out of time or
    /// states, the rest is kept for a second run after the inference and
    /// the view programs, whose shares are of the time left without it.
    pub saturated: Share,
    /// The inference, per counter system (coarse, then full).
    pub infer: Share,
    /// View programs.
    pub views: Share,
    /// ASE on the coarse counter system (the full one has the rest).
    pub coarse: Share,
}

/// The schedule of `ase check`, `ase certify` and `ase bench`.
pub const SCHEDULE: Schedule = Schedule {
    portfolio: Shares {
        explicit: Share::fraction(1, 2),
        infer: Share::fraction(1, 5).at_most(Duration::from_secs(10)),
        bmc_of_left: Share::fraction(1, 3),
        bmc_of_whole: Share::fraction(1, 10),
        arrays_explicit: Share::fraction(1, 2),
    },
    bounded_instances: Share::fraction(2, 3),
    errors_first: Share::fraction(1, 16).at_most(Duration::from_secs(2)),
    counting: Share::fraction(1, 2),
    counter: CounterShares {
        saturated_first: Share::fraction(1, 4).at_most(Duration::from_secs(1)),
        saturated: Share::fraction(1, 4).at_most(Duration::from_secs(10)),
        infer: Share::fraction(1, 5).at_most(Duration::from_secs(10)),
        views: Share::fraction(2, 3).at_most(Duration::from_secs(60)),
        coarse: Share::fraction(1, 3),
    },
    min_certify: Duration::from_secs(5),
    others_first: Share::fraction(2, 3),
};
