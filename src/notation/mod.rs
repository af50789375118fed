//! Move notations: read one move against a position, print any legal move.
//!
//! Three notations are supported, chosen with [`Notation`]:
//!
//! * [`Notation::Iccs`]: coordinates, `h2e2`, `H2-E2`, `h2-e2` (see [`iccs`]). The rank-1..10 dialect
//!   of Fairy-Stockfish and pychess (`h3e3`, `h10g8`) is read only when asked for explicitly, with
//!   [`ParseOptions::iccs_one_based`]; [`sniff_iccs_ranks`] tells which dialect a token must be in.
//! * [`Notation::Wxf`]: WXF file notation in Latin letters, `C2.5`, `H8+7`, `R+.4`, `+C-1`, `++.4`,
//!   `3+.4` (see [`wxf`]).
//! * [`Notation::Chinese`]: 炮二平五, 马８进７, 前车平四, 一兵平四, 前九平八 (see [`chinese`]).
//!
//! [`parse_move`] resolves a token against a position and checks that the move is legal. Tokens
//! that are ambiguous on paper but that only one piece can legally play (馬八退六 with two horses on
//! 八) are accepted and flagged with [`ParsedMove::resolved_by_legality`]. Failures come back as a
//! [`MoveError`] that says what kind of problem it is ([`MoveError::kind`]), why, which pieces were
//! candidates for an ambiguous token, and which legal moves the writer probably meant
//! ([`MoveError::suggestions`]).
//!
//! [`print_move`] writes a legal move. The conventions of the writers:
//!
//! * ICCS: lower case without a hyphen (`h2e2`), ranks 0-9.
//! * WXF: the official WXF forms: letters `K A E H R C P`, `.` for a sideways move, `C+.5` / `C-.5`
//!   for two pieces on one file, for 3 pawns on one file `P+`, `P<file>` (the middle one), `P-`, for
//!   4-5 pawns `++`, `P+`, (`P<file>`), `P-`, `--`, and for tandem pawns on two files `3+`, `33`, `3-`.
//! * Chinese: the xqbase convention (象棋百科全书, ElephantEye): simplified characters with the
//!   side's own glyphs (帅/将, 仕/士, 相/象, 马, 车, 炮, 兵/卒), Chinese numerals for Red and
//!   **full-width** digits for Black (马８进７), 前/后 for two pieces on a file, 前/中/后 for three
//!   pawns on one file, and 一二三四五 (counted over every file holding two or more pawns, files taken
//!   from the mover's right, front to back within a file) for four or five pawns on one file or
//!   tandem pawns on two files. Advisors and elephants never take a qualifier.
//!
//! ```
//! use xiangqi_arbiter::notation::{Notation, ParseOptions, parse_move, parse_move_with, print_move};
//! use xiangqi_arbiter::Position;
//!
//! let pos = Position::start();
//! let p = parse_move(&pos, "炮二平五", Notation::Chinese).unwrap();
//! assert_eq!(p.mv.to_string(), "h2e2");
//! assert_eq!(print_move(&pos, p.mv, Notation::Wxf), "C2.5");
//! assert_eq!(parse_move(&pos, "H2-E2", Notation::Iccs).unwrap().mv, p.mv);
//!
//! // The 1-10 rank dialect is read only on request.
//! let one_based = ParseOptions { iccs_one_based: true, ..Default::default() };
//! assert_eq!(parse_move_with(&pos, "h3e3", Notation::Iccs, &one_based).unwrap().mv, p.mv);
//!
//! // Errors say what kind of problem it is, why, and what was probably meant.
//! let e = parse_move(&pos, "马八平七", Notation::Chinese).unwrap_err();
//! assert_eq!(e.kind(), "illegal_movement");
//! let e = parse_move(&pos, "车一退一", Notation::Chinese).unwrap_err();
//! assert_eq!(e.suggestions()[0], "车一进一");
//! ```
//!
//! Other entry points: [`write_move`] (append to a buffer), [`chinese::write_dpxq`] (the dpxq
//! tandem-pawn convention, 前九平八), [`iccs::format_one_based`], [`check_move`] /
//! [`is_legal_move`] (fast legality with the same explained errors, for square-based records),
//! [`sniff`] / [`sniff_iccs_ranks`] (guess a token's notation), [`list_moves`] and
//! [`moves_report`] (`xqa moves`).
//!
//! Parsing is allocation-free on success and tests legality of the one or two candidate moves
//! directly (pseudo-legal target test plus one king-safety test), without generating all legal moves.

pub mod chinese;
pub mod iccs;
pub mod wxf;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, File, Move, Role, Square};
use arrayvec::ArrayVec;
use std::fmt;
use std::str::FromStr;

/// A move notation.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    /// ICCS / UCCI coordinates (`h2e2`, `H2-E2`).
    Iccs,
    /// WXF file notation in Latin letters (`C2.5`).
    Wxf,
    /// Chinese file notation (炮二平五).
    Chinese,
}

impl Notation {
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    /// `"iccs"`, `"wxf"` or `"chinese"`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl Notation {
    /// `"ICCS"`, `"WXF"` or `"Chinese"`, as in a PGN `[Format]` tag.
    pub const fn label(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = String;
    /// Case-insensitive `iccs` (also `ucci`), `wxf`, `chinese` (also `zh`).
    fn from_str(s: &str) -> Result<Notation, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" | "ucci" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "zh" => Ok(Notation::Chinese),
            _ => Err(format!(
                "unknown notation '{s}' (expected iccs, wxf or chinese)"
            )),
        }
    }
}

/// Options of [`parse_move_with`]. The default reads the standard forms.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// ICCS ranks are written 1..10 (Fairy-Stockfish / pychess "UCI": `h3e3` for `h2e2`, `h10g8`)
    /// instead of 0..9. Off by default: the dialect must be selected explicitly.
    pub iccs_one_based: bool,
    /// xqbase reading of qualifiers for tandem pawns: a plain 前兵/后兵/中兵 (WXF `P+`, `P-`) with
    /// tandem pawns on two files picks from the xqbase list of all tandem pawns (前 = 一兵), and
    /// `P+`/`P-` with 4-5 pawns on a file are the first and third, as ElephantEye reads them.
    /// Off by default: such tokens are reported as ambiguous.
    pub xqbase_tandem: bool,
}

/// A move read from text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParsedMove {
    pub mv: Move,
    /// The token is ambiguous on paper: a plain file form naming a file that holds two or more
    /// rooks, horses, cannons or pawns of the mover (or advisors/elephants that could both reach
    /// the destination), resolved because only one of them can legally make the move. Standard
    /// notation would have used a qualifier (前/后, +/-); readers may want to warn. (WXF's plain
    /// file digit for the middle one of 3 or 5 pawns is standard and not flagged.)
    pub resolved_by_legality: bool,
}

