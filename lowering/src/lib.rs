//! Lowering of pthread C programs (parsed by [`frontend`]) to the
//! guarded-command IR of [`engine`].
//!
//! ```no_run
//! let unit = frontend::parse_file("prog.c".as_ref(), &frontend::Options::default())?;
//! let lowered = lowering::lower(&unit)?;
//! println!("{}", engine::print::print_program(&lowered.program));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The semantics modelled, and what makes the lowering refuse a program, are
//! listed in SOUNDNESS.md; the design is in ARCHITECTURE.md ("Lowering").
//! In short: one IR thread per thread instance (`main`, then one per
//! `pthread_create` call site, per iteration of a constant-trip-count loop,
//! `K` per site inside another loop),
//! calls inlined, integers exact with C's wrap-around, pointers as integer
//! addresses resolved by case splits, every shared access its own step, and
//! local steps merged into large blocks.

#![warn(missing_docs)]

mod annotations;
mod cfg;
pub mod counter;
pub mod deadlock;
mod emit;
mod error;
pub mod harness;
mod lower;
mod memtrack;
pub mod races;
mod reduce;
pub mod spec;
mod term;
mod types;
pub mod unreduced;

use engine::interp::State;
use engine::ir::{LocId, Program, ThreadId};
pub use error::LowerError;
use frontend::lang_c::span::Span;
use frontend::{DataModel, ParsedUnit};
pub use lower::TAIL_ERROR;

/// A thread instance of the lowered program.
#[derive(Clone, Debug)]
pub struct ThreadInfo {
    /// Its name in the IR (`main`, `worker.2`).
    pub name: String,
    /// Its start routine.
    pub function: String,
    /// The `pthread_create` call that starts it (a span of the parsed text).
    pub created_at: Option<Span>,
    /// The variable set to 1 when the thread is created (`None` for `main`):
    /// a transition assigning it creates the thread.
    pub run: Option<engine::ir::VarId>,
}

/// What a thread waits for in a blocking call (the `no-deadlock`
/// property, SOUNDNESS.md "Deadlocks").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitKind {
    /// A mutex to be free: the cells the mutex may be, each where its
    /// condition holds, each holding its owner's thread number (IR thread
    /// index + 1), or 0 when free.
    Mutex(Vec<(engine::ir::Cond, engine::ir::VarId)>),
    /// A read-write lock to be free (or held by readers only, for a read
    /// lock).
    RwLock,
    /// A semaphore to be posted.
    Semaphore,
    /// The other threads of a barrier.
    Barrier,
    /// Another thread's `pthread_once` initialisation to finish.
    Once,
    /// A thread to end (`pthread_join`, `thrd_join`; which one:
    /// [`deadlock::awaited`], from the guards).
    Join,
    /// A signal or broadcast on a condition variable (spurious wake-ups do
    /// not count), which sets the waiting thread's `woken` flag (this
    /// variable).
    Condition(engine::ir::VarId),
    /// Another thread's atomic section to end.
    Atomic,
    /// A message on a pipe, or its write end closed.
    Pipe,
    /// A message in a message queue, or room in it.
    MessageQueue,
}

impl WaitKind {
    /// What is waited for, in words.
    pub fn describe(&self) -> &'static str {
        match self {
            WaitKind::Mutex(_) => "a mutex that is not released",
            WaitKind::RwLock => "a read-write lock",
            WaitKind::Semaphore => "a semaphore that is not posted",
            WaitKind::Pipe => "a pipe that stays empty",
            WaitKind::MessageQueue => "a message queue that stays empty or full",
            WaitKind::Barrier => "the other threads of a barrier",
            WaitKind::Once => "another thread's pthread_once",
            WaitKind::Join => "a thread that does not end",
            WaitKind::Condition(_) => "a condition variable nobody signals",
            WaitKind::Atomic => "another thread's atomic section",
        }
    }
}

/// A blocking call where a thread may wait.
#[derive(Clone, Debug, PartialEq)]
pub struct Wait {
    /// What it waits for.
    pub kind: WaitKind,
    /// The call.
    pub span: Option<Span>,
}

/// A `pthread_create` call site inside a loop, modelled by several
/// instances of its thread (SOUNDNESS.md, "Threads created in loops").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopSite {
    /// The IR threads of its instances, in the order the site starts them.
    pub instances: Vec<ThreadId>,
    /// The site's counter (how many instances it has started), written
    /// only by the creating thread.
    pub spawned: engine::ir::VarId,
}

