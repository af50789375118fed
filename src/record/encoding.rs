//! Text encodings of game records: UTF-8 (with or without a BOM), GBK/GB18030 and Big5, detected.
//!
//! Neither PGN nor DhtmlXQ says which encoding a file uses. UTF-8 is recognised by being valid;
//! otherwise the bytes are decoded both as GB18030 and as Big5 and the decoding that yields more
//! characters typical of game records (piece names, move verbs, common words of tags) and fewer
//! replacement characters wins. Big5 bytes usually decode "successfully" as GBK into nonsense,
//! which is why validity alone cannot decide between the two.

use encoding_rs::{BIG5, Encoding, GB18030};
use std::borrow::Cow;

/// A text encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextEncoding {
    Utf8,
    /// GBK / GB18030 (simplified Chinese, xqbase, XQStudio and CCBridge exports).
    Gbk,
    /// Big5 / CP950 (traditional Chinese, Taiwanese data).
    Big5,
}

impl TextEncoding {
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "utf-8",
            TextEncoding::Gbk => "gbk",
            TextEncoding::Big5 => "big5",
        }
    }

    fn encoding(self) -> &'static Encoding {
        match self {
            TextEncoding::Utf8 => encoding_rs::UTF_8,
            TextEncoding::Gbk => GB18030,
            TextEncoding::Big5 => BIG5,
        }
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Characters that are frequent in Xiangqi records, in both simplified and traditional forms.
const TYPICAL: &str = "车車俥马馬傌炮砲包相象仕士帅帥将將兵卒进進退平前后後中一二三四五六七八九\
                       １２３４５６７８９红紅黑胜勝负負和局第年月日对對赛賽杯棋谱譜象棋先";

/// How much of a buffer the detector looks at.
const SAMPLE: usize = 64 * 1024;

/// How much of the sample the GBK/Big5 scorer decodes.
const SCORE_SAMPLE: usize = 2 * 1024;

/// How many non-ASCII bytes of the sample the scorer needs at most.
const SCORE_NON_ASCII: usize = 384;

/// The CJK unified ideographs (U+4E00-U+9FFF) of [`TYPICAL`], as a bit set.
fn typical_ideographs() -> &'static [u64; 328] {
    static SET: std::sync::OnceLock<[u64; 328]> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let mut set = [0u64; 328];
        for c in TYPICAL.chars() {
            if let Some(k) = (c as usize).checked_sub(0x4E00).filter(|&k| k < 328 * 64) {
                set[k / 64] |= 1 << (k % 64);
            }
        }
        set
    })
}

/// Guesses the encoding of `bytes` (only the first 64 KiB are examined).
pub fn detect(bytes: &[u8]) -> TextEncoding {
    if bytes.starts_with(BOM) {
        return TextEncoding::Utf8;
    }
    let sample = &bytes[..bytes.len().min(SAMPLE)];
    match std::str::from_utf8(sample) {
        Ok(_) => return TextEncoding::Utf8,
        // A multi-byte character cut by the sample boundary is still UTF-8.
        Err(e) if e.error_len().is_none() => return TextEncoding::Utf8,
        Err(_) => {}
    }
    if sample.is_ascii() {
        return TextEncoding::Utf8;
    }
    let mut cut = sample.len().min(SCORE_SAMPLE);
    // Enough double-byte text decides it: stop after SCORE_NON_ASCII bytes outside ASCII (most of
    // a record's first kilobytes are ASCII tags and move numbers).
    if let Some(k) = sample[..cut]
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b >= 0x80)
        .nth(SCORE_NON_ASCII)
        .map(|(k, _)| k)
    {
        cut = k;
    }
    // Do not split a line: cut at a line end when there is one.
    if let Some(k) = sample[..cut].iter().rposition(|&b| b == b'\n') {
        cut = k + 1;
    }
    let gbk = score(GB18030, &sample[..cut]);
    let big5 = score(BIG5, &sample[..cut]);
    if big5 > gbk {
        TextEncoding::Big5
    } else {
        TextEncoding::Gbk
    }
}

