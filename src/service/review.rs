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
    /// The move (回合) it belongs to, and the side that made it.
    pub move_number: u32,
    pub side: crate::Color,
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

/// What a review is made of, before its plies are laid out: the games listed, the line and its
/// error.
struct Parts {
    games: Vec<GameReport>,
    games_total: usize,
    game: usize,
    tags: Vec<(String, String)>,
    start: Position,
    moves: Vec<crate::Move>,
    error: Option<serde_json::Value>,
}

fn parts(input: &GameInput) -> Result<Parts, ServiceError> {
    match input {
        GameInput::Record { bytes, name, game } => {
            // The games are read one at a time (a database of half a million games takes the
            // memory of one); the first GAMES_LISTED are listed for the picker.
            let mut games = Vec::new();
            let mut games_total = 0;
            let mut chosen = None;
            for entry in games_in(bytes, name) {
                if crate::rules::search::cancelled() {
                    return Err(ServiceError::usage("called off"));
                }
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
            let error = problem(&entry)
                .filter(|e| e.kind != crate::record::error::kind::NO_MOVES)
                .map(|e| schema::error_object(&e));
            Ok(Parts {
                games,
                games_total,
                game: *game,
                moves: entry.game.main_moves(),
                start: entry.game.start,
                tags: entry.game.tags,
                error,
            })
        }
        GameInput::File { path, game } => {
            let name = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| super::unreadable(&name, &e))?;
            parts(&GameInput::record(bytes, name, *game))
        }
        GameInput::Fen { .. } => {
            let line = load_line(input)?;
            Ok(Parts {
                games: Vec::new(),
                games_total: 0,
                game: 0,
                tags: Vec::new(),
                start: line.start,
                moves: line.moves,
                error: None,
            })
        }
    }
}

/// Lays out game `game` of a record (even a broken one, up to its bad move), or a FEN and
/// moves.
pub fn review(input: &GameInput) -> Result<Review, ServiceError> {
    let p = parts(input)?;
    let mut pos = p.start;
    let plies: Vec<ReviewPly> = super::replay(&p.start, &p.moves)
        .map(|s| {
            pos = s.after;
            ply_of(&s)
        })
        .collect();
    let (legal, status) = final_state(&pos);
    Ok(Review {
        games: p.games,
        games_total: p.games_total,
        game: p.game,
        tags: p.tags,
        start_fen: p.start.fen(),
        moves: plies
            .iter()
            .map(|p| p.iccs.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        plies,
        error: p.error,
        legal,
        status,
    })
}

/// The review of `input` written to `out` as its JSON (byte for byte `serde_json::to_string` of
/// [`review`]'s answer), ply by ply as the line is laid out: the memory taken is that of the
/// line's moves, not of its review (a 16 MB record of one line would take gigabytes laid out
/// whole). Errors in the input are found before anything is written; an error of `out` is
/// given back as a usage error naming it.
pub fn review_json(input: &GameInput, out: &mut dyn std::io::Write) -> Result<(), ServiceError> {
    let p = parts(input)?;
    let failed =
        |e: std::io::Error| ServiceError::usage(format!("the review could not be written: {e}"));
    let json = |out: &mut dyn std::io::Write, v: &dyn erased::Json| v.write(out);
    (|| -> std::io::Result<()> {
        out.write_all(b"{\"games\":")?;
        json(out, &p.games)?;
        write!(
            out,
            ",\"games_total\":{},\"game\":{},\"tags\":",
            p.games_total, p.game
        )?;
        json(out, &p.tags)?;
        out.write_all(b",\"start_fen\":")?;
        json(out, &p.start.fen())?;
        out.write_all(b",\"plies\":[")?;
        let mut pos = p.start;
        for s in super::replay(&p.start, &p.moves) {
            if s.ply > 1 {
                out.write_all(b",")?;
            }
            json(out, &ply_of(&s))?;
            pos = s.after;
        }
        out.write_all(b"],\"moves\":\"")?;
        for (i, m) in p.moves.iter().enumerate() {
            // (ICCS moves need no escaping.)
            if i > 0 {
                out.write_all(b" ")?;
            }
            write!(out, "{m}")?;
        }
        out.write_all(b"\",\"error\":")?;
        json(out, &p.error)?;
        let (legal, status) = final_state(&pos);
        out.write_all(b",\"legal\":")?;
        json(out, &legal)?;
        out.write_all(b",\"status\":")?;
        json(out, &status)?;
        out.write_all(b"}")
    })()
    .map_err(failed)
}

/// serde_json's writer behind a trait object (the fields of a review have many types).
mod erased {
    pub(super) trait Json {
        fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()>;
    }

    impl<T: serde::Serialize> Json for T {
        fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
            serde_json::to_writer(out, self).map_err(std::io::Error::other)
        }
    }
}

fn ply_of(s: &super::Step) -> ReviewPly {
    ReviewPly {
        ply: s.ply,
        // (The move number of the position before the move: its fullmove counter.)
        move_number: s.before.fullmoves().max(1),
        side: s.before.turn(),
        iccs: s.mv.to_string(),
        chinese: s.text(Notation::Chinese),
        wxf: s.text(Notation::Wxf),
        fen: s.after.fen(),
    }
}

/// The legal moves (ICCS, sorted) and the status (check, mate...) of the line's last position.
fn final_state(pos: &Position) -> (Vec<String>, Option<String>) {
    let status = super::status_text(pos);
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    (legal, status)
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
