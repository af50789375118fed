//! Basic vocabulary: [`Color`], [`Role`], [`Piece`], [`File`], [`Rank`], [`Square`], [`Move`].
//!
//! Squares follow ICCS: files `a`..`i` from Red's left, ranks `0`..`9` from Red's side, so Red's
//! king starts on `e0` and Black's on `e9`. A square's index is `rank * 9 + file`.

use std::fmt;
use std::str::FromStr;

/// The two sides. Red moves first.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"red"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// 红 or 黑.
    pub const fn name_zh(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Black => "黑",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of piece.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this role one side has in a full set.
    pub const fn max_count(self) -> u32 {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }

    /// The upper-case FEN/WXF letter (K A B N R C P).
    pub const fn upper_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case, with the aliases E (elephant) and H (horse).
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Rook,
            'C' => Role::Cannon,
            'P' => Role::Pawn,
            _ => return None,
        })
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Rook => "rook",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }

    /// Simplified Chinese glyph as written for the given side (帅/将, 仕/士, 相/象, 马, 车, 炮, 兵/卒).
    pub const fn glyph(self, color: Color) -> char {
        match (self, color) {
            (Role::King, Color::Red) => '帅',
            (Role::King, Color::Black) => '将',
            (Role::Advisor, Color::Red) => '仕',
            (Role::Advisor, Color::Black) => '士',
            (Role::Elephant, Color::Red) => '相',
            (Role::Elephant, Color::Black) => '象',
            (Role::Horse, _) => '马',
            (Role::Rook, _) => '车',
            (Role::Cannon, _) => '炮',
            (Role::Pawn, Color::Red) => '兵',
            (Role::Pawn, Color::Black) => '卒',
        }
    }

    /// Material value used by the rules engine's net-gain test (pawn 1 before the river).
    pub const fn value(self) -> u32 {
        match self {
            Role::King => 1000,
            Role::Advisor | Role::Elephant => 2,
            Role::Horse | Role::Cannon => 4,
            Role::Rook => 9,
            Role::Pawn => 1,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A coloured piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn char(self) -> char {
        let c = self.role.upper_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (E and H accepted as aliases of B and N).
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }

    /// The Chinese glyph for this piece.
    pub const fn glyph(self) -> char {
        self.role.glyph(self.color)
    }

    /// A compact index 0..14 (color * 7 + role).
    #[inline]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.role as usize
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A file, `a` (0) to `i` (8), counted from Red's left.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 { Some(File(index)) } else { None }
    }
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='i' => Some(File(c as u8 - b'a')),
            'A'..='I' => Some(File(c as u8 - b'A')),
            _ => None,
        }
    }
    /// The file number a side uses in WXF and Chinese notation: 1-9 from that side's right.
    pub const fn number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.0,
            Color::Black => self.0 + 1,
        }
    }
    /// Inverse of [`File::number_for`].
    pub const fn from_number(number: u8, color: Color) -> Option<File> {
        if number < 1 || number > 9 {
            return None;
        }
        Some(match color {
            Color::Red => File(9 - number),
            Color::Black => File(number - 1),
        })
    }
}

/// A rank, `0` (Red's back rank) to `9` (Black's back rank).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 10 { Some(Rank(index)) } else { None }
    }
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn char(self) -> char {
        (b'0' + self.0) as char
    }
    /// Distance from the given side's back rank (0 = own back rank).
    pub const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Red => self.0,
            Color::Black => 9 - self.0,
        }
    }
}

/// One of the 90 points of the board, in ICCS naming.
#[rustfmt::skip]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Square {
    A0, B0, C0, D0, E0, F0, G0, H0, I0,
    A1, B1, C1, D1, E1, F1, G1, H1, I1,
    A2, B2, C2, D2, E2, F2, G2, H2, I2,
    A3, B3, C3, D3, E3, F3, G3, H3, I3,
    A4, B4, C4, D4, E4, F4, G4, H4, I4,
    A5, B5, C5, D5, E5, F5, G5, H5, I5,
    A6, B6, C6, D6, E6, F6, G6, H6, I6,
    A7, B7, C7, D7, E7, F7, G7, H7, I7,
    A8, B8, C8, D8, E8, F8, G8, H8, I8,
    A9, B9, C9, D9, E9, F9, G9, H9, I9,
}

impl Square {
    /// All squares in index order.
    pub const ALL: [Square; 90] = {
        let mut out = [Square::A0; 90];
        let mut i = 0;
        while i < 90 {
            out[i] = Square::from_index_unchecked(i as u8);
            i += 1;
        }
        out
    };

