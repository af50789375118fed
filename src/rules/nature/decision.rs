//! The nature decision (RULES.md §2): check, then mate threat, then chase, then idle (the
//! heaviest nature wins), with the answer-to-check rule, and the line classifier.

use super::*;
use crate::rules::search::ZobristHasher;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// The nature of every move of `moves` played from `start`, one per move. The line must be legal;
/// classification stops at the first illegal move (use [`try_classify_line`] to get the error).
pub fn classify_line(start: &Position, moves: &[Move], profile: &Profile) -> Vec<MoveNature> {
    match try_classify_line(start, moves, profile) {
        Ok(v) => v,
        Err((v, _)) => v,
    }
}

/// As [`classify_line`], but an illegal move (or an analysis called off, see
/// [`crate::rules::search::cancellable`]) is an error carrying the natures of the moves before it.
#[allow(clippy::type_complexity)]
pub fn try_classify_line(
    start: &Position,
    moves: &[Move],
    profile: &Profile,
) -> Result<Vec<MoveNature>, (Vec<MoveNature>, LineError)> {
    try_classify_line_where(start, moves, profile, |_| true)
}

/// As [`try_classify_line`], but only the moves whose index `judge` accepts are judged: each
/// other move gets an unjudged stand-in (idle, no targets, no nodes) that nothing may read. Every
/// move is still checked for legality. A judged move gets the nature [`try_classify_line`] gives
/// it: a nature is judged on the position before the move and the one before the opponent's
/// last move, never on the natures of other moves (the analyser's tables are caches by position;
/// only the search nodes spent may differ). `xqa screen` judges only the moves its repetition
/// cycles read ([`crate::rules::repetition::plies_ruled_on`]).
#[allow(clippy::type_complexity)]
pub fn try_classify_line_where(
    start: &Position,
    moves: &[Move],
    profile: &Profile,
    judge: impl Fn(usize) -> bool,
) -> Result<Vec<MoveNature>, (Vec<MoveNature>, LineError)> {
    let mut analyzer = Analyzer::new(profile);
    let mut out: Vec<MoveNature> = Vec::with_capacity(moves.len());
    let mut pos = *start;
    let mut prev: Option<Move> = None;
    // The natures already found in this line, by what a nature is judged on: the position
    // before the move, the move, the opponent's move before it and the position before that
    // one (newness, 自毙 and the protector's duties look one move back, never further). A
    // repeated (position, move) in a repetition cycle has the nature it had: without this, a
    // long perpetual cost its full analysis on every ply (issue 21, item 4).
    let mut seen: HashMap<NatureKey, usize, BuildHasherDefault<ZobristHasher>> =
        HashMap::with_capacity_and_hasher(moves.len(), Default::default());
    let mut prev_key = 0u64;
    for (index, &m) in moves.iter().enumerate() {
        // An analysis called off (see `search::cancellable`: a deadline, a client gone) stops
        // here; its caller, who called it off, discards the answer.
        if index % 64 == 63 && super::super::search::cancelled() {
            return Err((out, LineError::CalledOff { index }));
        }
        if !pos.is_legal(m) {
            let err = IllegalMove {
                index,
                mv: m,
                fen: pos.fen(),
            };
            return Err((out, err.into()));
        }
        let key = NatureKey {
            before_prev: prev_key,
            prev,
            before: pos.key(),
            mv: m,
        };
        let nature = match seen.get(&key) {
            _ if !judge(index) => {
                // (As for a reused nature: the next move may read the position before this one.)
                analyzer.standing_before = Some((pos, None));
                MoveNature {
                    mv: m,
                    side: pos.turn(),
                    kind: NatureKind::Idle,
                    idle_kind: None,
                    targets: Vec::new(),
                    pawn_targets: Vec::new(),
                    capture: pos.piece_at(m.to),
                    nodes: 0,
                }
            }
            Some(&i) => {
                let n = out[i].clone();
                // The analyser keeps the position before each move it classifies (the
                // protector's duties read it on the next move): a reused nature sets it too.
                analyzer.standing_before = Some((pos, None));
                n
            }
            None => {
                seen.insert(key, index);
                analyzer.classify(&pos, m, prev)
            }
        };
        out.push(nature);
        prev_key = pos.key();
        pos.play_unchecked(m);
        prev = Some(m);
    }
    Ok(out)
}

/// What the nature of a move in a line is a function of (see [`try_classify_line`]).
#[derive(Clone, Copy, PartialEq, Eq)]
struct NatureKey {
    /// The key of the position before the opponent's last move (0 at the start of the line).
    before_prev: u64,
    prev: Option<Move>,
    before: u64,
    mv: Move,
}

