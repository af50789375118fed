//! The unchecked [`Setup`] and FEN parsing and printing.
//!
//! FEN here is the WXF/UCCI form: ranks from Black's back rank (rank 9) down to Red's (rank 0),
//! upper case for Red, then the side to move (`w` or legacy `r` for Red, `b` for Black) and
//! optional fields `- - halfmove fullmove`. Letters `E` and `H` are accepted for elephant and
//! horse. A [`Setup`] may hold any placement at all; [`crate::Position`] validates one.

use crate::types::{Color, Piece, Square};
use std::fmt;

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A placement with a side to move and counters, not checked for legality.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square`].
    pub board: [Option<Piece>; 90],
    pub turn: Color,
    /// Plies since the last capture (the FEN halfmove field).
    pub halfmoves: u32,
    /// Move number, starting at 1, incremented after Black's move.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}

/// What is wrong with a FEN string. Each variant names the field and, for the placement, the
/// rank (ICCS, 9 = Black's back rank) where the problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The string is empty.
    Empty,
    /// The placement does not have 10 ranks.
    RankCount { found: usize },
    /// A rank does not describe exactly 9 points.
    RankLength { rank: u8, found: usize },
    /// A character in the placement is neither a piece letter nor a digit 1-9.
    UnknownPiece { rank: u8, found: char },
    /// The side-to-move field is not `w`, `r` or `b`.
    Side { found: String },
    /// A counter is not a number.
    Counter { field: &'static str, found: String },
    /// More fields than FEN has.
    TrailingFields { found: String },
}

impl FenError {
    /// The FEN field the problem is in.
    pub fn field(&self) -> &'static str {
        match self {
            FenError::Empty | FenError::RankCount { .. } => "placement",
            FenError::RankLength { .. } | FenError::UnknownPiece { .. } => "placement",
            FenError::Side { .. } => "side to move",
            FenError::Counter { field, .. } => field,
            FenError::TrailingFields { .. } => "end",
        }
    }

    /// A stable name of the kind of problem, for reports.
    pub fn kind(&self) -> &'static str {
        match self {
            FenError::Empty => "empty",
            FenError::RankCount { .. } => "rank_count",
            FenError::RankLength { .. } => "rank_length",
            FenError::UnknownPiece { .. } => "unknown_piece",
            FenError::Side { .. } => "side",
            FenError::Counter { .. } => "counter",
            FenError::TrailingFields { .. } => "trailing_fields",
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "FEN is empty"),
            FenError::RankCount { found } => {
                write!(
                    f,
                    "FEN placement has {found} ranks, expected 10 separated by '/'"
                )
            }
            FenError::RankLength { rank, found } => {
                write!(
                    f,
                    "FEN placement rank {rank} describes {found} points, expected 9"
                )
            }
            FenError::UnknownPiece { rank, found } => write!(
                f,
                "FEN placement rank {rank}: '{found}' is not a piece letter (KABNRCP, kabnrcp, E/H) or digit 1-9"
            ),
            FenError::Side { found } => {
                write!(
                    f,
                    "FEN side to move is '{found}', expected 'w' (or 'r') for Red or 'b' for Black"
                )
            }
            FenError::Counter { field, found } => {
                write!(f, "FEN {field} is '{found}', expected a number")
            }
            FenError::TrailingFields { found } => write!(f, "FEN has extra fields: '{found}'"),
        }
    }
}

impl std::error::Error for FenError {}

impl Setup {
    /// An empty board, Red to move.
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 90],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The standard starting position.
    pub fn start() -> Setup {
        Setup::from_fen(START_FEN).expect("start FEN is valid")
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq as usize]
    }

    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq as usize] = piece;
    }

    /// Parses a FEN. Only the placement is required; the side defaults to Red.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let mut setup = Setup::empty();
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount { found: ranks.len() });
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_char(c) {
                    if file < 9 {
                        setup.board[rank as usize * 9 + file] = Some(piece);
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownPiece { rank, found: c });
                }
            }
            if file != 9 {
                return Err(FenError::RankLength { rank, found: file });
            }
        }
        if let Some(side) = fields.next() {
            setup.turn = match side {
                "w" | "W" | "r" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                other => {
                    return Err(FenError::Side {
                        found: other.to_owned(),
                    });
                }
            };
        }
        // Castling and en passant fields are always '-' in Xiangqi; accept and ignore them.
        let rest: Vec<&str> = fields.collect();
        let counters: Vec<&str> = match rest.as_slice() {
            [] => vec![],
            [a, b, tail @ ..] if *a == "-" && *b == "-" => tail.to_vec(),
            [a, tail @ ..] if *a == "-" => tail.to_vec(),
            all => all.to_vec(),
        };
        let mut it = counters.into_iter();
        if let Some(h) = it.next() {
            setup.halfmoves = h.parse().map_err(|_| FenError::Counter {
                field: "halfmove clock",
                found: h.to_owned(),
            })?;
        }
        if let Some(n) = it.next() {
            setup.fullmoves = n.parse().map_err(|_| FenError::Counter {
                field: "move number",
                found: n.to_owned(),
            })?;
            setup.fullmoves = setup.fullmoves.max(1);
        }
        let extra: Vec<&str> = it.collect();
        if !extra.is_empty() {
            return Err(FenError::TrailingFields {
                found: extra.join(" "),
            });
        }
        Ok(setup)
    }

    /// The placement field of the FEN.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.board[rank * 9 + file] {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The full FEN, e.g. [`START_FEN`].
    pub fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            self.board_fen(),
            if self.turn == Color::Red { 'w' } else { 'b' },
            self.halfmoves,
            self.fullmoves
        )
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl std::str::FromStr for Setup {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Setup, FenError> {
        Setup::from_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Role;

    #[test]
    fn start_fen_round_trip() {
        let s = Setup::start();
        assert_eq!(s.fen(), START_FEN);
        assert_eq!(
            s.piece_at(Square::E0),
            Some(Piece::new(Color::Red, Role::King))
        );
        assert_eq!(
            s.piece_at(Square::B7),
            Some(Piece::new(Color::Black, Role::Cannon))
        );
    }

    #[test]
    fn aliases_and_optional_fields() {
        let a = Setup::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
            .unwrap();
        assert_eq!(a.fen(), START_FEN);
        let b =
            Setup::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").unwrap();
        assert_eq!(b.fen(), START_FEN);
        let c = Setup::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12",
        )
        .unwrap();
        assert_eq!((c.turn, c.halfmoves, c.fullmoves), (Color::Black, 7, 12));
        let d =
            Setup::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b 3 4")
                .unwrap();
        assert_eq!((d.halfmoves, d.fullmoves), (3, 4));
    }

    #[test]
    fn syntax_errors_name_the_problem() {
        let cases: &[(&str, &str)] = &[
            ("", "empty"),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
                "rank_count",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w",
                "rank_length",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                "rank_length",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
                "unknown_piece",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                "side",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
                "counter",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 9",
                "trailing_fields",
            ),
        ];
        for (fen, kind) in cases {
            let e = Setup::from_fen(fen).unwrap_err();
            assert_eq!(e.kind(), *kind, "{fen}: {e}");
        }
        let e = Setup::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w")
            .unwrap_err();
        assert_eq!(e, FenError::RankLength { rank: 1, found: 8 });
    }
}
