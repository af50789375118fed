//! Threats by checks (抽将, RULES.md §2.1): a forcing series of checks ending in a capture that
//! nets material, read against every defence, and per defence (a check after which every defence
//! loses something).

use super::*;

/// See [`Analyzer::reply_log`]: (position after the check, defence, targets looked for, check
/// depth, wins) per defence read.
pub(super) type ReplyLog = (u64, Vec<(u64, Move, Bitboard, u32, Wins)>);

/// What one line of a win by checks wins: (target where it stands at the start, capturer, net
/// balance of the line) per target ([`Analyzer::check_wins`]).
pub(super) type Wins = Vec<(Square, Square, Mat)>;

/// Where the piece standing on `sq` after the move `m` stood before it (a move by one side
/// moves only that side's piece: used for our checks and for the opponent's replies).
pub(super) fn origin_in(m: Move, sq: Square) -> Square {
    if sq == m.to { m.from } else { sq }
}

/// Where the piece standing on `sq` before the move `m` stands after it (the inverse of
/// [`origin_in`]): a target that the reply to a check moved is looked for where it went.
pub(super) fn moved_by(m: Move, sq: Square) -> Square {
    if sq == m.from { m.to } else { sq }
}

/// Where the piece of the side to move of `q` standing on `sq` after its move (giving `r`) stood
/// in `q`: the move's origin for the piece it moved, else `sq` itself.
pub(super) fn origin_after_check(q: &Position, r: &Position, sq: Square) -> Square {
    let us = q.turn();
    if r.by_color(us).contains(sq) && !q.by_color(us).contains(sq) {
        (q.by_color(us) - r.by_color(us))
            .into_iter()
            .next()
            .unwrap_or(sq)
    } else {
        sq
    }
}