fn score(enc: &'static Encoding, bytes: &[u8]) -> i64 {
    let (text, _) = enc.decode_without_bom_handling(bytes);
    let typical = typical_ideographs();
    let mut s = 0i64;
    for c in text.chars() {
        let k = c as usize;
        if c.is_ascii() {
            continue;
        } else if c == '\u{FFFD}' {
            s -= 20;
        } else if (0x4E00..=0x9FFF).contains(&k) {
            // A character of TYPICAL, or another ideograph.
            let k = k - 0x4E00;
            s += if typical[k / 64] >> (k % 64) & 1 == 1 {
                4
            } else {
                1
            };
        } else if ('１'..='９').contains(&c) {
            // (The full-width digits of TYPICAL.)
            s += 4;
        } else if !matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}') {
            // Private-use areas, rare symbols, compatibility ideographs: typical of a wrong guess.
            s -= 2;
        }
    }
    s
}

/// Decodes `bytes` in the given encoding, dropping a UTF-8 BOM. Bytes that are invalid in that
/// encoding become U+FFFD; the second value says whether that happened.
pub fn decode(bytes: &[u8], enc: TextEncoding) -> (Cow<'_, str>, bool) {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if enc == TextEncoding::Utf8
        && let Ok(s) = std::str::from_utf8(bytes)
    {
        return (Cow::Borrowed(s), false);
    }
    let (text, had_errors) = enc.encoding().decode_without_bom_handling(bytes);
    (text, had_errors)
}

/// Decodes with `hint` when the bytes are valid in it, otherwise detects the encoding of these
/// bytes themselves. Returns the text, the encoding used and whether invalid bytes were replaced.
pub fn decode_with_hint(bytes: &[u8], hint: TextEncoding) -> (Cow<'_, str>, TextEncoding, bool) {
    let (text, bad) = decode(bytes, hint);
    if !bad {
        return (text, hint, false);
    }
    let enc = detect(bytes);
    if enc == hint {
        return (text, hint, true);
    }
    let (text, bad) = decode(bytes, enc);
    (text, enc, bad)
}

/// Decodes `bytes` in `enc`, replacing each malformed sequence by U+FFFD, and returns the byte
/// offsets (in `bytes`) of the malformed sequences, so that a reader can say where they were.
pub fn decode_reporting(bytes: &[u8], enc: TextEncoding) -> (String, Vec<usize>) {
    if let Ok(s) = std::str::from_utf8(bytes)
        && enc == TextEncoding::Utf8
    {
        return (s.to_owned(), Vec::new());
    }
    let mut bad = Vec::new();
    if enc == TextEncoding::Utf8 {
        let mut out = String::with_capacity(bytes.len() + 16);
        let mut rest = bytes;
        let mut base = 0;
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    out.push_str(s);
                    break;
                }
                Err(e) => {
                    let ok = e.valid_up_to();
                    out.push_str(std::str::from_utf8(&rest[..ok]).expect("valid prefix"));
                    out.push('\u{FFFD}');
                    bad.push(base + ok);
                    let skip = ok + e.error_len().unwrap_or(rest.len() - ok);
                    rest = &rest[skip..];
                    base += skip;
                }
            }
        }
        return (out, bad);
    }
    let mut decoder = enc.encoding().new_decoder_without_bom_handling();
    let cap = decoder
        .max_utf8_buffer_length_without_replacement(bytes.len())
        .unwrap_or(bytes.len() * 3 + 16);
    let mut out = String::with_capacity(cap);
    let mut at = 0;
    loop {
        let (r, read) = decoder.decode_to_string_without_replacement(&bytes[at..], &mut out, true);
        at += read;
        match r {
            encoding_rs::DecoderResult::InputEmpty => break,
            encoding_rs::DecoderResult::Malformed(len, extra) => {
                bad.push(at - len as usize - extra as usize);
                out.push('\u{FFFD}');
            }
            encoding_rs::DecoderResult::OutputFull => {
                out.reserve(bytes.len() - at + 16);
            }
        }
    }
    (out, bad)
}

