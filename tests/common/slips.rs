//! A generator of score-sheet slips over real games, with a fixed seed, and the measure of how
//! well a reader's error explains them (today's suggestions, and the repairs).
//!
//! The games are the main lines (`ref_iccs`) of `tests/data/games/manifest.jsonl` that start from
//! the standard position. Each sheet is one game written in Chinese, WXF or ICCS with one slip of
//! one kind (or two slips), kept only when the sheet then fails: a slip that gives another legal
//! game nobody can see.
//!
//! Shared by `tests/repair.rs` (rates asserted) and `examples/repair_rates.rs` (rates printed).
#![allow(dead_code)]

use xiangqi_arbiter::notation::{Notation, parse_move, print_move};
use xiangqi_arbiter::record::pgn;
use xiangqi_arbiter::{Move, Position};

/// The kinds of slip (the table).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A numeral of the move one off (六 for 五): the last one (steps or destination file).
    Digit,
    /// 进 for 退 and back (WXF + / -; ICCS: the destination rank on the other side of the start).
    Direction,
    /// The file of the moving piece one off (ICCS: the start file letter).
    FileNumeral,
    /// Another piece (马 for 车).
    Piece,
    /// A move left out.
    LeftOut,
    /// A move written twice.
    Twice,
    /// Two moves of one side swapped.
    Swapped,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Digit,
        Kind::Direction,
        Kind::FileNumeral,
        Kind::Piece,
        Kind::LeftOut,
        Kind::Twice,
        Kind::Swapped,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Digit => "digit",
            Kind::Direction => "direction",
            Kind::FileNumeral => "file numeral",
            Kind::Piece => "piece",
            Kind::LeftOut => "left out",
            Kind::Twice => "written twice",
            Kind::Swapped => "swapped",
        }
    }
}

/// SplitMix64: a small generator with a fixed seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The real games: main lines from the standard start, at least 40 plies.
pub fn games() -> Vec<Vec<Move>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/games/manifest.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("manifest");
    let start_fen = Position::start().fen();
    let mut out = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        let (Some(fen), Some(iccs)) = (v["fen"].as_str(), v["ref_iccs"].as_str()) else {
            continue;
        };
        if v["ref_ok"] != true || fen != start_fen {
            continue;
        }
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for t in iccs.split_whitespace() {
            let m = parse_move(&pos, t, Notation::Iccs)
                .expect("reference move")
                .mv;
            pos.play_unchecked(m);
            moves.push(m);
        }
        if moves.len() >= 40 {
            out.push(moves);
        }
    }
    out
}

/// One sheet with slips.
#[derive(Clone, Debug)]
pub struct Sheet {
    pub kind: Kind,
    pub notation: Notation,
    /// The game played.
    pub truth: Vec<Move>,
    /// The moves as written, slips included.
    pub texts: Vec<String>,
    /// The 0-based ply of the (first) slip as written.
    pub at: usize,
}

impl Sheet {
    /// The sheet as a PGN game.
    pub fn pgn(&self) -> String {
        let mut s = String::new();
        match self.notation {
            Notation::Chinese => {}
            n => s.push_str(&format!("[Format \"{}\"]\n", n.label())),
        }
        s.push('\n');
        for (i, t) in self.texts.iter().enumerate() {
            if i % 2 == 0 {
                s.push_str(&format!("{}. ", i / 2 + 1));
            }
            s.push_str(t);
            s.push(' ');
        }
        s.push_str("*\n");
        s
    }
}

