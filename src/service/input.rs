//! What a request analyses: one game of a record (its bytes), or a FEN and ICCS moves; and the
//! line (start position and main-line moves) it stands for.

use super::ServiceError;
use crate::record::error::kind;
use crate::record::{GameEntry, RecordError, walk};
use crate::{Move, Position, START_FEN};

/// The game a request is about.
#[derive(Clone, Debug)]
pub enum GameInput {
    /// Game `game` (1-based) of a record in any format `validate` reads; `name` names it in
    /// messages (a file path, `-`, or an upload's name) and picks the format by its extension
    /// when the bytes leave it open.
    Record {
        bytes: Vec<u8>,
        name: String,
        game: usize,
    },
    /// Game `game` (1-based) of the record file at `path` (`-`: standard input), streamed up to
    /// that game so that memory stays bounded by one game whatever the file's size (the CLI's
    /// input; a server never reads its own file system, so it passes `Record`).
    File {
        path: std::path::PathBuf,
        game: usize,
    },
    /// A start position (the standard one when `None`) and moves in ICCS (`h2e2 h9g7` or
    /// `H2-E2 H9-G7`; move numbers and a result token are skipped).
    Fen {
        fen: Option<String>,
        moves: Option<String>,
    },
}

impl GameInput {
    /// Game `game` (1-based) of the record held in `bytes`.
    pub fn record(bytes: impl Into<Vec<u8>>, name: impl Into<String>, game: usize) -> GameInput {
        GameInput::Record {
            bytes: bytes.into(),
            name: name.into(),
            game,
        }
    }

    /// A FEN (or the start) and ICCS moves.
    pub fn fen(fen: Option<&str>, moves: Option<&str>) -> GameInput {
        GameInput::Fen {
            fen: fen.map(str::to_owned),
            moves: moves.map(str::to_owned),
        }
    }
}

/// A start position and the moves of a main line, with the record's game when there is one.
#[derive(Clone, Debug)]
pub struct Line {
    pub start: Position,
    pub moves: Vec<Move>,
    /// The game read from the record (tags, comments, variations); `None` for a FEN input.
    pub entry: Option<GameEntry>,
    /// Why the record's main line stops early: `moves` holds its legal part, up to the bad move.
    pub error: Option<RecordError>,
}

impl Line {
    /// The game header of the record ([`crate::report::schema::header`]); null for a FEN input.
    pub fn header(&self) -> serde_json::Value {
        self.entry
            .as_ref()
            .map_or(serde_json::Value::Null, crate::report::schema::header)
    }

    /// The error object of the record's error, or null.
    pub fn error_json(&self) -> serde_json::Value {
        self.error
            .as_ref()
            .map_or(serde_json::Value::Null, crate::report::schema::error_object)
    }

    /// Checks that `at` plies are played in the line (`what` names the option, such as `--at`):
    /// a usage error naming the valid range otherwise.
    pub fn check_ply(&self, what: &str, at: u32) -> Result<(), ServiceError> {
        let n = self.moves.len();
        if at as usize > n {
            let broken = match &self.error {
                Some(_) => " legal plies: the record is broken after them",
                None => " plies",
            };
            return Err(ServiceError::usage(format!(
                "{what} {at} is past the end of the game: it takes 0 to {n} (the line has {n}{broken})"
            )));
        }
        Ok(())
    }
}

/// Which reader of ICCS moves a command has always used (their messages differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MovesSyntax {
    /// `show` and `claim`: `h2e2` or `H2-E2`, move numbers and a result token skipped.
    Loose,
    /// `adjudicate`: the rules module's reader (spaces or commas, move numbers skipped).
    Rules,
}

/// The line of `input`: the game read from the record, or the FEN with its moves.
pub fn load_line(input: &GameInput) -> Result<Line, ServiceError> {
    load_line_with(input, MovesSyntax::Loose)
}