/// What kind of problem a [`MoveError`] reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveErrorKind {
    /// Not a move in that notation.
    Syntax,
    /// No piece matches the description (no such piece on that file or square, no two such pieces
    /// sharing a file for a 前/后 qualifier, ...).
    NoPiece,
    /// The square holds a piece of the side not to move.
    WrongSide,
    /// Several pieces match and more than one reading is possible.
    Ambiguous,
    /// The piece cannot move so (blocked leg or eye, river, palace, path, geometry).
    IllegalMovement,
    /// The move leaves (or puts) the own king in check.
    LeavesKingInCheck,
    /// The move leaves the two kings facing each other on an open file.
    KingsFacing,
}

impl MoveErrorKind {
    /// The stable snake_case name used in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            MoveErrorKind::Syntax => "syntax",
            MoveErrorKind::NoPiece => "no_piece",
            MoveErrorKind::WrongSide => "wrong_side",
            MoveErrorKind::Ambiguous => "ambiguous",
            MoveErrorKind::IllegalMovement => "illegal_movement",
            MoveErrorKind::LeavesKingInCheck => "leaves_king_in_check",
            MoveErrorKind::KingsFacing => "kings_facing",
        }
    }
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug)]
struct ErrorInner {
    kind: MoveErrorKind,
    notation: Notation,
    text: String,
    message: String,
    candidates: Vec<Move>,
    suggestions: Vec<String>,
}

/// Why a move token was rejected.
#[derive(Clone, Debug)]
pub struct MoveError(Box<ErrorInner>);

impl MoveError {
    fn new(kind: MoveErrorKind, notation: Notation, text: &str, message: String) -> MoveError {
        MoveError(Box::new(ErrorInner {
            kind,
            notation,
            text: text.to_string(),
            message,
            candidates: Vec::new(),
            suggestions: Vec::new(),
        }))
    }

    fn with_candidates(mut self, c: Vec<Move>) -> MoveError {
        self.0.candidates = c;
        self
    }

    fn with_suggestions(mut self, s: Vec<String>) -> MoveError {
        self.0.suggestions = s;
        self
    }

    /// Stable kind name: `syntax`, `no_piece`, `wrong_side`, `ambiguous`, `illegal_movement`,
    /// `leaves_king_in_check`, `kings_facing`.
    pub fn kind(&self) -> &'static str {
        self.0.kind.as_str()
    }

    /// The kind as an enum.
    pub fn error_kind(&self) -> MoveErrorKind {
        self.0.kind
    }

    /// Whether the token could not be read at all (as opposed to a readable but wrong move).
    pub fn is_syntax(&self) -> bool {
        self.0.kind == MoveErrorKind::Syntax
    }

    /// The notation the token was read in.
    pub fn notation(&self) -> Notation {
        self.0.notation
    }

    /// The move text as given.
    pub fn text(&self) -> &str {
        &self.0.text
    }

    /// What is wrong, in English, without the move text.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// For an ambiguous token: every move it could mean (legal or not); otherwise the moves that
    /// were tried.
    pub fn candidates(&self) -> &[Move] {
        &self.0.candidates
    }

    /// Legal moves the writer probably meant, printed in the same notation, most likely first.
    pub fn suggestions(&self) -> Vec<String> {
        self.0.suggestions.clone()
    }
}

/// The message only (as [`MoveError::message`]); the suggestions are separate.
impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for MoveError {}

/// `{"kind","message","text","notation","candidates","suggestions"}` (candidates in ICCS).
impl serde::Serialize for MoveError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("MoveError", 6)?;
        st.serialize_field("kind", self.kind())?;
        st.serialize_field("message", self.message())?;
        st.serialize_field("text", self.text())?;
        st.serialize_field("notation", &self.0.notation)?;
        st.serialize_field("candidates", &self.0.candidates)?;
        st.serialize_field("suggestions", &self.0.suggestions)?;
        st.end()
    }
}

/// Reads one move in `notation` and checks that it is legal in `pos`. Standard options.
pub fn parse_move(pos: &Position, text: &str, notation: Notation) -> Result<ParsedMove, MoveError> {
    parse_move_with(pos, text, notation, &ParseOptions::default())
}

/// Reads one move with explicit [`ParseOptions`].
pub fn parse_move_with(
    pos: &Position,
    text: &str,
    notation: Notation,
    opts: &ParseOptions,
) -> Result<ParsedMove, MoveError> {
    let result = match notation {
        Notation::Iccs => iccs::parse(pos, text, opts),
        Notation::Wxf => wxf::parse(pos, text, opts),
        Notation::Chinese => chinese::parse(pos, text, opts),
    };
    result.map_err(|mut e| {
        if e.0.suggestions.is_empty() {
            e.0.suggestions = repairs(pos, text, notation, opts);
        }
        e
    })
}

/// Reads a token to a legal move without building any error (for trying repairs).
fn quiet_parse(
    pos: &Position,
    text: &str,
    notation: Notation,
    opts: &ParseOptions,
) -> Option<Move> {
    match notation {
        Notation::Iccs => {
            iccs::parse_syntax(text, opts.iccs_one_based).filter(|m| is_legal_fast(pos, *m))
        }
        Notation::Wxf => wxf::describe(text)
            .and_then(|d| try_resolve(pos, &d, opts, notation))
            .map(|p| p.mv),
        Notation::Chinese => chinese::describe(text)
            .and_then(|d| try_resolve(pos, &d, opts, notation))
            .map(|p| p.mv),
    }
}

/// Legal moves one typo away from a token: one character replaced, or two neighbours swapped.
fn repairs(pos: &Position, text: &str, notation: Notation, opts: &ParseOptions) -> Vec<String> {
    const CHINESE: &str = "车马炮兵相仕帅前中后一二三四五六七八九进退平";
    const WXF: &str = "KAEHRCP123456789+-.";
    const ICCS: &str = "abcdefghi0123456789";
    let chars: Vec<char> = text.trim().chars().map(fold_width).collect();
    if chars.is_empty() || chars.len() > 6 {
        return Vec::new();
    }
    let alphabet = match notation {
        Notation::Iccs => ICCS,
        Notation::Wxf => WXF,
        Notation::Chinese => CHINESE,
    };
    let mut found: Vec<Move> = Vec::new();
    let try_text = |t: &[char], found: &mut Vec<Move>| {
        let s: String = t.iter().collect();
        if let Some(m) = quiet_parse(pos, &s, notation, opts)
            && !found.contains(&m)
        {
            found.push(m);
        }
    };
    let mut t = chars.clone();
    for i in 0..chars.len() {
        for c in alphabet.chars() {
            if c != chars[i] {
                t[i] = c;
                try_text(&t, &mut found);
            }
        }
        t[i] = chars[i];
    }
    for i in 1..chars.len() {
        t.swap(i - 1, i);
        try_text(&t, &mut found);
        t.swap(i - 1, i);
    }
    found.truncate(6);
    found
        .into_iter()
        .map(|m| print_move(pos, m, notation))
        .collect()
}

