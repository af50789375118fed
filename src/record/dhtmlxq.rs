//! DhtmlXQ / UBB records (东萍 dpxq.com, wxf.ca, 象棋桥 "UBB" export): reader and writer.
//!
//! A record is a run of `[DhtmlXQ_<name>]value[/DhtmlXQ_<name>]` fields, normally inside
//! `[DhtmlXQ]...[/DhtmlXQ]` or `[DhtmlXQiFrame]...[/DhtmlXQiFrame]`, and often embedded in an HTML
//! page; every block of a text is one game. Fields:
//! * `binit`: 32 piece squares (`xy`, x from the left, y from the **top**, `99` = absent) in the
//!   order Red 车马相仕帅仕相马车炮炮兵兵兵兵兵 then Black; `fen` (takes priority) for the start.
//! * `movelist`: `x1y1x2y2` per move. The side to move is the owner of the first moving piece.
//! * `move_<parent>_<ply>_<n>`: branch `n`, whose first move replaces move `<ply>` (1-based,
//!   counted from the start of the game) of branch `<parent>` (0 = the main line).
//! * `comment<ply>` (main line; `comment0` comes before the first move) and
//!   `comment<branch>_<ply>`; `||` is a line break and `\uXXXX` escapes are decoded.
//! * Everything else becomes a tag: `title` → `Title`, `event` → `Event`, `date` → `Date`,
//!   `place` → `Site`, `round` → `Round`, `red` → `Red`, `redteam` → `RedTeam`, `black` → `Black`,
//!   `blackteam` → `BlackTeam`, `result` → `Result` (also parsed into the game result: 红胜 /
//!   黑胜 / 和棋 and the PGN tokens), `open` → `Opening`; unknown fields keep their own name.
//!
//! The writer produces the same fields (tags without a DhtmlXQ name are written under their own
//! name and read back as such; the start as `binit` plus `fen` when it is not the standard one;
//! the text after the result as `trailing_text`). DhtmlXQ has no NAGs and one comment per move:
//! several comments of one move are joined with line breaks, and NAGs are not written.

use super::error::{RecordError, kind};
use super::game::{Format, Game, GameEntry, GameResult, Line, MoveNode, SourcePos};
use super::limits::MAX_NESTING;
use super::notation::{self, Notation};
use crate::position::Position;
use crate::setup::Setup;
use crate::types::{Color, Move, Piece, Role, Square};
use std::collections::{BTreeMap, BTreeSet};

/// Field name ↔ tag name pairs.
const TAG_NAMES: &[(&str, &str)] = &[
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("table", "Table"),
    ("red", "Red"),
    ("redteam", "RedTeam"),
    ("redrating", "RedRating"),
    ("redtime", "RedTime"),
    ("black", "Black"),
    ("blackteam", "BlackTeam"),
    ("blackrating", "BlackRating"),
    ("blacktime", "BlackTime"),
    ("result", "Result"),
    ("open", "Opening"),
    ("timerule", "TimeControl"),
    ("owner", "Owner"),
    ("remark", "Remark"),
    ("author", "Author"),
];

/// Fields that configure the DhtmlXQ web viewer (applet size, preview, display format, move
/// numbering): not tags of the game.
const VIEWER_FIELDS: &[&str] = &["init", "gamepreview", "format", "firstnum", "length", "ver"];

/// The roles of the 16 binit entries of one side: the same order as the XQF piece table.
use super::xqf::TABLE_ROLES as BINIT_ROLES;

/// Whether the text holds a DhtmlXQ record.
pub fn looks_like(text: &str) -> bool {
    text.contains("[DhtmlXQ") || text.contains(JS_MOVELIST)
}

/// The JavaScript variable in which dpxq pages carry the moves (the `[DhtmlXQ_movelist]` tag of
/// their hidden div is then empty): `var DhtmlXQ_movelist = '...'` holding either the nested form
/// `[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]`, the segmented form
/// `[0_1_0]<main line>[/0_1_0][0_4_1]<branch>[/0_4_1]...` (`[p_k_n]` = `DhtmlXQ_move_p_k_n`,
/// `0_1_0` = the main line), or bare move digits.
const JS_MOVELIST: &str = "DhtmlXQ_movelist";

