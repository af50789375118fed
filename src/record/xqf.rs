//! XQF (XQStudio 象棋演播室) binary game records, versions 10 to 18.
//!
//! Layout (see `notation/FORMATS.md` §8 of the shared reference): a 1,024-byte header holding the
//! magic `XQ`, the version, the encryption keys, a table of the 32 pieces' squares, the result,
//! the game type and Pascal strings in GBK (title, event, date, site, players, time rule,
//! commentator, author); then, from offset 0x400, the move tree.
//!
//! * Version 10 (XQF 1.0) is not encrypted; every record is `from, to, flags, reserved` followed by
//!   an `i32` comment length (0 = none). `flags & 0xF0` = a next move follows, `flags & 0x0F` = an
//!   alternative (sibling) follows.
//! * Versions 11 to 18 are encrypted: the piece squares are shifted by a key (and, from version 12,
//!   the 32-entry table is rotated), the move squares by two more keys, the whole body by a 32-byte
//!   running key, and the comment length by a constant. `flags & 0x80` = next, `0x40` = sibling,
//!   `0x20` = a comment follows.
//!
//! The first record is the root (the start position); it carries the game comment. The tree is
//! stored depth first: a move, then the subtree of its continuation, then its alternatives.
//! The side to move is the colour of the first moving piece (as XQStudio, xqbase and cchess
//! read it); the "who plays" byte is used only for a record without moves.
//!
//! Every move, in the main line and in every variation, is checked against the position;
//! the first illegal one is an error naming its ply, its ICCS text and the reason.

use super::error::kind;
use super::{
    Format, Game, GameEntry, GameResult, Line, MoveNode, RecordError, SourcePos, TextEncoding,
};
use crate::position::Position;
use crate::setup::Setup;
use crate::types::{Color, Move, Piece, Role, Square};

/// The newest version readers accept (XQStudio 1.8).
pub const MAX_VERSION: u8 = 18;
/// The oldest version with the documented layout (XQF 1.0).
pub const MIN_VERSION: u8 = 10;

const HEADER_LEN: usize = 0x400;
const KEY_STRING: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// Piece roles of the 16 entries of each side's part of the piece table (also the order of
/// DhtmlXQ's `binit`).
pub(crate) const TABLE_ROLES: [Role; 16] = [
    Role::Rook,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::King,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Rook,
    Role::Cannon,
    Role::Cannon,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];

/// Header strings: (tag name, offset of the length byte, room for the text).
const STRINGS: [(&str, usize, usize); 11] = [
    ("Title", 0x50, 127),
    ("Event", 0xD0, 63),
    ("Date", 0x110, 15),
    ("Site", 0x120, 15),
    ("Red", 0x130, 15),
    ("Black", 0x140, 15),
    ("TimeControl", 0x150, 63),
    ("RedTime", 0x190, 15),
    ("BlackTime", 0x1A0, 15),
    ("Annotator", 0x1D0, 15),
    ("Author", 0x1E0, 15),
];

/// Whether the bytes look like an XQF file (magic `XQ`).
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(b"XQ")
}

/// Reads one XQF game.
///
/// Tags, in this order: `Title`, `Event`, `Date`, `Red`, `Black`, `Result` (always present, maybe
/// empty), then those of `Site`, `TimeControl`, `RedTime`, `BlackTime`, `Annotator`, `Author` that
/// are not empty, then `XqfType` (0 full game, 1 opening, 2 middlegame, 3 endgame). The move text of
/// every [`MoveNode`] is the ICCS of the move and its `pos.column` the byte offset of its record.
///
/// An illegal move on the main line is an error. One inside a variation cuts that variation there
/// (noted in a comment on the move before it; [`read_entry`] also lists these as warnings).
pub fn read(bytes: &[u8]) -> Result<Game, RecordError> {
    read_entry(bytes, "").into_result()
}