/// One word for the [`ZobristHasher`] (a key per move of the line: SipHash cost more than the
/// lookup saves): the Zobrist keys are already random, the moves are mixed in.
impl Hash for NatureKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mv = |m: Move| u64::from(m.from as u8) << 8 | u64::from(m.to as u8);
        let prev = self.prev.map_or(0xFFFF, mv);
        let moves = (mv(self.mv) << 16 | prev).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        state.write_u64(self.before ^ self.before_prev.rotate_left(29) ^ moves);
    }
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
            pawn_targets: Vec::new(),
            capture: before.piece_at(m.to),
            nodes: 0,
        };
        self.pawn_alone.clear();
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
            // A pawn's threats by itself, for the verdict's mutual forbidden play (互打).
            nature.pawn_targets = std::mem::take(&mut self.pawn_alone);
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

#[cfg(test)]
mod tests {
    //! The nature decision (RULES.md §2: check > mate_threat > chase > idle, the heaviest wins),
    //! each position in all four orientations of the board; and issue 16, item 4: an exchange
    //! offer that at the same time newly threatens another piece is a chase, the offer alone is
    //! idle.
    use crate::rules::nature::testkit::{
        assert_chase, assert_idle, axf, by, cxa, every_orientation,
    };
    use crate::rules::nature::{IdleKind, NatureKind};
    use crate::rules::profile::Profile;

    #[test]
    fn an_analysis_called_off_is_its_own_error_not_an_illegal_move() {
        use crate::rules::nature::{LineError, try_classify_line};
        use crate::{Move, Position};
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let start = Position::start();
        let shuffle = ["b0c2", "b9c7", "c2b0", "c7b9"];
        let line: Vec<Move> = (0..80)
            .map(|i| Move::parse_iccs(shuffle[i % 4]).unwrap())
            .collect();
        let profile = Profile::cxa();
        // Not called off: every move is judged.
        let natures = try_classify_line(&start, &line, &profile).expect("legal line");
        assert_eq!(natures.len(), 80);
        // Called off: the line stops at the next check (every 64 moves) with its own error,
        // keeping the natures found before it.
        let flag = Arc::new(AtomicBool::new(true));
        let got =
            crate::rules::search::cancellable(flag, || try_classify_line(&start, &line, &profile));
        let (before, err) = got.expect_err("called off");
        assert_eq!(err, LineError::CalledOff { index: 63 });
        assert_eq!(before.len(), 63);
        assert!(
            err.to_string().contains("called off before move 64"),
            "{err}"
        );
        // An illegal move is still reported as such.
        let mut bad = line.clone();
        bad[5] = Move::parse_iccs("a0a5").unwrap();
        let (before, err) = try_classify_line(&start, &bad, &profile).expect_err("illegal");
        assert_eq!(before.len(), 5);
        assert!(
            matches!(err, LineError::Illegal(ref e) if e.index == 5),
            "{err:?}"
        );
    }

    #[test]
    fn check_and_mate_threat() {
        // Red K d0, R a8, R a1; Black K e9. §2: Rb1 threatens Rb9 mate (the rook a8 holds rank
        // 8): mate_threat; Ra9 checks: check.
        let fen = "4k4/R8/9/9/9/9/9/9/R8/3K5 w";
        assert_eq!(cxa(fen, "a1b1").kind, NatureKind::MateThreat);
        assert_eq!(cxa(fen, "a8a9").kind, NatureKind::Check);
    }

    #[test]
    fn a_mate_threat_outweighs_a_chase() {
        // Red K d0, R a8, R i0; Black K e9, N c1. §2: Ri1 threatens Ri9 mate and attacks the
        // loose horse c1: the heaviest nature, mate_threat. AXF records what it also chases.
        let fen = "4k4/R8/9/9/9/9/9/9/2n6/3K4R w";
        let n = cxa(fen, "i0i1");
        assert_eq!(n.kind, NatureKind::MateThreat);
        assert!(n.targets.is_empty());
        let n = axf(fen, "i0i1");
        assert_eq!(n.kind, NatureKind::MateThreat);
        assert_eq!(by(&n, "c1"), ["i1"]);
    }

    #[test]
    fn a_check_outweighs_a_chase() {
        // Black K d9, N b3, N f4; Red K e0, A d2 e1, B e2. §2: Nc1+ checks and attacks the loose
        // elephant e2: check. AXF records the chase of e2 by the moved horse.
        let fen = "3k5/9/9/9/9/5n3/1n7/3AB4/4A4/4K4 b";
        let n = cxa(fen, "b3c1");
        assert_eq!(n.kind, NatureKind::Check);
        assert!(n.targets.is_empty());
        let n = axf(fen, "b3c1");
        assert_eq!(n.kind, NatureKind::Check);
        assert_eq!(by(&n, "e2"), ["c1"]);
    }

