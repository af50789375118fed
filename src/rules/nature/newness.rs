//! Newness (RULES.md §2.2): whether a threat after the move is new or continues one that stood
//! before it (从捉到捉 is idle; a discovered attack, a cut root, a new attacker, or an old threat
//! made real by the moved piece is new), giving the move's chase targets.

use super::*;

/// Whether the move itself makes the chase of `t`: the moved piece takes part, or the move opens
/// or closes the line (or horse leg) of a piece taking part. A check or mate threat counts as a
/// chase only of such targets (AXF): a threat that merely appears elsewhere because the check or
/// mate threat made a capture safe belongs to the attack on the general.
pub(super) fn made_by_move(m: Move, t: &ChaseTarget) -> bool {
    t.by.iter().any(|&b| {
        if b == m.to {
            return true;
        }
        let line = attacks::between(b, t.square);
        if line.contains(m.from) || line.contains(m.to) {
            return true;
        }
        // A horse's leg towards the target.
        attacks::horse_moves(b)
            .iter()
            .any(|d| d.targets.contains(t.square) && d.block == m.from)
    })
}

/// AXF line defence (see [`Profile::line_defence_is_block`]): the move `m` (played in `before`,
/// giving `after`) ended an enemy rook's or cannon's attack along a line on the mover's piece on
/// `c`, by interposing or by taking a cannon's screen away, and that enemy piece protected the
/// piece on `t` through `c` (an x-ray: `c` lies between it and `t`). The threat of `c` on `t`
/// that this leaves is a consequence of the block, not a chase. `c` must not be the moved piece.
pub(super) fn line_defence(
    before: &Position,
    after: &Position,
    m: Move,
    c: Square,
    t: Square,
) -> bool {
    let Some(cp) = after.piece_at(c) else {
        return false;
    };
    if c == m.to || before.piece_at(c) != Some(cp) {
        return false;
    }
    let them = !cp.color;
    let liners = before.pieces(them, Role::Rook) | before.pieces(them, Role::Cannon);
    for x in liners {
        if !attacks::between(x, t).contains(c) {
            continue;
        }
        let span = attacks::between(x, c);
        if !span.contains(m.from) && !span.contains(m.to) {
            continue;
        }
        let Some(xp) = before.piece_at(x) else {
            continue;
        };
        if after.piece_at(x) != Some(xp) {
            continue; // the move took the enemy piece: no block
        }
        let reach = |occ: Bitboard| {
            let rot = attacks::rotate(occ);
            if xp.role == Role::Rook {
                attacks::rook_attacks(x, occ, rot)
            } else {
                attacks::cannon_attacks(x, occ, rot)
            }
        };
        let attacked_before = reach(before.occupied()).contains(c);
        let protected_through = reach(before.occupied().without(c)).contains(t);
        let attacked_after = reach(after.occupied()).contains(c);
        if attacked_before && protected_through && !attacked_after {
            return true;
        }
    }
    false
}

/// Puts the capturer first in a chase target's participants (`t.first`, or the first capture
/// of a line tied with it; among equally good first captures, the one by the lowest role), and
/// the others by role: an order that does not depend on where the pieces stand, so that a
/// mirrored or colour-swapped board names the same capturer (which the AXF allowances of the
/// verdict read) and gives the same reason.
pub(super) fn order_participants(q: &Position, t: &Threat, parts: &mut [Square]) {
    let role = |s: &Square| q.piece_at(*s).map(|p| p.role);
    let lead = std::iter::once(t.first.from)
        .chain(t.ties.iter().map(|(m, _)| m.from))
        .filter_map(|c| parts.iter().position(|&s| s == c))
        .min_by_key(|&i| role(&parts[i]));
    if let Some(i) = lead {
        parts[..=i].rotate_right(1);
    }
    if parts.len() > 2 {
        parts[1..].sort_by_key(role);
    }
}

