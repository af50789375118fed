//! Streaming DhtmlXQ: cuts a byte stream into pieces of one record each, as
//! [`super::pgn::PgnSplitter`] does for PGN, so that a page or export of any size is read in
//! linear time and bounded memory.
//!
//! A piece runs from one container start (`[DhtmlXQ]` or `[DhtmlXQiFrame]`) to the next; the
//! first piece also holds whatever comes before the first container. Read with
//! [`super::dhtmlxq::read_str_at`], the pieces give the same games as the whole text would (each
//! JavaScript movelist belongs to the last record that starts before it). Each piece is decoded on
//! its own ([`DhtmlChunk::read`]): its encoding is detected for it alone, undecodable bytes are
//! replaced with a warning giving their byte offset. A piece over
//! [`super::limits::Limits::max_game_bytes`] is an error for that game, and the splitter skips to
//! the next container.

use super::dhtmlxq::{self, ChunkStart};
use super::encoding::{self, TextEncoding};
use super::error::{RecordError, kind};
use super::game::{Format, GameEntry};
use std::io::{self, BufRead};

/// One piece of a DhtmlXQ source, not yet decoded.
pub struct DhtmlChunk {
    pub bytes: Vec<u8>,
    /// Where the piece starts in its source.
    pub at: ChunkStart,
    /// Byte offset of the piece in its source.
    pub offset: u64,
    /// Set for a piece over the cap (`bytes` is then empty).
    pub error: Option<RecordError>,
}

const MARK: &[u8] = b"[DhtmlXQ";

/// Cuts a DhtmlXQ byte stream into [`DhtmlChunk`]s.
pub struct DhtmlSplitter<R: BufRead> {
    reader: R,
    buf: Vec<u8>,
    /// How far `buf` has been searched for container starts.
    scanned: usize,
    /// Where in `buf` the container of the current piece starts, once found.
    own: Option<usize>,
    /// Line, characters on that line, and byte offset of `buf[0]`.
    line: u64,
    column: u32,
    offset: u64,
    index: usize,
    /// Dropping the rest of a piece over the cap.
    skipping: bool,
    max_bytes: usize,
    eof: bool,
}

impl<R: BufRead> DhtmlSplitter<R> {
    pub fn new(reader: R) -> DhtmlSplitter<R> {
        DhtmlSplitter {
            reader,
            buf: Vec::new(),
            scanned: 0,
            own: None,
            line: 1,
            column: 0,
            offset: 0,
            index: 0,
            skipping: false,
            max_bytes: super::limits::limits().max_game_bytes,
            eof: false,
        }
    }

    /// Removes `buf[..n]`, counting its lines.
    fn drop_front(&mut self, n: usize) -> Vec<u8> {
        let rest = self.buf.split_off(n);
        let front = std::mem::replace(&mut self.buf, rest);
        match front.iter().rposition(|&b| b == b'\n') {
            Some(k) => {
                self.line += front.iter().filter(|&&b| b == b'\n').count() as u64;
                self.column = chars(&front[k + 1..]);
            }
            None => self.column = self.column.saturating_add(chars(&front)),
        }
        self.offset += n as u64;
        self.scanned = self.scanned.saturating_sub(n);
        self.own = self.own.and_then(|o| o.checked_sub(n));
        front
    }

    /// The next container start in `buf` at or after `from`.
    fn find_container(&self, from: usize) -> Option<usize> {
        let mut k = from.min(self.buf.len());
        while let Some(i) = find(&self.buf[k..], MARK) {
            let at = k + i;
            let rest = &self.buf[at + MARK.len()..];
            if rest.starts_with(b"]") || rest.starts_with(b"iFrame]") {
                return Some(at);
            }
            // A mark cut by the end of the buffer is looked at again when more is read.
            if rest.len() < b"iFrame]".len() && b"iFrame]".starts_with(rest) && !self.eof {
                return None;
            }
            k = at + 1;
        }
        None
    }

    fn start(&self) -> ChunkStart {
        ChunkStart {
            line: self.line,
            column: self.column,
            index: self.index,
        }
    }

