//! Any bytes, read as any record format: errors, never panics. A game read without error must
//! survive a round trip through PGN (ICCS, WXF, Chinese and both SAN dialects), through the WXF
//! file format (moves, start and result: it has no variations), through DhtmlXQ, and a
//! conversion DhtmlXQ -> PGN, keeping everything the user gave: the start position, the main line
//! and every variation, the NAGs (PGN), the comments, the tags, the result and the text after it.
//! Each printer must also be stable: printing the game read back gives the same text.
//!
//! What the writers may change, and so what is compared loosely: white space inside comments,
//! tag values and trailing text (PGN writes a tag value on one line, joins trailing-text lines
//! that would start a new game); `}` in a PGN comment becomes `｝`; the tags the writer decides
//! (`Format`, `FEN`, `Result`) and the spelling of tag names that a format cannot hold as they are
//! (compared by value only); several comments of one move are joined into one in DhtmlXQ, which
//! has no NAGs.
//!
//! A ninth choice of the first byte wraps the rest in a CBL library (a header, an index of no
//! slot, then the CBR magic and the rest: records on the 4,096-byte slots after it), which the
//! small inputs of a fuzz run could not reach otherwise: the library must read the same record
//! by record from memory and from a stream handed out in pieces of every size, then as above.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_arbiter::Notation;
use xiangqi_arbiter::record::cbl::{CblItem, CblReader, Forward};
use xiangqi_arbiter::record::{Format, Game, GameResult, Line, dhtmlxq, pgn, read_bytes, wxf_file};

const FORMATS: [Option<Format>; 8] = [
    None,
    Some(Format::Pgn),
    Some(Format::Dhtmlxq),
    Some(Format::Xqf),
    Some(Format::Cbr),
    Some(Format::Cbl),
    Some(Format::Cbf),
    Some(Format::Wxf),
];

