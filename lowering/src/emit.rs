//! From per-thread CFGs to the IR: atomic sections, large blocks, location
//! names, and the error condition.

use std::collections::{BTreeMap, HashMap, HashSet};

use engine::ir::{
    Assign, CmpOp, Cond, LocId, Program, Rhs, SourceMap, Term, Thread, ThreadId, Transition,
    VarDecl,
};

use crate::cfg::{Edge, LocKind};
use crate::error::{LowerError, Result};
use crate::lower::{fresh_name, Lowerer, EXIT};
use crate::term::{and, cmp, not};
use crate::types::CType;
use crate::{LocOrigin, Lowered, ThreadInfo};

fn ir_span(s: Option<frontend::lang_c::span::Span>) -> engine::ir::Span {
    match s {
        Some(s) if !s.is_none() => engine::ir::Span::new(s.start, s.end),
        _ => engine::ir::Span::default(),
    }
}

/// Builds the program from the lowered threads.
pub(crate) fn emit(mut l: Lowerer<'_>) -> Result<Lowered> {
    let flag = prepare(&mut l)?;
    let mut p = declare(&l);
    let (loc_maps, infos) = locations(&l, &mut p);
    // Per thread, per IR location: where it comes from in the CFG.
    let mut origins: Vec<Vec<LocOrigin>> = loc_maps
        .iter()
        .map(|map| {
            let mut o = vec![LocOrigin::default(); map.len()];
            for (&cfg, &id) in map {
                o[id.index()] = LocOrigin { cfg, havoc: None };
            }
            o
        })
        .collect();
    let race_accesses = transitions(&l, flag, &loc_maps, &mut p, &mut origins);
    let Sinks {
        errors,
        violations,
        give_ups,
        running,
        exited,
    } = error_locations(&l, &loc_maps);
    // Source spans of IR locations: those of the CFG locations they stand
    // for (a havoc's intermediate location belongs to the statement of the
    // location it leaves).
    let loc_spans: Vec<Vec<Option<frontend::lang_c::span::Span>>> = l
        .threads
        .iter()
        .zip(&origins)
        .map(|(t, o)| o.iter().map(|o| t.cfg.locs[o.cfg].span).collect())
        .collect();
    let vars = l.vars.iter().map(|v| v.meta.clone()).collect();
    // The real errors first, then the violations, the checks at exit and
    // the races, then the give-ups: `Lowered::errors_only` keeps the
    // conditions before the give-ups.
    if l.checks.assertions {
        for &(t, loc) in &errors {
            p.error.push(and(Cond::At(t, loc), running.clone()));
        }
    }
    for (t, loc, _) in &violations {
        p.error.push(and(Cond::At(*t, *loc), running.clone()));
    }
    let mut at_exit = at_exit(&l, &exited);
    // A thread that gave up is stuck where its temporaries are dead: a
    // block only they held is not lost in the program, whose behaviour
    // there is not modelled (the give-up decides the verdict). So is one
    // that called `reach_error()` (which aborts when assertions are not
    // checked, the program's frames in place).
    let modelled = give_ups
        .iter()
        .map(|(t, loc, _)| (*t, *loc))
        .chain(errors.iter().copied())
        .fold(Cond::True, |c, (t, loc)| and(c, not(Cond::At(t, loc))));
    let (lost, memtrack) = crate::memtrack::conditions(&l, &loc_maps, &modelled);
    at_exit.extend(lost);
    p.error.extend(at_exit.iter().map(|x| x.condition.clone()));
    // A race needs both threads running: after `reach_error()` (which
    // aborts) or a violation nothing runs.
    let stopped = errors
        .iter()
        .copied()
        .chain(violations.iter().map(|(t, loc, _)| (*t, *loc)));
    let running_on = stopped.fold(running.clone(), |r, (t, loc)| and(r, not(Cond::At(t, loc))));
    let race_conditions = crate::races::conditions(&race_accesses, &running_on);
    let n_races = race_conditions.len();
    p.error.extend(race_conditions);
    let deadlock = l
        .checks
        .deadlocks
        .then(|| deadlock_shape(&l, &loc_maps, &origins, running_on.clone()));
    let cut = give_ups
        .iter()
        .map(|(t, l, g)| {
            use crate::GiveUpKind::{BeyondInstances, Construct, TailError};
            (
                *t,
                *l,
                matches!(g.kind, Construct | BeyondInstances | TailError),
            )
        })
        .collect();
    let deadlock = deadlock.and_then(|mut shape| {
        shape.cut = cut;
        shape.record(&p);
        let c = crate::deadlock::condition(&p, &shape);
        (c != Cond::False).then(|| {
            p.error.push(c);
            shape
        })
    });
    for &(t, loc, _) in &give_ups {
        p.error.push(and(Cond::At(t, loc), running.clone()));
    }
    // Temporaries and locals after their last use would make equal states
    // differ; resetting them keeps reachability (see the pass).
    let weak = crate::memtrack::weak_vars(&l, &memtrack);
    let resets = engine::liveness::reset_dead_locals_weak(&mut p, &weak);
    Ok(Lowered {
        resets,
        program: p,
        threads: infos,
        errors,
        give_ups,
        violations,
        at_exit,
        allocates: !l.heap.is_empty() || !l.buffer_lengths.is_empty(),
        memtrack,
        data_model: l.unit.data_model,
        vars,
        loc_spans,
        loc_origins: origins,
        loop_sites: l.loop_sites.clone(),
        ranges: l.vars.iter().map(|v| (v.range.lo, v.range.hi)).collect(),
        checks: l.checks,
        races: race_accesses,
        race_conditions: n_races,
        race_running: running_on,
        deadlock,
        lock_sites: lock_sites(&l),
        tails: !l.tails.is_empty(),
        array_values: l.array_values,
        array_c: array_c_names(&l),
        tail_used: l.tail_used,
        tail_clean: l.tail_clean.clone(),
        tail_cells: l.tails.values().map(|t| (t.cell, t.index)).collect(),
        handle_slots: l.handle_slots(),
        observation_flags: l.observation_flags.clone(),
    })
}

