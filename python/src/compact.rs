//! A game packed small: what a Python `Game` holds, and what it pickles to.
//!
//! The library's [`GameEntry`] keeps every move as a tree node of about 120 bytes plus its text
//! on the heap (some 18 KB for a game of 90 plies). A `Game` keeps the main line as two bytes a
//! move and everything else the record said (tags, each move's text and place in the source,
//! comments, NAGs, variations, trailing text) packed in one byte string, which is unpacked back
//! into the entry only for what needs it (`tags`, `moves`, `write()`, `report()`, pickling).
//!
//! The byte format (also the pickled state, version [`VERSION`]): unsigned LEB128 integers,
//! strings as a length and UTF-8 bytes, options as a 0/1 byte before the value, lists as a count
//! before the items, a move as the indices of its two squares.

use std::sync::Arc;
use xiangqi_arbiter::Position;
use xiangqi_arbiter::record::{
    Format, Game, GameEntry, GameResult, Line, MoveNode, Notation, RecordError, SourcePos,
    TextEncoding,
};
use xiangqi_arbiter::types::{Move, Square};

/// The version byte of a pickled game.
pub const VERSION: u8 = 1;

/// The text encodings, by name.
const ENCODINGS: [TextEncoding; 3] = [TextEncoding::Utf8, TextEncoding::Gbk, TextEncoding::Big5];

/// A game read from a record, packed.
#[derive(Clone, Debug)]
pub struct Packed {
    /// The source's name, shared by the games of one file.
    pub source: Arc<str>,
    pub index: usize,
    pub format: Format,
    pub notation: Option<Notation>,
    pub encoding: Option<TextEncoding>,
    pub result: Option<GameResult>,
    /// The start position when it is not the standard one.
    pub start: Option<Box<Position>>,
    /// The main line.
    pub moves: Box<[Move]>,
    /// Tags, trailing text and the main line's details (see [`write_detail`]).
    pub detail: Box<[u8]>,
    pub error: Option<Box<RecordError>>,
    pub warnings: Box<[RecordError]>,
}

