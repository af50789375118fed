//! The error of reading one move: its kind, message, candidates and likely intended moves.

use super::Notation;
use crate::types::Move;
use std::fmt;

/// What kind of problem a [`MoveError`] reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveErrorKind {
    /// Not a move in that notation.
    Syntax,
    /// No piece matches the description (no such piece on that file or square, no two such pieces
    /// sharing a file for a 前/后 qualifier, ...).
    NoPiece,
    /// The square holds a piece of the side not to move.
    WrongSide,
    /// Several pieces match and more than one reading is possible.
    Ambiguous,
    /// The piece cannot move so (blocked leg or eye, river, palace, path, geometry).
    IllegalMovement,
    /// The move leaves (or puts) the own king in check.
    LeavesKingInCheck,
    /// The move leaves the two kings facing each other on an open file.
    KingsFacing,
}

impl MoveErrorKind {
    /// The stable snake_case name used in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            MoveErrorKind::Syntax => "syntax",
            MoveErrorKind::NoPiece => "no_piece",
            MoveErrorKind::WrongSide => "wrong_side",
            MoveErrorKind::Ambiguous => "ambiguous",
            MoveErrorKind::IllegalMovement => "illegal_movement",
            MoveErrorKind::LeavesKingInCheck => "leaves_king_in_check",
            MoveErrorKind::KingsFacing => "kings_facing",
        }
    }
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug)]
struct ErrorInner {
    kind: MoveErrorKind,
    notation: Notation,
    text: String,
    message: String,
    candidates: Vec<Move>,
    suggestions: Vec<String>,
}

/// Why a move token was rejected.
#[derive(Clone, Debug)]
pub struct MoveError(Box<ErrorInner>);

impl MoveError {
    pub(crate) fn new(
        kind: MoveErrorKind,
        notation: Notation,
        text: &str,
        message: String,
    ) -> MoveError {
        MoveError(Box::new(ErrorInner {
            kind,
            notation,
            text: text.to_string(),
            message,
            candidates: Vec::new(),
            suggestions: Vec::new(),
        }))
    }

    pub(crate) fn with_candidates(mut self, c: Vec<Move>) -> MoveError {
        self.0.candidates = c;
        self
    }

    pub(crate) fn with_suggestions(mut self, s: Vec<String>) -> MoveError {
        self.0.suggestions = s;
        self
    }

    /// Stable kind name: `syntax`, `no_piece`, `wrong_side`, `ambiguous`, `illegal_movement`,
    /// `leaves_king_in_check`, `kings_facing`.
    pub fn kind(&self) -> &'static str {
        self.0.kind.as_str()
    }

    /// The kind as an enum.
    pub fn error_kind(&self) -> MoveErrorKind {
        self.0.kind
    }

    /// Whether the token could not be read at all (as opposed to a readable but wrong move).
    pub fn is_syntax(&self) -> bool {
        self.0.kind == MoveErrorKind::Syntax
    }

    /// The notation the token was read in.
    pub fn notation(&self) -> Notation {
        self.0.notation
    }

    /// The move text as given.
    pub fn text(&self) -> &str {
        &self.0.text
    }

    /// What is wrong, in English, without the move text.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// For an ambiguous token: every move it could mean (legal or not); otherwise the moves that
    /// were tried.
    pub fn candidates(&self) -> &[Move] {
        &self.0.candidates
    }

    /// Legal moves the writer probably meant, printed in the same notation, most likely first.
    pub fn suggestions(&self) -> Vec<String> {
        self.0.suggestions.clone()
    }
}

/// The message only (as [`MoveError::message`]); the suggestions are separate.
impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for MoveError {}

/// `{"kind","message","text","notation","candidates","suggestions"}` (candidates in ICCS).
impl serde::Serialize for MoveError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("MoveError", 6)?;
        st.serialize_field("kind", self.kind())?;
        st.serialize_field("message", self.message())?;
        st.serialize_field("text", self.text())?;
        st.serialize_field("notation", &self.0.notation)?;
        st.serialize_field("candidates", &self.0.candidates)?;
        st.serialize_field("suggestions", &self.0.suggestions)?;
        st.end()
    }
}
