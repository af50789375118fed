//! Legal move generation.
//!
//! Pseudo-legal targets come from the attack tables; legality is then decided per move, but most
//! moves need no test. When the side to move is not in check, a move can only expose its own king
//! if it is a king move, or it moves a *blocker* — the first piece between the king and an enemy
//! rook or general on a line, either of the two screens between the king and an enemy cannon, or a
//! piece on the leg of an enemy horse aimed at the king — or it lands between the king and an
//! enemy cannon with nothing in between (a new screen). [`Position::king_safety`] finds those
//! squares once per position; only the moves they touch get the exact test, which looks at the
//! king's attackers with the occupancy after the move. In check, every move is tested.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, MoveList, Role, Square};

/// Where moves of the side to move can endanger its own king (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KingSafety {
    /// The king of the side to move.
    pub king: Square,
    /// Pieces whose every move needs the exact test (blockers, and the king itself).
    pub blockers: Bitboard,
    /// Points that need the exact test as destinations (new cannon screens).
    pub risky: Bitboard,
    /// The enemy pieces giving check (exactly [`Position::checkers`]).
    pub checkers: Bitboard,
    /// Whether the side to move is in check.
    pub in_check: bool,
}

impl Position {
    /// The blockers, risky destinations and checkers of the side to move. The enemy rooks,
    /// cannons and general on the king's lines are few: each is judged by the number of pieces
    /// between it and the king.
    pub fn king_safety(&self) -> KingSafety {
        let us = self.turn();
        let king = self.king(us);
        let them = self.by_color(!us);
        let occ = self.occupied();
        let cannons = self.by_role(Role::Cannon) & them;
        let kings = self.by_role(Role::King) & them;
        let horses = self.by_role(Role::Horse) & them;
        let mut blockers = Bitboard::from_square(king);
        let mut risky = Bitboard::EMPTY;
        let mut checkers = Bitboard::EMPTY;
        // (The general attacks along its file only: the flying general.)
        let sliders = ((self.by_role(Role::Rook) | cannons) & them & attacks::lines(king))
            | (kings & attacks::file_line(king));
        for x in sliders {
            let between = attacks::between(king, x);
            let screens = between & occ;
            match (cannons.contains(x), screens.count()) {
                // A rook or the general with a clear line; a cannon with one screen.
                (false, 0) | (true, 1) => checkers.set(x),
                // The only piece in front of a rook or general; either screen of a cannon.
                (false, 1) | (true, 2) => blockers |= screens,
                // Nothing between king and cannon: landing there makes a screen.
                (true, 0) => risky |= between,
                _ => {}
            }
        }
        checkers |= attacks::horse_attacker_squares(king, occ) & horses;
        if (attacks::horse_attacker_squares(king, Bitboard::EMPTY) & horses).any() {
            for leg in attacks::horse_attackers(king) {
                if (leg.targets & horses).any() && occ.contains(leg.block) {
                    blockers.set(leg.block);
                }
            }
        }
        checkers |= attacks::pawn_attackers(!us, king) & self.by_role(Role::Pawn) & them;
        // A general one step away (only in odd, hand-made positions).
        checkers |= attacks::king_attacks(king) & kings;
        debug_assert_eq!(checkers, self.checkers(), "{}", self.fen());
        KingSafety {
            king,
            blockers,
            risky,
            checkers,
            in_check: checkers.any(),
        }
    }

    /// Whether the pseudo-legal move `m` of the side to move is legal, given
    /// [`Position::king_safety`]: exactly `!leaves_king_attacked(m, king)`, without the full
    /// test for most moves. A move neither made by a blocker (nor the king) nor landing on a
    /// risky point gives the enemy no new attacker on the king (leaving a square uncovers
    /// nothing, landing makes no cannon screen; both together, on one line, neither), so it is
    /// legal exactly when every checker it neither takes nor stops still attacks no more.
    #[inline]
    pub(crate) fn is_legal_with(&self, ks: &KingSafety, m: Move) -> bool {
        if ks.blockers.contains(m.from) || ks.risky.contains(m.to) {
            return !self.leaves_king_attacked(m, ks.king);
        }
        let rest = ks.checkers.without(m.to);
        if rest.is_empty() {
            return true;
        }
        let occ = self.occupied().without(m.from).with(m.to);
        let k = ks.king;
        for c in rest {
            let still = match self.piece_at(c).map(|p| p.role) {
                Some(Role::Rook) => (attacks::between(c, k) & occ).is_empty(),
                Some(Role::King) => {
                    attacks::king_attacks(k).contains(c)
                        || (attacks::between(c, k) & occ).is_empty()
                }
                Some(Role::Cannon) => (attacks::between(c, k) & occ).count() == 1,
                Some(Role::Horse) => attacks::horse_attackers(k)
                    .iter()
                    .any(|leg| leg.targets.contains(c) && !occ.contains(leg.block)),
                _ => true,
            };
            if still {
                return false;
            }
        }
        true
    }