impl Analyzer<'_> {
    /// Targets the side to move wins by a series of checks ending in a capture that nets
    /// material (counting what the checks gave up or won): (square, first check, capturer where
    /// it stands in `q`, the net balance of the whole line against the best defence), one entry
    /// per first check and target, best first.
    ///
    /// Only targets standing (in `q`) on a square of `interest` are looked for: a caller that
    /// has no use for the others passes the squares it wants ([`Bitboard::FULL`] for all). The
    /// entries for those targets are exactly the ones the full search gives (a target's win is
    /// judged on its own: the best line and the best defence against it do not depend on the
    /// other targets), so this only saves work. Within the search, once the first defence to a
    /// check has been tried, only the targets it left are of interest for the other defences
    /// (a target must be won against every defence), and the deeper series looks for them alone.
    pub(super) fn check_wins(
        &mut self,
        q: &Position,
        cap: u32,
        offset: Mat,
        interest: Bitboard,
    ) -> Result<Vec<(Square, Move, Square, Mat)>, Exhausted> {
        if interest.is_empty() {
            return Ok(Vec::new());
        }
        let mut out: Vec<(Square, Move, Square, Mat)> = Vec::new();
        for m in self.mates.checking_moves(q) {
            self.budget.tick()?;
            let gained = q.piece_at(m.to).map(|p| self.mat(p)).unwrap_or_default();
            let r = q.after(m);
            // Each defence's wins, tried likeliest refutation first (captures of the checking
            // piece, then steps of the general, found without listing every defence): a target
            // must be won against every defence, so once one defence leaves nothing wanted, the
            // check wins nothing and the other defences need not be looked at (nor listed); and
            // the later defences look only for the targets the earlier ones left.
            let mut wanted = interest;
            let mut tried: ArrayVec<(Move, Wins), 32> = ArrayVec::new();
            for rep in self.mates.first_replies(&r) {
                let wins = self.reply_wins(q, &r, rep, offset + gained, cap, wanted)?;
                wanted = wins.iter().fold(Bitboard::EMPTY, |b, w| b.with(w.0));
                if wanted.is_empty() || tried.try_push((rep, wins)).is_err() {
                    break;
                }
            }
            if wanted.is_empty() {
                continue;
            }
            let replies = self.mates.legal_replies(&r);
            if replies.is_empty() {
                continue; // mate: a mate threat, not a chase
            }
            let mut per_reply: Vec<Wins> = Vec::with_capacity(replies.len());
            for rep in replies {
                let wins = match tried.iter().position(|t| t.0 == rep) {
                    Some(i) => std::mem::take(&mut tried[i].1),
                    None => {
                        let wins = self.reply_wins(q, &r, rep, offset + gained, cap, wanted)?;
                        wanted = wins.iter().fold(Bitboard::EMPTY, |b, w| b.with(w.0));
                        wins
                    }
                };
                per_reply.push(wins);
                if wanted.is_empty() {
                    break;
                }
            }
            if wanted.is_empty() {
                continue;
            }
            // What every defence leaves (the intersection over the defences), against the best
            // defence of each target. Among defences that leave the same material, the opponent
            // picks the one whose capture is weakest ([`Self::line_rank`]), and among those that
            // rank alike the one whose capturer comes first in [`TieOrder`]: the ranking, not
            // the order the defences were generated in, decides, so that a mirrored board is
            // judged the same.
            let mut common: Option<Wins> = None;
            for wins in per_reply {
                let wins = wins.into_iter().filter(|w| wanted.contains(w.0));
                common = Some(match common {
                    None => wins.collect(),
                    Some(c) => {
                        let wins: Vec<_> = wins.collect();
                        c.into_iter()
                            .filter_map(|(t, from, v)| {
                                let w = wins.iter().find(|w| w.0 == t)?;
                                let (a, b) = (self.scalar(w.2), self.scalar(v));
                                let (wo, fo) = (origin_in(m, w.1), origin_in(m, from));
                                let (ra, rb) =
                                    (self.line_rank(q, t, wo, w.2), self.line_rank(q, t, fo, v));
                                // (Lines that rank alike: the capturer first in the order
                                // no drawing of the board changes, [`TieOrder`].)
                                let weaker = a < b
                                    || (a == b && ra < rb)
                                    || (a == b
                                        && ra == rb
                                        && wo != fo
                                        && TieOrder::of(q).rank(wo) < TieOrder::of(q).rank(fo));
                                Some(if weaker { (t, w.1, w.2) } else { (t, from, v) })
                            })
                            .collect()
                    }
                });
            }
            for (s, capturer, v) in common.unwrap_or_default() {
                // The capturer is named where it stands in `q` (the check may have moved it):
                // the chase is charged to the piece as it stands when the threat is judged, not
                // to whatever stands now on the square it would capture from (an enemy pawn it
                // takes on the way, read as "a pawn chasing alone", hid real chases).
                // Every checking move that wins the piece is kept: whether the win is sound (no
                // exchange opened, no mate after it) is judged per line by the callers, and the
                // piece is won if any line does it.
                out.push((s, m, origin_in(m, capturer), v));
            }
        }
        // Best first; equal lines in [`TieOrder`] of their first check (not the order the
        // checks were generated in: square order, which a mirrored board reverses).
        if out.len() > 1 {
            let order = TieOrder::of(q);
            out.sort_by_cached_key(|o| {
                (
                    std::cmp::Reverse(self.win_score(q, o.2, o.3)),
                    order.move_rank(o.1),
                    order.rank(o.2),
                )
            });
        }
        Ok(out)
    }

    /// For [`Self::check_wins`]: after the check that gave `r` and the defence `rep`, the targets
    /// (named where they stand in `q`, among `wanted`) the checking side wins, by a capture or
    /// by further checks (`cap` counts the check just given): (target, capturer, net balance
    /// counting `off`, what the line so far gained, and what the defence took).
    pub(super) fn reply_wins(
        &mut self,
        q: &Position,
        r: &Position,
        rep: Move,
        off: Mat,
        cap: u32,
        wanted: Bitboard,
    ) -> Result<Wins, Exhausted> {
        // (After a check that took nothing in the position whose threats are listed, the wins
        // are kept for the wins per defence, which read the same defences again.)
        let logged = off == Mat::default() && self.reply_log.0 == q.key();
        if logged {
            let key = r.key();
            if let Some(e) = self
                .reply_log
                .1
                .iter()
                .find(|e| e.0 == key && e.1 == rep && e.2 & wanted == wanted && e.3 == cap)
            {
                return Ok(e
                    .4
                    .iter()
                    .copied()
                    .filter(|w| wanted.contains(w.0))
                    .collect());
            }
        }
        let wins = self.reply_wins_read(q, r, rep, off, cap, wanted)?;
        if logged {
            self.reply_log
                .1
                .push((r.key(), rep, wanted, cap, wins.clone()));
        }
        Ok(wins)
    }

    /// The reading behind [`Self::reply_wins`] (which adds the log of defences already read):
    /// the captures after the defence, then the further checks while `cap` allows.
    pub(super) fn reply_wins_read(
        &mut self,
        q: &Position,
        r: &Position,
        rep: Move,
        off: Mat,
        cap: u32,
        wanted: Bitboard,
    ) -> Result<Wins, Exhausted> {
        let us = q.turn();
        let lost = r.piece_at(rep.to).map(|p| self.mat(p)).unwrap_or_default();
        let off = off - lost;
        let s2 = r.after(rep);
        let mut wins: Wins = Vec::new();
        for s in s2.by_color(!us) & s2.attacked_by(us) {
            let Some(piece) = s2.piece_at(s) else {
                continue;
            };
            // The piece won is named where it stands in `q`: a piece the check forced to move
            // (to interpose, say) and then taken is won by the series too (RULES.md §2.1: a
            // forcing series of checks that ends in the capture).
            let t = origin_in(rep, s);
            if !wanted.contains(t) || q.piece_at(t) != Some(piece) || !self.is_material(piece, s) {
                continue;
            }
            let mut best: Option<(Square, Mat, i32)> = None;
            for cm in Self::captures_to(&s2, s) {
                let (v, _, _) = self.capture_balance(&s2, cm, false)?;
                let total = off + v;
                if !self.series_gain(total) {
                    continue;
                }
                // (Checking a win found: what the opponent newly wins back after the capture
                // counts, [`Self::check_win_keeps_its_pieces`].)
                if let Some(base) = self.answer_base
                    && !self.nets_after_answer(&s2, cm, total, base)
                {
                    continue;
                }
                let sc = self.win_score(&s2, cm.from, total);
                // At an equal score, a capturer that is not the target's exchange partner in
                // `q` is preferred ([`Self::line_rank`]): the chaser picks its best capture,
                // whatever order the captures were generated in.
                // Captures that rank alike: the capturer first in [`TieOrder`].
                let better = best.is_none_or(|(bf, bv, b)| {
                    let (cf, of) = (
                        origin_after_check(q, r, cm.from),
                        origin_after_check(q, r, bf),
                    );
                    let (ra, rb) = (
                        self.line_rank(q, t, cf, total),
                        self.line_rank(q, t, of, bv),
                    );
                    sc > b
                        || (sc == b && ra > rb)
                        || (sc == b
                            && ra == rb
                            && TieOrder::of(q).rank(cf) < TieOrder::of(q).rank(of))
                });
                if better {
                    best = Some((cm.from, total, sc));
                }
            }
            if let Some((from, total, _)) = best {
                wins.push((t, from, total));
            }
        }
        if cap > 1 {
            // The wanted targets named where they stand in `s2` (the defence may have moved
            // one of them).
            let mut wanted2 = wanted.without(rep.to);
            if wanted.contains(rep.from) {
                wanted2 = wanted2.with(rep.to);
            }
            for (s, _, capturer, total) in self.check_wins(&s2, cap - 1, off, wanted2)? {
                let s = origin_in(rep, s);
                match wins.iter_mut().find(|w| w.0 == s) {
                    Some(w) => {
                        // (At an equal score, the capturer first in [`TieOrder`].)
                        let (a, b) = (
                            self.win_score(&s2, capturer, total),
                            self.win_score(&s2, w.1, w.2),
                        );
                        if a > b
                            || (a == b
                                && TieOrder::of(&s2).rank(capturer) < TieOrder::of(&s2).rank(w.1))
                        {
                            *w = (s, capturer, total);
                        }
                    }
                    None => wins.push((s, capturer, total)),
                }
            }
        }
        Ok(wins)
    }

    /// Wins by a check whatever the defence (RULES.md §2.1, a forcing series of checks that ends
    /// in a capture, 抽将, read per defence; [`Profile::checks_win_per_defence`]): a check that
    /// takes nothing, after which every legal reply either loses material (the checking side
    /// then wins a piece with a net gain, at once or after further checks, counting what the
    /// reply took) or is mated by checks within [`Profile::per_defence_mate_cap`], at least one
    /// reply losing material. The targets are the pieces won against every defence when there
    /// are such (a mated defence loses everything), else each piece lost on some defence: no
    /// single piece is won, but every defence gives one up, so the check threatens them
    /// together (for newness they form one threat, [`Threat::group`]: an earlier threat on any
    /// of them makes it a continuing one, 从捉到捉; it continues no other kind of threat). A
    /// piece the side to move already wins otherwise (not on `interest`: a direct threat; or by
    /// a favourable direct exchange) is no loss of the defence. The checks that
    /// [`Self::check_wins`] reads as winning a piece against every defence (`winning`) are left
    /// to it; a capturing check is judged by its capture.
    ///
    /// The pieces taking part in winning a target (take one away and the threat is gone,
    /// RULES.md §2, joint chase) are the checking piece and the pieces that take the target on
    /// every defence losing it; with several such checks, the pieces common to all of them.
    /// The book rules a cannon's return to h8, threatening Ch9+ over the advisor, a joint
    /// chase: the general stepping up is mated, the elephant interposing is taken by the rook,
    /// the advisor stepping off loses more (参考图41).
    pub(super) fn per_defence_threats(
        &mut self,
        q: &Position,
        interest: Bitboard,
        winning: &[Move],
        out: &mut Vec<Threat>,
    ) -> Result<(), Exhausted> {
        let us = q.turn();
        let cap = self.profile.chase_check_cap;
        // Every sound way found: (target, piece, pieces taking part, the check's group, check).
        let mut ways: Vec<(Square, Piece, Bitboard, Bitboard, Move)> = Vec::new();
        for m in self.mates.checking_moves(q) {
            if q.piece_at(m.to).is_some() || winning.contains(&m) {
                continue; // a capturing check is judged by its capture
            }
            self.budget.tick()?;
            let r = q.after(m);
            // Per losing defence: the reply, what it took, and the pieces it gives up (where
            // they stand in `q`). The likeliest escapes first, as [`Self::check_wins`] reads
            // them (the defences it read are not read again): one defence that loses nothing
            // and is not mated ends the check's threat.
            let mut per_reply: Vec<(Move, Mat, Wins)> = Vec::new();
            let mut mated = false;
            let mut escaped = false;
            // The defences in the order the wins by checks read them (from the log), then the
            // likeliest escapes, then every other one.
            let key = r.key();
            let mut order = MoveList::new();
            for e in self.reply_log.1.iter().filter(|e| e.0 == key) {
                if !order.contains(&e.1) {
                    let _ = order.try_push(e.1);
                }
            }
            let mut more = false;
            let mut all: Option<search::Moves> = None;
            let mut i = 0;
            loop {
                if i == order.len() && !more {
                    more = true;
                    for m in self.mates.first_replies(&r) {
                        if !order.contains(&m) {
                            let _ = order.try_push(m);
                        }
                    }
                }
                if i == order.len() && all.is_none() {
                    let a = self.mates.legal_replies(&r);
                    for m in a.iter() {
                        if !order.contains(m) {
                            let _ = order.try_push(*m);
                        }
                    }
                    all = Some(a);
                }
                let Some(&rep) = order.get(i) else {
                    break;
                };
                i += 1;
                let lost = r.piece_at(rep.to).map(|p| self.mat(p)).unwrap_or_default();
                let mut lose = self.reply_wins(q, &r, rep, Mat::default(), cap, interest)?;
                lose.retain(|w| !self.already_won(q, w.0));
                if !lose.is_empty() {
                    per_reply.push((rep, Mat::default() - lost, lose));
                } else if search::mate_by_checks_with(
                    &r.after(rep),
                    self.profile.per_defence_mate_cap,
                    &mut self.budget,
                    &mut self.mates,
                )? {
                    mated = true;
                } else {
                    escaped = true; // this defence loses nothing
                    break;
                }
            }
            if escaped {
                continue;
            }
            let Some((_, _, head)) = per_reply.first() else {
                continue; // no defence (mate), or every one mated
            };
            let common: Vec<Square> = head
                .iter()
                .map(|w| w.0)
                .filter(|&t| per_reply.iter().all(|l| l.2.iter().any(|w| w.0 == t)))
                .collect();
            if !mated && !common.is_empty() {
                continue; // a common target: [`Self::check_wins`]
            }
            let mut group = Bitboard::EMPTY;
            if common.is_empty() {
                for l in &per_reply {
                    for w in &l.2 {
                        group |= Bitboard::from_square(w.0);
                    }
                }
            } else {
                for &t in &common {
                    group |= Bitboard::from_square(t);
                }
            }
            for s in group {
                if out.iter().any(|t| t.square == s) {
                    continue;
                }
                let Some(piece) = q.piece_at(s).filter(|p| p.color != us) else {
                    continue;
                };
                // The pieces taking it on every defence that loses it, and on any.
                let mut every: Option<Bitboard> = None;
                let mut any = Bitboard::EMPTY;
                for (rep, off, lose) in &per_reply {
                    if !lose.iter().any(|w| w.0 == s) {
                        continue;
                    }
                    let by = self.gaining_capturers(&r.after(*rep), *rep, m, s, *off)?;
                    if by.is_empty() {
                        // Won only after further checks: which pieces those take is left
                        // open (the series may go several ways), the check alone is named.
                        continue;
                    }
                    every = Some(every.map_or(by, |e| e & by));
                    any |= by;
                }
                if any.any() && any.into_iter().all(|c| self.mutual(q, c, s)) {
                    continue; // an exchange offer (兑), not a chase
                }
                if !self.check_win_is_safe(q, m, s)? {
                    continue;
                }
                let mut parts = every.unwrap_or_default() | Bitboard::from_square(m.from);
                // A discovered check (the moved piece does not check itself): the piece whose
                // check it uncovers is needed too (the battery, as in `threats_within`).
                if !q.after(m).checkers().contains(m.to) {
                    for c in super::threats::uncovered_checkers(q, m) {
                        parts |= Bitboard::from_square(c);
                    }
                }
                ways.push((s, piece, parts, group, m));
            }
        }
        // One threat per target: the pieces common to every way (intersection), the groups and
        // checking pieces of all of them (union); the check named is the one first in
        // [`TieOrder`] (not the first generated).
        let mut done = Bitboard::EMPTY;
        let order = TieOrder::of(q);
        for &(s, piece, _, _, _) in &ways {
            if done.contains(s) {
                continue;
            }
            done |= Bitboard::from_square(s);
            let mut parts: Option<Bitboard> = None;
            let (mut group, mut checkers) = (Bitboard::EMPTY, Bitboard::EMPTY);
            let mut first: Option<Move> = None;
            for &(_, _, p, g, m) in ways.iter().filter(|w| w.0 == s) {
                parts = Some(parts.map_or(p, |x| x & p));
                group |= g;
                checkers |= Bitboard::from_square(m.from);
                if first.is_none_or(|f| order.move_rank(m) < order.move_rank(f)) {
                    first = Some(m);
                }
            }
            let first = first.expect("a way to the target");
            let mut parts = parts.unwrap_or_default();
            if parts.is_empty() {
                parts = Bitboard::from_square(first.from);
            }
            // The capturers first, then the checking pieces.
            let mut line = ArrayVec::new();
            for sq in (parts - checkers).into_iter().chain(parts & checkers) {
                let _ = line.try_push(sq);
            }
            out.push(Threat {
                square: s,
                piece,
                how: WinHow::Checks,
                line,
                first,
                rel: true,
                abs: true,
                capturers: checkers,
                follow: Bitboard::EMPTY,
                group,
                rooted: false,
                ties: ArrayVec::new(),
                net: 0,
            });
        }
        Ok(())
    }

    /// The pieces of the side that checked (where they stand in the position before the check
    /// `m`) that, after the reply `rep` (giving `s2`), take the enemy piece that stood on `s`
    /// before the reply with a net gain counting `off`.
    pub(super) fn gaining_capturers(
        &mut self,
        s2: &Position,
        rep: Move,
        m: Move,
        s: Square,
        off: Mat,
    ) -> Result<Bitboard, Exhausted> {
        let at = moved_by(rep, s);
        let mut by = Bitboard::EMPTY;
        for cm in Self::captures_to(s2, at) {
            let (v, _, _) = self.capture_balance(s2, cm, false)?;
            if self.series_gain(off + v) {
                by |= Bitboard::from_square(origin_in(m, cm.from));
            }
        }
        Ok(by)
    }

    /// Ranks the line of a win by checks that ends with the capturer (standing on `capturer` in
    /// `q`) taking the target (on `t` in `q`) with the net balance `v`, higher being better for
    /// the chaser: [`Self::win_score`] first, then, at equal score, a capturer that is not the
    /// target's exchange partner in `q` ([`Self::mutual`]: a win by the partner is the exchange
    /// carried out, no threat, see [`Self::threats_within`]). The opponent picks among the
    /// defences of a check the one whose line ranks lowest, the chaser among its captures the
    /// highest: a tie between equally good defences or captures is thus settled by what they
    /// are, not by the order they were generated in (a mirrored board is judged the same).
    pub(super) fn line_rank(&self, q: &Position, t: Square, capturer: Square, v: Mat) -> i32 {
        self.win_score(q, capturer, v) * 2 + i32::from(!self.mutual(q, capturer, t))
    }

    /// Orders the ways of winning one piece: more material first, then, at equal value, a
    /// capturer that is neither the general nor a pawn (the threat then does not rest on them
    /// alone, as for direct captures in [`Self::threats`]). The choice must not depend on where
    /// the pieces stand, or a mirrored board would be judged differently.
    pub(super) fn win_score(&self, pos: &Position, capturer: Square, v: Mat) -> i32 {
        let lone = matches!(
            pos.piece_at(capturer).map(|p| p.role),
            Some(Role::King) | Some(Role::Pawn) | None
        );
        self.scalar(v) * 2 + i32::from(!lone)
    }
}

