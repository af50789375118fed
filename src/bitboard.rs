//! [`Bitboard`]: a set of squares, one bit per square (bit `rank * 9 + file`) in a `u128`.

use crate::types::{Color, File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// File `a`: bits 0, 9, ..., 81.
const FILE_A: u128 = {
    let mut b = 0u128;
    let mut r = 0;
    while r < 10 {
        b |= 1u128 << (r * 9);
        r += 1;
    }
    b
};

/// All 90 squares.
const FULL: u128 = (1u128 << 90) - 1;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(FULL);

    /// Red's half: ranks 0-4.
    pub const RED_SIDE: Bitboard = Bitboard((1u128 << 45) - 1);
    /// Black's half: ranks 5-9.
    pub const BLACK_SIDE: Bitboard = Bitboard(FULL ^ ((1u128 << 45) - 1));

    /// Red's palace d0-f2.
    pub const RED_PALACE: Bitboard = Bitboard((0b111 << 3) | (0b111 << 12) | (0b111 << 21));
    /// Black's palace d7-f9.
    pub const BLACK_PALACE: Bitboard =
        Bitboard((0b111u128 << 66) | (0b111u128 << 75) | (0b111u128 << 84));

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq as u32)
    }

    /// The half of the board on the given side of the river.
    #[inline]
    pub const fn side(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard::RED_SIDE,
            Color::Black => Bitboard::BLACK_SIDE,
        }
    }

    /// The palace of the given side.
    #[inline]
    pub const fn palace(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard::RED_PALACE,
            Color::Black => Bitboard::BLACK_PALACE,
        }
    }

    /// All squares of a file.
    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(FILE_A << file.index())
    }

    /// All squares of a rank.
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0x1ffu128 << (rank.index() as u32 * 9))
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> (sq as u32) & 1 != 0
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq as u32;
    }
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq as u32);
    }
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq as u32)
    }
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq as u32))
    }
    /// The lowest square, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as usize))
        }
    }
    /// The only square, when exactly one is set.
    pub fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Square::from_index(i as usize))
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.set(sq);
        }
        b
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & !o.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(")?;
        for r in (0..10).rev() {
            for file in 0..9 {
                let sq = Square::from_index(r * 9 + file);
                f.write_str(if self.contains(sq) { "X" } else { "." })?;
            }
            writeln!(f)?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(Bitboard::RED_PALACE.count(), 9);
        assert_eq!(Bitboard::BLACK_PALACE.count(), 9);
        for sq in Square::ALL {
            assert_eq!(Bitboard::RED_PALACE.contains(sq), sq.in_palace(Color::Red));
            assert_eq!(
                Bitboard::BLACK_PALACE.contains(sq),
                sq.in_palace(Color::Black)
            );
            assert_eq!(Bitboard::RED_SIDE.contains(sq), sq.on_own_side(Color::Red));
            assert!(Bitboard::file(sq.file()).contains(sq));
            assert!(Bitboard::rank(sq.rank()).contains(sq));
        }
        assert_eq!(Bitboard::FULL.count(), 90);
        assert_eq!((!Bitboard::EMPTY).count(), 90);
        let b: Bitboard = [Square::A0, Square::I9].into_iter().collect();
        assert_eq!(b.collect::<Vec<_>>(), vec![Square::A0, Square::I9]);
    }
}