    /// The points the pieces of `by` attack (could capture on if an enemy piece stood there), by
    /// their own movement, ignoring pins: a superset of every square `by` can capture on.
    pub fn attacked_by(&self, by: Color) -> Bitboard {
        let occ = self.occupied();
        let rot = self.occupied_rotated();
        let mut out = Bitboard::EMPTY;
        for sq in self.pieces(by, Role::Rook) {
            out |= attacks::rook_attacks(sq, occ, rot);
        }
        for sq in self.pieces(by, Role::Cannon) {
            out |= attacks::cannon_attacks(sq, occ, rot);
        }
        for sq in self.pieces(by, Role::Horse) {
            out |= attacks::horse_attacks(sq, occ);
        }
        for sq in self.pieces(by, Role::Pawn) {
            out |= attacks::pawn_attacks(by, sq);
        }
        for sq in self.pieces(by, Role::Elephant) {
            out |= attacks::elephant_attacks(sq, occ);
        }
        for sq in self.pieces(by, Role::Advisor) {
            out |= attacks::advisor_attacks(sq);
        }
        for sq in self.pieces(by, Role::King) {
            out |= attacks::king_attacks(sq);
        }
        out
    }

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
    fn for_each_split<F: FnMut(Square, Bitboard, Bitboard)>(&self, ks: &KingSafety, mut f: F) {
        self.for_each_pseudo_legal(|from, targets| {
            if ks.in_check || ks.blockers.contains(from) {
                f(from, Bitboard::EMPTY, targets);
            } else {
                f(from, targets - ks.risky, targets & ks.risky);
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
        self.legal_moves_with(&self.king_safety())
    }

    /// [`Position::legal_moves`] given [`Position::king_safety`].
    pub(crate) fn legal_moves_with(&self, ks: &KingSafety) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_split(ks, |from, safe, risky| {
            for to in safe {
                list.push(Move::new(from, to));
            }
            for to in risky {
                let m = Move::new(from, to);
                if self.is_legal_with(ks, m) {
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

    /// The number of legal moves, without building the list (perft's last ply).
    ///
    /// Rooks and cannons are counted inside their rank and file as 9- and 10-bit masks, never
    /// widened to a board: a non-blocking rook or cannon can only need a test on the (at most
    /// two) points where its lines cross the king's rank and file.
    pub fn count_legal(&self) -> usize {
        let ks = self.king_safety();
        if ks.in_check {
            return self.count_split(&ks);
        }
        let us = self.turn();
        let king = self.king(us);
        let (kf, kr) = (king.file().index() as usize, king.rank().index() as usize);
        let own = self.by_color(us);
        let them = self.by_color(!us);
        let occ = self.occupied();
        let rot = self.occupied_rotated();
        let own_rot = self.rotated(us);
        let them_rot = self.rotated(!us);
        let legal =
            |from: Square, to: Square| !self.leaves_king_attacked(Move::new(from, to), king);
        let mut n = 0usize;

        for sq in (self.pieces(us, Role::Rook) | self.pieces(us, Role::Cannon)) - ks.blockers {
            let cannon = self.by_role(Role::Cannon).contains(sq);
            let (f, r) = (sq.file().index() as usize, sq.rank().index() as usize);
            let rank_occ = attacks::rank_bits(occ, r as u32);
            let file_occ = attacks::file_bits(rot, f as u32);
            let (along_rank, along_file) = if cannon {
                (
                    (attacks::rook_rank_bits(f, rank_occ) & !rank_occ as u32)
                        | (attacks::cannon_rank_bits(f, rank_occ)
                            & attacks::rank_bits(them, r as u32) as u32),
                    (attacks::rook_file_bits(r, file_occ) & !file_occ as u32)
                        | (attacks::cannon_file_bits(r, file_occ)
                            & attacks::file_bits(them_rot, f as u32) as u32),
                )
            } else {
                (
                    attacks::rook_rank_bits(f, rank_occ)
                        & !(attacks::rank_bits(own, r as u32) as u32),
                    attacks::rook_file_bits(r, file_occ)
                        & !(attacks::file_bits(own_rot, f as u32) as u32),
                )
            };
            n += along_rank.count_ones() as usize + along_file.count_ones() as usize;
            if ks.risky.any() {
                // Risky points lie on the king's rank and file: subtract the illegal ones.
                if along_rank >> kf & 1 != 0 {
                    let to = Square::from_index(r * 9 + kf);
                    if ks.risky.contains(to) && !legal(sq, to) {
                        n -= 1;
                    }
                }
                if along_file >> kr & 1 != 0 {
                    let to = Square::from_index(kr * 9 + f);
                    if ks.risky.contains(to) && !legal(sq, to) {
                        n -= 1;
                    }
                }
            }
        }

        let split = |from: Square, targets: Bitboard, n: &mut usize| {
            let tested = if ks.blockers.contains(from) {
                targets
            } else {
                *n += (targets - ks.risky).count() as usize;
                targets & ks.risky
            };
            for to in tested {
                if legal(from, to) {
                    *n += 1;
                }
            }
        };
        for sq in (self.pieces(us, Role::Rook) | self.pieces(us, Role::Cannon)) & ks.blockers {
            let line = attacks::rook_attacks(sq, occ, rot);
            let targets = if self.by_role(Role::Cannon).contains(sq) {
                (line - occ) | (attacks::cannon_attacks(sq, occ, rot) & them)
            } else {
                line - own
            };
            split(sq, targets, &mut n);
        }
        for sq in self.pieces(us, Role::Horse) {
            split(sq, attacks::horse_attacks(sq, occ) - own, &mut n);
        }
        for sq in self.pieces(us, Role::Pawn) {
            split(sq, attacks::pawn_attacks(us, sq) - own, &mut n);
        }
        for sq in self.pieces(us, Role::Elephant) {
            split(sq, attacks::elephant_attacks(sq, occ) - own, &mut n);
        }
        for sq in self.pieces(us, Role::Advisor) {
            split(sq, attacks::advisor_attacks(sq) - own, &mut n);
        }
        split(king, attacks::king_attacks(king) - own, &mut n);
        n
    }

    /// Counts legal moves through the general split (used in check).
    fn count_split(&self, ks: &KingSafety) -> usize {
        let mut n = 0usize;
        self.for_each_pseudo_legal(|from, targets| {
            let tested = if ks.in_check || ks.blockers.contains(from) {
                targets
            } else {
                n += (targets - ks.risky).count() as usize;
                targets & ks.risky
            };
            for to in tested {
                if self.is_legal_with(ks, Move::new(from, to)) {
                    n += 1;
                }
            }
        });
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        self.has_legal_move_with(&self.king_safety())
    }

    /// [`Position::has_legal_move`] given [`Position::king_safety`].
    pub(crate) fn has_legal_move_with(&self, ks: &KingSafety) -> bool {
        let mut found = false;
        self.for_each_split(ks, |from, safe, risky| {
            if found {
                return;
            }
            if safe.any() {
                found = true;
                return;
            }
            let mut risky = risky;
            found = Iterator::any(&mut risky, |to| self.is_legal_with(ks, Move::new(from, to)));
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_44_moves() {
        let pos = Position::start();
        assert_eq!(pos.legal_moves().len(), 44);
        assert_eq!(pos.count_legal(), 44);
        assert!(pos.has_legal_move());
        assert!(!pos.is_check());
    }

    /// Every capture either side could make in the positions of the real games lands on a
    /// point of `attacked_by`.
    #[test]
    fn attacked_by_covers_every_capture() {
        for l in include_str!("../tests/data/rules/games.jsonl").lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let mut p = Position::from_fen(v["fen"].as_str().unwrap()).unwrap();
            for m in v["moves"].as_str().unwrap().split_whitespace() {
                for q in [p, p.null_move()] {
                    let map = q.attacked_by(q.turn());
                    for c in q.pseudo_legal_moves() {
                        if q.piece_at(c.to).is_some() {
                            assert!(map.contains(c.to), "{c} in {}", q.fen());
                        }
                    }
                }
                p.play_unchecked(Move::parse_iccs(m).unwrap());
            }
        }
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
