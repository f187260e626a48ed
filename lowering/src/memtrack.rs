//! The lost-block check: SV-COMP's `valid-memtrack` ([`crate::Checks::memtrack`];
//! SOUNDNESS.md, "Memory safety").
//!
//! A heap block is *lost* in a state when it is allocated and no pointer
//! reaches it: none of the *roots* (the data-pointer cells of globals and
//! statics, of the locals, parameters and pointer temporaries of every
//! thread that has not ended, and of the threads' results) holds an
//! address inside it, nor a pointer cell of an allocated block that is
//! reached itself. Locals stop pointing where their scope ends
//! (`lower::scopes`); a temporary (and a function's returned value) is
//! reset where it is dead (the lowered
//! program's resets count as part of the check,
//! [`engine::liveness::reset_dead_locals_weak`]), so one that still holds
//! a pointer carries it between the steps of a statement.
//!
//! A lost block stays lost: no step can make a pointer to it again (a
//! pointer is copied from another pointer or computed from one by
//! arithmetic that stays in its object), nor free it. So the condition
//! is an error condition over states like any other, and the reduction,
//! which visits fewer states, still meets one in which the block is lost
//! on every run that loses it.
//!
//! A block is lost when some set of blocks holding it is pointed into from
//! no root and no allocated block outside the set (the lost blocks form
//! such a set). The condition tries the sets made of the block and blocks
//! that hold pointers: `2^K` of them, `K` the number of blocks holding
//! pointers; past [`MAX_COMPARISONS`] comparisons the check is not made.

use std::collections::{HashMap, HashSet};

use engine::ir::{CmpOp, Cond, LocId, Term, ThreadId, VarId};

use crate::lower::{Lowerer, ObjId, END};
use crate::term::{and, any, cmp, not};
use crate::{AtExit, MemTrack, Violated, Violation};

/// The most comparisons the lost-block conditions may hold.
pub(crate) const MAX_COMPARISONS: usize = 200_000;

/// A heap block: its object, liveness flag, address range and pointer
/// cells.
struct Block {
    object: ObjId,
    alive: VarId,
    base: i64,
    len: i64,
    pointers: Vec<VarId>,
}

/// A cell that may hold the address of a block, and when it counts.
struct Root {
    cell: VarId,
    /// The cell counts while this holds (its thread has not ended).
    when: Cond,
}

/// The lost-block conditions of the lowered program, each where
/// `modelled` holds (no thread has given up), and whether the check is
/// made.
pub(crate) fn conditions(
    l: &Lowerer<'_>,
    loc_maps: &[HashMap<usize, LocId>],
    modelled: &Cond,
) -> (Vec<AtExit>, MemTrack) {
    if !l.checks.memtrack || (l.heap.is_empty() && l.buffer_lengths.is_empty()) {
        return (Vec::new(), MemTrack::NotAsked);
    }
    if let Some(why) = unchecked(l) {
        return (Vec::new(), MemTrack::Unchecked(why));
    }
    let blocks = blocks(l);
    let roots = roots(l, loc_maps);
    let holders: Vec<usize> = (0..blocks.len())
        .filter(|&i| !blocks[i].pointers.is_empty())
        .collect();
    let mut size = 0;
    let mut lost = Vec::with_capacity(blocks.len());
    for (i, b) in blocks.iter().enumerate() {
        let others: Vec<usize> = holders.iter().copied().filter(|&h| h != i).collect();
        let mut ways = Vec::new();
        for mask in 0..1u64 << others.len().min(63) {
            let mut set = vec![i];
            set.extend(
                (0..others.len())
                    .filter(|k| mask >> k & 1 == 1)
                    .map(|k| others[k]),
            );
            size += 2 * set.len() * (roots.len() + pointer_count(&blocks, &holders, &set));
            if size > MAX_COMPARISONS {
                return (Vec::new(), MemTrack::Unchecked(too_large(holders.len())));
            }
            ways.push(unreached(&blocks, &roots, &holders, &set));
        }
        lost.push(AtExit {
            violated: Violated {
                violation: Violation::MemTrack,
                reason: format!(
                    "{} is allocated, but no pointer reaches it",
                    l.block_name(b.object)
                ),
            },
            condition: and(modelled.clone(), and(allocated(b), any(ways))),
        });
    }
    (lost, MemTrack::Checked)
}

/// No pointer from outside the set of blocks `set` points into it: no
/// root, and no allocated block outside it that holds pointers. A block is
/// lost exactly when some such set holds it (the lost blocks form one; its
/// blocks that hold pointers, with the block, form another), so the sets
/// of the block and of blocks holding pointers are enough.
fn unreached(blocks: &[Block], roots: &[Root], holders: &[usize], set: &[usize]) -> Cond {
    let into = |cell: VarId| any(set.iter().map(|&u| points(cell, &blocks[u])));
    let mut parts: Vec<Cond> = roots
        .iter()
        .map(|r| not(and(r.when.clone(), into(r.cell))))
        .collect();
    for &h in holders.iter().filter(|h| !set.contains(h)) {
        let points_in = any(blocks[h].pointers.iter().map(|&c| into(c)));
        parts.push(not(and(allocated(&blocks[h]), points_in)));
    }
    parts.into_iter().fold(Cond::True, and)
}

