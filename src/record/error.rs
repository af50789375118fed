//! [`RecordError`]: the one error type of every record reader (PGN, DhtmlXQ, XQF, CCBridge).
//!
//! An error says where (source, game, line and column or byte offset, ply), what (the move text as
//! written, a stable machine-readable `kind`, a human message) and, for a bad move, which legal
//! moves the writer probably meant (`suggestions`, printed in the record's notation).
//!
//! Readers fill in what they know; the path walker fills in `source` and `game` afterwards with
//! [`RecordError::in_source`] / [`RecordError::in_game`] when the reader left them empty.
//!
//! Stable `kind` values produced by the record layer (move errors use the notation module's kinds,
//! such as `"syntax"`, `"no_piece"`, `"ambiguous"`, `"illegal_movement"`, `"leaves_king_in_check"`,
//! `"kings_facing"`): see the `kind::*` constants.

use std::fmt;

/// Stable values of [`RecordError::kind`] produced by the record layer itself.
pub mod kind {
    /// The file could not be read (I/O).
    pub const IO: &str = "io";
    /// The bytes are not text in any supported encoding.
    pub const ENCODING: &str = "encoding";
    /// The file type is not recognised.
    pub const UNKNOWN_FORMAT: &str = "unknown_format";
    /// Malformed record structure (unclosed comment or variation, bad tag, bad DhtmlXQ field ...).
    pub const RECORD_SYNTAX: &str = "record_syntax";
    /// A binary record ends before its structures do.
    pub const TRUNCATED: &str = "truncated";
    /// A binary record has a bad magic number, an unsupported version or an impossible field.
    pub const BAD_HEADER: &str = "bad_header";
    /// The start position (FEN tag, binit, XQF/CBR piece table) is invalid.
    pub const BAD_POSITION: &str = "bad_position";
    /// A move given by squares (binary formats, DhtmlXQ movelist) is not legal.
    pub const ILLEGAL_MOVE: &str = "illegal_move";
    /// The record holds no move at all.
    pub const NO_MOVES: &str = "no_moves";
    /// A move token that no notation recognises (when the notation had to be guessed).
    pub const UNKNOWN_NOTATION: &str = "unknown_notation";
}

/// Where and why a record could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RecordError {
    /// The file path (or `-` for standard input); empty until the walker sets it.
    pub source: String,
    /// 0-based index of the game inside the source.
    pub game: usize,
    /// 1-based line of the problem in a text source (0 = unknown / binary source).
    pub line: u64,
    /// 1-based column (in characters) of the problem in a text source (0 = unknown).
    pub column: u32,
    /// Byte offset of the problem in a binary source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// 1-based ply of the offending move counted from the start position of its line
    /// (for a move inside a variation, the ply along that variation's path).
    pub ply: Option<usize>,
    /// The offending move exactly as the record wrote it.
    pub move_text: Option<String>,
    /// Machine-readable reason (see [`kind`] and the notation module's `MoveError::kind`).
    pub kind: String,
    /// Human-readable explanation.
    pub message: String,
    /// Legal moves the writer probably meant, in the record's notation.
    pub suggestions: Vec<String>,
    /// For a main-line move that cannot be played: the score-sheet repairs that explain it, best
    /// first (see [`super::repair`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repairs: Vec<super::repair::Repair>,
    /// The repair search's budget ended it before every candidate was tried.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub repairs_cut_short: bool,
}

impl RecordError {
    /// A new error with the given kind and message; everything else unknown.
    ///
    /// Input echoed in the message is cut to a short prefix (see [`clip_message`]).
    pub fn new(kind: impl Into<String>, message: impl Into<String>) -> RecordError {
        let message = clip_message(message.into());
        RecordError {
            source: String::new(),
            game: 0,
            line: 0,
            column: 0,
            offset: None,
            ply: None,
            move_text: None,
            kind: kind.into(),
            message,
            suggestions: Vec::new(),
            repairs: Vec::new(),
            repairs_cut_short: false,
        }
    }

    /// Sets the text position (1-based line and column).
    pub fn at(mut self, line: u64, column: u32) -> RecordError {
        self.line = line;
        self.column = column;
        self
    }

    /// Sets the byte offset (binary sources).
    pub fn at_offset(mut self, offset: u64) -> RecordError {
        self.offset = Some(offset);
        self
    }

