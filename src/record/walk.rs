//! Finding records on disk, telling their formats apart and reading them, one file or many.
//!
//! * [`detect_format`]: by magic bytes first (XQF `XQ`, `CCBridge Record`, `CCBridgeLibrary`,
//!   CBF XML), then DhtmlXQ markers, then the file extension; anything else textual is PGN.
//! * [`expand_all`] / [`expand`]: files and directories (recursive, sorted; every regular file
//!   is taken and its format told by its content; FIFOs, devices and sockets are skipped, and
//!   refused when named directly), or `-` for standard input.
//! * [`read_path`] / [`read_bytes`]: every game of one source, as [`GameEntry`]s.
//! * [`games`]: every game of some inputs, one at a time on the calling thread (behind
//!   [`super::load_game`]: memory bounded by one game).
//! * [`for_each_game`]: the streaming, parallel driver behind `xqa validate` and `xqa convert`.
//!   PGN and DhtmlXQ sources are cut into games as they are read, CBL libraries into records
//!   ([`super::cbl`]); batches of games (from one or many files) are parsed and replayed on all
//!   cores with rayon, and handed to the callback in input order.
//!   Memory is bounded by the batch size, whatever the size of the files.

use super::cbl::{CblItem, CblReader, Forward};
use super::dhtmlxq_split::{DhtmlChunk, DhtmlSplitter};
use super::encoding;
use super::error::{RecordError, kind};
use super::game::{Format, GameEntry};
use super::pgn::{self, PgnSplitter, RawGame};
use rayon::prelude::*;
use std::fs;
use std::io::{self, BufRead, BufReader, Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One input named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    File(PathBuf),
    Stdin,
}

impl Input {
    /// The name used in reports (`-` for standard input).
    pub fn name(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Stdin => "-".to_owned(),
        }
    }
}

/// Guesses the format of a source from its name and its first bytes.
pub fn detect_format(name: &str, head: &[u8]) -> Option<Format> {
    if head.starts_with(b"XQ") && head.len() >= 3 && head[2] <= 0x12 && !head.starts_with(b"XQ ") {
        return Some(Format::Xqf);
    }
    if head.starts_with(b"CCBridge Record") {
        return Some(Format::Cbr);
    }
    if head.starts_with(b"CCBridgeLibrary") {
        return Some(Format::Cbl);
    }
    let ext = Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let window = &head[..head.len().min(1 << 20)];
    if contains(window, b"<ChineseChessRecord") {
        return Some(Format::Cbf);
    }
    if has_dhtmlxq(window) {
        return Some(Format::Dhtmlxq);
    }
    if super::wxf_file::looks_like_bytes(&window[..window.len().min(4096)]) {
        return Some(Format::Wxf);
    }
    match ext.as_str() {
        "xqf" => Some(Format::Xqf),
        "wxf" => Some(Format::Wxf),
        "cbr" => Some(Format::Cbr),
        "cbl" => Some(Format::Cbl),
        "cbf" => Some(Format::Cbf),
        "pgn" => Some(Format::Pgn),
        _ => {
            // Text with tag pairs or move numbers is PGN; so is a bare move list (a score sheet
            // typed as text), read by the PGN reader's movetext.
            let (text, _) = encoding::decode(window, encoding::detect(window));
            let t = text.trim_start_matches('\u{feff}').trim_start();
            ((t.starts_with('[') || t.starts_with("1.") || t.starts_with('{')) && !is_json(t)
                || is_bare_move_list(t))
            .then_some(Format::Pgn)
        }
    }
}

/// Whether text is a bare move list: its first word is a legal first move from the initial
/// array in Chinese, WXF or ICCS notation (`炮二平五`, `C2.5`, `h2e2`, `H2-E2`).
fn is_bare_move_list(t: &str) -> bool {
    use crate::notation::{Notation, parse_move, sniff};
    let Some(first) = t.split_whitespace().next() else {
        return false;
    };
    matches!(
        sniff(first),
        Some(n @ (Notation::Chinese | Notation::Wxf | Notation::Iccs))
            if parse_move(&crate::Position::start(), first, n).is_ok()
    )
}

