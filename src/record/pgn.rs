//! PGN for Xiangqi (the xqbase dialect and what real files do with it): reader and writer.
//!
//! Reading is split in two so that a multi-gigabyte file streams with bounded memory and games
//! can be checked in parallel:
//! * [`PgnSplitter`] reads any [`BufRead`] line by line, decodes it (UTF-8 with or without BOM,
//!   GBK/GB18030, Big5; detected) and cuts it into the text of one game at a time ([`RawGame`]).
//!   A game starts at a tag line that follows movetext; memory is bounded by the largest game.
//! * [`parse_game`] reads the tags and the movetext of one game and replays every move.
//!
//! [`PgnReader`] combines the two into an iterator of [`GameEntry`]s; [`read_str`] reads a
//! string. A game with an error does not stop the reader: it continues with the next game.
//!
//! Movetext: move numbers (`1.`, `1...`, `1. ...`, the xqbase `  3.          马８进７` and numbers
//! glued to the move `1.炮二平五`), moves written with no space between them (`炮二平五马８进７`,
//! `Ｃ２＝５Ｈ８＋７`), `{}` and `;` comments, nested `()` variations, NAGs `$n` and the suffixes
//! `! ? !! ?? !? ?!`, result tokens, and any text after the result (kept as `trailing_text`).
//! The notation comes from the `Format` tag (`Chinese`, `WXF`, `ICCS`) or, when it is missing
//! or unknown, is sniffed from the first move.
//!
//! Tags: `[Name "value"]`, several per line allowed, names kept as written and in order,
//! `\"` and `\\` escapes, and quotes left unescaped inside a value (`[Event "the "A" cup"]`).
//!
//! Writing ([`write_game`]) uses `N. red black` numbering with `N. ...` before a Black move that
//! starts a line or follows a comment or variation, sets the `Format` tag to the notation used
//! and the `FEN` tag when the start is not the standard one, and writes comments, NAGs,
//! variations, the result and the trailing text, so that reading the output gives back the game.

use super::encoding::{self, TextEncoding};
use super::error::{RecordError, kind};
use super::game::{Format, Game, GameEntry, GameResult, Line, SourcePos};
use super::movetext::{self, MovePlayer};
use super::notation::{self, Notation};
use super::pgn_layout::{
    self, ends_with_result, is_blank, is_full_tag_line, is_space, is_tag_line, starts_first_move,
};
use crate::position::Position;
use crate::types::Color;
use nom::branch::alt;
use nom::bytes::complete::{take_till, take_until, take_while};
use nom::character::complete::char;
use nom::combinator::{cut, eof, map, peek, value};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser as _};
use std::borrow::Cow;
use std::io::{self, BufRead};

/// Deepest variation nesting accepted: the one limit of every reader and writer
/// ([`super::limits::MAX_NESTING`]).
pub const MAX_VARIATION_DEPTH: usize = super::limits::MAX_NESTING;

/// The text of one game cut from a PGN stream, already decoded.
#[derive(Clone, Debug)]
pub struct RawGame {
    /// 0-based index of the game in its source.
    pub index: usize,
    /// 1-based line number of the game's first line in the source.
    pub first_line: u64,
    /// The encoding the bytes were decoded from (chosen for this game alone).
    pub encoding: TextEncoding,
    /// Whether some bytes were invalid in that encoding (replaced by U+FFFD).
    pub lossy: bool,
    pub text: String,
    /// Remarks on the text: where undecodable bytes were replaced (kind `encoding`, with line and
    /// byte offset).
    pub warnings: Vec<RecordError>,
    /// Set when the game could not be cut whole (it is over [`super::limits::Limits`]): `text` is
    /// then empty, and the splitter goes on with the next game.
    pub error: Option<RecordError>,
}

/// A line read ahead that starts the next game: its bytes, line number and byte offset.
struct Pending {
    bytes: Vec<u8>,
    line_no: u64,
    offset: u64,
}

/// The state of the game being cut.
#[derive(Default)]
struct Cut {
    /// The game's bytes, lines joined by `\n` (line ends and a BOM removed).
    raw: Vec<u8>,
    /// (byte in `raw`, line number, byte offset in the source) of each line start.
    lines: Vec<(usize, u64, u64)>,
    first_line: u64,
    seen_moves: bool,
    in_comment: bool,
    prev_blank: bool,
    /// The last line with moves ended with a result token (a bare game may follow).
    ended: bool,
    /// Non-ASCII bytes in lines that are valid UTF-8, and in lines that are not.
    valid_non_ascii: usize,
    invalid_non_ascii: usize,
    /// The game's text decoded line by line in the stream's legacy encoding, as found for the
    /// structure (from the first line that is not UTF-8 on): when the game is read in that
    /// encoding, this is its text, decoded once. `None` until such a line, and for good once a
    /// line makes it unusable (`legacy_text_spoilt`: bytes invalid in the legacy encoding, or a
    /// valid UTF-8 line that is not ASCII, which would read differently).
    legacy_text: Option<String>,
    legacy_text_spoilt: bool,
}

/// What one line did to the game being cut.
enum Step {
    /// The line belongs to the game.
    More,
    /// The game ended (end of input, or the line starts the next game and is kept as pending).
    End,
    /// The game is over the byte cap.
    Oversized,
}

/// Most undecodable-byte warnings given for one game (the last one counts the rest).
const MAX_ENCODING_WARNINGS: usize = 8;

/// Cuts a PGN byte stream into games. See the module documentation.
///
/// Memory is bounded by [`super::limits::Limits::max_game_bytes`]: a longer game (or line) is
/// returned as a [`RawGame`] with an error as soon as the cap is reached, and the splitter then
/// skips to the start of the next game.
pub struct PgnSplitter<R: BufRead> {
    reader: R,
    /// The legacy encoding used to find the structure of lines that are not UTF-8.
    legacy: Option<TextEncoding>,
    line_no: u64,
    /// Byte offset of the next line, and of the line last read.
    offset: u64,
    line_start: u64,
    index: usize,
    buf: Vec<u8>,
    /// A line already read that starts the next game.
    pending: Option<Pending>,
    /// The state of a game over the cap, whose rest is skipped before the next game.
    skipping: Option<Cut>,
    max_bytes: usize,
    done: bool,
}

impl<R: BufRead> PgnSplitter<R> {
    pub fn new(reader: R) -> PgnSplitter<R> {
        PgnSplitter {
            reader,
            legacy: None,
            line_no: 0,
            offset: 0,
            line_start: 0,
            index: 0,
            buf: Vec::with_capacity(256),
            pending: None,
            skipping: None,
            max_bytes: super::limits::limits().max_game_bytes,
            done: false,
        }
    }

