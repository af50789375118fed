//! The natural move limit (自然限着, RULES.md §4): may a side claim a draw because no capture has
//! been made for N moves?
//!
//! The module has two layers:
//!
//! * the **counting core**, [`count`], which works on per-ply facts ([`PlyFact`]: who moved, the
//!   nature of the move, whether it captured) and a few facts about the claim position
//!   ([`ClaimPosition`]). It knows nothing about boards and is tested on its own;
//! * the **glue**, [`facts_for_line`], [`claim`] and [`natural_limit_status`], which replays a game,
//!   takes the natures from the rules engine and calls the core.
//!
//! Counting, for claimant C at ply P (plies played so far):
//!
//! ```text
//! window  = plies after the last capture by either side (game start if none)
//! A       = C's moves in the window; chk, mt, ch = how many are check, mate_threat, chase
//! checks  = min(chk, check_cap)
//! attacks = min(checks + mt + ch, attack_cap)
//! void    = chk + mt + ch - attacks
//! counted = |A| - void
//! valid   = counted >= N and opponent's moves >= N and admissible and the game is not over
//! ```
//!
//! Which individual moves are void is decided in the order they were played: a check beyond the
//! check cap, or any attacking move once the attack cap is full, is void. The totals are those of
//! the formula above.
//!
//! ```
//! use xiangqi_arbiter::{Color, Move, Position};
//! use xiangqi_arbiter::rules::limit::{self, ClaimOptions, LimitProfile, Verdict};
//!
//! // Rook and king against a bare king: the rook checks (h0h9), the general steps aside.
//! let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K3R1 w").unwrap();
//! let moves: Vec<Move> = ["h0h9", "e9e8", "d0d1", "e8e7"]
//!     .iter().map(|m| Move::parse_iccs(m).unwrap()).collect();
//! let options = ClaimOptions { profile: LimitProfile::rapid(), ..ClaimOptions::default() };
//! let r = limit::claim(&start, &moves, Color::Red, 4, &options).unwrap();
//! assert_eq!((r.claimant_moves, r.checks, r.counted, r.needed), (2, 1, 2, 48));
//! assert_eq!(r.verdict, Verdict::ClaimantShort);
//! ```

use crate::notation::{Notation, print_move};
use crate::position::Position;
use crate::rules::nature::{LineError, try_classify_line};
pub use crate::rules::nature::{MoveNature, NatureKind, classify_line};
pub use crate::rules::profile::Profile;
use crate::types::{Color, Move, Piece, Role};
use serde::{Deserialize, Serialize};
use std::fmt;

// ---------------------------------------------------------------------------------------------
// Profiles

/// When the count starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CountingMode {
    /// Retroactively, from the last capture on the score sheet (the default).
    #[default]
    FromCapture,
    /// From the ply at which the claim was announced (amateur practice); a later capture still
    /// restarts the count.
    FromClaim,
}

impl CountingMode {
    pub fn name(self) -> &'static str {
        match self {
            CountingMode::FromCapture => "from_capture",
            CountingMode::FromClaim => "from_claim",
        }
    }
}

impl std::str::FromStr for CountingMode {
    type Err = String;
    fn from_str(s: &str) -> Result<CountingMode, String> {
        match s {
            "from_capture" => Ok(CountingMode::FromCapture),
            "from_claim" => Ok(CountingMode::FromClaim),
            _ => Err(format!(
                "unknown counting mode '{s}' (expected from_capture or from_claim)"
            )),
        }
    }
}

/// The event's natural-limit rule: N, the caps on the claimant's attacking moves and the
/// admissibility test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitProfile {
    /// Name shown in reports (`slow`, `rapid`, `amateur40`, or the event's own).
    pub name: String,
    /// N: moves (回合) without capture that each side must have made.
    pub moves: u32,
    /// At most this many of the claimant's check + mate_threat + chase moves count (None: no cap).
    pub attack_cap: Option<u32>,
    /// Of which at most this many checks (None: no separate cap; 0: checks never count).
    pub check_cap: Option<u32>,
    /// The claim is refused (at the arbiter's discretion) when this many or more attacking pieces
    /// (rook, horse, cannon, crossed pawn; both sides together) are on the board. None: no test.
    pub refuse_attackers: Option<u32>,
}

impl LimitProfile {
    /// 慢棋: 60 moves, attacking moves counted at most 30, of which checks at most 10.
    pub fn slow() -> LimitProfile {
        LimitProfile {
            name: "slow".into(),
            moves: 60,
            attack_cap: Some(30),
            check_cap: Some(10),
            refuse_attackers: None,
        }
    }

    /// 快棋 (also armageddon play-offs): 50 moves, 25 attacking moves, 8 checks.
    pub fn rapid() -> LimitProfile {
        LimitProfile {
            name: "rapid".into(),
            moves: 50,
            attack_cap: Some(25),
            check_cap: Some(8),
            refuse_attackers: None,
        }
    }

    /// Amateur rule: 40 moves, checks never count, no cap on other attacking moves, in principle
    /// refused with 3 or more attacking pieces on the board.
    pub fn amateur40() -> LimitProfile {
        LimitProfile {
            name: "amateur40".into(),
            moves: 40,
            attack_cap: None,
            check_cap: Some(0),
            refuse_attackers: Some(3),
        }
    }