/// Whether text that starts like PGN (`[` of a tag pair, `{` of a comment) is JSON instead: an
/// object whose first member name is a quoted string (`{"file": ...`, as each line of a JSON-lines
/// manifest), or an array whose first element is an object, array, string or number. A PGN tag
/// pair starts with a name (`[Event "..."]`), a PGN comment with words.
fn is_json(t: &str) -> bool {
    let after = |open: char| t.strip_prefix(open).map(str::trim_start);
    if let Some(rest) = after('{') {
        let Some(name) = rest.strip_prefix('"') else {
            return false;
        };
        // The member name, then a colon.
        let mut escaped = false;
        for (i, c) in name.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => return name[i + 1..].trim_start().starts_with(':'),
                '\n' => return false,
                _ => escaped = false,
            }
        }
        return false;
    }
    after('[').is_some_and(|rest| {
        rest.starts_with(['{', '[', '"', ']']) || rest.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Whether the bytes hold a DhtmlXQ record: a container (`[DhtmlXQ]`, `[DhtmlXQiFrame]`), a closed
/// field (`[/DhtmlXQ_`), a URL-encoded one (`%5BDhtmlXQ`), or the JavaScript movelist of a dpxq
/// page (`DhtmlXQ_movelist = '...'`). Text that merely names a field, such as a README, is not
/// one. (One pass over the bytes: each `DhtmlXQ` is looked at in its context.)
fn has_dhtmlxq(hay: &[u8]) -> bool {
    const NAME: &[u8] = b"DhtmlXQ";
    let mut k = 0;
    while let Some(i) = find(&hay[k..], NAME) {
        let at = k + i;
        let (before, after) = (&hay[..at], &hay[at + NAME.len()..]);
        let assigned = || {
            after
                .strip_prefix(b"_movelist".as_slice())
                .is_some_and(|rest| {
                    let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
                    rest.get(skip) == Some(&b'=')
                })
        };
        if (before.ends_with(b"[") && (after.starts_with(b"]") || after.starts_with(b"iFrame]")))
            || (before.ends_with(b"[/") && after.starts_with(b"_"))
            || before.ends_with(b"%5B")
            || assigned()
        {
            return true;
        }
        k = at + 1;
    }
    false
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    find(hay, needle).is_some()
}

/// The offset of the first occurrence of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let Some((&first, rest)) = needle.split_first() else {
        return Some(0);
    };
    let mut k = 0;
    while let Some(i) = hay[k..].iter().position(|&b| b == first) {
        let at = k + i + 1;
        if hay[at..].starts_with(rest) {
            return Some(at - 1);
        }
        k = at;
    }
    None
}

/// Kind of the remark for a directory entry that is not a regular file (FIFO, device, socket).
pub const SKIPPED: &str = "skipped";

/// What [`expand_all`] found.
#[derive(Debug, Default)]
pub struct Expanded {
    /// The files to read, in order.
    pub inputs: Vec<Input>,
    /// Paths that cannot be read: missing, or named on the command line while not a regular file
    /// (a FIFO or a device would block or never end); kind `io`.
    pub errors: Vec<RecordError>,
    /// Entries of a directory that are not regular files, skipped (kind [`SKIPPED`]).
    pub skipped: Vec<RecordError>,
}