    const fn from_index_unchecked(i: u8) -> Square {
        // Exhaustive table lookup without unsafe: the enum is dense from 0 to 89.
        #[rustfmt::skip]
        const TABLE: [Square; 90] = {
            use Square::*;
            [
                A0, B0, C0, D0, E0, F0, G0, H0, I0,
                A1, B1, C1, D1, E1, F1, G1, H1, I1,
                A2, B2, C2, D2, E2, F2, G2, H2, I2,
                A3, B3, C3, D3, E3, F3, G3, H3, I3,
                A4, B4, C4, D4, E4, F4, G4, H4, I4,
                A5, B5, C5, D5, E5, F5, G5, H5, I5,
                A6, B6, C6, D6, E6, F6, G6, H6, I6,
                A7, B7, C7, D7, E7, F7, G7, H7, I7,
                A8, B8, C8, D8, E8, F8, G8, H8, I8,
                A9, B9, C9, D9, E9, F9, G9, H9, I9,
            ]
        };
        TABLE[i as usize]
    }

    /// The square with this index (0..90), or `None`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square::from_index_unchecked(index))
        } else {
            None
        }
    }

    /// The square with this index; panics on an index of 90 or more. For internal tables.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        Square::from_index_unchecked(index as u8)
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::from_index_unchecked(rank.0 * 9 + file.0)
    }

    /// From file 0..9 and rank 0..10, or `None` when off the board.
    #[inline]
    pub const fn from_xy(file: i32, rank: i32) -> Option<Square> {
        if file < 0 || file > 8 || rank < 0 || rank > 9 {
            None
        } else {
            Some(Square::from_index_unchecked((rank * 9 + file) as u8))
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline]
    pub const fn file(self) -> File {
        File(self as u8 % 9)
    }
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self as u8 / 9)
    }

    /// The square a step away, or `None` when off the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_xy(self.file().0 as i32 + df, self.rank().0 as i32 + dr)
    }

    /// The same square seen from the other side (rotated 180 degrees).
    pub const fn flip(self) -> Square {
        Square::from_index_unchecked(89 - self as u8)
    }

    /// Whether this square is on the given side's half (before the river, from that side's view).
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank().0 <= 4,
            Color::Black => self.rank().0 >= 5,
        }
    }

    /// Whether this square is inside the palace of the given side.
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file().0;
        let r = self.rank().0;
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Parses `a0`..`i9` (either case).
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = File::from_char(b[0] as char)?;
        let rank = match b[1] {
            c @ b'0'..=b'9' => Rank(c - b'0'),
            _ => return None,
        };
        Some(Square::from_coords(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        Square::parse(s).ok_or(())
    }
}

impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A move from one square to another. Two bytes; captures are implied by the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The move in ICCS coordinates, e.g. `h2e2`.
    pub fn iccs(self) -> String {
        self.to_string()
    }

    /// Parses lower- or upper-case ICCS, with or without a dash (`h2e2`, `H2-E2`). Only syntax is
    /// checked here; see [`crate::Position::is_legal`].
    pub fn parse_iccs(s: &str) -> Option<Move> {
        let s = s.trim();
        let (a, b) = if s.len() == 5 && s.as_bytes()[2] == b'-' {
            (&s[0..2], &s[3..5])
        } else if s.len() == 4 {
            (&s[0..2], &s[2..4])
        } else {
            return None;
        };
        Some(Move::new(Square::parse(a)?, Square::parse(b)?))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The most legal moves any position has is well under 128; a fixed list avoids the heap.
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack.
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_and_indices() {
        for (i, sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::parse(&sq.to_string()), Some(*sq));
        }
        assert_eq!(Square::E0.to_string(), "e0");
        assert_eq!(Square::I9.index(), 89);
        assert_eq!(Square::H2.file().number_for(Color::Red), 2);
        assert_eq!(Square::H7.file().number_for(Color::Black), 8);
        assert!(Square::E1.in_palace(Color::Red));
        assert!(!Square::E3.in_palace(Color::Red));
        assert!(Square::D9.in_palace(Color::Black));
    }

    #[test]
    fn iccs_moves() {
        assert_eq!(
            Move::parse_iccs("h2e2"),
            Some(Move::new(Square::H2, Square::E2))
        );
        assert_eq!(
            Move::parse_iccs("H2-E2"),
            Some(Move::new(Square::H2, Square::E2))
        );
        assert_eq!(Move::parse_iccs("h2j2"), None);
        assert_eq!(Move::parse_iccs("h2e"), None);
    }
}