#[cfg(test)]
mod tests {
    //! Threats by a series of checks (抽将, RULES.md §2.1), each position in all four
    //! orientations of the board.
    use crate::rules::nature::testkit::{assert_chase, assert_idle, by, cxa, every_orientation};
    use crate::rules::nature::{IdleKind, NatureKind, WinHow};
    use crate::rules::profile::Profile;

    #[test]
    fn a_check_then_the_capture_is_a_threat_unless_the_capture_walks_into_mate() {
        // Red K e0, R h4; Black K d9, A e8, N g9. §2.1: from a4 the rook checks on a9, the
        // general steps to d8 and Rxg9: a chase by checks. With a black rook on i5 and horse
        // on f3, taking g9 lets Black mate at once (Ri0+): §2.5, no win, idle.
        let n = cxa("3k2n2/4a4/9/9/9/7R1/9/9/9/4K4 w", "h4a4");
        assert_chase(&n, &["g9"]);
        assert_eq!(n.targets[0].how, WinHow::Checks);
        assert_idle(&cxa("3k2n2/4a4/9/9/8r/7R1/5n3/9/9/4K4 w", "h4a4"), None);
    }

    #[test]
    fn a_piece_forced_to_interpose_and_then_taken() {
        // Red K d0, R i4, P c9 d3; Black K e9, N f9, R f8, P e5. §2.1 (图24): after Ri5, Rxe5+
        // forces the rook f8 to interpose on e8, Pd9+ drags the general away and Rxe8.
        let n = cxa("2P1kn3/5r3/9/9/4p4/8R/3P5/9/9/3K5 w", "i4i5");
        assert_chase(&n, &["f8"]);
        assert_eq!(n.targets[0].how, WinHow::Checks);
        assert_eq!(by(&n, "f8"), ["i5"]);
    }

