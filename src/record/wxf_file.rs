//! The WXF file format (H. Yang's "Chinese Chess File Format" draft, used by WXF tools).
//!
//! ```text
//! FORMAT WXF
//! GAME Chinese Chess
//! RED Lu Qin
//! BLACK Hu Ronghua
//! DATE 1997.05.17
//! RESULT 1-0
//! START{
//!   1. C2=5 h8+7
//!   2. H2+3!!3. ...
//! }END
//! ```
//!
//! * Header lines are `KEY value`: each becomes a tag (`RED` → `Red`, `REDTEAM` → `RedTeam`,
//!   unknown keys capitalised). `FORMAT` names the move notation: `WXF`, `AXF` or `XQR` (WXF
//!   letters; black pieces are often in lower case and `=` stands for `.`), `ICCS` (the draft's
//!   default), `LALG`/`SALG` (long/short algebraic, ranks 0-9: read as WinBoard SAN). Without a
//!   `FORMAT` line the notation is sniffed from the first move. A `FEN` header sets the start.
//! * The moves stand between `START{` and `}END`: move numbers `12.` (or `12...`), moves,
//!   annotation marks glued before or after (`C2=5!!`, `!!12.`: the marks belong to the move before
//!   them), `{comments}`, and an optional result token.
//! * A bare WXF movetext without header or braces (`1. C2=5 h8+7 2. H2+3 r9=8`) reads too.
//!
//! The writer prints the draft's layout: `FORMAT WXF`, the tags as upper-case keys, one turn a
//! line, WXF moves with black pieces in lower case and `=` for a sideways move, NAGs 1-6 as marks,
//! comments in braces. The format has no variations or text after the game: those are not
//! written. The grammar is written with `nom`.

use super::encoding;
use super::error::{RecordError, kind};
use super::game::{Format, Game, GameEntry, GameResult, Line, SourcePos};
use super::movetext::{self, MovePlayer};
use crate::notation::{self, Notation};
use crate::position::Position;
use crate::types::Color;
use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{is_a, tag, take_till, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{map, opt, recognize};

/// Whether a text is a WXF file: its first line with text is `FORMAT ...`, or it holds a
/// `START{` line.
pub fn looks_like(text: &str) -> bool {
    let first = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty());
    first.is_some_and(|l| {
        // (Bytes, not characters: the line may start with any text.)
        let b = l.as_bytes();
        b.len() >= 7 && b[..6].eq_ignore_ascii_case(b"FORMAT") && b[6] == b' '
    }) || text.lines().any(|l| l.trim_start().starts_with("START{"))
}

/// [`looks_like`] for bytes in any of the supported encodings (read as UTF-8, invalid bytes
/// replaced). The markers are ASCII, which every decoding keeps as it is: bytes without them are
/// told apart without decoding.
pub fn looks_like_bytes(bytes: &[u8]) -> bool {
    // `FORMAT` can only open the first line with text if the first byte that is not ASCII white
    // space is `F` or not ASCII (a BOM, or white space such as U+3000).
    let first = bytes
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C));
    let maybe_format = matches!(first, Some(b'F' | b'f' | 0x80..));
    let maybe_start = bytes
        .iter()
        .enumerate()
        .any(|(k, &b)| b == b'{' && k >= 5 && &bytes[k - 5..k] == b"START");
    (maybe_format || maybe_start) && looks_like(&String::from_utf8_lossy(bytes))
}

/// Known header keys and their tag names.
const KEYS: &[(&str, &str)] = &[
    ("GAME", "Game"),
    ("EVENT", "Event"),
    ("SITE", "Site"),
    ("DATE", "Date"),
    ("ROUND", "Round"),
    ("RED", "Red"),
    ("BLACK", "Black"),
    ("RESULT", "Result"),
    ("REDTEAM", "RedTeam"),
    ("BLACKTEAM", "BlackTeam"),
    ("REDELO", "RedElo"),
    ("BLACKELO", "BlackElo"),
    ("OPENING", "Opening"),
    ("VARIATION", "Variation"),
    ("ECCO", "ECCO"),
    ("FEN", "FEN"),
    ("TIMECONTROL", "TimeControl"),
    ("ANNOTATOR", "Annotator"),
    ("REMARK", "Remark"),
    ("AUTHOR", "Author"),
    ("TITLE", "Title"),
    ("RESULTTEXT", "ResultText"),
];

