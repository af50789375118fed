//! Game records: the [`Game`] model and readers and writers for each format.
//!
//! # Reading
//! * [`read_path`]`(path) -> Vec<GameEntry>` / [`read_bytes`]`(source, bytes, format)`: every game
//!   of one file or buffer, format detected ([`detect_format`]: magic bytes, DhtmlXQ markers,
//!   extension). Never fails as a whole: an unreadable file is one entry whose `error` has kind
//!   `io`.
//! * [`for_each_game`]`(&[Input], |GameEntry| ...)`: the streaming driver for many files,
//!   directories ([`expand`]) and standard input. PGN and DhtmlXQ are cut into games as they are
//!   read ([`pgn::PgnSplitter`], [`dhtmlxq_split::DhtmlSplitter`]), CBL libraries record by
//!   record ([`cbl::CblReader`]); XQF and CBR files are one record each, read up to the cap on
//!   one game. Batches of games are parsed and replayed on all cores (rayon) and handed back in
//!   input order. Memory is bounded by the batch (1,024 games or 16 MiB) and one game (the
//!   [`limits::Limits::max_game_bytes`] cap), not by the file size.
//! * Per format: [`pgn::PgnReader`] (an iterator over any `BufRead`), [`pgn::read_str`],
//!   [`pgn::parse_game`]; [`dhtmlxq::read_str`] (every `[DhtmlXQ]` block of a text or HTML page);
//!   [`xqf::read_entry`]; [`ccbridge::read_kind`] (CBR, CBL, CBF); [`cbl::CblReader`] (the
//!   records of a CBL library from any `Read + Seek`, one at a time).
//!
//! Each game comes as a [`GameEntry`]: `source`, `index` (0-based), `format`, `notation`,
//! `encoding`, the [`Game`] (complete, or everything before the first error), `error:
//! Option<`[`RecordError`]`>` (line, column or byte offset, ply, move text, `kind`, message,
//! suggestions) and `warnings` (accepted with a remark: `resolved_by_legality`, a bad move inside a
//! variation, which cuts the variation but leaves the game valid). A bad game never stops the
//! reader: the next game is read normally.
//!
//! # Limits
//! [`limits::Limits`]: one game is capped in bytes and moves, variations nest at most [`MAX_NESTING`] deep
//! in every reader and writer; a game over a cap is an error for that game, and the reader goes on
//! with the next.
//!
//! # Writing
//! [`pgn::write_game`]`(game, notation, &mut String)` and [`dhtmlxq::write_game`]: tags, start
//! position, comments, NAGs (PGN only), variations, result and the text after it are kept; reading
//! the output gives the same game back (tested on every real record in all three notations).
//!
//! # Text encodings
//! [`encoding::detect`] tells UTF-8 (with or without BOM), GBK/GB18030 and Big5 apart.

// A record error carries everything a user needs (source, position, move, suggestions); it is
// returned once per bad game, never in a hot loop, so its size does not matter.
#![allow(clippy::result_large_err)]

pub mod cbl;
pub mod ccbridge;
pub mod dhtmlxq;
pub mod dhtmlxq_split;
pub mod encoding;
pub mod error;
pub mod game;
pub mod limits;
pub mod load;
mod movetext;
pub mod pgn;
pub mod pgn_layout;
pub mod repair;
mod repair_fit;
pub mod walk;
pub mod warnings;
pub mod written;
pub mod wxf_file;
pub mod xqf;

use crate::notation;
pub use crate::notation::Notation;

pub use encoding::TextEncoding;
pub use error::RecordError;
pub use game::{Format, Game, GameEntry, GameResult, Line, MoveNode, SourcePos};
pub use limits::{Limits, MAX_NESTING, limits, set_limits};
pub use load::load_game;
pub use walk::{Input, detect_format, expand, for_each_game, read_bytes, read_path};
pub use warnings::Warnings;