pub(crate) fn load_line_with(input: &GameInput, syntax: MovesSyntax) -> Result<Line, ServiceError> {
    match input {
        GameInput::Record { bytes, name, game } => {
            let entry = load_game_partial(bytes, name, *game)?;
            Ok(Line {
                start: entry.game.start,
                moves: entry.game.main_moves(),
                error: entry.error.clone(),
                entry: Some(entry),
            })
        }
        GameInput::File { path, game } => {
            let entry = load_file_partial(path, *game)?;
            Ok(Line {
                start: entry.game.start,
                moves: entry.game.main_moves(),
                error: entry.error.clone(),
                entry: Some(entry),
            })
        }
        GameInput::Fen { fen, moves } => {
            let start = match (fen, syntax) {
                (Some(f), _) => parse_fen(f)?,
                (None, MovesSyntax::Loose) => Position::start(),
                (None, MovesSyntax::Rules) => parse_fen(START_FEN)?,
            };
            let moves = match (moves, syntax) {
                (Some(text), MovesSyntax::Loose) => parse_iccs_line(&start, text)?,
                (text, MovesSyntax::Rules) => {
                    crate::rules::adjudicate::parse_iccs_line(&start, text.as_deref().unwrap_or(""))
                        .map_err(ServiceError::invalid)?
                }
                (None, MovesSyntax::Loose) => Vec::new(),
            };
            Ok(Line {
                start,
                moves,
                entry: None,
                error: None,
            })
        }
    }
}

/// Reads game `number` (1-based) of the record in `bytes` and returns it when it replays
/// legally. Errors: no game `number` (a usage error naming the valid range), or the game is
/// invalid (the record's own error: line, column, ply, move and reason).
pub fn load_game(bytes: &[u8], name: &str, number: usize) -> Result<GameEntry, ServiceError> {
    let entry = load_game_partial(bytes, name, number)?;
    match entry.error {
        Some(e) => Err(ServiceError::record(e)),
        None => Ok(entry),
    }
}

/// Reads game `number` (1-based) of the record in `bytes`, valid or not: an invalid game holds
/// its legal part and its error. Fails only when there is no game `number` (a usage error, exit
/// code 2, naming the valid range) or the whole file could not be read.
pub fn load_game_partial(
    bytes: &[u8],
    name: &str,
    number: usize,
) -> Result<GameEntry, ServiceError> {
    let mut games = games_in(bytes, name).peekable();
    let mut count = 0;
    while let Some(entry) = games.next() {
        count += 1;
        if count == 1
            && games.peek().is_none()
            && let Some(e) = whole_file_failure(&entry)
        {
            return Err(e);
        }
        if count == number {
            return Ok(entry);
        }
    }
    Err(no_such_game(name, number, count))
}

/// The games of the record in `bytes`, read one at a time: a PGN database (the common large
/// upload) is parsed game by game, so that memory stays bounded by one game whatever the number
/// of games; the other formats are read whole.
pub fn games_in<'a>(bytes: &'a [u8], name: &'a str) -> Box<dyn Iterator<Item = GameEntry> + 'a> {
    match walk::detect_format(name, bytes) {
        Some(crate::record::Format::Pgn) => {
            Box::new(crate::record::pgn::PgnReader::new(bytes, name))
        }
        _ => Box::new(walk::read_bytes(name, bytes, None).into_iter()),
    }
}

/// As [`load_game_partial`], for the record file at `path` (`-`: standard input), streamed up
/// to game `number`: memory stays bounded by one game whatever the file's size.
pub fn load_file_partial(path: &std::path::Path, number: usize) -> Result<GameEntry, ServiceError> {
    let name = path.display().to_string();
    let inputs = [walk::input_of(path)];
    let mut count = 0;
    for entry in walk::games(&inputs) {
        count += 1;
        if count == 1
            && let Some(e) = whole_file_failure(&entry)
        {
            return Err(e);
        }
        if count == number {
            return Ok(entry);
        }
    }
    Err(no_such_game(&name, number, count))
}

