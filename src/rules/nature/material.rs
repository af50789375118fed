//! Material and the capture balance (RULES.md §1, §2.1): piece values, legal captures onto
//! a square, the static exchange, the balance of one capture followed by the best exchange
//! (with the false-root refutation test of §2.3 when asked), and the best capture of a
//! position (what a side could win by one capture: the baseline of the capturer's duties).

use super::*;

/// Material balance: pieces and pawns apart, because a crossed pawn "floats" (RULES.md §1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mat {
    pub pieces: i32,
    pub pawns: i32,
}

impl std::ops::Add for Mat {
    type Output = Mat;
    fn add(self, o: Mat) -> Mat {
        Mat {
            pieces: self.pieces + o.pieces,
            pawns: self.pawns + o.pawns,
        }
    }
}

impl std::ops::Sub for Mat {
    type Output = Mat;
    fn sub(self, o: Mat) -> Mat {
        Mat {
            pieces: self.pieces - o.pieces,
            pawns: self.pawns - o.pawns,
        }
    }
}

impl Mat {
    /// A real gain: no side of the balance is negative and something is won. One pawn for a
    /// piece, or a piece for pawns, is not a gain.
    pub fn is_gain(self) -> bool {
        self.pieces >= 0 && self.pawns >= 0 && (self.pieces > 0 || self.pawns > 0)
    }
}

/// When [`Analyzer::capture_balance_in`] tests recaptures for a refuting mate (a false root).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Refute {
    Never,
    Always,
    /// Only when the balance without the test is no gain although the target is protected.
    WhenNoGain,
}

/// Squares attacked by the pieces `pieces` (all of one colour) in `pos`.
pub(super) fn attacked_squares(pos: &Position, pieces: Bitboard) -> Bitboard {
    let occ = pos.occupied();
    let rot = pos.occupied_rotated();
    let mut out = Bitboard::EMPTY;
    for sq in pieces {
        let Some(p) = pos.piece_at(sq) else { continue };
        out |= match p.role {
            Role::Rook => attacks::rook_attacks(sq, occ, rot),
            Role::Cannon => attacks::cannon_attacks(sq, occ, rot),
            Role::Horse => attacks::horse_attacks(sq, occ),
            Role::Elephant => attacks::elephant_attacks(sq, occ),
            Role::Advisor => attacks::advisor_attacks(sq),
            Role::King => attacks::king_attacks(sq),
            Role::Pawn => attacks::pawn_attacks(p.color, sq),
        };
    }
    out
}

