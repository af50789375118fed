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
                || !self.exchange_partners(q, x, y)?
            {
                continue;
            }
            // An exchange the move made answers only an attack that rests on the partner: the
            // target, were the partner not on the board, would not be won.
            if !Self::stood_before(before, q, x, y) && self.won_without(q, x, y)? {
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

    /// Whether the side to move of `q` wins the enemy piece on `y` by a capture or exchange on
    /// its square with its own piece on `x` taken off the board.
    fn won_without(&mut self, q: &Position, x: Square, y: Square) -> Result<bool, Exhausted> {
        let without = q.without(x);
        if without.null_move().is_check() {
            return Ok(true);
        }
        for m in Self::captures_to(&without, y) {
            let (v, _, _) = self.capture_balance_in(&without, m, Refute::WhenNoGain)?;
            if v.is_gain() {
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

#[cfg(test)]
mod tests {
    //! Exchanges (兑, RULES.md §2: idle-class), each position in all four orientations.
    use crate::rules::nature::IdleKind;
    use crate::rules::nature::testkit::{assert_chase, assert_idle, axf, cxa};

    #[test]
    fn an_exchange_the_move_makes_answers_an_attack_resting_on_the_partner() {
        // 参考图50: Red K e0, A d0 f0, B c0 e2, N b6, R i6, C g8 h7, P a3 e3 g3 i3; Black K e9,
        // A d9 f9, B e7 g9, C d8, N e8 d5, R c5, P a6 g5 c3. The rook steps from c5 to b5: it
        // attacks the horse b6 and frees the leg of the horse d5 towards it, so b6 is attacked
        // twice and protected once (rook i6); but the red horse, which could already take d5,
        // can now trade itself off horse for horse, and without the horse d5 the rook alone
        // wins nothing: an exchange offer (兑), idle.
        let fen = "3akab2/3cn1C2/4b2C1/pN6R/2rn2p2/9/P1p1P1P1P/4B4/9/2BAKA3 b";
        assert_idle(&cxa(fen, "c5b5"), Some(IdleKind::Exchange));
        // 参考图49's cannon on b2 behind the rook: rook and cannon win b6 without the horse d5:
        // a chase.
        let fen = "3akab2/3cn1C2/4b2C1/pN6R/2rn2p2/9/P1p1P1P1P/1c2B4/5N3/2BAKA3 b";
        assert_chase(&cxa(fen, "c5b5"), &["b6"]);
        // Without the red rook i6 the rook alone wins the unprotected horse: a chase.
        let fen = "3akab2/3cn1C2/4b2C1/pN7/2rn2p2/9/P1p1P1P1P/4B4/9/2BAKA3 b";
        assert_chase(&cxa(fen, "c5b5"), &["b6"]);
    }

    #[test]
    fn facing_rooks_offer_an_exchange() {
        // Red K d0, R a1, N b3 (guards c1); Black K e9, N e8 (guards c7), R c7. §2: Rc1 faces the
        // rook c7, each protected: an exchange offer (兑), idle.
        let n = cxa("4k4/4n4/2r6/9/9/9/1N7/9/R8/3K5 w", "a1c1");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn uncovering_two_rooks_against_each_other_offers_an_exchange() {
        // Red K d0, R a2, N a5; Black K e9, R a9. §2: the horse steps off the a-file and the
        // rooks face each other: 兑 made by uncovering, idle.
        let n = cxa("r3k4/9/9/9/N8/9/9/R8/9/3K5 w", "a5c4");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn a_common_screen_between_two_cannons_offers_an_exchange() {
        // Red K d0, C a2, N b4; Black K e9, C a9. §2: the horse steps between the cannons as
        // their common screen: each can take the other, 兑.
        let n = cxa("c3k4/9/9/9/9/1N7/9/C8/9/3K5 w", "b4a6");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn an_offer_that_cannot_be_accepted_leaves_a_chase() {
        // Red K d0, N a4, C g8; Black K e9, A d9 f9, C d8, N e8. §2.3 applied to 兑 (CXA
        // 24.4, 参考图49): with the horse on b6 the black cannon cannot take g8 (Nd7 would
        // mate), so the cannon g8 chases d8 alone; the horse elsewhere leaves an exchange.
        let fen = "3aka3/3cn1C2/9/9/9/N8/9/9/9/3K5 w";
        let n = cxa(fen, "a4b6");
        assert_chase(&n, &["d8"]);
        assert!(!n.targets[0].joint);
        assert_idle(&cxa(fen, "a4b2"), None);
        // AXF: a mutual attack of equals is an exchange offer whatever follows.
        assert_idle(&axf(fen, "a4b6"), None);
    }

    #[test]
    fn joining_the_attack_on_a_piece_standing_in_an_exchange_presses_it() {
        // Red K e0, B e2, R f8, N f5; Black K e9, A d9 f9, N h6, R h3. §2 (图21): the horses
        // can trade, so the rook coming to f6 presses the exchange (兑), not a chase.
        let n = cxa("3aka3/5R3/9/7n1/5N3/9/7r1/4B4/9/4K4 w", "f8f6");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn protecting_a_piece_that_stands_in_an_exchange_offers_it() {
        // As above with the rook on a8 going to f8, behind the horse f5: the trade now stands
        // even (图30): 兑.
        let n = cxa("3aka3/R8/9/7n1/5N3/9/7r1/4B4/9/4K4 w", "a8f8");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn a_check_that_opens_with_the_exchange_is_the_exchange() {
        // Red K d0, R a0, N b7; Black K f9, R d9, N d5. §2: Ra9 faces the rook d9 (兑); Rxd9+
        // and Rxd5 would open with the exchange itself: idle, 兑. With a horse on d9 (no
        // exchange) the same rook chases it.
        let n = cxa("3r1k3/9/1N7/9/3n5/9/9/9/9/R2K5 w", "a0a9");
        assert_idle(&n, Some(IdleKind::Exchange));
        let n = cxa("3n1k3/9/1N7/9/3n5/9/9/9/9/R2K5 w", "a0a9");
        assert_chase(&n, &["d5", "d9"]);
    }

    #[test]
    fn a_mate_that_needs_the_offered_rook_is_the_exchange() {
        // Red K e0, R a1, N h2, P e8; Black K f9, R f5. §2 (图29): Rf1 offers the rook; taking
        // f5 would mate, but Black may take first: 兑, not a mate threat.
        let n = cxa("5k3/4P4/9/9/5r3/9/9/7N1/R8/4K4 w", "a1f1");
        assert_idle(&n, Some(IdleKind::Exchange));
        // Against a horse, which cannot take back, the same move threatens mate.
        let n = cxa("5k3/4P4/9/9/5n3/9/9/7N1/R8/4K4 w", "a1f1");
        assert_eq!(
            n.kind,
            crate::rules::nature::NatureKind::MateThreat,
            "{n:?}"
        );
    }
}
