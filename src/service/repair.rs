//! `xqa repair`: one failing game of a PGN record, repaired by one of its score-sheet repairs
//! ([`crate::record::repair`]), written back as PGN in the record's notation with its tags,
//! comments and variations, each edit marked by a comment.

use super::ServiceError;
use crate::record::pgn::{self, PgnSplitter};
use crate::record::repair::{self, EditOp, Repair};
use crate::record::written::{self, TextEdit};
use crate::record::{Format, RecordError, walk};

/// The start of the comment that marks each edit (Chinese first, then English): also how a file
/// written by `xqa repair` is told apart from one it must not overwrite.
pub const MARK: &str = "xqa 修正";

/// A repaired game.
#[derive(Clone, Debug)]
pub struct Repaired {
    /// The repaired game as PGN.
    pub text: String,
    /// The repair made.
    pub repair: Repair,
    /// The error of the game as written, with all its repairs.
    pub error: RecordError,
    /// The game's start position (for move numbers).
    pub start: crate::Position,
}

/// The failing game `game` (1-based) of the PGN record in `bytes`: its text, its entry and its
/// error (with the repairs). Errors: not a PGN record, no such game, a valid game (nothing to
/// repair), no repair found.
fn failing_game(
    bytes: &[u8],
    name: &str,
    game: usize,
) -> Result<(pgn::RawGame, crate::record::GameEntry, RecordError), ServiceError> {
    if walk::detect_format(name, bytes) != Some(Format::Pgn) {
        return Err(ServiceError::usage(format!(
            "{name}: repair reads PGN records (moves in Chinese, WXF or ICCS notation)"
        )));
    }
    let mut splitter = PgnSplitter::new(bytes);
    let mut count = 0;
    let raw = loop {
        match splitter.next_game() {
            Ok(Some(raw)) => {
                count += 1;
                if count == game {
                    break raw;
                }
            }
            Ok(None) => {
                // (The service's own message for a game out of range.)
                return Err(super::input::load_game_partial(bytes, name, game)
                    .err()
                    .unwrap_or_else(|| {
                        ServiceError::usage(format!("{name}: no game {game} ({count} games)"))
                    }));
            }
            Err(e) => return Err(super::unreadable(name, &e)),
        }
    };
    let entry = pgn::parse_raw(&raw, name);
    let Some(error) = entry.error.clone() else {
        return Err(ServiceError::invalid(format!(
            "{name}: game {game} replays to the end: nothing to repair"
        )));
    };
    if error.repairs.is_empty() {
        let mut e = ServiceError::record(error);
        e.message = format!("{}; no repair found", e.message);
        return Err(e);
    }
    Ok((raw, entry, error))
}

/// The error of game `game` (1-based) of the PGN record in `bytes`, with its repairs, and the
/// game's start position: `xqa repair --list`. Errors as [`repair_game`]'s.
pub fn list_repairs(
    bytes: &[u8],
    name: &str,
    game: usize,
) -> Result<(RecordError, crate::Position), ServiceError> {
    let (_, entry, error) = failing_game(bytes, name, game)?;
    Ok((error, entry.game.start))
}

/// Game `game` (1-based) of the PGN record in `bytes`, repaired by its repair `pick` (1-based,
/// best first). Errors: not a PGN record, no such game, a valid game (nothing to repair), no
/// repair (or the one picked does not make the game replay to its end), no repair `pick`.
pub fn repair_game(
    bytes: &[u8],
    name: &str,
    game: usize,
    pick: usize,
) -> Result<Repaired, ServiceError> {
    let (raw, entry, error) = failing_game(bytes, name, game)?;
    let Some(chosen) = error.repairs.get(pick.wrapping_sub(1)).cloned() else {
        return Err(ServiceError::usage(format!(
            "--pick: game {game} has {} repair{} (1 to {})",
            error.repairs.len(),
            if error.repairs.len() == 1 { "" } else { "s" },
            error.repairs.len()
        )));
    };
    if !chosen.replays_to_end {
        return Err(ServiceError::invalid(format!(
            "{name}: game {game}: repair {pick} does not make the game replay to its end \
             ({} plies replay): {}",
            chosen.plies_replayed, chosen.explanation_en
        )));
    }
    let notation = entry.notation.unwrap_or(crate::Notation::Chinese);
    let Some((texts, spans)) = repair::failing_sheet(&entry, &raw.text) else {
        return Err(ServiceError::record(error));
    };
    let mut edits = Vec::new();
    let mut notes = Vec::new();
    for e in &chosen.edits {
        let i = e.ply - 1;
        let text = e.text.clone().unwrap_or_default();
        let (edit, zh, en) = match e.op {
            EditOp::Replace => (
                TextEdit::Replace {
                    i,
                    text: text.clone(),
                },
                format!("原记「{}」，改为「{text}」", texts[i]),
                format!("written {}, corrected to {text}", texts[i]),
            ),
            EditOp::Insert => (
                TextEdit::Insert {
                    i,
                    text: text.clone(),
                },
                "漏记，已补上".to_owned(),
                "left out, inserted".to_owned(),
            ),
            EditOp::Delete => (
                TextEdit::Delete { i },
                format!("此后「{}」重复记录，已删去", texts[i]),
                format!("{} written twice after this move, deleted", texts[i]),
            ),
            EditOp::Swap => {
                let j = e.ply2.unwrap_or(e.ply) - 1;
                (
                    TextEdit::Swap { i, j },
                    format!("与所记第{}步「{}」对调", j + 1, texts[j]),
                    format!("swapped with ply {} as written, {}", j + 1, texts[j]),
                )
            }
        };
        edits.push(edit);
        notes.push(format!("{MARK}：{zh} / xqa repair: {en}"));
    }
    let edited = written::edit_text(&raw.text, &spans, &edits, &notes);
    let fixed = pgn::parse_game(&edited, raw.first_line);
    if let Some(e) = fixed.error {
        // (Cannot happen for a repair that replays to the end; said rather than written.)
        return Err(ServiceError::record(e.in_source(name).in_game(game - 1)));
    }
    let mut text = String::new();
    pgn::write_game(&fixed.game, notation, &mut text);
    Ok(Repaired {
        text,
        repair: chosen,
        error,
        start: entry.game.start,
    })
}

/// Whether the file at `path` may be written by `xqa repair` without `--force`: it does not
/// exist, or `xqa repair` wrote it (it holds the edit mark).
pub fn may_overwrite(path: &std::path::Path) -> bool {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).contains(MARK),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}