impl Analyzer<'_> {
    pub(super) fn mat(&self, piece: Piece) -> Mat {
        let v = &self.profile.values;
        let pieces = match piece.role {
            // A pawn floats: counted apart from the pieces (RULES.md §1).
            Role::Pawn => {
                return Mat {
                    pieces: 0,
                    pawns: 1,
                };
            }
            Role::Rook => v.rook,
            Role::Horse => v.horse,
            Role::Cannon => v.cannon,
            Role::Advisor => v.advisor,
            Role::Elephant => v.elephant,
            Role::King => 10_000,
        };
        Mat { pieces, pawns: 0 }
    }

    pub(super) fn scalar(&self, m: Mat) -> i32 {
        m.pieces + m.pawns * self.profile.values.pawn
    }

    /// Whether the piece on `sq` is material a chase can aim at (RULES.md §1).
    pub(super) fn is_material(&self, piece: Piece, sq: Square) -> bool {
        match piece.role {
            Role::King => false,
            Role::Pawn => !sq.on_own_side(piece.color),
            _ => true,
        }
    }

    /// Pieces of `by` that could move onto `s` by their own movement (ignoring pins).
    pub(super) fn pseudo_capturers(pos: &Position, s: Square, by: Color) -> Bitboard {
        let occ = pos.occupied();
        let mine = pos.by_color(by);
        let (rooks, cannons) = (pos.pieces(by, Role::Rook), pos.pieces(by, Role::Cannon));
        let mut out = attacks::slider_attackers(s, occ, rooks, cannons);
        out |= attacks::horse_attacker_squares(s, occ) & pos.by_role(Role::Horse);
        out |= attacks::pawn_attackers(by, s) & pos.by_role(Role::Pawn);
        if Bitboard::palace(by).contains(s) {
            out |= attacks::king_attacks(s) & pos.by_role(Role::King);
            out |= attacks::advisor_attacks(s) & pos.by_role(Role::Advisor);
        }
        if s.on_own_side(by) {
            out |= attacks::elephant_attacks(s, occ) & pos.by_role(Role::Elephant);
        }
        out & mine
    }

    /// Legal captures onto `s` by the side to move.
    pub(super) fn captures_to(pos: &Position, s: Square) -> Captures {
        let us = pos.turn();
        let mut out = Captures::new();
        if pos.piece_at(s).is_none_or(|p| p.color == us) {
            return out;
        }
        let king = pos.king(us);
        for from in Self::pseudo_capturers(pos, s, us) {
            let m = Move::new(from, s);
            if !pos.leaves_king_attacked(m, king) && !out.is_full() {
                out.push(m);
            }
        }
        out
    }

    /// Static exchange on `s`: the side to move may capture there (or stop). Returns its best
    /// balance (never below zero: it may stand pat) and the principal line of capturing squares.
    pub(super) fn see(
        &mut self,
        pos: &Position,
        s: Square,
        depth: u32,
    ) -> (Mat, ArrayVec<Square, 8>) {
        let mut scratch = *pos;
        self.see_in(&mut scratch, s, depth)
    }

    /// [`Analyzer::see`] on a position it plays the captures on and takes them back (it is
    /// left as it was): no copy per capture.
    pub(super) fn see_in(
        &mut self,
        pos: &mut Position,
        s: Square,
        depth: u32,
    ) -> (Mat, ArrayVec<Square, 8>) {
        self.see_below(pos, s, depth, 0, i32::MAX)
    }

    /// [`Analyzer::see_in`], exact when its value (scalar) comes out above `floor` (at least
    /// zero) and below `beta`; otherwise only some value no more than `floor`, or at least
    /// `beta`, which the caller has no use for.
    ///
    /// The exchange is a maximum over the captures onto `s` (the first strictly best one gives
    /// the line), each worth the target less the opponent's best answer, which is never below
    /// zero (he may stop). So no capture is worth more than the target: once one is worth that
    /// much, the later ones cannot be strictly better. And a capture is better than the best
    /// so far only if the opponent's answer is worth less than the target less that best: the
    /// answer's search stops (at `beta`) as soon as it reaches that much. A capture must also
    /// beat `floor` to count (a caller that only wants a balance above it). The cuts skip only
    /// captures that could not be chosen, so the value and line come out as the full search's
    /// (scalar values are linear in the balance: `scalar(a - b) == scalar(a) - scalar(b)`).
    fn see_below(
        &mut self,
        pos: &mut Position,
        s: Square,
        depth: u32,
        floor: i32,
        beta: i32,
    ) -> (Mat, ArrayVec<Square, 8>) {
        let mut best = Mat::default();
        let mut best_line = ArrayVec::new();
        if depth >= 8 || beta <= 0 {
            return (best, best_line);
        }
        let Some(target) = pos.piece_at(s) else {
            return (best, best_line);
        };
        let gain = self.mat(target);
        let top = self.scalar(gain);
        for m in Self::captures_to(pos, s) {
            let b = self.scalar(best).max(floor);
            if b >= top || b >= beta {
                break;
            }
            let undo = pos.play_unchecked(m);
            let (reply, line) = self.see_below(pos, s, depth + 1, 0, top - b);
            pos.undo(m, undo);
            let v = gain - reply;
            if self.scalar(v) > b {
                best = v;
                best_line.clear();
                best_line.push(m.from);
                let _ = best_line.try_extend_from_slice(&line[..line.len().min(7)]);
            }
        }
        (best, best_line)
    }

    /// The balance for the side to move of the capture `m` (onto `s`) followed by the best
    /// exchange, and the chaser's capturing squares in the principal line. With `refute`, a
    /// recapture after which the capturer mates by checks is no recapture (false root).
    pub(super) fn capture_balance(
        &mut self,
        pos: &Position,
        m: Move,
        refute: bool,
    ) -> Result<(Mat, ArrayVec<Square, 8>, bool), Exhausted> {
        let mode = if refute {
            Refute::Always
        } else {
            Refute::Never
        };
        self.capture_balance_in(pos, m, mode)
    }

    /// [`Self::capture_balance`] with the refutation test as `mode` says: with
    /// [`Refute::WhenNoGain`], the balance without it, unless that is no gain although the
    /// target can be taken back, in which case the balance with it (the recaptures are listed
    /// and valued once for both).
    pub(super) fn capture_balance_in(
        &mut self,
        pos: &Position,
        m: Move,
        mode: Refute,
    ) -> Result<(Mat, ArrayVec<Square, 8>, bool), Exhausted> {
        let s = m.to;
        let target = pos.piece_at(s).expect("capture");
        let mover = pos.piece_at(m.from).expect("capturer");
        let mut r = pos.after(m);
        // Each recapture's exchange value first (played and taken back on `r`: cheaper than
        // copies); then, best first (among equal values, the first generated), the mate test
        // of the refutation, which is the costly part: the first recapture that is not refuted
        // is the best one, and the ones after it need no test.
        let mut recaptures: ArrayVec<(i32, usize, Move, Mat, ArrayVec<Square, 8>), 16> =
            ArrayVec::new();
        for (i, rm) in Self::captures_to(&r, s).into_iter().enumerate() {
            let undo = r.play_unchecked(rm);
            let (ours, sub) = self.see_in(&mut r, s, 2);
            r.undo(rm, undo);
            let v = self.mat(mover) - ours;
            recaptures.push((-self.scalar(v), i, rm, v, sub));
        }
        recaptures.sort_unstable_by_key(|e| (e.0, e.1));
        // The balance when the recapture `best` (an index in `recaptures`) is the one made.
        let result = |this: &Self, best: Option<usize>| {
            let mut line: ArrayVec<Square, 8> = ArrayVec::new();
            line.push(m.from);
            let mut best_reply = Mat::default();
            if let Some(e) = best.map(|i| &recaptures[i])
                && this.scalar(e.3) > 0
            {
                best_reply = e.3;
                // The chaser's further capturers: every other square of the sub-line starting
                // with ours.
                for (i, sq) in e.4.iter().enumerate() {
                    if i % 2 == 0 && !line.is_full() {
                        line.push(*sq);
                    }
                }
            }
            (this.mat(target) - best_reply, line, best.is_some())
        };
        let plain = (!recaptures.is_empty()).then_some(0);
        match mode {
            Refute::Never => return Ok(result(self, plain)),
            Refute::WhenNoGain => {
                let out = result(self, plain);
                if out.0.is_gain() || !out.2 {
                    return Ok(out);
                }
            }
            Refute::Always => {}
        }
        let mut best = None;
        for (i, e) in recaptures.iter().enumerate() {
            let undo = r.play_unchecked(e.2);
            let refuted = search::mate_by_checks_with(
                &r,
                self.profile.refutation_mate_cap,
                &mut self.budget,
                &mut self.mates,
            );
            r.undo(e.2, undo);
            if !refuted? {
                best = Some(i);
                break;
            }
        }
        Ok(result(self, best))
    }

    /// The balance of the capture `m` as a threat to win its target counts it
    /// ([`Self::capture_balance_in`], refuting a recapture only when there is no gain
    /// otherwise), and the chaser's capturing squares: with
    /// [`Profile::under_protection_chases`] off (AXF), a really protected piece is won only if
    /// the first capture gains (the capturer, recaptured, is worth less than the target).
    pub(super) fn threat_balance(
        &mut self,
        q: &Position,
        m: Move,
    ) -> Result<(Mat, ArrayVec<Square, 8>, bool), Exhausted> {
        let (mut v, mut line, rec) = self.capture_balance_in(q, m, Refute::WhenNoGain)?;
        if rec && !self.profile.under_protection_chases {
            let target = q.piece_at(m.to).expect("capture");
            let capturer = q.piece_at(m.from).expect("capturer");
            v = self.mat(target) - self.mat(capturer);
            line.truncate(1);
        }
        Ok((v, line, rec))
    }

    /// The best balance (scalar) of any capture by the side to move, except onto the squares
    /// of `skip`.
    pub(super) fn best_capture_skipping(&mut self, pos: &Position, skip: Bitboard) -> i32 {
        let them = !pos.turn();
        let targets = (pos.by_color(them) & pos.attacked_by(!them)) - skip;
        // No exchange wins more than its target is worth: the targets are taken dearest first,
        // the search ends at the first one worth no more than the best balance found, and each
        // exchange is searched only for a balance above that best. The answer is the full
        // maximum's.
        let mut by_value: ArrayVec<(i32, Square), 16> = ArrayVec::new();
        for s in targets {
            let Some(p) = pos.piece_at(s).filter(|p| p.role != Role::King) else {
                continue;
            };
            if by_value.try_push((self.scalar(self.mat(p)), s)).is_err() {
                break; // (at most 16 enemy pieces)
            }
        }
        // Dearest first; among equals, in square order (the order does not change the maximum).
        by_value.sort_unstable_by_key(|&(v, s)| (std::cmp::Reverse(v), s as u8));
        let mut best = 0;
        let mut scratch = *pos;
        for (value, s) in by_value {
            if value <= best {
                break;
            }
            let (v, _) = self.see_below(&mut scratch, s, 0, best, i32::MAX);
            best = best.max(self.scalar(v));
        }
        best
    }

    /// The best balance (scalar) of any capture by the side to move, except onto `skip`.
    pub(super) fn best_capture(&mut self, pos: &Position, skip: Option<Square>) -> i32 {
        self.best_capture_skipping(pos, skip.map_or(Bitboard::EMPTY, Bitboard::from_square))
    }

    /// Whether the balance of a series of checks and its capture is a gain. As [`Mat::is_gain`],
    /// except that pawns given up on the way may be outweighed: a crossed pawn floats (RULES.md
    /// §1), worth at most a horse, so a pawn sacrificed to win a rook is a gain, while a pawn
    /// for a horse or cannon, or two pawns for a rook, is not. The book rules a rook retreat
    /// that threatens a pawn-sacrificing check winning a rook a chase (参考图29), and a
    /// pawn-for-horse trade no gain (图24).
    pub(super) fn series_gain(&self, total: Mat) -> bool {
        total.is_gain()
            || (total.pieces > 0
                && total.pawns < 0
                && total.pieces > -total.pawns * self.profile.values.horse)
    }
}