/// Reads one XQF game as a [`GameEntry`] of `source`: on an illegal main-line move the entry holds
/// the game up to that move and the error; variations cut at an illegal move are listed in
/// `warnings` (kind `illegal_move`).
pub fn read_entry(bytes: &[u8], source: &str) -> GameEntry {
    match parse(bytes) {
        Ok(p) => {
            let mut entry = GameEntry::ok(source, 0, Format::Xqf, p.game);
            entry.encoding = Some(TextEncoding::Gbk);
            entry.error = p.error.map(|e| e.in_source(source));
            entry.warnings = p
                .warnings
                .into_iter()
                .map(|e| e.in_source(source))
                .collect();
            entry
        }
        Err(e) => GameEntry::failed(source, 0, Format::Xqf, e),
    }
}

/// A game read from a binary record: the game (up to `error` if set) and its problems.
pub(crate) struct Parsed {
    pub game: Game,
    pub error: Option<RecordError>,
    pub warnings: Vec<RecordError>,
}

fn parse(bytes: &[u8]) -> Result<Parsed, RecordError> {
    if bytes.len() < 2 || !sniff(bytes) {
        return Err(
            RecordError::new(kind::BAD_HEADER, "not an XQF file (no 'XQ' magic)").at_offset(0),
        );
    }
    if bytes.len() < HEADER_LEN {
        return Err(RecordError::new(
            kind::TRUNCATED,
            format!(
                "the XQF header is {} bytes long, the file only {}",
                HEADER_LEN,
                bytes.len()
            ),
        )
        .at_offset(bytes.len() as u64));
    }
    let version = bytes[2];
    if !(MIN_VERSION..=MAX_VERSION).contains(&version) {
        return Err(RecordError::new(
            kind::BAD_HEADER,
            format!("unsupported XQF version {version} (readable: {MIN_VERSION} to {MAX_VERSION})"),
        )
        .at_offset(2));
    }
    let keys = Keys::new(bytes, version);

    // Tags.
    let mut tags: Vec<(String, String)> = Vec::new();
    let text = |i: usize| header_string(bytes, STRINGS[i].1, STRINGS[i].2);
    let result_byte = bytes[0x33];
    let result = match result_byte {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 | 4 => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    for i in [0, 1, 2] {
        tags.push((STRINGS[i].0.to_owned(), text(i)));
    }
    tags.push(("Red".to_owned(), text(4)));
    tags.push(("Black".to_owned(), text(5)));
    tags.push(("Result".to_owned(), result.token().to_owned()));
    for i in [3, 6, 7, 8, 9, 10] {
        let t = text(i);
        if !t.is_empty() {
            tags.push((STRINGS[i].0.to_owned(), t));
        }
    }
    tags.push(("XqfType".to_owned(), bytes[0x40].to_string()));

    // Piece table.
    let mut setup = Setup::empty();
    for i in 0..32 {
        let (slot, raw) = if keys.encrypted() {
            let slot = if version >= 12 {
                (usize::from(keys.xy) + 1 + i) % 32
            } else {
                i
            };
            (slot, bytes[0x10 + i].wrapping_sub(keys.xy))
        } else {
            (i, bytes[0x10 + i])
        };
        if raw >= 90 {
            continue;
        }
        let color = if slot < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, TABLE_ROLES[slot % 16]);
        let sq = xqf_square(raw).ok_or_else(|| {
            RecordError::new(
                kind::BAD_POSITION,
                format!("piece table entry {i} holds the impossible square code {raw}"),
            )
            .at_offset(0x10 + i as u64)
        })?;
        if let Some(other) = setup.piece_at(sq) {
            return Err(RecordError::new(
                kind::BAD_POSITION,
                format!(
                    "the piece table puts a {} {} and a {} {} both on {sq}",
                    piece.color, piece.role, other.color, other.role
                ),
            )
            .at_offset(0x10 + i as u64));
        }
        setup.set(sq, Some(piece));
    }
    let who_plays = if bytes[0x32] == 1 {
        Color::Black
    } else {
        Color::Red
    };

    // Move stream.
    let body = decrypt_body(bytes, &keys);
    let mut reader = BodyReader {
        body: &body,
        pos: 0,
        version,
        keys: &keys,
    };
    let root = reader.record()?;
    let mut records = Vec::new();
    if root.has_next {
        let mut outstanding = 1usize;
        while outstanding > 0 {
            let rec = reader.record()?;
            outstanding -= 1;
            outstanding += usize::from(rec.has_next) + usize::from(rec.has_sibling);
            records.push(rec.into_raw());
        }
    }

    assemble(
        &setup,
        Loc::Byte(0x10),
        who_plays,
        tags,
        Some(result),
        root.comment,
        records,
    )
}