/// Expands paths into inputs: files as given, directories recursively (sorted; every regular
/// file is taken, its format is told by its content), `-` as standard input. Paths that do not
/// exist, or that name a FIFO, device or socket, are errors; such entries inside a directory are
/// skipped with a remark.
pub fn expand_all(paths: &[PathBuf]) -> Expanded {
    let mut x = Expanded::default();
    for p in paths {
        if p.as_os_str() == "-" {
            x.inputs.push(Input::Stdin);
            continue;
        }
        match fs::metadata(p) {
            Ok(m) if m.is_dir() => walk_dir(p, &mut x, &mut Default::default()),
            Ok(m) if m.is_file() => x.inputs.push(Input::File(p.clone())),
            Ok(m) => x.errors.push(
                RecordError::new(
                    kind::IO,
                    format!(
                        "not a regular file ({}): refused, as it could block or never end; \
                         use '-' to read a stream from standard input",
                        file_kind(&m.file_type())
                    ),
                )
                .in_source(&p.display().to_string()),
            ),
            Err(e) => x.errors.push(
                RecordError::new(
                    kind::IO,
                    if e.kind() == io::ErrorKind::NotFound {
                        "no such file or directory".to_owned()
                    } else {
                        format!("cannot read: {e}")
                    },
                )
                .in_source(&p.display().to_string()),
            ),
        }
    }
    x
}

/// [`expand_all`] with the skipped directory entries listed among the errors (kind
/// [`SKIPPED`], so that a caller counting I/O errors by kind does not count them).
pub fn expand(paths: &[PathBuf]) -> (Vec<Input>, Vec<RecordError>) {
    let mut x = expand_all(paths);
    x.errors.append(&mut x.skipped);
    (x.inputs, x.errors)
}

/// What a special file is, in words.
fn file_kind(t: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    let _ = t;
    "not a file or directory"
}

/// Adds the regular files below `dir`, recursively. Each directory is entered once, by its
/// canonical path, so symbolic-link loops are not followed.
fn walk_dir(dir: &Path, x: &mut Expanded, visited: &mut std::collections::HashSet<PathBuf>) {
    if let Ok(real) = fs::canonicalize(dir)
        && !visited.insert(real)
    {
        return;
    }
    let mut entries: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            x.errors.push(
                RecordError::new(kind::IO, format!("cannot read directory: {e}"))
                    .in_source(&dir.display().to_string()),
            );
            return;
        }
    };
    entries.sort();
    for p in entries {
        // (Following symbolic links: a link to a record is read, a link to a device is not.)
        match fs::metadata(&p) {
            Ok(m) if m.is_dir() => walk_dir(&p, x, visited),
            Ok(m) if m.is_file() => x.inputs.push(Input::File(p)),
            Ok(m) => x.skipped.push(
                RecordError::new(
                    SKIPPED,
                    format!(
                        "skipped: not a regular file ({})",
                        file_kind(&m.file_type())
                    ),
                )
                .in_source(&p.display().to_string()),
            ),
            Err(e) => x.skipped.push(
                RecordError::new(SKIPPED, format!("skipped: cannot read: {e}"))
                    .in_source(&p.display().to_string()),
            ),
        }
    }
}

/// Reads the games of a whole in-memory source of the given (or detected) format.
pub fn read_bytes(source: &str, bytes: &[u8], format: Option<Format>) -> Vec<GameEntry> {
    let format = match format.or_else(|| detect_format(source, bytes)) {
        Some(f) => f,
        None => {
            return vec![GameEntry::failed(
                source,
                0,
                Format::Pgn,
                RecordError::new(
                    kind::UNKNOWN_FORMAT,
                    "not a game record in any known format",
                ),
            )];
        }
    };
    let mut games = read_format(source, bytes, format);
    if matches!(
        format,
        Format::Xqf | Format::Cbr | Format::Cbl | Format::Cbf
    ) {
        // (The text readers run these checks on each game themselves.)
        for g in &mut games {
            super::warnings::finish(g);
        }
    }
    games
}

