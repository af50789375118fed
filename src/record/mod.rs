//! Game records: the [`Game`] model and readers and writers for each format.

// A record error carries everything a user needs (source, position, move, suggestions); it is
// returned once per bad game, never in a hot loop, so its size does not matter.
#![allow(clippy::result_large_err)]

pub mod ccbridge;
pub mod dhtmlxq;
pub mod encoding;
pub mod error;
pub mod game;
pub mod pgn;
pub mod walk;
pub mod xqf;

use crate::notation;
pub use crate::notation::Notation;

pub use encoding::TextEncoding;
pub use error::RecordError;
pub use game::{Format, Game, GameEntry, GameResult, Line, MoveNode, SourcePos};
pub use walk::{Input, detect_format, expand, for_each_game, read_bytes, read_path};
