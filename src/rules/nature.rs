//! The nature of a move (着法性质, RULES.md §2): `check` 将, `mate_threat` 杀, `chase` 捉 or
//! `idle` 闲 (with the idle kinds exchange offer 兑, offer 献, block 拦, follow 跟), judged on the
//! position after the move.
//!
//! How a chase is found, for the mover C:
//! 1. The *threats* of a position with C to move are the enemy pieces of material value that C
//!    could win next move: by a capture whose whole exchange on that square nets material (legal
//!    captures only, so pinned attackers and pinned or face-the-general protectors fall out by
//!    themselves; a recapture after which C mates by checks is a false root), or by a series of
//!    checks ending in such a capture (抽将; also read per defence: a check after which every
//!    defence loses a piece or is mated threatens the pieces lost). A capture after which C is mated, or which costs more
//!    elsewhere than it wins (the capturer was the only protector of something, or shielded it),
//!    is no threat.
//! 2. The move is a chase when the position after it, C to move again (the opponent "passes"),
//!    has a threat that the position before the move did not have (newness: 从捉到捉 is idle; a
//!    discovered attack or a cut root is new; a threat the opponent walked into is old; an old
//!    threat that the moved piece makes real, or frees of a root by checks, is new:
//!    `Analyzer::strengthens_threat`).
//! 3. A threat carried out by the general or a pawn alone is idle (CXA); a threat needing two or
//!    more of C's pieces (take one away and it is gone) is a joint chase (联合捉).
//! 4. A move answering a check is idle unless it checks (the threat appeared because the check
//!    was answered).

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::profile::Profile;
use crate::rules::search::{self, Budget, Exhausted, MateTable};
use crate::types::{Color, Move, MoveList, Piece, Role, Square};

/// The nature of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NatureKind {
    /// 将: the move gives check (facing generals count).
    Check,
    /// 杀: if the opponent passed, the mover could mate by checks.
    MateThreat,
    /// 捉: a new threat to win an enemy piece of material value.
    Chase,
    /// 闲: everything else.
    Idle,
    /// The forcing search ran out of budget: the nature is not guessed.
    Undetermined,
}

impl NatureKind {
    /// JSON / English name.
    pub fn name(self) -> &'static str {
        match self {
            NatureKind::Check => "check",
            NatureKind::MateThreat => "mate_threat",
            NatureKind::Chase => "chase",
            NatureKind::Idle => "idle",
            NatureKind::Undetermined => "undetermined",
        }
    }

    /// The rulebook's one-character name.
    pub fn name_zh(self) -> &'static str {
        match self {
            NatureKind::Check => "将",
            NatureKind::MateThreat => "杀",
            NatureKind::Chase => "捉",
            NatureKind::Idle => "闲",
            NatureKind::Undetermined => "未定",
        }
    }
}

/// The idle kinds the rulebook names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdleKind {
    /// 兑: the moved piece offers an even exchange (an enemy piece of equal value can take it and
    /// is taken back).
    Exchange,
    /// 献: the moved piece is put where the opponent can win it.
    Offer,
    /// 拦: the moved piece blocks an enemy piece's line (or leg, or eye).
    Block,
    /// 跟: the moved piece follows the enemy piece that just moved, keeping the same relation.
    Follow,
}

impl IdleKind {
    pub fn name(self) -> &'static str {
        match self {
            IdleKind::Exchange => "exchange",
            IdleKind::Offer => "offer",
            IdleKind::Block => "block",
            IdleKind::Follow => "follow",
        }
    }

    pub fn name_zh(self) -> &'static str {
        match self {
            IdleKind::Exchange => "兑",
            IdleKind::Offer => "献",
            IdleKind::Block => "拦",
            IdleKind::Follow => "跟",
        }
    }
}

/// How a chased piece would be won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinHow {
    /// A capture that cannot be answered (no real protector: unprotected or false root).
    Capture,
    /// A complete exchange on the square that nets material (under-protected piece, or a rook
    /// attacked by a horse or cannon).
    Exchange,
    /// A forcing series of checks ending in the capture (抽将).
    Checks,
}

impl WinHow {
    pub fn name(self) -> &'static str {
        match self {
            WinHow::Capture => "capture",
            WinHow::Exchange => "exchange",
            WinHow::Checks => "checks",
        }
    }
}

/// One chased piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChaseTarget {
    /// Where the chased piece stands.
    pub square: Square,
    /// The chased piece.
    pub piece: Piece,
    /// Two or more of the chaser's pieces are needed together (联合捉).
    pub joint: bool,
    /// How the piece would be won.
    pub how: WinHow,
    /// The chaser's pieces taking part (the capturer first).
    pub by: Vec<Square>,
}

/// The nature of one move, judged on the position after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveNature {
    /// The move.
    pub mv: Move,
    /// The side that played it.
    pub side: Color,
    /// The nature.
    pub kind: NatureKind,
    /// For an idle move, the idle kind where one applies.
    pub idle_kind: Option<IdleKind>,
    /// For a chase, the chased pieces (new threats).
    pub targets: Vec<ChaseTarget>,
    /// The piece the move captured.
    pub capture: Option<Piece>,
    /// Search nodes spent on this move.
    pub nodes: u64,
}

impl MoveNature {
    /// Whether the nature is check, mate threat or chase (the forbidden class, 长打 when every
    /// move of a cycle is one).
    pub fn is_attacking(&self) -> bool {
        matches!(
            self.kind,
            NatureKind::Check | NatureKind::MateThreat | NatureKind::Chase
        )
    }

    /// Whether some chase target needs two or more pieces.
    pub fn has_joint_chase(&self) -> bool {
        self.targets.iter().any(|t| t.joint)
    }
}

/// A move of a line that is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// Index of the move in the line (0-based).
    pub index: usize,
    pub mv: Move,
    pub fen: String,
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "move {} ({}) is not legal in {}",
            self.index + 1,
            self.mv,
            self.fen
        )
    }
}

impl std::error::Error for IllegalMove {}

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

/// Material balance: pieces and pawns apart, because a crossed pawn "floats" (RULES.md §1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mat {
    pub pieces: i32,
    pub pawns: i32,
}

impl std::ops::Add for Mat {
    type Output = Mat;
    fn add(self, o: Mat) -> Mat {
        Mat {
            pieces: self.pieces + o.pieces,
            pawns: self.pawns + o.pawns,
        }
    }
}

impl std::ops::Sub for Mat {
    type Output = Mat;
    fn sub(self, o: Mat) -> Mat {
        Mat {
            pieces: self.pieces - o.pieces,
            pawns: self.pawns - o.pawns,
        }
    }
}

impl Mat {
    /// A real gain: no side of the balance is negative and something is won. One pawn for a
    /// piece, or a piece for pawns, is not a gain.
    pub fn is_gain(self) -> bool {
        self.pieces >= 0 && self.pawns >= 0 && (self.pieces > 0 || self.pawns > 0)
    }
}