impl LoopSite {
    /// The give-up reached when a site with `count` instances starts one
    /// thread more (the counter abstraction covers those executions, not
    /// the instances).
    pub fn beyond(count: usize) -> GiveUp {
        GiveUp {
            kind: GiveUpKind::BeyondInstances,
            reason: format!(
                "a pthread_create call in a loop ran more than {count} times (its first {count} \
                 threads are explored one by one; more are covered only by the counter abstraction)"
            ),
        }
    }
}

/// Why an execution stops at a give-up location: behaviour the lowered
/// program does not model exactly.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GiveUp {
    /// What kind of limit of the model it is.
    pub kind: GiveUpKind,
    /// The construct or behaviour, for users.
    pub reason: String,
}

/// The kinds of [`GiveUp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GiveUpKind {
    /// A construct or behaviour the lowering does not model (undefined
    /// behaviour, a resource budget, an unsupported call) was reached.
    NotModelled,
    /// A statement or declaration of the program that uses a construct the
    /// lowering does not model (floating point, recursion) was reached: the
    /// program is lowered, and the statement gives up where it starts.
    Construct,
    /// A `pthread_create` call in a loop ran more often than its modelled
    /// instances ([`LoopSite::beyond`]).
    BeyondInstances,
    /// An error past the allocation of a heap array of run-time length
    /// (its tail, [`TAIL_ERROR`]).
    TailError,
    /// A join or store through an array of thread handles that the slots
    /// of its instances do not model exactly (`lower::handles`): a join of
    /// an element holding no joinable thread (undefined behaviour), or a
    /// handle stored over a started thread's. The counter abstraction,
    /// which forgets the slots, has neither (SOUNDNESS.md, "Arrays of
    /// thread handles").
    HandleSlot,
}

