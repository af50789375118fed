//! Chinese file notation: 炮二平五, 马８进７, 前车平四, 一兵平四, 前九平八, 前兵九平八.
//!
//! ```text
//! move      ::= PIECE FILE DIR NUM           炮二平五  马8进7
//!             | POS PIECE DIR NUM            前马进七  后炮退1  中兵平四
//!             | ORD PIECE DIR NUM            二兵平四 (xqbase numbering over all tandem files)
//!             | (POS|ORD) FILE DIR NUM       前九平八  后３进１ (dpxq: piece name dropped, a pawn)
//!             | (POS|ORD) PIECE FILE DIR NUM 前兵九平八 (5-character form)
//! ```
//!
//! Reading is lenient where nothing is lost: simplified and traditional characters and both
//! sides' glyphs are accepted for either side (帅帥将將 仕士 相象 马馬傌碼 车車俥砗硨 炮砲包 兵卒,
//! 进進 退 平, 前 中 后後), and FILE/NUM may be Chinese numerals (一..九, also 壹..玖), ASCII
//! digits or full-width digits for either side; numbers always count from the mover's right.
//!
//! Qualifiers: 前/后 (and 中 for three pawns) pick among the pieces of that kind on the one file
//! holding several. With four or five pawns on a file, 前 is the foremost and 一..五 count from the
//! front (xqbase and dpxq agree); 中/后 there are ambiguous (xqbase reads the second/third, a human
//! the middle/rearmost). With tandem pawns on two files, 一..五 follow xqbase (files from the
//! mover's right, front to back), the dpxq forms 前九/后３ (and 前兵九) name the file, and a bare
//! 前兵 is ambiguous unless [`super::ParseOptions::xqbase_tandem`] is set.
//!
//! A plain file form naming a file with two or more such pieces is accepted when exactly one of
//! them can legally make the move ([`super::ParsedMove::resolved_by_legality`]).
//!
//! Writing follows xqbase (see the module docs of [`super`]): side-specific simplified glyphs,
//! Chinese numerals for Red, full-width digits for Black.

use super::{
    Desc, Dir, MoveError, Naming, Notation, ParseOptions, ParsedMove, Qual, Sel, dir_num, naming,
    resolve, token_chars,
};
use crate::position::Position;
use crate::types::{Color, Move, Role};

/// The piece a character names, whatever the side.
pub fn role_of(c: char) -> Option<Role> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Role::King,
        '仕' | '士' => Role::Advisor,
        '相' | '象' => Role::Elephant,
        '马' | '馬' | '傌' | '碼' | '码' => Role::Horse,
        '车' | '車' | '俥' | '砗' | '硨' => Role::Rook,
        '炮' | '砲' | '包' => Role::Cannon,
        '兵' | '卒' => Role::Pawn,
        _ => return None,
    })
}

fn dir_of(c: char) -> Option<Dir> {
    match c {
        '进' | '進' => Some(Dir::Forward),
        '退' => Some(Dir::Backward),
        '平' => Some(Dir::Traverse),
        _ => None,
    }
}

fn pos_of(c: char) -> Option<Qual> {
    match c {
        '前' => Some(Qual::Front),
        '中' => Some(Qual::Middle),
        '后' | '後' => Some(Qual::Rear),
        _ => None,
    }
}

/// A number 1-9 written as a Chinese numeral (一..九, 壹..玖) or a digit.
fn num_of(c: char) -> Option<u8> {
    Some(match c {
        '一' | '壹' | '1' => 1,
        '二' | '贰' | '貳' | '2' => 2,
        '三' | '叁' | '參' | '3' => 3,
        '四' | '肆' | '4' => 4,
        '五' | '伍' | '5' => 5,
        '六' | '陆' | '陸' | '6' => 6,
        '七' | '柒' | '7' => 7,
        '八' | '捌' | '8' => 8,
        '九' | '玖' | '9' => 9,
        _ => return None,
    })
}

/// The Chinese numeral for 1-9.
pub fn numeral(n: u8) -> char {
    ['一', '二', '三', '四', '五', '六', '七', '八', '九'][(n.clamp(1, 9) - 1) as usize]
}

/// The full-width digit for 1-9.
pub fn full_width_digit(n: u8) -> char {
    char::from_u32(0xFF10 + n.clamp(1, 9) as u32).unwrap_or('?')
}

/// A qualifier in first position: 前/中/后 or an ordinal 一..五.
fn qual_of(c: char) -> Option<Qual> {
    pos_of(c).or_else(|| num_of(c).filter(|&k| k <= 5).map(Qual::Ord))
}

/// Reads the token into a description, without a position.
pub(crate) fn describe(text: &str) -> Option<Desc> {
    let chars = token_chars(text, true)?;
    match chars[..] {
        [a, b, c, d] => {
            let dir = dir_of(c)?;
            let num = num_of(d)?;
            let (role, sel) = if let Some(role) = role_of(a) {
                (role, Sel::File(num_of(b)?))
            } else {
                let q = qual_of(a)?;
                if let Some(role) = role_of(b) {
                    (role, Sel::Qual(q))
                } else {
                    (Role::Pawn, Sel::FileQual(num_of(b)?, q))
                }
            };
            Some(Desc {
                role,
                sel,
                dir,
                num,
            })
        }
        [a, b, c, d, e] => Some(Desc {
            role: role_of(b)?,
            sel: Sel::FileQual(num_of(c)?, qual_of(a)?),
            dir: dir_of(d)?,
            num: num_of(e)?,
        }),
        _ => None,
    }
}