impl Analyzer<'_> {
    /// The new threats the move makes (RULES.md §2 chase conditions), as chase targets.
    pub(super) fn chase_targets(
        &mut self,
        before: &Position,
        after: &Position,
        m: Move,
        prev: Option<Move>,
    ) -> Result<Vec<ChaseTarget>, Exhausted> {
        let moved_to = m.to;
        let q1 = after.null_move();
        let t1 = self.threats(&q1)?;
        if t1.is_empty() {
            return Ok(Vec::new());
        }
        // AXF: an attack that existed before but was unsafe (a mate followed the capture) is
        // an old attack; making it safe is no new chase.
        self.ignore_safety = self.profile.newness_ignores_safety;
        // Only the pieces threatened now matter before the move (each piece's threat is
        // judged on its own).
        let now = t1
            .iter()
            .filter(|t| t.rel)
            .fold(Bitboard::EMPTY, |b, t| b.with(t.square));
        // A threat by a check read per defence is continued only by such threats (below):
        // those before the move are listed (on the whole board) only when there is one now.
        let per_defence = t1.iter().any(|t| t.rel && t.group.any());
        let t0 = if per_defence {
            self.threats(before)
        } else {
            self.threats_within(before, now)
        };
        self.ignore_safety = false;
        let mut t0 = t0?;
        let within = if per_defence { Bitboard::FULL } else { now };
        t0.extend(self.threats_held_back_by_check(before, within)?);
        let mut targets = Vec::new();
        for t in &t1 {
            if !t.rel {
                continue;
            }
            // With `direct_threat_renews_check_threat`, a direct threat does not continue an
            // earlier threat that needed a series of checks (a different, weaker form).
            let renews = self.profile.direct_threat_renews_check_threat && t.how != WinHow::Checks;
            // A threat by a check read per defence continues any earlier threat on one of the
            // pieces it threatens together; an earlier such threat (on pieces the opponent
            // could choose between, or give up rather than be mated) continues no other kind of
            // threat ([`Self::per_defence_threats`]).
            let same = |o: &&Threat| {
                let on_piece = (o.square == t.square && o.piece == t.piece)
                    || (t.group.contains(o.square) && q1.piece_at(o.square) == Some(o.piece));
                let other_kind = o.group.any() && t.group.is_empty();
                on_piece && !other_kind && !(renews && o.how == WinHow::Checks)
            };
            let old_rel = t0.iter().filter(same).any(|o| o.rel);
            let old_abs = t0.iter().filter(same).any(|o| o.abs);
            let mut parts: Option<Vec<Square>> = None;
            // A piece that newly joins the attack (not merely the same piece moved on) makes
            // the threat new too.
            let mut old_capturers = Bitboard::EMPTY;
            for o in t0.iter().filter(same) {
                old_capturers |= o.capturers;
            }
            // Pieces that already bore on the square before the move do not "join" it.
            old_capturers |= Self::pseudo_capturers(before, t.square, before.turn());
            if old_capturers.contains(m.from) {
                old_capturers = old_capturers.without(m.from).with(m.to);
            }
            let new_attacker =
                self.profile.new_attacker_is_new && (t.capturers - old_capturers).any();
            // Why the threat is new (for the target's reason).
            let mut why = if !old_rel {
                NewBecause::NoThreatBefore
            } else {
                NewBecause::NewAttacker
            };
            // A win by checks that stood before but netted less (the defence could give back
            // or take more: the checking piece could be taken, say) is a stronger threat now;
            // when the moved piece is one of those the series needs (it gives the check, or
            // takes), the move makes it: new (参考图14: the rook steps from i0, where the horse
            // could take it in answer to the discovered check Cxd0+, to h0, where it cannot,
            // and the cannon's Cxd0+ then wins the rook a0 for nothing: a joint chase).
            let bettered = old_rel
                && !new_attacker
                && t.how == WinHow::Checks
                && t0
                    .iter()
                    .filter(same)
                    .all(|o| o.how == WinHow::Checks && o.group.is_empty() && o.net < t.net);
            if bettered {
                let p = self.participants(&q1, t)?;
                if p.contains(&moved_to) {
                    why = NewBecause::MadeReal;
                    parts = Some(p);
                }
            }
            if old_rel && !new_attacker && parts.is_none() {
                // The threat as such existed. It is new only if it could not really be carried
                // out before (the capture lost something elsewhere) and the moved piece takes part.
                let old_level = t0
                    .iter()
                    .filter(same)
                    .map(|o| self.threat_level(o))
                    .max()
                    .unwrap_or(0);
                // The moved piece made the first capture of the threat that stood, and the
                // capture still cannot really be made: carrying it out would have taken that
                // piece off its square at once, so the capture could be made as such (what else
                // stood hanging, the capture neither caused nor saved), and the move, which has
                // not made it real, continues the threat (从捉到捉). 参考图26: the black rook
                // attacks the elephant e2 down the file from e6, where the red rook attacks it
                // and its cannon i7 hangs; it steps to e7, behind the cannon, and taking e2
                // would still give the cannon up: idle. A piece that took part only later in the
                // line (a cannon's screen, a second capturer) stood exposed while the exchange
                // ran: saving it makes the threat real (图10, 图25, 图28: the rook, attacked,
                // steps along the file and stays its cannon's screen: a joint chase).
                if !old_abs
                    && !t.abs
                    && t0.iter().filter(same).filter(|o| o.rel).all(|o| {
                        // (Among equally good first captures, any: a mirrored board lists
                        // them in another order.)
                        o.first.from == m.from || o.ties.iter().any(|(f, _)| f.from == m.from)
                    })
                {
                    continue;
                }
                if old_abs && !self.newly_bears(before, &q1, m, t.square, old_capturers) {
                    // ... or the move cut a root by checks the capture had (断根).
                    let Some(joint) = self.strengthens_threat(&q1, t, old_level, moved_to)? else {
                        continue;
                    };
                    why = NewBecause::MadeReal;
                    let mut p = self.participants(&q1, t)?;
                    if joint && !p.contains(&moved_to) {
                        p.push(moved_to);
                    }
                    parts = Some(p);
                } else {
                    why = if old_abs {
                        NewBecause::NewAttacker
                    } else {
                        NewBecause::MadeReal
                    };
                    let mut p = self.participants(&q1, t)?;
                    // The moved piece is one of the pieces that can each make the capture
                    // alone, now real: it takes part, whichever of them the line names first
                    // (the tied first captures come in square order, which a mirrored or
                    // colour-swapped board reverses).
                    if p.len() == 1 && !p.contains(&moved_to) && t.capturers.contains(moved_to) {
                        p = vec![moved_to];
                    }
                    if !p.contains(&moved_to) {
                        let mut parry = match self.stops_parry(&q1, t, &p, moved_to)? {
                            None => self.strengthens_threat(&q1, t, old_level, moved_to)?,
                            some => some,
                        };
                        if parry.is_none()
                            && self.profile.capturer_duties
                            && self.profile.ward_escape_frees_protector
                            && t.abs
                            && self.frees_its_protector(before, m, t0.iter().filter(same))?
                        {
                            // The capturer chases alone; the move made its capture real.
                            why = NewBecause::ProtectorFreed;
                            parry = Some(false);
                        }
                        match parry {
                            None => continue,
                            Some(true) => p.push(moved_to),
                            Some(false) => {}
                        }
                    }
                    parts = Some(p);
                }
            }
            if self.profile.exchange_pair_is_no_chase
                && t.how != WinHow::Checks
                && !self.wins_by_value(&q1, t)
                && self.target_in_exchange(before, &q1, t.square)?
            {
                continue; // the target can be traded: pressing the exchange (兑), not a chase
            }
            if self.profile.line_defence_is_block
                && t.how != WinHow::Checks
                && line_defence(before, after, m, t.first.from, t.square)
            {
                continue; // the move blocked an attack on the capturer: 拦, not a chase
            }
            if self.profile.just_crossed_pawn_is_no_gain
                && t.piece.role == Role::Pawn
                && prev.is_some_and(|p| {
                    p.to == t.square
                        && p.from.on_own_side(t.piece.color)
                        && !p.to.on_own_side(t.piece.color)
                })
            {
                continue; // the pawn has just crossed the river: winning it is no gain
            }
            let parts = match parts {
                Some(p) => p,
                None => self.participants(&q1, t)?,
            };
            // A pawn by itself: idle, but kept for the verdict's mutual forbidden play (互打)
            // when the pawn's own move makes the threat (兵本身步步叫吃: the pawn moving and
            // attacking, not a threat of a pawn that another piece's move brings about).
            let alone =
                self.profile.king_pawn_alone_idle && Self::king_or_pawn_alone(&q1, t, &parts);
            let pawn_alone = alone
                && self.profile.pawn_chases_in_mutual_play
                && parts.contains(&moved_to)
                && parts
                    .iter()
                    .all(|&s| q1.piece_at(s).is_some_and(|p| p.role != Role::King));
            if alone && !pawn_alone {
                continue;
            }
            // (A pawn's threat by itself is recorded without this search, so that the nature
            // and the budget it spends stay what they are without the record.)
            if self.profile.counter_threat_mate_cap > 0
                && t.how != WinHow::Checks
                && !pawn_alone
                && self.refuted_by_counter_threat(&q1, t)?
            {
                continue; // taking it lets a mate threat win it back: no win (图18)
            }
            // A target several pieces could each win alone (`t.capturers`) is charged to the
            // moved piece when it is one of them, else to one whose attack the move made
            // (opened its line or leg, or gave it a screen): which of them is named is
            // otherwise a free choice (the first found), and a check or mate threat chases
            // only what the move itself makes ([`made_by_move`]), whatever order the captures
            // were found in.
            let parts = if parts.len() == 1 && t.how != WinHow::Checks && t.follow.is_empty() {
                let made_by = |c: Square| {
                    made_by_move(
                        m,
                        &ChaseTarget {
                            square: t.square,
                            piece: t.piece,
                            joint: false,
                            how: t.how,
                            by: vec![c],
                            reason: String::new(),
                        },
                    )
                };
                if t.capturers.contains(moved_to) {
                    vec![moved_to]
                } else if made_by(parts[0]) {
                    parts
                } else {
                    let order = TieOrder::of(&q1);
                    match t
                        .capturers
                        .into_iter()
                        .filter(|&c| made_by(c))
                        .min_by_key(|&c| order.rank(c))
                    {
                        Some(c) => vec![c],
                        None => parts,
                    }
                }
            } else {
                parts
            };
            // A screen the move brings in acts with its cannon (联合捉: two cannons, a rook or
            // a horse moved in front of a cannon): taken away, the cannon's capture is gone, so
            // the chase is joint unless another piece wins the target without it (every piece
            // that can start a winning capture is a cannon over that screen). A screen that
            // stood there is part of the board, not a chaser (图26: the cannon attacking the
            // rook over its own elephant chases alone).
            let mut parts = parts;
            let screened = |c: Square| {
                q1.piece_at(c).is_some_and(|p| p.role == Role::Cannon)
                    && attacks::between(c, t.square).contains(moved_to)
            };
            if t.how != WinHow::Checks
                && t.follow.is_empty()
                && !parts.contains(&moved_to)
                && t.capturers.any()
                && t.capturers.into_iter().all(screened)
                && screened(t.first.from)
            {
                if !parts.contains(&t.first.from) {
                    parts.insert(0, t.first.from);
                }
                parts.push(moved_to);
            }
            order_participants(&q1, t, &mut parts);
            let reason = self.chase_reason(&q1, t, &parts, m, why);
            let target = ChaseTarget {
                square: t.square,
                piece: t.piece,
                joint: parts.len() >= 2,
                how: t.how,
                by: parts,
                reason,
            };
            if pawn_alone {
                self.pawn_alone.push(target);
            } else {
                targets.push(target);
            }
        }
        Ok(targets)
    }

    /// How really a threat can be carried out, for newness (RULES.md §2.2): 0 when no capture of
    /// it can be made now without losing elsewhere what it wins or being mated (sound only
    /// counting what it newly gives away: [`Self::capture_is_sound`]), 1 when it can, but every
    /// such capture is answered by a win-back by checks worth less (a root by checks,
    /// [`Threat::rooted`]; only with [`Profile::cut_check_root_is_new`]), 2 when some capture
    /// can be made with no win-back at all. A threat won by checks or in two steps counts 2
    /// when it can be made now (its roots are not read).
    pub(super) fn threat_level(&self, t: &Threat) -> u8 {
        match (t.abs, t.rooted && self.profile.cut_check_root_is_new) {
            (false, _) => 0,
            (true, true) => 1,
            (true, false) => 2,
        }
    }

    /// The level ([`Self::threat_level`]) of the best capture of the enemy piece on `s` in `q`
    /// (the side to move capturing), as far as what the capture gives away elsewhere is
    /// concerned, for [`Self::strengthens_threat`]: among the captures that win material on
    /// the square, one counts 0 when what it newly gives away (what the capturer protected or
    /// shielded, as the capturer's duties count it) eats up all it wins, or when it is not
    /// sound even counting only that (a mate or a win-back by checks of as much follows); 1
    /// when a smaller win-back by checks answers it ([`Self::counter_seen`], read as
    /// [`Self::threat_level`] reads it); 2 otherwise. What
    /// the opponent could take anyway does not lower it: a piece left hanging whatever the
    /// capture is no cost of the capture. `None` when no capture wins material on the square
    /// (the exchange there, and the pieces it needs, are [`Self::participants`]' concern).
    pub(super) fn capture_level_at(
        &mut self,
        q: &Position,
        s: Square,
    ) -> Result<Option<u8>, Exhausted> {
        if q.piece_at(s).is_none() {
            return Ok(None);
        }
        let mut level = None;
        let base = self.best_capture(&q.null_move(), None);
        for m in Self::captures_to(q, s) {
            if self.stands_in_exchange(q, m.from, s)? {
                continue;
            }
            let (v, _, rec) = self.threat_balance(q, m)?;
            if !v.is_gain() {
                continue;
            }
            level = level.max(Some(0));
            let new_cost = (self.best_capture(&q.after(m), Some(m.to)) - base).max(0);
            if self.scalar(v) - new_cost <= 0 {
                continue;
            }
            let (rel, abs) = self.capture_is_sound(q, m, v, rec)?;
            if rel || abs {
                let rooted = self.counter_seen && self.profile.cut_check_root_is_new;
                level = level.max(Some(if rooted { 1 } else { 2 }));
                if level == Some(2) {
                    break;
                }
            }
        }
        Ok(level)
    }

    /// Whether the move `m` (played in `before`) is the escape of a ward that held back a
    /// threat standing before it (RULES.md §2, special cases: "a chasing piece that is itself
    /// the only protector of something, so that carrying out the capture costs more than it
    /// gains, does not chase"; §2.2, newness). One of the threats `olds` could be made as such
    /// but not really: its capture cost a piece of ours, the ward, that the capturer kept, as
    /// its protector or by shielding it on a line ([`Profile::capturer_duties`]): with the
    /// ward spared, the capture would have lost nothing it wins. The ward stood safe, the
    /// opponent unable to win it (its protection did its work: it tied the capturer down), and
    /// the move takes it where the capture no longer costs it: the move makes the capture real
    /// and so chases, by the capturer (相关子造成捉: a move that lets another piece capture).
    /// CXA 参考图16: the red pawn on e6, attacked by the black rook e5 and protected by the red
    /// rook f6, steps to d6; the rook could take the crossed pawn f3 only by giving up the pawn
    /// e6 (pawn for pawn, no gain), and now takes it for nothing: 长捉 by the pawn moves. 图12
    /// is the same escape under a fresh attack, the cost then above the gain. A piece that hung
    /// whatever the capture (under-protected, or not kept by the capturer) is no ward: its
    /// escape is an evasion, and leaves a capture it neither caused nor saved (参考图21: the
    /// rook evading the horse; 参考图37: idle).
    pub(super) fn frees_its_protector<'t>(
        &mut self,
        before: &Position,
        m: Move,
        olds: impl Iterator<Item = &'t Threat>,
    ) -> Result<bool, Exhausted> {
        let them = !before.turn();
        let mut safe: Option<bool> = None;
        for o in olds {
            if !o.rel || o.abs || o.how == WinHow::Checks || o.follow.any() {
                continue;
            }
            let c = o.first;
            if c.from == m.from {
                continue;
            }
            // After the capture, the opponent must be able to take the ward at all.
            let r = before.after(c);
            if !r.attacked_by(them).contains(m.from) {
                continue;
            }
            // The ward stood safe: the opponent, to move, could not win it.
            let safe = match safe {
                Some(s) => s,
                None => {
                    let only = Bitboard::FULL.without(m.from);
                    let s = self.best_capture_skipping(&before.null_move(), only) <= 0;
                    safe = Some(s);
                    s
                }
            };
            if !safe {
                return Ok(false);
            }
            let (v, _, _) = self.threat_balance(before, c)?;
            let gain = self.scalar(v);
            let base = self.base_best_capture(&before.null_move());
            let with_ward = (self.best_capture(&r, Some(c.to)) - base).max(0);
            let spared = Bitboard::from_square(c.to).with(m.from);
            let without_ward = (self.best_capture_skipping(&r, spared) - base).max(0);
            if with_ward > without_ward && gain - without_ward > 0 {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the piece on `guard` (the piece just moved) takes part in the direct threat `t`
    /// of `q` by making it real: the threat is now carried out more surely than it could be
    /// before the move (`old_level`, [`Self::threat_level`]), and would not be without the
    /// guard (taken off the board, [`Self::capture_level_at`]). Newness (RULES.md §2.2) then
    /// holds: what continues is a weaker threat, and the move that makes it real is a chase.
    /// `Some(joint)` when the guard takes part: `joint` when without it the capture would not
    /// be real at all (take it away and the threat is gone: RULES.md §2, joint chase); when
    /// it only cut a root of the target, the capturer chases alone (an unrooted piece). Two
    /// ways:
    ///
    /// - The capture, before, cost more elsewhere than it won, and the guard now covers what
    ///   the capture would newly give away: it protects a piece the capturer leaves
    ///   unprotected (the capturer was its screen or protector, RULES.md §2 special cases: the
    ///   chaser's duties, taken over by the guard). 参考图15: the black rook, attacked on h1,
    ///   steps back to h3, where it protects the horse on g3; the cannon on g5 can now take the
    ///   horse on g2, which before cost the rook and then the horse g3 (its cannon-g7 root runs
    ///   over g5): a joint chase. A piece that merely steps out of danger, the capture elsewhere
    ///   becoming real because it no longer hangs, is not needed for it (take it away and the
    ///   capture costs nothing more): idle (参考图37: the cannon i4 evading the rook; 参考图21:
    ///   the rook d4 evading the horse, though on d3 it still guards the cannon d6, which
    ///   without it would hang whatever Black takes).
    /// - The capture could be made, but the opponent would answer it by winning back material
    ///   by checks (less than the capture wins, or it would be no threat at all): a root by
    ///   checks of the target, and the guard now stops those checks (断根, RULES.md §2: cutting
    ///   a root is a chase). 图3: the red elephant going to g0 blocks Rh0+, with which Black
    ///   answers Rxc1 by winning the advisor e1; the book calls the elephant moves 长捉无根子
    ///   (the rook chases the horse alone). A piece that was itself what the checks would win,
    ///   and steps away, is not needed.
    ///
    /// A guard whose removal would leave the side to move in check (it shields its general) is
    /// not counted. Only direct threats (capture or exchange on the square) are read.
    pub(super) fn strengthens_threat(
        &mut self,
        q: &Position,
        t: &Threat,
        old_level: u8,
        guard: Square,
    ) -> Result<Option<bool>, Exhausted> {
        if t.how == WinHow::Checks || t.follow.any() || t.group.any() {
            return Ok(None);
        }
        let level = self.threat_level(t);
        if level <= old_level || q.piece_at(guard).is_none_or(|p| p.role == Role::King) {
            return Ok(None);
        }
        let without = q.without(guard);
        if without.is_check() {
            return Ok(None);
        }
        let Some(level_without) = self.capture_level_at(&without, t.square)? else {
            return Ok(None);
        };
        Ok((level_without < level).then_some(level_without == 0))
    }

    /// Whether the piece on `guard` takes part in the threat `t` by stopping the target from
    /// parrying it with a capture: the target could take one of the chaser's participants
    /// `parts` (the capturer, another needed piece, or a cannon's screen) without losing
    /// material or being mated, were the guard not on the board, and cannot with it there (the
    /// guard protects that participant, pins the target, or mates after the capture). A threat
    /// that the target can end by such a capture is no threat to win it, so the guard is one of
    /// the pieces needed together to win it (RULES.md §2, joint chase: take one away and the
    /// threat is gone). Used for a threat that stood before the move but could not really be
    /// carried out, and that the move makes real: the move is a chase when the moved piece
    /// takes part, this way or directly, and idle when it merely stepped out of danger (RULES.md
    /// §2, newness). The book rules a rook stepping back next to its horse, the screen of a
    /// cannon aiming at an unprotected rook that attacks the horse, a joint chase by rook,
    /// horse and cannon (参考图39); a horse whose steps keep the enemy cannon from taking the
    /// cannon that attacks it (the capture would be met by a mating check) a chase of that
    /// cannon (参考图49); and a cannon or rook that only evades, the threat elsewhere becoming
    /// real, idle (参考图37, 参考图21).
    ///
    /// `Some(joint)` when the guard takes part: `joint` when the participant it keeps is not the
    /// capturer itself. When the target could take the capturer, the two attack each other;
    /// the guard only makes that counter-capture impossible or losing, so that the attack is one
    /// way (no exchange offer): the capturer chases alone, as the book's 长捉无根子 by the
    /// cannon in 参考图49. A guard of another participant (a screen) wins the target together
    /// with it (参考图39).
    pub(super) fn stops_parry(
        &mut self,
        q: &Position,
        t: &Threat,
        parts: &[Square],
        guard: Square,
    ) -> Result<Option<bool>, Exhausted> {
        if t.how == WinHow::Checks {
            return Ok(None);
        }
        let us = q.turn();
        let mut pieces = Bitboard::EMPTY;
        for &p in parts {
            pieces |= Bitboard::from_square(p);
            if q.piece_at(p).is_some_and(|x| x.role == Role::Cannon) {
                pieces |= attacks::between(p, t.square) & q.by_color(us);
            }
        }
        let without = q.without(guard).null_move();
        let opp = q.null_move();
        let mut found = None;
        for x in pieces.without(guard) {
            if self.parry_by_capture(&without, t.square, x)?
                && !self.parry_by_capture(&opp, t.square, x)?
            {
                // Not by board order: a guard of any participant but the capturer is joint.
                found = Some(found == Some(true) || x != t.first.from);
            }
        }
        Ok(found)
    }

    /// Whether the side to move of `pos` can take the piece on `x` with its piece on `target`
    /// without losing material in the exchange there (a recapture answered by mate is none, as
    /// for a false root) and without being mated by checks after it.
    pub(super) fn parry_by_capture(
        &mut self,
        pos: &Position,
        target: Square,
        x: Square,
    ) -> Result<bool, Exhausted> {
        let m = Move::new(target, x);
        if !Self::captures_to(pos, x).contains(&m) {
            return Ok(false);
        }
        let (v, _, _) = self.capture_balance(pos, m, true)?;
        if self.scalar(v) < 0 {
            return Ok(false);
        }
        Ok(!search::mate_by_checks_with(
            &pos.after(m),
            self.profile.refutation_mate_cap,
            &mut self.budget,
            &mut self.mates,
        )?)
    }

    /// Whether the moved piece newly bears on `s` (it can move there, or it is the screen of a
    /// cannon that can, and did neither before the move). With `new_attacker_is_new`, a piece
    /// that joins the attack on a piece already threatened, and is needed for the new threat
    /// (the caller checks that it is a participant), makes the threat new: the threat now
    /// rests on a new combination of pieces (图26: the rook comes back to d4 and, with the
    /// horse on d2, wins the cannon on e4 that only the horse on g3 protects; before, only a
    /// series of checks could win it).
    pub(super) fn newly_bears(
        &self,
        before: &Position,
        q1: &Position,
        m: Move,
        s: Square,
        old_capturers: Bitboard,
    ) -> bool {
        if !self.profile.new_attacker_is_new || old_capturers.contains(m.to) {
            return false;
        }
        let us = q1.turn();
        let bears = |pos: &Position, sq: Square| {
            if Self::pseudo_capturers(pos, s, us).contains(sq) {
                return true;
            }
            let occ = pos.occupied();
            let rot = pos.occupied_rotated();
            let cannons = attacks::cannon_attacks(s, occ, rot) & pos.pieces(us, Role::Cannon);
            let lines = attacks::rook_attacks(s, occ, rot);
            cannons
                .filter(|&c| (attacks::rook_attacks(c, occ, rot) & lines).contains(sq))
                .count()
                > 0
        };
        bears(q1, m.to) && !bears(before, m.from)
    }
}

/// Why a threat after the move is new (RULES.md §2.2), for [`ChaseTarget::reason`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum NewBecause {
    /// No threat on the piece stood before the move.
    NoThreatBefore,
    /// The threat stood, but a piece that did not bear on the target joins it.
    NewAttacker,
    /// The threat stood, held back by the capturer's duty to the moved piece (it protected or
    /// shielded it); the moved piece steps out of reach and frees the capture.
    ProtectorFreed,
    /// The threat stood but could not really be carried out (it cost more elsewhere than it
    /// won, lost to mate, or was answered by a win-back by checks), and the move makes it real.
    MadeReal,
}

impl Analyzer<'_> {
    /// The short reason of a chase target: what is won, how, and why the threat is new, in
    /// words that name pieces, not squares (so that a mirrored board reads the same).
    pub(super) fn chase_reason(
        &self,
        q: &Position,
        t: &Threat,
        parts: &[Square],
        m: Move,
        why: NewBecause,
    ) -> String {
        let name = |p: Piece| match p.role {
            Role::Rook => "rook",
            Role::Horse => "horse",
            Role::Cannon => "cannon",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Pawn => "crossed pawn",
            Role::King => "general",
        };
        let by: Vec<&str> = parts
            .iter()
            .filter_map(|&s| q.piece_at(s).map(name))
            .collect();
        let won = format!(
            "wins the {} ({})",
            name(t.piece),
            self.scalar(self.mat(t.piece))
        );
        let how = match t.how {
            WinHow::Capture => "by a capture no real protector answers".to_string(),
            WinHow::Exchange if t.follow.any() => {
                "in two steps: the capture, then a second piece after the recapture".to_string()
            }
            WinHow::Exchange => "by the whole exchange on its square, netting material".to_string(),
            WinHow::Checks => "by a series of checks ending in its capture".to_string(),
        };
        let moved_takes_part = parts.contains(&m.to);
        let new = match why {
            NewBecause::NoThreatBefore if moved_takes_part => {
                "new: the moved piece makes the attack"
            }
            NewBecause::NoThreatBefore => "new: the move opens the attack (no threat before it)",
            NewBecause::NewAttacker => "new: a piece joins the attack",
            NewBecause::MadeReal => {
                "new: before the move the capture could not really be made, now it can"
            }
            NewBecause::ProtectorFreed => {
                "new: the moved piece, which the capturer had to guard, steps out of reach and so frees the capture"
            }
        };
        let joint = if parts.len() >= 2 { "jointly " } else { "" };
        format!("{won} {how}, {joint}by {}; {new}", by.join(" + "))
    }
}

