//! Attribution (RULES.md §2, joint chase 联合捉, and the general/pawn rule): the chaser's pieces
//! taking part in a threat (take one away and the threat is gone), whether the chase is joint,
//! and whether the general or a pawn attacks by itself.

use super::*;

impl Analyzer<'_> {
    /// The chaser's pieces needed for a direct threat: the capturers of the principal line, and
    /// any other piece bearing on the square without which the threat is gone.
    ///
    /// When several first captures win the target equally well ([`Threat::ties`]), each line
    /// is judged and the one needing the fewest pieces counts: the target is won by whatever
    /// line the chaser picks, so the chase is joint only when every such line needs two or
    /// more pieces (RULES.md §2, joint chase: take one away and the threat is gone), whatever
    /// order the captures were generated in. At an equal count the pieces of the line whose
    /// first capture comes first in [`TieOrder`] are named.
    pub(super) fn participants(
        &mut self,
        q: &Position,
        t: &Threat,
    ) -> Result<Vec<Square>, Exhausted> {
        let mut parts = self.line_participants(q, t)?;
        let mut named = t.first.from;
        for (m, line) in &t.ties {
            if parts.len() < 2 {
                break;
            }
            let mut u = t.clone();
            u.first = *m;
            u.line = line.clone();
            u.ties.clear();
            let p = self.line_participants(q, &u)?;
            if p.len() < parts.len()
                || (p.len() == parts.len()
                    && TieOrder::of(q).rank(m.from) < TieOrder::of(q).rank(named))
            {
                parts = p;
                named = m.from;
            }
        }
        Ok(parts)
    }

    /// [`Self::participants`] for the line opened by `t.first`.
    pub(super) fn line_participants(
        &mut self,
        q: &Position,
        t: &Threat,
    ) -> Result<Vec<Square>, Exhausted> {
        let capturer = t.first.from;
        if t.how == WinHow::Checks || t.follow.any() {
            // A two-step win needs the first capturer and the piece winning the second piece
            // (take either away and the win is gone).
            return Ok(t.line.to_vec());
        }
        if let Some(parts) = self.capture_past_false_root(q, t)? {
            return Ok(parts);
        }
        let us = q.turn();
        // Pieces bearing on the square: directly or behind the capturer (x-ray), and pieces
        // pinning a protector. A cannon's screen is not taken apart from its cannon: a cannon
        // attacks over a screen by its nature, so the cannon chases alone (图26: the black
        // cannon on h7 attacks the rook on d7 over its own elephant: 长捉车, one piece).
        let mut bearing = Self::attack_bearing(q, t);
        bearing |= Self::pinners_of_protectors(q, t.square);
        // ... and a piece whose check the capture uncovers: the opponent, in check, cannot
        // take back (a protector made false by the check, as by a pin).
        for c in super::threats::uncovered_checkers(q, t.first) {
            bearing |= Bitboard::from_square(c);
        }
        bearing = bearing - q.pieces(us, Role::King);
        // Necessary pieces: take one away and the threat is gone.
        let mut parts: Vec<Square> = Vec::new();
        for sq in bearing {
            if !self.survives_without(q, sq, t)? {
                parts.push(sq);
            }
        }
        let lone_capturer = matches!(
            q.piece_at(capturer).map(|p| p.role),
            Some(Role::King) | Some(Role::Pawn)
        );
        if (parts.is_empty() || lone_capturer) && !parts.contains(&capturer) {
            parts.insert(0, capturer);
        }
        let capturer_value = self.scalar(self.mat(q.piece_at(capturer).expect("capturer")));
        let target_value = self.scalar(self.mat(t.piece));
        Self::add_backers(q, t, &mut parts, (capturer_value, target_value));
        Ok(parts)
    }

    /// An under-protected piece (少根, RULES.md §2.3) is won by an exchange: it has a real
    /// protector, and the capturer, worth at least the target, would be taken back, so only
    /// further attackers make the exchange win. No single piece wins it, so the chase is joint
    /// (联合捉) even when each further attacker could be spared because another would do as
    /// well: take them all away and the threat is gone. When the pieces found necessary one by
    /// one are fewer than two, every piece of the chaser bearing on the square (the general
    /// apart) takes part. The book calls a rook's attack on a horse protected once, with a
    /// cannon behind the rook and a horse also bearing on it, an under-protected joint chase
    /// (参考图49). A horse or cannon on a protected rook wins by its first capture and chases
    /// alone.
    pub(super) fn add_backers(
        q: &Position,
        t: &Threat,
        parts: &mut Vec<Square>,
        values: (i32, i32),
    ) {
        let (capturer, target) = values;
        if t.how != WinHow::Exchange || parts.len() >= 2 || capturer < target {
            return;
        }
        let bearing = Self::attack_bearing(q, t) - q.pieces(q.turn(), Role::King);
        if bearing.count() < 2 {
            return;
        }
        for sq in bearing {
            if !parts.contains(&sq) {
                parts.push(sq);
            }
        }
    }

    /// Whether the threat on `t.square` survives the removal of the chaser's piece on `sq`.
    pub(super) fn survives_without(
        &mut self,
        q: &Position,
        sq: Square,
        t: &Threat,
    ) -> Result<bool, Exhausted> {
        let p = q.without(sq);
        for m in Self::captures_shielded(&p, q, t.square) {
            // With the general/pawn-alone rule, their captures alone are no chase.
            if self.profile.king_pawn_alone_idle
                && matches!(
                    p.piece_at(m.from).map(|x| x.role),
                    Some(Role::King) | Some(Role::Pawn)
                )
            {
                continue;
            }
            let (mut v, _, rec) = self.capture_balance(&p, m, false)?;
            if !v.is_gain() && rec {
                v = self.capture_balance(&p, m, true)?.0;
            }
            if v.is_gain() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Captures onto `s` in `p` (the position `q` with one of the mover's pieces taken away) that
    /// the piece can make by its movement in `p` and that are legal in `q`. A piece whose only
    /// part is to shield the capturer's own general (taking it away would pin the capturer)
    /// does not take part in the threat: the capture is really open in `q` (图28: the black
    /// elephant on e7 stands between the red cannon and the general; the horse alone chases
    /// the rook, 长捉车).
    pub(super) fn captures_shielded(p: &Position, q: &Position, s: Square) -> Captures {
        let mut out = Self::captures_to(p, s);
        if p.piece_at(s).is_none_or(|x| x.color == p.turn()) {
            return out;
        }
        let movable = Self::pseudo_capturers(p, s, p.turn());
        for m in Self::captures_to(q, s) {
            if movable.contains(m.from) && !out.contains(&m) && !out.is_full() {
                out.push(m);
            }
        }
        out
    }

    /// The chaser's pieces that pin a protector of the piece on `s` against its general: taking
    /// the protector away would let them attack the enemy general. Such a pin takes part in the
    /// threat (RULES.md §2: pinning a protector so that a piece becomes unprotected is a chase;
    /// 图11: the red cannon on a9 pins the elephant on c9 that protects e7, so rook and cannon
    /// chase e7 together).
    pub(super) fn pinners_of_protectors(q: &Position, s: Square) -> Bitboard {
        let us = q.turn();
        let them = !us;
        let king = q.king(them);
        let mut out = Bitboard::EMPTY;
        for p in Self::pseudo_capturers(q, s, them) - q.pieces(them, Role::King) {
            let without = q.without(p);
            out |= without.attackers(king, us);
        }
        out - q.attackers(king, us) - q.pieces(us, Role::King)
    }

    /// The chaser's pieces that attack the square of a direct threat: the capturer, the pieces
    /// that can move there, and those behind the capturer (x-ray).
    pub(super) fn attack_bearing(q: &Position, t: &Threat) -> Bitboard {
        let us = q.turn();
        let capturer = t.first.from;
        let without = q.without(capturer);
        Self::pseudo_capturers(q, t.square, us)
            | Self::pseudo_capturers(&without, t.square, us)
            | Bitboard::from_square(capturer)
    }

    /// The general or a pawn attacking by itself (CXA: idle): among the participants, only one
    /// piece attacks the square, and it is the general or a pawn. A piece that only pins a
    /// protector helps, but does not attack with it (参考图11: the black cannon returning to e4
    /// pins the red advisor on e1, and the pawn on f3 then takes the advisor on f2 for nothing:
    /// still a pawn attacking by itself, idle; with the cannon on f4 behind the pawn, the cannon
    /// itself bears on f2: a joint chase).
    pub(super) fn king_or_pawn_alone(q: &Position, t: &Threat, parts: &[Square]) -> bool {
        let attacking = if t.how == WinHow::Checks || t.follow.any() {
            Bitboard::EMPTY
        } else {
            Self::attack_bearing(q, t)
        };
        let mut attackers = parts.iter().filter(|s| attacking.contains(**s));
        if t.follow.any()
            && t.follow.into_iter().all(|f| {
                matches!(
                    q.piece_at(f).map(|p| p.role),
                    Some(Role::King) | Some(Role::Pawn)
                )
            })
        {
            // A two-step win whose second capture is the general's or a pawn's: what the
            // first capture makes possible is their attack by itself (参考图33: a horse
            // trading itself for the cannon the advisor must take back, after which the pawn
            // takes the other advisor, is idle).
            return true;
        }
        let lone = match (attackers.next(), attackers.next()) {
            (Some(&a), None) => Some(a),
            (None, None) if parts.len() == 1 => Some(parts[0]),
            _ => None,
        };
        lone.is_some_and(|a| {
            matches!(
                q.piece_at(a).map(|p| p.role),
                Some(Role::King) | Some(Role::Pawn)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    //! Attribution (RULES.md §2: the pieces taking part, joint chase 联合捉, the general or a
    //! pawn by itself), each position in all four orientations of the board.
    use crate::rules::nature::NatureKind;
    use crate::rules::nature::testkit::{assert_chase, assert_idle, by, cxa};

    #[test]
    fn a_capture_that_uncovers_a_check_is_joint_with_the_checking_piece() {
        // Red K d0, R a3, N e6, P a6; Black K e9, A d9 f9, B c9 g9, R g8, C g7. The rook steps
        // behind the horse, onto the general's file: Nxg7 would uncover its check, so the rook
        // g8, in check, cannot take back. Without the rook on e3, Nxg7 Rxg7 is an even trade:
        // the two win the cannon together (RULES.md §2, joint chase: take one away and the
        // threat is gone), as a piece pinning the protector would.
        let n = cxa("2bakab2/6r2/6c2/P3N4/9/9/R8/9/9/3K5 w", "a3e3");
        assert_chase(&n, &["g7"]);
        assert!(n.targets[0].joint, "{n:?}");
        assert_eq!(by(&n, "g7"), ["e3", "e6"]);
    }

    #[test]
    fn a_win_by_checks_per_defence_through_a_discovered_check_is_joint() {
        // Red K d0, R a3, N e6, P a6; Black K e9, A d9 f9, R g9, C g7. The rook steps behind
        // the horse on the e-file: every series starts with the horse uncovering the rook's
        // check, so each piece won by checks, whichever way the defence goes, is won by the
        // horse and the rook together (the battery, RULES.md §2 joint chase).
        let n = cxa("3akar2/9/6c2/P3N4/9/9/R8/9/9/3K5 w", "a3e3");
        for sq in ["f9", "g9"] {
            let t = n
                .targets
                .iter()
                .find(|t| t.square.to_string() == sq)
                .unwrap_or_else(|| panic!("{sq} not chased: {n:?}"));
            assert!(t.joint, "{sq}: {t:?}");
            assert_eq!(by(&n, sq), ["e3", "e6"]);
        }
    }

    #[test]
    fn the_general_attacking_by_itself_is_idle() {
        // Red K e1; Black K f9, N d2. §2 special cases (CXA 第27条): Ke2 attacks the unprotected
        // horse by itself: idle.
        let n = cxa("5k3/9/9/9/9/9/9/3n5/4K4/9 w", "e1e2");
        assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    }

    #[test]
    fn a_pawn_attacking_by_itself_is_idle() {
        // Red K f0, P d4; Black K e9, N d6. §2 special cases (CXA 第27条): the crossed pawn
        // steps next to the unprotected horse: idle.
        assert_idle(&cxa("4k4/9/9/3n5/9/3P5/9/9/9/5K3 w", "d4d5"), None);
    }

    #[test]
    fn a_pawn_taking_part_in_a_joint_chase_chases() {
        // Red K f0, R a1, P c4; Black K e9, P c6, N c5. §2 (联合捉): Ra5 and the pawn together
        // win the horse protected by the pawn c6; neither alone does: a joint chase.
        let n = cxa("4k4/9/9/2p6/2n6/2P6/9/9/R8/5K3 w", "a1a5");
        assert_chase(&n, &["c5"]);
        assert!(n.targets[0].joint);
        assert_eq!(by(&n, "c5"), ["a5", "c4"]);
    }

    #[test]
    fn a_screen_brought_in_acts_with_its_cannon() {
        // Red K d0, C a5, N b3; Black K e9, N e5. §2 (联合捉): the horse moves in as the cannon's
        // screen: take it away and the threat is gone: a joint chase by cannon and horse.
        let n = cxa("4k4/9/9/9/C3n4/9/1N7/9/9/3K5 w", "b3c5");
        assert_chase(&n, &["e5"]);
        assert_eq!(by(&n, "e5"), ["a5", "c5"]);
        assert!(n.targets[0].joint);
    }

    #[test]
    fn two_cannons_chase_jointly_when_the_front_one_comes_in() {
        // Red K d0, C a5, C c2; Black K e9, N e5. §2 (联合捉, two cannons): Cc5 becomes the
        // screen of the cannon a5 against the unprotected horse: take it away and the threat is
        // gone: a joint chase. The rear cannon coming in over a front cannon that stood there
        // chases alone (a screen that stood is part of the board, 图26).
        let n = cxa("4k4/9/9/9/C3n4/9/9/2C6/9/3K5 w", "c2c5");
        assert_chase(&n, &["e5"]);
        assert!(n.targets[0].joint);
        assert_eq!(by(&n, "e5"), ["a5", "c5"]);
        let n = cxa("4k4/9/9/9/2C1n4/9/9/9/C8/3K5 w", "a1a5");
        assert_chase(&n, &["e5"]);
        assert!(!n.targets[0].joint);
        assert_eq!(by(&n, "e5"), ["a5"]);
    }

    #[test]
    fn a_piece_shielding_the_capturer_from_a_pin_does_not_take_part() {
        // Red K e0, R e3, N g2; Black K f9, C e9, A e8, C d3. §2 (联合捉: take one away and the
        // threat is gone): Ne1 lets the rook leave the file; horse and rook each only shield
        // the other: the chase of d3 is by one piece.
        let n = cxa("4ck3/4a4/9/9/9/9/3cR4/6N2/9/4K4 w", "g2e1");
        assert_eq!(n.kind, NatureKind::Chase);
        let d3 = n.targets.iter().find(|t| t.square.to_string() == "d3");
        assert!(d3.is_some_and(|t| !t.joint), "{n:?}");
    }

    #[test]
    fn a_pawn_helped_only_by_a_pin_still_attacks_by_itself() {
        // Black K d9, C a5, P f3; Red K e0, A e1 f2, B e2. §2 special cases (参考图11): Ce5 pins
        // the advisor e1 (screen e2), so the pawn could take f2 for nothing, but the pawn is the
        // only piece attacking f2: idle.
        assert_idle(&cxa("3k5/9/9/9/c8/9/5p3/4BA3/4A4/4K4 b", "a5e5"), None);
    }

    #[test]
    fn a_target_one_line_wins_alone_is_not_chased_jointly() {
        // Red K e0, A d0 f0, B e2, C e1 e4, N f5, R h9; Black K e9, A d9 e8, C f9 c0, B e7,
        // N g6, R d4, P f3. The red elephant takes the checking cannon on c0 and opens the e-file: e7 is won by
        // the cannon e1 (helped by the horse) or by the horse alone (a false root): the chaser
        // picks its line, so the chase of e7 is not joint (联合捉 needs every line to need two).
        let n = cxa("3akc1R1/4a4/4b4/6n2/5N3/3rC4/5p3/4B4/4C4/2cAKA3 w", "e2c0");
        let e7 = n.targets.iter().find(|t| t.square.to_string() == "e7");
        assert!(e7.is_some_and(|t| !t.joint), "{n:?}");
    }
}