    /// The names [`LimitProfile::by_name`] knows, in the order a picker lists them.
    pub const NAMES: [&'static str; 4] = ["slow", "rapid", "armageddon", "amateur40"];

    /// The built-in profiles by name (`slow`, `rapid`, `armageddon` = rapid, `amateur40`).
    pub fn by_name(name: &str) -> Option<LimitProfile> {
        match name {
            "slow" => Some(LimitProfile::slow()),
            "rapid" => Some(LimitProfile::rapid()),
            "armageddon" => Some(LimitProfile {
                name: "armageddon".into(),
                ..LimitProfile::rapid()
            }),
            "amateur40" => Some(LimitProfile::amateur40()),
            _ => None,
        }
    }
}

impl Default for LimitProfile {
    fn default() -> LimitProfile {
        LimitProfile::slow()
    }
}

/// An event settings file (JSON): a base profile and overrides. Every field is optional;
/// `null` for a cap or for `refuse_attackers` means "none".
///
/// ```json
/// {"base": "slow", "name": "club 2026", "moves": 50, "attack_cap": 20, "check_cap": 5,
///  "refuse_attackers": null, "counting": "from_capture"}
/// ```
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitSettings {
    pub base: Option<String>,
    pub name: Option<String>,
    pub moves: Option<u32>,
    #[serde(default, deserialize_with = "present")]
    pub attack_cap: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    pub check_cap: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    pub refuse_attackers: Option<Option<u32>>,
    pub counting: Option<CountingMode>,
}

/// Tells a field given as `null` (Some(None)) from a missing one (None).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

impl LimitSettings {
    /// Reads settings from JSON text.
    pub fn from_json(text: &str) -> Result<LimitSettings, LimitError> {
        serde_json::from_str(text).map_err(|e| LimitError::Settings(e.to_string()))
    }

    /// The profile these settings describe.
    pub fn profile(&self) -> Result<LimitProfile, LimitError> {
        let base = self.base.as_deref().unwrap_or("slow");
        let mut p = LimitProfile::by_name(base).ok_or_else(|| {
            LimitError::Settings(format!(
                "unknown base profile '{base}' (expected slow, rapid, armageddon or amateur40)"
            ))
        })?;
        let customised = self.moves.is_some()
            || self.attack_cap.is_some()
            || self.check_cap.is_some()
            || self.refuse_attackers.is_some();
        if let Some(n) = self.moves {
            p.moves = n;
        }
        if let Some(c) = self.attack_cap {
            p.attack_cap = c;
        }
        if let Some(c) = self.check_cap {
            p.check_cap = c;
        }
        if let Some(c) = self.refuse_attackers {
            p.refuse_attackers = c;
        }
        match &self.name {
            Some(n) => p.name = n.clone(),
            None if customised => p.name = "custom".into(),
            None => {}
        }
        p.validate()?;
        Ok(p)
    }
}

impl LimitProfile {
    /// Rejects settings that cannot describe a rule.
    pub fn validate(&self) -> Result<(), LimitError> {
        if self.moves == 0 {
            return Err(LimitError::Settings(
                "the move limit must be at least 1".into(),
            ));
        }
        if self.refuse_attackers == Some(0) {
            return Err(LimitError::Settings(
                "refuse_attackers 0 would refuse every claim; use null for no test".into(),
            ));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Facts and errors

/// What the count needs to know about one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlyFact {
    /// The ply number of this move: 1 for the first move of the record.
    pub ply: u32,
    /// The side that made the move.
    pub side: Color,
    /// The move's nature (from the rules engine).
    pub kind: NatureKind,
    /// Whether the move captured.
    pub capture: bool,
    /// The move itself, for the report (optional).
    pub mv: Option<Move>,
}

/// A decisive end on the board at the claim ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move (困毙: loses in Xiangqi).
    Stalemate,
}

/// What the count needs to know about the position at the claim ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClaimPosition {
    /// Rooks, horses, cannons and crossed pawns on the board, both sides together.
    pub attacking_pieces: u32,
    /// The game is over on the board, and who lost.
    pub ending: Option<(Ending, Color)>,
}

impl ClaimPosition {
    /// Reads the facts from a position.
    pub fn of(pos: &Position) -> ClaimPosition {
        let ending = if pos.is_checkmate() {
            Some((Ending::Checkmate, pos.turn()))
        } else if pos.is_stalemate() {
            Some((Ending::Stalemate, pos.turn()))
        } else {
            None
        };
        ClaimPosition {
            attacking_pieces: attacking_pieces(pos),
            ending,
        }
    }
}

/// The pieces [`attacking_pieces`] counts, each as its side, glyph and square (`红车a0`), Red's
/// first: what a refused claim names.
pub fn attackers(pos: &Position) -> Vec<String> {
    let mut out = Vec::new();
    for c in Color::ALL {
        for role in [Role::Rook, Role::Horse, Role::Cannon, Role::Pawn] {
            for sq in pos.pieces(c, role) {
                if role != Role::Pawn || !sq.on_own_side(c) {
                    out.push(format!("{}{}{sq}", c.name_zh(), role.glyph(c)));
                }
            }
        }
    }
    out
}

/// Rooks, horses, cannons and pawns across the river, both sides together.
pub fn attacking_pieces(pos: &Position) -> u32 {
    let mut n =
        (pos.by_role(Role::Rook) | pos.by_role(Role::Horse) | pos.by_role(Role::Cannon)).count();
    for c in Color::ALL {
        n += pos
            .pieces(c, Role::Pawn)
            .into_iter()
            .filter(|sq| !sq.on_own_side(c))
            .count() as u32;
    }
    n
}

/// Why a claim cannot be counted at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimitError {
    /// The claim ply is past the end of the record.
    PlyOutOfRange { at_ply: u32, plies: u32 },
    /// The counting start (from_claim) is after the claim ply.
    StartAfterClaim { from_ply: u32, at_ply: u32 },
    /// A move of the line is not legal (ply numbered from 1, position before it).
    IllegalMove { ply: u32, mv: Move, fen: String },
    /// The analysis was called off (a deadline passed or the client left) before this ply.
    CalledOff { ply: u32 },
    /// The facts are not one per ply, numbered from 1.
    BadFacts(String),
    /// A settings file or flag combination is invalid.
    Settings(String),
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitError::PlyOutOfRange { at_ply, plies } => write!(
                f,
                "claim ply {at_ply} is past the end of the game ({plies} plies played)"
            ),
            LimitError::StartAfterClaim { from_ply, at_ply } => write!(
                f,
                "counting start ply {from_ply} is after the claim ply {at_ply}"
            ),
            LimitError::IllegalMove { ply, mv, fen } => {
                write!(f, "ply {ply}: {mv} is not a legal move in {fen}")
            }
            LimitError::CalledOff { ply } => write!(
                f,
                "the analysis was called off before ply {ply} (a deadline passed or the client left)"
            ),
            LimitError::BadFacts(s) => write!(f, "inconsistent move facts: {s}"),
            LimitError::Settings(s) => write!(f, "invalid limit settings: {s}"),
        }
    }
}

