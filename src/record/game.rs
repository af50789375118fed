//! The [`Game`] model shared by every record reader and writer.
//!
//! A game is a start position, tags in their original order, and a tree of moves: the main line
//! is a list of [`MoveNode`]s, each of which may carry comments, NAGs and alternative lines
//! ([`Line`]s) that replace it. Moves are stored both as validated [`Move`]s and with the text the
//! record gave, so that errors and conversions can point back at the source.

use super::encoding::TextEncoding;
use super::error::RecordError;
use super::notation::Notation;
use crate::position::Position;
use crate::types::{Color, Move};

/// Where in a source something was read (1-based line and column; byte offset for binaries).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SourcePos {
    pub line: u64,
    pub column: u32,
}

/// The outcome written in the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    RedWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    #[serde(rename = "*")]
    Unknown,
}

impl GameResult {
    pub fn token(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
    pub fn from_token(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// One move of a line, with everything the record attached to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    pub mv: Move,
    /// The move as the record wrote it (for XQF/CBR, the ICCS of the squares).
    pub text: String,
    /// Where the move text starts in the source.
    pub pos: SourcePos,
    /// Numeric annotation glyphs ($1 ...).
    pub nags: Vec<u8>,
    /// Comments written after the move.
    pub comments: Vec<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Line>,
}

impl MoveNode {
    pub fn new(mv: Move, text: impl Into<String>, pos: SourcePos) -> MoveNode {
        MoveNode {
            mv,
            text: text.into(),
            pos,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves with an optional comment before its first move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub comments_before: Vec<String>,
    pub nodes: Vec<MoveNode>,
}

/// A whole game record.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Tags in their original order (PGN tag pairs, or the header fields of binary formats).
    pub tags: Vec<(String, String)>,
    /// The start position (the standard one unless the record set another).
    pub start: Position,
    /// The main line and, at each node, its variations.
    pub main: Line,
    /// The result the record states, if any.
    pub result: Option<GameResult>,
    /// Text after the result or outside any game that belonged to this record (kept on conversion).
    pub trailing_text: Option<String>,
}

impl Game {
    /// An empty game from the given position.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Vec::new(),
            start,
            main: Line::default(),
            result: None,
            trailing_text: None,
        }
    }

    /// The value of a tag (case-sensitive name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an existing one in place or appending.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// The moves of the main line.
    pub fn main_moves(&self) -> Vec<Move> {
        self.main.nodes.iter().map(|n| n.mv).collect()
    }

    /// The side that makes the first move.
    pub fn first_mover(&self) -> Color {
        self.start.turn()
    }

    /// A copy without what depends on the source text (each move's `text` and `pos`), for
    /// comparing games read from different formats or notations.
    pub fn normalized(&self) -> Game {
        fn line(l: &Line) -> Line {
            Line {
                comments_before: l.comments_before.clone(),
                nodes: l
                    .nodes
                    .iter()
                    .map(|n| MoveNode {
                        mv: n.mv,
                        text: String::new(),
                        pos: SourcePos::default(),
                        nags: n.nags.clone(),
                        comments: n.comments.clone(),
                        variations: n.variations.iter().map(line).collect(),
                    })
                    .collect(),
            }
        }
        Game {
            tags: self.tags.clone(),
            start: self.start,
            main: line(&self.main),
            result: self.result,
            trailing_text: self.trailing_text.clone(),
        }
    }

    /// The position after `ply` moves of the main line (0 = the start).
    pub fn position_at(&self, ply: usize) -> Position {
        let mut pos = self.start;
        for n in self.main.nodes.iter().take(ply) {
            pos.play_unchecked(n.mv);
        }
        pos
    }
}

impl Line {
    /// Number of moves in this line and all its variations, recursively.
    pub fn total_moves(&self) -> usize {
        self.nodes
            .iter()
            .map(|n| 1 + n.variations.iter().map(Line::total_moves).sum::<usize>())
            .sum()
    }

    /// Number of variations below this line, recursively.
    pub fn total_variations(&self) -> usize {
        self.nodes
            .iter()
            .map(|n| {
                n.variations.len()
                    + n.variations
                        .iter()
                        .map(Line::total_variations)
                        .sum::<usize>()
            })
            .sum()
    }

    /// Number of comments in this line and its variations, recursively.
    pub fn total_comments(&self) -> usize {
        self.comments_before.len()
            + self
                .nodes
                .iter()
                .map(|n| {
                    n.comments.len() + n.variations.iter().map(Line::total_comments).sum::<usize>()
                })
                .sum::<usize>()
    }
}

/// The container format of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Pgn,
    Dhtmlxq,
    Xqf,
    Cbr,
    Cbl,
    Cbf,
    /// The WXF file format (`FORMAT WXF`, `START{ ... }END`).
    Wxf,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Dhtmlxq => "dhtmlxq",
            Format::Xqf => "xqf",
            Format::Cbr => "cbr",
            Format::Cbl => "cbl",
            Format::Cbf => "cbf",
            Format::Wxf => "wxf",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "pgn" => Format::Pgn,
            "dhtmlxq" | "ubb" => Format::Dhtmlxq,
            "xqf" => Format::Xqf,
            "cbr" => Format::Cbr,
            "cbl" => Format::Cbl,
            "cbf" => Format::Cbf,
            "wxf" => Format::Wxf,
            _ => return Err(format!("unknown format '{s}'")),
        })
    }
}

/// One game as read from a source: the game (complete, or what was read before the error), where
/// it came from, and what went wrong if anything.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// The file path, or `-` for standard input.
    pub source: String,
    /// 0-based index of the game in its source.
    pub index: usize,
    pub format: Format,
    /// The move notation of text formats (`None` for formats that store squares).
    pub notation: Option<Notation>,
    /// The text encoding of text formats.
    pub encoding: Option<TextEncoding>,
    /// The game; when `error` is set, the part read before the error.
    pub game: Game,
    /// The first error: the game is invalid from there on.
    pub error: Option<RecordError>,
    /// Things accepted but worth saying (kind `resolved_by_legality`, ...).
    pub warnings: Vec<RecordError>,
}

impl GameEntry {
    /// A game read without trouble.
    pub fn ok(source: &str, index: usize, format: Format, game: Game) -> GameEntry {
        GameEntry {
            source: source.to_owned(),
            index,
            format,
            notation: None,
            encoding: None,
            game,
            error: None,
            warnings: Vec::new(),
        }
    }

    /// A game (or a whole source) that could not be read at all.
    pub fn failed(source: &str, index: usize, format: Format, error: RecordError) -> GameEntry {
        GameEntry {
            source: source.to_owned(),
            index,
            format,
            notation: None,
            encoding: None,
            game: Game::new(Position::start()),
            error: Some(error.in_source(source).in_game(index)),
            warnings: Vec::new(),
        }
    }

    pub fn is_ok(&self) -> bool {
        self.error.is_none()
    }

    /// Plies of the main line that were read (and replayed legally).
    pub fn plies(&self) -> usize {
        self.game.main.nodes.len()
    }

    /// The game, or the error.
    pub fn into_result(self) -> Result<Game, RecordError> {
        match self.error {
            None => Ok(self.game),
            Some(e) => Err(e),
        }
    }
}