/// Builds a game from the parts of a binary record: placement (the side to move is the colour of
/// the first moving piece, `side` when there is none), tags, result, game comment and the
/// depth-first move records (`setup_at`: where the placement is stored). A start position that is not legal is an error of the game, which
/// still carries the tags and the game comment (on the standard start, as a placeholder).
pub(crate) fn assemble(
    setup: &Setup,
    setup_at: Loc,
    side: Color,
    tags: Vec<(String, String)>,
    result: Option<GameResult>,
    game_comment: Option<String>,
    records: Vec<RawMove>,
) -> Result<Parsed, RecordError> {
    let (start, error) = match start_position(setup, records.first(), side) {
        Ok(p) => (p, None),
        Err(e) => (Position::start(), Some(setup_at.locate(e))),
    };
    let mut game = Game::new(start);
    game.tags = tags;
    game.result = result;
    game.main.comments_before.extend(game_comment);
    if error.is_some() {
        return Ok(Parsed {
            game,
            error,
            warnings: Vec::new(),
        });
    }
    let tree = build_line(&start, records)?;
    game.main.nodes = tree.line.nodes;
    game.main.comments_before.extend(tree.notes_before);
    Ok(Parsed {
        game,
        error: tree.error,
        warnings: tree.warnings,
    })
}

/// The decoded keys of an encrypted file (all zero for version 10).
struct Keys {
    version: u8,
    xy: u8,
    xyf: u8,
    xyt: u8,
    remark: u32,
    f32: [u8; 32],
}

impl Keys {
    fn new(h: &[u8], version: u8) -> Keys {
        if version <= 10 {
            return Keys {
                version,
                xy: 0,
                xyf: 0,
                xyt: 0,
                remark: 0,
                f32: [0; 32],
            };
        }
        let f = |b: u8| -> u8 {
            let b = u32::from(b);
            ((54 * b * b + 221) & 0xFF) as u8
        };
        let (mask, sum, kxy, kxyf, kxyt) = (h[3], h[0x0C], h[0x0D], h[0x0E], h[0x0F]);
        let xy = f(kxy).wrapping_mul(kxy);
        let xyf = f(kxyf).wrapping_mul(xy);
        let xyt = f(kxyt).wrapping_mul(xyf);
        let remark = (u32::from(sum) * 256 + u32::from(kxy)) % 32000 + 767;
        let k = [
            (sum & mask) | h[8],
            (kxy & mask) | h[9],
            (kxyf & mask) | h[10],
            (kxyt & mask) | h[11],
        ];
        let mut f32 = [0u8; 32];
        for (j, v) in f32.iter_mut().enumerate() {
            *v = KEY_STRING[j] & k[j % 4];
        }
        Keys {
            version,
            xy,
            xyf,
            xyt,
            remark,
            f32,
        }
    }

    fn encrypted(&self) -> bool {
        self.version > 10
    }
}

fn decrypt_body(bytes: &[u8], keys: &Keys) -> Vec<u8> {
    let body = &bytes[HEADER_LEN..];
    if !keys.encrypted() {
        return body.to_vec();
    }
    body.iter()
        .enumerate()
        .map(|(n, b)| b.wrapping_sub(keys.f32[(HEADER_LEN + n) % 32]))
        .collect()
}