impl std::error::Error for LimitError {}

// ---------------------------------------------------------------------------------------------
// The report

/// Why a counted attacking move is void.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VoidReason {
    /// A check beyond the check cap (or any check, where checks never count).
    CheckCap,
    /// An attacking move beyond the cap on attacking moves.
    AttackCap,
}

/// One of the claimant's moves inside the window.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountedMove {
    pub ply: u32,
    #[serde(serialize_with = "opt_move")]
    pub mv: Option<Move>,
    /// The move in Chinese notation (炮二平五), when the game is known.
    pub chinese: Option<String>,
    /// The move in WXF notation (C2.5), when the game is known.
    pub wxf: Option<String>,
    pub nature: NatureKind,
    /// Counts toward N.
    pub counted: bool,
    /// Set when the move is void.
    pub void: Option<VoidReason>,
}

fn opt_move<S: serde::Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match m {
        Some(m) => s.collect_str(m),
        None => s.serialize_none(),
    }
}

/// The outcome of a claim, most decisive reason first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The claim stands: the game is drawn.
    Valid,
    /// The game ended on the board at the claim ply (mate or stalemate wins over the draw).
    GameOver,
    /// The claimant has not made enough counted moves.
    ClaimantShort,
    /// The opponent has not made enough moves.
    OpponentShort,
    /// The count is reached but the position fails the admissibility test (discretionary).
    Inadmissible,
}

/// The arbiter's answer to a natural-limit claim. Field names are those of RULES.md §4.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LimitReport {
    pub profile: String,
    pub claimant: Color,
    /// Plies played when the claim is judged.
    pub at_ply: u32,
    pub counting: CountingMode,
    /// Plies played when the window opens (the last capture, the counting start, or 0).
    pub window_start_ply: u32,
    /// The last ply of the window (= at_ply).
    pub window_end_ply: u32,
    /// The ply of the last capture at or before the claim, if any.
    pub last_capture_ply: Option<u32>,
    /// When the window opens at the start of a record that begins from a set-up position: the
    /// capture-free plies its FEN says were played before (not on the score sheet, not counted).
    pub unrecorded_plies: u32,
    pub claimant_moves: u32,
    pub checks: u32,
    pub mate_threats: u32,
    pub chases: u32,
    /// Claimant's moves whose nature the rules engine could not decide (counted as idle).
    pub undetermined: u32,
    pub void: u32,
    pub counted: u32,
    pub required: u32,
    pub attack_cap: Option<u32>,
    pub check_cap: Option<u32>,
    pub opponent_moves: u32,
    /// Moves the opponent still has to make.
    pub opponent_needed: u32,
    pub attacking_pieces: u32,
    /// The profile's admissibility threshold (refused with this many attacking pieces or more).
    pub refuse_attackers: Option<u32>,
    pub admissible: bool,
    /// Whether a refusal is at the arbiter's discretion (always true for the admissibility test).
    pub discretionary: bool,
    pub ending: Option<Ending>,
    /// The side that lost on the board, with `ending`.
    pub loser: Option<Color>,
    pub valid: bool,
    /// Counted moves the claimant still needs: max(0, required - counted).
    pub needed: u32,
    pub verdict: Verdict,
    /// False when the verdict would change if the undetermined moves were attacking moves.
    pub certain: bool,
    /// The first ply at which this claim would have been valid (a claim made after that many
    /// plies), up to the claim's ply; `None` if at none.
    pub valid_from_ply: Option<u32>,
    /// Set when a claim made after the game (the event allows it, before signing) is ruled as
    /// at `valid_from_ply`: the ply at which it was made. `at_ply` is then `valid_from_ply`.
    pub claimed_at_ply: Option<u32>,
    /// The claimant's moves in the window, in order.
    pub moves: Vec<CountedMove>,
    /// How the text numbers the moves (回合) beside the plies (not in the JSON, whose moves
    /// carry their own numbers).
    #[serde(skip)]
    pub numbering: MoveNumbering,
}

/// How plies map to move numbers (回合): the number of the first move, and whether Black makes
/// the first ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumbering {
    pub first: u32,
    pub black_first: bool,
}

impl Default for MoveNumbering {
    fn default() -> MoveNumbering {
        MoveNumbering {
            first: 1,
            black_first: false,
        }
    }
}

impl MoveNumbering {
    /// The numbering of a game played from `start`.
    pub fn of(start: &Position) -> MoveNumbering {
        MoveNumbering {
            first: start.fullmoves().max(1),
            black_first: start.turn() == Color::Black,
        }
    }

    /// The move number of ply `ply` (1-based; ply 0 counts as the first).
    pub fn of_ply(self, ply: u32) -> u32 {
        self.first + (ply.max(1) - 1 + u32::from(self.black_first)) / 2
    }
}

// ---------------------------------------------------------------------------------------------
// The counting core

