//! CCBridge libraries (CBL) read record by record from a stream: memory is bounded by one record
//! (at most [`super::limits::Limits::max_game_bytes`], 32 MiB by default, plus one 64 KiB read),
//! whatever the size of the library.
//!
//! A library is the magic `CCBridgeLibrary\0`, the slot count at byte 60, an index of 276 bytes a
//! slot after 66,624 bytes, then CBR records on 4,096-byte slot boundaries (see
//! [`super::ccbridge`]). The records are found in two ways:
//!
//! 1. On the slot boundaries after the index: a slot that starts with the CBR magic starts a
//!    record, which runs up to the next such slot or the end of the file (a long record takes
//!    several slots). Slots before the first record are skipped.
//! 2. When no slot there starts a record (a slot count that does not lead to the records, or a
//!    library shorter than its index), by the CBR magic anywhere after the library magic. This
//!    second scan goes back in the input: it is made on files and buffers, whose [`Seek`] can go
//!    back, not on a stream such as standard input (see [`Forward`]), where the library is an
//!    error unless it ends right after its index (an empty library).
//!
//! A library that holds no record and does not end right after its index is cut short: an
//! error (kind `truncated`) at its end, never an empty library. A record over the cap is an
//! error for that record (kind `too_large`, at its offset), and the next record is read.
//! Every error gives the byte offset in the library.

use super::error::{RecordError, kind};
use super::game::{Format, GameEntry};
use std::io::{self, Read, Seek, SeekFrom};

/// Magic of a library.
pub(crate) const CBL_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
/// Magic of a CBR record.
pub(crate) const CBR_MAGIC: &[u8; 16] = b"CCBridge Record\0";
/// Records start on slot boundaries.
const SLOT: usize = 4096;
/// Where the index starts, and the size of one index entry.
const INDEX_START: u64 = 66_624;
const INDEX_ENTRY: u64 = 276;
/// Bytes read at a time by the magic scan.
const CHUNK: usize = 64 << 10;

/// One record of a library, or why it cannot be read.
#[derive(Debug)]
pub enum CblItem {
    /// Record `index` (0-based), at byte `offset` of the library: its bytes, from its magic up to
    /// the next record (slot padding included).
    Record {
        index: usize,
        offset: u64,
        bytes: Vec<u8>,
    },
    /// Record `index` cannot be read (over the cap), or the library cannot be read from there on
    /// (no header, cut short, a read error); a library error ends the iteration.
    Failed { index: usize, error: RecordError },
}

impl CblItem {
    /// The game of this item, as an entry of `source` (the record parsed and replayed; not yet
    /// through [`super::warnings::finish`]).
    pub fn into_entry(self, source: &str) -> GameEntry {
        match self {
            CblItem::Record {
                index,
                offset,
                bytes,
            } => super::ccbridge::record_entry(source, index, offset, &bytes),
            CblItem::Failed { index, error } => {
                GameEntry::failed(source, index, Format::Cbl, error)
            }
        }
    }

    /// The bytes this item holds (for batching).
    pub fn size(&self) -> usize {
        match self {
            CblItem::Record { bytes, .. } => bytes.len(),
            CblItem::Failed { .. } => 64,
        }
    }
}

/// Reads the records of a library one at a time (an iterator of [`CblItem`]s).
pub struct CblReader<R> {
    src: R,
    /// Offset of the next byte read from `src`.
    pos: u64,
    /// The length of the input, once known (at once for a file, at its end for a stream).
    len: Option<u64>,
    state: State,
    /// Records handed out (their next index).
    index: usize,
    /// Whether a record was found.
    found: bool,
    /// The cap on one record.
    max: usize,
    /// Bytes read at a time by the magic scan.
    chunk: usize,
    /// Slot count and end of the index, from the header.
    slots: u64,
    index_end: u64,
    /// The record being read: its offset, its bytes (dropped when over the cap).
    current: Option<Pending>,
    /// The magic scan's bytes not yet handed out, from offset `window_at`.
    window: Vec<u8>,
    window_at: u64,
}

struct Pending {
    offset: u64,
    bytes: Vec<u8>,
    over: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Header,
    Slots,
    Scan,
    Done,
}