/// The CFGs made ready for emission: the atomic flag (when some step is
/// atomic) and the depth of every location in atomic sections, unreachable
/// locations dropped, the reduction, the race marks, compression.
fn prepare(l: &mut Lowerer<'_>) -> Result<Option<engine::ir::VarId>> {
    let uses_atomic = l.threads.iter().any(|t| {
        t.cfg
            .edges
            .iter()
            .any(|e| e.kind != crate::cfg::EdgeKind::Plain)
    });
    let flag =
        uses_atomic.then(|| l.var("__atomic".into(), Some(0), crate::term::Range::new(0, 1)));
    l.atomic_flag = flag;
    l.instrument_capabilities();
    // Atomic sections, then which variables more than one thread touches.
    for t in &mut l.threads {
        if let Some(f) = flag {
            t.cfg.atomic_depths(f).map_err(|span| {
                LowerError::unsupported(
                    span.unwrap_or_else(frontend::lang_c::span::Span::none),
                    "atomic sections that are entered on some paths and not on others",
                )
            })?;
        }
        t.cfg.drop_unreachable();
        // Sections as single steps make flag locks visible to the
        // reduction. The race check reads the accesses inside sections
        // one by one, so it keeps them.
        if let Some(f) = flag.filter(|_| l.reduce && !l.checks.races) {
            t.cfg.collapse_atomic_sections(f);
        }
    }
    let users = crate::reduce::thread_users(
        &l.threads.iter().map(|t| &t.cfg).collect::<Vec<_>>(),
        l.vars.len(),
    );
    // The checks at exit read heap state in whatever step the other threads
    // are when the program ends: every write of it is a step of its own,
    // and the reduction (whose argument is about locations) is off.
    let at_exit = at_exit_vars(l);
    if !at_exit.is_empty() {
        l.reduce = false;
    }
    let shared: Vec<bool> = users
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let v = engine::ir::VarId::new(i);
            u.len() > 1 || Some(v) == flag || at_exit.contains(&v)
        })
        .collect();
    // Variables conditions over states read: no simplification may fold
    // them away where no step reads them.
    let mut read_by_checks: HashSet<engine::ir::VarId> = state_flags(l).collect();
    read_by_checks.extend(crate::memtrack::read_vars(l));
    let concurrency = if l.reduce {
        Some(crate::reduce::reduce(
            &mut l.threads,
            &l.vars,
            flag,
            &read_by_checks,
        ))
    } else {
        for t in &mut l.threads {
            t.cfg.classify_invisible(&|v| shared[v.index()]);
        }
        None
    };
    if l.checks.races {
        let relevant = race_relevant(l);
        let atomic: HashSet<engine::ir::VarId> = l
            .atomic_objects
            .iter()
            .flat_map(|&o| l.objects[o].cells.iter().copied())
            .collect();
        let params: std::collections::BTreeMap<engine::ir::VarId, Vec<engine::ir::VarId>> = l
            .threads
            .iter()
            .filter_map(|t| Some((t.run?, l.objects[t.param?].cells.clone())))
            .collect();
        crate::races::mark(
            &mut l.threads,
            &|v| relevant[v.index()],
            &|v| atomic.contains(&v),
            concurrency.as_ref(),
            &params,
        );
    }
    for t in &mut l.threads {
        if l.compress {
            t.cfg.compress(l.checks.deadlocks);
        } else {
            t.cfg.edges.retain(|e| !e.dead);
        }
    }

    if l.reduce {
        crate::reduce::after_compression(&mut l.threads, &l.vars, flag, &read_by_checks);
    }
    l.redirect_clean_errors();

    Ok(flag)
}