/// Counts a claim from per-ply facts.
///
/// `facts` holds one entry per ply of the record, numbered from 1 in order; `at_ply` is the number
/// of plies played when the claim is judged (`at_ply <= facts.len()`); `from_ply` is the counting
/// start for [`CountingMode::FromClaim`] (ignored for `FromCapture`); `position` describes the
/// position after `at_ply` plies.
pub fn count(
    facts: &[PlyFact],
    at_ply: u32,
    claimant: Color,
    profile: &LimitProfile,
    counting: CountingMode,
    from_ply: u32,
    position: &ClaimPosition,
) -> Result<LimitReport, LimitError> {
    for (i, f) in facts.iter().enumerate() {
        if f.ply as usize != i + 1 {
            return Err(LimitError::BadFacts(format!(
                "entry {i} has ply {}, expected {}",
                f.ply,
                i + 1
            )));
        }
    }
    let plies = facts.len() as u32;
    if at_ply > plies {
        return Err(LimitError::PlyOutOfRange { at_ply, plies });
    }
    if counting == CountingMode::FromClaim && from_ply > at_ply {
        return Err(LimitError::StartAfterClaim { from_ply, at_ply });
    }
    let played = &facts[..at_ply as usize];
    let last_capture_ply = played.iter().rev().find(|f| f.capture).map(|f| f.ply);
    let mut window_start_ply = last_capture_ply.unwrap_or(0);
    if counting == CountingMode::FromClaim {
        window_start_ply = window_start_ply.max(from_ply);
    }
    let window = &played[window_start_ply as usize..];

    let mut tally = Tally::default();
    let mut moves = Vec::new();
    for f in window {
        let Some(void) = tally.add(f, claimant, profile) else {
            continue;
        };
        moves.push(CountedMove {
            ply: f.ply,
            mv: f.mv,
            chinese: None,
            wxf: None,
            nature: f.kind,
            counted: void.is_none(),
            void,
        });
    }
    let Tally {
        checks,
        mate_threats,
        chases,
        undetermined,
        claimant_moves,
        opponent_moves,
        attacks_counted,
        ..
    } = tally;
    let check_cap = profile.check_cap.unwrap_or(u32::MAX);
    let attack_cap = profile.attack_cap.unwrap_or(u32::MAX);
    let void = checks + mate_threats + chases - attacks_counted;
    debug_assert_eq!(
        attacks_counted,
        (checks.min(check_cap) + mate_threats + chases).min(attack_cap)
    );
    let counted = tally.counted();
    let required = profile.moves;
    let (needed, opponent_needed) = tally.needed(required);
    let admissible = profile
        .refuse_attackers
        .is_none_or(|limit| position.attacking_pieces < limit);
    let verdict = verdict_of(position, needed, opponent_needed, admissible);

    // Would the verdict change if the undetermined moves were attacking moves (mate threats)?
    let certain = undetermined == 0 || {
        let eligible =
            (checks.min(check_cap) + mate_threats + chases + undetermined).min(attack_cap);
        let void_alt = checks + mate_threats + chases + undetermined - eligible;
        let needed_alt = required.saturating_sub(claimant_moves - void_alt);
        verdict_of(position, needed_alt, opponent_needed, admissible) == verdict
    };

    Ok(LimitReport {
        profile: profile.name.clone(),
        claimant,
        at_ply,
        counting,
        window_start_ply,
        window_end_ply: at_ply,
        last_capture_ply,
        unrecorded_plies: 0,
        claimant_moves,
        checks,
        mate_threats,
        chases,
        undetermined,
        void,
        counted,
        required,
        attack_cap: profile.attack_cap,
        check_cap: profile.check_cap,
        opponent_moves,
        opponent_needed,
        attacking_pieces: position.attacking_pieces,
        refuse_attackers: profile.refuse_attackers,
        admissible,
        discretionary: !admissible,
        ending: position.ending.map(|e| e.0),
        loser: position.ending.map(|e| e.1),
        valid: verdict == Verdict::Valid,
        needed,
        verdict,
        certain,
        valid_from_ply: None,
        claimed_at_ply: None,
        moves,
        numbering: MoveNumbering::default(),
    })
}

/// The running count of a claim's window: the claimant's moves by nature, and how many of his
/// attacking moves count under the caps.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    checks: u32,
    mate_threats: u32,
    chases: u32,
    undetermined: u32,
    claimant_moves: u32,
    opponent_moves: u32,
    checks_counted: u32,
    attacks_counted: u32,
}

impl Tally {
    /// Counts the ply `f`: `None` for the opponent's move, else whether the claimant's move is
    /// void (`Some(Some(reason))`) or counts (`Some(None)`).
    fn add(
        &mut self,
        f: &PlyFact,
        claimant: Color,
        profile: &LimitProfile,
    ) -> Option<Option<VoidReason>> {
        if f.side != claimant {
            self.opponent_moves += 1;
            return None;
        }
        let check_cap = profile.check_cap.unwrap_or(u32::MAX);
        let attack_cap = profile.attack_cap.unwrap_or(u32::MAX);
        self.claimant_moves += 1;
        Some(match f.kind {
            NatureKind::Check => {
                self.checks += 1;
                if self.checks_counted >= check_cap {
                    Some(VoidReason::CheckCap)
                } else if self.attacks_counted >= attack_cap {
                    Some(VoidReason::AttackCap)
                } else {
                    self.checks_counted += 1;
                    self.attacks_counted += 1;
                    None
                }
            }
            NatureKind::MateThreat | NatureKind::Chase => {
                if f.kind == NatureKind::MateThreat {
                    self.mate_threats += 1;
                } else {
                    self.chases += 1;
                }
                if self.attacks_counted >= attack_cap {
                    Some(VoidReason::AttackCap)
                } else {
                    self.attacks_counted += 1;
                    None
                }
            }
            NatureKind::Undetermined => {
                self.undetermined += 1;
                None
            }
            NatureKind::Idle => None,
        })
    }

    /// The claimant's moves that count (his moves less the void ones).
    fn counted(&self) -> u32 {
        self.claimant_moves - (self.checks + self.mate_threats + self.chases - self.attacks_counted)
    }

    /// Counted moves the claimant and moves the opponent still need toward `required`.
    fn needed(&self, required: u32) -> (u32, u32) {
        (
            required.saturating_sub(self.counted()),
            required.saturating_sub(self.opponent_moves),
        )
    }
}

/// The first ply at which a claim by `claimant` would have been valid, up to `at_ply` plies
/// (`None`: at none): the claim made after `p` plies for each `p`, counted as [`count`] counts
/// it (the window from the last capture, or from `from_ply` as well with
/// [`CountingMode::FromClaim`]), in one pass over the line. `facts` as [`count`] takes them;
/// `positions[p]` the position after `p` plies (read only where the count is complete).
pub fn valid_from_ply(
    facts: &[PlyFact],
    at_ply: u32,
    claimant: Color,
    profile: &LimitProfile,
    counting: CountingMode,
    from_ply: u32,
    position_at: &mut dyn FnMut(u32) -> ClaimPosition,
) -> Option<u32> {
    let mut tally = Tally::default();
    let start = if counting == CountingMode::FromClaim {
        from_ply
    } else {
        0
    };
    for f in facts.iter().take(at_ply as usize) {
        if f.capture {
            tally = Tally::default();
            continue;
        }
        if f.ply <= start {
            continue;
        }
        tally.add(f, claimant, profile);
        if tally.needed(profile.moves) != (0, 0) {
            continue;
        }
        let position = position_at(f.ply);
        let admissible = profile
            .refuse_attackers
            .is_none_or(|limit| position.attacking_pieces < limit);
        if verdict_of(&position, 0, 0, admissible) == Verdict::Valid {
            return Some(f.ply);
        }
    }
    None
}