    /// The legacy encoding (GBK or Big5) seen in the stream so far, if any line was not UTF-8.
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.legacy
    }

    /// Reads the next line into `self.buf` (without its line end, at most `max_bytes` of it; the
    /// rest of a longer line is read and dropped). `None` at the end of input; `Some(true)` for a
    /// line that was cut.
    fn read_line(&mut self) -> io::Result<Option<bool>> {
        self.buf.clear();
        self.line_start = self.offset;
        // Up to the cap and one byte more (the line end, or the byte that says the line is
        // longer), found with `read_until`'s fast search.
        let room = self.max_bytes.saturating_add(1) as u64;
        let n = io::Read::take(&mut self.reader, room).read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.offset += n as u64;
        let mut cut = false;
        if n as u64 == room && self.buf.last() != Some(&b'\n') {
            // Longer than that: the rest of the line is read and dropped.
            let rest = self.reader.skip_until(b'\n')?;
            self.offset += rest as u64;
            cut = rest > 0;
        }
        self.line_no += 1;
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        if self.line_no == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
            self.line_start += 3;
        }
        Ok(Some(cut || self.buf.len() > self.max_bytes))
    }

    /// The text of a line for finding the game structure (tags, comments, results): UTF-8 when
    /// valid, otherwise the stream's legacy encoding. Also whether it was valid UTF-8.
    /// The third value: whether bytes invalid in the legacy encoding were replaced.
    fn structure<'b>(
        legacy: &mut Option<TextEncoding>,
        bytes: &'b [u8],
    ) -> (Cow<'b, str>, bool, bool) {
        match std::str::from_utf8(bytes) {
            Ok(s) => (Cow::Borrowed(s), true, false),
            Err(_) => {
                let enc = *legacy.get_or_insert_with(|| match encoding::detect(bytes) {
                    TextEncoding::Utf8 => TextEncoding::Gbk,
                    e => e,
                });
                let (text, lossy) = encoding::decode(bytes, enc);
                (text, false, lossy)
            }
        }
    }

    /// Applies one line to the game being cut. `store`: keep its bytes (false while skipping the
    /// rest of a game over the cap).
    fn step(
        &mut self,
        cut: &mut Cut,
        bytes: &[u8],
        line_no: u64,
        offset: u64,
        store: bool,
    ) -> Step {
        let (line, valid, lossy) = Self::structure(&mut self.legacy, bytes);
        let trimmed = pgn_layout::trim_start(&line);
        let starts_next = |cut: &Cut| {
            // Resynchronise after a comment left open: a blank line followed by a complete tag
            // pair starts the next game (the open comment is reported in this one).
            (cut.in_comment && cut.prev_blank && cut.seen_moves && is_full_tag_line(trimmed))
                || (!cut.in_comment && is_tag_line(trimmed) && cut.seen_moves)
                // A game without tags after a finished one: `... 1-0` then `1. h2e2 ...`.
                || (!cut.in_comment && cut.ended && cut.seen_moves && starts_first_move(trimmed))
        };
        if starts_next(cut) {
            self.pending = Some(Pending {
                bytes: bytes.to_vec(),
                line_no,
                offset,
            });
            return Step::End;
        }
        cut.prev_blank = trimmed.is_empty();
        if !cut.in_comment && is_tag_line(trimmed) {
        } else if !cut.in_comment && trimmed.is_empty() {
            if cut.lines.is_empty() {
                cut.first_line = line_no + 1;
                return Step::More;
            }
        } else {
            if !cut.in_comment && !trimmed.starts_with('%') {
                cut.seen_moves = true;
            }
            cut.in_comment = scan_comment_state(trimmed, cut.in_comment);
            cut.ended = !cut.in_comment && ends_with_result(trimmed);
        }
        if cut.lines.is_empty() {
            cut.first_line = line_no;
        }
        if !store {
            // Keep a line start so that the game counts as started.
            if cut.lines.is_empty() {
                cut.lines.push((0, line_no, offset));
            }
            return Step::More;
        }
        if cut.raw.len() + bytes.len() + 1 > self.max_bytes {
            return Step::Oversized;
        }
        let non_ascii = bytes.iter().filter(|&&b| b >= 0x80).count();
        let bad = if valid {
            0
        } else {
            encoding::utf8_bad_bytes(bytes)
        };
        cut.valid_non_ascii += non_ascii - bad;
        cut.invalid_non_ascii += bad;
        keep_legacy_text(cut, bytes, &line, valid && non_ascii == 0, valid, lossy);
        cut.lines.push((cut.raw.len(), line_no, offset));
        cut.raw.extend_from_slice(bytes);
        cut.raw.push(b'\n');
        Step::More
    }

    /// The next game, or `None` at the end of the input.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        // The rest of a game over the cap.
        if let Some(mut cut) = self.skipping.take() {
            while !self.done && self.pending.is_none() {
                match self.read_line()? {
                    None => self.done = true,
                    Some(_) => {
                        let bytes = std::mem::take(&mut self.buf);
                        let (no, off) = (self.line_no, self.line_start);
                        let _ = self.step(&mut cut, &bytes, no, off, false);
                        self.buf = bytes;
                    }
                }
            }
        }
        if self.done && self.pending.is_none() {
            return Ok(None);
        }
        let mut cut = Cut {
            first_line: self.line_no + 1,
            ..Cut::default()
        };
        let mut over = false;
        if let Some(p) = self.pending.take() {
            match self.step(&mut cut, &p.bytes, p.line_no, p.offset, true) {
                Step::Oversized => over = true,
                Step::More | Step::End => {}
            }
        }
        while !over {
            let Some(long) = self.read_line()? else {
                self.done = true;
                break;
            };
            let bytes = std::mem::take(&mut self.buf);
            let (no, line_offset) = (self.line_no, self.line_start);
            let step = if long {
                // (Its structure still counts, so that the next game is found after it.)
                let _ = self.step(&mut cut, &bytes, no, line_offset, false);
                Step::Oversized
            } else {
                self.step(&mut cut, &bytes, no, line_offset, true)
            };
            self.buf = bytes;
            match step {
                Step::More => {}
                Step::End => break,
                Step::Oversized => over = true,
            }
        }
        if over {
            let index = self.index;
            self.index += 1;
            let error = super::limits::too_many_bytes(self.max_bytes).at(cut.first_line.max(1), 1);
            cut.raw = Vec::new();
            if cut.lines.is_empty() {
                cut.lines.push((0, self.line_no, self.offset));
            }
            // A game over the cap ends where the next one starts: skip to it on the next call.
            if !self.done {
                self.skipping = Some(cut);
            }
            return Ok(Some(RawGame {
                index,
                first_line: error.line,
                encoding: TextEncoding::Utf8,
                lossy: false,
                text: String::new(),
                warnings: Vec::new(),
                error: Some(error),
            }));
        }
        if cut.raw.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        Ok(Some(self.finish(cut)))
    }

    /// Decodes a game cut whole, in the encoding chosen for it.
    fn finish(&mut self, mut cut: Cut) -> RawGame {
        let enc = encoding::choose_for_game(&cut.raw, cut.valid_non_ascii, cut.invalid_non_ascii);
        let (text, bad) = match cut.legacy_text.take() {
            // (Decoding the lines one by one gives the text of the whole: a line decoded without
            // a replacement ends between two characters.)
            Some(t) if Some(enc) == self.legacy && !cut.legacy_text_spoilt => (t, Vec::new()),
            // Every line valid UTF-8: the bytes are the text.
            _ if enc == TextEncoding::Utf8 && cut.invalid_non_ascii == 0 => {
                match String::from_utf8(std::mem::take(&mut cut.raw)) {
                    Ok(t) => (t, Vec::new()),
                    Err(e) => {
                        cut.raw = e.into_bytes();
                        encoding::decode_reporting(&cut.raw, enc)
                    }
                }
            }
            _ => encoding::decode_reporting(&cut.raw, enc),
        };
        let mut warnings = Vec::new();
        for (n, &at) in bad.iter().enumerate() {
            let k = cut.lines.partition_point(|&(s, _, _)| s <= at).max(1) - 1;
            let (start, line_no, offset) = cut.lines[k];
            let column = encoding::decode(&cut.raw[start..at], enc).0.chars().count() as u32 + 1;
            let mut w = RecordError::new(
                kind::ENCODING,
                format!(
                    "bytes that are not valid {} replaced by U+FFFD (the game's text was read as {})",
                    enc.name(),
                    enc.name()
                ),
            )
            .at(line_no, column)
            .at_offset(offset + (at - start) as u64);
            if n + 1 == MAX_ENCODING_WARNINGS && bad.len() > MAX_ENCODING_WARNINGS {
                w.message = format!(
                    "{}; {} more places in this game",
                    w.message,
                    bad.len() - MAX_ENCODING_WARNINGS
                );
                warnings.push(w);
                break;
            }
            warnings.push(w);
        }
        let raw = RawGame {
            index: self.index,
            first_line: cut.first_line.max(1),
            encoding: enc,
            lossy: !bad.is_empty(),
            text,
            warnings,
            error: None,
        };
        self.index += 1;
        raw
    }
}