/// Chooses the encoding of one game: UTF-8 when most of its non-ASCII bytes form valid UTF-8
/// sequences (`valid_non_ascii` against `invalid_non_ascii`), otherwise the
/// legacy encoding (GBK or Big5) that [`detect`] finds for these bytes.
pub fn choose_for_game(
    bytes: &[u8],
    valid_non_ascii: usize,
    invalid_non_ascii: usize,
) -> TextEncoding {
    if invalid_non_ascii == 0 || valid_non_ascii > invalid_non_ascii {
        return TextEncoding::Utf8;
    }
    match detect(bytes) {
        TextEncoding::Utf8 => TextEncoding::Gbk,
        e => e,
    }
}

/// How many bytes of `bytes` are not part of a valid UTF-8 sequence.
pub fn utf8_bad_bytes(bytes: &[u8]) -> usize {
    // One pass, byte by byte: the non-ASCII bytes not in a well-formed sequence. (A byte that
    // does not start a well-formed sequence is bad; the continuation bytes after it cannot start
    // one either, so that stepping one byte on counts what `from_utf8_lossy` replaces.)
    let mut bad = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            i += 1;
            continue;
        }
        let (len, second) = match b {
            0xC2..=0xDF => (2, 0x80..=0xBF),
            0xE0 => (3, 0xA0..=0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80..=0xBF),
            0xED => (3, 0x80..=0x9F),
            0xF0 => (4, 0x90..=0xBF),
            0xF1..=0xF3 => (4, 0x80..=0xBF),
            0xF4 => (4, 0x80..=0x8F),
            _ => {
                // Not a lead byte.
                bad += 1;
                i += 1;
                continue;
            }
        };
        let well_formed = bytes.get(i + 1).is_some_and(|c| second.contains(c))
            && (2..len).all(|k| bytes.get(i + k).is_some_and(|c| (0x80..=0xBF).contains(c)));
        if well_formed {
            i += len;
        } else {
            bad += 1;
            i += 1;
        }
    }
    bad
}

/// [`choose_for_game`] for a text whose lines have not been looked at yet.
pub fn choose_for_text(bytes: &[u8]) -> TextEncoding {
    if std::str::from_utf8(bytes).is_ok() {
        return TextEncoding::Utf8;
    }
    let bad = utf8_bad_bytes(bytes);
    let (valid, invalid) = (bytes.iter().filter(|&&b| b >= 0x80).count() - bad, bad);
    choose_for_game(bytes, valid, invalid)
}

