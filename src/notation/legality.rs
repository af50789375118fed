//! Legality of one move without generating the move list, and the explanation of a failure.

use super::MoveErrorKind;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, Role, Square};

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
