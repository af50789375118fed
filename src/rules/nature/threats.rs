//! Threats (RULES.md §2.1): the enemy pieces the side to move could win next move, by a direct
//! capture or exchange (this file), by a series of checks (`checks.rs`) or in two steps
//! (`two_step.rs`).

use super::*;

/// A threat found in a position, for the side to move.
#[derive(Clone, Debug)]
pub(super) struct Threat {
    pub(super) square: Square,
    pub(super) piece: Piece,
    pub(super) how: WinHow,
    /// The chaser's pieces capturing on the square in the principal line (the capturer first).
    pub(super) line: ArrayVec<Square, 8>,
    /// The first capture (or the first check of a series).
    pub(super) first: Move,
    /// Sound counting only what the capture newly gives the opponent (the threat as such).
    pub(super) rel: bool,
    /// Sound counting everything the opponent could take after it (the capture can really be
    /// made now).
    pub(super) abs: bool,
    /// Every piece that can start a winning capture (or check series) by itself.
    pub(super) capturers: Bitboard,
    /// For a two-step win ([`Analyzer::two_step_threats`]): the chaser's pieces that win the
    /// second piece after the recapture (empty for any other threat).
    pub(super) follow: Bitboard,
    /// For a win by a check whatever the defence ([`Analyzer::per_defence_threats`]): the
    /// squares of all the pieces that check threatens together (empty for any other threat).
    pub(super) group: Bitboard,
    /// For a direct threat: every capture that can really be made now (sound counting
    /// everything) is answered by a win-back by checks worth less than the gain (a root by
    /// checks that does not refute the capture, [`Analyzer::counter_seen`]). `false` for the
    /// other kinds of threat ([`Analyzer::threat_level`]).
    pub(super) rooted: bool,
    /// For a direct capture: the other first captures (with their principal lines) that score
    /// exactly as well as `first` ([`Analyzer::participants`] judges them all).
    pub(super) ties: ArrayVec<(Move, ArrayVec<Square, 8>), 8>,
    /// For a win by checks read against every defence ([`Analyzer::check_wins`]): the net
    /// balance of its best line, what the series nets against the best defence (0 for the
    /// other kinds of threat). Newness compares it ([`Analyzer::chase_targets`]).
    pub(super) net: i32,
}

/// The pieces whose check the move `m` of the side to move of `q` uncovers (a discovered
/// check): checking after it, standing where they stood, with the piece moved standing between
/// them and the enemy general before. A cannon that checks because the moved piece becomes its
/// screen is not uncovered: the moved piece makes that check, as it makes its own.
pub(super) fn uncovered_checkers(q: &Position, m: Move) -> impl Iterator<Item = Square> {
    let king = q.king(!q.turn());
    q.after(m)
        .checkers()
        .without(m.to)
        .into_iter()
        .filter(move |&c| attacks::between(c, king).contains(m.from))
}

