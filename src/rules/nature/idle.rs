//! Idle kinds (RULES.md §2: 兑 exchange offer, 献 offer, 拦 block, 跟 follow) of an idle move.

use super::*;

impl Analyzer<'_> {
    /// The idle kind of an idle move, if one applies, in the order of the rulebook's weight:
    /// 兑 (the moved piece offers an even exchange, or the move sets two equal pieces against
    /// each other, or presses such a pair), 献 (the moved piece is put where the opponent wins
    /// it), 拦 ([`Self::blocks`]), 跟 ([`follows`]). `Err` when the budget runs out before the
    /// kind is known (the nature is then undetermined, never a guessed kind).
    pub(super) fn idle_kind(
        &mut self,
        before: &Position,
        m: Move,
        after: &Position,
        prev: Option<Move>,
    ) -> Result<Option<IdleKind>, Exhausted> {
        let Some(moved) = after.piece_at(m.to) else {
            return Ok(None);
        };
        let mut exchange = false;
        let mut offer = false;
        for cm in Self::captures_to(after, m.to) {
            let Some(taker) = after.piece_at(cm.from) else {
                continue;
            };
            let r = after.after(cm);
            let (back, _) = self.see(&r, m.to, 1);
            let v = self.mat(moved) - back;
            if v.is_gain() {
                offer = true;
            } else if taker.role != Role::King
                && self.mat(taker) == self.mat(moved)
                && v.pieces == 0
            {
                exchange = true;
            }
        }
        if exchange {
            return Ok(Some(IdleKind::Exchange));
        }
        if offer {
            return Ok(Some(IdleKind::Offer));
        }
        if self.opens_exchange(before, m, after)? || self.presses_exchange(before, m, after)? {
            return Ok(Some(IdleKind::Exchange));
        }
        if Self::blocks(before, m, after) {
            return Ok(Some(IdleKind::Block));
        }
        if prev.is_some_and(|p| follows(before, p, m, after)) {
            return Ok(Some(IdleKind::Follow));
        }
        Ok(None)
    }

    /// 拦 (RULES.md §2, idle kinds): the moved piece, where it now stands, is in the way of an
    /// enemy piece's movement: it cuts a rook's or cannon's line (or is a cannon's second
    /// screen), stands on a horse's leg or an elephant's eye, so that the enemy piece no longer
    /// reaches one of the mover's pieces or a square of the mover's palace that it reached
    /// before the move. Only what the piece on its new square stops counts: a move that takes
    /// away a cannon's screen stops the cannon by leaving, not by standing in its way (the
    /// opening 炮二平五 takes the screen from the black cannon on h7 against the horse on h0,
    /// and is no block), and a captured piece's attacks are not blocked but gone.
    pub(super) fn blocks(before: &Position, m: Move, after: &Position) -> bool {
        let us = before.turn();
        let them = after.by_color(!us);
        let relevant = after.by_color(us).without(m.to) | Bitboard::palace(us);
        // (Cheap first: something the enemy reached before must be lost at all.)
        let lost = (attacked_squares(before, them) - attacked_squares(after, them)) & relevant;
        if lost.is_empty() {
            return false;
        }
        let without = after.without(m.to);
        // Reached before the move and with the moved piece off its new square, not with it.
        (lost & attacked_squares(&without, them)).any()
    }

    /// Whether the move sets two equal pieces against each other without moving either (兑 by
    /// a screen or an uncovered line, RULES.md §2: an exchange offer is idle-class): after it,
    /// an enemy piece and one of ours, worth the same, can each take the other ([`Self::mutual`]),
    /// and they could not before. A horse stepping off the line between two rooks, or a piece
    /// stepping between two cannons as their common screen, offers the exchange as surely as
    /// moving one of the pieces would.
    pub(super) fn opens_exchange(
        &mut self,
        before: &Position,
        m: Move,
        after: &Position,
    ) -> Result<bool, Exhausted> {
        let us = before.turn();
        // (Only pieces the opponent attacks can stand in an exchange.)
        let ours = after.by_color(us).without(m.to) & after.attacked_by(!us);
        let mover_view = after.null_move();
        for x in ours {
            if after.piece_at(x).is_some_and(|p| p.role == Role::King) {
                continue;
            }
            for cm in Self::captures_to(after, x) {
                let y = cm.from;
                if !self.exchange_partners(&mover_view, x, y)? {
                    continue;
                }
                // New: the pair did not stand in an exchange before the move: `y` could not
                // take `x`, or `x` now takes `y` and could not (参考图50: the rook leaving c5
                // frees the black horse's leg towards the red horse on b6, which could already
                // take it).
                let same = before.piece_at(y) == after.piece_at(y);
                let x_takes =
                    |pos: &Position| Self::captures_to(pos, y).iter().any(|c| c.from == x);
                let was =
                    same && self.mutual(before, x, y) && (x_takes(before) || !x_takes(&mover_view));
                if !was {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Whether the move presses or supports an exchange (兑) that stands after it: an enemy piece
    /// `y` and one of ours `x` (not the moved piece), worth the same and both material, could
    /// take each other before the move and still can ([`Self::stood_before`],
    /// [`Self::exchange_partners`]), and the moved piece newly attacks `y` or newly protects `x`
    /// (it could take back on `x` after `y` takes there), which it did not before the move.
    /// RULES.md §2: an exchange offer is idle-class (idle kind 兑). 图30: the black rook comes to
    /// f6 beside the red horse on e6, which faces the black horse on c7 (兑); the red cannon
    /// answers from b2 to b6, protecting e6 over the pawn on c6 (兑 again).
    pub(super) fn presses_exchange(
        &mut self,
        before: &Position,
        m: Move,
        after: &Position,
    ) -> Result<bool, Exhausted> {
        let us = before.turn();
        let mover_view = after.null_move();
        let ours = after.by_color(us).without(m.to) & after.attacked_by(!us);
        for x in ours {
            if after.piece_at(x).is_some_and(|p| p.role == Role::King) {
                continue;
            }
            let value = after.piece_at(x).map(|p| self.mat(p));
            if after.piece_at(x).is_none_or(|p| !self.is_material(p, x)) {
                continue;
            }
            for cm in Self::captures_to(after, x) {
                let y = cm.from;
                if after.piece_at(y).map(|p| self.mat(p)) != value
                    || after.piece_at(y).is_none_or(|p| !self.is_material(p, y))
                    || before.piece_at(y) != after.piece_at(y)
                {
                    continue;
                }
                let attacks_now = Self::pseudo_capturers(&mover_view, y, us).contains(m.to);
                let attacked_before = Self::pseudo_capturers(before, y, us).contains(m.from);
                let taken_now = after.after(Move::new(y, x));
                let protects_now = Self::pseudo_capturers(&taken_now, x, us).contains(m.to);
                let taken_before = before.null_move().after(Move::new(y, x));
                let protected_before =
                    Self::pseudo_capturers(&taken_before.null_move(), x, us).contains(m.from);
                let newly_bears =
                    (attacks_now && !attacked_before) || (protects_now && !protected_before);
                if !newly_bears {
                    continue;
                }
                if Self::stood_before(before, &mover_view, x, y)
                    && self.exchange_partners(&mover_view, x, y)?
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// 跟 (RULES.md §2, idle kinds): the moved piece follows the enemy piece that has just moved
/// (`p`), keeping the same relation to it: it makes the same step (same direction and
/// distance), so that the two stand to each other as they did before the enemy piece moved, and
/// that relation is one: they face each other on a file or rank with nothing between, or one
/// attacks the other (two cannons copying each other's step behind their pawns do not follow).
/// The followed piece must still stand where it went (taking it is no follow).
pub(super) fn follows(before: &Position, p: Move, m: Move, after: &Position) -> bool {
    let step = |x: Move| {
        (
            x.to.file().index() as i32 - x.from.file().index() as i32,
            x.to.rank().index() as i32 - x.from.rank().index() as i32,
        )
    };
    if step(p) != step(m) || m.to == p.to {
        return false;
    }
    let us = before.turn();
    if after.piece_at(p.to).is_none_or(|x| x.color == us) {
        return false;
    }
    // Facing each other on a file or rank with nothing between, or one attacking the other.
    let aligned = m.to.file() == p.to.file() || m.to.rank() == p.to.rank();
    let facing = aligned && (attacks::between(m.to, p.to) & after.occupied()).is_empty();
    facing
        || attacked_squares(after, Bitboard::from_square(m.to)).contains(p.to)
        || attacked_squares(after, Bitboard::from_square(p.to)).contains(m.to)
}

#[cfg(test)]
mod tests {
    //! The idle kinds (RULES.md §2: 兑 exchange offer, 献 offer, 拦 block, 跟 follow), each by its
    //! definition, each position in all four orientations of the board.
    use crate::position::Position;
    use crate::rules::nature::IdleKind;
    use crate::rules::nature::testkit::{assert_idle, cxa};

    #[test]
    fn exchange_the_moved_piece_offers_an_even_trade() {
        // Red K f0, R e1, N c4; Black K d9, R c9, N c6. 兑: the horse comes to e5, where the
        // black horse (protected by the rook c9) can take it and be taken back by the rook e1,
        // horse for horse: an exchange offer, idle.
        let n = cxa("2rk5/9/9/2n6/9/2N6/9/9/4R4/5K3 w", "c4e5");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn offer_the_moved_piece_is_put_where_it_is_won() {
        // Red K d0, R a1; Black K e9, N c4. 献: the rook goes to a3, where the horse takes it for
        // nothing: an offer, idle.
        assert_idle(
            &cxa("4k4/9/9/9/9/2n6/9/9/R8/3K5 w", "a1a3"),
            Some(IdleKind::Offer),
        );
    }

    #[test]
    fn block_the_moved_piece_stands_on_a_horse_leg() {
        // Red K d0, R c6, C b2; Black K e9, N b8 (attacks c6 over the leg b7). 拦: the cannon
        // comes to b7, on the horse's leg: the horse no longer reaches the rook. The cannon on
        // b5 stops nothing: no idle kind.
        let fen = "4k4/1n7/9/2R6/9/9/9/1C7/9/3K5 w";
        assert_idle(&cxa(fen, "b2b7"), Some(IdleKind::Block));
        assert_idle(&cxa(fen, "b2b5"), None);
    }

    #[test]
    fn block_the_moved_piece_stands_in_a_rook_line() {
        // Red K d0, R a3, N h5, N i2; Black K e9, A d9 f9, B c9 g9, R i9 (attacks i2). 拦: the
        // horse goes to i3, protected by the rook a3, between the rook i9 and the horse i2. On
        // g3 it stops nothing: no idle kind.
        let fen = "2bakab1r/9/9/9/7N1/9/R8/8N/9/3K5 w";
        assert_idle(&cxa(fen, "h5i3"), Some(IdleKind::Block));
        assert_idle(&cxa(fen, "h5g3"), None);
    }

    #[test]
    fn taking_away_a_cannon_screen_is_no_block() {
        // The opening 炮二平五 (h2e2) takes the screen from the black cannon h7 against the
        // horse h0: it stops the cannon by leaving, not by standing in its way (issue 16, item
        // 11): no idle kind.
        let start = Position::start().fen();
        assert_idle(&cxa(&start, "h2e2"), None);
    }

    #[test]
    fn follow_the_moved_piece_keeps_its_relation_to_the_piece_that_just_moved() {
        // Black K e9, C a7, R i7 (protects the cannon along rank 7); Red K d0, R a1. 跟: the
        // cannon steps to b7 and the rook follows to b1, facing it again on the file (the
        // protected cannon is not chased): follow. Going to c1 instead keeps no relation.
        let fen = "4k4/9/c7r/9/9/9/9/9/R8/3K5 b";
        assert_idle(&cxa(fen, "a7b7 a1b1"), Some(IdleKind::Follow));
        assert_idle(&cxa(fen, "a7b7 a1c1"), None);
    }
}