impl Packed {
    /// Packs an entry; `source` is its source's name (shared with the previous game's when it is
    /// the same).
    pub fn new(entry: GameEntry, source: Arc<str>) -> Packed {
        let mut w = Writer::default();
        write_detail(&mut w, &entry.game);
        let start = entry.game.start;
        Packed {
            source,
            index: entry.index,
            format: entry.format,
            notation: entry.notation,
            encoding: entry.encoding,
            result: entry.game.result,
            start: (start != Position::start()).then(|| Box::new(start)),
            moves: entry.game.main.nodes.iter().map(|n| n.mv).collect(),
            detail: w.0.into_boxed_slice(),
            error: entry.error.map(Box::new),
            warnings: entry.warnings.into_boxed_slice(),
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
            .as_deref()
            .copied()
            .unwrap_or_else(Position::start)
    }

    /// The entry it was packed from.
    pub fn entry(&self) -> Result<GameEntry, String> {
        let mut game = Game::new(self.start());
        game.result = self.result;
        read_detail(&mut Reader(&self.detail), &mut game, &self.moves)?;
        Ok(GameEntry {
            source: self.source.to_string(),
            index: self.index,
            format: self.format,
            notation: self.notation,
            encoding: self.encoding,
            game,
            error: self.error.as_deref().cloned(),
            warnings: self.warnings.to_vec(),
        })
    }

    /// The pickled state: the whole entry in the byte format.
    pub fn state(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.0.push(VERSION);
        w.str(&self.source);
        w.uint(self.index as u64);
        w.str(self.format.name());
        w.opt_str(self.notation.map(Notation::name));
        w.opt_str(self.encoding.map(TextEncoding::name));
        w.opt_str(self.result.map(GameResult::token));
        w.opt_str(self.start.as_ref().map(|p| p.fen()).as_deref());
        w.uint(self.moves.len() as u64);
        for &m in self.moves.iter() {
            w.mv(m);
        }
        w.bytes(&self.detail);
        match &self.error {
            Some(e) => {
                w.0.push(1);
                w.error(e);
            }
            None => w.0.push(0),
        }
        w.uint(self.warnings.len() as u64);
        for e in self.warnings.iter() {
            w.error(e);
        }
        w.0
    }

    /// A game from its pickled state.
    pub fn from_state(state: &[u8]) -> Result<Packed, String> {
        let mut r = Reader(state);
        let version = r.byte()?;
        if version != VERSION {
            return Err(format!(
                "a pickled Game of version {version}; this package reads version {VERSION}"
            ));
        }
        let source: Arc<str> = Arc::from(r.str()?);
        let index = r.usize()?;
        let format: Format = r.str()?.parse()?;
        let notation = r
            .opt_str()?
            .map(|s| s.parse::<Notation>())
            .transpose()
            .map_err(|e| e.to_string())?;
        let encoding = match r.opt_str()? {
            None => None,
            Some(name) => Some(
                ENCODINGS
                    .into_iter()
                    .find(|e| e.name() == name)
                    .ok_or_else(|| format!("unknown encoding '{name}'"))?,
            ),
        };
        let result = match r.opt_str()? {
            None => None,
            Some(t) => {
                Some(GameResult::from_token(t).ok_or_else(|| format!("unknown result '{t}'"))?)
            }
        };
        let start = match r.opt_str()? {
            None => None,
            Some(fen) => Some(Box::new(
                Position::from_fen(fen).map_err(|e| format!("start position: {e}"))?,
            )),
        };
        let n = r.usize()?;
        let moves = (0..n).map(|_| r.mv()).collect::<Result<Box<[Move]>, _>>()?;
        let detail: Box<[u8]> = r.bytes()?.into();
        let error = match r.byte()? {
            0 => None,
            _ => Some(Box::new(r.error()?)),
        };
        let n = r.usize()?;
        let warnings = (0..n).map(|_| r.error()).collect::<Result<Box<[_]>, _>>()?;
        if !r.0.is_empty() {
            return Err("trailing bytes".into());
        }
        let packed = Packed {
            source,
            index,
            format,
            notation,
            encoding,
            result,
            start,
            moves,
            detail,
            error,
            warnings,
        };
        // The details must unpack (and the moves be legal) for the game to be usable.
        let entry = packed.entry()?;
        let mut pos = entry.game.start;
        for &m in packed.moves.iter() {
            if !pos.is_legal(m) {
                return Err(format!("move {m} is not legal"));
            }
            pos.play_unchecked(m);
        }
        Ok(packed)
    }
}

/// Tags, trailing text, then the main line without its moves (they are kept apart).
fn write_detail(w: &mut Writer, game: &Game) {
    w.uint(game.tags.len() as u64);
    for (k, v) in &game.tags {
        w.str(k);
        w.str(v);
    }
    w.opt_str(game.trailing_text.as_deref());
    w.line(&game.main, false);
}

fn read_detail(r: &mut Reader<'_>, game: &mut Game, moves: &[Move]) -> Result<(), String> {
    let n = r.usize()?;
    game.tags = (0..n)
        .map(|_| Ok((r.str()?.to_owned(), r.str()?.to_owned())))
        .collect::<Result<_, String>>()?;
    game.trailing_text = r.opt_str()?.map(str::to_owned);
    game.main = r.line(Some(moves))?;
    if !r.0.is_empty() {
        return Err("trailing bytes in a game's details".into());
    }
    Ok(())
}

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn uint(&mut self, mut n: u64) {
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.0.push(b);
                return;
            }
            self.0.push(b | 0x80);
        }
    }

    fn bytes(&mut self, b: &[u8]) {
        self.uint(b.len() as u64);
        self.0.extend_from_slice(b);
    }

    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.0.push(1);
                self.str(s);
            }
            None => self.0.push(0),
        }
    }

    fn opt_uint(&mut self, n: Option<u64>) {
        match n {
            Some(n) => {
                self.0.push(1);
                self.uint(n);
            }
            None => self.0.push(0),
        }
    }

    fn mv(&mut self, m: Move) {
        self.0.push(m.from.index() as u8);
        self.0.push(m.to.index() as u8);
    }

    fn strs(&mut self, v: &[String]) {
        self.uint(v.len() as u64);
        for s in v {
            self.str(s);
        }
    }

    /// A line; with `moves` false, its nodes' moves are left out (the main line's).
    fn line(&mut self, line: &Line, moves: bool) {
        self.strs(&line.comments_before);
        self.uint(line.nodes.len() as u64);
        for n in &line.nodes {
            if moves {
                self.mv(n.mv);
            }
            self.str(&n.text);
            self.uint(n.pos.line);
            self.uint(n.pos.column.into());
            self.bytes(&n.nags);
            self.strs(&n.comments);
            self.uint(n.variations.len() as u64);
            for v in &n.variations {
                self.line(v, true);
            }
        }
    }

    fn error(&mut self, e: &RecordError) {
        self.str(&e.source);
        self.uint(e.game as u64);
        self.uint(e.line);
        self.uint(e.column.into());
        self.opt_uint(e.offset);
        self.opt_uint(e.ply.map(|p| p as u64));
        self.opt_str(e.move_text.as_deref());
        self.str(&e.kind);
        self.str(&e.message);
        self.strs(&e.suggestions);
        // (The repairs as their JSON: they are rare, and Python reads them as dicts.)
        self.str(&serde_json::to_string(&e.repairs).unwrap_or_else(|_| "[]".into()));
        self.0.push(u8::from(e.repairs_cut_short));
    }
}