fn read_format(source: &str, bytes: &[u8], format: Format) -> Vec<GameEntry> {
    match format {
        Format::Pgn => pgn::PgnReader::new(bytes, source).collect(),
        Format::Dhtmlxq => {
            let mut splitter = DhtmlSplitter::new(bytes);
            let mut games = Vec::new();
            while let Ok(Some(chunk)) = splitter.next_chunk() {
                games.extend(chunk.read(source));
            }
            if games.is_empty() {
                games.push(GameEntry::failed(
                    source,
                    0,
                    Format::Dhtmlxq,
                    RecordError::new(kind::RECORD_SYNTAX, "no DhtmlXQ record found"),
                ));
            }
            games
        }
        Format::Wxf => super::wxf_file::read_bytes(source, bytes),
        Format::Xqf | Format::Cbr | Format::Cbl | Format::Cbf => read_binary(source, bytes, format),
    }
}

/// The binary formats (XQF, CCBridge): dispatched to their readers.
fn read_binary(source: &str, bytes: &[u8], format: Format) -> Vec<GameEntry> {
    match super::ccbridge::CcbridgeKind::from_format(format) {
        Some(kind) => super::ccbridge::read_kind(bytes, kind, source),
        None => vec![super::xqf::read_entry(bytes, source)],
    }
}

/// Undoes URL encoding of a DhtmlXQ record embedded in a link (`%5BDhtmlXQ_...`).
pub(crate) fn percent_decode_if_needed(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains("[DhtmlXQ") || !text.contains("%5BDhtmlXQ") {
        return std::borrow::Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        // (Bytes, not a str slice: a '%' may be followed by a multi-byte character.)
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(hi), Some(lo)) = (hex_digit(b[i + 1]), hex_digit(b[i + 2]))
        {
            out.push(hi << 4 | lo);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    std::borrow::Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// The value of one ASCII hex digit.
fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// Reads every game of one file (`-`: standard input). A path that is not a regular file (a FIFO,
/// a device) is refused, as it could block or never end.
pub fn read_path(path: &Path) -> Vec<GameEntry> {
    games(&[input_of(path)]).collect()
}

/// The input a path names (`-` is standard input).
pub fn input_of(path: &Path) -> Input {
    if path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(path.to_owned())
    }
}

/// Every game of the inputs in order, read one at a time on the calling thread: memory stays
/// bounded by one game (one record of a binary library) whatever the size of the files, and a
/// caller that wants one game can stop there.
pub fn games(inputs: &[Input]) -> impl Iterator<Item = GameEntry> + '_ {
    Units::new(inputs).flat_map(Unit::process)
}

/// A piece of work for the parallel driver.
enum Unit {
    Pgn(Arc<str>, RawGame),
    Dhtml(Arc<str>, DhtmlChunk),
    Whole(Arc<str>, Format, Vec<u8>),
    /// One record of a CBL library, read from it one at a time.
    Cbl(Arc<str>, CblItem),
    Failed(Box<GameEntry>),
}

impl Unit {
    fn boxed(source: &str, index: usize, format: Format, e: RecordError) -> Box<GameEntry> {
        Box::new(GameEntry::failed(source, index, format, e))
    }

    fn size(&self) -> usize {
        match self {
            Unit::Pgn(_, r) => r.text.len(),
            Unit::Dhtml(_, c) => c.bytes.len(),
            Unit::Whole(_, _, b) => b.len(),
            Unit::Cbl(_, item) => item.size(),
            Unit::Failed(_) => 64,
        }
    }

    /// A failure that should reach the caller at once (a game over the cap, on a stream that may
    /// never end).
    fn urgent(&self) -> bool {
        match self {
            Unit::Pgn(_, r) => r.error.is_some(),
            Unit::Dhtml(_, c) => c.error.is_some(),
            Unit::Failed(_) | Unit::Cbl(_, CblItem::Failed { .. }) => true,
            _ => false,
        }
    }

    fn process(self) -> Vec<GameEntry> {
        match self {
            Unit::Pgn(src, raw) => vec![pgn::parse_raw(&raw, &src)],
            Unit::Dhtml(src, chunk) => chunk.read(&src),
            Unit::Whole(src, f, bytes) => read_bytes(&src, &bytes, Some(f)),
            Unit::Cbl(src, item) => {
                // (As `read_bytes` does for the binary formats.)
                let mut e = item.into_entry(&src);
                super::warnings::finish(&mut e);
                vec![e]
            }
            Unit::Failed(e) => vec![*e],
        }
    }
}