/// A GBK Pascal string of the header, cut to its room; NULs dropped, outer blanks kept.
fn header_string(bytes: &[u8], at: usize, room: usize) -> String {
    let len = usize::from(bytes[at]).min(room);
    let raw = &bytes[at + 1..at + 1 + len];
    let raw = match raw.iter().position(|&b| b == 0) {
        Some(n) => &raw[..n],
        None => raw,
    };
    decode_gbk(raw)
}

/// Decodes GBK / GB18030 text (malformed bytes become U+FFFD).
pub(crate) fn decode_gbk(raw: &[u8]) -> String {
    let (text, _, _) = encoding_rs::GB18030.decode(raw);
    text.into_owned()
}

/// An XQF square code `x*10 + y` (x from the left, y from the bottom) as a square.
fn xqf_square(code: u8) -> Option<Square> {
    if code >= 90 {
        return None;
    }
    Square::from_xy(i32::from(code / 10), i32::from(code % 10))
}

/// One record of the body as stored.
struct XqfRecord {
    offset: usize,
    from: u8,
    to: u8,
    has_next: bool,
    has_sibling: bool,
    comment: Option<String>,
}

impl XqfRecord {
    fn into_raw(self) -> RawMove {
        let mut raw = RawMove {
            at: Loc::Byte(self.offset),
            mv: Move::new(Square::A0, Square::A0),
            has_next: self.has_next,
            has_sibling: self.has_sibling,
            comment: self.comment,
            off_board: None,
        };
        match (xqf_square(self.from), xqf_square(self.to)) {
            (Some(from), Some(to)) => raw.mv = Move::new(from, to),
            _ => {
                raw.off_board = Some(format!(
                    "{}-{} (XQF square codes {} and {}; x*10+y must stay below 90)",
                    self.from, self.to, self.from, self.to
                ))
            }
        }
        raw
    }
}

struct BodyReader<'a> {
    body: &'a [u8],
    pos: usize,
    version: u8,
    keys: &'a Keys,
}

