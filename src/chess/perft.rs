//! Perft: counting the leaves of the legal move tree, plainly, per root move, and hashed.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crate::hashing::{Key, PAYLOAD_BITS, Table, TableEntry, TableKey};

use super::Position;

/// Deepest perft accepted (`go perft` in UCI and `rookery perft`): depth 12 from the start
/// position is 62 trillion leaves, days of work.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Leaf count of the legal move tree `depth` plies deep. Leaves at depth 1 are counted from
/// the move list without being played (bulk counting).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false)).expect("never stopped")
}

/// [`perft`] that gives up, returning `None`, once `stop` is set.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    if stop.load(Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for &mv in &moves {
        pos.push(mv);
        let below = perft_until(pos, depth - 1, stop);
        pos.pop();
        nodes += below?;
    }
    Some(nodes)
}

/// Perft per root move: `(move in UCI notation, leaf count)`, sorted by the move text, or
/// `None` once `stop` is set. `table`, when given, is used for the subtrees (see
/// [`perft_hashed`]; `stop` is then looked at between root moves).
pub fn divide(
    pos: &mut Position,
    depth: u32,
    table: Option<&Table<PerftEntry>>,
    stop: &AtomicBool,
) -> Option<Vec<(String, u64)>> {
    let mut lines: Vec<(String, u64)> = pos
        .legal_moves()
        .iter()
        .map(|&mv| {
            pos.push(mv);
            let depth = depth.saturating_sub(1);
            let nodes = match table {
                Some(table) => (!stop.load(Relaxed)).then(|| perft_hashed(pos, depth, table)),
                None => perft_until(pos, depth, stop),
            };
            pos.pop();
            Some((pos.uci(mv), nodes?))
        })
        .collect::<Option<_>>()?;
    lines.sort();
    Some(lines)
}

/// The divide report as tools print it: `move: count` per root move (sorted), an empty
/// line, then `Nodes searched: N`. Also returns N. Depth 0 counts the root itself. `None`
/// once `stop` is set.
pub fn divide_report(
    pos: &mut Position,
    depth: u32,
    table: Option<&Table<PerftEntry>>,
    stop: &AtomicBool,
) -> Option<(Vec<String>, u64)> {
    let lines = if depth == 0 {
        Vec::new()
    } else {
        divide(pos, depth, table, stop)?
    };
    let total = if depth == 0 {
        1
    } else {
        lines.iter().map(|(_, n)| n).sum()
    };
    let mut report: Vec<String> = lines.iter().map(|(mv, n)| format!("{mv}: {n}")).collect();
    report.push(String::new());
    report.push(format!("Nodes searched: {total}"));
    Some((report, total))
}

/// A subtree's leaf count stored in the shared table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftEntry {
    /// Leaves below the position.
    pub nodes: u64,
    /// Depth the count is for.
    pub depth: u8,
}

const PERFT_COUNT_BITS: u32 = PAYLOAD_BITS - 8;

impl TableEntry for PerftEntry {
    fn pack(self) -> u64 {
        u64::from(self.depth) | self.nodes << 8
    }
    fn unpack(payload: u64) -> PerftEntry {
        PerftEntry {
            depth: payload as u8,
            nodes: payload >> 8,
        }
    }
    fn depth(self) -> u8 {
        self.depth
    }
}

/// The table key of a (position, depth) pair: a count is only valid for its own depth, so
/// the depth is mixed into the key (and into the bucket choice, spreading depths apart).
#[inline]
fn perft_key(key: Key, depth: u32) -> TableKey {
    TableKey::from(key ^ Key::mixed(u64::from(depth)))
}

/// Perft with subtree counts shared through `table`: same result, fewer nodes visited.
/// A child's key is derived from the move before the child is played, so a table hit saves
/// the move's make as well as its subtree.
pub fn perft_hashed(pos: &mut Position, depth: u32, table: &Table<PerftEntry>) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    let tk = perft_key(pos.key(), depth);
    if let Some(hit) = table.probe(tk).filter(|e| u32::from(e.depth) == depth) {
        return hit.nodes;
    }
    let nodes = hashed_children(pos, depth, table);
    store(table, tk, depth, nodes);
    nodes
}

/// Sum over the children of a node of `depth` (at least 2), probing each child by its key
/// before making the move.
fn hashed_children(pos: &mut Position, depth: u32, table: &Table<PerftEntry>) -> u64 {
    let moves = pos.legal_moves();
    let child_depth = depth - 1;
    // All child keys first, their buckets prefetched, so the probes below overlap in memory.
    let keys = pos.keys_after(&moves);
    for &key in &keys {
        table.prefetch(perft_key(key, child_depth));
    }
    let mut nodes = 0;
    for (&mv, &key) in moves.iter().zip(&keys) {
        let tk = perft_key(key, child_depth);
        if let Some(hit) = table
            .probe(tk)
            .filter(|e| u32::from(e.depth) == child_depth)
        {
            nodes += hit.nodes;
            continue;
        }
        pos.push(mv);
        let sub = if child_depth == 1 {
            pos.legal_moves().len() as u64
        } else {
            hashed_children(pos, child_depth, table)
        };
        pos.pop();
        store(table, tk, child_depth, sub);
        nodes += sub;
    }
    nodes
}

#[inline]
fn store(table: &Table<PerftEntry>, tk: TableKey, depth: u32, nodes: u64) {
    if nodes < 1 << PERFT_COUNT_BITS {
        table.store(
            tk,
            PerftEntry {
                nodes,
                depth: depth as u8,
            },
        );
    }
}