/// Whether a token looks like a Chinese move (it reads as one, or holds 进/退/平 and a piece or
/// qualifier character).
pub fn looks_like(text: &str) -> bool {
    if describe(text).is_some() {
        return true;
    }
    let mut dir = false;
    let mut other = false;
    for c in text.chars() {
        if dir_of(c).is_some() {
            dir = true;
        } else if role_of(c).is_some() || pos_of(c).is_some() {
            other = true;
        }
    }
    dir && other
}

/// Reads and checks one Chinese move.
pub(crate) fn parse(
    pos: &Position,
    text: &str,
    opts: &ParseOptions,
) -> Result<ParsedMove, MoveError> {
    let Some(d) = describe(text) else {
        return Err(super::syntax_error(
            pos,
            text,
            Notation::Chinese,
            opts,
            syntax_message(text),
        ));
    };
    resolve(pos, &d, opts, Notation::Chinese, text)
}

/// Says which character of a token that is not a Chinese move is wrong.
fn syntax_message(text: &str) -> String {
    const EXPECTED: &str =
        "not a Chinese move (expected something like 炮二平五, 马8进7 or 前车平四)";
    let Some(chars) = token_chars(text, true) else {
        return format!("{EXPECTED}: too long");
    };
    let n = chars.len();
    if n != 4 && n != 5 {
        return format!(
            "{EXPECTED}: a move has 4 characters (5 with a qualifier and a file), this has {n}"
        );
    }
    let bad = |i: usize, what: &str| {
        format!(
            "{EXPECTED}: character {} '{}' is not {what}",
            i + 1,
            chars[i]
        )
    };
    if dir_of(chars[n - 2]).is_none() {
        return bad(n - 2, "a direction (进, 退 or 平)");
    }
    if num_of(chars[n - 1]).is_none() {
        return bad(n - 1, "a number 1-9 (一..九 or a digit)");
    }
    if role_of(chars[0]).is_none() && qual_of(chars[0]).is_none() {
        return bad(
            0,
            "a piece (车马炮兵相仕帅...) or a qualifier (前中后, 一..五)",
        );
    }
    if n == 5 {
        if role_of(chars[1]).is_none() {
            return bad(1, "a piece");
        }
        return bad(2, "a file number");
    }
    if role_of(chars[0]).is_some() {
        return bad(1, "a file number (一..九 or a digit)");
    }
    bad(1, "a piece or a file number")
}

fn push_num(n: u8, color: Color, out: &mut String) {
    out.push(match color {
        Color::Red => numeral(n),
        Color::Black => full_width_digit(n),
    });
}

/// Appends the legal move `m` in Chinese (xqbase convention).
pub fn write(pos: &Position, m: Move, out: &mut String) {
    let Some(p) = pos.piece_at(m.from) else {
        super::iccs::write(m, false, out);
        return;
    };
    let (role, color) = (p.role, p.color);
    let glyph = role.glyph(color);
    const POS: [[char; 3]; 2] = [['前', '后', '后'], ['前', '中', '后']];
    match naming(pos, m.from, role, color) {
        Naming::Plain => {
            out.push(glyph);
            push_num(m.from.file().number_for(color), color, out);
        }
        Naming::OneFile { i, n } if n <= 3 => {
            out.push(POS[n - 2][i]);
            out.push(glyph);
        }
        Naming::OneFile { i, .. } => {
            out.push(numeral(i as u8 + 1));
            out.push(glyph);
        }
        Naming::ManyFiles { global, .. } => {
            out.push(numeral(global as u8 + 1));
            out.push(glyph);
        }
    }
    let (dir, num) = dir_num(m, role, color);
    out.push(match dir {
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Traverse => '平',
    });
    push_num(num, color, out);
}

/// Appends the legal move `m` in the dpxq convention: as [`write()`], except tandem pawns on two
/// files are named by their file with the piece left out (前九平八, 后３进１, 中七..), and four or
/// five pawns on one file are 前, 二, 三, 四, 五.
pub fn write_dpxq(pos: &Position, m: Move, out: &mut String) {
    let Some(p) = pos.piece_at(m.from) else {
        super::iccs::write(m, false, out);
        return;
    };
    let (role, color) = (p.role, p.color);
    match naming(pos, m.from, role, color) {
        Naming::ManyFiles { i, n, .. } => {
            out.push(if i == 0 {
                '前'
            } else if i == n - 1 {
                '后'
            } else if n == 3 {
                '中'
            } else {
                numeral(i as u8 + 1)
            });
            push_num(m.from.file().number_for(color), color, out);
        }
        Naming::OneFile { i: 0, n } if n >= 4 => {
            out.push('前');
            out.push(role.glyph(color));
        }
        _ => {
            let mut s = String::new();
            write(pos, m, &mut s);
            out.push_str(&s);
            return;
        }
    }
    let (dir, num) = dir_num(m, role, color);
    out.push(match dir {
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Traverse => '平',
    });
    push_num(num, color, out);
}
