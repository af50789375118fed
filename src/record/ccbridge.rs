//! CCBridge (象棋桥) records: CBR (one binary game), CBL (a library of CBR records) and CBF (XML).
//!
//! Layouts (see `notation/FORMATS.md` §9 of the shared reference, checked against real files):
//!
//! * **CBR**: magic `CCBridge Record\0`, version byte at 19 (1 or 2). Strings are UTF-16LE,
//!   NUL-terminated in fixed fields. Version 2 has the board block at 2112: side to move (1 Red,
//!   2 Black), the start move number at 2116, 90 piece bytes at 2120 (row by row from Black's
//!   back rank; high nibble 1 Red / 2 Black, low nibble 1 rook, 2 horse, 3 elephant, 4 advisor,
//!   5 king, 6 cannon, 7 pawn), then the move records from 2214. Version 1 has the block at 1856.
//!   A move record is `flags, 0, from, to` (+ `i32` byte length and UTF-16LE text when
//!   `flags & 4`): `flags & 1` = the line ends here, `& 2` = an alternative follows. The first
//!   record is the root (the start position, with the game comment; `flags & 1` = no moves).
//!   Squares are board indexes from the top-left (v2) or `x`/`y` nibbles, `y` from the top (v1).
//!   The tree is stored depth first, as in XQF.
//! * **CBL**: magic `CCBridgeLibrary\0`, the slot count at 60, the library name at 64, an index of
//!   276 bytes a slot after 66,624 bytes, then the CBR records on 4,096-byte boundaries (a long
//!   record takes several slots; records are found by their magic). Read record by record by
//!   [`super::cbl::CblReader`].
//! * **CBF**: XML `<ChineseChessRecord><Head>…<FEN>…</Head><MoveList><Move value="xy-xy"
//!   [end="1"]>[comment]</Move>…`, `y` from the top; the first `Move` (`00-00`) is the root.
//!   `end="1"` ends a line; the moves are stored depth first like CBR.
//!
//! Every move is checked against the position, as for XQF: an illegal main-line move is an error
//! (the entry keeps the moves before it), an illegal move in a variation cuts that variation
//! (with a warning and a note in the comments).

use super::error::kind;
use super::xqf::{Loc, RawMove, assemble};
use super::{Format, Game, GameEntry, GameResult, RecordError, TextEncoding};
use crate::position::Position;
use crate::setup::Setup;
use crate::types::{Color, Move, Piece, Role, Square};

use super::cbl::{CBL_MAGIC, CBR_MAGIC};

/// The three CCBridge file kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CcbridgeKind {
    /// One binary game (`.cbr`).
    Cbr,
    /// A library of binary games (`.cbl`).
    Cbl,
    /// One game in XML (`.cbf`).
    Cbf,
}

impl CcbridgeKind {
    /// The kind of a record-layer format (`None` for the non-CCBridge ones).
    pub fn from_format(format: Format) -> Option<CcbridgeKind> {
        match format {
            Format::Cbr => Some(CcbridgeKind::Cbr),
            Format::Cbl => Some(CcbridgeKind::Cbl),
            Format::Cbf => Some(CcbridgeKind::Cbf),
            _ => None,
        }
    }

    /// The record-layer format of this kind.
    pub fn format(self) -> Format {
        match self {
            CcbridgeKind::Cbr => Format::Cbr,
            CcbridgeKind::Cbl => Format::Cbl,
            CcbridgeKind::Cbf => Format::Cbf,
        }
    }
}

/// Recognises a CCBridge file by its content: the CBR or CBL magic, or an XML document whose root
/// element is `ChineseChessRecord`.
pub fn sniff(bytes: &[u8]) -> Option<CcbridgeKind> {
    if bytes.starts_with(CBR_MAGIC) {
        return Some(CcbridgeKind::Cbr);
    }
    if bytes.starts_with(CBL_MAGIC) {
        return Some(CcbridgeKind::Cbl);
    }
    let head = &bytes[..bytes.len().min(512)];
    let head = String::from_utf8_lossy(head);
    if head.contains("<ChineseChessRecord") {
        return Some(CcbridgeKind::Cbf);
    }
    None
}