#[cfg(test)]
mod tests {
    //! Newness (RULES.md §2.2: a new threat, or one that continues, 从捉到捉), each position in
    //! all four orientations of the board.
    use crate::rules::nature::testkit::{
        assert_chase, assert_idle, axf, by, cxa, every_orientation,
    };
    use crate::rules::nature::{IdleKind, NatureKind};
    use crate::rules::profile::Profile;

    #[test]
    fn a_continuing_threat_is_idle() {
        // Red K d0, R a5; Black K e9, N e5. §2.2 (从捉到捉): the rook keeps attacking the same
        // horse from b5: idle.
        assert_idle(&cxa("4k4/9/9/9/R3n4/9/9/9/9/3K5 w", "a5b5"), None);
    }

    // ---- Issue 21: a ward stepping out of the attack frees its protector (参考图16) ----

    /// CXA 参考图16: Red K e0, B c0 e2, A f2, P e6, R f6; Black K e9, A d7, B e7, R e5, P f3.
    const FIG16: &str = "4k4/9/3ab4/4PR3/4r4/9/5p3/4BA3/9/2B1K4 w";

    #[test]
    fn a_ward_stepping_out_of_the_attack_frees_its_protector() {
        // The pawn e6, attacked by the black rook and protected only by the rook f6, steps to
        // d6: the rook's capture of the crossed pawn f3 cost the pawn e6 (pawn for pawn, no
        // gain) and now costs nothing. A chase of f3, charged to the rook (the pawn's own
        // threat on the advisor d7 is a pawn's, idle).
        let n = cxa(FIG16, "e6d6");
        assert_chase(&n, &["f3"]);
        assert_eq!(by(&n, "f3"), ["f6"]);
        assert!(!n.targets[0].joint);
        // And back, after the black rook has followed to d5: the same.
        let n = cxa(FIG16, "e6d6 e5d5 d6e6");
        assert_chase(&n, &["f3"]);
        assert_eq!(by(&n, "f3"), ["f6"]);
    }

