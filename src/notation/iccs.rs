//! ICCS / UCCI coordinate notation: `h2e2`, `H2-E2`, `h2-e2`, `H2E2`.
//!
//! Files `a`-`i` from Red's left, ranks `0`-`9` from Red's side. Full-width characters and
//! trailing annotation marks (`!`, `?`, `+`, `#`) are accepted.
//!
//! The rank-1..10 dialect of Fairy-Stockfish, pychess and Cutechess (`h3e3` = `h2e2`, `h10g8` =
//! `h9g7`) is read only with [`super::ParseOptions::iccs_one_based`]; without it, a token with a
//! rank `10` is a syntax error that names the dialect. [`super::sniff_iccs_ranks`] tells which
//! dialect a token must be in.

use super::{
    MoveError, MoveErrorKind, Notation, ParseOptions, ParsedMove, explain_illegal, is_legal_fast,
    token_chars,
};
use crate::position::Position;
use crate::types::{File, Move, Square};

/// A coordinate token split into (file, rank number as written) twice.
type Raw = ((u8, u8), (u8, u8));

/// Splits `h2e2`, `h2-e2`, `h10-g8` into files and written rank numbers.
fn split(text: &str) -> Option<Raw> {
    let chars = token_chars(text, true)?;
    let c = &chars[..];
    let mut i = 0;
    let a = square(c, &mut i)?;
    if c.get(i) == Some(&'-') {
        i += 1;
    }
    let b = square(c, &mut i)?;
    (i == c.len()).then_some((a, b))
}

/// One square: a file letter and a rank number 0-10.
fn square(c: &[char], i: &mut usize) -> Option<(u8, u8)> {
    let f = File::from_char(*c.get(*i)?)?.index();
    let d = c.get(*i + 1)?.to_digit(10)? as u8;
    *i += 2;
    if d == 1 && c.get(*i) == Some(&'0') {
        *i += 1;
        return Some((f, 10));
    }
    Some((f, d))
}

fn to_move(raw: Raw, one_based: bool) -> Option<Move> {
    let sq = |(f, r): (u8, u8)| {
        let rank = if one_based {
            r.checked_sub(1)?
        } else {
            if r > 9 {
                return None;
            }
            r
        };
        Square::from_xy(f as i32, rank as i32)
    };
    Some(Move::new(sq(raw.0)?, sq(raw.1)?))
}

/// Reads a coordinate move token without a position (syntax only).
pub fn parse_syntax(text: &str, one_based: bool) -> Option<Move> {
    to_move(split(text)?, one_based)
}

/// Whether a token has the shape of a coordinate move (either rank dialect).
pub fn looks_like(text: &str) -> bool {
    split(text).is_some_and(|raw| to_move(raw, false).is_some() || to_move(raw, true).is_some())
}

/// Which rank dialect the token must be in, if it decides.
pub(crate) fn rank_dialect(text: &str) -> Option<super::IccsRanks> {
    let ((_, a), (_, b)) = split(text)?;
    if a == 0 || b == 0 {
        Some(super::IccsRanks::ZeroBased)
    } else if a == 10 || b == 10 {
        Some(super::IccsRanks::OneBased)
    } else {
        None
    }
}

/// Reads and checks one ICCS move.
pub(crate) fn parse(
    pos: &Position,
    text: &str,
    opts: &ParseOptions,
) -> Result<ParsedMove, MoveError> {
    let err = |kind, msg: String| MoveError::new(kind, Notation::Iccs, text, msg);
    let Some(raw) = split(text) else {
        return Err(super::syntax_error(
            pos,
            text,
            Notation::Iccs,
            opts,
            "not an ICCS coordinate move (expected something like h2e2 or H2-E2)".to_string(),
        ));
    };
    let Some(m) = to_move(raw, opts.iccs_one_based) else {
        let msg = if opts.iccs_one_based {
            "rank 0 does not exist in the 1-10 rank dialect".to_string()
        } else {
            "rank 10 does not exist in ICCS (ranks 0-9); this looks like the 1-10 rank dialect of Fairy-Stockfish, which must be selected explicitly".to_string()
        };
        let other = to_move(raw, !opts.iccs_one_based).filter(|m| is_legal_fast(pos, *m));
        return Err(err(MoveErrorKind::Syntax, msg)
            .with_suggestions(other.map(|m| m.to_string()).into_iter().collect()));
    };
    if is_legal_fast(pos, m) {
        return Ok(ParsedMove {
            mv: m,
            resolved_by_legality: false,
        });
    }
    let (kind, msg) = explain_illegal(pos, m)
        .unwrap_or((MoveErrorKind::IllegalMovement, format!("{m} is not legal")));
    let mut near = Vec::new();
    let mut push = |c: Option<Move>| {
        if let Some(c) = c
            && c != m
            && is_legal_fast(pos, c)
            && !near.contains(&c)
        {
            near.push(c);
        }
    };
    // From and to swapped.
    push(Some(Move::new(m.to, m.from)));
    // The other rank dialect.
    push(to_move(raw, !opts.iccs_one_based));
    // Ranks off by one either way.
    for dr in [-1, 1] {
        push(
            m.from
                .offset(0, dr)
                .zip(m.to.offset(0, dr))
                .map(|(a, b)| Move::new(a, b)),
        );
    }
    // The board seen from Black's side (rotated), or mirrored left-right.
    push(Some(Move::new(m.from.flip(), m.to.flip())));
    let mirror = |s: Square| Square::from_xy(8 - s.file().index() as i32, s.rank().index() as i32);
    push(
        mirror(m.from)
            .zip(mirror(m.to))
            .map(|(a, b)| Move::new(a, b)),
    );
    let suggestions = near.iter().take(6).map(|m| m.to_string()).collect();
    Err(err(kind, msg)
        .with_candidates(vec![m])
        .with_suggestions(suggestions))
}

/// Appends `m` in lower-case ICCS without a hyphen; with `one_based`, ranks 1-10.
pub fn write(m: Move, one_based: bool, out: &mut String) {
    for sq in [m.from, m.to] {
        out.push(sq.file().char());
        let r = sq.rank().index() + one_based as u8;
        if r == 10 {
            out.push_str("10");
        } else {
            out.push((b'0' + r) as char);
        }
    }
}

/// `m` in the 1-10 rank dialect (`h3e3`).
pub fn format_one_based(m: Move) -> String {
    let mut s = String::with_capacity(6);
    write(m, true, &mut s);
    s
}
