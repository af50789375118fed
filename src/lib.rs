//! # xiangqi-arbiter
//!
//! Reads recorded Xiangqi (Chinese chess) games, checks that every move is legal, and rules on
//! them the way a tournament arbiter must.
//!
//! ```
//! use xiangqi_arbiter::{Position, Move, perft};
//!
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(perft(&pos, 3), 79_666);
//!
//! let after = pos.after(Move::parse_iccs("h2e2").unwrap());
//! assert_eq!(after.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! ```
#![forbid(unsafe_code)]

/// The README's Rust examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub mod attacks;
pub mod bitboard;
pub mod diagram;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod record;
pub mod report;
pub mod rules;
pub mod server;
pub mod service;
pub mod setup;
pub mod svg;
pub mod types;
pub mod venue;

pub use bitboard::Bitboard;
pub use notation::{Notation, parse_move, print_move};
pub use perft::{divide, perft, perft_parallel};
pub use position::{FenPositionError, Position, PositionError, SetupProblem, Undo};
pub use setup::{FenError, START_FEN, Setup};
pub use types::{Color, File, Move, MoveList, Piece, Rank, Role, Square};