fn tag_of_key(key: &str) -> String {
    let up = key.to_ascii_uppercase();
    if let Some((_, t)) = KEYS.iter().find(|(k, _)| *k == up) {
        return (*t).to_owned();
    }
    // (ASCII letters only change case, as in [`key_of_tag`]: a key read back prints the same.)
    let mut c = key.chars();
    match c.next() {
        Some(f) => std::iter::once(f.to_ascii_uppercase())
            .chain(c.map(|c| c.to_ascii_lowercase()))
            .collect(),
        None => String::new(),
    }
}

fn key_of_tag(tag: &str) -> String {
    if let Some((k, _)) = KEYS.iter().find(|(_, t)| t.eq_ignore_ascii_case(tag)) {
        return (*k).to_owned();
    }
    tag.chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// `KEY value` (the value may be empty).
fn header_line(i: &str) -> IResult<&str, (&str, &str)> {
    let (i, _) = space0(i)?;
    let (i, key) = take_while1(|c: char| c.is_alphanumeric() || c == '_').parse(i)?;
    let (i, value) = alt((
        map((space1, take_till(|c| c == '\r' || c == '\n')), |(_, v)| v),
        map(space0, |_| ""),
    ))
    .parse(i)?;
    Ok((i, (key, value)))
}

/// One token of the movetext.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    Number,
    Marks(&'a str),
    Result(GameResult),
    Comment(&'a str),
    Word(&'a str),
}

fn result_token(i: &str) -> IResult<&str, GameResult> {
    alt((
        map(tag("1-0"), |_| GameResult::RedWins),
        map(tag("0-1"), |_| GameResult::BlackWins),
        map(tag("1/2-1/2"), |_| GameResult::Draw),
        map(tag("*"), |_| GameResult::Unknown),
    ))
    .parse(i)
}

fn is_space(c: char) -> bool {
    c.is_whitespace()
}

fn token(i: &str) -> IResult<&str, Token<'_>> {
    alt((
        map(
            (tag("{"), take_till(|c| c == '}'), opt(tag("}"))),
            |(_, c, _): (&str, &str, _)| Token::Comment(c),
        ),
        map(is_a("!?"), Token::Marks),
        map(is_a(".…"), |_| Token::Number),
        // A result, when a blank or the end follows.
        map(
            (
                result_token,
                nom::combinator::peek(alt((
                    recognize(nom::character::complete::satisfy(is_space)),
                    nom::combinator::eof,
                    tag("}"),
                ))),
            ),
            |(r, _)| Token::Result(r),
        ),
        // A move number: digits and dots, unless it is the WXF two-file pawn form 33.4.
        map(
            (
                digit1,
                alt((tag("..."), tag("…"), tag("."), tag("。"))),
                nom::combinator::not(nom::character::complete::satisfy(|c| c.is_ascii_digit())),
                opt(tag("..")),
            ),
            |_| Token::Number,
        ),
        map(
            take_while1(|c: char| !is_space(c) && c != '{' && c != '!' && c != '?'),
            Token::Word,
        ),
    ))
    .parse(i)
}

/// The notation a `FORMAT` value names.
fn format_notation(v: &str) -> Option<Notation> {
    let first = v
        .split([',', ' ', '\t'])
        .find(|s| !s.is_empty())?
        .to_ascii_uppercase();
    Some(match first.as_str() {
        "WXF" | "AXF" | "XQR" => Notation::Wxf,
        "ICCS" | "UCCI" => Notation::Iccs,
        "LALG" | "SALG" | "SAN" => Notation::SanWinboard,
        "CHINESE" => Notation::Chinese,
        _ => return None,
    })
}

/// Reads every game of a WXF file (or a bare WXF movetext).
pub fn read_bytes(source: &str, bytes: &[u8]) -> Vec<GameEntry> {
    let enc = encoding::detect(bytes);
    let (text, _) = encoding::decode(bytes, enc);
    let mut games = read_str(&text, source);
    for g in &mut games {
        g.encoding = Some(enc);
    }
    games
}

/// Reads every game of a text.
pub fn read_str(text: &str, source: &str) -> Vec<GameEntry> {
    let text = text.trim_start_matches('\u{feff}');
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if lines[k].trim().is_empty() {
            k += 1;
            continue;
        }
        let index = out.len();
        let (mut entry, next) = read_game(&lines, k);
        entry.source = source.to_owned();
        entry.index = index;
        if let Some(e) = entry.error.take() {
            entry.error = Some(e.in_source(source).in_game(index));
        }
        super::warnings::finish(&mut entry);
        out.push(entry);
        k = next.max(k + 1);
    }
    out
}

/// Reads one game starting at line `k` (0-based); returns it and the line after it.
fn read_game(lines: &[&str], mut k: usize) -> (GameEntry, usize) {
    let mut game = Game::new(Position::start());
    let mut entry = GameEntry::ok("", 0, Format::Wxf, Game::new(Position::start()));
    let mut notation = None;
    let mut fen_line = None;
    // Header lines up to START{ (a bare movetext has none).
    let bare = !lines[k..]
        .iter()
        .take_while(|l| !l.trim_start().starts_with("}END"))
        .any(|l| l.trim_start().starts_with("START{"));
    if !bare {
        while k < lines.len() {
            let l = lines[k].trim();
            if l.starts_with("START{") {
                break;
            }
            if !l.is_empty() {
                match header_line(l) {
                    Ok((_, (key, value))) => {
                        // (Some files end header lines with ';': one is dropped, and the
                        // writer doubles a value's own trailing ';'.)
                        let value = value.trim();
                        let value = value.strip_suffix(';').unwrap_or(value).trim_end();
                        if key.eq_ignore_ascii_case("FORMAT") {
                            notation = format_notation(value);
                        } else {
                            let t = tag_of_key(key);
                            if t == "FEN" {
                                fen_line = Some((value.to_owned(), k as u64 + 1));
                            }
                            if t == "Result" && game.result.is_none() {
                                game.result = GameResult::from_token(value);
                            }
                            game.tags.push((t, value.to_owned()));
                        }
                    }
                    Err(_) => {
                        entry.error = Some(
                            RecordError::new(
                                kind::BAD_HEADER,
                                format!("'{l}' is not a header line (KEY value)"),
                            )
                            .at(k as u64 + 1, 1),
                        );
                        entry.game = game;
                        return (entry, skip_game(lines, k));
                    }
                }
            }
            k += 1;
        }
    }
    if let Some((fen, line)) = fen_line {
        match Position::from_fen(&fen) {
            Ok(p) => game.start = p,
            Err(e) => {
                entry.error = Some(
                    RecordError::new(
                        kind::BAD_POSITION,
                        format!("FEN \"{fen}\": {e} [{}]", e.kind()),
                    )
                    .at(line, 1),
                );
                entry.game = game;
                return (entry, skip_game(lines, k));
            }
        }
    }
    // The movetext lines: after START{ up to }END (or to the end for a bare movetext).
    let (first, first_col) = if bare {
        (k, 0)
    } else {
        let l = lines.get(k).copied().unwrap_or("");
        (k, l.find("START{").map_or(0, |c| c + "START{".len()))
    };
    let mut body: Vec<(u64, usize, &str)> = Vec::new();
    let mut end = lines.len();
    let mut closed = bare;
    for (j, l) in lines.iter().enumerate().skip(first) {
        let from = if j == first { first_col } else { 0 };
        let seg = &l[from.min(l.len())..];
        if let Some(c) = seg.find("}END") {
            body.push((j as u64 + 1, from, &seg[..c]));
            end = j + 1;
            closed = true;
            break;
        }
        body.push((j as u64 + 1, from, seg));
    }
    let mut r = Replay {
        notation,
        warnings: Vec::new(),
        result: None,
        player: MovePlayer::new(Format::Wxf),
    };
    let mut res = r.moves(&body, &mut game.main, game.start);
    // The first move is the other side's: replay with the other side to move and say so.
    if let Err(e) = &res
        && e.ply == Some(1)
        && e.kind != kind::RECORD_SYNTAX
        && e.kind != kind::UNKNOWN_NOTATION
    {
        let mut setup = game.start.to_setup();
        setup.turn = !setup.turn;
        if let Ok(swapped) = Position::from_setup(setup) {
            let mut line = Line::default();
            let mut r2 = Replay {
                notation,
                warnings: Vec::new(),
                result: None,
                player: MovePlayer::new(Format::Wxf),
            };
            let res2 = r2.moves(&body, &mut line, swapped);
            if res2
                .as_ref()
                .err()
                .is_none_or(|e2| e2.ply.is_some_and(|p| p > 1))
            {
                let first = res.as_ref().expect_err("checked");
                let mut w = RecordError::new(
                    "side_to_move_corrected",
                    format!(
                        "the first move is {}'s: {} moves first",
                        swapped.turn(),
                        swapped.turn()
                    ),
                )
                .at_move(1, first.move_text.clone().unwrap_or_default());
                (w.line, w.column) = (first.line, first.column);
                r2.warnings.insert(0, w);
                game.start = swapped;
                game.main = line;
                r = r2;
                res = res2;
            }
        }
    }
    if let Some(result) = r.result {
        game.result = Some(result);
    }
    entry.notation = r.notation;
    entry.warnings = r.warnings;
    entry.game = game;
    if let Err(e) = res {
        entry.error = Some(e);
    } else if !closed {
        entry.error = Some(
            RecordError::new(kind::RECORD_SYNTAX, "START{ without }END")
                .at(first as u64 + 1, first_col as u32),
        );
    }
    (entry, end)
}

/// The line after the `}END` of a game that failed before its moves.
fn skip_game(lines: &[&str], k: usize) -> usize {
    lines[k..]
        .iter()
        .position(|l| l.contains("}END"))
        .map_or(lines.len(), |p| k + p + 1)
}

struct Replay {
    notation: Option<Notation>,
    warnings: Vec<RecordError>,
    result: Option<GameResult>,
    player: MovePlayer,
}

impl Replay {
    fn moves(
        &mut self,
        body: &[(u64, usize, &str)],
        line: &mut Line,
        start: Position,
    ) -> Result<(), RecordError> {
        let mut pos = start;
        let mut comment: Option<(String, u64, u32)> = None;
        for (j, &(ln, from, text)) in body.iter().enumerate() {
            let mut i = text;
            let col =
                |rest: &str| (from + text[..text.len() - rest.len()].chars().count() + 1) as u32;
            if let Some((c, _, _)) = &mut comment {
                // A comment running over several lines.
                c.push('\n');
                match i.find('}') {
                    Some(e) => {
                        c.push_str(&i[..e]);
                        push_comment(line, strip_pad(c).to_owned());
                        comment = None;
                        i = &i[e + 1..];
                    }
                    None => {
                        c.push_str(i);
                        continue;
                    }
                }
            }
            loop {
                i = i.trim_start();
                if i.is_empty() {
                    break;
                }
                let at = col(i);
                let Ok((rest, t)) = token(i) else {
                    return Err(RecordError::new(kind::RECORD_SYNTAX, "unexpected text").at(ln, at));
                };
                match t {
                    Token::Number => {}
                    Token::Comment(c) => {
                        if i[1 + c.len()..].starts_with('}') {
                            push_comment(line, strip_pad(c).to_owned());
                        } else {
                            comment = Some((c.to_owned(), ln, at));
                        }
                    }
                    Token::Marks(m) => {
                        let nag = nag_of(m).ok_or_else(|| {
                            RecordError::new(kind::RECORD_SYNTAX, format!("bad annotation '{m}'"))
                                .at(ln, at)
                        })?;
                        match line.nodes.last_mut() {
                            Some(n) => n.nags.push(nag),
                            None => {
                                return Err(RecordError::new(
                                    kind::RECORD_SYNTAX,
                                    format!("annotation '{m}' before any move"),
                                )
                                .at(ln, at));
                            }
                        }
                    }
                    Token::Result(r) => self.result = Some(r),
                    Token::Word(w) => self.word(w, rest, &body[j + 1..], ln, at, line, &mut pos)?,
                }
                i = rest;
            }
        }
        if let Some((_, l0, c0)) = comment {
            return Err(RecordError::new(kind::RECORD_SYNTAX, "comment not closed").at(l0, c0));
        }
        Ok(())
    }

    /// One word: a move, or two glued together (`Ｃ２＝５Ｈ８＋７`).
    /// `rest`: the text after the word on its line; `body`: the movetext lines after it.
    #[allow(clippy::too_many_arguments)]
    fn word<'t>(
        &mut self,
        w: &'t str,
        rest: &'t str,
        body: &[(u64, usize, &'t str)],
        ln: u64,
        col: u32,
        line: &mut Line,
        pos: &mut Position,
    ) -> Result<(), RecordError> {
        let notation = match self.notation {
            Some(n) => n,
            None => {
                let head: String = w.chars().take(4).collect();
                let n = notation::sniff(w)
                    .or_else(|| notation::sniff(&head))
                    .ok_or_else(|| {
                        RecordError::new(
                            kind::UNKNOWN_NOTATION,
                            format!("'{w}' is not a move in any known notation"),
                        )
                        .at(ln, col)
                        .at_move(line.nodes.len() + 1, w)
                    })?;
                let n = if n.is_san() { Notation::SanWinboard } else { n };
                self.notation = Some(n);
                n
            }
        };
        for (k, text) in movetext::glued(w, notation) {
            let at = SourcePos {
                line: ln,
                column: col + w[..k].chars().count() as u32,
            };
            let ply = line.nodes.len() + 1;
            let r = self.player.play(text, notation, at, ply, pos, line, || {
                let later = body.iter().flat_map(|l| l.2.split_whitespace());
                movetext::following_moves(rest.split_whitespace().chain(later), 10)
            });
            self.warnings.append(&mut self.player.warnings);
            r?;
        }
        Ok(())
    }
}

/// Removes the one blank that pads a comment on each side (`{ text }`).
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

fn nag_of(m: &str) -> Option<u8> {
    Some(match m {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

fn marks_of(nag: u8) -> Option<&'static str> {
    Some(match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        _ => return None,
    })
}

/// A WXF move as the file format writes it: black pieces in lower case, `=` for `.`.
fn file_move(pos: &Position, m: crate::types::Move, out: &mut String) {
    let mut s = String::with_capacity(4);
    notation::write_move(pos, m, Notation::Wxf, &mut s);
    let black = pos.turn() == Color::Black;
    for c in s.chars() {
        out.push(match c {
            '.' => '=',
            c if black => c.to_ascii_lowercase(),
            c => c,
        });
    }
}

/// Writes one game as a WXF file (see the module documentation).
pub fn write_game(game: &Game, out: &mut String) {
    out.push_str("FORMAT WXF\n");
    // (Position equality is placement and side to move; a start numbered other than move 1, or
    // with moves already played without a capture, also needs the FEN to read back the same.)
    let standard = game.start == Position::start()
        && game.start.fullmoves() == 1
        && game.start.halfmoves() == 0;
    for (k, v) in &game.tags {
        let key = key_of_tag(k);
        if key == "FEN" || key == "RESULT" || key == "FORMAT" || key.is_empty() {
            continue;
        }
        let v = v.replace(['\r', '\n'], " ");
        out.push_str(&key);
        if !v.trim().is_empty() {
            out.push(' ');
            out.push_str(v.trim());
            // (A reader drops one ';' ending a header line.)
            if v.trim().ends_with(';') {
                out.push(';');
            }
        }
        out.push('\n');
    }
    if let Some(r) = game.result {
        out.push_str("RESULT ");
        out.push_str(r.token());
        out.push('\n');
    }
    if !standard {
        out.push_str("FEN ");
        out.push_str(&game.start.fen());
        out.push('\n');
    }
    out.push_str("START{\n");
    let comment = |c: &str, out: &mut String| {
        out.push_str(" { ");
        // (A reader sees lines: carriage returns do not survive.)
        out.push_str(
            &c.replace("\r\n", "\n")
                .replace(['\r'], "\n")
                .replace('}', ")"),
        );
        out.push_str(" }");
    };
    for c in &game.main.comments_before {
        comment(c, out);
        out.push('\n');
    }
    let mut pos = game.start;
    let mut need_number = true;
    for node in &game.main.nodes {
        if pos.turn() == Color::Red {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&format!("{:3}. ", pos.fullmoves()));
        } else if need_number {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&format!("{:3}. ... ", pos.fullmoves()));
        } else {
            out.push(' ');
        }
        file_move(&pos, node.mv, out);
        for &nag in &node.nags {
            if let Some(m) = marks_of(nag) {
                out.push_str(m);
                break;
            }
        }
        need_number = false;
        for c in &node.comments {
            comment(c, out);
            need_number = true;
        }
        pos.play_unchecked(node.mv);
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("}END\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(token("12."), Ok(("", Token::Number)));
        assert_eq!(token("!!12."), Ok(("12.", Token::Marks("!!"))));
        assert_eq!(token("C2=5!!"), Ok(("!!", Token::Word("C2=5"))));
        assert_eq!(token("33.4"), Ok(("", Token::Word("33.4"))));
        assert_eq!(token("1-0"), Ok(("", Token::Result(GameResult::RedWins))));
        assert_eq!(token("{a b} x"), Ok((" x", Token::Comment("a b"))));
        assert_eq!(token("..."), Ok(("", Token::Number)));
    }

    #[test]
    fn header_lines() {
        assert_eq!(header_line("RED Lu Qin"), Ok(("", ("RED", "Lu Qin"))));
        assert_eq!(header_line("GAME"), Ok(("", ("GAME", ""))));
        assert_eq!(tag_of_key("REDTEAM"), "RedTeam");
        assert_eq!(tag_of_key("WHATEVER"), "Whatever");
        assert_eq!(key_of_tag("RedTeam"), "REDTEAM");
        // Letters outside ASCII keep their case both ways (found by the records fuzz target:
        // a key with a Greek or full-width capital printed differently after reading back).
        assert_eq!(tag_of_key("MOVEＮ犑_2"), "MoveＮ犑_2");
        assert_eq!(key_of_tag("MoveＮ犑_2"), "MOVEＮ犑_2");
        assert_eq!(key_of_tag(&tag_of_key("RESULT_Ϥ")), "RESULT_Ϥ");
    }

    /// The standard placement with moves already played without a capture (a halfmove clock
    /// above zero) keeps its FEN, as in PGN and DhtmlXQ: found by the records fuzz target.
    #[test]
    fn start_with_a_halfmove_clock_reads_back() {
        let start = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 4 1",
        )
        .unwrap();
        let game = Game::new(start);
        let mut text = String::new();
        write_game(&game, &mut text);
        assert!(text.contains("FEN "), "{text}");
        let back = read_str(&text, "t");
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].game.start.fen(), start.fen(), "{text}");
    }

    /// Every header key reads back as the tag it was written for: a game with both a Site and
    /// a Place tag (DhtmlXQ has a place field) keeps both (PLACE once read as Site, so the second
    /// printing differed; found by the records fuzz target, crash-74acba1d).
    #[test]
    fn keys_and_tags_map_one_to_one() {
        for (k, t) in KEYS {
            assert_eq!(tag_of_key(k), *t);
            assert_eq!(key_of_tag(t), *k);
        }
        let mut game = Game::new(Position::start());
        game.tags.push(("Site".to_owned(), "Beijing".to_owned()));
        game.tags.push(("Place".to_owned(), "Hall 2".to_owned()));
        let mut text = String::new();
        write_game(&game, &mut text);
        let back = read_str(&text, "t");
        assert_eq!(back.len(), 1);
        let tags = &back[0].game.tags;
        assert!(
            tags.contains(&("Site".to_owned(), "Beijing".to_owned())),
            "{tags:?}"
        );
        assert!(
            tags.contains(&("Place".to_owned(), "Hall 2".to_owned())),
            "{tags:?}"
        );
        let mut again = String::new();
        write_game(&back[0].game, &mut again);
        assert_eq!(text, again);
    }

    /// A header value ending with ';' keeps it: the reader drops one ';' ending a header line
    /// (some files end them so), and the writer doubles a value's own (found by the records fuzz
    /// target, crash-b7731635).
    #[test]
    fn header_value_ending_with_a_semicolon() {
        let text = "FORMAT WXF\nEVENT Cup;\nSITE Hall\nSTART{\n}END\n";
        let back = read_str(text, "t");
        assert!(
            back[0]
                .game
                .tags
                .contains(&("Event".to_owned(), "Cup".to_owned()))
        );
        let mut game = Game::new(Position::start());
        game.tags
            .push(("Event".to_owned(), "Cup; final;".to_owned()));
        let mut text = String::new();
        write_game(&game, &mut text);
        let back = read_str(&text, "t");
        assert!(
            back[0]
                .game
                .tags
                .contains(&("Event".to_owned(), "Cup; final;".to_owned())),
            "{text}"
        );
        let mut again = String::new();
        write_game(&back[0].game, &mut again);
        assert_eq!(text, again);
    }
}