/// Adds a line stored in `cut` to its legacy text (see [`Cut::legacy_text`]): `line` is the text
/// of its `bytes` for the structure, `ascii` and `valid` say whether they are ASCII and valid
/// UTF-8, and `lossy` whether their legacy decoding replaced bytes.
fn keep_legacy_text(
    cut: &mut Cut,
    bytes: &[u8],
    line: &str,
    ascii: bool,
    valid: bool,
    lossy: bool,
) {
    if cut.legacy_text_spoilt {
        return;
    }
    // (A legacy line starting with a UTF-8 BOM lost it in the decoding: not its text in a whole.)
    if valid && !ascii || !valid && (lossy || bytes.starts_with(b"\xEF\xBB\xBF")) {
        cut.legacy_text = None;
        cut.legacy_text_spoilt = true;
        return;
    }
    if cut.legacy_text.is_none() {
        if valid {
            // (Not needed while every line is UTF-8.)
            return;
        }
        // The first line that is not UTF-8: the lines before it are ASCII, the same text in
        // every encoding.
        let mut t = String::with_capacity(cut.raw.len() * 2);
        t.push_str(std::str::from_utf8(&cut.raw).expect("ASCII lines"));
        cut.legacy_text = Some(t);
    }
    let t = cut.legacy_text.as_mut().expect("set above");
    t.push_str(line);
    t.push('\n');
}

/// Whether a `{` comment is still open at the end of this line.
fn scan_comment_state(line: &str, mut in_comment: bool) -> bool {
    for b in line.bytes() {
        match b {
            b'{' if !in_comment => in_comment = true,
            b'}' if in_comment => in_comment = false,
            b';' if !in_comment => return false,
            _ => {}
        }
    }
    in_comment
}

/// Streams the games of a PGN source. Errors in one game do not stop it.
pub struct PgnReader<R: BufRead> {
    splitter: PgnSplitter<R>,
    source: String,
    failed: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// `source` names the input in errors (a path, or `-`).
    pub fn new(reader: R, source: impl Into<String>) -> PgnReader<R> {
        PgnReader {
            splitter: PgnSplitter::new(reader),
            source: source.into(),
            failed: false,
        }
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = GameEntry;
    fn next(&mut self) -> Option<GameEntry> {
        if self.failed {
            return None;
        }
        match self.splitter.next_game() {
            Ok(Some(raw)) => Some(parse_raw(&raw, &self.source)),
            Ok(None) => None,
            Err(e) => {
                self.failed = true;
                let index = self.splitter.index;
                Some(GameEntry::failed(
                    &self.source,
                    index,
                    Format::Pgn,
                    RecordError::new(kind::IO, format!("read error: {e}"))
                        .at(self.splitter.line_no + 1, 1),
                ))
            }
        }
    }
}

/// Reads every game of a PGN text.
pub fn read_str(text: &str, source: &str) -> Vec<GameEntry> {
    PgnReader::new(text.as_bytes(), source).collect()
}

/// Parses one game cut by the splitter.
///
/// An error that the choice of text encoding may have caused (the game was read as GBK or Big5,
/// or had undecodable bytes replaced) names the encoding.
pub fn parse_raw(raw: &RawGame, source: &str) -> GameEntry {
    let mut entry = match &raw.error {
        Some(e) => GameEntry::failed(source, raw.index, Format::Pgn, e.clone()),
        None => parse_game(&raw.text, raw.first_line),
    };
    entry.source = source.to_owned();
    entry.index = raw.index;
    entry.encoding = Some(raw.encoding);
    if let Some(mut e) = entry.error.take() {
        if raw.error.is_none() && (raw.encoding != TextEncoding::Utf8 || raw.lossy) {
            e.message = format!(
                "{} (the game's text was read as {}{})",
                e.message,
                raw.encoding.name(),
                if raw.lossy {
                    ", with undecodable bytes replaced"
                } else {
                    ""
                }
            );
        }
        entry.error = Some(e.in_source(source).in_game(raw.index));
    }
    // The reader's remarks on the text (located undecodable bytes) come first.
    let mut warnings = raw.warnings.clone();
    warnings.append(&mut entry.warnings);
    entry.warnings = warnings;
    super::warnings::finish(&mut entry);
    entry
}

/// Parses the text of one game (tags and movetext) and replays its moves. `first_line` is the
/// line number of the text's first line in its source. The entry's `game` holds everything read
/// before an error.
pub fn parse_game(text: &str, first_line: u64) -> GameEntry {
    let mut p = Parser {
        s: text,
        b: text.as_bytes(),
        i: 0,
        line: first_line.max(1),
        line_start: 0,
        col_cache: (0, 1),
        notation: None,
        warnings: Vec::new(),
        ending: None,
        tag_lines: Vec::new(),
        player: MovePlayer::new(Format::Pgn),
    };
    let mut game = Game::new(Position::start());
    let result = p.parse(&mut game);
    let mut entry = GameEntry {
        source: String::new(),
        index: 0,
        format: Format::Pgn,
        notation: p.notation,
        encoding: None,
        game,
        error: result.err(),
        warnings: p.warnings,
    };
    if entry.error.is_some() {
        // (Only a game that fails pays for the search.)
        super::repair::attach(&mut entry, text, super::repair::Budget::default());
    }
    entry
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    line: u64,
    line_start: usize,
    /// (byte offset, column) of the last column computed on the current line.
    col_cache: (usize, u32),
    notation: Option<Notation>,
    warnings: Vec<RecordError>,
    /// The result token and the text after it.
    ending: Option<(GameResult, Option<String>)>,
    /// The line of each tag pair.
    tag_lines: Vec<u64>,
    /// Plays the moves (and counts them against the cap on one game).
    player: MovePlayer,
}

/// How a movetext line ended.
enum End {
    Eof,
    CloseParen,
}

impl<'a> Parser<'a> {
    /// The 1-based column (in characters) of byte offset `at` on the current line.
    fn column(&mut self, at: usize) -> u32 {
        if at < self.line_start {
            // A position on an earlier line (an error reported at where a construct opened).
            let start = self.s[..at].rfind('\n').map_or(0, |k| k + 1);
            return 1 + self.s[start..at].chars().count() as u32;
        }
        let (off, col) = if self.col_cache.0 >= self.line_start && self.col_cache.0 <= at {
            self.col_cache
        } else {
            (self.line_start, 1)
        };
        let col = col + self.s[off..at].chars().count() as u32;
        self.col_cache = (at, col);
        col
    }