/// Reads every game of a CCBridge file of the given kind.
///
/// A CBL library may hold heading records (an empty board, no moves, only a title and a comment):
/// they are not games and are skipped here ([`read_entries`] reports them, kind `no_moves`).
/// Any other problem in any game is an error; use [`read_entries`] to get the good games of a
/// library together with the bad ones.
pub fn read(bytes: &[u8], kind: CcbridgeKind) -> Result<Vec<Game>, RecordError> {
    let mut games = Vec::new();
    for entry in read_kind(bytes, kind, "") {
        match entry.error {
            None => games.push(entry.game),
            Some(e) if e.kind == kind::NO_MOVES => {}
            Some(e) => return Err(e),
        }
    }
    Ok(games)
}

/// Reads every game of a CCBridge file, sniffing its kind (see [`sniff`]). One entry per game (per
/// CBR record of a library, headings included, in file order); a file that is not CCBridge at all
/// gives one failed entry.
pub fn read_entries(bytes: &[u8], source: &str) -> Vec<GameEntry> {
    match sniff(bytes) {
        Some(kind) => read_kind(bytes, kind, source),
        None => vec![GameEntry::failed(
            source,
            0,
            Format::Cbr,
            RecordError::new(
                kind::UNKNOWN_FORMAT,
                "not a CCBridge file (no CBR or CBL magic, no ChineseChessRecord XML)",
            )
            .at_offset(0),
        )],
    }
}

/// Reads every game of a CCBridge file of the given kind as entries of `source`.
///
/// A file named for one kind whose content is plainly another (a CBR saved as `.cbl`) is read as
/// what it is.
pub fn read_kind(bytes: &[u8], kind: CcbridgeKind, source: &str) -> Vec<GameEntry> {
    let kind = match sniff(bytes) {
        Some(actual) if actual != kind => actual,
        _ => kind,
    };
    match kind {
        CcbridgeKind::Cbr => vec![entry(source, 0, Format::Cbr, parse_cbr(bytes, 0))],
        // (Record by record, as from a file: see `super::cbl`.)
        CcbridgeKind::Cbl => super::cbl::CblReader::new(std::io::Cursor::new(bytes))
            .map(|item| item.into_entry(source))
            .collect(),
        CcbridgeKind::Cbf => {
            let mut e = entry(source, 0, Format::Cbf, parse_cbf(bytes));
            e.encoding = Some(TextEncoding::Utf8);
            vec![e]
        }
    }
}

fn entry(
    source: &str,
    index: usize,
    format: Format,
    parsed: Result<super::xqf::Parsed, RecordError>,
) -> GameEntry {
    match parsed {
        Ok(p) => {
            let mut e = GameEntry::ok(source, index, format, p.game);
            e.error = p.error.map(|e| e.in_source(source).in_game(index));
            e.warnings = p
                .warnings
                .into_iter()
                .map(|w| w.in_source(source).in_game(index))
                .collect();
            e
        }
        Err(e) => GameEntry::failed(source, index, format, e),
    }
}

/// The entry of record `index` of a library, at byte `offset` of it (see [`super::cbl`]).
pub(crate) fn record_entry(source: &str, index: usize, offset: u64, bytes: &[u8]) -> GameEntry {
    entry(
        source,
        index,
        Format::Cbl,
        parse_cbr(bytes, offset as usize),
    )
}

// ------------------------------------------------------------------------------------------------
// CBR
// ------------------------------------------------------------------------------------------------

/// Header strings of CBR version 2: (tag, offset, room in bytes). `Title` to `Black` come first.
const CBR2_STRINGS: [(&str, usize, usize); 21] = [
    ("Title", 180, 128),
    ("Event", 692, 64),
    ("Date", 884, 64),
    ("Red", 1076, 64),
    ("Black", 1300, 64),
    ("Round", 756, 64),
    ("Group", 820, 32),
    ("Table", 852, 32),
    ("Site", 948, 64),
    ("TimeControl", 1012, 64),
    ("RedTeam", 1140, 64),
    ("RedTime", 1204, 64),
    ("RedRating", 1268, 32),
    ("BlackTeam", 1364, 64),
    ("BlackTime", 1428, 64),
    ("BlackRating", 1492, 32),
    ("Referee", 1524, 64),
    ("Recorder", 1588, 64),
    ("Annotator", 1652, 64),
    ("Author", 1780, 64),
    ("Source", 564, 64),
];

