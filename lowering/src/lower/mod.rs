//! The lowering proper: C declarations, statements and expressions to one
//! control-flow graph per thread instance (see [`crate::cfg`]).
//!
//! Memory is a set of objects (globals, locals per thread instance and
//! inlined call, temporaries), each flattened into scalar cells, one IR
//! variable per cell. Every object has an integer base address, so pointers
//! are integers: `&x` is a literal, and a dereference is a case split over
//! the objects whose address is taken, plus a give-up case when the pointer
//! matches none of them.

mod arrays;
mod atomics;
mod buffers;
mod call;
mod cancel;
mod capabilities;
mod cleanup;
mod condvar;
mod conventions;
mod events;
mod expr;
mod external;
mod floats;
mod fnptr;
mod guard;
mod handles;
mod heap;
mod init;
mod libc;
mod mqueue;
mod pipes;
mod scanf;
mod scopes;
mod stmt;
mod strings;
mod sync;
mod tails;
mod timed;
mod ub;
mod unions;
mod wrappers;
pub(crate) use scopes::is_data_pointer;
pub use tails::TAIL_ERROR;
pub(crate) use tails::TAIL_SPACE;
pub(crate) use ub::Ub;

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write as _;

use engine::ir::{Cond, Term, VarId};
use frontend::lang_c::ast::{
    DeclarationSpecifier, Expression, ExternalDeclaration, FunctionDefinition, InitDeclarator,
    Initializer, StorageClassSpecifier, UnaryOperator,
};
use frontend::lang_c::span::{Node, Span};
use frontend::lang_c::visit::{self, Visit};
use frontend::ParsedUnit;

use crate::cfg::{Cfg, Edge, EdgeKind, Loc, LocKind};
use crate::error::{LowerError, Result};
use crate::term::{and, Range};
use crate::types::{CType, IntTy, Types};

/// An object (index into [`Lowerer::objects`]).
pub type ObjId = usize;

/// A memory object.
#[derive(Clone, Debug)]
pub struct Object {
    /// Its C type.
    pub ty: CType,
    /// One IR variable per scalar cell.
    pub cells: Vec<VarId>,
    /// Its address (the address of cell `i` is `base + i`).
    pub base: i64,
    /// Whether pointers may point into it.
    pub addr_taken: bool,
    /// The thread instance it is local to (`None`: any thread may access it).
    pub owner: Option<usize>,
}

/// An IR variable of the lowering.
#[derive(Clone, Debug)]
pub struct VarInfo {
    /// Its name.
    pub name: String,
    /// Its initial value (`None`: any value within `range`).
    pub init: Option<i64>,
    /// The values it can hold.
    pub range: Range,
    /// Its C meaning (set after creation by the object and nondet code).
    pub meta: crate::VarMeta,
}

/// Static knowledge about a thread instance.
#[derive(Clone, Debug)]
pub struct ThreadInst {
    /// Readable name (`main`, `worker.2`).
    pub name: String,
    /// The start routine.
    pub func: String,
    /// Where it was created (none for `main`).
    pub created_at: Option<Span>,
    /// Set to 1 by `pthread_create` (none for `main`).
    pub run: Option<VarId>,
    /// The start routine's parameter object, if it has one.
    pub param: Option<ObjId>,
    /// The CFG (built when the instance is lowered).
    pub cfg: Cfg,
    /// The array of thread handles it was started through, if any.
    pub handles: Option<usize>,
}

/// The name of the threads CBMC's `__CPROVER_ASYNC_n:` spawns for a
/// statement that is not a call.
const ASYNC_THREAD: &str = "async";

/// What such a thread runs: the statement, and the scopes it sees.
type AsyncBody = (
    Node<frontend::lang_c::ast::Statement>,
    Vec<HashMap<String, Binding>>,
);

/// Fixed locations of every thread's CFG.
pub const ENTRY: Loc = 0;
/// The thread has finished.
pub const END: Loc = 1;
/// `reach_error()` was called.
pub const ERROR: Loc = 2;
/// `exit`/`abort` was called.
pub const EXIT: Loc = 3;

/// A name binding in a scope.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    Obj(ObjId),
    Enum(i128),
    /// A pointer parameter that its function never assigns nor takes the
    /// address of, called with a constant address: that address.
    Const(i64, CType),
    /// A local whose declaration is not modelled (it gave up where it is
    /// reached): a use of it is not modelled either.
    Poison(String),
    /// An array of thread handles ([`handles`]).
    Handles(usize),
}

/// An inlined function activation.
#[derive(Clone, Debug)]
struct Frame {
    func: String,
    /// Prefix of the names of its locals.
    prefix: String,
    ret: Option<ObjId>,
    exit: Loc,
    labels: HashMap<String, Loc>,
    /// Scopes of this activation (innermost last).
    scopes: Vec<HashMap<String, Binding>>,
}

/// The state of the thread being lowered.
#[derive(Debug, Default)]
struct ThreadState {
    index: usize,
    cfg: Cfg,
    cur: Option<Loc>,
    frames: Vec<Frame>,
    /// (break target, continue target, scope depth of the frame) of
    /// enclosing loops and switches.
    jumps: Vec<(Loc, Option<Loc>, usize)>,
    /// Case labels of enclosing switches, by the label's span start.
    cases: Vec<HashMap<usize, Loc>>,
    pending_havoc: Vec<VarId>,
    pending_guard: Vec<Cond>,
    /// The thread's flag "an abstracted value was observed" ([`floats`]).
    observation_flag: Option<VarId>,
    /// The clean-up handlers registered (`pthread_cleanup_push`), outermost
    /// first: their routine and argument objects ([`cleanup`]).
    cleanups: Vec<(ObjId, ObjId)>,
    /// Reads of shared cells made since the last group of edges, each with
    /// when it happens ([`crate::cfg::Edge::reads`]); the next edges carry
    /// them.
    pending_reads: Vec<(Cond, VarId)>,
    /// The waiting locations of the cancellation point being lowered
    /// (`cancel`).
    cancel_waits: Vec<Loc>,
    /// The conditions under which the operand being evaluated is evaluated
    /// (the right operand of `&&` and `||`, the arms of `?:`, evaluated
    /// without branching).
    evaluated_when: Vec<Cond>,
    /// Shared reads go through temporaries (the statement accesses shared
    /// memory more than once).
    split: bool,
    give_ups: HashMap<crate::GiveUp, Loc>,
    violations: HashMap<crate::Violated, Loc>,
    /// How many loops (not unrolled) enclose the statement being lowered:
    /// a `pthread_create` inside one may run any number of times.
    pub(crate) loops: usize,
    inline_counts: HashMap<String, usize>,
    /// Calls inlined while their function was already being inlined
    /// ([`call::MAX_RECURSIVE_INLINES`]).
    recursive_inlines: usize,
    names: HashSet<String>,
    /// Where the thread finishes (`pthread_exit`, the start routine's
    /// return): thread-specific data destructors run there.
    finish: Option<Loc>,
    /// Whether the last tail element this thread read is the tracked one
    /// ([`tails`]), once the thread reads a tail or reaches an error.
    tail_exact: Option<VarId>,
    /// Whether every tail element this thread read was the tracked one
    /// ([`tails`]), once the thread may read another.
    tail_clean: Option<VarId>,
    /// When the step being built reads a tail element other than the
    /// tracked one (it then clears [`ThreadState::tail_clean`]).
    pending_clear: Vec<Cond>,
}

