//! `review`: one game laid out for stepping through it (the web app's view of a record): the
//! games of the record, the start position, every ply with its text and the position after it,
//! the record's tags, and, for a broken record, the moves up to the bad one with the error.

use super::input::{games_in, load_line, parse_fen};

/// The games of a record listed by a review (for the page's picker), at most.
pub const GAMES_LISTED: usize = 5000;
use super::{GameInput, ServiceError};
use crate::report::{GameReport, problem, schema};
use crate::{Notation, Position};
use serde::Serialize;

/// One ply of the reviewed line.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewPly {
    /// 1-based.
    pub ply: usize,
    pub iccs: String,
    pub chinese: String,
    pub wxf: String,
    /// The position after the move.
    pub fen: String,
}

/// A game laid out for review.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The validation report of every game of the record, up to the first [`GAMES_LISTED`]
    /// (empty for a FEN input).
    pub games: Vec<GameReport>,
    /// The games of the record (0 for a FEN input).
    pub games_total: usize,
    /// The game reviewed (1-based; 0 for a FEN input).
    pub game: usize,
    /// The record's tags (Event, Red, Black, Date, ...).
    pub tags: Vec<(String, String)>,
    pub start_fen: String,
    pub plies: Vec<ReviewPly>,
    /// The moves in ICCS, space-separated (for passing back as `moves`).
    pub moves: String,
    /// Why the record stops early (its bad move), if it does: the error object of the report
    /// schema (`docs/schema.json` `$defs/error`), as `validate --json` gives it.
    pub error: Option<serde_json::Value>,
    /// The legal moves in the final position, in ICCS (for live entry).
    pub legal: Vec<String>,
    /// Check, mate or stalemate in the final position.
    pub status: Option<String>,
}

/// Lays out game `game` of a record (even a broken one, up to its bad move), or a FEN and
/// moves.
pub fn review(input: &GameInput) -> Result<Review, ServiceError> {
    match input {
        GameInput::Record { bytes, name, game } => {
            // The games are read one at a time (a database of half a million games takes the
            // memory of one); the first GAMES_LISTED are listed for the picker.
            let mut games = Vec::new();
            let mut games_total = 0;
            let mut chosen = None;
            for entry in games_in(bytes, name) {
                games_total += 1;
                if games.len() < GAMES_LISTED {
                    games.push(GameReport::of(&entry));
                }
                if games_total == *game {
                    chosen = Some(entry);
                }
            }
            let Some(entry) = chosen else {
                // The same error as the other commands give.
                return Err(super::load_game(bytes, name, *game)
                    .err()
                    .unwrap_or_else(|| ServiceError::invalid(format!("no such game {game}"))));
            };
            let entry = &entry;
            let error = problem(entry)
                .filter(|e| e.kind != crate::record::error::kind::NO_MOVES)
                .map(|e| schema::error_object(&e));
            let mut out = lay_out(&entry.game.start, &entry.game.main_moves());
            out.games = games;
            out.games_total = games_total;
            out.game = *game;
            out.tags = entry.game.tags.clone();
            out.error = error;
            Ok(out)
        }
        GameInput::File { path, game } => {
            let name = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| super::unreadable(&name, &e))?;
            review(&GameInput::record(bytes, name, *game))
        }
        GameInput::Fen { .. } => {
            let line = load_line(input)?;
            Ok(lay_out(&line.start, &line.moves))
        }
    }
}

fn lay_out(start: &Position, moves: &[crate::Move]) -> Review {
    let mut pos = *start;
    let plies: Vec<ReviewPly> = super::replay(start, moves)
        .map(|s| {
            pos = s.after;
            ReviewPly {
                ply: s.ply,
                iccs: s.mv.to_string(),
                chinese: s.text(Notation::Chinese),
                wxf: s.text(Notation::Wxf),
                fen: s.after.fen(),
            }
        })
        .collect();
    let status = super::status_text(&pos);
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    Review {
        games: Vec::new(),
        games_total: 0,
        game: 0,
        tags: Vec::new(),
        start_fen: start.fen(),
        moves: plies
            .iter()
            .map(|p| p.iccs.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        plies,
        error: None,
        legal,
        status,
    }
}

/// The board of a position as the SVG picture `show --svg` draws, with marks.
pub fn board(
    fen: &str,
    last: Option<&str>,
    targets: &[String],
    selected: Option<&str>,
    dots: &[String],
    caption: Option<&str>,
) -> Result<String, ServiceError> {
    let pos = parse_fen(fen)?;
    let square = |s: &str| {
        crate::Square::parse(s).ok_or_else(|| {
            ServiceError::invalid(format!("'{}' is not a square", super::shorten(s)))
        })
    };
    let last = match last {
        Some(m) if !m.is_empty() => Some(crate::Move::parse_iccs(m).ok_or_else(|| {
            ServiceError::invalid(format!("'{}' is not an ICCS move", super::shorten(m)))
        })?),
        _ => None,
    };
    let options = crate::svg::SvgOptions {
        last,
        caption: caption.map(str::to_owned),
        iccs_coordinates: false,
        targets: targets
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| square(s))
            .collect::<Result<_, _>>()?,
        selected: selected.filter(|s| !s.is_empty()).map(square).transpose()?,
        dots: dots
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| square(s))
            .collect::<Result<_, _>>()?,
    };
    Ok(crate::svg::board(&pos.to_setup(), &options))
}