/// Header strings of CBR version 1 (offsets as read by vschess).
const CBR1_STRINGS: [(&str, usize, usize); 19] = [
    ("Title", 52, 128),
    ("Event", 564, 64),
    ("Date", 756, 64),
    ("Red", 948, 64),
    ("Black", 1172, 64),
    ("Round", 628, 64),
    ("Group", 692, 32),
    ("Table", 724, 32),
    ("Site", 820, 64),
    ("TimeControl", 884, 64),
    ("RedTeam", 1012, 64),
    ("RedTime", 1076, 64),
    ("RedRating", 1140, 32),
    ("BlackTeam", 1236, 64),
    ("BlackTime", 1300, 64),
    ("BlackRating", 1364, 32),
    ("Annotator", 1396, 64),
    ("Author", 1524, 64),
    ("Source", 436, 64),
];

/// A UTF-16LE string of a fixed field, up to its first NUL.
fn utf16_field(bytes: &[u8], at: usize, room: usize) -> String {
    let end = (at + room).min(bytes.len());
    if at >= end {
        return String::new();
    }
    decode_utf16(&bytes[at..end], true)
}

/// UTF-16LE text; with `stop_at_nul`, up to the first NUL unit. An odd last byte is ignored.
fn decode_utf16(raw: &[u8], stop_at_nul: bool) -> String {
    let units = raw
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .take_while(|&u| !stop_at_nul || u != 0);
    char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

fn cbr_piece(code: u8) -> Option<Piece> {
    let color = match code >> 4 {
        1 => Color::Red,
        2 => Color::Black,
        _ => return None,
    };
    let role = match code & 0x0F {
        1 => Role::Rook,
        2 => Role::Horse,
        3 => Role::Elephant,
        4 => Role::Advisor,
        5 => Role::King,
        6 => Role::Cannon,
        7 => Role::Pawn,
        _ => return None,
    };
    Some(Piece::new(color, role))
}

/// A square counted from the top-left: `x` from Red's left, `row` 0 = Black's back rank.
fn from_top(x: u8, row: u8) -> Option<Square> {
    if x > 8 || row > 9 {
        return None;
    }
    Square::from_xy(i32::from(x), 9 - i32::from(row))
}

/// Parses one CBR record; `base` is its offset in the file (for error positions).
fn parse_cbr(bytes: &[u8], base: usize) -> Result<super::xqf::Parsed, RecordError> {
    let at = |o: usize| (base + o) as u64;
    if !bytes.starts_with(CBR_MAGIC) {
        return Err(RecordError::new(
            kind::BAD_HEADER,
            "not a CBR record (no 'CCBridge Record' magic)",
        )
        .at_offset(at(0)));
    }
    let version = bytes.get(19).copied().unwrap_or(0);
    let (block, strings): (usize, &[(&str, usize, usize)]) = match version {
        1 => (1856, &CBR1_STRINGS),
        2 => (2112, &CBR2_STRINGS),
        v => {
            return Err(RecordError::new(
                kind::BAD_HEADER,
                format!("unsupported CBR version {v} (readable: 1 and 2)"),
            )
            .at_offset(at(19)));
        }
    };
    let moves_at = block + 102;
    if bytes.len() < moves_at + 4 {
        return Err(RecordError::new(
            kind::TRUNCATED,
            format!(
                "a version {version} CBR record needs {} bytes before its moves, this one has {}",
                moves_at + 4,
                bytes.len()
            ),
        )
        .at_offset(at(bytes.len())));
    }
    let result_at = if version == 1 { 1820 } else { 2076 };
    let result = match bytes[result_at] {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    let mut tags = Vec::new();
    for (i, (name, off, room)) in strings.iter().enumerate() {
        let value = utf16_field(bytes, *off, *room);
        if i < 5 || !value.is_empty() {
            tags.push(((*name).to_owned(), value));
        }
        if i == 4 {
            tags.push(("Result".to_owned(), result.token().to_owned()));
        }
    }

    let mut setup = Setup::empty();
    for i in 0..90 {
        let code = bytes[block + 8 + i];
        if code == 0 {
            continue;
        }
        let Some(piece) = cbr_piece(code) else {
            return Err(RecordError::new(
                kind::BAD_POSITION,
                format!("board byte {i} holds the unknown piece code {code:#04x}"),
            )
            .at_offset(at(block + 8 + i)));
        };
        let sq = from_top((i % 9) as u8, (i / 9) as u8).expect("index below 90");
        setup.set(sq, Some(piece));
    }
    let side = match bytes[block] {
        2 => Color::Black,
        _ => Color::Red,
    };
    let move_number = u16::from_le_bytes([bytes[block + 4], bytes[block + 5]]);
    setup.fullmoves = u32::from(move_number.max(1));

    let square = |b: u8| -> Option<Square> {
        if version == 1 {
            from_top(b >> 4, b & 0x0F)
        } else if b < 90 {
            from_top(b % 9, b / 9)
        } else {
            None
        }
    };
    let mut reader = CbrReader {
        bytes,
        pos: moves_at,
        base,
    };
    let root = reader.record()?;
    let mut records = Vec::new();
    if root.flags & 1 == 0 {
        let mut outstanding = 1usize;
        while outstanding > 0 {
            let rec = reader.record()?;
            outstanding -= 1;
            outstanding += usize::from(rec.flags & 1 == 0) + usize::from(rec.flags & 2 != 0);
            let (mv, off_board) = match (square(rec.from), square(rec.to)) {
                (Some(from), Some(to)) => (Move::new(from, to), None),
                _ => (
                    Move::new(Square::A0, Square::A0),
                    Some(format!(
                        "{:#04x}-{:#04x} (CBR square bytes off the board)",
                        rec.from, rec.to
                    )),
                ),
            };
            records.push(RawMove {
                at: Loc::Byte(base + rec.offset),
                mv,
                has_next: rec.flags & 1 == 0,
                has_sibling: rec.flags & 2 != 0,
                comment: rec.comment,
                off_board,
            });
        }
    }

    // As for XQF, the colour of the first moving piece decides who moves first; the side byte
    // is used when there is no move.
    let board_at = Loc::Byte(base + block + 8);
    assemble(
        &setup,
        board_at,
        side,
        tags,
        Some(result),
        root.comment,
        records,
    )
}

struct CbrRecord {
    offset: usize,
    flags: u8,
    from: u8,
    to: u8,
    comment: Option<String>,
}

struct CbrReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
}

impl CbrReader<'_> {
    fn truncated(&self, what: &str) -> RecordError {
        RecordError::new(
            kind::TRUNCATED,
            format!("the record ends inside {what}: the move tree is incomplete"),
        )
        .at_offset((self.base + self.bytes.len()) as u64)
    }

    fn record(&mut self) -> Result<CbrRecord, RecordError> {
        let offset = self.pos;
        let Some(r) = self.bytes.get(offset..offset + 4) else {
            return Err(self.truncated("a move record"));
        };
        let (flags, from, to) = (r[0], r[2], r[3]);
        self.pos += 4;
        let mut comment = None;
        if flags & 4 != 0 {
            let Some(l) = self.bytes.get(self.pos..self.pos + 4) else {
                return Err(self.truncated("a comment length"));
            };
            let len = u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize;
            self.pos += 4;
            if len > self.bytes.len() - self.pos {
                return Err(RecordError::new(
                    kind::TRUNCATED,
                    format!(
                        "comment length {len} of the move record at {:#x} runs past the end of \
                         the record ({} bytes left)",
                        self.base + offset,
                        self.bytes.len() - self.pos
                    ),
                )
                .at_offset((self.base + offset) as u64));
            }
            let text = decode_utf16(&self.bytes[self.pos..self.pos + len], false);
            self.pos += len;
            let text = text.trim_end_matches('\0').to_owned();
            if !text.is_empty() {
                comment = Some(text);
            }
        }
        Ok(CbrRecord {
            offset,
            flags,
            from,
            to,
            comment,
        })
    }
}

