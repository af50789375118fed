//! Standard algebraic notation (SAN), as written by the chess-derived Xiangqi tools.
//!
//! Two dialects, which differ in how ranks are numbered and whether pawns take a letter:
//!
//! * **pychess.org / Fairy-Stockfish** ([`Notation::San`]): ranks `1`-`10` from Red's side, every
//!   piece has a letter (`P` for pawns): `Che3 Hc8 2. Pc5 Rb10`, `[Variant "Xiangqi"]`.
//! * **WinBoard / XBoard** ([`Notation::SanWinboard`]): ranks `0`-`9` as in ICCS, pawns without a
//!   letter and, when capturing, with the file they come from: `Cbe2 Hc7 exe5 Rxb9 Cb0+`.
//!
//! Grammar (both dialects; the reader takes either pawn style in either dialect):
//!
//! ```text
//! san    ::= [PIECE] [FILE] [RANK] ['x' | '-'] FILE RANK [check] [annotation]
//! PIECE  ::= K | A | E | B | H | N | R | C | P      (B = elephant, N = horse also read)
//! FILE   ::= a..i                                 (from Red's left)
//! RANK   ::= 1..10 (pychess) | 0..9 (WinBoard)
//! check  ::= '+' | '#'
//! ```
//!
//! A missing piece letter means a pawn. The file and rank before the destination tell apart
//! pieces of the same kind that can legally reach it, the chess way: the file when it is enough,
//! else the rank, else both. The writer prints the shortest such form with the letters
//! `K A E H R C P`, `x` for captures, `+` for check and `#` for mate, exactly as
//! Fairy-Stockfish does (checked on 300 random games, `tests/data/san/`).
//!
//! The grammar is written with `nom`.

use super::{MoveError, MoveErrorKind, Notation, ParsedMove, explain_illegal, token_chars};
use crate::position::Position;
use crate::types::{Move, Role, Square};
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char as ch, one_of, satisfy};
use nom::combinator::{all_consuming, map, opt};
use nom::{IResult, Parser};

/// How ranks are numbered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RankBase {
    /// Ranks 0-9 (WinBoard, ICCS).
    Zero,
    /// Ranks 1-10 (pychess, Fairy-Stockfish).
    One,
}

impl RankBase {
    /// The SAN notation of this rank base.
    pub const fn notation(self) -> Notation {
        match self {
            RankBase::Zero => Notation::SanWinboard,
            RankBase::One => Notation::San,
        }
    }
}

/// A SAN token taken apart (ranks still as written).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SanToken {
    /// `None`: no letter (a pawn).
    pub role: Option<Role>,
    pub from_file: Option<u8>,
    pub from_rank: Option<u8>,
    pub capture: bool,
    pub to_file: u8,
    pub to_rank: u8,
}

fn piece(i: &str) -> IResult<&str, Role> {
    map(one_of("KAEBHNRCP"), |c| {
        Role::from_char(c).expect("a piece letter")
    })
    .parse(i)
}

fn file(i: &str) -> IResult<&str, u8> {
    map(satisfy(|c| ('a'..='i').contains(&c)), |c| c as u8 - b'a').parse(i)
}

fn rank(i: &str) -> IResult<&str, u8> {
    alt((
        map(tag("10"), |_| 10u8),
        map(satisfy(|c| c.is_ascii_digit()), |c| c as u8 - b'0'),
    ))
    .parse(i)
}

fn capture(i: &str) -> IResult<&str, bool> {
    map(opt(alt((ch('x'), ch('-'), ch(':')))), |c| {
        c == Some('x') || c == Some(':')
    })
    .parse(i)
}

/// `[PIECE] [FILE] [RANK] [x] FILE RANK`, the disambiguating part being optional.
fn san_token(i: &str) -> IResult<&str, SanToken> {
    let full = map(
        (opt(piece), opt(file), opt(rank), capture, file, rank),
        |(role, from_file, from_rank, capture, to_file, to_rank)| SanToken {
            role,
            from_file,
            from_rank,
            capture,
            to_file,
            to_rank,
        },
    );
    let short = map(
        (opt(piece), capture, file, rank),
        |(role, capture, to_file, to_rank)| SanToken {
            role,
            from_file: None,
            from_rank: None,
            capture,
            to_file,
            to_rank,
        },
    );
    alt((all_consuming(full), all_consuming(short))).parse(i)
}

/// Takes a token apart (full-width characters, white space, check and annotation marks allowed).
pub fn split(text: &str) -> Option<SanToken> {
    let chars = token_chars(text, true)?;
    let s: arrayvec::ArrayString<32> = chars.iter().collect::<String>().as_str().try_into().ok()?;
    san_token(&s).ok().map(|(_, t)| t)
}