fn verdict_of(
    position: &ClaimPosition,
    needed: u32,
    opponent_needed: u32,
    admissible: bool,
) -> Verdict {
    if position.ending.is_some() {
        Verdict::GameOver
    } else if needed > 0 {
        Verdict::ClaimantShort
    } else if opponent_needed > 0 {
        Verdict::OpponentShort
    } else if !admissible {
        Verdict::Inadmissible
    } else {
        Verdict::Valid
    }
}

// ---------------------------------------------------------------------------------------------
// Glue: from a game to facts

/// Replays `moves` from `start` and pairs each with its nature. `natures` must hold one entry per
/// move (as [`classify_line`] returns).
pub fn facts_for_line(
    start: &Position,
    moves: &[Move],
    natures: &[MoveNature],
) -> Result<Vec<PlyFact>, LimitError> {
    if natures.len() != moves.len() {
        return Err(LimitError::BadFacts(format!(
            "{} moves but {} natures",
            moves.len(),
            natures.len()
        )));
    }
    let mut pos = *start;
    let mut facts = Vec::with_capacity(moves.len());
    for (i, (&mv, nature)) in moves.iter().zip(natures).enumerate() {
        if !pos.is_legal(mv) {
            return Err(LimitError::IllegalMove {
                ply: i as u32 + 1,
                mv,
                fen: pos.fen(),
            });
        }
        let side = pos.turn();
        let captured: Option<Piece> = pos.play_unchecked(mv).captured;
        facts.push(PlyFact {
            ply: i as u32 + 1,
            side,
            kind: nature.kind,
            capture: captured.is_some(),
            mv: Some(mv),
        });
    }
    Ok(facts)
}

/// How to count a claim on a game.
#[derive(Clone, Debug, Default)]
pub struct ClaimOptions {
    pub profile: LimitProfile,
    pub counting: CountingMode,
    /// The counting start for [`CountingMode::FromClaim`] (plies played when the claim was made).
    pub from_ply: u32,
    /// The rules profile the move natures are judged with.
    pub rules: Profile,
    /// The claim may be made after the game and is then ruled as at the ply where it became
    /// valid (an event's `claims_after_game`): a later mate does not override a valid claim.
    pub after_game: bool,
}

/// Counts a claim by `claimant` after `at_ply` plies of `moves` (legal moves from `start`),
/// classifying the moves with the rules engine.
pub fn claim(
    start: &Position,
    moves: &[Move],
    claimant: Color,
    at_ply: u32,
    options: &ClaimOptions,
) -> Result<LimitReport, LimitError> {
    if at_ply as usize > moves.len() {
        return Err(LimitError::PlyOutOfRange {
            at_ply,
            plies: moves.len() as u32,
        });
    }
    let moves = &moves[..at_ply as usize];
    let natures = try_classify_line(start, moves, &options.rules).map_err(|(_, e)| match e {
        LineError::Illegal(e) => LimitError::IllegalMove {
            ply: e.index as u32 + 1,
            mv: e.mv,
            fen: e.fen,
        },
        LineError::CalledOff { index } => LimitError::CalledOff {
            ply: index as u32 + 1,
        },
    })?;
    claim_with_natures(start, moves, &natures, claimant, at_ply, options)
}

/// As [`claim`], with natures already computed (one per move of `moves`).
pub fn claim_with_natures(
    start: &Position,
    moves: &[Move],
    natures: &[MoveNature],
    claimant: Color,
    at_ply: u32,
    options: &ClaimOptions,
) -> Result<LimitReport, LimitError> {
    let facts = facts_for_line(start, moves, natures)?;
    if at_ply as usize > moves.len() {
        return Err(LimitError::PlyOutOfRange {
            at_ply,
            plies: moves.len() as u32,
        });
    }
    let position_after = |plies: u32| {
        let mut pos = *start;
        for &m in &moves[..plies as usize] {
            pos.play_unchecked(m);
        }
        pos
    };
    let count_at = |ply: u32| {
        count(
            &facts,
            ply,
            claimant,
            &options.profile,
            options.counting,
            options.from_ply,
            &ClaimPosition::of(&position_after(ply)),
        )
    };
    let mut report = count_at(at_ply)?;
    // (The positions are asked for in order: one replay of the line.)
    let (mut pos, mut played) = (*start, 0u32);
    let valid_from = valid_from_ply(
        &facts,
        at_ply,
        claimant,
        &options.profile,
        options.counting,
        options.from_ply,
        &mut |ply| {
            while played < ply {
                pos.play_unchecked(moves[played as usize]);
                played += 1;
            }
            ClaimPosition::of(&pos)
        },
    );
    if let Some(from) = valid_from
        && options.after_game
        && !report.valid
        && from < at_ply
    {
        report = count_at(from)?;
        report.claimed_at_ply = Some(at_ply);
    }
    report.valid_from_ply = valid_from;
    if report.window_start_ply == 0 {
        report.unrecorded_plies = start.halfmoves();
    }
    report.numbering = MoveNumbering::of(start);
    // Name the claimant's moves in the notations arbiters read.
    let mut pos = *start;
    let mut listed = report.moves.iter_mut().peekable();
    for (i, &m) in moves[..report.at_ply as usize].iter().enumerate() {
        if let Some(cm) = listed.next_if(|cm| cm.ply as usize == i + 1) {
            cm.chinese = Some(print_move(&pos, m, Notation::Chinese));
            cm.wxf = Some(print_move(&pos, m, Notation::Wxf));
        }
        pos.play_unchecked(m);
    }
    Ok(report)
}

/// The natural-limit status for both possible claimants: the `natural_limit` section of the
/// adjudication report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NaturalLimitStatus {
    pub red: LimitReport,
    pub black: LimitReport,
}

