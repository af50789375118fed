//! The main line of a PGN game as written: where each move's text stands in the game's text,
//! read without playing the moves (so past a move that cannot be played), and the game's text
//! with edits made to those moves ([`edit_text`], for the score-sheet repair).
//!
//! Comments (`{...}`, `;` to the end of the line), variations (nested), NAGs, `%` escape lines,
//! move numbers and annotation marks are skipped as the PGN reader skips them; moves glued
//! together are cut as it cuts them ([`super::movetext::first_move_len`]); a result token ends
//! the movetext.

use super::game::GameResult;
use super::movetext;
use crate::notation::Notation;

/// The byte spans (start, end) of the main-line moves in `text` (one PGN game: tags and
/// movetext), in order.
pub fn main_line_spans(text: &str, notation: Notation) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    let mut line_start = true;
    let mut in_tags = true;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | 0x0B | 0x0C => {
                i += 1;
                continue;
            }
            0xE3 if b[i..].starts_with("\u{3000}".as_bytes()) => {
                i += 3;
                continue;
            }
            _ => {}
        }
        let at_line_start = std::mem::take(&mut line_start);
        match c {
            b'[' if in_tags && b.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic()) => {
                i = text[i..].find('\n').map_or(b.len(), |k| i + k);
            }
            b'{' => {
                in_tags = false;
                i = text[i..].find('}').map_or(b.len(), |k| i + k + 1);
            }
            b';' => {
                i = text[i..].find('\n').map_or(b.len(), |k| i + k);
            }
            b'%' if at_line_start => {
                i = text[i..].find('\n').map_or(b.len(), |k| i + k);
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => {
                in_tags = false;
                let end = word_end(b, i);
                if end == i {
                    i += text[i..].chars().next().map_or(1, char::len_utf8);
                    continue;
                }
                let word = &text[i..end];
                if depth == 0 {
                    if GameResult::from_token(word).is_some() {
                        break;
                    }
                    if !word.starts_with('$') {
                        push_moves(word, i, notation, &mut spans);
                    }
                }
                i = end;
            }
        }
    }
    spans
}

/// The end of a word starting at `from` (as the PGN reader cuts words).
fn word_end(b: &[u8], from: usize) -> usize {
    let mut k = from;
    while k < b.len() {
        match b[k] {
            b' ' | b'\t' | b'\r' | b'\n' | b'{' | b'}' | b'(' | b')' | b';' | b'[' => break,
            b'$' if k > from => break,
            0xE3 if b[k..].starts_with("\u{3000}".as_bytes()) => break,
            _ => k += 1,
        }
    }
    k
}

/// The moves of one movetext word at `at`: the move number and annotation marks dropped, glued
/// moves cut apart.
fn push_moves(word: &str, at: usize, notation: Notation, spans: &mut Vec<(usize, usize)>) {
    let mut w = word;
    let mut at = at;
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && !(notation == Notation::Wxf && super::pgn::is_wxf_digit_move(w)) {
        let rest = &w[digits..];
        let dots = rest.len() - rest.trim_start_matches(['.', '…', '。', '．']).len();
        if dots > 0 {
            w = &rest[dots..];
            at += digits + dots;
        }
    }
    if w.trim_start_matches(['.', '…']).is_empty() {
        return;
    }
    let body = w.trim_end_matches(['!', '?']);
    let mut k = 0;
    while k < body.len() {
        let len = movetext::first_move_len(&body[k..], notation);
        spans.push((at + k, at + k + len));
        k += len;
    }
}

/// An edit of the written moves, for [`edit_text`]: 0-based indices into the spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextEdit {
    /// Move `i` is written `text`.
    Replace { i: usize, text: String },
    /// `text` goes before move `i` (or after the last one when `i` is their number).
    Insert { i: usize, text: String },
    /// Move `i` goes.
    Delete { i: usize },
    /// Moves `i` and `j` trade places.
    Swap { i: usize, j: usize },
}