    fn here(&mut self, at: usize) -> SourcePos {
        SourcePos {
            line: self.line,
            column: self.column(at),
        }
    }

    fn err_at(&mut self, at: usize, k: &str, msg: impl Into<String>) -> RecordError {
        let p = self.here(at);
        RecordError::new(k, msg).at(p.line, p.column)
    }

    fn newline(&mut self, at: usize) {
        self.line += 1;
        self.line_start = at + 1;
    }

    /// Skips white space ([`pgn_layout::is_space`]), counting lines.
    fn skip_ws(&mut self) {
        loop {
            match pgn_layout::space_len_at(self.s, self.i) {
                0 => break,
                n => {
                    if self.b[self.i] == b'\n' {
                        self.newline(self.i);
                    }
                    self.i += n;
                }
            }
        }
    }

    /// Counts the line ends in `self.b[from..to]`.
    fn advance_lines(&mut self, from: usize, to: usize) {
        for k in from..to {
            if self.b[k] == b'\n' {
                self.newline(k);
            }
        }
    }

    fn parse(&mut self, game: &mut Game) -> Result<(), RecordError> {
        self.parse_tags(game)?;
        self.apply_tags(game)?;
        let start = game.start;
        // Room for the main line up front: a move with its number takes 5 to 15 bytes.
        game.main
            .nodes
            .reserve(((self.b.len() - self.i) / 8).min(1024));
        let saved = (self.i, self.line, self.line_start, self.col_cache);
        let mut r = self.parse_line(&mut game.main, start, 0, 0);
        // The first move belongs to the other side: the record (FEN side letter, or no FEN for a
        // game Black starts) has the side to move wrong. Replay with the other side to move and
        // say so, as vschess does (交换先后手).
        if let Err(e) = &r
            && e.ply == Some(1)
            && game.main.nodes.is_empty()
            && e.kind != kind::RECORD_SYNTAX
            && e.kind != kind::UNKNOWN_NOTATION
        {
            let mut setup = start.to_setup();
            setup.turn = !setup.turn;
            if let Ok(swapped) = Position::from_setup(setup) {
                let now = (self.i, self.line, self.line_start, self.col_cache);
                (self.i, self.line, self.line_start, self.col_cache) = saved;
                let warnings = self.warnings.len();
                let mut line = Line::default();
                let r2 = self.parse_line(&mut line, swapped, 0, 0);
                let better = match &r2 {
                    Ok(_) => true,
                    Err(e2) => e2.ply.is_some_and(|p| p > 1),
                };
                if better {
                    let first = r.err().expect("checked");
                    self.warnings.insert(
                        warnings,
                        RecordError::new(
                            "side_to_move_corrected",
                            format!(
                                "the first move {} is {}'s: {} moves first, not {}",
                                first.move_text.as_deref().unwrap_or("?"),
                                swapped.turn(),
                                swapped.turn(),
                                start.turn()
                            ),
                        )
                        .at(first.line, first.column)
                        .at_move(1, first.move_text.clone().unwrap_or_default()),
                    );
                    game.start = swapped;
                    game.main = line;
                    r = r2;
                } else {
                    self.warnings.truncate(warnings);
                    self.ending = None;
                    (self.i, self.line, self.line_start, self.col_cache) = now;
                }
            }
        }
        if let Some((result, trailing)) = self.ending.take() {
            if let Some(tagged) = game.result
                && tagged != result
            {
                self.warnings.push(
                    RecordError::new(
                        "result_mismatch",
                        format!(
                            "the Result tag says {} but the movetext ends with {}",
                            tagged.token(),
                            result.token()
                        ),
                    )
                    .at(self.line, 1),
                );
            }
            game.result = Some(result);
            game.trailing_text = trailing;
        }
        match r? {
            End::Eof => Ok(()),
            End::CloseParen => unreachable!("depth 0 never ends at ')'"),
        }
    }

    fn parse_tags(&mut self, game: &mut Game) -> Result<(), RecordError> {
        loop {
            self.skip_ws();
            if self.i >= self.b.len() || self.b[self.i] != b'[' {
                return Ok(());
            }
            // Only a tag pair if a name follows.
            if !self
                .b
                .get(self.i + 1)
                .is_some_and(|c| c.is_ascii_alphabetic())
            {
                return Ok(());
            }
            let open = self.i;
            let eol = self.s[open..].find('\n').map_or(self.b.len(), |k| open + k);
            let line = &self.s[open..eol];
            let (name, value, used) = parse_tag(line)
                .ok_or_else(|| self.err_at(open, kind::RECORD_SYNTAX, "malformed tag pair"))?;
            game.tags.push((name, value));
            self.tag_lines.push(self.line);
            self.i = open + used;
        }
    }

    fn apply_tags(&mut self, game: &mut Game) -> Result<(), RecordError> {
        let mut fen = None;
        for (i, (k, v)) in game.tags.iter().enumerate() {
            if k.eq_ignore_ascii_case("FEN") && !v.trim().is_empty() {
                fen = Some((v.trim().to_owned(), self.tag_lines[i]));
            } else if k.eq_ignore_ascii_case("Format") {
                self.notation = match v.trim().to_ascii_lowercase().as_str() {
                    "iccs" | "ucci" => Some(Notation::Iccs),
                    "wxf" => Some(Notation::Wxf),
                    "chinese" => Some(Notation::Chinese),
                    "san" => Some(Notation::San),
                    "san-winboard" | "san_winboard" | "winboard" => Some(Notation::SanWinboard),
                    _ => None,
                };
            } else if k.eq_ignore_ascii_case("Result") && game.result.is_none() {
                game.result = GameResult::from_token(v.trim());
            }
        }
        if let Some((fen, line)) = fen {
            game.start = Position::from_fen(&fen).map_err(|e| {
                RecordError::new(
                    kind::BAD_POSITION,
                    format!("FEN tag \"{fen}\": {e} [{}]", e.kind()),
                )
                .at(line, 1)
            })?;
        }
        Ok(())
    }

