//! Warnings: what a reader accepted but a user should hear about, as a set of flags per game.
//!
//! Every game read gets the same checks ([`finish`], run by the walker and the PGN reader on every
//! entry), on top of the warnings of its reader:
//!
//! | flag | kind | when |
//! |---|---|---|
//! | `BLACK_FIRST` | `black_moves_first` | Black makes the first move from the standard start |
//! | `SIDE_TO_MOVE_CORRECTED` | `side_to_move_corrected` | the record's side to move was wrong |
//! | `RESULT_NOT_UNDERSTOOD` | `result_not_understood` | a result text no form below matches |
//! | `RESULT_MISMATCH` | `result_mismatch` | the Result tag and the movetext disagree |
//! | `DUPLICATE_TAG` | `duplicate_tag` | a tag name given twice (the first one counts) |
//! | `VARIATION_CUT` | `variation_cut` | a bad move inside a variation cut it there |
//! | `ENCODING_FALLBACK` | `encoding_fallback` | bytes invalid in the encoding became U+FFFD |
//! | `OTHER_Y_AXIS` | `dhtmlxq_y_axis` | a bare DhtmlXQ move string that also replays with y from the bottom |
//! | `RESOLVED_BY_LEGALITY` | `resolved_by_legality` | a token ambiguous on paper |
//!
//! Results are normalised here too: `1-0 0-1 1/2-1/2 *`, DhtmlXQ's `W/L/D`, 红胜 黑胜 和棋 和局 未知
//! and their traditional and longer forms (紅勝, 红方胜, 红先胜, 黑负, ...). A Result tag written
//! in another form than the standard token becomes the token, and the text as written is kept in a
//! `ResultText` tag, so that a converted record has a standard `Result` and loses nothing.

use super::error::RecordError;
use super::game::{Format, GameEntry, GameResult};
use crate::notation::Notation;
use crate::position::Position;
use crate::types::{Color, Move, Square};

bitflags::bitflags! {
    /// The kinds of warnings of one game.
    #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Warnings: u16 {
        const BLACK_FIRST = 1;
        const SIDE_TO_MOVE_CORRECTED = 1 << 1;
        const RESULT_NOT_UNDERSTOOD = 1 << 2;
        const RESULT_MISMATCH = 1 << 3;
        const DUPLICATE_TAG = 1 << 4;
        const VARIATION_CUT = 1 << 5;
        const ENCODING_FALLBACK = 1 << 6;
        const OTHER_Y_AXIS = 1 << 7;
        const RESOLVED_BY_LEGALITY = 1 << 8;
        /// Any other warning kind.
        const OTHER = 1 << 15;
    }
}

/// The kind names of the flags, in flag order.
pub const KINDS: &[(Warnings, &str)] = &[
    (Warnings::BLACK_FIRST, "black_moves_first"),
    (Warnings::SIDE_TO_MOVE_CORRECTED, "side_to_move_corrected"),
    (Warnings::RESULT_NOT_UNDERSTOOD, "result_not_understood"),
    (Warnings::RESULT_MISMATCH, "result_mismatch"),
    (Warnings::DUPLICATE_TAG, "duplicate_tag"),
    (Warnings::VARIATION_CUT, "variation_cut"),
    (Warnings::ENCODING_FALLBACK, "encoding_fallback"),
    (Warnings::OTHER_Y_AXIS, "dhtmlxq_y_axis"),
    (Warnings::RESOLVED_BY_LEGALITY, "resolved_by_legality"),
];

impl Warnings {
    /// The flag of a warning kind.
    pub fn of_kind(kind: &str) -> Warnings {
        KINDS
            .iter()
            .find(|(_, k)| *k == kind)
            .map_or(Warnings::OTHER, |(f, _)| *f)
    }

    /// The kind names of the flags set.
    pub fn names(self) -> Vec<&'static str> {
        KINDS
            .iter()
            .filter(|(f, _)| self.contains(*f))
            .map(|(_, k)| *k)
            .collect()
    }
}

