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
    /// `{"schema":1,"fen","turn","notation","count","moves":[...]}`: each move is a move object
    /// (its `ply` counted from this position: 1) with `text`, the move in the notation asked for.
    pub fn to_json(&self) -> String {
        let pos = &self.position;
        let moves: Vec<serde_json::Value> = crate::notation::list_moves(pos, self.notation)
            .iter()
            .map(|(m, t)| {
                let mut obj = crate::report::schema::move_object(pos, pos, *m, 1);
                obj["text"] = t.clone().into();
                obj
            })
            .collect();
        let obj = crate::report::schema::versioned(serde_json::json!({
            "fen": pos.fen(),
            "turn": pos.turn(),
            "notation": self.notation,
            "count": moves.len(),
            "moves": moves,
        }));
        format!("{obj}\n")
    }

    /// The text `xqa moves` prints.
    pub fn to_text(&self) -> String {
        crate::notation::moves_report(&self.position, self.notation, false)
    }
}

/// The legal moves after `at` plies (`None`: all) of the game of `input` (a usage error names
/// the valid range when `at` is past the end).
pub fn moves_at(
    input: &super::GameInput,
    at: Option<u32>,
    notation: Notation,
) -> Result<MovesReport, ServiceError> {
    let line = super::load_line(input)?;
    if let Some(at) = at {
        line.check_ply("--at", at)?;
    }
    let at = at.map_or(line.moves.len(), |a| a as usize);
    let position = super::position_after(&line.start, &line.moves, at);
    Ok(MovesReport { position, notation })
}

/// The legal moves of the position `fen`, named in `notation`.
pub fn moves(fen: &str, notation: Notation) -> Result<MovesReport, ServiceError> {
    Ok(MovesReport {
        position: parse_fen(fen)?,
        notation,
    })
}