    /// Reads movetext into `line`, whose first move is played from `start` and is ply `ply0 + 1`.
    /// At depth 0 a result token ends the movetext.
    fn parse_line(
        &mut self,
        line: &mut Line,
        start: Position,
        ply0: usize,
        depth: usize,
    ) -> Result<End, RecordError> {
        let mut pos = start;
        let mut before = start;
        let mut ply = ply0;
        loop {
            self.skip_ws();
            let Some(&c) = self.b.get(self.i) else {
                if depth > 0 {
                    return Err(self.err_at(self.i, kind::RECORD_SYNTAX, "variation not closed"));
                }
                return Ok(End::Eof);
            };
            match c {
                b'{' => {
                    let open = self.i;
                    let Some(len) = self.s[open + 1..].find('}') else {
                        return Err(self.err_at(open, kind::RECORD_SYNTAX, "comment not closed"));
                    };
                    let body = strip_pad(&self.s[open + 1..open + 1 + len]).to_owned();
                    self.advance_lines(open, open + 1 + len);
                    self.i = open + len + 2;
                    push_comment(line, body);
                }
                b';' => {
                    let open = self.i;
                    let eol = self.s[open..].find('\n').map_or(self.b.len(), |k| open + k);
                    push_comment(line, strip_pad(&self.s[open + 1..eol]).to_owned());
                    self.i = eol;
                }
                b'(' => {
                    let open = self.i;
                    if line.nodes.is_empty() {
                        return Err(self.err_at(
                            open,
                            kind::RECORD_SYNTAX,
                            "a variation must follow the move it replaces",
                        ));
                    }
                    if depth + 1 > MAX_VARIATION_DEPTH {
                        return Err(self.err_at(
                            open,
                            kind::RECORD_SYNTAX,
                            format!(
                                "variations nested more than {MAX_VARIATION_DEPTH} deep (the \
                                 limit of every reader and writer)"
                            ),
                        ));
                    }
                    self.i += 1;
                    let mut var = Line::default();
                    let r = self.parse_line(&mut var, before, ply - 1, depth + 1);
                    line.nodes.last_mut().expect("checked").variations.push(var);
                    match r {
                        Ok(_) => {}
                        // A bad move inside a variation cuts the variation there; the game
                        // itself stays valid and the problem is reported as a warning.
                        Err(mut e) if e.ply.is_some() => {
                            e.message =
                                format!("in a variation, cut here: {} [{}]", e.message, e.kind);
                            e.kind = "variation_cut".to_owned();
                            self.warnings.push(e);
                            self.skip_to_close()?;
                        }
                        Err(e) => return Err(e),
                    }
                }
                b')' => {
                    if depth == 0 {
                        return Err(self.err_at(self.i, kind::RECORD_SYNTAX, "')' without '('"));
                    }
                    self.i += 1;
                    return Ok(End::CloseParen);
                }
                b'$' => {
                    let open = self.i;
                    let end = self.word_end(open + 1);
                    let nag = self.s[open + 1..end].parse::<u8>().map_err(|_| {
                        self.err_at(
                            open,
                            kind::RECORD_SYNTAX,
                            format!("bad NAG '{}'", &self.s[open..end]),
                        )
                    })?;
                    match line.nodes.last_mut() {
                        Some(n) => n.nags.push(nag),
                        None => {
                            return Err(self.err_at(
                                open,
                                kind::RECORD_SYNTAX,
                                "NAG before any move",
                            ));
                        }
                    }
                    self.i = end;
                }
                b'%' if self.i == self.line_start => {
                    let eol = self.s[self.i..]
                        .find('\n')
                        .map_or(self.b.len(), |k| self.i + k);
                    self.i = eol;
                }
                b'[' => {
                    return Err(self.err_at(
                        self.i,
                        kind::RECORD_SYNTAX,
                        "tag pair inside movetext (missing result or blank line?)",
                    ));
                }
                b'}' => {
                    return Err(self.err_at(self.i, kind::RECORD_SYNTAX, "'}' without '{'"));
                }
                _ => {
                    let open = self.i;
                    let end = self.word_end(open);
                    if end == open {
                        // A delimiter no arm above consumes: never loop on it.
                        return Err(self.err_at(
                            open,
                            kind::RECORD_SYNTAX,
                            format!(
                                "unexpected '{}'",
                                self.s[open..].chars().next().unwrap_or(' ')
                            ),
                        ));
                    }
                    self.i = end;
                    let word = &self.s[open..end];
                    if let Some(r) = GameResult::from_token(word) {
                        if depth == 0 {
                            self.ending = Some((r, pgn_layout::trailing_text(&self.s[end..])));
                            self.i = self.b.len();
                            return Ok(End::Eof);
                        }
                        continue;
                    }
                    self.word(word, open, line, &mut pos, &mut before, &mut ply)?;
                }
            }
        }
    }