    /// Sets the ply and the move text (cut to a short prefix when it is long, see [`clip`]).
    pub fn at_move(mut self, ply: usize, move_text: impl Into<String>) -> RecordError {
        self.ply = Some(ply);
        let t: String = move_text.into();
        self.move_text = Some(if t.chars().nth(MAX_ECHO).is_some() {
            clip(&t)
        } else {
            t
        });
        self
    }

    /// Replaces the message (cut like [`RecordError::new`]'s).
    pub fn with_message(mut self, message: impl Into<String>) -> RecordError {
        self.message = clip_message(message.into());
        self
    }

    /// Sets the suggestions.
    pub fn with_suggestions(mut self, suggestions: Vec<String>) -> RecordError {
        self.suggestions = suggestions;
        self
    }

    /// Sets the source when the reader did not.
    pub fn in_source(mut self, source: &str) -> RecordError {
        if self.source.is_empty() {
            self.source = source.to_owned();
        }
        self
    }

    /// Sets the game index.
    pub fn in_game(mut self, game: usize) -> RecordError {
        self.game = game;
        self
    }
}

/// Longest piece of input echoed whole in an error (characters).
pub const MAX_ECHO: usize = 64;

/// `text` cut to its first [`MAX_ECHO`] characters, an ellipsis and its length, when longer:
/// `"abc…" (20000000 bytes)`. An error never echoes a hostile token whole.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHO) {
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
        None => text.to_owned(),
    }
}

/// Longest message kept whole (bytes); longer ones have every long word clipped.
const MAX_MESSAGE: usize = 512;

/// A message with every run of more than [`MAX_ECHO`] non-blank characters (echoed input) cut by
/// [`clip`], and the whole cut to a few kilobytes.
pub fn clip_message(message: String) -> String {
    if message.len() <= MAX_MESSAGE {
        return message;
    }
    let mut out = String::with_capacity(MAX_MESSAGE);
    let mut rest = message.as_str();
    while !rest.is_empty() {
        let blank = rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
        out.push_str(&rest[..blank]);
        rest = &rest[blank..];
        let word = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let w = &rest[..word];
        if w.chars().nth(MAX_ECHO).is_some() {
            out.push_str(&clip(w));
        } else {
            out.push_str(w);
        }
        rest = &rest[word..];
        if out.len() > 8 * MAX_MESSAGE {
            out.push_str(&format!("… ({} bytes)", message.len()));
            break;
        }
    }
    out
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.source.is_empty() {
            write!(f, "{}", self.source)?;
            if self.line > 0 {
                write!(f, ":{}:{}", self.line, self.column)?;
            } else if let Some(o) = self.offset {
                write!(f, " @{o:#x}")?;
            }
            write!(f, ": ")?;
        } else if self.line > 0 {
            write!(f, "line {}, column {}: ", self.line, self.column)?;
        }
        write!(f, "game {}", self.game + 1)?;
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        if let Some(t) = &self.move_text {
            write!(f, " '{t}'")?;
        }
        write!(f, ": {} [{}]", self.message, self.kind)?;
        if !self.suggestions.is_empty() && !self.message.contains(&self.suggestions[0]) {
            write!(f, "; did you mean {}?", self.suggestions.join(" or "))?;
        }
        Ok(())
    }
}

impl std::error::Error for RecordError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_everything() {
        let e = RecordError::new("leaves_king_in_check", "the king would be in check")
            .at(12, 5)
            .at_move(31, "马八进七")
            .with_suggestions(vec!["马二进三".into()])
            .in_source("a.pgn")
            .in_game(2);
        assert_eq!(
            e.to_string(),
            "a.pgn:12:5: game 3, ply 31 '马八进七': the king would be in check \
             [leaves_king_in_check]; did you mean 马二进三?"
        );
    }

    #[test]
    fn echoed_input_is_clipped() {
        let junk = "x".repeat(100_000);
        let e = RecordError::new("syntax", format!("'{junk}' is not a move")).at_move(1, &junk);
        let t = e.move_text.as_deref().unwrap();
        assert!(t.ends_with("… (100000 bytes)") && t.len() < 100, "{t}");
        assert!(e.message.len() < 200, "{}", e.message);
        assert!(e.message.ends_with(" is not a move"), "{}", e.message);
    }
}
