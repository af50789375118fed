//! The nature decision (RULES.md §2): check, then mate threat, then chase, then idle (the
//! heaviest nature wins), with the answer-to-check rule, and the line classifier.

use super::*;

/// The nature of every move of `moves` played from `start`, one per move. The line must be legal;
/// classification stops at the first illegal move (use [`try_classify_line`] to get the error).
pub fn classify_line(start: &Position, moves: &[Move], profile: &Profile) -> Vec<MoveNature> {
    match try_classify_line(start, moves, profile) {
        Ok(v) => v,
        Err((v, _)) => v,
    }
}

/// As [`classify_line`], but an illegal move is an error carrying the natures of the moves before it.
#[allow(clippy::type_complexity)]
pub fn try_classify_line(
    start: &Position,
    moves: &[Move],
    profile: &Profile,
) -> Result<Vec<MoveNature>, (Vec<MoveNature>, IllegalMove)> {
    let mut analyzer = Analyzer::new(profile);
    let mut out = Vec::with_capacity(moves.len());
    let mut pos = *start;
    let mut prev: Option<Move> = None;
    for (index, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            let err = IllegalMove {
                index,
                mv: m,
                fen: pos.fen(),
            };
            return Err((out, err));
        }
        out.push(analyzer.classify(&pos, m, prev));
        pos.play_unchecked(m);
        prev = Some(m);
    }
    Ok(out)
}

impl Analyzer<'_> {
    /// The nature of `m` played in `before`; `prev` is the opponent's move just before.
    pub fn classify(&mut self, before: &Position, m: Move, prev: Option<Move>) -> MoveNature {
        self.budget = Budget::new(self.profile.node_budget);
        // Whether the opponent stands threatening mate is searched on demand (the mate table
        // answers it at once when his last move was classified here): never taken from that
        // move's nature, which may be undetermined (unknown is not "none") or idle for another
        // reason (an answer to a check, a mate only through an exchange), so that the same
        // move in the same position gets the same nature whatever was classified before it.
        let standing = None;
        // The position before the opponent's last move, when that move was classified here.
        let prev_before = match (&self.standing_before, prev) {
            (Some((p, _)), Some(pm)) if p.key_after(pm) == before.key() => Some(*p),
            _ => None,
        };
        // (The key after the move with the mover to move again: the side bit flipped back.)
        let side_bit = before.key() ^ before.null_move().key();
        self.ward_history = Some(([before.key(), before.key_after(m) ^ side_bit], prev_before));
        self.standing_before = Some((*before, standing));
        let nature = self.classify_inner(before, m, prev);
        self.ward_history = None;
        nature
    }

    pub(super) fn classify_inner(
        &mut self,
        before: &Position,
        m: Move,
        prev: Option<Move>,
    ) -> MoveNature {
        let after = before.after(m);
        let mut nature = MoveNature {
            mv: m,
            side: before.turn(),
            kind: NatureKind::Idle,
            idle_kind: None,
            targets: Vec::new(),
            capture: before.piece_at(m.to),
            nodes: 0,
        };
        if after.is_check() {
            nature.kind = NatureKind::Check;
            if self.profile.check_may_chase {
                // Record what the check also chases (AXF counts it towards a perpetual chase).
                // Only threats to win a piece by a capture or an exchange: after a check, a
                // threat to win by a further series of checks is the checking attack itself,
                // which the perpetual-check rule judges (AXF: alternating check and chase is
                // allowed).
                // Targets that cannot be listed within the budget leave the check's nature
                // (what it counts towards) unknown: undetermined, never a check without them.
                match self.chase_targets(before, &after, m, prev) {
                    Ok(t) => {
                        nature.targets = t
                            .into_iter()
                            .filter(|t| t.how != WinHow::Checks && made_by_move(m, t))
                            .collect();
                    }
                    Err(Exhausted) => nature.kind = NatureKind::Undetermined,
                }
            }
            nature.nodes = self.budget.nodes;
            return nature;
        }
        let moved = before.piece_at(m.from).expect("moving piece");
        let answered_check = before.is_check()
            && (self.profile.answer_to_check_any_piece || moved.role == Role::King);
        if !answered_check {
            match self.attacking_nature(before, &after, m, prev) {
                Ok(Some((kind, targets))) => {
                    nature.kind = kind;
                    nature.targets = targets;
                }
                Ok(None) => {}
                Err(Exhausted) => nature.kind = NatureKind::Undetermined,
            }
        }
        if nature.kind == NatureKind::Idle {
            match self.idle_kind(before, m, &after, prev) {
                Ok(k) => nature.idle_kind = k,
                Err(Exhausted) => nature.kind = NatureKind::Undetermined,
            }
        }
        nature.nodes = self.budget.nodes;
        nature
    }

    /// Mate threat or chase, if the move is one.
    #[allow(clippy::type_complexity)]
    pub(super) fn attacking_nature(
        &mut self,
        before: &Position,
        after: &Position,
        m: Move,
        prev: Option<Move>,
    ) -> Result<Option<(NatureKind, Vec<ChaseTarget>)>, Exhausted> {
        let q1 = after.null_move();
        if search::mate_by_checks_with(
            &q1,
            self.profile.mate_ply_cap,
            &mut self.budget,
            &mut self.mates,
        )? && self.mate_not_only_through_exchange(&q1)?
        {
            let old = self.profile.mate_threat_needs_newness
                && search::mate_by_checks_with(
                    before,
                    self.profile.mate_ply_cap,
                    &mut self.budget,
                    &mut self.mates,
                )?;
            if !old {
                // AXF: record what the mate threat also chases (it counts towards a perpetual
                // chase); targets that cannot be listed within the budget leave the nature
                // undetermined.
                let targets = if self.profile.mate_threat_may_chase {
                    let mut t = self.chase_targets(before, after, m, prev)?;
                    t.retain(|t| made_by_move(m, t));
                    t
                } else {
                    Vec::new()
                };
                return Ok(Some((NatureKind::MateThreat, targets)));
            }
        }
        let targets = self.chase_targets(before, after, m, prev)?;
        if targets.is_empty() {
            Ok(None)
        } else {
            Ok(Some((NatureKind::Chase, targets)))
        }
    }
}