/// The texts of a line in a notation.
pub fn written(moves: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = Position::start();
    moves
        .iter()
        .map(|&m| {
            let t = print_move(&pos, m, notation);
            pos.play_unchecked(m);
            t
        })
        .collect()
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The numeral `c` moved `delta` on, in its own script (`None` off the scale).
fn shift_numeral(c: char, delta: i32) -> Option<char> {
    let shift = |set: &[char], base: i32| {
        let i = set.iter().position(|&x| x == c)? as i32 + delta;
        (i >= 0 && i < set.len() as i32)
            .then(|| set[i as usize])
            .filter(|_| base >= 0)
    };
    if let Some(x) = shift(&RED_NUMERALS, 0) {
        return Some(x);
    }
    if let Some(x) = shift(&FULL_DIGITS, 0) {
        return Some(x);
    }
    if c.is_ascii_digit() {
        let d = c as i32 - '0' as i32 + delta;
        let (lo, hi) = (0, 9);
        return (lo..=hi).contains(&d).then(|| char::from(b'0' + d as u8));
    }
    if ('a'..='i').contains(&c) {
        let d = c as i32 - 'a' as i32 + delta;
        return (0..9).contains(&d).then(|| char::from(b'a' + d as u8));
    }
    None
}

/// `text` with character `i` replaced by `c`.
fn with_char(text: &str, i: usize, c: char) -> String {
    text.chars()
        .enumerate()
        .map(|(k, x)| if k == i { c } else { x })
        .collect()
}

/// One slip of `kind` in the text of move `m` (`t`), or `None` when that kind does not apply.
fn slip_text(t: &str, kind: Kind, notation: Notation, rng: &mut Rng) -> Option<String> {
    let chars: Vec<char> = t.chars().collect();
    let delta = if rng.below(2) == 0 { -1 } else { 1 };
    match (kind, notation) {
        (Kind::Digit, _) => {
            let i = chars.len() - 1;
            let c = shift_numeral(chars[i], delta).or_else(|| shift_numeral(chars[i], -delta))?;
            Some(with_char(t, i, c))
        }
        (Kind::FileNumeral, Notation::Iccs) => {
            let c = shift_numeral(chars[0], delta).or_else(|| shift_numeral(chars[0], -delta))?;
            Some(with_char(t, 0, c))
        }
        (Kind::FileNumeral, _) => {
            let c = shift_numeral(chars[1], delta).or_else(|| shift_numeral(chars[1], -delta))?;
            Some(with_char(t, 1, c))
        }
        (Kind::Direction, Notation::Iccs) => {
            // The destination rank on the other side of the start rank.
            if chars[0] != chars[2] {
                return None;
            }
            let (from, to) = (chars[1] as i32 - '0' as i32, chars[3] as i32 - '0' as i32);
            let other = 2 * from - to;
            (0..=9)
                .contains(&other)
                .then(|| with_char(t, 3, char::from(b'0' + other as u8)))
        }
        (Kind::Direction, _) => {
            let i = chars
                .iter()
                .position(|c| matches!(c, '进' | '退'))
                .or_else(|| {
                    (notation == Notation::Wxf && matches!(chars.get(2), Some('+' | '-')))
                        .then_some(2)
                })?;
            let c = match chars[i] {
                '进' => '退',
                '退' => '进',
                '+' => '-',
                _ => '+',
            };
            Some(with_char(t, i, c))
        }
        (Kind::Piece, Notation::Iccs) => None,
        (Kind::Piece, _) => {
            let i = 0;
            let set: &[char] = match notation {
                Notation::Wxf => &['R', 'H', 'E', 'A', 'K', 'C', 'P'],
                _ => &['车', '马', '相', '仕', '炮', '兵', '象', '士', '卒'],
            };
            if !set.contains(&chars[i]) {
                return None;
            }
            let others: Vec<char> = set.iter().copied().filter(|&c| c != chars[i]).collect();
            Some(with_char(t, i, others[rng.below(others.len())]))
        }
        _ => None,
    }
}

/// Whether the texts replay as a game from the start.
pub fn replays(texts: &[String], notation: Notation) -> Option<Vec<Move>> {
    let mut pos = Position::start();
    let mut out = Vec::new();
    for t in texts {
        let m = parse_move(&pos, t, notation).ok()?.mv;
        pos.play_unchecked(m);
        out.push(m);
    }
    Some(out)
}

/// A sheet of `truth` in `notation` with one slip of `kind` at a random ply, made so that the
/// sheet fails (up to a few tries); `None` when no try gave a failing sheet.
pub fn make(truth: &[Move], notation: Notation, kind: Kind, rng: &mut Rng) -> Option<Sheet> {
    let clean = written(truth, notation);
    for _ in 0..12 {
        let mut texts = clean.clone();
        let Some(at) = slip(&mut texts, notation, kind, rng) else {
            continue;
        };
        if replays(&texts, notation).is_none() {
            return Some(Sheet {
                kind,
                notation,
                truth: truth.to_vec(),
                texts,
                at,
            });
        }
    }
    None
}

/// Makes one slip of `kind` in `texts` at a random ply (from the 3rd to the last but two): the
/// ply, or `None` when that kind does not apply there.
pub fn slip(
    texts: &mut Vec<String>,
    notation: Notation,
    kind: Kind,
    rng: &mut Rng,
) -> Option<usize> {
    let n = texts.len();
    let k = 2 + rng.below(n - 4);
    match kind {
        Kind::LeftOut => {
            texts.remove(k);
        }
        Kind::Twice => {
            let t = texts[k].clone();
            texts.insert(k + 1, t);
        }
        Kind::Swapped => {
            if texts[k] == texts[k + 2] {
                return None;
            }
            texts.swap(k, k + 2);
        }
        _ => match slip_text(&texts[k], kind, notation, rng) {
            Some(t) if t != texts[k] => texts[k] = t,
            _ => return None,
        },
    }
    Some(k)
}

/// A sheet of `truth` with two slips of the given kinds, at least 10 plies apart, failing.
pub fn make_two(
    truth: &[Move],
    notation: Notation,
    kinds: (Kind, Kind),
    rng: &mut Rng,
) -> Option<Sheet> {
    let clean = written(truth, notation);
    for _ in 0..12 {
        let mut texts = clean.clone();
        let n = texts.len();
        // The later slip first, in the second half, so that the first one's ply stays put.
        let mut later = texts.split_off(n / 2);
        let mut head = std::mem::take(&mut texts);
        let (Some(_), Some(at)) = (
            slip(&mut later, notation, kinds.1, rng),
            slip(&mut head, notation, kinds.0, rng),
        ) else {
            continue;
        };
        head.append(&mut later);
        if replays(&head, notation).is_none() {
            return Some(Sheet {
                kind: kinds.0,
                notation,
                truth: truth.to_vec(),
                texts: head,
                at,
            });
        }
    }
    None
}

/// How a reader's error explains one sheet.
#[derive(Copy, Clone, Debug, Default)]
pub struct Outcome {
    /// Today's suggestions: the first one (replacing the failing move, or put in front of it for
    /// a missing move) gives the game played.
    pub before_top: bool,
    /// ... or one of them does.
    pub before_any: bool,
    /// The first repair gives the game played.
    pub after_top: bool,
    /// One of the repairs does.
    pub after_any: bool,
    /// Search nodes spent.
    pub nodes: u64,
    pub cut_short: bool,
}

/// Reads the sheet as a PGN record and measures its error's suggestions and repairs.
pub fn measure(sheet: &Sheet) -> Outcome {
    let text = sheet.pgn();
    let entry = pgn::parse_game(&text, 1);
    let mut o = Outcome::default();
    let Some(e) = &entry.error else {
        return o;
    };
    // Today's suggestions, at the failing ply.
    if let Some(ply) = e.ply {
        let f = ply - 1;
        for (i, s) in e.suggestions.iter().enumerate() {
            let mut replaced = sheet.texts.clone();
            replaced[f] = s.clone();
            let mut inserted = sheet.texts.clone();
            inserted.insert(f, s.clone());
            let hit = [replaced, inserted]
                .iter()
                .any(|t| replays(t, sheet.notation).as_deref() == Some(&sheet.truth[..]));
            if hit {
                o.before_any = true;
                o.before_top |= i == 0;
            }
        }
    }
    for (i, r) in e.repairs.iter().enumerate() {
        if r.replays_to_end && r.moves == sheet.truth {
            o.after_any = true;
            o.after_top |= i == 0;
        }
    }
    o.cut_short = e.repairs_cut_short;
    o
}