// ------------------------------------------------------------------------------------------------
// CBF (XML)
// ------------------------------------------------------------------------------------------------

/// CBF head elements and the tags they become; `Name` to `Black` come first.
const CBF_TAGS: [(&str, &str); 28] = [
    ("Name", "Title"),
    ("Contest", "Event"),
    ("Date", "Date"),
    ("Red", "Red"),
    ("Black", "Black"),
    ("ContestType", "EventType"),
    ("Round", "Round"),
    ("Group", "Group"),
    ("Table", "Table"),
    ("Site", "Site"),
    ("TimeRule", "TimeControl"),
    ("RedTeam", "RedTeam"),
    ("RedTime", "RedTime"),
    ("RedRating", "RedRating"),
    ("BlackTeam", "BlackTeam"),
    ("BlackTime", "BlackTime"),
    ("BlackRating", "BlackRating"),
    ("Referee", "Referee"),
    ("Recorder", "Recorder"),
    ("Commentator", "Annotator"),
    ("CommentatorURL", "AnnotatorURL"),
    ("Creator", "Author"),
    ("CreatorURL", "AuthorURL"),
    ("DateCreated", "DateCreated"),
    ("DateModified", "DateModified"),
    ("ECCO", "ECCO"),
    ("URL", "URL"),
    ("From", "Source"),
];

