//! A line replayed from its start: the one walk over a game's moves behind `show`, `review`,
//! `moves --at`, `claim` and the ruling sheets (the moves were checked when the line was read).

use crate::{Move, Notation, Position, print_move};

/// One ply of a replayed line.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// 1-based.
    pub ply: usize,
    pub mv: Move,
    /// The positions before and after the move.
    pub before: Position,
    pub after: Position,
}

impl Step {
    /// The move in `notation`.
    pub fn text(&self, notation: Notation) -> String {
        print_move(&self.before, self.mv, notation)
    }
}

/// The plies of `moves` played from `start`, in order (legal moves: the line's, checked when it
/// was read).
pub fn replay<'a>(start: &Position, moves: &'a [Move]) -> impl Iterator<Item = Step> + 'a {
    let mut pos = *start;
    moves.iter().enumerate().map(move |(i, &mv)| {
        let before = pos;
        pos.play_unchecked(mv);
        Step {
            ply: i + 1,
            mv,
            before,
            after: pos,
        }
    })
}

/// The position after the first `ply` plies of `moves` (all of them when it is larger).
pub fn position_after(start: &Position, moves: &[Move], ply: usize) -> Position {
    let mut pos = *start;
    for &m in &moves[..ply.min(moves.len())] {
        pos.play_unchecked(m);
    }
    pos
}

/// Mate, stalemate or check in `pos`, in words (`None`: none of them).
pub fn status_text(pos: &Position) -> Option<String> {
    if pos.is_checkmate() {
        Some(format!("{} is checkmated", pos.turn()))
    } else if pos.is_stalemate() {
        Some(format!(
            "{} has no legal move (stalemate: loses)",
            pos.turn()
        ))
    } else if pos.is_check() {
        Some(format!("{} is in check", pos.turn()))
    } else {
        None
    }
}