/// Writes the legal move `m` of `pos` in `notation` (see the module docs for the conventions).
/// A move whose origin is empty is written in ICCS whatever the notation.
pub fn print_move(pos: &Position, m: Move, notation: Notation) -> String {
    let mut s = String::with_capacity(12);
    write_move(pos, m, notation, &mut s);
    s
}

/// Appends the move to `out` (as [`print_move`], without allocating a new string).
pub fn write_move(pos: &Position, m: Move, notation: Notation, out: &mut String) {
    match notation {
        Notation::Iccs => iccs::write(m, false, out),
        Notation::Wxf => wxf::write(pos, m, out),
        Notation::Chinese => chinese::write(pos, m, out),
    }
}

/// Checks a move given as squares (from a binary or coordinate record: XQF, CBR, DhtmlXQ):
/// `Ok` when legal, else the same error kinds and reasons as [`parse_move`] (text = the move in
/// ICCS). Allocation-free and without generating the move list when the move is legal.
pub fn check_move(pos: &Position, m: Move) -> Result<(), MoveError> {
    if is_legal_fast(pos, m) {
        return Ok(());
    }
    let (kind, msg) = explain_illegal(pos, m)
        .unwrap_or((MoveErrorKind::IllegalMovement, format!("{m} is not legal")));
    Err(MoveError::new(kind, Notation::Iccs, &m.to_string(), msg).with_candidates(vec![m]))
}

/// Whether `m` is legal in `pos`: one pseudo-legal target test and one king-safety test, no move
/// list (faster than [`Position::is_legal`]).
#[inline]
pub fn is_legal_move(pos: &Position, m: Move) -> bool {
    is_legal_fast(pos, m)
}

/// Guesses the notation of one move token: Chinese when it holds Chinese move characters, ICCS
/// for coordinates (either rank dialect), WXF for the WXF forms. `None` for anything else (move
/// numbers, results, comments).
pub fn sniff(text: &str) -> Option<Notation> {
    if chinese::looks_like(text) {
        Some(Notation::Chinese)
    } else if iccs::looks_like(text) {
        Some(Notation::Iccs)
    } else if wxf::looks_like(text) {
        Some(Notation::Wxf)
    } else {
        None
    }
}

/// The rank dialect of an ICCS token, when the token decides it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IccsRanks {
    /// Ranks 0-9 (ICCS, UCCI).
    ZeroBased,
    /// Ranks 1-10 (Fairy-Stockfish style UCI).
    OneBased,
}

/// Which ICCS rank dialect a token must be in: a rank `0` means 0-9, a rank `10` means 1-10;
/// `None` when the token fits both (scan a whole game: the first deciding token settles it).
pub fn sniff_iccs_ranks(text: &str) -> Option<IccsRanks> {
    iccs::rank_dialect(text)
}

/// Every legal move of `pos` with its text in `notation`, sorted by ICCS.
pub fn list_moves(pos: &Position, notation: Notation) -> Vec<(Move, String)> {
    let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves.sort_by_key(|m| (m.from.file(), m.from.rank(), m.to.file(), m.to.rank()));
    moves
        .into_iter()
        .map(|m| (m, print_move(pos, m, notation)))
        .collect()
}

/// The text of `xqa moves`: the legal moves of `pos` in `notation`, one per line (with the ICCS
/// name alongside for the file notations) and a count, or one JSON object
/// `{"fen","turn","notation","count","moves":[{"iccs","text"}]}` followed by a newline.
pub fn moves_report(pos: &Position, notation: Notation, json: bool) -> String {
    let moves = list_moves(pos, notation);
    if json {
        let list: Vec<serde_json::Value> = moves
            .iter()
            .map(|(m, t)| serde_json::json!({"iccs": m.to_string(), "text": t}))
            .collect();
        let obj = serde_json::json!({
            "fen": pos.fen(),
            "turn": pos.turn(),
            "notation": notation,
            "count": moves.len(),
            "moves": list,
        });
        return format!("{obj}\n");
    }
    let mut out = String::new();
    for (m, t) in &moves {
        if notation == Notation::Iccs {
            out.push_str(t);
        } else {
            out.push_str(&format!("{t}\t{m}"));
        }
        out.push('\n');
    }
    let state = if moves.is_empty() {
        if pos.is_check() {
            " (checkmated)"
        } else {
            " (stalemated: loses)"
        }
    } else {
        ""
    };
    out.push_str(&format!(
        "{} legal moves for {}{state}\n",
        moves.len(),
        pos.turn()
    ));
    out
}

// ------------------------------------------------------------------------------------------
// Character normalisation shared by the readers.

/// Folds full-width ASCII (U+FF01..U+FF5E) and the ideographic space to ASCII.
#[inline]
pub(crate) fn fold_width(c: char) -> char {
    let u = c as u32;
    if (0xFF01..=0xFF5E).contains(&u) {
        char::from_u32(u - 0xFEE0).unwrap_or(c)
    } else if u == 0x3000 {
        ' '
    } else {
        c
    }
}

/// Up to 8 characters of a move token, width-folded, with white space and trailing annotation
/// marks (`!`, `?`, and for WXF/ICCS the check marks `+`, `#`) removed.
pub(crate) type Chars = ArrayVec<char, 8>;

/// Splits a token into folded characters. `None` when it is longer than 8 characters.
pub(crate) fn token_chars(text: &str, strip_checks: bool) -> Option<Chars> {
    let mut out = Chars::new();
    for c in text.chars() {
        let c = fold_width(c);
        // White space (the ideographic space folds to ' '), byte-order marks, zero-width spaces.
        if c.is_ascii_whitespace() || matches!(c, '\u{feff}' | '\u{200b}' | '\u{a0}') {
            continue;
        }
        if out.try_push(c).is_err() {
            return None;
        }
    }
    while let Some(&last) = out.last() {
        let strip = matches!(last, '!' | '?') || (strip_checks && matches!(last, '+' | '#'));
        if strip && out.len() > 1 {
            out.pop();
        } else {
            break;
        }
    }
    Some(out)
}