    /// Skips the rest of a variation up to and including its `)`.
    fn skip_to_close(&mut self) -> Result<(), RecordError> {
        let open = self.i;
        let (open_line, open_line_start) = (self.line, self.line_start);
        let mut depth = 1;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\n' => self.newline(self.i),
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Ok(());
                    }
                }
                b'{' => {
                    if let Some(len) = self.s[self.i..].find('}') {
                        self.advance_lines(self.i, self.i + len);
                        self.i += len;
                    }
                }
                b';' => {
                    if let Some(len) = self.s[self.i..].find('\n') {
                        self.i += len - 1;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        // Report the error on the line where the skipped variation began.
        self.line = open_line;
        self.line_start = open_line_start;
        Err(self.err_at(open, kind::RECORD_SYNTAX, "variation not closed"))
    }

    /// The end of a word starting at `from`: white space ([`pgn_layout::is_space`]) or a PGN
    /// delimiter.
    fn word_end(&self, from: usize) -> usize {
        let mut k = from;
        while k < self.b.len() {
            match self.b[k] {
                b'{' | b'}' | b'(' | b')' | b';' | b'[' | b'$' | b'\t'..=b'\r' | b' ' => break,
                // (A byte that may start a white space character outside ASCII; other bytes
                // never do.)
                0xC2 | 0xE1..=0xE3 if pgn_layout::space_len_at(self.s, k) > 0 => break,
                _ => k += 1,
            }
        }
        k
    }

    /// Handles one movetext word: a move number, moves (possibly several glued together) with
    /// annotation suffixes.
    fn word(
        &mut self,
        word: &'a str,
        open: usize,
        line: &mut Line,
        pos: &mut Position,
        before: &mut Position,
        ply: &mut usize,
    ) -> Result<(), RecordError> {
        let mut w = word;
        let mut at = open;
        // A move number: digits then dots (or an ellipsis). WXF `33.4` is a move, not a number.
        let digits = w.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && !(self.notation == Some(Notation::Wxf) && is_wxf_digit_move(w)) {
            let rest = &w[digits..];
            let dots = rest.len() - rest.trim_start_matches(['.', '…', '。', '．']).len();
            if dots > 0 {
                w = &rest[dots..];
                at += digits + dots;
            }
        }
        let dots_only = w.trim_start_matches(['.', '…']);
        if dots_only.is_empty() {
            return Ok(());
        }
        // Annotation suffixes.
        let body = w.trim_end_matches(['!', '?']);
        let suffix = &w[body.len()..];
        let nag = match suffix {
            "" => None,
            "!" => Some(1),
            "?" => Some(2),
            "!!" => Some(3),
            "??" => Some(4),
            "!?" => Some(5),
            "?!" => Some(6),
            _ => {
                return Err(self.err_at(
                    at,
                    kind::RECORD_SYNTAX,
                    format!("bad annotation '{suffix}'"),
                ));
            }
        };
        if body.is_empty() {
            // A detached annotation ("h0g2 !") belongs to the move before it.
            return match (line.nodes.last_mut(), nag) {
                (Some(n), Some(nag)) => {
                    n.nags.push(nag);
                    Ok(())
                }
                _ => Err(self.err_at(
                    at,
                    kind::RECORD_SYNTAX,
                    format!("annotation '{suffix}' without a move"),
                )),
            };
        }
        let notation = match self.notation {
            Some(n) => n,
            None => match sniff_word(body) {
                Some(n) => {
                    // SAN: the rank base is told by the whole movetext (a rank 0 or 10, or the
                    // pawn style), pychess's 1-10 when nothing tells.
                    let n = if n.is_san() {
                        notation::san::sniff_rank_base(words(&self.s[at..]))
                            .map_or(Notation::San, |b| b.notation())
                    } else {
                        n
                    };
                    self.notation = Some(n);
                    n
                }
                None => {
                    return Err(self
                        .err_at(
                            at,
                            kind::UNKNOWN_NOTATION,
                            format!("'{body}' is not a move in any known notation"),
                        )
                        .at_move(*ply + 1, body));
                }
            },
        };
        // (The moves glued together in the word, as [`movetext::glued`] cuts them; a plain loop:
        // this runs once per move of every record read, where the iterator cost 3 % of it.)
        let mut k = 0;
        while k < body.len() {
            let len = movetext::first_move_len(&body[k..], notation);
            let text = &body[k..k + len];
            let sp = self.here(at + k);
            k += len;
            // (The position before the move; on an error the line ends, and `before` with it.)
            *before = *pos;
            let (s, i) = (self.s, self.i);
            let r = self
                .player
                .play(text, notation, sp, *ply + 1, pos, line, || {
                    movetext::following_moves(words(&s[i..]), 10)
                });
            if !self.player.warnings.is_empty() {
                self.warnings.append(&mut self.player.warnings);
            }
            r?;
            *ply += 1;
        }
        if let Some(n) = nag {
            line.nodes.last_mut().expect("a move was read").nags.push(n);
        }
        Ok(())
    }
}

/// The words of a text, between white space.
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_space).filter(|w| !w.is_empty())
}

/// The WXF two-file pawn form `33.4` (digit, digit, dot, digit).
pub(crate) fn is_wxf_digit_move(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 4
        && b[0].is_ascii_digit()
        && b[1].is_ascii_digit()
        && b[2] == b'.'
        && b[3].is_ascii_digit()
}

/// Removes the one blank that usually pads a comment on each side (`{ text }`), so that
/// comments with meaningful leading or trailing blanks survive a round trip.
fn strip_pad(c: &str) -> &str {
    let c = c.strip_prefix([' ', '\n', '\t']).unwrap_or(c);
    c.strip_suffix([' ', '\n', '\t']).unwrap_or(c)
}

fn push_comment(line: &mut Line, text: String) {
    match line.nodes.last_mut() {
        Some(n) => n.comments.push(text),
        None => line.comments_before.push(text),
    }
}

/// Sniffs the notation of a word that may hold several moves glued together.
fn sniff_word(w: &str) -> Option<Notation> {
    if let Some(n) = notation::sniff(w) {
        return Some(n);
    }
    for len in [4, 5] {
        if let Some((k, _)) = w.char_indices().nth(len)
            && let Some(n) = notation::sniff(&w[..k])
        {
            return Some(n);
        }
    }
    None
}

/// Parses the tag pair at the start of `line` (which holds no line end). Returns the name, the
/// value and the number of bytes used.
fn parse_tag(line: &str) -> Option<(String, String, usize)> {
    let (rest, (name, value)) = tag_pair(line).ok()?;
    Some((name.to_owned(), value, line.len() - rest.len()))
}

// The tag pair grammar, with nom:
//
//   tag_pair    = "[" name blanks (quoted | bare)
//   name        = up to a blank, '"' or ']'
//   quoted      = '"' value closer      (a closer whose '"' is not escaped; see `quoted`)
//   closer      = '"' blanks "]"
//   bare        = up to "]", "]"        (the value trimmed)
//   blanks      = white space ([`pgn_layout::is_space`])

/// `[Name "value"]` or `[Name value]`: the name and the value (unescaped).
fn tag_pair(i: &str) -> IResult<&str, (&str, String)> {
    let (i, (_, name, _)) = (
        char('['),
        take_till(|c: char| is_space(c) || c == '"' || c == ']'),
        blanks,
    )
        .parse(i)?;
    // After an opening quote the value is quoted: no falling back to a bare value.
    let (i, value) = alt((preceded(char('"'), cut(quoted)), bare)).parse(i)?;
    Ok((i, (name, value)))
}

/// White space inside a tag line.
fn blanks(i: &str) -> IResult<&str, &str> {
    take_while(is_space).parse(i)
}

/// `"` then `]`, blanks between: where a quoted value may end.
fn closer(i: &str) -> IResult<&str, ()> {
    value((), (char('"'), blanks, char(']'))).parse(i)
}

/// What may follow a tag pair on its line: nothing, or another tag pair.
fn end_or_tag(i: &str) -> IResult<&str, ()> {
    value(
        (),
        (blanks, alt((value((), eof), value((), peek(char('[')))))),
    )
    .parse(i)
}

/// A quoted value after its opening quote, up to and including its closer. Quotes inside the
/// value need not be escaped: the value ends at the first closer not escaped by a backslash that
/// is followed by the end of the line or another tag pair, or else at the first closer not
/// escaped (`[Event "the "A" cup"]`, `[A "x"][B "y"]`).
fn quoted(i: &str) -> IResult<&str, String> {
    let mut first = None;
    for (q, _) in i.match_indices('"') {
        let Ok((after, ())) = closer(&i[q..]) else {
            continue;
        };
        // Escaped by an odd run of backslashes (`\\\"` is an escaped backslash, then an
        // escaped quote).
        let slashes = q - i[..q].trim_end_matches('\\').len();
        if slashes % 2 == 1 {
            continue;
        }
        if end_or_tag(after).is_ok() {
            return Ok((after, unescape(&i[..q])));
        }
        first.get_or_insert((q, after));
    }
    match first {
        Some((q, after)) => Ok((after, unescape(&i[..q]))),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Char,
        ))),
    }
}

/// A value without quotes: up to the next `]`, trimmed.
fn bare(i: &str) -> IResult<&str, String> {
    map(terminated(take_until("]"), char(']')), |v: &str| {
        v.trim().to_owned()
    })
    .parse(i)
}

fn unescape(v: &str) -> String {
    if !v.contains('\\') {
        return v.to_owned();
    }
    let mut out = String::with_capacity(v.len());
    let mut it = v.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' && matches!(it.peek(), Some('"') | Some('\\')) {
            out.push(it.next().expect("peeked"));
        } else {
            out.push(c);
        }
    }
    out
}

