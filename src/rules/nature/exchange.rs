//! Exchanges (兑, RULES.md §2: an exchange offer is idle-class): two equal pieces that can take
//! each other, whether the opponent can really accept, and the threats that are only an exchange
//! carried out (a target that can be traded is pressed, not chased).

use super::*;

impl Analyzer<'_> {
    /// Whether the enemy piece on `target` can legally take the chaser's piece on `attacker` and
    /// is worth the same: a mutual attack of equals is an exchange offer (兑), not a chase.
    pub(super) fn mutual(&self, q: &Position, attacker: Square, target: Square) -> bool {
        let (Some(a), Some(b)) = (q.piece_at(attacker), q.piece_at(target)) else {
            return false;
        };
        if self.mat(a) != self.mat(b) {
            return false;
        }
        let opp = q.null_move();
        Self::captures_to(&opp, attacker)
            .iter()
            .any(|m| m.from == target)
    }

    /// Whether our piece on `x` and the enemy piece on `y` stand in a real exchange (兑) in `q`
    /// (our side to move): each can take the other and they are worth the same
    /// ([`Self::mutual`]), and the opponent can really accept, i.e. taking first does not lose
    /// to mate by checks (within `refutation_mate_cap`), the test of a false root (RULES.md §2.3)
    /// applied to the exchange. An offer the opponent cannot accept is no exchange: the book
    /// rules a rook offering a rook exchange idle (图29), but the same offer made while the
    /// enemy rook is tied to its line by a mate a mate threat (图29 variation).
    pub(super) fn exchange_partners(
        &mut self,
        q: &Position,
        x: Square,
        y: Square,
    ) -> Result<bool, Exhausted> {
        if !self.mutual(q, x, y) {
            return Ok(false);
        }
        let accepted = q.null_move().after(Move::new(y, x));
        Ok(!search::mate_by_checks_with(
            &accepted,
            self.profile.refutation_mate_cap,
            &mut self.budget,
            &mut self.mates,
        )?)
    }

    /// Whether our piece on `x` and the enemy piece on `y` stand in an exchange offer (兑) that
    /// keeps `x` from threatening `y`: [`Self::exchange_partners`] when the profile needs the
    /// opponent to be able to accept (`exchange_needs_acceptance`), else [`Self::mutual`].
    pub(super) fn stands_in_exchange(
        &mut self,
        q: &Position,
        x: Square,
        y: Square,
    ) -> Result<bool, Exhausted> {
        if self.profile.exchange_needs_acceptance {
            self.exchange_partners(q, x, y)
        } else {
            Ok(self.mutual(q, x, y))
        }
    }

    /// Whether the check `m` takes an enemy piece that attacks the checking piece and is worth
    /// the same (the two stand in an exchange, 兑). A series of checks opened by that capture
    /// is the exchange carried out, not a new threat: the opponent, on the move, could just as
    /// well take first, so whatever the series wins after the capture is the exchange's
    /// consequence (RULES.md §2: an exchange offer is idle-class; the direct capture of such a
    /// piece is already left out by [`Self::mutual`], and taking it with check changes nothing).
    pub(super) fn opens_with_exchange(&mut self, q: &Position, m: Move) -> Result<bool, Exhausted> {
        if q.piece_at(m.to).is_none() {
            return Ok(false);
        }
        self.exchange_partners(q, m.from, m.to)
    }

    /// Given that the side to move of `q` mates by checks: whether it also does so without
    /// capturing an exchange partner, an enemy piece that one of ours attacks and that could take
    /// that piece back, worth the same ([`Self::mutual`]). A mate that needs that capture is the
    /// exchange offer's consequence, not a mate threat: the opponent could just as well take
    /// first (兑 is idle-class, RULES.md §2). The book rules a rook offering a rook exchange
    /// idle though taking the rook would mate (图29), and a rook move making such a mate while
    /// attacking an unprotected piece a chase (图17).
    pub(super) fn mate_not_only_through_exchange(
        &mut self,
        q: &Position,
    ) -> Result<bool, Exhausted> {
        let us = q.turn();
        let mut partners: ArrayVec<Square, 8> = ArrayVec::new();
        for x in q.by_color(us) {
            let opp = q.null_move();
            for cm in Self::captures_to(&opp, x) {
                if !partners.contains(&cm.from) && self.exchange_partners(q, x, cm.from)? {
                    let _ = partners.try_push(cm.from);
                }
            }
        }
        for y in partners {
            if !search::mate_by_checks_sparing(q, self.profile.mate_ply_cap, y, &mut self.budget)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the enemy piece on `y` stands in an exchange (兑) in `q` (the mover to move, the
    /// opponent having passed): one of our pieces, worth the same, and `y` can each take the
    /// other and the opponent can really accept ([`Self::exchange_partners`]), both are
    /// material (a pawn only once across the river), and taking first is an even trade (our
    /// best exchange on that square after `y` takes there wins back exactly the piece `y`: not
    /// less, or `y` would simply win our piece, nor more, or the trade would lose). The
    /// opponent then answers any further attack on `y` by trading, so the attack presses the exchange offer and does not chase `y` (RULES.md
    /// §2: an exchange offer 兑 is idle-class). 图21: the red rook comes back to f6, next to the
    /// horse on f5 that faces the black horse on h6; h6 is now attacked twice and protected once
    /// (by the rook on h3), but the black horse can take f5 and be taken back, horse for horse:
    /// the book calls the rook move 兑, not 捉. 图30 (Black's rook to f6 against the horse on e6
    /// that faces the horse on c7) likewise.
    pub(super) fn target_in_exchange(
        &mut self,
        before: &Position,
        q: &Position,
        y: Square,
    ) -> Result<bool, Exhausted> {
        let us = q.turn();
        let Some(target) = q.piece_at(y) else {
            return Ok(false);
        };
        let opp = q.null_move();
        for x in q.by_color(us) & attacked_squares(q, Bitboard::from_square(y)) {
            if q.piece_at(x)
                .is_none_or(|p| self.mat(p) != self.mat(target) || !self.is_material(p, x))
                || !Self::captures_to(q, y).iter().any(|m| m.from == x)
                || !Self::stood_before(before, q, x, y)
                || !self.exchange_partners(q, x, y)?
            {
                continue;
            }
            let r = opp.after(Move::new(y, x));
            let (back, _) = self.see(&r, x, 1);
            if self.scalar(back) == self.scalar(self.mat(target)) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether one of the pieces that can start winning the threatened piece is worth less than
    /// it (a horse or cannon on a rook): the first capture gains whatever the protection, so the
    /// threat does not rest on outnumbering the protectors (RULES.md §2.4, net gain beats
    /// protection) and an exchange the target stands in does not answer it.
    pub(super) fn wins_by_value(&self, q: &Position, t: &Threat) -> bool {
        let target = self.scalar(self.mat(t.piece));
        for c in t.capturers {
            if q.piece_at(c)
                .is_some_and(|p| self.scalar(self.mat(p)) < target)
            {
                return true;
            }
        }
        false
    }

    /// Whether the pieces on `x` (ours) and `y` (the opponent's) of `q` (our side to move) stood
    /// on the same squares before our move and could already take each other there: the
    /// exchange was on offer before the move (not made by it).
    pub(super) fn stood_before(before: &Position, q: &Position, x: Square, y: Square) -> bool {
        before.piece_at(x).is_some()
            && before.piece_at(x) == q.piece_at(x)
            && before.piece_at(y) == q.piece_at(y)
            && Self::captures_to(before, y).iter().any(|m| m.from == x)
            && Self::captures_to(&before.null_move(), x)
                .iter()
                .any(|m| m.from == y)
    }
}
