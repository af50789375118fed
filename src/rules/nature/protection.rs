//! Protection (RULES.md §2.3 roots, §2.5 safety, §2 special cases): whether a winning capture can
//! really be made. A real root takes back; a false root (假根) takes back only to be mated; a root
//! by checks wins back less than the capture; the capturer's duties (it was the only protector of
//! something); a mate after the capture; a counter mate threat that refutes it (图18).

use super::*;

impl Analyzer<'_> {
    /// Safety and cost of a winning capture: the capturer's side is not mated right after it, and
    /// what the opponent can newly win elsewhere (the capturer left a piece it protected or
    /// shielded) does not eat up the gain.
    ///
    /// The cost rule reads RULES.md §2 (special cases) literally: a chasing piece that is the
    /// only protector of something does not chase when carrying out the capture *costs more
    /// than it gains*. A cost equal to the gain (a horse won, a cannon lost) leaves the threat
    /// a chase (the first member of the pair; the second, the capture can really be made now,
    /// still needs a net gain). The book rules a rook that attacks an unrooted horse while it
    /// is the only protector of its cannon a chase (图28: 捉无根马), and a rook that gives a
    /// cannon joint chase of a horse whose capture leaves a pawn unprotected a chase (图25).
    pub(super) fn capture_is_sound(
        &mut self,
        q: &Position,
        m: Move,
        v: Mat,
        recaptured: bool,
    ) -> Result<(bool, bool), Exhausted> {
        self.counter_seen = false;
        let r = q.after(m);
        // The capturer's duties first (cheap): a capture that is neither sound counting what it
        // newly gives away nor sound counting everything needs no safety test.
        // Wards under a standing attack whose loss leaves the threat as such
        // ([`Self::standing_wards_excused`]).
        let mut excused = Bitboard::EMPTY;
        let mut duties = if self.profile.capturer_duties {
            let base = self.base_best_capture(&q.null_move());
            let after = self.best_capture(&r, Some(m.to));
            let gain = self.scalar(v);
            let mut rel = Self::duty_cost_within_gain(gain, (after - base).max(0));
            if !rel && self.profile.duty_needs_fresh_attack {
                excused = self.standing_wards_excused(q, &r, m, gain, base);
                rel = excused.any();
            }
            (rel, gain - after > 0)
        } else {
            (true, true)
        };
        if duties == (false, false) {
            return Ok(duties);
        }
        if !self.ignore_safety {
            let cap = self.safety_cap(q)?;
            if search::mate_by_checks_with(&r, cap, &mut self.budget, &mut self.mates)? {
                return Ok((false, false));
            }
        }
        // A counter-attack by checks that wins back at least as much is a root too.
        if self.profile.chase_check_cap > 0 && self.profile.counter_checks_refute {
            let cap = self.profile.chase_check_cap;
            // (The capturer, when its recapture is already counted, is not looked for.)
            let mut wanted = Bitboard::FULL;
            if recaptured {
                wanted = wanted.without(m.to);
            }
            let wins = self.check_wins(&r, cap, Mat::default(), wanted)?;
            // What the opponent could win by checks before the capture, only when needed.
            let base = q.null_move();
            let before = if wins.is_empty() {
                Vec::new()
            } else {
                match &self.base_checks {
                    Some((k, v)) if *k == base.key() => v.clone(),
                    _ => {
                        let v: Vec<Square> = self
                            .check_wins(&base, cap, Mat::default(), Bitboard::FULL)?
                            .into_iter()
                            .map(|w| w.0)
                            .collect();
                        self.base_checks = Some((base.key(), v.clone()));
                        v
                    }
                }
            };
            for (t, _, _, back) in wins {
                if recaptured && t == m.to {
                    // Winning the capturer back is the recapture the exchange balance `v`
                    // already counts; a route to it through checks is no further loss.
                    continue;
                }
                if before.contains(&t) {
                    // The opponent could already win it by checks: not caused by the capture,
                    // but a win-back that answers it, so a root by checks of the captured piece
                    // ([`Threat::rooted`]) unless he could take it anyway, checks or not; the
                    // capture is sound all the same.
                    if !self.already_winnable(&base, &r, t) {
                        self.counter_seen = true;
                    }
                    continue;
                }
                if self.already_winnable(&base, &r, t) {
                    continue; // the opponent could already do that: not caused by the capture
                }
                if excused.contains(t) {
                    // A standing ward won by checks: the capture cannot really be made now.
                    duties.1 = false;
                    continue;
                }
                // A new win-back by checks: it refutes the capture unless less than the gain,
                // and is then a root by checks.
                self.counter_seen = true;
                if !(v - back).is_gain() {
                    return Ok((false, false));
                }
            }
        }
        Ok(duties)
    }

    /// The capturer's duties (RULES.md §2, special cases: "a chasing piece that is itself the
    /// only protector of something, so that carrying out the capture costs more than it gains,
    /// does not chase"): the threat stands unless what the opponent newly wins after the capture
    /// (`cost`, the piece the capturer protected or shielded) is worth *more* than the capture
    /// wins (`gain`). A cost equal to the gain leaves the threat: the capture is then an even
    /// trade at worst, not a loss. 参考图27: the red cannon on c6 takes the unprotected rook on
    /// c1 and so uncovers the rook on a6 to the black rook on f6, rook for rook; the book rules
    /// the cannon move a chase. 图23: the black cannon on b1 taking the horse on h1 would uncover
    /// its rook on b3 to the red rook on b0, rook for horse: idle.
    pub(super) fn duty_cost_within_gain(gain: i32, cost: i32) -> bool {
        gain - cost >= 0
    }

    /// The protector's duty against a standing attack ([`Profile::duty_needs_fresh_attack`],
    /// RULES.md §2, special cases: "a chasing piece that is itself the only protector of
    /// something, so that carrying out the capture costs more than it gains, does not chase").
    /// The duty holds the protector's threat back only while the piece it protects (the ward)
    /// is under an attack that the opponent's last move made: the opponent then defends the
    /// target indirectly, by attacking what the capture would abandon, and the protector, which
    /// has not yet had a move to answer that attack, cannot carry out its threat without losing
    /// the ward. When the ward already stood attacked before the opponent's last move (or the
    /// chaser's own move put it there), the chaser has had its move and left the ward hanging
    /// on the protector: the threat as such stands (a chase when new), though the capture cannot
    /// really be made at once (it stays unsound: the ward stepping out of the attack later makes
    /// it real and so chases, [`Self::frees_its_protector`], 参考图16). Where the history is unknown (the first
    /// move of a line, or the opponent's last move not classified by this analyser) the attack
    /// counts as standing. A piece the capturer shields on a line (the ward was not attacked
    /// before the capture: a pin, 图23) always counts, and so does any ward when the threats
    /// listed are not those just before or after a classified move.
    ///
    /// The book rules the rook on d6 that slides to e6, still the only protector of its horse
    /// on b6 (which the black rook on b8 attacks), and so attacks the crossed pawn on e4, a
    /// chase (图22: 长捉, although taking the pawn loses the horse); and the black cannon on h7,
    /// which the red rook has just attacked and which only the rook on g7 protects, stepping
    /// away to i7 a chase of the pawn on g9 (图12: the rook could not take it while the cannon
    /// hung on it). Nothing in the material tells the two apart: in both a crossed pawn is won
    /// and a horse or cannon lost, the ward is attacked by a rook that would lose itself taking
    /// it while protected, and nothing is won back after the ward falls. The age of the attack
    /// on the ward does.
    ///
    /// Returns the wards under a standing attack when the capture's cost, leaving them out, is
    /// within its gain (the threat as such then stands); empty otherwise.
    pub(super) fn standing_wards_excused(
        &mut self,
        q: &Position,
        r: &Position,
        m: Move,
        gain: i32,
        base: i32,
    ) -> Bitboard {
        let prev_before = match &self.ward_history {
            Some((keys, p)) if keys.contains(&q.key()) => *p,
            _ => return Bitboard::EMPTY,
        };
        let (us, them) = (q.turn(), !q.turn());
        // Wards: our pieces that the opponent attacked before the capture and the capturer
        // protected, whose attack does not come from his last move.
        let attacked = q.attacked_by(them);
        let mut standing = Bitboard::EMPTY;
        for w in q.by_color(us).without(m.from) & attacked {
            if !Self::pseudo_capturers(q, w, us).contains(m.from) {
                continue;
            }
            let fresh = prev_before.is_some_and(|p| {
                p.piece_at(w) == q.piece_at(w) && !p.attacked_by(them).contains(w)
            });
            if !fresh {
                standing |= Bitboard::from_square(w);
            }
        }
        if standing.is_empty() {
            return standing;
        }
        let after = self.best_capture_skipping(r, standing.with(m.to));
        if Self::duty_cost_within_gain(gain, (after - base).max(0)) {
            standing
        } else {
            Bitboard::EMPTY
        }
    }

    /// How deep a mate after a capture in `q` is looked for (RULES.md §2.5, safety: after
    /// winning the piece the chaser is not mated). Normally `refutation_mate_cap`, to keep the
    /// test cheap; but when the opponent already stands threatening mate (were the side to move
    /// of `q` to pass, he would mate by checks within `mate_ply_cap`), a capture that does not
    /// parry that threat lets him carry it out, however deep it is: the full mate depth is used
    /// ([`Profile::safety_sees_standing_mate`]). So a threat to win a piece that cannot be
    /// carried out while the opponent's mate threat stands is no threat, and the move that
    /// parries the mate and keeps the capture makes it new (参考图35: the black rook returning
    /// to f4 stops Red's mate and makes the cannon's capture of the rook c6 real: a chase).
    /// Looked for only when the opponent stood threatening mate before the move being judged
    /// (his last move was a mate threat; searched when that move was not classified here);
    /// then, per position, whether the threat still stands. Outside [`Self::classify`],
    /// shallow.
    pub(super) fn safety_cap(&mut self, q: &Position) -> Result<u32, Exhausted> {
        let shallow = self.profile.refutation_mate_cap;
        if !self.profile.safety_sees_standing_mate || self.profile.mate_ply_cap <= shallow {
            return Ok(shallow);
        }
        // Only when the opponent stood threatening mate before the move being judged (his
        // last move's own mate-threat search, in the mate table): a mate threat he gets only
        // from that move itself is that move's consequence, judged by the shallow test.
        let gate = match self.standing_before {
            Some((_, g)) => g,
            None => return Ok(shallow),
        };
        // The cap is deep only when both the gate (the opponent stood threatening mate before
        // the move) and the standing threat in `q` hold. Whichever is known already is read
        // first; otherwise the threat in `q` is searched first: the gate position may be one the
        // mate table has not seen (the opponent's last move was a check or answered one, so its
        // mate threat was never searched), or even one where the side to move attacks the enemy
        // general (the mover was in check), whose search is far costlier, and it is needed only
        // when the threat in `q` stands.
        let known_gate = gate.or_else(|| {
            let before = self.standing_before.expect("set").0;
            self.mates
                .known(&before.null_move(), self.profile.mate_ply_cap)
        });
        if known_gate == Some(false) {
            return Ok(shallow);
        }
        let cap = match self.safety {
            Some((k, cap)) if k == q.key() => cap,
            _ => {
                let standing = search::mate_by_checks_with(
                    &q.null_move(),
                    self.profile.mate_ply_cap,
                    &mut self.budget,
                    &mut self.mates,
                )?;
                let cap = if standing {
                    self.profile.mate_ply_cap
                } else {
                    shallow
                };
                self.safety = Some((q.key(), cap));
                cap
            }
        };
        if cap == shallow {
            return Ok(shallow);
        }
        let gate = match known_gate {
            Some(g) => g,
            None => {
                let before = self.standing_before.expect("set").0;
                search::mate_by_checks_with(
                    &before.null_move(),
                    self.profile.mate_ply_cap,
                    &mut self.budget,
                    &mut self.mates,
                )?
            }
        };
        self.standing_before = Some((self.standing_before.expect("set").0, Some(gate)));
        Ok(if gate { cap } else { shallow })
    }

    /// Safety (RULES.md §2.5) of a win by checks: after the check `m` and any reply, the
    /// capture of the target on `s` must leave the capturer's side unmated. A win by checks
    /// whose final capture walks into mate is no threat, exactly as a direct capture that does
    /// (图8: with the black general on f8, the cannon's check on e2 followed by the rook taking
    /// a6 loses to Red's checks, so the general's step back to f9 is what creates the threat on
    /// a6). Checked on the threats found, not inside the check search, to keep that search
    /// cheap: after a reply, a target that cannot be taken at once (a further check is needed)
    /// is taken as safe.
    pub(super) fn check_win_is_safe(
        &mut self,
        q: &Position,
        m: Move,
        s: Square,
    ) -> Result<bool, Exhausted> {
        let cap = self.safety_cap(q)?;
        let r = q.after(m);
        for rep in self.mates.legal_replies(&r) {
            let s2 = r.after(rep);
            let caps = Self::captures_to(&s2, s);
            if caps.is_empty() {
                continue;
            }
            let mut safe = false;
            for cm in caps {
                if !search::mate_by_checks_with(
                    &s2.after(cm),
                    cap,
                    &mut self.budget,
                    &mut self.mates,
                )? {
                    safe = true;
                    break;
                }
            }
            if !safe {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Net gain (RULES.md §2.1, §2.4) of a win by checks, counting what the series leaves
    /// hanging: against every reply to the check `m`, the series must still win the target (on
    /// `s` in `q`) when each final capture counts the opponent's best answer to it, beyond what
    /// he could take before the series began (what the series newly gives away, weighed as a
    /// capture's duties are, [`Self::duty_cost_within_gain`]). A check answered by a block that
    /// attacks the checking piece, so that taking the target loses the checker, wins nothing.
    /// CXA 参考图8: the black cannon on i3 checks from i0 over the elephant g0; the red rook on
    /// h9 blocks at h0, which pins the elephant (the protector of e2) and lets the black rook
    /// take e2, but the rook on h0 then takes the cannon: no threat, and the cannon's step back
    /// to i3 is idle. From h3 (the red rook on i9), Ch0+ cannot be met so: the step to h3 is a
    /// chase of e2. The search is [`Self::reply_wins_read`]'s, further checks included, read
    /// again for the win found only (the answers are not weighed while searching).
    pub(super) fn check_win_keeps_its_pieces(
        &mut self,
        q: &Position,
        m: Move,
        s: Square,
    ) -> Result<bool, Exhausted> {
        let base = self.base_best_capture(&q.null_move());
        self.answer_base = Some(base);
        let kept = self.every_reply_keeps(q, m, s, base);
        self.answer_base = None;
        kept
    }

    /// The reading of [`Self::check_win_keeps_its_pieces`] (with `answer_base` set): against
    /// each reply, first the target taken at once (the common case, cheap), then, only when
    /// that does not net, the search with its further checks.
    fn every_reply_keeps(
        &mut self,
        q: &Position,
        m: Move,
        s: Square,
        base: i32,
    ) -> Result<bool, Exhausted> {
        let took = q.piece_at(m.to).map(|p| self.mat(p)).unwrap_or_default();
        let r = q.after(m);
        let cap = self.profile.chase_check_cap;
        for rep in self.mates.legal_replies(&r) {
            if self.takes_at_once_and_keeps(&r, rep, s, took, base)? {
                continue;
            }
            let wins = self.reply_wins_read(q, &r, rep, took, cap, Bitboard::from_square(s))?;
            if wins.iter().all(|w| w.0 != s) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// For [`Self::check_win_keeps_its_pieces`]: after the check that gave `r` (having taken
    /// `took`) and the reply `rep`, the target (on `s` before the reply) can be taken at once
    /// by a capture that nets material with the opponent's best answer counted beyond `base`.
    fn takes_at_once_and_keeps(
        &mut self,
        r: &Position,
        rep: Move,
        s: Square,
        took: Mat,
        base: i32,
    ) -> Result<bool, Exhausted> {
        let t = super::checks::moved_by(rep, s);
        let lost = r.piece_at(rep.to).map(|p| self.mat(p)).unwrap_or_default();
        let s2 = r.after(rep);
        for cm in Self::captures_to(&s2, t) {
            let (v, _, _) = self.capture_balance(&s2, cm, false)?;
            let total = took - lost + v;
            if self.series_gain(total) && self.nets_after_answer(&s2, cm, total, base) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the capture `cm` in `pos`, ending a line that nets `total`, still nets once the
    /// opponent's best answer to it elsewhere is counted beyond what he could take before the
    /// line (`base`), weighed as a capture's duties are ([`Self::duty_cost_within_gain`]).
    pub(super) fn nets_after_answer(
        &mut self,
        pos: &Position,
        cm: Move,
        total: Mat,
        base: i32,
    ) -> bool {
        let answer = self.best_capture(&pos.after(cm), Some(cm.to));
        Self::duty_cost_within_gain(self.scalar(total), (answer - base).max(0))
    }

    /// Whether the side to move of `base` could already win the piece standing on `t` in
    /// `after` by a direct capture (the same piece on the same square, and the exchange there a
    /// gain). A counter-attack by checks that ends in winning such a piece is not caused by the
    /// capture being judged: the opponent could take it anyway, so it is no root of the captured
    /// piece (RULES.md §2.3: protection is judged after the capture, and only what the capture
    /// newly allows can make it unsafe; 图8: the black rook takes the a6 pawn once its general
    /// has stepped back, although Red could then win the c3 pawn after a check, as it could
    /// before).
    pub(super) fn already_winnable(
        &mut self,
        base: &Position,
        after: &Position,
        t: Square,
    ) -> bool {
        if base.piece_at(t).is_none() || base.piece_at(t) != after.piece_at(t) {
            return false;
        }
        self.see(base, t, 0).0.is_gain()
    }

    /// When a protector of the target can recapture only to be mated (a false root, 假根,
    /// RULES.md §2.3), the target counts as unprotected and the chaser is the piece that
    /// captures, with its own screen if it is a cannon: the pieces behind the mate, or backing
    /// the capturer up against what protection remains, take no part in winning it. So a pawn
    /// or the general taking such a piece still attacks by itself (idle, CXA): the book rules a
    /// pawn taking an elephant whose recapture would be mated a pawn chase, though a horse also
    /// bears on the square (参考图5). `None` when no recapture is refuted by mate (the general
    /// analysis applies).
    pub(super) fn capture_past_false_root(
        &mut self,
        q: &Position,
        t: &Threat,
    ) -> Result<Option<Vec<Square>>, Exhausted> {
        if t.how == WinHow::Checks {
            return Ok(None);
        }
        let capturer = t.first.from;
        let r = q.after(t.first);
        let mut refuted = false;
        for rm in Self::captures_to(&r, t.square) {
            if search::mate_by_checks_with(
                &r.after(rm),
                self.profile.refutation_mate_cap,
                &mut self.budget,
                &mut self.mates,
            )? {
                refuted = true;
                break;
            }
        }
        if !refuted {
            return Ok(None);
        }
        let mut parts = vec![capturer];
        if q.piece_at(capturer).is_some_and(|p| p.role == Role::Cannon) {
            let screen = attacks::between(capturer, t.square) & q.by_color(q.turn());
            parts.extend(screen);
        }
        Ok(Some(parts))
    }

    /// Whether every capture that would win the target of `t` (the side to move of `q` takes it)
    /// is refuted by a counter mate threat ([`Profile::counter_threat_mate_cap`]), so that the
    /// threat to win it is no threat.
    ///
    /// The reading (RULES.md §2.1: a chase threatens to *win* the piece, a capture that nets
    /// material; §2.5, safety: after winning the piece the chaser is not mated; the book's
    /// "return to a key defensive point", 回到防守要点): the opponent answers the capture not by
    /// a check (the mate and check-win tests of [`Self::capture_is_sound`] see those) but by a
    /// quiet move, no capture and no check, after which he would mate by checks within the cap
    /// were the capturer to pass. The capture is refuted when the capturer's best parry (one
    /// move, then the opponent's best capture by static exchange, or a mate by checks within
    /// the cap) leaves it no material ahead, and no better off than not capturing at all (the
    /// same quiet move made without the capture, parried the same way: a loss the opponent's
    /// threat inflicts anyway is not the capture's cost). A capture after which every parry is
    /// mated is refuted however the position stood before it. A piece that stands on a
    /// defensive point, where it parries a mate threat at no cost, so does not chase what it
    /// attacks from there when taking it gives that defence up: CXA 图18, the red rook returning
    /// to e4 attacks the unprotected elephant on e7, but after Rxe7 the black general's step to
    /// d9 threatens Rxd2 mate; on e7 the rook can no longer parry it by Rd4+ (Rd7+ is met by
    /// Axd7), and every other parry gives back at least the elephant (the advisor on d2, or the
    /// rook for the horse on e3): the return is idle.
    ///
    /// Only the targets a move would otherwise chase are tested (the caller's last test), so
    /// the threats before the move (newness) are listed without it: a move that parries such a
    /// counter threat while keeping the attack is read as continuing it (从捉到捉), as for the
    /// other tests that are not rerun there. Cost: every quiet move of the opponent after each
    /// such capture gets a mate search (with the default cap of one, a look at its checks); no
    /// cheaper filter is sound (the quiet move may cover a flight, pin a defender, open a line
    /// or block one anywhere on the board), and on the speed corpus the reading costs about a
    /// fifth of the whole analysis.
    pub(super) fn refuted_by_counter_threat(
        &mut self,
        q: &Position,
        t: &Threat,
    ) -> Result<bool, Exhausted> {
        let captures = Self::captures_to(q, t.square);
        let mut any = false;
        for m in captures {
            if !t.capturers.contains(m.from) {
                continue;
            }
            any = true;
            if !self.capture_refuted_by_counter_threat(q, m)? {
                return Ok(false);
            }
        }
        Ok(any)
    }

    /// [`Self::refuted_by_counter_threat`] for one capture `m` in `q`.
    pub(super) fn capture_refuted_by_counter_threat(
        &mut self,
        q: &Position,
        m: Move,
    ) -> Result<bool, Exhausted> {
        let cap = self.profile.counter_threat_mate_cap;
        let gain = self.scalar(self.mat(q.piece_at(m.to).expect("capture")));
        let r = q.after(m);
        // Without the capture: the opponent to move in `q` (what he could win there anyway is
        // not the capture's cost).
        // (Computed once a threat is found.)
        let p0 = q.null_move();
        let mut base = None;
        let mut scratch = r;
        for x in search::legal_replies(&r) {
            if r.piece_at(x.to).is_some() {
                continue;
            }
            let undo = scratch.play_unchecked(x);
            let threat = !scratch.is_check() && self.threatens_mate(scratch.null_move(), cap)?;
            scratch.undo(x, undo);
            if !threat {
                continue;
            }
            let s = r.after(x);
            let base = *base.get_or_insert_with(|| self.base_best_capture(&p0));
            // `x` threatens mate: the capturer's best parry.
            let Some(with) = self.best_parry(&s, gain, base, 0)? else {
                return Ok(true); // mated whatever it does
            };
            if with > 0 {
                continue;
            }
            // The same threat without the capture.
            let mut without = 0;
            if p0.is_legal(x) && p0.piece_at(x.to).is_none() {
                let s0 = p0.after(x);
                if !s0.is_check() && self.threatens_mate(s0.null_move(), cap)? {
                    match self.best_parry(&s0, 0, base, -1)? {
                        // Without the capture the threat mates: the capture parries it.
                        None => continue,
                        Some(v) => without = v.min(0),
                    }
                }
            }
            if with <= without {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// [`Self::best_capture`] of `p0`, kept for the threats of the position it was computed for
    /// (the baseline of [`Self::capture_is_sound`]).
    pub(super) fn base_best_capture(&mut self, p0: &Position) -> i32 {
        match self.base_capture {
            Some((k, v)) if k == p0.key() => v,
            _ => {
                let v = self.best_capture(p0, None);
                self.base_capture = Some((p0.key(), v));
                v
            }
        }
    }

    /// Whether the side to move of `t` mates by checks within `cap` of its moves: with a cap of
    /// one, [`search::mate_in_one`], without the mate table (which would only store positions
    /// never seen again: the quiet replies after each capture give new positions, and a cache
    /// of these answers by position was hit for 2 % of them on the speed corpus).
    pub(super) fn threatens_mate(&mut self, mut t: Position, cap: u32) -> Result<bool, Exhausted> {
        if cap > 1 {
            return search::mate_by_checks_with(&t, cap, &mut self.budget, &mut self.mates);
        }
        search::mate_in_one(&mut t, &mut self.budget)
    }

    /// The best balance (scalar) for the side to move of `s`, which stands threatened with
    /// mate, over its replies that are not met by a mate by checks within
    /// [`Profile::counter_threat_mate_cap`]: `gained` plus what the reply captures, less what
    /// the opponent then wins by his best capture beyond `base` (what he could win anyway).
    /// `None` when every reply is mated. The search stops at the first balance above `enough`.
    pub(super) fn best_parry(
        &mut self,
        s: &Position,
        gained: i32,
        base: i32,
        enough: i32,
    ) -> Result<Option<i32>, Exhausted> {
        let cap = self.profile.counter_threat_mate_cap;
        let mut best: Option<i32> = None;
        for d in search::legal_replies(s) {
            self.budget.tick()?;
            let taken = s.piece_at(d.to).map_or(0, |p| self.scalar(self.mat(p)));
            let u = s.after(d);
            if best.is_some_and(|b| gained + taken <= b) || self.threatens_mate(u, cap)? {
                continue; // no better, or no parry
            }
            let lost = (self.best_capture(&u, None) - base).max(0);
            let net = gained + taken - lost;
            if best.is_some_and(|b| net <= b) {
                continue;
            }
            best = Some(net);
            if net > enough {
                break;
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    //! Protection (RULES.md §2.3 real, false and under-protected roots; §2.5 safety; §2
    //! special cases: the protector that chases), each position in all four orientations.
    use crate::rules::nature::testkit::{assert_chase, assert_idle, by, cxa};

    #[test]
    fn a_pinned_protector_is_a_false_root() {
        // Red K d0, R a1, R e2; Black K e9, N c7, R e7. §2.3 (假根): the rook e7 protects c7
        // but is pinned on the e-file by Re2: Ra7 chases the horse (with the pinner). Without
        // the pin the root is real: idle.
        let n = cxa("4k4/9/2n1r4/9/9/9/9/4R4/R8/3K5 w", "a1a7");
        assert_chase(&n, &["c7"]);
        assert_eq!(by(&n, "c7"), ["a7", "e2"]);
        assert_idle(&cxa("4k4/9/2n1r4/9/9/9/9/9/R8/3K5 w", "a1a7"), None);
    }

    #[test]
    fn an_under_protected_piece_is_chased_jointly() {
        // Red K d0, R a5, C i1, P e3; Black K e9, P e6, N e5. §2.3 (少根): the horse is protected
        // once (pawn e6); with the cannon on e1 (screen e3) it is attacked twice: cannon takes,
        // pawn retakes, rook takes: a joint chase.
        let n = cxa("4k4/9/9/4p4/R3n4/9/4P4/9/8C/3K5 w", "i1e1");
        assert_chase(&n, &["e5"]);
        assert!(n.targets[0].joint);
        assert_eq!(by(&n, "e5"), ["a5", "e1"]);
    }

    #[test]
    fn an_under_protected_piece_with_spare_attackers_is_chased_by_all() {
        // Red K d0, R d6, C f5, N e4; Black K e9, R c9, N c5. §2.3 (参考图49): Rd5 makes three
        // attackers against one protector; no piece wins alone: a joint chase by all three.
        let n = cxa("2r1k4/9/9/3R5/2n2C3/4N4/9/9/9/3K5 w", "d6d5");
        assert_chase(&n, &["c5"]);
        assert_eq!(by(&n, "c5"), ["d5", "e4", "f5"]);
    }

    #[test]
    fn pinning_the_only_protector_cuts_the_root() {
        // Red K e0, C b5, R e5; Black K e9, A d9 e8, B c9 e7. §2 special cases (断根, 图11): Cb9
        // pins the elephant c9 (screen d9) so it cannot take back on e7: rook and cannon chase
        // e7. Without the pin (Cb6) the elephant is protected: idle.
        let n = cxa("2bak4/4a4/4b4/9/1C2R4/9/9/9/9/4K4 w", "b5b9");
        assert_chase(&n, &["e7"]);
        assert_eq!(by(&n, "e7"), ["b9", "e5"]);
        assert_idle(&cxa("2bak4/4a4/4b4/9/1C2R4/9/9/9/9/4K4 w", "b5b6"), None);
    }

    #[test]
    fn a_recapture_that_loses_to_mate_is_a_false_root() {
        // Red K e0, A d0 e1, B e2 g0, R a8, N h6, P h5; Black K d9, A f9, B e7 g5. §2.3 (参考图5):
        // after Nf7 the elephant e7's recapture on g5 loses to Rd8 mate, so g5 is unprotected;
        // the pawn h5 takes it by itself (idle, CXA 第27条). A horse on h3 instead chases it.
        assert_idle(
            &cxa("3k1a3/R8/4b4/7N1/6bP1/9/9/4B4/4A4/3AK1B2 w", "h6f7"),
            None,
        );
        let n = cxa("3k1a3/R8/4b4/7N1/6b2/9/7N1/4B4/4A4/3AK1B2 w", "h6f7");
        assert_chase(&n, &["g5"]);
        assert_eq!(by(&n, "g5"), ["h3"]);
    }

    #[test]
    fn cutting_a_root_by_checks_is_a_chase() {
        // Red K e0, A e1, B e2, C h0, R a5; Black K d9, N a8, N h3. §2 (断根, 图3): Rxa8 would be
        // answered by Ng1+ forking the general and e2 (a root by checks); Ch2 stands on that
        // horse's leg and cuts it: the rook chases a8 alone. The elephant stepping away from
        // the fork is not needed for the capture: idle.
        let fen = "3k5/n8/9/9/R8/9/7n1/4B4/4A4/4K2C1 w";
        let n = cxa(fen, "h0h2");
        assert_chase(&n, &["a8"]);
        assert!(!n.targets[0].joint);
        assert_idle(&cxa(fen, "e2g4"), None);
    }

    #[test]
    fn a_counter_win_the_opponent_already_had_does_not_refute_a_capture() {
        // Black K f9, A e8, R f5, P c3; Red K e0, A e1, P a6, R h3. §2.5: after Rxa6 Red could
        // check and take c3, but could take c3 anyway: the capture costs nothing new: a chase.
        let n = cxa("5k3/4a4/9/P8/5r3/9/2p4R1/9/4A4/4K4 b", "f5f6");
        assert_chase(&n, &["a6"]);
    }

    #[test]
    fn a_capture_that_gives_up_the_defence_against_a_quiet_mate_threat_is_no_threat() {
        // Red K d1, A f2, B e2 c0, N g4; Black K e7, A d7 f9, N c1, C a4. §2.1/§2.5 (图18):
        // Ne5 attacks the advisor d7, but after Nxd7 the cannon's quiet Cd4 threatens mate that
        // only the horse could have parried: idle. Without the cannon: a chase.
        assert_idle(&cxa("5a3/9/3ak4/9/9/c5N2/9/4BA3/2nK5/2B6 w", "g4e5"), None);
        let n = cxa("5a3/9/3ak4/9/9/6N2/9/4BA3/2nK5/2B6 w", "g4e5");
        assert_chase(&n, &["d7"]);
    }

    // ---- Issue 16, item 5: a protector that chases (RULES.md §2 special cases: it does not
    // chase only when carrying out the capture costs more than it gains, by net gain) ----

    #[test]
    fn a_protector_whose_capture_costs_as_much_as_it_wins_chases() {
        // Red K d0, R h5, C a5, P d3; Black K e9, R a9, N c7. Rc5 attacks the unrooted horse
        // c7 and is the only protector of the cannon a5 the black rook attacks: horse for
        // cannon costs no more than it wins: a chase (图28).
        let n = cxa("r3k4/9/2n6/9/C6R1/9/3P5/9/9/3K5 w", "h5c5");
        assert_chase(&n, &["c7"]);
        assert_eq!(by(&n, "c7"), ["c5"]);
    }

    #[test]
    fn a_protector_whose_capture_costs_more_than_it_wins_is_idle() {
        // As above, but the ward is a rook (a5) that the black rook has just attacked: taking
        // the horse would cost the rook, more than it wins: idle.
        let n = cxa("1r2k4/9/2n6/9/R6R1/9/3P5/9/9/3K5 b", "b9a9 h5c5");
        assert_idle(&n, None);
    }

    #[test]
    fn a_protector_of_a_piece_nobody_attacks_chases() {
        // As the first, without the black rook: the cannon a5 is not attacked, the capture
        // costs nothing: a chase.
        let n = cxa("4k4/9/2n6/9/C6R1/9/3P5/9/9/3K5 w", "h5c5");
        assert_chase(&n, &["c7"]);
    }

    #[test]
    fn a_protector_of_a_crossed_pawn_chases_a_horse() {
        // As the first, the ward a crossed pawn on a5: the capture costs a pawn and wins a
        // horse, a net gain: a chase.
        let n = cxa("r3k4/9/2n6/9/P6R1/9/3P5/9/9/3K5 w", "h5c5");
        assert_chase(&n, &["c7"]);
    }

    #[test]
    fn a_capture_uncovering_a_piece_worth_the_gain_still_chases() {
        // Red K d0, R a6, C d6; Black A d9 f9, B c9 g9, K e9, R f6, P c5, R c1. Cc6 attacks the
        // unprotected rook c1 over c5; taking it uncovers the rook a6 to the rook f6: rook for
        // rook, not more than it wins: a chase (参考图27). A horse on c1 is worth less than the
        // rook given away: idle (图23).
        let n = cxa("2bakab2/9/9/R2C1r3/2p6/9/9/9/2r6/3K5 w", "d6c6");
        assert_chase(&n, &["c1"]);
        assert_idle(&cxa("2bakab2/9/9/R2C1r3/2p6/9/9/9/2n6/3K5 w", "d6c6"), None);
    }

    #[test]
    fn a_protector_leaving_its_ward_standing_under_attack_chases() {
        // Red K e0, A d0 e1, C a2, R h2; Black K e9, R a8, P g4. §2 special cases with
        // `duty_needs_fresh_attack` (图22, 图12): Rg2 still guards the cannon a2 that the black
        // rook attacked before Black's last move, and attacks the pawn g4: a chase. When Black's
        // last move made that attack, the rook must answer it first: idle. The cannon stepping
        // out of a fresh attack frees the rook's capture: a chase.
        let n = cxa("4k4/r8/9/9/9/6p2/9/C6R1/4A4/3AK4 w", "h2g2");
        assert_chase(&n, &["g4"]);
        assert_idle(
            &cxa("4k4/1r7/9/9/9/6p2/9/C6R1/4A4/3AK4 b", "b8a8 h2g2"),
            None,
        );
        let n = cxa("4k4/1r7/9/9/9/6p2/9/C5R2/4A4/3AK4 b", "b8a8 a2b2");
        assert_chase(&n, &["g4"]);
    }
}