/// Whether a token can only be SAN, even though it also reads as ICCS: a piece letter in upper
/// case, a rank, then the destination file in lower case (`E1e3`: elephant from rank 1; ICCS
/// writes both files in the same case).
pub fn looks_like_rather_than_iccs(text: &str) -> bool {
    let Some(t) = split(text) else {
        return false;
    };
    let mut c = text
        .chars()
        .map(super::fold_width)
        .skip_while(char::is_ascii_whitespace);
    let Some(a) = c.next() else {
        return false;
    };
    let Some(f) = c.find(|c| !c.is_ascii_digit()) else {
        return false;
    };
    t.role.is_some() && a.is_ascii_uppercase() && f.is_ascii_lowercase() && !t.capture
}

/// Whether a token is SAN: a destination square preceded by a piece letter, a disambiguating
/// file or rank, or a capture mark, or a bare square (a WinBoard pawn move). Tokens that are
/// ICCS coordinates (`h2e2`) are not SAN.
pub fn looks_like(text: &str) -> bool {
    match split(text) {
        Some(t) => t.role.is_some() || t.from_rank.is_none() || t.capture,
        None => false,
    }
}

/// What a token says about the dialect: a rank `10` means pychess, a rank `0` WinBoard; a pawn
/// move without a letter leans to WinBoard, `P` to pychess (`lean`, the weaker hint).
pub fn rank_hint(text: &str) -> (Option<RankBase>, Option<RankBase>) {
    let Some(t) = split(text) else {
        return (None, None);
    };
    let ranks = [t.from_rank, Some(t.to_rank)];
    let sure = if ranks.contains(&Some(10)) {
        Some(RankBase::One)
    } else if ranks.contains(&Some(0)) {
        Some(RankBase::Zero)
    } else {
        None
    };
    let lean = match t.role {
        None => Some(RankBase::Zero),
        Some(Role::Pawn) => Some(RankBase::One),
        Some(_) => None,
    };
    (sure, lean)
}

/// The dialect of a run of SAN text (a whole movetext): the first token with a rank `0` or
/// `10` decides; else the pawn style; else `None`.
pub fn sniff_rank_base<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Option<RankBase> {
    let mut lean = None;
    for t in tokens {
        let (sure, l) = rank_hint(t);
        if sure.is_some() {
            return sure;
        }
        lean = lean.or(l);
    }
    lean
}

fn rank_index(r: u8, base: RankBase) -> Option<u8> {
    match base {
        RankBase::One => r.checked_sub(1).filter(|&r| r <= 9),
        RankBase::Zero => (r <= 9).then_some(r),
    }
}