/// A threat found in a position, for the side to move.
#[derive(Clone, Debug)]
struct Threat {
    square: Square,
    piece: Piece,
    how: WinHow,
    /// The chaser's pieces capturing on the square in the principal line (the capturer first).
    line: ArrayVec<Square, 8>,
    /// The first capture (or the first check of a series).
    first: Move,
    /// Sound counting only what the capture newly gives the opponent (the threat as such).
    rel: bool,
    /// Sound counting everything the opponent could take after it (the capture can really be
    /// made now).
    abs: bool,
    /// Every piece that can start a winning capture (or check series) by itself.
    capturers: Bitboard,
    /// For a two-step win ([`Analyzer::two_step_threats`]): the chaser's pieces that win the
    /// second piece after the recapture (empty for any other threat).
    follow: Bitboard,
    /// For a win by a check whatever the defence ([`Analyzer::per_defence_threats`]): the
    /// squares of all the pieces that check threatens together (empty for any other threat).
    group: Bitboard,
    /// For a direct threat: every capture that can really be made now (sound counting
    /// everything) is answered by a win-back by checks worth less than the gain (a root by
    /// checks that does not refute the capture, [`Analyzer::counter_seen`]). `false` for the
    /// other kinds of threat ([`Analyzer::threat_level`]).
    rooted: bool,
    /// For a direct capture: the other first captures (with their principal lines) that score
    /// exactly as well as `first` ([`Analyzer::participants`] judges them all).
    ties: ArrayVec<(Move, ArrayVec<Square, 8>), 4>,
}

/// The move-nature analyser: a profile and the node budget of the current move.
pub struct Analyzer<'p> {
    profile: &'p Profile,
    budget: Budget,
    mates: MateTable,
    /// Baselines of the position whose threats are being listed (the opponent to move):
    /// (position key, best capture, targets won by checks), computed on first use.
    base_capture: Option<(u64, i32)>,
    base_checks: Option<(u64, Vec<Square>)>,
    /// Set while listing the threats before the move when the profile judges newness on the
    /// attack alone (`newness_ignores_safety`): a capture is not refused for the mate after it.
    ignore_safety: bool,
    /// For the two-step reading: the position (key) whose squares are being tested, the
    /// squares tested and those where the side to move wins by a direct exchange.
    won_cache: (u64, Bitboard, Bitboard),
    /// The wins after each defence of each check that takes nothing ([`Analyzer::reply_wins`])
    /// in the position (key; 0 when none) whose threats are being listed: the wins by checks
    /// ([`Analyzer::check_wins`]) and the wins per defence read the same defences.
    reply_log: ReplyLog,
    /// The mate depth of the safety test for captures in a position (key, depth).
    safety: Option<(u64, u32)>,
    /// The position before the move being classified, and (once known) whether the opponent
    /// then stood threatening mate ([`Self::safety_cap`]).
    standing_before: Option<(Position, Option<bool>)>,
    /// The key of the position after the last move classified, and its nature.
    last_after: Option<(u64, NatureKind)>,
    /// Set by [`Self::capture_is_sound`]: the capture it last judged can be answered by a
    /// win-back by checks worth less than what the capture wins (a root by checks that does
    /// not refute it; counted whether or not the opponent could win that piece by checks
    /// before the capture, but not when he could take it anyway by a direct capture: the
    /// check then only comes first). Read at once by the caller ([`Threat::rooted`]).
    counter_seen: bool,
    /// For [`Profile::duty_needs_fresh_attack`]: while a move is classified, the keys of the
    /// positions whose threats are listed before and after it (the mover to move in both), and
    /// the position before the opponent's last move (when this analyser classified that move).
    ward_history: Option<([u64; 2], Option<Position>)>,
}

type Captures = ArrayVec<Move, 16>;

/// See [`Analyzer::reply_log`]: (position after the check, defence, targets looked for, check
/// depth, wins) per defence read.
type ReplyLog = (u64, Vec<(u64, Move, Bitboard, u32, Wins)>);

/// What one line of a win by checks wins: (target where it stands at the start, capturer, net
/// balance of the line) per target ([`Analyzer::check_wins`]).
type Wins = Vec<(Square, Square, Mat)>;

/// When [`Analyzer::capture_balance_in`] tests recaptures for a refuting mate (a false root).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Refute {
    Never,
    Always,
    /// Only when the balance without the test is no gain although the target is protected.
    WhenNoGain,
}

/// Captures searched after the first capture of a two-step win ([`Analyzer::two_step_value`]):
/// the opponent's answer, the chaser's capture, the opponent's answer to that; then the side to
/// move's best static exchange.
const TWO_STEP_PLIES: u32 = 3;

/// A bound above every balance (scalar) of the capture-only search.
const QS_INF: i32 = 1_000_000;

/// What the capture-only search of a two-step win needs to know besides the position.
struct QsCtx<'a> {
    /// The side that makes the first capture.
    chaser: Color,
    /// The position before the first capture: the chaser's captures of enemy pieces it could
    /// already win there (where they still stand) are not credited
    /// ([`Analyzer::already_won`]).
    origin: &'a Position,
}

