//! How much a line looks like a game people play: a prior for telling apart repairs that all
//! replay, when the text of the sheet cannot (two orders of the same moves, two moves that could
//! have been left out).
//!
//! Players seldom leave material to be taken for nothing, and seldom decline it when it is
//! offered. A line in which a side passes over a free capture is less likely the game played
//! than one in which it does not: [`missed_captures`] counts such moves.

use crate::position::Position;
use crate::types::{Move, Role};

/// A rough material value of a role (the king counts as more than everything).
fn value(role: Role) -> i32 {
    match role {
        Role::King => 100,
        Role::Rook => 9,
        Role::Cannon | Role::Horse => 4,
        Role::Advisor | Role::Elephant => 2,
        Role::Pawn => 1,
    }
}

/// The material the side to move in `pos` wins at once by its best capture: the piece taken,
/// less the taker when the square is defended (0 when no capture wins material).
pub fn free_gain(pos: &Position) -> i32 {
    let mut best = 0;
    for m in pos.legal_moves().iter() {
        let (Some(victim), Some(taker)) = (pos.piece_at(m.to), pos.piece_at(m.from)) else {
            continue;
        };
        let mut gain = value(victim.role);
        if gain <= best {
            continue;
        }
        if pos.after(*m).is_attacked(m.to, victim.color) {
            gain -= value(taker.role);
        }
        best = best.max(gain);
    }
    best
}

/// Moves `range` of a line (`positions[i]` is the position before `moves[i]`) that pass over a
/// capture winning at least two pawns' worth of material, without capturing themselves.
pub fn missed_captures(
    positions: &[Position],
    moves: &[Move],
    range: std::ops::Range<usize>,
) -> usize {
    range
        .filter(|&i| i < moves.len())
        .filter(|&i| positions[i].piece_at(moves[i].to).is_none() && free_gain(&positions[i]) >= 2)
        .count()
}