/// The quoted values of `DhtmlXQ_movelist = '...'` assignments: (start, end) byte ranges.
fn js_movelists(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut k = 0;
    // Quote characters that do not occur again in the rest of the text (no rescan for them).
    let mut unclosed: [bool; 2] = [false; 2];
    while let Some(i) = text[k..].find(JS_MOVELIST) {
        let after = k + i + JS_MOVELIST.len();
        k = after;
        if text[..after - JS_MOVELIST.len()].ends_with('[')
            || text[..after - JS_MOVELIST.len()].ends_with("[/")
        {
            continue; // a tag, not a variable
        }
        let rest = text[after..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(quote) = rest.chars().next().filter(|c| matches!(c, '\'' | '"')) else {
            continue;
        };
        let vstart = text.len() - rest.len() + 1;
        let q = usize::from(quote == '"');
        if unclosed[q] {
            continue;
        }
        let Some(len) = text[vstart..].find(quote) else {
            unclosed[q] = true;
            continue;
        };
        out.push((vstart, vstart + len));
        k = vstart + len;
    }
    out
}

/// The fields of one JavaScript movelist value.
fn js_fields(text: &str, start: usize, end: usize) -> Vec<Field<'_>> {
    let v = &text[start..end];
    if v.contains("[DhtmlXQ_") {
        return fields(text, start, end);
    }
    if v.trim().bytes().all(|b| b.is_ascii_digit()) {
        let lead = v.len() - v.trim_start().len();
        return vec![Field {
            name: "movelist".into(),
            value: v.trim(),
            offset: start + lead,
        }];
    }
    let mut out = Vec::new();
    let mut k = start;
    while let Some(i) = text[k..end].find('[') {
        let name_start = k + i + 1;
        let Some(close) = text[name_start..end].find(']') else {
            break;
        };
        let id = &text[name_start..name_start + close];
        let vstart = name_start + close + 1;
        let closing = format!("[/{id}]");
        let ok = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit() || b == b'_');
        // The value (digits) ends at the next bracket, which must be its closing tag (a search
        // for the closing tag through the whole rest would make the reading quadratic).
        let found = text[vstart..end]
            .find('[')
            .filter(|&j| text[vstart + j..end].starts_with(&closing));
        match found {
            Some(j) if ok => {
                out.push(Field {
                    name: if id == "0_1_0" {
                        "movelist".into()
                    } else {
                        format!("move_{id}").into()
                    },
                    value: &text[vstart..vstart + j],
                    offset: vstart,
                });
                k = vstart + j + closing.len();
            }
            _ => k = name_start,
        }
    }
    out
}

/// Reads every DhtmlXQ block of a text (an HTML page, a forum post, a `.txt` export).
pub fn read_str(text: &str, source: &str) -> Vec<GameEntry> {
    read_str_at(text, source, ChunkStart::default())
}

/// Where a piece of a larger source starts: the line (1-based; 0 is taken as 1), the characters
/// before it on that line, and the index of its first game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChunkStart {
    pub line: u64,
    pub column: u32,
    pub index: usize,
}

/// Reads every DhtmlXQ block of a piece of a source (as cut by a streaming reader), with lines,
/// columns and game numbers counted from `at`.
pub fn read_str_at(text: &str, source: &str, at: ChunkStart) -> Vec<GameEntry> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let loc = Locator::new(text, at.line.max(1), at.column);
    let blocks = blocks(text);
    // Each JavaScript movelist belongs to the last record that starts before it (or the first).
    let mut js: Vec<Vec<(usize, usize)>> = vec![Vec::new(); blocks.len()];
    for (vs, ve) in js_movelists(text) {
        let b = blocks.partition_point(|&(s, _)| s <= vs).saturating_sub(1);
        if let Some(slot) = js.get_mut(b) {
            slot.push((vs, ve));
        }
    }
    blocks
        .into_iter()
        .zip(js)
        .enumerate()
        .map(|(i, ((start, end), js))| {
            let index = at.index + i;
            let mut e = parse_block(text, &loc, start, end, &js);
            e.source = source.to_owned();
            e.index = index;
            if let Some(err) = e.error.take() {
                e.error = Some(err.in_source(source).in_game(index));
            }
            super::warnings::finish(&mut e);
            e
        })
        .collect()
}

/// The byte ranges of the records in a text: from each container start to its closing tag or the
/// next container start. Linear in the text.
fn blocks(text: &str) -> Vec<(usize, usize)> {
    let starts = container_starts(text);
    let mut out = Vec::with_capacity(starts.len());
    for (i, &start) in starts.iter().enumerate() {
        let limit = starts.get(i + 1).copied().unwrap_or(text.len());
        let seg = &text[start..limit];
        let close = seg
            .find("[/DhtmlXQ]")
            .or_else(|| seg.find("[/DhtmlXQiFrame]"));
        out.push((start, close.map_or(limit, |c| start + c)));
    }
    if out.is_empty() && looks_like(text) {
        out.push((0, text.len()));
    }
    out
}

/// The byte offsets of every container start (`[DhtmlXQ]`, `[DhtmlXQiFrame]`) in a text.
pub fn container_starts(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut k = 0;
    while let Some(i) = text[k..].find("[DhtmlXQ") {
        let at = k + i;
        let rest = &text[at + "[DhtmlXQ".len()..];
        if rest.starts_with(']') || rest.starts_with("iFrame]") {
            out.push(at);
        }
        k = at + 1;
    }
    out
}

/// One `[DhtmlXQ_name]value[/DhtmlXQ_name]` field with the byte offset of its value.
struct Field<'a> {
    name: std::borrow::Cow<'a, str>,
    value: &'a str,
    offset: usize,
}