// ------------------------------------------------------------------------------------------
// Legality: the fast test and the explanation of a failure.

/// Points the piece of `us` on `from` (of `role`) can move to by its own movement, ignoring the
/// safety of its king.
#[inline]
pub(crate) fn pseudo_targets(pos: &Position, from: Square, role: Role, us: Color) -> Bitboard {
    let own = pos.by_color(us);
    let occ = pos.occupied();
    match role {
        Role::Rook => attacks::rook_attacks(from, occ, pos.occupied_rotated()) - own,
        Role::Cannon => {
            let rot = pos.occupied_rotated();
            (attacks::rook_attacks(from, occ, rot) - occ)
                | (attacks::cannon_attacks(from, occ, rot) & pos.by_color(!us))
        }
        Role::Horse => attacks::horse_attacks(from, occ) - own,
        Role::Elephant => attacks::elephant_attacks(from, occ) - own,
        Role::Advisor => attacks::advisor_attacks(from) - own,
        Role::King => attacks::king_attacks(from) - own,
        Role::Pawn => attacks::pawn_attacks(us, from) - own,
    }
}

/// Whether `m` is legal in `pos`, without generating the move list.
#[inline]
pub(crate) fn is_legal_fast(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let Some(p) = pos.piece_at(m.from) else {
        return false;
    };
    p.color == us
        && pseudo_targets(pos, m.from, p.role, us).contains(m.to)
        && !pos.leaves_king_attacked(m, pos.king(us))
}

fn sq_between(a: Square, b: Square) -> impl Iterator<Item = Square> {
    let (fa, ra) = (a.file().index() as i32, a.rank().index() as i32);
    let (fb, rb) = (b.file().index() as i32, b.rank().index() as i32);
    let (df, dr) = ((fb - fa).signum(), (rb - ra).signum());
    let steps = (fb - fa).abs().max((rb - ra).abs());
    (1..steps).filter_map(move |i| Square::from_xy(fa + df * i, ra + dr * i))
}

fn piece_name(pos: &Position, sq: Square) -> String {
    match pos.piece_at(sq) {
        Some(p) => format!("{} {}", p.color, p.role),
        None => "nothing".to_string(),
    }
}

/// Why `m` is not legal, or `None` when it is.
pub(crate) fn explain_illegal(pos: &Position, m: Move) -> Option<(MoveErrorKind, String)> {
    use MoveErrorKind::*;
    let us = pos.turn();
    let Some(p) = pos.piece_at(m.from) else {
        return Some((NoPiece, format!("there is no piece on {}", m.from)));
    };
    if p.color != us {
        return Some((
            WrongSide,
            format!(
                "{} holds a {} {}, but it is {}'s turn",
                m.from, p.color, p.role, us
            ),
        ));
    }
    let role = p.role;
    let name = role.name();
    if m.from == m.to {
        return Some((
            IllegalMovement,
            format!("the {name} on {} does not move", m.from),
        ));
    }
    if let Some(q) = pos.piece_at(m.to)
        && q.color == us
    {
        return Some((
            IllegalMovement,
            format!(
                "the {name} on {} cannot take its own {} on {}",
                m.from, q.role, m.to
            ),
        ));
    }
    if !pseudo_targets(pos, m.from, role, us).contains(m.to) {
        return Some((IllegalMovement, movement_reason(pos, m, role, us)));
    }
    let after = pos.after(m);
    let king = after.king(us);
    let attackers = after.attackers(king, !us);
    if attackers.is_empty() {
        return None;
    }
    let their_king = after.king(!us);
    if attackers == Bitboard::from_square(their_king) && their_king.file() == king.file() {
        return Some((
            KingsFacing,
            format!(
                "the {name} {}-{} would leave the kings facing each other on file {}",
                m.from,
                m.to,
                king.file().char()
            ),
        ));
    }
    let by: Vec<String> = attackers
        .into_iter()
        .map(|s| {
            format!(
                "the {} on {s}",
                after.piece_at(s).map_or("piece", |p| p.role.name())
            )
        })
        .collect();
    let what = if pos.is_check() {
        "does not parry the check"
    } else if role == Role::King {
        "moves the king into check"
    } else {
        "exposes the king to check"
    };
    Some((
        LeavesKingInCheck,
        format!(
            "the {} {}-{} {what}: the {us} king on {king} would be attacked by {}",
            name,
            m.from,
            m.to,
            by.join(" and ")
        ),
    ))
}

