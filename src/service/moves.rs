//! `moves`: the legal moves of a position in a notation.

use super::ServiceError;
use super::input::parse_fen;
use crate::{Notation, Position};

/// The legal moves of a position.
#[derive(Clone, Debug)]
pub struct MovesReport {
    pub position: Position,
    pub notation: Notation,
}

impl MovesReport {
    /// The JSON line `xqa moves --json` prints (with its newline):
    /// `{"fen","turn","notation","count","moves":[{"iccs","text"}]}`.
    pub fn to_json(&self) -> String {
        crate::notation::moves_report(&self.position, self.notation, true)
    }

    /// The text `xqa moves` prints.
    pub fn to_text(&self) -> String {
        crate::notation::moves_report(&self.position, self.notation, false)
    }
}

/// The legal moves of the position `fen`, named in `notation`.
pub fn moves(fen: &str, notation: Notation) -> Result<MovesReport, ServiceError> {
    Ok(MovesReport {
        position: parse_fen(fen)?,
        notation,
    })
}
