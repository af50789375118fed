//! Finding records on disk, telling their formats apart and reading them, one file or many.
//!
//! * [`detect_format`]: by magic bytes first (XQF `XQ`, `CCBridge Record`, `CCBridgeLibrary`,
//!   CBF XML), then DhtmlXQ markers, then the file extension; anything else textual is PGN.
//! * [`expand`]: files and directories (recursive, sorted; inside directories only files with a
//!   record extension are taken), or `-` for standard input.
//! * [`read_path`] / [`read_bytes`]: every game of one source, as [`GameEntry`]s.
//! * [`for_each_game`]: the streaming, parallel driver behind `xqa validate` and `xqa convert`.
//!   PGN sources are cut into games as they are read; batches of games (from one or many files)
//!   are parsed and replayed on all cores with rayon, and handed to the callback in input order.
//!   Memory is bounded by the batch size, whatever the size of the files.

use super::dhtmlxq;
use super::encoding;
use super::error::{RecordError, kind};
use super::game::{Format, GameEntry};
use super::pgn::{self, PgnSplitter, RawGame};
use rayon::prelude::*;
use std::fs;
use std::io::{self, BufRead, BufReader, Read};
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

/// File extensions taken when walking a directory.
const RECORD_EXTENSIONS: &[&str] = &[
    "pgn", "xqf", "cbr", "cbl", "cbf", "html", "htm", "txt", "ubb", "dhtmlxq", "wxf",
];

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
    if contains(window, b"[DhtmlXQ")
        || contains(window, b"%5BDhtmlXQ")
        || contains(window, b"DhtmlXQ_movelist")
    {
        return Some(Format::Dhtmlxq);
    }
    if super::wxf_file::looks_like(&String::from_utf8_lossy(&window[..window.len().min(4096)])) {
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
            // Text with tag pairs or move numbers is PGN.
            let (text, _) = encoding::decode(window, encoding::detect(window));
            let t = text.trim_start();
            (t.starts_with('[') || t.starts_with("1.") || t.starts_with('{')).then_some(Format::Pgn)
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut k = 0;
    while let Some(i) = hay[k..].iter().position(|&b| b == first) {
        let at = k + i + 1;
        if hay[at..].starts_with(rest) {
            return true;
        }
        k = at;
    }
    false
}

/// Expands paths into inputs: files as given, directories recursively (sorted, record extensions
/// only), `-` as standard input. Paths that do not exist are returned as errors.
pub fn expand(paths: &[PathBuf]) -> (Vec<Input>, Vec<RecordError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            inputs.push(Input::Stdin);
        } else if p.is_dir() {
            walk_dir(p, &mut inputs, &mut errors, &mut Default::default());
        } else if p.exists() {
            inputs.push(Input::File(p.clone()));
        } else {
            errors.push(
                RecordError::new(kind::IO, "no such file or directory")
                    .in_source(&p.display().to_string()),
            );
        }
    }
    (inputs, errors)
}