    #[test]
    fn a_ward_still_attacked_where_it_lands_frees_nothing() {
        // A black horse on c8 covers d6: the pawn stepping there still hangs on the rook, whose
        // capture of f3 still costs it: idle.
        assert_idle(
            &cxa("4k4/2n6/3ab4/4PR3/4r4/9/5p3/4BA3/9/2B1K4 w", "e6d6"),
            None,
        );
    }

    #[test]
    fn a_piece_the_capture_did_not_cost_frees_nothing() {
        // A second red rook on a6 also protects the pawn: taking f3 never cost it, the threat
        // stood real, and the pawn's step continues it (从捉到捉): idle.
        assert_idle(
            &cxa("4k4/9/3ab4/R3PR3/4r4/9/5p3/4BA3/9/2B1K4 w", "e6d6"),
            None,
        );
        // With no pawn on f3 there is nothing for the rook to take: idle.
        assert_idle(&cxa("4k4/9/3ab4/4PR3/4r4/9/9/4BA3/9/2B1K4 w", "e6d6"), None);
        // Without the rule (`ward_escape_frees_protector` off), the diagram's step is idle.
        let off = Profile {
            ward_escape_frees_protector: false,
            ..Profile::cxa()
        };
        assert_idle(&every_orientation(FIG16, "e6d6", &off), None);
    }