/// One `<Move>` of a CBF move list.
struct CbfMove {
    at: Loc,
    value: String,
    end: bool,
    comment: String,
}

fn parse_cbf(bytes: &[u8]) -> Result<super::xqf::Parsed, RecordError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return Err(RecordError::new(
                kind::ENCODING,
                format!(
                    "a CBF file is UTF-8 XML; byte {} is not UTF-8",
                    e.valid_up_to()
                ),
            )
            .at_offset(e.valid_up_to() as u64));
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut head: Vec<(String, String)> = Vec::new();
    let mut fen_at = Loc::Text { line: 0, column: 0 };
    let mut moves: Vec<CbfMove> = Vec::new();
    let mut path: Vec<String> = Vec::new();
    let mut xml = Xml {
        text,
        pos: 0,
        tag_start: 0,
        counted: std::cell::Cell::new((0, 1, 1)),
    };
    let mut saw_root = false;
    while let Some(ev) = xml.next_event()? {
        match ev {
            Event::Start { name, attrs, empty } => {
                let depth = path.len();
                if depth == 0 {
                    if name != "ChineseChessRecord" {
                        return Err(xml.error(format!(
                            "the root element is <{name}>, a CBF file has <ChineseChessRecord>"
                        )));
                    }
                    saw_root = true;
                }
                if depth == 2 && path[1] == "Head" {
                    if name == "FEN" {
                        fen_at = xml.tag_loc();
                    }
                    head.push((name.clone(), String::new()));
                }
                if depth == 2 && path[1] == "MoveList" && name == "Move" {
                    let mut value = None;
                    let mut end = false;
                    for (k, v) in attrs {
                        match k.as_str() {
                            "value" => value = Some(v),
                            "end" => end = v == "1",
                            other => {
                                return Err(xml.error(format!(
                                    "<Move> has an attribute '{other}' this reader does not know \
                                     (variations in CBF other than by 'end' are not documented)"
                                )));
                            }
                        }
                    }
                    let Some(value) = value else {
                        return Err(xml.error("a <Move> without a value".to_owned()));
                    };
                    moves.push(CbfMove {
                        at: xml.tag_loc(),
                        value,
                        end,
                        comment: String::new(),
                    });
                }
                if !empty {
                    path.push(name);
                }
            }
            Event::End(name) => match path.pop() {
                Some(open) if open == name => {}
                Some(open) => {
                    return Err(xml.error(format!("</{name}> closes <{open}>")));
                }
                None => return Err(xml.error(format!("</{name}> closes nothing"))),
            },
            Event::Text(t) => {
                if path.len() == 3 && path[1] == "Head" {
                    if let Some(last) = head.last_mut() {
                        last.1.push_str(&t);
                    }
                } else if path.len() == 3
                    && path[1] == "MoveList"
                    && path[2] == "Move"
                    && let Some(m) = moves.last_mut()
                {
                    m.comment.push_str(&t);
                }
            }
        }
    }
    if !saw_root {
        return Err(RecordError::new(
            kind::RECORD_SYNTAX,
            "no <ChineseChessRecord> element",
        ));
    }
    if let Some(open) = path.last() {
        return Err(
            RecordError::new(kind::TRUNCATED, format!("the XML ends inside <{open}>"))
                .at_offset(bytes.len() as u64),
        );
    }

    let field = |name: &str| {
        head.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default()
    };
    let result = match field("RecordResult").as_str() {
        "1" => GameResult::RedWins,
        "2" => GameResult::BlackWins,
        "3" => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    let mut tags = Vec::new();
    for (i, (elem, tag)) in CBF_TAGS.iter().enumerate() {
        let v = field(elem);
        if i < 5 || !v.is_empty() {
            tags.push(((*tag).to_owned(), v));
        }
        if i == 4 {
            tags.push(("Result".to_owned(), result.token().to_owned()));
        }
    }
    let known: Vec<&str> = CBF_TAGS.iter().map(|(e, _)| *e).collect();
    for (k, v) in &head {
        let v = v.trim();
        if !known.contains(&k.as_str()) && k != "FEN" && k != "RecordResult" && !v.is_empty() {
            tags.push((k.clone(), v.to_owned()));
        }
    }

    let fen = field("FEN");
    let setup = if fen.is_empty() {
        Setup::start()
    } else {
        match Setup::from_fen(&fen) {
            Ok(s) => s,
            Err(e) => {
                let mut game = Game::new(Position::start());
                game.tags = tags;
                game.result = Some(result);
                let e = RecordError::new(
                    kind::BAD_POSITION,
                    format!("the FEN '{fen}' is not valid: {e}"),
                );
                return Ok(super::xqf::Parsed {
                    game,
                    error: Some(fen_at.locate(e)),
                    warnings: Vec::new(),
                });
            }
        }
    };

    let mut moves = moves.into_iter();
    let Some(root) = moves.next() else {
        // No move list at all: a position without moves.
        return assemble(
            &setup,
            fen_at,
            setup.turn,
            tags,
            Some(result),
            None,
            Vec::new(),
        );
    };
    let game_comment = Some(root.comment.trim().to_owned()).filter(|c| !c.is_empty());
    let mut records = Vec::new();
    if !root.end {
        let mut outstanding = 1usize;
        for m in moves.by_ref() {
            let Some(mv) = cbf_move(&m.value) else {
                let e = RecordError::new(
                    kind::ILLEGAL_MOVE,
                    format!(
                        "'{}' is not a CBF move (xy-xy, y counted from the top)",
                        m.value
                    ),
                )
                .at_move(records.len() + 1, m.value);
                return Err(m.at.locate(e));
            };
            outstanding -= 1;
            outstanding += usize::from(!m.end);
            let comment = m.comment.trim().to_owned();
            records.push(RawMove {
                at: m.at,
                mv,
                has_next: !m.end,
                has_sibling: false,
                comment: Some(comment).filter(|c| !c.is_empty()),
                off_board: None,
            });
            if outstanding == 0 {
                break;
            }
        }
        if outstanding > 0 {
            // The list stopped without `end`: the last move ends the line.
            if let Some(last) = records.last_mut() {
                last.has_next = false;
            }
        }
    }
    if let Some(extra) = moves.next() {
        return Err(extra.at.locate(RecordError::new(
            kind::RECORD_SYNTAX,
            format!(
                "<Move value=\"{}\"> follows the end of the move list; CBF variations in this \
                 form are not documented, so they are not guessed at",
                extra.value
            ),
        )));
    }
    assemble(
        &setup,
        fen_at,
        setup.turn,
        tags,
        Some(result),
        game_comment,
        records,
    )
}