impl GiveUp {
    /// A construct or behaviour that is not modelled.
    pub fn not_modelled(reason: impl Into<String>) -> GiveUp {
        GiveUp {
            kind: GiveUpKind::NotModelled,
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for GiveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// Where an IR variable comes from (for source-level traces and witnesses).
#[derive(Clone, Debug, PartialEq)]
pub enum VarOrigin {
    /// A cell of a C object: a global (`thread: None`) or a local, parameter
    /// or return value of a thread instance (`thread: Some(k)`).
    Object {
        /// The thread instance owning it (`None` for globals and statics).
        thread: Option<usize>,
        /// The C function it belongs to (`None` for globals).
        function: Option<String>,
        /// The object's C type is a mutex.
        mutex: bool,
    },
    /// The value returned by a `__VERIFIER_nondet_*` call.
    Nondet {
        /// The function called (`__VERIFIER_nondet_int`).
        function: String,
        /// The call (a span of the parsed text).
        call: Span,
    },
    /// A temporary of the lowering (a loaded value, a quotient, a thread's
    /// `run` flag, the atomic flag).
    Internal,
}

/// Source-level knowledge about an IR variable.
#[derive(Clone, Debug, PartialEq)]
pub struct VarMeta {
    /// The C expression denoting the cell (`x`, `a[2]`, `s.f`), when it is
    /// one.
    pub c_name: Option<String>,
    /// What it is.
    pub origin: VarOrigin,
    /// The cell's C integer type, when it holds a C integer (not a
    /// pointer, a mutex or a thread handle, whose IR values are the
    /// lowering's numbers, not C values).
    pub int_type: Option<CInt>,
    /// A cell of a heap block: `c_name` is an access path through the
    /// variable that first held the block (`n->val`), C only where that
    /// variable still points to it (witness invariants leave it out).
    pub heap: bool,
    /// A cell of a floating-point object: its IR value means nothing (the
    /// model abstracts floating-point values, `lower::floats`), so traces
    /// and witnesses do not show it.
    pub float: bool,
    /// A union's tag (`lower::unions`): no C memory, so traces and
    /// witnesses do not show it, and a race on it alone is no data race
    /// the model can tell (SOUNDNESS.md, "Unions").
    pub tag: bool,
    /// For a cell of a union member: the tag of each union it lies in and
    /// the member's code; the cell holds C's value only where every tag is
    /// 0 or the code (`lower::unions`), so traces show it only there.
    pub members: Vec<(engine::ir::VarId, i64)>,
}

/// The CFG location an IR location stands for. The lowering builds the
/// same CFG with and without the reduction (which only merges edges and
/// drops locations), so equal origins are the same point of the C program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocOrigin {
    /// The CFG location (of the thread instance): the IR location itself,
    /// or the one a havoc step leaves.
    pub cfg: usize,
    /// For the intermediate location after a havoc step: the variables it
    /// havocs (sorted).
    pub havoc: Option<Vec<engine::ir::VarId>>,
}

/// A C integer type, as witnesses need it to write a value in C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CInt {
    /// Width in bits (1 for `_Bool`).
    pub bits: u8,
    /// Whether it is signed.
    pub signed: bool,
}

/// The result of lowering a C program.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The assignments that reset dead variables
    /// ([`engine::liveness::reset_dead_locals`]): not writes of the C
    /// program, so traces leave them out.
    pub resets: Vec<(engine::ir::TransId, engine::ir::VarId)>,
    /// The IR program. Transition spans are byte ranges of the parsed text
    /// ([`ParsedUnit::text`]).
    pub program: Program,
    /// Per IR thread: where it comes from.
    pub threads: Vec<ThreadInfo>,
    /// Locations meaning `reach_error()` was called.
    pub errors: Vec<(ThreadId, LocId)>,
    /// Locations meaning the program did something the lowering does not
    /// model (undefined behaviour, a thread-creation site run twice), with
    /// the reason: a trace ending there gives `unknown`.
    pub give_ups: Vec<(ThreadId, LocId, GiveUp)>,
    /// The data model the integer types follow.
    pub data_model: DataModel,
    /// Per IR variable (indexed by `VarId`): its C meaning. Plain data for
    /// traces and witnesses; the program does not depend on it.
    pub vars: Vec<VarMeta>,
    /// Per IR thread, per IR location: the C source the location belongs to
    /// (its first statement), when known.
    pub loc_spans: Vec<Vec<Option<Span>>>,
    /// Per IR thread, per IR location: the CFG location it stands for
    /// ([`unreduced::replay`] matches the reduced and the unreduced
    /// program's locations by it).
    pub loc_origins: Vec<Vec<LocOrigin>>,
    /// The `pthread_create` sites inside loops that have several instances.
    pub loop_sites: Vec<LoopSite>,
    /// Per IR variable: the least and greatest value it can hold (its C
    /// type's range), when bounded.
    pub ranges: Vec<(Option<i128>, Option<i128>)>,
    /// What the error condition holds.
    pub checks: Checks,
    /// Locations meaning a checked memory-safety or overflow property is
    /// violated ([`Checks::covers`]).
    pub violations: Vec<(ThreadId, LocId, Violated)>,
    /// The checks of heap memory over states: at the end of the program
    /// ([`Checks::memcleanup`]) and in every state (lost blocks,
    /// [`Checks::memtrack`]).
    pub at_exit: Vec<AtExit>,
    /// Whether the program allocates heap memory (some allocation site is
    /// lowered).
    pub allocates: bool,
    /// Whether lost blocks are errors of the program ([`Checks::memtrack`]).
    pub memtrack: MemTrack,
    /// With [`Checks::races`]: the accesses of the steps that may race
    /// (SOUNDNESS.md, "Data races").
    pub races: Vec<races::RaceAccess>,
    /// How many error conditions ([`Program::error`]) are race conditions:
    /// they follow the `reach_error()` conditions (when assertions are
    /// checked), the violations and the checks at exit, and precede the
    /// give-ups.
    pub race_conditions: usize,
    /// When threads may race: the program is running (no thread has exited,
    /// none is at `reach_error()` or a violation), the conjunct of every
    /// race condition.
    pub race_running: engine::ir::Cond,
    /// With [`Checks::deadlocks`], when some thread can wait: where the
    /// threads wait; the deadlock condition follows the race conditions.
    pub deadlock: Option<deadlock::Shape>,
    /// The calls that acquire a mutex: the thread, the mutex's cell, the
    /// call (deadlock traces say where a mutex was taken).
    pub lock_sites: Vec<(ThreadId, engine::ir::VarId, Span)>,
    /// Whether some heap object has a tail ([`Options::tails`]).
    pub tails: bool,
    /// Whether the tails are IR arrays ([`Options::array_values`]).
    pub array_values: bool,
    /// Per IR array: the C name of the array it holds and the cells of an
    /// element (cell `i` of the IR array is in element `i / stride`).
    pub array_c: Vec<(String, u64)>,
    /// With tails, the shared flag every allocation of one sets: a race,
    /// deadlock or check at exit reached with it set is no counterexample
    /// (the trace may rest on the arbitrary reads of untracked elements).
    pub tail_used: Option<engine::ir::VarId>,
    /// With tails, each thread's flag "every tail element read was the
    /// tracked one": with all of them set, a state past a tail's
    /// allocation is one of the program (no value read was arbitrary).
    pub tail_clean: Vec<engine::ir::VarId>,
    /// Each tail's tracked cell with the variable holding its index.
    pub tail_cells: Vec<(engine::ir::VarId, engine::ir::VarId)>,
    /// The slots of the thread instances started through arrays of thread
    /// handles (`lower::handles`): locals of their instances that joins
    /// compare with an index (the counter abstraction keeps them local and
    /// drops those comparisons).
    pub handle_slots: Vec<engine::ir::VarId>,
    /// Per thread that observes an abstracted value (a floating-point one,
    /// an uninterpreted function's result; `lower::floats`): its flag, set
    /// where it first observes one.
    pub observation_flags: Vec<engine::ir::VarId>,
}