    #[test]
    fn a_piece_that_hung_whatever_the_capture_is_no_ward() {
        // Red K d0, R a6 a3; Black K e9, A d9 f9, B e7 g9, R c9, N b8, C g3. The horse attacks
        // the rook a6, which the rook a3 protects: rook for horse, it hangs all the same
        // (RULES.md §2.3-2.4: a horse chasing a rook chases even a protected one). Its step
        // to a5 is an evasion (参考图21), not the escape of a ward, though Ra3xg3 was held back
        // by it: idle, and Black's horse, chasing the rook forever, must vary.
        let fen = "2rakab2/1n7/4b4/R8/9/9/R5c2/9/9/3K5 w";
        assert_idle(&cxa(fen, "a6a5"), None);
        let n = cxa(fen, "a6a5 b8c6 a5a6");
        assert_idle(&n, None);
    }

    #[test]
    fn a_shielded_ward_stepping_off_the_line_frees_the_capturer() {
        // Red K e0, R b5, N b2 c3; Black K e9, A e8, R b9, C g5. The rook b5 eyes the cannon
        // g5 and stands between the black rook b9 and the horse b2: taking g5 would give the
        // horse up (the capturer's duty to a piece it shields, 图23). The horse steps to c4,
        // off the file: the rook's capture is free, a chase by the horse's move.
        let n = cxa("1r2k4/4a4/9/9/1R4c2/9/2N6/1N7/9/4K4 w", "b2c4");
        assert_chase(&n, &["g5"]);
        assert_eq!(by(&n, "g5"), ["b5"]);
        // A cannon there instead: stepping off the file frees the capture (a chase); stepping
        // along it, still behind the rook, frees nothing (idle).
        let cannon = "1r2k4/4a4/9/9/1R4c2/9/2N6/1C7/9/4K4 w";
        assert_chase(&cxa(cannon, "b2d2"), &["g5"]);
        assert_idle(&cxa(cannon, "b2b3"), None);
        assert_idle(&cxa(cannon, "b2b0"), None);
    }

