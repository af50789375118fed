//! Game records: the [`Game`] model and readers and writers for each format.

pub mod error;
pub mod game;

pub use error::RecordError;
pub use game::{Game, GameResult, Line, MoveNode, SourcePos};
