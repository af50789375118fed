//! Threats in two steps (RULES.md §2.1 "a complete exchange that nets material", §2.3 "protection
//! is judged after the capture"): a capture whose recapture removes another piece's protector, or
//! that attacks a second piece with gain of tempo.

use super::*;

/// Captures searched after the first capture of a two-step win ([`Analyzer::two_step_value`]):
/// the opponent's answer, the chaser's capture, the opponent's answer to that; then the side to
/// move's best static exchange.
pub(super) const TWO_STEP_PLIES: u32 = 3;

/// A bound above every balance ([`Analyzer::qs_key`]) of the capture-only search.
pub(super) const QS_INF: i32 = 1_000_000_000;

/// The scalar value's weight in [`Analyzer::qs_key`]: above twice any pawn count.
pub(super) const QS_KEY_SCALE: i32 = 64;

/// What the capture-only search of a two-step win needs to know besides the position.
pub(super) struct QsCtx<'a> {
    /// The side that makes the first capture.
    pub(super) chaser: Color,
    /// The position before the first capture: the chaser's captures of enemy pieces it could
    /// already win there (where they still stand) are not credited
    /// ([`Analyzer::already_won`]).
    pub(super) origin: &'a Position,
}

impl Analyzer<'_> {
    /// Two-step wins (RULES.md §2.1 and §2.3, [`Profile::two_step_wins`]): an enemy piece X that
    /// no direct exchange or series of checks wins is still won when the side to move can take
    /// it and, whatever capture the opponent answers with (a recapture, or a capture elsewhere),
    /// come out ahead after one more capture of its own, judged by the exchange on that square.
    /// The recapture is then no real protection: it removes the protector of another piece (an
    /// overloaded protector; trading off a root, 兑掉根子), or the capture of X attacked another
    /// piece with gain of tempo. A reply that captures nothing leaves X won outright. Only the
    /// captures the first one makes possible count as the second step: a piece that could
    /// already be won before it is a threat of its own, not a consequence of taking X. The
    /// first capture must be sound as a direct one is (not mated after it, not paid for
    /// elsewhere: [`Self::capture_is_sound`]), and an equal piece attacking back (兑) is an
    /// exchange offer, not a chase. Bounded: three plies (capture, capturing reply, capture) with
    /// static exchanges at the leaves, tried only on pieces with no other threat. The book
    /// rules a horse taking an elephant whose recapture uncovers the other horse on a rook a
    /// chase (参考图1), a cannon taking an advisor whose only protector also guards the cannon
    /// a rook attacks a chase (参考图13), and a cannon trading itself for the horse that alone
    /// protects a crossed pawn a chase (图4).
    pub(super) fn two_step_threats(
        &mut self,
        q: &Position,
        open: &[(Square, Captures)],
        out: &mut Vec<Threat>,
    ) -> Result<(), Exhausted> {
        // `open`: the material pieces that no capture wins by itself, each with the captures
        // of it that are not an exchange offer ([`Self::threats`]).
        for (s, caps) in open {
            let s = *s;
            let piece = q.piece_at(s).expect("piece");
            if out.iter().any(|t| t.square == s) {
                continue;
            }
            // Every capture winning the piece in two steps, the best kept; ties are kept
            // together, so that the description does not depend on where the pieces stand.
            let mut best: Option<(i32, Move, bool, bool, Mat)> = None;
            let mut firsts = Bitboard::EMPTY;
            let mut follows = Bitboard::EMPTY;
            let mut capturers = Bitboard::EMPTY;
            for &m in caps {
                if !self.two_step_possible(q, m) {
                    continue;
                }
                let Some((v, follow)) = self.two_step_value(q, m)? else {
                    continue;
                };
                if self.already_won(q, s) {
                    break; // won on its own square: not a two-step win
                }
                let (rel, abs) = self.capture_is_sound(q, m, v, true)?;
                if !rel && !abs {
                    continue;
                }
                capturers |= Bitboard::from_square(m.from);
                let sc = self.scalar(v) * 2 + i32::from(rel);
                match best {
                    Some((b, ..)) if b > sc => continue,
                    Some((b, ..)) if b == sc => {}
                    _ => {
                        best = Some((sc, m, rel, abs, v));
                        firsts = Bitboard::EMPTY;
                        follows = Bitboard::EMPTY;
                    }
                }
                firsts |= Bitboard::from_square(m.from);
                follows |= follow;
            }
            let Some((_, first, rel, abs, _)) = best else {
                continue;
            };
            let mut line = ArrayVec::new();
            line.push(first.from);
            for sq in (firsts | follows).without(first.from) {
                let _ = line.try_push(sq);
            }
            out.push(Threat {
                square: s,
                piece,
                how: WinHow::Exchange,
                line,
                first,
                rel,
                abs,
                capturers,
                follow: follows,
                group: Bitboard::EMPTY,
                rooted: false,
                ties: ArrayVec::new(),
                net: 0,
            });
        }
        Ok(())
    }

    /// A cheap necessary condition of a two-step win by the capture `m` in `q`: the enemy has
    /// a piece (other than the one taken) worth more than the first capture loses if the
    /// capturer is taken back.
    pub(super) fn two_step_possible(&self, q: &Position, m: Move) -> bool {
        let us = q.turn();
        let x = q.piece_at(m.to).map(|p| self.mat(p)).unwrap_or_default();
        let lost = self.mat(q.piece_at(m.from).expect("capturer"));
        let deficit = -self.scalar(x - lost);
        let mut top = 0;
        for sq in q.by_color(!us).without(m.to) {
            if let Some(p) = q.piece_at(sq).filter(|p| p.role != Role::King) {
                top = top.max(self.scalar(self.mat(p)));
            }
        }
        top > deficit
    }

    /// The balance of the capture `m` in `q` for the side to move, against the opponent's best
    /// answer in a capture-only search of [`TWO_STEP_PLIES`] more captures (each side may stop
    /// capturing; at the end the side to move takes its best static exchange, [`Self::see`]),
    /// in which the chaser's captures of pieces it could already win in `q` do not count ([`Self::two_step_threats`]); moreover, after every recapture, the chaser's best
    /// static exchange alone must make the whole a gain. `Some((balance, the chaser's pieces
    /// that win the second piece after the opponent's best recapture))` when it is a gain,
    /// `None` otherwise. A capture with check is left to the win by checks (抽将), which reads
    /// the series and names the piece it finally wins.
    pub(super) fn two_step_value(
        &mut self,
        q: &Position,
        m: Move,
    ) -> Result<Option<(Mat, Bitboard)>, Exhausted> {
        let us = q.turn();
        let x = q.piece_at(m.to).map(|p| self.mat(p)).unwrap_or_default();
        let r1 = q.after(m);
        if r1.is_check() {
            return Ok(None);
        }
        let recaptures = Self::captures_to(&r1, m.to);
        if recaptures.is_empty() {
            return Ok(None);
        }
        let ctx = QsCtx {
            chaser: us,
            origin: q,
        };
        // After every recapture, the chaser's best static exchange must make up for the
        // capturer (the second step itself: cheap, and it refutes almost every candidate)...
        let lost = self.mat(q.piece_at(m.from).expect("capturer"));
        let mut follow: Option<(i32, Bitboard)> = None;
        for rm in recaptures {
            let r2 = r1.after(rm);
            // (No piece worth enough to win: no exchange needs reading.)
            if self.scalar(x - lost) + self.top_victim(&r2) <= 0 {
                return Ok(None);
            }
            let (back, by) = self.best_follow(&r2, &ctx, x - lost);
            let total = x - lost + back;
            if !total.is_gain() {
                return Ok(None);
            }
            let sc = self.scalar(total);
            match follow {
                Some((f, _)) if f < sc => {}
                Some((f, ref mut b)) if f == sc => *b |= by,
                _ => follow = Some((sc, by)),
            }
        }
        // ... and the capture-only search must hold against every answer.
        let (theirs, _) = self.qs(&r1, TWO_STEP_PLIES, -QS_INF, QS_INF, &ctx)?;
        let total = x - theirs;
        if !total.is_gain() {
            return Ok(None);
        }
        Ok(follow.map(|(_, f)| (total, f)))
    }

    /// The side to move's best static exchange in `pos` among the captures the two-step search
    /// counts, and every piece of its that starts one as good. `base` is what the line has
    /// netted before it: among exchanges of equal value, one after which the whole is a gain
    /// ([`Mat::is_gain`]: a crossed pawn floats, one pawn for a piece is none) ranks above one
    /// after which it is not (the chaser picks the capture that wins; ranked by value alone,
    /// the first found would be kept, in square order, which a mirrored board reverses).
    pub(super) fn best_follow(
        &mut self,
        pos: &Position,
        ctx: &QsCtx,
        base: Mat,
    ) -> (Mat, Bitboard) {
        let turn = pos.turn();
        let mut best = Mat::default();
        let mut best_rank = 0;
        let mut by = Bitboard::EMPTY;
        for s in pos.by_color(!turn) & pos.attacked_by(turn) {
            let Some(p) = pos.piece_at(s) else { continue };
            if p.role == Role::King {
                continue;
            }
            let (v, _) = self.see(pos, s, 0);
            let sc = self.scalar(v);
            let rank = sc * 2 + i32::from((base + v).is_gain());
            if rank < best_rank || sc <= 0 || self.not_credited(pos, s, p, ctx) {
                continue;
            }
            if rank > best_rank {
                best = v;
                best_rank = rank;
                by = Bitboard::EMPTY;
            }
            // Every capturer that starts an exchange as good (not only the first found).
            let victim = self.mat(p);
            for c in Self::captures_to(pos, s) {
                let (back, _) = self.see(&pos.after(c), s, 1);
                if self.scalar(victim - back) == sc {
                    by |= Bitboard::from_square(c.from);
                }
            }
        }
        (best, by)
    }

    /// Whether the side to move of `q` wins the enemy piece on `s` by a direct exchange (any
    /// favourable balance: a pawn for a rook too), remembered per position.
    pub(super) fn already_won(&mut self, q: &Position, s: Square) -> bool {
        if self.won_cache.0 != q.key() {
            self.won_cache = (q.key(), Bitboard::EMPTY, Bitboard::EMPTY);
        }
        if !self.won_cache.1.contains(s) {
            let v = self.see(q, s, 0).0;
            self.won_cache.1 |= Bitboard::from_square(s);
            if self.scalar(v) > 0 {
                self.won_cache.2 |= Bitboard::from_square(s);
            }
        }
        self.won_cache.2.contains(s)
    }

    /// Whether a capture of the piece `p` on `s` in `pos` is not credited to the chaser in a
    /// two-step win: it is the chaser's, and the same piece stood there before the first
    /// capture, already won by a direct exchange (a threat of its own, not a consequence).
    pub(super) fn not_credited(
        &mut self,
        pos: &Position,
        s: Square,
        p: Piece,
        ctx: &QsCtx,
    ) -> bool {
        pos.turn() == ctx.chaser
            && ctx.origin.piece_at(s) == Some(p)
            && self.already_won(ctx.origin, s)
    }

    /// The most valuable (scalar) enemy piece other than the general that the side to move of
    /// `pos` attacks: a bound on what one more capture can win.
    pub(super) fn top_victim(&self, pos: &Position) -> i32 {
        let turn = pos.turn();
        let mut top = 0;
        for s in pos.by_color(!turn) & pos.attacked_by(turn) {
            let Some(p) = pos.piece_at(s) else { continue };
            if p.role != Role::King {
                top = top.max(self.scalar(self.mat(p)));
            }
        }
        top
    }

    /// The value a balance has in the capture-only search ([`Self::qs`]): its scalar value
    /// (RULES.md §1), and at equal value the balance with more of it in pieces above the other
    /// (a crossed pawn floats, RULES.md §1; pieces do not: a side keeps a piece rather than
    /// take pawns of the same value for it). Balances of equal value can differ in what they
    /// are made of, and that decides whether the chaser's total is a gain ([`Mat::is_gain`]:
    /// one pawn for a piece is none); ranked by value alone, the first found among them was
    /// kept, and captures are found in square order, which a mirrored board reverses. Linear in
    /// the balance, so that the alpha-beta window works on it as on the value.
    pub(super) fn qs_key(&self, v: Mat) -> i32 {
        self.scalar(v) * QS_KEY_SCALE - v.pawns
    }

    /// Capture-only search for [`Self::two_step_value`]: the best balance for the side to move
    /// of `pos` (never below zero: it may stop capturing) within `plies` captures, with an
    /// alpha-beta window on the balance's value ([`Self::qs_key`]: at equal value, the balance
    /// with more of it in pieces), and the first capture of the best line. At the horizon, the
    /// side to move's best static exchange.
    pub(super) fn qs(
        &mut self,
        pos: &Position,
        plies: u32,
        mut alpha: i32,
        beta: i32,
        ctx: &QsCtx,
    ) -> Result<(Mat, Option<Move>), Exhausted> {
        self.budget.tick()?;
        let turn = pos.turn();
        let mut squares: ArrayVec<(i32, Square), 16> = ArrayVec::new();
        for s in pos.by_color(!turn) & pos.attacked_by(turn) {
            let Some(p) = pos.piece_at(s) else { continue };
            if p.role == Role::King || self.not_credited(pos, s, p, ctx) {
                continue;
            }
            let _ = squares.try_push((self.qs_key(self.mat(p)), s));
        }
        let mut best = Mat::default();
        let mut best_move = None;
        if plies == 0 {
            for (_, s) in squares {
                let (v, line) = self.see(pos, s, 0);
                if self.qs_key(v) > self.qs_key(best) {
                    best = v;
                    best_move = line.first().map(|&f| Move::new(f, s));
                }
            }
            return Ok((best, best_move));
        }
        if 0 >= beta {
            return Ok((best, None));
        }
        alpha = alpha.max(0);
        // Most valuable victims first.
        squares.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        for (gain, s) in squares {
            let victim = pos.piece_at(s).map(|p| self.mat(p)).unwrap_or_default();
            for c in Self::captures_to(pos, s) {
                let (child, _) =
                    self.qs(&pos.after(c), plies - 1, gain - beta, gain - alpha, ctx)?;
                let v = victim - child;
                let sc = self.qs_key(v);
                if sc > self.qs_key(best) {
                    best = v;
                    best_move = Some(c);
                    if sc >= beta {
                        return Ok((best, best_move));
                    }
                    alpha = alpha.max(sc);
                }
            }
        }
        Ok((best, best_move))
    }
}