/// Which errors the lowered program's error condition holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    /// `reach_error()` and failed assertions (SV-COMP's `unreach-call`).
    pub assertions: bool,
    /// Data races (SV-COMP's `no-data-race`). When assertions are not
    /// checked, reaching `reach_error()` stops the program (it aborts).
    pub races: bool,
    /// Invalid dereferences and frees, and blocks lost while allocated
    /// (SV-COMP's `valid-memsafety`: [`Violation::Deref`],
    /// [`Violation::Free`], [`Violation::MemTrack`]).
    pub memsafety: bool,
    /// Blocks lost while allocated (SV-COMP's `valid-memtrack`, part of
    /// `valid-memsafety`; [`Violation::MemTrack`]): a state in which an
    /// allocated heap block is reached by no pointer
    /// ([`Lowered::memtrack`]; SOUNDNESS.md, "Memory safety"). Without it,
    /// only the certain loss of a write-only buffer is reported.
    pub memtrack: bool,
    /// Allocated memory when the program ends (SV-COMP's
    /// `valid-memcleanup`, [`Violation::MemCleanup`]).
    pub memcleanup: bool,
    /// Signed integer overflow and shifts out of range (SV-COMP's
    /// `no-overflow`, [`Violation::Overflow`]). Unchecked, signed
    /// arithmetic wraps around (SOUNDNESS.md, "Assumed").
    pub overflow: bool,
    /// Deadlocks: a state in which every unfinished thread waits in a
    /// blocking call that cannot complete (SOUNDNESS.md, "Deadlocks").
    pub deadlocks: bool,
    /// Clang's thread-safety annotations ([`Violation::ThreadSafety`];
    /// SOUNDNESS.md, "Thread-safety annotations"). Unchecked, they are
    /// ignored.
    pub thread_safety: bool,
    /// The order of calls a specification allows ([`Violation::Spec`];
    /// [`Options::spec`]; SOUNDNESS.md, "Specifications").
    pub spec: bool,
}

impl Checks {
    /// Assertions only.
    pub const ASSERTIONS: Checks = Checks {
        assertions: true,
        races: false,
        memsafety: false,
        memtrack: false,
        memcleanup: false,
        overflow: false,
        deadlocks: false,
        thread_safety: false,
        spec: false,
    };

    /// Deadlocks only (as `ase check` checks them, apart from the other
    /// properties; reaching `reach_error()` aborts).
    pub const DEADLOCKS: Checks = Checks {
        assertions: false,
        deadlocks: true,
        ..Checks::ASSERTIONS
    };

    /// Whether a violation of `v` is an error (else behaviour that is not
    /// modelled: a give-up).
    pub fn covers(&self, v: Violation) -> bool {
        match v {
            Violation::Deref | Violation::Free | Violation::MemTrack => self.memsafety,
            Violation::MemCleanup => self.memcleanup,
            Violation::Overflow => self.overflow,
            Violation::ThreadSafety => self.thread_safety,
            Violation::Spec => self.spec,
        }
    }
}

impl Default for Checks {
    /// Assertions only.
    fn default() -> Self {
        Checks::ASSERTIONS
    }
}