impl<'p> Analyzer<'p> {
    pub fn new(profile: &'p Profile) -> Analyzer<'p> {
        Analyzer {
            profile,
            budget: Budget::new(profile.node_budget),
            mates: MateTable::default(),
            base_capture: None,
            base_checks: None,
            ignore_safety: false,
            won_cache: (0, Bitboard::EMPTY, Bitboard::EMPTY),
            reply_log: (0, Vec::new()),
            safety: None,
            standing_before: None,
            last_after: None,
            counter_seen: false,
            ward_history: None,
        }
    }

    fn mat(&self, piece: Piece) -> Mat {
        let v = &self.profile.values;
        let pieces = match piece.role {
            // A pawn floats: counted apart from the pieces (RULES.md §1).
            Role::Pawn => {
                return Mat {
                    pieces: 0,
                    pawns: 1,
                };
            }
            Role::Rook => v.rook,
            Role::Horse => v.horse,
            Role::Cannon => v.cannon,
            Role::Advisor => v.advisor,
            Role::Elephant => v.elephant,
            Role::King => 10_000,
        };
        Mat { pieces, pawns: 0 }
    }

    fn scalar(&self, m: Mat) -> i32 {
        m.pieces + m.pawns * self.profile.values.pawn
    }

    /// Whether the piece on `sq` is material a chase can aim at (RULES.md §1).
    fn is_material(&self, piece: Piece, sq: Square) -> bool {
        match piece.role {
            Role::King => false,
            Role::Pawn => !sq.on_own_side(piece.color),
            _ => true,
        }
    }

    /// Pieces of `by` that could move onto `s` by their own movement (ignoring pins).
    fn pseudo_capturers(pos: &Position, s: Square, by: Color) -> Bitboard {
        let occ = pos.occupied();
        let mine = pos.by_color(by);
        let (rooks, cannons) = (pos.pieces(by, Role::Rook), pos.pieces(by, Role::Cannon));
        let mut out = attacks::slider_attackers(s, occ, rooks, cannons);
        out |= attacks::horse_attacker_squares(s, occ) & pos.by_role(Role::Horse);
        out |= attacks::pawn_attackers(by, s) & pos.by_role(Role::Pawn);
        if Bitboard::palace(by).contains(s) {
            out |= attacks::king_attacks(s) & pos.by_role(Role::King);
            out |= attacks::advisor_attacks(s) & pos.by_role(Role::Advisor);
        }
        if s.on_own_side(by) {
            out |= attacks::elephant_attacks(s, occ) & pos.by_role(Role::Elephant);
        }
        out & mine
    }

    /// Legal captures onto `s` by the side to move.
    fn captures_to(pos: &Position, s: Square) -> Captures {
        let us = pos.turn();
        let mut out = Captures::new();
        if pos.piece_at(s).is_none_or(|p| p.color == us) {
            return out;
        }
        let king = pos.king(us);
        for from in Self::pseudo_capturers(pos, s, us) {
            let m = Move::new(from, s);
            if !pos.leaves_king_attacked(m, king) && !out.is_full() {
                out.push(m);
            }
        }
        out
    }

    /// Static exchange on `s`: the side to move may capture there (or stop). Returns its best
    /// balance (never below zero: it may stand pat) and the principal line of capturing squares.
    fn see(&mut self, pos: &Position, s: Square, depth: u32) -> (Mat, ArrayVec<Square, 8>) {
        let mut scratch = *pos;
        self.see_in(&mut scratch, s, depth)
    }

    /// The balance for the side to move of the capture `m` (onto `s`) followed by the best
    /// exchange, and the chaser's capturing squares in the principal line. With `refute`, a
    /// recapture after which the capturer mates by checks is no recapture (false root).
    fn capture_balance(
        &mut self,
        pos: &Position,
        m: Move,
        refute: bool,
    ) -> Result<(Mat, ArrayVec<Square, 8>, bool), Exhausted> {
        let mode = if refute {
            Refute::Always
        } else {
            Refute::Never
        };
        self.capture_balance_in(pos, m, mode)
    }

    /// [`Self::capture_balance`] with the refutation test as `mode` says: with
    /// [`Refute::WhenNoGain`], the balance without it, unless that is no gain although the
    /// target can be taken back, in which case the balance with it (the recaptures are listed
    /// and valued once for both).
    fn capture_balance_in(
        &mut self,
        pos: &Position,
        m: Move,
        mode: Refute,
    ) -> Result<(Mat, ArrayVec<Square, 8>, bool), Exhausted> {
        let s = m.to;
        let target = pos.piece_at(s).expect("capture");
        let mover = pos.piece_at(m.from).expect("capturer");
        let mut r = pos.after(m);
        // Each recapture's exchange value first (played and taken back on `r`: cheaper than
        // copies); then, best first (among equal values, the first generated), the mate test
        // of the refutation, which is the costly part: the first recapture that is not refuted
        // is the best one, and the ones after it need no test.
        let mut recaptures: ArrayVec<(i32, usize, Move, Mat, ArrayVec<Square, 8>), 16> =
            ArrayVec::new();
        for (i, rm) in Self::captures_to(&r, s).into_iter().enumerate() {
            let undo = r.play_unchecked(rm);
            let (ours, sub) = self.see_in(&mut r, s, 2);
            r.undo(rm, undo);
            let v = self.mat(mover) - ours;
            recaptures.push((-self.scalar(v), i, rm, v, sub));
        }
        recaptures.sort_unstable_by_key(|e| (e.0, e.1));
        // The balance when the recapture `best` (an index in `recaptures`) is the one made.
        let result = |this: &Self, best: Option<usize>| {
            let mut line: ArrayVec<Square, 8> = ArrayVec::new();
            line.push(m.from);
            let mut best_reply = Mat::default();
            if let Some(e) = best.map(|i| &recaptures[i])
                && this.scalar(e.3) > 0
            {
                best_reply = e.3;
                // The chaser's further capturers: every other square of the sub-line starting
                // with ours.
                for (i, sq) in e.4.iter().enumerate() {
                    if i % 2 == 0 && !line.is_full() {
                        line.push(*sq);
                    }
                }
            }
            (this.mat(target) - best_reply, line, best.is_some())
        };
        let plain = (!recaptures.is_empty()).then_some(0);
        match mode {
            Refute::Never => return Ok(result(self, plain)),
            Refute::WhenNoGain => {
                let out = result(self, plain);
                if out.0.is_gain() || !out.2 {
                    return Ok(out);
                }
            }
            Refute::Always => {}
        }
        let mut best = None;
        for (i, e) in recaptures.iter().enumerate() {
            let undo = r.play_unchecked(e.2);
            let refuted = search::mate_by_checks_with(
                &r,
                self.profile.refutation_mate_cap,
                &mut self.budget,
                &mut self.mates,
            );
            r.undo(e.2, undo);
            if !refuted? {
                best = Some(i);
                break;
            }
        }
        Ok(result(self, best))
    }

    /// The enemy pieces the side to move could win next move.
    fn threats(&mut self, q: &Position) -> Result<Vec<Threat>, Exhausted> {
        self.threats_within(q, Bitboard::FULL)
    }

    /// [`Self::threats`] against the enemy pieces standing on `within` only: exactly the
    /// threats of the full list on those squares (each piece's threat is judged on its own).
    fn threats_within(&mut self, q: &Position, within: Bitboard) -> Result<Vec<Threat>, Exhausted> {
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
                let (mut v, mut line, rec) = self.capture_balance_in(q, m, Refute::WhenNoGain)?;
                if rec && !self.profile.under_protection_chases {
                    // AXF: a really protected piece is won only if the first capture gains
                    // (the capturer, recaptured, is worth less than the target).
                    let capturer = q.piece_at(m.from).expect("capturer");
                    v = self.mat(piece) - self.mat(capturer);
                    line.truncate(1);
                }
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
                    let _ = f.ties.try_push((m, line));
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
            for (s, m, capturer, _) in self.check_wins(
                q,
                self.profile.chase_check_cap,
                Mat::default(),
                within - direct,
            )? {
                winning_checks.push(m);
                if out.iter().any(|t| t.square == s) {
                    continue;
                }
                let Some(piece) = q.piece_at(s).filter(|p| p.color != us) else {
                    continue;
                };
                if self.mutual(q, capturer, s) || self.opens_with_exchange(q, m)? {
                    continue;
                }
                if !self.check_win_is_safe(q, m, s)? {
                    continue;
                }
                let mut line = ArrayVec::new();
                line.push(capturer);
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

    /// Two-step wins (RULES.md §2.1 and §2.3, [`Profile::two_step_wins`]): an enemy piece X that
    /// no direct exchange or series of checks wins is still won when the side to move can take
    /// it and, whatever capture the opponent answers with (a recapture, or a capture elsewhere),
    /// come out ahead after one more capture of its own, judged by the exchange on that square.
    /// The recapture is then no real protection: it removes the protector of another piece (an
    /// overloaded protector; trading off a root, 兑掉根子), or the capture of X attacked another
    /// piece with gain of tempo. A reply that captures nothing leaves X won outright. Only the
    /// captures the first one makes possible count as the second step: a piece that could
    /// already be won before it is a threat of its own, not a consequence of taking X. The
    /// first capture must be sound as a direct one is (not mated after it, not paid for
    /// elsewhere: [`Self::capture_is_sound`]), and an equal piece attacking back (兑) is an
    /// exchange offer, not a chase. Bounded: three plies (capture, capturing reply, capture) with
    /// static exchanges at the leaves, tried only on pieces with no other threat. The book
    /// rules a horse taking an elephant whose recapture uncovers the other horse on a rook a
    /// chase (参考图1), a cannon taking an advisor whose only protector also guards the cannon
    /// a rook attacks a chase (参考图13), and a cannon trading itself for the horse that alone
    /// protects a crossed pawn a chase (图4).
    fn two_step_threats(
        &mut self,
        q: &Position,
        open: &[(Square, Captures)],
        out: &mut Vec<Threat>,
    ) -> Result<(), Exhausted> {
        // `open`: the material pieces that no capture wins by itself, each with the captures
        // of it that are not an exchange offer ([`Self::threats`]).
        for (s, caps) in open {
            let s = *s;
            let piece = q.piece_at(s).expect("piece");
            if out.iter().any(|t| t.square == s) {
                continue;
            }
            // Every capture winning the piece in two steps, the best kept; ties are kept
            // together, so that the description does not depend on where the pieces stand.
            let mut best: Option<(i32, Move, bool, bool, Mat)> = None;
            let mut firsts = Bitboard::EMPTY;
            let mut follows = Bitboard::EMPTY;
            let mut capturers = Bitboard::EMPTY;
            for &m in caps {
                if !self.two_step_possible(q, m) {
                    continue;
                }
                let Some((v, follow)) = self.two_step_value(q, m)? else {
                    continue;
                };
                if self.already_won(q, s) {
                    break; // won on its own square: not a two-step win
                }
                let (rel, abs) = self.capture_is_sound(q, m, v, true)?;
                if !rel && !abs {
                    continue;
                }
                capturers |= Bitboard::from_square(m.from);
                let sc = self.scalar(v) * 2 + i32::from(rel);
                match best {
                    Some((b, ..)) if b > sc => continue,
                    Some((b, ..)) if b == sc => {}
                    _ => {
                        best = Some((sc, m, rel, abs, v));
                        firsts = Bitboard::EMPTY;
                        follows = Bitboard::EMPTY;
                    }
                }
                firsts |= Bitboard::from_square(m.from);
                follows |= follow;
            }
            let Some((_, first, rel, abs, _)) = best else {
                continue;
            };
            let mut line = ArrayVec::new();
            line.push(first.from);
            for sq in (firsts | follows).without(first.from) {
                let _ = line.try_push(sq);
            }
            out.push(Threat {
                square: s,
                piece,
                how: WinHow::Exchange,
                line,
                first,
                rel,
                abs,
                capturers,
                follow: follows,
                group: Bitboard::EMPTY,
                rooted: false,
                ties: ArrayVec::new(),
            });
        }
        Ok(())
    }

    /// A cheap necessary condition of a two-step win by the capture `m` in `q`: the enemy has
    /// a piece (other than the one taken) worth more than the first capture loses if the
    /// capturer is taken back.
    fn two_step_possible(&self, q: &Position, m: Move) -> bool {
        let us = q.turn();
        let x = q.piece_at(m.to).map(|p| self.mat(p)).unwrap_or_default();
        let lost = self.mat(q.piece_at(m.from).expect("capturer"));
        let deficit = -self.scalar(x - lost);
        let mut top = 0;
        for sq in q.by_color(!us).without(m.to) {
            if let Some(p) = q.piece_at(sq).filter(|p| p.role != Role::King) {
                top = top.max(self.scalar(self.mat(p)));
            }
        }
        top > deficit
    }

    /// The balance of the capture `m` in `q` for the side to move, against the opponent's best
    /// answer in a capture-only search of [`TWO_STEP_PLIES`] more captures (each side may stop
    /// capturing; at the end the side to move takes its best static exchange, [`Self::see`]),
    /// in which the chaser's captures of pieces it could already win in `q` do not count ([`Self::two_step_threats`]); moreover, after every recapture, the chaser's best
    /// static exchange alone must make the whole a gain. `Some((balance, the chaser's pieces
    /// that win the second piece after the opponent's best recapture))` when it is a gain,
    /// `None` otherwise. A capture with check is left to the win by checks (抽将), which reads
    /// the series and names the piece it finally wins.
    fn two_step_value(
        &mut self,
        q: &Position,
        m: Move,
    ) -> Result<Option<(Mat, Bitboard)>, Exhausted> {
        let us = q.turn();
        let x = q.piece_at(m.to).map(|p| self.mat(p)).unwrap_or_default();
        let r1 = q.after(m);
        if r1.is_check() {
            return Ok(None);
        }
        let recaptures = Self::captures_to(&r1, m.to);
        if recaptures.is_empty() {
            return Ok(None);
        }
        let ctx = QsCtx {
            chaser: us,
            origin: q,
        };
        // After every recapture, the chaser's best static exchange must make up for the
        // capturer (the second step itself: cheap, and it refutes almost every candidate)...
        let lost = self.mat(q.piece_at(m.from).expect("capturer"));
        let mut follow: Option<(i32, Bitboard)> = None;
        for rm in recaptures {
            let r2 = r1.after(rm);
            // (No piece worth enough to win: no exchange needs reading.)
            if self.scalar(x - lost) + self.top_victim(&r2) <= 0 {
                return Ok(None);
            }
            let (back, by) = self.best_follow(&r2, &ctx);
            let total = x - lost + back;
            if !total.is_gain() {
                return Ok(None);
            }
            let sc = self.scalar(total);
            match follow {
                Some((f, _)) if f < sc => {}
                Some((f, ref mut b)) if f == sc => *b |= by,
                _ => follow = Some((sc, by)),
            }
        }
        // ... and the capture-only search must hold against every answer.
        let (theirs, _) = self.qs(&r1, TWO_STEP_PLIES, -QS_INF, QS_INF, &ctx)?;
        let total = x - theirs;
        if !total.is_gain() {
            return Ok(None);
        }
        Ok(follow.map(|(_, f)| (total, f)))
    }

    /// The side to move's best static exchange in `pos` among the captures the two-step search
    /// counts, and every piece of its that starts one as good.
    fn best_follow(&mut self, pos: &Position, ctx: &QsCtx) -> (Mat, Bitboard) {
        let turn = pos.turn();
        let mut best = Mat::default();
        let mut by = Bitboard::EMPTY;
        for s in pos.by_color(!turn) & pos.attacked_by(turn) {
            let Some(p) = pos.piece_at(s) else { continue };
            if p.role == Role::King {
                continue;
            }
            let (v, _) = self.see(pos, s, 0);
            let (sc, bsc) = (self.scalar(v), self.scalar(best));
            if sc < bsc || sc <= 0 || self.not_credited(pos, s, p, ctx) {
                continue;
            }
            if sc > bsc {
                best = v;
                by = Bitboard::EMPTY;
            }
            if sc >= bsc && sc > 0 {
                // Every capturer that starts an exchange as good (not only the first found).
                let victim = self.mat(p);
                for c in Self::captures_to(pos, s) {
                    let (back, _) = self.see(&pos.after(c), s, 1);
                    if self.scalar(victim - back) == sc {
                        by |= Bitboard::from_square(c.from);
                    }
                }
            }
        }
        (best, by)
    }

    /// Whether the side to move of `q` wins the enemy piece on `s` by a direct exchange (any
    /// favourable balance: a pawn for a rook too), remembered per position.
    fn already_won(&mut self, q: &Position, s: Square) -> bool {
        if self.won_cache.0 != q.key() {
            self.won_cache = (q.key(), Bitboard::EMPTY, Bitboard::EMPTY);
        }
        if !self.won_cache.1.contains(s) {
            let v = self.see(q, s, 0).0;
            self.won_cache.1 |= Bitboard::from_square(s);
            if self.scalar(v) > 0 {
                self.won_cache.2 |= Bitboard::from_square(s);
            }
        }
        self.won_cache.2.contains(s)
    }

    /// Whether a capture of the piece `p` on `s` in `pos` is not credited to the chaser in a
    /// two-step win: it is the chaser's, and the same piece stood there before the first
    /// capture, already won by a direct exchange (a threat of its own, not a consequence).
    fn not_credited(&mut self, pos: &Position, s: Square, p: Piece, ctx: &QsCtx) -> bool {
        pos.turn() == ctx.chaser
            && ctx.origin.piece_at(s) == Some(p)
            && self.already_won(ctx.origin, s)
    }

    /// The most valuable (scalar) enemy piece other than the general that the side to move of
    /// `pos` attacks: a bound on what one more capture can win.
    fn top_victim(&self, pos: &Position) -> i32 {
        let turn = pos.turn();
        let mut top = 0;
        for s in pos.by_color(!turn) & pos.attacked_by(turn) {
            let Some(p) = pos.piece_at(s) else { continue };
            if p.role != Role::King {
                top = top.max(self.scalar(self.mat(p)));
            }
        }
        top
    }

    /// Capture-only search for [`Self::two_step_value`]: the best balance for the side to move
    /// of `pos` (never below zero: it may stop capturing) within `plies` captures, with an
    /// alpha-beta window on the scalar value, and the first capture of the best line. At the
    /// horizon, the side to move's best static exchange.
    fn qs(
        &mut self,
        pos: &Position,
        plies: u32,
        mut alpha: i32,
        beta: i32,
        ctx: &QsCtx,
    ) -> Result<(Mat, Option<Move>), Exhausted> {
        self.budget.tick()?;
        let turn = pos.turn();
        let mut squares: ArrayVec<(i32, Square), 16> = ArrayVec::new();
        for s in pos.by_color(!turn) & pos.attacked_by(turn) {
            let Some(p) = pos.piece_at(s) else { continue };
            if p.role == Role::King || self.not_credited(pos, s, p, ctx) {
                continue;
            }
            let _ = squares.try_push((self.scalar(self.mat(p)), s));
        }
        let mut best = Mat::default();
        let mut best_move = None;
        if plies == 0 {
            for (_, s) in squares {
                let (v, line) = self.see(pos, s, 0);
                if self.scalar(v) > self.scalar(best) {
                    best = v;
                    best_move = line.first().map(|&f| Move::new(f, s));
                }
            }
            return Ok((best, best_move));
        }
        if 0 >= beta {
            return Ok((best, None));
        }
        alpha = alpha.max(0);
        // Most valuable victims first.
        squares.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        for (gain, s) in squares {
            let victim = pos.piece_at(s).map(|p| self.mat(p)).unwrap_or_default();
            for c in Self::captures_to(pos, s) {
                let (child, _) =
                    self.qs(&pos.after(c), plies - 1, gain - beta, gain - alpha, ctx)?;
                let v = victim - child;
                let sc = self.scalar(v);
                if sc > self.scalar(best) {
                    best = v;
                    best_move = Some(c);
                    if sc >= beta {
                        return Ok((best, best_move));
                    }
                    alpha = alpha.max(sc);
                }
            }
        }
        Ok((best, best_move))
    }

    /// Whether the enemy piece on `target` can legally take the chaser's piece on `attacker` and
    /// is worth the same: a mutual attack of equals is an exchange offer (兑), not a chase.
    fn mutual(&self, q: &Position, attacker: Square, target: Square) -> bool {
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
    fn exchange_partners(&mut self, q: &Position, x: Square, y: Square) -> Result<bool, Exhausted> {
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
    fn stands_in_exchange(
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
    fn opens_with_exchange(&mut self, q: &Position, m: Move) -> Result<bool, Exhausted> {
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
    fn mate_not_only_through_exchange(&mut self, q: &Position) -> Result<bool, Exhausted> {
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
    fn capture_is_sound(
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
            let base_pos = q.null_move();
            let base = match self.base_capture {
                Some((k, v)) if k == base_pos.key() => v,
                _ => {
                    let v = self.best_capture(&base_pos, None);
                    self.base_capture = Some((base_pos.key(), v));
                    v
                }
            };
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
    fn duty_cost_within_gain(gain: i32, cost: i32) -> bool {
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
    /// really be made at once (it stays unsound, so that the ward stepping away later makes no
    /// new chase unless the moved piece takes part). Where the history is unknown (the first
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
    fn standing_wards_excused(
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
    fn safety_cap(&mut self, q: &Position) -> Result<u32, Exhausted> {
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
        let gate = match gate {
            Some(g) => g,
            None => {
                let before = self.standing_before.expect("set").0;
                let g = search::mate_by_checks_with(
                    &before.null_move(),
                    self.profile.mate_ply_cap,
                    &mut self.budget,
                    &mut self.mates,
                )?;
                self.standing_before = Some((before, Some(g)));
                g
            }
        };
        if !gate {
            return Ok(shallow);
        }
        if let Some((k, cap)) = self.safety
            && k == q.key()
        {
            return Ok(cap);
        }
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
        Ok(cap)
    }

    /// Safety (RULES.md §2.5) of a win by checks: after the check `m` and any reply, the
    /// capture of the target on `s` must leave the capturer's side unmated. A win by checks
    /// whose final capture walks into mate is no threat, exactly as a direct capture that does
    /// (图8: with the black general on f8, the cannon's check on e2 followed by the rook taking
    /// a6 loses to Red's checks, so the general's step back to f9 is what creates the threat on
    /// a6). Checked on the threats found, not inside the check search, to keep that search
    /// cheap: after a reply, a target that cannot be taken at once (a further check is needed)
    /// is taken as safe.
    fn check_win_is_safe(&mut self, q: &Position, m: Move, s: Square) -> Result<bool, Exhausted> {
        let cap = self.safety_cap(q)?;
        let r = q.after(m);
        for rep in search::legal_replies(&r) {
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

    /// Whether the side to move of `base` could already win the piece standing on `t` in
    /// `after` by a direct capture (the same piece on the same square, and the exchange there a
    /// gain). A counter-attack by checks that ends in winning such a piece is not caused by the
    /// capture being judged: the opponent could take it anyway, so it is no root of the captured
    /// piece (RULES.md §2.3: protection is judged after the capture, and only what the capture
    /// newly allows can make it unsafe; 图8: the black rook takes the a6 pawn once its general
    /// has stepped back, although Red could then win the c3 pawn after a check, as it could
    /// before).
    fn already_winnable(&mut self, base: &Position, after: &Position, t: Square) -> bool {
        if base.piece_at(t).is_none() || base.piece_at(t) != after.piece_at(t) {
            return false;
        }
        self.see(base, t, 0).0.is_gain()
    }

    /// The best balance (scalar) of any capture by the side to move, except onto the squares
    /// of `skip`.
    fn best_capture_skipping(&mut self, pos: &Position, skip: Bitboard) -> i32 {
        let them = !pos.turn();
        let mut best = 0;
        for s in (pos.by_color(them) & pos.attacked_by(!them)) - skip {
            if pos.piece_at(s).is_some_and(|p| p.role == Role::King) {
                continue;
            }
            let (v, _) = self.see(pos, s, 0);
            best = best.max(self.scalar(v));
        }
        best
    }

    /// The best balance (scalar) of any capture by the side to move, except onto `skip`.
    fn best_capture(&mut self, pos: &Position, skip: Option<Square>) -> i32 {
        let them = !pos.turn();
        let mut best = 0;
        for s in pos.by_color(them) & pos.attacked_by(!them) {
            if Some(s) == skip || pos.piece_at(s).is_some_and(|p| p.role == Role::King) {
                continue;
            }
            let (v, _) = self.see(pos, s, 0);
            best = best.max(self.scalar(v));
        }
        best
    }

    /// Ranks the line of a win by checks that ends with the capturer (standing on `capturer` in
    /// `q`) taking the target (on `t` in `q`) with the net balance `v`, higher being better for
    /// the chaser: [`Self::win_score`] first, then, at equal score, a capturer that is not the
    /// target's exchange partner in `q` ([`Self::mutual`]: a win by the partner is the exchange
    /// carried out, no threat, see [`Self::threats_within`]). The opponent picks among the
    /// defences of a check the one whose line ranks lowest, the chaser among its captures the
    /// highest: a tie between equally good defences or captures is thus settled by what they
    /// are, not by the order they were generated in (a mirrored board is judged the same).
    fn line_rank(&self, q: &Position, t: Square, capturer: Square, v: Mat) -> i32 {
        self.win_score(q, capturer, v) * 2 + i32::from(!self.mutual(q, capturer, t))
    }

    /// Orders the ways of winning one piece: more material first, then, at equal value, a
    /// capturer that is neither the general nor a pawn (the threat then does not rest on them
    /// alone, as for direct captures in [`Self::threats`]). The choice must not depend on where
    /// the pieces stand, or a mirrored board would be judged differently.
    fn win_score(&self, pos: &Position, capturer: Square, v: Mat) -> i32 {
        let lone = matches!(
            pos.piece_at(capturer).map(|p| p.role),
            Some(Role::King) | Some(Role::Pawn) | None
        );
        self.scalar(v) * 2 + i32::from(!lone)
    }

    /// Whether the balance of a series of checks and its capture is a gain. As [`Mat::is_gain`],
    /// except that pawns given up on the way may be outweighed: a crossed pawn floats (RULES.md
    /// §1), worth at most a horse, so a pawn sacrificed to win a rook is a gain, while a pawn
    /// for a horse or cannon, or two pawns for a rook, is not. The book rules a rook retreat
    /// that threatens a pawn-sacrificing check winning a rook a chase (参考图29), and a
    /// pawn-for-horse trade no gain (图24).
    fn series_gain(&self, total: Mat) -> bool {
        total.is_gain()
            || (total.pieces > 0
                && total.pawns < 0
                && total.pieces > -total.pawns * self.profile.values.horse)
    }

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
    fn check_wins(
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
            for rep in search::first_replies(&r) {
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
            // What every defence leaves, against the best defence of each target. Among
            // defences that leave the same material, the opponent picks the one whose capture
            // is weakest ([`Self::line_rank`]): the ranking, not the order the defences were
            // generated in, decides, so that a mirrored board is judged the same.
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
                                let weaker = a < b
                                    || (a == b
                                        && self.line_rank(q, t, origin_in(m, w.1), w.2)
                                            < self.line_rank(q, t, origin_in(m, from), v));
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
        // Best first; the sort is stable, so equal lines keep the generation order.
        out.sort_by_key(|o| std::cmp::Reverse(self.win_score(q, o.2, o.3)));
        Ok(out)
    }

    /// For [`Self::check_wins`]: after the check that gave `r` and the defence `rep`, the targets
    /// (named where they stand in `q`, among `wanted`) the checking side wins, by a capture or
    /// by further checks (`cap` counts the check just given): (target, capturer, net balance
    /// counting `off`, what the line so far gained, and what the defence took).
    fn reply_wins(
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
    fn reply_wins_read(
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
                let sc = self.win_score(&s2, cm.from, total);
                // At an equal score, a capturer that is not the target's exchange partner in
                // `q` is preferred ([`Self::line_rank`]): the chaser picks its best capture,
                // whatever order the captures were generated in.
                let better = best.is_none_or(|(bf, bv, b)| {
                    sc > b
                        || (sc == b
                            && self.line_rank(q, t, origin_after_check(q, r, cm.from), total)
                                > self.line_rank(q, t, origin_after_check(q, r, bf), bv))
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
                        if self.win_score(&s2, capturer, total) > self.win_score(&s2, w.1, w.2) {
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
    fn per_defence_threats(
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
                    for m in search::first_replies(&r) {
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
                let parts = every.unwrap_or_default() | Bitboard::from_square(m.from);
                ways.push((s, piece, parts, group, m));
            }
        }
        // One threat per target, whichever way is found first: the pieces common to every way,
        // the groups and checking pieces of all of them.
        let mut done = Bitboard::EMPTY;
        for &(s, piece, _, _, first) in &ways {
            if done.contains(s) {
                continue;
            }
            done |= Bitboard::from_square(s);
            let mut parts: Option<Bitboard> = None;
            let (mut group, mut checkers) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for &(_, _, p, g, m) in ways.iter().filter(|w| w.0 == s) {
                parts = Some(parts.map_or(p, |x| x & p));
                group |= g;
                checkers |= Bitboard::from_square(m.from);
            }
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
            });
        }
        Ok(())
    }

    /// The pieces of the side that checked (where they stand in the position before the check
    /// `m`) that, after the reply `rep` (giving `s2`), take the enemy piece that stood on `s`
    /// before the reply with a net gain counting `off`.
    fn gaining_capturers(
        &mut self,
        s2: &Position,
        rep: Move,
        m: Move,
        s: Square,
        off: Mat,
    ) -> Result<Bitboard, Exhausted> {
        let at = if rep.from == s { rep.to } else { s };
        let mut by = Bitboard::EMPTY;
        for cm in Self::captures_to(s2, at) {
            let (v, _, _) = self.capture_balance(s2, cm, false)?;
            if self.series_gain(off + v) {
                by |= Bitboard::from_square(origin_in(m, cm.from));
            }
        }
        Ok(by)
    }

    /// Whether the threat on `t.square` survives the removal of the chaser's piece on `sq`.
    fn survives_without(
        &mut self,
        q: &Position,
        sq: Square,
        t: &Threat,
    ) -> Result<bool, Exhausted> {
        let mut setup = q.to_setup();
        setup.board[sq as usize] = None;
        let p = Position::from_setup_unchecked(&setup);
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
    fn captures_shielded(p: &Position, q: &Position, s: Square) -> Captures {
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
    fn pinners_of_protectors(q: &Position, s: Square) -> Bitboard {
        let us = q.turn();
        let them = !us;
        let king = q.king(them);
        let mut out = Bitboard::EMPTY;
        for p in Self::pseudo_capturers(q, s, them) - q.pieces(them, Role::King) {
            let mut setup = q.to_setup();
            setup.board[p as usize] = None;
            let without = Position::from_setup_unchecked(&setup);
            out |= without.attackers(king, us);
        }
        out - q.attackers(king, us) - q.pieces(us, Role::King)
    }

    /// The chaser's pieces that attack the square of a direct threat: the capturer, the pieces
    /// that can move there, and those behind the capturer (x-ray).
    fn attack_bearing(q: &Position, t: &Threat) -> Bitboard {
        let us = q.turn();
        let capturer = t.first.from;
        let mut setup = q.to_setup();
        setup.board[capturer as usize] = None;
        let without = Position::from_setup_unchecked(&setup);
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
    fn king_or_pawn_alone(q: &Position, t: &Threat, parts: &[Square]) -> bool {
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

    /// When a protector of the target can recapture only to be mated (a false root, 假根,
    /// RULES.md §2.3), the target counts as unprotected and the chaser is the piece that
    /// captures, with its own screen if it is a cannon: the pieces behind the mate, or backing
    /// the capturer up against what protection remains, take no part in winning it. So a pawn
    /// or the general taking such a piece still attacks by itself (idle, CXA): the book rules a
    /// pawn taking an elephant whose recapture would be mated a pawn chase, though a horse also
    /// bears on the square (参考图5). `None` when no recapture is refuted by mate (the general
    /// analysis applies).
    fn capture_past_false_root(
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

    /// The chaser's pieces needed for a direct threat: the capturers of the principal line, and
    /// any other piece bearing on the square without which the threat is gone.
    ///
    /// When several first captures win the target equally well ([`Threat::ties`]), each line
    /// is judged and the one needing the fewest pieces counts: the target is won by whatever
    /// line the chaser picks, so the chase is joint only when every such line needs two or
    /// more pieces (RULES.md §2, joint chase: take one away and the threat is gone), whatever
    /// order the captures were generated in. At an equal count the first line's pieces are
    /// named.
    fn participants(&mut self, q: &Position, t: &Threat) -> Result<Vec<Square>, Exhausted> {
        let mut parts = self.line_participants(q, t)?;
        for (m, line) in &t.ties {
            if parts.len() < 2 {
                break;
            }
            let mut u = t.clone();
            u.first = *m;
            u.line = line.clone();
            u.ties.clear();
            let p = self.line_participants(q, &u)?;
            if p.len() < parts.len() {
                parts = p;
            }
        }
        Ok(parts)
    }

    /// [`Self::participants`] for the line opened by `t.first`.
    fn line_participants(&mut self, q: &Position, t: &Threat) -> Result<Vec<Square>, Exhausted> {
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
    fn add_backers(q: &Position, t: &Threat, parts: &mut Vec<Square>, values: (i32, i32)) {
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

    /// The nature of `m` played in `before`; `prev` is the opponent's move just before.
    pub fn classify(&mut self, before: &Position, m: Move, prev: Option<Move>) -> MoveNature {
        self.budget = Budget::new(self.profile.node_budget);
        // Whether the opponent stands threatening mate: his last move's nature, when this
        // analyser classified it (a check is not counted), else searched on demand.
        let standing = match self.last_after {
            Some((k, kind)) if k == before.key() => Some(kind == NatureKind::MateThreat),
            _ => None,
        };
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
        self.last_after = Some((before.key_after(m), nature.kind));
        nature
    }

    fn classify_inner(&mut self, before: &Position, m: Move, prev: Option<Move>) -> MoveNature {
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
                if let Ok(t) = self.chase_targets(before, &after, m, prev) {
                    nature.targets = t
                        .into_iter()
                        .filter(|t| t.how != WinHow::Checks && made_by_move(m, t))
                        .collect();
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
            nature.idle_kind = self.idle_kind(before, m, &after, prev);
        }
        nature.nodes = self.budget.nodes;
        nature
    }

    /// Mate threat or chase, if the move is one.
    #[allow(clippy::type_complexity)]
    fn attacking_nature(
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
                // chase); a failed search for targets leaves the mate threat without targets.
                let targets = if self.profile.mate_threat_may_chase {
                    let mut t = self
                        .chase_targets(before, after, m, prev)
                        .unwrap_or_default();
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

    /// The new threats the move makes (RULES.md §2 chase conditions), as chase targets.
    fn chase_targets(
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
            if old_rel && !new_attacker {
                // The threat as such existed. It is new only if it could not really be carried
                // out before (the capture lost something elsewhere) and the moved piece takes part.
                let old_level = t0
                    .iter()
                    .filter(same)
                    .map(|o| self.threat_level(o))
                    .max()
                    .unwrap_or(0);
                if old_abs && !self.newly_bears(before, &q1, m, t.square, old_capturers) {
                    // ... or the move cut a root by checks the capture had (断根).
                    let Some(joint) = self.strengthens_threat(&q1, t, old_level, moved_to)? else {
                        continue;
                    };
                    let mut p = self.participants(&q1, t)?;
                    if joint && !p.contains(&moved_to) {
                        p.push(moved_to);
                    }
                    parts = Some(p);
                } else {
                    let mut p = self.participants(&q1, t)?;
                    if !p.contains(&moved_to) {
                        let parry = match self.stops_parry(&q1, t, &p, moved_to)? {
                            None => self.strengthens_threat(&q1, t, old_level, moved_to)?,
                            some => some,
                        };
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
            if self.profile.king_pawn_alone_idle && Self::king_or_pawn_alone(&q1, t, &parts) {
                continue;
            }
            if self.profile.counter_threat_mate_cap > 0
                && t.how != WinHow::Checks
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
                        },
                    )
                };
                if t.capturers.contains(moved_to) {
                    vec![moved_to]
                } else if made_by(parts[0]) {
                    parts
                } else {
                    match t.capturers.into_iter().find(|&c| made_by(c)) {
                        Some(c) => vec![c],
                        None => parts,
                    }
                }
            } else {
                parts
            };
            targets.push(ChaseTarget {
                square: t.square,
                piece: t.piece,
                joint: parts.len() >= 2,
                how: t.how,
                by: parts,
            });
        }
        Ok(targets)
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
    fn stops_parry(
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
        let mut setup = q.to_setup();
        setup.board[guard as usize] = None;
        let without = Position::from_setup_unchecked(&setup).null_move();
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

    /// How really a threat can be carried out, for newness (RULES.md §2.2): 0 when no capture of
    /// it can be made now without losing elsewhere what it wins or being mated (sound only
    /// counting what it newly gives away: [`Self::capture_is_sound`]), 1 when it can, but every
    /// such capture is answered by a win-back by checks worth less (a root by checks,
    /// [`Threat::rooted`]; only with [`Profile::cut_check_root_is_new`]), 2 when some capture
    /// can be made with no win-back at all. A threat won by checks or in two steps counts 2
    /// when it can be made now (its roots are not read).
    fn threat_level(&self, t: &Threat) -> u8 {
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
    fn capture_level_at(&mut self, q: &Position, s: Square) -> Result<Option<u8>, Exhausted> {
        let Some(piece) = q.piece_at(s) else {
            return Ok(None);
        };
        let mut level = None;
        let base = self.best_capture(&q.null_move(), None);
        for m in Self::captures_to(q, s) {
            if self.stands_in_exchange(q, m.from, s)? {
                continue;
            }
            let (mut v, _, rec) = self.capture_balance_in(q, m, Refute::WhenNoGain)?;
            if rec && !self.profile.under_protection_chases {
                let capturer = q.piece_at(m.from).expect("capturer");
                v = self.mat(piece) - self.mat(capturer);
            }
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
    fn strengthens_threat(
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
        let mut setup = q.to_setup();
        setup.board[guard as usize] = None;
        let without = Position::from_setup_unchecked(&setup);
        if without.is_check() {
            return Ok(None);
        }
        let Some(level_without) = self.capture_level_at(&without, t.square)? else {
            return Ok(None);
        };
        Ok((level_without < level).then_some(level_without == 0))
    }

    /// Whether the side to move of `pos` can take the piece on `x` with its piece on `target`
    /// without losing material in the exchange there (a recapture answered by mate is none, as
    /// for a false root) and without being mated by checks after it.
    fn parry_by_capture(
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
    fn newly_bears(
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

    /// Whether the move sets two equal pieces against each other without moving either (兑 by
    /// a screen or an uncovered line, RULES.md §2: an exchange offer is idle-class): after it,
    /// an enemy piece and one of ours, worth the same, can each take the other ([`Self::mutual`]),
    /// and they could not before. A horse stepping off the line between two rooks, or a piece
    /// stepping between two cannons as their common screen, offers the exchange as surely as
    /// moving one of the pieces would.
    fn opens_exchange(&mut self, before: &Position, m: Move, after: &Position) -> bool {
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
    fn target_in_exchange(
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
    fn wins_by_value(&self, q: &Position, t: &Threat) -> bool {
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
    fn stood_before(before: &Position, q: &Position, x: Square, y: Square) -> bool {
        before.piece_at(x).is_some()
            && before.piece_at(x) == q.piece_at(x)
            && before.piece_at(y) == q.piece_at(y)
            && Self::captures_to(before, y).iter().any(|m| m.from == x)
            && Self::captures_to(&before.null_move(), x)
                .iter()
                .any(|m| m.from == y)
    }

    /// Whether the move presses or supports an exchange (兑) that stands after it: an enemy piece
    /// `y` and one of ours `x` (not the moved piece), worth the same and both material, could
    /// take each other before the move and still can ([`Self::stood_before`],
    /// [`Self::exchange_partners`]), and the moved piece newly attacks `y` or newly protects `x`
    /// (it could take back on `x` after `y` takes there), which it did not before the move.
    /// RULES.md §2: an exchange offer is idle-class (idle kind 兑). 图30: the black rook comes to
    /// f6 beside the red horse on e6, which faces the black horse on c7 (兑); the red cannon
    /// answers from b2 to b6, protecting e6 over the pawn on c6 (兑 again).
    fn presses_exchange(&mut self, before: &Position, m: Move, after: &Position) -> bool {
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

    /// When the side to move is in check, the threats it would have but for the check: those
    /// of the position with the checking pieces taken off. A threat that was there, held back
    /// only because the check had to be answered first, is not made by the answer: the answer
    /// frees it, it does not create it (RULES.md §2: a threat appearing because a check was
    /// answered is idle; a state the opponent brought on himself, 自毙, is not charged). The
    /// book rules an advisor blocking a check idle although the block lets its rook take a
    /// cannon the checking rook had just stopped guarding (参考图19). Empty when not in check.
    /// Only the threats against pieces standing on `within` are listed.
    fn threats_held_back_by_check(
        &mut self,
        before: &Position,
        within: Bitboard,
    ) -> Result<Vec<Threat>, Exhausted> {
        let checkers = before.checkers();
        if checkers.is_empty() {
            return Ok(Vec::new());
        }
        let mut setup = before.to_setup();
        for c in checkers {
            setup.board[c as usize] = None;
        }
        let freed = Position::from_setup_unchecked(&setup);
        self.threats_within(&freed, within)
    }

    /// The idle kind of an idle move, if one applies.
    fn idle_kind(
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
}

/// Whether the move itself makes the chase of `t`: the moved piece takes part, or the move opens
/// or closes the line (or horse leg) of a piece taking part. A check or mate threat counts as a
/// chase only of such targets (AXF): a threat that merely appears elsewhere because the check or
/// mate threat made a capture safe belongs to the attack on the general.
fn made_by_move(m: Move, t: &ChaseTarget) -> bool {
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
fn line_defence(before: &Position, after: &Position, m: Move, c: Square, t: Square) -> bool {
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

/// Where the piece standing on `sq` after the move `m` stood before it (a move by one side
/// moves only that side's piece: used for our checks and for the opponent's replies).
fn origin_in(m: Move, sq: Square) -> Square {
    if sq == m.to { m.from } else { sq }
}

/// Where the piece of the side to move of `q` standing on `sq` after its move (giving `r`) stood
/// in `q`: the move's origin for the piece it moved, else `sq` itself.
fn origin_after_check(q: &Position, r: &Position, sq: Square) -> Square {
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

/// Squares attacked by the pieces `pieces` (all of one colour) in `pos`.
fn attacked_squares(pos: &Position, pieces: Bitboard) -> Bitboard {
    let occ = pos.occupied();
    let rot = pos.occupied_rotated();
    let mut out = Bitboard::EMPTY;
    for sq in pieces {
        let Some(p) = pos.piece_at(sq) else { continue };
        out |= match p.role {
            Role::Rook => attacks::rook_attacks(sq, occ, rot),
            Role::Cannon => attacks::cannon_attacks(sq, occ, rot),
            Role::Horse => attacks::horse_attacks(sq, occ),
            Role::Elephant => attacks::elephant_attacks(sq, occ),
            Role::Advisor => attacks::advisor_attacks(sq),
            Role::King => attacks::king_attacks(sq),
            Role::Pawn => attacks::pawn_attacks(p.color, sq),
        };
    }
    out
}

impl Analyzer<'_> {
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
    fn refuted_by_counter_threat(&mut self, q: &Position, t: &Threat) -> Result<bool, Exhausted> {
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
    fn capture_refuted_by_counter_threat(
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
            let threat = !scratch.is_check() && self.threatens_mate(&scratch.null_move(), cap)?;
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
                if !s0.is_check() && self.threatens_mate(&s0.null_move(), cap)? {
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
    fn base_best_capture(&mut self, p0: &Position) -> i32 {
        match self.base_capture {
            Some((k, v)) if k == p0.key() => v,
            _ => {
                let v = self.best_capture(p0, None);
                self.base_capture = Some((p0.key(), v));
                v
            }
        }
    }

    /// Whether the side to move of `t` mates by checks within `cap` of its moves (a mate in one
    /// without the mate table, which would only store positions never seen again).
    fn threatens_mate(&mut self, t: &Position, cap: u32) -> Result<bool, Exhausted> {
        if cap > 1 {
            return search::mate_by_checks_with(t, cap, &mut self.budget, &mut self.mates);
        }
        for c in search::checking_moves(t) {
            self.budget.tick()?;
            if !search::has_legal_reply(&t.after(c)) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The best balance (scalar) for the side to move of `s`, which stands threatened with
    /// mate, over its replies that are not met by a mate by checks within
    /// [`Profile::counter_threat_mate_cap`]: `gained` plus what the reply captures, less what
    /// the opponent then wins by his best capture beyond `base` (what he could win anyway).
    /// `None` when every reply is mated. The search stops at the first balance above `enough`.
    fn best_parry(
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
            if best.is_some_and(|b| gained + taken <= b) || self.threatens_mate(&u, cap)? {
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

impl Analyzer<'_> {
    /// [`Analyzer::see`] on a position it plays the captures on and takes them back (it is
    /// left as it was): no copy per capture.
    fn see_in(&mut self, pos: &mut Position, s: Square, depth: u32) -> (Mat, ArrayVec<Square, 8>) {
        let mut best = Mat::default();
        let mut best_line = ArrayVec::new();
        if depth >= 8 {
            return (best, best_line);
        }
        let Some(target) = pos.piece_at(s) else {
            return (best, best_line);
        };
        let gain = self.mat(target);
        for m in Self::captures_to(pos, s) {
            let undo = pos.play_unchecked(m);
            let (reply, line) = self.see_in(pos, s, depth + 1);
            pos.undo(m, undo);
            let v = gain - reply;
            if self.scalar(v) > self.scalar(best) {
                best = v;
                best_line.clear();
                best_line.push(m.from);
                let _ = best_line.try_extend_from_slice(&line[..line.len().min(7)]);
            }
        }
        (best, best_line)
    }
}