    /// The next piece, or `None` at the end of the input.
    pub fn next_chunk(&mut self) -> io::Result<Option<DhtmlChunk>> {
        loop {
            // Look for container starts in what was read since the last look.
            let from = self
                .scanned
                .saturating_sub(MARK.len() + 7)
                .max(self.own.map_or(0, |o| o + 1));
            if let Some(p) = self.find_container(from) {
                if self.skipping {
                    self.drop_front(p);
                    self.skipping = false;
                    self.own = Some(0);
                    continue;
                }
                if self.own.is_none() {
                    self.own = Some(p);
                    continue;
                }
                // The second container of the piece starts the next piece.
                let at = self.start();
                let offset = self.offset;
                let bytes = self.drop_front(p);
                self.own = Some(0);
                self.index += 1;
                return Ok(Some(DhtmlChunk {
                    bytes,
                    at,
                    offset,
                    error: None,
                }));
            }
            self.scanned = self.buf.len();
            if self.buf.len() > self.max_bytes && !self.skipping {
                let at = self.start();
                let offset = self.offset;
                self.index += 1;
                self.skipping = true;
                self.own = None;
                let keep = self.buf.len() - (MARK.len() + 7).min(self.buf.len());
                self.drop_front(keep);
                let e = super::limits::too_many_bytes(self.max_bytes).at(at.line, at.column + 1);
                return Ok(Some(DhtmlChunk {
                    bytes: Vec::new(),
                    at,
                    offset,
                    error: Some(e),
                }));
            }
            if self.skipping && self.buf.len() > 1 << 16 {
                let keep = self.buf.len() - (MARK.len() + 7);
                self.drop_front(keep);
            }
            if self.eof {
                if self.buf.is_empty() || self.skipping {
                    return Ok(None);
                }
                let at = self.start();
                let offset = self.offset;
                let bytes = std::mem::take(&mut self.buf);
                self.index += 1;
                return Ok(Some(DhtmlChunk {
                    bytes,
                    at,
                    offset,
                    error: None,
                }));
            }
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                self.eof = true;
                continue;
            }
            let n = chunk.len().min(1 << 16);
            self.buf.extend_from_slice(&chunk[..n]);
            self.reader.consume(n);
        }
    }
}

/// Characters in UTF-8 bytes (other encodings: an estimate, used for columns only).
fn chars(b: &[u8]) -> u32 {
    b.iter().filter(|&&c| (c & 0xC0) != 0x80).count() as u32
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let mut k = 0;
    while let Some(i) = hay[k..].iter().position(|&b| b == first) {
        let at = k + i;
        if hay[at + 1..].starts_with(rest) {
            return Some(at);
        }
        k = at + 1;
    }
    None
}

/// Most undecodable-byte warnings given for one piece.
const MAX_ENCODING_WARNINGS: usize = 8;

impl DhtmlChunk {
    /// Decodes the piece (its encoding detected for it alone) and reads its games.
    pub fn read(self, source: &str) -> Vec<GameEntry> {
        if let Some(e) = self.error {
            return vec![GameEntry::failed(
                source,
                self.at.index,
                Format::Dhtmlxq,
                e.in_source(source).in_game(self.at.index),
            )];
        }
        let enc = encoding::choose_for_text(&self.bytes);
        let (text, bad) = encoding::decode_reporting(&self.bytes, enc);
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        let text = super::walk::percent_decode_if_needed(text);
        let mut games = dhtmlxq::read_str_at(&text, source, self.at);
        if games.is_empty() {
            if self.at.index > 0 || !self.bytes.iter().all(u8::is_ascii_whitespace) {
                games.push(GameEntry::failed(
                    source,
                    self.at.index,
                    Format::Dhtmlxq,
                    RecordError::new(kind::RECORD_SYNTAX, "no DhtmlXQ record found")
                        .in_source(source)
                        .in_game(self.at.index),
                ));
            } else {
                return games;
            }
        }
        let lossy = !bad.is_empty();
        let mut warnings = Vec::new();
        for (n, &at) in bad.iter().enumerate().take(MAX_ENCODING_WARNINGS) {
            let before = &self.bytes[..at];
            let nl = before.iter().filter(|&&b| b == b'\n').count() as u64;
            let ls = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |k| k + 1);
            let col = encoding::decode(&self.bytes[ls..at], enc).0.chars().count() as u32
                + 1
                + if nl == 0 { self.at.column } else { 0 };
            let mut msg = format!(
                "bytes that are not valid {} replaced by U+FFFD (the record's text was read as {})",
                enc.name(),
                enc.name()
            );
            if n + 1 == MAX_ENCODING_WARNINGS && bad.len() > MAX_ENCODING_WARNINGS {
                msg.push_str(&format!(
                    "; {} more places in this record",
                    bad.len() - MAX_ENCODING_WARNINGS
                ));
            }
            warnings.push(
                RecordError::new(kind::ENCODING, msg)
                    .at(self.at.line.max(1) + nl, col)
                    .at_offset(self.offset + at as u64)
                    .in_source(source),
            );
        }
        for g in &mut games {
            g.encoding = Some(enc);
            if let Some(e) = &mut g.error
                && (enc != TextEncoding::Utf8 || lossy)
                && e.kind != super::limits::TOO_LARGE
            {
                e.message = format!(
                    "{} (the record's text was read as {}{})",
                    e.message,
                    enc.name(),
                    if lossy {
                        ", with undecodable bytes replaced"
                    } else {
                        ""
                    }
                );
            }
        }
        if !warnings.is_empty() {
            let g = &mut games[0];
            for w in &mut warnings {
                w.game = g.index;
            }
            warnings.append(&mut g.warnings);
            g.warnings = warnings;
        }
        games
    }
}