/// The violated part of one of SV-COMP's memory-safety and overflow
/// properties (its sub-property).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Violation {
    /// A dereference of a null, dangling or out-of-bounds pointer.
    Deref,
    /// A double free, or a free of a pointer that is not the start of a
    /// heap block.
    Free,
    /// A heap block no pointer reaches any more while it is allocated.
    MemTrack,
    /// Heap memory still allocated when the program ends.
    MemCleanup,
    /// A signed integer overflow or a shift out of range.
    Overflow,
    /// An access to a guarded variable without its capability, or a call
    /// that breaks a function's thread-safety annotation.
    ThreadSafety,
    /// A call the specification does not allow in its current state.
    Spec,
}

impl Violation {
    /// SV-COMP's name of the (sub-)property (`valid-deref`, `no-overflow`).
    pub fn name(self) -> &'static str {
        match self {
            Violation::Deref => "valid-deref",
            Violation::Free => "valid-free",
            Violation::MemTrack => "valid-memtrack",
            Violation::MemCleanup => "valid-memcleanup",
            Violation::Overflow => "no-overflow",
            Violation::ThreadSafety => "thread-safety",
            Violation::Spec => "spec",
        }
    }
}

/// A violation reached: what and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Violated {
    /// The sub-property.
    pub violation: Violation,
    /// What happened, for users (`dereference of a null pointer`).
    pub reason: String,
}

/// Heap memory checked over the last state (not at a location): a block
/// still allocated at the end of the program ([`Violation::MemCleanup`]),
/// or one nothing points to any more ([`Violation::MemTrack`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AtExit {
    /// What is violated when [`AtExit::condition`] holds.
    pub violated: Violated,
    /// The states in which it is.
    pub condition: engine::ir::Cond,
}

/// Whether the lowered program checks `valid-memtrack`
/// ([`Checks::memtrack`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemTrack {
    /// Not asked for, or nothing is allocated.
    NotAsked,
    /// Every state in which an allocated heap block is lost is an error
    /// ([`Lowered::at_exit`]).
    Checked,
    /// Asked for, but the lowering cannot tell lost blocks: why.
    Unchecked(String),
}

/// What the last state of an error trace means.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceEnd {
    /// `reach_error()` (or a failing assertion) was reached: a real bug.
    Error,
    /// Two accesses race: indices into [`Lowered::races`], the first a
    /// write.
    Race(usize, usize),
    /// A memory-safety or overflow property is violated.
    Violation(Violated),
    /// A deadlock: the waiting threads, each with the call it waits in
    /// (none: outside any call, for another thread's atomic section).
    Deadlock(Vec<(ThreadId, Option<Wait>)>),
    /// Something not modelled was reached; the verdict must be `unknown`.
    GiveUp(GiveUp),
}

impl Lowered {
    /// The C source of IR location `l` of thread `t` (its first statement),
    /// when known.
    pub fn loc_span(&self, t: usize, l: usize) -> Option<Span> {
        self.loc_spans.get(t)?.get(l).copied().flatten()
    }

    /// [`Lowered::program`] with only the real errors (`reach_error()`,
    /// failed assertions) as error states: give-up locations stay dead ends
    /// of their threads, and the other threads go on. Its error traces are
    /// error traces of the program (the same transitions).
    pub fn errors_only(&self) -> Program {
        let mut p = self.program.clone();
        // The error conditions are the bugs (errors, races) first, then
        // the give-ups.
        p.error.truncate(self.bugs());
        p
    }

    /// Whether an error may be reached past the allocation of a tail (the
    /// give-up [`TAIL_ERROR`]): bugs are then searched in the program
    /// lowered without tails ([`Options::tails`]).
    pub fn tail_errors(&self) -> bool {
        self.tail_used.is_some()
    }

    /// Whether a tail is allocated in state `s` and some thread read an
    /// element other than the tracked one: the values of the state may
    /// rest on an arbitrary read.
    fn past_tail(&self, s: &State) -> bool {
        let set = |v: &engine::ir::VarId| s.vals.get(v.index()).is_some_and(|x| *x != 0);
        self.tail_used.as_ref().is_some_and(set) && !self.tail_clean.iter().all(set)
    }

    /// The C name of variable `v` in state `s`: a tail's tracked cell is
    /// named by the index it tracks there (`a[5000]`).
    pub fn c_name_in(&self, v: engine::ir::VarId, s: &State) -> Option<String> {
        let name = self.vars[v.index()].c_name.clone()?;
        let tracked = self.tail_cells.iter().find(|(cell, _)| *cell == v);
        match (tracked, name.strip_suffix("[tracked]")) {
            (Some((_, index)), Some(array)) => {
                let k = s.vals.get(index.index())?;
                Some(format!("{array}[{k}]"))
            }
            _ => Some(name),
        }
    }

