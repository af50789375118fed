//! Loading one game of a record file, for the commands that judge a single game.

use super::error::{RecordError, kind};

/// Kind of the error for a game number past the end of the file.
pub const NO_SUCH_GAME: &str = "no_such_game";
use super::game::GameEntry;
use super::walk::{games, input_of};
use std::path::Path;

/// Reads game `number` (1-based) of the file at `path` (`-`: standard input) and returns it when
/// it replays legally. The file is streamed up to that game: memory stays bounded by one game.
///
/// Errors: the file cannot be read, has no game `number` (the message gives how many it has), or
/// the game is invalid (the record's own error: line, column, ply, move and reason).
pub fn load_game(path: &Path, number: usize) -> Result<GameEntry, RecordError> {
    let inputs = [input_of(path)];
    let mut count = 0;
    let mut first_io = None;
    for entry in games(&inputs) {
        count += 1;
        if count == number {
            return match entry.error {
                Some(e) => Err(e),
                None => Ok(entry),
            };
        }
        if count == 1
            && let Some(e) = entry.error.as_ref().filter(|e| e.kind == kind::IO)
        {
            first_io = Some(e.clone());
        }
    }
    // A file that failed as a whole gives its own error rather than "no such game".
    if count == 1
        && let Some(e) = first_io
    {
        return Err(e);
    }
    let source = path.display().to_string();
    Err(RecordError::new(
        NO_SUCH_GAME,
        format!(
            "no such game: the file holds {count} game{}",
            if count == 1 { "" } else { "s" }
        ),
    )
    .in_source(&source)
    .in_game(number.saturating_sub(1)))
}