fn fields(text: &str, start: usize, end: usize) -> Vec<Field<'_>> {
    let mut out = Vec::new();
    let mut k = start;
    const OPEN: &str = "[DhtmlXQ_";
    while let Some(i) = text[k..end].find(OPEN) {
        let name_start = k + i + OPEN.len();
        let Some(close) = text[name_start..end].find(']') else {
            break;
        };
        let name = &text[name_start..name_start + close];
        let vstart = name_start + close + 1;
        if name.is_empty() || name.contains(['[', ' ', '\n']) {
            k = name_start;
            continue;
        }
        let closing = format!("[/DhtmlXQ_{name}]");
        // A value never holds a field (writers escape `[`): its closing tag is looked for only up
        // to the next field, which keeps the reading linear.
        let bound = text[vstart..end].find(OPEN).map_or(end, |j| vstart + j);
        let (value, next) = match text[vstart..bound].find(&closing) {
            Some(j) => (&text[vstart..vstart + j], vstart + j + closing.len()),
            // The dpxq template quirk `[DhtmlXQ_blacktime][/DhtmlXQ_time]`: an empty field closed
            // under another name. It reads as empty and is left out (nothing to copy).
            None if text[vstart..end].starts_with("[/DhtmlXQ_") => {
                let j = text[vstart..end].find(']').map_or(end - vstart, |j| j + 1);
                k = vstart + j;
                continue;
            }
            // Unterminated: up to the next field.
            None => (&text[vstart..bound], bound),
        };
        out.push(Field {
            name: name.into(),
            value,
            offset: vstart,
        });
        k = next;
    }
    out
}

/// Turns byte offsets into 1-based lines and columns (characters).
struct Locator<'a> {
    text: &'a str,
    /// Byte offsets of the line starts.
    starts: Vec<usize>,
    /// The line of the text's first line, and the characters before the text on it.
    base_line: u64,
    base_column: u32,
    /// (byte offset, column) of the last column computed: offsets are asked for mostly in order,
    /// so that counting on from there keeps a long line linear.
    cache: std::cell::Cell<(usize, u32)>,
}

impl<'a> Locator<'a> {
    fn new(text: &'a str, base_line: u64, base_column: u32) -> Locator<'a> {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(text));
        Locator {
            text,
            starts,
            base_line,
            base_column,
            cache: std::cell::Cell::new((0, 1)),
        }
    }

    fn at(&self, offset: usize) -> (u64, u32) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let ls = self.starts[line - 1];
        let (from, col) = match self.cache.get() {
            (o, c) if o >= ls && o <= offset => (o, c),
            _ => (ls, 1),
        };
        let col = col.saturating_add(self.text[from..offset].chars().count() as u32);
        self.cache.set((offset, col));
        let extra = if line == 1 { self.base_column } else { 0 };
        (self.base_line + line as u64 - 1, col.saturating_add(extra))
    }
}

fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i + 1)
}