/// Text compared up to white space (and `}`, which PGN comments cannot hold).
fn canon(s: &str) -> String {
    s.replace('}', "｝")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn canon_comments(c: &[String], joined: bool) -> Vec<String> {
    let v: Vec<String> = c.iter().map(|s| canon(s)).collect();
    if joined && !v.is_empty() {
        vec![canon(&v.join(" "))]
    } else {
        v
    }
}

/// Whether the tag is one the writers decide (its value follows the game, not the tag).
fn decided(name: &str) -> bool {
    ["Format", "FEN", "Result"]
        .iter()
        .any(|t| name.eq_ignore_ascii_case(t))
}

/// The values of the tags the user gave, sorted.
fn tag_values(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g
        .tags
        .iter()
        .filter(|(k, _)| !decided(k))
        .map(|(_, v)| canon(v))
        .collect();
    v.sort();
    v
}

/// Compares two lines move by move, with their NAGs, comments and variations.
fn same_line(what: &str, path: &str, a: &Line, b: &Line, dhtmlxq: bool) {
    assert_eq!(
        canon_comments(&a.comments_before, dhtmlxq),
        canon_comments(&b.comments_before, dhtmlxq),
        "{what}: comments before {path}"
    );
    assert_eq!(
        a.nodes.len(),
        b.nodes.len(),
        "{what}: length of line {path}"
    );
    for (i, (x, y)) in a.nodes.iter().zip(&b.nodes).enumerate() {
        let here = format!("{path}.{i}");
        assert_eq!(x.mv, y.mv, "{what}: move {here}");
        if !dhtmlxq {
            assert_eq!(x.nags, y.nags, "{what}: NAGs of {here}");
        }
        assert_eq!(
            canon_comments(&x.comments, dhtmlxq),
            canon_comments(&y.comments, dhtmlxq),
            "{what}: comments of {here}"
        );
        assert_eq!(
            x.variations.len(),
            y.variations.len(),
            "{what}: variations of {here}"
        );
        for (k, (v, w)) in x.variations.iter().zip(&y.variations).enumerate() {
            same_line(what, &format!("{here}({k})"), v, w, dhtmlxq);
        }
    }
}

/// `b` (read back from what was written for `a`) keeps everything `a` held.
fn same_game(what: &str, a: &Game, b: &Game, dhtmlxq: bool) {
    assert_eq!(a.start.fen(), b.start.fen(), "{what}: start position");
    same_line(what, "main", &a.main, &b.main, dhtmlxq);
    assert_eq!(tag_values(a), tag_values(b), "{what}: tags");
    // A game with text after it but no result is written with `*` (PGN). DhtmlXQ takes the
    // result from the text of the `result` field, the first Result tag: a game without a result
    // but with a Result tag a PGN reader does not understand (未知, 红胜) gets one.
    let result = |g: &Game| match (g.result, &g.trailing_text) {
        (None, _) if dhtmlxq => g
            .tags
            .iter()
            .find(|(k, _)| k == "Result" || k == "result")
            .and_then(|(_, v)| dhtmlxq::parse_result(v)),
        (None, Some(_)) => Some(GameResult::Unknown),
        (r, _) => r,
    };
    assert_eq!(result(a), result(b), "{what}: result");
    assert_eq!(
        a.trailing_text
            .as_deref()
            .map(canon)
            .filter(|t| !t.is_empty()),
        b.trailing_text
            .as_deref()
            .map(canon)
            .filter(|t| !t.is_empty()),
        "{what}: trailing text"
    );
}

fn pgn_round_trip(game: &Game, notation: Notation) -> Game {
    let text = pgn::write_games([game], notation);
    let back = pgn::read_str(&text, "roundtrip");
    assert_eq!(back.len(), 1, "PGN {notation:?} round trip: {text}");
    assert!(
        back[0].error.is_none(),
        "PGN {notation:?}: {:?}\n{text}",
        back[0].error
    );
    let what = format!("PGN {notation:?}\n{text}\n");
    same_game(&what, game, &back[0].game, false);
    let again = pgn::write_games([&back[0].game], notation);
    assert_eq!(text, again, "PGN {notation:?} printer not stable");
    back.into_iter().next().unwrap().game
}

fn dhtmlxq_round_trip(game: &Game) -> Game {
    let text = dhtmlxq::write_games([game]);
    let back = dhtmlxq::read_str(&text, "roundtrip");
    assert_eq!(back.len(), 1, "DhtmlXQ round trip: {text}");
    assert!(
        back[0].error.is_none(),
        "DhtmlXQ: {:?}\n{text}",
        back[0].error
    );
    same_game(&format!("DhtmlXQ\n{text}\n"), game, &back[0].game, true);
    let again = dhtmlxq::write_games([&back[0].game]);
    assert_eq!(text, again, "DhtmlXQ printer not stable");
    back.into_iter().next().unwrap().game
}

/// The WXF file format keeps the main line, the start and the result, and prints the same after
/// reading back.
fn wxf_round_trip(game: &Game) {
    let mut text = String::new();
    wxf_file::write_game(game, &mut text);
    let back = wxf_file::read_str(&text, "roundtrip");
    assert_eq!(back.len(), 1, "WXF round trip: {text}");
    assert!(back[0].error.is_none(), "WXF: {:?}\n{text}", back[0].error);
    let b = &back[0].game;
    assert_eq!(game.start.fen(), b.start.fen(), "WXF start\n{text}");
    assert_eq!(game.main_moves(), b.main_moves(), "WXF moves\n{text}");
    assert_eq!(game.result, b.result, "WXF result\n{text}");
    let mut again = String::new();
    wxf_file::write_game(b, &mut again);
    assert_eq!(text, again, "WXF printer not stable");
}

/// A library around `records`: the CBL header with no index slot, the CBR magic, `records`.
fn library(records: &[u8]) -> Vec<u8> {
    let mut lib = b"CCBridgeLibrary\0".to_vec();
    lib.resize(66_624, 0);
    lib.extend_from_slice(b"CCBridge Record\0");
    lib.extend_from_slice(records);
    lib
}

/// A reader handing out pieces of sizes 1, 2, ..., `step`, 1, 2, ...
struct Pieces<'a> {
    bytes: &'a [u8],
    step: usize,
    next: usize,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.next = self.next % self.step + 1;
        let n = self.next.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fn items<R: std::io::Read + std::io::Seek>(r: CblReader<R>) -> Vec<String> {
    r.map(|item| match item {
        CblItem::Record {
            index,
            offset,
            bytes,
        } => format!("{index} {offset} {bytes:?}"),
        CblItem::Failed { index, error } => format!("{index} {error}"),
    })
    .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let choice = first as usize % (FORMATS.len() + 1);
    let lib;
    let (rest, format) = if choice == FORMATS.len() {
        lib = library(rest);
        let want = items(CblReader::new(std::io::Cursor::new(&lib)));
        for step in [1, 7, 4096, 70_000] {
            let stream = Pieces {
                bytes: &lib,
                step,
                next: 0,
            };
            let got = items(CblReader::new(Forward::new(stream)));
            assert_eq!(want, got, "CBL from a stream in pieces of up to {step}");
        }
        (&lib[..], Some(Format::Cbl))
    } else {
        (rest, FORMATS[choice])
    };
    for entry in read_bytes("fuzz", rest, format) {
        if let Some(e) = &entry.error {
            // Every error can be printed.
            let _ = e.to_string();
            continue;
        }
        let game = &entry.game;
        for notation in Notation::ALL {
            pgn_round_trip(game, notation);
        }
        wxf_round_trip(game);
        // Converted to DhtmlXQ and from there to PGN.
        let converted = dhtmlxq_round_trip(game);
        pgn_round_trip(&converted, Notation::Chinese);
    }
});