/// Reads a SAN token against `pos` in the given rank base.
pub(crate) fn parse(pos: &Position, text: &str, base: RankBase) -> Result<ParsedMove, MoveError> {
    let notation = base.notation();
    let err = |k: MoveErrorKind, msg: String| MoveError::new(k, notation, text, msg);
    let Some(t) = split(text) else {
        return Err(err(
            MoveErrorKind::Syntax,
            format!("'{text}' is not a SAN move (piece letter, optional file/rank, x, square)"),
        ));
    };
    let range = match base {
        RankBase::One => "1-10",
        RankBase::Zero => "0-9",
    };
    let (Some(to_rank), from_rank) = (
        rank_index(t.to_rank, base),
        t.from_rank.map(|r| rank_index(r, base)),
    ) else {
        return Err(err(
            MoveErrorKind::Syntax,
            format!(
                "rank {} does not exist in this SAN dialect (ranks {range})",
                t.to_rank
            ),
        ));
    };
    if from_rank == Some(None) {
        return Err(err(
            MoveErrorKind::Syntax,
            format!(
                "rank {} does not exist in this SAN dialect (ranks {range})",
                t.from_rank.unwrap_or(0)
            ),
        ));
    }
    let from_rank = from_rank.flatten();
    let role = t.role.unwrap_or(Role::Pawn);
    let to = Square::from_xy(t.to_file as i32, to_rank as i32).expect("on the board");
    let fits = |pos: &Position, m: &Move| {
        m.to == to
            && pos.piece_at(m.from).is_some_and(|p| p.role == role)
            && t.from_file.is_none_or(|f| m.from.file().index() == f)
            && from_rank.is_none_or(|r| m.from.rank().index() == r)
    };
    let legal = pos.legal_moves();
    let found: Vec<Move> = legal.iter().copied().filter(|m| fits(pos, m)).collect();
    match found.len() {
        1 => Ok(ParsedMove {
            mv: found[0],
            resolved_by_legality: false,
        }),
        0 => {
            // Why not: the pieces of that kind that could be meant.
            let us = pos.turn();
            let ours: Vec<Square> = pos
                .pieces(us, role)
                .into_iter()
                .filter(|s| {
                    t.from_file.is_none_or(|f| s.file().index() == f)
                        && from_rank.is_none_or(|r| s.rank().index() == r)
                })
                .collect();
            let suggestions = near_moves(pos, &t, role, to, base);
            // The other side has such a piece that can go there: the side is wrong.
            let other = pos.null_move();
            if other.legal_moves().iter().any(|m| fits(&other, m)) {
                return Err(err(
                    MoveErrorKind::WrongSide,
                    format!("{text} is a move of {}, but {us} is to move", other.turn()),
                )
                .with_suggestions(suggestions));
            }
            if ours.is_empty() {
                return Err(err(
                    MoveErrorKind::NoPiece,
                    format!("{us} has no {} that fits {text}", role.name()),
                )
                .with_suggestions(suggestions));
            }
            let cands: Vec<Move> = ours.iter().map(|&s| Move::new(s, to)).collect();
            let (kind, msg) = match cands.as_slice() {
                [m] => explain_illegal(pos, *m).unwrap_or((
                    MoveErrorKind::IllegalMovement,
                    format!("the {} on {} cannot go to {to}", role.name(), m.from),
                )),
                _ => (
                    MoveErrorKind::IllegalMovement,
                    format!("no {} of {us} can go to {to}", role.name()),
                ),
            };
            Err(err(kind, msg)
                .with_candidates(cands)
                .with_suggestions(suggestions))
        }
        _ => Err(err(
            MoveErrorKind::Ambiguous,
            format!(
                "{text} fits {} moves ({}): give the file or rank the piece comes from",
                found.len(),
                found
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
        .with_candidates(found.clone())
        .with_suggestions(found.iter().map(|&m| print(pos, m, base)).collect())),
    }
}

/// Legal moves close to a token that fits none: the same piece kind to a square one off, or
/// the other rank base.
fn near_moves(pos: &Position, t: &SanToken, role: Role, to: Square, base: RankBase) -> Vec<String> {
    let legal = pos.legal_moves();
    let other = match base {
        RankBase::One => RankBase::Zero,
        RankBase::Zero => RankBase::One,
    };
    let mut out: Vec<Move> = Vec::new();
    let of_role = |m: &&Move| pos.piece_at(m.from).is_some_and(|p| p.role == role);
    if let Some(r) = rank_index(t.to_rank, other)
        && let Some(sq) = Square::from_xy(t.to_file as i32, r as i32)
    {
        out.extend(legal.iter().filter(of_role).filter(|m| m.to == sq));
    }
    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        if let Some(sq) = to.offset(df, dr) {
            out.extend(legal.iter().filter(of_role).filter(|m| m.to == sq));
        }
    }
    out.dedup();
    out.truncate(6);
    out.into_iter().map(|m| print(pos, m, base)).collect()
}

/// The SAN letter of a role (`K A E H R C P`).
pub const fn letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Rook => 'R',
        Role::Cannon => 'C',
        Role::Pawn => 'P',
    }
}

fn push_rank(r: u8, base: RankBase, out: &mut String) {
    let n = r + (base == RankBase::One) as u8;
    if n == 10 {
        out.push_str("10");
    } else {
        out.push((b'0' + n) as char);
    }
}

/// `m` in SAN.
pub fn print(pos: &Position, m: Move, base: RankBase) -> String {
    let mut s = String::with_capacity(8);
    write(pos, m, base, &mut s);
    s
}

/// Appends the legal move `m` of `pos` in SAN of the given rank base. A move from an empty
/// square is written in ICCS.
pub fn write(pos: &Position, m: Move, base: RankBase, out: &mut String) {
    let Some(p) = pos.piece_at(m.from) else {
        super::iccs::write(m, base == RankBase::One, out);
        return;
    };
    let capture = pos.piece_at(m.to).is_some();
    let legal = pos.legal_moves();
    let rivals: arrayvec::ArrayVec<Square, 8> = legal
        .iter()
        .filter(|o| {
            o.to == m.to && o.from != m.from && pos.piece_at(o.from).is_some_and(|q| q == p)
        })
        .map(|o| o.from)
        .take(8)
        .collect();
    let bare_pawn = p.role == Role::Pawn && base == RankBase::Zero;
    if !bare_pawn {
        out.push(letter(p.role));
    }
    if !rivals.is_empty() || (bare_pawn && capture) {
        let same_file = rivals.iter().any(|s| s.file() == m.from.file());
        let same_rank = rivals.iter().any(|s| s.rank() == m.from.rank());
        if !same_file || (bare_pawn && !same_rank) {
            out.push(m.from.file().char());
        } else if !same_rank {
            push_rank(m.from.rank().index(), base, out);
        } else {
            out.push(m.from.file().char());
            push_rank(m.from.rank().index(), base, out);
        }
    }
    if capture {
        out.push('x');
    }
    out.push(m.to.file().char());
    push_rank(m.to.rank().index(), base, out);
    let after = pos.after(m);
    if after.is_check() {
        out.push(if after.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
}