/// Lowers one translation unit.
pub struct Lowerer<'a> {
    pub(crate) unit: &'a ParsedUnit,
    pub(crate) types: Types,
    pub(crate) vars: Vec<VarInfo>,
    /// Initial values beyond 64-bit literals (`unsigned long long` from
    /// 2^63 on): those variables have no `init` and the program's initial
    /// condition fixes them.
    pub(crate) big_inits: Vec<(VarId, i128)>,
    pub(crate) objects: Vec<Object>,
    next_addr: i64,
    functions: HashMap<String, &'a Node<FunctionDefinition>>,
    /// The allocation wrappers among them ([`wrappers`]).
    wrappers: wrappers::Wrappers<'a>,
    global_decls: HashMap<String, GlobalDecl<'a>>,
    globals: HashMap<String, ObjId>,
    /// Names whose address is taken somewhere (`&x`, `&x.f`, `&x[i]`).
    addr_names: HashSet<String>,
    /// Names assigned somewhere ([`AssignedNames`]).
    assigned_names: HashSet<String>,
    /// Write-only heap buffers ([`buffers`]) and their length objects.
    write_only: HashSet<String>,
    pub(crate) buffer_lengths: HashMap<String, ObjId>,
    /// Names used as values somewhere in the file.
    used_names: HashSet<String>,
    /// Names used only as arrays of thread handles ([`handles`]), the
    /// arrays made so far, and those of globals by name.
    handle_names: HashSet<String>,
    handle_arrays: Vec<handles::HandleArray>,
    global_handles: HashMap<String, usize>,
    pub(crate) threads: Vec<ThreadInst>,
    queue: VecDeque<usize>,
    t: ThreadState,
    /// The flag of atomic sections, once one is used.
    pub(crate) atomic_flag: Option<VarId>,
    /// The statements CBMC's `__CPROVER_ASYNC_n:` spawns as threads, with
    /// the scopes they see, by thread instance ([`Lowerer::new_async_thread`]).
    async_bodies: HashMap<usize, AsyncBody>,
    /// Per thread that observes an abstracted value (floating point, an
    /// uninterpreted function's result), its observation flag ([`floats`]).
    pub(crate) observation_flags: Vec<VarId>,
    thread_counts: HashMap<String, usize>,
    /// `static` locals, by declaration.
    statics: HashMap<String, ObjId>,
    /// The arrays of string literals, by text.
    literals: HashMap<String, ObjId>,
    /// Whether emission runs the reduction ([`crate::Options::reduce`]).
    pub(crate) reduce: bool,
    /// Whether emission merges thread-local steps ([`crate::Options::compress`]).
    pub(crate) compress: bool,
    /// Functions declared without a body: their specifiers and declarator
    /// (the return types of `nondet_*` functions).
    fn_decls: HashMap<String, GlobalDecl<'a>>,
    /// Objects declared `_Atomic` (their `++` and `op=` are single steps).
    pub(crate) atomic_objects: HashSet<ObjId>,
    /// Cells of pthread objects passed to the pthread API (semaphores,
    /// read-write locks, barriers, ...): not data, for the race check.
    pub(crate) sync_cells: HashSet<VarId>,
    /// Which errors the error condition holds ([`crate::Options::checks`]).
    pub(crate) checks: crate::Checks,
    /// Synchronisation objects beyond mutexes (see [`sync`]).
    sync: sync::SyncState,
    /// Per (thread, condition variable cell): whether the thread waits on
    /// it, and whether it was woken (deadlocks checked, `condvar`).
    cond_waits: HashMap<(usize, VarId), (VarId, VarId)>,
    /// The calls that acquire a mutex: the thread, the mutex's cell, the
    /// call (for deadlock traces).
    pub(crate) lock_sites: Vec<(usize, VarId, Span)>,
    /// Thread instances per `pthread_create` site inside a loop
    /// ([`crate::Options::instances`]).
    pub(crate) instances: usize,
    /// `pthread_create` sites inside loops with more than one instance.
    pub(crate) loop_sites: Vec<crate::LoopSite>,
    /// Objects per allocation site ([`crate::Options::heap_budget`]).
    pub(crate) heap_budget: usize,
    /// Whether `malloc` and `calloc` may return NULL.
    pub(crate) malloc_may_fail: bool,
    pub(crate) extern_calls: crate::ExternCalls,
    /// The specification of the order of calls, and its monitor variable
    /// once a call of its alphabet is lowered (`events`).
    pub(crate) spec: Option<crate::spec::Spec>,
    pub(crate) monitor: Option<VarId>,
    /// The heap objects and their liveness flags.
    pub(crate) heap: std::collections::BTreeMap<ObjId, VarId>,
    /// The temporaries of pointer type, with their thread instance: a
    /// pointer in flight between the steps of a statement (`crate::memtrack`).
    pub(crate) pointer_temps: Vec<(VarId, usize)>,
    /// Whether a compound literal holds a pointer (its block-scope lifetime
    /// is not followed: `crate::memtrack`).
    pub(crate) literals_with_pointers: bool,
    /// Variable-length arrays: per object, the variable holding its length
    /// and the cells of one element (an access past the length gives up).
    pub(crate) lengths: std::collections::BTreeMap<ObjId, (VarId, u64)>,
    /// The allocation sites met so far, in order: name, type, objects
    /// (made up front when a first lowering found them, see
    /// [`crate::lower_with`]).
    pub(crate) heap_sites: Vec<(String, CType, Vec<ObjId>)>,
    /// The allocation sites of a run-time length (their objects get a
    /// length variable, [`Lowerer::lengths`]).
    pub(crate) heap_lengths: HashSet<String>,
    /// How many allocation sites this lowering has met.
    pub(crate) sites_met: usize,
    /// The first of the two lowerings of a program that allocates
    /// (`crate::lower_with`): it finds the allocation sites and the types
    /// of allocations of unknown type.
    pub(crate) probing: bool,
    /// In the first lowering: the variables that carry the result of an
    /// allocation of unknown type, and its site.
    pub(crate) untyped_carriers: HashMap<VarId, usize>,
    /// Per allocation site of unknown type: the element type its result is
    /// stored as ([`heap`]).
    pub(crate) untyped_types: HashMap<usize, CType>,
    /// The heap objects of the allocation call lowered last at each start
    /// in the parsed text, and the sites (by their first object) named
    /// after the variable that first held them ([`Lowerer::name_heap`]).
    pub(crate) alloc_calls: HashMap<usize, Vec<ObjId>>,
    pub(crate) named_sites: HashSet<ObjId>,
    /// Per heap object, the block for users: the allocation call and its
    /// line, and the lvalue that first held it ("the block `malloc`'d at
    /// pool.c:12, `pool`").
    pub(crate) blocks: HashMap<ObjId, String>,
    /// The addresses of the functions used as values.
    pub(crate) fn_addrs: std::collections::BTreeMap<String, i64>,
    /// The heap objects with a tail ([`tails`]).
    pub(crate) tails: std::collections::BTreeMap<ObjId, tails::Tail>,
    /// The C types of the global arrays modelled as tails (their objects
    /// have one cell).
    pub(crate) tail_globals: HashMap<ObjId, CType>,
    /// Conditions on the initial state (a global tail's tracked index).
    pub(crate) init_conds: Vec<Cond>,
    /// Array types of any size (a global tail's, before it is one).
    uncap: bool,
    /// Global arrays of more elements are tails ([`crate::Options`]).
    pub(crate) tail_globals_above: u64,
    /// Set when a tail is allocated, once some object may have one.
    pub(crate) tail_used: Option<VarId>,
    /// Every thread's flag "each tail element read was the tracked one"
    /// ([`tails`]).
    pub(crate) tail_clean: Vec<VarId>,
    /// The error edges split by [`tails`]: (thread, the give-up location
    /// standing for an error reached once a tail is allocated, the error or
    /// violation location it stands for). `emit` sends such an edge to the
    /// latter when every thread read tracked elements only.
    pub(crate) tail_redirects: Vec<(usize, Loc, Loc)>,
    /// Whether heap arrays of run-time length get tails
    /// ([`crate::Options::tails`]).
    pub(crate) tails_enabled: bool,
    /// Whether every tail is an IR array, all of it exact
    /// ([`crate::Options::array_values`]).
    pub(crate) array_values: bool,
    /// The IR arrays (of the tails, with [`Lowerer::array_values`]).
    pub(crate) arrays: Vec<engine::ir::ArrayDecl>,
    /// Clang's thread-safety annotations and their checks ([`capabilities`]).
    pub(crate) caps: capabilities::CapState,
    /// The pipes made so far, and whether the program calls `pipe`
    /// ([`pipes`]).
    pipes: Vec<pipes::Pipe>,
    /// Per thread instance, its cancellation flags (pending, disabled;
    /// `cancel`).
    pub(crate) cancel_flags: HashMap<usize, (VarId, VarId)>,
    /// Whether the program calls a function (`Lowerer::program_calls`).
    program_calls: HashMap<&'static str, bool>,
    /// The message queues named and opened so far ([`mqueue`]).
    queues: mqueue::Queues,
}

#[derive(Clone, Debug)]
struct GlobalDecl<'a> {
    specs: &'a [Node<DeclarationSpecifier>],
    decl: &'a Node<InitDeclarator>,
    thread_local: bool,
}

/// First address of objects (0 is `NULL`; small integers cast to pointers
/// stay below every object).
const FIRST_ADDRESS: i64 = 1000;

/// Collects the names whose address is taken; the second field holds the
/// functions the program defines (their `&x` arguments always count).
struct AddrNames<'n>(&'n mut HashSet<String>, &'n HashSet<String>);