/// A tag value as PGN writes it: `\\` and `"` escaped, and line breaks (which a PGN tag cannot
/// hold, but a DhtmlXQ or XQF field can) written as spaces, so that the tag stays one line.
fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A comment's text as PGN writes it between braces: `}` becomes the full-width `｝`, carriage
/// returns at the end of a line are dropped (a reader takes lines without their line ends, so a
/// CR LF comment from a binary record would otherwise read back different), and a blank line right
/// before a line starting with `[` is dropped, because a reader resynchronising after an unclosed
/// comment takes a blank line and a tag pair as the start of the next game.
fn comment_text(c: &str) -> String {
    let c = c.replace('}', "｝");
    if !c.contains('\n') {
        return c;
    }
    let lines: Vec<&str> = c.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let mut out = String::with_capacity(c.len());
    for (i, line) in lines.iter().enumerate() {
        if is_blank(line) && i > 0 {
            let next = lines[i + 1..].iter().find(|l| !is_blank(l));
            if next.is_some_and(|l| pgn_layout::trim_start(l).starts_with('[')) {
                continue;
            }
        }
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

/// Writes a tag name so that it reads back as one: a name from another format (a DhtmlXQ or XQF
/// field) may hold spaces, quotes or brackets, which become `_`, or start with something other
/// than a letter, which gets an `X` in front (a line `[(x "..."]` would not be read as a tag).
fn push_tag_name(name: &str, out: &mut String) {
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.push('X');
    }
    out.extend(name.chars().map(|c| {
        if is_space(c) || c.is_control() || matches!(c, '"' | '[' | ']') {
            '_'
        } else {
            c
        }
    }));
}

/// The value of the `Format` tag for a notation.
pub fn format_tag(notation: Notation) -> &'static str {
    notation.label()
}

/// Writes one game as PGN in the given notation (see the module documentation).
pub fn write_game(game: &Game, notation: Notation, out: &mut String) {
    let mut tags = game.tags.clone();
    set_tag(&mut tags, "Format", format_tag(notation));
    // (Position equality is placement and side to move; a start numbered other than move 1 also
    // needs the FEN, so that the move numbers read back.)
    let standard = game.start == Position::start()
        && game.start.fullmoves() == 1
        && game.start.halfmoves() == 0;
    if !standard || tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("FEN")) {
        set_tag(&mut tags, "FEN", &game.start.fen());
    }
    // A game with text after it needs a result token to end its movetext: `*` when it has no
    // result, and the Result tag says so too, so that the game reads back and prints the same.
    let result = match (game.result, &game.trailing_text) {
        (Some(r), _) => Some(r),
        (None, Some(_)) => Some(GameResult::Unknown),
        (None, None) => None,
    };
    if let Some(r) = result {
        set_tag(&mut tags, "Result", r.token());
    }
    for (k, v) in &tags {
        out.push('[');
        push_tag_name(k, out);
        out.push_str(" \"");
        out.push_str(&escape(v));
        out.push_str("\"]\n");
    }
    out.push('\n');
    let mut w = Writer {
        out: String::new(),
        col: 0,
        notation,
        glue: false,
        scratch: String::new(),
        depth: 0,
    };
    w.line(&game.main, game.start);
    if let Some(r) = result {
        w.token(r.token());
    }
    out.push_str(w.out.trim_end());
    out.push('\n');
    if let Some(t) = &game.trailing_text {
        write_trailing_text(t, out);
    }
    out.push('\n');
}

/// Writes the text after the result so that it reads back as this game's trailing text
/// ([`pgn_layout::trailing_text`]) and prints the same again: a line that would start a new game
/// where it stands (a tag pair, or move 1 right after a line ending with a result) is joined to
/// the last line with text before it, the line break, blank lines and indentation in between
/// becoming one space. `out` ends with the result line.
fn write_trailing_text(t: &str, out: &mut String) {
    let mut prev_ended = true;
    for line in pgn_layout::trailing_lines(t) {
        let trimmed = pgn_layout::trim_start(line);
        if is_tag_line(trimmed) || (prev_ended && starts_first_move(trimmed)) {
            let kept = pgn_layout::trim_end(out).len();
            out.truncate(kept);
            out.push(' ');
            out.push_str(trimmed);
        } else {
            out.push_str(line);
        }
        out.push('\n');
        if !trimmed.is_empty() {
            prev_ended = ends_with_result(trimmed);
        }
    }
}

/// Writes games as PGN.
pub fn write_games<'g>(games: impl IntoIterator<Item = &'g Game>, notation: Notation) -> String {
    let mut out = String::new();
    for g in games {
        write_game(g, notation, &mut out);
    }
    out
}

/// Sets a tag the writer decides (`Format`, `FEN`, `Result`): the first tag of that name gets the
/// value and any later duplicates are dropped, since a reader would take one of them and it must
/// be the value the movetext is written for.
fn set_tag(tags: &mut Vec<(String, String)>, name: &str, value: &str) {
    let mut seen = false;
    tags.retain_mut(|(k, v)| {
        if !k.eq_ignore_ascii_case(name) {
            return true;
        }
        if seen {
            return false;
        }
        seen = true;
        *v = value.to_owned();
        true
    });
    if !seen {
        tags.push((name.to_owned(), value.to_owned()));
    }
}

struct Writer {
    out: String,
    col: usize,
    notation: Notation,
    /// The next token follows without a space (right after `(`).
    glue: bool,
    scratch: String,
    /// Nesting of the line being written (0 = the main line).
    depth: usize,
}

const WRAP: usize = 78;