    #[test]
    fn an_exhausted_budget_is_undetermined_never_guessed() {
        // §2, mate threat depth: a search that runs out is undetermined; a check needs none.
        let p = Profile {
            node_budget: 1,
            ..Profile::cxa()
        };
        let fen = "4k4/R8/9/9/9/9/9/9/R8/3K5 w";
        let n = every_orientation(fen, "a1b1", &p);
        assert_eq!(n.kind, NatureKind::Undetermined);
        assert_eq!(every_orientation(fen, "a8a9", &p).kind, NatureKind::Check);
    }

    #[test]
    fn an_answer_to_a_check_by_the_general_is_idle_whatever_it_threatens() {
        // Red K e0, N f0; Black K d9, N d1, R a0 (check). §2 special cases: the general's step
        // out of check frees the horse onto d1: idle, not chase.
        let n = cxa("3k5/9/9/9/9/9/9/9/3n5/r3KN3 w", "e0e1");
        assert_eq!(n.kind, NatureKind::Idle);
        assert!(n.targets.is_empty());
    }

    // ---- Issue 16, item 4: exchange plus chase ----

    #[test]
    fn an_exchange_offer_that_also_attacks_a_loose_piece_is_a_chase() {
        // Red K f0, R e1, N c4; Black K d9, R c9, N c6, C g6. Ne5 offers the horse exchange
        // (兑) and attacks the unprotected cannon g6: the heaviest nature, a chase of g6.
        let n = cxa("2rk5/9/9/2n3c2/9/2N6/9/9/4R4/5K3 w", "c4e5");
        assert_chase(&n, &["g6"]);
        assert_eq!(by(&n, "g6"), ["e5"]);
    }

    #[test]
    fn the_exchange_offer_alone_is_idle() {
        // As above without the cannon: only the offer, 兑, idle.
        let n = cxa("2rk5/9/9/2n6/9/2N6/9/9/4R4/5K3 w", "c4e5");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn an_exchange_offer_that_attacks_a_protected_piece_of_equal_value_is_idle() {
        // As above with the cannon g6 protected by the rook g9: horse for cannon is even, no
        // threat: only the offer, 兑.
        let n = cxa("2rk2r2/9/9/2n3c2/9/2N6/9/9/4R4/5K3 w", "c4e5");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn an_exchange_offer_continuing_an_old_threat_is_idle() {
        // Red K d0, R a1, N b3; Black K e9, N e8, R c7, N h1. Rc1 offers the rook exchange and
        // still attacks the horse h1 it attacked from a1 (从捉到捉): 兑, idle.
        let n = cxa("4k4/4n4/2r6/9/9/9/1N7/9/R6n1/3K5 w", "a1c1");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn an_exchange_offer_that_uncovers_an_attack_is_a_chase() {
        // Red K f0, R a0, R a2, N b4; Black K e9, N a8, N e8, R c7. Rc2 offers the rook exchange
        // on the c-file and uncovers the rook a0 on the loose horse a8: a chase of a8 by a0.
        let n = cxa("4k4/n3n4/2r6/9/9/1N7/9/R8/9/R4K3 w", "a2c2");
        assert_chase(&n, &["a8"]);
        assert_eq!(by(&n, "a8"), ["a0"]);
    }

    #[test]
    fn a_new_exchange_pair_whose_attack_rests_on_the_partner_is_an_exchange_offer() {
        // Red K e0, B e2, R f6, N d4; Black K e9, A d9 f9, N h6, R h3. Nf5 faces the horse h6
        // (兑), which is now attacked twice (horse, rook) and protected once; but without the
        // horse the rook wins nothing, and the horse h6 can trade itself off: the attack rests
        // on the exchange partner, an exchange offer (参考图50). Where the attack stands
        // without the partner it is a chase (exchange.rs tests, 参考图49).
        let n = cxa("3aka3/9/9/5R1n1/9/3N5/7r1/4B4/9/4K4 w", "d4f5");
        assert_idle(&n, Some(IdleKind::Exchange));
    }

    #[test]
    fn a_mate_that_needs_the_offered_piece_leaves_the_offer_idle() {
        // Red K e0, R a1, N h2, P e8; Black K f9, R f5. Rf1 offers the rook; its mate threat
        // rests on taking the partner (Black may take first): 兑, idle (图29).
        let n = cxa("5k3/4P4/9/9/5r3/9/9/7N1/R8/4K4 w", "a1f1");
        assert_idle(&n, Some(IdleKind::Exchange));
    }
}