/// Why a piece cannot reach `m.to` by its own movement (the target holds no own piece).
fn movement_reason(pos: &Position, m: Move, role: Role, us: Color) -> String {
    let (from, to) = (m.from, m.to);
    let df = to.file().index() as i32 - from.file().index() as i32;
    let dr = to.rank().index() as i32 - from.rank().index() as i32;
    let fwd = if us == Color::Red { 1 } else { -1 };
    let (adf, adr) = (df.abs(), dr.abs());
    let occ = pos.occupied();
    match role {
        Role::King => {
            if adf + adr != 1 {
                format!("the king moves one point along a file or rank, not {from} to {to}")
            } else {
                format!("the king cannot leave the palace ({to} is outside it)")
            }
        }
        Role::Advisor => {
            if adf != 1 || adr != 1 {
                format!("an advisor moves one point diagonally, not {from} to {to}")
            } else {
                format!("an advisor cannot leave the palace ({to} is outside it)")
            }
        }
        Role::Elephant => {
            if adf != 2 || adr != 2 {
                format!("an elephant moves exactly two points diagonally, not {from} to {to}")
            } else if !to.on_own_side(us) {
                format!("an elephant cannot cross the river ({from} to {to})")
            } else {
                let eye = from.offset(df / 2, dr / 2).unwrap_or(from);
                format!(
                    "the elephant's eye on {eye} is blocked by the {} (塞象眼)",
                    piece_name(pos, eye)
                )
            }
        }
        Role::Horse => {
            if !((adf == 1 && adr == 2) || (adf == 2 && adr == 1)) {
                format!("a horse moves one point straight then one diagonally, not {from} to {to}")
            } else {
                let leg = if adf == 2 {
                    from.offset(df.signum(), 0)
                } else {
                    from.offset(0, dr.signum())
                }
                .unwrap_or(from);
                format!(
                    "the horse's leg on {leg} is blocked by the {} (蹩马腿)",
                    piece_name(pos, leg)
                )
            }
        }
        Role::Rook | Role::Cannon => {
            if df != 0 && dr != 0 {
                return format!(
                    "a {} moves along a file or rank, not {from} to {to}",
                    role.name()
                );
            }
            let screens: Vec<Square> = sq_between(from, to).filter(|s| occ.contains(*s)).collect();
            if role == Role::Cannon && pos.piece_at(to).is_some() {
                if screens.is_empty() {
                    format!(
                        "a cannon needs a screen to capture: nothing stands between {from} and {to}"
                    )
                } else {
                    format!(
                        "a cannon captures over exactly one screen; {} pieces stand between {from} and {to}",
                        screens.len()
                    )
                }
            } else {
                let first = screens.first().copied().unwrap_or(from);
                format!(
                    "the path from {from} to {to} is blocked by the {} on {first}",
                    piece_name(pos, first)
                )
            }
        }
        Role::Pawn => {
            if dr * fwd < 0 {
                "a pawn never moves backward".to_string()
            } else if dr == 0 && from.on_own_side(us) {
                format!(
                    "a pawn cannot move sideways before crossing the river ({from} has not crossed)"
                )
            } else {
                format!(
                    "a pawn moves one point at a time (forward, or sideways after the river), not {from} to {to}"
                )
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// The file-based notations (WXF and Chinese) share one description of a move.

/// Direction of a file-notation move: 进/+, 退/-, 平/. .
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    Forward,
    Backward,
    Traverse,
}

/// A qualifier naming one of several identical pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Qual {
    /// 前 / WXF `+` sign-first: the frontmost.
    Front,
    /// 中, xqbase `.`: the middle one.
    Middle,
    /// 后/後: the rearmost.
    Rear,
    /// 一..五 / xqbase `a`..`e`: counted from the front (1-based).
    Ord(u8),
    /// WXF `+`: frontmost with up to 3, second frontmost with 4-5.
    WxfPlus,
    /// WXF `-`: rearmost with up to 3, second rearmost with 4-5.
    WxfMinus,
    /// WXF `++`: the frontmost.
    Foremost,
    /// WXF `--`: the rearmost.
    Rearmost,
}

/// How the moving piece is named.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sel {
    /// By its file number (1-9 from the mover's right).
    File(u8),
    /// By a qualifier among the pieces of that kind on files holding two or more of them.
    Qual(Qual),
    /// By a qualifier among the pieces on one file (dpxq 前九, WXF `3+`, 5-character 前兵九).
    FileQual(u8, Qual),
}

/// A move in a file notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Desc {
    pub role: Role,
    pub sel: Sel,
    pub dir: Dir,
    pub num: u8,
}

/// The pieces in `bb` (all on one file), front to back as seen by `color`.
fn front_to_back(bb: Bitboard, color: Color) -> ArrayVec<Square, 10> {
    let mut v: ArrayVec<Square, 10> = bb.into_iter().take(10).collect();
    if color == Color::Red {
        v.reverse();
    }
    v
}

/// Pieces of `color`/`role` on files holding two or more of them: files from the mover's right to
/// left, front to back within a file (the xqbase order).
fn tandem_list(pos: &Position, color: Color, role: Role) -> (ArrayVec<Square, 10>, u8) {
    let pieces = pos.pieces(color, role);
    let mut out = ArrayVec::new();
    let mut files = 0;
    if !pieces.more_than_one() {
        return (out, 0);
    }
    for n in 1..=9 {
        let file = File::from_number(n, color).expect("1..=9");
        let on = pieces & Bitboard::file(file);
        if on.more_than_one() {
            files += 1;
            for s in front_to_back(on, color) {
                let _ = out.try_push(s);
            }
        }
    }
    (out, files)
}

/// A piece picked by a qualifier among `n` pieces in order: one index, or two readings.
enum Pick {
    One(usize),
    Two(usize, usize),
    None,
}

fn pick(q: Qual, n: usize, xqbase: bool) -> Pick {
    let one = |i: usize| if i < n { Pick::One(i) } else { Pick::None };
    if n < 2 {
        return Pick::None;
    }
    match q {
        Qual::Front | Qual::Foremost => Pick::One(0),
        Qual::Rearmost => Pick::One(n - 1),
        Qual::Rear => {
            if n <= 3 {
                Pick::One(n - 1)
            } else if xqbase {
                Pick::One(2)
            } else {
                Pick::Two(n - 1, 2)
            }
        }
        Qual::Middle => {
            if n == 3 || xqbase {
                one(1)
            } else if n == 2 {
                Pick::None
            } else {
                Pick::Two(n / 2, 1)
            }
        }
        Qual::Ord(k) => {
            if k >= 1 {
                one(k as usize - 1)
            } else {
                Pick::None
            }
        }
        Qual::WxfPlus => {
            if n >= 4 && !xqbase {
                Pick::One(1)
            } else {
                Pick::One(0)
            }
        }
        Qual::WxfMinus => {
            if n >= 4 {
                if xqbase {
                    Pick::One(2)
                } else {
                    Pick::One(n - 2)
                }
            } else {
                Pick::One(n - 1)
            }
        }
    }
}

/// Pick within one file (no xqbase reading there): 后 is the rearmost, 中 the middle of an odd count.
fn pick_in_file(q: Qual, n: usize) -> Pick {
    match q {
        Qual::Rear => {
            if n >= 2 {
                Pick::One(n - 1)
            } else {
                Pick::None
            }
        }
        Qual::Middle if n % 2 == 1 && n >= 3 => Pick::One(n / 2),
        _ => pick(q, n, false),
    }
}

/// Which pieces a description names.
pub(crate) enum Selected {
    /// Exactly one piece on paper.
    One(Square),
    /// Several pieces on the named file (a plain form): resolved by legality.
    Paper(ArrayVec<Square, 10>),
    /// A qualifier with several readings: an error unless the caller opts in.
    Ambiguous(ArrayVec<Square, 10>),
}

/// The qualifier as written in the notation, for messages.
fn qual_text(q: Qual, notation: Notation) -> &'static str {
    match (notation, q) {
        (Notation::Wxf, Qual::Front | Qual::WxfPlus) => "+",
        (Notation::Wxf, Qual::Rear | Qual::WxfMinus) => "-",
        (_, Qual::Foremost) => "++",
        (_, Qual::Rearmost) => "--",
        (_, Qual::Front | Qual::WxfPlus) => "前",
        (_, Qual::Middle) => "中",
        (_, Qual::Rear | Qual::WxfMinus) => "后",
        (_, Qual::Ord(1)) => "一",
        (_, Qual::Ord(2)) => "二",
        (_, Qual::Ord(3)) => "三",
        (_, Qual::Ord(4)) => "四",
        (_, Qual::Ord(_)) => "五",
    }
}

