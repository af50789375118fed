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
//!
//! One file per concept of the rulebook (all of them `impl Analyzer` blocks on the one analyser
//! defined here):
//! - `material`: piece values and the capture balance (static exchange, one capture and the
//!   best exchange after it, the best capture of a position);
//! - `exchange`: exchanges (兑): equal pieces that can take each other, and whether the
//!   opponent can really accept;
//! - `threats`: the threats of a position, direct (capture or exchange on the square);
//!   `checks`: threats by a series of checks (抽将), against every defence and per defence;
//!   `two_step`: threats in two steps (overloaded protector, gain of tempo);
//! - `protection`: whether a winning capture can really be made: real, false (假根) and
//!   under-protected roots, roots by checks, the capturer's duties, safety, counter mate threats;
//! - `newness`: new or continued threat (从捉到捉), giving the chase targets; `attribution`:
//!   the pieces taking part (joint chase, 联合捉) and the general/pawn-alone rule;
//! - `idle`: the idle kinds (兑 献 拦 跟);
//! - `decision`: the nature decision (check, mate threat, chase, idle: the heaviest wins) and
//!   the line classifier.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::profile::Profile;
use crate::rules::search::{self, Budget, Exhausted, MateTable};
use crate::types::{Color, Move, MoveList, Piece, Role, Square};
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

mod attribution;
mod checks;
mod decision;
mod exchange;
mod idle;
mod material;
mod newness;
mod protection;
#[cfg(test)]
mod testkit;
mod threats;
mod ties;
mod two_step;

use checks::ReplyLog;
pub use decision::{classify_line, try_classify_line, try_classify_line_where};
pub use material::Mat;
use material::{Refute, attacked_squares};
use newness::made_by_move;
use threats::Threat;
use ties::TieOrder;

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
    /// What made it a chase, in a short sentence: what is won, how, and why the threat is new.
    pub reason: String,
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
    /// For an idle move of a pawn: the new threats it makes by itself, which the general/pawn-alone
    /// rule (`Profile::king_pawn_alone_idle`) keeps from being chases. The verdict counts them
    /// as chases in mutual forbidden play (互打, `Profile::pawn_chases_in_mutual_play`).
    /// Recorded only with that option; not part of the JSON report.
    #[serde(skip)]
    pub pawn_targets: Vec<ChaseTarget>,
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

/// Why a line's classification stopped before its end ([`try_classify_line`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// A move of the line is not legal.
    Illegal(IllegalMove),
    /// The analysis was called off ([`crate::rules::search::cancellable`]: a deadline passed,
    /// or the client that asked for it left) before the move at `index` (0-based). The natures
    /// found so far are left, but the caller that called the analysis off discards them.
    CalledOff { index: usize },
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::Illegal(e) => e.fmt(f),
            LineError::CalledOff { index } => write!(
                f,
                "the analysis was called off before move {} (a deadline passed or the client left)",
                index + 1
            ),
        }
    }
}

impl std::error::Error for LineError {}

impl From<IllegalMove> for LineError {
    fn from(e: IllegalMove) -> LineError {
        LineError::Illegal(e)
    }
}

/// The move-nature analyser: a profile and the node budget of the current move.
pub struct Analyzer<'p> {
    profile: &'p Profile,
    budget: Budget,
    mates: MateTable,
    /// Baselines of the position whose threats are being listed (the opponent to move):
    /// (position key, best capture, targets won by checks), computed on first use.
    base_capture: Option<(u64, i32)>,
    /// Set while a win by checks is checked for what its series leaves hanging
    /// ([`Self::check_win_keeps_its_pieces`]): the best capture the opponent had before the
    /// series, against which each final capture's answer is weighed.
    answer_base: Option<i32>,
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
    /// The threats of a pawn by itself that [`Self::chase_targets`] left out (recorded with
    /// [`Profile::pawn_chases_in_mutual_play`], read into [`MoveNature::pawn_targets`]).
    pawn_alone: Vec<ChaseTarget>,
    /// Set on the analyser that lists the opponent's threats for the duties of a win by checks
    /// ([`Self::check_win_covers_duties`]): its listings read no such duties again.
    reading_duties: bool,
    /// What leaving its post costs the piece giving the first check of a win by checks, by
    /// position (key) and post: the same series is read again for each target and move. With
    /// the cost, the wards (the pieces the opponent could newly win) it comes from.
    duty_costs: Vec<(u64, Square, i32, Bitboard)>,
}

type Captures = ArrayVec<Move, 16>;

impl<'p> Analyzer<'p> {
    pub fn new(profile: &'p Profile) -> Analyzer<'p> {
        Analyzer {
            profile,
            budget: Budget::new(profile.node_budget),
            mates: MateTable::default(),
            base_capture: None,
            answer_base: None,
            base_checks: None,
            ignore_safety: false,
            won_cache: (0, Bitboard::EMPTY, Bitboard::EMPTY),
            reply_log: (0, Vec::new()),
            safety: None,
            standing_before: None,
            counter_seen: false,
            ward_history: None,
            pawn_alone: Vec::new(),
            reading_duties: false,
            duty_costs: Vec::new(),
        }
    }
}