impl BodyReader<'_> {
    fn file_offset(&self, at: usize) -> u64 {
        (HEADER_LEN + at) as u64
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], RecordError> {
        if self.body.len() - self.pos < n {
            return Err(RecordError::new(
                kind::TRUNCATED,
                format!("the file ends inside {what}: the move tree is incomplete"),
            )
            .at_offset(self.file_offset(self.body.len())));
        }
        let s = &self.body[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn record(&mut self) -> Result<XqfRecord, RecordError> {
        let offset = HEADER_LEN + self.pos;
        let r = self.take(4, "a move record")?;
        let (raw_from, raw_to, flags) = (r[0], r[1], r[2]);
        let (has_next, has_sibling, comment_len) = if self.version <= 10 {
            let len = self.i32("a comment length")?;
            (flags & 0xF0 != 0, flags & 0x0F != 0, i64::from(len))
        } else {
            let len = if flags & 0x20 != 0 {
                i64::from(self.i32("a comment length")?) - i64::from(self.keys.remark)
            } else {
                0
            };
            (flags & 0x80 != 0, flags & 0x40 != 0, len)
        };
        if comment_len < 0 || comment_len as u64 > (self.body.len() - self.pos) as u64 {
            return Err(RecordError::new(
                kind::TRUNCATED,
                format!(
                    "comment length {comment_len} of the record at {offset:#x} runs past the end \
                     of the file ({} bytes left)",
                    self.body.len() - self.pos
                ),
            )
            .at_offset(offset as u64));
        }
        let text = self.take(comment_len as usize, "a comment")?;
        let comment = if text.is_empty() {
            None
        } else {
            Some(decode_gbk(text))
        };
        Ok(XqfRecord {
            offset,
            from: raw_from.wrapping_sub(0x18).wrapping_sub(self.keys.xyf),
            to: raw_to.wrapping_sub(0x20).wrapping_sub(self.keys.xyt),
            has_next,
            has_sibling,
            comment,
        })
    }

    fn i32(&mut self, what: &str) -> Result<i32, RecordError> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

// ------------------------------------------------------------------------------------------------
// Shared with the CCBridge reader: depth-first move streams and the reasons a move is illegal.
// ------------------------------------------------------------------------------------------------

/// One move of a depth-first binary move stream (XQF, CBR): the move, whether its continuation
/// follows (`has_next`), whether an alternative to it follows after that (`has_sibling`), and the
/// comment after it.
#[derive(Clone, Debug)]
pub(crate) struct RawMove {
    /// Where the record is in the file.
    pub at: Loc,
    pub mv: Move,
    pub has_next: bool,
    pub has_sibling: bool,
    pub comment: Option<String>,
    /// Set when the record's squares are not on the board (then `mv` means nothing): the
    /// squares as stored, for the error.
    pub off_board: Option<String>,
}

impl RawMove {
    /// The move as the error reports it: ICCS, or the stored squares when off the board.
    fn text(&self) -> String {
        match &self.off_board {
            Some(t) => t.clone(),
            None => self.mv.to_string(),
        }
    }

    /// Why the move cannot be played in `before`, if it cannot.
    fn problem(&self, before: &Position) -> Option<String> {
        if self.off_board.is_some() {
            return Some("its squares are off the board".to_owned());
        }
        (!before.is_legal(self.mv)).then(|| explain_illegal(before, self.mv))
    }
}

/// Where a move record is: a byte offset (binary files) or a line and column (XML).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    Byte(usize),
    Text { line: u64, column: u32 },
}

impl Loc {
    /// As a [`SourcePos`]: line and column for text; line 0 and the byte offset as the column
    /// for binary files.
    pub fn source_pos(self) -> SourcePos {
        match self {
            Loc::Byte(o) => SourcePos {
                line: 0,
                column: u32::try_from(o).unwrap_or(u32::MAX),
            },
            Loc::Text { line, column } => SourcePos { line, column },
        }
    }

    /// Puts this location on an error.
    pub fn locate(self, e: RecordError) -> RecordError {
        match self {
            Loc::Byte(o) => e.at_offset(o as u64),
            Loc::Text { line, column } => e.at(line, column),
        }
    }
}

/// The start position from a piece placement: the side to move is the colour of the first moving
/// piece (`fallback` when there is no move or no piece on its square), then the placement must be
/// a legal position.
fn start_position(
    setup: &Setup,
    first: Option<&RawMove>,
    fallback: Color,
) -> Result<Position, RecordError> {
    let mut setup = setup.clone();
    setup.turn = first
        .and_then(|r| setup.piece_at(r.mv.from))
        .map_or(fallback, |p| p.color);
    if setup.board.iter().all(Option::is_none) {
        let mut e = RecordError::new(
            kind::BAD_POSITION,
            "the start position is an empty board".to_owned(),
        );
        if first.is_none() {
            e = RecordError::new(
                kind::NO_MOVES,
                "the record has an empty board and no moves (a title or section heading, not a game)",
            );
        }
        return Err(e);
    }
    Position::from_setup(setup).map_err(|e| {
        RecordError::new(
            kind::BAD_POSITION,
            format!("the start position {} is not legal: {e}", e.setup.fen()),
        )
    })
}

/// Deepest nesting of variations kept (real records stay far below; the limit keeps every
/// recursive walk over the tree, including dropping it, safe from crafted files).
pub(crate) const MAX_NESTING: usize = 500;

/// The move tree read from a binary stream, with the problems found in its variations.
pub(crate) struct Tree {
    pub line: Line,
    /// Comments to put before the first move (broken variations that branch at the start).
    pub notes_before: Vec<String>,
    /// One error per variation cut at an illegal move (the game itself is still valid).
    pub warnings: Vec<RecordError>,
    /// The illegal move of the main line, if any: `line` then holds the moves before it.
    pub error: Option<RecordError>,
}

/// Builds the move tree of a depth-first stream, checking every move.
///
/// Stream order: a move, then (when `has_next`) the subtree of its continuation, then (when
/// `has_sibling`) its next alternative. `records` must hold exactly the records of the stream.
///
/// An illegal move on the main line is an error. An illegal move inside a variation cuts that
/// variation there: the move and everything that continues from it are dropped (its
/// alternatives are kept), a comment on the move before it lists what was dropped and why, and
/// the problem is returned in [`Tree::warnings`].
pub(crate) fn build_line(start: &Position, records: Vec<RawMove>) -> Result<Tree, RecordError> {
    // `Err` only for a stream whose structure is broken; an illegal move is in `Tree::error`.
    struct Node {
        raw: RawMove,
        after: Position,
        ply: usize,
        /// How deep in variations (0 = the main line).
        level: usize,
        main: bool,
        /// First of its chain of alternatives (the continuation of its parent).
        head: bool,
        /// The illegal move this node was dropped with (itself or an ancestor).
        dead: Option<usize>,
        first_child: Option<usize>,
        next_sibling: Option<usize>,
        notes: Vec<String>,
    }
    enum Slot {
        /// The next record is the first move after this node (`None` = the root).
        ChildOf(Option<usize>),
        /// The next record is an alternative to this node.
        SiblingOf(usize),
    }
    let mut nodes: Vec<Node> = Vec::with_capacity(records.len());
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(records.len());
    let mut pending: Vec<usize> = Vec::new();
    let mut slot = Slot::ChildOf(None);
    let mut root_first = None;
    let mut killers: Vec<(usize, String)> = Vec::new();
    let mut warnings = Vec::new();
    let mut error = None;
    let count = records.len();
    for (i, raw) in records.into_iter().enumerate() {
        let (parent, main, head) = match slot {
            Slot::ChildOf(p) => (p, p.is_none_or(|p| nodes[p].main), true),
            Slot::SiblingOf(s) => (parents[s], false, false),
        };
        let before = parent.map_or(*start, |p| nodes[p].after);
        let ply = parent.map_or(0, |p| nodes[p].ply) + 1;
        let level = parent.map_or(0, |p| nodes[p].level) + usize::from(!head);
        let mut dead = parent.and_then(|p| nodes[p].dead);
        let problem = if dead.is_some() {
            None
        } else if level > MAX_NESTING {
            Some(format!(
                "variations are nested more than {MAX_NESTING} deep here"
            ))
        } else {
            raw.problem(&before)
        };
        if let Some(why) = problem {
            let text = raw.text();
            let err = RecordError::new(kind::ILLEGAL_MOVE, format!("illegal move {text}: {why}"))
                .at_move(ply, text.clone());
            let err = raw.at.locate(err);
            if main {
                error = Some(err);
                break;
            }
            let mut w = err;
            w.message = format!("variation cut at an illegal move {text}: {why}");
            warnings.push(w);
            killers.push((i, why));
            dead = Some(i);
        }
        let after = if dead.is_some() {
            before
        } else {
            before.after(raw.mv)
        };
        match slot {
            Slot::ChildOf(Some(p)) => nodes[p].first_child = Some(i),
            Slot::ChildOf(None) => root_first = Some(i),
            Slot::SiblingOf(s) => nodes[s].next_sibling = Some(i),
        }
        let (has_next, has_sibling) = (raw.has_next, raw.has_sibling);
        nodes.push(Node {
            raw,
            after,
            ply,
            level,
            main,
            head,
            dead,
            first_child: None,
            next_sibling: None,
            notes: Vec::new(),
        });
        parents.push(parent);
        slot = if has_next {
            if has_sibling {
                pending.push(i);
            }
            Slot::ChildOf(Some(i))
        } else if has_sibling {
            Slot::SiblingOf(i)
        } else if let Some(s) = pending.pop() {
            Slot::SiblingOf(s)
        } else {
            if i + 1 != count {
                return Err(nodes[i].raw.at.locate(RecordError::new(
                    kind::RECORD_SYNTAX,
                    "move records follow the end of the move tree".to_owned(),
                )));
            }
            break;
        };
    }

    // A note on the move before each cut, listing the dropped moves in stream order.
    let mut notes_before = Vec::new();
    for (k, why) in killers {
        let dropped: Vec<String> = nodes
            .iter()
            .filter(|n| n.dead == Some(k))
            .map(|n| n.raw.text())
            .collect();
        let note = format!(
            "[xqa] a variation was cut at ply {}: {} is illegal ({why}); dropped moves: {}",
            nodes[k].ply,
            nodes[k].raw.text(),
            dropped.join(" ")
        );
        match parents[k] {
            Some(p) => nodes[p].notes.push(note),
            None => notes_before.push(note),
        }
    }

    // Pre-order numbering puts every node's continuation and alternatives after it, so building
    // from the back finds every part finished. Lines grow at the front, so they are kept
    // reversed (first move last) until complete.
    let mut lines: Vec<Option<Vec<MoveNode>>> = (0..nodes.len()).map(|_| None).collect();
    for i in (0..nodes.len()).rev() {
        let own = if nodes[i].dead.is_some() {
            None
        } else {
            let mut line = match nodes[i].first_child {
                Some(c) => lines[c].take().unwrap_or_default(),
                None => Vec::new(),
            };
            let n = &mut nodes[i];
            let mut node = MoveNode::new(n.raw.mv, n.raw.mv.to_string(), n.raw.at.source_pos());
            node.comments.extend(n.raw.comment.take());
            node.comments.append(&mut n.notes);
            line.push(node);
            Some(line)
        };
        if !nodes[i].head {
            lines[i] = own;
            continue;
        }
        // The head of a chain of alternatives: the first live one carries the others.
        let mut live: Vec<Vec<MoveNode>> = own.into_iter().collect();
        let mut s = nodes[i].next_sibling;
        while let Some(k) = s {
            live.extend(lines[k].take());
            s = nodes[k].next_sibling;
        }
        let mut live = live.into_iter();
        lines[i] = live.next().map(|mut first| {
            if let Some(head) = first.last_mut() {
                for mut alt in live {
                    alt.reverse();
                    head.variations.push(Line {
                        comments_before: Vec::new(),
                        nodes: alt,
                    });
                }
            }
            first
        });
    }
    let mut main = root_first.and_then(|r| lines[r].take()).unwrap_or_default();
    main.reverse();
    Ok(Tree {
        line: Line {
            comments_before: Vec::new(),
            nodes: main,
        },
        notes_before,
        warnings,
        error,
    })
}

/// Why a move that is not legal in `pos` is not: no piece, wrong side, how the piece moves, or
/// what the move would leave (own king in check, kings facing).
pub(crate) fn explain_illegal(pos: &Position, m: Move) -> String {
    let (from, to) = (m.from, m.to);
    let Some(piece) = pos.piece_at(from) else {
        return format!("there is no piece on {from}");
    };
    let turn = pos.turn();
    let name = |p: Piece| format!("{} {}", p.color, p.role);
    if piece.color != turn {
        return format!(
            "{from} holds a {} but it is {turn}'s turn to move",
            name(piece)
        );
    }
    if from == to {
        return format!("the {} on {from} does not move", name(piece));
    }
    if let Some(target) = pos.piece_at(to)
        && target.color == turn
    {
        return format!("{to} is occupied by {turn}'s own {}", target.role);
    }
    if !pos.pseudo_legal_moves().contains(&m) {
        return format!(
            "the {} on {from} cannot move to {to}: {}",
            name(piece),
            movement_reason(pos, piece, m)
        );
    }
    let mut after = *pos;
    after.play_unchecked(m);
    let (rk, bk) = (after.king(Color::Red), after.king(Color::Black));
    if rk.file() == bk.file() && between(rk, bk).iter().all(|s| after.piece_at(*s).is_none()) {
        return format!(
            "the kings would face each other on file {}",
            rk.file().char()
        );
    }
    let king = after.king(turn);
    let attackers: Vec<String> = after
        .attackers(king, !turn)
        .map(|s| {
            let p = after
                .piece_at(s)
                .map_or(String::new(), |p| format!("{} on ", p.role));
            format!("{p}{s}")
        })
        .collect();
    format!(
        "it leaves the {turn} king on {king} in check (from {})",
        attackers.join(", ")
    )
}

/// The squares strictly between two squares on one rank or file.
fn between(a: Square, b: Square) -> Vec<Square> {
    let (af, ar) = (i32::from(a.file().index()), i32::from(a.rank().index()));
    let (bf, br) = (i32::from(b.file().index()), i32::from(b.rank().index()));
    let (df, dr) = ((bf - af).signum(), (br - ar).signum());
    let mut out = Vec::new();
    if af != bf && ar != br {
        return out;
    }
    let (mut f, mut r) = (af + df, ar + dr);
    while (f, r) != (bf, br) {
        if let Some(s) = Square::from_xy(f, r) {
            out.push(s);
        }
        f += df;
        r += dr;
    }
    out
}

/// How the piece moves, for a move it cannot make (the target is not an own piece).
fn movement_reason(pos: &Position, piece: Piece, m: Move) -> String {
    let (from, to) = (m.from, m.to);
    let (ff, fr) = (
        i32::from(from.file().index()),
        i32::from(from.rank().index()),
    );
    let (tf, tr) = (i32::from(to.file().index()), i32::from(to.rank().index()));
    let (df, dr) = (tf - ff, tr - fr);
    let (adf, adr) = (df.abs(), dr.abs());
    let color = piece.color;
    let forward = if color == Color::Red { 1 } else { -1 };
    match piece.role {
        Role::King => {
            if !to.in_palace(color) {
                "the king cannot leave the palace".to_owned()
            } else {
                "the king moves one point along a rank or file".to_owned()
            }
        }
        Role::Advisor => {
            if !to.in_palace(color) {
                "the advisor cannot leave the palace".to_owned()
            } else {
                "the advisor moves one point diagonally".to_owned()
            }
        }
        Role::Elephant => {
            if !to.on_own_side(color) {
                "the elephant cannot cross the river".to_owned()
            } else if adf != 2 || adr != 2 {
                "the elephant moves exactly two points diagonally".to_owned()
            } else {
                let eye = Square::from_xy(ff + df / 2, fr + dr / 2);
                match eye {
                    Some(e) if pos.piece_at(e).is_some() => {
                        format!("the elephant's eye on {e} is blocked")
                    }
                    _ => "the elephant cannot move so".to_owned(),
                }
            }
        }
        Role::Horse => {
            if !((adf == 1 && adr == 2) || (adf == 2 && adr == 1)) {
                "the horse moves one point straight then one diagonally".to_owned()
            } else {
                let leg = if adf == 2 {
                    Square::from_xy(ff + df / 2, fr)
                } else {
                    Square::from_xy(ff, fr + dr / 2)
                };
                match leg {
                    Some(l) if pos.piece_at(l).is_some() => {
                        format!("the horse's leg on {l} is blocked")
                    }
                    _ => "the horse cannot move so".to_owned(),
                }
            }
        }
        Role::Rook | Role::Cannon => {
            if df != 0 && dr != 0 {
                return format!("the {} moves along a rank or file", piece.role);
            }
            let screens: Vec<Square> = between(from, to)
                .into_iter()
                .filter(|s| pos.piece_at(*s).is_some())
                .collect();
            let capture = pos.piece_at(to).is_some();
            if piece.role == Role::Cannon && capture {
                format!(
                    "a cannon captures by jumping exactly one piece, here {} stand between",
                    screens.len()
                )
            } else {
                match screens.first() {
                    Some(s) => format!("the path is blocked on {s}"),
                    None => format!("the {} cannot move so", piece.role),
                }
            }
        }
        Role::Pawn => {
            if dr * forward < 0 {
                "a pawn cannot move backward".to_owned()
            } else if dr == 0 && from.on_own_side(color) {
                "a pawn cannot move sideways before crossing the river".to_owned()
            } else {
                "a pawn moves one point forward (or sideways after crossing the river)".to_owned()
            }
        }
    }
}