/// The IR program's variables (with unique names) and the initial values
/// too large for a declaration.
fn declare(l: &Lowerer<'_>) -> Program {
    let mut p = Program {
        vars: Vec::new(),
        arrays: l.arrays.clone(),
        init: Vec::new(),
        threads: Vec::new(),
        transitions: Vec::new(),
        error: Vec::new(),
        source_map: SourceMap::default(),
    };
    for &(v, value) in &l.big_inits {
        let value = Term::literal(value).expect("a value of a C type is a literal");
        p.init.push(Cond::Cmp(CmpOp::Eq, Term::Var(v), value));
    }
    p.init.extend(l.init_conds.iter().cloned());
    // The flags of `state_flags` are written, never read by a step: the
    // initial condition names each at its declared value (a static tail
    // sets its flag from the start), so that the liveness pass does not
    // reset them (a trace's last state must show them).
    for f in state_flags(l) {
        let init = l.vars[f.index()].init.expect("a flag has an initial value");
        p.init
            .push(Cond::Cmp(CmpOp::Eq, Term::Var(f), Term::Const(init)));
    }
    let mut seen = HashSet::new();
    for v in &l.vars {
        let name = fresh_name(&v.name, &mut seen);
        p.vars.push(VarDecl { name, init: v.init });
        p.source_map.vars.push(engine::ir::Span::default());
    }
    p
}

/// The flags no step reads that tell how a trace's last state is to be
/// read: the observation flags of floating-point values
/// ([`Lowered::abstraction_observed`]), the flag of an allocated tail and
/// the threads' clean flags ([`Lowered::trace_end`]).
fn state_flags<'a>(l: &'a Lowerer<'_>) -> impl Iterator<Item = engine::ir::VarId> + 'a {
    l.observation_flags
        .iter()
        .copied()
        .chain(l.tail_used)
        .chain(l.tail_clean.iter().copied())
}

/// Per thread, its IR locations (named by kind and source line) and the map
/// from CFG locations; the threads' metadata.
fn locations(l: &Lowerer<'_>, p: &mut Program) -> (Vec<HashMap<usize, LocId>>, Vec<ThreadInfo>) {
    let mut loc_maps: Vec<HashMap<usize, LocId>> = Vec::new();
    let mut infos = Vec::new();
    for t in &l.threads {
        let mut map = HashMap::new();
        let mut names: Vec<String> = Vec::new();
        let mut used = HashSet::new();
        let mut name_of =
            |cfg_loc: usize, names: &mut Vec<String>, map: &mut HashMap<usize, LocId>| -> LocId {
                if let Some(&id) = map.get(&cfg_loc) {
                    return id;
                }
                let info = &t.cfg.locs[cfg_loc];
                let base = match (&info.kind, cfg_loc) {
                    (_, 0) => "start".to_string(),
                    (LocKind::End, _) => "end".into(),
                    (LocKind::Exit, _) => "exit".into(),
                    (LocKind::Error, _) => "ERROR".into(),
                    (LocKind::GiveUp(_), _) => "giveup".into(),
                    (LocKind::Violation(v), _) => v.violation.name().replace('-', "_"),
                    (LocKind::Normal, _) => match info.span.and_then(|s| l.unit.locate(&s)) {
                        Some(at) => format!("l{}", at.line),
                        None => "l".into(),
                    },
                };
                names.push(fresh_name(&base, &mut used));
                let id = LocId::new(names.len() - 1);
                map.insert(cfg_loc, id);
                id
            };
        name_of(0, &mut names, &mut map);
        for e in t.cfg.live() {
            name_of(e.from, &mut names, &mut map);
            name_of(e.to, &mut names, &mut map);
        }
        p.threads.push(Thread {
            name: t.name.clone(),
            locs: names,
            initial: LocId::new(0),
            transitions: Vec::new(),
        });
        p.source_map.threads.push(ir_span(t.created_at));
        loc_maps.push(map);
        infos.push(ThreadInfo {
            name: t.name.clone(),
            function: t.func.clone(),
            created_at: t.created_at,
            run: t.run,
        });
    }
    (loc_maps, infos)
}