impl<R: Read + Seek> CblReader<R> {
    /// A reader of the library `src`, positioned at its start.
    pub fn new(src: R) -> CblReader<R> {
        CblReader {
            src,
            pos: 0,
            len: None,
            state: State::Header,
            index: 0,
            found: false,
            max: super::limits::limits().max_game_bytes,
            chunk: CHUNK,
            slots: 0,
            index_end: 0,
            current: None,
            window: Vec::new(),
            window_at: 0,
        }
    }

    fn fail(&mut self, error: RecordError) -> Option<CblItem> {
        self.state = State::Done;
        Some(CblItem::Failed {
            index: self.index,
            error,
        })
    }

    fn read_error(&mut self, e: io::Error) -> Option<CblItem> {
        let at = self.pos;
        self.fail(RecordError::new(kind::IO, format!("read error: {e}")).at_offset(at))
    }

    /// Reads up to `buf.len()` bytes, fewer only at the end of the input.
    fn read_full(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            match self.src.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.pos += n as u64;
        if n < buf.len() {
            self.len = Some(self.pos);
        }
        Ok(n)
    }

    /// Reads the header and moves to the end of the index.
    fn header(&mut self) -> Result<(), RecordError> {
        let mut head = [0u8; 64];
        let n = self
            .read_full(&mut head)
            .map_err(|e| RecordError::new(kind::IO, format!("read error: {e}")).at_offset(0))?;
        if n < head.len() {
            return Err(RecordError::new(
                kind::TRUNCATED,
                format!("a CBL header is 64 bytes or more, the file has {n}"),
            )
            .at_offset(n as u64));
        }
        if !head.starts_with(CBL_MAGIC) {
            // Without the magic a scan for CBR records would call random bytes an empty library.
            return Err(RecordError::new(
                kind::BAD_HEADER,
                "not a CBL library (no 'CCBridgeLibrary' magic)",
            )
            .at_offset(0));
        }
        self.slots = u64::from(u32::from_le_bytes([head[60], head[61], head[62], head[63]]));
        self.index_end = INDEX_START + self.slots * INDEX_ENTRY;
        let io_err = |e: io::Error| RecordError::new(kind::IO, format!("read error: {e}"));
        // A file tells its length; a stream (Forward) does not.
        if self.len.is_none()
            && let Ok(len) = self.src.seek(SeekFrom::End(0))
        {
            self.len = Some(len);
            self.src.seek(SeekFrom::Start(64)).map_err(io_err)?;
        }
        let target = self.len.map_or(self.index_end, |l| l.min(self.index_end));
        let reached = self.src.seek(SeekFrom::Start(target)).map_err(io_err)?;
        self.pos = reached;
        if reached < self.index_end {
            // (The stream ended on the way.)
            self.len = Some(reached);
        }
        Ok(())
    }

    /// The record being read, handed out.
    fn take_current(&mut self) -> Option<CblItem> {
        let p = self.current.take()?;
        let index = self.index;
        self.index += 1;
        Some(if p.over {
            CblItem::Failed {
                index,
                error: super::limits::too_many_bytes(self.max).at_offset(p.offset),
            }
        } else {
            CblItem::Record {
                index,
                offset: p.offset,
                bytes: p.bytes,
            }
        })
    }

    /// Adds bytes to the record being read, dropping them once it is over the cap.
    fn extend_current(&mut self, bytes: &[u8]) {
        let max = self.max;
        if let Some(p) = self.current.as_mut() {
            if !p.over && p.bytes.len() + bytes.len() > max {
                p.over = true;
                p.bytes = Vec::new();
            }
            if !p.over {
                p.bytes.extend_from_slice(bytes);
            }
        }
    }

    /// The next record on the slot boundaries, `None` at the end.
    fn next_slotted(&mut self) -> io::Result<Option<CblItem>> {
        let mut slot = [0u8; SLOT];
        loop {
            let at = self.pos;
            let n = self.read_full(&mut slot)?;
            if n == 0 {
                return Ok(self.take_current());
            }
            let slot = &slot[..n];
            if slot.starts_with(CBR_MAGIC) {
                self.found = true;
                let done = self.take_current();
                self.current = Some(Pending {
                    offset: at,
                    bytes: Vec::new(),
                    over: false,
                });
                self.extend_current(slot);
                if done.is_some() {
                    return Ok(done);
                }
            } else {
                // (Before the first record: a slot that holds none is skipped.)
                self.extend_current(slot);
            }
        }
    }

