//! Legal move generation.
//!
//! Pseudo-legal targets come from the attack tables; legality is then decided per move. Most
//! moves are safe without a test: when the side to move is not in check, a move can only expose
//! its king if it leaves the king's rank or file or a point diagonally next to the king (a horse
//! leg), or lands on the king's rank or file (a new cannon screen), or is a king move. Only those
//! moves get the exact test, which looks at the king's attackers with the occupancy after the move.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Move, MoveList, Role, Square};

impl Position {
    /// Calls `f(from, targets)` for every piece of the side to move, with its pseudo-legal targets
    /// (the squares it can reach by its own movement, not holding an own piece).
    #[inline]
    pub fn for_each_pseudo_legal<F: FnMut(Square, Bitboard)>(&self, mut f: F) {
        let us = self.turn();
        let own = self.by_color(us);
        let them = self.by_color(!us);
        let occ = self.occupied();
        let rot = self.occupied_rotated();
        for sq in self.pieces(us, Role::Rook) {
            f(sq, attacks::rook_attacks(sq, occ, rot) - own);
        }
        for sq in self.pieces(us, Role::Cannon) {
            let quiet = attacks::rook_attacks(sq, occ, rot) - occ;
            f(sq, quiet | (attacks::cannon_attacks(sq, occ, rot) & them));
        }
        for sq in self.pieces(us, Role::Horse) {
            f(sq, attacks::horse_attacks(sq, occ) - own);
        }
        for sq in self.pieces(us, Role::Pawn) {
            f(sq, attacks::pawn_attacks(us, sq) - own);
        }
        for sq in self.pieces(us, Role::Elephant) {
            f(sq, attacks::elephant_attacks(sq, occ) - own);
        }
        for sq in self.pieces(us, Role::Advisor) {
            f(sq, attacks::advisor_attacks(sq) - own);
        }
        for sq in self.pieces(us, Role::King) {
            f(sq, attacks::king_attacks(sq) - own);
        }
    }

    /// Calls `f(from, safe, risky)` for every piece: `safe` targets are legal without a test,
    /// `risky` ones need [`Position::leaves_king_attacked`].
    #[inline]
    fn for_each_split<F: FnMut(Square, Bitboard, Bitboard)>(&self, mut f: F) {
        let us = self.turn();
        let king = self.king(us);
        let lines = Bitboard::rank(king.rank()) | Bitboard::file(king.file());
        let sensitive = lines | attacks::diagonal_neighbours(king) | Bitboard::from_square(king);
        let in_check = self.is_check();
        self.for_each_pseudo_legal(|from, targets| {
            if in_check || sensitive.contains(from) {
                f(from, Bitboard::EMPTY, targets);
            } else {
                f(from, targets - lines, targets & lines);
            }
        });
    }

    /// All pseudo-legal moves (own king possibly left attacked).
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_pseudo_legal(|from, targets| {
            for to in targets {
                list.push(Move::new(from, to));
            }
        });
        list
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let king = self.king(self.turn());
        self.for_each_split(|from, safe, risky| {
            for to in safe {
                list.push(Move::new(from, to));
            }
            for to in risky {
                let m = Move::new(from, to);
                if !self.leaves_king_attacked(m, king) {
                    list.push(m);
                }
            }
        });
        list
    }

    /// Legal moves of the piece on `from`.
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = self.legal_moves();
        list.retain(|m| m.from == from);
        list
    }

    /// The number of legal moves, without building the list.
    pub fn count_legal(&self) -> usize {
        let mut n = 0usize;
        let king = self.king(self.turn());
        self.for_each_split(|from, safe, risky| {
            n += safe.count() as usize;
            for to in risky {
                if !self.leaves_king_attacked(Move::new(from, to), king) {
                    n += 1;
                }
            }
        });
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut found = false;
        let king = self.king(self.turn());
        self.for_each_split(|from, safe, risky| {
            if found {
                return;
            }
            if safe.any() {
                found = true;
                return;
            }
            let mut risky = risky;
            found = Iterator::any(&mut risky, |to| {
                !self.leaves_king_attacked(Move::new(from, to), king)
            });
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    #[test]
    fn start_position_has_44_moves() {
        let pos = Position::start();
        assert_eq!(pos.legal_moves().len(), 44);
        assert_eq!(pos.count_legal(), 44);
        assert!(pos.has_legal_move());
        assert!(!pos.is_check());
    }

    #[test]
    fn flying_general_and_cannon_screen() {
        // Moving the only piece between the kings is illegal.
        let pos = Position::from_fen("4k4/9/9/9/9/4N4/9/9/9/4K4 w").unwrap();
        assert!(!pos.is_legal(Move::parse_iccs("e4d6").unwrap()));
        assert!(pos.is_legal(Move::parse_iccs("e0e1").unwrap()));
        assert_eq!(pos.legal_moves().len(), 3);
        // Stepping onto the open file of the other king is illegal.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        assert!(!pos.is_legal(Move::parse_iccs("e0d0").unwrap()));
        // Putting a piece between a cannon and the own king creates a screen: illegal.
        let pos = Position::from_fen("3k5/9/9/4c4/9/9/9/9/R8/4K4 w").unwrap();
        assert!(!pos.is_legal(Move::parse_iccs("a1e1").unwrap()));
        assert!(pos.is_legal(Move::parse_iccs("a1d1").unwrap()));
    }

    #[test]
    fn checkmate_and_stalemate() {
        // Black king boxed in by two rooks: mate.
        let mate = Position::from_fen("3k5/R8/3R5/9/9/9/9/9/9/4K4 b").unwrap();
        assert!(mate.is_check());
        assert!(mate.is_checkmate());
        // No move but not in check: stalemate, which loses in Xiangqi.
        let stale = Position::from_fen("3k5/R8/9/9/9/4R4/9/9/9/5K3 b").unwrap();
        assert!(!stale.is_check(), "{:?}", stale.checkers());
        assert!(stale.is_stalemate());
        assert_eq!(stale.turn(), Color::Black);
    }
}
