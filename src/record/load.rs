//! Loading one game of a record file, for the commands that judge a single game.

use super::error::{RecordError, kind};

/// Kind of the error for a game number past the end of the file.
pub const NO_SUCH_GAME: &str = "no_such_game";
use super::game::GameEntry;
use super::walk::read_path;
use std::path::Path;

/// Reads game `number` (1-based) of the file at `path` and returns it when it replays legally.
///
/// Errors: the file cannot be read, has no game `number` (the message gives how many it has), or
/// the game is invalid (the record's own error: line, column, ply, move and reason).
pub fn load_game(path: &Path, number: usize) -> Result<GameEntry, RecordError> {
    let mut entries = read_path(path);
    let count = entries.len();
    if number == 0 || number > count {
        let source = path.display().to_string();
        // A file that failed as a whole gives its own error rather than "no such game".
        if count == 1
            && entries[0]
                .error
                .as_ref()
                .is_some_and(|e| e.kind == kind::IO)
        {
            return Err(entries.remove(0).error.expect("checked above"));
        }
        return Err(RecordError::new(
            NO_SUCH_GAME,
            format!("there is no game {number} (the file holds {count})"),
        )
        .in_source(&source));
    }
    let entry = entries.swap_remove(number - 1);
    match entry.error {
        Some(e) => Err(e),
        None => Ok(entry),
    }
}