#[cfg(test)]
mod tests {
    //! Threats in two steps (RULES.md §2.1 "a complete exchange that nets material", §2.3
    //! "protection is judged after the capture"), each position in all four orientations.
    use crate::rules::nature::WinHow;
    use crate::rules::nature::testkit::{
        assert_chase, assert_idle, axf, by, cxa, every_orientation,
    };
    use crate::rules::profile::Profile;

    #[test]
    fn trading_off_the_only_protector_of_a_second_piece() {
        // Red K d0, C i0, N d2, P f5; Black K e9, B e7, N c5, P e4. §2.1/§2.3 (图4): Ci5
        // attacks c5 over f5; cannon for horse is even, but the horse c5 alone protected the
        // crossed pawn e4, which Nd2 takes after the elephant's recapture: cannon and horse
        // chase c5 together. Without the pawn e4 the trade wins nothing: idle.
        let n = cxa("4k4/9/4b4/9/2n2P3/4p4/9/3N5/9/3K4C w", "i0i5");
        assert_chase(&n, &["c5"]);
        assert_eq!(n.targets[0].how, WinHow::Exchange);
        assert!(n.targets[0].joint);
        assert_eq!(by(&n, "c5"), ["d2", "i5"]);
        assert_idle(&cxa("4k4/9/4b4/9/2n2P3/9/9/3N5/9/3K4C w", "i0i5"), None);
    }

