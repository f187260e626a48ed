//! The process's memory budget, shared by the engines.
//!
//! `ase check --memlimit MB` caps the process's address space
//! (`RLIMIT_AS`); an allocation past it aborts the process. The engines
//! whose tables grow without bound (the explicit search's visited states,
//! ASE's symbolic states) check [`exceeded`] every few hundred states and
//! stop with `unknown` ("memory budget reached") before that, which frees
//! their tables for the engines that run next.

use std::sync::atomic::{AtomicU64, Ordering};

/// The address-space size past which [`exceeded`] holds (0: none).
static BUDGET: AtomicU64 = AtomicU64::new(0);

/// Share of the process's limit the engines may reach: the rest is for
/// Z3's allocations between two checks and for what runs afterwards.
const SHARE_PERCENT: u64 = 80;

/// Sets the process's memory limit (`None`: no budget).
pub fn set_limit(bytes: Option<u64>) {
    let budget = bytes.map_or(0, |b| b / 100 * SHARE_PERCENT);
    BUDGET.store(budget, Ordering::Relaxed);
}

/// Whether the process's address space is past the budget.
pub fn exceeded() -> bool {
    let budget = BUDGET.load(Ordering::Relaxed);
    budget > 0 && address_space().is_some_and(|used| used >= budget)
}

/// The process's address-space size (`VmSize`), where `/proc` tells it.
fn address_space() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    Some(pages * 4096)
}

/// The reason an engine gives when it stops at the budget.
pub const REASON: &str = "memory budget reached";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_space_is_known_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(address_space().is_some_and(|b| b > 0));
        }
    }
}
