//! Ties between equally good lines (issue 29): an order that the way the board is drawn cannot
//! change.
//!
//! The searches of this module generate moves in square order (a1, b1 ... i9). Where several
//! lines are equally good, keeping "the first found" keeps whichever stands nearer a1: a
//! tie-break by square order, which a mirrored or colour-swapped board reverses, so the answer
//! would depend on how the board is drawn. Where the rulebook's concept is a set ("some line
//! wins the piece", "every reply loses it"), the searches read every tied line and take the
//! union or intersection (see docs/natures.md, "Ties"). Where one line must still be named (the
//! capturer named first in a chase target, the line whose pieces a joint chase is charged to),
//! the tie is broken by [`TieOrder`]: square order on the board as the side to move sees it
//! (its own pieces at the bottom), drawn whichever of its two mirror images reads first. Turning
//! the board round, swapping the colours or mirroring it moves every square with the pieces, so
//! the same piece comes first on every drawing. Only a position that is its own mirror image
//! has two drawings that read the same; there the two candidates are each other's mirror image
//! and either gives the same ruling up to the mirror.

use crate::position::Position;
use crate::types::{Color, Move, Square};

/// Square order on the board as the side to move of a position sees it, mirrored to whichever
/// of its two drawings reads first ([`TieOrder::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TieOrder {
    /// The side to move is Black: its side of the board is turned to the bottom.
    turned: bool,
    /// The drawing with the files mirrored reads first.
    mirrored: bool,
}

impl TieOrder {
    /// The order for ties in `q`.
    pub(super) fn of(q: &Position) -> TieOrder {
        let turn = q.turn();
        let turned = turn == Color::Black;
        let code = |n: usize| {
            let sq = Square::from_index(if turned { 89 - n } else { n });
            q.piece_at(sq)
                .map_or(0u8, |p| 1 + 2 * p.role as u8 + u8::from(p.color != turn))
        };
        let mut mirrored = false;
        for n in 0..90 {
            let m = n - n % 9 + (8 - n % 9);
            let (a, b) = (code(n), code(m));
            if a != b {
                mirrored = b < a;
                break;
            }
        }
        TieOrder { turned, mirrored }
    }

    /// The place of `s` in the order (0..90).
    pub(super) fn rank(self, s: Square) -> u8 {
        let mut n = s.index();
        if self.turned {
            n = 89 - n;
        }
        if self.mirrored {
            n = n - n % 9 + (8 - n % 9);
        }
        n as u8
    }

    /// The place of a move in the order: by its origin, then its destination.
    pub(super) fn move_rank(self, m: Move) -> (u8, u8) {
        (self.rank(m.from), self.rank(m.to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::orientation::Orientation;

    #[test]
    fn every_drawing_of_the_board_puts_the_same_piece_first() {
        for fen in [
            "2bak4/4a4/4b2c1/p7p/2p2rn2/2P3B2/P2CP3P/5C3/4A4/2BAK2R1 w",
            "R8/3ka4/3n3N1/9/7r1/9/9/3ABA3/9/2B1K4 w",
            "R8/3ka4/3n3N1/9/7r1/9/9/3ABA3/9/2B1K4 b",
        ] {
            let q = Position::from_fen(fen).unwrap();
            let order = TieOrder::of(&q);
            for o in Orientation::ALL {
                let oq = o.position(&q);
                let oorder = TieOrder::of(&oq);
                for i in 0..90 {
                    let s = Square::from_index(i);
                    assert_eq!(order.rank(s), oorder.rank(o.square(s)), "{fen} {o:?} {s}");
                }
            }
        }
    }
}