struct Reader<'a>(&'a [u8]);

/// The deepest variation a packed game may hold (as the record readers allow).
const MAX_DEPTH: usize = xiangqi_arbiter::record::MAX_NESTING + 1;

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, String> {
        let (&b, rest) = self.0.split_first().ok_or("truncated")?;
        self.0 = rest;
        Ok(b)
    }

    fn uint(&mut self) -> Result<u64, String> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err("integer too long".into())
    }

    fn usize(&mut self) -> Result<usize, String> {
        usize::try_from(self.uint()?).map_err(|e| e.to_string())
    }

    fn u32(&mut self) -> Result<u32, String> {
        u32::try_from(self.uint()?).map_err(|e| e.to_string())
    }

    fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.usize()?;
        if n > self.0.len() {
            return Err("truncated".into());
        }
        let (b, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(b)
    }

    fn str(&mut self) -> Result<&'a str, String> {
        std::str::from_utf8(self.bytes()?).map_err(|e| e.to_string())
    }

    fn opt_str(&mut self) -> Result<Option<&'a str>, String> {
        Ok(match self.byte()? {
            0 => None,
            _ => Some(self.str()?),
        })
    }

    fn opt_uint(&mut self) -> Result<Option<u64>, String> {
        Ok(match self.byte()? {
            0 => None,
            _ => Some(self.uint()?),
        })
    }

    fn strs(&mut self) -> Result<Vec<String>, String> {
        let n = self.usize()?;
        // (A count is checked against what is left: each item takes at least a byte.)
        if n > self.0.len() {
            return Err("truncated".into());
        }
        (0..n).map(|_| self.str().map(str::to_owned)).collect()
    }

    fn square(&mut self) -> Result<Square, String> {
        let i = self.byte()? as usize;
        Square::ALL
            .get(i)
            .copied()
            .ok_or_else(|| format!("no square {i}"))
    }

    fn mv(&mut self) -> Result<Move, String> {
        Ok(Move::new(self.square()?, self.square()?))
    }

    fn line(&mut self, moves: Option<&[Move]>) -> Result<Line, String> {
        self.line_at(moves, 0)
    }

    fn line_at(&mut self, moves: Option<&[Move]>, depth: usize) -> Result<Line, String> {
        if depth > MAX_DEPTH {
            return Err("variations nested too deep".into());
        }
        let comments_before = self.strs()?;
        let n = self.usize()?;
        if moves.is_some_and(|m| m.len() != n) || n > self.0.len() {
            return Err("the moves do not match the details".into());
        }
        let mut nodes = Vec::with_capacity(n);
        for i in 0..n {
            let mv = match moves {
                Some(m) => m[i],
                None => self.mv()?,
            };
            let text = self.str()?.to_owned();
            let pos = SourcePos {
                line: self.uint()?,
                column: self.u32()?,
            };
            let nags = self.bytes()?.to_vec();
            let comments = self.strs()?;
            let k = self.usize()?;
            if k > self.0.len() {
                return Err("truncated".into());
            }
            let variations = (0..k)
                .map(|_| self.line_at(None, depth + 1))
                .collect::<Result<_, _>>()?;
            nodes.push(MoveNode {
                mv,
                text,
                pos,
                nags,
                comments,
                variations,
            });
        }
        Ok(Line {
            comments_before,
            nodes,
        })
    }

    fn error(&mut self) -> Result<RecordError, String> {
        Ok(RecordError {
            source: self.str()?.to_owned(),
            game: self.usize()?,
            line: self.uint()?,
            column: self.u32()?,
            offset: self.opt_uint()?,
            ply: self.opt_uint()?.map(|p| p as usize),
            move_text: self.opt_str()?.map(str::to_owned),
            kind: self.str()?.to_owned(),
            message: self.str()?.to_owned(),
            suggestions: self.strs()?,
            repairs: serde_json::from_str(self.str()?).map_err(|e| e.to_string())?,
            repairs_cut_short: self.byte()? != 0,
        })
    }
}