impl<'ast> Visit<'ast> for AddrNames<'_> {
    fn visit_call_expression(
        &mut self,
        c: &'ast frontend::lang_c::ast::CallExpression,
        span: &'ast Span,
    ) {
        // `&x` as an argument of an atomic or synchronisation builtin names
        // `x` itself (`Lowerer::arg_place`); its address does not escape.
        let builtin = matches!(&c.callee.node, Expression::Identifier(id)
            if (atomics::is_atomic_builtin(&id.node.name) || sync::is_sync_builtin(&id.node.name))
                && !self.1.contains(&id.node.name));
        if !builtin {
            return visit::visit_call_expression(self, c, span);
        }
        for a in &c.arguments {
            let direct = matches!(&a.node, Expression::UnaryOperator(u)
                if u.node.operator.node == UnaryOperator::Address
                    && matches!(u.node.operand.node, Expression::Identifier(_)));
            if !direct {
                self.visit_expression(&a.node, &a.span);
            }
        }
    }

    fn visit_unary_operator_expression(
        &mut self,
        e: &'ast frontend::lang_c::ast::UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        if e.operator.node == UnaryOperator::Address {
            let mut x = &e.operand.node;
            loop {
                match x {
                    Expression::Identifier(id) => {
                        self.0.insert(id.node.name.clone());
                        break;
                    }
                    Expression::Member(m) => x = &m.node.expression.node,
                    Expression::BinaryOperator(b) => x = &b.node.lhs.node,
                    _ => break,
                }
            }
        }
        visit::visit_unary_operator_expression(self, e, span);
    }
}

/// Collects the names that are assigned (`=`, compound assignments,
/// `++`, `--`) somewhere.
struct AssignedNames<'n>(&'n mut HashSet<String>);

impl<'ast> Visit<'ast> for AssignedNames<'_> {
    fn visit_binary_operator_expression(
        &mut self,
        e: &'ast frontend::lang_c::ast::BinaryOperatorExpression,
        span: &'ast Span,
    ) {
        use frontend::lang_c::ast::BinaryOperator as B;
        let assigns = matches!(
            e.operator.node,
            B::Assign
                | B::AssignMultiply
                | B::AssignDivide
                | B::AssignModulo
                | B::AssignPlus
                | B::AssignMinus
                | B::AssignShiftLeft
                | B::AssignShiftRight
                | B::AssignBitwiseAnd
                | B::AssignBitwiseXor
                | B::AssignBitwiseOr
        );
        if let (true, Expression::Identifier(id)) = (assigns, &e.lhs.node) {
            self.0.insert(id.node.name.clone());
        }
        visit::visit_binary_operator_expression(self, e, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        e: &'ast frontend::lang_c::ast::UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        let steps = matches!(
            e.operator.node,
            UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement
                | UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement
        );
        if let (true, Expression::Identifier(id)) = (steps, &e.operand.node) {
            self.0.insert(id.node.name.clone());
        }
        visit::visit_unary_operator_expression(self, e, span);
    }
}

impl<'a> Lowerer<'a> {
    /// Collects the file's declarations.
    pub fn new(unit: &'a ParsedUnit) -> Result<Self> {
        let mut me = Lowerer {
            unit,
            types: Types::new(unit.data_model),
            vars: Vec::new(),
            big_inits: Vec::new(),
            objects: Vec::new(),
            next_addr: FIRST_ADDRESS,
            functions: HashMap::new(),
            wrappers: Default::default(),
            global_decls: HashMap::new(),
            globals: HashMap::new(),
            addr_names: HashSet::new(),
            assigned_names: HashSet::new(),
            write_only: HashSet::new(),
            buffer_lengths: HashMap::new(),
            used_names: HashSet::new(),
            handle_names: HashSet::new(),
            handle_arrays: Vec::new(),
            global_handles: HashMap::new(),
            threads: Vec::new(),
            queue: VecDeque::new(),
            t: ThreadState::default(),
            atomic_flag: None,
            async_bodies: HashMap::new(),
            observation_flags: Vec::new(),
            tail_globals: HashMap::new(),
            init_conds: Vec::new(),
            uncap: false,
            tail_globals_above: crate::types::MAX_CELLS,
            thread_counts: HashMap::new(),
            statics: HashMap::new(),
            literals: HashMap::new(),
            reduce: true,
            compress: true,
            fn_decls: HashMap::new(),
            atomic_objects: HashSet::new(),
            sync_cells: HashSet::new(),
            checks: crate::Checks::default(),
            sync: sync::SyncState::default(),
            cond_waits: HashMap::new(),
            lock_sites: Vec::new(),
            instances: crate::Options::default().instances,
            loop_sites: Vec::new(),
            heap_budget: crate::Options::default().heap_budget,
            malloc_may_fail: false,
            extern_calls: crate::ExternCalls::GiveUp,
            spec: None,
            monitor: None,
            heap: Default::default(),
            pointer_temps: Vec::new(),
            literals_with_pointers: false,
            lengths: Default::default(),
            heap_sites: Vec::new(),
            heap_lengths: HashSet::new(),
            sites_met: 0,
            probing: false,
            untyped_carriers: HashMap::new(),
            untyped_types: HashMap::new(),
            alloc_calls: HashMap::new(),
            named_sites: HashSet::new(),
            fn_addrs: Default::default(),
            tails: Default::default(),
            tail_used: None,
            tail_clean: Vec::new(),
            tail_redirects: Vec::new(),
            tails_enabled: true,
            array_values: false,
            arrays: Vec::new(),
            caps: capabilities::CapState::default(),
            blocks: HashMap::new(),
            pipes: Vec::new(),
            program_calls: HashMap::new(),
            cancel_flags: HashMap::new(),
            queues: mqueue::Queues::default(),
        };
        let mut defined = Vec::new();
        for ext in &unit.unit.0 {
            match &ext.node {
                ExternalDeclaration::FunctionDefinition(f) => {
                    if let Some(name) = declarator_name(&f.node.declarator.node) {
                        me.functions.insert(name, f);
                    }
                    defined.push(f);
                }
                ExternalDeclaration::Declaration(d) => me.file_declaration(&d.node)?,
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        let names: HashSet<String> = me.functions.keys().cloned().collect();
        me.write_only = buffers::write_only_buffers(defined.iter().copied());
        let functions = me.functions.clone();
        let size_max = me.types.long(false).max();
        me.wrappers = wrappers::Wrappers::find(&functions, |def| me.params(def).ok(), size_max);
        me.handle_names = handles::handle_names(&unit.unit, &me.wrappers);
        for f in defined {
            AddrNames(&mut me.addr_names, &names).visit_function_definition(&f.node, &f.span);
            AssignedNames(&mut me.assigned_names).visit_function_definition(&f.node, &f.span);
        }
        let mut used = HashSet::new();
        fnptr::ValueNames(&mut used).visit_translation_unit(&unit.unit);
        me.function_addresses(&used);
        me.used_names = used;
        Ok(me)
    }

    fn file_declaration(&mut self, d: &'a frontend::lang_c::ast::Declaration) -> Result<()> {
        let is = |c: StorageClassSpecifier| {
            d.specifiers
                .iter()
                .any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(x) if x.node == c))
        };
        let specs = Types::specifiers(&d.specifiers);
        if is(StorageClassSpecifier::Typedef) {
            // Header typedefs the program never uses may be unsupported: only
            // a use reports them.
            let Ok(base) = self.base_type(&specs, Span::none()) else {
                return Ok(());
            };
            for id in &d.declarators {
                if let Ok((Some(name), ty)) =
                    self.declarator_type(base.clone(), &id.node.declarator.node)
                {
                    if atomics::declares_atomic(
                        &self.types,
                        &d.specifiers,
                        &id.node.declarator.node,
                    )
                    .unwrap_or(false)
                    {
                        self.types.atomic_typedefs.insert(name.clone());
                    }
                    self.types.typedefs.insert(name, ty);
                }
            }
            return Ok(());
        }
        // Enumerators and struct tags of declarations without declarators.
        if d.declarators.is_empty() {
            let _ = self.base_type(&specs, Span::none());
            return Ok(());
        }
        let thread_local = is(StorageClassSpecifier::ThreadLocal);
        for id in &d.declarators {
            let Some(name) = declarator_name(&id.node.declarator.node) else {
                continue;
            };
            if crate::annotations::is_function(&id.node.declarator.node) {
                self.fn_decls.insert(
                    name,
                    GlobalDecl {
                        specs: &d.specifiers,
                        decl: id,
                        thread_local: false,
                    },
                );
                continue;
            }
            let keep = match self.global_decls.get(&name) {
                None => true,
                Some(old) => old.decl.node.initializer.is_none(),
            };
            if keep && !(is(StorageClassSpecifier::Extern) && self.global_decls.contains_key(&name))
            {
                self.global_decls.insert(
                    name,
                    GlobalDecl {
                        specs: &d.specifiers,
                        decl: id,
                        thread_local,
                    },
                );
            }
        }
        Ok(())
    }