/// The error of a file that failed as a whole (unknown format, bad encoding, unreadable, ...),
/// when `entry`, its first, is one.
fn whole_file_failure(entry: &GameEntry) -> Option<ServiceError> {
    let e = entry.error.as_ref()?;
    (entry.game.main.nodes.is_empty()
        && e.ply.is_none()
        && matches!(
            e.kind.as_str(),
            kind::IO | kind::ENCODING | kind::UNKNOWN_FORMAT | kind::TRUNCATED | kind::BAD_HEADER
        ))
    .then(|| ServiceError::record(e.clone()))
}

/// No game `number` in a file of `count` games: a usage error (exit code 2) naming the valid
/// range, or invalid input (exit code 1) when the file holds no game at all.
fn no_such_game(name: &str, number: usize, count: usize) -> ServiceError {
    let range = match count {
        0 => "it holds no game".to_owned(),
        1 => "--game takes 1".to_owned(),
        n => format!("--game takes 1 to {n}"),
    };
    let e = RecordError::new(
        crate::record::load::NO_SUCH_GAME,
        format!(
            "no such game: the file holds {count} game{} ({range})",
            if count == 1 { "" } else { "s" }
        ),
    )
    .in_source(name)
    .in_game(number.saturating_sub(1));
    let mut err = ServiceError::record(e);
    if count > 0 {
        err.code = 2;
    }
    err
}

/// Every game of the record in `bytes`, valid or not (an invalid game holds the moves up to its
/// bad one, and its error).
pub fn read_games(bytes: &[u8], name: &str) -> Vec<GameEntry> {
    walk::read_bytes(name, bytes, None)
}

/// The error of a record that could not be read from the file system (for the CLI: the same
/// error the record reader gives).
pub fn unreadable(name: &str, e: &std::io::Error) -> ServiceError {
    ServiceError::record(
        RecordError::new(kind::IO, format!("cannot read: {e}"))
            .in_source(name)
            .in_game(0),
    )
}

/// A position from its FEN, with the error the CLI prints.
pub fn parse_fen(fen: &str) -> Result<Position, ServiceError> {
    Position::from_fen(fen)
        .map_err(|e| ServiceError::invalid(format!("invalid FEN '{}': {e}", shorten(fen))))
}

/// `text` cut to at most 120 characters (with an ellipsis), for echoing user input in a message.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Reads a list of ICCS moves ("h2e2" or "H2-E2"), skipping move numbers and a result token.
pub fn parse_iccs_line(start: &Position, text: &str) -> Result<Vec<Move>, ServiceError> {
    let mut pos = *start;
    let mut moves = Vec::new();
    for token in text.split_whitespace() {
        let t = token.trim_end_matches(['.', ',']);
        if t.is_empty()
            || t.chars().all(|c| c.is_ascii_digit())
            || matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
        {
            continue;
        }
        let ply = moves.len() + 1;
        let squares: String = t.chars().filter(|&c| c != '-').collect();
        let m = Move::parse_iccs(&squares.to_ascii_lowercase()).ok_or_else(|| {
            ServiceError::invalid(format!(
                "ply {ply}: '{token}' is not an ICCS move (expected e.g. h2e2 or H2-E2)"
            ))
        })?;
        if !pos.is_legal(m) {
            let why = match pos.piece_at(m.from) {
                None => format!("no piece on {}", m.from),
                Some(p) if p.color != pos.turn() => {
                    format!(
                        "the piece on {} is {}'s, but {} is to move",
                        m.from,
                        p.color,
                        pos.turn()
                    )
                }
                Some(_) => "the move is illegal in this position".into(),
            };
            return Err(ServiceError::invalid(format!(
                "ply {ply}: '{token}': {why} (position {})",
                pos.fen()
            )));
        }
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}
