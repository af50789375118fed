//! Idle kinds (RULES.md §2: 兑 exchange offer, 献 offer, 拦 block, 跟 follow) of an idle move.

use super::*;

impl Analyzer<'_> {
    /// The idle kind of an idle move, if one applies.
    pub(super) fn idle_kind(
        &mut self,
        before: &Position,
        m: Move,
        after: &Position,
        prev: Option<Move>,
    ) -> Option<IdleKind> {
        let moved = after.piece_at(m.to)?;
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
            return Some(IdleKind::Exchange);
        }
        if offer {
            return Some(IdleKind::Offer);
        }
        if self.opens_exchange(before, m, after) || self.presses_exchange(before, m, after) {
            return Some(IdleKind::Exchange);
        }
        let us = before.turn();
        let mut them_before = before.by_color(!us);
        if before.piece_at(m.to).is_some() {
            them_before = them_before.without(m.to);
        }
        let relevant = after.by_color(us) | Bitboard::palace(us);
        let lost =
            attacked_squares(before, them_before) - attacked_squares(after, after.by_color(!us));
        if (lost & relevant).any() {
            return Some(IdleKind::Block);
        }
        if let Some(p) = prev {
            let d_prev = (
                p.to.file().index() as i32 - p.from.file().index() as i32,
                p.to.rank().index() as i32 - p.from.rank().index() as i32,
            );
            let d = (
                m.to.file().index() as i32 - m.from.file().index() as i32,
                m.to.rank().index() as i32 - m.from.rank().index() as i32,
            );
            let aligned = m.from.file() == p.from.file() || m.from.rank() == p.from.rank();
            if d == d_prev && aligned && after.piece_at(p.to).is_some() {
                return Some(IdleKind::Follow);
            }
        }
        None
    }

    /// Whether the move sets two equal pieces against each other without moving either (兑 by
    /// a screen or an uncovered line, RULES.md §2: an exchange offer is idle-class): after it,
    /// an enemy piece and one of ours, worth the same, can each take the other ([`Self::mutual`]),
    /// and they could not before. A horse stepping off the line between two rooks, or a piece
    /// stepping between two cannons as their common screen, offers the exchange as surely as
    /// moving one of the pieces would.
    pub(super) fn opens_exchange(&mut self, before: &Position, m: Move, after: &Position) -> bool {
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
                if !self.exchange_partners(&mover_view, x, y).unwrap_or(false) {
                    continue;
                }
                // New: the pair did not stand in an exchange before the move.
                let was = before.piece_at(y) == after.piece_at(y) && self.mutual(before, x, y);
                if !was {
                    return true;
                }
            }
        }
        false
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
    ) -> bool {
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
                    && self.exchange_partners(&mover_view, x, y).unwrap_or(false)
                {
                    return true;
                }
            }
        }
        false
    }
}