    #[test]
    fn a_recapture_that_uncovers_an_attack_on_a_rook() {
        // Red K d0, N f5, N h3; Black K e9, B e7 g9, R g6. §2.1 (参考图1): with the horse on f4,
        // Nxe7 lifts the leg of f4 towards g6, so the elephant's recapture costs the rook.
        let n = cxa("4k1b2/9/4b4/6r2/5N3/9/7N1/9/9/3K5 w", "h3f4");
        assert_chase(&n, &["e7"]);
        assert!(n.targets[0].joint);
    }

    #[test]
    fn a_two_step_win_completed_by_a_pawn_is_idle() {
        // As the first test, but the pawn e3, not a horse, takes e4 after the trade: the
        // general or a pawn attacking by itself is idle (CXA 第27条, 参考图33).
        assert_idle(&cxa("4k4/9/4b4/9/2n2P3/4p4/4P4/9/9/3K4C w", "i0i5"), None);
        // AXF has no two-step wins (a protected piece is won only on its square).
        assert_idle(&axf("4k4/9/4b4/9/2n2P3/4p4/9/3N5/9/3K4C w", "i0i5"), None);
    }

    #[test]
    fn an_elephant_protecting_two_pieces_is_overloaded() {
        // Red K e1, C i0, P c3, N f3; Black K f9, B e7, N c5, C g5. §2.3: the elephant e7 alone
        // protects both c5 and g5 (the horse f3 attacks g5). Cc0 attacks c5 over c3: cannon for
        // horse, and after the elephant takes back g5 hangs to the horse: a joint chase of c5
        // in two steps. Without the horse, or without the cannon g5, the trade is even: idle.
        let n = cxa("5k3/9/4b4/9/2n3c2/9/2P2N3/9/4K4/8C w", "i0c0");
        assert_chase(&n, &["c5"]);
        assert_eq!(n.targets[0].how, WinHow::Exchange);
        assert_eq!(by(&n, "c5"), ["c0", "f3"]);
        assert_idle(&cxa("5k3/9/4b4/9/2n3c2/9/2P6/9/4K4/8C w", "i0c0"), None);
        assert_idle(&cxa("5k3/9/4b4/9/2n6/9/2P2N3/9/4K4/8C w", "i0c0"), None);
    }

    #[test]
    fn without_two_step_wins_a_protected_piece_is_won_only_on_its_square() {
        // The overloaded elephant again, with `two_step_wins` off (the AXF reading): idle.
        let p = Profile {
            two_step_wins: false,
            ..Profile::cxa()
        };
        let n = every_orientation("5k3/9/4b4/9/2n3c2/9/2P2N3/9/4K4/8C w", "i0c0", &p);
        assert_idle(&n, None);
    }
}