    /// The give-up of an error reached past the allocation of a tail.
    fn tail_error() -> GiveUp {
        GiveUp {
            kind: GiveUpKind::TailError,
            reason: TAIL_ERROR.into(),
        }
    }

    /// How many error conditions are bugs (the rest are give-ups).
    fn bugs(&self) -> usize {
        self.located_bugs()
            + self.at_exit.len()
            + self.race_conditions
            + usize::from(self.deadlock.is_some())
    }

    /// How many of the bugs are locations (`reach_error()`, violations):
    /// the conditions over states follow them.
    fn located_bugs(&self) -> usize {
        let asserts = if self.checks.assertions {
            self.errors.len()
        } else {
            0
        };
        asserts + self.violations.len()
    }

    /// The indices of the race conditions among the program's error
    /// conditions.
    pub(crate) fn race_range(&self) -> std::ops::Range<usize> {
        let end = self.bugs() - usize::from(self.deadlock.is_some());
        end - self.race_conditions..end
    }

    /// The index of the deadlock condition among the program's error
    /// conditions (the last bug), when deadlocks are checked.
    pub(crate) fn deadlock_index(&self) -> Option<usize> {
        self.deadlock.as_ref().map(|_| self.bugs() - 1)
    }

    /// Whether `last` satisfies the deadlock condition.
    fn in_deadlock_condition(&self, last: &State) -> bool {
        self.deadlock_index().is_some_and(|i| {
            engine::interp::eval_cond(&self.program.error[i], last).unwrap_or(false)
        })
    }

    /// The states that are bugs: some thread is at an error location
    /// (`reach_error()` was called), a checked property is violated, or
    /// two accesses race, as
    /// [`Lowered::checks`] says. The program's error condition also
    /// holds at give-up locations; engines that can aim at real bugs look
    /// for states satisfying both.
    pub fn bug_condition(&self) -> engine::ir::Cond {
        // The conditions over states (at exit, races, deadlock) are bugs
        // only where no value read may be arbitrary (`past_tail`).
        let (located, states) = self.program.error[..self.bugs()].split_at(self.located_bugs());
        let states = engine::ir::disjunction(states.iter().cloned());
        engine::ir::disjunction(
            located
                .iter()
                .cloned()
                .chain([crate::term::and(states, self.exact_state())]),
        )
    }

    /// The states `past_tail` does not hold in.
    fn exact_state(&self) -> engine::ir::Cond {
        use engine::ir::{CmpOp, Cond, Term};
        let Some(used) = self.tail_used else {
            return Cond::True;
        };
        let unused = Cond::Cmp(CmpOp::Eq, Term::Var(used), Term::Const(0));
        crate::term::or(unused, crate::term::all_set(&self.tail_clean))
    }

    /// Where an error trace of [`Lowered::program`] first observes a
    /// floating-point value, whose value the model does not know
    /// (SOUNDNESS.md, "Floating point"): the C source of the step that
    /// sets an observation flag (`None` inside when none is known); `None` when its last state has no flag set, so that the
    /// trace rests on no such value.
    pub fn abstraction_observed(&self, trace: &engine::verdict::Trace) -> Option<Option<Span>> {
        let set = |s: &State| {
            self.observation_flags
                .iter()
                .any(|f| s.vals[f.index()] != 0)
        };
        if !set(trace.last_state()) {
            return None;
        }
        let step = trace.steps.iter().find(|s| set(&s.state))?;
        let span = self
            .program
            .source_map
            .transitions
            .get(step.transition.index());
        let t = self.program.transition(step.transition);
        Some(match span.filter(|s| **s != engine::ir::Span::default()) {
            Some(s) => Some(Span::span(s.start as usize, s.end as usize)),
            None => self.loc_spans[t.thread.index()][t.from.index()],
        })
    }

    /// For an error trace ending in a race on a union's tag alone (two
    /// threads about to access different members, SOUNDNESS.md "Unions"):
    /// the union's C name. Whether the members' bytes overlap is not
    /// modelled, so the trace is no counterexample.
    pub fn union_member_race(&self, trace: &engine::verdict::Trace) -> Option<String> {
        let last = trace.last_state();
        let TraceEnd::Race(a, _) = self.trace_end(last) else {
            return None;
        };
        let meta = &self.vars[self.races[a].var.index()];
        meta.tag.then(|| meta.c_name.clone().unwrap_or_default())
    }