    #[test]
    fn a_threat_the_opponent_walked_into_is_not_charged() {
        // Black K e9, N d7 (steps to e5 into the rook's rank); Red K d0, R a5. §2 special cases
        // (自毙): Red's next, unrelated move is idle.
        assert_idle(&cxa("4k4/9/3n5/9/R8/9/9/9/9/3K5 b", "d7e5 d0d1"), None);
    }

    #[test]
    fn a_threat_appearing_because_the_general_answered_a_check_is_idle() {
        // Red K e0, N f0; Black K d9, N d1, R a0 (checks along rank 0). §2 special cases: the
        // general steps out of the check and so frees its horse's leg onto d1: idle (here a
        // block of the rook's rank). The same step with no check to answer is a chase.
        let n = cxa("3k5/9/9/9/9/9/9/9/3n5/r3KN3 w", "e0e1");
        assert_idle(&n, Some(IdleKind::Block));
        let n = cxa("3k5/9/9/9/9/9/9/9/3n5/4KN3 w", "e0e1");
        assert_chase(&n, &["d1"]);
        assert_eq!(by(&n, "d1"), ["f0"]);
    }

    #[test]
    fn a_piece_joining_the_attack_makes_the_threat_new() {
        // Red K e0, B e2, R a8, N f5; Black K e9, A d9 f9, N h6, R h3. §2.2: Ra6 joins the
        // horse against h6 (protected once by h3); the black horse taking f5 would win it, so
        // h6 stands in no exchange, and the rook's joining makes a new, joint threat.
        let n = cxa("3aka3/R8/9/7n1/5N3/9/7r1/4B4/9/4K4 w", "a8a6");
        assert_chase(&n, &["h6"]);
        assert_eq!(by(&n, "h6"), ["a6", "f5"]);
    }