    pub(crate) fn base_type(
        &mut self,
        specs: &[frontend::lang_c::ast::TypeSpecifier],
        span: Span,
    ) -> Result<CType> {
        if let Some(t) = self.typeof_specifier(specs, span)? {
            return Ok(t);
        }
        self.types.base_type(specs.iter(), span)
    }

    pub(crate) fn declarator_type(
        &mut self,
        base: CType,
        d: &frontend::lang_c::ast::Declarator,
    ) -> Result<(Option<String>, CType)> {
        self.types.uncapped =
            self.uncap || declarator_name(d).is_some_and(|n| self.is_handle_name(&n));
        let declared = self.types.declarator(base, d);
        self.types.uncapped = false;
        declared
    }

    pub(crate) fn type_name(&mut self, t: &Node<frontend::lang_c::ast::TypeName>) -> Result<CType> {
        self.types.type_name(t)
    }

    /// A new IR variable.
    pub(crate) fn var(&mut self, name: String, init: Option<i64>, range: Range) -> VarId {
        self.vars.push(VarInfo {
            name,
            init,
            range,
            meta: crate::VarMeta {
                c_name: None,
                origin: crate::VarOrigin::Internal,
                int_type: None,
                heap: false,
                float: false,
                tag: false,
                members: Vec::new(),
            },
        });
        VarId::new(self.vars.len() - 1)
    }

    /// A fresh, unique name in the current thread (`base`, `base.2`, …).
    pub(crate) fn unique(&mut self, base: &str) -> String {
        fresh_name(base, &mut self.t.names)
    }

    /// A new object of a type; its cells start at `init` (or any value of
    /// their type when `None`).
    pub(crate) fn object(
        &mut self,
        name: &str,
        ty: CType,
        init: Option<i64>,
        span: Span,
    ) -> Result<ObjId> {
        if self.types.atomic_members(&ty) {
            return Err(LowerError::unsupported(
                span,
                "`_Atomic` struct members are not supported",
            ));
        }
        let mut scalars = Vec::new();
        self.types.flatten(&ty, &mut scalars);
        let mut cells = Vec::new();
        for (i, s) in scalars.iter().enumerate() {
            let range = self.scalar_range(s);
            let cname = if scalars.len() == 1 {
                name.to_string()
            } else {
                format!("{name}.{i}")
            };
            cells.push(self.var(cname, init, range));
        }
        let base = self.next_addr;
        self.next_addr += scalars.len() as i64 + 1;
        self.objects.push(Object {
            ty,
            cells,
            base,
            addr_taken: false,
            owner: Some(self.t.index),
        });
        Ok(self.objects.len() - 1)
    }

    /// Records the C meaning of an object's cells: `name`, `name[i]`,
    /// `name.f` (same order as [`Types::flatten`]), owned by a thread
    /// instance (`None`: shared) and a function (`None`: file scope).
    pub(crate) fn name_object(
        &mut self,
        o: ObjId,
        name: &str,
        thread: Option<usize>,
        function: Option<String>,
    ) {
        let ty = self.objects[o].ty.clone();
        let mut paths = Vec::new();
        self.cell_paths(&ty, name.to_string(), &mut paths);
        let cells = self.objects[o].cells.clone();
        for (cell, (path, cty)) in cells.into_iter().zip(paths) {
            self.vars[cell.index()].meta = crate::VarMeta {
                c_name: Some(path),
                origin: crate::VarOrigin::Object {
                    thread,
                    function: function.clone(),
                    mutex: cty == CType::Mutex,
                },
                int_type: match cty {
                    CType::Int(i) => Some(crate::CInt {
                        bits: i.bits,
                        signed: i.signed,
                    }),
                    _ => None,
                },
                heap: self.heap.contains_key(&o),
                float: matches!(cty, CType::Float(_)),
                tag: false,
                members: Vec::new(),
            };
        }
        let cells = self.objects[o].cells.clone();
        for (off, &cell) in cells.iter().enumerate() {
            let members = unions::enclosing(&self.types, &ty, off as u64, &(0..0))
                .into_iter()
                .map(|u| (cells[u.tag as usize], u.code))
                .collect();
            self.vars[cell.index()].meta.members = members;
        }
        let mut tags = Vec::new();
        unions::tags(&self.types, &ty, 0, &mut tags);
        for off in tags {
            let cell = self.objects[o].cells[off as usize];
            self.vars[cell.index()].meta.tag = true;
        }
    }

    /// Names the heap objects of the allocation call `e` (under casts)
    /// after `holder`, the C lvalue first assigned its result: `*p`,
    /// `p->f`, `p[i]` (with the block's number when the call hands out
    /// several), once per call.
    pub(crate) fn name_heap(&mut self, e: &Node<Expression>, holder: &str) {
        let mut e = e;
        while let Expression::Cast(c) = &e.node {
            e = &c.node.expression;
        }
        let Expression::Call(_) = &e.node else { return };
        let Some(objs) = self.alloc_calls.get(&e.span.start).cloned() else {
            return;
        };
        if !objs.first().is_some_and(|&o| self.named_sites.insert(o)) {
            return;
        }
        let holder: String = holder.split_whitespace().collect::<Vec<_>>().join(" ");
        let simple = holder
            .chars()
            .all(|c| c.is_alphanumeric() || "_.[]->".contains(c));
        let base = if simple {
            holder
        } else {
            format!("({holder})")
        };
        let several = objs.len() > 1;
        for (i, o) in objs.into_iter().enumerate() {
            if let Some(b) = self.blocks.get_mut(&o) {
                let _ = write!(b, ", `{base}`");
            }
            let ty = self.objects[o].ty.clone();
            let mut paths = Vec::new();
            match &ty {
                CType::Struct(s) => {
                    for (f, fty, _) in &self.types.structs[*s].fields {
                        self.cell_paths(fty, format!("{base}->{f}"), &mut paths);
                    }
                }
                CType::Array(..) => self.cell_paths(&ty, base.clone(), &mut paths),
                _ => paths.push((format!("*{base}"), ty.clone())),
            }
            let cells = self.objects[o].cells.clone();
            for (cell, (path, _)) in cells.into_iter().zip(paths) {
                let path = if several {
                    format!("{path} (block {})", i + 1)
                } else {
                    path
                };
                self.vars[cell.index()].meta.c_name = Some(path);
            }
        }
    }

    fn cell_paths(&self, ty: &CType, path: String, out: &mut Vec<(String, CType)>) {
        match ty {
            CType::Array(e, n) => {
                for i in 0..*n {
                    self.cell_paths(e, format!("{path}[{i}]"), out);
                }
            }
            CType::Struct(s) => {
                let def = &self.types.structs[*s];
                for (f, fty, _) in &def.fields {
                    // An anonymous member's members are the struct's.
                    let sub = if f.is_empty() {
                        path.clone()
                    } else {
                        format!("{path}.{f}")
                    };
                    self.cell_paths(fty, sub, out);
                }
                if def.union {
                    // The tag: named after the union.
                    out.push((path, CType::Int(crate::types::IntTy::INT)));
                }
            }
            t => out.push((path, t.clone())),
        }
    }

    /// The values a cell of a scalar type holds.
    pub(crate) fn scalar_range(&self, ty: &CType) -> Range {
        match ty {
            CType::Int(i) => Range::new(i.min(), i.max()),
            CType::Ptr(_) => Range::new(0, tails::POINTER_MAX.into()),
            CType::Mutex | CType::ThreadHandle => Range::new(0, 1 << 20),
            CType::CondVar | CType::Opaque(_) => Range::new(0, 0),
            CType::Float(_) => Range::new(0, 0),
            CType::Void | CType::Func | CType::Array(..) | CType::Struct(_) => Range::ALL,
        }
    }

    /// The object of a global, created on first use.
    pub(crate) fn global(&mut self, name: &str) -> Result<Option<ObjId>> {
        if let Some(&o) = self.globals.get(name) {
            if !self.global_decls.get(name).is_some_and(|d| d.thread_local) {
                return Ok(Some(o));
            }
        }
        let Some(g) = self.global_decls.get(name).cloned() else {
            return Ok(None);
        };
        if g.thread_local {
            // One copy per thread instance: a per-thread binding.
            let key = format!("{}#{name}", self.t.index);
            if let Some(&o) = self.globals.get(&key) {
                return Ok(Some(o));
            }
            let o = self.create_global(name, &g)?;
            self.globals.insert(key, o);
            return Ok(Some(o));
        }
        let o = self.create_global(name, &g)?;
        self.globals.insert(name.to_string(), o);
        Ok(Some(o))
    }