pub(crate) fn file_label(n: u8, color: Color, notation: Notation) -> String {
    if notation == Notation::Chinese && color == Color::Red {
        chinese::numeral(n).to_string()
    } else {
        n.to_string()
    }
}

/// Names the piece(s) a description refers to. Errors carry kind and message.
pub(crate) fn select(
    pos: &Position,
    d: &Desc,
    opts: &ParseOptions,
    notation: Notation,
) -> Result<Selected, (MoveErrorKind, String)> {
    let us = pos.turn();
    let pieces = pos.pieces(us, d.role);
    let role = d.role.name();
    match d.sel {
        Sel::File(n) => {
            let file = File::from_number(n, us)
                .ok_or((MoveErrorKind::Syntax, format!("file {n} does not exist")))?;
            let on = pieces & Bitboard::file(file);
            if on.is_empty() {
                return Err((
                    MoveErrorKind::NoPiece,
                    format!("{us} has no {role} on file {}", file_label(n, us, notation)),
                ));
            }
            if let Some(s) = on.single() {
                return Ok(Selected::One(s));
            }
            let list = front_to_back(on, us);
            if notation == Notation::Wxf && list.len() % 2 == 1 && d.role == Role::Pawn {
                // WXF: the middle one of 3 (or 5) pawns on a file takes the plain file digit.
                return Ok(Selected::One(list[list.len() / 2]));
            }
            Ok(Selected::Paper(list))
        }
        Sel::FileQual(n, q) => {
            let file = File::from_number(n, us)
                .ok_or((MoveErrorKind::Syntax, format!("file {n} does not exist")))?;
            let list = front_to_back(pieces & Bitboard::file(file), us);
            match pick_in_file(q, list.len()) {
                Pick::One(i) => Ok(Selected::One(list[i])),
                Pick::Two(a, b) => Ok(Selected::Ambiguous(
                    [list[a], list[b]].into_iter().collect(),
                )),
                Pick::None => Err((
                    MoveErrorKind::NoPiece,
                    format!(
                        "'{}' on file {} needs {} {role}s there, {us} has {}",
                        qual_text(q, notation),
                        file_label(n, us, notation),
                        needed(q),
                        list.len()
                    ),
                )),
            }
        }
        Sel::Qual(q) => {
            let (list, files) = tandem_list(pos, us, d.role);
            if files == 0 {
                return Err((
                    MoveErrorKind::NoPiece,
                    format!(
                        "'{}' names one of several {role}s on one file, but no two {us} {role}s share a file",
                        qual_text(q, notation)
                    ),
                ));
            }
            if files >= 2 && !matches!(q, Qual::Ord(_)) {
                if opts.xqbase_tandem {
                    // xqbase: positions 0/1/2 of the global list.
                    let i = match q {
                        Qual::Front | Qual::Foremost | Qual::WxfPlus => 0,
                        Qual::Middle => 1,
                        Qual::Rear | Qual::WxfMinus => 2,
                        Qual::Rearmost => list.len() - 1,
                        Qual::Ord(_) => unreachable!(),
                    };
                    return Ok(Selected::One(list[i.min(list.len() - 1)]));
                }
                // One reading per tandem file.
                let mut cands = ArrayVec::new();
                let pieces_all = pieces;
                for n in 1..=9 {
                    let file = File::from_number(n, us).expect("1..=9");
                    let fl = front_to_back(pieces_all & Bitboard::file(file), us);
                    if fl.len() >= 2
                        && let Pick::One(i) | Pick::Two(i, _) = pick_in_file(q, fl.len())
                    {
                        let _ = cands.try_push(fl[i]);
                    }
                }
                return Ok(Selected::Ambiguous(cands));
            }
            match pick(q, list.len(), opts.xqbase_tandem) {
                Pick::One(i) => Ok(Selected::One(list[i])),
                Pick::Two(a, b) => Ok(Selected::Ambiguous(
                    [list[a], list[b]].into_iter().collect(),
                )),
                Pick::None => Err((
                    MoveErrorKind::NoPiece,
                    format!(
                        "'{}' needs {} {role}s on files shared by several, {us} has {}",
                        qual_text(q, notation),
                        needed(q),
                        list.len()
                    ),
                )),
            }
        }
    }
}

fn needed(q: Qual) -> usize {
    match q {
        Qual::Middle => 3,
        Qual::Ord(k) => (k as usize).max(2),
        _ => 2,
    }
}

/// Whether the role moves along lines (NUM counts steps on 进/退).
#[inline]
pub(crate) fn is_line_piece(role: Role) -> bool {
    matches!(role, Role::King | Role::Rook | Role::Cannon | Role::Pawn)
}

/// The destination a description gives for the piece on `from`, or why it has none.
pub(crate) fn destination(
    from: Square,
    role: Role,
    color: Color,
    dir: Dir,
    num: u8,
    notation: Notation,
) -> Result<Square, String> {
    let fwd = if color == Color::Red { 1 } else { -1 };
    let f = from.file().index() as i32;
    let r = from.rank().index() as i32;
    if is_line_piece(role) {
        match dir {
            Dir::Traverse => {
                let file = File::from_number(num, color)
                    .ok_or_else(|| format!("file {num} does not exist"))?;
                if file == from.file() {
                    return Err(format!(
                        "the {} on {from} cannot move sideways to its own file",
                        role.name()
                    ));
                }
                Ok(Square::from_coords(file, from.rank()))
            }
            Dir::Forward | Dir::Backward => {
                let sign = if dir == Dir::Forward { fwd } else { -fwd };
                Square::from_xy(f, r + sign * num as i32).ok_or_else(|| {
                    format!(
                        "the {} on {from} cannot move {num} point{} {}: it would leave the board",
                        role.name(),
                        if num == 1 { "" } else { "s" },
                        if dir == Dir::Forward {
                            "forward"
                        } else {
                            "backward"
                        }
                    )
                })
            }
        }
    } else {
        if dir == Dir::Traverse {
            let article = if role == Role::Horse { "a" } else { "an" };
            return Err(format!(
                "{article} {} cannot move sideways (平/.)",
                role.name()
            ));
        }
        let file =
            File::from_number(num, color).ok_or_else(|| format!("file {num} does not exist"))?;
        let df = (file.index() as i32 - f).abs();
        let dr = match (role, df) {
            (Role::Horse, 1) => 2,
            (Role::Horse, 2) => 1,
            (Role::Advisor, 1) => 1,
            (Role::Elephant, 2) => 2,
            _ => {
                return Err(format!(
                    "the {} on {from} cannot reach file {} (a move of {df} file{})",
                    role.name(),
                    file_label(num, color, notation),
                    if df == 1 { "" } else { "s" }
                ));
            }
        };
        let sign = if dir == Dir::Forward { fwd } else { -fwd };
        let to = Square::from_xy(file.index() as i32, r + sign * dr)
            .ok_or_else(|| format!("the {} on {from} would leave the board", role.name()))?;
        match role {
            Role::Advisor if !to.in_palace(color) => Err(format!(
                "an advisor cannot leave the palace ({from} to {to})"
            )),
            Role::Elephant if !to.on_own_side(color) => Err(format!(
                "an elephant cannot cross the river ({from} to {to})"
            )),
            _ => Ok(to),
        }
    }
}