impl Analyzer<'_> {
    /// The enemy pieces the side to move could win next move.
    pub(super) fn threats(&mut self, q: &Position) -> Result<Vec<Threat>, Exhausted> {
        self.threats_within(q, Bitboard::FULL)
    }

    /// [`Self::threats`] against the enemy pieces standing on `within` only: exactly the
    /// threats of the full list on those squares (each piece's threat is judged on its own).
    pub(super) fn threats_within(
        &mut self,
        q: &Position,
        within: Bitboard,
    ) -> Result<Vec<Threat>, Exhausted> {
        let us = q.turn();
        let mut out = Vec::new();
        // Pieces no capture wins by itself, with the captures tried (for two-step wins).
        let mut open: ArrayVec<(Square, Captures), 16> = ArrayVec::new();
        // (Only pieces something of ours attacks can be captured.)
        for s in q.by_color(!us) & q.attacked_by(us) & within {
            let piece = q.piece_at(s).expect("piece");
            if !self.is_material(piece, s) {
                continue;
            }
            let caps = Self::captures_to(q, s);
            let mut found: Option<Threat> = None;
            let mut best = i32::MIN;
            let mut any_abs = false;
            let mut any_clean = false;
            let mut capturers = Bitboard::EMPTY;
            let mut tried = Captures::new();
            for m in caps {
                if self.stands_in_exchange(q, m.from, s)? {
                    continue;
                }
                tried.push(m);
                let (v, line, rec) = self.threat_balance(q, m)?;
                if !v.is_gain() {
                    continue;
                }
                let (rel, abs) = self.capture_is_sound(q, m, v, rec)?;
                if !rel && !abs {
                    continue;
                }
                any_abs |= abs;
                any_clean |= abs && !self.counter_seen;
                capturers |= Bitboard::from_square(m.from);
                // Prefer, at equal value, a capturer that is neither the general nor a pawn (the
                // threat then does not rest on them alone), then one that cannot be taken back
                // (a plain capture before an exchange): choices that do not depend on where the
                // pieces stand, so that a mirrored board gets the same description.
                let lone = matches!(
                    q.piece_at(m.from).map(|p| p.role),
                    Some(Role::King) | Some(Role::Pawn)
                );
                let sc = i32::from(rel) * 100_000
                    + self.scalar(v) * 4
                    + i32::from(!lone) * 2
                    + i32::from(!rec);
                if sc == best
                    && let Some(f) = found.as_mut()
                {
                    // Equally good first captures: all are kept ([`Threat::ties`]); the one
                    // named first comes first in [`TieOrder`] (not in generation order, square
                    // order, which a mirrored board reverses).
                    let order = TieOrder::of(q);
                    if order.rank(m.from) < order.rank(f.first.from) {
                        let old = (f.first, std::mem::replace(&mut f.line, line));
                        f.first = m;
                        let _ = f.ties.try_push(old);
                    } else {
                        let _ = f.ties.try_push((m, line));
                    }
                } else if sc > best {
                    best = sc;
                    found = Some(Threat {
                        square: s,
                        piece,
                        how: if rec {
                            WinHow::Exchange
                        } else {
                            WinHow::Capture
                        },
                        line,
                        first: m,
                        rel,
                        abs,
                        capturers: Bitboard::EMPTY,
                        follow: Bitboard::EMPTY,
                        group: Bitboard::EMPTY,
                        rooted: false,
                        ties: ArrayVec::new(),
                        net: 0,
                    });
                }
            }
            if let Some(mut t) = found {
                t.abs = any_abs;
                t.rooted = any_abs && !any_clean;
                t.capturers = capturers;
                out.push(t);
            } else if !tried.is_empty() {
                let _ = open.try_push((s, tried));
            }
        }
        // (The wins per defence are listed with the full list only: see [`Self::chase_targets`].)
        let per_defence = self.profile.chase_check_cap > 0
            && self.profile.checks_win_per_defence
            && within == Bitboard::FULL;
        if per_defence {
            self.reply_log.0 = q.key();
            self.reply_log.1.clear();
        }
        // (A piece already won directly is not looked for by checks.)
        let direct = out.iter().fold(Bitboard::EMPTY, |b, t| b.with(t.square));
        // The checks that win a piece against every defence.
        let mut winning_checks: Vec<Move> = Vec::new();
        if self.profile.chase_check_cap > 0 {
            let wins = self.check_wins(
                q,
                self.profile.chase_check_cap,
                Mat::default(),
                within - direct,
            )?;
            // Among lines that win a piece equally well, the one needing the fewest pieces
            // first (a first check that gives check itself before one that uncovers another
            // piece's check): the chaser is charged with the simplest way, whatever order the
            // checks were generated in.
            let mut wins = wins;
            let keys: Vec<(std::cmp::Reverse<i32>, u32)> = wins
                .iter()
                .map(|w| {
                    let uncovered = uncovered_checkers(q, w.1).count() as u32;
                    (std::cmp::Reverse(self.win_score(q, w.2, w.3)), uncovered)
                })
                .collect();
            let mut order: Vec<usize> = (0..wins.len()).collect();
            order.sort_by_key(|&i| keys[i]);
            let sorted: Vec<_> = order.iter().map(|&i| wins[i]).collect();
            let sorted_keys: Vec<_> = order.iter().map(|&i| keys[i]).collect();
            wins = sorted;
            // The targets won by checks so far, with the key of the line that won them: a
            // further line as good (a tie) is read too, so that which of them comes first in
            // the order the checks were generated (square order, which a mirrored or
            // colour-swapped board reverses) does not decide who chases.
            let mut pushed: Vec<(Square, (std::cmp::Reverse<i32>, u32))> = Vec::new();
            for (key, &(s, m, capturer, v)) in sorted_keys.iter().zip(&wins) {
                winning_checks.push(m);
                let tie = match pushed.iter().find(|p| p.0 == s) {
                    Some(p) if p.1 == *key => true,
                    Some(_) => continue,
                    None if out.iter().any(|t| t.square == s) => continue,
                    None => false,
                };
                let Some(piece) = q.piece_at(s).filter(|p| p.color != us) else {
                    continue;
                };
                if self.mutual(q, capturer, s) || self.opens_with_exchange(q, m)? {
                    continue;
                }
                if !self.check_win_is_safe(q, m, s)? || !self.check_win_keeps_its_pieces(q, m, s)? {
                    continue;
                }
                if self.profile.capturer_duties
                    && !self.reading_duties
                    && !self.check_win_covers_duties(q, m, s, v)?
                {
                    continue;
                }
                // The pieces the series needs (RULES.md §2, joint chase: take one away and the
                // threat is gone): the capturer, and a piece whose check the first move
                // uncovers (a discovered check: the rook on h0 that lets the cannon, taking
                // d0, win the rook a0 with check, 参考图14: a joint chase by rook and cannon).
                // A piece that checks by moving is the series' own tool, not a second chaser
                // (图26: the cannon chasing the rook by checks chases alone).
                let mut line: ArrayVec<Square, 8> = ArrayVec::new();
                line.push(capturer);
                let mut battery = false;
                for c in uncovered_checkers(q, m) {
                    if c == capturer || self.needed_for_checks(q, c, s)? {
                        battery = true;
                        if !line.contains(&c) {
                            let _ = line.try_push(c);
                        }
                    }
                }
                // The piece whose move uncovers that check is the other half of the battery
                // (whichever of the two then takes).
                if battery && !line.contains(&m.from) {
                    let _ = line.try_push(m.from);
                }
                if tie {
                    // Every piece that can start such a line attacks the target (for newness:
                    // a piece joining the attack); the line needing the fewest pieces names
                    // the chasers, as among tied direct captures.
                    if let Some(t) = out
                        .iter_mut()
                        .find(|t| t.square == s && t.how == WinHow::Checks)
                    {
                        t.capturers |= Bitboard::from_square(m.from);
                        if line.len() < t.line.len() {
                            t.line = line;
                            t.first = m;
                        }
                    }
                    continue;
                }
                pushed.push((s, *key));
                out.push(Threat {
                    square: s,
                    piece,
                    how: WinHow::Checks,
                    line,
                    first: m,
                    rel: true,
                    abs: true,
                    capturers: Bitboard::from_square(m.from),
                    follow: Bitboard::EMPTY,
                    group: Bitboard::EMPTY,
                    rooted: false,
                    ties: ArrayVec::new(),
                    net: self.scalar(v),
                });
            }
        }
        if per_defence {
            let found = self.per_defence_threats(q, !direct, &winning_checks, &mut out);
            self.reply_log.0 = 0;
            found?;
        }
        if self.profile.two_step_wins {
            self.two_step_threats(q, &open, &mut out)?;
        }
        Ok(out)
    }

    /// The duties of the piece giving the first check of a win by checks (RULES.md §2 special
    /// cases: "a chasing piece that is itself the only protector of something, so that carrying
    /// out the capture costs more than it gains, does not chase"). The series moves that piece
    /// off its post at once: what the opponent could then newly win (his threats with it off
    /// the board that he does not have with it there, the piece itself aside) must not be worth
    /// more than the series nets (`v`), as [`Self::duty_cost_within_gain`] weighs a direct
    /// capture's duties. His threats count protection by checks, so a piece it guards that way
    /// is a duty too. CXA 参考图28: the red rook going back to h2 could win the advisor d9 by
    /// Rh9+ and Rxd9, but on h2 it is the root by checks of the horse c8, which the black rook
    /// attacks; carrying out the series gives up the horse for the advisor, and the book calls
    /// the rook move idle (用保护子捉子不利).
    fn check_win_covers_duties(
        &mut self,
        q: &Position,
        m: Move,
        s: Square,
        v: Mat,
    ) -> Result<bool, Exhausted> {
        let us = q.turn();
        let post = m.from;
        let gain = self.scalar(v);
        let (cost, wards) = match self
            .duty_costs
            .iter()
            .find(|e| e.0 == q.key() && e.1 == post)
        {
            Some(&(_, _, cost, wards)) => (cost, wards),
            None => {
                let ours = q.by_color(us).without(post) - q.pieces(us, Role::King);
                // The cost is the worth of one of these pieces: a series that nets at least
                // the dearest of them covers any duty, with nothing to read.
                let dearest = ours
                    .into_iter()
                    .filter_map(|s| q.piece_at(s).map(|p| self.scalar(self.mat(p))))
                    .max();
                if dearest.is_none_or(|d| Self::duty_cost_within_gain(gain, d)) {
                    return Ok(true);
                }
                let without = q.without(post).null_move();
                if without.is_check() || without.null_move().is_check() {
                    return Ok(true);
                }
                // A fresh analyser lists the opponent's threats (one level: it reads no duties
                // of his wins by checks), so that nothing kept for the position being read here
                // is touched; its nodes count against this move's budget.
                let mut reader = Analyzer::new(self.profile);
                reader.reading_duties = true;
                reader.budget = self.budget.clone();
                // (The mate table is a cache by position: lent, not copied.)
                reader.mates = std::mem::take(&mut self.mates);
                let listed = reader.threats_within(&without, ours).and_then(|after| {
                    if after.is_empty() {
                        return Ok((after, Vec::new()));
                    }
                    let before = reader.threats_within(&q.null_move(), ours)?;
                    Ok((after, before))
                });
                self.budget = reader.budget;
                self.mates = reader.mates;
                let (after, before) = listed?;
                let before = before.iter().fold(Bitboard::EMPTY, |b, t| b.with(t.square));
                let mut cost = 0;
                let mut wards = Bitboard::EMPTY;
                for t in after.iter().filter(|t| !before.contains(t.square)) {
                    cost = cost.max(self.scalar(self.mat(t.piece)));
                    wards = wards.with(t.square);
                }
                self.duty_costs.push((q.key(), post, cost, wards));
                (cost, wards)
            }
        };
        if Self::duty_cost_within_gain(gain, cost) {
            return Ok(true);
        }
        self.series_keeps_wards(q, m, s, wards)
    }

    /// For [`Self::check_win_covers_duties`]: whether the series that begins with the check
    /// `m` and takes the piece on `s` at once keeps the wards (our pieces on `wards`, which the
    /// checking piece guarded on its post). The opponent, in check, cannot take them during
    /// the series; he can only when it ends. So a ward counts only if, against some reply, every
    /// capture of the target leaves it to him with a gain. A series that needs a further check
    /// after some reply is not read here (the wards count). The rook returning to h2 in
    /// 参考图28 guards the horse c8 only by checks: after Rh9+ and Rxd9 the black rook takes it,
    /// and the duty holds; a rook guarding a horse on d2 along rank 2 that takes the advisor d9
    /// guards the horse again down the d-file, and the series keeps it.
    fn series_keeps_wards(
        &mut self,
        q: &Position,
        m: Move,
        s: Square,
        wards: Bitboard,
    ) -> Result<bool, Exhausted> {
        if wards.is_empty() {
            return Ok(false);
        }
        let r = q.after(m);
        for rep in self.mates.legal_replies(&r) {
            self.budget.tick()?;
            if wards.contains(rep.to) {
                return Ok(false); // the reply takes a ward
            }
            let s2 = r.after(rep);
            let target = super::checks::moved_by(rep, s);
            let caps = Self::captures_to(&s2, target);
            if caps.is_empty() {
                return Ok(false);
            }
            let mut kept = false;
            for cm in caps {
                let s3 = s2.after(cm);
                let left = wards - Bitboard::from_square(cm.from);
                let wards_now = if wards.contains(cm.from) {
                    left.with(cm.to)
                } else {
                    left
                };
                if self.best_capture_skipping(&s3, Bitboard::FULL - wards_now) <= 0 {
                    kept = true;
                    break;
                }
            }
            if !kept {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether our piece on `c` is needed to win the enemy piece on `s` by checks in `q`: taken
    /// off the board, no series of checks wins `s` any more (RULES.md §2, joint chase: take one
    /// away and the threat is gone). A piece whose removal would leave us in check is needed.
    fn needed_for_checks(&mut self, q: &Position, c: Square, s: Square) -> Result<bool, Exhausted> {
        let without = q.without(c);
        if without.null_move().is_check() {
            return Ok(true);
        }
        let wins = self.check_wins(
            &without,
            self.profile.chase_check_cap,
            Mat::default(),
            Bitboard::from_square(s),
        )?;
        Ok(wins.iter().all(|w| w.0 != s))
    }

    /// The enemy pieces the side to move of `pos` could win next move (before newness, the
    /// general/pawn-alone rule and joint analysis): square, piece, how, and the capturer.
    pub fn threats_of(
        &mut self,
        pos: &Position,
    ) -> Result<Vec<(Square, Piece, WinHow, Square)>, Exhausted> {
        self.budget = Budget::new(self.profile.node_budget);
        self.standing_before = None;
        Ok(self
            .threats(pos)?
            .into_iter()
            .map(|t| (t.square, t.piece, t.how, t.first.from))
            .collect())
    }

    /// When the side to move is in check, the threats it would have but for the check: those
    /// of the position with the checking pieces taken off. A threat that was there, held back
    /// only because the check had to be answered first, is not made by the answer: the answer
    /// frees it, it does not create it (RULES.md §2: a threat appearing because a check was
    /// answered is idle; a state the opponent brought on himself, 自毙, is not charged). The
    /// book rules an advisor blocking a check idle although the block lets its rook take a
    /// cannon the checking rook had just stopped guarding (参考图19). Empty when not in check.
    /// Only the threats against pieces standing on `within` are listed.
    pub(super) fn threats_held_back_by_check(
        &mut self,
        before: &Position,
        within: Bitboard,
    ) -> Result<Vec<Threat>, Exhausted> {
        let checkers = before.checkers();
        if checkers.is_empty() {
            return Ok(Vec::new());
        }
        let freed = checkers.into_iter().fold(*before, |p, c| p.without(c));
        self.threats_within(&freed, within)
    }
}

#[cfg(test)]
mod tests {
    //! Threats (RULES.md §2.1: direct, by checks; two steps in `two_step.rs`), each position in
    //! all four orientations of the board.
    use crate::rules::nature::testkit::{assert_chase, assert_idle, by, cxa, last};
    use crate::rules::nature::{IdleKind, NatureKind, WinHow};
    use crate::rules::profile::Profile;

    #[test]
    fn a_direct_capture_over_a_cannon_screen() {
        // Red K d0, C a3, P c5; Black K e9, N e5. §2.1: the cannon comes to a5 and attacks the
        // unprotected horse over its own pawn: a direct threat, one piece (图26).
        let n = cxa("4k4/9/9/9/2P1n4/9/C8/9/9/3K5 w", "a3a5");
        assert_chase(&n, &["e5"]);
        assert_eq!(by(&n, "e5"), ["a5"]);
        assert!(!n.targets[0].joint);
    }

    #[test]
    fn a_discovered_attack_is_a_threat_of_the_uncovered_piece() {
        // Red K d0, R a5, N b5; Black K e9, C e5. §2.2: the horse steps away and uncovers the
        // rook on the cannon: a new threat, charged to the rook.
        let n = cxa("4k4/9/9/9/RN2c4/9/9/9/9/3K5 w", "b5c3");
        assert_chase(&n, &["e5"]);
        assert_eq!(n.targets[0].by[0].to_string(), "a5");
    }

    #[test]
    fn a_threat_by_a_series_of_checks() {
        // Red K d0, R i0, N i3; Black K e9, N a9. §2.1 (抽将): the horse uncovers the rook: Ri9+
        // drives the general off rank 9 and the rook takes a9. The chaser is the rook on i0.
        let n = cxa("n3k4/9/9/9/9/9/8N/9/9/3K4R w", "i3g4");
        assert_chase(&n, &["a9"]);
        assert_eq!(n.targets[0].how, WinHow::Checks);
        assert_eq!(by(&n, "a9"), ["i0"]);
    }

    // ---- Issue 21: a win by a discovered check is a joint chase (参考图14) ----

    /// 参考图14: Red K e0, A d0 e1, B c0, R a0 d4, N a2 i2, C d3 e2; Black K e9, R a9 i0,
    /// C e7 g0, N c7 h5. The red horse i2-g1 attacks the rook i0; the rook steps to h0, behind
    /// the cannon g0 on rank 0.
    const DIAGRAM_14: &str = "r1bakab2/9/2n1c4/p3p3p/2p3Pn1/3R5/P1PCP3P/N3C3N/4A4/R1BAK1c1r w";

    #[test]
    fn a_win_by_checks_that_loses_the_checking_piece_wins_nothing() {
        // 参考图8 (RULES.md §2.1, net gain): Red K f0, A d0 e1, B e2 g0, R h9; Black K d8, A e8
        // d7, P e4, R g2, C h3 (to i3). From i3 the cannon checks at i0 over the elephant g0;
        // the rook blocks at h0, which pins the elephant (the protector of e2) so that the
        // black rook takes e2, but the rook on h0 then takes the cannon: the series nets less
        // than nothing, and the step to i3 is idle. With the rook on i9 the cannon steps to h3,
        // where Ch0+ cannot be met so: a chase of e2.
        assert_idle(
            &cxa("7R1/3ka4/3a5/9/9/4p4/7c1/4B1r2/4A4/3A1KB2 b", "h3i3"),
            None,
        );
        let n = cxa("8R/3ka4/3a5/9/9/4p4/8c/4B1r2/4A4/3A1KB2 b", "i3h3");
        assert_chase(&n, &["e2"]);
        // A black rook on i8 keeps the cannon on i0: the block no longer wins it back, and the
        // step to i3 is a chase of e2 (and of the advisor e1).
        let n = cxa("7R1/3ka3r/3a5/9/9/4p4/7c1/4B1r2/4A4/3A1KB2 b", "h3i3");
        assert_chase(&n, &["e1", "e2"]);
    }

    #[test]
    fn a_discovered_check_that_wins_a_rook_is_a_joint_chase_of_rook_and_capturer() {
        // §2.1 (抽将) and the joint chase: Cxd0+ uncovers the rook's check along rank 0; the
        // only answer, A e1-f0, leaves the cannon to take the rook a0 over the elephant c0.
        // Before, on i0, the rook could be taken by the horse g1 in answer to the check (the
        // series then netted an advisor, not a rook): the step to h0 makes the win of the rook
        // new, and the rook (the checking piece) and the cannon (the capturer) are needed
        // together: a joint chase (the book: 车炮联合捉车).
        let n = cxa(DIAGRAM_14, "i2g1 i0h0");
        assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
        let t = n
            .targets
            .iter()
            .find(|t| t.square.to_string() == "a0")
            .expect("the rook a0 is chased");
        assert_eq!(t.how, WinHow::Checks);
        assert!(t.joint, "{t:?}");
        assert_eq!(by(&n, "a0"), ["g0", "h0"]);
    }

    #[test]
    fn without_the_screen_for_the_last_capture_the_rook_is_not_chased() {
        // The same with the red elephant c0 gone: after Cxd0+ A f0 the cannon has no screen
        // towards a0, so the series does not win the rook.
        let fen = "r1bakab2/9/2n1c4/p3p3p/2p3Pn1/3R5/P1PCP3P/N3C3N/4A4/R2AK1c1r w";
        let n = cxa(fen, "i2g1 i0h0");
        assert!(
            n.targets.iter().all(|t| t.square.to_string() != "a0"),
            "{n:?}"
        );
    }

    #[test]
    fn a_discovered_check_the_checker_gives_from_where_it_stood_is_no_new_win() {
        // The rook already stood on h0 (the red horse on g1): the threat Cxd0+ and Cxa0 stands
        // before Black's move; the rook going h0-i0 and back is no new threat on a0 by itself
        // (on i0 the horse could take it in answer to the check, and the series nets less).
        let fen = "r1bakab2/9/2n1c4/p3p3p/2p3Pn1/3R5/P1PCP3P/N3C4/4A1N2/R1BAK1cr1 b";
        let n = cxa(fen, "h0i0");
        assert!(
            n.targets.iter().all(|t| t.square.to_string() != "a0"),
            "{n:?}"
        );
    }

    /// A real game (Hu Ronghua, wukong database game 473, move 20): Red K e0, C e2, P e4 (its
    /// cannon behind it on the e-file, the black pawn e6 and general e9 in front), R b3;
    /// Black R d6, N g5.
    const PAWN_BATTERY: &str = "2bakab2/9/3c2n2/p2rp3p/6n2/4PN3/PR6P/N3C4/4A4/2B1KAB2 w";

    #[test]
    fn a_pawn_that_wins_with_a_discovered_check_does_not_chase_alone() {
        // The pawn crosses to e5: stepping aside to d5 or f5 it uncovers the cannon's check
        // over the pawn e6 and then takes the rook d6 or the horse g5. The cannon takes part
        // (take it away and there is no check): a joint chase, not a pawn chasing by itself
        // (RULES.md §2 special cases: "If another piece takes part ... it is a chase").
        let n = cxa(PAWN_BATTERY, "e4e5");
        assert_chase(&n, &["d6", "g5"]);
        for t in &n.targets {
            assert!(t.joint, "{t:?}");
        }
        let mut parts = by(&n, "d6");
        parts.sort();
        assert_eq!(parts, ["e2", "e5"]);
    }

    #[test]
    fn without_the_cannon_behind_the_pawn_s_step_is_idle() {
        // The same without the cannon e2: no discovered check, nothing won.
        let fen = "2bakab2/9/3c2n2/p2rp3p/6n2/4PN3/PR6P/N8/4A4/2B1KAB2 w";
        assert_eq!(cxa(fen, "e4e5").kind, NatureKind::Idle);
    }

    // ---- Issue 21: the duties of the checking piece of a win by checks (参考图28) ----

    /// 参考图28: Red K e0, A d0 e1, R h2, N c8, P c4; Black K f9, A d9 e8, R c7, N a8, P i4.
    const DIAGRAM_28: &str = "3a1k3/n1N1a4/2r6/9/9/2P5p/9/7R1/4A4/3AK4 w";

    #[test]
    fn a_protector_that_would_win_by_checks_by_leaving_its_ward_does_not_chase() {
        // Back on h2 the rook threatens Rh9+ and Rxd9; but on h2 it is the root by checks of
        // the horse c8, which the black rook attacks: carrying out the series gives up the
        // horse for the advisor. RULES.md §2 special cases (the only protector does not
        // chase; the book: 用保护子捉子不利): idle.
        let n = cxa(DIAGRAM_28, "h2f2 e8f7 f2h2");
        assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    }

    #[test]
    fn every_checking_piece_of_tied_wins_by_checks_attacks_the_target() {
        // A real game (Hu Ronghua, ply 60): after the cannon's step to i0, either black rook can
        // start a series of checks that wins the advisor d0, equally well. Which comes first
        // is square order, which a colour swap reverses; both count as attacking it, so the
        // nature is the same on every orientation (a chase: the rook h7's line is new). Which
        // of the equal lines names the chaser is left to the order (not compared here).
        let profile = Profile::cxa();
        let n = last(
            "4kab2/4a4/7r1/p4C2p/1Nb1P4/PR7/8P/N3BAr2/1C7/3AK2c1 b",
            "h0i0",
            &profile,
        );
        assert_chase(&n, &["d0"]);
        let swapped = last(
            "1C2ka3/7c1/2Rab3n/p8/7rp/4p1Bn1/P2c4P/1R7/4A4/2BAK4 w",
            "b9a9",
            &profile,
        );
        assert_chase(&swapped, &["f9"]);
    }

    #[test]
    fn a_ward_the_series_guards_again_is_no_duty() {
        // 参考图28's return with the ward moved: the rook h2 guards the horse d2 along rank 2,
        // which the black rook a2 attacks. Rh9+ Kf8 Rxd9 wins the advisor, and the black rook
        // cannot take d2 during the series (in check) nor after it (the rook on d9 guards it
        // down the file): the duty costs nothing, and the return is a chase of d9.
        let n = cxa("3a1k3/n3a4/9/9/9/2P5p/9/r2N3R1/9/3AK4 w", "h2f2 e8f7 f2h2");
        assert_chase(&n, &["d9"]);
        // With a black pawn on d5 blocking the file, the rook on d9 no longer guards d2 and
        // the black rook takes the horse after the series: the duty holds, idle.
        let n = cxa(
            "3a1k3/n3a4/9/9/3p5/2P5p/9/r2N3R1/9/3AK4 w",
            "h2f2 e8f7 f2h2",
        );
        assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    }

    #[test]
    fn the_same_return_with_no_ward_under_attack_chases() {
        // Without the black rook on c7 the horse needs no guard: the return chases the advisor
        // d9 by checks.
        let n = cxa("3a1k3/n1N1a4/9/9/9/2P5p/9/7R1/4A4/3AK4 w", "h2f2 e8f7 f2h2");
        assert_chase(&n, &["d9"]);
        assert_eq!(n.targets[0].how, WinHow::Checks);
    }

    #[test]
    fn the_same_return_with_the_ward_kept_by_another_piece_chases() {
        // A second red rook on c6 holds the black rook off the horse: leaving h2 costs nothing.
        let n = cxa(
            "3a1k3/n1N1a4/2r6/2R6/9/2P5p/9/7R1/4A4/3AK4 w",
            "h2f2 e8f7 f2h2",
        );
        assert_chase(&n, &["d9"]);
    }

    #[test]
    fn a_pinned_piece_does_not_attack_off_its_line() {
        // Red K e0, R e4; Black K d9, R e8, N a3. §2 special cases: the red rook is pinned on the
        // e-file; on e3 it "attacks" a3 along the rank but cannot take: no chase (here 献: the
        // black rook can take it).
        let n = cxa("3k5/4r4/9/9/9/4R4/n8/9/9/4K4 w", "e4e3");
        assert_ne!(n.kind, NatureKind::Chase, "{n:?}");
        assert_idle(&n, Some(IdleKind::Offer));
    }

    #[test]
    fn a_threat_held_back_by_a_check_is_not_made_by_its_answer() {
        // Red K f1, C g1, R g3 (checks on e3); Black K e9, A f9 f7, R h1. §2 (参考图19): the
        // advisor's block frees the rook h1 to take the cannon g1, but that threat stood
        // before the check: idle. The same rook stepping next to the unguarded cannon, no check
        // to answer, chases it.
        let n = cxa("4ka3/9/5a3/9/9/9/6R2/9/5KCr1/9 w", "g3e3 f9e8");
        assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
        let n = cxa("4ka3/9/5a3/9/9/9/2R6/9/5KC2/7r1 w", "c3c4 h0h1");
        assert_chase(&n, &["g1"]);
    }
}