    #[test]
    fn stepping_out_of_danger_to_guard_a_screen_is_new_only_when_it_takes_part() {
        // Red K d0, A d2, R g6, N g8, C h8; Black K e9, R f8, N f4. §2.2 (参考图39, 37, 21): the
        // cannon aims over its horse at the rook f8, but Rg6 hangs to the horse f4, so the
        // threat could not be carried out. Rg7 steps out of danger next to the screen and
        // takes part: a joint chase. A rook that only steps out of danger (c6-d6) makes the
        // threat real but does not chase; with the rook already safe, Rg7 continues it.
        let n = cxa("4k4/5rNC1/9/6R2/9/5n3/9/3A5/9/3K5 w", "g6g7");
        assert_chase(&n, &["f8"]);
        assert!(n.targets[0].joint);
        assert_idle(&cxa("4k4/5rNC1/9/2R6/9/1n7/9/3A5/9/3K5 w", "c6d6"), None);
        assert_idle(&cxa("4k4/5rNC1/9/9/9/5n3/6R2/3A5/9/3K5 w", "g3g7"), None);
    }

    #[test]
    fn taking_over_a_duty_makes_the_capture_real() {
        // Red K d0, N e3, C g4, R i1; Black K e9, A d9 f9, C i9, R g7, P i6, C f5. §2.2
        // (参考图15): the horse attacks f5 but is the only protector of g4; Rg1 steps out of
        // danger and behind g4, so the capture becomes real: horse and rook chase f5. Rh1
        // leaves g4 to the horse: idle.
        let fen = "3aka2c/9/6r2/8p/5c3/6C2/4N4/9/8R/3K5 w";
        let n = cxa(fen, "i1g1");
        assert_chase(&n, &["f5"]);
        assert_eq!(by(&n, "f5"), ["e3", "g1"]);
        let n = cxa(fen, "i1h1");
        assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    }

    #[test]
    fn an_escape_that_takes_away_a_protector_s_screen_makes_a_new_threat() {
        // Red K d0, R a5, P e6; Black K f9, C e8, N g7 (attacks e6), N e5. Issue 16 item 2,
        // §2.2 and 断根: the cannon protects e5 over the pawn e6, so Rxe5 loses the rook; the
        // pawn escapes to d6 and takes the screen away: the rook now wins e5 for nothing, a new
        // threat: a chase by the rook. Stepping forward to e7 keeps the screen: idle.
        let fen = "5k3/4c4/6n2/4P4/R3n4/9/9/9/9/3K5 w";
        let n = cxa(fen, "e6d6");
        assert_chase(&n, &["e5"]);
        assert_eq!(by(&n, "e5"), ["a5"]);
        assert_idle(&cxa(fen, "e6e7"), None);
    }

