//! Move notations: read one move against a position, print any legal move.
//!
//! Five notations are supported, chosen with [`Notation`]:
//!
//! * [`Notation::Iccs`]: coordinates, `h2e2`, `H2-E2`, `h2-e2` (see [`iccs`]). The rank-1..10 dialect
//!   of Fairy-Stockfish and pychess (`h3e3`, `h10g8`) is read only when asked for explicitly, with
//!   [`ParseOptions::iccs_one_based`]; [`sniff_iccs_ranks`] tells which dialect a token must be in.
//! * [`Notation::Wxf`]: WXF file notation in Latin letters, `C2.5`, `H8+7`, `R+.4`, `+C-1`, `++.4`,
//!   `3+.4` (see [`wxf`]).
//! * [`Notation::Chinese`]: 炮二平五, 马８进７, 前车平四, 一兵平四, 前九平八 (see [`chinese`]).
//! * [`Notation::San`] and [`Notation::SanWinboard`]: SAN of pychess.org / Fairy-Stockfish (ranks
//!   1-10, `P` for pawns: `Che3 Pc5 Rb10`) and of WinBoard/XBoard (ranks 0-9, bare pawns:
//!   `Cbe2 exe5 Cb0+`) (see [`san`]).
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
pub mod san;
pub mod wxf;

mod desc;
mod error;
mod legality;

pub(crate) use desc::*;
pub use error::*;
pub(crate) use legality::*;

use crate::position::Position;
use crate::types::Move;
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
    /// SAN of pychess.org and Fairy-Stockfish: ranks 1-10, `P` for pawns (`Che3`, `Pc5`, `Rb10`).
    San,
    /// SAN of WinBoard/XBoard: ranks 0-9, pawns without a letter (`Cbe2`, `exe5`, `Cb0+`).
    #[serde(rename = "san_winboard")]
    SanWinboard,
}

impl Notation {
    pub const ALL: [Notation; 5] = [
        Notation::Iccs,
        Notation::Wxf,
        Notation::Chinese,
        Notation::San,
        Notation::SanWinboard,
    ];

    /// `"iccs"`, `"wxf"`, `"chinese"`, `"san"` or `"san_winboard"`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
            Notation::San => "san",
            Notation::SanWinboard => "san_winboard",
        }
    }
}

impl Notation {
    /// `"ICCS"`, `"WXF"`, `"Chinese"`, `"SAN"` or `"SAN-WinBoard"`, as in a PGN `[Format]` tag.
    pub const fn label(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
            Notation::San => "SAN",
            Notation::SanWinboard => "SAN-WinBoard",
        }
    }

    /// Whether this is one of the SAN dialects.
    pub const fn is_san(self) -> bool {
        matches!(self, Notation::San | Notation::SanWinboard)
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = String;
    /// Case-insensitive `iccs` (also `ucci`), `wxf`, `chinese` (also `zh`), `san` (also `san1`,
    /// `pychess`: ranks 1-10), `san_winboard` (also `san0`, `san-winboard`, `winboard`, `xboard`:
    /// ranks 0-9).
    fn from_str(s: &str) -> Result<Notation, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" | "ucci" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "zh" => Ok(Notation::Chinese),
            "san" | "san1" | "pychess" => Ok(Notation::San),
            "san_winboard" | "san-winboard" | "san0" | "winboard" | "xboard" => {
                Ok(Notation::SanWinboard)
            }
            _ => Err(format!(
                "unknown notation '{s}' (expected iccs, wxf, chinese, san or san_winboard)"
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
        Notation::San => san::parse(pos, text, san::RankBase::One),
        Notation::SanWinboard => san::parse(pos, text, san::RankBase::Zero),
    };
    result.map_err(|e| {
        if e.suggestions().is_empty() {
            e.with_suggestions(repairs(pos, text, notation, opts))
        } else {
            e
        }
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
        Notation::San => san::parse(pos, text, san::RankBase::One).ok().map(|p| p.mv),
        Notation::SanWinboard => san::parse(pos, text, san::RankBase::Zero)
            .ok()
            .map(|p| p.mv),
    }
}

/// Legal moves one typo away from a token: one character replaced, or two neighbours swapped.
fn repairs(pos: &Position, text: &str, notation: Notation, opts: &ParseOptions) -> Vec<String> {
    const CHINESE: &str = "车马炮兵相仕帅前中后一二三四五六七八九进退平";
    const WXF: &str = "KAEHRCP123456789+-.";
    const ICCS: &str = "abcdefghi0123456789";
    const SAN: &str = "KAEHRCPabcdefghi0123456789x";
    let chars: Vec<char> = text.trim().chars().map(fold_width).collect();
    if chars.is_empty() || chars.len() > 6 {
        return Vec::new();
    }
    let alphabet = match notation {
        Notation::Iccs => ICCS,
        Notation::Wxf => WXF,
        Notation::Chinese => CHINESE,
        Notation::San | Notation::SanWinboard => SAN,
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
        Notation::San => san::write(pos, m, san::RankBase::One, out),
        Notation::SanWinboard => san::write(pos, m, san::RankBase::Zero, out),
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
/// for coordinates (either rank dialect), WXF for the WXF forms, [`Notation::San`] for SAN of
/// either rank base (a whole movetext tells which: [`san::sniff_rank_base`]). `None` for anything
/// else (move numbers, results, comments).
pub fn sniff(text: &str) -> Option<Notation> {
    if chinese::looks_like(text) {
        Some(Notation::Chinese)
    } else if san::looks_like_rather_than_iccs(text) {
        Some(Notation::San)
    } else if iccs::looks_like(text) {
        Some(Notation::Iccs)
    } else if wxf::looks_like(text) {
        Some(Notation::Wxf)
    } else if san::looks_like(text) {
        Some(Notation::San)
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