/// The IR transitions of every CFG edge (an edge with a havoc goes through
/// an intermediate location per source and havoc set, whose origin is
/// recorded); the accesses the race check compares.
fn transitions(
    l: &Lowerer<'_>,
    flag: Option<engine::ir::VarId>,
    loc_maps: &[HashMap<usize, LocId>],
    p: &mut Program,
    origins: &mut [Vec<LocOrigin>],
) -> Vec<crate::races::RaceAccess> {
    let mut race_accesses = Vec::new();
    for (k, t) in l.threads.iter().enumerate() {
        let tid = ThreadId::new(k);
        // Edges with a havoc share one intermediate location per (source, havoc set).
        let mut mids: BTreeMap<(usize, Vec<usize>), LocId> = BTreeMap::new();
        let mut edges: Vec<&Edge> = t.cfg.live().collect();
        edges.sort_by_key(|e| (e.from, e.to));
        for e in edges {
            let from = loc_maps[k][&e.from];
            let to = loc_maps[k][&e.to];
            let atomic_guard = match flag {
                Some(f) if t.cfg.locs[e.from].depth == 0 => {
                    cmp(CmpOp::Eq, Term::Var(f), Term::Const(0))
                }
                _ => Cond::True,
            };
            let mut start = from;
            if !e.havoc.is_empty() {
                let mut key: Vec<usize> = e.havoc.iter().map(|v| v.index()).collect();
                key.sort_unstable();
                key.dedup();
                let mid = match mids.get(&(e.from, key.clone())) {
                    Some(&m) => m,
                    None => {
                        let th = &mut p.threads[k];
                        let base = format!("{}.in", th.locs[from.index()]);
                        let mut name = base.clone();
                        let mut n = 1;
                        while th.locs.contains(&name) {
                            n += 1;
                            name = format!("{base}{n}");
                        }
                        th.locs.push(name);
                        let m = LocId::new(th.locs.len() - 1);
                        mids.insert((e.from, key.clone()), m);
                        origins[k].push(LocOrigin {
                            cfg: e.from,
                            havoc: Some(key.iter().map(|&v| engine::ir::VarId::new(v)).collect()),
                        });
                        push_transition(
                            p,
                            tid,
                            from,
                            m,
                            atomic_guard.clone(),
                            key.iter()
                                .map(|&v| Assign {
                                    var: engine::ir::VarId::new(v),
                                    rhs: Rhs::Nondet,
                                })
                                .collect(),
                            Vec::new(),
                            ir_span(e.span),
                        );
                        m
                    }
                };
                start = mid;
            }
            // `p@L` conditions refer to CFG locations until here.
            let own_guard = remap_at(&e.guard, loc_maps);
            for a in &e.accesses {
                race_accesses.push(crate::races::RaceAccess {
                    thread: tid,
                    loc: start,
                    guard: crate::races::access_guard(&own_guard, a),
                    var: a.var,
                    write: a.write,
                    atomic: a.atomic,
                    span: e.span.or(t.cfg.locs[e.from].span),
                });
            }
            let guard = and(atomic_guard, own_guard);
            let assigns = e
                .assigns
                .iter()
                .map(|(v, t)| Assign {
                    var: *v,
                    rhs: Rhs::Expr(t.clone()),
                })
                .collect();
            let stores = e
                .stores
                .iter()
                .map(|(array, index, value)| engine::ir::Store {
                    array: *array,
                    index: index.clone(),
                    value: value.clone(),
                })
                .collect();
            push_transition(p, tid, start, to, guard, assigns, stores, ir_span(e.span));
        }
    }
    race_accesses
}