    #[test]
    fn a_capturer_stepping_along_its_line_out_of_danger_continues_its_threat() {
        // 参考图26: Red K e0, A d0 e1, B e2, N g6 (to h8), R i6; Black K e9, A e8 f9, B g9,
        // C i7, R e6, P c4. Nh8 opens the red rook on the cannon i7 and offers the rooks'
        // exchange; the black rook, attacking the elephant e2 down the file, steps to e7
        // behind its cannon. Taking e2 gave the cannon up before and still does: the threat
        // continues (从捉到捉), idle. Without the cannon, plainly continuing: idle.
        assert_idle(
            &cxa("4kab2/4a4/8c/4r1N1R/9/2p6/9/4B4/4A4/3AK4 w", "g6h8 e6e7"),
            None,
        );
        assert_idle(
            &cxa("4kab2/4a4/9/4r1N1R/9/2p6/9/4B4/4A4/3AK4 w", "g6h8 e6e7"),
            None,
        );
    }

    #[test]
    fn a_capturer_stepping_along_its_line_continues_its_threat_whichever_tie_is_listed() {
        // Red K d0, R a5 c1, N g4; Black K e9, R g8, N c5. Both rooks take the unprotected
        // horse c5 equally well, but the red horse g4 hangs to the black rook: taking c5 gives
        // it up (horse for horse). The rook c1 steps along its file to c2 and still could not
        // really take: idle (参考图26), on every orientation of the board (the tied first
        // captures are listed in square order, which a mirror or a colour swap reverses).
        assert_idle(&cxa("4k4/6r2/9/9/R1n6/6N2/9/9/2R6/3K5 w", "c1c2"), None);
    }

    #[test]
    fn a_moved_capturer_tied_with_another_takes_part_on_every_orientation() {
        // A real game (Hu Ronghua, ply 36): the black rook g5 takes the cannon g7 and from
        // there, as the rook h2 does, takes the horse g2, a capture it could not really make
        // before. Both rooks win g2 alone and equally well; the moved one takes part, whichever
        // is listed first (square order, which a colour swap reverses): a chase of g2.
        let n = cxa(
            "2cakab2/9/2n1b1C2/p3p3p/6r2/3N1R3/P3P3P/3RB1Nr1/4A4/2BAK4 b",
            "g5g7",
        );
        assert_chase(&n, &["g2"]);
    }

    #[test]
    fn a_screen_stepping_along_its_cannon_s_line_out_of_danger_makes_the_threat_real() {
        // Red K e0, A e1, C a9, R c9; Black K e9, A d9, N f6. The horse comes to e8 and attacks
        // the rook, the cannon's screen against the advisor d9 (图28's concept: the capture
        // Cxd9 left the rook hanging while the exchange ran). Rb9 steps out of danger and
        // stays the screen, guarding d9 against the general: a joint chase. With the horse
        // going elsewhere, the rook's step continues a threat that was real: idle.
        let fen = "C1Rak4/9/9/5n3/9/9/9/9/4A4/4K4 b";
        let n = cxa(fen, "f6e8 c9b9");
        assert_chase(&n, &["d9"]);
        assert_eq!(by(&n, "d9"), ["a9", "b9"]);
        assert_idle(&cxa(fen, "f6g8 c9b9"), None);
    }

    // ---- newness on the attack (AXF) or on the win (CXA): `Profile::newness_ignores_safety` ----

    /// The black rook, attacked by the red rook, steps along the d-file and stays in front of
    /// its cannon d8; from its new square the capture of the rook d2 no longer loses to the
    /// red rook's check on the opened file (with the horse f7 covering e9): before the move the
    /// attack on d2 stood but could not be carried out safely, after it it can. AXF judges
    /// newness on the attack (the attack stood: no chase, AXF diagrams 100-103); CXA on the
    /// win (RULES.md §2.1-§2.2, §2.5: no real threat before, the moved piece makes it: a chase).
    fn attack_made_safe(fen: &str, moves: &str) {
        assert_idle(&axf(fen, moves), None);
        let on_the_win = Profile {
            newness_ignores_safety: false,
            ..Profile::axf()
        };
        let n = every_orientation(fen, moves, &on_the_win);
        assert_chase(&n, &["d2"]);
        assert_chase(&cxa(fen, moves), &["d2"]);
    }

    #[test]
    fn an_escape_that_makes_a_standing_attack_safe_is_new_only_on_the_win() {
        // Red K d1, R d2, R b6 (to b3), N f7; Black K d9, B c9 e7, C d8, P e6 f2, R d3 (to d4).
        attack_made_safe("2bk5/3c5/4bN3/1R2p4/9/9/3r5/3R1p3/3K5/9 w", "b6b3 d3d4");
    }

    #[test]
    fn the_same_escape_without_the_elephant_c9() {
        // As above without the elephant c9 (Red's first move then threatens mate).
        attack_made_safe("3k5/3c5/4bN3/1R2p4/9/9/3r5/3R1p3/3K5/9 w", "b6b3 d3d4");
    }

    #[test]
    fn the_same_escape_from_an_attack_on_the_other_side() {
        // Red's rook attacks d3 from h3 (h6 to h3), the pawn on e5: the escape to d4 again.
        attack_made_safe("2bk5/3c5/4bN3/7R1/4p4/9/3r5/3R1p3/3K5/9 w", "h6h3 d3d4");
    }

    #[test]
    fn the_same_escape_backwards() {
        // The black rook on d4, attacked from b4, steps back to d3, still in front of d8.
        attack_made_safe("2bk5/3c5/4bN3/1R2p4/9/3r5/9/3R1p3/3K5/9 w", "b6b4 d4d3");
    }
}
