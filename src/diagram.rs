//! Text diagrams of a position for the terminal.
//!
//! Black is at the top, Red at the bottom, files `a`..`i` under the board and ranks `0`..`9`
//! beside it. Red pieces are written `(俥)`, Black pieces `[車]`, with the glyphs that tell the
//! sides apart even without the brackets: 帥仕相傌俥炮兵 for Red, 將士象馬車砲卒 for Black.

use crate::setup::Setup;
use crate::types::{Color, Move, Piece, Role};
use std::fmt;

/// The glyph used in diagrams, distinct for each side.
pub fn diagram_glyph(p: Piece) -> char {
    match (p.color, p.role) {
        (Color::Red, Role::King) => '帥',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Red, Role::Elephant) => '相',
        (Color::Red, Role::Horse) => '傌',
        (Color::Red, Role::Rook) => '俥',
        (Color::Red, Role::Cannon) => '炮',
        (Color::Red, Role::Pawn) => '兵',
        (Color::Black, Role::King) => '將',
        (Color::Black, Role::Advisor) => '士',
        (Color::Black, Role::Elephant) => '象',
        (Color::Black, Role::Horse) => '馬',
        (Color::Black, Role::Rook) => '車',
        (Color::Black, Role::Cannon) => '砲',
        (Color::Black, Role::Pawn) => '卒',
    }
}

/// Writes the diagram; `last` marks the squares of the last move with `*`.
pub fn write_text(f: &mut dyn fmt::Write, setup: &Setup, last: Option<Move>) -> fmt::Result {
    for rank in (0..10).rev() {
        write!(f, "{rank} ")?;
        for file in 0..9 {
            let sq = crate::Square::from_index(rank * 9 + file);
            let marked = last.is_some_and(|m| m.from == sq || m.to == sq);
            match setup.board[sq as usize] {
                Some(p) => {
                    let (l, r) = if p.color == Color::Red {
                        ('(', ')')
                    } else {
                        ('[', ']')
                    };
                    write!(f, "{l}{}{r}", diagram_glyph(p))?;
                }
                None if marked => f.write_str(" ** ")?,
                None => f.write_str(" ・ ")?,
            }
        }
        writeln!(f)?;
        if rank == 5 {
            writeln!(f, "  ──────────── 楚河   汉界 ────────────")?;
        }
    }
    writeln!(f, "   a   b   c   d   e   f   g   h   i")?;
    write!(
        f,
        "{} to move",
        match setup.turn {
            Color::Red => "Red 红方",
            Color::Black => "Black 黑方",
        }
    )
}

/// The diagram as a string.
pub fn text(setup: &Setup, last: Option<Move>) -> String {
    let mut s = String::new();
    write_text(&mut s, setup, last).expect("writing to a String cannot fail");
    s
}
