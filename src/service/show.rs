//! `show`: a position of a game as a text diagram and an SVG picture.

use super::input::load_line;
use super::{GameInput, ServiceError};
use crate::{Move, Notation, Position, diagram, svg};

/// A drawn position.
#[derive(Clone, Debug)]
pub struct ShowReport {
    /// Plies played.
    pub at: u32,
    pub position: Position,
    /// The last move played, and its Chinese text.
    pub last: Option<(Move, String)>,
    /// The text diagram (without a final newline).
    pub diagram: String,
    /// The SVG picture, captioned with the last move.
    pub svg: String,
    /// The line the position is taken from (with the record's error, if it is broken).
    pub line: super::Line,
}

impl ShowReport {
    /// The line after the diagram naming the last move, if any.
    pub fn last_move_line(&self) -> Option<String> {
        self.last
            .as_ref()
            .map(|(m, t)| format!("Last move: ply {}, {m} {t}", self.at))
    }

    /// The lines after the FEN: mate, stalemate or check, if any.
    pub fn status_line(&self) -> Option<String> {
        super::status_text(&self.position)
    }

    /// The JSON object `xqa show --json` prints (see [`crate::report::rulings::show_json`]).
    pub fn to_json(&self) -> String {
        let v = crate::report::rulings::show_json(
            &self.line.start,
            &self.line.moves,
            self.at,
            &self.position,
            self.line.header(),
            self.line.error_json(),
        );
        serde_json::to_string_pretty(&v).expect("report serialises")
    }

    /// The line naming the record's error, when the record is broken.
    pub fn error_line(&self) -> Option<String> {
        self.line.error.as_ref().map(|e| {
            format!(
                "The record is broken after ply {}: {e}",
                self.line.moves.len()
            )
        })
    }

    /// Everything `xqa show` prints, in order.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n", self.diagram);
        if let Some(l) = self.last_move_line() {
            out.push_str(&l);
            out.push('\n');
        }
        out.push_str(&format!("FEN: {}\n", self.position.fen()));
        if let Some(l) = self.status_line() {
            out.push_str(&l);
            out.push('\n');
        }
        if let Some(l) = self.error_line() {
            out.push_str(&l);
            out.push('\n');
        }
        out
    }
}

/// The position of `input` after `at` plies (`None`: all of them).
pub fn show(input: &GameInput, at: Option<u32>) -> Result<ShowReport, ServiceError> {
    let line = load_line(input)?;
    if let Some(at) = at {
        line.check_ply("--at", at)?;
    }
    let at = at.unwrap_or(line.moves.len() as u32);
    let last_step = super::replay(&line.start, &line.moves[..at as usize]).last();
    let pos = last_step.map_or(line.start, |s| s.after);
    let last = last_step.map(|s| s.mv);
    let last_text = last_step.map(|s| s.text(Notation::Chinese));
    let caption = caption_for(at, last, last_text.as_deref());
    Ok(ShowReport {
        at,
        position: pos,
        diagram: diagram::text(&pos.to_setup(), last),
        svg: svg::position(&pos, last, caption.as_deref()),
        last: last.zip(last_text),
        line,
    })
}

fn caption_for(at: u32, last: Option<Move>, text: Option<&str>) -> Option<String> {
    Some(match (last, text) {
        (Some(m), Some(t)) => format!("ply {at}: {m} {t}"),
        (Some(m), None) => format!("ply {at}: {m}"),
        _ => "start position".into(),
    })
}