#[cfg(test)]
mod tests {
    //! Material and the capture balance (RULES.md §1, §2.1, §2.4), each position in all four
    //! orientations of the board ([`crate::rules::nature::testkit`]).
    use super::Mat;
    use crate::rules::nature::testkit::{assert_chase, assert_idle, cxa, every_orientation};
    use crate::rules::nature::{NatureKind, WinHow};
    use crate::rules::profile::Profile;

    #[test]
    fn a_capture_no_one_answers_wins_the_piece() {
        // Red K d0, R a1; Black K e9, N e5. §2.1: Ra5 can take the unprotected horse: a chase.
        let n = cxa("4k4/9/9/9/4n4/9/9/9/R8/3K5 w", "a1a5");
        assert_chase(&n, &["e5"]);
        assert_eq!(n.targets[0].how, WinHow::Capture);
        assert!(!n.targets[0].joint);
    }

    #[test]
    fn rook_for_a_protected_horse_is_no_gain() {
        // Red K d0, R a1; Black K e9, P e5, N e4. §2.4: rook takes, pawn takes back: rook for
        // horse loses material, so attacking a protected piece of lower value is idle.
        let n = cxa("4k4/9/9/9/4p4/4n4/9/9/R8/3K5 w", "a1a4");
        assert_idle(&n, None);
    }