    /// The array of thread handles a global name declares, if it is one
    /// ([`handles`]; made at its first use).
    fn global_handle_array(&mut self, name: &str) -> Result<Option<usize>> {
        if let Some(&h) = self.global_handles.get(name) {
            return Ok(Some(h));
        }
        if !self.is_handle_name(name) {
            return Ok(None);
        }
        let Some(g) = self.global_decls.get(name).cloned() else {
            return Ok(None);
        };
        let vname = sanitize(self.unit.display_name(name));
        let h = match self.global_type(&g)? {
            CType::Array(_, n) => self.handle_array(&vname, Term::Const(n as i64)),
            // A pointer that is null until it is assigned an allocation.
            ty if self.is_handle_pointer(name, &ty) && !g.thread_local && self.null_init(&g) => {
                self.handle_pointer(&vname, true)
            }
            _ => return Ok(None),
        };
        self.global_handles.insert(name.to_string(), h);
        Ok(Some(h))
    }

    /// Whether a global is initialised to 0 (no initializer, or one whose
    /// value is 0).
    fn null_init(&mut self, g: &GlobalDecl<'a>) -> bool {
        match &g.decl.node.initializer {
            None => true,
            Some(init) => self.zero_initializer(init),
        }
    }

    /// Whether an initializer sets every value to 0 (`{0}`, `{}`, `{0, 0}`,
    /// nested lists of zeros): the same as none for a static object.
    pub(crate) fn zero_initializer(&mut self, init: &Node<Initializer>) -> bool {
        match &init.node {
            Initializer::Expression(e) => self.const_value(e).is_ok_and(|v| v == 0),
            Initializer::List(items) => items
                .iter()
                .all(|item| self.zero_initializer(&item.node.initializer)),
        }
    }

    /// An array of integers or pointers (or structs or arrays of them) too
    /// large for one variable per element, static (zero at the start: no initializer or zeros), when
    /// it can be a tail ([`tails`]): its element type and length.
    pub(crate) fn big_static_array(
        &mut self,
        ty: &CType,
        init: Option<&Node<Initializer>>,
    ) -> Option<(CType, u64)> {
        if init.is_some_and(|i| !self.zero_initializer(i)) {
            return None;
        }
        let CType::Array(elem, n) = ty else {
            return None;
        };
        let cells = n.saturating_mul(self.types.cells(elem));
        let big = cells > self.tail_globals_above && (*n as i64) <= self.tail_max_length(elem);
        (big && self.tail_capable(elem)).then(|| ((**elem).clone(), *n))
    }

    /// The type of a global (an array of unspecified size takes the size of
    /// its initializer list).
    fn global_type(&mut self, g: &GlobalDecl<'a>) -> Result<CType> {
        let specs = Types::specifiers(g.specs);
        let base = self.base_type(&specs, g.decl.span)?;
        let (_, ty) = self.declarator_type(base, &g.decl.node.declarator.node)?;
        self.complete_array(ty, g.decl.node.initializer.as_ref())
    }

    fn create_global(&mut self, name: &str, g: &GlobalDecl<'a>) -> Result<ObjId> {
        if let Some((elem, n)) = self.big_global_array(g)? {
            return self.create_tail_global(name, g, elem, n);
        }
        let ty = self.global_type(g)?;
        let vname = self.global_var_name(name, g);
        let o = self.object(&vname, ty.clone(), Some(0), g.decl.span)?;
        let c_name = self.unit.display_name(name).to_string();
        self.name_object(o, &c_name, None, None);
        self.mark_atomic(o, g.specs, &g.decl.node.declarator.node)?;
        if !g.thread_local {
            self.objects[o].owner = None;
        }
        self.note_address_taken(o, name);
        if let Some(init) = &g.decl.node.initializer {
            let mut values = Vec::new();
            self.const_initializer(&ty, init, &mut values)?;
            self.set_initial_values(o, values);
        }
        Ok(o)
    }

    /// A global array of integers or pointers too large for one variable
    /// per element (`int a[100000];`, no initializer: zero), when it can
    /// be a tail ([`tails`]): its element type and length.
    fn big_global_array(&mut self, g: &GlobalDecl<'a>) -> Result<Option<(CType, u64)>> {
        if g.thread_local {
            return Ok(None);
        }
        self.uncap = true;
        let ty = self.global_type(g);
        self.uncap = false;
        let Ok(ty) = ty else {
            return Ok(None);
        };
        Ok(self.big_static_array(&ty, g.decl.node.initializer.as_ref()))
    }

    /// A global array of `n` elements of `elem` as a tail: its element
    /// `k`, any below `n`, is kept exactly (zero at the start), the others
    /// read as any value (SOUNDNESS.md, "Heap arrays of run-time length").
    fn create_tail_global(
        &mut self,
        name: &str,
        g: &GlobalDecl<'a>,
        elem: CType,
        n: u64,
    ) -> Result<ObjId> {
        let vname = self.global_var_name(name, g);
        self.create_tail_static(name, &vname, None, g.decl.span, elem, n)
    }

    /// A static array (a global, or a `static` local of `func`) as a tail;
    /// its IR name `vname`.
    pub(crate) fn create_tail_static(
        &mut self,
        name: &str,
        vname: &str,
        func: Option<String>,
        span: Span,
        elem: CType,
        n: u64,
    ) -> Result<ObjId> {
        self.create_tail_array(name, vname, None, func, span, elem, n)
    }

