//! The moves of one movetext word, as the PGN and WXF readers play them.
//!
//! A word may hold several moves glued together (`炮二平五马８进７`, `Ｃ２＝５Ｈ８＋７`,
//! `h2e2h9g7`): [`glued`] cuts it into moves, and [`MovePlayer::play`] reads each one in the
//! record's notation, plays it and adds it to the line, with the checks every reader makes: the
//! cap on the moves of one game, a warning for a move resolved by legality, and for a
//! `wrong_side` error the missing move that would let the record continue.

use super::error::RecordError;
use super::game::{Format, Line, MoveNode, SourcePos};
use super::notation::{self, Notation};
use crate::position::Position;

/// The moves glued together in `word`: (byte offset in `word`, move text).
#[inline]
pub fn glued(word: &str, notation: Notation) -> impl Iterator<Item = (usize, &str)> {
    let mut off = 0;
    std::iter::from_fn(move || {
        let rest = &word[off..];
        if rest.is_empty() {
            return None;
        }
        let len = first_move_len(rest, notation);
        let at = off;
        off += len;
        Some((at, &rest[..len]))
    })
}

/// The byte length of the first move of `w` (all of it unless several moves are glued together).
#[inline]
pub fn first_move_len(w: &str, notation: Notation) -> usize {
    // (Fewer than 8 bytes: fewer than 8 characters, no need to count them.)
    if w.len() < 8 || w.chars().count() < 8 {
        return w.len();
    }
    let nth = |k: usize| w.char_indices().nth(k).map_or(w.len(), |(i, _)| i);
    match notation {
        Notation::Iccs => {
            // Counted in characters: a run of non-ASCII text in an ICCS game must split on
            // character boundaries (and then fail to parse as a move, with its text).
            if w.as_bytes().get(2) == Some(&b'-') {
                nth(5)
            } else {
                nth(4)
            }
        }
        Notation::Wxf => nth(4),
        Notation::San | Notation::SanWinboard => w.len(),
        Notation::Chinese => {
            let c3 = w.chars().nth(3).unwrap_or(' ');
            if matches!(c3, '进' | '進' | '退' | '平') {
                nth(5)
            } else {
                nth(4)
            }
        }
    }
}

/// Up to `n` move texts among the next words of a movetext: move numbers and annotation marks
/// are skipped; a comment, variation or result ends the list.
pub fn following_moves<'t>(words: impl Iterator<Item = &'t str>, n: usize) -> Vec<&'t str> {
    let mut out = Vec::new();
    for w in words {
        if out.len() >= n
            || w.starts_with(['{', '(', ';', '$', '['])
            || super::game::GameResult::from_token(w).is_some()
        {
            break;
        }
        let digits = w.bytes().take_while(u8::is_ascii_digit).count();
        let rest = w[digits..].trim_start_matches('.');
        let w = if digits > 0 && rest.len() < w.len() - digits {
            rest
        } else {
            w
        };
        let w = w.trim_end_matches(['!', '?']);
        if !w.is_empty() && !w.starts_with('.') {
            out.push(w);
        }
    }
    out
}

/// Plays the moves of one game's movetext, counting them against the cap and collecting the
/// warnings they give.
pub struct MovePlayer {
    /// The format of the record (for the missing-move hint).
    format: Format,
    /// Moves played so far (main line and variations), against
    /// [`super::limits::Limits::max_plies`].
    moves: usize,
    max_plies: usize,
    /// Warnings of the moves played (`resolved_by_legality`).
    pub warnings: Vec<RecordError>,
}

impl MovePlayer {
    pub fn new(format: Format) -> MovePlayer {
        MovePlayer {
            format,
            moves: 0,
            max_plies: super::limits::limits().max_plies,
            warnings: Vec::new(),
        }
    }

    /// Reads `text` in `notation` as ply `ply` of `line`, played from `pos`, written at `at`:
    /// plays it on `pos` and adds it to `line`. On a `wrong_side` error, `following` gives the
    /// move texts after it, which the missing-move hint tries.
    #[allow(clippy::too_many_arguments)]
    pub fn play<'t>(
        &mut self,
        text: &'t str,
        notation: Notation,
        at: SourcePos,
        ply: usize,
        pos: &mut Position,
        line: &mut Line,
        following: impl FnOnce() -> Vec<&'t str>,
    ) -> Result<(), RecordError> {
        match notation::parse_move(pos, text, notation) {
            Ok(parsed) => {
                if parsed.resolved_by_legality {
                    self.warnings.push(
                        RecordError::new(
                            "resolved_by_legality",
                            "ambiguous on paper (another identical piece shares the file), \
                             resolved because only one of them can legally make the move",
                        )
                        .at(at.line, at.column)
                        .at_move(ply, text),
                    );
                }
                self.moves += 1;
                if self.moves > self.max_plies {
                    return Err(super::limits::too_many_plies(self.max_plies)
                        .at(at.line, at.column)
                        .at_move(ply, text));
                }
                pos.play_unchecked(parsed.mv);
                line.nodes.push(MoveNode::new(parsed.mv, text, at));
                Ok(())
            }
            Err(e) => {
                let mut err = RecordError::new(e.kind(), e.to_string())
                    .at(at.line, at.column)
                    .at_move(ply, text)
                    .with_suggestions(e.suggestions());
                if e.kind() == "wrong_side" {
                    // One missing move? Try it with the moves that follow.
                    let mut texts = vec![text];
                    texts.extend(following());
                    if let Some((msg, shown)) = super::warnings::missing_move_note(
                        pos,
                        &texts,
                        Some(notation),
                        self.format,
                        ply,
                    ) {
                        super::warnings::add_note(&mut err, msg, shown);
                    }
                }
                Err(err)
            }
        }
    }
}