/// The pointer cells of the blocks holding pointers outside `set`.
fn pointer_count(blocks: &[Block], holders: &[usize], set: &[usize]) -> usize {
    holders
        .iter()
        .filter(|h| !set.contains(h))
        .map(|&h| blocks[h].pointers.len())
        .sum()
}

/// The variables the conditions may read (before they are built): the
/// liveness flags and every pointer cell and temporary, which the
/// simplifications must keep even where no step reads them.
pub(crate) fn read_vars(l: &Lowerer<'_>) -> Vec<VarId> {
    if !l.checks.memtrack || l.heap.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<VarId> = l.heap.values().copied().collect();
    out.extend((0..l.objects.len()).flat_map(|o| l.pointer_cells(o)));
    out.extend(l.pointer_temps.iter().map(|&(v, _)| v));
    out
}

/// The pointer temporaries the conditions mention: their resets are part
/// of the check ([`engine::liveness::reset_dead_locals_weak`]).
pub(crate) fn weak_vars(l: &Lowerer<'_>, status: &MemTrack) -> Vec<VarId> {
    match status {
        MemTrack::Checked => l.pointer_temps.iter().map(|&(v, _)| v).collect(),
        _ => Vec::new(),
    }
}

/// Why the check cannot be made, when it cannot.
fn unchecked(l: &Lowerer<'_>) -> Option<String> {
    if !l.buffer_lengths.is_empty() {
        return Some("a write-only buffer's pointer is not modelled".into());
    }
    // A tail's untracked elements are read as any value: if they can be
    // pointers, which blocks they reach is not known.
    let pointers = |o: ObjId| match &l.objects[o].ty {
        crate::types::CType::Array(e, _) => crate::lower::is_data_pointer(e),
        _ => true,
    };
    if l.tails
        .keys()
        .any(|&o| pointers(o) || !l.pointer_cells(o).is_empty())
    {
        return Some("a heap array of run-time length has untracked pointer elements".into());
    }
    if l.literals_with_pointers {
        return Some("a compound literal holds a pointer (its lifetime is not followed)".into());
    }
    if l.has_async_threads() {
        return Some("`__CPROVER_ASYNC_` threads share their creator's locals".into());
    }
    let in_union = l
        .objects
        .iter()
        .enumerate()
        .flat_map(|(o, _)| l.pointer_cells(o))
        .any(|c| !l.vars[c.index()].meta.members.is_empty());
    in_union.then(|| "a pointer is a member of a union".into())
}

fn too_large(holders: usize) -> String {
    format!(
        "{holders} heap blocks hold pointers: the condition saying which blocks are lost would \
         have more than {MAX_COMPARISONS} comparisons"
    )
}

fn blocks(l: &Lowerer<'_>) -> Vec<Block> {
    l.heap
        .iter()
        .map(|(&o, &alive)| Block {
            object: o,
            alive,
            base: l.objects[o].base,
            // A tail has a range of addresses of its own.
            len: if l.tails.contains_key(&o) {
                crate::lower::TAIL_SPACE
            } else {
                l.objects[o].cells.len() as i64
            },
            pointers: l.pointer_cells(o),
        })
        .collect()
}

/// The roots: the pointer cells outside the heap, each while its thread
/// runs (globals, statics and thread results always).
fn roots(l: &Lowerer<'_>, loc_maps: &[HashMap<usize, LocId>]) -> Vec<Root> {
    let running = |k: usize| match loc_maps.get(k).and_then(|m| m.get(&END)) {
        Some(&end) => not(Cond::At(ThreadId::new(k), end)),
        None => Cond::True,
    };
    let results: HashSet<ObjId> = l.result_objects().into_iter().collect();
    let params: HashMap<ObjId, usize> = l
        .threads
        .iter()
        .enumerate()
        .filter_map(|(k, t)| Some((t.param?, k)))
        .collect();
    let mut roots = Vec::new();
    for (o, obj) in l.objects.iter().enumerate() {
        if l.heap.contains_key(&o) {
            continue;
        }
        let owner = match obj.owner {
            _ if results.contains(&o) => None,
            Some(k) => Some(k),
            None => params.get(&o).copied(),
        };
        let when = owner.map_or(Cond::True, running);
        roots.extend(l.pointer_cells(o).into_iter().map(|cell| Root {
            cell,
            when: when.clone(),
        }));
    }
    roots.extend(l.pointer_temps.iter().map(|&(cell, k)| Root {
        cell,
        when: running(k),
    }));
    roots
}

/// `cell` holds an address inside block `b`, or one past its end (from
/// which arithmetic gets back into it: C keeps such a pointer the block's).
fn points(cell: VarId, b: &Block) -> Cond {
    and(
        cmp(CmpOp::Ge, Term::Var(cell), Term::Const(b.base)),
        cmp(CmpOp::Le, Term::Var(cell), Term::Const(b.base + b.len)),
    )
}

fn allocated(b: &Block) -> Cond {
    cmp(CmpOp::Eq, Term::Var(b.alive), Term::Const(1))
}