/// Decodes `||` line breaks and `\uXXXX` escapes.
fn decode_text(v: &str) -> String {
    let v = v.replace("||", "\n");
    if !v.contains("\\u") {
        return v;
    }
    let mut out = String::with_capacity(v.len());
    let mut rest = v.as_str();
    while let Some(i) = rest.find("\\u") {
        out.push_str(&rest[..i]);
        let hex = rest.get(i + 2..i + 6);
        match hex
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32)
        {
            Some(c) => {
                out.push(c);
                rest = &rest[i + 6..];
            }
            None => {
                out.push_str("\\u");
                rest = &rest[i + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Escapes text for a field value (the inverse of [`decode_text`]).
fn encode_text(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    // The end of the current run of CRs, and whether an LF follows it.
    let mut cr_run: Option<(usize, bool)> = None;
    for (i, c) in v.char_indices() {
        match c {
            '\n' => out.push_str("||"),
            // A line break (LF, CR LF, or CRs before an LF) is one `||`; a lone CR is kept as
            // an escape.
            '\r' => {
                let (end, line_break) = match cr_run {
                    Some(run) if i < run.0 => run,
                    _ => {
                        let end = v[i..].find(|c| c != '\r').map_or(v.len(), |k| i + k);
                        let run = (end, v[end..].starts_with('\n'));
                        cr_run = Some(run);
                        run
                    }
                };
                debug_assert!(i < end);
                if !line_break {
                    out.push_str("\\u000d");
                }
            }
            '|' | '[' | ']' | '\\' => out.push_str(&format!("\\u{:04x}", c as u32)),
            // Text quoting a page's JavaScript (`DhtmlXQ_movelist = '...'`) would be read as
            // the moves of the game.
            'D' if v[i..].starts_with(JS_MOVELIST) => out.push_str("\\u0044"),
            c => out.push(c),
        }
    }
    out
}

/// Parses the result text of a `result` field.
pub fn parse_result(v: &str) -> Option<GameResult> {
    GameResult::parse_text(v)
}

/// A square from DhtmlXQ digits (x from the left, y from the top).
fn square(x: u8, y: u8) -> Option<Square> {
    if x > 8 || y > 9 {
        return None;
    }
    Square::from_xy(x as i32, 9 - y as i32)
}

fn digits(sq: Square) -> [u8; 2] {
    [b'0' + sq.file().index(), b'0' + (9 - sq.rank().index())]
}

struct Branch<'a> {
    parent: usize,
    ply: usize,
    moves: &'a str,
    offset: usize,
}

fn parse_block(
    text: &str,
    loc: &Locator,
    start: usize,
    end: usize,
    js: &[(usize, usize)],
) -> GameEntry {
    let mut game = Game::new(Position::start());
    let mut entry = GameEntry::ok("", 0, Format::Dhtmlxq, Game::new(Position::start()));
    let r = read_block(text, loc, (start, end), js, &mut game, &mut entry.warnings);
    entry.game = game;
    entry.error = r.err();
    entry
}

fn read_block(
    text: &str,
    loc: &Locator,
    (start, end): (usize, usize),
    js: &[(usize, usize)],
    game: &mut Game,
    warnings: &mut Vec<RecordError>,
) -> Result<(), RecordError> {
    let err_at = |offset: usize, k: &str, msg: String| {
        let (l, c) = loc.at(offset);
        RecordError::new(k, msg).at(l, c)
    };
    let mut binit = None;
    let mut fen = None;
    let mut branches: BTreeMap<usize, Branch> = BTreeMap::new();
    let mut comments: BTreeMap<(usize, usize), String> = BTreeMap::new();
    // The block's own fields (less any inside a JavaScript movelist value), then the fields of
    // its JavaScript movelists.
    let inside_js = |o: usize| js.iter().any(|&(s, e)| (s..e).contains(&o));
    let all = fields(text, start, end)
        .into_iter()
        .filter(|f| !inside_js(f.offset))
        .chain(js.iter().flat_map(|&(s, e)| js_fields(text, s, e)));
    for f in all {
        let name: &str = &f.name;
        if name == "binit" {
            binit = Some(f);
        } else if name == "fen" {
            fen = Some(f);
        } else if name == "movelist" {
            // dpxq pages leave the tag empty and put the moves in a JavaScript variable: the
            // first non-empty movelist is the main line.
            if branches.get(&0).is_some_and(|b| !b.moves.trim().is_empty()) {
                continue;
            }
            branches.insert(
                0,
                Branch {
                    parent: 0,
                    ply: 1,
                    moves: f.value,
                    offset: f.offset,
                },
            );
        } else if let Some(rest) = name.strip_prefix("move_") {
            let nums: Vec<Option<usize>> = rest.split('_').map(|p| p.parse().ok()).collect();
            match nums.as_slice() {
                [Some(p), Some(k), Some(n)] if *n > 0 && *k > 0 => {
                    branches.insert(
                        *n,
                        Branch {
                            parent: *p,
                            ply: *k,
                            moves: f.value,
                            offset: f.offset,
                        },
                    );
                }
                _ => {
                    return Err(err_at(
                        f.offset,
                        kind::RECORD_SYNTAX,
                        format!("bad branch field name 'DhtmlXQ_{name}'"),
                    ));
                }
            }
        } else if let Some(rest) = name.strip_prefix("comment")
            && !rest.is_empty()
            && rest.bytes().all(|b| b.is_ascii_digit() || b == b'_')
        {
            let key = match rest.split_once('_') {
                Some((b, p)) => (b.parse().ok(), p.parse().ok()),
                None => (Some(0), rest.parse().ok()),
            };
            match key {
                (Some(b), Some(p)) => {
                    let c = decode_text(f.value);
                    comments
                        .entry((b, p))
                        .and_modify(|e: &mut String| {
                            e.push('\n');
                            e.push_str(&c);
                        })
                        .or_insert(c);
                }
                _ => {
                    return Err(err_at(
                        f.offset,
                        kind::RECORD_SYNTAX,
                        format!("bad comment field name 'DhtmlXQ_{name}'"),
                    ));
                }
            }
        } else if name == "trailing_text" {
            game.trailing_text = Some(decode_text(f.value));
        } else if VIEWER_FIELDS.iter().any(|v| v.eq_ignore_ascii_case(name)) {
            // Settings of the web viewer, not facts of the game.
        } else {
            let tag = TAG_NAMES
                .iter()
                .find(|(k, _)| *k == name)
                .map_or(name, |(_, t)| t);
            let value = decode_text(f.value);
            // The first `result` field a reader understands gives the result, as the first such
            // Result tag does in PGN (a later field, understood or not, does not undo it).
            if name == "result" && game.result.is_none() {
                game.result = parse_result(&value);
            }
            game.tags.push((tag.to_owned(), value));
        }
    }

    // The start position.
    let bare = binit.is_none() && fen.is_none();
    let first_move = branches
        .get(&0)
        .and_then(|b| b.moves.get(0..4))
        .and_then(|m| {
            let d = m.as_bytes();
            square(d[0].wrapping_sub(b'0'), d[1].wrapping_sub(b'0'))
        });
    if let Some(f) = fen {
        let v = f.value.trim();
        game.start = Position::from_fen(v).map_err(|e| {
            err_at(
                f.offset,
                kind::BAD_POSITION,
                format!("fen \"{v}\": {e} [{}]", e.kind()),
            )
        })?;
        game.tags.push(("FEN".to_owned(), v.to_owned()));
    } else if let Some(f) = binit {
        let v = f.value.trim().as_bytes();
        if v.len() != 64 || !v.iter().all(u8::is_ascii_digit) {
            return Err(err_at(
                f.offset,
                kind::BAD_POSITION,
                "binit must be 64 digits".into(),
            ));
        }
        let mut setup = Setup::start();
        setup.board = [None; 90];
        for i in 0..32 {
            let (x, y) = (v[2 * i] - b'0', v[2 * i + 1] - b'0');
            if x == 9 && y == 9 {
                continue;
            }
            let Some(sq) = square(x, y) else {
                return Err(err_at(
                    f.offset + 2 * i,
                    kind::BAD_POSITION,
                    format!("binit entry {} ('{}{}') is off the board", i + 1, x, y),
                ));
            };
            let color = if i < 16 { Color::Red } else { Color::Black };
            if setup.board[sq as usize].is_some() {
                return Err(err_at(
                    f.offset + 2 * i,
                    kind::BAD_POSITION,
                    format!("binit puts two pieces on {sq}"),
                ));
            }
            setup.board[sq as usize] = Some(Piece::new(color, BINIT_ROLES[i % 16]));
        }
        setup.turn = first_move
            .and_then(|sq| setup.board[sq as usize])
            .map_or(Color::Red, |p| p.color);
        game.start = Position::from_setup(setup)
            .map_err(|e| err_at(f.offset, kind::BAD_POSITION, format!("binit: {e}")))?;
    } else if let Some(sq) = first_move
        && game
            .start
            .piece_at(sq)
            .is_some_and(|p| p.color == Color::Black)
    {
        let mut setup = Setup::start();
        setup.turn = Color::Black;
        game.start = Position::from_setup(setup).expect("the start position is legal");
    }

    // A bare move string: the y axis may be the other way round.
    if bare && let Some(b) = branches.get(&0) {
        let mut probe = game.start;
        let mut read = 0;
        for m in b.moves.as_bytes().chunks_exact(4) {
            let sq = |x: u8, y: u8| square(x.wrapping_sub(b'0'), y.wrapping_sub(b'0'));
            let (Some(a), Some(c)) = (sq(m[0], m[1]), sq(m[2], m[3])) else {
                break;
            };
            if !notation::is_legal_move(&probe, Move::new(a, c)) {
                break;
            }
            probe.play_unchecked(Move::new(a, c));
            read += 1;
        }
        let black_first = game.start.turn() == Color::Black;
        if let Some(w) = super::warnings::other_y_axis(b.moves, read, black_first, Format::Dhtmlxq)
        {
            let (l, c) = loc.at(b.offset);
            warnings.push(w.at(l, c));
        }
    }

    // Children of each (branch, ply).
    let mut children: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (&n, b) in &branches {
        if n != 0 {
            children.entry((b.parent, b.ply)).or_default().push(n);
        }
    }
    let mut ctx = Ctx {
        loc,
        branches: &branches,
        children: &children,
        comments: &mut comments,
        used: BTreeSet::new(),
        warnings: Vec::new(),
        moves: 0,
        max_plies: super::limits::limits().max_plies,
    };
    if let Some(c) = ctx.comments.remove(&(0, 0)) {
        game.main.comments_before.push(c);
    }
    let start_pos = game.start;
    if branches.contains_key(&0) {
        ctx.build(0, start_pos, 1, &mut game.main, 0)?;
    }
    for (n, b) in &branches {
        if *n != 0 && !ctx.used.contains(n) {
            ctx.warnings.push(err_at(
                b.offset,
                kind::RECORD_SYNTAX,
                format!(
                    "variation (branch {n}) dropped: it replaces move {} of branch {}, \
                     which has no such move",
                    b.ply, b.parent
                ),
            ));
        }
    }
    warnings.append(&mut ctx.warnings);
    if let Some(((b, p), _)) = comments.iter().next() {
        // A comment on a move that does not exist: keep its text rather than lose it.
        let _ = (b, p);
        let rest: Vec<String> = std::mem::take(&mut comments).into_values().collect();
        game.main.comments_before.extend(rest);
    }
    Ok(())
}

struct Ctx<'a, 'b> {
    loc: &'b Locator<'a>,
    branches: &'b BTreeMap<usize, Branch<'a>>,
    children: &'b BTreeMap<(usize, usize), Vec<usize>>,
    comments: &'b mut BTreeMap<(usize, usize), String>,
    /// Branches that were reached.
    used: BTreeSet<usize>,
    /// Errors inside variations: the variation is cut there, the game stays valid.
    warnings: Vec<RecordError>,
    /// Moves read so far (all branches), against [`super::limits::Limits::max_plies`].
    moves: usize,
    max_plies: usize,
}

impl Ctx<'_, '_> {
    /// Replays branch `id` from `pos` (its first move is ply `ply0`) into `line`.
    fn build(
        &mut self,
        id: usize,
        mut pos: Position,
        ply0: usize,
        line: &mut Line,
        depth: usize,
    ) -> Result<(), RecordError> {
        let b = &self.branches[&id];
        if depth > MAX_NESTING {
            let (l, c) = self.loc.at(b.offset);
            return Err(RecordError::new(
                kind::RECORD_SYNTAX,
                format!(
                    "branch {id} is nested more than {MAX_NESTING} deep (the limit of every \
                     reader and writer)"
                ),
            )
            .at(l, c));
        }
        if id != 0
            && let Some(c) = self.comments.remove(&(id, ply0 - 1))
        {
            line.comments_before.push(c);
        }
        let moves = b.moves.trim();
        let lead = b.moves.len() - b.moves.trim_start().len();
        if !moves.len().is_multiple_of(4) || !moves.bytes().all(|c| c.is_ascii_digit()) {
            let (l, c) = self.loc.at(b.offset);
            return Err(RecordError::new(
                kind::RECORD_SYNTAX,
                format!("move list of branch {id} is not groups of 4 digits"),
            )
            .at(l, c));
        }
        for (i, chunk) in moves.as_bytes().chunks(4).enumerate() {
            let ply = ply0 + i;
            let offset = b.offset + lead + 4 * i;
            let (l, c) = self.loc.at(offset);
            let digits = std::str::from_utf8(chunk).expect("ascii");
            let d: Vec<u8> = chunk.iter().map(|c| c - b'0').collect();
            let mv = match (square(d[0], d[1]), square(d[2], d[3])) {
                (Some(f), Some(t)) => Move::new(f, t),
                _ => {
                    return Err(RecordError::new(
                        kind::ILLEGAL_MOVE,
                        format!("'{digits}' names a square off the board"),
                    )
                    .at(l, c)
                    .at_move(ply, digits));
                }
            };
            if !notation::is_legal_fast(&pos, mv) {
                return Err(illegal(&pos, mv, digits).at(l, c).at_move(ply, digits));
            }
            self.moves += 1;
            if self.moves > self.max_plies {
                return Err(super::limits::too_many_plies(self.max_plies)
                    .at(l, c)
                    .at_move(ply, digits));
            }
            let before = pos;
            let mut node = MoveNode::new(mv, digits, SourcePos { line: l, column: c });
            if let Some(kids) = self.children.get(&(id, ply)) {
                for &k in kids {
                    self.used.insert(k);
                    let mut var = Line::default();
                    let r = self.build(k, before, ply, &mut var, depth + 1);
                    if let Err(mut e) = r {
                        e.message = format!(
                            "in variation (branch {k}), cut here: {} [{}]",
                            e.message, e.kind
                        );
                        e.kind = "variation_cut".to_owned();
                        self.warnings.push(e);
                    }
                    node.variations.push(var);
                }
            }
            pos.play_unchecked(mv);
            if let Some(c) = self.comments.remove(&(id, ply)) {
                node.comments.push(c);
            }
            line.nodes.push(node);
        }
        Ok(())
    }
}

/// Explains why a move given by squares is illegal, with the notation module's diagnosis and
/// suggestions (in ICCS).
pub(crate) fn illegal(pos: &Position, mv: Move, text: &str) -> RecordError {
    match notation::parse_move(pos, &mv.to_string(), Notation::Iccs) {
        Err(e) => RecordError::new(e.kind(), format!("move {text} ({mv}): {e}"))
            .with_suggestions(e.suggestions()),
        Ok(_) => RecordError::new(kind::ILLEGAL_MOVE, format!("move {text} ({mv}) is illegal")),
    }
}

/// The binit string of a position, when it fits the 16+16 piece table.
fn binit(pos: &Position) -> Option<String> {
    let mut out = String::with_capacity(64);
    for color in [Color::Red, Color::Black] {
        let mut left: Vec<Square> = Vec::new();
        let mut by_role: Vec<Vec<Square>> = Role::ALL
            .iter()
            .map(|&r| pos.pieces(color, r).into_iter().collect())
            .collect();
        for role in BINIT_ROLES {
            let list = &mut by_role[role.index()];
            match list.pop() {
                Some(sq) => out.push_str(std::str::from_utf8(&digits(sq)).expect("ascii")),
                None => out.push_str("99"),
            }
        }
        for l in by_role {
            left.extend(l);
        }
        if !left.is_empty() {
            return None;
        }
    }
    Some(out)
}

/// Writes one game as a DhtmlXQ block.
pub fn write_game(game: &Game, out: &mut String) {
    let field = |out: &mut String, name: &str, value: &str| {
        out.push_str("[DhtmlXQ_");
        out.push_str(name);
        out.push(']');
        out.push_str(value);
        out.push_str("[/DhtmlXQ_");
        out.push_str(name);
        out.push_str("]\n");
    };
    out.push_str("[DhtmlXQ]\n");
    let mut fen_tag = false;
    let mut have_result = false;
    for (k, v) in &game.tags {
        if k.eq_ignore_ascii_case("FEN") {
            fen_tag = true;
            continue;
        }
        if k.eq_ignore_ascii_case("Format") {
            // PGN's notation marker (decided by each writer; DhtmlXQ moves are coordinates). As
            // `DhtmlXQ_format`, a viewer field, it would be dropped on reading back.
            continue;
        }
        let name = field_name(k);
        let name = name.as_ref();
        if name == "result" {
            if have_result {
                continue;
            }
            have_result = true;
            // The result is read from this field's text: when that text says something else
            // (or nothing a reader understands), the game's result is written instead, as the
            // PGN writer does with its Result tag.
            if let Some(r) = game.result
                && parse_result(v) != Some(r)
            {
                field(out, name, r.token());
                continue;
            }
        }
        field(out, name, &encode_text(v));
    }
    if !have_result && let Some(r) = game.result {
        field(out, "result", r.token());
    }
    // (Position equality is placement and side to move; a start numbered other than move 1 also
    // needs the FEN, or the move numbers change.)
    let standard = game.start == Position::start()
        && game.start.fullmoves() == 1
        && game.start.halfmoves() == 0;
    if let Some(b) = binit(&game.start) {
        field(out, "binit", &b);
    }
    if fen_tag || !standard {
        field(out, "fen", &game.start.fen());
    }
    let mut w = DWriter {
        out: String::new(),
        comments: String::new(),
        next_id: 1,
    };
    let mut movelist = String::new();
    for n in &game.main.nodes {
        push_move(&mut movelist, n.mv);
    }
    field(out, "movelist", &movelist);
    if !game.main.comments_before.is_empty() {
        let c = encode_text(&game.main.comments_before.join("\n"));
        field(&mut w.comments, "comment0", &c);
    }
    w.line(&game.main, 0, 1, 0);
    out.push_str(&w.out);
    out.push_str(&w.comments);
    if let Some(t) = &game.trailing_text {
        field(out, "trailing_text", &encode_text(t));
    }
    out.push_str("[/DhtmlXQ]\n");
}

/// The field a tag is written under: a known tag's DhtmlXQ name, else the tag's own name when it
/// reads back as a tag. A name cannot hold brackets, white space or `=` (they become `_`, an empty
/// name is `X`), and a name the reader takes for something else (`binit`, `fen`, `movelist`,
/// `move_...`, `comment...`, `trailing_text`) gets an `X` in front, as the PGN writer does with
/// names PGN cannot hold: the value is kept under a slightly different name rather than changing
/// the game or breaking the record.
fn field_name(tag: &str) -> std::borrow::Cow<'_, str> {
    if let Some((f, _)) = TAG_NAMES.iter().find(|(_, t)| *t == tag) {
        return (*f).into();
    }
    // (`=` too: a name `DhtmlXQ_movelist='...'` would read as a JavaScript movelist.)
    let bad = |c: char| c.is_whitespace() || c.is_control() || matches!(c, '[' | ']' | '=');
    let mut name: std::borrow::Cow<'_, str> = if tag.contains(bad) {
        tag.chars()
            .map(|c| if bad(c) { '_' } else { c })
            .collect::<String>()
            .into()
    } else {
        tag.into()
    };
    let reserved = |n: &str| {
        n.is_empty()
            || matches!(n, "binit" | "fen" | "movelist" | "trailing_text")
            // (A reader drops the viewer's fields: a tag of that name keeps its value as X...)
            || VIEWER_FIELDS.iter().any(|v| v.eq_ignore_ascii_case(n))
            || n.starts_with("move_")
            || n.strip_prefix("comment").is_some_and(|rest| {
                !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit() || b == b'_')
            })
    };
    if reserved(&name) {
        name = format!("X{name}").into();
    }
    name
}