/// Adds the files below `dir`, recursively. Each directory is entered once, by its canonical
/// path, so symbolic-link loops are not followed.
fn walk_dir(
    dir: &Path,
    inputs: &mut Vec<Input>,
    errors: &mut Vec<RecordError>,
    visited: &mut std::collections::HashSet<PathBuf>,
) {
    if let Ok(real) = fs::canonicalize(dir)
        && !visited.insert(real)
    {
        return;
    }
    let mut entries: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            errors.push(
                RecordError::new(kind::IO, format!("cannot read directory: {e}"))
                    .in_source(&dir.display().to_string()),
            );
            return;
        }
    };
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk_dir(&p, inputs, errors, visited);
        } else {
            let ext = p
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase)
                .unwrap_or_default();
            if RECORD_EXTENSIONS.contains(&ext.as_str()) {
                inputs.push(Input::File(p));
            }
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
            let enc = encoding::detect(bytes);
            let (text, _) = encoding::decode(bytes, enc);
            let text = percent_decode_if_needed(&text);
            let mut games = dhtmlxq::read_str(&text, source);
            for g in &mut games {
                g.encoding = Some(enc);
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
fn percent_decode_if_needed(text: &str) -> std::borrow::Cow<'_, str> {
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

/// Reads every game of one file.
pub fn read_path(path: &Path) -> Vec<GameEntry> {
    let name = path.display().to_string();
    match fs::read(path) {
        Ok(bytes) => read_bytes(&name, &bytes, None),
        Err(e) => vec![GameEntry::failed(
            &name,
            0,
            Format::Pgn,
            RecordError::new(kind::IO, format!("cannot read: {e}")),
        )],
    }
}

/// A piece of work for the parallel driver.
enum Unit {
    Pgn(Arc<str>, RawGame),
    Whole(Arc<str>, Format, Vec<u8>),
    Failed(Box<GameEntry>),
}

impl Unit {
    fn boxed(source: &str, index: usize, format: Format, e: RecordError) -> Box<GameEntry> {
        Box::new(GameEntry::failed(source, index, format, e))
    }

    fn size(&self) -> usize {
        match self {
            Unit::Pgn(_, r) => r.text.len(),
            Unit::Whole(_, _, b) => b.len(),
            Unit::Failed(_) => 64,
        }
    }

    fn process(self) -> Vec<GameEntry> {
        match self {
            Unit::Pgn(src, raw) => vec![pgn::parse_raw(&raw, &src)],
            Unit::Whole(src, f, bytes) => read_bytes(&src, &bytes, Some(f)),
            Unit::Failed(e) => vec![*e],
        }
    }
}

type DynRead<'a> = Box<dyn BufRead + 'a>;

/// Produces units from the inputs, one file at a time, streaming PGN.
struct Units<'a> {
    inputs: std::slice::Iter<'a, Input>,
    current: Option<(Arc<str>, PgnSplitter<DynRead<'a>>)>,
}

impl Iterator for Units<'_> {
    type Item = Unit;
    fn next(&mut self) -> Option<Unit> {
        loop {
            if let Some((src, splitter)) = &mut self.current {
                match splitter.next_game() {
                    Ok(Some(raw)) => return Some(Unit::Pgn(src.clone(), raw)),
                    Ok(None) => self.current = None,
                    Err(e) => {
                        let src = src.clone();
                        self.current = None;
                        return Some(Unit::Failed(Unit::boxed(
                            &src,
                            0,
                            Format::Pgn,
                            RecordError::new(kind::IO, format!("read error: {e}")),
                        )));
                    }
                }
            }
            let input = self.inputs.next()?;
            let name: Arc<str> = Arc::from(input.name());
            let reader: io::Result<Box<dyn BufRead>> = match input {
                Input::File(p) => fs::File::open(p)
                    .map(|f| Box::new(BufReader::with_capacity(1 << 16, f)) as Box<dyn BufRead>),
                Input::Stdin => Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin()))),
            };
            let mut reader = match reader {
                Ok(r) => r,
                Err(e) => {
                    return Some(Unit::Failed(Unit::boxed(
                        &name,
                        0,
                        Format::Pgn,
                        RecordError::new(kind::IO, format!("cannot open: {e}")),
                    )));
                }
            };
            let head = match reader.fill_buf() {
                Ok(h) => h.to_vec(),
                Err(e) => {
                    return Some(Unit::Failed(Unit::boxed(
                        &name,
                        0,
                        Format::Pgn,
                        RecordError::new(kind::IO, format!("read error: {e}")),
                    )));
                }
            };
            match detect_format(&name, &head) {
                Some(Format::Pgn) => {
                    self.current = Some((name, PgnSplitter::new(reader)));
                }
                Some(f) => {
                    let mut bytes = Vec::new();
                    return Some(match reader.read_to_end(&mut bytes) {
                        Ok(_) => Unit::Whole(name, f, bytes),
                        Err(e) => Unit::Failed(Unit::boxed(
                            &name,
                            0,
                            f,
                            RecordError::new(kind::IO, format!("read error: {e}")),
                        )),
                    });
                }
                None => {
                    return Some(Unit::Failed(Unit::boxed(
                        &name,
                        0,
                        Format::Pgn,
                        RecordError::new(
                            kind::UNKNOWN_FORMAT,
                            "not a game record in any known format",
                        ),
                    )));
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
    let mut units = Units {
        inputs: inputs.iter(),
        current: None,
    };
    loop {
        let mut batch = Vec::with_capacity(BATCH_GAMES);
        let mut bytes = 0;
        for u in units.by_ref() {
            bytes += u.size();
            batch.push(u);
            if batch.len() >= BATCH_GAMES || bytes >= BATCH_BYTES {
                break;
            }
        }
        if batch.is_empty() {
            return;
        }
        let done: Vec<Vec<GameEntry>> = batch.into_par_iter().map(Unit::process).collect();
        for e in done.into_iter().flatten() {
            f(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn percent_encoded_dhtmlxq() {
        let t = "x=%5BDhtmlXQ_movelist%5D7747%5B%2FDhtmlXQ_movelist%5D";
        let d = percent_decode_if_needed(t);
        assert!(d.contains("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"));
    }
}