/// Resolves a description without building errors: the move and whether legality decided it.
pub(crate) fn try_resolve(
    pos: &Position,
    d: &Desc,
    opts: &ParseOptions,
    notation: Notation,
) -> Option<ParsedMove> {
    let us = pos.turn();
    match select(pos, d, opts, notation).ok()? {
        Selected::One(from) => {
            let to = destination(from, d.role, us, d.dir, d.num, notation).ok()?;
            let m = Move::new(from, to);
            is_legal_fast(pos, m).then_some(ParsedMove {
                mv: m,
                resolved_by_legality: false,
            })
        }
        Selected::Paper(list) => paper(pos, d, &list, notation).ok(),
        Selected::Ambiguous(_) => None,
    }
}

/// Several pieces on the named file: the geometrically possible ones, then the legal ones.
fn paper(
    pos: &Position,
    d: &Desc,
    list: &[Square],
    notation: Notation,
) -> Result<ParsedMove, PaperFail> {
    let us = pos.turn();
    let mut geo: ArrayVec<Move, 10> = ArrayVec::new();
    for &from in list {
        if let Ok(to) = destination(from, d.role, us, d.dir, d.num, notation) {
            geo.push(Move::new(from, to));
        }
    }
    let mut legal: ArrayVec<Move, 10> = ArrayVec::new();
    for &m in &geo {
        if is_legal_fast(pos, m) {
            legal.push(m);
        }
    }
    match (geo.len(), legal.len()) {
        (_, 1) => Ok(ParsedMove {
            mv: legal[0],
            // Two advisors or elephants on a file never take a qualifier: the destination decides.
            // For the other pieces the standard form would have used 前/后 (or +/-).
            resolved_by_legality: geo.len() > 1
                || !matches!(d.role, Role::Advisor | Role::Elephant | Role::King),
        }),
        (_, 0) => Err(PaperFail::NoneLegal(geo)),
        _ => Err(PaperFail::Several(legal)),
    }
}

enum PaperFail {
    NoneLegal(ArrayVec<Move, 10>),
    Several(ArrayVec<Move, 10>),
}

/// Resolves a description, building a full error on failure.
pub(crate) fn resolve(
    pos: &Position,
    d: &Desc,
    opts: &ParseOptions,
    notation: Notation,
    text: &str,
) -> Result<ParsedMove, MoveError> {
    let us = pos.turn();
    let selected = match select(pos, d, opts, notation) {
        Ok(s) => s,
        Err((kind, msg)) => {
            return Err(
                MoveError::new(kind, notation, text, msg).with_suggestions(suggest(
                    pos,
                    d,
                    opts,
                    notation,
                    &[],
                )),
            );
        }
    };
    match selected {
        Selected::One(from) => {
            let to = match destination(from, d.role, us, d.dir, d.num, notation) {
                Ok(to) => to,
                Err(msg) => {
                    return Err(MoveError::new(
                        MoveErrorKind::IllegalMovement,
                        notation,
                        text,
                        msg,
                    )
                    .with_suggestions(suggest(pos, d, opts, notation, &[])));
                }
            };
            let m = Move::new(from, to);
            if is_legal_fast(pos, m) {
                return Ok(ParsedMove {
                    mv: m,
                    resolved_by_legality: false,
                });
            }
            let (kind, msg) = explain_illegal(pos, m)
                .unwrap_or((MoveErrorKind::IllegalMovement, format!("{m} is not legal")));
            Err(MoveError::new(kind, notation, text, msg)
                .with_candidates(vec![m])
                .with_suggestions(suggest(pos, d, opts, notation, &[])))
        }
        Selected::Paper(list) => match paper(pos, d, &list, notation) {
            Ok(p) => Ok(p),
            Err(PaperFail::Several(legal)) => {
                let names: Vec<String> = legal
                    .iter()
                    .map(|m| print_move(pos, *m, notation))
                    .collect();
                let msg = format!(
                    "ambiguous: {} {}s on that file can make this move ({}); a qualifier is needed",
                    legal.len(),
                    d.role.name(),
                    legal
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                );
                Err(
                    MoveError::new(MoveErrorKind::Ambiguous, notation, text, msg)
                        .with_candidates(legal.to_vec())
                        .with_suggestions(names),
                )
            }
            Err(PaperFail::NoneLegal(geo)) => {
                let (kind, msg) = if geo.is_empty() {
                    let first = destination(list[0], d.role, us, d.dir, d.num, notation)
                        .err()
                        .unwrap_or_default();
                    (MoveErrorKind::IllegalMovement, first)
                } else {
                    let mut kind = MoveErrorKind::IllegalMovement;
                    let mut parts = Vec::new();
                    for (i, m) in geo.iter().enumerate() {
                        if let Some((k, why)) = explain_illegal(pos, *m) {
                            if i == 0 {
                                kind = k;
                            }
                            parts.push(why);
                        }
                    }
                    if geo.len() == 1 {
                        (kind, parts.pop().unwrap_or_default())
                    } else {
                        (
                            kind,
                            format!(
                                "none of the {} {}s on that file can make this move: {}",
                                list.len(),
                                d.role.name(),
                                parts.join("; ")
                            ),
                        )
                    }
                };
                Err(MoveError::new(kind, notation, text, msg)
                    .with_candidates(geo.to_vec())
                    .with_suggestions(suggest(pos, d, opts, notation, &[])))
            }
        },
        Selected::Ambiguous(cands) => {
            let moves: Vec<Move> = cands
                .iter()
                .filter_map(|&from| {
                    destination(from, d.role, us, d.dir, d.num, notation)
                        .ok()
                        .map(|to| Move::new(from, to))
                })
                .collect();
            let legal: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| is_legal_fast(pos, *m))
                .collect();
            let pieces: Vec<String> = cands.iter().map(|s| s.to_string()).collect();
            let msg = format!(
                "ambiguous qualifier: it may name the {} on {} (conventions differ); write the file or the ordinal",
                d.role.name(),
                pieces.join(" or ")
            );
            Err(
                MoveError::new(MoveErrorKind::Ambiguous, notation, text, msg)
                    .with_candidates(moves)
                    .with_suggestions(
                        legal
                            .iter()
                            .map(|m| print_move(pos, *m, notation))
                            .collect(),
                    ),
            )
        }
    }
}

