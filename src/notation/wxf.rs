//! WXF file notation in Latin letters.
//!
//! ```text
//! wxf   ::= PIECE FILE DIR NUM        C2.5  H8+7  R1.1  C2=5
//!         | PIECE FILE NUM            C25   (sideways move written with nothing)
//!         | PIECE TAND DIR NUM        C+.5  R--1  P..4 (xqbase middle)  Pa+1 (xqbase ordinal)
//!         | TAND PIECE DIR NUM        +C.5  -P+1  (sign first, as wxf.ca data writes it)
//!         | TAND TAND DIR NUM         ++.4  --.4  (outermost of 4-5 pawns on a file)
//!         | FILE TAND DIR NUM         3+.4  7-.6  (tandem pawns on two files)
//!         | FILE FILE DIR NUM         33.4  (middle pawn of three on file 3, two-file case)
//!         | ORD FILE DIR NUM          27=8  (Fairy-Stockfish: second pawn from the front on file 7)
//! PIECE ::= K A E H R C P  (also B/M = elephant, N = horse, G/S = advisor; either case)
//! DIR   ::= + | - | . | =
//! ```
//!
//! Full-width characters (`Ｃ２＝５`) are folded to ASCII, and trailing annotation marks (`!`, `?`,
//! a check `+`, a mate `#` or `++`) are dropped. NUM counts steps for K R C P moving forward or
//! backward, and is the destination file otherwise.
//!
//! Tandem pieces follow WXF: `+`/`-` for two on a file; with three pawns, `P+`, `P<file>` (the
//! middle one) and `P-`; with four or five, `++` is the foremost, `P+` the **second**, `P-` the
//! second rearmost, `--` the rearmost, and the middle of five takes the plain file digit. With
//! [`super::ParseOptions::xqbase_tandem`], `P+`/`P-` read as xqbase does (first and third).
//!
//! Fairy-Stockfish writes tandem pawns as `<ordinal><file>` (`15=4`: the first pawn from the front
//! on file 5). Those are read too; where the form collides with WXF's middle-pawn form (`33`), the
//! WXF reading wins unless only the Fairy-Stockfish reading is legal (then it is reported as
//! resolved by legality).

use super::{
    Desc, Dir, MoveError, Naming, Notation, ParseOptions, ParsedMove, Qual, Sel, dir_num, naming,
    resolve, token_chars,
};
use crate::position::Position;
use crate::types::{Move, Role};

fn role_of(c: char) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        'K' => Role::King,
        'A' | 'G' | 'S' => Role::Advisor,
        'E' | 'B' | 'M' => Role::Elephant,
        'H' | 'N' => Role::Horse,
        'R' => Role::Rook,
        'C' => Role::Cannon,
        'P' => Role::Pawn,
        _ => return None,
    })
}

fn dir_of(c: char) -> Option<Dir> {
    match c {
        '+' => Some(Dir::Forward),
        '-' => Some(Dir::Backward),
        '.' | '=' => Some(Dir::Traverse),
        _ => None,
    }
}

fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// Reads the token into a description, without a position.
pub(crate) fn describe(text: &str) -> Option<Desc> {
    let chars = token_chars(text, true)?;
    let c = &chars[..];
    match *c {
        [p, f, n] => Some(Desc {
            role: role_of(p)?,
            sel: Sel::File(digit(f)?),
            dir: Dir::Traverse,
            num: digit(n)?,
        }),
        [a, b, d, n] => {
            let dir = dir_of(d)?;
            let num = digit(n)?;
            let (role, sel) = if let Some(role) = role_of(a) {
                let sel = match b {
                    '+' => Sel::Qual(Qual::WxfPlus),
                    '-' => Sel::Qual(Qual::WxfMinus),
                    '.' => Sel::Qual(Qual::Middle),
                    'a'..='e' => Sel::Qual(Qual::Ord(b as u8 - b'a' + 1)),
                    _ => Sel::File(digit(b)?),
                };
                (role, sel)
            } else if let Some(file) = digit(a) {
                match b {
                    '+' => (Role::Pawn, Sel::FileQual(file, Qual::WxfPlus)),
                    '-' => (Role::Pawn, Sel::FileQual(file, Qual::WxfMinus)),
                    _ if b == a => (Role::Pawn, Sel::FileQual(file, Qual::Middle)),
                    // Fairy-Stockfish: ordinal from the front, then the file (`27=8`).
                    _ => (Role::Pawn, Sel::FileQual(digit(b)?, Qual::Ord(file))),
                }
            } else {
                let plus = match a {
                    '+' => true,
                    '-' => false,
                    _ => return None,
                };
                match b {
                    '+' if plus => (Role::Pawn, Sel::Qual(Qual::Foremost)),
                    '-' if !plus => (Role::Pawn, Sel::Qual(Qual::Rearmost)),
                    _ => (
                        role_of(b)?,
                        Sel::Qual(if plus { Qual::WxfPlus } else { Qual::WxfMinus }),
                    ),
                }
            };
            Some(Desc {
                role,
                sel,
                dir,
                num,
            })
        }
        _ => None,
    }
}