/// `text` with the edits made to its written moves (`spans`, from [`main_line_spans`]), each
/// followed by the comment `notes[k]` (unless empty). Everything else is kept as written.
pub fn edit_text(
    text: &str,
    spans: &[(usize, usize)],
    edits: &[TextEdit],
    notes: &[String],
) -> String {
    // (start, end, replacement), applied from the end.
    let mut cuts: Vec<(usize, usize, String)> = Vec::new();
    let note = |k: usize| {
        notes
            .get(k)
            .filter(|n| !n.is_empty())
            .map(|n| format!(" {{{}}} ", n.replace('}', ")")))
            .unwrap_or_else(|| " ".to_owned())
    };
    for (k, e) in edits.iter().enumerate() {
        match e {
            TextEdit::Replace { i, text: t } => {
                let (s, en) = spans[*i];
                cuts.push((s, en, format!(" {t}{}", note(k))));
            }
            TextEdit::Insert { i, text: t } => {
                let at = spans
                    .get(*i)
                    .map_or_else(|| spans.last().map_or(text.len(), |s| s.1), |s| s.0);
                cuts.push((at, at, format!(" {t}{}", note(k))));
            }
            TextEdit::Delete { i } => {
                let (s, en) = spans[*i];
                cuts.push((s, en, note(k)));
            }
            TextEdit::Swap { i, j } => {
                let (a, b) = (spans[*i], spans[*j]);
                cuts.push((a.0, a.1, format!(" {}{}", &text[b.0..b.1], note(k))));
                cuts.push((b.0, b.1, format!(" {} ", &text[a.0..a.1])));
            }
        }
    }
    // Later cuts first; at one offset, an insertion after a replacement of what follows.
    cuts.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut out = text.to_owned();
    for (s, e, r) in cuts {
        out.replace_range(s..e, &r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str, n: Notation) -> Vec<&str> {
        main_line_spans(t, n)
            .into_iter()
            .map(|(s, e)| &t[s..e])
            .collect()
    }

    #[test]
    fn moves_past_comments_variations_and_numbers() {
        let t = "[Event \"x\"]\n[Site \"(a)\"]\n\n1. 炮二平五 {中炮 (x)} 马８进７ (1... 炮８平５ 2. 马二进三) \
                 2.马二进三!? $1 车９平８\n; a line comment 马\n3. 车一平二马２进３ 1-0 4. 车二进六";
        assert_eq!(
            texts(t, Notation::Chinese),
            [
                "炮二平五",
                "马８进７",
                "马二进三",
                "车９平８",
                "车一平二",
                "马２进３"
            ]
        );
        assert_eq!(
            texts("1. 33.4 C2.5 2... h2e2", Notation::Wxf),
            ["33.4", "C2.5", "h2e2"]
        );
    }

    #[test]
    fn edits_keep_everything_else() {
        let t = "[Event \"x\"]\n1. 炮二平五 {c} 马８进７ 2. 马二进三 车９平８ *";
        let spans = main_line_spans(t, Notation::Chinese);
        let out = edit_text(
            t,
            &spans,
            &[
                TextEdit::Replace {
                    i: 1,
                    text: "马２进３".into(),
                },
                TextEdit::Insert {
                    i: 3,
                    text: "车一平二".into(),
                },
            ],
            &["r".into(), String::new()],
        );
        assert_eq!(
            texts(&out, Notation::Chinese),
            ["炮二平五", "马２进３", "马二进三", "车一平二", "车９平８"]
        );
        assert!(out.contains("{c}") && out.contains("{r}") && out.starts_with("[Event"));
        let out = edit_text(
            t,
            &spans,
            &[TextEdit::Swap { i: 0, j: 2 }, TextEdit::Delete { i: 3 }],
            &[],
        );
        assert_eq!(
            texts(&out, Notation::Chinese),
            ["马二进三", "马８进７", "炮二平五"]
        );
    }
}