/// The status for both claimants after `at_ply` plies of `moves`, with the natures the
/// adjudicator has already computed (one per move of `moves`, or at least `at_ply` of them).
pub fn natural_limit_status(
    start: &Position,
    moves: &[Move],
    natures: &[MoveNature],
    at_ply: u32,
    options: &ClaimOptions,
) -> Result<NaturalLimitStatus, LimitError> {
    let n = (at_ply as usize).min(moves.len()).min(natures.len());
    if at_ply as usize > n {
        return Err(LimitError::PlyOutOfRange {
            at_ply,
            plies: n as u32,
        });
    }
    let (moves, natures) = (&moves[..n], &natures[..n]);
    Ok(NaturalLimitStatus {
        red: claim_with_natures(start, moves, natures, Color::Red, at_ply, options)?,
        black: claim_with_natures(start, moves, natures, Color::Black, at_ply, options)?,
    })
}

// ---------------------------------------------------------------------------------------------
// Text report

/// Language of the text report.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl std::str::FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        match s {
            "en" => Ok(Lang::En),
            "zh" => Ok(Lang::Zh),
            _ => Err(format!("unknown language '{s}' (expected zh or en)")),
        }
    }
}

fn nature_name(k: NatureKind, lang: Lang) -> &'static str {
    match (k, lang) {
        (NatureKind::Check, Lang::En) => "check",
        (NatureKind::MateThreat, Lang::En) => "mate threat",
        (NatureKind::Chase, Lang::En) => "chase",
        (NatureKind::Idle, Lang::En) => "idle",
        (NatureKind::Undetermined, Lang::En) => "undetermined",
        (NatureKind::Check, Lang::Zh) => "将",
        (NatureKind::MateThreat, Lang::Zh) => "杀",
        (NatureKind::Chase, Lang::Zh) => "捉",
        (NatureKind::Idle, Lang::Zh) => "闲",
        (NatureKind::Undetermined, Lang::Zh) => "未定",
    }
}

/// A limit profile's title: 慢棋, 快棋 ... in Chinese; its name in English.
pub fn profile_title(name: &str, lang: Lang) -> String {
    match (name, lang) {
        ("slow", Lang::Zh) => "慢棋".into(),
        ("rapid", Lang::Zh) => "快棋".into(),
        ("armageddon", Lang::Zh) => "超快棋附加赛".into(),
        ("amateur40", Lang::Zh) => "业余40回合".into(),
        (n, _) => n.into(),
    }
}

/// The runs of a list of plies of one side: plies two apart, as (first, last).
fn ply_runs(plies: &[u32]) -> Vec<(u32, u32)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < plies.len() {
        let mut j = i;
        while j + 1 < plies.len() && plies[j + 1] == plies[j] + 2 {
            j += 1;
        }
        runs.push((plies[i], plies[j]));
        i = j + 1;
    }
    runs
}

impl LimitReport {
    /// The rule applied, in a sentence or two.
    pub fn rule_text(&self, lang: Lang) -> String {
        let n = self.required;
        let mut s = match lang {
            Lang::En => format!(
                "Natural move limit ({}): a draw may be claimed when neither side has captured for {n} moves. \
                 Of the claimant's checks, mate threats and chases {}; {}; moves beyond a cap are void and do not count.",
                self.profile,
                match self.attack_cap {
                    Some(c) => format!("at most {c} count"),
                    None => "all count (no cap)".into(),
                },
                match self.check_cap {
                    Some(0) => "checks never count".to_string(),
                    Some(c) => format!("of them at most {c} checks"),
                    None => "checks have no separate cap".into(),
                }
            ),
            Lang::Zh => format!(
                "自然限着（{}）：双方连续{n}回合未吃子，可要求判和。提和方的将、杀、捉{}，{}，超出部分为废着，不计回合。",
                profile_title(&self.profile, lang),
                match self.attack_cap {
                    Some(c) => format!("合计最多计{c}着"),
                    None => "不限着数".into(),
                },
                match self.check_cap {
                    Some(0) => "将军一律不计".to_string(),
                    Some(c) => format!("其中将最多计{c}着"),
                    None => "将不另设限".into(),
                }
            ),
        };
        if let Some(k) = self.refuse_attackers {
            s.push_str(&match lang {
                Lang::En => format!(
                    " With {k} or more attacking pieces (rook, horse, cannon, crossed pawn; both sides) on the board the claim is in principle refused."
                ),
                Lang::Zh => format!("场上双方进攻子力（车、马、炮、过河兵卒）合计{k}个或以上时，原则上不予判和。"),
            });
        }
        s
    }

    /// The verdict, one sentence.
    pub fn verdict_text(&self, lang: Lang) -> String {
        let c = self.claimant;
        match (self.verdict, lang) {
            (Verdict::Valid, Lang::En) => format!("VALID: {c}'s claim stands, the game is drawn."),
            (Verdict::Valid, Lang::Zh) => format!("提和成立：{}方要求成立，判和。", c.name_zh()),
            (Verdict::GameOver, Lang::En) => format!(
                "NOT VALID: {} is {} on the board at move {}, ply {}; the result on the board takes precedence over the draw.",
                self.loser.map_or("the side to move", |l| l.name()),
                match self.ending {
                    Some(Ending::Stalemate) => "stalemated (no legal move: loses)",
                    _ => "checkmated",
                },
                self.numbering.of_ply(self.at_ply),
                self.at_ply
            ),
            (Verdict::GameOver, Lang::Zh) => format!(
                "提和不成立：第{}回合（第{}步）{}方被{}，棋局已分胜负，胜负优先于限着和棋。",
                self.numbering.of_ply(self.at_ply),
                self.at_ply,
                self.loser.map_or("", |l| l.name_zh()),
                match self.ending {
                    Some(Ending::Stalemate) => "困毙",
                    _ => "将死",
                }
            ),
            (Verdict::ClaimantShort, Lang::En) => format!(
                "NOT VALID: {c} has {} counted moves of {}; {} more needed{}.",
                self.counted,
                self.required,
                self.needed,
                if self.opponent_needed > 0 {
                    format!(" ({} more from {})", self.opponent_needed, c.other())
                } else {
                    String::new()
                }
            ),
            (Verdict::ClaimantShort, Lang::Zh) => format!(
                "提和不成立：{}方计入{}着，须{}着，尚差{}着{}。",
                c.name_zh(),
                self.counted,
                self.required,
                self.needed,
                if self.opponent_needed > 0 {
                    format!(
                        "（{}方尚差{}着）",
                        c.other().name_zh(),
                        self.opponent_needed
                    )
                } else {
                    String::new()
                }
            ),
            (Verdict::OpponentShort, Lang::En) => format!(
                "NOT VALID: {} has made {} moves of {} in the window; {} more needed.",
                c.other(),
                self.opponent_moves,
                self.required,
                self.opponent_needed
            ),
            (Verdict::OpponentShort, Lang::Zh) => format!(
                "提和不成立：{}方在计数范围内只走了{}着，须{}着，尚差{}着。",
                c.other().name_zh(),
                self.opponent_moves,
                self.required,
                self.opponent_needed
            ),
            (Verdict::Inadmissible, Lang::En) => format!(
                "REFUSED (at the arbiter's discretion): the count is reached, but {} attacking pieces are on the board.",
                self.attacking_pieces
            ),
            (Verdict::Inadmissible, Lang::Zh) => format!(
                "原则上不予判和（裁判酌情）：回合数已够，但场上有{}个进攻子力。",
                self.attacking_pieces
            ),
        }
    }