/// Says which character of a token that is not a WXF move is wrong.
fn syntax_message(text: &str) -> String {
    const EXPECTED: &str = "not a WXF move (expected something like C2.5, H8+7, R+.4 or ++.4)";
    let Some(chars) = token_chars(text, true) else {
        return format!("{EXPECTED}: too long");
    };
    let n = chars.len();
    if n != 4 && n != 3 {
        return format!("{EXPECTED}: a move has 4 characters, this has {n}");
    }
    let bad = |i: usize, what: &str| {
        format!(
            "{EXPECTED}: character {} '{}' is not {what}",
            i + 1,
            chars[i]
        )
    };
    if digit(chars[n - 1]).is_none() {
        return bad(n - 1, "a number 1-9");
    }
    if n == 4 && dir_of(chars[2]).is_none() {
        return bad(2, "a direction (+, -, . or =)");
    }
    if role_of(chars[0]).is_none() && digit(chars[0]).is_none() && !matches!(chars[0], '+' | '-') {
        return bad(0, "a piece letter (K A E H R C P) or a tandem sign");
    }
    bad(1, "a file number or a tandem sign (+, -)")
}

/// Whether a token has the shape of a WXF move.
pub fn looks_like(text: &str) -> bool {
    describe(text).is_some()
}

/// Reads and checks one WXF move.
pub(crate) fn parse(
    pos: &Position,
    text: &str,
    opts: &ParseOptions,
) -> Result<ParsedMove, MoveError> {
    let Some(d) = describe(text) else {
        return Err(super::syntax_error(
            pos,
            text,
            Notation::Wxf,
            opts,
            syntax_message(text),
        ));
    };
    match resolve(pos, &d, opts, Notation::Wxf, text) {
        Err(e) if matches!(d.sel, Sel::FileQual(f, Qual::Middle) if f <= 5) => {
            // `33.4` is the middle pawn on file 3 in WXF, the third pawn on file 3 in
            // Fairy-Stockfish's `<ordinal><file>` form: take the latter when only it is legal.
            let Sel::FileQual(f, _) = d.sel else {
                return Err(e);
            };
            let alt = Desc {
                sel: Sel::FileQual(f, Qual::Ord(f)),
                ..d
            };
            match super::try_resolve(pos, &alt, opts, Notation::Wxf) {
                Some(p) => Ok(ParsedMove {
                    mv: p.mv,
                    resolved_by_legality: true,
                }),
                None => Err(e),
            }
        }
        r => r,
    }
}

/// Appends the legal move `m` in WXF (official forms, see the module docs).
pub fn write(pos: &Position, m: Move, out: &mut String) {
    let Some(p) = pos.piece_at(m.from) else {
        super::iccs::write(m, false, out);
        return;
    };
    let (role, color) = (p.role, p.color);
    let letter = match role {
        Role::King => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Rook => 'R',
        Role::Cannon => 'C',
        Role::Pawn => 'P',
    };
    let file = (b'0' + m.from.file().number_for(color)) as char;
    match naming(pos, m.from, role, color) {
        Naming::Plain => {
            out.push(letter);
            out.push(file);
        }
        Naming::OneFile { i, n } => {
            let (a, b) = match (n, i) {
                (2 | 3, 0) => (letter, '+'),
                (3, 1) => (letter, file),
                (_, _) if n <= 3 => (letter, '-'),
                (_, 0) => ('+', '+'),
                (_, 1) => (letter, '+'),
                (5, 2) => (letter, file),
                (_, _) if i == n - 1 => ('-', '-'),
                (_, _) => (letter, '-'),
            };
            out.push(a);
            out.push(b);
        }
        Naming::ManyFiles { i, n, .. } => {
            out.push(file);
            out.push(if i == 0 {
                '+'
            } else if i == n - 1 {
                '-'
            } else {
                file
            });
        }
    }
    let (dir, num) = dir_num(m, role, color);
    out.push(match dir {
        Dir::Forward => '+',
        Dir::Backward => '-',
        Dir::Traverse => '.',
    });
    out.push((b'0' + num) as char);
}