/// The distinct calls that acquire a mutex.
fn lock_sites(l: &Lowerer<'_>) -> Vec<(ThreadId, engine::ir::VarId, frontend::lang_c::span::Span)> {
    let mut out: Vec<_> = Vec::new();
    for &(k, cell, span) in &l.lock_sites {
        let site = (ThreadId::new(k), cell, span);
        if !out.contains(&site) {
            out.push(site);
        }
    }
    out
}

/// Where the threads wait, end and start, and the locations where the
/// atomic flag does not make them wait ([`crate::deadlock`]).
fn deadlock_shape(
    l: &Lowerer<'_>,
    loc_maps: &[HashMap<usize, LocId>],
    origins: &[Vec<LocOrigin>],
    running: Cond,
) -> crate::deadlock::Shape {
    let mut waits = Vec::new();
    for (k, t) in l.threads.iter().enumerate() {
        let mut here: Vec<(LocId, crate::Wait)> = loc_maps[k]
            .iter()
            .filter_map(|(&cfg, &id)| Some((id, t.cfg.locs[cfg].wait.clone()?)))
            .collect();
        here.sort_by_key(|(id, _)| *id);
        waits.extend(here.into_iter().map(|(id, w)| (ThreadId::new(k), id, w)));
    }
    let atomic = l.atomic_flag.map(|flag| {
        let free = l
            .threads
            .iter()
            .zip(origins)
            .map(|(t, o)| {
                (0..o.len())
                    .filter(|&i| {
                        let info = &t.cfg.locs[o[i].cfg];
                        info.depth > 0 || info.kind.is_special()
                    })
                    .map(LocId::new)
                    .collect()
            })
            .collect();
        (flag, free)
    });
    crate::deadlock::Shape {
        waits,
        ends: loc_maps
            .iter()
            .map(|m| m.get(&crate::lower::END).copied())
            .collect(),
        started: l.threads.iter().map(|t| t.run.is_some()).collect(),
        atomic,
        running,
        guards: HashMap::new(),
        assigned: HashSet::new(),
        cut: Vec::new(),
        cancel: (0..l.threads.len())
            .map(|k| l.cancel_flags.get(&k).map(|f| f.0))
            .collect(),
    }
}

/// The sinks of the threads' CFGs in the IR.
struct Sinks {
    /// The error locations (`reach_error()`), sorted.
    errors: Vec<(ThreadId, LocId)>,
    /// The locations of checked violations, sorted.
    violations: Vec<(ThreadId, LocId, crate::Violated)>,
    /// The give-up locations, sorted.
    give_ups: Vec<(ThreadId, LocId, crate::GiveUp)>,
    /// The program has not stopped: no thread is at its exit location.
    running: Cond,
    /// The program has ended: some thread is at its exit location (`main`
    /// returned, or `exit` or `abort` was called).
    exited: Cond,
}

/// The error, violation and give-up locations of every thread, and the
/// conditions that the program runs and that it has ended.
fn error_locations(l: &Lowerer<'_>, loc_maps: &[HashMap<usize, LocId>]) -> Sinks {
    let mut running = Cond::True;
    let mut exited = Cond::False;
    for (k, t) in l.threads.iter().enumerate() {
        if let Some(&x) = loc_maps[k].get(&EXIT) {
            if t.cfg.edges.iter().any(|e| e.to == EXIT) {
                running = and(running, not(Cond::At(ThreadId::new(k), x)));
                exited = crate::term::or(exited, Cond::At(ThreadId::new(k), x));
            }
        }
    }
    let mut errors = Vec::new();
    let mut violations = Vec::new();
    let mut give_ups = Vec::new();
    for (k, t) in l.threads.iter().enumerate() {
        for (cfg_loc, &id) in &loc_maps[k] {
            let t_id = ThreadId::new(k);
            match &t.cfg.locs[*cfg_loc].kind {
                LocKind::Error => errors.push((t_id, id)),
                LocKind::Violation(v) => violations.push((t_id, id, v.clone())),
                LocKind::GiveUp(r) => give_ups.push((t_id, id, r.clone())),
                _ => {}
            }
        }
    }
    errors.sort();
    violations.sort();
    give_ups.sort();
    Sinks {
        errors,
        violations,
        give_ups,
        running,
        exited,
    }
}

