//! The file-based notations (WXF and Chinese) share one description of a move: which piece
//! (by file or qualifier), which way, how far. Selection, resolution against a position,
//! naming for printing, and suggestions for a token that does not fit.

use super::{
    MoveError, MoveErrorKind, Notation, ParseOptions, ParsedMove, chinese, explain_illegal,
    is_legal_fast, parse_move_with, print_move, sniff,
};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, File, Move, Role, Square};
use arrayvec::ArrayVec;

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
                .ok_or_else(|| (MoveErrorKind::Syntax, format!("file {n} does not exist")))?;
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
                .ok_or_else(|| (MoveErrorKind::Syntax, format!("file {n} does not exist")))?;
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