/// A syntax error, with a hint when the token reads as a legal move in another notation.
pub(crate) fn syntax_error(
    pos: &Position,
    text: &str,
    notation: Notation,
    opts: &ParseOptions,
    message: String,
) -> MoveError {
    if let Some(other) = sniff(text).filter(|&o| o != notation)
        && let Ok(p) = parse_move_with(pos, text, other, opts)
    {
        let printed = print_move(pos, p.mv, notation);
        return MoveError::new(
            MoveErrorKind::Syntax,
            notation,
            text,
            format!("{message}; it reads as the {} move {}", other.label(), p.mv),
        )
        .with_candidates(vec![p.mv])
        .with_suggestions(vec![printed]);
    }
    MoveError::new(MoveErrorKind::Syntax, notation, text, message)
}

/// Legal moves near a failed description: the mirrored file numbering (Red/Black confusion),
/// 进/退 swapped, another piece letter, the same move from another file, `extra` moves.
pub(crate) fn suggest(
    pos: &Position,
    d: &Desc,
    opts: &ParseOptions,
    notation: Notation,
    extra: &[Move],
) -> Vec<String> {
    let mut found: Vec<Move> = extra.to_vec();
    let add = |m: Option<ParsedMove>, found: &mut Vec<Move>| {
        if let Some(p) = m
            && !found.contains(&p.mv)
        {
            found.push(p.mv);
        }
    };
    let mirror = |n: u8| 10 - n;
    let mut variants: Vec<Desc> = Vec::new();
    // File numbering of the other side.
    let sel_m = match d.sel {
        Sel::File(n) => Sel::File(mirror(n)),
        Sel::FileQual(n, q) => Sel::FileQual(mirror(n), q),
        s => s,
    };
    let num_is_file = d.dir == Dir::Traverse || !is_line_piece(d.role);
    let num_m = if num_is_file { mirror(d.num) } else { d.num };
    variants.push(Desc {
        sel: sel_m,
        num: num_m,
        ..*d
    });
    variants.push(Desc { sel: sel_m, ..*d });
    variants.push(Desc { num: num_m, ..*d });
    // 进 and 退 swapped.
    let flip = match d.dir {
        Dir::Forward => Some(Dir::Backward),
        Dir::Backward => Some(Dir::Forward),
        Dir::Traverse => None,
    };
    if let Some(dir) = flip {
        variants.push(Desc { dir, ..*d });
        variants.push(Desc {
            dir,
            sel: sel_m,
            num: num_m,
            ..*d
        });
    }
    // A horse, elephant or advisor written with 平: forward or backward.
    if d.dir == Dir::Traverse && !is_line_piece(d.role) {
        variants.push(Desc {
            dir: Dir::Forward,
            ..*d
        });
        variants.push(Desc {
            dir: Dir::Backward,
            ..*d
        });
    }
    // A number off by one or two (a typo, or the steps of a blocked path counted wrong).
    for delta in [-1i8, 1, -2, 2] {
        let num = d.num as i8 + delta;
        if (1..=9).contains(&num) {
            variants.push(Desc {
                num: num as u8,
                ..*d
            });
        }
    }
    // Another piece.
    for role in Role::ALL {
        if role != d.role {
            variants.push(Desc { role, ..*d });
        }
    }
    for v in &variants {
        add(try_resolve(pos, v, opts, notation), &mut found);
    }
    // The same kind of piece from any file, same direction and number.
    for n in 1..=9 {
        add(
            try_resolve(
                pos,
                &Desc {
                    sel: Sel::File(n),
                    ..*d
                },
                opts,
                notation,
            ),
            &mut found,
        );
    }
    // A qualifier that named nothing: any legal move of that kind with that direction/number.
    if !matches!(d.sel, Sel::File(_)) {
        let us = pos.turn();
        for from in pos.pieces(us, d.role) {
            if let Ok(to) = destination(from, d.role, us, d.dir, d.num, notation) {
                let m = Move::new(from, to);
                if is_legal_fast(pos, m) && !found.contains(&m) {
                    found.push(m);
                }
            }
        }
    }
    found.truncate(6);
    found
        .into_iter()
        .map(|m| print_move(pos, m, notation))
        .collect()
}

/// The direction and number of a legal move in file notation.
pub(crate) fn dir_num(m: Move, role: Role, color: Color) -> (Dir, u8) {
    let dr = m.to.rank().index() as i32 - m.from.rank().index() as i32;
    let rel = if color == Color::Red { dr } else { -dr };
    let dir = match rel.signum() {
        1 => Dir::Forward,
        -1 => Dir::Backward,
        _ => Dir::Traverse,
    };
    let num = if dir != Dir::Traverse && is_line_piece(role) {
        rel.unsigned_abs() as u8
    } else {
        m.to.file().number_for(color)
    };
    (dir, num)
}

/// How a writer names the piece on `from`.
pub(crate) enum Naming {
    /// Plain file form.
    Plain,
    /// Index `i` (front = 0) among `n` pieces on its file, which is the only tandem file.
    OneFile { i: usize, n: usize },
    /// Tandem pieces on several files: index on its own file, and index in the xqbase global list.
    ManyFiles { i: usize, n: usize, global: usize },
}

pub(crate) fn naming(pos: &Position, from: Square, role: Role, color: Color) -> Naming {
    if matches!(role, Role::King | Role::Advisor | Role::Elephant) {
        return Naming::Plain;
    }
    let pieces = pos.pieces(color, role);
    let on = pieces & Bitboard::file(from.file());
    if !on.more_than_one() {
        return Naming::Plain;
    }
    let list = front_to_back(on, color);
    let i = list.iter().position(|&s| s == from).unwrap_or(0);
    let (global, files) = tandem_list(pos, color, role);
    if files <= 1 {
        Naming::OneFile { i, n: list.len() }
    } else {
        Naming::ManyFiles {
            i,
            n: list.len(),
            global: global.iter().position(|&s| s == from).unwrap_or(0),
        }
    }
}