    /// The next record found by its magic anywhere, `None` at the end.
    fn next_scanned(&mut self) -> io::Result<Option<CblItem>> {
        let mut chunk = vec![0u8; self.chunk];
        loop {
            let mut window = std::mem::take(&mut self.window);
            if let Some(i) = find(&window, CBR_MAGIC) {
                // The bytes before the magic end the record being read (or are dropped, before
                // the first); the magic opens the next.
                let offset = self.window_at + i as u64;
                self.extend_current(&window[..i]);
                window.drain(..i + CBR_MAGIC.len());
                self.window = window;
                self.window_at = offset + CBR_MAGIC.len() as u64;
                self.found = true;
                let done = self.take_current();
                self.current = Some(Pending {
                    offset,
                    bytes: Vec::new(),
                    over: false,
                });
                self.extend_current(CBR_MAGIC);
                if done.is_some() {
                    return Ok(done);
                }
                continue;
            }
            // No magic: all but a tail that may begin one is settled.
            let settled = window.len().saturating_sub(CBR_MAGIC.len() - 1);
            self.extend_current(&window[..settled]);
            window.drain(..settled);
            self.window_at += settled as u64;
            self.window = window;
            let n = self.read_full(&mut chunk)?;
            if n == 0 {
                let rest = std::mem::take(&mut self.window);
                self.window_at += rest.len() as u64;
                self.extend_current(&rest);
                return Ok(self.take_current());
            }
            self.window.extend_from_slice(&chunk[..n]);
        }
    }

    /// The library holds no record (after both scans, or the first on a stream): an empty
    /// library when it ends right after its index, cut short otherwise.
    fn no_record(&mut self, stream: bool) -> Option<CblItem> {
        let len = self.len.unwrap_or(self.pos);
        if len == self.index_end {
            self.state = State::Done;
            return None;
        }
        let slots = self.slots;
        let index_end = self.index_end;
        let mut message = if len < index_end {
            format!(
                "the library ends inside its index ({slots} slots need {index_end} bytes, the \
                 file has {len})"
            )
        } else {
            format!(
                "no CBR record after the index ({} bytes after it)",
                len - index_end
            )
        };
        if stream {
            message.push_str(
                "; a library whose records are not on the slots after its index is searched \
                 for them only when read from a file, not from a stream",
            );
        }
        self.fail(RecordError::new(kind::TRUNCATED, message).at_offset(len))
    }
}

impl<R: Read + Seek> Iterator for CblReader<R> {
    type Item = CblItem;

    fn next(&mut self) -> Option<CblItem> {
        loop {
            match self.state {
                State::Done => return None,
                State::Header => match self.header() {
                    Ok(()) => self.state = State::Slots,
                    Err(e) => return self.fail(e),
                },
                State::Slots => {
                    let reached_index_end = self.pos >= self.index_end;
                    let next = if reached_index_end {
                        self.next_slotted()
                    } else {
                        Ok(None)
                    };
                    match next {
                        Ok(Some(item)) => return Some(item),
                        Err(e) => return self.read_error(e),
                        Ok(None) if self.found => {
                            self.state = State::Done;
                            return None;
                        }
                        Ok(None) => {
                            // No record on the slots: search the library for them by magic.
                            match self.src.seek(SeekFrom::Start(CBL_MAGIC.len() as u64)) {
                                Ok(at) if at == CBL_MAGIC.len() as u64 => {
                                    self.pos = at;
                                    self.window_at = at;
                                    self.state = State::Scan;
                                }
                                _ => return self.no_record(true),
                            }
                        }
                    }
                }
                State::Scan => match self.next_scanned() {
                    Ok(Some(item)) => return Some(item),
                    Err(e) => return self.read_error(e),
                    Ok(None) if self.found => {
                        self.state = State::Done;
                        return None;
                    }
                    Ok(None) => return self.no_record(false),
                },
            }
        }
    }
}

/// The first position of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let mut k = 0;
    while let Some(i) = hay[k..].iter().position(|&b| b == first) {
        let at = k + i;
        if hay.len() - at < needle.len() {
            return None;
        }
        if hay[at + 1..].starts_with(rest) {
            return Some(at);
        }
        k = at + 1;
    }
    None
}

