//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use crate::position::Position;
use crate::types::Move;
use rayon::prelude::*;

/// The deepest perft the command line accepts. Recursion is one frame per ply, so this also keeps
/// the stack bounded; depth 8 from the start position is already ~3.4e12 leaves.
pub const MAX_DEPTH: u32 = 32;

/// Leaves of the legal move tree to `depth`, counting the last ply in bulk.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut n = 0;
            for m in pos.legal_moves() {
                n += perft(&pos.after(m), depth - 1);
            }
            n
        }
    }
}

/// Perft split by the first move. At depth 0 there is no first move: the split is empty (the
/// tree is the one leaf counted by `perft(pos, 0)`).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| (m, perft(&pos.after(m), depth - 1)))
        .collect()
}

/// Perft with the first two plies spread over rayon's thread pool.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth <= 2 {
        return perft(pos, depth);
    }
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves
        .par_iter()
        .map(|&m| {
            let child = pos.after(m);
            let grand: Vec<Move> = child.legal_moves().into_iter().collect();
            grand
                .par_iter()
                .map(|&g| perft(&child.after(g), depth - 2))
                .sum::<u64>()
        })
        .sum()
}

/// Parallel divide (empty at depth 0, like [`divide`]).
pub fn divide_parallel(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves
        .par_iter()
        .map(|&m| (m, perft(&pos.after(m), depth - 1)))
        .collect()
}