    /// Classifies the final state of an error trace of [`Lowered::program`].
    pub fn trace_end(&self, last: &State) -> TraceEnd {
        if self.checks.assertions
            && self
                .errors
                .iter()
                .any(|(t, l)| last.locs.get(t.index()) == Some(l))
        {
            return TraceEnd::Error;
        }
        if let Some((_, _, v)) = self
            .violations
            .iter()
            .find(|(t, l, _)| last.locs.get(t.index()) == Some(l))
        {
            return TraceEnd::Violation(v.clone());
        }
        let at_exit = self
            .at_exit
            .iter()
            .find(|x| engine::interp::eval_cond(&x.condition, last).unwrap_or(false));
        let race = races::find(&self.races, last, &|v| self.vars[v.index()].tag);
        let deadlock = self
            .deadlock
            .as_ref()
            .filter(|_| self.in_deadlock_condition(last));
        let reached = at_exit.is_some() || race.is_some() || deadlock.is_some();
        if reached && self.past_tail(last) {
            // SOUNDNESS.md, "Heap arrays of run-time length": these
            // conditions involve several threads (or none), so no one
            // thread's exact flag vouches for the values read.
            return TraceEnd::GiveUp(Self::tail_error());
        }
        if let Some(x) = at_exit {
            return TraceEnd::Violation(x.violated.clone());
        }
        if let Some((a, b)) = race {
            return TraceEnd::Race(a, b);
        }
        if let Some(shape) = deadlock {
            // The threads waiting, each with its call (SOUNDNESS.md,
            // "Deadlocks"). None: the condition over-approximates long
            // cycles of lock waits (deadlock::cycles), and this state is
            // not one.
            return match deadlock::deadlocked(&self.program, shape, last) {
                Some(waiting) => {
                    TraceEnd::Deadlock(waiting.into_iter().map(|(t, w)| (t, w.cloned())).collect())
                }
                None => TraceEnd::GiveUp(GiveUp::not_modelled(
                    "a chain of lock waits that may be a cycle among more threads than the \
                     deadlock check writes out",
                )),
            };
        }
        let reason = self
            .give_ups
            .iter()
            .find(|(t, l, _)| last.locs.get(t.index()) == Some(l))
            .map_or_else(
                || GiveUp::not_modelled("an unexpected error state"),
                |(_, _, g)| g.clone(),
            );
        TraceEnd::GiveUp(reason)
    }
}

/// How to lower.
#[derive(Clone, Debug)]
pub struct Options {
    /// Merge critical sections whose accesses are all movers, and the steps
    /// of `main` while it runs alone, into single steps (the reduction of
    /// SOUNDNESS.md). Off: only thread-local steps are merged (`ase lower
    /// --no-reduce`).
    pub reduce: bool,
    /// Merge thread-local steps into large blocks. Off (with `reduce` off
    /// too): every CFG edge is its own transition, the finest model, on
    /// which [`unreduced::replay`] replays reduced traces.
    pub compress: bool,
    /// Thread instances modelled per `pthread_create` call site inside a
    /// loop (SOUNDNESS.md, "Threads created in loops"): the site starts the
    /// lowest instance not started yet, and running it once more goes to a
    /// give-up location. At least 1.
    pub instances: usize,
    /// Heap objects per allocation site: the site's executions past this
    /// many give up (`--heap-budget`).
    pub heap_budget: usize,
    /// `malloc` and `calloc` may return NULL (`--malloc-may-fail`); by
    /// default they succeed, SV-COMP's convention.
    pub malloc_may_fail: bool,
    /// How calls of functions without a definition are modelled
    /// (`--extern-calls`).
    pub extern_calls: ExternCalls,
    /// What the error condition holds (`--races`, `--no-races`).
    pub checks: Checks,
    /// Heap arrays of run-time length of scalars are tails: one element
    /// tracked exactly, others read as any value (SOUNDNESS.md, "Heap
    /// arrays of run-time length"); an error past a tail's allocation gives
    /// up. Off: the arrays hold at most 8 elements, exactly (longer ones
    /// give up): the model bugs are searched in.
    pub tails: bool,
    /// Every tail is an IR array instead (`engine::ir::Program::arrays`),
    /// all of its elements exact: the model of arrays of any length that
    /// bugs are searched in by bounded model checking (SOUNDNESS.md, "Heap
    /// arrays of run-time length"). The reduction treats each array as one
    /// shared variable; races on array elements are not checked (the model
    /// only finds bugs).
    pub array_values: bool,
    /// Arrays used only to hold thread handles have no cells, whatever
    /// their length (SOUNDNESS.md, "Arrays of thread handles"). Off: they
    /// are arrays like any other (`--no-handle-arrays`).
    pub handle_arrays: bool,
    /// Global arrays of integers or pointers of more elements than this
    /// are tails (with [`Options::tails`]; SOUNDNESS.md, "Heap arrays of
    /// run-time length"); by default those too large for a variable per
    /// element. Lower for the differential test against the exact model.
    pub tail_globals_above: u64,
    /// A specification of the order of calls ([`spec::Spec`]): each call
    /// of a function of its alphabet is an event, checked against it
    /// ([`Checks::spec`] follows it).
    pub spec: Option<spec::Spec>,
}