    /// One short line for a picture caption.
    pub fn caption(&self, lang: Lang) -> String {
        let c = self.claimant;
        let ending_zh = match self.ending {
            Some(Ending::Stalemate) => "困毙",
            _ => "将死",
        };
        match lang {
            Lang::En => format!(
                "{c} claims at move {}, ply {} ({}): {}",
                self.numbering.of_ply(self.at_ply),
                self.at_ply,
                self.profile,
                match self.verdict {
                    Verdict::Valid => format!("valid, draw ({}/{})", self.counted, self.required),
                    Verdict::GameOver => format!(
                        "{} wins over the draw",
                        match self.ending {
                            Some(Ending::Stalemate) => "stalemate",
                            _ => "checkmate",
                        }
                    ),
                    Verdict::ClaimantShort =>
                        format!("not valid, {} more moves needed", self.needed),
                    Verdict::OpponentShort => format!(
                        "not valid, {} needs {} more",
                        c.other(),
                        self.opponent_needed
                    ),
                    Verdict::Inadmissible =>
                        format!("refused, {} attacking pieces", self.attacking_pieces),
                }
            ),
            Lang::Zh => format!(
                "{}方第{}回合（第{}步）提和，{}：{}",
                c.name_zh(),
                self.numbering.of_ply(self.at_ply),
                self.at_ply,
                profile_title(&self.profile, lang),
                match self.verdict {
                    Verdict::Valid => "成立，判和".to_string(),
                    Verdict::GameOver => format!("{}优先，不成立", ending_zh),
                    Verdict::ClaimantShort => format!("不成立，尚差{}着", self.needed),
                    Verdict::OpponentShort => format!(
                        "不成立，{}方尚差{}着",
                        c.other().name_zh(),
                        self.opponent_needed
                    ),
                    Verdict::Inadmissible =>
                        format!("原则上不予判和（{}个进攻子力）", self.attacking_pieces),
                }
            ),
        }
    }