/// A stream that cannot go back (standard input, a pipe), as a [`Seek`] that goes forward only:
/// seeking ahead reads and drops the bytes in between, and stops at the end of the stream
/// (returning where it stopped, which is before the target when the stream ended). Seeking back,
/// or from the end, is an error (`Unsupported`).
pub struct Forward<R> {
    inner: R,
    pos: u64,
}

impl<R: Read> Forward<R> {
    pub fn new(inner: R) -> Forward<R> {
        Forward { inner, pos: 0 }
    }
}

impl<R: Read> Read for Forward<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read> Seek for Forward<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::Current(d) if d >= 0 => Some(self.pos + d as u64),
            _ => None,
        };
        match target {
            Some(t) if t >= self.pos => {
                let skipped = io::copy(&mut (&mut self.inner).take(t - self.pos), &mut io::sink())?;
                self.pos += skipped;
                Ok(self.pos)
            }
            _ => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a stream cannot be read again from an earlier point",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    const LIB: &str = "tests/data/binary/ccbridge_cbl_cbr_cbf/1989年龙化杯象棋名师邀请赛35局.CBL";

    /// A reader that hands out one byte at a time.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&b, rest)), Some(out)) => {
                    *out = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    fn records<R: Read + Seek>(r: CblReader<R>) -> Vec<(usize, u64, usize, Option<String>)> {
        r.map(|item| match item {
            CblItem::Record {
                index,
                offset,
                bytes,
            } => (index, offset, bytes.len(), None),
            CblItem::Failed { index, error } => (index, error.offset.unwrap(), 0, Some(error.kind)),
        })
        .collect()
    }

    #[test]
    fn slots_and_the_magic_scan_find_the_same_records_from_any_reader() {
        let lib = std::fs::read(LIB).unwrap();
        let want = records(CblReader::new(Cursor::new(&lib)));
        assert_eq!(want.len(), 38);
        assert_eq!(want[0], (0, 101_952, 4096, None));
        assert!(want.iter().all(|r| r.2 == 4096 && r.3.is_none()));
        // A stream handing out one byte at a time.
        assert_eq!(records(CblReader::new(Forward::new(Trickle(&lib)))), want);
        // A slot count that leads nowhere: the magic scan, in reads of 1 to 20 bytes.
        let mut wrong = lib.clone();
        wrong[60..64].copy_from_slice(&7u32.to_le_bytes());
        for chunk in [1, 7, 15, 16, 17, 20, CHUNK] {
            let mut r = CblReader::new(Cursor::new(&wrong));
            r.chunk = chunk;
            assert_eq!(records(r), want, "chunk {chunk}");
        }
        // The same on a stream: it cannot go back, and says so.
        let got = records(CblReader::new(Forward::new(Trickle(&wrong))));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].3.as_deref(), Some(kind::TRUNCATED));
    }

    #[test]
    fn a_record_over_the_cap_is_skipped_in_both_scans() {
        let lib = std::fs::read(LIB).unwrap();
        // Records 0 and 1 joined into one of two slots (record 1 loses its magic).
        let mut joined = lib.clone();
        let second = 101_952 + 4096;
        joined[second..second + 16].fill(0);
        let mut wrong = joined.clone();
        wrong[60..64].copy_from_slice(&7u32.to_le_bytes());
        for bytes in [&joined, &wrong] {
            let mut r = CblReader::new(Cursor::new(bytes));
            r.max = 5000;
            r.chunk = 1000;
            let got = records(r);
            assert_eq!(got.len(), 37);
            assert_eq!(got[0], (0, 101_952, 0, Some("too_large".to_owned())));
            assert_eq!(got[1], (1, 101_952 + 2 * 4096, 4096, None));
        }
    }

    #[test]
    fn an_empty_library_is_one_that_ends_after_its_index() {
        let lib = std::fs::read(LIB).unwrap();
        let mut empty = lib[..101_952].to_vec();
        assert!(records(CblReader::new(Cursor::new(&empty))).is_empty());
        assert!(records(CblReader::new(Forward::new(Trickle(&empty)))).is_empty());
        empty.push(0);
        let got = records(CblReader::new(Cursor::new(&empty)));
        assert_eq!(got, [(0, 101_953, 0, Some(kind::TRUNCATED.to_owned()))]);
        let got = records(CblReader::new(Cursor::new(&lib[..5000])));
        assert_eq!(got, [(0, 5000, 0, Some(kind::TRUNCATED.to_owned()))]);
    }
}