impl Writer {
    fn token(&mut self, t: &str) {
        let w = t.chars().count();
        if !self.glue && self.col > 0 {
            if self.col + 1 + w > WRAP {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.glue = false;
        self.out.push_str(t);
        self.col = match t.rfind('\n') {
            Some(k) => t[k + 1..].chars().count(),
            None => self.col + w,
        };
    }

    fn comment(&mut self, c: &str) {
        self.token(&format!("{{ {} }}", comment_text(c)));
    }

    fn line(&mut self, line: &Line, start: Position) {
        for c in &line.comments_before {
            self.comment(c);
        }
        let mut pos = start;
        let mut need_number = true;
        for node in &line.nodes {
            let n = pos.fullmoves();
            if pos.turn() == Color::Red {
                self.token(&format!("{n}."));
            } else if need_number {
                self.token(&format!("{n}. ..."));
            }
            self.scratch.clear();
            notation::write_move(&pos, node.mv, self.notation, &mut self.scratch);
            let mv = std::mem::take(&mut self.scratch);
            self.token(&mv);
            self.scratch = mv;
            need_number = false;
            for nag in &node.nags {
                self.token(&format!("${nag}"));
            }
            for c in &node.comments {
                self.comment(c);
                need_number = true;
            }
            // Variations deeper than every reader accepts are not written (a game built in
            // memory may hold them; none read from a record does).
            let deeper = self.depth < MAX_VARIATION_DEPTH;
            for v in node.variations.iter().filter(|_| deeper) {
                self.token("(");
                self.glue = true;
                self.depth += 1;
                self.line(v, pos);
                self.depth -= 1;
                self.glue = false;
                self.out.push(')');
                self.col += 1;
                need_number = true;
            }
            pos.play_unchecked(node.mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_with_quotes_and_escapes() {
        let (n, v, _) = parse_tag(r#"[Event "the "A" cup"]"#).unwrap();
        assert_eq!((n.as_str(), v.as_str()), ("Event", r#"the "A" cup"#));
        let (_, v, _) = parse_tag(r#"[Event "a \"b\" c\\"]"#).unwrap();
        assert_eq!(v, r#"a "b" c\"#);
        let line = r#"[Game "Chinese Chess"][Format "WXF"]"#;
        let (n, v, used) = parse_tag(line).unwrap();
        assert_eq!((n.as_str(), v.as_str()), ("Game", "Chinese Chess"));
        let (n, v, _) = parse_tag(&line[used..]).unwrap();
        assert_eq!((n.as_str(), v.as_str()), ("Format", "WXF"));
        assert!(parse_tag("[Event \"open").is_none());
    }

    #[test]
    fn the_text_of_a_game_is_its_bytes_decoded_whole() {
        use crate::record::encoding::encode;
        let gbk = |t: &str| encode(t, TextEncoding::Gbk).into_owned();
        let big5 = |t: &str| encode(t, TextEncoding::Big5).into_owned();
        let moves = "[Event \"全国赛\"]\n\n1. 炮二平五 马８进７ {好棋} 2. 马二进三 *\n";
        let trad = "[Event \"全國賽\"]\n\n1. 炮二平五 馬８進７ {好棋} 2. 馬二進三 *\n";
        let mut cases: Vec<Vec<u8>> = vec![gbk(moves), big5(trad), moves.as_bytes().to_vec()];
        // A UTF-8 line in a GBK game; bytes invalid in GBK; a GBK line after a BOM.
        cases.push([gbk(moves), "{注释：好}\n".as_bytes().to_vec()].concat());
        cases.push([&gbk(moves)[..], b"{\x81}\n"].concat());
        cases.push(
            [
                &gbk("[Event \"赛\"]\n")[..],
                b"\xEF\xBB\xBF",
                &gbk("1. 炮二平五 *\n"),
            ]
            .concat(),
        );
        cases.push([&b"[Event \"x\"]\n"[..], &big5("1. 炮二平五 馬８進７\n")].concat());
        for bytes in &cases {
            let mut sp = PgnSplitter::new(&bytes[..]);
            let raw = sp.next_game().unwrap().unwrap();
            let (text, bad) = encoding::decode_reporting(bytes, raw.encoding);
            assert_eq!(raw.text, text, "{bytes:?}");
            assert_eq!(raw.lossy, !bad.is_empty());
        }
    }

    #[test]
    fn iccs_game_with_everything() {
        let text = "[Event \"t\"]\n[Format \"ICCS\"]\n\n{start} 1. h2e2 $1 {c1} (1. b2e2 h9g7) h9g7 ; eol\n\
                    2. h0g2 ! 1-0 text after\nmore";
        let e = parse_game(text, 1);
        assert!(e.error.is_none(), "{:?}", e.error);
        let g = &e.game;
        assert_eq!(g.main.comments_before, vec!["start"]);
        assert_eq!(g.main.nodes.len(), 3);
        assert_eq!(g.main.nodes[0].nags, vec![1]);
        assert_eq!(g.main.nodes[0].comments, vec!["c1"]);
        assert_eq!(g.main.nodes[0].variations[0].nodes.len(), 2);
        assert_eq!(g.main.nodes[1].comments, vec!["eol"]);
        assert_eq!(g.main.nodes[2].nags, vec![1]);
        assert_eq!(g.result, Some(GameResult::RedWins));
        assert_eq!(g.trailing_text.as_deref(), Some("text after\nmore"));
        assert_eq!(g.main.nodes[2].pos, SourcePos { line: 5, column: 4 });
    }

    #[test]
    fn errors_point_at_the_move() {
        let text = "[Format \"ICCS\"]\n1. h2e2 h9g7\n2. h0g2 a9a5\n3. h2h9";
        let e = parse_game(text, 1);
        let err = e.error.unwrap();
        assert_eq!((err.line, err.column, err.ply), (3, 9, Some(4)));
        assert_eq!(err.move_text.as_deref(), Some("a9a5"));
        assert_eq!(e.game.main.nodes.len(), 3);
        let e = parse_game("1. h2e2 (1. b2e2 h9h0) h9g7 2. h0g2", 1);
        assert!(e.error.is_none());
        assert_eq!(e.game.main.nodes.len(), 3);
        assert_eq!(e.game.main.nodes[0].variations[0].nodes.len(), 1);
        assert_eq!(e.warnings[0].ply, Some(2));
        let e = parse_game("1. h2e2 (", 1);
        assert_eq!(e.error.unwrap().kind, kind::RECORD_SYNTAX);
        let e = parse_game("1. h2e2 {open", 1);
        assert_eq!(e.error.unwrap().message, "comment not closed");
    }

    #[test]
    fn splitter_cuts_games_and_keeps_line_numbers() {
        let text =
            "[A \"1\"]\n\n1. h2e2 *\n\n[A \"2\"]\n{ [not a tag\n] } 1. h2e2\n[A \"3\"]\n1. b2e2";
        let games = read_str(text, "x");
        assert_eq!(games.len(), 3);
        assert_eq!(games[1].game.tags, vec![("A".into(), "2".into())]);
        assert_eq!(games[1].game.main.nodes[0].pos.line, 7);
        assert_eq!(games[2].game.main.nodes[0].pos.line, 9);
        assert!(games.iter().all(|g| g.error.is_none()));
    }

    #[test]
    fn side_to_move_is_corrected_by_the_first_move() {
        // No FEN, Black starts.
        let e = parse_game("[Format \"ICCS\"]\n1. ... h7e7 2. h2e2 *", 1);
        assert!(e.error.is_none(), "{:?}", e.error);
        assert_eq!(e.game.start.turn(), Color::Black);
        assert_eq!(e.warnings[0].kind, "side_to_move_corrected");
        assert_eq!(e.game.main.nodes.len(), 2);
        // A plain bad first move stays an error.
        let e = parse_game("[Format \"ICCS\"]\n1. h2h8 *", 1);
        assert_eq!(e.error.unwrap().ply, Some(1));
        assert!(e.warnings.is_empty());
    }

    #[test]
    fn black_first_and_numbers() {
        let text = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\"]\n\
                    [Format \"ICCS\"]\n1. ... h7e7 2. h2e2 2... h9g7\n3.          h0g2";
        let e = parse_game(text, 1);
        assert!(e.error.is_none(), "{:?}", e.error);
        assert_eq!(e.game.main.nodes.len(), 4);
        let mut out = String::new();
        write_game(&e.game, Notation::Iccs, &mut out);
        assert!(out.contains("1. ... h7e7 2. h2e2 h9g7 3. h0g2"), "{out}");
    }
}
