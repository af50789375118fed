//! Game records: the [`Game`] model and readers and writers for each format.

pub mod game;

pub use game::{Game, GameResult, Line, MoveNode, SourcePos};