/// How a call of a function the program declares but does not define
/// (and the lowering does not model) is modelled (SOUNDNESS.md, "Functions
/// without a definition").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExternCalls {
    /// Its arguments are evaluated, then the execution gives up there: no
    /// assumption about the function.
    #[default]
    GiveUp,
    /// Any value of its return type, and no effect on memory: an
    /// assumption about the function (it returns, and writes nothing the
    /// program can read).
    Pure,
    /// Any value of its return type, and any values in the objects its
    /// pointer arguments point into: an assumption (it returns, and writes
    /// no other memory).
    Havoc,
}

/// The default of [`Options::instances`].
pub const DEFAULT_INSTANCES: usize = 3;

/// The default of [`Options::heap_budget`].
pub const DEFAULT_HEAP_BUDGET: usize = 4;

impl Default for Options {
    fn default() -> Self {
        Options {
            reduce: true,
            compress: true,
            instances: DEFAULT_INSTANCES,
            heap_budget: DEFAULT_HEAP_BUDGET,
            malloc_may_fail: false,
            extern_calls: ExternCalls::GiveUp,
            checks: Checks::default(),
            tails: true,
            array_values: false,
            handle_arrays: true,
            tail_globals_above: types::MAX_CELLS,
            spec: None,
        }
    }
}

/// Lowers a parsed C program with the default options.
pub fn lower(unit: &ParsedUnit) -> Result<Lowered, LowerError> {
    lower_with(unit, &Options::default())
}

/// Lowers a parsed C program.
pub fn lower_with(unit: &ParsedUnit, options: &Options) -> Result<Lowered, LowerError> {
    let make = || -> Result<lower::Lowerer<'_>, LowerError> {
        let mut l = lower::Lowerer::new(unit)?;
        l.reduce = options.reduce;
        l.compress = options.compress || options.reduce;
        l.heap_budget = options.heap_budget;
        l.malloc_may_fail = options.malloc_may_fail;
        l.extern_calls = options.extern_calls;
        l.instances = options.instances.max(1);
        l.checks = options.checks;
        l.checks.spec = options.spec.is_some();
        l.spec = options.spec.clone();
        l.tails_enabled = options.tails || options.array_values;
        l.array_values = options.array_values;
        l.tail_globals_above = options.tail_globals_above;
        if !options.handle_arrays {
            l.no_handle_arrays();
        }
        Ok(l)
    };
    // Threads are lowered one after the other, so a dereference may be
    // lowered before the allocation site of an object it can reach. When
    // the program allocates, a first lowering finds the allocation sites
    // (the lowering is deterministic: the same sites in the same order),
    // and the second makes their objects up front.
    let mut probe = make()?;
    probe.probing = true;
    probe.lower_all()?;
    if probe.heap_sites.is_empty() {
        return emit::emit(probe);
    }
    probe.settle_untyped();
    let mut l = make()?;
    // The struct types the sites' objects have (known to the first
    // lowering by its end, to this one when it reaches their definitions;
    // a tag names one struct, so the indices agree).
    l.types.adopt_structs(&probe.types);
    l.heap_lengths = probe.heap_lengths.clone();
    l.untyped_types = probe.untyped_types.clone();
    l.preallocate(&probe.heap_sites)?;
    l.lower_all()?;
    emit::emit(l)
}