impl GameEntry {
    /// The set of warning kinds of this game.
    pub fn warning_flags(&self) -> Warnings {
        self.warnings
            .iter()
            .fold(Warnings::empty(), |f, w| f | Warnings::of_kind(&w.kind))
    }
}

impl GameResult {
    /// Reads a result in any form met in records: the PGN tokens (also `½-½`, `1:0`, `0:1`),
    /// DhtmlXQ's `W` / `L` / `D` (Red's point of view), 红胜 / 黑胜 / 和棋 / 和局 / 未知 and their
    /// traditional and longer forms (紅勝, 红方胜, 红先胜, 黑负, 和, 平局, 未完, ...).
    pub fn parse_text(text: &str) -> Option<GameResult> {
        let t = text.trim();
        if let Some(r) = GameResult::from_token(t) {
            return Some(r);
        }
        match t.to_ascii_uppercase().as_str() {
            "W" | "1:0" | "RED WINS" | "RED WON" => return Some(GameResult::RedWins),
            "L" | "0:1" | "BLACK WINS" | "BLACK WON" => return Some(GameResult::BlackWins),
            "D" | "DRAW" | "½:½" | "1/2" | "0.5-0.5" => return Some(GameResult::Draw),
            "?" | "UNKNOWN" | "-" => return Some(GameResult::Unknown),
            _ => {}
        }
        // Simplified characters, without 方 / 先 / 棋 / 局 / punctuation.
        let s: String = t
            .chars()
            .map(|c| match c {
                '紅' => '红',
                '勝' => '胜',
                '負' => '负',
                '詳' => '详',
                c => c,
            })
            .filter(|c| {
                !matches!(
                    c,
                    '方' | '先' | '棋' | '局' | '。' | '.' | ' ' | '　' | '！'
                )
            })
            .collect();
        Some(match s.as_str() {
            "红胜" | "黑负" | "红赢" | "黑输" => GameResult::RedWins,
            "黑胜" | "红负" | "黑赢" | "红输" => GameResult::BlackWins,
            "和" | "平" | "红和" | "黑和" | "双和" | "作和" | "判和" => {
                GameResult::Draw
            }
            "未知" | "未完" | "不详" | "未详" | "进行中" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// The checks every game gets after its reader (see the module documentation). Also sets the
/// source and game index of every warning.
pub fn finish(entry: &mut GameEntry) {
    let mut found: Vec<RecordError> = Vec::new();
    let game = &mut entry.game;
    // Results.
    if let Some(i) = game
        .tags
        .iter()
        .position(|(k, _)| k.eq_ignore_ascii_case("Result"))
    {
        let written = game.tags[i].1.clone();
        match GameResult::parse_text(&written) {
            _ if written.trim().is_empty() => {}
            Some(r) => {
                if game.result.is_none() {
                    game.result = Some(r);
                }
                if written.trim() != r.token() {
                    game.tags[i].1 = r.token().to_owned();
                    if !game
                        .tags
                        .iter()
                        .any(|(k, _)| k.eq_ignore_ascii_case("ResultText"))
                    {
                        game.tags.insert(i + 1, ("ResultText".to_owned(), written));
                    }
                }
            }
            None => found.push(RecordError::new(
                "result_not_understood",
                format!(
                    "the result \"{}\" is not a result this reader knows",
                    written.trim()
                ),
            )),
        }
    }
    // Duplicate tags.
    for (i, (k, _)) in game.tags.iter().enumerate() {
        // Said once, at the second tag of a name.
        let mut earlier = game.tags[..i]
            .iter()
            .filter(|(j, _)| j.eq_ignore_ascii_case(k));
        if earlier.next().is_some() && earlier.next().is_none() {
            let n = game
                .tags
                .iter()
                .filter(|(j, _)| j.eq_ignore_ascii_case(k))
                .count();
            found.push(RecordError::new(
                "duplicate_tag",
                format!("the tag {k} is given {n} times; the first one is used"),
            ));
        }
    }
    // Black first from the standard start.
    if game.start.turn() == Color::Black && !game.main.nodes.is_empty() {
        let mut s = game.start.to_setup();
        s.turn = Color::Red;
        if Position::from_setup(s).is_ok_and(|p| p == Position::start()) {
            let n = &game.main.nodes[0];
            found.push(
                RecordError::new(
                    "black_moves_first",
                    "Black makes the first move from the standard start position",
                )
                .at(n.pos.line, n.pos.column)
                .at_move(1, n.text.clone()),
            );
        }
    }
    // Encoding fallback: bytes that were not valid text in the encoding read.
    let bad = game
        .tags
        .iter()
        .any(|(k, v)| k.contains('\u{FFFD}') || v.contains('\u{FFFD}'))
        || game
            .main
            .comments_before
            .iter()
            .any(|c| c.contains('\u{FFFD}'))
        || game
            .main
            .nodes
            .iter()
            .any(|n| n.comments.iter().any(|c| c.contains('\u{FFFD}')))
        || game
            .trailing_text
            .as_ref()
            .is_some_and(|t| t.contains('\u{FFFD}'));
    // (Not when the reader already located each replaced byte.)
    let located = entry
        .warnings
        .iter()
        .any(|w| w.kind == crate::record::error::kind::ENCODING);
    if bad && !located {
        let enc = entry.encoding.map_or("the text encoding", |e| e.name());
        found.push(RecordError::new(
            "encoding_fallback",
            format!("some bytes are not valid {enc}: they were replaced by U+FFFD"),
        ));
    }
    entry.warnings.extend(found);
    explain_missing_move(entry);
    for w in &mut entry.warnings {
        w.source.clone_from(&entry.source);
        w.game = entry.index;
    }
}

/// For a bare DhtmlXQ move string (no `binit`, no `fen`): whether y counted from the bottom, the
/// other convention of some tools, reads better. A string that replays in full with y from the
/// top also replays mirrored, so the question only arises when the usual reading has Black move
/// first from the standard start (`black_first`) or stops at an illegal move: then the warning
/// says how far each reading gets when the other one gets at least as far.
pub fn other_y_axis(
    moves: &str,
    read_plies: usize,
    black_first: bool,
    format: Format,
) -> Option<RecordError> {
    let d: Vec<u8> = moves
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    if d.len() < 4 {
        return None;
    }
    let mut pos = Position::start();
    let mut plies = 0;
    let sq = |x: u8, y: u8| {
        (x <= 8 && y <= 9)
            .then(|| Square::from_xy(x as i32, y as i32))
            .flatten()
    };
    for (k, m) in d.chunks_exact(4).enumerate() {
        let (Some(a), Some(b)) = (sq(m[0], m[1]), sq(m[2], m[3])) else {
            break;
        };
        let mv = Move::new(a, b);
        if k == 0
            && let Some(p) = pos.piece_at(a)
            && p.color != pos.turn()
        {
            let mut s = pos.to_setup();
            s.turn = p.color;
            pos = Position::from_setup(s).ok()?;
        }
        if !crate::notation::is_legal_move(&pos, mv) {
            break;
        }
        pos.play_unchecked(mv);
        plies += 1;
    }
    let total = d.len() / 4;
    ((black_first || read_plies < total) && plies > 0 && plies >= read_plies).then(|| {
        RecordError::new(
            "dhtmlxq_y_axis",
            format!(
                "a bare {} move string (no binit): read with y from the top ({read_plies} of {total} \
                 moves replay); with y from the bottom, the other convention, {plies} replay",
                format.name()
            ),
        )
    })
}

/// One move text of a record as a move, in the record's notation or, for formats that store
/// squares, from its digits (DhtmlXQ) or ICCS. `None` when it is not a legal move of `pos`.
fn text_move(
    notation: Option<Notation>,
    format: Format,
    pos: &Position,
    text: &str,
) -> Option<Move> {
    match notation {
        Some(n) => crate::notation::parse_move(pos, text, n).ok().map(|p| p.mv),
        None if format == Format::Dhtmlxq => {
            let d: Vec<u8> = text.bytes().map(|b| b.wrapping_sub(b'0')).collect();
            let sq = |x: u8, y: u8| {
                (x <= 8 && y <= 9)
                    .then(|| Square::from_xy(x as i32, 9 - y as i32))
                    .flatten()
            };
            match d.as_slice() {
                [a, b, c, e] => {
                    let m = Move::new(sq(*a, *b)?, sq(*c, *e)?);
                    crate::notation::is_legal_move(pos, m).then_some(m)
                }
                _ => None,
            }
        }
        None => crate::notation::parse_move(pos, text, Notation::Iccs)
            .ok()
            .map(|p| p.mv),
    }
}

/// What to say about a `wrong_side` error at ply `ply` when one move of the side to move of `pos`
/// seems to be missing: every legal move of that side is tried in front of the bad move and of
/// the moves after it (`texts`: the bad move first, then as many following move texts as the
/// reader has); the moves after which the most of them replay are the suggestions. Returns the
/// sentence to add to the error's message and the suggestions (in the record's notation), or
/// `None` when no single move makes the bad move legal.
pub fn missing_move_note(
    pos: &Position,
    texts: &[&str],
    notation: Option<Notation>,
    format: Format,
    ply: usize,
) -> Option<(String, Vec<String>)> {
    let side = pos.turn();
    let mut best = 0;
    let mut fits: Vec<Move> = Vec::new();
    for m in pos.legal_moves() {
        let mut p = pos.after(m);
        let mut n = 0;
        for t in texts {
            match text_move(notation, format, &p, t) {
                Some(mv) => {
                    p.play_unchecked(mv);
                    n += 1;
                }
                None => break,
            }
        }
        if n == 0 || n < best {
            continue;
        }
        if n > best {
            best = n;
            fits.clear();
        }
        fits.push(m);
    }
    if fits.is_empty() {
        return None;
    }
    let shown: Vec<String> = fits
        .iter()
        .take(8)
        .map(|&m| crate::notation::print_move(pos, m, notation.unwrap_or(Notation::Iccs)))
        .collect();
    let msg = format!(
        "a move of {side} seems to be missing before ply {ply}: {} {side} move{} before it let \
         {best} of the next {} moves replay: {}{}",
        fits.len(),
        if fits.len() == 1 { "" } else { "s" },
        texts.len(),
        shown.join(", "),
        if fits.len() > shown.len() {
            ", ..."
        } else {
            ""
        }
    );
    Some((msg, shown))
}

/// A `wrong_side` error is often one missing move: says so (unless the reader did, with the moves
/// after it), trying the bad move alone.
fn explain_missing_move(entry: &mut GameEntry) {
    let Some(e) = &entry.error else {
        return;
    };
    if e.kind != "wrong_side" || e.message.contains("seems to be missing") {
        return;
    }
    let (Some(ply), Some(text)) = (e.ply, e.move_text.clone()) else {
        return;
    };
    let done = entry.game.main.nodes.len();
    if ply != done + 1 {
        return;
    }
    let pos = entry.game.position_at(done);
    let note = missing_move_note(&pos, &[&text], entry.notation, entry.format, ply);
    if let Some((msg, shown)) = note {
        add_note(entry.error.as_mut().expect("checked"), msg, shown);
    }
}

/// Adds a missing-move note to an error: the sentence to the message, the moves in front of the
/// suggestions.
pub fn add_note(e: &mut RecordError, msg: String, shown: Vec<String>) {
    e.message = format!("{}; {msg}", e.message);
    let mut s = shown;
    s.extend(std::mem::take(&mut e.suggestions));
    s.dedup();
    e.suggestions = s;
}