    /// An array of `n` elements of `elem` as a tail whose one object lives
    /// for the whole program: static (`thread` none), or a local of
    /// `thread` declared once (the caller checks).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn create_tail_array(
        &mut self,
        name: &str,
        vname: &str,
        thread: Option<usize>,
        func: Option<String>,
        span: Span,
        elem: CType,
        n: u64,
    ) -> Result<ObjId> {
        let cell = CType::Array(Box::new(elem.clone()), 1);
        let o = self.object(vname, cell, Some(0), span)?;
        let c_name = self.unit.display_name(name).to_string();
        self.name_object(o, &c_name, thread, func);
        if thread.is_none() {
            self.objects[o].owner = None;
        }
        self.note_address_taken(o, name);
        self.make_tail(o, vname, span)?;
        // Zeros, as a static object's; a local's contents are set by its
        // declaration.
        self.set_array_contents(o, true);
        let tail = self.tails[&o];
        self.vars[tail.length.index()].init = Some(n as i64);
        self.vars[tail.index.index()].init = None;
        let k = Term::Var(tail.index);
        self.init_conds
            .push(crate::term::within(&k, 0, i128::from(n) - 1));
        if let Some(used) = self.tail_used {
            self.vars[used.index()].init = Some(1);
        }
        self.tail_globals.insert(o, CType::Array(Box::new(elem), n));
        Ok(o)
    }

    /// The IR name of a global's object.
    fn global_var_name(&self, name: &str, g: &GlobalDecl<'a>) -> String {
        let vname = if g.thread_local {
            format!(
                "{}.{}",
                self.threads[self.t.index].name,
                self.unit.display_name(name).replace('$', "_")
            )
        } else {
            sanitize(self.unit.display_name(name))
        };
        if self.vars.iter().any(|v| v.name == vname) {
            format!("{vname}.g")
        } else {
            vname
        }
    }

    /// A constant expression's value (integers, enum constants, `sizeof`,
    /// addresses of globals).
    pub(crate) fn const_value(&mut self, e: &Node<Expression>) -> Result<i128> {
        if let Expression::StringLiteral(lit) = &e.node {
            let v = self.string_literal(&lit.node, e.span)?;
            return Ok(v
                .constant()
                .expect("a literal's address is a constant")
                .into());
        }
        // A function designator, `f` or `&f`: the function's address.
        let function = |e: &Expression| match e {
            Expression::Identifier(id) => self.fn_addrs.get(&id.node.name).copied(),
            _ => None,
        };
        if let Some(a) = function(&e.node) {
            return Ok(a.into());
        }
        if let Expression::UnaryOperator(u) = &e.node {
            if u.node.operator.node == UnaryOperator::Address {
                if let Some(a) = function(&u.node.operand.node) {
                    return Ok(a.into());
                }
                if let Expression::Identifier(id) = &u.node.operand.node {
                    if let Some(o) = self.global(&id.node.name)? {
                        self.objects[o].addr_taken = true;
                        return Ok(self.objects[o].base.into());
                    }
                }
            }
        }
        const_expr(&mut self.types, e)
    }

    /// Lowers every thread instance (without emitting the program).
    pub(crate) fn lower_all(&mut self) -> Result<()> {
        if !self.functions.contains_key("main") {
            return Err(LowerError::invalid(
                Span::none(),
                "the program has no `main` function",
            ));
        }
        self.read_annotations();
        self.create_pointed_globals();
        self.threads.push(ThreadInst {
            name: "main".into(),
            func: "main".into(),
            created_at: None,
            run: None,
            param: None,
            cfg: Cfg::default(),
            handles: None,
        });
        self.queue.push_back(0);
        while let Some(k) = self.queue.pop_front() {
            self.lower_thread(k)?;
        }
        Ok(())
    }

    /// Creates, in declaration order, the used globals pointers may point
    /// into (their address is taken, or they are arrays) before any thread
    /// is lowered. Globals are otherwise created at their first use, and a
    /// dereference's cases are the objects that exist when it is lowered:
    /// the instances of a thread created in a loop would then be lowered
    /// differently (the first one before a global its code uses later).
    /// A global whose creation fails is left to its first use, which
    /// reports the error.
    fn create_pointed_globals(&mut self) {
        let unit = self.unit;
        let mut seen = HashSet::new();
        for ext in &unit.unit.0 {
            let ExternalDeclaration::Declaration(d) = &ext.node else {
                continue;
            };
            for i in &d.node.declarators {
                let Some(name) = declarator_name(&i.node.declarator.node) else {
                    continue;
                };
                let Some(g) = self.global_decls.get(&name).cloned() else {
                    continue;
                };
                if g.thread_local
                    || !self.used_names.contains(&name)
                    || self.is_handle_name(&name)
                    || !seen.insert(name.clone())
                {
                    continue;
                }
                let pointed = self.addr_names.contains(&name)
                    || self
                        .global_type(&g)
                        .is_ok_and(|ty| matches!(ty, CType::Array(..)));
                if pointed {
                    let _ = self.global(&name);
                }
            }
        }
    }

    /// Registers a new thread instance of `func`, to be lowered later.
    pub(crate) fn new_thread(&mut self, func: &str, span: Span) -> Result<usize> {
        let Some(def) = self.functions.get(func).copied() else {
            return Err(LowerError::unsupported(
                span,
                format!("thread start routine `{func}` has no definition"),
            ));
        };
        let n = self.thread_counts.entry(func.to_string()).or_insert(0);
        *n += 1;
        let name = format!("{}.{}", sanitize(func), n);
        let run = self.var(format!("{name}.run"), Some(0), Range::new(0, 1));
        let params = self.params(def)?;
        let param = match params.as_slice() {
            [] => None,
            [(pname, ty)] => {
                let pname = pname.clone().unwrap_or_else(|| "arg".into());
                let o = self.object(
                    &format!("{name}.{}", sanitize(&pname)),
                    ty.clone(),
                    Some(0),
                    span,
                )?;
                // Written by the creating thread, read by the new one.
                self.objects[o].owner = None;
                let k = self.threads.len();
                self.name_object(o, &pname, Some(k), Some(func.to_string()));
                Some(o)
            }
            _ => {
                return Err(LowerError::unsupported(
                    span,
                    "a thread start routine takes one parameter",
                ))
            }
        };
        self.threads.push(ThreadInst {
            name,
            func: func.to_string(),
            created_at: Some(span),
            run: Some(run),
            param,
            cfg: Cfg::default(),
            handles: None,
        });
        let k = self.threads.len() - 1;
        self.queue.push_back(k);
        Ok(k)
    }

    /// A thread instance running `body`, a statement of the current
    /// function (CBMC's `__CPROVER_ASYNC_n:` on a statement that is not a
    /// call): it sees the locals in scope where it is spawned, which
    /// become shared objects.
    pub(crate) fn new_async_thread(
        &mut self,
        body: &Node<frontend::lang_c::ast::Statement>,
        span: Span,
    ) -> usize {
        let n = self
            .thread_counts
            .entry(ASYNC_THREAD.to_string())
            .or_insert(0);
        *n += 1;
        let name = format!("{ASYNC_THREAD}.{n}");
        let run = self.var(format!("{name}.run"), Some(0), Range::new(0, 1));
        let frame = self.t.frames.last().expect("a frame");
        let (func, scopes) = (frame.func.clone(), frame.scopes.clone());
        for b in scopes.iter().flat_map(|s| s.values()) {
            if let Binding::Obj(o) = b {
                self.objects[*o].owner = None;
            }
        }
        self.threads.push(ThreadInst {
            name,
            func,
            created_at: Some(span),
            run: Some(run),
            param: None,
            cfg: Cfg::default(),
            handles: None,
        });
        let k = self.threads.len() - 1;
        self.async_bodies.insert(k, (body.clone(), scopes));
        self.queue.push_back(k);
        k
    }

    /// Parameter names and types of a function definition.
    pub(crate) fn params(
        &mut self,
        def: &Node<FunctionDefinition>,
    ) -> Result<Vec<(Option<String>, CType)>> {
        use frontend::lang_c::ast::DerivedDeclarator;
        let d = &def.node.declarator.node;
        let Some(f) = d.derived.iter().find_map(|dd| match &dd.node {
            DerivedDeclarator::Function(f) => Some(f),
            _ => None,
        }) else {
            if d.derived
                .iter()
                .any(|dd| matches!(dd.node, DerivedDeclarator::KRFunction(ref v) if !v.is_empty()))
            {
                return Err(LowerError::unsupported(
                    def.span,
                    "K&R-style parameter lists are not supported",
                ));
            }
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for p in &f.node.parameters {
            let specs = Types::specifiers(&p.node.specifiers);
            let base = self.base_type(&specs, p.span)?;
            let (name, ty) = match &p.node.declarator {
                Some(d) => self.declarator_type(base, &d.node)?,
                None => (None, base),
            };
            if ty == CType::Void && name.is_none() {
                continue;
            }
            let ty = match ty {
                CType::Array(e, _) => CType::Ptr(e),
                CType::Func => CType::Ptr(Box::new(CType::Func)),
                t => t,
            };
            out.push((name, ty));
        }
        Ok(out)
    }

    /// The return type of a function definition.
    pub(crate) fn return_type(&mut self, def: &Node<FunctionDefinition>) -> Result<CType> {
        let specs = Types::specifiers(&def.node.specifiers);
        let base = self.base_type(&specs, def.span)?;
        let mut d = def.node.declarator.node.clone();
        // Drop the function declarator itself; what remains (pointers)
        // applies to the return type.
        if let Some(pos) = d.derived.iter().position(|dd| {
            matches!(
                dd.node,
                frontend::lang_c::ast::DerivedDeclarator::Function(_)
                    | frontend::lang_c::ast::DerivedDeclarator::KRFunction(_)
            )
        }) {
            d.derived.remove(pos);
        }
        Ok(self.declarator_type(base, &d)?.1)
    }

    fn lower_thread(&mut self, k: usize) -> Result<()> {
        let inst = self.threads[k].clone();
        let def = self.functions[&inst.func];
        let spawned = self.async_bodies.remove(&k);
        self.t = ThreadState {
            index: k,
            ..ThreadState::default()
        };
        let entry = self.t.cfg.loc(LocKind::Normal, Some(def.span));
        let end = self.t.cfg.loc(LocKind::End, None);
        let error = self.t.cfg.loc(LocKind::Error, None);
        let exit = self.t.cfg.loc(LocKind::Exit, None);
        debug_assert_eq!((entry, end, error, exit), (ENTRY, END, ERROR, EXIT));
        let body = self
            .t
            .cfg
            .loc(LocKind::Normal, Some(def.node.statement.span));
        match inst.run {
            Some(run) => {
                self.t.cfg.locs[ENTRY].blocking = true;
                self.t.cfg.waits_to_start = true;
                let mut start = Edge::new(
                    ENTRY,
                    body,
                    crate::term::cmp(engine::ir::CmpOp::Eq, Term::Var(run), Term::Const(1)),
                    vec![],
                );
                start.span = inst.created_at;
                self.t.cfg.edge(start);
            }
            None => self.plain_edge(ENTRY, body, Cond::True, vec![], None),
        }
        self.t.cur = Some(body);
        let ret = match spawned {
            Some(_) => None,
            None => self.thread_result(k, def.span)?,
        };
        // `main` returning stops the program; a thread returning ends it
        // (after the destructors of its thread-specific data).
        let finish = self.new_loc(None);
        self.t.finish = Some(finish);
        let exit_to = if k == 0 { EXIT } else { finish };
        let mut scope = HashMap::new();
        if let (Some(p), Some((Some(pname), _))) = (inst.param, self.params(def)?.first().cloned())
        {
            scope.insert(pname, Binding::Obj(p));
        }
        if k == 0 {
            // `main(argc, argv)`: arbitrary values of their types.
            for (pname, ty) in self.params(def)? {
                let Some(pname) = pname else { continue };
                let o =
                    self.object(&format!("main.{}", sanitize(&pname)), ty, Some(0), def.span)?;
                self.name_object(o, &pname, Some(0), Some("main".into()));
                self.havoc_object(o, def.span);
                scope.insert(pname, Binding::Obj(o));
            }
        }
        let (statement, scopes) = match &spawned {
            Some((statement, captured)) => (statement, captured.clone()),
            None => (&def.node.statement, vec![scope]),
        };
        self.t.frames.push(Frame {
            func: inst.func.clone(),
            prefix: inst.name.clone(),
            ret,
            exit: exit_to,
            labels: HashMap::new(),
            scopes,
        });
        self.t.names.insert(inst.name.clone());
        self.stmt(statement)?;
        self.end_scopes(0);
        if let Some(cur) = self.t.cur {
            self.plain_edge(cur, exit_to, Cond::True, vec![], None);
        }
        self.t.cur = Some(finish);
        self.thread_finish(def.span)?;
        self.t.frames.pop();
        let state = std::mem::take(&mut self.t);
        self.threads[k].cfg = state.cfg;
        Ok(())
    }

    /// An edge from `from` to `to` carrying the pending havoc and guard.
    pub(crate) fn plain_edge(
        &mut self,
        from: Loc,
        to: Loc,
        guard: Cond,
        assigns: Vec<(VarId, Term)>,
        span: Option<Span>,
    ) {
        self.edge_kind(from, to, guard, assigns, span, EdgeKind::Plain);
    }

    /// An edge that stores into an IR array (the exact array model): the
    /// store is made on each edge of the cases [`Lowerer::edge_kind`]
    /// emits for the guard.
    pub(crate) fn store_edge(
        &mut self,
        from: Loc,
        to: Loc,
        guard: Cond,
        store: (engine::ir::ArrayId, Term, Term),
        span: Span,
    ) {
        let first = self.t.cfg.edges.len();
        self.plain_edge(from, to, guard, vec![], Some(span));
        for e in &mut self.t.cfg.edges[first..] {
            e.stores.push(store.clone());
        }
    }

    pub(crate) fn edge_kind(
        &mut self,
        from: Loc,
        to: Loc,
        guard: Cond,
        assigns: Vec<(VarId, Term)>,
        span: Option<Span>,
        kind: EdgeKind,
    ) {
        if guard == Cond::False {
            return;
        }
        let cases = match self.error_cases(to, &guard) {
            Some(cases) => {
                // The rest (a tail read inexactly) blocks.
                self.t.cfg.locs[from].blocking = true;
                cases
            }
            None => vec![(guard, to)],
        };
        let pending = self.t.pending_guard.iter().cloned().fold(Cond::True, and);
        let cases = self.clearing_cases(cases, &assigns);
        for (guard, to, assigns) in cases {
            if guard == Cond::False {
                continue;
            }
            let mut edge = Edge {
                from,
                to,
                havoc: self.t.pending_havoc.clone(),
                guard: and(pending.clone(), guard),
                assigns,
                stores: Vec::new(),
                span,
                kind,
                sync: crate::cfg::Sync::None,
                mover: crate::cfg::Mover::Non,
                dead: false,
                accesses: Vec::new(),
                reads: self.t.pending_reads.clone(),
            };
            // The observation flag of floating-point values is set, not
            // chosen (`floats`).
            edge.fix_havocs(&|v| Some(v) == self.t.observation_flag);
            self.t.cfg.edge(edge);
        }
    }

    /// Marks an object pointers may point into: one whose name is taken
    /// the address of somewhere (`&x`), or an array (arrays decay).
    pub(crate) fn note_address_taken(&mut self, o: ObjId, name: &str) {
        if self.addr_names.contains(name) || matches!(self.objects[o].ty, CType::Array(..)) {
            self.objects[o].addr_taken = true;
        }
    }

    /// One edge from the current location to a new one, which becomes
    /// current.
    pub(crate) fn advance(&mut self, guard: Cond, assigns: Vec<(VarId, Term)>, span: Span) {
        if let Some(cur) = self.t.cur {
            let next = self.new_loc(None);
            self.plain_edge(cur, next, guard, assigns, Some(span));
            self.t.cur = Some(next);
        }
        self.flush();
    }

    /// Gives every cell of an object an arbitrary value of its type, in one
    /// local step.
    /// Its unions' tags are 0: every member is as arbitrary as the bytes.
    pub(crate) fn havoc_object(&mut self, o: ObjId, span: Span) {
        let mut cells = self.objects[o].cells.clone();
        let mut tags = Vec::new();
        unions::tags(&self.types, &self.objects[o].ty, 0, &mut tags);
        let zeros: Vec<_> = tags
            .iter()
            .map(|&t| (cells[t as usize], Term::Const(0)))
            .collect();
        for &t in tags.iter().rev() {
            cells.remove(t as usize);
        }
        let guard = self.havoc_cells(cells);
        self.advance(guard, zeros, span);
    }

    /// Havocs `cells` in the step being built; the condition that keeps
    /// each within its range, for the step's guard.
    pub(crate) fn havoc_cells(&mut self, cells: Vec<VarId>) -> Cond {
        let mut guard = Cond::True;
        for c in &cells {
            let r = self.vars[c.index()].range;
            let lo = r.lo.unwrap_or(i128::MIN);
            let hi = r.hi.unwrap_or(i128::MAX);
            guard = and(guard, crate::term::within(&Term::Var(*c), lo, hi));
        }
        self.t.pending_havoc.extend(cells);
        guard
    }

    /// Sets the initial values of an object's cells (globals, statics).
    pub(crate) fn set_initial_values(&mut self, o: ObjId, values: Vec<i128>) {
        for (cell, v) in self.objects[o].cells.clone().into_iter().zip(values) {
            match i64::try_from(v) {
                Ok(k) => self.vars[cell.index()].init = Some(k),
                Err(_) => {
                    self.vars[cell.index()].init = None;
                    self.big_inits.push((cell, v));
                }
            }
        }
    }

    /// Before a blocking call: the inputs its arguments chose (and their
    /// guards) become a step of their own, so that the call's edges read
    /// only the state a waiting thread is in (SOUNDNESS.md, "Deadlocks").
    pub(crate) fn inputs_before_wait(&mut self, span: Span) {
        if !self.t.pending_havoc.is_empty() || !self.t.pending_guard.is_empty() {
            self.advance(Cond::True, vec![], span);
        }
    }

    /// Marks `at` as a blocking call waiting for `kind`.
    /// A wait that is a cancellation point (`cancel`) is noted for the
    /// call being lowered.
    pub(crate) fn mark_wait(&mut self, at: Loc, kind: crate::WaitKind, span: Span) {
        use crate::WaitKind as W;
        if matches!(kind, W::Join | W::Semaphore | W::MessageQueue | W::Pipe) && self.cancels() {
            self.t.cancel_waits.push(at);
        }
        self.t.cfg.wait(
            at,
            crate::Wait {
                kind,
                span: Some(span),
            },
        );
    }

    /// Clears the pending havoc and guard after a group of edges.
    pub(crate) fn flush(&mut self) {
        self.t.pending_havoc.clear();
        self.t.pending_guard.clear();
        self.t.pending_reads.clear();
        self.t.pending_clear.clear();
    }

    /// Records that the step being built reads `cell` of object `o` where
    /// `c` holds (and the operand is evaluated at all), for the race check
    /// (only objects another thread may reach).
    pub(crate) fn note_read(&mut self, c: &Cond, o: ObjId, cell: VarId) {
        if !self.checks.races || !self.maybe_shared(o) {
            return;
        }
        let when = self.t.evaluated_when.iter().cloned().fold(c.clone(), and);
        if when != Cond::False {
            self.t.pending_reads.push((when, cell));
        }
    }

    /// Evaluates `e` where C evaluates it only when `c` holds: its reads
    /// are recorded under `c`.
    pub(crate) fn eval_when(&mut self, c: Cond, e: &Node<Expression>) -> Result<expr::Val> {
        self.t.evaluated_when.push(c);
        let v = self.eval(e);
        self.t.evaluated_when.pop();
        v
    }

    /// Gives the reads recorded since the last step a step of their own
    /// (a no-op) when nothing else carried them: the value was discarded.
    pub(crate) fn settle_reads(&mut self, span: Span) {
        if self.t.pending_reads.is_empty() {
            return;
        }
        if self.t.cur.is_some() {
            self.advance(Cond::True, vec![], span);
        }
        self.flush();
    }

    /// A new ordinary location.
    pub(crate) fn new_loc(&mut self, span: Option<Span>) -> Loc {
        self.t.cfg.loc(LocKind::Normal, span)
    }

    /// The give-up location of a reason in the current thread.
    pub(crate) fn give_up(&mut self, reason: &str) -> Loc {
        self.give_up_of(crate::GiveUp::not_modelled(reason))
    }

    /// The give-up location of a typed give-up in the current thread.
    pub(crate) fn give_up_of(&mut self, give_up: crate::GiveUp) -> Loc {
        if let Some(&l) = self.t.give_ups.get(&give_up) {
            return l;
        }
        let l = self.t.cfg.loc(LocKind::GiveUp(give_up.clone()), None);
        self.t.give_ups.insert(give_up, l);
        l
    }

    /// Gives up where `bad` holds (or, for a checked violation, errs),
    /// else goes on (a new current location).
    pub(crate) fn give_up_where(&mut self, bad: Cond, ub: impl Into<Ub>, span: Span) {
        let Some(cur) = self.t.cur else {
            return;
        };
        let next = self.new_loc(Some(span));
        self.give_up_edge(cur, bad.clone(), ub, span);
        self.plain_edge(cur, next, crate::term::not(bad), vec![], Some(span));
        self.t.cur = Some(next);
    }

    /// An edge to where `ub` leads: the error location of its violation
    /// when that is checked, else the give-up location of its reason.
    pub(crate) fn give_up_edge(&mut self, from: Loc, guard: Cond, ub: impl Into<Ub>, span: Span) {
        let ub = ub.into();
        let to = match ub.violation.filter(|&v| self.checks.covers(v)) {
            Some(violation) => self.violation_loc(crate::Violated {
                violation,
                reason: ub.reason,
            }),
            None => self.give_up(&ub.reason),
        };
        self.plain_edge(from, to, guard, vec![], Some(span));
    }

    /// The error location of a violation in the current thread.
    fn violation_loc(&mut self, violated: crate::Violated) -> Loc {
        if let Some(&l) = self.t.violations.get(&violated) {
            return l;
        }
        let l = self.t.cfg.loc(LocKind::Violation(violated.clone()), None);
        self.t.violations.insert(violated, l);
        l
    }

    /// Binds a name in the innermost scope.
    pub(crate) fn bind(&mut self, name: String, b: Binding) {
        if let Some(s) = self.t.frames.last_mut().and_then(|f| f.scopes.last_mut()) {
            s.insert(name, b);
        }
    }

    /// The binding of a name in the scopes of the current function.
    fn lookup_local(&self, name: &str) -> Option<Binding> {
        let f = self.t.frames.last()?;
        f.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    pub(crate) fn lookup(&mut self, name: &str) -> Result<Option<Binding>> {
        if let Some(b) = self.lookup_local(name) {
            if let Binding::Poison(why) = b {
                return Err(LowerError::unsupported(
                    frontend::lang_c::span::Span::none(),
                    format!("a use of `{name}`, whose declaration is not modelled ({why})"),
                ));
            }
            return Ok(Some(b));
        }
        if let Some(h) = self.global_handle_array(name)? {
            return Ok(Some(Binding::Handles(h)));
        }
        if let Some(o) = self.global(name)? {
            return Ok(Some(Binding::Obj(o)));
        }
        if let Some(v) = self.types.enum_consts.get(name) {
            return Ok(Some(Binding::Enum(*v)));
        }
        Ok(None)
    }

    /// A temporary holding any value of `ty`, havocked by the pending
    /// edges.
    pub(crate) fn havoc_temp(&mut self, ty: &CType) -> VarId {
        let h = self.temp(ty);
        let r = self.vars[h.index()].range;
        self.t.pending_havoc.push(h);
        self.t.pending_guard.push(crate::term::within(
            &Term::Var(h),
            r.lo.unwrap_or(i128::MIN),
            r.hi.unwrap_or(i128::MAX),
        ));
        h
    }

    /// Whether a thread runs a `__CPROVER_ASYNC_` body (one that shares its
    /// creator's locals).
    pub(crate) fn has_async_threads(&self) -> bool {
        !self.async_bodies.is_empty()
    }

    /// A fresh thread-local temporary of a type.
    pub(crate) fn temp(&mut self, ty: &CType) -> VarId {
        let prefix = self.threads[self.t.index].name.clone();
        let name = self.unique(&format!("{prefix}.tmp"));
        let range = self.scalar_range(ty);
        let v = self.var(name, Some(0), range);
        if scopes::is_data_pointer(ty) {
            self.pointer_temps.push((v, self.t.index));
        }
        v
    }
}

/// `base`, or `base.2`, `base.3`, … : the first one not in `used` (which
/// then holds it).
pub(crate) fn fresh_name(base: &str, used: &mut HashSet<String>) -> String {
    let mut name = base.to_string();
    let mut n = 1;
    while !used.insert(name.clone()) {
        n += 1;
        name = format!("{base}.{n}");
    }
    name
}

/// The identifier a declarator declares.
pub(crate) fn declarator_name(d: &frontend::lang_c::ast::Declarator) -> Option<String> {
    use frontend::lang_c::ast::DeclaratorKind;
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// A C name as an IR identifier.
pub(crate) fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if engine::parse::is_identifier(&s) {
        s
    } else {
        format!("c_{s}")
    }
}

/// `v` wrapped into the range of an integer type.
pub(crate) fn wrap_const(v: i128, t: IntTy) -> i128 {
    if t.is_bool() {
        return i128::from(v != 0);
    }
    let m = 1i128 << t.bits;
    let r = v.rem_euclid(m);
    if t.signed && r > t.max() {
        r - m
    } else {
        r
    }
}

/// Evaluates an integer constant expression.
pub(crate) fn const_expr(types: &mut Types, e: &Node<Expression>) -> Result<i128> {
    use frontend::lang_c::ast::{BinaryOperator as B, Constant};
    let bad = || LowerError::unsupported(e.span, "not an integer constant expression");
    Ok(match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => expr::parse_integer(i, types, e.span)?.0,
            Constant::Character(s) => expr::parse_char(s).ok_or_else(bad)?,
            Constant::Float(_) => return Err(bad()),
        },
        Expression::Identifier(id) => *types.enum_consts.get(&id.node.name).ok_or_else(bad)?,
        Expression::Cast(c) => {
            let v = const_expr(types, &c.node.expression)?;
            match types.type_name(&c.node.type_name)? {
                CType::Int(t) => wrap_const(v, t),
                _ => v,
            }
        }
        Expression::SizeOfTy(s) => {
            let t = types.type_name(&s.node.0)?;
            types.size_of(&t).ok_or_else(bad)?.into()
        }
        Expression::UnaryOperator(u) => {
            let v = const_expr(types, &u.node.operand)?;
            match u.node.operator.node {
                UnaryOperator::Minus => -v,
                UnaryOperator::Plus => v,
                UnaryOperator::Complement => !v,
                UnaryOperator::Negate => i128::from(v == 0),
                _ => return Err(bad()),
            }
        }
        Expression::BinaryOperator(b) => {
            let x = const_expr(types, &b.node.lhs)?;
            let y = const_expr(types, &b.node.rhs)?;
            let r = match b.node.operator.node {
                B::Plus => x.checked_add(y),
                B::Minus => x.checked_sub(y),
                B::Multiply => x.checked_mul(y),
                B::Divide if y != 0 => x.checked_div(y),
                B::Modulo if y != 0 => x.checked_rem(y),
                B::ShiftLeft if (0..64).contains(&y) => x.checked_shl(y as u32),
                B::ShiftRight if (0..64).contains(&y) => Some(x >> y),
                B::Less => Some((x < y).into()),
                B::Greater => Some((x > y).into()),
                B::LessOrEqual => Some((x <= y).into()),
                B::GreaterOrEqual => Some((x >= y).into()),
                B::Equals => Some((x == y).into()),
                B::NotEquals => Some((x != y).into()),
                B::BitwiseAnd => Some(x & y),
                B::BitwiseOr => Some(x | y),
                B::BitwiseXor => Some(x ^ y),
                B::LogicalAnd => Some((x != 0 && y != 0).into()),
                B::LogicalOr => Some((x != 0 || y != 0).into()),
                _ => None,
            };
            r.ok_or_else(bad)?
        }
        Expression::Conditional(c) => {
            if const_expr(types, &c.node.condition)? != 0 {
                const_expr(types, &c.node.then_expression)?
            } else {
                const_expr(types, &c.node.else_expression)?
            }
        }
        _ => return Err(bad()),
    })
}