    #[test]
    fn a_pawn_sacrificed_to_win_a_rook_is_a_gain_not_for_a_horse() {
        // Black K f9, R f5, P e3; Red K e1, R b3. §1 and §2.1 (参考图29, 图24): after Rf3,
        // ...e2+ uncovers the rook on b3: a pawn for a rook is a gain (chase by checks); the
        // same line winning a horse for the pawn is not (idle).
        let n = cxa("5k3/9/9/9/5r3/9/1R2p4/9/4K4/9 b", "f5f3");
        assert_chase(&n, &["b3"]);
        assert_eq!(n.targets[0].how, WinHow::Checks);
        assert_idle(&cxa("5k3/9/9/9/5r3/9/1N2p4/9/4K4/9 b", "f5f3"), None);
    }

    #[test]
    fn a_check_that_costs_material_on_every_defence_is_a_joint_chase() {
        // Red K e0, A e1 f0, C a8, R g7; Black K e9, A d9 f9, B c9 e7. §2.1 read per defence
        // (参考图41): Ch8 threatens Ch9+; every defence loses a piece, so cannon and rook chase
        // the elephant e7 together. Per defence off: idle; without the screen f9: idle.
        let fen = "2baka3/C8/4b1R2/9/9/9/9/9/4A4/4KA3 w";
        let n = cxa(fen, "a8h8");
        assert_eq!(n.kind, NatureKind::Chase);
        assert_eq!(by(&n, "e7"), ["g7", "h8"]);
        assert!(
            n.targets
                .iter()
                .any(|t| t.square.to_string() == "e7" && t.joint)
        );
        let p = Profile {
            checks_win_per_defence: false,
            ..Profile::cxa()
        };
        assert_eq!(every_orientation(fen, "a8h8", &p).kind, NatureKind::Idle);
        assert_idle(&cxa("2bak4/C8/4b1R2/9/9/9/9/9/4A4/4KA3 w", "a8h8"), None);
    }

    #[test]
    fn a_check_win_resting_on_the_exchange_partner_is_the_exchange() {
        // Red K f0, R h2, B c0, C i0; Black K d9, B g9, R e4. §2 (兑 idle-class): Re2 offers the
        // rook exchange; the cannon check Ci9+ wins the rook only through that exchange: 兑.
        let n = cxa("3k2b2/9/9/9/9/4r4/9/7R1/9/2B2K2C w", "h2e2");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn among_equal_captures_after_a_check_the_one_not_by_the_exchange_partner_counts() {
        // Black K f9, A d9 e8, C h4, R f3, N c1; Red K e1, C c2 d1, R c4, B i2 g0.
        // Black C h4 goes to h1 facing the red cannon d1 over the general; after Rf1+ rook and
        // cannon can equally take d1: the chaser picks the rook (no exchange partner): a chase
        // by checks of the cannon d1.
        let n = cxa("3a1k3/4a4/9/9/9/2R4c1/5r3/2C5B/2nCK4/6B2 b", "h4h1");
        assert_chase(&n, &["d1"]);
        assert_eq!(n.targets[0].how, WinHow::Checks);
    }
}