/// Writes games as DhtmlXQ blocks.
pub fn write_games<'g>(games: impl IntoIterator<Item = &'g Game>) -> String {
    let mut out = String::new();
    for g in games {
        write_game(g, &mut out);
        out.push('\n');
    }
    out
}

fn push_move(s: &mut String, m: Move) {
    for d in digits(m.from).into_iter().chain(digits(m.to)) {
        s.push(d as char);
    }
}

struct DWriter {
    out: String,
    comments: String,
    next_id: usize,
}

impl DWriter {
    fn comment(&mut self, id: usize, ply: usize, text: &[String]) {
        if text.is_empty() {
            return;
        }
        let name = if id == 0 {
            format!("comment{ply}")
        } else {
            format!("comment{id}_{ply}")
        };
        let v = encode_text(&text.join("\n"));
        self.comments
            .push_str(&format!("[DhtmlXQ_{name}]{v}[/DhtmlXQ_{name}]\n"));
    }

    /// Writes `line` (branch `id`, nested `depth` deep) and its variations; variations deeper
    /// than every reader accepts ([`MAX_NESTING`]) are not written.
    fn line(&mut self, line: &Line, id: usize, ply0: usize, depth: usize) {
        for (i, node) in line.nodes.iter().enumerate() {
            let ply = ply0 + i;
            self.comment(id, ply, &node.comments);
            for v in node.variations.iter().filter(|_| depth < MAX_NESTING) {
                let vid = self.next_id;
                self.next_id += 1;
                let mut moves = String::new();
                for n in &v.nodes {
                    push_move(&mut moves, n.mv);
                }
                let name = format!("move_{id}_{ply}_{vid}");
                self.out
                    .push_str(&format!("[DhtmlXQ_{name}]{moves}[/DhtmlXQ_{name}]\n"));
                self.comment(vid, ply - 1, &v.comments_before);
                self.line(v, vid, ply, depth + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HTML: &str = "<html><div>[DhtmlXQ][DhtmlXQ_title]T[/DhtmlXQ_title]\
        [DhtmlXQ_result]红胜[/DhtmlXQ_result]\
        [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\
        [DhtmlXQ_move_0_2_1]10227967[/DhtmlXQ_move_0_2_1]\
        [DhtmlXQ_comment0]start[/DhtmlXQ_comment0][DhtmlXQ_comment1]a||b[/DhtmlXQ_comment1]\
        [DhtmlXQ_comment1_3]v\\u0041[/DhtmlXQ_comment1_3][/DhtmlXQ]</div></html>";

    #[test]
    fn reads_html_block_with_branch() {
        let games = read_str(HTML, "x.html");
        assert_eq!(games.len(), 1);
        let e = &games[0];
        assert!(e.error.is_none(), "{:?}", e.error);
        let g = &e.game;
        assert_eq!(g.tags[0], ("Title".into(), "T".into()));
        assert_eq!(g.result, Some(GameResult::RedWins));
        assert_eq!(
            g.main_moves()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>(),
            ["h2e2", "h9g7"]
        );
        assert_eq!(g.main.comments_before, ["start"]);
        assert_eq!(g.main.nodes[0].comments, ["a\nb"]);
        let v = &g.main.nodes[1].variations[0];
        assert_eq!(
            v.nodes.iter().map(|n| n.mv.to_string()).collect::<Vec<_>>(),
            ["b9c7", "h0g2"]
        );
        assert_eq!(v.nodes[1].comments, ["vA"]);
    }

    fn main_iccs(e: &GameEntry) -> Vec<String> {
        assert!(e.error.is_none(), "{:?}", e.error);
        e.game.main_moves().iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn reads_the_javascript_movelist_of_dpxq_pages() {
        // Nested form after the block, whose own movelist tag is empty.
        let page = "<div>[DhtmlXQ][DhtmlXQ_title]T[/DhtmlXQ_title]\n\
            [DhtmlXQ_movelist][/DhtmlXQ_movelist][/DhtmlXQ]</div>\n<script>\n\
            var DhtmlXQ_movelist = '[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]';\n</script>";
        let games = read_str(page, "p.html");
        assert_eq!(games.len(), 1);
        assert_eq!(main_iccs(&games[0]), ["h2e2", "h9g7"]);
        assert_eq!(games[0].game.tags[0], ("Title".into(), "T".into()));

        // Segmented form with a branch, hidden div without a container.
        let page = "<div style=display:none>[DhtmlXQ_title]S[/DhtmlXQ_title]<br>\n\
            [DhtmlXQ_movelist][/DhtmlXQ_movelist]</div>\n\
            <script>var DhtmlXQ_movelist = \"[0_1_0]77477062[/0_1_0][0_2_1]10227967[/0_2_1]\";</script>";
        let e = read_str(page, "s.html").remove(0);
        assert_eq!(main_iccs(&e), ["h2e2", "h9g7"]);
        let v = &e.game.main.nodes[1].variations[0];
        assert_eq!(
            v.nodes.iter().map(|n| n.mv.to_string()).collect::<Vec<_>>(),
            ["b9c7", "h0g2"]
        );

        // Bare digits, nothing else on the page.
        assert!(looks_like("var DhtmlXQ_movelist='7747';"));
        let e = read_str("var DhtmlXQ_movelist='7747';", "b.js").remove(0);
        assert_eq!(main_iccs(&e), ["h2e2"]);

        // A bad move in the JavaScript value is located in the page.
        let page = "[DhtmlXQ][/DhtmlXQ]\nvar DhtmlXQ_movelist = '77477949';";
        let e = read_str(page, "x").remove(0);
        let err = e.error.as_ref().unwrap();
        assert_eq!((err.line, err.column, err.ply), (2, 29, Some(2)));
        assert_eq!(err.move_text.as_deref(), Some("7949"));
    }

    #[test]
    fn illegal_move_is_located() {
        let t = "[DhtmlXQ]\n[DhtmlXQ_movelist]77477949[/DhtmlXQ_movelist]\n[/DhtmlXQ]";
        let e = &read_str(t, "x")[0];
        let err = e.error.as_ref().unwrap();
        assert_eq!((err.line, err.column, err.ply), (2, 23, Some(2)));
        assert_eq!(err.move_text.as_deref(), Some("7949"));
        assert_eq!(err.kind, "wrong_side");
    }

    #[test]
    fn write_read_round_trip() {
        let g = read_str(HTML, "x").remove(0).game;
        let mut out = String::new();
        write_game(&g, &mut out);
        let back = read_str(&out, "y").remove(0);
        assert!(back.error.is_none(), "{:?}\n{out}", back.error);
        assert_eq!(back.game.normalized(), g.normalized(), "{out}");
    }
}