/// With [`crate::Checks::memcleanup`]: the heap blocks and write-only
/// buffers the checks at exit are about, each with its name, the variable
/// saying whether it is allocated, and when it is.
fn blocks(l: &Lowerer<'_>) -> Vec<(String, engine::ir::VarId, Cond)> {
    if !l.checks.memcleanup {
        return Vec::new();
    }
    let heap = l.heap.iter().map(|(&o, &alive)| {
        let name = l.block_name(o);
        let allocated = cmp(CmpOp::Eq, Term::Var(alive), Term::Const(1));
        (name, alive, allocated)
    });
    let mut buffers: Vec<_> = l.buffer_lengths.iter().collect();
    buffers.sort();
    let buffers = buffers.into_iter().map(|(name, &o)| {
        let len = l.objects[o].cells[0];
        let allocated = cmp(CmpOp::Ge, Term::Var(len), Term::Const(1));
        (
            format!("the buffer `*{}`", l.unit.display_name(name)),
            len,
            allocated,
        )
    });
    heap.chain(buffers).collect()
}

/// The variables the checks at exit read ([`at_exit`]).
fn at_exit_vars(l: &Lowerer<'_>) -> HashSet<engine::ir::VarId> {
    blocks(l).into_iter().map(|(_, v, _)| v).collect()
}

/// Per heap block (and write-only buffer) of [`blocks`], the program has
/// ended while the block is allocated.
fn at_exit(l: &Lowerer<'_>, exited: &Cond) -> Vec<crate::AtExit> {
    blocks(l)
        .into_iter()
        .map(|(name, _, allocated)| crate::AtExit {
            violated: crate::Violated {
                violation: crate::Violation::MemCleanup,
                reason: format!("{name} is still allocated when the program ends"),
            },
            condition: and(exited.clone(), allocated),
        })
        .collect()
}

/// Per IR variable: whether the race check covers it: the integer and
/// pointer cells of C objects (globals, locals, heap objects, thread
/// results), except the cells passed to the pthread API
/// ([`Lowerer::sync_cells`]). Mutexes, condition variables, thread handles
/// and opaque pthread objects are not data; temporaries, flags and inputs
/// of the lowering are not memory of the C program.
fn race_relevant(l: &Lowerer<'_>) -> Vec<bool> {
    let mut relevant = vec![false; l.vars.len()];
    for o in &l.objects {
        let mut scalars = Vec::new();
        l.types.flatten(&o.ty, &mut scalars);
        for (cell, ty) in o.cells.iter().zip(scalars) {
            relevant[cell.index()] = matches!(ty, CType::Int(_) | CType::Ptr(_) | CType::Float(_));
        }
    }
    for v in &l.sync_cells {
        relevant[v.index()] = false;
    }
    relevant
}

#[allow(clippy::too_many_arguments)]
fn push_transition(
    p: &mut Program,
    t: ThreadId,
    from: LocId,
    to: LocId,
    guard: Cond,
    assigns: Vec<Assign>,
    stores: Vec<engine::ir::Store>,
    span: engine::ir::Span,
) {
    let th = &p.threads[t.index()];
    let label = format!("{}.{}", th.name, th.transitions.len() + 1);
    p.push_transition(
        Transition {
            thread: t,
            label,
            explicit_label: false,
            from,
            to,
            guard,
            assigns,
            stores,
        },
        Some(span),
    );
}

fn remap_at(c: &Cond, maps: &[HashMap<usize, LocId>]) -> Cond {
    match c {
        Cond::At(t, l) => match maps[t.index()].get(&l.index()) {
            Some(&id) => Cond::At(*t, id),
            // A location the thread never reaches.
            None => Cond::False,
        },
        Cond::Not(a) => not(remap_at(a, maps)),
        Cond::And(a, b) => and(remap_at(a, maps), remap_at(b, maps)),
        Cond::Or(a, b) => crate::term::or(remap_at(a, maps), remap_at(b, maps)),
        c => c.clone(),
    }
}

/// Per IR array, the C name of its tail's array and its stride (the name
/// of the tracked cell up to `[tracked]`).
fn array_c_names(l: &Lowerer<'_>) -> Vec<(String, u64)> {
    let mut out = vec![(String::new(), 1); l.arrays.len()];
    for (&o, tail) in &l.tails {
        let Some(a) = tail.array else { continue };
        let cell = l.objects[o].cells[0];
        let name = l.vars[cell.index()].meta.c_name.clone();
        let name = name.map_or_else(
            || l.arrays[a.index()].name.clone(),
            |n| n.split("[tracked]").next().unwrap_or_default().to_string(),
        );
        out[a.index()] = (name, tail.stride);
    }
    out
}
