//! What the line structure of a PGN file is made of, in one place for its three users: the
//! splitter that cuts a stream into games ([`super::pgn::PgnSplitter`]), the reader of one game
//! ([`super::pgn::parse_game`]: white space between tokens, the text after the result) and the
//! writer (which must never write a comment or a text after the result that the splitter would
//! take for the start of another game, and must print what it reads back the same way).
//!
//! * White space ([`is_space`]): every character with the Unicode `White_Space` property: the
//!   ASCII blanks (space, tab, LF, VT, FF, CR) and U+0085, U+00A0 (no-break space), U+1680,
//!   U+2000..U+200A, U+2028, U+2029, U+202F, U+205F and U+3000 (ideographic space, common in
//!   Chinese records). Only LF ends a line.
//! * A blank line ([`is_blank`]) holds nothing else.
//! * A tag line ([`is_tag_line`]) is `[` and an ASCII letter after any white space.
//! * The text after the result ([`trailing_text`]): everything after the result token but the
//!   white space that separates it from the token (the rest of the result's line up to the text,
//!   or the blank lines after it: the first line's indentation is kept) and the white space at
//!   the end.

/// Whether `c` is white space in PGN (see the module documentation).
#[inline]
pub fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// `s` without its leading white space.
pub fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_space)
}

/// `s` without its trailing white space.
pub fn trim_end(s: &str) -> &str {
    s.trim_end_matches(is_space)
}

/// Whether a line holds nothing but white space.
pub fn is_blank(line: &str) -> bool {
    line.chars().all(is_space)
}

/// The length in bytes of the white space character starting at byte `at` of `s` (which must
/// be a character boundary), or 0 when there is none. For scanning bytes: only a few lead bytes
/// can start a white space character outside ASCII, so text in Chinese is not decoded.
#[inline]
pub fn space_len_at(s: &str, at: usize) -> usize {
    match s.as_bytes().get(at) {
        Some(b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r') => 1,
        Some(0xC2 | 0xE1 | 0xE2 | 0xE3) => match s[at..].chars().next() {
            Some(c) if is_space(c) => c.len_utf8(),
            _ => 0,
        },
        _ => 0,
    }
}

/// Whether a line starts a tag pair: `[Name ...` after any white space.
pub fn is_tag_line(line: &str) -> bool {
    let b = trim_start(line).as_bytes();
    b.len() >= 2 && b[0] == b'[' && b[1].is_ascii_alphabetic()
}

/// Whether a line is one or more complete tag pairs (`[Name "value"]`), white space around them
/// allowed.
pub fn is_full_tag_line(line: &str) -> bool {
    let t = trim_end(trim_start(line));
    is_tag_line(t) && t.ends_with("\"]") && t.contains(" \"")
}

/// Whether a line ends with a result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
pub fn ends_with_result(line: &str) -> bool {
    matches!(
        line.split(is_space).rfind(|w| !w.is_empty()),
        Some("1-0" | "0-1" | "1/2-1/2" | "*")
    )
}

/// Whether a line begins with move number 1 (`1.`, `1 .`, `1...`) after any white space: the
/// start of a game's moves.
pub fn starts_first_move(line: &str) -> bool {
    trim_start(line)
        .strip_prefix('1')
        .is_some_and(|rest| trim_start(rest).starts_with('.'))
}

/// The text after a game's result token, `rest` being everything after the token: `None` when
/// it is only white space. Text on the result's own line is taken from its first character (the
/// white space before it separates it from the token); otherwise the blank lines are dropped
/// and the first line with text keeps its indentation. White space at the end is dropped.
pub fn trailing_text(rest: &str) -> Option<String> {
    let (first, after) = rest.split_once('\n').unwrap_or((rest, ""));
    let text = if is_blank(first) {
        let mut t = after;
        while let Some((line, next)) = t.split_once('\n') {
            if !is_blank(line) {
                break;
            }
            t = next;
        }
        t
    } else {
        trim_start(rest)
    };
    let text = trim_end(text);
    (!text.is_empty()).then(|| text.to_owned())
}

/// The lines of a text after the result as the writer puts them, so that [`trailing_text`] reads
/// them back as they are: without the carriage returns at the line ends (a reader takes lines
/// without their line ends), the blank lines at the start and the white space at the end.
pub fn trailing_lines(t: &str) -> impl Iterator<Item = &str> {
    trim_end(t)
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .skip_while(|l| is_blank(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_len_matches_is_space() {
        for c in (0..=0x3000u32).filter_map(char::from_u32) {
            let s = format!("{c}x");
            let want = if is_space(c) { c.len_utf8() } else { 0 };
            assert_eq!(space_len_at(&s, 0), want, "U+{:04X}", c as u32);
        }
        assert_eq!(space_len_at("", 0), 0);
    }

    #[test]
    fn trailing_text_keeps_indentation_of_its_own_line() {
        assert_eq!(trailing_text("\n x"), Some(" x".into()));
        assert_eq!(
            trailing_text(" \n\u{3000}\n\u{c}x \n"),
            Some("\u{c}x".into())
        );
        assert_eq!(trailing_text("  x\n y "), Some("x\n y".into()));
        assert_eq!(trailing_text(" \n\u{a0}\n"), None);
        assert_eq!(trailing_text(""), None);
    }
}