/// A CBF move `xy-xy` (y counted from the top).
fn cbf_move(v: &str) -> Option<Move> {
    let b = v.as_bytes();
    if b.len() != 5 || b[2] != b'-' {
        return None;
    }
    let d = |c: u8| c.is_ascii_digit().then(|| c - b'0');
    let from = from_top(d(b[0])?, d(b[1])?)?;
    let to = from_top(d(b[3])?, d(b[4])?)?;
    Some(Move::new(from, to))
}

/// A minimal XML pull reader: elements, attributes, text, CDATA, comments, processing
/// instructions and the predefined and numeric entities. No DTDs (rejected).
struct Xml<'a> {
    text: &'a str,
    pos: usize,
    /// Where the last start tag began.
    tag_start: usize,
    /// Line counting cache: (byte position, line, column) of an earlier point.
    counted: std::cell::Cell<(usize, u64, u32)>,
}

enum Event {
    Start {
        name: String,
        attrs: Vec<(String, String)>,
        empty: bool,
    },
    End(String),
    Text(String),
}

impl Xml<'_> {
    /// 1-based line and column (in characters) of a byte position, counting on from the last
    /// position asked for when it lies before (positions are asked for mostly in order).
    fn line_column(&self, at: usize) -> (u64, u32) {
        let at = at.min(self.text.len());
        let (mut from, mut line, mut column) = self.counted.get();
        if at < from {
            (from, line, column) = (0, 1, 1);
        }
        for c in self.text[from..at].chars() {
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        self.counted.set((at, line, column));
        (line, column)
    }

    /// The location of the last start tag.
    fn tag_loc(&self) -> Loc {
        let (line, column) = self.line_column(self.tag_start);
        Loc::Text { line, column }
    }

    fn error(&self, message: String) -> RecordError {
        let (line, column) = self.line_column(self.pos);
        RecordError::new(kind::RECORD_SYNTAX, message).at(line, column)
    }

    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn next_event(&mut self) -> Result<Option<Event>, RecordError> {
        loop {
            let rest = self.rest();
            if rest.is_empty() {
                return Ok(None);
            }
            if let Some(r) = rest.strip_prefix("<!--") {
                let Some(n) = r.find("-->") else {
                    return Err(self.error("an XML comment is not closed".to_owned()));
                };
                self.pos += 4 + n + 3;
                continue;
            }
            if let Some(r) = rest.strip_prefix("<![CDATA[") {
                let Some(n) = r.find("]]>") else {
                    return Err(self.error("a CDATA section is not closed".to_owned()));
                };
                let t = r[..n].to_owned();
                self.pos += 9 + n + 3;
                return Ok(Some(Event::Text(t)));
            }
            if rest.starts_with("<?") {
                let Some(n) = rest.find("?>") else {
                    return Err(self.error("a processing instruction is not closed".to_owned()));
                };
                self.pos += n + 2;
                continue;
            }
            if rest.starts_with("<!") {
                return Err(self.error("DTDs are not supported in CBF files".to_owned()));
            }
            if let Some(r) = rest.strip_prefix("</") {
                let Some(n) = r.find('>') else {
                    return Err(self.error("an end tag is not closed".to_owned()));
                };
                let name = r[..n].trim().to_owned();
                self.pos += 2 + n + 1;
                return Ok(Some(Event::End(name)));
            }
            if rest.starts_with('<') {
                return self.start_tag().map(Some);
            }
            let n = rest.find('<').unwrap_or(rest.len());
            let raw = &rest[..n];
            let t = self.unescape(raw)?;
            self.pos += n;
            return Ok(Some(Event::Text(t)));
        }
    }

    fn start_tag(&mut self) -> Result<Event, RecordError> {
        let start = self.pos;
        self.tag_start = start;
        let rest = &self.text[start + 1..];
        let name_len = rest
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(rest.len());
        let name = rest[..name_len].to_owned();
        if name.is_empty() {
            return Err(self.error("a '<' that starts no element".to_owned()));
        }
        self.pos = start + 1 + name_len;
        let mut attrs = Vec::new();
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            let rest = self.rest();
            if rest.starts_with("/>") {
                self.pos += 2;
                return Ok(Event::Start {
                    name,
                    attrs,
                    empty: true,
                });
            }
            if rest.starts_with('>') {
                self.pos += 1;
                return Ok(Event::Start {
                    name,
                    attrs,
                    empty: false,
                });
            }
            if rest.is_empty() {
                return Err(self.error(format!("the tag <{name}> is not closed")));
            }
            let Some(eq) = rest.find('=') else {
                return Err(self.error(format!("an attribute of <{name}> has no value")));
            };
            let key = rest[..eq].trim().to_owned();
            if key.is_empty() || key.contains(|c: char| c.is_whitespace() || c == '>' || c == '<') {
                return Err(self.error(format!("a malformed attribute in <{name}>")));
            }
            self.pos += eq + 1;
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            let rest = self.rest();
            let Some(q) = rest.chars().next().filter(|&c| c == '"' || c == '\'') else {
                return Err(self.error(format!("the attribute '{key}' of <{name}> is not quoted")));
            };
            let Some(close) = rest[1..].find(q) else {
                return Err(self.error(format!("the attribute '{key}' of <{name}> is not closed")));
            };
            let value = self.unescape(&rest[1..1 + close])?;
            self.pos += 1 + close + 1;
            attrs.push((key, value));
        }
    }

    fn unescape(&self, raw: &str) -> Result<String, RecordError> {
        if !raw.contains('&') {
            return Ok(raw.to_owned());
        }
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            let r = &rest[i + 1..];
            let Some(semi) = r.find(';').filter(|&n| n <= 10) else {
                return Err(self.error("an '&' that starts no entity".to_owned()));
            };
            let ent = &r[..semi];
            let c = match ent {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let code = if let Some(h) = ent.strip_prefix("#x").or(ent.strip_prefix("#X")) {
                        u32::from_str_radix(h, 16).ok()
                    } else if let Some(d) = ent.strip_prefix('#') {
                        d.parse().ok()
                    } else {
                        None
                    };
                    code.and_then(char::from_u32)
                }
            };
            let Some(c) = c else {
                return Err(self.error(format!("unknown entity '&{ent};'")));
            };
            out.push(c);
            rest = &r[semi + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}