/// Encodes text for writing (used by tests and by callers that must write a legacy encoding).
pub fn encode(text: &str, enc: TextEncoding) -> Cow<'_, [u8]> {
    match enc {
        TextEncoding::Utf8 => Cow::Borrowed(text.as_bytes()),
        _ => {
            let (bytes, _, _) = enc.encoding().encode(text);
            bytes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE_TEXT: &str =
        "[Event \"全国象棋锦标赛\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８\n";
    const SAMPLE_TRAD: &str =
        "[Event \"全國象棋錦標賽\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８\n";

    /// The scorer as first written (a sorted list and a binary search), against which the bit
    /// set must give the same scores.
    fn score_reference(enc: &'static Encoding, bytes: &[u8]) -> i64 {
        let mut typical: Vec<char> = TYPICAL.chars().collect();
        typical.sort_unstable();
        let (text, _) = enc.decode_without_bom_handling(bytes);
        let mut s = 0i64;
        for c in text.chars() {
            if c == '\u{FFFD}' {
                s -= 20;
            } else if c.is_ascii() {
                continue;
            } else if typical.binary_search(&c).is_ok() {
                s += 4;
            } else if ('\u{4E00}'..='\u{9FFF}').contains(&c) {
                s += 1;
            } else if !matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}') {
                s -= 2;
            }
        }
        s
    }

    #[test]
    fn scores_are_those_of_the_reference_scorer() {
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for t in [
            SAMPLE_TEXT,
            SAMPLE_TRAD,
            TYPICAL,
            "１２３４５６７８９　，。！ＡＢ丂丄乚龥",
        ] {
            for e in [TextEncoding::Gbk, TextEncoding::Big5, TextEncoding::Utf8] {
                inputs.push(encode(t, e).into_owned());
            }
        }
        // Arbitrary bytes: every pair of a lead byte and a trail byte.
        inputs.push((0x80..=0xFFu8).flat_map(|a| [a, a ^ 0x3F, b'x']).collect());
        for bytes in &inputs {
            for enc in [GB18030, BIG5] {
                assert_eq!(score(enc, bytes), score_reference(enc, bytes), "{bytes:?}");
            }
        }
    }

    #[test]
    fn detects_each_encoding() {
        assert_eq!(detect(SAMPLE_TEXT.as_bytes()), TextEncoding::Utf8);
        let mut bom = BOM.to_vec();
        bom.extend_from_slice(SAMPLE_TEXT.as_bytes());
        assert_eq!(detect(&bom), TextEncoding::Utf8);
        assert_eq!(decode(&bom, TextEncoding::Utf8).0, SAMPLE_TEXT);
        let gbk = encode(SAMPLE_TEXT, TextEncoding::Gbk);
        assert_eq!(detect(&gbk), TextEncoding::Gbk);
        assert_eq!(decode(&gbk, TextEncoding::Gbk).0, SAMPLE_TEXT);
        let big5 = encode(SAMPLE_TRAD, TextEncoding::Big5);
        assert_eq!(detect(&big5), TextEncoding::Big5);
        assert_eq!(decode(&big5, TextEncoding::Big5).0, SAMPLE_TRAD);
        // GBK can also encode the traditional text; it must still be recognised as GBK.
        let gbk_trad = encode(SAMPLE_TRAD, TextEncoding::Gbk);
        assert_eq!(detect(&gbk_trad), TextEncoding::Gbk);
    }

    #[test]
    fn bad_utf8_bytes_are_counted() {
        let gbk = encode("车九平八 马８进７", TextEncoding::Gbk).into_owned();
        let big5 = encode(SAMPLE_TRAD, TextEncoding::Big5).into_owned();
        // Pseudo-random bytes, rich in lead and continuation bytes.
        let mut x: u32 = 12345;
        let noise: Vec<u8> = (0..20_000)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let b = (x >> 16) as u8;
                if b.is_multiple_of(3) { b | 0x80 } else { b }
            })
            .collect();
        let mut all: Vec<&[u8]> = vec![
            &b"ab\xffc\xfe"[..],
            b"\xe8\xbd",
            b"ok",
            "车".as_bytes(),
            &gbk,
            &big5,
            b"\xe0\x80\x80",
            b"\xe0\xa0\x80",
            b"\xed\xa0\x80",
            b"\xf0\x8f\xbf\xbf",
            b"\xf4\x90\x80\x80",
            b"\xf4\x8f\xbf\xbf",
            b"\xc0\xaf",
            b"\xc2",
            b"\xe4\xb8",
            b"\xf0\x9f\x98",
            b"\xf0\x9f\x98\x80x",
        ];
        all.extend(noise.chunks(37));
        for bytes in all {
            // Counted as the error positions of `from_utf8` say, one error at a time.
            let (mut bad, mut rest) = (0, bytes);
            while let Err(e) = std::str::from_utf8(rest) {
                let n = e.error_len().unwrap_or(rest.len() - e.valid_up_to());
                bad += n;
                rest = &rest[e.valid_up_to() + n..];
            }
            assert_eq!(utf8_bad_bytes(bytes), bad, "{bytes:?}");
        }
    }

    #[test]
    fn malformed_bytes_are_located() {
        let (t, bad) = decode_reporting(b"ab\xffc\xfe", TextEncoding::Utf8);
        assert_eq!((t.as_str(), bad), ("ab\u{FFFD}c\u{FFFD}", vec![2, 4]));
        let mut g = encode("车九平八", TextEncoding::Gbk).into_owned();
        g.push(0x81); // a lead byte with no trail byte
        let (t, bad) = decode_reporting(&g, TextEncoding::Gbk);
        assert_eq!((t.as_str(), bad), ("车九平八\u{FFFD}", vec![8]));
    }

    #[test]
    fn hint_falls_back_to_detection() {
        let big5 = encode(SAMPLE_TRAD, TextEncoding::Big5);
        let (text, enc, bad) = decode_with_hint(&big5, TextEncoding::Utf8);
        assert_eq!(
            (text.as_ref(), enc, bad),
            (SAMPLE_TRAD, TextEncoding::Big5, false)
        );
    }
}