    #[test]
    fn a_horse_on_a_protected_rook_wins_by_net_gain() {
        // Red K d0, N b2; Black K e9, R e7, R e5. §2.4: horse for rook is a gain whatever the
        // protection (rook e7 takes back): a chase, won by the exchange.
        let n = cxa("4k4/9/4r4/9/4r4/9/9/1N7/9/3K5 w", "b2c4");
        assert_chase(&n, &["e5"]);
        assert_eq!(n.targets[0].how, WinHow::Exchange);
    }

    #[test]
    fn a_piece_of_equal_value_is_won_only_unprotected() {
        // Red K d0, N d2; Black K e9, C c5 (+ R c9). §2.4: horse for a protected cannon is even:
        // idle; without the rook c9 the cannon is unprotected: a chase.
        let n = cxa("2r1k4/9/9/9/2c6/9/9/3N5/9/3K5 w", "d2e4");
        assert_idle(&n, None);
        let n = cxa("4k4/9/9/9/2c6/9/9/3N5/9/3K5 w", "d2e4");
        assert_chase(&n, &["c5"]);
    }

    #[test]
    fn an_uncrossed_pawn_is_no_material() {
        // Red K d0, R a1; Black K e9, P e6 (on its own side). §1: an uncrossed pawn is not
        // material, threatening it is never a chase.
        let n = cxa("4k4/9/9/4p4/9/9/9/9/R8/3K5 w", "a1a6");
        assert_idle(&n, None);
    }

    #[test]
    fn a_crossed_pawn_is_material() {
        // Red K d0, R a1; Black K e9, P e3 (crossed). §1: a crossed pawn is material: Ra3
        // chases it.
        let n = cxa("4k4/9/9/9/9/9/4p4/9/R8/3K5 w", "a1a3");
        assert_chase(&n, &["e3"]);
    }

    #[test]
    fn a_pawn_that_has_just_crossed_is_no_gain() {
        // Black K e9, P e5 (steps across to e4); Red K d0, R a1. §1: capturing a pawn that has
        // just crossed is not a gain, so Ra4 is idle; with the option off it is a chase.
        let (fen, moves) = ("4k4/9/9/9/4p4/9/9/9/R8/3K5 b", "e5e4 a1a4");
        assert_idle(&cxa(fen, moves), None);
        let p = Profile {
            just_crossed_pawn_is_no_gain: false,
            ..Profile::cxa()
        };
        let n = every_orientation(fen, moves, &p);
        assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    }

    #[test]
    fn a_pawn_floats_in_the_balance() {
        // §1: a crossed pawn floats: one pawn for a piece, or a piece for pawns, is not a gain.
        let pawn_for_horse = Mat {
            pieces: 5,
            pawns: -1,
        };
        assert!(!pawn_for_horse.is_gain());
        assert!(
            !Mat {
                pieces: -5,
                pawns: 3
            }
            .is_gain()
        );
        assert!(
            Mat {
                pieces: 0,
                pawns: 1
            }
            .is_gain()
        );
        assert!(!Mat::default().is_gain());
    }
}