type DynRead<'a> = Box<dyn BufRead + 'a>;

/// A source a CBL library is read from: a file, or standard input behind [`Forward`].
trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

/// The source being read, one unit at a time.
enum Current<'a> {
    Pgn(PgnSplitter<DynRead<'a>>),
    Dhtml(DhtmlSplitter<DynRead<'a>>),
    Cbl(CblReader<Box<dyn ReadSeek + 'a>>),
}

/// Produces units from the inputs, one file at a time, streaming PGN and DhtmlXQ.
struct Units<'a> {
    inputs: std::slice::Iter<'a, Input>,
    current: Option<(Arc<str>, Current<'a>)>,
}

impl<'a> Units<'a> {
    fn new(inputs: &'a [Input]) -> Units<'a> {
        Units {
            inputs: inputs.iter(),
            current: None,
        }
    }

    /// The next unit of the current source, or `None` when it is done.
    fn next_of_current(&mut self) -> Option<Unit> {
        let (src, cur) = self.current.as_mut()?;
        let src = src.clone();
        let read_error = |e: io::Error, f: Format| {
            Unit::Failed(Unit::boxed(
                &src,
                0,
                f,
                RecordError::new(kind::IO, format!("read error: {e}")),
            ))
        };
        let unit = match cur {
            Current::Pgn(s) => match s.next_game() {
                Ok(Some(raw)) => Some(Unit::Pgn(src.clone(), raw)),
                Ok(None) => None,
                Err(e) => {
                    self.current = None;
                    return Some(read_error(e, Format::Pgn));
                }
            },
            Current::Dhtml(s) => match s.next_chunk() {
                Ok(Some(c)) => Some(Unit::Dhtml(src.clone(), c)),
                Ok(None) => None,
                Err(e) => {
                    self.current = None;
                    return Some(read_error(e, Format::Dhtmlxq));
                }
            },
            Current::Cbl(r) => r.next().map(|item| Unit::Cbl(src.clone(), item)),
        };
        if unit.is_none() {
            self.current = None;
        }
        unit
    }
}

/// An opened input.
enum Opened {
    File(BufReader<fs::File>),
    Stdin(BufReader<io::Stdin>),
}

impl Opened {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Opened::File(r) => r.fill_buf(),
            Opened::Stdin(r) => r.fill_buf(),
        }
    }

    /// As a text reader.
    fn text<'a>(self) -> DynRead<'a> {
        match self {
            Opened::File(r) => Box::new(r),
            Opened::Stdin(r) => Box::new(r),
        }
    }

    /// As a reader that can seek (forward only on standard input).
    fn seekable<'a>(self) -> Box<dyn ReadSeek + 'a> {
        match self {
            Opened::File(r) => Box::new(r),
            Opened::Stdin(r) => Box::new(Forward::new(r)),
        }
    }
}

/// Opens an input, refusing what is not a regular file.
fn open(input: &Input) -> io::Result<Opened> {
    match input {
        Input::File(p) => {
            // (Looked at before opening: opening a FIFO blocks until something writes to it.)
            let m = fs::metadata(p)?;
            let f = if m.is_file() {
                fs::File::open(p)?
            } else {
                return Err(io::Error::other(format!(
                    "not a regular file ({}): refused, as it could block or never end; use '-' \
                     to read a stream from standard input",
                    file_kind(&m.file_type())
                )));
            };
            let m = f.metadata()?;
            if !m.is_file() {
                return Err(io::Error::other(format!(
                    "not a regular file ({}): refused, as it could block or never end; use '-' \
                     to read a stream from standard input",
                    file_kind(&m.file_type())
                )));
            }
            Ok(Opened::File(BufReader::with_capacity(1 << 16, f)))
        }
        Input::Stdin => Ok(Opened::Stdin(BufReader::with_capacity(
            1 << 16,
            io::stdin(),
        ))),
    }
}

/// Reads at most `max + 1` bytes: more than `max` means the source is over the cap.
fn read_capped(reader: &mut dyn Read, max: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(max.saturating_add(1) as u64)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

impl Iterator for Units<'_> {
    type Item = Unit;
    fn next(&mut self) -> Option<Unit> {
        loop {
            if self.current.is_some() {
                if let Some(u) = self.next_of_current() {
                    return Some(u);
                }
                continue;
            }
            let input = self.inputs.next()?;
            let name: Arc<str> = Arc::from(input.name());
            let failed = |f: Format, k: &str, msg: String| {
                Some(Unit::Failed(Unit::boxed(
                    &name,
                    0,
                    f,
                    RecordError::new(k, msg),
                )))
            };
            let mut reader = match open(input) {
                Ok(r) => r,
                Err(e) => return failed(Format::Pgn, kind::IO, format!("cannot open: {e}")),
            };
            let head = match reader.fill_buf() {
                Ok(h) => h.to_vec(),
                Err(e) => return failed(Format::Pgn, kind::IO, format!("read error: {e}")),
            };
            match detect_format(&name, &head) {
                Some(Format::Pgn) => {
                    self.current = Some((name, Current::Pgn(PgnSplitter::new(reader.text()))));
                }
                Some(Format::Dhtmlxq) => {
                    self.current = Some((name, Current::Dhtml(DhtmlSplitter::new(reader.text()))));
                }
                Some(Format::Cbl) => {
                    self.current = Some((name, Current::Cbl(CblReader::new(reader.seekable()))));
                }
                Some(f) => {
                    let max = super::limits::limits().max_game_bytes;
                    let mut reader = reader.text();
                    return Some(match read_capped(&mut reader, max) {
                        Ok(b) if b.len() > max => Unit::Failed(Unit::boxed(
                            &name,
                            0,
                            f,
                            super::limits::too_many_bytes(max).at_offset(max as u64),
                        )),
                        Ok(b) => Unit::Whole(name, f, b),
                        Err(e) => Unit::Failed(Unit::boxed(
                            &name,
                            0,
                            f,
                            RecordError::new(kind::IO, format!("read error: {e}")),
                        )),
                    });
                }
                None => {
                    return failed(
                        Format::Pgn,
                        kind::UNKNOWN_FORMAT,
                        "not a game record in any known format".to_owned(),
                    );
                }
            }
        }
    }
}

/// Games per parallel batch, and bytes per batch: the memory bound of [`for_each_game`].
pub const BATCH_GAMES: usize = 1024;
pub const BATCH_BYTES: usize = 16 << 20;

/// Reads every game of the inputs in order, parsing and replaying them in parallel batches on
/// the current rayon pool, and calls `f` with each game in input order.
pub fn for_each_game(inputs: &[Input], mut f: impl FnMut(GameEntry)) {
    for_each_game_while(inputs, |e| {
        f(e);
        true
    });
}

/// [`for_each_game`] until `f` returns false: reading stops after the batch of that game, so a
/// caller that is interrupted or closed does not read the rest of a large file.
pub fn for_each_game_while(inputs: &[Input], mut f: impl FnMut(GameEntry) -> bool) {
    let mut units = Units::new(inputs);
    loop {
        let mut batch = Vec::with_capacity(BATCH_GAMES);
        let mut bytes = 0;
        for u in units.by_ref() {
            bytes += u.size();
            let urgent = u.urgent();
            batch.push(u);
            if urgent || batch.len() >= BATCH_GAMES || bytes >= BATCH_BYTES {
                break;
            }
        }
        if batch.is_empty() {
            return;
        }
        let done: Vec<Vec<GameEntry>> = batch.into_par_iter().map(Unit::process).collect();
        for e in done.into_iter().flatten() {
            if !f(e) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dhtmlxq_markers_in_one_pass() {
        // As the markers were looked for one by one.
        let one_by_one = |h: &[u8]| {
            let movelist = h.windows(16).enumerate().any(|(k, w)| {
                w == b"DhtmlXQ_movelist" && {
                    let rest = &h[k + 16..];
                    let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
                    rest.get(skip) == Some(&b'=')
                }
            });
            contains(h, b"[DhtmlXQ]")
                || contains(h, b"[DhtmlXQiFrame]")
                || contains(h, b"[/DhtmlXQ_")
                || contains(h, b"%5BDhtmlXQ")
                || movelist
        };
        for h in [
            &b"<p>[DhtmlXQ]"[..],
            b"[DhtmlXQiFrame]",
            b"x [/DhtmlXQ_movelist]",
            b"%5BDhtmlXQ_title",
            b"var DhtmlXQ_movelist = '77';",
            b"DhtmlXQ_movelist\n\t='",
            b"the [DhtmlXQ_title] field, DhtmlXQ_movelist: names",
            b"[DhtmlXQ [DhtmlXQi DhtmlXQ_movelis",
            b"DhtmlXQ",
            b"",
        ] {
            assert_eq!(
                has_dhtmlxq(h),
                one_by_one(h),
                "{}",
                String::from_utf8_lossy(h)
            );
        }
    }

    #[test]
    fn formats_by_magic_and_content() {
        assert_eq!(detect_format("a.bin", b"XQ\x0a\x00"), Some(Format::Xqf));
        assert_eq!(
            detect_format("a", b"CCBridge Record\0..."),
            Some(Format::Cbr)
        );
        assert_eq!(
            detect_format("a.txt", "<p>[DhtmlXQ]".as_bytes()),
            Some(Format::Dhtmlxq)
        );
        assert_eq!(
            detect_format("a.htm", b"<script>var DhtmlXQ_movelist = '7747';</script>"),
            Some(Format::Dhtmlxq)
        );
        assert_eq!(
            detect_format("a.txt", b"[Event \"x\"]\n1. h2e2"),
            Some(Format::Pgn)
        );
        assert_eq!(detect_format("notes.txt", b"hello"), None);
    }

    #[test]
    fn json_is_no_game_record() {
        // A JSON-lines manifest of a folder of records (each line an object), and JSON arrays.
        let manifest =
            b"{\"file\": \"a.xqf\", \"tags\": {\"Red\": \"x\"}}\n{\"file\": \"b.pgn\"}\n";
        assert_eq!(detect_format("manifest.jsonl", manifest), None);
        assert_eq!(detect_format("<bytes>", b"  {\n  \"a\\\"b\" : 1}"), None);
        assert_eq!(detect_format("list.json", b"[{\"a\": 1}]"), None);
        assert_eq!(detect_format("list.json", b"[\n  1, 2]"), None);
        // PGN that starts with a comment or a tag pair is still PGN.
        assert_eq!(
            detect_format("a.txt", b"{A game from 1989} 1. h2e2 h9g7 *"),
            Some(Format::Pgn)
        );
        assert_eq!(
            detect_format("a.txt", b"{\"quoted\" words} 1. h2e2 *"),
            Some(Format::Pgn)
        );
        assert_eq!(
            detect_format("a", b"[Event \"x\"]\n1. h2e2"),
            Some(Format::Pgn)
        );
        // The extension still wins: a .pgn file is read as PGN whatever it holds.
        assert_eq!(detect_format("a.pgn", manifest), Some(Format::Pgn));
    }

    #[test]
    fn percent_encoded_dhtmlxq() {
        let t = "x=%5BDhtmlXQ_movelist%5D7747%5B%2FDhtmlXQ_movelist%5D";
        let d = percent_decode_if_needed(t);
        assert!(d.contains("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"));
    }
}