    /// The full text report.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = String::new();
        let c = self.claimant;
        let (void_moves, counted_attacks): (Vec<&CountedMove>, Vec<&CountedMove>) = self
            .moves
            .iter()
            .filter(|m| m.nature != NatureKind::Idle)
            .partition(|m| m.void.is_some());
        let num = |ply: u32| self.numbering.of_ply(ply);
        let line = |m: &CountedMove| -> String {
            let name = match lang {
                Lang::En => m.wxf.as_deref(),
                Lang::Zh => m.chinese.as_deref(),
            };
            let mv = match (m.mv, name) {
                (Some(mv), Some(n)) => format!(" {mv} {n}"),
                (Some(mv), None) => format!(" {mv}"),
                (None, Some(n)) => format!(" {n}"),
                (None, None) => String::new(),
            };
            let no_checks = self.check_cap == Some(0);
            let why = match (m.void, lang) {
                // (With a check cap of 0, as the rule text says: checks never count.)
                (Some(VoidReason::CheckCap), Lang::En) if no_checks => {
                    " (void: checks never count)"
                }
                (Some(VoidReason::CheckCap), Lang::Zh) if no_checks => "（不计：将军一律不计）",
                (Some(VoidReason::CheckCap), Lang::En) => " (void: beyond the check cap)",
                (Some(VoidReason::AttackCap), Lang::En) => " (void: beyond the attack cap)",
                (Some(VoidReason::CheckCap), Lang::Zh) => "（不计：超出将军限额）",
                (Some(VoidReason::AttackCap), Lang::Zh) => "（不计：超出攻着限额）",
                (None, _) => "",
            };
            if lang == Lang::Zh {
                // (The Chinese notation only: the squares belong to the English rows.)
                let mv = m.chinese.as_deref().map_or_else(
                    || m.mv.map_or_else(String::new, |mv| mv.to_string()),
                    str::to_owned,
                );
                return format!(
                    "    第{:>3}回合 第{:>3}步 {mv} {}{why}\n",
                    num(m.ply),
                    m.ply,
                    nature_name(m.nature, lang)
                );
            }
            format!(
                "    move {:>3}, ply {:>3}:{mv} {}{why}\n",
                num(m.ply),
                m.ply,
                nature_name(m.nature, lang)
            )
        };
        let idle: Vec<u32> = self
            .moves
            .iter()
            .filter(|m| m.nature == NatureKind::Idle)
            .map(|m| m.ply)
            .collect();
        // One layout for both languages: each line picks its wording.
        let zh = lang == Lang::Zh;
        let say = |en: String, zh_text: String| if zh { zh_text } else { en };
        let window = if self.window_end_ply == self.window_start_ply {
            say("empty".into(), "空".into())
        } else {
            let (from, to) = (self.window_start_ply + 1, self.window_end_ply);
            let (a, b) = (num(from), num(to));
            say(
                format!("moves {a}-{b}, plies {from}-{to}"),
                format!("第{a}-{b}回合（第{from}-{to}步）"),
            )
        };
        let origin = match (self.last_capture_ply, self.counting) {
            (_, CountingMode::FromClaim)
                if Some(self.window_start_ply) != self.last_capture_ply =>
            {
                let p = self.window_start_ply;
                let m = num(p);
                say(
                    format!("counting from the claim at move {m}, ply {p}"),
                    format!("自第{m}回合（第{p}步）提出时起"),
                )
            }
            (Some(p), _) => {
                let m = num(p);
                say(
                    format!("after the capture at move {m}, ply {p}"),
                    format!("第{m}回合（第{p}步）吃子之后"),
                )
            }
            (None, _) => say("no capture since the start".into(), "开局以来未吃子".into()),
        };
        let undetermined = match (self.undetermined, zh) {
            (0, _) => String::new(),
            (u, false) => format!(", {u} undetermined (counted as idle)"),
            (u, true) => format!("、性质未定{u}着（按闲着计）"),
        };
        let admissibility = match (self.admissible, self.refuse_attackers) {
            (true, None) => say("no test in this profile".into(), "本规则不作限制".into()),
            (true, Some(k)) => say(
                format!("admissible (fewer than {k})"),
                format!("少于{k}个，可以受理"),
            ),
            (false, _) => say(
                "in principle refused (discretionary)".into(),
                "原则上不予判和（裁判酌情）".into(),
            ),
        };
        let (cz, oz) = (c.name_zh(), c.other().name_zh());
        let (at, n) = (self.at_ply, self.claimant_moves);
        let at_move = num(at);
        let (checks, threats, chases) = (self.checks, self.mate_threats, self.chases);
        let (void, counted, required) = (self.void, self.counted, self.required);
        out += &say(
            format!(
                "Natural move limit claim by {c} at move {at_move}, ply {at} (profile {}, counting {})\n",
                self.profile,
                self.counting.name()
            ),
            format!(
                "自然限着提和：{cz}方，第{at_move}回合（第{at}步）；{}，计数方式：{}\n",
                profile_title(&self.profile, lang),
                match self.counting {
                    CountingMode::FromCapture => "自最后吃子起",
                    CountingMode::FromClaim => "自提出时起",
                }
            ),
        );
        out += &format!("{}\n", self.verdict_text(lang));
        if let Some(made) = self.claimed_at_ply {
            let made_move = num(made);
            out += &say(
                format!(
                    "Claimed after the game (move {made_move}, ply {made}), before signing: the event rules it as at move {at_move}, ply {at}, when it became valid; what was played after (a mate or a flag fall) does not override it.\n"
                ),
                format!(
                    "对局终了后（签字前）提出（第{made_move}回合，第{made}步）：按本赛事规定，以限着成立时（第{at_move}回合，第{at}步）为准，其后的着法（将死或超时）不改变判和。\n"
                ),
            );
        }
        out += &match self.valid_from_ply {
            Some(p) => say(
                format!("This claim is valid from move {} (ply {p}).\n", num(p)),
                format!("此提和自第{}回合（第{p}步）起成立。\n", num(p)),
            ),
            None => say(
                format!("This claim was valid at no ply up to ply {at}.\n"),
                format!("至第{at}步为止，此提和在任何时候均不成立。\n"),
            ),
        };
        out += &say(
            format!("Window: {window} ({origin})\n"),
            format!("计数范围：{window}，{origin}\n"),
        );
        out += &say(
            format!(
                "{c}: {n} moves: {checks} checks, {threats} mate threats, {chases} chases{undetermined}; {void} void; {counted} counted of {required} required\n"
            ),
            format!(
                "{cz}方：共{n}着，其中将{checks}着、杀{threats}着、捉{chases}着{undetermined}；不计{void}着；计入{counted}着，须{required}着\n"
            ),
        );
        let opp = self.opponent_moves;
        out += &say(
            format!("{}: {opp} moves of {required} required\n", c.other()),
            format!("{oz}方：共{opp}着，须{required}着\n"),
        );
        let pieces = self.attacking_pieces;
        out += &say(
            format!("Admissibility: {pieces} attacking piece(s) on the board: {admissibility}\n"),
            format!("进攻子力：场上{pieces}个，{admissibility}\n"),
        );
        if !counted_attacks.is_empty() {
            out += if zh {
                "计入的攻着：\n"
            } else {
                "Counted attacking moves:\n"
            };
            counted_attacks.iter().for_each(|m| out += &line(m));
        }
        if !void_moves.is_empty() {
            out += if zh {
                "不计的着法：\n"
            } else {
                "Void moves:\n"
            };
            void_moves.iter().for_each(|m| out += &line(m));
        }
        if !idle.is_empty() {
            out += &say(
                format!(
                    "Idle moves (counted): {}\n",
                    ply_runs(&idle)
                        .iter()
                        .map(|&(a, b)| if a == b {
                            format!("move {} (ply {a})", num(a))
                        } else {
                            format!("moves {}-{} (plies {a}-{b})", num(a), num(b))
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                format!(
                    "闲着（计入）：{}\n",
                    ply_runs(&idle)
                        .iter()
                        .map(|&(a, b)| if a == b {
                            format!("第{}回合（第{a}步）", num(a))
                        } else {
                            format!("第{}-{}回合（第{a}-{b}步）", num(a), num(b))
                        })
                        .collect::<Vec<_>>()
                        .join("、")
                ),
            );
        }
        if !self.certain {
            out += if zh {
                "注意：结论取决于性质未定的着法。\n"
            } else {
                "Caution: the verdict depends on moves whose nature is undetermined.\n"
            };
        }
        if self.unrecorded_plies > 0 {
            let u = self.unrecorded_plies;
            out += &say(
                format!(
                    "Note: the record starts from a set-up position {u} plies after the last capture; those plies are not on the score sheet and are not counted.\n"
                ),
                format!(
                    "说明：棋谱自排局开始，局面表明此前已有{u}步未吃子；这些着法不在记录中，不计入。\n"
                ),
            );
        }
        out += &say(
            format!("Rule: {}\n", self.rule_text(lang)),
            format!("规则：{}\n", self.rule_text(lang)),
        );
        out
    }
}
