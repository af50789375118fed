//! Resource limits of the record readers: what one game may hold, whatever the input.
//!
//! Real records stay far below every limit (the longest real games run to about 400 plies, the
//! most heavily annotated to a few hundred kilobytes); the limits exist so that a hostile or broken
//! input (an endless game on standard input, a 200 MB line, a symlink to `/dev/zero`, a branch
//! nested ten thousand deep) costs bounded time, memory and stack, and ends in a clear error for
//! that game, after which the reader resynchronises on the next game.
//!
//! * [`MAX_NESTING`]: the deepest variation nesting, the same for every reader and writer: a
//!   writer never writes a variation nested deeper than the readers accept.
//! * [`Limits::max_game_bytes`] (default [`DEFAULT_MAX_GAME_BYTES`], 32 MiB): the text of one game
//!   (PGN, DhtmlXQ) or the bytes of one binary record (XQF, CBR, one record of a CBL library).
//! * [`Limits::max_plies`] (default [`DEFAULT_MAX_PLIES`], 1,000,000: a real opening tree in one
//!   DhtmlXQ record holds over 100,000): the moves of one game, the
//!   main line and every variation together.
//!
//! The limits in force are process-wide ([`limits`], [`set_limits`]), so that a front end can
//! raise them once (`xqa --max-game-bytes N --max-plies N`) for every reader below it.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Deepest nesting of variations read or written, in every format (a variation of the main line
/// is at depth 1). Real records stay below 20; the limit keeps every recursive walk over a move
/// tree (reading, writing, comparing, dropping it) within a worker thread's stack.
pub const MAX_NESTING: usize = 500;

/// Default cap on the bytes of one game.
pub const DEFAULT_MAX_GAME_BYTES: usize = 32 << 20;

/// Default cap on the moves of one game (main line and variations together).
pub const DEFAULT_MAX_PLIES: usize = 1_000_000;

/// Kind of the error for a game over one of the [`Limits`].
pub const TOO_LARGE: &str = "too_large";

/// Size caps of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one game's text, or of one binary record.
    pub max_game_bytes: usize,
    /// Moves of one game, main line and variations together.
    pub max_plies: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            max_plies: DEFAULT_MAX_PLIES,
        }
    }
}

static MAX_GAME_BYTES: AtomicUsize = AtomicUsize::new(DEFAULT_MAX_GAME_BYTES);
static MAX_PLIES: AtomicUsize = AtomicUsize::new(DEFAULT_MAX_PLIES);

/// The limits in force.
pub fn limits() -> Limits {
    Limits {
        max_game_bytes: MAX_GAME_BYTES.load(Ordering::Relaxed),
        max_plies: MAX_PLIES.load(Ordering::Relaxed),
    }
}

/// Sets the limits for every reader of the process (0 means "no cap": the largest value).
pub fn set_limits(l: Limits) {
    let or_max = |n: usize| if n == 0 { usize::MAX } else { n };
    MAX_GAME_BYTES.store(or_max(l.max_game_bytes), Ordering::Relaxed);
    MAX_PLIES.store(or_max(l.max_plies), Ordering::Relaxed);
}

/// The error for a game whose text or record is larger than `max` bytes.
pub fn too_many_bytes(max: usize) -> super::RecordError {
    super::RecordError::new(
        TOO_LARGE,
        format!(
            "the game is larger than {max} bytes (the cap on one game; raise it with \
             --max-game-bytes); skipped to the next game"
        ),
    )
}

/// The error for a game with more than `max` moves.
pub fn too_many_plies(max: usize) -> super::RecordError {
    super::RecordError::new(
        TOO_LARGE,
        format!(
            "the game has more than {max} moves (the cap on one game, variations included; \
             raise it with --max-plies)"
        ),
    )
}
